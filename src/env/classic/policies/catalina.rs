//! Catalina (SDSC; Margo, Yoshimoto and Kovatch, "Preemption and Priority
//! Calculation in Production Job Data", §2): the queue in descending
//! priority order, the priority recomputed at every pass from the ten
//! weighted factors of [`crate::env::classic::catalina`]; then a
//! conservative backfilling pass in that order ([`rebuild_pass`]): a job
//! starts now if it fits around the reservations of the jobs before it,
//! else it gets its earliest start after them.
//!
//! Catalina's reservations are rebuilt at every pass, in the priority order
//! of that pass: a job whose priority rises overtakes the reservations of
//! the jobs it now outranks. So Conservative's promise (Mu'alem & Feitelson
//! 2001: never start later than the first reservation) does not hold for
//! Catalina, and no reservation is recorded for its jobs. Without
//! preemption, a pass takes up the last one where a rebuilt pass would
//! place the same reservations (`Catalina::kept_pass`): the starts, and so
//! the schedule, are those of a pass rebuilt from scratch.
//!
//! With suspension preemption ([`Preemption`]; Margo et al. §3), a pass
//! first resumes the suspended jobs that can resume, then serves the queue,
//! and a preempting job that does not fit tries to suspend running jobs
//! under the five rules before it falls back to a reservation.
//!
//! The priority formula and the preemption rule stay in
//! [`crate::env::classic::catalina`]: they are the configuration (the
//! payload of [`crate::env::classic::Policy`], set by the registry, the
//! command line and experiment presets), while this file is the behaviour.

use super::scheduler::Scheduler;
use crate::env::classic::ClassicJob;
use crate::env::classic::catalina::{CatalinaWeights, Preemption, priority, priority_line};
use crate::env::classic::engine::machine::MachineState;
use crate::sim::profile::Profile;

/// Catalina's priority order with conservative backfilling, optionally with
/// suspension preemption.
#[derive(Debug, Clone)]
pub struct Catalina {
    /// The ten priority weights.
    pub weights: CatalinaWeights,
    /// Suspension preemption and its marks, or `None` for none.
    pub preemption: Option<Preemption>,
    /// What the last pass left, for the next one to take up.
    kept: Kept,
    /// Each job's priority as a line in the clock, to order the queue
    /// without preemption.
    lines: Lines,
}

/// The end of the last pass without preemption, which the next pass takes
/// up where the profile of the running jobs has not changed since but for
/// early ends ([`Catalina::kept_pass`]).
#[derive(Debug, Clone, Default)]
struct Kept {
    /// The profile at the end of the last pass: the running jobs (those it
    /// started among them) and the reservations it placed; `None` when it
    /// placed none.
    profile: Option<Profile>,
    /// The reservations in that profile, in queue order.
    placed: Vec<Placed>,
    /// [`MachineState::unplanned_ends`] at the end of the last pass.
    seen: u64,
    /// Units the profile has gained, in all, since the replay began: the
    /// sizes of the jobs that ended before their predicted end (at no
    /// instant has the profile gained more since any earlier count).
    freed: u64,
}

/// A reservation placed by a pass without preemption.
#[derive(Debug, Clone, Copy)]
struct Placed {
    /// The job.
    job: usize,
    /// Its start, s.
    start: f64,
    /// Every window before `start` had, at some instant, at most this
    /// many units free when it was placed ([`Profile::place_bounded`]).
    bound: i64,
    /// [`Kept::freed`] when it was placed.
    freed: u64,
}

impl Catalina {
    /// Catalina with these weights and preemption rule, nothing kept yet.
    pub fn new(weights: CatalinaWeights, preemption: Option<Preemption>) -> Catalina {
        Catalina {
            weights,
            preemption,
            kept: Kept::default(),
            lines: Lines::default(),
        }
    }
}

impl Scheduler for Catalina {
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>) {
        match self.preemption {
            None => {
                self.order_by_lines(queue, now, machine.jobs());
                let before = machine.started().len();
                self.kept_pass(machine, queue, now);
                self.lines.left.clear();
                self.lines.left.extend_from_slice(queue);
                // A job's recorded priority is the one of the pass it
                // starts in. A job still waiting when nothing runs any more
                // can never start (it is larger than the machine): it
                // keeps the priority of the last pass, as it would have.
                let jobs = machine.jobs();
                let at = |i: usize| {
                    let j = &jobs[i];
                    priority(&self.weights, j.size, j.submit, j.estimate, now)
                };
                for k in before..machine.started().len() {
                    let i = machine.started()[k];
                    machine.set_priority(i, at(i));
                }
                if machine.running().next().is_none() {
                    for &i in queue.iter() {
                        machine.set_priority(i, at(i));
                    }
                }
            }
            Some(rule) => {
                self.order(queue, now, machine);
                let profile = resume_suspended(machine, now);
                let preempt = |m: &mut MachineState<'_>, p: usize, now: f64, q: &mut Profile| {
                    try_preempt(&rule, m, p, now, q)
                };
                let jobs = machine.jobs();
                // Past the last job marked preempting, a job that does not
                // fit cannot start by preempting either.
                let last = queue
                    .iter()
                    .rposition(|&i| rule.preempting(jobs[i].size))
                    .map_or(0, |k| k + 1);
                rebuild_pass(machine, queue, now, Some(profile), Some((&preempt, last)));
            }
        }
    }

    fn tracks_units(&self) -> bool {
        self.preemption.is_some()
    }
}

/// A way to start a job that does not fit now by suspending running ones:
/// given the machine, the job, the clock (s) and the pass's profile, it
/// starts the job and returns true, or changes nothing and returns false.
pub type Preempt<'p> = &'p dyn Fn(&mut MachineState<'_>, usize, f64, &mut Profile) -> bool;

/// One conservative backfilling pass over `queue` (in the order to serve
/// it), every reservation rebuilt for this pass only; leaves in `queue` the
/// jobs still waiting, in the same order.
///
/// `profile` is the availability profile to start from (running jobs and
/// anything the caller already placed, e.g. resumed jobs); without one the
/// pass counts free units until its first reservation and builds the
/// profile then. A job that fits now also needs eligible units when the
/// machine tracks units ([`MachineState::units_to_start`]). A job that does
/// not fit is offered to `preempt` (given with the queue position after the
/// last job that may preempt), which then needs a profile, before it is
/// given a reservation.
///
/// The pass stops as soon as fewer units are free than the smallest job
/// left needs (and no job left may preempt): none of them can start now,
/// and their reservations, rebuilt at the next pass anyway, could only
/// bear on jobs after them. It also stops when no job left fits the
/// profile from now for its estimate (`MayFit::any_fits_now`): the pass
/// only takes units from the profile, so none of them would fit later in
/// the pass either. The check runs before the reservation of a job that
/// does not start, unless a job left found to fit at an earlier check (its
/// `Witness`, the one with the shortest estimate) still fits: each
/// reservation, and each start, that takes units before its estimate ends
/// checks its window again. A witness can only keep a pass going, never
/// stop one. This leaves every start, and so the schedule, as a pass
/// over the whole queue would; it bounds a pass on a full machine by the
/// jobs that can still start rather than by the queue.
pub fn rebuild_pass(
    machine: &mut MachineState<'_>,
    queue: &mut Vec<usize>,
    now: f64,
    profile: Option<Profile>,
    preempt: Option<(Preempt<'_>, usize)>,
) {
    let start = Resume {
        from: 0,
        keep: Vec::with_capacity(queue.len()),
        profile,
    };
    serve(machine, queue, now, start, preempt, None);
}

/// Where a pass starts serving the queue: at queue position `from`, the
/// jobs before it already served (`keep`, those still waiting), with the
/// profile they left (`None`: the running jobs', built at the first
/// reservation).
struct Resume {
    from: usize,
    keep: Vec<usize>,
    profile: Option<Profile>,
}

/// [`rebuild_pass`] from `start` on: serves `queue[start.from..]` with
/// its stops, appends each reservation it places to `placed` (if given,
/// with `freed`, [`Kept::freed`] now), and returns the profile it ends
/// with. A pass that records its reservations on a machine that does not
/// name units tells whether a job starts and where it is placed in one
/// search while a witness is kept.
fn serve(
    machine: &mut MachineState<'_>,
    queue: &mut Vec<usize>,
    now: f64,
    start: Resume,
    preempt: Option<(Preempt<'_>, usize)>,
    mut placed: Option<(&mut Vec<Placed>, u64)>,
) -> Option<Profile> {
    let Resume {
        from,
        mut keep,
        mut profile,
    } = start;
    let jobs = machine.jobs();
    // Smallest size among the jobs from each queue position on.
    let mut smallest = vec![i64::MAX; queue.len() + 1];
    for k in (from..queue.len()).rev() {
        smallest[k] = smallest[k + 1].min(i64::from(jobs[queue[k]].size));
    }
    let may_stop_from = preempt.map_or(0, |(_, last)| last);
    let mut alive = MayFit::default();
    // A job after `qi` known to fit the profile from now, with its queue
    // position.
    let mut witness: Option<(usize, Witness)> = None;
    for (qi, &i) in queue.iter().enumerate().skip(from) {
        if witness.is_some_and(|(at, _)| at <= qi) {
            witness = None; // reached: it starts now or never will
        }
        if qi >= may_stop_from && machine.free() < smallest[qi] {
            keep.extend_from_slice(&queue[qi..]);
            break;
        }
        let size = i64::from(jobs[i].size);
        let est = jobs[i].estimate;
        // With a witness kept, a job that does not start is placed at once
        // (no check comes between): one search tells both, since its
        // earliest start is now exactly when it fits now, and the block
        // placed there is the one a start takes.
        if witness.is_some()
            && !machine.tracks_units()
            && let (Some((placed, freed)), Some(p)) = (placed.as_mut(), profile.as_mut())
        {
            debug_assert_eq!(p.free_now(), machine.free());
            let got = p.place_bounded(est, size);
            let Some((at, bound)) = got else {
                keep.push(i);
                continue;
            };
            witness = witness.filter(|(_, w)| w.holds(p, now, at, at + est));
            if at <= now {
                machine.start(i, now, Vec::new());
            } else {
                keep.push(i);
                placed.push(Placed {
                    job: i,
                    start: at,
                    bound,
                    freed: *freed,
                });
            }
            continue;
        }
        let fits_now =
            size <= machine.free() && profile.as_ref().is_none_or(|p| p.fits(now, est, size));
        if let Some(units) = fits_now
            .then(|| machine.units_to_start(now + est, size as usize))
            .flatten()
        {
            if let Some(p) = profile.as_mut() {
                p.reserve(now, est, size);
                witness = witness.filter(|(_, w)| w.holds(p, now, now, now + est));
            }
            machine.start(i, now, units);
            continue;
        }
        if let Some((preempt, _)) = preempt {
            let p = profile
                .as_mut()
                .expect("a preempting pass carries a profile");
            if preempt(machine, i, now, p) {
                witness = None;
                continue;
            }
        }
        keep.push(i);
        let p = profile.get_or_insert_with(|| machine.profile(now));
        if qi >= may_stop_from && witness.is_none() {
            let rest = &queue[qi + 1..];
            match alive.any_fits_now(p, now, rest, jobs) {
                None => {
                    keep.extend_from_slice(rest);
                    break;
                }
                Some(w) => witness = Some((qi + 1 + w.at, w)).filter(|(_, w)| w.size > 0),
            }
        }
        let at = match placed.as_mut() {
            Some((placed, freed)) => p.place_bounded(est, size).map(|(start, bound)| {
                placed.push(Placed {
                    job: i,
                    start,
                    bound,
                    freed: *freed,
                });
                start
            }),
            None => p.place(est, size),
        };
        if let Some(at) = at {
            witness = witness.filter(|(_, w)| w.holds(p, now, at, at + est));
        }
    }
    *queue = keep;
    profile
}

/// The jobs left in a pass that may still fit the profile from now (see
/// [`MayFit::any_fits_now`]).
#[derive(Debug, Default)]
struct MayFit {
    /// (places from the end of the queue, estimate s, size) of the jobs not
    /// yet ruled out, by estimate; `None` before the first check.
    jobs: Option<Vec<(usize, f64, i64)>>,
    /// (time s, least free units over the breakpoints up to it), made
    /// at each check.
    least: Vec<(f64, i64)>,
}

impl MayFit {
    /// Whether some job of `rest` (the queue after the job just passed
    /// over) may fit `profile`, whose clock is `now`, from now for its
    /// estimate: `false` only when, for every one, fewer units than its
    /// size are free at some breakpoint before now + its estimate, as
    /// [`Profile::fits`] would find. A pass only takes units from the
    /// profile, so a job ruled out stays out for the rest of the pass.
    ///
    /// When one may, it is told as a [`Witness`]: the one with the
    /// shortest estimate, which the fewest reservations can reach.
    fn any_fits_now(
        &mut self,
        profile: &Profile,
        now: f64,
        rest: &[usize],
        jobs: &[ClassicJob],
    ) -> Option<Witness> {
        if profile.steps().next().is_none_or(|(t, _)| t != now) {
            // Not a profile from now: no claim, and no job to watch.
            return Some(Witness::default());
        }
        // By their distance from the end of the queue, which `rest` ends;
        // sorted by estimate, so that one sweep matches them to the
        // profile's breakpoints. A job larger than what is free now never
        // fits now in this pass: left out.
        let free_now = profile.free_now();
        let candidates = self.jobs.get_or_insert_with(|| {
            let mut c: Vec<_> = rest
                .iter()
                .enumerate()
                .map(|(k, &i)| (rest.len() - k, jobs[i].estimate, i64::from(jobs[i].size)))
                .filter(|&(_, _, size)| size <= free_now)
                .collect();
            // (Any order of equal estimates does: the sweep answers alike.)
            c.sort_unstable_by(|a, b| a.1.total_cmp(&b.1));
            c
        });
        // Up to the first breakpoint after every window's end, or the
        // first at which no job left fits any more.
        let smallest = candidates.iter().map(|c| c.2).min().unwrap_or(i64::MAX);
        let last_end = candidates.last().map_or(now, |c| now + c.1);
        self.least.clear();
        let mut least = i64::MAX;
        for (t, f) in profile.steps() {
            least = least.min(f);
            self.least.push((t, least));
            if least < smallest || t >= last_end {
                break;
            }
        }
        let least = &self.least;
        // The least free units over the breakpoints the window [now,
        // now + estimate) holds: the first, and every later one before its
        // end; `k` moves on as the estimates grow.
        let mut k = 0;
        candidates.retain(|&(place, est, size)| {
            let end = now + est;
            while k + 1 < least.len() && least[k + 1].0 < end {
                k += 1;
            }
            // Only the jobs still after the one passed over.
            place <= rest.len() && size <= least[k].1
        });
        let &(place, estimate, size) = candidates.first()?;
        Some(Witness {
            at: rest.len() - place,
            estimate,
            size,
        })
    }
}

/// A job left in a pass that fits the profile from now for its estimate,
/// so that the pass cannot stop: `at` counts the jobs before it in the
/// rest of the queue it was found in. It stays one while what the profile
/// loses leaves `[now, now + estimate)` alone (or the window still fits);
/// the default watches no job (the next job passed over checks again).
#[derive(Debug, Clone, Copy, Default)]
struct Witness {
    at: usize,
    estimate: f64,
    size: i64,
}

impl Witness {
    /// Whether it still fits `profile`, whose clock is `now`, after the
    /// profile lost units over `[from, until)` (s) only: it fitted before,
    /// so only that stretch of its window needs a look. (A witness of no
    /// job is never kept: the pass drops it at once.)
    fn holds(&self, profile: &Profile, now: f64, from: f64, until: f64) -> bool {
        let end = now + self.estimate;
        from >= end || profile.fits_until(from, until.min(end), self.size)
    }
}

impl Catalina {
    /// A pass without preemption: [`rebuild_pass`] over the queue in
    /// priority order, taking up the end of the last pass where that gives
    /// the same starts.
    ///
    /// When no running job has outrun its estimate and every job that
    /// ended since the last pass ended before its predicted end, the
    /// profile of the running jobs is the one the last pass ended with,
    /// the units of those jobs given back from now to their predicted
    /// ends: the jobs it started run, and every other breakpoint it held
    /// lies at its clock or from this pass's clock on (a job ending at its
    /// predicted end between the two would have made a pass then). Its
    /// reservations were placed at their earliest starts in queue order.
    /// Take a job at the head of the queue that it placed in the same
    /// place, after jobs that all keep theirs: the profile before it
    /// differs from the one it was placed in only by the jobs started
    /// after it in the last pass (which fitted around its reservation, so
    /// its start still fits) and by the units given back since. Every
    /// window before its start had, at some instant, at most `bound` units
    /// free (`Profile::place_bounded`) and has gained at most the units
    /// given back since, so while those are fewer than its size less
    /// `bound`, a rebuilt pass places it at the same start. Those
    /// reservations due now are starts (the block is the same), the others
    /// wait as they were; the pass goes on from the first job that may
    /// move (a job submitted since, one whose priority moved, one that
    /// enough units were given back for), with the reservations placed
    /// after it taken back. When taking them back would cost more than
    /// placing again, or anything else changed, the pass is rebuilt from
    /// the running jobs.
    fn kept_pass(&mut self, machine: &mut MachineState<'_>, queue: &mut Vec<usize>, now: f64) {
        let jobs = machine.jobs();
        let kept = &mut self.kept;
        let ends = machine.unplanned_since(kept.seen);
        kept.freed += ends
            .iter()
            .map(|e| u64::from(jobs[e.job].size))
            .sum::<u64>();
        let mut start = Resume {
            from: 0,
            keep: Vec::with_capacity(queue.len()),
            profile: None,
        };
        let unchanged = !machine.overrun(now)
            && ends.iter().all(|e| e.at < e.planned)
            && kept.placed.iter().all(|r| r.start >= now);
        let freed = kept.freed;
        let same = queue
            .iter()
            .zip(&kept.placed)
            .take_while(|&(&i, r)| {
                let gained = i64::try_from(freed - r.freed).unwrap_or(i64::MAX);
                i == r.job && r.bound.saturating_add(gained) < i64::from(jobs[i].size)
            })
            .count();
        let undo = kept.placed.len() - same;
        match kept.profile.take() {
            Some(mut p) if unchanged && same > 0 && undo <= same => {
                for r in &kept.placed[same..] {
                    let j = &jobs[r.job];
                    p.reserve(r.start, j.estimate, -i64::from(j.size));
                }
                for e in ends.iter().filter(|e| e.planned > now) {
                    p.reserve_until(now, e.planned, -i64::from(jobs[e.job].size));
                }
                if undo > 0 || !ends.is_empty() {
                    p.compact();
                }
                p.advance(now);
                kept.placed.truncate(same);
                kept.placed.retain(|r| {
                    if r.start <= now {
                        machine.start(r.job, now, Vec::new());
                        false
                    } else {
                        start.keep.push(r.job);
                        true
                    }
                });
                start.from = same;
                start.profile = Some(p);
            }
            _ => kept.placed.clear(),
        }
        let placed = Some((&mut kept.placed, freed));
        kept.profile = serve(machine, queue, now, start, None, placed);
        kept.seen = machine.unplanned_ends();
    }

    /// Sorts `queue` by descending priority at `now` (ties to the earlier
    /// submit, then the lower job number) and records each job's priority
    /// on the machine (times the preemptor factor for preempting jobs).
    fn order(&self, queue: &mut [usize], now: f64, machine: &mut MachineState<'_>) {
        let keyed = self.by_computed_priority(queue, now, machine.jobs());
        for (slot, (p, i)) in queue.iter_mut().zip(keyed) {
            machine.set_priority(i, p);
            *slot = i;
        }
    }

    /// The jobs of `queue` with their priorities at `now` (times the
    /// preemptor factor for preempting jobs), in the queue's order
    /// ([`by_priority`]).
    fn by_computed_priority(
        &self,
        queue: &[usize],
        now: f64,
        jobs: &[ClassicJob],
    ) -> Vec<(f64, usize)> {
        let mut keyed: Vec<(f64, usize)> = queue
            .iter()
            .map(|&i| {
                let j = &jobs[i];
                let base = priority(&self.weights, j.size, j.submit, j.estimate, now);
                let p = self
                    .preemption
                    .map_or(base, |r| r.queue_priority(j.size, base));
                (p, i)
            })
            .collect();
        keyed.sort_by(|&a, &b| by_priority(jobs, a, b));
        keyed
    }

    /// Sorts `queue` as [`Catalina::order`] does without preemption, and
    /// records no priority: most pairs of jobs are told apart by their
    /// priority lines ([`Lines`]), and only the pairs whose lines lie
    /// within their rounding bound of each other are compared by their
    /// priorities computed.
    ///
    /// The queue the last pass left is in order up to [`Lines::until`]
    /// (every neighbouring pair is, by its lines, and a sequence whose
    /// neighbouring pairs are all in order under a total order is the
    /// sorted one, as is any part of it): before then only the jobs
    /// submitted since (at its end) are put in their places, by binary
    /// search. Otherwise the queue is taken as it stands when every
    /// neighbouring pair is in order, else sorted by the lines and checked
    /// again, and sorted by the priorities computed if a pair is still out
    /// of order.
    fn order_by_lines(&mut self, queue: &mut [usize], now: f64, jobs: &[ClassicJob]) {
        let lines = &mut self.lines;
        if !lines.make(&self.weights, jobs) {
            lines.until = f64::NEG_INFINITY;
            return self.order_computed(queue, now, jobs);
        }
        // (The lines hold from a job's submit on; a waiting job has been
        // submitted.)
        debug_assert!(queue.iter().all(|&i| jobs[i].submit <= now));
        let exact = |a: usize, b: usize| {
            let at = |i: usize| {
                let j = &jobs[i];
                priority(&self.weights, j.size, j.submit, j.estimate, now)
            };
            by_priority(jobs, (at(a), a), (at(b), b))
        };
        // Whether the job of `x` comes before the one of `y`.
        let before = |x: &(f64, f64, usize), y: &(f64, f64, usize)| {
            if x.0 - y.0 > Lines::ROUNDING * (x.1 + y.1) {
                true
            } else if y.0 - x.0 > Lines::ROUNDING * (x.1 + y.1) {
                false
            } else {
                exact(x.2, y.2) == std::cmp::Ordering::Less
            }
        };
        let by_job = &lines.by_job;
        let key = |i: usize| {
            let [a, b, c, d] = by_job[i];
            (a + b * now, c + d * now, i)
        };
        let left = lines.left.len();
        if lines.since <= now && now < lines.until && queue.get(..left) == Some(&lines.left[..]) {
            let mut until = lines.until;
            for k in left..queue.len() {
                let new = key(queue[k]);
                let at = queue[..k].partition_point(|&y| before(&key(y), &new));
                queue[at..=k].rotate_right(1);
                if at > 0 {
                    until = until.min(Lines::apart(by_job, jobs, queue[at - 1], queue[at], now));
                }
                if at < k {
                    until = until.min(Lines::apart(by_job, jobs, queue[at], queue[at + 1], now));
                }
            }
            lines.since = now;
            lines.until = until;
            lines.backoff = 0;
            return;
        }
        if lines.until > f64::NEG_INFINITY {
            // The order made last did not last to this pass: where pairs
            // cross at nearly every pass, making it would only add to the
            // check, so it waits for twice as many passes each time, up
            // to 64.
            lines.backoff = (lines.backoff * 2).clamp(1, 64);
            lines.wait = lines.backoff;
        }
        let keyed = &mut lines.keyed;
        keyed.clear();
        keyed.extend(queue.iter().map(|&i| key(i)));
        let sorted = |k: &[(f64, f64, usize)]| k.windows(2).all(|w| before(&w[0], &w[1]));
        if !sorted(keyed) {
            keyed.sort_by(|x, y| by_priority(jobs, (x.0, x.2), (y.0, y.2)));
            if !sorted(keyed) {
                lines.until = f64::NEG_INFINITY;
                return self.order_computed(queue, now, jobs);
            }
        }
        for (slot, &(_, _, i)) in queue.iter_mut().zip(keyed.iter()) {
            *slot = i;
        }
        lines.since = now;
        lines.until = if lines.wait > 0 {
            lines.wait -= 1;
            f64::NEG_INFINITY
        } else {
            queue
                .windows(2)
                .map(|w| Lines::apart(by_job, jobs, w[0], w[1], now))
                .fold(f64::INFINITY, f64::min)
        };
    }

    /// [`Catalina::order`] without recording the priorities.
    fn order_computed(&self, queue: &mut [usize], now: f64, jobs: &[ClassicJob]) {
        let keyed = self.by_computed_priority(queue, now, jobs);
        for (slot, (_, i)) in queue.iter_mut().zip(keyed) {
            *slot = i;
        }
    }
}

/// The queue's order: `(priority, job)` by descending priority, then
/// earlier submit, then lower job number.
fn by_priority(jobs: &[ClassicJob], a: (f64, usize), b: (f64, usize)) -> std::cmp::Ordering {
    b.0.total_cmp(&a.0)
        .then(jobs[a.1].submit.total_cmp(&jobs[b.1].submit))
        .then(jobs[a.1].job_number.cmp(&jobs[b.1].job_number))
}

/// Each job's Catalina priority as a line in the clock
/// ([`priority_line`]): two jobs whose lines differ by more than
/// [`Lines::ROUNDING`] times the sum of their bounds have their
/// priorities in the same order.
#[derive(Debug, Clone)]
struct Lines {
    /// The weights the lines were made with (`None`: not made, or a
    /// weight is not finite and there are none).
    weights: Option<[f64; 10]>,
    /// Per job index, `[a, b, c, d]`.
    by_job: Vec<[f64; 4]>,
    /// Scratch: the queue as (line at the clock, bound, job).
    keyed: Vec<(f64, f64, usize)>,
    /// The queue the last pass left (in order at every instant from
    /// `since` to before `until`).
    left: Vec<usize>,
    /// The clock (s) of the last pass that ordered the queue: the order
    /// `until` is for holds from then on.
    since: f64,
    /// The instant (s) up to which `left`, and the order the jobs
    /// submitted since were put in, stays the priority order: the earliest
    /// [`Lines::apart`] of its neighbouring pairs.
    until: f64,
    /// Full checks of the order left before `until` is made again.
    wait: u32,
    /// `wait` after the last order made that did not last a pass.
    backoff: u32,
}

impl Default for Lines {
    fn default() -> Lines {
        Lines {
            weights: None,
            by_job: Vec::new(),
            keyed: Vec::new(),
            left: Vec::new(),
            since: f64::NEG_INFINITY,
            until: f64::NEG_INFINITY,
            wait: 0,
            backoff: 0,
        }
    }
}

impl Lines {
    /// Relative to `c + d·now`: thousands of times the rounding of either
    /// computation (ten terms of a few operations each).
    const ROUNDING: f64 = 1e-12;

    /// Up to when (s) job `x`, before job `y` in the queue ordered at
    /// `now`, stays before it: while `x`'s line lies above `y`'s by more
    /// than twice [`Lines::ROUNDING`] times the sum of their bounds (the
    /// difference is a line in the clock too: until its root, +∞ if it
    /// never falls; twice, so that the rounding of this sum is covered
    /// many times over). Jobs alike (the same size, submit and estimate)
    /// have the same priority at every instant and keep their order (by
    /// submit and job number): +∞. `now` when the lines do not tell them
    /// apart (the pair is compared again at the next pass).
    fn apart(by_job: &[[f64; 4]], jobs: &[ClassicJob], x: usize, y: usize, now: f64) -> f64 {
        let ([ax, bx, cx, dx], [ay, by, cy, dy]) = (by_job[x], by_job[y]);
        let margin = 2.0 * Lines::ROUNDING;
        let alpha = (ax - ay) - margin * (cx + cy);
        let beta = (bx - by) - margin * (dx + dy);
        // (Also when a term is not a number.)
        if (alpha + beta * now).partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            let (p, q) = (&jobs[x], &jobs[y]);
            let alike = (p.size, p.submit, p.estimate) == (q.size, q.submit, q.estimate);
            return if alike { f64::INFINITY } else { now };
        }
        if beta >= 0.0 {
            f64::INFINITY
        } else {
            -alpha / beta
        }
    }

    /// Makes the lines of `jobs` under `weights` unless made already;
    /// false when a weight is not finite (no lines).
    fn make(&mut self, weights: &CatalinaWeights, jobs: &[ClassicJob]) -> bool {
        let array = weights.as_array();
        if self.weights == Some(array) && self.by_job.len() == jobs.len() {
            return true;
        }
        self.weights = None;
        // New lines: no order made with the old ones holds.
        self.until = f64::NEG_INFINITY;
        if !array.iter().all(|w| w.is_finite()) {
            return false;
        }
        self.by_job = jobs
            .iter()
            .map(|j| priority_line(weights, j.size, j.submit, j.estimate))
            .collect();
        self.weights = Some(array);
        true
    }
}

/// Resumes the suspended jobs whose units are all free and that are due
/// (clock at or past their reservation) or fit the profile from now
/// (compression), earliest reservation first (then job index); returns the
/// pass's profile with their pieces in it.
fn resume_suspended(machine: &mut MachineState<'_>, now: f64) -> Profile {
    let mut profile = machine.profile(now);
    let mut order = machine.suspended().to_vec();
    order.sort_by(|&a, &b| {
        machine
            .resume_at(a)
            .total_cmp(&machine.resume_at(b))
            .then(a.cmp(&b))
    });
    for v in order {
        if !machine.units_free(v) {
            continue;
        }
        let size = i64::from(machine.jobs()[v].size);
        let left = machine.estimate_left(v);
        let due = machine.resume_at(v);
        // Lift its reservation block, try it from now, and put the block
        // back if it cannot resume.
        let block = due.max(now);
        profile.reserve(block, left, -size);
        if now >= due || profile.fits(now, left, size) {
            profile.reserve(now, left, size);
            machine.resume(v, now);
        } else {
            profile.reserve(block, left, size);
        }
    }
    profile
}

/// Tries to start preempting job `p` now by suspending running jobs under
/// the five rules of [`Preemption`]; `profile` is the pass's profile
/// (running jobs, suspended jobs' reservations and the reservations made
/// so far in this pass) and is updated on success.
fn try_preempt(
    rule: &Preemption,
    machine: &mut MachineState<'_>,
    p: usize,
    now: f64,
    profile: &mut Profile,
) -> bool {
    let jobs = machine.jobs();
    let job = &jobs[p];
    if !rule.preempting(job.size) {
        return false;
    }
    let prio = machine.priority(p);
    let est = job.estimate;
    let need = job.size as usize;
    let free_ok = machine.eligible_units(now + est, need).len();
    // Candidates: rules 1, 2, 4 and 5.
    let mut cands: Vec<(f64, f64, usize)> = machine
        .running()
        .filter_map(|v| {
            let end = machine.predicted_end(v, now);
            (rule.preemptible(jobs[v].size)
                && machine.priority(v) < prio
                && !machine.runs_over_an_image(v)
                && end - now >= rule.min_runtime)
                .then_some((machine.priority(v), end, v))
        })
        .collect();
    cands.sort_by(|a, b| {
        a.0.total_cmp(&b.0)
            .then(a.1.total_cmp(&b.1))
            .then(a.2.cmp(&b.2))
    });
    let mut victims = Vec::new();
    let mut got = free_ok;
    for &(_, end, v) in &cands {
        if got >= need {
            break;
        }
        got += jobs[v].size as usize;
        victims.push((v, end));
    }
    if got < need || victims.is_empty() {
        return false;
    }
    // Rule 3: the preemptor fits once the victims are released, and every
    // victim fits again right after the preemptor's predicted end.
    let mut q = profile.clone();
    for &(v, end) in &victims {
        q.reserve(now, end - now, -i64::from(jobs[v].size));
    }
    if !q.fits(now, est, i64::from(job.size)) {
        return false;
    }
    q.reserve(now, est, i64::from(job.size));
    let back = now + est;
    for &(v, end) in &victims {
        let size = i64::from(jobs[v].size);
        if !q.fits(back, end - now, size) {
            return false;
        }
        q.reserve(back, end - now, size);
    }
    for &(v, _) in &victims {
        machine.suspend(v, p, now, back);
    }
    let units = machine.eligible_units(back, need);
    debug_assert_eq!(units.len(), need);
    machine.start(p, now, units);
    *profile = q;
    true
}

#[cfg(test)]
mod tests;
