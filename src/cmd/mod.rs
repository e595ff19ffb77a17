//! One file per subcommand (as in xsv): each owns its arguments
//! (clap `Args`) and a `run` function. What several commands share — the
//! thread pool and the check that every flag given belongs to the chosen
//! environment — is here.

/// Prints a line to standard output like `println!`, except that a closed
/// pipe (`swftool compare … | head -5`) drops the text instead of stopping
/// the command: the files it writes are written all the same.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if !$crate::cmd::quiet() {
            let _ = writeln!(std::io::stdout(), $($arg)*);
        }
    }};
}

/// [`say!`] without the line end (as `print!`).
macro_rules! say_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if !$crate::cmd::quiet() {
            let _ = write!(std::io::stdout(), $($arg)*);
        }
    }};
}

/// Returns a [`Refused`] error (`return Err(Refused(format!(…)).into())`).
macro_rules! refuse {
    ($($arg:tt)*) => {
        return Err($crate::cmd::Refused(format!($($arg)*)).into())
    };
}

/// A flag, name or value a command refuses before any work (a flag of
/// another environment, a missing LOG, …): usage, not a failure of the
/// run. The Python package raises it as `UsageError`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

static QUIET: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Whether the commands' standard-output reports (`say!`) are silenced.
pub fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::SeqCst) > 0
}

/// Silences (`true`) the commands' standard-output reports for the whole
/// process until as many `set_quiet(false)` have followed: the Python
/// package runs commands quietly (from any number of threads) and returns
/// their tables instead. Warnings and notes on standard error are kept.
pub fn set_quiet(quiet: bool) {
    use std::sync::atomic::Ordering::SeqCst;
    if quiet {
        QUIET.fetch_add(1, SeqCst);
    } else {
        let _ = QUIET.fetch_update(SeqCst, SeqCst, |n| n.checked_sub(1));
    }
}

pub mod aggregate;
pub mod compare;
pub mod convert;
pub mod experiment;
pub mod fetch;
pub mod heuristics;
pub mod info;
pub mod progress;
pub mod replay;
pub mod slurm;
pub mod synth;

use anyhow::{Context, bail};

use clap::parser::ValueSource;

use crate::contract::LogUse;
use crate::env;
use crate::env::GridVisitor;
use crate::experiment::grid::Grid;
use crate::workload::flags::{SharedArgs, TakesShared};

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
/// simulation rather than after it; returns whether it created the folder.
///
/// # Errors
/// The directory cannot be created, or is not writable.
pub fn prepare_out(out: &std::path::Path) -> anyhow::Result<bool> {
    let shown = out.display();
    if out.exists() && !out.is_dir() {
        bail!("--out {shown} is a file, not a directory; give a directory for the outputs");
    }
    let created = !out.exists();
    std::fs::create_dir_all(out)
        .with_context(|| format!("cannot create the output directory {shown} (--out)"))?;
    let probe = out.join(format!(".swftool-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .with_context(|| format!("cannot write in the output directory {shown} (--out)"))?;
    std::fs::remove_file(&probe).with_context(|| format!("cannot remove {}", probe.display()))?;
    Ok(created)
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

/// What the commands print and check of an environment, read through
/// [`env::visit`] so that no command names one.
#[derive(Debug, Clone)]
pub struct EnvInfo {
    /// CLI name.
    pub name: &'static str,
    /// One-line title with its paper.
    pub title: &'static str,
    /// What it does with a LOG.
    pub log: LogUse,
    /// The shared flags it takes.
    pub shared: &'static [&'static str],
    /// Its heuristics: name and summary, in registry order.
    pub heuristics: Vec<(&'static str, &'static str)>,
    /// Its presets: name and summary.
    pub presets: Vec<(&'static str, &'static str)>,
}

struct Info;

impl GridVisitor for Info {
    type Output = EnvInfo;
    fn visit<E: Grid>(self) -> EnvInfo {
        EnvInfo {
            name: E::NAME,
            title: E::TITLE,
            log: E::LOG,
            shared: E::SHARED,
            heuristics: crate::contract::heuristic_list::<E>(),
            presets: E::presets()
                .into_iter()
                .map(|(n, p)| (n, p.summary))
                .collect(),
        }
    }
}

/// The flags of `probe` given on the command line in `matches`, as
/// `--name`.
fn given_in(probe: clap::Command, matches: &clap::ArgMatches) -> Vec<String> {
    probe
        .get_arguments()
        .filter(|a| {
            matches!(matches.try_contains_id(a.get_id().as_str()), Ok(true))
                && matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine)
        })
        .map(|a| format!("--{}", a.get_long().unwrap_or(a.get_id().as_str())))
        .collect()
}

/// Every environment's [`EnvInfo`], in listing order.
pub fn env_infos() -> Vec<EnvInfo> {
    env::visit_all(|| Info)
}

/// The environment named `name` (empty: the default one).
///
/// # Errors
/// An unknown name, listing the environments.
pub fn env_info(name: &str) -> anyhow::Result<EnvInfo> {
    let name = if name.is_empty() {
        env::default_name()
    } else {
        name
    };
    Ok(env::visit(name, Info)?)
}

/// Which of every environment's flags a command takes, for
/// [`EnvGroups`]: [`RunFlags`] (`replay`, `compare`) or [`GridRunFlags`]
/// (`experiment`).
pub trait FlagSet {
    /// Adds environment `E`'s flags of this set to `cmd`.
    fn augment<E: Grid>(cmd: clap::Command) -> clap::Command;
    /// The refusal of `flag`, a flag of environment `owner` (its title
    /// `title`), given for environment `env`.
    fn foreign(flag: &str, owner: &str, title: &str, env: &str) -> String;
}

/// The flags of `replay` and `compare`: each environment's own group
/// ([`crate::env::Environment::Args`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct RunFlags;

impl FlagSet for RunFlags {
    fn augment<E: Grid>(cmd: clap::Command) -> clap::Command {
        <E::Args as clap::Args>::augment_args(cmd)
    }
    fn foreign(flag: &str, owner: &str, title: &str, env: &str) -> String {
        format!("{flag} belongs to --env {owner} ({title}); it does not apply to --env {env}")
    }
}

/// The flags of `experiment`: each environment's grid flags
/// ([`Grid::experiment_flags`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct GridRunFlags;

impl FlagSet for GridRunFlags {
    fn augment<E: Grid>(cmd: clap::Command) -> clap::Command {
        E::experiment_flags(cmd)
    }
    fn foreign(flag: &str, owner: &str, title: &str, env: &str) -> String {
        format!(
            "{flag} applies to environment = \"{owner}\" grids only ({title}); this configuration is environment = \"{env}\""
        )
    }
}

/// Every environment's flags of the set `S`, each environment's under its
/// own heading in `--help`, added from the environment list
/// ([`env::visit`]): no command names an environment. The matches are kept
/// and read by the chosen environment; a flag of another environment is
/// refused ([`EnvGroups::refuse_other_envs`]).
#[derive(Debug, Clone, Default)]
pub struct EnvGroups<S> {
    matches: clap::ArgMatches,
    set: std::marker::PhantomData<S>,
}

/// `replay`'s and `compare`'s flags of every environment
/// ([`EnvFlags::args`], [`EnvFlags::refuse_foreign`]).
pub type EnvFlags = EnvGroups<RunFlags>;

/// `swftool experiment`'s grid flags of every environment
/// ([`Grid::experiment_flags`], [`GridFlags::refuse_foreign`]).
pub type GridFlags = EnvGroups<GridRunFlags>;

/// Adds environment `E`'s flags of the set `S` to a command.
struct Augment<S>(clap::Command, std::marker::PhantomData<S>);

impl<S: FlagSet> GridVisitor for Augment<S> {
    type Output = clap::Command;
    fn visit<E: Grid>(self) -> clap::Command {
        S::augment::<E>(self.0)
    }
}

/// Environment `E`'s name, title and flags of the set `S` given in the
/// matches, as `--name`.
struct Given<'a, S>(&'a clap::ArgMatches, std::marker::PhantomData<S>);

impl<S: FlagSet> GridVisitor for Given<'_, S> {
    type Output = (&'static str, &'static str, Vec<String>);
    fn visit<E: Grid>(self) -> Self::Output {
        let probe = S::augment::<E>(clap::Command::new("probe"));
        (E::NAME, E::TITLE, given_in(probe, self.0))
    }
}

fn fold_envs<S: FlagSet>(cmd: clap::Command) -> clap::Command {
    let mut cmd = Some(cmd);
    for name in env::NAMES {
        let Some(c) = cmd.take() else { break };
        cmd = env::visit(name, Augment::<S>(c, std::marker::PhantomData)).ok();
    }
    cmd.unwrap_or_else(|| clap::Command::new("swftool"))
}

impl<S: FlagSet> clap::FromArgMatches for EnvGroups<S> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(EnvGroups {
            matches: matches.clone(),
            set: std::marker::PhantomData,
        })
    }
    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.matches = matches.clone();
        Ok(())
    }
}

impl<S: FlagSet> clap::Args for EnvGroups<S> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        fold_envs::<S>(cmd)
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        fold_envs::<S>(cmd)
    }
}

impl<S: FlagSet> EnvGroups<S> {
    /// The command line's matches.
    pub fn matches(&self) -> &clap::ArgMatches {
        &self.matches
    }

    /// Refuses a flag of the set given for another environment than `env`.
    ///
    /// # Errors
    /// The first such flag, naming the environment it belongs to.
    pub fn refuse_other_envs(&self, env: &str) -> anyhow::Result<()> {
        let given = env::visit_all(|| Given::<S>(&self.matches, std::marker::PhantomData));
        for (owner, title, given) in given {
            if owner != env
                && let Some(flag) = given.first()
            {
                return Err(Refused(S::foreign(flag, owner, title, env)).into());
            }
        }
        Ok(())
    }
}

impl EnvGroups<RunFlags> {
    /// Refuses a flag of another environment than `env`, and a shared flag
    /// `env` does not take.
    ///
    /// # Errors
    /// The first such flag, naming the environments it belongs to.
    pub fn refuse_foreign(&self, env: &str, shared: &SharedArgs) -> anyhow::Result<()> {
        self.refuse_other_envs(env)?;
        let infos = env_infos();
        let Some(mine) = infos.iter().find(|i| i.name == env) else {
            refuse!("unknown environment `{env}`");
        };
        if let Some(flag) = shared
            .given()
            .into_iter()
            .find(|f| !mine.shared.contains(f))
        {
            let takers: Vec<&str> = infos
                .iter()
                .filter(|i| i.shared.contains(&flag))
                .map(|i| i.name)
                .collect();
            let takers = match takers.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => takers.join(""),
            };
            refuse!(
                "{flag} does not apply to --env {env} ({}); it applies to --env {takers}",
                mine.title
            );
        }
        Ok(())
    }

    /// Environment `E`'s flags as given, the shared ones it takes filled
    /// in.
    ///
    /// # Errors
    /// A value clap cannot read into `E`'s flags (a bug: clap checked the
    /// values when it parsed them).
    pub fn args<E: Grid>(&self, shared: &SharedArgs) -> anyhow::Result<E::Args> {
        let mut args = <E::Args as clap::FromArgMatches>::from_arg_matches(&self.matches)
            .with_context(|| format!("reading the flags of --env {}", E::NAME))?;
        args.take_shared(shared);
        Ok(args)
    }
}

impl EnvGroups<GridRunFlags> {
    /// Refuses a grid flag of another environment than `env`.
    ///
    /// # Errors
    /// The first such flag, naming its environment.
    pub fn refuse_foreign(&self, env: &str) -> anyhow::Result<()> {
        self.refuse_other_envs(env)
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

    /// Every environment's first flag of the set `S` with a value (or
    /// none for a switch), given for each other environment, is refused
    /// naming the flag and its environment.
    fn every_foreign_flag_is_refused<S: FlagSet + Default + Clone + std::fmt::Debug>(
        refuse: impl Fn(&EnvGroups<S>, &str) -> anyhow::Result<()>,
        says: &str,
    ) -> usize {
        let mut checked = 0;
        for owner in env::NAMES {
            let probe = env::visit(
                owner,
                Augment::<S>(clap::Command::new("probe"), Default::default()),
            )
            .unwrap();
            let Some(arg) = probe.get_arguments().find(|a| a.get_long().is_some()) else {
                continue;
            };
            let flag = format!("--{}", arg.get_long().unwrap());
            let takes_value = arg.get_action().takes_values();
            let value = arg
                .get_possible_values()
                .first()
                .map_or("1".to_string(), |v| v.get_name().to_string());
            let mut argv = vec!["swftool".to_string(), flag.clone()];
            if takes_value {
                argv.push(value);
            }
            let cmd = <EnvGroups<S> as clap::Args>::augment_args(clap::Command::new("swftool"));
            let m = cmd.try_get_matches_from(&argv).unwrap();
            let flags = <EnvGroups<S> as clap::FromArgMatches>::from_arg_matches(&m).unwrap();
            refuse(&flags, owner).unwrap();
            for other in env::NAMES.iter().filter(|&&n| n != *owner) {
                let e = refuse(&flags, other).unwrap_err().to_string();
                assert!(
                    e.starts_with(&flag) && e.contains(owner) && e.contains(says),
                    "{e}"
                );
            }
            checked += 1;
        }
        checked
    }

    #[test]
    fn a_flag_of_another_environment_is_refused_by_both_sets() {
        let shared = SharedArgs::default();
        let run = every_foreign_flag_is_refused::<RunFlags>(
            |f, env| f.refuse_foreign(env, &shared),
            "belongs to --env",
        );
        assert_eq!(
            run,
            env::NAMES.len(),
            "every environment has flags of its own"
        );
        let grid = every_foreign_flag_is_refused::<GridRunFlags>(
            |f, env| f.refuse_foreign(env),
            "grids only",
        );
        assert!(grid >= 1, "some environment has grid flags");
    }

    #[test]
    fn a_broken_pipe_is_recognised_through_context() {
        let io = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        let e = anyhow::Error::new(io).context("writing to standard output");
        assert!(is_broken_pipe(&e));
        assert!(!is_broken_pipe(&anyhow::anyhow!("other")));
    }
}
