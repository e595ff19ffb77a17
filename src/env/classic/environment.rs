//! Environment D behind the [`Environment`] trait: the whole cleaned log on
//! its own machine as the one scenario, the classic schedulers, the
//! capacity checker, the run summary, the printed table, and the `jobs`,
//! `summary`, `clean` and `suspensions` tables.

use std::path::Path;

use super::check as capacity;
use super::clean::{CleanPreset, CleanReport};
use super::engine::machine::ClassicRun;
use super::params::{ClassicArgs, ClassicArgsError};
use super::summary::{ClassicSummary, RunLabel, summarize};
use super::tables::{clean_frame, jobs_frame, suspensions_frame};
use super::window::{WindowError, WindowRule, build_window, default_window_start, month_start};
use super::{ClassicJob, Machine, Policy, SCHEDULERS, Unit};
use crate::contract::{
    EnvError, Environment, Input, LogUse, Registry, Replayed, Scenarios, Setup, Simulated, Written,
};
use crate::metrics::columns::SummaryColumn;
use crate::metrics::tables::write_all;
use crate::model::calendar::LogClock;
use crate::swf::SwfLog;

/// Environment D: classic trace replay on the log's own machine (FCFS,
/// backfilling, Catalina; docs/classic.md).
pub struct Classic;

/// What a log gives its classic run: the log's name, the cleaning report,
/// the scenario, and the window it is when it is one.
#[derive(Debug, Clone)]
pub struct ClassicPrepared {
    /// The log's file name.
    pub log: String,
    /// What cleaning did to the whole log.
    pub report: CleanReport,
    /// The jobs and the machine.
    pub scenario: ClassicScenario,
    /// The window, when the scenario is one (`--window-jobs`).
    pub window: Option<WindowInfo>,
}

/// A window cut from the log ([`super::window`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct WindowInfo {
    /// Index of its first job among the cleaned jobs in submit order.
    pub start: usize,
    /// Jobs in the window as logged.
    pub jobs: usize,
    /// Jobs after it submitted into it.
    pub extra: usize,
    /// How the start was chosen.
    pub chosen: String,
    /// Jobs marked preempting among the window's own jobs.
    pub preempting_in_window: usize,
    /// Jobs marked preempting among all its jobs.
    pub preempting: usize,
    /// First and last submit of the window's own jobs, s.
    pub span: (f64, f64),
    /// Job number of its first job.
    pub first_job: i64,
    /// First and last submit of the window's own jobs as dates on the
    /// log's clock.
    pub dates: (String, String),
}

/// Cleans `log` on the machine `args` give and cuts the scenario: the whole
/// cleaned log, or the window `args` ask for.
///
/// # Errors
/// Whole nodes on a log without MaxNodes; a window past the end of the log
/// or without a loaded default.
pub fn prepare(log: &SwfLog, args: &ClassicArgs) -> Result<ClassicPrepared, EnvError> {
    let machine = args.machine(log)?;
    let (mut jobs, report) = super::clean::clean(&log.jobs, &machine, &args.clean_options());
    if jobs.is_empty() {
        let what = if report.input == 0 {
            "the log holds no job".to_string()
        } else {
            let reasons: Vec<String> = report
                .counts()
                .iter()
                .filter(|((dropped, _), _)| *dropped)
                .map(|((_, reason), n)| format!("{n} for {reason}"))
                .collect();
            format!("all {} jobs dropped: {}", report.input, reasons.join(", "))
        };
        return Err(ClassicArgsError::NothingToReplay {
            log: log.name.clone(),
            preset: args.clean_preset().to_string(),
            what,
        }
        .into());
    }
    let mut window = None;
    if let Some(count) = args.window_jobs {
        let extra = args.extra_jobs.unwrap_or(0);
        let rule = args.preemption()?;
        jobs.sort_by(|a, b| {
            a.submit
                .total_cmp(&b.submit)
                .then(a.job_number.cmp(&b.job_number))
        });
        // What cleaning subtracted from the submit times (the batsim origin
        // shift), to read dates on the log's clock.
        let offset = jobs
            .first()
            .and_then(|j| {
                log.jobs
                    .iter()
                    .find(|r| r.job_number == j.job_number)
                    .map(|r| r.submit_time - j.submit)
            })
            .unwrap_or(0.0);
        let clock = LogClock::new(log.header.unix_start_time(), log.header.time_zone_string());
        let (start, chosen) = match (args.window_start, args.window_rule()) {
            (Some(s), _) => (s, "given (--window-start)".to_string()),
            (None, WindowRule::Month { year, month }) => {
                let s = month_start(&log.name, &jobs, &clock, offset, year, month)
                    .map_err(ClassicArgsError::from)?;
                (
                    s,
                    format!(
                        "{}: the first job submitted in {year:04}-{month:02} ({})",
                        args.window_rule(),
                        clock.zone_name
                    ),
                )
            }
            (None, WindowRule::MostWide) => {
                let s = default_window_start(&jobs, count, extra, machine.capacity, &rule)
                    .ok_or_else(|| WindowError::NoDefault {
                        log: log.name.clone(),
                        window: count,
                        extra,
                        jobs: jobs.len(),
                    })
                    .map_err(ClassicArgsError::from)?;
                (
                    s,
                    format!(
                        "most-wide: of the windows with an offered load >= 1, the one with the most jobs wider than {} units, earliest on ties",
                        rule.preempting_above
                    ),
                )
            }
        };
        jobs = build_window(&jobs, start, count, extra).map_err(ClassicArgsError::from)?;
        let date = |t: f64| {
            clock
                .format(t + offset)
                .unwrap_or_else(|| format!("{t} s (no UnixStartTime)"))
        };
        window = Some(WindowInfo {
            first_job: jobs[0].job_number,
            dates: (date(jobs[0].submit), date(jobs[count - 1].submit)),
            start,
            jobs: count,
            extra,
            chosen,
            preempting_in_window: jobs[..count]
                .iter()
                .filter(|j| rule.preempting(j.size))
                .count(),
            preempting: jobs.iter().filter(|j| rule.preempting(j.size)).count(),
            span: (jobs[0].submit, jobs[count - 1].submit),
        });
    }
    Ok(ClassicPrepared {
        log: log.name.clone(),
        report,
        scenario: ClassicScenario { jobs, machine },
        window,
    })
}

/// The input of one classic run: cleaned jobs on a machine.
#[derive(Debug, Clone)]
pub struct ClassicScenario {
    /// The jobs, after cleaning.
    pub jobs: Vec<ClassicJob>,
    /// The machine.
    pub machine: Machine,
}

impl crate::workload::seeds::Seeded for ClassicScenario {
    /// No random draw: a classic run replays the log as it is.
    fn scenario_seed(&self) -> Option<u64> {
        None
    }
}

impl Environment for Classic {
    const NAME: &'static str = "classic";
    const TITLE: &'static str =
        "Environment D (classic replay on the log's own machine; Margo et al.)";
    const LOG: LogUse = LogUse::Required;
    const SHARED: &'static [&'static str] = &[];
    // The columns that name a run and group the mean rows.
    const RUN_KEYS: &'static [&'static str] = &["log", "heuristic"];

    type Policy = Policy;
    const REGISTRY: Registry<Policy> = SCHEDULERS;
    type Heuristic = (&'static str, Policy);

    fn heuristics(names: &[String], args: &ClassicArgs) -> Result<Vec<Self::Heuristic>, EnvError> {
        Ok(args.policies(names)?)
    }

    type Args = ClassicArgs;

    type Prepared = ClassicPrepared;
    type Scenario = ClassicScenario;

    fn scenarios(input: Option<Input<'_>>, args: &ClassicArgs) -> Scenarios<Self> {
        let log = input.ok_or(EnvError::NoLog(Self::NAME))?.log;
        let p = prepare(log, args)?;
        let scenario = p.scenario.clone();
        Ok((p, vec![scenario]))
    }

    fn describe(r: &Setup<'_, Self>) -> String {
        let (input, p, scenarios, args) = (r.input, r.prepared, r.scenarios, r.args);
        let Some(Input { log, .. }) = input else {
            return String::new();
        };
        let mut out = format!(
            "log      {}{} ({} jobs)\n",
            log.name,
            crate::catalog::recognise(log)
                .map(|k| format!(", {k}"))
                .unwrap_or_default(),
            log.jobs.len()
        );
        if let Some(s) = scenarios.first() {
            let n = u64::from(s.machine.capacity);
            let machine = match s.machine.unit {
                Unit::Processors => crate::words::count(n, "processor", "processors"),
                Unit::Nodes {
                    processors_per_node,
                } => format!(
                    "{} of {}",
                    crate::words::count(n, "node", "nodes"),
                    crate::words::count(u64::from(processors_per_node), "processor", "processors")
                ),
            };
            out.push_str(&format!("machine  {machine}\n"));
        }
        out.push_str(&format!(
            "plan     {}, equal-time rule: ends free their units before starts at the same second\n",
            estimates_in_words(log, scenarios.first(), args)
        ));
        if let Some(w) = &p.window {
            out.push_str(&format!(
                "window   {} jobs from cleaned job {} (job {}, submitted {} to {}; {}), plus the next {} submitted into it\n",
                w.jobs, w.start, w.first_job, w.dates.0, w.dates.1, w.chosen, w.extra
            ));
        }
        out.push_str(&p.report.to_string());
        out
    }

    fn scenario_name(_: &ClassicScenario) -> String {
        "the whole log".into()
    }

    type Run = ClassicRun;

    fn simulate(s: &ClassicScenario, h: &Self::Heuristic) -> ClassicRun {
        super::engine::simulate(&s.jobs, s.machine.capacity, h.1)
    }

    fn check(s: &ClassicScenario, run: &ClassicRun) -> Vec<String> {
        capacity::check(&s.jobs, run, s.machine.capacity)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn record(r: Simulated<'_, Self>, resources: bool) -> crate::output::Record {
        let s = r.scenario;
        let policy = resources.then_some(r.heuristic.1);
        super::record::record(&s.jobs, s.machine.capacity, r.run, policy)
    }

    fn bsld_tau(args: &ClassicArgs) -> f64 {
        args.tau()
    }

    type Summary = ClassicSummary;

    fn summarize(r: Simulated<'_, Self>) -> ClassicSummary {
        let (s, h, args) = (r.scenario, r.heuristic, r.args);
        let label = RunLabel {
            log: &r.prepared.log,
            heuristic: h.0,
            policy: h.1,
            estimates: args.estimates(),
            clean: args.clean_preset().to_string(),
        };
        summarize(label, &s.jobs, &s.machine, r.run, args.tau())
    }

    fn summary_columns() -> Vec<SummaryColumn<ClassicSummary>> {
        super::tables::summary_columns()
    }

    fn table(runs: &[Replayed<'_, Self>], _: &ClassicArgs) -> String {
        let rows: Vec<(ClassicSummary, f64)> = runs
            .iter()
            .map(|r| (r.summary.clone(), r.seconds))
            .collect();
        classic_table(&rows)
    }

    fn write_tables(dir: &Path, r: &Setup<'_, Self>, runs: &[Replayed<'_, Self>]) -> Written {
        let (p, args) = (r.prepared, r.args);
        let Some(first) = runs.first() else {
            return Ok(Vec::new());
        };
        let jobs = &first.scenario.jobs;
        let named: Vec<(&str, &ClassicRun)> =
            runs.iter().map(|r| (r.heuristic.0, &r.run)).collect();
        write_all(
            dir,
            vec![
                ("jobs", jobs_frame(&p.log, jobs, &named, args.tau())),
                ("summary", Self::summary_table(runs)),
                ("clean", clean_frame(&p.report)),
                ("suspensions", suspensions_frame(&p.log, jobs, &named)),
            ],
        )
    }
}

/// What the schedulers plan with, in words: `exact estimates`, or `user
/// estimates` with how many of the replayed jobs have none in the log
/// (field 9 not positive) and what the cleaning preset used instead.
fn estimates_in_words(log: &SwfLog, s: Option<&ClassicScenario>, args: &ClassicArgs) -> String {
    if args.exact_estimates {
        return "exact estimates (the run times)".to_string();
    }
    let Some(s) = s else {
        return "user estimates".to_string();
    };
    let missing: std::collections::HashSet<i64> = log
        .jobs
        .iter()
        .filter(|r| r.requested_time.is_nan() || r.requested_time <= 0.0)
        .map(|r| r.job_number)
        .collect();
    let n = s
        .jobs
        .iter()
        .filter(|j| missing.contains(&j.job_number))
        .count();
    if n == 0 {
        return "user estimates".to_string();
    }
    let used = match args.clean_preset() {
        CleanPreset::Swftool | CleanPreset::Rlscheduler => "run time used",
        CleanPreset::Pyss => "max(run time, 1 s) used",
        CleanPreset::Batsim => "2 x run time used",
    };
    format!(
        "user estimates ({} of {} missing, {used})",
        thousands(n),
        thousands(s.jobs.len())
    )
}

/// `n` with thousands separators (10,000).
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The reservation depth as printed: `-` without backfilling (FCFS), a
/// number, or `all`.
pub fn depth_of(s: &ClassicSummary) -> String {
    match (s.backfilling, s.reservation_depth) {
        (false, _) => "-".into(),
        (true, Some(d)) => d.to_string(),
        (true, None) => "all".into(),
    }
}

/// The table printed by a classic replay (one row per heuristic).
pub fn classic_table(s: &[(ClassicSummary, f64)]) -> String {
    let mut out = format!(
        "{:<16} {:>5} {:>8} {:>7} {:>8} {:>11} {:>11} {:>9} {:>9} {:>8} {:>8} {:>8} {:>10}\n",
        "heuristic",
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
            x.heuristic,
            depth_of(x),
            x.jobs,
            100.0 * x.utilization,
            x.makespan_s / crate::units::SECONDS_PER_DAY,
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
        .filter(|(x, _)| x.heuristic.starts_with("catalina"))
    {
        out.push_str(&format!(
            "{:<16} priority-weighted: wait {:.1} s, xfactor {:.2}, mean priority·xfactor {:.1}, utilization {:.2} % (work weighted by priority / mean priority; above 100 % when big jobs rank high)\n",
            x.heuristic,
            x.wait_pw_mean_s,
            x.xfactor_pw_mean,
            x.priority_xfactor_mean,
            100.0 * x.pw_utilization
        ));
    }
    for (x, _) in s.iter().filter(|(x, _)| x.suspensions > 0) {
        out.push_str(&format!(
            "{:<16} {} suspensions of {} jobs, each lasting {:.1} s on average\n",
            x.heuristic, x.suspensions, x.jobs_suspended, x.suspended_mean_s
        ));
    }
    out.push_str(&format!(
        "(bsld: bounded slowdown, tau = {} s; nsw: node-second-weighted; wall s: simulation only)\n",
        s.first().map_or(10.0, |x| x.0.bsld_tau_s)
    ));
    out
}
