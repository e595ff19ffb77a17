//! Output tables of environment B, as polars DataFrames written to CSV and
//! Parquet ([`crate::metrics::tables::write_both`]); columns are documented
//! in docs/serial.md.
//!
//! - `summary`: one row per run, the fields of
//!   [`super::summary::SerialSummary`] with the two priority levels of the
//!   paper (8: critical, 1: non-critical) as columns;
//! - `jobs`: one row per task per run: its arrival, type, utility, flags,
//!   what became of it, its completion utility and what it earned;
//! - `pieces`: one row per piece a task ran (core, cluster, start, end);
//! - `timing`: heuristic wall time per mapping event (mean, max), which is
//!   wall clock and the only table that differs between two runs of the
//!   same seed.

use polars::prelude::*;

use super::SerialScenario;
use super::engine::{SerialRun, TaskFate};
use super::summary::{SerialSummary, earned};
use crate::metrics::columns::{self, SummaryColumn, Value, column, column_of, pct_of_max};

/// One replayed run, for the tables.
pub struct RunRecord<'a> {
    /// The scenario.
    pub scenario: &'a SerialScenario,
    /// The heuristic's name.
    pub heuristic: &'a str,
    /// The run.
    pub run: &'a SerialRun,
    /// Its summary.
    pub summary: &'a SerialSummary,
}

/// The priority levels given their own columns (Machovec et al., §IV.C).
pub const PRIORITY_COLUMNS: [f64; 2] = [8.0, 1.0];

/// The columns of a run summary, declared once ([`crate::metrics::columns`]):
/// they build the `summary` table, a grid's `runs` and its `aggregate`
/// (the columns marked mean ± CI). Units: utility in value units, `pct_*`
/// in %, `end_s` in s. Columns are documented in docs/serial.md.
pub fn summary_columns() -> Vec<SummaryColumn<SerialSummary>> {
    let text =
        |f: fn(&SerialSummary) -> &str| move |r: &SerialSummary| Value::Text(f(r).to_string());
    let mut cols = vec![
        SummaryColumn::new("scenario", text(|r| &r.scenario)),
        SummaryColumn::new("heuristic", text(|r| &r.heuristic)),
        SummaryColumn::new("scenario_seed", |r: &SerialSummary| Value::U64(r.seed)),
        SummaryColumn::new("system_cores", |r: &SerialSummary| Value::U32(r.cores)),
        SummaryColumn::new("tasks_simulated", |r: &SerialSummary| {
            Value::U64(r.tasks as u64)
        }),
        SummaryColumn::new("tasks_counted", |r: &SerialSummary| {
            Value::U64(r.counted as u64)
        })
        .shown("counted", "", 0),
        SummaryColumn::new("tasks_completed", |r: &SerialSummary| {
            Value::U64(r.completed as u64)
        }),
        SummaryColumn::new("tasks_dropped", |r: &SerialSummary| {
            Value::U64(r.dropped as u64)
        })
        .mean_ci()
        .shown("dropped", "", 1),
        SummaryColumn::new("tasks_unfinished", |r: &SerialSummary| {
            Value::U64(r.unfinished as u64)
        }),
        SummaryColumn::new("pct_completed", |r: &SerialSummary| {
            Value::F64(r.percent_completed())
        })
        .mean_ci()
        .shown("% done", "%", 2)
        .figure(),
        SummaryColumn::new("utility_earned", |r: &SerialSummary| Value::F64(r.utility))
            .mean_ci()
            .shown("utility", "", 1),
        SummaryColumn::new("utility_max", |r: &SerialSummary| Value::F64(r.max_utility))
            .mean_ci()
            .shown("max utility", "", 1),
        SummaryColumn::new("pct_of_max", |r: &SerialSummary| Value::F64(r.percent()))
            .mean_ci()
            .shown("% of max", "%", 2),
    ];
    for p in PRIORITY_COLUMNS {
        let share = move |r: &SerialSummary| r.priority(p).cloned();
        cols.push(SummaryColumn::new(
            format!("utility_earned_p{p}"),
            move |r: &SerialSummary| Value::F64(share(r).map_or(0.0, |s| s.utility)),
        ));
        cols.push(SummaryColumn::new(
            format!("utility_max_p{p}"),
            move |r: &SerialSummary| Value::F64(share(r).map_or(0.0, |s| s.max_utility)),
        ));
        cols.push(
            SummaryColumn::new(format!("pct_of_max_p{p}"), move |r: &SerialSummary| {
                Value::MaybeF64(share(r).and_then(|s| pct_of_max(s.utility, s.max_utility)))
            })
            .mean_ci()
            .shown(format!("% of max p{p}"), "%", 1),
        );
        cols.push(SummaryColumn::new(
            format!("pct_completed_p{p}"),
            move |r: &SerialSummary| {
                Value::MaybeF64(share(r).and_then(|s| {
                    (s.tasks > 0).then(|| 100.0 * s.completed as f64 / s.tasks as f64)
                }))
            },
        ));
    }
    cols.extend([
        SummaryColumn::new("preemptions", |r: &SerialSummary| Value::U64(r.preemptions))
            .mean_ci()
            .shown("preemptions", "", 1)
            .figure(),
        SummaryColumn::new("mapping_events", |r: &SerialSummary| Value::U64(r.events))
            .shown("events", "", 0),
        SummaryColumn::new("end_s", |r: &SerialSummary| Value::F64(r.end_s)),
    ]);
    cols.extend(columns::heuristic_time_columns(
        |r: &SerialSummary| r.heuristic_seconds_mean,
        |r: &SerialSummary| r.heuristic_seconds_max,
        "ms",
        1e3,
        4,
    ));
    cols
}

/// The `jobs` table of several runs.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn jobs_frame(runs: &[RunRecord<'_>]) -> PolarsResult<DataFrame> {
    let n: usize = runs.iter().map(|r| r.scenario.tasks.len()).sum();
    let mut scenario = Vec::with_capacity(n);
    let mut heuristic = Vec::with_capacity(n);
    let mut job = Vec::with_capacity(n);
    let mut arrival = Vec::with_capacity(n);
    let mut counted = Vec::with_capacity(n);
    let mut task_type = Vec::with_capacity(n);
    let mut burst = Vec::with_capacity(n);
    let mut critical = Vec::with_capacity(n);
    let mut priority = Vec::with_capacity(n);
    let mut urgency = Vec::with_capacity(n);
    let mut shape = Vec::with_capacity(n);
    let mut class = Vec::with_capacity(n);
    let mut can_preempt = Vec::with_capacity(n);
    let mut preemptible = Vec::with_capacity(n);
    let mut status = Vec::with_capacity(n);
    let mut cluster = Vec::with_capacity(n);
    let mut etc = Vec::with_capacity(n);
    let mut first_start = Vec::with_capacity(n);
    let mut end = Vec::with_capacity(n);
    let mut pieces = Vec::with_capacity(n);
    let mut completion_utility = Vec::with_capacity(n);
    let mut inside = Vec::with_capacity(n);
    let mut utility = Vec::with_capacity(n);
    let mut dropped_at = Vec::with_capacity(n);
    for r in runs {
        let s = r.scenario;
        let earned = earned(s, r.run);
        let mut first: Vec<Option<f64>> = vec![None; s.tasks.len()];
        let mut count = vec![0u32; s.tasks.len()];
        let mut ran_on: Vec<Option<usize>> = vec![None; s.tasks.len()];
        for p in &r.run.pieces {
            count[p.task] += 1;
            ran_on[p.task] = Some(p.cluster);
            if first[p.task].is_none_or(|f| p.start < f) {
                first[p.task] = Some(p.start);
            }
        }
        for (i, t) in s.tasks.iter().enumerate() {
            scenario.push(s.name.clone());
            heuristic.push(r.heuristic.to_string());
            job.push(t.job_number);
            arrival.push(t.arrival);
            counted.push(s.counted(i));
            task_type.push(t.task_type as u64);
            burst.push(t.burst as u64);
            critical.push(s.types[t.task_type].critical);
            priority.push(t.spec.priority);
            urgency.push(t.spec.urgency.name().to_string());
            shape.push(t.spec.shape.name().to_string());
            class.push((t.spec.class > 0).then_some(u32::from(t.spec.class)));
            can_preempt.push(t.can_preempt);
            preemptible.push(t.preemptible);
            let fate = r.run.fates[i];
            status.push(
                match fate {
                    TaskFate::Completed { .. } => "completed",
                    TaskFate::Dropped { .. } => "dropped",
                    TaskFate::Unfinished => "unfinished",
                }
                .to_string(),
            );
            cluster.push(ran_on[i].map(|c| c as u32));
            etc.push(ran_on[i].map(|c| s.etc(i, c)));
            first_start.push(first[i]);
            end.push(match fate {
                TaskFate::Completed { at, .. } => Some(at),
                _ => None,
            });
            pieces.push(count[i]);
            completion_utility.push(earned[i].map(|e| e.completion_utility));
            inside.push(earned[i].map(|e| e.inside));
            utility.push(earned[i].map_or(0.0, |e| e.utility()));
            dropped_at.push(match fate {
                TaskFate::Dropped { at } => Some(at),
                _ => None,
            });
        }
    }
    DataFrame::new_infer_height(vec![
        column("scenario", scenario),
        column("heuristic", heuristic),
        column("job_number", job),
        column("submit_s", arrival),
        column("counted", counted),
        column("task_type", task_type),
        column("burst", burst),
        column("critical", critical),
        column("priority", priority),
        column("urgency", urgency),
        column("shape", shape),
        column("class", class),
        column("can_preempt", can_preempt),
        column("preemptible", preemptible),
        column("status", status),
        column("cluster", cluster),
        column("etc_s", etc),
        column("start_s", first_start),
        column("end_s", end),
        column("pieces", pieces),
        column("completion_utility", completion_utility),
        column("fraction_in_window", inside),
        column("utility_earned", utility),
        column("dropped_at_s", dropped_at),
    ])
}

/// The `pieces` table: every piece of every task, per run.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn pieces_frame(runs: &[RunRecord<'_>]) -> PolarsResult<DataFrame> {
    // One row per piece, each run's pieces by start, cluster and core.
    let rows: Vec<_> = runs
        .iter()
        .flat_map(|r| {
            let mut pieces: Vec<_> = r.run.pieces.iter().collect();
            pieces.sort_by(|a, b| {
                a.start
                    .total_cmp(&b.start)
                    .then(a.cluster.cmp(&b.cluster))
                    .then(a.core.cmp(&b.core))
            });
            pieces.into_iter().map(move |p| (r, p))
        })
        .collect();
    DataFrame::new_infer_height(vec![
        column_of("scenario", &rows, |(r, _)| r.scenario.name.clone()),
        column_of("heuristic", &rows, |(r, _)| r.heuristic.to_string()),
        column_of("job_number", &rows, |(r, p)| {
            r.scenario.tasks[p.task].job_number
        }),
        column_of("cluster", &rows, |(_, p)| p.cluster as u32),
        column_of("core", &rows, |(_, p)| p.core),
        column_of("start_s", &rows, |(_, p)| p.start),
        column_of("end_s", &rows, |(_, p)| p.end),
        column_of(
            "completes",
            &rows,
            |(r, p)| matches!(r.run.fates[p.task], TaskFate::Completed { at, .. } if at == p.end),
        ),
    ])
}

/// The `timing` table: heuristic wall time per mapping event.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn timing_frame(runs: &[RunRecord<'_>], wall: &[f64]) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(vec![
        column(
            "scenario",
            runs.iter().map(|r| r.scenario.name.clone()).collect(),
        ),
        column(
            "heuristic",
            runs.iter().map(|r| r.heuristic.to_string()).collect(),
        ),
        column(
            "mapping_events",
            runs.iter().map(|r| r.run.events).collect::<Vec<u64>>(),
        ),
        column(
            "heuristic_seconds_mean",
            runs.iter()
                .map(|r| r.run.heuristic_seconds.0)
                .collect::<Vec<f64>>(),
        ),
        column(
            "heuristic_seconds_max",
            runs.iter()
                .map(|r| r.run.heuristic_seconds.1)
                .collect::<Vec<f64>>(),
        ),
        column("simulation_s", wall.to_vec()),
    ])
}
