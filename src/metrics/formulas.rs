//! Every per-job and per-run metric formula, defined once (docs/classic.md).
//!
//! Per job (times in s): wait = start − submit; response = end − submit =
//! wait + run; slowdown = response / run; bounded slowdown =
//! max(1, response / max(run, τ)) with τ = 10 s by default (Feitelson,
//! Rudolph, Schwiegelshohn, Sevcik and Wong, "Theory and practice in
//! parallel job scheduling", JSSPP 1997, §4.2); expansion factor (xfactor)
//! = (wait + run) / run (Margo et al., SDSC; equal to the slowdown);
//! priority-weighted xfactor = priority · xfactor.
//!
//! Per run: utilization = busy unit-seconds / (capacity · window), the
//! window running from the first submit to the last end (the makespan);
//! priority-weighted utilization = Σ priority·size·run / (capacity · window
//! · mean priority), equal to the utilization when every priority is the
//! same; makespan = max(end) − min(submit). Averages are unweighted,
//! priority-weighted (weight = priority / Σ priority) or node-second-weighted
//! (weight = size·run / Σ size·run).

/// Default τ of the bounded slowdown, s.
pub const DEFAULT_TAU: f64 = 10.0;

/// Wait: start − submit (s).
pub fn wait(submit: f64, start: f64) -> f64 {
    start - submit
}

/// Wait of a job suspended between pieces of its run (Catalina preemption,
/// docs/classic.md): queue wait plus suspended time, start − submit + suspended
/// (s) = end − submit − run, so response = wait + run still holds.
pub fn wait_with_suspension(submit: f64, start: f64, suspended: f64) -> f64 {
    wait(submit, start) + suspended
}

/// Response (turnaround): end − submit (s).
pub fn response(submit: f64, end: f64) -> f64 {
    end - submit
}

/// Slowdown: (wait + run) / run (dimensionless; `run` > 0).
pub fn slowdown(wait: f64, run: f64) -> f64 {
    (wait + run) / run
}

/// Bounded slowdown: max(1, (wait + run) / max(run, τ)).
pub fn bounded_slowdown(wait: f64, run: f64, tau: f64) -> f64 {
    ((wait + run) / run.max(tau)).max(1.0)
}

/// Expansion factor: (wait + run) / run.
pub fn xfactor(wait: f64, run: f64) -> f64 {
    (wait + run) / run
}

/// Priority-weighted expansion factor: priority · xfactor.
pub fn priority_weighted_xfactor(priority: f64, xfactor: f64) -> f64 {
    priority * xfactor
}

/// Utilization: busy unit-seconds / (capacity · window). 0 for an empty window.
pub fn utilization(busy_unit_seconds: f64, capacity: f64, window: f64) -> f64 {
    if capacity <= 0.0 || window <= 0.0 {
        0.0
    } else {
        busy_unit_seconds / (capacity * window)
    }
}

/// Priority-weighted utilization: Σ priority·size·run / (capacity · window ·
/// mean priority), from per-job (priority, size, run).
pub fn priority_weighted_utilization(jobs: &[(f64, f64, f64)], capacity: f64, window: f64) -> f64 {
    if jobs.is_empty() {
        return 0.0;
    }
    let mean_p = jobs.iter().map(|j| j.0).sum::<f64>() / jobs.len() as f64;
    if mean_p <= 0.0 {
        return 0.0;
    }
    let weighted: f64 = jobs.iter().map(|&(p, s, r)| p * s * r).sum();
    utilization(weighted / mean_p, capacity, window)
}

/// Makespan: max(end) − min(submit) over (submit, end) pairs (s); 0 if empty.
pub fn makespan(jobs: impl IntoIterator<Item = (f64, f64)>) -> f64 {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (s, e) in jobs {
        lo = lo.min(s);
        hi = hi.max(e);
    }
    if hi >= lo { hi - lo } else { 0.0 }
}

/// Weighted mean Σ wᵢxᵢ / Σ wᵢ; NaN when the weights sum to 0.
pub fn weighted_mean(values: &[f64], weights: &[f64]) -> f64 {
    let w: f64 = weights.iter().sum();
    values.iter().zip(weights).map(|(x, w)| x * w).sum::<f64>() / w
}

/// Unweighted mean; NaN when empty.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    // A job submitted at 0, started at 30, running 10 s on 4 units.
    #[test]
    fn per_job_formulas_on_a_hand_example() {
        let w = wait(0.0, 30.0);
        assert_eq!(w, 30.0);
        assert_eq!(response(0.0, 40.0), 40.0);
        assert_eq!(slowdown(w, 10.0), 4.0);
        assert_eq!(xfactor(w, 10.0), 4.0);
        assert_eq!(priority_weighted_xfactor(2.5, 4.0), 10.0);
        // a 2 s job waiting 3 s: (3+2)/max(2,10) = 0.5 -> bounded to 1
        assert_eq!(bounded_slowdown(3.0, 2.0, DEFAULT_TAU), 1.0);
        // a 2 s job waiting 48 s: 50/10 = 5
        assert_eq!(bounded_slowdown(48.0, 2.0, DEFAULT_TAU), 5.0);
        // same job, slowdown unbounded: 25
        assert_eq!(slowdown(48.0, 2.0), 25.0);
        // the first job suspended 100 s after starting at 30: ends at 140,
        // waited 130 s in all, xfactor (130 + 10) / 10 = 14
        let ws = wait_with_suspension(0.0, 30.0, 100.0);
        assert_eq!(ws, 130.0);
        assert_eq!(ws + 10.0, response(0.0, 140.0));
        assert_eq!(xfactor(ws, 10.0), 14.0);
    }

    #[test]
    fn run_formulas_on_a_hand_example() {
        // capacity 4 over [0, 100): jobs (size, run) (4, 50) and (2, 50): busy 300 of 400
        assert_eq!(utilization(300.0, 4.0, 100.0), 0.75);
        // priorities 1 and 3 (mean 2): (1·4·50 + 3·2·50)/2 = 250 -> 250/400
        assert_eq!(
            priority_weighted_utilization(&[(1.0, 4.0, 50.0), (3.0, 2.0, 50.0)], 4.0, 100.0),
            0.625
        );
        assert_eq!(makespan([(0.0, 50.0), (10.0, 100.0)]), 100.0);
        // node-second weights 200 and 100 on waits 0 and 30: 3000/300 = 10
        assert_eq!(weighted_mean(&[0.0, 30.0], &[200.0, 100.0]), 10.0);
        assert_eq!(mean(&[0.0, 30.0]), 15.0);
    }
}
