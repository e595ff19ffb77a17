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

use super::{Heuristic, MappingEvent};
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

    fn best_choice(
        &self,
        ev: &MappingEvent<'_>,
        task: usize,
        slots: &[Option<Slot>],
    ) -> Option<Choice> {
        let t = &ev.tasks()[task];
        let mut best: Option<Choice> = None;
        for (j, slot) in slots.iter().enumerate() {
            let Some(s) = slot else { continue };
            let completion = s.start + t.etc[j];
            let value = t.value.value_at(completion);
            if value <= 0.0 {
                continue;
            }
            let objective = match self.objective {
                Objective::Value => value,
                Objective::ValuePerResource => value / t.resources_on(ev.system(), j),
            };
            let better = match best {
                None => true,
                Some(b) => {
                    objective > b.objective
                        || (objective == b.objective && completion < b.completion)
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
}

impl Heuristic for MinMin {
    fn map(&mut self, ev: &mut MappingEvent<'_>) {
        let tasks: Vec<usize> = ev.mappable().to_vec();
        let nc = ev.system().clusters.len();
        let m = tasks.len();
        let mut slots: Vec<Option<Slot>> = Vec::with_capacity(m * nc);
        for &t in &tasks {
            for j in 0..nc {
                slots.push(ev.earliest_slot(t, j));
            }
        }
        let mut choice: Vec<Option<Choice>> = (0..m)
            .map(|p| self.best_choice(ev, tasks[p], &slots[p * nc..(p + 1) * nc]))
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
                match self.mode {
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
            let mut dead = Vec::new();
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
                let moved = fresh.map(|f| f.start) != Some(s.start);
                slots[q * nc + j] = fresh;
                if moved {
                    choice[q] = self.best_choice(ev, tasks[q], &slots[q * nc..(q + 1) * nc]);
                    if choice[q].is_none() {
                        dead.push(ai);
                    }
                }
            }
            for ai in dead.into_iter().rev() {
                alive.remove(ai);
            }
        }
    }
}
