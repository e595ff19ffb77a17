//! `swftool synth serial` as a user runs it: the files it writes, `info`
//! reading the log back strictly, the scenario rebuilt from the log and
//! its sidecar equal to the one generated in memory, byte-identical files
//! from one seed, and bad flags refused with a clear message.

use swftool::env::serial::synth_file::read_synthetic;
use swftool::env::serial::workload::{SyntheticParams, synthetic};

use crate::common::{swftool_in, text};

#[test]
fn synth_serial_writes_a_log_info_reads_and_a_sidecar_that_rebuilds_the_trial() {
    let dir = tempfile::tempdir().unwrap();
    let out = swftool_in(
        dir.path(),
        &["synth", "serial", "--trial", "2", "--out", "tmp/x.swf.gz"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tmp = dir.path().join("tmp");
    for f in ["x.swf.gz", "x.tasks.csv", "x.tasks.parquet"] {
        assert!(tmp.join(f).is_file(), "{f} is missing");
    }

    let info = swftool_in(dir.path(), &["info", "tmp/x.swf.gz"]);
    assert!(info.status.success(), "{}", text(&info.stderr));
    let shown = text(&info.stdout);
    assert!(shown.contains("MaxProcs"), "{shown}");

    let generated = synthetic(&SyntheticParams::default(), 1, 2).unwrap();
    let rebuilt = read_synthetic(&tmp.join("x.swf.gz"))
        .unwrap()
        .expect("the sidecar is found");
    assert_eq!(rebuilt, generated);
    assert!(shown.contains(&format!("data lines       {}", generated.tasks.len())));
}

#[test]
fn one_seed_gives_byte_identical_files() {
    let dir = tempfile::tempdir().unwrap();
    let run = |stem: &str| {
        let out = swftool_in(
            dir.path(),
            &[
                "synth",
                "serial",
                "--seed",
                "9",
                "--burst-size",
                "16",
                "--shape",
                "step",
                "--flag-probability",
                "40%",
                "--out",
                &format!("{stem}.swf.gz"),
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    run("a");
    run("b");
    for ext in ["swf.gz", "tasks.csv", "tasks.parquet"] {
        let a = std::fs::read(dir.path().join(format!("a.{ext}"))).unwrap();
        let b = std::fs::read(dir.path().join(format!("b.{ext}"))).unwrap();
        assert!(a == b, "a.{ext} and b.{ext} differ");
    }
    // The flags as given are what was generated.
    let params = SyntheticParams {
        burst_size: 16,
        shape: swftool::model::utility::Shape::Step,
        flag_probability: 0.4,
        ..SyntheticParams::default()
    };
    let rebuilt = read_synthetic(&dir.path().join("a.swf.gz"))
        .unwrap()
        .unwrap();
    assert_eq!(rebuilt, synthetic(&params, 9, 0).unwrap());
}

#[test]
fn bad_flags_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    for (args, says) in [
        (vec!["--burst-size", "0"], "--burst-size 0"),
        (
            vec!["--flag-probability", "1.5"],
            "`1.5`: --flag-probability takes a probability from 0 to 1",
        ),
        (vec!["--flag-probability", "40"], "40%"),
        (
            vec!["--flag-probability", "lots"],
            "`lots`: --flag-probability",
        ),
        (vec!["--critical-etc", "0"], "'--critical-etc <MIN>': `0`"),
        (vec!["--critical-etc", "-5"], "'--critical-etc <MIN>': `-5`"),
        (vec!["--seed", "-1"], "--seed takes a non-negative integer"),
        (vec!["--theta", "0"], "'--theta <MINUTES>': `0`"),
    ] {
        let mut all = vec!["synth", "serial"];
        all.extend(&args);
        all.extend(["--out", "x.swf"]);
        let out = swftool_in(dir.path(), &all);
        let err = text(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?} was accepted");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = swftool_in(dir.path(), &["synth", "serial", "--out", "x.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains(".swf or .swf.gz"));
    let out = swftool_in(dir.path(), &["synth", "serial"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(text(&out.stderr).contains("--out"));
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "a refused command wrote a file"
    );
}
