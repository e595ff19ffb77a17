//! Maximum Value and Maximum Value-per-Resource, with reservations or with
//! place-holders (Khemka et al. 2015, "soft and hard deadlines", §IV.C–D;
//! docs/parallel.md). One Min-Min loop, given an objective and a placement mode.
//!
//! Phase 1: for each mappable task, the cluster whose earliest slot gives the
//! highest objective at completion (ties to the earliest completion, then the
//! lower cluster index). Because value never increases with completion time,
//! the earliest slot is the best slot on each cluster. Phase 2: the task
//! whose choice has the highest objective (ties to the earlier arrival, then
//! the lower job number) gets it: started now, or else reserved
//! ([`Mode::Reserve`]) or place-held for the rest of the event
//! ([`Mode::PlaceHolder`]). Repeat until every task is placed or its best
//! choice earns nothing (it is left unmapped).
//!
//! Slots are cached per (task, cluster). A placement on cluster j only
//! changes slots on j, and not even those whose window does not overlap the
//! placement in time, or that still have enough idle nodes after losing the
//! placed ones; only the rest are searched again.

use super::engine::{Heuristic, MappingEvent};
use crate::sim::timeline::Slot;

/// What Min-Min maximises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Objective {
    /// Value at completion (value units).
    Value,
    /// Value at completion / (ETC · NC) (value units per core-second).
    ValuePerResource,
}

/// What a slot that does not start now becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A reservation: the task is committed to it.
    Reserve,
    /// A place-holder: it blocks the slot for this event only.
    PlaceHolder,
}

/// The Min-Min heuristic family.
#[derive(Debug, Clone)]
pub struct MinMin {
    objective: Objective,
    mode: Mode,
}

/// One choice Min-Min weighs at a mapping event: a task on a cluster in the
/// earliest slot there, with the value it would earn (> 0: choices that
/// earn nothing are never weighed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// The task, an index into [`MappingEvent::tasks`].
    pub task: usize,
    /// The cluster, an index into the system's clusters.
    pub cluster: usize,
    /// The slot's start, s.
    pub start: f64,
    /// Start + the task's ETC on the cluster, s.
    pub completion: f64,
    /// The task's value at `completion` (value units, > 0).
    pub value: f64,
    /// ETC · NC on the cluster (core-seconds charged).
    pub resources: f64,
}

/// Where the objectives of Min-Min's candidates come from: the built-in
/// ones ([`Objective`]) or a function given from outside (the Python
/// package's `MinMinPolicy`), asked once per mapping event for every
/// candidate and again, after each placement, for the candidates whose
/// slot moved.
pub trait Objectives {
    /// One objective per candidate, in order (higher is better; −∞: never
    /// chosen).
    ///
    /// # Errors
    /// A message saying what went wrong; it stops the replay.
    fn objectives(
        &mut self,
        ev: &MappingEvent<'_>,
        candidates: &[Candidate],
    ) -> Result<Vec<f64>, String>;

    /// A built-in objective, computed in the loop without gathering the
    /// candidates first (the built-in heuristics' speed).
    fn built_in(&self) -> Option<Objective> {
        None
    }
}

impl Objectives for Objective {
    fn objectives(
        &mut self,
        _: &MappingEvent<'_>,
        candidates: &[Candidate],
    ) -> Result<Vec<f64>, String> {
        Ok(candidates
            .iter()
            .map(|c| built_in_objective(*self, c))
            .collect())
    }

    fn built_in(&self) -> Option<Objective> {
        Some(*self)
    }
}

/// The objective of candidate `c` under a built-in objective.
fn built_in_objective(o: Objective, c: &Candidate) -> f64 {
    match o {
        Objective::Value => c.value,
        Objective::ValuePerResource => c.value / c.resources,
    }
}

#[derive(Debug, Clone, Copy)]
struct Choice {
    objective: f64,
    completion: f64,
    cluster: usize,
    start: f64,
}

impl MinMin {
    /// A Min-Min heuristic maximising `objective`, placing in `mode`.
    pub fn new(objective: Objective, mode: Mode) -> Self {
        MinMin { objective, mode }
    }
}

impl Heuristic for MinMin {
    fn map(&mut self, ev: &mut MappingEvent<'_>) {
        let mode = self.mode;
        // The built-in objectives never fail.
        let _ = min_min(ev, mode, &mut self.objective);
    }
}

/// The candidate of `task` on cluster `j` in `slot`, if it earns anything.
fn candidate(
    ev: &MappingEvent<'_>,
    task: usize,
    j: usize,
    slot: Option<Slot>,
) -> Option<Candidate> {
    let s = slot?;
    let t = &ev.tasks()[task];
    let completion = s.start + t.etc[j];
    let value = t.value.value_at(completion);
    (value > 0.0).then(|| Candidate {
        task,
        cluster: j,
        start: s.start,
        completion,
        value,
        resources: t.resources_on(ev.system(), j),
    })
}

/// The best choice of task `p` (position `p` of `tasks`) from its cached
/// slots and objectives: the highest objective (not −∞: no candidate, or
/// never to be chosen), ties to the earliest completion, then the lower
/// cluster.
fn best_choice(
    ev: &MappingEvent<'_>,
    task: usize,
    slots: &[Option<Slot>],
    objectives: &[f64],
) -> Option<Choice> {
    let t = &ev.tasks()[task];
    let mut best: Option<Choice> = None;
    for (j, (slot, &objective)) in slots.iter().zip(objectives).enumerate() {
        let Some(s) = slot else { continue };
        if objective == f64::NEG_INFINITY {
            continue;
        }
        let completion = s.start + t.etc[j];
        let better = match best {
            None => true,
            Some(b) => {
                objective > b.objective || (objective == b.objective && completion < b.completion)
            }
        };
        if better {
            best = Some(Choice {
                objective,
                completion,
                cluster: j,
                start: s.start,
            });
        }
    }
    best
}

/// Asks `source` for the objectives of `cands`, refusing a wrong count or
/// a NaN.
fn weigh<O: Objectives + ?Sized>(
    ev: &MappingEvent<'_>,
    source: &mut O,
    cands: &[Candidate],
) -> Result<Vec<f64>, String> {
    if cands.is_empty() {
        return Ok(Vec::new());
    }
    let w = source.objectives(ev, cands)?;
    if w.len() != cands.len() {
        return Err(format!(
            "{} objectives for {} candidates; give one per candidate, in order",
            w.len(),
            cands.len()
        ));
    }
    if let Some(k) = w.iter().position(|x| x.is_nan()) {
        let c = cands[k];
        return Err(format!(
            "the objective of job {} on cluster {} (candidate {k}) is NaN; objectives must be numbers (−inf: never chosen)",
            ev.tasks()[c.task].job_number,
            c.cluster
        ));
    }
    Ok(w)
}

/// The Min-Min loop of one mapping event with the objectives of `source`,
/// placing in `mode` (module docs).
///
/// # Errors
/// The first error of `source` (or a wrong count, a NaN); the event stops
/// there, what was placed stays placed.
pub fn min_min<O: Objectives + ?Sized>(
    ev: &mut MappingEvent<'_>,
    mode: Mode,
    source: &mut O,
) -> Result<(), String> {
    let tasks: Vec<usize> = ev.mappable().to_vec();
    let nc = ev.system().clusters.len();
    let m = tasks.len();
    let mut slots: Vec<Option<Slot>> = Vec::with_capacity(m * nc);
    for &t in &tasks {
        for j in 0..nc {
            slots.push(ev.earliest_slot(t, j));
        }
    }
    // Every candidate of the event, weighed at once; the objective of each
    // (task, cluster) kept beside its slot (−∞: no candidate).
    let mut objectives = vec![f64::NEG_INFINITY; m * nc];
    let inline = source.built_in();
    let mut at: Vec<usize> = Vec::new();
    let mut all: Vec<Candidate> = Vec::new();
    for p in 0..m {
        for j in 0..nc {
            if let Some(c) = candidate(ev, tasks[p], j, slots[p * nc + j]) {
                match inline {
                    Some(o) => objectives[p * nc + j] = built_in_objective(o, &c),
                    None => {
                        at.push(p * nc + j);
                        all.push(c);
                    }
                }
            }
        }
    }
    for (k, w) in at.into_iter().zip(weigh(ev, source, &all)?) {
        objectives[k] = w;
    }
    let mut choice: Vec<Option<Choice>> = (0..m)
        .map(|p| {
            let r = p * nc..(p + 1) * nc;
            best_choice(ev, tasks[p], &slots[r.clone()], &objectives[r])
        })
        .collect();
    let mut alive: Vec<usize> = (0..m).filter(|&p| choice[p].is_some()).collect();
    while !alive.is_empty() {
        // Phase 2: the highest objective; ties keep the earlier position
        // (arrival order, then job number).
        let mut best_i = 0;
        for i in 1..alive.len() {
            let a = choice[alive[i]].map_or(f64::NEG_INFINITY, |c| c.objective);
            let b = choice[alive[best_i]].map_or(f64::NEG_INFINITY, |c| c.objective);
            if a > b {
                best_i = i;
            }
        }
        let p = alive.remove(best_i);
        let Some(c) = choice[p] else { continue };
        let task = tasks[p];
        let placed = if c.start == ev.now() {
            ev.start(task, c.cluster)
        } else {
            match mode {
                Mode::Reserve => ev.reserve(task, c.cluster, c.start),
                Mode::PlaceHolder => ev.place_holder(task, c.cluster, c.start),
            }
        };
        let Ok(nodes) = placed else { continue };
        // Refresh the slots on the cluster that changed.
        let j = c.cluster;
        let (s0, e0) = (c.start, c.completion);
        let n0 = nodes.len();
        let cluster = ev.system().clusters[j];
        // (position in `alive`, task position) of the slots that moved.
        let mut moved: Vec<(usize, usize)> = Vec::new();
        for (ai, &q) in alive.iter().enumerate() {
            let Some(s) = slots[q * nc + j] else { continue };
            let tq = &ev.tasks()[tasks[q]];
            let need = cluster.nodes_for(tq.cores);
            let end = s.start + tq.etc[j];
            if end <= s0 || e0 <= s.start {
                continue;
            }
            if s.idle_nodes >= n0 + need {
                slots[q * nc + j] = Some(Slot {
                    start: s.start,
                    idle_nodes: s.idle_nodes - n0,
                });
                continue;
            }
            let fresh = ev.earliest_slot(tasks[q], j);
            let changed = fresh.map(|f| f.start) != Some(s.start);
            slots[q * nc + j] = fresh;
            if changed {
                moved.push((ai, q));
            }
        }
        // The moved candidates, weighed together; the others keep theirs.
        let mut fresh: Vec<Candidate> = Vec::new();
        let mut owners: Vec<usize> = Vec::new();
        for &(_, q) in &moved {
            objectives[q * nc + j] = f64::NEG_INFINITY;
            if let Some(c) = candidate(ev, tasks[q], j, slots[q * nc + j]) {
                match inline {
                    Some(o) => objectives[q * nc + j] = built_in_objective(o, &c),
                    None => {
                        fresh.push(c);
                        owners.push(q);
                    }
                }
            }
        }
        for (q, w) in owners.into_iter().zip(weigh(ev, source, &fresh)?) {
            objectives[q * nc + j] = w;
        }
        for &(ai, q) in moved.iter().rev() {
            let r = q * nc..(q + 1) * nc;
            choice[q] = best_choice(ev, tasks[q], &slots[r.clone()], &objectives[r]);
            if choice[q].is_none() {
                alive.remove(ai);
            }
        }
    }
    Ok(())
}
