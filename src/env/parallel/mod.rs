//! Environment A: heterogeneous parallel clusters, node-level allocation,
//! value-based scheduling with soft and hard deadlines (Khemka, Machovec,
//! Blandin, Siegel et al., "Resource management in heterogeneous parallel
//! computing environments with soft and hard deadlines", MISTA 2015;
//! docs/parallel.md).
//!
//! The [`engine`] runs the discrete-event simulation: mapping events when
//! tasks arrive and when nodes become free, dropping, then one
//! [`Heuristic`] call. Heuristics see a [`MappingEvent`]: the clock, the
//! mappable tasks and slot queries on the cluster timelines, and answer with
//! "start this task now", "reserve that slot" or "hold that slot with a
//! place-holder".

pub mod check;
pub mod cmq;
pub mod custom;
pub mod easy;
pub mod engine;
pub mod environment;
pub mod grid;
pub mod max_value;
pub mod params;
pub mod record;
pub mod summary;
pub mod tables;

pub use engine::{Heuristic, MappingEvent, RunResult, TaskOutcome, TaskStatus, simulate};

use crate::contract::{Entry, Registry};
use crate::workload::Scenario;

/// Builds a fresh heuristic object for one scenario.
pub type Build = fn(&Scenario) -> Box<dyn Heuristic>;

/// One entry of environment A's registry.
pub type HeuristicInfo = Entry<Build>;

impl Entry<Build> {
    /// A fresh instance of this heuristic for `scenario`.
    pub fn build(&self, scenario: &Scenario) -> Box<dyn Heuristic> {
        (self.policy)(scenario)
    }
}

/// Every heuristic of environment A, in the order of the paper's figures.
pub const HEURISTICS: Registry<Build> = Registry {
    env: "parallel",
    entries: &[
        HeuristicInfo {
            name: "easy",
            summary: "EASY backfilling: arrival order, one reservation, backfill only what starts now without delaying it",
            policy: |_| Box::new(easy::Backfilling::easy()),
        },
        HeuristicInfo {
            name: "conservative",
            summary: "Conservative backfilling: arrival order, every task that cannot start now gets a reservation",
            policy: |_| Box::new(easy::Backfilling::conservative()),
        },
        HeuristicInfo {
            name: "cmq",
            summary: "Conservative Multiple Queues: small/medium/large queues by resource use, round robin 1 large, 4 medium, 8 small",
            policy: |s| Box::new(cmq::MultipleQueues::new(s)),
        },
        HeuristicInfo {
            name: "maxvalue",
            summary: "Maximum Value: Min-Min on value at completion; slots in the future are reservations",
            policy: |_| {
                Box::new(max_value::MinMin::new(
                    max_value::Objective::Value,
                    max_value::Mode::Reserve,
                ))
            },
        },
        HeuristicInfo {
            name: "maxvpr",
            summary: "Maximum Value-per-Resource: Min-Min on value / (ETC x charged cores); future slots are reservations",
            policy: |_| {
                Box::new(max_value::MinMin::new(
                    max_value::Objective::ValuePerResource,
                    max_value::Mode::Reserve,
                ))
            },
        },
        HeuristicInfo {
            name: "maxvalue-ph",
            summary: "Maximum Value with place-holders: future slots only block this mapping event, tasks are decided again later",
            policy: |_| {
                Box::new(max_value::MinMin::new(
                    max_value::Objective::Value,
                    max_value::Mode::PlaceHolder,
                ))
            },
        },
        HeuristicInfo {
            name: "maxvpr-ph",
            summary: "Maximum Value-per-Resource with place-holders (the paper's best heuristic)",
            policy: |_| {
                Box::new(max_value::MinMin::new(
                    max_value::Objective::ValuePerResource,
                    max_value::Mode::PlaceHolder,
                ))
            },
        },
    ],
};
