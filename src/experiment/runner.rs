//! The grid runner: plans the cells of a configuration, runs the pending ones
//! in parallel (rayon), and writes each finished cell at once to
//! `<out>/cells/<cell-id>.json` (through a temporary file and a rename, so an
//! interrupted run never leaves half a cell). A re-run skips the cells whose
//! file exists.
//!
//! Cell order (fixed): log (config order), variant
//! ([`crate::experiment::grid::Grid::variants`]), day (time order), heuristic (config
//! order); cell `k` is the k-th, from 0. A shard `i/N` runs whole
//! scenarios (log, variant, day), each with all its heuristics, dealt
//! longest first ([`Shard::deal`]): each scenario, in order of falling
//! estimated cost ([`Grid::scenario_cost`]: a day's usable jobs in
//! environment A, 1 elsewhere), goes to the shard with the least estimated
//! load so far (on `khemka2015-parallel` with 16 shards the heuristic time
//! per shard spread 5.6–13.7 s when cell k went to shard k mod N). `i` is
//! taken mod N, so both Slurm conventions work:
//! `--array=0-15` with `--shard $SLURM_ARRAY_TASK_ID/16` and `--array=1-16`
//! with the same argument (16/16 is shard 0).
//!
//! Each scenario (log, variant, day) is generated once per run and shared by
//! its heuristics. Every run goes through the schedule invariant checker; a
//! cell that breaks an invariant is not written to `cells/` (so a re-run
//! tries it again) but to `<out>/failed/<cell-id>.txt`, and is reported.
//!
//! The runner knows no environment: it is generic over [`Grid`], which says
//! how an environment lays out a log, builds the scenario of a cell, what a
//! cell file holds and which tables, Markdown and figures the cells give
//! (environment A: `experiment::parallel`; D: `experiment::classic`).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;

use rayon::prelude::*;

use super::ExperimentError;
pub use super::grid::{CellSpec, DayLayout, Layout, LogLayout, Plan};
use super::grid::{Grid, GridCell};
use crate::contract::Simulated;

/// A shard `i/N` of the cell list (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// i, as given (0 ≤ i ≤ N).
    pub index: usize,
    /// N ≥ 1.
    pub count: usize,
}

impl Shard {
    /// The shard (0..`count`) of every scenario of a grid whose estimated
    /// costs are `costs` (in scenario order): longest first, each to the
    /// shard with the least estimated load (the lowest shard on ties); the
    /// same costs always give the same deal.
    pub fn deal(count: usize, costs: &[f64]) -> Vec<usize> {
        // Shards beyond the number of scenarios never get one: the same
        // deal without a load per empty shard (`--shard 0/10^12` is cheap).
        let count = count.max(1).min(costs.len().max(1));
        let mut order: Vec<usize> = (0..costs.len()).collect();
        order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
        let mut load = vec![0.0f64; count];
        let mut shard = vec![0; costs.len()];
        for g in order {
            let least = (0..count)
                .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
                .unwrap_or(0);
            load[least] += costs[g].max(0.0);
            shard[g] = least;
        }
        shard
    }

    /// Whether this shard runs scenario `g`, given the deal of its grid.
    pub fn runs(&self, dealt: &[usize], g: usize) -> bool {
        dealt.get(g).copied().unwrap_or(0) == self.index % self.count
    }
}

/// The estimated cost of every scenario of `plan`, in scenario order (log,
/// variant, day), for [`Shard::deal`].
pub fn scenario_costs<E: Grid>(plan: &Plan<E>) -> Vec<f64> {
    let layout = &plan.layout;
    let mut costs = Vec::new();
    for (li, log) in layout.logs.iter().enumerate() {
        for _ in 0..layout.variant_count() {
            for di in 0..log.days.len() {
                costs.push(E::scenario_cost(plan, li, di));
            }
        }
    }
    costs
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
    /// A cell failed (it broke schedule invariants, or its run panicked);
    /// its record was written to `failed/<id>.txt`.
    Failed {
        /// The cell id.
        id: &'a str,
        /// What went wrong, one sentence each.
        errors: &'a [String],
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
    /// Ids of the cells that failed, each with its first error, sorted.
    pub failed: Vec<(String, String)>,
    /// Whether an interrupt stopped the run before every selected cell ran
    /// (the cells not run are left for the next run).
    pub interrupted: bool,
}

/// A cell file found corrupt, moved aside, to be run again.
#[derive(Debug, Clone, PartialEq)]
pub struct Corrupt {
    /// The cell id.
    pub id: String,
    /// Where the file was moved (`<out>/corrupt/<id>.json`).
    pub moved_to: PathBuf,
    /// What is wrong with it (the JSON error, or the cell it holds instead).
    pub reason: String,
}

/// The cell directory of an output directory.
pub fn cells_dir(out: &Path) -> PathBuf {
    out.join("cells")
}

/// Reads the cell file `path` of cell `id`.
///
/// # Errors
/// [`ExperimentError::Io`] when it cannot be read (`Ok(None)` when it does
/// not exist), [`ExperimentError::CorruptCell`] when it does not parse (a
/// truncated or damaged file) or holds another cell.
fn read_cell<E: Grid>(path: &Path, id: &str) -> Result<Option<E::Cell>, ExperimentError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ExperimentError::Io {
                path: path.to_path_buf(),
                source: e,
            });
        }
    };
    let corrupt = |reason: String| ExperimentError::CorruptCell {
        path: path.to_path_buf(),
        reason,
    };
    let cell: E::Cell = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
    if cell.id() != id {
        return Err(corrupt(format!(
            "it holds cell `{}`, not `{id}`",
            cell.id()
        )));
    }
    Ok(Some(cell))
}

/// Checks every cell file of `plan`'s grid in `out` and moves each that
/// does not parse or holds another cell to `<out>/corrupt/<id>.json` (so
/// it is never aggregated, and [`pending`] runs the cell again), returning
/// what it moved. Files of a run that died are never half written (cells
/// are written through a rename), but a full disk, a partial copy or a
/// hand edit can leave one.
///
/// # Errors
/// [`ExperimentError::Io`] for a file that cannot be read or moved.
pub fn quarantine_corrupt<E: Grid>(
    plan: &Plan<E>,
    out: &Path,
) -> Result<Vec<Corrupt>, ExperimentError> {
    let dir = cells_dir(out);
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let cells = plan.layout.cells();
    let found: Vec<Result<Option<Corrupt>, ExperimentError>> = cells
        .par_iter()
        .map(|c| {
            let path = dir.join(format!("{}.json", c.id));
            match read_cell::<E>(&path, &c.id) {
                Ok(_) => Ok(None),
                Err(ExperimentError::CorruptCell { reason, .. }) => {
                    let aside = out.join("corrupt");
                    std::fs::create_dir_all(&aside).map_err(ExperimentError::io(&aside))?;
                    let moved_to = aside.join(format!("{}.json", c.id));
                    std::fs::rename(&path, &moved_to).map_err(ExperimentError::io(&path))?;
                    Ok(Some(Corrupt {
                        id: c.id.clone(),
                        moved_to,
                        reason,
                    }))
                }
                Err(e) => Err(e),
            }
        })
        .collect();
    let mut moved = Vec::new();
    for f in found {
        if let Some(c) = f? {
            moved.push(c);
        }
    }
    Ok(moved)
}

/// `scenario`, once its seed is the one the layout recorded for `cell`'s
/// scenario (the runner's and the generator's derivations of it agree).
///
/// # Errors
/// [`ExperimentError::SeedDrift`] naming the log and scenario.
fn checked_seed<E: Grid>(
    plan: &Plan<E>,
    cell: &CellSpec,
    scenario: E::Scenario,
) -> Result<E::Scenario, ExperimentError> {
    let log = &plan.layout.logs[cell.log];
    let dl = &log.days[cell.day];
    match crate::workload::seeds::Seeded::scenario_seed(&scenario) {
        Some(got) if got != dl.scenario_seed => Err(ExperimentError::SeedDrift {
            log: log.key.clone(),
            date: dl.date.clone(),
            expected: dl.scenario_seed,
            got,
        }),
        _ => Ok(scenario),
    }
}

/// The inputs of a cell, for its failure record: what it takes to run it
/// again alone.
fn cell_inputs<E: Grid>(plan: &Plan<E>, cell: &CellSpec) -> String {
    let layout = &plan.layout;
    let log = &layout.logs[cell.log];
    let day = &log.days[cell.day];
    format!(
        "cell {id}\nlog {key} ({file})\nvariant {variant}\nscenario {date} (scenario seed {seed})\nheuristic {h}\nswftool {version}\n",
        id = cell.id,
        key = log.key,
        file = log.file,
        variant = layout.variant_id(cell.variant),
        date = day.date,
        seed = day.scenario_seed,
        h = layout.heuristics[cell.heuristic],
        version = env!("CARGO_PKG_VERSION"),
    )
}

/// Environment variable naming cells (comma-separated ids) whose run
/// panics on purpose: how the tests check that a failing cell is recorded
/// with its inputs and the rest of the grid goes on. Unset in normal use.
pub const INJECT_PANIC_VAR: &str = "SWFTOOL_INJECT_PANIC";

fn injected_panic(id: &str) -> bool {
    static IDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    IDS.get_or_init(|| {
        std::env::var(INJECT_PANIC_VAR)
            .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
            .unwrap_or_default()
    })
    .iter()
    .any(|x| x == id)
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// The cells of the grid of `plan` (or of its shard) that are not on disk
/// yet in `out`, and the count of selected cells.
pub fn pending<E: Grid>(
    plan: &Plan<E>,
    out: &Path,
    shard: Option<Shard>,
) -> (Vec<CellSpec>, usize) {
    let layout = &plan.layout;
    let dir = cells_dir(out);
    let dealt = shard.map_or_else(Vec::new, |s| Shard::deal(s.count, &scenario_costs(plan)));
    let per_scenario = layout.heuristics.len().max(1);
    let selected: Vec<CellSpec> = layout
        .cells()
        .into_iter()
        .filter(|c| shard.is_none_or(|s| s.runs(&dealt, c.index / per_scenario)))
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
pub fn run<E: Grid>(
    plan: &Plan<E>,
    out: &Path,
    opts: &RunOptions,
    progress: &(dyn Fn(CellEvent<'_>) + Sync),
) -> Result<RunReport, ExperimentError> {
    let layout = &plan.layout;
    let dir = cells_dir(out);
    std::fs::create_dir_all(&dir).map_err(ExperimentError::io(&dir))?;
    let (todo, selected) = pending(plan, out, opts.shard);
    let mut report = RunReport {
        total: layout.cell_count(),
        selected,
        skipped: selected - todo.len(),
        ..RunReport::default()
    };
    let ran = std::sync::atomic::AtomicUsize::new(0);
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
    let failed: Mutex<Vec<(String, String)>> = Mutex::new(Vec::new());
    // A failed cell is recorded with its inputs in failed/<id>.txt (not in
    // cells/, so a re-run tries it again) and reported; the grid goes on.
    let fail = |cell: &CellSpec, errors: Vec<String>| -> Result<(), ExperimentError> {
        let mut text = cell_inputs(plan, cell);
        text.push_str("errors:\n");
        for e in &errors {
            text.push_str(&format!("  {e}\n"));
        }
        let fdir = out.join("failed");
        std::fs::create_dir_all(&fdir).map_err(ExperimentError::io(&fdir))?;
        let path = fdir.join(format!("{}.txt", cell.id));
        crate::atomic::write(&path, text.as_bytes()).map_err(ExperimentError::io(&path))?;
        let first = errors.first().cloned().unwrap_or_default();
        failed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((cell.id.clone(), first));
        progress(CellEvent::Failed {
            id: &cell.id,
            errors: &errors,
        });
        Ok(())
    };
    groups
        .par_iter()
        .try_for_each(|group| -> Result<(), ExperimentError> {
            // An interrupt: no new scenario starts (crate::interrupt).
            if crate::interrupt::requested() {
                return Ok(());
            }
            let first = group[0];
            let scenario = match catch_unwind(AssertUnwindSafe(|| E::scenario(plan, first))) {
                Ok(s) => checked_seed::<E>(plan, first, s?)?,
                Err(p) => {
                    let msg = format!("generating the scenario panicked: {}", panic_message(&*p));
                    for cell in group {
                        fail(cell, vec![msg.clone()])?;
                    }
                    return Ok(());
                }
            };
            group
                .par_iter()
                .try_for_each(|cell| -> Result<(), ExperimentError> {
                    if crate::interrupt::requested() {
                        return Ok(());
                    }
                    let h = &plan.heuristics[cell.heuristic];
                    let outcome = catch_unwind(AssertUnwindSafe(|| {
                        if injected_panic(&cell.id) {
                            panic!("injected by {INJECT_PANIC_VAR} (a test of failure handling)");
                        }
                        let run = E::simulate(&scenario, h);
                        let violations = if opts.no_check {
                            Vec::new()
                        } else {
                            E::check(&scenario, &run)
                        };
                        if violations.is_empty() {
                            let sim = Simulated {
                                prepared: &plan.prepared[cell.log],
                                args: &plan.args,
                                scenario: &scenario,
                                heuristic: h,
                                run: &run,
                            };
                            let series = E::CELL_SERIES.then(|| {
                                use crate::metrics::series::{CellSeries, GRID_STEP, series};
                                let occ = E::record(sim, false).occupancy();
                                CellSeries::of(&series(&occ, GRID_STEP), GRID_STEP)
                            });
                            Ok((E::cell(plan, cell, sim), series))
                        } else {
                            Err(violations.iter().map(|v| v.to_string()).collect())
                        }
                    }));
                    let result = match outcome {
                        Ok(Ok(result)) => result,
                        Ok(Err(violations)) => return fail(cell, violations),
                        Err(p) => {
                            return fail(
                                cell,
                                vec![format!("the run panicked: {}", panic_message(&*p))],
                            );
                        }
                    };
                    let path = dir.join(format!("{}.json", cell.id));
                    let json = |source| ExperimentError::Json {
                        path: path.clone(),
                        source,
                    };
                    // The series rides in the cell file as one more key
                    // (`series`), which the environment's cell ignores.
                    let (result, series) = result;
                    let mut value = serde_json::to_value(&result).map_err(json)?;
                    if let (Some(series), Some(object)) = (series, value.as_object_mut()) {
                        object.insert("series".into(), serde_json::to_value(series).map_err(json)?);
                    }
                    let bytes = serde_json::to_vec(&value).map_err(json)?;
                    crate::atomic::write(&path, &bytes).map_err(ExperimentError::io(&path))?;
                    ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
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
    report.ran = ran.into_inner();
    report.interrupted = report.ran + failed.len() < todo.len() && crate::interrupt::requested();
    report.failed = failed;
    Ok(report)
}

/// Cells of `layout` found in the `cells/` directories of `dirs` (the first
/// directory holding a cell wins), in cell order, and the ids of the cells
/// found nowhere.
///
/// # Errors
/// [`ExperimentError::CorruptCell`] for a cell file that does not parse or
/// whose contents do not match its name (never aggregated).
pub fn load_cells<E: Grid>(
    layout: &Layout,
    dirs: &[PathBuf],
) -> Result<(Vec<E::Cell>, Vec<String>), ExperimentError> {
    let cells = layout.cells();
    let found: Vec<Result<Option<E::Cell>, ExperimentError>> = cells
        .par_iter()
        .map(|c| {
            for d in dirs {
                let path = cells_dir(d).join(format!("{}.json", c.id));
                if let Some(mut r) = read_cell::<E>(&path, &c.id)? {
                    r.set_index(c.index);
                    return Ok(Some(r));
                }
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

/// The time series the cell files of `layout` in `dirs` hold (the first
/// directory holding a cell wins), in cell order: each with its cell. A
/// cell without one (environment D, or written by an older swftool) is
/// left out.
///
/// # Errors
/// A cell file that cannot be read or does not parse.
pub fn load_series(
    layout: &Layout,
    dirs: &[PathBuf],
) -> Result<Vec<(CellSpec, crate::metrics::series::CellSeries)>, ExperimentError> {
    #[derive(serde::Deserialize)]
    struct WithSeries {
        series: Option<crate::metrics::series::CellSeries>,
    }
    let cells = layout.cells();
    let found: Vec<Result<Option<crate::metrics::series::CellSeries>, ExperimentError>> = cells
        .par_iter()
        .map(|c| {
            for d in dirs {
                let path = cells_dir(d).join(format!("{}.json", c.id));
                match std::fs::read(&path) {
                    Ok(bytes) => {
                        let w: WithSeries = serde_json::from_slice(&bytes).map_err(|e| {
                            ExperimentError::CorruptCell {
                                path: path.clone(),
                                reason: e.to_string(),
                            }
                        })?;
                        return Ok(w.series);
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(ExperimentError::io(&path)(e)),
                }
            }
            Ok(None)
        })
        .collect();
    let mut out = Vec::new();
    for (c, r) in cells.into_iter().zip(found) {
        if let Some(s) = r? {
            out.push((c, s));
        }
    }
    Ok(out)
}

pub use crate::catalog::log_key;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_are_dealt_longest_first_to_the_least_loaded_shard() {
        // 9 + 1 + 1 + … : the large one alone, the small ones spread evenly.
        let costs = [1.0, 9.0, 1.0, 1.0, 2.0, 2.0, 1.0, 1.0];
        let dealt = Shard::deal(3, &costs);
        assert_eq!(
            dealt,
            Shard::deal(3, &costs),
            "the same costs, the same deal"
        );
        let mut load = [0.0; 3];
        for (g, &s) in dealt.iter().enumerate() {
            load[s] += costs[g];
        }
        // 18 in all: the 9 on one shard, 4.5 ± 0.5 on each of the others.
        assert_eq!(dealt[1], 0);
        assert_eq!(load[0], 9.0);
        assert_eq!(load[1] + load[2], 9.0);
        assert!((load[1] - load[2]).abs() <= 1.0, "{load:?}");
    }

    #[test]
    fn a_huge_shard_count_deals_without_a_load_per_shard() {
        let dealt = Shard::deal(usize::MAX, &[3.0, 1.0, 2.0]);
        assert_eq!(dealt, Shard::deal(3, &[3.0, 1.0, 2.0]));
        let shard: Shard = "1000000000000/1000000000001".parse().unwrap();
        assert!(!(0..3).any(|g| shard.runs(&dealt, g)), "an empty shard");
    }

    #[test]
    fn equal_costs_give_every_shard_as_many_scenarios() {
        let dealt = Shard::deal(4, &[1.0; 10]);
        for s in 0..4 {
            let n = dealt.iter().filter(|&&x| x == s).count();
            assert!(n == 2 || n == 3, "shard {s}: {n}");
        }
        let shard = Shard { index: 4, count: 4 };
        assert!(
            shard.runs(&dealt, 0),
            "4/4 is shard 0, which gets scenario 0"
        );
    }
}
