//! Environment D's `users` and `fairness` tables on a real log: each
//! grouping's job counts sum to the jobs replayed, a user's figures are the
//! means of their rows of the `jobs` table, and the fairness row is Jain's
//! index and the worst user recomputed from the `users` rows.

use crate::common;

use std::collections::BTreeMap;

fn table(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head = lines
        .next()
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect();
    (
        head,
        lines
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect(),
    )
}

#[test]
fn users_and_fairness_agree_with_the_jobs_table() {
    let dir = tempfile::tempdir().unwrap();
    common::ok(
        dir.path(),
        &[
            "replay",
            "kth-sp2",
            "--env",
            "classic",
            "-H",
            "fcfs,easy",
            "--out",
            "r",
        ],
    );
    let r = dir.path().join("r");
    let (jh, jobs) = table(&r.join("jobs.csv"));
    let (uh, users) = table(&r.join("users.csv"));
    let (fh, fair) = table(&r.join("fairness.csv"));
    let c = |h: &[String], n: &str| h.iter().position(|x| x == n).unwrap();
    let f = |s: &String| s.parse::<f64>().unwrap();
    for heur in ["fcfs", "easy"] {
        let mine: Vec<&Vec<String>> = jobs
            .iter()
            .filter(|r| r[c(&jh, "heuristic")] == heur)
            .collect();
        for by in ["user", "group", "queue"] {
            let total: u64 = users
                .iter()
                .filter(|u| u[c(&uh, "heuristic")] == heur && u[c(&uh, "by")] == by)
                .map(|u| u[c(&uh, "jobs")].parse::<u64>().unwrap())
                .sum();
            assert_eq!(total, mine.len() as u64, "{heur} {by}");
        }
        // Users' mean bsld and wait from the users table, and from the jobs
        // table (the SWF user id is not a jobs column: group by the order
        // of the cleaned jobs instead).
        let (_, cleaned, _) = common::cleaned("KTH-SP2-1996-2.1-cln.swf.gz");
        let mut sums: BTreeMap<i64, (f64, f64, f64)> = BTreeMap::new();
        for (j, row) in cleaned.iter().zip(&mine) {
            assert_eq!(row[c(&jh, "job_number")], j.job_number.to_string());
            let e = sums.entry(j.user).or_default();
            e.0 += 1.0;
            e.1 += f(&row[c(&jh, "wait_s")]);
            e.2 += f(&row[c(&jh, "bounded_slowdown")]);
        }
        let rows: Vec<&Vec<String>> = users
            .iter()
            .filter(|u| u[c(&uh, "heuristic")] == heur && u[c(&uh, "by")] == "user")
            .collect();
        assert_eq!(rows.len(), sums.len());
        let mut bslds = Vec::new();
        for u in &rows {
            let id: i64 = u[c(&uh, "id")].parse().unwrap();
            let (n, w, b) = sums[&id];
            assert!((f(&u[c(&uh, "wait_mean_s")]) - w / n).abs() <= 1e-6 * (1.0 + w / n));
            assert!((f(&u[c(&uh, "bsld_mean")]) - b / n).abs() <= 1e-6 * (1.0 + b / n));
            bslds.push((id, b / n));
        }
        let s: f64 = bslds.iter().map(|x| x.1).sum();
        let s2: f64 = bslds.iter().map(|x| x.1 * x.1).sum();
        let jain = s * s / (bslds.len() as f64 * s2);
        let worst = bslds
            .iter()
            .fold((0, f64::MIN), |a, &b| if b.1 > a.1 { b } else { a });
        let row = fair
            .iter()
            .find(|r| r[c(&fh, "heuristic")] == heur)
            .unwrap();
        assert!((f(&row[c(&fh, "jain_bsld")]) - jain).abs() < 1e-9, "{heur}");
        assert_eq!(row[c(&fh, "worst_user")], worst.0.to_string());
        assert_eq!(row[c(&fh, "users")], bslds.len().to_string());
    }
}

/// `compare --env classic` (a grid through the runner: the figures come
/// back from the cell files) writes the same `users` and `fairness` tables,
/// to the byte, as `replay --env classic` of the same log and schedulers,
/// and compare.md shows the fairness of each log.
#[test]
fn a_classic_grid_gives_the_replays_users_and_fairness() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| common::ok(dir.path(), args);
    run(&[
        "replay",
        "kth-sp2",
        "--env",
        "classic",
        "-H",
        "fcfs,easy",
        "--out",
        "r",
    ]);
    let printed = run(&[
        "compare",
        "kth-sp2",
        "--env",
        "classic",
        "-H",
        "fcfs,easy",
        "--out",
        "c",
    ]);
    for t in ["users.csv", "fairness.csv"] {
        let a = std::fs::read(dir.path().join("r").join(t)).unwrap();
        let b = std::fs::read(dir.path().join("c").join(t)).unwrap();
        assert!(a == b, "{t} differs between replay and compare");
    }
    assert!(printed.contains("## Fairness over users"), "{printed}");
    // FCFS on KTH-SP2: Jain 0.32, worst user's mean bsld 81,811.9, 75 %.
    assert!(
        printed.contains("| fcfs | 0.32 | 81811.9 | 75 % |"),
        "{printed}"
    );
}
