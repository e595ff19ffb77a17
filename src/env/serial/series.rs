//! Environment B's occupancy over time for the `series` table
//! ([`crate::metrics::series`]). A task holds one core during each piece it
//! runs; it waits from its arrival to its first piece and, after a
//! preemption, until it resumes (after its last piece, when it did not
//! complete, until it is dropped or the run ends). While waiting it needs
//! its remaining time in core-seconds: before it starts, its type's mean
//! ETC over the clusters; after a preemption, the part of its ETC on the
//! cluster it ran on that it has not run (it keeps its progress and resumes
//! on that cluster, Machovec et al. 2017). The series runs from the start
//! of the counted window (or the first arrival, when earlier) to the end of
//! the run.

use super::{SerialRun, SerialScenario, TaskFate};
use crate::metrics::series::{Mark, Occupancy, Span};

/// The occupancy of `run` on scenario `s`.
pub fn occupancy(s: &SerialScenario, run: &SerialRun) -> Occupancy {
    let first = s.tasks.iter().map(|t| t.arrival).fold(s.window.0, f64::min);
    let end = run
        .pieces
        .iter()
        .map(|p| p.end)
        .chain(s.tasks.iter().map(|t| t.arrival))
        .fold(run.end, f64::max);
    let mut occ = Occupancy {
        capacity: f64::from(s.total_cores()),
        origin: first,
        end,
        ..Occupancy::default()
    };
    let mut pieces: Vec<Vec<(f64, f64, usize)>> = vec![Vec::new(); s.tasks.len()];
    for p in &run.pieces {
        pieces[p.task].push((p.start, p.end, p.cluster));
    }
    for (i, t) in s.tasks.iter().enumerate() {
        let ty = &s.types[t.task_type];
        let mine = &mut pieces[i];
        mine.sort_by(|a, b| a.0.total_cmp(&b.0));
        occ.submits.push(Mark {
            at: t.arrival,
            queue: None,
        });
        let mut waiting_from = t.arrival;
        let mut need = ty.mean_etc();
        for (k, &(start, stop, cluster)) in mine.iter().enumerate() {
            if k == 0 {
                occ.starts.push(Mark {
                    at: start,
                    queue: None,
                });
            }
            occ.waiting.push(Span {
                from: waiting_from,
                to: start,
                amount: need,
                queue: None,
            });
            occ.running.push(Span {
                from: start,
                to: stop,
                amount: 1.0,
                queue: None,
            });
            // What is left of its ETC on the cluster it runs on.
            let ran: f64 = mine[..=k].iter().map(|p| p.1 - p.0).sum();
            need = (ty.etc[cluster] - ran).max(0.0);
            waiting_from = stop;
        }
        let left = match run.fates[i] {
            TaskFate::Completed { .. } => None,
            TaskFate::Dropped { at } => Some(at),
            TaskFate::Unfinished => Some(end),
        };
        if let Some(left) = left {
            occ.waiting.push(Span {
                from: waiting_from,
                to: left.max(waiting_from),
                amount: need,
                queue: None,
            });
        }
    }
    occ
}
