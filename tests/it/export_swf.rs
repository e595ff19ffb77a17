//! `--export swf` in every environment: the simulated run as an SWF log
//! that `swftool info` reads back, whose header states the machine the
//! run had (A: the generated clusters' cores; B: the clusters' cores; C:
//! the machines; D: the log's own `MaxProcs`), and whose jobs never hold
//! more processors at once than that capacity (each started job from
//! submit + wait to submit + wait + run on its allocated processors;
//! heuristics without preemption, so a job holds its processors from its
//! first start to its end).

use crate::common;

use swftool::swf::{ReadOptions, read_log};

/// The number after `key` in `text` (`key` ends before the number).
fn number_after(text: &str, key: &str) -> u64 {
    let at = text
        .find(key)
        .unwrap_or_else(|| panic!("no `{key}` in:\n{text}"))
        + key.len();
    text[at..]
        .trim_start()
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number after `{key}` in:\n{text}"))
}

/// The most processors the jobs of the SWF log at `path` hold at once.
fn peak_processors(path: &std::path::Path) -> i64 {
    let log = read_log(path, &ReadOptions::default()).unwrap();
    let mut events: Vec<(f64, i64)> = Vec::new();
    for j in log.jobs.iter().filter(|j| j.wait_time >= 0.0) {
        let start = j.submit_time + j.wait_time;
        events.push((start, j.allocated_processors));
        events.push((start + j.run_time, -j.allocated_processors));
    }
    // Ends before starts at one instant.
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let (mut now, mut peak) = (0i64, 0i64);
    for (_, d) in events {
        now += d;
        peak = peak.max(now);
    }
    peak
}

#[test]
fn every_environment_exports_an_swf_log_that_info_reads_with_its_capacity() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // (environment, replay arguments, file, how the capacity is printed).
    let info_kth = common::ok(d, &["info", "kth-sp2"]);
    let kth_procs = number_after(&info_kth, "MaxProcs");
    let cases: [(&str, Vec<&str>, &str, Box<dyn Fn(&str) -> u64>); 4] = [
        (
            "parallel",
            vec!["replay", "kth-sp2", "-H", "easy", "--day", "3"],
            "swf/easy.swf",
            Box::new(|out: &str| number_after(out, "clusters,")),
        ),
        (
            "serial",
            vec![
                "replay", "kth-sp2", "--env", "serial", "-H", "maxupt", "--day", "3",
            ],
            "swf/maxupt.swf",
            Box::new(|out: &str| {
                let line = out.lines().find(|l| l.starts_with("scenario")).unwrap();
                let before = &line[..line.find(" cores in ").unwrap()];
                before.rsplit(' ').next().unwrap().parse().unwrap()
            }),
        ),
        (
            "energy",
            vec!["replay", "--env", "energy", "-H", "fcfs-p0"],
            "swf/fcfs-p0.swf",
            Box::new(|out: &str| number_after(out, "system")),
        ),
        (
            "classic",
            vec!["replay", "kth-sp2", "--env", "classic", "-H", "easy"],
            "swf/easy.swf",
            Box::new(move |_: &str| kth_procs),
        ),
    ];
    for (env, args, file, capacity) in cases {
        let out_dir = format!("out-{env}");
        let mut all = args.clone();
        all.extend(["--export", "swf", "--out", out_dir.as_str()]);
        let printed = common::ok(d, &all);
        let want = capacity(&printed);
        let path = d.join(&out_dir).join(file);
        assert!(
            printed.contains(&format!("wrote {out_dir}/{file}")),
            "{env}: {printed}"
        );
        let info = common::ok(d, &["info", path.to_str().unwrap()]);
        assert_eq!(number_after(&info, "MaxProcs"), want, "{env}: {info}");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains(&format!("; Note: simulated by swftool replay --env {env} ")),
            "{env}"
        );
        let peak = peak_processors(&path);
        assert!(
            peak > 0 && peak as u64 <= want,
            "{env}: {peak} processors at once on a machine of {want}"
        );
    }
}
