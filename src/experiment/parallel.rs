//! Environment A on the grid runner ([`Grid`]): days of each log as
//! scenarios, the axis variants, cell files with the run summary and, for
//! the figure scenario of each log, the data of the cumulative-value and
//! Gantt figures; the `runs`, `runs_timing`, `aggregate` and `timing`
//! tables ([`super::aggregate`]), `aggregate.md` and the figures
//! ([`super::figures`]); `compare`'s side-by-side table and figure.
//!
//! A cell file holds the run's [`RunSummary`] (timings included) and, for
//! the one *figure scenario* of each log — the middle day of the default
//! variant (or of the first variant when the default is not in the grid) —
//! the completion times and values of its counted tasks (for the
//! cumulative-value figure) and, for one heuristic (`maxvpr-ph` when in the
//! grid, else the first), the schedule of the largest cluster over its
//! busiest 4 hours, opening on a whole hour of the day (for the Gantt
//! chart).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::ExperimentError;
use super::aggregate::{self, AggRow, pm};
use super::config::{ExperimentConfig, Variant};
use super::figures;
use super::grid::{Grid, GridReport};
use super::runner::{CellSpec, DayLayout, Layout, LogLayout, Plan, log_key};
use crate::env::EnvKind;
use crate::env::parallel::environment::Parallel;
use crate::env::parallel::params::ParallelArgs;
use crate::env::parallel::summary::{RunSummary, summarize};
use crate::env::parallel::{HEURISTICS, RunResult, TaskStatus};
use crate::metrics::tables::write_both;
use crate::model::rng::derive_seed;
use crate::report::Figure;
use crate::swf::SwfLog;
use crate::workload::{DayWindow, Scenario, Workload};

/// Length of the Gantt window from the start of the counted day, s.
pub const GANTT_WINDOW_SECONDS: f64 = 4.0 * 3600.0;

fn figure_style() -> Figure {
    Figure::with_palette(&HEURISTICS.names())
}

impl Grid for Parallel {
    type Cell = CellResult;

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
        let (Some(first), Some(last)) = (w.candidates.first(), w.candidates.last()) else {
            return Err(ExperimentError::NoDays {
                log: key.to_string(),
            });
        };
        let days: Vec<DayWindow> = match &config.dates {
            Some(dates) => {
                let mut out: Vec<DayWindow> = Vec::new();
                for d in dates {
                    let day = w.day_by_date(d).ok_or_else(|| ExperimentError::Day {
                        log: key.to_string(),
                        date: d.clone(),
                        first: first.date.clone(),
                        last: last.date.clone(),
                    })?;
                    if !out.contains(&day) {
                        out.push(day);
                    }
                }
                out.sort_by(|a, b| a.start.total_cmp(&b.start));
                out
            }
            None => w.select(config.day_count()),
        };
        let layout = LogLayout {
            key: key.to_string(),
            file: w.name.clone(),
            max_procs: w.max_procs,
            candidate_days: w.candidates.len(),
            days: days
                .iter()
                .map(|d| DayLayout {
                    date: d.date.clone(),
                    start: d.start,
                    scenario_seed: derive_seed(config.seed, d.start.to_bits()),
                })
                .collect(),
        };
        Ok((w, layout))
    }

    fn scenario(plan: &Plan<Parallel>, cell: &CellSpec) -> Result<Scenario, ExperimentError> {
        let w = &plan.prepared[cell.log];
        let log = &plan.layout.logs[cell.log];
        let dl = &log.days[cell.day];
        let day = w
            .day_by_date(&dl.date)
            .ok_or_else(|| ExperimentError::Day {
                log: log.key.clone(),
                date: dl.date.clone(),
                first: String::new(),
                last: String::new(),
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
            seed: args.seed(),
            cores_base: args.cores_base,
            axes: Vec::new(),
            variants: vec![variant],
            classic: Default::default(),
            job_tables: false,
        };
        let layout = Layout {
            environment: EnvKind::Parallel,
            logs: vec![LogLayout {
                key: log_key(spec),
                file: w.name.clone(),
                max_procs: w.max_procs,
                candidate_days: w.candidates.len(),
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
            preface.push_str(&format!(
                "{:<10} {}: MaxProcs {:.0}, {} of {} candidate days\n",
                l.key,
                l.file,
                l.max_procs,
                l.days.len(),
                l.candidate_days
            ));
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

fn cell_result(
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
        variant: layout.variants[cell.variant],
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
