//! The machine state of classic replay: which jobs run, wait or are
//! suspended, on which units, the pending ends and resume reservations, and
//! what the policies may ask of it ([`MachineState`]). It knows no policy.

use std::collections::BTreeSet;

use crate::env::classic::ClassicJob;
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
    /// Index of the suspended job (in the jobs given to [`super::simulate`]).
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
    /// Each job's first reservation, s: the start the policy promised it
    /// when it first got a reservation (backfilling with persistent
    /// reservations: `easy`, `conservative`, `backfill` with a depth);
    /// `None` for a job that started at once, never got one, or ran under a
    /// policy that keeps no reservation from pass to pass (FCFS, Catalina).
    pub first_reservation: Vec<Option<f64>>,
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
    /// A pass a policy asked for ([`MachineState::wake_at`]).
    Wake,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Waiting,
    Running,
    Suspended,
    Done,
}

const NONE: usize = usize::MAX;

/// Unit identity, kept only when the policy suspends jobs.
struct Units {
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

/// A piece of a job that ended at another time than its start + the
/// estimate it was planned with (before it, or after it when the job
/// outran its estimate). Times are s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UnplannedEnd {
    /// The job.
    pub job: usize,
    /// When it ended.
    pub at: f64,
    /// Its start + estimate: the release time an availability profile
    /// built before it outran its estimate gave it.
    pub planned: f64,
    /// Its predicted end when it ended ([`extended_end`]): no profile ever
    /// gave it a later release (predicted ends only grow with the clock).
    pub horizon: f64,
}

/// The state of the machine during a replay, and what a policy may ask of
/// it and do to it: the jobs, free units, running jobs' predicted ends and
/// the availability profile; start, suspend and resume. Times are s; jobs
/// are indices into [`jobs`](Self::jobs).
///
/// Units are counted, and named only when the policy asked for unit
/// tracking ([`crate::env::classic::policies::Scheduler::tracks_units`]); the unit and
/// suspension queries answer "none" otherwise.
pub struct MachineState<'a> {
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
    // First reservation of each job, s.
    first_reservation: Vec<Option<f64>>,
    // Pieces that ended at another time than start + estimate.
    unplanned: Vec<UnplannedEnd>,
    // Jobs in the order they first started.
    started: Vec<usize>,
}

impl<'a> MachineState<'a> {
    pub(super) fn new(
        jobs: &'a [ClassicJob],
        capacity: u32,
        track_units: bool,
    ) -> MachineState<'a> {
        let n = jobs.len();
        let units = track_units.then(|| Units {
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
        MachineState {
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
            first_reservation: vec![None; n],
            unplanned: Vec::new(),
            started: Vec::with_capacity(n),
        }
    }

    /// The jobs of the replay (queue entries and job arguments index them).
    pub fn jobs(&self) -> &'a [ClassicJob] {
        self.jobs
    }

    /// Units free now (free units holding a suspended job's image included).
    pub fn free(&self) -> i64 {
        self.free
    }

    /// Whether units are named (the policy suspends jobs).
    pub fn tracks_units(&self) -> bool {
        self.units.is_some()
    }

    /// The priority recorded for job `i` (1 unless the policy set one).
    pub fn priority(&self, i: usize) -> f64 {
        self.priority[i]
    }

    /// Records job `i`'s priority; the value it has when the job first
    /// starts is the one reported ([`ClassicRun::priority`]), and the one
    /// preemption compares.
    pub fn set_priority(&mut self, i: usize, priority: f64) {
        self.priority[i] = priority;
    }

    /// Records that job `i` holds a reservation starting at `start` (s);
    /// only the first one recorded is kept ([`ClassicRun::first_reservation`]).
    pub fn record_reservation(&mut self, i: usize, start: f64) {
        self.first_reservation[i].get_or_insert(start);
    }

    /// How many pieces have ended at another time than their start + the
    /// estimate they were planned with (before it, or after it for a job
    /// that outran its estimate): the count grows exactly when the
    /// availability profile of the running jobs changed otherwise than by
    /// starts, which is when persistent reservations need compressing.
    pub fn unplanned_ends(&self) -> u64 {
        self.unplanned.len() as u64
    }

    /// The pieces counted by [`unplanned_ends`](Self::unplanned_ends)
    /// after the first `since`, in the order they ended.
    pub fn unplanned_since(&self, since: u64) -> &[UnplannedEnd] {
        let since = usize::try_from(since).unwrap_or(usize::MAX);
        self.unplanned.get(since..).unwrap_or(&[])
    }

    /// Whether a running job has outrun the estimate of its current piece
    /// at `now` (s): its predicted end then moves with the clock
    /// ([`extended_end`]), so a profile built earlier no longer holds.
    pub fn overrun(&self, now: f64) -> bool {
        self.predicted.first().is_some_and(|k| k.time <= now)
    }

    /// The jobs started so far, in the order they first started (a resumed
    /// job is not listed again).
    pub fn started(&self) -> &[usize] {
        &self.started
    }

    /// Job `i`'s first start, s (+∞ while it waits).
    pub fn start_of(&self, i: usize) -> f64 {
        self.outcomes[i].start
    }

    /// Starts waiting job `i` now, or resumes suspended job `i`, on `units`
    /// when units are tracked (exactly its size, all free: see
    /// [`units_to_start`](Self::units_to_start); empty: the lowest free
    /// units, for a policy that only counts); `units` is ignored
    /// otherwise. The caller has checked that the job fits.
    ///
    /// # Panics
    /// If job `i` is running or done.
    pub fn start(&mut self, i: usize, now: f64, units: Vec<u32>) {
        let job = &self.jobs[i];
        match self.state[i] {
            State::Waiting => {
                self.outcomes[i].start = now;
                self.started.push(i);
            }
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
            // A policy that counts units only (not one that suspends)
            // leaves the choice to the engine: the lowest free units.
            let mut units = if units.is_empty() {
                u.eligible(f64::INFINITY, job.size as usize)
            } else {
                units
            };
            debug_assert_eq!(units.len(), job.size as usize);
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

    /// Resumes suspended job `v` now on the units it was suspended on
    /// (the caller has checked they are free: [`units_free`](Self::units_free)).
    pub fn resume(&mut self, v: usize, now: f64) {
        let units = self
            .units
            .as_ref()
            .map_or_else(Vec::new, |u| u.held[v].clone());
        self.start(v, now, units);
    }

    fn finish(&mut self, i: usize, now: f64) {
        let planned = self.piece_start[i] + self.piece_est[i];
        if now != planned {
            self.unplanned.push(UnplannedEnd {
                job: i,
                at: now,
                planned,
                horizon: self.predicted_end(i, now),
            });
        }
        self.release(i, now, false);
        self.state[i] = State::Done;
    }

    /// Suspends running job `v` at `now` for `preemptor`, with its resume
    /// reservation at `reservation` (s). Its image stays on its units; it
    /// keeps its predicted time left as the estimate of its next piece.
    ///
    /// # Panics
    /// If units are not tracked.
    pub fn suspend(&mut self, v: usize, preemptor: usize, now: f64, reservation: f64) {
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

    /// Asks for a scheduling pass at `t` (s; after now): a policy given
    /// from outside that placed a reservation there
    /// ([`crate::env::classic::policies::control`]). The native policies
    /// never need one: their reservations fall on predicted ends.
    pub fn wake_at(&mut self, t: f64) {
        self.events.push(t, Class::Wake, 0);
    }

    /// Running jobs at `now` as (job, start of its current piece, predicted
    /// end), by predicted end.
    pub fn running_plan(&self, now: f64) -> Vec<(usize, f64, f64)> {
        self.predicted
            .iter()
            .map(|k| {
                let end = if k.time > now {
                    k.time
                } else {
                    self.predicted_end(k.task, now)
                };
                (k.task, self.piece_start[k.task], end)
            })
            .collect()
    }

    /// Predicted end of running job `i`, seen at `now` ([`extended_end`]).
    pub fn predicted_end(&self, i: usize, now: f64) -> f64 {
        extended_end(self.piece_start[i], self.piece_est[i], now)
    }

    /// The availability profile at `now`: running jobs until their predicted
    /// ends, and suspended jobs' resume reservations.
    pub fn profile(&self, now: f64) -> Profile {
        let mut p = Profile::default();
        self.profile_into(now, &mut p);
        p
    }

    /// [`profile`](Self::profile) written into `p`, reusing its memory.
    pub fn profile_into(&self, now: f64, p: &mut Profile) {
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
        if overrun == 0 {
            p.rebuild_sorted(now, self.free, releases);
        } else {
            *p = Profile::new(now, self.free, releases);
        }
        if let Some(u) = &self.units {
            for &v in &u.suspended {
                p.reserve(
                    u.resume_at[v].max(now),
                    self.piece_est[v],
                    i64::from(self.jobs[v].size),
                );
            }
        }
    }

    /// Running jobs, by predicted end of their current piece as planned
    /// (start + estimate), then index.
    pub fn running(&self) -> impl Iterator<Item = usize> + '_ {
        self.predicted.iter().map(|k| k.task)
    }

    /// Suspended jobs, in the order they were suspended (none when units
    /// are not tracked).
    pub fn suspended(&self) -> &[usize] {
        self.units.as_ref().map_or(&[], |u| &u.suspended)
    }

    /// Start of suspended job `v`'s resume reservation, s.
    pub fn resume_at(&self, v: usize) -> f64 {
        self.units
            .as_ref()
            .map_or(f64::INFINITY, |u| u.resume_at[v])
    }

    /// The estimate job `i`'s next (or current) piece is planned with, s:
    /// its estimate, or for a suspended job the time it was predicted to
    /// have left.
    pub fn estimate_left(&self, i: usize) -> f64 {
        self.piece_est[i]
    }

    /// Whether every unit of suspended job `v` is free (it can resume).
    pub fn units_free(&self, v: usize) -> bool {
        self.units
            .as_ref()
            .is_some_and(|u| u.held[v].iter().all(|&x| u.owner[x as usize] == NONE))
    }

    /// Whether running job `v` holds a unit that also holds a suspended
    /// job's image.
    pub fn runs_over_an_image(&self, v: usize) -> bool {
        self.units
            .as_ref()
            .is_some_and(|u| u.held[v].iter().any(|&x| u.image[x as usize] != NONE))
    }

    /// Free units a job predicted to end at `until` (s) may take, at most
    /// `want`: clean ones, and idle units of suspended jobs whose resume
    /// reservation is not before `until`. Restricted units first (they are
    /// of less use to anyone else), then clean ones, ascending. Empty when
    /// units are not tracked.
    pub fn eligible_units(&self, until: f64, want: usize) -> Vec<u32> {
        self.units
            .as_ref()
            .map_or_else(Vec::new, |u| u.eligible(until, want))
    }

    /// The units a job of `size` units predicted to end at `until` (s)
    /// would start on now: `None` when units are tracked and fewer than
    /// `size` are eligible ([`eligible_units`](Self::eligible_units)); an
    /// empty list when units are not tracked (only the count matters).
    pub fn units_to_start(&self, until: f64, size: usize) -> Option<Vec<u32>> {
        match &self.units {
            Some(u) => {
                let got = u.eligible(until, size);
                (got.len() == size).then_some(got)
            }
            None => Some(Vec::new()),
        }
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
            Class::Wake => true,
        })
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

impl MachineState<'_> {
    /// Time of the next pending event (a job's end or a resume
    /// reservation), s.
    pub(super) fn next_time(&mut self) -> Option<f64> {
        self.next_event().map(|e| e.time)
    }

    /// Takes every event at `now`: ends release their units first, then
    /// resume reservations wake the loop (a job that cannot resume then, a
    /// unit still busy, waits for the next completion).
    pub(super) fn take_due(&mut self, now: f64) {
        while let Some(e) = self.next_event().filter(|e| e.time == now) {
            self.events.pop();
            if e.class == Class::End {
                self.finish(e.task, now);
            }
        }
    }

    /// The run, after `passes` scheduling passes.
    pub(super) fn into_run(self, passes: u64) -> ClassicRun {
        let (suspensions, allocations) = match self.units {
            Some(u) => (u.suspensions, u.allocations),
            None => (Vec::new(), Vec::new()),
        };
        ClassicRun {
            outcomes: self.outcomes,
            passes,
            priority: self.priority,
            suspensions,
            allocations,
            first_reservation: self.first_reservation,
        }
    }
}
