//! The jobs of a log as a polars DataFrame: one row per data line, the 18
//! SWF fields under the names of [`JobRecord`]'s fields (`job_number`,
//! `submit_time`, … `think_time`), in field order. Where the format says
//! `-1` means unknown (every field), the cell is null; times are `f64`
//! seconds, counts and ids `i64`. The Python package's `read_swf` returns
//! this frame, made on the Python side from [`job_columns`].

use polars::prelude::*;

use super::record::JobRecord;

/// The column names of [`jobs_frame`], in SWF field order (field 1 first).
pub const JOB_COLUMNS: [&str; 18] = [
    "job_number",
    "submit_time",
    "wait_time",
    "run_time",
    "allocated_processors",
    "average_cpu_time",
    "used_memory",
    "requested_processors",
    "requested_time",
    "requested_memory",
    "status",
    "user_id",
    "group_id",
    "executable_number",
    "queue_number",
    "partition_number",
    "preceding_job_number",
    "think_time",
];

/// One column of the jobs as read, `-1` (unknown) kept: counts and ids
/// `i64`, times `f64` seconds.
#[derive(Debug, Clone, PartialEq)]
pub enum JobColumn {
    /// A count or id field.
    Int(Vec<i64>),
    /// A time field, s.
    Float(Vec<f64>),
}

/// The 18 columns of [`JOB_COLUMNS`] as plain vectors of length
/// `jobs.len()`, `-1` kept (the Python package makes it null, as
/// [`jobs_frame`] does). Made on the thread pool.
pub fn job_columns(jobs: &[JobRecord]) -> Vec<JobColumn> {
    use rayon::prelude::*;
    (0..JOB_COLUMNS.len())
        .into_par_iter()
        .map(|k| {
            let ints = |f: fn(&JobRecord) -> i64| JobColumn::Int(jobs.iter().map(f).collect());
            let floats = |f: fn(&JobRecord) -> f64| JobColumn::Float(jobs.iter().map(f).collect());
            match k {
                0 => ints(|j| j.job_number),
                1 => floats(|j| j.submit_time),
                2 => floats(|j| j.wait_time),
                3 => floats(|j| j.run_time),
                4 => ints(|j| j.allocated_processors),
                5 => floats(|j| j.average_cpu_time),
                6 => ints(|j| j.used_memory),
                7 => ints(|j| j.requested_processors),
                8 => floats(|j| j.requested_time),
                9 => ints(|j| j.requested_memory),
                10 => ints(|j| j.status),
                11 => ints(|j| j.user_id),
                12 => ints(|j| j.group_id),
                13 => ints(|j| j.executable_number),
                14 => ints(|j| j.queue_number),
                15 => ints(|j| j.partition_number),
                16 => ints(|j| j.preceding_job_number),
                _ => floats(|j| j.think_time),
            }
        })
        .collect()
}

/// The jobs as a DataFrame of shape (jobs, 18): the columns of
/// [`JOB_COLUMNS`], `-1` (unknown) as null. The columns are made on the
/// thread pool.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn jobs_frame(jobs: &[JobRecord]) -> PolarsResult<DataFrame> {
    use rayon::prelude::*;
    let columns = job_columns(jobs)
        .into_par_iter()
        .zip(JOB_COLUMNS)
        .map(|(c, name)| match c {
            JobColumn::Int(v) => {
                let cells = v.into_iter().map(|x| Some(x).filter(|&x| x != -1));
                Int64Chunked::from_iter_options(name.into(), cells).into_column()
            }
            JobColumn::Float(v) => {
                let cells = v.into_iter().map(|x| Some(x).filter(|&x| x != -1.0));
                Float64Chunked::from_iter_options(name.into(), cells).into_column()
            }
        })
        .collect();
    DataFrame::new_infer_height(columns)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swf::parser::job_line;

    #[test]
    fn unknown_fields_are_null_and_the_rest_kept() {
        let j = job_line(b"7 10 -1 3600 4 -1 -1 4 7200 -1 1 3 2 -1 1 1 -1 -1").unwrap();
        let df = jobs_frame(&[j, j]).unwrap();
        assert_eq!(df.shape(), (2, 18));
        let names: Vec<&str> = df.get_column_names().iter().map(|s| s.as_str()).collect();
        assert_eq!(names, JOB_COLUMNS);
        assert_eq!(df.column("wait_time").unwrap().null_count(), 2);
        assert_eq!(df.column("think_time").unwrap().null_count(), 2);
        let run = df.column("run_time").unwrap().f64().unwrap().get(0);
        assert_eq!(run, Some(3600.0));
        let user = df.column("user_id").unwrap().i64().unwrap().get(1);
        assert_eq!(user, Some(3));
    }
}
