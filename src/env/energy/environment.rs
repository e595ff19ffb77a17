//! Environment C behind the [`Environment`] trait: synthetic trials (no
//! log) or a workload written by `swftool synth energy`; the twelve
//! heuristics; the day's budget (given, or calibrated as the paper's §IV.D
//! does); the invariant checker, the run summary, the printed table with
//! its mean rows, and the `summary`, `tasks`, `hourly`, `machines`,
//! `filter` and `timing` tables.

use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;

use super::engine::{EnergyRun, simulate};
use super::params::{Budget, EnergyArgs};
use super::summary::{EnergySummary, summarize};
use super::tables::{self, RunRecord};
use super::workload::{self, SyntheticParams};
use super::{
    BUDGET_FRACTION, EnergyScenario, HEURISTICS, HeuristicInfo, Objective, Policy, RunConfig,
    StaticCounted,
};
use crate::contract::{
    EnvError, Environment, Input, LogUse, Registry, Replayed, Scenarios, Setup, Simulated, Written,
};
use crate::metrics::columns::SummaryColumn;
use crate::metrics::tables::write_all;
use crate::workload::WorkloadError;

/// Environment C: utility under a daily energy budget, queued or polled
/// (Khemka et al.; docs/energy.md).
pub struct Energy;

/// One run's input: a trial and how it is managed.
#[derive(Debug, Clone)]
pub struct EnergyCase {
    /// The trial (shared by the cases that differ only in management).
    pub scenario: Arc<EnergyScenario>,
    /// Management, filter, budget and drop threshold.
    pub config: RunConfig,
}

impl crate::workload::seeds::Seeded for EnergyCase {
    fn scenario_seed(&self) -> Option<u64> {
        Some(self.scenario.seed)
    }
}

/// How the day's budget was set.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum BudgetSource {
    /// No budget (`--budget none`).
    None,
    /// Given (`--budget J`), J.
    Given(f64),
    /// 0.7 × the mean energy of the day when Max UPT runs with no budget
    /// in the queued environment, over `trials` trials (Khemka et al.,
    /// §IV.D; the static energy drawn all day included).
    Calibrated {
        /// The trials it was computed over.
        trials: usize,
        /// The mean energy of an unconstrained day, J.
        mean_energy_j: f64,
        /// The budget, J.
        budget_j: f64,
    },
}

impl BudgetSource {
    /// The budget, J (`None`: no budget).
    pub fn joules(&self) -> Option<f64> {
        match *self {
            BudgetSource::None => None,
            BudgetSource::Given(j) => Some(j),
            BudgetSource::Calibrated { budget_j, .. } => Some(budget_j),
        }
    }

    /// One line for the printed header.
    pub fn describe(&self) -> String {
        match *self {
            BudgetSource::None => "none (--budget none)".into(),
            BudgetSource::Given(j) => format!("{:.4} GJ a day (--budget)", j / 1e9),
            BudgetSource::Calibrated {
                trials,
                mean_energy_j,
                budget_j,
            } => format!(
                "{:.4} GJ a day = 0.7 × {:.4} GJ, the mean energy of the day with Max UPT and no budget (queued) over {trials} trial(s) (Khemka et al. §IV.D: 1.11 GJ)",
                budget_j / 1e9,
                mean_energy_j / 1e9
            ),
        }
    }
}

/// Where the trials of a replay came from and the budget they share.
#[derive(Debug, Clone)]
pub struct EnergySource {
    /// The workload's parameters (`None`: a written workload).
    pub params: Option<SyntheticParams>,
    /// A written workload's file.
    pub file: Option<std::path::PathBuf>,
    /// The budget.
    pub budget: BudgetSource,
}

/// The budget of `scenarios` under `budget` as given: none, the joules
/// given, or (not given) calibrated on them: 0.7 × the mean energy of the
/// day (static energy drawn all day included, per `config`) when Max UPT
/// runs in the queued environment with no budget and no filter (Khemka et
/// al., §IV.D), the runs in parallel. Only `config`'s drop threshold and
/// static power are used.
pub fn budget_for(
    scenarios: &[Arc<EnergyScenario>],
    budget: Option<Budget>,
    config: &RunConfig,
) -> BudgetSource {
    match budget {
        Some(Budget::None) => BudgetSource::None,
        Some(Budget::Joules(j)) => BudgetSource::Given(j),
        None => {
            let energies: Vec<f64> = scenarios
                .par_iter()
                .map(|s| calibration_energy(s, config))
                .collect();
            calibrated(&energies)
        }
    }
}

/// The energy of the day when Max UPT runs `s` in the queued environment
/// with no budget and no filter, J: the tasks' energy plus the static
/// energy drawn all day (`config`'s drop threshold and static power; one
/// calibration run of the paper's §IV.D).
pub fn calibration_energy(s: &EnergyScenario, config: &RunConfig) -> f64 {
    let config = RunConfig {
        drop_threshold: config.drop_threshold,
        static_all_day_w: config.static_all_day_w,
        ..RunConfig::default()
    };
    let run = simulate(s, Policy::MinMin(Objective::Upt), &config);
    run.energy + run.static_j
}

/// The budget of calibration runs that used `energies` (J): 0.7 × their
/// mean.
pub fn calibrated(energies: &[f64]) -> BudgetSource {
    let mean = energies.iter().sum::<f64>() / energies.len().max(1) as f64;
    BudgetSource::Calibrated {
        trials: energies.len(),
        mean_energy_j: mean,
        budget_j: BUDGET_FRACTION * mean,
    }
}

/// Refuses a budget that is not above `floor`, the static energy (J) the
/// machines draw all day at `static_w` W each: the tasks would get no
/// energy at all. A calibrated budget falls there when the tasks use
/// little energy (a light workload): 0.7 × (static + tasks) ≤ static.
///
/// # Errors
/// [`EnvError::Workload`] naming `--budget` and what to give instead.
pub fn budget_leaves_energy(
    budget: &BudgetSource,
    floor: f64,
    static_w: f64,
) -> Result<(), EnvError> {
    let Some(e) = budget.joules() else {
        return Ok(());
    };
    if e > floor {
        return Ok(());
    }
    let what = match budget {
        BudgetSource::Calibrated { .. } => {
            format!("the calibrated budget, {}, is", budget.describe())
        }
        _ => format!("{:.4} GJ is", e / 1e9),
    };
    Err(refuse(
        "--budget",
        format!(
            "{what} not above the {:.4} GJ of static power the machines draw all day ({static_w} W each, --static-counted all-day), so the tasks would get no energy; give a larger --budget, or --static-counted while-busy",
            floor / 1e9
        ),
    ))
}

/// `s` with `watts` of static power counted in every APC (W;
/// [`EnergyArgs::apc_static_w`], docs/energy.md "What the budget
/// counts").
pub fn with_static_power(mut s: EnergyScenario, watts: f64) -> EnergyScenario {
    s.matrices.set_static_power(watts);
    s
}

fn refuse(flag: &'static str, why: String) -> EnvError {
    EnvError::Workload(WorkloadError::Parameter {
        flag,
        value: String::new(),
        reason: why,
    })
}

impl Environment for Energy {
    const NAME: &'static str = "energy";
    const TITLE: &'static str = "Environment C (utility under a daily energy budget, P-states, queued or polled; Khemka et al. 2015)";
    const LOG: LogUse = LogUse::Synthetic;
    const SHARED: &'static [&'static str] = &["--seed", "--trial", "--trials", "--theta"];
    // The columns that name a run and group the mean rows.
    const RUN_KEYS: &'static [&'static str] = &["scenario", "heuristic"];
    const MEAN_KEYS: &'static [&'static str] = &["heuristic", "management", "filter"];

    type Policy = Policy;
    const REGISTRY: Registry<Policy> = HEURISTICS;
    type Heuristic = &'static HeuristicInfo;

    type Args = EnergyArgs;

    fn check_args(args: &EnergyArgs, log: bool) -> Result<(), EnvError> {
        if !log {
            args.synthetic().validate()?;
        }
        Ok(())
    }

    fn synth_command() -> Option<clap::Command> {
        use super::synth_file::{ABOUT, EXAMPLES};
        use clap::Args as _;
        // The about after the flags, whose doc comment clap reads as one.
        let flags = super::params::EnergySynthArgs::augment_args(clap::Command::new(Self::NAME));
        Some(flags.about(ABOUT).long_about(None).after_help(EXAMPLES))
    }

    fn synth(matches: &clap::ArgMatches) -> Result<String, EnvError> {
        use clap::FromArgMatches as _;
        let args = super::params::EnergySynthArgs::from_arg_matches(matches)
            .map_err(|e| EnvError::Refused(Box::new(e)))?;
        Ok(super::synth_file::synth(&args)?)
    }

    type Prepared = EnergySource;
    type Scenario = EnergyCase;

    fn scenarios(input: Option<Input<'_>>, args: &EnergyArgs) -> Scenarios<Self> {
        if args.filter.is_some_and(|f| f != super::Filter::None)
            && args.budget == Some(Budget::None)
        {
            return Err(refuse(
                "--filter",
                "the energy filter shares out a budget; with --budget none there is none to share (give --filter none, or a budget)".into(),
            ));
        }
        let watts = args.apc_static_w();
        let (params, file, scenarios) = match input {
            None => {
                let params = args.synthetic();
                let scenarios = args
                    .shared
                    .trial_list()
                    .into_par_iter()
                    .map(|trial| {
                        workload::synthetic(&params, args.shared.seed(), trial)
                            .map(|s| Arc::new(with_static_power(s, watts)))
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(EnvError::Workload)?;
                (Some(params), None, scenarios)
            }
            Some(Input { path, .. }) => {
                if let Some(flag) = args.workload_flags().first() {
                    return Err(refuse(
                        flag,
                        format!(
                            "does not apply to {}: a workload written by swftool synth energy carries its own tasks, trial seed and mapping interval",
                            path.display()
                        ),
                    ));
                }
                let s = super::synth_file::read_synthetic(path)
                    .map_err(EnvError::Workload)?
                    .ok_or_else(|| {
                        refuse(
                            "LOG",
                            format!(
                                "{} is not a workload written by swftool synth energy (its header names no generator); environment C runs its synthetic trials (no LOG) or such a file",
                                path.display()
                            ),
                        )
                    })?;
                (
                    None,
                    Some(path.to_path_buf()),
                    vec![Arc::new(with_static_power(s, watts))],
                )
            }
        };
        let budget = budget_for(&scenarios, args.budget, &args.run_config(None));
        let config = args.run_config(budget.joules());
        if let Some(s) = scenarios.first() {
            budget_leaves_energy(&budget, config.static_energy(s), config.static_all_day_w)?;
        }
        let cases = scenarios
            .into_iter()
            .map(|scenario| EnergyCase {
                scenario: scenario.clone(),
                config,
            })
            .collect();
        Ok((
            EnergySource {
                params,
                file,
                budget,
            },
            cases,
        ))
    }

    fn describe(r: &Setup<'_, Self>) -> String {
        let (source, cases, args) = (r.prepared, r.scenarios, r.args);
        let mut out = String::new();
        match (&source.params, &source.file) {
            (Some(p), _) => out.push_str(&format!(
                "workload synthetic (Khemka et al. §IV): seed {}, {:.0} tasks a day over 100 task types (17 special), priorities 8/4/2/1, 4 urgencies, 20 classes, {}\n",
                args.shared.seed(),
                p.tasks_per_day,
                crate::model::utility::theta_label(p.theta_s)
            )),
            (None, Some(f)) => out.push_str(&format!(
                "workload {} (written by swftool synth energy)\n",
                f.display()
            )),
            (None, None) => {}
        }
        out.push_str("system   100 machines in 13 types (4 special: 2, 2, 3, 3), 3 P-states; ETC and APC drawn per trial\n");
        let watts = args.static_power_w();
        out.push_str(&match (args.static_counted(), cases.first()) {
            (StaticCounted::AllDay, Some(c)) => format!(
                "energy   machines never off: {watts} W static each all day ({:.4} GJ in the day, inside E, outside every choice); APC, EEC, filter and Max UPE see the dynamic power a task adds (--static-counted all-day)\n",
                c.config.static_energy(&c.scenario) / 1e9
            ),
            (StaticCounted::AllDay, None) => String::new(),
            (StaticCounted::WhileBusy, _) => format!(
                "energy   APC = {watts} W static + dynamic while a task runs; idle machines draw nothing (--static-counted while-busy)\n"
            ),
        });
        if let Some(c) = cases.first() {
            let c = c.config;
            out.push_str(&format!(
                "setup    {} management, filter {}, drop below {} utility, mapping every {:.0} s\n",
                c.management.name(),
                c.filter,
                c.drop_threshold,
                cases[0].scenario.event_interval
            ));
        }
        out.push_str(&format!("budget   {}\n", source.budget.describe()));
        for c in cases.iter().take(4) {
            let s = &c.scenario;
            let counted = (0..s.tasks.len()).filter(|&i| s.counted(i)).count();
            out.push_str(&format!(
                "scenario {}: {} tasks ({} in the counted 24 h, {} in the 2 h warm-up)\n",
                s.name,
                s.tasks.len(),
                counted,
                s.tasks.len() - counted
            ));
        }
        if cases.len() > 4 {
            out.push_str(&format!("         … {} scenarios in all\n", cases.len()));
        }
        out.push_str("utility  the 20 classes are swftool's construction after Khemka et al. (TC 2015); docs/utility.md\n");
        out
    }

    fn scenario_name(c: &EnergyCase) -> String {
        format!(
            "{} ({}, filter {})",
            c.scenario.name,
            c.config.management.name(),
            c.config.filter
        )
    }

    type Run = EnergyRun;

    fn simulate(c: &EnergyCase, h: &Self::Heuristic) -> EnergyRun {
        simulate(&c.scenario, h.policy, &c.config)
    }

    fn check(c: &EnergyCase, run: &EnergyRun) -> Vec<String> {
        super::check::check(&c.scenario, run, c.config.management)
    }

    fn record(r: Simulated<'_, Self>, _resources: bool) -> crate::output::Record {
        super::record::record(&r.scenario.scenario, r.run)
    }

    type Summary = EnergySummary;

    fn summarize(r: Simulated<'_, Self>) -> EnergySummary {
        let case = r.scenario;
        summarize(&case.scenario, r.heuristic.name, &case.config, r.run)
    }

    fn summary_columns() -> Vec<SummaryColumn<EnergySummary>> {
        tables::summary_columns()
    }

    fn write_tables(dir: &Path, _: &Setup<'_, Self>, runs: &[Replayed<'_, Self>]) -> Written {
        let records: Vec<RunRecord<'_>> = runs.iter().map(record).collect();
        let summaries: Vec<&EnergySummary> = runs.iter().map(|r| &r.summary).collect();
        let wall: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        write_all(
            dir,
            vec![
                ("summary", Self::summary_frame(&summaries)),
                ("jobs", tables::jobs_frame(&records)),
                ("hourly", tables::hourly_frame(&summaries)),
                ("machines", tables::machines_frame(&records)),
                ("filter", tables::filter_frame(&records)),
                ("timing", tables::timing_frame(&records, &wall)),
            ],
        )
    }

    fn workload_name(r: &Setup<'_, Self>) -> String {
        r.prepared
            .file
            .as_ref()
            .and_then(|p| p.file_stem())
            .map_or("synthetic".into(), |s| s.to_string_lossy().into_owned())
    }
}

/// A replayed run as the tables read it.
fn record<'a>(r: &'a Replayed<'_, Energy>) -> RunRecord<'a> {
    RunRecord {
        scenario: &r.scenario.scenario,
        config: &r.scenario.config,
        run: &r.run,
        summary: &r.summary,
    }
}

#[cfg(test)]
mod tests {
    //! The engine's kept state against its from-scratch reference (here,
    //! where the calibrated budget is at hand).
    use std::sync::Arc;

    use super::budget_for;
    use crate::env::energy::engine::{EnergyRun, simulate, simulate_from_scratch};
    use crate::env::energy::params::EnergyArgs;
    use crate::env::energy::workload::{SyntheticParams, synthetic};
    use crate::env::energy::{EnergyScenario, RunConfig};
    use crate::env::energy::{Filter, HEURISTICS, Management};

    /// A run as text, its wall-clock times left out: every figure to the
    /// last bit (floats print in their shortest exact form).
    fn fingerprint(run: &EnergyRun) -> String {
        format!(
            "{:?}",
            EnergyRun {
                heuristic_seconds: (0.0, 0.0),
                ..run.clone()
            }
        )
    }

    /// Every heuristic's run of `s` under `cfg`, each checked equal to the
    /// rules evaluated from scratch (`what` names the case in a failure).
    fn same_as_from_scratch(s: &EnergyScenario, cfg: &RunConfig, what: &str) -> Vec<EnergyRun> {
        HEURISTICS
            .iter()
            .map(|h| {
                let run = simulate(s, h.policy, cfg);
                let reference = simulate_from_scratch(s, h.policy, cfg);
                assert!(
                    fingerprint(&run) == fingerprint(&reference),
                    "{} {} {} {what}: the runs differ",
                    h.name,
                    cfg.management.name(),
                    cfg.filter
                );
                run
            })
            .collect()
    }

    /// Every heuristic in every management setting, under the calibrated
    /// budget and a tighter one (so that the budget runs out and the
    /// shortcuts after the first refusal are taken), gives exactly the run
    /// of the rules evaluated from scratch at every event.
    #[test]
    fn the_state_kept_across_events_gives_the_from_scratch_runs() {
        let params = SyntheticParams {
            tasks_per_day: 4000.0,
            ..SyntheticParams::default()
        };
        let s = Arc::new(synthetic(&params, 9, 0).expect("trial"));
        let base = EnergyArgs::default().run_config(None);
        let budget = budget_for(std::slice::from_ref(&s), None, &base)
            .joules()
            .expect("a calibrated budget");
        let mut exhausted = 0;
        for fraction in [1.0, 0.6] {
            for management in Management::ALL {
                for filter in [Filter::None, Filter::Adaptive, Filter::Fixed(1.5)] {
                    let cfg = RunConfig {
                        management,
                        filter,
                        budget: Some(budget * fraction),
                        ..base
                    };
                    for run in same_as_from_scratch(&s, &cfg, &format!("× {fraction}")) {
                        exhausted += usize::from(run.exhausted_at.is_some());
                    }
                }
            }
        }
        assert!(
            exhausted > 24,
            "the budget ran out in {exhausted} runs only"
        );
    }

    /// The same under a load the machines cannot keep up with (most tasks
    /// wait until they are late on every machine type), where the
    /// heuristics skip the tasks that are late everywhere without trying
    /// each machine type: every heuristic in both environments, without
    /// and with the adaptive filter, under the calibrated budget.
    #[test]
    fn the_shortcuts_for_late_tasks_give_the_from_scratch_runs() {
        let params = SyntheticParams {
            tasks_per_day: 24000.0,
            ..SyntheticParams::default()
        };
        let s = Arc::new(synthetic(&params, 10, 0).expect("trial"));
        let base = EnergyArgs::default().run_config(None);
        let budget = budget_for(std::slice::from_ref(&s), None, &base).joules();
        let mut dropped = 0;
        for management in Management::ALL {
            for filter in [Filter::None, Filter::Adaptive] {
                let cfg = RunConfig {
                    management,
                    filter,
                    budget,
                    ..base
                };
                for run in same_as_from_scratch(&s, &cfg, "oversubscribed") {
                    dropped += run.events.iter().map(|e| e.dropped).sum::<u32>();
                }
            }
        }
        // Oversubscribed: tasks were dropped, thousands per run.
        assert!(dropped > 48 * 1000, "{dropped} tasks dropped in all");
    }
}
