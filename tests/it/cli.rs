//! The binary's user-facing behaviour: help, heuristic listing, errors.

use std::process::Command;

fn swftool(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_swftool"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("swftool runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn heuristics_lists_all_seven() {
    let (ok, out, _) = swftool(&["heuristics"]);
    assert!(ok);
    for name in [
        "easy",
        "conservative",
        "cmq",
        "maxvalue",
        "maxvpr",
        "maxvalue-ph",
        "maxvpr-ph",
    ] {
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(name)),
            "{name} missing:\n{out}"
        );
    }
}

#[test]
fn a_wrong_heuristic_name_lists_the_valid_ones() {
    let (ok, _, err) = swftool(&["replay", "curie", "--heuristic", "maxvalu"]);
    assert!(!ok);
    assert!(err.contains("unknown heuristic `maxvalu`"), "{err}");
    assert!(err.contains("maxvpr-ph"), "{err}");
}

#[test]
fn an_unknown_log_says_where_it_looked() {
    let (ok, _, err) = swftool(&["replay", "no-such-log", "--heuristic", "easy"]);
    assert!(!ok);
    assert!(err.contains("no-such-log"), "{err}");
    assert!(err.contains("../shared/traces"), "{err}");
}

/// A missing log, short name or file name, names every directory searched
/// in order — each of `$SWFTOOL_TRACES`, `./traces`, `../shared/traces`
/// and the user cache — and says which of them do not exist.
#[test]
fn a_missing_log_names_every_directory_searched() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir(&a).unwrap();
    let traces = std::env::join_paths([&a, &b]).unwrap();
    let cache = dir.path().join("cache");
    for log in ["curie", "no-such-log", "no-such.swf"] {
        let out = Command::new(env!("CARGO_BIN_EXE_swftool"))
            .current_dir(dir.path())
            .env("SWFTOOL_TRACES", &traces)
            .env("XDG_CACHE_HOME", &cache)
            .args(["info", log])
            .output()
            .expect("swftool runs");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{err}");
        let listed: Vec<&str> = err.lines().filter_map(|l| l.strip_prefix("  ")).collect();
        let expected = [
            a.display().to_string(),
            format!("{} (does not exist)", b.display()),
            "traces (does not exist)".to_string(),
            "../shared/traces (does not exist)".to_string(),
            format!(
                "{} (does not exist)",
                cache.join("swftool/traces").display()
            ),
        ];
        assert_eq!(listed, expected, "{log}: {err}");
        assert!(err.contains("SWFTOOL_TRACES"), "{log}: {err}");
    }
}

#[test]
fn a_day_out_of_range_is_an_error() {
    let (ok, _, err) = swftool(&["replay", "curie", "-H", "easy", "--day", "48"]);
    assert!(!ok);
    assert!(err.contains("48 standard days"), "{err}");
}

#[test]
fn info_prints_the_header_and_the_filter_report() {
    let (ok, out, err) = swftool(&["info", "kth-sp2"]);
    assert!(ok, "{err}");
    assert!(out.contains("28476"), "{out}");
    assert!(out.contains("MaxProcs"), "{out}");
}

#[test]
fn replay_prints_the_summary_table() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("r");
    let (ok, out, err) = swftool(&[
        "replay",
        "curie",
        "--heuristic",
        "maxvpr-ph",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("2012-07-09"), "{out}");
    assert!(out.contains("897–2904 arrivals"), "{out}");
    assert!(out.contains("target 18662.4"), "{out}");
    assert!(out.contains("% of max"), "{out}");
    for f in [
        "jobs.csv",
        "jobs.parquet",
        "summary.csv",
        "summary.parquet",
        "timing.csv",
        "manifest.json",
    ] {
        assert!(out_dir.join(f).exists(), "{f} missing");
    }
}

#[test]
fn compare_classic_puts_logs_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("c");
    let (ok, out, err) = swftool(&[
        "compare",
        "kth-sp2",
        "lublin256",
        "--env",
        "classic",
        "--heuristics",
        "fcfs,easy",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("kth-sp2 (100) wait s"), "{out}");
    assert!(out.contains("lublin256 (256) wait s"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("| easy |")), "{out}");
    let summary = std::fs::read_to_string(out_dir.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 4);
    assert!(out_dir.join("figures/compare-bsld.png").exists());
}

#[test]
fn the_margo2008_datastar_preset_prints_three_tables_and_writes_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("margo");
    let (ok, stdout, err) = swftool(&[
        "experiment",
        "--preset",
        "margo2008-datastar",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    for heading in [
        "Table 1. Average queue wait",
        "Table 2. Average expansion factor",
        "Table 3. Utilization",
        "| catalina |",
        "| catalina-preempt |",
    ] {
        assert!(stdout.contains(heading), "{heading}:\n{stdout}");
    }
    for f in [
        "tables.md",
        "summary.csv",
        "summary.parquet",
        "jobs.csv",
        "suspensions.csv",
        "manifest.json",
        "figures/datastar-wait.png",
        "figures/datastar-wait.svg",
        "figures/datastar-xfactor.png",
        "figures/datastar-xfactor.svg",
    ] {
        assert!(out.join(f).exists(), "{f}");
    }
    let (ok, _, err) = swftool(&["experiment", "--preset", "smoke", "--window-start", "3"]);
    assert!(!ok);
    assert!(
        err.contains("--window-start applies to environment = \"classic\" grids only"),
        "{err}"
    );
    let (ok, _, err) = swftool(&["experiment", "--preset", "smoke", "--window", "most-wide"]);
    assert!(!ok);
    assert!(
        err.contains("--window applies to environment = \"classic\" grids only"),
        "{err}"
    );
    let (ok, _, err) = swftool(&[
        "replay",
        "datastar",
        "--env",
        "classic",
        "-H",
        "easy",
        "--window-jobs",
        "10",
        "--window",
        "month:2007-03",
        "--out",
        out.join("w").to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        err.contains("no cleaned job was submitted in month:2007-03")
            && err.contains("2004-")
            && err.contains("2005-"),
        "{err}"
    );
}

/// Every flag belongs to one environment; given with another it is an error
/// that names the environment it belongs to (none is silently ignored).
#[test]
fn a_flag_of_another_environment_is_refused_and_named() {
    let classic = ["replay", "kth-sp2", "--env", "classic", "-H", "easy"];
    let parallel = ["replay", "kth-sp2", "-H", "easy"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            [&classic[..], &["--seed", "9"]].concat(),
            "--seed does not apply to --env classic",
        ),
        (
            [&classic[..], &["--day", "3"]].concat(),
            "--day does not apply to --env classic",
        ),
        (
            [&classic[..], &["--oversubscription", "higher"]].concat(),
            "--oversubscription belongs to --env parallel",
        ),
        (
            [&parallel[..], &["--tau", "60"]].concat(),
            "--tau belongs to --env classic",
        ),
        (
            [&parallel[..], &["--clean", "pyss"]].concat(),
            "--clean belongs to --env classic",
        ),
        (
            [&parallel[..], &["--exact-estimates"]].concat(),
            "--exact-estimates belongs to --env classic",
        ),
        (
            [&parallel[..], &["--whole-nodes"]].concat(),
            "--whole-nodes belongs to --env classic",
        ),
        (
            [&parallel[..], &["--reservation-depth", "3"]].concat(),
            "--reservation-depth belongs to --env classic",
        ),
        (
            [&classic[..], &["--procs-per-node", "8"]].concat(),
            "--procs-per-node applies with --whole-nodes only",
        ),
        (
            [&classic[..], &["--reservation-depth", "3"]].concat(),
            "--reservation-depth sets the depth of `backfill` only; `easy` has a fixed depth",
        ),
        (
            [&classic[..], &["--preempting-above", "8"]].concat(),
            "--preempting-above applies to catalina-preempt only",
        ),
        (
            vec![
                "compare", "kth-sp2", "--env", "classic", "-H", "easy", "--days", "3",
            ],
            "--days does not apply to --env classic",
        ),
        (
            vec![
                "compare", "kth-sp2", "--env", "classic", "-H", "easy", "--seed", "4",
            ],
            "--seed does not apply to --env classic",
        ),
        (
            vec!["compare", "kth-sp2", "-H", "easy", "--day", "3"],
            "--day applies to replay",
        ),
    ];
    for (args, want) in cases {
        let (ok, _, err) = swftool(&args);
        assert!(!ok, "{args:?} was accepted");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn the_margo_preset_with_no_check_does_not_claim_the_invariants_hold() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let (ok, stdout, err) = swftool(&[
        "experiment",
        "--preset",
        "margo2008-datastar",
        "--no-check",
        "--no-figures",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(!stdout.contains("invariants checked"), "{stdout}");
    assert!(
        stdout.contains("schedules not checked (--no-check)"),
        "{stdout}"
    );
}

#[test]
fn backfill_with_a_reservation_depth_is_labelled_with_that_depth() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b");
    let (ok, stdout, err) = swftool(&[
        "replay",
        "kth-sp2",
        "--env",
        "classic",
        "-H",
        "backfill",
        "--reservation-depth",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("backfill") && l.split_whitespace().nth(1) == Some("3")),
        "{stdout}"
    );
}
