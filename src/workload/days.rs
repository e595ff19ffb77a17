//! Days of a log: which 24-hour windows a scenario can use, and how the
//! standard 48 are chosen.
//!
//! A day runs from local midnight (in the log's `TimeZoneString` zone, from
//! its `UnixStartTime`; UTC and the log's own clock when either is missing)
//! for 24 hours. A day is a *candidate* when the log has submissions both
//! 4 hours before its midnight (the warm-up) and after its end, and at least
//! one usable job arrives inside it. `select(n)` takes n candidates evenly
//! spaced over the log: candidate number ⌊(2i+1)·N / 2n⌋ for i = 0..n, N the
//! number of candidates, so the days cover the whole log and the same log
//! always gives the same days.

use std::path::Path;

use crate::swf::{self, FilterReport, SimJob, SwfLog};

/// One calendar day of a log.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DayWindow {
    /// Local date, `YYYY-MM-DD` (UTC when the log has no time zone).
    pub date: String,
    /// Local midnight, s on the log's clock.
    pub start: f64,
    /// Jobs arriving in `[start, start + 24 h)` that a simulation can use.
    pub jobs: usize,
}

/// A log prepared for environment A: its usable jobs, sorted by submit
/// time, and its candidate days.
#[derive(Debug, Clone)]
pub struct Workload {
    /// Name of the log file (for reports).
    pub name: String,
    /// Usable jobs (simulation filter, at most 4,096 cores), by submit time.
    pub jobs: Vec<SimJob>,
    /// What the simulation filter removed, by reason.
    pub filter: FilterReport,
    /// Processor count of the log's machine (header `MaxProcs`, else
    /// `MaxNodes`, else the largest job), cores.
    pub max_procs: f64,
    /// Longest run time in the log (s), the top of the value interpolation.
    pub max_run_time: f64,
    /// Candidate days, in time order.
    pub candidates: Vec<DayWindow>,
}

/// Hours of warm-up before each day (docs/parallel.md).
pub const WARMUP_SECONDS: f64 = 4.0 * 3600.0;
/// Length of the counted window.
pub const DAY_SECONDS: f64 = 24.0 * 3600.0;
/// Largest task (cores) environment A keeps.
pub const MAX_TASK_CORES: i64 = 4096;

impl Workload {
    /// Reads `path` (strict SWF) and prepares it.
    ///
    /// # Errors
    /// Any [`swf::SwfError`] of the reader.
    pub fn from_path(path: &Path, opts: &swf::ReadOptions) -> Result<Workload, swf::SwfError> {
        let log = swf::read_log(path, opts)?;
        Ok(Workload::from_log(&log))
    }

    /// Prepares a parsed log.
    pub fn from_log(log: &SwfLog) -> Workload {
        let (mut jobs, filter) = swf::simulation_jobs(&log.jobs, Some(MAX_TASK_CORES));
        jobs.sort_by(|a, b| {
            a.submit_time
                .total_cmp(&b.submit_time)
                .then(a.job_number.cmp(&b.job_number))
        });
        let max_run_time = log.jobs.iter().map(|j| j.run_time).fold(1.0_f64, f64::max);
        let max_procs = log.machine_processors() as f64;
        let candidates = candidate_days(
            &jobs,
            log.header.unix_start_time(),
            log.header.time_zone_string(),
        );
        Workload {
            name: log.name.clone(),
            jobs,
            filter,
            max_procs,
            max_run_time,
            candidates,
        }
    }

    /// `n` candidate days evenly spaced over the log (all of them when there
    /// are fewer than `n`).
    pub fn select(&self, n: usize) -> Vec<DayWindow> {
        let total = self.candidates.len();
        if n >= total {
            return self.candidates.clone();
        }
        (0..n)
            .map(|i| self.candidates[(2 * i + 1) * total / (2 * n)].clone())
            .collect()
    }

    /// The candidate day with local date `date` (`YYYY-MM-DD`).
    pub fn day_by_date(&self, date: &str) -> Option<DayWindow> {
        self.candidates.iter().find(|d| d.date == date).cloned()
    }

    /// Jobs arriving in `[from, to)` s, in submit order.
    pub fn jobs_between(&self, from: f64, to: f64) -> &[SimJob] {
        let lo = self.jobs.partition_point(|j| j.submit_time < from);
        let hi = self.jobs.partition_point(|j| j.submit_time < to);
        &self.jobs[lo..hi]
    }
}

fn candidate_days(jobs: &[SimJob], unix_start: Option<i64>, tz: Option<&str>) -> Vec<DayWindow> {
    let (Some(first), Some(last)) = (jobs.first(), jobs.last()) else {
        return Vec::new();
    };
    let (first, last) = (first.submit_time, last.submit_time);
    crate::model::calendar::LogClock::new(unix_start, tz)
        .midnights(first, last)
        .into_iter()
        .filter(|(_, start)| start - WARMUP_SECONDS >= first && start + DAY_SECONDS <= last)
        .filter_map(|(date, start)| {
            let lo = jobs.partition_point(|j| j.submit_time < start);
            let hi = jobs.partition_point(|j| j.submit_time < start + DAY_SECONDS);
            (hi > lo).then_some(DayWindow {
                date,
                start,
                jobs: hi - lo,
            })
        })
        .collect()
}
