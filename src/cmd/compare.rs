//! `swftool compare LOG... --heuristics a,b`: the same metrics side by side
//! across logs and schedulers. Each log gets its own system size from its
//! own MaxProcs; the cells run through the experiment runner (so a re-run
//! resumes), and the output directory (default
//! `notebooks-out/compare-<log keys>/`) holds the same tables as an
//! experiment plus `compare.md` (the side-by-side table) and
//! `figures/compare-percent-of-bound.{png,svg}` (x = log,
//! one bar per heuristic). Logs with fewer candidate days than `--days` use
//! all they have (a note says so).

use std::path::PathBuf;

use anyhow::Context;

use crate::experiment::aggregate::{AggRow, pm};
use crate::experiment::runner::log_key;
use crate::experiment::{ExperimentConfig, Manifest, Variant, figures};
use crate::report::Figure;

use super::experiment::{GridOptions, run_grid, with_threads};

/// Arguments of `swftool compare`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Examples:
  swftool compare curie datastar sdsc-sp2 --heuristics easy,maxvpr-ph
  swftool compare kth-sp2 ctc-sp2 --heuristics all --days 8 --oversubscription higher
  swftool compare datastar sdsc-sp2 ctc-sp2 kth-sp2 --env classic --heuristics fcfs,easy,conservative")]
pub struct CompareArgs {
    /// Logs: short names or paths of .swf / .swf.gz files.
    #[arg(required = true)]
    pub logs: Vec<String>,
    /// Heuristics, comma-separated, or `all` (see `swftool heuristics`).
    #[arg(long, short = 'H', value_delimiter = ',', required = true)]
    pub heuristics: Vec<String>,
    /// N days evenly spaced over each log (fewer when a log has fewer).
    #[arg(long, default_value_t = 48)]
    pub days: usize,
    /// Seed of every random draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The environment-A variant (each log sized from its own MaxProcs).
    #[command(flatten)]
    pub variant: super::replay::VariantArgs,
    /// Output directory. Default: notebooks-out/compare-LOGS/, LOGS the log names joined by -.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the schedule invariant check after each run.
    #[arg(long)]
    pub no_check: bool,
    /// Environment: `parallel` (A, value-based days) or `classic` (D: whole logs on their own machines; heuristics fcfs, easy, conservative, catalina).
    #[arg(long, value_enum, default_value_t = super::replay::Env::Parallel)]
    pub env: super::replay::Env,
    /// Classic: plan with the true run times instead of the user estimates.
    #[arg(long)]
    pub exact_estimates: bool,
    /// Classic: cleaning rules (swftool, pyss, batsim or rlscheduler).
    #[arg(long, value_enum, default_value_t = crate::env::classic::CleanPreset::Swftool)]
    pub clean: crate::env::classic::CleanPreset,
    /// Classic: the preemption marks of catalina-preempt.
    #[command(flatten)]
    pub preempt: super::replay_classic::PreemptArgs,
}

/// The experiment configuration `compare` runs.
pub fn config_of(args: &CompareArgs) -> ExperimentConfig {
    let keys: Vec<String> = args.logs.iter().map(|l| log_key(l)).collect();
    ExperimentConfig {
        name: format!("compare-{}", keys.join("-")),
        environment: Default::default(),
        logs: args.logs.clone(),
        heuristics: args.heuristics.clone(),
        days: Some(args.days),
        dates: None,
        seed: args.seed,
        cores_base: None,
        axes: Vec::new(),
        variants: vec![Variant {
            oversubscription: args.variant.oversubscription,
            correlation: args.variant.correlation,
            heterogeneity: args.variant.heterogeneity,
        }],
    }
}

/// Runs `swftool compare`.
///
/// # Errors
/// Unknown log or heuristic, unreadable log, cells that broke invariants,
/// unwritable outputs.
pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    if args.env == super::replay::Env::Classic {
        return super::compare_classic::run(args);
    }
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
    };
    let tables = with_threads(args.threads, || run_grid(&config, &out, &opts, "compare"))?;
    let Some(tables) = tables else {
        return Ok(());
    };
    let Some(manifest) = Manifest::read(&out)? else {
        return Ok(());
    };
    let layout = &manifest.layout;
    println!();
    for l in &layout.logs {
        println!(
            "{:<10} {}: MaxProcs {:.0}, {} of {} candidate days",
            l.key,
            l.file,
            l.max_procs,
            l.days.len(),
            l.candidate_days
        );
    }
    println!();
    let keys: Vec<String> = layout.logs.iter().map(|l| l.key.clone()).collect();
    let table = side_by_side(&keys, &layout.heuristics, &tables.rows);
    print!("{table}");
    let md = out.join("compare.md");
    std::fs::write(&md, &table).with_context(|| format!("cannot write {}", md.display()))?;
    println!("wrote {}", md.display());
    let stem = out.join("figures").join("compare-percent-of-bound");
    let figs = figures::compare_figure(layout, &tables.rows, &Figure::default(), &stem)?;
    for f in figs {
        println!("wrote {}", f.display());
    }
    Ok(())
}

/// The side-by-side Markdown table of `compare`: one row per heuristic; per
/// log, the mean % of the maximum value bound ± 95 % CI, the mean tasks
/// completed and dropped per day and the mean heuristic ms per mapping event.
pub fn side_by_side(logs: &[String], heuristics: &[String], rows: &[AggRow]) -> String {
    let mut out = String::from("| heuristic |");
    let mut rule = String::from("|---|");
    for l in logs {
        out.push_str(&format!(
            " {l} % of bound | {l} completed | {l} dropped | {l} ms/event |"
        ));
        rule.push_str("---:|---:|---:|---:|");
    }
    out.push('\n');
    out.push_str(&rule);
    out.push('\n');
    for h in heuristics {
        out.push_str(&format!("| {h} |"));
        for l in logs {
            match rows.iter().find(|r| &r.log_key == l && &r.heuristic == h) {
                Some(r) => out.push_str(&format!(
                    " {} | {:.1} | {:.1} | {:.3} |",
                    pm(&r.percent_of_bound, 2),
                    r.tasks_completed.mean,
                    r.tasks_dropped.mean,
                    r.heuristic_seconds_mean.mean * 1e3
                )),
                None => out.push_str(" – | – | – | – |"),
            }
        }
        out.push('\n');
    }
    out
}
