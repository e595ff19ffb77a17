//! Scheduling environments. Each is one folder: its engine (the event loop
//! and the machine state), its heuristics behind one small trait, its
//! parameters (a clap argument group), its schedule checks, its run summary
//! and its tables, and its grid glue (`grid`: configuration keys, variants,
//! cell files, the grid's tables, Markdown and figures, its presets). What
//! they share lives below them, in [`crate::contract`] (the
//! [`crate::contract::Environment`] trait the commands are written against
//! and the heuristic registry type), and beside them: the list below, the
//! one place the environments are named, and [`GridVisitor`].
//!
//! - [`parallel`] — environment A: value-based scheduling on heterogeneous
//!   parallel clusters with place-holders (Khemka et al. 2015).
//! - [`serial`] — environment B: serial tasks with utility functions and
//!   preemption on heterogeneous clusters of cores (Machovec et al. 2017).
//! - [`energy`] — environment C: utility under a daily energy budget on
//!   heterogeneous machines with P-states, queued or polled (Khemka et al.).
//! - [`classic`] — environment D: trace replay on the log's own machine with
//!   FCFS, backfilling and Catalina's priority and preemption (Margo et al.).
//!
//! Adding an environment: its folder, a `pub mod` line, its name in
//! [`NAMES`] and one arm in [`visit`] (ARCHITECTURE.md, "A new
//! environment").

pub mod classic;
pub mod configs;
pub mod energy;
pub mod parallel;
pub mod serial;

use crate::contract::UnknownEnv;
use crate::experiment::grid::Grid;

/// An operation on an environment chosen by name at run time: [`visit`]
/// calls [`GridVisitor::visit`] with the environment a name stands for.
/// Declared here, beside [`visit`], because it names both the grid layer's
/// [`Grid`] (below this folder) and, through [`visit`], every environment.
pub trait GridVisitor {
    /// What the operation gives.
    type Output;
    /// Runs the operation on environment `E`.
    fn visit<E: Grid>(self) -> Self::Output;
}

/// The environments' CLI names, in listing order; the first is the default
/// of `--env` and of a configuration without `environment`.
pub const NAMES: &[&str] = &["parallel", "serial", "energy", "classic"];

/// Calls `visitor` with the environment named `name` (its type): the one
/// place a name becomes an environment.
///
/// # Errors
/// [`UnknownEnv`] for a name not in [`NAMES`].
pub fn visit<V: GridVisitor>(name: &str, visitor: V) -> Result<V::Output, UnknownEnv> {
    Ok(match name {
        "parallel" => visitor.visit::<parallel::environment::Parallel>(),
        "serial" => visitor.visit::<serial::environment::Serial>(),
        "energy" => visitor.visit::<energy::environment::Energy>(),
        "classic" => visitor.visit::<classic::environment::Classic>(),
        _ => {
            return Err(UnknownEnv {
                name: name.to_string(),
                valid: NAMES.to_vec(),
            });
        }
    })
}

/// Calls a fresh visitor with every environment, in [`NAMES`] order.
pub fn visit_all<V: GridVisitor>(mut visitor: impl FnMut() -> V) -> Vec<V::Output> {
    NAMES
        .iter()
        .filter_map(|n| visit(n, visitor()).ok())
        .collect()
}

/// The default environment: the first of [`NAMES`].
pub fn default_name() -> &'static str {
    NAMES[0]
}
