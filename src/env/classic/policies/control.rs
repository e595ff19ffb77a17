//! Full control from outside (the Python package's `ControlPolicy`): at
//! every scheduling pass a [`Controller`] sees the waiting queue, the
//! running jobs and the availability profile, and answers with actions —
//! start a waiting job now, or note a reservation for one (and have a pass
//! then). The engine applies them in order and refuses any that breaks a
//! rule, naming the job:
//!
//! - a job started must be waiting, and fit in the units free at that
//!   moment of the pass (after the starts before it);
//! - a reservation must be for a waiting job, at a finite time after now;
//!   the first one a job gets is recorded (`first_reservation_s`) and
//!   answered with a pass at that time, and it is a promise: the capacity
//!   checker refuses a schedule in which the job starts later, unless a
//!   job ran past its estimate (as for the native backfilling);
//! - a policy must make progress: 10,000 passes in a row that start
//!   nothing while no job arrives or ends, or a replay that ends with jobs
//!   never started, stop it.
//!
//! The schedule is then checked by the same capacity checker as every
//! native policy's ([`crate::env::classic::check`]).

use super::scheduler::Scheduler;
use super::scored::PassView;
use crate::env::classic::engine::machine::MachineState;

/// Passes in a row without a start, an arrival or an end after which a
/// policy is stopped.
pub const MAX_IDLE_PASSES: u64 = 10_000;

/// What a controller sees at one scheduling pass.
#[derive(Debug, Clone)]
pub struct ControlView<'a> {
    /// The pass's time, the waiting queue (submit order, then job number),
    /// the free units: what a priority policy sees.
    pub pass: PassView<'a>,
    /// Running jobs: (job index, start of its current piece, predicted end
    /// from its estimate), by predicted end.
    pub running: Vec<(usize, f64, f64)>,
    /// The availability profile of the running jobs: (time, units free from
    /// then on), from `now` on.
    pub profile: Vec<(f64, i64)>,
}

/// One action of a controller, on a job index of `ControlView::jobs`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    /// Start the job now.
    Start(usize),
    /// The policy plans to start the job at this time, s.
    Reserve(usize, f64),
}

/// Decides, at every pass, which waiting jobs start.
pub trait Controller {
    /// The actions of this pass, applied in order.
    ///
    /// # Errors
    /// A message saying what went wrong (the Python exception); it ends the
    /// replay.
    fn decide(&mut self, view: &ControlView<'_>) -> Result<Vec<Action>, String>;
}

/// A policy that hands every pass to a [`Controller`].
pub struct Controlled<'c> {
    controller: &'c mut dyn Controller,
    capacity: u32,
    passes: u64,
    idle: u64,
    seen: (usize, usize),
    failure: Option<String>,
}

impl<'c> Controlled<'c> {
    /// Hands the passes on a machine of `capacity` units to `controller`.
    pub fn new(controller: &'c mut dyn Controller, capacity: u32) -> Controlled<'c> {
        Controlled {
            controller,
            capacity,
            passes: 0,
            idle: 0,
            seen: (0, 0),
            failure: None,
        }
    }

    fn fail(&mut self, now: f64, what: String) {
        self.failure = Some(format!(
            "at the scheduling pass at t = {now} s (pass {}): {what}",
            self.passes
        ));
    }
}

impl Scheduler for Controlled<'_> {
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>) {
        if self.failure.is_some() || queue.is_empty() {
            return;
        }
        self.passes += 1;
        let before = (queue.len(), machine.running().count());
        let jobs = machine.jobs();
        let view = ControlView {
            pass: PassView {
                now,
                queue,
                jobs,
                free: machine.free(),
                capacity: self.capacity,
                pass: self.passes,
            },
            running: machine.running_plan(now),
            profile: machine.profile(now).steps().collect(),
        };
        let actions = match self.controller.decide(&view) {
            Ok(a) => a,
            Err(e) => return self.fail(now, format!("the policy failed: {e}")),
        };
        let mut started = 0usize;
        for action in actions {
            let i = match action {
                Action::Start(i) | Action::Reserve(i, _) => i,
            };
            let Some(job) = jobs.get(i) else {
                return self.fail(now, format!("job index {i} does not exist"));
            };
            let n = job.job_number;
            if !queue.contains(&i) {
                let why = if job.submit > now {
                    format!("it is submitted at t = {} s", job.submit)
                } else {
                    "it has started".to_string()
                };
                return self.fail(
                    now,
                    format!("job {n} is not waiting ({why}): only a waiting job can be started or reserved"),
                );
            }
            match action {
                Action::Start(_) => {
                    let size = i64::from(job.size);
                    if size > machine.free() {
                        return self.fail(
                            now,
                            format!(
                                "job {n} needs {size} units and {} are free (capacity {}, after the starts before it in this pass): a job starts only where it fits",
                                machine.free(),
                                self.capacity
                            ),
                        );
                    }
                    machine.start(i, now, Vec::new());
                    queue.retain(|&q| q != i);
                    started += 1;
                }
                Action::Reserve(_, at) => {
                    if !at.is_finite() || at <= now {
                        return self.fail(
                            now,
                            format!("job {n} reserved at t = {at} s: a reservation is a finite time after now"),
                        );
                    }
                    machine.record_reservation(i, at);
                    machine.wake_at(at);
                }
            }
        }
        // Progress: a start, or an arrival or an end since the last pass
        // (the queue or the running set changed), resets the count.
        if started > 0 || before != self.seen {
            self.idle = 0;
        } else {
            self.idle += 1;
            if self.idle >= MAX_IDLE_PASSES {
                return self.fail(
                    now,
                    format!("{MAX_IDLE_PASSES} passes in a row started nothing while no job arrived or ended: the policy must start the waiting jobs"),
                );
            }
        }
        self.seen = (queue.len(), machine.running().count());
    }

    fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}
