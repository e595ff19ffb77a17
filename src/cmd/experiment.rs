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
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::progress::{Progress, ProgressMode};
use super::slurm;
use super::{GridFlags, with_threads};
use crate::env::{self, GridVisitor, configs};
use crate::experiment::ExperimentConfig;
use crate::experiment::grid::{Grid, GridReport, Layout, Plan, ReportTo};
use crate::experiment::manifest::Manifest;
use crate::experiment::outdir::{self, OutLock, Staging};
use crate::experiment::runner::{self, CellEvent, RunOptions, RunReport, Shard};

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
  swftool experiment --preset khemka2015-parallel --slurm slurm/kp --shards 16 --time 0:30:00 --submit
  swftool experiment --preset khemka2015-parallel --shard $SLURM_ARRAY_TASK_ID/16 --out results/shard-$SLURM_ARRAY_TASK_ID

Re-running the same command skips the cells already written to <out>/cells/.
With --shard i/N only shard i of N runs: whole scenarios (log, variant,
day) with all their heuristics, dealt longest first by estimated cost so
the shards take about as long (i = 0..N-1 or 1..N both work, N/N being
shard 0); merge the shard directories with `swftool aggregate DIR...`.
--slurm DIR writes (and with --submit submits) a Slurm job array of the
shards and an aggregation job after it; docs/slurm.md. Without a terminal,
progress is a line every --progress-every seconds on stderr.")]
pub struct ExperimentArgs {
    /// Experiment configuration (TOML). See `--dump-preset` for an annotated example.
    #[arg(required_unless_present_any = ["preset", "dump_preset"], conflicts_with_all = ["preset", "dump_preset"])]
    pub config: Option<PathBuf>,
    /// Run a built-in preset instead of a file: khemka2015-parallel (the standard grid of Khemka et al. 2015, §5), machovec2017-serial (Machovec et al. 2017, Figs. 3–6), khemka2015-energy (Khemka et al. 2015, Figs. 4–6), margo2008-datastar (Catalina on a DataStar window without and with preemption, Margo et al., §5), or a quick check of an environment: smoke (A), smoke-serial (B), smoke-energy (C), smoke-classic (D).
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
    /// Worker threads, 0 to 1024 (default, or 0: all cores). Results do not depend on it.
    #[arg(long, allow_hyphen_values = true, value_parser = super::parse_threads)]
    pub threads: Option<usize>,
    /// Skip the schedule invariant check after each run.
    #[arg(long)]
    pub no_check: bool,
    /// Write tables but no figures.
    #[arg(long)]
    pub no_figures: bool,
    /// Print no progress (without it: a bar on a terminal, else a plain line every --progress-every seconds on stderr).
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Seconds between two progress lines when stderr is not a terminal (a Slurm job, a pipe), 1–86400.
    #[arg(long, allow_hyphen_values = true, value_name = "SECONDS", default_value_t = super::progress::DEFAULT_EVERY_S, value_parser = clap::value_parser!(u64).range(1..=86_400), conflicts_with = "quiet")]
    pub progress_every: u64,
    /// Write the grid as a Slurm job array into DIR (array.sh, aggregate.sh, submit.sh, config.toml) instead of running it; see docs/slurm.md.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shard", "threads"])]
    pub slurm: Option<PathBuf>,
    /// With --slurm: array tasks, one shard each (1–1000) [default: 16].
    #[arg(long, allow_hyphen_values = true, value_name = "N", requires = "slurm", value_parser = clap::value_parser!(u64).range(1..=super::slurm::MAX_SHARDS as u64))]
    pub shards: Option<u64>,
    /// With --slurm: the partition to submit to [default: the cluster's default].
    #[arg(long, value_name = "P", requires = "slurm")]
    pub partition: Option<String>,
    /// With --slurm: time limit of each task (Slurm's format: MINUTES, HH:MM:SS, DAYS-HH…) [default: the partition's].
    #[arg(long, value_name = "T", requires = "slurm")]
    pub time: Option<String>,
    /// With --slurm: CPUs of each task, which its swftool uses as threads (1–1024) [default: 1].
    #[arg(long, allow_hyphen_values = true, value_name = "C", requires = "slurm", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub cpus_per_task: Option<u64>,
    /// With --slurm: another `#SBATCH` option for every job, verbatim (repeatable), e.g. --sbatch-option=--account=p123.
    #[arg(
        long,
        value_name = "OPTION",
        requires = "slurm",
        allow_hyphen_values = true
    )]
    pub sbatch_option: Vec<String>,
    /// With --slurm: submit the array and the aggregation job with sbatch, and print their job ids.
    #[arg(long, requires = "slurm")]
    pub submit: bool,
    /// Each environment's flags of its grids.
    #[command(flatten)]
    pub grid_flags: GridFlags,
    /// Flags of `replay` that a grid takes from its configuration instead
    /// (hidden: given, they are refused with the key to set).
    #[command(flatten)]
    pub replay_flags: ReplayFlagsGiven,
}

/// Flags of `replay` given to `experiment`, which takes them as keys of
/// its configuration: each is refused naming the key (clap would otherwise
/// suggest `-- --days`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ReplayFlagsGiven {
    #[arg(long, hide = true, allow_hyphen_values = true)]
    days: Option<String>,
    #[arg(long, hide = true, allow_hyphen_values = true)]
    day: Option<String>,
    #[arg(long, hide = true, allow_hyphen_values = true)]
    seed: Option<String>,
    #[arg(long, hide = true, allow_hyphen_values = true)]
    trials: Option<String>,
    #[arg(long, hide = true, allow_hyphen_values = true)]
    theta: Option<String>,
    #[arg(long, short = 'H', hide = true, allow_hyphen_values = true)]
    heuristic: Option<String>,
    #[arg(long, hide = true, allow_hyphen_values = true)]
    env: Option<String>,
}

impl ReplayFlagsGiven {
    /// Refuses the first one given, naming the configuration key.
    fn refuse(&self) -> anyhow::Result<()> {
        let given = [
            ("--days", "days = N", self.days.is_some()),
            ("--day", "dates = [\"YYYY-MM-DD\"]", self.day.is_some()),
            ("--seed", "seed = N", self.seed.is_some()),
            ("--trials", "trials = N", self.trials.is_some()),
            ("--theta", "theta = MINUTES", self.theta.is_some()),
            (
                "--heuristic",
                "heuristics = [...]",
                self.heuristic.is_some(),
            ),
            ("--env", "environment = \"NAME\"", self.env.is_some()),
        ];
        if let Some((flag, key, _)) = given.iter().find(|g| g.2) {
            refuse!(
                "{flag} is a flag of replay; an experiment takes it from its configuration: set `{key}` in a TOML file (start from `swftool experiment --dump-preset NAME > grid.toml`) and run `swftool experiment grid.toml`"
            );
        }
        Ok(())
    }
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
    args.replay_flags.refuse()?;
    if let Some(name) = &args.dump_preset {
        say_raw!("{}", configs::config_toml(&configs::preset(name)?)?);
        return Ok(());
    }
    run_config(args, load_config(args)?).map(|_| ())
}

/// The configuration `args` name: its `--preset`, or its CONFIG file.
///
/// # Errors
/// An unknown preset; a file that cannot be read or is not a valid
/// configuration; neither given.
pub fn load_config(args: &ExperimentArgs) -> anyhow::Result<ExperimentConfig> {
    Ok(match (&args.preset, &args.config) {
        (Some(p), _) => configs::preset(p)?,
        (None, Some(path)) => configs::config_from_file(path)?,
        (None, None) => bail!(
            "give a CONFIG.toml or --preset NAME (presets: {})",
            configs::preset_names().join(", ")
        ),
    })
}

/// Runs the grid `config` with the flags of `args` (its `config` and
/// `preset` are not read): what `swftool experiment` does once it has the
/// configuration, and what the Python package calls with a configuration
/// given as a dict. Gives the output directory.
///
/// # Errors
/// As [`run`], but for reading the configuration.
pub fn run_config(args: &ExperimentArgs, mut config: ExperimentConfig) -> anyhow::Result<PathBuf> {
    args.replay_flags.refuse()?;
    args.grid_flags.refuse_foreign(config.environment_name())?;
    let name = config.environment_name().to_string();
    env::visit(&name, ApplyGridFlags(&mut config, &args.grid_flags))??;
    let shard: Option<Shard> = args.shard.as_deref().map(str::parse).transpose()?;
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_out(&config.name));
    if let Some(dir) = &args.slurm {
        write_slurm(args, &config, dir, &out)?;
        return Ok(dir.clone());
    }
    let opts = GridOptions {
        shard,
        no_check: args.no_check,
        figures: !args.no_figures,
        print_table: true,
        progress: if args.quiet {
            ProgressMode::Quiet
        } else {
            ProgressMode::Auto {
                every: Duration::from_secs(args.progress_every),
            }
        },
    };
    with_threads(args.threads, || {
        env::visit(
            config.environment_name(),
            RunGrid {
                config: &config,
                out: &out,
                opts: &opts,
                command: "experiment",
            },
        )?
        .map(|_| ())
    })?;
    Ok(out)
}

struct ApplyGridFlags<'a>(&'a mut ExperimentConfig, &'a GridFlags);

impl GridVisitor for ApplyGridFlags<'_> {
    type Output = Result<Vec<&'static str>, crate::experiment::ConfigError>;
    fn visit<E: Grid>(self) -> Self::Output {
        let applied = E::apply_experiment_flags(self.0, self.1.matches())?;
        if !applied.is_empty() {
            configs::check_config(self.0)?;
        }
        Ok(applied)
    }
}

/// [`run_grid`] for the environment a configuration names; gives whether
/// it aggregated.
pub struct RunGrid<'a> {
    /// The grid.
    pub config: &'a ExperimentConfig,
    /// The output directory.
    pub out: &'a Path,
    /// How it runs.
    pub opts: &'a GridOptions,
    /// The command, for the manifest and messages.
    pub command: &'a str,
}

impl GridVisitor for RunGrid<'_> {
    type Output = anyhow::Result<bool>;
    fn visit<E: Grid>(self) -> anyhow::Result<bool> {
        Ok(run_grid::<E>(self.config, self.out, self.opts, self.command)?.is_some())
    }
}

struct LayoutOf<'a>(&'a ExperimentConfig);

impl GridVisitor for LayoutOf<'_> {
    type Output = Result<Layout, crate::experiment::ExperimentError>;
    fn visit<E: Grid>(self) -> Self::Output {
        Ok(Plan::<E>::new(self.0)?.layout)
    }
}

/// `--slurm DIR`: checks the grid (its logs are read), writes the job
/// scripts and, with `--submit`, submits them.
fn write_slurm(
    args: &ExperimentArgs,
    config: &ExperimentConfig,
    dir: &Path,
    out: &Path,
) -> anyhow::Result<()> {
    if let Some(t) = &args.time {
        slurm::check_time(t)?;
    }
    for o in &args.sbatch_option {
        if !o.starts_with('-') || o.contains('\n') {
            bail!(
                "--sbatch-option `{o}`: give one sbatch option as on its command line, e.g. --sbatch-option=--account=p123"
            );
        }
    }
    // The whole grid is planned here, so a bad config or log fails now and
    // not in every array task.
    let layout = env::visit(config.environment_name(), LayoutOf(config))??;
    let scenarios: usize =
        layout.logs.iter().map(|l| l.days.len()).sum::<usize>() * layout.variant_count();
    let shards = args.shards.map_or(slurm::DEFAULT_SHARDS, |n| n as usize);
    let absolute = |p: &Path, what: &str| -> anyhow::Result<PathBuf> {
        std::fs::create_dir_all(p)
            .with_context(|| format!("cannot create {} ({what})", p.display()))?;
        std::fs::canonicalize(p).with_context(|| format!("cannot resolve {} ({what})", p.display()))
    };
    let dir = absolute(dir, "--slurm")?;
    let out = absolute(out, "--out")?;
    let mut shard_args = Vec::new();
    if args.no_check {
        shard_args.push("--no-check".to_string());
    }
    if args.quiet {
        shard_args.push("--quiet".to_string());
    } else if args.progress_every != super::progress::DEFAULT_EVERY_S {
        shard_args.extend([
            "--progress-every".to_string(),
            args.progress_every.to_string(),
        ]);
    }
    let job = slurm::SlurmJob {
        dir: dir.clone(),
        out: out.clone(),
        shards,
        partition: args.partition.clone(),
        time: args.time.clone(),
        cpus_per_task: args.cpus_per_task.map_or(1, |c| c as usize),
        sbatch_options: args.sbatch_option.clone(),
        binary: std::env::current_exe().context("cannot tell where the swftool binary is")?,
        workdir: std::env::current_dir().context("cannot tell the current directory")?,
        shard_args,
        aggregate_args: if args.no_figures {
            vec!["--no-figures".to_string()]
        } else {
            Vec::new()
        },
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    let written = job.write(config)?;
    say!(
        "experiment `{}` (--env {}): {} cells in {scenarios} scenario(s), as a Slurm job array of {shards} task(s) (whole scenarios per task, dealt by estimated cost)",
        config.name,
        config.environment,
        layout.cell_count(),
    );
    if shards > scenarios {
        say!(
            "note: {} of the {shards} tasks get no scenario (the grid has {scenarios}); they finish at once",
            shards - scenarios
        );
    }
    say!(
        "wrote {dir}/{{array.sh,aggregate.sh,submit.sh,config.toml}}; logs go to {dir}/logs/",
        dir = dir.display()
    );
    if args.submit {
        let (array, aggregate) = slurm::submit(&written)?;
        say!(
            "submitted job array {array} ({shards} tasks) and aggregation job {aggregate} (runs after every task of {array} succeeds)"
        );
        say!("watch them with `squeue -j {array},{aggregate}`");
    } else {
        say!("submit with `bash {}`", written.submit.display());
    }
    say!(
        "results: {} (shards in {}/shards/0..{}); to resume after a failure or a time limit, run `bash {}` again",
        out.display(),
        out.display(),
        shards - 1,
        written.submit.display()
    );
    Ok(())
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
    /// How progress is shown.
    pub progress: ProgressMode,
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
    let created = super::prepare_out(out)?;
    // One writer at a time; held until the tables are written.
    let _lock =
        OutLock::acquire(out, &format!("{command} {}", config.name))?.in_created_folder(created);
    if let Some(note) = outdir::recover(out)? {
        eprintln!("note: {note}");
    }
    if let Some(m) = Manifest::read(out)?
        && let Some(note) = m.check_grid(out, config, layout, E::GROWABLE)?
    {
        eprintln!("note: {note}");
    }
    let partial = outdir::remove_partial_files(out)?;
    if partial > 0 {
        eprintln!(
            "note: removed {partial} partial file(s) left in {} by a run that was killed",
            out.display()
        );
    }
    for c in runner::quarantine_corrupt(&plan, out)? {
        eprintln!(
            "warning: cell file of {} is corrupt ({}); moved to {} and the cell runs again",
            c.id,
            c.reason,
            c.moved_to.display()
        );
    }
    let mut manifest = Manifest::new(command, config, layout);
    manifest.log_paths = plan.paths.iter().map(|p| p.display().to_string()).collect();
    manifest.log_sha256 = plan.sha256.clone();
    manifest.shard = shard.map(|s| s.to_string());
    manifest.write(out)?;

    let (todo, selected) = runner::pending(&plan, out, shard);
    say!(
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
    say!(
        "output {}: {} cells to run, {} already done",
        out.display(),
        todo.len(),
        selected - todo.len()
    );
    let mut shown = Progress::start(todo.len(), opts.progress);
    let progress = |e: CellEvent<'_>| match e {
        CellEvent::Done { .. } => shown.done(),
        CellEvent::Failed { id, errors } => shown.failed(id, errors),
    };
    let run_opts = RunOptions {
        shard,
        no_check: opts.no_check,
    };
    let report = runner::run(&plan, out, &run_opts, &progress)?;
    shown.finish();
    say!(
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
    if report.interrupted {
        manifest.cells_present = report.skipped + report.ran;
        manifest.write(out)?;
        eprintln!(
            "interrupted: {} of {} cells of this run written to {}/cells; run the same command again to run the {} left and aggregate",
            report.ran,
            todo.len(),
            out.display(),
            todo.len() - report.ran - report.failed.len()
        );
        return Err(crate::interrupt::Interrupted.into());
    }
    let cells = if shard.is_some() {
        manifest.cells_present = report.skipped + report.ran;
        manifest.write(out)?;
        say!(
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
    if report.failed.is_empty() {
        return Ok(());
    }
    let mut list = String::new();
    for (id, first) in report.failed.iter().take(5) {
        list.push_str(&format!("\n  {id}: {first}"));
    }
    if report.failed.len() > 5 {
        list.push_str(&format!("\n  … and {} more", report.failed.len() - 5));
    }
    bail!(
        "{} cell(s) failed and are left out of the tables; each one's error and inputs are in {}/<cell>.txt, and a re-run tries them again:{list}",
        report.failed.len(),
        out.join("failed").display()
    )
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
    // The tables, Markdown and figures replace the previous ones all at
    // once (experiment::outdir::Staging).
    let staging = Staging::begin(out)?;
    let to = ReportTo {
        layout,
        config,
        out: staging.dir(),
        figures: opts.figures,
    };
    let mut report = E::report(&to, &cells)?;
    if E::CELL_SERIES {
        let (tables, files) = grid_series::<E>(layout, dirs, staging.dir(), opts.figures)?;
        report.tables.extend(tables);
        report.files.extend(files);
    }
    report.files = report.files.iter().map(|f| staging.final_path(f)).collect();
    manifest.cells_present = cells.len();
    staging.commit(manifest, &[])?;
    if opts.print_table {
        say!();
        say_raw!("{}", report.markdown);
    }
    print_written(out, &report);
    Ok(cells)
}

/// The grid's `series` table (metrics::series::grid_table: the cells'
/// hourly series, mean ± CI over scenarios per log, variant, heuristic and
/// hour) written into `dir`, and with `figures`, per log, the series
/// figures of its figure variant (`figures/<log key>-series-*`); the table
/// names and the files written. Nothing when no cell holds a series.
///
/// # Errors
/// A cell that cannot be read, a table or figure that cannot be written.
fn grid_series<E: Grid>(
    layout: &Layout,
    dirs: &[PathBuf],
    dir: &Path,
    figures: bool,
) -> anyhow::Result<(Vec<&'static str>, Vec<PathBuf>)> {
    use crate::metrics::series::{RunSeries, grid_table};
    let found = runner::load_series(layout, dirs)?;
    if found.is_empty() {
        return Ok((Vec::new(), Vec::new()));
    }
    let rows: Vec<(String, String, String, &crate::metrics::series::CellSeries)> = found
        .iter()
        .map(|(c, s)| {
            (
                layout.logs[c.log].key.clone(),
                layout.variant_id(c.variant),
                layout.heuristics[c.heuristic].clone(),
                s,
            )
        })
        .collect();
    let mut table =
        grid_table(&rows).map_err(|source| crate::metrics::tables::TableError::Write {
            path: dir.join("series.csv"),
            source,
        })?;
    crate::metrics::tables::write_both(&mut table, dir, "series")?;
    let mut files = Vec::new();
    if figures {
        let fig = crate::report::Figure::with_palette(&E::REGISTRY.names());
        let shown = layout.figure_variant();
        for (li, log) in layout.logs.iter().enumerate() {
            let runs: Vec<RunSeries> = found
                .iter()
                .filter(|(c, _)| c.log == li && c.variant == shown)
                .map(|(c, s)| RunSeries {
                    scenario: c.day.to_string(),
                    heuristic: layout.heuristics[c.heuristic].clone(),
                    bins: s.bins(),
                })
                .collect();
            if runs.is_empty() {
                continue;
            }
            let label = format!("{} ({})", log.key, layout.variant_id(shown));
            files.extend(crate::report::series::series_figures(
                &runs,
                &fig,
                &dir.join("figures"),
                &format!("{}-", log.key),
                &label,
            )?);
        }
    }
    Ok((vec!["series"], files))
}

/// Prints what a report wrote.
pub fn print_written(out: &Path, report: &GridReport) {
    match report.tables.as_slice() {
        [] => {}
        [one] => say!(
            "\nwrote {}/{one}.{{csv,parquet}} and manifest.json",
            out.display()
        ),
        many => say!(
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
        say!("wrote {}", f.display());
    }
}

fn display_dirs(dirs: &[PathBuf]) -> String {
    dirs.iter()
        .map(|d| d.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
