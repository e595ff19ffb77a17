//! Environment A's occupancy over time for the `series` table
//! ([`crate::metrics::series`]). A task holds the cores of its whole nodes
//! (nodes × cores per node of its cluster) from its start to its
//! completion (or the end of the run); it waits from its arrival until it
//! starts — a task reserved for a later start waits until then —, is
//! dropped, or the run ends, needing its cores × its average ETC over the
//! clusters in unit-seconds (the cluster is not known while it waits). The
//! series starts with the 4-hour warm-up (hour 0) and runs to the end of
//! the run.

use super::RunResult;
use crate::metrics::series::{Mark, Occupancy, Span};
use crate::workload::Scenario;
use crate::workload::days::WARMUP_SECONDS;

/// The occupancy of `run` on scenario `s`.
pub fn occupancy(s: &Scenario, run: &RunResult) -> Occupancy {
    let end = run
        .outcomes
        .iter()
        .filter_map(|o| o.completion)
        .chain(s.tasks.iter().map(|t| t.arrival))
        .fold(run.end_time, f64::max);
    let mut occ = Occupancy {
        capacity: s.system.total_cores() as f64,
        origin: s.day.start - WARMUP_SECONDS,
        end,
        ..Occupancy::default()
    };
    for (t, o) in s.tasks.iter().zip(&run.outcomes) {
        occ.submits.push(Mark {
            at: t.arrival,
            queue: None,
        });
        let left = [o.start, o.dropped_at]
            .into_iter()
            .flatten()
            .fold(end, f64::min)
            .max(t.arrival);
        occ.waiting.push(Span {
            from: t.arrival,
            to: left,
            amount: f64::from(t.cores) * t.average_etc(),
            queue: None,
        });
        if let (Some(start), Some(c)) = (o.start, o.cluster)
            && start < end
        {
            occ.starts.push(Mark {
                at: start,
                queue: None,
            });
            let per_node = s.system.clusters[c].cores_per_node;
            occ.running.push(Span {
                from: start,
                to: o.completion.unwrap_or(end),
                amount: f64::from(o.nodes.len() * per_node),
                queue: None,
            });
        }
    }
    occ
}
