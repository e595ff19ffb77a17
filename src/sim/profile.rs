//! The availability profile of a pool of interchangeable units (the
//! processors or nodes of a homogeneous machine): free units as a step
//! function of time, with the two queries every backfilling scheduler needs
//! — "does a job fit over this interval" and "when can it start at the
//! earliest" (after Mu'alem and Feitelson, IEEE TPDS 12(6), 2001, §3) — and
//! the one update, "take these units over that interval" (a negative count
//! gives them back). It knows no job, no policy and no environment: the
//! caller builds it from what is running and reserves what it plans.

/// Free units over time: `free[i]` holds on `[time[i], time[i+1])`, the
/// last value until infinity. Times are s; `time[0]` is the clock.
#[derive(Debug, Clone, Default)]
pub struct Profile {
    time: Vec<f64>,
    free: Vec<i64>,
}

impl Profile {
    /// A profile starting at `now` with `free_now` units free, gaining
    /// `size` units at each `(end, size)` of `releases` (any order).
    pub fn new(now: f64, free_now: i64, releases: impl IntoIterator<Item = (f64, i64)>) -> Profile {
        let mut r: Vec<(f64, i64)> = releases.into_iter().collect();
        r.sort_by(|a, b| a.0.total_cmp(&b.0));
        Profile::from_sorted(now, free_now, r)
    }

    /// As [`new`](Self::new), with releases already sorted by time.
    pub fn from_sorted(
        now: f64,
        free_now: i64,
        releases: impl IntoIterator<Item = (f64, i64)>,
    ) -> Profile {
        let mut p = Profile::default();
        p.rebuild_sorted(now, free_now, releases);
        p
    }

    /// Makes this profile [`from_sorted`](Self::from_sorted)'s, reusing its
    /// memory (a scheduler that rebuilds its profile at every pass).
    pub fn rebuild_sorted(
        &mut self,
        now: f64,
        free_now: i64,
        releases: impl IntoIterator<Item = (f64, i64)>,
    ) {
        self.time.clear();
        self.free.clear();
        self.time.push(now);
        self.free.push(free_now);
        for (t, size) in releases {
            let t = t.max(now);
            let last = self.free.len() - 1;
            if t == self.time[last] {
                self.free[last] += size;
            } else {
                let f = self.free[last] + size;
                self.time.push(t);
                self.free.push(f);
            }
        }
    }

    /// The step function as (time, free units from then on), from the
    /// clock on.
    pub fn steps(&self) -> impl Iterator<Item = (f64, i64)> + '_ {
        self.time.iter().copied().zip(self.free.iter().copied())
    }

    /// Number of breakpoints.
    pub fn len(&self) -> usize {
        self.time.len()
    }

    /// Whether the profile has no breakpoint (never after construction).
    pub fn is_empty(&self) -> bool {
        self.time.is_empty()
    }

    /// Free units at the clock.
    pub fn free_now(&self) -> i64 {
        self.free[0]
    }

    fn index_at(&self, t: f64) -> usize {
        // last i with time[i] <= t
        self.time.partition_point(|&x| x <= t).saturating_sub(1)
    }

    /// Whether `size` units are free over `[start, start + duration)`.
    pub fn fits(&self, start: f64, duration: f64, size: i64) -> bool {
        let end = start + duration;
        let mut i = self.index_at(start);
        loop {
            if self.free[i] < size {
                return false;
            }
            i += 1;
            if i >= self.time.len() || self.time[i] >= end {
                return true;
            }
        }
    }

    /// The earliest start ≥ the clock at which `size` units are free for
    /// `duration` s. Always found when `size` ≤ what is free at the end.
    pub fn earliest(&self, duration: f64, size: i64) -> Option<f64> {
        self.first_window(duration, size, f64::INFINITY, |j| self.free[j])
    }

    /// The earliest start ≥ the clock and < `limit` (s) at which `size`
    /// units are free for `duration` s, counting as free the units of the
    /// job's own block of `size` units over `[own, own + duration)` (already
    /// in the profile: the job's current reservation); `None` when there is
    /// none before `limit`. This is the move of conservative backfilling's
    /// compression (Mu'alem and Feitelson 2001): a job may go earlier, never
    /// later, without lifting its reservation first. The scan stops at
    /// `limit`: its cost is the breakpoints before `limit` (and the windows
    /// checked from them).
    pub fn earliest_before(&self, duration: f64, size: i64, limit: f64, own: f64) -> Option<f64> {
        let own_end = own + duration;
        self.first_window(duration, size, limit, |j| {
            let t = self.time[j];
            self.free[j] + if t >= own && t < own_end { size } else { 0 }
        })
    }

    /// The first breakpoint before `limit` from which `free_at` (the free
    /// units of each breakpoint) stays ≥ `size` for `duration` s: one
    /// linear scan, a failed window resuming after the breakpoint that
    /// broke it.
    fn first_window(
        &self,
        duration: f64,
        size: i64,
        limit: f64,
        free_at: impl Fn(usize) -> i64,
    ) -> Option<f64> {
        let n = self.time.len();
        let mut i = 0;
        'candidates: while i < n && self.time[i] < limit {
            if free_at(i) < size {
                i += 1;
                continue;
            }
            let start = self.time[i];
            let end = start + duration;
            let mut j = i + 1;
            while j < n && self.time[j] < end {
                if free_at(j) < size {
                    i = j + 1;
                    continue 'candidates;
                }
                j += 1;
            }
            return Some(start);
        }
        None
    }

    /// Whether more units are taken than exist at some time (a free count
    /// below 0): reservations placed on releases that did not come when
    /// predicted.
    pub fn overcommitted(&self) -> bool {
        self.free.iter().any(|&f| f < 0)
    }

    /// Takes many blocks at once — `(start, duration, size)` as in
    /// [`reserve`](Self::reserve), starts ≥ the clock — in one sweep:
    /// O((breakpoints + blocks) · log) instead of one insertion per
    /// breakpoint.
    pub fn reserve_all(&mut self, blocks: impl IntoIterator<Item = (f64, f64, i64)>) {
        let clock = self.time[0];
        let mut deltas: Vec<(f64, i64)> = Vec::with_capacity(self.time.len());
        let mut before = 0;
        for (&t, &f) in self.time.iter().zip(&self.free) {
            deltas.push((t, f - before));
            before = f;
        }
        for (start, duration, size) in blocks {
            let start = start.max(clock);
            deltas.push((start, -size));
            deltas.push((start + duration, size));
        }
        deltas.sort_by(|a, b| a.0.total_cmp(&b.0));
        self.time.clear();
        self.free.clear();
        let mut f = 0;
        for (t, d) in deltas {
            f += d;
            match self.time.last() {
                Some(&last) if last == t => *self.free.last_mut().expect("same length") = f,
                _ => {
                    self.time.push(t);
                    self.free.push(f);
                }
            }
        }
    }

    // Index of a breakpoint at exactly `t`, inserted if absent (t ≥ clock).
    fn split_at(&mut self, t: f64) -> usize {
        let i = self.index_at(t);
        if self.time[i] == t {
            return i;
        }
        self.time.insert(i + 1, t);
        let f = self.free[i];
        self.free.insert(i + 1, f);
        i + 1
    }

    /// Takes `size` units over `[start, start + duration)` (s); a negative
    /// `size` gives them back, e.g. to lift a reservation and try it
    /// elsewhere.
    pub fn reserve(&mut self, start: f64, duration: f64, size: i64) {
        let a = self.split_at(start);
        let b = self.split_at(start + duration);
        for f in &mut self.free[a..b] {
            *f -= size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
