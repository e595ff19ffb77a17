//! Environment D's occupancy over time for the `series` table
//! ([`crate::metrics::series`]): each job holds its `size` units from its
//! start to its end except while suspended; it waits from its submit to its
//! start, needing size × run unit-seconds, and while suspended, needing
//! size × the run time it has left. Each span carries the job's queue
//! (SWF field 15), so the series has a row set per queue; a job whose queue
//! is unknown (−1) counts in the totals only.

use super::{ClassicJob, ClassicRun};
use crate::metrics::series::{Mark, Occupancy, Span};

/// The occupancy of `run` (the schedule of `jobs` on `capacity` units):
/// from the first submit to the last end.
pub fn occupancy(jobs: &[ClassicJob], capacity: u32, run: &ClassicRun) -> Occupancy {
    let mut occ = Occupancy {
        capacity: f64::from(capacity),
        origin: jobs.iter().map(|j| j.submit).fold(f64::INFINITY, f64::min),
        end: run
            .outcomes
            .iter()
            .map(|o| o.end)
            .fold(f64::NEG_INFINITY, f64::max),
        ..Occupancy::default()
    };
    if jobs.is_empty() {
        occ.origin = 0.0;
        occ.end = 0.0;
    }
    let mut suspended: Vec<Vec<(f64, f64)>> = vec![Vec::new(); jobs.len()];
    for s in &run.suspensions {
        suspended[s.job].push((s.at, s.resumed));
    }
    for (k, (j, o)) in jobs.iter().zip(&run.outcomes).enumerate() {
        let queue = (j.queue >= 0).then_some(j.queue);
        let units = f64::from(j.size);
        occ.submits.push(Mark {
            at: j.submit,
            queue,
        });
        occ.starts.push(Mark { at: o.start, queue });
        occ.waiting.push(Span {
            from: j.submit,
            to: o.start,
            amount: units * j.run,
            queue,
        });
        let pauses = &mut suspended[k];
        pauses.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut from = o.start;
        let mut done = 0.0;
        for &(at, resumed) in pauses.iter() {
            occ.running.push(Span {
                from,
                to: at,
                amount: units,
                queue,
            });
            done += at - from;
            occ.waiting.push(Span {
                from: at,
                to: resumed,
                amount: units * (j.run - done).max(0.0),
                queue,
            });
            from = resumed;
        }
        occ.running.push(Span {
            from,
            to: o.end,
            amount: units,
            queue,
        });
    }
    occ
}
