//! Environment B's schedules as Batsim's `jobs.csv`
//! ([`crate::metrics::batsim`]; `replay --env serial --export batsim`): one
//! row per task that ran, its resources the cores of its pieces, numbered
//! across the system (cluster 0's cores first, then cluster 1's, …).

use super::{SerialRun, SerialScenario, TaskFate};
use crate::metrics::batsim::BatsimJob;

/// The rows of one run, in task order, and the number of tasks that never
/// ran (not in Batsim's file). A task runs on one core
/// (`requested_number_of_resources` 1); a preempted task, which Batsim
/// cannot show, is one row from its first start to its last end on the
/// union of its pieces' cores, `metadata` giving its pieces
/// (`pieces=3`); `requested_time` is its ETC on the cluster of its first
/// piece; a task that did not complete is `COMPLETED_KILLED` at the end of
/// its last piece.
pub fn batsim_jobs(s: &SerialScenario, run: &SerialRun) -> (Vec<BatsimJob>, usize) {
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
    let mut rows = Vec::new();
    let mut never = 0;
    for (i, t) in s.tasks.iter().enumerate() {
        let mine = &mut pieces[i];
        if mine.is_empty() {
            never += 1;
            continue;
        }
        mine.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (first, last) = (mine[0], mine[mine.len() - 1]);
        rows.push(BatsimJob {
            job_id: t.job_number,
            submission_time: t.arrival,
            requested_number_of_resources: 1,
            requested_time: s.types[t.task_type].etc[first.2],
            completed: matches!(run.fates[i], TaskFate::Completed { .. }),
            starting_time: first.0,
            finish_time: last.1,
            allocated_resources: mine.iter().map(|p| p.3).collect(),
            consumed_energy: -1.0,
            metadata: if mine.len() > 1 {
                format!("pieces={}", mine.len())
            } else {
                String::new()
            },
        });
    }
    (rows, never)
}
