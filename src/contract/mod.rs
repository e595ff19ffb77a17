//! The contract between the commands and the scheduling environments:
//! the [`Environment`] trait the commands and the grid layer are written
//! against ([`environment`]), and the one heuristic [`registry`] type.
//! Nothing here names an environment: each implements the trait in its own
//! folder (`env/<name>/environment.rs`), and `env/mod.rs` lists them.
//!
//! It sits below the grid layer (`experiment/`) and the environments'
//! folders (`env/`), so both import it and neither imports the other
//! upwards (ARCHITECTURE.md, "Direction of dependencies").

pub mod environment;
pub mod registry;

pub use environment::{
    EnvError, Environment, HeuristicName, Input, LogUse, Replayed, Scenarios, Setup, Simulated,
    Written, heuristic_list,
};
pub use registry::{Entry, Registry, UnknownEnv, UnknownName};
