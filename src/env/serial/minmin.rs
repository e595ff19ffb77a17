//! The utility-aware heuristics of environment B as one two-phase Min-Min
//! loop (Ibarra and Kim 1977) given an [`Objective`] (Util or UPT) and a
//! [`Preemption`] technique (Machovec et al., §III.D–E, Algorithms 1–3).
//!
//! Phase 1 finds, for every mappable group, its best core; phase 2 takes
//! the group whose best is the highest and maps its next task there. The
//! loop repeats until no group has a valid choice. A core is "idle" or
//! "running a preemptible task" (a victim); cores of a cluster are alike,
//! so phase 1 looks at one idle core per cluster and at one member of each
//! victim class ([`super::engine::VictimClass`]).
//!
//! Ties are broken the same way everywhere: in phase 1 an idle core beats
//! a victim, a victim of lower objective beats one of higher, a lower
//! cluster beats a higher; in phase 2 the earlier arrival, then the lower
//! task index. No choice ever earns zero utility (§III.B).

use super::engine::{Group, Heuristic, State, objective};
use super::{Objective, Preemption};

/// The Min-Min heuristic of `objective` × `preemption` (the eight
/// utility-aware heuristics of the registry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinMin {
    /// What it maximises.
    pub objective: Objective,
    /// How it preempts.
    pub preemption: Preemption,
}

impl Heuristic for MinMin {
    fn map(&mut self, st: &mut State<'_>) {
        map(st, self.objective, self.preemption);
    }
}

/// Where a candidate goes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Target {
    /// An idle core of this cluster.
    Idle(usize),
    /// A member of this victim class, preempted.
    Victim(usize),
    /// Nowhere at this event: its best pair puts it second (Pair only).
    Wait,
}

/// A group's best choice: the phase-2 score and where it goes.
#[derive(Debug, Clone, Copy)]
struct Choice {
    score: f64,
    target: Target,
}

/// Runs the Min-Min heuristic `objective` × `preemption` at one mapping
/// event.
fn map(st: &mut State<'_>, kind: Objective, preemption: Preemption) {
    if preemption == Preemption::None {
        if st.idle_total() > 0 {
            single(st, kind, preemption);
        }
        return;
    }
    st.build_victims(kind);
    match preemption {
        Preemption::Pair => pair(st, kind),
        _ => single(st, kind, preemption),
    }
}

/// The objective of every group on every cluster at this event (0 where
/// it may not run or would earn nothing), extended as groups appear.
fn extend_table(st: &State<'_>, kind: Objective, table: &mut Vec<f64>) {
    let clusters = st.clusters();
    for g in &st.groups[table.len() / clusters..] {
        for j in 0..clusters {
            table.push(match g.ret(st.s, j) {
                Some(ret) => objective(kind, &g.utility, g.arrival, st.now, ret),
                None => 0.0,
            });
        }
    }
}

/// A group's place in the phase-2 queue: its best choice's score when it
/// was last evaluated at this event (`exact`), or its ceiling; its arrival
/// and next task (the tie-breaks). Entries compare by key only.
#[derive(Debug, Clone, Copy)]
struct Queued {
    score: f64,
    arrival: f64,
    task: usize,
    group: usize,
    exact: bool,
}

impl PartialEq for Queued {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Queued {}

impl Ord for Queued {
    /// Higher score first, then the earlier arrival, then the lower task.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.score
            .total_cmp(&other.score)
            .then(other.arrival.total_cmp(&self.arrival))
            .then(other.task.cmp(&self.task))
    }
}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The objectives of group `g` on every cluster at this event (0 where it
/// may not run or would earn nothing), computed once per event; the group's
/// ceiling is brought down to their maximum.
fn row<'t>(st: &mut State<'_>, kind: Objective, rows: &'t mut Rows, g: usize) -> &'t [f64] {
    let clusters = st.clusters();
    if rows.have.len() <= g {
        rows.have.resize(st.groups.len(), false);
        rows.values.resize(st.groups.len() * clusters, 0.0);
    }
    if !rows.have[g] {
        let group = &st.groups[g];
        let mut best: f64 = 0.0;
        for j in 0..clusters {
            let o = match group.ret(st.s, j) {
                Some(ret) => objective(kind, &group.utility, group.arrival, st.now, ret),
                None => 0.0,
            };
            rows.values[g * clusters + j] = o;
            best = best.max(o);
        }
        rows.have[g] = true;
        st.set_ceiling(g, best);
    }
    &rows.values[g * clusters..(g + 1) * clusters]
}

/// The objective rows of the groups looked at during one event.
#[derive(Debug, Default)]
struct Rows {
    values: Vec<f64>,
    have: Vec<bool>,
}

/// Max Util / Max UPT (Algorithm 1), Preempt Greedy (Algorithm 2) and
/// Preempt Diff (§III.E.3).
///
/// Phase 2 takes the group of the highest score, found lazily: the groups
/// wait in a max-heap keyed by an upper bound of their score — their
/// ceiling ([`Group::ceiling`]: objectives never rise over time), or the
/// score they had when last evaluated at this event (every assignment only
/// makes choices on its own cluster worse: one idle core fewer, the
/// weakest victim replaced by a task of higher objective). The top group is
/// evaluated; it is taken if its score still tops the heap, else it goes
/// back with its score. The choices are the same as re-scanning every
/// group at every step; only the groups near the top are ever evaluated.
/// A group that a preempted task joins, or that a task goes back to, is
/// queued again.
fn single(st: &mut State<'_>, kind: Objective, preemption: Preemption) {
    let mut rows = Rows::default();
    let mut heap = std::collections::BinaryHeap::new();
    let mut queued = 0;
    let clusters = st.clusters();
    let evaluate = |st: &mut State<'_>, rows: &mut Rows, g: usize| -> Option<(Queued, Choice)> {
        let task = st.groups[g].next_task()?;
        row(st, kind, rows, g);
        let row = &rows.values[g * clusters..(g + 1) * clusters];
        let group = &st.groups[g];
        let c = phase1(st, row, group.can_preempt, preemption)?;
        Some((
            Queued {
                score: c.score,
                arrival: group.arrival,
                task,
                group: g,
                exact: true,
            },
            c,
        ))
    };
    loop {
        for g in queued..st.groups.len() {
            let group = &st.groups[g];
            if let Some(task) = group.next_task() {
                heap.push(Queued {
                    score: group.ceiling,
                    arrival: group.arrival,
                    task,
                    group: g,
                    exact: false,
                });
            }
        }
        queued = st.groups.len();
        let Some(top) = heap.pop() else {
            return;
        };
        // With no idle core, nothing can go anywhere without preempting,
        // and a group preempts only a victim of lower objective: a group
        // whose ceiling is at most the weakest victim's objective cannot
        // (Greedy keys are objectives, so then none below it can either;
        // Diff keys of groups already evaluated are differences, which
        // stay queued).
        if st.idle_total() == 0 {
            let weakest = st.weakest_victim();
            match preemption {
                Preemption::None => return,
                Preemption::Greedy if top.score <= weakest => return,
                Preemption::Diff if !top.exact && top.score <= weakest => {
                    heap.retain(|q| q.exact);
                    continue;
                }
                _ => {}
            }
        }
        let Some((now, choice)) = evaluate(st, &mut rows, top.group) else {
            continue;
        };
        if now != top {
            heap.push(now);
            continue;
        }
        let g = top.group;
        let returned = match choice.target {
            Target::Idle(j) => {
                st.start_idle(g, j);
                None
            }
            Target::Victim(v) => st.start_preempting(g, v),
            Target::Wait => unreachable!("only Pair waits"),
        };
        for h in [Some(g), returned].into_iter().flatten() {
            if h < queued
                && let Some((q, _)) = evaluate(st, &mut rows, h)
            {
                heap.push(q);
            }
        }
    }
}

/// Phase 1 of Algorithms 1 and 2 for one group: its best core.
///
/// Greedy: the highest objective over idle cores and cores whose victim has
/// a lower objective than the candidate; on a tie an idle core, then the
/// victim of lowest objective. Diff: the same with the candidate's
/// objective minus the victim's (an idle core: the candidate's objective).
fn phase1(
    st: &State<'_>,
    row: &[f64],
    can_preempt: bool,
    preemption: Preemption,
) -> Option<Choice> {
    // (score, idle?, victim objective) ranks options; lower cluster wins ties.
    let mut best: Option<(Choice, bool, f64)> = None;
    for (j, &o) in row.iter().enumerate() {
        if o <= 0.0 {
            continue;
        }
        let option = if st.idle(j) > 0 {
            Some((
                Choice {
                    score: o,
                    target: Target::Idle(j),
                },
                true,
                0.0,
            ))
        } else if can_preempt && preemption != Preemption::None {
            st.min_victim(j).and_then(|v| {
                let victim = st.victim_classes()[v].objective;
                (o > victim).then(|| {
                    let score = if preemption == Preemption::Diff {
                        o - victim
                    } else {
                        o
                    };
                    (
                        Choice {
                            score,
                            target: Target::Victim(v),
                        },
                        false,
                        victim,
                    )
                })
            })
        } else {
            None
        };
        let Some(option) = option else {
            continue;
        };
        let better = match best {
            None => true,
            Some((b, b_idle, b_victim)) => option
                .0
                .score
                .total_cmp(&b.score)
                .then(option.1.cmp(&b_idle))
                .then(b_victim.total_cmp(&option.2))
                .is_gt(),
        };
        if better {
            best = Some(option);
        }
    }
    best.map(|b| b.0)
}

/// A group's pair option: the net objective of the two tasks on the
/// victim's core, the class, whether the candidate goes first, and the
/// candidate's own objective in that order.
#[derive(Debug, Clone, Copy)]
struct PairOption {
    net: f64,
    class: usize,
    first: bool,
    own: f64,
}

/// What Pair keeps per group between the iterations of one event.
#[derive(Debug, Clone, Copy, Default)]
struct PairCache {
    /// Best idle cluster and the candidate's objective there.
    idle: Option<(usize, f64)>,
    /// Best pair.
    pair: Option<PairOption>,
    /// Decided to wait for a later event.
    waiting: bool,
}

/// Both orders of group `g` (RET `e` on the victim's cluster, objective
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

/// The best pair of group `g` over every victim class (Algorithm 3, lines
/// 5–7). Classes are visited in descending victim objective per cluster,
/// and a cluster is left once `o + victim objective`, a bound on either
/// order's net, cannot beat the best found.
fn best_pair(
    st: &State<'_>,
    kind: Objective,
    g: &Group,
    row: &[f64],
    before: usize,
) -> Option<PairOption> {
    let mut best: Option<PairOption> = None;
    for (j, &o) in row.iter().enumerate() {
        if o <= 0.0 {
            continue;
        }
        let Some(e) = g.ret(st.s, j) else { continue };
        for &v in st.victims_of(j).iter().rev() {
            let class = &st.victim_classes()[v];
            if class.is_empty() || v >= before {
                continue;
            }
            if best.is_some_and(|b| o + class.objective <= b.net) {
                break;
            }
            let p = pair_with(st, kind, g, e, o, v);
            if best.is_none_or(|b| p.net > b.net) {
                best = Some(p);
            }
        }
    }
    best
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
fn pair_choice(st: &State<'_>, cache: &PairCache) -> Option<Choice> {
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
    match (cache.idle, cache.pair) {
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

/// Preempt Pair (Algorithm 3). Each group's best idle core and best pair
/// are kept for the whole event ([`PairCache`]) and recomputed only when
/// what they rest on goes: the cluster's last idle core, the victim class's
/// last member. Phase 2 takes the highest score from a max-heap holding
/// every group's current score (a popped entry whose group has since
/// changed is skipped; the change pushed a fresh one).
///
/// One rule keeps an event finite, where Algorithm 3 is silent: the
/// victims are the tasks running when the event began (a task started at
/// this event is not preempted at it). Pair's orders are pairwise and need
/// not be transitive, so without it tasks can displace one another in a
/// cycle; with it, each running task is preempted at most once per event.
/// A preempted task is mappable again at once, as in the paper.
fn pair(st: &mut State<'_>, kind: Objective) {
    let clusters = st.clusters();
    let before = st.victim_classes().len();
    let mut table = Vec::new();
    let mut caches: Vec<PairCache> = Vec::new();
    // Groups by the cluster of their best idle core, by their best pair's
    // class (entries may be stale: checked against the cache on use).
    let mut by_idle: Vec<Vec<usize>> = vec![Vec::new(); clusters];
    let mut by_class: Vec<Vec<usize>> = vec![Vec::new(); before];
    let mut heap = std::collections::BinaryHeap::new();
    let key = |st: &State<'_>, caches: &[PairCache], g: usize| -> Option<(Queued, Choice)> {
        let group = &st.groups[g];
        let task = group.next_task()?;
        if caches[g].waiting {
            return None;
        }
        let c = pair_choice(st, &caches[g])?;
        Some((
            Queued {
                score: c.score,
                arrival: group.arrival,
                task,
                group: g,
                exact: true,
            },
            c,
        ))
    };
    let index = |caches: &[PairCache],
                 g: usize,
                 by_idle: &mut Vec<Vec<usize>>,
                 by_class: &mut Vec<Vec<usize>>| {
        if let Some((j, _)) = caches[g].idle {
            by_idle[j].push(g);
        }
        if let Some(p) = caches[g].pair {
            by_class[p.class].push(g);
        }
    };
    loop {
        extend_table(st, kind, &mut table);
        for g in caches.len()..st.groups.len() {
            let group = &st.groups[g];
            let row = &table[g * clusters..(g + 1) * clusters];
            caches.push(PairCache {
                idle: best_idle(st, row),
                pair: if group.can_preempt {
                    best_pair(st, kind, group, row, before)
                } else {
                    None
                },
                waiting: false,
            });
            index(&caches, g, &mut by_idle, &mut by_class);
            if let Some((q, _)) = key(st, &caches, g) {
                heap.push(q);
            }
        }
        let Some(top) = heap.pop() else {
            return;
        };
        let Some((now, choice)) = key(st, &caches, top.group) else {
            continue;
        };
        if now != top {
            continue;
        }
        let g = top.group;
        let mut changed: Vec<usize> = Vec::new();
        match choice.target {
            Target::Idle(j) => {
                st.start_idle(g, j);
                if st.idle(j) == 0 {
                    for h in std::mem::take(&mut by_idle[j]) {
                        if caches[h].idle.is_some_and(|(c, _)| c == j) {
                            let row = &table[h * clusters..(h + 1) * clusters];
                            caches[h].idle = best_idle(st, row);
                            if let Some((c, _)) = caches[h].idle {
                                by_idle[c].push(h);
                            }
                            changed.push(h);
                        }
                    }
                }
            }
            Target::Victim(v) => {
                st.start_preempting(g, v);
                if st.victim_classes()[v].is_empty() {
                    for h in std::mem::take(&mut by_class[v]) {
                        if caches[h].pair.is_some_and(|p| p.class == v) {
                            let row = &table[h * clusters..(h + 1) * clusters];
                            caches[h].pair = best_pair(st, kind, &st.groups[h], row, before);
                            if let Some(p) = caches[h].pair {
                                by_class[p.class].push(h);
                            }
                            changed.push(h);
                        }
                    }
                }
            }
            Target::Wait => caches[g].waiting = true,
        }
        changed.push(g);
        for h in changed {
            if let Some((q, _)) = key(st, &caches, h) {
                heap.push(q);
            }
        }
    }
}
