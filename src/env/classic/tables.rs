//! Output tables of environment D (classic replay), as polars DataFrames:
//! `jobs`, `summary`, `suspensions` and `clean` (columns in
//! docs/outputs.md). Data crosses the library as typed structs and becomes a
//! DataFrame only here.

use polars::prelude::*;

use super::ClassicJob;
use super::clean::CleanReport;
use super::engine::machine::{ClassicRun, Suspension};
use super::summary::{ClassicSummary, job_metrics};
use crate::metrics::columns::{SummaryColumn, Value};

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
    let rows: Vec<(&str, &Suspension)> = runs
        .iter()
        .flat_map(|&(name, r)| r.suspensions.iter().map(move |x| (name, x)))
        .collect();
    let col = |f: &dyn Fn(&Suspension) -> f64| rows.iter().map(|r| f(r.1)).collect::<Vec<_>>();
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

/// The columns of a run summary, declared once ([`crate::metrics::columns`]):
/// they build the `summary` table of a replay, a comparison and a grid.
/// Units: s for `*_s`, fractions for utilizations, units (allocation
/// units) for `capacity`. Columns are documented in docs/outputs.md.
pub fn summary_columns() -> Vec<SummaryColumn<ClassicSummary>> {
    type S = ClassicSummary;
    let text = |f: fn(&S) -> &str| move |r: &S| Value::Text(f(r).to_string());
    let num = |f: fn(&S) -> f64| move |r: &S| Value::F64(f(r));
    let count = |f: fn(&S) -> usize| move |r: &S| Value::U64(f(r) as u64);
    vec![
        SummaryColumn::new("log", text(|x| &x.log)),
        SummaryColumn::new("log_key", text(|x| &x.log_key)),
        SummaryColumn::new("heuristic", text(|x| &x.heuristic)),
        SummaryColumn::new("backfilling", |x: &S| Value::Bool(x.backfilling)),
        SummaryColumn::new("reservation_depth", |x: &S| {
            Value::MaybeU64(x.reservation_depth)
        }),
        SummaryColumn::new("estimates", text(|x| &x.estimates)),
        SummaryColumn::new("clean", text(|x| &x.clean)),
        SummaryColumn::new("capacity", |x: &S| Value::U32(x.capacity)),
        SummaryColumn::new("unit", text(|x| &x.unit)),
        SummaryColumn::new("jobs", count(|x| x.jobs)),
        SummaryColumn::new("passes", |x: &S| Value::U64(x.passes)),
        SummaryColumn::new("makespan_s", num(|x| x.makespan_s)),
        SummaryColumn::new("utilization", num(|x| x.utilization)),
        SummaryColumn::new("wait_mean_s", num(|x| x.wait_mean_s)),
        SummaryColumn::new("wait_nsw_mean_s", num(|x| x.wait_nsw_mean_s)),
        SummaryColumn::new("wait_max_s", num(|x| x.wait_max_s)),
        SummaryColumn::new("response_mean_s", num(|x| x.response_mean_s)),
        SummaryColumn::new("slowdown_mean", num(|x| x.slowdown_mean)),
        SummaryColumn::new("bsld_mean", num(|x| x.bsld_mean)),
        SummaryColumn::new("bsld_max", num(|x| x.bsld_max)),
        SummaryColumn::new("bsld_tau_s", num(|x| x.bsld_tau_s)),
        SummaryColumn::new("xfactor_mean", num(|x| x.xfactor_mean)),
        SummaryColumn::new("xfactor_nsw_mean", num(|x| x.xfactor_nsw_mean)),
        SummaryColumn::new("xfactor_max", num(|x| x.xfactor_max)),
        SummaryColumn::new("wait_pw_mean_s", num(|x| x.wait_pw_mean_s)),
        SummaryColumn::new("xfactor_pw_mean", num(|x| x.xfactor_pw_mean)),
        SummaryColumn::new("priority_xfactor_mean", num(|x| x.priority_xfactor_mean)),
        SummaryColumn::new("pw_utilization", num(|x| x.pw_utilization)),
        SummaryColumn::new("suspensions", count(|x| x.suspensions)),
        SummaryColumn::new("jobs_suspended", count(|x| x.jobs_suspended)),
        SummaryColumn::new("suspended_mean_s", num(|x| x.suspended_mean_s)),
    ]
}

/// The `clean` table: one row per job the cleaning dropped or modified —
/// job number, `dropped` or `modified`, the rule and a detail.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn clean_frame(r: &CleanReport) -> PolarsResult<DataFrame> {
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
