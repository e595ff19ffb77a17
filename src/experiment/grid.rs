//! What the grid runner needs from an environment beyond [`Environment`]:
//! how a configuration gives its parameters and variants, how a log is laid
//! out into scenarios, how the scenario of a cell is built, what a cell file
//! holds, and which tables, Markdown and figures the cells give. The runner
//! ([`super::runner`]), `experiment`, `compare` and `aggregate` are written
//! once against it; environment A implements it in [`super::parallel`],
//! environment D in [`super::classic`].

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::ExperimentError;
use super::config::{ExperimentConfig, Variant};
use super::runner::{CellSpec, Layout, LogLayout, Plan};
use crate::env::Environment;
use crate::swf::SwfLog;

/// What a report wrote: the Markdown to print, the tables (each as CSV and
/// Parquet) and the other files.
#[derive(Debug, Clone, Default)]
pub struct GridReport {
    /// Lines printed before the Markdown (not written).
    pub preface: String,
    /// Markdown printed at the end (also written to a file).
    pub markdown: String,
    /// Table names written into the output directory.
    pub tables: Vec<&'static str>,
    /// Other files written (Markdown, figures), in a fixed order.
    pub files: Vec<PathBuf>,
}

/// An environment the grid runner can run.
pub trait Grid: Environment {
    /// What one finished cell leaves in `cells/<id>.json`.
    type Cell: Serialize + DeserializeOwned + Send + Sync;

    /// The environment's parameters as `config` gives them.
    fn grid_args(config: &ExperimentConfig) -> Self::Args;

    /// The distinct variants of the grid (none where the environment has no
    /// variant axes: its cells then have the variant id `default`).
    fn variants(config: &ExperimentConfig) -> Vec<Variant>;

    /// Prepares one log (read from the file `key` names) and lays out its
    /// scenarios.
    ///
    /// # Errors
    /// A log without a usable scenario, a date it does not have, a
    /// parameter that does not fit it.
    fn lay_out(
        log: &SwfLog,
        key: &str,
        config: &ExperimentConfig,
        args: &Self::Args,
    ) -> Result<(Self::Prepared, LogLayout), ExperimentError>;

    /// The scenario of `cell` (shared by the cells that differ only in the
    /// heuristic).
    ///
    /// # Errors
    /// A scenario that cannot be generated.
    fn scenario(plan: &Plan<Self>, cell: &CellSpec) -> Result<Self::Scenario, ExperimentError>;

    /// The cell file of one run.
    fn cell(
        plan: &Plan<Self>,
        cell: &CellSpec,
        scenario: &Self::Scenario,
        heuristic: &Self::Heuristic,
        run: &Self::Run,
    ) -> Self::Cell;

    /// The id a cell file holds.
    fn cell_id(cell: &Self::Cell) -> &str;

    /// Sets a loaded cell's position in the cell order.
    fn set_index(cell: &mut Self::Cell, index: usize);

    /// Writes the tables, the Markdown summary and (with `figures`) the
    /// figures of `cells` (in cell order) into `out`.
    ///
    /// # Errors
    /// A table or figure that cannot be built or written.
    fn report(
        layout: &Layout,
        config: &ExperimentConfig,
        cells: &[Self::Cell],
        out: &Path,
        figures: bool,
    ) -> Result<GridReport, ExperimentError>;

    /// The configuration and layout a replay of one log amounts to (its
    /// heuristics, the scenarios it built, every parameter and seed), for
    /// the replay's manifest.
    fn replay_grid(
        spec: &str,
        heuristics: &[Self::Heuristic],
        prepared: &Self::Prepared,
        scenarios: &[Self::Scenario],
        args: &Self::Args,
    ) -> (ExperimentConfig, Layout);

    /// `compare`: the side-by-side Markdown (also `compare.md`) and figure
    /// of the logs of the grid.
    ///
    /// # Errors
    /// A file that cannot be written.
    fn compare(
        layout: &Layout,
        cells: &[Self::Cell],
        out: &Path,
    ) -> Result<GridReport, ExperimentError>;
}
