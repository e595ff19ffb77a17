//! Output tables of environment D (classic replay), as polars DataFrames:
//! `jobs`, `summary`, `suspensions` and `clean` (columns in
//! docs/outputs.md). Data crosses the library as typed structs and becomes a
//! DataFrame only here.

use polars::prelude::*;

use super::summary::{ClassicSummary, job_metrics};
use super::{self as classic, ClassicJob, ClassicRun};

/// The classic `jobs` table: one row per (heuristic, job) of the log `log`
/// with submit,
/// first reservation (null when none), start, end, run and estimate (s), processors, units, the per-job metrics,
/// the priority at start, seconds suspended and the number of suspensions.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn jobs_frame(
    log: &str,
    jobs: &[ClassicJob],
    runs: &[(&str, &ClassicRun)],
    tau: f64,
) -> PolarsResult<DataFrame> {
    let mut logs = Vec::new();
    let mut sched = Vec::new();
    let mut job = Vec::new();
    let mut submit = Vec::new();
    let mut first_res: Vec<Option<f64>> = Vec::new();
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
    for &(name, r) in runs {
        let mut count = vec![0u32; jobs.len()];
        for x in &r.suspensions {
            count[x.job] += 1;
        }
        let m = job_metrics(jobs, r, tau);
        for (k, (j, o)) in jobs.iter().zip(&r.outcomes).enumerate() {
            logs.push(log.to_string());
            sched.push(name.to_string());
            job.push(j.job_number);
            submit.push(j.submit);
            first_res.push(r.first_reservation.get(k).copied().flatten());
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
        Column::new("log".into(), logs),
        Column::new("heuristic".into(), sched),
        Column::new("job_number".into(), job),
        Column::new("submit_s".into(), submit),
        Column::new("first_reservation_s".into(), first_res),
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

/// The `suspensions` table: every suspension of every run — log, heuristic,
/// suspended job, preemptor, when (s), its resume reservation (s) and when
/// it resumed (s).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn suspensions_frame(
    log: &str,
    jobs: &[ClassicJob],
    runs: &[(&str, &ClassicRun)],
) -> PolarsResult<DataFrame> {
    let rows: Vec<(&str, &classic::Suspension)> = runs
        .iter()
        .flat_map(|&(name, r)| r.suspensions.iter().map(move |x| (name, x)))
        .collect();
    let col =
        |f: &dyn Fn(&classic::Suspension) -> f64| rows.iter().map(|r| f(r.1)).collect::<Vec<_>>();
    DataFrame::new_infer_height(vec![
        Column::new(
            "log".into(),
            rows.iter().map(|_| log.to_string()).collect::<Vec<_>>(),
        ),
        Column::new(
            "heuristic".into(),
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
        Column::new("log_key".into(), strs(|x| &x.log_key)),
        Column::new("heuristic".into(), strs(|x| &x.heuristic)),
        Column::new(
            "backfilling".into(),
            s.iter().map(|x| x.backfilling).collect::<Vec<_>>(),
        ),
        Column::new(
            "reservation_depth".into(),
            s.iter().map(|x| x.reservation_depth).collect::<Vec<_>>(),
        ),
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
        Column::new(
            "priority_xfactor_mean".into(),
            f64s(|x| x.priority_xfactor_mean),
        ),
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

/// The `clean` table: one row per job the cleaning dropped or modified —
/// job number, `dropped` or `modified`, the rule and a detail.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn clean_frame(r: &classic::CleanReport) -> PolarsResult<DataFrame> {
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
