//! The cell file of environment A and the figure data it carries: for the
//! figure scenario of each log, the cumulative value and the Gantt data of
//! the largest cluster over its busiest 4 hours.

use serde::{Deserialize, Serialize};

use super::variant::Variant;
use crate::env::parallel::environment::Parallel;
use crate::env::parallel::summary::{RunSummary, summarize};
use crate::env::parallel::{RunResult, TaskStatus};
use crate::experiment::grid::{CellSpec, Plan};
use crate::workload::Scenario;

/// Length of the Gantt window from the start of the counted day, s.
pub const GANTT_WINDOW_SECONDS: f64 = 4.0 * 3600.0;

/// One bar of the Gantt data: a task on the Gantt cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GanttRecord {
    /// SWF job number.
    pub job: i64,
    /// Node index ranges `[from, to)` within the cluster.
    pub nodes: Vec<(u32, u32)>,
    /// Start, s on the log's clock.
    pub start: f64,
    /// Completion (or the end of the run when cut off), s.
    pub end: f64,
    /// Value earned / starting value (0 when not completed).
    pub value_fraction: f64,
}

/// The schedule of one cluster over a window of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GanttData {
    /// Heuristic of the run.
    pub heuristic: String,
    /// Cluster index (the one with the most cores; ties to more nodes, then
    /// the lower index).
    pub cluster: usize,
    /// Its nodes.
    pub nodes: u32,
    /// Its cores per node.
    pub cores_per_node: u32,
    /// The window, s on the log's clock.
    pub window: (f64, f64),
    /// Midnight of the counted day, s (the origin of the time axis).
    pub time_origin: f64,
    /// Tasks that ran on the cluster and overlap the window, in task order.
    pub bars: Vec<GanttRecord>,
}

/// What one finished cell leaves on disk: `<out>/cells/<id>.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellResult {
    /// The cell id.
    pub id: String,
    /// Position in the cell order.
    pub index: usize,
    /// Log key.
    pub log: String,
    /// The variant.
    pub variant: Variant,
    /// The run summary (its timing fields are wall clock and differ between
    /// runs; every other field is deterministic).
    pub summary: RunSummary,
    /// Figure scenario only: (completion s, value earned) of every counted
    /// completed task, by completion time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative: Option<Vec<(f64, f64)>>,
    /// Figure scenario and Gantt heuristic only: the schedule of the largest
    /// cluster over a 4-hour window ([`gantt_data`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gantt: Option<GanttData>,
}

pub(super) fn cell_result(
    plan: &Plan<Parallel>,
    cell: &CellSpec,
    scenario: &Scenario,
    run: &RunResult,
) -> CellResult {
    let layout = &plan.layout;
    let log = &layout.logs[cell.log];
    let summary = summarize(
        &log.file,
        &layout.heuristics[cell.heuristic],
        plan.config.seed,
        scenario,
        run,
    );
    let figure = layout.is_figure_cell(cell);
    let cumulative = figure.then(|| {
        let mut pts: Vec<(f64, f64)> = scenario
            .tasks
            .iter()
            .zip(&run.outcomes)
            .filter(|(t, o)| t.counted && o.status == TaskStatus::Completed)
            .filter_map(|(_, o)| o.completion.map(|c| (c, o.value)))
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        pts
    });
    let gantt = (figure && cell.heuristic == layout.gantt_heuristic())
        .then(|| gantt_data(scenario, run, &layout.heuristics[cell.heuristic]));
    CellResult {
        id: cell.id.clone(),
        index: cell.index,
        log: log.key.clone(),
        variant: plan
            .section
            .variant_list()
            .get(cell.variant)
            .copied()
            .unwrap_or_default(),
        summary,
        cumulative,
        gantt,
    }
}

/// The schedule of the largest cluster of `scenario` in `run` (most cores,
/// then most nodes) over the [`GANTT_WINDOW_SECONDS`] window, opening on a
/// whole hour of the counted day, that holds the most node-seconds of work.
pub fn gantt_data(scenario: &Scenario, run: &RunResult, heuristic: &str) -> GanttData {
    let clusters = &scenario.system.clusters;
    let cluster = (0..clusters.len())
        .max_by(|&a, &b| {
            clusters[a]
                .cores()
                .cmp(&clusters[b].cores())
                .then(clusters[a].nodes.cmp(&clusters[b].nodes))
                .then(b.cmp(&a))
        })
        .unwrap_or(0);
    // The window is the busiest one: of the windows opening on a whole hour
    // of the counted day, the one with the most node-seconds of work on the
    // cluster (ties to the earliest), so the chart shows the schedule under
    // pressure rather than an idle morning.
    let hours = 24usize;
    let mut busy = vec![0.0_f64; hours + 4];
    for (_, o) in scenario.tasks.iter().zip(&run.outcomes) {
        if o.cluster != Some(cluster) {
            continue;
        }
        let Some(start) = o.start else { continue };
        let end = o.completion.unwrap_or(run.end_time);
        let nodes = f64::from(o.nodes.len());
        for (h, b) in busy.iter_mut().enumerate() {
            let lo = scenario.day.start + h as f64 * 3600.0;
            let overlap = (end.min(lo + 3600.0) - start.max(lo)).max(0.0);
            *b += nodes * overlap;
        }
    }
    let span = (GANTT_WINDOW_SECONDS / 3600.0).round() as usize;
    let best_hour = (0..=hours.saturating_sub(span))
        .map(|h| (h, busy[h..h + span].iter().sum::<f64>()))
        .fold((0usize, f64::NEG_INFINITY), |acc, x| {
            if x.1 > acc.1 { x } else { acc }
        })
        .0;
    let offset = best_hour as f64 * 3600.0;
    let from = scenario.day.start + offset;
    let window = (from, from + GANTT_WINDOW_SECONDS);
    let bars = scenario
        .tasks
        .iter()
        .zip(&run.outcomes)
        .filter(|(_, o)| o.cluster == Some(cluster))
        .filter_map(|(t, o)| {
            let start = o.start?;
            let end = o.completion.unwrap_or(run.end_time);
            (start < window.1 && end > window.0).then(|| GanttRecord {
                job: t.job_number,
                nodes: o.nodes.ranges().iter().map(|r| (r.start, r.end)).collect(),
                start,
                end,
                value_fraction: if o.status == TaskStatus::Completed && t.value.start_value() > 0.0
                {
                    o.value / t.value.start_value()
                } else {
                    0.0
                },
            })
        })
        .collect();
    let c = clusters.get(cluster).copied();
    GanttData {
        heuristic: heuristic.to_string(),
        cluster,
        nodes: c.map_or(0, |c| c.nodes),
        cores_per_node: c.map_or(0, |c| c.cores_per_node),
        window,
        time_origin: scenario.day.start,
        bars,
    }
}
