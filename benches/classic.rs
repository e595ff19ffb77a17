//! Classic trace replay (environment D) of whole real logs with EASY and
//! user estimates: SDSC-SP2 (54,034 jobs after cleaning, 128 processors) and
//! CEA Curie (295,540 jobs, 93,312 processors). Parsing and cleaning happen
//! once, outside the timed loop. Also Catalina without and with suspension
//! preemption on the whole SDSC-DS log (84,891 jobs on 184 nodes of 8
//! processors), and the margo2008-datastar preset end to end (parse, clean,
//! window, two runs, invariant checks). Conservative backfilling (kept
//! reservations, compression) on CEA Curie, and Conservative and Catalina
//! on the pathological queue: 4,000 jobs submitted at the same instant on
//! 128 processors. Run: `cargo bench --bench classic`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use swftool::catalog;
use swftool::contract::{Environment, Simulated};
use swftool::env::classic::clean::CleanOptions;
use swftool::env::classic::environment::Classic;
use swftool::env::classic::grid::ClassicSection;
use swftool::env::classic::params::machine_of;
use swftool::env::classic::{self, Policy};
use swftool::swf::{ReadOptions, read_log};

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("classic_easy_user_estimates");
    g.sample_size(10);
    for name in ["sdsc-sp2", "curie"] {
        let path = catalog::resolve(name).expect("log on the search path");
        let log = read_log(&path, &ReadOptions::default()).expect("log parses");
        let machine = machine_of(&log, false, None).expect("machine");
        let (jobs, _) = classic::clean::clean(&log.jobs, &machine, &CleanOptions::default());
        g.throughput(Throughput::Elements(jobs.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                black_box(classic::engine::simulate(
                    black_box(&jobs),
                    machine.capacity,
                    Policy::Backfill { depth: 1 },
                ))
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("classic_conservative_user_estimates");
    g.sample_size(10);
    let path = catalog::resolve("curie").expect("log on the search path");
    let log = read_log(&path, &ReadOptions::default()).expect("log parses");
    let machine = machine_of(&log, false, None).expect("machine");
    let (jobs, _) = classic::clean::clean(&log.jobs, &machine, &CleanOptions::default());
    g.throughput(Throughput::Elements(jobs.len() as u64));
    g.bench_function("curie", |b| {
        b.iter(|| {
            black_box(classic::engine::simulate(
                black_box(&jobs),
                machine.capacity,
                Policy::Backfill { depth: usize::MAX },
            ))
        })
    });
    g.finish();

    let mut g = c.benchmark_group("classic_4000_jobs_at_once_128_procs");
    g.sample_size(10);
    let burst = at_once(4_000, 128);
    g.throughput(Throughput::Elements(burst.len() as u64));
    for name in ["easy", "conservative", "catalina"] {
        let policy = classic::SCHEDULERS.get(name).expect("registered").policy;
        g.bench_function(name, |b| {
            b.iter(|| black_box(classic::engine::simulate(black_box(&burst), 128, policy)))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("classic_catalina_datastar_whole_nodes");
    g.sample_size(10);
    let path = catalog::resolve("datastar").expect("log on the search path");
    let log = read_log(&path, &ReadOptions::default()).expect("log parses");
    let machine = machine_of(&log, true, Some(8)).expect("machine");
    let (jobs, _) = classic::clean::clean(&log.jobs, &machine, &CleanOptions::default());
    g.throughput(Throughput::Elements(jobs.len() as u64));
    for name in ["catalina", "catalina-preempt"] {
        let policy = classic::SCHEDULERS.get(name).expect("registered").policy;
        g.bench_function(name, |b| {
            b.iter(|| {
                black_box(classic::engine::simulate(
                    black_box(&jobs),
                    machine.capacity,
                    policy,
                ))
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("margo2008_datastar_preset");
    g.sample_size(10);
    let preset = swftool::env::configs::preset("margo2008-datastar").expect("preset");
    let section: ClassicSection = preset.section().expect("its section");
    let heuristics = preset.heuristics.clone();
    g.bench_function("parse_clean_window_two_runs", |b| {
        b.iter(|| {
            let log = read_log(&path, &ReadOptions::default()).expect("log parses");
            let (p, scenarios) = Classic::scenarios(
                Some(swftool::contract::Input {
                    log: &log,
                    path: std::path::Path::new("datastar"),
                }),
                &section.classic,
            )
            .expect("window");
            for h in Classic::heuristics(&heuristics, &section.classic).expect("schedulers") {
                let run = Classic::simulate(&scenarios[0], &h);
                black_box(Classic::summarize(Simulated {
                    prepared: &p,
                    args: &section.classic,
                    scenario: &scenarios[0],
                    heuristic: &h,
                    run: &run,
                }));
            }
        })
    });
    g.finish();
    gym(c);
}

/// The Gymnasium environment's core (`swftool.gym`) on lublin_256 cleaned
/// by the `rlscheduler` preset: 20 episodes of 256 jobs from fixed starts,
/// each a reset (with the FCFS, SJF and F1 baselines, and without) and the
/// steps of a policy picking the first waiting job, with EASY around it;
/// and the baselines alone. Throughput in episodes.
fn gym(c: &mut Criterion) {
    use std::sync::Arc;
    use swftool::env::classic::clean::CleanPreset;
    use swftool::env::classic::gym::{GymConfig, GymEnv, GymLog};
    let path = catalog::resolve("lublin_256").expect("log on the search path");
    let log = read_log(&path, &ReadOptions::default()).expect("log parses");
    let machine = machine_of(&log, false, None).expect("machine");
    let options = CleanOptions {
        preset: CleanPreset::Rlscheduler,
        ..CleanOptions::default()
    };
    let (jobs, _) = classic::clean::clean(&log.jobs, &machine, &options);
    let log = Arc::new(GymLog::new("lublin_256", jobs, machine.capacity));
    let starts: Vec<usize> = (0..20).map(|k| 256 + k * 457).collect();
    let mut g = c.benchmark_group("gym_lublin_256_easy");
    g.sample_size(10);
    g.throughput(Throughput::Elements(starts.len() as u64));
    for baselines in [false, true] {
        let config = GymConfig {
            baselines,
            ..GymConfig::default()
        };
        let mut env = GymEnv::new(Arc::clone(&log), config, 0).expect("env");
        let mut obs = vec![0.0f32; env.observation_len()];
        let name = if baselines {
            "episodes_with_baselines"
        } else {
            "episodes"
        };
        g.bench_function(name, |b| {
            b.iter(|| {
                for &s in &starts {
                    env.reset(None, Some(s)).expect("start");
                    env.observe(&mut obs);
                    while !env.step(0).expect("valid").terminated {
                        env.observe(&mut obs);
                    }
                }
                black_box(&obs);
            })
        });
    }
    g.finish();
}

/// `n` jobs submitted at 0 on `capacity` processors: sizes 1..=capacity,
/// runs 1..=3,600 s, estimates 1, 2, 3 or 5 times the run (a fixed
/// linear congruential sequence, so every run sees the same queue).
fn at_once(n: usize, capacity: u32) -> Vec<classic::ClassicJob> {
    let mut x: u64 = 12_345;
    let mut next = |m: u64| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % m
    };
    (0..n)
        .map(|k| {
            let size = 1 + next(u64::from(capacity)) as u32;
            let run = 1.0 + next(3_600) as f64;
            let factor = [1.0, 2.0, 3.0, 5.0][next(4) as usize];
            classic::ClassicJob {
                job_number: k as i64 + 1,
                submit: 0.0,
                run,
                estimate: run * factor,
                processors: size,
                size,
                user: 1,
                group: 1,
                queue: 1,
            }
        })
        .collect()
}

// No HTML plots: criterion's plotters backend wants system fonts.
criterion_group! {
    name = benches;
    config = Criterion::default().without_plots();
    targets = bench
}
criterion_main!(benches);
