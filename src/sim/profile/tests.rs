//! The profile's queries and updates against a scan of every breakpoint,
//! the profile built afresh and one update at a time (property tests, the
//! failures kept in proptest-regressions/sim/profile/tests.txt), and by
//! example.

use super::*;
use proptest::prelude::*;

proptest! {
    /// Profiles of up to ~200 breakpoints built by releases, blocks
    /// (one at a time and all at once), clock moves and exact-end
    /// returns: every query with block skipping equals the one without
    /// (a scan of every breakpoint), the bounded scan's bound holds,
    /// and the summaries equal the blocks' maxima and minima.
    #[test]
    fn skipping_queries_equal_a_scan_of_every_breakpoint(
        releases in proptest::collection::vec((0u32..400, 1i64..20), 0..80),
        blocks in proptest::collection::vec((0u32..400, 1u32..120, -5i64..20), 0..60),
        queries in proptest::collection::vec((0u32..200, 0i64..60, 0u32..500, 0u32..400), 1..30),
        advance in 0u32..100,
        skip in proptest::bool::ANY,
    ) {
        let mut p = Profile::new(0.0, 10, releases.iter().map(|&(t, k)| (f64::from(t), k)));
        p.set_block_skipping(skip);
        let (half, rest) = blocks.split_at(blocks.len() / 2);
        for &(t, d, k) in half {
            p.reserve(f64::from(t), f64::from(d), k);
        }
        p.reserve_all(rest.iter().map(|&(t, d, k)| (f64::from(t), f64::from(d), k)));
        p.advance(f64::from(advance));
        if let Some(&(t, d, k)) = blocks.first() {
            let start = f64::from(t.max(advance));
            p.reserve_until(start, start + f64::from(d), -k);
        }
        let check_blocks = |p: &Profile| {
            for (b, &(hi, lo)) in p.blocks.iter().enumerate() {
                let chunk = &p.free[b * BLOCK..(b + 1) * BLOCK];
                assert_eq!(hi, *chunk.iter().max().unwrap());
                assert_eq!(lo, *chunk.iter().min().unwrap());
            }
        };
        // queries before and after an update: summaries made, dropped
        p.earliest(1.0, 1000);
        check_blocks(&p);
        if let Some(&(t, d, k)) = blocks.last() {
            let start = f64::from(t.max(advance));
            p.reserve(start, f64::from(d), k);
        }
        check_blocks(&p);
        for &(d, k, limit, own) in &queries {
            let (d, limit, own) = (f64::from(d), f64::from(limit), f64::from(own));
            // The other scan (block skipping off is a scan of every
            // breakpoint) answers the same.
            let mut other = p.clone();
            other.set_block_skipping(!skip);
            prop_assert_eq!(p.earliest(d, k), other.earliest(d, k));
            // The own block must be in the profile for earliest_before.
            let mut q = p.clone();
            let own = own.max(f64::from(advance));
            q.reserve(own, d, k);
            let mut other_q = q.clone();
            other_q.set_block_skipping(!skip);
            prop_assert_eq!(
                q.earliest_before(d, k, limit, own),
                other_q.earliest_before(d, k, limit, own)
            );
            // When nothing fits, the bound: every window from a
            // breakpoint before the limit has an instant at most that
            // free (own block counted).
            let bounded = q.earliest_before_bounded(d, k, limit, own);
            prop_assert_eq!(bounded.ok(), q.earliest_before(d, k, limit, own));
            if let Err(bound) = bounded {
                prop_assert!(bound < k);
                let adj = |j: usize| {
                    let t = q.time[j];
                    q.free[j] + if t >= own && t < own + d { k } else { 0 }
                };
                for i in (0..q.time.len()).filter(|&i| q.time[i] < limit) {
                    let low = (i..q.time.len())
                        .take_while(|&j| j == i || q.time[j] < q.time[i] + d)
                        .map(adj)
                        .min()
                        .unwrap();
                    prop_assert!(low <= bound, "window at {} has {} > {}", q.time[i], low, bound);
                }
            }
            // From a later start on: the same as the other scan, and
            // the full answer when that is not earlier.
            let not_before = f64::from(advance) + limit / 3.0;
            let from = q.earliest_before_bounded_from(d, k, limit, own, not_before);
            prop_assert_eq!(
                from.ok(),
                other_q.earliest_before_bounded_from(d, k, limit, own, not_before).ok()
            );
            match q.earliest_before(d, k, limit, own) {
                Some(t) if t >= not_before => prop_assert_eq!(from.ok(), Some(t)),
                None => prop_assert!(from.is_err()),
                Some(_) => prop_assert!(from.is_err() || from.ok() >= Some(not_before)),
            }
            let start = f64::from(advance) + limit / 4.0;
            prop_assert_eq!(p.fits(start, d, k), other.fits(start, d, k));
            check_blocks(&q);
        }
        check_blocks(&p);
    }
}

proptest! {
    /// `place` is `earliest` then `reserve` there: the same start, the
    /// same breakpoints and free units after, job after job.
    #[test]
    fn place_is_earliest_then_reserve(
        releases in proptest::collection::vec((0u32..400, 1i64..20), 0..60),
        jobs in proptest::collection::vec((0u32..150, 0i64..40), 1..40),
        skip in proptest::bool::ANY,
        later in 0u32..200,
    ) {
        let mut placed = Profile::new(0.0, 10, releases.iter().map(|&(t, k)| (f64::from(t), k)));
        placed.set_block_skipping(skip);
        // copies of the clock's step, with block skipping on
        placed.advance(f64::from(later));
        let mut reserved = placed.clone();
        for &(d, k) in &jobs {
            let d = f64::from(d);
            let want = reserved.earliest(d, k);
            if let Some(t) = want {
                reserved.reserve(t, d, k);
            }
            prop_assert_eq!(placed.place(d, k), want);
            prop_assert_eq!(&placed.time, &reserved.time);
            prop_assert_eq!(&placed.free, &reserved.free);
        }
    }
}

proptest! {
    /// `place_bounded`'s bound: every window starting before the start
    /// it found — at the clock, at each breakpoint and halfway between
    /// two — has at some instant at most that many units free, and the
    /// bound is below the size; `i64::MIN` when the start is the clock.
    #[test]
    fn place_bounded_bounds_every_earlier_window(
        releases in proptest::collection::vec((0u32..400, 1i64..20), 0..60),
        jobs in proptest::collection::vec((1u32..150, 1i64..40), 1..40),
        skip in proptest::bool::ANY,
    ) {
        let mut p = Profile::new(0.0, 10, releases.iter().map(|&(t, k)| (f64::from(t), k)));
        p.set_block_skipping(skip);
        for &(d, k) in &jobs {
            let d = f64::from(d);
            let before = p.clone();
            let Some((t, bound)) = p.place_bounded(d, k) else { continue };
            if t == before.time[0] {
                prop_assert_eq!(bound, i64::MIN);
                continue;
            }
            prop_assert!(bound < k, "bound {} for size {}", bound, k);
            let mut starts: Vec<f64> = before.time.iter().copied().filter(|&s| s < t).collect();
            let mids: Vec<f64> = before.time.windows(2).map(|w| (w[0] + w[1]) / 2.0).filter(|&s| s < t).collect();
            starts.extend(mids);
            for s in starts {
                let least = std::iter::once(free_at(&before, s))
                    .chain(before.steps().filter(|&(x, _)| x > s && x < s + d).map(|(_, f)| f))
                    .min()
                    .expect("the step holding the start");
                prop_assert!(least <= bound, "window at {} has {} free throughout, bound {}", s, least, bound);
            }
        }
    }
}

proptest! {
    /// A profile whose blocks were lifted and units given back, with
    /// and without `compact`: the same step function with no
    /// breakpoint where nothing changes, and every query (earliest,
    /// earliest before a limit with an own block, fits, place) answers
    /// the same.
    #[test]
    fn compacting_changes_no_answer(
        releases in proptest::collection::vec((0u32..400, 1i64..20), 0..60),
        blocks in proptest::collection::vec((0u32..400, 1u32..120, 1i64..20), 0..40),
        queries in proptest::collection::vec((0u32..200, 0i64..60, 0u32..500, 0u32..400), 1..30),
        advance in 0u32..100,
        skip in proptest::bool::ANY,
    ) {
        let mut p = Profile::new(0.0, 10, releases.iter().map(|&(t, k)| (f64::from(t), k)));
        p.set_block_skipping(skip);
        for &(t, d, k) in &blocks {
            p.reserve(f64::from(t), f64::from(d), k);
        }
        p.advance(f64::from(advance));
        // Lift every other block, and give back units on exact
        // breakpoints: steps of no change are left behind.
        for &(t, d, k) in blocks.iter().step_by(2) {
            let (start, end) = (f64::from(t.max(advance)), f64::from(t) + f64::from(d));
            if start < end {
                p.reserve_until(start, end, -k);
            }
        }
        let mut c = p.clone();
        c.compact();
        prop_assert!(c.free.windows(2).all(|w| w[0] != w[1]));
        prop_assert_eq!(c.time[0], p.time[0]);
        for t in p.time.iter().chain(&c.time) {
            prop_assert_eq!(free_at(&p, *t), free_at(&c, *t));
        }
        for &(d, k, limit, own) in &queries {
            let (d, limit, own) = (f64::from(d), f64::from(limit), f64::from(own));
            prop_assert_eq!(p.earliest(d, k), c.earliest(d, k));
            let start = f64::from(advance) + limit / 4.0;
            prop_assert_eq!(p.fits(start, d, k), c.fits(start, d, k));
            let own = own.max(f64::from(advance));
            let (mut q, mut qc) = (p.clone(), c.clone());
            q.reserve(own, d, k);
            qc.reserve(own, d, k);
            prop_assert_eq!(
                q.earliest_before_bounded(d, k, limit, own).ok(),
                qc.earliest_before_bounded(d, k, limit, own).ok()
            );
            prop_assert_eq!(q.place(d, k), qc.place(d, k));
        }
    }
}

/// Free units at `t` (the step function, whatever its breakpoints).
fn free_at(p: &Profile, t: f64) -> i64 {
    p.free[p.index_at(t)]
}

proptest! {
    /// A block moved is, breakpoint for breakpoint and summary for
    /// summary, the block given back where it was and taken where it
    /// goes, earlier or later, overlapping or not.
    #[test]
    fn a_moved_block_is_given_back_then_taken(
        running in proptest::collection::vec((1u32..60, 1i64..8), 0..40),
        blocks in proptest::collection::vec((0u32..80, 1u32..30, 1i64..6), 1..20),
        pick in 0usize..20,
        to in 0u32..100,
    ) {
        let mut p = Profile::new(0.0, 50, running.iter().map(|&(e, k)| (f64::from(e), k)));
        p.set_block_skipping(true);
        for &(t, d, k) in &blocks {
            p.reserve(f64::from(t), f64::from(d), k);
        }
        let (from, d, k) = blocks[pick % blocks.len()];
        let (from, d, to) = (f64::from(from), f64::from(d), f64::from(to));
        let mut two = p.clone();
        two.reserve(from, d, -k);
        two.reserve(to, d, k);
        p.move_block(from, to, d, k);
        prop_assert_eq!(&p.time, &two.time);
        prop_assert_eq!(&p.free, &two.free);
        prop_assert_eq!(&p.blocks, &two.blocks);
    }
}

proptest! {
    /// Blocks taken in one sweep (their starts and ends sorted apart
    /// and merged with the breakpoints) give the step function and
    /// the block summaries that taking them one at a time gives, in
    /// any order, with starts before the clock and times shared.
    #[test]
    fn reserve_all_equals_reserves_in_any_order(
        running in proptest::collection::vec((1u32..60, 1i64..8), 0..20),
        blocks in proptest::collection::vec((0u32..80, 1u32..30, -3i64..6), 0..40),
        clock in 0u32..10,
    ) {
        let clock = f64::from(clock);
        let make = || {
            let mut p = Profile::new(clock, 50, running.iter().map(|&(e, k)| (clock + f64::from(e), k)));
            p.set_block_skipping(true);
            p
        };
        let block = |&(t, d, k): &(u32, u32, i64)| (f64::from(t), f64::from(d), k);
        let mut one = make();
        for b in &blocks {
            let (t, d, k) = block(b);
            one.reserve(t.max(clock), d, k);
        }
        let mut all = make();
        all.reserve_all(blocks.iter().map(block));
        for t in one.time.iter().chain(&all.time) {
            prop_assert_eq!(free_at(&one, *t), free_at(&all, *t), "at {}", t);
        }
        prop_assert!(all.time.windows(2).all(|w| w[0] < w[1]));
        prop_assert_eq!(all.blocks.len(), all.free.len() / BLOCK);
        for (b, &(hi, lo)) in all.blocks.iter().enumerate() {
            let chunk = &all.free[b * BLOCK..(b + 1) * BLOCK];
            prop_assert_eq!(hi, *chunk.iter().max().unwrap());
            prop_assert_eq!(lo, *chunk.iter().min().unwrap());
        }
    }
}

proptest! {
    /// The profile kept from one pass to the next — clock moved on,
    /// the units of the jobs that ended early given back up to their
    /// predicted ends — is, as a step function, the one built afresh
    /// from the jobs still running and the same reservations.
    #[test]
    fn a_kept_profile_equals_the_one_built_afresh(
        running in proptest::collection::vec((1u32..300, 1i64..8, 0u32..300), 1..40),
        blocks in proptest::collection::vec((0u32..400, 1u32..100, 1i64..6), 0..30),
        later in 0u32..300,
        skip in proptest::bool::ANY,
        queries in proptest::collection::vec((0u32..200, 0i64..101), 1..10),
    ) {
        // running: (predicted end, size, actual end); 100 units.
        let now = f64::from(later);
        let busy: i64 = running.iter().map(|r| r.1).sum();
        let mut kept = Profile::new(0.0, 100 - busy, running.iter().map(|&(e, k, _)| (f64::from(e), k)));
        let block = |&(t, d, k): &(u32, u32, i64)| (f64::from(t), f64::from(d), k);
        kept.reserve_all(blocks.iter().map(block));
        kept.set_block_skipping(skip);
        // at `now`: jobs whose actual end has come are gone
        kept.advance(now);
        let mut free_now = 100;
        let mut still = Vec::new();
        for &(e, k, end) in &running {
            let (e, end) = (f64::from(e), f64::from(end.min(e)));
            if end <= now {
                if e > now {
                    kept.reserve_until(now, e, -k);
                }
            } else {
                free_now -= k;
                still.push((e, k));
            }
        }
        let mut fresh = Profile::new(now, free_now, still);
        fresh.reserve_all(blocks.iter().map(block).filter(|b| b.0 >= now));
        // blocks that began before now are in both only from now on
        for b in blocks.iter().map(block).filter(|b| b.0 < now && b.0 + b.1 > now) {
            fresh.reserve_until(now, b.0 + b.1, b.2);
        }
        for &t in kept.time.iter().chain(&fresh.time) {
            prop_assert_eq!(free_at(&kept, t), free_at(&fresh, t), "at {}", t);
        }
        prop_assert_eq!(kept.time[0], now);
        prop_assert_eq!(kept.free_now(), fresh.free_now());
        // Copies of the clock's step left by `advance` answer as one step.
        for &(d, k) in &queries {
            let d = f64::from(d);
            prop_assert_eq!(kept.earliest(d, k), fresh.earliest(d, k));
            prop_assert_eq!(kept.fits(now, d, k), fresh.fits(now, d, k));
        }
        for (b, &(hi, lo)) in kept.blocks.iter().enumerate() {
            let chunk = &kept.free[b * BLOCK..(b + 1) * BLOCK];
            prop_assert_eq!(hi, *chunk.iter().max().unwrap());
            prop_assert_eq!(lo, *chunk.iter().min().unwrap());
        }
    }
}

#[test]
fn advance_drops_the_past_and_starts_the_step_at_the_clock() {
    // 2 free, +3 at 10, +5 at 20, moved to 15: 5 free from 15, 10 from 20
    let mut p = Profile::new(0.0, 2, [(20.0, 5), (10.0, 3)]);
    p.advance(15.0);
    assert_eq!(p.steps().collect::<Vec<_>>(), [(15.0, 5), (20.0, 10)]);
    p.advance(20.0);
    assert_eq!(p.steps().collect::<Vec<_>>(), [(20.0, 10)]);
}

#[test]
fn earliest_waits_for_enough_units() {
    // 2 free now, +3 at 10, +5 at 20
    let p = Profile::new(0.0, 2, [(20.0, 5), (10.0, 3)]);
    assert_eq!(p.earliest(5.0, 2), Some(0.0));
    assert_eq!(p.earliest(5.0, 4), Some(10.0));
    assert_eq!(p.earliest(5.0, 8), Some(20.0));
    assert_eq!(p.earliest(5.0, 11), None);
}

#[test]
fn reservations_block_later_starts() {
    let mut p = Profile::new(0.0, 4, [(10.0, 4)]);
    p.reserve(10.0, 10.0, 8); // all 8 units over [10, 20)
    assert!(p.fits(0.0, 10.0, 4));
    assert!(!p.fits(0.0, 10.5, 1));
    assert_eq!(p.earliest(15.0, 1), Some(20.0));
    assert_eq!(p.earliest(10.0, 4), Some(0.0));
}

#[test]
fn reserve_all_equals_one_reserve_at_a_time() {
    let blocks = [
        (5.0, 10.0, 3),
        (0.0, 4.0, 1),
        (12.0, 1.0, 2),
        (5.0, 2.0, -1),
    ];
    let mut one = Profile::new(0.0, 6, [(8.0, 2), (20.0, 4)]);
    for &(s, d, k) in &blocks {
        one.reserve(s, d, k);
    }
    let mut all = Profile::new(0.0, 6, [(8.0, 2), (20.0, 4)]);
    all.reserve_all(blocks);
    for t in [0.0, 3.9, 4.0, 5.0, 7.0, 8.0, 12.0, 13.0, 15.0, 20.0, 99.0] {
        assert_eq!(one.fits(t, 0.5, 0), all.fits(t, 0.5, 0));
        for k in 0..12 {
            assert_eq!(one.fits(t, 0.5, k), all.fits(t, 0.5, k), "t {t} k {k}");
        }
    }
    assert!(!all.overcommitted());
    all.reserve(0.0, 1.0, 7);
    assert!(all.overcommitted());
}

/// 4 units; a foreign block of 4 over [10, 20) and the job's own block
/// of 4 over [30, 35): it may move to 0, but not before the limit 0;
/// a 12 s job whose own block is [10, 22) may move to 0 only because
/// [10, 12) is its own; behind a foreign block over [0, 10) it cannot
/// move before 10.
#[test]
fn earliest_before_counts_the_own_block_and_stops_at_the_limit() {
    let mut p = Profile::new(0.0, 4, []);
    p.reserve(10.0, 10.0, 4);
    p.reserve(30.0, 5.0, 4);
    assert_eq!(p.earliest_before(5.0, 4, 30.0, 30.0), Some(0.0));
    assert_eq!(p.earliest_before(5.0, 4, 0.0, 30.0), None);
    let mut q = Profile::new(0.0, 4, []);
    q.reserve(10.0, 12.0, 4);
    assert_eq!(q.earliest_before(12.0, 4, 10.0, 10.0), Some(0.0));
    let mut r = Profile::new(0.0, 4, []);
    r.reserve(0.0, 10.0, 4);
    r.reserve(10.0, 5.0, 4);
    assert_eq!(r.earliest_before(5.0, 4, 10.0, 10.0), None);
}

#[test]
fn fits_checks_every_segment_of_the_window() {
    let mut p = Profile::new(0.0, 10, []);
    p.reserve(5.0, 5.0, 8);
    assert!(p.fits(0.0, 5.0, 10));
    assert!(!p.fits(0.0, 6.0, 3));
    assert!(p.fits(0.0, 100.0, 2));
    assert!(p.fits(10.0, 100.0, 10));
    // The same windows by their end; a window ending where it starts
    // still needs the step holding its start.
    assert!(p.fits_until(0.0, 5.0, 10));
    assert!(!p.fits_until(0.0, 6.0, 3));
    assert!(!p.fits_until(7.0, 7.0, 3));
    assert!(p.fits_until(7.0, 7.0, 2));
    assert!(p.fits_until(10.0, f64::INFINITY, 10));
}
