//! Environment D: classic trace replay on the log's own homogeneous machine
//! — FCFS, backfilling with a reservation depth (0 = greedy backfill with
//! no reservation, 1 = EASY after Lifka 1995, k, all = Conservative after
//! Mu'alem & Feitelson 2001), and Catalina's priority order (Margo et al.)
//! with and without suspension preemption.
//!
//! [`clean`](mod@clean) prepares a log's jobs; [`engine`] runs the event loop and
//! holds the machine state; each policy is one file of [`policies`] behind
//! one trait, built from the [`Policy`] configuration; [`catalina`] holds
//! Catalina's priority formula and preemption rule; [`check`] verifies a
//! schedule.
//!
//! The machine has `capacity` allocation units: processors (MaxProcs), or
//! whole nodes (MaxNodes) with `--whole-nodes`. A job holds `size` units from
//! its start for its actual run time (SWF field 4); the scheduler plans with
//! its estimate (field 9 after cleaning, or the run time with exact
//! estimates). A job that ends before its estimate frees its units at once
//! and reservations move earlier: backfilling keeps each reservation and
//! compresses them (a job never starts later than its first reservation
//! while no job outruns its estimate, Mu'alem & Feitelson 2001); Catalina
//! rebuilds its reservations at every pass in priority order.

pub mod catalina;
pub mod check;
pub mod clean;
pub mod custom;
pub mod engine;
pub mod environment;
pub mod grid;
pub mod gym;
pub mod params;
pub mod policies;
pub mod record;
pub mod selection;
pub mod summary;
pub mod tables;
pub mod window;

use crate::contract::{Entry, Registry};

/// One job as the classic simulator sees it (after cleaning).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ClassicJob {
    /// SWF job number (field 1).
    pub job_number: i64,
    /// Submit time, s on the log's clock (field 2, after the preset's origin rule).
    pub submit: f64,
    /// Actual run time, s (> 0).
    pub run: f64,
    /// Run time the scheduler plans with, s (> 0): the user estimate, or the
    /// run time with exact estimates.
    pub estimate: f64,
    /// Processors the job uses (> 0).
    pub processors: u32,
    /// Allocation units it holds: processors, or whole nodes with
    /// `--whole-nodes` (ceil(processors / processors per node)).
    pub size: u32,
    /// SWF user id (field 12).
    pub user: i64,
    /// SWF group id (field 13), as the Python package's policies see it.
    /// Not written to a grid's cell files (they keep what the tables
    /// need), so a job read back from a cell has group 0.
    #[serde(default, skip_serializing)]
    pub group: i64,
    /// SWF queue number (field 15).
    pub queue: i64,
}

impl ClassicJob {
    /// A job of a scenario built by hand (tests, examples worked on
    /// paper): job number `n`, submit, run and estimate in s, `size`
    /// processors held as as many units; user, group and queue 1.
    pub fn example(n: i64, submit: f64, size: u32, run: f64, estimate: f64) -> ClassicJob {
        ClassicJob {
            job_number: n,
            submit,
            run,
            estimate,
            processors: size,
            size,
            user: 1,
            group: 1,
            queue: 1,
        }
    }
}

/// What the machine allocates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Unit {
    /// Processors (cores); capacity = MaxProcs.
    Processors,
    /// Whole nodes of `processors_per_node` processors; capacity = MaxNodes.
    Nodes {
        /// Processors per node.
        processors_per_node: u32,
    },
}

/// The log's own machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Machine {
    /// Allocation units (processors or nodes).
    pub capacity: u32,
    /// What a unit is.
    pub unit: Unit,
}

impl Machine {
    /// Processors of the whole machine.
    pub fn max_processors(&self) -> i64 {
        match self.unit {
            Unit::Processors => i64::from(self.capacity),
            Unit::Nodes {
                processors_per_node,
            } => i64::from(self.capacity) * i64::from(processors_per_node),
        }
    }

    /// Units a job of `processors` processors holds.
    pub fn units_for(&self, processors: u32) -> u32 {
        match self.unit {
            Unit::Processors => processors,
            Unit::Nodes {
                processors_per_node,
            } => processors.div_ceil(processors_per_node.max(1)),
        }
    }
}

/// A classic scheduling policy, as configured (the registry's payload);
/// [`policies::build`] turns it into the policy object a replay runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Policy {
    /// First come, first served: jobs start in submit order; the first job
    /// that does not fit blocks every later one.
    Fcfs,
    /// Backfilling in submit order with at most `depth` reservations: the
    /// first `depth` jobs that cannot start get a reservation at their
    /// earliest start; any job may start now if it does not delay one.
    Backfill {
        /// Reservation depth (`usize::MAX` = all, Conservative).
        depth: usize,
    },
    /// Catalina: the queue in descending priority order (recomputed at every
    /// pass; ties to the earlier submit, then the lower job number), with
    /// conservative backfilling, and optionally suspension preemption.
    Catalina {
        /// The ten priority weights.
        weights: catalina::CatalinaWeights,
        /// Suspension preemption and its marks, or `None` for none.
        preemption: Option<catalina::Preemption>,
    },
}

/// One entry of environment D's registry: a scheduler name and its policy
/// with its default reservation depth.
pub type SchedulerInfo = Entry<Policy>;

/// Every classic scheduler.
pub const SCHEDULERS: Registry<Policy> = Registry {
    env: "classic",
    entries: &[
        SchedulerInfo {
            name: "fcfs",
            summary: "First come, first served: no backfilling; the first job that does not fit blocks the queue",
            policy: Policy::Fcfs,
        },
        SchedulerInfo {
            name: "easy",
            summary: "EASY backfilling (reservation depth 1; Lifka 1995): only the first waiting job is protected",
            policy: Policy::Backfill { depth: 1 },
        },
        SchedulerInfo {
            name: "conservative",
            summary: "Conservative backfilling (depth all; Mu'alem & Feitelson 2001): every waiting job holds a reservation",
            policy: Policy::Backfill { depth: usize::MAX },
        },
        SchedulerInfo {
            name: "catalina",
            summary: "Catalina (SDSC): ten-factor priority (DataStar weights) recomputed each pass, conservative backfill in priority order, no preemption",
            policy: Policy::Catalina {
                weights: catalina::CatalinaWeights::DATASTAR,
                preemption: None,
            },
        },
        SchedulerInfo {
            name: "catalina-preempt",
            summary: "Catalina with suspension preemption: jobs above --preempting-above units (64) preempt with doubled priority those of at most --preemptible-up-to (64), none with < 1,800 s left",
            policy: Policy::Catalina {
                weights: catalina::CatalinaWeights::DATASTAR,
                preemption: Some(catalina::Preemption::MARGO2008),
            },
        },
        SchedulerInfo {
            name: "backfill",
            summary: "Backfilling with --reservation-depth K (0 = greedy, no reservation; default 0)",
            policy: Policy::Backfill { depth: 0 },
        },
    ],
};

/// A scheduler as registered, before the flags set its parameters
/// ([`ClassicArgs::policies`] applies them).
impl From<&'static crate::contract::Entry<Policy>> for (&'static str, Policy) {
    fn from(e: &'static crate::contract::Entry<Policy>) -> Self {
        (e.name, e.policy)
    }
}

impl crate::contract::HeuristicName for (&'static str, Policy) {
    fn name(&self) -> &'static str {
        self.0
    }
}
