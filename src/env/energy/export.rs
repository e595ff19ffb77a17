//! Environment C's schedules as Batsim's `jobs.csv`
//! ([`crate::metrics::batsim`]; `replay --env energy --export batsim`): one
//! row per task that ran, its resource the machine it ran on (machines
//! numbered type by type, as the `machines` table), with the energy it
//! drew.

use super::{EnergyRun, EnergyScenario};
use crate::metrics::batsim::BatsimJob;

/// The rows of one run, in the order of its executions (as they were
/// assigned), and the number of
/// tasks that never ran (dropped or never mapped: not in Batsim's file).
/// `requested_time` is its ETC in its P-state (start to end),
/// `consumed_energy` its average power there × that time (J; the `jobs`
/// table's `energy_j` counts only the part inside the day), `metadata`
/// its P-state (`pstate=1`).
pub fn batsim_jobs(s: &EnergyScenario, run: &EnergyRun) -> (Vec<BatsimJob>, usize) {
    let type_of = s.matrices.machine_type_of();
    let rows: Vec<BatsimJob> = run
        .executions
        .iter()
        .map(|e| {
            let t = &s.tasks[e.task];
            let energy = s
                .matrices
                .apc(t.task_type, type_of[e.machine], e.pstate.into())
                .map_or(-1.0, |apc| apc * (e.end - e.start));
            BatsimJob {
                job_id: t.job_number,
                submission_time: t.arrival,
                requested_number_of_resources: 1,
                requested_time: e.end - e.start,
                completed: true,
                starting_time: e.start,
                finish_time: e.end,
                allocated_resources: vec![e.machine as u32],
                consumed_energy: energy,
                metadata: format!("pstate={}", e.pstate),
            }
        })
        .collect();
    let never = s.tasks.len() - rows.len();
    (rows, never)
}
