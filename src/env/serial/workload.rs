//! Workloads of environment B: the synthetic bursty trials of Machovec et
//! al. (IPDPSW 2017, §IV) and one day of an SWF log as serial tasks
//! (Machovec et al. 2017, §IV; docs/serial.md, "Synthetic workload").
//!
//! Every draw comes from a seeded stream ([`crate::model::rng::stream`]) of
//! the trial (or day) seed, one stream per purpose, so that the paper's
//! variants share everything they do not change (common random numbers):
//!
//! | stream | synthetic trial | SWF day |
//! |---|---|---|
//! | system | cores per cluster (gamma) | cluster weights (gamma) |
//! | ETC | reference cluster and gamma draws, per type | the same, per job |
//! | arrivals | one per type: phase φ_i, then the thinned Poisson process | – (the log's submit times) |
//! | burst sizes | one per type | – (one task per burst) |
//! | utility | one per type: urgency and class per burst | urgency and class per job |
//! | critical | – (types 0..critical_types are critical) | one uniform per job |
//! | flags | two uniforms per task, in job-number order | the same |
//!
//! So a change of the flag probability changes neither arrivals nor
//! utilities (and the tasks allowed to preempt at p = 0.2 are among those
//! allowed at p = 0.4); a change of shape changes only the utility
//! functions; a change of the critical mean ETC scales the critical types'
//! ETC rows and their utility functions, nothing else.

use std::f64::consts::TAU;

use rand::RngExt;
use rand_distr::Exp1;

use super::{SerialScenario, SerialTask, TaskType, WARMUP_SECONDS, WINDOW_SECONDS};
use crate::model::etc::{self, CovError};
use crate::model::rng::{ChaCha8Rng, stream};
use crate::model::utility::{Shape, Urgency, UtilitySpec, theta_for};
use crate::units::SECONDS_PER_DAY;
use crate::workload::seeds::{ScenarioKey, scenario_seed};
use crate::workload::{DayWindow, Workload, WorkloadError};

/// The smallest offered load of a log's day (`--load`): 0.001, a system a
/// thousand times the day's work. The system is sized from it, so a load
/// near 0 would ask for billions of cores.
pub const MIN_LOAD: f64 = 1e-3;

/// The most cores a log's day is given ([`from_day`]): 1,000,000, as in
/// environment A ([`crate::model::system::MAX_SYSTEM_CORES`]). The engine
/// keeps a state per core.
pub const MAX_LOG_CORES: u64 = 1_000_000;

/// The most tasks a workload may have: 10 million (about 140 times the
/// paper's default of ≈ 70,000 over 28 h; each task holds about 200 bytes).
pub const MAX_TASKS: usize = 10_000_000;

/// Priority P of a critical task (Machovec et al., §IV.C).
pub const CRITICAL_PRIORITY: f64 = 8.0;
/// Priority P of a non-critical task (Machovec et al., §IV.C).
pub const NONCRITICAL_PRIORITY: f64 = 1.0;
/// Width of a non-critical task's step, in multiples of its mean ETC ē
/// (Machovec et al., §IV.C; a critical task's step is ē wide).
pub const NONCRITICAL_STEP_FACTOR: f64 = 10.0;
/// The urgencies a non-critical task's utility is drawn from, uniformly
/// (a critical task's is [`Urgency::Extreme`]).
pub const NONCRITICAL_URGENCIES: [Urgency; 3] = [Urgency::High, Urgency::Medium, Urgency::Low];
/// COV of the ETC draw on a type's reference cluster (Machovec et al.,
/// §IV.C).
pub const TYPE_ETC_COV: f64 = 0.1;
/// COV of the ETC draws on the other clusters around the reference one
/// (the COV method, Machovec et al., §IV.C).
pub const CLUSTER_ETC_COV: f64 = 0.3;
/// Smallest ETC, s: draws are floored here so that every ETC is positive.
pub const MIN_ETC_S: f64 = 1e-3;

// Stream labels (see the module documentation). Per-type streams add the
// type index to their base.
const STREAM_SYSTEM: u64 = 1;
const STREAM_ETC: u64 = 2;
const STREAM_FLAGS: u64 = 3;
const STREAM_CRITICAL: u64 = 4;
const STREAM_UTILITY: u64 = 5;
const STREAM_ARRIVALS: u64 = 1 << 32;
const STREAM_BURST_SIZES: u64 = 2 << 32;
const STREAM_TYPE_UTILITY: u64 = 3 << 32;

fn bad(flag: &'static str, value: impl ToString, reason: impl Into<String>) -> WorkloadError {
    WorkloadError::Parameter {
        flag,
        value: value.to_string(),
        reason: reason.into(),
    }
}

fn check_positive(flag: &'static str, value: f64, what: &str) -> Result<(), WorkloadError> {
    if value.is_finite() && value > 0.0 {
        Ok(())
    } else {
        Err(bad(
            flag,
            value,
            format!("{what} must be a positive number"),
        ))
    }
}

/// A fixed θ, given in minutes (`--theta`, `theta` of `[serial]`) and held
/// in seconds: a positive finite number of minutes (none: θ scales with
/// each task's mean ETC).
fn check_theta(theta_s: Option<f64>) -> Result<(), WorkloadError> {
    let Some(theta_s) = theta_s else {
        return Ok(());
    };
    if theta_s.is_finite() && theta_s > 0.0 {
        Ok(())
    } else {
        Err(bad(
            "--theta",
            theta_s / 60.0,
            "the urgency time constant θ must be a positive number of minutes",
        ))
    }
}

fn check_probability(flag: &'static str, p: f64) -> Result<(), WorkloadError> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(bad(
            flag,
            p,
            "a probability is between 0 and 1 (or 0% and 100%, e.g. 0.4 or 40%)",
        ))
    }
}

/// Parameters of a synthetic trial of environment B. The defaults are the
/// paper's (Machovec et al., IPDPSW 2017, §IV.B–C).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SyntheticParams {
    /// Number of clusters (5, §IV.B).
    pub clusters: usize,
    /// Mean cores per cluster (160, §IV.B).
    pub mean_cores: u32,
    /// COV of the cores-per-cluster gamma draw (0.2).
    pub cores_cov: f64,
    /// `false`: each cluster's cores are a gamma draw (mean `mean_cores`,
    /// COV `cores_cov`), rounded, at least 1; `true`: exactly `mean_cores`
    /// each (`--fixed-cores`).
    pub fixed_cores: bool,
    /// Number of task types (100).
    pub types: usize,
    /// How many of them are critical (20): types `0..critical_types`.
    pub critical_types: usize,
    /// Mean execution time of a critical type, s (600 = 10 min,
    /// `--critical-etc` in minutes).
    pub critical_etc_s: f64,
    /// Mean execution time of a non-critical type, s (3,000 = 50 min).
    pub noncritical_etc_s: f64,
    /// Mean burst size B̄, tasks (64, `--burst-size`): a burst has B tasks,
    /// B uniform in ⌈B̄/2⌉..=⌊1.5·B̄⌋.
    pub burst_size: u32,
    /// Mean arrivals per core per 24 h, tasks (75, §IV.C).
    pub tasks_per_core_day: f64,
    /// The utility shape (`--shape`; default the twenty classes).
    pub shape: Shape,
    /// Probability that a task may preempt, and independently that it may
    /// be preempted (1.0, `--flag-probability`).
    pub flag_probability: f64,
    /// A fixed urgency time constant θ, s (`--theta` in minutes); `None`
    /// (the default): θ = [`crate::model::utility::THETA_PER_MEAN_ETC`] × each task's mean ETC
    /// (docs/utility.md).
    pub theta_s: Option<f64>,
    /// Seconds between mapping events (60, §III.A).
    pub event_interval_s: f64,
}

impl Default for SyntheticParams {
    fn default() -> Self {
        SyntheticParams {
            clusters: 5,
            mean_cores: 160,
            cores_cov: 0.2,
            fixed_cores: false,
            types: 100,
            critical_types: 20,
            critical_etc_s: 600.0,
            noncritical_etc_s: 3000.0,
            burst_size: 64,
            tasks_per_core_day: 75.0,
            shape: Shape::Classes,
            flag_probability: 1.0,
            theta_s: None,
            event_interval_s: super::EVENT_INTERVAL_S,
        }
    }
}

impl SyntheticParams {
    /// Checks every parameter.
    ///
    /// # Errors
    /// [`WorkloadError::Parameter`] naming the flag (or field) of the first
    /// bad one; [`WorkloadError::TooManyTasks`] when the expected workload
    /// exceeds [`MAX_TASKS`].
    pub fn validate(&self) -> Result<(), WorkloadError> {
        if self.clusters == 0 {
            return Err(bad("clusters", 0, "a system has at least one cluster"));
        }
        if self.mean_cores == 0 {
            return Err(bad("mean_cores", 0, "a cluster has at least one core"));
        }
        check_positive("cores_cov", self.cores_cov, "the COV of the cluster sizes")?;
        if self.types == 0 || self.types > MAX_TASKS {
            return Err(bad(
                "types",
                self.types,
                format!("a workload has 1 to {MAX_TASKS} task types"),
            ));
        }
        if self.critical_types > self.types {
            return Err(bad(
                "critical_types",
                self.critical_types,
                format!("at most the number of types ({})", self.types),
            ));
        }
        if !(self.critical_etc_s.is_finite() && self.critical_etc_s > 0.0) {
            return Err(bad(
                "--critical-etc",
                self.critical_etc_s / 60.0,
                "the critical types' mean execution time must be a positive number of minutes",
            ));
        }
        check_positive(
            "noncritical_etc_s",
            self.noncritical_etc_s,
            "the non-critical types' mean execution time (s)",
        )?;
        if self.burst_size == 0 {
            return Err(bad(
                "--burst-size",
                0,
                "a burst has at least one task; give 1 or more (the paper uses 1 to 128)",
            ));
        }
        check_positive(
            "tasks_per_core_day",
            self.tasks_per_core_day,
            "the arrivals per core and day",
        )?;
        check_probability("--flag-probability", self.flag_probability)?;
        check_theta(self.theta_s)?;
        check_positive(
            "event_interval_s",
            self.event_interval_s,
            "the mapping-event interval (s)",
        )?;
        let hours = (WARMUP_SECONDS + WINDOW_SECONDS) / SECONDS_PER_DAY;
        let expected =
            self.tasks_per_core_day * self.clusters as f64 * f64::from(self.mean_cores) * hours;
        if expected > MAX_TASKS as f64 {
            return Err(WorkloadError::TooManyTasks {
                what: format!("about {expected:.0}"),
                limit: MAX_TASKS,
            });
        }
        Ok(())
    }
}

/// The burst sizes of mean `burst_size` B̄: `⌈B̄/2⌉..=⌊1.5·B̄⌋` tasks
/// (Machovec et al., §IV.C: "between 32 and 96, inclusive" for 64; 1 for 1).
pub fn burst_size_range(burst_size: u32) -> (u64, u64) {
    let b = u64::from(burst_size);
    (b.div_ceil(2), (3 * b) / 2)
}

/// The utility of a burst (or a job): what it was drawn as.
///
/// `urgency_index` and `class` are drawn whatever the shape and
/// criticality, so every shape sees the same draws.
fn utility_spec(
    shape: Shape,
    critical: bool,
    mean_etc: f64,
    fixed_theta: Option<f64>,
    urgency_index: usize,
    class: u8,
) -> UtilitySpec {
    let theta = theta_for(mean_etc, fixed_theta);
    let (priority, urgency) = if critical {
        (CRITICAL_PRIORITY, Urgency::Extreme)
    } else {
        (
            NONCRITICAL_PRIORITY,
            NONCRITICAL_URGENCIES[urgency_index % NONCRITICAL_URGENCIES.len()],
        )
    };
    match shape {
        Shape::Step => UtilitySpec {
            shape,
            class: 0,
            priority,
            urgency,
            scale: if critical {
                mean_etc
            } else {
                NONCRITICAL_STEP_FACTOR * mean_etc
            },
            theta,
        },
        Shape::Decaying => UtilitySpec {
            shape,
            class: 0,
            priority,
            urgency: Urgency::Medium,
            scale: mean_etc,
            theta,
        },
        Shape::Classes => UtilitySpec {
            shape,
            class,
            priority,
            urgency,
            scale: mean_etc,
            theta,
        },
    }
}

/// Draws the urgency index and class of one burst or job (two draws, in
/// this order, whatever the shape).
fn draw_utility(rng: &mut ChaCha8Rng) -> (usize, u8) {
    let urgency = rng.random_range(0..NONCRITICAL_URGENCIES.len());
    let class = rng.random_range(1..=crate::model::utility::CLASS_COUNT);
    (urgency, class)
}

/// An ETC row by the COV method: a uniform reference cluster gets `base`
/// (already drawn), every other cluster a gamma draw around it with COV
/// [`CLUSTER_ETC_COV`]. Draw order: the reference index, then one gamma per
/// other cluster in index order.
fn etc_row(
    rng: &mut ChaCha8Rng,
    clusters: usize,
    base: impl FnOnce(&mut ChaCha8Rng) -> Result<f64, CovError>,
) -> Result<Vec<f64>, CovError> {
    let reference = rng.random_range(0..clusters);
    let base = base(rng)?.max(MIN_ETC_S);
    let gamma = etc::gamma_mean_cov(base, CLUSTER_ETC_COV)?;
    let mut row = Vec::with_capacity(clusters);
    for j in 0..clusters {
        if j == reference {
            row.push(base);
        } else {
            row.push(rand_distr::Distribution::sample(&gamma, rng).max(MIN_ETC_S));
        }
    }
    Ok(row)
}

/// Preemption flags of `tasks` (in job-number order): two uniforms u₁, u₂
/// per task from the flags stream; can-preempt is u₁ < p, preemptible
/// u₂ < p, so the sets are nested in p.
fn draw_flags(tasks: &mut [SerialTask], seed: u64, p: f64) {
    let mut rng = stream(seed, STREAM_FLAGS);
    for t in tasks {
        let u1: f64 = rng.random();
        let u2: f64 = rng.random();
        t.can_preempt = u1 < p;
        t.preemptible = u2 < p;
    }
}

/// One burst before numbering.
struct Burst {
    arrival: f64,
    task_type: usize,
    size: u64,
    spec: UtilitySpec,
}

/// Synthetic trial `trial` of seed `seed`: the system, the task types
/// with their ETC and the bursty workload of Machovec et al. (IPDPSW 2017,
/// §IV.B–C; docs/serial.md, "Synthetic workload").
///
/// * Trial seed `derive_seed(seed, trial)` ([`scenario_seed`]); one stream per purpose (module
///   documentation).
/// * System: `clusters` clusters, each a gamma draw (mean `mean_cores`,
///   COV `cores_cov`) rounded, at least 1 core, or exactly `mean_cores`.
/// * Types `0..critical_types` are critical (mean ETC `critical_etc_s`),
///   the others not (`noncritical_etc_s`); per type a uniform reference
///   cluster gets a gamma draw (COV 0.1) of the mean, every other cluster a
///   gamma draw (COV 0.3) around that value.
/// * Bursts per type over `[0, 28 h)`: a Poisson process of rate
///   λ_i(t) = λ̄_i·(1 + 0.5·sin(2πt/24 h + φ_i)), φ_i uniform in [0, 2π),
///   sampled by thinning, with λ̄_i = `tasks_per_core_day` × total cores /
///   `types` / mean burst size per 24 h; arrivals rounded down to whole
///   seconds; sizes uniform in [`burst_size_range`].
/// * Utility once per burst: critical P = 8 at extreme urgency, otherwise
///   P = 1 at high, medium or low urgency (uniform); step widths ē and
///   10·ē, the decaying class of ē, or one of the twenty classes (uniform),
///   ē the type's mean ETC over the clusters.
/// * Tasks by (arrival, type), numbered 1.. in that order; bursts 0..
///   likewise. Flags as in the module documentation.
///
/// # Errors
/// [`WorkloadError`] for bad parameters ([`SyntheticParams::validate`]) or
/// more than [`MAX_TASKS`] tasks.
pub fn synthetic(
    params: &SyntheticParams,
    seed: u64,
    trial: u64,
) -> Result<SerialScenario, WorkloadError> {
    params.validate()?;
    let trial_seed = scenario_seed(seed, ScenarioKey::Trial(trial));

    let mut rng = stream(trial_seed, STREAM_SYSTEM);
    let mut cores = Vec::with_capacity(params.clusters);
    for _ in 0..params.clusters {
        cores.push(if params.fixed_cores {
            params.mean_cores
        } else {
            let x = etc::draw(&mut rng, f64::from(params.mean_cores), params.cores_cov)?;
            x.round().clamp(1.0, f64::from(u32::MAX)) as u32
        });
    }
    let total_cores: u64 = cores.iter().map(|&c| u64::from(c)).sum();

    let mut rng = stream(trial_seed, STREAM_ETC);
    let mut types = Vec::with_capacity(params.types);
    for i in 0..params.types {
        let critical = i < params.critical_types;
        let mean = if critical {
            params.critical_etc_s
        } else {
            params.noncritical_etc_s
        };
        let etc = etc_row(&mut rng, params.clusters, |r| {
            etc::draw(r, mean, TYPE_ETC_COV)
        })?;
        types.push(TaskType { critical, etc });
    }

    let (lo, hi) = burst_size_range(params.burst_size);
    let mean_size = (lo + hi) as f64 / 2.0;
    let tasks_per_type_s =
        params.tasks_per_core_day * total_cores as f64 / params.types as f64 / SECONDS_PER_DAY;
    let lambda_bar = tasks_per_type_s / mean_size;
    let lambda_max = 1.5 * lambda_bar;
    let horizon = WARMUP_SECONDS + WINDOW_SECONDS;
    let mut bursts: Vec<Burst> = Vec::new();
    let mut total: u64 = 0;
    for (i, ty) in types.iter().enumerate() {
        let mut arrivals = stream(trial_seed, STREAM_ARRIVALS + i as u64);
        let mut sizes = stream(trial_seed, STREAM_BURST_SIZES + i as u64);
        let mut utilities = stream(trial_seed, STREAM_TYPE_UTILITY + i as u64);
        let phase = arrivals.random::<f64>() * TAU;
        let mean_etc = ty.mean_etc();
        let mut t = 0.0;
        loop {
            let e: f64 = arrivals.sample(Exp1);
            t += e / lambda_max;
            if t >= horizon || t.is_nan() {
                break;
            }
            let u: f64 = arrivals.random();
            let rate = lambda_bar * (1.0 + 0.5 * (TAU * t / SECONDS_PER_DAY + phase).sin());
            if u * lambda_max >= rate {
                continue;
            }
            let size = sizes.random_range(lo..=hi);
            let (urgency, class) = draw_utility(&mut utilities);
            total += size;
            if total > MAX_TASKS as u64 {
                return Err(WorkloadError::TooManyTasks {
                    what: format!("at least {total}"),
                    limit: MAX_TASKS,
                });
            }
            bursts.push(Burst {
                arrival: t.floor(),
                task_type: i,
                size,
                spec: utility_spec(
                    params.shape,
                    ty.critical,
                    mean_etc,
                    params.theta_s,
                    urgency,
                    class,
                ),
            });
        }
    }
    // Stable: two bursts of one type in the same second keep their order.
    bursts.sort_by(|a, b| {
        a.arrival
            .total_cmp(&b.arrival)
            .then(a.task_type.cmp(&b.task_type))
    });

    let mut tasks = Vec::with_capacity(total as usize);
    for (b, burst) in bursts.iter().enumerate() {
        let utility = burst.spec.build()?;
        for _ in 0..burst.size {
            tasks.push(SerialTask {
                job_number: tasks.len() as i64 + 1,
                arrival: burst.arrival,
                task_type: burst.task_type,
                burst: b,
                utility,
                spec: burst.spec,
                can_preempt: false,
                preemptible: false,
                owner: crate::model::Owner::UNKNOWN,
            });
        }
    }
    draw_flags(&mut tasks, trial_seed, params.flag_probability);

    Ok(SerialScenario {
        name: format!("trial-{trial}"),
        seed: trial_seed,
        cores,
        types,
        tasks,
        window: (WARMUP_SECONDS, WARMUP_SECONDS + WINDOW_SECONDS),
        event_interval: params.event_interval_s,
        origin: 0.0,
    })
}

/// Parameters of an SWF log day as a workload of environment B (docs/serial.md,
/// "The same draws on a day of an SWF log").
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogParams {
    /// Offered load of the day: Σ mean ETC of the tasks arriving in the
    /// counted 24 h / (cores × 24 h) (2.2, the synthetic default's ratio:
    /// 75 tasks per core and day × their mean ETC of 42 min / 1,440 min).
    pub load: f64,
    /// Number of clusters (5).
    pub clusters: usize,
    /// The utility shape.
    pub shape: Shape,
    /// Probability of each preemption flag (1.0).
    pub flag_probability: f64,
    /// A fixed urgency time constant θ, s (`--theta` in minutes); `None`
    /// (the default): θ = [`crate::model::utility::THETA_PER_MEAN_ETC`] × each task's mean ETC.
    pub theta_s: Option<f64>,
    /// Share of the jobs that are critical (0.2, drawn per job).
    pub critical_fraction: f64,
    /// Seconds between mapping events (60).
    pub event_interval_s: f64,
}

impl Default for LogParams {
    fn default() -> Self {
        LogParams {
            load: 2.2,
            clusters: 5,
            shape: Shape::Classes,
            flag_probability: 1.0,
            theta_s: None,
            critical_fraction: 0.2,
            event_interval_s: super::EVENT_INTERVAL_S,
        }
    }
}

impl LogParams {
    /// Checks every parameter.
    ///
    /// # Errors
    /// [`WorkloadError::Parameter`] naming the flag (or field) of the first
    /// bad one.
    pub fn validate(&self) -> Result<(), WorkloadError> {
        check_positive("--load", self.load, "the offered load")?;
        if self.load < MIN_LOAD {
            return Err(bad(
                "--load",
                self.load,
                format!(
                    "the offered load must be at least {MIN_LOAD} (the system is sized from it: a smaller load asks for a system over a thousand times the day's work)"
                ),
            ));
        }
        if self.clusters == 0 {
            return Err(bad("clusters", 0, "a system has at least one cluster"));
        }
        check_probability("--flag-probability", self.flag_probability)?;
        check_probability("critical_fraction", self.critical_fraction)?;
        check_theta(self.theta_s)?;
        check_positive(
            "event_interval_s",
            self.event_interval_s,
            "the mapping-event interval (s)",
        )
    }
}

/// The cores of a log's day: `offered` (the day's mean ETC summed, s)
/// over `load` × 24 h, rounded, and at least one per cluster.
///
/// # Errors
/// More than [`MAX_LOG_CORES`] (or not a number): the cores asked for.
fn day_cores(offered: f64, load: f64, clusters: usize) -> Result<u64, f64> {
    let target = offered / (load * WINDOW_SECONDS);
    if target <= MAX_LOG_CORES as f64 {
        Ok((target.round() as u64).max(clusters as u64))
    } else {
        Err(target)
    }
}

/// `total` cores over clusters in proportion to `weights` (positive),
/// by largest remainder (ties to the lower index), each at least 1 (the
/// largest cluster gives up a core when one would have none); `total` ≥
/// the number of weights.
fn apportion(total: u64, weights: &[f64]) -> Vec<u32> {
    let sum: f64 = weights.iter().sum();
    let shares: Vec<f64> = weights.iter().map(|w| total as f64 * w / sum).collect();
    let mut cores: Vec<u64> = shares.iter().map(|s| s.floor() as u64).collect();
    let assigned: u64 = cores.iter().sum();
    let mut order: Vec<usize> = (0..weights.len()).collect();
    order.sort_by(|&a, &b| {
        (shares[b] - shares[b].floor())
            .total_cmp(&(shares[a] - shares[a].floor()))
            .then(a.cmp(&b))
    });
    for &j in order
        .iter()
        .cycle()
        .take(total.saturating_sub(assigned) as usize)
    {
        cores[j] += 1;
    }
    while let Some(empty) = cores.iter().position(|&c| c == 0) {
        let largest = (0..cores.len())
            .max_by(|&a, &b| cores[a].cmp(&cores[b]).then(b.cmp(&a)))
            .unwrap_or(empty);
        if cores[largest] < 2 {
            break;
        }
        cores[largest] -= 1;
        cores[empty] = 1;
    }
    cores
        .into_iter()
        .map(|c| c.clamp(1, u64::from(u32::MAX)) as u32)
        .collect()
}

/// Day `day` of log `w` as a scenario of environment B with user seed
/// `seed` (docs/serial.md, "The same draws on a day of an SWF log").
///
/// * Scenario seed `derive_seed(seed, day.start.to_bits())`
///   ([`scenario_seed`]), as environment A derives a day's seed, so both environments see a day
///   the same way whichever other days run.
/// * The jobs of `[day.start − 4 h, day.start + 24 h)`; scenario time 0 is
///   `day.start − 4 h` ([`SerialScenario::origin`]), the counted window
///   `[4 h, 28 h)`; arrivals are the submit times minus the origin (exact:
///   SWF times are whole seconds).
/// * Each job one serial task of its own type and burst: its run time is
///   the ETC on a uniform reference cluster, every other cluster a gamma
///   draw around it (COV 0.3). A job is critical when a uniform draw is
///   below `critical_fraction`; utility as in [`synthetic`].
/// * Cores: C = Σ over the tasks arriving in the counted 24 h of their
///   mean ETC / (`load` × 24 h), rounded (at least one per cluster), split
///   over the clusters in proportion to gamma weights (mean 1, COV 0.2) by
///   largest remainder, each at least 1.
///
/// # Errors
/// [`WorkloadError::Parameter`] for bad parameters;
/// [`WorkloadError::EmptyDay`] when no job arrives in the counted 24 h.
pub fn from_day(
    w: &Workload,
    day: &DayWindow,
    params: &LogParams,
    seed: u64,
) -> Result<SerialScenario, WorkloadError> {
    params.validate()?;
    let scenario_seed = scenario_seed(seed, ScenarioKey::Day(day.start));
    let origin = day.start - WARMUP_SECONDS;
    let jobs = w.jobs_between(origin, day.start + WINDOW_SECONDS);
    let n = params.clusters;
    if !jobs.iter().any(|j| j.submit_time >= day.start) {
        return Err(WorkloadError::EmptyDay {
            log: w.name.clone(),
            date: day.date.clone(),
        });
    }

    let mut rng_etc = stream(scenario_seed, STREAM_ETC);
    let mut rng_critical = stream(scenario_seed, STREAM_CRITICAL);
    let mut rng_utility = stream(scenario_seed, STREAM_UTILITY);
    let mut types = Vec::with_capacity(jobs.len());
    let mut tasks = Vec::with_capacity(jobs.len());
    let mut offered = 0.0;
    for (i, job) in jobs.iter().enumerate() {
        let etc = etc_row(&mut rng_etc, n, |_| Ok(job.run_time))?;
        let critical = rng_critical.random::<f64>() < params.critical_fraction;
        let ty = TaskType { critical, etc };
        let mean_etc = ty.mean_etc();
        if job.submit_time >= day.start {
            offered += mean_etc;
        }
        let (urgency, class) = draw_utility(&mut rng_utility);
        let spec = utility_spec(
            params.shape,
            critical,
            mean_etc,
            params.theta_s,
            urgency,
            class,
        );
        tasks.push(SerialTask {
            job_number: job.job_number,
            arrival: job.submit_time - origin,
            task_type: i,
            burst: i,
            utility: spec.build()?,
            spec,
            can_preempt: false,
            preemptible: false,
            owner: crate::model::Owner::of(job),
        });
        types.push(ty);
    }
    draw_flags(&mut tasks, scenario_seed, params.flag_probability);

    let total = day_cores(offered, params.load, n).map_err(|target| {
        bad(
            "--load",
            params.load,
            format!(
                "{}, day {}: the day's work at this load needs {target:.0} cores; swftool builds systems of at most {MAX_LOG_CORES} cores: give a larger --load",
                w.name, day.date
            ),
        )
    })?;
    let mut rng = stream(scenario_seed, STREAM_SYSTEM);
    let mut weights = Vec::with_capacity(n);
    for _ in 0..n {
        weights.push(etc::draw(&mut rng, 1.0, 0.2)?);
    }
    Ok(SerialScenario {
        name: format!("{} {}", w.name, day.date),
        seed: scenario_seed,
        cores: apportion(total, &weights),
        types,
        tasks,
        window: (WARMUP_SECONDS, WARMUP_SECONDS + WINDOW_SECONDS),
        event_interval: params.event_interval_s,
        origin,
    })
}

#[cfg(test)]
mod tests;
