//! The event loop of environment B (Machovec et al., §III.A–B): a mapping
//! event every `event_interval` seconds of simulated time, starting at 0.
//! At each event, in order:
//!
//! 1. every task whose execution ended at or before the event completes
//!    (its core has been idle since);
//! 2. every task that arrived at or before the event becomes mappable;
//! 3. every mappable task that can never earn again is dropped: a task that
//!    never ran when `U(now + min ETC − arrival) = 0`, a preempted one when
//!    `U(now + RET − arrival) = 0` (§III.B);
//! 4. the heuristic maps mappable tasks onto idle cores and, if it
//!    preempts, onto cores running preemptible tasks: the engine calls
//!    [`Heuristic::map`] and knows no heuristic by name ([`State`] is the
//!    heuristic's whole view of the system; `Policy::build` in the
//!    registry makes the heuristic object of a policy).
//!
//! A preempted task keeps its progress and may resume only on a core of
//! the cluster it ran on (§II.D); preempting and resuming cost nothing.
//! Within one event the mapping is a plan: a task started at this event
//! and preempted again at the same event never ran, so it goes back to
//! what it was (no piece, no preemption counted).
//!
//! The run ends at the first event at or after the end of the counted
//! window at which no task that ran inside the window is still unfinished
//! (running or preempted): after the window nothing else can earn.
//!
//! Time is `f64` seconds on the scenario clock (0 = start of the warm-up).
//! Mappable tasks are kept in [`Group`]s: the tasks of one burst that never
//! ran and share their preemption flags are identical (same type, arrival
//! and utility function), so a heuristic evaluates a group once; a
//! preempted task is a group of its own.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::task::{Objective, SerialScenario, SerialTask};
use crate::model::utility::UtilityFunction;

/// A mapping heuristic of environment B: the engine calls it once at each
/// mapping event, after completions, arrivals and drops.
pub trait Heuristic {
    /// Maps some of the mappable tasks of `st` ([`State::groups`]): starts
    /// them on idle cores ([`State::start_idle`]) or, when it preempts, on
    /// cores running preemptible tasks ([`State::build_victims`],
    /// [`State::start_preempting`]). Tasks it leaves stay mappable until
    /// the next event.
    fn map(&mut self, st: &mut State<'_>);
}

/// What became of a task.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum TaskFate {
    /// Finished at `at` (s) on `cluster`.
    Completed {
        /// Completion time, s.
        at: f64,
        /// The cluster it ran on.
        cluster: usize,
    },
    /// Dropped at the mapping event `at` (s): it could never earn again.
    Dropped {
        /// The event, s.
        at: f64,
    },
    /// Still waiting, preempted or running when the run ended.
    Unfinished,
}

/// One stretch of a task on one core: `[start, end)`, s.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SerialPiece {
    /// Task index in the scenario.
    pub task: usize,
    /// Cluster.
    pub cluster: usize,
    /// Core, 0-based within the cluster.
    pub core: u32,
    /// Start, s.
    pub start: f64,
    /// End (exclusive), s.
    pub end: f64,
}

/// One simulated schedule of environment B.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SerialRun {
    /// Per task, what became of it.
    pub fates: Vec<TaskFate>,
    /// Every piece any task ran, in the order they ended.
    pub pieces: Vec<SerialPiece>,
    /// Preemptions (a running task stopped to make room for another).
    pub preemptions: u64,
    /// Mapping events held.
    pub events: u64,
    /// The last mapping event, s.
    pub end: f64,
    /// Heuristic wall time per mapping event: mean and max, s (not
    /// deterministic; never part of the deterministic tables).
    pub heuristic_seconds: (f64, f64),
}

/// A task running on a core.
#[derive(Debug, Clone, Copy)]
struct Running {
    task: usize,
    start: f64,
    /// Remaining execution time at `start`, s.
    ret: f64,
    /// What the task was before this start: `None` never ran, else the
    /// cluster and RET of its preemption.
    prior: Option<(usize, f64)>,
    /// Matches the completion entry of this piece.
    version: u64,
}

/// Mappable tasks that a heuristic sees as one: the tasks of one burst
/// that never ran and share their flags, or one preempted task.
#[derive(Debug, Clone)]
pub struct Group {
    /// Waiting task indices, highest first (the next one is the last).
    tasks: Vec<usize>,
    /// Arrival, s.
    pub arrival: f64,
    /// Utility function.
    pub utility: UtilityFunction,
    /// Task type (row of the ETC matrix).
    pub task_type: usize,
    /// A preempted task: its cluster and remaining execution time (s).
    pub bound: Option<(usize, f64)>,
    /// Whether its tasks may preempt.
    pub can_preempt: bool,
    /// Whether its tasks may be preempted.
    pub preemptible: bool,
    /// (burst, can preempt, preemptible) of a group of never-run tasks.
    fresh: Option<(usize, bool, bool)>,
    /// An upper bound on the group's objective at this and every later
    /// event: its best objective over all clusters when last evaluated
    /// (+∞ before that). Objectives never rise as time passes (utility is
    /// non-increasing and a waiting task's remaining time is fixed).
    pub ceiling: f64,
}

impl Group {
    /// Tasks waiting in the group.
    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    /// Whether the group has no task left.
    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// The task the group maps next (its lowest index).
    pub fn next_task(&self) -> Option<usize> {
        self.tasks.last().copied()
    }

    /// Remaining execution time on cluster `j`, s; `None` where the group
    /// may not run (a preempted task off its own cluster).
    pub fn ret(&self, s: &SerialScenario, j: usize) -> Option<f64> {
        match self.bound {
            Some((c, r)) => (c == j).then_some(r),
            None => Some(s.types[self.task_type].etc[j]),
        }
    }
}

/// The running preemptible tasks of one cluster that a heuristic cannot
/// tell apart (same burst, same remaining time): one victim class.
#[derive(Debug, Clone)]
pub struct VictimClass {
    /// Cluster.
    pub cluster: usize,
    /// Global cores running a member, highest first.
    cores: Vec<usize>,
    /// Arrival of the members, s.
    pub arrival: f64,
    /// Their utility function.
    pub utility: UtilityFunction,
    /// Their remaining execution time at this event, s.
    pub ret: f64,
    /// Their objective at this event (completing at now + ret).
    pub objective: f64,
    key: VictimKey,
}

impl VictimClass {
    /// Members left.
    pub fn len(&self) -> usize {
        self.cores.len()
    }

    /// Whether no member is left.
    pub fn is_empty(&self) -> bool {
        self.cores.is_empty()
    }
}

/// The objective of a task with utility `u` that arrived at `arrival` and
/// completes `ret` seconds after `now` (Machovec et al., §III.D.2, eqs. 1
/// and 2): Util = U(completion), UPT = Util / RET.
pub fn objective(
    objective: Objective,
    u: &UtilityFunction,
    arrival: f64,
    now: f64,
    ret: f64,
) -> f64 {
    let util = u.value(now + ret - arrival);
    match objective {
        Objective::Util => util,
        Objective::Upt => util / ret,
    }
}

/// The system at a mapping event, as a heuristic sees and changes it.
pub struct State<'a> {
    /// The scenario.
    pub s: &'a SerialScenario,
    /// The event's time, s.
    pub now: f64,
    core_cluster: Vec<usize>,
    running: Vec<Option<Running>>,
    idle: Vec<BTreeSet<usize>>,
    /// Mappable tasks. Indices are stable within one event; groups emptied
    /// during the event stay (empty) until the next.
    pub groups: Vec<Group>,
    fresh: FreshIndex,
    fates: Vec<TaskFate>,
    /// Seconds each task ran inside the counted window so far.
    inside: Vec<f64>,
    completions: BinaryHeap<Reverse<(u64, usize, u64)>>,
    pieces: Vec<SerialPiece>,
    preemptions: u64,
    version: u64,
    victims: Option<Victims>,
    /// Per task type, its shortest ETC over the clusters (s).
    fastest: Vec<f64>,
}

/// The group of the never-run tasks of each (burst, flags), if any: a
/// vector indexed by burst and the two flags (bursts are numbered densely).
#[derive(Debug, Clone)]
struct FreshIndex(Vec<[u32; 4]>);

impl FreshIndex {
    const NONE: u32 = u32::MAX;

    fn new(s: &SerialScenario) -> FreshIndex {
        let bursts = s.tasks.iter().map(|t| t.burst + 1).max().unwrap_or(0);
        FreshIndex(vec![[Self::NONE; 4]; bursts])
    }

    fn slot(key: (usize, bool, bool)) -> (usize, usize) {
        (key.0, usize::from(key.1) * 2 + usize::from(key.2))
    }

    fn get(&self, key: (usize, bool, bool)) -> Option<usize> {
        let (b, f) = Self::slot(key);
        let g = self.0[b][f];
        (g != Self::NONE).then_some(g as usize)
    }

    fn insert(&mut self, key: (usize, bool, bool), g: usize) {
        let (b, f) = Self::slot(key);
        self.0[b][f] = g as u32;
    }

    fn clear(&mut self, key: (usize, bool, bool)) {
        let (b, f) = Self::slot(key);
        self.0[b][f] = Self::NONE;
    }
}

/// What tells victim classes apart within a cluster: the burst, the
/// remaining execution time's bits, and whether the task started at this
/// event.
type VictimKey = (usize, u64, bool);

/// The victim classes of one event, per cluster in ascending objective.
#[derive(Debug, Clone, Default)]
struct Victims {
    objective: Option<Objective>,
    classes: Vec<VictimClass>,
    by_cluster: Vec<Vec<usize>>,
    index: HashMap<(usize, VictimKey), usize>,
}

fn overlap(a: f64, b: f64, window: (f64, f64)) -> f64 {
    (b.min(window.1) - a.max(window.0)).max(0.0)
}

impl<'a> State<'a> {
    fn new(s: &'a SerialScenario) -> State<'a> {
        let mut core_cluster = Vec::new();
        let mut idle = Vec::new();
        for (j, &n) in s.cores.iter().enumerate() {
            let first = core_cluster.len();
            idle.push((first..first + n as usize).collect());
            core_cluster.extend(std::iter::repeat_n(j, n as usize));
        }
        State {
            s,
            now: 0.0,
            running: vec![None; core_cluster.len()],
            core_cluster,
            idle,
            groups: Vec::new(),
            fresh: FreshIndex::new(s),
            fates: vec![TaskFate::Unfinished; s.tasks.len()],
            inside: vec![0.0; s.tasks.len()],
            completions: BinaryHeap::new(),
            pieces: Vec::new(),
            preemptions: 0,
            version: 0,
            victims: None,
            fastest: s.types.iter().map(super::task::TaskType::fastest).collect(),
        }
    }

    /// Number of clusters.
    pub fn clusters(&self) -> usize {
        self.s.cores.len()
    }

    /// Idle cores of cluster `j`.
    pub fn idle(&self, j: usize) -> usize {
        self.idle[j].len()
    }

    /// Idle cores in the whole system.
    pub fn idle_total(&self) -> usize {
        self.idle.iter().map(BTreeSet::len).sum()
    }

    /// Whether any task is waiting.
    pub fn any_waiting(&self) -> bool {
        self.groups.iter().any(|g| !g.is_empty())
    }

    /// Starts the next task of group `g` on the lowest idle core of cluster
    /// `j`; returns that core (global index). The caller has checked that
    /// `j` has an idle core and that the group may run there.
    pub fn start_idle(&mut self, g: usize, j: usize) -> usize {
        let core = self.idle[j]
            .pop_first()
            .expect("start_idle: the heuristic checked the cluster has an idle core");
        self.start_on(g, core);
        core
    }

    /// Preempts a member of victim class `v` (its lowest core) and starts
    /// the next task of group `g` there. The preempted task joins a new
    /// group, or, when it started at this very event, goes back to the
    /// group it came from: that group's index is returned.
    pub fn start_preempting(&mut self, g: usize, v: usize) -> Option<usize> {
        let victims = self.victims.as_mut().expect("victims built for this event");
        let core = victims.classes[v]
            .cores
            .pop()
            .expect("start_preempting: the heuristic checked the class is not empty");
        let back = self.preempt(core);
        self.start_on(g, core);
        back
    }

    /// Sets group `g`'s [`Group::ceiling`].
    pub fn set_ceiling(&mut self, g: usize, ceiling: f64) {
        self.groups[g].ceiling = ceiling;
    }

    /// The lowest objective of any victim at this event (+∞ without one).
    pub fn weakest_victim(&self) -> f64 {
        (0..self.clusters())
            .filter_map(|j| self.min_victim(j))
            .map(|v| self.victim_classes()[v].objective)
            .fold(f64::INFINITY, f64::min)
    }

    /// The victim classes of this event (built by [`State::build_victims`]).
    pub fn victim_classes(&self) -> &[VictimClass] {
        self.victims.as_ref().map_or(&[], |v| &v.classes)
    }

    /// The victim classes of cluster `j`, ascending objective (empty ones
    /// included).
    pub fn victims_of(&self, j: usize) -> &[usize] {
        self.victims.as_ref().map_or(&[], |v| &v.by_cluster[j])
    }

    /// The non-empty victim class of cluster `j` with the lowest objective.
    pub fn min_victim(&self, j: usize) -> Option<usize> {
        let v = self.victims.as_ref()?;
        v.by_cluster[j]
            .iter()
            .copied()
            .find(|&c| !v.classes[c].is_empty())
    }

    /// Groups every running preemptible task into victim classes, with
    /// `objective` evaluated at this event.
    pub fn build_victims(&mut self, objective_kind: Objective) {
        let mut v = Victims {
            objective: Some(objective_kind),
            by_cluster: vec![Vec::new(); self.clusters()],
            ..Victims::default()
        };
        // Cores are visited in ascending order, so each class's cores are
        // collected lowest first and reversed at the end. A burst started
        // at one event sits on neighbouring cores: the class of the last
        // core is tried before the index.
        let mut last: Option<(usize, VictimKey, usize)> = None;
        for core in 0..self.running.len() {
            let Some(r) = self.running[core] else {
                continue;
            };
            let t = &self.s.tasks[r.task];
            if !t.preemptible {
                continue;
            }
            let j = self.core_cluster[core];
            let (key, ret) = Self::victim_key(t, r, self.now);
            let c = match last {
                Some((lj, lkey, c)) if lj == j && lkey == key => c,
                _ => match v.index.get(&(j, key)) {
                    Some(&c) => c,
                    None => Self::new_class(&mut v, j, key, t, ret, self.now),
                },
            };
            v.classes[c].cores.push(core);
            last = Some((j, key, c));
        }
        for class in &mut v.classes {
            class.cores.reverse();
        }
        for j in 0..self.clusters() {
            Self::sort_cluster(&mut v, j);
        }
        self.victims = Some(v);
    }

    /// The key of the victim class of task `t` running as `r` at `now`, and
    /// its remaining execution time then (s). Tasks started at this event
    /// form classes of their own.
    fn victim_key(t: &SerialTask, r: Running, now: f64) -> (VictimKey, f64) {
        let ret = r.ret - (now - r.start);
        ((t.burst, ret.to_bits(), r.start == now), ret)
    }

    /// Adds an empty victim class of cluster `j` for task `t` with `ret`
    /// seconds left; returns its index.
    fn new_class(
        v: &mut Victims,
        j: usize,
        key: VictimKey,
        t: &SerialTask,
        ret: f64,
        now: f64,
    ) -> usize {
        let kind = v.objective.unwrap_or(Objective::Util);
        let c = v.classes.len();
        v.classes.push(VictimClass {
            cluster: j,
            cores: Vec::new(),
            arrival: t.arrival,
            utility: t.utility,
            ret,
            objective: objective(kind, &t.utility, t.arrival, now, ret),
            key,
        });
        v.index.insert((j, key), c);
        c
    }

    fn add_victim(
        v: &mut Victims,
        s: &SerialScenario,
        j: usize,
        core: usize,
        r: Running,
        now: f64,
    ) {
        let t = &s.tasks[r.task];
        if !t.preemptible {
            return;
        }
        let (key, ret) = Self::victim_key(t, r, now);
        let c = match v.index.get(&(j, key)) {
            Some(&c) => c,
            None => Self::new_class(v, j, key, t, ret, now),
        };
        let cores = &mut v.classes[c].cores;
        let at = cores.partition_point(|&x| x > core);
        cores.insert(at, core);
    }

    fn sort_cluster(v: &mut Victims, j: usize) {
        let classes = &v.classes;
        let mut ids: Vec<usize> = (0..classes.len())
            .filter(|&c| classes[c].cluster == j)
            .collect();
        ids.sort_by(|&a, &b| {
            let (x, y) = (&classes[a], &classes[b]);
            x.objective.total_cmp(&y.objective).then(x.key.cmp(&y.key))
        });
        v.by_cluster[j] = ids;
    }

    fn start_on(&mut self, g: usize, core: usize) {
        let group = &mut self.groups[g];
        let task = group
            .tasks
            .pop()
            .expect("a heuristic starts a task of a non-empty group");
        let j = self.core_cluster[core];
        let prior = group.bound;
        let ret = match prior {
            Some((_, r)) => r,
            None => self.s.etc(task, j),
        };
        self.version += 1;
        let r = Running {
            task,
            start: self.now,
            ret,
            prior,
            version: self.version,
        };
        self.running[core] = Some(r);
        self.completions
            .push(Reverse(((self.now + ret).to_bits(), core, self.version)));
        if let Some(v) = self.victims.as_mut() {
            let before = v.classes.len();
            Self::add_victim(v, self.s, j, core, r, self.now);
            if v.classes.len() > before {
                Self::insert_sorted(v, j, before);
            }
        }
    }

    fn insert_sorted(v: &mut Victims, j: usize, c: usize) {
        let classes = &v.classes;
        let x = &classes[c];
        let at = v.by_cluster[j].partition_point(|&y| {
            let y = &classes[y];
            y.objective
                .total_cmp(&x.objective)
                .then(y.key.cmp(&x.key))
                .is_lt()
        });
        v.by_cluster[j].insert(at, c);
    }

    /// Stops the task on `core` at `now`: a piece ends and the task becomes
    /// a preempted, mappable task of its cluster; a task started at this
    /// very event goes back to what it was.
    fn preempt(&mut self, core: usize) -> Option<usize> {
        let r = self.running[core]
            .take()
            .expect("a victim core runs a task");
        let j = self.core_cluster[core];
        let t = &self.s.tasks[r.task];
        let (bound, key) = if r.start < self.now {
            let ran = self.now - r.start;
            self.record_piece(r.task, core, r.start, self.now);
            self.preemptions += 1;
            (Some((j, r.ret - ran)), None)
        } else {
            match r.prior {
                None => (None, Some((t.burst, t.can_preempt, t.preemptible))),
                prior => (prior, None),
            }
        };
        if let Some(key) = key
            && let Some(g) = self.fresh.get(key)
        {
            let tasks = &mut self.groups[g].tasks;
            let at = tasks.partition_point(|&x| x > r.task);
            tasks.insert(at, r.task);
            return Some(g);
        }
        self.groups.push(Group {
            tasks: vec![r.task],
            arrival: t.arrival,
            utility: t.utility,
            task_type: t.task_type,
            bound,
            can_preempt: t.can_preempt,
            preemptible: t.preemptible,
            fresh: key,
            ceiling: f64::INFINITY,
        });
        if let Some(key) = key {
            self.fresh.insert(key, self.groups.len() - 1);
        }
        None
    }

    fn record_piece(&mut self, task: usize, core: usize, start: f64, end: f64) {
        let (cluster, c) = self.s.locate(core);
        self.inside[task] += overlap(start, end, self.s.window);
        self.pieces.push(SerialPiece {
            task,
            cluster,
            core: c,
            start,
            end,
        });
    }

    fn complete_until(&mut self, now: f64) {
        while let Some(&Reverse((bits, core, version))) = self.completions.peek() {
            let end = f64::from_bits(bits);
            if end > now {
                break;
            }
            self.completions.pop();
            let Some(r) = self.running[core] else {
                continue;
            };
            if r.version != version {
                continue;
            }
            self.running[core] = None;
            self.record_piece(r.task, core, r.start, end);
            let cluster = self.core_cluster[core];
            self.fates[r.task] = TaskFate::Completed { at: end, cluster };
            self.idle[cluster].insert(core);
        }
    }

    fn arrive_until(&mut self, next: &mut usize, now: f64) {
        let tasks = &self.s.tasks;
        while *next < tasks.len() && tasks[*next].arrival <= now {
            let t = &tasks[*next];
            let key = (t.burst, t.can_preempt, t.preemptible);
            match self.fresh.get(key) {
                Some(g) => self.groups[g].tasks.insert(0, *next),
                None => {
                    self.fresh.insert(key, self.groups.len());
                    self.groups.push(Group {
                        tasks: vec![*next],
                        arrival: t.arrival,
                        utility: t.utility,
                        task_type: t.task_type,
                        bound: None,
                        can_preempt: t.can_preempt,
                        preemptible: t.preemptible,
                        fresh: Some(key),
                        ceiling: f64::INFINITY,
                    });
                }
            }
            *next += 1;
        }
    }

    /// Removes the groups emptied at the last event and re-indexes.
    fn compact(&mut self) {
        if !self.groups.iter().any(Group::is_empty) {
            return;
        }
        for key in self.groups.iter().filter_map(|g| g.fresh) {
            self.fresh.clear(key);
        }
        self.groups.retain(|g| !g.is_empty());
        for (i, g) in self.groups.iter().enumerate() {
            if let Some(key) = g.fresh {
                self.fresh.insert(key, i);
            }
        }
    }

    /// Drops every mappable task that can never earn again (§III.B).
    fn drop_hopeless(&mut self) {
        let now = self.now;
        for g in &mut self.groups {
            let best = match g.bound {
                Some((_, ret)) => ret,
                None => self.fastest[g.task_type],
            };
            if now + best - g.arrival > g.utility.last_positive() {
                for &t in &g.tasks {
                    self.fates[t] = TaskFate::Dropped { at: now };
                }
                g.tasks.clear();
            }
        }
    }

    /// Whether a task that ran inside the window is still unfinished.
    fn counted_open(&self) -> bool {
        let w = self.s.window;
        self.running
            .iter()
            .flatten()
            .any(|r| self.inside[r.task] > 0.0 || overlap(r.start, self.now, w) > 0.0)
            || self
                .groups
                .iter()
                .any(|g| g.bound.is_some() && g.tasks.iter().any(|&t| self.inside[t] > 0.0))
    }
}

/// Simulates `s`, `heuristic` mapping at every mapping event (a fresh
/// heuristic object per run: `Policy::build`).
pub fn run(s: &SerialScenario, heuristic: &mut dyn Heuristic) -> SerialRun {
    let mut st = State::new(s);
    let mut next = 0;
    let mut events = 0u64;
    let (mut total, mut max) = (0.0_f64, 0.0_f64);
    let last_arrival = s.tasks.last().map_or(0.0, |t| t.arrival);
    let mut k = 0u64;
    loop {
        let now = k as f64 * s.event_interval;
        st.now = now;
        st.complete_until(now);
        st.arrive_until(&mut next, now);
        st.compact();
        if now >= s.window.1 && now >= last_arrival && !st.counted_open() {
            break;
        }
        st.drop_hopeless();
        let t = Instant::now();
        heuristic.map(&mut st);
        st.victims = None;
        let dt = t.elapsed().as_secs_f64();
        total += dt;
        max = max.max(dt);
        events += 1;
        k += 1;
    }
    // Tasks still running when the run ends: their last piece, unfinished.
    for core in 0..st.running.len() {
        if let Some(r) = st.running[core].take()
            && st.now > r.start
        {
            st.record_piece(r.task, core, r.start, st.now);
        }
    }
    SerialRun {
        fates: st.fates,
        pieces: st.pieces,
        preemptions: st.preemptions,
        events,
        end: st.now,
        heuristic_seconds: (total / events.max(1) as f64, max),
    }
}
