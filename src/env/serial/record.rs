//! Environment B's runs as neutral records ([`crate::output::record`]),
//! from which the time series, `--export` and the per-user tables are
//! written. A task holds one core during each piece it runs, numbered
//! across the system (cluster 0's cores first); it waits from its arrival
//! to its first piece and, after a preemption, until it resumes (after its
//! last piece, when it did not complete, until it is dropped or the run
//! ends). While waiting it needs its remaining time in core-seconds:
//! before it starts, its type's mean ETC over the clusters; after a
//! preemption, the part of its ETC on the cluster it ran on that it has
//! not run (it keeps its progress and resumes on that cluster, Machovec et
//! al. 2017). The series runs from the start of the counted window (or the
//! first arrival, when earlier) to the end of the run. Batsim's row of a
//! task: its ETC on the cluster of its first piece as walltime, `pieces=N`
//! as metadata when it was preempted.

use super::summary::earned;
use super::{SerialRun, SerialScenario, TaskFate};
use crate::output::{Fate, Machine, Piece, Record, RecordedJob};

/// The record of `run` on scenario `s`; `resources`: name each piece's
/// core.
pub fn record(s: &SerialScenario, run: &SerialRun, resources: bool) -> Record {
    let first = s.tasks.iter().map(|t| t.arrival).fold(s.window.0, f64::min);
    let end = run
        .pieces
        .iter()
        .map(|p| p.end)
        .chain(s.tasks.iter().map(|t| t.arrival))
        .fold(run.end, f64::max);
    let mut offset = Vec::with_capacity(s.cores.len());
    let mut next = 0u32;
    for &c in &s.cores {
        offset.push(next);
        next += c;
    }
    let mut pieces: Vec<Vec<(f64, f64, usize, u32)>> = vec![Vec::new(); s.tasks.len()];
    for p in &run.pieces {
        pieces[p.task].push((p.start, p.end, p.cluster, offset[p.cluster] + p.core));
    }
    let earned = earned(s, run);
    let jobs = s
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let ty = &s.types[t.task_type];
            let mine = &mut pieces[i];
            mine.sort_by(|a, b| a.0.total_cmp(&b.0));
            let recorded: Vec<Piece> = (0..mine.len())
                .map(|k| {
                    let (start, stop, cluster, core) = mine[k];
                    // What is left of its ETC on the cluster it runs on.
                    let ran: f64 = mine[..=k].iter().map(|p| p.1 - p.0).sum();
                    Piece {
                        start,
                        end: stop,
                        units: 1.0,
                        resources: if resources { vec![core] } else { Vec::new() },
                        work_left: (ty.etc[cluster] - ran).max(0.0),
                    }
                })
                .collect();
            let fate = match run.fates[i] {
                TaskFate::Completed { .. } => Fate::Completed,
                TaskFate::Dropped { .. } => Fate::Dropped,
                TaskFate::Unfinished => Fate::Unfinished,
            };
            let ran_on = mine.last().map(|p| p.2);
            RecordedJob {
                id: t.job_number,
                user: t.owner.user,
                group: t.owner.group,
                queue: t.owner.queue,
                submit: t.arrival,
                requested_processors: 1,
                processors: 1,
                requested_resources: 1,
                requested_time: mine.first().map_or_else(|| ty.mean_etc(), |p| ty.etc[p.2]),
                run: ran_on.map_or_else(|| ty.mean_etc(), |c| ty.etc[c]),
                work: ty.mean_etc(),
                pieces: recorded,
                waits_until: match run.fates[i] {
                    TaskFate::Completed { .. } => None,
                    TaskFate::Dropped { at } => Some(at),
                    TaskFate::Unfinished => Some(end),
                },
                fate,
                earned: Some(earned[i].map_or(0.0, |e| e.utility())),
                energy_j: None,
                note: if mine.len() > 1 {
                    format!("pieces={}", mine.len())
                } else {
                    String::new()
                },
            }
        })
        .collect();
    let cores = s.total_cores();
    Record {
        capacity: f64::from(cores),
        origin: first,
        end,
        by_queue: false,
        machine: Machine::Built {
            computer: format!(
                "{} clusters of {cores} cores in all (Machovec et al. 2017)",
                s.cores.len()
            ),
            max_procs: u64::from(cores),
            log_clock: false,
        },
        jobs,
    }
}
