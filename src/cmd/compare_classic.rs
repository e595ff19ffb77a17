//! `swftool compare LOG… --env classic --heuristics fcfs,easy,…`: classic
//! replay (environment D) of whole logs, each on its own machine, with the
//! metrics side by side: a table (rows scheduler, columns per log), the
//! `summary` table (CSV, Parquet), `compare.md` and a figure of the mean
//! bounded slowdown (x = log, one bar per scheduler, log scale).

use std::path::PathBuf;

use anyhow::{Context, bail};
use rayon::prelude::*;

use super::compare::CompareArgs;
use super::replay_classic::{depth_label, machine_of, resolve_schedulers, summary_frame};
use crate::catalog;
use crate::env::classic;
use crate::env::classic::clean::CleanOptions;
use crate::metrics::classic::{ClassicSummary, RunLabel, summarize};
use crate::metrics::tables::write_both;
use crate::report::{self, Bar, BarChart, BarSeries, Figure};
use crate::sim::capacity;
use crate::swf::ReadOptions;

/// Runs `swftool compare --env classic`.
///
/// # Errors
/// Unknown log or scheduler, unreadable log, invariant violations,
/// unwritable output.
pub fn run(args: &CompareArgs) -> anyhow::Result<()> {
    let policies = resolve_schedulers(&args.heuristics, None, args.preempt.rule()?)?;
    let opts = CleanOptions {
        preset: args.clean,
        exact_estimates: args.exact_estimates,
        kill_at_estimate: false,
    };
    let estimates = if args.exact_estimates {
        "exact"
    } else {
        "user"
    };
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
                let machine = machine_of(&log, false, None)?;
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
                                clean: args.clean.to_string(),
                            },
                            &jobs,
                            &machine,
                            &run,
                            crate::metrics::formulas::DEFAULT_TAU,
                        ))
                    })
                    .collect()
            })
            .collect()
    };
    let per_log = match args.threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .context("cannot start the thread pool")?
            .install(work)?,
        None => work()?,
    };

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
        "classic replay, {estimates} estimates, {} cleaning, bounded slowdown tau 10 s\n",
        args.clean
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
        y_label: "mean bounded slowdown (tau = 10 s, log scale)".into(),
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
        &Figure::default(),
        &out.join("figures").join("compare-bsld"),
    )?;
    let manifest = serde_json::json!({
        "swftool_version": env!("CARGO_PKG_VERSION"),
        "command": "compare --env classic",
        "logs": args.logs,
        "schedulers": policies.iter().map(|p| p.0).collect::<Vec<_>>(),
        "estimates": estimates,
        "clean": args.clean.to_string(),
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
