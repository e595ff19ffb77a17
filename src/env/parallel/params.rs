//! The command-line parameters of environment A, as one clap argument
//! group shown under its own heading in `--help`. Every flag is optional so
//! that a flag given with another environment can be named and refused;
//! the defaults are applied here. The shared flags (`--seed`, `--day`,
//! `--days`, `--day-arrivals`) are declared once in
//! [`crate::workload::flags`] and filled in here.

use crate::workload::flags::{SharedArgs, TakesShared};
use crate::workload::{Correlation, Heterogeneity, Oversubscription, ScenarioParams, Workload};

/// Flags of environment A (`--env parallel`).
#[derive(Debug, Clone, Default, clap::Args, serde::Serialize)]
#[command(
    next_help_heading = "Environment A: --env parallel (value-based, heterogeneous clusters)"
)]
pub struct ParallelArgs {
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
    /// The shared flags (`--seed`, `--day`, `--days`, `--day-arrivals`,
    /// `--trial`, `--trials`, `--theta`; [`crate::workload::flags`]), as
    /// the command line or a configuration gives them; those this
    /// environment does not take are refused before they reach it.
    #[arg(skip)]
    #[serde(skip)]
    pub shared: SharedArgs,
}

impl ParallelArgs {
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
    let o = &p.oversubscription;
    let (c, h) = (&p.correlation, &p.heterogeneity);
    let changed = [
        (*o != d.oversubscription).then(|| format!("oversubscription={o}")),
        (*c != d.correlation).then(|| format!("correlation={c}")),
        (*h != d.heterogeneity).then(|| format!("heterogeneity={h}")),
    ];
    crate::experiment::grid::variant_label(changed, ",")
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

impl From<SystemSizeRefused> for crate::contract::EnvError {
    fn from(e: SystemSizeRefused) -> Self {
        crate::contract::EnvError::Refused(Box::new(e))
    }
}

impl TakesShared for ParallelArgs {
    fn take_shared(&mut self, shared: &SharedArgs) {
        self.shared = shared.clone();
    }
}
