//! `swftool replay LOG --env classic --heuristic NAME`: the whole log on its
//! own machine with FCFS or backfilling (environment D, SPEC §3.D). Prints
//! the cleaning report and a metrics table; writes the job-level and summary
//! tables and the cleaning report (CSV and Parquet).

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail};
use polars::prelude::*;
use rayon::prelude::*;

use super::replay::ReplayArgs;
use crate::catalog;
use crate::env::classic::catalina::Preemption;
use crate::env::classic::clean::CleanOptions;
use crate::env::classic::{self, ClassicJob, ClassicRun, Machine, Policy, Unit};
use crate::metrics::classic::{ClassicSummary, RunLabel, job_metrics, summarize};
use crate::metrics::tables::write_both;
use crate::sim::capacity;
use crate::swf::{ReadOptions, SwfLog};

/// Parses `--reservation-depth`: a number or `all`.
///
/// # Errors
/// Anything else.
pub fn parse_depth(s: &str) -> Result<usize, String> {
    if s.eq_ignore_ascii_case("all") {
        Ok(usize::MAX)
    } else {
        s.parse::<usize>()
            .map_err(|_| format!("reservation depth must be a number or `all`, not `{s}`"))
    }
}

/// The reservation depth of `p` as shown in tables: `-` (FCFS), a number or `all`.
pub fn depth_label(p: Policy) -> String {
    match p {
        Policy::Fcfs => "-".into(),
        Policy::Backfill { depth: usize::MAX } => "all".into(),
        Policy::Backfill { depth } => depth.to_string(),
        Policy::Catalina { .. } => "all".into(),
    }
}

/// The log's own machine: MaxProcs processors (MaxNodes, then the largest
/// job, when absent), or MaxNodes whole nodes of `procs_per_node`
/// processors (default round(MaxProcs / MaxNodes)).
///
/// # Errors
/// `--whole-nodes` on a log without MaxNodes.
pub fn machine_of(
    log: &SwfLog,
    whole_nodes: bool,
    procs_per_node: Option<u32>,
) -> anyhow::Result<Machine> {
    let h = &log.header;
    let procs = log.machine_processors();
    if !whole_nodes {
        return Ok(Machine {
            capacity: procs.min(i64::from(u32::MAX)) as u32,
            unit: Unit::Processors,
        });
    }
    let Some(nodes) = h.max_nodes().filter(|&n| n > 0) else {
        bail!("{}: --whole-nodes needs MaxNodes in the header", log.name);
    };
    let ppn =
        procs_per_node.unwrap_or_else(|| ((procs as f64 / nodes as f64).round() as u32).max(1));
    Ok(Machine {
        capacity: nodes.min(i64::from(u32::MAX)) as u32,
        unit: Unit::Nodes {
            processors_per_node: ppn,
        },
    })
}

/// The marks and guard of `catalina-preempt` (SPEC §3.D; thresholds in
/// allocation units: nodes with `--whole-nodes`, else processors).
#[derive(Debug, Clone, clap::Args)]
pub struct PreemptArgs {
    /// Classic, catalina-preempt: jobs with more units than this are marked preempting.
    #[arg(long, default_value_t = Preemption::MARGO2008.preempting_above)]
    pub preempting_above: u32,
    /// Classic, catalina-preempt: jobs with at most this many units are marked preemptible.
    #[arg(long, default_value_t = Preemption::MARGO2008.preemptible_up_to)]
    pub preemptible_up_to: u32,
    /// Classic, catalina-preempt: PREEMPT_MIN_RUNTIME, s; a job predicted to have less left is not preempted.
    #[arg(long, default_value_t = Preemption::DEFAULT_MIN_RUNTIME)]
    pub preempt_min_runtime: f64,
    /// Classic, catalina-preempt: factor on the priority of preempting jobs.
    #[arg(long, default_value_t = Preemption::MARGO2008.preemptor_priority_factor)]
    pub preemptor_priority_factor: f64,
}

impl PreemptArgs {
    /// The preemption rule these flags give.
    ///
    /// # Errors
    /// A negative or non-finite PREEMPT_MIN_RUNTIME, or a factor that is not
    /// a positive finite number.
    pub fn rule(&self) -> anyhow::Result<Preemption> {
        if !(self.preempt_min_runtime.is_finite() && self.preempt_min_runtime >= 0.0) {
            bail!(
                "--preempt-min-runtime must be a number of seconds >= 0, not {}",
                self.preempt_min_runtime
            );
        }
        if !(self.preemptor_priority_factor.is_finite() && self.preemptor_priority_factor > 0.0) {
            bail!(
                "--preemptor-priority-factor must be a positive number, not {}",
                self.preemptor_priority_factor
            );
        }
        Ok(Preemption {
            preempting_above: self.preempting_above,
            preemptible_up_to: self.preemptible_up_to,
            min_runtime: self.preempt_min_runtime,
            preemptor_priority_factor: self.preemptor_priority_factor,
        })
    }
}

/// Resolves classic scheduler names (`all` = every one but `backfill`);
/// `depth` overrides the reservation depth of the backfilling ones and
/// `preemption` the rule of the preempting ones.
///
/// # Errors
/// An unknown name, with the list of valid ones.
pub fn resolve_schedulers(
    names: &[String],
    depth: Option<usize>,
    preemption: Preemption,
) -> anyhow::Result<Vec<(&'static str, Policy)>> {
    let mut policies = Vec::new();
    for name in names {
        if name.eq_ignore_ascii_case("all") {
            for s in classic::SCHEDULERS.iter().filter(|s| s.name != "backfill") {
                policies.push((s.name, with_rule(s.policy, preemption)));
            }
            continue;
        }
        let s = classic::scheduler(name.trim())?;
        let policy = match (s.policy, depth) {
            (Policy::Backfill { .. }, Some(d)) => Policy::Backfill { depth: d },
            (p, _) => p,
        };
        policies.push((s.name, with_rule(policy, preemption)));
    }
    Ok(policies)
}

fn with_rule(policy: Policy, rule: Preemption) -> Policy {
    match policy {
        Policy::Catalina {
            weights,
            preemption: Some(_),
        } => Policy::Catalina {
            weights,
            preemption: Some(rule),
        },
        p => p,
    }
}

/// Runs the classic replay of `args` (called by `swftool replay` when
/// `--env classic`).
///
/// # Errors
/// Unknown log or scheduler, unreadable log, invariant violations,
/// unwritable output.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    let policies = resolve_schedulers(
        &args.heuristic,
        args.reservation_depth,
        args.preempt.rule()?,
    )?;
    let path = catalog::resolve(&args.log)?;
    let log = crate::swf::read_log(
        &path,
        &ReadOptions {
            lenient: args.lenient,
        },
    )?;
    if log.skipped.total() > 0 {
        eprintln!("{}: {}", log.name, log.skipped);
    }
    let machine = machine_of(&log, args.whole_nodes, args.procs_per_node)?;
    let opts = CleanOptions {
        preset: args.clean,
        exact_estimates: args.exact_estimates,
        kill_at_estimate: args.kill_at_estimate,
    };
    let (jobs, report) = classic::clean(&log.jobs, &machine, &opts);
    let unit = match machine.unit {
        Unit::Processors => "processors".to_string(),
        Unit::Nodes {
            processors_per_node,
        } => format!("nodes of {processors_per_node} processors"),
    };
    println!("log      {} ({} jobs)", log.name, log.jobs.len());
    println!("machine  {} {unit}", machine.capacity);
    println!(
        "plan     {} estimates, equal-time rule: ends free their units before starts at the same second",
        if args.exact_estimates {
            "exact"
        } else {
            "user"
        }
    );
    print!("{report}");
    println!();

    let estimates = if args.exact_estimates {
        "exact"
    } else {
        "user"
    };
    let runs: Vec<(ClassicRun, f64)> = {
        let go = || {
            policies
                .par_iter()
                .map(|&(_, p)| {
                    let t = Instant::now();
                    let r = classic::simulate(&jobs, machine.capacity, p);
                    (r, t.elapsed().as_secs_f64())
                })
                .collect::<Vec<_>>()
        };
        super::experiment::with_threads(args.threads, || Ok(go()))?
    };
    let mut summaries = Vec::new();
    for ((name, policy), (run, secs)) in policies.iter().zip(&runs) {
        if !args.no_check {
            let v = capacity::check(&jobs, run, machine.capacity);
            if !v.is_empty() {
                for x in v.iter().take(10) {
                    eprintln!("  {x}");
                }
                bail!("{name}: the schedule breaks {} invariant(s)", v.len());
            }
        }
        let s = summarize(
            RunLabel {
                log: &log.name,
                scheduler: name,
                depth: depth_label(*policy),
                estimates,
                clean: args.clean.to_string(),
            },
            &jobs,
            &machine,
            run,
            args.tau,
        );
        summaries.push((s, *secs));
    }
    print!("{}", classic_table(&summaries));

    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("notebooks-out/replay-classic").to_path_buf());
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut jf = jobs_frame(&jobs, &policies, &runs, args.tau)?;
    write_both(&mut jf, &out, "jobs")?;
    let only: Vec<ClassicSummary> = summaries.iter().map(|s| s.0.clone()).collect();
    write_both(&mut summary_frame(&only)?, &out, "summary")?;
    write_both(&mut clean_frame(&report)?, &out, "clean")?;
    write_both(
        &mut suspensions_frame(&jobs, &policies, &runs)?,
        &out,
        "suspensions",
    )?;
    let manifest = serde_json::json!({
        "swftool_version": env!("CARGO_PKG_VERSION"),
        "command": "replay --env classic",
        "log": path.display().to_string(),
        "machine": machine,
        "schedulers": policies.iter().map(|(n, p)| format!("{n} (depth {})", depth_label(*p))).collect::<Vec<_>>(),
        "estimates": estimates,
        "preemption": policies.iter().find_map(|(_, p)| match p {
            Policy::Catalina { preemption: Some(r), .. } => Some(*r),
            _ => None,
        }),
        "clean": args.clean.to_string(),
        "kill_at_estimate": args.kill_at_estimate,
        "bsld_tau_s": args.tau,
        "clean_report": report.to_string(),
    });
    let mpath = out.join("manifest.json");
    std::fs::write(&mpath, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("cannot write {}", mpath.display()))?;
    println!(
        "\nwrote {}/{{jobs,summary,clean,suspensions}}.{{csv,parquet}} and manifest.json{}",
        out.display(),
        if args.no_check {
            ""
        } else {
            "; capacity invariants hold for every run"
        }
    );
    Ok(())
}

/// The table printed by a classic replay (one row per scheduler).
pub fn classic_table(s: &[(ClassicSummary, f64)]) -> String {
    let mut out = format!(
        "{:<16} {:>5} {:>8} {:>7} {:>8} {:>11} {:>11} {:>9} {:>9} {:>8} {:>8} {:>8} {:>10}\n",
        "scheduler",
        "depth",
        "jobs",
        "util %",
        "span d",
        "wait s",
        "wait nsw s",
        "bsld",
        "max bsld",
        "xfactor",
        "xf nsw",
        "wall s",
        "jobs/s"
    );
    for (x, secs) in s {
        out.push_str(&format!(
            "{:<16} {:>5} {:>8} {:>7.2} {:>8.2} {:>11.1} {:>11.1} {:>9.2} {:>9.1} {:>8.2} {:>8.2} {:>8.3} {:>10.0}\n",
            x.scheduler,
            x.depth,
            x.jobs,
            100.0 * x.utilization,
            x.makespan_s / 86_400.0,
            x.wait_mean_s,
            x.wait_nsw_mean_s,
            x.bsld_mean,
            x.bsld_max,
            x.xfactor_mean,
            x.xfactor_nsw_mean,
            secs,
            x.jobs as f64 / secs.max(1e-9)
        ));
    }
    for (x, _) in s
        .iter()
        .filter(|(x, _)| x.scheduler.starts_with("catalina"))
    {
        out.push_str(&format!(
            "{:<16} priority-weighted: wait {:.1} s, xfactor {:.2}, mean priority·xfactor {:.1}, utilization {:.3} (work weighted by priority / mean priority; exceeds 1 when big jobs rank high)\n",
            x.scheduler,
            x.wait_pw_mean_s,
            x.xfactor_pw_mean,
            x.pw_xfactor_mean,
            x.pw_utilization
        ));
    }
    for (x, _) in s.iter().filter(|(x, _)| x.suspensions > 0) {
        out.push_str(&format!(
            "{:<16} {} suspensions of {} jobs, each lasting {:.1} s on average\n",
            x.scheduler, x.suspensions, x.jobs_suspended, x.suspended_mean_s
        ));
    }
    out.push_str(&format!(
        "(bsld: bounded slowdown, tau = {} s; nsw: node-second-weighted; wall s: simulation only)\n",
        s.first().map_or(10.0, |x| x.0.bsld_tau_s)
    ));
    out
}

/// The classic `jobs` table: one row per (scheduler, job) with submit,
/// start, end, run and estimate (s), processors, units, the per-job metrics,
/// the priority at start, seconds suspended and the number of suspensions.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn jobs_frame(
    jobs: &[ClassicJob],
    policies: &[(&'static str, Policy)],
    runs: &[(ClassicRun, f64)],
    tau: f64,
) -> PolarsResult<DataFrame> {
    let mut sched = Vec::new();
    let mut job = Vec::new();
    let mut submit = Vec::new();
    let mut start = Vec::new();
    let mut end = Vec::new();
    let mut run = Vec::new();
    let mut est = Vec::new();
    let mut procs = Vec::new();
    let mut size = Vec::new();
    let mut wait = Vec::new();
    let mut resp = Vec::new();
    let mut sld = Vec::new();
    let mut bsld = Vec::new();
    let mut xf = Vec::new();
    let mut prio = Vec::new();
    let mut susp_s = Vec::new();
    let mut susp_n = Vec::new();
    for ((name, _), (r, _)) in policies.iter().zip(runs) {
        let mut count = vec![0u32; jobs.len()];
        for x in &r.suspensions {
            count[x.job] += 1;
        }
        let m = job_metrics(jobs, r, tau);
        for (k, (j, o)) in jobs.iter().zip(&r.outcomes).enumerate() {
            sched.push(name.to_string());
            job.push(j.job_number);
            submit.push(j.submit);
            start.push(o.start);
            end.push(o.end);
            run.push(j.run);
            est.push(j.estimate);
            procs.push(j.processors);
            size.push(j.size);
            wait.push(m.wait[k]);
            resp.push(m.response[k]);
            sld.push(m.slowdown[k]);
            bsld.push(m.bsld[k]);
            xf.push(m.xfactor[k]);
            prio.push(r.priority[k]);
            susp_s.push(o.suspended);
            susp_n.push(count[k]);
        }
    }
    DataFrame::new_infer_height(vec![
        Column::new("scheduler".into(), sched),
        Column::new("job_number".into(), job),
        Column::new("submit_s".into(), submit),
        Column::new("start_s".into(), start),
        Column::new("end_s".into(), end),
        Column::new("run_s".into(), run),
        Column::new("estimate_s".into(), est),
        Column::new("processors".into(), procs),
        Column::new("units".into(), size),
        Column::new("wait_s".into(), wait),
        Column::new("response_s".into(), resp),
        Column::new("slowdown".into(), sld),
        Column::new("bounded_slowdown".into(), bsld),
        Column::new("xfactor".into(), xf),
        Column::new("priority".into(), prio),
        Column::new("suspended_s".into(), susp_s),
        Column::new("suspensions".into(), susp_n),
    ])
}

/// The `suspensions` table: every suspension of every run — scheduler,
/// suspended job, preemptor, when (s), its resume reservation (s) and when
/// it resumed (s).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn suspensions_frame(
    jobs: &[ClassicJob],
    policies: &[(&'static str, Policy)],
    runs: &[(ClassicRun, f64)],
) -> PolarsResult<DataFrame> {
    let rows: Vec<(&str, &classic::Suspension)> = policies
        .iter()
        .zip(runs)
        .flat_map(|((name, _), (r, _))| r.suspensions.iter().map(move |x| (*name, x)))
        .collect();
    let col =
        |f: &dyn Fn(&classic::Suspension) -> f64| rows.iter().map(|r| f(r.1)).collect::<Vec<_>>();
    DataFrame::new_infer_height(vec![
        Column::new(
            "scheduler".into(),
            rows.iter().map(|r| r.0.to_string()).collect::<Vec<_>>(),
        ),
        Column::new(
            "job_number".into(),
            rows.iter()
                .map(|r| jobs[r.1.job].job_number)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "preemptor_job_number".into(),
            rows.iter()
                .map(|r| jobs[r.1.preemptor].job_number)
                .collect::<Vec<_>>(),
        ),
        Column::new("suspended_at_s".into(), col(&|x| x.at)),
        Column::new("reservation_s".into(), col(&|x| x.reservation)),
        Column::new("resumed_at_s".into(), col(&|x| x.resumed)),
    ])
}

/// The classic `summary` table: one row per (log, scheduler).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn summary_frame(s: &[ClassicSummary]) -> PolarsResult<DataFrame> {
    let strs =
        |f: fn(&ClassicSummary) -> &str| s.iter().map(|x| f(x).to_string()).collect::<Vec<_>>();
    let f64s = |f: fn(&ClassicSummary) -> f64| s.iter().map(f).collect::<Vec<_>>();
    DataFrame::new_infer_height(vec![
        Column::new("log".into(), strs(|x| &x.log)),
        Column::new("scheduler".into(), strs(|x| &x.scheduler)),
        Column::new("depth".into(), strs(|x| &x.depth)),
        Column::new("estimates".into(), strs(|x| &x.estimates)),
        Column::new("clean".into(), strs(|x| &x.clean)),
        Column::new(
            "capacity".into(),
            s.iter().map(|x| x.capacity).collect::<Vec<_>>(),
        ),
        Column::new("unit".into(), strs(|x| &x.unit)),
        Column::new(
            "jobs".into(),
            s.iter().map(|x| x.jobs as u64).collect::<Vec<_>>(),
        ),
        Column::new(
            "passes".into(),
            s.iter().map(|x| x.passes).collect::<Vec<_>>(),
        ),
        Column::new("makespan_s".into(), f64s(|x| x.makespan_s)),
        Column::new("utilization".into(), f64s(|x| x.utilization)),
        Column::new("wait_mean_s".into(), f64s(|x| x.wait_mean_s)),
        Column::new("wait_nsw_mean_s".into(), f64s(|x| x.wait_nsw_mean_s)),
        Column::new("wait_max_s".into(), f64s(|x| x.wait_max_s)),
        Column::new("response_mean_s".into(), f64s(|x| x.response_mean_s)),
        Column::new("slowdown_mean".into(), f64s(|x| x.slowdown_mean)),
        Column::new("bsld_mean".into(), f64s(|x| x.bsld_mean)),
        Column::new("bsld_max".into(), f64s(|x| x.bsld_max)),
        Column::new("bsld_tau_s".into(), f64s(|x| x.bsld_tau_s)),
        Column::new("xfactor_mean".into(), f64s(|x| x.xfactor_mean)),
        Column::new("xfactor_nsw_mean".into(), f64s(|x| x.xfactor_nsw_mean)),
        Column::new("xfactor_max".into(), f64s(|x| x.xfactor_max)),
        Column::new("wait_pw_mean_s".into(), f64s(|x| x.wait_pw_mean_s)),
        Column::new("xfactor_pw_mean".into(), f64s(|x| x.xfactor_pw_mean)),
        Column::new("pw_xfactor_mean".into(), f64s(|x| x.pw_xfactor_mean)),
        Column::new("pw_utilization".into(), f64s(|x| x.pw_utilization)),
        Column::new(
            "suspensions".into(),
            s.iter().map(|x| x.suspensions as u64).collect::<Vec<_>>(),
        ),
        Column::new(
            "jobs_suspended".into(),
            s.iter()
                .map(|x| x.jobs_suspended as u64)
                .collect::<Vec<_>>(),
        ),
        Column::new("suspended_mean_s".into(), f64s(|x| x.suspended_mean_s)),
    ])
}

fn clean_frame(r: &classic::CleanReport) -> PolarsResult<DataFrame> {
    DataFrame::new_infer_height(vec![
        Column::new(
            "job_number".into(),
            r.actions.iter().map(|a| a.job_number).collect::<Vec<_>>(),
        ),
        Column::new(
            "action".into(),
            r.actions
                .iter()
                .map(|a| if a.dropped { "dropped" } else { "modified" })
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "reason".into(),
            r.actions.iter().map(|a| a.reason).collect::<Vec<_>>(),
        ),
        Column::new(
            "detail".into(),
            r.actions
                .iter()
                .map(|a| a.detail.clone())
                .collect::<Vec<_>>(),
        ),
    ])
}
