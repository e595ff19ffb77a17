//! `swftool heuristics`: every heuristic name of every environment, with one
//! line each.

use super::env_infos;
use crate::contract::LogUse;

/// Arguments of `swftool heuristics` (none).
#[derive(Debug, Clone, clap::Args)]
pub struct HeuristicsArgs {}

/// The listing printed by `swftool heuristics`: per environment, its title,
/// how to run it, and each heuristic's name and summary.
pub fn listing() -> String {
    let mut out = String::new();
    for (k, env) in env_infos().into_iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let log = match env.log {
            LogUse::Required => "LOG ",
            LogUse::Optional => "[LOG] ",
            LogUse::Synthetic => "",
        };
        out.push_str(&format!(
            "{} — `swftool replay {log}--env {} --heuristic NAME`:\n",
            env.title, env.name
        ));
        let list = env.heuristics;
        let width = list.iter().map(|h| h.0.len()).max().unwrap_or(0);
        for (name, summary) in list {
            out.push_str(&format!("  {name:width$}  {summary}\n"));
        }
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
