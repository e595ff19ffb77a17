//! Environment B: serial tasks on heterogeneous clusters of identical
//! cores, utility functions and preemption (Machovec, Pasricha,
//! Maciejewski, Siegel et al., "Preemptive resource management for
//! dynamically arriving tasks in an oversubscribed heterogeneous computing
//! system", IPDPS Workshops 2017; docs/serial.md).
//!
//! A scenario ([`SerialScenario`]) is a synthetic trial ([`workload`]: the
//! bursty workload of the paper's §IV) or one day of an SWF log, each job
//! one serial task. The [`engine`] holds mapping events every 60 s: it
//! drops the tasks that can never earn again, then one heuristic maps the
//! mappable tasks onto idle cores and, when it preempts, onto cores running
//! preemptible tasks. The ten heuristics are three policies
//! ([`Policy`]): `random`, `fcfs` ([`simple`]) and the Min-Min loop of
//! [`minmin`] given an [`Objective`] and a [`Preemption`] technique. The
//! engine reaches them through one small trait, [`Heuristic`];
//! [`Policy::build`] makes the heuristic object of a policy, so the engine
//! names none of them.

pub mod check;
pub mod engine;
pub mod environment;
pub mod grid;
pub mod minmin;
mod pair;
pub mod params;
mod queue;
pub mod record;
pub mod simple;
pub mod summary;
pub mod synth_file;
pub mod tables;
pub mod task;
pub mod workload;

pub use engine::{Heuristic, SerialPiece, SerialRun, TaskFate};
pub use task::{Objective, Preemption, SerialScenario, SerialTask, TaskType};

use crate::contract::{Entry, Registry};

/// Seconds in the counted window: a day.
pub const WINDOW_SECONDS: f64 = crate::units::SECONDS_PER_DAY;
/// Seconds of warm-up before the window: 4 h (Machovec et al., §IV.A).
pub const WARMUP_SECONDS: f64 = 4.0 * 3600.0;
/// Seconds between mapping events by default: 60 (Machovec et al., §III.A).
pub const EVENT_INTERVAL_S: f64 = 60.0;

/// A flag or workload of environment B that does not fit.
#[derive(Debug, thiserror::Error)]
pub enum SerialArgsError {
    /// A flag for synthetic trials given with a log, or one for logs given
    /// without.
    #[error("{flag} {}", if *log {
        "applies to synthetic trials (replay --env serial without LOG, or swftool synth serial); it does not apply to a LOG"
    } else {
        "applies to a LOG replayed as serial tasks; without LOG, replay --env serial runs a synthetic trial"
    })]
    Misplaced {
        /// The flag.
        flag: &'static str,
        /// Whether a log was given.
        log: bool,
    },
    /// A generation flag given with a workload `swftool synth serial` wrote.
    #[error(
        "{flag} does not apply to {file}: a workload written by swftool synth serial carries its own tasks, utilities, flags and seed (its header and sidecar table); generate another with synth serial instead"
    )]
    Written {
        /// The flag.
        flag: &'static str,
        /// The file.
        file: String,
    },
    /// The workload cannot be generated or read.
    #[error(transparent)]
    Workload(#[from] crate::workload::WorkloadError),
}

/// A heuristic of environment B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Random order, random idle core that earns (§III.C.2).
    Random,
    /// Arrival order, first idle core that earns (§III.C.3).
    Fcfs,
    /// The two-phase Min-Min loop (§III.D–E).
    MinMin {
        /// What it maximises.
        objective: Objective,
        /// How it preempts.
        preemption: Preemption,
    },
}

impl Policy {
    /// The heuristic object of this policy for one run of `s` (the
    /// `random` heuristic's stream starts from `s`'s seed).
    pub fn build(self, s: &SerialScenario) -> Box<dyn Heuristic> {
        match self {
            Policy::Random => Box::new(simple::Random::new(s)),
            Policy::Fcfs => Box::new(simple::Fcfs),
            Policy::MinMin {
                objective,
                preemption,
            } => Box::new(minmin::MinMin {
                objective,
                preemption,
            }),
        }
    }

    /// Whether the policy ever preempts.
    pub fn preempts(self) -> bool {
        matches!(
            self,
            Policy::MinMin {
                preemption: Preemption::Greedy | Preemption::Diff | Preemption::Pair,
                ..
            }
        )
    }
}

/// Simulates `s` under `policy`: [`engine::run`] with the heuristic
/// object [`Policy::build`] makes.
pub fn simulate(s: &SerialScenario, policy: Policy) -> SerialRun {
    engine::run(s, policy.build(s).as_mut())
}

/// One entry of environment B's registry.
pub type HeuristicInfo = Entry<Policy>;

const fn minmin(objective: Objective, preemption: Preemption) -> Policy {
    Policy::MinMin {
        objective,
        preemption,
    }
}

/// Every heuristic of environment B, in the order of the paper's figures.
pub const HEURISTICS: Registry<Policy> = Registry {
    env: "serial",
    entries: &[
        HeuristicInfo {
            name: "random",
            summary: "Random: tasks in random order, each on a random idle core where it earns (Machovec et al. §III.C.2)",
            policy: Policy::Random,
        },
        HeuristicInfo {
            name: "fcfs",
            summary: "FCFS: tasks in arrival order, each on the first idle core where it earns (§III.C.3)",
            policy: Policy::Fcfs,
        },
        HeuristicInfo {
            name: "maxutil",
            summary: "Max Util: Min-Min on the utility at completion, idle cores only (Algorithm 1)",
            policy: minmin(Objective::Util, Preemption::None),
        },
        HeuristicInfo {
            name: "maxupt",
            summary: "Max UPT: Min-Min on utility / remaining execution time, idle cores only",
            policy: minmin(Objective::Upt, Preemption::None),
        },
        HeuristicInfo {
            name: "maxutil-preempt-greedy",
            summary: "Max Util Preempt Greedy: also preempts a running task of lower Util (Algorithm 2)",
            policy: minmin(Objective::Util, Preemption::Greedy),
        },
        HeuristicInfo {
            name: "maxupt-preempt-greedy",
            summary: "Max UPT Preempt Greedy: also preempts a running task of lower UPT",
            policy: minmin(Objective::Upt, Preemption::Greedy),
        },
        HeuristicInfo {
            name: "maxutil-preempt-diff",
            summary: "Max Util Preempt Diff: maximises candidate Util minus the victim's (§III.E.3)",
            policy: minmin(Objective::Util, Preemption::Diff),
        },
        HeuristicInfo {
            name: "maxupt-preempt-diff",
            summary: "Max UPT Preempt Diff: maximises candidate UPT minus the victim's",
            policy: minmin(Objective::Upt, Preemption::Diff),
        },
        HeuristicInfo {
            name: "maxutil-preempt-pair",
            summary: "Max Util Preempt Pair: both orders of candidate and running task per core; waits when it should go second (Algorithm 3)",
            policy: minmin(Objective::Util, Preemption::Pair),
        },
        HeuristicInfo {
            name: "maxupt-preempt-pair",
            summary: "Max UPT Preempt Pair: Pair on utility per remaining execution time",
            policy: minmin(Objective::Upt, Preemption::Pair),
        },
    ],
};

impl From<SerialArgsError> for crate::contract::EnvError {
    fn from(e: SerialArgsError) -> Self {
        crate::contract::EnvError::Refused(Box::new(e))
    }
}
