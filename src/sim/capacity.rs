//! Invariants of a classic (environment D) schedule: at no instant do the
//! running jobs hold more units than the machine has; no job starts before
//! it is submitted; every job runs exactly its run time; every job ran.

use crate::env::classic::{ClassicJob, ClassicRun};

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
    #[error("job {job} ran [{start}, {end}) but its run time is {run} s")]
    WrongRunTime {
        /// Job number.
        job: i64,
        /// Start, s.
        start: f64,
        /// End, s.
        end: f64,
        /// Run time, s.
        run: f64,
    },
}

/// Checks every invariant; returns all violations (empty when sound).
pub fn check(jobs: &[ClassicJob], run: &ClassicRun, capacity: u32) -> Vec<CapacityViolation> {
    let mut out = Vec::new();
    // (time, +units / -units): ends before starts at equal times.
    let mut ev: Vec<(f64, i64)> = Vec::with_capacity(2 * jobs.len());
    for (j, o) in jobs.iter().zip(&run.outcomes) {
        if !(o.start.is_finite() && o.end == o.start + j.run) {
            out.push(CapacityViolation::WrongRunTime {
                job: j.job_number,
                start: o.start,
                end: o.end,
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
        ev.push((o.start, i64::from(j.size)));
        ev.push((o.end, -i64::from(j.size)));
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
    out
}
