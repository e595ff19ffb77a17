//! Catalina (SDSC; Margo, Yoshimoto and Kovatch, "Preemption and Priority
//! Calculation in Production Job Data", §2): the queue in descending
//! priority order, the priority recomputed at every pass from the ten
//! weighted factors of [`crate::env::classic::catalina`]; then the
//! backfilling pass of [`super::backfill`] with every job reserved
//! (conservative backfilling).
//!
//! With suspension preemption ([`Preemption`]; Margo et al. §3), a pass
//! first resumes the suspended jobs that can resume, then serves the queue,
//! and a preempting job that does not fit tries to suspend running jobs
//! under the five rules before it falls back to a reservation.
//!
//! The priority formula and the preemption rule stay in
//! [`crate::env::classic::catalina`]: they are the configuration (the
//! payload of [`crate::env::classic::Policy`], set by the registry, the
//! command line and experiment presets), while this file is the behaviour.

use super::backfill::backfill_pass;
use super::{MachineState, Scheduler};
use crate::env::classic::catalina::{CatalinaWeights, Preemption, priority};
use crate::sim::profile::Profile;

/// Catalina's priority order with conservative backfilling, optionally with
/// suspension preemption.
#[derive(Debug, Clone, Copy)]
pub struct Catalina {
    /// The ten priority weights.
    pub weights: CatalinaWeights,
    /// Suspension preemption and its marks, or `None` for none.
    pub preemption: Option<Preemption>,
}

impl Scheduler for Catalina {
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>) {
        self.order(queue, now, machine);
        match self.preemption {
            None => backfill_pass(machine, queue, usize::MAX, now, None, None),
            Some(rule) => {
                let profile = resume_suspended(machine, now);
                let preempt = |m: &mut MachineState<'_>, p: usize, now: f64, q: &mut Profile| {
                    try_preempt(&rule, m, p, now, q)
                };
                backfill_pass(
                    machine,
                    queue,
                    usize::MAX,
                    now,
                    Some(profile),
                    Some(&preempt),
                );
            }
        }
    }

    fn tracks_units(&self) -> bool {
        self.preemption.is_some()
    }
}

impl Catalina {
    /// Sorts `queue` by descending priority at `now` (ties to the earlier
    /// submit, then the lower job number) and records each job's priority
    /// on the machine (times the preemptor factor for preempting jobs).
    fn order(&self, queue: &mut [usize], now: f64, machine: &mut MachineState<'_>) {
        let jobs = machine.jobs();
        let mut keyed: Vec<(f64, usize)> = queue
            .iter()
            .map(|&i| {
                let j = &jobs[i];
                let base = priority(&self.weights, j.size, j.submit, j.estimate, now);
                let p = self
                    .preemption
                    .map_or(base, |r| r.queue_priority(j.size, base));
                (p, i)
            })
            .collect();
        keyed.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(jobs[a.1].submit.total_cmp(&jobs[b.1].submit))
                .then(jobs[a.1].job_number.cmp(&jobs[b.1].job_number))
        });
        for (slot, (p, i)) in queue.iter_mut().zip(keyed) {
            machine.set_priority(i, p);
            *slot = i;
        }
    }
}

/// Resumes the suspended jobs whose units are all free and that are due
/// (clock at or past their reservation) or fit the profile from now
/// (compression), earliest reservation first (then job index); returns the
/// pass's profile with their pieces in it.
fn resume_suspended(machine: &mut MachineState<'_>, now: f64) -> Profile {
    let mut profile = machine.profile(now);
    let mut order = machine.suspended().to_vec();
    order.sort_by(|&a, &b| {
        machine
            .resume_at(a)
            .total_cmp(&machine.resume_at(b))
            .then(a.cmp(&b))
    });
    for v in order {
        if !machine.units_free(v) {
            continue;
        }
        let size = i64::from(machine.jobs()[v].size);
        let left = machine.estimate_left(v);
        let due = machine.resume_at(v);
        // Lift its reservation block, try it from now, and put the block
        // back if it cannot resume.
        let block = due.max(now);
        profile.reserve(block, left, -size);
        if now >= due || profile.fits(now, left, size) {
            profile.reserve(now, left, size);
            machine.resume(v, now);
        } else {
            profile.reserve(block, left, size);
        }
    }
    profile
}

/// Tries to start preempting job `p` now by suspending running jobs under
/// the five rules of [`Preemption`]; `profile` is the pass's profile
/// (running jobs, suspended jobs' reservations and the reservations made
/// so far in this pass) and is updated on success.
fn try_preempt(
    rule: &Preemption,
    machine: &mut MachineState<'_>,
    p: usize,
    now: f64,
    profile: &mut Profile,
) -> bool {
    let jobs = machine.jobs();
    let job = &jobs[p];
    if !rule.preempting(job.size) {
        return false;
    }
    let prio = machine.priority(p);
    let est = job.estimate;
    let need = job.size as usize;
    let free_ok = machine.eligible_units(now + est, need).len();
    // Candidates: rules 1, 2, 4 and 5.
    let mut cands: Vec<(f64, f64, usize)> = machine
        .running()
        .filter_map(|v| {
            let end = machine.predicted_end(v, now);
            (rule.preemptible(jobs[v].size)
                && machine.priority(v) < prio
                && !machine.runs_over_an_image(v)
                && end - now >= rule.min_runtime)
                .then_some((machine.priority(v), end, v))
        })
        .collect();
    cands.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.cmp(&b.2))
    });
    let mut victims = Vec::new();
    let mut got = free_ok;
    for &(_, end, v) in &cands {
        if got >= need {
            break;
        }
        got += jobs[v].size as usize;
        victims.push((v, end));
    }
    if got < need || victims.is_empty() {
        return false;
    }
    // Rule 3: the preemptor fits once the victims are released, and every
    // victim fits again right after the preemptor's predicted end.
    let mut q = profile.clone();
    for &(v, end) in &victims {
        q.reserve(now, end - now, -i64::from(jobs[v].size));
    }
    if !q.fits(now, est, i64::from(job.size)) {
        return false;
    }
    q.reserve(now, est, i64::from(job.size));
    let back = now + est;
    for &(v, end) in &victims {
        let size = i64::from(jobs[v].size);
        if !q.fits(back, end - now, size) {
            return false;
        }
        q.reserve(back, end - now, size);
    }
    for &(v, _) in &victims {
        machine.suspend(v, p, now, back);
    }
    let units = machine.eligible_units(back, need);
    debug_assert_eq!(units.len(), need);
    machine.start(p, now, units);
    *profile = q;
    true
}
