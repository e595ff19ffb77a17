//! The simulation core shared by the environments, knowing none of them:
//! the time-ordered event queue with its equal-time rule, node sets, node
//! timelines with slot search (per-node, environment A), the availability
//! profile (free units over time, environment D's backfilling), and the
//! neutral schedule record with the checker every environment runs on its
//! schedules.

pub mod events;
pub mod nodeset;
pub mod profile;
pub mod schedule;
pub mod timeline;
