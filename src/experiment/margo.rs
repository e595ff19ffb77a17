//! The DataStar preemption study as a preset, `margo2008-datastar` (SPEC
//! §3.D; Margo, Yoshimoto, Kovatch and Andrews, SDSC, on the Catalina
//! scheduler of DataStar): a window of the SDSC-DS log replayed under
//! Catalina without and with suspension preemption, reported as three
//! tables — average queue wait, average expansion factor (each unweighted,
//! priority-weighted and node-second-weighted) and utilization.
//!
//! The workload: the log is cleaned with the swftool preset on DataStar's
//! batch nodes (whole nodes of 8 processors, MaxNodes = 184 of them; the 5
//! jobs wider than 184 nodes are dropped and reported), sorted by submit
//! time. A *window* is `window_jobs` (200) consecutive jobs as logged; the
//! `extra_jobs` (100) jobs that follow it in the log are then *submitted
//! into it*: their submit times are mapped linearly from their own span onto
//! the window's (first extra job at the window's first submit, last at the
//! window's last), which keeps their order and relative spacing and raises
//! the offered load of the window by half.
//!
//! The default window ([`default_window_start`]): of the windows whose
//! offered load is at least 1 (the window's and the extra jobs' node-seconds
//! exceed what the machine offers over the window's submit span, so jobs
//! must queue), the one with the most jobs marked preempting (wider than 64
//! nodes) among its `window_jobs`, the earliest on ties. Preemption only
//! acts when wide jobs wait for a busy machine; a quiet window, or one
//! without wide jobs, would show two nearly identical runs. On SDSC-DS this
//! is the window from cleaned job 538 (job number 643, March 2004): 25 wide
//! jobs, offered load 3.1 over 3.4 h. `--window-start` picks any other
//! (0-based index among the cleaned jobs in submit order).
//!
//! Without preemption: Catalina with the DataStar weights. With
//! preemption: the same, plus [`Preemption::MARGO2008`] — jobs wider than
//! 64 nodes preempt with doubled priority, all others are preemptible,
//! PREEMPT_MIN_RUNTIME = 1,800 s. The priority-weighted averages weight
//! each job by the priority it started with, so with preemption the
//! preempting jobs weigh double.

use anyhow::{Context, bail};

use crate::catalog;
use crate::env::classic::catalina::{CatalinaWeights, Preemption};
use crate::env::classic::clean::CleanOptions;
use crate::env::classic::summary::{ClassicSummary, RunLabel, summarize};
use crate::env::classic::{self, ClassicJob, ClassicRun, Machine, Policy, machine_of};
use crate::report::{Bar, BarChart, BarSeries};
use crate::sim::capacity;
use crate::swf::ReadOptions;

/// Name of the preset.
pub const NAME: &str = "margo2008-datastar";

/// Parameters of the study (defaults: the preset).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MargoConfig {
    /// Log (short name or path).
    pub log: String,
    /// Jobs in the window, as logged.
    pub window_jobs: usize,
    /// Jobs after the window submitted into it.
    pub extra_jobs: usize,
    /// First job of the window (0-based among the cleaned jobs in submit
    /// order); `None`: the window with the most preempting jobs.
    pub window_start: Option<usize>,
    /// Processors per node (DataStar's p655 batch nodes: 8).
    pub procs_per_node: u32,
    /// Catalina's weights.
    pub weights: CatalinaWeights,
    /// The preemption rule of the "with preemption" run.
    pub preemption: Preemption,
    /// Plan with the true run times instead of the user estimates.
    pub exact_estimates: bool,
    /// τ of the bounded slowdown, s.
    pub tau: f64,
}

impl Default for MargoConfig {
    fn default() -> Self {
        MargoConfig {
            log: "datastar".into(),
            window_jobs: 200,
            extra_jobs: 100,
            window_start: None,
            procs_per_node: 8,
            weights: CatalinaWeights::DATASTAR,
            preemption: Preemption::MARGO2008,
            exact_estimates: false,
            tau: crate::metrics::formulas::DEFAULT_TAU,
        }
    }
}

/// The workload of one study.
#[derive(Debug, Clone)]
pub struct Window {
    /// Index of the window's first job among the cleaned jobs.
    pub start: usize,
    /// Whether the start was given or chosen (and how).
    pub chosen: String,
    /// Jobs marked preempting among the window's own jobs.
    pub preempting_in_window: usize,
    /// Jobs marked preempting among all the study's jobs.
    pub preempting: usize,
    /// The window's jobs then the extra ones (extra submit times mapped).
    pub jobs: Vec<ClassicJob>,
    /// First and last submit time of the window, s (log clock).
    pub span: (f64, f64),
}

/// The first job of the default window: among the starts that leave
/// `extra` jobs after the window and whose offered load is at least 1, the
/// one with the most jobs marked preempting among its `window` jobs,
/// earliest on ties; `None` when no start qualifies.
///
/// Offered load = Σ size·run of the window's and the extra jobs /
/// (`capacity` · span of the window's submit times): at least 1 means the
/// machine cannot run the work in the time it arrives, so jobs queue and
/// the scheduler's choices matter.
pub fn default_window_start(
    jobs: &[ClassicJob],
    window: usize,
    extra: usize,
    capacity: u32,
    rule: &Preemption,
) -> Option<usize> {
    let last = jobs.len().checked_sub(window + extra)?;
    if window == 0 {
        return None;
    }
    let mut marked = vec![0usize; jobs.len() + 1];
    let mut work = vec![0.0f64; jobs.len() + 1];
    for (k, j) in jobs.iter().enumerate() {
        marked[k + 1] = marked[k] + usize::from(rule.preempting(j.size));
        work[k + 1] = work[k] + f64::from(j.size) * j.run;
    }
    let mut best: Option<(usize, usize)> = None;
    for s in 0..=last {
        let span = jobs[s + window - 1].submit - jobs[s].submit;
        let load = (work[s + window + extra] - work[s]) / (f64::from(capacity) * span);
        if !(span > 0.0 && load >= 1.0) {
            continue;
        }
        let count = marked[s + window] - marked[s];
        if best.is_none_or(|(c, _)| count > c) {
            best = Some((count, s));
        }
    }
    best.map(|b| b.1)
}

/// The study's jobs: `jobs[start..start+window]` as logged, then the next
/// `extra` with their submit times mapped onto the window's span.
///
/// # Errors
/// The window and its extra jobs run past the end of the log, or the
/// window is empty.
pub fn build_window(
    jobs: &[ClassicJob],
    start: usize,
    window: usize,
    extra: usize,
) -> anyhow::Result<Vec<ClassicJob>> {
    if window == 0 {
        bail!("the window must hold at least one job");
    }
    if start + window + extra > jobs.len() {
        bail!(
            "a window of {window} jobs from job index {start} plus {extra} more needs {} jobs; the cleaned log has {}",
            start + window + extra,
            jobs.len()
        );
    }
    let win = &jobs[start..start + window];
    let more = &jobs[start + window..start + window + extra];
    let (w0, w1) = (win[0].submit, win[window - 1].submit);
    let mut out = win.to_vec();
    if let (Some(first), Some(last)) = (more.first(), more.last()) {
        let (e0, e1) = (first.submit, last.submit);
        for j in more {
            let frac = if e1 > e0 {
                (j.submit - e0) / (e1 - e0)
            } else {
                0.0
            };
            out.push(ClassicJob {
                submit: w0 + frac * (w1 - w0),
                ..*j
            });
        }
    }
    Ok(out)
}

/// One of the study's two runs.
#[derive(Debug, Clone)]
pub struct StudyRun {
    /// Scheduler name: `catalina` or `catalina-preempt`.
    pub scheduler: &'static str,
    /// The policy.
    pub policy: Policy,
    /// The schedule.
    pub run: ClassicRun,
    /// Its metrics.
    pub summary: ClassicSummary,
    /// Simulation wall time, s.
    pub seconds: f64,
}

/// The whole study.
#[derive(Debug, Clone)]
pub struct Study {
    /// Its parameters.
    pub config: MargoConfig,
    /// Log file name.
    pub log_name: String,
    /// The machine (whole nodes).
    pub machine: Machine,
    /// The cleaning report of the whole log.
    pub clean_report: classic::CleanReport,
    /// The workload.
    pub window: Window,
    /// Without, then with preemption.
    pub runs: [StudyRun; 2],
}

/// Runs the study.
///
/// # Errors
/// Unknown or unreadable log, a log without MaxNodes, a window past the end
/// of the log, or a schedule that breaks an invariant (a bug; checked
/// unless `check` is false).
pub fn run(config: &MargoConfig, check: bool) -> anyhow::Result<Study> {
    let path = catalog::resolve(&config.log)?;
    let log = crate::swf::read_log(&path, &ReadOptions::default())?;
    let machine = machine_of(&log, true, Some(config.procs_per_node))?;
    let opts = CleanOptions {
        exact_estimates: config.exact_estimates,
        ..CleanOptions::default()
    };
    let (mut jobs, clean_report) = classic::clean(&log.jobs, &machine, &opts);
    jobs.sort_by(|a, b| {
        a.submit
            .total_cmp(&b.submit)
            .then(a.job_number.cmp(&b.job_number))
    });
    let rule = config.preemption;
    let (start, chosen) = match config.window_start {
        Some(s) => (s, "given (--window-start)".to_string()),
        None => {
            let s = default_window_start(
                &jobs,
                config.window_jobs,
                config.extra_jobs,
                machine.capacity,
                &rule,
            )
            .with_context(|| {
                format!(
                    "{}: no window of {} jobs plus {} more with an offered load of at least 1 among {} cleaned jobs; give --window-start",
                    log.name,
                    config.window_jobs,
                    config.extra_jobs,
                    jobs.len()
                )
            })?;
            (
                s,
                format!(
                    "the default: of the windows with an offered load >= 1, the one with the most jobs wider than {} nodes, earliest on ties",
                    rule.preempting_above
                ),
            )
        }
    };
    let study_jobs = build_window(&jobs, start, config.window_jobs, config.extra_jobs)?;
    let window = Window {
        start,
        chosen,
        preempting_in_window: study_jobs[..config.window_jobs]
            .iter()
            .filter(|j| rule.preempting(j.size))
            .count(),
        preempting: study_jobs
            .iter()
            .filter(|j| rule.preempting(j.size))
            .count(),
        span: (
            study_jobs[0].submit,
            study_jobs[config.window_jobs - 1].submit,
        ),
        jobs: study_jobs,
    };
    let estimates = if config.exact_estimates {
        "exact"
    } else {
        "user"
    };
    let one = |scheduler: &'static str, preemption: Option<Preemption>| {
        let policy = Policy::Catalina {
            weights: config.weights,
            preemption,
        };
        let t = std::time::Instant::now();
        let run = classic::simulate(&window.jobs, machine.capacity, policy);
        let seconds = t.elapsed().as_secs_f64();
        let v = if check {
            capacity::check(&window.jobs, &run, machine.capacity)
        } else {
            Vec::new()
        };
        if let Some(first) = v.first() {
            bail!(
                "{scheduler}: the schedule breaks {} invariant(s), first: {first}",
                v.len()
            );
        }
        let summary = summarize(
            RunLabel {
                log: &log.name,
                scheduler,
                depth: "all".into(),
                estimates,
                clean: "swftool".into(),
            },
            &window.jobs,
            &machine,
            &run,
            config.tau,
        );
        Ok(StudyRun {
            scheduler,
            policy,
            run,
            summary,
            seconds,
        })
    };
    let runs = [one("catalina", None)?, one("catalina-preempt", Some(rule))?];
    Ok(Study {
        config: config.clone(),
        log_name: log.name.clone(),
        machine,
        clean_report,
        window,
        runs,
    })
}

/// The three tables of the study, as Markdown.
pub fn tables(study: &Study) -> String {
    let [a, b] = &study.runs;
    let (x, y) = (&a.summary, &b.summary);
    let w = &study.window;
    let c = &study.config;
    let mut out = format!(
        "# {NAME}: Catalina on SDSC DataStar without and with suspension preemption\n\n\
         Log {}: window of {} jobs from cleaned job {} (job numbers {} to {}; {}), \
         plus the next {} jobs submitted into it ({} jobs, {} wider than {} nodes); \
         submit span {:.1} h; {} nodes of {} processors; {} estimates.\n\
         Preemption: jobs wider than {} nodes preempt with priority x{}, jobs of at most {} nodes \
         are preemptible, PREEMPT_MIN_RUNTIME {} s; {} suspensions of {} jobs, {:.0} s each on average.\n\n",
        study.log_name,
        c.window_jobs,
        w.start,
        w.jobs[0].job_number,
        w.jobs[c.window_jobs - 1].job_number,
        w.chosen,
        c.extra_jobs,
        w.jobs.len(),
        w.preempting,
        c.preemption.preempting_above,
        (w.span.1 - w.span.0) / 3_600.0,
        study.machine.capacity,
        c.procs_per_node,
        x.estimates,
        c.preemption.preempting_above,
        c.preemption.preemptor_priority_factor,
        c.preemption.preemptible_up_to,
        c.preemption.min_runtime,
        y.suspensions,
        y.jobs_suspended,
        y.suspended_mean_s,
    );
    let row3 = |name: &str, s: &ClassicSummary, f: fn(&ClassicSummary) -> [f64; 3], prec: usize| {
        let v = f(s);
        format!(
            "| {name} | {:.p$} | {:.p$} | {:.p$} |\n",
            v[0],
            v[1],
            v[2],
            p = prec
        )
    };
    out.push_str("Table 1. Average queue wait, s (suspended time counts as wait)\n\n");
    out.push_str("| preemption | unweighted | priority-weighted | node-second-weighted |\n|---|---:|---:|---:|\n");
    let wait = |s: &ClassicSummary| [s.wait_mean_s, s.wait_pw_mean_s, s.wait_nsw_mean_s];
    out.push_str(&row3("without", x, wait, 1));
    out.push_str(&row3("with", y, wait, 1));
    out.push_str("\nTable 2. Average expansion factor, (wait + run) / run\n\n");
    out.push_str("| preemption | unweighted | priority-weighted | node-second-weighted |\n|---|---:|---:|---:|\n");
    let xf = |s: &ClassicSummary| [s.xfactor_mean, s.xfactor_pw_mean, s.xfactor_nsw_mean];
    out.push_str(&row3("without", x, xf, 3));
    out.push_str(&row3("with", y, xf, 3));
    out.push_str("\nTable 3. Utilization over the makespan (first submit to last end)\n\n");
    out.push_str("| preemption | utilization % | priority-weighted utilization % | makespan h |\n|---|---:|---:|---:|\n");
    let util = |s: &ClassicSummary| {
        [
            100.0 * s.utilization,
            100.0 * s.pw_utilization,
            s.makespan_s / 3_600.0,
        ]
    };
    out.push_str(&row3("without", x, util, 2));
    out.push_str(&row3("with", y, util, 2));
    out.push_str(
        "\nPriority weights are the priorities jobs started with (with preemption, preempting jobs' are doubled); \
         priority-weighted utilization = Σ priority·nodes·run / (nodes · makespan · mean priority), above 100 % when wide jobs rank high.\n",
    );
    out
}

/// Two grouped-bar figures of the study: average queue wait and average
/// expansion factor, each unweighted, priority-weighted and
/// node-second-weighted, without and with preemption (one run each, so no
/// confidence intervals); file stems `margo-wait` and `margo-xfactor`.
pub fn charts(study: &Study) -> Vec<(&'static str, BarChart)> {
    let levels: Vec<String> = ["unweighted", "priority-weighted", "node-second-weighted"]
        .map(String::from)
        .to_vec();
    let series = |f: fn(&ClassicSummary) -> [f64; 3]| {
        study
            .runs
            .iter()
            .map(|r| BarSeries {
                name: r.scheduler.to_string(),
                bars: f(&r.summary)
                    .iter()
                    .map(|&mean| Some(Bar { mean, ci95: None }))
                    .collect(),
            })
            .collect::<Vec<_>>()
    };
    let what = format!(
        "{} jobs of {} from cleaned job {}",
        study.window.jobs.len(),
        study.log_name,
        study.window.start
    );
    vec![
        (
            "margo-wait",
            BarChart {
                title: format!("Average queue wait without and with preemption ({what})"),
                x_label: "average".into(),
                y_label: "queue wait, s (suspended time included)".into(),
                levels: levels.clone(),
                series: series(|s| [s.wait_mean_s, s.wait_pw_mean_s, s.wait_nsw_mean_s]),
                log_y: false,
            },
        ),
        (
            "margo-xfactor",
            BarChart {
                title: format!("Average expansion factor without and with preemption ({what})"),
                x_label: "average".into(),
                y_label: "expansion factor (wait + run) / run, log scale".into(),
                levels,
                series: series(|s| [s.xfactor_mean, s.xfactor_pw_mean, s.xfactor_nsw_mean]),
                log_y: true,
            },
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(n: i64, submit: f64, size: u32, run: f64) -> ClassicJob {
        ClassicJob {
            job_number: n,
            submit,
            run,
            estimate: run,
            processors: size,
            size,
            user: 1,
            queue: 1,
        }
    }

    /// Window 2, extra 1, machine of 10 units, preempting above 4 units.
    /// Jobs (submit s, units, run s): (0,1,100) (10,1,10) (20,8,100)
    /// (30,6,100) (1030,9,100) (1040,1,1).
    /// s=0: span 10, work 100+10+800 = 910 → load 9.1; wide in window 0.
    /// s=1: span 10, work 10+800+600 → 14.1; wide 1 (8 units).
    /// s=2: span 10, work 800+600+900 → 23; wide 2 (8 and 6 units).
    /// s=3: span 1,000, work 600+900+1 → 0.15 < 1: skipped, though it also
    /// holds 2 wide jobs. → s=2.
    /// Preempting above 7: wide are the 8- and 9-unit jobs; s=1 and s=2 hold
    /// one each → the earliest, s=1.
    #[test]
    fn the_default_window_is_the_loaded_one_with_most_wide_jobs() {
        let jobs = [
            job(1, 0.0, 1, 100.0),
            job(2, 10.0, 1, 10.0),
            job(3, 20.0, 8, 100.0),
            job(4, 30.0, 6, 100.0),
            job(5, 1030.0, 9, 100.0),
            job(6, 1040.0, 1, 1.0),
        ];
        let rule = Preemption {
            preempting_above: 4,
            ..Preemption::MARGO2008
        };
        assert_eq!(default_window_start(&jobs, 2, 1, 10, &rule), Some(2));
        let above7 = Preemption {
            preempting_above: 7,
            ..rule
        };
        assert_eq!(default_window_start(&jobs, 2, 1, 10, &above7), Some(1));
        // on a 1,000-unit machine no window is loaded
        assert_eq!(default_window_start(&jobs, 2, 1, 1000, &rule), None);
        // too short a log
        assert_eq!(default_window_start(&jobs[..2], 2, 1, 10, &rule), None);
    }

    /// Window [0, 100] (jobs at 0, 40, 100); extra jobs at 500, 600, 900
    /// map onto it linearly: 0, 25, 100.
    #[test]
    fn extra_jobs_are_submitted_into_the_window() {
        let jobs = [
            job(1, 0.0, 1, 1.0),
            job(2, 40.0, 1, 1.0),
            job(3, 100.0, 1, 1.0),
            job(4, 500.0, 1, 1.0),
            job(5, 600.0, 1, 1.0),
            job(6, 900.0, 1, 1.0),
        ];
        let w = build_window(&jobs, 0, 3, 3).unwrap();
        let submits: Vec<f64> = w.iter().map(|j| j.submit).collect();
        assert_eq!(submits, [0.0, 40.0, 100.0, 0.0, 25.0, 100.0]);
        assert_eq!(w[4].job_number, 5);
        let err = build_window(&jobs, 1, 3, 3).unwrap_err().to_string();
        assert!(err.contains("needs 7 jobs; the cleaned log has 6"), "{err}");
    }
}
