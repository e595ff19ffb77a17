//! Bad input to the binary found by fuzzing: each gets one clear message
//! (never a panic, a repeated text or a silent default) before any
//! simulation, or correct behaviour. Inputs are written to temporary
//! directories; the binary runs as a child process.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use flate2::{Compression, write::GzEncoder};

const JOB1: &str = "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n";

fn swftool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_swftool"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("swftool runs")
}

use crate::common::text;

/// Runs a command that must fail; returns its standard error.
fn refused(args: &[&str]) -> String {
    let out = swftool(args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?}: {}",
        text(&out.stderr)
    );
    text(&out.stderr)
}

/// Asserts that no part of an error message (split at `: ` and at line
/// ends) is said twice.
fn assert_said_once(msg: &str) {
    let mut seen = std::collections::HashSet::new();
    for part in msg
        .lines()
        .flat_map(|l| l.split(": "))
        .map(str::trim)
        .filter(|p| p.len() > 3)
    {
        assert!(seen.insert(part), "`{part}` is said twice in:\n{msg}");
    }
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("temporary paths are UTF-8")
}

#[test]
fn no_error_message_repeats_itself() {
    let dir = tempfile::tempdir().unwrap();
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(JOB1.as_bytes()).unwrap();
    let mut gz = gz.finish().unwrap();
    let n = gz.len();
    gz[n - 8] ^= 0xff; // the CRC32 of the trailer
    let bad_crc = dir.path().join("bad-crc.swf.gz");
    std::fs::write(&bad_crc, gz).unwrap();
    let missing = dir.path().join("nonexist.toml");
    for args in [
        vec!["experiment", path_str(&missing)],
        vec!["compare", "-H", "foo", "kth-sp2"],
        vec!["info", path_str(&bad_crc)],
    ] {
        let err = refused(&args);
        assert_said_once(&err);
    }
    let err = refused(&["experiment", path_str(&missing)]);
    assert_eq!(err.matches("No such file").count(), 1, "{err}");
    let err = refused(&["compare", "-H", "foo", "kth-sp2"]);
    assert_eq!(err.matches("unknown heuristic `foo`").count(), 1, "{err}");
    let err = refused(&["info", path_str(&bad_crc)]);
    assert!(err.contains("the gzip data is damaged"), "{err}");
}

/// Spawns swftool with standard output a pipe whose reading end is closed
/// at once; returns the exit code and standard error. A child that has not
/// ended after 60 s is killed (a guard against a hang, not a time limit).
fn with_closed_stdout(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_swftool"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("swftool runs");
    drop(child.stdout.take());
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().ok();
            panic!("{args:?} still runs 60 s after its output pipe closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    (out.status.code(), text(&out.stderr))
}

/// A command that only prints ends quietly with 141 when its output pipe
/// closes; a command that writes files stops printing and writes them all
/// the same (`swftool replay … | head -5`).
#[test]
fn a_closed_output_pipe_ends_printing_quietly_and_not_the_writing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let (code, err) = with_closed_stdout(&["info", "lublin256"]);
    assert_eq!(code, Some(141), "info: {err}");
    assert!(err.is_empty(), "info printed: {err}");
    let args = [
        "replay",
        "lublin256",
        "--env",
        "classic",
        "-H",
        "fcfs",
        "--out",
        path_str(&out),
    ];
    let (code, err) = with_closed_stdout(&args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    assert!(err.is_empty(), "{args:?} printed: {err}");
    for f in ["summary.csv", "jobs.parquet", "manifest.json"] {
        assert!(out.join(f).is_file(), "{f} not written");
    }
}

#[test]
fn a_directory_given_as_a_log_is_named_as_one() {
    let dir = tempfile::tempdir().unwrap();
    let err = refused(&["info", path_str(dir.path())]);
    assert!(
        err.contains(&format!(
            "{} is a directory; expected an SWF log: a .swf or .swf.gz file, or a short name",
            dir.path().display()
        )),
        "{err}"
    );
}

#[test]
fn a_negative_seed_gets_a_clear_message() {
    for args in [
        ["replay", "kth-sp2", "-H", "easy", "--seed", "-1"],
        ["replay", "kth-sp2", "-H", "easy", "--seed=-1", "--day=0"],
    ] {
        let out = swftool(&args);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(
            err.contains("--seed takes a non-negative integer, 0 to 18446744073709551615"),
            "{err}"
        );
        assert!(!err.contains("tip"), "{err}");
    }
}

#[test]
fn zero_threads_is_documented_and_means_all_cores() {
    let help = text(&swftool(&["replay", "--help"]).stdout);
    assert!(
        help.contains("Worker threads, 0 to 1024 (default, or 0: all cores)"),
        "{help}"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let run = swftool(&[
        "replay",
        "lublin256",
        "--env",
        "classic",
        "-H",
        "fcfs",
        "--threads",
        "0",
        "--out",
        path_str(&out),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
}

#[test]
fn an_unusable_out_stops_replay_and_compare_before_any_simulation() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let bad = file.join("out");
    for args in [
        vec!["replay", "lublin256", "--env", "classic", "-H", "fcfs"],
        vec!["replay", "lublin256", "-H", "easy"],
        vec!["compare", "lublin256", "--env", "classic", "-H", "fcfs"],
    ] {
        let mut args = args.clone();
        args.extend(["--out", path_str(&bad)]);
        let out = swftool(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!(
                "cannot create the output directory {} (--out)",
                bad.display()
            )),
            "{err}"
        );
        // Nothing was simulated: no table was printed.
        let stdout = text(&out.stdout);
        assert!(
            !stdout.contains("fcfs") && !stdout.contains("easy"),
            "{stdout}"
        );
    }
}

#[test]
fn a_replay_removes_the_tables_of_an_earlier_replay_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let o = path_str(&out);
    let classic = swftool(&[
        "replay",
        "lublin256",
        "--env",
        "classic",
        "-H",
        "fcfs",
        "--out",
        o,
    ]);
    assert!(classic.status.success(), "{}", text(&classic.stderr));
    assert!(out.join("clean.csv").is_file());
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let parallel = swftool(&["replay", "lublin256", "-H", "easy", "--out", o]);
    assert!(parallel.status.success(), "{}", text(&parallel.stderr));
    for stale in [
        "clean.csv",
        "clean.parquet",
        "suspensions.csv",
        "suspensions.parquet",
    ] {
        assert!(
            !out.join(stale).exists(),
            "{stale} left beside the new tables"
        );
    }
    for kept in [
        "jobs.csv",
        "summary.csv",
        "timing.csv",
        "manifest.json",
        "notes.txt",
    ] {
        assert!(out.join(kept).is_file(), "{kept} missing");
    }
    assert!(
        text(&parallel.stderr).contains("removed the tables of the earlier replay (--env classic)"),
        "{}",
        text(&parallel.stderr)
    );
}

#[test]
fn grids_and_replays_do_not_write_over_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let grid = dir.path().join("grid");
    let replay = dir.path().join("replay");
    let (g, r) = (path_str(&grid), path_str(&replay));
    assert!(
        swftool(&[
            "compare",
            "lublin256",
            "--env",
            "classic",
            "-H",
            "fcfs",
            "--out",
            g
        ])
        .status
        .success()
    );
    assert!(
        swftool(&[
            "replay",
            "lublin256",
            "--env",
            "classic",
            "-H",
            "fcfs",
            "--out",
            r
        ])
        .status
        .success()
    );
    let err = refused(&[
        "replay",
        "lublin256",
        "--env",
        "classic",
        "-H",
        "fcfs",
        "--out",
        g,
    ]);
    assert!(
        err.contains("holds the results of `swftool compare`"),
        "{err}"
    );
    // A config that changes what the cells mean names the key that
    // differs, with both values (a heuristic more would grow the grid).
    let err = refused(&[
        "compare",
        "lublin256",
        "--env",
        "classic",
        "-H",
        "fcfs",
        "--tau",
        "5",
        "--out",
        g,
    ]);
    assert!(
        err.contains(r#"classic = null in the directory, {"tau":5.0} now"#)
            && err.contains("changes what the cells already done mean"),
        "{err}"
    );
    // aggregate: a replay's directory is not an experiment's.
    let err = refused(&["aggregate", r]);
    assert!(
        err.contains(&format!(
            "{r} is not an experiment directory: its manifest.json is from `swftool replay`"
        )),
        "{err}"
    );
    let err = refused(&["aggregate", path_str(dir.path())]);
    assert!(
        err.contains("is not an experiment directory (no manifest.json)"),
        "{err}"
    );
    // Inputs of two grids: the advice is about the inputs, not removing one.
    let other = dir.path().join("other");
    let o = path_str(&other);
    assert!(
        swftool(&[
            "compare",
            "lublin256",
            "--env",
            "classic",
            "-H",
            "easy",
            "--out",
            o
        ])
        .status
        .success()
    );
    let err = refused(&["aggregate", g, o]);
    assert!(
        err.contains(&format!("{g} and {o} hold different grids")),
        "{err}"
    );
    assert!(!err.contains("remove"), "{err}");
}

#[test]
fn info_says_when_a_log_has_no_usable_job() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "empty.swf",
            String::new(),
            "no job: the log has no data line",
        ),
        (
            "header.swf",
            "; MaxProcs: 4\n".to_string(),
            "no job: the log has no data line",
        ),
        (
            "unknown-runs.swf",
            "1 0 0 -1 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n".to_string(),
            "no usable job for replay: the simulation filter removes all 1 job (run time unknown (-1): 1)",
        ),
    ];
    for (name, content, says) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let out = swftool(&["info", path_str(&path)]);
        assert!(out.status.success());
        let stdout = text(&out.stdout);
        assert!(stdout.contains(says), "{name}: {stdout}");
    }
}

#[test]
fn replay_refuses_a_log_with_nothing_to_replay() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.swf");
    std::fs::write(&empty, "; MaxProcs: 4\n").unwrap();
    let unknown = dir.path().join("unknown-runs.swf");
    std::fs::write(&unknown, "1 0 0 -1 4 -1 -1 4 20 -1 1 1 1 -1 1 1 -1 -1\n").unwrap();
    let out = dir.path().join("o");
    for env in ["parallel", "classic"] {
        let err = refused(&[
            "replay",
            path_str(&empty),
            "--env",
            env,
            "-H",
            "all",
            "--out",
            path_str(&out),
        ]);
        assert!(
            err.contains("empty.swf: no job: the log has no data line; nothing to replay"),
            "{err}"
        );
    }
    let err = refused(&[
        "replay",
        path_str(&unknown),
        "-H",
        "easy",
        "--out",
        path_str(&out),
    ]);
    assert!(
        err.contains("unknown-runs.swf")
            && err.contains("is usable in environment A")
            && err.contains("run time unknown (-1): 1"),
        "{err}"
    );
    assert!(!out.exists(), "nothing is written for a refused log");
}

#[test]
fn info_and_replay_count_jobs_out_of_order() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("order.swf");
    let later = "2 10 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n";
    std::fs::write(&log, format!("; MaxProcs: 8\n{later}{JOB1}")).unwrap();
    let info = swftool(&["info", path_str(&log)]);
    let stdout = text(&info.stdout);
    assert!(
        stdout.contains(
            "out of order     1 submit time earlier than the line before (first at line 3)"
        ),
        "{stdout}"
    );
    let out = dir.path().join("o");
    let replay = swftool(&[
        "replay",
        path_str(&log),
        "--env",
        "classic",
        "-H",
        "fcfs",
        "--out",
        path_str(&out),
    ]);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(
        text(&replay.stderr).contains(
            "note: order.swf: 1 submit time earlier than the line before (first at line 3)"
        ),
        "{}",
        text(&replay.stderr)
    );
}

#[test]
fn info_reads_a_log_with_a_byte_order_mark_and_reports_bad_header_values() {
    let dir = tempfile::tempdir().unwrap();
    let bom = dir.path().join("bom.swf");
    std::fs::write(&bom, format!("\u{feff}; MaxProcs: 8\n{JOB1}")).unwrap();
    let out = swftool(&["info", path_str(&bom)]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("MaxProcs         8"));
    let bad = dir.path().join("bad.swf");
    std::fs::write(&bad, format!("; MaxProcs: abc\n{JOB1}")).unwrap();
    let err = refused(&["info", path_str(&bad)]);
    assert!(
        err.contains(&format!(
            "{}:1: header field MaxProcs: not a whole number",
            bad.display()
        )),
        "{err}"
    );
    let out = swftool(&["info", "--lenient", path_str(&bad)]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "ignored 1 header value\n    line 1: header field MaxProcs: not a whole number"
        ),
        "{stdout}"
    );
}
