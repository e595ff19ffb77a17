//! `swftool._swftool`: the Rust side of swftool's Python package (pyo3,
//! abi3). It stays thin: every function runs the same code as the
//! `swftool` command (the same flag parser, the same checks, the same
//! writers), with the interpreter's lock released while the engine works,
//! and hands tables over as Parquet bytes or files (a log's jobs as numpy
//! arrays) that the Python side
//! (`python/swftool/__init__.py`) reads with polars. Errors become the
//! exceptions of `swftool.errors`; a panic becomes `SwftoolError`, never a
//! crashed interpreter.

mod gym;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use clap::Parser;
use polars::prelude::*;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use swftool::cmd;
use swftool::contract::{Environment, Input};
use swftool::env::classic::custom;
use swftool::env::classic::environment::Classic;
use swftool::env::classic::params::ClassicArgs;
use swftool::env::classic::policies::control::{Action, ControlView, Controller};
use swftool::env::classic::policies::scored::{PassView, Scorer};
use swftool::env::configs;
use swftool::env::parallel::MappingEvent;
use swftool::env::parallel::custom as parallel_custom;
use swftool::env::parallel::environment::Parallel;
use swftool::env::parallel::max_value::{Candidate, Mode, Objectives};
use swftool::swf::{self, HeaderValue, ReadOptions, SkipKind, SwfError, SwfHeader, SwfLog};

/// The exception class `name` of `swftool.errors`, raised with `message`
/// and keyword attributes.
pub(crate) fn error(
    py: Python<'_>,
    name: &str,
    message: String,
    attrs: &[(&str, Py<PyAny>)],
) -> PyErr {
    let build = || -> PyResult<PyErr> {
        let class = py.import("swftool.errors")?.getattr(name)?;
        let kwargs = PyDict::new(py);
        for (k, v) in attrs {
            kwargs.set_item(k, v)?;
        }
        let value = class.call((message.clone(),), Some(&kwargs))?;
        Ok(PyErr::from_value(value))
    };
    build().unwrap_or_else(|e| e)
}

/// An error of the engine as the exception of its kind: a log that does
/// not parse ([`SwfError`]) is `LogError` with `file` and `line`; a log not
/// found is `LogNotFoundError`; a flag, name or configuration refused is
/// `UsageError`; anything else `SwftoolError`.
pub(crate) fn engine_error(py: Python<'_>, e: &anyhow::Error) -> PyErr {
    let message = cmd::error_message(e);
    if let Some(s) = e.chain().find_map(|c| c.downcast_ref::<SwfError>()) {
        return swf_error(py, s, message);
    }
    let refused = e.chain().any(|c| {
        c.is::<swftool::catalog::CatalogError>()
            || matches!(
                c.downcast_ref::<custom::CustomError>(),
                Some(custom::CustomError::Refused { .. } | custom::CustomError::Env(_))
            )
            || c.is::<swftool::experiment::ConfigError>()
            || c.is::<swftool::contract::EnvError>()
            || c.is::<clap::Error>()
            || c.is::<cmd::Refused>()
    });
    let not_found = e.chain().any(|c| {
        matches!(
            c.downcast_ref::<swftool::catalog::CatalogError>(),
            Some(swftool::catalog::CatalogError::NotFound { .. })
                | Some(swftool::catalog::CatalogError::UnknownName { .. })
        )
    });
    let kind = if not_found {
        "LogNotFoundError"
    } else if refused {
        "UsageError"
    } else {
        "SwftoolError"
    };
    error(py, kind, message, &[])
}

fn swf_error(py: Python<'_>, e: &SwfError, message: String) -> PyErr {
    let kind = match e {
        SwfError::NotFound { .. } => "LogNotFoundError",
        _ => "LogError",
    };
    let file = e.file().into_pyobject(py).map(|f| f.into_any().unbind());
    let line = e.line().into_pyobject(py).map(|l| l.into_any().unbind());
    match (file, line) {
        (Ok(file), Ok(line)) => error(py, kind, message, &[("file", file), ("line", line)]),
        _ => error(py, kind, message, &[]),
    }
}

/// Runs `work` on its own thread with the interpreter's lock released,
/// returning as soon as it is done and checking for `KeyboardInterrupt`
/// every 50 ms meanwhile: an interrupt asks the run to stop as a first
/// Ctrl-C does (it finishes the runs under way and commits nothing
/// half-written), then is raised. A panic in `work` is raised as
/// `SwftoolError`.
fn run_detached<T: Send>(
    py: Python<'_>,
    work: impl FnOnce() -> anyhow::Result<T> + Send,
) -> PyResult<T> {
    swftool::interrupt::clear();
    let mut interrupted: Option<PyErr> = None;
    let outcome = std::thread::scope(|s| {
        // The work says it is done (or, panicking, drops the sender).
        let (done, mut wait) = mpsc::channel::<()>();
        let handle = s.spawn(move || {
            let out = work();
            let _ = done.send(());
            out
        });
        loop {
            let (waited, back) = py.detach(move || {
                let waited = wait.recv_timeout(Duration::from_millis(50));
                (waited, wait)
            });
            wait = back;
            if !matches!(waited, Err(mpsc::RecvTimeoutError::Timeout)) {
                break;
            }
            if interrupted.is_none()
                && let Err(e) = py.check_signals()
            {
                swftool::interrupt::request();
                interrupted = Some(e);
            }
        }
        handle.join()
    });
    swftool::interrupt::clear();
    match outcome {
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default();
            Err(error(
                py,
                "SwftoolError",
                format!("internal error (a bug in swftool; please report it): {what}"),
                &[],
            ))
        }
        Ok(result) => {
            if let Some(e) = interrupted {
                return Err(e);
            }
            result.map_err(|e| {
                if e.is::<swftool::interrupt::Interrupted>() {
                    PyKeyboardInterrupt::new_err("interrupted")
                } else {
                    engine_error(py, &e)
                }
            })
        }
    }
}

/// A DataFrame as Parquet bytes (the Python side reads them with
/// `polars.read_parquet`), uncompressed and without statistics: the bytes
/// only cross from Rust to Python in memory, where compressing them would
/// cost more than it saves.
fn parquet_bytes(df: &mut DataFrame) -> anyhow::Result<Vec<u8>> {
    use polars_io::parquet::write::{ParquetCompression, ParquetWriter, StatisticsOptions};
    let mut buf = Vec::new();
    ParquetWriter::new(&mut buf)
        .with_compression(ParquetCompression::Uncompressed)
        .with_statistics(StatisticsOptions::empty())
        .finish(df)?;
    Ok(buf)
}

fn header_value<'py>(py: Python<'py>, v: &HeaderValue) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("raw", &v.raw)?;
    d.set_item("number", v.number)?;
    d.set_item("text", &v.text)?;
    Ok(d)
}

/// The header as a dict: each single-valued key present under its SWF
/// name (`MaxProcs`, …) as a dict {raw, number, text}; the lists under
/// snake_case names.
fn header_dict<'py>(py: Python<'py>, h: &SwfHeader) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let keys = PyDict::new(py);
    for key in swf::header::typed_keys() {
        if let Some(v) = h.get(key) {
            keys.set_item(key, header_value(py, v)?)?;
        }
    }
    d.set_item("keys", keys)?;
    d.set_item("information", PyList::new(py, &h.information)?)?;
    d.set_item("queues", PyList::new(py, &h.queue_list)?)?;
    d.set_item("partitions", PyList::new(py, &h.partition_list)?)?;
    d.set_item("notes", PyList::new(py, &h.notes)?)?;
    d.set_item("other", PyList::new(py, &h.other)?)?;
    d.set_item("free_text", PyList::new(py, &h.free_text)?)?;
    d.set_item("lines", PyList::new(py, &h.lines)?)?;
    Ok(d)
}

/// Reads a log (a path or a short name), strict or lenient: a dict with
/// `jobs` (the 18 columns of [`swf::frame::job_columns`] as [(name, numpy
/// array of shape (jobs,))], int64 or float64, -1 kept), `header`, `name`,
/// `path`, `sha256`, `skipped` ({reason label: count}), `skipped_examples`
/// ([(line, reason)]), `blank_lines`. Raises `LogNotFoundError`,
/// `LogError` (file, line).
#[pyfunction]
#[pyo3(signature = (log, lenient = false))]
fn read_swf<'py>(py: Python<'py>, log: String, lenient: bool) -> PyResult<Bound<'py, PyDict>> {
    let (path, read, jobs) = run_detached(py, move || {
        let path = swftool::catalog::resolve(&log)?;
        let opts = if lenient {
            ReadOptions::lenient()
        } else {
            ReadOptions::strict()
        };
        let read = swf::read_log(&path, &opts)?;
        let jobs = swf::frame::job_columns(&read.jobs);
        Ok((path, read, jobs))
    })?;
    let d = PyDict::new(py);
    // The columns as numpy arrays (their memory handed over, not copied),
    // -1 kept: the Python side makes it null.
    let columns = PyList::empty(py);
    for (name, c) in swf::frame::JOB_COLUMNS.iter().zip(jobs) {
        let array = match c {
            swf::frame::JobColumn::Int(v) => v.into_pyarray(py).into_any(),
            swf::frame::JobColumn::Float(v) => v.into_pyarray(py).into_any(),
        };
        columns.append((name, array))?;
    }
    d.set_item("jobs", columns)?;
    d.set_item("header", header_dict(py, &read.header)?)?;
    d.set_item("name", &read.name)?;
    d.set_item("path", path.display().to_string())?;
    d.set_item("sha256", &read.sha256)?;
    let skipped = PyDict::new(py);
    for kind in SkipKind::ALL {
        let n = read.skipped.count(kind);
        if n > 0 {
            skipped.set_item(kind.label(), n)?;
        }
    }
    d.set_item("skipped", skipped)?;
    d.set_item("skipped_examples", PyList::new(py, &read.skipped.examples)?)?;
    d.set_item("blank_lines", read.blank_lines)?;
    Ok(d)
}

/// Every environment with its heuristics: a list of dicts {env, title,
/// log ("required", "optional", "synthetic"), heuristics: [(name,
/// summary)], presets: [(name, summary)]}.
#[pyfunction]
fn environments<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for info in cmd::env_infos() {
        let d = PyDict::new(py);
        d.set_item("env", info.name)?;
        d.set_item("title", info.title)?;
        d.set_item(
            "log",
            match info.log {
                swftool::contract::LogUse::Required => "required",
                swftool::contract::LogUse::Optional => "optional",
                swftool::contract::LogUse::Synthetic => "synthetic",
            },
        )?;
        d.set_item("heuristics", PyList::new(py, &info.heuristics)?)?;
        d.set_item("presets", PyList::new(py, &info.presets)?)?;
        out.append(d)?;
    }
    Ok(out)
}

#[derive(Debug, Parser)]
#[command(name = "swftool replay", no_binary_name = true)]
struct ReplayCli {
    #[command(flatten)]
    args: cmd::replay::ReplayArgs,
}

#[derive(Debug, Parser)]
#[command(name = "swftool experiment", no_binary_name = true)]
struct ExperimentCli {
    #[command(flatten)]
    args: cmd::experiment::ExperimentArgs,
}

/// Parses `argv` (the words after `swftool <command>`) as the command
/// does; a refused or unknown flag is `UsageError` with clap's message.
fn parse<C: Parser>(py: Python<'_>, argv: &[String]) -> PyResult<C> {
    let matches = C::command()
        .color(clap::ColorChoice::Never)
        .try_get_matches_from(argv)
        .map_err(|e| error(py, "UsageError", e.render().to_string(), &[]))?;
    C::from_arg_matches(&matches).map_err(|e| error(py, "UsageError", e.to_string(), &[]))
}

/// `swftool replay` with `argv` (its words, `--out` included), quietly:
/// the tables are written to the output directory, which the Python side
/// reads. Raises as [`engine_error`].
#[pyfunction]
fn replay(py: Python<'_>, argv: Vec<String>) -> PyResult<()> {
    let cli: ReplayCli = parse(py, &argv)?;
    cmd::set_quiet(true);
    let result = run_detached(py, move || cmd::replay::run(&cli.args));
    cmd::set_quiet(false);
    result
}

/// `swftool experiment` with `argv`; with `config_toml`, the configuration
/// is that TOML text (named `origin` in messages) instead of the file or
/// preset `argv` names. Gives the output directory.
#[pyfunction]
#[pyo3(signature = (argv, config_toml = None, origin = None))]
fn experiment(
    py: Python<'_>,
    argv: Vec<String>,
    config_toml: Option<String>,
    origin: Option<String>,
) -> PyResult<String> {
    let cli: ExperimentCli = parse(py, &argv)?;
    cmd::set_quiet(true);
    let result = run_detached(py, move || {
        let config = match config_toml {
            Some(text) => {
                let origin = PathBuf::from(origin.unwrap_or_else(|| "<dict>".into()));
                configs::config_from_toml(&text, Path::new(&origin))?
            }
            None => cmd::experiment::load_config(&cli.args)?,
        };
        let out = cmd::experiment::run_config(&cli.args, config)?;
        Ok(out.display().to_string())
    });
    cmd::set_quiet(false);
    result
}

/// A Python priority policy as a [`Scorer`]: at each pass, the waiting
/// jobs as numpy arrays go through `swftool.policy._score` (which builds
/// the `Queue` the user's function sees and checks the answer's shape) to
/// the user's function. The first Python exception is kept, to be the
/// cause of the `PolicyError` (or re-raised as is when it is a
/// `KeyboardInterrupt`).
struct PyScorer<'py> {
    adapter: Bound<'py, PyAny>,
    policy: Bound<'py, PyAny>,
    error: Option<PyErr>,
}

/// The waiting jobs `queue` at `now` as the numpy arrays of a
/// `swftool.policy.Queue` (shape (jobs,) each).
fn queue_columns<'py>(py: Python<'py>, v: &PassView<'_>) -> PyResult<Bound<'py, PyDict>> {
    let (now, queue, jobs) = (v.now, v.queue, v.jobs);
    let n = queue.len();
    let mut job_number = Vec::with_capacity(n);
    let mut submit = Vec::with_capacity(n);
    let mut wait = Vec::with_capacity(n);
    let mut requested_time = Vec::with_capacity(n);
    let mut processors = Vec::with_capacity(n);
    let mut units = Vec::with_capacity(n);
    let mut user = Vec::with_capacity(n);
    let mut group = Vec::with_capacity(n);
    let mut swf_queue = Vec::with_capacity(n);
    for &i in queue {
        let j = &jobs[i];
        job_number.push(j.job_number);
        submit.push(j.submit);
        wait.push(now - j.submit);
        requested_time.push(j.estimate);
        processors.push(i64::from(j.processors));
        units.push(i64::from(j.size));
        user.push(j.user);
        group.push(j.group);
        swf_queue.push(j.queue);
    }
    let cols = PyDict::new(py);
    cols.set_item("job_number", PyArray1::from_vec(py, job_number))?;
    cols.set_item("submit", PyArray1::from_vec(py, submit))?;
    cols.set_item("wait", PyArray1::from_vec(py, wait))?;
    cols.set_item("requested_time", PyArray1::from_vec(py, requested_time))?;
    cols.set_item("processors", PyArray1::from_vec(py, processors))?;
    cols.set_item("units", PyArray1::from_vec(py, units))?;
    cols.set_item("user", PyArray1::from_vec(py, user))?;
    cols.set_item("group", PyArray1::from_vec(py, group))?;
    cols.set_item("queue", PyArray1::from_vec(py, swf_queue))?;
    Ok(cols)
}

impl PyScorer<'_> {
    fn call(&self, v: &PassView<'_>) -> PyResult<Vec<f64>> {
        let py = self.adapter.py();
        let cols = queue_columns(py, v)?;
        let out = self
            .adapter
            .call1((&self.policy, v.now, v.free, v.capacity, v.pass, cols))?;
        let scores: PyReadonlyArray1<'_, f64> = out.extract()?;
        Ok(scores.as_slice()?.to_vec())
    }
}

impl Scorer for PyScorer<'_> {
    fn scores(&mut self, v: &PassView<'_>) -> Result<Vec<f64>, String> {
        self.call(v).map_err(|e| {
            let message = e.to_string();
            self.error = Some(e);
            message
        })
    }
}

/// A Python full-control policy as a [`Controller`]: at each pass the
/// queue, the running jobs and the availability profile go through
/// `swftool.policy._decide` (which builds the `State` the user's function
/// sees and collects its `start` / `reserve` calls) to the user's
/// function; the actions come back as (kind, queue position, time).
struct PyController<'py> {
    adapter: Bound<'py, PyAny>,
    policy: Bound<'py, PyAny>,
    error: Option<PyErr>,
}

impl PyController<'_> {
    fn call(&self, v: &ControlView<'_>) -> PyResult<Result<Vec<Action>, String>> {
        let py = self.adapter.py();
        let p = &v.pass;
        let cols = queue_columns(py, p)?;
        let running = PyDict::new(py);
        let of =
            |f: &dyn Fn(&(usize, f64, f64)) -> f64| v.running.iter().map(f).collect::<Vec<f64>>();
        running.set_item(
            "job_number",
            PyArray1::from_vec(
                py,
                v.running
                    .iter()
                    .map(|r| v.pass.jobs[r.0].job_number)
                    .collect(),
            ),
        )?;
        running.set_item("start", PyArray1::from_vec(py, of(&|r| r.1)))?;
        running.set_item("predicted_end", PyArray1::from_vec(py, of(&|r| r.2)))?;
        running.set_item(
            "units",
            PyArray1::from_vec(
                py,
                v.running
                    .iter()
                    .map(|r| i64::from(v.pass.jobs[r.0].size))
                    .collect(),
            ),
        )?;
        let profile = PyDict::new(py);
        profile.set_item(
            "time",
            PyArray1::from_vec(py, v.profile.iter().map(|p| p.0).collect()),
        )?;
        profile.set_item(
            "free",
            PyArray1::from_vec(py, v.profile.iter().map(|p| p.1).collect()),
        )?;
        let out = self.adapter.call1((
            &self.policy,
            p.now,
            p.free,
            p.capacity,
            p.pass,
            cols,
            running,
            profile,
        ))?;
        let raw: Vec<(u8, usize, f64)> = out.extract()?;
        let mut actions = Vec::with_capacity(raw.len());
        for (kind, pos, at) in raw {
            let Some(&i) = v.pass.queue.get(pos) else {
                return Ok(Err(format!(
                    "queue position {pos} does not exist: {} jobs wait (positions 0 to {})",
                    v.pass.queue.len(),
                    v.pass.queue.len().saturating_sub(1)
                )));
            };
            actions.push(if kind == 0 {
                Action::Start(i)
            } else {
                Action::Reserve(i, at)
            });
        }
        Ok(Ok(actions))
    }
}

impl Controller for PyController<'_> {
    fn decide(&mut self, v: &ControlView<'_>) -> Result<Vec<Action>, String> {
        match self.call(v) {
            Ok(r) => r,
            Err(e) => {
                let message = e.to_string();
                self.error = Some(e);
                Err(message)
            }
        }
    }
}

/// Replays a log in environment D under a Python full-control policy
/// (`swftool.ControlPolicy`): as [`replay_scored`], every pass handed to
/// `policy`.
#[pyfunction]
fn replay_controlled<'py>(
    py: Python<'py>,
    argv: Vec<String>,
    name: String,
    policy: Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyDict>> {
    let (args, log) = classic_input(py, &argv)?;
    let step = parse::<ReplayCli>(py, &argv)?.args.series_step;
    let mut controller = PyController {
        adapter: py.import("swftool.policy")?.getattr("_decide")?,
        policy,
        error: None,
    };
    let result = custom::replay_controlled(&log, &args, &name, &mut controller);
    custom_tables(py, result, &args, step, controller.error.take())
}

/// `replay`'s classic flags from `argv`, checked, and its log, read.
pub(crate) fn classic_input(py: Python<'_>, argv: &[String]) -> PyResult<(ClassicArgs, SwfLog)> {
    let cli: ReplayCli = parse(py, argv)?;
    let (args, read) =
        cmd::replay::checked_input::<Classic>(&cli.args).map_err(|e| engine_error(py, &e))?;
    match read {
        Some((_, log)) => Ok((args, log)),
        None => Err(error(
            py,
            "UsageError",
            "--env classic replays a log: give LOG".into(),
            &[],
        )),
    }
}

/// The tables of a replay under a Python policy as Parquet bytes, or its
/// error as the exception of its kind (`cause`: the policy's own).
fn custom_tables<'py>(
    py: Python<'py>,
    result: Result<custom::CustomReplay, custom::CustomError>,
    args: &ClassicArgs,
    series_step: f64,
    cause: Option<PyErr>,
) -> PyResult<Bound<'py, PyDict>> {
    let replay = match result {
        Ok(r) => r,
        Err(custom::CustomError::Policy(message)) => return Err(policy_error(py, message, cause)),
        Err(e @ custom::CustomError::Invariants { .. }) => {
            return Err(error(py, "PolicyError", e.to_string(), &[]));
        }
        Err(e) => return Err(engine_error(py, &anyhow::Error::new(e))),
    };
    tables_dict(py, custom::tables(&replay, args, series_step))
}

/// A policy's failure as `PolicyError` with the policy's own exception as
/// its cause; a `KeyboardInterrupt` in the policy is raised as is.
fn policy_error(py: Python<'_>, message: String, cause: Option<PyErr>) -> PyErr {
    if let Some(c) = &cause
        && c.is_instance_of::<PyKeyboardInterrupt>(py)
    {
        return cause.unwrap_or_else(|| PyKeyboardInterrupt::new_err("interrupted"));
    }
    let e = error(py, "PolicyError", message, &[]);
    e.set_cause(py, cause);
    e
}

/// Named tables as {name: Parquet bytes}.
fn tables_dict<'py>(
    py: Python<'py>,
    tables: PolarsResult<Vec<(&'static str, DataFrame)>>,
) -> PyResult<Bound<'py, PyDict>> {
    let tables = tables.map_err(|e| engine_error(py, &e.into()))?;
    let d = PyDict::new(py);
    for (name, mut df) in tables {
        let bytes = parquet_bytes(&mut df).map_err(|e| engine_error(py, &e))?;
        d.set_item(name, PyBytes::new(py, &bytes))?;
    }
    Ok(d)
}

/// A Python Min-Min objective (`swftool.MinMinPolicy`) as the
/// [`Objectives`] of environment A's Min-Min loop: the candidates of a
/// mapping event as numpy arrays go through `swftool.policy._objectives`
/// (which builds the `Candidates` the user's function sees and checks the
/// answer's shape) to the user's function.
struct PyObjectives<'py> {
    adapter: Bound<'py, PyAny>,
    policy: Bound<'py, PyAny>,
    error: Option<PyErr>,
}

impl PyObjectives<'_> {
    fn call(&self, ev: &MappingEvent<'_>, cands: &[Candidate]) -> PyResult<Vec<f64>> {
        let py = self.adapter.py();
        let tasks = ev.tasks();
        let clusters = &ev.system().clusters;
        let f =
            |g: &dyn Fn(&Candidate) -> f64| PyArray1::from_vec(py, cands.iter().map(g).collect());
        let i =
            |g: &dyn Fn(&Candidate) -> i64| PyArray1::from_vec(py, cands.iter().map(g).collect());
        let cols = PyDict::new(py);
        cols.set_item("task", i(&|c| c.task as i64))?;
        cols.set_item("job_number", i(&|c| tasks[c.task].job_number))?;
        cols.set_item("arrival", f(&|c| tasks[c.task].arrival))?;
        cols.set_item("cores", i(&|c| i64::from(tasks[c.task].cores)))?;
        cols.set_item("cluster", i(&|c| c.cluster as i64))?;
        cols.set_item(
            "nodes",
            i(&|c| i64::from(clusters[c.cluster].nodes_for(tasks[c.task].cores))),
        )?;
        cols.set_item("start", f(&|c| c.start))?;
        cols.set_item("completion", f(&|c| c.completion))?;
        cols.set_item("etc", f(&|c| tasks[c.task].etc[c.cluster]))?;
        cols.set_item("value", f(&|c| c.value))?;
        cols.set_item("resources", f(&|c| c.resources))?;
        cols.set_item(
            "counted",
            PyArray1::from_vec(py, cands.iter().map(|c| tasks[c.task].counted).collect()),
        )?;
        let out = self.adapter.call1((&self.policy, ev.now(), cols))?;
        let scores: PyReadonlyArray1<'_, f64> = out.extract()?;
        Ok(scores.as_slice()?.to_vec())
    }
}

impl Objectives for PyObjectives<'_> {
    fn objectives(
        &mut self,
        ev: &MappingEvent<'_>,
        cands: &[Candidate],
    ) -> Result<Vec<f64>, String> {
        self.call(ev, cands).map_err(|e| {
            let message = e.to_string();
            self.error = Some(e);
            message
        })
    }
}

/// Runs environment A's Min-Min loop with a Python objective
/// (`swftool.MinMinPolicy`) on the scenarios `replay` builds from `argv`
/// (days, seed, variant flags checked as `replay` checks them), placing
/// future slots as place-holders (`place_holders`) or reservations. Gives
/// the tables `jobs`, `summary`, `timing` as Parquet bytes. Raises as
/// [`replay_scored`].
#[pyfunction]
fn replay_min_min<'py>(
    py: Python<'py>,
    argv: Vec<String>,
    name: String,
    policy: Bound<'py, PyAny>,
    place_holders: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let cli: ReplayCli = parse(py, &argv)?;
    let (args, read) =
        cmd::replay::checked_input::<Parallel>(&cli.args).map_err(|e| engine_error(py, &e))?;
    let Some((path, log)) = read else {
        return Err(error(
            py,
            "UsageError",
            "--env parallel replays a log: give LOG".into(),
            &[],
        ));
    };
    let (workload, scenarios) = Parallel::scenarios(
        Some(Input {
            log: &log,
            path: &path,
        }),
        &args,
    )
    .map_err(|e| engine_error(py, &anyhow::Error::new(e)))?;
    let mut source = PyObjectives {
        adapter: py.import("swftool.policy")?.getattr("_objectives")?,
        policy,
        error: None,
    };
    let mode = if place_holders {
        Mode::PlaceHolder
    } else {
        Mode::Reserve
    };
    let runs = match parallel_custom::replay_min_min(
        &workload.name,
        &scenarios,
        args.shared.seed(),
        &name,
        mode,
        &mut source,
    ) {
        Ok(r) => r,
        Err(e @ parallel_custom::CustomError::Policy { .. }) => {
            return Err(policy_error(py, e.to_string(), source.error.take()));
        }
        Err(e) => return Err(error(py, "PolicyError", e.to_string(), &[])),
    };
    tables_dict(py, parallel_custom::tables(&runs, cli.args.series_step))
}

/// Replays a log in environment D under a Python priority policy
/// (`swftool.PriorityPolicy`): `argv` are `replay`'s words (its classic
/// flags checked as `replay` checks them), `policy` the user's function,
/// `depth` the reservation depth (`None`: no backfilling). Gives the
/// tables `jobs`, `summary`, `clean` as Parquet bytes. Raises
/// `PolicyError` (the policy's own exception as its cause), `UsageError`,
/// `LogError`, `LogNotFoundError`.
#[pyfunction]
#[pyo3(signature = (argv, name, policy, depth))]
fn replay_scored<'py>(
    py: Python<'py>,
    argv: Vec<String>,
    name: String,
    policy: Bound<'py, PyAny>,
    depth: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let (args, log) = classic_input(py, &argv)?;
    let step = parse::<ReplayCli>(py, &argv)?.args.series_step;
    let mut scorer = PyScorer {
        adapter: py.import("swftool.policy")?.getattr("_score")?,
        policy,
        error: None,
    };
    let result = custom::replay_scored(&log, &args, &name, &mut scorer, depth);
    custom_tables(py, result, &args, step, scorer.error.take())
}

/// A JSON text (a configuration given as a dict) as TOML text. Raises
/// `UsageError` for a value TOML cannot hold (null, mixed arrays).
#[pyfunction]
fn json_to_toml(py: Python<'_>, json: &str) -> PyResult<String> {
    let value: toml::Table = serde_json::from_str(json)
        .map_err(|e| error(py, "UsageError", format!("configuration: {e}"), &[]))?;
    toml::to_string(&value).map_err(|e| error(py, "UsageError", format!("configuration: {e}"), &[]))
}

/// The module `swftool._swftool`.
#[pymodule]
fn _swftool(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(read_swf, m)?)?;
    m.add_function(wrap_pyfunction!(environments, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(experiment, m)?)?;
    m.add_function(wrap_pyfunction!(replay_scored, m)?)?;
    m.add_function(wrap_pyfunction!(replay_controlled, m)?)?;
    m.add_function(wrap_pyfunction!(replay_min_min, m)?)?;
    m.add_function(wrap_pyfunction!(json_to_toml, m)?)?;
    gym::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
