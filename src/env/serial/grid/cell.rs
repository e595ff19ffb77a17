//! What environment B's grid keeps and reads: its configuration keys
//! ([`SerialSection`]), the view its reports read ([`SerialView`]), and
//! what a finished cell leaves on disk ([`SerialCell`], with the Gantt
//! data of the figure's run), in a file of their own so that the report's
//! files (`aggregate.rs`, `figures.rs`) import them without importing the
//! `Grid` impl that calls them (`grid/mod.rs`).

use serde::{Deserialize, Serialize};

use super::variant::{self, SerialAxis, SerialVariant};
use crate::env::serial::params::SerialArgs;
use crate::env::serial::summary::SerialSummary;
use crate::experiment::ExperimentError;
use crate::experiment::config::ExperimentConfig;
use crate::experiment::grid::Layout;

/// Environment B's own keys of an experiment configuration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SerialSection {
    /// Workload axes expanded to the paper's levels (the others at the
    /// `[serial]` base).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub serial_axes: Vec<SerialAxis>,
    /// `[serial]`: the flags of `replay --env serial` without the dashes,
    /// `-` as `_`.
    #[serde(skip_serializing_if = "is_default_args")]
    pub serial: SerialArgs,
}

fn is_default_args(a: &SerialArgs) -> bool {
    *a == SerialArgs::default()
}

impl SerialSection {
    /// The distinct workload variants of the grid.
    pub fn variant_list(&self) -> Vec<SerialVariant> {
        variant::variant_list(&self.serial_axes, SerialVariant::of_args(&self.serial))
    }
}

/// What the reports read of a grid: its layout, its section and its
/// variants.
pub struct SerialView<'a> {
    /// The grid's layout.
    pub layout: &'a Layout,
    /// Environment B's keys of its configuration.
    pub section: SerialSection,
    /// Its workload variants, in layout order.
    pub variants: Vec<SerialVariant>,
}

impl<'a> SerialView<'a> {
    /// The view of `layout` run with `config`.
    ///
    /// # Errors
    /// A configuration or layout that is not environment B's.
    pub fn new(
        layout: &'a Layout,
        config: &ExperimentConfig,
    ) -> Result<SerialView<'a>, ExperimentError> {
        Ok(SerialView {
            layout,
            section: config.section()?,
            variants: layout.variants_as()?,
        })
    }
}

/// The heuristic whose schedule the Gantt chart shows, when in the grid.
pub const GANTT_HEURISTIC: &str = "maxupt-preempt-greedy";

/// Length of the Gantt window, s.
pub const GANTT_WINDOW_SECONDS: f64 = 3600.0;

/// One piece on the Gantt cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GanttPiece {
    /// Job number.
    pub job: i64,
    /// Core within the cluster.
    pub core: u32,
    /// Start, s.
    pub start: f64,
    /// End, s.
    pub end: f64,
    /// Whether the task completes at the end of this piece (else it was
    /// preempted, or the run ended).
    pub completes: bool,
    /// Whether the task is critical.
    pub critical: bool,
    /// Whether the piece resumes a preempted task.
    pub resumes: bool,
}

/// The schedule of one cluster over one hour of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SerialGantt {
    /// Heuristic of the run.
    pub heuristic: String,
    /// Cluster index (the one with the most cores; the lower on ties).
    pub cluster: usize,
    /// Its cores.
    pub cores: u32,
    /// The hour shown, s on the scenario clock.
    pub window: (f64, f64),
    /// Pieces that overlap the window.
    pub pieces: Vec<GanttPiece>,
    /// Preemptions on the cluster inside the window.
    pub preemptions: usize,
}

/// What one finished cell of environment B leaves on disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SerialCell {
    /// The cell id.
    pub id: String,
    /// Position in the cell order.
    pub index: usize,
    /// Log key (`synthetic` for synthetic trials).
    pub log: String,
    /// The workload variant.
    pub variant: SerialVariant,
    /// The run summary (deterministic).
    pub summary: SerialSummary,
    /// Heuristic wall time per mapping event: mean and max, s (wall clock).
    pub heuristic_seconds: (f64, f64),
    /// Figure scenario only: (completion s, utility earned in the window)
    /// of every task that earned, by completion time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative: Option<Vec<(f64, f64)>>,
    /// Figure scenario and Gantt heuristic only: one cluster over one hour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gantt: Option<SerialGantt>,
}
