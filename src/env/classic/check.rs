//! Invariants of a classic (environment D) schedule, checked on every
//! simulated schedule in the tests and on demand by `swftool replay
//! --check`: at no instant do the running jobs hold more units than the
//! machine has; no job starts before it is submitted; every job runs
//! exactly its run time (the pieces of a suspended job add up to it);
//! every job ran; and, when no job runs past its estimate, no job starts
//! later than the first reservation it was given (the promise of
//! Conservative backfilling, Mu'alem & Feitelson 2001, kept by every
//! backfilling depth: [`crate::env::classic::policies::backfill`]).
//!
//! When units are tracked (Catalina with suspension preemption, Margo et
//! al.), also: every piece holds exactly the job's size in distinct units
//! of the machine, no unit runs two pieces at once (the shared checker of
//! [`crate::sim::schedule`]), a resumed job runs on the units it was
//! suspended on, a unit holds at most one suspended job at a time, and no
//! job is suspended by a job of lower or equal priority.

use super::ClassicJob;
use super::engine::machine::ClassicRun;
use crate::sim::nodeset::NodeSet;
use crate::sim::schedule::{self, Piece};

/// One broken invariant of a classic schedule.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CapacityViolation {
    /// More units in use than the machine has.
    #[error("at {time} s, {used} units are in use on a machine of {capacity}")]
    OverCapacity {
        /// When, s.
        time: f64,
        /// Units in use.
        used: i64,
        /// Machine capacity.
        capacity: u32,
    },
    /// A job started before its submit time.
    #[error("job {job} starts at {start} s before its submit time {submit} s")]
    StartBeforeSubmit {
        /// Job number.
        job: i64,
        /// Start, s.
        start: f64,
        /// Submit, s.
        submit: f64,
    },
    /// A job ran for other than its run time, or never ran.
    #[error(
        "job {job} ran [{start}, {end}) with {suspended} s suspended but its run time is {run} s"
    )]
    WrongRunTime {
        /// Job number.
        job: i64,
        /// Start, s.
        start: f64,
        /// End, s.
        end: f64,
        /// Seconds suspended.
        suspended: f64,
        /// Run time, s.
        run: f64,
    },
    /// A unit ran two pieces at once, or held two suspended jobs at once.
    #[error("unit {unit} is {what} by jobs {a} and {b} at {time} s")]
    UnitShared {
        /// Unit number.
        unit: u32,
        /// `run` or `held suspended`.
        what: &'static str,
        /// Job number.
        a: i64,
        /// Job number.
        b: i64,
        /// When, s.
        time: f64,
    },
    /// A piece on the wrong units: not the job's size, out of the machine,
    /// repeated, or not the units it was suspended on.
    #[error("job {job}: piece at {start} s {problem}")]
    BadPiece {
        /// Job number.
        job: i64,
        /// Start of the piece, s.
        start: f64,
        /// What is wrong.
        problem: String,
    },
    /// A job started later than the first reservation it was given,
    /// though no job ran past its estimate.
    #[error("job {job} starts at {start} s, after its first reservation at {reservation} s")]
    BrokenPromise {
        /// Job number.
        job: i64,
        /// Its first reservation, s.
        reservation: f64,
        /// Its start, s.
        start: f64,
    },
    /// A job was suspended by one whose priority is not higher.
    #[error(
        "job {victim} (priority {victim_priority}) suspended by job {preemptor} (priority {preemptor_priority})"
    )]
    PriorityInversion {
        /// Job number of the suspended job.
        victim: i64,
        /// Its priority.
        victim_priority: f64,
        /// Job number of the preemptor.
        preemptor: i64,
        /// Its priority.
        preemptor_priority: f64,
    },
}

/// The pieces `[start, end)` of every job (one per job without suspension).
pub fn pieces(run: &ClassicRun) -> Vec<Vec<(f64, f64)>> {
    let mut by_job: Vec<Vec<(f64, f64)>> = vec![Vec::new(); run.outcomes.len()];
    for s in &run.suspensions {
        by_job[s.job].push((s.at, s.resumed));
    }
    run.outcomes
        .iter()
        .zip(by_job)
        .map(|(o, mut gaps)| {
            gaps.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut out = Vec::with_capacity(gaps.len() + 1);
            let mut from = o.start;
            for (at, resumed) in gaps {
                out.push((from, at));
                from = resumed;
            }
            out.push((from, o.end));
            out
        })
        .collect()
}

/// Checks every invariant of `run`, a replay of `jobs` on a machine of
/// `capacity` units; returns all violations (empty when sound).
pub fn check(jobs: &[ClassicJob], run: &ClassicRun, capacity: u32) -> Vec<CapacityViolation> {
    let mut out = Vec::new();
    // (time, +units / -units): ends before starts at equal times.
    let mut ev: Vec<(f64, i64)> = Vec::with_capacity(2 * jobs.len());
    let pieces = pieces(run);
    for ((j, o), ps) in jobs.iter().zip(&run.outcomes).zip(&pieces) {
        let ran: f64 = ps.iter().map(|(a, b)| b - a).sum();
        let exact = ps.len() == 1 && o.end == o.start + j.run && o.suspended == 0.0;
        let close = (ran - j.run).abs() <= 1e-6 * j.run.max(1.0)
            && (o.end - o.start - o.suspended - j.run).abs() <= 1e-6 * (o.end - o.start).max(1.0);
        if !(o.start.is_finite()
            && ps.iter().all(|(a, b)| b >= a && b.is_finite())
            && (exact || (ps.len() > 1 && close)))
        {
            out.push(CapacityViolation::WrongRunTime {
                job: j.job_number,
                start: o.start,
                end: o.end,
                suspended: o.suspended,
                run: j.run,
            });
            continue;
        }
        if o.start < j.submit {
            out.push(CapacityViolation::StartBeforeSubmit {
                job: j.job_number,
                start: o.start,
                submit: j.submit,
            });
        }
        for &(a, b) in ps {
            ev.push((a, i64::from(j.size)));
            ev.push((b, -i64::from(j.size)));
        }
    }
    // The promise can only be kept when the releases it was planned on come
    // no later than planned: no job outruns its estimate.
    if jobs.iter().all(|j| j.run <= j.estimate) {
        for ((j, o), r) in jobs.iter().zip(&run.outcomes).zip(&run.first_reservation) {
            if let Some(r) = *r
                && o.start > r
            {
                out.push(CapacityViolation::BrokenPromise {
                    job: j.job_number,
                    reservation: r,
                    start: o.start,
                });
            }
        }
    }
    ev.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut used = 0i64;
    for (t, d) in ev {
        used += d;
        if used > i64::from(capacity) {
            out.push(CapacityViolation::OverCapacity {
                time: t,
                used,
                capacity,
            });
            break;
        }
    }
    if !run.allocations.is_empty() {
        check_units(jobs, run, capacity, &mut out);
    }
    out
}

/// The unit-identity invariants of a run that tracked units.
fn check_units(
    jobs: &[ClassicJob],
    run: &ClassicRun,
    capacity: u32,
    out: &mut Vec<CapacityViolation>,
) {
    let number = |i: usize| jobs[i].job_number;
    // The units of each job's previous piece, and its count of pieces.
    let mut last: Vec<Option<&[u32]>> = vec![None; jobs.len()];
    let mut pieces_of = vec![0usize; jobs.len()];
    let mut pieces = Vec::with_capacity(run.allocations.len());
    for a in &run.allocations {
        let bad = |problem: String| CapacityViolation::BadPiece {
            job: number(a.job),
            start: a.start,
            problem,
        };
        if a.units.len() != jobs[a.job].size as usize {
            out.push(bad(format!(
                "holds {} units, the job needs {}",
                a.units.len(),
                jobs[a.job].size
            )));
        }
        if a.units.windows(2).any(|w| w[0] >= w[1]) {
            out.push(bad("names a unit twice (or out of order)".into()));
        }
        if let Some(prev) = last[a.job]
            && prev != a.units.as_slice()
        {
            out.push(bad("resumes on other units than it was suspended on".into()));
        }
        last[a.job] = Some(&a.units);
        pieces_of[a.job] += 1;
        pieces.push(Piece {
            pool: 0,
            units: NodeSet::from_nodes(a.units.iter().copied()),
            task: a.job,
            job: number(a.job),
            start: a.start,
            end: a.end,
        });
    }
    let mut suspended = vec![0usize; jobs.len()];
    for s in &run.suspensions {
        suspended[s.job] += 1;
    }
    for (i, j) in jobs.iter().enumerate() {
        let want = 1 + suspended[i];
        if pieces_of[i] != want {
            out.push(CapacityViolation::BadPiece {
                job: j.job_number,
                start: run.outcomes[i].start,
                problem: format!("has {} recorded pieces, expected {want}", pieces_of[i]),
            });
        }
    }
    // Units out of the machine, and units running two pieces at once.
    out.extend(
        schedule::check(&pieces, &[capacity])
            .into_iter()
            .map(|v| in_words(v, "run")),
    );
    // A unit holds at most one suspended job at a time: the image of a job
    // suspended at `at` sits on the units of its piece that ended then,
    // until it resumes.
    let mut images = Vec::with_capacity(run.suspensions.len());
    let mut by_job: Vec<Vec<usize>> = vec![Vec::new(); jobs.len()];
    for (k, a) in run.allocations.iter().enumerate() {
        by_job[a.job].push(k);
    }
    for s in &run.suspensions {
        if let Some(a) = by_job[s.job]
            .iter()
            .map(|&k| &run.allocations[k])
            .find(|a| a.end == s.at)
        {
            images.push(Piece {
                pool: 0,
                units: NodeSet::from_nodes(a.units.iter().copied()),
                task: s.job,
                job: number(s.job),
                start: s.at,
                end: s.resumed,
            });
        }
        if run.priority[s.preemptor] <= run.priority[s.job] {
            out.push(CapacityViolation::PriorityInversion {
                victim: number(s.job),
                victim_priority: run.priority[s.job],
                preemptor: number(s.preemptor),
                preemptor_priority: run.priority[s.preemptor],
            });
        }
    }
    // (Units out of the machine were reported with their pieces above.)
    out.extend(
        schedule::check(&images, &[capacity])
            .into_iter()
            .filter(|v| matches!(v, schedule::Violation::Overlap { .. }))
            .map(|v| in_words(v, "held suspended")),
    );
}

/// A violation found by the shared checker, in the words of this
/// environment: a unit `what` (run, held suspended) by two jobs at once,
/// from the start of the later one; or a piece on a unit the machine does
/// not have.
fn in_words(v: schedule::Violation, what: &'static str) -> CapacityViolation {
    match v {
        schedule::Violation::Overlap {
            unit,
            a,
            b,
            b_start,
            ..
        } => CapacityViolation::UnitShared {
            unit,
            what,
            a,
            b,
            time: b_start,
        },
        schedule::Violation::OutsidePool {
            job,
            start,
            unit,
            pool_size,
            ..
        } => CapacityViolation::BadPiece {
            job,
            start,
            problem: format!("uses unit {unit} of a {pool_size}-unit machine"),
        },
    }
}
