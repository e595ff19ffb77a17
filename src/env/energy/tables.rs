//! Output tables of environment C, as polars DataFrames written to CSV and
//! Parquet ([`crate::metrics::tables::write_both`]); columns are documented
//! in docs/energy.md.
//!
//! - `summary`: one row per run, the fields of
//!   [`super::summary::EnergySummary`], one column group per priority level;
//! - `jobs`: one row per task per run: submit time, type, utility
//!   function, status, machine, machine type, P-state, start, end, energy in the day and
//!   utility earned;
//! - `hourly`: cumulative utility and energy at the end of each hour of the
//!   day, per run;
//! - `machines`: per run and machine, its type, busy and idle time in the
//!   day and its energy;
//! - `filter`: per run and mapping event, what the energy filter read
//!   (E, e_cons + e_unmov, e_rem, τ_rem, T, τ̄, ē) and computed (n, λ,
//!   e_bud);
//! - `timing`: heuristic wall time per mapping event (mean, max), the only
//!   table that differs between two runs of the same seed.

use polars::prelude::*;

use super::engine::{EnergyRun, TaskFate};
use super::summary::{EnergySummary, HOURS, earned, idle_per_machine};
use super::window_energy;
use super::workload::PRIORITIES;
use super::{EnergyScenario, RunConfig};
use crate::metrics::columns::{self, SummaryColumn, Value, column, column_of, pct_of_max};

/// One replayed run, for the tables.
pub struct RunRecord<'a> {
    /// The scenario.
    pub scenario: &'a EnergyScenario,
    /// How it was managed.
    pub config: &'a RunConfig,
    /// The run.
    pub run: &'a EnergyRun,
    /// Its summary.
    pub summary: &'a EnergySummary,
}

fn key_columns(rows: &[&EnergySummary], repeat: impl Fn(usize) -> usize) -> Vec<Column> {
    let rep = |f: &dyn Fn(&EnergySummary) -> String| -> Vec<String> {
        rows.iter()
            .enumerate()
            .flat_map(|(k, r)| std::iter::repeat_n(f(r), repeat(k)))
            .collect()
    };
    vec![
        column("scenario", rep(&|r| r.scenario.clone())),
        column("heuristic", rep(&|r| r.heuristic.clone())),
        column("management", rep(&|r| r.management.clone())),
        column("filter", rep(&|r| r.filter.clone())),
    ]
}

/// The columns of a run summary, declared once ([`crate::metrics::columns`]):
/// they build the `summary` table, a grid's `runs` and its `aggregate`
/// (the columns marked mean ± CI). Units: utility in value units, energy
/// in J, `*_h` in hours into the day, `pct_*` in %. Columns are documented
/// in docs/energy.md.
pub fn summary_columns() -> Vec<SummaryColumn<EnergySummary>> {
    type S = EnergySummary;
    let text = |f: fn(&S) -> &str| move |r: &S| Value::Text(f(r).to_string());
    let mut cols = vec![
        SummaryColumn::new("scenario", text(|r| &r.scenario)),
        SummaryColumn::new("heuristic", text(|r| &r.heuristic)),
        SummaryColumn::new("management", text(|r| &r.management)),
        SummaryColumn::new("filter", text(|r| &r.filter)),
        SummaryColumn::new("utility_earned", |r: &S| Value::F64(r.utility))
            .mean_ci()
            .shown("utility", "", 1),
        SummaryColumn::new("utility_max", |r: &S| Value::F64(r.max_utility)).shown(
            "max utility",
            "",
            1,
        ),
        SummaryColumn::new("pct_of_max", |r: &S| {
            Value::MaybeF64(pct_of_max(r.utility, r.max_utility))
        })
        .mean_ci()
        .shown("% of max", "%", 2),
        SummaryColumn::new("energy_j", |r: &S| Value::F64(r.energy_j))
            .mean_ci()
            .shown("energy", "GJ", 4)
            .print_scaled(1e-9)
            .figure(),
        SummaryColumn::new("static_j", |r: &S| Value::F64(r.static_j)),
        SummaryColumn::new("budget_j", |r: &S| Value::MaybeF64(r.budget_j))
            .shown("budget", "GJ", 4)
            .print_scaled(1e-9),
        SummaryColumn::new("exhausted_at_h", |r: &S| Value::MaybeF64(r.exhausted_at_h))
            .shown("E out at", "h", 1),
        SummaryColumn::new("spent_at_h", |r: &S| Value::MaybeF64(r.spent_at_h)).shown(
            "E spent at",
            "h",
            1,
        ),
        SummaryColumn::new("tasks_counted", |r: &S| Value::U64(r.counted as u64)),
        SummaryColumn::new("tasks_completed", |r: &S| Value::U64(r.completed as u64)).shown(
            "completed",
            "",
            0,
        ),
        SummaryColumn::new("tasks_dropped", |r: &S| Value::U64(r.dropped as u64))
            .shown("dropped", "", 0),
        SummaryColumn::new("tasks_unmapped", |r: &S| Value::U64(r.unmapped as u64)),
        SummaryColumn::new("tasks_unfinished", |r: &S| Value::U64(r.unfinished as u64)),
        SummaryColumn::new("mean_idle_s", |r: &S| Value::F64(r.mean_idle_s)),
        SummaryColumn::new("mapping_events", |r: &S| Value::U64(r.events as u64)),
    ];
    for p in PRIORITIES {
        let level = move |r: &S| r.levels.iter().find(|l| l.priority == p).copied();
        cols.push(SummaryColumn::new(
            format!("utility_earned_p{p}"),
            move |r: &S| Value::F64(level(r).map_or(0.0, |l| l.utility)),
        ));
        cols.push(SummaryColumn::new(
            format!("utility_max_p{p}"),
            move |r: &S| Value::F64(level(r).map_or(0.0, |l| l.max)),
        ));
        let pct = SummaryColumn::new(format!("pct_of_max_p{p}"), move |r: &S| {
            Value::MaybeF64(level(r).and_then(|l| pct_of_max(l.utility, l.max)))
        });
        // The paper's Fig. 5: priorities 8 and 1.
        cols.push(if p == 8.0 || p == 1.0 {
            pct.mean_ci().shown(format!("% of max p{p}"), "%", 1)
        } else {
            pct
        });
    }
    cols.extend([]);
    cols.extend(columns::heuristic_time_columns(
        |r: &S| r.heuristic_seconds_mean,
        |r: &S| r.heuristic_seconds_max,
        "µs",
        1e6,
        1,
    ));
    cols
}

/// The `hourly` table.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn hourly_frame(rows: &[&EnergySummary]) -> PolarsResult<DataFrame> {
    let mut cols = key_columns(rows, |_| HOURS);
    cols.push(column(
        "hour",
        rows.iter()
            .flat_map(|_| 1..=HOURS as u32)
            .collect::<Vec<u32>>(),
    ));
    cols.push(column(
        "cumulative_utility",
        rows.iter()
            .flat_map(|r| r.hourly_utility.iter().copied())
            .collect::<Vec<f64>>(),
    ));
    cols.push(column(
        "cumulative_energy_j",
        rows.iter()
            .flat_map(|r| r.hourly_energy_j.iter().copied())
            .collect::<Vec<f64>>(),
    ));
    DataFrame::new_infer_height(cols)
}

/// The `jobs` table: one row per task per run.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn jobs_frame(records: &[RunRecord<'_>]) -> PolarsResult<DataFrame> {
    let summaries: Vec<&EnergySummary> = records.iter().map(|r| r.summary).collect();
    let mut cols = key_columns(&summaries, |k| records[k].scenario.tasks.len());
    let types: Vec<Vec<usize>> = records
        .iter()
        .map(|r| r.scenario.matrices.machine_type_of())
        .collect();
    // One row per task of every run: the run, its machine types, the
    // task's index, the task and its execution (if it ran).
    let rows: Vec<_> = records
        .iter()
        .zip(&types)
        .flat_map(|(r, type_of)| {
            let type_of = &type_of[..];
            r.scenario.tasks.iter().enumerate().map(move |(i, t)| {
                let exec = match r.run.fates[i] {
                    TaskFate::Executed(k) => Some(r.run.executions[k]),
                    _ => None,
                };
                (r, type_of, i, t, exec)
            })
        })
        .collect();
    cols.extend([
        column_of("job_number", &rows, |&(_, _, _, t, _)| t.job_number),
        column_of("submit_s", &rows, |&(_, _, _, t, _)| t.arrival),
        column_of("task_type", &rows, |&(_, _, _, t, _)| t.task_type as u32),
        column_of("priority", &rows, |&(_, _, _, t, _)| t.spec.priority),
        column_of("urgency", &rows, |&(_, _, _, t, _)| {
            t.spec.urgency.name().to_string()
        }),
        column_of("class", &rows, |&(_, _, _, t, _)| u32::from(t.spec.class)),
        column_of("status", &rows, |&(r, _, i, _, e)| {
            let window = r.scenario.window;
            match (r.run.fates[i], e) {
                (TaskFate::Dropped(_), _) => "dropped",
                (TaskFate::Unmapped, _) => "unmapped",
                (_, Some(e)) if e.end > window.1 => "unfinished",
                (_, Some(e)) if e.end < window.0 => "completed-before-day",
                _ => "completed",
            }
            .to_string()
        }),
        column_of("machine", &rows, |&(_, _, _, _, e)| {
            e.map(|e| e.machine as u32)
        }),
        column_of("machine_type", &rows, |&(_, ty, _, _, e)| {
            e.map(|e| ty[e.machine] as u32)
        }),
        column_of("pstate", &rows, |&(_, _, _, _, e)| {
            e.map(|e| u32::from(e.pstate))
        }),
        column_of("start_s", &rows, |&(r, _, i, _, e)| {
            e.map(|e| e.start).or(match r.run.fates[i] {
                TaskFate::Dropped(at) => Some(at),
                _ => None,
            })
        }),
        column_of("end_s", &rows, |&(_, _, _, _, e)| e.map(|e| e.end)),
        column_of("energy_j", &rows, |&(r, ty, _, t, e)| {
            let s = r.scenario;
            e.map_or(0.0, |e| {
                s.matrices
                    .apc(t.task_type, ty[e.machine], e.pstate.into())
                    .map_or(0.0, |apc| window_energy(apc, e.start, e.end, s.window))
            })
        }),
        column_of("utility_earned", &rows, |&(r, _, i, _, _)| {
            earned(r.scenario, r.run, i)
        }),
    ]);
    DataFrame::new_infer_height(cols)
}

/// The `machines` table.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn machines_frame(records: &[RunRecord<'_>]) -> PolarsResult<DataFrame> {
    let summaries: Vec<&EnergySummary> = records.iter().map(|r| r.summary).collect();
    let mut cols = key_columns(&summaries, |k| {
        records[k].scenario.matrices.machines() as usize
    });
    let (mut machine, mut mtype, mut special, mut busy, mut idle, mut energy) = (
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
        Vec::new(),
    );
    for r in records {
        let s = r.scenario;
        let type_of = s.matrices.machine_type_of();
        let idles = idle_per_machine(s, r.run);
        // Each machine's share of the static energy drawn all day.
        let mut joules = vec![r.run.static_j / type_of.len().max(1) as f64; type_of.len()];
        for e in &r.run.executions {
            let t = &s.tasks[e.task];
            if let Some(apc) = s
                .matrices
                .apc(t.task_type, type_of[e.machine], e.pstate.into())
            {
                joules[e.machine] += window_energy(apc, e.start, e.end, s.window);
            }
        }
        for (m, &t) in type_of.iter().enumerate() {
            machine.push(m as u32);
            mtype.push(t as u32);
            special.push(s.matrices.machine_types[t].special);
            busy.push(s.window.1 - s.window.0 - idles[m]);
            idle.push(idles[m]);
            energy.push(joules[m]);
        }
    }
    cols.extend([
        column("machine", machine),
        column("machine_type", mtype),
        column("special", special),
        column("busy_s", busy),
        column("idle_s", idle),
        column("energy_j", energy),
    ]);
    DataFrame::new_infer_height(cols)
}

/// The `filter` table: one row per mapping event per run, what the
/// energy filter read and computed (Khemka et al. §III.C, Eqs. 1–3):
/// `time_s`, `hour` (hours into the counted day, negative in the warm-up),
/// `mappable`, `dropped`, `assigned`, `budget_j` (E), `static_j` (the
/// static energy drawn all day, outside the choices), `committed_j`
/// (e_cons + e_unmov of the tasks), `e_rem_j` (E − static − committed),
/// `tau_rem_s` (τ_rem), `total_time_s` (T), `mean_etc_s` (τ̄), `mean_eec_j`
/// (ē), then `n`, `lambda` and `e_bud_j` (−∞ when nothing passes), null
/// without a filter; `budget_j` and `e_rem_j` are null without a budget.
/// Eqs. 1–3 hold with E − static for E: λ = ((E − static)/T) /
/// (committed/(T − τ_rem)) (1 while nothing is committed), n =
/// min(τ_rem/τ̄, e_rem/ē), e_bud = λ·e_rem/n.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn filter_frame(records: &[RunRecord<'_>]) -> PolarsResult<DataFrame> {
    let summaries: Vec<&EnergySummary> = records.iter().map(|r| r.summary).collect();
    let mut cols = key_columns(&summaries, |k| records[k].run.events.len());
    let mut time = Vec::new();
    let mut hour = Vec::new();
    let (mut mappable, mut dropped, mut assigned) = (Vec::new(), Vec::new(), Vec::new());
    let (mut budget, mut committed, mut e_rem) = (Vec::new(), Vec::new(), Vec::new());
    let mut static_j = Vec::new();
    let (mut tau_rem, mut total, mut tau_bar, mut e_bar) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut n, mut lambda, mut e_bud) = (Vec::new(), Vec::new(), Vec::new());
    for r in records {
        let s = r.scenario;
        let (mean_etc, mean_eec) = s.matrices.means();
        let t = f64::from(s.matrices.machines()) * (s.window.1 - s.window.0);
        for ev in &r.run.events {
            time.push(ev.time);
            hour.push((ev.time - s.window.0) / 3600.0);
            mappable.push(ev.mappable);
            dropped.push(ev.dropped);
            assigned.push(ev.assigned);
            budget.push(r.run.budget);
            static_j.push(r.run.static_j);
            committed.push(ev.committed);
            e_rem.push(r.run.budget.map(|b| b - r.run.static_j - ev.committed));
            tau_rem.push(ev.time_left);
            total.push(t);
            tau_bar.push(mean_etc);
            e_bar.push(mean_eec);
            n.push(ev.fair_share.map(|f| f.n));
            lambda.push(ev.fair_share.map(|f| f.lambda));
            e_bud.push(ev.fair_share.map(|f| f.e_bud));
        }
    }
    cols.extend([
        column("time_s", time),
        column("hour", hour),
        column("mappable", mappable),
        column("dropped", dropped),
        column("assigned", assigned),
        column("budget_j", budget),
        column("static_j", static_j),
        column("committed_j", committed),
        column("e_rem_j", e_rem),
        column("tau_rem_s", tau_rem),
        column("total_time_s", total),
        column("mean_etc_s", tau_bar),
        column("mean_eec_j", e_bar),
        column("n", n),
        column("lambda", lambda),
        column("e_bud_j", e_bud),
    ]);
    DataFrame::new_infer_height(cols)
}

/// The `timing` table: per run, the heuristic's mean and max wall time per
/// mapping event (s) and the run's wall time `wall` (s).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn timing_frame(records: &[RunRecord<'_>], wall: &[f64]) -> PolarsResult<DataFrame> {
    let summaries: Vec<&EnergySummary> = records.iter().map(|r| r.summary).collect();
    let mut cols = key_columns(&summaries, |_| 1);
    cols.extend([
        column(
            "mapping_events",
            records
                .iter()
                .map(|r| r.run.events.len() as u64)
                .collect::<Vec<u64>>(),
        ),
        column(
            "heuristic_seconds_mean",
            records
                .iter()
                .map(|r| r.run.heuristic_seconds.0 / r.run.events.len().max(1) as f64)
                .collect::<Vec<f64>>(),
        ),
        column(
            "heuristic_seconds_max",
            records
                .iter()
                .map(|r| r.run.heuristic_seconds.1)
                .collect::<Vec<f64>>(),
        ),
        column("run_wall_s", wall.to_vec()),
    ]);
    DataFrame::new_infer_height(cols)
}
