//! `swftool compare LOG... --heuristics a,b`: the same metrics side by side
//! across logs and schedulers. Each log gets its own system size from its
//! own MaxProcs; the cells run through the experiment runner (so a re-run
//! resumes), and the output directory (default
//! `notebooks-out/compare-<log keys>/`) holds the same tables as an
//! experiment plus `compare.md` (the side-by-side table) and
//! `figures/compare-percent-of-bound.{png,svg}` (x = log,
//! one bar per heuristic). Logs with fewer candidate days than `--days` use
//! all they have (a note says so).
//!
//! With `--env classic` (environment D) whole logs are replayed, each on its
//! own machine: a table (rows scheduler, columns per log), the `summary`
//! table (CSV, Parquet), `compare.md` and a figure of the mean bounded
//! slowdown (x = log, one bar per scheduler, log scale).

use std::path::PathBuf;

use anyhow::{Context, bail};
use rayon::prelude::*;

use crate::catalog;
use crate::env::EnvKind;
use crate::env::classic::ClassicArgs;
use crate::env::classic::summary::{ClassicSummary, RunLabel, summarize};
use crate::env::classic::tables::summary_frame;
use crate::env::classic::{self, depth_label};
use crate::env::parallel::params::{ParallelArgs, STANDARD_DAYS};
use crate::experiment::aggregate::{AggRow, pm};
use crate::experiment::runner::log_key;
use crate::experiment::{ExperimentConfig, Manifest, Variant, figures};
use crate::metrics::tables::write_both;
use crate::report::{self, Bar, BarChart, BarSeries, Figure};
use crate::sim::capacity;
use crate::swf::ReadOptions;

use super::experiment::{GridOptions, run_grid};
use super::with_threads;

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
    /// Output directory. Default: notebooks-out/compare-LOGS/, LOGS the log names joined by -.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the schedule invariant check after each run.
    #[arg(long)]
    pub no_check: bool,
    /// Environment: `parallel` (A, value-based days) or `classic` (D: whole logs on their own machines).
    #[arg(long, value_enum, default_value_t = EnvKind::Parallel)]
    pub env: EnvKind,
    /// Flags of environment A (each log sized from its own MaxProcs).
    #[command(flatten)]
    pub parallel: ParallelArgs,
    /// Flags of environment D.
    #[command(flatten)]
    pub classic: ClassicArgs,
}

/// The experiment configuration `compare` runs.
pub fn config_of(args: &CompareArgs) -> ExperimentConfig {
    let keys: Vec<String> = args.logs.iter().map(|l| log_key(l)).collect();
    ExperimentConfig {
        name: format!("compare-{}", keys.join("-")),
        environment: Default::default(),
        logs: args.logs.clone(),
        heuristics: args.heuristics.clone(),
        days: Some(args.parallel.days.unwrap_or(STANDARD_DAYS)),
        dates: None,
        seed: args.parallel.seed(),
        cores_base: None,
        axes: Vec::new(),
        variants: vec![{
            let p = args.parallel.scenario_params();
            Variant {
                oversubscription: p.oversubscription,
                correlation: p.correlation,
                heterogeneity: p.heterogeneity,
            }
        }],
    }
}

/// Runs `swftool compare`.
///
/// # Errors
/// Unknown log or heuristic, unreadable log, cells that broke invariants,
/// unwritable outputs.
pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    super::refuse_foreign_flags(args.env, &args.parallel, &args.classic)?;
    if args.parallel.day.is_some() {
        bail!("--day applies to replay; compare takes --days N (evenly spaced over each log)");
    }
    if args.parallel.cores_base.is_some() {
        bail!("--cores-base does not apply to compare: each log is sized from its own MaxProcs");
    }
    if args.env == EnvKind::Classic {
        return run_classic(args);
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
    let figs = figures::compare_figure(
        layout,
        &tables.rows,
        &Figure::with_palette(&crate::env::parallel::HEURISTICS.names()),
        &stem,
    )?;
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

/// Runs `swftool compare --env classic`.
///
/// # Errors
/// Unknown log or scheduler, unreadable log, invariant violations,
/// unwritable output.
pub fn run_classic(args: &CompareArgs) -> anyhow::Result<()> {
    let c = &args.classic;
    let policies = c.policies(&args.heuristics)?;
    let opts = c.clean_options();
    let estimates = c.estimates();
    let keys: Vec<String> = args
        .logs
        .iter()
        .map(|l| crate::experiment::runner::log_key(l))
        .collect();
    let work = || -> anyhow::Result<Vec<Vec<ClassicSummary>>> {
        args.logs
            .par_iter()
            .map(|name| -> anyhow::Result<Vec<ClassicSummary>> {
                let path = catalog::resolve(name)?;
                let log = crate::swf::read_log(&path, &ReadOptions::default())?;
                let machine = c.machine(&log)?;
                let (jobs, _) = classic::clean(&log.jobs, &machine, &opts);
                policies
                    .par_iter()
                    .map(|&(sched, policy)| {
                        let run = classic::simulate(&jobs, machine.capacity, policy);
                        if !args.no_check {
                            let v = capacity::check(&jobs, &run, machine.capacity);
                            if let Some(first) = v.first() {
                                bail!(
                                    "{} with {sched}: {} invariant violation(s), first: {first}",
                                    log.name,
                                    v.len()
                                );
                            }
                        }
                        Ok(summarize(
                            RunLabel {
                                log: &log.name,
                                scheduler: sched,
                                depth: depth_label(policy),
                                estimates,
                                clean: c.clean_preset().to_string(),
                            },
                            &jobs,
                            &machine,
                            &run,
                            c.tau(),
                        ))
                    })
                    .collect()
            })
            .collect()
    };
    let per_log = super::with_threads(args.threads, work)?;

    let mut md = String::from("| scheduler |");
    let mut rule = String::from("|---|");
    for (k, s) in keys.iter().zip(&per_log) {
        let cap = s.first().map_or(0, |x| x.capacity);
        md.push_str(&format!(
            " {k} ({cap}) wait s | {k} bsld | {k} xfactor | {k} util % |"
        ));
        rule.push_str("---:|---:|---:|---:|");
    }
    md.push('\n');
    md.push_str(&rule);
    md.push('\n');
    for (pi, (sched, _)) in policies.iter().enumerate() {
        md.push_str(&format!("| {sched} |"));
        for s in &per_log {
            let x = &s[pi];
            md.push_str(&format!(
                " {:.0} | {:.2} | {:.2} | {:.2} |",
                x.wait_mean_s,
                x.bsld_mean,
                x.xfactor_mean,
                100.0 * x.utilization
            ));
        }
        md.push('\n');
    }
    println!(
        "classic replay, {estimates} estimates, {} cleaning, bounded slowdown tau {} s\n",
        c.clean_preset(),
        c.tau()
    );
    print!("{md}");

    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!("notebooks-out/compare-classic-{}", keys.join("-")))
    });
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let all: Vec<ClassicSummary> = per_log.iter().flatten().cloned().collect();
    write_both(&mut summary_frame(&all)?, &out, "summary")?;
    let mdpath = out.join("compare.md");
    std::fs::write(&mdpath, &md).with_context(|| format!("cannot write {}", mdpath.display()))?;
    let chart = BarChart {
        title: format!("Mean bounded slowdown by log ({estimates} estimates, whole logs)"),
        x_label: "log (own machine: MaxProcs processors)".into(),
        y_label: format!("mean bounded slowdown (tau = {} s, log scale)", c.tau()),
        levels: keys.clone(),
        series: policies
            .iter()
            .enumerate()
            .map(|(pi, (sched, _))| BarSeries {
                name: sched.to_string(),
                bars: per_log
                    .iter()
                    .map(|s| {
                        Some(Bar {
                            mean: s[pi].bsld_mean,
                            ci95: None,
                        })
                    })
                    .collect(),
            })
            .collect(),
        log_y: true,
    };
    let paths = report::grouped_bars(
        &chart,
        &Figure::with_palette(&crate::env::classic::SCHEDULERS.names()),
        &out.join("figures").join("compare-bsld"),
    )?;
    let manifest = serde_json::json!({
        "swftool_version": env!("CARGO_PKG_VERSION"),
        "command": "compare --env classic",
        "logs": args.logs,
        "schedulers": policies.iter().map(|p| p.0).collect::<Vec<_>>(),
        "estimates": estimates,
        "clean": c.clean_preset().to_string(),
    });
    let mpath = out.join("manifest.json");
    std::fs::write(&mpath, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("cannot write {}", mpath.display()))?;
    println!(
        "\nwrote {}/summary.{{csv,parquet}}, compare.md, manifest.json",
        out.display()
    );
    for p in paths {
        println!("wrote {}", p.display());
    }
    Ok(())
}
