//! The writer round-trips through the reader: parse(write(x)) == x, for
//! generated headers and records and for whole real logs.

use std::io::Cursor;
use std::path::Path;

use proptest::prelude::*;
use swftool::swf::{
    JobRecord, ReadOptions, SwfHeader, SwfLog, read_from, read_log, write_log, write_path,
};

const TRACES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/traces");

fn parse(bytes: &[u8]) -> SwfLog {
    parse_with(bytes, &ReadOptions::strict())
}

fn parse_with(bytes: &[u8], opts: &ReadOptions) -> SwfLog {
    match read_from(Cursor::new(bytes), "roundtrip.swf", opts) {
        Ok(log) => log,
        Err(e) => panic!(
            "written log must parse: {e}\n{}",
            String::from_utf8_lossy(bytes)
        ),
    }
}

fn write(header: &SwfHeader, jobs: &[JobRecord]) -> Vec<u8> {
    let mut out = Vec::new();
    write_log(header, jobs, &mut out).unwrap();
    out
}

/// Time values (seconds): the -1 sentinel, integers, two-decimal values as
/// in field 6, INT32_MAX, and arbitrary finite doubles below 2^53 s in
/// magnitude (the largest times the reader accepts: beyond, whole seconds
/// are not exact).
fn time_value() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(-1.0),
        Just(2_147_483_647.0),
        (0i64..10_000_000_000).prop_map(|v| v as f64),
        (0i64..10_000_000, 0i64..100).prop_map(|(a, c)| a as f64 + c as f64 / 100.0),
        any::<f64>().prop_filter("finite, below 2^53", |v| v.abs() < 9_007_199_254_740_992.0),
    ]
}

/// Processor counts (fields 5 and 8): -1, small, and any value that fits
/// in 32 bits (the reader refuses more).
fn procs_value() -> impl Strategy<Value = i64> {
    prop_oneof![Just(-1i64), 0i64..100_000, 0..=i64::from(u32::MAX)]
}

/// Count and id values: -1, small, INT32_MAX and any 64-bit integer.
fn int_value() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(-1i64),
        0i64..100_000,
        Just(2_147_483_647i64),
        any::<i64>(),
    ]
}

fn job_record() -> impl Strategy<Value = JobRecord> {
    let first = (
        int_value(),
        time_value(),
        time_value(),
        time_value(),
        procs_value(),
        time_value(),
        int_value(),
        procs_value(),
        time_value(),
    );
    let second = (
        int_value(),
        int_value(),
        int_value(),
        int_value(),
        int_value(),
        int_value(),
        int_value(),
        int_value(),
        time_value(),
    );
    (first, second).prop_map(
        |((a1, a2, a3, a4, a5, a6, a7, a8, a9), (b1, b2, b3, b4, b5, b6, b7, b8, b9))| JobRecord {
            job_number: a1,
            submit_time: a2,
            wait_time: a3,
            run_time: a4,
            allocated_processors: a5,
            average_cpu_time: a6,
            used_memory: a7,
            requested_processors: a8,
            requested_time: a9,
            requested_memory: b1,
            status: b2,
            user_id: b3,
            group_id: b4,
            executable_number: b5,
            queue_number: b6,
            partition_number: b7,
            preceding_job_number: b8,
            think_time: b9,
        },
    )
}

/// Printable ASCII text (may contain `;`, `:`, `(`, backticks, …).
fn text() -> impl Strategy<Value = String> {
    "[ -~]{0,30}"
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "Version",
            "Computer",
            "Installation",
            "Acknowledge",
            "Information",
            "Conversion",
            "MaxJobs",
            "MaxRecords",
            "Preemption",
            "UnixStartTime",
            "TimeZone",
            "TimeZoneString",
            "StartTime",
            "EndTime",
            "MaxNodes",
            "MaxProcs",
            "MaxRuntime",
            "MaxMemory",
            "AllowOveruse",
            "MaxQueues",
            "Queues",
            "MaxPartitions",
            "Partitions",
            "Note",
            "Queue",
            "Partition",
            "maxprocs",
            "Copyright",
        ])
        .prop_map(String::from),
        "[A-Za-z][A-Za-z0-9_-]{0,10}",
    ]
}

/// One header comment line of any of the shapes seen in the PWA logs.
fn header_line() -> impl Strategy<Value = String> {
    prop_oneof![
        (key(), text()).prop_map(|(k, v)| format!("; {k}: {v}")),
        (key(), -100_000i64..100_000_000, text()).prop_map(|(k, n, v)| format!("; {k}: {n}  {v}")),
        (
            prop::sample::select(vec!["Queue", "Partition"]),
            0i64..40,
            text()
        )
            .prop_map(|(k, n, v)| format!("; {k}: {n:>2}  {v}")),
        prop::sample::select(vec![";", "; ", ";   ", "  ;", "\t;"]).prop_map(String::from),
        text().prop_map(|t| format!(";\t{t}")),
        text().prop_map(|t| format!(";       {t}")),
        text().prop_map(|t| format!("; {t}")),
        text().prop_map(|t| format!(";{t}")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn records_round_trip(jobs in prop::collection::vec(job_record(), 0..40)) {
        let header = SwfHeader::new();
        let log = parse(&write(&header, &jobs));
        prop_assert_eq!(log.jobs, jobs);
        prop_assert!(log.header.is_empty());
    }

    #[test]
    fn headers_round_trip(
        lines in prop::collection::vec(header_line(), 0..30),
        jobs in prop::collection::vec(job_record(), 0..3),
    ) {
        let header = SwfHeader::from_lines(&lines);
        prop_assert_eq!(&header.lines, &lines);
        // Lenient: a generated `MaxProcs: abc` is a counted note, not an error.
        let log = parse_with(&write(&header, &jobs), &ReadOptions::lenient());
        prop_assert_eq!(&log.header.lines, &lines);
        prop_assert_eq!(log.header, header);
        prop_assert_eq!(log.jobs, jobs);
    }
}

#[test]
fn lublin_256_round_trips_through_a_gz_file() {
    let original = read_log(
        &Path::new(TRACES).join("lublin_256.swf.gz"),
        &ReadOptions::strict(),
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    for name in ["copy.swf.gz", "copy.swf"] {
        let path = dir.path().join(name);
        write_path(&original.header, &original.jobs, &path).unwrap();
        let back = read_log(&path, &ReadOptions::strict()).unwrap();
        assert_eq!(back.header, original.header, "{name}");
        assert_eq!(back.jobs, original.jobs, "{name}");
    }
    let gz = std::fs::read(dir.path().join("copy.swf.gz")).unwrap();
    assert_eq!(&gz[..2], &[0x1f, 0x8b], "a .gz path is written compressed");
}

/// SDSC-DS has fractional field 6 and the messiest header (Copyright block,
/// Information continuations, 21 queues, parenthetical MaxNodes/MaxProcs).
#[test]
fn sdsc_ds_round_trips_in_memory() {
    let original = read_log(
        &Path::new(TRACES).join("SDSC-DS-2004-2.1-cln.swf.gz"),
        &ReadOptions::strict(),
    )
    .unwrap();
    let back = parse(&write(&original.header, &original.jobs));
    assert_eq!(back.header, original.header);
    assert_eq!(back.jobs, original.jobs);
}
