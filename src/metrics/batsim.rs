//! Batsim's `jobs.csv` (Batsim documentation, "Jobs" output: `job_id`,
//! `workload_name`, `profile`, `submission_time`,
//! `requested_number_of_resources`, `requested_time`, `success`,
//! `final_state`, `starting_time`, `execution_time`, `finish_time`,
//! `waiting_time`, `turnaround_time`, `stretch`, `allocated_resources`,
//! `consumed_energy`, `metadata`), which evalys loads (`JobSet.from_csv`)
//! and draws: the one writer every environment's `--export batsim` uses,
//! from the resources each engine itself gave every job.

use polars::prelude::*;

/// Resources as Batsim's interval set, canonical: disjoint ascending
/// intervals, `a-b` or `a`, separated by spaces (`[0, 1, 2, 5]` → `0-2 5`).
pub fn interval_set(units: &[u32]) -> String {
    let mut sorted = units.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let a = sorted[i];
        let mut b = a;
        while i + 1 < sorted.len() && sorted[i + 1] == b + 1 {
            i += 1;
            b = sorted[i];
        }
        parts.push(if a == b {
            a.to_string()
        } else {
            format!("{a}-{b}")
        });
        i += 1;
    }
    parts.join(" ")
}

/// One job that ran, as Batsim writes it (times in s on the log's clock).
#[derive(Debug, Clone, PartialEq)]
pub struct BatsimJob {
    /// The job's id (SWF field 1).
    pub job_id: i64,
    /// Submit, s.
    pub submission_time: f64,
    /// Resources it asked for (Batsim's hosts: the environment's units).
    pub requested_number_of_resources: u64,
    /// Its walltime, s (the estimate; the run time where it has none).
    pub requested_time: f64,
    /// Whether it ran to its end (`success` 1, `COMPLETED_SUCCESSFULLY`);
    /// false: cut off (`success` 0, `COMPLETED_KILLED`).
    pub completed: bool,
    /// Start, s.
    pub starting_time: f64,
    /// End, s.
    pub finish_time: f64,
    /// The resources the engine gave it (global ids).
    pub allocated_resources: Vec<u32>,
    /// Energy, J (−1: no energy model).
    pub consumed_energy: f64,
    /// Free text (empty by default).
    pub metadata: String,
}

/// Batsim's `jobs.csv` of one run of workload `workload`: one row per job
/// of `jobs`, in order; `profile` `delay` (a job is its run time),
/// `execution_time` = finish − start, `waiting_time` = start − submit,
/// `turnaround_time` = finish − submit, `stretch` = turnaround / execution.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn jobs_frame(workload: &str, jobs: &[BatsimJob]) -> PolarsResult<DataFrame> {
    let n = jobs.len();
    let f = |g: fn(&BatsimJob) -> f64| jobs.iter().map(g).collect::<Vec<f64>>();
    df! {
        "job_id" => jobs.iter().map(|j| j.job_id).collect::<Vec<_>>(),
        "workload_name" => vec![workload; n],
        "profile" => vec!["delay"; n],
        "submission_time" => f(|j| j.submission_time),
        "requested_number_of_resources" => jobs.iter().map(|j| j.requested_number_of_resources).collect::<Vec<_>>(),
        "requested_time" => f(|j| j.requested_time),
        "success" => jobs.iter().map(|j| i32::from(j.completed)).collect::<Vec<_>>(),
        "final_state" => jobs.iter().map(|j| if j.completed { "COMPLETED_SUCCESSFULLY" } else { "COMPLETED_KILLED" }).collect::<Vec<_>>(),
        "starting_time" => f(|j| j.starting_time),
        "execution_time" => f(|j| j.finish_time - j.starting_time),
        "finish_time" => f(|j| j.finish_time),
        "waiting_time" => f(|j| j.starting_time - j.submission_time),
        "turnaround_time" => f(|j| j.finish_time - j.submission_time),
        "stretch" => f(|j| (j.finish_time - j.submission_time) / (j.finish_time - j.starting_time)),
        "allocated_resources" => jobs.iter().map(|j| interval_set(&j.allocated_resources)).collect::<Vec<_>>(),
        "consumed_energy" => f(|j| j.consumed_energy),
        "metadata" => jobs.iter().map(|j| j.metadata.as_str()).collect::<Vec<_>>(),
    }
}

/// Writes `jobs` as `<dir>/<rel>` (`rel` e.g. `batsim/easy/jobs.csv`),
/// creating its folder; returns `rel`.
///
/// # Errors
/// [`super::tables::TableError`] naming the file.
pub fn write(
    dir: &std::path::Path,
    rel: &str,
    workload: &str,
    jobs: &[BatsimJob],
) -> Result<String, super::tables::TableError> {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|source| super::tables::TableError::Create {
            path: parent.to_path_buf(),
            source,
        })?;
    }
    let mut df = jobs_frame(workload, jobs).map_err(|source| super::tables::TableError::Write {
        path: path.clone(),
        source,
    })?;
    super::tables::write_csv(&mut df, &path)?;
    Ok(rel.to_string())
}

/// One replayed run for [`write_runs`]: its scenario's name, its
/// heuristic, the rows of the jobs that ran and how many never ran.
pub type RunRows<'a> = (String, &'a str, Vec<BatsimJob>, usize);

/// Writes each run's rows at [`rel_path`] under `dir` (by scenario too
/// when the runs have several), saying on standard error how many jobs of
/// a run are not in its file and why; returns the relative paths.
///
/// # Errors
/// [`super::tables::TableError`] naming the file.
pub fn write_runs(
    dir: &std::path::Path,
    workload: &str,
    runs: &[RunRows<'_>],
) -> Result<Vec<String>, super::tables::TableError> {
    let several = runs.iter().any(|r| r.0 != runs[0].0);
    runs.iter()
        .map(|(scenario, heuristic, jobs, never)| {
            let rel = rel_path(several, scenario, heuristic);
            if *never > 0 {
                eprintln!(
                    "note: {rel} lists the {} jobs that ran; {never} never started (dropped, or waiting when the run ended) and are not in it (the jobs table has them)",
                    jobs.len()
                );
            }
            write(dir, &rel, workload, jobs)
        })
        .collect()
}

/// A log file name as Batsim's workload name: without `.gz` and `.swf`.
pub fn workload_name(log: &str) -> String {
    log.trim_end_matches(".gz")
        .trim_end_matches(".swf")
        .to_string()
}

/// Where a run's `jobs.csv` goes: `batsim/<heuristic>/jobs.csv`, or with
/// `several` scenarios `batsim/<scenario>/<heuristic>/jobs.csv` (the
/// scenario's name with every character but letters, digits, `-`, `.`
/// and `_` as `_`).
pub fn rel_path(several: bool, scenario: &str, heuristic: &str) -> String {
    if several {
        let safe: String = scenario
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "-._".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("batsim/{safe}/{heuristic}/jobs.csv")
    } else {
        format!("batsim/{heuristic}/jobs.csv")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_sets_are_canonical() {
        assert_eq!(interval_set(&[5, 0, 2, 1, 2]), "0-2 5");
        assert_eq!(interval_set(&[7]), "7");
        assert_eq!(interval_set(&[]), "");
    }

    #[test]
    fn several_scenarios_get_a_safe_folder_each() {
        assert_eq!(rel_path(false, "x", "easy"), "batsim/easy/jobs.csv");
        assert_eq!(
            rel_path(true, "trial 0 (a/b)", "easy"),
            "batsim/trial_0__a_b_/easy/jobs.csv"
        );
    }
}
