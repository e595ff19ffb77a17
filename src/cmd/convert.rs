//! `swftool convert IN OUT`: a log from one format to the other — Slurm
//! accounting (`sacct --parsable2` output) to SWF, and SWF to sacct text
//! (docs/input.md, "Slurm accounting"). The input's format is read from its
//! content; the output's from `--to`, else from OUT's name.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::{Args, ValueEnum};

use crate::catalog;
use crate::swf::sacct::write_sacct;
use crate::swf::{ReadOptions, SacctZone, read_log_zoned, write_path};

/// A log format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The Standard Workload Format (`.swf`, `.swf.gz`).
    Swf,
    /// `sacct --parsable2` text (`.sacct`, `.psv`, `.txt`).
    Sacct,
}

/// Convert a log between SWF and Slurm accounting (sacct --parsable2).
#[derive(Debug, Clone, Args)]
pub struct ConvertArgs {
    /// The log to convert: SWF (a short name, a file in the trace
    /// directories or a path) or sacct --parsable2 output (recognised by its
    /// header line).
    #[arg(value_name = "IN")]
    pub input: String,
    /// The file to write (replaced whole, never half-written).
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// Output format [default: from OUT's name: .swf and .swf.gz are swf;
    /// .sacct, .psv and .txt are sacct].
    #[arg(long, value_enum)]
    pub to: Option<Format>,
    /// The IANA time zone the sacct input's local times are in (sacct
    /// prints the controller's local time; `SLURM_TIME_FORMAT=%s` and times
    /// with an offset need none) [default: UTC].
    #[arg(long, value_name = "ZONE")]
    pub time_zone: Option<String>,
    /// Skip lines that do not parse (and count them) instead of stopping
    /// at the first one.
    #[arg(long)]
    pub lenient: bool,
}

fn format_of(path: &Path) -> Option<Format> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".swf") || name.ends_with(".swf.gz") {
        Some(Format::Swf)
    } else if [".sacct", ".psv", ".txt"].iter().any(|e| name.ends_with(e)) {
        Some(Format::Sacct)
    } else {
        None
    }
}

/// Runs `swftool convert`.
///
/// # Errors
/// An output format that cannot be told, an unknown time zone, a time zone
/// given for SWF input, a log that cannot be found or read, a write error.
pub fn run(args: &ConvertArgs) -> anyhow::Result<()> {
    let Some(to) = args.to.or_else(|| format_of(&args.output)) else {
        refuse!(
            "cannot tell the output format from {}: give --to swf or --to sacct (or name it .swf, .swf.gz, .sacct)",
            args.output.display()
        );
    };
    let zone = match &args.time_zone {
        None => SacctZone::utc(),
        Some(name) => match jiff::tz::TimeZone::get(name) {
            Ok(zone) => SacctZone {
                zone,
                name: name.clone(),
            },
            Err(_) => refuse!(
                "--time-zone {name}: not a time zone of the IANA database (e.g. Europe/Paris, America/Chicago, UTC)"
            ),
        },
    };
    let path = catalog::resolve(&args.input)?;
    let log = read_log_zoned(
        &path,
        &ReadOptions {
            lenient: args.lenient,
        },
        &zone,
    )?;
    if log.sacct.is_none() && args.time_zone.is_some() {
        refuse!(
            "--time-zone applies to Slurm accounting input; {} is an SWF log (its times are seconds from UnixStartTime)",
            path.display()
        );
    }
    match to {
        Format::Swf => {
            write_path(&log.header, &log.jobs, &args.output)
                .with_context(|| format!("writing {}", args.output.display()))?;
            say!(
                "{} → {}: {} jobs as SWF",
                path.display(),
                args.output.display(),
                log.jobs.len()
            );
        }
        Format::Sacct => {
            let mut report = None;
            crate::atomic::write_with(&args.output, |tmp| {
                let file = std::io::BufWriter::new(std::fs::File::create(tmp)?);
                report = Some(write_sacct(&log.header, &log.jobs, file)?);
                Ok::<(), std::io::Error>(())
            })
            .with_context(|| format!("writing {}", args.output.display()))?;
            let r = report.unwrap_or_default();
            say!(
                "{} → {}: {} jobs as sacct --parsable2 text{}{}",
                path.display(),
                args.output.display(),
                r.jobs,
                if r.unknown_times > 0 {
                    format!(
                        "; {} with an unknown wait or run written with Start or End Unknown",
                        r.unknown_times
                    )
                } else {
                    String::new()
                },
                if r.rounded > 0 {
                    format!(
                        "; {} with fractional times rounded to the second",
                        r.rounded
                    )
                } else {
                    String::new()
                }
            );
        }
    }
    if let Some(s) = &log.sacct {
        say!("{s}");
    }
    if !log.skipped.is_empty() {
        say!("{}", log.skipped);
    }
    Ok(())
}
