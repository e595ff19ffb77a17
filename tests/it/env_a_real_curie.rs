//! Environment A on real Curie days: exact known figures of the scenario
//! and the schedule invariants on every heuristic's schedule.

use crate::common;

use common::traces_dir;
use swftool::env::parallel::check as invariants;
use swftool::env::parallel::summary::summarize;
use swftool::env::parallel::{HEURISTICS, TaskStatus, simulate};
use swftool::swf::ReadOptions;
use swftool::workload::{
    ArrivalRange, DayTotals, Oversubscription, Scenario, ScenarioParams, Workload,
};
use swftool::workload::{DEFAULT_DAY, STANDARD_DAYS};

fn curie() -> Workload {
    Workload::from_path(
        &traces_dir().join("CEA-Curie-2011-2.1-cln.swf.gz"),
        &ReadOptions::default(),
    )
    .expect("Curie parses")
}

#[test]
fn curie_standard_days_are_fixed() {
    let w = curie();
    // 312,826 jobs; 17,286 with run time 0 and 7,209 above 4,096 cores removed.
    assert_eq!(w.jobs.len(), 288_331);
    assert_eq!(w.filter.input, 312_826);
    assert_eq!(w.max_procs, 93_312.0);
    // The paper's range: 124 candidate days have 897 to 2,904 arrivals.
    let set = w.day_set(ArrivalRange::Standard);
    assert_eq!((set.min, set.max), (897, 2904));
    assert_eq!(set.eligible.len(), 124);
    let days = set.select(STANDARD_DAYS);
    assert_eq!(days.len(), 48);
    assert_eq!(days[DEFAULT_DAY].date, "2012-07-09");
    assert!(days.iter().all(|d| (897..=2904).contains(&d.arrivals)));
    // Their totals, beside the paper's 76,523 tasks and 1,157 (1.51 %)
    // wider than 4,096 cores.
    let t = DayTotals::of(&days);
    assert_eq!((t.arrivals, t.tasks, t.wide), (78_465, 72_406, 1_625));
    // Without the range, the candidates include days with almost nothing.
    let any = w.day_set(ArrivalRange::Any);
    assert_eq!(any.eligible.len(), w.candidates.len());
    assert!(any.eligible.iter().any(|d| d.arrivals < 897));
    // strictly increasing, distinct
    assert!(days.windows(2).all(|d| d[0].start < d[1].start));
    // every standard day is a local midnight in Europe/Paris: 22:00 or 23:00 UTC
    for d in &days {
        let utc = (1_296_571_124 + d.start as i64).rem_euclid(86_400);
        assert!(
            utc == 22 * 3600 || utc == 23 * 3600,
            "{} starts at {utc} s UTC",
            d.date
        );
    }
}

#[test]
fn every_heuristic_keeps_the_invariants_on_a_real_curie_day() {
    let w = curie();
    let day = w.day_set(ArrivalRange::Standard).select(STANDARD_DAYS)[DEFAULT_DAY].clone();
    let sc = Scenario::build(&w, &day, ScenarioParams::default(), 1).unwrap();
    assert_eq!(sc.counted(), 1718);
    assert_eq!(sc.tasks.len(), 1718 + 111);
    for h in HEURISTICS {
        let mut heuristic = h.build(&sc);
        let run = simulate(&sc, heuristic.as_mut());
        let v = invariants::check(&sc, &run);
        assert!(v.is_empty(), "{}: {:?}", h.name, &v[..v.len().min(5)]);
        let s = summarize(&w.name, h.name, 1, &sc, &run);
        assert_eq!(s.tasks_counted, 1718);
        assert_eq!(
            s.tasks_completed + s.tasks_dropped + s.tasks_unfinished,
            1718
        );
        assert!(
            s.value_earned > 0.0 && s.value_earned <= s.value_bound,
            "{}",
            h.name
        );
        assert!(s.mapping_events > 0);
    }
}

#[test]
fn value_aware_heuristics_never_complete_a_task_for_nothing() {
    // Max Value and Max VPR only commit to slots that earn value, and
    // reservations never move, so every task they complete earns > 0.
    let w = curie();
    let days = w.day_set(ArrivalRange::Standard).select(STANDARD_DAYS);
    let params = ScenarioParams {
        oversubscription: Oversubscription::Higher,
        ..ScenarioParams::default()
    };
    for day in [&days[10], &days[30]] {
        let sc = Scenario::build(&w, day, params, 3).unwrap();
        for name in ["maxvalue", "maxvpr", "maxvalue-ph", "maxvpr-ph"] {
            let h = swftool::env::parallel::HEURISTICS.get(name).unwrap();
            let mut heuristic = h.build(&sc);
            let run = simulate(&sc, heuristic.as_mut());
            assert!(invariants::check(&sc, &run).is_empty(), "{name}");
            for (t, o) in sc.tasks.iter().zip(&run.outcomes) {
                if o.status == TaskStatus::Completed {
                    assert!(
                        o.value > 0.0,
                        "{name}: job {} completed for nothing",
                        t.job_number
                    );
                }
            }
        }
    }
}
