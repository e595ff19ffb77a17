//! `--export batsim` in environments A, B and C: one row per job that ran,
//! its resources the engine's own (A: nodes, B: cores, C: machines) —
//! no resource ever holds two jobs at once in A and C, rows carry the
//! replay's starts; `compare` takes no `--export`.

use std::collections::BTreeMap;

use crate::common;

fn rows(path: &std::path::Path) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(str::to_string))
                .collect()
        })
        .collect()
}

/// Every resource's busy intervals, from the interval sets.
fn per_resource(rows: &[BTreeMap<String, String>]) -> BTreeMap<u32, Vec<(f64, f64)>> {
    let mut out: BTreeMap<u32, Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows {
        let (s, e) = (
            r["starting_time"].parse::<f64>().unwrap(),
            r["finish_time"].parse::<f64>().unwrap(),
        );
        for part in r["allocated_resources"].split(' ') {
            let (a, b) = match part.split_once('-') {
                Some((a, b)) => (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap()),
                None => (part.parse().unwrap(), part.parse().unwrap()),
            };
            for u in a..=b {
                out.entry(u).or_default().push((s, e));
            }
        }
    }
    out
}

fn no_overlap(by: &BTreeMap<u32, Vec<(f64, f64)>>, what: &str) {
    for (u, spans) in by {
        let mut spans = spans.clone();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        for w in spans.windows(2) {
            assert!(w[1].0 >= w[0].1, "{what} {u} holds two jobs: {w:?}");
        }
    }
}

#[test]
fn a_and_c_export_their_own_resources_without_double_booking() {
    let dir = tempfile::tempdir().unwrap();
    common::ok(
        dir.path(),
        &[
            "replay",
            "kth-sp2",
            "-H",
            "easy,maxvpr-ph",
            "--day",
            "3",
            "--export",
            "batsim",
            "--out",
            "a",
        ],
    );
    common::ok(
        dir.path(),
        &[
            "replay", "--env", "energy", "-H", "maxupe", "--trial", "0", "--export", "batsim",
            "--out", "c",
        ],
    );
    for h in ["easy", "maxvpr-ph"] {
        let r = rows(&dir.path().join("a/batsim").join(h).join("jobs.csv"));
        assert!(r.len() > 10, "{h}");
        for x in &r {
            // Whole nodes: as many nodes as it asked for, named.
            let n: usize = per_resource(std::slice::from_ref(x)).len();
            assert_eq!(n.to_string(), x["requested_number_of_resources"], "{h}");
        }
        no_overlap(&per_resource(&r), "node");
    }
    let r = rows(&dir.path().join("c/batsim/maxupe/jobs.csv"));
    assert!(r.len() > 1000);
    assert!(
        r.iter()
            .all(|x| x["consumed_energy"].parse::<f64>().unwrap() > 0.0)
    );
    no_overlap(&per_resource(&r), "machine");
}

#[test]
fn several_scenarios_get_a_folder_each_and_compare_takes_no_export() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::ok(
        dir.path(),
        &[
            "replay", "--env", "serial", "-H", "maxupt", "--trials", "2", "--export", "batsim",
            "--out", "b",
        ],
    );
    for t in ["trial-0", "trial-1"] {
        let p = dir.path().join("b/batsim").join(t).join("maxupt/jobs.csv");
        assert!(p.is_file(), "{}: {out}", p.display());
    }
    let manifest = std::fs::read_to_string(dir.path().join("b/manifest.json")).unwrap();
    assert!(
        manifest.contains("batsim/trial-1/maxupt/jobs.csv"),
        "{manifest}"
    );
    // Without --export none is written, and the earlier ones go.
    common::ok(
        dir.path(),
        &[
            "replay", "--env", "serial", "-H", "maxupt", "--trials", "2", "--out", "b",
        ],
    );
    assert!(!dir.path().join("b/batsim/trial-0/maxupt/jobs.csv").exists());
    common::ok(
        dir.path(),
        &[
            "replay", "kth-sp2", "-H", "easy", "--day", "3", "--out", "na",
        ],
    );
    common::ok(
        dir.path(),
        &["replay", "--env", "energy", "-H", "maxupe", "--out", "nc"],
    );
    for out in ["na", "nc"] {
        assert!(!dir.path().join(out).join("batsim").exists(), "{out}");
    }
    // `--export` is replay's: compare has no such flag.
    let e = common::refused(
        dir.path(),
        &["compare", "kth-sp2", "-H", "easy", "--export", "batsim"],
    );
    assert!(e.contains("--export"), "{e}");
}
