//! The replay refuses what it cannot run (environment A above all, and one
//! case of D), before any work, with a message that names the flag or the
//! file and what to give instead (regression tests of the inputs found by
//! trying; each in its smallest form).

use std::process::Command;

/// Runs the binary; (exit code, stdout, stderr).
fn swftool(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_swftool"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("swftool runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A refusal: exit code 1 (never a panic's 101), nothing on stdout, and
/// every `needles` in the message.
fn refused(args: &[&str], needles: &[&str]) {
    let (code, out, err) = swftool(args);
    assert_eq!(code, Some(1), "{args:?}: {out}{err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: {n:?} missing from {err}");
    }
}

/// A small SWF log in a temporary directory: `lines` after a header.
fn log(dir: &tempfile::TempDir, name: &str, header: &str, lines: &[String]) -> String {
    let path = dir.path().join(name);
    let mut text = header.to_string();
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Job `n` submitted at `t` s running `run` s on 4 processors.
fn job(n: u64, t: u64, run: i64) -> String {
    format!("{n} {t} 0 {run} 4 -1 -1 4 200 -1 1 1 1 1 1 1 -1 -1")
}

#[test]
fn a_date_no_calendar_has_is_refused() {
    refused(
        &["replay", "kth-sp2", "-H", "easy", "--day", "2097-02-30"],
        &["--day 2097-02-30", "not a day", "1..=28"],
    );
}

#[test]
fn more_days_than_the_range_holds_is_refused() {
    refused(
        &["replay", "kth-sp2", "-H", "easy", "--days", "100000"],
        &["--days 100000", "has only 266 days", "--day-arrivals"],
    );
}

#[test]
fn a_bad_arrival_range_is_refused_by_the_parser() {
    let (code, _, err) = swftool(&["replay", "kth-sp2", "-H", "easy", "--day-arrivals", "9-3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("MIN must not exceed MAX"), "{err}");
}

#[test]
fn an_arrival_range_no_day_has_says_what_the_days_have() {
    refused(
        &[
            "replay",
            "kth-sp2",
            "-H",
            "easy",
            "--day-arrivals",
            "100000-200000",
        ],
        &[
            "no day has 100000–200000 arrivals",
            "candidate days have",
            "--day-arrivals",
        ],
    );
}

#[test]
fn a_system_too_small_or_too_large_is_refused_with_the_bases_that_work() {
    refused(
        &["replay", "kth-sp2", "-H", "easy", "--cores-base", "0"],
        &[
            "0 cores is too small",
            "--cores-base",
            "between 40 and 5000000",
        ],
    );
    refused(
        &["replay", "kth-sp2", "-H", "easy", "--cores-base", "1e12"],
        &["beyond environment A's limit", "--cores-base"],
    );
}

#[test]
fn a_machine_of_four_billion_processors_is_refused_not_allocated() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = (0..400).map(|i| job(i + 1, i * 600, 100)).collect();
    let path = log(&dir, "wide.swf", "; MaxProcs: 4000000000\n", &lines);
    refused(
        &["replay", &path, "-H", "easy"],
        &["wide.swf", "beyond environment A's limit", "MaxProcs"],
    );
}

#[test]
fn a_log_with_no_usable_job_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = (0..3).map(|i| job(i + 1, i * 600, -1)).collect();
    let path = log(&dir, "unknown.swf", "; MaxProcs: 64\n", &lines);
    refused(
        &["replay", &path, "-H", "easy"],
        &[
            "unknown.swf",
            "none of its 3 jobs is usable",
            "run time unknown (-1): 3",
        ],
    );
}

#[test]
fn a_log_too_short_for_a_day_says_its_span() {
    let dir = tempfile::tempdir().unwrap();
    let lines: Vec<String> = (0..10).map(|i| job(i + 1, i * 600, 100)).collect();
    let path = log(&dir, "short.swf", "; MaxProcs: 64\n", &lines);
    refused(
        &["replay", &path, "-H", "easy"],
        &["short.swf", "1.5 h", "at least 28 h across a midnight"],
    );
}

/// Epoch milliseconds by mistake (one submit time of 1.3e13 s): environment
/// A looks only at days with arrivals, not at every midnight of 400,000
/// years, so the replay runs at once.
#[test]
fn a_far_future_submit_time_does_not_walk_every_day() {
    let dir = tempfile::tempdir().unwrap();
    let mut lines: Vec<String> = (0..300).map(|i| job(i + 1, i * 600, 100)).collect();
    lines.push(job(301, 13_000_000_000_000, 100));
    let path = log(&dir, "far.swf", "; MaxProcs: 64\n", &lines);
    let out_dir = dir.path().join("o");
    let (code, out, err) = swftool(&[
        "replay",
        &path,
        "-H",
        "easy",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("day-2"), "{out}");
}

/// A log without UnixStartTime has no calendar: its days are named
/// `day-N` (not 1970 dates), and `--day day-N` selects one.
#[test]
fn days_of_a_log_without_a_calendar_are_named_by_number() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("o");
    let (code, out, err) = swftool(&[
        "replay",
        "lublin256",
        "-H",
        "easy",
        "--day",
        "day-44",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("day      day-44"), "{out}");
    assert!(!out.contains("1970-"), "{out}");
}

/// Environment D's counterpart: nodes of zero processors are refused (not
/// run as "100 nodes of 0 processors").
#[test]
fn nodes_of_zero_processors_are_refused() {
    refused(
        &[
            "replay",
            "kth-sp2",
            "--env",
            "classic",
            "-H",
            "fcfs",
            "--whole-nodes",
            "--procs-per-node",
            "0",
        ],
        &["--procs-per-node must be at least 1 processor per node, not 0"],
    );
}
