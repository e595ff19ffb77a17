//! The metrics of one run of environment B (Machovec et al., §II.E and
//! §V; docs/serial.md): utility earned in the counted window, pro-rated by
//! the part of each task's execution inside it, against the maximum system
//! utility pro-rated the same way; task counts; utility by priority;
//! preemptions and mapping events.

use serde::{Deserialize, Serialize};

use super::SerialScenario;
use super::engine::{SerialRun, TaskFate};

/// What one completed task earned in the window.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Earned {
    /// Utility of its completion time, U(completion − arrival) (value units).
    pub completion_utility: f64,
    /// The fraction of its execution inside the window (0..=1).
    pub inside: f64,
}

impl Earned {
    /// Utility earned in the window (value units).
    pub fn utility(&self) -> f64 {
        self.completion_utility * self.inside
    }
}

fn overlap(a: f64, b: f64, window: (f64, f64)) -> f64 {
    (b.min(window.1) - a.max(window.0)).max(0.0)
}

/// Per task, what it earned (`None`: not completed), from the run's pieces.
pub fn earned(s: &SerialScenario, run: &SerialRun) -> Vec<Option<Earned>> {
    let mut inside = vec![0.0; s.tasks.len()];
    for p in &run.pieces {
        inside[p.task] += overlap(p.start, p.end, s.window);
    }
    run.fates
        .iter()
        .enumerate()
        .map(|(i, f)| match *f {
            TaskFate::Completed { at, cluster } => {
                let t = &s.tasks[i];
                Some(Earned {
                    completion_utility: t.utility.value(at - t.arrival),
                    inside: inside[i] / s.etc(i, cluster),
                })
            }
            _ => None,
        })
        .collect()
}

/// The most task `i` can earn in the window: its priority, pro-rated by
/// the part of `[arrival, arrival + fastest ETC)` inside the window (the
/// maximum system utility of §V counts every task this way).
pub fn bound(s: &SerialScenario, i: usize) -> f64 {
    let t = &s.tasks[i];
    let e = s.types[t.task_type].fastest();
    t.utility.priority() * overlap(t.arrival, t.arrival + e, s.window) / e
}

/// Utility by one priority level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PriorityShare {
    /// The priority (value units).
    pub priority: f64,
    /// Utility earned by tasks of this priority (value units).
    pub utility: f64,
    /// Their share of the maximum system utility (value units).
    pub max_utility: f64,
    /// Counted tasks of this priority.
    pub tasks: usize,
    /// Of those, completed.
    pub completed: usize,
}

/// The metrics of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SerialSummary {
    /// Scenario name.
    pub scenario: String,
    /// Heuristic name.
    pub heuristic: String,
    /// Scenario seed.
    pub seed: u64,
    /// Cores in the system.
    pub cores: u32,
    /// Tasks in the scenario (warm-up included).
    pub tasks: usize,
    /// Tasks arriving inside the window: the counted tasks.
    pub counted: usize,
    /// Counted tasks completed (at any time).
    pub completed: usize,
    /// Counted tasks dropped.
    pub dropped: usize,
    /// Counted tasks neither completed nor dropped when the run ended.
    pub unfinished: usize,
    /// Utility earned in the window (value units).
    pub utility: f64,
    /// Maximum system utility (value units).
    pub max_utility: f64,
    /// By priority, highest first.
    pub by_priority: Vec<PriorityShare>,
    /// Preemptions.
    pub preemptions: u64,
    /// Mapping events.
    pub events: u64,
    /// The last mapping event, s.
    pub end_s: f64,
    /// Heuristic wall time per mapping event, mean, s (wall clock: differs
    /// between two runs of one seed; left out of the deterministic tables).
    #[serde(default)]
    pub heuristic_seconds_mean: f64,
    /// The longest mapping event's heuristic wall time, s (wall clock).
    #[serde(default)]
    pub heuristic_seconds_max: f64,
}

impl SerialSummary {
    /// Utility earned as a percentage of the maximum system utility (%;
    /// 0 when the maximum is 0; [`crate::metrics::columns::pct_of_max`]).
    pub fn percent(&self) -> f64 {
        crate::metrics::columns::pct_of_max(self.utility, self.max_utility).unwrap_or(0.0)
    }

    /// Counted tasks completed, %.
    pub fn percent_completed(&self) -> f64 {
        100.0 * self.completed as f64 / self.counted.max(1) as f64
    }

    /// The share of priority `p`, if any task has it.
    pub fn priority(&self, p: f64) -> Option<&PriorityShare> {
        self.by_priority.iter().find(|x| x.priority == p)
    }
}

/// Summarises a run.
pub fn summarize(s: &SerialScenario, heuristic: &str, run: &SerialRun) -> SerialSummary {
    let earned = earned(s, run);
    let mut by_priority: Vec<PriorityShare> = Vec::new();
    let (mut counted, mut completed, mut dropped, mut unfinished) = (0, 0, 0, 0);
    let (mut utility, mut max_utility) = (0.0, 0.0);
    for (i, t) in s.tasks.iter().enumerate() {
        let p = t.utility.priority();
        let at = match by_priority.iter().position(|x| x.priority == p) {
            Some(at) => at,
            None => {
                by_priority.push(PriorityShare {
                    priority: p,
                    utility: 0.0,
                    max_utility: 0.0,
                    tasks: 0,
                    completed: 0,
                });
                by_priority.len() - 1
            }
        };
        let share = &mut by_priority[at];
        let u = earned[i].map_or(0.0, |e| e.utility());
        let b = bound(s, i);
        share.utility += u;
        share.max_utility += b;
        utility += u;
        max_utility += b;
        if s.counted(i) {
            counted += 1;
            share.tasks += 1;
            match run.fates[i] {
                TaskFate::Completed { .. } => {
                    completed += 1;
                    share.completed += 1;
                }
                TaskFate::Dropped { .. } => dropped += 1,
                TaskFate::Unfinished => unfinished += 1,
            }
        }
    }
    by_priority.sort_by(|a, b| b.priority.total_cmp(&a.priority));
    SerialSummary {
        scenario: s.name.clone(),
        heuristic: heuristic.to_string(),
        seed: s.seed,
        cores: s.total_cores(),
        tasks: s.tasks.len(),
        counted,
        completed,
        dropped,
        unfinished,
        utility,
        max_utility,
        by_priority,
        preemptions: run.preemptions,
        events: run.events,
        end_s: run.end,
        heuristic_seconds_mean: run.heuristic_seconds.0,
        heuristic_seconds_max: run.heuristic_seconds.1,
    }
}
