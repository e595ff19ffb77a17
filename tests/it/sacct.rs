//! Slurm accounting read as a log (`swftool::swf::sacct`) and `swftool convert`:
//! a real SWF log written as sacct text and read back is the same jobs;
//! hand-written lines following the sacct manual (steps, array tasks and
//! pending arrays, heterogeneous components, `Unknown`, `UNLIMITED`,
//! `Partition_Limit`, `CANCELLED by N`, zones, epochs) give the records
//! worked out here, and what cannot be used is counted by reason; bad
//! values name the file, the line and the field.

use crate::common;

use std::io::Cursor;

use swftool::swf::sacct::write_sacct;
use swftool::swf::{ReadOptions, SwfError, SwfLog, read_from, read_log};

fn utc(text: &str, lenient: bool) -> Result<SwfLog, SwfError> {
    read_from(
        Cursor::new(text.as_bytes()),
        "jobs.sacct",
        &ReadOptions { lenient },
    )
}

const HEADER: &str = "JobID|JobIDRaw|User|Group|Account|Partition|Submit|Eligible|Start|End|Elapsed|Timelimit|ReqCPUS|AllocCPUS|NNodes|State|ExitCode";

/// Job 100 (16 CPUs) with its batch and extern steps; array task 101_3
/// (raw 104) cancelled by a user after 90 s; a pending array 101_[4-9];
/// heterogeneous job 102 of 8 + 2 CPUs; job 105 still running; job 106
/// cancelled while waiting.
const TRICKY: &str = "\
100|100|alice|hpc|p1|batch|2024-03-01T10:00:00|2024-03-01T10:00:00|2024-03-01T10:05:00|2024-03-01T11:05:00|01:00:00|02:00:00|16|16|1|COMPLETED|0:0
100.batch|100|||p1||||2024-03-01T10:05:00|2024-03-01T11:05:00|01:00:00||16|16|1|COMPLETED|0:0
100.extern|100|||p1||||2024-03-01T10:05:00|2024-03-01T11:05:00|01:00:00||16|16|1|COMPLETED|0:0
101_3|104|bob|hpc|p2|debug|2024-03-01T10:01:00|2024-03-01T10:01:00|2024-03-01T10:02:00|2024-03-01T10:03:30|00:01:30|1-00:00:00|4|4|1|CANCELLED by 5012|0:15
101_[4-9%2]|101|bob|hpc|p2|debug|2024-03-01T10:01:00|2024-03-01T10:01:00|Unknown|Unknown|00:00:00|1-00:00:00|4|0|1|PENDING|0:0
102+0|102|carol|phys|p3|batch|2024-03-01T10:02:00|2024-03-01T10:02:00|2024-03-01T10:10:00|2024-03-01T10:20:00|00:10:00|UNLIMITED|8|8|1|TIMEOUT|0:0
102+1|103|carol|phys|p3|gpu|2024-03-01T10:02:00|2024-03-01T10:02:00|2024-03-01T10:10:00|2024-03-01T10:20:00|00:10:00|UNLIMITED|2|2|1|TIMEOUT|0:0
102+0.batch|102|||p3||||2024-03-01T10:10:00|2024-03-01T10:20:00|00:10:00||8|8|1|TIMEOUT|0:0
105|105|dave|hpc|p1|batch|2024-03-01T10:03:00|2024-03-01T10:03:00|2024-03-01T10:30:00|Unknown|00:40:00|Partition_Limit|32|32|2|RUNNING|0:0
106|106|erin|hpc|p1|batch|2024-03-01T10:04:00|2024-03-01T10:04:00|None|Unknown|00:00:00|00:30:00|8|0|1|CANCELLED by 0|0:0
";

#[test]
fn tricky_lines_give_the_records_worked_out_by_hand() {
    let log = utc(&format!("{HEADER}\n{TRICKY}"), false).unwrap();
    let r = log.sacct.as_ref().unwrap();
    assert_eq!(r.lines, 10);
    assert_eq!(r.steps_folded, 3);
    assert_eq!(r.components_folded, 1);
    let dropped: Vec<(&str, u64)> = r.dropped.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        dropped,
        [
            ("never started (pending, or cancelled while waiting)", 1),
            ("not ended (running)", 1),
            ("pending array tasks (never started)", 1),
        ]
    );
    assert_eq!(r.users, ["alice", "bob", "carol", "dave", "erin"]);
    // Every name seen is numbered, also those of folded or dropped lines.
    assert_eq!(r.partitions, ["batch", "debug", "gpu"]);
    // UnixStartTime is the first submit, 2024-03-01T10:00:00 UTC.
    assert_eq!(log.header.unix_start_time(), Some(1_709_287_200));
    let rows: Vec<_> = log
        .jobs
        .iter()
        .map(|j| {
            (
                j.job_number,
                j.submit_time,
                j.wait_time,
                j.run_time,
                j.allocated_processors,
                j.requested_processors,
                j.requested_time,
                j.status,
                j.user_id,
                j.group_id,
                j.queue_number,
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (100, 0.0, 300.0, 3_600.0, 16, 16, 7_200.0, 1, 1, 1, 1),
            (104, 60.0, 60.0, 90.0, 4, 4, 86_400.0, 5, 2, 1, 2),
            (102, 120.0, 480.0, 600.0, 10, 10, -1.0, 0, 3, 2, 1),
        ]
    );
    // The peak of CPUs in use: 16 + 10 from 10:10 to 10:20.
    assert_eq!(log.header.max_procs(), Some(26));
}

#[test]
fn zones_offsets_and_epoch_seconds() {
    let text = "JobID|Submit|Start|End|AllocCPUS\n\
                1|2024-01-15T09:00:00|2024-01-15T09:00:10|2024-01-15T10:00:10|2\n\
                2|1705309200|1705309260|1705312860|4\n\
                3|2024-01-15T08:00:00Z|2024-01-15T08:02:00Z|2024-01-15T08:03:00+00:00|1\n";
    let paris = swftool::swf::SacctZone {
        zone: jiff::tz::TimeZone::get("Europe/Paris").unwrap(),
        name: "Europe/Paris".into(),
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("z.sacct");
    std::fs::write(&path, text).unwrap();
    let log = swftool::swf::read_log_zoned(&path, &ReadOptions::strict(), &paris).unwrap();
    // Job 1 at 09:00 in Paris (UTC+1 in January) = 08:00 UTC = 1705305600;
    // job 3 at 08:00Z; job 2 at 1705309200 (09:00Z). Submit order, then
    // line order.
    let abs: Vec<(i64, f64, f64)> = log
        .jobs
        .iter()
        .map(|j| {
            (
                log.header.unix_start_time().unwrap() + j.submit_time as i64,
                j.wait_time,
                j.run_time,
            )
        })
        .collect();
    assert_eq!(
        abs,
        [
            (1_705_305_600, 10.0, 3_600.0),
            (1_705_305_600, 120.0, 60.0),
            (1_705_309_200, 60.0, 3_600.0),
        ]
    );
    assert_eq!(log.header.time_zone_string(), Some("Europe/Paris"));
    // The same text read as UTC puts job 1 an hour later.
    let utc_log = read_log(&path, &ReadOptions::strict()).unwrap();
    let first = utc_log
        .jobs
        .iter()
        .find(|j| j.job_number == 1)
        .map(|j| utc_log.header.unix_start_time().unwrap() + j.submit_time as i64);
    assert_eq!(first, Some(1_705_309_200));
}

#[test]
fn bad_values_name_the_file_the_line_and_the_field() {
    let cases = [
        (
            "100|100|a|g|p|batch|2024-03-01T10:00:00||2024-03-01T10:05:00|2024-03-01T11:05:00|01:00:00|2 hours|16|16|1|COMPLETED|0:0",
            "jobs.sacct:2: Timelimit: duration \"2 hours\" is not [D-][HH:]MM:SS, UNLIMITED or Partition_Limit (--lenient skips such lines, counted)",
        ),
        (
            "100|100|a|g|p|batch|yesterday||2024-03-01T10:05:00|2024-03-01T11:05:00|01:00:00|02:00:00|16|16|1|COMPLETED|0:0",
            "jobs.sacct:2: Submit: time \"yesterday\" is not YYYY-MM-DDTHH:MM:SS",
        ),
        (
            "x1|x1|a|g|p|batch|2024-03-01T10:00:00||2024-03-01T10:05:00|2024-03-01T11:05:00|01:00:00|02:00:00|16|16|1|COMPLETED|0:0",
            "jobs.sacct:2: JobID \"x1\" is not a job id",
        ),
        (
            "100|100|a|g|p|batch|2024-03-01T10:00:00||2024-03-01T10:05:00|2024-03-01T11:05:00|01:00:00|02:00:00|-4|16|1|COMPLETED|0:0",
            "jobs.sacct:2: ReqCPUS \"-4\" is not a count",
        ),
        (
            "100|100|a|g|p|batch",
            "jobs.sacct:2: 6 fields where the header has 17",
        ),
    ];
    for (line, want) in cases {
        let e = utc(&format!("{HEADER}\n{line}\n"), false).unwrap_err();
        assert!(e.to_string().starts_with(want), "{e}\nwanted {want}");
        assert_eq!((e.file(), e.line()), ("jobs.sacct", Some(2)));
        // Lenient: skipped and counted, the good line kept.
        let log = utc(&format!("{HEADER}\n{line}\n{TRICKY}"), true).unwrap();
        let r = log.sacct.unwrap();
        assert_eq!((r.skipped, log.jobs.len()), (1, 3));
        assert_eq!(r.examples[0].0, 2);
    }
    let e = utc(
        "JobID|Submit|State\n1|2024-03-01T10:00:00|COMPLETED\n",
        false,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "jobs.sacct:1: the sacct header has no Start, End (or Elapsed), AllocCPUS (or NCPUS, ReqCPUS) column; run sacct --parsable2 --format=JobID,JobIDRaw,Submit,Start,End,Elapsed,Timelimit,ReqCPUS,AllocCPUS,User,Group,Partition,State"
    );
}

/// Every job of a real log with a known wait, run and processor count
/// comes back with the same job number, absolute submit time, wait, run,
/// processors, requested time, status, user, group and queue.
#[test]
fn a_real_log_written_as_sacct_reads_back_the_same_jobs() {
    for file in [
        "KTH-SP2-1996-2.1-cln.swf.gz",
        "SDSC-SP2-1998-4.2-cln.swf.gz",
    ] {
        let log = read_log(&common::traces_dir().join(file), &ReadOptions::strict()).unwrap();
        let mut text = Vec::new();
        let w = write_sacct(&log.header, &log.jobs, &mut text).unwrap();
        assert_eq!(w.jobs, log.jobs.len() as u64);
        let back = read_from(Cursor::new(&text), "back.sacct", &ReadOptions::strict()).unwrap();
        let r = back.sacct.as_ref().unwrap();
        let origin = log.header.unix_start_time().unwrap();
        let origin_back = back.header.unix_start_time().unwrap();
        let usable: Vec<_> = log
            .jobs
            .iter()
            .filter(|j| j.wait_time >= 0.0 && j.run_time >= 0.0 && j.processors() > 0)
            .collect();
        let dropped: u64 = r.dropped.values().sum();
        assert_eq!(
            usable.len() + dropped as usize,
            log.jobs.len(),
            "{file}: {r}"
        );
        assert_eq!(back.jobs.len(), usable.len(), "{file}");
        let mut by_number: Vec<_> = back.jobs.iter().collect();
        by_number.sort_by_key(|j| j.job_number);
        let mut want = usable.clone();
        want.sort_by_key(|j| j.job_number);
        for (a, b) in want.iter().zip(&by_number) {
            let status = if [0, 1, 5].contains(&a.status) {
                a.status
            } else {
                -1
            };
            let limit = if a.requested_time > 0.0 {
                a.requested_time
            } else {
                -1.0
            };
            assert_eq!(
                (
                    a.job_number,
                    origin + a.submit_time as i64,
                    a.wait_time,
                    a.run_time,
                    a.allocated_processors,
                    a.requested_processors,
                    limit,
                    status,
                    a.user_id,
                    a.group_id,
                    a.queue_number,
                ),
                (
                    b.job_number,
                    origin_back + b.submit_time as i64,
                    b.wait_time,
                    b.run_time,
                    b.allocated_processors,
                    b.requested_processors,
                    b.requested_time,
                    b.status,
                    b.user_id,
                    b.group_id,
                    b.queue_number,
                ),
                "{file}"
            );
        }
        // And sacct → SWF → sacct → SWF changes nothing more.
        let mut again = Vec::new();
        write_sacct(&back.header, &back.jobs, &mut again).unwrap();
        let twice = read_from(Cursor::new(&again), "twice.sacct", &ReadOptions::strict()).unwrap();
        assert_eq!(twice.jobs, back.jobs, "{file}");
    }
}

#[test]
fn convert_goes_both_ways_and_a_sacct_file_replays_as_a_log() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("jobs.sacct"), format!("{HEADER}\n{TRICKY}")).unwrap();
    let out = common::ok(
        dir.path(),
        &["convert", "jobs.sacct", "jobs.swf", "--time-zone", "UTC"],
    );
    assert!(
        out.contains("jobs.sacct → jobs.swf: 3 jobs as SWF"),
        "{out}"
    );
    assert!(out.contains("3 job steps folded"), "{out}");
    let swf = read_log(&dir.path().join("jobs.swf"), &ReadOptions::strict()).unwrap();
    assert_eq!(swf.jobs.len(), 3);
    let out = common::ok(dir.path(), &["convert", "jobs.swf", "again.psv"]);
    assert!(out.contains("3 jobs as sacct --parsable2 text"), "{out}");
    let again = read_log(&dir.path().join("again.psv"), &ReadOptions::strict()).unwrap();
    assert_eq!(again.jobs, swf.jobs);
    let out = common::ok(
        dir.path(),
        &[
            "replay",
            "jobs.sacct",
            "--env",
            "classic",
            "--heuristic",
            "easy",
        ],
    );
    assert!(out.contains("easy"), "{out}");
    let info = common::ok(dir.path(), &["info", "jobs.sacct"]);
    assert!(
        info.contains("Slurm accounting (sacct): 10 lines"),
        "{info}"
    );

    let e = common::refused(dir.path(), &["convert", "jobs.sacct", "jobs.out"]);
    assert!(
        e.contains("cannot tell the output format from jobs.out: give --to swf or --to sacct"),
        "{e}"
    );
    let e = common::refused(
        dir.path(),
        &["convert", "jobs.swf", "x.swf", "--time-zone", "UTC"],
    );
    assert!(
        e.contains("--time-zone applies to Slurm accounting input"),
        "{e}"
    );
    let e = common::refused(
        dir.path(),
        &[
            "convert",
            "jobs.sacct",
            "x.swf",
            "--time-zone",
            "Mars/Olympus",
        ],
    );
    assert!(
        e.contains("--time-zone Mars/Olympus: not a time zone of the IANA database"),
        "{e}"
    );
    assert!(!dir.path().join("x.swf").exists());
}
