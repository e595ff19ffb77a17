//! Per-run summary of a classic replay (environment D), from the formulas
//! of [`crate::metrics::formulas`]. A job's priority is its Catalina priority when it
//! started; every job has priority 1 outside Catalina, so the
//! priority-weighted averages equal the unweighted ones there.
//!
//! A job suspended by preemption waits twice: in the queue before its first
//! start, and suspended between its pieces. Its wait is the sum of both
//! (= end − submit − run), so response = wait + run and the expansion
//! factor (wait + run) / run still hold.

use super::engine::machine::ClassicRun;
use super::{ClassicJob, Machine};
use crate::metrics::formulas as f;

/// Metrics of one classic replay.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClassicSummary {
    /// Log file name.
    pub log: String,
    /// Short key of the log ([`crate::catalog::log_key`]).
    #[serde(default)]
    pub log_key: String,
    /// The heuristic (scheduler) name.
    pub heuristic: String,
    /// Whether jobs may start out of queue order (false for FCFS).
    pub backfilling: bool,
    /// Reservations made per pass: a number, or `None` for unlimited
    /// (Conservative, Catalina).
    pub reservation_depth: Option<u64>,
    /// `user` or `exact` estimates.
    pub estimates: String,
    /// Cleaning preset.
    pub clean: String,
    /// Machine capacity, units.
    pub capacity: u32,
    /// `processors` or `nodes`.
    pub unit: String,
    /// Jobs replayed.
    pub jobs: usize,
    /// Scheduling passes.
    pub passes: u64,
    /// Makespan, s.
    pub makespan_s: f64,
    /// Utilization over the makespan (0..1).
    pub utilization: f64,
    /// Mean wait, s.
    pub wait_mean_s: f64,
    /// Node-second-weighted mean wait, s.
    pub wait_nsw_mean_s: f64,
    /// Largest wait, s.
    pub wait_max_s: f64,
    /// Mean response, s.
    pub response_mean_s: f64,
    /// Mean slowdown.
    pub slowdown_mean: f64,
    /// Mean bounded slowdown (τ below).
    pub bsld_mean: f64,
    /// Largest bounded slowdown.
    pub bsld_max: f64,
    /// τ of the bounded slowdown, s.
    pub bsld_tau_s: f64,
    /// Mean expansion factor.
    pub xfactor_mean: f64,
    /// Node-second-weighted mean expansion factor.
    pub xfactor_nsw_mean: f64,
    /// Largest expansion factor.
    pub xfactor_max: f64,
    /// Priority-weighted mean wait (weight = priority / Σ priority), s.
    pub wait_pw_mean_s: f64,
    /// Priority-weighted mean expansion factor.
    pub xfactor_pw_mean: f64,
    /// Mean of priority · xfactor.
    pub priority_xfactor_mean: f64,
    /// Priority-weighted utilization (0..1).
    pub pw_utilization: f64,
    /// Suspensions (preemptions) in the run.
    pub suspensions: usize,
    /// Distinct jobs suspended at least once.
    pub jobs_suspended: usize,
    /// Mean time a suspension lasted, s (0 without suspensions).
    pub suspended_mean_s: f64,
}

/// Per-job metric columns of a classic replay, aligned with the jobs.
#[derive(Debug, Clone, Default)]
pub struct JobMetrics {
    /// Wait, s.
    pub wait: Vec<f64>,
    /// Response, s.
    pub response: Vec<f64>,
    /// Slowdown.
    pub slowdown: Vec<f64>,
    /// Bounded slowdown.
    pub bsld: Vec<f64>,
    /// Expansion factor.
    pub xfactor: Vec<f64>,
}

/// Per-job metrics of `run`.
pub fn job_metrics(jobs: &[ClassicJob], run: &ClassicRun, tau: f64) -> JobMetrics {
    let mut m = JobMetrics::default();
    for (j, o) in jobs.iter().zip(&run.outcomes) {
        let w = f::wait_with_suspension(j.submit, o.start, o.suspended);
        m.wait.push(w);
        m.response.push(f::response(j.submit, o.end));
        m.slowdown.push(f::slowdown(w, j.run));
        m.bsld.push(f::bounded_slowdown(w, j.run, tau));
        m.xfactor.push(f::xfactor(w, j.run));
    }
    m
}

/// Identity of a classic run, for its summary row.
pub struct RunLabel<'a> {
    /// Log file name.
    pub log: &'a str,
    /// The heuristic (scheduler) name.
    pub heuristic: &'a str,
    /// The policy it ran (for its reservation depth).
    pub policy: super::Policy,
    /// `user` or `exact`.
    pub estimates: &'a str,
    /// Cleaning preset.
    pub clean: String,
}

/// Summarises `run` of `jobs` on `machine`.
pub fn summarize(
    label: RunLabel<'_>,
    jobs: &[ClassicJob],
    machine: &Machine,
    run: &ClassicRun,
    tau: f64,
) -> ClassicSummary {
    let m = job_metrics(jobs, run, tau);
    let node_seconds: Vec<f64> = jobs.iter().map(|j| f64::from(j.size) * j.run).collect();
    let busy: f64 = node_seconds.iter().sum();
    let window = f::makespan(
        jobs.iter()
            .zip(&run.outcomes)
            .map(|(j, o)| (j.submit, o.end)),
    );
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    ClassicSummary {
        log: label.log.to_string(),
        log_key: crate::catalog::log_key(label.log),
        heuristic: label.heuristic.to_string(),
        backfilling: !matches!(label.policy, super::Policy::Fcfs),
        reservation_depth: match label.policy {
            super::Policy::Fcfs => Some(0),
            super::Policy::Backfill { depth } if depth != usize::MAX => Some(depth as u64),
            _ => None,
        },
        estimates: label.estimates.to_string(),
        clean: label.clean,
        capacity: machine.capacity,
        unit: match machine.unit {
            super::Unit::Processors => "processors".into(),
            super::Unit::Nodes { .. } => "nodes".into(),
        },
        jobs: jobs.len(),
        passes: run.passes,
        makespan_s: window,
        utilization: f::utilization(busy, f64::from(machine.capacity), window),
        wait_mean_s: f::mean(&m.wait),
        wait_nsw_mean_s: f::weighted_mean(&m.wait, &node_seconds),
        wait_max_s: max(&m.wait),
        response_mean_s: f::mean(&m.response),
        slowdown_mean: f::mean(&m.slowdown),
        bsld_mean: f::mean(&m.bsld),
        bsld_max: max(&m.bsld),
        bsld_tau_s: tau,
        xfactor_mean: f::mean(&m.xfactor),
        xfactor_nsw_mean: f::weighted_mean(&m.xfactor, &node_seconds),
        xfactor_max: max(&m.xfactor),
        wait_pw_mean_s: f::weighted_mean(&m.wait, &run.priority),
        xfactor_pw_mean: f::weighted_mean(&m.xfactor, &run.priority),
        priority_xfactor_mean: f::mean(
            &m.xfactor
                .iter()
                .zip(&run.priority)
                .map(|(x, p)| f::priority_weighted_xfactor(*p, *x))
                .collect::<Vec<_>>(),
        ),
        pw_utilization: f::priority_weighted_utilization(
            &jobs
                .iter()
                .zip(&run.priority)
                .map(|(j, p)| (*p, f64::from(j.size), j.run))
                .collect::<Vec<_>>(),
            f64::from(machine.capacity),
            window,
        ),
        suspensions: run.suspensions.len(),
        jobs_suspended: run
            .suspensions
            .iter()
            .map(|s| s.job)
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        suspended_mean_s: if run.suspensions.is_empty() {
            0.0
        } else {
            f::mean(
                &run.suspensions
                    .iter()
                    .map(|s| s.resumed - s.at)
                    .collect::<Vec<_>>(),
            )
        },
    }
}
