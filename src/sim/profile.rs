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
        let mut p = Profile {
            time: vec![now],
            free: vec![free_now],
        };
        for (t, size) in releases {
            let t = t.max(now);
            let last = p.free.len() - 1;
            if t == p.time[last] {
                p.free[last] += size;
            } else {
                let f = p.free[last] + size;
                p.time.push(t);
                p.free.push(f);
            }
        }
        p
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
        let n = self.time.len();
        let mut i = 0;
        'candidates: while i < n {
            if self.free[i] < size {
                i += 1;
                continue;
            }
            let start = self.time[i];
            let end = start + duration;
            let mut j = i + 1;
            while j < n && self.time[j] < end {
                if self.free[j] < size {
                    i = j + 1;
                    continue 'candidates;
                }
                j += 1;
            }
            return Some(start);
        }
        None
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
    fn fits_checks_every_segment_of_the_window() {
        let mut p = Profile::new(0.0, 10, []);
        p.reserve(5.0, 5.0, 8);
        assert!(p.fits(0.0, 5.0, 10));
        assert!(!p.fits(0.0, 6.0, 3));
        assert!(p.fits(0.0, 100.0, 2));
        assert!(p.fits(10.0, 100.0, 10));
    }
}
