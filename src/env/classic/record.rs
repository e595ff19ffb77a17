//! Environment D's runs as neutral records ([`crate::output::record`]),
//! from which the time series, `--export` and the per-user tables are
//! written. Each job holds its `size` units from its start to its end
//! except while suspended (one piece per stretch between suspensions, on
//! the units the engine gave it: a suspended job resumes on its own); it
//! waits from its submit to its start, needing size × run unit-seconds,
//! and while suspended, needing size × the run time it has left. Jobs
//! carry their queue (SWF field 15), so the series has a row set per queue;
//! a job whose queue is unknown (−1) counts in the totals only. The SWF
//! export keeps the log's header: the machine is the log's own. Batsim's
//! row of a job: its units, its estimate as walltime.

use super::engine::machine::ClassicRun;
use super::engine::simulate_tracked;
use super::{ClassicJob, Policy};
use crate::output::{Fate, Machine, Piece, Record, RecordedJob};

/// The record of `run`, the schedule of `jobs` on `capacity` units.
/// `resources`: name each job's units — from the run when it tracked
/// them, else from the replay again under this policy with units tracked
/// ([`simulate_tracked`]; its schedule must be the run's); `None`: no
/// units named.
///
/// # Panics
/// If tracking units changes the schedule (a bug in the engine).
pub fn record(
    jobs: &[ClassicJob],
    capacity: u32,
    run: &ClassicRun,
    resources: Option<Policy>,
) -> Record {
    let mut units: Vec<Vec<u32>> =
        vec![Vec::new(); if resources.is_some() { jobs.len() } else { 0 }];
    if let Some(policy) = resources {
        let tracked;
        let allocations = if run.allocations.is_empty() && !jobs.is_empty() {
            tracked = simulate_tracked(jobs, capacity, policy);
            assert_eq!(
                tracked.outcomes, run.outcomes,
                "naming units changed the schedule"
            );
            &tracked.allocations
        } else {
            &run.allocations
        };
        for a in allocations {
            units[a.job].extend_from_slice(&a.units);
        }
    }
    let mut suspended: Vec<Vec<(f64, f64)>> = vec![Vec::new(); jobs.len()];
    for s in &run.suspensions {
        suspended[s.job].push((s.at, s.resumed));
    }
    let recorded = jobs
        .iter()
        .zip(&run.outcomes)
        .enumerate()
        .map(|(k, (j, o))| {
            let size = f64::from(j.size);
            let mine = units.get(k).cloned().unwrap_or_default();
            let pauses = &mut suspended[k];
            pauses.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut pieces = Vec::with_capacity(pauses.len() + 1);
            let mut from = o.start;
            let mut done = 0.0;
            for &(at, resumed) in pauses.iter() {
                done += at - from;
                pieces.push(Piece {
                    start: from,
                    end: at,
                    units: size,
                    resources: mine.clone(),
                    work_left: size * (j.run - done).max(0.0),
                });
                from = resumed;
            }
            pieces.push(Piece {
                start: from,
                end: o.end,
                units: size,
                resources: mine,
                work_left: 0.0,
            });
            RecordedJob {
                id: j.job_number,
                user: j.user,
                group: j.group,
                queue: j.queue,
                submit: j.submit,
                requested_processors: i64::from(j.processors),
                processors: i64::from(j.processors),
                requested_resources: u64::from(j.size),
                requested_time: j.estimate,
                run: j.run,
                work: size * j.run,
                pieces,
                waits_until: None,
                fate: Fate::Completed,
                earned: None,
                energy_j: None,
                note: String::new(),
            }
        })
        .collect();
    let (origin, end) = if jobs.is_empty() {
        (0.0, 0.0)
    } else {
        (
            jobs.iter().map(|j| j.submit).fold(f64::INFINITY, f64::min),
            run.outcomes
                .iter()
                .map(|o| o.end)
                .fold(f64::NEG_INFINITY, f64::max),
        )
    };
    Record {
        capacity: f64::from(capacity),
        origin,
        end,
        by_queue: true,
        machine: Machine::Logged,
        jobs: recorded,
    }
}
