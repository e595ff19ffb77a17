//! Backfilling with a reservation depth: jobs are served in submit order,
//! any job may start now if it does not delay a reservation, and the first
//! `depth` jobs that cannot start hold a reservation. Depth 0 is greedy
//! backfilling (no reservation), 1 is EASY (Lifka 1995: only the first
//! waiting job is protected), and `usize::MAX` is Conservative (Mu'alem &
//! Feitelson 2001: every waiting job holds one). Compare [`super::fcfs`],
//! which stops at the first job that does not fit, and [`super::catalina`],
//! which rebuilds its reservations at every pass in priority order.
//!
//! **Reservations are kept, and the promise with them** (Mu'alem &
//! Feitelson 2001): a job that cannot start gets, while fewer than `depth`
//! jobs hold one, the earliest start in the availability profile of the
//! running jobs and the reservations already held, and it never starts
//! later than that — unless a running job outruns its estimate, which the
//! profile could not foresee. When a job ends before its estimate, the
//! reservations are compressed: in order of their current start (then
//! submit order), each moves to its earliest start no later than where it
//! is, the other reservations staying in place ([`Profile::earliest_before`]).
//! A job starts when its reservation is due. When a job outruns its
//! estimate and the reservations behind it no longer fit, every
//! reservation is placed again, in the same order, at its earliest start.
//!
//! Cost: the profile of the running jobs and the reservations is kept
//! from one pass to the next: the clock moves on, and the units of a job
//! that ended before its predicted end are given back up to that end
//! ([`Profile::reserve_until`] with the very time the profile holds). It is
//! rebuilt from the machine and the reservations (one sweep, O(B log B) for
//! B breakpoints) only after a pass without one, or when a running job has
//! outrun its estimate (its predicted end then moves with the clock). The
//! kept profile is the rebuilt one as a step function — the same blocks at
//! the same float times — so every query answers the same; the
//! breakpoints where nothing changes any more, which units given back and
//! moved reservations leave behind, are dropped after each pass's early
//! ends and after each compression that moved one ([`Profile::compact`]),
//! which keeps a scan to the breakpoints that matter (about a third on
//! Curie). Placing a new
//! reservation is a scan that skips busy stretches a block of breakpoints
//! at a time ([`Profile`]). A compression, only in a pass after a job ended
//! other than at its predicted end, scans for each reservation only the
//! starts that can have become free since it was last placed: those before
//! the latest predicted end of the jobs that ended since, or before the
//! end of a block another reservation left (`Backfill::held_profile`).
//! Every later start was already taken when the reservation was placed or
//! last compressed, and the profile has only lost units there since, so
//! the full scan would find none there either — whether its last turn was
//! a scan or the skip that follows. A reservation whose last full scan
//! found at most k units free at some instant of every window before it
//! is not scanned at all while the units the profile has gained since (the
//! sizes of the jobs that ended early and of the reservations that moved)
//! cannot lift k to its size ([`Profile::earliest_before_bounded`]): no
//! window can open then, so the skip leaves every window before it as
//! closed as a scan would have found it. Nor is a reservation scanned
//! before the start of one no larger and no shorter that the same
//! compression found closed earlier (`Closed`): a window that fits it
//! would fit that one. The reservations are kept by start from pass to
//! pass while the queue keeps its order, and when every waiting job holds
//! one a pass only starts the due ones and serves the jobs submitted
//! since. Tested against a reference that rebuilds and scans everything
//! at every pass (tests/it/env_d_promise.rs).

use super::scheduler::Scheduler;
use crate::env::classic::ClassicJob;
use crate::env::classic::engine::machine::MachineState;
use crate::env::classic::engine::machine::UnplannedEnd;
use crate::sim::profile::Profile;

/// Backfilling with at most `depth` jobs holding a reservation.
#[derive(Debug, Clone)]
pub struct Backfill {
    /// Reservation depth: 0 greedy, 1 EASY, `usize::MAX` Conservative.
    pub depth: usize,
    /// The current reservation of each job that holds one, s (by job index).
    reservation: Vec<Option<f64>>,
    /// Jobs holding a reservation.
    holders: usize,
    /// [`MachineState::unplanned_ends`] at the last pass.
    seen: u64,
    /// The latest end (s) of a block a reservation left when compression
    /// moved it earlier (−∞ when none since the last compression): the
    /// reservations compressed before it in that pass may move into it.
    left_until: f64,
    /// Units the profile has gained in all since the start, counted at
    /// every unplanned end (the job's size) and every reservation
    /// compression moved (its size): at no instant has the profile gained
    /// more since any earlier count.
    freed: u64,
    /// The next queue, built during a pass (kept to reuse its memory).
    keep: Vec<usize>,
    /// The last pass's profile at its end, kept for the next pass (exact
    /// when `kept` is true) or to reuse its memory.
    spare: Profile,
    /// Whether `spare` is the exact profile at the end of the last pass:
    /// the running jobs and every reservation held, all blocks in it.
    kept: bool,
    /// The reservations held, by current start then queue order: kept
    /// from pass to pass while the queue keeps its order.
    held: Vec<Held>,
    /// How many reservations at the front of `held` have started: they are
    /// taken out of it lazily, once they outnumber the others, so that a
    /// pass that starts the first few does not move all the rest.
    held_from: usize,
    /// Reservations to be merged into `held` ([`merge_into`]): those a
    /// pass placed, or a compression moved (kept to reuse its memory).
    fresh: Vec<Held>,
    /// Where the reservations a compression moved are in `held` (kept to
    /// reuse its memory).
    moved: Vec<usize>,
    /// Each job's place in queue order (by job index): numbered as it joins
    /// the queue, or again in order when the queue was reordered.
    rank: Vec<u64>,
    /// The next number of `rank`.
    next_rank: u64,
    /// The queue as the last pass left it.
    left: Vec<usize>,
}

/// A reservation held, with what a compression needs of its job.
#[derive(Debug, Clone, Copy)]
struct Held {
    /// Its start, s.
    start: f64,
    /// Its job's [`Backfill::rank`].
    rank: u64,
    /// The job.
    job: usize,
    /// The job's estimate, s.
    estimate: f64,
    /// The job's size, units.
    size: i64,
    /// The most units free, at some instant, in every window before its
    /// start, counting its own block ([`Profile::earliest_before_bounded`];
    /// `i64::MAX` when unknown): while the units gained since `at`
    /// cannot lift that to its size, it cannot move.
    bound: i64,
    /// [`Backfill::freed`] when `bound` was found.
    at: u64,
    /// [`Backfill::freed`] at its last turn in a compression: the windows
    /// a compression does not scan have gained nothing since.
    turn: u64,
}

impl Held {
    /// A new reservation of job `i` at `start` (s), its bound unknown.
    fn new(start: f64, rank: u64, i: usize, job: &ClassicJob) -> Held {
        Held {
            start,
            rank,
            job: i,
            estimate: job.estimate,
            size: i64::from(job.size),
            bound: i64::MAX,
            at: 0,
            turn: 0,
        }
    }
}

/// The last reservations a compression found closed (every start before
/// theirs fits them nowhere), as (size, estimate s, start s). A job no
/// larger and no longer than one of them, later in the compression's
/// order (so starting no earlier), cannot start before it either: its
/// window would fit that job, whose own block covers any part of the
/// window inside this job's own block. They stay closed when a later
/// reservation moves: the units it gives back come after their start,
/// inside their own blocks as far as their windows reach.
#[derive(Debug, Default)]
struct Closed {
    /// A ring of the last [`Closed::KEPT`] (the first `count` slots
    /// while fewer were pushed).
    slots: [(i64, f64, f64); Closed::KEPT],
    /// Reservations pushed (the next slot is this modulo `KEPT`).
    count: usize,
}

impl Closed {
    /// Reservations kept: on Curie the last 8 skip about two scans in
    /// three.
    const KEPT: usize = 8;

    fn push(&mut self, size: i64, estimate: f64, start: f64) {
        self.slots[self.count % Self::KEPT] = (size, estimate, start);
        self.count += 1;
    }

    /// The latest start (s) before which every start is closed to a job
    /// of `size` units for `estimate` s (−∞ when none is known).
    fn until(&self, size: i64, estimate: f64) -> f64 {
        self.slots[..self.count.min(Self::KEPT)]
            .iter()
            .filter(|&&(s, e, _)| s <= size && e <= estimate)
            .fold(f64::NEG_INFINITY, |u, &(_, _, t)| u.max(t))
    }
}

/// Order of [`Backfill::held`]: by start, then queue order.
fn by_start(a: &Held, b: &Held) -> std::cmp::Ordering {
    a.start.total_cmp(&b.start).then(a.rank.cmp(&b.rank))
}

/// Merges `extra` (any order; left empty) into `held[from..]` (in
/// [`by_start`] order), which ends in that order: the order a sort of
/// both gives (ranks are unique, so no two reservations are equal), at the
/// cost of sorting `extra` and moving the reservations of `held` that come
/// after the first of `extra`, where a sort of the whole would compare and
/// copy every one (on Curie under Conservative, a tenth of the replay's
/// instructions).
fn merge_into(held: &mut Vec<Held>, from: usize, extra: &mut Vec<Held>) {
    if extra.is_empty() {
        return;
    }
    extra.sort_by(by_start);
    let n = held.len();
    held.extend_from_slice(extra);
    // From the back: the larger of the two lists' last goes last.
    let (mut i, mut j) = (n, extra.len());
    while j > 0 {
        let w = i + j - 1;
        if i > from && by_start(&held[i - 1], &extra[j - 1]).is_gt() {
            held[w] = held[i - 1];
            i -= 1;
        } else {
            held[w] = extra[j - 1];
            j -= 1;
        }
    }
    extra.clear();
}

impl Backfill {
    /// Backfilling with at most `depth` reservations held at once.
    pub fn new(depth: usize) -> Backfill {
        Backfill {
            depth,
            reservation: Vec::new(),
            holders: 0,
            seen: 0,
            left_until: f64::NEG_INFINITY,
            freed: 0,
            keep: Vec::new(),
            spare: Profile::default(),
            kept: false,
            held: Vec::new(),
            held_from: 0,
            fresh: Vec::new(),
            moved: Vec::new(),
            rank: Vec::new(),
            next_rank: 0,
            left: Vec::new(),
        }
    }
}

impl Scheduler for Backfill {
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>) {
        self.serve(queue, now, machine, false);
    }
}

impl Backfill {
    /// One pass over `queue` in its order, as [`Scheduler::pass`]; with
    /// `stop_at_head`, the pass ends as soon as the first job of `queue`
    /// starts (the rest left waiting in order, for the next decision:
    /// [`crate::env::classic::selection`]) and returns `true`. Returns
    /// whether the first job started.
    pub fn serve(
        &mut self,
        queue: &mut Vec<usize>,
        now: f64,
        machine: &mut MachineState<'_>,
        stop_at_head: bool,
    ) -> bool {
        let jobs = machine.jobs();
        let mut head_started = false;
        if self.reservation.len() != jobs.len() {
            self.reservation = vec![None; jobs.len()];
            self.rank = vec![0; jobs.len()];
        }
        // The queue the last pass left, then the jobs submitted since: the
        // reservations held stay as they were gathered. Otherwise (the
        // queue was reordered from outside) they are gathered again.
        let old = self.left.len();
        let kept_order = queue.len() >= old && queue[..old] == self.left[..];
        let fresh = if kept_order { old } else { 0 };
        for &i in &queue[fresh..] {
            self.rank[i] = self.next_rank;
            self.next_rank += 1;
        }
        if !kept_order {
            self.held.clear();
            self.held_from = 0;
            self.held.extend(queue.iter().filter_map(|&i| {
                self.reservation[i].map(|r| Held::new(r, self.rank[i], i, &jobs[i]))
            }));
            self.held.sort_by(by_start);
        }
        let ends = machine.unplanned_since(self.seen);
        self.seen = machine.unplanned_ends();
        let mut profile = (self.holders > 0).then(|| self.held_profile(now, machine, ends));
        let mut spare = std::mem::take(&mut self.spare);
        let mut keep = std::mem::take(&mut self.keep);
        keep.clear();
        // When every job the last pass left holds a reservation (always, under
        // Conservative), those jobs only start when their reservation is due:
        // the first reservations by start. They start in queue order, and the
        // loop below goes on from the jobs submitted since.
        let live = self.held.len() - self.held_from;
        let from = if kept_order && !stop_at_head && old > 0 && live == old {
            let due = self.held[self.held_from..].partition_point(|h| h.start <= now);
            if due == 0 {
                keep.extend_from_slice(&queue[..old]);
            } else {
                let (a, b) = (self.held_from, self.held_from + due);
                let mut starting: Vec<(u64, usize)> =
                    self.held[a..b].iter().map(|h| (h.rank, h.job)).collect();
                self.held_from = b;
                if 2 * b > self.held.len() {
                    self.held.drain(..b);
                    self.held_from = 0;
                }
                starting.sort_unstable();
                for &(_, i) in &starting {
                    self.reservation[i] = None;
                    self.holders -= 1;
                    machine.start(i, now, Vec::new());
                }
                head_started = self.reservation[queue[0]].is_none();
                keep.extend(
                    queue[..old]
                        .iter()
                        .filter(|&&i| self.reservation[i].is_some()),
                );
            }
            old
        } else {
            0
        };
        // Reservations that started from the loop, or were placed in it.
        let mut left_held = false;
        for (qi, &i) in queue.iter().enumerate().skip(from) {
            // Nothing more can start, and no reservation is left to give.
            if machine.free() == 0 && self.holders >= self.depth {
                keep.extend_from_slice(&queue[qi..]);
                break;
            }
            let size = i64::from(jobs[i].size);
            let est = jobs[i].estimate;
            let started = match self.reservation[i] {
                Some(r) if r <= now => {
                    // Due: its block in the profile becomes the running job's.
                    self.reservation[i] = None;
                    self.holders -= 1;
                    left_held = true;
                    machine.start(i, now, Vec::new());
                    true
                }
                Some(_) => false,
                None if size <= machine.free()
                    && profile.as_ref().is_none_or(|p| p.fits(now, est, size)) =>
                {
                    if let Some(p) = profile.as_mut() {
                        p.reserve(now, est, size);
                    }
                    machine.start(i, now, Vec::new());
                    true
                }
                None => {
                    if self.holders < self.depth {
                        let p = profile.get_or_insert_with(|| {
                            machine.profile_into(now, &mut spare);
                            spare.set_block_skipping(true);
                            std::mem::take(&mut spare)
                        });
                        if let Some(t) = p.place(est, size) {
                            self.reservation[i] = Some(t);
                            self.holders += 1;
                            self.fresh.push(Held::new(t, self.rank[i], i, &jobs[i]));
                            machine.record_reservation(i, t);
                        }
                    }
                    false
                }
            };
            if !started {
                keep.push(i);
            } else if qi == 0 {
                head_started = true;
                if stop_at_head {
                    keep.extend_from_slice(&queue[1..]);
                    break;
                }
            }
        }
        if left_held {
            let reservation = &self.reservation;
            // (The reservations before `held_from` have started: their jobs
            // hold none any more.)
            self.held.retain(|h| reservation[h.job].is_some());
            self.held_from = 0;
        }
        merge_into(&mut self.held, self.held_from, &mut self.fresh);
        self.keep = std::mem::replace(queue, keep);
        self.left.clear();
        self.left.extend_from_slice(queue);
        // Every start of this pass after the profile was made is in it.
        self.kept = profile.is_some();
        self.spare = profile.unwrap_or(spare);
        head_started
    }

    /// The pass's profile: the running jobs and every reservation held,
    /// compressed when a job ended other than at its predicted end since
    /// the last pass (`ends`), placed again when they no longer fit.
    ///
    /// The last pass's profile is kept when it can be: every one of `ends`
    /// came before its predicted end (its units are given back from now to
    /// that end) and no running job has outrun its estimate.
    ///
    /// A compression scans a reservation's earlier starts only before the
    /// latest time at which the profile can have gained units since the
    /// reservation was placed or last compressed (the predicted ends of
    /// `ends`, and the ends of the blocks left by reservations moved
    /// earlier, in this compression or after it in the last one). At that
    /// moment no start before the reservation fitted; a window that lies
    /// wholly after that time has since only lost units (starts, new
    /// reservations, predicted ends pushed back), so it still does not
    /// fit, and the scan finds the start a full scan would find, or none.
    fn held_profile(
        &mut self,
        now: f64,
        machine: &MachineState<'_>,
        ends: &[UnplannedEnd],
    ) -> Profile {
        let jobs = machine.jobs();
        let changed = !ends.is_empty();
        self.freed += ends
            .iter()
            .map(|e| u64::from(jobs[e.job].size))
            .sum::<u64>();
        // Units freed by `ends`, at most until this time.
        let freed_until = ends.iter().fold(f64::NEG_INFINITY, |a, e| a.max(e.horizon));
        // Reservations by current start, then queue order.
        let mut held = std::mem::take(&mut self.held);
        // (Those before `held_from` have started.)
        let live = &mut held[self.held_from..];
        let block = |h: &Held| (h.start, h.estimate, h.size);
        let mut p = std::mem::take(&mut self.spare);
        if self.kept && !machine.overrun(now) && ends.iter().all(|e| e.at < e.planned) {
            p.advance(now);
            for e in ends {
                if e.planned > now {
                    p.reserve_until(now, e.planned, -i64::from(jobs[e.job].size));
                }
            }
            if !ends.is_empty() {
                p.compact();
            }
        } else {
            machine.profile_into(now, &mut p);
            // Compressions scan this profile once per reservation.
            p.set_block_skipping(true);
            if live.len() <= 4 {
                // A few blocks: inserted in place (the same step function as
                // `reserve_all`, without its sort).
                for (r, est, size) in live.iter().map(block) {
                    p.reserve(r.max(now), est, size);
                }
            } else {
                p.reserve_all(live.iter().map(block));
            }
        }
        let replace = p.overcommitted() || live.iter().any(|h| h.start < now);
        if replace {
            // A running job outran its estimate: place every reservation
            // again, in order, at its earliest start.
            machine.profile_into(now, &mut p);
            p.set_block_skipping(true);
            for h in live.iter_mut() {
                let (est, size) = (h.estimate, h.size);
                let t = p.earliest(est, size).unwrap_or(h.start);
                p.reserve(t, est, size);
                self.reservation[h.job] = Some(t);
                *h = Held::new(t, h.rank, h.job, &jobs[h.job]);
            }
            live.sort_by(by_start);
            self.left_until = f64::NEG_INFINITY;
        } else if changed {
            // Compression: each to its earliest start no later than its own,
            // looked for only where units can have been freed.
            let mut until = self.left_until.max(freed_until);
            let mut left_until = f64::NEG_INFINITY;
            let mut closed = Closed::default();
            // Where the reservations that move are in `live`.
            let mut moved = std::mem::take(&mut self.moved);
            moved.clear();
            for (k, h) in live.iter_mut().enumerate() {
                let (r, est, size) = (h.start, h.estimate, h.size);
                if r <= now {
                    continue; // due now: it cannot start earlier
                }
                let (bound, at) = (h.bound, h.at);
                let gained = i64::try_from(self.freed - at).unwrap_or(i64::MAX);
                let last_turn = std::mem::replace(&mut h.turn, self.freed);
                if bound.saturating_add(gained) < size {
                    // Too few units gained anywhere to open a window.
                    closed.push(size, est, r);
                    continue;
                }
                let limit = r.min(until);
                if limit <= now {
                    closed.push(size, est, r);
                    continue; // nothing freed before it
                }
                // Every start before `from` is closed to a job no larger and
                // no longer, so to this one.
                let from = closed.until(size, est);
                if from >= limit {
                    closed.push(size, est, r);
                    continue;
                }
                let found = p.earliest_before_bounded_from(est, size, limit, r, from);
                if found.is_err() {
                    closed.push(size, est, r);
                }
                match found {
                    Ok(t) => {
                        p.move_block(r, t, est, size);
                        self.reservation[h.job] = Some(t);
                        self.freed += size.unsigned_abs();
                        *h = Held::new(t, h.rank, h.job, &jobs[h.job]);
                        moved.push(k);
                        until = until.max(r + est);
                        left_until = left_until.max(r + est);
                    }
                    // The bound covers the starts from `from` only.
                    Err(_) if from > now => {}
                    // Every start before r was looked at.
                    Err(b) if limit == r => (h.bound, h.at) = (b, self.freed),
                    // Every start from `limit` on was closed at its last
                    // turn and has gained nothing since: its bound then.
                    Err(b) if bound != i64::MAX => {
                        let since_last = i64::try_from(last_turn - at).unwrap_or(i64::MAX);
                        let b = b.min(bound.saturating_add(gained));
                        (h.bound, h.at) = (b.max(bound.saturating_add(since_last)), self.freed);
                    }
                    Err(_) => {}
                }
            }
            self.left_until = left_until;
            if !moved.is_empty() {
                // The others keep their order, and a reservation only moves
                // earlier: each moved one, first to last, is put back in
                // the part before it (in order by then) at its new start.
                for &k in &moved {
                    let h = live[k];
                    let at = live[..k].partition_point(|g| by_start(g, &h).is_lt());
                    live[at..=k].rotate_right(1);
                }
                p.compact();
            }
            self.moved = moved;
        }
        self.held = held;
        p
    }
}
