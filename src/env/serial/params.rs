//! The command-line parameters of environment B, as one clap argument
//! group shown under its own heading in `--help`. Every flag is optional so
//! that a flag given with another environment, or with the wrong kind of
//! workload (a synthetic trial or a log), can be named and refused; the
//! defaults are those of Machovec et al. (§IV) and are applied here.

use std::path::PathBuf;

use crate::workload::flags::{self, SharedArgs, TakesShared};
use crate::workload::seeds::DEFAULT_SEED;
use serde::{Deserialize, Serialize};

use super::workload::{LogParams, SyntheticParams};
use crate::model::utility::Shape;

/// Parses `--flag-probability` (of `replay --env serial`, an experiment
/// and `synth serial`): a fraction in [0, 1] or a percentage from 0% to
/// 100% (`40%`).
///
/// # Errors
/// Anything else, as a message for clap naming the flag and what it takes.
pub fn parse_probability(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let (number, scale) = match t.strip_suffix('%') {
        Some(p) => (p.trim(), 100.0),
        None => (t, 1.0),
    };
    let p = number
        .parse::<f64>()
        .ok()
        .map(|x| x / scale)
        .filter(|p| (0.0..=1.0).contains(p))
        .ok_or_else(|| {
            format!(
                "`{s}`: --flag-probability takes a probability from 0 to 1, or a percentage from 0% to 100% such as 40%"
            )
        })?;
    Ok(p)
}

/// Flags of environment B (`--env serial`). The shared flags (`--seed`,
/// `--day`, `--days`, `--day-arrivals`, `--trial`, `--trials`, `--theta`)
/// are declared once in [`crate::workload::flags`] and filled in
/// ([`crate::workload::flags::TakesShared`]).
#[derive(Debug, Clone, Default, PartialEq, clap::Args, Serialize, Deserialize)]
#[command(
    next_help_heading = "Environment B: --env serial (serial tasks, utility functions, preemption)"
)]
#[serde(default, deny_unknown_fields)]
pub struct SerialArgs {
    /// Mean burst size B̄ of the synthetic workload: bursts of ⌈B̄/2⌉..⌊1.5·B̄⌋ identical tasks [default: 64].
    #[arg(long, allow_hyphen_values = true)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst_size: Option<u32>,
    /// Utility functions: step, decaying, or the 20 classes [default: classes].
    #[arg(long, value_enum)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<Shape>,
    /// Probability that a task may preempt, and (drawn apart) that it may be preempted: 0-1 or 0%-100% [default: 1].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_probability)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag_probability: Option<f64>,
    /// Mean ETC of the critical task types, minutes (synthetic) [default: 10].
    #[arg(long, allow_hyphen_values = true, value_name = "MINUTES", value_parser = crate::workload::flags::parse_positive)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_etc: Option<f64>,
    /// Exactly 160 cores per cluster instead of a gamma draw (mean 160, COV 0.2) (synthetic).
    #[arg(long)]
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fixed_cores: bool,
    /// Offered load of a log's day: Σ mean ETC / (cores × 24 h); sizes the system (LOG only) [default: 2.2].
    #[arg(long, allow_hyphen_values = true, value_parser = crate::workload::flags::parse_positive)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
    /// The shared flags (`--seed`, `--day`, `--days`, `--day-arrivals`,
    /// `--trial`, `--trials`, `--theta`; [`crate::workload::flags`]), as
    /// the command line or a configuration gives them; those this
    /// environment does not take are refused before they reach it.
    #[arg(skip)]
    #[serde(skip)]
    pub shared: SharedArgs,
}

/// Flags of environment B that apply to synthetic trials only.
pub const SYNTHETIC_ONLY: &[&str] = &[
    "--trial",
    "--trials",
    "--burst-size",
    "--critical-etc",
    "--fixed-cores",
];

/// Flags of environment B that apply to logs only.
pub const LOG_ONLY: &[&str] = &["--load", "--day", "--days", "--day-arrivals"];

impl SerialArgs {
    /// The flags given, the shared ones first, as `--name`.
    pub fn given(&self) -> Vec<&'static str> {
        let mut given = self.shared.given();
        given.extend(flags::given([
            (self.burst_size.is_some(), "--burst-size"),
            (self.shape.is_some(), "--shape"),
            (self.flag_probability.is_some(), "--flag-probability"),
            (self.critical_etc.is_some(), "--critical-etc"),
            (self.fixed_cores, "--fixed-cores"),
            (self.load.is_some(), "--load"),
        ]));
        given
    }

    /// The given flags that do not apply to a synthetic trial (`log`
    /// false) or to a log (`log` true).
    pub fn misplaced(&self, log: bool) -> Vec<&'static str> {
        let given = self.given();
        let wrong = if log { SYNTHETIC_ONLY } else { LOG_ONLY };
        given.into_iter().filter(|f| wrong.contains(f)).collect()
    }

    /// The synthetic workload's parameters, defaults filled in.
    pub fn synthetic(&self) -> SyntheticParams {
        let d = SyntheticParams::default();
        SyntheticParams {
            burst_size: self.burst_size.unwrap_or(d.burst_size),
            shape: self.shape.unwrap_or(d.shape),
            flag_probability: self.flag_probability.unwrap_or(d.flag_probability),
            critical_etc_s: self.critical_etc.map_or(d.critical_etc_s, |m| m * 60.0),
            fixed_cores: self.fixed_cores || d.fixed_cores,
            theta_s: self.shared.theta.map(|m| m * 60.0).or(d.theta_s),
            ..d
        }
    }

    /// A log's parameters as a serial workload, defaults filled in.
    pub fn log_params(&self) -> LogParams {
        let d = LogParams::default();
        LogParams {
            load: self.load.unwrap_or(d.load),
            shape: self.shape.unwrap_or(d.shape),
            flag_probability: self.flag_probability.unwrap_or(d.flag_probability),
            theta_s: self.shared.theta.map(|m| m * 60.0).or(d.theta_s),
            ..d
        }
    }
}

impl TakesShared for SerialArgs {
    fn take_shared(&mut self, shared: &SharedArgs) {
        self.shared = shared.clone();
    }
}

/// Flags of `swftool synth serial` (one trial of the synthetic workload
/// written as an SWF log with its sidecar table; [`super::synth_file`]).
/// Defaults are the paper's ([`SyntheticParams::default`]) and the one
/// default seed ([`DEFAULT_SEED`]); each flag has the parser it has in
/// `replay --env serial`.
#[derive(Debug, Clone, clap::Args)]
pub struct SerialSynthArgs {
    /// Trial number: with the seed, it picks every random draw.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "N",
        default_value_t = 0
    )]
    pub trial: u64,
    /// Seed of the experiment; trial N's seed is derived from it.
    #[arg(long, allow_hyphen_values = true, value_name = "S", default_value_t = DEFAULT_SEED, value_parser = flags::parse_seed)]
    pub seed: u64,
    /// Mean burst size B̄: each burst has B tasks, B uniform in ⌈B̄/2⌉..⌊1.5·B̄⌋.
    #[arg(long, allow_hyphen_values = true, value_name = "B", default_value_t = SyntheticParams::default().burst_size)]
    pub burst_size: u32,
    /// Utility functions: `step` (full priority for ē, or 10·ē for non-critical tasks, then 0), `decaying` (flat for ē, then 200 min of decay at ρ = 0.3) or `classes` (one of twenty classes, drawn per burst).
    #[arg(long, value_enum, hide_possible_values = true, default_value_t = SyntheticParams::default().shape)]
    pub shape: Shape,
    /// Probability that a task may preempt, and (independently) that it may be preempted: 0 to 1, or a percentage such as 40%.
    #[arg(long, value_name = "P", allow_hyphen_values = true, default_value_t = SyntheticParams::default().flag_probability, value_parser = parse_probability)]
    pub flag_probability: f64,
    /// Mean execution time of the critical task types, minutes (non-critical: 50).
    #[arg(long, value_name = "MIN", allow_hyphen_values = true, default_value_t = SyntheticParams::default().critical_etc_s / 60.0, value_parser = crate::workload::flags::parse_positive)]
    pub critical_etc: f64,
    /// Exactly 160 cores per cluster instead of a gamma draw (mean 160, COV 0.2).
    #[arg(long)]
    pub fixed_cores: bool,
    /// A fixed θ of the utility functions' urgency, minutes, for every task (as in `replay --env serial`) [default: θ = 3.7 × the task's mean ETC; docs/utility.md].
    #[arg(long, value_name = "MINUTES", allow_hyphen_values = true, value_parser = flags::parse_minutes)]
    pub theta: Option<f64>,
    /// The SWF log to write: FILE.swf, or FILE.swf.gz for gzip. The sidecar table FILE.tasks.csv and FILE.tasks.parquet go beside it.
    #[arg(long, value_name = "FILE.swf[.gz]")]
    pub out: PathBuf,
}

impl SerialSynthArgs {
    /// The generation parameters these flags give (every other parameter
    /// at the paper's default).
    pub fn params(&self) -> SyntheticParams {
        SyntheticParams {
            burst_size: self.burst_size,
            shape: self.shape,
            flag_probability: self.flag_probability,
            critical_etc_s: self.critical_etc * 60.0,
            fixed_cores: self.fixed_cores,
            theta_s: self.theta.map(|m| m * 60.0),
            ..SyntheticParams::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_take_fractions_and_percentages() {
        assert_eq!(parse_probability("0.4"), Ok(0.4));
        assert_eq!(parse_probability("40%"), Ok(0.4));
        assert_eq!(parse_probability(" 100 % "), Ok(1.0));
        for bad in ["1.5", "-0.1", "101%", "x", "%", ""] {
            let e = parse_probability(bad).unwrap_err();
            assert!(
                e.contains("--flag-probability") && e.contains("40%"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn synthetic_flags_are_refused_with_a_log_and_log_flags_without() {
        let a = SerialArgs {
            shared: SharedArgs {
                trial: Some(2),
                ..SharedArgs::default()
            },
            load: Some(2.0),
            ..SerialArgs::default()
        };
        assert_eq!(a.misplaced(true), vec!["--trial"]);
        assert_eq!(a.misplaced(false), vec!["--load"]);
    }
}
