//! The flags several environments share, with their one home: the user
//! seed, the days of a log, the synthetic trials and the urgency time
//! constant θ. Each is declared once here (one default, one help text,
//! one parser); an environment says which of them it takes
//! ([`crate::contract::Environment::SHARED`]) and receives their values
//! ([`TakesShared::take_shared`]). A shared flag given to an
//! environment that does not take it is refused, naming the environments
//! that do.
//!
//! In an experiment configuration the same values are the top-level keys
//! `seed`, `days`, `dates`, `day_arrivals`, `trials` and `theta`
//! ([`crate::experiment::config`]).

use super::days::ArrivalRange;
use super::seeds::{DEFAULT_SEED, parse_trials, trial_list};

/// Parses `--seed`: a clear message for anything that is not a 64-bit
/// non-negative integer (`-1` included, which clap would otherwise take
/// for a flag).
///
/// # Errors
/// Anything else, as a message for clap naming the flag and the range.
pub fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim()
        .parse()
        .map_err(|_| "--seed takes a non-negative integer, 0 to 18446744073709551615".to_string())
}

/// Parses a flag that takes a positive finite number (seconds, minutes,
/// a count per day: the flag's help says which).
///
/// # Errors
/// Anything else, as a message for clap.
pub fn parse_positive(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| format!("`{s}`: expected a positive number"))
}

/// Parses `--theta`: a positive number of minutes.
///
/// # Errors
/// Anything else, as a message for clap.
pub fn parse_minutes(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| format!("`{s}`: expected a positive number of minutes"))
}

/// The shared flags, as `replay` and `compare` take them (every one
/// optional, so that one given to an environment that does not take it can
/// be named and refused).
#[derive(Debug, Clone, Default, PartialEq, clap::Args)]
#[command(next_help_heading = "Scenarios (shared by the environments that take them)")]
pub struct SharedArgs {
    /// Seed of every random draw (system, ETC, values, synthetic workloads): 0 to 18446744073709551615 [default: 1]. Environments A, B and C.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// One day of the log: an index 0..47 into its 48 standard days, or a date YYYY-MM-DD [default: 24, replay only]. Environments A and B with a LOG.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "days")]
    pub day: Option<String>,
    /// N days evenly spaced over the days in range (48 = the standard set) [compare default: 48]. Environments A and B with a LOG.
    #[arg(long, allow_hyphen_values = true)]
    pub days: Option<usize>,
    /// Days that may enter the set, by their number of arrivals (every job submitted that day): `standard` (Curie: 897-2904, the paper's range; other logs: p10-p90), `any`, MIN-MAX, or percentiles pLO-pHI [default: standard]. Environments A and B with a LOG.
    #[arg(long, allow_hyphen_values = true, value_name = "RANGE")]
    pub day_arrivals: Option<ArrivalRange>,
    /// Synthetic trial number (no LOG): the trial's draws come from the seed and this number [default: 0]. Environments B and C.
    #[arg(long, allow_hyphen_values = true, conflicts_with = "trials")]
    pub trial: Option<u64>,
    /// Synthetic trials 0..N (no LOG), one run per trial and heuristic; N from 1 to 10,000. Environments B and C.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_trials)]
    pub trials: Option<u64>,
    /// A fixed urgency time constant θ, minutes, for every task (an urgency is a decay rate per θ) [default: θ = 3.7 × the task's mean ETC, calibrated on Machovec et al. Fig. 1; docs/utility.md]. Environments B and C.
    #[arg(long, allow_hyphen_values = true, value_name = "MINUTES", value_parser = parse_minutes)]
    pub theta: Option<f64>,
}

impl SharedArgs {
    /// The user seed: `--seed`, or [`DEFAULT_SEED`].
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(DEFAULT_SEED)
    }

    /// The synthetic trials to run ([`trial_list`] of `--trials` and
    /// `--trial`).
    pub fn trial_list(&self) -> Vec<u64> {
        trial_list(self.trials, self.trial)
    }

    /// The flags given, as `--name`, in declaration order.
    pub fn given(&self) -> Vec<&'static str> {
        given([
            (self.seed.is_some(), "--seed"),
            (self.day.is_some(), "--day"),
            (self.days.is_some(), "--days"),
            (self.day_arrivals.is_some(), "--day-arrivals"),
            (self.trial.is_some(), "--trial"),
            (self.trials.is_some(), "--trials"),
            (self.theta.is_some(), "--theta"),
        ])
    }
}

/// An environment's flags, which hold the shared flags it takes
/// ([`crate::contract::Environment::SHARED`]).
pub trait TakesShared {
    /// Fills the shared flags it takes into these flags.
    fn take_shared(&mut self, shared: &SharedArgs);
}

/// The names of the flags whose `set` is true, in the order given: the
/// `given()` of every flag group.
pub fn given<const N: usize>(flags: [(bool, &'static str); N]) -> Vec<&'static str> {
    flags
        .into_iter()
        .filter_map(|(set, name)| set.then_some(name))
        .collect()
}

/// The shared keys of an experiment configuration besides `seed`, as
/// [`crate::contract::Environment::SHARED`] names their flags: `--days` is the
/// key `days` (and `dates`, its explicit form), `--day-arrivals` is
/// `day_arrivals`, `--trials` is `trials`, `--theta` is `theta`.
pub fn config_key_of(flag: &str) -> Option<&'static str> {
    Some(match flag {
        "--days" => "days",
        "--day-arrivals" => "day_arrivals",
        "--trials" => "trials",
        "--theta" => "theta",
        _ => return None,
    })
}
