//! Invariants of an environment A schedule, checked on every simulated
//! schedule in the tests and on demand by `swftool replay --check`:
//!
//! - no node holds two tasks at once (the shared checker of
//!   [`crate::sim::schedule`], on one pool per cluster);
//! - no task starts before it arrives;
//! - every completed task ran exactly its ETC on the cluster it ran on, on
//!   exactly ceil(cores / cores per node) nodes of that cluster;
//! - value earned ≤ the task's starting value, and equals its value function
//!   at its completion (Khemka et al. 2015);
//! - counted tasks = completed + dropped + unfinished.

use super::{RunResult, TaskStatus};
use crate::sim::schedule::{self, Piece};
use crate::workload::Scenario;

/// One broken invariant.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Violation {
    /// Two tasks on one node at overlapping times.
    #[error(
        "cluster {cluster} node {node}: job {a} [{a_start}, {a_end}) overlaps job {b} [{b_start}, {b_end})"
    )]
    NodeOverlap {
        /// Cluster index.
        cluster: usize,
        /// Node index.
        node: u32,
        /// First job number.
        a: i64,
        /// Its start, s.
        a_start: f64,
        /// Its end, s.
        a_end: f64,
        /// Second job number.
        b: i64,
        /// Its start, s.
        b_start: f64,
        /// Its end, s.
        b_end: f64,
    },
    /// A task started before its arrival.
    #[error("job {job} starts at {start} s before it arrives at {arrival} s")]
    StartBeforeArrival {
        /// Job number.
        job: i64,
        /// Start, s.
        start: f64,
        /// Arrival, s.
        arrival: f64,
    },
    /// Run time differs from the ETC on its cluster.
    #[error("job {job} ran {ran} s on cluster {cluster} but its ETC there is {etc} s")]
    RunTimeNotEtc {
        /// Job number.
        job: i64,
        /// Cluster index.
        cluster: usize,
        /// Completion − start, s.
        ran: f64,
        /// ETC, s.
        etc: f64,
    },
    /// Wrong node count or nodes outside the cluster.
    #[error("job {job} holds nodes {nodes} on cluster {cluster}; it needs {need} of {available}")]
    BadNodes {
        /// Job number.
        job: i64,
        /// Cluster index.
        cluster: usize,
        /// The nodes, compact form.
        nodes: String,
        /// Nodes needed.
        need: u32,
        /// Nodes of the cluster.
        available: u32,
    },
    /// Value earned is not the value function at completion, or exceeds the start value.
    #[error(
        "job {job} earned {earned} but its value function gives {expected} (start value {start_value})"
    )]
    WrongValue {
        /// Job number.
        job: i64,
        /// Value recorded.
        earned: f64,
        /// Value function at completion (0 if not completed).
        expected: f64,
        /// Starting value.
        start_value: f64,
    },
    /// A completed task without start/cluster/completion, or an inconsistent outcome.
    #[error("job {job}: inconsistent outcome ({what})")]
    Inconsistent {
        /// Job number.
        job: i64,
        /// What is wrong.
        what: &'static str,
    },
    /// A piece of the schedule the shared checker refused (other than an
    /// overlap, which is [`Violation::NodeOverlap`]).
    #[error(transparent)]
    Schedule(schedule::Violation),
    /// The task counts do not add up.
    #[error(
        "counted {counted} != completed {completed} + dropped {dropped} + unfinished {unfinished}"
    )]
    CountMismatch {
        /// Counted tasks.
        counted: usize,
        /// Completed counted tasks.
        completed: usize,
        /// Dropped counted tasks.
        dropped: usize,
        /// Unfinished counted tasks.
        unfinished: usize,
    },
}

/// Checks every invariant of `run` on `scenario`; returns all violations
/// (empty when the schedule is sound): first those of each task in task
/// order, then node overlaps, then the task counts.
pub fn check(scenario: &Scenario, run: &RunResult) -> Vec<Violation> {
    let mut out = Vec::new();
    let sys = &scenario.system;
    // One piece per started or reserved task; pool = cluster.
    let mut pieces = Vec::new();
    let (mut counted, mut completed, mut dropped, mut unfinished) = (0, 0, 0, 0);
    for (i, (task, o)) in scenario.tasks.iter().zip(&run.outcomes).enumerate() {
        let job = task.job_number;
        if task.counted {
            counted += 1;
            match o.status {
                TaskStatus::Completed => completed += 1,
                TaskStatus::Dropped => dropped += 1,
                TaskStatus::Unfinished => unfinished += 1,
            }
        }
        let expected = match (o.status, o.completion) {
            (TaskStatus::Completed, Some(c)) => task.value.value_at(c),
            (TaskStatus::Completed, None) => {
                out.push(Violation::Inconsistent {
                    job,
                    what: "completed without a completion time",
                });
                continue;
            }
            _ => 0.0,
        };
        if o.value != expected || o.value > task.value.start_value() {
            out.push(Violation::WrongValue {
                job,
                earned: o.value,
                expected,
                start_value: task.value.start_value(),
            });
        }
        if o.status == TaskStatus::Dropped && (o.completion.is_some() || o.start.is_some()) {
            out.push(Violation::Inconsistent {
                job,
                what: "dropped after being started or reserved",
            });
        }
        let (Some(start), Some(cluster)) = (o.start, o.cluster) else {
            if o.status == TaskStatus::Completed {
                out.push(Violation::Inconsistent {
                    job,
                    what: "completed without a start or a cluster",
                });
            }
            continue;
        };
        if start < task.arrival {
            out.push(Violation::StartBeforeArrival {
                job,
                start,
                arrival: task.arrival,
            });
        }
        let Some(c) = sys.clusters.get(cluster) else {
            out.push(Violation::Inconsistent {
                job,
                what: "cluster index out of range",
            });
            continue;
        };
        let need = c.nodes_for(task.cores);
        if o.nodes.len() != need || o.nodes.iter().any(|n| n >= c.nodes) {
            out.push(Violation::BadNodes {
                job,
                cluster,
                nodes: o.nodes.to_string(),
                need,
                available: c.nodes,
            });
            continue;
        }
        let end = start + task.etc[cluster];
        if let Some(done) = o.completion
            && done != end
        {
            out.push(Violation::RunTimeNotEtc {
                job,
                cluster,
                ran: done - start,
                etc: task.etc[cluster],
            });
        }
        // Reserved or running tasks cut off at the end still hold their nodes
        // over [start, start + ETC); include them.
        pieces.push(Piece {
            pool: cluster,
            units: o.nodes.clone(),
            task: i,
            job,
            start,
            end,
        });
    }
    let pools: Vec<u32> = sys.clusters.iter().map(|c| c.nodes).collect();
    out.extend(
        schedule::check(&pieces, &pools)
            .into_iter()
            .map(|v| match v {
                schedule::Violation::Overlap {
                    pool,
                    unit,
                    a,
                    a_start,
                    a_end,
                    b,
                    b_start,
                    b_end,
                } => Violation::NodeOverlap {
                    cluster: pool,
                    node: unit,
                    a,
                    a_start,
                    a_end,
                    b,
                    b_start,
                    b_end,
                },
                other => Violation::Schedule(other),
            }),
    );
    if counted != completed + dropped + unfinished {
        out.push(Violation::CountMismatch {
            counted,
            completed,
            dropped,
            unfinished,
        });
    }
    out
}
