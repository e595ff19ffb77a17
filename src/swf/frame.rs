//! The jobs of a log as a polars DataFrame: one row per data line, the 18
//! SWF fields under the names of [`JobRecord`]'s fields (`job_number`,
//! `submit_time`, … `think_time`), in field order. Where the format says
//! `-1` means unknown (every field), the cell is null; times are `f64`
//! seconds, counts and ids `i64`. The Python package's `read_swf` returns
//! this frame.

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

fn ints(jobs: &[JobRecord], f: impl Fn(&JobRecord) -> i64) -> Vec<Option<i64>> {
    jobs.iter()
        .map(|j| Some(f(j)).filter(|&v| v != -1))
        .collect()
}

fn floats(jobs: &[JobRecord], f: impl Fn(&JobRecord) -> f64) -> Vec<Option<f64>> {
    jobs.iter()
        .map(|j| Some(f(j)).filter(|&v| v != -1.0))
        .collect()
}

/// The jobs as a DataFrame of shape (jobs, 18): the columns of
/// [`JOB_COLUMNS`], `-1` (unknown) as null.
///
/// # Errors
/// A polars error if the columns cannot be assembled (a bug).
pub fn jobs_frame(jobs: &[JobRecord]) -> PolarsResult<DataFrame> {
    let [
        c1,
        c2,
        c3,
        c4,
        c5,
        c6,
        c7,
        c8,
        c9,
        c10,
        c11,
        c12,
        c13,
        c14,
        c15,
        c16,
        c17,
        c18,
    ] = JOB_COLUMNS;
    DataFrame::new_infer_height(vec![
        Column::new(c1.into(), ints(jobs, |j| j.job_number)),
        Column::new(c2.into(), floats(jobs, |j| j.submit_time)),
        Column::new(c3.into(), floats(jobs, |j| j.wait_time)),
        Column::new(c4.into(), floats(jobs, |j| j.run_time)),
        Column::new(c5.into(), ints(jobs, |j| j.allocated_processors)),
        Column::new(c6.into(), floats(jobs, |j| j.average_cpu_time)),
        Column::new(c7.into(), ints(jobs, |j| j.used_memory)),
        Column::new(c8.into(), ints(jobs, |j| j.requested_processors)),
        Column::new(c9.into(), floats(jobs, |j| j.requested_time)),
        Column::new(c10.into(), ints(jobs, |j| j.requested_memory)),
        Column::new(c11.into(), ints(jobs, |j| j.status)),
        Column::new(c12.into(), ints(jobs, |j| j.user_id)),
        Column::new(c13.into(), ints(jobs, |j| j.group_id)),
        Column::new(c14.into(), ints(jobs, |j| j.executable_number)),
        Column::new(c15.into(), ints(jobs, |j| j.queue_number)),
        Column::new(c16.into(), ints(jobs, |j| j.partition_number)),
        Column::new(c17.into(), ints(jobs, |j| j.preceding_job_number)),
        Column::new(c18.into(), floats(jobs, |j| j.think_time)),
    ])
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
