//! Environment D driven one selected job at a time
//! (`env::classic::selection`, the decision process of `swftool.gym`):
//! always picking the first waiting job is the native scheduler at the
//! same reservation depth, job for job, on whole real logs; random picks
//! give schedules that pass the capacity checker with every job started.

use crate::common;

use rand::RngExt;
use swftool::env::classic::selection::{SelectError, Selection};
use swftool::env::classic::{self, Policy, check};
use swftool::model::rng::stream;

#[test]
fn always_the_first_waiting_job_is_the_native_scheduler_on_real_logs() {
    for file in [
        "KTH-SP2-1996-2.1-cln.swf.gz",
        "SDSC-SP2-1998-4.2-cln.swf.gz",
    ] {
        let (_, jobs, cap) = common::cleaned(file);
        for (depth, native) in [
            (None, Policy::Fcfs),
            (Some(0), Policy::Backfill { depth: 0 }),
            (Some(1), Policy::Backfill { depth: 1 }),
            (Some(3), Policy::Backfill { depth: 3 }),
            (Some(usize::MAX), Policy::Backfill { depth: usize::MAX }),
        ] {
            let want = classic::engine::simulate(&jobs, cap, native);
            let mut s = Selection::new(&jobs, cap, depth);
            while !s.done() {
                s.select(0).unwrap();
            }
            assert_eq!(s.select(0), Err(SelectError::Finished));
            let decisions = s.decisions();
            let got = s.finish();
            assert_eq!(got.outcomes, want.outcomes, "{file} {native:?}");
            assert_eq!(got.first_reservation, want.first_reservation);
            // One decision per job, but for the ones backfilled.
            assert!(decisions <= jobs.len() as u64 && decisions > 0);
        }
    }
}

#[test]
fn random_picks_give_valid_schedules_with_every_job_started() {
    let (_, jobs, cap) = common::cleaned("SDSC-SP2-1998-4.2-cln.swf.gz");
    let jobs = &jobs[10_000..13_000];
    for depth in [None, Some(0), Some(1), Some(usize::MAX)] {
        let mut rng = stream(7, 0);
        let mut s = Selection::new(jobs, cap, depth);
        while !s.done() {
            let waiting = s.queue().len();
            assert!(waiting > 0, "a decision with nothing waiting");
            let past = s.select(waiting);
            assert_eq!(
                past,
                Err(SelectError::NoJob {
                    position: waiting,
                    waiting
                })
            );
            s.select(rng.random_range(0..waiting)).unwrap();
        }
        let run = s.finish();
        assert!(run.outcomes.iter().all(|o| o.start.is_finite()));
        let broken = check::check(jobs, &run, cap);
        assert!(
            broken.is_empty(),
            "{depth:?}: {:?}",
            &broken[..broken.len().min(3)]
        );
    }
}
