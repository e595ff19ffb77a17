//! Scheduling environments. Each is one folder: its engine (the event loop
//! and the machine state), its heuristics behind one small trait, its
//! parameters (a clap argument group), its schedule checks, its run summary
//! and its tables. What they share lives here: the [`Environment`] trait the
//! commands are written against, the heuristic [`registry`] type, and
//! [`EnvKind`], the one place the environments are listed.
//!
//! - [`parallel`] — environment A: value-based scheduling on heterogeneous
//!   parallel clusters with place-holders (Khemka et al. 2015).
//! - [`serial`] — environment B: serial tasks with utility functions and
//!   preemption on heterogeneous clusters of cores (Machovec et al. 2017).
//! - [`energy`] — environment C: utility under a daily energy budget on
//!   heterogeneous machines with P-states, queued or polled (Khemka et al.).
//! - [`classic`] — environment D: trace replay on the log's own machine with
//!   FCFS, backfilling and Catalina's priority and preemption (Margo et al.).

pub mod classic;
pub mod energy;
pub mod parallel;
pub mod registry;
pub mod serial;

pub use registry::{Entry, Registry, UnknownName};

use std::path::Path;

use crate::metrics::tables::TableError;
use crate::swf::SwfLog;

/// The scheduling environments, as `--env NAME` and the `environment` key
/// of experiment configurations name them.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum EnvKind {
    /// Environment A: heterogeneous parallel clusters, value-based, one day
    /// at a time.
    #[default]
    Parallel,
    /// Environment B: serial tasks on heterogeneous clusters of cores,
    /// utility functions and preemption.
    Serial,
    /// Environment C: utility under a daily energy budget, P-states, queued
    /// or polled task management.
    Energy,
    /// Environment D: classic replay of the whole log on its own machine.
    Classic,
}

impl EnvKind {
    /// Every environment, in listing order.
    pub const ALL: [EnvKind; 4] = [
        EnvKind::Parallel,
        EnvKind::Serial,
        EnvKind::Energy,
        EnvKind::Classic,
    ];

    /// The CLI name.
    pub fn name(self) -> &'static str {
        match self {
            EnvKind::Parallel => "parallel",
            EnvKind::Serial => "serial",
            EnvKind::Energy => "energy",
            EnvKind::Classic => "classic",
        }
    }

    /// A one-line title for listings and error messages.
    pub fn title(self) -> &'static str {
        match self {
            EnvKind::Parallel => {
                "Environment A (heterogeneous parallel clusters, value-based; Khemka et al. 2015)"
            }
            EnvKind::Serial => {
                "Environment B (serial tasks, utility functions, preemption; Machovec et al. 2017)"
            }
            EnvKind::Energy => {
                "Environment C (utility under a daily energy budget, P-states, queued or polled; Khemka et al. 2015)"
            }
            EnvKind::Classic => {
                "Environment D (classic replay on the log's own machine; Margo et al.)"
            }
        }
    }

    /// Names and summaries of the environment's heuristics, in registry
    /// order.
    pub fn heuristics(self) -> Vec<(&'static str, &'static str)> {
        match self {
            EnvKind::Parallel => parallel::HEURISTICS
                .iter()
                .map(|e| (e.name, e.summary))
                .collect(),
            EnvKind::Serial => serial::HEURISTICS
                .iter()
                .map(|e| (e.name, e.summary))
                .collect(),
            EnvKind::Energy => energy::HEURISTICS
                .iter()
                .map(|e| (e.name, e.summary))
                .collect(),
            EnvKind::Classic => classic::SCHEDULERS
                .iter()
                .map(|e| (e.name, e.summary))
                .collect(),
        }
    }
}

impl std::fmt::Display for EnvKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why an environment cannot set up a run: a bad heuristic name, a flag
/// that does not fit, a day the log does not have, a scenario that cannot
/// be generated.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    /// A heuristic name not in the environment's registry.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// A flag of environment D that does not fit.
    #[error(transparent)]
    Classic(#[from] classic::ClassicArgsError),
    /// A day of environment A the log does not have.
    #[error(transparent)]
    Day(#[from] crate::workload::DayError),
    /// A system size environment A cannot build.
    #[error(transparent)]
    SystemSize(#[from] parallel::params::SystemSizeRefused),
    /// No log was given to an environment that replays logs only.
    #[error("--env {0} replays a log: give LOG (a path or a short name such as curie)")]
    NoLog(EnvKind),
    /// A flag of environment B that does not fit.
    #[error(transparent)]
    Serial(#[from] serial::SerialArgsError),
    /// A workload or flag of environment C that does not fit.
    #[error(transparent)]
    Energy(crate::workload::WorkloadError),
    /// A scenario of environment A could not be generated.
    #[error("{log} {date}: cannot generate the scenario: {source}")]
    Scenario {
        /// The log's file name.
        log: String,
        /// The day.
        date: String,
        /// The generator's error.
        source: crate::workload::ScenarioError,
    },
}

/// The log a replay reads, with the file it came from.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The parsed log.
    pub log: &'a SwfLog,
    /// Its file.
    pub path: &'a Path,
}

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
/// [`EnvKind`].
///
/// A replay: [`Environment::heuristics`] resolves the names given,
/// [`Environment::scenarios`] reads what it needs from the log, then every
/// (scenario, heuristic) pair is simulated in parallel, checked, summarised,
/// printed ([`Environment::table`]) and written
/// ([`Environment::write_tables`]).
pub trait Environment: Sized + Sync + 'static {
    /// Which environment this is.
    const KIND: EnvKind;
    /// The registry payload of a heuristic.
    type Policy: Sync + 'static;
    /// The environment's flags (a clap argument group).
    type Args: Send + Sync;
    /// A heuristic resolved against the flags: what one run executes.
    type Heuristic: Sync + Send;
    /// What the log gives every scenario (environment A: the usable jobs
    /// and candidate days; D: the machine and the cleaning report).
    type Prepared: Send + Sync;
    /// The input of one simulation.
    type Scenario: Send + Sync;
    /// One simulated schedule.
    type Run: Send + Sync;
    /// The metrics of one run.
    type Summary: Clone + Send + Sync;

    /// The environment's heuristics.
    fn registry() -> Registry<Self::Policy>;

    /// The heuristics named (`all` expanded), resolved against `args`.
    ///
    /// # Errors
    /// An unknown name, or a flag that does not fit the heuristics named.
    fn heuristics(names: &[String], args: &Self::Args) -> Result<Vec<Self::Heuristic>, EnvError>;

    /// The CLI name of a resolved heuristic.
    fn heuristic_name(h: &Self::Heuristic) -> &'static str;

    /// Prepares the log given (or, for an environment with synthetic
    /// workloads, none) and builds the scenarios a replay runs.
    ///
    /// # Errors
    /// No log where the environment needs one, a flag that does not fit the
    /// log, a day it does not have, a scenario that cannot be generated.
    fn scenarios(
        input: Option<Input<'_>>,
        args: &Self::Args,
    ) -> Result<(Self::Prepared, Vec<Self::Scenario>), EnvError>;

    /// The lines printed before the runs: the log, the setup, the scenarios.
    fn describe(
        input: Option<Input<'_>>,
        prepared: &Self::Prepared,
        scenarios: &[Self::Scenario],
        args: &Self::Args,
    ) -> String;

    /// A short name of a scenario for messages (a date, or the log).
    fn scenario_name(scenario: &Self::Scenario) -> String;

    /// Simulates one scenario under one heuristic.
    fn simulate(scenario: &Self::Scenario, heuristic: &Self::Heuristic) -> Self::Run;

    /// Checks the schedule's invariants; every broken one, as a sentence.
    fn check(scenario: &Self::Scenario, run: &Self::Run) -> Vec<String>;

    /// Summarises one run.
    fn summarize(
        prepared: &Self::Prepared,
        scenario: &Self::Scenario,
        heuristic: &Self::Heuristic,
        run: &Self::Run,
        args: &Self::Args,
    ) -> Self::Summary;

    /// The table printed after the runs.
    fn table(runs: &[Replayed<'_, Self>], args: &Self::Args) -> String;

    /// Writes the environment's tables of the runs into `dir`; returns the
    /// table names written (each as CSV and Parquet).
    ///
    /// # Errors
    /// [`TableError`] naming the file.
    fn write_tables(
        dir: &Path,
        prepared: &Self::Prepared,
        runs: &[Replayed<'_, Self>],
        args: &Self::Args,
    ) -> Result<Vec<&'static str>, TableError>;
}
