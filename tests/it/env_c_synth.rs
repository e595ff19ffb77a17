//! `swftool synth energy` and its files: a trial written and read back is
//! the trial generated (plain and gzip logs), a damaged sidecar line is an
//! error naming file and line, a sidecar that does not go with its log is
//! refused, a log of another generator or without its sidecar is refused,
//! and the command writes what it says.

use std::path::{Path, PathBuf};
use std::process::Command;

use swftool::env::energy::EnergyScenario;
use swftool::env::energy::synth_file::{read_synthetic, write_synthetic};
use swftool::env::energy::workload::{SyntheticParams, synthetic};

/// A light trial: about 1,000 tasks over the 26 h.
fn light() -> SyntheticParams {
    SyntheticParams {
        tasks_per_day: 900.0,
        ..SyntheticParams::default()
    }
}

/// Trial 0 of seed 4 written as `dir/<name>`: the trial, the log and the
/// sidecar CSV.
fn written(dir: &Path, name: &str) -> (EnergyScenario, PathBuf, PathBuf) {
    let s = synthetic(&light(), 4, 0).unwrap();
    let files = write_synthetic(&s, &light(), 4, 0, &dir.join(name)).unwrap();
    assert_eq!(files.len(), 3);
    (s, files[0].clone(), files[1].clone())
}

/// `text` with field `k` (0-based) of its line `n` (1-based) set to `v`.
fn edit_field(text: &str, n: usize, k: usize, v: &str) -> String {
    edit_line(text, n, |l| {
        let mut f: Vec<&str> = l.split(',').collect();
        f[k] = v;
        f.join(",")
    })
}

/// `text` with its line `n` (1-based) changed by `f`.
fn edit_line(text: &str, n: usize, f: impl Fn(&str) -> String) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| if i + 1 == n { f(l) } else { l.to_string() })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_written_trial_reads_back_equal_as_swf_and_as_swf_gz() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["plain.swf", "packed.swf.gz"] {
        let (s, swf, csv) = written(dir.path(), name);
        assert!(!s.tasks.is_empty());
        assert!(csv.is_file() && csv.with_extension("parquet").is_file());
        let back = read_synthetic(&swf).unwrap();
        assert_eq!(back.as_ref(), Some(&s), "{name}");
    }
    let gz = std::fs::read(dir.path().join("packed.swf.gz")).unwrap();
    assert_eq!(&gz[..2], &[0x1f, 0x8b], "not gzip");
}

#[test]
fn a_damaged_sidecar_line_is_an_error_naming_the_file_and_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let (_, swf, csv) = written(dir.path(), "t.swf");
    let good = std::fs::read_to_string(&csv).unwrap();
    let shown = csv.display().to_string();
    let damaged = |text: String| {
        std::fs::write(&csv, text).unwrap();
        read_synthetic(&swf).unwrap_err().to_string()
    };

    let e = damaged(edit_field(&good, 5, 3, "soon"));
    assert!(
        e.starts_with(&format!("{shown}:5: column `urgency`: `soon`")),
        "{e}"
    );

    let e = damaged(edit_field(&good, 3, 1, "100"));
    assert!(
        e.starts_with(&format!(
            "{shown}:3: column `task_type`: `100` is not a task type 0 to 99"
        )),
        "{e}"
    );

    let e = damaged(edit_field(&good, 4, 2, "-8"));
    assert!(
        e.starts_with(&format!("{shown}:4: column `priority`: `-8`")),
        "{e}"
    );

    let e = damaged(edit_line(&good, 6, |l| format!("{l},1")));
    assert!(e.starts_with(&format!("{shown}:6: 8 fields")), "{e}");

    let e = damaged(good.replacen("theta_s", "theta", 1));
    assert!(
        e.starts_with(&format!("{shown}:1: no column `theta_s`")),
        "{e}"
    );

    std::fs::write(&csv, &good).unwrap();
    assert!(read_synthetic(&swf).unwrap().is_some());
}

#[test]
fn a_sidecar_that_does_not_go_with_its_log_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, swf, csv) = written(dir.path(), "t.swf");
    let good = std::fs::read_to_string(&csv).unwrap();
    let shown = csv.display().to_string();

    // A job of the log without a row.
    std::fs::write(&csv, edit_line(&good, 2, |_| String::new())).unwrap();
    let e = read_synthetic(&swf).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("{shown}: job 1 of the log has no row")),
        "{e}"
    );

    // A row whose job is not in the log.
    std::fs::write(&csv, format!("{good}1000000,0,1,low,1,600,600\n")).unwrap();
    let e = read_synthetic(&swf).unwrap_err().to_string();
    assert!(e.contains("job 1000000 is not in the log"), "{e}");

    // A job given twice.
    let second = good.lines().nth(2).unwrap().to_string();
    std::fs::write(&csv, format!("{good}{second}\n")).unwrap();
    let e = read_synthetic(&swf).unwrap_err().to_string();
    assert!(e.contains("is given twice (also on line 3)"), "{e}");

    // Another trial's sidecar: the task types do not give the log's run
    // times.
    let other = synthetic(&light(), 5, 0).unwrap();
    let files = write_synthetic(&other, &light(), 5, 0, &dir.path().join("o.swf")).unwrap();
    std::fs::copy(&files[1], &csv).unwrap();
    let e = read_synthetic(&swf).unwrap_err().to_string();
    assert!(
        e.contains("not from one run")
            || e.contains("has no row")
            || e.contains("is not in the log"),
        "{e}"
    );
}

#[test]
fn a_log_of_another_generator_or_without_its_sidecar_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, swf, csv) = written(dir.path(), "t.swf");
    let text = std::fs::read_to_string(&swf).unwrap();

    std::fs::write(
        &swf,
        text.replace(
            "SwftoolGenerator: synth energy",
            "SwftoolGenerator: synth serial",
        ),
    )
    .unwrap();
    let e = read_synthetic(&swf).unwrap_err().to_string();
    assert!(
        e.contains("SwftoolGenerator") && e.contains("synth serial"),
        "{e}"
    );
    // Environment B's reader refuses the energy log by its generator.
    std::fs::write(&swf, &text).unwrap();
    let e = swftool::env::serial::synth_file::read_synthetic(&swf)
        .unwrap_err()
        .to_string();
    assert!(e.contains("synth energy"), "{e}");

    std::fs::remove_file(&csv).unwrap();
    std::fs::remove_file(csv.with_extension("parquet")).unwrap();
    let e = read_synthetic(&swf).unwrap_err().to_string();
    assert!(e.contains("sidecar table") && e.contains("missing"), "{e}");
}

#[test]
fn synth_energy_writes_the_trial_it_says_and_refuses_bad_flags() {
    let dir = tempfile::tempdir().unwrap();
    let synth_energy = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_swftool"))
            .arg("synth")
            .arg("energy")
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("swftool runs")
    };
    let out = synth_energy(&[
        "--trial",
        "2",
        "--seed",
        "3",
        "--tasks-per-day",
        "900",
        "--theta",
        "20",
        "--out",
        "sub/e.swf.gz",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("100 machines") && stdout.contains("seed 3 trial 2"),
        "{stdout}"
    );
    assert!(
        stdout.contains("e.tasks.csv") && stdout.contains("e.tasks.parquet"),
        "{stdout}"
    );

    let params = SyntheticParams {
        theta_s: Some(1200.0),
        ..light()
    };
    let generated = synthetic(&params, 3, 2).unwrap();
    let back = read_synthetic(&dir.path().join("sub/e.swf.gz")).unwrap();
    assert_eq!(back, Some(generated));

    for (args, says) in [
        (vec!["--tasks-per-day", "0"], "'--tasks-per-day <X>': `0`"),
        (vec!["--theta", "-5"], "'--theta <MINUTES>': `-5`"),
        (vec!["--event-interval", "0.5"], "--event-interval 0.5"),
        (vec!["--seed", "-1"], "--seed takes a non-negative integer"),
    ] {
        let mut all = args.clone();
        all.extend(["--out", "bad.swf"]);
        let out = synth_energy(&all);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_ne!(out.status.code(), Some(0), "{args:?} was accepted");
        assert!(
            err.contains(says) && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
    let out = synth_energy(&["--tasks-per-day", "900", "--out", "bad.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!dir.path().join("bad.swf").exists() && !dir.path().join("bad.txt").exists());
}
