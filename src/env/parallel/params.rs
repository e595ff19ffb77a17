//! The command-line parameters of environment A, as one clap argument
//! group shown under its own heading in `--help`. Every flag is optional so
//! that a flag given with another environment can be named and refused
//! ([`ParallelArgs::given`]); the defaults are applied here.

use crate::workload::{
    Correlation, DayWindow, Heterogeneity, Oversubscription, ScenarioParams, Workload,
};

/// Number of standard days per log (Khemka et al. 2015, §5: 48 days).
pub const STANDARD_DAYS: usize = 48;
/// Default day of a replay: the middle one of the standard 48.
pub const DEFAULT_DAY: usize = 24;
/// Parses `--seed`: a clear message for anything that is not a 64-bit
/// non-negative integer (`-1` included, which clap would otherwise take
/// for a flag).
fn parse_seed(s: &str) -> Result<u64, String> {
    s.parse()
        .map_err(|_| "--seed takes a non-negative integer, 0 to 18446744073709551615".to_string())
}

/// Default user seed.
pub const DEFAULT_SEED: u64 = 1;

/// Flags of environment A (`--env parallel`).
#[derive(Debug, Clone, Default, clap::Args, serde::Serialize)]
#[command(
    next_help_heading = "Environment A: --env parallel (value-based, heterogeneous clusters)"
)]
pub struct ParallelArgs {
    /// One day: an index 0..47 into the 48 standard days of the log, or a date YYYY-MM-DD [default: 24, replay only].
    #[arg(long, conflicts_with = "days")]
    pub day: Option<String>,
    /// N days evenly spaced over the log (48 = the standard set) [compare default: 48].
    #[arg(long)]
    pub days: Option<usize>,
    /// Seed of every random draw (system, ETC, values): 0 to 18446744073709551615 [default: 1].
    #[arg(long, allow_negative_numbers = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// System size: lower = 25 %, intermediate = 20 %, higher = 15 % of the log's MaxProcs [default: intermediate].
    #[arg(long, value_enum)]
    pub oversubscription: Option<Oversubscription>,
    /// Correlation of starting value with execution time [default: weak].
    #[arg(long, value_enum)]
    pub correlation: Option<Correlation>,
    /// ETC heterogeneity: low = COV 0.01, intermediate = 0.3, high = 1.0 [default: intermediate].
    #[arg(long, value_enum)]
    pub heterogeneity: Option<Heterogeneity>,
    /// Base of the system size in cores [default: the log's MaxProcs].
    #[arg(long)]
    pub cores_base: Option<f64>,
}

impl ParallelArgs {
    /// The flags given on the command line, as `--name`.
    pub fn given(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut add = |set: bool, name: &'static str| {
            if set {
                out.push(name);
            }
        };
        add(self.day.is_some(), "--day");
        add(self.days.is_some(), "--days");
        add(self.seed.is_some(), "--seed");
        add(self.oversubscription.is_some(), "--oversubscription");
        add(self.correlation.is_some(), "--correlation");
        add(self.heterogeneity.is_some(), "--heterogeneity");
        add(self.cores_base.is_some(), "--cores-base");
        out
    }

    /// The user seed (default [`DEFAULT_SEED`]).
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(DEFAULT_SEED)
    }

    /// The scenario parameters these flags give, defaults filled in.
    pub fn scenario_params(&self) -> ScenarioParams {
        let d = ScenarioParams::default();
        ScenarioParams {
            oversubscription: self.oversubscription.unwrap_or(d.oversubscription),
            correlation: self.correlation.unwrap_or(d.correlation),
            heterogeneity: self.heterogeneity.unwrap_or(d.heterogeneity),
            cores_base: self.cores_base,
        }
    }
}

/// A day that cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DayError {
    /// The log has no candidate day at all.
    #[error("{log}: no complete day with a 4-hour warm-up in this log")]
    NoDays {
        /// The log's file name.
        log: String,
    },
    /// `--days 0`.
    #[error("--days must be at least 1")]
    ZeroDays,
    /// A day index past the standard days.
    #[error("--day {index}: this log has {count} standard days (0..{})", count - 1)]
    Index {
        /// The index given.
        index: usize,
        /// Standard days of the log.
        count: usize,
    },
    /// A date that is not a candidate day.
    #[error(
        "--day {date}: not a usable day of {log} (usable days run {first} .. {last}; a day needs 4 h of log before it and log after it)"
    )]
    Date {
        /// The log's file name.
        log: String,
        /// The date given.
        date: String,
        /// First candidate day.
        first: String,
        /// Last candidate day.
        last: String,
    },
}

/// The days of a replay of `w`: `days` evenly spaced ones, or the one `day`
/// names (an index into the [`STANDARD_DAYS`] standard days or a date
/// `YYYY-MM-DD`), or by default the standard day [`DEFAULT_DAY`].
///
/// # Errors
/// [`DayError`]: no candidate day, `--days 0`, an index out of range or a
/// date that is not a candidate day.
pub fn pick_days(
    w: &Workload,
    day: Option<&str>,
    days: Option<usize>,
) -> Result<Vec<DayWindow>, DayError> {
    let (Some(first), Some(last)) = (w.candidates.first(), w.candidates.last()) else {
        return Err(DayError::NoDays {
            log: w.name.clone(),
        });
    };
    if let Some(n) = days {
        if n == 0 {
            return Err(DayError::ZeroDays);
        }
        return Ok(w.select(n));
    }
    let standard = w.select(STANDARD_DAYS);
    match day {
        None => Ok(vec![standard[DEFAULT_DAY.min(standard.len() - 1)].clone()]),
        Some(d) => match d.parse::<usize>() {
            Ok(index) => standard
                .get(index)
                .cloned()
                .map(|d| vec![d])
                .ok_or(DayError::Index {
                    index,
                    count: standard.len(),
                }),
            Err(_) => w
                .day_by_date(d)
                .map(|d| vec![d])
                .ok_or_else(|| DayError::Date {
                    log: w.name.clone(),
                    date: d.to_string(),
                    first: first.date.clone(),
                    last: last.date.clone(),
                }),
        },
    }
}

/// A short label of a variant of environment A: `default`, or its
/// non-default levels, e.g. `oversubscription=higher` or
/// `correlation=none,heterogeneity=high` (the `variant` column of the tables).
pub fn variant_label(p: &ScenarioParams) -> String {
    let d = ScenarioParams::default();
    let mut parts = Vec::new();
    if p.oversubscription != d.oversubscription {
        parts.push(format!("oversubscription={}", p.oversubscription));
    }
    if p.correlation != d.correlation {
        parts.push(format!("correlation={}", p.correlation));
    }
    if p.heterogeneity != d.heterogeneity {
        parts.push(format!("heterogeneity={}", p.heterogeneity));
    }
    if parts.is_empty() {
        "default".to_string()
    } else {
        parts.join(",")
    }
}
