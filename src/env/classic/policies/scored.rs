//! A priority order given from outside: at every scheduling pass a
//! [`Scorer`] (the Python package's priority policy, or any Rust
//! implementation) gives one score per waiting job, the queue is ordered by
//! score, lowest first (ties to the earlier submit, then the lower job
//! number, as the native queue), and then served as the native policies
//! serve it:
//!
//! - without backfilling (`depth` `None`): in that order while jobs fit;
//!   the first that does not blocks the rest, as [`super::fcfs`];
//! - with backfilling at reservation depth `k` (`Some(k)`): as
//!   [`super::backfill`] — any job may start now if it does not delay a
//!   reservation, the first `k` jobs (in score order) that cannot start
//!   hold one, kept from pass to pass and compressed (0 greedy, 1 EASY,
//!   `usize::MAX` Conservative).
//!
//! A scorer that gives the submit time therefore reproduces `fcfs`, `easy`
//! and `conservative` job for job; the scores of RLScheduler's baselines
//! (Zhang et al. 2020: SJF, WFP3, UNICEP, F1) are a line each. The scores
//! are those of the queue at this pass (wait = now − submit), so a score
//! that grows with waiting reorders the queue from pass to pass.
//!
//! A scorer that fails, or gives a number of scores other than the number
//! of waiting jobs, or a score that is NaN, stops the replay: the pass
//! records the failure ([`Scheduler::failure`]) and the engine ends.

use super::backfill::Backfill;
use super::scheduler::Scheduler;
use crate::env::classic::ClassicJob;
use crate::env::classic::engine::machine::MachineState;

/// What a scorer sees at one scheduling pass.
#[derive(Debug, Clone, Copy)]
pub struct PassView<'a> {
    /// The pass's time, s on the log's clock.
    pub now: f64,
    /// The waiting jobs, as indices into `jobs`, in queue order.
    pub queue: &'a [usize],
    /// Every job of the replay (after cleaning).
    pub jobs: &'a [ClassicJob],
    /// Units free now.
    pub free: i64,
    /// Units of the machine.
    pub capacity: u32,
    /// The pass's number, 1 for the first.
    pub pass: u64,
}

/// Gives the waiting jobs their scores (lowest runs first).
pub trait Scorer {
    /// One finite or infinite score per job of `view.queue`, in its order.
    ///
    /// # Errors
    /// A message saying what went wrong (the Python exception, its
    /// traceback's last line); it ends the replay.
    fn scores(&mut self, view: &PassView<'_>) -> Result<Vec<f64>, String>;
}

/// A policy ordering the queue by a [`Scorer`] at every pass.
pub struct Scored<'s> {
    scorer: &'s mut dyn Scorer,
    backfill: Option<Backfill>,
    capacity: u32,
    passes: u64,
    failure: Option<String>,
}

impl<'s> Scored<'s> {
    /// Orders by `scorer`, then serves in that order (`depth` `None`) or
    /// backfills with at most `depth` reservations, on a machine of
    /// `capacity` units.
    pub fn new(scorer: &'s mut dyn Scorer, depth: Option<usize>, capacity: u32) -> Scored<'s> {
        Scored {
            scorer,
            backfill: depth.map(Backfill::new),
            capacity,
            passes: 0,
            failure: None,
        }
    }

    /// Orders `queue` by the scorer's scores; records a failure instead.
    fn order(&mut self, queue: &mut Vec<usize>, now: f64, machine: &MachineState<'_>) {
        self.passes += 1;
        let view = PassView {
            now,
            queue,
            jobs: machine.jobs(),
            free: machine.free(),
            capacity: self.capacity,
            pass: self.passes,
        };
        // The pass, as messages name it (built only when one is needed).
        let passes = self.passes;
        let at = || format!("at the scheduling pass at t = {now} s (pass {passes})");
        let scores = match self.scorer.scores(&view) {
            Ok(s) => s,
            Err(e) => {
                self.failure = Some(format!("the policy failed {}: {e}", at()));
                return;
            }
        };
        if scores.len() != queue.len() {
            self.failure = Some(format!(
                "the policy gave {} scores {} for {} waiting jobs; give one per job, in queue order",
                scores.len(),
                at(),
                queue.len()
            ));
            return;
        }
        if let Some(k) = scores.iter().position(|s| s.is_nan()) {
            let job = machine.jobs()[queue[k]].job_number;
            self.failure = Some(format!(
                "the policy gave job {job} (position {k} of the queue) the score NaN {}; scores must be numbers (±inf allowed)",
                at()
            ));
            return;
        }
        let jobs = machine.jobs();
        let mut keyed: Vec<(f64, usize)> = scores.into_iter().zip(queue.iter().copied()).collect();
        keyed.sort_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(jobs[a.1].submit.total_cmp(&jobs[b.1].submit))
                .then(jobs[a.1].job_number.cmp(&jobs[b.1].job_number))
                .then(a.1.cmp(&b.1))
        });
        queue.clear();
        queue.extend(keyed.into_iter().map(|k| k.1));
    }
}

impl Scheduler for Scored<'_> {
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>) {
        if self.failure.is_some() || queue.is_empty() {
            return;
        }
        self.order(queue, now, machine);
        if self.failure.is_some() {
            return;
        }
        match self.backfill.as_mut() {
            Some(b) => b.pass(queue, now, machine),
            None => super::fcfs::Fcfs.pass(queue, now, machine),
        }
    }

    fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

/// Shortest job first: the estimate, s (ties to the earlier submit). One of
/// RLScheduler's baselines (Zhang et al. 2020, §5).
#[derive(Debug, Clone, Copy, Default)]
pub struct Sjf;

impl Scorer for Sjf {
    fn scores(&mut self, v: &PassView<'_>) -> Result<Vec<f64>, String> {
        Ok(v.queue.iter().map(|&i| v.jobs[i].estimate).collect())
    }
}

/// F1 (Carastan-Santos & de Camargo, SC 2017, as RLScheduler uses it):
/// log10(estimate) × processors + 870 × log10(submit), a time ≤ 0 taken
/// as 0.1 s as RLScheduler does; the same formula as the Python package's
/// `swftool.policy.f1`. A job's score does not change while it waits: each
/// is computed once, at the first pass.
#[derive(Debug, Clone, Default)]
pub struct F1 {
    scores: Vec<f64>,
}

impl Scorer for F1 {
    fn scores(&mut self, v: &PassView<'_>) -> Result<Vec<f64>, String> {
        if self.scores.len() != v.jobs.len() {
            let positive = |t: f64| if t > 0.0 { t } else { 0.1 };
            self.scores = v
                .jobs
                .iter()
                .map(|j| {
                    positive(j.estimate).log10() * f64::from(j.processors)
                        + 870.0 * positive(j.submit).log10()
                })
                .collect();
        }
        Ok(v.queue.iter().map(|&i| self.scores[i]).collect())
    }
}
