//! The synthetic workload of environment C (Khemka et al., §IV.B;
//! docs/energy.md, "Workload"): ≈ 32,000 tasks a day over the 100 task
//! types, general types arriving by a sinusoidal Poisson process and
//! special types by an on/off bursty one, each task with a utility function
//! of priority 8, 4, 2 or 1, one of four urgency levels and one of the 20
//! utility classes, drawn uniformly and independently of its type.
//!
//! Every draw comes from a seeded stream of the trial seed
//! ([`crate::model::rng::stream`]): the matrices have their own two streams
//! ([`Matrices::draw`]); each task type has one stream for its arrivals
//! (its phase, or its bursts, then the thinned Poisson process) and one for
//! its tasks' utility functions.

use std::f64::consts::TAU;

use rand::RngExt;
use rand_distr::Exp1;

use super::{
    EVENT_INTERVAL_S, EnergyScenario, EnergyTask, Matrices, WARMUP_SECONDS, WINDOW_SECONDS,
};
use crate::model::rng::{ChaCha8Rng, stream};
use crate::model::utility::{CLASS_COUNT, Shape, Urgency, UtilitySpec, theta_for};
use crate::units::SECONDS_PER_DAY;
use crate::workload::WorkloadError;
use crate::workload::seeds::{ScenarioKey, scenario_seed};

/// The priorities a task's utility is drawn from, uniformly (value units;
/// Khemka et al., §IV.B).
pub const PRIORITIES: [f64; 4] = [8.0, 4.0, 2.0, 1.0];
/// A special type's arrival rate outside its bursts, relative to λ̄ (no
/// unit; swftool's choice: the paper gives no rates; docs/energy.md,
/// "Workload" and "Choices the paper leaves open").
pub const SPECIAL_BASE_RATE: f64 = 0.25;
/// Bursts of a special type start as a Poisson process of this many a day.
pub const SPECIAL_BURSTS_PER_DAY: f64 = 4.0;
/// Mean length of a burst (exponential), s.
pub const SPECIAL_BURST_MEAN_S: f64 = 30.0 * 60.0;
/// The most tasks a day swftool generates (300 times the default).
pub const MAX_TASKS_PER_DAY: f64 = 10_000_000.0;

const STREAM_ARRIVALS: u64 = 1 << 32;
const STREAM_UTILITY: u64 = 2 << 32;

/// Parameters of the synthetic workload.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SyntheticParams {
    /// Expected tasks per 24 h over all types (32,000).
    pub tasks_per_day: f64,
    /// A fixed θ of the utility functions' urgency, s (`--theta` gives it
    /// in minutes); `None` (the default): θ = 3.7 × each task's mean ETC
    /// ([`crate::model::utility::theta_for`], docs/utility.md).
    pub theta_s: Option<f64>,
    /// Time between mapping events, s (60).
    pub event_interval_s: f64,
}

impl Default for SyntheticParams {
    fn default() -> Self {
        SyntheticParams {
            tasks_per_day: 32_000.0,
            theta_s: None,
            event_interval_s: EVENT_INTERVAL_S,
        }
    }
}

impl SyntheticParams {
    /// Checks every parameter.
    ///
    /// # Errors
    /// [`WorkloadError::Parameter`] naming the flag.
    pub fn validate(&self) -> Result<(), WorkloadError> {
        let bad = |flag: &'static str, v: f64, reason: &str| WorkloadError::Parameter {
            flag,
            value: v.to_string(),
            reason: reason.into(),
        };
        if !(self.tasks_per_day.is_finite() && self.tasks_per_day > 0.0) {
            return Err(bad(
                "--tasks-per-day",
                self.tasks_per_day,
                "must be a positive number",
            ));
        }
        if self.tasks_per_day > MAX_TASKS_PER_DAY {
            return Err(bad(
                "--tasks-per-day",
                self.tasks_per_day,
                "swftool generates at most 10,000,000 tasks a day",
            ));
        }
        if let Some(theta_s) = self.theta_s
            && !(theta_s.is_finite() && theta_s > 0.0)
        {
            return Err(bad(
                "--theta",
                theta_s / 60.0,
                "must be a positive number of minutes",
            ));
        }
        if !(self.event_interval_s.is_finite() && self.event_interval_s >= 1.0) {
            return Err(bad(
                "--event-interval",
                self.event_interval_s,
                "must be at least 1 second",
            ));
        }
        Ok(())
    }
}

/// The fraction of time at least one burst of a special type is on (no
/// unit): bursts start as a Poisson process of rate r
/// ([`SPECIAL_BURSTS_PER_DAY`]) and last an exponential of mean d
/// ([`SPECIAL_BURST_MEAN_S`]), so the number on at a time is Poisson of
/// mean r·d (an M/M/∞ queue) and none is on with probability e^(−r·d):
/// c = 1 − e^(−r·d) = 1 − e^(−1/12) ≈ 0.07996 with the defaults.
pub fn burst_coverage() -> f64 {
    1.0 - (-SPECIAL_BURSTS_PER_DAY * SPECIAL_BURST_MEAN_S / SECONDS_PER_DAY).exp()
}

/// A special type's arrival rate while a burst is on, relative to λ̄ (no
/// unit): the rate that gives it the same mean rate λ̄ as a general type
/// (Khemka et al. §IV.B: "each task type has approximately the same number
/// of tasks"; docs/energy.md, "Workload"). A burst replaces the base rate β
/// ([`SPECIAL_BASE_RATE`]) and overlapping bursts do not add up, so the
/// mean rate is β·(1 − c) + b·c with c = [`burst_coverage`]; setting it to
/// 1 gives
///
/// b = β + (1 − β) / c = 0.25 + 0.75 / 0.079956 ≈ 9.630.
///
/// (The first-order value, about 9.25 from c ≈ r·d = 1/12, ignores
/// overlapping bursts and would leave special types 3.5 % short.)
pub fn burst_rate() -> f64 {
    SPECIAL_BASE_RATE + (1.0 - SPECIAL_BASE_RATE) / burst_coverage()
}

/// A special type's long-run mean arrival rate relative to λ̄ (no unit):
/// β + (b − β)·c, which [`burst_rate`] makes 1 (to rounding).
pub fn special_mean_factor() -> f64 {
    SPECIAL_BASE_RATE + (burst_rate() - SPECIAL_BASE_RATE) * burst_coverage()
}

/// λ̄, tasks per second of a task type, such that the expected total over
/// the day is `tasks_per_day`: general types average λ̄ over a day (their
/// sinusoid has a period of a day), special types
/// λ̄·[`special_mean_factor`] = λ̄, so λ̄ = `tasks_per_day` / 100 types
/// / 86,400 s (320 tasks a type a day by default).
pub fn lambda_bar(tasks_per_day: f64, general: usize, special: usize) -> f64 {
    tasks_per_day / (general as f64 + special as f64 * special_mean_factor()) / SECONDS_PER_DAY
}

/// The bursts of a special type over `[0, horizon)`: start times of a
/// Poisson process, exponential lengths (one stream, in that order).
fn bursts(rng: &mut ChaCha8Rng, horizon: f64) -> Vec<(f64, f64)> {
    let rate = SPECIAL_BURSTS_PER_DAY / SECONDS_PER_DAY;
    let mut out = Vec::new();
    let mut t = 0.0;
    loop {
        let e: f64 = rng.sample(Exp1);
        t += e / rate;
        if t >= horizon {
            return out;
        }
        let len: f64 = rng.sample(Exp1);
        out.push((t, t + len * SPECIAL_BURST_MEAN_S));
    }
}

/// The arrival times (s, not rounded) of one task type over `[0, horizon)`
/// drawn from `rng` (Khemka et al. §IV.B; docs/energy.md, "Workload"),
/// λ̄ = `lambda` tasks a second:
///
/// * a general type (`special` false): a Poisson process of rate
///   λ̄·(1 + 0.5·sin(2πt/24 h + φ)), φ uniform (drawn first);
/// * a special type: its bursts first ([`SPECIAL_BURSTS_PER_DAY`] a day,
///   exponential lengths of mean [`SPECIAL_BURST_MEAN_S`]), then a
///   Poisson process of rate [`burst_rate`]·λ̄ while a burst is on and
///   [`SPECIAL_BASE_RATE`]·λ̄ otherwise;
///
/// both sampled by thinning a Poisson process of the highest rate. Either
/// kind averages λ̄ over a day.
pub fn type_arrivals(rng: &mut ChaCha8Rng, special: bool, lambda: f64, horizon: f64) -> Vec<f64> {
    let (phase, on) = if special {
        (0.0, bursts(rng, horizon))
    } else {
        (rng.random::<f64>() * TAU, Vec::new())
    };
    let burst = burst_rate() * lambda;
    let lambda_max = if special { burst } else { 1.5 * lambda };
    let mut out = Vec::new();
    let mut t = 0.0;
    loop {
        let e: f64 = rng.sample(Exp1);
        t += e / lambda_max;
        if t >= horizon {
            return out;
        }
        let u: f64 = rng.random();
        let rate = if special {
            if on.iter().any(|&(a, b)| a <= t && t < b) {
                burst
            } else {
                SPECIAL_BASE_RATE * lambda
            }
        } else {
            lambda * (1.0 + 0.5 * (TAU * t / SECONDS_PER_DAY + phase).sin())
        };
        if u * lambda_max < rate {
            out.push(t);
        }
    }
}

/// Synthetic trial `trial` of seed `seed` (Khemka et al., §IV;
/// docs/energy.md):
///
/// * trial seed `derive_seed(seed, trial)` ([`scenario_seed`]); the matrices
///   [`Matrices::draw`] of it;
/// * arrivals over the 26 simulated hours, rounded down to whole seconds:
///   a general type by the rate λ̄·(1 + 0.5·sin(2πt/24 h + φ)), φ uniform;
///   a special type by 0.25·λ̄, or [`burst_rate`]·λ̄ ≈ 9.63·λ̄ while one of
///   its bursts is on (bursts start 4 times a day on average and last an
///   exponential 30 min on average), so that every type averages λ̄;
///   both sampled by thinning ([`type_arrivals`]); λ̄ from [`lambda_bar`];
/// * per task, priority (8, 4, 2, 1), urgency (the four levels) and class
///   (1..=20), each uniform; the class's span scales with the type's mean
///   ETC at P-state 0;
/// * tasks by (arrival, type), numbered 1.. in that order.
///
/// # Errors
/// [`WorkloadError`] for a bad parameter or a degenerate draw.
pub fn synthetic(
    params: &SyntheticParams,
    seed: u64,
    trial: u64,
) -> Result<EnergyScenario, WorkloadError> {
    params.validate()?;
    let trial_seed = scenario_seed(seed, ScenarioKey::Trial(trial));
    let matrices = Matrices::draw(trial_seed)?;
    let special = matrices.special_of.iter().filter(|s| s.is_some()).count();
    let general = matrices.task_types() - special;
    let lambda = lambda_bar(params.tasks_per_day, general, special);
    let horizon = WARMUP_SECONDS + WINDOW_SECONDS;

    let mut drawn: Vec<(f64, usize, UtilitySpec)> = Vec::new();
    for i in 0..matrices.task_types() {
        let mut arrivals = stream(trial_seed, STREAM_ARRIVALS + i as u64);
        let mut utilities = stream(trial_seed, STREAM_UTILITY + i as u64);
        let scale = matrices.mean_p0_etc(i);
        let is_special = matrices.special_of[i].is_some();
        for t in type_arrivals(&mut arrivals, is_special, lambda, horizon) {
            let priority = PRIORITIES[utilities.random_range(0..PRIORITIES.len())];
            let urgency = Urgency::ALL[utilities.random_range(0..Urgency::ALL.len())];
            let class = utilities.random_range(1..=CLASS_COUNT);
            drawn.push((
                t.floor(),
                i,
                UtilitySpec {
                    shape: Shape::Classes,
                    class,
                    priority,
                    urgency,
                    scale,
                    theta: theta_for(scale, params.theta_s),
                },
            ));
        }
    }
    // Stable: two tasks of one type in the same second keep their order.
    drawn.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut tasks = Vec::with_capacity(drawn.len());
    for (arrival, task_type, spec) in drawn {
        tasks.push(EnergyTask {
            job_number: tasks.len() as i64 + 1,
            arrival,
            task_type,
            utility: spec.build()?,
            spec,
        });
    }
    Ok(EnergyScenario {
        name: format!("trial-{trial}"),
        seed: trial_seed,
        matrices,
        tasks,
        window: (WARMUP_SECONDS, WARMUP_SECONDS + WINDOW_SECONDS),
        event_interval: params.event_interval_s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::derive_seed;

    #[test]
    fn about_32000_tasks_a_day_sorted_whole_seconds_and_numbered() {
        let s = synthetic(&SyntheticParams::default(), 1, 0).unwrap();
        let day = s.tasks.iter().filter(|t| t.arrival >= s.window.0).count() as f64;
        assert!((day - 32_000.0).abs() < 32_000.0 * 0.03, "{day}");
        for (k, w) in s.tasks.windows(2).enumerate() {
            assert!(w[0].arrival <= w[1].arrival);
            assert_eq!(w[0].job_number, k as i64 + 1);
        }
        assert!(s.tasks.iter().all(|t| t.arrival == t.arrival.floor()));
        assert!(s.tasks.last().unwrap().arrival < 26.0 * 3600.0);
    }

    /// Arrivals in the counted day (hours 3–26) of `days` independent
    /// type-days of one kind, λ̄ of the default 32,000 tasks a day; day k
    /// draws from the arrival stream of seed `derive_seed(11, k)`.
    fn daily_counts(special: bool, days: u64) -> Vec<f64> {
        let lambda = lambda_bar(32_000.0, 83, 17);
        (0..days)
            .map(|k| {
                let mut rng = stream(derive_seed(11, k), STREAM_ARRIVALS + u64::from(special));
                type_arrivals(&mut rng, special, lambda, WARMUP_SECONDS + WINDOW_SECONDS)
                    .into_iter()
                    .filter(|&t| t >= WARMUP_SECONDS)
                    .count() as f64
            })
            .collect()
    }

    fn mean_sd(x: &[f64]) -> (f64, f64) {
        let n = x.len() as f64;
        let m = x.iter().sum::<f64>() / n;
        let v = x.iter().map(|y| (y - m).powi(2)).sum::<f64>() / (n - 1.0);
        (m, v.sqrt())
    }

    #[test]
    fn the_burst_rate_is_the_one_that_gives_a_special_type_the_mean_rate_lambda_bar() {
        // By hand: r·d = 4 a day × 30 min = 1/12; c = 1 − e^(−1/12) =
        // 0.0799556; b = 0.25 + 0.75 / c = 9.63021; the mean rate
        // 0.25·(1 − c) + b·c = 1 (× λ̄).
        assert!((burst_coverage() - 0.079_955_6).abs() < 1e-7);
        assert!((burst_rate() - 9.630_21).abs() < 1e-5);
        assert!((special_mean_factor() - 1.0).abs() < 1e-12);
        // λ̄ = 32,000 / 100 types / 86,400 s: 320 tasks a type a day.
        assert!((lambda_bar(32_000.0, 83, 17) * SECONDS_PER_DAY - 320.0).abs() < 1e-9);
    }

    #[test]
    fn over_many_days_a_special_type_gets_as_many_tasks_as_a_general_one() {
        // 10,000 independent days of each kind (Khemka et al. §IV.B: "each
        // task type has approximately the same number of tasks"). Worked
        // out on paper: both average λ̄ · 24 h = 320 in the counted day (the
        // special type's bursts start at time 0 with none on, which costs
        // it 0.03 % by hour 3: negligible). A general day is Poisson (its
        // sinusoid integrates to λ̄ · 24 h): sd √320 = 17.9. A special day
        // is Poisson given its time ON under a burst: Var = 320 +
        // ((b − 0.25) · λ̄)² · Var(ON), and with ρ = r·d = 1/12 the on/off
        // indicator has covariance e^(−2ρ)·(e^(ρ·e^(−τ/d)) − 1) at lag τ,
        // so Var(ON) ≈ 2 · 24 h · d · e^(−2ρ) · Σ ρ^k / (k·k!) = 1.73 h²
        // (1.69 h² with the window's ends): sd ≈ 164. Tolerance: 4 standard
        // errors of the difference of the means (√(164² + 17.9²) / √10,000
        // = 1.65, so 6.6 tasks, 2.1 %): enough to see a burst rate of 3.75
        // (0.53 × 320) or the first-order 9.25 (0.965 × 320 = 309).
        let days = 10_000;
        let (ms, ss) = mean_sd(&daily_counts(true, days));
        let (mg, sg) = mean_sd(&daily_counts(false, days));
        let n = days as f64;
        let se = (ss * ss / n + sg * sg / n).sqrt();
        assert!(4.0 * se < 0.025 * 320.0, "se {se}");
        assert!(
            (ms - mg).abs() < 4.0 * se,
            "special {ms}, general {mg}, se {se}"
        );
        assert!((ms - 320.0).abs() < 4.0 * ss / n.sqrt(), "special {ms}");
        assert!((mg - 320.0).abs() < 4.0 * sg / n.sqrt(), "general {mg}");
        // The spreads are the processes' too (10 %).
        assert!((ss / 164.0 - 1.0).abs() < 0.1, "special sd {ss}");
        assert!((sg / 320f64.sqrt() - 1.0).abs() < 0.1, "general sd {sg}");
    }

    #[test]
    fn special_types_come_in_bursts_and_utilities_cover_every_level() {
        let s = synthetic(&SyntheticParams::default(), 3, 1).unwrap();
        // A special type's busiest hour holds far more than its average.
        let special = 99;
        let mut per_hour = [0u32; 26];
        for t in s.tasks.iter().filter(|t| t.task_type == special) {
            per_hour[(t.arrival / 3600.0) as usize] += 1;
        }
        let mean = per_hour.iter().sum::<u32>() as f64 / 26.0;
        let max = *per_hour.iter().max().unwrap() as f64;
        assert!(max > 3.0 * mean, "max {max}, mean {mean}");
        for p in PRIORITIES {
            let n = s.tasks.iter().filter(|t| t.spec.priority == p).count();
            assert!(n as f64 > 0.23 * s.tasks.len() as f64);
        }
        for c in 1..=CLASS_COUNT {
            assert!(s.tasks.iter().any(|t| t.spec.class == c));
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_trial_and_another_trial_another() {
        let p = SyntheticParams::default();
        assert_eq!(synthetic(&p, 5, 2).unwrap(), synthetic(&p, 5, 2).unwrap());
        assert_ne!(synthetic(&p, 5, 2).unwrap(), synthetic(&p, 5, 3).unwrap());
    }

    #[test]
    fn nonsense_parameters_name_their_flag() {
        let p = SyntheticParams {
            tasks_per_day: 0.0,
            ..SyntheticParams::default()
        };
        assert!(
            synthetic(&p, 1, 0)
                .unwrap_err()
                .to_string()
                .contains("--tasks-per-day")
        );
        let p = SyntheticParams {
            event_interval_s: 0.0,
            ..SyntheticParams::default()
        };
        assert!(
            synthetic(&p, 1, 0)
                .unwrap_err()
                .to_string()
                .contains("--event-interval")
        );
    }
}
