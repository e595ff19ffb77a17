//! Output tables of environment A, as polars DataFrames written to CSV and
//! Parquet ([`crate::metrics::tables::write_both`]). Data crosses the library as typed structs and becomes a
//! DataFrame only here.
//!
//! `jobs` — one row per simulated task:
//!
//! | column | unit | meaning |
//! |---|---|---|
//! | log, date, heuristic | – | run identity |
//! | job_number | – | SWF field 1 |
//! | counted | bool | arrived in the counted 24 h (false: warm-up) |
//! | submit_s | s | submit time on the log's clock (SWF field 2) |
//! | processors | cores | processors (cores) requested |
//! | status | – | completed, dropped or unfinished |
//! | cluster | – | cluster index (null if never placed) |
//! | nodes | nodes | nodes held (null if never placed) |
//! | node_list | – | node indices within the cluster, e.g. `0-15,32` (null if never placed) |
//! | start_s, end_s | s | start and completion (null if none) |
//! | wait_s | s | start − arrival |
//! | etc_s | s | ETC on the cluster it ran on |
//! | start_value | value units | value if completed by the soft deadline |
//! | soft_deadline_s, hard_deadline_s | s | value function breakpoints |
//! | value_earned | value units | value at completion (0 if not completed) |
//! | dropped_at_s | s | when dropped (null otherwise) |
//!
//! `summary` — one row per run: the fields of [`super::summary::RunSummary`] except
//! the timing ones; `timing` — per run: mapping events and the mean, max and
//! total heuristic seconds per mapping event. `summary` and `jobs` are
//! byte-identical for the same seed on any thread count; `timing` is wall
//! clock and is not.

use polars::prelude::*;

use super::summary::RunSummary;
use super::{RunResult, TaskStatus};
use crate::model::ValueFunction;
use crate::workload::Scenario;

/// One replayed run, for the tables.
pub struct RunRecord<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// What the run produced.
    pub run: &'a RunResult,
    /// Its summary.
    pub summary: &'a RunSummary,
}

fn col<T>(name: &str, v: Vec<T>) -> Column
where
    Series: NamedFrom<Vec<T>, [T]>,
{
    Column::new(name.into(), v)
}

/// The `jobs` table of several runs.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn jobs_frame(runs: &[RunRecord<'_>]) -> PolarsResult<DataFrame> {
    let n: usize = runs.iter().map(|r| r.scenario.tasks.len()).sum();
    let mut log = Vec::with_capacity(n);
    let mut date = Vec::with_capacity(n);
    let mut heuristic = Vec::with_capacity(n);
    let mut job = Vec::with_capacity(n);
    let mut counted = Vec::with_capacity(n);
    let mut arrival = Vec::with_capacity(n);
    let mut cores = Vec::with_capacity(n);
    let mut status = Vec::with_capacity(n);
    let mut cluster: Vec<Option<u32>> = Vec::with_capacity(n);
    let mut nodes: Vec<Option<u32>> = Vec::with_capacity(n);
    let mut node_list: Vec<Option<String>> = Vec::with_capacity(n);
    let mut start: Vec<Option<f64>> = Vec::with_capacity(n);
    let mut completion: Vec<Option<f64>> = Vec::with_capacity(n);
    let mut wait: Vec<Option<f64>> = Vec::with_capacity(n);
    let mut etc: Vec<Option<f64>> = Vec::with_capacity(n);
    let mut start_value = Vec::with_capacity(n);
    let mut soft: Vec<Option<f64>> = Vec::with_capacity(n);
    let mut hard: Vec<Option<f64>> = Vec::with_capacity(n);
    let mut earned = Vec::with_capacity(n);
    let mut dropped_at: Vec<Option<f64>> = Vec::with_capacity(n);
    for r in runs {
        for (t, o) in r.scenario.tasks.iter().zip(&r.run.outcomes) {
            log.push(r.summary.log.clone());
            date.push(r.summary.date.clone());
            heuristic.push(r.summary.heuristic.clone());
            job.push(t.job_number);
            counted.push(t.counted);
            arrival.push(t.arrival);
            cores.push(t.cores);
            status.push(match o.status {
                TaskStatus::Completed => "completed",
                TaskStatus::Dropped => "dropped",
                TaskStatus::Unfinished => "unfinished",
            });
            cluster.push(o.cluster.map(|c| c as u32));
            // Never placed (dropped, or unfinished without a slot): null,
            // like `cluster` and `start_s`.
            let placed = o.cluster.is_some();
            nodes.push(placed.then(|| o.nodes.len()));
            node_list.push(placed.then(|| o.nodes.to_string()));
            start.push(o.start);
            completion.push(o.completion);
            wait.push(o.start.map(|s| s - t.arrival));
            etc.push(o.cluster.map(|c| t.etc[c]));
            start_value.push(t.value.start_value());
            let (s, h) = match t.value {
                ValueFunction::Linear {
                    soft_deadline,
                    hard_deadline,
                    ..
                } => (Some(soft_deadline), Some(hard_deadline)),
                ValueFunction::Step { deadline, .. } => (None, Some(deadline)),
            };
            soft.push(s);
            hard.push(h);
            earned.push(o.value);
            dropped_at.push(o.dropped_at);
        }
    }
    DataFrame::new_infer_height(vec![
        col("log", log),
        col("date", date),
        col("heuristic", heuristic),
        col("job_number", job),
        col("counted", counted),
        col("submit_s", arrival),
        col("processors", cores),
        col("status", status),
        col("cluster", cluster),
        col("nodes", nodes),
        col("node_list", node_list),
        col("start_s", start),
        col("end_s", completion),
        col("wait_s", wait),
        col("etc_s", etc),
        col("start_value", start_value),
        col("soft_deadline_s", soft),
        col("hard_deadline_s", hard),
        col("value_earned", earned),
        col("dropped_at_s", dropped_at),
    ])
}

/// The `summary` table (deterministic columns only).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn summary_frame(summaries: &[RunSummary]) -> PolarsResult<DataFrame> {
    let s = summaries;
    let strs = |f: fn(&RunSummary) -> &str| s.iter().map(|x| f(x).to_string()).collect::<Vec<_>>();
    let u64s = |f: fn(&RunSummary) -> u64| s.iter().map(f).collect::<Vec<_>>();
    let f64s = |f: fn(&RunSummary) -> f64| s.iter().map(f).collect::<Vec<_>>();
    DataFrame::new_infer_height(vec![
        col("log", strs(|x| &x.log)),
        col("log_key", strs(|x| &x.log_key)),
        col("date", strs(|x| &x.date)),
        col("heuristic", strs(|x| &x.heuristic)),
        col("seed", u64s(|x| x.seed)),
        col("scenario_seed", u64s(|x| x.scenario_seed)),
        col("oversubscription", strs(|x| &x.oversubscription)),
        col("correlation", strs(|x| &x.correlation)),
        col("heterogeneity", strs(|x| &x.heterogeneity)),
        col("variant", strs(|x| &x.variant)),
        col("system", strs(|x| &x.system)),
        col("system_cores", u64s(|x| x.system_cores)),
        col("system_target_cores", f64s(|x| x.system_target_cores)),
        col("tasks_simulated", u64s(|x| x.tasks_simulated as u64)),
        col("tasks_counted", u64s(|x| x.tasks_counted as u64)),
        col("tasks_completed", u64s(|x| x.tasks_completed as u64)),
        col("tasks_dropped", u64s(|x| x.tasks_dropped as u64)),
        col("tasks_unfinished", u64s(|x| x.tasks_unfinished as u64)),
        col("tasks_too_wide", u64s(|x| x.tasks_too_wide as u64)),
        col("value_earned", f64s(|x| x.value_earned)),
        col("value_max", f64s(|x| x.value_bound)),
        col("pct_of_max", f64s(|x| x.percent_of_bound)),
        col("mapping_events", u64s(|x| x.mapping_events as u64)),
    ])
}

/// The `timing` table (wall clock; varies between runs).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn timing_frame(summaries: &[RunSummary]) -> PolarsResult<DataFrame> {
    let s = summaries;
    DataFrame::new_infer_height(vec![
        col("log", s.iter().map(|x| x.log.clone()).collect::<Vec<_>>()),
        col("date", s.iter().map(|x| x.date.clone()).collect::<Vec<_>>()),
        col(
            "heuristic",
            s.iter().map(|x| x.heuristic.clone()).collect::<Vec<_>>(),
        ),
        col(
            "mapping_events",
            s.iter()
                .map(|x| x.mapping_events as u64)
                .collect::<Vec<_>>(),
        ),
        col(
            "heuristic_seconds_mean",
            s.iter()
                .map(|x| x.heuristic_seconds_mean)
                .collect::<Vec<_>>(),
        ),
        col(
            "heuristic_seconds_max",
            s.iter()
                .map(|x| x.heuristic_seconds_max)
                .collect::<Vec<_>>(),
        ),
        col(
            "heuristic_seconds_total",
            s.iter()
                .map(|x| x.heuristic_seconds_mean * x.mapping_events as f64)
                .collect::<Vec<_>>(),
        ),
    ])
}
