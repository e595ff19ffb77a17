//! A synthetic trial of environment B on disk (`swftool synth serial`;
//! docs/serial.md, "Synthetic workload" and "Sidecar table"): an SWF log
//! that any SWF tool reads, plus a sidecar table `<stem>.tasks.csv` and
//! `<stem>.tasks.parquet` with what SWF cannot carry (task type, burst,
//! utility function, preemption flags, ETC on every cluster), keyed by job
//! number. [`read_synthetic`] rebuilds the exact [`SerialScenario`] from
//! the two.
//!
//! The SWF header records everything else: the system (cores per cluster),
//! the counted window, the mapping-event interval, the trial, the seeds,
//! every generation parameter and swftool's version, as `; Swftool…:`
//! lines (unknown keys, which every SWF reader keeps as free text).
//!
//! The format's frame is shared with environment C's trials
//! (`swftool synth energy`, [`crate::env::energy::synth_file`]): the
//! `; Swftool…:` keys common to both, the file names ([`SynthFiles`]), the
//! standard header lines, the one-processor job line, the writing of the
//! three files ([`write_files`]), reading header keys ([`HeaderKeys`]) and
//! the sidecar CSV ([`SidecarTable`], errors naming file and line), and
//! pairing the log's jobs with the sidecar's rows ([`pair_rows`]).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::workload::{SyntheticParams, WorkloadError};
use super::{SerialScenario, SerialTask, TaskType};
use crate::metrics::tables::{TableError, write_both};
use crate::model::utility::{Shape, Urgency, UtilitySpec};
use crate::swf::{self, JobRecord, SwfHeader};

/// Header key: the swftool version that wrote the file.
pub const KEY_VERSION: &str = "SwftoolVersion";
/// Header key: the generator (`synth serial`, `synth energy`).
pub const KEY_GENERATOR: &str = "SwftoolGenerator";
/// Header key: the scenario's name (`trial-2`).
pub const KEY_SCENARIO: &str = "SwftoolScenario";
/// Header key: the trial number (`--trial`).
pub const KEY_TRIAL: &str = "SwftoolTrial";
/// Header key: the user seed (`--seed`).
pub const KEY_SEED: &str = "SwftoolSeed";
/// Header key: the trial seed every draw came from
/// ([`SerialScenario::seed`]).
pub const KEY_TRIAL_SEED: &str = "SwftoolTrialSeed";
/// Header key: cores of each cluster, space-separated.
pub const KEY_CLUSTER_CORES: &str = "SwftoolClusterCores";
/// Header key: the counted window, start and end, s.
pub const KEY_WINDOW: &str = "SwftoolWindow";
/// Header key: where scenario time 0 is on the file's clock, s.
pub const KEY_ORIGIN: &str = "SwftoolOrigin";
/// Header key: seconds between mapping events.
pub const KEY_EVENT_INTERVAL: &str = "SwftoolEventInterval";
/// Header key, one line per generation parameter: `name = value` (the
/// field of [`SyntheticParams`], the value in JSON).
pub const KEY_PARAM: &str = "SwftoolParam";
/// Header key, one line per task type that no task has: `index critical|
/// noncritical etc_0 etc_1 …` (s), so that the type list round-trips.
pub const KEY_EMPTY_TYPE: &str = "SwftoolEmptyType";

/// The generator named in [`KEY_GENERATOR`].
pub const GENERATOR: &str = "synth serial";

/// The sidecar's columns before the ETC columns `etc_<j>_s`, in order.
pub const COLUMNS: [&str; 12] = [
    "job_number",
    "task_type",
    "burst",
    "critical",
    "priority",
    "urgency",
    "shape",
    "class",
    "utility_scale_s",
    "theta_s",
    "can_preempt",
    "preemptible",
];

/// The name of cluster `j`'s ETC column: `etc_<j>_s`.
pub fn etc_column(j: usize) -> String {
    format!("etc_{j}_s")
}

/// The files of one synthetic trial.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynthFiles {
    /// The SWF log (`.swf` or `.swf.gz`).
    pub swf: PathBuf,
    /// The sidecar table as CSV: `<stem>.tasks.csv`.
    pub csv: PathBuf,
    /// The sidecar table as Parquet: `<stem>.tasks.parquet`.
    pub parquet: PathBuf,
}

impl SynthFiles {
    /// The files that go with SWF path `swf`: its stem is the file name
    /// without `.swf` or `.swf.gz` (any case). `None` for another name.
    pub fn of(swf: &Path) -> Option<SynthFiles> {
        let name = swf.file_name()?.to_str()?;
        let lower = name.to_ascii_lowercase();
        let stem_len = if lower.ends_with(".swf.gz") {
            name.len() - ".swf.gz".len()
        } else if lower.ends_with(".swf") {
            name.len() - ".swf".len()
        } else {
            return None;
        };
        let stem = &name[..stem_len];
        if stem.is_empty() {
            return None;
        }
        let dir = swf.parent().unwrap_or(Path::new(""));
        Some(SynthFiles {
            swf: swf.to_path_buf(),
            csv: dir.join(format!("{stem}.tasks.csv")),
            parquet: dir.join(format!("{stem}.tasks.parquet")),
        })
    }

    /// The files of `--out swf`.
    ///
    /// # Errors
    /// [`WorkloadError::Parameter`] (`--out`) when `swf` does not end in
    /// `.swf` or `.swf.gz`.
    pub fn for_out(swf: &Path) -> Result<SynthFiles, WorkloadError> {
        SynthFiles::of(swf).ok_or_else(|| WorkloadError::Parameter {
            flag: "--out",
            value: swf.display().to_string(),
            reason:
                "the log's name must end in .swf or .swf.gz (the sidecar table is named after it)"
                    .into(),
        })
    }
}

/// The standard SWF header lines that open every synthetic log: `Version`
/// (2.2), `Computer`, `Conversion` (swftool's version and `swftool
/// <generator>`), `MaxJobs` and `MaxRecords` (both `jobs`).
pub fn standard_header(generator: &str, computer: &str, jobs: usize) -> SwfHeader {
    let mut h = SwfHeader::new();
    h.push_field("Version", "2.2");
    h.push_field("Computer", computer);
    h.push_field(
        "Conversion",
        &format!(
            "generated by swftool {} (`swftool {generator}`)",
            env!("CARGO_PKG_VERSION")
        ),
    );
    h.push_field("MaxJobs", &jobs.to_string());
    h.push_field("MaxRecords", &jobs.to_string());
    h
}

/// Appends the keys that say where a synthetic log comes from:
/// [`KEY_VERSION`], [`KEY_GENERATOR`], [`KEY_SCENARIO`] (`name`),
/// [`KEY_TRIAL`], [`KEY_SEED`] (the user seed) and [`KEY_TRIAL_SEED`].
pub fn push_identity(
    h: &mut SwfHeader,
    generator: &str,
    name: &str,
    trial: u64,
    seed: u64,
    trial_seed: u64,
) {
    h.push_field(KEY_VERSION, env!("CARGO_PKG_VERSION"));
    h.push_field(KEY_GENERATOR, generator);
    h.push_field(KEY_SCENARIO, name);
    h.push_field(KEY_TRIAL, &trial.to_string());
    h.push_field(KEY_SEED, &seed.to_string());
    h.push_field(KEY_TRIAL_SEED, &trial_seed.to_string());
}

/// Appends one [`KEY_PARAM`] line per field of `params`: `name = value`,
/// the value in JSON, fields in alphabetical order.
///
/// # Errors
/// [`WorkloadError::Parameter`] if `params` does not serialise to JSON
/// (a bug).
pub fn push_params<P: serde::Serialize + std::fmt::Debug>(
    h: &mut SwfHeader,
    params: &P,
) -> Result<(), WorkloadError> {
    let json = serde_json::to_value(params).map_err(|e| WorkloadError::Parameter {
        flag: "parameters",
        value: format!("{params:?}"),
        reason: format!("cannot be recorded: {e}"),
    })?;
    if let serde_json::Value::Object(fields) = json {
        for (name, value) in fields {
            h.push_field(KEY_PARAM, &format!("{name} = {value}"));
        }
    }
    Ok(())
}

/// The SWF line of one serial task: job number, submit time (s), wait -1,
/// run time (s), 1 processor allocated and requested, status 1 (as the
/// PWA's synthetic `lublin_256` log), every other field -1.
pub fn serial_job(job_number: i64, submit_time: f64, run_time: f64) -> JobRecord {
    JobRecord {
        job_number,
        submit_time,
        wait_time: -1.0,
        run_time,
        allocated_processors: 1,
        average_cpu_time: -1.0,
        used_memory: -1,
        requested_processors: 1,
        requested_time: -1.0,
        requested_memory: -1,
        status: 1,
        user_id: -1,
        group_id: -1,
        executable_number: -1,
        queue_number: -1,
        partition_number: -1,
        preceding_job_number: -1,
        think_time: -1.0,
    }
}

/// A sidecar column named `name` holding `v`.
pub fn column<T>(name: &str, v: Vec<T>) -> Column
where
    Series: NamedFrom<Vec<T>, [T]>,
{
    Column::new(name.into(), v)
}

/// The columns of the utility functions in a sidecar table, in this
/// order: priority (value units), urgency (by name), class, the scale ē
/// (s) and θ (s).
pub const UTILITY_COLUMNS: [&str; 5] =
    ["priority", "urgency", "class", "utility_scale_s", "theta_s"];

/// The two columns that open every sidecar table, `job_number` and
/// `task_type`, of the (job number, task type) pairs `rows`.
pub fn key_columns(rows: impl Iterator<Item = (i64, usize)>) -> [Column; 2] {
    let (jobs, types): (Vec<i64>, Vec<u64>) = rows.map(|(j, t)| (j, t as u64)).unzip();
    [column("job_number", jobs), column("task_type", types)]
}

/// The [`UTILITY_COLUMNS`] of the utility functions `specs`, one row
/// each; every `f64` is written in its shortest form that reads back to
/// the same value, so that [`SidecarRow::utility_spec`] rebuilds each
/// spec exactly.
pub fn utility_columns(specs: &[&UtilitySpec]) -> [Column; 5] {
    let f64s = |f: fn(&UtilitySpec) -> f64| specs.iter().map(|s| f(s)).collect::<Vec<f64>>();
    [
        column(UTILITY_COLUMNS[0], f64s(|s| s.priority)),
        column(
            UTILITY_COLUMNS[1],
            specs
                .iter()
                .map(|s| s.urgency.name())
                .collect::<Vec<&str>>(),
        ),
        column(
            UTILITY_COLUMNS[2],
            specs
                .iter()
                .map(|s| u32::from(s.class))
                .collect::<Vec<u32>>(),
        ),
        column(UTILITY_COLUMNS[3], f64s(|s| s.scale)),
        column(UTILITY_COLUMNS[4], f64s(|s| s.theta)),
    ]
}

/// Writes the three files of a synthetic trial: the SWF log `files.swf`
/// (gzip when it ends in `.gz`) of `header` and `jobs`, and the sidecar
/// table `frame` as `files.csv` and `files.parquet` (floats in their
/// shortest form that reads back to the same `f64`), creating the
/// directory if needed.
///
/// # Errors
/// [`WorkloadError::Write`] or [`WorkloadError::Table`] naming the file
/// that could not be written (or the table that could not be built).
pub fn write_files(
    files: &SynthFiles,
    header: &SwfHeader,
    jobs: &[JobRecord],
    frame: PolarsResult<DataFrame>,
) -> Result<(), WorkloadError> {
    if let Some(dir) = files.swf.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| WorkloadError::Write {
            path: dir.display().to_string(),
            source,
        })?;
    }
    swf::write_path(header, jobs, &files.swf).map_err(|source| WorkloadError::Write {
        path: files.swf.display().to_string(),
        source,
    })?;
    let mut df = frame.map_err(|source| {
        WorkloadError::Table(TableError::Write {
            path: files.csv.clone(),
            source,
        })
    })?;
    let dir = match files.csv.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let stem = files
        .csv
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_suffix(".csv"))
        .unwrap_or("tasks");
    write_both(&mut df, &dir, stem)?;
    Ok(())
}

/// The `; Swftool…:` values of a log's header, read for one generator:
/// errors name the log and the key.
pub struct HeaderKeys<'a> {
    path: String,
    header: &'a SwfHeader,
    generator: &'static str,
}

impl<'a> HeaderKeys<'a> {
    /// The keys of `header`, the header of log `path`, expected from
    /// `swftool <generator>`.
    pub fn new(path: &Path, header: &'a SwfHeader, generator: &'static str) -> HeaderKeys<'a> {
        HeaderKeys {
            path: path.display().to_string(),
            header,
            generator,
        }
    }

    /// The log, as errors name it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Every value of `key` (any case), in header order.
    pub fn all(&self, key: &str) -> impl Iterator<Item = &str> {
        self.header
            .other
            .iter()
            .filter(move |(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// A [`WorkloadError::Header`] about `key`.
    pub fn error(&self, key: &'static str, problem: impl Into<String>) -> WorkloadError {
        WorkloadError::Header {
            path: self.path.clone(),
            key,
            problem: problem.into(),
        }
    }

    /// Whether the log says it was written by this generator
    /// ([`KEY_GENERATOR`]); `false` when it names no generator.
    ///
    /// # Errors
    /// [`WorkloadError::Header`] when it names another generator.
    pub fn written_by(&self) -> Result<bool, WorkloadError> {
        match self.all(KEY_GENERATOR).next().map(str::trim) {
            None => Ok(false),
            Some(g) if g == self.generator => Ok(true),
            Some(g) => Err(self.error(
                KEY_GENERATOR,
                format!(
                    "is `{g}`: the log and its sidecar table were written by `swftool {g}`, \
                     not by `swftool {}`",
                    self.generator
                ),
            )),
        }
    }

    /// The first value of `key`, trimmed.
    ///
    /// # Errors
    /// [`WorkloadError::Header`] when the key is missing.
    pub fn get(&self, key: &'static str) -> Result<&str, WorkloadError> {
        self.all(key).next().map(str::trim).ok_or_else(|| {
            self.error(
                key,
                format!(
                    "is missing: the sidecar table is there, but the log does not say which \
                     system and window it belongs to (write it again with `swftool {}`)",
                    self.generator
                ),
            )
        })
    }

    /// The value of `key`, parsed; `what` says what it must be.
    ///
    /// # Errors
    /// [`WorkloadError::Header`] when it is missing or does not parse.
    pub fn parse<T: std::str::FromStr>(
        &self,
        key: &'static str,
        what: &str,
    ) -> Result<T, WorkloadError> {
        let v = self.get(key)?;
        v.parse()
            .map_err(|_| self.error(key, format!("`{v}` is not {what}")))
    }

    /// The value of `key` as a space-separated list, each parsed.
    ///
    /// # Errors
    /// [`WorkloadError::Header`] when it is missing or a word does not
    /// parse.
    pub fn numbers<T: std::str::FromStr>(
        &self,
        key: &'static str,
        what: &str,
    ) -> Result<Vec<T>, WorkloadError> {
        let v = self.get(key)?;
        v.split_whitespace()
            .map(|x| {
                x.parse()
                    .map_err(|_| self.error(key, format!("`{x}` in `{v}` is not {what}")))
            })
            .collect()
    }
}

impl HeaderKeys<'_> {
    /// The counted window of [`KEY_WINDOW`]: start and end, s.
    ///
    /// # Errors
    /// [`WorkloadError::Header`] unless it is two finite times, start <
    /// end.
    pub fn window(&self) -> Result<(f64, f64), WorkloadError> {
        let window: Vec<f64> = self.numbers(KEY_WINDOW, "a time in seconds")?;
        match window[..] {
            [a, b] if a.is_finite() && b.is_finite() && a < b => Ok((a, b)),
            _ => Err(self.error(KEY_WINDOW, "must be two times in seconds, start < end")),
        }
    }

    /// The seconds between mapping events of [`KEY_EVENT_INTERVAL`].
    ///
    /// # Errors
    /// [`WorkloadError::Header`] unless it is a positive number.
    pub fn event_interval(&self) -> Result<f64, WorkloadError> {
        let event_interval: f64 = self.parse(KEY_EVENT_INTERVAL, "a number of seconds")?;
        if event_interval.is_finite() && event_interval > 0.0 {
            Ok(event_interval)
        } else {
            Err(self.error(KEY_EVENT_INTERVAL, "must be a positive number of seconds"))
        }
    }
}

/// One row of the sidecar CSV, split.
fn split_csv_line(line: &str) -> Vec<&str> {
    line.split(',')
        .map(|f| {
            let f = f.trim();
            f.strip_prefix('"')
                .and_then(|f| f.strip_suffix('"'))
                .unwrap_or(f)
        })
        .collect()
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// A sidecar table as read, with the columns a reader needs located; the
/// first of them is the key, the job number. Errors name the file and the
/// 1-based line (1 is the column names).
pub struct SidecarTable {
    path: String,
    text: String,
    columns: Vec<String>,
    at: Vec<usize>,
}

impl SidecarTable {
    /// Reads the table `path` and finds the columns `columns` (the first
    /// is the job number); other columns are ignored.
    ///
    /// # Errors
    /// [`WorkloadError::Read`] if it cannot be read;
    /// [`WorkloadError::Sidecar`] (line 1) if it is empty or a column is
    /// missing: `no column `name` (hint)`.
    pub fn read(
        path: &Path,
        columns: Vec<String>,
        hint: &str,
    ) -> Result<SidecarTable, WorkloadError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| WorkloadError::Read {
            path: shown.clone(),
            source,
        })?;
        let mut table = SidecarTable {
            path: shown,
            text,
            columns,
            at: Vec::new(),
        };
        let names = table.names()?;
        let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let at = table
            .columns
            .iter()
            .map(|name| {
                index
                    .get(name.as_str())
                    .copied()
                    .ok_or_else(|| table.error(1, format!("no column `{name}` ({hint})")))
            })
            .collect::<Result<Vec<usize>, _>>()?;
        table.at = at;
        Ok(table)
    }

    /// The names on line 1.
    ///
    /// # Errors
    /// [`WorkloadError::Sidecar`] if the table is empty.
    pub fn names(&self) -> Result<Vec<&str>, WorkloadError> {
        self.text
            .lines()
            .next()
            .map(split_csv_line)
            .ok_or_else(|| self.error(1, "the table is empty: no line of column names"))
    }

    /// A [`WorkloadError::Sidecar`] about `line`.
    pub fn error(&self, line: usize, problem: impl Into<String>) -> WorkloadError {
        WorkloadError::Sidecar {
            path: self.path.clone(),
            line,
            problem: problem.into(),
        }
    }

    /// Every row but blank ones, by job number, each with its line and
    /// what `parse` makes of it.
    ///
    /// # Errors
    /// [`WorkloadError::Sidecar`] naming the line: a row with another
    /// number of fields than the table has columns, a job number that is
    /// not a whole number, a job given twice, or an error of `parse`.
    pub fn rows<R>(
        &self,
        mut parse: impl FnMut(&SidecarRow<'_>) -> Result<R, WorkloadError>,
    ) -> Result<BTreeMap<i64, (usize, R)>, WorkloadError> {
        let width = self.names()?.len();
        let mut rows = BTreeMap::new();
        for (i, text) in self.text.lines().enumerate().skip(1) {
            let line = i + 1;
            if text.trim().is_empty() {
                continue;
            }
            let fields = split_csv_line(text);
            if fields.len() != width {
                return Err(self.error(
                    line,
                    format!(
                        "{} fields, but the table has {} columns",
                        fields.len(),
                        width
                    ),
                ));
            }
            let row = SidecarRow {
                table: self,
                line,
                fields,
            };
            let job: i64 = row
                .field(0)
                .parse()
                .map_err(|_| row.bad(0, "a job number"))?;
            let value = parse(&row)?;
            if let Some((first, _)) = rows.insert(job, (line, value)) {
                return Err(self.error(
                    line,
                    format!("job {job} is given twice (also on line {first})"),
                ));
            }
        }
        Ok(rows)
    }
}

/// One row of a [`SidecarTable`]; a column `k` is the `k`-th of the
/// columns the table was read for.
pub struct SidecarRow<'a> {
    table: &'a SidecarTable,
    /// Its 1-based line.
    pub line: usize,
    fields: Vec<&'a str>,
}

/// Where the five columns of a utility function are, as column indices
/// of a [`SidecarTable`].
#[derive(Debug, Clone, Copy)]
pub struct SpecColumns {
    /// Priority P (value units).
    pub priority: usize,
    /// Urgency level by name.
    pub urgency: usize,
    /// Class id.
    pub class: usize,
    /// ē or the step's width, s.
    pub scale: usize,
    /// θ, s.
    pub theta: usize,
}

impl SidecarRow<'_> {
    /// The text of column `k`.
    pub fn field(&self, k: usize) -> &str {
        self.fields[self.table.at[k]]
    }

    /// A [`WorkloadError::Sidecar`] about this line.
    pub fn error(&self, problem: impl Into<String>) -> WorkloadError {
        self.table.error(self.line, problem)
    }

    /// "column `name`: `value` is not `what`".
    pub fn bad(&self, k: usize, what: &str) -> WorkloadError {
        self.error(format!(
            "column `{}`: `{}` is not {what}",
            self.table.columns[k],
            self.field(k)
        ))
    }

    /// Column `k` as a whole number ≥ 0.
    ///
    /// # Errors
    /// [`Self::bad`] for anything else.
    pub fn int(&self, k: usize) -> Result<u64, WorkloadError> {
        self.field(k)
            .parse::<u64>()
            .map_err(|_| self.bad(k, "a whole number ≥ 0"))
    }

    /// Column `k` as an index; `what` names it in the error.
    ///
    /// # Errors
    /// [`Self::bad`] for anything but a whole number ≥ 0 that fits.
    pub fn index(&self, k: usize, what: &str) -> Result<usize, WorkloadError> {
        usize::try_from(self.int(k)?).map_err(|_| self.bad(k, what))
    }

    /// Column `k` as a positive finite number; `what` names it in the
    /// error.
    ///
    /// # Errors
    /// [`Self::bad`] for anything else.
    pub fn positive(&self, k: usize, what: &str) -> Result<f64, WorkloadError> {
        self.field(k)
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite() && *x > 0.0)
            .ok_or_else(|| self.bad(k, what))
    }

    /// Column `k` as `true` or `false` (any case).
    ///
    /// # Errors
    /// [`Self::bad`] for anything else.
    pub fn flag(&self, k: usize) -> Result<bool, WorkloadError> {
        parse_bool(self.field(k)).ok_or_else(|| self.bad(k, "true or false"))
    }

    /// The utility function of the row, from the columns `c` and the
    /// family `shape` gives, checked by building it.
    ///
    /// # Errors
    /// [`Self::bad`] for a value that does not parse, or an error naming
    /// the line for a function out of range.
    pub fn utility_spec(
        &self,
        c: &SpecColumns,
        shape: impl FnOnce() -> Result<Shape, WorkloadError>,
    ) -> Result<UtilitySpec, WorkloadError> {
        let class =
            u8::try_from(self.int(c.class)?).map_err(|_| self.bad(c.class, "a class 0 to 20"))?;
        let spec = UtilitySpec {
            shape: shape()?,
            class,
            priority: self.positive(c.priority, "a positive priority")?,
            urgency: self
                .field(c.urgency)
                .parse::<Urgency>()
                .map_err(|_| self.bad(c.urgency, "an urgency (extreme, high, medium, low)"))?,
            scale: self.positive(c.scale, "a positive number of seconds")?,
            theta: self.positive(c.theta, "a positive number of seconds")?,
        };
        spec.build()
            .map_err(|e| self.error(format!("the utility function: {e}")))?;
        Ok(spec)
    }
}

/// Sorts tasks read back into a scenario's order: by arrival (s), then
/// job number; `key` gives the two.
pub fn sort_by_arrival<T>(tasks: &mut [T], key: impl Fn(&T) -> (f64, i64)) {
    tasks.sort_by(|a, b| {
        let ((ta, ja), (tb, jb)) = (key(a), key(b));
        ta.total_cmp(&tb).then(ja.cmp(&jb))
    });
}

/// Pairs each job of the log, in log order, with its sidecar row (and
/// line), turning the pair into a task with `each`.
///
/// # Errors
/// [`WorkloadError::Mismatch`] (against `csv`) for a job of the log
/// without a row; [`WorkloadError::Sidecar`] naming the line of a row
/// whose job is not in the log `swf`; an error of `each`.
pub fn pair_rows<R, T>(
    jobs: &[JobRecord],
    mut rows: BTreeMap<i64, (usize, R)>,
    csv: &str,
    swf: &str,
    mut each: impl FnMut(&JobRecord, usize, R) -> Result<T, WorkloadError>,
) -> Result<Vec<T>, WorkloadError> {
    let mut out = Vec::with_capacity(jobs.len());
    for job in jobs {
        let (line, row) = rows
            .remove(&job.job_number)
            .ok_or_else(|| WorkloadError::Mismatch {
                path: csv.to_string(),
                problem: format!(
                    "job {} of the log has no row (or has two lines in the log)",
                    job.job_number
                ),
            })?;
        out.push(each(job, line, row)?);
    }
    if let Some((job, (line, _))) = rows.iter().next() {
        return Err(WorkloadError::Sidecar {
            path: csv.to_string(),
            line: *line,
            problem: format!("job {job} is not in the log {swf}"),
        });
    }
    Ok(out)
}

// Environment B's own part of the format.

/// The command line that regenerates a trial, when every parameter
/// without a flag has its default.
fn command_line(params: &SyntheticParams, seed: u64, trial: u64) -> Option<String> {
    let d = SyntheticParams::default();
    let flagged = SyntheticParams {
        fixed_cores: params.fixed_cores,
        critical_etc_s: params.critical_etc_s,
        burst_size: params.burst_size,
        shape: params.shape,
        flag_probability: params.flag_probability,
        theta_s: params.theta_s,
        ..d
    };
    if &flagged != params {
        return None;
    }
    Some(format!(
        "swftool synth serial --trial {trial} --seed {seed} --burst-size {} --shape {} \
         --flag-probability {} --critical-etc {}{}{}",
        params.burst_size,
        params.shape,
        params.flag_probability,
        params.critical_etc_s / 60.0,
        if params.fixed_cores {
            " --fixed-cores"
        } else {
            ""
        },
        params
            .theta_s
            .map_or(String::new(), |t| format!(" --theta {}", t / 60.0))
    ))
}

fn join<T: std::fmt::Display>(xs: &[T]) -> String {
    xs.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Rounded run time written to SWF field 4: the ETC on the task's fastest
/// cluster, rounded to whole seconds, at least 1 s.
fn swf_run_time(ty: &TaskType) -> f64 {
    ty.fastest().round().max(1.0)
}

/// The SWF header of a synthetic trial (docs/serial.md, "Synthetic
/// workload"): the standard keys (`Version`, `Computer`, `MaxJobs`,
/// `MaxRecords`, `MaxProcs` with the cores per cluster, `MaxRuntime`,
/// `Preemption`), notes in words, and the `; Swftool…:` keys
/// ([`KEY_VERSION`] …) that [`read_synthetic`] reads back.
///
/// # Errors
/// None in practice: a parameter that does not serialise to JSON is a bug.
pub fn synthetic_header(
    s: &SerialScenario,
    params: &SyntheticParams,
    seed: u64,
    trial: u64,
) -> Result<SwfHeader, WorkloadError> {
    let max_runtime = s
        .tasks
        .iter()
        .map(|t| swf_run_time(&s.types[t.task_type]))
        .fold(0.0, f64::max);
    let mut h = standard_header(
        GENERATOR,
        &format!(
            "synthetic: {} clusters of identical cores, one serial task per core",
            s.cores.len()
        ),
        s.tasks.len(),
    );
    h.push_field(
        "Preemption",
        if params.flag_probability > 0.0 {
            "Yes (per task: can_preempt and preemptible in the sidecar table)"
        } else {
            "No"
        },
    );
    h.push_field(
        "MaxProcs",
        &format!(
            "{}  ({})",
            s.total_cores(),
            join(&s.cores).replace(' ', ", ")
        ),
    );
    h.push_field("MaxRuntime", &format!("{max_runtime}"));
    h.push_field(
        "Note",
        "Synthetic workload of swftool's environment B after Machovec et al., \
         IPDPS Workshops 2017, Section IV: bursts of serial tasks of one type arriving \
         together over 28 h, the first 4 h warm-up (docs/serial.md)",
    );
    h.push_field(
        "Note",
        "Field 4 (run time) is the ETC on the task's fastest cluster, rounded to whole \
         seconds (at least 1); task type, burst, utility function, preemption flags and \
         the ETC on every cluster are in the sidecar table <stem>.tasks.csv (and \
         .parquet), keyed by job number",
    );
    if let Some(cmd) = command_line(params, seed, trial) {
        h.push_field("Note", &format!("Regenerate with: {cmd}"));
    }
    push_identity(&mut h, GENERATOR, &s.name, trial, seed, s.seed);
    h.push_field(KEY_CLUSTER_CORES, &join(&s.cores));
    h.push_field(KEY_WINDOW, &format!("{} {}", s.window.0, s.window.1));
    h.push_field(KEY_ORIGIN, &format!("{}", s.origin));
    h.push_field(KEY_EVENT_INTERVAL, &format!("{}", s.event_interval));
    push_params(&mut h, params)?;
    let mut used = vec![false; s.types.len()];
    for t in &s.tasks {
        used[t.task_type] = true;
    }
    for (i, ty) in s.types.iter().enumerate().filter(|&(i, _)| !used[i]) {
        h.push_field(
            KEY_EMPTY_TYPE,
            &format!(
                "{i} {} {}",
                if ty.critical {
                    "critical"
                } else {
                    "noncritical"
                },
                join(&ty.etc)
            ),
        );
    }
    Ok(h)
}

/// One SWF line per task ([`serial_job`]): job number, submit = arrival +
/// origin, run time = the ETC on the fastest cluster rounded to whole
/// seconds (at least 1).
pub fn swf_jobs(s: &SerialScenario) -> Vec<JobRecord> {
    s.tasks
        .iter()
        .map(|t| {
            serial_job(
                t.job_number,
                t.arrival + s.origin,
                swf_run_time(&s.types[t.task_type]),
            )
        })
        .collect()
}

/// The sidecar table: one row per task, in job-number order, with the
/// columns [`COLUMNS`] and `etc_<j>_s` per cluster (docs/serial.md,
/// "Sidecar table").
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn tasks_frame(s: &SerialScenario) -> PolarsResult<DataFrame> {
    let tasks = &s.tasks;
    let ty = |t: &SerialTask| &s.types[t.task_type];
    let [job_number, task_type] = key_columns(tasks.iter().map(|t| (t.job_number, t.task_type)));
    let specs: Vec<&UtilitySpec> = tasks.iter().map(|t| &t.spec).collect();
    let [priority, urgency, class, scale, theta] = utility_columns(&specs);
    let mut columns = vec![
        job_number,
        task_type,
        column(
            COLUMNS[2],
            tasks.iter().map(|t| t.burst as u64).collect::<Vec<u64>>(),
        ),
        column(
            COLUMNS[3],
            tasks.iter().map(|t| ty(t).critical).collect::<Vec<bool>>(),
        ),
        priority,
        urgency,
        column(
            COLUMNS[6],
            tasks
                .iter()
                .map(|t| t.spec.shape.name())
                .collect::<Vec<&str>>(),
        ),
        class,
        scale,
        theta,
        column(
            COLUMNS[10],
            tasks.iter().map(|t| t.can_preempt).collect::<Vec<bool>>(),
        ),
        column(
            COLUMNS[11],
            tasks.iter().map(|t| t.preemptible).collect::<Vec<bool>>(),
        ),
    ];
    for j in 0..s.cores.len() {
        columns.push(column(
            &etc_column(j),
            tasks.iter().map(|t| ty(t).etc[j]).collect::<Vec<f64>>(),
        ));
    }
    DataFrame::new_infer_height(columns)
}

/// Writes trial `s` (made by [`super::workload::synthetic`] from `params`,
/// `seed` and `trial`) as the SWF log `swf` (gzip when it ends in `.gz`)
/// and its sidecar table beside it, creating the directory if needed.
///
/// # Errors
/// [`WorkloadError::Parameter`] (`--out`) when `swf` does not end in
/// `.swf` or `.swf.gz`; [`WorkloadError::Write`] or
/// [`WorkloadError::Table`] naming a file that could not be written.
pub fn write_synthetic(
    swf: &Path,
    s: &SerialScenario,
    params: &SyntheticParams,
    seed: u64,
    trial: u64,
) -> Result<SynthFiles, WorkloadError> {
    let files = SynthFiles::for_out(swf)?;
    let header = synthetic_header(s, params, seed, trial)?;
    write_files(&files, &header, &swf_jobs(s), tasks_frame(s))?;
    Ok(files)
}

/// One row of B's sidecar table, read.
struct TaskRow {
    task_type: usize,
    burst: usize,
    critical: bool,
    spec: UtilitySpec,
    can_preempt: bool,
    preemptible: bool,
    etc: Vec<f64>,
}

fn read_sidecar(
    path: &Path,
    clusters: usize,
) -> Result<BTreeMap<i64, (usize, TaskRow)>, WorkloadError> {
    let etc_names: Vec<String> = (0..clusters).map(etc_column).collect();
    let columns = COLUMNS
        .iter()
        .map(|c| (*c).to_string())
        .chain(etc_names.iter().cloned())
        .collect();
    let hint = format!(
        "the log's header gives {clusters} clusters, so the table needs {} and etc_0_s … etc_{}_s",
        COLUMNS.join(", "),
        clusters.saturating_sub(1)
    );
    let table = SidecarTable::read(path, columns, &hint)?;
    if let Some(extra) = table
        .names()?
        .into_iter()
        .find(|n| n.starts_with("etc_") && !etc_names.iter().any(|e| e == n))
    {
        return Err(table.error(
            1,
            format!(
                "column `{extra}` names a cluster the log's header does not have ({clusters} clusters)"
            ),
        ));
    }
    let spec_columns = SpecColumns {
        priority: 4,
        urgency: 5,
        class: 7,
        scale: 8,
        theta: 9,
    };
    table.rows(|row| {
        let spec = row.utility_spec(&spec_columns, || {
            row.field(6)
                .parse::<Shape>()
                .map_err(|_| row.bad(6, "a shape (step, decaying, classes)"))
        })?;
        let mut etc = Vec::with_capacity(clusters);
        for j in 0..clusters {
            etc.push(row.positive(COLUMNS.len() + j, "a positive number of seconds")?);
        }
        Ok(TaskRow {
            task_type: row.index(1, "a type index")?,
            burst: row.index(2, "a burst index")?,
            critical: row.flag(3)?,
            spec,
            can_preempt: row.flag(10)?,
            preemptible: row.flag(11)?,
            etc,
        })
    })
}

/// The scenario of a synthetic trial written by [`write_synthetic`]
/// (`swftool synth serial`): `None` when no sidecar table `<stem>.tasks.csv`
/// lies beside `path` (or its name does not end in `.swf` or `.swf.gz`);
/// otherwise the exact scenario that was written — cores, window, event
/// interval, origin, name and seed from the SWF header, arrivals from the
/// SWF log, everything else from the sidecar — equal (`==`) to the one
/// generated.
///
/// # Errors
/// [`WorkloadError::Swf`] for the log (strict reading);
/// [`WorkloadError::Header`] for a missing or bad `; Swftool…:` value, or
/// a log written by another generator (`synth energy`);
/// [`WorkloadError::Sidecar`] naming the line of a bad row (missing
/// column, bad value, a job given twice, a type whose rows disagree);
/// [`WorkloadError::Mismatch`] for a job in one file but not the other, or
/// a run time that is not the sidecar's fastest ETC rounded.
pub fn read_synthetic(path: &Path) -> Result<Option<SerialScenario>, WorkloadError> {
    let Some(files) = SynthFiles::of(path) else {
        return Ok(None);
    };
    if !files.csv.is_file() {
        return Ok(None);
    }
    let log = swf::read_log(path, &swf::ReadOptions::strict())?;
    let keys = HeaderKeys::new(path, &log.header, GENERATOR);
    keys.written_by()?;
    let cores: Vec<u32> = keys.numbers(KEY_CLUSTER_CORES, "a whole number of cores")?;
    if cores.is_empty() || cores.contains(&0) {
        return Err(keys.error(
            KEY_CLUSTER_CORES,
            "must list at least one cluster, each with at least one core",
        ));
    }
    let window = keys.window()?;
    let origin: f64 = keys.parse(KEY_ORIGIN, "a time in seconds")?;
    let event_interval = keys.event_interval()?;
    let seed: u64 = keys.parse(KEY_TRIAL_SEED, "a seed (a whole number ≥ 0)")?;
    let name = keys.get(KEY_SCENARIO)?.to_string();

    let csv_shown = files.csv.display().to_string();
    let rows = read_sidecar(&files.csv, cores.len())?;

    // Task types: from the rows (every row of a type must agree) and the
    // header's empty types.
    let mut types: Vec<Option<(TaskType, usize)>> = Vec::new();
    let grow = |types: &mut Vec<Option<(TaskType, usize)>>, i: usize| {
        if types.len() <= i {
            types.resize(i + 1, None);
        }
    };
    // Every type has a row or an empty-type line: a larger index is
    // refused before anything is sized by it.
    let limit = rows.len() + keys.all(KEY_EMPTY_TYPE).count();
    for (line, row) in rows.values() {
        if row.task_type >= limit {
            return Err(WorkloadError::Sidecar {
                path: csv_shown,
                line: *line,
                problem: format!(
                    "task type {} is out of range: the file describes {limit} task types at most",
                    row.task_type
                ),
            });
        }
        grow(&mut types, row.task_type);
        let ty = TaskType {
            critical: row.critical,
            etc: row.etc.clone(),
        };
        match &types[row.task_type] {
            None => types[row.task_type] = Some((ty, *line)),
            Some((first, first_line)) if *first != ty => {
                return Err(WorkloadError::Sidecar {
                    path: csv_shown,
                    line: *line,
                    problem: format!(
                        "task type {} has another ETC row or criticality than on line {first_line}",
                        row.task_type
                    ),
                });
            }
            Some(_) => {}
        }
    }
    for v in keys.all(KEY_EMPTY_TYPE) {
        let problem = || {
            keys.error(KEY_EMPTY_TYPE, format!("`{v}` is not `INDEX critical|noncritical ETC…` with one positive ETC (s) per cluster"))
        };
        let mut words = v.split_whitespace();
        let i: usize = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or_else(problem)?;
        let critical = match words.next() {
            Some("critical") => true,
            Some("noncritical") => false,
            _ => return Err(problem()),
        };
        let etc: Vec<f64> = words
            .map(|w| w.parse::<f64>().ok().filter(|x| x.is_finite() && *x > 0.0))
            .collect::<Option<_>>()
            .ok_or_else(problem)?;
        if etc.len() != cores.len() || i >= limit {
            return Err(problem());
        }
        grow(&mut types, i);
        if types[i].is_some() {
            return Err(keys.error(
                KEY_EMPTY_TYPE,
                format!("type {i} is listed as having no task, but the sidecar table has tasks of it (or it is listed twice)"),
            ));
        }
        types[i] = Some((TaskType { critical, etc }, 0));
    }
    let types: Vec<TaskType> = types
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            t.map(|(ty, _)| ty).ok_or_else(|| WorkloadError::Mismatch {
                path: csv_shown.clone(),
                problem: format!(
                    "task type {i} has no row and no `; {KEY_EMPTY_TYPE}:` line in the log's header"
                ),
            })
        })
        .collect::<Result<_, _>>()?;

    let mut tasks = pair_rows(
        &log.jobs,
        rows,
        &csv_shown,
        keys.path(),
        |job, line, row| {
            let ty = &types[row.task_type];
            if job.run_time != swf_run_time(ty) {
                return Err(WorkloadError::Mismatch {
                    path: keys.path().to_string(),
                    problem: format!(
                        "job {}: run time {} s, but the sidecar's fastest ETC ({} s, line {}) rounds to {} s; the two files are not from one run",
                        job.job_number,
                        job.run_time,
                        ty.fastest(),
                        line,
                        swf_run_time(ty)
                    ),
                });
            }
            Ok(SerialTask {
                job_number: job.job_number,
                arrival: job.submit_time - origin,
                task_type: row.task_type,
                burst: row.burst,
                utility: row.spec.build().map_err(|e| WorkloadError::Sidecar {
                    path: csv_shown.clone(),
                    line,
                    problem: e.to_string(),
                })?,
                spec: row.spec,
                can_preempt: row.can_preempt,
                preemptible: row.preemptible,
            })
        },
    )?;
    sort_by_arrival(&mut tasks, |t| (t.arrival, t.job_number));
    Ok(Some(SerialScenario {
        name,
        seed,
        cores,
        types,
        tasks,
        window,
        event_interval,
        origin,
    }))
}

#[cfg(test)]
mod tests {
    use super::super::workload::synthetic;
    use super::*;

    fn small() -> SyntheticParams {
        SyntheticParams {
            clusters: 3,
            mean_cores: 8,
            types: 12,
            critical_types: 3,
            burst_size: 4,
            flag_probability: 0.5,
            ..SyntheticParams::default()
        }
    }

    #[test]
    fn sidecar_names_follow_the_log() {
        let f = SynthFiles::of(Path::new("out/x.swf.gz")).unwrap();
        assert_eq!(f.csv, Path::new("out/x.tasks.csv"));
        assert_eq!(f.parquet, Path::new("out/x.tasks.parquet"));
        assert_eq!(
            SynthFiles::of(Path::new("y.SWF")).unwrap().csv,
            Path::new("y.tasks.csv")
        );
        assert!(SynthFiles::of(Path::new("y.txt")).is_none());
        assert!(SynthFiles::of(Path::new(".swf")).is_none());
    }

    #[test]
    fn the_sidecar_csv_round_trips_every_float_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = synthetic(&small(), 1, 0).unwrap();
        // Awkward values: shortest round-trip forms with exponents,
        // subnormal-adjacent and long mantissas.
        let awkward = [
            0.1 + 0.2,
            1e-7,
            1.0e22 / 3.0,
            123_456_789.123_456_78,
            5e-300,
        ];
        for (k, ty) in s.types.iter_mut().enumerate() {
            ty.etc[0] = awkward[k % awkward.len()];
        }
        for t in &mut s.tasks {
            t.spec.scale = s.types[t.task_type].mean_etc();
            t.spec.theta = 599.999_999_999_9;
            t.utility = t.spec.build().unwrap();
        }
        let swf = dir.path().join("t.swf");
        write_synthetic(&swf, &s, &small(), 1, 0).unwrap();
        let back = read_synthetic(&swf).unwrap().unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn a_written_trial_reads_back_equal_including_types_without_tasks() {
        let dir = tempfile::tempdir().unwrap();
        // Few, large bursts: some types get none.
        let p = SyntheticParams {
            burst_size: 200,
            ..small()
        };
        let s = synthetic(&p, 3, 1).unwrap();
        let used: std::collections::HashSet<usize> = s.tasks.iter().map(|t| t.task_type).collect();
        assert!(used.len() < s.types.len(), "every type has a task");
        let swf = dir.path().join("t.swf.gz");
        write_synthetic(&swf, &s, &p, 3, 1).unwrap();
        assert_eq!(read_synthetic(&swf).unwrap(), Some(s));
    }

    #[test]
    fn no_sidecar_means_no_synthetic_scenario() {
        let dir = tempfile::tempdir().unwrap();
        let s = synthetic(&small(), 1, 0).unwrap();
        let swf = dir.path().join("t.swf");
        write_synthetic(&swf, &s, &small(), 1, 0).unwrap();
        std::fs::remove_file(dir.path().join("t.tasks.csv")).unwrap();
        assert_eq!(read_synthetic(&swf).unwrap(), None);
    }

    #[test]
    fn a_damaged_sidecar_is_an_error_naming_file_line_and_problem() {
        let dir = tempfile::tempdir().unwrap();
        let s = synthetic(&small(), 1, 0).unwrap();
        let swf = dir.path().join("t.swf");
        let files = write_synthetic(&swf, &s, &small(), 1, 0).unwrap();
        let good = std::fs::read_to_string(&files.csv).unwrap();
        let shown = files.csv.display().to_string();
        let damage = |f: &dyn Fn(&str) -> String| {
            std::fs::write(&files.csv, f(&good)).unwrap();
            read_synthetic(&swf).unwrap_err().to_string()
        };
        // A huge task type index is refused before anything is sized by it.
        let e = damage(&|t| {
            let mut lines: Vec<String> = t.lines().map(String::from).collect();
            let col = lines[0].split(',').position(|c| c == "task_type").unwrap();
            let mut cells: Vec<String> = lines[1].split(',').map(String::from).collect();
            cells[col] = "1000000000000".into();
            lines[1] = cells.join(",");
            lines.join("\n")
        });
        assert!(
            e.starts_with(&format!(
                "{shown}:2: task type 1000000000000 is out of range"
            )),
            "{e}"
        );
        let e = damage(&|t| t.replacen("priority", "prio", 1));
        assert!(
            e.starts_with(&format!("{shown}:1: no column `priority`")),
            "{e}"
        );
        let e = damage(&|t| {
            let mut lines: Vec<String> = t.lines().map(String::from).collect();
            lines[3] = lines[3].replacen(",classes,", ",square,", 1);
            lines.join("\n")
        });
        assert!(
            e.starts_with(&format!("{shown}:4: column `shape`: `square`")),
            "{e}"
        );
        let e = damage(&|t| {
            let mut lines: Vec<&str> = t.lines().collect();
            lines.remove(2);
            lines.join("\n")
        });
        assert!(e.contains("job 2 of the log has no row"), "{e}");
        let e = damage(&|t| {
            format!(
                "{t}{}\n",
                t.lines().nth(1).unwrap().replacen('1', "99999", 1)
            )
        });
        assert!(
            e.contains("is not in the log") || e.contains("another ETC row"),
            "{e}"
        );
        std::fs::write(&files.csv, &good).unwrap();
        assert_eq!(read_synthetic(&swf).unwrap(), Some(s));
    }
}
