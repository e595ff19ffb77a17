//! A replay of a log under a priority policy given from outside
//! ([`super::policies::scored`]; the Python package's `PriorityPolicy`):
//! the same machine, cleaning and window as `swftool replay --env classic`,
//! the same event loop, the same capacity check on the schedule, the same
//! summary and tables, with the policy's name in the `heuristic` column.
//! Only the order of the queue comes from outside.

use thiserror::Error;

use super::check as capacity;
use super::environment::{ClassicPrepared, prepare};
use super::params::ClassicArgs;
use super::policies::scored::{Scored, Scorer};
use super::summary::{ClassicSummary, RunLabel, summarize};
use super::tables::{clean_frame, jobs_frame, summary_frame, suspensions_frame};
use super::{ClassicRun, Policy};
use crate::env::EnvError;
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
    /// The schedule breaks the capacity rules (a bug of the engine: the
    /// order of the queue cannot break them).
    #[error("the schedule of policy {name} breaks {} rule(s): {}", .violations.len(), .violations.join("; "))]
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
    if let Some(flag) = args.scheduler_flags().first() {
        return Err(CustomError::Refused { flag });
    }
    let prepared = prepare(log, args)?;
    let s = &prepared.scenario;
    let mut policy = Scored::new(scorer, depth, s.machine.capacity);
    let run = super::engine::simulate_with(&s.jobs, s.machine.capacity, &mut policy)
        .map_err(CustomError::Policy)?;
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
            policy: match depth {
                None => Policy::Fcfs,
                Some(depth) => Policy::Backfill { depth },
            },
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
/// outside policy: `jobs`, `summary`, `clean` and `suspensions`
/// (docs/outputs.md; an outside policy suspends nothing: no rows).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn tables(
    r: &CustomReplay,
    args: &ClassicArgs,
) -> PolarsResult<Vec<(&'static str, DataFrame)>> {
    let p = &r.prepared;
    Ok(vec![
        (
            "jobs",
            jobs_frame(&p.log, &p.scenario.jobs, &[(&r.name, &r.run)], args.tau())?,
        ),
        ("summary", summary_frame(std::slice::from_ref(&r.summary))?),
        ("clean", clean_frame(&p.report)?),
        (
            "suspensions",
            suspensions_frame(&p.log, &p.scenario.jobs, &[(&r.name, &r.run)])?,
        ),
    ])
}
