//! `swftool heuristics`: every heuristic (environment A) and classic
//! scheduler (environment D) name with one line each.

use crate::env::classic::SCHEDULERS;
use crate::env::parallel::HEURISTICS;

/// Arguments of `swftool heuristics` (none).
#[derive(Debug, Clone, clap::Args)]
pub struct HeuristicsArgs {}

/// The listing printed by `swftool heuristics`.
pub fn listing() -> String {
    let width = HEURISTICS.iter().map(|h| h.name.len()).max().unwrap_or(0);
    let mut out = String::from(
        "Environment A (heterogeneous parallel, value-based; `swftool replay --heuristic NAME`):\n",
    );
    for h in HEURISTICS {
        out.push_str(&format!("  {:width$}  {}\n", h.name, h.summary));
    }
    let width = SCHEDULERS.iter().map(|s| s.name.len()).max().unwrap_or(0);
    out.push_str(
        "\nEnvironment D (classic replay on the log's own machine; `swftool replay LOG --env classic --heuristic NAME`):\n",
    );
    for s in SCHEDULERS {
        out.push_str(&format!("  {:width$}  {}\n", s.name, s.summary));
    }
    out
}

/// Prints [`listing`].
///
/// # Errors
/// None; the signature matches the other subcommands.
pub fn run(_args: &HeuristicsArgs) -> anyhow::Result<()> {
    print!("{}", listing());
    Ok(())
}
