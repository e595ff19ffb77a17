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

use polars::prelude::*;

use super::{ClassicJob, ClassicRun};
use crate::swf::{JobRecord, SwfHeader};

/// Units as Batsim's interval set, canonical: disjoint ascending
/// intervals, `a-b` or `a`, separated by spaces (`[0, 1, 2, 5]` → `0-2 5`).
pub fn interval_set(units: &[u32]) -> String {
    let mut sorted = units.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let a = sorted[i];
        let mut b = a;
        while i + 1 < sorted.len() && sorted[i + 1] == b + 1 {
            i += 1;
            b = sorted[i];
        }
        parts.push(if a == b {
            a.to_string()
        } else {
            format!("{a}-{b}")
        });
        i += 1;
    }
    parts.join(" ")
}

/// Batsim's `jobs.csv` of one run: one row per job, in the jobs' order.
/// Times in s on the log's clock; `execution_time` is finish − start
/// (suspended time included); `stretch` is turnaround / execution;
/// `consumed_energy` −1 (no energy model in environment D); `profile` is
/// `delay` (a job is its run time); `metadata` is empty.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
///
/// # Panics
/// If `run` names no units (it must come from
/// [`super::engine::simulate_tracked`]).
pub fn batsim_jobs(log: &str, jobs: &[ClassicJob], run: &ClassicRun) -> PolarsResult<DataFrame> {
    let mut units: Vec<Vec<u32>> = vec![Vec::new(); jobs.len()];
    for a in &run.allocations {
        units[a.job].extend_from_slice(&a.units);
    }
    assert!(
        jobs.is_empty() || !run.allocations.is_empty(),
        "a Batsim export needs a run that names units (simulate_tracked)"
    );
    let workload = log
        .trim_end_matches(".gz")
        .trim_end_matches(".swf")
        .to_string();
    let n = jobs.len();
    let (mut start, mut exec, mut finish, mut wait, mut turn, mut stretch) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for (j, o) in jobs.iter().zip(&run.outcomes) {
        start.push(o.start);
        exec.push(o.end - o.start);
        finish.push(o.end);
        wait.push(o.start - j.submit);
        turn.push(o.end - j.submit);
        stretch.push((o.end - j.submit) / (o.end - o.start));
    }
    df! {
        "job_id" => jobs.iter().map(|j| j.job_number).collect::<Vec<_>>(),
        "workload_name" => vec![workload; n],
        "profile" => vec!["delay"; n],
        "submission_time" => jobs.iter().map(|j| j.submit).collect::<Vec<_>>(),
        "requested_number_of_resources" => jobs.iter().map(|j| j.size).collect::<Vec<_>>(),
        "requested_time" => jobs.iter().map(|j| j.estimate).collect::<Vec<_>>(),
        "success" => vec![1i32; n],
        "final_state" => vec!["COMPLETED_SUCCESSFULLY"; n],
        "starting_time" => start,
        "execution_time" => exec,
        "finish_time" => finish,
        "waiting_time" => wait,
        "turnaround_time" => turn,
        "stretch" => stretch,
        "allocated_resources" => units.iter().map(|u| interval_set(u)).collect::<Vec<_>>(),
        "consumed_energy" => vec![-1.0f64; n],
        "metadata" => vec![""; n],
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_as_batsim_interval_sets() {
        assert_eq!(interval_set(&[0, 1, 2, 5]), "0-2 5");
        assert_eq!(interval_set(&[7, 3, 4, 9, 8]), "3-4 7-9");
        assert_eq!(interval_set(&[4]), "4");
        assert_eq!(interval_set(&[]), "");
    }
}
