//! The time-ordered event queue every engine runs on, with one documented
//! rule for events that fall at the same instant.
//!
//! An engine pushes `(time, class, task)` triples: `time` in s on the log's
//! clock, `class` an engine-defined kind of event whose order says what
//! happens first at one instant (environment A: completions before
//! reservation starts; environment D: job ends before resume wake-ups), and
//! `task` the index of the task or job concerned.
//!
//! **Equal-time rule.** Events pop by time ascending ([`f64::total_cmp`]),
//! then by class rank ascending (the class's [`Ord`]), then by task index
//! ascending. The order is total, so a run never depends on how the heap
//! happens to be laid out: the same pushes give the same pops.
//!
//! Engines that cancel events (a job suspended before its predicted end, a
//! resume reservation overtaken by an earlier resume) do not search the
//! heap: they leave the entry in place and skip it when it reaches the
//! front ([`EventQueue::peek_live`]), the usual lazy deletion.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// A time and a task index, ordered by time ([`f64::total_cmp`]) then by
/// index: the key of time-ordered sets (e.g. running jobs by predicted
/// end) and of the events of an [`EventQueue`].
#[derive(Debug, Clone, Copy)]
pub struct TimeKey {
    /// Time, s.
    pub time: f64,
    /// Task (job) index.
    pub task: usize,
}

impl TimeKey {
    /// The key of `task` at `time` (s).
    pub fn new(time: f64, task: usize) -> TimeKey {
        TimeKey { time, task }
    }
}

impl PartialEq for TimeKey {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for TimeKey {}
impl PartialOrd for TimeKey {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for TimeKey {
    fn cmp(&self, o: &Self) -> Ordering {
        self.time.total_cmp(&o.time).then(self.task.cmp(&o.task))
    }
}

/// One event: something of class `class` happens to task `task` at `time`.
#[derive(Debug, Clone, Copy)]
pub struct Event<C> {
    /// When, s.
    pub time: f64,
    /// What kind of event; its rank orders events at one instant.
    pub class: C,
    /// Task (job) index.
    pub task: usize,
}

impl<C: Ord> Event<C> {
    /// The equal-time rule: time, then class rank, then task index.
    fn order(&self, o: &Self) -> Ordering {
        self.time
            .total_cmp(&o.time)
            .then_with(|| self.class.cmp(&o.class))
            .then(self.task.cmp(&o.task))
    }
}

impl<C: Ord> PartialEq for Event<C> {
    fn eq(&self, o: &Self) -> bool {
        self.order(o) == Ordering::Equal
    }
}
impl<C: Ord> Eq for Event<C> {}
impl<C: Ord> PartialOrd for Event<C> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<C: Ord> Ord for Event<C> {
    fn cmp(&self, o: &Self) -> Ordering {
        self.order(o)
    }
}

/// A min-queue of [`Event`]s under the equal-time rule of the module.
#[derive(Debug, Clone)]
pub struct EventQueue<C: Ord + Copy> {
    heap: BinaryHeap<Reverse<Event<C>>>,
}

impl<C: Ord + Copy> Default for EventQueue<C> {
    fn default() -> Self {
        EventQueue::new()
    }
}

impl<C: Ord + Copy> EventQueue<C> {
    /// An empty queue.
    pub fn new() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
        }
    }

    /// Schedules an event of `class` for `task` at `time` (s).
    pub fn push(&mut self, time: f64, class: C, task: usize) {
        self.heap.push(Reverse(Event { time, class, task }));
    }

    /// The next event, without removing it.
    pub fn peek(&self) -> Option<Event<C>> {
        self.heap.peek().map(|r| r.0)
    }

    /// Removes and returns the next event.
    pub fn pop(&mut self) -> Option<Event<C>> {
        self.heap.pop().map(|r| r.0)
    }

    /// The next event for which `live` holds, after discarding every event
    /// before it for which it does not (lazy deletion of cancelled events).
    pub fn peek_live(&mut self, mut live: impl FnMut(&Event<C>) -> bool) -> Option<Event<C>> {
        while let Some(Reverse(e)) = self.heap.peek() {
            if live(e) {
                return Some(*e);
            }
            self.heap.pop();
        }
        None
    }

    /// Removes and returns the next event if it falls at exactly `time`.
    pub fn pop_at(&mut self, time: f64) -> Option<Event<C>> {
        match self.heap.peek() {
            Some(Reverse(e)) if e.time == time => self.pop(),
            _ => None,
        }
    }

    /// Number of events queued (cancelled ones not yet skipped included).
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether no event is queued.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    enum Class {
        First,
        Second,
    }

    fn drain(q: &mut EventQueue<Class>) -> Vec<(f64, Class, usize)> {
        std::iter::from_fn(|| q.pop().map(|e| (e.time, e.class, e.task))).collect()
    }

    #[test]
    fn earlier_time_pops_first_whatever_the_class_or_task() {
        let mut q = EventQueue::new();
        q.push(2.0, Class::First, 0);
        q.push(1.0, Class::Second, 9);
        assert_eq!(
            drain(&mut q),
            [(1.0, Class::Second, 9), (2.0, Class::First, 0)]
        );
    }

    #[test]
    fn at_equal_times_the_lower_class_rank_pops_first() {
        let mut q = EventQueue::new();
        q.push(5.0, Class::Second, 0);
        q.push(5.0, Class::First, 7);
        assert_eq!(
            drain(&mut q),
            [(5.0, Class::First, 7), (5.0, Class::Second, 0)]
        );
    }

    #[test]
    fn at_equal_times_and_classes_the_lower_task_index_pops_first() {
        let mut q = EventQueue::new();
        for task in [3, 1, 2] {
            q.push(5.0, Class::First, task);
        }
        let tasks: Vec<usize> = drain(&mut q).into_iter().map(|e| e.2).collect();
        assert_eq!(tasks, [1, 2, 3]);
    }

    #[test]
    fn the_pop_order_does_not_depend_on_the_push_order() {
        let events = [
            (3.0, Class::Second, 1),
            (1.0, Class::First, 4),
            (3.0, Class::First, 2),
            (3.0, Class::First, 0),
            (0.5, Class::Second, 8),
        ];
        let mut a = EventQueue::new();
        let mut b = EventQueue::new();
        for &(t, c, i) in &events {
            a.push(t, c, i);
        }
        for &(t, c, i) in events.iter().rev() {
            b.push(t, c, i);
        }
        let got = drain(&mut a);
        assert_eq!(got, drain(&mut b));
        assert_eq!(
            got,
            [
                (0.5, Class::Second, 8),
                (1.0, Class::First, 4),
                (3.0, Class::First, 0),
                (3.0, Class::First, 2),
                (3.0, Class::Second, 1),
            ]
        );
    }

    #[test]
    fn peek_live_skips_cancelled_events_and_keeps_the_live_one() {
        let mut q = EventQueue::new();
        q.push(1.0, Class::First, 0);
        q.push(2.0, Class::First, 1);
        q.push(3.0, Class::First, 2);
        let cancelled = [true, false, false];
        let e = q.peek_live(|e| !cancelled[e.task]).unwrap();
        assert_eq!((e.time, e.task), (2.0, 1));
        // the cancelled event is gone, the live one is still queued
        assert_eq!(q.len(), 2);
        assert_eq!(q.pop().map(|e| e.task), Some(1));
    }

    #[test]
    fn pop_at_takes_only_events_at_that_instant() {
        let mut q = EventQueue::new();
        q.push(1.0, Class::Second, 0);
        q.push(1.0, Class::First, 1);
        q.push(2.0, Class::First, 2);
        assert_eq!(q.pop_at(1.0).map(|e| e.task), Some(1));
        assert_eq!(q.pop_at(1.0).map(|e| e.task), Some(0));
        assert_eq!(q.pop_at(1.0), None);
        assert_eq!(q.len(), 1);
    }

    #[test]
    fn time_keys_order_by_time_then_index() {
        let mut v = [
            TimeKey::new(2.0, 0),
            TimeKey::new(1.0, 5),
            TimeKey::new(1.0, 3),
        ];
        v.sort();
        let got: Vec<(f64, usize)> = v.iter().map(|k| (k.time, k.task)).collect();
        assert_eq!(got, [(1.0, 3), (1.0, 5), (2.0, 0)]);
    }
}
