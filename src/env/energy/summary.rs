//! The metrics of one run of environment C (Khemka et al., §V;
//! docs/energy.md, "Metrics"): utility earned in the counted day and as a
//! percentage of the maximum (every counted task's priority), the same per
//! priority level, energy used against the budget and when the budget
//! first refused a choice, tasks completed, dropped and unmapped, idle time
//! of the machines, cumulative utility and energy hour by hour, mapping
//! events and heuristic wall time per event.
//!
//! Counted: a task's utility when it completes inside the day (hours
//! 3–26), whenever it arrived; its energy for the part of its execution
//! inside the day. The maximum is the sum of the priorities of the tasks
//! that arrive inside the day.

use serde::{Deserialize, Serialize};

use super::engine::{EnergyRun, TaskFate};
use super::window_energy;
use super::workload::PRIORITIES;
use super::{EnergyScenario, RunConfig};

/// Hours in the counted day (the length of the hourly series).
pub const HOURS: usize = 24;
/// The budget counts as spent once this fraction of it is consumed (no
/// unit): the hard budget stops assignments a little short of E, as no
/// task left fits what remains.
pub const SPENT_FRACTION: f64 = 0.995;

/// Utility of one priority level.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LevelUtility {
    /// The priority (value units).
    pub priority: f64,
    /// Utility earned by tasks of this priority (value units).
    pub utility: f64,
    /// The level's maximum: its counted tasks × the priority.
    pub max: f64,
}

impl LevelUtility {
    /// Utility earned as a percentage of the level's maximum (%; 0 when
    /// the maximum is 0; [`crate::metrics::columns::pct_of_max`]).
    pub fn percent(&self) -> f64 {
        crate::metrics::columns::pct_of_max(self.utility, self.max).unwrap_or(0.0)
    }
}

/// The metrics of one run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnergySummary {
    /// The scenario (`trial-0`).
    pub scenario: String,
    /// The heuristic.
    pub heuristic: String,
    /// `queued` or `polled`.
    pub management: String,
    /// `none`, `adaptive` or `fixed:λ`.
    pub filter: String,
    /// Utility earned in the day (value units).
    pub utility: f64,
    /// Maximum utility: Σ priority of the tasks arriving in the day.
    pub max_utility: f64,
    /// Per priority level 8, 4, 2, 1.
    pub levels: Vec<LevelUtility>,
    /// Energy used in the day, J: the tasks' and, when the static power
    /// counts all day, the machines' static energy (`static_j`).
    pub energy_j: f64,
    /// Of `energy_j`, the static energy the machines drew all day whatever
    /// the schedule, J (0 unless `--static-counted all-day`). Missing in
    /// cells written before it existed.
    #[serde(default)]
    pub static_j: f64,
    /// The budget E, J (`None`: no budget).
    pub budget_j: Option<f64>,
    /// Hours into the day of the first mapping event at which the budget
    /// refused a choice (`None`: never).
    pub exhausted_at_h: Option<f64>,
    /// Hours into the day at which the tasks had consumed
    /// [`SPENT_FRACTION`] of what the budget leaves them (E less the static
    /// energy drawn all day): when E is actually spent (`None`: never, or
    /// no budget). Missing in cells written before it existed.
    #[serde(default)]
    pub spent_at_h: Option<f64>,
    /// Tasks arriving in the day.
    pub counted: usize,
    /// Tasks completing in the day.
    pub completed: usize,
    /// Tasks dropped (at any time).
    pub dropped: usize,
    /// Tasks neither started nor dropped by the end.
    pub unmapped: usize,
    /// Tasks started that complete after the day.
    pub unfinished: usize,
    /// Mean over machines of their idle time in the day, s.
    pub mean_idle_s: f64,
    /// Cumulative utility at the end of each hour of the day.
    pub hourly_utility: Vec<f64>,
    /// Cumulative energy at the end of each hour of the day, J.
    pub hourly_energy_j: Vec<f64>,
    /// Mapping events.
    pub events: usize,
    /// Heuristic wall time per mapping event, mean, s (wall clock: differs
    /// between two runs of one seed; left out of the deterministic tables).
    #[serde(default)]
    pub heuristic_seconds_mean: f64,
    /// The longest mapping event's heuristic wall time, s (wall clock).
    #[serde(default)]
    pub heuristic_seconds_max: f64,
}

impl EnergySummary {
    /// Utility as a percentage of the maximum (%; 0 when the maximum is 0;
    /// [`crate::metrics::columns::pct_of_max`]).
    pub fn percent(&self) -> f64 {
        crate::metrics::columns::pct_of_max(self.utility, self.max_utility).unwrap_or(0.0)
    }
}

/// Idle time in the day of every machine, s.
pub fn idle_per_machine(s: &EnergyScenario, run: &EnergyRun) -> Vec<f64> {
    let machines = s.matrices.machines() as usize;
    let day = s.window.1 - s.window.0;
    let mut idle = vec![day; machines];
    for e in &run.executions {
        idle[e.machine] -= (e.end.min(s.window.1) - e.start.max(s.window.0)).max(0.0);
    }
    idle
}

/// The utility task `i` earned in the day (0 if it did not complete in it).
pub fn earned(s: &EnergyScenario, run: &EnergyRun, i: usize) -> f64 {
    match run.fates[i] {
        TaskFate::Executed(k) => {
            let e = &run.executions[k];
            if e.end >= s.window.0 && e.end <= s.window.1 {
                s.tasks[i].utility.value(e.end - s.tasks[i].arrival)
            } else {
                0.0
            }
        }
        _ => 0.0,
    }
}

/// The time (s from the start of the simulation) at which the energy the
/// tasks of `run` on `s` consumed in the day reaches `joules` (`None`:
/// never). Consumption is exact: each execution draws its APC (W) over its
/// part of the day, so the cumulative energy is piecewise linear. (The
/// static energy drawn all day is not in it: no choice spends it.)
pub fn time_consumed(s: &EnergyScenario, run: &EnergyRun, joules: f64) -> Option<f64> {
    let type_of = s.matrices.machine_type_of();
    let mut steps: Vec<(f64, f64)> = Vec::with_capacity(2 * run.executions.len());
    for e in &run.executions {
        let Some(apc) = s.matrices.apc(
            s.tasks[e.task].task_type,
            type_of[e.machine],
            e.pstate.into(),
        ) else {
            continue;
        };
        let (a, b) = (e.start.max(s.window.0), e.end.min(s.window.1));
        if b > a {
            steps.push((a, apc));
            steps.push((b, -apc));
        }
    }
    steps.sort_by(|x, y| x.0.total_cmp(&y.0));
    let (mut t, mut power, mut used) = (s.window.0, 0.0f64, 0.0f64);
    for (at, change) in steps {
        let more = power * (at - t);
        if power > 0.0 && used + more >= joules {
            return Some(t + (joules - used) / power);
        }
        used += more;
        t = at;
        power += change;
    }
    None
}

/// Summarises `run` of `heuristic` on `s` under `config`.
pub fn summarize(
    s: &EnergyScenario,
    heuristic: &str,
    config: &RunConfig,
    run: &EnergyRun,
) -> EnergySummary {
    let mut levels: Vec<LevelUtility> = PRIORITIES
        .iter()
        .map(|&p| LevelUtility {
            priority: p,
            utility: 0.0,
            max: 0.0,
        })
        .collect();
    let level = |p: f64| PRIORITIES.iter().position(|&q| q == p);
    let mut hourly_utility = vec![0.0; HOURS];
    let mut hourly_energy_j = vec![0.0; HOURS];
    let hour = |t: f64| (((t - s.window.0) / 3600.0).floor().max(0.0) as usize).min(HOURS - 1);
    let (mut counted, mut completed, mut dropped, mut unmapped, mut unfinished) = (0, 0, 0, 0, 0);
    let mut utility = 0.0;
    let mut max_utility = 0.0;
    for (i, t) in s.tasks.iter().enumerate() {
        let p = t.utility.priority();
        if s.counted(i) {
            counted += 1;
            max_utility += p;
            if let Some(l) = level(p) {
                levels[l].max += p;
            }
        }
        match run.fates[i] {
            TaskFate::Dropped(_) => dropped += 1,
            TaskFate::Unmapped => unmapped += 1,
            TaskFate::Executed(k) => {
                let e = &run.executions[k];
                if e.end > s.window.1 {
                    unfinished += 1;
                } else if e.end >= s.window.0 {
                    completed += 1;
                    let u = earned(s, run, i);
                    utility += u;
                    hourly_utility[hour(e.end)] += u;
                    if let Some(l) = level(p) {
                        levels[l].utility += u;
                    }
                }
            }
        }
    }
    let type_of = s.matrices.machine_type_of();
    for e in &run.executions {
        let t = &s.tasks[e.task];
        let mt = type_of[e.machine];
        let Some(apc) = s.matrices.apc(t.task_type, mt, e.pstate.into()) else {
            continue;
        };
        // Spread the execution's energy over the hours it overlaps.
        for (h, slot) in hourly_energy_j.iter_mut().enumerate() {
            let a = s.window.0 + h as f64 * 3600.0;
            *slot += window_energy(apc, e.start, e.end, (a, a + 3600.0));
        }
    }
    // The static energy drawn all day, hour by hour (the last hour takes
    // the rest of the day, as `hour` does).
    let base = run.static_j / (s.window.1 - s.window.0);
    for (h, slot) in hourly_energy_j.iter_mut().enumerate() {
        let a = s.window.0 + h as f64 * 3600.0;
        let b = if h + 1 == HOURS {
            s.window.1
        } else {
            a + 3600.0
        };
        *slot += base * (b.min(s.window.1) - a).max(0.0);
    }
    for k in 1..HOURS {
        hourly_utility[k] += hourly_utility[k - 1];
        hourly_energy_j[k] += hourly_energy_j[k - 1];
    }
    let idle = idle_per_machine(s, run);
    EnergySummary {
        scenario: s.name.clone(),
        heuristic: heuristic.to_string(),
        management: config.management.name().to_string(),
        filter: config.filter.name(),
        utility,
        max_utility,
        levels,
        energy_j: run.energy + run.static_j,
        static_j: run.static_j,
        budget_j: run.budget,
        exhausted_at_h: run.exhausted_at.map(|t| (t - s.window.0) / 3600.0),
        spent_at_h: run
            .budget
            .and_then(|b| time_consumed(s, run, SPENT_FRACTION * (b - run.static_j)))
            .map(|t| (t - s.window.0) / 3600.0),
        counted,
        completed,
        dropped,
        unmapped,
        unfinished,
        mean_idle_s: idle.iter().sum::<f64>() / idle.len().max(1) as f64,
        hourly_utility,
        hourly_energy_j,
        events: run.events.len(),
        heuristic_seconds_mean: run.heuristic_seconds.0 / run.events.len().max(1) as f64,
        heuristic_seconds_max: run.heuristic_seconds.1,
    }
}
