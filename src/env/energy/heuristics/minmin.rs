//! Max Utility, Max UPT and Max UPE (Khemka et al., "Comparison of
//! energy-constrained resource allocation heuristics under different task
//! management environments", §III.D, Min-Min after Braun et al.;
//! docs/energy.md, "The twelve heuristics"): Min-Min given an
//! [`Objective`], the utility at completion, utility / ETC or utility /
//! EEC. Every task finds its best passing (machine, P-state); the task
//! whose best is highest is assigned; repeat. The rule on its own:
//! [`super::reference::minmin`].
//!
//! The shortcuts taken here, none of which changes a choice (the search
//! evaluates the reference's choices wherever a refusal by the budget
//! must be reported, so that it is met where the reference meets it:
//! `prunes`):
//!
//! - a task that completes after its utility reached zero even at the
//!   earliest completion any of its choices can have at the event is left
//!   out of the heap, and its utility there bounds its choices' (in place
//!   of its priority: `utility_cap`);
//! - a task none of whose choices passes the filter, or, once refusals
//!   need not be reported, whose every choice certainly costs more than the
//!   budget has left (`EnergyFloors`), is left out without a search;
//! - Max UPT and Max UPE bound a task's utility by its utility at the
//!   earliest completion any choice can have at the event, not by its
//!   priority, and so stop searching sooner (`search_cap`);
//! - Max Utility in the queued environment tries a task's machine types in
//!   order of their earliest completion and stops at the first that
//!   completes where the utility function is below the best found, with a
//!   relative margin of 1e-9 against rounding (`best`,
//!   [`UtilityFunction::last_at_least`](crate::model::utility::UtilityFunction::last_at_least));
//! - held for the whole event, where no refusal can be reported, a task
//!   enters the heap with a bound on its objective, and its best is found
//!   only when the bound reaches the top (`Bounding`);
//! - in the polled environment, the event ends once no task in the heap
//!   may run on a machine still idle (each assignment takes one out of the
//!   pool; `Openness`), and a task's utility bound is kept from one event
//!   to the next while it holds ([`UtilityBounds`]);
//! - in the polled environment, Max UPT and Max UPE give a task a key only
//!   once a bound that holds at every event (its priority over its least
//!   ETC or EEC on any machine type) may reach the top of the heap: the
//!   hundreds of tasks that wait below the keys an event assigns are not
//!   looked at (`Walk`);
//! - the heap's keys pack the objective and the task in one integer
//!   (`Key`), compared in one instruction.

use std::collections::BinaryHeap;

use super::context::{Context, Machines, Outcome};
use super::evaluate::{
    Choice, EnergyFloors, Floor, Miss, Need, Passing, evaluate, has, late, record,
};
use crate::env::energy::matrices::P_STATES;
use crate::env::energy::{EnergyTask, Objective};

/// [`minmin`]'s keys, highest first: a max-heap whose top can be lowered
/// in place (in the queued environment most tops are). Keys are distinct
/// (task index).
struct Keys {
    heap: BinaryHeap<Key>,
}

impl Keys {
    fn new(keys: Vec<Key>) -> Self {
        Keys {
            heap: BinaryHeap::from(keys),
        }
    }

    fn peek(&self) -> Option<Key> {
        self.heap.peek().copied()
    }

    fn pop(&mut self) {
        self.heap.pop();
    }

    fn push(&mut self, key: Key) {
        self.heap.push(key);
    }

    /// Takes the highest key out and gives `key` (no higher) in its place.
    fn replace_top(&mut self, key: Key) {
        if let Some(mut top) = self.heap.peek_mut() {
            *top = key;
        }
    }
}

/// `v`'s place in `f64::total_cmp`'s order as an unsigned integer:
/// negative values' other bits flipped (as total_cmp does), then the sign
/// bit.
fn total_order(v: f64) -> u64 {
    let bits = v.to_bits();
    (bits ^ ((((bits as i64) >> 63) as u64) >> 1)) ^ (1 << 63)
}

/// A heap key: the objective, then the lower task index first, packed in
/// one integer whose order is that one (`f64::total_cmp` on the objective,
/// then the task index reversed), so that comparing two keys is one
/// integer comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key(u128);

impl Key {
    /// The key of task `k` (its position in the event's tasks) with
    /// objective `v`.
    fn new(v: f64, k: usize) -> Self {
        Key(u128::from(total_order(v)) << 64 | u128::from(u64::MAX - k as u64))
    }

    /// The task's position in the event's tasks.
    fn task(self) -> usize {
        (u64::MAX - self.0 as u64) as usize
    }

    /// The objective's place in `f64::total_cmp`'s order ([`total_order`]).
    fn objective_order(self) -> u64 {
        (self.0 >> 64) as u64
    }
}

fn objective(o: Objective, c: &Choice) -> f64 {
    match o {
        Objective::Util => c.utility,
        Objective::Upt => c.utility / c.etc,
        Objective::Upe => c.utility / c.eec,
    }
}

fn better(v: f64, c: &Choice, than: &Option<(f64, Choice)>) -> bool {
    match than {
        None => true,
        Some((w, b)) => v > *w || (v == *w && (c.machine, c.pstate) < (b.machine, b.pstate)),
    }
}

/// Task `i`'s best choice over the machine types (their earliest-ready
/// open machine) and P-states; ties go to the lower machine, then the lower
/// P-state. `cap` bounds the utility of any of the task's choices (the
/// priority, or less): Max UPT and Max UPE stop at the first choice whose
/// bound, `cap` over its ETC or EEC, is below the best so far.
fn best(
    ctx: &Context<'_>,
    pool: &Machines<'_>,
    left: f64,
    (o, cap): (Objective, f64),
    i: usize,
    passing: &mut Passing,
    refused: &mut bool,
) -> Option<(f64, Choice)> {
    let task = &ctx.scenario.tasks[i];
    let ty = task.task_type;
    let mut out: Option<(f64, Choice)> = None;
    if o == Objective::Util && !pool.polled && pool.best.len() <= 16 && prunes(ctx, left) {
        // (Queued: every machine type is open. Polled, with a few open
        // types, trying each costs less.)
        // The types in order of their earliest completion (the first
        // passing P-state on the earliest-ready machine), lowest type on
        // ties. Utility never rises with completion: once a choice earns
        // u, a type that completes when the function is below u · (1 −
        // 1e-9) cannot reach it, even evaluated (its rounding is far
        // smaller), nor can any later one; the search stops there.
        let m_all = &ctx.scenario.matrices;
        let mut done = [f64::INFINITY; 16];
        for (mt, &m) in pool.best.iter().enumerate() {
            let Some(m) = m else { continue };
            let mask = passing.of(ctx, ty, mt);
            if let Some(p) = (0..P_STATES).find(|&p| has(mask, p))
                && let Some(etc) = m_all.etc(ty, mt, p)
            {
                done[mt] = pool.ready[m] + etc;
            }
        }
        let done = &mut done[..pool.best.len()];
        // No choice completing this long after arrival can win (s).
        let mut stop = f64::INFINITY;
        loop {
            let (mut next, mut earliest) = (None, f64::INFINITY);
            for (mt, &d) in done.iter().enumerate() {
                if d < earliest {
                    (next, earliest) = (Some(mt), d);
                }
            }
            let Some(mt) = next else { break };
            if earliest - task.arrival > stop {
                break;
            }
            done[mt] = f64::INFINITY;
            let Some(m) = pool.best[mt] else { continue };
            if let Some(c) = utility_on(ctx, pool, left, (i, mt, m), passing, refused)
                && better(c.utility, &c, &out)
            {
                out = Some((c.utility, c));
                stop = task.utility.last_at_least(c.utility * (1.0 - 1e-9));
            }
        }
        return out;
    }
    if o == Objective::Util {
        for (mt, &m) in pool.best.iter().enumerate() {
            let Some(m) = m else { continue };
            if let Some(c) = utility_on(ctx, pool, left, (i, mt, m), passing, refused)
                && better(c.utility, &c, &out)
            {
                out = Some((c.utility, c));
            }
        }
        return out;
    }
    let list = if o == Objective::Upe {
        &ctx.orders.by_eec[ty]
    } else {
        &ctx.orders.by_etc[ty]
    };
    // Where a refusal need not be met where the reference meets it, the
    // bound is tested first: the choice, and every later one, cannot win.
    let early = prunes(ctx, left);
    for &(mt, p, x) in list {
        if early
            && let Some((w, _)) = &out
            && cap / x < *w
        {
            break;
        }
        let Some(m) = pool.best[mt] else { continue };
        if !has(passing.of(ctx, ty, mt), p) {
            // The filter refuses it.
            continue;
        }
        if late(task, pool.ready[m], ctx.scenario.matrices.etc(ty, mt, p)) {
            continue;
        }
        let floor = out.as_ref().map(|(w, _)| Floor {
            objective: o,
            value: *w,
            cap,
        });
        match evaluate(ctx, pool, left, (i, m, p), refused, Need::Utility(floor)) {
            Ok(c) => {
                let v = objective(o, &c);
                if better(v, &c, &out) {
                    out = Some((v, c));
                }
            }
            // Every later choice's bound is no higher.
            Err(Miss::Pruned) => break,
            Err(_) => {}
        }
    }
    out
}

/// Max Utility's best choice of task `i` on machine `m` (of type `mt`):
/// a slower P-state earns no more, so it is the first P-state that passes
/// (`None`: none does; an invalid type passes none).
fn utility_on(
    ctx: &Context<'_>,
    pool: &Machines<'_>,
    left: f64,
    (i, mt, m): (usize, usize, usize),
    passing: &mut Passing,
    refused: &mut bool,
) -> Option<Choice> {
    let mask = passing.of(ctx, ctx.scenario.tasks[i].task_type, mt);
    for p in (0..P_STATES).filter(|&p| has(mask, p)) {
        match evaluate(ctx, pool, left, (i, m, p), refused, Need::Utility(None)) {
            Ok(c) => return Some(c),
            Err(Miss::Late) => return None,
            Err(_) => {}
        }
    }
    None
}

/// A bound on the utility of any choice of task `i` at this event: its
/// utility at the earliest completion any choice can have (the pool's
/// earliest ready time plus the task's least ETC; ready times only grow
/// within the event), never above its priority. Utility never rises with
/// the completion time; the bound is raised by a relative 1e-12 against
/// the rounding of the exponential.
fn utility_cap(ctx: &Context<'_>, pool: &Machines<'_>, i: usize) -> f64 {
    let task = &ctx.scenario.tasks[i];
    let least_etc = ctx.orders.least_etc[task.task_type];
    let priority = task.utility.priority();
    if !pool.lo.is_finite() || !least_etc.is_finite() {
        return priority;
    }
    cap_at(task, pool.lo + least_etc - task.arrival)
}

/// `task`'s utility `elapsed` seconds after arrival raised by a relative
/// 1e-12 against the rounding of the exponential, never above its
/// priority: a bound on any completion no earlier.
fn cap_at(task: &EnergyTask, elapsed: f64) -> f64 {
    (task.utility.value(elapsed) * (1.0 + 1e-12)).min(task.utility.priority())
}

/// The utility bound Max UPT and Max UPE prune with: the task's `cap`
/// (`utility_cap`) where no choice can be refused by the budget (`left`
/// covers the most energy any choice takes) or a refusal need not be
/// reported, else its priority. A tighter bound stops the search before
/// other choices, so a refusal would be met at others; with the priority
/// the choices evaluated are those of the reference implementation
/// ([`super::reference::minmin`]).
fn search_cap(ctx: &Context<'_>, left: f64, i: usize, cap: f64) -> f64 {
    if prunes(ctx, left) {
        cap
    } else {
        ctx.scenario.tasks[i].utility.priority()
    }
}

/// Whether a search for a task's best choice may leave out choices that
/// cannot win: no choice can be refused by the budget (`left`, J, covers
/// the most energy any choice takes) or a refusal need not be reported.
/// Otherwise it evaluates the choices of the reference implementation
/// ([`super::reference::minmin`]), so that a refusal is met where the
/// reference meets it.
fn prunes(ctx: &Context<'_>, left: f64) -> bool {
    !(ctx.track_refusal && left < ctx.orders.max_energy)
}

/// The least ETC (s, for Max UPT) or EEC (J, for Max UPE) of task type
/// `ty` over its valid choices on the machine types with an open machine
/// (infinite: none): the first such choice in the order by that key of
/// [`ChoiceOrders`](super::ChoiceOrders).
fn least_open(ctx: &Context<'_>, pool: &Machines<'_>, o: Objective, ty: usize) -> f64 {
    let list = if o == Objective::Upe {
        &ctx.orders.by_eec[ty]
    } else {
        &ctx.orders.by_etc[ty]
    };
    list.iter()
        .find(|&&(mt, _, _)| pool.best[mt].is_some())
        .map_or(f64::INFINITY, |&(_, _, x)| x)
}

/// The earliest completion, s, of any choice of task type `ty` at this
/// event: over the machine types with an open machine, the earliest ready
/// time plus the least ETC among the P-states that pass (infinite: none).
/// Ready times only grow and machines only close within the event, so no
/// choice completes earlier while it lasts; the sums are the ones
/// [`late`] and [`evaluate`] make, so a choice's elapsed time is no less
/// than this one's.
///
/// Where every open machine has one ready time (the polled environment),
/// it is that time plus the first ETC in the order by ETC of
/// [`ChoiceOrders`](super::ChoiceOrders) whose type is open and whose
/// P-state passes: rounding is monotone, so the least sum is the sum with
/// the least ETC.
fn earliest_open(ctx: &Context<'_>, pool: &Machines<'_>, passing: &mut Passing, ty: usize) -> f64 {
    let m = &ctx.scenario.matrices;
    if pool.lo == pool.hi {
        return ctx.orders.by_etc[ty]
            .iter()
            .find(|&&(mt, p, x)| {
                pool.best[mt].is_some() && x.is_finite() && has(passing.of(ctx, ty, mt), p)
            })
            .map_or(f64::INFINITY, |&(_, _, x)| pool.lo + x);
    }
    let mut earliest = f64::INFINITY;
    for (mt, open) in pool.best.iter().enumerate() {
        let Some(machine) = *open else { continue };
        let mask = passing.of(ctx, ty, mt);
        for p in (0..P_STATES).filter(|&p| has(mask, p)) {
            if let Some(etc) = m.etc(ty, mt, p) {
                earliest = earliest.min(pool.ready[machine] + etc);
            }
        }
    }
    earliest
}

/// Max Utility, Max UPT and Max UPE (§III.D, Min-Min after Braun et al.):
/// every task finds its best passing (machine, P-state); the task whose
/// best is highest (lowest task index on ties) is assigned; repeat.
///
/// Within an event objectives never rise (ready times only grow, machines
/// only close, the budget only shrinks, utility never increases with
/// completion), so a max-heap (`Keys`) of each task's last computed best is an
/// upper bound. A task's best is still exact if no assignment went to its
/// machine type since it was computed (other types only got worse; ties
/// between types go by machine id, which keeps the order of the types) and
/// it still fits the budget; otherwise the top is recomputed, and assigned
/// if it still beats the next key, else its key is lowered to its new value
/// in place. The result is the plain Min-Min's, choice for choice.
///
/// Where no refusal by the budget can be reported at the event (the
/// budget has refused before, or what is left covers the most energy any
/// choice takes once for every assignment the event can make, and once
/// more), a task enters the heap with a bound instead of its best: its
/// utility at the earliest completion any choice can have, over its least
/// ETC (Max UPT) or EEC (Max UPE) on the machine types with an open
/// machine, or that utility itself (Max Utility). Its best is computed
/// when the bound reaches the top, so most tasks of the polled
/// environment, with few idle machines, are never evaluated. There the
/// event also ends once no task with a key may run on an idle machine
/// left (`Openness`; its tasks would find no choice), and Max UPT and Max
/// UPE take the tasks into the heap group by group of their walk bounds
/// (`Walk`: the priority over the type's least ETC or EEC on any machine
/// type), a group only once its bound is no lower than the top's
/// objective (no task left out can then have a higher key; the tasks not
/// taken in yet count as holding a key for `Openness`).
pub fn minmin(
    ctx: &Context<'_>,
    tasks: &[usize],
    pool: &mut Machines<'_>,
    o: Objective,
    bounds: &mut UtilityBounds,
) -> Outcome {
    let mut out = Outcome::default();
    if !pool.any_open() {
        return out;
    }
    let mut left = ctx.budget_left;
    // Assignments so far per machine type.
    let mut stamp = vec![0u64; pool.best.len()];
    // Per task: its best and the stamp of the best's type when computed
    // (none: its key is a bound, or it has no choice).
    let mut cached = Cached::new(tasks.len());
    let mut floors = EnergyFloors::new(ctx.scenario.matrices.task_types(), P_STATES);
    let mut passing = Passing::new(ctx);
    // Per task, a bound on the utility of its choices at this event.
    let mut caps = vec![f64::INFINITY; tasks.len()];
    // At most this many assignments: one per open machine when polled.
    let most = if pool.polled {
        pool.open.iter().filter(|&&open| open).count()
    } else {
        tasks.len()
    };
    let max_energy = ctx.orders.max_energy;
    let lazy = !ctx.track_refusal || left - most as f64 * max_energy >= max_energy;
    // Polled, Max UPT and Max UPE put the tasks in the heap group by
    // group of their walk bounds (`Walk`), only while a group may reach
    // the top. (Max Utility's walk bounds, the priorities, are too few to
    // tell the tasks apart.)
    let walking = lazy && pool.polled && o != Objective::Util && u32::try_from(tasks.len()).is_ok();
    let mut walk = std::mem::take(&mut bounds.walk);
    let types = ctx.scenario.matrices.task_types();
    let mut bounding = Bounding {
        per_type: vec![(f64::NAN, f64::NAN); if lazy { types } else { 0 }],
        floors: &mut floors,
        passing: &mut passing,
        bounds,
        o,
    };
    // Per task type, how many of its tasks hold a key (for `Openness`);
    // while walking, also those not walked yet.
    let mut holding = vec![0usize; types];
    let mut heap = Vec::with_capacity(if walking { most * 4 } else { tasks.len() });
    // The next group to walk (none: past the last) and where its tasks
    // start in `walk.order`.
    let (mut group, mut from) = (walk.bound.len(), 0);
    if walking {
        walk.make(ctx, o);
        walk.sort(tasks, &mut holding);
        group = 0;
    }
    // (While walking, the tasks get their keys in the walk below.)
    let keyed_now: &[usize] = if walking { &[] } else { tasks };
    for (k, &i) in keyed_now.iter().enumerate() {
        let ty = ctx.scenario.tasks[i].task_type;
        if lazy {
            if let Some((cap, key)) = bounding.enter(ctx, pool, left, i) {
                caps[k] = cap;
                heap.push(Key::new(key, k));
                holding[ty] += 1;
            }
            continue;
        }
        if bounding.floors.refuse(ctx, pool, ty, left) {
            continue;
        }
        caps[k] = utility_cap(ctx, pool, i);
        let cap = search_cap(ctx, left, i, caps[k]);
        let passing = &mut *bounding.passing;
        if let Some((v, c)) = best(ctx, pool, left, (o, cap), i, passing, &mut out.refused) {
            cached.set(k, (c, 0));
            heap.push(Key::new(v, k));
            holding[ty] += 1;
        }
    }
    let mut open = Openness::new(ctx, pool, holding);
    let mut heap = Keys::new(heap);
    loop {
        // Every task not walked yet has a key no higher than its group's
        // bound: walked until the top is above every group left.
        while group < walk.bound.len() {
            if heap
                .peek()
                .is_some_and(|top| walk.bound[group] < top.objective_order())
            {
                break;
            }
            let to = walk.end[group] as usize;
            for &k in &walk.order[from..to] {
                let (k, i) = (k as usize, tasks[k as usize]);
                match bounding.enter(ctx, pool, left, i) {
                    Some((cap, key)) if !open.closed(ctx, i) => {
                        caps[k] = cap;
                        heap.push(Key::new(key, k));
                    }
                    _ => open.leaves(ctx, i),
                }
            }
            (group, from) = (group + 1, to);
        }
        let Some(k) = heap.peek().map(Key::task) else {
            break;
        };
        if !pool.any_open() || open.live == 0 {
            break;
        }
        let i = tasks[k];
        if open.closed(ctx, i) {
            // Its search would find no open machine: no choice.
            heap.pop();
            open.leaves(ctx, i);
            continue;
        }
        let exact = (cached.get(k))
            .filter(|(c, at)| stamp[pool.type_of[c.machine]] == *at && c.energy <= left);
        let c = if let Some((c, _)) = exact {
            // Its key is its objective: the highest.
            heap.pop();
            c
        } else {
            match best(
                ctx,
                pool,
                left,
                (o, search_cap(ctx, left, i, caps[k])),
                i,
                bounding.passing,
                &mut out.refused,
            ) {
                Some((v, c)) => {
                    heap.replace_top(Key::new(v, k));
                    if heap.peek().is_some_and(|t| t.task() != k)
                        || walk.bound.get(group).is_some_and(|&b| b >= total_order(v))
                    {
                        cached.set(k, (c, stamp[pool.type_of[c.machine]]));
                        continue;
                    }
                    heap.pop();
                    c
                }
                None => {
                    heap.pop();
                    open.leaves(ctx, i);
                    continue;
                }
            }
        };
        open.leaves(ctx, i);
        let mt = pool.type_of[c.machine];
        stamp[mt] += 1;
        record(&mut out, pool, &mut left, i, c);
        open.update(ctx, pool, mt);
    }
    bounding.bounds.walk = walk;
    out
}

/// [`minmin`]'s bound on each task's objective at the event, its key while
/// its best is not computed: its utility at the earliest completion any
/// choice can have over its least ETC (Max UPT) or EEC (Max UPE) on the
/// machine types with an open machine, or that utility itself (Max
/// Utility).
struct Bounding<'b> {
    /// Per task type: its earliest completion on the open machines, s
    /// (infinite where its tasks are refused: they have no choice), and its
    /// least ETC (Max UPT) or EEC (Max UPE) on the types with an open
    /// machine (NaN: not computed yet).
    per_type: Vec<(f64, f64)>,
    floors: &'b mut EnergyFloors,
    passing: &'b mut Passing,
    bounds: &'b mut UtilityBounds,
    o: Objective,
}

impl Bounding<'_> {
    /// Task `i`'s (utility bound, key) at this point of the event, `left`
    /// J of the budget left; `None`: it has no choice at the event.
    ///
    /// Every choice completes no earlier than the task type's earliest
    /// completion on the open machines: a task late there has no choice
    /// (its turn in the heap would find none), and its utility there
    /// bounds every choice's. Made once per type, at the first of its
    /// tasks: ready times only grow, machines only close and the budget
    /// only shrinks within the event, so what holds then holds for the
    /// rest of it.
    #[inline(always)]
    fn enter(
        &mut self,
        ctx: &Context<'_>,
        pool: &Machines<'_>,
        left: f64,
        i: usize,
    ) -> Option<(f64, f64)> {
        let task = &ctx.scenario.tasks[i];
        let ty = task.task_type;
        let (earliest, least) = &mut self.per_type[ty];
        if earliest.is_nan() {
            *earliest = if self.floors.refuse(ctx, pool, ty, left) {
                f64::INFINITY
            } else {
                earliest_open(ctx, pool, self.passing, ty)
            };
            *least = match self.o {
                Objective::Util => 1.0,
                Objective::Upt | Objective::Upe => least_open(ctx, pool, self.o, ty),
            };
        }
        let elapsed = *earliest - task.arrival;
        if elapsed > task.utility.last_positive() {
            return None;
        }
        // (Queued, where most tasks are searched anyway, the bound at
        // this event's earliest completion costs fewer searches.)
        let cap = if pool.polled {
            self.bounds.at(task, i, elapsed)
        } else {
            cap_at(task, elapsed)
        };
        // No choice's objective is above it: division is monotone (and
        // Max Utility's key is the cap itself).
        let key = match self.o {
            Objective::Util => cap,
            Objective::Upt | Objective::Upe => cap / *least,
        };
        Some((cap, key))
    }
}

/// [`minmin`]'s exact bests: per task (its position in the event's
/// tasks), its best choice and the assignments to the best's machine type
/// when it was computed. Few tasks of an event are searched, so the choices
/// are kept apart from the per-task slots.
struct Cached {
    /// Per task, its entry in `entries` (`u32::MAX`: none).
    slot: Vec<u32>,
    entries: Vec<(Choice, u64)>,
}

impl Cached {
    fn new(tasks: usize) -> Self {
        Cached {
            slot: vec![u32::MAX; tasks],
            entries: Vec::new(),
        }
    }

    fn get(&self, k: usize) -> Option<(Choice, u64)> {
        self.entries.get(self.slot[k] as usize).copied()
    }

    fn set(&mut self, k: usize, entry: (Choice, u64)) {
        match self.entries.get_mut(self.slot[k] as usize) {
            Some(e) => *e = entry,
            None => {
                self.slot[k] = self.entries.len() as u32;
                self.entries.push(entry);
            }
        }
    }
}

/// [`minmin`]'s count of the tasks with a key whose task type may still run
/// on an open machine, in the polled environment, where assignments close
/// machines. A task of a type with no open machine of a valid type finds
/// no choice (its search skips every closed type, evaluates nothing and
/// reports no refusal): its turn is taken without a search, and the event
/// ends once no other task holds a key. Off (`live` never reaches 0) in the
/// queued environment, which closes no machine, and with more than 64
/// machine types.
struct Openness {
    on: bool,
    /// The machine types with an open machine (bit `mt`).
    open_types: u64,
    /// Per task type, how many of its tasks hold a key.
    holding: Vec<usize>,
    /// How many tasks hold a key and have an open machine of a valid type.
    live: usize,
}

impl Openness {
    /// From `holding`: per task type, how many of its tasks hold a key.
    fn new(ctx: &Context<'_>, pool: &Machines<'_>, holding: Vec<usize>) -> Self {
        let on = pool.polled && pool.best.len() <= 64;
        let mut open = Openness {
            on,
            open_types: 0,
            holding,
            live: usize::MAX,
        };
        if on {
            open.open_types = (0..pool.best.len())
                .filter(|&mt| pool.best[mt].is_some())
                .fold(0, |mask, mt| mask | 1 << mt);
            open.count(ctx);
        }
        open
    }

    fn count(&mut self, ctx: &Context<'_>) {
        self.live = (self.holding.iter().enumerate())
            .filter(|&(ty, _)| ctx.orders.valid_types[ty] & self.open_types != 0)
            .map(|(_, &n)| n)
            .sum();
    }

    /// Whether task `i`'s type has no open machine of a valid type.
    fn closed(&self, ctx: &Context<'_>, i: usize) -> bool {
        let ty = ctx.scenario.tasks[i].task_type;
        self.on && ctx.orders.valid_types[ty] & self.open_types == 0
    }

    /// Task `i` gives up its key.
    fn leaves(&mut self, ctx: &Context<'_>, i: usize) {
        if self.on {
            let ty = ctx.scenario.tasks[i].task_type;
            self.holding[ty] -= 1;
            if ctx.orders.valid_types[ty] & self.open_types != 0 {
                self.live -= 1;
            }
        }
    }

    /// An assignment went to a machine of type `mt`.
    fn update(&mut self, ctx: &Context<'_>, pool: &Machines<'_>, mt: usize) {
        if self.on && pool.best[mt].is_none() {
            self.open_types &= !(1 << mt);
            self.count(ctx);
        }
    }
}

/// Per task, a bound on its utility kept across mapping events: its
/// utility `elapsed` seconds after arrival, raised by a relative 1e-12
/// against rounding, never above its priority (value units). Utility never
/// rises with the completion time, so it bounds every completion at least
/// `elapsed` seconds after arrival, at any later event too. In the polled
/// environment [`minmin`] takes it in place of the bound at the event's
/// earliest completion while that is no earlier and at most
/// [`BOUND_REUSE_S`] later, sparing a utility evaluation per task and
/// event for the many tasks that never reach the top of its heap; a looser
/// key can only cost more searches, never change a choice.
#[derive(Debug, Clone)]
pub struct UtilityBounds {
    /// Per task: (elapsed, s; bound, value units); NaN: none yet.
    bound: Vec<(f64, f64)>,
    /// [`minmin`]'s walk order, made at the first event.
    walk: Walk,
}

/// How much later than its own time, s, a kept utility bound is still
/// taken (ten mapping events at the default `--event-interval` of 60 s).
pub const BOUND_REUSE_S: f64 = 600.0;

impl UtilityBounds {
    /// None yet, for `tasks` tasks (0 for a run that is not polled
    /// Min-Min, which never asks).
    pub fn new(tasks: usize) -> Self {
        UtilityBounds {
            bound: vec![(f64::NAN, f64::NAN); tasks],
            walk: Walk::default(),
        }
    }

    /// A bound on task `i`'s utility at any completion `elapsed` seconds or
    /// more after its arrival: the kept one if it holds there and is
    /// recent, else its [`cap_at`] there, kept.
    fn at(&mut self, task: &EnergyTask, i: usize, elapsed: f64) -> f64 {
        let (at, bound) = self.bound[i];
        if at <= elapsed && elapsed - at <= BOUND_REUSE_S {
            return bound;
        }
        let bound = cap_at(task, elapsed);
        self.bound[i] = (elapsed, bound);
        bound
    }
}

/// Polled Max UPT's and Max UPE's walk order ([`minmin`]): each task's
/// walk bound, a bound on its key at any event, its priority (which bounds
/// its utility) over its task type's least ETC (Max UPT) or EEC (Max UPE)
/// over every machine type (no more than over the open ones: division is
/// monotone); the tasks in groups by walk bound, highest first. [`minmin`]
/// puts a group's tasks in its heap only once the group's bound is no
/// lower than the heap's top, which spares the hundreds of waiting tasks
/// whose walk bound is below the objectives assigned at the event.
#[derive(Debug, Clone, Default)]
struct Walk {
    /// The objective the groups are made for (`None`: not made).
    objective: Option<Objective>,
    /// Per task of the scenario: its group and its task type.
    of_task: Vec<(u32, u32)>,
    /// Per group, highest first: the highest walk bound among its tasks,
    /// as its place in `f64::total_cmp`'s order ([`total_order`]).
    bound: Vec<u64>,
    /// At an event, after [`Walk::sort`]: where each group's tasks end in
    /// `order` (group `g`'s start where group `g − 1`'s ends).
    end: Vec<u32>,
    /// At an event, after [`Walk::sort`]: the positions of the event's
    /// tasks, group by group.
    order: Vec<u32>,
}

/// At most this many walk groups: the distinct walk bounds, highest first,
/// in runs of equal length where there are more (a group's bound is then
/// the highest of its run).
const WALK_GROUPS: usize = 1024;

/// Groups `bounds` (places in `f64::total_cmp`'s order) by value, highest
/// first, in at most `most` groups (1 or more): the distinct values in
/// runs of equal length. Returns each group's bound (the highest value in
/// it, descending from group to group) and each value's group.
fn walk_groups(bounds: &[u64], most: usize) -> (Vec<u64>, Vec<u32>) {
    let mut distinct = bounds.to_vec();
    distinct.sort_unstable_by(|a, b| b.cmp(a));
    distinct.dedup();
    let run = distinct.len().div_ceil(most.max(1)).max(1);
    let bound = distinct.iter().step_by(run).copied().collect();
    let group = (bounds.iter())
        .map(|&b| (distinct.partition_point(|&d| d > b) / run) as u32)
        .collect();
    (bound, group)
}

impl Walk {
    /// Makes the groups for objective `o` (Max UPT or Max UPE), unless
    /// made.
    fn make(&mut self, ctx: &Context<'_>, o: Objective) {
        if self.objective == Some(o) {
            return;
        }
        let least = |ty: usize| {
            let list = match o {
                Objective::Upe => &ctx.orders.by_eec[ty],
                Objective::Upt | Objective::Util => &ctx.orders.by_etc[ty],
            };
            list.first().map_or(f64::INFINITY, |c| c.2)
        };
        let tasks = &ctx.scenario.tasks;
        let bounds: Vec<u64> = (tasks.iter())
            .map(|t| total_order(t.utility.priority() / least(t.task_type)))
            .collect();
        let (bound, group) = walk_groups(&bounds, WALK_GROUPS);
        self.bound = bound;
        self.of_task = (group.into_iter().zip(tasks))
            .map(|(g, t)| (g, t.task_type as u32))
            .collect();
        self.objective = Some(o);
    }

    /// Puts the positions of `tasks` (the event's) in `order` group by
    /// group (a counting sort) and counts them per task type in `holding`.
    fn sort(&mut self, tasks: &[usize], holding: &mut [usize]) {
        let groups = self.bound.len();
        self.end.clear();
        self.end.resize(groups + 1, 0);
        for &i in tasks {
            let (g, ty) = self.of_task[i];
            holding[ty as usize] += 1;
            self.end[g as usize + 1] += 1;
        }
        for g in 1..=groups {
            self.end[g] += self.end[g - 1];
        }
        // Each group's start, moved on past each of its tasks: its end.
        self.order.clear();
        self.order.resize(tasks.len(), 0);
        for (k, &i) in tasks.iter().enumerate() {
            let at = &mut self.end[self.of_task[i].0 as usize];
            self.order[*at as usize] = k as u32;
            *at += 1;
        }
    }
}

#[cfg(test)]
mod tests;
