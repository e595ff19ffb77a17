//! The comparison heuristics of environment B (Machovec et al., §III.C):
//! neither looks at utility beyond "earns something" nor at the
//! heterogeneity of the clusters, and neither preempts.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand::RngExt;

use super::engine::{Heuristic, State, objective};
use super::task::{Objective, SerialScenario};
use crate::model::rng::{ChaCha8Rng, stream};

/// Label of the random stream of the `random` heuristic (of the scenario
/// seed).
const RANDOM_STREAM: u64 = 0xB_0001;

/// Whether the next task of group `g` earns if it starts now on cluster `j`.
fn earns(st: &State<'_>, g: usize, j: usize) -> bool {
    let group = &st.groups[g];
    group.ret(st.s, j).is_some_and(|ret| {
        objective(Objective::Util, &group.utility, group.arrival, st.now, ret) > 0.0
    })
}

/// FCFS (§III.C.3): mappable tasks in arrival order (then task index), each
/// on the first idle core, in cluster order, where it earns; a task with no
/// such core is left for a later event.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fcfs;

impl Heuristic for Fcfs {
    fn map(&mut self, st: &mut State<'_>) {
        fcfs(st);
    }
}

fn fcfs(st: &mut State<'_>) {
    if st.idle_total() == 0 {
        return;
    }
    // The groups merged by (arrival, next task): tasks of one group are
    // alike, so when one finds no core, none of them will.
    let mut queue: BinaryHeap<Reverse<(u64, usize, usize)>> = st
        .groups
        .iter()
        .enumerate()
        .filter_map(|(g, group)| {
            group
                .next_task()
                .map(|t| Reverse((group.arrival.to_bits(), t, g)))
        })
        .collect();
    while let Some(Reverse((_, _, g))) = queue.pop() {
        let Some(j) = (0..st.clusters()).find(|&j| st.idle(j) > 0 && earns(st, g, j)) else {
            continue;
        };
        st.start_idle(g, j);
        if st.idle_total() == 0 {
            return;
        }
        let group = &st.groups[g];
        if let Some(t) = group.next_task() {
            queue.push(Reverse((group.arrival.to_bits(), t, g)));
        }
    }
}

/// Random (§III.C.2): mappable tasks in a random order, each on an idle
/// core drawn at random among those where it earns; a task with no such
/// core is left for a later event. The order is drawn one task at a time
/// (uniform over the tasks still unplaced), which is the same distribution
/// as shuffling them all; a core is drawn by cluster, weighted by its idle
/// cores (cores of a cluster are alike; the lowest idle core is used).
/// Its draws come from one stream of the scenario seed, drawn from event to
/// event through the run.
#[derive(Debug)]
pub struct Random {
    rng: ChaCha8Rng,
}

impl Random {
    /// The heuristic for a run of `s`: its stream starts afresh from the
    /// scenario seed [`SerialScenario::seed`].
    pub fn new(s: &SerialScenario) -> Random {
        Random {
            rng: stream(s.seed, RANDOM_STREAM),
        }
    }
}

impl Heuristic for Random {
    fn map(&mut self, st: &mut State<'_>) {
        random(st, &mut self.rng);
    }
}

fn random(st: &mut State<'_>, rng: &mut ChaCha8Rng) {
    let mut open: Vec<usize> = (0..st.groups.len())
        .filter(|&g| !st.groups[g].is_empty())
        .collect();
    while st.idle_total() > 0 && !open.is_empty() {
        let total: usize = open.iter().map(|&g| st.groups[g].len()).sum();
        let mut pick = rng.random_range(0..total);
        let mut at = 0;
        while pick >= st.groups[open[at]].len() {
            pick -= st.groups[open[at]].len();
            at += 1;
        }
        let g = open[at];
        let weights: Vec<usize> = (0..st.clusters())
            .map(|j| if earns(st, g, j) { st.idle(j) } else { 0 })
            .collect();
        let sum: usize = weights.iter().sum();
        if sum == 0 {
            // None of the group's tasks can go anywhere now.
            open.swap_remove(at);
            continue;
        }
        let mut core = rng.random_range(0..sum);
        let mut j = 0;
        while core >= weights[j] {
            core -= weights[j];
            j += 1;
        }
        st.start_idle(g, j);
        if st.groups[g].is_empty() {
            open.swap_remove(at);
        }
    }
}
