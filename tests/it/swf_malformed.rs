//! Malformed input: each case gives the documented error (variant and line
//! number) in strict mode, or a counted skip in lenient mode, and never a panic.

use std::io::{Cursor, Write};
use std::path::Path;

use flate2::{Compression, write::GzEncoder};
use swftool::swf::{ReadOptions, SkipKind, SwfError, SwfLog, read_from, read_log};

const CURIE_GZ: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/traces/CEA-Curie-2011-2.1-cln.swf.gz"
);

const HEADER: &str = "; Version: 2.2\n; MaxProcs: 64\n";
const JOB1: &str = "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n";
const JOB2: &str = "2 10 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n";

/// Job `n` submitted at `n` minutes, as one SWF line (the big logs below).
fn numbered_job(n: u64) -> String {
    format!(
        "{n} {} 10 3600 4 -1 -1 4 7200 -1 1 3 1 -1 1 -1 -1 -1\n",
        n * 60
    )
}

fn strict(text: impl AsRef<[u8]>) -> Result<SwfLog, SwfError> {
    read_from(
        Cursor::new(text.as_ref()),
        "bad.swf",
        &ReadOptions::strict(),
    )
}

fn lenient(text: impl AsRef<[u8]>) -> Result<SwfLog, SwfError> {
    read_from(
        Cursor::new(text.as_ref()),
        "bad.swf",
        &ReadOptions::lenient(),
    )
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

#[test]
fn wrong_field_count_is_an_error_with_its_line_or_a_counted_skip() {
    let text = format!("{HEADER}{JOB1}1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1\n{JOB2}");
    let err = strict(&text).unwrap_err();
    assert!(
        matches!(
            err,
            SwfError::WrongFieldCount {
                line: 4,
                found: 17,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("bad.swf:4: wrong field count: expected 18, found 17; ")
            && err.to_string().contains("--lenient"),
        "{err}"
    );
    let log = lenient(&text).unwrap();
    assert_eq!(log.jobs.len(), 2);
    assert_eq!(log.skipped.count(SkipKind::WrongFieldCount), 1);
    assert_eq!(log.skipped.total(), 1);
    assert_eq!(log.skipped.examples[0].0, 4);
}

#[test]
fn too_many_fields_is_a_wrong_field_count() {
    let text = format!("{HEADER}1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1 7\n");
    assert!(matches!(
        strict(&text).unwrap_err(),
        SwfError::WrongFieldCount {
            line: 3,
            found: 19,
            ..
        }
    ));
}

#[test]
fn non_numeric_token_names_field_and_token() {
    let text = format!("{JOB1}{JOB1}2 10 5 1x0 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n");
    let err = strict(&text).unwrap_err();
    match &err {
        SwfError::NonNumeric {
            line, field, token, ..
        } => {
            assert_eq!((*line, *field, token.as_str()), (3, 4, "1x0"));
        }
        other => panic!("expected NonNumeric, got {other:?}"),
    }
    assert!(
        err.to_string()
            .starts_with("bad.swf:3: field 4: non-numeric value \"1x0\"; "),
        "{err}"
    );
    let log = lenient(&text).unwrap();
    assert_eq!(log.jobs.len(), 2);
    assert_eq!(log.skipped.count(SkipKind::NonNumeric), 1);
}

#[test]
fn fraction_in_integer_field_is_not_an_integer() {
    let text = format!("{JOB1}2 10 5 100 4.5 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n");
    assert!(matches!(
        strict(&text).unwrap_err(),
        SwfError::NotAnInteger {
            line: 2,
            field: 5,
            ..
        }
    ));
    let log = lenient(&text).unwrap();
    assert_eq!(log.skipped.count(SkipKind::NotAnInteger), 1);
    assert_eq!(log.jobs.len(), 1);
}

#[test]
fn non_utf8_bytes_are_not_text_and_never_echoed() {
    let mut text = JOB1.as_bytes().to_vec();
    let bad = b"2 10 5 100 4 -1 -1 4 200 -1 1 \xff\xfe 1 -1 1 1 -1 -1\n";
    text.extend_from_slice(bad);
    let err = strict(&text).unwrap_err();
    assert!(
        matches!(
            err,
            SwfError::NotText {
                line: 2,
                column: 31,
                byte: 0xff,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "bad.swf: line 2 is not text (byte 0xff at column 31); SWF is plain text"
    );
    let log = lenient(&text).unwrap();
    assert_eq!(log.skipped.count(SkipKind::NotText), 1);
    assert_eq!(log.jobs.len(), 1);
}

#[test]
fn comment_among_data_is_an_error_or_a_counted_skip() {
    let text = format!("{HEADER}{JOB1}; Note: late\n{JOB2}");
    assert!(matches!(
        strict(&text).unwrap_err(),
        SwfError::CommentAmongData { line: 4, .. }
    ));
    let log = lenient(&text).unwrap();
    assert_eq!(log.jobs.len(), 2);
    assert_eq!(log.skipped.count(SkipKind::CommentAmongData), 1);
    assert!(log.header.notes.is_empty(), "a late comment is not header");
}

#[test]
fn crlf_line_endings_read_like_lf() {
    let lf = format!("{HEADER}; Note: two\n;\tlines\n{JOB1}{JOB2}");
    let crlf = lf.replace('\n', "\r\n");
    let mut a = strict(&lf).unwrap();
    let mut b = strict(&crlf).unwrap();
    // The digest is of the bytes as written (it recognises a known log),
    // so it differs; everything read is the same.
    assert_ne!(a.sha256, b.sha256);
    (a.sha256, b.sha256) = (None, None);
    assert_eq!(a, b);
    assert_eq!(b.header.lines[0], "; Version: 2.2");
    assert_eq!(b.header.notes, vec!["two\nlines"]);
    assert_eq!(b.jobs.len(), 2);
}

#[test]
fn blank_lines_are_counted_not_errors() {
    let text = format!("\n{HEADER}   \n{JOB1}\t\n\r\n{JOB2}\n");
    for log in [strict(&text).unwrap(), lenient(&text).unwrap()] {
        assert_eq!(log.jobs.len(), 2);
        assert_eq!(log.blank_lines, 5);
        assert!(log.skipped.is_empty());
        assert_eq!(log.header.lines.len(), 2);
    }
}

#[test]
fn int32_max_fits_in_every_field() {
    let line = ["2147483647"; 18].join(" ");
    let log = strict(format!("{line}\n")).unwrap();
    let j = log.jobs[0];
    assert_eq!(j.job_number, 2_147_483_647);
    assert_eq!(j.requested_time, 2_147_483_647.0);
    assert_eq!(j.requested_processors, 2_147_483_647);
    assert_eq!(j.think_time, 2_147_483_647.0);
}

#[test]
fn last_line_without_newline_is_read() {
    let text = format!("{JOB1}{}", JOB2.trim_end());
    assert_eq!(strict(&text).unwrap().jobs.len(), 2);
}

#[test]
fn empty_input_is_an_empty_log() {
    let log = strict("").unwrap();
    assert!(log.jobs.is_empty() && log.header.is_empty());
}

#[test]
fn lenient_report_counts_each_kind() {
    let text = format!(
        "{HEADER}{JOB1}1 2 3\nx 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n\
         1 0 5 100 4 -1 1.5 4 200 -1 1 1 1 -1 1 1 -1 -1\n; late\n{JOB2}1 2\n"
    );
    let log = lenient(&text).unwrap();
    let r = &log.skipped;
    assert_eq!(log.jobs.len(), 2);
    assert_eq!(r.count(SkipKind::WrongFieldCount), 2);
    assert_eq!(r.count(SkipKind::NonNumeric), 1);
    assert_eq!(r.count(SkipKind::NotAnInteger), 1);
    assert_eq!(r.count(SkipKind::CommentAmongData), 1);
    assert_eq!(r.total(), 5);
    let lines: Vec<u64> = r.examples.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, vec![4, 5, 6, 7, 9]);
    let shown = r.to_string();
    assert!(shown.starts_with("skipped 5 lines: 2 wrong field count, 1 non-numeric value"));
}

#[test]
fn truncated_gzip_names_the_file_and_the_line_reached() {
    let data = std::fs::read(CURIE_GZ).unwrap();
    let prefix = &data[..200_000];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("CEA-Curie-cut.swf.gz");
    std::fs::write(&path, prefix).unwrap();
    for opts in [ReadOptions::strict(), ReadOptions::lenient()] {
        let err = read_log(&path, &opts).unwrap_err();
        match &err {
            SwfError::TruncatedGzip {
                file,
                line,
                complete,
            } => {
                assert_eq!(file, &path.display().to_string());
                assert_eq!(*line, complete + 1);
                assert!(*complete > 1000, "{complete} lines read before the cut");
            }
            other => panic!("expected TruncatedGzip, got {other:?}"),
        }
        let msg = err.to_string();
        assert!(msg.contains("CEA-Curie-cut.swf.gz:"), "{msg}");
        assert!(msg.contains("unexpected end of gzip stream"), "{msg}");
    }
}

#[test]
fn small_gzip_cut_anywhere_is_an_error_not_a_panic() {
    let text = format!("{HEADER}{}", format!("{JOB1}{JOB2}").repeat(20));
    let gz = gzip(text.as_bytes());
    assert_eq!(strict(&gz).unwrap().jobs.len(), 40);
    // Keep at least the magic bytes so that the input is seen as gzip.
    for cut in 2..gz.len() {
        let err = strict(&gz[..cut]).unwrap_err();
        assert!(
            matches!(err, SwfError::TruncatedGzip { .. }),
            "cut at {cut}: {err:?}"
        );
    }
}

#[test]
fn corrupt_gzip_checksum_is_reported() {
    let text = format!("{HEADER}{JOB1}{JOB2}");
    let mut gz = gzip(text.as_bytes());
    let n = gz.len();
    gz[n - 8] ^= 0xff; // CRC32 of the trailer
    let err = strict(&gz).unwrap_err();
    assert!(
        matches!(err, SwfError::CorruptGzip { line: 5, .. }),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.starts_with("bad.swf:5: the gzip data is damaged ("),
        "{text}"
    );
    assert_eq!(text.matches("checksum").count(), 1, "{text}");
    assert!(std::error::Error::source(&err).is_none());
}

#[test]
fn missing_file_is_not_found() {
    let err = read_log(Path::new("/nonexistent/x.swf.gz"), &ReadOptions::default()).unwrap_err();
    assert!(matches!(err, SwfError::NotFound { .. }));
    assert_eq!(err.to_string(), "/nonexistent/x.swf.gz: no such file");
}

#[test]
fn a_directory_is_named_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let err = read_log(dir.path(), &ReadOptions::default()).unwrap_err();
    assert!(matches!(err, SwfError::IsDirectory { .. }), "{err:?}");
    assert!(
        err.to_string()
            .ends_with(" is a directory; give an SWF log file (.swf or .swf.gz)"),
        "{err}"
    );
}

/// The data section is parsed in parallel chunks of about 1 MB: lines far
/// into a big log (several chunks) keep their line numbers in errors and in
/// the lenient report, and blank lines and jobs are counted as a
/// line-by-line read counts them.
#[test]
fn a_big_log_parsed_in_chunks_names_the_same_lines() {
    use swftool::swf::{ReadOptions, read_from};
    let mut text = String::from("; Version: 2.2\n; MaxProcs: 64\n");
    let header = 2u64;
    let jobs = 60_000u64;
    for n in 1..=jobs {
        text.push_str(&numbered_job(n));
        if n == 20_000 {
            text.push_str("   \n");
        }
    }
    assert!(text.len() > 3 << 20, "several chunks");
    let clean = read_from(
        std::io::Cursor::new(text.as_bytes()),
        "big",
        &ReadOptions::strict(),
    )
    .unwrap();
    assert_eq!(clean.jobs.len() as u64, jobs);
    assert_eq!(clean.blank_lines, 1);
    assert_eq!(clean.jobs[45_000].job_number, 45_001);
    // A bad line and a comment deep in the data: line numbers count the
    // header and the blank line.
    let bad_at = header + 1 + 50_000; // the 50,000th job line, after the blank one
    let mut lines: Vec<&str> = text.lines().collect();
    lines[(bad_at - 1) as usize] = "50000 3000000 x 3600 4 -1 -1 4 7200 -1 1 3 1 -1 1 -1 -1 -1";
    let comment_at = bad_at + 5_000;
    lines[(comment_at - 1) as usize] = "; a late comment";
    let broken = lines.join("\n");
    let e = read_from(
        std::io::Cursor::new(broken.as_bytes()),
        "big",
        &ReadOptions::strict(),
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with(&format!("big:{bad_at}: field 3")), "{e}");
    let lenient = read_from(
        std::io::Cursor::new(broken.as_bytes()),
        "big",
        &ReadOptions::lenient(),
    )
    .unwrap();
    assert_eq!(lenient.jobs.len() as u64, jobs - 2);
    let report = lenient.skipped.to_string();
    assert!(
        report.contains(&bad_at.to_string()) && report.contains(&comment_at.to_string()),
        "{report}"
    );
}

/// A read that fails part way through a big log (the data is read in
/// pieces of about 1 MB, each parsed while the next is read): the error
/// names the line after the last one read whole, counted exactly, and a
/// bad line read before the failure is reported first in strict mode.
#[test]
fn a_read_failing_deep_in_a_big_log_names_the_line_reached() {
    use std::io::Read;
    /// Serves `text` in reads of 7,000 bytes, then fails at byte `fail_at`.
    struct Failing {
        text: Vec<u8>,
        at: usize,
        fail_at: usize,
    }
    impl Read for Failing {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            if self.at >= self.fail_at {
                return Err(std::io::Error::other("the disk went away"));
            }
            let n = out.len().min(7_000).min(self.fail_at - self.at);
            out[..n].copy_from_slice(&self.text[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }
    let mut text = String::from(HEADER);
    for n in 1..=60_000u64 {
        text.push_str(&numbered_job(n));
    }
    let text = text.into_bytes();
    for fail_at in [2_500_000, 2_500_001, (1 << 20) + 17, text.len() - 3] {
        let whole = text[..fail_at].iter().filter(|&&b| b == b'\n').count() as u64;
        for opts in [ReadOptions::strict(), ReadOptions::lenient()] {
            match read_from(reader_clone(&text, fail_at), "big", &opts).unwrap_err() {
                SwfError::Io { line, .. } => assert_eq!(line, whole + 1, "cut at {fail_at}"),
                other => panic!("expected Io, got {other:?}"),
            }
        }
    }
    // A bad line before the failure comes first.
    let mut broken = text.clone();
    let line_40k = broken
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .nth(40_000)
        .map(|(i, _)| i + 1)
        .unwrap();
    broken[line_40k + 6] = b'x';
    let err = read_from(
        reader_clone(&broken, 3_000_000),
        "big",
        &ReadOptions::strict(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("big:40002: "), "{err}");

    fn reader_clone(text: &[u8], fail_at: usize) -> std::io::BufReader<Failing> {
        std::io::BufReader::new(Failing {
            text: text.to_vec(),
            at: 0,
            fail_at,
        })
    }
}

/// A line longer than the pieces the data is read in (about 1 MB) is read
/// whole and named by its line number; the lines after it keep theirs.
#[test]
fn a_line_longer_than_a_read_piece_is_one_line() {
    let mut text = format!("{HEADER}{}", numbered_job(1));
    text.push_str(&"7 ".repeat(1_500_000));
    text.push('\n');
    for n in 2..=5 {
        text.push_str(&numbered_job(n));
    }
    let err = strict(&text).unwrap_err().to_string();
    assert!(
        err.starts_with("bad.swf:4: "),
        "{}",
        &err[..err.len().min(200)]
    );
    let log = lenient(&text).unwrap();
    assert_eq!(log.jobs.len(), 5);
    assert_eq!(log.skipped.total(), 1);
}
