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
use crate::env::serial::workload::WorkloadError;
use crate::model::rng::{ChaCha8Rng, derive_seed, stream};
use crate::model::utility::{CLASS_COUNT, Shape, Urgency, UtilitySpec, theta_for};

/// Seconds in a day: the period of the general types' sinusoid.
const DAY_S: f64 = 24.0 * 3600.0;

/// The priorities a task's utility is drawn from, uniformly (value units;
/// Khemka et al., §IV.B).
pub const PRIORITIES: [f64; 4] = [8.0, 4.0, 2.0, 1.0];
/// A special type's arrival rate outside its bursts, relative to λ̄.
pub const SPECIAL_BASE_RATE: f64 = 0.25;
/// A special type's arrival rate during a burst, relative to λ̄.
pub const SPECIAL_BURST_RATE: f64 = 3.75;
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

/// The fraction of time at least one burst of a special type is on: bursts
/// start as a Poisson process of rate r and last an exponential of mean d,
/// so (as for an M/M/∞ queue) 1 − e^(−r·d).
pub fn burst_coverage() -> f64 {
    1.0 - (-SPECIAL_BURSTS_PER_DAY * SPECIAL_BURST_MEAN_S / DAY_S).exp()
}

/// λ̄, tasks per second of a general type, such that the expected total
/// over the day is `tasks_per_day`: general types average λ̄, special
/// types 0.25·λ̄ + 3.5·λ̄·[`burst_coverage`] (≈ 0.53·λ̄), so λ̄ ≈ 348 a day
/// by default.
pub fn lambda_bar(tasks_per_day: f64, general: usize, special: usize) -> f64 {
    let special_factor =
        SPECIAL_BASE_RATE + (SPECIAL_BURST_RATE - SPECIAL_BASE_RATE) * burst_coverage();
    tasks_per_day / (general as f64 + special as f64 * special_factor) / DAY_S
}

/// The bursts of a special type over `[0, horizon)`: start times of a
/// Poisson process, exponential lengths (one stream, in that order).
fn bursts(rng: &mut ChaCha8Rng, horizon: f64) -> Vec<(f64, f64)> {
    let rate = SPECIAL_BURSTS_PER_DAY / DAY_S;
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

/// Synthetic trial `trial` of seed `seed` (Khemka et al., §IV;
/// docs/energy.md):
///
/// * trial seed `derive_seed(seed, trial)`; the matrices
///   [`Matrices::draw`] of it;
/// * arrivals over the 26 simulated hours, rounded down to whole seconds:
///   a general type by the rate λ̄·(1 + 0.5·sin(2πt/24 h + φ)), φ uniform;
///   a special type by 0.25·λ̄, or 3.75·λ̄ while one of its bursts is on
///   (bursts start 4 times a day on average and last an exponential 30 min
///   on average); both sampled by thinning; λ̄ from [`lambda_bar`];
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
    let trial_seed = derive_seed(seed, trial);
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
        let (phase, on) = if is_special {
            (0.0, bursts(&mut arrivals, horizon))
        } else {
            (arrivals.random::<f64>() * TAU, Vec::new())
        };
        let lambda_max = if is_special {
            SPECIAL_BURST_RATE * lambda
        } else {
            1.5 * lambda
        };
        let mut t = 0.0;
        loop {
            let e: f64 = arrivals.sample(Exp1);
            t += e / lambda_max;
            if t >= horizon {
                break;
            }
            let u: f64 = arrivals.random();
            let rate = if is_special {
                if on.iter().any(|&(a, b)| a <= t && t < b) {
                    SPECIAL_BURST_RATE * lambda
                } else {
                    SPECIAL_BASE_RATE * lambda
                }
            } else {
                lambda * (1.0 + 0.5 * (TAU * t / DAY_S + phase).sin())
            };
            if u * lambda_max >= rate {
                continue;
            }
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
