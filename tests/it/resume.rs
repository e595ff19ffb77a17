//! Nothing is lost when a run dies: an experiment killed by SIGKILL part-way
//! resumes to tables byte-identical to an uninterrupted run; a second
//! writer into the same directory is refused while the first runs; corrupt
//! cell files are detected, moved aside and run again, never aggregated; a
//! cell whose run fails keeps its error and inputs and the grid goes on.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn command(args: &[&str]) -> Command {
    let mut c = common::swftool_command(args);
    c.env_remove("SWFTOOL_INJECT_PANIC");
    c
}

/// Runs the binary to the end; returns (success, stdout, stderr).
fn swftool(args: &[&str]) -> (bool, String, String) {
    let out = command(args).output().expect("swftool runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> (String, String) {
    let (success, out, err) = swftool(args);
    assert!(success, "swftool {args:?} failed:\n{out}\n{err}");
    (out, err)
}

fn cells_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("cells"))
        .map(|d| {
            d.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The deterministic tables of environment A must be byte-identical.
fn assert_same_tables(a: &Path, b: &Path) {
    for f in [
        "runs.csv",
        "aggregate.csv",
        "runs.parquet",
        "aggregate.parquet",
    ] {
        let read = |d: &Path| {
            std::fs::read(d.join(f)).unwrap_or_else(|e| panic!("{}/{f}: {e}", d.display()))
        };
        assert!(
            read(a) == read(b),
            "{f} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

/// Curie, 7 heuristics, 3 oversubscription levels, 5 days: 105 cells, long
/// enough on one thread to be killed part-way.
const LONG: &str = r#"
name = "long"
logs = ["curie"]
heuristics = ["all"]
days = 5
seed = 3
axes = ["oversubscription"]
"#;

use common::SMALL_GRID as SMALL;

fn config(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn a_run_killed_part_way_resumes_to_identical_tables_and_refuses_a_second_writer() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), "long.toml", LONG);
    let reference = tmp.path().join("reference");
    let killed = tmp.path().join("killed");
    let (r, k) = (reference.to_str().unwrap(), killed.to_str().unwrap());
    ok(&["experiment", &cfg, "--out", r, "--no-figures"]);
    let total = cells_in(&reference).len();
    assert_eq!(total, 105);

    let mut first = command(&[
        "experiment",
        &cfg,
        "--out",
        k,
        "--threads",
        "1",
        "--no-figures",
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    // Wait until a few cells are on disk (the run writes each as it ends).
    while cells_in(&killed).len() < 5 {
        if let Some(status) = first.try_wait().unwrap() {
            panic!("the first run ended ({status}) before it could be killed");
        }
        std::thread::sleep(Duration::from_millis(10));
    }

    // A second writer into the same directory is refused, naming the first.
    let (success, out, err) = swftool(&["experiment", &cfg, "--out", k, "--no-figures"]);
    assert!(!success, "a second writer was let in:\n{out}\n{err}");
    assert!(err.contains("is writing into this directory"), "{err}");
    assert!(err.contains(&format!("pid {}", first.id())), "{err}");

    // SIGKILL part-way.
    first.kill().unwrap();
    first.wait().unwrap();
    let done = cells_in(&killed).len();
    assert!(
        (5..total).contains(&done),
        "killed with {done} of {total} cells written: not part-way"
    );
    assert!(
        !killed.join("runs.csv").exists(),
        "no tables before the end"
    );

    // The re-run finishes the grid; tables equal the uninterrupted run's.
    let (out, _) = ok(&["experiment", &cfg, "--out", k, "--no-figures"]);
    let expected = format!("{} cells to run, {done} already done", total - done);
    assert!(out.contains(&expected), "{out}");
    assert_eq!(cells_in(&killed).len(), total);
    assert_same_tables(&reference, &killed);
}

#[test]
fn corrupt_cells_are_run_again_and_never_aggregated() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), "small.toml", SMALL);
    let reference = tmp.path().join("reference");
    let damaged = tmp.path().join("damaged");
    let (r, d) = (reference.to_str().unwrap(), damaged.to_str().unwrap());
    ok(&["experiment", &cfg, "--out", r, "--no-figures"]);
    ok(&["experiment", &cfg, "--out", d, "--no-figures"]);
    let cells = cells_in(&damaged);

    // One cell truncated (a full disk, a partial copy), one holding another
    // cell's contents.
    let truncated = &cells[3];
    let text = std::fs::read(truncated).unwrap();
    std::fs::write(truncated, &text[..text.len() / 2]).unwrap();
    std::fs::copy(&cells[0], &cells[7]).unwrap();

    // `aggregate` stops at a corrupt cell and names it.
    let merged = tmp.path().join("merged");
    let (success, out, err) = swftool(&["aggregate", d, "--out", merged.to_str().unwrap()]);
    assert!(!success, "a corrupt cell was aggregated:\n{out}\n{err}");
    assert!(err.contains("corrupt cell file"), "{err}");
    assert!(
        err.contains(&truncated.display().to_string())
            || err.contains(&cells[7].display().to_string()),
        "{err}"
    );

    // A re-run reports both, moves them to corrupt/ and runs them again.
    let (out, err) = ok(&["experiment", &cfg, "--out", d, "--no-figures"]);
    assert!(out.contains("2 cells to run, 10 already done"), "{out}");
    for c in [truncated, &cells[7]] {
        let name = c.file_name().unwrap();
        let id = c.file_stem().unwrap().to_str().unwrap();
        assert!(
            err.contains(&format!("cell file of {id} is corrupt")),
            "{err}"
        );
        assert!(damaged.join("corrupt").join(name).is_file());
    }
    assert!(
        err.contains("holds cell"),
        "the copied cell's reason: {err}"
    );
    assert_same_tables(&reference, &damaged);
}

#[test]
fn a_failing_cell_keeps_its_error_and_inputs_and_the_grid_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), "small.toml", SMALL);
    let reference = tmp.path().join("reference");
    let partial = tmp.path().join("partial");
    let (r, p) = (reference.to_str().unwrap(), partial.to_str().unwrap());
    ok(&["experiment", &cfg, "--out", r, "--no-figures"]);
    let victim = cells_in(&reference)[4]
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();

    let out = command(&["experiment", &cfg, "--out", p, "--no-figures"])
        .env("SWFTOOL_INJECT_PANIC", &victim)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a failed cell must fail the command");
    assert!(err.contains("1 cell(s) failed"), "{err}");
    assert!(
        err.contains(&format!("{victim}: the run panicked: injected")),
        "{err}"
    );
    assert_eq!(cells_in(&partial).len(), 11, "the other cells still ran");

    // The record names the inputs needed to run the cell alone.
    let record =
        std::fs::read_to_string(partial.join("failed").join(format!("{victim}.txt"))).unwrap();
    for want in [
        format!("cell {victim}\n"),
        "log kth-sp2 (KTH-SP2-1996-2.1-cln.swf.gz)\n".to_string(),
        "scenario seed ".to_string(),
        "heuristic ".to_string(),
        concat!("swftool ", env!("CARGO_PKG_VERSION")).to_string(),
        "errors:\n  the run panicked: injected".to_string(),
    ] {
        assert!(record.contains(&want), "missing {want:?} in\n{record}");
    }

    // Without the fault, the re-run runs that cell only and clears its record.
    let (out, _) = ok(&["experiment", &cfg, "--out", p, "--no-figures"]);
    assert!(out.contains("1 cells to run, 11 already done"), "{out}");
    assert!(
        !partial
            .join("failed")
            .join(format!("{victim}.txt"))
            .exists()
    );
    assert_same_tables(&reference, &partial);
}

#[test]
fn without_a_terminal_progress_is_a_plain_line_and_an_interval_with_quiet_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = config(tmp.path(), "long.toml", LONG);
    let out = tmp.path().join("out");
    let o = out.to_str().unwrap();
    // stderr is a pipe here: lines every second on a run of several seconds.
    let (_, err) = ok(&[
        "experiment",
        &cfg,
        "--out",
        o,
        "--no-figures",
        "--threads",
        "1",
        "--progress-every",
        "1",
    ]);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("progress ")).collect();
    assert!(!lines.is_empty(), "no progress line:\n{err}");
    for l in &lines {
        assert!(
            l.contains("/105 cells, 0 failed, ")
                && l.contains(" cells/s, ")
                && l.contains(" elapsed, "),
            "{l}"
        );
    }
    // --quiet prints nothing, so an interval does not apply to it.
    let (success, _, err) = swftool(&[
        "experiment",
        &cfg,
        "--out",
        o,
        "--quiet",
        "--progress-every",
        "5",
    ]);
    assert!(!success && err.contains("--progress-every"), "{err}");
}
