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
pub mod workload;

pub use engine::{Heuristic, SerialPiece, SerialRun, TaskFate};

use serde::{Deserialize, Serialize};

use crate::contract::{Entry, Registry};
use crate::model::utility::{UtilityFunction, UtilitySpec};

/// Seconds in the counted window: a day.
pub const WINDOW_SECONDS: f64 = crate::units::SECONDS_PER_DAY;
/// Seconds of warm-up before the window: 4 h (Machovec et al., §IV.A).
pub const WARMUP_SECONDS: f64 = 4.0 * 3600.0;
/// Seconds between mapping events by default: 60 (Machovec et al., §III.A).
pub const EVENT_INTERVAL_S: f64 = 60.0;

/// A task type: its row of the ETC matrix (Machovec et al., §II.B).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskType {
    /// Whether tasks of this type are critical (priority 8 in the synthetic
    /// workload).
    pub critical: bool,
    /// Estimated time to compute on one core of each cluster, s (one entry
    /// per cluster).
    pub etc: Vec<f64>,
}

impl TaskType {
    /// Mean ETC over the clusters, s: the ē of the utility shapes.
    pub fn mean_etc(&self) -> f64 {
        self.etc.iter().sum::<f64>() / self.etc.len().max(1) as f64
    }

    /// Shortest ETC over the clusters, s.
    pub fn fastest(&self) -> f64 {
        self.etc.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

/// One serial task.
#[derive(Debug, Clone, PartialEq)]
pub struct SerialTask {
    /// Job number (SWF field 1; 1, 2, … in a synthetic trial).
    pub job_number: i64,
    /// Arrival, s on the scenario clock (0 = the start of the warm-up).
    pub arrival: f64,
    /// Index into [`SerialScenario::types`].
    pub task_type: usize,
    /// The burst it arrived in (tasks of one burst share type, arrival and
    /// utility function).
    pub burst: usize,
    /// Utility of a completion, as a function of the time since arrival.
    pub utility: UtilityFunction,
    /// What the utility function was drawn as.
    pub spec: UtilitySpec,
    /// Whether the task may preempt a running task.
    pub can_preempt: bool,
    /// Whether the task may be preempted.
    pub preemptible: bool,
    /// Who submitted it (a log's job; unknown in a synthetic trial).
    pub owner: crate::model::Owner,
}

/// The input of one simulation of environment B.
#[derive(Debug, Clone, PartialEq)]
pub struct SerialScenario {
    /// A short name: `trial-3`, or the log and date.
    pub name: String,
    /// The seed every draw of the scenario came from.
    pub seed: u64,
    /// Cores per cluster.
    pub cores: Vec<u32>,
    /// The task types (one per job for a log).
    pub types: Vec<TaskType>,
    /// The tasks, by arrival then job number.
    pub tasks: Vec<SerialTask>,
    /// The counted window `[start, end)`, s: utility is earned for the part
    /// of a task's execution inside it.
    pub window: (f64, f64),
    /// Seconds between mapping events.
    pub event_interval: f64,
    /// Where scenario time 0 is on the log's clock, s (0 for synthetic
    /// trials).
    pub origin: f64,
}

impl crate::workload::seeds::Seeded for SerialScenario {
    fn scenario_seed(&self) -> Option<u64> {
        Some(self.seed)
    }
}

impl SerialScenario {
    /// Total cores.
    pub fn total_cores(&self) -> u32 {
        self.cores.iter().sum()
    }

    /// The cluster of a global core index, and the core's index in it.
    pub fn locate(&self, core: usize) -> (usize, u32) {
        let mut c = core;
        for (j, &n) in self.cores.iter().enumerate() {
            if c < n as usize {
                return (j, c as u32);
            }
            c -= n as usize;
        }
        (self.cores.len(), c as u32)
    }

    /// The ETC of task `i` on cluster `j`, s.
    pub fn etc(&self, i: usize, j: usize) -> f64 {
        self.types[self.tasks[i].task_type].etc[j]
    }

    /// Whether task `i` arrives inside the counted window.
    pub fn counted(&self, i: usize) -> bool {
        let a = self.tasks[i].arrival;
        a >= self.window.0 && a < self.window.1
    }
}

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

/// What the Min-Min heuristics maximise (Machovec et al., §III.D.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Util: the utility at the completion time.
    Util,
    /// UPT: Util divided by the remaining execution time (value units/s).
    Upt,
}

/// How a Min-Min heuristic uses preemption (Machovec et al., §III.E).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preemption {
    /// Idle cores only (Algorithm 1).
    None,
    /// Greedy: the candidate's objective, idle cores first on ties, then the
    /// victim with the lowest objective (Algorithm 2).
    Greedy,
    /// Diff: the candidate's objective minus the victim's (§III.E.3).
    Diff,
    /// Pair: both orders of candidate and victim on a core (Algorithm 3).
    Pair,
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
