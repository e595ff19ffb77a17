//! The schedule invariants of environment B, checked on every run the
//! tests and `replay` make (docs/serial.md): no core runs two pieces at
//! once (the shared checker of [`crate::sim::schedule`]); a task's pieces
//! are on one cluster, start at mapping events, never before its arrival,
//! and add up to its ETC there when it completed (to less otherwise); no
//! piece starts where its task would earn nothing; only preemptible tasks
//! are preempted, and only by tasks that may preempt; utility earned is at
//! most the maximum system utility.

use super::SerialScenario;
use super::engine::{SerialRun, TaskFate};
use super::summary::{bound, earned};
use crate::sim::nodeset::NodeSet;
use crate::sim::schedule::{self, Piece};

/// Tolerance on sums of seconds (s).
const EPS: f64 = 1e-6;

/// Every broken invariant of `run` on `s`, as a sentence.
pub fn check(s: &SerialScenario, run: &SerialRun) -> Vec<String> {
    let mut out = Vec::new();
    let neutral: Vec<Piece> = run
        .pieces
        .iter()
        .map(|p| Piece {
            pool: p.cluster,
            units: NodeSet::from_nodes([p.core]),
            task: p.task,
            job: s.tasks[p.task].job_number,
            start: p.start,
            end: p.end,
        })
        .collect();
    out.extend(
        schedule::check(&neutral, &s.cores)
            .into_iter()
            .map(|v| v.to_string()),
    );
    let mut per_task: Vec<Vec<usize>> = vec![Vec::new(); s.tasks.len()];
    for (k, p) in run.pieces.iter().enumerate() {
        per_task[p.task].push(k);
    }
    // Who started on a core at an instant: (cluster, core, start) → task.
    let mut starts = std::collections::HashMap::new();
    for p in &run.pieces {
        starts.insert((p.cluster, p.core, p.start.to_bits()), p.task);
    }
    for (i, pieces) in per_task.iter_mut().enumerate() {
        let t = &s.tasks[i];
        let job = t.job_number;
        pieces.sort_by(|&a, &b| run.pieces[a].start.total_cmp(&run.pieces[b].start));
        let Some(&first) = pieces.first() else {
            if let TaskFate::Completed { .. } = run.fates[i] {
                out.push(format!("job {job}: completed without running"));
            }
            continue;
        };
        let cluster = run.pieces[first].cluster;
        let etc = s.etc(i, cluster);
        let mut ran = 0.0;
        for (n, &k) in pieces.iter().enumerate() {
            let p = &run.pieces[k];
            if p.cluster != cluster {
                out.push(format!(
                    "job {job}: ran on cluster {cluster} and resumed on cluster {}",
                    p.cluster
                ));
            }
            if p.start < t.arrival {
                out.push(format!(
                    "job {job}: starts at {} s, before its arrival at {} s",
                    p.start, t.arrival
                ));
            }
            let events = p.start / s.event_interval;
            if (events - events.round()).abs() > 1e-9 {
                out.push(format!(
                    "job {job}: starts at {} s, not at a mapping event",
                    p.start
                ));
            }
            if p.end.partial_cmp(&p.start) != Some(std::cmp::Ordering::Greater) {
                out.push(format!("job {job}: empty piece at {} s", p.start));
            }
            let ret = etc - ran;
            if t.utility.value(p.start + ret - t.arrival) <= 0.0 {
                out.push(format!(
                    "job {job}: started at {} s where it earns nothing",
                    p.start
                ));
            }
            ran += p.end - p.start;
            let last = n + 1 == pieces.len();
            let completes = last && matches!(run.fates[i], TaskFate::Completed { .. });
            let cut = last && run.fates[i] == TaskFate::Unfinished && p.end == run.end;
            if !completes && !cut {
                if !t.preemptible {
                    out.push(format!(
                        "job {job}: not preemptible, yet stopped at {} s",
                        p.end
                    ));
                }
                match starts.get(&(p.cluster, p.core, p.end.to_bits())) {
                    Some(&by) if !s.tasks[by].can_preempt => out.push(format!(
                        "job {job}: preempted at {} s by job {}, which may not preempt",
                        p.end, s.tasks[by].job_number
                    )),
                    Some(_) => {}
                    None if last => {}
                    None => out.push(format!(
                        "job {job}: stopped at {} s with nothing started in its place",
                        p.end
                    )),
                }
            }
        }
        match run.fates[i] {
            TaskFate::Completed { at, cluster: c } => {
                if (ran - etc).abs() > EPS * etc.max(1.0) {
                    out.push(format!(
                        "job {job}: ran {ran} s on cluster {cluster}, its ETC there is {etc} s"
                    ));
                }
                let end = run.pieces[*pieces.last().unwrap_or(&first)].end;
                if c != cluster || at != end {
                    out.push(format!(
                        "job {job}: completion ({at} s, cluster {c}) differs from its last piece"
                    ));
                }
            }
            _ => {
                if ran > etc + EPS * etc.max(1.0) {
                    out.push(format!(
                        "job {job}: ran {ran} s without completing, its ETC is {etc} s"
                    ));
                }
            }
        }
        if let TaskFate::Dropped { at } = run.fates[i]
            && run.pieces[*pieces.last().unwrap_or(&first)].end > at
        {
            out.push(format!("job {job}: ran after it was dropped at {at} s"));
        }
    }
    let earned = earned(s, run);
    let total: f64 = earned.iter().flatten().map(|e| e.utility()).sum();
    let max: f64 = (0..s.tasks.len()).map(|i| bound(s, i)).sum();
    if total > max * (1.0 + 1e-12) {
        out.push(format!(
            "utility earned {total} exceeds the maximum system utility {max}"
        ));
    }
    for (i, e) in earned.iter().enumerate() {
        if let Some(e) = e
            && e.completion_utility <= 0.0
        {
            out.push(format!(
                "job {}: completed where it earns nothing",
                s.tasks[i].job_number
            ));
        }
    }
    out
}
