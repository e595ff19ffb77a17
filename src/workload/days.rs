//! Days of a log: which 24-hour windows a scenario can use, and how the
//! standard 48 are chosen (Khemka et al. 2015, §5; docs/parallel.md).
//!
//! A day runs from local midnight (in the log's `TimeZoneString` zone, from
//! its `UnixStartTime`; UTC when the zone is missing; without
//! `UnixStartTime` days are named `day-N` and are whole multiples of
//! 86,400 s of the log's own clock) for 24 hours. A day is a *candidate*
//! when the log has submissions both 4 hours before its midnight (the
//! warm-up) and after its end, and at least one usable job arrives inside
//! it.
//!
//! The *standard set* of a log is taken from the candidates whose number of
//! arrivals (every job the log has submitted that day, usable or not) lies
//! in a range ([`ArrivalRange`]): for Curie the paper's own, 897 to 2,904
//! arrivals (Khemka et al. 2015, §5); for any other log the 10th to the 90th
//! percentile of its candidates' daily arrivals. An empty or near-empty day
//! says nothing about a value-based scheduler (every heuristic earns its
//! whole bound), so it never enters a standard set. From the days in range,
//! [`DaySet::select`] takes n evenly spaced: number ⌊(2i+1)·N / 2n⌋ for
//! i = 0..n, N the number in range, so the days cover the whole log and the
//! same log always gives the same days.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use crate::model::calendar::LogClock;
use crate::swf::{self, FilterReport, SimJob, SwfLog};
use crate::units::SECONDS_PER_DAY;

/// One calendar day of a log.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DayWindow {
    /// Local date `YYYY-MM-DD` (UTC when the log has no time zone), or
    /// `day-N` for a log without `UnixStartTime`.
    pub date: String,
    /// Local midnight, s on the log's clock.
    pub start: f64,
    /// Jobs arriving in `[start, start + 24 h)` that a simulation can use.
    pub jobs: usize,
    /// Every job of the log submitted in `[start, start + 24 h)`, usable or
    /// not (the count the arrival range applies to).
    pub arrivals: usize,
    /// Of those, jobs asking for more than [`MAX_TASK_CORES`] cores.
    pub wide: usize,
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
    /// Which known log this is, and how it was recognised (by content,
    /// else by file name; [`crate::catalog::recognise`]).
    pub known: Option<crate::catalog::Recognition>,
    /// Whether this is the Curie log of Khemka et al. (its standard range
    /// is the paper's): [`Workload::known`] is `curie`.
    pub is_curie: bool,
    /// The log's calendar.
    pub clock: LogClock,
}

/// Hours of warm-up before each day (docs/parallel.md).
pub const WARMUP_SECONDS: f64 = 4.0 * 3600.0;
/// Length of the counted window, s: a day.
pub const DAY_SECONDS: f64 = SECONDS_PER_DAY;
/// Largest task environment A keeps, cores (Khemka et al. 2015, §4;
/// docs/parallel.md): a job asking for more is removed, and `swftool
/// info` counts those a log has.
pub const MAX_TASK_CORES: i64 = 4096;

/// Khemka et al. 2015, §5: "the least and the most number of task arrivals
/// in a day was 897 and 2904 tasks" over their 48 Curie days.
pub const CURIE_PAPER_RANGE: (usize, usize) = (897, 2904);
/// The paper's 48 Curie days: 76,523 tasks, 1,157 of them (≈ 1.51 %)
/// removed as wider than 4,096 cores (Khemka et al. 2015, §5).
pub const CURIE_PAPER_TOTALS: DayTotals = DayTotals {
    days: 48,
    arrivals: 76_523,
    tasks: 76_523 - 1_157,
    wide: 1_157,
};

/// Which days may enter a standard set: a range of daily arrivals
/// (every job the log submitted that day), inclusive.
///
/// Written `standard`, `any`, `MIN-MAX` (arrival counts, e.g. `897-2904`)
/// or `pLO-pHI` (percentiles of the log's daily arrivals, e.g. `p10-p90`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ArrivalRange {
    /// The log's standard range: the paper's 897–2,904 for Curie, the
    /// 10th–90th percentile for any other log.
    #[default]
    Standard,
    /// Every candidate day (at least one usable arrival).
    Any,
    /// Days with `min ..= max` arrivals.
    Counts {
        /// Fewest arrivals.
        min: usize,
        /// Most arrivals.
        max: usize,
    },
    /// Days between the `lo`-th and the `hi`-th percentile (nearest rank)
    /// of the candidates' daily arrivals.
    Percentiles {
        /// Lower percentile, 0..=100.
        lo: u8,
        /// Upper percentile, lo..=100.
        hi: u8,
    },
}

impl fmt::Display for ArrivalRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArrivalRange::Standard => f.write_str("standard"),
            ArrivalRange::Any => f.write_str("any"),
            ArrivalRange::Counts { min, max } => write!(f, "{min}-{max}"),
            ArrivalRange::Percentiles { lo, hi } => write!(f, "p{lo}-p{hi}"),
        }
    }
}

impl FromStr for ArrivalRange {
    type Err = String;

    /// Parses `standard`, `any`, `MIN-MAX` or `pLO-pHI`.
    fn from_str(s: &str) -> Result<Self, String> {
        let usage = "give `standard`, `any`, MIN-MAX arrivals (e.g. 897-2904) \
                     or percentiles pLO-pHI (e.g. p10-p90)";
        match s.trim() {
            "standard" => return Ok(ArrivalRange::Standard),
            "any" => return Ok(ArrivalRange::Any),
            _ => {}
        }
        let (a, b) = s
            .trim()
            .split_once('-')
            .ok_or_else(|| format!("`{s}` is not a range of daily arrivals: {usage}"))?;
        if let (Some(a), Some(b)) = (a.strip_prefix('p'), b.strip_prefix('p')) {
            let lo: u8 = a
                .parse()
                .map_err(|_| format!("`{s}`: percentile `{a}` is not a whole number 0..100"))?;
            let hi: u8 = b
                .parse()
                .map_err(|_| format!("`{s}`: percentile `{b}` is not a whole number 0..100"))?;
            if hi > 100 || lo > hi {
                return Err(format!("`{s}`: percentiles must satisfy 0 ≤ LO ≤ HI ≤ 100"));
            }
            return Ok(ArrivalRange::Percentiles { lo, hi });
        }
        let min: usize = a
            .parse()
            .map_err(|_| format!("`{s}`: `{a}` is not a whole number of arrivals; {usage}"))?;
        let max: usize = b
            .parse()
            .map_err(|_| format!("`{s}`: `{b}` is not a whole number of arrivals; {usage}"))?;
        if min > max {
            return Err(format!("`{s}`: MIN must not exceed MAX"));
        }
        if max == 0 {
            return Err(format!(
                "`{s}`: a day with no arrival says nothing about a scheduler; give MAX ≥ 1"
            ));
        }
        Ok(ArrivalRange::Counts { min, max })
    }
}

impl serde::Serialize for ArrivalRange {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for ArrivalRange {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Totals over a set of days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct DayTotals {
    /// Number of days.
    pub days: usize,
    /// Jobs the log submitted on them (before any filter).
    pub arrivals: usize,
    /// Usable tasks environment A replays (after the simulation filter).
    pub tasks: usize,
    /// Jobs asking for more than [`MAX_TASK_CORES`] cores (removed).
    pub wide: usize,
}

impl DayTotals {
    /// Totals of `days`.
    pub fn of(days: &[DayWindow]) -> DayTotals {
        DayTotals {
            days: days.len(),
            arrivals: days.iter().map(|d| d.arrivals).sum(),
            tasks: days.iter().map(|d| d.jobs).sum(),
            wide: days.iter().map(|d| d.wide).sum(),
        }
    }

    /// Percentage of the arrivals that were wider than 4,096 cores.
    pub fn wide_percent(&self) -> f64 {
        if self.arrivals == 0 {
            0.0
        } else {
            100.0 * self.wide as f64 / self.arrivals as f64
        }
    }
}

/// The candidate days in an arrival range, resolved for one log.
#[derive(Debug, Clone)]
pub struct DaySet {
    /// The rule as given.
    pub rule: ArrivalRange,
    /// Fewest arrivals of a day in the set (inclusive).
    pub min: usize,
    /// Most arrivals (inclusive).
    pub max: usize,
    /// Where the bounds come from, for reports (e.g. "Khemka et al. 2015,
    /// §5", "10th–90th percentile").
    pub source: String,
    /// The candidate days in range, in time order.
    pub eligible: Vec<DayWindow>,
    /// Candidate days of the log (in range or not).
    pub candidates: usize,
}

impl DaySet {
    /// `n` days evenly spaced over the days in range (all of them when
    /// there are fewer than `n`).
    pub fn select(&self, n: usize) -> Vec<DayWindow> {
        let total = self.eligible.len();
        if n >= total {
            return self.eligible.clone();
        }
        (0..n)
            .map(|i| self.eligible[(2 * i + 1) * total / (2 * n)].clone())
            .collect()
    }

    /// One line for reports: `48 of 289 days with 897–2,904 arrivals
    /// (Khemka et al. 2015, §5)`.
    pub fn describe(&self, chosen: usize) -> String {
        format!(
            "{chosen} of {} candidate days with {}–{} arrivals ({})",
            self.eligible.len(),
            self.min,
            self.max,
            self.source
        )
    }
}

/// Nearest-rank percentile `p` (0..=100) of ascending `sorted` (non-empty).
fn percentile(sorted: &[usize], p: u8) -> usize {
    let rank = (f64::from(p) / 100.0 * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

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
        let mut arrivals: Vec<f64> = Vec::with_capacity(log.jobs.len());
        let mut wide: Vec<f64> = Vec::new();
        for j in log.jobs.iter().filter(|j| j.submit_time.is_finite()) {
            arrivals.push(j.submit_time);
            if j.processors() > MAX_TASK_CORES {
                wide.push(j.submit_time);
            }
        }
        arrivals.sort_by(f64::total_cmp);
        wide.sort_by(f64::total_cmp);
        let clock = LogClock::new(log.header.unix_start_time(), log.header.time_zone_string());
        let candidates = candidate_days(&clock, &jobs, &arrivals, &wide);
        let known = crate::catalog::recognise(log);
        Workload {
            name: log.name.clone(),
            jobs,
            filter,
            max_procs,
            max_run_time,
            candidates,
            known,
            is_curie: known.is_some_and(|k| k.is("curie")),
            clock,
        }
    }

    /// The candidate days in `range`, resolved for this log.
    pub fn day_set(&self, range: ArrivalRange) -> DaySet {
        let (min, max, source) = match range {
            ArrivalRange::Standard if self.is_curie => (
                CURIE_PAPER_RANGE.0,
                CURIE_PAPER_RANGE.1,
                "the paper's range for Curie, Khemka et al. 2015, §5".to_string(),
            ),
            ArrivalRange::Standard => self.percentile_bounds(10, 90),
            ArrivalRange::Percentiles { lo, hi } => self.percentile_bounds(lo, hi),
            ArrivalRange::Counts { min, max } => (min, max, "as given".to_string()),
            ArrivalRange::Any => (1, usize::MAX, "every candidate day".to_string()),
        };
        let eligible = self
            .candidates
            .iter()
            .filter(|d| (min..=max).contains(&d.arrivals))
            .cloned()
            .collect();
        DaySet {
            rule: range,
            min,
            max,
            source,
            eligible,
            candidates: self.candidates.len(),
        }
    }

    fn percentile_bounds(&self, lo: u8, hi: u8) -> (usize, usize, String) {
        let mut counts: Vec<usize> = self.candidates.iter().map(|d| d.arrivals).collect();
        counts.sort_unstable();
        let source = format!(
            "{lo}th–{hi}th percentile of the log's {} candidate days",
            counts.len()
        );
        if counts.is_empty() {
            return (1, 0, source);
        }
        (percentile(&counts, lo), percentile(&counts, hi), source)
    }

    /// Why the log has no candidate day, in one sentence (for errors):
    /// no usable job at all, or the span its usable jobs cover.
    pub fn why_no_days(&self) -> String {
        let (Some(first), Some(last)) = (self.jobs.first(), self.jobs.last()) else {
            let reasons = self.filter.removed_by_reason();
            return format!(
                "none of its {} jobs is usable in environment A{}",
                self.filter.input,
                if reasons.is_empty() {
                    String::new()
                } else {
                    format!(" (removed: {reasons})")
                }
            );
        };
        let at = |t: f64| self.clock.format(t).unwrap_or_else(|| format!("{t:.0} s"));
        format!(
            "its usable jobs run from {} to {} ({:.1} h); a day needs 4 h of log \
             before its midnight and log after its end, so at least 28 h across a midnight",
            at(first.submit_time),
            at(last.submit_time),
            (last.submit_time - first.submit_time) / 3600.0
        )
    }

    /// The candidate day named `date` (`YYYY-MM-DD`, or `day-N` for a log
    /// without `UnixStartTime`).
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

/// Number of times in ascending `sorted` that lie in `[from, to)`.
fn count_between(sorted: &[f64], from: f64, to: f64) -> usize {
    sorted.partition_point(|&t| t < to) - sorted.partition_point(|&t| t < from)
}

/// The candidate days: one calendar conversion per day that has arrivals,
/// so a log spanning any number of empty days costs nothing for them.
fn candidate_days(
    clock: &LogClock,
    jobs: &[SimJob],
    arrivals: &[f64],
    wide: &[f64],
) -> Vec<DayWindow> {
    let (Some(first), Some(last)) = (jobs.first(), jobs.last()) else {
        return Vec::new();
    };
    let (first, last) = (first.submit_time, last.submit_time);
    let mut out = Vec::new();
    let mut i = 0;
    while i < arrivals.len() {
        let (Some(d), t) = (clock.day_number(arrivals[i]), arrivals[i]) else {
            i += 1;
            continue;
        };
        let (Some(start), Some(next)) = (clock.midnight(d), clock.midnight(d + 1)) else {
            i += 1;
            continue;
        };
        let end = start + DAY_SECONDS;
        if start - WARMUP_SECONDS >= first && end <= last {
            let lo = jobs.partition_point(|j| j.submit_time < start);
            let hi = jobs.partition_point(|j| j.submit_time < end);
            if hi > lo {
                out.push(DayWindow {
                    date: clock.day_label(d),
                    start,
                    jobs: hi - lo,
                    arrivals: count_between(arrivals, start, end),
                    wide: count_between(wide, start, end),
                });
            }
        }
        // The next day with an arrival (never this one again).
        let skip_to = next.max(t.next_up());
        i += arrivals[i..].partition_point(|&x| x < skip_to);
    }
    out
}

/// Number of standard days per log (Khemka et al. 2015, §5: 48 days).
pub const STANDARD_DAYS: usize = 48;
/// Default day of a replay: the middle one of the standard 48.
pub const DEFAULT_DAY: usize = 24;

/// A day that cannot be replayed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DayError {
    /// The log has no candidate day at all.
    #[error("{log}: no day of this log can be replayed: {why}")]
    NoDays {
        /// The log's file name.
        log: String,
        /// Why (no usable job, or the span the log covers).
        why: String,
    },
    /// No candidate day has an arrival count in the range.
    #[error(
        "{log}: no day has {min}–{max} arrivals ({source_}); its {candidates} candidate days have \
         {lowest}–{highest}: give another --day-arrivals (e.g. `any`)"
    )]
    EmptyRange {
        /// The log's file name.
        log: String,
        /// Fewest arrivals asked for.
        min: usize,
        /// Most arrivals asked for.
        max: usize,
        /// Where the range comes from.
        source_: String,
        /// Candidate days of the log.
        candidates: usize,
        /// Fewest arrivals of a candidate day.
        lowest: usize,
        /// Most arrivals of a candidate day.
        highest: usize,
    },
    /// `--days 0`.
    #[error("--days must be at least 1")]
    ZeroDays,
    /// More days asked for than the range holds.
    #[error(
        "--days {asked}: {log} has only {} with {} arrivals; \
         give --days {available} or fewer, or widen --day-arrivals",
        crate::words::count(*available as u64, "day", "days"),
        crate::words::range(min, max)
    )]
    TooManyDays {
        /// The log's file name.
        log: String,
        /// Days asked for.
        asked: usize,
        /// Days in range.
        available: usize,
        /// Fewest arrivals of the range.
        min: usize,
        /// Most arrivals of the range.
        max: usize,
    },
    /// A day index past the standard days.
    #[error("--day {index}: this log has {count} standard days (0..{})", count - 1)]
    Index {
        /// The index given.
        index: usize,
        /// Standard days of the log.
        count: usize,
    },
    /// Text that is neither an index nor a calendar date.
    #[error(
        "--day {given}: not a day: give an index 0..47 into the standard days or a date YYYY-MM-DD{hint}"
    )]
    NotADate {
        /// The text given.
        given: String,
        /// What is wrong with it, when it looks like a date.
        hint: String,
    },
    /// A date that is not a candidate day.
    #[error(
        "{date}: not a usable day of {log} (usable days run {first} .. {last}; a day needs 4 h of log before it, log after it and at least one usable job)"
    )]
    Date {
        /// The log's file name.
        log: String,
        /// The date given.
        date: String,
        /// First candidate day.
        first: String,
        /// Last candidate day.
        last: String,
    },
}

/// Which days a run asks for.
#[derive(Debug, Clone, Copy)]
pub enum DayPick<'a> {
    /// `--day`: an index into the standard days or a date; `None` for the
    /// default day ([`DEFAULT_DAY`] of the standard set).
    One(Option<&'a str>),
    /// `--days N`: N days evenly spaced over the days in range.
    Count(usize),
    /// Explicit dates (an experiment's `dates`), each a candidate day.
    Dates(&'a [String]),
}

/// The days of a run of `w`: the day set of `range` and the chosen days,
/// in time order.
///
/// # Errors
/// [`DayError`]: no candidate day, no day in range, `--days 0` or more
/// days than the range holds, an index out of range, text that is not a
/// date, or a date that is not a candidate day.
pub fn pick_days(
    w: &Workload,
    pick: DayPick<'_>,
    range: ArrivalRange,
) -> Result<(DaySet, Vec<DayWindow>), DayError> {
    let (Some(first), Some(last)) = (w.candidates.first(), w.candidates.last()) else {
        return Err(DayError::NoDays {
            log: w.name.clone(),
            why: w.why_no_days(),
        });
    };
    let set = w.day_set(range);
    let by_date = |d: &str| {
        w.day_by_date(d).ok_or_else(|| DayError::Date {
            log: w.name.clone(),
            date: d.to_string(),
            first: first.date.clone(),
            last: last.date.clone(),
        })
    };
    if let DayPick::Dates(dates) = pick {
        let mut out: Vec<DayWindow> = Vec::new();
        for d in dates {
            let day = by_date(d)?;
            if !out.contains(&day) {
                out.push(day);
            }
        }
        out.sort_by(|a, b| a.start.total_cmp(&b.start));
        return Ok((set, out));
    }
    if let DayPick::One(Some(d)) = pick
        && d.parse::<usize>().is_err()
    {
        check_date(d)?;
        let day = by_date(d)?;
        return Ok((set, vec![day]));
    }
    if set.eligible.is_empty() {
        let lowest = w.candidates.iter().map(|d| d.arrivals).min().unwrap_or(0);
        let highest = w.candidates.iter().map(|d| d.arrivals).max().unwrap_or(0);
        return Err(DayError::EmptyRange {
            log: w.name.clone(),
            min: set.min,
            max: set.max,
            source_: set.source.clone(),
            candidates: w.candidates.len(),
            lowest,
            highest,
        });
    }
    let days = match pick {
        DayPick::Count(0) => return Err(DayError::ZeroDays),
        DayPick::Count(n) if n > set.eligible.len() => {
            return Err(DayError::TooManyDays {
                log: w.name.clone(),
                asked: n,
                available: set.eligible.len(),
                min: set.min,
                max: set.max,
            });
        }
        DayPick::Count(n) => set.select(n),
        DayPick::One(index) => {
            let standard = set.select(STANDARD_DAYS);
            let index = match index {
                None => DEFAULT_DAY.min(standard.len() - 1),
                Some(text) => text.parse::<usize>().unwrap_or(usize::MAX),
            };
            let day = standard.get(index).cloned().ok_or(DayError::Index {
                index,
                count: standard.len(),
            })?;
            vec![day]
        }
        DayPick::Dates(_) => unreachable!("handled above"),
    };
    Ok((set, days))
}

/// Refuses `--day` text that is not a date a calendar has (`2097-02-30`)
/// or not in `YYYY-MM-DD` / `day-N` form.
fn check_date(d: &str) -> Result<(), DayError> {
    if d.strip_prefix("day-")
        .is_some_and(|n| n.parse::<i64>().is_ok())
    {
        return Ok(());
    }
    match d.parse::<jiff::civil::Date>() {
        Ok(_) => Ok(()),
        Err(e) => Err(DayError::NotADate {
            given: d.to_string(),
            hint: if d.len() == 10 && d.as_bytes()[4] == b'-' {
                format!(" ({e})")
            } else {
                String::new()
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrival_ranges_parse_and_print_back() {
        for s in ["standard", "any", "897-2904", "p10-p90", "p0-p100", "1-1"] {
            assert_eq!(s.parse::<ArrivalRange>().unwrap().to_string(), s);
        }
        for bad in [
            "", "10", "p10-90", "5-3", "p90-p10", "p10-p101", "0-0", "a-b",
        ] {
            assert!(bad.parse::<ArrivalRange>().is_err(), "{bad}");
        }
    }

    #[test]
    fn nearest_rank_percentiles() {
        let v = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(percentile(&v, 0), 1);
        assert_eq!(percentile(&v, 10), 1);
        assert_eq!(percentile(&v, 11), 2);
        assert_eq!(percentile(&v, 90), 9);
        assert_eq!(percentile(&v, 100), 10);
    }
}
