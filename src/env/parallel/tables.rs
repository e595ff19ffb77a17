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

use crate::metrics::columns::{self, SummaryColumn, Value, column, column_of, pct_of_max};

use super::summary::RunSummary;
use super::{RunResult, TaskOutcome, TaskStatus};
use crate::model::Task;
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

/// The `jobs` table of several runs.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn jobs_frame(runs: &[RunRecord<'_>]) -> PolarsResult<DataFrame> {
    // One row per task of every run: the run, the task and its outcome.
    let rows: Vec<(&RunRecord<'_>, &Task, &TaskOutcome)> = runs
        .iter()
        .flat_map(|r| {
            let tasks = r.scenario.tasks.iter().zip(&r.run.outcomes);
            tasks.map(move |(t, o)| (r, t, o))
        })
        .collect();
    // Never placed (dropped, or unfinished without a slot): `cluster`,
    // `nodes`, `node_list` and `start_s` are null.
    let placed = |o: &TaskOutcome| o.cluster.is_some();
    let deadlines = |t: &Task| match t.value {
        ValueFunction::Linear {
            soft_deadline,
            hard_deadline,
            ..
        } => (Some(soft_deadline), Some(hard_deadline)),
        ValueFunction::Step { deadline, .. } => (None, Some(deadline)),
    };
    let status = |o: &TaskOutcome| match o.status {
        TaskStatus::Completed => "completed",
        TaskStatus::Dropped => "dropped",
        TaskStatus::Unfinished => "unfinished",
    };
    DataFrame::new_infer_height(vec![
        column_of("log", &rows, |&(r, _, _)| r.summary.log.clone()),
        column_of("date", &rows, |&(r, _, _)| r.summary.date.clone()),
        column_of("heuristic", &rows, |&(r, _, _)| r.summary.heuristic.clone()),
        column_of("job_number", &rows, |&(_, t, _)| t.job_number),
        column_of("counted", &rows, |&(_, t, _)| t.counted),
        column_of("submit_s", &rows, |&(_, t, _)| t.arrival),
        column_of("processors", &rows, |&(_, t, _)| t.cores),
        column_of("status", &rows, |&(_, _, o)| status(o)),
        column_of("cluster", &rows, |&(_, _, o)| o.cluster.map(|c| c as u32)),
        column_of("nodes", &rows, |&(_, _, o)| {
            placed(o).then(|| o.nodes.len())
        }),
        column_of("node_list", &rows, |&(_, _, o)| {
            placed(o).then(|| o.nodes.to_string())
        }),
        column_of("start_s", &rows, |&(_, _, o)| o.start),
        column_of("end_s", &rows, |&(_, _, o)| o.completion),
        column_of("wait_s", &rows, |&(_, t, o)| o.start.map(|s| s - t.arrival)),
        column_of("etc_s", &rows, |&(_, t, o)| o.cluster.map(|c| t.etc[c])),
        column_of("start_value", &rows, |&(_, t, _)| t.value.start_value()),
        column_of("soft_deadline_s", &rows, |&(_, t, _)| deadlines(t).0),
        column_of("hard_deadline_s", &rows, |&(_, t, _)| deadlines(t).1),
        column_of("value_earned", &rows, |&(_, _, o)| o.value),
        column_of("dropped_at_s", &rows, |&(_, _, o)| o.dropped_at),
    ])
}

/// The columns of a run summary, declared once ([`crate::metrics::columns`]):
/// they build the `summary` table, a grid's `runs` (the same columns) and
/// its `aggregate` (the columns marked mean ± CI). Units: value in value
/// units, `pct_of_max` in %, cores in cores. Columns are documented in
/// docs/outputs.md.
pub fn summary_columns() -> Vec<SummaryColumn<RunSummary>> {
    type S = RunSummary;
    let text = |f: fn(&S) -> &str| move |r: &S| Value::Text(f(r).to_string());
    let count = |f: fn(&S) -> usize| move |r: &S| Value::U64(f(r) as u64);
    vec![
        SummaryColumn::new("log", text(|x| &x.log)),
        SummaryColumn::new("log_key", text(|x| &x.log_key)),
        SummaryColumn::new("date", text(|x| &x.date)),
        SummaryColumn::new("heuristic", text(|x| &x.heuristic)),
        SummaryColumn::new("seed", |x: &S| Value::U64(x.seed)),
        SummaryColumn::new("scenario_seed", |x: &S| Value::U64(x.scenario_seed)),
        SummaryColumn::new("oversubscription", text(|x| &x.oversubscription)),
        SummaryColumn::new("correlation", text(|x| &x.correlation)),
        SummaryColumn::new("heterogeneity", text(|x| &x.heterogeneity)),
        SummaryColumn::new("variant", text(|x| &x.variant)),
        SummaryColumn::new("system", text(|x| &x.system)),
        SummaryColumn::new("system_cores", |x: &S| Value::U64(x.system_cores)),
        SummaryColumn::new("system_target_cores", |x: &S| {
            Value::F64(x.system_target_cores)
        }),
        SummaryColumn::new("tasks_simulated", count(|x| x.tasks_simulated)),
        SummaryColumn::new("tasks_counted", count(|x| x.tasks_counted)).shown("counted", "", 0),
        SummaryColumn::new("tasks_completed", count(|x| x.tasks_completed))
            .mean_ci()
            .shown("completed", "", 1),
        SummaryColumn::new("tasks_dropped", count(|x| x.tasks_dropped))
            .mean_ci()
            .shown("dropped", "", 1)
            .figure(),
        SummaryColumn::new("tasks_unfinished", count(|x| x.tasks_unfinished))
            .mean_ci()
            .shown("unfinished", "", 1),
        SummaryColumn::new("tasks_too_wide", count(|x| x.tasks_too_wide)),
        SummaryColumn::new("value_earned", |x: &S| Value::F64(x.value_earned))
            .mean_ci()
            .shown("value", "", 1),
        SummaryColumn::new("value_max", |x: &S| Value::F64(x.value_bound))
            .mean_ci()
            .shown("max value", "", 1),
        SummaryColumn::new("pct_of_max", |x: &S| {
            Value::MaybeF64(pct_of_max(x.value_earned, x.value_bound))
        })
        .mean_ci()
        .shown("% of max", "%", 2),
        SummaryColumn::new("mapping_events", count(|x| x.mapping_events)).shown("events", "", 0),
    ]
    .into_iter()
    .chain(columns::heuristic_time_columns(
        |x: &S| x.heuristic_seconds_mean,
        |x: &S| x.heuristic_seconds_max,
        "ms",
        1e3,
        3,
    ))
    .collect()
}

/// The `timing` table (wall clock; varies between runs).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn timing_frame(summaries: &[&RunSummary]) -> PolarsResult<DataFrame> {
    let s = summaries;
    DataFrame::new_infer_height(vec![
        column("log", s.iter().map(|x| x.log.clone()).collect::<Vec<_>>()),
        column("date", s.iter().map(|x| x.date.clone()).collect::<Vec<_>>()),
        column(
            "heuristic",
            s.iter().map(|x| x.heuristic.clone()).collect::<Vec<_>>(),
        ),
        column(
            "mapping_events",
            s.iter()
                .map(|x| x.mapping_events as u64)
                .collect::<Vec<_>>(),
        ),
        column(
            "heuristic_seconds_mean",
            s.iter()
                .map(|x| x.heuristic_seconds_mean)
                .collect::<Vec<_>>(),
        ),
        column(
            "heuristic_seconds_max",
            s.iter()
                .map(|x| x.heuristic_seconds_max)
                .collect::<Vec<_>>(),
        ),
        column(
            "heuristic_seconds_total",
            s.iter()
                .map(|x| x.heuristic_seconds_mean * x.mapping_events as f64)
                .collect::<Vec<_>>(),
        ),
    ])
}

/// The tables `replay` writes for runs of environment A, each given as
/// (scenario, schedule, summary), in order: `jobs`, `summary`, `timing`
/// (docs/outputs.md).
pub fn replay_tables<'a>(
    runs: impl IntoIterator<Item = (&'a Scenario, &'a RunResult, &'a RunSummary)>,
) -> Vec<(&'static str, PolarsResult<DataFrame>)> {
    let records: Vec<RunRecord<'_>> = runs
        .into_iter()
        .map(|(scenario, run, summary)| RunRecord {
            scenario,
            run,
            summary,
        })
        .collect();
    let records = &records[..];
    let summaries: Vec<&RunSummary> = records.iter().map(|r| r.summary).collect();
    vec![
        ("jobs", jobs_frame(records)),
        ("summary", columns::frame(&summary_columns(), &summaries)),
        ("timing", timing_frame(&summaries)),
    ]
}
