//! Environment B's tasks and scenarios (Machovec et al. 2017, §II) and
//! what its Min-Min heuristics maximise and how they preempt (§III.D–E):
//! the types the engine and the heuristics read, in a file of their own so
//! that they import them without importing the registry that builds them
//! (`serial/mod.rs`).

use serde::{Deserialize, Serialize};

use crate::model::utility::{UtilityFunction, UtilitySpec};

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
