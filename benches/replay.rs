//! Environment A on one real Curie day (the default day, intermediate
//! oversubscription, seed 1), for each of the seven heuristics: wall time of
//! a whole replay (criterion), then mapping events and the mean and max
//! heuristic seconds per mapping event of one run (printed).
//!
//! Run: `cargo bench --bench replay`. Needs ../shared/traces (or
//! $SWFTOOL_TRACES) holding CEA-Curie-2011-2.1-cln.swf.gz.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use swftool::catalog;
use swftool::env::parallel::{HEURISTICS, simulate};
use swftool::swf::ReadOptions;
use swftool::workload::{ArrivalRange, Scenario, ScenarioParams, Workload};
use swftool::workload::{DEFAULT_DAY, STANDARD_DAYS};

fn curie_day() -> Scenario {
    let path = catalog::resolve("curie").expect("Curie log on the search path");
    let w = Workload::from_path(&path, &ReadOptions::default()).expect("Curie parses");
    let day = w.day_set(ArrivalRange::Standard).select(STANDARD_DAYS)[DEFAULT_DAY].clone();
    Scenario::build(&w, &day, ScenarioParams::default(), 1).expect("scenario")
}

fn bench(c: &mut Criterion) {
    let sc = curie_day();
    eprintln!(
        "Curie {}: {} tasks ({} counted), system {} cores in {} clusters",
        sc.day.date,
        sc.tasks.len(),
        sc.counted(),
        sc.system.total_cores(),
        sc.system.clusters.len()
    );
    let mut g = c.benchmark_group("curie_day");
    g.sample_size(10);
    for h in HEURISTICS {
        let mut heuristic = h.build(&sc);
        let run = simulate(&sc, heuristic.as_mut());
        let n = run.events.len().max(1) as f64;
        let mean = run.events.iter().map(|e| e.heuristic_seconds).sum::<f64>() / n;
        let max = run
            .events
            .iter()
            .map(|e| e.heuristic_seconds)
            .fold(0.0, f64::max);
        eprintln!(
            "{:<12} mapping events {:>6}  mean {:>8.3} ms/event  max {:>8.3} ms/event",
            h.name,
            run.events.len(),
            mean * 1e3,
            max * 1e3
        );
        g.bench_function(h.name, |b| {
            b.iter(|| {
                let mut heuristic = h.build(&sc);
                black_box(simulate(black_box(&sc), heuristic.as_mut()))
            })
        });
    }
    g.finish();
}

// No HTML plots: criterion's plotters backend wants system fonts, and the
// figures would not be read anyway; the numbers go to the terminal.
criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
