//! Environment A on the grid runner ([`Grid`]): days of each log as
//! scenarios, the axis variants, cell files with the run summary and, for
//! the figure scenario of each log, the data of the cumulative-value and
//! Gantt figures; the `runs`, `runs_timing`, `aggregate` and `timing`
//! tables ([`aggregate`]), `aggregate.md` and the figures
//! ([`figures`]); `compare`'s side-by-side table and figure.
//!
//! A cell file holds the run's [`crate::env::parallel::summary::RunSummary`] (timings included) and, for
//! the one *figure scenario* of each log — the middle day of the default
//! variant (or of the first variant when the default is not in the grid) —
//! the completion times and values of its counted tasks (for the
//! cumulative-value figure) and, for one heuristic (`maxvpr-ph` when in the
//! grid, else the first), the schedule of the largest cluster over its
//! busiest 4 hours, opening on a whole hour of the day (for the Gantt
//! chart).

use crate::workload::flags::SharedArgs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use self::aggregate::AggRow;
use self::cell::cell_result;
use self::variant::{Axis, Variant};
use super::HEURISTICS;
use super::environment::Parallel;
use super::params::{ParallelArgs, check_system_size};
use super::summary::RunSummary;
use crate::catalog::log_key;
use crate::contract::{EnvError, Environment, Setup, Simulated};
use crate::experiment::ExperimentError;
use crate::experiment::config::{ConfigError, DEFAULT_DAYS, ExperimentConfig};
use crate::experiment::grid::{
    CellSpec, DayLayout, DaySetRecord, GridSetup, LaidOut, Layout, LogLayout, Plan, ReportTo,
};
use crate::experiment::grid::{Grid, GridReport, Preset, VariantRecord, fewer_days_notes};
use crate::experiment::report::{Metrics, write_compare, write_runs_report};
use crate::metrics::aggregate::pm;
use crate::metrics::paired;
use crate::report::Figure;
use crate::swf::SwfLog;
use crate::workload::{Scenario, Workload};

pub mod aggregate;
pub mod cell;
pub mod figures;
pub mod variant;

pub use cell::{CellResult, GANTT_WINDOW_SECONDS, GanttData, GanttRecord, gantt_data};

fn figure_style() -> Figure {
    Figure::with_palette(&HEURISTICS.names())
}

/// Environment A's own keys of an experiment configuration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ParallelSection {
    /// Base of the system size in cores; `None` = each log's MaxProcs (a
    /// TOML table leaves the key out).
    pub cores_base: Option<f64>,
    /// Axes expanded to their three levels (the others at default).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub axes: Vec<Axis>,
    /// Explicit variants, added after the axis expansions.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<Variant>,
}

impl ParallelSection {
    /// The distinct variants of the grid: each axis of `axes` expanded to
    /// its three levels (others at default), then the explicit `variants`,
    /// first occurrence kept. The default variant alone when both are empty.
    pub fn variant_list(&self) -> Vec<Variant> {
        let mut out: Vec<Variant> = Vec::new();
        let candidates = self
            .axes
            .iter()
            .flat_map(|a| a.variants())
            .chain(self.variants.iter().copied());
        for v in candidates {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        if out.is_empty() {
            out.push(Variant::default());
        }
        out
    }
}

/// The keys of [`ParallelSection`], for the commented header of a dumped
/// configuration.
pub const SECTION_HELP: &str = "\
# Environment A (environment = \"parallel\"; days of logs, with days, dates
# and day_arrivals):
# cores_base   base of the system size in cores (default: each log's MaxProcs)
# axes         any of \"oversubscription\", \"correlation\", \"heterogeneity\": each
#              axis at its three levels, the other two at their defaults
# [[variants]] explicit variants: oversubscription = lower|intermediate|higher,
#              correlation = exact|weak|none, heterogeneity = low|intermediate|high
#              (missing keys take the defaults intermediate / weak / intermediate)
";

fn records(variants: &[Variant]) -> Vec<VariantRecord> {
    variants
        .iter()
        .map(|v| VariantRecord::new(v.id(), v.is_default(), v))
        .collect()
}

crate::grid_cell!(CellResult);

impl Grid for Parallel {
    type Cell = CellResult;
    type Section = ParallelSection;
    const SECTION_KEYS: &'static [&'static str] = &["cores_base", "axes", "variants"];
    const SECTION_HELP: &'static str = SECTION_HELP;
    const GROWABLE: &'static [&'static str] = &["axes", "variants"];

    /// A day's usable jobs (heuristic time grows with them).
    fn scenario_cost(plan: &Plan<Parallel>, log: usize, day: usize) -> f64 {
        let date = &plan.layout.logs[log].days[day].date;
        plan.prepared[log]
            .day_by_date(date)
            .map_or(1.0, |d| d.jobs as f64)
    }

    fn presets() -> Vec<(&'static str, Preset)> {
        let base = |name: &str| ExperimentConfig {
            logs: vec!["curie".to_string()],
            ..ExperimentConfig::preset(Parallel::NAME, name)
        };
        vec![
            (
                "khemka2015-parallel",
                Preset {
                    summary: "the standard grid of Khemka et al. 2015, §5: Curie, the 7 heuristics, all three axes (7 variants), 48 days (2,352 cells)",
                    config: ExperimentConfig {
                        heuristics: HEURISTICS.names().into_iter().map(String::from).collect(),
                        days: Some(DEFAULT_DAYS),
                        ..base("khemka2015-parallel")
                    }
                    .with_section(&ParallelSection {
                        axes: Axis::ALL.to_vec(),
                        ..ParallelSection::default()
                    }),
                },
            ),
            (
                "smoke",
                Preset {
                    summary: "a quick check of environment A: Curie, easy and maxvpr-ph, the oversubscription axis, 2 days (12 cells)",
                    config: ExperimentConfig {
                        heuristics: vec!["easy".to_string(), "maxvpr-ph".to_string()],
                        days: Some(2),
                        ..base("smoke")
                    }
                    .with_section(&ParallelSection {
                        axes: vec![Axis::Oversubscription],
                        ..ParallelSection::default()
                    }),
                },
            ),
        ]
    }

    fn check_config(
        _: &ExperimentConfig,
        section: &ParallelSection,
        origin: &Path,
    ) -> Result<(), ConfigError> {
        if let Some(b) = section.cores_base
            && !(b.is_finite() && b > 0.0)
        {
            return Err(ConfigError::Invalid {
                path: origin.to_path_buf(),
                key: "cores_base",
                message: format!("{b} is not a positive number of cores"),
            });
        }
        Ok(())
    }

    fn grid_args(config: &ExperimentConfig, section: &ParallelSection) -> ParallelArgs {
        ParallelArgs {
            shared: SharedArgs {
                seed: Some(config.seed),
                ..SharedArgs::default()
            },
            cores_base: section.cores_base,
            ..ParallelArgs::default()
        }
    }

    fn variants(_: &ExperimentConfig, section: &ParallelSection) -> Vec<VariantRecord> {
        records(&section.variant_list())
    }

    fn lay_out(log: &SwfLog, key: &str, g: GridSetup<'_, Self>) -> LaidOut<Workload> {
        let (config, section) = (g.config, g.section);
        let w = Workload::from_log(log);
        for v in section.variant_list() {
            check_system_size(&w, &v.params(section.cores_base)).map_err(EnvError::from)?;
        }
        let (_, layout) = crate::experiment::grid::lay_out_days(&w, key, config)?;
        Ok((w, layout))
    }

    fn notes(plan: &Plan<Parallel>) -> Vec<String> {
        fewer_days_notes(&plan.config, &plan.layout)
    }

    fn scenario(plan: &Plan<Parallel>, cell: &CellSpec) -> Result<Scenario, ExperimentError> {
        let w = &plan.prepared[cell.log];
        let day = plan.layout.day_window(w, cell)?;
        let variant = plan
            .section
            .variant_list()
            .get(cell.variant)
            .copied()
            .unwrap_or_default();
        let scenario = Scenario::build(
            w,
            &day,
            variant.params(plan.section.cores_base),
            plan.config.seed,
        )
        .map_err(|source| ExperimentError::Scenario {
            log: plan.layout.logs[cell.log].key.clone(),
            date: day.date.clone(),
            source,
        })?;
        Ok(scenario)
    }

    fn cell(plan: &Plan<Parallel>, cell: &CellSpec, sim: Simulated<'_, Self>) -> CellResult {
        cell_result(plan, cell, sim.scenario, sim.run)
    }

    fn report(to: &ReportTo<'_>, cells: &[CellResult]) -> Result<GridReport, ExperimentError> {
        let (layout, out, figures) = (to.layout, to.out, to.figures);
        let mut t = aggregate::tables(cells)?;
        let md = aggregate::markdown(&t.rows);
        let variants = layout.variants_as::<Variant>()?;
        let metrics = Metrics::of::<Parallel>(&["log_key", "variant", "heuristic"], &["date"], "");
        write_runs_report(out, &mut t, md, &metrics, figures, |rows, dir| {
            figures::experiment_figures(layout, &variants, rows, cells, dir, &figure_style())
        })
    }

    fn replay_grid(r: &Setup<'_, Self>, base: ExperimentConfig) -> (ExperimentConfig, Layout) {
        let (spec, w, scenarios, args) = (r.spec, r.prepared, r.scenarios, r.args);
        let p = args.scenario_params();
        let variant = Variant {
            oversubscription: p.oversubscription,
            correlation: p.correlation,
            heterogeneity: p.heterogeneity,
        };
        let names = base.heuristics.clone();
        let config = ExperimentConfig {
            logs: vec![spec.to_string()],
            dates: Some(scenarios.iter().map(|s| s.day.date.clone()).collect()),
            ..base
        }
        .with_section(&ParallelSection {
            cores_base: args.cores_base,
            variants: vec![variant],
            ..ParallelSection::default()
        });
        let layout = Layout {
            environment: Parallel::NAME.to_string(),
            logs: vec![LogLayout {
                key: log_key(spec),
                file: w.name.clone(),
                max_procs: w.max_procs,
                candidate_days: w.candidates.len(),
                day_set: Some(DaySetRecord::new(
                    w,
                    &w.day_set(args.shared.day_arrivals.unwrap_or_default()),
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
            variants: records(&[variant]),
            heuristics: names,
        };
        (config, layout)
    }

    fn compare_config(
        logs: &[String],
        heuristics: &[String],
        args: &ParallelArgs,
    ) -> Result<ExperimentConfig, EnvError> {
        if args.cores_base.is_some() {
            return Err(EnvError::Workload(
                crate::workload::WorkloadError::Parameter {
                    flag: "--cores-base",
                    value: String::new(),
                    reason: "does not apply to compare: each log is sized from its own MaxProcs"
                        .into(),
                },
            ));
        }
        let keys: Vec<String> = logs.iter().map(|l| log_key(l)).collect();
        let p = args.scenario_params();
        Ok(ExperimentConfig {
            name: format!("compare-{}", keys.join("-")),
            logs: logs.to_vec(),
            heuristics: heuristics.to_vec(),
            days: Some(args.shared.days.unwrap_or(crate::workload::STANDARD_DAYS)),
            day_arrivals: args.shared.day_arrivals,
            seed: args.shared.seed(),
            ..ExperimentConfig::empty(Parallel::NAME, "<command line>")
        }
        .with_section(&ParallelSection {
            variants: vec![Variant {
                oversubscription: p.oversubscription,
                correlation: p.correlation,
                heterogeneity: p.heterogeneity,
            }],
            ..ParallelSection::default()
        }))
    }

    fn compare(
        layout: &Layout,
        cells: &[CellResult],
        out: &Path,
    ) -> Result<GridReport, ExperimentError> {
        let t = aggregate::tables(cells)?;
        // Heuristics paired day by day, per log, on the % of the bound.
        let paired_md = match t.get("runs") {
            Some(runs) => {
                let pct = paired::paired_table(runs, &["log_key"], &["date"], &["pct_of_max"])?;
                paired::markdown(
                    &pct,
                    &["log_key"],
                    &[("pct_of_max", "% of bound".to_string(), 2, 1.0)],
                )?
            }
            None => String::new(),
        };
        let rows = t.rows;
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
                    "{:<10} systems of {} cores (target {:.1}); {:.2} % of counted tasks wider than every cluster{}\n",
                    "",
                    crate::words::range(lo, hi),
                    first.system_target_cores,
                    if counted > 0 { 100.0 * wide as f64 / counted as f64 } else { 0.0 },
                    if wide > 0 { " (dropped, earning nothing)" } else { "" }
                ));
            }
        }
        let keys: Vec<String> = layout.logs.iter().map(|l| l.key.clone()).collect();
        let mut table = side_by_side(&keys, &layout.heuristics, &rows);
        table.push_str(&paired_md);
        let variants = layout.variants_as::<Variant>()?;
        write_compare(out, preface, table, |dir| {
            figures::compare_figure(
                layout,
                &variants,
                &rows,
                cells,
                &figure_style(),
                &dir.join("compare-percent-of-bound"),
            )
        })
    }
}

/// The side-by-side Markdown table of `compare`: one row per heuristic; per
/// log, the mean % of the maximum value bound ± 95 % CI, the mean tasks
/// completed and dropped per day and the mean heuristic ms per mapping event.
pub fn side_by_side(logs: &[String], heuristics: &[String], rows: &[AggRow]) -> String {
    let logs: Vec<&str> = logs.iter().map(String::as_str).collect();
    let columns = ["% of bound", "completed", "dropped", "ms/event"];
    crate::metrics::aggregate::side_by_side("heuristic", &logs, heuristics, &columns, |l, h| {
        let r = rows
            .iter()
            .find(|r| r.group.log_key == l && r.group.heuristic == h)?;
        Some(vec![
            pm(&r.percent_of_bound, 2),
            format!("{:.1}", r.tasks_completed.mean),
            format!("{:.1}", r.tasks_dropped.mean),
            format!("{:.3}", r.group.heuristic_seconds_mean.mean * 1e3),
        ])
    })
}
