//! Per-user (per-group, per-queue) tables of any environment's runs, from
//! their [`Record`]s: the `users` table (jobs, mean and largest wait, mean
//! bounded slowdown, mean expansion factor per id) and the `fairness`
//! table (Jain's index over the users' mean bounded slowdowns, the worst
//! user, the share of users who wait more than a day on average;
//! [`crate::metrics::fairness`]). Columns in docs/outputs.md.
//!
//! A job counts once it has started: its wait is its first start − submit
//! plus the time between its pieces (suspended or preempted), its bounded
//! slowdown and expansion factor use its own run time
//! ([`super::record::RecordedJob::run`]). A job that never started (dropped,
//! or waiting when the run ended) is in the `jobs` table, not here.

use polars::prelude::*;

use super::record::Record;
use crate::metrics::fairness::{Fairness, GroupFigures, by_group, fairness};
use crate::metrics::formulas as f;

/// One row of the `users` table of one run: the grouping (`user`,
/// `group` or `queue`: SWF fields 12, 13, 15; Slurm's User, Group and
/// Partition), the id and its figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct UserRow {
    /// `user`, `group` or `queue`.
    pub by: String,
    /// The user, group or queue id.
    pub id: i64,
    /// Jobs, wait, bounded slowdown, expansion factor.
    pub figures: GroupFigures,
}

/// Per-job figures of the started jobs of `records`, in order: (user,
/// group, queue) ids and wait (s), bounded slowdown (threshold `tau`, s),
/// expansion factor.
struct Started {
    ids: [Vec<i64>; 3],
    wait: Vec<f64>,
    bsld: Vec<f64>,
    xfactor: Vec<f64>,
}

fn started(records: &[&Record], tau: f64) -> Started {
    let mut s = Started {
        ids: [Vec::new(), Vec::new(), Vec::new()],
        wait: Vec::new(),
        bsld: Vec::new(),
        xfactor: Vec::new(),
    };
    for j in records.iter().flat_map(|r| &r.jobs) {
        let Some(start) = j.first_start() else {
            continue;
        };
        let w = f::wait_with_suspension(j.submit, start, j.suspended());
        s.ids[0].push(j.user);
        s.ids[1].push(j.group);
        s.ids[2].push(j.queue);
        s.wait.push(w);
        s.bsld.push(f::bounded_slowdown(w, j.run, tau));
        s.xfactor.push(f::xfactor(w, j.run));
    }
    s
}

/// Whether any job of `records` names a user, group or queue (an id ≥ 0):
/// the per-user tables are written only then.
pub fn has_users(records: &[&Record]) -> bool {
    records
        .iter()
        .flat_map(|r| &r.jobs)
        .any(|j| j.user >= 0 || j.group >= 0 || j.queue >= 0)
}

/// The `users` rows of the started jobs of `records` (the runs of one
/// heuristic; several scenarios are pooled): per grouping (`user`,
/// `group`, `queue`), per id ascending ([`by_group`]); bounded slowdown
/// with threshold `tau`, s.
pub fn user_rows(records: &[&Record], tau: f64) -> Vec<UserRow> {
    let s = started(records, tau);
    let mut rows = Vec::new();
    for (by, ids) in ["user", "group", "queue"].into_iter().zip(&s.ids) {
        for (id, figures) in by_group(ids, &s.wait, &s.bsld, &s.xfactor) {
            rows.push(UserRow {
                by: by.to_string(),
                id,
                figures,
            });
        }
    }
    rows
}

/// The fairness summary over the users of the started jobs of `records`
/// ([`fairness`]); `None` without a started job.
pub fn fairness_of(records: &[&Record], tau: f64) -> Option<Fairness> {
    let s = started(records, tau);
    fairness(&by_group(&s.ids[0], &s.wait, &s.bsld, &s.xfactor))
}

/// The `users` table from rows `(log, heuristic, row)`: one row each —
/// `log`, `heuristic`, `by`, `id`, `jobs`, `wait_mean_s`, `wait_max_s`,
/// `bsld_mean`, `xfactor_mean` (docs/outputs.md).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn users_table(rows: &[(&str, &str, &UserRow)]) -> PolarsResult<DataFrame> {
    let col =
        |f: fn(&GroupFigures) -> f64| rows.iter().map(|r| f(&r.2.figures)).collect::<Vec<_>>();
    df! {
        "log" => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        "heuristic" => rows.iter().map(|r| r.1).collect::<Vec<_>>(),
        "by" => rows.iter().map(|r| r.2.by.as_str()).collect::<Vec<_>>(),
        "id" => rows.iter().map(|r| r.2.id).collect::<Vec<_>>(),
        "jobs" => rows.iter().map(|r| r.2.figures.jobs).collect::<Vec<_>>(),
        "wait_mean_s" => col(|g| g.wait_mean),
        "wait_max_s" => col(|g| g.wait_max),
        "bsld_mean" => col(|g| g.bsld_mean),
        "xfactor_mean" => col(|g| g.xfactor_mean),
    }
}

/// The `fairness` table from rows `(log, heuristic, summary)`: `log`,
/// `heuristic`, `users`, `jain_bsld`, `worst_user`,
/// `worst_user_bsld_mean`, `share_users_wait_over_day` (null without
/// users; docs/outputs.md).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn fairness_table(rows: &[(&str, &str, Option<Fairness>)]) -> PolarsResult<DataFrame> {
    let num =
        |f: fn(&Fairness) -> f64| rows.iter().map(|r| r.2.as_ref().map(f)).collect::<Vec<_>>();
    df! {
        "log" => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        "heuristic" => rows.iter().map(|r| r.1).collect::<Vec<_>>(),
        "users" => rows.iter().map(|r| r.2.map(|f| f.users)).collect::<Vec<_>>(),
        "jain_bsld" => num(|f| f.jain_bsld),
        "worst_user" => rows.iter().map(|r| r.2.map(|f| f.worst_user)).collect::<Vec<_>>(),
        "worst_user_bsld_mean" => num(|f| f.worst_user_bsld_mean),
        "share_users_wait_over_day" => num(|f| f.share_users_wait_over_day),
    }
}

/// The `users` and `fairness` tables of a replay of log `log`: `runs` are
/// (heuristic, record) in run order; the runs of one heuristic (several
/// scenarios) are pooled, heuristics in order of first appearance.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn frames(
    log: &str,
    runs: &[(&str, &Record)],
    tau: f64,
) -> PolarsResult<(DataFrame, DataFrame)> {
    let mut heuristics: Vec<&str> = Vec::new();
    for (h, _) in runs {
        if !heuristics.contains(h) {
            heuristics.push(h);
        }
    }
    let pooled: Vec<(&str, Vec<&Record>)> = heuristics
        .iter()
        .map(|&h| (h, runs.iter().filter(|r| r.0 == h).map(|r| r.1).collect()))
        .collect();
    let per: Vec<(&str, Vec<UserRow>)> = pooled
        .iter()
        .map(|(h, rs)| (*h, user_rows(rs, tau)))
        .collect();
    let rows: Vec<(&str, &str, &UserRow)> = per
        .iter()
        .flat_map(|(h, rows)| rows.iter().map(move |u| (log, *h, u)))
        .collect();
    let fair: Vec<(&str, &str, Option<Fairness>)> = pooled
        .iter()
        .map(|(h, rs)| (log, *h, fairness_of(rs, tau)))
        .collect();
    Ok((users_table(&rows)?, fairness_table(&fair)?))
}
