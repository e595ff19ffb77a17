//! From runs to numbers: per-run summaries of environment A (docs/parallel.md
//! "Outputs per run") and the tables written to disk ([`super::tables`]).

use super::{RunResult, TaskStatus};
use crate::workload::Scenario;

/// The per-run summary of environment A. Every field but the timing ones is
/// a deterministic function of the log, the seed and the heuristic.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunSummary {
    /// Log file name.
    pub log: String,
    /// Short key of the log ([`crate::catalog::log_key`]).
    #[serde(default)]
    pub log_key: String,
    /// Local date of the counted day.
    pub date: String,
    /// Heuristic CLI name.
    pub heuristic: String,
    /// User seed.
    pub seed: u64,
    /// Scenario seed derived from it and the day.
    pub scenario_seed: u64,
    /// Oversubscription level.
    pub oversubscription: String,
    /// Value/time correlation.
    pub correlation: String,
    /// ETC heterogeneity.
    pub heterogeneity: String,
    /// The variant's label (`default`, or its non-default levels).
    #[serde(default)]
    pub variant: String,
    /// The system, e.g. `120x16+900x1` (nodes x cores per node, per cluster).
    pub system: String,
    /// Total cores of the system.
    pub system_cores: u64,
    /// The mean system size asked for (the oversubscription level's share
    /// of the base), cores.
    #[serde(default)]
    pub system_target_cores: f64,
    /// Tasks simulated (warm-up and counted).
    pub tasks_simulated: usize,
    /// Tasks counted (arriving in the 24-hour window).
    pub tasks_counted: usize,
    /// Counted tasks completed.
    pub tasks_completed: usize,
    /// Counted tasks dropped.
    pub tasks_dropped: usize,
    /// Counted tasks neither completed nor dropped when the run stopped.
    pub tasks_unfinished: usize,
    /// Counted tasks wider than every cluster (among the dropped: they fit
    /// nowhere).
    #[serde(default)]
    pub tasks_too_wide: usize,
    /// Value earned by the counted tasks (value units).
    pub value_earned: f64,
    /// Maximum value bound: sum of the counted tasks' starting values.
    pub value_bound: f64,
    /// 100 · earned / bound (%).
    pub percent_of_bound: f64,
    /// Number of mapping events.
    pub mapping_events: usize,
    /// Mean heuristic wall time per mapping event, s (not deterministic).
    pub heuristic_seconds_mean: f64,
    /// Largest heuristic wall time of one mapping event, s (not deterministic).
    pub heuristic_seconds_max: f64,
}

/// Summarises `run` of `heuristic` on `scenario`.
pub fn summarize(
    log: &str,
    heuristic: &str,
    seed: u64,
    scenario: &Scenario,
    run: &RunResult,
) -> RunSummary {
    let mut s = RunSummary {
        log: log.to_string(),
        log_key: crate::catalog::log_key(log),
        date: scenario.day.date.clone(),
        heuristic: heuristic.to_string(),
        seed,
        scenario_seed: scenario.seed,
        oversubscription: scenario.params.oversubscription.to_string(),
        correlation: scenario.params.correlation.to_string(),
        heterogeneity: scenario.params.heterogeneity.to_string(),
        variant: super::params::variant_label(&scenario.params),
        system: scenario
            .system
            .clusters
            .iter()
            .map(|c| format!("{}x{}", c.nodes, c.cores_per_node))
            .collect::<Vec<_>>()
            .join("+"),
        system_cores: scenario.system.total_cores(),
        system_target_cores: scenario.target_cores,
        tasks_simulated: scenario.tasks.len(),
        tasks_counted: 0,
        tasks_completed: 0,
        tasks_dropped: 0,
        tasks_unfinished: 0,
        tasks_too_wide: scenario.too_wide(),
        value_earned: 0.0,
        value_bound: 0.0,
        percent_of_bound: 0.0,
        mapping_events: run.events.len(),
        heuristic_seconds_mean: 0.0,
        heuristic_seconds_max: 0.0,
    };
    for (t, o) in scenario.tasks.iter().zip(&run.outcomes) {
        if !t.counted {
            continue;
        }
        s.tasks_counted += 1;
        s.value_bound += t.value.start_value();
        s.value_earned += o.value;
        match o.status {
            TaskStatus::Completed => s.tasks_completed += 1,
            TaskStatus::Dropped => s.tasks_dropped += 1,
            TaskStatus::Unfinished => s.tasks_unfinished += 1,
        }
    }
    s.percent_of_bound =
        crate::metrics::columns::pct_of_max(s.value_earned, s.value_bound).unwrap_or(0.0);
    if !run.events.is_empty() {
        let total: f64 = run.events.iter().map(|e| e.heuristic_seconds).sum();
        s.heuristic_seconds_mean = total / run.events.len() as f64;
        s.heuristic_seconds_max = run
            .events
            .iter()
            .map(|e| e.heuristic_seconds)
            .fold(0.0, f64::max);
    }
    s
}
