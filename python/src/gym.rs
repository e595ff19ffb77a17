//! The Rust side of `swftool.gym`: one environment ([`GymCore`]) and a
//! vector of them stepped in one call with the interpreter's lock released
//! ([`GymVecCore`]), over `swftool::env::classic::gym`. Observations and
//! masks are handed over as new numpy arrays (never a buffer reused).

use std::sync::Arc;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use swftool::env::classic::environment::prepare;
use swftool::env::classic::gym::{
    GymConfig, GymEnv, GymError, GymLog, GymVec, JOB_FEATURES, MACHINE_FEATURES, Metric,
    RewardTiming,
};

use crate::{classic_input, engine_error, error};

/// A [`GymError`] as `UsageError` (a `ValueError`).
fn gym_error(py: Python<'_>, e: &GymError) -> PyErr {
    error(py, "UsageError", e.to_string(), &[])
}

/// An environment's settings, as `swftool.gym` passes them (a dict).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Settings {
    window: usize,
    episode_jobs: usize,
    reservation_depth: Option<usize>,
    metric: String,
    reward: String,
    baselines: bool,
}

/// The log `argv` names, cleaned and prepared as `replay --env classic`
/// prepares it, and the configuration from `settings`.
fn setup(
    py: Python<'_>,
    argv: &[String],
    settings: Settings,
) -> PyResult<(Arc<GymLog>, GymConfig)> {
    let metric = match settings.metric.as_str() {
        "bsld" => Metric::Bsld,
        "wait" => Metric::Wait,
        "utilization" => Metric::Utilization,
        other => {
            return Err(error(
                py,
                "UsageError",
                format!("metric {other:?}: use \"bsld\", \"wait\" or \"utilization\""),
                &[],
            ));
        }
    };
    let timing = match settings.reward.as_str() {
        "end" => RewardTiming::End,
        "step" => RewardTiming::Step,
        other => {
            return Err(error(
                py,
                "UsageError",
                format!("reward {other:?}: use \"end\" or \"step\""),
                &[],
            ));
        }
    };
    let (args, log) = classic_input(py, argv)?;
    if let Some(flag) = args.scheduler_flags().first() {
        return Err(error(
            py,
            "UsageError",
            format!(
                "{flag} applies to the built-in schedulers; the environment takes reservation_depth as its own parameter"
            ),
            &[],
        ));
    }
    let prepared = prepare(&log, &args).map_err(|e| engine_error(py, &e.into()))?;
    let s = prepared.scenario;
    let gym_log = GymLog::new(&prepared.log, s.jobs, s.machine.capacity);
    let config = GymConfig {
        window: settings.window,
        episode_jobs: settings.episode_jobs,
        depth: settings.reservation_depth,
        metric,
        timing,
        tau: args.tau(),
        baselines: settings.baselines,
    };
    Ok((Arc::new(gym_log), config))
}

/// A non-negative action as a slot.
fn slot(py: Python<'_>, action: i64) -> PyResult<usize> {
    usize::try_from(action).map_err(|_| {
        error(
            py,
            "UsageError",
            format!("action {action} is negative: give the slot of a waiting job"),
            &[],
        )
    })
}

/// Facts about the current episode of `env` as a dict: `start`,
/// `first_job`, `baselines` (when configured), `metric` (when it ended).
fn episode_info<'py>(py: Python<'py>, env: &mut GymEnv) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let (start, first_job) = env.start();
    d.set_item("start", start)?;
    d.set_item("first_job", first_job)?;
    if let Some(b) = env.baselines() {
        let base = PyDict::new(py);
        base.set_item("fcfs", b.fcfs)?;
        base.set_item("sjf", b.sjf)?;
        base.set_item("f1", b.f1)?;
        d.set_item("baselines", base)?;
    }
    if let Some(m) = env.metric() {
        d.set_item("metric", m)?;
    }
    Ok(d)
}

/// An observation and its action mask.
type ObsMask<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<bool>>);

/// One environment (`swftool.gym.JobSelectionEnv` wraps it).
#[pyclass(module = "swftool._swftool")]
pub struct GymCore {
    env: GymEnv,
}

impl GymCore {
    /// A new observation array (numpy's own memory, filled in place).
    fn observation<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let obs = PyArray1::<f32>::zeros(py, self.env.observation_len(), false);
        // SAFETY: the array was just created here and no other reference
        // to it exists yet.
        self.env
            .observe(unsafe { obs.as_slice_mut() }.expect("contiguous"));
        obs
    }
}

#[pymethods]
impl GymCore {
    /// See `swftool.gym.JobSelectionEnv`: `settings` holds window,
    /// episode_jobs, reservation_depth, metric, reward, baselines.
    #[new]
    fn new(py: Python<'_>, argv: Vec<String>, settings: Settings, seed: u64) -> PyResult<GymCore> {
        let (log, config) = setup(py, &argv, settings)?;
        let env = GymEnv::new(log, config, seed).map_err(|e| gym_error(py, &e))?;
        Ok(GymCore { env })
    }

    /// Length of an observation (N × 8 + 3).
    #[getter]
    fn observation_len(&self) -> usize {
        self.env.observation_len()
    }

    /// Jobs of the cleaned log.
    #[getter]
    fn log_jobs(&self) -> usize {
        self.env.log().jobs().len()
    }

    /// Units of the machine.
    #[getter]
    fn capacity(&self) -> u32 {
        self.env.log().capacity()
    }

    /// The log's file name.
    #[getter]
    fn log_name(&self) -> String {
        self.env.log().name.clone()
    }

    /// Starts an episode; returns (observation, action mask).
    #[pyo3(signature = (seed=None, start=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<u64>,
        start: Option<usize>,
    ) -> PyResult<ObsMask<'py>> {
        self.env.reset(seed, start).map_err(|e| gym_error(py, &e))?;
        Ok((self.observation(py), self.mask(py)))
    }

    /// Schedules slot `action`; returns (observation, reward, terminated,
    /// action mask).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        action: i64,
    ) -> PyResult<(
        Bound<'py, PyArray1<f32>>,
        f64,
        bool,
        Bound<'py, PyArray1<bool>>,
    )> {
        let s = self
            .env
            .step(slot(py, action)?)
            .map_err(|e| gym_error(py, &e))?;
        Ok((self.observation(py), s.reward, s.terminated, self.mask(py)))
    }

    /// The action mask, shape (N,), bool.
    fn mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let m = PyArray1::<bool>::zeros(py, self.env.config().window, false);
        // SAFETY: as in `observation`, a new array no one else holds.
        self.env
            .mask(unsafe { m.as_slice_mut() }.expect("contiguous"));
        m
    }

    /// `start`, `first_job`, `baselines`, `metric` (at the end) of the
    /// current episode.
    fn info<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        episode_info(py, &mut self.env)
    }

    /// Every job's start so far in the episode (s; +inf while waiting),
    /// shape (K,), in submit order.
    fn starts<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_vec(py, self.env.starts())
    }

    /// The time of the current decision, s on the log's clock.
    fn now(&self) -> Option<f64> {
        self.env.now()
    }
}

/// Many environments stepped in one call (`swftool.gym.JobSelectionVectorEnv`).
#[pyclass(module = "swftool._swftool")]
pub struct GymVecCore {
    vec: GymVec,
    n: usize,
    len: usize,
    window: usize,
}

type Batch<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray2<bool>>);

impl GymVecCore {
    /// Observations (n, len) and masks (n, N) as new arrays.
    fn batch<'py>(&self, py: Python<'py>, obs: Vec<f32>, masks: Vec<bool>) -> Batch<'py> {
        let obs = Array2::from_shape_vec((self.n, self.len), obs).expect("n × len values");
        let masks = Array2::from_shape_vec((self.n, self.window), masks).expect("n × N values");
        (obs.into_pyarray(py), masks.into_pyarray(py))
    }
}

#[pymethods]
impl GymVecCore {
    /// See `swftool.gym.JobSelectionVectorEnv`; `settings` as for
    /// [`GymCore`].
    #[new]
    fn new(
        py: Python<'_>,
        argv: Vec<String>,
        num_envs: usize,
        settings: Settings,
        seed: u64,
    ) -> PyResult<GymVecCore> {
        let window = settings.window;
        let (log, config) = setup(py, &argv, settings)?;
        let vec = GymVec::new(&log, &config, num_envs, seed).map_err(|e| gym_error(py, &e))?;
        Ok(GymVecCore {
            len: vec.observation_len(),
            vec,
            n: num_envs,
            window,
        })
    }

    /// Length of one observation.
    #[getter]
    fn observation_len(&self) -> usize {
        self.len
    }

    /// Resets every environment (environment e reseeded `seed + e` when a
    /// seed is given); returns (observations (n, len), masks (n, N)).
    #[pyo3(signature = (seed=None))]
    fn reset<'py>(&mut self, py: Python<'py>, seed: Option<u64>) -> PyResult<Batch<'py>> {
        let (n, len, window) = (self.n, self.len, self.window);
        let vec = &mut self.vec;
        let (obs, masks) = py
            .detach(|| {
                vec.reset(seed)?;
                let mut obs = vec![0.0f32; n * len];
                let mut masks = vec![false; n * window];
                vec.write(&mut obs, &mut masks);
                Ok::<_, GymError>((obs, masks))
            })
            .map_err(|e| gym_error(py, &e))?;
        Ok(self.batch(py, obs, masks))
    }

    /// Steps every environment (next-step autoreset); returns
    /// (observations (n, len), rewards (n,), terminated (n,), masks (n, N),
    /// reset (n,): which environments this step reset).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray2<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let actions = actions.as_slice()?;
        if actions.len() != self.n {
            return Err(error(
                py,
                "UsageError",
                format!(
                    "{} action(s) for {} environments: give one per environment",
                    actions.len(),
                    self.n
                ),
                &[],
            ));
        }
        let actions: Vec<usize> = actions
            .iter()
            .map(|&a| slot(py, a))
            .collect::<PyResult<_>>()?;
        let (n, len, window) = (self.n, self.len, self.window);
        let vec = &mut self.vec;
        let (steps, obs, masks) = py
            .detach(|| {
                let mut obs = vec![0.0f32; n * len];
                let mut masks = vec![false; n * window];
                let steps = vec.step(&actions, &mut obs, &mut masks)?;
                Ok((steps, obs, masks))
            })
            .map_err(|(e, err): (usize, GymError)| {
                error(py, "UsageError", format!("environment {e}: {err}"), &[])
            })?;
        let rewards: Vec<f64> = steps.iter().map(|s| s.reward).collect();
        let terminated: Vec<bool> = steps.iter().map(|s| s.terminated).collect();
        let reset: Vec<bool> = steps.iter().map(|s| s.reset).collect();
        let (obs, masks) = self.batch(py, obs, masks);
        Ok((
            obs,
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, terminated),
            masks,
            PyArray1::from_vec(py, reset),
        ))
    }

    /// `start`, `first_job`, `baselines`, `metric` (once ended) of
    /// environment `e`'s current episode.
    fn info<'py>(&mut self, py: Python<'py>, e: usize) -> PyResult<Bound<'py, PyDict>> {
        let n = self.n;
        let env = self
            .vec
            .envs_mut()
            .get_mut(e)
            .ok_or_else(|| error(py, "UsageError", format!("environment {e} of {n}"), &[]))?;
        episode_info(py, env)
    }
}

/// Adds the classes and the feature names to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<GymCore>()?;
    m.add_class::<GymVecCore>()?;
    m.add("GYM_JOB_FEATURES", JOB_FEATURES.to_vec())?;
    m.add("GYM_MACHINE_FEATURES", MACHINE_FEATURES.to_vec())?;
    Ok(())
}
