//! Environment A behind the [`Environment`] trait: days of a log as
//! scenarios, the seven heuristics, the invariant checker, the run summary,
//! the printed table with its mean rows, and the `jobs`, `summary` and
//! `timing` tables.

use std::path::Path;

use super::check as invariants;
use super::params::{ParallelArgs, check_system_size};
use super::summary::{RunSummary, summarize};
use super::tables;
use super::{Build, HEURISTICS, HeuristicInfo, RunResult, simulate};
use crate::contract::{
    EnvError, Environment, Input, LogUse, Registry, Replayed, Scenarios, Setup, Simulated, Written,
};
use crate::metrics::columns::SummaryColumn;
use crate::metrics::tables::write_all;
use crate::workload::days::CURIE_PAPER_TOTALS;
use crate::workload::{DayPick, STANDARD_DAYS, pick_days};
use crate::workload::{DaySet, DayTotals, DayWindow, Scenario, Workload};

/// Environment A: value-based scheduling on heterogeneous parallel clusters
/// (Khemka et al. 2015; docs/parallel.md).
pub struct Parallel;

impl Environment for Parallel {
    const NAME: &'static str = "parallel";
    const TITLE: &'static str =
        "Environment A (heterogeneous parallel clusters, value-based; Khemka et al. 2015)";
    const LOG: LogUse = LogUse::Required;
    const SHARED: &'static [&'static str] = &["--seed", "--day", "--days", "--day-arrivals"];
    // The columns that name a run and group the mean rows.
    const RUN_KEYS: &'static [&'static str] = &["date", "heuristic"];

    type Policy = Build;
    const REGISTRY: Registry<Build> = HEURISTICS;
    type Heuristic = &'static HeuristicInfo;

    type Args = ParallelArgs;

    type Prepared = Workload;
    type Scenario = Scenario;

    fn scenarios(input: Option<Input<'_>>, args: &ParallelArgs) -> Scenarios<Self> {
        let log = input.ok_or(EnvError::NoLog(Self::NAME))?.log;
        let w = Workload::from_log(log);
        let pick = match args.shared.days {
            Some(n) => DayPick::Count(n),
            None => DayPick::One(args.shared.day.as_deref()),
        };
        let (_, days) = pick_days(&w, pick, args.shared.day_arrivals.unwrap_or_default())?;
        let params = args.scenario_params();
        check_system_size(&w, &params)?;
        let scenarios = days
            .iter()
            .map(|d| {
                Scenario::build(&w, d, params, args.shared.seed()).map_err(|source| {
                    EnvError::Scenario {
                        log: w.name.clone(),
                        date: d.date.clone(),
                        source,
                    }
                })
            })
            .collect::<Result<_, _>>()?;
        Ok((w, scenarios))
    }

    fn describe(r: &Setup<'_, Self>) -> String {
        let (input, w, scenarios, args) = (r.input, r.prepared, r.scenarios, r.args);
        let jobs = input.map_or(0, |i| i.log.jobs.len());
        let params = args.scenario_params();
        let mut out = format!(
            "log      {}{} ({} jobs; {} usable in environment A, {} filtered out)\n",
            w.name,
            w.known.map(|k| format!(", {k}")).unwrap_or_default(),
            jobs,
            w.jobs.len(),
            w.filter.input - w.filter.kept
        );
        let base = params.cores_base.unwrap_or(w.max_procs);
        out.push_str(&format!(
            "setup    seed {}, oversubscription {} ({:.0} % of {:.0} cores{}), correlation {}, heterogeneity {}\n",
            args.shared.seed(),
            params.oversubscription,
            100.0 * params.oversubscription.fraction(),
            base,
            if params.cores_base.is_some() {
                ", --cores-base"
            } else {
                " MaxProcs"
            },
            params.correlation,
            params.heterogeneity,
        ));
        let set = w.day_set(args.shared.day_arrivals.unwrap_or_default());
        let days: Vec<_> = scenarios.iter().map(|s| s.day.clone()).collect();
        match scenarios {
            [s] => {
                out.push_str(&format!(
                    "day      {} ({} arrivals; {} tasks counted, {} in the 4 h warm-up)\n",
                    s.day.date,
                    s.day.arrivals,
                    s.counted(),
                    s.tasks.len() - s.counted()
                ));
                out.push_str(&day_set_lines(w, &set, &days));
                out.push_str(&format!(
                    "system   {} clusters, {} cores (target {:.1}, drawn {}): {}\n",
                    s.system.clusters.len(),
                    s.system.total_cores(),
                    s.target_cores,
                    s.drawn_cores,
                    s.system
                        .clusters
                        .iter()
                        .map(|c| format!(
                            "{} x {}",
                            crate::words::count(c.nodes, "node", "nodes"),
                            crate::words::count(c.cores_per_node, "core", "cores")
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            [first, .., last] => {
                out.push_str(&format!(
                    "days     {} days from {} to {}\n",
                    scenarios.len(),
                    first.day.date,
                    last.day.date
                ));
                out.push_str(&day_set_lines(w, &set, &days));
                let cores = scenarios.iter().map(|s| s.system.total_cores());
                out.push_str(&format!(
                    "systems  {} cores (target {:.1})\n",
                    crate::words::range(cores.clone().min().unwrap_or(0), cores.max().unwrap_or(0)),
                    scenarios[0].target_cores
                ));
            }
            [] => {}
        }
        let wide: usize = scenarios.iter().map(Scenario::too_wide).sum();
        if wide > 0 {
            let counted: usize = scenarios.iter().map(Scenario::counted).sum();
            out.push_str(&format!(
                "note     {wide} of {counted} counted tasks are wider than every cluster: they earn nothing and are dropped (column tasks_too_wide)\n"
            ));
        }
        out
    }

    fn scenario_name(s: &Scenario) -> String {
        s.day.date.clone()
    }

    type Run = RunResult;

    fn simulate(s: &Scenario, h: &Self::Heuristic) -> RunResult {
        let mut heuristic = h.build(s);
        simulate(s, heuristic.as_mut())
    }

    fn check(s: &Scenario, run: &RunResult) -> Vec<String> {
        invariants::check(s, run)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn record(r: Simulated<'_, Self>, resources: bool) -> crate::output::Record {
        super::record::record(r.scenario, r.run, resources)
    }

    type Summary = RunSummary;

    fn summarize(r: Simulated<'_, Self>) -> RunSummary {
        let seed = r.args.shared.seed();
        summarize(&r.prepared.name, r.heuristic.name, seed, r.scenario, r.run)
    }

    fn summary_columns() -> Vec<SummaryColumn<RunSummary>> {
        tables::summary_columns()
    }

    fn write_tables(dir: &Path, _: &Setup<'_, Self>, runs: &[Replayed<'_, Self>]) -> Written {
        let runs = runs.iter().map(|r| (r.scenario, &r.run, &r.summary));
        write_all(dir, tables::replay_tables(runs))
    }
}

/// The lines that say which days were chosen and their totals, beside the
/// paper's for Curie (Khemka et al. 2015, §5).
pub fn day_set_lines(w: &Workload, set: &DaySet, days: &[DayWindow]) -> String {
    if let [day] = days {
        let standard = set.select(STANDARD_DAYS);
        let which = match standard.iter().position(|d| d == day) {
            Some(i) => format!("standard day {i} of {}", standard.len()),
            None => "not a standard day".to_string(),
        };
        return format!(
            "         {which}; the standard days are taken from the {} candidate days with {}–{} arrivals ({})\n",
            set.eligible.len(),
            set.min,
            set.max,
            set.source
        );
    }
    let t = DayTotals::of(days);
    let mut out = format!("         {}\n", set.describe(days.len()));
    out.push_str(&format!(
        "         these days: {} arrivals, {} usable tasks, {} wider than 4,096 cores ({:.2} %)\n",
        t.arrivals,
        t.tasks,
        t.wide,
        t.wide_percent()
    ));
    if w.is_curie {
        let p = CURIE_PAPER_TOTALS;
        out.push_str(&format!(
            "         paper (Khemka et al. 2015, §5): {} days, {} tasks, {} wider than 4,096 cores ({:.2} %)\n",
            p.days,
            p.arrivals,
            p.wide,
            p.wide_percent()
        ));
    }
    out
}
