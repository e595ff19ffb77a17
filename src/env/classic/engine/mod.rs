//! The engine of classic trace replay (environment D): the event loop
//! (here) and the machine state ([`machine`]), knowing no policy. The policies
//! (`env::classic::policies`) decide, at each scheduling pass, which jobs start,
//! resume or are suspended, through [`MachineState`].
//!
//! Equal-time rule: at each instant, every job that ends then releases its
//! units first, then resume reservations falling due wake the loop (both
//! from the shared [`crate::sim::events::EventQueue`], in job-index order within each kind),
//! then the jobs submitted then join the queue, then one scheduling pass
//! runs — so a job ending at t frees its units for a job starting at t. A
//! pass runs whenever the queue is not empty or a job is suspended.
//!
//! A job holds its units from its start for its actual run time; the
//! policies plan with its estimate. Running jobs are predicted to end at
//! start + estimate; a job still running past its estimate (possible when
//! estimates are user estimates and the log says it ran longer) has its
//! prediction extended by doubling ([`extended_end`]). The availability
//! profile of the running jobs ([`MachineState::profile`]) is built from
//! these predictions when a pass asks for it; the policies add their
//! reservations (kept from pass to pass by backfilling, rebuilt at every
//! pass by Catalina).
//!
//! With suspension preemption the machine also tracks which units each job
//! holds, because a suspended job resumes on its own units and a unit holds
//! at most one suspended job (its memory image).

pub mod machine;

pub use machine::{Allocation, ClassicOutcome, ClassicRun, MachineState, Suspension, extended_end};

use super::policies;
use super::{ClassicJob, Policy};

/// Replays `jobs` on a machine of `capacity` units under `policy` (built
/// into its policy object by [`policies::build`]).
///
/// Jobs larger than the machine must have been removed (cleaning does it);
/// such a job would never start, and is given start = end = +∞.
pub fn simulate(jobs: &[ClassicJob], capacity: u32, policy: Policy) -> ClassicRun {
    let mut scheduler = policies::build(policy);
    run(jobs, capacity, scheduler.as_mut())
}

/// Replays `jobs` on a machine of `capacity` units under a policy object
/// built elsewhere (a [`policies::scored::Scored`] policy of the Python
/// package), the same event loop as [`simulate`].
///
/// # Errors
/// The policy's [`Scheduler::failure`](policies::Scheduler::failure): the
/// replay ends at the pass that failed.
pub fn simulate_with(
    jobs: &[ClassicJob],
    capacity: u32,
    scheduler: &mut dyn policies::Scheduler,
) -> Result<ClassicRun, String> {
    let run = run(jobs, capacity, scheduler);
    match scheduler.failure() {
        Some(f) => Err(f.to_string()),
        None => Ok(run),
    }
}

fn run(jobs: &[ClassicJob], capacity: u32, scheduler: &mut dyn policies::Scheduler) -> ClassicRun {
    let n = jobs.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        jobs[a]
            .submit
            .total_cmp(&jobs[b].submit)
            .then(jobs[a].job_number.cmp(&jobs[b].job_number))
            .then(a.cmp(&b))
    });
    let mut m = MachineState::new(jobs, capacity, scheduler.tracks_units());
    let mut queue: Vec<usize> = Vec::new();
    let mut next = 0;
    let mut passes = 0;
    loop {
        let t_sub = order.get(next).map(|&i| jobs[i].submit);
        let t_event = m.next_time();
        let now = [t_sub, t_event]
            .into_iter()
            .flatten()
            .min_by(f64::total_cmp);
        let Some(now) = now else { break };
        m.take_due(now);
        while let Some(&i) = order.get(next) {
            if jobs[i].submit != now {
                break;
            }
            queue.push(i);
            next += 1;
        }
        if queue.is_empty() && m.suspended().is_empty() {
            continue;
        }
        passes += 1;
        scheduler.pass(&mut queue, now, &mut m);
        if scheduler.failure().is_some() {
            break;
        }
    }
    m.into_run(passes)
}
