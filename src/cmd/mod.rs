//! One file per subcommand (STYLE.md, after xsv): each owns its arguments
//! (clap `Args`) and a `run` function. What several commands share — the
//! thread pool and the check that every flag given belongs to the chosen
//! environment — is here.

pub mod aggregate;
pub mod compare;
pub mod experiment;
pub mod heuristics;
pub mod info;
pub mod progress;
pub mod replay;
pub mod slurm;
pub mod synth;

use anyhow::{Context, bail};

use crate::env::EnvKind;
use crate::env::classic::ClassicArgs;
use crate::env::energy::params::EnergyArgs;
use crate::env::parallel::params::ParallelArgs;
use crate::env::serial::params::SerialArgs;

/// The one-line message of an error and its causes, each said once.
///
/// The chain is joined with `: ` like anyhow's `{:#}`, except that a cause
/// whose text the message already holds is left out: a library error whose
/// own text includes its source (`cannot read F: No such file…`) would
/// otherwise print that source a second time.
pub fn error_message(e: &anyhow::Error) -> String {
    let mut message = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if text.is_empty() || message.contains(&text) {
            continue;
        }
        if !message.is_empty() {
            message.push_str(": ");
        }
        message.push_str(&text);
    }
    message
}

/// Whether an error comes from writing to a closed pipe (`swftool … | head`),
/// which a command-line tool ends on quietly.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Creates the output directory `out` (`--out`) and checks that a file can
/// be written in it, so that a bad `--out` stops a command before any
/// simulation rather than after it.
///
/// # Errors
/// The directory cannot be created, or is not writable.
pub fn prepare_out(out: &std::path::Path) -> anyhow::Result<()> {
    let shown = out.display();
    if out.exists() && !out.is_dir() {
        bail!("--out {shown} is a file, not a directory; give a directory for the outputs");
    }
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create the output directory {shown} (--out)"))?;
    let probe = out.join(format!(".swftool-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("cannot write in the output directory {shown} (--out)"))?;
    std::fs::remove_file(&probe).with_context(|| format!("cannot remove {}", probe.display()))?;
    Ok(())
}

/// The most worker threads `--threads` takes: 1024. Each thread has its
/// own stack and work queue, so a larger pool costs memory and start-up
/// time without speeding anything up on the machines swftool runs on
/// (`--threads 0` takes every core there is).
pub const MAX_THREADS: usize = 1024;

/// Parses `--threads`: a whole number from 0 (all cores) to
/// [`MAX_THREADS`].
///
/// # Errors
/// Text that is not such a number, as a message for clap naming the flag
/// and the range.
pub fn parse_threads(s: &str) -> Result<usize, String> {
    s.trim()
        .parse::<usize>()
        .ok()
        .filter(|&n| n <= MAX_THREADS)
        .ok_or_else(|| {
            format!("`{s}`: --threads takes a whole number from 0 (all cores) to {MAX_THREADS}")
        })
}

/// Runs `f` in a pool of `threads` threads (the global pool, one thread per
/// core, when `None` or `Some(0)`: `--threads 0` means all cores).
///
/// # Errors
/// More than [`MAX_THREADS`] threads (before `f` runs), the pool cannot
/// start, or `f`'s error.
pub fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> anyhow::Result<T> + Send,
) -> anyhow::Result<T> {
    if let Some(n) = threads.filter(|&n| n > MAX_THREADS) {
        bail!("--threads {n}: at most {MAX_THREADS} threads (0 means all cores)");
    }
    match threads {
        None | Some(0) => f(),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .context("cannot start the thread pool")?
            .install(f),
    }
}

/// Flags of one environment's group that also apply to others: environment
/// A's `--seed` (also B and C), `--day`, `--days` and `--day-arrivals`
/// (also B); environment B's `--trial`, `--trials` and `--theta` (also C).
pub fn shared_with(owner: EnvKind, flag: &str) -> &'static [EnvKind] {
    match (owner, flag) {
        (EnvKind::Parallel, "--seed") => &[EnvKind::Serial, EnvKind::Energy],
        (EnvKind::Parallel, "--day" | "--days" | "--day-arrivals") => &[EnvKind::Serial],
        (EnvKind::Serial, "--trial" | "--trials" | "--theta") => &[EnvKind::Energy],
        _ => &[],
    }
}

/// Refuses any flag given that belongs to another environment than `env`
/// (flags shared with `env` pass, see [`shared_with`]).
///
/// # Errors
/// The first foreign flag, naming the environments it belongs to.
pub fn refuse_foreign_flags(
    env: EnvKind,
    parallel: &ParallelArgs,
    serial: &SerialArgs,
    energy: &EnergyArgs,
    classic: &ClassicArgs,
) -> anyhow::Result<()> {
    let groups = [
        (EnvKind::Parallel, parallel.given()),
        (EnvKind::Serial, serial.given()),
        (EnvKind::Energy, energy.given()),
        (EnvKind::Classic, classic.given()),
    ];
    for (owner, given) in groups {
        if owner == env {
            continue;
        }
        let foreign = given.iter().find(|f| !shared_with(owner, f).contains(&env));
        if let Some(flag) = foreign {
            let also: String = shared_with(owner, flag)
                .iter()
                .map(|e| format!(" and --env {e}"))
                .collect();
            bail!(
                "{flag} belongs to --env {owner}{also} ({}); it does not apply to --env {env}",
                owner.title()
            );
        }
    }
    Ok(())
}

/// Environment B's flags with the ones it shares with A filled in.
pub fn serial_args(serial: &SerialArgs, parallel: &ParallelArgs) -> SerialArgs {
    SerialArgs {
        seed: parallel.seed,
        day: parallel.day.clone(),
        days: parallel.days,
        day_arrivals: parallel.day_arrivals,
        ..serial.clone()
    }
}

/// Environment C's flags with the ones it shares with A and B filled in.
pub fn energy_args(
    energy: &EnergyArgs,
    serial: &SerialArgs,
    parallel: &ParallelArgs,
) -> EnergyArgs {
    EnergyArgs {
        seed: parallel.seed,
        trial: serial.trial,
        trials: serial.trials,
        theta: serial.theta,
        ..energy.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("cannot read x.toml: {source}")]
    struct Wrapping {
        source: std::io::Error,
    }

    #[test]
    fn a_cause_already_in_the_message_is_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let e = anyhow::Error::new(Wrapping { source: io }).context("loading the grid");
        assert_eq!(
            error_message(&e),
            "loading the grid: cannot read x.toml: No such file"
        );
    }

    #[test]
    fn zero_threads_means_all_cores() {
        let all = rayon::current_num_threads();
        assert_eq!(
            with_threads(Some(0), || Ok(rayon::current_num_threads())).unwrap(),
            all
        );
        assert_eq!(
            with_threads(Some(1), || Ok(rayon::current_num_threads())).unwrap(),
            1
        );
    }

    #[test]
    fn more_threads_than_the_bound_are_refused_naming_the_flag() {
        assert_eq!(parse_threads("0"), Ok(0));
        assert_eq!(parse_threads("1024"), Ok(MAX_THREADS));
        for bad in ["1025", "1000000000", "-1", "1e3", "", "x"] {
            let e = parse_threads(bad).unwrap_err();
            assert!(e.contains("--threads") && e.contains("1024"), "{bad}: {e}");
        }
        let mut ran = false;
        let e = with_threads(Some(MAX_THREADS + 1), || {
            ran = true;
            Ok(())
        })
        .unwrap_err();
        assert!(!ran, "the work must not start");
        assert_eq!(
            e.to_string(),
            "--threads 1025: at most 1024 threads (0 means all cores)"
        );
    }

    #[test]
    fn a_broken_pipe_is_recognised_through_context() {
        let io = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let e = anyhow::Error::new(io).context("writing to standard output");
        assert!(is_broken_pipe(&e));
        assert!(!is_broken_pipe(&anyhow::anyhow!("other")));
    }
}
