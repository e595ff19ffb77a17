//! The phase-2 queue of the Min-Min heuristics of environment B
//! (Machovec et al. 2017, §III.D–E): where a group's best choice goes
//! ([`Target`], [`Choice`]), its place in the queue ([`Queued`]: the
//! highest score first, then the earlier arrival, then the lower task), and
//! a max-heap holding at most one entry per group whose key can be changed
//! in place ([`KeyedHeap`], used by Preempt Pair).

use std::cmp::Ordering;

/// Where a candidate goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Target {
    /// An idle core of this cluster.
    Idle(usize),
    /// A member of this victim class, preempted.
    Victim(usize),
    /// Nowhere at this event: its best pair puts it second (Pair only).
    Wait,
}

/// A group's best choice: the phase-2 score (value units, or value units
/// per second for UPT) and where it goes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Choice {
    pub(super) score: f64,
    pub(super) target: Target,
}

/// A group's place in the phase-2 queue: its best choice's score when it
/// was last evaluated at this event (`exact`), or an upper bound on it; its
/// arrival (s) and next task (the tie-breaks). Entries compare by key only
/// (score, arrival, task): two groups never share a next task, so two
/// entries of different groups are never equal.
#[derive(Debug, Clone, Copy)]
pub(super) struct Queued {
    pub(super) score: f64,
    pub(super) arrival: f64,
    pub(super) task: usize,
    pub(super) group: usize,
    pub(super) exact: bool,
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Queued {}

impl Ord for Queued {
    /// Higher score first, then the earlier arrival, then the lower task.
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then(other.arrival.total_cmp(&self.arrival))
            .then(other.task.cmp(&self.task))
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A binary max-heap of [`Queued`] entries with at most one entry per
/// group, whose entry can be replaced or removed in place
/// ([`KeyedHeap::set`]). The top is always the greatest key, so it pops
/// the same sequence as a heap of every group's current key would: no
/// entry ever goes stale, and none has to be skipped.
#[derive(Debug, Default)]
pub(super) struct KeyedHeap {
    entries: Vec<Queued>,
    /// Per group, its entry's index in `entries` (`ABSENT` when none).
    at: Vec<u32>,
}

impl KeyedHeap {
    const ABSENT: u32 = u32::MAX;

    /// Sets group `group`'s entry: replaced by `key` (its `group` must be
    /// `group`), inserted, or removed (`None`).
    pub(super) fn set(&mut self, group: usize, key: Option<Queued>) {
        if self.at.len() <= group {
            self.at.resize(group + 1, Self::ABSENT);
        }
        let at = self.at[group];
        match (at != Self::ABSENT, key) {
            (false, None) => {}
            (false, Some(k)) => {
                debug_assert_eq!(k.group, group);
                let i = self.entries.len();
                self.entries.push(k);
                self.at[group] = i as u32;
                self.sift_up(i);
            }
            (true, Some(k)) => {
                debug_assert_eq!(k.group, group);
                let i = at as usize;
                let old = std::mem::replace(&mut self.entries[i], k);
                match k.cmp(&old) {
                    Ordering::Greater => {
                        self.sift_up(i);
                    }
                    Ordering::Less => self.sift_down(i),
                    Ordering::Equal => {}
                }
            }
            (true, None) => {
                self.remove_at(at as usize);
            }
        }
    }

    /// Whether group `group` has an entry.
    pub(super) fn contains(&self, group: usize) -> bool {
        self.at.get(group).is_some_and(|&i| i != Self::ABSENT)
    }

    /// Removes and returns the greatest entry.
    pub(super) fn pop(&mut self) -> Option<Queued> {
        if self.entries.is_empty() {
            return None;
        }
        Some(self.remove_at(0))
    }

    /// The number of entries.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    fn remove_at(&mut self, i: usize) -> Queued {
        let last = self.entries.len() - 1;
        self.swap(i, last);
        let out = self.entries.pop().expect("an entry at i");
        self.at[out.group] = Self::ABSENT;
        if i < self.entries.len() {
            // The entry moved into i may belong above or below it.
            let moved = self.sift_up(i);
            if moved == i {
                self.sift_down(i);
            }
        }
        out
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.entries.swap(a, b);
        self.at[self.entries[a].group] = a as u32;
        self.at[self.entries[b].group] = b as u32;
    }

    /// Moves entry `i` up to its place; returns where it ends.
    fn sift_up(&mut self, mut i: usize) -> usize {
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.entries[i] <= self.entries[parent] {
                break;
            }
            self.swap(i, parent);
            i = parent;
        }
        i
    }

    fn sift_down(&mut self, mut i: usize) {
        let n = self.entries.len();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = if right < n && self.entries[right] > self.entries[left] {
                right
            } else {
                left
            };
            if self.entries[child] <= self.entries[i] {
                break;
            }
            self.swap(i, child);
            i = child;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn key(group: usize, score: f64, arrival: f64) -> Queued {
        Queued {
            score,
            arrival,
            task: group,
            group,
            exact: true,
        }
    }

    proptest! {
        /// Any sequence of sets and pops leaves the heap popping exactly
        /// what a plain list of every group's current key gives.
        #[test]
        fn pops_the_greatest_current_key(
            ops in prop::collection::vec((0usize..40, prop::option::of(0u8..8), 0u8..4, any::<bool>()), 1..300)
        ) {
            let mut heap = KeyedHeap::default();
            let mut model: Vec<Option<Queued>> = vec![None; 40];
            for (g, score, arrival, pop) in ops {
                if pop {
                    let want = model.iter().flatten().copied().max();
                    let got = heap.pop();
                    prop_assert_eq!(got.map(|q| q.group), want.map(|q| q.group));
                    if let Some(w) = want {
                        model[w.group] = None;
                    }
                } else {
                    let k = score.map(|s| key(g, f64::from(s), f64::from(arrival)));
                    heap.set(g, k);
                    model[g] = k;
                }
                prop_assert_eq!(heap.len(), model.iter().flatten().count());
            }
        }
    }
}
