//! The error of the workloads that environments B and C build, read and
//! write: a parameter out of range, a degenerate draw, a log's day with
//! nothing to size a system on, and every problem of a written synthetic
//! trial (its SWF log, header keys and sidecar table; [`super::sidecar`]).
//! Messages name the flag or the file, line and key.

use crate::metrics::tables::TableError;
use crate::model::etc::CovError;
use crate::model::utility::UtilityError;
use crate::swf::SwfError;

/// A workload that cannot be built, read or written: a synthetic trial
/// of environment B or C, a log's day as serial tasks (B), or the SWF log
/// and sidecar table of a written trial ([`super::sidecar`]).
#[derive(Debug, thiserror::Error)]
pub enum WorkloadError {
    /// A parameter out of its range; `flag` is the command-line flag
    /// (`--burst-size`) or, for parameters without one, the config field.
    #[error("{flag} {value}: {reason}")]
    Parameter {
        /// The flag or field.
        flag: &'static str,
        /// Its value as given.
        value: String,
        /// What it must be.
        reason: String,
    },
    /// The workload would have more tasks than its generator builds
    /// (`limit`: environment B's `MAX_TASKS`).
    #[error(
        "the workload would have {what} tasks, more than swftool builds ({limit}); \
         lower the burst size, the cores or the tasks per core and day"
    )]
    TooManyTasks {
        /// How many (expected or reached).
        what: String,
        /// The most tasks the generator builds.
        limit: usize,
    },
    /// An ETC or system draw got degenerate parameters.
    #[error(transparent)]
    Draw(#[from] CovError),
    /// A utility function could not be built.
    #[error(transparent)]
    Utility(#[from] UtilityError),
    /// No usable job of the log arrives in the day's counted 24 h.
    #[error(
        "{log}, day {date}: no usable job arrives in the counted 24 h, so there is nothing to size the system on; pick another day"
    )]
    EmptyDay {
        /// The log.
        log: String,
        /// The day.
        date: String,
    },
    /// The SWF log of a synthetic workload could not be read.
    #[error(transparent)]
    Swf(#[from] SwfError),
    /// A header value a synthetic workload needs is missing or bad.
    #[error("{path}: header `; {key}:` {problem}")]
    Header {
        /// The SWF file.
        path: String,
        /// The key.
        key: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A bad line of a sidecar table.
    #[error("{path}:{line}: {problem}")]
    Sidecar {
        /// The table.
        path: String,
        /// 1-based line (1 is the column names).
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// The SWF log and its sidecar table do not describe the same tasks.
    #[error("{path}: {problem}")]
    Mismatch {
        /// The file the problem is reported against.
        path: String,
        /// What is wrong.
        problem: String,
    },
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A sidecar table could not be built or written.
    #[error(transparent)]
    Table(#[from] TableError),
}
