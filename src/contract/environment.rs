//! What the commands need from a scheduling environment: the
//! [`Environment`] trait, the log a replay reads ([`Input`]), one finished
//! run ([`Replayed`]) and why an environment cannot set up a run
//! ([`EnvError`]). Nothing here names an environment: each implements the
//! trait in its own folder (`env/<name>/environment.rs`).

use std::path::Path;

use crate::metrics::columns::SummaryColumn;
use crate::metrics::tables::TableError;
use crate::swf::SwfLog;
use crate::workload::flags::TakesShared;

use super::registry::{Entry, Registry, UnknownName};

/// Why an environment cannot set up a run: a bad heuristic name, a flag
/// that does not fit, a day the log does not have, a scenario that cannot
/// be generated.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    /// A heuristic name not in the environment's registry.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// A day the log does not have.
    #[error(transparent)]
    Day(#[from] crate::workload::DayError),
    /// No log was given to an environment that replays logs only.
    #[error("--env {0} replays a log: give LOG (a path or a short name such as curie)")]
    NoLog(&'static str),
    /// A synthetic workload or a flag that shapes it does not fit.
    #[error(transparent)]
    Workload(#[from] crate::workload::WorkloadError),
    /// A flag or parameter the environment refuses (its own error type,
    /// which names the flag and the values it takes).
    #[error(transparent)]
    Refused(Box<dyn std::error::Error + Send + Sync>),
    /// A scenario could not be generated.
    #[error("{log} {date}: cannot generate the scenario: {source}")]
    Scenario {
        /// The log's file name.
        log: String,
        /// The day.
        date: String,
        /// The generator's error.
        source: crate::workload::ScenarioError,
    },
    /// `swftool synth` for an environment without a synthetic workload to
    /// write ([`Environment::synth`]).
    #[error(
        "environment {0} has no synthetic workload to write: `swftool synth --help` lists the environments that have one"
    )]
    NoSynth(&'static str),
}

/// The log a replay reads, with the file it came from.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The parsed log.
    pub log: &'a SwfLog,
    /// Its file.
    pub path: &'a Path,
}

/// What a replay set up before its runs: the LOG as given, the log read,
/// what the environment prepared from it, the scenarios and the flags. The
/// environment's [`Environment::describe`], [`Environment::write_tables`],
/// [`Environment::workload_name`] and the grid's
/// [`crate::experiment::grid::Grid::replay_grid`] read it.
pub struct Setup<'a, E: Environment> {
    /// The LOG as given on the command line (a path or a short name such
    /// as `curie`), or `synthetic` when none was.
    pub spec: &'a str,
    /// The log read, with its file (`None` for synthetic trials).
    pub input: Option<Input<'a>>,
    /// What the environment prepared from it ([`Environment::scenarios`]).
    pub prepared: &'a E::Prepared,
    /// The scenarios the replay runs.
    pub scenarios: &'a [E::Scenario],
    /// The environment's flags.
    pub args: &'a E::Args,
}

impl<E: Environment> Clone for Setup<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: Environment> Copy for Setup<'_, E> {}

/// One simulated run and what it was set up from: what
/// [`Environment::summarize`] and a grid's cell
/// ([`crate::experiment::grid::Grid::cell`]) read.
pub struct Simulated<'a, E: Environment> {
    /// What the environment prepared from the log ([`Environment::scenarios`]).
    pub prepared: &'a E::Prepared,
    /// The environment's flags.
    pub args: &'a E::Args,
    /// The scenario it ran.
    pub scenario: &'a E::Scenario,
    /// The heuristic it ran.
    pub heuristic: &'a E::Heuristic,
    /// The schedule.
    pub run: &'a E::Run,
}

impl<E: Environment> Clone for Simulated<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: Environment> Copy for Simulated<'_, E> {}

/// What [`Environment::scenarios`] gives: what the environment prepared
/// from the log and the scenarios of the replay, or why it cannot set them
/// up.
pub type Scenarios<E> = Result<
    (
        <E as Environment>::Prepared,
        Vec<<E as Environment>::Scenario>,
    ),
    EnvError,
>;

/// The table names an environment wrote ([`Environment::write_tables`]),
/// each as CSV and Parquet, or the file that could not be written.
pub type Written = Result<Vec<&'static str>, TableError>;

/// One finished run of a replay: which scenario and heuristic, the
/// schedule, its summary and the wall time of the simulation (s).
pub struct Replayed<'a, E: Environment> {
    /// The scenario it ran.
    pub scenario: &'a E::Scenario,
    /// The heuristic it ran.
    pub heuristic: &'a E::Heuristic,
    /// The schedule.
    pub run: E::Run,
    /// Its summary.
    pub summary: E::Summary,
    /// Wall time of the simulation, s (not deterministic).
    pub seconds: f64,
}

/// What the commands need from a scheduling environment. `swftool replay`
/// is written once against it (`cmd/replay.rs`); an environment implements
/// it in its own folder (`env/<name>/environment.rs`) and is listed once in
/// `env/mod.rs` ([`crate::env::NAMES`] and [`crate::env::visit`]).
///
/// A replay: [`Environment::heuristics`] resolves the names given,
/// [`Environment::scenarios`] reads what it needs from the log, then every
/// (scenario, heuristic) pair is simulated in parallel, checked, summarised,
/// printed ([`Environment::table`]) and written
/// ([`Environment::write_tables`]).
pub trait Environment: Sized + Sync + 'static {
    /// The CLI name (`--env NAME`, `environment = "NAME"` in a
    /// configuration).
    const NAME: &'static str;
    /// A one-line title for listings and error messages, with the paper.
    const TITLE: &'static str;
    /// What the environment does with a LOG.
    const LOG: LogUse;
    /// The shared flags ([`crate::workload::flags::SharedArgs`]) it takes, as `--name`.
    const SHARED: &'static [&'static str];
    /// The summary columns that name a run in the printed run table
    /// (`date`/`scenario`, `heuristic`, …); the first is the scenario.
    const RUN_KEYS: &'static [&'static str];
    /// The summary columns the printed mean rows group by (by default the
    /// heuristic alone).
    const MEAN_KEYS: &'static [&'static str] = &["heuristic"];
    /// The registry payload of a heuristic.
    type Policy: Sync + 'static;
    /// The environment's own flags (a clap argument group under its own
    /// heading; every flag optional so that one given with another
    /// environment can be named and refused).
    /// The shared flags it takes ([`Environment::SHARED`]) reach them
    /// through [`TakesShared`].
    type Args: clap::Args + clap::FromArgMatches + TakesShared + Clone + Default + Send + Sync;
    /// A heuristic resolved against the flags: what one run executes (most
    /// often its registry entry, `&'static Entry<Self::Policy>`, which the
    /// default [`Environment::heuristics`] gives; Rust has no default for
    /// an associated type, so each environment names it).
    type Heuristic: Sync + Send + HeuristicName + From<&'static Entry<Self::Policy>>;
    /// What the log gives every scenario (environment A: the usable jobs
    /// and candidate days; D: the machine and the cleaning report).
    type Prepared: Send + Sync;
    /// The input of one simulation.
    type Scenario: Send + Sync + crate::workload::seeds::Seeded;
    /// One simulated schedule.
    type Run: Send + Sync;
    /// The metrics of one run.
    type Summary: Clone + Send + Sync;

    /// The environment's heuristics.
    const REGISTRY: Registry<Self::Policy>;

    /// Checks what can be checked of the flags before the log is read
    /// (`log`: whether a LOG was given): a flag that applies only with (or
    /// without) a log, a parameter out of range.
    ///
    /// # Errors
    /// The first flag that does not fit, named.
    fn check_args(_args: &Self::Args, _log: bool) -> Result<(), EnvError> {
        Ok(())
    }

    /// The heuristics named (`all` expanded), resolved against `args` (by
    /// default: their registry entries, whatever the flags).
    ///
    /// # Errors
    /// An unknown name, or a flag that does not fit the heuristics named.
    fn heuristics(names: &[String], _args: &Self::Args) -> Result<Vec<Self::Heuristic>, EnvError> {
        Ok(Self::REGISTRY
            .resolve(names, |_| true)?
            .into_iter()
            .map(Self::Heuristic::from)
            .collect())
    }

    /// The CLI name of a resolved heuristic.
    fn heuristic_name(h: &Self::Heuristic) -> &'static str {
        h.name()
    }

    /// Prepares the log given (or, for an environment with synthetic
    /// workloads, none) and builds the scenarios a replay runs.
    ///
    /// # Errors
    /// No log where the environment needs one, a flag that does not fit the
    /// log, a day it does not have, a scenario that cannot be generated.
    fn scenarios(input: Option<Input<'_>>, args: &Self::Args) -> Scenarios<Self>;

    /// The lines printed before the runs: the log, the setup, the scenarios.
    fn describe(replay: &Setup<'_, Self>) -> String;

    /// A short name of a scenario for messages (a date, or the log).
    fn scenario_name(scenario: &Self::Scenario) -> String;

    /// Simulates one scenario under one heuristic.
    fn simulate(scenario: &Self::Scenario, heuristic: &Self::Heuristic) -> Self::Run;

    /// Checks the schedule's invariants; every broken one, as a sentence.
    fn check(scenario: &Self::Scenario, run: &Self::Run) -> Vec<String>;

    /// Summarises one run.
    fn summarize(sim: Simulated<'_, Self>) -> Self::Summary;

    /// The columns of [`Environment::Summary`], declared once
    /// ([`crate::metrics::columns`]): they make the `summary` table, a
    /// grid's `runs` and `aggregate` tables and `aggregate.md`, the printed
    /// run table and the mean rows.
    fn summary_columns() -> Vec<SummaryColumn<Self::Summary>>;

    /// The `summary` table: one row per run of `rows`, the columns of
    /// [`Environment::summary_columns`] but the wall-clock ones (their own
    /// `timing` table), in declaration order.
    ///
    /// # Errors
    /// A polars error if the columns cannot be assembled (a bug in the
    /// declaration).
    fn summary_frame(
        rows: &[&Self::Summary],
    ) -> polars::prelude::PolarsResult<polars::prelude::DataFrame> {
        crate::metrics::columns::frame(&Self::summary_columns(), rows)
    }

    /// The `summary` table of `runs`: [`Environment::summary_frame`] of
    /// their summaries, one row per run in their order.
    ///
    /// # Errors
    /// As [`Environment::summary_frame`].
    fn summary_table(
        runs: &[Replayed<'_, Self>],
    ) -> polars::prelude::PolarsResult<polars::prelude::DataFrame> {
        let rows: Vec<&Self::Summary> = runs.iter().map(|r| &r.summary).collect();
        Self::summary_frame(&rows)
    }

    /// The table printed after the runs: one line per run with the
    /// printed summary columns ([`crate::metrics::columns::run_table`]),
    /// and when the runs span several scenarios, the mean rows per
    /// [`Environment::MEAN_KEYS`] ([`crate::metrics::columns::mean_rows`]).
    fn table(runs: &[Replayed<'_, Self>], _args: &Self::Args) -> String {
        let rows: Vec<&Self::Summary> = runs.iter().map(|r| &r.summary).collect();
        let columns = Self::summary_columns();
        let mut out = crate::metrics::columns::run_table(&columns, &rows, Self::RUN_KEYS);
        let scenarios: std::collections::BTreeSet<String> = runs
            .iter()
            .map(|r| Self::scenario_name(r.scenario))
            .collect();
        if scenarios.len() > 1 {
            out.push('\n');
            out.push_str(
                &crate::metrics::columns::mean_rows(&columns, &rows, Self::MEAN_KEYS)
                    .unwrap_or_else(|e| format!("(no mean rows: {e})\n")),
            );
        }
        out
    }

    /// The subcommand `swftool synth NAME` (NAME: [`Environment::NAME`]),
    /// which writes one trial of the environment's synthetic workload as
    /// an SWF log with a sidecar table: its flags, help and examples.
    /// `None` (the default): the environment has no synthetic workload to
    /// write, and `synth` has no subcommand for it.
    fn synth_command() -> Option<clap::Command> {
        None
    }

    /// Runs `swftool synth NAME` with the flags of
    /// [`Environment::synth_command`] as parsed (`matches`); returns what
    /// it wrote, as the lines to print.
    ///
    /// # Errors
    /// [`EnvError::NoSynth`] (the default, for an environment without a
    /// synthetic workload); a flag out of range, named; a file that cannot
    /// be written, named.
    fn synth(_matches: &clap::ArgMatches) -> Result<String, EnvError> {
        Err(EnvError::NoSynth(Self::NAME))
    }

    /// The run as a neutral record ([`crate::output::Record`]): every
    /// job's owner, submit, pieces, fate and earnings. The time series,
    /// `--export` and the per-user tables are written from it, the same for
    /// every environment. `resources`: whether the pieces name the
    /// resources each job ran on (Batsim's `allocated_resources`; an
    /// environment may replay the run again to learn them), needed by the
    /// exports only.
    fn record(sim: Simulated<'_, Self>, resources: bool) -> crate::output::Record;

    /// Batsim's workload name of a replay's exports: the log's file name
    /// without `.swf`/`.gz`, or `synthetic`.
    fn workload_name(replay: &Setup<'_, Self>) -> String {
        replay.input.map_or("synthetic".to_string(), |i| {
            crate::metrics::batsim::workload_name(&i.log.name)
        })
    }

    /// The bounded-slowdown threshold τ of the per-user tables, s (by
    /// default [`crate::metrics::formulas::DEFAULT_TAU`]; environment D's
    /// `--tau`).
    fn bsld_tau(_args: &Self::Args) -> f64 {
        crate::metrics::formulas::DEFAULT_TAU
    }

    /// Writes the environment's tables of the runs into `dir`; returns the
    /// table names written (each as CSV and Parquet).
    ///
    /// # Errors
    /// [`TableError`] naming the file.
    fn write_tables(dir: &Path, replay: &Setup<'_, Self>, runs: &[Replayed<'_, Self>]) -> Written;
}

/// What an environment does with a LOG.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogUse {
    /// It replays logs: a LOG is needed.
    Required,
    /// It replays a LOG when given, else a synthetic trial.
    Optional,
    /// It runs synthetic trials only (it takes no LOG in a grid, and in
    /// `compare`).
    Synthetic,
}

/// Names and summaries of `E`'s heuristics, in registry order.
pub fn heuristic_list<E: Environment>() -> Vec<(&'static str, &'static str)> {
    E::REGISTRY.iter().map(|e| (e.name, e.summary)).collect()
}

/// The CLI name of a resolved heuristic.
pub trait HeuristicName {
    /// The name, as `--heuristic` and the tables spell it.
    fn name(&self) -> &'static str;
}

impl<P> HeuristicName for &'static Entry<P> {
    fn name(&self) -> &'static str {
        self.name
    }
}
