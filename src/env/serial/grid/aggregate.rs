//! Environment B, from cells to tables (polars): one row per run, and per
//! (log, variant, heuristic) the number of trials (or days) n, the mean,
//! the sample standard deviation and the half-width of the 95 % confidence
//! interval of the mean ([`crate::metrics::aggregate::mean_ci`]).
//!
//! Tables (each written as CSV and Parquet; columns in docs/serial.md):
//!
//! - `runs` — one row per cell, in cell order: `log_key`, `variant`, the
//!   four variant levels, then the `summary` table of a replay
//!   ([`crate::contract::Environment::summary_frame`]). Deterministic.
//! - `runs_timing` — one row per cell: keys, mapping events, heuristic mean
//!   and max seconds per mapping event (wall clock).
//! - `aggregate` — per (log, variant, heuristic): keys, `n`, and for
//!   `tasks_dropped`, `pct_completed`, `utility_earned`, `utility_max`,
//!   `pct_of_max`, `pct_of_max_p8`, `pct_of_max_p1`, `preemptions` (the
//!   order of the `summary` table) each of `_mean`, `_sd`, `_ci95`.
//!   Deterministic.
//! - `timing` — per (log, variant, heuristic): `n`, mean mapping events,
//!   heuristic seconds per mapping event (`_mean`, `_sd`, `_ci95` of the
//!   per-run means), the mean and the largest per-run maximum (s).

use polars::prelude::*;

use super::cell::SerialCell;
use super::variant::{SerialAxis, SerialVariant};
use crate::contract::Environment;
use crate::env::serial::environment::Serial;
use crate::env::serial::summary::SerialSummary;
use crate::env::serial::tables::summary_columns;
use crate::experiment::grid::Layout;
use crate::metrics::aggregate::{Group, group_keys, groups_of_cells, stats_by_row};
use crate::metrics::aggregate::{Stat, pm};
use crate::metrics::columns::GridTables;

/// One aggregated row (log, variant, heuristic).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SerialAggRow {
    /// The group: log key (`synthetic` for synthetic trials), variant,
    /// heuristic, number of trials (or days) and the heuristic's wall
    /// clock.
    pub group: Group<SerialVariant>,
    /// Utility earned, % of the maximum system utility.
    pub pct_max_utility: Stat,
    /// Counted tasks completed, %.
    pub pct_completed: Stat,
    /// Critical tasks (priority 8): utility, % of their maximum.
    pub pct_p8: Stat,
    /// Non-critical tasks (priority 1): utility, % of their maximum.
    pub pct_p1: Stat,
    /// Preemptions per run.
    pub preemptions: Stat,
}

fn key_columns(cells: &[SerialCell]) -> Vec<Column> {
    let text = |name: &str, f: &dyn Fn(&SerialCell) -> String| {
        Column::new(name.into(), cells.iter().map(f).collect::<Vec<_>>())
    };
    let num = |name: &str, f: &dyn Fn(&SerialCell) -> u32| {
        Column::new(name.into(), cells.iter().map(f).collect::<Vec<u32>>())
    };
    vec![
        text("log_key", &|c| c.log.clone()),
        text("variant", &|c| c.variant.id()),
        text(SerialVariant::COLUMNS[0], &|c| {
            c.variant.shape.name().to_string()
        }),
        num(SerialVariant::COLUMNS[1], &|c| c.variant.burst_size),
        num(SerialVariant::COLUMNS[2], &|c| c.variant.flag_percent),
        num(SerialVariant::COLUMNS[3], &|c| c.variant.critical_etc_min),
    ]
}

/// Builds every table from `cells` (in cell order).
///
/// # Errors
/// A polars error (a bug: the columns are built here).
pub fn tables(cells: &[SerialCell]) -> PolarsResult<GridTables<SerialAggRow>> {
    let summaries: Vec<&SerialSummary> = cells.iter().map(|c| &c.summary).collect();
    let keys = key_columns(cells);
    let mut runs = Serial::summary_frame(&summaries)?;
    for (i, c) in keys.iter().enumerate() {
        runs.insert_column(i, c.clone())?;
    }
    let f64s = |name: &str, f: &dyn Fn(&SerialCell) -> f64| {
        Column::new(name.into(), cells.iter().map(f).collect::<Vec<f64>>())
    };
    let heuristic = Column::new(
        "heuristic".into(),
        cells
            .iter()
            .map(|c| c.summary.heuristic.clone())
            .collect::<Vec<_>>(),
    );
    let mut timing_cols = keys.clone();
    timing_cols.extend([
        heuristic.clone(),
        Column::new(
            "scenario".into(),
            cells
                .iter()
                .map(|c| c.summary.scenario.clone())
                .collect::<Vec<_>>(),
        ),
        f64s("mapping_events", &|c| c.summary.events as f64),
        f64s("heuristic_seconds_mean", &|c| c.heuristic_seconds.0),
        f64s("heuristic_seconds_max", &|c| c.heuristic_seconds.1),
    ]);
    let runs_timing = DataFrame::new_infer_height(timing_cols)?;
    // The wall-clock one: heuristic time per mapping event.
    let mut work_cols = keys;
    work_cols.extend([
        heuristic,
        f64s("mapping_events", &|c| c.summary.events as f64),
        f64s("heuristic_seconds_mean", &|c| c.heuristic_seconds.0),
        f64s("heuristic_seconds_max", &|c| c.heuristic_seconds.1),
    ]);
    let work = DataFrame::new_infer_height(work_cols)?;
    GridTables::of_runs(
        runs,
        runs_timing,
        work,
        &group_keys(&["log_key"], SerialVariant::COLUMNS),
        &summary_columns(),
        |aggregate, timing| agg_rows(aggregate, timing, cells),
    )
}

/// The aggregated rows from the `aggregate` and `timing` tables (the same
/// groups in the same order).
fn agg_rows(
    g: &DataFrame,
    timing: &DataFrame,
    cells: &[SerialCell],
) -> PolarsResult<Vec<SerialAggRow>> {
    let groups = groups_of_cells(g, timing, cells, |c| (&c.log, c.variant.id(), c.variant))?;
    let names = [
        "pct_of_max",
        "pct_completed",
        "pct_of_max_p8",
        "pct_of_max_p1",
        "preemptions",
    ];
    Ok(groups
        .into_iter()
        .zip(stats_by_row(g, names)?)
        .map(|(group, [pct, done, p8, p1, pre])| SerialAggRow {
            group,
            pct_max_utility: pct,
            pct_completed: done,
            pct_p8: p8,
            pct_p1: p1,
            preemptions: pre,
        })
        .collect())
}

/// The row of (`log`, `variant`, `heuristic`), if any.
pub fn find<'a>(
    rows: &'a [SerialAggRow],
    log: &str,
    variant: &SerialVariant,
    heuristic: &str,
) -> Option<&'a SerialAggRow> {
    rows.iter().find(|r| {
        r.group.log_key == log && r.group.variant == *variant && r.group.heuristic == heuristic
    })
}

/// The Markdown summary of a grid: per log, one table per axis of the
/// configuration (heuristic × level: mean % of the maximum system utility
/// ± 95 % CI half-width; the critical-ETC axis also as % of tasks
/// completed, the paper's Fig. 7), or, without axes, one row per variant
/// and heuristic; then the heuristic time per mapping event.
pub fn markdown(layout: &Layout, view: &super::cell::SerialView, rows: &[SerialAggRow]) -> String {
    let mut out = String::new();
    let base = SerialVariant::of_args(&view.section.serial);
    if view
        .variants
        .iter()
        .any(|v| v.shape == crate::model::utility::Shape::Classes)
    {
        out.push_str("Utility classes: swftool's construction after Khemka et al. (IEEE TC 2015), whose own table is not public (docs/utility.md).\n\n");
    }
    for log in &layout.logs {
        let mine: Vec<&SerialAggRow> = rows.iter().filter(|r| r.group.log_key == log.key).collect();
        if layout.logs.len() > 1 || log.key != crate::experiment::grid::SYNTHETIC_KEY {
            out.push_str(&format!("## {}\n\n", log.key));
        }
        let mut axis_table = |axis: SerialAxis, what: &str, stat: fn(&SerialAggRow) -> Stat| {
            let levels = axis.levels(&view.variants, &base);
            if levels.len() < 2 {
                return;
            }
            out.push_str(&format!(
                "{what} by {} (mean ± 95 % CI over {} runs)\n\n| heuristic |",
                axis.title(),
                mine.first().map_or(0, |r| r.group.n)
            ));
            for v in &levels {
                out.push_str(&format!(" {} |", axis.level(v)));
            }
            out.push_str("\n|---|");
            out.push_str(&"---:|".repeat(levels.len()));
            out.push('\n');
            for h in &layout.heuristics {
                out.push_str(&format!("| {h} |"));
                for v in &levels {
                    match find(rows, &log.key, v, h) {
                        Some(r) => out.push_str(&format!(" {} |", pm(&stat(r), 1))),
                        None => out.push_str(" – |"),
                    }
                }
                out.push('\n');
            }
            out.push('\n');
        };
        for &axis in &view.section.serial_axes {
            axis_table(axis, "% of maximum system utility", |r| r.pct_max_utility);
            if axis == SerialAxis::CriticalEtc {
                axis_table(axis, "% of tasks completed", |r| r.pct_completed);
            }
        }
        if view.section.serial_axes.is_empty() {
            out.push_str("| variant | heuristic | n | % of max utility | % completed | critical % of max | non-critical % of max | preemptions |\n|---|---|---:|---:|---:|---:|---:|---:|\n");
            for r in &mine {
                out.push_str(&format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {:.0} |\n",
                    r.group.variant.label(),
                    r.group.heuristic,
                    r.group.n,
                    pm(&r.pct_max_utility, 2),
                    pm(&r.pct_completed, 2),
                    pm(&r.pct_p8, 1),
                    pm(&r.pct_p1, 1),
                    r.preemptions.mean
                ));
            }
            out.push('\n');
        }
        out.push_str("Heuristic time per mapping event (wall clock), figure variant\n\n| heuristic | mean ms | max ms |\n|---|---:|---:|\n");
        let figure = view
            .variants
            .get(layout.figure_variant())
            .copied()
            .unwrap_or_default();
        for h in &layout.heuristics {
            if let Some(r) = find(rows, &log.key, &figure, h) {
                out.push_str(&format!(
                    "| {h} | {:.4} | {:.3} |\n",
                    r.group.heuristic_seconds_mean.mean * 1e3,
                    r.group.heuristic_seconds_max * 1e3
                ));
            }
        }
        out.push('\n');
    }
    out
}

/// `compare`'s side-by-side Markdown: one row per heuristic; per log, the
/// mean % of the maximum system utility ± 95 % CI and the mean % of tasks
/// completed.
pub fn side_by_side(layout: &Layout, rows: &[SerialAggRow]) -> String {
    let logs: Vec<&str> = layout.logs.iter().map(|l| l.key.as_str()).collect();
    let columns = ["% of max utility", "% completed"];
    crate::metrics::aggregate::side_by_side(
        "heuristic",
        &logs,
        &layout.heuristics,
        &columns,
        |l, h| {
            let r = rows
                .iter()
                .find(|r| r.group.log_key == l && r.group.heuristic == h)?;
            Some(vec![pm(&r.pct_max_utility, 2), pm(&r.pct_completed, 1)])
        },
    )
}
