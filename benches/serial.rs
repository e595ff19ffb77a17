//! Environment B on synthetic trials of Machovec et al. (§IV, seed 1):
//! for each of the ten heuristics, the wall time of a whole run of the
//! default trial 0 (criterion), then mapping events and the mean and max
//! heuristic milliseconds per mapping event of one run (printed), for the
//! default trial and for the same trial with bursts of 1 (the most groups
//! a heuristic has to look at). Also times generating a trial.
//!
//! Run: `cargo bench --bench serial`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use swftool::env::serial::workload::{SyntheticParams, synthetic};
use swftool::env::serial::{HEURISTICS, simulate};

fn report(label: &str, params: &SyntheticParams) {
    let s = synthetic(params, 1, 0).expect("trial");
    eprintln!(
        "{label}: {} tasks, {} cores in {} clusters",
        s.tasks.len(),
        s.total_cores(),
        s.cores.len()
    );
    for h in HEURISTICS {
        let r = simulate(&s, h.policy);
        eprintln!(
            "  {:<24} mapping events {:>5}  mean {:>7.3} ms/event  max {:>7.3} ms/event  preemptions {:>7}",
            h.name,
            r.events,
            r.heuristic_seconds.0 * 1e3,
            r.heuristic_seconds.1 * 1e3,
            r.preemptions
        );
    }
}

fn bench(c: &mut Criterion) {
    let default = SyntheticParams::default();
    report("default trial 0", &default);
    report(
        "trial 0, bursts of 1",
        &SyntheticParams {
            burst_size: 1,
            ..SyntheticParams::default()
        },
    );
    let s = synthetic(&default, 1, 0).expect("trial");
    let mut g = c.benchmark_group("serial_default_trial");
    g.sample_size(10);
    g.bench_function("generate", |b| {
        b.iter(|| black_box(synthetic(black_box(&default), 1, 0)))
    });
    for h in HEURISTICS {
        g.bench_function(h.name, |b| {
            b.iter(|| black_box(simulate(black_box(&s), h.policy)))
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
