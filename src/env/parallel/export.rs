//! Environment A's schedules as Batsim's `jobs.csv`
//! ([`crate::metrics::batsim`]; `replay --export batsim`): one row per task
//! that started, its resources the nodes the engine gave it, numbered
//! across the system (cluster 0's nodes first, then cluster 1's, …).

use super::RunResult;
use super::engine::TaskStatus;
use crate::metrics::batsim::BatsimJob;
use crate::workload::Scenario;

/// The rows of one run, in task order, and the number of tasks that never
/// started (dropped or still waiting: not in Batsim's file).
/// `requested_number_of_resources` is the nodes it held,
/// `requested_time` its ETC on its cluster (environment A knows run times
/// exactly), a task cut off by the end of the run is `COMPLETED_KILLED`
/// at that end, and `metadata` gives its value earned.
pub fn batsim_jobs(s: &Scenario, run: &RunResult) -> (Vec<BatsimJob>, usize) {
    let mut offset = Vec::with_capacity(s.system.clusters.len());
    let mut next = 0u32;
    for c in &s.system.clusters {
        offset.push(next);
        next += c.nodes;
    }
    let end = run
        .outcomes
        .iter()
        .filter_map(|o| o.completion)
        .fold(run.end_time, f64::max);
    let mut rows = Vec::new();
    let mut never = 0;
    for (t, o) in s.tasks.iter().zip(&run.outcomes) {
        let (Some(start), Some(c)) = (o.start, o.cluster) else {
            never += 1;
            continue;
        };
        if start >= end {
            never += 1;
            continue;
        }
        rows.push(BatsimJob {
            job_id: t.job_number,
            submission_time: t.arrival,
            requested_number_of_resources: u64::from(o.nodes.len()),
            requested_time: t.etc[c],
            completed: o.status == TaskStatus::Completed,
            starting_time: start,
            finish_time: o.completion.unwrap_or(end),
            allocated_resources: o.nodes.iter().map(|n| offset[c] + n).collect(),
            consumed_energy: -1.0,
            metadata: format!("value_earned={}", o.value),
        });
    }
    (rows, never)
}
