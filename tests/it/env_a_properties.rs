//! Properties of environment A over generated scenarios: every heuristic's
//! schedule keeps the invariants, and the same scenario gives the same
//! schedule twice.

use crate::common;

use common::{Spec, run, scenario};
use proptest::prelude::*;
use swftool::env::parallel::HEURISTICS;

fn specs() -> impl Strategy<Value = (Vec<(u32, u32)>, Vec<Spec>)> {
    let clusters = prop::collection::vec((1u32..6, prop::sample::select(vec![1u32, 2, 4])), 1..4);
    clusters
        .prop_flat_map(|cl| {
            let nc = cl.len();
            let task = (
                0u32..200,                            // arrival
                1u32..12,                             // cores
                prop::collection::vec(1u32..120, nc), // ETC row
                1u32..100,                            // start value
                0u32..200,                            // soft slack
                0u32..200,                            // hard slack
            );
            (Just(cl), prop::collection::vec(task, 1..25))
        })
        .prop_map(|(cl, tasks)| {
            let mut specs: Vec<Spec> = tasks
                .into_iter()
                .enumerate()
                .map(|(i, (arr, cores, etc, v, soft, hard))| {
                    let etc: Vec<f64> = etc.into_iter().map(f64::from).collect();
                    let avg = etc.iter().sum::<f64>() / etc.len() as f64;
                    let soft_deadline = f64::from(arr) + avg + f64::from(soft);
                    Spec {
                        job: i as i64 + 1,
                        arrival: f64::from(arr),
                        cores,
                        etc,
                        value: f64::from(v),
                        soft: soft_deadline,
                        hard: soft_deadline + f64::from(hard),
                    }
                })
                .collect();
            specs.sort_by(|a, b| a.arrival.total_cmp(&b.arrival).then(a.job.cmp(&b.job)));
            (cl, specs)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_heuristic_keeps_the_invariants((clusters, specs) in specs()) {
        let sc = scenario(&clusters, specs);
        for h in HEURISTICS {
            // `run` asserts the invariant checker finds nothing
            let r = run(&sc, h.name);
            let earned: f64 = r.outcomes.iter().map(|o| o.value).sum();
            prop_assert!(earned <= sc.value_bound() + 1e-9);
            // deterministic: a second run gives the same schedule
            let again = run(&sc, h.name);
            prop_assert_eq!(&r.outcomes, &again.outcomes);
        }
    }
}
