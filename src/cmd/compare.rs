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
use super::{EnvFlags, with_threads};
use crate::env;
use crate::env::GridVisitor;
use crate::experiment::ExperimentConfig;
use crate::experiment::grid::Grid;
use crate::experiment::manifest::Manifest;
use crate::experiment::outdir::{OutLock, Staging};
use crate::workload::flags::SharedArgs;

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
    /// Environment: `parallel` (A, value-based days, each log sized from its own MaxProcs), `serial` (B: days of each log as serial tasks) or `classic` (D: whole logs on their own machines).
    #[arg(long, default_value = env::default_name(), value_parser = clap::builder::PossibleValuesParser::new(env::NAMES))]
    pub env: String,
    /// The flags several environments share.
    #[command(flatten)]
    pub shared: SharedArgs,
    /// Each environment's own flags.
    #[command(flatten)]
    pub env_flags: EnvFlags,
}

/// The experiment configuration `compare` runs for environment `E`.
///
/// # Errors
/// A flag of another environment, a flag that does not apply to a
/// comparison (`--day`, `--trial`, a flag of synthetic trials), or an
/// environment that does not compare logs.
pub fn config_of<E: Grid>(args: &CompareArgs) -> anyhow::Result<ExperimentConfig> {
    args.env_flags.refuse_foreign(E::NAME, &args.shared)?;
    if args.shared.day.is_some() {
        bail!("--day applies to replay; compare takes --days N (evenly spaced over each log)");
    }
    if let Some(flag) = ["--trial", "--trials"]
        .into_iter()
        .find(|f| args.shared.given().contains(f))
    {
        bail!("{flag} applies to synthetic trials (replay without LOG); compare replays logs");
    }
    let env_args = args.env_flags.args::<E>(&args.shared)?;
    let config = E::compare_config(&args.logs, &args.heuristics, &env_args)?;
    config.validate(std::path::Path::new("<command line>"))?;
    Ok(config)
}

struct Compare<'a>(&'a CompareArgs);

impl GridVisitor for Compare<'_> {
    type Output = anyhow::Result<()>;
    fn visit<E: Grid>(self) -> anyhow::Result<()> {
        compare::<E>(self.0)
    }
}

/// Runs `swftool compare`.
///
/// # Errors
/// A flag of another environment, unknown log or heuristic, unreadable log,
/// cells that broke invariants, unwritable outputs.
pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    env::visit(&args.env, Compare(args))?
}

fn compare<E: Grid>(args: &CompareArgs) -> anyhow::Result<()> {
    let config = config_of::<E>(args)?;
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
    // compare.md and its figure join the grid's outputs all at once.
    let _lock = OutLock::acquire(&out, &format!("compare {}", config.name))?;
    let staging = Staging::begin(&out)?;
    let mut report = E::compare(&layout, &cells, staging.dir())?;
    report.files = report.files.iter().map(|f| staging.final_path(f)).collect();
    let Some(manifest) = Manifest::read(&out)? else {
        bail!("{}: the grid's manifest.json is missing", out.display());
    };
    staging.commit(&manifest, &[])?;
    say!();
    if !report.preface.is_empty() {
        say!("{}", report.preface);
    }
    say_raw!("{}", report.markdown);
    print_written(&out, &report);
    Ok(())
}
