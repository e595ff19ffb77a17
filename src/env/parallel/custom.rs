//! Environment A's Min-Min loop with objectives given from outside (the
//! Python package's `MinMinPolicy`): the loop of Max Value and Max VPR
//! ([`super::max_value::min_min`], Khemka et al. 2015, §IV.C–D), with or
//! without place-holders, asking for the objectives of every candidate
//! (task, cluster, start, completion) of a mapping event at once. It runs
//! on the scenarios `replay` builds (the same days, seeds and variants),
//! each schedule checked by the same invariant checker, summarised and
//! tabled as the built-in heuristics are, with its name in the `heuristic`
//! column.

use thiserror::Error;

use super::check as invariants;
use super::max_value::{Mode, Objectives, min_min};
use super::summary::{RunSummary, summarize};
use super::tables;
use super::{Heuristic, MappingEvent, RunResult, simulate};
use crate::workload::Scenario;
use polars::prelude::{DataFrame, PolarsResult};

/// Min-Min over objectives from `source`, placing in `mode`.
pub struct ExternalMinMin<'o> {
    source: &'o mut dyn Objectives,
    mode: Mode,
    events: u64,
    failure: Option<String>,
}

impl<'o> ExternalMinMin<'o> {
    /// The heuristic asking `source`, placing future slots as reservations
    /// or place-holders (`mode`).
    pub fn new(source: &'o mut dyn Objectives, mode: Mode) -> ExternalMinMin<'o> {
        ExternalMinMin {
            source,
            mode,
            events: 0,
            failure: None,
        }
    }
}

impl Heuristic for ExternalMinMin<'_> {
    fn map(&mut self, ev: &mut MappingEvent<'_>) {
        if self.failure.is_some() {
            return;
        }
        self.events += 1;
        if let Err(e) = min_min(ev, self.mode, self.source) {
            self.failure = Some(format!(
                "at the mapping event at t = {} s (event {}): {e}",
                ev.now(),
                self.events
            ));
        }
    }

    fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

/// Why a run with outside objectives stopped.
#[derive(Debug, Error)]
pub enum CustomError {
    /// The objectives failed, or could not be used.
    #[error("{date}: {message}")]
    Policy {
        /// The scenario's date.
        date: String,
        /// What went wrong, with the mapping event.
        message: String,
    },
    /// The schedule breaks an invariant (a bug of the engine: objectives
    /// only choose among feasible placements).
    #[error("{date}: the schedule of {name} breaks {} invariant(s): {}", .violations.len(), .violations.iter().take(5).cloned().collect::<Vec<_>>().join("; "))]
    Invariants {
        /// The scenario's date.
        date: String,
        /// The heuristic's name.
        name: String,
        /// Each broken invariant.
        violations: Vec<String>,
    },
}

/// One finished scenario.
pub struct CustomRun<'s> {
    /// The scenario.
    pub scenario: &'s Scenario,
    /// Its schedule.
    pub run: RunResult,
    /// Its summary.
    pub summary: RunSummary,
}

/// Runs the Min-Min loop with `source`'s objectives on every scenario, in
/// order: `log` the log's name, `seed` the user seed (for the summary).
///
/// # Errors
/// [`CustomError`]: the first scenario whose objectives failed or whose
/// schedule breaks an invariant.
pub fn replay_min_min<'s>(
    log: &str,
    scenarios: &'s [Scenario],
    seed: u64,
    name: &str,
    mode: Mode,
    source: &mut dyn Objectives,
) -> Result<Vec<CustomRun<'s>>, CustomError> {
    let mut out = Vec::with_capacity(scenarios.len());
    for s in scenarios {
        let mut h = ExternalMinMin::new(source, mode);
        let run = simulate(s, &mut h);
        if let Some(message) = h.failure {
            return Err(CustomError::Policy {
                date: s.day.date.clone(),
                message,
            });
        }
        let violations: Vec<String> = invariants::check(s, &run)
            .iter()
            .map(ToString::to_string)
            .collect();
        if !violations.is_empty() {
            return Err(CustomError::Invariants {
                date: s.day.date.clone(),
                name: name.to_string(),
                violations,
            });
        }
        let summary = summarize(log, name, seed, s, &run);
        out.push(CustomRun {
            scenario: s,
            run,
            summary,
        });
    }
    Ok(out)
}

/// The tables `replay` writes for these runs: `jobs`, `summary`, `timing`,
/// `users` and `fairness` (when the log names users) and `series` (bins of
/// `series_step` seconds) (docs/outputs.md).
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn tables(
    runs: &[CustomRun<'_>],
    series_step: f64,
) -> PolarsResult<Vec<(&'static str, DataFrame)>> {
    use crate::metrics::series::{RunSeries, frame, series};
    let mut out = tables::replay_tables(runs.iter().map(|r| (r.scenario, &r.run, &r.summary)))
        .into_iter()
        .map(|(name, df)| df.map(|df| (name, df)))
        .collect::<PolarsResult<Vec<_>>>()?;
    let records: Vec<crate::output::Record> = runs
        .iter()
        .map(|r| super::record::record(r.scenario, &r.run, false))
        .collect();
    let all_records: Vec<&crate::output::Record> = records.iter().collect();
    if let (Some(first), true) = (runs.first(), crate::output::users::has_users(&all_records)) {
        let named: Vec<(&str, &crate::output::Record)> = runs
            .iter()
            .zip(&records)
            .map(|(r, rec)| (r.summary.heuristic.as_str(), rec))
            .collect();
        let (users, fairness) = crate::output::users::frames(
            &first.summary.log,
            &named,
            crate::metrics::formulas::DEFAULT_TAU,
        )?;
        out.push(("users", users));
        out.push(("fairness", fairness));
    }
    let all: Vec<RunSeries> = runs
        .iter()
        .zip(&records)
        .map(|(r, record)| RunSeries {
            scenario: r.scenario.day.date.clone(),
            heuristic: r.summary.heuristic.clone(),
            bins: series(&record.occupancy(), series_step),
        })
        .collect();
    out.push(("series", frame(&all)?));
    Ok(out)
}
