//! The `series` table of `replay` in every environment: the bins tile each
//! run's span, every value is a time average that stays in range, the
//! submits they count are the jobs table's, and on a whole real log
//! (environment D, SDSC-SP2) the busy unit-seconds and the seconds waited
//! summed over the bins equal the jobs table's, for the whole machine and
//! queue by queue.

use std::collections::BTreeMap;

use polars::prelude::DataFrame;

use crate::common::{self, f64s, parquet, texts};

fn queues(df: &DataFrame) -> Vec<Option<i64>> {
    df.column("queue").unwrap().i64().unwrap().iter().collect()
}

/// Checks the bins of every run of `series` (runs keyed by scenario and
/// heuristic): contiguous bins of `step` s (the last may be shorter), values
/// finite and in range; returns per (run key, queue) the sums of
/// busy unit-seconds, seconds waited, submits and first starts.
fn check_bins(series: &DataFrame, step: f64) -> BTreeMap<(String, String, Option<i64>), [f64; 4]> {
    let (sc, h, q) = (
        texts(series, "scenario"),
        texts(series, "heuristic"),
        queues(series),
    );
    let (from, secs) = (f64s(series, "from_s"), f64s(series, "seconds"));
    let (busy, util) = (f64s(series, "busy_units"), f64s(series, "utilization"));
    let (len, work) = (
        f64s(series, "queue_length"),
        f64s(series, "queued_work_unit_s"),
    );
    let (sub, started) = (f64s(series, "submitted"), f64s(series, "started"));
    let mut sums: BTreeMap<(String, String, Option<i64>), [f64; 4]> = BTreeMap::new();
    for i in 0..series.height() {
        let key = (sc[i].clone(), h[i].clone(), q[i]);
        if i > 0 && (sc[i - 1].clone(), h[i - 1].clone(), q[i - 1]) == key {
            assert_eq!(from[i], from[i - 1] + step, "row {i}: bins are contiguous");
            assert_eq!(secs[i - 1], step, "row {i}: only the last bin is short");
        }
        assert!(secs[i] > 0.0 && secs[i] <= step, "row {i}: {}", secs[i]);
        for v in [busy[i], len[i], work[i]] {
            assert!(v.is_finite() && v >= -1e-9, "row {i}: {v}");
        }
        assert!(
            (-1e-9..=1.0 + 1e-9).contains(&util[i]),
            "row {i}: utilization {}",
            util[i]
        );
        let e = sums.entry(key).or_insert([0.0; 4]);
        e[0] += busy[i] * secs[i];
        e[1] += len[i] * secs[i];
        e[2] += sub[i];
        e[3] += started[i];
    }
    sums
}

fn close(a: f64, b: f64, what: &str) {
    assert!(
        (a - b).abs() <= 1e-6 * b.abs().max(1.0),
        "{what}: {a} vs {b}"
    );
}

#[test]
fn the_series_of_a_whole_log_sums_to_its_jobs_table() {
    let dir = tempfile::tempdir().unwrap();
    common::ok(
        dir.path(),
        &[
            "replay",
            "sdsc-sp2",
            "--env",
            "classic",
            "-H",
            "fcfs,easy",
            "--series-step",
            "7200",
            "--out",
            "r",
        ],
    );
    let r = dir.path().join("r");
    let (series, jobs) = (parquet(&r, "series"), parquet(&r, "jobs"));
    let sums = check_bins(&series, 7200.0);
    let (jh, units) = (texts(&jobs, "heuristic"), f64s(&jobs, "units"));
    let (submit, start, end) = (
        f64s(&jobs, "submit_s"),
        f64s(&jobs, "start_s"),
        f64s(&jobs, "end_s"),
    );
    let suspended = f64s(&jobs, "suspended_s");
    // The queue of each job, from the log (SWF field 15).
    let log = swftool::swf::read_log(
        &common::traces_dir().join("SDSC-SP2-1998-4.2-cln.swf.gz"),
        &swftool::swf::ReadOptions::strict(),
    )
    .unwrap();
    let queue_of: BTreeMap<i64, i64> = log
        .jobs
        .iter()
        .map(|j| (j.job_number, j.queue_number))
        .collect();
    let numbers: Vec<i64> = jobs
        .column("job_number")
        .unwrap()
        .i64()
        .unwrap()
        .iter()
        .map(|x| x.unwrap())
        .collect();
    for h in ["fcfs", "easy"] {
        let mut want: BTreeMap<Option<i64>, [f64; 4]> = BTreeMap::new();
        for i in (0..jobs.height()).filter(|&i| jh[i] == h) {
            let Some(&q) = queue_of.get(&numbers[i]) else {
                panic!("job {} not in the log", numbers[i]);
            };
            for q in [None, (q >= 0).then_some(q)]
                .into_iter()
                .collect::<std::collections::BTreeSet<_>>()
            {
                let e = want.entry(q).or_insert([0.0; 4]);
                e[0] += units[i] * (end[i] - start[i] - suspended[i]);
                e[1] += start[i] - submit[i] + suspended[i];
                e[2] += 1.0;
                e[3] += 1.0;
            }
        }
        assert!(want.len() > 2, "SDSC-SP2 has several queues");
        for (q, w) in &want {
            let got = sums[&("the whole log".to_string(), h.to_string(), *q)];
            close(got[0], w[0], &format!("{h} queue {q:?}: busy unit-s"));
            close(got[1], w[1], &format!("{h} queue {q:?}: seconds waited"));
            assert_eq!(got[2], w[2], "{h} queue {q:?}: submits");
            assert_eq!(got[3], w[3], "{h} queue {q:?}: starts");
        }
    }
    // The figures are listed in the manifest, so a later replay removes them.
    let manifest = std::fs::read_to_string(r.join("manifest.json")).unwrap();
    assert!(
        manifest.contains("figures/series-utilization.png"),
        "{manifest}"
    );
}

#[test]
fn every_environment_writes_a_series_that_counts_its_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 3] = [
        (
            "a",
            &["replay", "kth-sp2", "-H", "easy,maxvpr-ph", "--days", "2"],
        ),
        (
            "b",
            &[
                "replay",
                "--env",
                "serial",
                "-H",
                "maxupt,maxupt-preempt-greedy",
                "--trials",
                "2",
            ],
        ),
        (
            "c",
            &[
                "replay",
                "--env",
                "energy",
                "-H",
                "maxupt,maxupe",
                "--trials",
                "2",
            ],
        ),
    ];
    for (out, args) in cases {
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--series-step", "900", "--out", out]);
        common::ok(dir.path(), &all);
        let r = dir.path().join(out);
        let (series, jobs) = (parquet(&r, "series"), parquet(&r, "jobs"));
        let sums = check_bins(&series, 900.0);
        assert!(
            queues(&series).iter().all(Option::is_none),
            "{out}: no queues"
        );
        // Submits per run equal the jobs table's rows per run.
        let scenario_col = if out == "a" { "date" } else { "scenario" };
        let (js, jh) = (texts(&jobs, scenario_col), texts(&jobs, "heuristic"));
        let mut rows: BTreeMap<(String, String), f64> = BTreeMap::new();
        for i in 0..jobs.height() {
            *rows.entry((js[i].clone(), jh[i].clone())).or_default() += 1.0;
        }
        let mut submits: BTreeMap<String, f64> = BTreeMap::new();
        for ((_, h, _), s) in &sums {
            *submits.entry(h.clone()).or_default() += s[2];
        }
        for (h, n) in submits {
            let want: f64 = rows
                .iter()
                .filter(|((_, jh), _)| *jh == h)
                .map(|(_, n)| n)
                .sum();
            assert_eq!(n, want, "{out} {h}: submits");
        }
        for (k, s) in &sums {
            assert!(s[0] > 0.0 && s[3] > 0.0, "{out} {k:?}: something ran");
        }
    }
}

#[test]
fn a_step_that_does_not_fit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for bad in ["0", "-5", "1e9", "hour"] {
        let e = common::refused(
            dir.path(),
            &[
                "replay",
                "kth-sp2",
                "--env",
                "classic",
                "-H",
                "fcfs",
                "--series-step",
                bad,
            ],
        );
        assert!(e.contains("--series-step takes seconds"), "{bad}: {e}");
    }
    let e = common::refused(
        dir.path(),
        &[
            "replay",
            "kth-sp2",
            "--env",
            "classic",
            "-H",
            "fcfs",
            "--series-step",
            "1",
            "--out",
            "x",
        ],
    );
    assert!(e.contains("give a larger --series-step"), "{e}");
}

/// A grid's cells keep each run's hourly series: on the small KTH-SP2 grid
/// they equal, bin for bin, the `series` of `replay` of the same days,
/// heuristics and seed, and the grid's `series` table is their mean.
#[test]
fn a_grid_keeps_each_runs_series_and_averages_them() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("small.toml");
    std::fs::write(&cfg, common::SMALL_GRID).unwrap();
    common::ok(
        dir.path(),
        &[
            "experiment",
            cfg.to_str().unwrap(),
            "--out",
            "g",
            "-q",
            "--no-figures",
        ],
    );
    common::ok(
        dir.path(),
        &[
            "replay",
            "kth-sp2",
            "-H",
            "easy,maxvpr-ph",
            "--days",
            "2",
            "--seed",
            "7",
            "--out",
            "r",
        ],
    );
    let replay = parquet(&dir.path().join("r"), "series");
    let (dates, hs, util) = (
        texts(&replay, "scenario"),
        texts(&replay, "heuristic"),
        f64s(&replay, "utilization"),
    );
    let mut compared = 0;
    for e in std::fs::read_dir(dir.path().join("g/cells")).unwrap() {
        let v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(e.unwrap().path()).unwrap()).unwrap();
        let id = v["id"].as_str().unwrap().to_string();
        if !id.contains("_os-intermediate.") {
            continue;
        }
        let cell: Vec<f64> = v["series"]["utilization"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let mine: Vec<f64> = (0..replay.height())
            .filter(|&i| id.ends_with(&format!("_{}_{}", dates[i], hs[i])))
            .map(|i| util[i])
            .collect();
        assert!(!mine.is_empty(), "{id}: no replay run");
        assert_eq!(cell, mine, "{id}");
        compared += 1;
    }
    assert_eq!(compared, 4);
    let g = parquet(&dir.path().join("g"), "series");
    let n = f64s(&g, "n");
    assert!(n.iter().all(|&n| n == 2.0));
    for u in f64s(&g, "utilization_mean") {
        assert!((0.0..=1.0 + 1e-12).contains(&u), "{u}");
    }
}
