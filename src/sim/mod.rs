//! The simulation core shared by the environments: the time-ordered event
//! queue with its equal-time rule, node sets, node timelines with slot
//! search, and the invariant checker every test runs on every simulated
//! schedule.

pub mod capacity;
pub mod events;
pub mod invariants;
pub mod nodeset;
pub mod timeline;
