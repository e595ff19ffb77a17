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
/// [`jobs_frame`] does). Made on the thread pool, block by block of jobs:
/// each block's records are read once, while in cache, and written to the
/// 18 columns (rather than a pass over all the records per column, which
/// reads them from memory 18 times); the columns' memory is zeroed by the
/// kernel as the pool's threads first write it.
pub fn job_columns(jobs: &[JobRecord]) -> Vec<JobColumn> {
    use rayon::prelude::*;
    /// Jobs per block (144 bytes each: 576 KB, within a core's cache).
    const BLOCK: usize = 4096;
    let n = jobs.len();
    // The 12 count and id fields, then the 6 times, each in field order.
    let mut ints: Vec<Vec<i64>> = (0..12).map(|_| vec![0; n]).collect();
    let mut floats: Vec<Vec<f64>> = (0..6).map(|_| vec![0.0; n]).collect();
    {
        let mut int_blocks: Vec<_> = ints.iter_mut().map(|c| c.chunks_mut(BLOCK)).collect();
        let mut float_blocks: Vec<_> = floats.iter_mut().map(|c| c.chunks_mut(BLOCK)).collect();
        let blocks: Vec<_> = jobs
            .chunks(BLOCK)
            .map(|js| {
                let i: Vec<&mut [i64]> = int_blocks
                    .iter_mut()
                    .map(|c| c.next().expect("as many blocks as jobs"))
                    .collect();
                let f: Vec<&mut [f64]> = float_blocks
                    .iter_mut()
                    .map(|c| c.next().expect("as many blocks as jobs"))
                    .collect();
                (js, i, f)
            })
            .collect();
        blocks.into_par_iter().for_each(|(js, mut i, mut f)| {
            for (k, j) in js.iter().enumerate() {
                i[0][k] = j.job_number;
                f[0][k] = j.submit_time;
                f[1][k] = j.wait_time;
                f[2][k] = j.run_time;
                i[1][k] = j.allocated_processors;
                f[3][k] = j.average_cpu_time;
                i[2][k] = j.used_memory;
                i[3][k] = j.requested_processors;
                f[4][k] = j.requested_time;
                i[4][k] = j.requested_memory;
                i[5][k] = j.status;
                i[6][k] = j.user_id;
                i[7][k] = j.group_id;
                i[8][k] = j.executable_number;
                i[9][k] = j.queue_number;
                i[10][k] = j.partition_number;
                i[11][k] = j.preceding_job_number;
                f[5][k] = j.think_time;
            }
        });
    }
    // Back in field order: fields 2, 3, 4, 6, 9 and 18 are the times.
    const TIMES: [usize; 6] = [1, 2, 3, 5, 8, 17];
    let (mut ints, mut floats) = (ints.into_iter(), floats.into_iter());
    (0..JOB_COLUMNS.len())
        .map(|k| {
            if TIMES.contains(&k) {
                JobColumn::Float(floats.next().expect("six times"))
            } else {
                JobColumn::Int(ints.next().expect("twelve counts and ids"))
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
    fn columns_hold_every_field_of_every_job_in_field_order() {
        // More jobs than a block, each field different from the others.
        let jobs: Vec<JobRecord> = (0..10_000i64)
            .map(|n| {
                let f = |k: i64| n * 100 + k;
                let line: Vec<String> = (1..=18).map(|k| f(k).to_string()).collect();
                job_line(line.join(" ").as_bytes()).unwrap()
            })
            .collect();
        let columns = job_columns(&jobs);
        assert_eq!(columns.len(), 18);
        for (k, c) in columns.iter().enumerate() {
            let want: Vec<i64> = (0..10_000i64).map(|n| n * 100 + k as i64 + 1).collect();
            let got: Vec<i64> = match c {
                JobColumn::Int(v) => v.clone(),
                JobColumn::Float(v) => v.iter().map(|&x| x as i64).collect(),
            };
            assert_eq!(got, want, "column {}", JOB_COLUMNS[k]);
            let time = matches!(c, JobColumn::Float(_));
            assert_eq!(time, [1, 2, 3, 5, 8, 17].contains(&k), "{}", JOB_COLUMNS[k]);
        }
    }

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
