//! Environment C on synthetic trials of Khemka et al. (§IV, seed 1): for
//! each of the twelve heuristics in each of the four management settings
//! (queued or polled, no filter or the adaptive filter), mapping events, the
//! mean mappable tasks and assignments per event, and the heuristic
//! microseconds per mapping event on trial 0 under the budget calibrated on
//! it (printed): the mean per event of the run whose mean is lowest among
//! `SWFTOOL_BENCH_RUNS` runs (default 3; the runs are the same schedule, so
//! a busier machine only adds time), the median of those means, and the
//! worst event of the best run. Then the wall time of a whole run
//! (criterion) for the queued environment without a filter and the polled
//! one with the adaptive filter. Also times generating a trial.
//!
//! Run: `cargo bench --bench energy` (`SWFTOOL_BENCH_RUNS=1` for one run
//! of each; `SWFTOOL_BENCH_ONLY=queued-none/fcfs-p0` times only the
//! settings and heuristics whose `MANAGEMENT-FILTER/HEURISTIC` name
//! contains that text, e.g. `queued-` or `/maxupe`, for a profiler).

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use swftool::env::energy::engine::simulate;
use swftool::env::energy::environment::budget_for;
use swftool::env::energy::params::EnergyArgs;
use swftool::env::energy::workload::{SyntheticParams, synthetic};
use swftool::env::energy::{Filter, HEURISTICS, Management, RunConfig};

fn bench(c: &mut Criterion) {
    let runs = match std::env::var("SWFTOOL_BENCH_RUNS") {
        Ok(v) => match v.parse::<usize>() {
            Ok(n) if n > 0 => n,
            _ => {
                eprintln!(
                    "error: SWFTOOL_BENCH_RUNS={v:?}: give a whole number of runs, 1 or more"
                );
                std::process::exit(2);
            }
        },
        Err(_) => 3,
    };
    let only = std::env::var("SWFTOOL_BENCH_ONLY").unwrap_or_default();
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
    eprintln!("heuristic time per mapping event: the best of {runs} run(s) of each");
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
    let name = |cfg: &RunConfig, h: &str| format!("{}-{}/{h}", cfg.management.name(), cfg.filter);
    for cfg in &configs {
        if !HEURISTICS.iter().any(|h| name(cfg, h.name).contains(&only)) {
            continue;
        }
        eprintln!(
            "{} management, filter {}:",
            cfg.management.name(),
            cfg.filter
        );
        for h in HEURISTICS
            .iter()
            .filter(|h| name(cfg, h.name).contains(&only))
        {
            // (mean µs per event, worst ms) of each run, lowest mean first.
            let mut timed: Vec<(f64, f64)> = Vec::with_capacity(runs);
            let mut r = simulate(&s, h.policy, cfg);
            loop {
                let per_event = r.heuristic_seconds.0 / r.events.len() as f64 * 1e6;
                timed.push((per_event, r.heuristic_seconds.1 * 1e3));
                if timed.len() == runs {
                    break;
                }
                r = simulate(&s, h.policy, cfg);
            }
            timed.sort_by(|a, b| a.0.total_cmp(&b.0));
            let n = r.events.len() as f64;
            let mappable = r.events.iter().map(|e| f64::from(e.mappable)).sum::<f64>() / n;
            let assigned = r.events.iter().map(|e| f64::from(e.assigned)).sum::<f64>() / n;
            eprintln!(
                "  {:<10} mapping events {:>5}  mappable {:>6.1}  assigned {:>6.1}  mean {:>8.1} µs/event (median {:>6.1})  max {:>7.3} ms/event",
                h.name,
                r.events.len(),
                mappable,
                assigned,
                timed[0].0,
                timed[timed.len() / 2].0,
                timed[0].1
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
            let id = name(&cfg, h.name);
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
