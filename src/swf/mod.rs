//! Reading and writing job logs in the Standard Workload Format (SWF) of the
//! Parallel Workloads Archive (PWA), version 2.2.
//!
//! * [`read_log`] / [`read_from`]: `.swf` and `.swf.gz` (gzip detected by
//!   magic bytes), strict by default, lenient on request ([`ReadOptions`]);
//!   the result is an [`SwfLog`]: typed [`SwfHeader`], [`JobRecord`]s, a
//!   [`SkipReport`] and the number of blank lines.
//! * [`write_log`] / [`write_path`]: header lines verbatim, then one line per
//!   job; `parse(write(x)) == x`.
//! * [`simulation_jobs`]: which jobs a simulation can use, with a
//!   [`FilterReport`] of what was removed and why (docs/parallel.md, "Which jobs are used").
//! * [`sacct`]: Slurm accounting (`sacct --parsable2`) read as a log
//!   (every reader above recognises it) and SWF written as it.
//! * [`parser`]: the nom line parsers, usable on their own.
//! * [`frame::jobs_frame`]: the jobs as a polars DataFrame (unknown as null).
//!
//! Errors are [`SwfError`]s naming the file, the 1-based line and the reason.

pub mod error;
pub mod filter;
pub mod frame;
pub mod header;
pub mod parser;
pub mod reader;
pub mod record;
pub mod sacct;
pub mod writer;

pub use error::{FIELD_COUNT, LineError, SkipKind, SwfError};
pub use filter::{FilterReport, SimJob, filter_report, simulation_jobs};
pub use header::{HeaderProblem, HeaderValue, SwfHeader};
pub use reader::{
    OrderReport, ReadOptions, SacctZone, SkipReport, SwfLog, read_from, read_log, read_log_zoned,
};
pub use record::JobRecord;
pub use writer::{format_job, write_log, write_path};
