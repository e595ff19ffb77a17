//! Environment B on the grid runner ([`Grid`]): synthetic trials (a grid
//! without logs) or days of logs as scenarios, the four workload axes of
//! Machovec et al. (§V) as variants ([`variant`]), cell files with the run
//! summary and, for the figure scenario, the data of the utility-over-the-day
//! and Gantt figures; the `runs`, `runs_timing`, `aggregate` and `timing`
//! tables ([`aggregate`]), `aggregate.md` and the figures ([`figures`]).
//!
//! The figure scenario is the middle trial (or day) of the default variant
//! (classes, bursts of 64, every flag set, critical ETC 10 min; the first
//! variant when the default is not in the grid). Its cells keep the
//! completion times and window utility of every task that earned; the cell
//! of the Gantt heuristic (`maxupt-preempt-greedy` when in the grid, else
//! the first) keeps the pieces of the largest cluster over the busiest hour
//! of the window (the hour with the most preemptions, then the most pieces
//! started).

use crate::workload::flags::SharedArgs;
use std::path::Path;

use super::environment::{Serial, SerialSource};
use super::params::SerialArgs;
use super::summary::{earned, summarize};
use super::{
    HEURISTICS, SerialArgsError, SerialPiece, SerialRun, SerialScenario, TaskFate, workload,
};
use crate::catalog::log_key;
use crate::contract::{EnvError, Environment, Setup, Simulated};
use crate::experiment::ExperimentError;
use crate::experiment::config::{ConfigError, ExperimentConfig};
use crate::experiment::grid::{
    CellSpec, DayLayout, DaySetRecord, GridSetup, LaidOut, Layout, LogLayout, Plan, ReportTo,
};
use crate::experiment::grid::{Grid, GridReport, Preset, VariantRecord};
use crate::experiment::report::{Metrics, write_compare, write_runs_report};
use crate::report::Figure;
use crate::swf::SwfLog;
use crate::workload::Workload;

pub mod aggregate;
pub mod cell;
pub mod figures;
pub mod variant;

pub use cell::{
    GANTT_HEURISTIC, GANTT_WINDOW_SECONDS, GanttPiece, SerialCell, SerialGantt, SerialSection,
    SerialView,
};

use variant::{SerialAxis, SerialVariant};

/// The keys of [`SerialSection`], for the commented header of a dumped
/// configuration.
pub const SECTION_HELP: &str = "\
# Environment B (environment = \"serial\"; synthetic trials without logs, or
# days of logs with days/dates/day_arrivals):
# serial_axes  any of \"shape\", \"burst_size\", \"flag_probability\",
#              \"critical_etc\": each at the levels of Machovec et al. (step,
#              decaying, classes; 1-128; 0-100 %; 10-50 min), the others at [serial]
# [serial]     the flags of `swftool replay --env serial` without the dashes
#              (shape = \"classes\", burst_size = 64, flag_probability = 1.0,
#              critical_etc = 10.0, fixed_cores = true; with logs: load = 2.2)
";

/// The key of the pseudo-log of a grid of synthetic trials.
pub use crate::experiment::grid::SYNTHETIC_KEY;

fn figure_style() -> Figure {
    Figure::with_palette(&HEURISTICS.names())
}

/// The Gantt data of `run`: the cluster with the most cores over the hour
/// of the window (on whole hours) with the most preemptions on it, then
/// the most pieces started.
pub fn gantt_data(s: &SerialScenario, heuristic: &str, run: &SerialRun) -> SerialGantt {
    let cluster = (0..s.cores.len())
        .max_by(|&a, &b| s.cores[a].cmp(&s.cores[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let on: Vec<_> = run.pieces.iter().filter(|p| p.cluster == cluster).collect();
    let completes = |p: &SerialPiece| matches!(run.fates[p.task], TaskFate::Completed { at, .. } if at == p.end);
    let mut best = (s.window.0, (0usize, 0usize));
    let mut h = s.window.0;
    while h + GANTT_WINDOW_SECONDS <= s.window.1 {
        let e = h + GANTT_WINDOW_SECONDS;
        let preempted = on
            .iter()
            .filter(|p| p.end >= h && p.end < e && !completes(p) && p.end < run.end)
            .count();
        let started = on.iter().filter(|p| p.start >= h && p.start < e).count();
        if (preempted, started) > best.1 {
            best = (h, (preempted, started));
        }
        h = e;
    }
    let window = (best.0, best.0 + GANTT_WINDOW_SECONDS);
    let mut first_start = vec![f64::INFINITY; s.tasks.len()];
    for p in &run.pieces {
        first_start[p.task] = first_start[p.task].min(p.start);
    }
    let mut pieces: Vec<GanttPiece> = on
        .iter()
        .filter(|p| p.end > window.0 && p.start < window.1)
        .map(|p| GanttPiece {
            job: s.tasks[p.task].job_number,
            core: p.core,
            start: p.start,
            end: p.end,
            completes: completes(p),
            critical: s.types[s.tasks[p.task].task_type].critical,
            resumes: p.start > first_start[p.task],
        })
        .collect();
    pieces.sort_by(|a, b| a.start.total_cmp(&b.start).then(a.core.cmp(&b.core)));
    SerialGantt {
        heuristic: heuristic.to_string(),
        cluster,
        cores: s.cores[cluster],
        window,
        pieces,
        preemptions: best.1.0,
    }
}

/// The cumulative-utility data of `run`: (completion, utility earned in
/// the window) of every task that earned, by completion time.
pub fn cumulative_data(s: &SerialScenario, run: &SerialRun) -> Vec<(f64, f64)> {
    let earned = earned(s, run);
    let mut pts: Vec<(f64, f64)> = run
        .fates
        .iter()
        .zip(&earned)
        .filter_map(|(f, e)| match (f, e) {
            (TaskFate::Completed { at, .. }, Some(e)) if e.utility() > 0.0 => {
                Some((*at, e.utility()))
            }
            _ => None,
        })
        .collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    pts
}

fn variant_of(plan: &Plan<Serial>, cell: &CellSpec) -> SerialVariant {
    plan.section
        .variant_list()
        .get(cell.variant)
        .copied()
        .unwrap_or_default()
}

crate::grid_cell!(SerialCell);

impl Grid for Serial {
    type Cell = SerialCell;
    type Section = SerialSection;
    const SECTION_KEYS: &'static [&'static str] = &["serial_axes", "serial"];
    const SECTION_HELP: &'static str = SECTION_HELP;
    const GROWABLE: &'static [&'static str] = &["serial_axes"];

    fn presets() -> Vec<(&'static str, Preset)> {
        let base = |name: &str| ExperimentConfig::preset(Serial::NAME, name);
        vec![
            (
                "machovec2017-serial",
                Preset {
                    summary: "the grid of Machovec et al. 2017 (Figs. 3–6): 64 trials, the four workload axes, the 10 heuristics",
                    config: ExperimentConfig {
                        heuristics: HEURISTICS.names().into_iter().map(String::from).collect(),
                        trials: Some(crate::experiment::config::DEFAULT_TRIALS),
                        ..base("machovec2017-serial")
                    }
                    .with_section(&SerialSection {
                        serial_axes: SerialAxis::ALL.to_vec(),
                        serial: SerialArgs::default(),
                    }),
                },
            ),
            (
                "smoke-serial",
                Preset {
                    summary: "a quick check of environment B: 4 trials, 3 heuristics (12 cells)",
                    config: ExperimentConfig {
                        heuristics: ["fcfs", "maxutil", "maxutil-preempt-pair"]
                            .map(String::from)
                            .to_vec(),
                        trials: Some(4),
                        ..base("smoke-serial")
                    },
                },
            ),
        ]
    }

    fn check_config(
        config: &ExperimentConfig,
        section: &SerialSection,
        origin: &Path,
    ) -> Result<(), ConfigError> {
        let invalid = |key, message| ConfigError::invalid(origin, key, message);
        let s = &section.serial;
        let with_logs = !config.logs.is_empty();
        let day_keys = [
            ("days", config.days.is_some()),
            ("dates", config.dates.is_some()),
            ("day_arrivals", config.day_arrivals.is_some()),
        ];
        if with_logs {
            if config.trials.is_some() {
                return Err(invalid(
                    "trials",
                    "`trials` counts synthetic trials (no logs); with logs, give `days` or `dates`"
                        .into(),
                ));
            }
        } else if let Some((key, _)) = day_keys.iter().find(|(_, set)| *set) {
            return Err(invalid(
                key,
                format!(
                    "`{key}` picks days of logs; without logs the grid runs synthetic trials (`trials`)"
                ),
            ));
        }
        if let Some(flag) = s.misplaced(with_logs).first() {
            return Err(invalid(
                "serial",
                format!(
                    "{} {}",
                    flag.trim_start_matches("--").replace('-', "_"),
                    if with_logs {
                        "applies to synthetic trials (no logs)"
                    } else {
                        "applies to logs"
                    }
                ),
            ));
        }
        if with_logs && !section.serial_axes.is_empty() {
            let synthetic_only = section
                .serial_axes
                .iter()
                .find(|a| matches!(a, SerialAxis::BurstSize | SerialAxis::CriticalEtc));
            if let Some(a) = synthetic_only {
                return Err(invalid(
                    "serial_axes",
                    format!(
                        "`{}` varies the synthetic workload; it does not apply to logs",
                        a.name()
                    ),
                ));
            }
        }
        if let Some(p) = s.flag_probability
            && ((p * 100.0).round() - p * 100.0).abs() > 1e-9
        {
            return Err(invalid(
                "serial",
                format!("flag_probability {p}: grids take whole percents (0.01 steps)"),
            ));
        }
        if let Some(m) = s.critical_etc
            && m.fract() != 0.0
        {
            return Err(invalid(
                "serial",
                format!("critical_etc {m}: grids take whole minutes"),
            ));
        }
        if s.burst_size == Some(0) {
            return Err(invalid("serial", "burst_size must be at least 1".into()));
        }
        let args = Serial::grid_args(config, section);
        let params = if with_logs {
            args.log_params().validate()
        } else {
            args.synthetic().validate()
        };
        if let Err(e) = params {
            return Err(invalid("serial", e.to_string()));
        }
        Ok(())
    }

    fn grid_args(config: &ExperimentConfig, section: &SerialSection) -> SerialArgs {
        SerialArgs {
            shared: SharedArgs {
                seed: Some(config.seed),
                days: config.days,
                day_arrivals: config.day_arrivals,
                theta: config.theta,
                ..SharedArgs::default()
            },
            ..section.serial.clone()
        }
    }

    fn variants(_: &ExperimentConfig, section: &SerialSection) -> Vec<VariantRecord> {
        let default = SerialVariant::default();
        section
            .variant_list()
            .iter()
            .map(|v| VariantRecord::new(v.id(), *v == default, v))
            .collect()
    }

    fn synthetic(
        config: &ExperimentConfig,
        args: &SerialArgs,
    ) -> Result<Option<(SerialSource, LogLayout)>, ExperimentError> {
        let trials = config.trial_count();
        let layout = LogLayout::synthetic_trials(config.seed, trials, 0.0);
        Ok(Some((SerialSource::Synthetic(args.synthetic()), layout)))
    }

    fn lay_out(log: &SwfLog, key: &str, g: GridSetup<'_, Self>) -> LaidOut<SerialSource> {
        let (config, args) = (g.config, g.args);
        let w = Workload::from_log(log);
        let (days, layout) = crate::experiment::grid::lay_out_days(&w, key, config)?;
        Ok((
            SerialSource::Log {
                workload: Box::new(w),
                params: args.log_params(),
                days,
            },
            layout,
        ))
    }

    fn scenario(plan: &Plan<Serial>, cell: &CellSpec) -> Result<SerialScenario, ExperimentError> {
        let args = variant_of(plan, cell).apply(&plan.args);
        let failed = |e: crate::workload::WorkloadError| {
            ExperimentError::Env(EnvError::from(SerialArgsError::from(e)))
        };
        let scenario = match &plan.prepared[cell.log] {
            SerialSource::Synthetic(_) | SerialSource::File(_) => {
                workload::synthetic(&args.synthetic(), plan.config.seed, cell.day as u64)
                    .map_err(failed)?
            }
            SerialSource::Log { workload: w, .. } => {
                let day = plan.layout.day_window(w, cell)?;
                workload::from_day(w, &day, &args.log_params(), plan.config.seed).map_err(failed)?
            }
        };
        Ok(scenario)
    }

    fn cell(plan: &Plan<Serial>, cell: &CellSpec, sim: Simulated<'_, Self>) -> SerialCell {
        let (scenario, heuristic, run) = (sim.scenario, sim.heuristic, sim.run);
        let layout = &plan.layout;
        let figure = layout.is_figure_cell(cell);
        let gantt_heuristic = layout
            .heuristics
            .iter()
            .position(|h| h == GANTT_HEURISTIC)
            .unwrap_or(0);
        SerialCell {
            id: cell.id.clone(),
            index: cell.index,
            log: layout.logs[cell.log].key.clone(),
            variant: variant_of(plan, cell),
            summary: summarize(scenario, heuristic.name, run),
            heuristic_seconds: run.heuristic_seconds,
            cumulative: figure.then(|| cumulative_data(scenario, run)),
            gantt: (figure && cell.heuristic == gantt_heuristic)
                .then(|| gantt_data(scenario, heuristic.name, run)),
        }
    }

    fn report(to: &ReportTo<'_>, cells: &[SerialCell]) -> Result<GridReport, ExperimentError> {
        let (layout, config, out, figures) = (to.layout, to.config, to.out, to.figures);
        let mut t = aggregate::tables(cells)?;
        let view = SerialView::new(layout, config)?;
        let md = aggregate::markdown(layout, &view, &t.rows);
        let metrics = Metrics::of::<Serial>(
            &["log_key", "variant", "heuristic"],
            &["scenario"],
            SYNTHETIC_KEY,
        );
        write_runs_report(out, &mut t, md, &metrics, figures, |rows, dir| {
            figures::experiment_figures(layout, &view, rows, cells, dir, &figure_style())
        })
    }

    fn replay_grid(r: &Setup<'_, Self>, base: ExperimentConfig) -> (ExperimentConfig, Layout) {
        let (spec, source, scenarios, args) = (r.spec, r.prepared, r.scenarios, r.args);
        let names = base.heuristics.clone();
        let mut serial = args.clone();
        serial.shared = SharedArgs::default();
        let synthetic = matches!(source, SerialSource::Synthetic(_));
        let config = ExperimentConfig {
            logs: if synthetic {
                Vec::new()
            } else {
                vec![spec.to_string()]
            },
            dates: match source {
                SerialSource::Log { days, .. } => {
                    Some(days.iter().map(|d| d.date.clone()).collect())
                }
                _ => None,
            },
            trials: synthetic.then_some(scenarios.len() as u64),
            ..base
        }
        .with_section(&SerialSection {
            serial,
            ..SerialSection::default()
        });
        let log = match source {
            SerialSource::Log {
                workload: w, days, ..
            } => LogLayout {
                key: log_key(spec),
                file: w.name.clone(),
                max_procs: w.max_procs,
                candidate_days: w.candidates.len(),
                day_set: Some(DaySetRecord::new(
                    w,
                    &w.day_set(args.shared.day_arrivals.unwrap_or_default()),
                    days,
                )),
                days: days
                    .iter()
                    .zip(scenarios)
                    .map(|(d, s)| DayLayout {
                        date: d.date.clone(),
                        start: d.start,
                        scenario_seed: s.seed,
                    })
                    .collect(),
            },
            SerialSource::Synthetic(_) | SerialSource::File(_) => LogLayout {
                key: if synthetic {
                    SYNTHETIC_KEY.to_string()
                } else {
                    log_key(spec)
                },
                file: if synthetic {
                    String::new()
                } else {
                    spec.to_string()
                },
                max_procs: 0.0,
                candidate_days: scenarios.len(),
                day_set: None,
                days: scenarios
                    .iter()
                    .map(|s| DayLayout {
                        date: s.name.clone(),
                        start: s.origin,
                        scenario_seed: s.seed,
                    })
                    .collect(),
            },
        };
        let variant = SerialVariant::of_args(args);
        let layout = Layout {
            environment: Serial::NAME.to_string(),
            logs: vec![log],
            variants: vec![VariantRecord::new(
                variant.id(),
                variant == SerialVariant::default(),
                &variant,
            )],
            heuristics: names,
        };
        (config, layout)
    }

    fn compare_config(
        logs: &[String],
        heuristics: &[String],
        args: &SerialArgs,
    ) -> Result<ExperimentConfig, EnvError> {
        if let Some(&flag) = args.misplaced(true).first() {
            return Err(SerialArgsError::Misplaced { flag, log: true }.into());
        }
        let keys: Vec<String> = logs.iter().map(|l| log_key(l)).collect();
        let mut serial = args.clone();
        serial.shared = SharedArgs::default();
        Ok(ExperimentConfig {
            name: format!("compare-{}-{}", Serial::NAME, keys.join("-")),
            logs: logs.to_vec(),
            heuristics: heuristics.to_vec(),
            days: Some(args.shared.days.unwrap_or(crate::workload::STANDARD_DAYS)),
            day_arrivals: args.shared.day_arrivals,
            seed: args.shared.seed(),
            theta: args.shared.theta,
            ..ExperimentConfig::empty(Serial::NAME, "<command line>")
        }
        .with_section(&SerialSection {
            serial,
            ..SerialSection::default()
        }))
    }

    fn compare(
        layout: &Layout,
        cells: &[SerialCell],
        out: &Path,
    ) -> Result<GridReport, ExperimentError> {
        let rows = aggregate::tables(cells)?.rows;
        let view = SerialView {
            layout,
            section: SerialSection::default(),
            variants: layout.variants_as()?,
        };
        let table = aggregate::side_by_side(layout, &rows);
        write_compare(out, String::new(), table, |dir| {
            figures::compare_figure(
                layout,
                &view,
                &rows,
                &figure_style(),
                &dir.join("compare-percent-of-max"),
            )
        })
    }
}
