//! Environment D's schedules for other tools (`--export batsim,swf`):
//! naming units does not change a schedule (every scheduler, whole real
//! logs), no unit holds two jobs at once, and the files hold the replay —
//! Batsim's columns in order, each job's units as many as it asked for,
//! waits equal to the jobs table's; the SWF log reads back with the
//! simulated waits.

use crate::common;

use swftool::env::classic::SCHEDULERS;
use swftool::env::classic::engine::simulate;
use swftool::env::classic::engine::simulate_tracked;
use swftool::swf::{ReadOptions, read_log};

#[test]
fn naming_units_keeps_every_schedule_and_no_unit_holds_two_jobs() {
    for file in [
        "KTH-SP2-1996-2.1-cln.swf.gz",
        "SDSC-SP2-1998-4.2-cln.swf.gz",
    ] {
        let (_, jobs, cap) = common::cleaned(file);
        for s in SCHEDULERS.entries {
            let plain = simulate(&jobs, cap, s.policy);
            let tracked = simulate_tracked(&jobs, cap, s.policy);
            assert_eq!(plain.outcomes, tracked.outcomes, "{file} {}", s.name);
            // Each job holds exactly its size; per unit, pieces never overlap.
            let mut per_unit: Vec<Vec<(f64, f64)>> = vec![Vec::new(); cap as usize];
            let mut held = vec![0usize; jobs.len()];
            for a in &tracked.allocations {
                assert_eq!(
                    a.units.len(),
                    jobs[a.job].size as usize,
                    "{} job {}",
                    s.name,
                    a.job
                );
                held[a.job] += 1;
                for &u in &a.units {
                    per_unit[u as usize].push((a.start, a.end));
                }
            }
            assert!(
                held.iter().all(|&n| n >= 1),
                "{}: a job without units",
                s.name
            );
            for pieces in &mut per_unit {
                pieces.sort_by(|x, y| x.0.total_cmp(&y.0));
                assert!(
                    pieces.windows(2).all(|w| w[0].1 <= w[1].0),
                    "{file} {}",
                    s.name
                );
            }
        }
    }
}

#[test]
fn batsim_jobs_and_the_simulated_swf_hold_the_replay() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::ok(
        dir.path(),
        &[
            "replay",
            "kth-sp2",
            "--env",
            "classic",
            "--heuristic",
            "easy,catalina-preempt",
            "--export",
            "batsim,swf",
            "--out",
            "r",
        ],
    );
    assert!(out.contains("wrote r/batsim/easy/jobs.csv"), "{out}");
    assert!(out.contains("wrote r/swf/catalina-preempt.swf"), "{out}");
    let r = dir.path().join("r");
    let jobs_table = std::fs::read_to_string(r.join("jobs.csv")).unwrap();
    let head: Vec<&str> = jobs_table.lines().next().unwrap().split(',').collect();
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    // Batsim's waiting time runs from submission to the first start (a
    // suspended job's `wait_s` also counts its suspensions).
    let (heur, number, start, submit) = (
        col("heuristic"),
        col("job_number"),
        col("start_s"),
        col("submit_s"),
    );
    for h in ["easy", "catalina-preempt"] {
        let text = std::fs::read_to_string(r.join("batsim").join(h).join("jobs.csv")).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next().unwrap(),
            "job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch,allocated_resources,consumed_energy,metadata"
        );
        let want: std::collections::HashMap<String, f64> = jobs_table
            .lines()
            .skip(1)
            .map(|l| l.split(',').collect::<Vec<_>>())
            .filter(|f| f[heur] == h)
            .map(|f| {
                let (a, b): (f64, f64) = (f[start].parse().unwrap(), f[submit].parse().unwrap());
                (f[number].to_string(), a - b)
            })
            .collect();
        let mut rows = 0;
        for line in lines {
            let f: Vec<&str> = line.split(',').collect();
            rows += 1;
            assert_eq!(f[1], "KTH-SP2-1996-2.1-cln");
            let units: usize = f[14]
                .split(' ')
                .map(|iv| match iv.split_once('-') {
                    Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
                    None => 1,
                })
                .sum();
            assert_eq!(units, f[4].parse::<usize>().unwrap(), "{line}");
            assert_eq!(f[11].parse::<f64>().unwrap(), want[f[0]], "{line}");
        }
        assert_eq!(rows, want.len());
        let swf = read_log(
            &r.join("swf").join(format!("{h}.swf")),
            &ReadOptions::strict(),
        )
        .unwrap();
        assert_eq!(swf.jobs.len(), want.len());
        for j in &swf.jobs {
            assert_eq!(j.wait_time, want[&j.job_number.to_string()]);
            assert_eq!(j.status, 1);
        }
        assert!(
            swf.header
                .notes
                .iter()
                .any(|n| n.contains("simulated by swftool"))
        );
    }
}
