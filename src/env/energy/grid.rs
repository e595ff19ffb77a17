//! Environment C on the grid runner ([`Grid`]): synthetic trials (a grid
//! without logs), the task management environment and the energy filter as
//! variants ([`EnergyVariant`]), the day's budget calibrated once over the
//! grid's trials (Khemka et al., §IV.D) unless the configuration gives one,
//! cell files with the run summary; the `runs`, `aggregate`, `hourly` and
//! `timing` tables, `aggregate.md` and the paper's figures: total utility
//! (Fig. 4), % of the maximum for priorities 1 and 8 (Fig. 5), cumulative
//! utility of Max Utility over the day (Fig. 6), and cumulative energy of
//! Max Utility against the budget.

use crate::workload::flags::SharedArgs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use polars::prelude::*;
use serde::{Deserialize, Serialize};

use super::WINDOW_SECONDS;
use super::environment::{
    Energy, EnergyCase, EnergySource, budget_for, budget_leaves_energy, calibrated,
    calibration_energy, with_static_power,
};
use super::matrices::{MACHINES_PER_TYPE, MAX_STATIC_POWER_W};
use super::params::{Budget, EnergyArgs};
use super::summary::{EnergySummary, HOURS, summarize};
use super::tables::summary_columns;
use super::{EnergyVariant, Filter, HEURISTICS, Management, workload};
use crate::contract::{EnvError, Environment, Setup, Simulated};
use crate::experiment::ExperimentError;
use crate::experiment::config::{ConfigError, ExperimentConfig};
use crate::experiment::grid::{
    CellSpec, DayLayout, Grid, GridReport, GridSetup, LaidOut, Layout, LogLayout, Plan, ReportTo,
};
use crate::experiment::grid::{Preset, VariantRecord};
use crate::experiment::report::{Metrics, write_compare, write_runs_report};
use crate::metrics::aggregate::{
    Stat, f64_column, mean_ci, n_column, pm, stat_column, str_column, timing_table,
};
use crate::metrics::columns;
use crate::metrics::columns::GridTables;
use crate::report::bars::{Bar, BarChart, BarSeries};
use crate::report::lines::{LineChart, LineSeries, Reference};
use crate::report::{self, Figure};
use crate::swf::SwfLog;

/// The key of the pseudo-log of a grid of synthetic trials.
pub use crate::experiment::grid::SYNTHETIC_KEY;

/// The heuristic of the cumulative figures (Khemka et al., Fig. 6), when
/// in the grid (else the grid's first).
pub const TRACE_HEURISTIC: &str = "maxutil";

/// Trials of the `khemka2015-energy` preset (Khemka et al., §V: 48).
pub const ENERGY_TRIALS: u64 = 48;

/// Environment C's own keys of an experiment configuration.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EnergySection {
    /// The task management environments of the grid (`["queued",
    /// "polled"]`; default the `[energy]` one).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub energy_managements: Vec<Management>,
    /// The energy filters of the grid (`["none", "adaptive"]`,
    /// `"fixed:λ"`; default the `[energy]` one).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub energy_filters: Vec<Filter>,
    /// `[energy]`: the flags of `replay --env energy` without the dashes,
    /// `-` as `_`.
    #[serde(skip_serializing_if = "is_default_args")]
    pub energy: EnergyArgs,
}

fn is_default_args(a: &EnergyArgs) -> bool {
    *a == EnergyArgs::default()
}

/// The keys of [`EnergySection`], for the commented header of a dumped
/// configuration.
pub const SECTION_HELP: &str = "\
# Environment C (environment = \"energy\"; synthetic trials, no logs):
# energy_managements  [\"queued\", \"polled\"]: the task management environments
#                     of the grid (default: the [energy] one)
# energy_filters      [\"none\", \"adaptive\", \"fixed:0.5\"]: the energy filters of
#                     the grid (default: the [energy] one)
# [energy]            the flags of `swftool replay --env energy` without the dashes
#                     (management = \"polled\", filter = \"adaptive\", budget = 1.11e9,
#                     drop_threshold = 0.5, static_power = 50.0, tasks_per_day = 8000.0, ...)
";

/// The variants of a grid: every management of `energy_managements`
/// (default: the `[energy]` one) × every filter of `energy_filters`.
pub fn variant_list(section: &EnergySection) -> Vec<EnergyVariant> {
    let ms = if section.energy_managements.is_empty() {
        vec![section.energy.management.unwrap_or_default()]
    } else {
        section.energy_managements.clone()
    };
    let fs = if section.energy_filters.is_empty() {
        vec![section.energy.filter.unwrap_or_default()]
    } else {
        section.energy_filters.clone()
    };
    ms.iter()
        .flat_map(|&management| {
            fs.iter()
                .map(move |&filter| EnergyVariant { management, filter })
        })
        .collect()
}

/// What one finished cell of environment C leaves on disk.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnergyCell {
    /// The cell id.
    pub id: String,
    /// Position in the cell order.
    pub index: usize,
    /// The variant.
    pub variant: EnergyVariant,
    /// The run summary (deterministic).
    pub summary: EnergySummary,
    /// Heuristic wall time per mapping event: mean and max, s (wall clock).
    pub heuristic_seconds: (f64, f64),
}

/// Environment C's parameters as a configuration gives them: its
/// `[energy]` flags with the shared keys (`seed`, `theta`) filled in.
fn grid_energy_args(config: &ExperimentConfig, section: &EnergySection) -> EnergyArgs {
    EnergyArgs {
        shared: SharedArgs {
            seed: Some(config.seed),
            theta: config.theta,
            ..SharedArgs::default()
        },
        ..section.energy.clone()
    }
}

/// The grid's variants, from its layout.
///
/// # Errors
/// A layout whose variants are not environment C's.
pub fn layout_variants(layout: &Layout) -> Result<Vec<EnergyVariant>, ExperimentError> {
    layout.variants_as()
}

crate::grid_cell!(EnergyCell);

impl Grid for Energy {
    type Cell = EnergyCell;
    type Section = EnergySection;
    const SECTION_KEYS: &'static [&'static str] =
        &["energy_managements", "energy_filters", "energy"];
    const SECTION_HELP: &'static str = SECTION_HELP;
    const GROWABLE: &'static [&'static str] = &["energy_managements", "energy_filters"];

    fn presets() -> Vec<(&'static str, Preset)> {
        let base = |name: &str| ExperimentConfig {
            heuristics: HEURISTICS.names().into_iter().map(String::from).collect(),
            ..ExperimentConfig::preset(Energy::NAME, name)
        };
        vec![
            (
                "khemka2015-energy",
                Preset {
                    summary: "the grid of Khemka et al. 2015 (Figs. 4–6): 48 trials, queued and polled, without and with the adaptive filter",
                    config: ExperimentConfig {
                        trials: Some(ENERGY_TRIALS),
                        ..base("khemka2015-energy")
                    }
                    .with_section(&EnergySection {
                        energy_managements: Management::ALL.to_vec(),
                        energy_filters: vec![Filter::None, Filter::Adaptive],
                        energy: EnergyArgs::default(),
                    }),
                },
            ),
            (
                "smoke-energy",
                Preset {
                    summary: "a quick check of environment C: 4 trials of 8,000 tasks, polled with the adaptive filter, 3 heuristics (12 cells)",
                    config: ExperimentConfig {
                        heuristics: ["fcfs-p0", "maxutil", "maxupe"].map(String::from).to_vec(),
                        trials: Some(4),
                        ..base("smoke-energy")
                    }
                    .with_section(&EnergySection {
                        energy_managements: vec![Management::Polled],
                        energy_filters: vec![Filter::Adaptive],
                        energy: EnergyArgs {
                            tasks_per_day: Some(8000.0),
                            ..EnergyArgs::default()
                        },
                    }),
                },
            ),
        ]
    }

    fn check_config(
        config: &ExperimentConfig,
        section: &EnergySection,
        origin: &Path,
    ) -> Result<(), ConfigError> {
        let invalid = |key, message| ConfigError::invalid(origin, key, message);
        let energy = grid_energy_args(config, section);
        if let Err(e) = energy.synthetic().validate() {
            return Err(invalid("energy", e.to_string()));
        }
        // What `--drop-threshold` takes; a configuration bypasses its parser.
        if let Some(d) = energy.drop_threshold
            && !(d.is_finite() && d >= 0.0)
        {
            return Err(invalid(
                "energy",
                format!("drop_threshold {d}: give a utility of 0 or more (value units)"),
            ));
        }
        // What `--static-power` takes.
        if let Some(w) = energy.static_power
            && !(w.is_finite() && (0.0..=MAX_STATIC_POWER_W).contains(&w))
        {
            return Err(invalid(
                "energy",
                format!("static_power {w}: give watts from 0 to {MAX_STATIC_POWER_W}"),
            ));
        }
        // A budget must leave the tasks something above the static energy
        // the machines draw all day (100 machines, 24 h).
        if let Some(Budget::Joules(j)) = energy.budget {
            let floor = energy.run_config(None).static_all_day_w * 100.0 * WINDOW_SECONDS;
            if j <= floor {
                return Err(invalid(
                    "energy",
                    format!(
                        "budget {j} J is not above the {floor} J of static power the 100 machines draw all day (static_counted = \"all-day\")"
                    ),
                ));
            }
        }
        let budget_none = energy.budget == Some(Budget::None);
        let filtered = section
            .energy_filters
            .iter()
            .chain(energy.filter.iter())
            .any(|f| *f != Filter::None);
        if budget_none && filtered {
            return Err(invalid(
                "energy",
                "budget = \"none\" leaves the energy filter nothing to share out; drop the filters or give a budget".into(),
            ));
        }
        Ok(())
    }

    fn grid_args(config: &ExperimentConfig, section: &EnergySection) -> EnergyArgs {
        grid_energy_args(config, section)
    }

    fn variants(_: &ExperimentConfig, section: &EnergySection) -> Vec<VariantRecord> {
        variant_list(section)
            .iter()
            .map(|v| VariantRecord::new(v.id(), false, v))
            .collect()
    }

    fn synthetic(
        config: &ExperimentConfig,
        args: &EnergyArgs,
    ) -> Result<Option<(EnergySource, LogLayout)>, ExperimentError> {
        let trials = config.trial_count();
        let params = args.synthetic();
        // The budget is calibrated once, on the grid's trials (generated
        // here one at a time in parallel, then again by each cell).
        let base = args.run_config(None);
        let budget = if args.budget.is_some() {
            budget_for(&[], args.budget, &base)
        } else {
            use rayon::prelude::*;
            let energies: Vec<f64> = (0..trials)
                .into_par_iter()
                .filter_map(|t| {
                    let s = workload::synthetic(&params, config.seed, t).ok()?;
                    let s = with_static_power(s, args.apc_static_w());
                    Some(calibration_energy(&s, &base))
                })
                .collect();
            calibrated(&energies)
        };
        // Every trial has the 100 machines and the 24 h day.
        let floor = base.static_all_day_w
            * f64::from(MACHINES_PER_TYPE.iter().sum::<u32>())
            * WINDOW_SECONDS;
        budget_leaves_energy(&budget, floor, base.static_all_day_w)
            .map_err(ExperimentError::Env)?;
        let layout = LogLayout::synthetic_trials(config.seed, trials, 100.0);
        Ok(Some((
            EnergySource {
                params: Some(params),
                file: None,
                budget,
            },
            layout,
        )))
    }

    fn lay_out(_: &SwfLog, key: &str, _: GridSetup<'_, Self>) -> LaidOut<EnergySource> {
        Err(ExperimentError::Env(EnvError::Workload(
            crate::workload::WorkloadError::Parameter {
                flag: "logs",
                value: key.to_string(),
                reason: "environment C runs synthetic trials; give `trials`, not `logs`".into(),
            },
        )))
    }

    fn scenario(plan: &Plan<Energy>, cell: &CellSpec) -> Result<EnergyCase, ExperimentError> {
        let source = &plan.prepared[cell.log];
        let params = source.params.clone().unwrap_or_default();
        let s = workload::synthetic(&params, plan.config.seed, cell.day as u64)
            .map_err(|e| ExperimentError::Env(EnvError::Workload(e)))?;
        let s = with_static_power(s, plan.args.apc_static_w());
        let v = layout_variants(&plan.layout)?
            .get(cell.variant)
            .copied()
            .unwrap_or(EnergyVariant {
                management: Management::Queued,
                filter: Filter::None,
            });
        let mut config = plan.args.run_config(source.budget.joules());
        config.management = v.management;
        config.filter = v.filter;
        Ok(EnergyCase {
            scenario: Arc::new(s),
            config,
        })
    }

    fn cell(_: &Plan<Energy>, cell: &CellSpec, sim: Simulated<'_, Self>) -> EnergyCell {
        let (case, heuristic, run) = (sim.scenario, sim.heuristic, sim.run);
        EnergyCell {
            id: cell.id.clone(),
            index: cell.index,
            variant: EnergyVariant {
                management: case.config.management,
                filter: case.config.filter,
            },
            summary: summarize(&case.scenario, heuristic.name, &case.config, run),
            heuristic_seconds: (
                run.heuristic_seconds.0 / run.events.len().max(1) as f64,
                run.heuristic_seconds.1,
            ),
        }
    }

    fn report(to: &ReportTo<'_>, cells: &[EnergyCell]) -> Result<GridReport, ExperimentError> {
        let (layout, config, out, figures) = (to.layout, to.config, to.out, to.figures);
        let mut t = tables(cells)?;
        let md = markdown(layout, &layout_variants(layout)?, config, cells, &t.rows);
        let metrics =
            Metrics::of::<Energy>(&["variant", "heuristic"], &["scenario"], SYNTHETIC_KEY);
        write_runs_report(out, &mut t, md, &metrics, figures, |rows, dir| {
            experiment_figures(layout, cells, rows, dir)
        })
    }

    fn replay_grid(r: &Setup<'_, Self>, base: ExperimentConfig) -> (ExperimentConfig, Layout) {
        let (source, cases, args) = (r.prepared, r.scenarios, r.args);
        let names = base.heuristics.clone();
        let mut energy = args.clone();
        if let Some(b) = source.budget.joules() {
            energy.budget = Some(Budget::Joules(b));
        }
        let config = ExperimentConfig {
            trials: Some(cases.len() as u64),
            ..base
        }
        .with_section(&EnergySection {
            energy,
            ..EnergySection::default()
        });
        let log = LogLayout {
            key: SYNTHETIC_KEY.to_string(),
            file: source
                .file
                .as_ref()
                .map_or(String::new(), |f| f.display().to_string()),
            max_procs: 100.0,
            candidate_days: cases.len(),
            day_set: None,
            days: cases
                .iter()
                .map(|c| DayLayout {
                    date: c.scenario.name.clone(),
                    start: 0.0,
                    scenario_seed: c.scenario.seed,
                })
                .collect(),
        };
        let variant = cases.first().map(|c| EnergyVariant {
            management: c.config.management,
            filter: c.config.filter,
        });
        let layout = Layout {
            environment: Energy::NAME.to_string(),
            logs: vec![log],
            variants: variant
                .iter()
                .map(|v| VariantRecord::new(v.id(), false, v))
                .collect(),
            heuristics: names,
        };
        (config, layout)
    }

    fn compare_config(
        _: &[String],
        _: &[String],
        _: &EnergyArgs,
    ) -> Result<ExperimentConfig, EnvError> {
        Err(EnvError::Workload(crate::workload::WorkloadError::Parameter {
            flag: "--env",
            value: Energy::NAME.to_string(),
            reason: "compare replays logs side by side; environment C runs synthetic trials: use `swftool replay --env energy --trials N` or `swftool experiment --preset khemka2015-energy`".into(),
        }))
    }

    fn compare(
        layout: &Layout,
        cells: &[EnergyCell],
        out: &Path,
    ) -> Result<GridReport, ExperimentError> {
        let rows = tables(cells)?.rows;
        let md = fig4_table(layout, &layout_variants(layout)?, &rows);
        write_compare(out, String::new(), md, |_| Ok(Vec::new()))
    }
}

/// One aggregated row: (variant, heuristic) over the trials.
#[derive(Debug, Clone, PartialEq)]
pub struct EnergyAggRow {
    /// Variant id.
    pub variant: String,
    /// Heuristic.
    pub heuristic: String,
    /// Trials.
    pub n: u64,
    /// Utility earned (value units).
    pub utility: Stat,
    /// % of the maximum.
    pub pct_max: Stat,
    /// Priority 8: % of its maximum.
    pub pct_p8: Stat,
    /// Priority 1: % of its maximum.
    pub pct_p1: Stat,
    /// Energy used, GJ.
    pub energy_gj: Stat,
    /// Mean heuristic µs per mapping event.
    pub micros: Stat,
    /// The largest heuristic time of one event, ms.
    pub max_ms: f64,
}

/// The grid's tables (`runs`, `aggregate`, `hourly`, `timing`) and rows.
pub type EnergyTables = GridTables<EnergyAggRow>;

/// The tables of `cells` (in cell order).
///
/// # Errors
/// A polars error (a bug).
pub fn tables(cells: &[EnergyCell]) -> Result<EnergyTables, ExperimentError> {
    let build = || -> PolarsResult<EnergyTables> {
        let summaries: Vec<&EnergySummary> = cells.iter().map(|c| &c.summary).collect();
        let vid: Vec<String> = cells.iter().map(|c| c.variant.id()).collect();
        let mut runs = Energy::summary_frame(&summaries)?;
        runs.insert_column(0, Column::new("variant".into(), vid.clone()))?;
        let f = |g: &dyn Fn(&EnergyCell) -> f64| cells.iter().map(g).collect::<Vec<f64>>();
        let keys = ["variant", "heuristic"];
        // The deterministic aggregate: every summary column declared
        // mean ± CI.
        let aggregate = columns::aggregate(&runs, &keys, &summary_columns())?;
        // The wall-clock one: heuristic time per mapping event.
        let work = DataFrame::new_infer_height(vec![
            Column::new("variant".into(), vid.clone()),
            Column::new(
                "heuristic".into(),
                cells
                    .iter()
                    .map(|c| c.summary.heuristic.clone())
                    .collect::<Vec<_>>(),
            ),
            Column::new("mapping_events".into(), f(&|c| c.summary.events as f64)),
            Column::new(
                "heuristic_seconds_mean".into(),
                f(&|c| c.heuristic_seconds.0),
            ),
            Column::new(
                "heuristic_seconds_max".into(),
                f(&|c| c.heuristic_seconds.1),
            ),
        ])?;
        let timing = timing_table(work, &keys)?;
        let variant = str_column(&aggregate, "variant")?;
        let heuristic = str_column(&aggregate, "heuristic")?;
        let n = n_column(&aggregate)?;
        let stat = |m: &str| stat_column(&aggregate, m);
        let (utility, pct, energy, p8, p1) = (
            stat("utility_earned")?,
            stat("pct_of_max")?,
            stat("energy_j")?,
            stat("pct_of_max_p8")?,
            stat("pct_of_max_p1")?,
        );
        let secs = stat_column(&timing, "heuristic_seconds_mean")?;
        let max_s = f64_column(&timing, "heuristic_seconds_max_max")?;
        let scaled = |s: Stat, k: f64| Stat {
            mean: s.mean * k,
            sd: s.sd.map(|x| x * k),
            ci95: s.ci95.map(|x| x * k),
        };
        let rows: Vec<EnergyAggRow> = (0..variant.len())
            .map(|i| EnergyAggRow {
                variant: variant[i].clone(),
                heuristic: heuristic[i].clone(),
                n: n[i],
                utility: utility[i],
                pct_max: pct[i],
                energy_gj: scaled(energy[i], 1e-9),
                pct_p8: p8[i],
                pct_p1: p1[i],
                micros: scaled(secs[i], 1e6),
                max_ms: max_s[i].unwrap_or(f64::NAN) * 1e3,
            })
            .collect();
        // Hourly means.
        let mut hv = Vec::new();
        let mut hh = Vec::new();
        let mut hour = Vec::new();
        let mut hu = Vec::new();
        let mut he = Vec::new();
        for (c, v) in cells.iter().zip(&vid) {
            for k in 0..HOURS {
                hv.push(v.clone());
                hh.push(c.summary.heuristic.clone());
                hour.push(k as u32 + 1);
                hu.push(c.summary.hourly_utility.get(k).copied().unwrap_or(f64::NAN));
                he.push(
                    c.summary
                        .hourly_energy_j
                        .get(k)
                        .copied()
                        .unwrap_or(f64::NAN),
                );
            }
        }
        let hw = DataFrame::new_infer_height(vec![
            Column::new("variant".into(), hv),
            Column::new("heuristic".into(), hh),
            Column::new("hour".into(), hour),
            Column::new("cumulative_utility".into(), hu),
            Column::new("cumulative_energy_j".into(), he),
        ])?;
        let hourly = mean_ci(
            hw,
            &["variant", "heuristic", "hour"],
            &["cumulative_utility", "cumulative_energy_j"],
            vec![],
        )?;
        Ok(GridTables {
            tables: vec![
                ("runs", runs),
                ("aggregate", aggregate),
                ("hourly", hourly),
                ("timing", timing),
            ],
            rows,
        })
    };
    build().map_err(ExperimentError::Polars)
}

fn fig4_table(layout: &Layout, vs: &[EnergyVariant], rows: &[EnergyAggRow]) -> String {
    let mut md = String::from("| heuristic |");
    for v in vs {
        md.push_str(&format!(" {} |", v.label()));
    }
    md.push('\n');
    md.push_str(&"|---".repeat(vs.len() + 1));
    md.push_str("|\n");
    for h in &layout.heuristics {
        md.push_str(&format!("| {h} |"));
        for v in vs {
            let cell = rows
                .iter()
                .find(|r| r.variant == v.id() && &r.heuristic == h)
                .map_or("–".to_string(), |r| {
                    format!("{} ({} %)", pm(&r.utility, 0), pm(&r.pct_max, 1))
                });
            md.push_str(&format!(" {cell} |"));
        }
        md.push('\n');
    }
    md
}

fn markdown(
    layout: &Layout,
    vs: &[EnergyVariant],
    config: &ExperimentConfig,
    cells: &[EnergyCell],
    rows: &[EnergyAggRow],
) -> String {
    let trials = layout.logs.first().map_or(0, |l| l.days.len());
    let budget = cells
        .first()
        .and_then(|c| c.summary.budget_j)
        .map_or("none".to_string(), |b| format!("{:.4} GJ", b / 1e9));
    let mut md = format!(
        "# {}: environment C (Khemka et al.), {} trial(s), seed {}\n\nBudget E = {budget} a day. Utility earned over the counted 24 h, mean ± half-width of the 95 % confidence interval (Student t) over the trials; in brackets, % of the maximum utility (every counted task's priority).\n\n## Total utility (the paper's Fig. 4)\n\n",
        config.name, trials, config.seed
    );
    md.push_str(&fig4_table(layout, vs, rows));
    md.push_str("\n## Priority levels 8 and 1: % of each level's maximum (Fig. 5)\n\n| variant | heuristic | priority 8 | priority 1 | energy GJ | µs per event (mean) | max ms |\n|---|---|---:|---:|---:|---:|---:|\n");
    for r in rows {
        md.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:.1} | {:.2} |\n",
            r.variant,
            r.heuristic,
            pm(&r.pct_p8, 1),
            pm(&r.pct_p1, 1),
            pm(&r.energy_gj, 4),
            r.micros.mean,
            r.max_ms
        ));
    }
    md.push_str("\nThe 20 utility classes are swftool's construction after Khemka et al. (TC 2015): docs/utility.md. Heuristic times are wall clock.\n");
    md
}

fn bar(s: Stat) -> Bar {
    Bar {
        mean: s.mean,
        ci95: s.ci95,
    }
}

/// The figures of a grid (PNG then SVG of each).
fn experiment_figures(
    layout: &Layout,
    cells: &[EnergyCell],
    rows: &[EnergyAggRow],
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let vs = layout_variants(layout)?;
    let labels: Vec<String> = vs.iter().map(|v| v.label()).collect();
    let lines = Figure::with_palette(&labels);
    // Twelve groups of four bars: wider than the default, same font sizes.
    let fig = Figure {
        width: 1700,
        ..lines.clone()
    };
    let trials = layout.logs.first().map_or(0, |l| l.days.len());
    let find = |v: &EnergyVariant, h: &str| {
        rows.iter()
            .find(|r| r.variant == v.id() && r.heuristic == h)
    };
    let chart = |title: String, y: &str, value: &dyn Fn(&EnergyAggRow) -> Stat, clip| BarChart {
        title,
        x_label: "heuristic".into(),
        y_label: y.into(),
        levels: layout.heuristics.clone(),
        series: vs
            .iter()
            .map(|v| BarSeries {
                name: v.label(),
                bars: layout
                    .heuristics
                    .iter()
                    .map(|h| find(v, h).map(|r| bar(value(r))))
                    .collect(),
            })
            .collect(),
        log_y: false,
        y_clip: clip,
    };
    let mut files = Vec::new();
    files.extend(report::bars::grouped_bars(
        &chart(
            format!("Total utility earned in the day ({trials} trials, 95 % CI)"),
            "utility earned (utility units)",
            &|r| r.utility,
            None,
        ),
        &fig,
        &dir.join("total-utility"),
    )?);
    for (p, pick) in [(1.0, 1usize), (8.0, 0)] {
        files.extend(report::bars::grouped_bars(
            &chart(
                format!("Priority {p} tasks: utility earned, % of their maximum ({trials} trials)"),
                &format!("utility earned (% of priority-{p} maximum)"),
                &|r| if pick == 0 { r.pct_p8 } else { r.pct_p1 },
                Some((0.0, 100.0)),
            ),
            &fig,
            &dir.join(format!("priority-{p}")),
        )?);
    }
    // Fig. 6 and the energy trace: Max Utility's mean cumulative curves
    // (the grid's first heuristic when Max Utility is not in it).
    let trace = layout
        .heuristics
        .iter()
        .find(|h| *h == TRACE_HEURISTIC)
        .or(layout.heuristics.first())
        .map_or(TRACE_HEURISTIC, String::as_str);
    let budget = cells.iter().find_map(|c| c.summary.budget_j);
    for (stem, title, y, energy) in [
        (
            "cumulative-utility",
            format!("{trace}: cumulative utility over the day (mean of {trials} trials)"),
            "cumulative utility earned (utility units)",
            false,
        ),
        (
            "energy-vs-budget",
            format!("{trace}: cumulative energy over the day (mean of {trials} trials)"),
            "cumulative energy used (GJ)",
            true,
        ),
    ] {
        let series: Vec<LineSeries> = vs
            .iter()
            .filter_map(|v| {
                let mine: Vec<&EnergyCell> = cells
                    .iter()
                    .filter(|c| c.variant == *v && c.summary.heuristic == trace)
                    .collect();
                if mine.is_empty() {
                    return None;
                }
                let mut points = vec![(0.0, 0.0)];
                for k in 0..HOURS {
                    let sum: f64 = mine
                        .iter()
                        .map(|c| {
                            if energy {
                                c.summary.hourly_energy_j[k] / 1e9
                            } else {
                                c.summary.hourly_utility[k]
                            }
                        })
                        .sum();
                    points.push(((k + 1) as f64, sum / mine.len() as f64));
                }
                Some(LineSeries {
                    name: v.label(),
                    points,
                    legend: None,
                    band: Vec::new(),
                })
            })
            .collect();
        if series.is_empty() {
            continue;
        }
        let references = match (energy, budget) {
            (true, Some(b)) => {
                vec![Reference::at(
                    b / 1e9,
                    format!("budget E = {:.3} GJ", b / 1e9),
                )]
            }
            _ => Vec::new(),
        };
        files.extend(report::lines::line_chart(
            &LineChart {
                title,
                x_label: "hours into the counted day (h)".into(),
                y_label: y.into(),
                series,
                x_range: None,
                bands: Vec::new(),
                references,
            },
            &lines,
            &dir.join(stem),
        )?);
    }
    Ok(files)
}
