//! Environment D on bad input, each in its smallest form: `swftool replay
//! --env classic` refuses, before any simulation, with one line naming the
//! file and what to do; and it says what it planned with when the log has
//! no user estimates.

use std::process::Command;

/// Runs swftool on a log written to a temporary file `name` with `text`;
/// returns (success, stdout, stderr).
fn replay(name: &str, text: &str, heuristics: &str) -> (bool, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join(name);
    std::fs::write(&log, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_swftool"))
        .args([
            "replay",
            log.to_str().unwrap(),
            "--env",
            "classic",
            "-H",
            heuristics,
            "--out",
        ])
        .arg(dir.path().join("out"))
        .output()
        .expect("swftool runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ONE_JOB: &str = "1 0 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n";

/// `; MaxProcs: 4294967296` is refused before catalina-preempt allocates
/// one entry per unit (34 GB): the reader refuses values beyond 32 bits
/// itself, and environment D refuses machines beyond 2^24 units, naming
/// the header line.
#[test]
fn a_machine_beyond_2_to_the_24_processors_is_refused_naming_the_header_line() {
    let (ok, out, err) = replay(
        "huge.swf",
        &format!("; MaxProcs: 16777217\n{ONE_JOB}"),
        "catalina-preempt",
    );
    assert!(!ok);
    assert!(err.contains("huge.swf"), "{err}");
    assert!(err.contains("`; MaxProcs: 16777217`"), "{err}");
    assert!(err.contains("at most 16,777,216 (2^24) units"), "{err}");
    assert!(!out.contains("heuristic"), "nothing ran:\n{out}");
}

/// No header and one job of 2^25 processors: the machine would be the
/// widest job; refused the same way.
#[test]
fn a_headerless_log_with_a_2_to_the_25_processor_job_is_refused() {
    let (ok, _, err) = replay(
        "wide.swf",
        "1 0 -1 10 33554432 -1 -1 33554432 10 -1 1 1 1 -1 1 -1 -1 -1\n",
        "catalina-preempt",
    );
    assert!(!ok);
    assert!(err.contains("wide.swf"), "{err}");
    assert!(err.contains("the widest job"), "{err}");
}

/// An empty file, a header-only file and a log whose every run time is
/// -1 or 0 are refused (not replayed as "machine 1 processors" with NaN
/// and "util % 0.00"), with what cleaning dropped (a log with no data line
/// at all is refused by the replay before cleaning).
#[test]
fn a_log_with_no_job_left_after_cleaning_is_refused() {
    for name in ["empty.swf", "header.swf"] {
        let text = if name == "empty.swf" {
            ""
        } else {
            "; MaxProcs: 8\n"
        };
        let (ok, out, err) = replay(name, text, "easy");
        assert!(!ok, "{name}: {out}");
        assert!(
            err.contains(&format!(
                "{name}: no job: the log has no data line; nothing to replay"
            )),
            "{name}: {err}"
        );
        assert!(!out.contains("NaN"), "{name}: {out}");
    }
    let name = "runs.swf";
    let text = "; MaxProcs: 8\n\
                1 0 -1 -1 1 -1 -1 1 10 -1 1 1 1 -1 1 -1 -1 -1\n\
                2 5 -1 -1 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n\
                3 6 -1 0 2 -1 -1 2 10 -1 1 1 1 -1 1 -1 -1 -1\n";
    let (ok, out, err) = replay(name, text, "easy");
    assert!(!ok, "{name}: {out}");
    assert!(
        err.contains(
            "runs.swf: no job left to replay after cleaning (swftool preset): \
             all 3 jobs dropped: 1 for run time 0, 2 for run time unknown"
        ),
        "{name}: {err}"
    );
    assert!(!out.contains("NaN"), "{name}: {out}");
}

/// A log without user estimates (field 9 is -1): the replay says the run
/// times were used, and for how many jobs.
#[test]
fn missing_user_estimates_are_counted_in_the_plan_line() {
    let text = "; MaxProcs: 4\n\
                1 0 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n\
                2 1 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n\
                3 2 -1 10 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n";
    let (ok, out, err) = replay("noest.swf", text, "easy");
    assert!(ok, "{err}");
    assert!(
        out.contains("plan     user estimates (2 of 3 missing, run time used)"),
        "{out}"
    );
    let (ok, out, err) = replay("est.swf", &format!("; MaxProcs: 4\n{ONE_JOB}"), "easy");
    assert!(ok, "{err}");
    assert!(out.contains("plan     user estimates, "), "{out}");
}
