//! The one evaluation of a (task, machine, P-state) choice, shared by the
//! three loops and the reference implementation ([`evaluate`]), and the
//! two skips the loops share: the filter's test per (task type, machine
//! type) ([`Passing`]) and the energy floors ([`EnergyFloors`]).
//!
//! A choice is made only if the task may run on the machine's type (its
//! ETC and APC are given), its EEC = ETC × APC passes the energy filter
//! (EEC ≤ e_bud; Khemka et al., "Comparison of energy-constrained resource
//! allocation heuristics under different task management environments",
//! §III.C), it completes, started at the machine's ready time, before its
//! utility reached zero, and its energy in the counted day (its APC times
//! the part of [start, start + ETC] inside hours 3–26; docs/energy.md,
//! "What the budget counts") fits what the budget has left. A refusal by
//! the budget of a choice that earns utility is reported
//! ([`Outcome::refused`](super::Outcome::refused)): the engine records the
//! first as the hour the budget ran out.
//!
//! The shortcut taken here (the second in the folder's list): a task none
//! of whose choices passes the filter, or, once the budget has refused a
//! choice, whose every choice certainly costs more than the budget has
//! left (a lower bound on its energy per task type), is skipped without
//! evaluating its choices: each evaluation would fail ([`EnergyFloors`]).

use super::context::{Assignment, Context, Machines, Outcome};
use crate::env::energy::matrices::P_STATES;
use crate::env::energy::{EnergyTask, Objective, window_energy};

/// One evaluated choice.
#[derive(Debug, Clone, Copy)]
pub(super) struct Choice {
    pub(super) machine: usize,
    pub(super) pstate: u8,
    pub(super) start: f64,
    pub(super) etc: f64,
    pub(super) utility: f64,
    pub(super) eec: f64,
    pub(super) energy: f64,
}

/// Why a choice is not made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Miss {
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
pub(super) struct Floor {
    pub(super) objective: Objective,
    pub(super) value: f64,
    /// No choice of the task earns more utility (value units).
    pub(super) cap: f64,
}

/// What [`evaluate`] must find out about a choice's utility.
#[derive(Debug, Clone, Copy)]
pub(super) enum Need {
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
pub(super) fn evaluate(
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
pub(super) fn late(task: &EnergyTask, start: f64, etc: Option<f64>) -> bool {
    etc.is_some_and(|etc| start + etc - task.arrival > task.utility.last_positive())
}

pub(super) fn record(
    out: &mut Outcome,
    pool: &mut Machines<'_>,
    left: &mut f64,
    task: usize,
    c: Choice,
) {
    out.assignments.push(Assignment {
        task,
        machine: c.machine,
        pstate: c.pstate,
        start: c.start,
    });
    *left -= c.energy;
    pool.take(c.machine, c.etc);
}

/// Whether P-state `p` is set in `mask`.
pub(super) fn has(mask: u8, p: usize) -> bool {
    mask & (1 << p) != 0
}

/// Per task type and machine type, which P-states pass at a mapping event:
/// valid, and with an EEC within the filter's share (bit `p` set). A choice
/// whose bit is clear is a [`Miss::Type`] without evaluating it. Without a
/// filter these are the valid P-states ([`ChoiceOrders`](super::ChoiceOrders)); with one, each
/// pair's mask is made when first asked for, as the share is fixed within
/// an event.
#[derive(Debug, Clone)]
pub(super) struct Passing {
    /// Per task type, one mask per machine type ([`UNKNOWN`]: not made).
    masks: Vec<u8>,
    types: usize,
}

/// A mask not made yet.
const UNKNOWN: u8 = 0x80;

impl Passing {
    pub(super) fn new(ctx: &Context<'_>) -> Self {
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
    pub(super) fn of(&mut self, ctx: &Context<'_>, ty: usize, mt: usize) -> u8 {
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
pub(super) struct EnergyFloors {
    /// Per task type, its bound (NaN: not computed at this `hi`; infinite:
    /// no choice passes the filter).
    pub(super) floor: Vec<f64>,
    /// Per task type, whether a choice passes the filter (`None`: not
    /// known yet).
    pub(super) passes: Vec<Option<bool>>,
    /// The latest ready time the bounds hold for, s (no earlier than the
    /// pool's).
    pub(super) hi: f64,
    /// The heuristic evaluates P-states 0 to `tries` − 1 only.
    pub(super) tries: usize,
    /// It evaluates, on each machine type, only the first of those that
    /// passes the filter (the ordered heuristics).
    pub(super) first_only: bool,
}

/// How far past the pool's latest ready time the energy floors are made
/// for, s: they are made again when the pool's latest ready time passes
/// that.
const FLOOR_HI_STEP: f64 = 600.0;

impl EnergyFloors {
    /// For a heuristic that evaluates P-states below `tries` only (1: P-state
    /// 0, or all [`P_STATES`]).
    pub(super) fn new(task_types: usize, tries: usize) -> Self {
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
    pub(super) fn first_passing(task_types: usize, tries: usize) -> Self {
        EnergyFloors {
            first_only: true,
            ..Self::new(task_types, tries)
        }
    }

    /// Whether a task of type `ty` certainly cannot be assigned with `left`
    /// joules left: none of its choices passes the filter, or (once
    /// refusals need not be reported) every one's energy is above `left`.
    pub(super) fn refuse(
        &mut self,
        ctx: &Context<'_>,
        pool: &Machines<'_>,
        ty: usize,
        left: f64,
    ) -> bool {
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
    pub(super) fn any_passes(&self, ctx: &Context<'_>, ty: usize) -> bool {
        // Some valid choice has !(EEC > e_bud) exactly when the least one
        // has (EECs are finite): the test of [`Passing::of`].
        let least = ctx.orders.least_eec[ty][usize::from(self.tries > 1)];
        least.is_finite() && !ctx.e_bud.is_some_and(|b| least > b)
    }

    pub(super) fn compute(&self, ctx: &Context<'_>, lo: f64, ty: usize) -> f64 {
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
