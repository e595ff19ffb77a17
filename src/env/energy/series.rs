//! Environment C's occupancy over time for the `series` table
//! ([`crate::metrics::series`]). A task holds one machine from its start to
//! its end (start + ETC in its P-state); it waits from its arrival until it
//! starts, is dropped, or the run ends (never mapped), needing its type's
//! ETC in the fastest P-state averaged over the machines it may run on, in
//! machine-seconds (the machine is not known while it waits). The series
//! runs from the start of the counted day (or the first arrival, when
//! earlier) to the last mapping event or execution end.

use super::{EnergyRun, EnergyScenario, TaskFate};
use crate::metrics::series::{Mark, Occupancy, Span};

/// Mean ETC of task type `i` in P-state 0 over the machines it may run
/// on, s (NaN when none).
fn mean_etc(s: &EnergyScenario, i: usize) -> f64 {
    let m = &s.matrices;
    let (mut sum, mut n) = (0.0, 0.0);
    for (k, t) in m.machine_types.iter().enumerate() {
        if let Some(etc) = m.etc(i, k, 0) {
            sum += etc * f64::from(t.machines);
            n += f64::from(t.machines);
        }
    }
    if n > 0.0 { sum / n } else { f64::NAN }
}

/// The occupancy of `run` on scenario `s`.
pub fn occupancy(s: &EnergyScenario, run: &EnergyRun) -> Occupancy {
    let first = s.tasks.iter().map(|t| t.arrival).fold(s.window.0, f64::min);
    let end = run
        .executions
        .iter()
        .map(|e| e.end)
        .chain(run.events.iter().map(|e| e.time))
        .chain(s.tasks.iter().map(|t| t.arrival))
        .fold(first, f64::max);
    let mut occ = Occupancy {
        capacity: f64::from(s.matrices.machines()),
        origin: first,
        end,
        ..Occupancy::default()
    };
    for (t, fate) in s.tasks.iter().zip(&run.fates) {
        occ.submits.push(Mark {
            at: t.arrival,
            queue: None,
        });
        let left = match *fate {
            TaskFate::Executed(x) => {
                let e = &run.executions[x];
                occ.starts.push(Mark {
                    at: e.start,
                    queue: None,
                });
                occ.running.push(Span {
                    from: e.start,
                    to: e.end,
                    amount: 1.0,
                    queue: None,
                });
                e.start
            }
            TaskFate::Dropped(at) => at,
            TaskFate::Unmapped => end,
        };
        occ.waiting.push(Span {
            from: t.arrival,
            to: left.max(t.arrival),
            amount: mean_etc(s, t.task_type),
            queue: None,
        });
    }
    occ
}
