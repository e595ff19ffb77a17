//! The same seed gives byte-identical output files, whatever the number of
//! threads (the `timing` table, wall clock, and the manifest's `when` are
//! the documented exceptions).

use std::path::Path;
use std::process::Command;

fn replay(out: &Path, threads: &str) {
    let traces = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/traces");
    let status = Command::new(env!("CARGO_BIN_EXE_swftool"))
        .env("SWFTOOL_TRACES", &traces)
        .args([
            "replay",
            "curie",
            "--heuristic",
            "easy,maxvpr-ph",
            "--days",
            "3",
            "--seed",
            "42",
        ])
        .args(["--threads", threads, "--out"])
        .arg(out)
        .status()
        .expect("swftool runs");
    assert!(status.success());
}

#[test]
fn same_seed_same_bytes_with_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    replay(&a, "1");
    replay(&b, "2");
    // The manifest records when it was written; everything else is equal.
    let manifest = |dir: &Path| {
        let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v.as_object_mut()
            .unwrap()
            .remove("when")
            .expect("a `when` field");
        v
    };
    assert_eq!(manifest(&a), manifest(&b));
    for f in ["jobs.csv", "jobs.parquet", "summary.csv", "summary.parquet"] {
        let x = std::fs::read(a.join(f)).unwrap();
        let y = std::fs::read(b.join(f)).unwrap();
        assert!(!x.is_empty(), "{f} is empty");
        assert!(x == y, "{f} differs between 1 and 2 threads");
    }
    // and the run really has 3 days × 2 heuristics
    let summary = std::fs::read_to_string(a.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 6);
}

#[test]
fn a_different_seed_gives_a_different_scenario() {
    let dir = tempfile::tempdir().unwrap();
    let traces = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/traces");
    let run = |seed: &str, out: &Path| {
        let ok = Command::new(env!("CARGO_BIN_EXE_swftool"))
            .env("SWFTOOL_TRACES", &traces)
            .args(["replay", "curie", "-H", "easy", "--seed", seed, "--out"])
            .arg(out)
            .status()
            .unwrap()
            .success();
        assert!(ok);
        std::fs::read(out.join("summary.csv")).unwrap()
    };
    let x = run("1", &dir.path().join("x"));
    let y = run("2", &dir.path().join("y"));
    assert_ne!(x, y);
}
