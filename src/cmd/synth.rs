//! `swftool synth`: synthetic workloads written as SWF. One subcommand per
//! environment that has a synthetic workload: `synth serial` (environment
//! B, Machovec et al., IPDPSW 2017, §IV; docs/serial.md, "Synthetic
//! workload") and `synth energy` (environment C, Khemka et al., §IV.B;
//! docs/energy.md, "Written workloads").

use std::path::PathBuf;

use crate::env::energy::synth_file as energy_file;
use crate::env::energy::workload as energy_workload;
use crate::env::serial::synth_file::write_synthetic;
use crate::env::serial::workload::{SyntheticParams, synthetic};
use crate::model::utility::Shape;

/// Arguments of `swftool synth`.
#[derive(Debug, Clone, clap::Args)]
pub struct SynthArgs {
    /// Which workload.
    #[command(subcommand)]
    pub kind: SynthKind,
}

/// The synthetic workloads.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum SynthKind {
    /// One trial of environment B's bursty serial workload (Machovec et al., IPDPSW 2017, §IV): an SWF log FILE.swf[.gz] and a sidecar table FILE.tasks.csv (and .parquet) with each task's type, burst, utility, flags and ETC per cluster.
    #[command(after_help = "Examples:\n  \
        swftool synth serial --out trial-0.swf.gz\n  \
        swftool synth serial --trial 3 --seed 7 --burst-size 16 --shape step --out b16.swf\n  \
        swftool synth serial --flag-probability 40% --critical-etc 30 --fixed-cores --out p40.swf.gz")]
    Serial(SerialSynthArgs),
    /// One trial of environment C's workload under an energy budget (Khemka et al., §IV.B): an SWF log FILE.swf[.gz] of about 32,000 tasks a day over 100 task types, and a sidecar table FILE.tasks.csv (and .parquet) with each task's type and utility function; the machines and the ETC and APC matrices follow from the trial seed.
    #[command(after_help = "Examples:\n  \
        swftool synth energy --out trial-0.swf.gz\n  \
        swftool synth energy --trial 3 --seed 7 --out t3.swf\n  \
        swftool synth energy --tasks-per-day 16000 --theta 20 --event-interval 30 --out light.swf.gz")]
    Energy(EnergySynthArgs),
}

/// Arguments of `swftool synth serial`. Defaults are the paper's.
#[derive(Debug, Clone, clap::Args)]
pub struct SerialSynthArgs {
    /// Trial number: with the seed, it picks every random draw.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "N",
        default_value_t = 0
    )]
    pub trial: u64,
    /// Seed of the experiment; trial N's seed is derived from it.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "S",
        default_value_t = 1
    )]
    pub seed: u64,
    /// Mean burst size B̄: each burst has B tasks, B uniform in ⌈B̄/2⌉..⌊1.5·B̄⌋.
    #[arg(long, allow_hyphen_values = true, value_name = "B", default_value_t = SyntheticParams::default().burst_size)]
    pub burst_size: u32,
    /// Utility functions: `step` (full priority for ē, or 10·ē for non-critical tasks, then 0), `decaying` (flat for ē, then 200 min of decay at ρ = 0.3) or `classes` (one of twenty classes, drawn per burst).
    #[arg(long, value_enum, hide_possible_values = true, default_value_t = SyntheticParams::default().shape)]
    pub shape: Shape,
    /// Probability that a task may preempt, and (independently) that it may be preempted: 0 to 1, or a percentage such as 40%.
    #[arg(long, value_name = "P", allow_hyphen_values = true, default_value_t = SyntheticParams::default().flag_probability, value_parser = parse_probability)]
    pub flag_probability: f64,
    /// Mean execution time of the critical task types, minutes (non-critical: 50).
    #[arg(long, value_name = "MIN", allow_hyphen_values = true, default_value_t = SyntheticParams::default().critical_etc_s / 60.0)]
    pub critical_etc: f64,
    /// Exactly 160 cores per cluster instead of a gamma draw (mean 160, COV 0.2).
    #[arg(long)]
    pub fixed_cores: bool,
    /// A fixed θ of the utility functions' urgency, minutes, for every task (as in `replay --env serial`) [default: θ = 3.7 × the task's mean ETC; docs/utility.md].
    #[arg(long, value_name = "MINUTES", allow_hyphen_values = true)]
    pub theta: Option<f64>,
    /// The SWF log to write: FILE.swf, or FILE.swf.gz for gzip. The sidecar table FILE.tasks.csv and FILE.tasks.parquet go beside it.
    #[arg(long, value_name = "FILE.swf[.gz]")]
    pub out: PathBuf,
}

/// Arguments of `swftool synth energy`. Defaults are the paper's.
#[derive(Debug, Clone, clap::Args)]
pub struct EnergySynthArgs {
    /// Trial number: with the seed, it picks the matrices and every random draw.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "N",
        default_value_t = 0
    )]
    pub trial: u64,
    /// Seed of the experiment; trial N's seed is derived from it.
    #[arg(
        long,
        allow_hyphen_values = true,
        value_name = "S",
        default_value_t = 1
    )]
    pub seed: u64,
    /// Expected tasks per 24 h over all task types.
    #[arg(long, value_name = "X", allow_hyphen_values = true, default_value_t = energy_workload::SyntheticParams::default().tasks_per_day)]
    pub tasks_per_day: f64,
    /// A fixed θ of the utility functions' urgency, minutes, for every task (as in `replay --env energy`) [default: θ = 3.7 × the task's mean ETC; docs/utility.md].
    #[arg(long, value_name = "MINUTES", allow_hyphen_values = true)]
    pub theta: Option<f64>,
    /// Time between mapping events, seconds (at least 1).
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true, default_value_t = energy_workload::SyntheticParams::default().event_interval_s)]
    pub event_interval: f64,
    /// The SWF log to write: FILE.swf, or FILE.swf.gz for gzip. The sidecar table FILE.tasks.csv and FILE.tasks.parquet go beside it.
    #[arg(long, value_name = "FILE.swf[.gz]")]
    pub out: PathBuf,
}

impl EnergySynthArgs {
    /// The generation parameters these flags give.
    pub fn params(&self) -> energy_workload::SyntheticParams {
        energy_workload::SyntheticParams {
            tasks_per_day: self.tasks_per_day,
            theta_s: self.theta.map(|m| m * 60.0),
            event_interval_s: self.event_interval,
        }
    }
}

/// Parses a probability: a number (`0.4`) or a percentage (`40%`). The
/// range is checked with the other parameters
/// ([`SyntheticParams::validate`]).
///
/// # Errors
/// Text that is not a number.
pub fn parse_probability(s: &str) -> Result<f64, String> {
    let t = s.trim();
    let (number, scale) = match t.strip_suffix('%') {
        Some(n) => (n.trim(), 100.0),
        None => (t, 1.0),
    };
    number.parse::<f64>().map(|x| x / scale).map_err(|_| {
        format!("`{s}` is not a probability: give a number from 0 to 1 or a percentage such as 40%")
    })
}

impl SerialSynthArgs {
    /// The generation parameters these flags give (every other parameter
    /// at the paper's default).
    pub fn params(&self) -> SyntheticParams {
        SyntheticParams {
            burst_size: self.burst_size,
            shape: self.shape,
            flag_probability: self.flag_probability,
            critical_etc_s: self.critical_etc * 60.0,
            fixed_cores: self.fixed_cores,
            theta_s: self.theta.map(|m| m * 60.0),
            ..SyntheticParams::default()
        }
    }
}

/// Runs `swftool synth …`.
///
/// # Errors
/// Bad parameters (naming the flag), or a file that cannot be written.
pub fn run(args: &SynthArgs) -> anyhow::Result<()> {
    match &args.kind {
        SynthKind::Serial(a) => serial(a),
        SynthKind::Energy(a) => energy(a),
    }
}

fn serial(a: &SerialSynthArgs) -> anyhow::Result<()> {
    let params = a.params();
    let scenario = synthetic(&params, a.seed, a.trial)?;
    let files = write_synthetic(&a.out, &scenario, &params, a.seed, a.trial)?;
    let counted = (0..scenario.tasks.len())
        .filter(|&i| scenario.counted(i))
        .count();
    say!(
        "{}: {} tasks ({} in the counted 24 h) on {} cores ({}), seed {} trial {}",
        files.swf.display(),
        scenario.tasks.len(),
        counted,
        scenario.total_cores(),
        scenario
            .cores
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" + "),
        a.seed,
        a.trial
    );
    say!(
        "sidecar: {} and {}",
        files.csv.display(),
        files.parquet.display()
    );
    Ok(())
}

fn energy(a: &EnergySynthArgs) -> anyhow::Result<()> {
    let params = a.params();
    let scenario = energy_workload::synthetic(&params, a.seed, a.trial)?;
    let files = energy_file::write_synthetic(&scenario, &params, a.seed, a.trial, &a.out)?;
    let counted = (0..scenario.tasks.len())
        .filter(|&i| scenario.counted(i))
        .count();
    let m = &scenario.matrices;
    say!(
        "{}: {} tasks ({} in the counted 24 h) on {} machines ({} machine types), seed {} trial {}",
        a.out.display(),
        scenario.tasks.len(),
        counted,
        m.machines(),
        m.machine_types.len(),
        a.seed,
        a.trial
    );
    let tables: Vec<String> = files
        .iter()
        .skip(1)
        .map(|f| f.display().to_string())
        .collect();
    say!("sidecar: {}", tables.join(" and "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probability_is_a_number_or_a_percentage() {
        assert_eq!(parse_probability("0.4"), Ok(0.4));
        assert_eq!(parse_probability("40%"), Ok(0.4));
        assert_eq!(parse_probability(" 100 % "), Ok(1.0));
        assert!(parse_probability("forty").is_err());
        assert!(parse_probability("%").is_err());
    }
}
