//! `swftool experiment CONFIG.toml | --preset NAME`: run a grid of log ×
//! variant × heuristic × scenario cells of any environment in parallel,
//! resumably and optionally one shard at a time, then aggregate the cells
//! into the environment's tables, a Markdown summary and figures (see
//! [`crate::experiment`]). Written once over environments: the config's
//! `environment` picks the [`Grid`] implementation.
//!
//! Output directory (default `notebooks-out/<experiment name>/`):
//! `cells/*.json` (one per finished cell), `failed/*.txt` (cells that broke
//! schedule invariants), the environment's tables (`.csv` and `.parquet`;
//! docs/outputs.md), its Markdown summary, `figures/*.{png,svg}` and
//! `manifest.json`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::bail;
use indicatif::{ProgressBar, ProgressStyle};

use super::with_threads;
use crate::env::EnvKind;
use crate::env::classic::environment::Classic;
use crate::env::energy::environment::Energy;
use crate::env::parallel::environment::Parallel;
use crate::env::serial::environment::Serial;
use crate::experiment::runner::{self, CellEvent, RunOptions, RunReport};
use crate::experiment::{
    ExperimentConfig, Grid, GridReport, Layout, Manifest, Plan, Shard, config,
};

/// Arguments of `swftool experiment`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Examples:
  swftool experiment --preset smoke
  swftool experiment --preset margo2008-datastar
  swftool experiment --preset margo2008-datastar --window-start 50000
  swftool experiment --preset margo2008-datastar --window most-wide
  swftool experiment --preset khemka2015-parallel --threads 2
  swftool experiment --dump-preset khemka2015-parallel > my-grid.toml
  swftool experiment my-grid.toml --out results/my-grid
  swftool experiment --preset khemka2015-parallel --shard $SLURM_ARRAY_TASK_ID/16 --out results/shard-$SLURM_ARRAY_TASK_ID

Re-running the same command skips the cells already written to <out>/cells/.
With --shard i/N only shard i of N runs: whole scenarios (log, variant,
day) with all their heuristics, dealt longest first by estimated cost so
the shards take about as long (i = 0..N-1 or 1..N both work, N/N being
shard 0); merge the shard directories with `swftool aggregate DIR...`.")]
pub struct ExperimentArgs {
    /// Experiment configuration (TOML). See `--dump-preset` for an annotated example.
    #[arg(required_unless_present_any = ["preset", "dump_preset"], conflicts_with_all = ["preset", "dump_preset"])]
    pub config: Option<PathBuf>,
    /// Run a built-in preset instead of a file: khemka2015-parallel (the standard grid of Khemka et al. 2015, §5), smoke, or margo2008-datastar (Catalina on a DataStar window without and with preemption, Margo et al., §5).
    #[arg(long, value_name = "NAME", conflicts_with = "dump_preset")]
    pub preset: Option<String>,
    /// Print a preset as TOML (a starting point for a custom config) and exit.
    #[arg(long, value_name = "NAME")]
    pub dump_preset: Option<String>,
    /// Output directory. Default: notebooks-out/NAME/, NAME the experiment name.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Run only shard i of N (whole scenarios, dealt longest first by estimated cost); aggregate the shards with `swftool aggregate`.
    #[arg(long, value_name = "i/N")]
    pub shard: Option<String>,
    /// Worker threads (default, or 0: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the schedule invariant check after each run.
    #[arg(long)]
    pub no_check: bool,
    /// Write tables but no figures.
    #[arg(long)]
    pub no_figures: bool,
    /// Environment D grids with a window (margo2008-datastar): first job of the window (0-based among the cleaned jobs in submit order), instead of the config's window rule.
    #[arg(long, value_name = "INDEX", conflicts_with = "window")]
    pub window_start: Option<usize>,
    /// Environment D grids with a window: how its first job is chosen, `month:YYYY-MM` (the first job submitted in that month) or `most-wide` (of the loaded windows, the one with the most jobs wider than 64 nodes). Default: the config's (margo2008-datastar: month:2005-03).
    #[arg(long, value_name = "RULE")]
    pub window: Option<crate::env::classic::window::WindowRule>,
}

/// Default output directory of an experiment named `name`.
pub fn default_out(name: &str) -> PathBuf {
    Path::new("notebooks-out").join(name)
}

/// Runs `swftool experiment`.
///
/// # Errors
/// Bad config or preset, unknown log or heuristic, unreadable log, an output
/// directory holding another grid, cells that broke invariants.
pub fn run(args: &ExperimentArgs) -> anyhow::Result<()> {
    if let Some(name) = &args.dump_preset {
        print!("{}", ExperimentConfig::preset(name)?.to_toml()?);
        return Ok(());
    }
    let mut config = match (&args.preset, &args.config) {
        (Some(p), _) => ExperimentConfig::preset(p)?,
        (None, Some(path)) => ExperimentConfig::from_file(path)?,
        (None, None) => bail!(
            "give a CONFIG.toml or --preset NAME (presets: {})",
            config::PRESETS.join(", ")
        ),
    };
    if args.window_start.is_some() || args.window.is_some() {
        if config.environment != EnvKind::Classic || config.classic.window_jobs.is_none() {
            let flag = if args.window.is_some() {
                "--window"
            } else {
                "--window-start"
            };
            bail!(
                "{flag} applies to environment-D grids with a window (window_jobs), such as --preset margo2008-datastar, only"
            );
        }
        // The flag replaces the config's choice of the first job.
        config.classic.window_start = args.window_start;
        config.classic.window = args.window;
    }
    let shard: Option<Shard> = args.shard.as_deref().map(str::parse).transpose()?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&config.name));
    let opts = GridOptions {
        shard,
        no_check: args.no_check,
        figures: !args.no_figures,
        print_table: true,
    };
    with_threads(args.threads, || match config.environment {
        EnvKind::Parallel => run_grid::<Parallel>(&config, &out, &opts, "experiment").map(|_| ()),
        EnvKind::Serial => run_grid::<Serial>(&config, &out, &opts, "experiment").map(|_| ()),
        EnvKind::Energy => run_grid::<Energy>(&config, &out, &opts, "experiment").map(|_| ()),
        EnvKind::Classic => run_grid::<Classic>(&config, &out, &opts, "experiment").map(|_| ()),
    })
}

/// How [`run_grid`] runs and reports a grid.
#[derive(Debug, Clone, Copy, Default)]
pub struct GridOptions {
    /// Run one shard only (then nothing is aggregated).
    pub shard: Option<Shard>,
    /// Skip the schedule invariant check.
    pub no_check: bool,
    /// Draw the experiment figures.
    pub figures: bool,
    /// Print the Markdown table.
    pub print_table: bool,
}

/// Plans, runs and (without a shard) aggregates a grid into `out`; shared by
/// `experiment` and `compare`. Returns the cells when it aggregated.
///
/// # Errors
/// As [`run`].
pub fn run_grid<E: Grid>(
    config: &ExperimentConfig,
    out: &Path,
    opts: &GridOptions,
    command: &str,
) -> anyhow::Result<Option<(Layout, Vec<E::Cell>)>> {
    let shard = opts.shard;
    let t0 = Instant::now();
    let plan = Plan::<E>::new(config)?;
    for n in plan.notes() {
        eprintln!("note: {n}");
    }
    let layout = &plan.layout;
    if let Some(m) = Manifest::read(out)? {
        m.check_same_grid(out, config, layout)?;
    }
    super::prepare_out(out)?;
    let mut manifest = Manifest::new(command, config, layout);
    manifest.log_paths = plan.paths.iter().map(|p| p.display().to_string()).collect();
    manifest.shard = shard.map(|s| s.to_string());
    manifest.write(out)?;

    let (todo, selected) = runner::pending(&plan, out, shard);
    println!(
        "{} `{}` (--env {}): {} log(s) x {} variant(s) x {} heuristic(s) x {} scenario(s) = {} cells{}",
        command,
        config.name,
        config.environment,
        layout.logs.len(),
        layout.variant_count(),
        layout.heuristics.len(),
        layout
            .logs
            .iter()
            .map(|l| l.days.len().to_string())
            .collect::<Vec<_>>()
            .join("/"),
        layout.cell_count(),
        shard
            .map(|s| format!("; shard {s}: {selected} cells"))
            .unwrap_or_default()
    );
    println!(
        "output {}: {} cells to run, {} already done",
        out.display(),
        todo.len(),
        selected - todo.len()
    );
    let pb = ProgressBar::new(todo.len() as u64);
    pb.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} cells  {elapsed_precise} elapsed, {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = |e: CellEvent<'_>| {
        if let CellEvent::Failed { id, violations } = e {
            pb.suspend(|| {
                eprintln!("invariant violations in cell {id}:");
                for v in violations.iter().take(10) {
                    eprintln!("  {v}");
                }
            });
        }
        pb.inc(1);
    };
    let run_opts = RunOptions {
        shard,
        no_check: opts.no_check,
    };
    let report = runner::run(&plan, out, &run_opts, &progress)?;
    pb.finish_and_clear();
    println!(
        "ran {} cells in {:.1} s ({} skipped, {} failed){}",
        report.ran,
        t0.elapsed().as_secs_f64(),
        report.skipped,
        report.failed.len(),
        if opts.no_check {
            "; schedules not checked (--no-check)"
        } else {
            "; schedule invariants checked on every run"
        }
    );
    let cells = if shard.is_some() {
        manifest.cells_present = report.skipped + report.ran;
        manifest.write(out)?;
        println!(
            "shard {} done; merge all shards with `swftool aggregate DIR...`",
            shard.map(|s| s.to_string()).unwrap_or_default()
        );
        None
    } else {
        let mut manifest = manifest;
        let agg = AggregateOptions {
            partial: true,
            figures: opts.figures,
            print_table: opts.print_table,
        };
        let cells = aggregate_into::<E>(
            config,
            layout,
            &[out.to_path_buf()],
            out,
            &mut manifest,
            &agg,
        )?;
        Some((layout.clone(), cells))
    };
    fail_on(&report, out)?;
    Ok(cells)
}

fn fail_on(report: &RunReport, out: &Path) -> anyhow::Result<()> {
    if !report.failed.is_empty() {
        bail!(
            "{} cell(s) broke schedule invariants (listed in {}); they are left out of the tables",
            report.failed.len(),
            out.join("failed").display()
        );
    }
    Ok(())
}

/// How [`aggregate_into`] treats missing cells and what it produces.
#[derive(Debug, Clone, Copy, Default)]
pub struct AggregateOptions {
    /// Aggregate even when cells are missing (a warning), instead of failing.
    pub partial: bool,
    /// Draw the experiment figures.
    pub figures: bool,
    /// Print the Markdown table.
    pub print_table: bool,
}

/// Loads the cells of `layout` from `dirs`, writes the environment's
/// tables, Markdown summary and figures and the manifest into `out`, prints
/// the Markdown, and returns the cells (see [`AggregateOptions`]).
///
/// # Errors
/// Unreadable cells, missing cells (unless `partial`), unwritable outputs.
pub fn aggregate_into<E: Grid>(
    config: &ExperimentConfig,
    layout: &Layout,
    dirs: &[PathBuf],
    out: &Path,
    manifest: &mut Manifest,
    opts: &AggregateOptions,
) -> anyhow::Result<Vec<E::Cell>> {
    let (cells, missing) = runner::load_cells::<E>(layout, dirs)?;
    if !missing.is_empty() {
        let msg = format!(
            "{} of {} cells are missing (first: {})",
            missing.len(),
            layout.cell_count(),
            missing[0]
        );
        if !opts.partial {
            bail!("{msg}; run the missing shards, or pass --partial to aggregate what there is");
        }
        eprintln!("warning: {msg}; the tables cover the cells present");
    }
    if cells.is_empty() {
        bail!("no finished cells to aggregate in {}", display_dirs(dirs));
    }
    let report = E::report(layout, config, &cells, out, opts.figures)?;
    manifest.cells_present = cells.len();
    manifest.write(out)?;
    if opts.print_table {
        println!();
        print!("{}", report.markdown);
    }
    print_written(out, &report);
    Ok(cells)
}

/// Prints what a report wrote.
pub fn print_written(out: &Path, report: &GridReport) {
    match report.tables.as_slice() {
        [] => {}
        [one] => println!(
            "\nwrote {}/{one}.{{csv,parquet}} and manifest.json",
            out.display()
        ),
        many => println!(
            "\nwrote {}/{{{}}}.{{csv,parquet}} and manifest.json",
            out.display(),
            many.join(",")
        ),
    }
    for f in report
        .files
        .iter()
        .filter(|f| f.extension().is_none_or(|e| e != "svg"))
    {
        println!("wrote {}", f.display());
    }
}

fn display_dirs(dirs: &[PathBuf]) -> String {
    dirs.iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
