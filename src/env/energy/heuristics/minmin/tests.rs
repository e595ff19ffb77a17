//! Min-Min's bounds against the minima and orders they stand for: the
//! walk groups' bounds over the heap keys, the packed keys' order, the
//! earliest completion and least ETC and EEC on the open machine types.

use rand::RngExt;

use super::super::evaluate::{EnergyFloors, Passing};
use super::super::tests::{Fixture, scenario};
use super::super::{Machines, random_stream};
use super::*;
use crate::model::rng::stream;

/// A task's walk group's bound is no lower than any key the task
/// enters Min-Min's heap with, at any event, with any machines idle,
/// filter and budget, for Max UPT and Max UPE: what lets the polled
/// heap leave out the groups whose bound is below its top. The groups
/// go from the highest bound down, and a counting sort puts every task
/// of the event in its group.
#[test]
fn walk_bounds_bound_every_heap_key() {
    let fx = Fixture::of(scenario(5));
    let (s, type_of, types) = (&fx.s, &fx.type_of, fx.types);
    let mut rng = stream(5, 4);
    let mut entered = 0;
    for round in 0..200 {
        let now = rng.random_range(3.0 * 3600.0..20.0 * 3600.0);
        let q = [0.02, 0.1, 0.5][round % 3];
        let open: Vec<bool> = (0..type_of.len()).map(|_| rng.random_bool(q)).collect();
        let e_bud = [None, Some(rng.random_range(2e4..2e5))][round % 2];
        let ctx = fx.ctx(now, e_bud, f64::INFINITY);
        let pool = Machines::new(type_of, types, true, |m| (now, open[m]));
        for o in [Objective::Upt, Objective::Upe] {
            let mut bounds = UtilityBounds::new(s.tasks.len());
            let mut walk = Walk::default();
            walk.make(&ctx, o);
            assert!(walk.bound.windows(2).all(|w| w[0] > w[1]));
            let (mut floors, mut passing) = (
                EnergyFloors::new(s.matrices.task_types(), P_STATES),
                Passing::new(&ctx),
            );
            let mut bounding = Bounding {
                per_type: vec![(f64::NAN, f64::NAN); s.matrices.task_types()],
                floors: &mut floors,
                passing: &mut passing,
                bounds: &mut bounds,
                o,
            };
            let tasks: Vec<usize> = (0..s.tasks.len())
                .filter(|&i| s.tasks[i].arrival <= now)
                .collect();
            let mut holding = vec![0; s.matrices.task_types()];
            walk.sort(&tasks, &mut holding);
            let mut seen = vec![false; tasks.len()];
            for g in 0..walk.bound.len() {
                let from = if g == 0 { 0 } else { walk.end[g - 1] as usize };
                for &k in &walk.order[from..walk.end[g] as usize] {
                    assert_eq!(walk.of_task[tasks[k as usize]].0 as usize, g);
                    seen[k as usize] = true;
                }
            }
            assert!(seen.iter().all(|&x| x));
            for &i in &tasks {
                let (group, ty) = walk.of_task[i];
                assert_eq!(ty as usize, s.tasks[i].task_type);
                holding[ty as usize] -= 1;
                if let Some((cap, key)) = bounding.enter(&ctx, &pool, f64::INFINITY, i) {
                    assert!(cap <= s.tasks[i].utility.priority());
                    let bound = walk.bound[group as usize];
                    assert!(bound >= total_order(key), "round {round} task {i} {o:?}");
                    entered += 1;
                }
            }
            assert!(holding.iter().all(|&n| n == 0));
        }
    }
    assert!(entered > 10_000, "{entered}");
}

/// Walk groups: at most as many as asked, their bounds descending, and
/// every value in a group no higher than its bound and higher than the
/// next group's, over random values and group counts.
#[test]
fn walk_groups_bound_their_values_in_order() {
    let mut rng = stream(9, 1);
    for round in 0..300 {
        let n = rng.random_range(0..400);
        let spread = [4u64, 50, 1 << 40][round % 3];
        let values: Vec<u64> = (0..n).map(|_| rng.random_range(0..spread)).collect();
        let most = rng.random_range(1..40);
        let (bound, group) = walk_groups(&values, most);
        assert!(bound.len() <= most, "round {round}");
        assert!(bound.windows(2).all(|w| w[0] > w[1]), "round {round}");
        assert_eq!(group.len(), n);
        for (&v, &g) in values.iter().zip(&group) {
            let g = g as usize;
            assert!(bound[g] >= v, "round {round}");
            assert!(
                bound.get(g + 1).is_none_or(|&next| v > next),
                "round {round}"
            );
        }
    }
}

/// A packed heap key orders as (`f64::total_cmp` on the objective,
/// then the lower task first): over signed zeros, infinities,
/// subnormals, neighbours in the last place, NaNs and random values.
#[test]
fn heap_keys_order_as_the_objective_then_the_lower_task() {
    let mut values = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        1.0,
        1.0f64.next_up(),
        1.0f64.next_down(),
        -1.0,
        f64::MAX,
        f64::MIN,
        f64::NAN,
        -f64::NAN,
    ];
    let mut rng = random_stream(7);
    values.extend((0..200).map(|_| rng.random_range(-1e3..1e3)));
    let tasks = [0usize, 1, 2, 1 << 40, usize::MAX >> 1];
    for &a in &values {
        for &b in &values {
            for &i in &tasks {
                for &j in &tasks {
                    let want = a.total_cmp(&b).then(j.cmp(&i));
                    assert_eq!(Key::new(a, i).cmp(&Key::new(b, j)), want, "{a} {i} {b} {j}");
                    assert_eq!(Key::new(a, i).task(), i);
                }
            }
        }
    }
}

/// `earliest_open` and `least_open`, read from the choices sorted by
/// ETC and EEC, are the minima over every open machine type's choices
/// (the earliest completion over the P-states that pass the filter,
/// the least ETC and EEC over the valid ones): on pools with one ready
/// time for every open machine (polled) and with ready times of their
/// own (queued), a few or most machines open, with and without a
/// filter.
#[test]
fn earliest_and_least_are_the_minima_over_the_open_types() {
    let fx = Fixture::of(scenario(6));
    let (m, type_of, types) = (&fx.s.matrices, &fx.type_of, fx.types);
    let eecs: Vec<f64> = (0..m.task_types())
        .flat_map(|ty| (0..types).flat_map(move |mt| (0..P_STATES).map(move |p| (ty, mt, p))))
        .filter_map(|(ty, mt, p)| m.eec(ty, mt, p))
        .collect();
    let mut rng = stream(6, 2);
    let mut shortcut = 0;
    for round in 0..300 {
        let now = rng.random_range(3.0 * 3600.0..20.0 * 3600.0);
        let uniform = round % 2 == 0;
        let q = [0.05, 0.3, 0.9][round % 3];
        let ready: Vec<(f64, bool)> = (0..type_of.len())
            .map(|_| {
                let r = if uniform {
                    now
                } else {
                    now + rng.random_range(0.0..3000.0)
                };
                (r, rng.random_bool(q))
            })
            .collect();
        let pool = Machines::new(type_of, types, uniform, |k| ready[k]);
        shortcut += usize::from(pool.lo == pool.hi);
        let e_bud = (round % 4 != 0).then(|| eecs[rng.random_range(0..eecs.len())]);
        let ctx = fx.ctx(now, e_bud, f64::INFINITY);
        let mut passing = Passing::new(&ctx);
        for ty in 0..m.task_types() {
            let (mut earliest, mut etc, mut eec) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
            for mt in 0..types {
                let Some(best) = pool.best[mt] else { continue };
                for p in 0..P_STATES {
                    if let Some(x) = m.etc(ty, mt, p) {
                        etc = etc.min(x);
                        if m.apc(ty, mt, p).is_some()
                            && !e_bud.is_some_and(|b| x * m.apc(ty, mt, p).unwrap() > b)
                        {
                            earliest = earliest.min(pool.ready[best] + x);
                        }
                    }
                    if let Some(x) = m.eec(ty, mt, p) {
                        eec = eec.min(x);
                    }
                }
            }
            let what = format!("round {round} type {ty}");
            assert_eq!(
                earliest_open(&ctx, &pool, &mut passing, ty),
                earliest,
                "{what}"
            );
            assert_eq!(least_open(&ctx, &pool, Objective::Upt, ty), etc, "{what}");
            assert_eq!(least_open(&ctx, &pool, Objective::Upe, ty), eec, "{what}");
        }
    }
    // Both ways of making the earliest completion were taken.
    assert!((100..=200).contains(&shortcut), "{shortcut}");
}
