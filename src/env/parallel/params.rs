//! The command-line parameters of environment A, as one clap argument
//! group shown under its own heading in `--help`. Every flag is optional so
//! that a flag given with another environment can be named and refused
//! ([`ParallelArgs::given`]); the defaults are applied here.

use crate::workload::{
    ArrivalRange, Correlation, DaySet, DayWindow, Heterogeneity, Oversubscription, ScenarioParams,
    Workload,
};

/// Number of standard days per log (Khemka et al. 2015, §5: 48 days).
pub const STANDARD_DAYS: usize = 48;
/// Default day of a replay: the middle one of the standard 48.
pub const DEFAULT_DAY: usize = 24;

/// Parses `--seed`: a clear message for anything that is not a 64-bit
/// non-negative integer (`-1` included, which clap would otherwise take
/// for a flag).
fn parse_seed(s: &str) -> Result<u64, String> {
    s.parse()
        .map_err(|_| "--seed takes a non-negative integer, 0 to 18446744073709551615".to_string())
}

/// Default user seed.
pub const DEFAULT_SEED: u64 = 1;

/// Flags of environment A (`--env parallel`).
#[derive(Debug, Clone, Default, clap::Args, serde::Serialize)]
#[command(
    next_help_heading = "Environment A: --env parallel (value-based, heterogeneous clusters)"
)]
pub struct ParallelArgs {
    /// One day: an index 0..47 into the 48 standard days of the log, or a date YYYY-MM-DD [default: 24, replay only].
    #[arg(long, allow_hyphen_values = true, conflicts_with = "days")]
    pub day: Option<String>,
    /// N days evenly spaced over the days in range (48 = the standard set) [compare default: 48].
    #[arg(long, allow_hyphen_values = true)]
    pub days: Option<usize>,
    /// Days that may enter the set, by their number of arrivals (every job submitted that day): `standard` (Curie: 897-2904, the paper's range; other logs: p10-p90), `any`, MIN-MAX, or percentiles pLO-pHI [default: standard].
    #[arg(long, allow_hyphen_values = true, value_name = "RANGE")]
    pub day_arrivals: Option<ArrivalRange>,
    /// Seed of every random draw (system, ETC, values): 0 to 18446744073709551615 [default: 1].
    #[arg(long, allow_hyphen_values = true, value_parser = parse_seed)]
    pub seed: Option<u64>,
    /// System size: lower = 25 %, intermediate = 20 %, higher = 15 % of the log's MaxProcs [default: intermediate].
    #[arg(long, value_enum)]
    pub oversubscription: Option<Oversubscription>,
    /// Correlation of starting value with execution time [default: weak].
    #[arg(long, value_enum)]
    pub correlation: Option<Correlation>,
    /// ETC heterogeneity: low = COV 0.01, intermediate = 0.3, high = 1.0 [default: intermediate].
    #[arg(long, value_enum)]
    pub heterogeneity: Option<Heterogeneity>,
    /// Base of the system size in cores [default: the log's MaxProcs].
    #[arg(long, allow_hyphen_values = true)]
    pub cores_base: Option<f64>,
}

impl ParallelArgs {
    /// The flags given on the command line, as `--name`.
    pub fn given(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let mut add = |set: bool, name: &'static str| {
            if set {
                out.push(name);
            }
        };
        add(self.day.is_some(), "--day");
        add(self.days.is_some(), "--days");
        add(self.day_arrivals.is_some(), "--day-arrivals");
        add(self.seed.is_some(), "--seed");
        add(self.oversubscription.is_some(), "--oversubscription");
        add(self.correlation.is_some(), "--correlation");
        add(self.heterogeneity.is_some(), "--heterogeneity");
        add(self.cores_base.is_some(), "--cores-base");
        out
    }

    /// The user seed (default [`DEFAULT_SEED`]).
    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(DEFAULT_SEED)
    }

    /// The scenario parameters these flags give, defaults filled in.
    pub fn scenario_params(&self) -> ScenarioParams {
        let d = ScenarioParams::default();
        ScenarioParams {
            oversubscription: self.oversubscription.unwrap_or(d.oversubscription),
            correlation: self.correlation.unwrap_or(d.correlation),
            heterogeneity: self.heterogeneity.unwrap_or(d.heterogeneity),
            cores_base: self.cores_base,
        }
    }
}

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
        "--days {asked}: {log} has only {available} days with {min}–{max} arrivals; \
         give --days {available} or fewer, or widen --day-arrivals"
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

/// A short label of a variant of environment A: `default`, or its
/// non-default levels, e.g. `oversubscription=higher` or
/// `correlation=none,heterogeneity=high` (the `variant` column of the tables).
pub fn variant_label(p: &ScenarioParams) -> String {
    let d = ScenarioParams::default();
    let mut parts = Vec::new();
    if p.oversubscription != d.oversubscription {
        parts.push(format!("oversubscription={}", p.oversubscription));
    }
    if p.correlation != d.correlation {
        parts.push(format!("correlation={}", p.correlation));
    }
    if p.heterogeneity != d.heterogeneity {
        parts.push(format!("heterogeneity={}", p.heterogeneity));
    }
    if parts.is_empty() {
        "default".to_string()
    } else {
        parts.join(",")
    }
}

/// A system size environment A cannot build for a log, with where the size
/// comes from and what to give instead.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error(
    "{log}: {problem}: oversubscription {level} takes {percent} % of {base} cores ({from}); \
     give --cores-base (config: cores_base) between {lowest:.0} and {highest:.0}"
)]
pub struct SystemSizeRefused {
    /// The log's file name.
    pub log: String,
    /// What is wrong with the size.
    pub problem: crate::model::system::SystemSizeError,
    /// The oversubscription level.
    pub level: Oversubscription,
    /// Its share of the base, %.
    pub percent: f64,
    /// The base, cores.
    pub base: f64,
    /// Where the base comes from (`--cores-base`, or the log's MaxProcs).
    pub from: &'static str,
    /// Smallest base that works at this level, cores.
    pub lowest: f64,
    /// Largest base that works at this level, cores.
    pub highest: f64,
}

/// Checks, before any work, that environment A can build the systems of
/// `w` under `p` (see [`crate::model::system::check_size`]).
///
/// # Errors
/// [`SystemSizeRefused`], naming the log, the level, the base and the
/// range of bases that work.
pub fn check_system_size(w: &Workload, p: &ScenarioParams) -> Result<(), SystemSizeRefused> {
    use crate::model::system::{MAX_SYSTEM_CORES, MIN_SYSTEM_CORES, check_size};
    let fraction = p.oversubscription.fraction();
    check_size(p.target_cores(w)).map_err(|problem| SystemSizeRefused {
        log: w.name.clone(),
        problem,
        level: p.oversubscription,
        percent: 100.0 * fraction,
        base: p.cores_base.unwrap_or(w.max_procs),
        from: if p.cores_base.is_some() {
            "--cores-base"
        } else {
            "the log's MaxProcs, or its widest job when the header has none"
        },
        lowest: (MIN_SYSTEM_CORES / fraction).ceil(),
        highest: (MAX_SYSTEM_CORES / fraction).floor(),
    })
}
