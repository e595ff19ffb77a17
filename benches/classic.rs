//! Classic trace replay (environment D) of whole real logs with EASY and
//! user estimates: SDSC-SP2 (54,034 jobs after cleaning, 128 processors) and
//! CEA Curie (295,540 jobs, 93,312 processors). Parsing and cleaning happen
//! once, outside the timed loop. Run: `cargo bench --bench classic`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use swftool::catalog;
use swftool::cmd::replay_classic::machine_of;
use swftool::env::classic::clean::CleanOptions;
use swftool::env::classic::{self, Policy};
use swftool::swf::{ReadOptions, read_log};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("classic_easy_user_estimates");
    g.sample_size(10);
    for name in ["sdsc-sp2", "curie"] {
        let path = catalog::resolve(name).expect("log on the search path");
        let log = read_log(&path, &ReadOptions::default()).expect("log parses");
        let machine = machine_of(&log, false, None).expect("machine");
        let (jobs, _) = classic::clean(&log.jobs, &machine, &CleanOptions::default());
        g.throughput(Throughput::Elements(jobs.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                black_box(classic::simulate(
                    black_box(&jobs),
                    machine.capacity,
                    Policy::Backfill { depth: 1 },
                ))
            })
        });
    }
    g.finish();
}

// No HTML plots: criterion's plotters backend wants system fonts.
criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
