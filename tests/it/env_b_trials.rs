//! Environment B on generated workloads: the schedule checker on every run
//! (a full default trial of Machovec et al. §IV with all ten heuristics,
//! and many small random trials), preemptive heuristics equal to their
//! base at flag probability 0, and determinism.

use proptest::prelude::*;
use rayon::prelude::*;

use swftool::env::serial::workload::{SyntheticParams, synthetic};
use swftool::env::serial::{
    HEURISTICS, Objective, Policy, Preemption, SerialRun, SerialScenario, check::check, simulate,
    summary::summarize,
};
use swftool::model::utility::Shape;

/// The run without its wall-clock timing, for comparisons.
fn schedule(r: &SerialRun) -> SerialRun {
    SerialRun {
        heuristic_seconds: (0.0, 0.0),
        ..r.clone()
    }
}

fn checked(s: &SerialScenario, policy: Policy) -> SerialRun {
    let r = simulate(s, policy);
    let broken = check(s, &r);
    assert!(
        broken.is_empty(),
        "{policy:?} on {}: {:#?}",
        s.name,
        &broken[..broken.len().min(10)]
    );
    r
}

/// A small system: 5 clusters of 24 cores, the paper's workload scaled to
/// it (about 9,000 tasks in 28 h).
fn small(p: f64, shape: Shape, burst_size: u32) -> SyntheticParams {
    SyntheticParams {
        mean_cores: 24,
        fixed_cores: true,
        flag_probability: p,
        shape,
        burst_size,
        ..SyntheticParams::default()
    }
}

#[test]
fn a_full_default_trial_passes_the_checker_under_every_heuristic() {
    let s = synthetic(&SyntheticParams::default(), 1, 0).unwrap();
    assert!(s.tasks.len() > 50_000, "{} tasks", s.tasks.len());
    let summaries: Vec<_> = HEURISTICS
        .entries
        .par_iter()
        .map(|e| summarize(&s, e.name, &checked(&s, e.policy)))
        .collect();
    let pct = |name: &str| {
        summaries
            .iter()
            .find(|x| x.heuristic == name)
            .unwrap()
            .percent()
    };
    // The paper's ordering (§V, Fig. 3, classes): utility-aware beats the
    // comparison heuristics, Greedy and Diff beat their base.
    assert!(pct("maxutil") > pct("fcfs") && pct("maxutil") > pct("random"));
    assert!(pct("maxupt-preempt-greedy") > pct("maxupt"));
    assert!(pct("maxutil-preempt-diff") > pct("maxutil"));
    for x in &summaries {
        assert!(x.utility <= x.max_utility);
        assert_eq!(x.counted, x.completed + x.dropped + x.unfinished);
        if !matches!(
            HEURISTICS.get(&x.heuristic).unwrap().policy,
            Policy::MinMin {
                preemption: Preemption::Greedy | Preemption::Diff | Preemption::Pair,
                ..
            }
        ) {
            assert_eq!(x.preemptions, 0, "{}", x.heuristic);
        }
    }
}

#[test]
fn at_flag_probability_zero_each_preemptive_heuristic_is_its_base() {
    for shape in [Shape::Step, Shape::Classes] {
        let s = synthetic(&small(0.0, shape, 16), 5, 1).unwrap();
        for objective in [Objective::Util, Objective::Upt] {
            let base = checked(
                &s,
                Policy::MinMin {
                    objective,
                    preemption: Preemption::None,
                },
            );
            for preemption in [Preemption::Greedy, Preemption::Diff, Preemption::Pair] {
                let r = checked(
                    &s,
                    Policy::MinMin {
                        objective,
                        preemption,
                    },
                );
                assert_eq!(r.preemptions, 0);
                assert_eq!(
                    schedule(&r),
                    schedule(&base),
                    "{objective:?} {preemption:?} {shape}"
                );
            }
        }
    }
}

#[test]
fn the_same_scenario_gives_the_same_schedule() {
    let s = synthetic(&small(0.6, Shape::Classes, 32), 9, 4).unwrap();
    for e in HEURISTICS.entries {
        let a = simulate(&s, e.policy);
        let b = simulate(&s, e.policy);
        assert_eq!(schedule(&a), schedule(&b), "{}", e.name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

    /// Any small trial, any heuristic: the checker finds nothing, counts add
    /// up, utility stays under the bound.
    #[test]
    fn every_heuristic_keeps_the_invariants_on_generated_trials(
        seed in 0u64..1_000,
        p in 0u32..=100,
        shape in prop::sample::select(Shape::ALL.to_vec()),
        burst in prop::sample::select(vec![1u32, 4, 16, 64]),
    ) {
        let params = SyntheticParams {
            mean_cores: 6,
            fixed_cores: false,
            types: 20,
            critical_types: 4,
            flag_probability: f64::from(p) / 100.0,
            shape,
            burst_size: burst,
            ..SyntheticParams::default()
        };
        let s = synthetic(&params, seed, 0).unwrap();
        for e in HEURISTICS.entries {
            let r = simulate(&s, e.policy);
            let broken = check(&s, &r);
            prop_assert!(broken.is_empty(), "{}: {:?}", e.name, &broken[..broken.len().min(5)]);
            let x = summarize(&s, e.name, &r);
            prop_assert_eq!(x.counted, x.completed + x.dropped + x.unfinished);
            prop_assert!(x.utility <= x.max_utility);
        }
    }
}
