//! Environment C on its synthetic trials (Khemka et al., §IV): every
//! heuristic in every management setting on a default trial passes the
//! schedule checker and uses no more energy than the budget; without a
//! filter the "all P-states" heuristics equal their "P-state 0" ones; the
//! budget calibrated as the paper's §IV.D lies within 15 % of its 1.11 GJ;
//! runs are deterministic; and small trials of any seed, management, filter
//! and budget pass the checker (proptest).

use std::sync::Arc;

use proptest::prelude::*;
use swftool::env::energy::check::check;
use swftool::env::energy::engine::simulate;
use swftool::env::energy::environment::budget_for;
use swftool::env::energy::params::EnergyArgs;
use swftool::env::energy::summary::summarize;
use swftool::env::energy::workload::{SyntheticParams, synthetic};
use swftool::env::energy::{Filter, HEURISTICS, Management, Order, PStates, Policy, RunConfig};

/// The command line's model (static power drawn all day) in the four
/// management settings.
fn configs(budget: Option<f64>) -> Vec<RunConfig> {
    Management::ALL
        .iter()
        .flat_map(|&management| {
            [Filter::None, Filter::Adaptive].map(|filter| RunConfig {
                management,
                filter,
                ..EnergyArgs::default().run_config(budget)
            })
        })
        .collect()
}

#[test]
fn every_heuristic_in_every_setting_on_a_default_trial_passes_the_checker() {
    let s = Arc::new(synthetic(&SyntheticParams::default(), 1, 0).unwrap());
    let budget = budget_for(
        std::slice::from_ref(&s),
        None,
        &EnergyArgs::default().run_config(None),
    );
    let e = budget.joules().unwrap();
    for cfg in configs(Some(e)) {
        let mut pct = Vec::new();
        for h in HEURISTICS.iter() {
            let run = simulate(&s, h.policy, &cfg);
            let v = check(&s, &run, cfg.management);
            assert!(
                v.is_empty(),
                "{} {:?}: {:?}",
                h.name,
                cfg,
                &v[..v.len().min(3)]
            );
            assert!(run.energy + run.static_j <= e * (1.0 + 1e-9));
            let sum = summarize(&s, h.name, &cfg, &run);
            assert!(sum.utility > 0.0 && sum.utility <= sum.max_utility);
            assert_eq!(
                sum.completed
                    + sum.dropped
                    + sum.unmapped
                    + sum.unfinished
                    + run.executions.iter().filter(|x| x.end < s.window.0).count(),
                s.tasks.len()
            );
            pct.push((h.name, sum.percent()));
        }
        // The utility-aware heuristics beat FCFS and Random (the paper's
        // Fig. 4); Max UPE earns the most.
        let of = |n: &str| pct.iter().find(|p| p.0 == n).unwrap().1;
        for n in ["maxutil", "maxupt", "maxupe"] {
            assert!(
                of(n) > of("fcfs-p0") && of(n) > of("random"),
                "{n}: {pct:?}"
            );
        }
        let best = pct.iter().map(|p| p.1).fold(0.0, f64::max);
        assert_eq!(best, of("maxupe"), "{cfg:?}: {pct:?}");
    }
}

#[test]
fn without_a_filter_all_p_states_equals_p_state_0() {
    let s = synthetic(&SyntheticParams::default(), 1, 3).unwrap();
    for cfg in configs(Some(8e8))
        .into_iter()
        .filter(|c| c.filter == Filter::None)
    {
        for order in [Order::Fcfs, Order::Lcfs, Order::Pfcfs, Order::Plcfs] {
            let p0 = simulate(
                &s,
                Policy::Ordered {
                    order,
                    pstates: PStates::P0,
                },
                &cfg,
            );
            let all = simulate(
                &s,
                Policy::Ordered {
                    order,
                    pstates: PStates::All,
                },
                &cfg,
            );
            assert_eq!(p0.executions, all.executions, "{order:?} {cfg:?}");
            assert!(p0.executions.iter().all(|e| e.pstate == 0));
        }
    }
}

#[test]
fn the_calibrated_budget_is_within_15_percent_of_the_papers() {
    // The default model: 0.7 × (the 50 W the 100 machines draw all day +
    // the tasks' dynamic energy under Max UPT).
    let trials: Vec<_> = (0..4)
        .map(|t| Arc::new(synthetic(&SyntheticParams::default(), 1, t).unwrap()))
        .collect();
    let e = budget_for(&trials, None, &EnergyArgs::default().run_config(None))
        .joules()
        .unwrap();
    assert!((e / 1.11e9 - 1.0).abs() < 0.15, "{e}");
}

#[test]
fn runs_are_deterministic() {
    let s = synthetic(&SyntheticParams::default(), 2, 1).unwrap();
    for h in HEURISTICS
        .iter()
        .filter(|h| ["random", "maxupe"].contains(&h.name))
    {
        let cfg = RunConfig {
            management: Management::Polled,
            filter: Filter::Adaptive,
            budget: Some(9e8),
            ..RunConfig::default()
        };
        let a = simulate(&s, h.policy, &cfg);
        let b = simulate(&s, h.policy, &cfg);
        assert_eq!(a.executions, b.executions);
        assert_eq!(a.fates, b.fates);
        assert_eq!(a.events, b.events);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn small_trials_of_any_setting_pass_the_checker(
        seed in 0u64..1000,
        polled in any::<bool>(),
        filter in 0u8..3,
        budget in prop::option::of(1e7f64..3e8),
        heuristic in 0usize..12,
    ) {
        let p = SyntheticParams { tasks_per_day: 3000.0, ..SyntheticParams::default() };
        let s = synthetic(&p, seed, 0).unwrap();
        let cfg = RunConfig {
            management: if polled { Management::Polled } else { Management::Queued },
            filter: match (filter, budget) {
                (_, None) | (0, _) => Filter::None,
                (1, _) => Filter::Adaptive,
                _ => Filter::Fixed(1.5),
            },
            budget,
            ..RunConfig::default()
        };
        let h = &HEURISTICS.entries[heuristic];
        let run = simulate(&s, h.policy, &cfg);
        let v = check(&s, &run, cfg.management);
        prop_assert!(v.is_empty(), "{} {:?}: {:?}", h.name, cfg, v);
    }
}
