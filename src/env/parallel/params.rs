//! The command-line parameters of environment A, as one clap argument
//! group shown under its own heading in `--help`. Every flag is optional so
//! that a flag given with another environment can be named and refused
//! ([`ParallelArgs::given`]); the defaults are applied here.

use crate::workload::seeds::DEFAULT_SEED;
use crate::workload::{
    ArrivalRange, Correlation, Heterogeneity, Oversubscription, ScenarioParams, Workload,
};

/// Parses `--seed`: a clear message for anything that is not a 64-bit
/// non-negative integer (`-1` included, which clap would otherwise take
/// for a flag).
fn parse_seed(s: &str) -> Result<u64, String> {
    s.parse()
        .map_err(|_| "--seed takes a non-negative integer, 0 to 18446744073709551615".to_string())
}

/// Flags of environment A (`--env parallel`).
#[derive(Debug, Clone, Default, clap::Args, serde::Serialize)]
#[command(
    next_help_heading = "Environment A: --env parallel (value-based, heterogeneous clusters)"
)]
pub struct ParallelArgs {
    /// One day: an index 0..47 into the 48 standard days of the log, or a date YYYY-MM-DD [default: 24, replay only].
    #[arg(long, allow_hyphen_values = true, conflicts_with = "days")]
    pub day: Option<String>,
    /// N days evenly spaced over the days in range (48 = the standard set) [compare default: 48].
    #[arg(long, allow_hyphen_values = true)]
    pub days: Option<usize>,
    /// Days that may enter the set, by their number of arrivals (every job submitted that day): `standard` (Curie: 897-2904, the paper's range; other logs: p10-p90), `any`, MIN-MAX, or percentiles pLO-pHI [default: standard].
    #[arg(long, allow_hyphen_values = true, value_name = "RANGE")]
    pub day_arrivals: Option<ArrivalRange>,
    /// Seed of every random draw (system, ETC, values): 0 to 18446744073709551615 [default: 1].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_seed)]
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
    #[arg(long, allow_hyphen_values = true)]
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
        add(self.day_arrivals.is_some(), "--day-arrivals");
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

/// A system size environment A cannot build for a log, with where the size
/// comes from and what to give instead.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "{log}: {problem}: oversubscription {level} takes {percent} % of {base} cores ({from}); \
     give --cores-base (config: cores_base) between {lowest:.0} and {highest:.0}"
)]
pub struct SystemSizeRefused {
    /// The log's file name.
    pub log: String,
    /// What is wrong with the size.
    pub problem: crate::model::system::SystemSizeError,
    /// The oversubscription level.
    pub level: Oversubscription,
    /// Its share of the base, %.
    pub percent: f64,
    /// The base, cores.
    pub base: f64,
    /// Where the base comes from (`--cores-base`, or the log's MaxProcs).
    pub from: &'static str,
    /// Smallest base that works at this level, cores.
    pub lowest: f64,
    /// Largest base that works at this level, cores.
    pub highest: f64,
}

/// Checks, before any work, that environment A can build the systems of
/// `w` under `p` (see [`crate::model::system::check_size`]).
///
/// # Errors
/// [`SystemSizeRefused`], naming the log, the level, the base and the
/// range of bases that work.
pub fn check_system_size(w: &Workload, p: &ScenarioParams) -> Result<(), SystemSizeRefused> {
    use crate::model::system::{MAX_SYSTEM_CORES, MIN_SYSTEM_CORES, check_size};
    let fraction = p.oversubscription.fraction();
    check_size(p.target_cores(w)).map_err(|problem| SystemSizeRefused {
        log: w.name.clone(),
        problem,
        level: p.oversubscription,
        percent: 100.0 * fraction,
        base: p.cores_base.unwrap_or(w.max_procs),
        from: if p.cores_base.is_some() {
            "--cores-base"
        } else {
            "the log's MaxProcs, or its widest job when the header has none"
        },
        lowest: (MIN_SYSTEM_CORES / fraction).ceil(),
        highest: (MAX_SYSTEM_CORES / fraction).floor(),
    })
}
