//! The Catalina scheduler's job priority (SDSC; Margo, Yoshimoto and
//! Kovatch, "Preemption and Priority Calculation in Production Job Data",
//! §4 and Table 2, cited below as Margo et al.; see also Margo, Yoshimoto,
//! Kovatch and Andrews, "Impact of reservations on production job
//! scheduling", JSSPP 2007): a weighted sum of ten metric values,
//! recomputed at every scheduling pass. The queue is then scheduled in
//! priority order with conservative backfilling (Margo et al. §2).
//!
//! The ten factors, for a waiting job at clock `now` (times in s):
//!
//! | # | factor | value here |
//! |---|---|---|
//! | 1 | resource | allocation units requested (nodes with `--whole-nodes`, else processors) |
//! | 2 | expansion factor | (now − submit + estimate) / estimate |
//! | 3 | system queue time | now − submit |
//! | 4 | submit time | now − submit (a replay has no holds, so it equals the queue time) |
//! | 5 | local user | 0 (SWF records no user-set priority) |
//! | 6 | local admin | 0 (SWF records no admin priority) |
//! | 7 | wall time | estimate |
//! | 8 | QOS priority | 0 (SWF records no QOS) |
//! | 9 | QOS target expansion factor | 0 (no QOS targets) |
//! | 10 | QOS target queue wait | 0 (no QOS targets) |
//!
//! Factors 5, 6, 8, 9 and 10 are zero because SWF logs do not carry them;
//! their weights are kept so a configuration reads like Catalina's.
//!
//! Suspension preemption ([`Preemption`]) is optional; its five rules are
//! applied by the Catalina policy ([`super::policies::catalina`]).
//!
//! This module is Catalina's configuration — the weights, the formula and
//! the preemption rule, which [`super::Policy::Catalina`] carries and the
//! registry, the command line and the experiment presets set — while the
//! scheduling behaviour lives with the other policies.

/// The ten Catalina weights.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CatalinaWeights {
    /// Weight of the resource factor (per unit).
    pub resource: f64,
    /// Weight of the expansion factor.
    pub expansion_factor: f64,
    /// Weight of the system queue time (per s).
    pub system_queue_time: f64,
    /// Weight of the submit-time factor (per s).
    pub submit_time: f64,
    /// Weight of the local user priority.
    pub local_user: f64,
    /// Weight of the local admin priority.
    pub local_admin: f64,
    /// Weight of the wall time (per s of estimate).
    pub wall_time: f64,
    /// Weight of the QOS priority.
    pub qos_priority: f64,
    /// Weight of the QOS target expansion factor.
    pub qos_target_expansion_factor: f64,
    /// Weight of the QOS target queue wait.
    pub qos_target_queue_wait: f64,
}

impl CatalinaWeights {
    /// SDSC DataStar's weights (Margo et al., Table 2): 250, 1.0, 0.020, 0.0000001, 0.0,
    /// 0.01175, 0.0, 400, 1.0, 1.0.
    pub const DATASTAR: CatalinaWeights = CatalinaWeights {
        resource: 250.0,
        expansion_factor: 1.0,
        system_queue_time: 0.020,
        submit_time: 0.000_000_1,
        local_user: 0.0,
        local_admin: 0.011_75,
        wall_time: 0.0,
        qos_priority: 400.0,
        qos_target_expansion_factor: 1.0,
        qos_target_queue_wait: 1.0,
    };

    /// The weights as an array, in the order of the module table.
    pub fn as_array(&self) -> [f64; 10] {
        [
            self.resource,
            self.expansion_factor,
            self.system_queue_time,
            self.submit_time,
            self.local_user,
            self.local_admin,
            self.wall_time,
            self.qos_priority,
            self.qos_target_expansion_factor,
            self.qos_target_queue_wait,
        ]
    }
}

impl Default for CatalinaWeights {
    fn default() -> Self {
        CatalinaWeights::DATASTAR
    }
}

/// Catalina's suspension preemption (Margo et al. §3 and Table 1): which
/// jobs may preempt and be preempted, and the PREEMPT_MIN_RUNTIME guard.
/// The marks are set by size, the rule of the DataStar benchmark (Margo et
/// al. §5): jobs larger than `preempting_above` units may preempt, jobs of
/// at most `preemptible_up_to` units may be preempted (a job may carry both
/// marks when the thresholds overlap).
///
/// The five rules, as the policy applies them when a waiting job does not
/// fit now:
/// 1. only a job marked preempting preempts, and only jobs marked
///    preemptible are suspended;
/// 2. only a job of strictly higher priority preempts (the victim's
///    priority is the one it started with);
/// 3. both jobs must be able to finish before the next reservation: the
///    preemptor fits from now for its estimate once the victims' units are
///    released, and each victim fits again right after the preemptor's
///    predicted end, without moving any reservation already in the profile;
/// 4. at most one suspended job per node (allocation unit): a running job
///    placed on a unit that already holds a suspended job is not preempted;
/// 5. a job predicted to have less than `min_runtime` s left is not
///    preempted.
///
/// A suspended job keeps its units (its memory image stays on its nodes)
/// and gets a reservation for its remaining estimate, placed after all
/// current reservations (so it displaces none); rule 3 guarantees that
/// place is the preemptor's predicted end. Other jobs may use its idle
/// units only if they are predicted to end by then. It resumes on the same
/// units at its reservation, earlier if its units are free and it fits
/// the profile, later if a unit is still held by a job running past its
/// estimate.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Preemption {
    /// Jobs with more units than this are marked preempting.
    pub preempting_above: u32,
    /// Jobs with at most this many units are marked preemptible.
    pub preemptible_up_to: u32,
    /// PREEMPT_MIN_RUNTIME, s: a job with less predicted time left is not
    /// preempted.
    pub min_runtime: f64,
    /// Factor on the Catalina priority of jobs marked preempting (2 in the
    /// DataStar study: "doubled priority").
    pub preemptor_priority_factor: f64,
}

impl Preemption {
    /// Catalina's default PREEMPT_MIN_RUNTIME, s.
    pub const DEFAULT_MIN_RUNTIME: f64 = 1_800.0;

    /// The DataStar benchmark's rule (Margo et al. §5): jobs larger than 64
    /// nodes preempt with doubled priority, every other job is preemptible,
    /// PREEMPT_MIN_RUNTIME = 1,800 s.
    pub const MARGO2008: Preemption = Preemption {
        preempting_above: 64,
        preemptible_up_to: 64,
        min_runtime: Preemption::DEFAULT_MIN_RUNTIME,
        preemptor_priority_factor: 2.0,
    };

    /// Whether a job of `units` units is marked preempting.
    pub fn preempting(&self, units: u32) -> bool {
        units > self.preempting_above
    }

    /// Whether a job of `units` units is marked preemptible.
    pub fn preemptible(&self, units: u32) -> bool {
        units <= self.preemptible_up_to
    }

    /// The queue priority of a job of `units` units whose Catalina priority
    /// is `base`: `base` times the preemptor factor when it is preempting.
    pub fn queue_priority(&self, units: u32, base: f64) -> f64 {
        if self.preempting(units) {
            base * self.preemptor_priority_factor
        } else {
            base
        }
    }
}

/// The ten factor values of a job of `units` units, submitted at `submit`
/// with estimate `estimate` (s), at clock `now` (see the module table).
pub fn factors(units: u32, submit: f64, estimate: f64, now: f64) -> [f64; 10] {
    let queued = (now - submit).max(0.0);
    let estimate = estimate.max(1.0);
    [
        f64::from(units),
        (queued + estimate) / estimate,
        queued,
        queued,
        0.0,
        0.0,
        estimate,
        0.0,
        0.0,
        0.0,
    ]
}

/// Catalina priority: Σ weightᵢ · factorᵢ.
pub fn priority(w: &CatalinaWeights, units: u32, submit: f64, estimate: f64, now: f64) -> f64 {
    w.as_array()
        .iter()
        .zip(factors(units, submit, estimate, now))
        .map(|(w, f)| w * f)
        .sum()
}

/// The Catalina priority of a job of `units` units, submitted at `submit`
/// with estimate `estimate` (s), as a line in the clock: `[a, b, c, d]`.
/// From its submit on every factor is constant or linear in the clock (the
/// queue time, and the expansion factor 1 + queue time / estimate), so in
/// real arithmetic its priority at clock `now` ≥ `submit` is `a + b·now`
/// (value units); `c + d·now` is the same sum over the absolute values of
/// the weights and terms, which bounds the rounding of both [`priority`]
/// and the line as computed (a few dozen units in its last place). The
/// weights must be finite.
pub(crate) fn priority_line(
    w: &CatalinaWeights,
    units: u32,
    submit: f64,
    estimate: f64,
) -> [f64; 4] {
    let w = w.as_array();
    let (u, s, e) = (f64::from(units), submit, estimate.max(1.0));
    let queue_time = w[2] + w[3];
    let queue_time_abs = w[2].abs() + w[3].abs();
    [
        w[0] * u + w[1] * (1.0 - s / e) - queue_time * s + w[6] * e,
        w[1] / e + queue_time,
        w[0].abs() * u
            + w[1].abs() * (1.0 + s.abs() / e)
            + queue_time_abs * s.abs()
            + w[6].abs() * e,
        w[1].abs() / e + queue_time_abs,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 16-node job submitted at 1,000 with a 3,600 s estimate, at 4,600:
    /// 250·16 + 1.0·(3600+3600)/3600 + 0.02·3600 + 1e-7·3600 + 0.01175·0
    /// = 4000 + 2 + 72 + 0.00036 = 4074.00036.
    #[test]
    fn priority_matches_a_hand_computation_with_datastar_weights() {
        let p = priority(&CatalinaWeights::DATASTAR, 16, 1000.0, 3600.0, 4600.0);
        assert!((p - 4_074.000_36).abs() < 1e-9, "{p}");
    }

    #[test]
    fn waiting_raises_priority() {
        let w = CatalinaWeights::DATASTAR;
        assert!(priority(&w, 1, 0.0, 100.0, 1000.0) > priority(&w, 1, 0.0, 100.0, 10.0));
    }
}
