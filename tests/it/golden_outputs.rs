//! The results of the twelve reference commands must not change when the
//! code under them is reorganised: their deterministic tables (`jobs`,
//! `summary`, `runs`, `aggregate`, `clean`, `suspensions`,
//! `series`, `pieces`, `filter`, `hourly`, `machines`, `paired`, `users`,
//! `fairness`, as each case lists them; CSV and Parquet) are compared, by
//! SHA-256, with `tests/golden/outputs.sha256`. Wall-clock tables
//! (`timing`, `runs_timing`) and manifests are not compared.
//!
//! To re-capture after an intended change of results, run
//! `SWFTOOL_BLESS=1 cargo test --release --test it golden_outputs` and say in the commit
//! which columns changed and why.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use sha2::{Digest, Sha256};

/// (case name, arguments before `--out`, tables it writes).
const CASES: &[(&str, &str, &[&str])] = &[
    (
        "replay-curie-all",
        "replay curie --heuristic all",
        &["jobs", "summary"],
    ),
    (
        "replay-curie-3days-higher",
        "replay curie -H easy,maxvpr-ph --days 3 --oversubscription higher",
        &["jobs", "summary", "series"],
    ),
    (
        "replay-sdsc-sp2-classic",
        "replay sdsc-sp2 --env classic -H fcfs,easy,conservative",
        &["jobs", "summary", "clean", "suspensions", "series"],
    ),
    (
        "replay-datastar-catalina",
        "replay datastar --env classic -H easy,catalina,catalina-preempt --whole-nodes --procs-per-node 8",
        &["jobs", "summary", "clean", "suspensions"],
    ),
    (
        "experiment-smoke",
        "experiment --preset smoke",
        &["runs", "aggregate", "paired", "series"],
    ),
    (
        "experiment-margo2008-datastar",
        "experiment --preset margo2008-datastar",
        &["summary", "jobs", "suspensions"],
    ),
    (
        "replay-serial-all",
        "replay --env serial -H all",
        &["jobs", "summary", "pieces"],
    ),
    (
        "replay-serial-curie-day",
        "replay curie --env serial -H maxupt-preempt-greedy --day 2012-07-09",
        &["jobs", "summary", "pieces", "series"],
    ),
    (
        "replay-energy-all",
        "replay --env energy -H all",
        &["summary", "jobs", "filter", "hourly", "machines", "series"],
    ),
    (
        "experiment-smoke-serial",
        "experiment --preset smoke-serial",
        &["runs", "aggregate", "paired", "series"],
    ),
    (
        "experiment-smoke-energy",
        "experiment --preset smoke-energy",
        &["runs", "aggregate", "paired", "series"],
    ),
    (
        "compare-classic-four-logs",
        "compare datastar sdsc-sp2 ctc-sp2 kth-sp2 --env classic -H fcfs,easy,conservative",
        &["summary", "paired", "users", "fairness"],
    ),
];

fn fixture_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/outputs.sha256")
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn read_fixture() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(fixture_path()).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let (hash, file) = l.split_once("  ")?;
            Some((file.to_string(), hash.to_string()))
        })
        .collect()
}

/// Runs every case and returns `case/table.ext → sha256`.
fn run_cases(root: &Path) -> BTreeMap<String, String> {
    let mut got = BTreeMap::new();
    for (name, args, tables) in CASES {
        let out = root.join(name);
        let status = Command::new(env!("CARGO_BIN_EXE_swftool"))
            .args(args.split_whitespace())
            .arg("--out")
            .arg(&out)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("swftool runs");
        assert!(
            status.status.success(),
            "`swftool {args}` failed:\n{}",
            String::from_utf8_lossy(&status.stderr)
        );
        for t in *tables {
            for ext in ["csv", "parquet"] {
                let file = format!("{t}.{ext}");
                let bytes = std::fs::read(out.join(&file))
                    .unwrap_or_else(|e| panic!("`swftool {args}` wrote no {file}: {e}"));
                got.insert(format!("{name}/{file}"), sha256_hex(&bytes));
            }
        }
    }
    got
}

#[test]
fn the_reference_commands_write_the_captured_tables() {
    let dir = tempfile::tempdir().expect("temp dir");
    let got = run_cases(dir.path());
    if std::env::var_os("SWFTOOL_BLESS").is_some() {
        let mut text = String::from(
            "# SHA-256 of the deterministic tables of the reference commands (tests/it/golden_outputs.rs).\n",
        );
        for (file, hash) in &got {
            text.push_str(&format!("{hash}  {file}\n"));
        }
        std::fs::write(fixture_path(), text).expect("fixture written");
        return;
    }
    let want = read_fixture();
    assert!(
        !want.is_empty(),
        "no fixture at {}",
        fixture_path().display()
    );
    let mut diffs = Vec::new();
    for (file, hash) in &want {
        match got.get(file) {
            Some(h) if h == hash => {}
            Some(_) => diffs.push(format!("{file}: changed")),
            None => diffs.push(format!("{file}: not written")),
        }
    }
    for file in got.keys().filter(|f| !want.contains_key(*f)) {
        diffs.push(format!("{file}: not in the fixture"));
    }
    assert!(
        diffs.is_empty(),
        "outputs differ from the captured ones:\n  {}",
        diffs.join("\n  ")
    );
}
