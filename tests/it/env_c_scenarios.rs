//! Environment C on hand-built scenarios whose schedules were worked out on
//! paper (Khemka et al. 2015, §III): the queued and polled task management
//! environments (Figs. 2–3), the orders of the FCFS/LCFS heuristics, the
//! P-state rules, Max UPE, the hard energy budget, the adaptive energy
//! filter (Eqs. 1–3) and dropping.
//!
//! Utility functions are flat steps, so every value is exact; ETCs and APCs
//! are round numbers, so every start, end and energy is exact too. Mapping
//! events are every 60 s from time 0, and every run is checked with
//! `check::check`.

use swftool::env::energy::engine::{EnergyRun, TaskFate, simulate};
use swftool::env::energy::summary::{summarize, time_consumed};
use swftool::env::energy::tables::{RunRecord, filter_frame};
use swftool::env::energy::{
    EnergyScenario, EnergyTask, Filter, HEURISTICS, MachineType, Management, Matrices, Objective,
    Order, PStates, Policy, RunConfig, check::check,
};
use swftool::metrics::aggregate::f64_column;
use swftool::model::utility::{Interval, Shape, Urgency, UtilityFunction, UtilitySpec, step};

const FCFS_P0: Policy = Policy::Ordered {
    order: Order::Fcfs,
    pstates: PStates::P0,
};
const FCFS_ALL: Policy = Policy::Ordered {
    order: Order::Fcfs,
    pstates: PStates::All,
};
const MAX_UTIL: Policy = Policy::MinMin(Objective::Util);
const MAX_UPT: Policy = Policy::MinMin(Objective::Upt);
const MAX_UPE: Policy = Policy::MinMin(Objective::Upe);

/// A flat step: `priority` until `width` s after arrival, 0 after.
fn flat(priority: f64, width: f64) -> UtilityFunction {
    step(priority, width).unwrap()
}

/// A step that earns `priority` until `until` s after arrival and only
/// `low` × `priority` from then until 100 000 s.
fn two_levels(priority: f64, until: f64, low: f64) -> UtilityFunction {
    UtilityFunction::new(
        priority,
        0.0,
        600.0,
        &[
            Interval {
                length: until,
                alpha: Some(1.0),
                modifier: 0.0,
            },
            Interval {
                length: 100_000.0 - until,
                alpha: Some(low),
                modifier: 0.0,
            },
        ],
    )
    .unwrap()
}

/// Long enough never to matter.
const FOREVER: f64 = 100_000.0;

/// General-purpose machine types of these sizes.
fn general(sizes: &[u32]) -> Vec<MachineType> {
    sizes
        .iter()
        .map(|&machines| MachineType {
            machines,
            special: false,
        })
        .collect()
}

/// One machine type of one machine and one task type with these ETCs (s)
/// and APCs (W) in P-states 0, 1, 2.
fn one_machine(etc: [f64; 3], apc: [f64; 3]) -> Matrices {
    Matrices::from_entries(general(&[1]), &[vec![Some(etc)]], &[vec![Some(apc)]]).unwrap()
}

/// Tasks given as (arrival s, task type, utility), numbered 1.. in order.
fn scenario(
    matrices: Matrices,
    tasks: Vec<(f64, usize, UtilityFunction)>,
    window: (f64, f64),
) -> EnergyScenario {
    let tasks = tasks
        .into_iter()
        .enumerate()
        .map(|(i, (arrival, task_type, utility))| EnergyTask {
            job_number: i as i64 + 1,
            arrival,
            task_type,
            utility,
            spec: UtilitySpec {
                shape: Shape::Step,
                class: 0,
                priority: utility.priority(),
                urgency: Urgency::Low,
                scale: utility.last_positive(),
                theta: 600.0,
            },
        })
        .collect();
    EnergyScenario {
        name: "hand".into(),
        seed: 1,
        matrices,
        tasks,
        window,
        event_interval: 60.0,
    }
}

const HOUR: (f64, f64) = (0.0, 3600.0);

fn cfg(management: Management) -> RunConfig {
    RunConfig {
        management,
        ..RunConfig::default()
    }
}

fn queued() -> RunConfig {
    cfg(Management::Queued)
}

fn polled() -> RunConfig {
    cfg(Management::Polled)
}

fn run(s: &EnergyScenario, policy: Policy, config: RunConfig) -> EnergyRun {
    let r = simulate(s, policy, &config);
    let broken = check(s, &r, config.management);
    assert!(broken.is_empty(), "{policy:?} {config:?}: {broken:#?}");
    r
}

/// The executions as (task, machine, P-state, start, end), by start.
fn execs(r: &EnergyRun) -> Vec<(usize, usize, u8, f64, f64)> {
    let mut v: Vec<_> = r
        .executions
        .iter()
        .map(|e| (e.task, e.machine, e.pstate, e.start, e.end))
        .collect();
    v.sort_by(|a, b| a.3.total_cmp(&b.3).then(a.0.cmp(&b.0)));
    v
}

/// The tasks in the order they start.
fn start_order(r: &EnergyRun) -> Vec<usize> {
    execs(r).into_iter().map(|e| e.0).collect()
}

fn assert_close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

// ---------------------------------------------------------------------------
// 1. Queued vs polled (Figs. 2–3).

/// One machine; every task takes 100 s at 2 W in P-state 0 (200 J).
/// Three tasks of priority 1 arrive at 0, one of priority 8 at 30.
fn overtaking() -> EnergyScenario {
    scenario(
        one_machine([100.0, 120.0, 140.0], [2.0, 1.5, 1.0]),
        vec![
            (0.0, 0, flat(1.0, FOREVER)),
            (0.0, 0, flat(1.0, FOREVER)),
            (0.0, 0, flat(1.0, FOREVER)),
            (30.0, 0, flat(8.0, FOREVER)),
        ],
        HOUR,
    )
}

#[test]
fn queued_never_remaps_the_pending_task_but_remaps_the_virtual_queue() {
    let s = overtaking();
    // Queued, Max Utility. Event 0: t0, t1, t2 all earn 1 (a tie: lowest
    // index first): t0 runs [0, 100), t1 is pending at [100, 200), t2 sits
    // in the virtual queue at [200, 300).
    // Event 60: t3 (priority 8) has arrived. t1 is pending: not remapped,
    // although t3 would earn more in its slot. t2 goes back to the mappable
    // tasks with t3; the machine is ready at 200 (after t1): t3 (8) takes
    // [200, 300), t2 (1) moves back to [300, 400).
    let r = run(&s, MAX_UTIL, queued());
    assert_eq!(
        execs(&r),
        vec![
            (0, 0, 0, 0.0, 100.0),
            (1, 0, 0, 100.0, 200.0),
            (3, 0, 0, 200.0, 300.0),
            (2, 0, 0, 300.0, 400.0),
        ]
    );
    // Event 0 mapped three tasks; event 60 remapped two: t2 (from the
    // virtual queue) and the new t3.
    assert_eq!((r.events[0].mappable, r.events[0].assigned), (3, 3));
    assert_eq!((r.events[1].mappable, r.events[1].assigned), (2, 2));
    // At event 60 the unmovable tasks are t0 (running) and t1 (pending).
    assert_eq!(r.events[1].committed, 400.0);
    assert_eq!(r.energy, 800.0);

    // Polled, for contrast: no pending slot. t0 runs [0, 100); the machine
    // idles until the event of 120, where t3 (8) beats t1 and t2 (1).
    let p = run(&s, MAX_UTIL, polled());
    assert_eq!(
        execs(&p),
        vec![
            (0, 0, 0, 0.0, 100.0),
            (3, 0, 0, 120.0, 220.0),
            (1, 0, 0, 240.0, 340.0),
            (2, 0, 0, 360.0, 460.0),
        ]
    );
    assert_eq!(p.energy, 800.0);
}

#[test]
fn polled_idles_until_the_next_event_queued_starts_at_once() {
    // One machine, two tasks of 90 s (2 W: 180 J) arriving at 0.
    let s = scenario(
        one_machine([90.0, 100.0, 110.0], [2.0, 1.5, 1.0]),
        vec![(0.0, 0, flat(1.0, FOREVER)), (0.0, 0, flat(1.0, FOREVER))],
        HOUR,
    );
    for policy in [FCFS_P0, MAX_UTIL] {
        // Queued: t1 is pending behind t0 and starts the instant t0 ends.
        let q = run(&s, policy, queued());
        assert_eq!(
            execs(&q),
            vec![(0, 0, 0, 0.0, 90.0), (1, 0, 0, 90.0, 180.0)]
        );
        // Polled: t0 ends at 90; at the event of 60 the machine was busy,
        // so it idles until the event of 120, where t1 starts.
        let p = run(&s, policy, polled());
        assert_eq!(
            execs(&p),
            vec![(0, 0, 0, 0.0, 90.0), (1, 0, 0, 120.0, 210.0)]
        );
        assert_eq!(q.energy, 360.0);
        assert_eq!(p.energy, 360.0);
    }
}

// ---------------------------------------------------------------------------
// 2. The orders of the ordered heuristics.

/// One machine, 100 s per task. Nothing has arrived at the event of 0; at
/// the event of 60 four tasks wait: a (arrives 10, priority 1), b (20, 4),
/// c (30, 1), d (40, 4).
fn four_waiting() -> EnergyScenario {
    scenario(
        one_machine([100.0, 120.0, 140.0], [2.0, 1.5, 1.0]),
        vec![
            (10.0, 0, flat(1.0, FOREVER)),
            (20.0, 0, flat(4.0, FOREVER)),
            (30.0, 0, flat(1.0, FOREVER)),
            (40.0, 0, flat(4.0, FOREVER)),
        ],
        HOUR,
    )
}

#[test]
fn fcfs_lcfs_and_their_prioritized_versions_start_tasks_in_their_orders() {
    let s = four_waiting();
    let (a, b, c, d) = (0, 1, 2, 3);
    let cases = [
        // Ascending arrival.
        (Order::Fcfs, [a, b, c, d]),
        // Descending arrival.
        (Order::Lcfs, [d, c, b, a]),
        // Priority 4 first (b, d by arrival), then priority 1 (a, c).
        (Order::Pfcfs, [b, d, a, c]),
        // Priority 4 first (d, b latest first), then priority 1 (c, a).
        (Order::Plcfs, [d, b, c, a]),
    ];
    for (order, want) in cases {
        for pstates in [PStates::P0, PStates::All] {
            let policy = Policy::Ordered { order, pstates };
            // Queued: the whole order is laid out at the event of 60 (the
            // tasks after the pending one are remapped at later events in
            // the same order): starts 60, 160, 260, 360.
            let q = run(&s, policy, queued());
            assert_eq!(start_order(&q), want, "{policy:?} queued");
            let starts: Vec<f64> = execs(&q).iter().map(|e| e.3).collect();
            assert_eq!(starts, [60.0, 160.0, 260.0, 360.0], "{policy:?}");
            // Polled: one task per event at which the machine is idle (60,
            // 180, 300, 420), the first of the order among those left.
            let p = run(&s, policy, polled());
            assert_eq!(start_order(&p), want, "{policy:?} polled");
            let starts: Vec<f64> = execs(&p).iter().map(|e| e.3).collect();
            assert_eq!(starts, [60.0, 180.0, 300.0, 420.0], "{policy:?}");
            assert!(p.executions.iter().all(|e| e.pstate == 0));
        }
    }
}

// ---------------------------------------------------------------------------
// 3. All P-states vs P-state 0.

/// One machine, one task type: ETC 100, 125, 150 s at 200, 150, 100 W:
/// EEC 20 000, 18 750, 15 000 J. τ̄ = 125 s, ē = 53 750 / 3 J. One task
/// arrives at 0. The day is [0, 4000).
fn slow_is_cheaper() -> EnergyScenario {
    scenario(
        one_machine([100.0, 125.0, 150.0], [200.0, 150.0, 100.0]),
        vec![(0.0, 0, flat(1.0, FOREVER))],
        (0.0, 4000.0),
    )
}

#[test]
fn all_p_states_falls_back_to_p_state_1_when_p_state_0_fails_the_filter() {
    let s = slow_is_cheaper();
    // E = 640 000 J, fixed λ = 31/32. At the event of 0 nothing is
    // committed: e_rem = E; τ_rem = 4000 s; n = min(4000/125, 640 000/ē)
    // = min(32, 35.7) = 32; e_bud = λ · 640 000 / 32 = 19 375 J:
    // P-state 0 (20 000) fails, P-state 1 (18 750) passes.
    let config = RunConfig {
        filter: Filter::Fixed(31.0 / 32.0),
        budget: Some(640_000.0),
        ..queued()
    };
    let all = run(&s, FCFS_ALL, config);
    let f = all.events[0].fair_share.unwrap();
    assert_eq!(
        (f.energy_left, f.n, f.lambda),
        (640_000.0, 32.0, 31.0 / 32.0)
    );
    assert_close("e_bud", f.e_bud, 19_375.0);
    assert_eq!(execs(&all), vec![(0, 0, 1, 0.0, 125.0)]);
    assert_eq!(all.energy, 18_750.0);

    // P-state 0 only: the task waits. At the event of 60k (machine idle,
    // nothing committed) n = (4000 − 60k)/125 (< 35.7), so
    // e_bud = λ · E · 125 / (4000 − 60k) = 77 500 000 / (4000 − 60k):
    // 19 974 J at 120, 20 288 J at 180, where P-state 0 passes.
    let p0 = run(&s, FCFS_P0, config);
    assert_close(
        "e_bud at 120",
        p0.events[2].fair_share.unwrap().e_bud,
        77_500_000.0 / 3880.0,
    );
    assert_close(
        "e_bud at 180",
        p0.events[3].fair_share.unwrap().e_bud,
        77_500_000.0 / 3820.0,
    );
    assert_eq!(execs(&p0), vec![(0, 0, 0, 180.0, 280.0)]);
    assert_eq!(p0.energy, 20_000.0);
}

#[test]
fn without_a_filter_all_p_states_is_p_state_0() {
    // Without a filter both rules try P-state 0 first and it always
    // "passes": the runs are the same, execution for execution, with or
    // without a budget.
    let budgets = [None, Some(640_000.0), Some(500.0)];
    for s in [slow_is_cheaper(), four_waiting(), overtaking()] {
        for order in [Order::Fcfs, Order::Lcfs, Order::Pfcfs, Order::Plcfs] {
            for management in Management::ALL {
                for budget in budgets {
                    let config = RunConfig {
                        budget,
                        ..cfg(management)
                    };
                    let p0 = run(
                        &s,
                        Policy::Ordered {
                            order,
                            pstates: PStates::P0,
                        },
                        config,
                    );
                    let all = run(
                        &s,
                        Policy::Ordered {
                            order,
                            pstates: PStates::All,
                        },
                        config,
                    );
                    assert_eq!(p0.executions, all.executions, "{order:?} {config:?}");
                    assert_eq!(p0.fates, all.fates);
                    assert_eq!(p0.energy, all.energy);
                    assert_eq!(p0.exhausted_at, all.exhausted_at);
                    assert!(all.executions.iter().all(|e| e.pstate == 0));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// 4. Max UPE.

#[test]
fn max_upe_picks_the_cheaper_p_state_where_max_utility_does_not() {
    // One machine: ETC 100, 120, 140 s at 200, 120, 80 W: EEC 20 000,
    // 14 400, 11 200 J. One task of utility 1 (a flat step): its utility
    // is 1 in every P-state. Max Utility: a tie, the lower P-state, 0.
    // Max UPT: 1/100 > 1/120 > 1/140, P-state 0. Max UPE: 1/11 200 is the
    // best, P-state 2.
    let s = scenario(
        one_machine([100.0, 120.0, 140.0], [200.0, 120.0, 80.0]),
        vec![(0.0, 0, flat(1.0, FOREVER))],
        HOUR,
    );
    for management in Management::ALL {
        let util = run(&s, MAX_UTIL, cfg(management));
        assert_eq!(execs(&util), vec![(0, 0, 0, 0.0, 100.0)]);
        assert_eq!(util.energy, 20_000.0);
        let upt = run(&s, MAX_UPT, cfg(management));
        assert_eq!(execs(&upt), vec![(0, 0, 0, 0.0, 100.0)]);
        let upe = run(&s, MAX_UPE, cfg(management));
        assert_eq!(execs(&upe), vec![(0, 0, 2, 0.0, 140.0)]);
        assert_eq!(upe.energy, 11_200.0);
    }
}

// ---------------------------------------------------------------------------
// 5. The hard budget.

#[test]
fn the_budget_stops_assignments_once_k_tasks_have_used_it() {
    // One machine; every task 100 s at 2 W in P-state 0: 200 J. E = 600 J
    // fits exactly three. t0, t1, t2 arrive at 0, t3 and t4 at 150.
    let s = scenario(
        one_machine([100.0, 120.0, 140.0], [2.0, 1.5, 1.0]),
        vec![
            (0.0, 0, flat(1.0, FOREVER)),
            (0.0, 0, flat(1.0, FOREVER)),
            (0.0, 0, flat(1.0, FOREVER)),
            (150.0, 0, flat(1.0, FOREVER)),
            (150.0, 0, flat(1.0, FOREVER)),
        ],
        HOUR,
    );
    let budget = Some(600.0);
    // Queued, FCFS P-state 0. Event 0: t0 [0, 100), t1 [100, 200)
    // (pending), t2 [200, 300) (virtual): 600 J, all fit. Event 60: t2 is
    // remapped with 600 − 400 = 200 J left: it fits again. Event 120: t2
    // becomes pending; 600 J committed. Event 180: t3 and t4 earn utility
    // but 200 J > 0 J left: refused, the first refusal.
    let q = run(&s, FCFS_P0, RunConfig { budget, ..queued() });
    assert_eq!(
        execs(&q),
        vec![
            (0, 0, 0, 0.0, 100.0),
            (1, 0, 0, 100.0, 200.0),
            (2, 0, 0, 200.0, 300.0),
        ]
    );
    assert_eq!(q.energy, 600.0);
    assert!(q.energy <= 600.0);
    assert_eq!(q.exhausted_at, Some(180.0));
    // The budget first refuses at 180 s, but E is spent (99.5 % of it,
    // 597 J, consumed) only at 200 + (597 − 400) / 2 W = 298.5 s.
    let qs = summarize(&s, "fcfs-p0", &RunConfig { budget, ..queued() }, &q);
    assert_close("exhausted h", qs.exhausted_at_h.unwrap(), 180.0 / 3600.0);
    assert_close("spent h", qs.spent_at_h.unwrap(), 298.5 / 3600.0);
    assert_eq!(q.events[3].committed, 600.0);
    assert_eq!(q.fates[3], TaskFate::Unmapped);
    assert_eq!(q.fates[4], TaskFate::Unmapped);

    // Polled: t0 [0, 100); t1 at the event of 120, [120, 220); at 180 the
    // machine is busy (no choice is made, none refused); at 240 t2 (first
    // by arrival) takes the last 200 J, [240, 340); at 360 t3 is refused.
    let p = run(&s, FCFS_P0, RunConfig { budget, ..polled() });
    assert_eq!(
        execs(&p),
        vec![
            (0, 0, 0, 0.0, 100.0),
            (1, 0, 0, 120.0, 220.0),
            (2, 0, 0, 240.0, 340.0),
        ]
    );
    assert_eq!(p.energy, 600.0);
    assert_eq!(p.exhausted_at, Some(360.0));
    // Polled: 597 J consumed at 240 + 197/2 = 338.5 s.
    let ps = summarize(&s, "fcfs-p0", &RunConfig { budget, ..polled() }, &p);
    assert_close("spent h", ps.spent_at_h.unwrap(), 338.5 / 3600.0);

    // Max UPE sees the same budget: P-state 2 costs 140 J, so 600 J fits
    // four tasks (560 J); the fifth is refused (40 J left).
    let u = run(&s, MAX_UPE, RunConfig { budget, ..queued() });
    assert_eq!(u.executions.len(), 4);
    assert!(u.executions.iter().all(|e| e.pstate == 2));
    assert_close("energy", u.energy, 560.0);
    // Event 0: t0, t1, t2 (420 J; t0 and t1 committed, 280 J). Events 60
    // and 120: t2 is remapped with 320 J left, every P-state fits. Event
    // 180: t2 is pending (420 J committed, 180 J left); t3's P-state 0
    // (200 J) is refused, its P-state 2 (140 J) is taken; then t4 is
    // refused outright (40 J left).
    assert_eq!(u.exhausted_at, Some(180.0));
    // 560 J never reaches 99.5 % of 600 J: refused, but never spent.
    let us = summarize(&s, "maxupe", &RunConfig { budget, ..queued() }, &u);
    assert_eq!(us.spent_at_h, None);
}

#[test]
fn static_power_drawn_all_day_comes_off_the_budget_and_into_the_energy() {
    // The scenario above, the machine drawing 0.1 W all day whatever runs:
    // 0.1 W × 1 machine × 3600 s = 360 J of the day. E = 960 J leaves the
    // tasks 600 J: the same three tasks as E = 600 J without static power,
    // the same first refusal at 180 s.
    let s = scenario(
        one_machine([100.0, 120.0, 140.0], [2.0, 1.5, 1.0]),
        vec![
            (0.0, 0, flat(1.0, FOREVER)),
            (0.0, 0, flat(1.0, FOREVER)),
            (0.0, 0, flat(1.0, FOREVER)),
            (150.0, 0, flat(1.0, FOREVER)),
            (150.0, 0, flat(1.0, FOREVER)),
        ],
        HOUR,
    );
    let config = RunConfig {
        budget: Some(960.0),
        static_all_day_w: 0.1,
        ..queued()
    };
    let r = run(&s, FCFS_P0, config);
    assert_eq!(
        execs(&r),
        vec![
            (0, 0, 0, 0.0, 100.0),
            (1, 0, 0, 100.0, 200.0),
            (2, 0, 0, 200.0, 300.0),
        ]
    );
    assert_eq!(r.energy, 600.0);
    assert_close("static", r.static_j, 360.0);
    assert_eq!(r.exhausted_at, Some(180.0));
    let sum = summarize(&s, "fcfs-p0", &config, &r);
    assert_close("energy of the day", sum.energy_j, 960.0);
    assert_close("static of the day", sum.static_j, 360.0);
    // E is spent when the tasks have used 99.5 % of their 600 J: at
    // 200 + (597 − 400) / 2 W = 298.5 s, as without static power.
    assert_close("spent h", sum.spent_at_h.unwrap(), 298.5 / 3600.0);
    // The one-hour day: its first hour holds all of it.
    assert_close("hour 1", sum.hourly_energy_j[0], 960.0);
    assert_close("hour 24", sum.hourly_energy_j[23], 960.0);
    // A budget below the static energy leaves the tasks nothing (the
    // command line refuses it; the checker says the static alone exceeds
    // it).
    let tight = RunConfig {
        budget: Some(300.0),
        ..config
    };
    let none = simulate(&s, FCFS_P0, &tight);
    assert!(none.executions.is_empty());
    assert_eq!(none.exhausted_at, Some(0.0));
    assert_eq!(check(&s, &none, tight.management).len(), 1);
}

// ---------------------------------------------------------------------------
// 6. The adaptive filter, end to end.

/// Two machine types of one machine each, A (machine 0) and B (machine
/// 1), and one task type: on A 100, 120, 140 s at 100, 80, 60 W (EEC
/// 10 000, 9 600, 8 400 J), on B 50, 60, 70 s at 400, 300, 200 W (EEC
/// 20 000, 18 000, 14 000 J): τ̄ = 90 s, ē = 80 000/6 J. t0 arrives at 0,
/// t1 at 30; the day is [50, 3650) (T = 7200 s).
fn two_machine_types() -> EnergyScenario {
    let matrices = Matrices::from_entries(
        general(&[1, 1]),
        &[vec![Some([100.0, 120.0, 140.0]), Some([50.0, 60.0, 70.0])]],
        &[vec![Some([100.0, 80.0, 60.0]), Some([400.0, 300.0, 200.0])]],
    )
    .unwrap();
    scenario(
        matrices,
        vec![(0.0, 0, flat(1.0, FOREVER)), (30.0, 0, flat(1.0, FOREVER))],
        (50.0, 3650.0),
    )
}

#[test]
fn the_adaptive_filter_computes_its_fair_share_and_removes_a_choice() {
    // Two machine types of one machine each: A (machine 0) and B (machine
    // 1). One task type: on A 100, 120, 140 s at 100, 80, 60 W (EEC
    // 10 000, 9 600, 8 400 J); on B 50, 60, 70 s at 400, 300, 200 W (EEC
    // 20 000, 18 000, 14 000 J). τ̄ = 540/6 = 90 s, ē = 80 000/6 J.
    // The day is [50, 3650): the event of 0 is in the warm-up. T = 7200 s.
    // E = 720 000 J. FCFS P-state 0, queued. t0 arrives at 0, t1 at 30.
    let s = two_machine_types();
    let (e, t_total, tau_bar, e_bar) = (720_000.0, 7200.0, 90.0, 80_000.0 / 6.0);
    let config = RunConfig {
        filter: Filter::Adaptive,
        budget: Some(e),
        ..queued()
    };
    let r = run(&s, FCFS_P0, config);

    // Event 0: nothing committed, λ = 1; τ_rem = 2 · (3650 − 50) = 7200;
    // n = min(7200/90, 720 000/ē) = min(80, 54) = 54; e_bud = ē. Both
    // machines are ready at 0: machine 0 first, A's P-state 0 (10 000 J)
    // passes: t0 runs [0, 100); its energy in the day is 100 W · 50 s.
    let f0 = r.events[0].fair_share.unwrap();
    assert_eq!(f0.lambda, 1.0);
    assert_eq!(f0.energy_left, e);
    assert_close("n at 0", f0.n, 54.0);
    assert_close("e_bud at 0", f0.e_bud, e_bar);

    // Event 60: e_cons + e_unmov = 5000 J. Availability: machine 0 at
    // 100, machine 1 at 60: τ_rem = (3650 − 100) + (3650 − 60) = 7140 s,
    // T − τ_rem = 60 s. λ = (E/T) / (5000/60) = 100 / 83.3 = 1.2;
    // e_rem = 715 000; n = min(7140/90, 715 000/ē) = min(79.3, 53.625);
    // e_bud = 1.2 · 715 000 / 53.625 = 16 000 J.
    let committed = 100.0 * 50.0;
    let tau_rem = (3650.0 - 100.0) + (3650.0 - 60.0);
    let lambda = (e / t_total) / (committed / (t_total - tau_rem));
    let e_rem = e - committed;
    let n = f64::min(tau_rem / tau_bar, e_rem / e_bar);
    let e_bud = lambda * e_rem / n;
    assert_close("λ (hand)", lambda, 1.2);
    assert_close("n (hand)", n, 53.625);
    assert_close("e_bud (hand)", e_bud, 16_000.0);
    assert_eq!(r.events[1].time, 60.0);
    assert_eq!(r.events[1].committed, committed);
    let f1 = r.events[1].fair_share.unwrap();
    assert_close("λ at 60", f1.lambda, lambda);
    assert_close("e_rem at 60", f1.energy_left, e_rem);
    assert_close("n at 60", f1.n, n);
    assert_close("e_bud at 60", f1.e_bud, e_bud);

    // t1: machine 1 is ready first (60), but B's P-state 0 (20 000 J)
    // exceeds 16 000: removed. Machine 0 (ready at 100) passes (10 000 J):
    // t1 runs [100, 200).
    assert_eq!(
        execs(&r),
        vec![(0, 0, 0, 0.0, 100.0), (1, 0, 0, 100.0, 200.0)]
    );
    assert_eq!(r.energy, 5000.0 + 10_000.0);

    // Without the filter (same budget) t1 takes machine 1 at 60.
    let none = run(
        &s,
        FCFS_P0,
        RunConfig {
            filter: Filter::None,
            ..config
        },
    );
    assert!(none.events.iter().all(|ev| ev.fair_share.is_none()));
    assert_eq!(
        execs(&none),
        vec![(0, 0, 0, 0.0, 100.0), (1, 1, 0, 60.0, 110.0)]
    );
    assert_eq!(none.energy, 5000.0 + 20_000.0);
}

#[test]
fn a_tight_budget_holds_a_task_back_until_lambda_recovers_and_the_filter_table_recomputes() {
    // The scenario above with E = 72 000 J: a target of E/T = 10 W a
    // machine. FCFS P-state 0, queued, adaptive filter. Worked out on
    // paper (e_rem/ē < τ_rem/τ̄ throughout, so n = e_rem/ē and
    // e_bud = λ·ē):
    //
    // | event s | e_cons+e_unmov J | τ_rem s | λ                  | e_bud J   |
    // |---------|------------------|---------|--------------------|-----------|
    // | 0       | 0                | 7200    | 1 (nothing yet)    | 13 333.3  |
    // | 60      | 5000             | 7140    | 10/(5000/60) = 0.12 | 1600     |
    // | 120     | 5000             | 7060    | 10/(5000/140) = 0.28 | 3733.3  |
    // | 180     | 5000             | 6940    | 0.52               | 6933.3    |
    // | 240     | 5000             | 6820    | 0.76               | 10 133.3  |
    // | 300     | 15 000           | 6660    | 10/(15000/540) = 0.36 | 4800   |
    //
    // At 0, t0 takes A in P-state 0 (10 000 J ≤ ē; 5000 J of it in the
    // day). t1 (arrived 30) passes nowhere until λ·ē reaches A's 10 000 J:
    // at 240, where it runs [240, 340) on A. Without the filter it ran on
    // B at 60 for 20 000 J.
    let s = two_machine_types();
    let (e, e_bar) = (72_000.0, 80_000.0 / 6.0);
    let config = RunConfig {
        filter: Filter::Adaptive,
        budget: Some(e),
        ..queued()
    };
    let r = run(&s, FCFS_P0, config);
    assert_eq!(
        execs(&r),
        vec![(0, 0, 0, 0.0, 100.0), (1, 0, 0, 240.0, 340.0)]
    );
    assert_eq!(r.energy, 15_000.0);

    let summary = summarize(&s, "fcfs-p0", &config, &r);
    let table = filter_frame(&[RunRecord {
        scenario: &s,
        config: &config,
        run: &r,
        summary: &summary,
    }])
    .unwrap();
    let c = |name: &str| -> Vec<f64> {
        f64_column(&table, name)
            .unwrap()
            .into_iter()
            .map(|x| x.unwrap_or_else(|| panic!("{name} is null")))
            .collect()
    };
    let (time, budget, committed, e_rem) =
        (c("time_s"), c("budget_j"), c("committed_j"), c("e_rem_j"));
    let (tau_rem, total, tau_bar, mean_eec) = (
        c("tau_rem_s"),
        c("total_time_s"),
        c("mean_etc_s"),
        c("mean_eec_j"),
    );
    let (n, lambda, e_bud) = (c("n"), c("lambda"), c("e_bud_j"));
    // One row per event, 0, 60, …, 3600.
    assert_eq!(time.len(), 61);
    // Every row: Eqs. 1–3 from the table's own inputs give its outputs.
    for k in 0..time.len() {
        assert_close("e_rem = E − committed", e_rem[k], budget[k] - committed[k]);
        let used = total[k] - tau_rem[k];
        let l = if committed[k] > 0.0 && used > 0.0 {
            (budget[k] / total[k]) / (committed[k] / used)
        } else {
            1.0
        };
        let nn = f64::min(tau_rem[k] / tau_bar[k], e_rem[k] / mean_eec[k]);
        assert_close(&format!("λ at {}", time[k]), lambda[k], l);
        assert_close(&format!("n at {}", time[k]), n[k], nn);
        assert_close(
            &format!("e_bud at {}", time[k]),
            e_bud[k],
            l * e_rem[k] / nn,
        );
    }
    // And the hand-worked values.
    let hand = [
        (0.0, 0.0, 7200.0, 1.0),
        (60.0, 5000.0, 7140.0, 0.12),
        (120.0, 5000.0, 7060.0, 0.28),
        (180.0, 5000.0, 6940.0, 0.52),
        (240.0, 5000.0, 6820.0, 0.76),
        (300.0, 15_000.0, 6660.0, 0.36),
    ];
    for (k, (t, com, tau, l)) in hand.into_iter().enumerate() {
        assert_eq!(time[k], t);
        assert_eq!(budget[k], e);
        assert_close(&format!("committed at {t}"), committed[k], com);
        assert_close(&format!("τ_rem at {t}"), tau_rem[k], tau);
        assert_close(&format!("λ at {t} (hand)"), lambda[k], l);
        assert_close(&format!("e_bud at {t} (hand)"), e_bud[k], l * e_bar);
        assert_eq!(total[k], 7200.0);
        assert_close("τ̄", tau_bar[k], 90.0);
        assert_close("ē", mean_eec[k], e_bar);
    }
    // The energy consumed reaches 5000 J when t0 ends (100 s), then 7000 J
    // 20 s into t1 (260 s), 15 000 J at its end; never more.
    assert_eq!(time_consumed(&s, &r, 5000.0), Some(100.0));
    assert_close("7000 J", time_consumed(&s, &r, 7000.0).unwrap(), 260.0);
    assert_close("15 000 J", time_consumed(&s, &r, 15_000.0).unwrap(), 340.0);
    assert_eq!(time_consumed(&s, &r, 15_001.0), None);
    // 15 000 J of 72 000: the budget is never spent nor refuses.
    assert_eq!((summary.spent_at_h, summary.exhausted_at_h), (None, None));

    // Without a filter the table still has every event, with no λ.
    let none = run(
        &s,
        FCFS_P0,
        RunConfig {
            filter: Filter::None,
            ..config
        },
    );
    let sn = summarize(&s, "fcfs-p0", &config, &none);
    let t = filter_frame(&[RunRecord {
        scenario: &s,
        config: &config,
        run: &none,
        summary: &sn,
    }])
    .unwrap();
    assert_eq!(t.height(), 61);
    assert!(
        f64_column(&t, "lambda")
            .unwrap()
            .iter()
            .all(Option::is_none)
    );
    assert!(
        f64_column(&t, "e_rem_j")
            .unwrap()
            .iter()
            .all(Option::is_some)
    );
}

// ---------------------------------------------------------------------------
// 7. Dropping.

/// One machine. t0, t1, t2 (priority 8, 200 s) arrive at 0; t3 (100 s)
/// arrives at 0 and earns 1 if it completes within 650 s, 0.3 after.
fn low_earner() -> EnergyScenario {
    let m = Matrices::from_entries(
        general(&[1]),
        &[
            vec![Some([200.0, 250.0, 300.0])],
            vec![Some([100.0, 130.0, 160.0])],
        ],
        &[vec![Some([2.0, 1.5, 1.0])], vec![Some([2.0, 1.5, 1.0])]],
    )
    .unwrap();
    scenario(
        m,
        vec![
            (0.0, 0, flat(8.0, FOREVER)),
            (0.0, 0, flat(8.0, FOREVER)),
            (0.0, 0, flat(8.0, FOREVER)),
            (0.0, 1, two_levels(1.0, 650.0, 0.3)),
        ],
        HOUR,
    )
}

#[test]
fn a_task_that_can_no_longer_earn_the_threshold_is_dropped() {
    let s = low_earner();
    // Queued, Max Utility. Event 0: t0 [0, 200), t1 [200, 400) pending,
    // t2 [400, 600) and t3 [600, 700) (0.3 > 0) virtual.
    // Events 60–180: the machine is available at 400 (after t1): t3 could
    // complete at 500 and earn 1: kept, queued again behind t2.
    // Event 240: t1 has started, so t2 is now pending: the machine is
    // available at 600, t3 completes at 700 at best and earns 0.3 < 0.5:
    // dropped.
    let q = run(&s, MAX_UTIL, queued());
    assert_eq!(q.fates[3], TaskFate::Dropped(240.0));
    assert_eq!(q.events[4].time, 240.0);
    assert_eq!(q.events[4].dropped, 1);
    assert_eq!(q.events.iter().map(|e| e.dropped).sum::<u32>(), 1);
    assert_eq!(
        execs(&q),
        vec![
            (0, 0, 0, 0.0, 200.0),
            (1, 0, 0, 200.0, 400.0),
            (2, 0, 0, 400.0, 600.0),
        ]
    );

    // Polled: t0 [0, 200); t1 at 240, [240, 440); t2 at 480, [480, 680).
    // Until 480 the machine is available by 480 and t3 could complete by
    // 580 (earning 1); at 540 it is available at 680, t3 could complete at
    // 780 at best: dropped.
    let p = run(&s, MAX_UTIL, polled());
    assert_eq!(p.fates[3], TaskFate::Dropped(540.0));
    assert_eq!(
        execs(&p),
        vec![
            (0, 0, 0, 0.0, 200.0),
            (1, 0, 0, 240.0, 440.0),
            (2, 0, 0, 480.0, 680.0),
        ]
    );

    // With a threshold of 0 nothing is dropped and t3 earns its 0.3.
    let zero = |c: RunConfig| RunConfig {
        drop_threshold: 0.0,
        ..c
    };
    let q0 = run(&s, MAX_UTIL, zero(queued()));
    assert_eq!(execs(&q0).last(), Some(&(3, 0, 0, 600.0, 700.0)));
    let p0 = run(&s, MAX_UTIL, zero(polled()));
    assert_eq!(execs(&p0).last(), Some(&(3, 0, 0, 720.0, 820.0)));
}

// ---------------------------------------------------------------------------
// Valid assignments, and a machine free exactly at an event.

/// Machine 0 is special-purpose (type 0), machine 1 general (type 1).
/// Task type 0 is general: it may not run on the special machine; 120 s on
/// the general one. Task type 1 is special: 10 s on the special machine,
/// 100 s on the general one. g0, s0, g1 arrive at 0 (in that order).
fn special_and_general() -> EnergyScenario {
    let types = vec![
        MachineType {
            machines: 1,
            special: true,
        },
        MachineType {
            machines: 1,
            special: false,
        },
    ];
    let m = Matrices::from_entries(
        types,
        &[
            vec![None, Some([120.0, 140.0, 160.0])],
            vec![Some([10.0, 12.0, 14.0]), Some([100.0, 120.0, 140.0])],
        ],
        &[
            vec![None, Some([2.0, 1.5, 1.0])],
            vec![Some([2.0, 1.5, 1.0]), Some([2.0, 1.5, 1.0])],
        ],
    )
    .unwrap();
    scenario(
        m,
        vec![
            (0.0, 0, flat(1.0, FOREVER)),
            (0.0, 1, flat(1.0, FOREVER)),
            (0.0, 0, flat(1.0, FOREVER)),
        ],
        HOUR,
    )
}

#[test]
fn a_general_task_never_takes_the_idle_special_machine() {
    let s = special_and_general();
    assert_eq!(s.matrices.special_of, vec![None, Some(0)]);
    // Queued FCFS: g0 skips machine 0 (invalid), machine 1 [0, 120); s0
    // takes machine 0 (ready at 0) [0, 10); g1 skips machine 0 (ready at
    // 10, invalid) and queues on machine 1, [120, 240).
    let q = run(&s, FCFS_P0, queued());
    assert_eq!(
        execs(&q),
        vec![
            (0, 1, 0, 0.0, 120.0),
            (1, 0, 0, 0.0, 10.0),
            (2, 1, 0, 120.0, 240.0),
        ]
    );
    // Polled FCFS: the same first two; g1 waits with machine 0 idle from
    // 10 on. Machine 1 ends g0 exactly at the event of 120: it is idle
    // there, and g1 starts at 120.
    let p = run(&s, FCFS_P0, polled());
    assert_eq!(execs(&p), execs(&q));
    // Max Utility gives s0 the special machine too (utility 1 on both: the
    // lower machine), and never g0 or g1.
    for management in Management::ALL {
        let r = run(&s, MAX_UTIL, cfg(management));
        assert_eq!(execs(&r), execs(&q), "{management:?}");
    }
}

// ---------------------------------------------------------------------------
// Every heuristic on every scenario: the invariants hold, and runs repeat.

#[test]
fn every_heuristic_keeps_the_invariants_on_every_scenario() {
    let scenarios = [
        overtaking(),
        four_waiting(),
        slow_is_cheaper(),
        low_earner(),
        special_and_general(),
    ];
    let filters = [
        (Filter::None, None),
        (Filter::None, Some(500.0)),
        (Filter::Adaptive, Some(640_000.0)),
        (Filter::Adaptive, Some(500.0)),
        (Filter::Fixed(0.5), Some(640_000.0)),
    ];
    for s in &scenarios {
        for h in HEURISTICS.iter() {
            for management in Management::ALL {
                for (filter, budget) in filters {
                    let config = RunConfig {
                        filter,
                        budget,
                        ..cfg(management)
                    };
                    let a = run(s, h.policy, config);
                    let b = simulate(s, h.policy, &config);
                    assert_eq!(a.executions, b.executions, "{} {config:?}", h.name);
                    assert_eq!(a.fates, b.fates);
                    if let Some(e) = budget {
                        assert!(a.energy <= e, "{} {config:?}", h.name);
                    }
                }
            }
        }
    }
}
