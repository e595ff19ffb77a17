//! The synthetic trials and the days cut from a log against the model's
//! figures, and the parameters refused by name.

use super::*;
use crate::model::rng::derive_seed;

fn critical_share(s: &SerialScenario) -> f64 {
    let c = s
        .tasks
        .iter()
        .filter(|t| s.types[t.task_type].critical)
        .count();
    c as f64 / s.tasks.len() as f64
}

#[test]
fn burst_sizes_stay_within_half_the_mean_either_side() {
    assert_eq!(burst_size_range(64), (32, 96));
    assert_eq!(burst_size_range(1), (1, 1));
    assert_eq!(burst_size_range(3), (2, 4));
    let params = SyntheticParams {
        burst_size: 16,
        ..SyntheticParams::default()
    };
    let s = synthetic(&params, 1, 0).unwrap();
    let mut sizes = vec![0u64; s.tasks.last().unwrap().burst + 1];
    for t in &s.tasks {
        sizes[t.burst] += 1;
    }
    assert!(sizes.iter().all(|&n| (8..=24).contains(&n)), "{sizes:?}");
    assert!(sizes.contains(&8) && sizes.contains(&24));
    // A burst is one type, one instant, one utility function.
    for w in s.tasks.windows(2) {
        if w[0].burst == w[1].burst {
            assert_eq!(w[0].arrival, w[1].arrival);
            assert_eq!(w[0].task_type, w[1].task_type);
            assert_eq!(w[0].spec, w[1].spec);
        } else {
            assert_eq!(w[1].burst, w[0].burst + 1);
        }
    }
}

#[test]
fn about_75_tasks_per_core_and_day_and_20_percent_critical() {
    let params = SyntheticParams::default();
    let (mut per_core_day, mut critical) = (0.0, 0.0);
    let trials = 8;
    for trial in 0..trials {
        let s = synthetic(&params, 7, trial).unwrap();
        let counted = (0..s.tasks.len()).filter(|&i| s.counted(i)).count();
        per_core_day += counted as f64 / f64::from(s.total_cores());
        critical += critical_share(&s);
    }
    let per_core_day = per_core_day / trials as f64;
    let critical = critical / trials as f64;
    assert!((per_core_day - 75.0).abs() < 75.0 * 0.04, "{per_core_day}");
    assert!((critical - 0.2).abs() < 0.02, "{critical}");
}

#[test]
fn arrivals_are_whole_seconds_in_28_hours_sorted_and_numbered() {
    let s = synthetic(&SyntheticParams::default(), 1, 3).unwrap();
    assert_eq!(s.name, "trial-3");
    assert_eq!(s.seed, derive_seed(1, 3));
    assert_eq!(s.window, (4.0 * 3600.0, 28.0 * 3600.0));
    assert_eq!(s.types.len(), 100);
    assert_eq!(s.types.iter().filter(|t| t.critical).count(), 20);
    for (i, t) in s.tasks.iter().enumerate() {
        assert_eq!(t.job_number, i as i64 + 1);
        assert_eq!(t.arrival.fract(), 0.0);
        assert!((0.0..28.0 * 3600.0).contains(&t.arrival));
        assert_eq!(t.utility, t.spec.build().unwrap());
        let critical = s.types[t.task_type].critical;
        assert_eq!(t.spec.priority, if critical { 8.0 } else { 1.0 });
        assert!((1..=20).contains(&t.spec.class));
    }
    assert!(s.tasks.windows(2).all(|w| w[0].arrival <= w[1].arrival));
}

#[test]
fn the_same_seed_gives_the_same_scenario_and_another_trial_another() {
    let p = SyntheticParams::default();
    let a = synthetic(&p, 5, 1).unwrap();
    assert_eq!(a, synthetic(&p, 5, 1).unwrap());
    assert_ne!(a.tasks, synthetic(&p, 5, 2).unwrap().tasks);
}

#[test]
fn flag_sets_are_nested_across_probabilities_and_keep_everything_else() {
    let at = |p: f64| {
        synthetic(
            &SyntheticParams {
                flag_probability: p,
                ..SyntheticParams::default()
            },
            1,
            0,
        )
        .unwrap()
    };
    let runs: Vec<SerialScenario> = [0.0, 0.2, 0.4, 1.0].into_iter().map(at).collect();
    assert!(
        runs[0]
            .tasks
            .iter()
            .all(|t| !t.can_preempt && !t.preemptible)
    );
    assert!(runs[3].tasks.iter().all(|t| t.can_preempt && t.preemptible));
    let (lo, hi) = (&runs[1], &runs[2]);
    let share = lo.tasks.iter().filter(|t| t.can_preempt).count() as f64 / lo.tasks.len() as f64;
    assert!((share - 0.2).abs() < 0.01, "{share}");
    for (a, b) in lo.tasks.iter().zip(&hi.tasks) {
        assert!(!a.can_preempt || b.can_preempt);
        assert!(!a.preemptible || b.preemptible);
        assert_eq!(
            (a.job_number, a.arrival, a.task_type, a.spec),
            (b.job_number, b.arrival, b.task_type, b.spec)
        );
    }
    assert_eq!(lo.types, hi.types);
    assert_eq!(lo.cores, hi.cores);
}

#[test]
fn the_shape_changes_only_the_utility_functions() {
    let at = |shape| {
        synthetic(
            &SyntheticParams {
                shape,
                ..SyntheticParams::default()
            },
            1,
            4,
        )
        .unwrap()
    };
    let (step, decaying, classes) = (at(Shape::Step), at(Shape::Decaying), at(Shape::Classes));
    for ((a, b), c) in step.tasks.iter().zip(&decaying.tasks).zip(&classes.tasks) {
        assert_eq!(
            (a.arrival, a.task_type, a.burst),
            (c.arrival, c.task_type, c.burst)
        );
        assert_eq!(
            (b.arrival, b.task_type, b.burst),
            (c.arrival, c.task_type, c.burst)
        );
        assert_eq!(
            (a.can_preempt, a.preemptible),
            (c.can_preempt, c.preemptible)
        );
        let mean = classes.types[c.task_type].mean_etc();
        assert_eq!(b.spec.scale, mean);
        assert_eq!(b.spec.urgency, Urgency::Medium);
        if classes.types[c.task_type].critical {
            assert_eq!(a.spec.scale, mean);
        } else {
            assert_eq!(a.spec.scale, 10.0 * mean);
        }
    }
    assert_eq!(step.tasks.len(), classes.tasks.len());
}

#[test]
fn the_critical_etc_scales_only_the_critical_rows() {
    let at = |minutes: f64| {
        synthetic(
            &SyntheticParams {
                critical_etc_s: minutes * 60.0,
                ..SyntheticParams::default()
            },
            1,
            0,
        )
        .unwrap()
    };
    let (ten, fifty) = (at(10.0), at(50.0));
    assert_eq!(ten.tasks.len(), fifty.tasks.len());
    for (a, b) in ten.types.iter().zip(&fifty.types) {
        for (x, y) in a.etc.iter().zip(&b.etc) {
            if a.critical {
                assert!((y / x - 5.0).abs() < 1e-9);
            } else {
                assert_eq!(x, y);
            }
        }
    }
}

#[test]
fn fixed_cores_gives_160_per_cluster() {
    let s = synthetic(
        &SyntheticParams {
            fixed_cores: true,
            ..SyntheticParams::default()
        },
        1,
        0,
    )
    .unwrap();
    assert_eq!(s.cores, vec![160; 5]);
    let drawn = synthetic(&SyntheticParams::default(), 1, 0).unwrap();
    assert_eq!(drawn.cores.len(), 5);
    assert_ne!(drawn.cores, vec![160; 5]);
}

#[test]
fn nonsense_parameters_name_their_flag() {
    let msg = |p: SyntheticParams| synthetic(&p, 1, 0).unwrap_err().to_string();
    let d = SyntheticParams::default;
    assert!(
        msg(SyntheticParams {
            burst_size: 0,
            ..d()
        })
        .starts_with("--burst-size 0:")
    );
    for p in [1.5, -0.1, f64::NAN] {
        let m = msg(SyntheticParams {
            flag_probability: p,
            ..d()
        });
        assert!(m.starts_with("--flag-probability"), "{m}");
    }
    for e in [0.0, -600.0, f64::INFINITY] {
        let m = msg(SyntheticParams {
            critical_etc_s: e,
            ..d()
        });
        assert!(m.starts_with("--critical-etc"), "{m}");
    }
    assert!(
        msg(SyntheticParams {
            mean_cores: 0,
            ..d()
        })
        .contains("mean_cores")
    );
    assert!(
        msg(SyntheticParams {
            critical_types: 101,
            ..d()
        })
        .contains("critical_types")
    );
    assert!(
        msg(SyntheticParams {
            mean_cores: 1_000_000,
            ..d()
        })
        .contains("more than swftool builds")
    );
}

#[test]
fn apportioning_keeps_the_total_and_one_core_each() {
    assert_eq!(apportion(10, &[1.0, 1.0, 1.0]), vec![4, 3, 3]);
    assert_eq!(apportion(5, &[100.0, 1e-9, 1e-9, 1e-9, 1e-9]), vec![1; 5]);
    let c = apportion(803, &[0.9, 1.1, 1.3, 0.7, 1.0]);
    assert_eq!(c.iter().map(|&x| u64::from(x)).sum::<u64>(), 803);
}

fn curie() -> Workload {
    let path = crate::catalog::resolve("curie").expect("Curie in ../shared/traces");
    Workload::from_path(&path, &crate::swf::ReadOptions::default()).expect("Curie parses")
}

#[test]
fn a_curie_day_is_sized_to_the_offered_load() {
    let w = curie();
    let day = w.day_by_date("2012-07-09").expect("a candidate day");
    let params = LogParams::default();
    let s = from_day(&w, &day, &params, 1).unwrap();
    assert_eq!(s.origin, day.start - WARMUP_SECONDS);
    assert_eq!(s.cores.len(), 5);
    let counted: Vec<usize> = (0..s.tasks.len()).filter(|&i| s.counted(i)).collect();
    assert_eq!(counted.len(), day.jobs);
    let offered: f64 = counted
        .iter()
        .map(|&i| s.types[s.tasks[i].task_type].mean_etc())
        .sum();
    let load = offered / (f64::from(s.total_cores()) * WINDOW_SECONDS);
    assert!(
        (load / 2.2 - 1.0).abs() < 0.01,
        "load {load}, cores {:?}",
        s.cores
    );
    let jobs = w.jobs_between(s.origin, day.start + WINDOW_SECONDS);
    for (t, j) in s.tasks.iter().zip(jobs) {
        assert_eq!(t.job_number, j.job_number);
        assert_eq!(t.arrival, j.submit_time - s.origin);
        assert!(s.types[t.task_type].etc.contains(&j.run_time));
    }
    let share = critical_share(&s);
    assert!((share - 0.2).abs() < 0.03, "{share}");
    assert_eq!(s, from_day(&w, &day, &params, 1).unwrap());
    let seed = derive_seed(1, day.start.to_bits());
    assert_eq!(s.seed, seed);
}

#[test]
fn a_day_needing_more_than_a_million_cores_is_refused() {
    let day = WINDOW_SECONDS;
    assert_eq!(day_cores(803.0 * 2.2 * day, 2.2, 5), Ok(803));
    assert_eq!(day_cores(1.0, 2.2, 5), Ok(5));
    assert_eq!(day_cores(1e6 * day, 1.0, 5), Ok(MAX_LOG_CORES));
    assert_eq!(day_cores(2e6 * day, 1.0, 5), Err(2e6));
    assert!(day_cores(f64::NAN, 1.0, 5).is_err());
}

#[test]
fn a_load_below_the_bound_and_an_infinite_theta_are_refused_naming_the_flags() {
    let tiny = LogParams {
        load: 1e-12,
        ..LogParams::default()
    };
    let e = tiny.validate().unwrap_err().to_string();
    assert!(e.starts_with("--load 0.000000000001:"), "{e}");
    assert!(e.contains("at least 0.001"), "{e}");
    let theta = SyntheticParams {
        theta_s: Some(1e308 * 60.0),
        ..SyntheticParams::default()
    };
    let e = theta.validate().unwrap_err().to_string();
    assert!(e.starts_with("--theta inf:"), "{e}");
    assert!(e.contains("positive number of minutes"), "{e}");
}

#[test]
fn a_day_without_arrivals_is_refused() {
    let w = curie();
    let mut day = w.day_by_date("2012-07-09").expect("a candidate day");
    day.start = -10.0 * SECONDS_PER_DAY;
    let e = from_day(&w, &day, &LogParams::default(), 1).unwrap_err();
    assert!(matches!(e, WorkloadError::EmptyDay { .. }), "{e}");
}
