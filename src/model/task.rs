//! Tasks: one SWF job turned into a unit of work for a scheduler (docs/parallel.md).

use super::system::System;
use super::value::ValueFunction;

/// One task of a scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// Job number from the SWF log (field 1).
    pub job_number: i64,
    /// Arrival (submit) time, s on the log's clock.
    pub arrival: f64,
    /// Cores requested.
    pub cores: u32,
    /// Estimated time to compute on each cluster, s (one entry per cluster).
    pub etc: Vec<f64>,
    /// Value function over completion time.
    pub value: ValueFunction,
    /// Whether the task counts in the results (arrives inside the 24-hour
    /// window) or only warms the system up.
    pub counted: bool,
    /// Who submitted it (the log's user, group and queue).
    pub owner: Owner,
}

/// Who submitted a job: the log's user, group and queue ids (SWF fields
/// 12, 13 and 15; −1 when unknown, as for a synthetic task).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner {
    /// User id.
    pub user: i64,
    /// Group id.
    pub group: i64,
    /// Queue id.
    pub queue: i64,
}

impl Owner {
    /// No user, group or queue known.
    pub const UNKNOWN: Owner = Owner {
        user: -1,
        group: -1,
        queue: -1,
    };

    /// The owner of a log's job.
    pub fn of(job: &crate::swf::filter::SimJob) -> Owner {
        Owner {
            user: job.user_id,
            group: job.group_id,
            queue: job.queue_number,
        }
    }
}

impl Task {
    /// Mean of the ETC row over all clusters, s (the paper's "average
    /// execution time").
    pub fn average_etc(&self) -> f64 {
        self.etc.iter().sum::<f64>() / self.etc.len().max(1) as f64
    }

    /// Shortest ETC over the clusters the task fits on, s, with the cluster
    /// index; `None` when it fits on no cluster.
    pub fn fastest(&self, system: &System) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for (j, c) in system.clusters.iter().enumerate() {
            if c.fits(self.cores) && best.is_none_or(|(_, e)| self.etc[j] < e) {
                best = Some((j, self.etc[j]));
            }
        }
        best
    }

    /// Resources used on cluster `j`: R = ETC·NC (core-seconds).
    pub fn resources_on(&self, system: &System, j: usize) -> f64 {
        self.etc[j] * system.clusters[j].charged_cores(self.cores) as f64
    }
}
