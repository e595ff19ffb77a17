//! Environment B on hand-built scenarios whose schedules were worked out on
//! paper (Machovec et al. 2017, §III): the objectives, the three preemption
//! techniques, resuming on the own cluster, dropping and the window.
//! Utility functions here are flat steps (urgency modifier 0), so every
//! value is exact.

use swftool::env::serial::{
    Objective, Policy, Preemption, SerialPiece, SerialRun, SerialScenario, SerialTask, TaskFate,
    TaskType, check::check, simulate, summary::summarize,
};
use swftool::model::utility::{Interval, Shape, Urgency, UtilityFunction, UtilitySpec};

/// A flat utility: `levels` = (until, level) pairs, level × `priority`
/// until each time after arrival.
fn flat(priority: f64, levels: &[(f64, f64)]) -> UtilityFunction {
    let mut start = 0.0;
    let intervals: Vec<Interval> = levels
        .iter()
        .map(|&(until, level)| {
            let iv = Interval {
                length: until - start,
                alpha: Some(level),
                modifier: 0.0,
            };
            start = until;
            iv
        })
        .collect();
    UtilityFunction::new(priority, 0.0, 600.0, &intervals).unwrap()
}

fn spec(priority: f64) -> UtilitySpec {
    UtilitySpec {
        shape: Shape::Step,
        class: 0,
        priority,
        urgency: Urgency::Low,
        scale: 1.0,
        theta: 600.0,
    }
}

/// A task with its own type: arrival (s), ETC per cluster (s), utility.
fn task(arrival: f64, etc: &[f64], utility: UtilityFunction) -> (SerialTask, TaskType) {
    (
        SerialTask {
            job_number: 0,
            arrival,
            task_type: 0,
            burst: 0,
            utility,
            spec: spec(utility.priority()),
            can_preempt: true,
            preemptible: true,
            owner: swftool::model::Owner::UNKNOWN,
        },
        TaskType {
            critical: false,
            etc: etc.to_vec(),
        },
    )
}

fn scenario(
    cores: &[u32],
    tasks: Vec<(SerialTask, TaskType)>,
    window: (f64, f64),
) -> SerialScenario {
    let mut s = SerialScenario {
        name: "hand".into(),
        seed: 1,
        cores: cores.to_vec(),
        types: Vec::new(),
        tasks: Vec::new(),
        window,
        event_interval: 60.0,
        origin: 0.0,
    };
    for (i, (mut t, ty)) in tasks.into_iter().enumerate() {
        t.job_number = i as i64 + 1;
        t.task_type = i;
        t.burst = i;
        s.tasks.push(t);
        s.types.push(ty);
    }
    s
}

const WIDE: (f64, f64) = (0.0, 86_400.0);

fn run(s: &SerialScenario, objective: Objective, preemption: Preemption) -> SerialRun {
    let r = simulate(
        s,
        Policy::MinMin {
            objective,
            preemption,
        },
    );
    let broken = check(s, &r);
    assert!(broken.is_empty(), "{broken:#?}");
    r
}

fn pieces(r: &SerialRun) -> Vec<(usize, usize, f64, f64)> {
    let mut p: Vec<(usize, usize, f64, f64)> = r
        .pieces
        .iter()
        .map(|p: &SerialPiece| (p.task, p.cluster, p.start, p.end))
        .collect();
    p.sort_by(|a, b| a.2.total_cmp(&b.2).then(a.0.cmp(&b.0)));
    p
}

#[test]
fn max_util_and_max_upt_pick_different_clusters() {
    // One task, a flat utility: Util is 1 on both clusters (a tie, the
    // lower cluster), UPT is 1/1200 on cluster 0 and 1/600 on cluster 1.
    let s = scenario(
        &[1, 1],
        vec![task(0.0, &[1200.0, 600.0], flat(1.0, &[(5000.0, 1.0)]))],
        WIDE,
    );
    let util = run(&s, Objective::Util, Preemption::None);
    let upt = run(&s, Objective::Upt, Preemption::None);
    assert_eq!(pieces(&util), vec![(0, 0, 0.0, 1200.0)]);
    assert_eq!(pieces(&upt), vec![(0, 1, 0.0, 600.0)]);
}

/// The two-core example of Machovec et al. §III.E.3: t1 runs on c1 and will
/// earn 2.0; t2 earns 2.5 if it preempts t1 on c1, 1.0 on the idle c2.
fn two_core_example() -> SerialScenario {
    scenario(
        &[1, 1],
        vec![
            // t1: 2.0 whenever it completes within 10,000 s; 3000 s on
            // cluster 0, 1000 s on cluster 1 (a tie on Util at event 0:
            // cluster 0).
            task(0.0, &[3000.0, 1000.0], flat(2.0, &[(10_000.0, 1.0)])),
            // t2 arrives at 60: 2.5 within 1000 s, then 1.0; 500 s on
            // cluster 0, 2000 s on cluster 1.
            task(
                60.0,
                &[500.0, 2000.0],
                flat(2.5, &[(1000.0, 1.0), (10_000.0, 0.4)]),
            ),
        ],
        WIDE,
    )
}

#[test]
fn greedy_preempts_where_diff_does_not() {
    let s = two_core_example();
    let greedy = run(&s, Objective::Util, Preemption::Greedy);
    // t2 preempts t1 at 60 and ends at 560; t1, bound to cluster 0, waits
    // (cluster 1 is idle, and would do, but is not its own) and resumes at
    // the event of 600 with 2940 s left: it ends at 3540, still earning 2.
    assert_eq!(
        pieces(&greedy),
        vec![
            (0, 0, 0.0, 60.0),
            (1, 0, 60.0, 560.0),
            (0, 0, 600.0, 3540.0)
        ]
    );
    assert_eq!(greedy.preemptions, 1);
    let diff = run(&s, Objective::Util, Preemption::Diff);
    // Diff: 1.0 on the idle core beats 2.5 − 2.0 = 0.5 by preempting.
    assert_eq!(
        pieces(&diff),
        vec![(0, 0, 0.0, 3000.0), (1, 1, 60.0, 2060.0)]
    );
    assert_eq!(diff.preemptions, 0);
    let (g, d) = (summarize(&s, "g", &greedy), summarize(&s, "d", &diff));
    assert_eq!(g.utility, 4.5);
    assert_eq!(d.utility, 3.0);
}

#[test]
fn a_preempted_task_resumes_on_its_own_cluster_with_its_progress() {
    let s = two_core_example();
    let r = run(&s, Objective::Util, Preemption::Greedy);
    let t1: Vec<&SerialPiece> = r.pieces.iter().filter(|p| p.task == 0).collect();
    assert_eq!(t1.len(), 2);
    assert!(t1.iter().all(|p| p.cluster == 0));
    let ran: f64 = t1.iter().map(|p| p.end - p.start).sum();
    assert_eq!(ran, 3000.0);
    assert_eq!(
        r.fates[0],
        TaskFate::Completed {
            at: 3540.0,
            cluster: 0
        }
    );
}

/// One core: r runs from 0 (3000 s; 1 until 3500 s after arrival, then
/// 0.5); t arrives at 60 (600 s; 2 for a long time).
fn pair_example() -> SerialScenario {
    scenario(
        &[1],
        vec![
            task(
                0.0,
                &[3000.0],
                flat(1.0, &[(3500.0, 1.0), (100_000.0, 0.5)]),
            ),
            task(60.0, &[600.0], flat(2.0, &[(100_000.0, 1.0)])),
        ],
        WIDE,
    )
}

#[test]
fn pair_leaves_a_candidate_waiting_when_its_best_order_puts_it_second() {
    let s = pair_example();
    // Greedy: t's Util 2 > r's 1, so t preempts at 60 and ends at 660; r
    // resumes at 660 and ends at 3600, 3600 s after arrival: 0.5.
    let greedy = run(&s, Objective::Util, Preemption::Greedy);
    assert_eq!(
        pieces(&greedy),
        vec![
            (0, 0, 0.0, 60.0),
            (1, 0, 60.0, 660.0),
            (0, 0, 660.0, 3600.0)
        ]
    );
    assert_eq!(summarize(&s, "g", &greedy).utility, 2.5);
    // Pair: t first nets 2 + 0.5, r first 1 + 2: t waits, and starts when
    // r completes at 3000 (an event).
    let pair = run(&s, Objective::Util, Preemption::Pair);
    assert_eq!(
        pieces(&pair),
        vec![(0, 0, 0.0, 3000.0), (1, 0, 3000.0, 3600.0)]
    );
    assert_eq!(pair.preemptions, 0);
    assert_eq!(summarize(&s, "p", &pair).utility, 3.0);
}

#[test]
fn pair_declines_to_preempt_when_running_the_victim_first_is_better_even_if_the_candidate_then_earns_nothing()
 {
    // One core: r runs from 0 (3000 s; 5 until 3500 s after arrival, then
    // 1); t arrives at 60 (600 s; 2 until 1000 s after arrival, then 0).
    // At the event of 60: t first nets 2 (t ends at 660) + 1 (r ends at
    // 3600 > 3500) = 3; r first nets 5 + 0 (t would end at 3600, 3540 s
    // after its arrival) = 5. "If the second ordering results in higher
    // Util, preemption is not considered for that core" (Machovec et al.
    // §III.E.4): t waits, and is dropped at the event of 480, the first at
    // which 480 + 600 − 60 > 1000.
    let s = scenario(
        &[1],
        vec![
            task(
                0.0,
                &[3000.0],
                flat(5.0, &[(3500.0, 1.0), (100_000.0, 0.2)]),
            ),
            task(60.0, &[600.0], flat(2.0, &[(1000.0, 1.0)])),
        ],
        WIDE,
    );
    let pair = run(&s, Objective::Util, Preemption::Pair);
    assert_eq!(pieces(&pair), vec![(0, 0, 0.0, 3000.0)]);
    assert_eq!(pair.preemptions, 0);
    assert_eq!(pair.fates[1], TaskFate::Dropped { at: 480.0 });
    assert_eq!(summarize(&s, "p", &pair).utility, 5.0);
    // UPT ranks the other way: t first nets 2/600 + 1/2940 against r
    // first's 5/2940 + 0, so t preempts (and earns 2, r then 1).
    let upt = run(&s, Objective::Upt, Preemption::Pair);
    assert_eq!(upt.preemptions, 1);
    assert_eq!(summarize(&s, "u", &upt).utility, 3.0);
    // Greedy agrees here (t's Util 2 is below r's 5).
    let greedy = run(&s, Objective::Util, Preemption::Greedy);
    assert_eq!(greedy.preemptions, 0);
    assert_eq!(summarize(&s, "g", &greedy).utility, 5.0);
}

#[test]
fn a_task_that_can_no_longer_earn_is_dropped() {
    // One core, busy with a non-preemptible task until 3000 s. t arrives
    // at 60, needs 300 s and earns only within 600 s of arrival: at the
    // event of 420 s, 420 + 300 − 60 > 600, so it is dropped there.
    let mut busy = task(0.0, &[3000.0], flat(1.0, &[(5000.0, 1.0)]));
    busy.0.preemptible = false;
    let s = scenario(
        &[1],
        vec![busy, task(60.0, &[300.0], flat(8.0, &[(600.0, 1.0)]))],
        WIDE,
    );
    for preemption in [Preemption::None, Preemption::Greedy, Preemption::Pair] {
        let r = run(&s, Objective::Util, preemption);
        assert_eq!(r.fates[1], TaskFate::Dropped { at: 420.0 });
        assert_eq!(r.preemptions, 0);
    }
}

#[test]
fn the_window_pro_rates_a_task_that_straddles_its_end() {
    // Window [600, 3600). Task 0 runs [0, 1200): 600 s of 1200 inside.
    // Task 1 arrives at 3000 and runs [3000, 4200): 600 s inside.
    let s = scenario(
        &[2],
        vec![
            task(0.0, &[1200.0], flat(2.0, &[(5000.0, 1.0)])),
            task(3000.0, &[1200.0], flat(8.0, &[(5000.0, 1.0)])),
        ],
        (600.0, 3600.0),
    );
    let r = run(&s, Objective::Util, Preemption::None);
    let sum = summarize(&s, "u", &r);
    assert_eq!(sum.utility, 2.0 * 0.5 + 8.0 * 0.5);
    // The bound pro-rates the ideal runs the same way here.
    assert_eq!(sum.max_utility, 5.0);
    assert_eq!(sum.counted, 1);
    // The run went on after the window until task 1 completed.
    assert_eq!(
        r.fates[1],
        TaskFate::Completed {
            at: 4200.0,
            cluster: 0
        }
    );
}
