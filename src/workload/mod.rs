//! Turning a log into scheduling scenarios (docs/parallel.md): choosing days,
//! generating systems, ETC rows and value functions, all from seeded streams.

pub mod days;
pub mod scenario;

pub use days::{ArrivalRange, DaySet, DayTotals, DayWindow, Workload};
pub use scenario::{
    Correlation, Heterogeneity, Oversubscription, Scenario, ScenarioError, ScenarioParams,
};
