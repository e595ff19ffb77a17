//! The twelve heuristics of environment C (Khemka et al., §III.D), as three
//! loops: [`random`], [`ordered`] (FCFS, LCFS and their prioritized
//! versions, given an [`Order`] and a [`PStates`] rule) and [`minmin`]
//! (Max Utility, Max UPT, Max UPE, given an [`Objective`]).
//!
//! Every loop sees the same choices: a (task, machine, P-state) is made only
//! if the task may run on the machine's type, it earns utility above zero at
//! its completion, its EEC passes the filter (EEC ≤ e_bud) and its energy in
//! the counted day fits what the budget has left. In the queued environment
//! every machine is available and a task starts at the machine's ready time
//! (the end of its queue so far), which grows with each assignment; in the
//! polled environment only idle machines are, each for one task, starting
//! now.
//!
//! Nine shortcuts skip work without changing a choice:
//!
//! - a task that completes after its utility reached zero even at the
//!   earliest completion any of its choices can have at that point of the
//!   event is skipped without trying the machine types one by one: Random
//!   and the ordered heuristics keep, per task type, an earliest completion
//!   made at an earlier point (no later than the current one, as ready
//!   times only grow and machines only close), made again only when it
//!   does not settle the question; Min-Min leaves such tasks out of its
//!   heap and bounds each task's utility by its utility at that
//!   completion;
//! - a task none of whose tried choices passes the filter, or, once the
//!   budget has refused a choice (the engine records only the first
//!   refusal, [`Context::track_refusal`]), whose every choice certainly
//!   costs more than the budget has left (a lower bound on its energy per
//!   task type, recomputed when the latest ready time grows), is skipped
//!   without evaluating its choices: each evaluation would fail. Random
//!   still makes the draws it would have made, so its stream stays the
//!   same;
//! - Random, listing every choice that passes once its draws found none,
//!   passes over a machine type whose earliest-ready machine completes the
//!   task too late in every P-state that passes: its other machines are
//!   ready no earlier, so each of their choices is late too;
//! - the prioritized orders group the tasks by priority with a counting
//!   sort when arrivals follow the task index ([`TaskOrder`]);
//! - Max UPT and Max UPE bound a task's utility by its utility at the
//!   earliest completion any choice can have at the event, not by its
//!   priority, and stop searching sooner ([`minmin`]); only where the
//!   budget cannot refuse a choice or a refusal need not be reported, as
//!   the search then evaluates fewer choices;
//! - under the same condition, Max Utility in the queued environment tries
//!   a task's machine types in order of their earliest completion and
//!   stops at the first that completes where the utility function is below
//!   the best found, with a relative margin of 1e-9 against rounding
//!   ([`crate::model::utility::UtilityFunction::last_at_least`]);
//! - under the same condition, held for the whole event, the three put a
//!   task in their heap with a bound on its objective and find its best
//!   choice only when the bound reaches the top ([`minmin`]);
//! - in the polled environment, the three end the event once no task in
//!   their heap may run on a machine still idle (each assignment takes one
//!   out of the pool): the tasks left would find no choice; and they keep
//!   each task's utility bound from one event to the next while it holds
//!   ([`UtilityBounds`]);
//! - in the polled environment, Max UPT and Max UPE give a task a key only
//!   once a bound that holds at every event (its priority over its least
//!   ETC or EEC on any machine type) may reach the top of their heap: the
//!   hundreds of tasks that wait below the keys an event assigns are not
//!   looked at (`Walk`).
//!
//! All of them are off in the tests' from-scratch reference
//! (`engine::simulate_from_scratch`), which the tests compare run for run.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rand::RngExt;
use rand::seq::SliceRandom;

use super::matrices::P_STATES;
use super::window_energy;
use super::{EnergyScenario, EnergyTask, Objective, Order, PStates, Policy};
use crate::model::rng::{ChaCha8Rng, stream};

const RANDOM_STREAM: u64 = 0xC_0100;

/// The stream the Random heuristic draws from, of the scenario's seed.
pub fn random_stream(seed: u64) -> ChaCha8Rng {
    stream(seed, RANDOM_STREAM)
}

/// What one mapping event may use, besides the machines.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The scenario.
    pub scenario: &'a EnergyScenario,
    /// The event's time, s.
    pub now: f64,
    /// The filter's fair share, J (`None`: no filter).
    pub e_bud: Option<f64>,
    /// E − (e_cons + e_unmov), J (infinite without a budget).
    pub budget_left: f64,
    /// The valid choices of every task type, in the orders Min-Min uses.
    pub orders: &'a ChoiceOrders,
    /// Whether the heuristic must report a refusal by the budget
    /// ([`Outcome::refused`]): only until the first one, which is all the
    /// engine records. Once it need not, a task whose every choice is
    /// certainly refused by the budget (a lower bound on its energy) is skipped
    /// without evaluating its choices.
    pub track_refusal: bool,
    /// The order of the prioritized heuristics.
    pub task_order: &'a TaskOrder,
    /// Evaluate every choice and sort by comparisons, with none of the
    /// shortcuts above (the tests' reference).
    pub(crate) from_scratch: bool,
}

/// Per task type, its valid (machine type, P-state) pairs by ascending EEC
/// and by ascending ETC (ties by machine type, then P-state), each with its
/// EEC (J) or ETC (s), as `evaluate` computes them: in these
/// orders the bounds of Max UPE and Max UPT, a bound on the task's utility
/// (its priority, or its utility at its earliest completion: [`minmin`])
/// over the EEC or the ETC, only fall, so a search can stop at the first
/// that cannot win.
///
/// Also, per task type, its least ETC over its valid choices, and the most
/// energy any choice can take in the counted day.
#[derive(Debug, Clone)]
pub struct ChoiceOrders {
    by_eec: Vec<Vec<(usize, usize, f64)>>,
    by_etc: Vec<Vec<(usize, usize, f64)>>,
    /// Per task type, its least ETC, s (infinite: no valid choice).
    least_etc: Vec<f64>,
    /// No choice's energy in the counted day exceeds it, J.
    max_energy: f64,
    /// Per task type and machine type, its valid P-states (bit `p` set).
    valid: Vec<u8>,
    /// Per task type and machine type, its ETC in P-state 0, s (infinite:
    /// not valid).
    etc0: Vec<f64>,
    /// Per task type and machine type, its EEC in each P-state, J, as
    /// `evaluate` computes it (infinite: not valid): the filter's test
    /// without the matrices' lookups ([`Passing`]).
    eec: Vec<[f64; P_STATES]>,
    /// Per task type, its least EEC over its valid choices in P-state 0,
    /// and in any P-state, J (infinite: no valid choice).
    least_eec: Vec<[f64; 2]>,
    /// Per task type, the machine types it may run on (bit `mt` set; 0
    /// for every task type where there are more than 64 machine types).
    valid_types: Vec<u64>,
    /// Per task type, the machines of a type it may run on, by id: Random's
    /// candidates where every machine is open (the queued environment).
    valid_machines: Vec<Vec<usize>>,
    /// The machines' types ([`super::Matrices::machine_type_of`]), which
    /// `valid_machines` holds for.
    type_of: Vec<usize>,
}

impl ChoiceOrders {
    /// The orders of `matrices`.
    pub fn new(matrices: &super::Matrices) -> Self {
        let sorted = |i: usize, key: &dyn Fn(usize, usize) -> f64| {
            let mut v: Vec<(usize, usize, f64)> = (0..matrices.machine_types.len())
                .filter(|&mt| matrices.valid(i, mt))
                .flat_map(|mt| (0..P_STATES).map(move |p| (mt, p, key(mt, p))))
                .collect();
            v.sort_by(|a, b| a.2.total_cmp(&b.2).then((a.0, a.1).cmp(&(b.0, b.1))));
            v
        };
        let n = matrices.task_types();
        let types = matrices.machine_types.len();
        let choices =
            |i: usize| (0..types).flat_map(move |mt| (0..P_STATES).map(move |p| (i, mt, p)));
        let least_etc = (0..n)
            .map(|i| {
                choices(i)
                    .filter_map(|(i, mt, p)| matrices.etc(i, mt, p))
                    .fold(f64::INFINITY, f64::min)
            })
            .collect();
        // Energy in the day is APC times at most ETC (the time of
        // [start, start + ETC] in the day); a second more covers the
        // rounding of start + ETC − start many times over.
        let max_energy = (0..n)
            .flat_map(choices)
            .filter_map(|(i, mt, p)| {
                Some(matrices.apc(i, mt, p)? * (matrices.etc(i, mt, p)? + 1.0))
            })
            .fold(0.0, f64::max);
        let valid = (0..n)
            .flat_map(|i| (0..types).map(move |mt| valid_mask(matrices, i, mt)))
            .collect();
        let eec: Vec<[f64; P_STATES]> = (0..n)
            .flat_map(|i| {
                (0..types).map(move |mt| {
                    std::array::from_fn(|p| {
                        match (matrices.etc(i, mt, p), matrices.apc(i, mt, p)) {
                            (Some(etc), Some(apc)) => etc * apc,
                            _ => f64::INFINITY,
                        }
                    })
                })
            })
            .collect();
        let least_eec = eec
            .chunks(types.max(1))
            .map(|row| {
                let p0 = row.iter().map(|e| e[0]).fold(f64::INFINITY, f64::min);
                let all = row.iter().flatten().copied().fold(f64::INFINITY, f64::min);
                [p0, all]
            })
            .collect();
        let valid_types = (0..n)
            .map(|i| {
                (0..types)
                    .filter(|&mt| types <= 64 && matrices.valid(i, mt))
                    .fold(0u64, |mask, mt| mask | 1 << mt)
            })
            .collect();
        let type_of = matrices.machine_type_of();
        let valid_machines = (0..n)
            .map(|i| {
                (0..type_of.len())
                    .filter(|&m| matrices.valid(i, type_of[m]))
                    .collect()
            })
            .collect();
        ChoiceOrders {
            valid,
            valid_types,
            valid_machines,
            type_of,
            eec,
            least_eec,
            etc0: matrices.etc_table(0),
            least_etc,
            max_energy,
            by_eec: (0..n)
                .map(|i| sorted(i, &|mt, p| matrices.eec(i, mt, p).unwrap_or(f64::INFINITY)))
                .collect(),
            by_etc: (0..n)
                .map(|i| sorted(i, &|mt, p| matrices.etc(i, mt, p).unwrap_or(f64::INFINITY)))
                .collect(),
        }
    }
}

/// The order of the prioritized heuristics (Prioritized-FCFS and
/// Prioritized-LCFS, Khemka et al. §III.D), prepared once per run: each
/// task's priority class (0 the highest priority) and whether the tasks'
/// arrivals never decrease with their index.
///
/// When they never decrease, ordering by (arrival, index) is ordering by
/// index, so the tasks of a mapping event (ascending index) ordered by
/// priority, then by arrival, are their stable grouping by priority class:
/// no comparison sort is needed. Otherwise [`ordered`] sorts as the paper's
/// rule says.
#[derive(Debug, Clone)]
pub struct TaskOrder {
    /// Per task, the rank of its priority among the distinct priorities,
    /// highest first.
    class: Vec<u32>,
    /// How many distinct priorities.
    classes: usize,
    /// Whether arrivals never decrease with the task index.
    by_index: bool,
}

impl TaskOrder {
    /// The order of the tasks of `s`.
    pub fn new(s: &EnergyScenario) -> Self {
        let mut priorities: Vec<f64> = s.tasks.iter().map(|t| t.utility.priority()).collect();
        priorities.sort_by(|a, b| b.total_cmp(a));
        priorities.dedup_by(|a, b| a.total_cmp(b) == Ordering::Equal);
        let class = s
            .tasks
            .iter()
            .map(|t| {
                let p = t.utility.priority();
                priorities
                    .binary_search_by(|q| p.total_cmp(q))
                    .expect("every priority is listed") as u32
            })
            .collect();
        let by_index = s
            .tasks
            .windows(2)
            .all(|w| w[0].arrival.total_cmp(&w[1].arrival) != Ordering::Greater);
        TaskOrder {
            class,
            classes: priorities.len(),
            by_index,
        }
    }

    /// `tasks` (ascending index) by priority, highest first, then by
    /// arrival (ascending, or descending with `lcfs`; ties by index the
    /// same way), into `out`; `None` when arrivals do not follow the index.
    fn by_priority(&self, tasks: &[usize], lcfs: bool, out: &mut Vec<usize>) -> Option<()> {
        if !self.by_index {
            return None;
        }
        // A stable counting sort by class of the tasks in (reversed) index
        // order.
        let mut start = vec![0usize; self.classes + 1];
        for &i in tasks {
            start[self.class[i] as usize + 1] += 1;
        }
        for c in 0..self.classes {
            start[c + 1] += start[c];
        }
        out.clear();
        out.resize(tasks.len(), 0);
        let mut place = |i: usize| {
            let c = self.class[i] as usize;
            out[start[c]] = i;
            start[c] += 1;
        };
        if lcfs {
            tasks.iter().rev().for_each(|&i| place(i));
        } else {
            tasks.iter().for_each(|&i| place(i));
        }
        Some(())
    }
}

/// Per task type, a lower bound (J) on the energy in the counted day of
/// any choice a heuristic may evaluate at a mapping event: a valid
/// (machine type, P-state) among the P-states it tries whose EEC passes the
/// filter, started at a ready time between the pool's earliest and latest
/// (infinite when no such choice exists). A task whose bound is infinite,
/// or (once refusals need not be reported, [`Context::track_refusal`])
/// above what the budget has left, cannot be assigned: each of its
/// evaluations would fail on the filter, on its lateness or on the budget,
/// so it is skipped without them.
///
/// Real arithmetic gives, for a start s in [lo, hi], a time in the day of
/// min(s + ETC, end) − max(s, start of the day) ≥ min(ETC, end − hi,
/// lo + ETC − start of the day, the day's length); the evaluation's
/// floating point differs from it by a few units in the last place of
/// these times, far below the slack of 1e-12 × their magnitudes taken off,
/// so the bound never exceeds the energy an evaluation computes.
///
/// Whether a bound is infinite does not depend on the ready times, so
/// while refusals must be reported only that is kept (per event, as the
/// filter's share is fixed within it). The bounds themselves are made for
/// a latest ready time rounded up past the pool's ([`FLOOR_HI_STEP`]), a
/// weaker bound that holds until the pool's latest ready time passes it,
/// so that they are not made again at every assignment of the queued
/// environment.
#[derive(Debug, Clone)]
struct EnergyFloors {
    /// Per task type, its bound (NaN: not computed at this `hi`; infinite:
    /// no choice passes the filter).
    floor: Vec<f64>,
    /// Per task type, whether a choice passes the filter (`None`: not
    /// known yet).
    passes: Vec<Option<bool>>,
    /// The latest ready time the bounds hold for, s (no earlier than the
    /// pool's).
    hi: f64,
    /// The heuristic evaluates P-states 0 to `tries` − 1 only.
    tries: usize,
    /// It evaluates, on each machine type, only the first of those that
    /// passes the filter (the ordered heuristics).
    first_only: bool,
}

/// How far past the pool's latest ready time the energy floors are made
/// for, s: they are made again when the pool's latest ready time passes
/// that.
const FLOOR_HI_STEP: f64 = 600.0;

impl EnergyFloors {
    /// For a heuristic that evaluates P-states below `tries` only (1: P-state
    /// 0, or all [`P_STATES`]).
    fn new(task_types: usize, tries: usize) -> Self {
        debug_assert!(tries == 1 || tries == P_STATES, "{tries}");
        EnergyFloors {
            floor: vec![f64::NAN; task_types],
            passes: vec![None; task_types],
            hi: f64::NEG_INFINITY,
            tries,
            first_only: false,
        }
    }

    /// For a heuristic that evaluates, on each machine type, only the first
    /// P-state below `tries` that passes the filter: its bound is over
    /// those choices only (no lower than over all).
    fn first_passing(task_types: usize, tries: usize) -> Self {
        EnergyFloors {
            first_only: true,
            ..Self::new(task_types, tries)
        }
    }

    /// Whether a task of type `ty` certainly cannot be assigned with `left`
    /// joules left: none of its choices passes the filter, or (once
    /// refusals need not be reported) every one's energy is above `left`.
    fn refuse(&mut self, ctx: &Context<'_>, pool: &Machines<'_>, ty: usize, left: f64) -> bool {
        if ctx.from_scratch {
            return false;
        }
        // No choice passes the filter: nothing reaches the budget, so there
        // is no refusal to report either.
        let passes = match self.passes[ty] {
            Some(passes) => passes,
            None => {
                let passes = self.any_passes(ctx, ty);
                self.passes[ty] = Some(passes);
                passes
            }
        };
        if !passes {
            return true;
        }
        if ctx.track_refusal {
            return false;
        }
        if pool.hi > self.hi {
            self.floor.fill(f64::NAN);
            self.hi = pool.hi + FLOOR_HI_STEP;
        }
        if self.floor[ty].is_nan() {
            self.floor[ty] = self.compute(ctx, pool.lo, ty);
        }
        self.floor[ty] > left
    }

    /// Whether a valid (machine type, P-state) among those tried passes
    /// the filter: exactly when [`EnergyFloors::compute`] is finite.
    fn any_passes(&self, ctx: &Context<'_>, ty: usize) -> bool {
        // Some valid choice has !(EEC > e_bud) exactly when the least one
        // has (EECs are finite): the test of [`Passing::of`].
        let least = ctx.orders.least_eec[ty][usize::from(self.tries > 1)];
        least.is_finite() && !ctx.e_bud.is_some_and(|b| least > b)
    }

    fn compute(&self, ctx: &Context<'_>, lo: f64, ty: usize) -> f64 {
        let s = ctx.scenario;
        let (w0, w1) = s.window;
        let hi = self.hi;
        let mut floor = f64::INFINITY;
        for mt in 0..s.matrices.machine_types.len() {
            for p in 0..self.tries {
                let (Some(etc), Some(apc)) = (s.matrices.etc(ty, mt, p), s.matrices.apc(ty, mt, p))
                else {
                    continue;
                };
                if ctx.e_bud.is_some_and(|b| etc * apc > b) {
                    continue;
                }
                let time = etc.min(w1 - hi).min(lo + etc - w0).min(w1 - w0);
                let slack = 1e-12 * (hi.abs() + lo.abs() + etc + w0.abs() + w1.abs());
                let bound = (apc * (time - slack) * (1.0 - 1e-12)).max(0.0);
                floor = floor.min(bound);
                if self.first_only {
                    break;
                }
            }
        }
        floor
    }
}

/// Per task type and machine type, which P-states pass at a mapping event:
/// valid, and with an EEC within the filter's share (bit `p` set). A choice
/// whose bit is clear is a [`Miss::Type`] without evaluating it. Without a
/// filter these are the valid P-states ([`ChoiceOrders`]); with one, each
/// pair's mask is made when first asked for, as the share is fixed within
/// an event.
#[derive(Debug, Clone)]
struct Passing {
    /// Per task type, one mask per machine type ([`UNKNOWN`]: not made).
    masks: Vec<u8>,
    types: usize,
}

/// A mask not made yet.
const UNKNOWN: u8 = 0x80;

impl Passing {
    fn new(ctx: &Context<'_>) -> Self {
        let types = ctx.scenario.matrices.machine_types.len();
        let masks = match ctx.e_bud {
            None => ctx.orders.valid.clone(),
            Some(_) => vec![UNKNOWN; ctx.orders.valid.len()],
        };
        Passing { masks, types }
    }

    /// The mask of task type `ty` on machine type `mt`: the valid P-states
    /// whose EEC is not above e_bud, with the test and arithmetic of
    /// `evaluate` (EEC = ETC · APC).
    fn of(&mut self, ctx: &Context<'_>, ty: usize, mt: usize) -> u8 {
        let mask = &mut self.masks[ty * self.types + mt];
        if *mask == UNKNOWN {
            let cell = ty * self.types + mt;
            *mask = ctx.orders.valid[cell];
            if let Some(b) = ctx.e_bud {
                let eec = &ctx.orders.eec[cell];
                for (p, &e) in eec.iter().enumerate() {
                    if e > b {
                        *mask &= !(1 << p);
                    }
                }
            }
        }
        *mask
    }
}

/// Which P-states of task type `ty` on machine type `mt` are valid (bit
/// `p` set).
fn valid_mask(m: &super::Matrices, ty: usize, mt: usize) -> u8 {
    (0..P_STATES).fold(0u8, |mask, p| {
        let valid = m.etc(ty, mt, p).is_some() && m.apc(ty, mt, p).is_some();
        mask | (u8::from(valid) << p)
    })
}

/// Whether P-state `p` is set in `mask`.
fn has(mask: u8, p: usize) -> bool {
    mask & (1 << p) != 0
}

/// The machines available at a mapping event and their ready times.
#[derive(Debug, Clone)]
pub struct Machines<'a> {
    type_of: &'a [usize],
    ready: Vec<f64>,
    open: Vec<bool>,
    polled: bool,
    /// The machines type by type, by id within a type: type `t`'s are
    /// `by_type[type_start[t]..type_start[t + 1]]`.
    by_type: Vec<usize>,
    type_start: Vec<usize>,
    /// Per machine type, the open machine of earliest ready time (lowest
    /// id on ties).
    best: Vec<Option<usize>>,
    /// Per machine type, the ready time of its `best` machine, s (infinite:
    /// none open).
    best_ready: Vec<f64>,
    /// No later than any open machine's ready time, s (the earliest when
    /// the pool was made; ready times only grow).
    lo: f64,
    /// No earlier than any open machine's ready time, s.
    hi: f64,
    /// Whether machine ids follow the types (each type's machines are
    /// consecutive ids), as the engine numbers them.
    ids_by_type: bool,
    /// Whether every machine is open and stays so (the queued
    /// environment).
    all_open: bool,
}

impl<'a> Machines<'a> {
    /// The machines of types `type_of` (`types` types); `state(m)` gives
    /// machine `m`'s ready time (s) and whether it is available. In the
    /// polled environment an assignment closes the machine; in the queued
    /// one it moves its ready time on.
    pub fn new(
        type_of: &'a [usize],
        types: usize,
        polled: bool,
        state: impl Fn(usize) -> (f64, bool),
    ) -> Self {
        let (ready, open): (Vec<f64>, Vec<bool>) = (0..type_of.len()).map(state).unzip();
        // A counting sort of the machines by type (stable: by id within a
        // type).
        let mut type_start = vec![0usize; types + 1];
        for &t in type_of {
            type_start[t + 1] += 1;
        }
        for t in 0..types {
            type_start[t + 1] += type_start[t];
        }
        let mut by_type = vec![0usize; type_of.len()];
        let mut next = type_start.clone();
        for (m, &t) in type_of.iter().enumerate() {
            by_type[next[t]] = m;
            next[t] += 1;
        }
        let (lo, hi) = ready
            .iter()
            .zip(&open)
            .filter(|(_, o)| **o)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (&r, _)| {
                (lo.min(r), hi.max(r))
            });
        let mut pool = Machines {
            ids_by_type: type_of.windows(2).all(|w| w[0] <= w[1]),
            all_open: !polled && open.iter().all(|&o| o),
            type_of,
            ready,
            open,
            polled,
            by_type,
            type_start,
            best: vec![None; types],
            best_ready: vec![f64::INFINITY; types],
            lo,
            hi,
        };
        for t in 0..types {
            pool.refresh(t);
        }
        pool
    }

    fn refresh(&mut self, t: usize) {
        // Machines are listed by id and ready times are finite: the first
        // strictly earliest is the earliest, lowest id on ties.
        if self.all_open && self.ids_by_type {
            // The type's machines are the ids from its first to its last.
            let ms = self.of_type(t);
            self.best[t] = ms.first().map(|&a| {
                let ready = &self.ready[a..=ms[ms.len() - 1]];
                let (mut k, mut earliest) = (0, ready[0]);
                for (j, &r) in ready.iter().enumerate().skip(1) {
                    if r < earliest {
                        (k, earliest) = (j, r);
                    }
                }
                a + k
            });
            self.best_ready[t] = self.best[t].map_or(f64::INFINITY, |m| self.ready[m]);
            return;
        }
        let mut best = None;
        let mut earliest = f64::INFINITY;
        for &m in self.of_type(t) {
            let r = self.ready[m];
            if self.open[m] && (best.is_none() || r < earliest) {
                best = Some(m);
                earliest = r;
            }
        }
        self.best[t] = best;
        self.best_ready[t] = best.map_or(f64::INFINITY, |m| self.ready[m]);
    }

    /// The machines of type `t`, by id.
    fn of_type(&self, t: usize) -> &[usize] {
        &self.by_type[self.type_start[t]..self.type_start[t + 1]]
    }

    fn take(&mut self, m: usize, etc: f64) {
        if self.polled {
            self.open[m] = false;
        } else {
            self.ready[m] += etc;
            self.hi = self.hi.max(self.ready[m]);
        }
        // Another machine of the type stays its best: it was ready no later
        // (lower id on ties) and still is.
        let t = self.type_of[m];
        if self.best[t] == Some(m) {
            self.refresh(t);
        }
    }

    fn any_open(&self) -> bool {
        self.best.iter().any(Option::is_some)
    }
}

/// One assignment of a mapping event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Assignment {
    /// The task.
    pub task: usize,
    /// The machine.
    pub machine: usize,
    /// The P-state.
    pub pstate: u8,
    /// Its start, s (the machine's ready time when assigned).
    pub start: f64,
}

/// What a heuristic did at one mapping event.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    /// The assignments, in the order made.
    pub assignments: Vec<Assignment>,
    /// Whether the budget refused a choice that passed everything else.
    pub refused: bool,
}

/// One evaluated choice.
#[derive(Debug, Clone, Copy)]
struct Choice {
    machine: usize,
    pstate: u8,
    start: f64,
    etc: f64,
    utility: f64,
    eec: f64,
    energy: f64,
}

/// Why a choice is not made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Miss {
    /// The task may not run on the type, or its EEC fails the filter (so
    /// on every machine of the type).
    Type,
    /// It would complete after its utility reached zero (so on every later
    /// start too).
    Late,
    /// Its energy in the day does not fit what the budget has left.
    Budget,
    /// Its objective cannot reach the floor given.
    Pruned,
}

/// A floor on the objective of the choices worth computing: a choice whose
/// objective, with its utility bounded by `cap`, is below `value` cannot
/// win.
#[derive(Debug, Clone, Copy)]
struct Floor {
    objective: Objective,
    value: f64,
    /// No choice of the task earns more utility (value units).
    cap: f64,
}

/// What [`evaluate`] must find out about a choice's utility.
#[derive(Debug, Clone, Copy)]
enum Need {
    /// The utility itself (Max Utility, Max UPT, Max UPE); with a floor, a
    /// choice whose objective cannot reach it (utility bounded by the
    /// floor's cap) is [`Miss::Pruned`] before its utility is computed.
    Utility(Option<Floor>),
    /// Only that it is above zero (Random, the ordered heuristics): the
    /// choice's `utility` is NaN, the test the same
    /// ([`crate::model::utility::UtilityFunction::is_positive`]).
    Positive,
}

/// Evaluates (task `i`, machine `m`, P-state `p`) started at the machine's
/// ready time against the filter, the `left` joules of the budget (a
/// refusal sets `refused`) and a utility above zero, finding out about its
/// utility what `need` says.
#[inline(always)]
fn evaluate(
    ctx: &Context<'_>,
    pool: &Machines<'_>,
    left: f64,
    (i, m, p): (usize, usize, usize),
    refused: &mut bool,
    need: Need,
) -> Result<Choice, Miss> {
    let s = ctx.scenario;
    let task = &s.tasks[i];
    let mt = pool.type_of[m];
    let (Some(etc), Some(apc)) = (
        s.matrices.etc(task.task_type, mt, p),
        s.matrices.apc(task.task_type, mt, p),
    ) else {
        return Err(Miss::Type);
    };
    let eec = etc * apc;
    if ctx.e_bud.is_some_and(|b| eec > b) {
        return Err(Miss::Type);
    }
    let start = pool.ready[m];
    if late(task, start, Some(etc)) {
        return Err(Miss::Late);
    }
    let elapsed = start + etc - task.arrival;
    let energy = window_energy(apc, start, start + etc, s.window);
    if energy > left {
        // Only the first refusal matters: spare the utility after it.
        if !*refused && task.utility.is_positive(elapsed) {
            *refused = true;
        }
        return Err(Miss::Budget);
    }
    if let Need::Utility(Some(Floor {
        objective: o,
        value: f,
        cap,
    })) = need
    {
        let bound = cap
            / match o {
                Objective::Util => 1.0,
                Objective::Upt => etc,
                Objective::Upe => eec,
            };
        if bound < f {
            return Err(Miss::Pruned);
        }
    }
    let utility = if let Need::Utility(_) = need {
        let u = task.utility.value(elapsed);
        if u <= 0.0 {
            return Err(Miss::Late);
        }
        u
    } else {
        if !task.utility.is_positive(elapsed) {
            return Err(Miss::Late);
        }
        f64::NAN
    };
    Ok(Choice {
        machine: m,
        pstate: p as u8,
        start,
        etc,
        utility,
        eec,
        energy,
    })
}

/// Whether `task`, started at `start` (s) for `etc` seconds (`None`: an
/// invalid choice, not late), completes after its utility reached zero:
/// [`evaluate`]'s lateness test, with its arithmetic, also made before
/// evaluating where most choices are late (a late choice has no other
/// effect).
fn late(task: &EnergyTask, start: f64, etc: Option<f64>) -> bool {
    etc.is_some_and(|etc| start + etc - task.arrival > task.utility.last_positive())
}

fn record(out: &mut Outcome, pool: &mut Machines<'_>, left: &mut f64, task: usize, c: Choice) {
    out.assignments.push(Assignment {
        task,
        machine: c.machine,
        pstate: c.pstate,
        start: c.start,
    });
    *left -= c.energy;
    pool.take(c.machine, c.etc);
}

/// Runs `policy` on the mappable tasks `tasks` (ascending task index);
/// `bounds` carries Min-Min's utility bounds from one event to the next.
pub fn assign(
    policy: Policy,
    ctx: &Context<'_>,
    tasks: &[usize],
    pool: &mut Machines<'_>,
    rng: &mut ChaCha8Rng,
    bounds: &mut UtilityBounds,
) -> Outcome {
    match policy {
        Policy::Random => random(ctx, tasks, pool, rng),
        Policy::Ordered { order, pstates } => ordered(ctx, tasks, pool, order, pstates),
        Policy::MinMin(objective) => minmin(ctx, tasks, pool, objective, bounds),
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
        if earliest_of[ty].1 != made && (ctx.from_scratch || !too_late(earliest_of[ty].0)) {
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
                if !ctx.from_scratch {
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
            if !ctx.from_scratch && ctx.task_order.by_priority(tasks, lcfs, &mut list).is_some() {
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
        if !ctx.from_scratch && earliest_of[ty] - task.arrival > task.utility.last_positive() {
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
/// ([`utility_cap`]) where no choice can be refused by the budget (`left`
/// covers the most energy any choice takes) or a refusal need not be
/// reported, else its priority. A tighter bound stops the search before
/// other choices, so a refusal would be met at others; with the priority
/// the choices evaluated are those of the tests' from-scratch reference.
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
/// Otherwise it evaluates the choices of the tests' from-scratch
/// reference, so that a refusal is met where the reference meets it.
fn prunes(ctx: &Context<'_>, left: f64) -> bool {
    !(ctx.from_scratch || (ctx.track_refusal && left < ctx.orders.max_energy))
}

/// The least ETC (s, for Max UPT) or EEC (J, for Max UPE) of task type
/// `ty` over its valid choices on the machine types with an open machine
/// (infinite: none): the first such choice in [`ChoiceOrders`]' order by
/// that key.
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
/// it is that time plus the first ETC in [`ChoiceOrders`]' order by ETC
/// whose type is open and whose P-state passes: rounding is monotone, so
/// the least sum is the sum with the least ETC.
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
    let lazy =
        !ctx.from_scratch && (!ctx.track_refusal || left - most as f64 * max_energy >= max_energy);
    // Polled, Max UPT and Max UPE put the tasks in the heap group by
    // group of their walk bounds ([`Walk`]), only while a group may reach
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
/// queued environment, which closes no machine, in the tests' from-scratch
/// reference and with more than 64 machine types.
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
        let on = pool.polled && !ctx.from_scratch && pool.best.len() <= 64;
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

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;
    use crate::env::energy::workload::{SyntheticParams, synthetic};

    fn scenario(seed: u64) -> EnergyScenario {
        let params = SyntheticParams {
            tasks_per_day: 2000.0,
            ..SyntheticParams::default()
        };
        synthetic(&params, seed, 0).expect("trial")
    }

    /// A trial and what every event's context borrows from it.
    struct Fixture {
        s: EnergyScenario,
        orders: ChoiceOrders,
        task_order: TaskOrder,
        type_of: Vec<usize>,
        types: usize,
    }

    impl Fixture {
        fn of(s: EnergyScenario) -> Self {
            Fixture {
                orders: ChoiceOrders::new(&s.matrices),
                task_order: TaskOrder::new(&s),
                type_of: s.matrices.machine_type_of(),
                types: s.matrices.machine_types.len(),
                s,
            }
        }

        /// An event at `now` (s) with the filter's share `e_bud` (J) and
        /// `budget_left` (J), refusals not tracked, the shortcuts on.
        fn ctx(&self, now: f64, e_bud: Option<f64>, budget_left: f64) -> Context<'_> {
            Context {
                scenario: &self.s,
                now,
                e_bud,
                budget_left,
                orders: &self.orders,
                track_refusal: false,
                task_order: &self.task_order,
                from_scratch: false,
            }
        }
    }

    /// A task's walk group's bound is no lower than any key the task
    /// enters Min-Min's heap with, at any event, with any machines idle,
    /// filter and budget, for Max UPT and Max UPE: what lets the polled
    /// heap leave out the groups whose bound is below its top. The groups
    /// go from the highest bound down, and a counting sort puts every task
    /// of the event in its group.
    #[test]
    fn walk_bounds_bound_every_heap_key() {
        let fx = Fixture::of(scenario(5));
        let (s, type_of, types) = (&fx.s, &fx.type_of, fx.types);
        let mut rng = stream(5, 4);
        let mut entered = 0;
        for round in 0..200 {
            let now = rng.random_range(3.0 * 3600.0..20.0 * 3600.0);
            let q = [0.02, 0.1, 0.5][round % 3];
            let open: Vec<bool> = (0..type_of.len()).map(|_| rng.random_bool(q)).collect();
            let e_bud = [None, Some(rng.random_range(2e4..2e5))][round % 2];
            let ctx = fx.ctx(now, e_bud, f64::INFINITY);
            let pool = Machines::new(type_of, types, true, |m| (now, open[m]));
            for o in [Objective::Upt, Objective::Upe] {
                let mut bounds = UtilityBounds::new(s.tasks.len());
                let mut walk = Walk::default();
                walk.make(&ctx, o);
                assert!(walk.bound.windows(2).all(|w| w[0] > w[1]));
                let (mut floors, mut passing) = (
                    EnergyFloors::new(s.matrices.task_types(), P_STATES),
                    Passing::new(&ctx),
                );
                let mut bounding = Bounding {
                    per_type: vec![(f64::NAN, f64::NAN); s.matrices.task_types()],
                    floors: &mut floors,
                    passing: &mut passing,
                    bounds: &mut bounds,
                    o,
                };
                let tasks: Vec<usize> = (0..s.tasks.len())
                    .filter(|&i| s.tasks[i].arrival <= now)
                    .collect();
                let mut holding = vec![0; s.matrices.task_types()];
                walk.sort(&tasks, &mut holding);
                let mut seen = vec![false; tasks.len()];
                for g in 0..walk.bound.len() {
                    let from = if g == 0 { 0 } else { walk.end[g - 1] as usize };
                    for &k in &walk.order[from..walk.end[g] as usize] {
                        assert_eq!(walk.of_task[tasks[k as usize]].0 as usize, g);
                        seen[k as usize] = true;
                    }
                }
                assert!(seen.iter().all(|&x| x));
                for &i in &tasks {
                    let (group, ty) = walk.of_task[i];
                    assert_eq!(ty as usize, s.tasks[i].task_type);
                    holding[ty as usize] -= 1;
                    if let Some((cap, key)) = bounding.enter(&ctx, &pool, f64::INFINITY, i) {
                        assert!(cap <= s.tasks[i].utility.priority());
                        let bound = walk.bound[group as usize];
                        assert!(bound >= total_order(key), "round {round} task {i} {o:?}");
                        entered += 1;
                    }
                }
                assert!(holding.iter().all(|&n| n == 0));
            }
        }
        assert!(entered > 10_000, "{entered}");
    }

    /// Walk groups: at most as many as asked, their bounds descending, and
    /// every value in a group no higher than its bound and higher than the
    /// next group's, over random values and group counts.
    #[test]
    fn walk_groups_bound_their_values_in_order() {
        let mut rng = stream(9, 1);
        for round in 0..300 {
            let n = rng.random_range(0..400);
            let spread = [4u64, 50, 1 << 40][round % 3];
            let values: Vec<u64> = (0..n).map(|_| rng.random_range(0..spread)).collect();
            let most = rng.random_range(1..40);
            let (bound, group) = walk_groups(&values, most);
            assert!(bound.len() <= most, "round {round}");
            assert!(bound.windows(2).all(|w| w[0] > w[1]), "round {round}");
            assert_eq!(group.len(), n);
            for (&v, &g) in values.iter().zip(&group) {
                let g = g as usize;
                assert!(bound[g] >= v, "round {round}");
                assert!(
                    bound.get(g + 1).is_none_or(|&next| v > next),
                    "round {round}"
                );
            }
        }
    }

    /// A packed heap key orders as (`f64::total_cmp` on the objective,
    /// then the lower task first): over signed zeros, infinities,
    /// subnormals, neighbours in the last place, NaNs and random values.
    #[test]
    fn heap_keys_order_as_the_objective_then_the_lower_task() {
        let mut values = vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            5e-324,
            -5e-324,
            1.0,
            1.0f64.next_up(),
            1.0f64.next_down(),
            -1.0,
            f64::MAX,
            f64::MIN,
            f64::NAN,
            -f64::NAN,
        ];
        let mut rng = random_stream(7);
        values.extend((0..200).map(|_| rng.random_range(-1e3..1e3)));
        let tasks = [0usize, 1, 2, 1 << 40, usize::MAX >> 1];
        for &a in &values {
            for &b in &values {
                for &i in &tasks {
                    for &j in &tasks {
                        let want = a.total_cmp(&b).then(j.cmp(&i));
                        assert_eq!(Key::new(a, i).cmp(&Key::new(b, j)), want, "{a} {i} {b} {j}");
                        assert_eq!(Key::new(a, i).task(), i);
                    }
                }
            }
        }
    }

    /// The counting sort by priority class gives the comparison sort's
    /// order (priority, then arrival and index) on random sets of tasks.
    #[test]
    fn the_priority_order_is_the_comparison_sorts() {
        let s = scenario(4);
        let order = TaskOrder::new(&s);
        assert!(order.by_index && order.classes > 1);
        let mut rng = stream(4, 1);
        for _ in 0..50 {
            let keep = rng.random_range(0.05..1.0);
            let tasks: Vec<usize> = (0..s.tasks.len())
                .filter(|_| rng.random_bool(keep))
                .collect();
            for lcfs in [false, true] {
                let mut got = Vec::new();
                order.by_priority(&tasks, lcfs, &mut got).expect("by index");
                let mut want = tasks.clone();
                want.sort_by(|&a, &b| {
                    let (ta, tb) = (&s.tasks[a], &s.tasks[b]);
                    let within = ta.arrival.total_cmp(&tb.arrival).then(a.cmp(&b));
                    tb.utility
                        .priority()
                        .total_cmp(&ta.utility.priority())
                        .then(if lcfs { within.reverse() } else { within })
                });
                assert_eq!(got, want, "lcfs {lcfs}");
            }
        }
    }

    /// The filter's masks and `any_passes`, made from the EECs kept in
    /// [`ChoiceOrders`], are the matrices' rule (valid, and ETC · APC not
    /// above e_bud), for shares across the range of EECs, at their exact
    /// values and one ulp either side, with and without static power.
    #[test]
    fn passing_masks_are_the_matrices_rule() {
        for static_w in [0.0, 50.0] {
            let mut s = scenario(5);
            s.matrices.set_static_power(static_w);
            let fx = Fixture::of(s);
            let orders = &fx.orders;
            let m = &fx.s.matrices;
            let types = m.machine_types.len();
            let mut shares = vec![None, Some(0.0), Some(f64::INFINITY), Some(f64::NAN)];
            for ty in (0..m.task_types()).step_by(7) {
                for mt in 0..types {
                    for p in 0..P_STATES {
                        if let Some(e) = m.eec(ty, mt, p) {
                            shares.extend([e.next_down(), e, e.next_up()].map(Some));
                        }
                    }
                }
            }
            let mut differs = 0;
            for &e_bud in &shares {
                let ctx = fx.ctx(0.0, e_bud, 0.0);
                let mut passing = Passing::new(&ctx);
                for ty in 0..m.task_types() {
                    let mut any = [false; 2];
                    for mt in 0..types {
                        let want = (0..P_STATES).fold(0u8, |mask, p| {
                            let passes = match (m.etc(ty, mt, p), m.apc(ty, mt, p)) {
                                (Some(etc), Some(apc)) => !e_bud.is_some_and(|b| etc * apc > b),
                                _ => false,
                            };
                            mask | (u8::from(passes) << p)
                        });
                        assert_eq!(passing.of(&ctx, ty, mt), want, "{ty} {mt} {e_bud:?}");
                        any[0] |= want & 1 != 0;
                        any[1] |= want != 0;
                        differs += usize::from(want != orders.valid[ty * types + mt]);
                    }
                    for (k, tries) in [1, P_STATES].into_iter().enumerate() {
                        let floors = EnergyFloors::new(m.task_types(), tries);
                        assert_eq!(
                            floors.any_passes(&ctx, ty),
                            any[k],
                            "{ty} {tries} {e_bud:?}"
                        );
                    }
                }
            }
            assert!(differs > 1000, "{differs}");
        }
    }

    /// `earliest_open` and `least_open`, read from the choices sorted by
    /// ETC and EEC, are the minima over every open machine type's choices
    /// (the earliest completion over the P-states that pass the filter,
    /// the least ETC and EEC over the valid ones): on pools with one ready
    /// time for every open machine (polled) and with ready times of their
    /// own (queued), a few or most machines open, with and without a
    /// filter.
    #[test]
    fn earliest_and_least_are_the_minima_over_the_open_types() {
        let fx = Fixture::of(scenario(6));
        let (m, type_of, types) = (&fx.s.matrices, &fx.type_of, fx.types);
        let eecs: Vec<f64> = (0..m.task_types())
            .flat_map(|ty| (0..types).flat_map(move |mt| (0..P_STATES).map(move |p| (ty, mt, p))))
            .filter_map(|(ty, mt, p)| m.eec(ty, mt, p))
            .collect();
        let mut rng = stream(6, 2);
        let mut shortcut = 0;
        for round in 0..300 {
            let now = rng.random_range(3.0 * 3600.0..20.0 * 3600.0);
            let uniform = round % 2 == 0;
            let q = [0.05, 0.3, 0.9][round % 3];
            let ready: Vec<(f64, bool)> = (0..type_of.len())
                .map(|_| {
                    let r = if uniform {
                        now
                    } else {
                        now + rng.random_range(0.0..3000.0)
                    };
                    (r, rng.random_bool(q))
                })
                .collect();
            let pool = Machines::new(type_of, types, uniform, |k| ready[k]);
            shortcut += usize::from(pool.lo == pool.hi);
            let e_bud = (round % 4 != 0).then(|| eecs[rng.random_range(0..eecs.len())]);
            let ctx = fx.ctx(now, e_bud, f64::INFINITY);
            let mut passing = Passing::new(&ctx);
            for ty in 0..m.task_types() {
                let (mut earliest, mut etc, mut eec) =
                    (f64::INFINITY, f64::INFINITY, f64::INFINITY);
                for mt in 0..types {
                    let Some(best) = pool.best[mt] else { continue };
                    for p in 0..P_STATES {
                        if let Some(x) = m.etc(ty, mt, p) {
                            etc = etc.min(x);
                            if m.apc(ty, mt, p).is_some()
                                && !e_bud.is_some_and(|b| x * m.apc(ty, mt, p).unwrap() > b)
                            {
                                earliest = earliest.min(pool.ready[best] + x);
                            }
                        }
                        if let Some(x) = m.eec(ty, mt, p) {
                            eec = eec.min(x);
                        }
                    }
                }
                let what = format!("round {round} type {ty}");
                assert_eq!(
                    earliest_open(&ctx, &pool, &mut passing, ty),
                    earliest,
                    "{what}"
                );
                assert_eq!(least_open(&ctx, &pool, Objective::Upt, ty), etc, "{what}");
                assert_eq!(least_open(&ctx, &pool, Objective::Upe, ty), eec, "{what}");
            }
        }
        // Both ways of making the earliest completion were taken.
        assert!((100..=200).contains(&shortcut), "{shortcut}");
    }

    /// Min-Min with its shortcuts (bounds in the heap, energy floors, the
    /// end of the event once no task with a key has an open machine of a
    /// type it may run on) makes the from-scratch reference's assignments
    /// and refusal, for the three objectives, on random sets of tasks and
    /// pools: polled with a few idle machines (often of the special types
    /// only, which most tasks may not use) and queued, with and without a
    /// filter, with a budget that does or does not bind.
    #[test]
    fn minmin_makes_the_from_scratch_choices() {
        let fx = Fixture::of(scenario(8));
        let (s, type_of, types) = (&fx.s, &fx.type_of, fx.types);
        let mut rng = stream(8, 3);
        let (mut assigned, mut closed_early) = (0, 0);
        for round in 0..600 {
            let now = rng.random_range(3.0 * 3600.0..20.0 * 3600.0);
            let polled = round % 3 != 0;
            // Idle machines: a few, all of the special types in some rounds.
            let special_only = round % 4 == 1;
            let q = [0.02, 0.08, 0.3][round % 3];
            let ready: Vec<(f64, bool)> = (0..type_of.len())
                .map(|m| {
                    let special = s.matrices.machine_types[type_of[m]].special;
                    let open = rng.random_bool(q) && (special || !special_only);
                    if polled {
                        (now, open)
                    } else {
                        (now + rng.random_range(0.0..3000.0), true)
                    }
                })
                .collect();
            let tasks: Vec<usize> = (0..s.tasks.len())
                .filter(|&i| s.tasks[i].arrival <= now && rng.random_bool(0.1))
                .collect();
            let e_bud = [None, Some(rng.random_range(2e4..2e5))][round % 2];
            let budget_left = [f64::INFINITY, rng.random_range(0.0..4e6)][(round / 2) % 2];
            for o in [Objective::Util, Objective::Upt, Objective::Upe] {
                let mut outcomes = Vec::new();
                for (from_scratch, track_refusal) in [(false, round % 5 != 0), (true, true)] {
                    let ctx = Context {
                        track_refusal,
                        from_scratch,
                        ..fx.ctx(now, e_bud, budget_left)
                    };
                    let mut pool = Machines::new(type_of, types, polled, |m| ready[m]);
                    let mut bounds = UtilityBounds::new(s.tasks.len());
                    let out = minmin(&ctx, &tasks, &mut pool, o, &mut bounds);
                    closed_early += usize::from(polled && !from_scratch && pool.any_open());
                    outcomes.push((out.assignments, out.refused, track_refusal));
                }
                let (got, want) = (&outcomes[0], &outcomes[1]);
                assert_eq!(got.0, want.0, "round {round} {o:?}");
                if got.2 {
                    assert_eq!(got.1, want.1, "round {round} {o:?}");
                }
                assigned += want.0.len();
            }
        }
        assert!(
            assigned > 5000 && closed_early > 100,
            "{assigned} {closed_early}"
        );
    }

    /// The ordered heuristics' rule, plainly: the tasks in the rule's
    /// order (arrival, or priority then arrival, ascending or descending);
    /// each tries every open machine by (ready time, id) in the first
    /// P-state tried that passes the filter, and takes the first choice
    /// that earns and fits the budget.
    fn ordered_by_scan(
        ctx: &Context<'_>,
        tasks: &[usize],
        pool: &mut Machines<'_>,
        order: Order,
        pstates: PStates,
    ) -> Vec<Assignment> {
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
        let tries = if pstates == PStates::P0 { 1 } else { P_STATES };
        let mut out = Outcome::default();
        let mut left = ctx.budget_left;
        for i in list {
            let ty = s.tasks[i].task_type;
            let mut machines: Vec<usize> =
                (0..pool.ready.len()).filter(|&m| pool.open[m]).collect();
            machines.sort_by(|&a, &b| pool.ready[a].total_cmp(&pool.ready[b]).then(a.cmp(&b)));
            for m in machines {
                let mt = pool.type_of[m];
                let passes = |p: usize| {
                    let cell = ty * s.matrices.machine_types.len() + mt;
                    has(ctx.orders.valid[cell], p)
                        && ctx.e_bud.is_none_or(|b| ctx.orders.eec[cell][p] <= b)
                };
                let Some(p) = (0..tries).find(|&p| passes(p)) else {
                    continue;
                };
                if let Ok(c) =
                    evaluate(ctx, pool, left, (i, m, p), &mut out.refused, Need::Positive)
                {
                    record(&mut out, pool, &mut left, i, c);
                    break;
                }
            }
        }
        out.assignments
    }

    /// The eight ordered heuristics make the choices of their rule tried
    /// plainly, machine by machine ([`ordered_by_scan`]), at random events
    /// of both environments, with and without a filter and a budget that
    /// refuses choices: the types kept in the order of their first
    /// machines, the merge once the budget refuses, and the skips change
    /// nothing.
    #[test]
    fn ordered_makes_the_choices_of_its_rule() {
        let fx = Fixture::of(scenario(9));
        let (s, type_of, types) = (&fx.s, &fx.type_of, fx.types);
        let mut rng = stream(9, 3);
        let (mut assigned, mut refused) = (0, 0);
        for round in 0..240 {
            // Some events near the end of the day (hour 26), where a later
            // start counts less energy inside it.
            let hours = [3.0..20.0, 24.5..26.2][usize::from(round % 4 == 3)].clone();
            let now = rng.random_range(hours.start * 3600.0..hours.end * 3600.0);
            let polled = round % 3 == 0;
            let q = [0.1, 0.3, 0.6][round % 3];
            let ready: Vec<(f64, bool)> = (0..type_of.len())
                .map(|_| {
                    if polled {
                        (now, rng.random_bool(q))
                    } else {
                        // Some machines share a ready time (idle ones: now).
                        let busy = rng.random_bool(0.7);
                        (
                            now + if busy {
                                rng.random_range(0.0..4000.0)
                            } else {
                                0.0
                            },
                            true,
                        )
                    }
                })
                .collect();
            let tasks: Vec<usize> = (0..s.tasks.len())
                .filter(|&i| s.tasks[i].arrival <= now && rng.random_bool(0.15))
                .collect();
            let e_bud = [None, Some(rng.random_range(2e4..2e5))][round % 2];
            let budget_left = [f64::INFINITY, rng.random_range(0.0..4e6)][(round / 2) % 2];
            let ctx = fx.ctx(now, e_bud, budget_left);
            for order in [Order::Fcfs, Order::Lcfs, Order::Pfcfs, Order::Plcfs] {
                for pstates in [PStates::P0, PStates::All] {
                    let mut pool = Machines::new(type_of, types, polled, |m| ready[m]);
                    let got = ordered(&ctx, &tasks, &mut pool, order, pstates);
                    let mut pool = Machines::new(type_of, types, polled, |m| ready[m]);
                    let want = ordered_by_scan(&ctx, &tasks, &mut pool, order, pstates);
                    assert_eq!(got.assignments, want, "round {round} {order:?} {pstates:?}");
                    assigned += want.len();
                    refused += usize::from(got.refused);
                }
            }
        }
        assert!(assigned > 20_000 && refused > 100, "{assigned} {refused}");
    }

    /// An energy floor is never above the energy an evaluation computes
    /// for a choice it covers (any start between the pool's earliest and
    /// latest ready times, in the warm-up, the day or past its end), and
    /// it is infinite exactly when no covered choice passes the filter.
    #[test]
    fn energy_floors_never_exceed_an_evaluated_energy() {
        let fx = Fixture::of(scenario(6));
        let (s, type_of, types) = (&fx.s, &fx.type_of, fx.types);
        let (w0, w1) = s.window;
        let mut rng = stream(6, 2);
        // Choices evaluated, bounds that exclude a choice at once, and
        // bounds over the first passing P-states above those over all.
        let (mut checked, mut positive, mut tighter) = (0, 0, 0);
        for round in 0..200 {
            let base = rng.random_range(0.0..w1 + 3600.0);
            let spread = [0.0, 60.0, 5000.0][round % 3];
            let ready: Vec<f64> = (0..type_of.len())
                .map(|_| base + rng.random_range(0.0..=spread))
                .collect();
            let pool = Machines::new(type_of, types, false, |m| (ready[m], true));
            let e_bud = [None, Some(rng.random_range(1e4..2e5))][round % 2];
            let ctx = fx.ctx(base, e_bud, 0.0);
            for (tries, first) in [(1, false), (P_STATES, false), (P_STATES, true)] {
                let mut floors = if first {
                    EnergyFloors::first_passing(s.matrices.task_types(), tries)
                } else {
                    EnergyFloors::new(s.matrices.task_types(), tries)
                };
                for ty in 0..s.matrices.task_types() {
                    floors.refuse(&ctx, &pool, ty, 0.0);
                    let passes = floors.passes[ty].expect("known after refuse");
                    let floor = floors.compute(&ctx, pool.lo, ty);
                    assert_eq!(passes, floor < f64::INFINITY, "type {ty}");
                    if passes {
                        // Made for a latest ready time at or past the pool's.
                        assert!(floors.hi >= pool.hi, "type {ty}");
                        assert_eq!(floors.floor[ty].to_bits(), floor.to_bits(), "type {ty}");
                    }
                    let mut covered = 0;
                    for (m, &r) in ready.iter().enumerate() {
                        let mt = type_of[m];
                        for p in 0..tries {
                            let (Some(etc), Some(apc)) =
                                (s.matrices.etc(ty, mt, p), s.matrices.apc(ty, mt, p))
                            else {
                                continue;
                            };
                            if e_bud.is_some_and(|b| etc * apc > b) {
                                continue;
                            }
                            covered += 1;
                            let energy = window_energy(apc, r, r + etc, s.window);
                            assert!(
                                floor <= energy,
                                "type {ty} on {mt} P{p} from {r} (day {w0}–{w1}): \
                                 floor {floor} > energy {energy}"
                            );
                            if first {
                                // The only P-state evaluated on the type.
                                break;
                            }
                        }
                    }
                    assert_eq!(covered == 0, floor == f64::INFINITY, "type {ty}");
                    if first {
                        let all = EnergyFloors {
                            first_only: false,
                            ..floors.clone()
                        };
                        let all = all.compute(&ctx, pool.lo, ty);
                        assert!(floor >= all, "type {ty}: {floor} < {all}");
                        tighter += usize::from(floor > all);
                    }
                    checked += covered;
                    positive += usize::from(floor > 0.0 && floor.is_finite());
                }
            }
        }
        assert!(
            checked > 100_000 && positive > 1000 && tighter > 1000,
            "{checked} {positive} {tighter}"
        );
    }
}
