//! `swftool replay LOG --heuristic NAME`: replay days of a log through
//! environment A heuristics, print a summary table and write the job-level,
//! summary and timing tables (CSV and Parquet).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::catalog;
use crate::env::parallel::{self, RunResult, simulate};
use crate::metrics::tables::{self, RunRecord};
use crate::metrics::{RunSummary, summarize};
use crate::sim::invariants;
use crate::swf::ReadOptions;
use crate::workload::{
    Correlation, DayWindow, Heterogeneity, Oversubscription, Scenario, ScenarioParams, Workload,
};

/// Number of standard days per log (SPEC §3.A).
pub const STANDARD_DAYS: usize = 48;
/// Default day: the middle one of the standard 48.
pub const DEFAULT_DAY: usize = 24;

/// Scheduling environment of a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Env {
    /// Environment A: heterogeneous parallel clusters, value-based.
    Parallel,
    /// Environment D: classic replay on the log's own machine.
    Classic,
}

/// The three variant axes of environment A (SPEC §3.A), shared by
/// `replay` and `compare`.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct VariantArgs {
    /// System size: lower = 25 %, intermediate = 20 %, higher = 15 % of the log's MaxProcs.
    #[arg(long, value_enum, default_value_t = Oversubscription::Intermediate)]
    pub oversubscription: Oversubscription,
    /// Correlation of starting value with execution time.
    #[arg(long, value_enum, default_value_t = Correlation::Weak)]
    pub correlation: Correlation,
    /// ETC heterogeneity: low = COV 0.01, intermediate = 0.3, high = 1.0.
    #[arg(long, value_enum, default_value_t = Heterogeneity::Intermediate)]
    pub heterogeneity: Heterogeneity,
}

/// Arguments of `swftool replay`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Examples:
  swftool replay curie --heuristic maxvpr-ph
  swftool replay curie --heuristic all --day 2012-03-14
  swftool replay curie --heuristic easy,maxvpr-ph --days 48 --oversubscription higher --out results/curie
  swftool replay ./my-log.swf.gz --heuristic maxvalue --seed 7 --heterogeneity high
  swftool replay sdsc-sp2 --env classic --heuristic fcfs,easy,conservative
  swftool replay datastar --env classic -H backfill --reservation-depth 4 --exact-estimates --clean pyss")]
pub struct ReplayArgs {
    /// Log: a path to a .swf or .swf.gz file, or a short name (curie, datastar, sdsc-sp2, hpc2n, ctc-sp2, kth-sp2, lublin256).
    pub log: String,
    /// Heuristic(s), comma-separated, or `all` (see `swftool heuristics`).
    #[arg(long, short = 'H', value_delimiter = ',', required = true)]
    pub heuristic: Vec<String>,
    /// One day: an index 0..47 into the 48 standard days of the log, or a date YYYY-MM-DD. Default: 24.
    #[arg(long, conflicts_with = "days")]
    pub day: Option<String>,
    /// N days evenly spaced over the log (48 = the standard set).
    #[arg(long)]
    pub days: Option<usize>,
    /// Seed of every random draw (system, ETC, values).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The environment-A variant.
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Base of the system size in cores (default: the log's MaxProcs).
    #[arg(long)]
    pub cores_base: Option<f64>,
    /// Output directory for the tables (default: notebooks-out/replay, or notebooks-out/replay-classic with --env classic).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Scheduling environment: `parallel` (A: value-based, heterogeneous clusters, one day at a time) or `classic` (D: the whole log on its own machine; heuristics fcfs, easy, conservative, backfill).
    #[arg(long, value_enum, default_value_t = Env::Parallel)]
    pub env: Env,
    /// Classic: reservation depth of backfilling, a number or `all` (0 = greedy, 1 = EASY, all = Conservative).
    #[arg(long, value_parser = super::replay_classic::parse_depth)]
    pub reservation_depth: Option<usize>,
    /// Classic: plan with the true run times instead of the user estimates (field 9).
    #[arg(long)]
    pub exact_estimates: bool,
    /// Classic: allocate whole nodes (MaxNodes) instead of processors (MaxProcs).
    #[arg(long)]
    pub whole_nodes: bool,
    /// Classic, with --whole-nodes: processors per node (default round(MaxProcs / MaxNodes)).
    #[arg(long)]
    pub procs_per_node: Option<u32>,
    /// Classic: cleaning rules (see SPEC §3.D): swftool, pyss, batsim or rlscheduler.
    #[arg(long, value_enum, default_value_t = crate::env::classic::CleanPreset::Swftool)]
    pub clean: crate::env::classic::CleanPreset,
    /// Classic: cut runs that exceed their estimate at the estimate.
    #[arg(long)]
    pub kill_at_estimate: bool,
    /// Classic: the preemption marks of catalina-preempt.
    #[command(flatten)]
    pub preempt: super::replay_classic::PreemptArgs,
    /// Classic: tau of the bounded slowdown, s.
    #[arg(long, default_value_t = crate::metrics::formulas::DEFAULT_TAU)]
    pub tau: f64,
    /// Skip lines that do not parse (counted and reported) instead of stopping.
    #[arg(long)]
    pub lenient: bool,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the schedule invariant check after each run.
    #[arg(long)]
    pub no_check: bool,
}

/// Resolves the heuristic list (`all` expands to every name).
///
/// # Errors
/// An unknown name, with the list of valid ones.
pub fn resolve_heuristics(
    names: &[String],
) -> anyhow::Result<Vec<&'static parallel::HeuristicInfo>> {
    let mut out: Vec<&'static parallel::HeuristicInfo> = Vec::new();
    for n in names {
        if n.eq_ignore_ascii_case("all") {
            out.extend(parallel::HEURISTICS.iter());
        } else {
            out.push(parallel::heuristic(n.trim())?);
        }
    }
    out.dedup_by_key(|h| h.name);
    Ok(out)
}

/// Picks the days of a replay.
///
/// # Errors
/// A day index out of range or a date that is not a candidate day.
pub fn pick_days(
    w: &Workload,
    day: Option<&str>,
    days: Option<usize>,
) -> anyhow::Result<Vec<DayWindow>> {
    if w.candidates.is_empty() {
        bail!(
            "{}: no complete day with a 4-hour warm-up in this log",
            w.name
        );
    }
    if let Some(n) = days {
        if n == 0 {
            bail!("--days must be at least 1");
        }
        return Ok(w.select(n));
    }
    let standard = w.select(STANDARD_DAYS);
    match day {
        None => Ok(vec![standard[DEFAULT_DAY.min(standard.len() - 1)].clone()]),
        Some(d) => {
            if let Ok(i) = d.parse::<usize>() {
                standard.get(i).cloned().map(|d| vec![d]).with_context(|| {
                    format!(
                        "--day {i}: this log has {} standard days (0..{})",
                        standard.len(),
                        standard.len() - 1
                    )
                })
            } else {
                w.day_by_date(d).map(|d| vec![d]).with_context(|| {
                    format!(
                        "--day {d}: not a usable day of {} (usable days run {} .. {}; a day needs 4 h of log before it and log after it)",
                        w.name,
                        w.candidates[0].date,
                        w.candidates[w.candidates.len() - 1].date
                    )
                })
            }
        }
    }
}

/// One finished run.
pub struct Replayed {
    /// Index of its scenario.
    pub scenario: usize,
    /// The run.
    pub run: RunResult,
    /// Its summary.
    pub summary: RunSummary,
}

/// Runs `swftool replay`.
///
/// # Errors
/// Unknown log or heuristic, unreadable log, bad day, invariant violations,
/// unwritable output.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    if args.env == Env::Classic {
        return super::replay_classic::run(args);
    }
    let out_dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("notebooks-out/replay"));
    let heuristics = resolve_heuristics(&args.heuristic)?;
    let path = catalog::resolve(&args.log)?;
    let opts = ReadOptions {
        lenient: args.lenient,
    };
    let log = crate::swf::read_log(&path, &opts)?;
    if log.skipped.total() > 0 {
        eprintln!("{}: {}", log.name, log.skipped);
    }
    let w = Workload::from_log(&log);
    let days = pick_days(&w, args.day.as_deref(), args.days)?;
    let params = ScenarioParams {
        oversubscription: args.variant.oversubscription,
        correlation: args.variant.correlation,
        heterogeneity: args.variant.heterogeneity,
        cores_base: args.cores_base,
    };
    let scenarios: Vec<Scenario> = days
        .iter()
        .map(|d| Scenario::build(&w, d, params, args.seed))
        .collect::<Result<_, _>>()?;

    println!(
        "log      {} ({} jobs; {} usable in environment A, {} filtered out)",
        w.name,
        log.jobs.len(),
        w.jobs.len(),
        w.filter.input - w.filter.kept
    );
    println!(
        "setup    seed {}, oversubscription {}, correlation {}, heterogeneity {}, system base {:.0} cores",
        args.seed,
        args.variant.oversubscription,
        args.variant.correlation,
        args.variant.heterogeneity,
        params.cores_base.unwrap_or(w.max_procs)
    );
    if scenarios.len() == 1 {
        let s = &scenarios[0];
        println!(
            "day      {} ({} tasks counted, {} in the 4 h warm-up)",
            s.day.date,
            s.counted(),
            s.tasks.len() - s.counted()
        );
        println!(
            "system   {} clusters, {} cores: {}",
            s.system.clusters.len(),
            s.system.total_cores(),
            s.system
                .clusters
                .iter()
                .map(|c| format!("{} nodes x {} cores", c.nodes, c.cores_per_node))
                .collect::<Vec<_>>()
                .join(", ")
        );
    } else {
        println!(
            "days     {} days from {} to {}",
            scenarios.len(),
            scenarios[0].day.date,
            scenarios[scenarios.len() - 1].day.date
        );
    }
    println!();

    let jobs: Vec<(usize, &'static parallel::HeuristicInfo)> = (0..scenarios.len())
        .flat_map(|s| heuristics.iter().map(move |h| (s, *h)))
        .collect();
    let pb = if jobs.len() > 1 {
        let pb = ProgressBar::new(jobs.len() as u64);
        pb.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} runs  {elapsed_precise} elapsed, {eta} left",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    } else {
        ProgressBar::hidden()
    };
    let failures = AtomicUsize::new(0);
    let check = !args.no_check;
    let work = || -> Vec<Replayed> {
        jobs.par_iter()
            .map(|&(si, h)| {
                let sc = &scenarios[si];
                let mut heuristic = (h.build)(sc);
                let run = simulate(sc, heuristic.as_mut());
                if check {
                    let v = invariants::check(sc, &run);
                    if !v.is_empty() {
                        failures.fetch_add(1, Ordering::Relaxed);
                        pb.suspend(|| {
                            eprintln!("invariant violations in {} on {}:", h.name, sc.day.date);
                            for x in v.iter().take(10) {
                                eprintln!("  {x}");
                            }
                        });
                    }
                }
                let summary = summarize(&w.name, h.name, args.seed, sc, &run);
                pb.inc(1);
                Replayed {
                    scenario: si,
                    run,
                    summary,
                }
            })
            .collect()
    };
    let results = super::experiment::with_threads(args.threads, || Ok(work()))?;
    pb.finish_and_clear();
    let summaries: Vec<RunSummary> = results.iter().map(|r| r.summary.clone()).collect();
    print!("{}", summary_table(&summaries));
    if failures.load(Ordering::Relaxed) > 0 {
        bail!(
            "{} run(s) broke schedule invariants (see above)",
            failures.load(Ordering::Relaxed)
        );
    }

    std::fs::create_dir_all(&out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let records: Vec<RunRecord<'_>> = results
        .iter()
        .map(|r| RunRecord {
            scenario: &scenarios[r.scenario],
            run: &r.run,
            summary: &r.summary,
        })
        .collect();
    tables::write_both(&mut tables::jobs_frame(&records)?, &out_dir, "jobs")?;
    tables::write_both(&mut tables::summary_frame(&summaries)?, &out_dir, "summary")?;
    tables::write_both(&mut tables::timing_frame(&summaries)?, &out_dir, "timing")?;
    let manifest = serde_json::json!({
        "swftool_version": env!("CARGO_PKG_VERSION"),
        "command": "replay",
        "log": path.display().to_string(),
        "heuristics": heuristics.iter().map(|h| h.name).collect::<Vec<_>>(),
        "days": scenarios.iter().map(|s| &s.day.date).collect::<Vec<_>>(),
        "seed": args.seed,
        "scenario_seeds": scenarios.iter().map(|s| s.seed).collect::<Vec<_>>(),
        "params": params,
        "filter": w.filter.to_string(),
    });
    let mpath = out_dir.join("manifest.json");
    std::fs::write(&mpath, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("cannot write {}", mpath.display()))?;
    println!(
        "\nwrote {}/{{jobs,summary,timing}}.{{csv,parquet}} and manifest.json{}",
        out_dir.display(),
        if check {
            "; schedule invariants hold for every run"
        } else {
            ""
        }
    );
    Ok(())
}

/// The summary table printed by `swftool replay`: one row per run, plus a
/// mean row per heuristic when there are several days.
pub fn summary_table(s: &[RunSummary]) -> String {
    let mut out = format!(
        "{:<10} {:<12} {:>12} {:>10} {:>8} {:>7} {:>9} {:>7} {:>10} {:>7} {:>13} {:>12}\n",
        "date",
        "heuristic",
        "value",
        "bound",
        "% bound",
        "counted",
        "completed",
        "dropped",
        "unfinished",
        "events",
        "mean ms/event",
        "max ms/event"
    );
    let row = |out: &mut String, date: &str, x: &RunSummary| {
        out.push_str(&format!(
            "{:<10} {:<12} {:>12.1} {:>10.1} {:>8.2} {:>7} {:>9} {:>7} {:>10} {:>7} {:>13.3} {:>12.3}\n",
            date,
            x.heuristic,
            x.value_earned,
            x.value_bound,
            x.percent_of_bound,
            x.tasks_counted,
            x.tasks_completed,
            x.tasks_dropped,
            x.tasks_unfinished,
            x.mapping_events,
            x.heuristic_seconds_mean * 1e3,
            x.heuristic_seconds_max * 1e3
        ));
    };
    for x in s {
        row(&mut out, &x.date, x);
    }
    let mut names: Vec<&str> = s.iter().map(|x| x.heuristic.as_str()).collect();
    names.dedup();
    let ndays = s
        .iter()
        .map(|x| &x.date)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    if ndays > 1 {
        out.push('\n');
        let mut seen = std::collections::BTreeSet::new();
        for x in s {
            if !seen.insert(x.heuristic.clone()) {
                continue;
            }
            let runs: Vec<&RunSummary> = s.iter().filter(|y| y.heuristic == x.heuristic).collect();
            let k = runs.len() as f64;
            let mean = |f: fn(&RunSummary) -> f64| runs.iter().map(|r| f(r)).sum::<f64>() / k;
            let sum = |f: fn(&RunSummary) -> usize| runs.iter().map(|r| f(r)).sum::<usize>();
            let events = sum(|r| r.mapping_events);
            let total_secs: f64 = runs
                .iter()
                .map(|r| r.heuristic_seconds_mean * r.mapping_events as f64)
                .sum();
            let agg = RunSummary {
                heuristic: x.heuristic.clone(),
                value_earned: mean(|r| r.value_earned),
                value_bound: mean(|r| r.value_bound),
                percent_of_bound: mean(|r| r.percent_of_bound),
                tasks_counted: sum(|r| r.tasks_counted),
                tasks_completed: sum(|r| r.tasks_completed),
                tasks_dropped: sum(|r| r.tasks_dropped),
                tasks_unfinished: sum(|r| r.tasks_unfinished),
                mapping_events: events,
                heuristic_seconds_mean: if events > 0 {
                    total_secs / events as f64
                } else {
                    0.0
                },
                heuristic_seconds_max: runs
                    .iter()
                    .map(|r| r.heuristic_seconds_max)
                    .fold(0.0, f64::max),
                ..x.clone()
            };
            row(&mut out, &format!("mean/{ndays}d"), &agg);
        }
        out.push_str("(mean rows: value, bound and % bound are means over days; counts and events are totals)\n");
    }
    out
}
