//! Environment A on every log in ../shared/traces at the three
//! oversubscription levels: the realised system stays within 10 % of its
//! target (the level's share of MaxProcs), the levels give distinct systems
//! in the right order, and tasks wider than every cluster are counted and
//! dropped, never lost.

use crate::common;

use swftool::env::parallel::{self, TaskStatus, simulate};
use swftool::swf::{ReadOptions, read_log};
use swftool::workload::{ArrivalRange, Oversubscription, Scenario, ScenarioParams, Workload};

const LEVELS: [Oversubscription; 3] = [
    Oversubscription::Lower,
    Oversubscription::Intermediate,
    Oversubscription::Higher,
];

fn logs() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(common::traces_dir())
        .expect("../shared/traces")
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".swf.gz"))
        .collect();
    v.sort();
    assert_eq!(v.len(), 7, "{v:?}");
    v
}

#[test]
fn every_log_gets_systems_of_the_size_asked_for_at_every_level() {
    for path in logs() {
        let log = read_log(&path, &ReadOptions::default()).unwrap();
        let w = Workload::from_log(&log);
        let set = w.day_set(ArrivalRange::Standard);
        let days = set.select(48);
        assert!(!days.is_empty(), "{}", w.name);
        let day = &days[days.len() / 2];
        let mut previous = u64::MAX;
        for level in LEVELS {
            let params = ScenarioParams {
                oversubscription: level,
                ..ScenarioParams::default()
            };
            let sc = Scenario::build(&w, day, params, 1).unwrap();
            let target = level.fraction() * w.max_procs;
            let cores = sc.system.total_cores();
            assert_eq!(sc.target_cores, target);
            assert!(
                (cores as f64 - target).abs() <= 0.1 * target,
                "{} {level}: {cores} cores for a target of {target}",
                w.name
            );
            assert!(cores < previous, "{} {level}: {cores} ≥ {previous}", w.name);
            previous = cores;
            for c in &sc.system.clusters {
                assert!(c.nodes >= 1, "{} {level}: {:?}", w.name, sc.system);
            }

            // Tasks wider than every cluster are dropped and counted.
            let widest = sc.system.clusters.iter().map(|c| c.cores()).max().unwrap();
            let h = parallel::HEURISTICS.get("easy").unwrap();
            let run = simulate(&sc, h.build(&sc).as_mut());
            let mut too_wide = 0;
            for (t, o) in sc.tasks.iter().zip(&run.outcomes) {
                if t.counted && u64::from(t.cores) > widest {
                    too_wide += 1;
                    assert_eq!(
                        o.status,
                        TaskStatus::Dropped,
                        "{} job {}",
                        w.name,
                        t.job_number
                    );
                    assert_eq!(o.value, 0.0);
                }
            }
            assert_eq!(sc.too_wide(), too_wide, "{} {level}", w.name);
        }
    }
}

/// SDSC-SP2 and KTH-SP2 at the three levels give three systems near 25 %,
/// 20 % and 15 % of MaxProcs, and `--cores-base` moves KTH's system with
/// it.
#[test]
fn small_logs_follow_the_level_and_the_base() {
    let read = |name: &str| {
        let log = read_log(&common::traces_dir().join(name), &ReadOptions::default()).unwrap();
        Workload::from_log(&log)
    };
    let kth = read("KTH-SP2-1996-2.1-cln.swf.gz");
    let day = &kth.day_set(ArrivalRange::Standard).select(48)[24];
    let mut sizes = Vec::new();
    for base in [50.0, 100.0, 1000.0] {
        let params = ScenarioParams {
            cores_base: Some(base),
            ..ScenarioParams::default()
        };
        let sc = Scenario::build(&kth, day, params, 1).unwrap();
        let cores = sc.system.total_cores() as f64;
        assert!((cores - 0.2 * base).abs() <= 0.02 * base, "{base}: {cores}");
        sizes.push(cores);
    }
    assert!(sizes[0] < sizes[1] && sizes[1] < sizes[2], "{sizes:?}");
    let params = ScenarioParams {
        cores_base: Some(5.0),
        ..ScenarioParams::default()
    };
    assert!(Scenario::build(&kth, day, params, 1).is_err());
}
