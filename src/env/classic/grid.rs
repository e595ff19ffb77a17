//! Environment D on the grid runner ([`Grid`]): one scenario per log (the
//! whole cleaned log, or a window of it), one variant, a cell file per
//! (log, scheduler) with the run's summary — and, with `job_tables = true`
//! in the configuration, the schedule of every job, for the `jobs` and
//! `suspensions` tables. Reports: the `summary` table (one row per run, as
//! `replay --env classic` writes it), `tables.md` (per log: average wait,
//! expansion factor and utilization, each unweighted, priority-weighted and
//! node-second-weighted, one row per scheduler — the three tables of Margo,
//! Yoshimoto and Kovatch, §5), the wait and expansion-factor figures, and
//! `compare`'s side-by-side table and bounded-slowdown figure.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::engine::machine::{ClassicOutcome, ClassicRun, Suspension};
use super::environment::{Classic, ClassicPrepared, ClassicScenario, prepare};
use super::params::ClassicArgs;
use super::summary::ClassicSummary;
use super::tables::{jobs_frame, suspensions_frame};
use super::window::WindowRule;
use super::{ClassicJob, SCHEDULERS};
use crate::catalog::log_key;
use crate::contract::{EnvError, Environment, Setup, Simulated};
use crate::experiment::ExperimentError;
use crate::experiment::config::{ConfigError, ExperimentConfig};
use crate::experiment::grid::{
    CellSpec, DayLayout, GridSetup, LaidOut, Layout, LogLayout, Plan, Preset, ReportTo,
};
use crate::experiment::grid::{Grid, GridReport, VariantRecord};
use crate::experiment::report::{write_compare, write_report};
use crate::metrics::aggregate::side_by_side;
use crate::metrics::tables::TableError;
use crate::output::users::{UserRow, fairness_of, fairness_table, user_rows, users_table};
use crate::report::bars::{Bar, BarChart, BarSeries};
use crate::report::{self, Figure};
use crate::swf::SwfLog;

/// The schedule of every job of a classic run, kept in a cell for the
/// `jobs` and `suspensions` tables (`job_tables = true`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JobDetail {
    /// The scenario's jobs.
    pub jobs: Vec<ClassicJob>,
    /// Per job: first start, end, seconds suspended.
    pub outcomes: Vec<(f64, f64, f64)>,
    /// Per job: priority when it first started.
    pub priority: Vec<f64>,
    /// Every suspension: job, preemptor, at, resume reservation, resumed.
    pub suspensions: Vec<(usize, usize, f64, f64, f64)>,
    /// Scheduling passes.
    pub passes: u64,
    /// Per job: its first reservation, s (`None`: started at once, never
    /// reserved, or a policy without persistent reservations).
    #[serde(default)]
    pub first_reservation: Vec<Option<f64>>,
}

impl JobDetail {
    fn of(jobs: &[ClassicJob], run: &ClassicRun) -> JobDetail {
        JobDetail {
            jobs: jobs.to_vec(),
            outcomes: run
                .outcomes
                .iter()
                .map(|o| (o.start, o.end, o.suspended))
                .collect(),
            priority: run.priority.clone(),
            suspensions: run
                .suspensions
                .iter()
                .map(|s| (s.job, s.preemptor, s.at, s.reservation, s.resumed))
                .collect(),
            passes: run.passes,
            first_reservation: run.first_reservation.clone(),
        }
    }

    fn run(&self) -> ClassicRun {
        ClassicRun {
            outcomes: self
                .outcomes
                .iter()
                .map(|&(start, end, suspended)| ClassicOutcome {
                    start,
                    end,
                    suspended,
                })
                .collect(),
            passes: self.passes,
            priority: self.priority.clone(),
            suspensions: self
                .suspensions
                .iter()
                .map(|&(job, preemptor, at, reservation, resumed)| Suspension {
                    job,
                    preemptor,
                    at,
                    reservation,
                    resumed,
                })
                .collect(),
            allocations: Vec::new(),
            first_reservation: if self.first_reservation.len() == self.outcomes.len() {
                self.first_reservation.clone()
            } else {
                vec![None; self.outcomes.len()]
            },
        }
    }
}

/// What one finished classic cell leaves on disk: `<out>/cells/<id>.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClassicCell {
    /// The cell id.
    pub id: String,
    /// Position in the cell order.
    pub index: usize,
    /// Log key.
    pub log: String,
    /// The scenario (`whole`, or `window-<first job index>`).
    pub scenario: String,
    /// What the scenario is, in words (the window and how it was chosen).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub about: String,
    /// The scenario in a few words for figure titles: `whole log`, or
    /// `300 jobs, the first 200 from 2005-03-01 00:06:17 PST and the next
    /// 100`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub subtitle: String,
    /// The run's metrics (deterministic).
    pub summary: ClassicSummary,
    /// The schedule of every job, with `job_tables = true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<JobDetail>,
    /// Per user, group and queue: jobs, wait, bounded slowdown, expansion
    /// factor (the `users` table's rows of this run).
    #[serde(default)]
    pub users: Vec<UserRow>,
    /// The fairness summary over users (`None` without users).
    #[serde(default)]
    pub fairness: Option<crate::metrics::fairness::Fairness>,
}

/// Environment D's own keys of an experiment configuration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClassicSection {
    /// `[classic]`: the flags of `replay --env classic` without the
    /// dashes, `-` as `_`.
    #[serde(skip_serializing_if = "is_default_args")]
    pub classic: ClassicArgs,
    /// Keep every job's schedule in the cells and write the `jobs` and
    /// `suspensions` tables.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub job_tables: bool,
}

fn is_default_args(a: &ClassicArgs) -> bool {
    *a == ClassicArgs::default()
}

/// The keys of [`ClassicSection`], for the commented header of a dumped
/// configuration.
pub const SECTION_HELP: &str = "\
# Environment D (environment = \"classic\"):
# job_tables   also write the jobs and suspensions tables
# [classic]    the flags of `swftool replay --env classic` without the dashes
#              (whole_nodes = true, procs_per_node = 8, clean = \"pyss\",
#              exact_estimates = true, reservation_depth = 4, window_jobs = 200,
#              extra_jobs = 100, window = \"month:2005-03\" (or \"most-wide\", or
#              window_start = 538), preempting_above = 64, tau = 10.0, ...)
";

/// Flags of `swftool experiment` for environment D grids with a window.
#[derive(Debug, Clone, Default, clap::Args)]
#[command(next_help_heading = "Environment D grids with a window (window_jobs)")]
pub struct ClassicExperimentFlags {
    /// First job of the window (0-based among the cleaned jobs in submit order), instead of the config's window rule.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "INDEX",
        conflicts_with = "window"
    )]
    pub window_start: Option<usize>,
    /// How the window's first job is chosen, `month:YYYY-MM` (the first job submitted in that month) or `most-wide` (of the loaded windows, the one with the most jobs wider than 64 nodes). Default: the config's (margo2008-datastar: month:2005-03).
    #[arg(long, value_name = "RULE")]
    pub window: Option<WindowRule>,
}

fn figure_style() -> Figure {
    Figure::with_palette(&SCHEDULERS.names())
}

fn table_error(out: &Path, name: &str) -> impl FnOnce(polars::prelude::PolarsError) -> TableError {
    let path = out.join(format!("{name}.csv"));
    move |source| TableError::Write { path, source }
}

crate::grid_cell!(ClassicCell);

impl Grid for Classic {
    type Cell = ClassicCell;
    const CELL_SERIES: bool = false;
    type Section = ClassicSection;
    const SECTION_KEYS: &'static [&'static str] = &["classic", "job_tables"];
    const SECTION_HELP: &'static str = SECTION_HELP;

    fn presets() -> Vec<(&'static str, Preset)> {
        let base = |name: &str| ExperimentConfig::preset(Classic::NAME, name);
        vec![
            (
                "margo2008-datastar",
                Preset {
                    summary: "Catalina on a DataStar window without and with preemption (Margo et al., §5)",
                    config: ExperimentConfig {
                        logs: vec!["datastar".to_string()],
                        heuristics: vec!["catalina".to_string(), "catalina-preempt".to_string()],
                        ..base("margo2008-datastar")
                    }
                    .with_section(&ClassicSection {
                        classic: ClassicArgs {
                            whole_nodes: true,
                            procs_per_node: Some(8),
                            window_jobs: Some(200),
                            extra_jobs: Some(100),
                            window: Some(WindowRule::Month {
                                year: 2005,
                                month: 3,
                            }),
                            ..ClassicArgs::default()
                        },
                        job_tables: true,
                    }),
                },
            ),
            (
                "smoke-classic",
                Preset {
                    summary: "a quick check of environment D: the first 500 jobs of 4 logs, FCFS, EASY and Conservative (12 cells)",
                    config: ExperimentConfig {
                        logs: ["lublin_256", "kth-sp2", "sdsc-sp2", "ctc-sp2"]
                            .map(String::from)
                            .to_vec(),
                        heuristics: ["fcfs", "easy", "conservative"].map(String::from).to_vec(),
                        ..base("smoke-classic")
                    }
                    .with_section(&ClassicSection {
                        classic: ClassicArgs {
                            window_jobs: Some(500),
                            window_start: Some(0),
                            ..ClassicArgs::default()
                        },
                        job_tables: false,
                    }),
                },
            ),
        ]
    }

    /// The section's flags are checked against the heuristics named when
    /// they are resolved ([`ClassicArgs::policies`]).
    fn check_config(_: &ExperimentConfig, _: &ClassicSection, _: &Path) -> Result<(), ConfigError> {
        Ok(())
    }

    fn grid_args(_: &ExperimentConfig, section: &ClassicSection) -> ClassicArgs {
        section.classic.clone()
    }

    fn variants(_: &ExperimentConfig, _: &ClassicSection) -> Vec<VariantRecord> {
        Vec::new()
    }

    fn lay_out(log: &SwfLog, key: &str, g: GridSetup<'_, Self>) -> LaidOut<ClassicPrepared> {
        let args = g.args;
        let p = prepare(log, args)?;
        let layout = log_layout(key, &p);
        Ok((p, layout))
    }

    fn scenario(plan: &Plan<Classic>, cell: &CellSpec) -> Result<ClassicScenario, ExperimentError> {
        Ok(plan.prepared[cell.log].scenario.clone())
    }

    fn cell(plan: &Plan<Classic>, cell: &CellSpec, sim: Simulated<'_, Self>) -> ClassicCell {
        let (scenario, run) = (sim.scenario, sim.run);
        let layout = &plan.layout;
        let log = &layout.logs[cell.log];
        let record = Classic::record(sim, false);
        ClassicCell {
            id: cell.id.clone(),
            index: cell.index,
            log: log.key.clone(),
            scenario: log.days[cell.day].date.clone(),
            about: about(&plan.prepared[cell.log]),
            subtitle: subtitle(&plan.prepared[cell.log]),
            summary: Classic::summarize(sim),
            detail: plan
                .section
                .job_tables
                .then(|| JobDetail::of(&scenario.jobs, run)),
            users: user_rows(&[&record], plan.args.tau()),
            fairness: fairness_of(&[&record], plan.args.tau()),
        }
    }

    fn report(to: &ReportTo<'_>, cells: &[ClassicCell]) -> Result<GridReport, ExperimentError> {
        let (layout, config, out, figures) = (to.layout, to.config, to.out, to.figures);
        let section: ClassicSection = config.section()?;
        let summaries: Vec<&ClassicSummary> = cells.iter().map(|c| &c.summary).collect();
        let mut summary =
            Classic::summary_frame(&summaries).map_err(table_error(out, "summary"))?;
        let mut jobs = if section.job_tables {
            Some(job_tables(cells).map_err(table_error(out, "jobs"))?)
        } else {
            None
        };
        let mut paired = paired_over_logs(&summary).map_err(table_error(out, "paired"))?;
        let (mut users, mut fairness) = user_tables(cells).map_err(table_error(out, "users"))?;
        let mut tables = vec![("summary", &mut summary)];
        if let Some((jobs, suspensions)) = jobs.as_mut() {
            tables.push(("jobs", jobs));
            tables.push(("suspensions", suspensions));
        }
        let mut md = markdown(&config.name, layout, &section.classic, cells);
        md.push_str(&paired_markdown(&paired).map_err(table_error(out, "paired"))?);
        tables.push(("paired", &mut paired));
        tables.push(("users", &mut users));
        tables.push(("fairness", &mut fairness));
        write_report(out, tables, "tables.md", md, figures, |dir| {
            let mut files = Vec::new();
            for (stem, chart) in charts(layout, cells) {
                files.extend(report::bars::grouped_bars(
                    &chart,
                    &figure_style(),
                    &dir.join(stem),
                )?);
            }
            Ok(files)
        })
    }

    fn replay_grid(r: &Setup<'_, Self>, base: ExperimentConfig) -> (ExperimentConfig, Layout) {
        let (spec, p, args) = (r.spec, r.prepared, r.args);
        let names = base.heuristics.clone();
        let config = ExperimentConfig {
            name: "replay-classic".into(),
            logs: vec![spec.to_string()],
            ..base
        }
        .with_section(&ClassicSection {
            classic: args.clone(),
            job_tables: true,
        });
        let layout = Layout {
            environment: Classic::NAME.to_string(),
            logs: vec![log_layout(&log_key(spec), p)],
            variants: Vec::new(),
            heuristics: names,
        };
        (config, layout)
    }

    fn compare_config(
        logs: &[String],
        heuristics: &[String],
        args: &ClassicArgs,
    ) -> Result<ExperimentConfig, EnvError> {
        let keys: Vec<String> = logs.iter().map(|l| log_key(l)).collect();
        Ok(ExperimentConfig {
            name: format!("compare-{}-{}", Classic::NAME, keys.join("-")),
            logs: logs.to_vec(),
            heuristics: heuristics.to_vec(),
            ..ExperimentConfig::empty(Classic::NAME, "<command line>")
        }
        .with_section(&ClassicSection {
            classic: args.clone(),
            job_tables: false,
        }))
    }

    fn experiment_flags(cmd: clap::Command) -> clap::Command {
        <ClassicExperimentFlags as clap::Args>::augment_args(cmd)
    }

    fn apply_experiment_flags(
        config: &mut ExperimentConfig,
        matches: &clap::ArgMatches,
    ) -> Result<Vec<&'static str>, ConfigError> {
        use clap::FromArgMatches;
        let flags = ClassicExperimentFlags::from_arg_matches(matches).map_err(|e| {
            ConfigError::Refused {
                path: config.origin().to_path_buf(),
                source: Box::new(e),
            }
        })?;
        let given: Vec<&'static str> = [
            (flags.window_start.is_some(), "--window-start"),
            (flags.window.is_some(), "--window"),
        ]
        .into_iter()
        .filter_map(|(set, f)| set.then_some(f))
        .collect();
        if given.is_empty() {
            return Ok(given);
        }
        let mut section: ClassicSection = config.section()?;
        if section.classic.window_jobs.is_none() {
            return Err(ConfigError::Invalid {
                path: config.origin().to_path_buf(),
                key: "classic",
                message: format!(
                    "{} applies to environment-D grids with a window (window_jobs), such as --preset margo2008-datastar, only",
                    given[0]
                ),
            });
        }
        // The flag replaces the config's choice of the first job.
        section.classic.window_start = flags.window_start;
        section.classic.window = flags.window;
        *config = config.clone().with_section(&section);
        Ok(given)
    }

    fn compare(
        layout: &Layout,
        cells: &[ClassicCell],
        out: &Path,
    ) -> Result<GridReport, ExperimentError> {
        let keys: Vec<&str> = layout.logs.iter().map(|l| l.key.as_str()).collect();
        let find = |log: &str, h: &str| {
            cells
                .iter()
                .find(|c| c.log == log && c.summary.heuristic == h)
                .map(|c| &c.summary)
        };
        let mut md = String::from("| scheduler |");
        let mut rule = String::from("|---|");
        for (k, l) in keys.iter().zip(&layout.logs) {
            let cap = cells
                .iter()
                .find(|c| c.log == l.key)
                .map_or(0, |c| c.summary.capacity);
            md.push_str(&format!(
                " {k} ({cap}) wait s | {k} bsld | {k} xfactor | {k} util % |"
            ));
            rule.push_str("---:|---:|---:|---:|");
        }
        md.push('\n');
        md.push_str(&rule);
        md.push('\n');
        for h in &layout.heuristics {
            md.push_str(&format!("| {h} |"));
            for k in &keys {
                match find(k, h) {
                    Some(x) => md.push_str(&format!(
                        " {:.0} | {:.2} | {:.2} | {:.2} |",
                        x.wait_mean_s,
                        x.bsld_mean,
                        x.xfactor_mean,
                        100.0 * x.utilization
                    )),
                    None => md.push_str(" – | – | – | – |"),
                }
            }
            md.push('\n');
        }
        let summaries: Vec<&ClassicSummary> = cells.iter().map(|c| &c.summary).collect();
        let paired = Classic::summary_frame(&summaries)
            .and_then(|s| paired_over_logs(&s))
            .map_err(table_error(out, "paired"))?;
        md.push_str(&paired_markdown(&paired).map_err(table_error(out, "paired"))?);
        md.push_str(&fairness_markdown(&keys, &layout.heuristics, cells));
        let first = cells.first().map(|c| &c.summary);
        let estimates = first.map_or("user", |s| s.estimates.as_str());
        let tau = first.map_or(crate::metrics::formulas::DEFAULT_TAU, |s| s.bsld_tau_s);
        let preface = format!(
            "classic replay, {estimates} estimates, {} cleaning, bounded slowdown tau {tau} s\n",
            first.map_or("swftool", |s| s.clean.as_str()),
        );
        let chart = BarChart {
            title: format!("Mean bounded slowdown by log ({estimates} estimates)"),
            x_label: "log (each on its own machine)".into(),
            y_label: format!("mean bounded slowdown (tau = {tau} s, log scale)"),
            levels: keys.iter().map(|k| k.to_string()).collect(),
            series: layout
                .heuristics
                .iter()
                .map(|h| BarSeries {
                    name: h.clone(),
                    bars: keys
                        .iter()
                        .map(|k| {
                            find(k, h).map(|s| Bar {
                                mean: s.bsld_mean,
                                ci95: None,
                            })
                        })
                        .collect(),
                })
                .collect(),
            log_y: true,
            y_clip: None,
        };
        write_compare(out, preface, md, |dir| {
            Ok(report::bars::grouped_bars(
                &chart,
                &figure_style(),
                &dir.join("compare-bsld"),
            )?)
        })
    }
}

/// The `users` and `fairness` tables of a grid's cells, in cell order
/// (each cell's rows under its log file and heuristic).
///
/// # Errors
/// A polars error (a bug).
fn user_tables(
    cells: &[ClassicCell],
) -> polars::prelude::PolarsResult<(polars::prelude::DataFrame, polars::prelude::DataFrame)> {
    let users: Vec<(&str, &str, &UserRow)> = cells
        .iter()
        .flat_map(|c| {
            c.users
                .iter()
                .map(move |u| (c.summary.log.as_str(), c.summary.heuristic.as_str(), u))
        })
        .collect();
    let fairness: Vec<(&str, &str, Option<crate::metrics::fairness::Fairness>)> = cells
        .iter()
        .map(|c| {
            (
                c.summary.log.as_str(),
                c.summary.heuristic.as_str(),
                c.fairness,
            )
        })
        .collect();
    Ok((users_table(&users)?, fairness_table(&fairness)?))
}

/// `compare.md`'s fairness section: one row per scheduler; per log, Jain's
/// index over the users' mean bounded slowdowns, the worst user's mean
/// bounded slowdown and the share of users waiting more than a day on
/// average.
fn fairness_markdown(logs: &[&str], heuristics: &[String], cells: &[ClassicCell]) -> String {
    let mut md = String::from(
        "\n## Fairness over users\n\nJain's index over the users' mean bounded slowdowns (1: all equal), the worst user's mean bounded slowdown, and the share of users whose mean wait exceeds a day (the `fairness` and `users` tables hold every user, group and queue).\n\n",
    );
    let columns = ["Jain", "worst bsld", "users > 1 day"];
    md.push_str(&side_by_side(
        "scheduler",
        logs,
        heuristics,
        &columns,
        |l, h| {
            let cell = cells
                .iter()
                .find(|c| c.log == l && c.summary.heuristic == h)?;
            cell.fairness.map(|f| {
                vec![
                    format!("{:.2}", f.jain_bsld),
                    format!("{:.1}", f.worst_user_bsld_mean),
                    format!("{:.0} %", 100.0 * f.share_users_wait_over_day),
                ]
            })
        },
    ));
    md
}

/// The metrics environment D compares pairwise, with their headings,
/// decimals and print scales in Markdown.
const PAIRED_METRICS: [(&str, &str, usize, f64); 4] = [
    ("wait_mean_s", "mean wait (s)", 0, 1.0),
    ("bsld_mean", "mean bsld", 2, 1.0),
    ("xfactor_mean", "mean xfactor", 2, 1.0),
    ("utilization", "utilization (%)", 2, 100.0),
];

/// The `paired` table of environment D: each log is one scenario (its
/// whole trace or its window), so schedulers are paired over the logs of
/// the grid, one family per metric (metrics::paired); with one log every
/// pair has n = 1 and no test.
///
/// # Errors
/// A polars error (a bug: the summary frame holds the columns).
fn paired_over_logs(
    summary: &polars::prelude::DataFrame,
) -> polars::prelude::PolarsResult<polars::prelude::DataFrame> {
    let metrics: Vec<&str> = PAIRED_METRICS.iter().map(|m| m.0).collect();
    crate::metrics::paired::paired_table(summary, &[], &["log_key"], &metrics)
}

/// The "Paired differences" section of `tables.md` and `compare.md`:
/// empty unless some pair ran on two logs or more.
///
/// # Errors
/// A polars error (a bug).
fn paired_markdown(paired: &polars::prelude::DataFrame) -> polars::prelude::PolarsResult<String> {
    let most = paired
        .column("n")?
        .u64()?
        .iter()
        .flatten()
        .max()
        .unwrap_or(0);
    if most < 2 {
        return Ok(String::new());
    }
    let shown: Vec<(&str, String, usize, f64)> = PAIRED_METRICS
        .iter()
        .map(|&(m, h, d, k)| (m, h.to_string(), d, k))
        .collect();
    crate::metrics::paired::markdown(paired, &[], &shown)
}

/// The layout of a log's one scenario: `whole`, or `window-<first job>`,
/// from its first submit; no random draw, so scenario seed 0.
fn log_layout(key: &str, p: &ClassicPrepared) -> LogLayout {
    let date = p
        .window
        .as_ref()
        .map_or("whole".to_string(), |w| format!("window-{}", w.start));
    let start = p
        .scenario
        .jobs
        .iter()
        .map(|j| j.submit)
        .fold(f64::INFINITY, f64::min);
    LogLayout {
        key: key.to_string(),
        file: p.log.clone(),
        max_procs: p.scenario.machine.max_processors() as f64,
        candidate_days: 1,
        day_set: None,
        days: vec![DayLayout {
            date,
            start: if start.is_finite() { start } else { 0.0 },
            scenario_seed: 0,
        }],
    }
}

/// The scenario in a few words, for figure titles.
fn subtitle(p: &ClassicPrepared) -> String {
    match &p.window {
        None => "whole log".into(),
        Some(w) if w.extra > 0 => format!(
            "{} jobs, the first {} from {} and the next {}",
            p.scenario.jobs.len(),
            w.jobs,
            w.dates.0,
            w.extra
        ),
        Some(w) => format!("{} jobs from {}", w.jobs, w.dates.0),
    }
}

/// The window of a scenario in words (empty for a whole log).
fn about(p: &ClassicPrepared) -> String {
    let Some(w) = &p.window else {
        return String::new();
    };
    let jobs = &p.scenario.jobs;
    format!(
        "Window of {} jobs from cleaned job {} (job numbers {} to {}, submitted {} to {}; {}), plus the next {} jobs submitted into it ({} jobs, {} marked preempting); submit span {:.1} h.",
        w.jobs,
        w.start,
        jobs.first().map_or(0, |j| j.job_number),
        jobs.get(w.jobs.saturating_sub(1))
            .map_or(0, |j| j.job_number),
        w.dates.0,
        w.dates.1,
        w.chosen,
        w.extra,
        jobs.len(),
        w.preempting,
        (w.span.1 - w.span.0) / 3_600.0
    )
}

/// The `jobs` and `suspensions` tables of cells with job detail: for each
/// scenario (cells of one log, in cell order), the tables of its runs.
fn job_tables(
    cells: &[ClassicCell],
) -> polars::prelude::PolarsResult<(polars::prelude::DataFrame, polars::prelude::DataFrame)> {
    let mut jobs: Option<polars::prelude::DataFrame> = None;
    let mut susp: Option<polars::prelude::DataFrame> = None;
    let mut k = 0;
    while k < cells.len() {
        let group: Vec<&ClassicCell> = cells[k..]
            .iter()
            .take_while(|c| c.log == cells[k].log && c.scenario == cells[k].scenario)
            .collect();
        k += group.len();
        let Some(first) = group.iter().find_map(|c| c.detail.as_ref()) else {
            continue;
        };
        let runs: Vec<(String, ClassicRun)> = group
            .iter()
            .filter_map(|c| {
                c.detail
                    .as_ref()
                    .map(|d| (c.summary.heuristic.clone(), d.run()))
            })
            .collect();
        let named: Vec<(&str, &ClassicRun)> = runs.iter().map(|(n, r)| (n.as_str(), r)).collect();
        let tau = group[0].summary.bsld_tau_s;
        let log = &group[0].summary.log;
        let j = jobs_frame(log, &first.jobs, &named, tau)?;
        let s = suspensions_frame(log, &first.jobs, &named)?;
        jobs = Some(match jobs {
            Some(mut a) => {
                a.vstack_mut(&j)?;
                a
            }
            None => j,
        });
        susp = Some(match susp {
            Some(mut a) => {
                a.vstack_mut(&s)?;
                a
            }
            None => s,
        });
    }
    let empty = || jobs_frame("", &[], &[], crate::metrics::formulas::DEFAULT_TAU);
    let jobs = match jobs {
        Some(j) => j,
        None => empty()?,
    };
    let susp = match susp {
        Some(s) => s,
        None => suspensions_frame("", &[], &[])?,
    };
    Ok((jobs, susp))
}

/// `tables.md`: per log, what ran, then the three tables — average queue
/// wait, average expansion factor, utilization — one row per scheduler.
pub fn markdown(name: &str, layout: &Layout, args: &ClassicArgs, cells: &[ClassicCell]) -> String {
    let mut out = format!("# {name}: classic replay\n");
    let rule = args.preemption().ok();
    for l in &layout.logs {
        let mine: Vec<&ClassicCell> = cells.iter().filter(|c| c.log == l.key).collect();
        let Some(first) = mine.first() else { continue };
        let s = &first.summary;
        out.push_str(&format!(
            "\n## {} ({}): {}\n\n{} jobs on {} {} ({} processors), {} estimates, {} cleaning.\n",
            l.key,
            l.file,
            first.scenario,
            s.jobs,
            s.capacity,
            s.unit,
            l.max_procs,
            s.estimates,
            s.clean
        ));
        if !first.about.is_empty() {
            out.push_str(&first.about);
            out.push('\n');
        }
        if let (Some(r), true) = (
            rule,
            mine.iter()
                .any(|c| c.summary.suspensions > 0 || c.summary.heuristic == "catalina-preempt"),
        ) {
            out.push_str(&format!(
                "Preemption (catalina-preempt): jobs wider than {} units preempt with priority x{}, jobs of at most {} units are preemptible, PREEMPT_MIN_RUNTIME {} s.\n",
                r.preempting_above, r.preemptor_priority_factor, r.preemptible_up_to, r.min_runtime
            ));
        }
        for c in mine.iter().filter(|c| c.summary.suspensions > 0) {
            out.push_str(&format!(
                "{}: {} suspensions of {} jobs, {:.0} s each on average.\n",
                c.summary.heuristic,
                c.summary.suspensions,
                c.summary.jobs_suspended,
                c.summary.suspended_mean_s
            ));
        }
        let table =
            |title: &str, cols: [&str; 3], f: fn(&ClassicSummary) -> [f64; 3], prec: usize| {
                let mut t = format!(
                    "\n{title}\n\n| scheduler | {} | {} | {} |\n|---|---:|---:|---:|\n",
                    cols[0], cols[1], cols[2]
                );
                for c in &mine {
                    let v = f(&c.summary);
                    t.push_str(&format!(
                        "| {} | {:.p$} | {:.p$} | {:.p$} |\n",
                        c.summary.heuristic,
                        v[0],
                        v[1],
                        v[2],
                        p = prec
                    ));
                }
                t
            };
        let weights = ["unweighted", "priority-weighted", "node-second-weighted"];
        out.push_str(&table(
            "Table 1. Average queue wait, s (suspended time counts as wait)",
            weights,
            |s| [s.wait_mean_s, s.wait_pw_mean_s, s.wait_nsw_mean_s],
            1,
        ));
        out.push_str(&table(
            "Table 2. Average expansion factor, (wait + run) / run",
            weights,
            |s| [s.xfactor_mean, s.xfactor_pw_mean, s.xfactor_nsw_mean],
            3,
        ));
        out.push_str(&table(
            "Table 3. Utilization over the makespan (first submit to last end)",
            [
                "utilization %",
                "priority-weighted utilization %",
                "makespan h",
            ],
            |s| {
                [
                    100.0 * s.utilization,
                    100.0 * s.pw_utilization,
                    s.makespan_s / 3_600.0,
                ]
            },
            2,
        ));
    }
    out.push_str(
        "\nPriority weights are the priorities jobs started with (Catalina's; preempting jobs' multiplied by the preemptor factor; 1 for the other schedulers); \
         priority-weighted utilization = Σ priority·units·run / (units · makespan · mean priority), above 100 % when wide jobs rank high.\n",
    );
    out
}

/// Per log, the wait and expansion-factor figures: grouped bars over the
/// three averages (unweighted, priority-weighted, node-second-weighted), one
/// bar per scheduler; stems `<log>-wait` and `<log>-xfactor`.
pub fn charts(layout: &Layout, cells: &[ClassicCell]) -> Vec<(String, BarChart)> {
    let levels: Vec<String> = ["unweighted", "priority-weighted", "node-second-weighted"]
        .map(String::from)
        .to_vec();
    let mut out = Vec::new();
    for l in &layout.logs {
        let mine: Vec<&ClassicCell> = cells.iter().filter(|c| c.log == l.key).collect();
        let Some(first) = mine.first() else { continue };
        // Without priorities (no Catalina here) the priority-weighted
        // average is the unweighted one: its group is left out, and said.
        let weighted = mine.iter().any(|c| {
            c.summary.wait_pw_mean_s != c.summary.wait_mean_s
                || c.summary.xfactor_pw_mean != c.summary.xfactor_mean
        });
        let keep: Vec<usize> = if weighted { vec![0, 1, 2] } else { vec![0, 2] };
        let levels: Vec<String> = keep.iter().map(|&i| levels[i].clone()).collect();
        let x_label = if weighted {
            "average".to_string()
        } else {
            "average (priority-weighted left out: no scheduler here has priorities, so it equals the unweighted)".to_string()
        };
        let series = |f: fn(&ClassicSummary) -> [f64; 3]| {
            mine.iter()
                .map(|c| {
                    let v = f(&c.summary);
                    BarSeries {
                        name: c.summary.heuristic.clone(),
                        bars: keep
                            .iter()
                            .map(|&i| {
                                Some(Bar {
                                    mean: v[i],
                                    ci95: None,
                                })
                            })
                            .collect(),
                    }
                })
                .collect::<Vec<_>>()
        };
        let what = if first.subtitle.is_empty() {
            format!("{}, {} jobs, {}", l.key, first.summary.jobs, first.scenario)
        } else {
            format!("{}: {}", l.key, first.subtitle)
        };
        out.push((
            format!("{}-wait", l.key),
            BarChart {
                title: format!("Average queue wait ({what})"),
                x_label: x_label.clone(),
                y_label: "queue wait, s (suspended time included)".into(),
                levels: levels.clone(),
                series: series(|s| [s.wait_mean_s, s.wait_pw_mean_s, s.wait_nsw_mean_s]),
                log_y: false,
                y_clip: None,
            },
        ));
        out.push((
            format!("{}-xfactor", l.key),
            BarChart {
                title: format!("Average expansion factor ({what})"),
                x_label,
                y_label: "expansion factor (wait + run) / run, log scale".into(),
                levels: levels.clone(),
                series: series(|s| [s.xfactor_mean, s.xfactor_pw_mean, s.xfactor_nsw_mean]),
                log_y: true,
                y_clip: None,
            },
        ));
    }
    out
}
