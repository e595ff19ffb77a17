//! Conservative Multiple Queues (Khemka et al. 2015, "soft and hard
//! deadlines", §IV.B).
//!
//! Tasks are sorted into three queues by their average resource use
//! R̃ = mean over the clusters they fit on of ETC·NC (core-seconds), against
//! Rmax, the largest R̃ of any task of the scenario: small ≤ 0.3·Rmax <
//! medium ≤ 0.6·Rmax < large. At each mapping event the mappable tasks are
//! taken round robin — 1 large, 4 medium, 8 small, and again — in arrival
//! order inside each queue (the cycle restarts at every event), and each is
//! placed Conservative-style: started now or reserved at its earliest slot.

use super::easy::place_in_order;
use super::engine::{Heuristic, MappingEvent};
use crate::model::{System, Task};
use crate::workload::Scenario;

/// Which queue a task belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queue {
    /// R̃ ≤ 0.3·Rmax.
    Small,
    /// 0.3·Rmax < R̃ ≤ 0.6·Rmax.
    Medium,
    /// R̃ > 0.6·Rmax.
    Large,
}

/// Round-robin quota per cycle: (queue, tasks taken).
pub const ROUND_ROBIN: [(Queue, usize); 3] =
    [(Queue::Large, 1), (Queue::Medium, 4), (Queue::Small, 8)];

/// Average resource use R̃ of `task` (core-seconds); 0 when it fits nowhere.
pub fn average_resources(task: &Task, system: &System) -> f64 {
    let mut sum = 0.0;
    let mut n = 0;
    for (j, c) in system.clusters.iter().enumerate() {
        if c.fits(task.cores) {
            sum += task.resources_on(system, j);
            n += 1;
        }
    }
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// The CMQ heuristic.
#[derive(Debug, Clone)]
pub struct MultipleQueues {
    queue: Vec<Queue>,
}

impl MultipleQueues {
    /// Classifies every task of `scenario`.
    pub fn new(scenario: &Scenario) -> Self {
        let r: Vec<f64> = scenario
            .tasks
            .iter()
            .map(|t| average_resources(t, &scenario.system))
            .collect();
        let rmax = r.iter().copied().fold(0.0, f64::max);
        let queue = r
            .iter()
            .map(|&x| {
                if x <= 0.3 * rmax {
                    Queue::Small
                } else if x <= 0.6 * rmax {
                    Queue::Medium
                } else {
                    Queue::Large
                }
            })
            .collect();
        MultipleQueues { queue }
    }

    /// The queue of task `task`.
    pub fn queue_of(&self, task: usize) -> Queue {
        self.queue[task]
    }

    /// The order in which CMQ considers `mappable` (arrival order) tasks.
    pub fn order(&self, mappable: &[usize]) -> Vec<usize> {
        let mut queues: Vec<std::collections::VecDeque<usize>> = ROUND_ROBIN
            .iter()
            .map(|&(q, _)| {
                mappable
                    .iter()
                    .copied()
                    .filter(|&t| self.queue[t] == q)
                    .collect()
            })
            .collect();
        let mut order = Vec::with_capacity(mappable.len());
        while order.len() < mappable.len() {
            for (qi, &(_, quota)) in ROUND_ROBIN.iter().enumerate() {
                for _ in 0..quota {
                    match queues[qi].pop_front() {
                        Some(t) => order.push(t),
                        None => break,
                    }
                }
            }
        }
        order
    }
}

impl Heuristic for MultipleQueues {
    fn map(&mut self, event: &mut MappingEvent<'_>) {
        for task in self.order(event.mappable()) {
            place_in_order(event, task, usize::MAX);
        }
    }
}
