//! One results pipeline: every column an environment declares for its run
//! summary (`summary_columns`) reaches every table and the Markdown of a
//! real grid — the `runs` table (deterministic columns), the `aggregate`
//! table (`<name>_mean`, `_sd`, `_ci95` of each mean ± CI column),
//! `aggregate.md` (its heading) and, for a column marked `.figure()`, its
//! figure — and a replay's `summary` table and printed run table. Declaring a metric is one entry; nothing else is
//! written for it (ARCHITECTURE.md, "A new metric").

use swftool::metrics::columns::{Agg, SummaryColumn};

use crate::common::ok;

fn header(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .next()
        .unwrap()
        .split(',')
        .map(String::from)
        .collect()
}

fn check<S>(preset: &str, columns: &[SummaryColumn<S>], replay: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(d, &["experiment", "--preset", preset, "--out", "g", "-q"]);
    let runs = header(&d.join("g/runs.csv"));
    let aggregate = header(&d.join("g/aggregate.csv"));
    let md = std::fs::read_to_string(d.join("g/aggregate.md")).unwrap();
    let mut args: Vec<&str> = replay.to_vec();
    args.extend(["--out", "r"]);
    let printed = ok(d, &args);
    let summary = header(&d.join("r/summary.csv"));
    for c in columns {
        let name = c.name.as_str();
        if c.wall_clock {
            assert!(
                !runs.iter().any(|h| h == name),
                "{preset}: wall clock {name} in runs"
            );
            assert!(
                !summary.iter().any(|h| h == name),
                "{preset}: wall clock {name} in summary"
            );
        } else {
            assert!(
                runs.iter().any(|h| h == name),
                "{preset}: {name} not in runs"
            );
            assert!(
                summary.iter().any(|h| h == name),
                "{preset}: {name} not in summary"
            );
        }
        if c.agg == Agg::MeanCi && !c.wall_clock {
            for s in ["mean", "sd", "ci95"] {
                let col = format!("{name}_{s}");
                assert!(aggregate.contains(&col), "{preset}: {col} not in aggregate");
            }
            assert!(
                md.contains(&format!("| {} |", c.heading())),
                "{preset}: {name} ({}) not in aggregate.md",
                c.heading()
            );
        }
        if c.figure {
            let drawn = std::fs::read_dir(d.join("g/figures"))
                .unwrap()
                .filter_map(Result::ok)
                .any(|e| {
                    e.file_name()
                        .to_string_lossy()
                        .ends_with(&format!("-metric-{name}.png"))
                });
            assert!(drawn, "{preset}: no figure of {name}");
        }
        if c.printed {
            assert!(
                printed.contains(&c.heading()),
                "{preset}: {name} ({}) not in the printed table:\n{printed}",
                c.heading()
            );
        }
    }
}

#[test]
fn every_declared_column_reaches_every_table_of_environment_a() {
    check(
        "smoke",
        &swftool::env::parallel::tables::summary_columns(),
        &["replay", "curie", "-H", "easy,maxvpr-ph", "--days", "2"],
    );
}

#[test]
fn every_declared_column_reaches_every_table_of_environment_b() {
    check(
        "smoke-serial",
        &swftool::env::serial::tables::summary_columns(),
        &[
            "replay",
            "--env",
            "serial",
            "-H",
            "fcfs,maxutil",
            "--trials",
            "2",
        ],
    );
}

#[test]
fn every_declared_column_reaches_every_table_of_environment_c() {
    check(
        "smoke-energy",
        &swftool::env::energy::tables::summary_columns(),
        &[
            "replay", "--env", "energy", "-H", "maxutil", "--trials", "2",
        ],
    );
}
