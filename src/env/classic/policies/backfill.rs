//! Backfilling with a reservation depth, in queue (submit) order: a job
//! starts now if it fits now for its whole estimate without delaying a
//! reservation made earlier in the same pass; the first `depth` jobs that
//! cannot start get a reservation at their earliest start in the
//! availability profile. Depth 0 is greedy backfilling (no reservation),
//! 1 is EASY (Lifka 1995: only the first waiting job is protected), and
//! `usize::MAX` is Conservative (Mu'alem & Feitelson 2001: every waiting job
//! holds a reservation). Compare [`super::fcfs`], which stops at the first
//! job that does not fit.
//!
//! Reservations are not kept between passes: each pass rebuilds them from
//! the running jobs' predicted ends, which is what moves them earlier when
//! jobs end before their estimates (compression).
//!
//! [`backfill_pass`] is the pass itself, shared with
//! [`super::catalina`].

use super::{MachineState, Scheduler};
use crate::sim::profile::Profile;

/// Backfilling with at most `depth` reservations per pass.
#[derive(Debug, Clone, Copy)]
pub struct Backfill {
    /// Reservation depth: 0 greedy, 1 EASY, `usize::MAX` Conservative.
    pub depth: usize,
}

impl Scheduler for Backfill {
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>) {
        backfill_pass(machine, queue, self.depth, now, None, None);
    }
}

/// A way to start a job that does not fit now by suspending running ones:
/// given the machine, the job, the clock (s) and the pass's profile, it
/// starts the job and returns true, or changes nothing and returns false.
pub type Preempt<'p> = &'p dyn Fn(&mut MachineState<'_>, usize, f64, &mut Profile) -> bool;

/// One backfilling pass over `queue` (in the order to serve it) with at
/// most `depth` reservations; leaves in `queue` the jobs still waiting, in
/// the same order.
///
/// `profile` is the availability profile to start from (running jobs and
/// anything the caller already placed, e.g. resumed jobs); without one the
/// pass counts free units until its first reservation and builds the
/// profile then. A job that fits now also needs eligible units when the
/// machine tracks units ([`MachineState::units_to_start`]). A job that
/// does not fit is offered to `preempt`, when given (which then needs a
/// profile), before it is given a reservation.
pub fn backfill_pass(
    machine: &mut MachineState<'_>,
    queue: &mut Vec<usize>,
    depth: usize,
    now: f64,
    mut profile: Option<Profile>,
    preempt: Option<Preempt<'_>>,
) {
    let jobs = machine.jobs();
    let mut reserved = 0usize;
    let mut keep = Vec::with_capacity(queue.len());
    for (qi, &i) in queue.iter().enumerate() {
        // Nothing more can start, and no reservation is left to make.
        if preempt.is_none() && machine.free() == 0 && reserved >= depth {
            keep.extend_from_slice(&queue[qi..]);
            break;
        }
        let size = i64::from(jobs[i].size);
        let est = jobs[i].estimate;
        let fits_now =
            size <= machine.free() && profile.as_ref().is_none_or(|p| p.fits(now, est, size));
        if let Some(units) = fits_now
            .then(|| machine.units_to_start(now + est, size as usize))
            .flatten()
        {
            if let Some(p) = profile.as_mut() {
                p.reserve(now, est, size);
            }
            machine.start(i, now, units);
            continue;
        }
        if let Some(preempt) = preempt {
            let p = profile
                .as_mut()
                .expect("a preempting pass carries a profile");
            if preempt(machine, i, now, p) {
                continue;
            }
        }
        keep.push(i);
        if reserved < depth {
            let p = profile.get_or_insert_with(|| machine.profile(now));
            if let Some(t) = p.earliest(est, size) {
                p.reserve(t, est, size);
                reserved += 1;
            }
        }
    }
    *queue = keep;
}
