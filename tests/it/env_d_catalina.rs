//! Catalina without preemption (Margo et al. §2) against a reference that
//! follows its rule with none of the policy's shortcuts: at every pass the
//! queue in priority order, the profile of the running jobs built afresh,
//! and every waiting job, in that order, started if it fits now, else
//! given its earliest start (no stop before the end of the queue). The
//! policy takes up the last pass where nothing but arrivals and early ends
//! changed since, and stops a pass once no job left can start; its starts,
//! and the priorities it reports, must be the reference's, job for job.

use proptest::prelude::*;
use swftool::env::classic::catalina::{CatalinaWeights, priority};
use swftool::env::classic::check as capacity;
use swftool::env::classic::engine::simulate_with;
use swftool::env::classic::policies::{MachineState, Scheduler};
use swftool::env::classic::{self, ClassicJob, Policy};

use crate::common::classic_jobs;

/// Catalina's pass as its module doc states it, rebuilt from scratch.
struct Reference {
    weights: CatalinaWeights,
}

impl Scheduler for Reference {
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>) {
        let jobs = machine.jobs();
        let w = &self.weights;
        let prio = |i: usize| {
            let j = &jobs[i];
            priority(w, j.size, j.submit, j.estimate, now)
        };
        queue.sort_by(|&a, &b| {
            prio(b)
                .total_cmp(&prio(a))
                .then(jobs[a].submit.total_cmp(&jobs[b].submit))
                .then(jobs[a].job_number.cmp(&jobs[b].job_number))
        });
        // Every waiting job's priority at this pass: the one of the pass
        // it starts in is what the run reports.
        for &i in queue.iter() {
            machine.set_priority(i, prio(i));
        }
        let mut p = machine.profile(now);
        let mut keep = Vec::new();
        for &i in queue.iter() {
            let (est, size) = (jobs[i].estimate, i64::from(jobs[i].size));
            if size <= machine.free() && p.fits(now, est, size) {
                p.reserve(now, est, size);
                machine.start(i, now, Vec::new());
            } else {
                p.place(est, size);
                keep.push(i);
            }
        }
        *queue = keep;
    }
}

/// Generated workloads on `capacity` processors: up to `n` jobs, each
/// (gap to the previous submit s, processors, run s, estimate s). Run
/// times are mostly below the estimate (early ends, which the policy
/// takes up), sometimes above it (a job outrunning its estimate, after
/// which the policy rebuilds), sometimes equal (an end at the predicted
/// one); submits come in bursts (several arrivals at one instant).
fn workload(n: usize) -> impl Strategy<Value = (u32, Vec<ClassicJob>)> {
    (2u32..=24).prop_flat_map(move |capacity| {
        let one = (
            prop_oneof![Just(0u32), 1u32..60],
            1..=capacity,
            1u32..400,
            prop_oneof![3 => 0u32..300, 1 => Just(0u32), 1 => 1u32..100],
            0u8..10,
        );
        (
            Just(capacity),
            prop::collection::vec(one, 1..n).prop_map(move |specs| {
                classic_jobs(specs.into_iter().map(|(gap, size, run, x, kind)| {
                    let (run, x) = (f64::from(run), f64::from(x));
                    // Outruns its estimate one time in ten.
                    let estimate = if kind == 0 {
                        (run - x).max(1.0)
                    } else {
                        run + x
                    };
                    (f64::from(gap), size, run, estimate)
                }))
            }),
        )
    })
}

/// Weights under which priorities cross often: the expansion factor and
/// the queue time outweigh the size, so a short job overtakes a long one
/// as both wait.
const CROSSING: CatalinaWeights = CatalinaWeights {
    resource: 1.0,
    expansion_factor: 50.0,
    system_queue_time: 0.2,
    ..CatalinaWeights::DATASTAR
};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The policy starts every job when the reference does, and reports
    /// the priority it had then, under DataStar's weights and under
    /// weights whose priorities cross; every invariant of the checker
    /// holds.
    #[test]
    fn catalina_starts_every_job_when_the_plain_rule_does((capacity, jobs) in workload(80)) {
        for weights in [CatalinaWeights::DATASTAR, CROSSING] {
            let fast = classic::engine::simulate(&jobs, capacity, Policy::Catalina { weights, preemption: None });
            let mut reference = Reference { weights };
            let plain = simulate_with(&jobs, capacity, &mut reference).expect("never fails");
            let starts = |r: &classic::engine::ClassicRun| r.outcomes.iter().map(|o| o.start).collect::<Vec<_>>();
            prop_assert_eq!(starts(&fast), starts(&plain), "weights {:?}", weights);
            prop_assert_eq!(&fast.priority, &plain.priority, "weights {:?}", weights);
            let v = capacity::check(&jobs, &fast, capacity);
            prop_assert!(v.is_empty(), "{:?}", v);
        }
    }
}

/// A job larger than the machine never starts (start and end +∞, as the
/// engine gives it when cleaning has not removed it) and reports its
/// priority at the last pass, as the reference does; the others their
/// priority when they started.
#[test]
fn a_job_that_never_starts_reports_its_last_priority() {
    // (gap to the previous submit s, processors, run s, estimate s)
    let jobs = classic_jobs([
        (0.0, 2, 100.0, 300.0),
        (10.0, 9, 50.0, 50.0),
        (0.0, 4, 200.0, 200.0),
        (30.0, 1, 20.0, 600.0),
        (500.0, 3, 10.0, 10.0),
    ]);
    for weights in [CatalinaWeights::DATASTAR, CROSSING] {
        let fast = classic::engine::simulate(
            &jobs,
            4,
            Policy::Catalina {
                weights,
                preemption: None,
            },
        );
        let mut reference = Reference { weights };
        let plain = simulate_with(&jobs, 4, &mut reference).expect("never fails");
        assert!(fast.outcomes[1].start.is_infinite());
        assert_eq!(fast.priority, plain.priority, "weights {weights:?}");
        assert!(
            fast.priority.iter().all(|&p| p != 1.0),
            "{:?}",
            fast.priority
        );
    }
}
