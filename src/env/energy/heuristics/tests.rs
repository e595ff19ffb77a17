//! The loops against the reference implementation at random events, and
//! the tables and bounds they share against the rules they stand for
//! (Min-Min's own bounds: `minmin/tests.rs`).

use rand::{Rng, RngExt};

use super::evaluate::{EnergyFloors, Passing};
use super::*;
use crate::env::energy::matrices::P_STATES;
use crate::env::energy::workload::{SyntheticParams, synthetic};
use crate::env::energy::{EnergyScenario, Objective, Order, PStates, window_energy};
use crate::model::rng::stream;

/// A synthetic trial of 2,000 tasks a day.
pub(super) fn scenario(seed: u64) -> EnergyScenario {
    let params = SyntheticParams {
        tasks_per_day: 2000.0,
        ..SyntheticParams::default()
    };
    synthetic(&params, seed, 0).expect("trial")
}

/// A trial and what every event's context borrows from it.
pub(super) struct Fixture {
    pub(super) s: EnergyScenario,
    pub(super) orders: ChoiceOrders,
    pub(super) task_order: TaskOrder,
    pub(super) type_of: Vec<usize>,
    pub(super) types: usize,
}

impl Fixture {
    pub(super) fn of(s: EnergyScenario) -> Self {
        Fixture {
            orders: ChoiceOrders::new(&s.matrices),
            task_order: TaskOrder::new(&s),
            type_of: s.matrices.machine_type_of(),
            types: s.matrices.machine_types.len(),
            s,
        }
    }

    /// An event at `now` (s) with the filter's share `e_bud` (J) and
    /// `budget_left` (J), refusals not tracked.
    pub(super) fn ctx(&self, now: f64, e_bud: Option<f64>, budget_left: f64) -> Context<'_> {
        Context {
            scenario: &self.s,
            now,
            e_bud,
            budget_left,
            orders: &self.orders,
            track_refusal: false,
            task_order: &self.task_order,
        }
    }
}

/// A random event of `fx` (its rounds vary as `round` does): its time
/// (s), the machines' (ready time, open) in the polled or the queued
/// environment, some of the tasks arrived by then, the filter's share and
/// the budget left. `spread` (s): how much later than now a busy queued
/// machine is ready.
fn event(
    fx: &Fixture,
    rng: &mut impl Rng,
    round: usize,
    polled: bool,
    spread: f64,
) -> (f64, Vec<(f64, bool)>, Vec<usize>, Option<f64>, f64) {
    let s = &fx.s;
    // Some events near the end of the day (hour 26), where a later
    // start counts less energy inside it.
    let hours = [3.0..20.0, 24.5..26.2][usize::from(round % 4 == 3)].clone();
    let now = rng.random_range(hours.start * 3600.0..hours.end * 3600.0);
    let q = [0.1, 0.3, 0.6][round % 3];
    let ready: Vec<(f64, bool)> = (0..fx.type_of.len())
        .map(|_| {
            if polled {
                (now, rng.random_bool(q))
            } else {
                // Some machines share a ready time (idle ones: now).
                let busy = rng.random_bool(0.7);
                let wait = if busy {
                    rng.random_range(0.0..spread)
                } else {
                    0.0
                };
                (now + wait, true)
            }
        })
        .collect();
    let tasks: Vec<usize> = (0..s.tasks.len())
        .filter(|&i| s.tasks[i].arrival <= now && rng.random_bool(0.15))
        .collect();
    let e_bud = [None, Some(rng.random_range(2e4..2e5))][round % 2];
    let budget_left = [f64::INFINITY, rng.random_range(0.0..4e6)][(round / 2) % 2];
    (now, ready, tasks, e_bud, budget_left)
}

/// Random with its shortcuts (the earliest completion kept per task type,
/// the energy floors, the candidates kept, the late machine types passed
/// over) makes the reference implementation's assignments and refusal,
/// and draws as much from its stream, at random events of both
/// environments, with and without a filter and a budget that refuses
/// choices, refusals tracked or not.
#[test]
fn random_makes_the_reference_choices_and_draws() {
    let fx = Fixture::of(scenario(7));
    let (type_of, types) = (&fx.type_of, fx.types);
    let mut rng = stream(7, 3);
    let (mut assigned, mut refused) = (0, 0);
    for round in 0..300 {
        let polled = round % 3 == 0;
        let (now, ready, tasks, e_bud, budget_left) =
            event(&fx, &mut rng, round as usize, polled, 4000.0);
        let track_refusal = round % 5 != 0;
        let ctx = Context {
            track_refusal,
            ..fx.ctx(now, e_bud, budget_left)
        };
        let (mut got_draws, mut want_draws) = (random_stream(round), random_stream(round));
        let mut pool = Machines::new(type_of, types, polled, |m| ready[m]);
        let got = random(&ctx, &tasks, &mut pool, &mut got_draws);
        let mut pool = Machines::new(type_of, types, polled, |m| ready[m]);
        let want = reference::random(&ctx, &tasks, &mut pool, &mut want_draws);
        assert_eq!(got.assignments, want.assignments, "round {round}");
        if track_refusal {
            assert_eq!(got.refused, want.refused, "round {round}");
        }
        assert_eq!(got_draws.next_u64(), want_draws.next_u64(), "round {round}");
        assigned += want.assignments.len();
        refused += usize::from(want.refused);
    }
    assert!(assigned > 5000 && refused > 20, "{assigned} {refused}");
}

/// The eight ordered heuristics make the choices and the refusal of their
/// rule tried plainly, machine by machine ([`reference::ordered`]), at
/// random events of both environments, with and without a filter and a
/// budget that refuses choices, refusals tracked or not: the types kept
/// in the order of their first machines, the merge once the budget
/// refuses, and the skips change nothing.
#[test]
fn ordered_makes_the_reference_choices() {
    let fx = Fixture::of(scenario(9));
    let (type_of, types) = (&fx.type_of, fx.types);
    let mut rng = stream(9, 3);
    let (mut assigned, mut refused) = (0, 0);
    for round in 0..240 {
        let polled = round % 3 == 0;
        let (now, ready, tasks, e_bud, budget_left) = event(&fx, &mut rng, round, polled, 4000.0);
        let track_refusal = round % 5 != 0;
        let ctx = Context {
            track_refusal,
            ..fx.ctx(now, e_bud, budget_left)
        };
        for order in [Order::Fcfs, Order::Lcfs, Order::Pfcfs, Order::Plcfs] {
            for pstates in [PStates::P0, PStates::All] {
                let mut pool = Machines::new(type_of, types, polled, |m| ready[m]);
                let got = ordered(&ctx, &tasks, &mut pool, order, pstates);
                let mut pool = Machines::new(type_of, types, polled, |m| ready[m]);
                let want = reference::ordered(&ctx, &tasks, &mut pool, order, pstates);
                let what = format!("round {round} {order:?} {pstates:?}");
                assert_eq!(got.assignments, want.assignments, "{what}");
                if track_refusal {
                    assert_eq!(got.refused, want.refused, "{what}");
                }
                assigned += want.assignments.len();
                refused += usize::from(want.refused);
            }
        }
    }
    assert!(assigned > 20_000 && refused > 100, "{assigned} {refused}");
}

/// Min-Min with its shortcuts (bounds in the heap, energy floors, the
/// end of the event once no task with a key has an open machine of a
/// type it may run on) makes the reference implementation's assignments
/// and refusal, for the three objectives, on random sets of tasks and
/// pools: polled with a few idle machines (often of the special types
/// only, which most tasks may not use) and queued, with and without a
/// filter, with a budget that does or does not bind.
#[test]
fn minmin_makes_the_reference_choices() {
    let fx = Fixture::of(scenario(8));
    let (s, type_of, types) = (&fx.s, &fx.type_of, fx.types);
    let mut rng = stream(8, 3);
    let (mut assigned, mut closed_early) = (0, 0);
    for round in 0..600 {
        let now = rng.random_range(3.0 * 3600.0..20.0 * 3600.0);
        let polled = round % 3 != 0;
        // Idle machines: a few, all of the special types in some rounds.
        let special_only = round % 4 == 1;
        let q = [0.02, 0.08, 0.3][round % 3];
        let ready: Vec<(f64, bool)> = (0..type_of.len())
            .map(|m| {
                let special = s.matrices.machine_types[type_of[m]].special;
                let open = rng.random_bool(q) && (special || !special_only);
                if polled {
                    (now, open)
                } else {
                    (now + rng.random_range(0.0..3000.0), true)
                }
            })
            .collect();
        let tasks: Vec<usize> = (0..s.tasks.len())
            .filter(|&i| s.tasks[i].arrival <= now && rng.random_bool(0.1))
            .collect();
        let e_bud = [None, Some(rng.random_range(2e4..2e5))][round % 2];
        let budget_left = [f64::INFINITY, rng.random_range(0.0..4e6)][(round / 2) % 2];
        let track_refusal = round % 5 != 0;
        let ctx = Context {
            track_refusal,
            ..fx.ctx(now, e_bud, budget_left)
        };
        for o in [Objective::Util, Objective::Upt, Objective::Upe] {
            let mut pool = Machines::new(type_of, types, polled, |m| ready[m]);
            let mut bounds = UtilityBounds::new(s.tasks.len());
            let got = minmin(&ctx, &tasks, &mut pool, o, &mut bounds);
            closed_early += usize::from(polled && pool.any_open());
            let mut pool = Machines::new(type_of, types, polled, |m| ready[m]);
            let want = reference::minmin(&ctx, &tasks, &mut pool, o);
            assert_eq!(got.assignments, want.assignments, "round {round} {o:?}");
            if track_refusal {
                assert_eq!(got.refused, want.refused, "round {round} {o:?}");
            }
            assigned += want.assignments.len();
        }
    }
    assert!(
        assigned > 5000 && closed_early > 100,
        "{assigned} {closed_early}"
    );
}

/// The counting sort by priority class gives the comparison sort's
/// order (priority, then arrival and index) on random sets of tasks.
#[test]
fn the_priority_order_is_the_comparison_sorts() {
    let s = scenario(4);
    let order = TaskOrder::new(&s);
    assert!(order.by_index && order.classes > 1);
    let mut rng = stream(4, 1);
    for _ in 0..50 {
        let keep = rng.random_range(0.05..1.0);
        let tasks: Vec<usize> = (0..s.tasks.len())
            .filter(|_| rng.random_bool(keep))
            .collect();
        for lcfs in [false, true] {
            let mut got = Vec::new();
            order.by_priority(&tasks, lcfs, &mut got).expect("by index");
            let mut want = tasks.clone();
            want.sort_by(|&a, &b| {
                let (ta, tb) = (&s.tasks[a], &s.tasks[b]);
                let within = ta.arrival.total_cmp(&tb.arrival).then(a.cmp(&b));
                tb.utility
                    .priority()
                    .total_cmp(&ta.utility.priority())
                    .then(if lcfs { within.reverse() } else { within })
            });
            assert_eq!(got, want, "lcfs {lcfs}");
        }
    }
}

/// The filter's masks and `any_passes`, made from the EECs kept in
/// [`ChoiceOrders`], are the matrices' rule (valid, and ETC · APC not
/// above e_bud), for shares across the range of EECs, at their exact
/// values and one ulp either side, with and without static power.
#[test]
fn passing_masks_are_the_matrices_rule() {
    for static_w in [0.0, 50.0] {
        let mut s = scenario(5);
        s.matrices.set_static_power(static_w);
        let fx = Fixture::of(s);
        let orders = &fx.orders;
        let m = &fx.s.matrices;
        let types = m.machine_types.len();
        let mut shares = vec![None, Some(0.0), Some(f64::INFINITY), Some(f64::NAN)];
        for ty in (0..m.task_types()).step_by(7) {
            for mt in 0..types {
                for p in 0..P_STATES {
                    if let Some(e) = m.eec(ty, mt, p) {
                        shares.extend([e.next_down(), e, e.next_up()].map(Some));
                    }
                }
            }
        }
        let mut differs = 0;
        for &e_bud in &shares {
            let ctx = fx.ctx(0.0, e_bud, 0.0);
            let mut passing = Passing::new(&ctx);
            for ty in 0..m.task_types() {
                let mut any = [false; 2];
                for mt in 0..types {
                    let want = (0..P_STATES).fold(0u8, |mask, p| {
                        let passes = match (m.etc(ty, mt, p), m.apc(ty, mt, p)) {
                            (Some(etc), Some(apc)) => !e_bud.is_some_and(|b| etc * apc > b),
                            _ => false,
                        };
                        mask | (u8::from(passes) << p)
                    });
                    assert_eq!(passing.of(&ctx, ty, mt), want, "{ty} {mt} {e_bud:?}");
                    any[0] |= want & 1 != 0;
                    any[1] |= want != 0;
                    differs += usize::from(want != orders.valid[ty * types + mt]);
                }
                for (k, tries) in [1, P_STATES].into_iter().enumerate() {
                    let floors = EnergyFloors::new(m.task_types(), tries);
                    assert_eq!(
                        floors.any_passes(&ctx, ty),
                        any[k],
                        "{ty} {tries} {e_bud:?}"
                    );
                }
            }
        }
        assert!(differs > 1000, "{differs}");
    }
}

/// An energy floor is never above the energy an evaluation computes
/// for a choice it covers (any start between the pool's earliest and
/// latest ready times, in the warm-up, the day or past its end), and
/// it is infinite exactly when no covered choice passes the filter.
#[test]
fn energy_floors_never_exceed_an_evaluated_energy() {
    let fx = Fixture::of(scenario(6));
    let (s, type_of, types) = (&fx.s, &fx.type_of, fx.types);
    let (w0, w1) = s.window;
    let mut rng = stream(6, 2);
    // Choices evaluated, bounds that exclude a choice at once, and
    // bounds over the first passing P-states above those over all.
    let (mut checked, mut positive, mut tighter) = (0, 0, 0);
    for round in 0..200 {
        let base = rng.random_range(0.0..w1 + 3600.0);
        let spread = [0.0, 60.0, 5000.0][round % 3];
        let ready: Vec<f64> = (0..type_of.len())
            .map(|_| base + rng.random_range(0.0..=spread))
            .collect();
        let pool = Machines::new(type_of, types, false, |m| (ready[m], true));
        let e_bud = [None, Some(rng.random_range(1e4..2e5))][round % 2];
        let ctx = fx.ctx(base, e_bud, 0.0);
        for (tries, first) in [(1, false), (P_STATES, false), (P_STATES, true)] {
            let mut floors = if first {
                EnergyFloors::first_passing(s.matrices.task_types(), tries)
            } else {
                EnergyFloors::new(s.matrices.task_types(), tries)
            };
            for ty in 0..s.matrices.task_types() {
                floors.refuse(&ctx, &pool, ty, 0.0);
                let passes = floors.passes[ty].expect("known after refuse");
                let floor = floors.compute(&ctx, pool.lo, ty);
                assert_eq!(passes, floor < f64::INFINITY, "type {ty}");
                if passes {
                    // Made for a latest ready time at or past the pool's.
                    assert!(floors.hi >= pool.hi, "type {ty}");
                    assert_eq!(floors.floor[ty].to_bits(), floor.to_bits(), "type {ty}");
                }
                let mut covered = 0;
                for (m, &r) in ready.iter().enumerate() {
                    let mt = type_of[m];
                    for p in 0..tries {
                        let (Some(etc), Some(apc)) =
                            (s.matrices.etc(ty, mt, p), s.matrices.apc(ty, mt, p))
                        else {
                            continue;
                        };
                        if e_bud.is_some_and(|b| etc * apc > b) {
                            continue;
                        }
                        covered += 1;
                        let energy = window_energy(apc, r, r + etc, s.window);
                        assert!(
                            floor <= energy,
                            "type {ty} on {mt} P{p} from {r} (day {w0}–{w1}): \
                             floor {floor} > energy {energy}"
                        );
                        if first {
                            // The only P-state evaluated on the type.
                            break;
                        }
                    }
                }
                assert_eq!(covered == 0, floor == f64::INFINITY, "type {ty}");
                if first {
                    let all = EnergyFloors {
                        first_only: false,
                        ..floors.clone()
                    };
                    let all = all.compute(&ctx, pool.lo, ty);
                    assert!(floor >= all, "type {ty}: {floor} < {all}");
                    tighter += usize::from(floor > all);
                }
                checked += covered;
                positive += usize::from(floor > 0.0 && floor.is_finite());
            }
        }
    }
    assert!(
        checked > 100_000 && positive > 1000 && tighter > 1000,
        "{checked} {positive} {tighter}"
    );
}
