//! Experiment configurations: what grid to run, read from TOML (serde) or
//! taken from a built-in preset.
//!
//! A grid is log × variant × heuristic × scenario (a day in environment A;
//! the whole log or a window of it in D). Keys (every one
//! but `name`, `logs` and `heuristics` is optional):
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `name` | string | experiment name; default output `notebooks-out/<name>/` |
//! | `environment` | `"parallel"` | scheduling environment (`parallel` = A, `classic` = D) |
//! | `logs` | strings | short names (`curie`, …) or paths of SWF logs |
//! | `heuristics` | strings | heuristic names, or `"all"` (see `swftool heuristics`) |
//! | `days` | integer | that many days evenly spaced over each log (default 48) |
//! | `dates` | strings | explicit days `YYYY-MM-DD` instead of `days` |
//! | `day_arrivals` | string | days that may enter the set by their arrivals: `standard` (Curie: 897-2904, other logs: p10-p90), `any`, `MIN-MAX`, `pLO-pHI` |
//! | `seed` | integer | user seed of every random draw (default 1) |
//! | `cores_base` | float | base of the system size, cores (default: each log's MaxProcs) |
//! | `axes` | strings | `oversubscription`, `correlation`, `heterogeneity`: each listed axis at its three levels, the others at their defaults |
//! | `[[variants]]` | tables | explicit variants: `oversubscription`, `correlation`, `heterogeneity` (each defaults to the paper's default) |
//! | `job_tables` | bool | environment D: keep every job's schedule and write the `jobs` and `suspensions` tables |
//! | `[classic]` | table | environment D: the flags of `replay --env classic` without the dashes, `-` as `_` |
//!
//! `days`, `dates`, `day_arrivals`, `cores_base`, `axes` and `[[variants]]` belong to
//! environment A, `job_tables` and `[classic]` to D: given with the other
//! environment they are an error naming the key.
//!
//! Variants are the axis expansions in the order of `axes`, then the
//! explicit ones, duplicates removed. With neither, the grid has the default
//! variant only. The three axes of the standard grid give 7 distinct
//! variants (Khemka et al. 2015, §5; docs/parallel.md).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::env::classic::window::WindowRule;
use crate::env::classic::{ClassicArgs, ClassicArgsError};
use crate::env::energy::matrices::MAX_STATIC_POWER_W;
use crate::env::energy::params::EnergyArgs;
use crate::env::energy::{Filter, Management};
use crate::env::parallel;
use crate::env::serial::{self, params::SerialArgs};
use crate::env::{EnvKind, UnknownName};
use crate::experiment::serial::variant::{SerialAxis, SerialVariant};
use crate::workload::seeds::{DEFAULT_SEED, MAX_TRIALS};
use crate::workload::{ArrivalRange, Correlation, Heterogeneity, Oversubscription, ScenarioParams};

/// Default number of days per log (docs/parallel.md).
pub const DEFAULT_DAYS: usize = 48;

/// Names of the built-in presets, in display order.
pub const PRESETS: &[&str] = &[
    "khemka2015-parallel",
    "smoke",
    "smoke-serial",
    "smoke-energy",
    "smoke-classic",
    "machovec2017-serial",
    "khemka2015-energy",
    "margo2008-datastar",
];

/// One axis of the environment A variants (docs/parallel.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Axis {
    /// System size: lower, intermediate, higher.
    Oversubscription,
    /// Value/time correlation: exact, weak, none.
    Correlation,
    /// ETC heterogeneity: low, intermediate, high.
    Heterogeneity,
}

impl Axis {
    /// Every axis, in the order of the paper's figures.
    pub const ALL: [Axis; 3] = [
        Axis::Oversubscription,
        Axis::Correlation,
        Axis::Heterogeneity,
    ];

    /// The axis name as written in configs and tables.
    pub fn name(self) -> &'static str {
        match self {
            Axis::Oversubscription => "oversubscription",
            Axis::Correlation => "correlation",
            Axis::Heterogeneity => "heterogeneity",
        }
    }

    /// Its three variants, from the default variant with this axis set to
    /// each level in turn (in the paper's order).
    pub fn variants(self) -> [Variant; 3] {
        let d = Variant::default();
        match self {
            Axis::Oversubscription => [
                Oversubscription::Lower,
                Oversubscription::Intermediate,
                Oversubscription::Higher,
            ]
            .map(|o| Variant {
                oversubscription: o,
                ..d
            }),
            Axis::Correlation => {
                [Correlation::Exact, Correlation::Weak, Correlation::None].map(|c| Variant {
                    correlation: c,
                    ..d
                })
            }
            Axis::Heterogeneity => [
                Heterogeneity::Low,
                Heterogeneity::Intermediate,
                Heterogeneity::High,
            ]
            .map(|h| Variant {
                heterogeneity: h,
                ..d
            }),
        }
    }

    /// The level of `v` on this axis, as a lowercase word.
    pub fn level(self, v: &Variant) -> String {
        match self {
            Axis::Oversubscription => v.oversubscription.to_string(),
            Axis::Correlation => v.correlation.to_string(),
            Axis::Heterogeneity => v.heterogeneity.to_string(),
        }
    }

    /// The level of `v` on this axis as a figure shows it, with its
    /// physical meaning: `lower (25 % of cores)`, `low (ETC COV 0.01)`;
    /// correlation levels as they are.
    pub fn level_label(self, v: &Variant) -> String {
        match self {
            Axis::Oversubscription => format!(
                "{} ({:.0} % of cores)",
                v.oversubscription,
                100.0 * v.oversubscription.fraction()
            ),
            Axis::Correlation => v.correlation.to_string(),
            Axis::Heterogeneity => {
                format!("{} (ETC COV {})", v.heterogeneity, v.heterogeneity.cov())
            }
        }
    }

    /// Whether `v` differs from the default variant on this axis only (or
    /// not at all).
    pub fn holds_others_at_default(self, v: &Variant) -> bool {
        let d = Variant::default();
        Axis::ALL
            .iter()
            .filter(|&&a| a != self)
            .all(|a| a.level(v) == a.level(&d))
    }
}

impl std::fmt::Display for Axis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One environment variant: the three scenario-generation levels of
/// docs/parallel.md. Missing keys take the paper's defaults (intermediate, weak,
/// intermediate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Variant {
    /// System size level.
    pub oversubscription: Oversubscription,
    /// Value/time correlation.
    pub correlation: Correlation,
    /// ETC heterogeneity.
    pub heterogeneity: Heterogeneity,
}

impl Default for Variant {
    fn default() -> Self {
        let p = ScenarioParams::default();
        Variant {
            oversubscription: p.oversubscription,
            correlation: p.correlation,
            heterogeneity: p.heterogeneity,
        }
    }
}

impl Variant {
    /// Whether this is the default variant (intermediate, weak, intermediate).
    pub fn is_default(&self) -> bool {
        *self == Variant::default()
    }

    /// A short human label: `default`, or the non-default settings, e.g.
    /// `oversubscription=higher` or `correlation=none,heterogeneity=high`.
    pub fn label(&self) -> String {
        crate::env::parallel::params::variant_label(&self.params(None))
    }

    /// A file-name-safe identifier naming all three levels, e.g.
    /// `os-intermediate.corr-weak.het-intermediate`.
    pub fn id(&self) -> String {
        format!(
            "os-{}.corr-{}.het-{}",
            self.oversubscription, self.correlation, self.heterogeneity
        )
    }

    /// Scenario parameters of this variant with system base `cores_base`.
    pub fn params(&self, cores_base: Option<f64>) -> ScenarioParams {
        ScenarioParams {
            oversubscription: self.oversubscription,
            correlation: self.correlation,
            heterogeneity: self.heterogeneity,
            cores_base,
        }
    }
}

/// An experiment: the grid of (log, variant, heuristic, day) cells and the
/// seed. See the module documentation for the TOML keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentConfig {
    /// Experiment name (a single path component: no `/`, not empty).
    pub name: String,
    /// Scheduling environment.
    #[serde(default)]
    pub environment: EnvKind,
    /// Logs: short names or paths (none: environment B's synthetic trials).
    #[serde(default)]
    pub logs: Vec<String>,
    /// Heuristic names (or `all`).
    pub heuristics: Vec<String>,
    /// Number of evenly spaced days per log (default 48 when `dates` is not
    /// given). A log with fewer candidate days uses all it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<usize>,
    /// Explicit days (`YYYY-MM-DD`), instead of `days`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dates: Option<Vec<String>>,
    /// Which days may enter the set, by their number of arrivals
    /// (`standard`, `any`, `MIN-MAX`, `pLO-pHI`; default `standard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub day_arrivals: Option<ArrivalRange>,
    /// User seed of every random draw.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Base of the system size in cores; `None` = each log's MaxProcs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cores_base: Option<f64>,
    /// Axes expanded to their three levels (the others at default).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub axes: Vec<Axis>,
    /// Explicit variants, added after the axis expansions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<Variant>,
    /// Environment D's parameters (`[classic]`: the flags of
    /// `replay --env classic`, without the dashes, `-` as `_`).
    #[serde(default, skip_serializing_if = "is_default_classic")]
    pub classic: ClassicArgs,
    /// Environment D: keep every job's schedule in the cells and write the
    /// `jobs` and `suspensions` tables.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub job_tables: bool,
    /// Environment B without logs: the number of synthetic trials (default
    /// 64, Machovec et al. §IV.A).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trials: Option<u64>,
    /// Environment B: workload axes expanded to the paper's levels (the
    /// others at the `[serial]` base).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub serial_axes: Vec<SerialAxis>,
    /// Environment B's parameters (`[serial]`: the flags of
    /// `replay --env serial` without the dashes, `-` as `_`).
    #[serde(default, skip_serializing_if = "is_default_serial")]
    pub serial: SerialArgs,
    /// Environment C: the task management environments of the grid
    /// (`["queued", "polled"]`; default the `[energy]` one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub energy_managements: Vec<Management>,
    /// Environment C: the energy filters of the grid (`["none",
    /// "adaptive"]`, `"fixed:λ"`; default the `[energy]` one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub energy_filters: Vec<Filter>,
    /// Environment C's parameters (`[energy]`: the flags of
    /// `replay --env energy` without the dashes, `-` as `_`).
    #[serde(default, skip_serializing_if = "is_default_energy")]
    pub energy: EnergyArgs,
}

fn is_default_energy(e: &EnergyArgs) -> bool {
    *e == EnergyArgs::default()
}

fn is_default_serial(s: &SerialArgs) -> bool {
    *s == SerialArgs::default()
}

/// Default number of synthetic trials of environment B (Machovec et al.,
/// §IV.A: 64).
pub const DEFAULT_TRIALS: u64 = 64;

/// Trials of the `khemka2015-energy` preset (Khemka et al., §V: 48).
pub const ENERGY_TRIALS: u64 = 48;

fn is_default_classic(c: &ClassicArgs) -> bool {
    *c == ClassicArgs::default()
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

/// What is wrong with a configuration.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The TOML does not parse or does not match the schema; the message
    /// names the line, column and key.
    #[error("{}: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The TOML error (line, column, key, what was expected).
        source: toml::de::Error,
    },
    /// A value is out of range.
    #[error("{}: key `{key}`: {message}", path.display())]
    Invalid {
        /// The file (or `<preset NAME>`).
        path: PathBuf,
        /// The offending key.
        key: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A heuristic name is not in the registry.
    #[error("{}: key `heuristics`: {source}", path.display())]
    Heuristic {
        /// The file.
        path: PathBuf,
        /// The registry error, listing the valid names.
        source: UnknownName,
    },
    /// A parameter of environment D that does not fit.
    #[error("{}: {source}", path.display())]
    Classic {
        /// The file.
        path: PathBuf,
        /// What does not fit.
        source: ClassicArgsError,
    },
    /// No preset of that name.
    #[error("unknown preset `{0}`; presets: {presets}", presets = PRESETS.join(", "))]
    UnknownPreset(String),
}

impl ExperimentConfig {
    /// Reads and validates a TOML configuration file.
    ///
    /// # Errors
    /// [`ConfigError::Read`], [`ConfigError::Parse`] (naming line, column and
    /// key) or a validation error of [`ExperimentConfig::validate`].
    pub fn from_file(path: &Path) -> Result<ExperimentConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        ExperimentConfig::from_toml(&text, path)
    }

    /// Parses and validates TOML text; `origin` names it in errors.
    ///
    /// # Errors
    /// As [`ExperimentConfig::from_file`], without the read error.
    pub fn from_toml(text: &str, origin: &Path) -> Result<ExperimentConfig, ConfigError> {
        let c: ExperimentConfig = toml::from_str(text).map_err(|source| ConfigError::Parse {
            path: origin.to_path_buf(),
            source,
        })?;
        c.validate(origin)?;
        Ok(c)
    }

    /// The built-in preset `name`:
    ///
    /// - `khemka2015-parallel`: the standard grid of Khemka et al. 2015, §5 — Curie, the
    ///   7 heuristics, all three axes (7 variants), 48 days, seed 1
    ///   (2,352 cells);
    /// - `smoke`: a quick check — Curie, `easy` and `maxvpr-ph`, the
    ///   oversubscription axis, 2 days, seed 1 (12 cells, a few seconds);
    /// - `smoke-serial`, `smoke-energy`, `smoke-classic`: the same for
    ///   environments B (4 trials, 3 heuristics), C (4 trials of 8,000 tasks,
    ///   polled with the adaptive filter, 3 heuristics) and D (the first 500
    ///   jobs of 4 logs, FCFS, EASY and Conservative): 12 cells each;
    /// - `machovec2017-serial`, `khemka2015-energy`, `margo2008-datastar`:
    ///   the grids of the papers behind environments B, C and D.
    ///
    /// # Errors
    /// [`ConfigError::UnknownPreset`] listing the presets.
    pub fn preset(name: &str) -> Result<ExperimentConfig, ConfigError> {
        match name {
            "khemka2015-parallel" => Ok(ExperimentConfig {
                name: name.to_string(),
                environment: EnvKind::Parallel,
                logs: vec!["curie".to_string()],
                heuristics: parallel::HEURISTICS
                    .names()
                    .into_iter()
                    .map(String::from)
                    .collect(),
                days: Some(DEFAULT_DAYS),
                dates: None,
                day_arrivals: None,
                seed: DEFAULT_SEED,
                cores_base: None,
                axes: Axis::ALL.to_vec(),
                variants: Vec::new(),
                classic: ClassicArgs::default(),
                job_tables: false,
                ..Self::empty()
            }),
            "smoke" => Ok(ExperimentConfig {
                name: name.to_string(),
                environment: EnvKind::Parallel,
                logs: vec!["curie".to_string()],
                heuristics: vec!["easy".to_string(), "maxvpr-ph".to_string()],
                days: Some(2),
                dates: None,
                day_arrivals: None,
                seed: DEFAULT_SEED,
                cores_base: None,
                axes: vec![Axis::Oversubscription],
                variants: Vec::new(),
                classic: ClassicArgs::default(),
                job_tables: false,
                ..Self::empty()
            }),
            "margo2008-datastar" => Ok(ExperimentConfig {
                name: name.to_string(),
                environment: EnvKind::Classic,
                logs: vec!["datastar".to_string()],
                heuristics: vec!["catalina".to_string(), "catalina-preempt".to_string()],
                days: None,
                dates: None,
                day_arrivals: None,
                seed: DEFAULT_SEED,
                cores_base: None,
                axes: Vec::new(),
                variants: Vec::new(),
                classic: ClassicArgs {
                    whole_nodes: true,
                    procs_per_node: Some(8),
                    window_jobs: Some(200),
                    extra_jobs: Some(100),
                    window: Some(WindowRule::Month {
                        year: 2005,
                        month: 3,
                    }),
                    ..ClassicArgs::default()
                },
                job_tables: true,
                ..Self::empty()
            }),
            "machovec2017-serial" => Ok(ExperimentConfig {
                name: name.to_string(),
                environment: EnvKind::Serial,
                heuristics: serial::HEURISTICS
                    .names()
                    .into_iter()
                    .map(String::from)
                    .collect(),
                trials: Some(DEFAULT_TRIALS),
                serial_axes: SerialAxis::ALL.to_vec(),
                ..Self::empty()
            }),
            "khemka2015-energy" => Ok(ExperimentConfig {
                name: name.to_string(),
                environment: EnvKind::Energy,
                heuristics: crate::env::energy::HEURISTICS
                    .names()
                    .into_iter()
                    .map(String::from)
                    .collect(),
                trials: Some(ENERGY_TRIALS),
                energy_managements: Management::ALL.to_vec(),
                energy_filters: vec![Filter::None, Filter::Adaptive],
                ..Self::empty()
            }),
            // Small grids of environments B, C and D, seconds each, with
            // at least 4 scenarios so 4 shards all get work (the Slurm test).
            "smoke-serial" => Ok(ExperimentConfig {
                name: name.to_string(),
                environment: EnvKind::Serial,
                heuristics: ["fcfs", "maxutil", "maxutil-preempt-pair"]
                    .map(String::from)
                    .to_vec(),
                trials: Some(4),
                ..Self::empty()
            }),
            "smoke-energy" => Ok(ExperimentConfig {
                name: name.to_string(),
                environment: EnvKind::Energy,
                heuristics: ["fcfs-p0", "maxutil", "maxupe"].map(String::from).to_vec(),
                trials: Some(4),
                energy_managements: vec![Management::Polled],
                energy_filters: vec![Filter::Adaptive],
                energy: EnergyArgs {
                    tasks_per_day: Some(8000.0),
                    ..EnergyArgs::default()
                },
                ..Self::empty()
            }),
            "smoke-classic" => Ok(ExperimentConfig {
                name: name.to_string(),
                environment: EnvKind::Classic,
                logs: ["lublin_256", "kth-sp2", "sdsc-sp2", "ctc-sp2"]
                    .map(String::from)
                    .to_vec(),
                heuristics: ["fcfs", "easy", "conservative"].map(String::from).to_vec(),
                classic: ClassicArgs {
                    window_jobs: Some(500),
                    window_start: Some(0),
                    ..ClassicArgs::default()
                },
                ..Self::empty()
            }),
            _ => Err(ConfigError::UnknownPreset(name.to_string())),
        }
    }

    /// A configuration with no log, heuristic or key set (the base of the
    /// presets).
    pub fn empty() -> ExperimentConfig {
        ExperimentConfig {
            name: String::new(),
            environment: EnvKind::Parallel,
            logs: Vec::new(),
            heuristics: Vec::new(),
            days: None,
            dates: None,
            day_arrivals: None,
            seed: DEFAULT_SEED,
            cores_base: None,
            axes: Vec::new(),
            variants: Vec::new(),
            classic: ClassicArgs::default(),
            job_tables: false,
            trials: None,
            serial_axes: Vec::new(),
            serial: SerialArgs::default(),
            energy_managements: Vec::new(),
            energy_filters: Vec::new(),
            energy: EnergyArgs::default(),
        }
    }

    /// The synthetic trials of an environment B grid without logs.
    pub fn trial_count(&self) -> u64 {
        self.trials.unwrap_or(DEFAULT_TRIALS)
    }

    /// The distinct workload variants of an environment B grid.
    pub fn serial_variant_list(&self) -> Vec<SerialVariant> {
        crate::experiment::serial::variant::variant_list(
            &self.serial_axes,
            SerialVariant::of_args(&self.serial),
        )
    }

    /// The configuration as TOML, with a commented header explaining the
    /// keys; it parses back to an equal configuration.
    ///
    /// # Errors
    /// Only if serialisation fails (it does not for valid configurations).
    pub fn to_toml(&self) -> Result<String, toml::ser::Error> {
        let body = toml::to_string_pretty(self)?;
        Ok(format!("{TOML_HEADER}{body}"))
    }

    /// Checks values that the schema cannot: a usable name, at least one log
    /// and heuristic, known heuristic names, `days` ≥ 1 and not together
    /// with `dates`, well-formed dates, a positive `cores_base`.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] or [`ConfigError::Heuristic`], naming
    /// `origin` and the key.
    pub fn validate(&self, origin: &Path) -> Result<(), ConfigError> {
        let invalid = |key: &'static str, message: String| ConfigError::Invalid {
            path: origin.to_path_buf(),
            key,
            message,
        };
        if self.name.trim().is_empty()
            || self.name.contains(['/', '\\'])
            || self.name == "."
            || self.name == ".."
        {
            return Err(invalid(
                "name",
                format!(
                    "`{}` is not a usable directory name (non-empty, no `/`)",
                    self.name
                ),
            ));
        }
        let synthetic = matches!(self.environment, EnvKind::Serial | EnvKind::Energy);
        if self.logs.is_empty() && !synthetic {
            return Err(invalid("logs", "at least one log is needed".into()));
        }
        if self.environment != EnvKind::Energy {
            let foreign = [
                ("energy_managements", !self.energy_managements.is_empty()),
                ("energy_filters", !self.energy_filters.is_empty()),
                ("energy", !is_default_energy(&self.energy)),
            ];
            if let Some((key, _)) = foreign.iter().find(|(_, set)| *set) {
                return Err(invalid(
                    key,
                    format!("`{key}` belongs to environment = \"energy\" (environment C)"),
                ));
            }
        }
        if !synthetic && self.trials.is_some() {
            return Err(invalid(
                "trials",
                "`trials` belongs to environment = \"serial\" or \"energy\" (synthetic trials)"
                    .into(),
            ));
        }
        if self.environment != EnvKind::Serial {
            let foreign = [
                ("serial_axes", !self.serial_axes.is_empty()),
                ("serial", !is_default_serial(&self.serial)),
            ];
            if let Some((key, _)) = foreign.iter().find(|(_, set)| *set) {
                return Err(invalid(
                    key,
                    format!("`{key}` belongs to environment = \"serial\" (environment B)"),
                ));
            }
        }
        if self.heuristics.is_empty() {
            return Err(invalid(
                "heuristics",
                "at least one heuristic is needed".into(),
            ));
        }
        match self.environment {
            EnvKind::Parallel => {
                parallel::HEURISTICS
                    .resolve(&self.heuristics, |_| true)
                    .map_err(|source| ConfigError::Heuristic {
                        path: origin.to_path_buf(),
                        source,
                    })?;
                if !is_default_classic(&self.classic) {
                    return Err(invalid(
                        "classic",
                        "the [classic] parameters belong to environment = \"classic\"".into(),
                    ));
                }
                if self.job_tables {
                    return Err(invalid(
                        "job_tables",
                        "job_tables applies to environment = \"classic\" only".into(),
                    ));
                }
            }
            EnvKind::Serial => self.validate_serial(origin)?,
            EnvKind::Energy => self.validate_energy(origin)?,
            EnvKind::Classic => {
                self.classic
                    .policies(&self.heuristics)
                    .map_err(|source| match source {
                        ClassicArgsError::Unknown(source) => ConfigError::Heuristic {
                            path: origin.to_path_buf(),
                            source,
                        },
                        source => ConfigError::Classic {
                            path: origin.to_path_buf(),
                            source,
                        },
                    })?;
                let foreign = [
                    ("days", self.days.is_some()),
                    ("dates", self.dates.is_some()),
                    ("day_arrivals", self.day_arrivals.is_some()),
                    ("cores_base", self.cores_base.is_some()),
                    ("axes", !self.axes.is_empty()),
                    ("variants", !self.variants.is_empty()),
                ];
                if let Some((key, _)) = foreign.iter().find(|(_, set)| *set) {
                    return Err(invalid(
                        key,
                        format!(
                            "`{key}` belongs to environment = \"parallel\"; environment D replays each log (or its window) whole"
                        ),
                    ));
                }
            }
        }
        if self.days.is_some() && self.dates.is_some() {
            return Err(invalid(
                "days",
                "give either `days` or `dates`, not both".into(),
            ));
        }
        if self.days == Some(0) {
            return Err(invalid("days", "must be at least 1".into()));
        }
        if let Some(dates) = &self.dates {
            if dates.is_empty() {
                return Err(invalid("dates", "at least one date is needed".into()));
            }
            for d in dates {
                if d.parse::<jiff::civil::Date>().is_err() {
                    return Err(invalid("dates", format!("`{d}` is not a date YYYY-MM-DD")));
                }
            }
        }
        if let Some(b) = self.cores_base
            && !(b.is_finite() && b > 0.0)
        {
            return Err(invalid(
                "cores_base",
                format!("{b} is not a positive number of cores"),
            ));
        }
        Ok(())
    }

    fn validate_energy(&self, origin: &Path) -> Result<(), ConfigError> {
        let invalid = |key: &'static str, message: String| ConfigError::Invalid {
            path: origin.to_path_buf(),
            key,
            message,
        };
        crate::env::energy::HEURISTICS
            .resolve(&self.heuristics, |_| true)
            .map_err(|source| ConfigError::Heuristic {
                path: origin.to_path_buf(),
                source,
            })?;
        let foreign = [
            ("logs", !self.logs.is_empty()),
            ("days", self.days.is_some()),
            ("dates", self.dates.is_some()),
            ("day_arrivals", self.day_arrivals.is_some()),
            ("cores_base", self.cores_base.is_some()),
            ("axes", !self.axes.is_empty()),
            ("variants", !self.variants.is_empty()),
            ("classic", !is_default_classic(&self.classic)),
            ("job_tables", self.job_tables),
        ];
        if let Some((key, _)) = foreign.iter().find(|(_, set)| *set) {
            return Err(invalid(
                key,
                format!(
                    "`{key}` does not apply to environment = \"energy\" (environment C runs synthetic trials: give `trials`)"
                ),
            ));
        }
        self.check_trials(origin)?;
        if let Err(e) = self.energy.synthetic().validate() {
            return Err(invalid("energy", e.to_string()));
        }
        // What `--drop-threshold` takes; a configuration bypasses its parser.
        if let Some(d) = self.energy.drop_threshold
            && !(d.is_finite() && d >= 0.0)
        {
            return Err(invalid(
                "energy",
                format!("drop_threshold {d}: give a utility of 0 or more (value units)"),
            ));
        }
        // What `--static-power` takes.
        if let Some(w) = self.energy.static_power
            && !(w.is_finite() && (0.0..=MAX_STATIC_POWER_W).contains(&w))
        {
            return Err(invalid(
                "energy",
                format!("static_power {w}: give watts from 0 to {MAX_STATIC_POWER_W}"),
            ));
        }
        // A budget must leave the tasks something above the static energy
        // the machines draw all day (100 machines, 24 h).
        if let Some(crate::env::energy::params::Budget::Joules(j)) = self.energy.budget {
            let floor = self.energy.run_config(None).static_all_day_w * 100.0 * 86_400.0;
            if j <= floor {
                return Err(invalid(
                    "energy",
                    format!(
                        "budget {j} J is not above the {floor} J of static power the 100 machines draw all day (static_counted = \"all-day\")"
                    ),
                ));
            }
        }
        let budget_none = self.energy.budget == Some(crate::env::energy::params::Budget::None);
        let filtered = self
            .energy_filters
            .iter()
            .chain(self.energy.filter.iter())
            .any(|f| *f != Filter::None);
        if budget_none && filtered {
            return Err(invalid(
                "energy",
                "budget = \"none\" leaves the energy filter nothing to share out; drop the filters or give a budget".into(),
            ));
        }
        Ok(())
    }

    /// `trials`, when given: 1 to [`MAX_TRIALS`].
    fn check_trials(&self, origin: &Path) -> Result<(), ConfigError> {
        match self.trials {
            Some(n) if !(1..=MAX_TRIALS).contains(&n) => Err(ConfigError::Invalid {
                path: origin.to_path_buf(),
                key: "trials",
                message: format!("{n}: give a number of trials from 1 to {MAX_TRIALS}"),
            }),
            _ => Ok(()),
        }
    }

    fn validate_serial(&self, origin: &Path) -> Result<(), ConfigError> {
        let invalid = |key: &'static str, message: String| ConfigError::Invalid {
            path: origin.to_path_buf(),
            key,
            message,
        };
        serial::HEURISTICS
            .resolve(&self.heuristics, |_| true)
            .map_err(|source| ConfigError::Heuristic {
                path: origin.to_path_buf(),
                source,
            })?;
        let foreign = [
            ("cores_base", self.cores_base.is_some()),
            ("axes", !self.axes.is_empty()),
            ("variants", !self.variants.is_empty()),
            ("classic", !is_default_classic(&self.classic)),
            ("job_tables", self.job_tables),
        ];
        if let Some((key, _)) = foreign.iter().find(|(_, set)| *set) {
            return Err(invalid(
                key,
                format!("`{key}` does not apply to environment = \"serial\" (environment B)"),
            ));
        }
        let s = &self.serial;
        if s.trial.is_some() || s.trials.is_some() {
            return Err(invalid(
                "serial",
                "give the number of trials as the top-level key `trials`, not in [serial]".into(),
            ));
        }
        let with_logs = !self.logs.is_empty();
        let day_keys = [
            ("days", self.days.is_some()),
            ("dates", self.dates.is_some()),
            ("day_arrivals", self.day_arrivals.is_some()),
        ];
        if with_logs {
            if self.trials.is_some() {
                return Err(invalid(
                    "trials",
                    "`trials` counts synthetic trials (no logs); with logs, give `days` or `dates`"
                        .into(),
                ));
            }
        } else if let Some((key, _)) = day_keys.iter().find(|(_, set)| *set) {
            return Err(invalid(
                key,
                format!(
                    "`{key}` picks days of logs; without logs the grid runs synthetic trials (`trials`)"
                ),
            ));
        }
        if let Some(flag) = s.misplaced(with_logs).first() {
            return Err(invalid(
                "serial",
                format!(
                    "{} {}",
                    flag.trim_start_matches("--").replace('-', "_"),
                    if with_logs {
                        "applies to synthetic trials (no logs)"
                    } else {
                        "applies to logs"
                    }
                ),
            ));
        }
        if with_logs && !self.serial_axes.is_empty() {
            let synthetic_only = self
                .serial_axes
                .iter()
                .find(|a| matches!(a, SerialAxis::BurstSize | SerialAxis::CriticalEtc));
            if let Some(a) = synthetic_only {
                return Err(invalid(
                    "serial_axes",
                    format!(
                        "`{}` varies the synthetic workload; it does not apply to logs",
                        a.name()
                    ),
                ));
            }
        }
        self.check_trials(origin)?;
        if let Some(p) = s.flag_probability
            && ((p * 100.0).round() - p * 100.0).abs() > 1e-9
        {
            return Err(invalid(
                "serial",
                format!("flag_probability {p}: grids take whole percents (0.01 steps)"),
            ));
        }
        if let Some(m) = s.critical_etc
            && m.fract() != 0.0
        {
            return Err(invalid(
                "serial",
                format!("critical_etc {m}: grids take whole minutes"),
            ));
        }
        if s.burst_size == Some(0) {
            return Err(invalid("serial", "burst_size must be at least 1".into()));
        }
        let params = if with_logs {
            s.log_params().validate()
        } else {
            s.synthetic().validate()
        };
        if let Err(e) = params {
            return Err(invalid("serial", e.to_string()));
        }
        Ok(())
    }

    /// The heuristics of the grid, `all` expanded, duplicates removed, in
    /// the order given.
    ///
    /// # Errors
    /// An unknown name (already excluded by [`ExperimentConfig::validate`]).
    pub fn heuristic_infos(&self) -> Result<Vec<&'static parallel::HeuristicInfo>, UnknownName> {
        parallel::HEURISTICS.resolve(&self.heuristics, |_| true)
    }

    /// The distinct variants of the grid: each axis of `axes` expanded to
    /// its three levels (others at default), then the explicit `variants`,
    /// first occurrence kept. The default variant alone when both are empty.
    pub fn variant_list(&self) -> Vec<Variant> {
        let mut out: Vec<Variant> = Vec::new();
        let candidates = self
            .axes
            .iter()
            .flat_map(|a| a.variants())
            .chain(self.variants.iter().copied());
        for v in candidates {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        if out.is_empty() {
            out.push(Variant::default());
        }
        out
    }

    /// The number of days per log asked for (`days`, default 48), when no
    /// explicit dates are given.
    pub fn day_count(&self) -> usize {
        self.days.unwrap_or(DEFAULT_DAYS)
    }
}

const TOML_HEADER: &str = "\
# swftool experiment configuration (run it with `swftool experiment FILE.toml`).
#
# name         experiment name; results go to notebooks-out/<name>/ unless --out
# environment  \"parallel\" (environment A, docs/parallel.md), \"serial\" (B,
#              docs/serial.md) or \"classic\" (D, docs/classic.md)
# logs         short names (curie, datastar, sdsc-sp2, hpc2n, ctc-sp2, kth-sp2,
#              lublin256) or paths of .swf / .swf.gz files
# heuristics   names from `swftool heuristics`, or \"all\"
# days         N days evenly spaced over each log's days in range (default 48),
#              or instead
# dates        [\"YYYY-MM-DD\", ...] explicit days
# day_arrivals which days may enter the set, by the jobs submitted that day:
#              \"standard\" (Curie: 897-2904, the paper's; other logs: p10-p90),
#              \"any\", \"MIN-MAX\" or \"pLO-pHI\" percentiles (default \"standard\")
# seed         user seed of every random draw (default 1)
# cores_base   base of the system size in cores (default: each log's MaxProcs)
# axes         any of \"oversubscription\", \"correlation\", \"heterogeneity\": each
#              axis at its three levels, the other two at their defaults
# [[variants]] explicit variants: oversubscription = lower|intermediate|higher,
#              correlation = exact|weak|none, heterogeneity = low|intermediate|high
#              (missing keys take the defaults intermediate / weak / intermediate)
#   (days, dates, day_arrivals, cores_base, axes and variants belong to
#    environment A)
# job_tables   environment D: also write the jobs and suspensions tables
# [classic]    environment D: the flags of `swftool replay --env classic`
#              without the dashes (whole_nodes = true, procs_per_node = 8,
#              clean = \"pyss\", exact_estimates = true, reservation_depth = 4,
#              window_jobs = 200, extra_jobs = 100, window = \"month:2005-03\"
#              (or \"most-wide\", or window_start = 538),
#              preempting_above = 64, tau = 10.0, ...)
# trials       environment B without logs: synthetic trials 0..N (default 64)
# serial_axes  environment B: any of \"shape\", \"burst_size\", \"flag_probability\",
#              \"critical_etc\": each at the levels of Machovec et al. (step,
#              decaying, classes; 1-128; 0-100 %; 10-50 min), the others at [serial]
# [serial]     environment B: the flags of `swftool replay --env serial` without
#              the dashes (shape = \"classes\", burst_size = 64,
#              flag_probability = 1.0, critical_etc = 10.0, fixed_cores = true,
#              theta = 10.0; with logs: load = 2.2)

";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_axes_give_seven_distinct_variants() {
        let c = ExperimentConfig::preset("khemka2015-parallel").unwrap();
        let v = c.variant_list();
        assert_eq!(v.len(), 7);
        assert_eq!(v.iter().filter(|x| x.is_default()).count(), 1);
        assert_eq!(v[0].label(), "oversubscription=lower");
        assert_eq!(v[1].label(), "default");
    }

    #[test]
    fn explicit_variants_are_deduplicated_against_the_axes() {
        let text = r#"
name = "x"
logs = ["kth-sp2"]
heuristics = ["easy"]
axes = ["correlation"]
[[variants]]
correlation = "none"
[[variants]]
oversubscription = "higher"
heterogeneity = "high"
"#;
        let c = ExperimentConfig::from_toml(text, Path::new("x.toml")).unwrap();
        let v = c.variant_list();
        assert_eq!(v.len(), 4);
        assert_eq!(v[3].label(), "oversubscription=higher,heterogeneity=high");
    }

    #[test]
    fn a_bad_key_names_the_file_line_and_key() {
        let text = "name = \"x\"\nlogs = [\"curie\"]\nheuristics = [\"easy\"]\nday = 3\n";
        let e = ExperimentConfig::from_toml(text, Path::new("grid.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("grid.toml"), "{e}");
        assert!(e.contains("line 4"), "{e}");
        assert!(e.contains("day"), "{e}");
    }

    #[test]
    fn a_bad_level_names_the_line() {
        let text = "name = \"x\"\nlogs = [\"curie\"]\nheuristics = [\"easy\"]\n[[variants]]\ncorrelation = \"strong\"\n";
        let e = ExperimentConfig::from_toml(text, Path::new("grid.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 5"), "{e}");
        assert!(e.contains("strong"), "{e}");
    }

    #[test]
    fn an_unknown_heuristic_lists_the_valid_ones() {
        let text = "name = \"x\"\nlogs = [\"curie\"]\nheuristics = [\"maxvalu\"]\n";
        let e = ExperimentConfig::from_toml(text, Path::new("grid.toml"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown heuristic `maxvalu`"), "{e}");
        assert!(e.contains("maxvpr-ph"), "{e}");
    }

    #[test]
    fn a_classic_grid_parses_with_depth_all_and_refuses_keys_of_environment_a() {
        let text = "name = \"x\"\nenvironment = \"classic\"\nlogs = [\"kth-sp2\"]\nheuristics = [\"backfill\"]\n[classic]\nreservation_depth = \"all\"\nexact_estimates = true\n";
        let c = ExperimentConfig::from_toml(text, Path::new("d.toml")).unwrap();
        assert_eq!(c.classic.reservation_depth, Some(usize::MAX));
        let back = ExperimentConfig::from_toml(&c.to_toml().unwrap(), Path::new("d.toml")).unwrap();
        assert_eq!(c, back);
        let e = ExperimentConfig::from_toml(
            &text.replace("[classic]", "days = 3\n[classic]"),
            Path::new("d.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("`days` belongs to environment = \"parallel\""),
            "{e}"
        );
        let e = ExperimentConfig::from_toml(
            "name = \"x\"\nlogs = [\"kth-sp2\"]\nheuristics = [\"easy\"]\n[classic]\ntau = 5.0\n",
            Path::new("a.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("[classic] parameters belong"), "{e}");
    }

    #[test]
    fn presets_round_trip_through_toml() {
        for p in PRESETS {
            let c = ExperimentConfig::preset(p).unwrap();
            let text = c.to_toml().unwrap();
            let back = ExperimentConfig::from_toml(&text, Path::new("dump.toml")).unwrap();
            assert_eq!(c, back, "{text}");
        }
    }
}
