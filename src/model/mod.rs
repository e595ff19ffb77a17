//! The shared scheduling model: tasks, value functions, ETC matrices drawn
//! by the COV method, heterogeneous system descriptions, and the calendar
//! of a log's clock.
//!
//! Times are `f64` seconds on the log's clock (seconds since the log's
//! `UnixStartTime`); values are in value units (the paper's unit-less
//! "value"); sizes are cores and nodes.

pub mod calendar;
pub mod etc;
pub mod rng;
pub mod system;
pub mod task;
pub mod utility;
pub mod value;

pub use system::{Cluster, System};
pub use task::{Owner, Task};
pub use value::ValueFunction;
