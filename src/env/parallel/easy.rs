//! EASY and Conservative backfilling for environment A (docs/parallel.md; Lifka,
//! "The ANL/IBM SP scheduling system", JSSPP 1995, for EASY; Mu'alem and
//! Feitelson, IEEE TPDS 12(6), 2001, for Conservative).
//!
//! Both go through the mappable tasks in arrival order and put each on the
//! cluster where it can start earliest (ties to the lower index), ignoring
//! value and heterogeneity. A task that can start now starts; the timelines
//! already hold every reservation, so a task that starts now never delays
//! one. A task that cannot start now gets a reservation if fewer than
//! `depth` tasks hold one, else it is skipped and waits for a later event.
//! EASY has depth 1, Conservative unlimited depth.

use super::engine::{Heuristic, MappingEvent};

/// Backfilling with a reservation depth: 1 = EASY, unlimited = Conservative.
#[derive(Debug, Clone, Copy)]
pub struct Backfilling {
    depth: usize,
}

impl Backfilling {
    /// EASY: at most one reservation.
    pub fn easy() -> Self {
        Backfilling { depth: 1 }
    }

    /// Conservative: every task that cannot start now is reserved.
    pub fn conservative() -> Self {
        Backfilling { depth: usize::MAX }
    }
}

impl Heuristic for Backfilling {
    fn map(&mut self, event: &mut MappingEvent<'_>) {
        let order: Vec<usize> = event.mappable().to_vec();
        for task in order {
            place_in_order(event, task, self.depth);
        }
    }
}

/// Places one task Conservative-style when `depth` allows a reservation:
/// starts it now if it can, else reserves its earliest slot, else leaves it.
/// Shared with [`super::cmq`].
pub(crate) fn place_in_order(event: &mut MappingEvent<'_>, task: usize, depth: usize) {
    let Some((cluster, slot)) = event.earliest_cluster(task) else {
        return;
    };
    if slot.start == event.now() {
        let _ = event.start(task, cluster);
    } else if event.reservations() < depth {
        let _ = event.reserve(task, cluster, slot.start);
    }
}
