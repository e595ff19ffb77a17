//! Experiment configurations: what grid to run, read from TOML (serde) or
//! taken from an environment's built-in presets.
//!
//! A grid is log × variant × heuristic × scenario (a day of a log, a
//! synthetic trial, or the whole log or a window of it). The keys every
//! environment reads (every one but `name` and `heuristics` optional):
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `name` | string | experiment name; default output `notebooks-out/<name>/` |
//! | `environment` | string | scheduling environment (`swftool heuristics` lists them; default the first, `parallel`) |
//! | `logs` | strings | short names (`curie`, …) or paths of SWF logs (none: synthetic trials, where the environment has them) |
//! | `heuristics` | strings | heuristic names, or `"all"` (see `swftool heuristics`) |
//! | `seed` | integer | user seed of every random draw (default 1) |
//!
//! and the shared keys, each read by the environments that take its flag
//! ([`crate::workload::flags`]; a shared key given to an environment that
//! does not take it is refused, naming the environments that do):
//!
//! | key | type | meaning |
//! |---|---|---|
//! | `days` | integer | that many days evenly spaced over each log (default 48) |
//! | `dates` | strings | explicit days `YYYY-MM-DD` instead of `days` |
//! | `day_arrivals` | string | days that may enter the set by their arrivals: `standard` (Curie: 897-2904, other logs: p10-p90), `any`, `MIN-MAX`, `pLO-pHI` |
//! | `trials` | integer | synthetic trials 0..N (default 64) |
//! | `theta` | float | a fixed urgency time constant θ, minutes, for every task |
//!
//! Every other key belongs to the environment's own section
//! ([`super::grid::Grid::Section`]; docs/experiments.md lists them): a key
//! it does not know is refused with its line.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::contract::UnknownName;
use crate::workload::ArrivalRange;
use crate::workload::flags::{SharedArgs, config_key_of};
use crate::workload::seeds::{DEFAULT_SEED, MAX_TRIALS};

/// Default number of days per log (docs/parallel.md).
pub const DEFAULT_DAYS: usize = 48;

/// Default number of synthetic trials (Machovec et al. 2017, §IV.A: 64).
pub const DEFAULT_TRIALS: u64 = 64;

/// The keys every configuration may hold besides the environment's own
/// section.
pub const COMMON_KEYS: &[&str] = &[
    "name",
    "environment",
    "logs",
    "heuristics",
    "seed",
    "days",
    "dates",
    "day_arrivals",
    "trials",
    "theta",
];

/// An experiment: the grid of (log, variant, heuristic, scenario) cells and
/// the seed. See the module documentation for the keys.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExperimentConfig {
    /// Experiment name (a single path component: no `/`, not empty).
    pub name: String,
    /// Scheduling environment's CLI name (empty: the default one, filled
    /// in by the command that reads the configuration).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub environment: String,
    /// Logs: short names or paths (none: synthetic trials).
    #[serde(default)]
    pub logs: Vec<String>,
    /// Heuristic names (or `all`).
    pub heuristics: Vec<String>,
    /// User seed of every random draw.
    #[serde(default = "default_seed")]
    pub seed: u64,
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
    /// Synthetic trials 0..N (default [`DEFAULT_TRIALS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trials: Option<u64>,
    /// A fixed urgency time constant θ for every task, minutes (default:
    /// the environment's per-task θ).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theta: Option<f64>,
    /// The environment's own keys, as given (parsed by
    /// [`ExperimentConfig::section`]).
    #[serde(flatten)]
    pub section: toml::Table,
    /// Where the configuration was read from, for error messages (not
    /// compared, not written).
    #[serde(skip)]
    pub source: Source,
}

/// The file and text a configuration was read from (`<preset NAME>` and no
/// text for a preset). Two sources always compare equal: where a
/// configuration came from is not part of what it asks for.
#[derive(Debug, Clone, Default)]
pub struct Source(Option<Arc<(PathBuf, String)>>);

impl PartialEq for Source {
    fn eq(&self, _: &Source) -> bool {
        true
    }
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
    /// A value is out of range, or a key does not apply.
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
    /// A parameter the environment refuses (its own error, naming the key).
    #[error("{}: {source}", path.display())]
    Refused {
        /// The file.
        path: PathBuf,
        /// What does not fit.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// No preset of that name.
    #[error("unknown preset `{name}`; presets: {presets}")]
    UnknownPreset {
        /// The name given.
        name: String,
        /// Every preset, comma-separated.
        presets: String,
    },
    /// An environment name that is not known.
    #[error("{}: key `environment`: {source}", path.display())]
    Environment {
        /// The file.
        path: PathBuf,
        /// The unknown name.
        source: crate::contract::UnknownEnv,
    },
}

impl ConfigError {
    /// [`ConfigError::Invalid`]: `key` of the configuration read from
    /// `origin` is wrong, as `message` says.
    pub fn invalid(origin: &Path, key: &'static str, message: String) -> ConfigError {
        ConfigError::Invalid {
            path: origin.to_path_buf(),
            key,
            message,
        }
    }
}

impl ExperimentConfig {
    /// Reads a TOML configuration file and checks its common keys
    /// ([`ExperimentConfig::validate`]); the environment's keys are checked
    /// when its grid is planned ([`super::grid::check`]).
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

    /// Parses TOML text and checks its common keys; `origin` names it in
    /// errors.
    ///
    /// # Errors
    /// As [`ExperimentConfig::from_file`], without the read error.
    pub fn from_toml(text: &str, origin: &Path) -> Result<ExperimentConfig, ConfigError> {
        let mut c: ExperimentConfig =
            toml::from_str(text).map_err(|source| ConfigError::Parse {
                path: origin.to_path_buf(),
                source,
            })?;
        c.source = Source(Some(Arc::new((origin.to_path_buf(), text.to_string()))));
        c.validate(origin)?;
        Ok(c)
    }

    /// A configuration of environment `environment` with no log, heuristic
    /// or other key set (the base of the presets); `origin` names it in
    /// errors (`<preset NAME>`).
    pub fn empty(environment: &str, origin: &str) -> ExperimentConfig {
        ExperimentConfig {
            name: String::new(),
            environment: environment.to_string(),
            logs: Vec::new(),
            heuristics: Vec::new(),
            seed: DEFAULT_SEED,
            days: None,
            dates: None,
            day_arrivals: None,
            trials: None,
            theta: None,
            section: toml::Table::new(),
            source: Source(Some(Arc::new((PathBuf::from(origin), String::new())))),
        }
    }

    /// Preset `name` of environment `environment`, before its own keys:
    /// [`ExperimentConfig::empty`] named `name`, from `<preset NAME>`.
    pub fn preset(environment: &str, name: &str) -> ExperimentConfig {
        ExperimentConfig {
            name: name.to_string(),
            ..ExperimentConfig::empty(environment, &format!("<preset {name}>"))
        }
    }

    /// The configuration of a replay of environment `environment` before
    /// its own keys: named `replay`, the `heuristics` it ran, and the
    /// shared flags given (seed, `--day-arrivals`, θ; an environment that
    /// does not take one never has it set).
    pub fn replay(
        environment: &str,
        heuristics: Vec<String>,
        shared: &SharedArgs,
    ) -> ExperimentConfig {
        ExperimentConfig {
            name: "replay".into(),
            heuristics,
            seed: shared.seed(),
            day_arrivals: shared.day_arrivals,
            theta: shared.theta,
            ..ExperimentConfig::empty(environment, "<replay>")
        }
    }

    /// Where the configuration came from (a file, `<preset NAME>`,
    /// `<command line>`), for error messages.
    pub fn origin(&self) -> &Path {
        match &self.source.0 {
            Some(s) => &s.0,
            None => Path::new("<configuration>"),
        }
    }

    /// The environment's CLI name as given (empty: not given).
    pub fn environment_name(&self) -> &str {
        &self.environment
    }

    /// Sets the environment's own keys from its section type (a preset, a
    /// replay's record, `compare`'s grid).
    ///
    /// # Panics
    /// If the section does not serialise to a TOML table: a bug of the
    /// environment's section type, never of user input.
    pub fn with_section<S: Serialize>(mut self, section: &S) -> ExperimentConfig {
        self.section = match toml::Table::try_from(section) {
            Ok(t) => t,
            Err(e) => panic!("an environment's section serialises to a TOML table: {e}"),
        };
        // The text read no longer says what the section holds.
        self.source = Source(Some(Arc::new((self.origin().to_path_buf(), String::new()))));
        self
    }

    /// The environment's own keys, parsed as its section type `S`; a key
    /// `S` does not take, or a value of the wrong type, is refused naming
    /// its line when the configuration was read from text.
    ///
    /// # Errors
    /// [`ConfigError::Parse`] naming the file, the line and the key.
    pub fn section<S: DeserializeOwned>(&self) -> Result<S, ConfigError> {
        let path = self.origin().to_path_buf();
        if let Some(src) = self.source.0.as_ref().filter(|s| !s.1.is_empty()) {
            let text = src.1.as_str();
            let parse = |text: &str| -> Result<S, toml::de::Error> {
                let doc = toml::de::DeTable::parse(text)?;
                let span = doc.span();
                let own: toml::de::DeTable<'_> = doc
                    .into_inner()
                    .into_iter()
                    .filter(|(k, _)| !COMMON_KEYS.contains(&k.get_ref().as_ref()))
                    .collect();
                S::deserialize(toml::de::Deserializer::from(toml::Spanned::new(span, own)))
            };
            return parse(text).map_err(|mut source| {
                source.set_input(Some(text));
                ConfigError::Parse { path, source }
            });
        }
        S::deserialize(toml::Value::Table(self.section.clone()))
            .map_err(|source| ConfigError::Parse { path, source })
    }

    /// The configuration as TOML, with a commented header explaining the
    /// common keys and then `section_help`, the environment's own; it
    /// parses back to an equal configuration.
    ///
    /// # Errors
    /// Only if serialisation fails (it does not for valid configurations).
    pub fn to_toml(&self, section_help: &str) -> Result<String, toml::ser::Error> {
        let body = toml::to_string_pretty(self)?;
        Ok(format!("{TOML_HEADER}{section_help}\n{body}"))
    }

    /// Checks values that the schema cannot: a usable name, at least one
    /// heuristic, `days` ≥ 1 and not together with `dates`, well-formed
    /// dates, trials from 1 to [`MAX_TRIALS`], a positive θ.
    ///
    /// # Errors
    /// [`ConfigError::Invalid`], naming `origin` and the key.
    pub fn validate(&self, origin: &Path) -> Result<(), ConfigError> {
        let invalid = |key, message| ConfigError::invalid(origin, key, message);
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
        if self.heuristics.is_empty() {
            return Err(invalid(
                "heuristics",
                "at least one heuristic is needed".into(),
            ));
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
        if let Some(n) = self.trials
            && !(1..=MAX_TRIALS).contains(&n)
        {
            return Err(invalid(
                "trials",
                format!("{n}: give a number of trials from 1 to {MAX_TRIALS}"),
            ));
        }
        if let Some(t) = self.theta
            && !(t.is_finite() && t > 0.0)
        {
            return Err(invalid(
                "theta",
                format!("{t}: give a positive number of minutes"),
            ));
        }
        Ok(())
    }

    /// Refuses a shared key the environment `env` does not take (`shared`:
    /// the shared flags it takes, as [`crate::contract::Environment::SHARED`]
    /// lists them).
    ///
    /// # Errors
    /// [`ConfigError::Invalid`] naming the key and the environment.
    pub fn check_shared(
        &self,
        env: &str,
        shared: &[&str],
        origin: &Path,
    ) -> Result<(), ConfigError> {
        let takes = |key: &str| shared.iter().any(|f| config_key_of(f) == Some(key));
        for (key, set) in self.shared_keys_given() {
            // `dates` is the explicit form of `days`.
            let flag_key = if key == "dates" { "days" } else { key };
            if set && !takes(flag_key) {
                return Err(ConfigError::Invalid {
                    path: origin.to_path_buf(),
                    key,
                    message: format!("`{key}` does not apply to environment = \"{env}\""),
                });
            }
        }
        Ok(())
    }

    /// The shared keys besides `seed`, each with whether it is given.
    pub fn shared_keys_given(&self) -> [(&'static str, bool); 5] {
        [
            ("days", self.days.is_some()),
            ("dates", self.dates.is_some()),
            ("day_arrivals", self.day_arrivals.is_some()),
            ("trials", self.trials.is_some()),
            ("theta", self.theta.is_some()),
        ]
    }

    /// The synthetic trials of a grid without logs (`trials`, default
    /// [`DEFAULT_TRIALS`]).
    pub fn trial_count(&self) -> u64 {
        self.trials.unwrap_or(DEFAULT_TRIALS)
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
# environment  the scheduling environment: parallel (A, docs/parallel.md),
#              serial (B, docs/serial.md), energy (C, docs/energy.md) or
#              classic (D, docs/classic.md); `swftool heuristics` lists them
# logs         short names (curie, datastar, sdsc-sp2, hpc2n, ctc-sp2, kth-sp2,
#              lublin256) or paths of .swf / .swf.gz files
# heuristics   names from `swftool heuristics`, or \"all\"
# seed         user seed of every random draw (default 1)
#
# Shared keys, for the environments that take them:
# days         N days evenly spaced over each log's days in range (default 48),
#              or instead
# dates        [\"YYYY-MM-DD\", ...] explicit days
# day_arrivals which days may enter the set, by the jobs submitted that day:
#              \"standard\" (Curie: 897-2904, the paper's; other logs: p10-p90),
#              \"any\", \"MIN-MAX\" or \"pLO-pHI\" percentiles (default \"standard\")
# trials       synthetic trials 0..N (no logs; default 64)
# theta        a fixed urgency time constant θ, minutes, for every task
#
";
