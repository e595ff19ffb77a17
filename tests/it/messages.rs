//! The messages a new user meets at the edges, each clear about what is
//! wrong and what to do.

use crate::common::{ok, refused};

#[test]
fn a_table_given_as_a_log_says_what_it_looks_like() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("summary.csv"),
        "date,heuristic,value\n2012-07-09,easy,1.0\n",
    )
    .unwrap();
    let e = refused(d, &["info", "summary.csv"]);
    assert!(
        e.contains("summary.csv:1: this does not look like an SWF log but like a CSV table"),
        "{e}"
    );
    // A bad line of a real SWF log: the advice names --lenient.
    std::fs::write(
        d.join("bad.swf"),
        "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n2 3\n",
    )
    .unwrap();
    let e = refused(d, &["info", "bad.swf"]);
    assert!(
        e.contains("bad.swf:2: wrong field count") && e.contains("--lenient"),
        "{e}"
    );
}

#[test]
fn log_names_get_a_suggestion_and_a_missing_path_no_search_advice() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let e = refused(d, &["replay", "curei", "-H", "easy"]);
    assert!(e.contains("did you mean curie?"), "{e}");
    let e = refused(d, &["replay", "/nonexistent/x.swf", "-H", "easy"]);
    assert!(
        e.contains("/nonexistent/x.swf not found (no such file)"),
        "{e}"
    );
    assert!(
        !e.contains("./traces") && !e.contains("SWFTOOL_TRACES"),
        "{e}"
    );
}

#[test]
fn heuristic_lists_say_what_is_wrong_with_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let e = refused(d, &["replay", "curie", "-H", "easy,maxvpr-ph,"]);
    assert!(
        e.contains("an empty heuristic name") && e.contains("a comma too many"),
        "{e}"
    );
    let e = refused(d, &["replay", "curie", "-H", "fcfs"]);
    assert!(
        e.contains("`fcfs` is a heuristic of --env serial, --env classic"),
        "{e}"
    );
    let e = refused(d, &["replay", "curie", "-H", "maxvpr-hp"]);
    assert!(e.contains("(did you mean maxvpr-ph?)"), "{e}");
    let e = refused(
        d,
        &[
            "replay", "kth-sp2", "--env", "classic", "-H", "easy", "--seed", "3",
        ],
    );
    assert!(
        e.contains("--seed does not apply to --env classic")
            && e.contains("it applies to --env parallel, serial and energy"),
        "{e}"
    );
    let e = refused(d, &["experiment", "--preset", "smoke", "--days", "3"]);
    assert!(e.contains("set `days = N` in a TOML file"), "{e}");
    assert!(!e.contains("-- --days"), "{e}");
}

#[test]
fn a_written_trial_without_its_sidecar_says_so_and_its_parquet_twin_suffices() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["synth", "serial", "--out", "t.swf.gz"]);
    ok(
        d,
        &[
            "replay", "t.swf.gz", "--env", "serial", "-H", "fcfs", "--out", "both",
        ],
    );
    std::fs::remove_file(d.join("t.tasks.csv")).unwrap();
    ok(
        d,
        &[
            "replay", "t.swf.gz", "--env", "serial", "-H", "fcfs", "--out", "parquet",
        ],
    );
    assert_eq!(
        std::fs::read(d.join("both/summary.csv")).unwrap(),
        std::fs::read(d.join("parquet/summary.csv")).unwrap()
    );
    std::fs::remove_file(d.join("t.tasks.parquet")).unwrap();
    let e = refused(
        d,
        &[
            "replay", "t.swf.gz", "--env", "serial", "-H", "fcfs", "--out", "none",
        ],
    );
    assert!(
        e.contains("its sidecar table") && e.contains("is missing"),
        "{e}"
    );
    ok(
        d,
        &[
            "synth",
            "energy",
            "--tasks-per-day",
            "2000",
            "--out",
            "e.swf.gz",
        ],
    );
    std::fs::remove_file(d.join("e.tasks.csv")).unwrap();
    ok(
        d,
        &[
            "replay", "e.swf.gz", "--env", "energy", "-H", "fcfs-p0", "--budget", "none", "--out",
            "ep",
        ],
    );
}

/// One node, one day, one core count: said in the singular, without a
/// range of one value; a one-hour log's span in minutes.
#[test]
fn counts_and_ranges_read_as_words() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A one-hour log of three jobs.
    let jobs = "1 0 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n\
                2 1800 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n\
                3 3600 5 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n";
    std::fs::write(
        d.join("hour.swf"),
        format!("; MaxProcs: 4\n; MaxNodes: 1\n{jobs}"),
    )
    .unwrap();
    let info = ok(d, &["info", "hour.swf"]);
    assert!(info.contains("60 min"), "{info}");
    assert!(!info.contains("0.0 days"), "{info}");
    let out = ok(
        d,
        &[
            "replay",
            "hour.swf",
            "--env",
            "classic",
            "-H",
            "fcfs",
            "--whole-nodes",
            "--out",
            "o",
        ],
    );
    assert!(out.contains("machine  1 node of 4 processors"), "{out}");
    assert_eq!(swftool::words::count(1u32, "day", "days"), "1 day");
    assert_eq!(swftool::words::range(355, 355), "355");
}

/// Figures say what they leave out or fall back to (read in their SVG):
/// the Gantt heuristic missing from a grid, the priority-weighted average
/// that equals the unweighted one without priorities, a log whose tasks
/// often fit no cluster; bars of one group are named on the axis.
#[test]
fn figures_say_what_they_leave_out() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let svg = |p: &str| std::fs::read_to_string(d.join(p)).unwrap();
    ok(
        d,
        &["experiment", "--preset", "smoke-serial", "--out", "b", "-q"],
    );
    let gantt = svg("b/figures/synthetic-gantt.svg");
    assert!(
        gantt.contains("(maxupt-preempt-greedy not in the grid)"),
        "title"
    );
    assert!(gantt.contains("0 preemptions"));
    assert!(
        !gantt.contains("that was preempted"),
        "a key of marks not drawn"
    );
    // One group of bars: each bar is named on the x axis by its heuristic
    // (and again in the legend), in the grid's three distinct colours.
    let time = svg("b/figures/synthetic-heuristic-time.svg");
    for h in ["fcfs", "maxutil", "maxutil-preempt-pair"] {
        let line = format!("\n{h}\n");
        assert_eq!(time.matches(&line).count(), 2, "{h}");
    }
    ok(
        d,
        &[
            "experiment",
            "--preset",
            "smoke-classic",
            "--out",
            "d",
            "-q",
        ],
    );
    let wait = svg("d/figures/kth-sp2-wait.svg");
    assert!(wait.contains("priority-weighted left out"), "x label");
    assert!(!wait.contains(">priority-weighted<"), "the group is drawn");
    ok(
        d,
        &[
            "compare", "sdsc-sp2", "kth-sp2", "-H", "easy", "--days", "2", "--out", "c",
        ],
    );
    let cmp = svg("c/figures/compare-percent-of-bound.svg");
    assert!(
        cmp.contains("sdsc-sp2 (") && cmp.contains("% of tasks fit no cluster)"),
        "caveat"
    );
}
