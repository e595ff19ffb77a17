//! The output layer every environment shares: one neutral [`Record`] per
//! run ([`record`]; each environment's adapter is its
//! [`crate::contract::Environment::record`]) and what is written once from
//! it — the exports of `replay --export` ([`export`]: Batsim's `jobs.csv`,
//! an SWF log of the simulated run) and the per-user tables ([`users`]).
//! The time series is binned by [`crate::metrics::series`] from
//! [`Record::occupancy`].
//!
//! It imports the layers below it (`swf`, `metrics`) and nothing of the
//! environments or the commands.

pub mod export;
pub mod record;
pub mod users;

pub use export::Export;
pub use record::{Fate, Machine, Piece, Record, RecordedJob};
