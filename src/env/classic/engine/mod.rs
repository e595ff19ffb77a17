//! The engine of classic trace replay (environment D): the event loop
//! ([`Replay`], one scheduling pass at a time, driven by whoever decides)
//! and the machine state ([`machine`]), knowing no policy. The policies
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

pub use machine::{
    Allocation, ClassicOutcome, ClassicRun, MachineState, Suspension, UnplannedEnd, extended_end,
};

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

/// [`simulate`], naming the units every job holds even under a policy that
/// only counts them (the engine gives each job the lowest free units), so
/// that the run's [`ClassicRun::allocations`] say where each job ran
/// (`--export batsim`). The schedule is the same as [`simulate`]'s.
pub fn simulate_tracked(jobs: &[ClassicJob], capacity: u32, policy: Policy) -> ClassicRun {
    let mut scheduler = policies::build(policy);
    let mut replay = Replay::new(jobs, capacity, true);
    while let Some(now) = replay.next_pass() {
        let (queue, machine) = replay.parts();
        scheduler.pass(queue, now, machine);
    }
    replay.finish()
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
    let mut replay = Replay::new(jobs, capacity, scheduler.tracks_units());
    while let Some(now) = replay.next_pass() {
        let (queue, machine) = replay.parts();
        scheduler.pass(queue, now, machine);
        if scheduler.failure().is_some() {
            break;
        }
    }
    replay.finish()
}

/// The event loop of a replay, one scheduling pass at a time, driven from
/// outside: [`Replay::next_pass`] runs the clock to the next instant that
/// needs a pass (ends and due resume reservations first, then the
/// arrivals, the equal-time rule above), the caller decides with the queue
/// and the machine ([`Replay::parts`]), and [`Replay::finish`] gives the
/// run. [`simulate`] and [`simulate_with`] are this loop with a policy
/// object deciding; anything that must wait between passes (an agent
/// choosing a job) drives it the same way.
pub struct Replay<'a> {
    jobs: &'a [ClassicJob],
    order: Vec<usize>,
    next: usize,
    machine: MachineState<'a>,
    queue: Vec<usize>,
    passes: u64,
}

impl<'a> Replay<'a> {
    /// A replay of `jobs` on `capacity` units, naming units when
    /// `track_units` (suspension preemption needs it).
    pub fn new(jobs: &'a [ClassicJob], capacity: u32, track_units: bool) -> Replay<'a> {
        let mut order: Vec<usize> = (0..jobs.len()).collect();
        order.sort_by(|&a, &b| {
            jobs[a]
                .submit
                .total_cmp(&jobs[b].submit)
                .then(jobs[a].job_number.cmp(&jobs[b].job_number))
                .then(a.cmp(&b))
        });
        Replay {
            jobs,
            order,
            next: 0,
            machine: MachineState::new(jobs, capacity, track_units),
            queue: Vec::new(),
            passes: 0,
        }
    }

    /// Runs the clock to the next scheduling pass and gives its time (s):
    /// the next instant with a job waiting or suspended after that
    /// instant's ends, due reservations and arrivals; `None` when no job
    /// will arrive and no event is pending.
    pub fn next_pass(&mut self) -> Option<f64> {
        loop {
            let t_sub = self.order.get(self.next).map(|&i| self.jobs[i].submit);
            let t_event = self.machine.next_time();
            let now = [t_sub, t_event]
                .into_iter()
                .flatten()
                .min_by(f64::total_cmp)?;
            self.machine.take_due(now);
            while let Some(&i) = self.order.get(self.next) {
                if self.jobs[i].submit != now {
                    break;
                }
                self.queue.push(i);
                self.next += 1;
            }
            if !self.queue.is_empty() || !self.machine.suspended().is_empty() {
                self.passes += 1;
                return Some(now);
            }
        }
    }

    /// The waiting queue (job indices, the order the deciding side keeps)
    /// and the machine, for the pass [`Replay::next_pass`] gave.
    pub fn parts(&mut self) -> (&mut Vec<usize>, &mut MachineState<'a>) {
        (&mut self.queue, &mut self.machine)
    }

    /// Scheduling passes so far.
    pub fn passes(&self) -> u64 {
        self.passes
    }

    /// The run: every job's outcome, the passes, suspensions, reservations.
    pub fn finish(self) -> ClassicRun {
        self.machine.into_run(self.passes)
    }
}
