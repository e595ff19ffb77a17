//! A window of a log as the scenario of a classic run, after the DataStar
//! study of Margo, Yoshimoto and Kovatch ("Preemption and Priority
//! Calculation in Production Job Data", §5): `window` consecutive jobs as
//! logged (cleaned, in submit order), and the `extra` jobs that follow them
//! *submitted into* the window — their submit times mapped linearly from
//! their own span onto the window's (first extra job at the window's first
//! submit, last at its last), which keeps their order and spacing and raises
//! the window's offered load.
//!
//! The window's first job is given (`--window-start`) or chosen by a
//! [`WindowRule`]: `month:YYYY-MM`, the first job submitted in that
//! calendar month of the log's clock ([`month_start`]; Margo et al. took
//! "the first 200 jobs" of a month of DataStar data), or `most-wide`
//! ([`default_window_start`]): of the windows whose offered load is at
//! least 1, the one with the most jobs marked preempting among its `window`
//! jobs, the earliest on ties — preemption only acts when wide jobs wait
//! for a busy machine. On SDSC-DS (184 nodes of 8 processors, 200 + 100
//! jobs, preempting above 64 nodes) `most-wide` is the window from cleaned
//! job 538 (job number 643, March 2004).

use std::fmt;
use std::str::FromStr;

use super::ClassicJob;
use super::catalina::Preemption;
use crate::model::calendar::LogClock;

/// How the first job of a window is chosen when `--window-start` is not
/// given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum WindowRule {
    /// `month:YYYY-MM`: the first job submitted in that calendar month of
    /// the log's clock (`UnixStartTime`, `TimeZoneString`).
    Month {
        /// Year.
        year: i16,
        /// Month, 1–12.
        month: i8,
    },
    /// `most-wide`: of the windows with an offered load of at least 1, the
    /// one with the most jobs marked preempting, earliest on ties
    /// ([`default_window_start`]).
    MostWide,
}

impl fmt::Display for WindowRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WindowRule::Month { year, month } => write!(f, "month:{year:04}-{month:02}"),
            WindowRule::MostWide => f.write_str("most-wide"),
        }
    }
}

impl FromStr for WindowRule {
    type Err = String;

    fn from_str(s: &str) -> Result<WindowRule, String> {
        let bad = || format!("a window rule is `month:YYYY-MM` or `most-wide`, not `{s}`");
        if s == "most-wide" {
            return Ok(WindowRule::MostWide);
        }
        let ym = s.strip_prefix("month:").ok_or_else(bad)?;
        let (y, m) = ym.split_once('-').ok_or_else(bad)?;
        let year: i16 = y.parse().map_err(|_| bad())?;
        let month: i8 = m.parse().map_err(|_| bad())?;
        if y.len() != 4 || !(1..=12).contains(&month) {
            return Err(bad());
        }
        Ok(WindowRule::Month { year, month })
    }
}

impl TryFrom<String> for WindowRule {
    type Error = String;
    fn try_from(s: String) -> Result<WindowRule, String> {
        s.parse()
    }
}

impl From<WindowRule> for String {
    fn from(r: WindowRule) -> String {
        r.to_string()
    }
}

/// The index of the first of `jobs` (cleaned, in submit order) submitted in
/// month `month` of `year` on `clock`, the log's clock; `offset` (s) is
/// what cleaning subtracted from every submit time (non-zero for the
/// `batsim` preset's origin shift).
///
/// # Errors
/// [`WindowError::NoClock`] without `UnixStartTime`;
/// [`WindowError::EmptyMonth`] when no job was submitted in that month.
pub fn month_start(
    log: &str,
    jobs: &[ClassicJob],
    clock: &LogClock,
    offset: f64,
    year: i16,
    month: i8,
) -> Result<usize, WindowError> {
    let rule = WindowRule::Month { year, month };
    let Some(origin) = clock.origin else {
        return Err(WindowError::NoClock {
            log: log.to_string(),
            rule: rule.to_string(),
        });
    };
    // Local midnight of the 1st, as s on the cleaned jobs' clock.
    let at = |d: jiff::civil::Date| {
        d.to_zoned(clock.zone.clone())
            .map(|z| (z.timestamp().as_second() - origin) as f64 - offset)
            .ok()
    };
    let first = jiff::civil::Date::new(year, month, 1).ok();
    let next = first.and_then(|d| d.checked_add(jiff::Span::new().months(1)).ok());
    let (Some(a), Some(b)) = (first.and_then(at), next.and_then(at)) else {
        return Err(WindowError::EmptyMonth {
            log: log.to_string(),
            rule: rule.to_string(),
            span: span_text(jobs, clock, offset),
        });
    };
    let k = jobs.partition_point(|j| j.submit < a);
    match jobs.get(k) {
        Some(j) if j.submit < b => Ok(k),
        _ => Err(WindowError::EmptyMonth {
            log: log.to_string(),
            rule: rule.to_string(),
            span: span_text(jobs, clock, offset),
        }),
    }
}

/// The dates of the first and last submit of `jobs`, in words.
fn span_text(jobs: &[ClassicJob], clock: &LogClock, offset: f64) -> String {
    let date = |t: f64| clock.format(t + offset).unwrap_or_else(|| format!("{t} s"));
    match (jobs.first(), jobs.last()) {
        (Some(a), Some(b)) => format!("from {} to {}", date(a.submit), date(b.submit)),
        _ => "no job".to_string(),
    }
}

/// A window that cannot be cut from the log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WindowError {
    /// A window of no job.
    #[error("--window-jobs 0: the window must hold at least one job")]
    Empty,
    /// The window and its extra jobs run past the end of the log.
    #[error(
        "a window of {window} jobs (--window-jobs) from job index {start} (--window-start or --window) plus {extra} more (--extra-jobs) needs {} jobs; the cleaned log has {jobs}: give a smaller window or an earlier start",
        *start as u128 + *window as u128 + *extra as u128
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
    /// A month window on a log without `UnixStartTime`.
    #[error(
        "{log}: --window {rule} needs the header's UnixStartTime to find dates; give --window-start"
    )]
    NoClock {
        /// The log's file name.
        log: String,
        /// The rule.
        rule: String,
    },
    /// No cleaned job was submitted in the month asked for.
    #[error(
        "{log}: no cleaned job was submitted in {rule} (the cleaned jobs are submitted {span}); give another month or --window-start"
    )]
    EmptyMonth {
        /// The log's file name.
        log: String,
        /// The rule.
        rule: String,
        /// The dates the jobs span.
        span: String,
    },
    /// No window is loaded enough to be the default.
    #[error(
        "{log}: no window of {window} jobs (--window-jobs) plus {extra} more (--extra-jobs) with an offered load of at least 1 among {jobs} cleaned jobs (--window most-wide); give --window-start or --window month:YYYY-MM"
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
    let last = jobs.len().checked_sub(window.checked_add(extra)?)?;
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
    let end = start.checked_add(window).and_then(|e| e.checked_add(extra));
    if end.is_none_or(|end| end > jobs.len()) {
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
        ClassicJob::example(n, submit, size, run, run)
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

    /// A log starting 2005-02-27 00:00 UTC (1,109,462,400 s since the
    /// epoch); jobs on 27 Feb, 28 Feb 23:59:59, 1 Mar 00:00 and 2 Apr: the
    /// first job of March 2005 is index 2; April 2005 holds none, and a log
    /// without UnixStartTime has no dates.
    #[test]
    fn a_month_window_starts_at_the_first_job_of_the_month() {
        let day = crate::units::SECONDS_PER_DAY;
        let jobs = [
            job(1, 0.0, 1, 1.0),
            job(2, 2.0 * day - 1.0, 1, 1.0),
            job(3, 2.0 * day, 1, 1.0),
            job(4, 34.0 * day, 1, 1.0),
        ];
        let clock = LogClock::new(Some(1_109_462_400), Some("UTC"));
        assert_eq!(month_start("x", &jobs, &clock, 0.0, 2005, 3), Ok(2));
        // cleaning subtracted 10 s from every submit: job 2 was logged on
        // 1 March, 00:00:09.
        assert_eq!(month_start("x", &jobs, &clock, 10.0, 2005, 3), Ok(1));
        let err = month_start("x", &jobs, &clock, 0.0, 2005, 5).unwrap_err();
        assert!(
            err.to_string()
                .contains("no cleaned job was submitted in month:2005-05"),
            "{err}"
        );
        let none = LogClock::new(None, None);
        assert!(matches!(
            month_start("x", &jobs, &none, 0.0, 2005, 3),
            Err(WindowError::NoClock { .. })
        ));
        assert_eq!(
            "month:2005-03".parse::<WindowRule>(),
            Ok(WindowRule::Month {
                year: 2005,
                month: 3
            })
        );
        assert_eq!("most-wide".parse::<WindowRule>(), Ok(WindowRule::MostWide));
        assert!("month:2005-13".parse::<WindowRule>().is_err());
        assert!("march".parse::<WindowRule>().is_err());
        assert_eq!(WindowRule::MostWide.to_string(), "most-wide");
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

    /// `--window-jobs`, `--extra-jobs` and `--window-start` near
    /// `usize::MAX` once summed past it (a panic, or in a release build a
    /// wrapped index); they are a window past the end of the log.
    #[test]
    fn windows_whose_bounds_overflow_are_past_the_end_and_an_empty_one_names_its_flag() {
        let jobs = [job(1, 0.0, 1, 100.0), job(2, 10.0, 1, 10.0)];
        let rule = Preemption::MARGO2008;
        for (window, extra) in [(usize::MAX, 1), (1, usize::MAX), (usize::MAX, usize::MAX)] {
            assert_eq!(default_window_start(&jobs, window, extra, 10, &rule), None);
            let e = build_window(&jobs, 0, window, extra).unwrap_err();
            assert!(matches!(e, WindowError::PastTheEnd { .. }), "{e}");
        }
        assert_eq!(
            build_window(&jobs, 0, 0, 1).unwrap_err().to_string(),
            "--window-jobs 0: the window must hold at least one job"
        );
        let e = build_window(&jobs, usize::MAX, 1, 0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a window of 1 jobs (--window-jobs) from job index 18446744073709551615 (--window-start or --window) plus 0 more (--extra-jobs) needs 18446744073709551616 jobs; the cleaned log has 2: give a smaller window or an earlier start"
        );
    }
}
