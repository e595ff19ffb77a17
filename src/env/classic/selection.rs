//! Job selection from outside, one job at a time: the decision process of
//! RLScheduler (Zhang et al., "RLScheduler: an automated HPC batch job
//! scheduler using reinforcement learning", SC 2020) on environment D's
//! engine. The Gymnasium environment (`swftool.gym`, [`super::gym`]) is
//! this process with observations and rewards around it.
//!
//! At each **decision** the waiting queue is in submit order and the
//! deciding side picks one waiting job (by its position in the queue).
//!
//! - If the chosen job can start now it starts, and the next decision comes
//!   at the same instant while jobs wait (no time passes between two
//!   decisions that start jobs).
//! - If it cannot, it **takes the reservation** and the engine runs, pass
//!   after pass ([`Replay`]), until it starts; meanwhile the other waiting
//!   jobs are served around it by the native policy code
//!   ([`Backfill::serve`], the chosen job first in the order): with a
//!   reservation depth `k` (`Some(k)`), any job may start if it delays no
//!   reservation, the chosen job holds the first reservation and the next
//!   `k − 1` jobs that cannot start hold the others (1: EASY, Lifka 1995;
//!   `usize::MAX`: Conservative; 0: greedy, no reservation); without
//!   backfilling (`None`) nothing starts before it (RLScheduler's
//!   `backfil=False`). A job holding a reservation other than the chosen
//!   one starts when it falls due, as in the native policy. The next
//!   decision comes at the pass where the chosen job starts.
//!
//! So a side that always picks the first waiting job replays exactly the
//! native `fcfs` (`None`) and `backfill` at the same depth (`easy`,
//! `conservative`): tested on whole logs, job for job.
//!
//! Where this differs from RLScheduler's own environment: it keeps time in
//! the engine's events (every job end and arrival is a pass), reserves with
//! the availability profile of the running jobs' estimates and backfills as
//! the native EASY does (a job may also start if it fits beside the
//! reservation, not only if it ends before it), and compresses the
//! reservation when a job ends early.

use thiserror::Error;

use super::ClassicJob;
use super::engine::{ClassicRun, MachineState, Replay};
use super::policies::backfill::Backfill;

/// A decision that cannot be taken.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SelectError {
    /// The position names no waiting job.
    #[error(
        "position {position} names no waiting job: {waiting} job(s) wait (valid positions 0..{waiting})"
    )]
    NoJob {
        /// The position given.
        position: usize,
        /// Jobs waiting.
        waiting: usize,
    },
    /// Every job has started: no decision is left.
    #[error("every job has started: the episode is over (reset it)")]
    Finished,
}

/// How the other jobs are served while the chosen one waits.
enum Serve {
    /// Nothing starts before the chosen job.
    Blocking,
    /// Backfilling around the reservations (boxed: one per selection, and
    /// the blocking variant carries nothing).
    Backfill(Box<Backfill>),
}

/// A replay driven one selected job at a time (the module's rules).
pub struct Selection<'a> {
    replay: Replay<'a>,
    serve: Serve,
    now: f64,
    done: bool,
    decisions: u64,
}

impl<'a> Selection<'a> {
    /// A replay of `jobs` on `capacity` units, served around the chosen job
    /// with reservation depth `depth` (`None`: no backfilling), run to its
    /// first decision.
    pub fn new(jobs: &'a [ClassicJob], capacity: u32, depth: Option<usize>) -> Selection<'a> {
        let mut s = Selection {
            replay: Replay::new(jobs, capacity, false),
            serve: match depth {
                None => Serve::Blocking,
                Some(d) => Serve::Backfill(Box::new(Backfill::new(d))),
            },
            now: 0.0,
            done: false,
            decisions: 0,
        };
        s.advance();
        s
    }

    /// The waiting jobs at this decision, in submit order (indices into
    /// [`MachineState::jobs`]); empty when the replay is over.
    pub fn queue(&mut self) -> &[usize] {
        self.replay.parts().0
    }

    /// The waiting jobs and the machine, at this decision.
    pub fn state(&mut self) -> (&[usize], &MachineState<'a>) {
        let (q, m) = self.replay.parts();
        (q, m)
    }

    /// The time of this decision, s on the log's clock.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Whether every job has started (no decision is left).
    pub fn done(&self) -> bool {
        self.done
    }

    /// Decisions taken so far.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// Picks the job at `position` of the queue: it starts now, or takes
    /// the reservation and the replay runs until it starts (the module's
    /// rules); returns at the next decision, or when every job has started.
    ///
    /// # Errors
    /// [`SelectError::NoJob`] for a position past the queue (nothing
    /// changes); [`SelectError::Finished`] after the last job started.
    pub fn select(&mut self, position: usize) -> Result<(), SelectError> {
        if self.done {
            return Err(SelectError::Finished);
        }
        let (mut queue, mut machine) = self.replay.parts();
        if position >= queue.len() {
            return Err(SelectError::NoJob {
                position,
                waiting: queue.len(),
            });
        }
        // The chosen job first, the others in their order.
        queue[..=position].rotate_right(1);
        self.decisions += 1;
        loop {
            let started = match &mut self.serve {
                Serve::Backfill(b) => b.serve(queue, self.now, machine, true),
                Serve::Blocking => {
                    let i = queue[0];
                    let fits = i64::from(machine.jobs()[i].size) <= machine.free();
                    if fits {
                        machine.start(i, self.now, Vec::new());
                        queue.remove(0);
                    }
                    fits
                }
            };
            if started {
                if queue.is_empty() {
                    self.advance();
                }
                return Ok(());
            }
            match self.replay.next_pass() {
                Some(t) => self.now = t,
                // A chosen job never starts only if it is larger than the
                // machine, which cleaning removes.
                None => {
                    self.done = true;
                    return Ok(());
                }
            }
            (queue, machine) = self.replay.parts();
        }
    }

    /// Runs the replay to the next pass with jobs waiting.
    fn advance(&mut self) {
        match self.replay.next_pass() {
            Some(t) => self.now = t,
            None => self.done = true,
        }
    }

    /// The run: every job's start and end, the passes.
    pub fn finish(self) -> ClassicRun {
        self.replay.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::classic::Policy;
    use crate::env::classic::engine::simulate;

    fn job(n: i64, submit: f64, run: f64, estimate: f64, size: u32) -> ClassicJob {
        ClassicJob::example(n, submit, size, run, estimate)
    }

    /// Worked on paper, 4 units: job 1 (3 units, 100 s) runs from 0; at
    /// t = 1 jobs 2 (4 units, 50 s) and 3 (1 unit, 20 s) wait. Picking job 2
    /// (position 0) reserves it at t = 100 and backfills job 3 at t = 1
    /// (it ends at 21, before the reservation): the next decision comes
    /// when job 2 starts, at 100, with nothing waiting, so the replay ends.
    /// Picking job 3 first starts it at once, with job 2 then chosen at 1.
    #[test]
    fn a_chosen_job_that_cannot_start_takes_the_reservation() {
        let jobs = [
            job(1, 0.0, 100.0, 100.0, 3),
            job(2, 1.0, 50.0, 50.0, 4),
            job(3, 1.0, 20.0, 20.0, 1),
        ];
        let mut s = Selection::new(&jobs, 4, Some(1));
        assert_eq!(s.queue(), &[0]);
        s.select(0).unwrap();
        assert_eq!((s.now(), s.queue()), (1.0, &[1, 2][..]));
        s.select(0).unwrap();
        assert!(s.done());
        let run = s.finish();
        let starts: Vec<f64> = run.outcomes.iter().map(|o| o.start).collect();
        assert_eq!(starts, [0.0, 100.0, 1.0]);

        let mut s = Selection::new(&jobs, 4, Some(1));
        s.select(0).unwrap();
        s.select(1).unwrap();
        assert_eq!((s.now(), s.queue()), (1.0, &[1][..]));
        assert_eq!(
            s.select(1),
            Err(SelectError::NoJob {
                position: 1,
                waiting: 1
            })
        );
        s.select(0).unwrap();
        assert_eq!(s.select(0), Err(SelectError::Finished));
        let starts: Vec<f64> = s.finish().outcomes.iter().map(|o| o.start).collect();
        assert_eq!(starts, [0.0, 100.0, 1.0]);
    }

    /// Without backfilling, nothing passes the chosen job: job 3 waits for
    /// job 2 (starts 100, ends 150).
    #[test]
    fn without_backfilling_the_chosen_job_blocks_the_rest() {
        let jobs = [
            job(1, 0.0, 100.0, 100.0, 3),
            job(2, 1.0, 50.0, 50.0, 4),
            job(3, 1.0, 20.0, 20.0, 1),
        ];
        let mut s = Selection::new(&jobs, 4, None);
        s.select(0).unwrap();
        s.select(0).unwrap();
        assert_eq!((s.now(), s.queue()), (100.0, &[2][..]));
        s.select(0).unwrap();
        let starts: Vec<f64> = s.finish().outcomes.iter().map(|o| o.start).collect();
        assert_eq!(starts, [0.0, 100.0, 150.0]);
        let native = simulate(&jobs, 4, Policy::Fcfs);
        let native: Vec<f64> = native.outcomes.iter().map(|o| o.start).collect();
        assert_eq!(native, [0.0, 100.0, 150.0]);
    }
}
