//! From cells to tables (polars): one row per run, and per (log, variant,
//! heuristic) the number of days n, the mean, the sample standard deviation
//! (divisor n − 1) and the half-width of the 95 % confidence interval of the
//! mean, t(0.975, n − 1) · sd / √n ([`crate::metrics::stats`]).
//!
//! Tables (each written as CSV and Parquet):
//!
//! - `runs` — one row per cell, in cell order: the `summary` table of a
//!   replay ([`crate::contract::Environment::summary_frame`], with its
//!   `log_key` and `variant` columns). Deterministic.
//! - `runs_timing` — one row per cell: `log_key`, `variant` and the columns
//!   of [`crate::env::parallel::tables::timing_frame`] (wall clock).
//! - `aggregate` — one row per (log, variant, heuristic), in cell order:
//!   `log_key`, `log`, `variant`, `oversubscription`, `correlation`,
//!   `heterogeneity`, `heuristic`, `n` (days), then for `pct_of_max`
//!   (%), `value_earned` and `value_max` (value units), `tasks_completed`,
//!   `tasks_dropped`, `tasks_unfinished` (tasks) each of `_mean`, `_sd`,
//!   `_ci95` (NaN when n < 2). Deterministic: byte-identical for the same
//!   cells however they were run.
//! - `timing` — the same keys and `n`, `mapping_events_mean`,
//!   `heuristic_seconds_mean_{mean,sd,ci95}` (mean heuristic seconds per
//!   mapping event), `heuristic_seconds_max_mean` (mean over days of the
//!   largest per-event time) and `heuristic_seconds_max_max` (largest over
//!   days), s. Wall clock: differs between runs.

use polars::prelude::*;

use super::cell::CellResult;
use super::variant::{Axis, Variant};
use crate::contract::Environment;
use crate::env::parallel::environment::Parallel;
use crate::env::parallel::summary::RunSummary;
use crate::env::parallel::tables::{summary_columns, timing_frame};
use crate::metrics::aggregate::{Group, group_keys, groups_of_cells, stats_by_row};
use crate::metrics::aggregate::{Stat, pm};
use crate::metrics::columns::GridTables;

/// One aggregated row (log, variant, heuristic).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AggRow {
    /// The group: log key, variant, heuristic, number of days (runs) and
    /// the heuristic's wall clock.
    pub group: Group<Variant>,
    /// Value earned as a percentage of the maximum value bound (%).
    pub percent_of_bound: Stat,
    /// Value earned (value units).
    pub value_earned: Stat,
    /// Counted tasks completed.
    pub tasks_completed: Stat,
    /// Counted tasks dropped.
    pub tasks_dropped: Stat,
}

fn texts(cells: &[CellResult], f: impl Fn(&CellResult) -> String) -> Column {
    Column::new("".into(), cells.iter().map(f).collect::<Vec<_>>())
}

fn named(c: Column, name: &str) -> Column {
    c.with_name(name.into())
}

/// Builds every table from `cells` (in cell order: [`crate::experiment::runner::load_cells`]).
///
/// # Errors
/// A polars error (a bug: the columns are built here).
pub fn tables(cells: &[CellResult]) -> PolarsResult<GridTables<AggRow>> {
    // The cell's log key and variant are authoritative (a cell written by
    // an older swftool has none in its summary).
    let summaries: Vec<RunSummary> = cells
        .iter()
        .map(|c| RunSummary {
            log_key: c.log.clone(),
            variant: c.variant.label(),
            ..c.summary.clone()
        })
        .collect();
    let key_col = named(texts(cells, |c| c.log.clone()), "log_key");
    let variant_col = named(texts(cells, |c| c.variant.label()), "variant");

    let summaries: Vec<&RunSummary> = summaries.iter().collect();
    let runs = Parallel::summary_frame(&summaries)?;

    let mut runs_timing = timing_frame(&summaries)?;
    runs_timing.insert_column(1, key_col.clone())?;
    runs_timing.insert_column(3, variant_col.clone())?;

    // Working frame: keys, metrics as f64, timing.
    let f64s = |name: &str, f: fn(&RunSummary) -> f64| {
        Column::new(
            name.into(),
            summaries.iter().map(|s| f(s)).collect::<Vec<f64>>(),
        )
    };
    let work = DataFrame::new_infer_height(vec![
        key_col,
        named(texts(cells, |c| c.summary.log.clone()), "log"),
        variant_col,
        named(
            texts(cells, |c| c.summary.oversubscription.clone()),
            "oversubscription",
        ),
        named(
            texts(cells, |c| c.summary.correlation.clone()),
            "correlation",
        ),
        named(
            texts(cells, |c| c.summary.heterogeneity.clone()),
            "heterogeneity",
        ),
        named(texts(cells, |c| c.summary.heuristic.clone()), "heuristic"),
        f64s("mapping_events", |s| s.mapping_events as f64),
        f64s("heuristic_seconds_mean", |s| s.heuristic_seconds_mean),
        f64s("heuristic_seconds_max", |s| s.heuristic_seconds_max),
    ])?;
    GridTables::of_runs(
        runs,
        runs_timing,
        work,
        // Grouped by the log's key and file name, the variant and its level
        // on each axis, the heuristic.
        &group_keys(&["log_key", "log"], Axis::ALL.map(Axis::name)),
        &summary_columns(),
        |aggregate, timing| agg_rows(aggregate, timing, cells),
    )
}

/// The aggregated rows from the `aggregate` and `timing` tables (the same
/// groups in the same order).
fn agg_rows(g: &DataFrame, timing: &DataFrame, cells: &[CellResult]) -> PolarsResult<Vec<AggRow>> {
    let groups = groups_of_cells(g, timing, cells, |c| (&c.log, c.variant.label(), c.variant))?;
    let names = [
        "pct_of_max",
        "value_earned",
        "tasks_completed",
        "tasks_dropped",
    ];
    Ok(groups
        .into_iter()
        .zip(stats_by_row(g, names)?)
        .map(|(group, [pct, value, completed, dropped])| AggRow {
            group,
            percent_of_bound: pct,
            value_earned: value,
            tasks_completed: completed,
            tasks_dropped: dropped,
        })
        .collect())
}

/// The Markdown table printed at the end of an experiment: one row per
/// (log when several, variant, heuristic); n, mean % of the maximum value
/// bound ± 95 % CI half-width, mean value earned ± CI, mean tasks completed
/// and dropped per day, mean heuristic ms per mapping event, largest ms of
/// one event.
pub fn markdown(rows: &[AggRow]) -> String {
    let multi_log = rows
        .iter()
        .any(|r| r.group.log_key != rows[0].group.log_key);
    let mut out = String::new();
    let head = "| variant | heuristic | n | % of bound (mean ± 95 % CI) | value earned | completed | dropped | ms/event (mean) | ms/event (max) |";
    let rule = "|---|---|---:|---:|---:|---:|---:|---:|---:|";
    if multi_log {
        out.push_str(&format!("| log {head}\n|---{rule}\n"));
    } else {
        out.push_str(&format!("{head}\n{rule}\n"));
    }
    for r in rows {
        if multi_log {
            out.push_str(&format!("| {} ", r.group.log_key));
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.3} | {:.3} |\n",
            r.group.variant.label(),
            r.group.heuristic,
            r.group.n,
            pm(&r.percent_of_bound, 2),
            pm(&r.value_earned, 1),
            r.tasks_completed.mean,
            r.tasks_dropped.mean,
            r.group.heuristic_seconds_mean.mean * 1e3,
            r.group.heuristic_seconds_max * 1e3,
        ));
    }
    out
}
