//! Random (Khemka et al., "Comparison of energy-constrained resource
//! allocation heuristics under different task management environments",
//! §III.D; docs/energy.md, "The twelve heuristics"): the tasks in a random
//! order, each on a (machine, P-state) drawn uniformly among its choices
//! that pass. The rule on its own: [`super::reference::random`].
//!
//! The shortcuts taken here, none of which changes a choice or a draw of
//! the random stream:
//!
//! - a task that completes after its utility reached zero even at the
//!   earliest completion any of its choices can have at that point of the
//!   event (P-state 0 on each type's earliest-ready open machine) is
//!   passed over without trying the machine types one by one: the earliest
//!   completion is kept per task type and made again only when an
//!   assignment came since and the one kept does not settle the question
//!   (a completion made at an earlier point is no later than the current
//!   one: ready times only grow and machines only close). The reference
//!   passes over such a task too, without a draw;
//! - a task none of whose choices passes the filter, or, once refusals
//!   need not be reported, whose every choice certainly costs more than
//!   the budget has left (`EnergyFloors`), is not evaluated: the 32
//!   draws are still made, so the stream stays the same;
//! - a task's candidate machines (open, of a valid type, by id) are kept
//!   per task type, in the queued environment for the whole run
//!   ([`ChoiceOrders`](super::ChoiceOrders)), in the polled one until the
//!   next assignment;
//! - each draw is first tested against the filter's mask and lateness,
//!   without the matrices' lookups of a whole evaluation;
//! - listing every choice that passes, once the draws found none, it passes
//!   over a machine type whose earliest-ready machine completes the task
//!   too late in every P-state that passes (its other machines are ready
//!   no earlier, so each of their choices is late too), and evaluates one
//!   of the neighbouring machines of a type with one ready time, counting
//!   its outcome for each.

use rand::RngExt;
use rand::seq::SliceRandom;

use super::context::{Context, Machines, Outcome};
use super::evaluate::{EnergyFloors, Need, Passing, evaluate, has, late, record};
use crate::env::energy::matrices::P_STATES;
use crate::model::rng::{ChaCha8Rng, stream};

/// The id of Random's stream among the scenario's ([`stream`]).
const RANDOM_STREAM: u64 = 0xC_0100;

/// The stream the Random heuristic draws from, of the scenario's seed.
pub fn random_stream(seed: u64) -> ChaCha8Rng {
    stream(seed, RANDOM_STREAM)
}

/// Random (§III.D): the tasks in a random order, each on a (machine,
/// P-state) drawn uniformly among its choices that pass; a task with none
/// waits for a later event. A choice is drawn by rejection (up to 32 draws
/// among the open machines of a valid type and the three P-states), then,
/// if none passed, uniformly among all that pass: either way uniform.
pub fn random(
    ctx: &Context<'_>,
    tasks: &[usize],
    pool: &mut Machines<'_>,
    rng: &mut ChaCha8Rng,
) -> Outcome {
    let mut out = Outcome::default();
    let mut left = ctx.budget_left;
    let mut order = tasks.to_vec();
    order.shuffle(rng);
    let m_all = &ctx.scenario.matrices;
    let types = m_all.task_types();
    let mut floors = EnergyFloors::new(types, P_STATES);
    let mut passing_of = Passing::new(ctx);
    // Per task type, its earliest completion and its candidate machines
    // (open, of a valid type, by id) with the assignments made when they
    // were computed: they hold until the next assignment.
    let mut made = 0usize;
    let mut earliest_of: Vec<(f64, usize)> = vec![(f64::NAN, usize::MAX); types];
    let mut candidates_of: Vec<(Vec<usize>, usize)> = vec![(Vec::new(), usize::MAX); types];
    // The (machine, P-state) choices that pass, in machine order.
    let mut passing: Vec<(usize, u8)> = Vec::new();
    // Scratch of the fallback below, per machine type.
    let mut late_type: Vec<Option<bool>> = Vec::new();
    // Whether a task's candidates are every machine of a valid type.
    let every_machine = pool.all_open && pool.type_of == ctx.orders.type_of;
    for i in order {
        if !pool.any_open() {
            break;
        }
        let task = &ctx.scenario.tasks[i];
        let ty = task.task_type;
        // No choice earns if even the earliest completion is too late. An
        // earliest completion made before the last assignment is no later
        // than the current one (ready times only grow, machines only
        // close): if it is too late, so is the current one, which is made
        // only otherwise.
        let too_late = |earliest: f64| earliest - task.arrival > task.utility.last_positive();
        if earliest_of[ty].1 != made && !too_late(earliest_of[ty].0) {
            // (An infinite ETC or ready time, for an invalid type or one
            // without an open machine, gives an infinite sum: the minimum
            // over the others.)
            let row = &ctx.orders.etc0[ty * pool.best.len()..][..pool.best.len()];
            let earliest = row
                .iter()
                .zip(&pool.best_ready)
                .map(|(&etc, &ready)| ready + etc)
                .fold(f64::INFINITY, f64::min);
            earliest_of[ty] = (earliest, made);
        }
        if too_late(earliest_of[ty].0) {
            continue;
        }
        // (The queued environment opens and closes no machine: its
        // candidates are every machine of a valid type.)
        let (candidates, at) = &mut candidates_of[ty];
        if !every_machine && (*at == usize::MAX || (pool.polled && *at != made)) {
            candidates.clear();
            candidates.extend(
                (0..pool.type_of.len())
                    .filter(|&m| pool.open[m] && m_all.valid(ty, pool.type_of[m])),
            );
            *at = made;
        }
        let candidates = if every_machine {
            &ctx.orders.valid_machines[ty]
        } else {
            &candidates_of[ty].0
        };
        if candidates.is_empty() {
            continue;
        }
        if floors.refuse(ctx, pool, ty, left) {
            // Every draw would fail: draw the same, evaluate none.
            for _ in 0..32 {
                let _machine = rng.random_range(0..candidates.len());
                let _pstate = rng.random_range(0..P_STATES);
            }
            continue;
        }
        let mut chosen = None;
        for _ in 0..32 {
            let m = candidates[rng.random_range(0..candidates.len())];
            let p = rng.random_range(0..P_STATES);
            let mt = pool.type_of[m];
            if !has(passing_of.of(ctx, ty, mt), p) {
                continue;
            }
            if late(task, pool.ready[m], ctx.scenario.matrices.etc(ty, mt, p)) {
                continue;
            }
            if let Ok(c) = evaluate(ctx, pool, left, (i, m, p), &mut out.refused, Need::Positive) {
                chosen = Some(c);
                break;
            }
        }
        if chosen.is_none() {
            // Machines of one type with one ready time give the same
            // outcome: evaluate one, count it for each.
            passing.clear();
            // (type, ready time, first index in `passing`) of the last
            // machine evaluated; candidates are in id order, so machines of
            // a type are neighbours.
            let mut last: Option<(usize, f64, usize)> = None;
            // Per machine type, whether every P-state that passes is late
            // even on its earliest-ready open machine, so on each of its
            // machines (ready no earlier; rounding is monotone); `None`:
            // not known yet.
            late_type.clear();
            late_type.resize(pool.best.len(), None);
            for &m in candidates {
                let (mt, ready) = (pool.type_of[m], pool.ready[m]);
                let all_late = *late_type[mt].get_or_insert_with(|| {
                    let mask = passing_of.of(ctx, ty, mt);
                    pool.best[mt].is_none_or(|b| {
                        (0..P_STATES).filter(|&p| has(mask, p)).all(|p| {
                            late(task, pool.ready[b], ctx.scenario.matrices.etc(ty, mt, p))
                        })
                    })
                });
                if all_late {
                    continue;
                }
                if let Some((t, r, from)) = last
                    && t == mt
                    && r == ready
                {
                    let to = passing.len();
                    for k in from..to {
                        passing.push((m, passing[k].1));
                    }
                    last = Some((t, r, to));
                    continue;
                }
                let from = passing.len();
                let mask = passing_of.of(ctx, ty, mt);
                for p in (0..P_STATES).filter(|&p| has(mask, p)) {
                    // (Most machines are late here.)
                    if late(task, pool.ready[m], ctx.scenario.matrices.etc(ty, mt, p)) {
                        continue;
                    }
                    if evaluate(ctx, pool, left, (i, m, p), &mut out.refused, Need::Positive)
                        .is_ok()
                    {
                        passing.push((m, p as u8));
                    }
                }
                last = Some((mt, ready, from));
            }
            if !passing.is_empty() {
                let (m, p) = passing[rng.random_range(0..passing.len())];
                let c = evaluate(
                    ctx,
                    pool,
                    left,
                    (i, m, p.into()),
                    &mut out.refused,
                    Need::Positive,
                )
                .expect("a choice that passed passes again");
                chosen = Some(c);
            }
        }
        if let Some(c) = chosen {
            record(&mut out, pool, &mut left, i, c);
            made += 1;
        }
    }
    out
}
