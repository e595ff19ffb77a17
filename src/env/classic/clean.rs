//! Cleaning a log for classic replay: which jobs run, with what processor
//! count, estimate and run time (docs/classic.md). Simulators clean SWF
//! differently and their published numbers differ partly for that reason;
//! swftool's rules are explicit, every dropped or modified job is reported,
//! and presets reproduce the peers' rules:
//!
//! | rule | `swftool` (default) | `pyss` | `batsim` | `rlscheduler` |
//! |---|---|---|---|---|
//! | processors | requested, else allocated | allocated, clipped to the machine | allocated | max(allocated, requested) |
//! | estimate | requested time; run time if ≤ 0 | max(requested, run, 1) | max(2·run, requested) | requested; run time if ≤ 0 |
//! | run > estimate | runs as logged (`kill_at_estimate`: cut) | cut to the estimate | kept | kept |
//! | run ≤ 0 | dropped | kept as 1 s on 1 processor | dropped | run < 0 becomes 10 s; run = 0 dropped |
//! | submit-time origin | as logged | as logged | first job at 0 | as logged |
//!
//! In every preset a job is also dropped when its submit time is negative,
//! when it has no processor count, or when it needs more units than the
//! machine has (except `pyss`, which clips). With exact estimates the
//! estimate is the (final) run time.

use std::collections::BTreeMap;
use std::fmt;

use super::{ClassicJob, Machine};
use crate::swf::JobRecord;

/// A cleaning preset.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum CleanPreset {
    /// swftool's own rules (the default).
    Swftool,
    /// pyss (Tsafrir's simulator).
    Pyss,
    /// Batsim's SWF converter.
    Batsim,
    /// RLScheduler (DIR-LAB).
    Rlscheduler,
}

impl fmt::Display for CleanPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CleanPreset::Swftool => "swftool",
            CleanPreset::Pyss => "pyss",
            CleanPreset::Batsim => "batsim",
            CleanPreset::Rlscheduler => "rlscheduler",
        })
    }
}

/// Cleaning options beyond the preset.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CleanOptions {
    /// The preset.
    pub preset: CleanPreset,
    /// Plan with the true run times instead of the user estimates.
    pub exact_estimates: bool,
    /// Cut runs longer than their estimate to the estimate (always on in `pyss`).
    pub kill_at_estimate: bool,
}

impl Default for CleanOptions {
    fn default() -> Self {
        CleanOptions {
            preset: CleanPreset::Swftool,
            exact_estimates: false,
            kill_at_estimate: false,
        }
    }
}

/// What happened to one job.
#[derive(Debug, Clone, PartialEq)]
pub struct CleanAction {
    /// SWF job number.
    pub job_number: i64,
    /// `true` = dropped, `false` = modified (and kept).
    pub dropped: bool,
    /// The rule that applied (stable, short; used for the counts).
    pub reason: &'static str,
    /// What changed, e.g. `run -1 -> 1`.
    pub detail: String,
}

/// Every dropped or modified job, by reason.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CleanReport {
    /// The preset used.
    pub preset: Option<CleanPreset>,
    /// Jobs in the log.
    pub input: usize,
    /// Jobs kept.
    pub kept: usize,
    /// One entry per dropped or modified job and rule, in log order.
    pub actions: Vec<CleanAction>,
    /// Notes on changes applied to every job (e.g. a shifted time origin).
    pub notes: Vec<String>,
}

impl CleanReport {
    /// Counts per (dropped?, reason), sorted.
    pub fn counts(&self) -> BTreeMap<(bool, &'static str), usize> {
        let mut m = BTreeMap::new();
        for a in &self.actions {
            *m.entry((a.dropped, a.reason)).or_insert(0) += 1;
        }
        m
    }
}

impl fmt::Display for CleanReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let preset = self.preset.map_or("-".to_string(), |p| p.to_string());
        writeln!(
            f,
            "cleaning ({preset}): kept {} of {} jobs ({} dropped)",
            self.kept,
            self.input,
            self.input - self.kept
        )?;
        for ((dropped, reason), n) in self.counts() {
            writeln!(
                f,
                "  {:<9} {:<44} {n:>8}",
                if dropped { "dropped" } else { "modified" },
                reason
            )?;
        }
        for n in &self.notes {
            writeln!(f, "  note      {n}")?;
        }
        Ok(())
    }
}

/// Cleans `records` for `machine` under `opts`.
pub fn clean(
    records: &[JobRecord],
    machine: &Machine,
    opts: &CleanOptions,
) -> (Vec<ClassicJob>, CleanReport) {
    let preset = opts.preset;
    let mut report = CleanReport {
        preset: Some(preset),
        input: records.len(),
        ..CleanReport::default()
    };
    let origin = match preset {
        CleanPreset::Batsim => records
            .iter()
            .map(|r| r.submit_time)
            .filter(|s| *s >= 0.0)
            .fold(f64::INFINITY, f64::min),
        _ => 0.0,
    };
    if preset == CleanPreset::Batsim && origin.is_finite() && origin != 0.0 {
        report.notes.push(format!(
            "submit times shifted by -{origin} s so the first job is at 0"
        ));
    }
    let units_max = i64::from(machine.capacity);
    let mut jobs = Vec::with_capacity(records.len());
    for r in records {
        let mut act = |dropped: bool, reason: &'static str, detail: String| {
            report.actions.push(CleanAction {
                job_number: r.job_number,
                dropped,
                reason,
                detail,
            });
        };
        if r.submit_time.is_nan() || r.submit_time < 0.0 {
            act(
                true,
                "negative submit time",
                format!("submit {}", r.submit_time),
            );
            continue;
        }
        // processors
        let procs = match preset {
            CleanPreset::Swftool => r.processors(),
            CleanPreset::Pyss | CleanPreset::Batsim => r.allocated_processors,
            CleanPreset::Rlscheduler => r.allocated_processors.max(r.requested_processors),
        };
        // run time
        let mut run = r.run_time;
        let mut procs = procs;
        if run.is_nan() || run <= 0.0 {
            match preset {
                CleanPreset::Pyss => {
                    act(
                        false,
                        "run <= 0 kept as 1 s on 1 processor",
                        format!("run {run} -> 1, processors {procs} -> 1"),
                    );
                    run = 1.0;
                    procs = 1;
                }
                CleanPreset::Rlscheduler if run < 0.0 => {
                    act(false, "run < 0 set to 10 s", format!("run {run} -> 10"));
                    run = 10.0;
                }
                _ => {
                    act(
                        true,
                        if run == 0.0 {
                            "run time 0"
                        } else {
                            "run time unknown"
                        },
                        format!("run {run}"),
                    );
                    continue;
                }
            }
        }
        if procs <= 0 {
            act(true, "no processor count", format!("processors {procs}"));
            continue;
        }
        let mut units = i64::from(machine.units_for(procs.min(i64::from(u32::MAX)) as u32));
        if units > units_max {
            if preset == CleanPreset::Pyss {
                act(
                    false,
                    "processors clipped to the machine",
                    format!("processors {procs} -> machine"),
                );
                units = units_max;
                procs = procs.min(machine.max_processors());
            } else {
                act(
                    true,
                    "larger than the machine",
                    format!("{units} units > {units_max}"),
                );
                continue;
            }
        }
        // estimate
        let req = r.requested_time;
        let mut estimate = match preset {
            CleanPreset::Swftool | CleanPreset::Rlscheduler => {
                if req > 0.0 {
                    req
                } else {
                    act(
                        false,
                        "no estimate: run time used",
                        format!("estimate {req} -> {run}"),
                    );
                    run
                }
            }
            CleanPreset::Pyss => req.max(run).max(1.0),
            CleanPreset::Batsim => (2.0 * run).max(req),
        };
        if run > estimate && (opts.kill_at_estimate || preset == CleanPreset::Pyss) {
            act(
                false,
                "run cut to the estimate",
                format!("run {run} -> {estimate}"),
            );
            run = estimate;
        }
        if opts.exact_estimates {
            estimate = run;
        }
        jobs.push(ClassicJob {
            job_number: r.job_number,
            submit: r.submit_time - origin,
            run,
            estimate,
            processors: procs as u32,
            size: units as u32,
            user: r.user_id,
            group: r.group_id,
            queue: r.queue_number,
        });
    }
    report.kept = jobs.len();
    (jobs, report)
}
