//! Experiment grids of any environment (docs/outputs.md): configurations
//! ([`config`]), the [`Grid`](grid::Grid) trait with the layout and plan of a grid
//! ([`grid`]), the parallel, resumable, shardable runner ([`runner`]), the
//! manifest every output directory holds ([`manifest`]) and the output
//! directory's lock ([`outdir`]). Nothing here names an environment: each
//! implements [`Grid`](grid::Grid) in its own folder (`env/<name>/grid`), with its cell
//! files, tables, Markdown, figures and presets.
//!
//! A grid is a list of *cells*: (log, variant, scenario, heuristic). Cells are
//! numbered in a fixed order — log (config order), variant (the environment's
//! [`Grid::variants`](grid::Grid::variants)), day (time order), heuristic
//! (config order) — and each finished cell is one JSON file
//! `<out>/cells/<cell-id>.json`, so a grid can be interrupted, resumed and
//! spread over machines; everything downstream is computed from those files
//! alone and is byte-identical however the cells were produced.

pub mod config;
pub mod grid;
pub mod manifest;
pub mod outdir;
pub mod report;
pub mod runner;

pub use config::{ConfigError, ExperimentConfig};

use std::path::PathBuf;

/// Errors of the experiment library.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    /// A configuration error.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A log could not be found.
    #[error(transparent)]
    Catalog(#[from] crate::catalog::CatalogError),
    /// A log could not be read.
    #[error(transparent)]
    Swf(#[from] crate::swf::SwfError),
    /// A heuristic name is unknown.
    #[error(transparent)]
    Heuristic(#[from] crate::contract::UnknownName),
    /// An environment cannot set up a run (a parameter that does not fit).
    #[error(transparent)]
    Env(#[from] crate::contract::EnvError),
    /// A table could not be written.
    #[error(transparent)]
    Table(#[from] crate::metrics::tables::TableError),
    /// A scenario could not be generated (degenerate system size).
    #[error("{log} {date}: cannot generate the scenario: {source}")]
    Scenario {
        /// Log key.
        log: String,
        /// Day.
        date: String,
        /// The generator's error.
        source: crate::workload::ScenarioError,
    },
    /// A log's days cannot be chosen (environment A).
    #[error("{log}: {source}")]
    Days {
        /// Log key.
        log: String,
        /// Why.
        source: crate::workload::DayError,
    },
    /// A manifest's layout that does not fit the environment that reads it.
    #[error("the grid's layout does not fit its environment: {what}")]
    Layout {
        /// What does not fit.
        what: String,
    },
    /// Two logs of a config map to the same short key.
    #[error("logs `{0}` and `{1}` have the same key `{2}`; give each log once")]
    DuplicateLog(String, String, String),
    /// A bad `--shard` value.
    #[error(
        "--shard `{0}`: expected i/N with N ≥ 1 and 0 ≤ i ≤ N (i is taken mod N, so 0/N and N/N are the same shard)"
    )]
    Shard(String),
    /// An output directory holds results of a different configuration.
    #[error("{}: holds results of a different configuration ({what}); use another --out or remove the directory", dir.display())]
    Mismatch {
        /// The directory.
        dir: PathBuf,
        /// What differs.
        what: String,
    },
    /// A directory given to `aggregate` has no manifest.
    #[error("{}: no manifest.json (not an experiment output directory)", dir.display())]
    NoManifest {
        /// The directory.
        dir: PathBuf,
    },
    /// The scenario seed the runner derived differs from the generator's
    /// (a bug: the two derivations drifted apart).
    #[error("{log} {date}: scenario seed {expected} expected, {got} generated")]
    SeedDrift {
        /// Log key.
        log: String,
        /// Day.
        date: String,
        /// Seed in the layout.
        expected: u64,
        /// Seed of the generated scenario.
        got: u64,
    },
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Another process is writing into the output directory.
    #[error("{}: {holder} is writing into this directory; wait for it to finish, or give another --out", dir.display())]
    Busy {
        /// The directory.
        dir: PathBuf,
        /// Who holds it: pid, command and start time, as it recorded them.
        holder: String,
    },
    /// A cell file that does not parse or does not hold the cell its name
    /// says: never aggregated.
    #[error("{}: corrupt cell file ({reason}); it is not aggregated: run `swftool experiment` on the directory that holds it again, which moves it to corrupt/ and runs the cell again", path.display())]
    CorruptCell {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A JSON file (cell or manifest) does not parse.
    #[error("{}: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// The JSON error.
        source: serde_json::Error,
    },
    /// A polars error while building tables (a bug).
    #[error("building tables: {0}")]
    Polars(#[from] polars::prelude::PolarsError),
    /// A figure could not be rendered.
    #[error(transparent)]
    Report(#[from] crate::report::ReportError),
}

impl ExperimentError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ExperimentError {
        let path = path.into();
        move |source| ExperimentError::Io { path, source }
    }
}
