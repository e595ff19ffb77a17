//! Preempt Pair (Machovec et al. 2017, §III.E.4, Algorithm 3): Max Util
//! Preempt Pair and Max UPT Preempt Pair at one mapping event.
//!
//! Phase 1 gives every mappable group two options: its best idle core (the
//! highest objective over the clusters with an idle core) and its best pair
//! (over every victim class, both orders of the candidate and the victim on
//! one core, the order of the higher combined objective). The pair wins when
//! its net beats the candidate on the idle core plus the victim going on
//! undisturbed (lines 8–15). Phase 2 takes the group of the highest score
//! (the candidate's own objective in its choice; then the earlier arrival,
//! then the lower task) and preempts, starts it on the idle core, or marks
//! it waiting when its pair puts it second (lines 16–22), and repeats until
//! no group has a choice.
//!
//! # What is kept during the event, and what invalidates it
//!
//! An event changes the system in three ways only: a cluster's idle cores
//! run out (idle cores are only taken during an event), a victim class
//! loses its last member (classes are only emptied: the victims are the
//! tasks running when the event began), and a preempted task becomes a new
//! group. Objectives are evaluated at the event's time, so each group's
//! objective row is computed once. Per group the event keeps:
//!
//! - its best pairs ([`Pairs`]): the [`KEPT`] best (victim class, order)
//!   options when they were last searched, ranked by net, then by the order
//!   the search visits them (clusters in ascending order, classes in
//!   descending victim objective). The classes still holding a member only
//!   shrink, so the best pair now is the first kept option whose class is
//!   not empty, as long as one is left (an option not kept ranks below every
//!   kept one); only when every kept class has emptied, and the search had
//!   left options out, is the search done again;
//! - its choice and its entry in the phase-2 queue ([`KeyedHeap`], one
//!   entry per group, its key replaced in place);
//! - under which cluster and class it is listed: the choice of a group can
//!   only change when the cluster of its chosen idle core runs out of idle
//!   cores (the best idle core of a group choosing its pair can get worse
//!   without changing the choice: the pair only wins more clearly), or when
//!   the class of its best pair empties. Exactly those groups are evaluated
//!   again, and their keys move in the queue.
//!
//! The best idle core needs no cache: it is found again from the row and
//! the clusters' idle cores whenever a choice is evaluated (a few clusters).
//! The victim classes a search visits are listed once per cluster, in
//! visit order, with the first that may still hold a member ([`Victims`]),
//! so a search skips neither the classes of tasks started at this event nor
//! the emptied ones at the top one by one. The event ends as soon as no
//! queued group would start a task: the others would only be marked
//! waiting, which changes nothing.
//!
//! # Why the choices are those of the from-scratch computation
//!
//! Recomputing every group's options from scratch after every assignment
//! gives the same options as above: the best idle core only changes when
//! its cluster runs out; the search for the best pair returns the first
//! option of the highest net in visit order, and that is the first kept
//! option still available (ties keep their visit order in the kept list,
//! and the search leaves out only options that rank after every kept one:
//! its bound `o + victim objective` is computed with the same floating-point
//! additions as either order's net, which it bounds because utility never
//! rises). Every score and net is computed by the same expressions, on the
//! same operands, in the same order as before, so ties between equal
//! floating-point values break the same way. The queue pops the greatest
//! key over the groups' current choices, as the from-scratch loop takes
//! the greatest; no two groups share a key (they never share a next task).
//!
//! One rule keeps an event finite, where Algorithm 3 is silent: the victims
//! are the tasks running when the event began (a task started at this event
//! is not preempted at it). Pair's orders are pairwise and need not be
//! transitive, so without it tasks can displace one another in a cycle; with
//! it, each running task is preempted at most once per event. A preempted
//! task is mappable again at once, as in the paper.

use super::engine::{Group, State, objective};
use super::queue::{Choice, KeyedHeap, Queued, Target};
use super::task::Objective;

/// A group's pair option: the net objective of the two tasks on the
/// victim's core (value units, or value units per second for UPT), the
/// victim class, whether the candidate goes first, and the candidate's own
/// objective in that order.
#[derive(Debug, Clone, Copy)]
struct PairOption {
    net: f64,
    class: usize,
    first: bool,
    own: f64,
}

/// Both orders of group `g` (RET `e` on the victim's cluster, s; objective
/// `o` if it starts now) and victim class `v` on one core (Algorithm 3,
/// line 6): the one of the higher combined objective. When running the
/// victim first gives at least as much, "preemption is not considered for
/// that core" (Machovec et al., §III.E.4) — even if the candidate would
/// then earn nothing going second: such a pair can still be its best (the
/// candidate then waits), but never wins against an idle core where it
/// earns.
fn pair_with(st: &State<'_>, kind: Objective, g: &Group, e: f64, o: f64, v: usize) -> PairOption {
    let victim = &st.victim_classes()[v];
    // Candidate first: it completes at now + e, the victim after it.
    let later_victim = objective(
        kind,
        &victim.utility,
        victim.arrival,
        st.now + e,
        victim.ret,
    );
    let first = o + later_victim;
    // Victim first: it completes at now + ret, the candidate after it.
    let later_own = objective(kind, &g.utility, g.arrival, st.now + victim.ret, e);
    let second = victim.objective + later_own;
    if second >= first {
        PairOption {
            net: second,
            class: v,
            first: false,
            own: later_own,
        }
    } else {
        PairOption {
            net: first,
            class: v,
            first: true,
            own: o,
        }
    }
}

/// How many of its best pairs a group keeps.
const KEPT: usize = 2;

/// A pair option and where the search of [`best_pairs`] meets it in the
/// visit order of the from-scratch search: its cluster, then its place
/// among that cluster's classes in descending victim objective.
#[derive(Debug, Clone, Copy)]
struct Ranked {
    option: PairOption,
    at: (usize, usize),
}

impl Ranked {
    /// Whether `self` ranks before `other`: a higher net, then earlier in
    /// visit order.
    fn before(&self, other: &Ranked) -> bool {
        self.option.net > other.option.net
            || (self.option.net == other.option.net && self.at < other.at)
    }
}

/// A group's [`KEPT`] best pair options when last searched, best first
/// (higher net, then earlier in visit order). When the last slot is empty
/// the search kept every option it had.
#[derive(Debug, Clone, Copy, Default)]
struct Pairs {
    best: [Option<Ranked>; KEPT],
}

impl Pairs {
    /// Whether the search may have left options out.
    fn full(&self) -> bool {
        self.best[KEPT - 1].is_some()
    }

    /// Ranks `p` among the kept options.
    fn offer(&mut self, p: Ranked) {
        for k in 0..KEPT {
            match self.best[k] {
                Some(b) if !p.before(&b) => {}
                _ => {
                    self.best[k..].rotate_right(1);
                    self.best[k] = Some(p);
                    return;
                }
            }
        }
    }

    /// Whether every option of a cluster from place `at` on, none of
    /// whose nets exceeds `bound`, ranks after every kept one.
    fn excludes(&self, bound: f64, at: (usize, usize)) -> bool {
        self.best[KEPT - 1].is_some_and(|last| {
            bound < last.option.net || (bound == last.option.net && at > last.at)
        })
    }

    /// The kept options, best first.
    fn options(&self) -> impl Iterator<Item = PairOption> + '_ {
        self.best.iter().flatten().map(|r| r.option)
    }
}

/// Where the search of one cluster starts: its first candidate class (the
/// highest victim objective) and the bound it gives.
#[derive(Debug, Clone, Copy)]
struct Start {
    bound: f64,
    cluster: usize,
    place: usize,
    ret: f64,
    own: f64,
}

/// The best pairs of group `g` over every non-empty victim class that
/// existed when the event began (class index below `before`; Algorithm 3,
/// lines 5–7).
///
/// Either order's net is at most `o + victim objective` (utility never
/// rises; floating-point addition is monotone and commutative, so the
/// bound holds for the computed values too). The from-scratch search visits
/// clusters in ascending order and each cluster's classes in descending
/// victim objective, and keeps the first option of the highest net; this
/// search ranks options the same way (net, then that visit order) but
/// visits the clusters of the highest bound first, and leaves a cluster once
/// its bound shows that no option left in it can rank before the last kept
/// one. `starts` is scratch space.
fn best_pairs(
    st: &State<'_>,
    kind: Objective,
    g: &Group,
    row: &[f64],
    victims: &Victims,
    starts: &mut Vec<Start>,
) -> Pairs {
    let classes = st.victim_classes();
    starts.clear();
    for (j, &o) in row.iter().enumerate() {
        if o <= 0.0 {
            continue;
        }
        let Some(e) = g.ret(st.s, j) else { continue };
        let Some(place) = victims.first(st, j) else {
            continue;
        };
        starts.push(Start {
            bound: o + classes[victims.of[j][place]].objective,
            cluster: j,
            place,
            ret: e,
            own: o,
        });
    }
    starts.sort_by(|a, b| b.bound.total_cmp(&a.bound).then(a.cluster.cmp(&b.cluster)));
    let mut pairs = Pairs::default();
    for start in starts.iter() {
        let (j, o) = (start.cluster, start.own);
        for (place, &v) in victims.of[j].iter().enumerate().skip(start.place) {
            if classes[v].is_empty() {
                continue;
            }
            if pairs.excludes(o + classes[v].objective, (j, place)) {
                break;
            }
            pairs.offer(Ranked {
                option: pair_with(st, kind, g, start.ret, o, v),
                at: (j, place),
            });
        }
    }
    pairs
}

/// The victim classes a group may pair with at this event: those that
/// existed when it began, per cluster in descending victim objective (the
/// visit order of the search), and per cluster the first that may still
/// hold a member.
#[derive(Debug, Default)]
struct Victims {
    of: Vec<Vec<usize>>,
    head: Vec<usize>,
}

impl Victims {
    fn new(st: &State<'_>) -> Victims {
        let before = st.victim_classes().len();
        let of: Vec<Vec<usize>> = (0..st.clusters())
            .map(|j| {
                st.victims_of(j)
                    .iter()
                    .rev()
                    .copied()
                    .filter(|&v| v < before)
                    .collect()
            })
            .collect();
        let mut victims = Victims {
            head: vec![0; of.len()],
            of,
        };
        for j in 0..victims.of.len() {
            victims.emptied(st, j);
        }
        victims
    }

    /// The place of cluster `j`'s first non-empty class.
    fn first(&self, st: &State<'_>, j: usize) -> Option<usize> {
        let classes = st.victim_classes();
        (self.head[j]..self.of[j].len()).find(|&k| !classes[self.of[j][k]].is_empty())
    }

    /// A class of cluster `j` emptied: moves its head past empty classes.
    fn emptied(&mut self, st: &State<'_>, j: usize) {
        let classes = st.victim_classes();
        while self.head[j] < self.of[j].len() && classes[self.of[j][self.head[j]]].is_empty() {
            self.head[j] += 1;
        }
    }
}

/// The best idle cluster of a group: the highest objective (lower cluster
/// on ties).
fn best_idle(st: &State<'_>, row: &[f64]) -> Option<(usize, f64)> {
    let mut best: Option<(usize, f64)> = None;
    for (j, &o) in row.iter().enumerate() {
        if o > 0.0 && st.idle(j) > 0 && best.is_none_or(|(_, b)| o > b) {
            best = Some((j, o));
        }
    }
    best
}

/// The choice of a group from its best idle core and best pair
/// (Algorithm 3, lines 8–15): the pair when its net beats the candidate on
/// the idle core plus the victim going on undisturbed.
fn choose(st: &State<'_>, idle: Option<(usize, f64)>, pair: Option<PairOption>) -> Option<Choice> {
    let from_pair = |p: PairOption| Choice {
        score: p.own,
        target: if p.first {
            Target::Victim(p.class)
        } else {
            Target::Wait
        },
    };
    let from_idle = |(j, o): (usize, f64)| Choice {
        score: o,
        target: Target::Idle(j),
    };
    match (idle, pair) {
        (None, None) => None,
        (Some(i), None) => Some(from_idle(i)),
        (None, Some(p)) => Some(from_pair(p)),
        (Some(i), Some(p)) => {
            let victim = st.victim_classes()[p.class].objective;
            if p.net > i.1 + victim {
                Some(from_pair(p))
            } else {
                Some(from_idle(i))
            }
        }
    }
}

/// Whether a choice starts a task at this event (on an idle core or by
/// preempting), rather than waiting or having none.
fn starts_task(choice: Option<Choice>) -> bool {
    choice.is_some_and(|c| c.target != Target::Wait)
}

/// What one event keeps per group.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    pairs: Pairs,
    /// Its choice when last evaluated (`None`: none, waiting or empty).
    choice: Option<Choice>,
    /// Decided to wait for a later event.
    waiting: bool,
    /// The cluster whose list holds it (its chosen idle core's, when
    /// listed).
    idle_listed: Option<usize>,
    /// The class whose list holds it (its best pair's, when listed).
    class_listed: Option<usize>,
}

/// The state of Pair during one event.
struct Event {
    kind: Objective,
    clusters: usize,
    /// Per group, its objective on every cluster at this event (0 where it
    /// may not run or would earn nothing).
    rows: Vec<f64>,
    slots: Vec<Slot>,
    /// Per cluster, groups whose choice was an idle core there (some may
    /// have chosen otherwise since: checked on use).
    by_idle: Vec<Vec<usize>>,
    /// Per victim class, groups whose best pair was with it.
    by_class: Vec<Vec<usize>>,
    queue: KeyedHeap,
    /// Queued groups whose choice is to start a task (not to wait).
    actors: usize,
    /// Scratch space of [`best_pairs`].
    starts: Vec<Start>,
    victims: Victims,
}

impl Event {
    fn new(st: &State<'_>, kind: Objective) -> Event {
        let before = st.victim_classes().len();
        Event {
            kind,
            clusters: st.clusters(),
            rows: Vec::with_capacity(st.groups.len() * st.clusters()),
            slots: Vec::with_capacity(st.groups.len()),
            by_idle: vec![Vec::new(); st.clusters()],
            by_class: vec![Vec::new(); before],
            queue: KeyedHeap::default(),
            actors: 0,
            starts: Vec::new(),
            victims: Victims::new(st),
        }
    }

    /// Takes in the groups that appeared since the last call: their rows,
    /// best pairs and choices.
    fn add_groups(&mut self, st: &State<'_>) {
        for g in self.slots.len()..st.groups.len() {
            let group = &st.groups[g];
            for j in 0..self.clusters {
                self.rows.push(match group.ret(st.s, j) {
                    Some(ret) => objective(self.kind, &group.utility, group.arrival, st.now, ret),
                    None => 0.0,
                });
            }
            let pairs = if group.can_preempt {
                let row = &self.rows[g * self.clusters..(g + 1) * self.clusters];
                best_pairs(st, self.kind, group, row, &self.victims, &mut self.starts)
            } else {
                Pairs::default()
            };
            self.slots.push(Slot {
                pairs,
                ..Slot::default()
            });
            self.evaluate(st, g);
        }
    }

    fn row(&self, g: usize) -> &[f64] {
        &self.rows[g * self.clusters..(g + 1) * self.clusters]
    }

    /// The best pair of group `g` now: the first kept option whose class is
    /// not empty, searching again when none is left and some were left out.
    fn current_pair(&mut self, st: &State<'_>, g: usize) -> Option<PairOption> {
        let classes = st.victim_classes();
        let pairs = &self.slots[g].pairs;
        if let Some(p) = pairs.options().find(|p| !classes[p.class].is_empty()) {
            return Some(p);
        }
        if !pairs.full() {
            return None;
        }
        let row = &self.rows[g * self.clusters..(g + 1) * self.clusters];
        let pairs = best_pairs(
            st,
            self.kind,
            &st.groups[g],
            row,
            &self.victims,
            &mut self.starts,
        );
        self.slots[g].pairs = pairs;
        pairs.options().next()
    }

    /// Evaluates group `g`'s choice, lists it under its idle cluster and
    /// pair class, and sets its entry in the queue.
    fn evaluate(&mut self, st: &State<'_>, g: usize) {
        let group = &st.groups[g];
        let choice = match group.next_task() {
            Some(_) if !self.slots[g].waiting => {
                let idle = best_idle(st, self.row(g));
                let pair = if group.can_preempt {
                    self.current_pair(st, g)
                } else {
                    None
                };
                if let Some(p) = pair
                    && self.slots[g].class_listed != Some(p.class)
                {
                    self.by_class[p.class].push(g);
                    self.slots[g].class_listed = Some(p.class);
                }
                choose(st, idle, pair)
            }
            _ => None,
        };
        if let Some(Choice {
            target: Target::Idle(j),
            ..
        }) = choice
            && self.slots[g].idle_listed != Some(j)
        {
            self.by_idle[j].push(g);
            self.slots[g].idle_listed = Some(j);
        }
        if self.queue.contains(g) && starts_task(self.slots[g].choice) {
            self.actors -= 1;
        }
        if starts_task(choice) {
            self.actors += 1;
        }
        self.slots[g].choice = choice;
        let key = choice.map(|c| Queued {
            score: c.score,
            arrival: group.arrival,
            task: group.next_task().expect("a group with a choice has a task"),
            group: g,
            exact: true,
        });
        self.queue.set(g, key);
    }

    /// Cluster `j` ran out of idle cores: evaluates again the groups that
    /// chose an idle core there.
    fn cluster_full(&mut self, st: &State<'_>, j: usize) {
        for h in std::mem::take(&mut self.by_idle[j]) {
            if self.slots[h].idle_listed != Some(j) {
                continue;
            }
            self.slots[h].idle_listed = None;
            if matches!(self.slots[h].choice, Some(c) if c.target == Target::Idle(j)) {
                self.evaluate(st, h);
            }
        }
    }

    /// Victim class `v` lost its last member: evaluates again the groups
    /// whose best pair was with it.
    fn class_empty(&mut self, st: &State<'_>, v: usize) {
        self.victims.emptied(st, st.victim_classes()[v].cluster);
        for h in std::mem::take(&mut self.by_class[v]) {
            if self.slots[h].class_listed != Some(v) {
                continue;
            }
            self.slots[h].class_listed = None;
            self.evaluate(st, h);
        }
    }
}

/// Runs Preempt Pair (Algorithm 3) with objective `kind` at one mapping
/// event; the caller has built the victim classes.
pub(super) fn map(st: &mut State<'_>, kind: Objective) {
    let mut ev = Event::new(st, kind);
    loop {
        ev.add_groups(st);
        // The groups left would only be marked waiting: nothing changes.
        if ev.actors == 0 {
            return;
        }
        let top = ev
            .queue
            .pop()
            .expect("a group that starts a task is queued");
        let g = top.group;
        let choice = ev.slots[g].choice.expect("a queued group has a choice");
        if starts_task(Some(choice)) {
            ev.actors -= 1;
        }
        match choice.target {
            Target::Idle(j) => {
                st.start_idle(g, j);
                if st.idle(j) == 0 {
                    ev.cluster_full(st, j);
                }
            }
            Target::Victim(v) => {
                let back = st.start_preempting(g, v);
                if st.victim_classes()[v].is_empty() {
                    ev.class_empty(st, v);
                }
                // A task started at this event goes back to its group; the
                // victims of Pair all ran before it, so this never happens.
                if let Some(b) = back {
                    ev.evaluate(st, b);
                }
            }
            Target::Wait => ev.slots[g].waiting = true,
        }
        ev.evaluate(st, g);
    }
}

#[cfg(test)]
mod tests;
