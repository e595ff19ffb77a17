//! A synthetic trial of environment C on disk (`swftool synth energy`;
//! docs/energy.md, "Written workloads"): an SWF log that any SWF tool reads, plus a
//! sidecar table `<stem>.tasks.csv` and `<stem>.tasks.parquet` with what
//! SWF cannot carry (each task's type and utility function), keyed by job
//! number. [`read_synthetic`] rebuilds the exact [`EnergyScenario`] from the
//! two.
//!
//! The machines and the ETC and APC matrices are not written: they are
//! fully determined by the trial seed ([`Matrices::draw`]), which the
//! header records with the user seed, the trial, the counted window, the
//! mapping-event interval, every generation parameter and swftool's
//! version, as `; Swftool…:` lines. The frame of the format (header keys,
//! file names, the sidecar CSV and its errors) is
//! [`crate::workload::sidecar`], shared with environment B's `swftool synth
//! serial`, so the two generators' files read alike.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::params::EnergySynthArgs;
use super::workload::{SyntheticParams, synthetic};
use super::{EnergyScenario, EnergyTask, Matrices};
use crate::model::utility::{Shape, UtilitySpec};
use crate::swf::{self, JobRecord, SwfHeader};
use crate::workload::WorkloadError;
use crate::workload::seeds::{ScenarioKey, scenario_seed};
use crate::workload::sidecar::{
    HeaderKeys, KEY_EVENT_INTERVAL, KEY_SCENARIO, KEY_SEED, KEY_TRIAL, KEY_TRIAL_SEED, KEY_WINDOW,
    SidecarTable, SpecColumns, SynthFiles, UTILITY_COLUMNS, key_columns, pair_rows, push_identity,
    push_params, serial_job, sort_by_arrival, standard_header, utility_columns, write_files,
};

/// The generator named in `; SwftoolGenerator:`.
pub const GENERATOR: &str = "synth energy";

/// The sidecar's columns, in order: the job number, the task type (row of
/// the matrices), then the utility function ([`UTILITY_COLUMNS`]:
/// priority, urgency, class, `utility_scale_s` ē in s, `theta_s` θ in s;
/// the family is always the twenty classes).
pub const COLUMNS: [&str; 7] = [
    "job_number",
    "task_type",
    UTILITY_COLUMNS[0],
    UTILITY_COLUMNS[1],
    UTILITY_COLUMNS[2],
    UTILITY_COLUMNS[3],
    UTILITY_COLUMNS[4],
];

/// Where the utility function is in [`COLUMNS`].
const SPEC_COLUMNS: SpecColumns = SpecColumns {
    priority: 2,
    urgency: 3,
    class: 4,
    scale: 5,
    theta: 6,
};

/// The run time written to SWF field 4 for a task of type `task_type`, s:
/// its ETC at P-state 0 on its fastest valid machine type, rounded to
/// whole seconds, at least 1 s. (The task's actual run time depends on
/// the machine and P-state a heuristic picks; this is the shortest it can
/// take, as a plain SWF reader's estimate.) `task_type` must be a row of
/// `m`.
pub fn swf_run_time(m: &Matrices, task_type: usize) -> f64 {
    (0..m.machine_types.len())
        .filter_map(|k| m.etc(task_type, k, 0))
        .fold(f64::INFINITY, f64::min)
        .round()
        .max(1.0)
}

/// The SWF header of trial `s` (docs/energy.md, "Written workloads"): the standard keys
/// (`Version`, `Computer`, `MaxJobs`, `MaxRecords`, `Preemption`,
/// `MaxNodes` and `MaxProcs` = the 100 machines, `MaxRuntime`), notes in
/// words, and the `; Swftool…:` keys that [`read_synthetic`] reads back.
///
/// # Errors
/// None in practice: a parameter that does not serialise to JSON is a bug.
pub fn synthetic_header(
    s: &EnergyScenario,
    params: &SyntheticParams,
    user_seed: u64,
    trial: u64,
) -> Result<SwfHeader, WorkloadError> {
    let m = &s.matrices;
    let machines = m.machines();
    let max_runtime = s
        .tasks
        .iter()
        .map(|t| swf_run_time(m, t.task_type))
        .fold(0.0, f64::max);
    let per_type: Vec<String> = m
        .machine_types
        .iter()
        .map(|t| t.machines.to_string())
        .collect();
    let mut h = standard_header(
        GENERATOR,
        &format!(
            "synthetic: {machines} machines in {} machine types ({} special-purpose), \
             3 P-states each, one task per machine at a time",
            m.machine_types.len(),
            m.machine_types.iter().filter(|t| t.special).count()
        ),
        s.tasks.len(),
    );
    h.push_field("Preemption", "No");
    h.push_field("MaxNodes", &machines.to_string());
    h.push_field(
        "MaxProcs",
        &format!("{machines}  (machines per type: {})", per_type.join(", ")),
    );
    h.push_field("MaxRuntime", &format!("{max_runtime}"));
    h.push_field(
        "Note",
        "Synthetic workload of swftool's environment C after Khemka et al., Comparison of \
         energy-constrained resource allocation heuristics under different task management \
         environments, Section IV.B: tasks of 100 types over 26 h, the first 2 h warm-up; \
         general types arrive by a sinusoidal Poisson process, special types in bursts \
         (docs/energy.md, Written workloads)",
    );
    h.push_field(
        "Note",
        "Field 4 (run time) is the ETC at P-state 0 on the task type's fastest machine type, \
         rounded to whole seconds (at least 1); the machines and the ETC and APC matrices \
         are redrawn from SwftoolTrialSeed; task type and utility function are in the \
         sidecar table <stem>.tasks.csv (and .parquet), keyed by job number",
    );
    h.push_field(
        "Note",
        &format!(
            "Regenerate with: swftool synth energy --trial {trial} --seed {user_seed} \
             --tasks-per-day {}{} --event-interval {}",
            params.tasks_per_day,
            params
                .theta_s
                .map_or(String::new(), |t| format!(" --theta {}", t / 60.0)),
            params.event_interval_s
        ),
    );
    push_identity(&mut h, GENERATOR, &s.name, trial, user_seed, s.seed);
    h.push_field(KEY_WINDOW, &format!("{} {}", s.window.0, s.window.1));
    h.push_field(KEY_EVENT_INTERVAL, &format!("{}", s.event_interval));
    push_params(&mut h, params)?;
    Ok(h)
}

/// One SWF line per task ([`serial_job`]): job number, submit = arrival
/// (s from the start of the simulation), run time [`swf_run_time`], one
/// processor, status 1, every other field -1.
pub fn swf_jobs(s: &EnergyScenario) -> Vec<JobRecord> {
    s.tasks
        .iter()
        .map(|t| {
            serial_job(
                t.job_number,
                t.arrival,
                swf_run_time(&s.matrices, t.task_type),
            )
        })
        .collect()
}

/// The sidecar table: one row per task, in job-number order, with the
/// columns [`COLUMNS`].
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn tasks_frame(s: &EnergyScenario) -> PolarsResult<DataFrame> {
    let [job_number, task_type] = key_columns(s.tasks.iter().map(|t| (t.job_number, t.task_type)));
    let specs: Vec<&UtilitySpec> = s.tasks.iter().map(|t| &t.spec).collect();
    let [priority, urgency, class, scale, theta] = utility_columns(&specs);
    DataFrame::new_infer_height(vec![
        job_number, task_type, priority, urgency, class, scale, theta,
    ])
}

/// Refuses a scenario the files cannot carry: one not drawn from seed
/// `user_seed` and trial `trial`, whose matrices are not its trial seed's,
/// or with a utility function outside the twenty classes.
fn check_writable(
    s: &EnergyScenario,
    user_seed: u64,
    trial: u64,
    out: &Path,
) -> Result<(), WorkloadError> {
    let derived = scenario_seed(user_seed, ScenarioKey::Trial(trial));
    if derived != s.seed {
        return Err(WorkloadError::Parameter {
            flag: "--seed",
            value: user_seed.to_string(),
            reason: format!(
                "seed {user_seed} and trial {trial} give trial seed {derived}, but the scenario \
                 was drawn from trial seed {}",
                s.seed
            ),
        });
    }
    let mismatch = |problem: String| WorkloadError::Mismatch {
        path: out.display().to_string(),
        problem,
    };
    if Matrices::draw(s.seed)? != s.matrices {
        return Err(mismatch(format!(
            "the scenario's matrices are not those trial seed {} draws; only a trial of \
             `synthetic` can be written, as the matrices are redrawn from the seed when read",
            s.seed
        )));
    }
    if let Some(t) = s.tasks.iter().find(|t| t.spec.shape != Shape::Classes) {
        return Err(mismatch(format!(
            "job {}: its utility function is a {} function, not one of the twenty classes \
             (the sidecar table has no shape column)",
            t.job_number, t.spec.shape
        )));
    }
    Ok(())
}

/// Writes trial `scenario` (made by [`super::workload::synthetic`] from
/// `params`, `user_seed` and `trial`) as the SWF log `out` (gzip when it
/// ends in `.gz`) and its sidecar table beside it, creating the directory
/// if needed. Returns the files written: the log, the CSV and the Parquet
/// table.
///
/// # Errors
/// [`WorkloadError::Parameter`] (`--out`) when `out` does not end in
/// `.swf` or `.swf.gz`, or (`--seed`) when `user_seed` and `trial` do not
/// give the scenario's trial seed; [`WorkloadError::Mismatch`] for a
/// scenario whose matrices are not its seed's or whose utility functions
/// are not of the twenty classes (the files could not rebuild it);
/// [`WorkloadError::Write`] or [`WorkloadError::Table`] naming a file
/// that could not be written.
pub fn write_synthetic(
    scenario: &EnergyScenario,
    params: &SyntheticParams,
    user_seed: u64,
    trial: u64,
    out: &Path,
) -> Result<Vec<PathBuf>, WorkloadError> {
    let files = SynthFiles::for_out(out)?;
    check_writable(scenario, user_seed, trial, out)?;
    let header = synthetic_header(scenario, params, user_seed, trial)?;
    write_files(&files, &header, &swf_jobs(scenario), tasks_frame(scenario))?;
    Ok(vec![files.swf, files.csv, files.parquet])
}

/// What `swftool synth energy` does, as its `--help` says it.
pub const ABOUT: &str = "One trial of environment C's workload under an energy budget (Khemka et al., §IV.B): an SWF log FILE.swf[.gz] of about 32,000 tasks a day over 100 task types, and a sidecar table FILE.tasks.csv (and .parquet) with each task's type and utility function; the machines and the ETC and APC matrices follow from the trial seed";

/// The examples of `swftool synth energy --help`.
pub const EXAMPLES: &str = "Examples:\n  \
    swftool synth energy --out trial-0.swf.gz\n  \
    swftool synth energy --trial 3 --seed 7 --out t3.swf\n  \
    swftool synth energy --tasks-per-day 16000 --theta 20 --event-interval 30 --out light.swf.gz";

/// Runs `swftool synth energy`: generates the trial `a` asks for, writes
/// it ([`write_synthetic`]) and says what was written (two lines: the
/// log with its tasks, machines, seed and trial; the sidecar files).
///
/// # Errors
/// A parameter out of range (naming its flag), or a file that cannot be
/// written (as [`write_synthetic`]).
pub fn synth(a: &EnergySynthArgs) -> Result<String, WorkloadError> {
    let params = a.params();
    let scenario = synthetic(&params, a.seed, a.trial)?;
    let files = write_synthetic(&scenario, &params, a.seed, a.trial, &a.out)?;
    let counted = (0..scenario.tasks.len())
        .filter(|&i| scenario.counted(i))
        .count();
    let m = &scenario.matrices;
    let tables: Vec<String> = files
        .iter()
        .skip(1)
        .map(|f| f.display().to_string())
        .collect();
    Ok(format!(
        "{}: {} tasks ({} in the counted 24 h) on {} machines ({} machine types), seed {} trial {}\n\
         sidecar: {}",
        a.out.display(),
        scenario.tasks.len(),
        counted,
        m.machines(),
        m.machine_types.len(),
        a.seed,
        a.trial,
        tables.join(" and ")
    ))
}

/// The scenario of a trial written by [`write_synthetic`] (`swftool synth
/// energy`): `None` when the log's header names no swftool generator (a
/// plain log; read leniently for this, so a bad line of a plain log is no
/// error here); otherwise the exact scenario that was written — name,
/// trial seed, window and event interval from the header, the matrices
/// redrawn from the trial seed, arrivals from the log, task types and
/// utility functions from the sidecar table — equal (`==`) to the one
/// generated.
///
/// # Errors
/// [`WorkloadError::Swf`] for a log that cannot be read, or a bad line of
/// a log that names a generator (strict reading);
/// [`WorkloadError::Header`] for a log written by another generator
/// (`synth serial`), or a missing or bad `; Swftool…:` value (a trial seed
/// that the seed and trial do not give); [`WorkloadError::Mismatch`] for a
/// missing sidecar table, a job of the log without a row, a run time that
/// is not its type's fastest ETC rounded, or a negative submit time;
/// [`WorkloadError::Sidecar`] naming the file and line of a bad row (a
/// missing column, a bad value, a task type beyond the matrices, a job
/// given twice or not in the log); [`WorkloadError::Read`] for a table
/// that cannot be read.
pub fn read_synthetic(path: &Path) -> Result<Option<EnergyScenario>, WorkloadError> {
    let mut log = swf::read_log(path, &swf::ReadOptions::lenient())?;
    if !HeaderKeys::new(path, &log.header, GENERATOR).written_by()? {
        return Ok(None);
    }
    if !log.skipped.is_empty() {
        // Written by swftool, yet a line was skipped: the strict reading
        // names the first bad line.
        log = swf::read_log(path, &swf::ReadOptions::strict())?;
    }
    let keys = HeaderKeys::new(path, &log.header, GENERATOR);
    let csv = SynthFiles::of(path)
        .filter(|f| f.csv.is_file() || f.parquet.is_file())
        .map(|f| f.csv)
        .ok_or_else(|| WorkloadError::Mismatch {
            path: keys.path().to_string(),
            problem: format!(
                "written by `swftool {GENERATOR}`, but its sidecar table (<stem>.tasks.csv or \
                 <stem>.tasks.parquet beside a log named <stem>.swf or <stem>.swf.gz) is missing; it holds each \
                 task's type and utility function, so write the trial again"
            ),
        })?;

    let trial: u64 = keys.parse(KEY_TRIAL, "a trial number (a whole number ≥ 0)")?;
    let user_seed: u64 = keys.parse(KEY_SEED, "a seed (a whole number ≥ 0)")?;
    let seed: u64 = keys.parse(KEY_TRIAL_SEED, "a seed (a whole number ≥ 0)")?;
    let derived = scenario_seed(user_seed, ScenarioKey::Trial(trial));
    if derived != seed {
        return Err(keys.error(
            KEY_TRIAL_SEED,
            format!(
                "is {seed}, but seed {user_seed} and trial {trial} give {derived}: the header \
                 has been edited"
            ),
        ));
    }
    let name = keys.get(KEY_SCENARIO)?.to_string();
    let window = keys.window()?;
    let event_interval = keys.event_interval()?;
    let matrices = Matrices::draw(seed)?;

    let types = matrices.task_types();
    let table = SidecarTable::read(
        &csv,
        COLUMNS.iter().map(|c| (*c).to_string()).collect(),
        &format!("the table needs {}", COLUMNS.join(", ")),
    )?;
    let rows = table.rows(|row| {
        let task_type = row
            .index(1, "a task type")
            .ok()
            .filter(|&i| i < types)
            .ok_or_else(|| row.bad(1, &format!("a task type 0 to {}", types.saturating_sub(1))))?;
        let spec = row.utility_spec(&SPEC_COLUMNS, || Ok(Shape::Classes))?;
        Ok((task_type, spec))
    })?;

    let csv_shown = csv.display().to_string();
    let mut tasks = pair_rows(
        &log.jobs,
        rows,
        &csv_shown,
        keys.path(),
        |job, line, (task_type, spec)| {
            let problem = |p: String| WorkloadError::Mismatch {
                path: keys.path().to_string(),
                problem: format!("job {}: {p}", job.job_number),
            };
            let run = swf_run_time(&matrices, task_type);
            if job.run_time != run {
                return Err(problem(format!(
                    "run time {} s, but task type {task_type} (line {line} of {csv_shown}) runs \
                     {run} s at P-state 0 on its fastest machine type in trial seed {seed}; \
                     the two files are not from one run",
                    job.run_time
                )));
            }
            if job.submit_time < 0.0 {
                return Err(problem(format!(
                    "submit time {} s is before the start of the simulation",
                    job.submit_time
                )));
            }
            Ok(EnergyTask {
                job_number: job.job_number,
                arrival: job.submit_time,
                task_type,
                utility: spec.build()?,
                spec,
            })
        },
    )?;
    sort_by_arrival(&mut tasks, |t| (t.arrival, t.job_number));
    Ok(Some(EnergyScenario {
        name,
        seed,
        matrices,
        tasks,
        window,
        event_interval,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> SyntheticParams {
        SyntheticParams {
            tasks_per_day: 400.0,
            ..SyntheticParams::default()
        }
    }

    #[test]
    fn the_run_time_is_the_fastest_p0_etc_rounded() {
        let s = synthetic(&small(), 2, 0).unwrap();
        for i in 0..s.matrices.task_types() {
            let best = (0..s.matrices.machine_types.len())
                .filter_map(|k| s.matrices.etc(i, k, 0))
                .fold(f64::INFINITY, f64::min);
            assert_eq!(swf_run_time(&s.matrices, i), best.round().max(1.0));
        }
    }

    #[test]
    fn a_log_without_a_generator_is_a_plain_log() {
        let dir = tempfile::tempdir().unwrap();
        let swf = dir.path().join("plain.swf");
        std::fs::write(
            &swf,
            "; Version: 2.2\n1 0 -1 10 1 -1 -1 1 -1 -1 1 -1 -1 -1 -1 -1 -1 -1\nnot a job\n",
        )
        .unwrap();
        assert_eq!(read_synthetic(&swf).unwrap(), None);
    }

    /// Trial 0 of seed 1 written as `dir/t.swf`.
    fn written(dir: &Path) -> PathBuf {
        let s = synthetic(&small(), 1, 0).unwrap();
        let swf = dir.join("t.swf");
        write_synthetic(&s, &small(), 1, 0, &swf).unwrap();
        swf
    }

    #[test]
    fn a_bad_line_in_a_written_log_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let swf = written(dir.path());
        let mut text = std::fs::read_to_string(&swf).unwrap();
        text.push_str("12 x\n");
        std::fs::write(&swf, text).unwrap();
        let e = read_synthetic(&swf).unwrap_err().to_string();
        assert!(e.contains("t.swf"), "{e}");
    }

    #[test]
    fn an_edited_trial_seed_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let swf = written(dir.path());
        let text = std::fs::read_to_string(&swf).unwrap();
        let edited = text.replace("; SwftoolSeed: 1\n", "; SwftoolSeed: 2\n");
        assert_ne!(edited, text);
        std::fs::write(&swf, edited).unwrap();
        let e = read_synthetic(&swf).unwrap_err().to_string();
        assert!(
            e.contains("SwftoolTrialSeed") && e.contains("edited"),
            "{e}"
        );
    }

    #[test]
    fn a_scenario_the_files_cannot_carry_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let swf = dir.path().join("t.swf");
        let s = synthetic(&small(), 1, 0).unwrap();
        let e = write_synthetic(&s, &small(), 1, 1, &swf).unwrap_err();
        assert!(e.to_string().contains("--seed 1"), "{e}");
        let mut other = s.clone();
        other.matrices = Matrices::draw(7).unwrap();
        let e = write_synthetic(&other, &small(), 1, 0, &swf).unwrap_err();
        assert!(e.to_string().contains("matrices"), "{e}");
        let mut step = s.clone();
        step.tasks[0].spec.shape = Shape::Step;
        let e = write_synthetic(&step, &small(), 1, 0, &swf).unwrap_err();
        assert!(e.to_string().contains("twenty classes"), "{e}");
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none());
    }
}
