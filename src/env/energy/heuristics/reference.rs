//! The reference implementation of the twelve heuristics of environment C:
//! each rule as Khemka et al. state it ("Comparison of energy-constrained
//! resource allocation heuristics under different task management
//! environments", §III.D; docs/energy.md, "The twelve heuristics"),
//! evaluated from scratch at every step, with none of the shortcuts of
//! [`random`](mod@super::random), [`ordered`](mod@super::ordered) and
//! [`minmin`](mod@super::minmin). To know what a heuristic does, read this
//! file. It is slow: the engine runs it in place of those loops only for
//! the tests (`engine::simulate_from_scratch`), which require every run
//! of the loops to equal it to the last bit, and compare them event by
//! event at random events.
//!
//! What every heuristic sees at a mapping event (§III.A, §III.C):
//!
//! - the mappable tasks (arrived, neither started nor dropped), by index,
//!   which is their order of arrival;
//! - the machines available ([`Machines`]): in the queued environment
//!   every machine, ready at the end of its queue so far (a task assigned
//!   to it starts then, and the machine is ready again when it ends); in
//!   the polled environment the idle machines, ready now, each for one
//!   task;
//! - a choice, a (task, machine, P-state), is made only if it passes
//!   (`evaluate`): the task may run on the machine's type, its EEC = ETC
//!   × APC is within the energy filter's fair share e_bud (§III.C; any EEC
//!   without a filter), it completes, started at the machine's ready time,
//!   before the task's utility reached zero, and its energy in the counted
//!   day fits what the day's budget has left.
//!
//! A refusal by the budget of a choice that would earn utility is reported
//! ([`Outcome::refused`]); the engine records the first as the hour the
//! budget ran out (`exhausted_at_h` in the `summary` table). So which
//! choices a heuristic evaluates, not only which it makes, is part of its
//! definition here: Random evaluates its draws, then every choice; the
//! ordered heuristics each machine in turn; Min-Min the choices its search
//! looks at, as [`minmin`] says.
//!
//! - **Random** ([`random`]): the tasks in a random order, each on a
//!   (machine, P-state) drawn uniformly among its choices that pass.
//! - **FCFS, LCFS, Prioritized-FCFS, Prioritized-LCFS** ([`ordered`]), in
//!   P-state 0 only (`-p0`) or in the first P-state that passes the filter
//!   (`-all`): the tasks in their order, each on the first available
//!   machine by ready time where it passes.
//! - **Max Utility, Max UPT, Max UPE** ([`minmin`]): Min-Min (after Braun
//!   et al.) on the utility at completion, on utility / ETC and on utility
//!   / EEC: the task whose best choice is highest is assigned, repeatedly.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rand::RngExt;
use rand::seq::SliceRandom;

use super::context::{Context, Machines, Outcome};
use super::evaluate::{Choice, Floor, Miss, Need, evaluate, record};
use crate::env::energy::matrices::P_STATES;
use crate::env::energy::{Objective, Order, PStates, Policy};
use crate::model::rng::ChaCha8Rng;

/// Runs `policy` on the mappable tasks `tasks` (ascending task index) with
/// the machines of `pool`; Random draws from `rng`
/// ([`random_stream`](super::random_stream)).
pub fn assign(
    policy: Policy,
    ctx: &Context<'_>,
    tasks: &[usize],
    pool: &mut Machines<'_>,
    rng: &mut ChaCha8Rng,
) -> Outcome {
    match policy {
        Policy::Random => random(ctx, tasks, pool, rng),
        Policy::Ordered { order, pstates } => ordered(ctx, tasks, pool, order, pstates),
        Policy::MinMin(objective) => minmin(ctx, tasks, pool, objective),
    }
}

/// Random (§III.D): the tasks in a random order (`tasks` shuffled with
/// `rng`); each in turn on a (machine, P-state) drawn uniformly among its
/// choices that pass, or left for a later event if none does.
///
/// A task's candidate machines are the open machines of the types it may
/// run on, by id. A task none of whose choices can complete in time, not
/// even in P-state 0 (the fastest) on its earliest-ready candidate, is
/// passed over without a draw. Otherwise up to 32 draws, each of a
/// candidate and a P-state, uniformly and independently, take the first
/// that passes (rejection); if none did, every (candidate, P-state) that
/// passes is listed, by machine, then P-state, and one of them drawn
/// uniformly. Either way the choice is uniform among those that pass.
pub fn random(
    ctx: &Context<'_>,
    tasks: &[usize],
    pool: &mut Machines<'_>,
    rng: &mut ChaCha8Rng,
) -> Outcome {
    let s = ctx.scenario;
    let mut out = Outcome::default();
    let mut left = ctx.budget_left;
    let mut order = tasks.to_vec();
    order.shuffle(rng);
    for i in order {
        if !pool.open.iter().any(|&open| open) {
            break;
        }
        let task = &s.tasks[i];
        let ty = task.task_type;
        let candidates: Vec<usize> = (0..pool.type_of.len())
            .filter(|&m| pool.open[m] && s.matrices.valid(ty, pool.type_of[m]))
            .collect();
        // (A valid type has an ETC in P-state 0.)
        let earliest = (candidates.iter())
            .filter_map(|&m| Some(pool.ready[m] + s.matrices.etc(ty, pool.type_of[m], 0)?))
            .fold(f64::INFINITY, f64::min);
        if earliest - task.arrival > task.utility.last_positive() || candidates.is_empty() {
            continue;
        }
        let mut chosen = None;
        for _ in 0..32 {
            let m = candidates[rng.random_range(0..candidates.len())];
            let p = rng.random_range(0..P_STATES);
            if let Ok(c) = evaluate(ctx, pool, left, (i, m, p), &mut out.refused, Need::Positive) {
                chosen = Some(c);
                break;
            }
        }
        if chosen.is_none() {
            let mut passing = Vec::new();
            for &m in &candidates {
                for p in 0..P_STATES {
                    if evaluate(ctx, pool, left, (i, m, p), &mut out.refused, Need::Positive)
                        .is_ok()
                    {
                        passing.push((m, p));
                    }
                }
            }
            if !passing.is_empty() {
                let (m, p) = passing[rng.random_range(0..passing.len())];
                let c = evaluate(ctx, pool, left, (i, m, p), &mut out.refused, Need::Positive)
                    .expect("a choice that passed passes again");
                chosen = Some(c);
            }
        }
        if let Some(c) = chosen {
            record(&mut out, pool, &mut left, i, c);
        }
    }
    out
}

/// FCFS, LCFS, Prioritized-FCFS and Prioritized-LCFS (§III.D).
///
/// The tasks in `order`: by arrival (FCFS), latest arrival first (LCFS),
/// or by priority, highest first, then by arrival, earliest
/// (Prioritized-FCFS) or latest (Prioritized-LCFS) first; ties of arrival
/// go by task index the same way. Each task in turn tries the open
/// machines by (ready time, id). On a machine the P-state is 0
/// ([`PStates::P0`]), or the first of 0, 1, 2 whose EEC passes the filter
/// ([`PStates::All`]; none: the machine is passed over); that choice must
/// then complete in time and fit the budget, or the next machine is tried.
/// A task no machine takes waits for a later event. (The budget does not
/// make the heuristic try a slower P-state: without a filter both rules
/// assign in P-state 0, as the paper says.)
pub fn ordered(
    ctx: &Context<'_>,
    tasks: &[usize],
    pool: &mut Machines<'_>,
    order: Order,
    pstates: PStates,
) -> Outcome {
    let s = ctx.scenario;
    let mut list = tasks.to_vec();
    let lcfs = matches!(order, Order::Lcfs | Order::Plcfs);
    list.sort_by(|&a, &b| {
        let (ta, tb) = (&s.tasks[a], &s.tasks[b]);
        let within = ta.arrival.total_cmp(&tb.arrival).then(a.cmp(&b));
        let within = if lcfs { within.reverse() } else { within };
        match order {
            Order::Fcfs | Order::Lcfs => within,
            Order::Pfcfs | Order::Plcfs => {
                let (pa, pb) = (ta.utility.priority(), tb.utility.priority());
                pb.total_cmp(&pa).then(within)
            }
        }
    });
    let tries = match pstates {
        PStates::P0 => 1,
        PStates::All => P_STATES,
    };
    let mut out = Outcome::default();
    let mut left = ctx.budget_left;
    // The open machines by (ready time, id), sorted again after each
    // assignment.
    let by_ready = |pool: &Machines<'_>| {
        let mut machines: Vec<usize> = (0..pool.type_of.len()).filter(|&m| pool.open[m]).collect();
        machines.sort_by(|&a, &b| pool.ready[a].total_cmp(&pool.ready[b]).then(a.cmp(&b)));
        machines
    };
    let mut machines = by_ready(pool);
    for i in list {
        let ty = s.tasks[i].task_type;
        for &m in &machines {
            let mt = pool.type_of[m];
            // The filter's test, as `evaluate` makes it.
            let passes = |p: usize| match (s.matrices.etc(ty, mt, p), s.matrices.apc(ty, mt, p)) {
                (Some(etc), Some(apc)) => !ctx.e_bud.is_some_and(|b| etc * apc > b),
                _ => false,
            };
            let Some(p) = (0..tries).find(|&p| passes(p)) else {
                continue;
            };
            if let Ok(c) = evaluate(ctx, pool, left, (i, m, p), &mut out.refused, Need::Positive) {
                record(&mut out, pool, &mut left, i, c);
                machines = by_ready(pool);
                break;
            }
        }
    }
    out
}

/// Max Utility, Max UPT and Max UPE (§III.D; Min-Min after Braun et al.):
/// every task finds its best choice that passes by the objective `o` (its
/// utility at completion, over the choice's ETC, or over its EEC); the task
/// whose best is highest (lowest task index on ties) is assigned; repeat
/// until no task has a choice or, polled, no machine is left idle.
///
/// A task's best choice (`best`): on each machine type only its
/// earliest-ready open machine (lowest id on ties) is tried, as another of
/// the type completes no earlier; ties between choices go to the lower
/// machine, then the lower P-state.
///
/// - Max Utility: on each machine type, the first of P-states 0, 1, 2
///   that passes (a slower P-state earns no more); a P-state that completes
///   too late ends the type's search (a slower one would too).
/// - Max UPT and Max UPE: the task type's choices by ascending ETC (EEC),
///   ties by machine type, then P-state
///   ([`ChoiceOrders`](super::ChoiceOrders)); the search stops at the first
///   that passes the filter, completes in time and fits the budget but
///   whose priority over its ETC (EEC) is below the best found: the
///   priority bounds the utility, so neither it nor any later choice can
///   win.
///
/// Each task's best is computed at the start of the event and kept. The
/// task with the highest kept best is taken: if no assignment went to the
/// machine type of that best since it was computed and the best still fits
/// the budget, it is still the task's best and the highest of all
/// (objectives never rise within an event: ready times only grow, machines
/// only close, the budget only shrinks, utility never rises with the
/// completion time), and the task is assigned; otherwise its best is
/// computed again, and the task assigned if that is still the highest
/// kept, else kept with it. The choices are those of a Min-Min that
/// computes every best again after each assignment; the evaluations, and
/// so the refusals by the budget met, are these.
pub fn minmin(
    ctx: &Context<'_>,
    tasks: &[usize],
    pool: &mut Machines<'_>,
    o: Objective,
) -> Outcome {
    let mut out = Outcome::default();
    let mut left = ctx.budget_left;
    let mut first = first_machines(ctx, pool);
    if first.iter().all(Option::is_none) {
        return out;
    }
    // Per machine type, the assignments to it so far.
    let mut stamp = vec![0u64; first.len()];
    // Per task (its position in `tasks`), its best as last computed and
    // the assignments to the best's machine type then; a key for each task
    // that had a best.
    let mut kept: Vec<Option<(Choice, u64)>> = vec![None; tasks.len()];
    let mut keys = BinaryHeap::new();
    for (k, &i) in tasks.iter().enumerate() {
        if let Some((v, c)) = best(ctx, pool, &first, left, o, i, &mut out.refused) {
            kept[k] = Some((c, 0));
            keys.push(Key { value: v, task: k });
        }
    }
    while let Some(&Key { task: k, .. }) = keys.peek() {
        if first.iter().all(Option::is_none) {
            break;
        }
        let i = tasks[k];
        keys.pop();
        let (c, at) = kept[k].expect("a task with a key has a best");
        let c = if stamp[pool.type_of[c.machine]] == at && c.energy <= left {
            c
        } else {
            let Some((v, c)) = best(ctx, pool, &first, left, o, i, &mut out.refused) else {
                // No choice left at this event.
                continue;
            };
            keys.push(Key { value: v, task: k });
            if keys.peek().is_some_and(|top| top.task != k) {
                kept[k] = Some((c, stamp[pool.type_of[c.machine]]));
                continue;
            }
            keys.pop();
            c
        };
        stamp[pool.type_of[c.machine]] += 1;
        record(&mut out, pool, &mut left, i, c);
        first = first_machines(ctx, pool);
    }
    out
}

/// A task's key in [`minmin`]: the objective of its kept best, then the
/// lower task (position in the event's tasks) first, highest first.
#[derive(Debug, Clone, Copy)]
struct Key {
    value: f64,
    task: usize,
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.value.total_cmp(&other.value)).then(other.task.cmp(&self.task))
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key {}

/// Per machine type, its open machine of earliest ready time, lowest id on
/// ties (`None`: none open).
fn first_machines(ctx: &Context<'_>, pool: &Machines<'_>) -> Vec<Option<usize>> {
    let mut first: Vec<Option<usize>> = vec![None; ctx.scenario.matrices.machine_types.len()];
    for m in (0..pool.type_of.len()).filter(|&m| pool.open[m]) {
        let f = &mut first[pool.type_of[m]];
        if f.is_none_or(|b| pool.ready[m] < pool.ready[b]) {
            *f = Some(m);
        }
    }
    first
}

/// Task `i`'s best choice by objective `o` on the machines `first` (per
/// machine type, its earliest-ready open machine), with its objective
/// (`None`: no choice passes), as [`minmin`] says; a refusal by the
/// budget sets `refused`.
fn best(
    ctx: &Context<'_>,
    pool: &Machines<'_>,
    first: &[Option<usize>],
    left: f64,
    o: Objective,
    i: usize,
    refused: &mut bool,
) -> Option<(f64, Choice)> {
    let task = &ctx.scenario.tasks[i];
    let mut best: Option<(f64, Choice)> = None;
    if o == Objective::Util {
        for &m in first.iter().flatten() {
            for p in 0..P_STATES {
                match evaluate(ctx, pool, left, (i, m, p), refused, Need::Utility(None)) {
                    Ok(c) => {
                        if better(c.utility, &c, &best) {
                            best = Some((c.utility, c));
                        }
                        break;
                    }
                    Err(Miss::Late) => break,
                    Err(_) => {}
                }
            }
        }
        return best;
    }
    let choices = if o == Objective::Upe {
        &ctx.orders.by_eec[task.task_type]
    } else {
        &ctx.orders.by_etc[task.task_type]
    };
    for &(mt, p, _) in choices {
        let Some(m) = first[mt] else { continue };
        // A choice whose objective, with the priority for its utility, is
        // below the best found is `Miss::Pruned` once it passes the
        // filter, completes in time and fits the budget.
        let floor = best.map(|(w, _)| Floor {
            objective: o,
            value: w,
            cap: task.utility.priority(),
        });
        match evaluate(ctx, pool, left, (i, m, p), refused, Need::Utility(floor)) {
            Ok(c) => {
                let v = objective(o, &c);
                if better(v, &c, &best) {
                    best = Some((v, c));
                }
            }
            Err(Miss::Pruned) => break,
            Err(_) => {}
        }
    }
    best
}

/// The objective `o` of choice `c`: its utility (value units), per second
/// of its ETC, or per joule of its EEC.
fn objective(o: Objective, c: &Choice) -> f64 {
    match o {
        Objective::Util => c.utility,
        Objective::Upt => c.utility / c.etc,
        Objective::Upe => c.utility / c.eec,
    }
}

/// Whether choice `c` of objective `v` beats the best so far `than`: a
/// higher objective, or the same on a lower machine, or the same machine
/// in a lower P-state.
fn better(v: f64, c: &Choice, than: &Option<(f64, Choice)>) -> bool {
    match than {
        None => true,
        Some((w, b)) => v > *w || (v == *w && (c.machine, c.pstate) < (b.machine, b.pstate)),
    }
}
