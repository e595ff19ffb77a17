//! The grid runner: plans the cells of a configuration, runs the pending ones
//! in parallel (rayon), and writes each finished cell at once to
//! `<out>/cells/<cell-id>.json` (through a temporary file and a rename, so an
//! interrupted run never leaves half a cell). A re-run skips the cells whose
//! file exists.
//!
//! Cell order (fixed): log (config order), variant
//! ([`crate::experiment::ExperimentConfig::variant_list`]), day (time order), heuristic (config
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

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;

use rayon::prelude::*;

use super::ExperimentError;
use super::grid::Grid;
pub use super::grid::{CellSpec, DayLayout, Layout, LogLayout, Plan};

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
        let count = count.max(1);
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
    /// A cell broke schedule invariants; it was written to `failed/`.
    Failed {
        /// The cell id.
        id: &'a str,
        /// What broke, one sentence each.
        violations: &'a [String],
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
            let scenario = E::scenario(plan, first)?;
            group
                .par_iter()
                .try_for_each(|cell| -> Result<(), ExperimentError> {
                    let h = &plan.heuristics[cell.heuristic];
                    let run = E::simulate(&scenario, h);
                    if !opts.no_check {
                        let v = E::check(&scenario, &run);
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
                    let result = E::cell(plan, cell, &scenario, h, &run);
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

/// Cells of `layout` found in the `cells/` directories of `dirs` (the first
/// directory holding a cell wins), in cell order, and the ids of the cells
/// found nowhere.
///
/// # Errors
/// A cell file that does not parse, or whose contents do not match its name.
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
                let bytes = match std::fs::read(&path) {
                    Ok(b) => b,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(ExperimentError::Io { path, source: e }),
                };
                let mut r: E::Cell =
                    serde_json::from_slice(&bytes).map_err(|source| ExperimentError::Json {
                        path: path.clone(),
                        source,
                    })?;
                if E::cell_id(&r) != c.id {
                    return Err(ExperimentError::Mismatch {
                        dir: path,
                        what: format!("the file holds cell `{}`", E::cell_id(&r)),
                    });
                }
                E::set_index(&mut r, c.index);
                return Ok(Some(r));
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
