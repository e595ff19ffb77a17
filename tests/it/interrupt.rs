//! Interruptions for real: a replay stopped by SIGINT or SIGKILL at many
//! points of its run and of its writing leaves its output folder holding
//! one complete run — every deterministic table its manifest lists
//! byte-identical to an uninterrupted run of the same seed, the wall-clock
//! `timing` complete — or the previous one, never a mix; a SIGINT says what
//! was finished and exits with 130; a grid stopped by SIGINT keeps its
//! finished cells and a re-run completes it.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{ok, text, traces_dir};

/// The replay the tests stop: four days of Curie, all seven heuristics
/// (about 2 s on the development machine: reading, simulating, writing).
fn replay_args(seed: &str, out: &str) -> Vec<String> {
    [
        "replay", "curie", "-H", "all", "--days", "4", "--seed", seed, "--out", out,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Every file of `dir` (hidden ones aside) with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    // Sub-folders too (the replay's figures/), named by their relative path.
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = e.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.is_file() {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The manifest's user seed and table files.
fn manifest(dir: &Path) -> (u64, Vec<String>) {
    let m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let files = m["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    (m["config"]["seed"].as_u64().unwrap(), files)
}

/// Starts `swftool ARGS` in `dir`, sends `signal` after `after`, and waits:
/// its exit code (None when the signal ended it) and standard error.
fn stopped(dir: &Path, args: &[String], signal: &str, after: Duration) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_swftool"))
        .current_dir(dir)
        .env("SWFTOOL_TRACES", traces_dir())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("swftool starts");
    let t = Instant::now();
    while t.elapsed() < after {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // The child may have ended already: kill then finds no process.
    let _ = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .stderr(Stdio::null())
        .status();
    let out = child.wait_with_output().unwrap();
    (out.status.code(), text(&out.stderr))
}

#[test]
fn a_replay_stopped_anywhere_leaves_one_complete_run_or_the_previous_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The two runs of reference, uninterrupted.
    let args = |seed: &str, out: &str| replay_args(seed, out);
    for (seed, out) in [("1", "ref1"), ("2", "ref2")] {
        let v = args(seed, out);
        let v: Vec<&str> = v.iter().map(String::as_str).collect();
        ok(d, &v);
    }
    let reference = [files(&d.join("ref1")), files(&d.join("ref2"))];
    let mut seen = BTreeMap::new();
    for signal in ["-INT", "-KILL"] {
        for ms in [150u64, 400, 700, 1000, 1300, 1600, 1800, 2000, 2300, 2800] {
            let out = d.join(format!("run{signal}{ms}"));
            // The previous run (seed 1), then seed 2 stopped at `ms`.
            std::fs::create_dir_all(&out).unwrap();
            for (name, bytes) in &reference[0] {
                let path = out.join(name);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, bytes).unwrap();
            }
            let name = out.file_name().unwrap().to_string_lossy().into_owned();
            let (code, err) = stopped(d, &args("2", &name), signal, Duration::from_millis(ms));
            if signal == "-INT" {
                match code {
                    // Finished before the signal, or stopped cleanly.
                    Some(0) => {}
                    Some(130) => assert!(err.contains("interrupt"), "{ms} ms: {err}"),
                    // Before the handler was installed: the default action.
                    None => {}
                    other => panic!("{ms} ms: exit {other:?}: {err}"),
                }
            }
            // A commit cut by SIGKILL is finished by the next command to
            // open the folder (its journal says so).
            swftool::experiment::outdir::recover(&out).unwrap();
            assert!(!out.join(".swftool-new").exists());
            assert!(!out.join(".swftool-commit").exists());
            let (seed, listed) = manifest(&out);
            let whole = &reference[(seed - 1) as usize];
            let now = files(&out);
            let names = |m: &BTreeMap<String, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
            assert_eq!(
                names(&now),
                names(whole),
                "{signal} at {ms} ms: other files"
            );
            for f in &listed {
                let (a, b) = (&now[f], &whole[f]);
                if f.starts_with("timing.") {
                    // Wall clock: complete, not equal.
                    if f.ends_with(".csv") {
                        assert_eq!(
                            a.split(|&c| c == b'\n').count(),
                            b.split(|&c| c == b'\n').count()
                        );
                    } else {
                        assert!(a.ends_with(b"PAR1"), "{signal} at {ms} ms: {f} cut");
                    }
                } else {
                    assert!(a == b, "{signal} at {ms} ms: {f} is not seed {seed}'s");
                }
            }
            *seen.entry((signal, seed)).or_insert(0) += 1;
        }
    }
    // The kill times reach both sides of the write (on a loaded machine
    // the split moves, but the first times stop before any output).
    assert!(seen.contains_key(&("-INT", 1)), "{seen:?}");
    assert!(seen.contains_key(&("-KILL", 1)), "{seen:?}");
}

#[test]
fn a_grid_stopped_by_an_interrupt_keeps_its_cells_and_a_rerun_completes_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args: Vec<String> = [
        "experiment",
        "--preset",
        "smoke",
        "--out",
        "g",
        "--no-figures",
        "-q",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (code, err) = stopped(d, &args, "-INT", Duration::from_millis(700));
    let aggregated = d.join("g/aggregate.csv").exists();
    let again = ok(d, &args.iter().map(String::as_str).collect::<Vec<_>>());
    match code {
        Some(130) => {
            assert!(
                err.contains("interrupted") && err.contains("run the same command again"),
                "{err}"
            );
            // On a loaded machine the signal can come after the last cell,
            // once the aggregate is written: then nothing was left to do.
            // Otherwise the stopped grid must not have aggregated.
            assert!(again.contains("already done"), "{again}");
            if aggregated {
                assert!(again.contains("12 already done"), "{again}");
            }
        }
        Some(0) => {}
        other => panic!("exit {other:?}: {err}"),
    }
    assert!(d.join("g/aggregate.csv").is_file());
    assert!(again.contains("12 cells"), "{again}");
}

/// A replay does not write over files swftool did not write, and a command
/// that fails before writing anything leaves no folder holding only its
/// lock.
#[test]
fn a_replay_refuses_files_it_did_not_write_and_a_failed_command_leaves_no_lock_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mine = d.join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("summary.csv"), "my own table\n").unwrap();
    let e = crate::common::refused(
        d,
        &[
            "replay",
            "lublin256",
            "--env",
            "classic",
            "-H",
            "fcfs",
            "--out",
            "mine",
        ],
    );
    assert!(
        e.contains("summary.csv") && e.contains("swftool did not write"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(mine.join("summary.csv")).unwrap(),
        "my own table\n"
    );
    assert!(!mine.join(".swftool.lock").exists(), "the lock file stayed");
    // aggregate of a directory that is not a grid: refused, no folder left.
    let e = crate::common::refused(d, &["aggregate", "mine", "--out", "merged"]);
    assert!(e.contains("manifest"), "{e}");
    assert!(!d.join("merged").exists(), "a folder was left behind");
}
