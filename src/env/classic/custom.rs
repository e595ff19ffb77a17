//! A replay of a log under a policy given from outside: a priority order
//! ([`super::policies::scored`]; the Python package's `PriorityPolicy`) or
//! full control of every pass ([`super::policies::control`];
//! `ControlPolicy`):
//! the same machine, cleaning and window as `swftool replay --env classic`,
//! the same event loop, the same capacity check on the schedule, the same
//! summary and tables, with the policy's name in the `heuristic` column.
//! Only the decisions come from outside.

use thiserror::Error;

use super::Policy;
use super::check as capacity;
use super::engine::machine::ClassicRun;
use super::environment::{ClassicPrepared, prepare};
use super::params::ClassicArgs;
use super::policies::control::{Controlled, Controller};
use super::policies::scored::{Scored, Scorer};
use super::summary::{ClassicSummary, RunLabel, summarize};
use super::tables::{clean_frame, jobs_frame, summary_columns, suspensions_frame};
use crate::contract::EnvError;
use crate::metrics::columns;
use crate::swf::SwfLog;
use polars::prelude::{DataFrame, PolarsResult};

/// Why a replay under an outside policy stopped.
#[derive(Debug, Error)]
pub enum CustomError {
    /// The flags or the log do not make a scenario (as for `replay`).
    #[error(transparent)]
    Env(#[from] EnvError),
    /// A flag of the built-in schedulers given with an outside policy.
    #[error(
        "{flag} applies to the built-in schedulers; a priority policy takes its reservation depth as its own parameter"
    )]
    Refused {
        /// The flag, as `--name`.
        flag: &'static str,
    },
    /// The policy failed, or gave scores that cannot order the queue.
    #[error("{0}")]
    Policy(String),
    /// The schedule breaks a rule of [`capacity::check`]: for a
    /// full-control policy, a job started after the reservation it was
    /// given though no job ran past its estimate (a broken promise); for a
    /// priority policy, a bug of the engine. The first five are named.
    #[error("the schedule of policy {name} breaks {} rule(s): {}{}", .violations.len(), .violations.iter().take(5).cloned().collect::<Vec<_>>().join("; "), if .violations.len() > 5 { format!("; … and {} more", .violations.len() - 5) } else { String::new() })]
    Invariants {
        /// The policy's name.
        name: String,
        /// Each broken rule, naming its job.
        violations: Vec<String>,
    },
}

/// A finished replay under an outside policy.
#[derive(Debug, Clone)]
pub struct CustomReplay {
    /// The log's scenario (cleaned jobs, machine, window) and cleaning report.
    pub prepared: ClassicPrepared,
    /// The policy's name.
    pub name: String,
    /// The schedule.
    pub run: ClassicRun,
    /// Its summary (one row of the `summary` table).
    pub summary: ClassicSummary,
}

/// Replays `log` as `args` prepare it (machine, cleaning, window) under
/// `scorer`'s order, served without backfilling (`depth` `None`) or with
/// backfilling at that reservation depth (`usize::MAX`: all).
///
/// # Errors
/// [`CustomError`]: a flag of the built-in schedulers
/// (`--reservation-depth`, the preemption marks), a scenario the log and
/// flags do not make, the policy's failure, a broken schedule.
pub fn replay_scored(
    log: &SwfLog,
    args: &ClassicArgs,
    name: &str,
    scorer: &mut dyn Scorer,
    depth: Option<usize>,
) -> Result<CustomReplay, CustomError> {
    let label = match depth {
        None => Policy::Fcfs,
        Some(depth) => Policy::Backfill { depth },
    };
    replay_with(log, args, name, label, |jobs, capacity| {
        let mut policy = Scored::new(scorer, depth, capacity);
        super::engine::simulate_with(jobs, capacity, &mut policy)
    })
}

/// Replays `log` as `args` prepare it with every pass handed to
/// `controller` ([`super::policies::control`]). In the summary it counts
/// as backfilling with unlimited reservations (it may start any job).
///
/// # Errors
/// As [`replay_scored`]; also an action that breaks a rule, a policy that
/// makes no progress, a job never started.
pub fn replay_controlled(
    log: &SwfLog,
    args: &ClassicArgs,
    name: &str,
    controller: &mut dyn Controller,
) -> Result<CustomReplay, CustomError> {
    let label = Policy::Backfill { depth: usize::MAX };
    replay_with(log, args, name, label, |jobs, capacity| {
        let mut policy = Controlled::new(controller, capacity);
        let run = super::engine::simulate_with(jobs, capacity, &mut policy)?;
        let never: Vec<i64> = run
            .outcomes
            .iter()
            .zip(jobs)
            .filter(|(o, _)| o.start.is_infinite())
            .map(|(_, j)| j.job_number)
            .collect();
        if let Some(first) = never.first() {
            return Err(format!(
                "the replay ended with {} job(s) never started (first: job {first}): a policy must start every job",
                never.len()
            ));
        }
        Ok(run)
    })
}

fn replay_with(
    log: &SwfLog,
    args: &ClassicArgs,
    name: &str,
    label: Policy,
    simulate: impl FnOnce(&[super::ClassicJob], u32) -> Result<ClassicRun, String>,
) -> Result<CustomReplay, CustomError> {
    if let Some(flag) = args.scheduler_flags().first() {
        return Err(CustomError::Refused { flag });
    }
    let prepared = prepare(log, args)?;
    let s = &prepared.scenario;
    let run = simulate(&s.jobs, s.machine.capacity).map_err(CustomError::Policy)?;
    let violations: Vec<String> = capacity::check(&s.jobs, &run, s.machine.capacity)
        .iter()
        .map(ToString::to_string)
        .collect();
    if !violations.is_empty() {
        return Err(CustomError::Invariants {
            name: name.to_string(),
            violations,
        });
    }
    let summary = summarize(
        RunLabel {
            log: &prepared.log,
            heuristic: name,
            policy: label,
            estimates: args.estimates(),
            clean: args.clean_preset().to_string(),
        },
        &s.jobs,
        &s.machine,
        &run,
        args.tau(),
    );
    Ok(CustomReplay {
        prepared,
        name: name.to_string(),
        run,
        summary,
    })
}

/// The tables `replay --env classic` writes, for one replay under an
/// outside policy: `jobs`, `summary`, `clean`, `suspensions`, `users`,
/// `fairness` and `series` (bins of `series_step` seconds)
/// (docs/outputs.md; an outside policy suspends nothing: no rows).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn tables(
    r: &CustomReplay,
    args: &ClassicArgs,
    series_step: f64,
) -> PolarsResult<Vec<(&'static str, DataFrame)>> {
    use crate::metrics::series::{RunSeries, frame, series};
    let p = &r.prepared;
    let record = super::record::record(&p.scenario.jobs, p.scenario.machine.capacity, &r.run, None);
    let occupancy = record.occupancy();
    let (users, fairness) =
        crate::output::users::frames(&p.log, &[(r.name.as_str(), &record)], args.tau())?;
    let run_series = RunSeries {
        scenario: <super::environment::Classic as crate::contract::Environment>::scenario_name(
            &p.scenario,
        ),
        heuristic: r.name.clone(),
        bins: series(&occupancy, series_step),
    };
    Ok(vec![
        (
            "jobs",
            jobs_frame(&p.log, &p.scenario.jobs, &[(&r.name, &r.run)], args.tau())?,
        ),
        (
            "summary",
            columns::frame(&summary_columns(), &[&r.summary])?,
        ),
        ("clean", clean_frame(&p.report)?),
        (
            "suspensions",
            suspensions_frame(&p.log, &p.scenario.jobs, &[(&r.name, &r.run)])?,
        ),
        ("users", users),
        ("fairness", fairness),
        ("series", frame(std::slice::from_ref(&run_series))?),
    ])
}
