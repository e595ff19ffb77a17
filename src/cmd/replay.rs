//! `swftool replay [LOG] --heuristic NAME [--env NAME]`: one pipeline for
//! every environment ([`crate::contract::Environment`]): read the log (or
//! none, for an environment's synthetic trials), build the environment's
//! scenarios, run every (scenario, heuristic) pair in parallel, check each
//! schedule, print the environment's table, and write its tables (CSV and
//! Parquet), then what every environment shares from one neutral record
//! per run ([`crate::output`]): the `series` table and figures, the
//! `users` and `fairness` tables when the jobs name users, and the
//! `--export` files; last `manifest.json`, all committed at once.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::bail;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use super::EnvFlags;
use crate::catalog;
use crate::contract::{Input, LogUse, Replayed, Setup, Simulated};
use crate::env::GridVisitor;
use crate::env::{self, configs};
use crate::experiment::ExperimentConfig;
use crate::experiment::grid::Grid;
use crate::experiment::manifest::Manifest;
use crate::experiment::outdir::{self, OutLock, Staging};
use crate::interrupt;
use crate::output::{Export, Record, export};
use crate::swf::ReadOptions;
use crate::workload::flags::SharedArgs;

/// Arguments of `swftool replay`.
#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "Examples:
  swftool replay curie --heuristic maxvpr-ph
  swftool replay curie --heuristic all --day 2012-03-14
  swftool replay curie --heuristic easy,maxvpr-ph --days 48 --oversubscription higher --out results/curie
  swftool replay ./my-log.swf.gz --heuristic maxvalue --seed 7 --heterogeneity high
  swftool replay --env serial -H all --trial 3
  swftool replay --env serial -H maxupt,maxupt-preempt-greedy --trials 4 --burst-size 128
  swftool replay curie --env serial -H maxupt-preempt-greedy --load 2.2
  swftool replay --env energy -H all --trial 0 --management polled --filter adaptive
  swftool replay --env energy -H maxupe,maxutil --trials 4 --budget 1.11GJ
  swftool replay sdsc-sp2 --env classic --heuristic fcfs,easy,conservative
  swftool replay datastar --env classic -H backfill --reservation-depth 4 --exact-estimates --clean pyss")]
pub struct ReplayArgs {
    /// Log: a path to a .swf or .swf.gz file, or a short name (curie, datastar, sdsc-sp2, hpc2n, ctc-sp2, kth-sp2, lublin256). Optional with --env serial, which then runs a synthetic trial.
    pub log: Option<String>,
    /// Heuristic(s), comma-separated, or `all` (see `swftool heuristics`).
    #[arg(long, short = 'H', value_delimiter = ',', required = true)]
    pub heuristic: Vec<String>,
    /// Output directory for the tables (default: notebooks-out/replay, or notebooks-out/replay-classic with --env classic).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Scheduling environment: `parallel` (A: value-based, heterogeneous clusters, one day at a time), `serial` (B: serial tasks, utility functions, preemption), `energy` (C: utility under a daily energy budget) or `classic` (D: the whole log on its own machine); `swftool heuristics` lists them.
    #[arg(long, default_value = env::default_name(), value_parser = clap::builder::PossibleValuesParser::new(env::NAMES))]
    pub env: String,
    /// Skip lines that do not parse (counted and reported) instead of stopping.
    #[arg(long)]
    pub lenient: bool,
    /// Worker threads, 0 to 1024 (default, or 0: all cores). Results do not depend on it.
    #[arg(long, allow_hyphen_values = true, value_parser = super::parse_threads)]
    pub threads: Option<usize>,
    /// Skip the schedule invariant check after each run.
    #[arg(long)]
    pub no_check: bool,
    /// Bin of the `series` table and figures (utilization, queue length, queued work over time), in seconds, 1 to 100000000.
    #[arg(long, value_name = "SECONDS", default_value_t = 3600.0, allow_hyphen_values = true, value_parser = parse_series_step)]
    pub series_step: f64,
    /// Also write each run's schedule for other tools, comma-separated: `batsim` (Batsim's jobs.csv, which evalys reads: batsim/HEURISTIC/jobs.csv, batsim/SCENARIO/HEURISTIC/jobs.csv with several scenarios) and `swf` (an SWF log of the simulated run: swf/HEURISTIC.swf, swf/SCENARIO/HEURISTIC.swf); docs/outputs.md. Every environment.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "FORMAT")]
    pub export: Vec<Export>,
    /// The flags several environments share.
    #[command(flatten)]
    pub shared: SharedArgs,
    /// Each environment's own flags.
    #[command(flatten)]
    pub env_flags: EnvFlags,
}

struct ReplayVisit<'a>(&'a ReplayArgs);

impl GridVisitor for ReplayVisit<'_> {
    type Output = anyhow::Result<()>;
    fn visit<E: Grid>(self) -> anyhow::Result<()> {
        let env_args = checked::<E>(self.0)?;
        replay::<E>(self.0, &env_args)
    }
}

struct Check<'a>(&'a ReplayArgs);

impl GridVisitor for Check<'_> {
    type Output = anyhow::Result<()>;
    fn visit<E: Grid>(self) -> anyhow::Result<()> {
        checked::<E>(self.0).map(|_| ())
    }
}

/// Runs `swftool replay`.
///
/// # Errors
/// A flag of another environment, an unknown log or heuristic, an
/// unreadable log, a bad day, invariant violations, unwritable output.
pub fn run(args: &ReplayArgs) -> anyhow::Result<()> {
    env::visit(&args.env, ReplayVisit(args))?
}

/// Checks every flag that can be checked without reading the log, so that
/// a bad value is refused before any work: a flag of another environment,
/// a shared flag the environment does not take, an unknown heuristic, a
/// flag that does not fit a log (or a synthetic trial), and the range of
/// every parameter of the workloads environments B and C build
/// (`--theta`, `--load`, `--tasks-per-day`, `--event-interval`, …;
/// `--trials` and `--threads` are bounded when parsed). What depends on
/// the log (its days, its system size, a window of its jobs) is checked
/// when the log is read.
///
/// # Errors
/// The first bad flag, named, with the values it takes.
pub fn check(args: &ReplayArgs) -> anyhow::Result<()> {
    env::visit(&args.env, Check(args))?
}

/// The environment's flags, checked ([`check`]).
fn checked<E: Grid>(args: &ReplayArgs) -> anyhow::Result<E::Args> {
    args.env_flags.refuse_foreign(E::NAME, &args.shared)?;
    let a = args.env_flags.args::<E>(&args.shared)?;
    E::heuristics(&args.heuristic, &a).map_err(|e| match e {
        crate::contract::EnvError::Unknown(u) => {
            crate::contract::EnvError::Unknown(configs::locate(u))
        }
        e => e,
    })?;
    E::check_args(&a, args.log.is_some())?;
    Ok(a)
}

/// Refuses a log without a single job, before any work (an environment
/// that finds no job it can use says so itself: environment A with the
/// reasons its filter removed them).
///
/// # Errors
/// The log has no data line.
fn refuse_empty(log: &crate::swf::SwfLog) -> anyhow::Result<()> {
    if log.jobs.is_empty() {
        bail!(
            "{}: no job: the log has no data line{}; nothing to replay",
            log.name,
            if log.skipped.is_empty() {
                String::new()
            } else {
                format!(
                    " that parses ({})",
                    log.skipped.to_string().lines().next().unwrap_or("")
                )
            }
        );
    }
    Ok(())
}

/// The manifest of an earlier replay in `out`, if there is one.
///
/// # Errors
/// `out` holds the outputs of a grid (`experiment`, `compare`,
/// `aggregate`): a replay does not write over them.
fn earlier_replay(out: &Path) -> anyhow::Result<Option<Manifest>> {
    let Some(m) = Manifest::read(out)? else {
        return Ok(None);
    };
    if m.command != "replay" {
        bail!(
            "{} holds the results of `swftool {}` (`{}`, per its manifest.json); a replay does not write over them: use another --out, or remove the directory",
            out.display(),
            m.command,
            m.config.name
        );
    }
    Ok(Some(m))
}

/// The tables an earlier replay wrote in `out` (listed in its manifest)
/// that this one does not write again, to remove with the commit, so that
/// no table of another run is left beside the new ones. Only plain file
/// names listed by swftool; nothing else in the directory is touched.
fn stale_files(out: &Path, earlier: Option<&Manifest>, written: &[String]) -> Vec<String> {
    let Some(earlier) = earlier else {
        return Vec::new();
    };
    earlier
        .files
        .iter()
        .filter(|name| {
            let path = Path::new(name.as_str());
            // A table at the top, or an export (output::export); never a
            // path that climbs out.
            let flat = path.file_name() == Some(std::ffi::OsStr::new(name.as_str()));
            (flat || export::is_export(name))
                && !written.contains(name)
                && out.join(name.as_str()).is_file()
        })
        .cloned()
        .collect()
}

/// The tables a replay may write, as file names: whatever the environment,
/// a replay replaces only these, and only when an earlier replay's
/// manifest lists them.
const REPLAY_TABLES: &[&str] = &[
    "series",
    "jobs",
    "summary",
    "timing",
    "pieces",
    "hourly",
    "machines",
    "filter",
    "clean",
    "suspensions",
    "users",
    "fairness",
];

/// `--series-step`: seconds, a number from 1 to 10⁸.
fn parse_series_step(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| (1.0..=1e8).contains(x))
        .ok_or_else(|| format!("`{s}`: --series-step takes seconds, a number from 1 to 100000000"))
}

/// The most bins one run's series may hold (`--series-step` too small for
/// the span of the log is refused beyond it).
const MAX_SERIES_BINS: f64 = 2_000_000.0;

/// The time series of every run (metrics::series) with bins of `step`
/// seconds, written as the `series` table, and its figures into
/// `dir/figures`; the figures' paths relative to `dir`.
///
/// # Errors
/// A run whose span needs more than [`MAX_SERIES_BINS`] bins, or a table
/// or figure that cannot be written.
fn write_series<E: Grid>(
    dir: &Path,
    runs: &[Replayed<'_, E>],
    records: &[Record],
    step: f64,
) -> anyhow::Result<Vec<String>> {
    use crate::metrics::series::{RunSeries, frame, series};
    let mut all = Vec::with_capacity(runs.len());
    for (r, record) in runs.iter().zip(records) {
        let occ = record.occupancy();
        let bins = (occ.end - occ.origin) / step;
        if bins > MAX_SERIES_BINS {
            bail!(
                "--series-step {step} s cuts the {:.0} s of {} into {bins:.0} bins, more than {MAX_SERIES_BINS:.0}: give a larger --series-step",
                occ.end - occ.origin,
                E::scenario_name(r.scenario)
            );
        }
        all.push(RunSeries {
            scenario: E::scenario_name(r.scenario),
            heuristic: E::heuristic_name(r.heuristic).to_string(),
            bins: series(&occ, step),
        });
    }
    let mut df = frame(&all).map_err(|source| crate::metrics::tables::TableError::Write {
        path: dir.join("series.csv"),
        source,
    })?;
    crate::metrics::tables::write_both(&mut df, dir, "series")?;
    // The environment's whole registry is the palette order: a heuristic
    // has one colour in every figure of its environment.
    let fig = crate::report::Figure::with_palette(&E::REGISTRY.names());
    let files = crate::report::series::series_figures(&all, &fig, &dir.join("figures"), "", "")?;
    Ok(files
        .iter()
        .filter_map(|f| f.strip_prefix(dir).ok())
        .map(|f| f.display().to_string())
        .collect())
}

/// The `users` and `fairness` tables ([`crate::output::users`]) of
/// `runs` (their `records`, in order) when a job of them names a user,
/// group or queue; the table names written.
///
/// # Errors
/// A table that cannot be written.
fn write_users<E: Grid>(
    dir: &Path,
    log: &str,
    runs: &[Replayed<'_, E>],
    records: &[Record],
    tau: f64,
) -> anyhow::Result<Vec<&'static str>> {
    let all: Vec<&Record> = records.iter().collect();
    if !crate::output::users::has_users(&all) {
        return Ok(Vec::new());
    }
    let named: Vec<(&str, &Record)> = runs
        .iter()
        .zip(records)
        .map(|(r, rec)| (E::heuristic_name(r.heuristic), rec))
        .collect();
    let (users, fairness) = crate::output::users::frames(log, &named, tau).map_err(|source| {
        crate::metrics::tables::TableError::Write {
            path: dir.join("users.csv"),
            source,
        }
    })?;
    Ok(crate::metrics::tables::write_all(
        dir,
        vec![("users", Ok(users)), ("fairness", Ok(fairness))],
    )?)
}

/// Refuses to write over files swftool did not write: a table name a
/// replay writes (or `manifest.json`) that is in `out` and that no earlier
/// replay's manifest lists.
///
/// # Errors
/// The files, named, and what to do.
fn refuse_foreign_files(out: &Path, earlier: Option<&Manifest>) -> anyhow::Result<()> {
    // A manifest written before `files` existed lists none: its tables are
    // the replay's.
    let ours = |name: &str| {
        earlier.is_some_and(|m| m.files.is_empty() || m.files.iter().any(|f| f == name))
    };
    let mut foreign: Vec<String> = REPLAY_TABLES
        .iter()
        .flat_map(|t| [format!("{t}.csv"), format!("{t}.parquet")])
        .filter(|name| out.join(name).exists() && !ours(name))
        .collect();
    if earlier.is_none() && out.join("manifest.json").exists() {
        foreign.push("manifest.json".into());
    }
    if !foreign.is_empty() {
        bail!(
            "{} holds {} that swftool did not write (no manifest.json of a replay lists {}); a replay does not write over them: give another --out, or move them away",
            out.display(),
            foreign.join(", "),
            if foreign.len() == 1 { "it" } else { "them" }
        );
    }
    Ok(())
}

/// The default output directory of a replay in environment `env`:
/// `notebooks-out/replay` for the default environment, else
/// `notebooks-out/replay-<env>`.
pub fn default_out(env: &str) -> PathBuf {
    if env == env::default_name() {
        PathBuf::from("notebooks-out/replay")
    } else {
        PathBuf::from(format!("notebooks-out/replay-{env}"))
    }
}

/// A LOG read: its file and the parsed log.
pub type ReadLog = (PathBuf, crate::swf::SwfLog);

/// What a replay in environment `E` starts from: its flags checked as
/// `replay` checks them ([`check`]) and its log read as `replay` reads it
/// (skipped lines and order notes said on standard error; an empty log
/// refused). The Python package's replays under its own policies start
/// here.
///
/// # Errors
/// As [`check`]; a log that cannot be found or read; `--lenient` without
/// a log; no log where `E` needs one.
pub fn checked_input<E: Grid>(args: &ReplayArgs) -> anyhow::Result<(E::Args, Option<ReadLog>)> {
    let env_args = checked::<E>(args)?;
    let read = read_input::<E>(args)?;
    Ok((env_args, read))
}

fn read_input<E: Grid>(args: &ReplayArgs) -> anyhow::Result<Option<ReadLog>> {
    Ok(match &args.log {
        Some(spec) => {
            let path = catalog::resolve(spec)?;
            let log = crate::swf::read_log(
                &path,
                &ReadOptions {
                    lenient: args.lenient,
                },
            )?;
            if log.skipped.total() > 0 {
                eprintln!("{}: {}", log.name, log.skipped);
            }
            if !log.order.is_empty() {
                eprintln!("note: {}: {}", log.name, log.order);
            }
            refuse_empty(&log)?;
            Some((path, log))
        }
        None if E::LOG != LogUse::Required => {
            if args.lenient {
                refuse!(
                    "--lenient applies to reading a LOG; without LOG, replay --env {} runs a synthetic trial",
                    E::NAME
                );
            }
            None
        }
        None => refuse!(
            "--env {} replays a log: give LOG (a path, or a short name such as curie)",
            E::NAME
        ),
    })
}

fn replay<E: Grid>(args: &ReplayArgs, env_args: &E::Args) -> anyhow::Result<()> {
    let heuristics = E::heuristics(&args.heuristic, env_args)?;
    let read = read_input::<E>(args)?;
    let input = read.as_ref().map(|(path, log)| Input { log, path });
    let (prepared, scenarios) = E::scenarios(input, env_args)?;
    let out = args.out.clone().unwrap_or_else(|| default_out(E::NAME));
    let created = super::prepare_out(&out)?;
    // One writer at a time, held until the outputs are in place.
    let _lock =
        OutLock::acquire(&out, &format!("replay --env {}", E::NAME))?.in_created_folder(created);
    if let Some(note) = outdir::recover(&out)? {
        eprintln!("note: {note}");
    }
    let earlier = earlier_replay(&out)?;
    refuse_foreign_files(&out, earlier.as_ref())?;
    let setup = Setup {
        spec: args.log.as_deref().unwrap_or("synthetic"),
        input,
        prepared: &prepared,
        scenarios: &scenarios,
        args: env_args,
    };
    say!("{}", E::describe(&setup));

    let pairs: Vec<(&E::Scenario, &E::Heuristic)> = scenarios
        .iter()
        .flat_map(|s| heuristics.iter().map(move |h| (s, h)))
        .collect();
    let pb = if pairs.len() > 1 {
        let pb = ProgressBar::new(pairs.len() as u64);
        pb.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} runs  {elapsed_precise} elapsed, {eta} left",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        pb
    } else {
        ProgressBar::hidden()
    };
    let broken: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let check = !args.no_check;
    let work = || -> Vec<Option<Replayed<'_, E>>> {
        pairs
            .par_iter()
            .map(|&(scenario, heuristic)| {
                // An interrupt: no new run starts.
                if interrupt::requested() {
                    return None;
                }
                let t = Instant::now();
                let run = E::simulate(scenario, heuristic);
                let seconds = t.elapsed().as_secs_f64();
                if check {
                    let v = E::check(scenario, &run);
                    if !v.is_empty() {
                        let name = format!(
                            "{} on {}",
                            E::heuristic_name(heuristic),
                            E::scenario_name(scenario)
                        );
                        pb.suspend(|| {
                            eprintln!("{} invariant violation(s) in {name}:", v.len());
                            for x in v.iter().take(10) {
                                eprintln!("  {x}");
                            }
                        });
                        broken.lock().unwrap_or_else(|e| e.into_inner()).push(name);
                    }
                }
                let summary = E::summarize(Simulated {
                    prepared: &prepared,
                    args: env_args,
                    scenario,
                    heuristic,
                    run: &run,
                });
                pb.inc(1);
                Some(Replayed {
                    scenario,
                    heuristic,
                    run,
                    summary,
                    seconds,
                })
            })
            .collect()
    };
    let done = super::with_threads(args.threads, || Ok(work()))?;
    pb.finish_and_clear();
    if interrupt::requested() {
        let finished = done.iter().flatten().count();
        eprintln!(
            "interrupted: {finished} of {} runs finished; nothing written, {} keeps what it held; run the same command again to replay them all",
            pairs.len(),
            out.display()
        );
        return Err(interrupt::Interrupted.into());
    }
    let runs: Vec<Replayed<'_, E>> = done.into_iter().flatten().collect();
    say_raw!("{}", E::table(&runs, env_args));
    let broken = broken.into_inner().unwrap_or_else(|e| e.into_inner());
    if !broken.is_empty() {
        bail!(
            "{} run(s) broke schedule invariants (see above): {}",
            broken.len(),
            broken.join(", ")
        );
    }

    // Every output goes to the staging folder, then replaces the previous
    // run's all at once (experiment::outdir).
    let staging = Staging::begin(&out)?;
    let mut tables = E::write_tables(staging.dir(), &setup, &runs)?;
    // The outputs every environment shares, from one record per run.
    let record = |r: &Replayed<'_, E>, resources: bool| {
        E::record(
            Simulated {
                prepared: &prepared,
                args: env_args,
                scenario: r.scenario,
                heuristic: r.heuristic,
                run: &r.run,
            },
            resources,
        )
    };
    let records: Vec<Record> = runs.par_iter().map(|r| record(r, false)).collect();
    let log_name = setup.input.map_or("synthetic", |i| i.log.name.as_str());
    tables.extend(write_users::<E>(
        staging.dir(),
        log_name,
        &runs,
        &records,
        E::bsld_tau(env_args),
    )?);
    let mut exports = if args.export.is_empty() {
        Vec::new()
    } else {
        let to_export: Vec<export::ExportRun<'_>> = runs
            .par_iter()
            .map(|r| export::ExportRun {
                scenario: E::scenario_name(r.scenario),
                heuristic: E::heuristic_name(r.heuristic),
                record: record(r, true),
            })
            .collect();
        export::write(
            staging.dir(),
            &args.export,
            E::NAME,
            &E::workload_name(&setup),
            setup.input.map(|i| i.log),
            &to_export,
        )?
    };
    exports.extend(write_series::<E>(
        staging.dir(),
        &runs,
        &records,
        args.series_step,
    )?);
    tables.push("series");
    let names = heuristics
        .iter()
        .map(|h| E::heuristic_name(h).to_string())
        .collect();
    let base = ExperimentConfig::replay(E::NAME, names, &args.shared);
    let (config, layout) = E::replay_grid(&setup, base);
    let mut manifest = Manifest::new("replay", &config, &layout);
    manifest.log_paths = read
        .iter()
        .map(|(path, _)| path.display().to_string())
        .collect();
    manifest.log_sha256 = read
        .iter()
        .filter_map(|(_, log)| log.sha256.clone())
        .collect();
    manifest.cells_present = runs.len();
    manifest.files = tables
        .iter()
        .flat_map(|t| [format!("{t}.csv"), format!("{t}.parquet")])
        .chain(exports.iter().cloned())
        .collect();
    refuse_foreign_files(&out, earlier.as_ref())?;
    let stale = stale_files(&out, earlier.as_ref(), &manifest.files);
    staging.commit(&manifest, &stale)?;
    if !stale.is_empty() {
        eprintln!(
            "note: removed the tables of the earlier replay (--env {}) in {} that this one does not write: {}",
            earlier
                .as_ref()
                .map_or("", |m| m.config.environment.as_str()),
            out.display(),
            stale.join(", ")
        );
    }
    say!(
        "\nwrote {}/{{{}}}.{{csv,parquet}} and manifest.json{}",
        out.display(),
        tables.join(","),
        if check {
            "; schedule invariants hold for every run"
        } else {
            "; schedules not checked (--no-check)"
        }
    );
    for e in exports.iter().filter(|e| !e.ends_with(".svg")) {
        say!("wrote {}/{e}", out.display());
    }
    if interrupt::requested() {
        eprintln!(
            "interrupted while writing: the outputs above are complete in {}",
            out.display()
        );
        return Err(interrupt::Interrupted.into());
    }
    Ok(())
}
