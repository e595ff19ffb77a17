//! `swftool compare LOG... --heuristics a,b [--env parallel|classic]`: the
//! same metrics side by side across logs and heuristics, written once over
//! environments. Each log gets its own system (environment A: sized from its
//! own MaxProcs; D: its own machine); the cells run through the experiment
//! runner (so a re-run resumes), and the output directory (default
//! `notebooks-out/compare-<log keys>/`, `compare-classic-<log keys>/` with
//! `--env classic`) holds the environment's experiment tables plus
//! `compare.md` (the side-by-side table) and a figure (environment A:
//! `figures/compare-percent-of-bound`, x = log, one bar per heuristic with
//! its 95 % CI; D: `figures/compare-bsld`, mean bounded slowdown, log
//! scale). Logs with fewer candidate days than `--days` use all they have (a
//! note says so).

use std::path::PathBuf;

use anyhow::bail;

use super::experiment::{GridOptions, print_written, run_grid};
use super::with_threads;
use crate::env::EnvKind;
use crate::env::classic::ClassicArgs;
use crate::env::classic::environment::Classic;
use crate::env::parallel::environment::Parallel;
use crate::env::parallel::params::ParallelArgs;
use crate::env::serial::environment::Serial;
use crate::env::serial::params::SerialArgs;
use crate::experiment::runner::log_key;
use crate::experiment::{ExperimentConfig, Grid, Variant};
use crate::workload::STANDARD_DAYS;

/// Arguments of `swftool compare`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Examples:
  swftool compare curie datastar sdsc-sp2 --heuristics easy,maxvpr-ph
  swftool compare kth-sp2 ctc-sp2 --heuristics all --days 8 --oversubscription higher
  swftool compare curie hpc2n --env serial --heuristics maxupt,maxupt-preempt-greedy --days 4
  swftool compare datastar sdsc-sp2 ctc-sp2 kth-sp2 --env classic --heuristics fcfs,easy,conservative")]
pub struct CompareArgs {
    /// Logs: short names or paths of .swf / .swf.gz files.
    #[arg(required = true)]
    pub logs: Vec<String>,
    /// Heuristics, comma-separated, or `all` (see `swftool heuristics`).
    #[arg(long, short = 'H', value_delimiter = ',', required = true)]
    pub heuristics: Vec<String>,
    /// Output directory. Default: notebooks-out/compare-LOGS/, LOGS the log names joined by -.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads, 0 to 1024 (default, or 0: all cores). Results do not depend on it.
    #[arg(long, allow_hyphen_values = true, value_parser = super::parse_threads)]
    pub threads: Option<usize>,
    /// Skip the schedule invariant check after each run.
    #[arg(long)]
    pub no_check: bool,
    /// Environment: `parallel` (A, value-based days), `serial` (B: days of each log as serial tasks) or `classic` (D: whole logs on their own machines).
    #[arg(long, value_enum, default_value_t = EnvKind::Parallel)]
    pub env: EnvKind,
    /// Flags of environment A (each log sized from its own MaxProcs).
    #[command(flatten)]
    pub parallel: ParallelArgs,
    /// Flags of environment B (days of each log as serial tasks).
    #[command(flatten)]
    pub serial: SerialArgs,
    /// Flags of environment D.
    #[command(flatten)]
    pub classic: ClassicArgs,
}

/// The experiment configuration `compare` runs.
pub fn config_of(args: &CompareArgs) -> ExperimentConfig {
    let keys: Vec<String> = args.logs.iter().map(|l| log_key(l)).collect();
    let base = ExperimentConfig {
        name: format!("compare-{}", keys.join("-")),
        environment: args.env,
        logs: args.logs.clone(),
        heuristics: args.heuristics.clone(),
        days: None,
        dates: None,
        day_arrivals: None,
        seed: args.parallel.seed(),
        cores_base: None,
        axes: Vec::new(),
        variants: Vec::new(),
        classic: Default::default(),
        job_tables: false,
        ..ExperimentConfig::empty()
    };
    match args.env {
        EnvKind::Parallel => {
            let p = args.parallel.scenario_params();
            ExperimentConfig {
                days: Some(args.parallel.days.unwrap_or(STANDARD_DAYS)),
                variants: vec![Variant {
                    oversubscription: p.oversubscription,
                    correlation: p.correlation,
                    heterogeneity: p.heterogeneity,
                }],
                ..base
            }
        }
        EnvKind::Serial => ExperimentConfig {
            name: format!("compare-serial-{}", keys.join("-")),
            days: Some(args.parallel.days.unwrap_or(STANDARD_DAYS)),
            day_arrivals: args.parallel.day_arrivals,
            serial: args.serial.clone(),
            ..base
        },
        EnvKind::Classic | EnvKind::Energy => ExperimentConfig {
            name: format!("compare-{}-{}", args.env, keys.join("-")),
            classic: args.classic.clone(),
            ..base
        },
    }
}

/// Runs `swftool compare`.
///
/// # Errors
/// A flag of another environment, unknown log or heuristic, unreadable log,
/// cells that broke invariants, unwritable outputs.
pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    super::refuse_foreign_flags(
        args.env,
        &args.parallel,
        &args.serial,
        &crate::env::energy::params::EnergyArgs::default(),
        &args.classic,
    )?;
    if let Some(flag) = args.serial.misplaced(true).first() {
        bail!(
            "{flag} applies to synthetic trials (replay --env serial without LOG); compare replays logs"
        );
    }
    if args.parallel.day.is_some() {
        bail!("--day applies to replay; compare takes --days N (evenly spaced over each log)");
    }
    if args.parallel.cores_base.is_some() {
        bail!("--cores-base does not apply to compare: each log is sized from its own MaxProcs");
    }
    match args.env {
        EnvKind::Parallel => compare::<Parallel>(args),
        EnvKind::Serial => compare::<Serial>(args),
        EnvKind::Classic => compare::<Classic>(args),
        EnvKind::Energy => bail!(
            "compare replays logs side by side; environment C runs synthetic trials: use `swftool replay --env energy --trials N` or `swftool experiment --preset khemka2015-energy`"
        ),
    }
}

fn compare<E: Grid>(args: &CompareArgs) -> anyhow::Result<()> {
    let config = config_of(args);
    config.validate(std::path::Path::new("<command line>"))?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| super::experiment::default_out(&config.name));
    let opts = GridOptions {
        shard: None,
        no_check: args.no_check,
        figures: false,
        print_table: false,
        progress: Default::default(),
    };
    let Some((layout, cells)) = with_threads(args.threads, || {
        run_grid::<E>(&config, &out, &opts, "compare")
    })?
    else {
        return Ok(());
    };
    let report = E::compare(&layout, &cells, &out)?;
    println!();
    if !report.preface.is_empty() {
        println!("{}", report.preface);
    }
    print!("{}", report.markdown);
    print_written(&out, &report);
    Ok(())
}
