//! The event loop of classic trace replay (SPEC §3.D).
//!
//! Equal-time rule: at each instant, every job that ends then releases its
//! units first, then resume reservations falling due wake the loop (both
//! from the shared [`EventQueue`], in job-index order within each kind),
//! then the jobs submitted then join the queue, then one scheduling pass
//! runs — so a job ending at t frees its units for a job starting at t.
//!
//! A pass walks the queue in submit order (then job number). FCFS starts
//! jobs while they fit and stops at the first that does not. Backfilling
//! keeps going: a job starts now if it fits now for its whole estimate
//! without touching a reservation made earlier in the same pass; the first
//! `depth` jobs that cannot start get a reservation at their earliest start
//! (in the availability profile built from the running jobs' predicted ends,
//! start + estimate). Reservations are rebuilt at every pass, which is what
//! compresses them when jobs end early. A job still running past its
//! estimate (possible when estimates are user estimates and the log says it
//! ran longer) has its prediction extended by doubling ([`extended_end`]).
//!
//! Catalina with suspension preemption ([`Preemption`]) also tracks which
//! units each job holds, because a suspended job resumes on its own units
//! and a unit holds at most one suspended job. A pass then first resumes
//! the suspended jobs that can, then walks the queue in priority order; a
//! preempting job that does not fit tries to suspend running jobs under the
//! five rules before it falls back to a reservation.

use std::collections::BTreeSet;

use super::catalina::{self, Preemption};
use super::{ClassicJob, Policy};
use crate::sim::events::{Event, EventQueue, TimeKey};
use crate::sim::profile::Profile;

/// When a job ran.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassicOutcome {
    /// First start, s.
    pub start: f64,
    /// Final end, s: start + run + suspended.
    pub end: f64,
    /// Seconds spent suspended between its first start and its end (0
    /// without preemption).
    pub suspended: f64,
}

/// One suspension of a running job by a preempting one.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Suspension {
    /// Index of the suspended job (in the jobs given to [`simulate`]).
    pub job: usize,
    /// Index of the job that preempted it.
    pub preemptor: usize,
    /// When it was suspended, s.
    pub at: f64,
    /// Start of the resume reservation it was given, s.
    pub reservation: f64,
    /// When it resumed, s.
    pub resumed: f64,
}

/// One contiguous piece of a job's run on named units (recorded only when
/// units are tracked, i.e. with preemption).
#[derive(Debug, Clone, PartialEq)]
pub struct Allocation {
    /// Job index.
    pub job: usize,
    /// Start of the piece, s.
    pub start: f64,
    /// End of the piece (suspension or completion), s.
    pub end: f64,
    /// The units it held, ascending (0-based unit numbers).
    pub units: Vec<u32>,
}

/// The result of a classic replay.
#[derive(Debug, Clone)]
pub struct ClassicRun {
    /// One outcome per job, in the order of the jobs given.
    pub outcomes: Vec<ClassicOutcome>,
    /// Number of scheduling passes.
    pub passes: u64,
    /// Each job's priority when it first started (Catalina's priority, times
    /// the preemptor factor for preempting jobs; 1 for the other policies),
    /// for the priority-weighted metrics.
    pub priority: Vec<f64>,
    /// Every suspension, in the order they happened (empty without
    /// preemption).
    pub suspensions: Vec<Suspension>,
    /// Every piece of every job on named units, in the order they started
    /// (empty when units are not tracked, i.e. without preemption).
    pub allocations: Vec<Allocation>,
}

/// Event classes, in the order they are taken at one instant (the rank of
/// the equal-time rule of [`EventQueue`]): job ends first, so their units
/// are free before a resume reservation wakes the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// The actual end of a job's current piece (cancelled by a suspension).
    End,
    /// A suspended job's resume reservation falls due (cancelled when it
    /// resumed earlier).
    Resume,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Waiting,
    Running,
    Suspended,
    Done,
}

const NONE: usize = usize::MAX;

/// Unit identity, kept only with preemption.
struct Units {
    rule: Preemption,
    /// Job running on each unit, or NONE.
    owner: Vec<usize>,
    /// Suspended job whose image sits on each unit, or NONE.
    image: Vec<usize>,
    /// Free units holding no image.
    clean_free: BTreeSet<u32>,
    /// Units of each running or suspended job.
    held: Vec<Vec<u32>>,
    /// Suspended jobs, in the order they were suspended.
    suspended: Vec<usize>,
    /// Resume reservation of each suspended job, s.
    resume_at: Vec<f64>,
    suspensions: Vec<Suspension>,
    /// Index in `suspensions` of each suspended job's open suspension.
    open_suspension: Vec<usize>,
    allocations: Vec<Allocation>,
    /// Index in `allocations` of each running job's open piece.
    open_piece: Vec<usize>,
}

impl Units {
    /// Free units a job predicted to end at `until` may take: clean ones,
    /// and idle units of suspended jobs whose resume reservation is not
    /// before `until`. Restricted units first (they are of less use to
    /// anyone else), then clean ones, ascending; at most `want`.
    fn eligible(&self, until: f64, want: usize) -> Vec<u32> {
        let mut out = Vec::with_capacity(want);
        for &v in &self.suspended {
            if self.resume_at[v] < until {
                continue;
            }
            for &u in &self.held[v] {
                if out.len() == want {
                    return out;
                }
                if self.owner[u as usize] == NONE {
                    out.push(u);
                }
            }
        }
        out.extend(self.clean_free.iter().take(want - out.len()));
        out
    }
}

struct Machine<'a> {
    jobs: &'a [ClassicJob],
    outcomes: Vec<ClassicOutcome>,
    // Job ends and resume reservations (cancelled ones skipped).
    events: EventQueue<Class>,
    // Running jobs by predicted end of the current piece.
    predicted: BTreeSet<TimeKey>,
    free: i64,
    priority: Vec<f64>,
    state: Vec<State>,
    // Start of the current piece, s.
    piece_start: Vec<f64>,
    // Estimate the current (or next) piece is planned with, s.
    piece_est: Vec<f64>,
    // Actual seconds run in earlier pieces.
    done: Vec<f64>,
    // Actual end of the current piece, s.
    end_at: Vec<f64>,
    units: Option<Units>,
}

impl Machine<'_> {
    fn new(jobs: &[ClassicJob], capacity: u32, preemption: Option<Preemption>) -> Machine<'_> {
        let n = jobs.len();
        let units = preemption.map(|rule| Units {
            rule,
            owner: vec![NONE; capacity as usize],
            image: vec![NONE; capacity as usize],
            clean_free: (0..capacity).collect(),
            held: vec![Vec::new(); n],
            suspended: Vec::new(),
            resume_at: vec![f64::INFINITY; n],
            suspensions: Vec::new(),
            open_suspension: vec![NONE; n],
            allocations: Vec::new(),
            open_piece: vec![NONE; n],
        });
        Machine {
            jobs,
            outcomes: vec![
                ClassicOutcome {
                    start: f64::INFINITY,
                    end: f64::INFINITY,
                    suspended: 0.0,
                };
                n
            ],
            events: EventQueue::new(),
            predicted: BTreeSet::new(),
            free: i64::from(capacity),
            priority: vec![1.0; n],
            state: vec![State::Waiting; n],
            piece_start: vec![0.0; n],
            piece_est: jobs.iter().map(|j| j.estimate).collect(),
            done: vec![0.0; n],
            end_at: vec![f64::INFINITY; n],
            units,
        }
    }

    /// Starts (or resumes) job `i` now, on `units` when units are tracked.
    fn start(&mut self, i: usize, now: f64, units: Vec<u32>) {
        let job = &self.jobs[i];
        match self.state[i] {
            State::Waiting => self.outcomes[i].start = now,
            State::Suspended => {
                if let Some(u) = self.units.as_mut() {
                    let k = u.open_suspension[i];
                    u.suspensions[k].resumed = now;
                    self.outcomes[i].suspended += now - u.suspensions[k].at;
                    u.open_suspension[i] = NONE;
                }
            }
            State::Running | State::Done => unreachable!("job {i} started twice"),
        }
        self.state[i] = State::Running;
        self.piece_start[i] = now;
        self.end_at[i] = now + (job.run - self.done[i]);
        self.outcomes[i].end = self.end_at[i];
        self.free -= i64::from(job.size);
        self.events.push(self.end_at[i], Class::End, i);
        self.predicted
            .insert(TimeKey::new(now + self.piece_est[i], i));
        if let Some(u) = self.units.as_mut() {
            debug_assert_eq!(units.len(), job.size as usize);
            let mut units = units;
            units.sort_unstable();
            for &x in &units {
                let x = x as usize;
                debug_assert_eq!(u.owner[x], NONE);
                u.owner[x] = i;
                if u.image[x] == i {
                    u.image[x] = NONE;
                }
                u.clean_free.remove(&(x as u32));
            }
            u.suspended.retain(|&v| v != i);
            u.open_piece[i] = u.allocations.len();
            u.allocations.push(Allocation {
                job: i,
                start: now,
                end: f64::INFINITY,
                units: units.clone(),
            });
            u.held[i] = units;
        }
    }

    /// Releases job `i`'s units at `now` (completion or suspension).
    fn release(&mut self, i: usize, now: f64, image: bool) {
        let job = &self.jobs[i];
        self.free += i64::from(job.size);
        self.predicted
            .remove(&TimeKey::new(self.piece_start[i] + self.piece_est[i], i));
        if let Some(u) = self.units.as_mut() {
            u.allocations[u.open_piece[i]].end = now;
            u.open_piece[i] = NONE;
            for &x in &u.held[i] {
                u.owner[x as usize] = NONE;
                if image {
                    u.image[x as usize] = i;
                } else if u.image[x as usize] == NONE {
                    u.clean_free.insert(x);
                }
            }
            if !image {
                u.held[i] = Vec::new();
            }
        }
    }

    fn finish(&mut self, i: usize, now: f64) {
        self.release(i, now, false);
        self.state[i] = State::Done;
    }

    /// Suspends running job `v` at `now` for `preemptor`, with its resume
    /// reservation at `reservation`.
    fn suspend(&mut self, v: usize, preemptor: usize, now: f64, reservation: f64) {
        let left = extended_end(self.piece_start[v], self.piece_est[v], now) - now;
        self.release(v, now, true);
        self.done[v] += now - self.piece_start[v];
        self.piece_est[v] = left;
        self.state[v] = State::Suspended;
        let u = self.units.as_mut().expect("suspension needs unit tracking");
        u.suspended.push(v);
        u.resume_at[v] = reservation;
        self.events.push(reservation, Class::Resume, v);
        u.open_suspension[v] = u.suspensions.len();
        u.suspensions.push(Suspension {
            job: v,
            preemptor,
            at: now,
            reservation,
            resumed: f64::INFINITY,
        });
    }

    /// Predicted end of running job `i`, seen at `now`.
    fn predicted_end(&self, i: usize, now: f64) -> f64 {
        extended_end(self.piece_start[i], self.piece_est[i], now)
    }

    /// The availability profile at `now`: running jobs until their predicted
    /// ends, and suspended jobs' resume reservations.
    fn profile(&self, now: f64) -> Profile {
        let overrun = self.predicted.iter().take_while(|k| k.time <= now).count();
        // A key is the piece's start + estimate: its predicted end unless the
        // job has outrun it.
        let releases = self.predicted.iter().map(|k| {
            let end = if k.time > now {
                k.time
            } else {
                self.predicted_end(k.task, now)
            };
            (end, i64::from(self.jobs[k.task].size))
        });
        let mut p = if overrun == 0 {
            Profile::from_sorted(now, self.free, releases)
        } else {
            Profile::new(now, self.free, releases)
        };
        if let Some(u) = &self.units {
            for &v in &u.suspended {
                p.reserve(
                    u.resume_at[v].max(now),
                    self.piece_est[v],
                    i64::from(self.jobs[v].size),
                );
            }
        }
        p
    }

    /// The next event still pending, after dropping cancelled ones: an end
    /// of a piece that was suspended, a resume reservation of a job that
    /// already resumed.
    fn next_event(&mut self) -> Option<Event<Class>> {
        let (state, end_at) = (&self.state, &self.end_at);
        let resume_at = self.units.as_ref().map(|u| &u.resume_at);
        self.events.peek_live(|e| match e.class {
            Class::End => state[e.task] == State::Running && end_at[e.task] == e.time,
            Class::Resume => {
                state[e.task] == State::Suspended && resume_at.is_some_and(|r| r[e.task] == e.time)
            }
        })
    }

    /// Resumes the suspended jobs whose units are all free and that are due
    /// (clock at or past their reservation) or fit the profile from now
    /// (compression); returns the profile with their pieces in it.
    fn resume_pass(&mut self, now: f64) -> Profile {
        let mut profile = self.profile(now);
        let Some(u) = &self.units else {
            return profile;
        };
        let mut order = u.suspended.clone();
        order.sort_by(|&a, &b| u.resume_at[a].total_cmp(&u.resume_at[b]).then(a.cmp(&b)));
        for v in order {
            let u = self.units.as_ref().expect("units");
            if u.held[v].iter().any(|&x| u.owner[x as usize] != NONE) {
                continue;
            }
            let size = i64::from(self.jobs[v].size);
            let left = self.piece_est[v];
            // Lift its reservation block, try it from now, and put the block
            // back if it cannot resume.
            let block = u.resume_at[v].max(now);
            profile.reserve(block, left, -size);
            if now >= u.resume_at[v] || profile.fits(now, left, size) {
                profile.reserve(now, left, size);
                let units = u.held[v].clone();
                self.start(v, now, units);
            } else {
                profile.reserve(block, left, size);
            }
        }
        profile
    }

    /// Tries to start preempting job `p` now by suspending running jobs
    /// under the five rules ([`Preemption`]); `profile` is the pass's
    /// profile (running jobs, suspended jobs' reservations and the
    /// reservations made so far in this pass) and is updated on success.
    fn try_preempt(&mut self, p: usize, prio: f64, now: f64, profile: &mut Profile) -> bool {
        let Some(u) = &self.units else {
            return false;
        };
        let rule = u.rule;
        let job = &self.jobs[p];
        if !rule.preempting(job.size) {
            return false;
        }
        let est = job.estimate;
        let need = job.size as usize;
        let free_ok = u.eligible(now + est, need).len();
        // Candidates: rules 1, 2, 4 and 5.
        let mut cands: Vec<(f64, f64, usize)> = self
            .predicted
            .iter()
            .map(|k| k.task)
            .filter_map(|v| {
                let end = self.predicted_end(v, now);
                (rule.preemptible(self.jobs[v].size)
                    && self.priority[v] < prio
                    && u.held[v].iter().all(|&x| u.image[x as usize] == NONE)
                    && end - now >= rule.min_runtime)
                    .then_some((self.priority[v], end, v))
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
            got += self.jobs[v].size as usize;
            victims.push((v, end));
        }
        if got < need || victims.is_empty() {
            return false;
        }
        // Rule 3: the preemptor fits once the victims are released, and every
        // victim fits again right after the preemptor's predicted end.
        let mut q = profile.clone();
        for &(v, end) in &victims {
            q.reserve(now, end - now, -i64::from(self.jobs[v].size));
        }
        if !q.fits(now, est, i64::from(job.size)) {
            return false;
        }
        q.reserve(now, est, i64::from(job.size));
        let back = now + est;
        for &(v, end) in &victims {
            let size = i64::from(self.jobs[v].size);
            if !q.fits(back, end - now, size) {
                return false;
            }
            q.reserve(back, end - now, size);
        }
        for &(v, _) in &victims {
            self.suspend(v, p, now, back);
        }
        let units = self.units.as_ref().expect("units").eligible(back, need);
        debug_assert_eq!(units.len(), need);
        self.start(p, now, units);
        *profile = q;
        true
    }
}

/// Predicted end of a job started at `start` with estimate `estimate` (s),
/// seen at `now`: start + estimate while that is still ahead; for a job that
/// has outrun its estimate, start + estimate·2^m with the smallest m that
/// puts it after `now` — the prediction is extended by doubling, in the
/// spirit of the prediction correction of Tsafrir, Etsion and Feitelson
/// (IEEE TPDS 18(6), 2007), rather than assumed to end at once.
pub fn extended_end(start: f64, estimate: f64, now: f64) -> f64 {
    let mut e = estimate.max(1.0);
    while start + e <= now {
        e *= 2.0;
    }
    start + e
}

/// Replays `jobs` on a machine of `capacity` units under `policy`.
///
/// Jobs larger than the machine must have been removed (cleaning does it);
/// such a job would never start, and is given start = end = +∞.
pub fn simulate(jobs: &[ClassicJob], capacity: u32, policy: Policy) -> ClassicRun {
    let n = jobs.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        jobs[a]
            .submit
            .total_cmp(&jobs[b].submit)
            .then(jobs[a].job_number.cmp(&jobs[b].job_number))
            .then(a.cmp(&b))
    });
    let preemption = match policy {
        Policy::Catalina { preemption, .. } => preemption,
        _ => None,
    };
    let mut m = Machine::new(jobs, capacity, preemption);
    let mut queue: Vec<usize> = Vec::new();
    let mut next = 0;
    let mut passes = 0;
    loop {
        let t_sub = order.get(next).map(|&i| jobs[i].submit);
        let t_event = m.next_event().map(|e| e.time);
        let now = [t_sub, t_event]
            .into_iter()
            .flatten()
            .min_by(f64::total_cmp);
        let Some(now) = now else { break };
        // Ends, then resume reservations. A resume reservation wakes the
        // loop once; a job that cannot resume then (a unit still busy) waits
        // for the next completion.
        while let Some(e) = m.next_event().filter(|e| e.time == now) {
            m.events.pop();
            if e.class == Class::End {
                m.finish(e.task, now);
            }
        }
        while let Some(&i) = order.get(next) {
            if jobs[i].submit != now {
                break;
            }
            queue.push(i);
            next += 1;
        }
        let suspended = m.units.as_ref().is_some_and(|u| !u.suspended.is_empty());
        if queue.is_empty() && !suspended {
            continue;
        }
        passes += 1;
        match policy {
            Policy::Fcfs => {
                let mut k = 0;
                while k < queue.len() && i64::from(jobs[queue[k]].size) <= m.free {
                    m.start(queue[k], now, Vec::new());
                    k += 1;
                }
                queue.drain(..k);
            }
            Policy::Catalina {
                weights,
                preemption,
            } => {
                let mut keyed: Vec<(f64, usize)> = queue
                    .iter()
                    .map(|&i| {
                        let j = &jobs[i];
                        let base = catalina::priority(&weights, j.size, j.submit, j.estimate, now);
                        let p = preemption.map_or(base, |r| r.queue_priority(j.size, base));
                        (p, i)
                    })
                    .collect();
                keyed.sort_by(|a, b| {
                    b.0.total_cmp(&a.0)
                        .then(jobs[a.1].submit.total_cmp(&jobs[b.1].submit))
                        .then(jobs[a.1].job_number.cmp(&jobs[b.1].job_number))
                });
                for &(p, i) in &keyed {
                    m.priority[i] = p;
                }
                let ordered: Vec<usize> = keyed.into_iter().map(|k| k.1).collect();
                let profile = preemption.map(|_| m.resume_pass(now));
                queue = backfill_pass(&mut m, &ordered, usize::MAX, now, profile);
            }
            Policy::Backfill { depth } => {
                queue = backfill_pass(&mut m, &queue, depth, now, None);
            }
        }
    }
    let (suspensions, allocations) = match m.units {
        Some(u) => (u.suspensions, u.allocations),
        None => (Vec::new(), Vec::new()),
    };
    ClassicRun {
        outcomes: m.outcomes,
        passes,
        priority: m.priority,
        suspensions,
        allocations,
    }
}

/// One backfilling pass over `queue` (in the order to serve it) with at most
/// `depth` reservations, starting from `profile` when one is given (units
/// tracked: then every start also needs eligible units, and preempting jobs
/// may preempt); returns the jobs left waiting, in the same order.
fn backfill_pass(
    m: &mut Machine<'_>,
    queue: &[usize],
    depth: usize,
    now: f64,
    mut profile: Option<Profile>,
) -> Vec<usize> {
    let jobs = m.jobs;
    let tracked = m.units.is_some();
    let mut reserved = 0usize;
    let mut keep = Vec::with_capacity(queue.len());
    for (qi, &i) in queue.iter().enumerate() {
        if !tracked && m.free == 0 && reserved >= depth {
            keep.extend_from_slice(&queue[qi..]);
            break;
        }
        let size = i64::from(jobs[i].size);
        let est = jobs[i].estimate;
        let fits_now = size <= m.free && profile.as_ref().is_none_or(|p| p.fits(now, est, size));
        let units = match (&m.units, fits_now) {
            (Some(u), true) => {
                let got = u.eligible(now + est, size as usize);
                (got.len() == size as usize).then_some(got)
            }
            (None, true) => Some(Vec::new()),
            (_, false) => None,
        };
        if let Some(units) = units {
            if let Some(p) = profile.as_mut() {
                p.reserve(now, est, size);
            }
            m.start(i, now, units);
            continue;
        }
        if tracked {
            let p = profile.as_mut().expect("tracked passes carry a profile");
            if m.try_preempt(i, m.priority[i], now, p) {
                continue;
            }
        }
        keep.push(i);
        if reserved < depth {
            let p = profile.get_or_insert_with(|| m.profile(now));
            if let Some(t) = p.earliest(est, size) {
                p.reserve(t, est, size);
                reserved += 1;
            }
        }
    }
    keep
}
