//! What the grid runner needs from an environment beyond [`Environment`]:
//! its own configuration keys, how a configuration gives its parameters and
//! variants, how a log is laid out into scenarios, how the scenario of a
//! cell is built, what a cell file holds, and which tables, Markdown and
//! figures the cells give. The runner ([`super::runner`]), `experiment`,
//! `compare` and `aggregate` are written once against it; each environment
//! implements it in its own folder (`env/<name>/grid`). The grid's layout
//! (logs, scenarios, variants, heuristics, cells) and the plan (the layout
//! with the logs read) are here too. A command reaches the environment a
//! name stands for without naming it through `crate::env::GridVisitor`.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::ExperimentError;
use super::config::{ConfigError, ExperimentConfig};
use crate::catalog;
use crate::contract::{EnvError, Environment, LogUse, Setup, Simulated};
use crate::swf::{ReadOptions, SwfLog};

/// The heuristic whose schedule the Gantt chart shows, when in the grid.
pub const GANTT_HEURISTIC: &str = "maxvpr-ph";

/// What a report wrote: the Markdown to print, the tables (each as CSV and
/// Parquet) and the other files.
#[derive(Debug, Clone, Default)]
pub struct GridReport {
    /// Lines printed before the Markdown (not written).
    pub preface: String,
    /// Markdown printed at the end (also written to a file).
    pub markdown: String,
    /// Table names written into the output directory.
    pub tables: Vec<&'static str>,
    /// Other files written (Markdown, figures), in a fixed order.
    pub files: Vec<PathBuf>,
}

/// A built-in experiment of an environment (`--preset NAME`).
pub struct Preset {
    /// One line for listings and `--help`, with its source.
    pub summary: &'static str,
    /// The grid.
    pub config: ExperimentConfig,
}

/// A cell file's place in the grid: the id its file name says, and its
/// position in the cell order (set when it is loaded).
pub trait GridCell {
    /// The cell id (`<log>_<variant id>_<scenario>_<heuristic>`).
    fn id(&self) -> &str;
    /// Sets the cell's position in the cell order.
    fn set_index(&mut self, index: usize);
}

/// Implements [`GridCell`] for a cell struct with the fields `id: String`
/// and `index: usize`.
#[macro_export]
macro_rules! grid_cell {
    ($cell:ty) => {
        impl $crate::experiment::grid::GridCell for $cell {
            fn id(&self) -> &str {
                &self.id
            }
            fn set_index(&mut self, index: usize) {
                self.index = index;
            }
        }
    };
}

/// An environment the grid runner can run.
pub trait Grid: Environment {
    /// What one finished cell leaves in `cells/<id>.json` (a struct with
    /// its `id` and `index`: [`crate::grid_cell!`]).
    type Cell: Serialize + DeserializeOwned + Send + Sync + GridCell;

    /// The environment's own configuration keys, beside the shared ones
    /// (`seed`, `days`, …; [`ExperimentConfig`]); a key that is neither is
    /// refused naming its line.
    type Section: Serialize
        + DeserializeOwned
        + Default
        + PartialEq
        + std::fmt::Debug
        + Clone
        + Send
        + Sync;

    /// The top-level keys of [`Grid::Section`] (a key of another
    /// environment's section is refused naming the environment it belongs
    /// to).
    const SECTION_KEYS: &'static [&'static str];

    /// Keys of [`Grid::Section`] that add or drop variants without changing
    /// what a cell already done means (environment A: `axes`, `variants`):
    /// a grid whose configuration changes only these, and the common
    /// growable keys, runs into the same folder, reusing its cells.
    const GROWABLE: &'static [&'static str] = &[];

    /// Whether each cell keeps its run's time series (hourly bins,
    /// [`crate::metrics::series::CellSeries`]) for the grid's `series`
    /// table and figures; environment D, whose scenarios are whole logs
    /// (one per log, so no band over scenarios, and thousands of bins),
    /// does not.
    const CELL_SERIES: bool = true;

    /// The environment's built-in experiments, by name.
    fn presets() -> Vec<(&'static str, Preset)>;

    /// The environment's own keys, as comment lines for the header of a
    /// dumped configuration (`--dump-preset`).
    const SECTION_HELP: &'static str;

    /// Checks what the schema cannot: heuristic names, ranges, keys that
    /// exclude each other (`config` already passed
    /// [`ExperimentConfig::validate`], `section` parsed).
    ///
    /// # Errors
    /// [`ConfigError`] naming `origin` and the key.
    fn check_config(
        config: &ExperimentConfig,
        section: &Self::Section,
        origin: &Path,
    ) -> Result<(), ConfigError>;

    /// The environment's parameters as `config` gives them.
    fn grid_args(config: &ExperimentConfig, section: &Self::Section) -> Self::Args;

    /// The distinct variants of the grid (none where the environment has no
    /// variant axes: its cells then have the variant id `default`).
    fn variants(config: &ExperimentConfig, section: &Self::Section) -> Vec<VariantRecord>;

    /// Prepares one log (read from the file `key` names) and lays out its
    /// scenarios.
    ///
    /// # Errors
    /// A log without a usable scenario, a date it does not have, a
    /// parameter that does not fit it.
    fn lay_out(log: &SwfLog, key: &str, setup: GridSetup<'_, Self>) -> LaidOut<Self::Prepared>;

    /// A grid without logs (synthetic trials): what its scenarios are
    /// prepared from and its one pseudo-log's layout; `None` for an
    /// environment that needs logs.
    ///
    /// # Errors
    /// What the environment finds wrong in preparing them (environment C:
    /// a budget that leaves the tasks no energy).
    fn synthetic(
        _config: &ExperimentConfig,
        _args: &Self::Args,
    ) -> Result<Option<(Self::Prepared, LogLayout)>, ExperimentError> {
        Ok(None)
    }

    /// Notes to print about the laid-out grid (environment A: a log with
    /// fewer days in range than asked).
    fn notes(_plan: &Plan<Self>) -> Vec<String> {
        Vec::new()
    }

    /// The estimated cost of scenario `day` of log `log` of `plan`, in any
    /// unit shared by the grid's scenarios, for dealing shards
    /// ([`super::runner::Shard::deal`]); 1 unless the environment knows
    /// better.
    fn scenario_cost(_plan: &Plan<Self>, _log: usize, _day: usize) -> f64 {
        1.0
    }

    /// The scenario of `cell` (shared by the cells that differ only in the
    /// heuristic).
    ///
    /// # Errors
    /// A scenario that cannot be generated.
    fn scenario(plan: &Plan<Self>, cell: &CellSpec) -> Result<Self::Scenario, ExperimentError>;

    /// The cell file of one run.
    fn cell(plan: &Plan<Self>, cell: &CellSpec, sim: Simulated<'_, Self>) -> Self::Cell;

    /// Writes the tables, the Markdown summary and (with `to.figures`) the
    /// figures of `cells` (in cell order) into `to.out`.
    ///
    /// # Errors
    /// A table or figure that cannot be built or written.
    fn report(to: &ReportTo<'_>, cells: &[Self::Cell]) -> Result<GridReport, ExperimentError>;

    /// The configuration and layout a replay of one log amounts to (its
    /// heuristics, the scenarios it built, every parameter and seed), for
    /// the replay's manifest. `base` is the configuration before the
    /// environment's own keys ([`ExperimentConfig::replay`]: the heuristics
    /// run and the shared flags given).
    fn replay_grid(replay: &Setup<'_, Self>, base: ExperimentConfig) -> (ExperimentConfig, Layout);

    /// `compare`: the grid of `logs` side by side (each log its own
    /// system), from the flags given.
    ///
    /// # Errors
    /// A flag that does not apply to a comparison (a flag of one day, a
    /// flag of synthetic trials), or an environment that does not compare
    /// logs.
    fn compare_config(
        logs: &[String],
        heuristics: &[String],
        args: &Self::Args,
    ) -> Result<ExperimentConfig, EnvError>;

    /// `compare`: the side-by-side Markdown (also `compare.md`) and figure
    /// of the logs of the grid.
    ///
    /// # Errors
    /// A file that cannot be written.
    fn compare(
        layout: &Layout,
        cells: &[Self::Cell],
        out: &Path,
    ) -> Result<GridReport, ExperimentError>;

    /// Flags of `swftool experiment` that change this environment's grids
    /// (environment D: `--window-start`, `--window`), added to the command
    /// under the environment's heading.
    fn experiment_flags(cmd: clap::Command) -> clap::Command {
        cmd
    }

    /// Applies the flags of [`Grid::experiment_flags`] given in `matches`
    /// to `config`; returns the flags applied, as `--name`.
    ///
    /// # Errors
    /// A flag that does not fit this configuration.
    fn apply_experiment_flags(
        _config: &mut ExperimentConfig,
        _matches: &clap::ArgMatches,
    ) -> Result<Vec<&'static str>, ConfigError> {
        Ok(Vec::new())
    }
}

/// One variant of a grid as the layout records it: its id (in cell ids
/// and tables), whether it is the environment's default, and its
/// parameters as the environment writes them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantRecord {
    /// File-name-safe id (`default`, `o-higher_c-weak_h-low`, …).
    pub id: String,
    /// Whether it is the environment's default variant (the figures'
    /// scenario is drawn from it when it is in the grid).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
    /// The variant's parameters (the environment's own type, as JSON).
    pub params: serde_json::Value,
}

impl VariantRecord {
    /// The record of `variant`, with its id and whether it is the
    /// default.
    pub fn new<V: Serialize>(id: String, default: bool, variant: &V) -> VariantRecord {
        VariantRecord {
            id,
            default,
            params: serde_json::to_value(variant).unwrap_or(serde_json::Value::Null),
        }
    }

    /// The variant's parameters as the environment's type.
    ///
    /// # Errors
    /// Parameters that are not a `V` (a manifest written by another
    /// environment or version).
    pub fn params<V: DeserializeOwned>(&self) -> Result<V, serde_json::Error> {
        serde_json::from_value(self.params.clone())
    }
}

/// One scenario of one log in the grid: a day (environment A) or the whole
/// log or a window of it (environment D).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DayLayout {
    /// Local date `YYYY-MM-DD`, or `whole` / `window-<first job index>`.
    pub date: String,
    /// Local midnight (or the first submit of the scenario) on the log's
    /// clock, s.
    pub start: f64,
    /// Scenario seed derived from the user seed and the day (the same for
    /// every variant: variants share their random numbers).
    pub scenario_seed: u64,
}

/// One log of the grid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogLayout {
    /// Short key used in cell ids and tables (`curie`, or the file stem).
    pub key: String,
    /// Name of the log file.
    pub file: String,
    /// The log's processor count (MaxProcs, else MaxNodes, else the largest
    /// job), cores: the base of its system sizes unless `cores_base` is set.
    pub max_procs: f64,
    /// Candidate days the log has.
    pub candidate_days: usize,
    /// Environment A: the arrival range the days were chosen from and the
    /// chosen days' totals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day_set: Option<DaySetRecord>,
    /// The days used.
    pub days: Vec<DayLayout>,
}

/// The `log` key of a synthetic workload (no log) in cell ids and tables.
pub const SYNTHETIC_KEY: &str = "synthetic";

impl LogLayout {
    /// The layout of `trials` synthetic trials (no log file): one
    /// scenario per trial, dated `trial-N`, starting at 0 s, seeded from
    /// the user `seed` and the trial number; `max_procs` is the synthetic
    /// system's size in cores or machines (0 where it has none).
    pub fn synthetic_trials(seed: u64, trials: u64, max_procs: f64) -> LogLayout {
        use crate::workload::seeds::{ScenarioKey, scenario_seed};
        LogLayout {
            key: SYNTHETIC_KEY.to_string(),
            file: String::new(),
            max_procs,
            candidate_days: trials as usize,
            day_set: None,
            days: (0..trials)
                .map(|t| DayLayout {
                    date: format!("trial-{t}"),
                    start: 0.0,
                    scenario_seed: scenario_seed(seed, ScenarioKey::Trial(t)),
                })
                .collect(),
        }
    }
}

/// How environment A's days were chosen, as recorded in the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DaySetRecord {
    /// The rule as given (`standard`, `any`, `MIN-MAX`, `pLO-pHI`).
    pub rule: String,
    /// Fewest arrivals of a day in range.
    pub min_arrivals: usize,
    /// Most arrivals of a day in range.
    pub max_arrivals: usize,
    /// Where the bounds come from.
    pub source: String,
    /// Candidate days in range.
    pub days_in_range: usize,
    /// Totals of the chosen days.
    pub totals: crate::workload::DayTotals,
    /// The paper's totals for the same log, when there are any (Curie:
    /// Khemka et al. 2015, §5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<crate::workload::DayTotals>,
}

impl DaySetRecord {
    /// The record of `days` chosen from `set` of `w`.
    pub fn new(
        w: &crate::workload::Workload,
        set: &crate::workload::DaySet,
        days: &[crate::workload::DayWindow],
    ) -> DaySetRecord {
        DaySetRecord {
            rule: set.rule.to_string(),
            min_arrivals: set.min,
            max_arrivals: set.max,
            source: set.source.clone(),
            days_in_range: set.eligible.len(),
            totals: crate::workload::DayTotals::of(days),
            paper: w
                .is_curie
                .then_some(crate::workload::days::CURIE_PAPER_TOTALS),
        }
    }
}

/// The days `config` picks from the log `w` (its `dates`, or `days`
/// evenly spaced over the days in its arrival range, all of them when the
/// log has fewer) and the log's layout, every day seeded from the config
/// seed and its midnight. Shared by the environments that replay days.
///
/// # Errors
/// [`ExperimentError::Days`]: a date the log does not have, or no day.
pub fn lay_out_days(
    w: &crate::workload::Workload,
    key: &str,
    config: &ExperimentConfig,
) -> Result<(Vec<crate::workload::DayWindow>, LogLayout), ExperimentError> {
    use crate::workload::seeds::{ScenarioKey, scenario_seed};
    use crate::workload::{DayPick, pick_days};
    let range = config.day_arrivals.unwrap_or_default();
    let pick = match &config.dates {
        Some(dates) => DayPick::Dates(dates),
        // A log with fewer days in range than asked uses all it has.
        None => DayPick::Count(
            config
                .day_count()
                .min(w.day_set(range).eligible.len())
                .max(1),
        ),
    };
    let (set, days) = pick_days(w, pick, range).map_err(|source| ExperimentError::Days {
        log: key.to_string(),
        source,
    })?;
    let layout = LogLayout {
        key: key.to_string(),
        file: w.name.clone(),
        max_procs: w.max_procs,
        candidate_days: w.candidates.len(),
        day_set: Some(DaySetRecord::new(w, &set, &days)),
        days: days
            .iter()
            .map(|d| DayLayout {
                date: d.date.clone(),
                start: d.start,
                scenario_seed: scenario_seed(config.seed, ScenarioKey::Day(d.start)),
            })
            .collect(),
    };
    Ok((days, layout))
}

/// The grid, by name only: everything needed to enumerate the cells without
/// reading the logs (it is stored in every manifest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    /// The environment's CLI name.
    pub environment: String,
    /// The logs, in config order.
    pub logs: Vec<LogLayout>,
    /// The distinct variants (empty for an environment without variant
    /// axes: its cells have the variant id `default`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<VariantRecord>,
    /// The heuristic names, `all` expanded.
    pub heuristics: Vec<String>,
}

/// One cell of the grid.
#[derive(Debug, Clone, PartialEq)]
pub struct CellSpec {
    /// Position in the fixed cell order, from 0.
    pub index: usize,
    /// Index into [`Layout::logs`].
    pub log: usize,
    /// Index into [`Layout::variants`].
    pub variant: usize,
    /// Index into the log's days.
    pub day: usize,
    /// Index into [`Layout::heuristics`].
    pub heuristic: usize,
    /// File-name-safe id: `<log>_<variant id>_<date>_<heuristic>`.
    pub id: String,
}

/// A grid's configuration as an environment reads it in
/// [`Grid::lay_out`]: the shared keys, its own section and its flags
/// ([`Grid::grid_args`]).
pub struct GridSetup<'a, E: Grid> {
    /// The configuration.
    pub config: &'a ExperimentConfig,
    /// The environment's own keys.
    pub section: &'a E::Section,
    /// The environment's flags as the configuration gives them.
    pub args: &'a E::Args,
}

impl<E: Grid> Clone for GridSetup<'_, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: Grid> Copy for GridSetup<'_, E> {}

/// What a grid's report is of and where it goes ([`Grid::report`]).
#[derive(Debug, Clone, Copy)]
pub struct ReportTo<'a> {
    /// The grid's layout.
    pub layout: &'a Layout,
    /// Its configuration.
    pub config: &'a ExperimentConfig,
    /// The folder the tables, Markdown and figures go into.
    pub out: &'a Path,
    /// Whether to draw the figures.
    pub figures: bool,
}

/// What [`Grid::lay_out`] gives: what the environment prepared from the
/// log and its layout, or why the log cannot be laid out.
pub type LaidOut<P> = Result<(P, LogLayout), ExperimentError>;

/// A variant's short label (the `variant` column): `default` when nothing
/// in `changed` is given, else the settings given (those that differ from
/// the defaults, e.g. `correlation=none`), in order, joined by `sep`.
pub fn variant_label(changed: impl IntoIterator<Item = Option<String>>, sep: &str) -> String {
    let parts: Vec<String> = changed.into_iter().flatten().collect();
    if parts.is_empty() {
        "default".to_string()
    } else {
        parts.join(sep)
    }
}

impl Layout {
    /// The day of `cell` in `w`, the log it was laid out from.
    ///
    /// # Errors
    /// [`ExperimentError::Days`] naming the log and the date when `w` has
    /// no candidate day of that date.
    pub fn day_window(
        &self,
        w: &crate::workload::Workload,
        cell: &CellSpec,
    ) -> Result<crate::workload::DayWindow, ExperimentError> {
        let log = &self.logs[cell.log];
        let date = &log.days[cell.day].date;
        w.day_by_date(date).ok_or_else(|| ExperimentError::Days {
            log: log.key.clone(),
            source: crate::workload::DayError::Date {
                log: log.file.clone(),
                date: date.clone(),
                first: String::new(),
                last: String::new(),
            },
        })
    }

    /// Number of distinct variants (1 for a grid without variant axes).
    pub fn variant_count(&self) -> usize {
        self.variants.len().max(1)
    }

    /// The id of variant `vi`, or `default`.
    pub fn variant_id(&self, vi: usize) -> String {
        self.variants
            .get(vi)
            .map_or_else(|| "default".to_string(), |v| v.id.clone())
    }

    /// The variants' parameters as the environment's type `V`, in grid
    /// order.
    ///
    /// # Errors
    /// A variant that is not a `V` (a manifest of another environment).
    pub fn variants_as<V: DeserializeOwned>(&self) -> Result<Vec<V>, ExperimentError> {
        self.variants
            .iter()
            .map(|v| {
                v.params().map_err(|e| ExperimentError::Layout {
                    what: format!("variant `{}`: {e}", v.id),
                })
            })
            .collect()
    }

    /// Number of cells.
    pub fn cell_count(&self) -> usize {
        self.logs.iter().map(|l| l.days.len()).sum::<usize>()
            * self.variant_count()
            * self.heuristics.len()
    }

    /// Every cell, in the fixed order.
    pub fn cells(&self) -> Vec<CellSpec> {
        let mut out = Vec::with_capacity(self.cell_count());
        for (li, log) in self.logs.iter().enumerate() {
            for vi in 0..self.variant_count() {
                let vid = self.variant_id(vi);
                for (di, d) in log.days.iter().enumerate() {
                    for (hi, h) in self.heuristics.iter().enumerate() {
                        out.push(CellSpec {
                            index: out.len(),
                            log: li,
                            variant: vi,
                            day: di,
                            heuristic: hi,
                            id: format!("{}_{}_{}_{}", log.key, vid, d.date, h),
                        });
                    }
                }
            }
        }
        out
    }

    /// The variant of the figure scenario: the default one, else the first.
    pub fn figure_variant(&self) -> usize {
        self.variants.iter().position(|v| v.default).unwrap_or(0)
    }

    /// The heuristic whose schedule is kept for the Gantt chart.
    pub fn gantt_heuristic(&self) -> usize {
        self.heuristics
            .iter()
            .position(|h| h == GANTT_HEURISTIC)
            .unwrap_or(0)
    }

    /// The day (index into the log's days) whose cumulative value and Gantt
    /// chart are drawn: the middle one, which for 48 standard days is the
    /// default day of `swftool replay`.
    pub fn figure_day(&self, log: usize) -> usize {
        self.logs.get(log).map_or(0, |l| l.days.len() / 2)
    }

    /// Whether `cell` is in a figure scenario (the figure day of the figure
    /// variant of its log).
    pub fn is_figure_cell(&self, cell: &CellSpec) -> bool {
        cell.day == self.figure_day(cell.log) && cell.variant == self.figure_variant()
    }
}

/// Checks `config` for environment `E`: its shared keys, its own section
/// (parsed, each key named with its line when wrong) and what `E` checks
/// of them; returns the section.
///
/// # Errors
/// [`ConfigError`]: an environment other than `E`'s, a key `E` does not
/// take, a value out of range.
pub fn check<E: Grid>(config: &ExperimentConfig) -> Result<E::Section, ConfigError> {
    let origin = config.origin();
    if config.environment_name() != E::NAME {
        return Err(ConfigError::Invalid {
            path: origin.to_path_buf(),
            key: "environment",
            message: format!(
                "`{}` given where environment `{}` was expected",
                config.environment_name(),
                E::NAME
            ),
        });
    }
    config.check_shared(E::NAME, E::SHARED, origin)?;
    let logs = |message: String| ConfigError::Invalid {
        path: origin.to_path_buf(),
        key: "logs",
        message,
    };
    match E::LOG {
        LogUse::Required if config.logs.is_empty() => {
            return Err(logs("at least one log is needed".into()));
        }
        LogUse::Synthetic if !config.logs.is_empty() => {
            return Err(logs(format!(
                "`logs` does not apply to environment = \"{}\" (it runs synthetic trials: give `trials`)",
                E::NAME
            )));
        }
        _ => {}
    }
    let section: E::Section = config.section()?;
    E::check_config(config, &section, origin)?;
    E::heuristics(&config.heuristics, &E::grid_args(config, &section)).map_err(|e| match e {
        EnvError::Unknown(source) => ConfigError::Heuristic {
            path: origin.to_path_buf(),
            source,
        },
        e => ConfigError::Refused {
            path: origin.to_path_buf(),
            source: Box::new(e),
        },
    })?;
    Ok(section)
}

/// A configuration with its logs read and laid out: ready to run.
pub struct Plan<E: Grid> {
    /// The configuration.
    pub config: ExperimentConfig,
    /// The grid by name.
    pub layout: Layout,
    /// Where each log was found, in layout order.
    pub paths: Vec<PathBuf>,
    /// SHA-256 of each log's decompressed text, in the order of `paths`.
    pub sha256: Vec<String>,
    /// What each log gives its scenarios, in layout order.
    pub prepared: Vec<E::Prepared>,
    /// The heuristics, in layout order.
    pub heuristics: Vec<E::Heuristic>,
    /// The environment's parameters, as the configuration gives them.
    pub args: E::Args,
    /// The environment's own configuration keys.
    pub section: E::Section,
    /// What the reader noticed about the logs (jobs out of submit order,
    /// repeated job numbers) and a known log recognised by content under
    /// another file name (or by its file name only), one line each, to print.
    pub log_notes: Vec<String>,
}

impl<E: Grid> Plan<E> {
    /// Resolves and reads the logs of `config` (in parallel), lays out their
    /// scenarios and the grid.
    ///
    /// # Errors
    /// Unknown heuristic or log, unreadable log, a log without usable days,
    /// an explicit date that is not a usable day, two logs with one key, a
    /// parameter that does not fit a log.
    pub fn new(config: &ExperimentConfig) -> Result<Plan<E>, ExperimentError> {
        let section = check::<E>(config)?;
        let args = E::grid_args(config, &section);
        let heuristics = E::heuristics(&config.heuristics, &args)?;
        let mut keys: Vec<(String, String)> = Vec::new();
        for spec in &config.logs {
            let key = catalog::log_key(spec);
            if let Some((other, _)) = keys.iter().find(|(_, k)| *k == key) {
                return Err(ExperimentError::DuplicateLog(
                    other.clone(),
                    spec.clone(),
                    key,
                ));
            }
            keys.push((spec.clone(), key));
        }
        let paths: Vec<PathBuf> = config
            .logs
            .iter()
            .map(|l| catalog::resolve(l))
            .collect::<Result<_, _>>()?;
        type Laid<P> = (P, LogLayout, Vec<String>, Option<String>);
        let mut laid: Vec<Laid<E::Prepared>> = paths
            .par_iter()
            .zip(&keys)
            .map(|(p, (_, key))| {
                let log = crate::swf::read_log(p, &ReadOptions::default())?;
                let mut notes = Vec::new();
                if !log.order.is_empty() {
                    notes.push(format!("{key}: {}", log.order));
                }
                if let Some(r) = catalog::recognise(&log)
                    && (r.by == catalog::RecognisedBy::Name
                        || catalog::find(&log.name) != Some(r.known))
                {
                    // Said only when the file name alone would not say it.
                    notes.push(format!("{key}: {} {r}", log.name));
                }
                let setup = GridSetup {
                    config,
                    section: &section,
                    args: &args,
                };
                let (prepared, layout) = E::lay_out(&log, key, setup)?;
                Ok((prepared, layout, notes, log.sha256))
            })
            .collect::<Result<_, ExperimentError>>()?;
        if config.logs.is_empty()
            && let Some((prepared, layout)) = E::synthetic(config, &args)?
        {
            laid.push((prepared, layout, Vec::new(), None));
        }
        let mut prepared = Vec::with_capacity(laid.len());
        let mut logs = Vec::with_capacity(laid.len());
        let mut log_notes = Vec::new();
        let mut sha256 = Vec::with_capacity(paths.len());
        for (p, l, note, hash) in laid {
            prepared.push(p);
            logs.push(l);
            log_notes.extend(note);
            sha256.extend(hash);
        }
        let layout = Layout {
            environment: E::NAME.to_string(),
            logs,
            variants: E::variants(config, &section),
            heuristics: heuristics
                .iter()
                .map(|h| E::heuristic_name(h).to_string())
                .collect(),
        };
        Ok(Plan {
            config: config.clone(),
            layout,
            paths,
            sha256,
            prepared,
            heuristics,
            args,
            section,
            log_notes,
        })
    }

    /// Notes to print: what the reader noticed about each log, and what
    /// the environment notes about the grid ([`Grid::notes`]).
    pub fn notes(&self) -> Vec<String> {
        let mut notes = self.log_notes.clone();
        notes.extend(E::notes(self));
        notes
    }
}

/// The logs of `layout` that have fewer days in range than `config` asks
/// for, one note each ("kth-sp2: only 12 days with 26–146 arrivals, all
/// used (48 asked)"); none when explicit dates are given.
pub fn fewer_days_notes(config: &ExperimentConfig, layout: &Layout) -> Vec<String> {
    let mut notes = Vec::new();
    if config.dates.is_some() {
        return notes;
    }
    let asked = config.day_count();
    for l in &layout.logs {
        let (have, range) = match &l.day_set {
            Some(d) => (
                d.days_in_range,
                format!(
                    " with {} arrivals",
                    crate::words::range(d.min_arrivals, d.max_arrivals)
                ),
            ),
            None => (l.candidate_days, String::new()),
        };
        if have < asked {
            let days = match l.day_set {
                Some(_) => crate::words::count(have as u64, "day", "days"),
                None => crate::words::count(have as u64, "candidate day", "candidate days"),
            };
            notes.push(format!(
                "{}: only {days}{range}, all used ({asked} asked)",
                l.key
            ));
        }
    }
    notes
}

/// Writes what a grid's report is made of into `out`: its tables (each as
/// CSV and Parquet, in order), its Markdown summary as `markdown_file`, and
/// with `figures` what `draw` draws into `out/figures`; the report of it.
/// Every environment's [`Grid::report`] ends here.
///
/// # Errors
/// A table, the Markdown or a figure that cannot be written.
pub fn write_report(
    out: &Path,
    tables: Vec<(&'static str, &mut polars::prelude::DataFrame)>,
    markdown_file: &str,
    markdown: String,
    figures: bool,
    draw: impl FnOnce(&Path) -> Result<Vec<PathBuf>, ExperimentError>,
) -> Result<GridReport, ExperimentError> {
    let mut names = Vec::with_capacity(tables.len());
    for (name, df) in tables {
        crate::metrics::tables::write_both(df, out, name)?;
        names.push(name);
    }
    let md_path = out.join(markdown_file);
    crate::atomic::write_with(&md_path, |tmp| std::fs::write(tmp, &markdown))
        .map_err(ExperimentError::io(&md_path))?;
    let mut files = vec![md_path];
    if figures {
        files.extend(draw(&out.join("figures"))?);
    }
    Ok(GridReport {
        preface: String::new(),
        markdown,
        tables: names,
        files,
    })
}

/// Writes `compare`'s side-by-side Markdown as `compare.md` and, from
/// `draw`, its figure into `out/figures`; the report of it, with `preface`
/// printed before the table.
///
/// # Errors
/// The Markdown or the figure cannot be written.
pub fn write_compare(
    out: &Path,
    preface: String,
    markdown: String,
    draw: impl FnOnce(&Path) -> Result<Vec<PathBuf>, ExperimentError>,
) -> Result<GridReport, ExperimentError> {
    let md = out.join("compare.md");
    crate::atomic::write_with(&md, |tmp| std::fs::write(tmp, &markdown))
        .map_err(ExperimentError::io(&md))?;
    let mut files = vec![md];
    files.extend(draw(&out.join("figures"))?);
    Ok(GridReport {
        preface,
        markdown,
        tables: Vec::new(),
        files,
    })
}

/// The figure of every column of `columns` marked
/// [`SummaryColumn::figure`](crate::metrics::columns::SummaryColumn::figure),
/// per log of the grid's `aggregate` table: x = variant (the `variant`
/// column's labels, in table order), one bar per heuristic with its mean and
/// 95 % CI, y = the column's label and unit; each written as
/// `<dir>/<log key>-metric-<name>.{png,svg}` (`log` the key of a table
/// without a `log_key` column). A metric declared with `.figure()` gets its
/// figure in every grid without more code.
///
/// # Errors
/// A column missing from `aggregate`, or a figure that cannot be drawn.
pub fn metric_figures<S>(
    aggregate: &polars::prelude::DataFrame,
    log: &str,
    columns: &[crate::metrics::columns::SummaryColumn<S>],
    fig: &crate::report::Figure,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    use crate::metrics::aggregate::{n_column, stat_column, str_column};
    use crate::report::bars::{Bar, BarChart, BarSeries};
    let logs = match aggregate.column("log_key") {
        Ok(_) => str_column(aggregate, "log_key")?,
        Err(_) => vec![log.to_string(); aggregate.height()],
    };
    let variants = str_column(aggregate, "variant")?;
    let heuristics = str_column(aggregate, "heuristic")?;
    let n = n_column(aggregate)?;
    let distinct = |v: &[String], rows: &[usize]| {
        let mut out: Vec<String> = Vec::new();
        for &i in rows {
            if !out.contains(&v[i]) {
                out.push(v[i].clone());
            }
        }
        out
    };
    let all: Vec<usize> = (0..logs.len()).collect();
    let mut files = Vec::new();
    for c in columns.iter().filter(|c| c.figure) {
        let stats = stat_column(aggregate, &c.name)?;
        for log in distinct(&logs, &all) {
            let rows: Vec<usize> = all.iter().copied().filter(|&i| logs[i] == log).collect();
            let levels = distinct(&variants, &rows);
            let scenarios = rows.iter().map(|&i| n[i]).max().unwrap_or(0);
            let series = distinct(&heuristics, &rows)
                .into_iter()
                .map(|h| BarSeries {
                    bars: levels
                        .iter()
                        .map(|v| {
                            rows.iter()
                                .find(|&&i| &variants[i] == v && heuristics[i] == h)
                                .map(|&i| Bar {
                                    mean: stats[i].mean * c.print_scale,
                                    ci95: stats[i].ci95.map(|x| x * c.print_scale),
                                })
                        })
                        .collect(),
                    name: h,
                })
                .collect();
            let chart = BarChart {
                title: format!(
                    "{log}: {} (mean of {scenarios} scenarios, 95 % CI)",
                    c.label
                ),
                x_label: "variant".into(),
                y_label: c.heading(),
                levels,
                series,
                log_y: false,
                // A share stays in 0..100 %, a count or an amount above 0:
                // an error bar beyond is cut at the axis.
                y_clip: if c.unit == "%" {
                    Some((0.0, 100.0))
                } else if rows.iter().all(|&i| stats[i].mean >= 0.0) {
                    Some((0.0, f64::MAX))
                } else {
                    None
                },
            };
            files.extend(crate::report::bars::grouped_bars(
                &chart,
                fig,
                &dir.join(format!("{log}-metric-{}", c.name)),
            )?);
        }
    }
    Ok(files)
}

/// What a grid of run summaries adds to its report from the summary
/// columns alone: the "Every metric" section of its Markdown (grouped by
/// `keys`) and the figure of each column marked `.figure()`.
pub struct Metrics<'a, S> {
    /// The environment's summary columns.
    pub columns: Vec<crate::metrics::columns::SummaryColumn<S>>,
    /// The keys the Markdown groups by (columns of the `aggregate` table).
    pub keys: &'a [&'a str],
    /// The columns of the `runs` table that name a scenario within a
    /// group (A: `date`; B, C: `scenario`): runs of two heuristics with the
    /// same values are paired in the `paired` table.
    pub scenario: &'a [&'a str],
    /// The log key of a table without a `log_key` column.
    pub log: &'a str,
    /// The palette of the figures.
    pub fig: crate::report::Figure,
}

impl<'a, S> Metrics<'a, S> {
    /// The metrics of environment `E`: its summary columns, grouped by
    /// `keys`, runs paired by `scenario`, `log` the log key of a table
    /// without one, and the palette of its heuristics.
    pub fn of<E: Environment<Summary = S>>(
        keys: &'a [&'a str],
        scenario: &'a [&'a str],
        log: &'a str,
    ) -> Self {
        Metrics {
            columns: E::summary_columns(),
            keys,
            scenario,
            log,
            fig: crate::report::Figure::with_palette(&E::REGISTRY.names()),
        }
    }
}

/// The report of a grid of run summaries (environments A, B, C): its
/// tables `t` and the `paired` table of its `runs`
/// ([`crate::metrics::paired::paired_table`]: every pair of heuristics of
/// a group — the keys but `heuristic` — on every compared column, paired by
/// scenario), its Markdown `markdown` followed by the "Every metric" and
/// "Paired differences" sections, and with `figures` the environment's own
/// (`draw`, given the aggregated rows) then every metric figure
/// ([`metric_figures`]), written by [`write_report`] as `aggregate.md`.
///
/// # Errors
/// A table, the Markdown or a figure that cannot be built or written.
pub fn write_runs_report<R, S>(
    out: &Path,
    t: &mut crate::metrics::columns::GridTables<R>,
    mut markdown: String,
    metrics: &Metrics<'_, S>,
    figures: bool,
    draw: impl FnOnce(&[R], &Path) -> Result<Vec<PathBuf>, ExperimentError>,
) -> Result<GridReport, ExperimentError> {
    let aggregate = t.get("aggregate").cloned();
    if let Some(g) = &aggregate {
        markdown.push_str(&crate::metrics::columns::every_metric(
            g,
            metrics.keys,
            &metrics.columns,
        )?);
    }
    if let Some(runs) = t.get("runs") {
        use crate::metrics::paired;
        let groups: Vec<&str> = metrics
            .keys
            .iter()
            .copied()
            .filter(|k| *k != "heuristic")
            .collect();
        let table = paired::paired_table(
            runs,
            &groups,
            metrics.scenario,
            &paired::compared(&metrics.columns),
        )?;
        markdown.push_str(&paired::markdown(
            &table,
            &groups,
            &paired::shown(&metrics.columns),
        )?);
        t.tables.push(("paired", table));
    }
    let (rows, tables) = t.split();
    write_report(out, tables, "aggregate.md", markdown, figures, |dir| {
        let mut files = draw(rows, dir)?;
        if let Some(g) = &aggregate {
            files.extend(metric_figures(
                g,
                metrics.log,
                &metrics.columns,
                &metrics.fig,
                dir,
            )?);
        }
        Ok(files)
    })
}
