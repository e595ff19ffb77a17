//! Which jobs of a log a simulation can use (docs/parallel.md, "Which jobs are used"), counted by reason.
//!
//! A job is kept when its submit time is ≥ 0, its run time is > 0 and its
//! processor count ([`JobRecord::processors`]: requested, falling back to
//! allocated) is > 0 — and, when a limit is given (environment A: 4,096
//! cores, Khemka et al. 2015), at most that limit. Reasons are checked in
//! the order of the [`FilterReport`] fields and a job is counted under its
//! first failing reason, so the counts add up to `input - kept`.

use std::fmt;

use super::record::JobRecord;

/// The fields of a job that the simulators use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimJob {
    /// SWF field 1: job number.
    pub job_number: i64,
    /// SWF field 2: submit time, seconds from the log's `UnixStartTime` (≥ 0).
    pub submit_time: f64,
    /// SWF field 4: run time, seconds (> 0).
    pub run_time: f64,
    /// Processors: requested (field 8), or allocated (field 5) when requested
    /// is ≤ 0 (> 0).
    pub processors: i64,
    /// SWF field 9: requested time (user estimate), seconds (-1 unknown).
    pub requested_time: f64,
    /// SWF field 12: user id.
    pub user_id: i64,
    /// SWF field 13: group id.
    pub group_id: i64,
    /// SWF field 15: queue number.
    pub queue_number: i64,
    /// SWF field 16: partition number.
    pub partition_number: i64,
}

impl SimJob {
    /// The simulation view of a record (no checks).
    pub fn from_record(job: &JobRecord) -> SimJob {
        SimJob {
            job_number: job.job_number,
            submit_time: job.submit_time,
            run_time: job.run_time,
            processors: job.processors(),
            requested_time: job.requested_time,
            user_id: job.user_id,
            group_id: job.group_id,
            queue_number: job.queue_number,
            partition_number: job.partition_number,
        }
    }
}

/// How many jobs the simulation filter kept, and why it removed the others.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FilterReport {
    /// Jobs given to the filter.
    pub input: u64,
    /// Jobs kept.
    pub kept: u64,
    /// Removed: submit time < 0 (or not a number).
    pub negative_submit: u64,
    /// Removed: run time unknown (-1, or any negative value).
    pub run_time_unknown: u64,
    /// Removed: run time 0 (the job ran for less than about half a second).
    pub run_time_zero: u64,
    /// Removed: processor count ≤ 0 (requested and allocated both unknown).
    pub non_positive_processors: u64,
    /// Removed: more processors than the limit (environment A: 4,096).
    pub too_many_processors: u64,
}

impl FilterReport {
    /// Jobs removed, all reasons together.
    pub fn removed(&self) -> u64 {
        self.input - self.kept
    }

    /// `(label, count)` for every reason, in checking order.
    pub fn reasons(&self) -> [(&'static str, u64); 5] {
        [
            ("submit time < 0", self.negative_submit),
            ("run time unknown (-1)", self.run_time_unknown),
            ("run time 0", self.run_time_zero),
            ("processors unknown (≤ 0)", self.non_positive_processors),
            ("too many processors", self.too_many_processors),
        ]
    }
}

impl FilterReport {
    /// The reasons that removed jobs, as `label: count` joined by `, `
    /// (empty when none did).
    pub fn removed_by_reason(&self) -> String {
        self.reasons()
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(label, n)| format!("{label}: {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for FilterReport {
    /// `kept K of N jobs (R removed)`, then one indented line per non-zero reason.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "kept {} of {} jobs ({} removed)",
            self.kept,
            self.input,
            self.removed()
        )?;
        let width = self
            .reasons()
            .iter()
            .map(|(l, _)| l.chars().count())
            .max()
            .unwrap_or(0);
        for (label, n) in self.reasons() {
            if n > 0 {
                let pad = width - label.chars().count();
                write!(f, "\n  {label}:{:pad$} {n:>9}", "")?;
            }
        }
        Ok(())
    }
}

/// Filters the jobs a simulation can use (docs/parallel.md, "Which jobs are used") and counts the rest by
/// reason. `max_processors = Some(4096)` also removes jobs asking for more
/// than 4,096 processors (environment A); `None` applies no limit.
pub fn simulation_jobs(
    jobs: &[JobRecord],
    max_processors: Option<i64>,
) -> (Vec<SimJob>, FilterReport) {
    let mut report = FilterReport {
        input: jobs.len() as u64,
        ..FilterReport::default()
    };
    let mut kept = Vec::with_capacity(jobs.len());
    for job in jobs {
        if report.count(job, max_processors) {
            kept.push(SimJob::from_record(job));
        }
    }
    (kept, report)
}

/// The [`FilterReport`] of [`simulation_jobs`], without making the jobs.
pub fn filter_report(jobs: &[JobRecord], max_processors: Option<i64>) -> FilterReport {
    let mut report = FilterReport {
        input: jobs.len() as u64,
        ..FilterReport::default()
    };
    for job in jobs {
        report.count(job, max_processors);
    }
    report
}

impl FilterReport {
    /// Counts `job` under its first failing reason, or as kept; returns
    /// whether it is kept.
    fn count(&mut self, job: &JobRecord, max_processors: Option<i64>) -> bool {
        let procs = job.processors();
        let rejected = if job.submit_time.is_nan() || job.submit_time < 0.0 {
            &mut self.negative_submit
        } else if job.run_time.is_nan() || job.run_time < 0.0 {
            &mut self.run_time_unknown
        } else if job.run_time == 0.0 {
            &mut self.run_time_zero
        } else if procs <= 0 {
            &mut self.non_positive_processors
        } else if max_processors.is_some_and(|m| procs > m) {
            &mut self.too_many_processors
        } else {
            self.kept += 1;
            return true;
        };
        *rejected += 1;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(submit: f64, run: f64, req: i64, alloc: i64) -> JobRecord {
        JobRecord {
            job_number: 1,
            submit_time: submit,
            wait_time: -1.0,
            run_time: run,
            allocated_processors: alloc,
            average_cpu_time: -1.0,
            used_memory: -1,
            requested_processors: req,
            requested_time: -1.0,
            requested_memory: -1,
            status: 1,
            user_id: 1,
            group_id: 1,
            executable_number: -1,
            queue_number: 1,
            partition_number: 1,
            preceding_job_number: -1,
            think_time: -1.0,
        }
    }

    #[test]
    fn each_job_is_counted_under_its_first_failing_reason() {
        let jobs = [
            job(-1.0, -1.0, -1, -1), // negative submit (first reason)
            job(0.0, -1.0, 4, 4),    // run time unknown
            job(0.0, 0.0, 4, 4),     // run time zero
            job(0.0, 5.0, -1, -1),   // no processors
            job(0.0, 5.0, 5000, 5000),
            job(0.0, 5.0, -1, 8), // falls back to allocated: kept
            job(1.0, 5.0, 4096, 1),
        ];
        let (kept, r) = simulation_jobs(&jobs, Some(4096));
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0].processors, 8);
        assert_eq!(
            r,
            FilterReport {
                input: 7,
                kept: 2,
                negative_submit: 1,
                run_time_unknown: 1,
                run_time_zero: 1,
                non_positive_processors: 1,
                too_many_processors: 1,
            }
        );
        assert_eq!(filter_report(&jobs, Some(4096)), r);
        let (_, r) = simulation_jobs(&jobs, None);
        assert_eq!(r.kept, 3);
        assert_eq!(r.too_many_processors, 0);
        assert_eq!(filter_report(&jobs, None), r);
    }

    #[test]
    fn report_lists_only_non_zero_reasons() {
        let r = FilterReport {
            input: 10,
            kept: 7,
            run_time_zero: 2,
            too_many_processors: 1,
            ..FilterReport::default()
        };
        assert_eq!(
            r.to_string(),
            "kept 7 of 10 jobs (3 removed)\n  run time 0:                       2\n  too many processors:              1"
        );
    }
}
