//! `swftool synth`: synthetic workloads written as SWF with a sidecar
//! table. One subcommand per environment that has a synthetic workload to
//! write, named as the environment (`synth NAME`): its flags, help and run
//! are the environment's own ([`Environment::synth_command`],
//! [`Environment::synth`]), added here from the environment list
//! ([`env::visit`]), so this command names no environment.
//!
//! [`Environment::synth_command`]: crate::env::Environment::synth_command
//! [`Environment::synth`]: crate::env::Environment::synth

use crate::contract::EnvError;
use crate::env::{self, GridVisitor};
use crate::experiment::grid::Grid;

/// Arguments of `swftool synth`: the environment named (the subcommand)
/// and its flags as given, which it reads itself.
#[derive(Debug, Clone, Default)]
pub struct SynthArgs {
    /// The environment whose workload to write (the subcommand's name).
    pub env: String,
    /// The subcommand's matches.
    matches: clap::ArgMatches,
}

/// The `synth` subcommand of an environment, if it has one.
struct Subcommand;

impl GridVisitor for Subcommand {
    type Output = Option<clap::Command>;
    fn visit<E: Grid>(self) -> Option<clap::Command> {
        E::synth_command()
    }
}

/// Runs an environment's `synth` subcommand with its matches.
struct Run<'a>(&'a clap::ArgMatches);

impl GridVisitor for Run<'_> {
    type Output = Result<String, EnvError>;
    fn visit<E: Grid>(self) -> Result<String, EnvError> {
        E::synth(self.0)
    }
}

/// `cmd` with one subcommand per environment that has a synthetic
/// workload, in the environments' listing order.
fn with_subcommands(cmd: clap::Command) -> clap::Command {
    env::visit_all(|| Subcommand)
        .into_iter()
        .flatten()
        .fold(cmd.subcommand_required(true), clap::Command::subcommand)
        .arg_required_else_help(true)
}

impl clap::FromArgMatches for SynthArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut args = SynthArgs::default();
        args.update_from_arg_matches(matches)?;
        Ok(args)
    }
    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        let (name, sub) = matches
            .subcommand()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::MissingSubcommand))?;
        self.env = name.to_string();
        self.matches = sub.clone();
        Ok(())
    }
}

impl clap::Args for SynthArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        with_subcommands(cmd)
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        with_subcommands(cmd)
    }
}

/// Runs `swftool synth NAME …` and prints what it wrote.
///
/// # Errors
/// An environment without a synthetic workload, bad parameters (naming the
/// flag), or a file that cannot be written.
pub fn run(args: &SynthArgs) -> anyhow::Result<()> {
    let said = env::visit(&args.env, Run(&args.matches))??;
    say!("{said}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Args as _, FromArgMatches as _};

    fn parse(argv: &[&str]) -> Result<SynthArgs, clap::Error> {
        let cmd = SynthArgs::augment_args(clap::Command::new("synth"));
        SynthArgs::from_arg_matches(&cmd.try_get_matches_from(argv)?)
    }

    #[test]
    fn every_environment_with_a_synthetic_workload_is_a_subcommand() {
        let cmd = SynthArgs::augment_args(clap::Command::new("synth"));
        let names: Vec<&str> = cmd.get_subcommands().map(clap::Command::get_name).collect();
        let in_order: Vec<&str> = env::NAMES
            .iter()
            .copied()
            .filter(|n| names.contains(n))
            .collect();
        assert!(!names.is_empty());
        assert_eq!(
            names, in_order,
            "each subcommand is named as its environment"
        );
    }

    #[test]
    fn the_environment_named_reads_its_own_flags() {
        let a = parse(&["synth", "serial", "--out", "x.swf"]).unwrap();
        assert_eq!(a.env, "serial");
        assert!(parse(&["synth"]).is_err());
        assert!(parse(&["synth", "parallel", "--out", "x.swf"]).is_err());
        let e = env::visit("parallel", Run(&a.matches))
            .unwrap()
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("environment parallel has no synthetic workload"),
            "{e}"
        );
    }
}
