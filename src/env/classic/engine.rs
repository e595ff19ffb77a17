//! The event loop of classic trace replay (SPEC §3.D).
//!
//! Equal-time rule: at each instant, every job that ends then releases its
//! units first, then the jobs submitted then join the queue, then one
//! scheduling pass runs — so a job ending at t frees its units for a job
//! starting at t.
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

use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeSet, BinaryHeap};

use super::profile::Profile;
use super::{ClassicJob, Policy};

/// When a job ran.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClassicOutcome {
    /// Start, s.
    pub start: f64,
    /// End = start + run, s.
    pub end: f64,
}

/// The result of a classic replay.
#[derive(Debug, Clone)]
pub struct ClassicRun {
    /// One outcome per job, in the order of the jobs given.
    pub outcomes: Vec<ClassicOutcome>,
    /// Number of scheduling passes.
    pub passes: u64,
    /// Each job's priority when it started (Catalina's priority; 1 for the
    /// other policies), for the priority-weighted metrics.
    pub priority: Vec<f64>,
}

#[derive(Clone, Copy, PartialEq)]
struct Key(f64, usize);
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Key {
    fn cmp(&self, o: &Self) -> Ordering {
        self.0.total_cmp(&o.0).then(self.1.cmp(&o.1))
    }
}

struct Machine<'a> {
    jobs: &'a [ClassicJob],
    outcomes: Vec<ClassicOutcome>,
    // Completions: min-heap on actual end.
    ends: BinaryHeap<Reverse<Key>>,
    // Running jobs by predicted end (start + estimate).
    predicted: BTreeSet<Key>,
    free: i64,
    priority: Vec<f64>,
}

impl Machine<'_> {
    fn start(&mut self, i: usize, now: f64) {
        let job = &self.jobs[i];
        self.outcomes[i] = ClassicOutcome {
            start: now,
            end: now + job.run,
        };
        self.free -= i64::from(job.size);
        self.ends.push(Reverse(Key(now + job.run, i)));
        self.predicted.insert(Key(now + job.estimate, i));
    }

    fn finish(&mut self, i: usize) {
        let job = &self.jobs[i];
        self.free += i64::from(job.size);
        self.predicted
            .remove(&Key(self.outcomes[i].start + job.estimate, i));
    }

    fn profile(&self, now: f64) -> Profile {
        let overrun = self.predicted.iter().take_while(|k| k.0 <= now).count();
        let releases = self.predicted.iter().map(|k| {
            let job = &self.jobs[k.1];
            (
                extended_end(self.outcomes[k.1].start, job.estimate, now),
                i64::from(job.size),
            )
        });
        if overrun == 0 {
            Profile::from_sorted(now, self.free, releases)
        } else {
            Profile::new(now, self.free, releases)
        }
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
    let mut m = Machine {
        jobs,
        outcomes: vec![
            ClassicOutcome {
                start: f64::INFINITY,
                end: f64::INFINITY,
            };
            n
        ],
        ends: BinaryHeap::new(),
        predicted: BTreeSet::new(),
        free: i64::from(capacity),
        priority: vec![1.0; n],
    };
    let mut queue: Vec<usize> = Vec::new();
    let mut next = 0;
    let mut passes = 0;
    loop {
        let t_sub = order.get(next).map(|&i| jobs[i].submit);
        let t_end = m.ends.peek().map(|e| e.0.0);
        let now = match (t_sub, t_end) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) => a,
            (None, Some(b)) => b,
            (None, None) => break,
        };
        while let Some(&Reverse(Key(t, i))) = m.ends.peek() {
            if t != now {
                break;
            }
            m.ends.pop();
            m.finish(i);
        }
        while let Some(&i) = order.get(next) {
            if jobs[i].submit != now {
                break;
            }
            queue.push(i);
            next += 1;
        }
        if queue.is_empty() {
            continue;
        }
        passes += 1;
        match policy {
            Policy::Fcfs => {
                let mut k = 0;
                while k < queue.len() && i64::from(jobs[queue[k]].size) <= m.free {
                    m.start(queue[k], now);
                    k += 1;
                }
                queue.drain(..k);
            }
            Policy::Catalina { weights } => {
                let mut keyed: Vec<(f64, usize)> = queue
                    .iter()
                    .map(|&i| {
                        let j = &jobs[i];
                        (
                            super::catalina::priority(&weights, j.size, j.submit, j.estimate, now),
                            i,
                        )
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
                queue = backfill_pass(&mut m, &ordered, usize::MAX, now);
            }
            Policy::Backfill { depth } => {
                queue = backfill_pass(&mut m, &queue, depth, now);
            }
        }
    }
    ClassicRun {
        outcomes: m.outcomes,
        passes,
        priority: m.priority,
    }
}

/// One backfilling pass over `queue` (in the order to serve it) with at most
/// `depth` reservations; returns the jobs left waiting, in the same order.
fn backfill_pass(m: &mut Machine<'_>, queue: &[usize], depth: usize, now: f64) -> Vec<usize> {
    let jobs = m.jobs;
    let mut profile: Option<Profile> = None;
    let mut reserved = 0usize;
    let mut keep = Vec::with_capacity(queue.len());
    for (qi, &i) in queue.iter().enumerate() {
        if m.free == 0 && reserved >= depth {
            keep.extend_from_slice(&queue[qi..]);
            break;
        }
        let size = i64::from(jobs[i].size);
        let est = jobs[i].estimate;
        let fits_now = size <= m.free && profile.as_ref().is_none_or(|p| p.fits(now, est, size));
        if fits_now {
            if let Some(p) = profile.as_mut() {
                p.reserve(now, est, size);
            }
            m.start(i, now);
            continue;
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
