//! One file per subcommand (STYLE.md, after xsv): each owns its arguments
//! (clap `Args`) and a `run` function. What several commands share — the
//! thread pool and the check that every flag given belongs to the chosen
//! environment — is here.

pub mod aggregate;
pub mod compare;
pub mod experiment;
pub mod heuristics;
pub mod info;
pub mod replay;

use anyhow::{Context, bail};

use crate::env::EnvKind;
use crate::env::classic::ClassicArgs;
use crate::env::parallel::params::ParallelArgs;

/// Runs `f` in a pool of `threads` threads (the global pool when `None`).
///
/// # Errors
/// The pool cannot start, or `f`'s error.
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<T> {
    match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n.max(1))
            .build()
            .context("cannot start the thread pool")?
            .install(f),
        None => f(),
    }
}

/// Refuses the flags of an environment other than `env`: a flag that does
/// not apply is an error that names the environment it belongs to, never
/// silently ignored.
///
/// # Errors
/// The first foreign flag given.
pub fn refuse_foreign_flags(
    env: EnvKind,
    parallel: &ParallelArgs,
    classic: &ClassicArgs,
) -> anyhow::Result<()> {
    let (foreign, owner) = match env {
        EnvKind::Parallel => (classic.given(), EnvKind::Classic),
        EnvKind::Classic => (parallel.given(), EnvKind::Parallel),
    };
    if let Some(flag) = foreign.first() {
        bail!(
            "{flag} belongs to --env {owner} ({}); it does not apply to --env {env}",
            owner.title()
        );
    }
    Ok(())
}
