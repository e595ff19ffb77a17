//! `swftool aggregate DIR...`: merge the cell files of several output
//! directories of one grid (the shards of a Slurm job array, or an
//! interrupted run and its continuation) into the same tables, Markdown
//! summary and figures a single run would have produced. The `runs` and
//! `aggregate` tables are byte-identical to a single run's; `runs_timing`,
//! `timing` and the manifest's time are not (wall clock).

use std::path::{Path, PathBuf};

use anyhow::bail;

use super::experiment::{AggregateOptions, aggregate_into, default_out};
use super::with_threads;
use crate::env;
use crate::env::GridVisitor;
use crate::experiment::grid::{Grid, Layout};
use crate::experiment::manifest::Manifest;
use crate::experiment::outdir::{self, OutLock};
use crate::experiment::{ExperimentConfig, ExperimentError};

/// The manifest of a grid's output directory.
///
/// # Errors
/// No manifest, a manifest of `replay` (tables, no cells), or one that does
/// not parse as a grid's: each says what `aggregate` expects.
fn grid_manifest(dir: &Path) -> anyhow::Result<Manifest> {
    const EXPECTED: &str =
        "aggregate merges the output directories of `swftool experiment` (or `compare`)";
    let shown = dir.display();
    let m = match Manifest::read(dir) {
        Ok(Some(m)) => m,
        Ok(None) if !dir.exists() => bail!("{shown} does not exist; {EXPECTED}"),
        Ok(None) if !dir.is_dir() => bail!("{shown} is not a directory; {EXPECTED}"),
        Ok(None) => bail!("{shown} is not an experiment directory (no manifest.json); {EXPECTED}"),
        Err(ExperimentError::Json { .. }) => bail!(
            "{shown} is not an experiment directory this swftool can read (its manifest.json is not a grid's manifest, or from another version); {EXPECTED}"
        ),
        Err(e) => return Err(e.into()),
    };
    if m.command == "replay" {
        bail!(
            "{shown} is not an experiment directory: its manifest.json is from `swftool replay`, which writes tables, not cells; {EXPECTED}"
        );
    }
    Ok(m)
}

/// What differs, from a [`ExperimentError::Mismatch`].
fn mismatch_what(e: &ExperimentError) -> String {
    match e {
        ExperimentError::Mismatch { what, .. } => what.clone(),
        other => other.to_string(),
    }
}

/// Arguments of `swftool aggregate`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Examples:
  swftool aggregate results/shard-*
  swftool aggregate results/shard-0 results/shard-1 --out results/merged
  swftool aggregate results/shard-* --partial   # some shards still running")]
pub struct AggregateArgs {
    /// Output directories of `swftool experiment` (all of the same grid).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Where to write the merged results. Default: notebooks-out/NAME/, NAME the experiment name.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Aggregate even when some cells are missing (they are counted in the manifest).
    #[arg(long)]
    pub partial: bool,
    /// Write tables but no figures.
    #[arg(long)]
    pub no_figures: bool,
    /// Worker threads for reading cells, 0 to 1024 (default, or 0: all cores).
    #[arg(long, allow_hyphen_values = true, value_parser = super::parse_threads)]
    pub threads: Option<usize>,
}

/// Runs `swftool aggregate`.
///
/// # Errors
/// A directory without a manifest, directories of different grids, missing
/// cells (unless `--partial`), unreadable cells, unwritable outputs.
pub fn run(args: &AggregateArgs) -> anyhow::Result<()> {
    let mut first: Option<Manifest> = None;
    for d in &args.dirs {
        let m = grid_manifest(d)?;
        match &first {
            None => first = Some(m),
            Some(f) => {
                if let Err(e) = m.check_same_grid(d, &f.config, &f.layout) {
                    bail!(
                        "{} and {} hold different grids ({}); aggregate merges the directories of one grid (its shards, or a run and its continuation): give only those",
                        args.dirs[0].display(),
                        d.display(),
                        mismatch_what(&e)
                    );
                }
            }
        }
    }
    let Some(base) = first else {
        bail!("no directory given");
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&base.config.name));
    if let Some(m) = Manifest::read(&out)?
        && let Err(e) = m.check_same_grid(&out, &base.config, &base.layout)
    {
        bail!(
            "the output directory {} holds the results of another grid ({}); give another --out (or remove that directory if its results are no longer needed)",
            out.display(),
            mismatch_what(&e)
        );
    }
    // A directory still being written (a shard running) is not merged yet.
    for d in &args.dirs {
        outdir::check_not_busy(d)?;
    }
    let created = super::prepare_out(&out)?;
    let _lock = OutLock::acquire(&out, &format!("aggregate {}", base.config.name))?
        .in_created_folder(created);
    if let Some(note) = outdir::recover(&out)? {
        eprintln!("note: {note}");
    }
    let mut manifest = Manifest::new("aggregate", &base.config, &base.layout);
    manifest.log_paths = base.log_paths.clone();
    manifest.log_sha256 = base.log_sha256.clone();
    manifest.sources = args.dirs.iter().map(|d| d.display().to_string()).collect();
    say!(
        "aggregate `{}`: {} cells expected from {} director{}",
        base.config.name,
        base.layout.cell_count(),
        args.dirs.len(),
        if args.dirs.len() == 1 { "y" } else { "ies" }
    );
    let opts = AggregateOptions {
        partial: args.partial,
        figures: !args.no_figures,
        print_table: true,
    };
    let (config, layout) = (&base.config, &base.layout);
    with_threads(args.threads, || {
        env::visit(
            config.environment_name(),
            Aggregate {
                config,
                layout,
                dirs: &args.dirs,
                out: &out,
                manifest: &mut manifest,
                opts: &opts,
            },
        )?
    })
}

struct Aggregate<'a> {
    config: &'a ExperimentConfig,
    layout: &'a Layout,
    dirs: &'a [PathBuf],
    out: &'a Path,
    manifest: &'a mut Manifest,
    opts: &'a AggregateOptions,
}

impl GridVisitor for Aggregate<'_> {
    type Output = anyhow::Result<()>;
    fn visit<E: Grid>(self) -> anyhow::Result<()> {
        aggregate_into::<E>(
            self.config,
            self.layout,
            self.dirs,
            self.out,
            self.manifest,
            self.opts,
        )
        .map(|_| ())
    }
}
