//! `swftool replay --env serial` as a user runs it: synthetic trials without
//! a log, the same bytes on any thread count, a workload written by `synth
//! serial` replaying to the same tables as the trial generated in memory,
//! flags that do not apply refused by name, and a small grid through
//! `experiment`.

use std::path::Path;

use crate::common::{ok, refused};

const DETERMINISTIC: [&str; 3] = ["summary.csv", "jobs.csv", "pieces.csv"];

fn same_tables(a: &Path, b: &Path) {
    for t in DETERMINISTIC {
        let x = std::fs::read(a.join(t)).unwrap();
        let y = std::fs::read(b.join(t)).unwrap();
        assert!(
            x == y,
            "{t} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn a_trial_gives_the_same_bytes_on_any_thread_count_and_from_its_written_workload() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let h = "maxupt-preempt-greedy,fcfs";
    let shown = ok(
        d,
        &[
            "replay",
            "--env",
            "serial",
            "-H",
            h,
            "--trial",
            "2",
            "--burst-size",
            "16",
            "--threads",
            "1",
            "--out",
            "one",
        ],
    );
    assert!(shown.contains("trial-2"), "{shown}");
    assert!(shown.contains("maxupt-preempt-greedy"), "{shown}");
    ok(
        d,
        &[
            "replay",
            "--env",
            "serial",
            "-H",
            h,
            "--trial",
            "2",
            "--burst-size",
            "16",
            "--threads",
            "2",
            "--out",
            "two",
        ],
    );
    same_tables(&d.join("one"), &d.join("two"));

    ok(
        d,
        &[
            "synth",
            "serial",
            "--trial",
            "2",
            "--burst-size",
            "16",
            "--out",
            "w/trial2.swf.gz",
        ],
    );
    let shown = ok(
        d,
        &[
            "replay",
            "w/trial2.swf.gz",
            "--env",
            "serial",
            "-H",
            h,
            "--out",
            "file",
        ],
    );
    assert!(shown.contains("written by swftool synth serial"), "{shown}");
    same_tables(&d.join("one"), &d.join("file"));

    // The written workload carries its own parameters.
    let e = refused(
        d,
        &[
            "replay",
            "w/trial2.swf.gz",
            "--env",
            "serial",
            "-H",
            h,
            "--shape",
            "step",
        ],
    );
    assert!(e.contains("--shape does not apply"), "{e}");
}

#[test]
fn flags_that_do_not_apply_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: [(&[&str], &str); 6] = [
        (
            &[
                "replay", "curie", "--env", "serial", "-H", "maxupt", "--trial", "3",
            ],
            "--trial applies to synthetic trials",
        ),
        (
            &["replay", "--env", "serial", "-H", "maxupt", "--load", "2"],
            "--load applies to a LOG",
        ),
        (
            &[
                "replay",
                "--env",
                "serial",
                "-H",
                "maxupt",
                "--oversubscription",
                "higher",
            ],
            "--oversubscription belongs to --env parallel",
        ),
        (
            &["replay", "--env", "parallel", "-H", "easy"],
            "replays a log: give LOG",
        ),
        (
            &["replay", "curie", "-H", "easy", "--burst-size", "8"],
            "--burst-size belongs to --env serial",
        ),
        (
            &[
                "replay",
                "--env",
                "serial",
                "-H",
                "maxupt",
                "--flag-probability",
                "1.5",
            ],
            "--flag-probability",
        ),
    ];
    for (args, expect) in cases {
        let e = refused(d, args);
        assert!(e.contains(expect), "{args:?}: {e}");
    }
}

#[test]
fn a_log_day_replays_as_serial_tasks() {
    let dir = tempfile::tempdir().unwrap();
    let shown = ok(
        dir.path(),
        &[
            "replay",
            "sdsc-sp2",
            "--env",
            "serial",
            "-H",
            "maxupt,maxupt-preempt-diff",
            "--day",
            "3",
        ],
    );
    assert!(shown.contains("each one serial task"), "{shown}");
    assert!(shown.contains("maxupt-preempt-diff"), "{shown}");
}

#[test]
fn compare_puts_logs_side_by_side_as_serial_workloads() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let shown = ok(
        d,
        &[
            "compare",
            "sdsc-sp2",
            "kth-sp2",
            "--env",
            "serial",
            "-H",
            "maxupt,maxupt-preempt-greedy",
            "--days",
            "2",
            "--out",
            "cmp",
        ],
    );
    assert!(
        shown.contains("| heuristic | sdsc-sp2 % of max utility |"),
        "{shown}"
    );
    assert!(d.join("cmp/figures/compare-percent-of-max.png").is_file());
    let e = refused(
        d,
        &[
            "compare",
            "sdsc-sp2",
            "--env",
            "serial",
            "-H",
            "maxupt",
            "--burst-size",
            "8",
        ],
    );
    assert!(
        e.contains("--burst-size applies to synthetic trials"),
        "{e}"
    );
}

#[test]
fn a_small_grid_runs_resumes_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("g.toml"),
        "name = \"b-small\"\nenvironment = \"serial\"\nheuristics = [\"maxupt\", \"maxupt-preempt-greedy\"]\ntrials = 2\nserial_axes = [\"critical_etc\"]\n\n[serial]\nburst_size = 16\n",
    )
    .unwrap();
    let shown = ok(d, &["experiment", "g.toml", "--out", "grid"]);
    assert!(shown.contains("12 cells"), "{shown}");
    assert!(shown.contains("% of tasks completed"), "{shown}");
    for f in [
        "runs.csv",
        "aggregate.csv",
        "timing.csv",
        "aggregate.md",
        "figures/synthetic-percent-of-max-critical_etc.png",
        "figures/synthetic-percent-completed-critical_etc.png",
        "figures/synthetic-cumulative-utility.png",
        "figures/synthetic-gantt.png",
        "figures/synthetic-heuristic-time.png",
    ] {
        assert!(d.join("grid").join(f).is_file(), "{f} missing");
    }
    let again = ok(d, &["experiment", "g.toml", "--out", "grid"]);
    assert!(again.contains("0 cells to run, 12 already done"), "{again}");
    // Keys of other environments are refused by name.
    std::fs::write(
        d.join("bad.toml"),
        "name = \"b-bad\"\nenvironment = \"serial\"\nheuristics = [\"maxupt\"]\naxes = [\"correlation\"]\n",
    )
    .unwrap();
    let e = refused(d, &["experiment", "bad.toml"]);
    assert!(
        e.contains("`axes` does not apply to environment = \"serial\""),
        "{e}"
    );
}
