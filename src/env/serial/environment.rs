//! Environment B behind the [`Environment`] trait: synthetic trials (no
//! log), a workload written by `swftool synth serial` (a log with its
//! sidecar table), or days of any SWF log as serial workloads; the ten
//! heuristics, the invariant checker, the run summary, the printed table
//! with its mean rows, and the `summary`, `jobs`, `pieces` and `timing`
//! tables.

use std::path::{Path, PathBuf};

use super::params::SerialArgs;
use super::summary::{SerialSummary, summarize};
use super::tables::{self, RunRecord};
use super::workload::{self, LogParams, SyntheticParams};
use super::{HEURISTICS, HeuristicInfo, Policy, SerialArgsError, SerialRun, SerialScenario};
use crate::contract::{
    EnvError, Environment, Input, LogUse, Registry, Replayed, Scenarios, Setup, Simulated, Written,
};
use crate::metrics::columns::SummaryColumn;
use crate::metrics::tables::write_all;
use crate::workload::{DayPick, pick_days};
use crate::workload::{DayWindow, Workload};

/// Environment B: serial tasks, utility functions and preemption
/// (Machovec et al. 2017; docs/serial.md).
pub struct Serial;

/// Where the scenarios of a replay came from.
#[derive(Debug, Clone)]
pub enum SerialSource {
    /// Synthetic trials generated from these parameters.
    Synthetic(SyntheticParams),
    /// A workload written by `swftool synth serial`, read back.
    File(PathBuf),
    /// Days of a log, each job one serial task.
    Log {
        /// The log prepared as in environment A.
        workload: Box<Workload>,
        /// How its jobs became serial tasks.
        params: LogParams,
        /// The days replayed.
        days: Vec<DayWindow>,
    },
}

impl Environment for Serial {
    const NAME: &'static str = "serial";
    const TITLE: &'static str =
        "Environment B (serial tasks, utility functions, preemption; Machovec et al. 2017)";
    const LOG: LogUse = LogUse::Optional;
    const SHARED: &'static [&'static str] = &[
        "--seed",
        "--day",
        "--days",
        "--day-arrivals",
        "--trial",
        "--trials",
        "--theta",
    ];
    // The columns that name a run and group the mean rows.
    const RUN_KEYS: &'static [&'static str] = &["scenario", "heuristic"];

    type Policy = Policy;
    const REGISTRY: Registry<Policy> = HEURISTICS;
    type Heuristic = &'static HeuristicInfo;

    type Args = SerialArgs;

    fn check_args(args: &SerialArgs, log: bool) -> Result<(), EnvError> {
        if let Some(&flag) = args.misplaced(log).first() {
            return Err(SerialArgsError::Misplaced { flag, log }.into());
        }
        if log {
            args.log_params().validate()?;
        } else {
            args.synthetic().validate()?;
        }
        Ok(())
    }

    fn synth_command() -> Option<clap::Command> {
        use super::synth_file::{ABOUT, EXAMPLES};
        use clap::Args as _;
        // The about after the flags, whose doc comment clap reads as one.
        let flags = super::params::SerialSynthArgs::augment_args(clap::Command::new(Self::NAME));
        Some(flags.about(ABOUT).long_about(None).after_help(EXAMPLES))
    }

    fn synth(matches: &clap::ArgMatches) -> Result<String, EnvError> {
        use clap::FromArgMatches as _;
        let args = super::params::SerialSynthArgs::from_arg_matches(matches)
            .map_err(|e| EnvError::Refused(Box::new(e)))?;
        Ok(super::synth_file::synth(&args)?)
    }

    type Prepared = SerialSource;
    type Scenario = SerialScenario;

    fn scenarios(input: Option<Input<'_>>, args: &SerialArgs) -> Scenarios<Self> {
        if let Some(flag) = args.misplaced(input.is_some()).first() {
            return Err(SerialArgsError::Misplaced {
                flag,
                log: input.is_some(),
            }
            .into());
        }
        let Some(Input { log, path }) = input else {
            let params = args.synthetic();
            let scenarios = args
                .shared
                .trial_list()
                .into_iter()
                .map(|trial| workload::synthetic(&params, args.shared.seed(), trial))
                .collect::<Result<_, _>>()
                .map_err(SerialArgsError::Workload)?;
            return Ok((SerialSource::Synthetic(params), scenarios));
        };
        super::synth_file::check_sidecar(path, &log.header).map_err(SerialArgsError::Workload)?;
        if let Some(s) =
            super::synth_file::read_synthetic(path).map_err(SerialArgsError::Workload)?
        {
            let given: Vec<&str> = args
                .given()
                .into_iter()
                .filter(|f| *f != "--seed")
                .collect();
            if let Some(flag) = given
                .first()
                .copied()
                .or(args.shared.seed.map(|_| "--seed"))
            {
                return Err(SerialArgsError::Written {
                    flag,
                    file: path.display().to_string(),
                }
                .into());
            }
            return Ok((SerialSource::File(path.to_path_buf()), vec![s]));
        }
        let w = Workload::from_log(log);
        let pick = match args.shared.days {
            Some(n) => DayPick::Count(n),
            None => DayPick::One(args.shared.day.as_deref()),
        };
        let (_, days) = pick_days(&w, pick, args.shared.day_arrivals.unwrap_or_default())?;
        let params = args.log_params();
        let scenarios = days
            .iter()
            .map(|d| workload::from_day(&w, d, &params, args.shared.seed()))
            .collect::<Result<_, _>>()
            .map_err(SerialArgsError::Workload)?;
        Ok((
            SerialSource::Log {
                workload: Box::new(w),
                params,
                days,
            },
            scenarios,
        ))
    }

    fn describe(r: &Setup<'_, Self>) -> String {
        let (input, source, scenarios, args) = (r.input, r.prepared, r.scenarios, r.args);
        let mut out = String::new();
        match source {
            SerialSource::Synthetic(p) => out.push_str(&format!(
                "workload synthetic (Machovec et al. 2017, §IV): seed {}, {} types ({} critical, mean ETC {:.0} / {:.0} min), bursts of {} on average, utility {}, flag probability {}, {}\n",
                args.shared.seed(),
                p.types,
                p.critical_types,
                p.critical_etc_s / 60.0,
                p.noncritical_etc_s / 60.0,
                p.burst_size,
                p.shape,
                p.flag_probability,
                crate::model::utility::theta_label(p.theta_s)
            )),
            SerialSource::File(path) => out.push_str(&format!(
                "workload {} (written by swftool synth serial; tasks, utilities and flags from its sidecar table)\n",
                path.display()
            )),
            SerialSource::Log { workload, params, .. } => out.push_str(&format!(
                "log      {}{} ({} jobs; {} usable, each one serial task)\nsetup    seed {}, load {}, utility {}, flag probability {}, 20 % critical\n",
                workload.name,
                workload.known.map(|k| format!(", {k}")).unwrap_or_default(),
                input.map_or(0, |i| i.log.jobs.len()),
                workload.jobs.len(),
                args.shared.seed(),
                params.load,
                params.shape,
                params.flag_probability
            )),
        }
        for s in scenarios.iter().take(4) {
            let counted = (0..s.tasks.len()).filter(|&i| s.counted(i)).count();
            out.push_str(&format!(
                "scenario {}: {} tasks ({} counted, {} in the 4 h warm-up), {} cores in {} clusters ({})\n",
                s.name,
                s.tasks.len(),
                counted,
                s.tasks.len() - counted,
                s.total_cores(),
                s.cores.len(),
                s.cores
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if scenarios.len() > 4 {
            out.push_str(&format!(
                "         … {} scenarios in all\n",
                scenarios.len()
            ));
        }
        out.push_str("utility  the 20 classes are swftool's construction after Khemka et al. (TC 2015); docs/utility.md\n");
        out
    }

    fn scenario_name(s: &SerialScenario) -> String {
        s.name.clone()
    }

    type Run = SerialRun;

    fn simulate(s: &SerialScenario, h: &Self::Heuristic) -> SerialRun {
        super::simulate(s, h.policy)
    }

    fn check(s: &SerialScenario, run: &SerialRun) -> Vec<String> {
        super::check::check(s, run)
    }

    fn record(r: Simulated<'_, Self>, resources: bool) -> crate::output::Record {
        super::record::record(r.scenario, r.run, resources)
    }

    type Summary = SerialSummary;

    fn summarize(r: Simulated<'_, Self>) -> SerialSummary {
        summarize(r.scenario, r.heuristic.name, r.run)
    }

    fn summary_columns() -> Vec<SummaryColumn<SerialSummary>> {
        tables::summary_columns()
    }

    fn write_tables(dir: &Path, _: &Setup<'_, Self>, runs: &[Replayed<'_, Self>]) -> Written {
        let records: Vec<RunRecord<'_>> = runs.iter().map(record).collect();
        let wall: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        write_all(
            dir,
            vec![
                ("summary", Self::summary_table(runs)),
                ("jobs", tables::jobs_frame(&records)),
                ("pieces", tables::pieces_frame(&records)),
                ("timing", tables::timing_frame(&records, &wall)),
            ],
        )
    }

    fn workload_name(r: &Setup<'_, Self>) -> String {
        match r.prepared {
            SerialSource::Log { workload, .. } => {
                crate::metrics::batsim::workload_name(&workload.name)
            }
            SerialSource::File(p) => p
                .file_stem()
                .map_or("synthetic".into(), |s| s.to_string_lossy().into_owned()),
            SerialSource::Synthetic(_) => "synthetic".into(),
        }
    }
}

/// A replayed run as the tables read it.
fn record<'a>(r: &'a Replayed<'_, Serial>) -> RunRecord<'a> {
    RunRecord {
        scenario: r.scenario,
        heuristic: r.heuristic.name,
        run: &r.run,
        summary: &r.summary,
    }
}
