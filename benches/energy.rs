//! Environment C on synthetic trials of Khemka et al. (§IV, seed 1): for
//! each of the twelve heuristics in each of the four management settings
//! (queued or polled, no filter or the adaptive filter), mapping events, the
//! mean mappable tasks and assignments per event, and the mean and max
//! heuristic microseconds per mapping event of one run of
//! trial 0 under the budget calibrated on it (printed), then the wall time
//! of a whole run (criterion) for the queued environment without a filter
//! and the polled one with the adaptive filter. Also times generating a
//! trial.
//!
//! Run: `cargo bench --bench energy`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use swftool::env::energy::environment::budget_for;
use swftool::env::energy::params::EnergyArgs;
use swftool::env::energy::workload::{SyntheticParams, synthetic};
use swftool::env::energy::{Filter, HEURISTICS, Management, RunConfig, simulate};

fn bench(c: &mut Criterion) {
    let params = SyntheticParams::default();
    let s = Arc::new(synthetic(&params, 1, 0).expect("trial"));
    // The command line's model: static power drawn all day.
    let base = EnergyArgs::default().run_config(None);
    let budget = budget_for(std::slice::from_ref(&s), None, &base);
    eprintln!(
        "trial 0: {} tasks; budget {}",
        s.tasks.len(),
        budget.describe()
    );
    let configs: Vec<RunConfig> = Management::ALL
        .iter()
        .flat_map(|&management| {
            [Filter::None, Filter::Adaptive].map(|filter| RunConfig {
                management,
                filter,
                budget: budget.joules(),
                ..base
            })
        })
        .collect();
    for cfg in &configs {
        eprintln!(
            "{} management, filter {}:",
            cfg.management.name(),
            cfg.filter
        );
        for h in HEURISTICS.iter() {
            let r = simulate(&s, h.policy, cfg);
            let n = r.events.len() as f64;
            let mappable = r.events.iter().map(|e| f64::from(e.mappable)).sum::<f64>() / n;
            let assigned = r.events.iter().map(|e| f64::from(e.assigned)).sum::<f64>() / n;
            eprintln!(
                "  {:<10} mapping events {:>5}  mappable {:>6.1}  assigned {:>6.1}  mean {:>8.1} µs/event  max {:>7.3} ms/event",
                h.name,
                r.events.len(),
                mappable,
                assigned,
                r.heuristic_seconds.0 / r.events.len() as f64 * 1e6,
                r.heuristic_seconds.1 * 1e3
            );
        }
    }
    let mut g = c.benchmark_group("energy_trial");
    g.sample_size(10);
    g.bench_function("generate", |b| {
        b.iter(|| black_box(synthetic(black_box(&params), 1, 0)))
    });
    for cfg in [configs[0], configs[3]] {
        for h in HEURISTICS.iter() {
            let id = format!("{}-{}/{}", cfg.management.name(), cfg.filter, h.name);
            g.bench_function(id, |b| {
                b.iter(|| black_box(simulate(black_box(&s), h.policy, &cfg)))
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
