//! A window of a log as the scenario of a classic run, after the DataStar
//! study of Margo, Yoshimoto and Kovatch ("Preemption and Priority
//! Calculation in Production Job Data", §5): `window` consecutive jobs as
//! logged (cleaned, in submit order), and the `extra` jobs that follow them
//! *submitted into* the window — their submit times mapped linearly from
//! their own span onto the window's (first extra job at the window's first
//! submit, last at its last), which keeps their order and spacing and raises
//! the window's offered load.
//!
//! The default window ([`default_window_start`]): of the windows whose
//! offered load is at least 1, the one with the most jobs marked preempting
//! among its `window` jobs, the earliest on ties — preemption only acts when
//! wide jobs wait for a busy machine. On SDSC-DS (184 nodes of 8
//! processors, 200 + 100 jobs, preempting above 64 nodes) this is the window
//! from cleaned job 538 (job number 643, March 2004).

use super::ClassicJob;
use super::catalina::Preemption;

/// A window that cannot be cut from the log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WindowError {
    /// A window of no job.
    #[error("the window must hold at least one job")]
    Empty,
    /// The window and its extra jobs run past the end of the log.
    #[error(
        "a window of {window} jobs from job index {start} plus {extra} more needs {} jobs; the cleaned log has {jobs}",
        start + window + extra
    )]
    PastTheEnd {
        /// First job index.
        start: usize,
        /// Jobs in the window.
        window: usize,
        /// Extra jobs.
        extra: usize,
        /// Jobs in the cleaned log.
        jobs: usize,
    },
    /// No window is loaded enough to be the default.
    #[error(
        "{log}: no window of {window} jobs plus {extra} more with an offered load of at least 1 among {jobs} cleaned jobs; give --window-start"
    )]
    NoDefault {
        /// The log's file name.
        log: String,
        /// Jobs in the window.
        window: usize,
        /// Extra jobs.
        extra: usize,
        /// Jobs in the cleaned log.
        jobs: usize,
    },
}

/// The first job of the default window: among the starts that leave
/// `extra` jobs after the window and whose offered load is at least 1, the
/// one with the most jobs marked preempting among its `window` jobs,
/// earliest on ties; `None` when no start qualifies.
///
/// Offered load = Σ size·run of the window's and the extra jobs /
/// (`capacity` · span of the window's submit times): at least 1 means the
/// machine cannot run the work in the time it arrives, so jobs queue and
/// the scheduler's choices matter.
pub fn default_window_start(
    jobs: &[ClassicJob],
    window: usize,
    extra: usize,
    capacity: u32,
    rule: &Preemption,
) -> Option<usize> {
    let last = jobs.len().checked_sub(window + extra)?;
    if window == 0 {
        return None;
    }
    let mut marked = vec![0usize; jobs.len() + 1];
    let mut work = vec![0.0f64; jobs.len() + 1];
    for (k, j) in jobs.iter().enumerate() {
        marked[k + 1] = marked[k] + usize::from(rule.preempting(j.size));
        work[k + 1] = work[k] + f64::from(j.size) * j.run;
    }
    let mut best: Option<(usize, usize)> = None;
    for s in 0..=last {
        let span = jobs[s + window - 1].submit - jobs[s].submit;
        let load = (work[s + window + extra] - work[s]) / (f64::from(capacity) * span);
        if !(span > 0.0 && load >= 1.0) {
            continue;
        }
        let count = marked[s + window] - marked[s];
        if best.is_none_or(|(c, _)| count > c) {
            best = Some((count, s));
        }
    }
    best.map(|b| b.1)
}

/// The study's jobs: `jobs[start..start+window]` as logged, then the next
/// `extra` with their submit times mapped onto the window's span.
///
/// # Errors
/// [`WindowError`]: the window and its extra jobs run past the end of the
/// log, or the window is empty.
pub fn build_window(
    jobs: &[ClassicJob],
    start: usize,
    window: usize,
    extra: usize,
) -> Result<Vec<ClassicJob>, WindowError> {
    if window == 0 {
        return Err(WindowError::Empty);
    }
    if start + window + extra > jobs.len() {
        return Err(WindowError::PastTheEnd {
            start,
            window,
            extra,
            jobs: jobs.len(),
        });
    }
    let win = &jobs[start..start + window];
    let more = &jobs[start + window..start + window + extra];
    let (w0, w1) = (win[0].submit, win[window - 1].submit);
    let mut out = win.to_vec();
    if let (Some(first), Some(last)) = (more.first(), more.last()) {
        let (e0, e1) = (first.submit, last.submit);
        for j in more {
            let frac = if e1 > e0 {
                (j.submit - e0) / (e1 - e0)
            } else {
                0.0
            };
            out.push(ClassicJob {
                submit: w0 + frac * (w1 - w0),
                ..*j
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(n: i64, submit: f64, size: u32, run: f64) -> ClassicJob {
        ClassicJob {
            job_number: n,
            submit,
            run,
            estimate: run,
            processors: size,
            size,
            user: 1,
            queue: 1,
        }
    }

    /// Window 2, extra 1, machine of 10 units, preempting above 4 units.
    /// Jobs (submit s, units, run s): (0,1,100) (10,1,10) (20,8,100)
    /// (30,6,100) (1030,9,100) (1040,1,1).
    /// s=0: span 10, work 100+10+800 = 910 → load 9.1; wide in window 0.
    /// s=1: span 10, work 10+800+600 → 14.1; wide 1 (8 units).
    /// s=2: span 10, work 800+600+900 → 23; wide 2 (8 and 6 units).
    /// s=3: span 1,000, work 600+900+1 → 0.15 < 1: skipped, though it also
    /// holds 2 wide jobs. → s=2.
    /// Preempting above 7: wide are the 8- and 9-unit jobs; s=1 and s=2 hold
    /// one each → the earliest, s=1.
    #[test]
    fn the_default_window_is_the_loaded_one_with_most_wide_jobs() {
        let jobs = [
            job(1, 0.0, 1, 100.0),
            job(2, 10.0, 1, 10.0),
            job(3, 20.0, 8, 100.0),
            job(4, 30.0, 6, 100.0),
            job(5, 1030.0, 9, 100.0),
            job(6, 1040.0, 1, 1.0),
        ];
        let rule = Preemption {
            preempting_above: 4,
            ..Preemption::MARGO2008
        };
        assert_eq!(default_window_start(&jobs, 2, 1, 10, &rule), Some(2));
        let above7 = Preemption {
            preempting_above: 7,
            ..rule
        };
        assert_eq!(default_window_start(&jobs, 2, 1, 10, &above7), Some(1));
        // on a 1,000-unit machine no window is loaded
        assert_eq!(default_window_start(&jobs, 2, 1, 1000, &rule), None);
        // too short a log
        assert_eq!(default_window_start(&jobs[..2], 2, 1, 10, &rule), None);
    }

    /// Window [0, 100] (jobs at 0, 40, 100); extra jobs at 500, 600, 900
    /// map onto it linearly: 0, 25, 100.
    #[test]
    fn extra_jobs_are_submitted_into_the_window() {
        let jobs = [
            job(1, 0.0, 1, 1.0),
            job(2, 40.0, 1, 1.0),
            job(3, 100.0, 1, 1.0),
            job(4, 500.0, 1, 1.0),
            job(5, 600.0, 1, 1.0),
            job(6, 900.0, 1, 1.0),
        ];
        let w = build_window(&jobs, 0, 3, 3).unwrap();
        let submits: Vec<f64> = w.iter().map(|j| j.submit).collect();
        assert_eq!(submits, [0.0, 40.0, 100.0, 0.0, 25.0, 100.0]);
        assert_eq!(w[4].job_number, 5);
        let err = build_window(&jobs, 1, 3, 3).unwrap_err().to_string();
        assert!(err.contains("needs 7 jobs; the cleaned log has 6"), "{err}");
    }
}
