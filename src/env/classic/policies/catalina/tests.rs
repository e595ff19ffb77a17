//! Catalina's `MayFit` against `Profile::fits`, and the priority lines
//! against the priorities computed: each priority on its line within its
//! rounding, the order by lines the order by priorities, pass after pass
//! (property tests).

use super::*;
use proptest::prelude::*;

proptest! {
    /// Check after check, as the profile loses units and the jobs are
    /// passed over in order, `MayFit` answers whether some job left
    /// fits the profile from now (`Profile::fits`), and names one that
    /// does: the shortest.
    #[test]
    fn may_fit_is_whether_a_job_left_fits_from_now(
        releases in proptest::collection::vec((1u32..500, 1i64..16), 0..40),
        takes in proptest::collection::vec((0u32..400, 1u32..200, 1i64..8), 1..30),
        queue in proptest::collection::vec((1u32..16, 1u32..300), 1..30),
        free_now in 0i64..16,
    ) {
        let mut p = Profile::new(
            0.0,
            free_now,
            releases.iter().map(|&(t, k)| (f64::from(t), k)),
        );
        let jobs: Vec<ClassicJob> = queue
            .iter()
            .enumerate()
            .map(|(n, &(size, est))| {
                ClassicJob::example(n as i64, 0.0, size, f64::from(est), f64::from(est))
            })
            .collect();
        let order: Vec<usize> = (0..jobs.len()).collect();
        let mut may = MayFit::default();
        for (qi, &(t, d, k)) in takes.iter().enumerate().take(order.len()) {
            let rest = &order[qi + 1..];
            let want = rest
                .iter()
                .any(|&i| p.fits(0.0, jobs[i].estimate, i64::from(jobs[i].size)));
            let got = may.any_fits_now(&p, 0.0, rest, &jobs);
            prop_assert_eq!(got.is_some(), want);
            if let Some(w) = got {
                // The witness is that job of the rest, and it fits.
                let j = &jobs[rest[w.at]];
                prop_assert_eq!((w.estimate, w.size), (j.estimate, i64::from(j.size)));
                prop_assert!(p.fits(0.0, w.estimate, w.size));
                prop_assert!(w.holds(&p, 0.0, 0.0, f64::INFINITY));
                // The shortest estimate of the jobs left that fit.
                let shortest = rest
                    .iter()
                    .filter(|&&i| p.fits(0.0, jobs[i].estimate, i64::from(jobs[i].size)))
                    .map(|&i| jobs[i].estimate)
                    .fold(f64::INFINITY, f64::min);
                prop_assert_eq!(w.estimate, shortest);
            }
            let (from, until) = (f64::from(t), f64::from(t) + f64::from(d));
            p.reserve(from, f64::from(d), k);
            // A witness looks again at the stretch taken only, and
            // holds exactly while its window still fits.
            if let Some(w) = got.filter(|w| w.size > 0) {
                prop_assert_eq!(
                    w.holds(&p, 0.0, from, until),
                    p.fits(0.0, w.estimate, w.size)
                );
            }
        }
    }
}

/// Generated jobs as (submit slot of 600 s below `slots`, size 1–7,
/// estimate s: an hour or any), 1 to `max` - 1 of them: few sizes and
/// submits, so many jobs alike.
fn job_specs(slots: u32, max: usize) -> impl Strategy<Value = Vec<(u32, u32, f64)>> {
    proptest::collection::vec(
        (0..slots, 1u32..8, prop_oneof![Just(3600.0f64), 1.0f64..1e5]),
        1..max,
    )
}

/// The jobs of [`job_specs`], numbered from 1, run = estimate.
fn jobs_of(specs: &[(u32, u32, f64)]) -> Vec<ClassicJob> {
    specs
        .iter()
        .enumerate()
        .map(|(n, &(s, size, est))| {
            ClassicJob::example(n as i64 + 1, f64::from(s) * 600.0, size, est, est)
        })
        .collect()
}

/// Weights for the line tests: DataStar's, ones whose priorities cross
/// as jobs wait, and ones with negative and large weights (terms that
/// cancel).
fn weights_for(k: u8) -> CatalinaWeights {
    match k % 3 {
        0 => CatalinaWeights::DATASTAR,
        1 => CatalinaWeights {
            resource: 1.0,
            expansion_factor: 50.0,
            system_queue_time: 0.2,
            ..CatalinaWeights::DATASTAR
        },
        _ => CatalinaWeights {
            resource: -3.0e4,
            expansion_factor: 7.0e5,
            system_queue_time: -0.5,
            submit_time: 0.25,
            wall_time: -1.0e3,
            ..CatalinaWeights::DATASTAR
        },
    }
}

proptest! {
    /// A job's priority as `priority` computes it, from its submit
    /// on, lies within a few dozen units in the last place of its
    /// bound `c + d·now` from its line `a + b·now`, far inside the
    /// margin `Lines::ROUNDING` leaves.
    #[test]
    fn a_priority_lies_on_its_line_within_its_rounding(
        k in 0u8..3,
        size in 1u32..100_000,
        submit in 0.0f64..4e7,
        estimate in 0.1f64..2e6,
        wait in prop_oneof![Just(0.0f64), 0.0f64..1e7],
    ) {
        let w = weights_for(k);
        let job = ClassicJob::example(1, submit, size, estimate, estimate);
        let mut lines = Lines::default();
        prop_assert!(lines.make(&w, std::slice::from_ref(&job)));
        let [a, b, c, d] = lines.by_job[0];
        let now = submit + wait;
        let p = priority(&w, size, submit, estimate, now);
        let bound = 64.0 * f64::EPSILON * (c + d * now);
        prop_assert!((p - (a + b * now)).abs() <= bound, "{} {}", p, (a + b * now));
        prop_assert!(bound * 32.0 < Lines::ROUNDING * (c + d * now));
    }

    /// Ordering a queue by the lines gives the order the priorities
    /// computed give, from any starting order, with jobs alike (ties
    /// broken by submit and job number) and priorities that cross.
    #[test]
    fn ordering_by_lines_is_ordering_by_priorities(
        k in 0u8..3,
        specs in job_specs(4, 60),
        wait in 0.0f64..1e6,
        shuffle in proptest::collection::vec(0usize..1000, 0..60),
    ) {
        let w = weights_for(k);
        // Few distinct submits and sizes: many jobs alike.
        let jobs = jobs_of(&specs);
        let now = 1800.0 + wait;
        let mut queue: Vec<usize> = (0..jobs.len()).collect();
        for (n, &r) in shuffle.iter().enumerate() {
            let len = queue.len();
            queue.swap(n % len, r % len);
        }
        let catalina = Catalina::new(w, None);
        let mut want = queue.clone();
        catalina.order_computed(&mut want, now, &jobs);
        let mut fast = Catalina::new(w, None);
        let mut got = queue.clone();
        fast.order_by_lines(&mut got, now, &jobs);
        prop_assert_eq!(&got, &want);
        // In order but for neighbours alike (equal lines), which only
        // their submit and job number order.
        let alike = |a: usize, b: usize| {
            let (x, y) = (&jobs[a], &jobs[b]);
            (x.submit, x.size, x.estimate) == (y.submit, y.size, y.estimate)
        };
        let mut nearly = want.clone();
        for k in 1..nearly.len() {
            if alike(nearly[k - 1], nearly[k]) {
                nearly.swap(k - 1, k);
            }
        }
        fast.order_by_lines(&mut nearly, now, &jobs);
        prop_assert_eq!(&nearly, &want);
        // Taken up as it stands at a later pass, sorted again after.
        let later = now + wait / 2.0;
        catalina.order_computed(&mut want, later, &jobs);
        fast.order_by_lines(&mut got, later, &jobs);
        prop_assert_eq!(got, want);
    }

    /// Pass after pass, with jobs leaving the queue (started) and jobs
    /// submitted since appended to it, as the engine does, the order
    /// taken up from the last pass until a pair of neighbours may
    /// cross, and the jobs submitted since put in their places, is the
    /// order the priorities computed give at every pass.
    #[test]
    fn an_order_taken_up_pass_after_pass_is_the_priority_order(
        k in 0u8..3,
        specs in job_specs(40, 80),
        steps in proptest::collection::vec(
            (prop_oneof![Just(0.0f64), 1.0f64..5e4], proptest::collection::vec(0usize..1000, 0..3)),
            1..40,
        ),
    ) {
        let w = weights_for(k);
        // Submits every 600 s, many jobs alike, estimates that make
        // expansion factors cross.
        let mut jobs = jobs_of(&specs);
        jobs.sort_by(|a, b| a.submit.total_cmp(&b.submit));
        let reference = Catalina::new(w, None);
        let mut fast = Catalina::new(w, None);
        let (mut queue, mut next, mut now) = (Vec::new(), 0, 0.0);
        for (dt, leave) in &steps {
            now += dt;
            for &r in leave {
                if !queue.is_empty() {
                    queue.remove(r % queue.len());
                }
            }
            while next < jobs.len() && jobs[next].submit <= now {
                queue.push(next);
                next += 1;
            }
            let mut want = queue.clone();
            reference.order_computed(&mut want, now, &jobs);
            fast.order_by_lines(&mut queue, now, &jobs);
            prop_assert_eq!(&queue, &want, "at {}", now);
            fast.lines.left.clone_from(&queue);
        }
    }
}
