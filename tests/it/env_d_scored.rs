//! Environment D under policies given from outside: a priority order
//! (`policies::scored`, what the Python package's `PriorityPolicy` runs)
//! ordered by submit time is the native scheduler job for job, on whole
//! real logs; a score that grows with waiting reorders the queue as worked
//! out on paper; a policy that fails or gives unusable scores stops the
//! replay with a message naming the pass and the job. Full control
//! (`policies::control`, `ControlPolicy`) in queue order is `fcfs`, and an
//! action that breaks a rule is named.

use crate::common;

use swftool::env::classic::custom::{CustomError, replay_scored};
use swftool::env::classic::params::ClassicArgs;
use swftool::env::classic::policies::control::{Action, ControlView, Controlled, Controller};
use swftool::env::classic::policies::scored::{PassView, Scored, Scorer, Sjf};
use swftool::env::classic::{self, Policy, engine};

use common::{classic_job as job, cleaned};

/// Scores every waiting job by its submit time: the native order.
struct BySubmit;

impl Scorer for BySubmit {
    fn scores(&mut self, v: &PassView<'_>) -> Result<Vec<f64>, String> {
        Ok(v.queue.iter().map(|&i| v.jobs[i].submit).collect())
    }
}

#[test]
fn submit_order_reproduces_fcfs_easy_and_conservative_on_real_logs() {
    for log in [
        "KTH-SP2-1996-2.1-cln.swf.gz",
        "SDSC-SP2-1998-4.2-cln.swf.gz",
    ] {
        let (log, jobs, cap) = cleaned(log);
        for (depth, native) in [
            (None, Policy::Fcfs),
            (Some(1), Policy::Backfill { depth: 1 }),
            (Some(usize::MAX), Policy::Backfill { depth: usize::MAX }),
        ] {
            let want = classic::engine::simulate(&jobs, cap, native);
            let mut scorer = BySubmit;
            let mut policy = Scored::new(&mut scorer, depth, cap);
            let got = engine::simulate_with(&jobs, cap, &mut policy).unwrap();
            assert_eq!(got.outcomes, want.outcomes, "{} {native:?}", log.name);
            assert_eq!(got.first_reservation, want.first_reservation);
            assert_eq!(got.passes, want.passes);
        }
    }
}

/// 4 processors. J1 (4 procs, 100 s) runs from 0. Waiting at 100: J2
/// (4 procs, 500 s, submitted 1), J3 (2 procs, 50 s, submitted 2), J4
/// (2 procs, 60 s, submitted 3). SJF without backfilling starts J3 and J4
/// at 100, J2 at 160 (when J4 ends); by submit order J2 runs first, 100–600,
/// then J3 and J4 at 600.
#[test]
fn sjf_reorders_the_queue_worked_on_paper() {
    let jobs = [
        job(1, 0.0, 4, 100.0, 100.0),
        job(2, 1.0, 4, 500.0, 500.0),
        job(3, 2.0, 2, 50.0, 50.0),
        job(4, 3.0, 2, 60.0, 60.0),
    ];
    let mut sjf = Sjf;
    let mut policy = Scored::new(&mut sjf, None, 4);
    let r = engine::simulate_with(&jobs, 4, &mut policy).unwrap();
    let starts: Vec<f64> = r.outcomes.iter().map(|o| o.start).collect();
    assert_eq!(starts, [0.0, 160.0, 100.0, 100.0]);
    let mut fifo = BySubmit;
    let mut policy = Scored::new(&mut fifo, None, 4);
    let r = engine::simulate_with(&jobs, 4, &mut policy).unwrap();
    let starts: Vec<f64> = r.outcomes.iter().map(|o| o.start).collect();
    assert_eq!(starts, [0.0, 100.0, 600.0, 600.0]);
}

/// Gives what it is told to, at the second pass.
struct Broken(&'static str);

impl Scorer for Broken {
    fn scores(&mut self, v: &PassView<'_>) -> Result<Vec<f64>, String> {
        if v.pass < 2 {
            return Ok(vec![0.0; v.queue.len()]);
        }
        match self.0 {
            "short" => Ok(vec![0.0; v.queue.len() - 1]),
            "nan" => Ok(v.queue.iter().map(|_| f64::NAN).collect()),
            _ => Err("ValueError: no".into()),
        }
    }
}

#[test]
fn a_failing_policy_stops_the_replay_naming_the_pass_and_job() {
    let jobs = [
        job(1, 0.0, 4, 100.0, 100.0),
        job(2, 1.0, 4, 10.0, 10.0),
        job(3, 2.0, 4, 10.0, 10.0),
    ];
    for (kind, says) in [
        // Pass 1 at 0 s starts job 1; pass 2 at 1 s sees job 2 waiting.
        (
            "short",
            "gave 0 scores at the scheduling pass at t = 1 s (pass 2) for 1 waiting jobs",
        ),
        (
            "nan",
            "gave job 2 (position 0 of the queue) the score NaN at the scheduling pass at t = 1 s",
        ),
        (
            "err",
            "the policy failed at the scheduling pass at t = 1 s (pass 2): ValueError: no",
        ),
    ] {
        let mut scorer = Broken(kind);
        let mut policy = Scored::new(&mut scorer, Some(1), 4);
        let e = engine::simulate_with(&jobs, 4, &mut policy).unwrap_err();
        assert!(e.contains(says), "{kind}: {e}");
    }
}

#[test]
fn a_whole_log_replay_takes_the_classic_flags_and_refuses_the_schedulers() {
    let (log, _, _) = cleaned("KTH-SP2-1996-2.1-cln.swf.gz");
    let args = ClassicArgs::default();
    let r = replay_scored(&log, &args, "by-submit", &mut BySubmit, Some(1)).unwrap();
    assert_eq!(r.summary.heuristic, "by-submit");
    assert_eq!(r.summary.reservation_depth, Some(1));
    assert!(r.summary.backfilling);
    let args = ClassicArgs {
        reservation_depth: Some(4),
        ..ClassicArgs::default()
    };
    let e = replay_scored(&log, &args, "x", &mut BySubmit, Some(1)).unwrap_err();
    assert!(
        matches!(
            e,
            CustomError::Refused {
                flag: "--reservation-depth"
            }
        ),
        "{e}"
    );
}

/// Full control from outside (`policies::control`): starts in queue order
/// while jobs fit, as `fcfs`; or, with `greedy`, every waiting job.
struct Starter {
    greedy: bool,
    extra: Option<usize>,
}

impl Controller for Starter {
    fn decide(&mut self, v: &ControlView<'_>) -> Result<Vec<Action>, String> {
        let mut free = v.pass.free;
        let mut out = Vec::new();
        for &i in v.pass.queue {
            let size = i64::from(v.pass.jobs[i].size);
            if size > free && !self.greedy {
                break;
            }
            free -= size;
            out.push(Action::Start(i));
        }
        out.extend(self.extra.map(Action::Start));
        Ok(out)
    }
}

#[test]
fn a_controller_in_queue_order_is_fcfs_and_its_rules_are_checked() {
    let (_, jobs, cap) = cleaned("KTH-SP2-1996-2.1-cln.swf.gz");
    let want = classic::engine::simulate(&jobs, cap, Policy::Fcfs);
    let mut c = Starter {
        greedy: false,
        extra: None,
    };
    let got = engine::simulate_with(&jobs, cap, &mut Controlled::new(&mut c, cap)).unwrap();
    assert_eq!(got.outcomes, want.outcomes);
    // Every waiting job at once: the first that does not fit is named.
    let small = [job(1, 0.0, 3, 10.0, 10.0), job(2, 0.0, 3, 10.0, 10.0)];
    let mut c = Starter {
        greedy: true,
        extra: None,
    };
    let e = engine::simulate_with(&small, 4, &mut Controlled::new(&mut c, 4)).unwrap_err();
    assert!(
        e.contains("job 2 needs 3 units and 1 are free (capacity 4"),
        "{e}"
    );
    // A job that has not arrived yet.
    let later = [job(1, 0.0, 1, 10.0, 10.0), job(2, 5.0, 1, 10.0, 10.0)];
    let mut c = Starter {
        greedy: false,
        extra: Some(1),
    };
    let e = engine::simulate_with(&later, 4, &mut Controlled::new(&mut c, 4)).unwrap_err();
    assert!(
        e.contains("job 2 is not waiting (it is submitted at t = 5 s)"),
        "{e}"
    );
}

/// The event loop driven from outside, pass by pass (what an agent that
/// waits between decisions does), is `simulate`: here deciding as `easy`
/// with the native policy object, on a window of a real log.
#[test]
fn a_replay_driven_pass_by_pass_is_simulate() {
    use swftool::env::classic::policies;
    let (_, jobs, cap) = cleaned("SDSC-SP2-1998-4.2-cln.swf.gz");
    let jobs = &jobs[..3000];
    let easy = Policy::Backfill { depth: 1 };
    let mut replay = engine::Replay::new(jobs, cap, false);
    let mut scheduler = policies::build(easy);
    let mut times = Vec::new();
    while let Some(now) = replay.next_pass() {
        times.push(now);
        let (queue, machine) = replay.parts();
        assert!(!queue.is_empty());
        scheduler.pass(queue, now, machine);
    }
    assert_eq!(replay.next_pass(), None);
    assert!(
        times.windows(2).all(|w| w[0] < w[1]),
        "one pass per instant, in order"
    );
    let passes = replay.passes();
    let run = replay.finish();
    let want = classic::engine::simulate(jobs, cap, easy);
    assert_eq!(run.outcomes, want.outcomes);
    assert_eq!(passes, want.passes);
    assert_eq!(times.len() as u64, passes);
}
