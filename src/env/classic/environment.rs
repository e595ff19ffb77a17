//! Environment D behind the [`Environment`] trait: the whole cleaned log on
//! its own machine as the one scenario, the classic schedulers, the
//! capacity checker, the run summary, the printed table, and the `jobs`,
//! `summary`, `clean` and `suspensions` tables.

use std::path::Path;

use polars::prelude::*;

use super::catalina::Preemption;
use super::params::{ClassicArgs, depth_label};
use super::summary::{ClassicSummary, RunLabel, summarize};
use super::tables::{clean_frame, jobs_frame, summary_frame, suspensions_frame};
use super::{ClassicJob, ClassicRun, CleanReport, Machine, Policy, SCHEDULERS, Unit};
use crate::env::{EnvError, EnvKind, Environment, Registry, Replayed};
use crate::metrics::tables::{TableError, write_both};
use crate::sim::capacity;
use crate::swf::SwfLog;

/// Environment D: classic trace replay on the log's own machine (FCFS,
/// backfilling, Catalina; docs/classic.md).
pub struct Classic;

/// The input of one classic run: cleaned jobs on a machine.
#[derive(Debug, Clone)]
pub struct ClassicScenario {
    /// The jobs, after cleaning.
    pub jobs: Vec<ClassicJob>,
    /// The machine.
    pub machine: Machine,
}

/// What a replay manifest records of environment D's setup.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ClassicDetails {
    /// The machine.
    pub machine: Machine,
    /// Each scheduler with its reservation depth.
    pub schedulers: Vec<String>,
    /// `user` or `exact`.
    pub estimates: &'static str,
    /// The preemption rule of `catalina-preempt`, when it ran.
    pub preemption: Option<Preemption>,
    /// The cleaning preset.
    pub clean: String,
    /// Whether runs longer than their estimate were cut.
    pub kill_at_estimate: bool,
    /// Tau of the bounded slowdown, s.
    pub bsld_tau_s: f64,
    /// What cleaning did.
    pub clean_report: String,
}

impl Environment for Classic {
    const KIND: EnvKind = EnvKind::Classic;
    type Policy = Policy;
    type Args = ClassicArgs;
    type Heuristic = (&'static str, Policy);
    type Prepared = CleanReport;
    type Scenario = ClassicScenario;
    type Run = ClassicRun;
    type Summary = ClassicSummary;
    type Details = ClassicDetails;

    fn registry() -> Registry<Policy> {
        SCHEDULERS
    }

    fn heuristics(names: &[String], args: &ClassicArgs) -> Result<Vec<Self::Heuristic>, EnvError> {
        Ok(args.policies(names)?)
    }

    fn heuristic_name(h: &Self::Heuristic) -> &'static str {
        h.0
    }

    fn scenarios(
        log: &SwfLog,
        args: &ClassicArgs,
    ) -> Result<(CleanReport, Vec<ClassicScenario>), EnvError> {
        let machine = args.machine(log)?;
        let (jobs, report) = super::clean(&log.jobs, &machine, &args.clean_options());
        Ok((report, vec![ClassicScenario { jobs, machine }]))
    }

    fn describe(
        log: &SwfLog,
        report: &CleanReport,
        scenarios: &[ClassicScenario],
        args: &ClassicArgs,
    ) -> String {
        let mut out = format!("log      {} ({} jobs)\n", log.name, log.jobs.len());
        if let Some(s) = scenarios.first() {
            let unit = match s.machine.unit {
                Unit::Processors => "processors".to_string(),
                Unit::Nodes {
                    processors_per_node,
                } => format!("nodes of {processors_per_node} processors"),
            };
            out.push_str(&format!("machine  {} {unit}\n", s.machine.capacity));
        }
        out.push_str(&format!(
            "plan     {} estimates, equal-time rule: ends free their units before starts at the same second\n",
            args.estimates()
        ));
        out.push_str(&report.to_string());
        out
    }

    fn scenario_name(_: &ClassicScenario) -> String {
        "the whole log".into()
    }

    fn simulate(s: &ClassicScenario, h: &Self::Heuristic) -> ClassicRun {
        super::simulate(&s.jobs, s.machine.capacity, h.1)
    }

    fn check(s: &ClassicScenario, run: &ClassicRun) -> Vec<String> {
        capacity::check(&s.jobs, run, s.machine.capacity)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn summarize(
        log: &SwfLog,
        _: &CleanReport,
        s: &ClassicScenario,
        h: &Self::Heuristic,
        run: &ClassicRun,
        args: &ClassicArgs,
    ) -> ClassicSummary {
        summarize(
            RunLabel {
                log: &log.name,
                scheduler: h.0,
                depth: depth_label(h.1),
                estimates: args.estimates(),
                clean: args.clean_preset().to_string(),
            },
            &s.jobs,
            &s.machine,
            run,
            args.tau(),
        )
    }

    fn table(runs: &[Replayed<'_, Self>], _: &ClassicArgs) -> String {
        let rows: Vec<(ClassicSummary, f64)> = runs
            .iter()
            .map(|r| (r.summary.clone(), r.seconds))
            .collect();
        classic_table(&rows)
    }

    fn write_tables(
        dir: &Path,
        report: &CleanReport,
        runs: &[Replayed<'_, Self>],
        args: &ClassicArgs,
    ) -> Result<Vec<&'static str>, TableError> {
        let frame = |name: &str, f: PolarsResult<DataFrame>| {
            f.map_err(|source| TableError::Write {
                path: dir.join(format!("{name}.csv")),
                source,
            })
        };
        let Some(first) = runs.first() else {
            return Ok(Vec::new());
        };
        let jobs = &first.scenario.jobs;
        let named: Vec<(&str, &ClassicRun)> =
            runs.iter().map(|r| (r.heuristic.0, &r.run)).collect();
        let summaries: Vec<ClassicSummary> = runs.iter().map(|r| r.summary.clone()).collect();
        write_both(
            &mut frame("jobs", jobs_frame(jobs, &named, args.tau()))?,
            dir,
            "jobs",
        )?;
        write_both(
            &mut frame("summary", summary_frame(&summaries))?,
            dir,
            "summary",
        )?;
        write_both(&mut frame("clean", clean_frame(report))?, dir, "clean")?;
        write_both(
            &mut frame("suspensions", suspensions_frame(jobs, &named))?,
            dir,
            "suspensions",
        )?;
        Ok(vec!["jobs", "summary", "clean", "suspensions"])
    }

    fn details(
        report: &CleanReport,
        scenarios: &[ClassicScenario],
        heuristics: &[Self::Heuristic],
        args: &ClassicArgs,
    ) -> ClassicDetails {
        ClassicDetails {
            machine: scenarios.first().map_or(
                Machine {
                    capacity: 0,
                    unit: Unit::Processors,
                },
                |s| s.machine,
            ),
            schedulers: heuristics
                .iter()
                .map(|(n, p)| format!("{n} (depth {})", depth_label(*p)))
                .collect(),
            estimates: args.estimates(),
            preemption: heuristics.iter().find_map(|(_, p)| match p {
                Policy::Catalina {
                    preemption: Some(r),
                    ..
                } => Some(*r),
                _ => None,
            }),
            clean: args.clean_preset().to_string(),
            kill_at_estimate: args.kill_at_estimate,
            bsld_tau_s: args.tau(),
            clean_report: report.to_string(),
        }
    }
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
