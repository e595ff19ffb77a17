//! A small grid of every environment through a real Slurm: `swftool
//! experiment --preset … --slurm DIR --shards 4 --submit` submits a 4-task
//! job array and an aggregation job after it; the aggregated tables must be
//! byte-identical to a single-machine run of the same preset.
//!
//! Needs `sbatch` and a running cluster (`.ci/run` starts a throwaway
//! single-node one with `.ci/slurm-local.sh`). Without `sbatch` the test
//! says it is skipped and passes, unless `SWFTOOL_REQUIRE_SLURM=1` (set by
//! `.ci/run`), which makes a missing Slurm a failure.

use crate::common;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const PRESETS: [&str; 4] = ["smoke", "smoke-serial", "smoke-energy", "smoke-classic"];

fn swftool(args: &[&str]) -> String {
    let out = common::swftool_command(args)
        .output()
        .expect("swftool runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success(),
        "swftool {args:?} failed:\n{stdout}\n{stderr}"
    );
    stdout.into_owned()
}

fn run(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether a Slurm cluster answers here; the reason when it does not.
fn slurm_here() -> Result<(), String> {
    run("sbatch", &["--version"]).ok_or("`sbatch` is not on the PATH")?;
    let nodes = run("sinfo", &["-h", "-o", "%t"]).ok_or("`sinfo` cannot reach a slurmctld")?;
    if nodes
        .split_whitespace()
        .any(|s| s.starts_with("idle") || s.starts_with("mix") || s.starts_with("alloc"))
    {
        Ok(())
    } else {
        Err(format!("no node is up (sinfo: {})", nodes.trim()))
    }
}

/// The job ids in `--submit`'s output line.
fn job_ids(stdout: &str) -> (String, String) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("submitted job array "))
        .unwrap_or_else(|| panic!("no submission line in:\n{stdout}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let array = words[3].to_string();
    let at = words.iter().position(|w| *w == "aggregation").unwrap();
    let agg = words
        .iter()
        .skip(at + 1)
        .find(|w| w.chars().all(|c| c.is_ascii_digit()))
        .unwrap()
        .to_string();
    (array, agg)
}

/// `JobState` of every record of job `id` (an array gives one per task).
fn states(id: &str) -> Vec<String> {
    let text = run("scontrol", &["show", "job", "-o", id]).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            l.split_whitespace()
                .find_map(|w| w.strip_prefix("JobState="))
                .map(String::from)
        })
        .collect()
}

/// Files of an output directory whose bytes must not depend on how the
/// cells were run: tables (CSV, Parquet) but the wall-clock ones.
fn deterministic_files(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| (n.ends_with(".csv") || n.ends_with(".parquet")) && !n.contains("timing"))
        .collect()
}

fn logs(dir: &Path) -> String {
    let mut text = String::new();
    for e in std::fs::read_dir(dir.join("logs"))
        .into_iter()
        .flatten()
        .flatten()
    {
        text.push_str(&format!(
            "--- {}\n{}\n",
            e.path().display(),
            std::fs::read_to_string(e.path()).unwrap_or_default()
        ));
    }
    text
}

#[test]
fn every_environment_runs_through_a_real_slurm_job_array_to_identical_tables() {
    if let Err(why) = slurm_here() {
        if std::env::var("SWFTOOL_REQUIRE_SLURM").is_ok_and(|v| v == "1") {
            panic!("SWFTOOL_REQUIRE_SLURM=1 but Slurm is not usable: {why}");
        }
        // Straight to stderr, past the test harness's capture, so the skip
        // shows in a plain `cargo test`.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED every_environment_runs_through_a_real_slurm_job_array_to_identical_tables: {why} (start a throwaway one with `bash .ci/slurm-local.sh`, as root)"
        );
        return;
    }
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join("slurm-test");
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();

    // Submit all four grids at once, then run them on this machine.
    let t0 = Instant::now();
    let mut jobs = Vec::new();
    for p in PRESETS {
        let dir = base.join(p).join("slurm");
        let out = base.join(p).join("results");
        let stdout = swftool(&[
            "experiment",
            "--preset",
            p,
            "--slurm",
            dir.to_str().unwrap(),
            "--shards",
            "4",
            "--out",
            out.to_str().unwrap(),
            "--progress-every",
            "2",
            "--submit",
        ]);
        let (array, agg) = job_ids(&stdout);
        jobs.push((p, dir, out, array, agg));
    }
    let submitted = t0.elapsed();
    for (p, ..) in &jobs {
        let single = base.join(p).join("single");
        swftool(&[
            "experiment",
            "--preset",
            p,
            "--out",
            single.to_str().unwrap(),
            "--quiet",
        ]);
    }

    // Wait until no job of ours is queued or running.
    let ids: Vec<String> = jobs
        .iter()
        .flat_map(|j| [j.3.clone(), j.4.clone()])
        .collect();
    let list = ids.join(",");
    loop {
        let queue = run("squeue", &["-h", "-j", &list, "-o", "%i %T %r"]).unwrap_or_default();
        if queue.trim().is_empty() {
            break;
        }
        if queue.contains("DependencyNeverSatisfied") {
            let text: String = jobs.iter().map(|j| logs(&j.1)).collect();
            panic!("an array task failed, so its aggregation never runs:\n{queue}\n{text}");
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let finished = t0.elapsed();
    let _ = writeln!(
        std::io::stderr(),
        "slurm: 4 grids x 4 array tasks + 4 aggregation jobs submitted in {:.1} s, all finished {:.1} s after the first submission",
        submitted.as_secs_f64(),
        finished.as_secs_f64()
    );

    for (p, dir, out, array, agg) in &jobs {
        for id in [array, agg] {
            let s = states(id);
            assert!(
                !s.is_empty() && s.iter().all(|x| x == "COMPLETED"),
                "{p}: job {id} ended {s:?}\n{}",
                logs(dir)
            );
        }
        let task_logs = logs(dir);
        assert!(task_logs.contains("shard 3/4 done"), "{p}: {task_logs}");
        let single = base.join(p).join("single");
        let files = deterministic_files(&single);
        assert!(files.len() >= 2, "{p}: tables of the single run: {files:?}");
        assert_eq!(files, deterministic_files(out), "{p}: the same tables");
        for f in &files {
            let a = std::fs::read(single.join(f)).unwrap();
            let b = std::fs::read(out.join(f)).unwrap();
            assert!(
                a == b,
                "{p}: {f} differs between the single run and Slurm's"
            );
        }
        // The scripts say where they come from and how to resume.
        let script = std::fs::read_to_string(dir.join("array.sh")).unwrap();
        assert!(script.contains("#SBATCH --array=0-3"), "{script}");
        assert!(
            script.contains(concat!("swftool ", env!("CARGO_PKG_VERSION"))),
            "{script}"
        );
    }
}
