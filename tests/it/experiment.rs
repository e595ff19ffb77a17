//! `swftool experiment`, `aggregate` and `compare`: statistics by hand,
//! Student t quantiles, resume after an interruption, shards merged into
//! the single-run result, preset round trip, figures, and errors.

use crate::common;

use std::path::{Path, PathBuf};

use swftool::env::configs::{config_from_file, preset};
use swftool::env::parallel::grid::variant::Variant;
use swftool::env::parallel::grid::{CellResult, ParallelSection, aggregate};
use swftool::env::parallel::summary::RunSummary;
use swftool::metrics::stats::{ci95_half_width, t_quantile};

/// Runs the binary; returns (success, stdout, stderr).
fn swftool(args: &[&str]) -> (bool, String, String) {
    let out = common::swftool_command(args)
        .output()
        .expect("swftool runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(args: &[&str]) -> String {
    let (success, out, err) = swftool(args);
    assert!(success, "swftool {args:?} failed:\n{out}\n{err}");
    out
}

use common::SMALL_GRID as SMALL;

fn small_config(dir: &Path) -> PathBuf {
    let p = dir.join("small.toml");
    std::fs::write(&p, SMALL).unwrap();
    p
}

fn bytes(p: PathBuf) -> Vec<u8> {
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The deterministic outputs of a run must be byte-identical.
fn assert_same_results(a: &Path, b: &Path) {
    for f in [
        "runs.csv",
        "aggregate.csv",
        "runs.parquet",
        "aggregate.parquet",
        "aggregate.md",
    ] {
        if f == "aggregate.md" {
            // The Markdown table holds timing columns: compare all but those.
            let strip = |p: PathBuf| -> Vec<String> {
                String::from_utf8(bytes(p))
                    .unwrap()
                    .lines()
                    .map(|l| l.split('|').take(8).collect::<Vec<_>>().join("|"))
                    .collect()
            };
            assert_eq!(strip(a.join(f)), strip(b.join(f)), "{f} differs");
        } else {
            assert!(
                bytes(a.join(f)) == bytes(b.join(f)),
                "{f} differs between {} and {}",
                a.display(),
                b.display()
            );
        }
    }
}

fn cells_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("cells"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

fn summary(heuristic: &str, date: &str, pct: f64) -> RunSummary {
    RunSummary {
        log: "hand.swf".into(),
        log_key: "hand".into(),
        date: date.into(),
        heuristic: heuristic.into(),
        seed: 1,
        scenario_seed: 2,
        oversubscription: "intermediate".into(),
        correlation: "weak".into(),
        heterogeneity: "intermediate".into(),
        variant: "default".into(),
        system: "10x4".into(),
        system_cores: 40,
        system_target_cores: 40.0,
        tasks_simulated: 12,
        tasks_counted: 10,
        tasks_completed: pct as usize,
        tasks_dropped: 10 - pct as usize,
        tasks_unfinished: 0,
        tasks_too_wide: 0,
        value_earned: 10.0 * pct,
        value_bound: 1000.0,
        percent_of_bound: pct,
        mapping_events: 5,
        heuristic_seconds_mean: 0.001 * pct,
        heuristic_seconds_max: 0.002 * pct,
    }
}

fn cell(index: usize, heuristic: &str, date: &str, pct: f64) -> CellResult {
    CellResult {
        id: format!("hand_{date}_{heuristic}"),
        index,
        log: "hand".into(),
        variant: Variant::default(),
        summary: summary(heuristic, date, pct),
        cumulative: None,
        gantt: None,
    }
}

#[test]
fn t_quantiles_match_the_printed_tables() {
    for (df, want) in [
        (1, 12.7062),
        (2, 4.3027),
        (3, 3.182446),
        (10, 2.2281),
        (30, 2.0423),
        (100, 1.9840),
    ] {
        let t = t_quantile(0.975, df).unwrap();
        let digits = if df == 3 { 1e-6 } else { 1e-4 };
        assert!(
            (t - want).abs() <= digits / 2.0 + 1e-12,
            "df {df}: {t} vs {want}"
        );
    }
    // Large df tends to the normal quantile 1.959964.
    assert!((t_quantile(0.975, 100_000).unwrap() - 1.959_964).abs() < 1e-4);
}

#[test]
fn aggregation_matches_means_sds_and_cis_computed_by_hand() {
    // easy: 1, 2, 3, 4 → mean 2.5, sd √(5/3) = 1.290994, CI = 3.182446 · sd / 2 = 2.054260 (2.0542 to four decimals, truncated).
    // maxvpr-ph: 10 only → n 1, no sd, no CI.
    let cells = vec![
        cell(0, "easy", "2000-01-01", 1.0),
        cell(1, "maxvpr-ph", "2000-01-01", 10.0),
        cell(2, "easy", "2000-01-02", 2.0),
        cell(3, "easy", "2000-01-03", 3.0),
        cell(4, "easy", "2000-01-04", 4.0),
    ];
    let t = aggregate::tables(&cells).unwrap();
    assert_eq!(t.rows.len(), 2);
    let easy = &t.rows[0];
    assert_eq!(easy.group.heuristic, "easy");
    assert_eq!(easy.group.n, 4);
    assert!((easy.percent_of_bound.mean - 2.5).abs() < 1e-12);
    let sd = easy.percent_of_bound.sd.unwrap();
    assert!((sd - 1.290_994_448_7).abs() < 1e-9, "{sd}");
    let ci = easy.percent_of_bound.ci95.unwrap();
    assert!((ci - 3.182_446_305_3 * sd / 2.0).abs() < 1e-9, "{ci}");
    assert!((ci - 2.05426).abs() < 1e-5, "{ci}");
    // value_earned = 10 · pct: everything scales by 10.
    assert!((easy.value_earned.mean - 25.0).abs() < 1e-9);
    assert!((easy.value_earned.ci95.unwrap() - 10.0 * ci).abs() < 1e-9);
    // Counts: completed = pct, dropped = 10 − pct.
    assert!((easy.tasks_completed.mean - 2.5).abs() < 1e-12);
    assert!((easy.tasks_dropped.mean - 7.5).abs() < 1e-12);
    assert!((easy.group.heuristic_seconds_mean.mean - 0.0025).abs() < 1e-12);
    assert!((easy.group.heuristic_seconds_max - 0.008).abs() < 1e-12);
    let one = &t.rows[1];
    assert_eq!(
        (one.group.heuristic.as_str(), one.group.n),
        ("maxvpr-ph", 1)
    );
    assert_eq!(one.percent_of_bound.mean, 10.0);
    assert_eq!(
        (one.percent_of_bound.sd, one.percent_of_bound.ci95),
        (None, None)
    );
    // The polars tables hold the same numbers, in cell order.
    assert_eq!(t.get("aggregate").unwrap().height(), 2);
    assert_eq!(t.get("runs").unwrap().height(), 5);
    let ci_col = t
        .get("aggregate")
        .unwrap()
        .column("pct_of_max_ci95")
        .unwrap()
        .f64()
        .unwrap();
    assert!((ci_col.get(0).unwrap() - ci).abs() < 1e-12);
    // n = 1: no CI, written as NaN (not null) so the column is a float in
    // CSV and Parquet alike.
    assert!(ci_col.get(1).is_some_and(f64::is_nan));
    assert_eq!(ci95_half_width(sd, 4), Some(ci));
    let md = aggregate::markdown(&t.rows);
    assert!(md.contains("| default | easy | 4 | 2.50 ± 2.05 |"), "{md}");
}

#[test]
fn an_interrupted_run_resumes_to_the_same_results() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = small_config(tmp.path());
    let cfg = cfg.to_str().unwrap();
    let full = tmp.path().join("full");
    let resumed = tmp.path().join("resumed");
    ok(&[
        "experiment",
        cfg,
        "--out",
        full.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert_eq!(cells_in(&full).len(), 12);

    // "Interrupt": a run that finished only some cells — remove five cell
    // files and every table, and leave a half-written temporary file behind.
    ok(&[
        "experiment",
        cfg,
        "--out",
        resumed.to_str().unwrap(),
        "--threads",
        "1",
        "--no-figures",
    ]);
    for p in cells_in(&resumed).iter().step_by(2).take(5) {
        std::fs::remove_file(p).unwrap();
    }
    for f in [
        "runs.csv",
        "aggregate.csv",
        "runs.parquet",
        "aggregate.parquet",
    ] {
        std::fs::remove_file(resumed.join(f)).unwrap();
    }
    std::fs::write(
        resumed.join("cells").join(".x.partial.json"),
        b"{\"id\": \"trunc",
    )
    .unwrap();
    let out = ok(&[
        "experiment",
        cfg,
        "--out",
        resumed.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert!(out.contains("5 cells to run, 7 already done"), "{out}");
    assert_eq!(cells_in(&resumed).len(), 12);
    assert_same_results(&full, &resumed);

    // A re-run of a finished grid runs nothing and changes nothing.
    let out = ok(&[
        "experiment",
        cfg,
        "--out",
        resumed.to_str().unwrap(),
        "--no-figures",
    ]);
    assert!(out.contains("0 cells to run, 12 already done"), "{out}");
    assert_same_results(&full, &resumed);
}

#[test]
fn shards_merged_by_aggregate_equal_a_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = small_config(tmp.path());
    let cfg = cfg.to_str().unwrap();
    let single = tmp.path().join("single");
    ok(&[
        "experiment",
        cfg,
        "--out",
        single.to_str().unwrap(),
        "--no-figures",
    ]);
    let s1 = tmp.path().join("shard-1");
    let s2 = tmp.path().join("shard-2");
    let out = ok(&[
        "experiment",
        cfg,
        "--shard",
        "1/2",
        "--out",
        s1.to_str().unwrap(),
    ]);
    assert!(out.contains("shard 1/2: 6 cells"), "{out}");
    ok(&[
        "experiment",
        cfg,
        "--shard",
        "2/2",
        "--out",
        s2.to_str().unwrap(),
    ]);
    // A shard writes cells and a manifest, no tables.
    assert!(!s1.join("aggregate.csv").exists());
    let (n1, n2) = (cells_in(&s1).len(), cells_in(&s2).len());
    assert_eq!((n1, n2), (6, 6));

    // One shard alone is incomplete.
    let merged = tmp.path().join("merged");
    let (success, _, err) = swftool(&[
        "aggregate",
        s1.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(!success);
    assert!(
        err.contains("6 of 12 cells are missing") && err.contains("--partial"),
        "{err}"
    );

    let out = ok(&[
        "aggregate",
        s1.to_str().unwrap(),
        s2.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(out.contains("| default | maxvpr-ph | 2 |"), "{out}");
    assert_same_results(&single, &merged);
    let m: serde_json::Value =
        serde_json::from_slice(&bytes(merged.join("manifest.json"))).unwrap();
    assert_eq!(m["command"], "aggregate");
    assert_eq!(m["cells_present"], 12);
    assert_eq!(m["sources"].as_array().unwrap().len(), 2);

    // 0/2 is the same shard as 2/2 (both Slurm numbering conventions work).
    let s0 = tmp.path().join("shard-0");
    ok(&[
        "experiment",
        cfg,
        "--shard",
        "0/2",
        "--out",
        s0.to_str().unwrap(),
    ]);
    let names = |d: &Path| {
        cells_in(d)
            .iter()
            .map(|p| p.file_name().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&s0), names(&s2));
}

#[test]
fn the_manifest_records_version_config_seeds_and_time() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = small_config(tmp.path());
    let out = tmp.path().join("o");
    ok(&[
        "experiment",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-figures",
    ]);
    let m: serde_json::Value = serde_json::from_slice(&bytes(out.join("manifest.json"))).unwrap();
    assert_eq!(m["swftool_version"], env!("CARGO_PKG_VERSION"));
    assert!(m["git_commit"].is_string() || m["git_commit"].is_null());
    assert_eq!(m["config"]["seed"], 7);
    assert_eq!(m["config"]["name"], "small");
    let days = m["layout"]["logs"][0]["days"].as_array().unwrap();
    assert_eq!(days.len(), 2);
    assert!(days.iter().all(|d| d["scenario_seed"].is_u64()));
    assert_eq!(m["cells_total"], 12);
    assert!(
        m["when"]
            .as_str()
            .unwrap()
            .parse::<jiff::Timestamp>()
            .is_ok()
    );
    // The runs table carries the same scenario seeds.
    let runs = String::from_utf8(bytes(out.join("runs.csv"))).unwrap();
    assert!(runs.contains(&days[0]["scenario_seed"].as_u64().unwrap().to_string()));
}

#[test]
fn another_config_in_the_same_directory_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = small_config(tmp.path());
    let out = tmp.path().join("o");
    ok(&[
        "experiment",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--no-figures",
    ]);
    std::fs::write(&cfg, SMALL.replace("seed = 7", "seed = 8")).unwrap();
    let (success, _, err) = swftool(&[
        "experiment",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!success);
    assert!(err.contains("different configuration"), "{err}");
}

#[test]
fn dumped_presets_parse_back_to_the_same_config() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["khemka2015-parallel", "smoke"] {
        let text = ok(&["experiment", "--dump-preset", name]);
        let p = tmp.path().join(format!("{name}.toml"));
        std::fs::write(&p, &text).unwrap();
        let back = config_from_file(&p).unwrap();
        assert_eq!(back, preset(name).unwrap(), "{text}");
    }
    let full = preset("khemka2015-parallel").unwrap();
    let section: ParallelSection = full.section().unwrap();
    assert_eq!(section.variant_list().len(), 7);
    // Without a base the written table has no `cores_base` key (TOML has no
    // None); with one it is kept; both read back the same section.
    for cores_base in [None, Some(64.0)] {
        let s = ParallelSection {
            cores_base,
            ..section.clone()
        };
        let c = full.clone().with_section(&s);
        assert_eq!(c.section.contains_key("cores_base"), cores_base.is_some());
        assert_eq!(c.section::<ParallelSection>().unwrap(), s);
    }
    assert_eq!(full.heuristics.len(), 7);
    assert_eq!(full.day_count(), 48);
    let (success, _, err) = swftool(&["experiment", "--dump-preset", "nope"]);
    assert!(!success);
    assert!(
        err.contains("unknown preset `nope`") && err.contains("khemka2015-parallel"),
        "{err}"
    );
}

#[test]
fn a_bad_config_names_the_file_line_and_key() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("bad.toml");
    std::fs::write(&p, "name = \"x\"\nlogs = [\"kth-sp2\"]\nheuristics = [\"easy\"]\naxes = [\"oversubscription\", \"size\"]\n").unwrap();
    let (success, _, err) = swftool(&["experiment", p.to_str().unwrap()]);
    assert!(!success);
    assert!(
        err.contains("bad.toml") && err.contains("line 4") && err.contains("size"),
        "{err}"
    );

    std::fs::write(
        &p,
        "name = \"x\"\nlogs = [\"kth-sp2\"]\nheuristics = [\"easy\", \"maxvalu\"]\n",
    )
    .unwrap();
    let (success, _, err) = swftool(&["experiment", p.to_str().unwrap()]);
    assert!(!success);
    assert!(
        err.contains("unknown heuristic `maxvalu`") && err.contains("maxvpr-ph"),
        "{err}"
    );

    std::fs::write(
        &p,
        "name = \"x\"\nlogs = [\"no-such-log\"]\nheuristics = [\"easy\"]\n",
    )
    .unwrap();
    let (success, _, err) = swftool(&["experiment", p.to_str().unwrap()]);
    assert!(!success);
    assert!(err.contains("no-such-log"), "{err}");

    let (success, _, err) = swftool(&["experiment", "--preset", "smoke", "--shard", "3/2"]);
    assert!(!success);
    assert!(err.contains("--shard `3/2`"), "{err}");
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(path: &Path) -> (u32, u32) {
    let b = bytes(path.to_path_buf());
    assert_eq!(&b[..8], b"\x89PNG\r\n\x1a\n", "{}", path.display());
    (
        u32::from_be_bytes(b[16..20].try_into().unwrap()),
        u32::from_be_bytes(b[20..24].try_into().unwrap()),
    )
}

#[test]
fn an_experiment_draws_its_figures_with_titles_and_axis_labels() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = small_config(tmp.path());
    let out = tmp.path().join("o");
    let stdout = ok(&[
        "experiment",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let figs = out.join("figures");
    let expect = [
        (
            "kth-sp2-percent-of-bound-oversubscription",
            vec![
                "kth-sp2: value earned by oversubscription level (mean of 2 days, 95 % CI)",
                "oversubscription level (other axes at their defaults)",
                "value earned (% of maximum value bound)",
                "lower (25 % of cores)",
                "easy",
                "maxvpr-ph",
            ],
        ),
        (
            "kth-sp2-heuristic-time",
            vec![
                "kth-sp2: heuristic time per mapping event (mean of 2 days, 95 % CI; wall clock)",
                "mean heuristic time per mapping event (ms, log scale)",
                "lower (oversub.)",
            ],
        ),
        (
            "kth-sp2-cumulative-value",
            vec![
                "cumulative value earned by counted tasks",
                "time since midnight of the counted day (h)",
                "cumulative value earned (value units)",
                "warm-up",
                "maximum value bound",
            ],
        ),
        (
            "kth-sp2-gantt",
            vec![
                "maxvpr-ph: cluster",
                "time since midnight of the day, local (h)",
                "node",
                "\nidle\n",
            ],
        ),
    ];
    for (stem, texts) in expect {
        let png = figs.join(format!("{stem}.png"));
        assert_eq!(png_size(&png), (1200, 700), "{stem}");
        assert!(stdout.contains(&png.display().to_string()), "{stdout}");
        let svg = String::from_utf8(bytes(figs.join(format!("{stem}.svg")))).unwrap();
        assert!(
            svg.contains("width=\"1200\"") && svg.contains("height=\"700\""),
            "{stem}"
        );
        for t in texts {
            assert!(svg.contains(t), "{stem}.svg lacks `{t}`");
        }
    }
    // The Gantt scenario is the first day of the default variant, kept in
    // its cell file only.
    let with_gantt: Vec<PathBuf> = cells_in(&out)
        .into_iter()
        .filter(|p| {
            String::from_utf8(bytes(p.clone()))
                .unwrap()
                .contains("\"gantt\"")
        })
        .collect();
    assert_eq!(with_gantt.len(), 1);
    let name = with_gantt[0]
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        name.starts_with("kth-sp2_os-intermediate.corr-weak.het-intermediate_")
            && name.ends_with("_maxvpr-ph.json"),
        "{name}"
    );
}

#[test]
fn compare_puts_logs_side_by_side() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("cmp");
    let stdout = ok(&[
        "compare",
        "kth-sp2",
        "ctc-sp2",
        "--heuristics",
        "easy,maxvpr-ph",
        "--days",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        stdout.contains("| heuristic | kth-sp2 % of bound |"),
        "{stdout}"
    );
    assert!(stdout.contains("ctc-sp2 ms/event |"), "{stdout}");
    assert!(
        stdout.lines().any(|l| l.starts_with("| maxvpr-ph |")),
        "{stdout}"
    );
    // Each log is sized from its own MaxProcs (KTH 100, CTC 338).
    assert!(
        stdout.contains("MaxProcs 100") && stdout.contains("MaxProcs 338"),
        "{stdout}"
    );
    let png = out.join("figures").join("compare-percent-of-bound.png");
    assert_eq!(png_size(&png), (1200, 700));
    let svg = String::from_utf8(bytes(
        out.join("figures").join("compare-percent-of-bound.svg"),
    ))
    .unwrap();
    for t in [
        "value earned across logs",
        "log (each system sized from its own MaxProcs)",
        "kth-sp2",
        "ctc-sp2",
    ] {
        assert!(svg.contains(t), "svg lacks `{t}`");
    }
    let agg = String::from_utf8(bytes(out.join("aggregate.csv"))).unwrap();
    assert_eq!(agg.lines().count(), 1 + 4);
}

/// A cell file gives back exactly the values the run computed, so the
/// experiment tables equal the replay tables of the same runs to the last
/// bit (serde_json's `float_roundtrip`; without it this value came back
/// one unit in the last place off).
#[test]
fn cell_files_give_back_the_exact_values() {
    for x in [94.65935157325261_f64, 2.3869782895946083, 0.1 + 0.2] {
        let back: f64 = serde_json::from_str(&serde_json::to_string(&x).unwrap()).unwrap();
        assert_eq!(back.to_bits(), x.to_bits(), "{x}");
    }
}

/// An environment-D grid runs through the same runner: shards merged by
/// `aggregate` give the same `summary`, `jobs` and `suspensions` tables, to
/// the byte, as one run and as `replay --env classic` of the same window.
#[test]
fn a_classic_grid_shards_and_aggregates_like_a_parallel_one() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("classic.toml");
    std::fs::write(
        &cfg,
        r#"
name = "classic-small"
environment = "classic"
logs = ["kth-sp2"]
heuristics = ["fcfs", "easy", "catalina-preempt"]
job_tables = true

[classic]
window_jobs = 400
extra_jobs = 200
window_start = 1000
preempting_above = 16
preemptible_up_to = 16
"#,
    )
    .unwrap();
    let cfg = cfg.to_str().unwrap();
    let single = tmp.path().join("single");
    let out = ok(&["experiment", cfg, "--out", single.to_str().unwrap()]);
    assert!(out.contains("(--env classic): 1 log(s)"), "{out}");
    assert!(out.contains("Table 1. Average queue wait"), "{out}");
    let shards: Vec<PathBuf> = (0..2).map(|i| tmp.path().join(format!("s{i}"))).collect();
    for (i, s) in shards.iter().enumerate() {
        ok(&[
            "experiment",
            cfg,
            "--shard",
            &format!("{i}/2"),
            "--out",
            s.to_str().unwrap(),
        ]);
    }
    let merged = tmp.path().join("merged");
    ok(&[
        "aggregate",
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    let replayed = tmp.path().join("replayed");
    ok(&[
        "replay",
        "kth-sp2",
        "--env",
        "classic",
        "-H",
        "fcfs,easy,catalina-preempt",
        "--window-jobs",
        "400",
        "--extra-jobs",
        "200",
        "--window-start",
        "1000",
        "--preempting-above",
        "16",
        "--preemptible-up-to",
        "16",
        "--out",
        replayed.to_str().unwrap(),
    ]);
    for t in [
        "summary.csv",
        "jobs.csv",
        "suspensions.parquet",
        "jobs.parquet",
    ] {
        assert_eq!(bytes(single.join(t)), bytes(merged.join(t)), "{t}");
        assert_eq!(bytes(single.join(t)), bytes(replayed.join(t)), "{t}");
    }
    // the window and the preemption really acted
    let summary = std::fs::read_to_string(single.join("summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 3);
    let susp = std::fs::read_to_string(single.join("suspensions.csv")).unwrap();
    assert!(
        susp.lines().count() > 1,
        "no suspension in the window:\n{summary}"
    );
}

/// A grid grown in its configuration (a heuristic, a day, a variant more)
/// runs into the same folder: only the new cells run, the others are
/// reused, and the tables are those of the grown grid; a change of what
/// existing cells mean (the seed) stays refused, naming the key.
#[test]
fn a_grown_grid_runs_only_its_new_cells_and_a_changed_one_is_refused_by_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = "name = \"grow\"\nlogs = [\"curie\"]\ndays = 2\naxes = [\"oversubscription\"]\n";
    std::fs::write(
        d.join("g.toml"),
        format!("{base}heuristics = [\"easy\", \"maxvpr-ph\"]\n"),
    )
    .unwrap();
    let first = crate::common::ok(
        d,
        &["experiment", "g.toml", "--out", "g", "--no-figures", "-q"],
    );
    assert!(first.contains("12 cells to run, 0 already done"), "{first}");
    let rows = |d: &std::path::Path| -> Vec<String> {
        std::fs::read_to_string(d.join("g/runs.csv"))
            .unwrap()
            .lines()
            .filter(|l| l.contains(",easy,"))
            .map(String::from)
            .collect()
    };
    let easy = rows(d);
    std::fs::write(
        d.join("g.toml"),
        format!("{base}heuristics = [\"easy\", \"maxvpr-ph\", \"maxvalue\"]\n"),
    )
    .unwrap();
    let out = crate::common::swftool_in(
        d,
        &["experiment", "g.toml", "--out", "g", "--no-figures", "-q"],
    );
    let (stdout, stderr) = (common::text(&out.stdout), common::text(&out.stderr));
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.contains("6 cells to run, 12 already done"),
        "{stdout}"
    );
    assert!(stderr.contains("changed (heuristics = "), "{stderr}");
    assert_eq!(rows(d), easy, "a reused cell's row changed");
    let runs = std::fs::read_to_string(d.join("g/runs.csv")).unwrap();
    assert_eq!(runs.lines().count(), 1 + 18);
    std::fs::write(
        d.join("g.toml"),
        format!("{base}heuristics = [\"easy\"]\nseed = 2\n"),
    )
    .unwrap();
    let e = crate::common::refused(d, &["experiment", "g.toml", "--out", "g", "-q"]);
    assert!(e.contains("seed = 1 in the directory, 2 now"), "{e}");
    assert!(
        e.contains("changes what the cells already done mean"),
        "{e}"
    );
}
