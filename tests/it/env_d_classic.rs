//! Environment D (classic replay) on hand-built scenarios worked out on
//! paper, cleaning presets on a crafted log, and the capacity invariants on
//! every schedule, real logs included.

use crate::common;

use swftool::env::classic::check as capacity;
use swftool::env::classic::clean::{CleanOptions, CleanPreset};
use swftool::env::classic::engine::ClassicRun;
use swftool::env::classic::{self, ClassicJob, Machine, Policy, Unit};
use swftool::swf::{JobRecord, ReadOptions};

use common::classic_job as job;

fn replay(jobs: &[ClassicJob], capacity: u32, policy: Policy) -> ClassicRun {
    let r = classic::engine::simulate(jobs, capacity, policy);
    let v = capacity::check(jobs, &r, capacity);
    assert!(v.is_empty(), "{policy:?}: {v:?}");
    r
}

const EASY: Policy = Policy::Backfill { depth: 1 };
const CONSERVATIVE: Policy = Policy::Backfill { depth: usize::MAX };

/// 2 processors. J1 (1 proc, 100 s) at 0 starts. J2 (2 procs, 10 s) at 1 is
/// blocked: reservation at 100. J3 (1 proc, 1,000 s, exact estimate) at 2
/// fits on the free processor now but would hold it past 100: EASY must not
/// start it before J2; it starts when J2 ends, at 110.
#[test]
fn easy_starts_j2_at_100_and_never_j3_before_it() {
    let jobs = [
        job(1, 0.0, 1, 100.0, 100.0),
        job(2, 1.0, 2, 10.0, 10.0),
        job(3, 2.0, 1, 1000.0, 1000.0),
    ];
    let r = replay(&jobs, 2, EASY);
    assert_eq!(r.outcomes[1].start, 100.0);
    assert_eq!(r.outcomes[2].start, 110.0);
    // FCFS: the same here (J3 is behind J2)
    let f = replay(&jobs, 2, Policy::Fcfs);
    assert_eq!(f.outcomes[2].start, 110.0);
}

/// 4 processors. A (3, 100 s) at 0; B (2, 100 s) at 1 → reserved at 100;
/// C (4, 50 s) at 2 → EASY: no reservation; Conservative: [200, 250);
/// D (1, 300 s) at 3 → EASY backfills it at 3 (it leaves 2 processors for
/// B at 100); Conservative refuses (it would hold a processor C needs at
/// 200) and reserves it at 250. EASY then gives C the reservation: 303.
#[test]
fn easy_backfills_where_conservative_does_not() {
    let jobs = [
        job(1, 0.0, 3, 100.0, 100.0),
        job(2, 1.0, 2, 100.0, 100.0),
        job(3, 2.0, 4, 50.0, 50.0),
        job(4, 3.0, 1, 300.0, 300.0),
    ];
    let e = replay(&jobs, 4, EASY);
    assert_eq!(
        (
            e.outcomes[1].start,
            e.outcomes[3].start,
            e.outcomes[2].start
        ),
        (100.0, 3.0, 303.0)
    );
    let c = replay(&jobs, 4, CONSERVATIVE);
    assert_eq!(
        (
            c.outcomes[1].start,
            c.outcomes[2].start,
            c.outcomes[3].start
        ),
        (100.0, 200.0, 250.0)
    );
}

/// 2 processors. A (2 procs, estimate 100 s, runs 10 s) at 0; B (2, 10 s)
/// at 1 is reserved at 100 — until A ends at 10: the reservation is
/// compressed and B starts at 10.
#[test]
fn early_completion_compresses_the_reservation() {
    let jobs = [job(1, 0.0, 2, 10.0, 100.0), job(2, 1.0, 2, 10.0, 10.0)];
    for p in [
        EASY,
        CONSERVATIVE,
        Policy::Backfill { depth: 0 },
        Policy::Fcfs,
    ] {
        let r = replay(&jobs, 2, p);
        assert_eq!(r.outcomes[1].start, 10.0, "{p:?}");
    }
}

/// Reservation depth. 4 processors; A (3 procs, 100 s) at 0 leaves one
/// processor. Blocked jobs B1.. arrive at 1, 2, 3 and, with enough depth,
/// hold reservations one after another from 100 (10 s each). X (1 proc)
/// arrives at 4 and runs long enough to reach exactly one reservation that
/// needs the whole machine: it starts at 4 only when that reservation is
/// beyond the depth.
fn x_start(blocked_sizes: &[u32], x_run: f64, depth: usize) -> f64 {
    let mut jobs = vec![job(1, 0.0, 3, 100.0, 100.0)];
    for (k, &s) in blocked_sizes.iter().enumerate() {
        jobs.push(job(2 + k as i64, 1.0 + k as f64, s, 10.0, 10.0));
    }
    jobs.push(job(99, 4.0, 1, x_run, x_run));
    let r = replay(&jobs, 4, Policy::Backfill { depth });
    r.outcomes[jobs.len() - 1].start
}

#[test]
fn reservation_depth_0_1_2_and_all() {
    // B1 (4 procs) at [100, 110): X [4, 104) crosses it.
    assert_eq!(x_start(&[4], 100.0, 0), 4.0);
    assert!(x_start(&[4], 100.0, 1) > 4.0);
    // B1 (3) [100, 110) leaves one processor; B2 (4) [110, 120) none:
    // X [4, 114) only crosses B2.
    assert_eq!(x_start(&[3, 4], 110.0, 1), 4.0);
    assert!(x_start(&[3, 4], 110.0, 2) > 4.0);
    // B1 (3) [100,110), B2 (3) [110,120), B3 (4) [120,130): X [4, 124)
    // only crosses B3.
    assert_eq!(x_start(&[3, 3, 4], 120.0, 2), 4.0);
    assert!(x_start(&[3, 3, 4], 120.0, usize::MAX) > 4.0);
    assert!(x_start(&[3, 3, 4], 120.0, 3) > 4.0);
}

/// FCFS never starts a job before an earlier-submitted one.
#[test]
fn fcfs_keeps_submit_order() {
    let jobs = [
        job(1, 0.0, 3, 100.0, 100.0),
        job(2, 1.0, 2, 10.0, 10.0),
        job(3, 2.0, 1, 5.0, 5.0),
    ];
    let r = replay(&jobs, 4, Policy::Fcfs);
    assert_eq!(r.outcomes[1].start, 100.0);
    assert_eq!(r.outcomes[2].start, 100.0);
    let e = replay(&jobs, 4, EASY);
    assert_eq!(e.outcomes[2].start, 2.0);
}

/// A job that outruns its estimate keeps its processors; its predicted end
/// doubles (start + 2·estimate), so a blocked job is reserved behind it.
#[test]
fn a_job_running_past_its_estimate_is_predicted_to_double() {
    assert_eq!(classic::engine::extended_end(0.0, 10.0, 5.0), 10.0);
    assert_eq!(classic::engine::extended_end(0.0, 10.0, 10.0), 20.0);
    assert_eq!(classic::engine::extended_end(0.0, 10.0, 25.0), 40.0);
    // A (2 procs) estimate 10 but runs 30; B (2) at 15 can only start at 30.
    let jobs = [job(1, 0.0, 2, 30.0, 10.0), job(2, 15.0, 2, 5.0, 5.0)];
    let r = replay(&jobs, 2, EASY);
    assert_eq!(r.outcomes[1].start, 30.0);
}

fn rec(n: i64, submit: f64, run: f64, alloc: i64, req_procs: i64, req_time: f64) -> JobRecord {
    JobRecord {
        job_number: n,
        submit_time: submit,
        wait_time: -1.0,
        run_time: run,
        allocated_processors: alloc,
        average_cpu_time: -1.0,
        used_memory: -1,
        requested_processors: req_procs,
        requested_time: req_time,
        requested_memory: -1,
        status: 1,
        user_id: 1,
        group_id: 1,
        executable_number: -1,
        queue_number: 1,
        partition_number: 1,
        preceding_job_number: -1,
        think_time: -1.0,
    }
}

/// A crafted log with one job per quirk; machine of 8 processors.
fn crafted() -> Vec<JobRecord> {
    vec![
        rec(1, 100.0, 50.0, 4, 4, 60.0),   // clean
        rec(2, 110.0, -1.0, 2, 2, 60.0),   // run unknown
        rec(3, 120.0, 0.0, 2, 2, 60.0),    // run 0
        rec(4, 130.0, 80.0, 2, 2, 60.0),   // run > estimate
        rec(5, 140.0, 30.0, 2, 2, -1.0),   // no estimate
        rec(6, 150.0, 30.0, 16, 16, 60.0), // larger than the machine
        rec(7, 160.0, 30.0, 3, -1, 60.0),  // requested procs unknown
        rec(8, 170.0, 30.0, -1, 5, 60.0),  // allocated unknown
        rec(9, -5.0, 30.0, 2, 2, 60.0),    // negative submit
        rec(10, 180.0, 30.0, 2, 6, 60.0),  // requested > allocated
    ]
}

fn kept(preset: CleanPreset) -> Vec<(i64, f64, f64, u32, f64)> {
    let m = Machine {
        capacity: 8,
        unit: Unit::Processors,
    };
    let opts = CleanOptions {
        preset,
        ..CleanOptions::default()
    };
    let (jobs, report) = classic::clean::clean(&crafted(), &m, &opts);
    assert_eq!(report.kept, jobs.len());
    assert_eq!(report.input, 10);
    jobs.iter()
        .map(|j| (j.job_number, j.submit, j.run, j.processors, j.estimate))
        .collect()
}

#[test]
fn swftool_preset_population() {
    // dropped: 2 (run unknown), 3 (run 0), 6 (too large), 9 (negative submit)
    assert_eq!(
        kept(CleanPreset::Swftool),
        vec![
            (1, 100.0, 50.0, 4, 60.0),
            (4, 130.0, 80.0, 2, 60.0),
            (5, 140.0, 30.0, 2, 30.0),
            (7, 160.0, 30.0, 3, 60.0),
            (8, 170.0, 30.0, 5, 60.0),
            (10, 180.0, 30.0, 6, 60.0),
        ]
    );
}

#[test]
fn pyss_preset_population() {
    // allocated processors, clipped; estimate max(req, run, 1); run <= 0 -> 1 s on 1 proc
    assert_eq!(
        kept(CleanPreset::Pyss),
        vec![
            (1, 100.0, 50.0, 4, 60.0),
            (2, 110.0, 1.0, 1, 60.0),
            (3, 120.0, 1.0, 1, 60.0),
            (4, 130.0, 80.0, 2, 80.0),
            (5, 140.0, 30.0, 2, 30.0),
            (6, 150.0, 30.0, 8, 60.0),
            (7, 160.0, 30.0, 3, 60.0),
            (10, 180.0, 30.0, 2, 60.0),
        ]
    );
}

#[test]
fn batsim_preset_population() {
    // allocated processors; estimate max(2·run, req); origin at the first submit (100)
    assert_eq!(
        kept(CleanPreset::Batsim),
        vec![
            (1, 0.0, 50.0, 4, 100.0),
            (4, 30.0, 80.0, 2, 160.0),
            (5, 40.0, 30.0, 2, 60.0),
            (7, 60.0, 30.0, 3, 60.0),
            (10, 80.0, 30.0, 2, 60.0),
        ]
    );
}

#[test]
fn rlscheduler_preset_population() {
    // max(allocated, requested); run < 0 -> 10 s; run 0 dropped
    assert_eq!(
        kept(CleanPreset::Rlscheduler),
        vec![
            (1, 100.0, 50.0, 4, 60.0),
            (2, 110.0, 10.0, 2, 60.0),
            (4, 130.0, 80.0, 2, 60.0),
            (5, 140.0, 30.0, 2, 30.0),
            (7, 160.0, 30.0, 3, 60.0),
            (8, 170.0, 30.0, 5, 60.0),
            (10, 180.0, 30.0, 6, 60.0),
        ]
    );
}

#[test]
fn every_dropped_or_modified_job_is_reported() {
    let m = Machine {
        capacity: 8,
        unit: Unit::Processors,
    };
    let (_, r) = classic::clean::clean(&crafted(), &m, &CleanOptions::default());
    let dropped: Vec<i64> = r
        .actions
        .iter()
        .filter(|a| a.dropped)
        .map(|a| a.job_number)
        .collect();
    assert_eq!(dropped, vec![2, 3, 6, 9]);
    let modified: Vec<i64> = r
        .actions
        .iter()
        .filter(|a| !a.dropped)
        .map(|a| a.job_number)
        .collect();
    assert_eq!(modified, vec![5]);
    let text = r.to_string();
    assert!(text.contains("kept 6 of 10 jobs (4 dropped)"), "{text}");
    // killing at the estimate is a reported modification
    let opts = CleanOptions {
        kill_at_estimate: true,
        ..CleanOptions::default()
    };
    let (jobs, r) = classic::clean::clean(&crafted(), &m, &opts);
    assert_eq!(jobs.iter().find(|j| j.job_number == 4).unwrap().run, 60.0);
    assert!(
        r.actions
            .iter()
            .any(|a| a.job_number == 4 && a.reason == "run cut to the estimate")
    );
}

/// Whole real logs: every classic scheduler keeps the capacity invariants.
#[test]
fn real_logs_keep_the_capacity_invariants() {
    for file in [
        "SDSC-SP2-1998-4.2-cln.swf.gz",
        "KTH-SP2-1996-2.1-cln.swf.gz",
    ] {
        let log = swftool::swf::read_log(&common::traces_dir().join(file), &ReadOptions::default())
            .unwrap();
        let machine = swftool::env::classic::params::machine_of(&log, false, None).unwrap();
        let (jobs, _) = classic::clean::clean(&log.jobs, &machine, &CleanOptions::default());
        for p in [
            Policy::Fcfs,
            EASY,
            CONSERVATIVE,
            Policy::Backfill { depth: 0 },
            Policy::Backfill { depth: 4 },
        ] {
            let r = classic::engine::simulate(&jobs, machine.capacity, p);
            let v = capacity::check(&jobs, &r, machine.capacity);
            assert!(v.is_empty(), "{file} {p:?}: {v:?}");
        }
    }
}

/// Known figures: SDSC-SP2 under the swftool preset keeps 54,034 of 59,715
/// jobs on 128 processors.
#[test]
fn sdsc_sp2_cleaning_figures() {
    let log = swftool::swf::read_log(
        &common::traces_dir().join("SDSC-SP2-1998-4.2-cln.swf.gz"),
        &ReadOptions::default(),
    )
    .unwrap();
    let machine = swftool::env::classic::params::machine_of(&log, false, None).unwrap();
    assert_eq!(machine.capacity, 128);
    let (jobs, report) = classic::clean::clean(&log.jobs, &machine, &CleanOptions::default());
    assert_eq!(jobs.len(), 54_034);
    assert_eq!(report.input, 59_715);
    let counts = report.counts();
    assert_eq!(counts[&(true, "run time unknown")], 5671);
    assert_eq!(counts[&(true, "run time 0")], 10);
}

/// 4 processors. A (4, 100 s) runs from 0. B (1, 10 s) at 1 and C (4, 10 s)
/// at 2 wait. At 100, Conservative serves submit order: B starts, C waits
/// for 4 processors until 110. Catalina serves priority order: C (250·4 +
/// …) outranks B (250·1 + …): C starts at 100 and B at 110.
#[test]
fn catalina_serves_the_queue_in_priority_order() {
    let jobs = [
        job(1, 0.0, 4, 100.0, 100.0),
        job(2, 1.0, 1, 10.0, 10.0),
        job(3, 2.0, 4, 10.0, 10.0),
    ];
    let c = replay(&jobs, 4, CONSERVATIVE);
    assert_eq!((c.outcomes[1].start, c.outcomes[2].start), (100.0, 110.0));
    let cat = classic::SCHEDULERS.get("catalina").unwrap().policy;
    let r = replay(&jobs, 4, cat);
    assert_eq!((r.outcomes[2].start, r.outcomes[1].start), (100.0, 110.0));
    // priorities are recorded at start: C at 100 has waited 98 s
    let w = swftool::env::classic::catalina::CatalinaWeights::DATASTAR;
    let expect = swftool::env::classic::catalina::priority(&w, 4, 2.0, 10.0, 100.0);
    assert_eq!(r.priority[2], expect);
    assert!(c.priority.iter().all(|&p| p == 1.0));
}
