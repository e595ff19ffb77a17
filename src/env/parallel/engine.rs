//! The discrete-event engine of environment A (Khemka et al. 2015, §3.1–3.2;
//! docs/parallel.md).
//!
//! Clock: `f64` seconds on the log's clock. Events at one instant are taken
//! together, in this order: completions (their nodes become free), starts
//! of reservations that fall due — both from the shared [`EventQueue`],
//! whose equal-time rule also orders each kind by task index — then
//! arrivals; then, if anything arrived or completed, one mapping event: (1)
//! every mappable task that would earn nothing even if started now on its
//! fastest cluster is dropped (so is a task that fits on no cluster); (2)
//! the heuristic maps the others. Place-holders are removed when the
//! mapping event ends.
//!
//! A task with a reservation is committed: it is no longer mappable and
//! starts at its reservation. Run times equal ETC exactly, so reservations
//! never move. The run stops as soon as every counted task has completed or
//! been dropped; warm-up tasks still running then are cut off (they are not
//! counted). Counted tasks left neither completed nor dropped when events run
//! out are reported as unfinished.

use std::time::Instant;

use crate::model::{System, Task};
use crate::sim::events::EventQueue;
use crate::sim::nodeset::NodeSet;
use crate::sim::timeline::{ClusterTimeline, Hold, Slot};
use crate::workload::Scenario;

/// A mapping heuristic of environment A.
pub trait Heuristic {
    /// Maps (starts, reserves or place-holds) some of `event`'s mappable
    /// tasks. Tasks it leaves alone stay mappable.
    fn map(&mut self, event: &mut MappingEvent<'_>);

    /// Why the heuristic cannot go on (one given from outside that failed:
    /// [`super::custom`]); the engine ends the run after the mapping event that
    /// set it. The built-in heuristics never fail.
    fn failure(&self) -> Option<&str> {
        None
    }
}

/// What happened to a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskStatus {
    /// Ran to completion.
    Completed,
    /// Dropped: it could no longer earn value (or fit on any cluster).
    Dropped,
    /// Neither, when the run stopped (still waiting, reserved or running).
    Unfinished,
}

/// The fate of one task of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskOutcome {
    /// Final status.
    pub status: TaskStatus,
    /// Start, s (when it started).
    pub start: Option<f64>,
    /// Completion, s (when it completed).
    pub completion: Option<f64>,
    /// Cluster it ran (or was reserved) on.
    pub cluster: Option<usize>,
    /// Nodes it ran (or was reserved) on, indices within the cluster.
    pub nodes: NodeSet,
    /// Value earned (value units; 0 unless completed).
    pub value: f64,
    /// When it was dropped, s.
    pub dropped_at: Option<f64>,
}

/// Statistics of one mapping event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventStats {
    /// Clock, s.
    pub time: f64,
    /// Mappable tasks after dropping.
    pub mappable: u32,
    /// Tasks dropped at this event.
    pub dropped: u32,
    /// Wall-clock seconds spent dropping and in the heuristic.
    pub heuristic_seconds: f64,
}

/// Everything a run produced.
#[derive(Debug, Clone)]
pub struct RunResult {
    /// One outcome per scenario task (same order as `Scenario::tasks`).
    pub outcomes: Vec<TaskOutcome>,
    /// One entry per mapping event, in time order.
    pub events: Vec<EventStats>,
    /// Clock when the run stopped, s.
    pub end_time: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    NotArrived,
    Mappable,
    Reserved,
    Running,
    Done,
}

/// Event classes, in the order they are taken at one instant (the rank of
/// the equal-time rule of [`EventQueue`]): completions first, so their nodes
/// are free before anything else happens then.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Completion,
    ReservationStart,
}

/// A decision a heuristic made during a mapping event.
#[derive(Debug, Clone)]
enum Decision {
    Start {
        task: usize,
        cluster: usize,
        nodes: NodeSet,
    },
    Reserve {
        task: usize,
        cluster: usize,
        start: f64,
        nodes: NodeSet,
    },
}

/// What a heuristic sees and does during one mapping event.
pub struct MappingEvent<'a> {
    now: f64,
    system: &'a System,
    tasks: &'a [Task],
    mappable: &'a [usize],
    timelines: &'a mut [ClusterTimeline],
    decisions: Vec<Decision>,
    taken: Vec<bool>,
    reservations: usize,
    place_holders: usize,
}

/// A heuristic asked for something impossible (a bug in the heuristic, not
/// in the input).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MappingError {
    /// The task is not mappable at this event (or already decided).
    #[error("task {0} is not mappable")]
    NotMappable(usize),
    /// The task does not fit on that cluster, or the slot is not free.
    #[error("task {task} cannot be placed on cluster {cluster} at {start} s")]
    Infeasible {
        /// Task index.
        task: usize,
        /// Cluster index.
        cluster: usize,
        /// Requested start, s.
        start: f64,
    },
}

impl<'a> MappingEvent<'a> {
    /// The clock, s.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// The system.
    pub fn system(&self) -> &System {
        self.system
    }

    /// Every task of the scenario (index = task id).
    pub fn tasks(&self) -> &[Task] {
        self.tasks
    }

    /// Mappable task indices, in arrival order (then job number).
    pub fn mappable(&self) -> &[usize] {
        self.mappable
    }

    /// Number of tasks currently holding a reservation (including those
    /// reserved during this event).
    pub fn reservations(&self) -> usize {
        self.reservations
    }

    /// Earliest slot of `task` on `cluster` given everything placed so far
    /// (running tasks, reservations, this event's place-holders); `None`
    /// when the task does not fit on the cluster.
    pub fn earliest_slot(&mut self, task: usize, cluster: usize) -> Option<Slot> {
        let t = &self.tasks[task];
        let c = &self.system.clusters[cluster];
        if !c.fits(t.cores) {
            return None;
        }
        self.timelines[cluster].earliest_slot(self.now, t.etc[cluster], c.nodes_for(t.cores))
    }

    /// The cluster with the earliest slot for `task` (ties to the lower
    /// cluster index), with that slot; `None` when it fits nowhere.
    pub fn earliest_cluster(&mut self, task: usize) -> Option<(usize, Slot)> {
        let mut best: Option<(usize, Slot)> = None;
        for j in 0..self.system.clusters.len() {
            if let Some(s) = self.earliest_slot(task, j)
                && best.is_none_or(|(_, b)| s.start < b.start)
            {
                best = Some((j, s));
            }
        }
        best
    }

    fn occupy(
        &mut self,
        task: usize,
        cluster: usize,
        start: f64,
        hold: Hold,
    ) -> Result<NodeSet, MappingError> {
        let pos = self.mappable.iter().position(|&m| m == task);
        let Some(pos) = pos.filter(|&p| !self.taken[p]) else {
            return Err(MappingError::NotMappable(task));
        };
        let t = &self.tasks[task];
        let c = &self.system.clusters[cluster];
        let bad = MappingError::Infeasible {
            task,
            cluster,
            start,
        };
        if !c.fits(t.cores) || start < self.now {
            return Err(bad);
        }
        let nodes = self.timelines[cluster]
            .place(self.now, start, t.etc[cluster], c.nodes_for(t.cores), hold)
            .map_err(|_| bad)?;
        self.taken[pos] = true;
        Ok(nodes)
    }

    /// Starts `task` now on `cluster`.
    ///
    /// # Errors
    /// [`MappingError`] when the task is not mappable or does not fit now.
    pub fn start(&mut self, task: usize, cluster: usize) -> Result<NodeSet, MappingError> {
        let nodes = self.occupy(task, cluster, self.now, Hold::Committed)?;
        self.decisions.push(Decision::Start {
            task,
            cluster,
            nodes: nodes.clone(),
        });
        Ok(nodes)
    }

    /// Reserves `[start, start + ETC)` on `cluster` for `task`; it will start
    /// then. A `start` equal to now starts it at once.
    ///
    /// # Errors
    /// [`MappingError`] when the task is not mappable or the slot is not free.
    pub fn reserve(
        &mut self,
        task: usize,
        cluster: usize,
        start: f64,
    ) -> Result<NodeSet, MappingError> {
        if start == self.now {
            return self.start(task, cluster);
        }
        let nodes = self.occupy(task, cluster, start, Hold::Committed)?;
        self.reservations += 1;
        self.decisions.push(Decision::Reserve {
            task,
            cluster,
            start,
            nodes: nodes.clone(),
        });
        Ok(nodes)
    }

    /// Blocks `[start, start + ETC)` on `cluster` for the rest of this event
    /// with a place-holder; `task` stays mappable at the next event. A
    /// `start` equal to now starts it at once instead.
    ///
    /// # Errors
    /// [`MappingError`] when the task is not mappable or the slot is not free.
    pub fn place_holder(
        &mut self,
        task: usize,
        cluster: usize,
        start: f64,
    ) -> Result<NodeSet, MappingError> {
        if start == self.now {
            return self.start(task, cluster);
        }
        let nodes = self.occupy(task, cluster, start, Hold::PlaceHolder)?;
        self.place_holders += 1;
        Ok(nodes)
    }
}

struct Engine<'s> {
    scenario: &'s Scenario,
    state: Vec<State>,
    outcomes: Vec<TaskOutcome>,
    timelines: Vec<ClusterTimeline>,
    events: EventQueue<Class>,
    mappable: Vec<usize>,
    reservations: usize,
    counted_open: usize,
}

/// Runs `heuristic` on `scenario` to the end.
///
/// # Panics
/// Never on user input. A heuristic that asks for an impossible placement
/// has its request refused (the task stays mappable); the engine's own
/// bookkeeping is checked by [`super::check`] in the tests.
pub fn simulate(scenario: &Scenario, heuristic: &mut dyn Heuristic) -> RunResult {
    let n = scenario.tasks.len();
    let mut e = Engine {
        scenario,
        state: vec![State::NotArrived; n],
        outcomes: vec![
            TaskOutcome {
                status: TaskStatus::Unfinished,
                start: None,
                completion: None,
                cluster: None,
                nodes: NodeSet::new(),
                value: 0.0,
                dropped_at: None,
            };
            n
        ],
        timelines: scenario
            .system
            .clusters
            .iter()
            .map(|c| ClusterTimeline::new(c.nodes))
            .collect(),
        events: EventQueue::new(),
        mappable: Vec::new(),
        reservations: 0,
        counted_open: scenario.tasks.iter().filter(|t| t.counted).count(),
    };
    // Arrival order (then job number); scenarios are normally sorted already.
    let mut arrivals: Vec<usize> = (0..n).collect();
    arrivals.sort_by(|&a, &b| {
        let (x, y) = (&scenario.tasks[a], &scenario.tasks[b]);
        x.arrival
            .total_cmp(&y.arrival)
            .then(x.job_number.cmp(&y.job_number))
    });
    let mut events = Vec::new();
    let mut next_arrival = 0;
    let mut now = f64::NEG_INFINITY;
    while e.counted_open > 0 {
        let t_arr = arrivals
            .get(next_arrival)
            .map(|&i| scenario.tasks[i].arrival);
        let t_evt = e.events.peek().map(|ev| ev.time);
        let t = match (t_arr, t_evt) {
            (None, None) => break,
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (Some(a), Some(b)) => a.min(b),
        };
        now = t;
        let mut trigger = false;
        while let Some(ev) = e.events.pop_at(t) {
            match ev.class {
                Class::Completion => {
                    e.complete(ev.task, t);
                    trigger = true;
                }
                Class::ReservationStart => {
                    e.state[ev.task] = State::Running;
                    e.reservations -= 1;
                }
            }
        }
        while let Some(&i) = arrivals
            .get(next_arrival)
            .filter(|&&i| scenario.tasks[i].arrival == t)
        {
            e.state[i] = State::Mappable;
            e.mappable.push(i);
            next_arrival += 1;
            trigger = true;
        }
        if trigger && e.counted_open > 0 {
            events.push(e.mapping_event(t, heuristic));
            if heuristic.failure().is_some() {
                break;
            }
        }
    }
    RunResult {
        outcomes: e.outcomes,
        events,
        end_time: now,
    }
}

impl Engine<'_> {
    fn complete(&mut self, task: usize, t: f64) {
        self.state[task] = State::Done;
        let o = &mut self.outcomes[task];
        o.status = TaskStatus::Completed;
        o.completion = Some(t);
        o.value = self.scenario.tasks[task].value.value_at(t);
        if self.scenario.tasks[task].counted {
            self.counted_open -= 1;
        }
    }

    fn drop_task(&mut self, task: usize, t: f64) {
        self.state[task] = State::Done;
        let o = &mut self.outcomes[task];
        o.status = TaskStatus::Dropped;
        o.dropped_at = Some(t);
        if self.scenario.tasks[task].counted {
            self.counted_open -= 1;
        }
    }

    fn mapping_event(&mut self, now: f64, heuristic: &mut dyn Heuristic) -> EventStats {
        let clock = Instant::now();
        for tl in &mut self.timelines {
            tl.advance(now);
        }
        let sc = self.scenario;
        // (1) dropping
        let mut dropped = 0;
        let mut keep = Vec::with_capacity(self.mappable.len());
        let mappable = std::mem::take(&mut self.mappable);
        for &i in &mappable {
            let task = &sc.tasks[i];
            let earns = task
                .fastest(&sc.system)
                .is_some_and(|(_, etc)| task.value.earns_at(now + etc));
            if earns {
                keep.push(i);
            } else {
                dropped += 1;
                self.drop_task(i, now);
            }
        }
        self.mappable = keep;
        // (2) the heuristic
        let mut ev = MappingEvent {
            now,
            system: &sc.system,
            tasks: &sc.tasks,
            mappable: &self.mappable,
            timelines: &mut self.timelines,
            decisions: Vec::new(),
            taken: vec![false; self.mappable.len()],
            reservations: self.reservations,
            place_holders: 0,
        };
        heuristic.map(&mut ev);
        let MappingEvent {
            decisions,
            place_holders,
            ..
        } = ev;
        if place_holders > 0 {
            for tl in &mut self.timelines {
                tl.clear_place_holders();
            }
        }
        let heuristic_seconds = clock.elapsed().as_secs_f64();
        let mappable_count = self.mappable.len() as u32;
        for d in decisions {
            match d {
                Decision::Start {
                    task,
                    cluster,
                    nodes,
                } => {
                    let end = now + sc.tasks[task].etc[cluster];
                    self.state[task] = State::Running;
                    let o = &mut self.outcomes[task];
                    o.start = Some(now);
                    o.cluster = Some(cluster);
                    o.nodes = nodes;
                    self.events.push(end, Class::Completion, task);
                }
                Decision::Reserve {
                    task,
                    cluster,
                    start,
                    nodes,
                } => {
                    let end = start + sc.tasks[task].etc[cluster];
                    self.state[task] = State::Reserved;
                    self.reservations += 1;
                    let o = &mut self.outcomes[task];
                    o.start = Some(start);
                    o.cluster = Some(cluster);
                    o.nodes = nodes;
                    self.events.push(start, Class::ReservationStart, task);
                    self.events.push(end, Class::Completion, task);
                }
            }
        }
        // Tasks still mappable are the ones not started or reserved
        // (place-holders release their tasks).
        let mappable = std::mem::take(&mut self.mappable);
        self.mappable = mappable
            .into_iter()
            .filter(|&i| self.state[i] == State::Mappable)
            .collect();
        EventStats {
            time: now,
            mappable: mappable_count,
            dropped,
            heuristic_seconds,
        }
    }
}
