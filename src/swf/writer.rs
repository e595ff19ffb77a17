//! Writing SWF: the header lines verbatim, then one line of 18 fields per job.
//!
//! Output is valid PWA SWF v2.2 and round-trips through the reader:
//! `parse(write(x)) == x` for the header (lines and typed fields) and the
//! jobs. Time fields (`f64`) are written as integers when integral (`969`,
//! not `969.0`) and otherwise in the shortest form that parses back to the
//! same `f64` (`969.56`). Columns are right-aligned to widths similar to the
//! PWA's own files; wider values simply widen their column.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use flate2::{Compression, write::GzEncoder};

use super::header::SwfHeader;
use super::parser::TIME_LIMIT;
use super::record::JobRecord;

/// Minimum width of each of the 18 columns (right-aligned).
const WIDTHS: [usize; 18] = [5, 8, 6, 6, 4, 6, 5, 4, 6, 5, 2, 3, 3, 3, 2, 2, 2, 2];

/// A field value ready to be written.
enum Value {
    Int(i64),
    Time(f64),
}

/// Writes `v` as SWF text: an integer when integral, else Rust's shortest
/// round-trip representation.
fn write_time(out: &mut String, v: f64) {
    use std::fmt::Write as _;
    // -2^63 ≤ v < 2^63 and integral: exact as i64.
    if v.fract() == 0.0 && (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&v)
    {
        let _ = write!(out, "{}", v as i64);
    } else {
        let _ = write!(out, "{v}");
    }
}

/// Formats one job as an SWF data line (no line terminator).
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] when a time field is NaN, infinite or
/// 2^53 s or more in magnitude (the reader refuses those: they are not
/// exact).
pub fn format_job(job: &JobRecord) -> io::Result<String> {
    use std::fmt::Write as _;
    let values = [
        Value::Int(job.job_number),
        Value::Time(job.submit_time),
        Value::Time(job.wait_time),
        Value::Time(job.run_time),
        Value::Int(job.allocated_processors),
        Value::Time(job.average_cpu_time),
        Value::Int(job.used_memory),
        Value::Int(job.requested_processors),
        Value::Time(job.requested_time),
        Value::Int(job.requested_memory),
        Value::Int(job.status),
        Value::Int(job.user_id),
        Value::Int(job.group_id),
        Value::Int(job.executable_number),
        Value::Int(job.queue_number),
        Value::Int(job.partition_number),
        Value::Int(job.preceding_job_number),
        Value::Time(job.think_time),
    ];
    let mut line = String::with_capacity(96);
    let mut cell = String::with_capacity(24);
    for (i, (value, width)) in values.iter().zip(WIDTHS).enumerate() {
        cell.clear();
        match *value {
            Value::Int(v) => {
                let _ = write!(cell, "{v}");
            }
            Value::Time(v) if v.abs() < TIME_LIMIT => write_time(&mut cell, v),
            Value::Time(v) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "job {}: field {} is {v}, which SWF cannot represent (times must be finite and below 2^53 s in magnitude)",
                        job.job_number,
                        i + 1
                    ),
                ));
            }
        }
        if i > 0 {
            line.push(' ');
        }
        for _ in cell.len()..width {
            line.push(' ');
        }
        line.push_str(&cell);
    }
    Ok(line)
}

/// Writes a whole log: every line of `header.lines` verbatim, then one line
/// per job, each terminated by `'\n'`.
///
/// # Errors
/// Any write error of `w`; [`io::ErrorKind::InvalidInput`] for a NaN,
/// infinite or too large (≥ 2^53 s) time field.
pub fn write_log<W: Write>(log_header: &SwfHeader, jobs: &[JobRecord], mut w: W) -> io::Result<()> {
    for line in &log_header.lines {
        w.write_all(line.as_bytes())?;
        w.write_all(b"\n")?;
    }
    for job in jobs {
        w.write_all(format_job(job)?.as_bytes())?;
        w.write_all(b"\n")?;
    }
    w.flush()
}

/// Writes a whole log to a file, gzip-compressed when the path ends in `.gz`.
///
/// # Errors
/// Creating or writing the file; see [`write_log`].
pub fn write_path(log_header: &SwfHeader, jobs: &[JobRecord], path: &Path) -> io::Result<()> {
    let gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    // Whole or not at all (crate::atomic).
    crate::atomic::write_with(path, |tmp| {
        let file = BufWriter::new(File::create(tmp)?);
        if gz {
            let mut enc = GzEncoder::new(file, Compression::default());
            write_log(log_header, jobs, &mut enc)?;
            enc.finish()?.flush()
        } else {
            write_log(log_header, jobs, file)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swf::parser::job_line;

    fn job() -> JobRecord {
        JobRecord {
            job_number: 21,
            submit_time: 2137605.0,
            wait_time: 117703.0,
            run_time: 8418.0,
            allocated_processors: 32,
            average_cpu_time: 969.56,
            used_memory: -1,
            requested_processors: 32,
            requested_time: 604800.0,
            requested_memory: -1,
            status: 1,
            user_id: 14,
            group_id: 10,
            executable_number: -1,
            queue_number: 9,
            partition_number: 3,
            preceding_job_number: -1,
            think_time: -1.0,
        }
    }

    #[test]
    fn format_job_matches_pwa_layout() {
        assert_eq!(
            format_job(&job()).unwrap(),
            "   21  2137605 117703   8418   32 969.56    -1   32 604800    -1  1  14  10  -1  9  3 -1 -1"
        );
    }

    #[test]
    fn format_job_round_trips() {
        let mut j = job();
        j.submit_time = 0.1 + 0.2;
        j.requested_time = 9_007_199_254_740_991.0;
        j.think_time = -0.5;
        let back = job_line(format_job(&j).unwrap().as_bytes()).unwrap();
        assert_eq!(back, j);
    }

    #[test]
    fn non_finite_time_is_an_error() {
        let mut j = job();
        for v in [f64::NAN, f64::INFINITY, 1e300, -9_007_199_254_740_992.0] {
            j.run_time = v;
            assert_eq!(
                format_job(&j).unwrap_err().kind(),
                io::ErrorKind::InvalidInput,
                "{v}"
            );
        }
    }
}
