//! `swftool heuristics`: every heuristic name with one line each.

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
