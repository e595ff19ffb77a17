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

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::workload::{SyntheticParams, WorkloadError};
use super::{SerialScenario, SerialTask, TaskType};
use crate::metrics::tables::write_both;
use crate::model::utility::{Shape, Urgency, UtilitySpec};
use crate::swf::{self, JobRecord, SwfHeader};

/// Header key: the swftool version that wrote the file.
pub const KEY_VERSION: &str = "SwftoolVersion";
/// Header key: the generator (`synth serial`).
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
}

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
        ..d
    };
    if &flagged != params {
        return None;
    }
    Some(format!(
        "swftool synth serial --trial {trial} --seed {seed} --burst-size {} --shape {} \
         --flag-probability {} --critical-etc {}{}",
        params.burst_size,
        params.shape,
        params.flag_probability,
        params.critical_etc_s / 60.0,
        if params.fixed_cores {
            " --fixed-cores"
        } else {
            ""
        }
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
    let version = env!("CARGO_PKG_VERSION");
    let n = s.tasks.len();
    let max_runtime = s
        .tasks
        .iter()
        .map(|t| swf_run_time(&s.types[t.task_type]))
        .fold(0.0, f64::max);
    let mut h = SwfHeader::new();
    h.push_field("Version", "2.2");
    h.push_field(
        "Computer",
        &format!(
            "synthetic: {} clusters of identical cores, one serial task per core",
            s.cores.len()
        ),
    );
    h.push_field(
        "Conversion",
        &format!("generated by swftool {version} (`swftool {GENERATOR}`)"),
    );
    h.push_field("MaxJobs", &n.to_string());
    h.push_field("MaxRecords", &n.to_string());
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
    h.push_field(KEY_VERSION, version);
    h.push_field(KEY_GENERATOR, GENERATOR);
    h.push_field(KEY_SCENARIO, &s.name);
    h.push_field(KEY_TRIAL, &trial.to_string());
    h.push_field(KEY_SEED, &seed.to_string());
    h.push_field(KEY_TRIAL_SEED, &s.seed.to_string());
    h.push_field(KEY_CLUSTER_CORES, &join(&s.cores));
    h.push_field(KEY_WINDOW, &format!("{} {}", s.window.0, s.window.1));
    h.push_field(KEY_ORIGIN, &format!("{}", s.origin));
    h.push_field(KEY_EVENT_INTERVAL, &format!("{}", s.event_interval));
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

/// One SWF line per task: job number, submit = arrival + origin, wait -1,
/// run time = the ETC on the fastest cluster rounded to whole seconds (at
/// least 1), 1 processor allocated and requested, status 1 (as the PWA's
/// synthetic `lublin_256` log), every other field -1.
pub fn swf_jobs(s: &SerialScenario) -> Vec<JobRecord> {
    s.tasks
        .iter()
        .map(|t| JobRecord {
            job_number: t.job_number,
            submit_time: t.arrival + s.origin,
            wait_time: -1.0,
            run_time: swf_run_time(&s.types[t.task_type]),
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
        })
        .collect()
}

fn col<T>(name: &str, v: Vec<T>) -> Column
where
    Series: NamedFrom<Vec<T>, [T]>,
{
    Column::new(name.into(), v)
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
    let mut columns = vec![
        col(
            COLUMNS[0],
            tasks.iter().map(|t| t.job_number).collect::<Vec<i64>>(),
        ),
        col(
            COLUMNS[1],
            tasks
                .iter()
                .map(|t| t.task_type as u64)
                .collect::<Vec<u64>>(),
        ),
        col(
            COLUMNS[2],
            tasks.iter().map(|t| t.burst as u64).collect::<Vec<u64>>(),
        ),
        col(
            COLUMNS[3],
            tasks.iter().map(|t| ty(t).critical).collect::<Vec<bool>>(),
        ),
        col(
            COLUMNS[4],
            tasks.iter().map(|t| t.spec.priority).collect::<Vec<f64>>(),
        ),
        col(
            COLUMNS[5],
            tasks
                .iter()
                .map(|t| t.spec.urgency.name())
                .collect::<Vec<&str>>(),
        ),
        col(
            COLUMNS[6],
            tasks
                .iter()
                .map(|t| t.spec.shape.name())
                .collect::<Vec<&str>>(),
        ),
        col(
            COLUMNS[7],
            tasks
                .iter()
                .map(|t| u32::from(t.spec.class))
                .collect::<Vec<u32>>(),
        ),
        col(
            COLUMNS[8],
            tasks.iter().map(|t| t.spec.scale).collect::<Vec<f64>>(),
        ),
        col(
            COLUMNS[9],
            tasks.iter().map(|t| t.spec.theta).collect::<Vec<f64>>(),
        ),
        col(
            COLUMNS[10],
            tasks.iter().map(|t| t.can_preempt).collect::<Vec<bool>>(),
        ),
        col(
            COLUMNS[11],
            tasks.iter().map(|t| t.preemptible).collect::<Vec<bool>>(),
        ),
    ];
    for j in 0..s.cores.len() {
        columns.push(col(
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
    let files = SynthFiles::of(swf).ok_or_else(|| WorkloadError::Parameter {
        flag: "--out",
        value: swf.display().to_string(),
        reason: "the log's name must end in .swf or .swf.gz (the sidecar table is named after it)"
            .into(),
    })?;
    if let Some(dir) = swf.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| WorkloadError::Write {
            path: dir.display().to_string(),
            source,
        })?;
    }
    let header = synthetic_header(s, params, seed, trial)?;
    swf::write_path(&header, &swf_jobs(s), swf).map_err(|source| WorkloadError::Write {
        path: swf.display().to_string(),
        source,
    })?;
    let mut df = tasks_frame(s).map_err(|source| {
        WorkloadError::Table(crate::metrics::tables::TableError::Write {
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
    Ok(files)
}

/// The `; Swftool…:` values of a header, by key (first occurrence) and
/// the repeated ones in order.
struct SwftoolKeys<'a> {
    path: String,
    header: &'a SwfHeader,
}

impl SwftoolKeys<'_> {
    fn all(&self, key: &str) -> impl Iterator<Item = &str> {
        self.header
            .other
            .iter()
            .filter(move |(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    fn error(&self, key: &'static str, problem: impl Into<String>) -> WorkloadError {
        WorkloadError::Header {
            path: self.path.clone(),
            key,
            problem: problem.into(),
        }
    }

    fn get(&self, key: &'static str) -> Result<&str, WorkloadError> {
        self.all(key).next().map(str::trim).ok_or_else(|| {
            self.error(
                key,
                "is missing: the sidecar table is there, but the log does not say which \
                 system and window it belongs to (write it again with `swftool synth serial`)",
            )
        })
    }

    fn parse<T: std::str::FromStr>(
        &self,
        key: &'static str,
        what: &str,
    ) -> Result<T, WorkloadError> {
        let v = self.get(key)?;
        v.parse()
            .map_err(|_| self.error(key, format!("`{v}` is not {what}")))
    }

    fn numbers<T: std::str::FromStr>(
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

/// The sidecar table, read: one row per task with its line number.
struct SidecarRow {
    line: usize,
    task_type: usize,
    burst: usize,
    critical: bool,
    spec: UtilitySpec,
    can_preempt: bool,
    preemptible: bool,
    etc: Vec<f64>,
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

fn read_sidecar(path: &Path, clusters: usize) -> Result<BTreeMap<i64, SidecarRow>, WorkloadError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| WorkloadError::Read {
        path: shown.clone(),
        source,
    })?;
    let err = |line: usize, problem: String| WorkloadError::Sidecar {
        path: shown.clone(),
        line,
        problem,
    };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let (_, names) = lines
        .next()
        .ok_or_else(|| err(1, "the table is empty: no line of column names".into()))?;
    let names = split_csv_line(names);
    let index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, &n)| (n, i)).collect();
    let etc_names: Vec<String> = (0..clusters).map(etc_column).collect();
    let mut at = Vec::with_capacity(COLUMNS.len() + clusters);
    for name in COLUMNS
        .iter()
        .copied()
        .chain(etc_names.iter().map(String::as_str))
    {
        let i = index.get(name).copied().ok_or_else(|| {
            err(
                1,
                format!(
                    "no column `{name}` (the log's header gives {clusters} clusters, so \
                     the table needs {} and etc_0_s … etc_{}_s)",
                    COLUMNS.join(", "),
                    clusters.saturating_sub(1)
                ),
            )
        })?;
        at.push(i);
    }
    if let Some(extra) = names
        .iter()
        .find(|n| n.starts_with("etc_") && !etc_names.iter().any(|e| e == *n))
    {
        return Err(err(
            1,
            format!(
                "column `{extra}` names a cluster the log's header does not have ({clusters} clusters)"
            ),
        ));
    }
    let mut rows = BTreeMap::new();
    for (line, text) in lines {
        if text.trim().is_empty() {
            continue;
        }
        let fields = split_csv_line(text);
        if fields.len() != names.len() {
            return Err(err(
                line,
                format!(
                    "{} fields, but the table has {} columns",
                    fields.len(),
                    names.len()
                ),
            ));
        }
        let field = |k: usize| fields[at[k]];
        let bad = |k: usize, what: &str| {
            let name = COLUMNS
                .get(k)
                .map(|s| (*s).to_string())
                .unwrap_or_else(|| etc_column(k - COLUMNS.len()));
            err(
                line,
                format!("column `{name}`: `{}` is not {what}", field(k)),
            )
        };
        let int = |k: usize| {
            field(k)
                .parse::<u64>()
                .map_err(|_| bad(k, "a whole number ≥ 0"))
        };
        let float = |k: usize, what: &str| {
            field(k)
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0)
                .ok_or_else(|| bad(k, what))
        };
        let flag = |k: usize| parse_bool(field(k)).ok_or_else(|| bad(k, "true or false"));
        let job: i64 = field(0).parse().map_err(|_| bad(0, "a job number"))?;
        let class = u8::try_from(int(7)?).map_err(|_| bad(7, "a class 0 to 20"))?;
        let spec = UtilitySpec {
            shape: field(6)
                .parse::<Shape>()
                .map_err(|_| bad(6, "a shape (step, decaying, classes)"))?,
            class,
            priority: float(4, "a positive priority")?,
            urgency: field(5)
                .parse::<Urgency>()
                .map_err(|_| bad(5, "an urgency (extreme, high, medium, low)"))?,
            scale: float(8, "a positive number of seconds")?,
            theta: float(9, "a positive number of seconds")?,
        };
        spec.build()
            .map_err(|e| err(line, format!("the utility function: {e}")))?;
        let mut etc = Vec::with_capacity(clusters);
        for j in 0..clusters {
            etc.push(float(COLUMNS.len() + j, "a positive number of seconds")?);
        }
        let row = SidecarRow {
            line,
            task_type: usize::try_from(int(1)?).map_err(|_| bad(1, "a type index"))?,
            burst: usize::try_from(int(2)?).map_err(|_| bad(2, "a burst index"))?,
            critical: flag(3)?,
            spec,
            can_preempt: flag(10)?,
            preemptible: flag(11)?,
            etc,
        };
        if let Some(first) = rows.insert(job, row) {
            return Err(err(
                line,
                format!("job {job} is given twice (also on line {})", first.line),
            ));
        }
    }
    Ok(rows)
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
/// [`WorkloadError::Header`] for a missing or bad `; Swftool…:` value;
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
    let keys = SwftoolKeys {
        path: path.display().to_string(),
        header: &log.header,
    };
    let cores: Vec<u32> = keys.numbers(KEY_CLUSTER_CORES, "a whole number of cores")?;
    if cores.is_empty() || cores.contains(&0) {
        return Err(keys.error(
            KEY_CLUSTER_CORES,
            "must list at least one cluster, each with at least one core",
        ));
    }
    let window: Vec<f64> = keys.numbers(KEY_WINDOW, "a time in seconds")?;
    let window = match window[..] {
        [a, b] if a.is_finite() && b.is_finite() && a < b => (a, b),
        _ => {
            return Err(keys.error(KEY_WINDOW, "must be two times in seconds, start < end"));
        }
    };
    let origin: f64 = keys.parse(KEY_ORIGIN, "a time in seconds")?;
    let event_interval: f64 = keys.parse(KEY_EVENT_INTERVAL, "a number of seconds")?;
    if !(event_interval.is_finite() && event_interval > 0.0) {
        return Err(keys.error(KEY_EVENT_INTERVAL, "must be a positive number of seconds"));
    }
    let seed: u64 = keys.parse(KEY_TRIAL_SEED, "a seed (a whole number ≥ 0)")?;
    let name = keys.get(KEY_SCENARIO)?.to_string();

    let csv_shown = files.csv.display().to_string();
    let mut rows = read_sidecar(&files.csv, cores.len())?;

    // Task types: from the rows (every row of a type must agree) and the
    // header's empty types.
    let mut types: Vec<Option<(TaskType, usize)>> = Vec::new();
    let grow = |types: &mut Vec<Option<(TaskType, usize)>>, i: usize| {
        if types.len() <= i {
            types.resize(i + 1, None);
        }
    };
    for row in rows.values() {
        grow(&mut types, row.task_type);
        let ty = TaskType {
            critical: row.critical,
            etc: row.etc.clone(),
        };
        match &types[row.task_type] {
            None => types[row.task_type] = Some((ty, row.line)),
            Some((first, line)) if *first != ty => {
                return Err(WorkloadError::Sidecar {
                    path: csv_shown,
                    line: row.line,
                    problem: format!(
                        "task type {} has another ETC row or criticality than on line {line}",
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
        if etc.len() != cores.len() {
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

    let mut tasks = Vec::with_capacity(log.jobs.len());
    for job in &log.jobs {
        let row = rows
            .remove(&job.job_number)
            .ok_or_else(|| WorkloadError::Mismatch {
                path: csv_shown.clone(),
                problem: format!(
                    "job {} of the log has no row (or has two lines in the log)",
                    job.job_number
                ),
            })?;
        let ty = &types[row.task_type];
        if job.run_time != swf_run_time(ty) {
            return Err(WorkloadError::Mismatch {
                path: keys.path.clone(),
                problem: format!(
                    "job {}: run time {} s, but the sidecar's fastest ETC ({} s, line {}) rounds to {} s; the two files are not from one run",
                    job.job_number,
                    job.run_time,
                    ty.fastest(),
                    row.line,
                    swf_run_time(ty)
                ),
            });
        }
        tasks.push(SerialTask {
            job_number: job.job_number,
            arrival: job.submit_time - origin,
            task_type: row.task_type,
            burst: row.burst,
            utility: row.spec.build().map_err(|e| WorkloadError::Sidecar {
                path: csv_shown.clone(),
                line: row.line,
                problem: e.to_string(),
            })?,
            spec: row.spec,
            can_preempt: row.can_preempt,
            preemptible: row.preemptible,
        });
    }
    if let Some((job, row)) = rows.iter().next() {
        return Err(WorkloadError::Sidecar {
            path: csv_shown,
            line: row.line,
            problem: format!("job {job} is not in the log {}", keys.path),
        });
    }
    tasks.sort_by(|a, b| {
        a.arrival
            .total_cmp(&b.arrival)
            .then(a.job_number.cmp(&b.job_number))
    });
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
