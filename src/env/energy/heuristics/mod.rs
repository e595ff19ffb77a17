//! The twelve heuristics of environment C (Khemka et al., "Comparison of
//! energy-constrained resource allocation heuristics under different task
//! management environments", §III.D; docs/energy.md, "The twelve
//! heuristics"), as three loops: [`random()`], [`ordered()`] (FCFS, LCFS
//! and their prioritized versions, given an [`Order`](super::Order) and a
//! [`PStates`](super::PStates) rule) and [`minmin()`] (Max Utility, Max
//! UPT, Max UPE, given an [`Objective`](super::Objective)).
//!
//! What each heuristic does is in [`reference`], the reference
//! implementation: every rule evaluated from scratch, with none of the
//! shortcuts, to be read on its own. The tests require every run of the
//! loops to equal it to the last bit (`engine::simulate_from_scratch`),
//! and compare them with it at random events.
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
//! The files:
//!
//! - [`context`]: what a mapping event gives a heuristic, the tables
//!   prepared once per run ([`ChoiceOrders`], [`TaskOrder`]), the event's
//!   [`Context`] and the [`Machines`] available, and what it gives back
//!   ([`Outcome`]);
//! - `evaluate.rs`: the one evaluation of a (task, machine, P-state)
//!   choice against the filter, the budget and the utility, which the
//!   loops and the reference share, and the skips the three loops share
//!   (the filter's test per task type and machine type, the energy
//!   floors);
//! - [`mod@random`], [`mod@ordered`], [`mod@minmin`]: the loops, each with
//!   the shortcuts it takes documented at its head and where it takes
//!   them;
//! - [`reference`]: the reference implementation.
//!
//! Nine shortcuts skip work without changing a choice:
//!
//! 1. a task that completes after its utility reached zero even at the
//!    earliest completion any of its choices can have is passed over
//!    without trying the machine types one by one (Random, the ordered
//!    heuristics: an earliest completion kept per task type), or left out
//!    of Min-Min's heap, its utility there bounding its choices';
//! 2. a task none of whose choices passes the filter, or, once the budget
//!    has refused a choice (the engine records only the first refusal,
//!    [`Context::track_refusal`]), whose every choice certainly costs more
//!    than the budget has left, is skipped without evaluating its choices
//!    (`evaluate.rs`, `EnergyFloors`); Random still makes the draws it
//!    would have made, so its stream stays the same;
//! 3. Random, listing every choice that passes once its draws found none,
//!    passes over a machine type whose earliest-ready machine completes the
//!    task too late in every P-state that passes ([`mod@random`]);
//! 4. the prioritized orders group the tasks by priority with a counting
//!    sort when arrivals follow the task index ([`TaskOrder`]);
//! 5. Max UPT and Max UPE bound a task's utility by its utility at the
//!    earliest completion any choice can have at the event, not by its
//!    priority, and stop searching sooner, where the budget cannot refuse
//!    a choice or a refusal need not be reported ([`mod@minmin`]);
//! 6. under the same condition, Max Utility in the queued environment
//!    tries a task's machine types in order of their earliest completion
//!    and stops where the utility function falls below the best found;
//! 7. under the same condition, held for the whole event, Min-Min puts a
//!    task in its heap with a bound on its objective and finds its best
//!    choice only when the bound reaches the top;
//! 8. in the polled environment, Min-Min ends the event once no task in
//!    its heap may run on a machine still idle, and keeps each task's
//!    utility bound from one event to the next while it holds
//!    ([`UtilityBounds`]);
//! 9. in the polled environment, Max UPT and Max UPE give a task a key only
//!    once a bound that holds at every event (its priority over its least
//!    ETC or EEC on any machine type) may reach the top of their heap.
//!
//! The ordered heuristics also keep the machine types in the order of
//! their earliest-ready machine and merge the types' machines only once
//! the budget refuses a choice ([`mod@ordered`]).

pub mod context;
mod evaluate;
pub mod minmin;
pub mod ordered;
pub mod random;
pub mod reference;

pub use context::{Assignment, ChoiceOrders, Context, Machines, Outcome, TaskOrder};
pub use minmin::{BOUND_REUSE_S, UtilityBounds, minmin};
pub use ordered::ordered;
pub use random::{random, random_stream};

use super::Policy;
use crate::model::rng::ChaCha8Rng;

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

#[cfg(test)]
mod tests;
