//! The core of the Gymnasium environment `swftool.gym` (docs/gym.md): job
//! selection ([`super::selection`], RLScheduler's decision process, Zhang
//! et al. SC 2020) on episodes of `K` consecutive jobs of a cleaned log,
//! with an observation window, an action mask, a reward and baselines.
//! The Python package wraps [`GymEnv`] (one environment) and [`GymVec`]
//! (many, stepped in one call).
//!
//! **Episode.** `K` jobs (default 256) consecutive in submit order in the
//! cleaned log, from a start drawn uniformly among the `n − K + 1` possible
//! ones by the environment's seeded generator (or given), replayed on an
//! empty machine (RLScheduler draws among starts `K … n − K − 2` and may
//! fill the machine first; neither is done here). It ends when every job
//! has started and run (`terminated`); it is never truncated.
//!
//! **Observation** (`f32`, every value in `[0, 1]`): the first `N` waiting
//! jobs in submit order (default 128), [`JOB_FEATURES`] each, then
//! [`MACHINE_FEATURES`]; a slot with no job is all zeros. Length
//! `N × 8 + 3`. See [`JOB_FEATURES`] for each feature's normalisation.
//!
//! **Action**: the slot (position in the window) of the job to schedule;
//! slots past the waiting jobs are masked, and refused.
//!
//! **Reward** on the chosen [`Metric`] of the episode's `K` jobs: at the
//! last step (RLScheduler's), or at every step for the jobs started during
//! it ([`RewardTiming::Step`], `−metric_j / K` summed over them; the sum
//! over the episode is the same figure). Bounded slowdown and wait are
//! negated (less is better); utilisation is given as is, at the end only.

use std::sync::Arc;

use rand::RngExt;
use thiserror::Error;

use super::ClassicJob;
use super::Policy;
use super::engine::{self, ClassicRun};
use super::policies::scored::{F1, Scored, Scorer, Sjf};
use super::selection::{SelectError, Selection};
use crate::metrics::formulas::bounded_slowdown;
use crate::model::rng::{ChaCha8Rng, stream};

/// Wait normalisation, s: 12 h (RLScheduler's `MAX_WAIT_TIME`); longer
/// waits read 1.
pub const WAIT_SCALE: f64 = 43_200.0;

/// The features of one job slot, in order:
///
/// - `wait`: (now − submit) / 12 h, capped at 1;
/// - `requested_time`: the estimate / the log's largest estimate;
/// - `units`: units requested / the machine's units;
/// - `user`, `group`, `queue`: SWF fields 12, 13, 15 / the log's largest
///   (1 when the log does not give it, as RLScheduler);
/// - `fits_now`: 1 when the job's units are free now;
/// - `present`: 1 for a waiting job, 0 for an empty slot.
pub const JOB_FEATURES: [&str; 8] = [
    "wait",
    "requested_time",
    "units",
    "user",
    "group",
    "queue",
    "fits_now",
    "present",
];

/// The machine's features, after the job slots: `free_units` (units free
/// / units), `waiting` (waiting jobs / `N`, capped at 1: above 1 the window
/// hides jobs), `progress` (jobs started / `K`).
pub const MACHINE_FEATURES: [&str; 3] = ["free_units", "waiting", "progress"];

/// The stream label of the episode starts ([`stream`]).
const EPISODE_STREAM: u64 = 0x0067_796d;

/// What the reward measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Mean bounded slowdown, max(1, (wait + run) / max(run, τ)).
    Bsld,
    /// Mean wait, s.
    Wait,
    /// Busy unit-seconds of the episode's jobs / (units × (last end −
    /// first submit)).
    Utilization,
}

/// When the reward is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewardTiming {
    /// At the last step only (RLScheduler).
    End,
    /// At every step, for the jobs that started during it.
    Step,
}

/// How an environment is set up.
#[derive(Debug, Clone, PartialEq)]
pub struct GymConfig {
    /// `N`: job slots in the observation and actions.
    pub window: usize,
    /// `K`: jobs per episode.
    pub episode_jobs: usize,
    /// Reservation depth of the backfilling around the chosen job (`None`:
    /// no backfilling; [`super::selection`]).
    pub depth: Option<usize>,
    /// What the reward measures.
    pub metric: Metric,
    /// When it is given.
    pub timing: RewardTiming,
    /// τ of the bounded slowdown, s.
    pub tau: f64,
    /// Whether to replay each episode under FCFS, SJF and F1 at reset.
    pub baselines: bool,
}

impl Default for GymConfig {
    fn default() -> GymConfig {
        GymConfig {
            window: 128,
            episode_jobs: 256,
            depth: Some(1),
            metric: Metric::Bsld,
            timing: RewardTiming::End,
            tau: 10.0,
            baselines: true,
        }
    }
}

/// Why an environment cannot be made or stepped.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GymError {
    /// A setting out of its range.
    #[error("{0}")]
    Config(String),
    /// The log has fewer jobs than an episode.
    #[error(
        "the cleaned log {log} has {jobs} job(s), fewer than an episode's {episode}: lower episode_jobs"
    )]
    TooShort {
        /// The log's name.
        log: String,
        /// Its jobs after cleaning.
        jobs: usize,
        /// Jobs per episode.
        episode: usize,
    },
    /// A start past the last full episode.
    #[error("start {start} leaves fewer than {episode} jobs: starts go from 0 to {last} on {log}")]
    Start {
        /// The log's name.
        log: String,
        /// The start given.
        start: usize,
        /// Jobs per episode.
        episode: usize,
        /// The last start.
        last: usize,
    },
    /// `step` before `reset`.
    #[error("call reset() before step()")]
    NotReset,
    /// A masked action.
    #[error(
        "action {action} is masked: {waiting} job(s) wait, so the valid actions are 0..{valid} (info[\"action_mask\"])"
    )]
    Masked {
        /// The action given.
        action: usize,
        /// Jobs waiting.
        waiting: usize,
        /// Valid actions: min(waiting, N).
        valid: usize,
    },
    /// A step after the episode ended.
    #[error("the episode is over: call reset()")]
    Finished,
}

/// A log ready for episodes: its cleaned jobs in submit order, its machine
/// and the normalisations of the observation.
#[derive(Debug, Clone)]
pub struct GymLog {
    /// The log's file name.
    pub name: String,
    jobs: Vec<ClassicJob>,
    capacity: u32,
    max_estimate: f64,
    max_user: f64,
    max_group: f64,
    max_queue: f64,
}

impl GymLog {
    /// `jobs` (cleaned; put in submit order, then job number) on
    /// `capacity` units.
    pub fn new(name: &str, mut jobs: Vec<ClassicJob>, capacity: u32) -> GymLog {
        jobs.sort_by(|a, b| {
            a.submit
                .total_cmp(&b.submit)
                .then(a.job_number.cmp(&b.job_number))
        });
        let max = |f: fn(&ClassicJob) -> f64| jobs.iter().map(f).fold(0.0, f64::max);
        GymLog {
            name: name.to_string(),
            max_estimate: max(|j| j.estimate),
            max_user: max(|j| j.user as f64),
            max_group: max(|j| j.group as f64),
            max_queue: max(|j| j.queue as f64),
            jobs,
            capacity,
        }
    }

    /// The cleaned jobs, in submit order.
    pub fn jobs(&self) -> &[ClassicJob] {
        &self.jobs
    }

    /// The machine's units.
    pub fn capacity(&self) -> u32 {
        self.capacity
    }
}

/// The metric of a finished schedule: `jobs` with their starts.
fn metric_of(
    metric: Metric,
    jobs: &[ClassicJob],
    start: impl Fn(usize) -> f64,
    capacity: u32,
    tau: f64,
) -> f64 {
    let n = jobs.len() as f64;
    match metric {
        Metric::Bsld => {
            let sum: f64 = (0..jobs.len())
                .map(|i| bounded_slowdown(start(i) - jobs[i].submit, jobs[i].run, tau))
                .sum();
            sum / n
        }
        Metric::Wait => {
            (0..jobs.len())
                .map(|i| start(i) - jobs[i].submit)
                .sum::<f64>()
                / n
        }
        Metric::Utilization => {
            let first = jobs.iter().map(|j| j.submit).fold(f64::INFINITY, f64::min);
            let last = (0..jobs.len())
                .map(|i| start(i) + jobs[i].run)
                .fold(f64::NEG_INFINITY, f64::max);
            let busy: f64 = jobs.iter().map(|j| j.run * f64::from(j.size)).sum();
            crate::metrics::formulas::utilization(busy, f64::from(capacity), last - first)
        }
    }
}

/// The metric of each baseline on one episode (the metric's units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Baselines {
    /// First come, first served (submit order), with the same backfilling.
    pub fcfs: f64,
    /// Shortest estimate first, with the same backfilling.
    pub sjf: f64,
    /// F1 (Carastan-Santos & de Camargo 2017), with the same backfilling.
    pub f1: f64,
}

self_cell::self_cell!(
    struct Episode {
        owner: Vec<ClassicJob>,
        #[covariant]
        dependent: Selection,
    }
);

/// What a step gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// The reward ([`Metric`], [`RewardTiming`]).
    pub reward: f64,
    /// Whether the episode ended with this step.
    pub terminated: bool,
}

/// One environment: a log, a configuration, a seeded generator of episode
/// starts, the current episode.
pub struct GymEnv {
    log: Arc<GymLog>,
    config: GymConfig,
    rng: ChaCha8Rng,
    episode: Option<Episode>,
    start: usize,
    rewarded: usize,
    baselines: Option<Baselines>,
}

impl GymEnv {
    /// An environment over `log`, its episode starts drawn from seed
    /// `seed` until a reset gives another.
    ///
    /// # Errors
    /// [`GymError::Config`] for `window` or `episode_jobs` of 0, τ not
    /// positive, or utilisation rewarded at every step;
    /// [`GymError::TooShort`] when the log has fewer jobs than an episode.
    pub fn new(log: Arc<GymLog>, config: GymConfig, seed: u64) -> Result<GymEnv, GymError> {
        if config.window == 0 || config.episode_jobs == 0 {
            return Err(GymError::Config(format!(
                "window ({}) and episode_jobs ({}) must be at least 1",
                config.window, config.episode_jobs
            )));
        }
        if !(config.tau > 0.0 && config.tau.is_finite()) {
            return Err(GymError::Config(format!(
                "tau must be a positive number of seconds, not {}",
                config.tau
            )));
        }
        if config.metric == Metric::Utilization && config.timing == RewardTiming::Step {
            return Err(GymError::Config(
                "utilisation is a figure of the whole episode: reward it at the end (reward=\"end\")"
                    .into(),
            ));
        }
        if log.jobs.len() < config.episode_jobs {
            return Err(GymError::TooShort {
                log: log.name.clone(),
                jobs: log.jobs.len(),
                episode: config.episode_jobs,
            });
        }
        Ok(GymEnv {
            log,
            config,
            rng: stream(seed, EPISODE_STREAM),
            episode: None,
            start: 0,
            rewarded: 0,
            baselines: None,
        })
    }

    /// The configuration.
    pub fn config(&self) -> &GymConfig {
        &self.config
    }

    /// The log.
    pub fn log(&self) -> &GymLog {
        &self.log
    }

    /// Length of an observation: `N × 8 + 3`.
    pub fn observation_len(&self) -> usize {
        self.config.window * JOB_FEATURES.len() + MACHINE_FEATURES.len()
    }

    /// Starts an episode: reseeds the generator with `seed` when given, and
    /// begins at job `start` of the cleaned log (in submit order) when
    /// given, else at a start drawn from the generator. Replays the
    /// baselines when configured.
    ///
    /// # Errors
    /// [`GymError::Start`] for a start past the last full episode.
    pub fn reset(&mut self, seed: Option<u64>, start: Option<usize>) -> Result<(), GymError> {
        if let Some(s) = seed {
            self.rng = stream(s, EPISODE_STREAM);
        }
        let k = self.config.episode_jobs;
        let last = self.log.jobs.len() - k;
        let start = match start {
            Some(s) if s > last => {
                return Err(GymError::Start {
                    log: self.log.name.clone(),
                    start: s,
                    episode: k,
                    last,
                });
            }
            Some(s) => s,
            None => self.rng.random_range(0..=last),
        };
        let jobs = self.log.jobs[start..start + k].to_vec();
        self.baselines = self.config.baselines.then(|| self.replay_baselines(&jobs));
        let (capacity, depth) = (self.log.capacity, self.config.depth);
        self.episode = Some(Episode::new(jobs, |jobs| {
            Selection::new(jobs, capacity, depth)
        }));
        self.start = start;
        self.rewarded = 0;
        Ok(())
    }

    /// The baselines' metric on `jobs`.
    fn replay_baselines(&self, jobs: &[ClassicJob]) -> Baselines {
        let cap = self.log.capacity;
        let depth = self.config.depth;
        let value = |run: &ClassicRun| {
            metric_of(
                self.config.metric,
                jobs,
                |i| run.outcomes[i].start,
                cap,
                self.config.tau,
            )
        };
        let native = match depth {
            None => Policy::Fcfs,
            Some(depth) => Policy::Backfill { depth },
        };
        let scored = |scorer: &mut dyn Scorer| {
            let mut policy = Scored::new(scorer, depth, cap);
            // The native scorers never fail.
            engine::simulate_with(jobs, cap, &mut policy).map_or(f64::NAN, |r| value(&r))
        };
        Baselines {
            fcfs: value(&engine::simulate(jobs, cap, native)),
            sjf: scored(&mut Sjf),
            f1: scored(&mut F1::default()),
        }
    }

    /// Schedules the job in slot `action` of the window ([`super::selection`])
    /// and runs to the next decision.
    ///
    /// # Errors
    /// [`GymError::NotReset`], [`GymError::Finished`], [`GymError::Masked`]
    /// (nothing changes).
    pub fn step(&mut self, action: usize) -> Result<Step, GymError> {
        let window = self.config.window;
        let ep = self.episode.as_mut().ok_or(GymError::NotReset)?;
        let (timing, metric, tau, k) = (
            self.config.timing,
            self.config.metric,
            self.config.tau,
            self.config.episode_jobs,
        );
        let mut rewarded = self.rewarded;
        let capacity = self.log.capacity;
        let step = ep.with_dependent_mut(|jobs, s| {
            if s.done() {
                return Err(GymError::Finished);
            }
            let waiting = s.queue().len();
            if action >= waiting.min(window) {
                return Err(GymError::Masked {
                    action,
                    waiting,
                    valid: waiting.min(window),
                });
            }
            s.select(action).map_err(|e| match e {
                SelectError::Finished => GymError::Finished,
                SelectError::NoJob { .. } => unreachable!("checked above"),
            })?;
            let done = s.done();
            let (_, machine) = s.state();
            let reward = match timing {
                RewardTiming::Step => {
                    let started = machine.started();
                    let per_job = |i: usize| {
                        let wait = machine.start_of(i) - jobs[i].submit;
                        match metric {
                            Metric::Bsld => bounded_slowdown(wait, jobs[i].run, tau),
                            Metric::Wait => wait,
                            Metric::Utilization => unreachable!("refused by new"),
                        }
                    };
                    let sum: f64 = started[rewarded..].iter().map(|&i| per_job(i)).sum();
                    rewarded = started.len();
                    -sum / k as f64
                }
                RewardTiming::End if done => {
                    let value = metric_of(metric, jobs, |i| machine.start_of(i), capacity, tau);
                    if metric == Metric::Utilization {
                        value
                    } else {
                        -value
                    }
                }
                RewardTiming::End => 0.0,
            };
            Ok(Step {
                reward,
                terminated: done,
            })
        })?;
        self.rewarded = rewarded;
        Ok(step)
    }

    /// Writes the observation ([`JOB_FEATURES`], [`MACHINE_FEATURES`]) into
    /// `out` (length [`observation_len`](Self::observation_len)); all zeros
    /// before the first reset.
    pub fn observe(&mut self, out: &mut [f32]) {
        out.fill(0.0);
        let (log, window, k) = (&*self.log, self.config.window, self.config.episode_jobs);
        let Some(ep) = self.episode.as_mut() else {
            return;
        };
        ep.with_dependent_mut(|jobs, s| {
            let now = s.now();
            let (queue, machine) = s.state();
            let free = machine.free();
            let cap = f64::from(log.capacity);
            let norm = |x: i64, max: f64| {
                if x < 0 {
                    1.0
                } else if max > 0.0 {
                    (x as f64 / max).min(1.0)
                } else {
                    0.0
                }
            };
            let nf = JOB_FEATURES.len();
            for (slot, &i) in queue.iter().take(window).enumerate() {
                let j = &jobs[i];
                let row = &mut out[slot * nf..(slot + 1) * nf];
                row[0] = ((now - j.submit) / WAIT_SCALE).clamp(0.0, 1.0) as f32;
                row[1] = (j.estimate / log.max_estimate).min(1.0) as f32;
                row[2] = (f64::from(j.size) / cap) as f32;
                row[3] = norm(j.user, log.max_user) as f32;
                row[4] = norm(j.group, log.max_group) as f32;
                row[5] = norm(j.queue, log.max_queue) as f32;
                row[6] = if i64::from(j.size) <= free { 1.0 } else { 0.0 };
                row[7] = 1.0;
            }
            let m = &mut out[window * nf..];
            m[0] = (free as f64 / cap) as f32;
            m[1] = (queue.len() as f64 / window as f64).min(1.0) as f32;
            m[2] = (machine.started().len() as f64 / k as f64) as f32;
        });
    }

    /// Writes the action mask into `out` (length `N`): `true` for the slots
    /// holding a waiting job; all `false` before a reset and at the end.
    pub fn mask(&mut self, out: &mut [bool]) {
        let waiting = self.waiting();
        for (slot, m) in out.iter_mut().enumerate() {
            *m = slot < waiting;
        }
    }

    /// Jobs waiting at this decision (0 before a reset and at the end).
    pub fn waiting(&mut self) -> usize {
        self.episode
            .as_mut()
            .map_or(0, |ep| ep.with_dependent_mut(|_, s| s.queue().len()))
    }

    /// The episode's first job: its index among the cleaned jobs in submit
    /// order, and its SWF job number.
    pub fn start(&self) -> (usize, i64) {
        (self.start, self.log.jobs[self.start].job_number)
    }

    /// The baselines of the current episode, when configured.
    pub fn baselines(&self) -> Option<Baselines> {
        self.baselines
    }

    /// The metric of the current episode once it ended (its units).
    pub fn metric(&mut self) -> Option<f64> {
        let (metric, tau, cap) = (self.config.metric, self.config.tau, self.log.capacity);
        let ep = self.episode.as_mut()?;
        ep.with_dependent_mut(|jobs, s| {
            if !s.done() {
                return None;
            }
            let (_, machine) = s.state();
            Some(metric_of(metric, jobs, |i| machine.start_of(i), cap, tau))
        })
    }

    /// The time of the current decision, s on the log's clock.
    pub fn now(&self) -> Option<f64> {
        self.episode.as_ref().map(|ep| ep.borrow_dependent().now())
    }

    /// Every job's start so far in the current episode, s (+∞ while
    /// waiting), in the episode's job order.
    pub fn starts(&mut self) -> Vec<f64> {
        self.episode.as_mut().map_or_else(Vec::new, |ep| {
            ep.with_dependent_mut(|jobs, s| {
                let (_, m) = s.state();
                (0..jobs.len()).map(|i| m.start_of(i)).collect()
            })
        })
    }
}

/// Several environments over one log, stepped together; an environment
/// whose episode ended is reset at its next step (Gymnasium's next-step
/// autoreset), from its own generator.
pub struct GymVec {
    envs: Vec<GymEnv>,
    ended: Vec<bool>,
}

/// What a vector step gives for one environment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VecStep {
    /// The reward (0 for a reset step).
    pub reward: f64,
    /// Whether its episode ended with this step.
    pub terminated: bool,
    /// Whether this step reset it (the action was ignored).
    pub reset: bool,
}

impl GymVec {
    /// `n` environments over `log`, environment `e` seeded `seed + e`.
    ///
    /// # Errors
    /// As [`GymEnv::new`]; `n` of 0.
    pub fn new(
        log: &Arc<GymLog>,
        config: &GymConfig,
        n: usize,
        seed: u64,
    ) -> Result<GymVec, GymError> {
        if n == 0 {
            return Err(GymError::Config("num_envs must be at least 1".into()));
        }
        let envs = (0..n as u64)
            .map(|e| GymEnv::new(Arc::clone(log), config.clone(), seed.wrapping_add(e)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GymVec {
            envs,
            ended: vec![false; n],
        })
    }

    /// Length of each environment's observation ([`GymEnv::observation_len`]).
    pub fn observation_len(&self) -> usize {
        self.envs[0].observation_len()
    }

    /// The environments.
    pub fn envs_mut(&mut self) -> &mut [GymEnv] {
        &mut self.envs
    }

    /// Resets every environment; environment `e` reseeded with `seed + e`
    /// when a seed is given.
    ///
    /// # Errors
    /// As [`GymEnv::reset`].
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(), GymError> {
        for (e, env) in self.envs.iter_mut().enumerate() {
            env.reset(seed.map(|s| s.wrapping_add(e as u64)), None)?;
        }
        self.ended.fill(false);
        Ok(())
    }

    /// Steps every environment with its action (reset instead when its
    /// episode ended at the previous step), then writes the observations
    /// (`n × len`) and masks (`n × N`) into `obs` and `masks`. One thread
    /// steps them in turn: measured on 2 cores, rayon over the
    /// environments halved the throughput (its workers spin beside the
    /// interpreter's thread), and each environment's step is a few µs.
    ///
    /// # Errors
    /// The first failing environment's error, with its index (the ones
    /// before it have stepped).
    pub fn step(
        &mut self,
        actions: &[usize],
        obs: &mut [f32],
        masks: &mut [bool],
    ) -> Result<Vec<VecStep>, (usize, GymError)> {
        let Some(first) = self.envs.first() else {
            return Ok(Vec::new());
        };
        let (len, window) = (first.observation_len(), first.config.window);
        let mut out = Vec::with_capacity(self.envs.len());
        for (e, (env, &a)) in self.envs.iter_mut().zip(actions).enumerate() {
            let step = if self.ended[e] {
                env.reset(None, None).map_err(|err| (e, err))?;
                VecStep {
                    reward: 0.0,
                    terminated: false,
                    reset: true,
                }
            } else {
                let s = env.step(a).map_err(|err| (e, err))?;
                VecStep {
                    reward: s.reward,
                    terminated: s.terminated,
                    reset: false,
                }
            };
            self.ended[e] = step.terminated;
            env.observe(&mut obs[e * len..(e + 1) * len]);
            env.mask(&mut masks[e * window..(e + 1) * window]);
            out.push(step);
        }
        Ok(out)
    }

    /// Writes every environment's observation and mask.
    pub fn write(&mut self, obs: &mut [f32], masks: &mut [bool]) {
        let Some(first) = self.envs.first() else {
            return;
        };
        let (len, window) = (first.observation_len(), first.config.window);
        for (e, env) in self.envs.iter_mut().enumerate() {
            env.observe(&mut obs[e * len..(e + 1) * len]);
            env.mask(&mut masks[e * window..(e + 1) * window]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// User n mod 3, no group (−1), queue 0: the normalisations' cases.
    fn job(n: i64, submit: f64, run: f64, size: u32) -> ClassicJob {
        ClassicJob {
            user: n % 3,
            group: -1,
            queue: 0,
            ..ClassicJob::example(n, submit, size, run, run)
        }
    }

    /// The selection module's scenario, 4 units: reward −mean bsld at the
    /// end. Job 1 waits 0, job 2 (run 50) starts at 100 after submitting
    /// at 1 (bsld 149/50), job 3 backfilled at 1 (bsld 1).
    #[test]
    fn end_reward_is_minus_the_mean_bounded_slowdown() {
        let jobs = vec![
            job(1, 0.0, 100.0, 3),
            job(2, 1.0, 50.0, 4),
            job(3, 1.0, 20.0, 1),
        ];
        let log = Arc::new(GymLog::new("t", jobs, 4));
        let config = GymConfig {
            episode_jobs: 3,
            window: 2,
            ..GymConfig::default()
        };
        let mut env = GymEnv::new(Arc::clone(&log), config.clone(), 0).unwrap();
        assert_eq!(env.step(0), Err(GymError::NotReset));
        env.reset(None, Some(0)).unwrap();
        let mut obs = vec![0.0; env.observation_len()];
        env.observe(&mut obs);
        assert_eq!(&obs[..8], &[0.0, 1.0, 0.75, 1.0 / 2.0, 1.0, 0.0, 1.0, 1.0]);
        assert_eq!(&obs[8..16], &[0.0; 8]);
        assert_eq!(&obs[16..], &[1.0, 0.5, 0.0]);
        assert_eq!(env.step(0).unwrap().reward, 0.0);
        assert_eq!(
            env.step(2),
            Err(GymError::Masked {
                action: 2,
                waiting: 2,
                valid: 2
            })
        );
        let last = env.step(0).unwrap();
        let want = -(1.0 + 149.0 / 50.0 + 1.0) / 3.0;
        assert!(last.terminated);
        assert!((last.reward - want).abs() < 1e-12);
        assert_eq!(env.step(0), Err(GymError::Finished));
        assert_eq!(env.metric(), Some(-want));
        // FCFS with EASY is the same schedule; SJF starts job 3 first.
        let b = env.baselines().unwrap();
        assert!((b.fcfs + want).abs() < 1e-12, "{b:?}");

        let mut env = GymEnv::new(
            log,
            GymConfig {
                timing: RewardTiming::Step,
                ..config
            },
            0,
        )
        .unwrap();
        env.reset(None, Some(0)).unwrap();
        let r0 = env.step(0).unwrap().reward;
        let r1 = env.step(0).unwrap().reward;
        assert!((r0 + 1.0 / 3.0).abs() < 1e-12);
        assert!((r0 + r1 - want).abs() < 1e-12);
    }

    #[test]
    fn the_same_seed_gives_the_same_starts() {
        let jobs: Vec<ClassicJob> = (0..50).map(|n| job(n, n as f64, 10.0, 1)).collect();
        let log = Arc::new(GymLog::new("t", jobs, 4));
        let config = GymConfig {
            episode_jobs: 5,
            ..GymConfig::default()
        };
        let starts = |seed| {
            let mut env = GymEnv::new(Arc::clone(&log), config.clone(), 99).unwrap();
            env.reset(Some(seed), None).unwrap();
            (0..20)
                .map(|_| {
                    env.reset(None, None).unwrap();
                    env.start().0
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(starts(1), starts(1));
        assert_ne!(starts(1), starts(2));
        assert!(starts(3).iter().all(|&s| s <= 45));
        let mut env = GymEnv::new(Arc::clone(&log), config.clone(), 0).unwrap();
        assert!(matches!(
            env.reset(None, Some(46)),
            Err(GymError::Start { last: 45, .. })
        ));
    }
}
