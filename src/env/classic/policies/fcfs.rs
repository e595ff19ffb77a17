//! First come, first served: jobs start in queue (submit) order while they
//! fit; the first job that does not fit blocks every later one, even one
//! that would fit now. No reservation, no backfilling — compare
//! [`super::backfill`], which keeps walking the queue.

use super::scheduler::Scheduler;
use crate::env::classic::engine::machine::MachineState;

/// First come, first served.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fcfs;

impl Scheduler for Fcfs {
    fn pass(&mut self, queue: &mut Vec<usize>, now: f64, machine: &mut MachineState<'_>) {
        let jobs = machine.jobs();
        let mut started = 0;
        while let Some(&i) = queue.get(started)
            && i64::from(jobs[i].size) <= machine.free()
        {
            machine.start(i, now, Vec::new());
            started += 1;
        }
        queue.drain(..started);
    }
}
