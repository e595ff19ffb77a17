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
///
/// With [`set_block_skipping`](Self::set_block_skipping), the queries skip
/// runs of [`BLOCK`] breakpoints at once by their largest and smallest
/// free counts, so a scan over a busy stretch costs about its length /
/// `BLOCK` rather than its length; what they answer is exactly what a scan
/// of every breakpoint answers (tested against one). An update moves the
/// summaries of the blocks wholly inside what it took by the units taken
/// and summarizes again the blocks at its ends, or every block from the
/// first breakpoint it inserted on (an insertion shifts the blocks after
/// it).
#[derive(Debug, Clone, Default)]
pub struct Profile {
    time: Vec<f64>,
    free: Vec<i64>,
    // (largest, smallest) `free` of each whole block of BLOCK breakpoints,
    // kept up to date by every update while block skipping is on.
    blocks: Vec<(i64, i64)>,
    skipping: bool,
}

/// Breakpoints per block of the summaries that let a scan skip ahead.
pub const BLOCK: usize = 8;

/// Units counted as free on top of the profile over a stretch of time:
/// `(from, until, k)`, k more on `[from, until)` (s) — the job's own block
/// when it looks for an earlier start ([`Profile::earliest_before`]).
type Extra = (f64, f64, i64);

/// The units `extra` adds at time `t` (s).
fn extra_at(extra: Option<Extra>, t: f64) -> i64 {
    match extra {
        Some((a, b, k)) if t >= a && t < b => k,
        _ => 0,
    }
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
        self.summarize_from(0);
    }

    /// Turns block skipping on or off (off in a new profile; kept by the
    /// rebuilding methods). It pays when a profile is scanned many times
    /// between updates, as conservative backfilling's compression scans
    /// every reservation; it does not when every scan is followed by an
    /// update early in the profile, as in a pass that places one
    /// reservation per waiting job (Catalina's), where summaries would be
    /// made only to be dropped. Answers are the same either way.
    pub fn set_block_skipping(&mut self, on: bool) {
        self.skipping = on;
        self.blocks.clear();
        self.summarize_from(0);
    }

    /// Summarizes the blocks again from the one holding breakpoint `from`
    /// on (every update calls it with the first index it changed), when
    /// block skipping is on.
    fn summarize_from(&mut self, from: usize) {
        if !self.skipping {
            return;
        }
        let whole = self.free.len() / BLOCK;
        let b0 = (from / BLOCK).min(whole).min(self.blocks.len());
        self.blocks.truncate(b0);
        for chunk in self.free[b0 * BLOCK..whole * BLOCK].chunks_exact(BLOCK) {
            let hi = chunk.iter().copied().fold(i64::MIN, i64::max);
            let lo = chunk.iter().copied().fold(i64::MAX, i64::min);
            self.blocks.push((hi, lo));
        }
    }

    /// Updates the summaries after `size` units were taken on breakpoints
    /// `from..to` and no breakpoint was inserted (a moved reservation's old
    /// block, units given back up to the very end the profile holds), when
    /// block skipping is on: a block wholly inside moves by `size` (its
    /// largest and smallest fall together), a block the range only
    /// touches is summarized again.
    fn summarize_taken(&mut self, from: usize, to: usize, size: i64) {
        if !self.skipping || from >= to {
            return;
        }
        // Whole blocks only: a partial last block has no summary.
        let end = ((to - 1) / BLOCK + 1).min(self.blocks.len());
        for b in from / BLOCK..end {
            if b * BLOCK >= from && (b + 1) * BLOCK <= to {
                let (hi, lo) = &mut self.blocks[b];
                *hi -= size;
                *lo -= size;
                continue;
            }
            self.summarize_block(b);
        }
    }

    /// Summarizes block `b` again, if it has a summary (a whole block
    /// with block skipping on).
    fn summarize_block(&mut self, b: usize) {
        if b >= self.blocks.len() {
            return;
        }
        let chunk = &self.free[b * BLOCK..(b + 1) * BLOCK];
        let hi = chunk.iter().copied().fold(i64::MIN, i64::max);
        let lo = chunk.iter().copied().fold(i64::MAX, i64::min);
        self.blocks[b] = (hi, lo);
    }

    /// Moves the clock on to `now` (s; not before the current clock): the
    /// breakpoints before it are dropped and the step holding `now` starts
    /// there, so the profile is the one [`from_sorted`](Self::from_sorted)
    /// builds at `now` from the same releases and blocks (as a step
    /// function; a breakpoint where nothing changes may remain, which no
    /// query notices).
    ///
    /// With block skipping on, only whole blocks are dropped, so the
    /// summaries of the rest stay as they are; the few breakpoints before
    /// `now` left in the first block become copies of the step holding
    /// `now` (the same time, the same free units: steps of no length,
    /// which every query and update treats as that one step).
    pub fn advance(&mut self, now: f64) {
        let i = self.index_at(now);
        let drop = if self.skipping { i / BLOCK * BLOCK } else { i };
        if drop > 0 {
            self.time.drain(..drop);
            self.free.drain(..drop);
            self.blocks.drain(..(drop / BLOCK).min(self.blocks.len()));
        }
        let i = i - drop;
        self.time[..=i].fill(now);
        if i > 0 {
            let f = self.free[i];
            self.free[..i].fill(f);
            self.summarize_block(0);
        }
    }

    /// Drops the breakpoints at which nothing changes (as many units free
    /// as in the step before): lifted reservations and units given back
    /// leave them behind. The step function is the same in fewer
    /// breakpoints, so every query answers the same (no query finds a
    /// start at such a breakpoint: the step before it starts a window at
    /// least as good) and a scan costs less. Summaries are made again.
    ///
    /// Nothing before the first such breakpoint moves: the blocks before
    /// its own keep their summaries, and a profile without one is left as
    /// it is.
    pub fn compact(&mut self) {
        let Some(first) = self.free.windows(2).position(|w| w[0] == w[1]) else {
            return;
        };
        let mut w = first + 1;
        for r in first + 2..self.time.len() {
            if self.free[r] != self.free[w - 1] {
                self.time[w] = self.time[r];
                self.free[w] = self.free[r];
                w += 1;
            }
        }
        self.time.truncate(w);
        self.free.truncate(w);
        self.summarize_from(first + 1);
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
        self.fits_until(start, start + duration, size)
    }

    /// Whether `size` units are free over `[start, end)` (s; the step
    /// holding `start` counts even when `end` ≤ `start`).
    pub fn fits_until(&self, start: f64, end: f64, size: i64) -> bool {
        // Most often from the clock: the first step, found without a search.
        let mut i = if self.time.get(1).is_none_or(|&t1| start < t1) {
            0
        } else {
            self.index_at(start)
        };
        if self.skipping {
            // The step holding `start` counts even for a window of 0 s.
            return self.free[i] >= size && self.first_below(i + 1, end, size, None).is_err();
        }
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
        self.earliest_index(duration, size)
            .map(|((i, _), _)| self.time[i])
    }

    /// [`earliest`](Self::earliest), and the units taken there at once
    /// (as [`reserve`](Self::reserve) at the start found): the start, s,
    /// or `None` (nothing taken). A scheduler placing one reservation after
    /// another (Catalina) saves the searches for the block's breakpoints:
    /// the scan that found the window knows them.
    pub fn place(&mut self, duration: f64, size: i64) -> Option<f64> {
        self.place_bounded(duration, size).map(|(t, _)| t)
    }

    /// [`place`](Self::place), with a bound on the windows before the
    /// start found: `(start s, bound)`, where every window of `duration` s
    /// starting from the clock to before that start has, at some instant,
    /// at most `bound` units free (< `size`; `i64::MIN` when the start is
    /// the clock). A caller that knows how many units the profile has
    /// gained at most at any instant since (and that it has lost none
    /// before the start) can tell without a scan that the start is still
    /// the earliest: while `bound` + those units < `size`.
    pub fn place_bounded(&mut self, duration: f64, size: i64) -> Option<(f64, i64)> {
        // The scan finds the first of the copies of the clock's step that
        // `advance` may leave (they are alike), as `reserve` starts there.
        let ((i, j), bound) = self.earliest_index(duration, size)?;
        let t = self.time[i];
        let end = t + duration;
        if end <= t {
            return Some((t, bound)); // a window of no length takes nothing
        }
        let inserted = j == self.time.len() || self.time[j] != end;
        if inserted {
            self.time.insert(j, end);
            let f = self.free[j - 1];
            self.free.insert(j, f);
        }
        for f in &mut self.free[i..j] {
            *f -= size;
        }
        // The blocks before `j` kept their breakpoints; those from `j` on
        // shifted by the insertion.
        self.summarize_taken(i, j, size);
        if inserted {
            self.summarize_from(j);
        }
        Some((t, bound))
    }

    /// The earliest window from the clock for `size` units and `duration`
    /// s, with no limit and no own block: the breakpoint it starts at, and
    /// the first breakpoint at or after its end (or the length), with the
    /// bound of [`place_bounded`](Self::place_bounded). One scan, a failed
    /// window resuming after the breakpoint that broke it, skipping whole
    /// blocks when block skipping is on.
    fn earliest_index(&self, duration: f64, size: i64) -> Option<((usize, usize), i64)> {
        if self.skipping {
            let (found, seen) = self.first_window_bounded(duration, size, f64::INFINITY, None, 0);
            return found.map(|w| (w, seen));
        }
        let n = self.time.len().min(self.free.len()); // equal: one bound to check
        let (time, free) = (&self.time[..n], &self.free[..n]);
        // The most units free at the instant that closed each window so far.
        let mut seen = i64::MIN;
        let mut i = 0;
        while i < n {
            if free[i] < size {
                seen = seen.max(free[i]);
                i += 1;
                continue;
            }
            let end = time[i] + duration;
            let mut j = i + 1;
            // Four breakpoints at a time while none of them ends or breaks
            // the window (one branch for four), then one at a time.
            while j + 4 <= n {
                let (t, f) = (&time[j..j + 4], &free[j..j + 4]);
                let stop = (t[0] >= end)
                    | (f[0] < size)
                    | (t[1] >= end)
                    | (f[1] < size)
                    | (t[2] >= end)
                    | (f[2] < size)
                    | (t[3] >= end)
                    | (f[3] < size);
                if stop {
                    break;
                }
                j += 4;
            }
            while j < n && time[j] < end && free[j] >= size {
                j += 1;
            }
            if j == n || time[j] >= end {
                return Some(((i, j), seen));
            }
            seen = seen.max(free[j]);
            i = j + 1;
        }
        None
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
        self.first_window(duration, size, limit, Some((own, own + duration, size)), 0)
    }

    /// The first breakpoint from `from` on and before `limit` from which
    /// the free units (plus `extra`) stay ≥ `size` for `duration` s: one
    /// scan, a failed window resuming after the breakpoint that broke it
    /// (skipping blocks when block skipping is on).
    fn first_window(
        &self,
        duration: f64,
        size: i64,
        limit: f64,
        extra: Option<Extra>,
        from: usize,
    ) -> Option<f64> {
        if self.skipping {
            let found = self
                .first_window_bounded(duration, size, limit, extra, from)
                .0;
            return found.map(|(c, _)| self.time[c]);
        }
        let free_at = |j: usize| self.free[j] + extra_at(extra, self.time[j]);
        let n = self.time.len();
        let mut i = from;
        'candidates: while i < n && self.time[i] < limit {
            if free_at(i) < size {
                i += 1;
                continue;
            }
            let end = self.time[i] + duration;
            let mut j = i + 1;
            while j < n && self.time[j] < end {
                if free_at(j) < size {
                    i = j + 1;
                    continue 'candidates;
                }
                j += 1;
            }
            return Some(self.time[i]);
        }
        None
    }

    /// [`first_window`](Self::first_window) skipping whole blocks, with a bound
    /// on the units free over the windows it rejected: every window
    /// starting before what it found (or before `limit`), at any time from
    /// the clock, has at some instant at most that many units free (plus
    /// `extra`). A failed window starting at a breakpoint, or anywhere in
    /// its step, holds the breakpoint that broke it; one starting where
    /// fewer than `size` are free holds that step. What it found is the
    /// window's first breakpoint and the first at or after its end (or the
    /// length). Only windows from breakpoint `from` on are looked at (and
    /// bounded).
    fn first_window_bounded(
        &self,
        duration: f64,
        size: i64,
        limit: f64,
        extra: Option<Extra>,
        from: usize,
    ) -> (Option<(usize, usize)>, i64) {
        let mut seen = i64::MIN;
        let mut i = from;
        loop {
            let Some(c) = self.first_at_least(i, limit, size, extra, &mut seen) else {
                return (None, seen);
            };
            let start = self.time[c];
            match self.first_below(c + 1, start + duration, size, extra) {
                Err(end) => return (Some((c, end)), seen),
                Ok(j) => {
                    seen = seen.max(self.free[j] + extra_at(extra, self.time[j]));
                    i = j + 1;
                }
            }
        }
    }

    /// [`earliest_before`](Self::earliest_before), with `Err(bound)` when
    /// no start before `limit` fits: every window starting from the clock
    /// to `limit` has, at some instant, at most `bound` units free counting
    /// the job's own block (< `size`). A caller that knows how many units
    /// the profile has gained anywhere since can tell, without scanning
    /// again, that the job still cannot move: not while `bound` + those
    /// units < `size`. With block skipping off the bound is `size - 1`.
    pub fn earliest_before_bounded(
        &self,
        duration: f64,
        size: i64,
        limit: f64,
        own: f64,
    ) -> Result<f64, i64> {
        self.earliest_before_bounded_from(duration, size, limit, own, f64::NEG_INFINITY)
    }

    /// [`earliest_before_bounded`](Self::earliest_before_bounded) looking
    /// only at the starts from `not_before` (s) on, for a caller that knows
    /// no earlier start fits (a compression that just found every start
    /// before `not_before` closed to a job no larger and no longer: a window
    /// that fits this job would fit that one, the own blocks counted); the
    /// bound covers those starts only.
    pub fn earliest_before_bounded_from(
        &self,
        duration: f64,
        size: i64,
        limit: f64,
        own: f64,
        not_before: f64,
    ) -> Result<f64, i64> {
        let extra = Some((own, own + duration, size));
        let from = if not_before > self.time[0] {
            self.time.partition_point(|&x| x < not_before)
        } else {
            0
        };
        if !self.skipping {
            return self
                .first_window(duration, size, limit, extra, from)
                .ok_or(size - 1);
        }
        match self.first_window_bounded(duration, size, limit, extra, from) {
            (Some((c, _)), _) => Ok(self.time[c]),
            (None, seen) => Err(seen.min(size - 1)),
        }
    }

    /// The first breakpoint from `from` on and before `end` (s) whose
    /// free units (plus `extra`) are at least `size`; `seen` rises to at
    /// least the free units (plus `extra`) of every breakpoint passed.
    fn first_at_least(
        &self,
        from: usize,
        end: f64,
        size: i64,
        extra: Option<Extra>,
        seen: &mut i64,
    ) -> Option<usize> {
        self.phased(from, end, extra, |from, end, k| {
            self.scan(from, end, |f| f >= size, |hi, _| hi < size, k, seen)
        })
        .ok()
    }

    /// The first breakpoint from `from` on and before `end` (s) whose
    /// free units (plus `extra`) are below `size`, or `Err` with the first
    /// breakpoint at or after `end` (or the length). The scan stops there:
    /// a window costs what it covers, never a search for its last
    /// breakpoint.
    fn first_below(
        &self,
        from: usize,
        end: f64,
        size: i64,
        extra: Option<Extra>,
    ) -> Result<usize, usize> {
        let mut unused = 0;
        self.phased(from, end, extra, |from, end, k| {
            self.scan(from, end, |f| f < size, |_, lo| lo >= size, k, &mut unused)
        })
    }

    /// Runs `scan(from, end, k)` over the breakpoints from `from` on and
    /// before `end` in up to three stretches: before `extra`'s start (k =
    /// 0), within it (k = its units) and after it (k = 0), each resuming
    /// where the last stopped; the first hit of any, or `Err` with where
    /// the last stretch stopped.
    fn phased(
        &self,
        from: usize,
        end: f64,
        extra: Option<Extra>,
        mut scan: impl FnMut(usize, f64, i64) -> Result<usize, usize>,
    ) -> Result<usize, usize> {
        let Some((a, b, k)) = extra else {
            return scan(from, end, 0);
        };
        // A hit ends the search; a stretch that ran out hands on its stop.
        let i = match scan(from, end.min(a), 0) {
            Ok(j) => return Ok(j),
            Err(i) => i,
        };
        let i = match scan(i, end.min(b), k) {
            Ok(j) => return Ok(j),
            Err(i) => i,
        };
        scan(i, end, 0)
    }

    /// The first breakpoint from `from` on and before `end` (s) whose free
    /// units + `k` pass `hit`, or `Err` with the index at which the scan
    /// stopped (the first breakpoint at or after `end`, or the length).
    /// A whole block of [`BLOCK`] breakpoints that lies before `end` is
    /// skipped at once when its (max, min) + `k` pass `skip` (none in it
    /// can hit). `seen` rises to at least the free units + `k` of every
    /// breakpoint passed (a skipped block counts its max).
    fn scan(
        &self,
        from: usize,
        end: f64,
        hit: impl Fn(i64) -> bool,
        skip: impl Fn(i64, i64) -> bool,
        k: i64,
        seen: &mut i64,
    ) -> Result<usize, usize> {
        let n = self.time.len();
        let mut i = from;
        while i < n && self.time[i] < end {
            let b = i / BLOCK;
            let stop = (b + 1) * BLOCK;
            if let Some(&(hi, lo)) = self.blocks.get(b)
                && self.time[stop - 1] < end
                && skip(hi + k, lo + k)
            {
                *seen = (*seen).max(hi + k);
                i = stop;
                continue;
            }
            let stop = stop.min(n);
            while i < stop {
                if self.time[i] >= end {
                    return Err(i);
                }
                let f = self.free[i] + k;
                if hit(f) {
                    return Ok(i);
                }
                *seen = (*seen).max(f);
                i += 1;
            }
        }
        Err(i)
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
    ///
    /// The breakpoints are in order already, and the blocks' starts and
    /// ends are sorted apart (blocks given by start, as a backfilling's
    /// reservations are, cost one pass to sort their starts) and the three
    /// merged: the changes at one time add up whatever their order.
    pub fn reserve_all(&mut self, blocks: impl IntoIterator<Item = (f64, f64, i64)>) {
        let clock = self.time[0];
        let mut deltas: Vec<(f64, i64)> = Vec::with_capacity(self.time.len());
        let mut before = 0;
        for (&t, &f) in self.time.iter().zip(&self.free) {
            deltas.push((t, f - before));
            before = f;
        }
        let (mut starts, mut ends) = (Vec::new(), Vec::new());
        for (start, duration, size) in blocks {
            let start = start.max(clock);
            starts.push((start, -size));
            ends.push((start + duration, size));
        }
        starts.sort_by(|a, b| a.0.total_cmp(&b.0));
        ends.sort_by(|a, b| a.0.total_cmp(&b.0));
        let merged = merge_by_time(&merge_by_time(&deltas, &starts), &ends);
        self.time.clear();
        self.free.clear();
        let mut f = 0;
        for (t, d) in merged {
            f += d;
            match self.time.last() {
                Some(&last) if last == t => *self.free.last_mut().expect("same length") = f,
                _ => {
                    self.time.push(t);
                    self.free.push(f);
                }
            }
        }
        self.summarize_from(0);
    }

    // Index of a breakpoint at exactly `t`, inserted if absent (t ≥ clock).
    // The first of several breakpoints at `t` (copies left by `advance`),
    // so that an update from `t` on changes every one of them alike.
    fn split_at(&mut self, t: f64) -> usize {
        let a = self.time.partition_point(|&x| x < t).max(1);
        if self.time[a - 1] == t {
            return a - 1;
        }
        if a < self.time.len() && self.time[a] == t {
            return a;
        }
        self.time.insert(a, t);
        let f = self.free[a - 1];
        self.free.insert(a, f);
        a
    }

    /// Takes `size` units over `[start, start + duration)` (s); a negative
    /// `size` gives them back, e.g. to lift a reservation and try it
    /// elsewhere.
    pub fn reserve(&mut self, start: f64, duration: f64, size: i64) {
        self.reserve_until(start, start + duration, size);
    }

    /// Moves a block of `size` units for `duration` s from `from` to `to`
    /// (s, both ≥ the clock): the same profile, breakpoint for breakpoint,
    /// as giving it back at `from` and taking it at `to`, with the stretch
    /// both cover left alone.
    pub fn move_block(&mut self, from: f64, to: f64, duration: f64, size: i64) {
        let (from_end, to_end) = (from + duration, to + duration);
        if to < from && from < to_end {
            self.reserve_until(to, from, size);
            self.reserve_until(to_end, from_end, -size);
        } else if from < to && to < from_end {
            self.reserve_until(from, to, -size);
            self.reserve_until(from_end, to_end, size);
        } else {
            self.reserve_until(from, from_end, -size);
            self.reserve_until(to, to_end, size);
        }
    }

    /// Takes `size` units over `[start, end)` (s, `start` ≥ the clock); a
    /// negative `size` gives them back — e.g. the units of a job that
    /// ended at `start` before its predicted end `end`, given back with the
    /// very `end` the profile was built with.
    pub fn reserve_until(&mut self, start: f64, end: f64, size: i64) {
        let n = self.time.len();
        let a = self.split_at(start);
        let start_was_there = self.time.len() == n;
        let b = self.split_at(end);
        for f in &mut self.free[a..b] {
            *f -= size;
        }
        if start_was_there {
            // No breakpoint moved to another block before `b`: the blocks
            // over a..b changed by the units taken (a moved reservation's
            // old block, units given back up to the very end the profile
            // holds, a job starting on a step that already was one) ...
            self.summarize_taken(a, b, size);
            if self.time.len() > n {
                // ... and those from the one inserted at `b` on shifted.
                self.summarize_from(b);
            }
        } else {
            self.summarize_from(a);
        }
    }
}

/// The changes of `a` and `b` (each by time) in one list by time.
fn merge_by_time(a: &[(f64, i64)], b: &[(f64, i64)]) -> Vec<(f64, i64)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if b[j].0 < a[i].0 {
            out.push(b[j]);
            j += 1;
        } else {
            out.push(a[i]);
            i += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests;
