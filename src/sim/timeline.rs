//! Node timelines of one cluster and the earliest-slot search of environment
//! A (Khemka et al. 2015, "soft and hard deadlines", §3.2; docs/parallel.md).
//!
//! Every node carries a list of busy intervals (running tasks, reservations
//! and, during a mapping event, place-holders). Nodes whose lists are equal
//! are kept together as one *group*, so a cluster of 16,000 one-core nodes
//! with 50 tasks on it is a few dozen groups, and a slot search costs
//! O(G log G) for G groups instead of a pass over every node.
//!
//! Times are `f64` seconds. Intervals are half-open `[start, end)`: a task
//! ending at `t` frees its nodes for a task starting at `t`.

use std::cmp::Ordering;

use super::nodeset::NodeSet;

/// What occupies a busy interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Hold {
    /// A running task or a reservation: committed until its end.
    Committed,
    /// A place-holder: blocks the slot for the rest of one mapping event.
    PlaceHolder,
}

/// One busy interval `[start, end)` of a node, s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Busy {
    /// Start, s.
    pub start: f64,
    /// End (exclusive), s.
    pub end: f64,
    /// What holds it.
    pub hold: Hold,
}

impl Busy {
    fn cmp_key(&self, other: &Busy) -> Ordering {
        self.start
            .total_cmp(&other.start)
            .then(self.end.total_cmp(&other.end))
            .then(self.hold.cmp(&other.hold))
    }
}

#[derive(Debug, Clone)]
struct Group {
    nodes: NodeSet,
    busy: Vec<Busy>,
}

/// An idle gap of one group from `now` on: `[start, end)`, `end` may be
/// infinite (the idle slot runs to the end of the horizon).
#[derive(Debug, Clone, Copy)]
struct Gap {
    start: f64,
    end: f64,
    group: u32,
    size: u32,
}

/// The earliest slot of a task on a cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    /// Earliest start, s.
    pub start: f64,
    /// Number of nodes idle over the whole `[start, start + duration)`
    /// (at least the number asked for).
    pub idle_nodes: u32,
}

/// The timelines of every node of one cluster.
#[derive(Debug, Clone)]
pub struct ClusterTimeline {
    nodes: u32,
    groups: Vec<Group>,
    // Gaps from `cached_now` on, sorted by start; rebuilt when the timeline
    // changes or the clock moves.
    gaps: Vec<Gap>,
    cached_now: f64,
    gaps_valid: bool,
    // Scratch heap for the sweep: (end, size) of active gaps.
    heap: Vec<(f64, u32)>,
}

impl ClusterTimeline {
    /// A cluster of `nodes` idle nodes, indexed `0..nodes`.
    pub fn new(nodes: u32) -> Self {
        let groups = if nodes == 0 {
            Vec::new()
        } else {
            vec![Group {
                nodes: NodeSet::from_range(0..nodes),
                busy: Vec::new(),
            }]
        };
        ClusterTimeline {
            nodes,
            groups,
            gaps: Vec::new(),
            cached_now: f64::NAN,
            gaps_valid: false,
            heap: Vec::new(),
        }
    }

    /// Number of nodes.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// Number of node groups (nodes with identical timelines); a measure of
    /// how fragmented the schedule is.
    pub fn groups(&self) -> usize {
        self.groups.len()
    }

    fn rebuild_gaps(&mut self, now: f64) {
        if self.gaps_valid && self.cached_now == now {
            return;
        }
        self.gaps.clear();
        for (gi, g) in self.groups.iter().enumerate() {
            let size = g.nodes.len();
            let mut free_from = now;
            for b in &g.busy {
                if b.end <= now {
                    continue;
                }
                if b.start > free_from {
                    self.gaps.push(Gap {
                        start: free_from,
                        end: b.start,
                        group: gi as u32,
                        size,
                    });
                }
                if b.end > free_from {
                    free_from = b.end;
                }
            }
            self.gaps.push(Gap {
                start: free_from,
                end: f64::INFINITY,
                group: gi as u32,
                size,
            });
        }
        self.gaps
            .sort_by(|a, b| a.start.total_cmp(&b.start).then(a.group.cmp(&b.group)));
        self.cached_now = now;
        self.gaps_valid = true;
    }

    /// The earliest start ≥ `now` at which `nodes` nodes are all idle for
    /// `duration` seconds, without touching any busy interval (running tasks,
    /// reservations, place-holders). `None` when the cluster has fewer nodes.
    pub fn earliest_slot(&mut self, now: f64, duration: f64, nodes: u32) -> Option<Slot> {
        if nodes > self.nodes {
            return None;
        }
        self.rebuild_gaps(now);
        // Sweep the gap starts in increasing order; a gap is active at t when
        // start ≤ t and t + duration ≤ end. Once t + duration > end it never
        // becomes active again, so a min-heap on end suffices.
        let heap = &mut self.heap;
        heap.clear();
        let mut active: u64 = 0;
        let gaps = &self.gaps;
        let mut i = 0;
        while i < gaps.len() {
            let t = gaps[i].start;
            while i < gaps.len() && gaps[i].start <= t {
                let g = gaps[i];
                if t + duration <= g.end {
                    heap_push(heap, (g.end, g.size));
                    active += u64::from(g.size);
                }
                i += 1;
            }
            while let Some(&(end, size)) = heap.first() {
                if t + duration > end {
                    heap_pop(heap);
                    active -= u64::from(size);
                } else {
                    break;
                }
            }
            if active >= u64::from(nodes) {
                return Some(Slot {
                    start: t,
                    idle_nodes: active as u32,
                });
            }
        }
        None
    }

    /// Occupies `nodes` nodes over `[start, start + duration)` with `hold`,
    /// choosing among the nodes idle over that interval after the node
    /// tie-breaking rules of docs/parallel.md ("Earliest slot and node choice"): first the nodes whose count of idle
    /// slots changes least (fills a slot exactly: −1; touches one end: 0;
    /// splits a slot: +1), then those whose idle slot is shortest, then the
    /// lowest node index. Returns the chosen nodes.
    ///
    /// `start` must come from [`earliest_slot`](Self::earliest_slot) (or be
    /// otherwise feasible) for the same `now`, `duration` and `nodes`.
    ///
    /// # Errors
    /// [`PlacementError`] when fewer than `nodes` nodes are idle over the
    /// interval; the timeline is then unchanged.
    pub fn place(
        &mut self,
        now: f64,
        start: f64,
        duration: f64,
        nodes: u32,
        hold: Hold,
    ) -> Result<NodeSet, PlacementError> {
        self.rebuild_gaps(now);
        let end = start + duration;
        // (delta, slot length, first node, group)
        let mut cands: Vec<(i8, f64, u32, u32)> = self
            .gaps
            .iter()
            .filter(|g| g.start <= start && end <= g.end)
            .map(|g| {
                let left = i8::from(g.start == start);
                let right = i8::from(g.end == end);
                let first = self.groups[g.group as usize].nodes.first().unwrap_or(0);
                (1 - left - right, g.end - g.start, first, g.group)
            })
            .collect();
        let idle: u64 = cands
            .iter()
            .map(|c| u64::from(self.groups[c.3 as usize].nodes.len()))
            .sum();
        if idle < u64::from(nodes) {
            return Err(PlacementError {
                start,
                duration,
                nodes,
                idle: idle as u32,
            });
        }
        cands.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        let interval = Busy { start, end, hold };
        let mut chosen = NodeSet::new();
        let mut left = nodes;
        for &(_, _, _, gi) in &cands {
            if left == 0 {
                break;
            }
            let g = &mut self.groups[gi as usize];
            let size = g.nodes.len();
            if size <= left {
                chosen.union_with(&g.nodes);
                insert_sorted(&mut g.busy, interval);
                left -= size;
            } else {
                let taken = g.nodes.take_lowest(left);
                chosen.union_with(&taken);
                let mut busy = g.busy.clone();
                insert_sorted(&mut busy, interval);
                self.groups.push(Group { nodes: taken, busy });
                left = 0;
            }
        }
        self.gaps_valid = false;
        Ok(chosen)
    }

    /// Forgets every interval that ended at or before `now` and merges nodes
    /// whose timelines became equal. Call at the start of a mapping event.
    pub fn advance(&mut self, now: f64) {
        let mut changed = false;
        for g in &mut self.groups {
            let before = g.busy.len();
            g.busy.retain(|b| b.end > now);
            changed |= g.busy.len() != before;
        }
        if changed {
            self.merge_equal_groups();
        }
    }

    /// Removes every place-holder (end of a mapping event; Khemka et al. 2015, §3.2).
    pub fn clear_place_holders(&mut self) {
        let mut changed = false;
        for g in &mut self.groups {
            let before = g.busy.len();
            g.busy.retain(|b| b.hold != Hold::PlaceHolder);
            changed |= g.busy.len() != before;
        }
        if changed {
            self.merge_equal_groups();
        }
    }

    fn merge_equal_groups(&mut self) {
        self.gaps_valid = false;
        if self.groups.len() < 2 {
            return;
        }
        self.groups.sort_by(|a, b| {
            let n = a.busy.len().cmp(&b.busy.len());
            n.then_with(|| {
                for (x, y) in a.busy.iter().zip(&b.busy) {
                    let o = x.cmp_key(y);
                    if o != Ordering::Equal {
                        return o;
                    }
                }
                Ordering::Equal
            })
            .then(a.nodes.first().cmp(&b.nodes.first()))
        });
        let mut merged: Vec<Group> = Vec::with_capacity(self.groups.len());
        for g in self.groups.drain(..) {
            if let Some(last) = merged.last_mut()
                && last.busy == g.busy
            {
                last.nodes.union_with(&g.nodes);
                continue;
            }
            merged.push(g);
        }
        self.groups = merged;
    }

    /// The busy intervals of `node` (sorted), for inspection and tests.
    pub fn busy_of(&self, node: u32) -> Vec<Busy> {
        self.groups
            .iter()
            .find(|g| g.nodes.contains(node))
            .map(|g| g.busy.clone())
            .unwrap_or_default()
    }
}

/// A placement asked for more nodes than were idle over its interval.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("cannot place {nodes} nodes at {start} s for {duration} s: only {idle} idle")]
pub struct PlacementError {
    /// Requested start, s.
    pub start: f64,
    /// Requested duration, s.
    pub duration: f64,
    /// Nodes asked for.
    pub nodes: u32,
    /// Nodes idle over the interval.
    pub idle: u32,
}

fn insert_sorted(busy: &mut Vec<Busy>, b: Busy) {
    let i = busy.partition_point(|x| x.cmp_key(&b) == Ordering::Less);
    busy.insert(i, b);
}

// A small binary min-heap on end time over a reusable Vec, so a slot search
// allocates nothing.
fn heap_push(h: &mut Vec<(f64, u32)>, x: (f64, u32)) {
    h.push(x);
    let mut i = h.len() - 1;
    while i > 0 {
        let p = (i - 1) / 2;
        if h[i].0 < h[p].0 {
            h.swap(i, p);
            i = p;
        } else {
            break;
        }
    }
}

fn heap_pop(h: &mut Vec<(f64, u32)>) {
    let n = h.len();
    if n == 0 {
        return;
    }
    h.swap(0, n - 1);
    h.pop();
    let n = h.len();
    let mut i = 0;
    loop {
        let l = 2 * i + 1;
        let r = l + 1;
        let mut m = i;
        if l < n && h[l].0 < h[m].0 {
            m = l;
        }
        if r < n && h[r].0 < h[m].0 {
            m = r;
        }
        if m == i {
            break;
        }
        h.swap(i, m);
        i = m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_cluster_starts_now() {
        let mut c = ClusterTimeline::new(4);
        let s = c.earliest_slot(10.0, 5.0, 4).unwrap();
        assert_eq!(s.start, 10.0);
        assert_eq!(s.idle_nodes, 4);
        assert!(c.earliest_slot(10.0, 5.0, 5).is_none());
    }

    #[test]
    fn slot_waits_for_enough_nodes() {
        let mut c = ClusterTimeline::new(4);
        let a = c.place(0.0, 0.0, 100.0, 3, Hold::Committed).unwrap();
        assert_eq!(a.to_string(), "0-2");
        // one node idle now; two needed → wait for the running task at 100
        let s = c.earliest_slot(0.0, 10.0, 2).unwrap();
        assert_eq!(s.start, 100.0);
        // a one-node task fits now
        assert_eq!(c.earliest_slot(0.0, 10.0, 1).unwrap().start, 0.0);
    }

    #[test]
    fn slot_fits_in_a_gap_before_a_reservation() {
        let mut c = ClusterTimeline::new(2);
        c.place(0.0, 50.0, 100.0, 2, Hold::Committed).unwrap();
        // gap [0, 50) on both nodes
        assert_eq!(c.earliest_slot(0.0, 50.0, 2).unwrap().start, 0.0);
        assert_eq!(c.earliest_slot(0.0, 50.5, 2).unwrap().start, 150.0);
    }

    #[test]
    fn tie_breaking_prefers_filling_a_gap_exactly() {
        // node 0: busy [0,10) and [20,30) → gap [10,20) of length 10
        // node 1: busy [0,10) → gap [10, ∞)
        let mut c = ClusterTimeline::new(2);
        c.place(0.0, 0.0, 10.0, 2, Hold::Committed).unwrap();
        let n0 = c.place(0.0, 20.0, 10.0, 1, Hold::Committed).unwrap();
        assert_eq!(n0.to_string(), "0");
        // a 10 s task at 10 fills node 0's gap exactly (−1) vs touching one
        // end of node 1's open slot (0)
        let s = c.earliest_slot(0.0, 10.0, 1).unwrap();
        assert_eq!(s.start, 10.0);
        let got = c.place(0.0, 10.0, 10.0, 1, Hold::Committed).unwrap();
        assert_eq!(got.to_string(), "0");
    }

    #[test]
    fn place_holders_are_cleared_and_groups_merge() {
        let mut c = ClusterTimeline::new(8);
        c.place(0.0, 0.0, 10.0, 3, Hold::PlaceHolder).unwrap();
        c.place(0.0, 0.0, 10.0, 2, Hold::PlaceHolder).unwrap();
        assert!(c.groups() > 1);
        c.clear_place_holders();
        assert_eq!(c.groups(), 1);
        assert_eq!(c.earliest_slot(0.0, 1.0, 8).unwrap().start, 0.0);
    }

    #[test]
    fn advance_forgets_the_past() {
        let mut c = ClusterTimeline::new(2);
        c.place(0.0, 0.0, 10.0, 1, Hold::Committed).unwrap();
        c.advance(10.0);
        assert_eq!(c.groups(), 1);
        assert!(c.busy_of(0).is_empty());
    }

    #[test]
    fn placing_more_than_idle_is_an_error() {
        let mut c = ClusterTimeline::new(2);
        c.place(0.0, 0.0, 10.0, 2, Hold::Committed).unwrap();
        assert!(c.place(0.0, 5.0, 1.0, 1, Hold::Committed).is_err());
    }
}
