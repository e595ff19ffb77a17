//! The `swftool` binary: parses arguments, dispatches to `swftool::cmd`, and
//! turns errors into one clear message and exit code 1 (2 for usage errors,
//! from clap; 130 for a run an interrupt stopped, which says itself what it
//! finished). Output of `info` and `heuristics` into a closed pipe
//! (`swftool info curie | head -1`) ends the program quietly with exit code
//! 141, as a shell reports a program killed by SIGPIPE; the commands that
//! write files (`replay`, `experiment`, `compare`, `aggregate`, `synth`)
//! stop printing and write them all the same.

use clap::{Parser, Subcommand};
use swftool::cmd;

/// Replay Standard Workload Format (SWF) HPC job logs through schedulers and
/// measure what each one earns.
#[derive(Debug, Parser)]
#[command(name = "swftool", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Header, job count, time span, size and run-time distributions, and what a simulation filters out.
    #[command(
        after_help = "Examples:\n  swftool info curie\n  swftool info datastar sdsc-sp2 ./my.swf.gz"
    )]
    Info(cmd::info::InfoArgs),
    /// Replay a log through heuristics: days on generated heterogeneous clusters (--env parallel, the default), serial tasks with utility and preemption (--env serial), utility under an energy budget (--env energy, synthetic trials) or the whole log on its own machine (--env classic).
    Replay(cmd::replay::ReplayArgs),
    /// List every heuristic name of every environment with one line each.
    Heuristics(cmd::heuristics::HeuristicsArgs),
    /// Run a grid of log x variant x heuristic x scenario of any environment (TOML config or preset) in parallel; resumable, shardable; tables and figures.
    Experiment(cmd::experiment::ExperimentArgs),
    /// Merge the cell files of experiment shards (or partial runs) into the final tables and figures.
    Aggregate(cmd::aggregate::AggregateArgs),
    /// The same metrics side by side across logs and heuristics: a table and a figure.
    Compare(cmd::compare::CompareArgs),
    /// Synthetic workloads written as SWF with a sidecar table: `synth serial` (environment B, Machovec et al. 2017), `synth energy` (environment C, Khemka et al.).
    Synth(cmd::synth::SynthArgs),
    /// Convert a log between SWF and Slurm accounting (sacct --parsable2 text), either way.
    #[command(
        after_help = "Examples:\n  sacct --parsable2 --allusers --starttime 2024-01-01 --format=JobID,JobIDRaw,User,Group,Partition,Submit,Start,End,Elapsed,Timelimit,ReqCPUS,AllocCPUS,State > jobs.sacct\n  swftool convert jobs.sacct jobs.swf.gz --time-zone Europe/Paris\n  swftool convert kth-sp2 kth.sacct"
    )]
    Convert(cmd::convert::ConvertArgs),
    /// Download known logs (traces/MANIFEST.md) from the Parallel Workloads Archive, checking their SHA-256, into the first writable trace directory.
    #[command(
        after_help = "Examples:\n  swftool fetch kth-sp2 sdsc-sp2\n  swftool fetch all --dir ~/traces"
    )]
    Fetch(cmd::fetch::FetchArgs),
}

/// Exit code of a program stopped by a closed output pipe (128 + SIGPIPE).
const BROKEN_PIPE_EXIT: i32 = 141;

/// `println!` panics when standard output is a closed pipe; that panic ends
/// the program quietly instead (every other panic is reported as usual).
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if payload.starts_with("failed printing to stdout") && payload.contains("Broken pipe") {
            std::process::exit(BROKEN_PIPE_EXIT);
        }
        default(info);
    }));
}

fn main() {
    quiet_on_broken_pipe();
    swftool::interrupt::install();
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Info(a) => cmd::info::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Heuristics(a) => cmd::heuristics::run(a),
        Command::Experiment(a) => cmd::experiment::run(a),
        Command::Aggregate(a) => cmd::aggregate::run(a),
        Command::Compare(a) => cmd::compare::run(a),
        Command::Synth(a) => cmd::synth::run(a),
        Command::Convert(a) => cmd::convert::run(a),
        Command::Fetch(a) => cmd::fetch::run(a),
    };
    if let Err(e) = result {
        if e.downcast_ref::<swftool::interrupt::Interrupted>()
            .is_some()
        {
            // The command said what it finished.
            std::process::exit(swftool::interrupt::EXIT_CODE);
        }
        if cmd::is_broken_pipe(&e) {
            std::process::exit(BROKEN_PIPE_EXIT);
        }
        eprintln!("error: {}", cmd::error_message(&e));
        std::process::exit(1);
    }
}
