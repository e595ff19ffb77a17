//! Environment A on hand-built scenarios whose schedules were worked out on
//! paper (the working is in each test's comment). Every run also passes the
//! invariant checker (see `common::run`).

use crate::common;

use common::{Spec, loose, outcome, run, scenario, start};
use swftool::env::parallel::TaskStatus;
use swftool::env::parallel::cmq::{MultipleQueues, Queue};

/// 5 one-core nodes.
/// J1 (2 nodes, 100 s) arrives at 0 and starts on nodes 0-1.
/// J2 (5 nodes, 50 s) at 1 cannot start: reservation [100, 150) on all 5.
/// J3 (2 nodes, 90 s) at 2 fits in [2, 92) on nodes 2-3 before the
///   reservation: EASY backfills it.
/// J4 (1 node, 200 s) at 3 would run [3, 203) on node 4 through the
///   reservation: refused; it gets the reservation after J2 starts at 100:
///   [150, 350).
#[test]
fn easy_backfills_only_what_does_not_delay_the_reservation() {
    let sc = scenario(
        &[(5, 1)],
        vec![
            loose(1, 0.0, 2, vec![100.0], 10.0),
            loose(2, 1.0, 5, vec![50.0], 10.0),
            loose(3, 2.0, 2, vec![90.0], 10.0),
            loose(4, 3.0, 1, vec![200.0], 10.0),
        ],
    );
    let r = run(&sc, "easy");
    assert_eq!(start(&sc, &r, 1), 0.0);
    assert_eq!(start(&sc, &r, 2), 100.0);
    assert_eq!(start(&sc, &r, 3), 2.0);
    assert_eq!(outcome(&sc, &r, 3).nodes.to_string(), "2-3");
    assert_eq!(start(&sc, &r, 4), 150.0);
}

/// 4 one-core nodes.
/// A (3 nodes, 100 s) at 0 → nodes 0-2, [0, 100).
/// B (2 nodes, 100 s) at 1 → reservation [100, 200) on nodes 0-1 (their
///   idle slots start exactly at 100: change 0, against +1 for node 3).
/// C (4 nodes, 50 s) at 2 → earliest 200. EASY: a reservation exists, skip.
///   Conservative: reservation [200, 250).
/// D (1 node, 300 s) at 3 → node 3 is idle now.
///   EASY: [3, 303) does not touch B's reservation: backfilled. C then gets
///   the reservation at 100 (when B starts): earliest 303.
///   Conservative: [3, 303) would cross C's reservation on node 3: refused;
///   reserved at 250.
#[test]
fn conservative_refuses_a_backfill_that_easy_takes() {
    let specs = || {
        vec![
            loose(1, 0.0, 3, vec![100.0], 10.0),
            loose(2, 1.0, 2, vec![100.0], 10.0),
            loose(3, 2.0, 4, vec![50.0], 10.0),
            loose(4, 3.0, 1, vec![300.0], 10.0),
        ]
    };
    let sc = scenario(&[(4, 1)], specs());
    let easy = run(&sc, "easy");
    assert_eq!(start(&sc, &easy, 2), 100.0);
    assert_eq!(outcome(&sc, &easy, 2).nodes.to_string(), "0-1");
    assert_eq!(start(&sc, &easy, 4), 3.0);
    assert_eq!(start(&sc, &easy, 3), 303.0);

    let cons = run(&sc, "conservative");
    assert_eq!(start(&sc, &cons, 2), 100.0);
    assert_eq!(start(&sc, &cons, 3), 200.0);
    assert_eq!(start(&sc, &cons, 4), 250.0);
}

/// One node, one core: tasks run one after another in the order CMQ places
/// them. R̃ = ETC (1 core); Rmax = 100. Large: R̃ > 60 (jobs 1, 2); medium:
/// 30 < R̃ ≤ 60 (jobs 3-7); small: R̃ ≤ 30 (jobs 8-17). All arrive at 0 in
/// job order, so the round robin (1 large, 4 medium, 8 small, again) gives
/// 1, 3-6, 8-15, 2, 7, 16, 17 and the start times follow that order.
#[test]
fn cmq_takes_tasks_in_its_round_robin_order() {
    let mut specs: Vec<Spec> = Vec::new();
    specs.push(loose(1, 0.0, 1, vec![100.0], 10.0));
    specs.push(loose(2, 0.0, 1, vec![80.0], 10.0));
    for j in 3..=7 {
        specs.push(loose(j, 0.0, 1, vec![50.0], 10.0));
    }
    for j in 8..=17 {
        specs.push(loose(j, 0.0, 1, vec![10.0], 10.0));
    }
    let sc = scenario(&[(1, 1)], specs);
    let q = MultipleQueues::new(&sc);
    assert_eq!(q.queue_of(0), Queue::Large);
    assert_eq!(q.queue_of(2), Queue::Medium);
    assert_eq!(q.queue_of(7), Queue::Small);

    let r = run(&sc, "cmq");
    let mut by_start: Vec<(f64, i64)> = sc
        .tasks
        .iter()
        .zip(&r.outcomes)
        .map(|(t, o)| (o.start.expect("every task runs"), t.job_number))
        .collect();
    by_start.sort_by(|a, b| a.0.total_cmp(&b.0));
    let order: Vec<i64> = by_start.iter().map(|x| x.1).collect();
    assert_eq!(
        order,
        vec![1, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 2, 7, 16, 17]
    );
    // back to back on the single node
    assert_eq!(by_start[1].0, 100.0);
    assert_eq!(by_start[5].0, 100.0 + 4.0 * 50.0);
}

/// Two one-core nodes. X (2 cores, 10 s, value 20) and Y (1 core, 10 s,
/// value 15) arrive together and cannot run side by side.
/// Max Value: X (20 > 15) starts at 0, Y reserved at 10.
/// Max VPR: X earns 20/(10·2) = 1, Y 15/(10·1) = 1.5: Y starts at 0, X at 10.
#[test]
fn max_value_and_max_vpr_choose_differently() {
    let sc = scenario(
        &[(2, 1)],
        vec![
            loose(1, 0.0, 2, vec![10.0], 20.0),
            loose(2, 0.0, 1, vec![10.0], 15.0),
        ],
    );
    let mv = run(&sc, "maxvalue");
    assert_eq!(start(&sc, &mv, 1), 0.0);
    assert_eq!(start(&sc, &mv, 2), 10.0);
    let vpr = run(&sc, "maxvpr");
    assert_eq!(start(&sc, &vpr, 2), 0.0);
    assert_eq!(start(&sc, &vpr, 1), 10.0);
    // same with place-holders: the decisions now are the same
    let vpr_ph = run(&sc, "maxvpr-ph");
    assert_eq!(start(&sc, &vpr_ph, 2), 0.0);
    assert_eq!(start(&sc, &vpr_ph, 1), 10.0);
}

/// One node. A (100 s, value 10) starts at 0. B (50 s, value 5, loose) at 1
/// can only go at 100. C (50 s, value 50, soft 152, hard 153) arrives at 2.
/// Max Value reserved [100, 150) for B at 1; C's best slot is then
/// [150, 200), too late: unmapped, and dropped at 150.
/// Max Value with place-holders only held [100, 150) for B during the event
/// at 1; at 2 C (50 at 150) beats B for it; at 100 C starts, B at 150.
#[test]
fn place_holders_let_a_later_high_value_task_take_the_slot() {
    let specs = || {
        vec![
            loose(1, 0.0, 1, vec![100.0], 10.0),
            loose(2, 1.0, 1, vec![50.0], 5.0),
            Spec {
                job: 3,
                arrival: 2.0,
                cores: 1,
                etc: vec![50.0],
                value: 50.0,
                soft: 152.0,
                hard: 153.0,
            },
        ]
    };
    let sc = scenario(&[(1, 1)], specs());
    let mv = run(&sc, "maxvalue");
    assert_eq!(start(&sc, &mv, 2), 100.0);
    assert_eq!(outcome(&sc, &mv, 3).status, TaskStatus::Dropped);
    assert_eq!(outcome(&sc, &mv, 3).dropped_at, Some(150.0));

    let ph = run(&sc, "maxvalue-ph");
    assert_eq!(start(&sc, &ph, 3), 100.0);
    assert_eq!(outcome(&sc, &ph, 3).value, 50.0);
    assert_eq!(start(&sc, &ph, 2), 150.0);
    let earned =
        |r: &swftool::env::parallel::RunResult| r.outcomes.iter().map(|o| o.value).sum::<f64>();
    assert_eq!(earned(&mv), 15.0);
    assert_eq!(earned(&ph), 65.0);
}

/// One node. A (100 s) runs from 0. B (10 s, hard deadline 60) at 1 cannot
/// finish in time anywhere but now. C (10 s, hard deadline 5) at 2 cannot
/// earn anything even if started at once: dropped at its arrival.
/// Max Value leaves B unmapped (its best slot earns 0) and drops it at 100.
/// EASY ignores value: it reserves [100, 110) for B, which completes with 0.
#[test]
fn tasks_that_cannot_earn_value_are_dropped() {
    let specs = || {
        vec![
            loose(1, 0.0, 1, vec![100.0], 10.0),
            Spec {
                job: 2,
                arrival: 1.0,
                cores: 1,
                etc: vec![10.0],
                value: 10.0,
                soft: 50.0,
                hard: 60.0,
            },
            Spec {
                job: 3,
                arrival: 2.0,
                cores: 1,
                etc: vec![10.0],
                value: 10.0,
                soft: 4.0,
                hard: 5.0,
            },
        ]
    };
    let sc = scenario(&[(1, 1)], specs());
    let mv = run(&sc, "maxvalue");
    assert_eq!(outcome(&sc, &mv, 2).status, TaskStatus::Dropped);
    assert_eq!(outcome(&sc, &mv, 2).dropped_at, Some(100.0));
    assert_eq!(outcome(&sc, &mv, 3).status, TaskStatus::Dropped);
    assert_eq!(outcome(&sc, &mv, 3).dropped_at, Some(2.0));

    let easy = run(&sc, "easy");
    assert_eq!(start(&sc, &easy, 2), 100.0);
    assert_eq!(outcome(&sc, &easy, 2).status, TaskStatus::Completed);
    assert_eq!(outcome(&sc, &easy, 2).value, 0.0);
    assert_eq!(outcome(&sc, &easy, 3).status, TaskStatus::Dropped);
}

/// A task larger than every cluster is dropped at once, and still counts in
/// the value bound.
#[test]
fn a_task_that_fits_nowhere_is_dropped() {
    let sc = scenario(
        &[(2, 4), (3, 1)],
        vec![loose(1, 0.0, 9, vec![10.0, 10.0], 10.0)],
    );
    for h in swftool::env::parallel::HEURISTICS {
        let r = run(&sc, h.name);
        assert_eq!(r.outcomes[0].status, TaskStatus::Dropped, "{}", h.name);
    }
    assert_eq!(sc.value_bound(), 10.0);
}

/// Heterogeneity: with two clusters, Max Value puts a task where it
/// completes earliest (highest value under a tight deadline), EASY where it
/// starts earliest (the lower index on a tie), ignoring speed.
#[test]
fn max_value_uses_the_faster_cluster_and_easy_the_lower_index() {
    let sc = scenario(
        &[(1, 1), (1, 1)],
        vec![Spec {
            job: 1,
            arrival: 0.0,
            cores: 1,
            etc: vec![100.0, 40.0],
            value: 10.0,
            soft: 50.0,
            hard: 150.0,
        }],
    );
    let mv = run(&sc, "maxvalue");
    assert_eq!(mv.outcomes[0].cluster, Some(1));
    assert_eq!(mv.outcomes[0].value, 10.0);
    let easy = run(&sc, "easy");
    assert_eq!(easy.outcomes[0].cluster, Some(0));
    // completes at 100: 50 s past the soft deadline, halfway to the hard one:
    // 10 + (5 - 10) * 0.5
    assert_eq!(easy.outcomes[0].value, 7.5);
}

/// The checker names an overlap in the environment's words: J3 moved onto
/// J1's nodes while J1 still runs is reported as cluster 0, node 2.
#[test]
fn the_checker_names_two_tasks_on_one_node_by_cluster_and_node() {
    let sc = scenario(
        &[(5, 1)],
        vec![
            loose(1, 0.0, 2, vec![100.0], 10.0),
            loose(2, 1.0, 5, vec![50.0], 10.0),
            loose(3, 2.0, 2, vec![90.0], 10.0),
            loose(4, 3.0, 1, vec![200.0], 10.0),
        ],
    );
    let mut r = run(&sc, "easy");
    // J1 holds nodes 0-1 over [0, 100); J3 runs [2, 92) on 2-3.
    r.outcomes[0].nodes = swftool::sim::nodeset::NodeSet::from_range(1..3);
    let v = swftool::env::parallel::check::check(&sc, &r);
    let msgs: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    assert_eq!(
        msgs,
        ["cluster 0 node 2: job 1 [0, 100) overlaps job 3 [2, 92)"]
    );
}
