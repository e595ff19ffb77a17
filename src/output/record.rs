//! One run as a neutral record: every job with its owner, its submit, the
//! pieces it ran (start, end, units held, the resources it was given), how
//! it ended and what it earned. Each environment turns its own run into a
//! [`Record`] in one place (`env/<name>/record.rs`, through
//! [`crate::contract::Environment::record`]); the outputs every environment
//! shares are written once from it: the time series
//! ([`Record::occupancy`] → [`crate::metrics::series`]), Batsim's
//! `jobs.csv` ([`Record::batsim_jobs`]), the SWF log of the simulated run
//! ([`Record::swf_records`]) and the per-user tables
//! ([`super::users`]).

use crate::metrics::batsim::BatsimJob;
use crate::metrics::series::{Mark, Occupancy, Span};
use crate::swf::JobRecord;

/// How a job ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// It ran to its end.
    Completed,
    /// The scheduler dropped it (never started, or stopped before its end).
    Dropped,
    /// The run ended first: it was still waiting, or still running.
    Unfinished,
}

/// One stretch of time a job held units without interruption.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Start, s on the run's clock.
    pub start: f64,
    /// End, s.
    pub end: f64,
    /// Units held, in the units of [`Record::capacity`] (cores, machines,
    /// the log's units).
    pub units: f64,
    /// The resources it ran on, as global ids in Batsim's sense (A: nodes
    /// numbered across the clusters; B: cores across the clusters; C:
    /// machines; D: the machine's units); empty when the record was made
    /// without them.
    pub resources: Vec<u32>,
    /// The work it still needed after this piece, unit-seconds: what it
    /// waits with until its next piece (or, when it never resumes, until it
    /// leaves).
    pub work_left: f64,
}

/// One job of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedJob {
    /// Job id (SWF field 1; a synthetic task's number).
    pub id: i64,
    /// User id (SWF field 12), −1 when unknown.
    pub user: i64,
    /// Group id (SWF field 13), −1 when unknown.
    pub group: i64,
    /// Queue id (SWF field 15), −1 when unknown.
    pub queue: i64,
    /// Submit (arrival), s.
    pub submit: f64,
    /// Processors it asked for (SWF field 8).
    pub requested_processors: i64,
    /// Processors it held while it ran (SWF field 5).
    pub processors: i64,
    /// Resources it asked for in Batsim's sense (its
    /// `requested_number_of_resources`).
    pub requested_resources: u64,
    /// Its walltime, s: the user's estimate, or the time it was expected
    /// to run (an ETC) where there is none.
    pub requested_time: f64,
    /// Its own run time, s, without waits or suspensions (the "run" of
    /// bounded slowdown and expansion factor): a log's run time, an ETC.
    pub run: f64,
    /// The work it needed when submitted, unit-seconds (what it waits
    /// with until its first piece).
    pub work: f64,
    /// The pieces it ran, in time order (empty: it never started).
    pub pieces: Vec<Piece>,
    /// The end of a last wait, after its last piece or, without pieces,
    /// after its submit, s: when it left the queue without running (again)
    /// — dropped, or the run ended. `None`: it does not wait after its last
    /// piece.
    pub waits_until: Option<f64>,
    /// How it ended.
    pub fate: Fate,
    /// What it earned: value units (A), utility (B, C); `None` where the
    /// environment has no such measure (D).
    pub earned: Option<f64>,
    /// Energy it consumed, J (`None` without an energy model).
    pub energy_j: Option<f64>,
    /// Free text for Batsim's `metadata` column (empty by default).
    pub note: String,
}

/// What a run's SWF header says of the machine.
#[derive(Debug, Clone, PartialEq)]
pub enum Machine {
    /// The log's own machine (D): its header is kept.
    Logged,
    /// A machine the environment built (A's clusters, B's clusters of
    /// cores, C's machines): described by its own header lines.
    Built {
        /// The `; Computer:` line, e.g. `3 clusters, 17192 cores`.
        computer: String,
        /// Processors (cores, machines) in all: `; MaxProcs:`.
        max_procs: u64,
        /// Whether the jobs' times are on the log's clock (A), so the
        /// header carries the log's `UnixStartTime` and time zone; false
        /// for a synthetic trial or a day moved to time 0 (B).
        log_clock: bool,
    },
}

/// One run as a neutral record (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// Units of the machine, in the pieces' units (what utilization
    /// divides by).
    pub capacity: f64,
    /// Time 0 of the time series, s (A: the warm-up's start; B, C: the
    /// trial's or day's start or first arrival; D: the first submit).
    pub origin: f64,
    /// End of the run, s.
    pub end: f64,
    /// Whether the time series splits by queue (the environment reports
    /// queues: D).
    pub by_queue: bool,
    /// The machine, for the SWF header.
    pub machine: Machine,
    /// Every job, in the environment's order (its `jobs` table's).
    pub jobs: Vec<RecordedJob>,
}

impl RecordedJob {
    /// First start, s (`None`: it never started).
    pub fn first_start(&self) -> Option<f64> {
        self.pieces.first().map(|p| p.start)
    }

    /// Last end, s (`None`: it never started).
    pub fn last_end(&self) -> Option<f64> {
        self.pieces.last().map(|p| p.end)
    }

    /// Seconds between its pieces (suspended or preempted), s: the sum of
    /// the gaps, in time order.
    pub fn suspended(&self) -> f64 {
        self.pieces.windows(2).map(|w| w[1].start - w[0].end).sum()
    }
}

impl Record {
    /// What the run held over time ([`crate::metrics::series`]): each job
    /// submits at its submit, waits with [`RecordedJob::work`] until its
    /// first piece, holds [`Piece::units`] during each piece, waits with
    /// [`Piece::work_left`] between pieces and, when
    /// [`RecordedJob::waits_until`] says so, after its last.
    pub fn occupancy(&self) -> Occupancy {
        let mut occ = Occupancy {
            capacity: self.capacity,
            origin: self.origin,
            end: self.end,
            ..Occupancy::default()
        };
        for j in &self.jobs {
            let queue = (self.by_queue && j.queue >= 0).then_some(j.queue);
            occ.submits.push(Mark {
                at: j.submit,
                queue,
            });
            let mut waiting_from = j.submit;
            let mut need = j.work;
            for (k, p) in j.pieces.iter().enumerate() {
                if k == 0 {
                    occ.starts.push(Mark { at: p.start, queue });
                }
                occ.waiting.push(Span {
                    from: waiting_from,
                    to: p.start,
                    amount: need,
                    queue,
                });
                occ.running.push(Span {
                    from: p.start,
                    to: p.end,
                    amount: p.units,
                    queue,
                });
                need = p.work_left;
                waiting_from = p.end;
            }
            if let Some(until) = j.waits_until {
                occ.waiting.push(Span {
                    from: waiting_from,
                    to: until.max(waiting_from),
                    amount: need,
                    queue,
                });
            }
        }
        occ
    }

    /// Batsim's `jobs.csv` rows ([`crate::metrics::batsim`]) of the jobs
    /// that started, in record order, and the number that never did (not
    /// in Batsim's file). A job with several pieces, which Batsim cannot
    /// show, is one row from its first start to its last end on the union
    /// of its pieces' resources; `success` is 1 for a job that ran to its
    /// end, 0 (`COMPLETED_KILLED`) otherwise.
    pub fn batsim_jobs(&self) -> (Vec<BatsimJob>, usize) {
        let mut rows = Vec::with_capacity(self.jobs.len());
        let mut never = 0;
        for j in &self.jobs {
            let (Some(first), Some(last)) = (j.pieces.first(), j.pieces.last()) else {
                never += 1;
                continue;
            };
            rows.push(BatsimJob {
                job_id: j.id,
                submission_time: j.submit,
                requested_number_of_resources: j.requested_resources,
                requested_time: j.requested_time,
                completed: j.fate == Fate::Completed,
                starting_time: first.start,
                finish_time: last.end,
                allocated_resources: j
                    .pieces
                    .iter()
                    .flat_map(|p| p.resources.iter().copied())
                    .collect(),
                consumed_energy: j.energy_j.unwrap_or(-1.0),
                metadata: j.note.clone(),
            });
        }
        (rows, never)
    }

    /// The run as SWF records, in record order: each job's logged record
    /// (found by `logged`, by job id) or, without one, the fields the run
    /// knows and −1 elsewhere; then the simulated submit, wait (first start
    /// − submit, suspensions excluded; −1 if it never started), run time
    /// (last end − first start, suspensions included; −1), processors held
    /// (−1) and status: 1 completed, 0 stopped before its end after
    /// starting, 5 dropped before starting (cancelled), −1 unfinished
    /// without starting.
    pub fn swf_records(&self, logged: impl Fn(i64) -> Option<JobRecord>) -> Vec<JobRecord> {
        self.jobs
            .iter()
            .map(|j| {
                let base = logged(j.id).unwrap_or(JobRecord {
                    job_number: j.id,
                    submit_time: j.submit,
                    wait_time: -1.0,
                    run_time: -1.0,
                    allocated_processors: -1,
                    average_cpu_time: -1.0,
                    used_memory: -1,
                    requested_processors: j.requested_processors,
                    requested_time: j.requested_time,
                    requested_memory: -1,
                    status: -1,
                    user_id: j.user,
                    group_id: j.group,
                    executable_number: -1,
                    queue_number: j.queue,
                    partition_number: -1,
                    preceding_job_number: -1,
                    think_time: -1.0,
                });
                let started = j.first_start().zip(j.last_end());
                JobRecord {
                    submit_time: j.submit,
                    wait_time: started.map_or(-1.0, |(s, _)| s - j.submit),
                    run_time: started.map_or(-1.0, |(s, e)| e - s),
                    allocated_processors: if started.is_some() { j.processors } else { -1 },
                    status: match (j.fate, started.is_some()) {
                        (Fate::Completed, _) => 1,
                        (_, true) => 0,
                        (Fate::Dropped, false) => 5,
                        (Fate::Unfinished, false) => -1,
                    },
                    ..base
                }
            })
            .collect()
    }
}
