//! A classic replay's schedule in the formats other tools read
//! (`swftool replay --env classic --export batsim,swf`; docs/outputs.md):
//!
//! - Batsim's `jobs.csv` (Batsim documentation, "Jobs" output: `job_id`,
//!   `workload_name`, `profile`, `submission_time`,
//!   `requested_number_of_resources`, `requested_time`, `success`,
//!   `final_state`, `starting_time`, `execution_time`, `finish_time`,
//!   `waiting_time`, `turnaround_time`, `stretch`, `allocated_resources`,
//!   `consumed_energy`, `metadata`), which evalys loads
//!   (`JobSet.from_csv`) and draws; `allocated_resources` are the units
//!   the engine gave the job ([`super::engine::simulate_tracked`]), in
//!   Batsim's interval-set notation (`0-3 7`);
//! - an SWF log of the simulated run: each job's record with the simulated
//!   wait (field 3), its run time (4) and the processors it held (5), the
//!   other fields as logged, so `swftool info` and other SWF tools read it.

use super::{ClassicJob, ClassicRun};
use crate::metrics::batsim::BatsimJob;
use crate::swf::{JobRecord, SwfHeader};

/// Batsim's `jobs.csv` rows of one run ([`crate::metrics::batsim`]): one
/// per job, in the jobs' order. `requested_number_of_resources` is the
/// job's units, `requested_time` its estimate, every job
/// `COMPLETED_SUCCESSFULLY` (it ran to its end), `execution_time` finish −
/// start (suspended time included), `consumed_energy` −1 (no energy model
/// in environment D), `allocated_resources` the units the engine gave it.
///
/// # Panics
/// If `run` names no units (it must come from
/// [`super::engine::simulate_tracked`]).
pub fn batsim_jobs(jobs: &[ClassicJob], run: &ClassicRun) -> Vec<BatsimJob> {
    let mut units: Vec<Vec<u32>> = vec![Vec::new(); jobs.len()];
    for a in &run.allocations {
        units[a.job].extend_from_slice(&a.units);
    }
    assert!(
        jobs.is_empty() || !run.allocations.is_empty(),
        "a Batsim export needs a run that names units (simulate_tracked)"
    );
    jobs.iter()
        .zip(&run.outcomes)
        .zip(units)
        .map(|((j, o), units)| BatsimJob {
            job_id: j.job_number,
            submission_time: j.submit,
            requested_number_of_resources: u64::from(j.size),
            requested_time: j.estimate,
            completed: true,
            starting_time: o.start,
            finish_time: o.end,
            allocated_resources: units,
            consumed_energy: -1.0,
            metadata: String::new(),
        })
        .collect()
}

/// The simulated run as an SWF log: the header of `original`'s log with a
/// note, and for each job its record from `records` (matched by job
/// number) with the simulated wait, the run time replayed and the
/// processors it held, in the order of `jobs`; status 1 (it ran to its
/// end). A job without a logged record (an extra window job) keeps the
/// fields the replay knows and −1 elsewhere.
pub fn simulated_swf(
    header: &SwfHeader,
    records: &[JobRecord],
    jobs: &[ClassicJob],
    run: &ClassicRun,
    scheduler: &str,
) -> (SwfHeader, Vec<JobRecord>) {
    let by_number: std::collections::HashMap<i64, &JobRecord> =
        records.iter().map(|r| (r.job_number, r)).collect();
    let out = jobs
        .iter()
        .zip(&run.outcomes)
        .map(|(j, o)| {
            let base = by_number.get(&j.job_number).map_or(
                JobRecord {
                    job_number: j.job_number,
                    submit_time: j.submit,
                    wait_time: -1.0,
                    run_time: -1.0,
                    allocated_processors: -1,
                    average_cpu_time: -1.0,
                    used_memory: -1,
                    requested_processors: i64::from(j.processors),
                    requested_time: j.estimate,
                    requested_memory: -1,
                    status: -1,
                    user_id: j.user,
                    group_id: j.group,
                    executable_number: -1,
                    queue_number: j.queue,
                    partition_number: -1,
                    preceding_job_number: -1,
                    think_time: -1.0,
                },
                |r| **r,
            );
            JobRecord {
                submit_time: j.submit,
                wait_time: o.start - j.submit,
                run_time: o.end - o.start,
                allocated_processors: i64::from(j.processors),
                status: 1,
                ..base
            }
        })
        .collect();
    let mut lines = header.lines.clone();
    lines.push(format!(
        "; Note: simulated by swftool replay --env classic --heuristic {scheduler}: waits, run times (suspensions included) and allocated processors of the replay"
    ));
    (SwfHeader::from_lines(lines), out)
}
