//! FCFS, LCFS, Prioritized-FCFS and Prioritized-LCFS, each trying P-state
//! 0 only or the first of P-states 0, 1, 2 that passes the filter (Khemka
//! et al., "Comparison of energy-constrained resource allocation heuristics
//! under different task management environments", §III.D; docs/energy.md,
//! "The twelve heuristics"): the tasks in an [`Order`], each on the first
//! available machine by (ready time, id) where its choice passes. The rule
//! on its own: [`super::reference::ordered`].
//!
//! The shortcuts taken here, none of which changes a choice:
//!
//! - the prioritized orders group the tasks by priority with a counting
//!   sort where arrivals follow the task index
//!   ([`TaskOrder`](super::TaskOrder));
//! - a task that completes too late on every machine type's earliest-ready
//!   machine is passed over at once at its later turns in the event: the
//!   earliest completion its turn found is kept per task type (ready times
//!   only grow and machines only close, so it stays a lower bound);
//! - a task none of whose choices passes the filter, or, once refusals
//!   need not be reported, whose every choice certainly costs more than the
//!   budget has left, over the one P-state tried on each machine type, is
//!   passed over without evaluating its choices (`EnergyFloors`);
//! - the machine types are kept in the order of their earliest-ready
//!   machine, so a task tries each type's first machine in that order: a
//!   type whose first machine fails on the filter or on lateness is done
//!   (its later machines are ready no earlier). Only once a choice fails
//!   on the budget are the types' machines sorted by (ready time, id) and
//!   merged, passing over the machines ready when the failed one was (same
//!   outcome). The machines evaluated, and their order, are those of the
//!   scan of every open machine by (ready time, id) that the rule says;
//! - after an assignment the type that took it moves later among the
//!   types, past the neighbours now ahead of it (its first machine is
//!   ready no earlier than before), instead of being sorted again.

use std::cmp::Ordering;

use super::context::{Context, Machines, Outcome};
use super::evaluate::{EnergyFloors, Miss, Need, Passing, evaluate, has, late, record};
use crate::env::energy::matrices::P_STATES;
use crate::env::energy::{Order, PStates};

/// FCFS, LCFS, Prioritized-FCFS and Prioritized-LCFS (§III.D): the tasks
/// in `order`, each on the first available machine by ready time (lowest
/// id on ties) of a valid type where it passes. On a machine the P-state is
/// 0, or with [`PStates::All`] the first of 0, 1, 2 whose EEC passes the
/// filter; that choice must then earn utility and fit the budget, or the
/// next machine is tried. (So without a filter both rules assign in
/// P-state 0, as the paper says; the budget refuses a choice, it does not
/// make the heuristic try a slower P-state.)
///
/// The types are kept in the order of their earliest-ready machine, so a
/// task tries each type's first machine in that order and merges the
/// types' orders of machines by (ready time, id), sorted only then, once a
/// choice fails on the budget: the machines evaluated, and their order,
/// are those of a scan of every open machine by (ready time, id).
pub fn ordered(
    ctx: &Context<'_>,
    tasks: &[usize],
    pool: &mut Machines<'_>,
    order: Order,
    pstates: PStates,
) -> Outcome {
    let s = ctx.scenario;
    let mut list = Vec::with_capacity(tasks.len());
    let key = |&i: &usize| (s.tasks[i].arrival, i);
    match order {
        Order::Fcfs => list.extend_from_slice(tasks),
        Order::Lcfs => list.extend(tasks.iter().rev()),
        Order::Pfcfs | Order::Plcfs => {
            let lcfs = order == Order::Plcfs;
            if ctx.task_order.by_priority(tasks, lcfs, &mut list).is_some() {
                // Grouped by priority without comparisons (see TaskOrder).
            } else {
                list.extend_from_slice(tasks);
                list.sort_by(|a, b| {
                    let pa = s.tasks[*a].utility.priority();
                    let pb = s.tasks[*b].utility.priority();
                    let within = key(a).0.total_cmp(&key(b).0).then(a.cmp(b));
                    pb.total_cmp(&pa)
                        .then(if lcfs { within.reverse() } else { within })
                });
            }
        }
    }
    let cmp = |pool: &Machines<'_>, a: usize, b: usize| -> Ordering {
        pool.ready[a].total_cmp(&pool.ready[b]).then(a.cmp(&b))
    };
    // Per machine type, its open machines by (ready time, id), made when a
    // choice fails on the budget (the machines after the first are needed
    // only then) and made again after an assignment to the type; the first
    // is always the pool's earliest-ready machine of the type.
    let mut by_ready: Vec<Vec<usize>> = vec![Vec::new(); pool.best.len()];
    let mut sorted = vec![false; pool.best.len()];
    let sort =
        |pool: &Machines<'_>, by_ready: &mut [Vec<usize>], sorted: &mut [bool], mt: usize| {
            if !sorted[mt] {
                sorted[mt] = true;
                let ms = &mut by_ready[mt];
                ms.clear();
                ms.extend(pool.of_type(mt).iter().copied().filter(|&m| pool.open[m]));
                ms.sort_by(|&a, &b| cmp(pool, a, b));
            }
        };
    let tries = match pstates {
        PStates::P0 => 1,
        PStates::All => P_STATES,
    };
    let mut out = Outcome::default();
    let mut left = ctx.budget_left;
    let mut floors = EnergyFloors::first_passing(s.matrices.task_types(), tries);
    let mut passing = Passing::new(ctx);
    // The machine types with an open machine, by their first machine.
    let head =
        |pool: &Machines<'_>, mt: usize| pool.best[mt].expect("the type has an open machine");
    let mut types: Vec<usize> = (0..pool.best.len())
        .filter(|&mt| pool.best[mt].is_some())
        .collect();
    types.sort_by(|&a, &b| cmp(pool, head(pool, a), head(pool, b)));
    // Per machine type still tried for the task: (type, P-state, position
    // of its next machine in `by_ready`).
    let mut heads: Vec<(usize, usize, usize)> = Vec::with_capacity(by_ready.len());
    // The first P-state of those tried that passes: valid, with its EEC
    // within the filter's share.
    let pstate = |passing: &mut Passing, ty: usize, mt: usize| {
        let mask = passing.of(ctx, ty, mt);
        (0..tries).find(|&p| has(mask, p))
    };
    // Per task type, no later than the earliest completion of its first
    // passing P-state over the types with an open machine (each on its
    // first machine): a task late at it is late on every type, its turn
    // is skipped. Made by a turn that found every type late; ready times
    // only grow and machines only close, so it stays a lower bound.
    let mut earliest_of = vec![f64::NAN; s.matrices.task_types()];
    for i in list {
        if types.is_empty() {
            break;
        }
        let task = &s.tasks[i];
        let ty = task.task_type;
        if earliest_of[ty] - task.arrival > task.utility.last_positive() {
            continue;
        }
        if floors.refuse(ctx, pool, ty, left) {
            continue;
        }
        // The machines are tried in (ready time, id) order over all types,
        // as the rule says. A type whose P-state fails the filter, or whose
        // machine fails on the type or on lateness, is done: its later
        // machines are ready no earlier. So only each type's first machine
        // is tried, in the order of the types, until one fails on the
        // budget; from there the types' orders are merged (the next
        // machine is the earliest of the types' next ones), passing over
        // the machines of the type ready when it failed (same outcome).
        let mut chosen = None;
        heads.clear();
        // The earliest completion over the types tried, while each was late.
        let mut earliest = f64::INFINITY;
        for (k, &mt) in types.iter().enumerate() {
            // (An invalid type passes no P-state.)
            let Some(p) = pstate(&mut passing, ty, mt) else {
                continue;
            };
            let m = head(pool, mt);
            let etc = ctx.scenario.matrices.etc(ty, mt, p);
            if let Some(etc) = etc {
                earliest = earliest.min(pool.ready[m] + etc);
            }
            if late(task, pool.ready[m], etc) {
                continue;
            }
            match evaluate(ctx, pool, left, (i, m, p), &mut out.refused, Need::Positive) {
                Ok(c) => {
                    chosen = Some((mt, c));
                    break;
                }
                Err(Miss::Type | Miss::Late) => {}
                Err(_) => {
                    earliest = f64::NAN;
                    sort(pool, &mut by_ready, &mut sorted, mt);
                    let after = passed_over(pool, &by_ready[mt], 0);
                    if after < by_ready[mt].len() {
                        heads.push((mt, p, after));
                    }
                    for &later in &types[k + 1..] {
                        if let Some(p) = pstate(&mut passing, ty, later) {
                            sort(pool, &mut by_ready, &mut sorted, later);
                            heads.push((later, p, 0));
                        }
                    }
                    break;
                }
            }
        }
        if chosen.is_none() && !earliest.is_nan() {
            // Every type was late (or refused by the filter).
            earliest_of[ty] = earliest;
        }
        while chosen.is_none()
            && let Some(h) = (0..heads.len()).min_by(|&a, &b| {
                let (ma, mb) = (
                    by_ready[heads[a].0][heads[a].2],
                    by_ready[heads[b].0][heads[b].2],
                );
                cmp(pool, ma, mb)
            })
        {
            let (mt, p, at) = heads[h];
            let m = by_ready[mt][at];
            match evaluate(ctx, pool, left, (i, m, p), &mut out.refused, Need::Positive) {
                Ok(c) => chosen = Some((mt, c)),
                Err(Miss::Type | Miss::Late) => {
                    heads.swap_remove(h);
                }
                Err(_) => {
                    let after = passed_over(pool, &by_ready[mt], at);
                    if after == by_ready[mt].len() {
                        heads.swap_remove(h);
                    } else {
                        heads[h].2 = after;
                    }
                }
            }
        }
        if let Some((mt, c)) = chosen {
            record(&mut out, pool, &mut left, i, c);
            sorted[mt] = false;
            // The type's first machine changed: its place among the types is
            // later (the new first machine is ready later, or as early with
            // a higher id), or it has none left.
            let k = types
                .iter()
                .position(|&t| t == mt)
                .expect("the type chosen is among the types");
            match pool.best[mt] {
                None => {
                    types.remove(k);
                }
                Some(first) => {
                    let mut j = k;
                    while j + 1 < types.len()
                        && cmp(pool, head(pool, types[j + 1]), first) == Ordering::Less
                    {
                        types[j] = types[j + 1];
                        j += 1;
                    }
                    types[j] = mt;
                }
            }
        }
    }
    out
}

/// The position in `machines` (by ready time) of the first machine after
/// `at` ready later than it.
fn passed_over(pool: &Machines<'_>, machines: &[usize], at: usize) -> usize {
    let ready = pool.ready[machines[at]];
    at + machines[at..]
        .iter()
        .take_while(|&&x| pool.ready[x] == ready)
        .count()
}
