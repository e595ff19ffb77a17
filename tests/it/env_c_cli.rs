//! `swftool replay --env energy` as a user runs it: synthetic trials without
//! a log, the same bytes on any thread count, a workload written by `synth
//! energy` replaying to the same tables as the trial generated in memory,
//! flags that do not apply refused by name, and a small grid through
//! `experiment` that resumes.

use std::path::Path;

use crate::common::{ok, refused};

const DETERMINISTIC: [&str; 5] = [
    "summary.csv",
    "jobs.csv",
    "hourly.csv",
    "machines.csv",
    "filter.csv",
];

/// Every row of a `filter.csv` of adaptive-filter runs: λ, n and e_bud are
/// what Eqs. 1–3 (Khemka et al. §III.C) give from the row's inputs
/// (E less the static energy, e_cons + e_unmov, τ_rem, T, τ̄, ē). Returns
/// the rows checked.
fn filter_rows_follow_the_equations(path: &Path) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let close = |what: &str, got: f64, want: f64| {
        assert!(
            got == want || (got - want).abs() <= 1e-9 * want.abs().max(1.0),
            "{what}: {got} against {want}"
        );
    };
    let mut rows = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let x = |name: &str| f[at(name)].parse::<f64>().unwrap();
        // What the tasks may use: E less the static energy drawn all day.
        let e = x("budget_j") - x("static_j");
        let (committed, e_rem) = (x("committed_j"), x("e_rem_j"));
        let (tau_rem, t, tau_bar, e_bar) = (
            x("tau_rem_s"),
            x("total_time_s"),
            x("mean_etc_s"),
            x("mean_eec_j"),
        );
        close("e_rem", e_rem, e - committed);
        let used = t - tau_rem;
        let lambda = if committed > 0.0 && used > 0.0 {
            (e / t) / (committed / used)
        } else {
            1.0
        };
        let n = f64::min(tau_rem / tau_bar, e_rem / e_bar);
        close("λ", x("lambda"), lambda);
        close("n", x("n"), n);
        let e_bud = if e_rem <= 0.0 || n <= 0.0 {
            f64::NEG_INFINITY
        } else {
            lambda * e_rem / n
        };
        close("e_bud", x("e_bud_j"), e_bud);
        rows += 1;
    }
    rows
}

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
    let run = [
        "replay",
        "--env",
        "energy",
        "-H",
        "random,pfcfs-all,maxupe",
        "--trial",
        "1",
    ];
    let light = [
        "--tasks-per-day",
        "8000",
        "--management",
        "polled",
        "--filter",
        "adaptive",
    ];
    let mut one: Vec<&str> = run.iter().chain(&light).copied().collect();
    one.extend(["--threads", "1", "--out", "one"]);
    let shown = ok(d, &one);
    // The budget is calibrated on the trial run and printed.
    assert!(
        shown.contains("budget   ") && shown.contains("0.7 ×"),
        "{shown}"
    );
    assert!(
        shown.contains("schedule invariants hold for every run"),
        "{shown}"
    );
    // 3 heuristics × 1,560 mapping events, each following Eqs. 1–3.
    assert_eq!(
        filter_rows_follow_the_equations(&d.join("one/filter.csv")),
        3 * 1560
    );
    assert!(shown.contains("E spent at (h)"), "{shown}");
    let mut two: Vec<&str> = run.iter().chain(&light).copied().collect();
    two.extend(["--threads", "2", "--out", "two"]);
    ok(d, &two);
    same_tables(&d.join("one"), &d.join("two"));

    // Written, then replayed with the same budget: the same tables.
    ok(
        d,
        &[
            "synth",
            "energy",
            "--trial",
            "1",
            "--tasks-per-day",
            "8000",
            "--out",
            "t1.swf.gz",
        ],
    );
    assert!(d.join("t1.tasks.csv").is_file() && d.join("t1.tasks.parquet").is_file());
    let common = [
        "-H",
        "random,pfcfs-all,maxupe",
        "--management",
        "polled",
        "--filter",
        "adaptive",
        "--budget",
        "6e8",
    ];
    let mut mem: Vec<&str> = vec![
        "replay",
        "--env",
        "energy",
        "--trial",
        "1",
        "--tasks-per-day",
        "8000",
    ];
    mem.extend(common);
    mem.extend(["--out", "mem"]);
    ok(d, &mem);
    let mut file: Vec<&str> = vec!["replay", "t1.swf.gz", "--env", "energy"];
    file.extend(common);
    file.extend(["--out", "file"]);
    ok(d, &file);
    same_tables(&d.join("mem"), &d.join("file"));
    // A written workload carries its own trial.
    let e = refused(
        d,
        &[
            "replay",
            "t1.swf.gz",
            "--env",
            "energy",
            "-H",
            "maxupe",
            "--trial",
            "2",
        ],
    );
    assert!(e.contains("--trial") && e.contains("synth energy"), "{e}");
}

#[test]
fn flags_that_do_not_apply_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let e = refused(
        d,
        &[
            "replay", "--env", "energy", "-H", "maxupe", "--filter", "adaptive", "--budget", "none",
        ],
    );
    assert!(e.contains("--filter") && e.contains("--budget none"), "{e}");
    let e = refused(
        d,
        &[
            "replay",
            "--env",
            "serial",
            "-H",
            "maxupt",
            "--management",
            "polled",
        ],
    );
    assert!(e.contains("--management belongs to --env energy"), "{e}");
    for flag in ["--static-power", "--drop-threshold"] {
        let e = refused(d, &["replay", "--env", "serial", "-H", "maxupt", flag, "1"]);
        assert!(
            e.contains(&format!("{flag} belongs to --env energy")),
            "{e}"
        );
    }
    let e = refused(
        d,
        &[
            "replay",
            "--env",
            "energy",
            "-H",
            "maxupe",
            "--drop-threshold",
            "-0.5",
        ],
    );
    assert!(e.contains("--drop-threshold"), "{e}");
    let e = refused(
        d,
        &[
            "replay",
            "--env",
            "energy",
            "-H",
            "maxupe",
            "--burst-size",
            "16",
        ],
    );
    assert!(e.contains("--burst-size belongs to --env serial"), "{e}");
    let e = refused(
        d,
        &[
            "replay",
            "--env",
            "energy",
            "-H",
            "maxupe",
            "--oversubscription",
            "higher",
        ],
    );
    assert!(
        e.contains("--oversubscription belongs to --env parallel"),
        "{e}"
    );
    let e = refused(d, &["replay", "--env", "energy", "-H", "maxvpr-ph"]);
    assert!(
        e.contains("unknown heuristic `maxvpr-ph` for --env energy"),
        "{e}"
    );
    let e = refused(
        d,
        &[
            "replay", "--env", "energy", "-H", "maxupe", "--filter", "fixed:0",
        ],
    );
    assert!(e.contains("fixed:λ"), "{e}");
    let e = refused(
        d,
        &[
            "replay", "--env", "energy", "-H", "maxupe", "--budget", "lots",
        ],
    );
    assert!(e.contains("--budget takes joules"), "{e}");
    // A light day whose calibrated budget, 0.7 × (static + tasks), is not
    // above the static energy the machines draw all day.
    let e = refused(
        d,
        &[
            "replay",
            "--env",
            "energy",
            "-H",
            "maxupe",
            "--tasks-per-day",
            "2000",
        ],
    );
    assert!(
        e.contains("--budget") && e.contains("the calibrated budget") && e.contains("while-busy"),
        "{e}"
    );
    let e = refused(d, &["replay", "curie", "--env", "energy", "-H", "maxupe"]);
    assert!(
        e.contains("not a workload written by swftool synth energy"),
        "{e}"
    );
    let e = refused(
        d,
        &[
            "compare", "curie", "sdsc-sp2", "--env", "energy", "-H", "maxupe",
        ],
    );
    assert!(e.contains("environment C runs synthetic trials"), "{e}");
}

#[test]
fn a_small_grid_runs_resumes_and_reports() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("g.toml"),
        "name = \"c-small\"\nenvironment = \"energy\"\nheuristics = [\"fcfs-p0\", \"maxupe\"]\ntrials = 2\nenergy_managements = [\"queued\", \"polled\"]\nenergy_filters = [\"none\", \"adaptive\"]\n\n[energy]\ntasks_per_day = 4000\nstatic_counted = \"while-busy\"\n",
    )
    .unwrap();
    let shown = ok(d, &["experiment", "g.toml", "--out", "grid"]);
    assert!(shown.contains("16 cells"), "{shown}");
    assert!(shown.contains("Total utility"), "{shown}");
    for f in [
        "runs.csv",
        "aggregate.csv",
        "hourly.csv",
        "timing.csv",
        "aggregate.md",
    ] {
        assert!(d.join("grid").join(f).is_file(), "{f}");
    }
    for f in [
        "total-utility",
        "priority-1",
        "priority-8",
        "cumulative-utility",
        "energy-vs-budget",
    ] {
        assert!(
            d.join("grid/figures").join(format!("{f}.png")).is_file(),
            "{f}"
        );
    }
    let again = ok(d, &["experiment", "g.toml", "--out", "grid"]);
    assert!(again.contains("0 cells to run, 16 already done"), "{again}");
    // Keys of other environments are refused by name.
    std::fs::write(
        d.join("bad.toml"),
        "name = \"c-bad\"\nenvironment = \"energy\"\nheuristics = [\"maxupe\"]\nlogs = [\"curie\"]\n",
    )
    .unwrap();
    let e = refused(d, &["experiment", "bad.toml"]);
    assert!(
        e.contains("`logs` does not apply to environment = \"energy\""),
        "{e}"
    );
    std::fs::write(
        d.join("bad2.toml"),
        "name = \"c-bad\"\nenvironment = \"serial\"\nheuristics = [\"maxupt\"]\nenergy_filters = [\"adaptive\"]\n",
    )
    .unwrap();
    let e = refused(d, &["experiment", "bad2.toml"]);
    assert!(
        e.contains("`energy_filters` does not apply to environment = \"serial\"")
            && e.contains("it belongs to environment = \"energy\""),
        "{e}"
    );
}
