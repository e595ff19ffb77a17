//! The command-line parameters of environment C, one clap argument group
//! shown under its own heading in `--help`. Every flag is optional so that
//! one given with another environment can be named and refused; the
//! defaults are Khemka et al.'s (§III–§IV). `--seed` (shared with A and B),
//! `--trial`, `--trials` and `--theta` (shared with B) are filled in by the
//! command.

use std::path::PathBuf;

use crate::workload::flags::{self, SharedArgs, TakesShared};
use crate::workload::seeds::DEFAULT_SEED;
use serde::{Deserialize, Serialize};

use super::matrices::{MAX_STATIC_POWER_W, STATIC_POWER_W};
use super::workload::SyntheticParams;
use super::{DROP_THRESHOLD, Filter, Management, RunConfig, StaticCounted};

fn parse_static_power(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && (0.0..=MAX_STATIC_POWER_W).contains(x))
        .ok_or_else(|| format!("`{s}`: expected watts from 0 to {MAX_STATIC_POWER_W}"))
}

fn parse_non_negative(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| format!("`{s}`: expected a number ≥ 0"))
}

/// The day's energy budget as given: a number of joules, or none. Written
/// as on the command line (`"1.11GJ"`, `"none"`) in configurations.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Budget {
    /// No budget (the calibration runs of the paper's §IV.D).
    None,
    /// E, J.
    Joules(f64),
}

impl From<Budget> for String {
    fn from(b: Budget) -> String {
        match b {
            Budget::None => "none".into(),
            Budget::Joules(j) => format!("{j}"),
        }
    }
}

impl TryFrom<String> for Budget {
    type Error = String;

    fn try_from(s: String) -> Result<Self, String> {
        parse_budget(&s)
    }
}

/// Parses `--budget`: joules (`1.11e9`, or with a unit `1.11GJ`, `900MJ`)
/// or `none`.
pub fn parse_budget(s: &str) -> Result<Budget, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(Budget::None);
    }
    let (number, scale) = [("GJ", 1e9), ("MJ", 1e6), ("kJ", 1e3), ("J", 1.0)]
        .iter()
        .find_map(|(unit, f)| t.strip_suffix(unit).map(|n| (n.trim(), *f)))
        .unwrap_or((t, 1.0));
    number
        .parse::<f64>()
        .ok()
        .map(|x| x * scale)
        .filter(|x| x.is_finite() && *x > 0.0)
        .map(Budget::Joules)
        .ok_or_else(|| format!("`{s}`: --budget takes joules (1.11e9, 1.11GJ, 900MJ) or none"))
}

/// Flags of environment C (`--env energy`).
#[derive(Debug, Clone, Default, PartialEq, clap::Args, Serialize, Deserialize)]
#[command(
    next_help_heading = "Environment C: --env energy (utility under a daily energy budget, P-states)"
)]
#[serde(default, deny_unknown_fields)]
pub struct EnergyArgs {
    /// Task management: queued (machine queues, pending tasks fixed) or polled (idle machines only) [default: queued].
    #[arg(long, value_enum)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub management: Option<Management>,
    /// Energy filter: none, adaptive (λ from the rate of consumption), or fixed:λ [default: none].
    #[arg(long, allow_hyphen_values = true, value_name = "none|adaptive|fixed:λ")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Filter>,
    /// The day's energy budget E: joules (1.11e9, 1.11GJ, 900MJ) or none [default: 0.7 × the mean energy Max UPT uses with no budget, queued, over the trials run].
    #[arg(long, allow_hyphen_values = true, value_name = "J|none", value_parser = parse_budget)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<Budget>,
    /// Drop a task whose best utility at a mapping event is below this (value units) [default: 0.5].
    #[arg(long, allow_hyphen_values = true, value_name = "U", value_parser = parse_non_negative)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drop_threshold: Option<f64>,
    /// Static power of every machine, W [default: 50].
    #[arg(long, allow_hyphen_values = true, value_name = "W", value_parser = parse_static_power)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub static_power: Option<f64>,
    /// Where static power counts: all-day (machines never off: a constant of the day's energy, inside E; choices see dynamic energy) or while-busy (in a task's APC; idle machines draw nothing) [default: all-day].
    #[arg(long, value_enum)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub static_counted: Option<StaticCounted>,
    /// Seconds between mapping events [default: 60].
    #[arg(long, allow_hyphen_values = true, value_name = "S", value_parser = crate::workload::flags::parse_positive)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_interval: Option<f64>,
    /// Expected tasks per day over the 100 task types [default: 32000].
    #[arg(long, allow_hyphen_values = true, value_name = "N", value_parser = crate::workload::flags::parse_positive)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tasks_per_day: Option<f64>,
    /// The shared flags (`--seed`, `--day`, `--days`, `--day-arrivals`,
    /// `--trial`, `--trials`, `--theta`; [`crate::workload::flags`]), as
    /// the command line or a configuration gives them; those this
    /// environment does not take are refused before they reach it.
    #[arg(skip)]
    #[serde(skip)]
    pub shared: SharedArgs,
}

impl EnergyArgs {
    /// The flags of this group given on the command line, as `--name`.
    pub fn given(&self) -> Vec<&'static str> {
        flags::given([
            (self.management.is_some(), "--management"),
            (self.filter.is_some(), "--filter"),
            (self.budget.is_some(), "--budget"),
            (self.drop_threshold.is_some(), "--drop-threshold"),
            (self.static_power.is_some(), "--static-power"),
            (self.static_counted.is_some(), "--static-counted"),
            (self.event_interval.is_some(), "--event-interval"),
            (self.tasks_per_day.is_some(), "--tasks-per-day"),
        ])
    }

    /// The flags that shape the workload (refused for a written workload,
    /// which carries its own).
    pub fn workload_flags(&self) -> Vec<&'static str> {
        [
            (self.tasks_per_day.is_some(), "--tasks-per-day"),
            (self.shared.theta.is_some(), "--theta"),
            (self.event_interval.is_some(), "--event-interval"),
            (self.shared.trial.is_some(), "--trial"),
            (self.shared.trials.is_some(), "--trials"),
            (self.shared.seed.is_some(), "--seed"),
        ]
        .into_iter()
        .filter_map(|(set, name)| set.then_some(name))
        .collect()
    }

    /// The workload's parameters, defaults filled in.
    pub fn synthetic(&self) -> SyntheticParams {
        let d = SyntheticParams::default();
        SyntheticParams {
            tasks_per_day: self.tasks_per_day.unwrap_or(d.tasks_per_day),
            theta_s: self.shared.theta.map(|m| m * 60.0).or(d.theta_s),
            event_interval_s: self.event_interval.unwrap_or(d.event_interval_s),
        }
    }

    /// Every machine's static power, W (`--static-power`, default
    /// [`STATIC_POWER_W`]).
    pub fn static_power_w(&self) -> f64 {
        self.static_power.unwrap_or(STATIC_POWER_W)
    }

    /// Where the static power counts (`--static-counted`, default
    /// all day; docs/energy.md, "What the budget counts").
    pub fn static_counted(&self) -> StaticCounted {
        self.static_counted.unwrap_or_default()
    }

    /// The static power counted in every APC, W: the machines' static
    /// power while busy, else none ([`super::Matrices::set_static_power`]).
    pub fn apc_static_w(&self) -> f64 {
        match self.static_counted() {
            StaticCounted::WhileBusy => self.static_power_w(),
            StaticCounted::AllDay => 0.0,
        }
    }

    /// The run configuration with budget `budget` (J, `None`: no budget).
    pub fn run_config(&self, budget: Option<f64>) -> RunConfig {
        RunConfig {
            management: self.management.unwrap_or_default(),
            filter: self.filter.unwrap_or_default(),
            budget,
            drop_threshold: self.drop_threshold.unwrap_or(DROP_THRESHOLD),
            static_all_day_w: match self.static_counted() {
                StaticCounted::AllDay => self.static_power_w(),
                StaticCounted::WhileBusy => 0.0,
            },
        }
    }
}

impl TakesShared for EnergyArgs {
    fn take_shared(&mut self, shared: &SharedArgs) {
        self.shared = shared.clone();
    }
}

/// Flags of `swftool synth energy` (one trial of the workload written as
/// an SWF log with its sidecar table; [`super::synth_file`]). Defaults are
/// the paper's ([`SyntheticParams::default`]) and the one default seed
/// ([`DEFAULT_SEED`]); each flag has the parser it has in
/// `replay --env energy`.
#[derive(Debug, Clone, clap::Args)]
pub struct EnergySynthArgs {
    /// Trial number: with the seed, it picks the matrices and every random draw.
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
    /// Expected tasks per 24 h over all task types.
    #[arg(long, value_name = "X", allow_hyphen_values = true, default_value_t = SyntheticParams::default().tasks_per_day, value_parser = crate::workload::flags::parse_positive)]
    pub tasks_per_day: f64,
    /// A fixed θ of the utility functions' urgency, minutes, for every task (as in `replay --env energy`) [default: θ = 3.7 × the task's mean ETC; docs/utility.md].
    #[arg(long, value_name = "MINUTES", allow_hyphen_values = true, value_parser = flags::parse_minutes)]
    pub theta: Option<f64>,
    /// Time between mapping events, seconds (at least 1).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, default_value_t = SyntheticParams::default().event_interval_s, value_parser = crate::workload::flags::parse_positive)]
    pub event_interval: f64,
    /// The SWF log to write: FILE.swf, or FILE.swf.gz for gzip. The sidecar table FILE.tasks.csv and FILE.tasks.parquet go beside it.
    #[arg(long, value_name = "FILE.swf[.gz]")]
    pub out: PathBuf,
}

impl EnergySynthArgs {
    /// The generation parameters these flags give.
    pub fn params(&self) -> SyntheticParams {
        SyntheticParams {
            tasks_per_day: self.tasks_per_day,
            theta_s: self.theta.map(|m| m * 60.0),
            event_interval_s: self.event_interval,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_take_joules_units_or_none() {
        assert_eq!(parse_budget("1.11e9"), Ok(Budget::Joules(1.11e9)));
        assert_eq!(parse_budget("1.11GJ"), Ok(Budget::Joules(1.11e9)));
        assert_eq!(parse_budget("900 MJ"), Ok(Budget::Joules(9e8)));
        assert_eq!(parse_budget("none"), Ok(Budget::None));
        assert!(parse_budget("-1").is_err());
        assert!(parse_budget("lots").is_err());
    }

    #[test]
    fn defaults_are_the_papers() {
        let a = EnergyArgs::default();
        let c = a.run_config(Some(1.0));
        assert_eq!(c.management, Management::Queued);
        assert_eq!(c.filter, Filter::None);
        assert_eq!(c.drop_threshold, 0.5);
        assert_eq!((c.static_all_day_w, a.apc_static_w()), (50.0, 0.0));
        let busy = EnergyArgs {
            static_counted: Some(StaticCounted::WhileBusy),
            ..EnergyArgs::default()
        };
        assert_eq!(busy.run_config(None).static_all_day_w, 0.0);
        assert_eq!(busy.apc_static_w(), 50.0);
        assert_eq!(a.synthetic(), SyntheticParams::default());
        assert_eq!(a.shared.trial_list(), vec![0]);
    }
}
