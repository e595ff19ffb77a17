//! Conservative backfilling's promise (Mu'alem & Feitelson 2001), kept by
//! every backfilling depth of environment D: a job never starts later than
//! the first reservation it got; early ends compress the reservations in
//! order of their start. Hand-built scenarios worked out on paper, a
//! property over generated workloads, and the policy against a reference
//! that follows the same rules without any of its shortcuts.

use crate::common;

use proptest::prelude::*;
use swftool::env::classic::check::{self as capacity, CapacityViolation};
use swftool::env::classic::engine::ClassicRun;
use swftool::env::classic::engine::simulate_with;
use swftool::env::classic::policies::{MachineState, Scheduler};
use swftool::env::classic::{self, ClassicJob, Policy};

use common::classic_job as job;

const EASY: Policy = Policy::Backfill { depth: 1 };
const CONSERVATIVE: Policy = Policy::Backfill { depth: usize::MAX };

fn replay(jobs: &[ClassicJob], capacity: u32, policy: Policy) -> ClassicRun {
    let r = classic::engine::simulate(jobs, capacity, policy);
    let v = capacity::check(jobs, &r, capacity);
    assert!(v.is_empty(), "{policy:?}: {v:?}");
    r
}

fn starts(r: &ClassicRun) -> Vec<f64> {
    r.outcomes.iter().map(|o| o.start).collect()
}

/// 2 processors. A (1 proc, estimate 100 s, runs 10 s) and B (1 proc,
/// 50 s) start at 0. J1 (2 procs, 50 s) at 1 is reserved at 100 (A's
/// predicted end); J2 (1 proc, 45 s) at 2 fits on B's processor over
/// [50, 95), before J1: reserved at 50. A ends at 10.
///
/// Rebuilding the reservations in submit order (swftool before it kept
/// them) gave J1 [50, 100) and pushed J2 to 100, past its reservation.
/// Compression in order of reservation keeps the promise: J2 (at 50)
/// moves first, to 10 on A's processor, [10, 55); then J1 (at 100) moves
/// to 55, when both processors are free.
#[test]
fn conservative_keeps_the_reservation_an_early_end_used_to_break() {
    let jobs = [
        job(1, 0.0, 1, 10.0, 100.0),
        job(2, 0.0, 1, 50.0, 50.0),
        job(3, 1.0, 2, 50.0, 50.0),
        job(4, 2.0, 1, 45.0, 45.0),
    ];
    let r = replay(&jobs, 2, CONSERVATIVE);
    assert_eq!(starts(&r), [0.0, 0.0, 55.0, 10.0]);
    assert_eq!(
        r.first_reservation,
        [None, None, Some(100.0), Some(50.0)],
        "jobs started at once hold none"
    );
    // EASY (depth 1): only J1 holds a reservation, compressed to 50 when A
    // ends; J2 cannot backfill [10, 55) across it and waits for J1's end.
    let e = replay(&jobs, 2, EASY);
    assert_eq!(starts(&e), [0.0, 0.0, 50.0, 100.0]);
    assert_eq!(e.first_reservation, [None, None, Some(100.0), Some(100.0)]);
}

/// 2 processors. A (2 procs, estimate 100 s, runs 10 s) starts at 0.
/// Reservations at arrival: J1 (2 procs, 10 s) at 1 → [100, 110); J2
/// (1 proc, 100 s) at 2 → [110, 210); J3 (1 proc, 5 s) at 3 → [110, 115)
/// on the other processor. A ends at 10; compression in order of
/// reservation start (J1, then J2 and J3 at 110 in submit order): J1 to 10
/// (it starts), J2 to 20 (J3 still at 110 leaves it a processor),
/// J3 to 20 on the other processor.
#[test]
fn compression_moves_each_reservation_to_its_earliest_start_in_order() {
    let jobs = [
        job(1, 0.0, 2, 10.0, 100.0),
        job(2, 1.0, 2, 10.0, 10.0),
        job(3, 2.0, 1, 100.0, 100.0),
        job(4, 3.0, 1, 5.0, 5.0),
    ];
    let r = replay(&jobs, 2, CONSERVATIVE);
    assert_eq!(starts(&r), [0.0, 10.0, 20.0, 20.0]);
    assert_eq!(
        r.first_reservation,
        [None, Some(100.0), Some(110.0), Some(110.0)]
    );
}

/// Depth 2: J1 and J2 hold reservations; J3 gets one only when J1 starts
/// and frees a slot among the two, and keeps it. 1 processor; A (100 s)
/// runs from 0; J1, J2, J3 (1 proc, 10 s each) arrive at 1, 2, 3.
#[test]
fn the_next_job_gets_a_reservation_when_a_slot_among_the_k_frees() {
    let jobs = [
        job(1, 0.0, 1, 100.0, 100.0),
        job(2, 1.0, 1, 10.0, 10.0),
        job(3, 2.0, 1, 10.0, 10.0),
        job(4, 3.0, 1, 10.0, 10.0),
    ];
    let r = replay(&jobs, 1, Policy::Backfill { depth: 2 });
    assert_eq!(starts(&r), [0.0, 100.0, 110.0, 120.0]);
    // J3 got its reservation at 100, when J1 started: its earliest start
    // then, after J2's [110, 120).
    assert_eq!(
        r.first_reservation,
        [None, Some(100.0), Some(110.0), Some(120.0)]
    );
}

/// Catalina rebuilds its reservations at every pass in priority order: no
/// promise, so none is recorded; FCFS and greedy backfilling make none.
#[test]
fn policies_without_persistent_reservations_record_none() {
    let jobs = [
        job(1, 0.0, 2, 10.0, 100.0),
        job(2, 1.0, 2, 10.0, 10.0),
        job(3, 2.0, 1, 100.0, 100.0),
    ];
    for name in ["fcfs", "catalina", "catalina-preempt", "backfill"] {
        let policy = classic::SCHEDULERS.get(name).unwrap().policy;
        let r = replay(&jobs, 2, policy);
        assert!(r.first_reservation.iter().all(Option::is_none), "{name}");
    }
}

/// The checker reports a job that started after its first reservation
/// when no job outran its estimate, and says nothing of it when one did
/// (the promise then cannot be kept).
#[test]
fn the_checker_flags_a_broken_promise() {
    let jobs = [
        job(1, 0.0, 1, 10.0, 100.0),
        job(2, 0.0, 1, 50.0, 50.0),
        job(3, 1.0, 2, 50.0, 50.0),
        job(4, 2.0, 1, 45.0, 45.0),
    ];
    let mut r = replay(&jobs, 2, CONSERVATIVE);
    r.first_reservation[2] = Some(40.0);
    assert_eq!(
        capacity::check(&jobs, &r, 2),
        [CapacityViolation::BrokenPromise {
            job: 3,
            reservation: 40.0,
            start: 55.0
        }]
    );
    let mut outran = jobs;
    outran[0].estimate = 5.0;
    assert!(capacity::check(&outran, &r, 2).is_empty());
}

/// A job that outruns its estimate delays the reservations planned on its
/// predicted end: they are placed again, later. 1 processor; A (estimate
/// 10 s, runs 30 s) from 0; J1 (10 s) at 1 reserved at 10; at the next
/// pass, 15 (J2's arrival, after A's predicted end), A's prediction
/// doubles to 20 and J1 is placed again at 20, J2 at 30; A really ends at
/// 30: J1 starts then, J2 at 40.
#[test]
fn a_job_outrunning_its_estimate_delays_the_reservations_behind_it() {
    let jobs = [
        job(1, 0.0, 1, 30.0, 10.0),
        job(2, 1.0, 1, 10.0, 10.0),
        job(3, 15.0, 1, 10.0, 10.0),
    ];
    let r = replay(&jobs, 1, CONSERVATIVE);
    assert_eq!(starts(&r), [0.0, 30.0, 40.0]);
    assert_eq!(r.first_reservation[1], Some(10.0));
}

/// Generated workloads: up to `n` jobs on `capacity` processors, each
/// (gap to the previous submit s, processors, run s, x), its estimate run
/// + x s (never short), or x s (at least 1) with `overruns`.
fn workload(n: usize, overruns: bool) -> impl Strategy<Value = (u32, Vec<ClassicJob>)> {
    (1u32..=16).prop_flat_map(move |capacity| {
        let one = (0u32..40, 1..=capacity, 1u32..200, 0u32..300);
        (
            Just(capacity),
            prop::collection::vec(one, 1..n).prop_map(move |specs| {
                common::classic_jobs(specs.into_iter().map(|(gap, size, run, x)| {
                    let (run, x) = (f64::from(run), f64::from(x));
                    let estimate = if overruns { x.max(1.0) } else { run + x };
                    (f64::from(gap), size, run, estimate)
                }))
            }),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// With estimates never below the run times (as Mu'alem & Feitelson
    /// assume: jobs are killed at their estimate), every job that got a
    /// reservation starts no later than its first one, for Conservative and
    /// for depths 1, 2 and 3; and every invariant of the checker holds.
    #[test]
    fn no_job_starts_after_its_first_reservation((capacity, jobs) in workload(60, false)) {
        for depth in [1, 2, 3, usize::MAX] {
            let r = classic::engine::simulate(&jobs, capacity, Policy::Backfill { depth });
            for ((j, o), first) in jobs.iter().zip(&r.outcomes).zip(&r.first_reservation) {
                if let Some(first) = first {
                    prop_assert!(
                        o.start <= *first,
                        "depth {depth}: job {} starts at {} after its reservation {first}",
                        j.job_number, o.start
                    );
                }
            }
            let v = capacity::check(&jobs, &r, capacity);
            prop_assert!(v.is_empty(), "depth {depth}: {v:?}");
        }
    }
}

/// Backfilling with a reservation depth as the module doc of
/// `policies::backfill` states it, with none of its shortcuts: at every
/// pass the profile is rebuilt from the machine and every reservation
/// held; every reservation is compressed by a scan of every start before
/// it (or, when one no longer fits, placed again at its earliest start),
/// in order of its start, then queue order.
struct Reference {
    depth: usize,
    reservation: Vec<Option<f64>>,
}

impl Scheduler for Reference {
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>) {
        let jobs = machine.jobs();
        self.reservation.resize(jobs.len(), None);
        let block = |i: usize| (jobs[i].estimate, i64::from(jobs[i].size));
        let mut held: Vec<(f64, usize)> = queue
            .iter()
            .filter_map(|&i| self.reservation[i].map(|r| (r, i)))
            .collect();
        held.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut p = machine.profile(now);
        for &(r, i) in &held {
            let (est, size) = block(i);
            p.reserve(r.max(now), est, size);
        }
        if p.overcommitted() || held.iter().any(|h| h.0 < now) {
            p = machine.profile(now);
            for &(r, i) in &held {
                let (est, size) = block(i);
                let t = p.earliest(est, size).unwrap_or(r);
                p.reserve(t, est, size);
                self.reservation[i] = Some(t);
            }
        } else {
            for &(r, i) in &held {
                let (est, size) = block(i);
                if r > now
                    && let Some(t) = p.earliest_before(est, size, r, r)
                {
                    p.reserve(r, est, -size);
                    p.reserve(t, est, size);
                    self.reservation[i] = Some(t);
                }
            }
        }
        let mut holders = held.len();
        let mut keep = Vec::new();
        for (qi, &i) in queue.iter().enumerate() {
            if machine.free() == 0 && holders >= self.depth {
                keep.extend_from_slice(&queue[qi..]);
                break;
            }
            let (est, size) = block(i);
            match self.reservation[i] {
                Some(r) if r <= now => {
                    self.reservation[i] = None;
                    holders -= 1;
                    machine.start(i, now, Vec::new());
                }
                Some(_) => keep.push(i),
                None if size <= machine.free() && p.fits(now, est, size) => {
                    p.reserve(now, est, size);
                    machine.start(i, now, Vec::new());
                }
                None => {
                    if holders < self.depth
                        && let Some(t) = p.place(est, size)
                    {
                        self.reservation[i] = Some(t);
                        holders += 1;
                        machine.record_reservation(i, t);
                    }
                    keep.push(i);
                }
            }
        }
        *queue = keep;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The backfilling policy (profile and reservations kept from pass to
    /// pass, breakpoints where nothing changes dropped, compression
    /// scanning only where units can have been freed, skipping
    /// reservations too few units were gained for and the starts closed to
    /// a smaller, shorter one) starts every job when the reference without
    /// those shortcuts does, and promises the same first reservations, at
    /// depths 1, 2, 3 and Conservative's.
    #[test]
    fn backfilling_starts_every_job_when_the_plain_rules_do((capacity, jobs) in workload(80, true)) {
        for depth in [1, 2, 3, usize::MAX] {
            let fast = classic::engine::simulate(&jobs, capacity, Policy::Backfill { depth });
            let mut reference = Reference { depth, reservation: Vec::new() };
            let plain = simulate_with(&jobs, capacity, &mut reference).expect("never fails");
            prop_assert_eq!(starts(&fast), starts(&plain), "depth {}", depth);
            prop_assert_eq!(&fast.first_reservation, &plain.first_reservation, "depth {}", depth);
        }
    }
}
