//! `swftool experiment CONFIG.toml | --preset NAME`: run a grid of log ×
//! variant × heuristic × day cells in parallel, resumably and optionally one
//! shard at a time, then aggregate the cells into tables, a Markdown summary
//! and figures (see [`crate::experiment`]).
//!
//! Output directory (default `notebooks-out/<experiment name>/`):
//! `cells/*.json` (one per finished cell), `failed/*.txt` (cells that broke
//! schedule invariants), `runs`, `runs_timing`, `aggregate`, `timing`
//! (`.csv` and `.parquet`; columns in [`crate::experiment::aggregate`]),
//! `aggregate.md`, `figures/*.{png,svg}` and `manifest.json`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use crate::experiment::aggregate::{self, Tables};
use crate::experiment::runner::{self, CellEvent, CellResult, RunOptions, RunReport};
use crate::experiment::{ExperimentConfig, Layout, Manifest, Plan, Shard, config, figures, margo};
use crate::metrics::tables::write_both;
use crate::report::Figure;

use super::with_threads;

/// Arguments of `swftool experiment`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Examples:
  swftool experiment --preset smoke
  swftool experiment --preset margo2008-datastar
  swftool experiment --preset margo2008-datastar --window-start 50000
  swftool experiment --preset khemka2015-parallel --threads 2
  swftool experiment --dump-preset khemka2015-parallel > my-grid.toml
  swftool experiment my-grid.toml --out results/my-grid
  swftool experiment --preset khemka2015-parallel --shard $SLURM_ARRAY_TASK_ID/16 --out results/shard-$SLURM_ARRAY_TASK_ID

Re-running the same command skips the cells already written to <out>/cells/.
With --shard i/N only the cells whose number is i mod N run (cells are
numbered from 0 in a fixed order; i = 0..N-1 or 1..N both work, N/N being
shard 0); merge the shard directories with `swftool aggregate DIR...`.")]
pub struct ExperimentArgs {
    /// Experiment configuration (TOML). See `--dump-preset` for an annotated example.
    #[arg(required_unless_present_any = ["preset", "dump_preset"], conflicts_with_all = ["preset", "dump_preset"])]
    pub config: Option<PathBuf>,
    /// Run a built-in preset instead of a file: khemka2015-parallel (the standard grid of SPEC §3.A), smoke, or margo2008-datastar (Catalina on a DataStar window without and with preemption, SPEC §3.D).
    #[arg(long, value_name = "NAME", conflicts_with = "dump_preset")]
    pub preset: Option<String>,
    /// Print a preset as TOML (a starting point for a custom config) and exit.
    #[arg(long, value_name = "NAME")]
    pub dump_preset: Option<String>,
    /// Output directory. Default: notebooks-out/NAME/, NAME the experiment name.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Run only shard i of N (cells numbered k with k ≡ i mod N); aggregate the shards with `swftool aggregate`.
    #[arg(long, value_name = "i/N")]
    pub shard: Option<String>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Skip the schedule invariant check after each run.
    #[arg(long)]
    pub no_check: bool,
    /// Write tables but no figures.
    #[arg(long)]
    pub no_figures: bool,
    /// margo2008-datastar: first job of the 200-job window (0-based among the cleaned jobs in submit order). Default: the window with the most jobs wider than 64 nodes.
    #[arg(long, value_name = "INDEX")]
    pub window_start: Option<usize>,
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
    if args.dump_preset.as_deref() == Some(margo::NAME) {
        bail!(
            "{} is a fixed study, not a grid, and has no TOML form; its one option is --window-start INDEX",
            margo::NAME
        );
    }
    if let Some(name) = &args.dump_preset {
        print!("{}", ExperimentConfig::preset(name)?.to_toml()?);
        return Ok(());
    }
    if args.preset.as_deref() == Some(margo::NAME) {
        return run_margo(args);
    }
    if args.window_start.is_some() {
        bail!("--window-start applies to --preset {} only", margo::NAME);
    }
    let config = match (&args.preset, &args.config) {
        (Some(p), _) => ExperimentConfig::preset(p)?,
        (None, Some(path)) => ExperimentConfig::from_file(path)?,
        (None, None) => bail!(
            "give a CONFIG.toml or --preset NAME (presets: {}, {})",
            config::PRESETS.join(", "),
            margo::NAME
        ),
    };
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
    with_threads(args.threads, || {
        run_grid(&config, &out, &opts, "experiment")
    })
    .map(|_| ())
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
/// `experiment` and `compare`. Returns the tables when it aggregated.
///
/// # Errors
/// As [`run`].
pub fn run_grid(
    config: &ExperimentConfig,
    out: &Path,
    opts: &GridOptions,
    command: &str,
) -> anyhow::Result<Option<Tables>> {
    let shard = opts.shard;
    let t0 = Instant::now();
    let plan = Plan::new(config)?;
    for n in plan.notes() {
        eprintln!("note: {n}");
    }
    let layout = &plan.layout;
    if let Some(m) = Manifest::read(out)? {
        m.check_same_grid(out, config, layout)?;
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut manifest = Manifest::new(command, config, layout);
    manifest.log_paths = plan
        .logs
        .iter()
        .map(|l| l.path.display().to_string())
        .collect();
    manifest.shard = shard.map(|s| s.to_string());
    manifest.write(out)?;

    let (todo, selected) = runner::pending(layout, out, shard);
    println!(
        "{} `{}`: {} log(s) x {} variant(s) x {} heuristic(s) x {} day(s) = {} cells{}",
        command,
        config.name,
        layout.logs.len(),
        layout.variants.len(),
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
        "ran {} cells in {:.1} s ({} skipped, {} failed)",
        report.ran,
        t0.elapsed().as_secs_f64(),
        report.skipped,
        report.failed.len()
    );
    let tables = if shard.is_some() {
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
        Some(aggregate_into(
            layout,
            &[out.to_path_buf()],
            out,
            &mut manifest,
            &agg,
        )?)
    };
    fail_on(&report, out)?;
    Ok(tables)
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

/// Loads the cells of `layout` from `dirs`, writes every table, the Markdown
/// summary, the figures and the manifest into `out`, prints the Markdown
/// table, and returns the tables (see [`AggregateOptions`]).
///
/// # Errors
/// Unreadable cells, missing cells (unless `partial`), unwritable outputs.
pub fn aggregate_into(
    layout: &Layout,
    dirs: &[PathBuf],
    out: &Path,
    manifest: &mut Manifest,
    opts: &AggregateOptions,
) -> anyhow::Result<Tables> {
    let (cells, missing) = runner::load_cells(layout, dirs)?;
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
    let tables = write_tables(&cells, out)?;
    let md = aggregate::markdown(&tables.rows);
    let md_path = out.join("aggregate.md");
    std::fs::write(&md_path, &md).with_context(|| format!("cannot write {}", md_path.display()))?;
    let figs = if opts.figures {
        figures::experiment_figures(
            layout,
            &tables.rows,
            &cells,
            &out.join("figures"),
            &Figure::with_palette(&crate::env::parallel::HEURISTICS.names()),
        )?
    } else {
        Vec::new()
    };
    manifest.cells_present = cells.len();
    manifest.write(out)?;
    if opts.print_table {
        println!();
        print!("{md}");
    }
    println!(
        "\nwrote {}/{{runs,runs_timing,aggregate,timing}}.{{csv,parquet}}, aggregate.md and manifest.json",
        out.display()
    );
    if !figs.is_empty() {
        println!("figures ({}):", figs.len() / 2);
        for f in figs
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "png"))
        {
            println!("  {} (+ .svg)", f.display());
        }
    }
    Ok(tables)
}

/// Builds the tables of `cells` and writes them as CSV and Parquet into `out`.
///
/// # Errors
/// A polars error or an unwritable file.
pub fn write_tables(cells: &[CellResult], out: &Path) -> anyhow::Result<Tables> {
    let mut t = aggregate::tables(cells)?;
    write_both(&mut t.runs, out, "runs")?;
    write_both(&mut t.runs_timing, out, "runs_timing")?;
    write_both(&mut t.aggregate, out, "aggregate")?;
    write_both(&mut t.timing, out, "timing")?;
    Ok(t)
}

fn display_dirs(dirs: &[PathBuf]) -> String {
    dirs.iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `swftool experiment --preset margo2008-datastar`: prints the three
/// tables and writes them (`tables.md`) with the `summary`, `jobs` and
/// `suspensions` tables (CSV and Parquet), `manifest.json` and, unless
/// `--no-figures`, the wait and expansion-factor figures (PNG and SVG).
///
/// # Errors
/// The log cannot be found or read, the window runs past its end, a
/// schedule breaks an invariant, an output cannot be written.
fn run_margo(args: &ExperimentArgs) -> anyhow::Result<()> {
    use crate::env::classic::tables::{jobs_frame, summary_frame, suspensions_frame};
    if args.shard.is_some() {
        bail!("--shard does not apply to {} (two runs)", margo::NAME);
    }
    let config = margo::MargoConfig {
        window_start: args.window_start,
        ..margo::MargoConfig::default()
    };
    let study = with_threads(args.threads, || margo::run(&config, !args.no_check))?;
    let md = margo::tables(&study);
    print!("{md}");
    let out = args.out.clone().unwrap_or_else(|| default_out(margo::NAME));
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let named: Vec<(&str, &crate::env::classic::ClassicRun)> =
        study.runs.iter().map(|r| (r.scheduler, &r.run)).collect();
    let summaries: Vec<_> = study.runs.iter().map(|r| r.summary.clone()).collect();
    write_both(&mut summary_frame(&summaries)?, &out, "summary")?;
    write_both(
        &mut jobs_frame(&study.window.jobs, &named, config.tau)?,
        &out,
        "jobs",
    )?;
    write_both(
        &mut suspensions_frame(&study.window.jobs, &named)?,
        &out,
        "suspensions",
    )?;
    let tpath = out.join("tables.md");
    std::fs::write(&tpath, &md).with_context(|| format!("cannot write {}", tpath.display()))?;
    if !args.no_figures {
        for (stem, chart) in margo::charts(&study) {
            crate::report::grouped_bars(
                &chart,
                &Figure::with_palette(&crate::env::classic::SCHEDULERS.names()),
                &out.join("figures").join(stem),
            )?;
        }
    }
    let manifest = serde_json::json!({
        "swftool_version": env!("CARGO_PKG_VERSION"),
        "command": format!("experiment --preset {}", margo::NAME),
        "config": config,
        "window_start": study.window.start,
        "window_choice": study.window.chosen,
        "machine": study.machine,
        "clean_report": study.clean_report.to_string(),
        "simulation_seconds": study.runs.iter().map(|r| r.seconds).collect::<Vec<_>>(),
    });
    let mpath = out.join("manifest.json");
    std::fs::write(&mpath, serde_json::to_string_pretty(&manifest)? + "\n")
        .with_context(|| format!("cannot write {}", mpath.display()))?;
    println!(
        "\nwrote {}/{{tables.md,{{summary,jobs,suspensions}}.{{csv,parquet}},manifest.json}}{}; {}",
        out.display(),
        if args.no_figures {
            ""
        } else {
            " and figures/margo-{wait,xfactor}.{png,svg}"
        },
        if args.no_check {
            "schedules not checked (--no-check)"
        } else {
            "invariants hold for both runs"
        }
    );
    Ok(())
}
