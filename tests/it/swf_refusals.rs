//! Inputs found by fuzzing that were once read wrong without a word: each is
//! now refused with FILE:LINE and a reason (or, with `--lenient`, a counted
//! note), or read correctly. Each test uses the smallest input that showed
//! the problem.

use std::io::{Cursor, Write};

use flate2::{Compression, write::GzEncoder};
use swftool::swf::{ReadOptions, SkipKind, SwfError, SwfLog, read_from, read_log};

const JOB1: &str = "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n";
const JOB2: &str = "2 10 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n";

fn strict(text: impl AsRef<[u8]>) -> Result<SwfLog, SwfError> {
    read_from(Cursor::new(text.as_ref()), "f.swf", &ReadOptions::strict())
}

fn lenient(text: impl AsRef<[u8]>) -> Result<SwfLog, SwfError> {
    read_from(Cursor::new(text.as_ref()), "f.swf", &ReadOptions::lenient())
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::default());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// JOB1 with field `field` (1-based) replaced by `token`.
fn job_with(field: usize, token: &str) -> String {
    let mut t: Vec<&str> = JOB1.split_whitespace().collect();
    t[field - 1] = token;
    format!("{}\n", t.join(" "))
}

#[test]
fn a_processor_count_beyond_32_bits_is_refused_not_wrapped() {
    for field in [5, 8] {
        let err = strict(job_with(field, "4294967296")).unwrap_err();
        assert!(
            err.to_string().starts_with(&format!(
                "f.swf:1: field {field}: processor count \"4294967296\" does not fit in 32 bits (at most 4294967295 processors; -1 means unknown); "
            )),
            "{err}"
        );
    }
    let log = strict(job_with(5, "4294967295")).unwrap();
    assert_eq!(log.jobs[0].allocated_processors, 4_294_967_295);
    let log = lenient(format!("{}{JOB2}", job_with(8, "4294967296"))).unwrap();
    assert_eq!(log.skipped.count(SkipKind::OutOfRange), 1);
    assert_eq!(log.jobs.len(), 1);
}

#[test]
fn a_bad_max_procs_is_an_error_naming_the_line_and_the_field() {
    for value in ["abc", "0x100", "1.5", "0", "-1", "4294967296"] {
        let text = format!("; Version: 2.2\n; MaxProcs: {value}\n{JOB1}");
        let err = strict(&text).unwrap_err();
        assert!(
            matches!(err, SwfError::BadHeaderValue { line: 2, ref key, .. } if key == "MaxProcs"),
            "{value}: {err:?}"
        );
        let msg = err.to_string();
        assert!(
            msg.starts_with("f.swf:2: header field MaxProcs: ")
                && msg.contains(&format!("(found \"{value}\")")),
            "{msg}"
        );
        // Lenient: a counted note, and the value is ignored (the machine
        // size falls back to the widest job).
        let log = lenient(&text).unwrap();
        assert_eq!(log.skipped.count(SkipKind::BadHeaderValue), 1, "{value}");
        assert_eq!(log.header.max_procs(), None);
        assert_eq!(log.machine_processors(), 4);
        assert!(
            log.skipped
                .to_string()
                .starts_with("ignored 1 header value\n  line 2: header field MaxProcs: "),
            "{}",
            log.skipped
        );
    }
    let err = strict(format!("; MaxNodes: 0\n{JOB1}")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("f.swf:1: header field MaxNodes: 0 is not a machine size")
    );
}

#[test]
fn an_unparseable_unix_start_time_is_an_error_not_a_missing_value() {
    for value in ["1e10", "abc"] {
        let err = strict(format!("; UnixStartTime: {value}\n{JOB1}")).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "f.swf:1: header field UnixStartTime: not a whole number of seconds since 1970-01-01 00:00 UTC (expected e.g. 1296571124) (found \"{value}\"); correct the line, or pass --lenient to ignore the value"
            )
        );
    }
}

#[test]
fn a_time_of_2_pow_53_seconds_or_more_is_refused_in_every_time_field() {
    for field in [2, 3, 4, 6, 9, 18] {
        let err = strict(job_with(field, "9007199254740993")).unwrap_err();
        assert!(
            matches!(err, SwfError::TimeOutOfRange { line: 1, field: f, .. } if f == field),
            "{err:?}"
        );
        assert!(err.to_string().contains("below 2^53 s"), "{err}");
        let log = strict(job_with(field, "9007199254740991")).unwrap();
        assert_eq!(log.jobs.len(), 1);
    }
}

#[test]
fn integer_fields_take_integers_only_and_time_fields_plain_decimals() {
    for token in ["1e3", "2e9", "5.", "5.0", "-1e308"] {
        let err = strict(job_with(5, token)).unwrap_err();
        assert!(
            matches!(err, SwfError::NotAnInteger { field: 5, .. }),
            "{token}: {err:?}"
        );
    }
    for token in ["1e3", "5.", ".5"] {
        let err = strict(job_with(4, token)).unwrap_err();
        assert!(
            matches!(err, SwfError::NotDecimal { field: 4, .. }),
            "{token}: {err:?}"
        );
        assert!(err.to_string().contains("969.56"), "{err}");
    }
    // Fractions in time fields are what the spec allows (field 6 of four real logs).
    let log = strict(job_with(6, "969.56")).unwrap();
    assert_eq!(log.jobs[0].average_cpu_time, 969.56);
}

#[test]
fn repeated_job_numbers_and_decreasing_submit_times_are_counted() {
    let text = format!("{JOB1}{JOB2}{JOB1}{JOB2}");
    let log = strict(&text).unwrap();
    assert_eq!(log.jobs.len(), 4);
    assert_eq!(log.order.submit_decreases, 1);
    assert_eq!(log.order.first_submit_decrease, Some(3));
    assert_eq!(log.order.duplicate_job_numbers, 2);
    assert_eq!(log.order.first_duplicate, Some(1));
    assert_eq!(
        log.order.to_string(),
        "1 submit time earlier than the line before (first at line 3); 2 repeated job numbers (job 1 is given more than once)"
    );
    let log = strict(format!("{JOB1}{JOB2}")).unwrap();
    assert!(log.order.is_empty());
}

#[test]
fn a_byte_order_mark_before_the_header_is_skipped() {
    let text = format!("\u{feff}; Version: 2.2\n; MaxProcs: 8\n{JOB1}");
    for log in [strict(&text).unwrap(), lenient(&text).unwrap()] {
        assert_eq!(log.header.max_procs(), Some(8));
        assert_eq!(log.header.lines[0], "; Version: 2.2");
        assert!(log.skipped.is_empty());
        assert_eq!(log.jobs.len(), 1);
    }
    let log = strict(gzip(format!("\u{feff}{JOB1}").as_bytes())).unwrap();
    assert_eq!(log.jobs.len(), 1);
}

#[test]
fn other_compressors_are_named_with_the_command_that_decompresses() {
    let cases: [(&[u8], &str); 4] = [
        (
            b"\xfd7zXZ\x00\x00\x04",
            "f.swf is xz-compressed; swftool reads plain SWF text or gzip (.swf.gz): decompress it with `xz -d`",
        ),
        (
            b"BZh91AY&SY",
            "f.swf is bzip2-compressed; swftool reads plain SWF text or gzip (.swf.gz): decompress it with `bunzip2`",
        ),
        (
            b"\x28\xb5\x2f\xfd\x00",
            "f.swf is zstd-compressed; swftool reads plain SWF text or gzip (.swf.gz): decompress it with `zstd -d`",
        ),
        (
            b"PK\x03\x04",
            "f.swf is a zip archive; swftool reads plain SWF text or gzip (.swf.gz): decompress it with `unzip`",
        ),
    ];
    for (bytes, msg) in cases {
        for result in [strict(bytes), lenient(bytes)] {
            let err = result.unwrap_err();
            assert!(matches!(err, SwfError::Compressed { .. }), "{err:?}");
            assert_eq!(err.to_string(), msg);
        }
    }
}

#[test]
fn binary_garbage_is_not_text_and_its_bytes_are_not_printed() {
    let garbage: Vec<u8> = (0u8..=255).rev().cycle().take(600).collect();
    let err = strict(&garbage).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, SwfError::NotText { line: 1, .. }), "{err:?}");
    assert!(
        msg.starts_with("f.swf: line 1 is not text (byte 0x"),
        "{msg}"
    );
    assert!(msg.ends_with("); SWF is plain text"), "{msg}");
    assert!(msg.is_ascii(), "{msg}");
    // A NUL in a header line is not text either.
    let err = strict(b"; Note: a\0b\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "f.swf: line 1 is not text (byte 0x00 at column 10); SWF is plain text"
    );
}

#[test]
fn zero_padding_after_a_gzip_member_is_ignored_like_gzip_does() {
    let mut gz = gzip(format!("{JOB1}{JOB2}").as_bytes());
    gz.extend_from_slice(&[0u8; 1000]);
    for log in [strict(&gz).unwrap(), lenient(&gz).unwrap()] {
        assert_eq!(log.jobs.len(), 2);
    }
    // Two members are one text.
    let mut two = gzip(JOB1.as_bytes());
    two.extend(gzip(JOB2.as_bytes()));
    assert_eq!(strict(&two).unwrap().jobs.len(), 2);
    two.extend_from_slice(&[0u8; 3]);
    assert_eq!(strict(&two).unwrap().jobs.len(), 2);
    // Other bytes after the data are not padding.
    let mut junk = gzip(JOB1.as_bytes());
    junk.extend_from_slice(b"\0\0junk");
    let err = strict(&junk).unwrap_err();
    assert!(matches!(err, SwfError::GzipTrailingData { .. }), "{err:?}");
}

#[test]
fn a_real_gzip_file_with_zero_padding_reads_from_disk() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("padded.swf.gz");
    let mut gz = gzip(format!("; MaxProcs: 8\n{JOB1}").as_bytes());
    gz.extend_from_slice(&[0u8; 512]);
    std::fs::write(&path, gz).unwrap();
    let log = read_log(&path, &ReadOptions::strict()).unwrap();
    assert_eq!(log.jobs.len(), 1);
    assert_eq!(log.header.max_procs(), Some(8));
}
