//! `swftool replay --export FORMAT,…`: each run's schedule written for
//! other tools from its [`Record`], the same for every environment
//! (docs/outputs.md):
//!
//! - `batsim`: Batsim's `jobs.csv` ([`crate::metrics::batsim`]), which
//!   evalys loads (`JobSet.from_csv`) and draws, at
//!   `batsim/HEURISTIC/jobs.csv` (`batsim/SCENARIO/HEURISTIC/jobs.csv`
//!   when the replay ran several scenarios);
//! - `swf`: an SWF log of the simulated run ([`Record::swf_records`]) at
//!   `swf/HEURISTIC.swf` (`swf/SCENARIO/HEURISTIC.swf`), which
//!   `swftool info` and other SWF tools read: on the log's own machine
//!   (environment D) the log's header with a note; on a machine the
//!   environment built (A, B, C) a header describing it (`Computer`,
//!   `MaxProcs`), with the log's clock (`UnixStartTime`, `TimeZoneString`)
//!   when the jobs' times are the log's (A).

use std::collections::HashMap;
use std::path::Path;

use super::record::{Machine, Record};
use crate::metrics::batsim;
use crate::metrics::tables::TableError;
use crate::swf::{JobRecord, SwfHeader, SwfLog};

/// A format `--export` writes a replayed schedule in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Export {
    /// Batsim's `jobs.csv` (evalys reads it).
    Batsim,
    /// An SWF log of the simulated run.
    Swf,
}

/// One run to export: its scenario's name, its heuristic and its record.
pub struct ExportRun<'a> {
    /// The scenario's name (a date, a trial, the log).
    pub scenario: String,
    /// The heuristic's CLI name.
    pub heuristic: &'a str,
    /// The run.
    pub record: Record,
}

/// The top folders of the exports, relative to a replay's output folder.
pub const FOLDERS: [&str; 2] = ["batsim", "swf"];

/// Whether `rel`, a path relative to a replay's output folder, is an
/// export this module writes (under one of [`FOLDERS`], never climbing
/// out).
pub fn is_export(rel: &str) -> bool {
    let path = Path::new(rel);
    FOLDERS.iter().any(|f| rel.starts_with(&format!("{f}/")))
        && path
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// A scenario's name as a folder name: every character but letters,
/// digits, `-`, `.` and `_` as `_`.
fn safe(scenario: &str) -> String {
    scenario
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-._".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes `formats` of every run of `runs` into `dir`; `env` is the
/// environment's CLI name (for the SWF note), `workload` Batsim's workload
/// name, `log` the log replayed (its records give the SWF fields the run
/// does not change; `None` for synthetic trials). Returns the files
/// written, relative to `dir`; says on standard error how many jobs of a
/// run are not in its Batsim file.
///
/// # Errors
/// [`TableError`] naming the file.
pub fn write(
    dir: &Path,
    formats: &[Export],
    env: &str,
    workload: &str,
    log: Option<&SwfLog>,
    runs: &[ExportRun<'_>],
) -> Result<Vec<String>, TableError> {
    let mut written = Vec::new();
    if formats.contains(&Export::Batsim) {
        let rows: Vec<batsim::RunRows<'_>> = runs
            .iter()
            .map(|r| {
                let (jobs, never) = r.record.batsim_jobs();
                (r.scenario.clone(), r.heuristic, jobs, never)
            })
            .collect();
        written.extend(batsim::write_runs(dir, workload, &rows)?);
    }
    if formats.contains(&Export::Swf) {
        let logged: HashMap<i64, &JobRecord> = log
            .map(|l| l.jobs.iter().map(|r| (r.job_number, r)).collect())
            .unwrap_or_default();
        let several = runs.iter().any(|r| r.scenario != runs[0].scenario);
        for r in runs {
            let rel = if several {
                format!("swf/{}/{}.swf", safe(&r.scenario), r.heuristic)
            } else {
                format!("swf/{}.swf", r.heuristic)
            };
            let path = dir.join(&rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|source| TableError::Create {
                    path: parent.to_path_buf(),
                    source,
                })?;
            }
            let header = swf_header(&r.record, log.map(|l| &l.header), env, r.heuristic);
            let jobs = r.record.swf_records(|id| logged.get(&id).map(|r| **r));
            crate::swf::write_path(&header, &jobs, &path).map_err(|source| TableError::Create {
                path: path.clone(),
                source,
            })?;
            written.push(rel);
        }
    }
    Ok(written)
}

/// The SWF header of a run's export: the log's own (the machine is the
/// log's) or one describing the machine built, with a note naming the
/// replay.
pub fn swf_header(
    record: &Record,
    log: Option<&SwfHeader>,
    env: &str,
    heuristic: &str,
) -> SwfHeader {
    let mut lines = match &record.machine {
        Machine::Logged => log.map(|h| h.lines.clone()).unwrap_or_default(),
        Machine::Built {
            computer,
            max_procs,
            log_clock,
        } => {
            let mut lines = vec![
                "; Version: 2.2".to_string(),
                format!("; Computer: {computer} (built by swftool --env {env})"),
            ];
            // The log's clock, so dates read the same as the log's.
            lines.extend(log.filter(|_| *log_clock).into_iter().flat_map(|h| {
                h.lines
                    .iter()
                    .filter(|l| {
                        let key = l.trim_start_matches(';').trim_start();
                        key.starts_with("UnixStartTime:")
                            || key.starts_with("TimeZoneString:")
                            || key.starts_with("TimeZone:")
                    })
                    .cloned()
            }));
            lines.push(format!("; MaxJobs: {}", record.jobs.len()));
            lines.push(format!("; MaxRecords: {}", record.jobs.len()));
            lines.push(format!("; MaxProcs: {max_procs}"));
            lines
        }
    };
    lines.push(format!(
        "; Note: simulated by swftool replay --env {env} --heuristic {heuristic}: waits, run times (suspensions included) and allocated processors of the replay"
    ));
    SwfHeader::from_lines(lines)
}
