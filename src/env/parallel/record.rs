//! Environment A's runs as neutral records ([`crate::output::record`]),
//! from which the time series, `--export` and the per-user tables are
//! written. A task holds the cores of its whole nodes (nodes × cores per
//! node of its cluster) from its start to its completion (or the end of
//! the run), on its nodes numbered across the clusters (cluster 0's
//! first). It waits from its arrival until it starts — a task reserved
//! for a later start waits until then —, is dropped, or the run ends,
//! needing its cores × its average ETC over the clusters in unit-seconds
//! (the cluster is not known while it waits). A reservation at or after
//! the end of the run is not a start. The series starts with the 4-hour
//! warm-up (hour 0). Batsim's row of a task: its nodes as resources, its
//! ETC on its cluster as walltime, `value_earned=` as metadata.

use super::RunResult;
use super::engine::TaskStatus;
use crate::output::{Fate, Machine, Piece, Record, RecordedJob};
use crate::workload::Scenario;
use crate::workload::days::WARMUP_SECONDS;

/// The record of `run` on scenario `s`; `resources`: name each task's
/// nodes.
pub fn record(s: &Scenario, run: &RunResult, resources: bool) -> Record {
    let end = run
        .outcomes
        .iter()
        .filter_map(|o| o.completion)
        .chain(s.tasks.iter().map(|t| t.arrival))
        .fold(run.end_time, f64::max);
    let mut offset = Vec::with_capacity(s.system.clusters.len());
    let mut next = 0u32;
    for c in &s.system.clusters {
        offset.push(next);
        next += c.nodes;
    }
    let jobs = s
        .tasks
        .iter()
        .zip(&run.outcomes)
        .map(|(t, o)| {
            let placed = o.start.zip(o.cluster).filter(|&(start, _)| start < end);
            let pieces: Vec<Piece> = placed
                .map(|(start, c)| {
                    let per_node = s.system.clusters[c].cores_per_node;
                    Piece {
                        start,
                        end: o.completion.unwrap_or(end),
                        units: f64::from(o.nodes.len() * per_node),
                        resources: if resources {
                            o.nodes.iter().map(|n| offset[c] + n).collect()
                        } else {
                            Vec::new()
                        },
                        work_left: 0.0,
                    }
                })
                .into_iter()
                .collect();
            let held =
                placed.map(|(_, c)| (c, o.nodes.len() * s.system.clusters[c].cores_per_node));
            RecordedJob {
                id: t.job_number,
                user: t.owner.user,
                group: t.owner.group,
                queue: t.owner.queue,
                submit: t.arrival,
                requested_processors: i64::from(t.cores),
                processors: held.map_or(-1, |(_, cores)| i64::from(cores)),
                requested_resources: u64::from(o.nodes.len()),
                requested_time: o.cluster.map_or_else(|| t.average_etc(), |c| t.etc[c]),
                run: o.cluster.map_or_else(|| t.average_etc(), |c| t.etc[c]),
                work: f64::from(t.cores) * t.average_etc(),
                waits_until: pieces.is_empty().then(|| {
                    [o.start, o.dropped_at]
                        .into_iter()
                        .flatten()
                        .fold(end, f64::min)
                }),
                pieces,
                fate: match o.status {
                    TaskStatus::Completed => Fate::Completed,
                    TaskStatus::Dropped => Fate::Dropped,
                    TaskStatus::Unfinished => Fate::Unfinished,
                },
                earned: Some(o.value),
                energy_j: None,
                note: format!("value_earned={}", o.value),
            }
        })
        .collect();
    let cores = s.system.total_cores();
    Record {
        capacity: cores as f64,
        origin: s.day.start - WARMUP_SECONDS,
        end,
        by_queue: false,
        machine: Machine::Built {
            computer: format!(
                "{} clusters, {cores} cores (Khemka et al. 2015, generated from seed {})",
                s.system.clusters.len(),
                s.seed
            ),
            max_procs: cores as u64,
            log_clock: true,
        },
        jobs,
    }
}
