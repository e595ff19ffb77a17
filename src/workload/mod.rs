//! Workloads, below every environment: the days of a log (which 24-hour
//! windows a scenario can use, the 48 standard days, `--day` / `--days`;
//! environments A and B), a day's scenario of environment A (system, ETC
//! and values from a seed; docs/parallel.md), the seeds and trials every
//! environment numbers its scenarios by, and what environments B and C
//! share about synthetic workloads: their error type and the SWF + sidecar
//! frame of a trial written to disk.

pub mod days;
pub mod error;
pub mod flags;
pub mod scenario;
pub mod seeds;
pub mod sidecar;

pub use days::{
    ArrivalRange, DEFAULT_DAY, DayError, DayPick, DaySet, DayTotals, DayWindow, STANDARD_DAYS,
    Workload, pick_days,
};
pub use error::WorkloadError;
pub use scenario::{
    Correlation, Heterogeneity, Oversubscription, Scenario, ScenarioError, ScenarioParams,
};
