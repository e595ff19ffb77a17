//! Environment A on the grid runner ([`Grid`]): days of each log as
//! scenarios, the axis variants, cell files with the run summary and, for
//! the figure scenario of each log, the data of the cumulative-value and
//! Gantt figures; the `runs`, `runs_timing`, `aggregate` and `timing`
//! tables ([`super::aggregate`]), `aggregate.md` and the figures
//! ([`super::figures`]); `compare`'s side-by-side table and figure.
//!
//! A cell file holds the run's [`crate::env::parallel::summary::RunSummary`] (timings included) and, for
//! the one *figure scenario* of each log — the middle day of the default
//! variant (or of the first variant when the default is not in the grid) —
//! the completion times and values of its counted tasks (for the
//! cumulative-value figure) and, for one heuristic (`maxvpr-ph` when in the
//! grid, else the first), the schedule of the largest cluster over its
//! busiest 4 hours, opening on a whole hour of the day (for the Gantt
//! chart).

use std::path::Path;

use self::aggregate::{AggRow, pm};
use self::cell::cell_result;
use super::ExperimentError;
use super::config::{ExperimentConfig, Variant};
use super::grid::{CellSpec, DayLayout, DaySetRecord, Layout, LogLayout, Plan};
use super::grid::{Grid, GridReport};
use crate::catalog::log_key;
use crate::env::EnvKind;
use crate::env::parallel::environment::Parallel;
use crate::env::parallel::params::{ParallelArgs, check_system_size};
use crate::env::parallel::summary::RunSummary;
use crate::env::parallel::{HEURISTICS, RunResult};
use crate::metrics::tables::write_both;
use crate::report::Figure;
use crate::swf::SwfLog;
use crate::workload::{DayError, Scenario, Workload};

pub mod aggregate;
pub mod cell;
pub mod figures;

pub use cell::{CellResult, GANTT_WINDOW_SECONDS, GanttData, GanttRecord, gantt_data};

fn figure_style() -> Figure {
    Figure::with_palette(&HEURISTICS.names())
}

impl Grid for Parallel {
    type Cell = CellResult;

    /// A day's usable jobs (heuristic time grows with them).
    fn scenario_cost(plan: &Plan<Parallel>, log: usize, day: usize) -> f64 {
        let date = &plan.layout.logs[log].days[day].date;
        plan.prepared[log]
            .day_by_date(date)
            .map_or(1.0, |d| d.jobs as f64)
    }

    fn grid_args(config: &ExperimentConfig) -> ParallelArgs {
        ParallelArgs {
            seed: Some(config.seed),
            cores_base: config.cores_base,
            ..ParallelArgs::default()
        }
    }

    fn variants(config: &ExperimentConfig) -> Vec<Variant> {
        config.variant_list()
    }

    fn lay_out(
        log: &SwfLog,
        key: &str,
        config: &ExperimentConfig,
        _: &ParallelArgs,
    ) -> Result<(Workload, LogLayout), ExperimentError> {
        let w = Workload::from_log(log);
        for v in config.variant_list() {
            check_system_size(&w, &v.params(config.cores_base))?;
        }
        let (_, layout) = super::grid::lay_out_days(&w, key, config)?;
        Ok((w, layout))
    }

    fn scenario(plan: &Plan<Parallel>, cell: &CellSpec) -> Result<Scenario, ExperimentError> {
        let w = &plan.prepared[cell.log];
        let log = &plan.layout.logs[cell.log];
        let dl = &log.days[cell.day];
        let day = w
            .day_by_date(&dl.date)
            .ok_or_else(|| ExperimentError::Days {
                log: log.key.clone(),
                source: DayError::Date {
                    log: log.file.clone(),
                    date: dl.date.clone(),
                    first: String::new(),
                    last: String::new(),
                },
            })?;
        let variant = plan.layout.variants[cell.variant];
        let scenario = Scenario::build(
            w,
            &day,
            variant.params(plan.config.cores_base),
            plan.config.seed,
        )
        .map_err(|source| ExperimentError::Scenario {
            log: log.key.clone(),
            date: day.date.clone(),
            source,
        })?;
        if scenario.seed != dl.scenario_seed {
            return Err(ExperimentError::SeedDrift {
                log: log.key.clone(),
                date: day.date.clone(),
                expected: dl.scenario_seed,
                got: scenario.seed,
            });
        }
        Ok(scenario)
    }

    fn cell(
        plan: &Plan<Parallel>,
        cell: &CellSpec,
        scenario: &Scenario,
        _: &Self::Heuristic,
        run: &RunResult,
    ) -> CellResult {
        cell_result(plan, cell, scenario, run)
    }

    fn cell_id(cell: &CellResult) -> &str {
        &cell.id
    }

    fn set_index(cell: &mut CellResult, index: usize) {
        cell.index = index;
    }

    fn report(
        layout: &Layout,
        _: &ExperimentConfig,
        cells: &[CellResult],
        out: &Path,
        figures: bool,
    ) -> Result<GridReport, ExperimentError> {
        let mut t = aggregate::tables(cells)?;
        write_both(&mut t.runs, out, "runs")?;
        write_both(&mut t.runs_timing, out, "runs_timing")?;
        write_both(&mut t.aggregate, out, "aggregate")?;
        write_both(&mut t.timing, out, "timing")?;
        let md = aggregate::markdown(&t.rows);
        let md_path = out.join("aggregate.md");
        std::fs::write(&md_path, &md).map_err(ExperimentError::io(&md_path))?;
        let mut files = vec![md_path];
        if figures {
            files.extend(figures::experiment_figures(
                layout,
                &t.rows,
                cells,
                &out.join("figures"),
                &figure_style(),
            )?);
        }
        Ok(GridReport {
            preface: String::new(),
            markdown: md,
            tables: vec!["runs", "runs_timing", "aggregate", "timing"],
            files,
        })
    }

    fn replay_grid(
        spec: &str,
        heuristics: &[Self::Heuristic],
        w: &Workload,
        scenarios: &[Scenario],
        args: &ParallelArgs,
    ) -> (ExperimentConfig, Layout) {
        let p = args.scenario_params();
        let variant = Variant {
            oversubscription: p.oversubscription,
            correlation: p.correlation,
            heterogeneity: p.heterogeneity,
        };
        let names: Vec<String> = heuristics.iter().map(|h| h.name.to_string()).collect();
        let config = ExperimentConfig {
            name: "replay".into(),
            environment: EnvKind::Parallel,
            logs: vec![spec.to_string()],
            heuristics: names.clone(),
            days: None,
            dates: Some(scenarios.iter().map(|s| s.day.date.clone()).collect()),
            day_arrivals: args.day_arrivals,
            seed: args.seed(),
            cores_base: args.cores_base,
            axes: Vec::new(),
            variants: vec![variant],
            classic: Default::default(),
            job_tables: false,
            ..ExperimentConfig::empty()
        };
        let layout = Layout {
            environment: EnvKind::Parallel,
            logs: vec![LogLayout {
                key: log_key(spec),
                file: w.name.clone(),
                max_procs: w.max_procs,
                candidate_days: w.candidates.len(),
                day_set: Some(DaySetRecord::new(
                    w,
                    &w.day_set(args.day_arrivals.unwrap_or_default()),
                    &scenarios.iter().map(|s| s.day.clone()).collect::<Vec<_>>(),
                )),
                days: scenarios
                    .iter()
                    .map(|s| DayLayout {
                        date: s.day.date.clone(),
                        start: s.day.start,
                        scenario_seed: s.seed,
                    })
                    .collect(),
            }],
            variants: vec![variant],
            serial_variants: Vec::new(),
            energy_variants: Vec::new(),
            heuristics: names,
        };
        (config, layout)
    }

    fn compare(
        layout: &Layout,
        cells: &[CellResult],
        out: &Path,
    ) -> Result<GridReport, ExperimentError> {
        let rows = aggregate::tables(cells)?.rows;
        let mut preface = String::new();
        for l in &layout.logs {
            let days = match &l.day_set {
                Some(d) => format!(
                    "{} of {} days with {}–{} arrivals ({}): {} arrivals, {} wider than 4,096 cores ({:.2} %)",
                    l.days.len(),
                    d.days_in_range,
                    d.min_arrivals,
                    d.max_arrivals,
                    d.source,
                    d.totals.arrivals,
                    d.totals.wide,
                    d.totals.wide_percent()
                ),
                None => format!("{} of {} candidate days", l.days.len(), l.candidate_days),
            };
            preface.push_str(&format!(
                "{:<10} {}: MaxProcs {:.0}, {days}\n",
                l.key, l.file, l.max_procs
            ));
            // The systems the runs had, against their target, and the
            // tasks that fit on no cluster of them.
            let mine: Vec<&RunSummary> = cells
                .iter()
                .filter(|c| c.log == l.key)
                .map(|c| &c.summary)
                .collect();
            if let Some(first) = mine.first() {
                let lo = mine.iter().map(|s| s.system_cores).min().unwrap_or(0);
                let hi = mine.iter().map(|s| s.system_cores).max().unwrap_or(0);
                let counted: usize = mine.iter().map(|s| s.tasks_counted).sum();
                let wide: usize = mine.iter().map(|s| s.tasks_too_wide).sum();
                preface.push_str(&format!(
                    "{:<10} systems of {lo}–{hi} cores (target {:.1}); {:.2} % of counted tasks wider than every cluster{}\n",
                    "",
                    first.system_target_cores,
                    if counted > 0 { 100.0 * wide as f64 / counted as f64 } else { 0.0 },
                    if wide > 0 { " (dropped, earning nothing)" } else { "" }
                ));
            }
        }
        let keys: Vec<String> = layout.logs.iter().map(|l| l.key.clone()).collect();
        let table = side_by_side(&keys, &layout.heuristics, &rows);
        let md = out.join("compare.md");
        std::fs::write(&md, &table).map_err(ExperimentError::io(&md))?;
        let stem = out.join("figures").join("compare-percent-of-bound");
        let mut files = vec![md];
        files.extend(figures::compare_figure(
            layout,
            &rows,
            &figure_style(),
            &stem,
        )?);
        Ok(GridReport {
            preface,
            markdown: table,
            tables: Vec::new(),
            files,
        })
    }
}

/// The side-by-side Markdown table of `compare`: one row per heuristic; per
/// log, the mean % of the maximum value bound ± 95 % CI, the mean tasks
/// completed and dropped per day and the mean heuristic ms per mapping event.
pub fn side_by_side(logs: &[String], heuristics: &[String], rows: &[AggRow]) -> String {
    let mut out = String::from("| heuristic |");
    let mut rule = String::from("|---|");
    for l in logs {
        out.push_str(&format!(
            " {l} % of bound | {l} completed | {l} dropped | {l} ms/event |"
        ));
        rule.push_str("---:|---:|---:|---:|");
    }
    out.push('\n');
    out.push_str(&rule);
    out.push('\n');
    for h in heuristics {
        out.push_str(&format!("| {h} |"));
        for l in logs {
            match rows.iter().find(|r| &r.log_key == l && &r.heuristic == h) {
                Some(r) => out.push_str(&format!(
                    " {} | {:.1} | {:.1} | {:.3} |",
                    pm(&r.percent_of_bound, 2),
                    r.tasks_completed.mean,
                    r.tasks_dropped.mean,
                    r.heuristic_seconds_mean.mean * 1e3
                )),
                None => out.push_str(" – | – | – | – |"),
            }
        }
        out.push('\n');
    }
    out
}
