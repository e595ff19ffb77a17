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

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::ExperimentError;
use super::config::{ExperimentConfig, Variant};
use super::grid::{CellSpec, DayLayout, DaySetRecord, Layout, LogLayout, Plan};
use super::grid::{Grid, GridReport};
use crate::catalog::log_key;
use crate::env::EnvKind;
use crate::env::serial::environment::{Serial, SerialSource};
use crate::env::serial::params::SerialArgs;
use crate::env::serial::summary::{SerialSummary, earned, summarize};
use crate::env::serial::{HEURISTICS, SerialRun, SerialScenario, TaskFate, workload};
use crate::metrics::tables::write_both;
use crate::report::Figure;
use crate::swf::SwfLog;
use crate::workload::DayError;
use crate::workload::Workload;
use crate::workload::seeds::{ScenarioKey, scenario_seed};

pub mod aggregate;
pub mod figures;
pub mod variant;

use variant::SerialVariant;

/// The heuristic whose schedule the Gantt chart shows, when in the grid.
pub const GANTT_HEURISTIC: &str = "maxupt-preempt-greedy";

/// Length of the Gantt window, s.
pub const GANTT_WINDOW_SECONDS: f64 = 3600.0;

/// The key of the pseudo-log of a grid of synthetic trials.
pub const SYNTHETIC_KEY: &str = "synthetic";

fn figure_style() -> Figure {
    Figure::with_palette(&HEURISTICS.names())
}

/// One piece on the Gantt cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GanttPiece {
    /// Job number.
    pub job: i64,
    /// Core within the cluster.
    pub core: u32,
    /// Start, s.
    pub start: f64,
    /// End, s.
    pub end: f64,
    /// Whether the task completes at the end of this piece (else it was
    /// preempted, or the run ended).
    pub completes: bool,
    /// Whether the task is critical.
    pub critical: bool,
    /// Whether the piece resumes a preempted task.
    pub resumes: bool,
}

/// The schedule of one cluster over one hour of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SerialGantt {
    /// Heuristic of the run.
    pub heuristic: String,
    /// Cluster index (the one with the most cores; the lower on ties).
    pub cluster: usize,
    /// Its cores.
    pub cores: u32,
    /// The hour shown, s on the scenario clock.
    pub window: (f64, f64),
    /// Pieces that overlap the window.
    pub pieces: Vec<GanttPiece>,
    /// Preemptions on the cluster inside the window.
    pub preemptions: usize,
}

/// What one finished cell of environment B leaves on disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SerialCell {
    /// The cell id.
    pub id: String,
    /// Position in the cell order.
    pub index: usize,
    /// Log key (`synthetic` for synthetic trials).
    pub log: String,
    /// The workload variant.
    pub variant: SerialVariant,
    /// The run summary (deterministic).
    pub summary: SerialSummary,
    /// Heuristic wall time per mapping event: mean and max, s (wall clock).
    pub heuristic_seconds: (f64, f64),
    /// Figure scenario only: (completion s, utility earned in the window)
    /// of every task that earned, by completion time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cumulative: Option<Vec<(f64, f64)>>,
    /// Figure scenario and Gantt heuristic only: one cluster over one hour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gantt: Option<SerialGantt>,
}

/// The Gantt data of `run`: the cluster with the most cores over the hour
/// of the window (on whole hours) with the most preemptions on it, then
/// the most pieces started.
pub fn gantt_data(s: &SerialScenario, heuristic: &str, run: &SerialRun) -> SerialGantt {
    let cluster = (0..s.cores.len())
        .max_by(|&a, &b| s.cores[a].cmp(&s.cores[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let on: Vec<_> = run.pieces.iter().filter(|p| p.cluster == cluster).collect();
    let completes = |p: &crate::env::serial::SerialPiece| matches!(run.fates[p.task], TaskFate::Completed { at, .. } if at == p.end);
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

fn variant_of(layout: &Layout, cell: &CellSpec) -> SerialVariant {
    layout
        .serial_variants
        .get(cell.variant)
        .copied()
        .unwrap_or_default()
}

impl Grid for Serial {
    type Cell = SerialCell;

    fn grid_args(config: &ExperimentConfig) -> SerialArgs {
        SerialArgs {
            seed: Some(config.seed),
            days: config.days,
            day_arrivals: config.day_arrivals,
            ..config.serial.clone()
        }
    }

    fn variants(_: &ExperimentConfig) -> Vec<Variant> {
        Vec::new()
    }

    fn serial_variants(config: &ExperimentConfig) -> Vec<SerialVariant> {
        config.serial_variant_list()
    }

    fn synthetic(
        config: &ExperimentConfig,
        args: &SerialArgs,
    ) -> Result<Option<(SerialSource, LogLayout)>, ExperimentError> {
        let trials = config.trial_count();
        let layout = LogLayout {
            key: SYNTHETIC_KEY.to_string(),
            file: String::new(),
            max_procs: 0.0,
            candidate_days: trials as usize,
            day_set: None,
            days: (0..trials)
                .map(|t| DayLayout {
                    date: format!("trial-{t}"),
                    start: 0.0,
                    scenario_seed: scenario_seed(config.seed, ScenarioKey::Trial(t)),
                })
                .collect(),
        };
        Ok(Some((SerialSource::Synthetic(args.synthetic()), layout)))
    }

    fn lay_out(
        log: &SwfLog,
        key: &str,
        config: &ExperimentConfig,
        args: &SerialArgs,
    ) -> Result<(SerialSource, LogLayout), ExperimentError> {
        let w = Workload::from_log(log);
        let (days, layout) = super::grid::lay_out_days(&w, key, config)?;
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
        let log = &plan.layout.logs[cell.log];
        let dl = &log.days[cell.day];
        let args = variant_of(&plan.layout, cell).apply(&plan.args);
        let failed = |e: crate::workload::WorkloadError| {
            ExperimentError::Env(crate::env::EnvError::Serial(e.into()))
        };
        let scenario = match &plan.prepared[cell.log] {
            SerialSource::Synthetic(_) | SerialSource::File(_) => {
                workload::synthetic(&args.synthetic(), plan.config.seed, cell.day as u64)
                    .map_err(failed)?
            }
            SerialSource::Log { workload: w, .. } => {
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
                workload::from_day(w, &day, &args.log_params(), plan.config.seed).map_err(failed)?
            }
        };
        if scenario.seed != dl.scenario_seed {
            return Err(ExperimentError::SeedDrift {
                log: log.key.clone(),
                date: dl.date.clone(),
                expected: dl.scenario_seed,
                got: scenario.seed,
            });
        }
        Ok(scenario)
    }

    fn cell(
        plan: &Plan<Serial>,
        cell: &CellSpec,
        scenario: &SerialScenario,
        heuristic: &Self::Heuristic,
        run: &SerialRun,
    ) -> SerialCell {
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
            variant: variant_of(layout, cell),
            summary: summarize(scenario, heuristic.name, run),
            heuristic_seconds: run.heuristic_seconds,
            cumulative: figure.then(|| cumulative_data(scenario, run)),
            gantt: (figure && cell.heuristic == gantt_heuristic)
                .then(|| gantt_data(scenario, heuristic.name, run)),
        }
    }

    fn cell_id(cell: &SerialCell) -> &str {
        &cell.id
    }

    fn set_index(cell: &mut SerialCell, index: usize) {
        cell.index = index;
    }

    fn report(
        layout: &Layout,
        config: &ExperimentConfig,
        cells: &[SerialCell],
        out: &Path,
        figures: bool,
    ) -> Result<GridReport, ExperimentError> {
        let mut t = aggregate::tables(cells)?;
        write_both(&mut t.runs, out, "runs")?;
        write_both(&mut t.runs_timing, out, "runs_timing")?;
        write_both(&mut t.aggregate, out, "aggregate")?;
        write_both(&mut t.timing, out, "timing")?;
        let md = aggregate::markdown(layout, config, &t.rows);
        let md_path = out.join("aggregate.md");
        std::fs::write(&md_path, &md).map_err(ExperimentError::io(&md_path))?;
        let mut files = vec![md_path];
        if figures {
            files.extend(figures::experiment_figures(
                layout,
                config,
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
        source: &SerialSource,
        scenarios: &[SerialScenario],
        args: &SerialArgs,
    ) -> (ExperimentConfig, Layout) {
        let names: Vec<String> = heuristics.iter().map(|h| h.name.to_string()).collect();
        let mut serial = args.clone();
        serial.seed = None;
        serial.day = None;
        serial.days = None;
        serial.day_arrivals = None;
        serial.trial = None;
        serial.trials = None;
        let synthetic = matches!(source, SerialSource::Synthetic(_));
        let config = ExperimentConfig {
            name: "replay".into(),
            environment: EnvKind::Serial,
            logs: if synthetic {
                Vec::new()
            } else {
                vec![spec.to_string()]
            },
            heuristics: names.clone(),
            dates: match source {
                SerialSource::Log { days, .. } => {
                    Some(days.iter().map(|d| d.date.clone()).collect())
                }
                _ => None,
            },
            day_arrivals: args.day_arrivals,
            seed: args.seed(),
            trials: synthetic.then_some(scenarios.len() as u64),
            serial,
            ..ExperimentConfig::empty()
        };
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
                    &w.day_set(args.day_arrivals.unwrap_or_default()),
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
        let layout = Layout {
            environment: EnvKind::Serial,
            logs: vec![log],
            variants: Vec::new(),
            serial_variants: vec![SerialVariant::of_args(args)],
            energy_variants: Vec::new(),
            heuristics: names,
        };
        (config, layout)
    }

    fn compare(
        layout: &Layout,
        cells: &[SerialCell],
        out: &Path,
    ) -> Result<GridReport, ExperimentError> {
        let rows = aggregate::tables(cells)?.rows;
        let table = aggregate::side_by_side(layout, &rows);
        let md = out.join("compare.md");
        std::fs::write(&md, &table).map_err(ExperimentError::io(&md))?;
        let mut files = vec![md];
        files.extend(figures::compare_figure(
            layout,
            &rows,
            &figure_style(),
            &out.join("figures").join("compare-percent-of-max"),
        )?);
        Ok(GridReport {
            preface: String::new(),
            markdown: table,
            tables: Vec::new(),
            files,
        })
    }
}
