//! The scheduling policies of environment D, one file each, behind one
//! small trait: [`Scheduler`]. The engine (`env::classic::engine`) owns the event
//! loop and the machine state ([`MachineState`]); at every scheduling pass
//! it hands the waiting queue to the policy, which starts (or resumes,
//! suspends) jobs through the machine and leaves in the queue the jobs that
//! still wait. In the manner of pyss (Tsafrir's scheduler simulator), the
//! policies are short enough to read side by side:
//!
//! - [`fcfs`]: start jobs in queue order while they fit; the first that
//!   does not blocks the rest;
//! - [`backfill`]: any job may start now if it does not delay a
//!   reservation, and the first `depth` jobs that cannot start hold one,
//!   kept from pass to pass and never delayed (0: greedy; 1: EASY, Lifka
//!   1995; all: Conservative, Mu'alem & Feitelson 2001);
//! - [`catalina`]: the queue in Catalina's priority order (Margo et al.),
//!   then conservative backfilling with every reservation rebuilt at each
//!   pass in that order, with suspension preemption as an option;
//! - [`scored`]: the queue in the order of scores given from outside (the
//!   Python package's priority policies), then served as `fcfs` or
//!   `backfill`;
//! - [`control`]: every pass handed to a controller from outside (the
//!   Python package's full-control policies), its actions checked.
//!
//! The [`super::Policy`] enum stays the configuration (the registry's
//! payload); [`build`] turns it into a policy object. Adding a policy is
//! one file here, one variant of `Policy`, one arm of [`build`] and one
//! registry entry; the engine does not change.

pub mod backfill;
pub mod catalina;
pub mod control;
pub mod fcfs;
pub mod scheduler;
pub mod scored;

use super::Policy;
pub use super::engine::machine::MachineState;
pub use scheduler::Scheduler;

/// The policy object of a configuration.
pub fn build(policy: Policy) -> Box<dyn Scheduler> {
    match policy {
        Policy::Fcfs => Box::new(fcfs::Fcfs),
        Policy::Backfill { depth } => Box::new(backfill::Backfill::new(depth)),
        Policy::Catalina {
            weights,
            preemption,
        } => Box::new(catalina::Catalina::new(weights, preemption)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::classic::SCHEDULERS;

    #[test]
    fn only_catalina_with_preemption_asks_for_unit_tracking() {
        for s in SCHEDULERS {
            let wants = matches!(
                s.policy,
                Policy::Catalina {
                    preemption: Some(_),
                    ..
                }
            );
            assert_eq!(build(s.policy).tracks_units(), wants, "{}", s.name);
        }
    }
}
