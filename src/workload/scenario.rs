//! One scenario of environment A: a day of a log on a generated
//! heterogeneous system, with ETC rows and value functions (Khemka et al.
//! 2015, "soft and hard deadlines", §V).
//!
//! Random streams: the scenario seed is derived from the user's seed and the
//! day's midnight, so a day gets the same scenario whichever other days run
//! and on however many threads. Three streams are derived from it: 1 for the
//! system, 2 for the ETC rows, 3 for the value functions. Every task consumes
//! the same draws whatever the variant, so variants of one axis share
//! everything else (common random numbers).

use rand::RngExt;

use super::days::{DAY_SECONDS, DayWindow, WARMUP_SECONDS, Workload};
use super::seeds::{ScenarioKey, scenario_seed};
use crate::model::etc::{self, CovError};
use crate::model::rng::stream;
use crate::model::system::SystemSizeError;
use crate::model::{System, Task, ValueFunction};

/// Oversubscription level: the mean system size as a fraction of the log's
/// processor count (docs/parallel.md).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Oversubscription {
    /// 25 % of the log's processors.
    Lower,
    /// 20 % (the default).
    Intermediate,
    /// 15 %.
    Higher,
}

impl Oversubscription {
    /// Fraction of the log's processors the system gets on average.
    pub fn fraction(self) -> f64 {
        match self {
            Oversubscription::Lower => 0.25,
            Oversubscription::Intermediate => 0.20,
            Oversubscription::Higher => 0.15,
        }
    }
}

/// Correlation between a task's starting value and its execution time.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Correlation {
    /// Starting value = the interpolated mean, no noise.
    Exact,
    /// Gamma draw with COV 2.5 around the interpolated mean (the default).
    Weak,
    /// U(1, 100), independent of execution time.
    None,
}

/// ETC heterogeneity: the COV of the non-logged ETC columns.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Heterogeneity {
    /// COV 0.01.
    Low,
    /// COV 0.3 (the default).
    Intermediate,
    /// COV 1.0.
    High,
}

impl Heterogeneity {
    /// Coefficient of variation of the drawn ETC columns.
    pub fn cov(self) -> f64 {
        match self {
            Heterogeneity::Low => 0.01,
            Heterogeneity::Intermediate => 0.3,
            Heterogeneity::High => 1.0,
        }
    }
}

macro_rules! display_lowercase {
    ($t:ty) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let s = format!("{:?}", self).to_lowercase();
                f.write_str(&s)
            }
        }
    };
}
display_lowercase!(Oversubscription);
display_lowercase!(Correlation);
display_lowercase!(Heterogeneity);

/// Parameters of scenario generation; defaults are the paper's.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScenarioParams {
    /// System size level.
    pub oversubscription: Oversubscription,
    /// Value/time correlation.
    pub correlation: Correlation,
    /// ETC heterogeneity.
    pub heterogeneity: Heterogeneity,
    /// Base of the system size, cores; `None` = the log's MaxProcs. (The
    /// paper used Curie's 92,160 thin and fat cores; MaxProcs is 93,312.)
    pub cores_base: Option<f64>,
}

impl ScenarioParams {
    /// The mean system size of `workload` under these parameters, cores:
    /// the oversubscription level's share of `cores_base` (default the
    /// log's MaxProcs).
    pub fn target_cores(&self, workload: &Workload) -> f64 {
        self.oversubscription.fraction() * self.cores_base.unwrap_or(workload.max_procs)
    }
}

/// A scenario that cannot be generated.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// The system size is out of range.
    #[error(transparent)]
    System(#[from] SystemSizeError),
    /// An ETC or value draw got degenerate parameters.
    #[error(transparent)]
    Draw(#[from] CovError),
}

impl Default for ScenarioParams {
    fn default() -> Self {
        ScenarioParams {
            oversubscription: Oversubscription::Intermediate,
            correlation: Correlation::Weak,
            heterogeneity: Heterogeneity::Intermediate,
            cores_base: None,
        }
    }
}

/// A scenario: one day of a log on one generated system.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The counted day.
    pub day: DayWindow,
    /// The scenario seed (derived from the user's seed and the day).
    pub seed: u64,
    /// The generated system.
    pub system: System,
    /// The mean system size asked for: the oversubscription level's share
    /// of the base (cores).
    pub target_cores: f64,
    /// The system size drawn around it (gamma, COV 0.05), cores; the
    /// system's realised total is within 1 % of it.
    pub drawn_cores: u64,
    /// Tasks by arrival (then job number): 4 h of warm-up, then the 24 h
    /// whose tasks are counted.
    pub tasks: Vec<Task>,
    /// The parameters used.
    pub params: ScenarioParams,
}

impl super::seeds::Seeded for Scenario {
    fn scenario_seed(&self) -> Option<u64> {
        Some(self.seed)
    }
}

/// Value-interpolation anchors (docs/parallel.md): mean starting value 5 at 1 s of
/// average execution time, 50 at the longest run time of the log.
const VALUE_AT_ONE_SECOND: f64 = 5.0;
const VALUE_AT_LONGEST: f64 = 50.0;

/// Mean starting value for a task whose average execution time is
/// `avg_etc` s, in a log whose longest run time is `max_run` s: linear from
/// 5 to 50, clamped to that range.
pub fn interpolated_value(avg_etc: f64, max_run: f64) -> f64 {
    if max_run <= 1.0 {
        return VALUE_AT_ONE_SECOND;
    }
    let x = ((avg_etc - 1.0) / (max_run - 1.0)).clamp(0.0, 1.0);
    VALUE_AT_ONE_SECOND + x * (VALUE_AT_LONGEST - VALUE_AT_ONE_SECOND)
}

impl Scenario {
    /// Builds the scenario of `day` of `workload` with user seed `seed`.
    ///
    /// # Errors
    /// [`ScenarioError`]: a system size out of range
    /// ([`ScenarioParams::target_cores`]), or a degenerate ETC or value
    /// draw.
    pub fn build(
        workload: &Workload,
        day: &DayWindow,
        params: ScenarioParams,
        seed: u64,
    ) -> Result<Scenario, ScenarioError> {
        let scenario_seed = scenario_seed(seed, ScenarioKey::Day(day.start));
        let target_cores = params.target_cores(workload);
        let mut rng_system = stream(scenario_seed, 1);
        let (system, drawn_cores) = System::generate(&mut rng_system, target_cores)?;
        let n_clusters = system.clusters.len();

        let mut rng_etc = stream(scenario_seed, 2);
        let mut rng_value = stream(scenario_seed, 3);
        let jobs = workload.jobs_between(day.start - WARMUP_SECONDS, day.start + DAY_SECONDS);
        let mut tasks = Vec::with_capacity(jobs.len());
        for job in jobs {
            let etc = etc::etc_row(
                &mut rng_etc,
                job.run_time,
                n_clusters,
                params.heterogeneity.cov(),
            )?;
            let avg = etc.iter().sum::<f64>() / n_clusters as f64;
            let mean_value = interpolated_value(avg, workload.max_run_time);
            // Fixed draw order whatever the variant.
            let noisy = etc::draw(&mut rng_value, mean_value, 2.5)?;
            let uniform: f64 = rng_value.random_range(1.0..100.0);
            let final_fraction: f64 = rng_value.random_range(0.01..0.8);
            let soft_factor: f64 = rng_value.random_range(0.9..1.2);
            let hard_factor: f64 = rng_value.random_range(0.0..1.5);
            let start_value = match params.correlation {
                Correlation::Exact => mean_value,
                Correlation::Weak => noisy.clamp(1.0, 100.0),
                Correlation::None => uniform,
            };
            let soft_deadline = job.submit_time + soft_factor * avg;
            let hard_deadline = soft_deadline + hard_factor * avg;
            tasks.push(Task {
                job_number: job.job_number,
                arrival: job.submit_time,
                cores: job.processors as u32,
                etc,
                value: ValueFunction::Linear {
                    start_value,
                    final_value: start_value * final_fraction,
                    soft_deadline,
                    hard_deadline,
                },
                counted: job.submit_time >= day.start,
                owner: crate::model::task::Owner::of(job),
            });
        }
        Ok(Scenario {
            day: day.clone(),
            seed: scenario_seed,
            system,
            target_cores,
            drawn_cores,
            tasks,
            params,
        })
    }

    /// Counted tasks wider than every cluster of the system: they fit
    /// nowhere, earn nothing and are dropped at their first mapping event.
    pub fn too_wide(&self) -> usize {
        let widest = self
            .system
            .clusters
            .iter()
            .map(|c| u64::from(c.nodes) * u64::from(c.cores_per_node))
            .max()
            .unwrap_or(0);
        self.tasks
            .iter()
            .filter(|t| t.counted && u64::from(t.cores) > widest)
            .count()
    }

    /// Number of counted tasks.
    pub fn counted(&self) -> usize {
        self.tasks.iter().filter(|t| t.counted).count()
    }

    /// The maximum value bound: the sum of the starting values of the
    /// counted tasks (value units).
    pub fn value_bound(&self) -> f64 {
        self.tasks
            .iter()
            .filter(|t| t.counted)
            .map(|t| t.value.start_value())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_runs_from_5_to_50() {
        assert_eq!(interpolated_value(1.0, 1001.0), 5.0);
        assert_eq!(interpolated_value(1001.0, 1001.0), 50.0);
        assert_eq!(interpolated_value(501.0, 1001.0), 27.5);
        assert_eq!(interpolated_value(0.1, 1001.0), 5.0);
        assert_eq!(interpolated_value(5000.0, 1001.0), 50.0);
    }
}
