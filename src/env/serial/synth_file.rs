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
//! The format's frame — the keys common to every synthetic trial, the file
//! names, the standard header lines, the job line, writing the three files,
//! reading header keys and the sidecar CSV, pairing jobs with rows — is
//! [`crate::workload::sidecar`], shared with environment C's `swftool synth
//! energy`; this file adds B's keys and columns.

use std::collections::BTreeMap;
use std::path::Path;

use polars::prelude::*;

use super::params::SerialSynthArgs;
use super::workload::{SyntheticParams, synthetic};
use super::{SerialScenario, SerialTask, TaskType};
use crate::model::utility::{Shape, UtilitySpec};
use crate::swf::{self, JobRecord, SwfHeader};
use crate::workload::WorkloadError;
use crate::workload::sidecar::{
    HeaderKeys, KEY_EVENT_INTERVAL, KEY_SCENARIO, KEY_TRIAL_SEED, KEY_WINDOW, SidecarTable,
    SpecColumns, SynthFiles, column, key_columns, pair_rows, push_identity, push_params,
    serial_job, sort_by_arrival, standard_header, utility_columns, write_files,
};

/// Header key: cores of each cluster, space-separated.
pub const KEY_CLUSTER_CORES: &str = "SwftoolClusterCores";
/// Header key: where scenario time 0 is on the file's clock, s.
pub const KEY_ORIGIN: &str = "SwftoolOrigin";
/// Header key, one line per task type that no task has: `index critical|
/// noncritical etc_0 etc_1 …` (s), so that the type list round-trips.
pub const KEY_EMPTY_TYPE: &str = "SwftoolEmptyType";

/// The generator named in [`KEY_GENERATOR`](crate::workload::sidecar::KEY_GENERATOR).
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
/// ([`KEY_VERSION`](crate::workload::sidecar::KEY_VERSION) …) that [`read_synthetic`] reads back.
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

/// What `swftool synth serial` does, as its `--help` says it.
pub const ABOUT: &str = "One trial of environment B's bursty serial workload (Machovec et al., IPDPSW 2017, §IV): an SWF log FILE.swf[.gz] and a sidecar table FILE.tasks.csv (and .parquet) with each task's type, burst, utility, flags and ETC per cluster";

/// The examples of `swftool synth serial --help`.
pub const EXAMPLES: &str = "Examples:\n  \
    swftool synth serial --out trial-0.swf.gz\n  \
    swftool synth serial --trial 3 --seed 7 --burst-size 16 --shape step --out b16.swf\n  \
    swftool synth serial --flag-probability 40% --critical-etc 30 --fixed-cores --out p40.swf.gz";

/// Runs `swftool synth serial`: generates the trial `a` asks for, writes
/// it ([`write_synthetic`]) and says what was written (two lines: the
/// log with its tasks, cores, seed and trial; the sidecar files).
///
/// # Errors
/// A parameter out of range (naming its flag), or a file that cannot be
/// written (as [`write_synthetic`]).
pub fn synth(a: &SerialSynthArgs) -> Result<String, WorkloadError> {
    let params = a.params();
    let scenario = synthetic(&params, a.seed, a.trial)?;
    let files = write_synthetic(&a.out, &scenario, &params, a.seed, a.trial)?;
    let counted = (0..scenario.tasks.len())
        .filter(|&i| scenario.counted(i))
        .count();
    let cores: Vec<String> = scenario.cores.iter().map(ToString::to_string).collect();
    Ok(format!(
        "{}: {} tasks ({} in the counted 24 h) on {} cores ({}), seed {} trial {}\n\
         sidecar: {} and {}",
        files.swf.display(),
        scenario.tasks.len(),
        counted,
        scenario.total_cores(),
        cores.join(" + "),
        a.seed,
        a.trial,
        files.csv.display(),
        files.parquet.display()
    ))
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

/// Refuses a log written by `swftool synth serial` whose sidecar table
/// (`<stem>.tasks.csv`, or its Parquet twin) is not beside it: without it
/// the log would be replayed as an ordinary log, wrongly.
///
/// # Errors
/// [`WorkloadError::Mismatch`] saying the sidecar is missing.
pub fn check_sidecar(path: &Path, header: &swf::SwfHeader) -> Result<(), WorkloadError> {
    let keys = HeaderKeys::new(path, header, GENERATOR);
    if !keys.written_by()? {
        return Ok(());
    }
    let there = SynthFiles::of(path).is_some_and(|f| f.csv.is_file() || f.parquet.is_file());
    if there {
        return Ok(());
    }
    Err(WorkloadError::Mismatch {
        path: path.display().to_string(),
        problem: format!(
            "written by `swftool {GENERATOR}`, but its sidecar table (<stem>.tasks.csv or \
             <stem>.tasks.parquet beside a log named <stem>.swf or <stem>.swf.gz) is missing; it \
             holds each task's type, utility function and ETC, so move it with the log or write \
             the trial again"
        ),
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
    if !files.csv.is_file() && !files.parquet.is_file() {
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
                owner: crate::model::Owner {
                    user: job.user_id,
                    group: job.group_id,
                    queue: job.queue_number,
                },
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
        std::fs::remove_file(dir.path().join("t.tasks.parquet")).unwrap();
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
