//! The grid runner: plans the cells of a configuration, runs the pending ones
//! in parallel (rayon), and writes each finished cell at once to
//! `<out>/cells/<cell-id>.json` (through a temporary file and a rename, so an
//! interrupted run never leaves half a cell). A re-run skips the cells whose
//! file exists.
//!
//! Cell order (fixed): log (config order), variant
//! ([`ExperimentConfig::variant_list`]), day (time order), heuristic (config
//! order); cell `k` is the k-th, from 0. A shard `i/N` runs the cells with
//! k ≡ i (mod N). `i` is taken mod N, so both Slurm conventions work:
//! `--array=0-15` with `--shard $SLURM_ARRAY_TASK_ID/16` and `--array=1-16`
//! with the same argument (16/16 is shard 0).
//!
//! Each scenario (log, variant, day) is generated once per run and shared by
//! its heuristics. Every run goes through the schedule invariant checker; a
//! cell that breaks an invariant is not written to `cells/` (so a re-run
//! tries it again) but to `<out>/failed/<cell-id>.txt`, and is reported.
//!
//! A cell file holds the run's [`RunSummary`] (timings included) and, for
//! the one *figure scenario* of each log — the middle day of the default
//! variant (or of the first variant when the default is not in the grid) —
//! the completion times and values of its counted tasks (for the
//! cumulative-value figure) and, for one heuristic (`maxvpr-ph` when in the
//! grid, else the first), the schedule of the largest cluster over its
//! busiest 4 hours, opening on a whole hour of the day (for
//! the Gantt chart).

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::ExperimentError;
use super::config::{ExperimentConfig, Variant};
use crate::catalog;
use crate::env::parallel::summary::{RunSummary, summarize};
use crate::env::parallel::{self, RunResult, TaskStatus, simulate};
use crate::model::rng::derive_seed;
use crate::sim::invariants::{self, Violation};
use crate::swf::ReadOptions;
use crate::workload::{DayWindow, Scenario, Workload};

/// Length of the Gantt window from the start of the counted day, s.
pub const GANTT_WINDOW_SECONDS: f64 = 4.0 * 3600.0;
/// The heuristic whose schedule the Gantt chart shows, when in the grid.
pub const GANTT_HEURISTIC: &str = "maxvpr-ph";

/// One day of one log in the grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DayLayout {
    /// Local date `YYYY-MM-DD`.
    pub date: String,
    /// Local midnight on the log's clock, s.
    pub start: f64,
    /// Scenario seed derived from the user seed and the day (the same for
    /// every variant: variants share their random numbers).
    pub scenario_seed: u64,
}

/// One log of the grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogLayout {
    /// Short key used in cell ids and tables (`curie`, or the file stem).
    pub key: String,
    /// Name of the log file.
    pub file: String,
    /// The log's processor count (MaxProcs, else MaxNodes, else the largest
    /// job), cores: the base of its system sizes unless `cores_base` is set.
    pub max_procs: f64,
    /// Candidate days the log has.
    pub candidate_days: usize,
    /// The days used.
    pub days: Vec<DayLayout>,
}

/// The grid, by name only: everything needed to enumerate the cells without
/// reading the logs (it is stored in every manifest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// The logs, in config order.
    pub logs: Vec<LogLayout>,
    /// The distinct variants.
    pub variants: Vec<Variant>,
    /// The heuristic names, `all` expanded.
    pub heuristics: Vec<String>,
}

/// One cell of the grid.
#[derive(Debug, Clone, PartialEq)]
pub struct CellSpec {
    /// Position in the fixed cell order, from 0.
    pub index: usize,
    /// Index into [`Layout::logs`].
    pub log: usize,
    /// Index into [`Layout::variants`].
    pub variant: usize,
    /// Index into the log's days.
    pub day: usize,
    /// Index into [`Layout::heuristics`].
    pub heuristic: usize,
    /// File-name-safe id: `<log>_<variant id>_<date>_<heuristic>`.
    pub id: String,
}

impl Layout {
    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.logs.iter().map(|l| l.days.len()).sum::<usize>()
            * self.variants.len()
            * self.heuristics.len()
    }

    /// Every cell, in the fixed order.
    pub fn cells(&self) -> Vec<CellSpec> {
        let mut out = Vec::with_capacity(self.cell_count());
        for (li, log) in self.logs.iter().enumerate() {
            for (vi, v) in self.variants.iter().enumerate() {
                for (di, d) in log.days.iter().enumerate() {
                    for (hi, h) in self.heuristics.iter().enumerate() {
                        out.push(CellSpec {
                            index: out.len(),
                            log: li,
                            variant: vi,
                            day: di,
                            heuristic: hi,
                            id: format!("{}_{}_{}_{}", log.key, v.id(), d.date, h),
                        });
                    }
                }
            }
        }
        out
    }

    /// The variant of the figure scenario: the default one, else the first.
    pub fn figure_variant(&self) -> usize {
        self.variants
            .iter()
            .position(Variant::is_default)
            .unwrap_or(0)
    }

    /// The heuristic whose schedule is kept for the Gantt chart.
    pub fn gantt_heuristic(&self) -> usize {
        self.heuristics
            .iter()
            .position(|h| h == GANTT_HEURISTIC)
            .unwrap_or(0)
    }

    /// The day (index into the log's days) whose cumulative value and Gantt
    /// chart are drawn: the middle one, which for 48 standard days is the
    /// default day of `swftool replay`.
    pub fn figure_day(&self, log: usize) -> usize {
        self.logs.get(log).map_or(0, |l| l.days.len() / 2)
    }

    /// Whether `cell` is in a figure scenario (the figure day of the figure
    /// variant of its log).
    pub fn is_figure_cell(&self, cell: &CellSpec) -> bool {
        cell.day == self.figure_day(cell.log) && cell.variant == self.figure_variant()
    }
}

/// A shard `i/N` of the cell list (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// i, as given (0 ≤ i ≤ N).
    pub index: usize,
    /// N ≥ 1.
    pub count: usize,
}

impl Shard {
    /// Whether cell number `k` belongs to this shard: k ≡ i (mod N).
    pub fn contains(&self, k: usize) -> bool {
        k % self.count == self.index % self.count
    }
}

impl FromStr for Shard {
    type Err = ExperimentError;
    fn from_str(s: &str) -> Result<Shard, ExperimentError> {
        let bad = || ExperimentError::Shard(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A log read and prepared for the grid.
#[derive(Debug, Clone)]
pub struct LoadedLog {
    /// What the config named.
    pub spec: String,
    /// Where it was found.
    pub path: PathBuf,
    /// The prepared workload.
    pub workload: Workload,
    /// The days used.
    pub days: Vec<DayWindow>,
}

/// A configuration with its logs read: ready to run.
#[derive(Clone)]
pub struct Plan {
    /// The configuration.
    pub config: ExperimentConfig,
    /// The grid by name.
    pub layout: Layout,
    /// The logs, in layout order.
    pub logs: Vec<LoadedLog>,
    /// The heuristics, in layout order.
    pub heuristics: Vec<&'static parallel::HeuristicInfo>,
}

/// The key of a log in cell ids and tables: the catalog's short name for a
/// known log, else the file name without `.gz`/`.swf`, with characters other
/// than ASCII letters, digits, `.` and `-` replaced by `-`.
pub fn log_key(spec: &str) -> String {
    if let Some(k) = catalog::find(spec) {
        return k.short.to_string();
    }
    let file = Path::new(spec)
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or(spec);
    let stem = file.strip_suffix(".gz").unwrap_or(file);
    let stem = stem.strip_suffix(".swf").unwrap_or(stem);
    stem.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

impl Plan {
    /// Resolves and reads the logs of `config` (in parallel), picks their
    /// days and lays out the grid.
    ///
    /// # Errors
    /// Unknown heuristic or log, unreadable log, a log without usable days,
    /// an explicit date that is not a usable day, two logs with one key.
    pub fn new(config: &ExperimentConfig) -> Result<Plan, ExperimentError> {
        let heuristics = config.heuristic_infos()?;
        let mut keys: Vec<(String, String)> = Vec::new();
        for spec in &config.logs {
            let key = log_key(spec);
            if let Some((other, _)) = keys.iter().find(|(_, k)| *k == key) {
                return Err(ExperimentError::DuplicateLog(
                    other.clone(),
                    spec.clone(),
                    key,
                ));
            }
            keys.push((spec.clone(), key));
        }
        let paths: Vec<PathBuf> = config
            .logs
            .iter()
            .map(|l| catalog::resolve(l))
            .collect::<Result<_, _>>()?;
        let workloads: Vec<Workload> = paths
            .par_iter()
            .map(|p| Workload::from_path(p, &ReadOptions::default()))
            .collect::<Result<_, _>>()?;
        let mut logs = Vec::new();
        let mut layouts = Vec::new();
        for (((spec, key), path), w) in keys.into_iter().zip(paths).zip(workloads) {
            if w.candidates.is_empty() {
                return Err(ExperimentError::NoDays { log: key });
            }
            let days: Vec<DayWindow> = match &config.dates {
                Some(dates) => {
                    let mut out: Vec<DayWindow> = Vec::new();
                    for d in dates {
                        let day = w.day_by_date(d).ok_or_else(|| ExperimentError::Day {
                            log: key.clone(),
                            date: d.clone(),
                            first: w.candidates[0].date.clone(),
                            last: w.candidates[w.candidates.len() - 1].date.clone(),
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
            layouts.push(LogLayout {
                key,
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
            });
            logs.push(LoadedLog {
                spec,
                path,
                workload: w,
                days,
            });
        }
        let layout = Layout {
            logs: layouts,
            variants: config.variant_list(),
            heuristics: heuristics.iter().map(|h| h.name.to_string()).collect(),
        };
        Ok(Plan {
            config: config.clone(),
            layout,
            logs,
            heuristics,
        })
    }

    /// Logs that have fewer candidate days than the config asks for, as
    /// notes to print ("kth-sp2: 12 candidate days, all used (48 asked)").
    pub fn notes(&self) -> Vec<String> {
        if self.config.dates.is_some() {
            return Vec::new();
        }
        let asked = self.config.day_count();
        self.layout
            .logs
            .iter()
            .filter(|l| l.candidate_days < asked)
            .map(|l| {
                format!(
                    "{}: only {} candidate days, all used ({} asked)",
                    l.key, l.candidate_days, asked
                )
            })
            .collect()
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

/// Options of a run.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
    /// Run only this shard.
    pub shard: Option<Shard>,
    /// Skip the invariant checker (it is on by default).
    pub no_check: bool,
}

/// Progress of a run, for the caller's progress bar.
#[derive(Debug)]
pub enum CellEvent<'a> {
    /// A cell finished and was written.
    Done {
        /// The cell id.
        id: &'a str,
    },
    /// A cell broke schedule invariants; it was written to `failed/`.
    Failed {
        /// The cell id.
        id: &'a str,
        /// What broke.
        violations: &'a [Violation],
    },
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct RunReport {
    /// Cells of the grid.
    pub total: usize,
    /// Cells in the shard (all when no shard).
    pub selected: usize,
    /// Selected cells already on disk, skipped.
    pub skipped: usize,
    /// Cells run and written.
    pub ran: usize,
    /// Ids of cells that broke invariants.
    pub failed: Vec<String>,
}

/// The cell directory of an output directory.
pub fn cells_dir(out: &Path) -> PathBuf {
    out.join("cells")
}

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so readers see the old file or the whole new one.
///
/// # Errors
/// [`ExperimentError::Io`] naming the file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), ExperimentError> {
    let name = path.file_name().and_then(|f| f.to_str()).unwrap_or("out");
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(ExperimentError::io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(ExperimentError::io(path))
}

/// The cells of the grid (or shard) that are not on disk yet in `out`, and
/// the count of selected cells.
pub fn pending(layout: &Layout, out: &Path, shard: Option<Shard>) -> (Vec<CellSpec>, usize) {
    let dir = cells_dir(out);
    let selected: Vec<CellSpec> = layout
        .cells()
        .into_iter()
        .filter(|c| shard.is_none_or(|s| s.contains(c.index)))
        .collect();
    let n = selected.len();
    let pending = selected
        .into_iter()
        .filter(|c| !dir.join(format!("{}.json", c.id)).is_file())
        .collect();
    (pending, n)
}

/// Runs the pending cells of `plan` (or of one shard) into `out`, calling
/// `progress` after each cell. Call it inside a rayon pool to bound the
/// threads. Does not write the manifest (the caller does).
///
/// # Errors
/// A scenario that cannot be generated, an unwritable output directory.
/// Invariant violations are not errors here: they are in the report.
pub fn run(
    plan: &Plan,
    out: &Path,
    opts: &RunOptions,
    progress: &(dyn Fn(CellEvent<'_>) + Sync),
) -> Result<RunReport, ExperimentError> {
    let layout = &plan.layout;
    let dir = cells_dir(out);
    std::fs::create_dir_all(&dir).map_err(ExperimentError::io(&dir))?;
    let (todo, selected) = pending(layout, out, opts.shard);
    let mut report = RunReport {
        total: layout.cell_count(),
        selected,
        skipped: selected - todo.len(),
        ..RunReport::default()
    };
    // Group by scenario (consecutive cells: heuristics are innermost).
    let mut groups: Vec<Vec<&CellSpec>> = Vec::new();
    for c in &todo {
        match groups.last_mut() {
            Some(g) if g[0].log == c.log && g[0].variant == c.variant && g[0].day == c.day => {
                g.push(c)
            }
            _ => groups.push(vec![c]),
        }
    }
    let failed: Mutex<Vec<String>> = Mutex::new(Vec::new());
    groups
        .par_iter()
        .try_for_each(|group| -> Result<(), ExperimentError> {
            let first = group[0];
            let log = &plan.logs[first.log];
            let day = &log.days[first.day];
            let dl = &layout.logs[first.log].days[first.day];
            let variant = layout.variants[first.variant];
            let scenario = Scenario::build(
                &log.workload,
                day,
                variant.params(plan.config.cores_base),
                plan.config.seed,
            )
            .map_err(|source| ExperimentError::Scenario {
                log: layout.logs[first.log].key.clone(),
                date: day.date.clone(),
                source,
            })?;
            if scenario.seed != dl.scenario_seed {
                return Err(ExperimentError::SeedDrift {
                    log: layout.logs[first.log].key.clone(),
                    date: day.date.clone(),
                    expected: dl.scenario_seed,
                    got: scenario.seed,
                });
            }
            group
                .par_iter()
                .try_for_each(|cell| -> Result<(), ExperimentError> {
                    let h = plan.heuristics[cell.heuristic];
                    let mut heuristic = h.build(&scenario);
                    let run = simulate(&scenario, heuristic.as_mut());
                    if !opts.no_check {
                        let v = invariants::check(&scenario, &run);
                        if !v.is_empty() {
                            let text: String = v.iter().map(|x| format!("{x}\n")).collect();
                            let fdir = out.join("failed");
                            std::fs::create_dir_all(&fdir).map_err(ExperimentError::io(&fdir))?;
                            write_atomically(
                                &fdir.join(format!("{}.txt", cell.id)),
                                text.as_bytes(),
                            )?;
                            failed
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push(cell.id.clone());
                            progress(CellEvent::Failed {
                                id: &cell.id,
                                violations: &v,
                            });
                            return Ok(());
                        }
                    }
                    let result = cell_result(plan, cell, &scenario, &run);
                    let path = dir.join(format!("{}.json", cell.id));
                    let bytes =
                        serde_json::to_vec(&result).map_err(|source| ExperimentError::Json {
                            path: path.clone(),
                            source,
                        })?;
                    write_atomically(&path, &bytes)?;
                    let stale = out.join("failed").join(format!("{}.txt", cell.id));
                    if stale.is_file() {
                        std::fs::remove_file(&stale).map_err(ExperimentError::io(&stale))?;
                    }
                    progress(CellEvent::Done { id: &cell.id });
                    Ok(())
                })
        })?;
    let mut failed = failed.into_inner().unwrap_or_else(|e| e.into_inner());
    failed.sort();
    report.ran = todo.len() - failed.len();
    report.failed = failed;
    Ok(report)
}

fn cell_result(plan: &Plan, cell: &CellSpec, scenario: &Scenario, run: &RunResult) -> CellResult {
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

/// Cells of `layout` found in the `cells/` directories of `dirs` (the first
/// directory holding a cell wins), in cell order, and the ids of the cells
/// found nowhere.
///
/// # Errors
/// A cell file that does not parse, or whose contents do not match its name.
pub fn load_cells(
    layout: &Layout,
    dirs: &[PathBuf],
) -> Result<(Vec<CellResult>, Vec<String>), ExperimentError> {
    let cells = layout.cells();
    let found: Vec<Result<Option<CellResult>, ExperimentError>> = cells
        .par_iter()
        .map(|c| {
            for d in dirs {
                let path = cells_dir(d).join(format!("{}.json", c.id));
                let bytes = match std::fs::read(&path) {
                    Ok(b) => b,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(ExperimentError::Io { path, source: e }),
                };
                let r: CellResult =
                    serde_json::from_slice(&bytes).map_err(|source| ExperimentError::Json {
                        path: path.clone(),
                        source,
                    })?;
                if r.id != c.id {
                    return Err(ExperimentError::Mismatch {
                        dir: path,
                        what: format!("the file holds cell `{}`", r.id),
                    });
                }
                return Ok(Some(CellResult {
                    index: c.index,
                    ..r
                }));
            }
            Ok(None)
        })
        .collect();
    let mut present = Vec::new();
    let mut missing = Vec::new();
    for (c, r) in cells.iter().zip(found) {
        match r? {
            Some(x) => present.push(x),
            None => missing.push(c.id.clone()),
        }
    }
    Ok((present, missing))
}
