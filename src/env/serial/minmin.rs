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

use super::engine::{Heuristic, State, objective};
use super::pair;
use super::queue::{Choice, Queued, Target};
use super::task::{Objective, Preemption};

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
        Preemption::Pair => pair::map(st, kind),
        _ => single(st, kind, preemption),
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
