//! `swftool info LOG...`: what is in an SWF log.
//!
//! For each log (a short name such as `curie`, a file name found in the
//! trace directories, or a path; see [`crate::catalog::resolve`]) it prints
//! the header summary, the number of jobs, the time span with local dates,
//! the distributions of job size and run time, jobs per day, the simulation
//! filter report (docs/parallel.md; both without a size limit and with the 4,096-core
//! limit of environment A) and, in lenient mode, what was skipped.
//!
//! The numbers are computed by [`summarize`] into a [`LogSummary`] (plain
//! data, testable); [`LogSummary`]'s `Display` is the text that is printed.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;

use anyhow::Context;
use clap::Args;

use crate::catalog;
use crate::model::calendar::LogClock;
use crate::swf::{
    FilterReport, JobRecord, OrderReport, ReadOptions, SkipReport, SwfLog, filter_report, read_log,
};
use crate::units::SECONDS_PER_DAY;
use crate::workload::days::MAX_TASK_CORES;

/// Summarise SWF logs: header, jobs, time span, size and run-time
/// distributions, jobs per day and the simulation filter.
#[derive(Debug, Clone, Args)]
pub struct InfoArgs {
    /// Logs to describe: short names (curie, datastar, sdsc-sp2, hpc2n,
    /// ctc-sp2, kth-sp2, lublin256), file names in the trace directories
    /// ($SWFTOOL_TRACES, ./traces, ../shared/traces, the user cache) or
    /// paths (.swf or .swf.gz).
    #[arg(value_name = "LOG", required = true, num_args = 1..)]
    pub logs: Vec<String>,
    /// Skip malformed lines (and report how many of each kind) instead of
    /// stopping at the first one.
    #[arg(long)]
    pub lenient: bool,
}

/// Runs `swftool info`: prints one summary per log to standard output.
///
/// # Errors
/// A log that cannot be found ([`catalog::CatalogError`]) or read
/// ([`crate::swf::SwfError`]), or a failure writing to standard output.
pub fn run(args: &InfoArgs) -> anyhow::Result<()> {
    let opts = ReadOptions {
        lenient: args.lenient,
    };
    let stdout = std::io::stdout();
    for (i, log_name) in args.logs.iter().enumerate() {
        let path = catalog::resolve(log_name)?;
        let log = read_log(&path, &opts)?;
        let summary = summarize(&log);
        let mut out = stdout.lock();
        if i > 0 {
            writeln!(out)?;
        }
        let mut title = format!("{} ({})", summary.name, path.display());
        if let Some(r) = catalog::recognise(&log) {
            let k = r.known;
            let by = match r.by {
                catalog::RecognisedBy::Content => "recognised by content",
                catalog::RecognisedBy::Name => "by its file name only",
            };
            title.push_str(&format!("\n{}: {} ({by})", k.short, k.description));
            if r.by == catalog::RecognisedBy::Name {
                title.push_str(&format!(
                    "\nwarning: this file's content is not the catalogue's {} (the sha256 of \
                     its decompressed text, below, is not {}){}; it is taken as {} for its name",
                    k.file,
                    k.sha256_raw,
                    if k.jobs == summary.jobs {
                        String::new()
                    } else {
                        format!(", {} jobs (catalogue: {})", summary.jobs, k.jobs)
                    },
                    k.short
                ));
            }
        }
        if let Some(h) = &log.sha256 {
            title.push_str(&format!("\nsha256 {h} (of the decompressed text)"));
        }
        writeln!(out, "{title}")
            .and_then(|()| write!(out, "{summary}"))
            .and_then(|()| out.flush())
            .context("writing to standard output")?;
    }
    Ok(())
}

/// Order statistics of a set of values (nearest-rank percentiles: the
/// p-th percentile is the ⌈p·n⌉-th smallest value).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Distribution {
    /// Number of values.
    pub count: u64,
    /// Smallest value.
    pub min: f64,
    /// 25th percentile.
    pub p25: f64,
    /// 50th percentile (nearest rank: the lower middle for even counts).
    pub median: f64,
    /// 75th percentile.
    pub p75: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// Largest value.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
}

impl Distribution {
    /// The distribution of `values` (sorted in place); `None` when empty.
    pub fn of(values: &mut [f64]) -> Option<Distribution> {
        if values.is_empty() {
            return None;
        }
        // A total order: the unstable sort gives the same values in order.
        values.sort_unstable_by(f64::total_cmp);
        let n = values.len();
        let rank = |p: f64| -> f64 {
            let k = (p * n as f64).ceil() as usize;
            values[k.clamp(1, n) - 1]
        };
        Some(Distribution {
            count: n as u64,
            min: values[0],
            p25: rank(0.25),
            median: rank(0.5),
            p75: rank(0.75),
            p90: rank(0.90),
            p99: rank(0.99),
            max: values[n - 1],
            mean: values.iter().sum::<f64>() / n as f64,
        })
    }
}

/// Jobs submitted per calendar day, over every day from the first to the
/// last submission (days without a submission count as 0).
#[derive(Debug, Clone, PartialEq)]
pub struct DailyCounts {
    /// Number of days from the first to the last day with a submission, inclusive.
    pub days: u64,
    /// Mean jobs per day.
    pub mean: f64,
    /// Median jobs per day (nearest rank, zeros included).
    pub median: u64,
    /// Largest number of jobs submitted in one day.
    pub max: u64,
    /// The (first) day with the most submissions: a local date
    /// (`2012-05-14`) or, without `UnixStartTime`, `day N (no UnixStartTime:
    /// days counted from relative time 0)`.
    pub max_day: String,
}

/// Everything `swftool info` reports about one log.
#[derive(Debug, Clone, PartialEq)]
pub struct LogSummary {
    /// File name.
    pub name: String,
    /// `(key, value)` rows of the header summary, in display order; absent
    /// keys have the value `-`.
    pub header: Vec<(&'static str, String)>,
    /// Number of jobs (data lines parsed).
    pub jobs: u64,
    /// Blank lines in the file.
    pub blank_lines: u64,
    /// Submit times that go backwards, repeated job numbers.
    pub order: OrderReport,
    /// Smallest submit time, seconds from `UnixStartTime`.
    pub first_submit: Option<f64>,
    /// Largest submit time, seconds from `UnixStartTime`.
    pub last_submit: Option<f64>,
    /// Local date and time of the first submission (`2012-02-03 00:00:37 CET`).
    pub first_date: Option<String>,
    /// Local date and time of the last submission.
    pub last_date: Option<String>,
    /// Name of the zone the dates are in (`Europe/Paris`, or `UTC`).
    pub zone: String,
    /// Why the dates are not in the log's own zone, or are missing.
    pub zone_note: Option<String>,
    /// `(last_submit - first_submit) / 86400`.
    pub span_days: Option<f64>,
    /// Job size: processors ([`crate::swf::JobRecord::processors`]) of jobs with a known size.
    pub size: Option<Distribution>,
    /// Jobs whose size is unknown (≤ 0), not in `size`.
    pub size_unknown: u64,
    /// Run time (seconds) of jobs with a known run time (≥ 0).
    pub run_time: Option<Distribution>,
    /// Jobs whose run time is unknown (< 0), not in `run_time`.
    pub run_time_unknown: u64,
    /// Submissions per calendar day (local days when the zone is known).
    pub per_day: Option<DailyCounts>,
    /// The simulation filter without a size limit (docs/parallel.md, "Which jobs are used").
    pub filter: FilterReport,
    /// The simulation filter with environment A's 4,096-processor limit.
    pub filter_env_a: FilterReport,
    /// Lines skipped in lenient mode.
    pub skipped: SkipReport,
    /// What reading Slurm accounting did (a sacct file).
    pub sacct: Option<crate::swf::sacct::SacctReport>,
}

fn daily_counts(log: &SwfLog, clock: &LogClock) -> Option<DailyCounts> {
    let mut per_day: BTreeMap<i64, u64> = BTreeMap::new();
    let mut finder = clock.day_finder();
    // Submit times come mostly in order: a run of jobs on one day is
    // counted, then added at once.
    let mut run: Option<(i64, u64)> = None;
    for job in &log.jobs {
        let Some(day) = finder.day(job.submit_time) else {
            continue;
        };
        match &mut run {
            Some((d, n)) if *d == day => *n += 1,
            _ => {
                if let Some((d, n)) = run.replace((day, 1)) {
                    *per_day.entry(d).or_insert(0) += n;
                }
            }
        }
    }
    if let Some((d, n)) = run {
        *per_day.entry(d).or_insert(0) += n;
    }
    let (&first, _) = per_day.first_key_value()?;
    let (&last, _) = per_day.last_key_value()?;
    let days = (last - first + 1) as u64;
    let total: u64 = per_day.values().sum();
    let (max_key, max) = per_day.iter().fold(
        (first, 0u64),
        |best, (&d, &n)| if n > best.1 { (d, n) } else { best },
    );
    // Median over all days, zeros included: zeros sort first.
    let mut nonzero: Vec<u64> = per_day.values().copied().collect();
    nonzero.sort_unstable();
    let zeros = days - nonzero.len() as u64;
    let k = ((days as f64) * 0.5).ceil().max(1.0) as u64; // 1-based rank
    let median = if k <= zeros {
        0
    } else {
        nonzero[(k - zeros - 1) as usize]
    };
    let max_day = match clock.origin {
        Some(_) => LogClock::date_of_day_number(max_key),
        None => format!("day {max_key} (no UnixStartTime: days counted from relative time 0)"),
    };
    Some(DailyCounts {
        days,
        mean: total as f64 / days as f64,
        median,
        max,
        max_day,
    })
}

fn header_rows(log: &SwfLog) -> Vec<(&'static str, String)> {
    let h = &log.header;
    let val = |key: &str| {
        h.get(key)
            .map_or_else(|| "-".to_string(), |v| v.raw.replace('\n', " "))
    };
    let listed = |n: usize, max_key: &str| match h.get(max_key) {
        Some(v) => format!("{n} listed ({max_key} {})", v.raw),
        None => format!("{n} listed"),
    };
    vec![
        ("Version", val("Version")),
        ("Computer", val("Computer")),
        ("Installation", val("Installation")),
        ("MaxNodes", val("MaxNodes")),
        ("MaxProcs", val("MaxProcs")),
        ("MaxJobs", val("MaxJobs")),
        ("MaxRecords", val("MaxRecords")),
        ("UnixStartTime", val("UnixStartTime")),
        ("TimeZoneString", val("TimeZoneString")),
        ("Queues", listed(h.queue_list.len(), "MaxQueues")),
        (
            "Partitions",
            listed(h.partition_list.len(), "MaxPartitions"),
        ),
        ("Notes", h.notes.len().to_string()),
    ]
}

/// Computes the summary of a parsed log (no I/O).
pub fn summarize(log: &SwfLog) -> LogSummary {
    let clock = LogClock::new(log.header.unix_start_time(), log.header.time_zone_string());
    let (mut zone, mut zone_note) = (clock.zone_name.clone(), clock.note.clone());
    if clock.origin.is_none() {
        zone = "-".into();
        zone_note = Some(
            "no UnixStartTime in the header: no dates; days counted from relative time 0".into(),
        );
    }
    let submits = log
        .jobs
        .iter()
        .map(|j| j.submit_time)
        .filter(|s| s.is_finite());
    let first_submit = submits.clone().reduce(f64::min);
    let last_submit = submits.reduce(f64::max);
    let local = |s: Option<f64>| clock.format(s?);
    // Three independent parts, on the thread pool.
    let ((size, size_unknown, run_time, run_time_unknown), (per_day, (filter, filter_env_a))) =
        rayon::join(
            || distributions(&log.jobs),
            || {
                rayon::join(
                    || daily_counts(log, &clock),
                    || {
                        (
                            filter_report(&log.jobs, None),
                            filter_report(&log.jobs, Some(MAX_TASK_CORES)),
                        )
                    },
                )
            },
        );
    LogSummary {
        name: log.name.clone(),
        header: header_rows(log),
        jobs: log.jobs.len() as u64,
        blank_lines: log.blank_lines,
        order: log.order,
        first_submit,
        last_submit,
        first_date: local(first_submit),
        last_date: local(last_submit),
        zone,
        zone_note,
        span_days: first_submit
            .zip(last_submit)
            .map(|(a, b)| (b - a) / SECONDS_PER_DAY),
        size,
        size_unknown,
        run_time,
        run_time_unknown,
        per_day,
        filter,
        filter_env_a,
        skipped: log.skipped.clone(),
        sacct: log.sacct.clone(),
    }
}

/// The distributions of job size (processors, > 0) and run time (s, ≥ 0)
/// of `jobs`, each with the number of jobs it leaves out as unknown.
fn distributions(jobs: &[JobRecord]) -> (Option<Distribution>, u64, Option<Distribution>, u64) {
    let mut sizes: Vec<f64> = Vec::with_capacity(jobs.len());
    let mut runs: Vec<f64> = Vec::with_capacity(jobs.len());
    for j in jobs {
        let p = j.processors();
        if p > 0 {
            sizes.push(p as f64);
        }
        if j.run_time >= 0.0 {
            runs.push(j.run_time);
        }
    }
    let n = jobs.len() as u64;
    let (size_unknown, run_time_unknown) = (n - sizes.len() as u64, n - runs.len() as u64);
    (
        Distribution::of(&mut sizes),
        size_unknown,
        Distribution::of(&mut runs),
        run_time_unknown,
    )
}

/// A number as an integer when integral, else with two decimals.
fn num(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// Writes rows as columns, right-aligned except the first column when
/// `label_column` is set.
fn write_table(
    f: &mut fmt::Formatter<'_>,
    rows: &[Vec<String>],
    label_column: bool,
) -> fmt::Result {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let mut line = String::from("  ");
        for (c, cell) in row.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c == 0 && label_column {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                if c > 0 {
                    line.push_str("  ");
                }
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        writeln!(f, "{}", line.trim_end())?;
    }
    Ok(())
}

const LABEL: usize = 16;

/// `1 job`, `2 jobs`.
fn jobs(n: u64) -> String {
    if n == 1 {
        "1 job".to_string()
    } else {
        format!("{n} jobs")
    }
}

impl LogSummary {
    /// When nothing in the log can be replayed, why: `no job: …` or `no
    /// usable job for replay: …` with the filter's counts by reason.
    pub fn no_usable_job(&self) -> Option<String> {
        if self.jobs == 0 {
            return Some("no job: the log has no data line (nothing to replay)".to_string());
        }
        if self.filter.kept > 0 {
            return None;
        }
        Some(format!(
            "no usable job for replay: the simulation filter removes all {} ({})",
            jobs(self.jobs),
            self.filter.removed_by_reason()
        ))
    }
}

impl fmt::Display for LogSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Header")?;
        for (k, v) in &self.header {
            writeln!(f, "  {k:<LABEL$} {v}")?;
        }

        writeln!(f, "Jobs")?;
        writeln!(f, "  {:<LABEL$} {}", "data lines", self.jobs)?;
        if self.blank_lines > 0 {
            writeln!(f, "  {:<LABEL$} {}", "blank lines", self.blank_lines)?;
        }
        if !self.order.is_empty() {
            writeln!(f, "  {:<LABEL$} {}", "out of order", self.order)?;
        }
        if let Some(problem) = self.no_usable_job() {
            writeln!(f, "  {problem}")?;
        }

        writeln!(f, "Time span")?;
        let width = [self.first_submit, self.last_submit]
            .iter()
            .flatten()
            .map(|s| num(*s).len())
            .max()
            .unwrap_or(0);
        let when = |s: Option<f64>, d: &Option<String>| match (s, d) {
            (Some(s), Some(d)) => format!("{:>width$} s  {d}", num(s)),
            (Some(s), None) => format!("{:>width$} s", num(s)),
            _ => "-".to_string(),
        };
        writeln!(
            f,
            "  {:<LABEL$} {}",
            "first submit",
            when(self.first_submit, &self.first_date)
        )?;
        writeln!(
            f,
            "  {:<LABEL$} {}",
            "last submit",
            when(self.last_submit, &self.last_date)
        )?;
        if let Some(d) = self.span_days {
            writeln!(
                f,
                "  {:<LABEL$} {}",
                "span",
                crate::words::span(d * SECONDS_PER_DAY)
            )?;
        }
        writeln!(f, "  {:<LABEL$} {}", "dates in zone", self.zone)?;
        if let Some(n) = &self.zone_note {
            writeln!(f, "  note: {n}")?;
        }

        writeln!(f, "Distributions (nearest-rank percentiles)")?;
        let mut rows = vec![
            [
                "", "jobs", "min", "p25", "median", "p75", "p90", "p99", "max", "mean",
            ]
            .map(String::from)
            .to_vec(),
        ];
        for (label, d) in [
            ("size (processors)", &self.size),
            ("run time (s)", &self.run_time),
        ] {
            match d {
                Some(d) => rows.push(vec![
                    label.to_string(),
                    d.count.to_string(),
                    num(d.min),
                    num(d.p25),
                    num(d.median),
                    num(d.p75),
                    num(d.p90),
                    num(d.p99),
                    num(d.max),
                    format!("{:.1}", d.mean),
                ]),
                None => rows.push(vec![label.to_string(), "0".to_string()]),
            }
        }
        write_table(f, &rows, true)?;
        if self.size_unknown > 0 || self.run_time_unknown > 0 {
            writeln!(
                f,
                "  (not counted: {} of unknown size, {} of unknown run time)",
                jobs(self.size_unknown),
                jobs(self.run_time_unknown)
            )?;
        }

        writeln!(
            f,
            "Jobs per day (every calendar day from first to last submission)"
        )?;
        match &self.per_day {
            Some(d) => {
                let rows = vec![
                    ["days", "mean", "median", "max", "busiest day"]
                        .map(String::from)
                        .to_vec(),
                    vec![
                        d.days.to_string(),
                        format!("{:.1}", d.mean),
                        d.median.to_string(),
                        d.max.to_string(),
                        d.max_day.clone(),
                    ],
                ];
                write_table(f, &rows, false)?;
            }
            None => writeln!(f, "  -")?,
        }

        writeln!(
            f,
            "Simulation filter (submit ≥ 0, run time > 0, processors > 0)"
        )?;
        let indent = |r: &FilterReport| r.to_string().replace('\n', "\n  ");
        writeln!(f, "  {:<LABEL$} {}", "any size:", indent(&self.filter))?;
        writeln!(
            f,
            "  {:<LABEL$} {}",
            format!("≤ {MAX_TASK_CORES} procs:"),
            indent(&self.filter_env_a)
        )?;

        if !self.skipped.is_empty() {
            writeln!(f, "Lenient mode")?;
            writeln!(f, "  {}", self.skipped.to_string().replace('\n', "\n  "))?;
        }
        if let Some(s) = &self.sacct {
            writeln!(f, "Converted")?;
            writeln!(f, "  {}", s.to_string().replace('\n', "\n  "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swf::{ReadOptions, read_from};
    use std::io::Cursor;

    const LOG: &str = "; UnixStartTime: 1296571124
; TimeZoneString: Europe/Paris
; MaxProcs: 64
1 0 0 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1
2 60 0 0 2 -1 -1 2 20 -1 1 1 1 -1 1 1 -1 -1
3 86400 0 30 8 -1 -1 -1 20 -1 1 1 1 -1 1 1 -1 -1
4 259200 0 -1 -1 -1 -1 -1 20 -1 1 1 1 -1 1 1 -1 -1
5 259300 0 40 5000 -1 -1 5000 20 -1 1 1 1 -1 1 1 -1 -1
";

    fn log() -> SwfLog {
        read_from(Cursor::new(LOG), "t.swf", &ReadOptions::default()).unwrap()
    }

    #[test]
    fn distribution_uses_nearest_rank() {
        let mut v: Vec<f64> = (1..=100).map(f64::from).collect();
        let d = Distribution::of(&mut v).unwrap();
        assert_eq!(
            (d.min, d.p25, d.median, d.p90, d.p99, d.max),
            (1.0, 25.0, 50.0, 90.0, 99.0, 100.0)
        );
        assert_eq!(d.mean, 50.5);
        assert!(Distribution::of(&mut []).is_none());
    }

    #[test]
    fn summary_counts_jobs_dates_and_filters() {
        let s = summarize(&log());
        assert_eq!(s.jobs, 5);
        assert_eq!(s.first_date.as_deref(), Some("2011-02-01 15:38:44 CET"));
        assert_eq!(s.zone, "Europe/Paris");
        assert_eq!(s.span_days, Some(259300.0 / 86400.0));
        assert_eq!(s.size_unknown, 1);
        assert_eq!(s.run_time_unknown, 1);
        assert_eq!(s.size.unwrap().max, 5000.0);
        // Local days 02-01 (2 jobs), 02-02 (1), 02-03 (0), 02-04 (2).
        let d = s.per_day.clone().unwrap();
        assert_eq!((d.days, d.max, d.median), (4, 2, 1));
        assert_eq!(d.max_day, "2011-02-01");
        assert_eq!(s.filter.kept, 3);
        assert_eq!(s.filter.run_time_zero, 1);
        assert_eq!(s.filter.run_time_unknown, 1);
        assert_eq!(s.filter_env_a.kept, 2);
        assert_eq!(s.filter_env_a.too_many_processors, 1);
        let text = s.to_string();
        assert!(text.contains("MaxProcs         64"), "{text}");
    }

    fn summary_of(text: &str) -> LogSummary {
        summarize(&read_from(Cursor::new(text), "t.swf", &ReadOptions::default()).unwrap())
    }

    #[test]
    fn a_log_without_jobs_or_usable_jobs_says_so() {
        for text in ["", "; Version: 2.2\n; MaxProcs: 4\n"] {
            let s = summary_of(text);
            assert_eq!(
                s.no_usable_job().as_deref(),
                Some("no job: the log has no data line (nothing to replay)")
            );
            assert!(s.to_string().contains("no job: the log has no data line"));
        }
        let s = summary_of(
            "1 0 0 -1 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n2 5 0 -1 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n",
        );
        let text = s.to_string();
        assert!(
            text.contains("no usable job for replay: the simulation filter removes all 2 jobs (run time unknown (-1): 2)"),
            "{text}"
        );
        assert_eq!(summary_of(LOG).no_usable_job(), None);
    }

    #[test]
    fn days_without_a_calendar_say_where_they_count_from() {
        let s = summary_of(&LOG.replace("; UnixStartTime: 1296571124\n", ""));
        assert_eq!(
            s.per_day.unwrap().max_day,
            "day 0 (no UnixStartTime: days counted from relative time 0)"
        );
    }

    #[test]
    fn jobs_out_of_order_are_counted() {
        let s = summary_of(&format!(
            "{LOG}1 0 0 10 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n"
        ));
        let text = s.to_string();
        assert!(
            text.contains("out of order     1 submit time earlier than the line before (first at line 9); 1 repeated job number (job 1 is given more than once)"),
            "{text}"
        );
    }

    #[test]
    fn unknown_zone_falls_back_to_utc_and_says_so() {
        let text = LOG.replace("Europe/Paris", "Mars/Olympus");
        let log = read_from(Cursor::new(text), "t.swf", &ReadOptions::default()).unwrap();
        let s = summarize(&log);
        assert_eq!(s.zone, "UTC");
        assert!(s.zone_note.unwrap().contains("Mars/Olympus"));
        assert_eq!(s.first_date.as_deref(), Some("2011-02-01 14:38:44 UTC"));
    }
}
