//! Catalina's suspension preemption (Margo et al. §3, Table 1;
//! docs/classic.md, "Preemption rules"): for each of the five rules a
//! hand-built scenario where it allows a preemption and one where it
//! refuses it, every schedule worked out on paper in the comments and run
//! through the invariant checker (pieces add up to the run time, no unit
//! used twice, a resumed job on its own units, one suspended job per unit,
//! no priority inversion); the checker catching broken schedules; and
//! generated workloads.

use crate::common;

use proptest::prelude::*;
use swftool::env::classic::catalina::{CatalinaWeights, Preemption};
use swftool::env::classic::check::{self as capacity, CapacityViolation};
use swftool::env::classic::engine::ClassicRun;
use swftool::env::classic::{self, ClassicJob, Policy};

use common::classic_job as job;

fn replay(jobs: &[ClassicJob], capacity: u32, policy: Policy) -> ClassicRun {
    let r = classic::engine::simulate(jobs, capacity, policy);
    let v = capacity::check(jobs, &r, capacity);
    assert!(v.is_empty(), "{policy:?}: {v:?}");
    r
}

/// Jobs larger than 2 units preempt, jobs of at most 2 are preemptible,
/// PREEMPT_MIN_RUNTIME 1,800 s, doubled priority.
const RULE: Preemption = Preemption {
    preempting_above: 2,
    preemptible_up_to: 2,
    min_runtime: 1_800.0,
    preemptor_priority_factor: 2.0,
};

fn catalina(rule: Preemption) -> Policy {
    Policy::Catalina {
        weights: CatalinaWeights::DATASTAR,
        preemption: Some(rule),
    }
}

/// Priority = queue time + expansion factor + `resource`·units: weights
/// that make the order of a scenario easy to set by hand.
fn queue_weights(resource: f64) -> CatalinaWeights {
    CatalinaWeights {
        resource,
        expansion_factor: 1.0,
        system_queue_time: 1.0,
        submit_time: 0.0,
        local_user: 0.0,
        local_admin: 0.0,
        wall_time: 0.0,
        qos_priority: 0.0,
        qos_target_expansion_factor: 0.0,
        qos_target_queue_wait: 0.0,
    }
}

/// 4 units, DataStar weights. A and B (2 units, `victim_run` s, exact
/// estimates) run from 0 on units 0-1 and 2-3. P (4 units, 100 s) arrives
/// at 10: priority (250·4 + 1)·2 = 2,002 against the victims' 250·2 + 1 =
/// 501. With `victim_run` = 2,000, A and B have 1,990 s left ≥ 1,800, P
/// fits once they are released, and they fit again from 110 for 1,990 s:
/// both are suspended at 10 with a reservation at 110, P runs [10, 110),
/// A and B resume at 110 on their own units and end at 2,100.
fn base(victim_run: f64) -> Vec<ClassicJob> {
    vec![
        job(1, 0.0, 2, victim_run, victim_run),
        job(2, 0.0, 2, victim_run, victim_run),
        job(3, 10.0, 4, 100.0, 100.0),
    ]
}

fn assert_preempted_at_10(r: &ClassicRun) {
    assert_eq!(r.suspensions.len(), 2, "{:?}", r.suspensions);
    for (s, victim) in r.suspensions.iter().zip([0, 1]) {
        assert_eq!((s.job, s.preemptor), (victim, 2));
        assert_eq!((s.at, s.reservation, s.resumed), (10.0, 110.0, 110.0));
    }
    assert_eq!((r.outcomes[2].start, r.outcomes[2].end), (10.0, 110.0));
    for v in 0..2 {
        assert_eq!(r.outcomes[v].start, 0.0);
        assert_eq!(r.outcomes[v].end, 2_100.0);
        assert_eq!(r.outcomes[v].suspended, 100.0);
    }
    // each victim ran [0, 10) and [110, 2100) on the same units
    let pieces: Vec<_> = r.allocations.iter().filter(|a| a.job == 0).collect();
    assert_eq!(pieces.len(), 2);
    assert_eq!((pieces[0].start, pieces[0].end), (0.0, 10.0));
    assert_eq!((pieces[1].start, pieces[1].end), (110.0, 2_100.0));
    assert_eq!(pieces[0].units, vec![0, 1]);
    assert_eq!(pieces[1].units, vec![0, 1]);
}

fn assert_not_preempted(r: &ClassicRun, p: usize, start: f64) {
    assert!(r.suspensions.is_empty(), "{:?}", r.suspensions);
    assert_eq!(r.outcomes[p].start, start);
    assert!(r.outcomes.iter().all(|o| o.suspended == 0.0));
}

#[test]
fn rule_1_marks_allow_a_preempting_job_to_suspend_preemptible_ones() {
    let r = replay(&base(2_000.0), 4, catalina(RULE));
    assert_preempted_at_10(&r);
    // priorities recorded at start: P doubled
    assert_eq!(r.priority[2], 2.0 * (250.0 * 4.0 + 1.0));
    assert_eq!(r.priority[0], 250.0 * 2.0 + 1.0);
}

#[test]
fn rule_1_refuses_an_unmarked_preemptor_and_unmarked_victims() {
    // P (4 units) is not preempting when only jobs above 4 are: it waits
    // for A and B to end at 2,000.
    let unmarked_p = Preemption {
        preempting_above: 4,
        ..RULE
    };
    assert_not_preempted(&replay(&base(2_000.0), 4, catalina(unmarked_p)), 2, 2_000.0);
    // A and B (2 units) are not preemptible when only jobs of 1 unit are.
    let unmarked_v = Preemption {
        preemptible_up_to: 1,
        ..RULE
    };
    assert_not_preempted(&replay(&base(2_000.0), 4, catalina(unmarked_v)), 2, 2_000.0);
}

#[test]
fn rule_2_only_a_higher_priority_job_preempts() {
    // factor 2: 2,002 > 501 — allowed (above). Factor 0.25: P's priority
    // is 1,001·0.25 = 250.25 < 501 — refused, P waits until 2,000.
    let low = Preemption {
        preemptor_priority_factor: 0.25,
        ..RULE
    };
    let r = replay(&base(2_000.0), 4, catalina(low));
    assert_not_preempted(&r, 2, 2_000.0);
    // recorded when it started, at 2,000
    let at_start = swftool::env::classic::catalina::priority(
        &CatalinaWeights::DATASTAR,
        4,
        10.0,
        100.0,
        2_000.0,
    );
    assert_eq!(r.priority[2], 0.25 * at_start);
    assert_preempted_at_10(&replay(&base(2_000.0), 4, catalina(RULE)));
}

/// 7 units, priority = queue time + expansion factor (no size term).
/// Preempting: above 3 units; preemptible: up to 2; PREEMPT_MIN_RUNTIME
/// 100 s. From 0: A and B (2 units, 1,000 s) on units 0-3, C (3 units,
/// `c_run` s, neither mark) on 4-6. R (3 units, 50 s) arrives at 1 and
/// waits; P (4 units, 100 s) at 10. At 10, R (priority 9 + 59/50 = 10.18)
/// is served before P ((0 + 1)·2 = 2) and holds the next reservation.
///
/// `c_run` = 5,000: R is reserved [1000, 1050) on the units A and B free.
/// Suspending A and B lets P run [10, 110) but they would then need their
/// 4 units until 1,100 while R needs 3 of the 7 from 1,000 (C holds 3):
/// refused. At 1,000 A and B end; by then P's doubled queue time has put
/// it ahead of R ((990 + 10.9)·2 against 999 + 20.98), so P starts at
/// 1,000 and R, with only C's units left to wait for, at 1,100.
///
/// `c_run` = 200: R is reserved [200, 250) on C's units; A and B fit again
/// [110, 1,100) beside it: allowed.
fn rule_3_jobs(c_run: f64) -> Vec<ClassicJob> {
    vec![
        job(1, 0.0, 2, 1_000.0, 1_000.0),
        job(2, 0.0, 2, 1_000.0, 1_000.0),
        job(3, 0.0, 3, c_run, c_run),
        job(4, 1.0, 3, 50.0, 50.0),
        job(5, 10.0, 4, 100.0, 100.0),
    ]
}

fn rule_3_policy() -> Policy {
    Policy::Catalina {
        weights: queue_weights(0.0),
        preemption: Some(Preemption {
            preempting_above: 3,
            preemptible_up_to: 2,
            min_runtime: 100.0,
            preemptor_priority_factor: 2.0,
        }),
    }
}

#[test]
fn rule_3_allows_when_both_jobs_finish_before_the_next_reservation() {
    let r = replay(&rule_3_jobs(200.0), 7, rule_3_policy());
    assert_eq!(r.suspensions.len(), 2);
    assert!(
        r.suspensions
            .iter()
            .all(|s| s.preemptor == 4 && s.at == 10.0 && s.resumed == 110.0)
    );
    assert_eq!(r.outcomes[4].start, 10.0);
    assert_eq!(r.outcomes[0].end, 1_100.0);
    assert_eq!(r.outcomes[3].start, 200.0);
}

#[test]
fn rule_3_refuses_when_the_victims_would_run_into_a_reservation() {
    let r = replay(&rule_3_jobs(5_000.0), 7, rule_3_policy());
    assert_not_preempted(&r, 4, 1_000.0);
    assert_eq!(r.outcomes[3].start, 1_100.0);
}

/// 5 units; priority = queue time + expansion factor + units; preempting:
/// above 1 unit; preemptible: up to 2; PREEMPT_MIN_RUNTIME 100 s.
/// From 0: A, B (2 units, 1,000 s; priority (2 + 1)·2 = 6) on 0-1 and 2-3,
/// E (1 unit, 15 s) on 4. At 10, P (3 units, 500 s, priority 8) suspends A
/// and B (E has 5 s left) with a reservation at 510 and runs on units 0-2:
/// unit 3 is idle with B's image. E ends at 15. D (1 unit, `d_run` s,
/// priority 2) arrives at 20; P2 (2 units, 50 s, priority 6) at 30.
///
/// `d_run` = 400: D can end by 510, so it takes B's idle unit 3 (units of
/// suspended jobs go first). At 30 P2 needs one more unit than the free
/// unit 4, and the only running candidate is D, on a unit that already
/// holds a suspended job: refused. P2 starts when D ends, at 420.
///
/// `d_run` = 600: D would still run at 510, so it goes to unit 4. At 30 P2
/// takes B's idle unit 3 and suspends D (reservation at 80): allowed; D
/// resumes at 80 and ends at 670.
fn rule_4_jobs(d_run: f64) -> Vec<ClassicJob> {
    vec![
        job(1, 0.0, 2, 1_000.0, 1_000.0),
        job(2, 0.0, 2, 1_000.0, 1_000.0),
        job(3, 0.0, 1, 15.0, 15.0),
        job(4, 10.0, 3, 500.0, 500.0),
        job(5, 20.0, 1, d_run, d_run),
        job(6, 30.0, 2, 50.0, 50.0),
    ]
}

fn rule_4_policy() -> Policy {
    Policy::Catalina {
        weights: queue_weights(1.0),
        preemption: Some(Preemption {
            preempting_above: 1,
            preemptible_up_to: 2,
            min_runtime: 100.0,
            preemptor_priority_factor: 2.0,
        }),
    }
}

#[test]
fn rule_4_refuses_a_victim_on_a_unit_holding_a_suspended_job() {
    let r = replay(&rule_4_jobs(400.0), 5, rule_4_policy());
    // only P's suspension of A and B
    assert_eq!(r.suspensions.len(), 2);
    assert!(r.suspensions.iter().all(|s| s.preemptor == 3));
    let d = r.allocations.iter().find(|a| a.job == 4).unwrap();
    assert_eq!(d.units, vec![3]);
    assert_eq!((r.outcomes[4].start, r.outcomes[4].end), (20.0, 420.0));
    assert_eq!((r.outcomes[5].start, r.outcomes[5].end), (420.0, 470.0));
    // A and B resume at their reservation and end at 510 + 990
    assert_eq!(r.outcomes[0].end, 1_500.0);
    assert_eq!(r.outcomes[1].suspended, 500.0);
}

#[test]
fn rule_4_allows_a_victim_on_a_clean_unit() {
    let r = replay(&rule_4_jobs(600.0), 5, rule_4_policy());
    assert_eq!(r.suspensions.len(), 3);
    let s = r.suspensions.iter().find(|s| s.job == 4).unwrap();
    assert_eq!(
        (s.preemptor, s.at, s.reservation, s.resumed),
        (5, 30.0, 80.0, 80.0)
    );
    let p2 = r.allocations.iter().find(|a| a.job == 5).unwrap();
    assert_eq!(p2.units, vec![3, 4]);
    assert_eq!((r.outcomes[5].start, r.outcomes[5].end), (30.0, 80.0));
    assert_eq!(r.outcomes[4].end, 670.0);
}

#[test]
fn rule_5_refuses_a_victim_with_less_than_the_minimum_left() {
    // A and B of 1,800 s have 1,790 s left at 10 < 1,800: P waits.
    assert_not_preempted(&replay(&base(1_800.0), 4, catalina(RULE)), 2, 1_800.0);
    // of 2,000 s: 1,990 s left — allowed (the base scenario)
    assert_preempted_at_10(&replay(&base(2_000.0), 4, catalina(RULE)));
    // the threshold is configurable
    let lower = Preemption {
        min_runtime: 1_000.0,
        ..RULE
    };
    let r = replay(&base(1_800.0), 4, catalina(lower));
    assert_eq!(r.suspensions.len(), 2);
}

/// A suspended job's wait counts its suspension: A waited 0 s in the queue
/// and 100 s suspended; xfactor = (100 + 2,000) / 2,000.
#[test]
fn a_suspension_counts_as_wait_in_the_metrics() {
    let jobs = base(2_000.0);
    let r = replay(&jobs, 4, catalina(RULE));
    let m = swftool::env::classic::summary::job_metrics(&jobs, &r, 10.0);
    assert_eq!(m.wait[0], 100.0);
    assert_eq!(m.response[0], 2_100.0);
    assert_eq!(m.xfactor[0], 2_100.0 / 2_000.0);
    assert_eq!(m.wait[2], 0.0);
}

#[test]
fn the_checker_catches_broken_preemptive_schedules() {
    let jobs = base(2_000.0);
    let good = replay(&jobs, 4, catalina(RULE));
    // A resumed on other units than it was suspended on
    let mut moved = good.clone();
    let k = moved.allocations.iter().rposition(|a| a.job == 0).unwrap();
    moved.allocations[k].units = vec![2, 3];
    let v = capacity::check(&jobs, &moved, 4);
    assert!(
        v.iter()
            .any(|x| matches!(x, CapacityViolation::BadPiece { .. })),
        "{v:?}"
    );
    assert!(
        v.iter()
            .any(|x| matches!(x, CapacityViolation::UnitShared { .. })),
        "{v:?}"
    );
    // a suspension that ends too early: A's pieces no longer add up
    let mut short = good.clone();
    short.suspensions[0].resumed = 50.0;
    assert!(!capacity::check(&jobs, &short, 4).is_empty());
    // a victim of higher priority than its preemptor
    let mut inverted = good.clone();
    inverted.priority[0] = 1e9;
    assert!(
        capacity::check(&jobs, &inverted, 4)
            .iter()
            .any(|x| matches!(x, CapacityViolation::PriorityInversion { .. }))
    );
}

/// The same jobs with preemption off: Catalina as before, no units tracked.
#[test]
fn without_preemption_nothing_is_suspended() {
    let r = replay(
        &base(2_000.0),
        4,
        classic::SCHEDULERS.get("catalina").unwrap().policy,
    );
    assert_not_preempted(&r, 2, 2_000.0);
    assert!(r.allocations.is_empty());
}

fn arb_jobs() -> impl Strategy<Value = Vec<ClassicJob>> {
    prop::collection::vec(
        (
            0u32..3_000,
            1u32..=16,
            1u32..5_000,
            prop::bool::ANY,
            1u32..4,
        ),
        1..60,
    )
    .prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(k, (submit, size, run, exact, over))| {
                let run = f64::from(run);
                // some estimates exact, some over, a few under (jobs that
                // outrun their estimate)
                let estimate = if exact {
                    run
                } else if over == 3 {
                    (run / 2.0).max(1.0)
                } else {
                    run * f64::from(over + 1)
                };
                job(k as i64 + 1, f64::from(submit), size, run, estimate)
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// On generated workloads, preemptive Catalina's schedules keep every
    /// invariant, every job runs, and the same input gives the same run.
    #[test]
    fn preemptive_catalina_keeps_every_invariant(jobs in arb_jobs(), above in 1u32..12, min in 0u32..3_000) {
        let rule = Preemption {
            preempting_above: above,
            preemptible_up_to: above,
            min_runtime: f64::from(min),
            preemptor_priority_factor: 2.0,
        };
        let r = classic::engine::simulate(&jobs, 16, catalina(rule));
        let v = capacity::check(&jobs, &r, 16);
        prop_assert!(v.is_empty(), "{:?}", v);
        prop_assert!(r.outcomes.iter().all(|o| o.end.is_finite()));
        let again = classic::engine::simulate(&jobs, 16, catalina(rule));
        prop_assert_eq!(&r.outcomes, &again.outcomes);
        prop_assert_eq!(&r.suspensions, &again.suspensions);
    }
}

/// The margo2008-datastar preset on the real SDSC-DS log. Its default
/// window is the first 200 jobs submitted in March 2005 (the log's only
/// full March; Margo et al. took the first 200 jobs of March 2007, which
/// the archived log, 2004-03-31 to 2005-04-01, does not hold): cleaned job
/// 79,396, job number 89,917, submitted 2005-03-01 00:06:17 PST.
#[test]
fn margo2008_datastar_preset_default_window_is_march_2005() {
    use swftool::contract::Environment;
    use swftool::env::classic::environment::Classic;
    let config: swftool::env::classic::grid::ClassicSection =
        swftool::env::configs::preset("margo2008-datastar")
            .unwrap()
            .section()
            .unwrap();
    let log = swftool::swf::read_log(
        &common::traces_dir().join("SDSC-DS-2004-2.1-cln.swf.gz"),
        &Default::default(),
    )
    .unwrap();
    let (p, scenarios) = Classic::scenarios(
        Some(swftool::contract::Input {
            log: &log,
            path: std::path::Path::new("datastar"),
        }),
        &config.classic,
    )
    .unwrap();
    let s = &scenarios[0];
    let w = p.window.as_ref().unwrap();
    assert_eq!(w.start, 79_396);
    assert_eq!(w.first_job, 89_917);
    assert_eq!(s.jobs[0].job_number, 89_917);
    assert_eq!(s.jobs[199].job_number, 90_142);
    assert_eq!(
        w.dates,
        (
            "2005-03-01 00:06:17 PST".to_string(),
            "2005-03-01 15:25:41 PST".to_string()
        )
    );
    assert_eq!(s.jobs.len(), 300);
    assert_eq!(w.preempting, 1);
    // The job before it was submitted in February.
    let machine = swftool::env::classic::params::machine_of(&log, true, Some(8)).unwrap();
    let (mut all, _) = classic::clean::clean(&log.jobs, &machine, &Default::default());
    all.sort_by(|a, b| {
        a.submit
            .total_cmp(&b.submit)
            .then(a.job_number.cmp(&b.job_number))
    });
    let clock = swftool::model::calendar::LogClock::new(
        log.header.unix_start_time(),
        log.header.time_zone_string(),
    );
    assert!(
        clock
            .format(all[79_395].submit)
            .unwrap()
            .starts_with("2005-02-28")
    );
    let hs = Classic::heuristics(
        &["catalina".to_string(), "catalina-preempt".to_string()],
        &config.classic,
    )
    .unwrap();
    for h in &hs {
        let r = Classic::simulate(s, h);
        assert!(capacity::check(&s.jobs, &r, 184).is_empty(), "{}", h.0);
    }
}

/// The margo2008-datastar preset with `--window most-wide`, the rule that
/// was its default before: of the loaded windows, the one with the most
/// jobs wider than 64 nodes; its window and population are known figures;
/// both runs keep every invariant; only the run with preemption suspends
/// anything.
#[test]
fn margo2008_datastar_preset_most_wide_window_on_the_real_log() {
    use swftool::contract::Environment;
    use swftool::env::classic::environment::Classic;
    use swftool::env::classic::window::WindowRule;
    let mut config: swftool::env::classic::grid::ClassicSection =
        swftool::env::configs::preset("margo2008-datastar")
            .unwrap()
            .section()
            .unwrap();
    config.classic.window = Some(WindowRule::MostWide);
    let log = swftool::swf::read_log(
        &common::traces_dir().join("SDSC-DS-2004-2.1-cln.swf.gz"),
        &Default::default(),
    )
    .unwrap();
    let (p, scenarios) = Classic::scenarios(
        Some(swftool::contract::Input {
            log: &log,
            path: std::path::Path::new("datastar"),
        }),
        &config.classic,
    )
    .unwrap();
    let s = &scenarios[0];
    assert_eq!(s.machine.capacity, 184);
    let w = p.window.as_ref().unwrap();
    assert_eq!(w.start, 538);
    assert_eq!(s.jobs.len(), 300);
    assert_eq!(s.jobs[0].job_number, 643);
    assert_eq!(s.jobs[199].job_number, 848);
    assert_eq!((w.preempting_in_window, w.preempting), (25, 26));
    // the extra jobs fall inside the window's submit span
    assert!(
        s.jobs[200..]
            .iter()
            .all(|j| j.submit >= w.span.0 && j.submit <= w.span.1)
    );
    let hs = Classic::heuristics(
        &["catalina".to_string(), "catalina-preempt".to_string()],
        &config.classic,
    )
    .unwrap();
    let runs: Vec<_> = hs.iter().map(|h| Classic::simulate(s, h)).collect();
    assert!(runs[0].suspensions.is_empty());
    assert!(!runs[1].suspensions.is_empty());
    for r in &runs {
        assert!(capacity::check(&s.jobs, r, 184).is_empty());
    }
    // every preemptor is wider than 64 nodes, every victim at most 64
    for x in &runs[1].suspensions {
        assert!(s.jobs[x.preemptor].size > 64);
        assert!(s.jobs[x.job].size <= 64);
    }
    // a window past the end of the log is a clear error
    let mut late = config.classic.clone();
    late.window = None;
    late.window_start = Some(90_000);
    let err = Classic::scenarios(
        Some(swftool::contract::Input {
            log: &log,
            path: std::path::Path::new("datastar"),
        }),
        &late,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("the cleaned log has 84891"), "{err}");
}

/// The whole SDSC-DS log on whole nodes under catalina-preempt keeps every
/// invariant, unit identity included.
#[test]
fn preemptive_catalina_on_the_whole_datastar_log() {
    let log = swftool::swf::read_log(
        &common::traces_dir().join("SDSC-DS-2004-2.1-cln.swf.gz"),
        &Default::default(),
    )
    .unwrap();
    let machine = swftool::env::classic::params::machine_of(&log, true, Some(8)).unwrap();
    let (jobs, _) = classic::clean::clean(&log.jobs, &machine, &Default::default());
    assert_eq!(jobs.len(), 84_891);
    let r = classic::engine::simulate(&jobs, machine.capacity, catalina(Preemption::MARGO2008));
    let v = capacity::check(&jobs, &r, machine.capacity);
    assert!(v.is_empty(), "{v:?}");
    assert!(!r.suspensions.is_empty());
}
