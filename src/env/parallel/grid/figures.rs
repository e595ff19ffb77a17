//! The figures of an experiment (PNG and SVG, drawn by [`crate::report`]),
//! under `<out>/figures/`, one set per log (file names start with the log
//! key):
//!
//! - `<log>-percent-of-bound-<axis>`: for each variant axis present, grouped
//!   bars of the mean percentage of the maximum value bound over the days,
//!   with 95 % CI error bars; x = the axis level (the other axes at their
//!   defaults), one bar per heuristic (Khemka et al. 2015, Figs. 3–5);
//! - `<log>-percent-of-bound-variants`: the same over every variant, when
//!   the grid has variants that lie on no single axis;
//! - `<log>-heuristic-time`: mean (with 95 % CI over runs) and largest
//!   heuristic time per mapping event, ms, logarithmic y, one bar per
//!   heuristic, over every run of the log;
//! - `<log>-cumulative-value`: value earned over the figure scenario's day
//!   (the middle day of the default variant), one line per heuristic;
//! - `<log>-gantt`: the schedule of the largest cluster over 4 hours of that
//!   day (the busiest 4 hours, opening on a whole hour), for `maxvpr-ph`
//!   (or the first heuristic).
//!
//! A heuristic has the same colour in every figure
//! ([`crate::report::heuristic_color`]).

use std::path::{Path, PathBuf};

use super::aggregate::AggRow;
use super::cell::CellResult;
use super::variant::{Axis, Variant};
use crate::experiment::ExperimentError;
use crate::experiment::grid::Layout;
use crate::metrics::stats;
use crate::report::bars::{Bar, BarChart, BarSeries};
use crate::report::gantt::{GanttBar, GanttChart};
use crate::report::lines::{Band, LineChart, LineSeries, Reference};
use crate::report::{self, Figure};

fn bar_of(row: Option<&AggRow>) -> Option<Bar> {
    row.map(|r| Bar {
        mean: r.percent_of_bound.mean,
        ci95: r.percent_of_bound.ci95,
    })
}

fn find<'a>(
    rows: &'a [AggRow],
    log: &str,
    variant: &Variant,
    heuristic: &str,
) -> Option<&'a AggRow> {
    rows.iter().find(|r| {
        r.group.log_key == log && r.group.variant == *variant && r.group.heuristic == heuristic
    })
}

/// A chart of the % of the maximum value bound (axis clipped to 0–100):
/// one group per level, one bar per heuristic, `bar(level index,
/// heuristic)` giving each.
fn percent_chart(
    title: String,
    x_label: String,
    levels: Vec<String>,
    heuristics: &[String],
    bar: impl Fn(usize, &str) -> Option<Bar>,
) -> BarChart {
    let series = heuristics
        .iter()
        .map(|h| BarSeries {
            name: h.clone(),
            bars: (0..levels.len()).map(|i| bar(i, h)).collect(),
        })
        .collect();
    BarChart {
        title,
        x_label,
        y_label: "value earned (% of maximum value bound)".into(),
        levels,
        series,
        log_y: false,
        y_clip: Some((0.0, 100.0)),
    }
}

fn days_phrase(rows: &[AggRow]) -> String {
    let lo = rows.iter().map(|r| r.group.n).min().unwrap_or(0);
    let hi = rows.iter().map(|r| r.group.n).max().unwrap_or(0);
    if lo == hi {
        format!("{hi} day{}", if hi == 1 { "" } else { "s" })
    } else {
        format!("{lo}–{hi} days")
    }
}

/// Draws every figure of an experiment into `dir` and returns the files
/// written (PNG then SVG of each figure), in a fixed order.
///
/// # Errors
/// [`ExperimentError::Report`] when a figure cannot be drawn or written.
pub fn experiment_figures(
    layout: &Layout,
    variants: &[Variant],
    rows: &[AggRow],
    cells: &[CellResult],
    dir: &Path,
    fig: &Figure,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let mut out = Vec::new();
    for log in &layout.logs {
        let key = log.key.as_str();
        let log_rows: Vec<AggRow> = rows
            .iter()
            .filter(|r| r.group.log_key == key)
            .cloned()
            .collect();
        if log_rows.is_empty() {
            continue;
        }
        let days = days_phrase(&log_rows);
        for axis in Axis::ALL {
            let levels: Vec<Variant> = axis
                .variants()
                .into_iter()
                .filter(|v| variants.contains(v))
                .collect();
            if levels.len() < 2 {
                continue;
            }
            let chart = percent_chart(
                format!("{key}: value earned by {axis} level (mean of {days}, 95 % CI)"),
                format!("{axis} level (other axes at their defaults)"),
                levels.iter().map(|v| axis.level_label(v)).collect(),
                &layout.heuristics,
                |i, h| bar_of(find(&log_rows, key, &levels[i], h)),
            );
            out.extend(report::bars::grouped_bars(
                &chart,
                fig,
                &dir.join(format!("{key}-percent-of-bound-{axis}")),
            )?);
        }
        let off_axis = variants
            .iter()
            .any(|v| !Axis::ALL.iter().any(|a| a.holds_others_at_default(v)));
        if off_axis {
            let chart = percent_chart(
                format!("{key}: value earned by variant (mean of {days}, 95 % CI)"),
                "variant".into(),
                variants.iter().map(Variant::label).collect(),
                &layout.heuristics,
                |i, h| bar_of(find(&log_rows, key, &variants[i], h)),
            );
            out.extend(report::bars::grouped_bars(
                &chart,
                fig,
                &dir.join(format!("{key}-percent-of-bound-variants")),
            )?);
        }
        out.extend(timing_figure(layout, variants, key, cells, fig, dir)?);
        out.extend(cumulative_figure(layout, key, cells, fig, dir)?);
        out.extend(gantt_figure(key, cells, fig, dir)?);
    }
    Ok(out)
}

/// A variant as a tick label: `default`, `lower (oversub.)`,
/// `exact (corr.)`, `low (het.)`, or the full label for a variant off the
/// axes.
fn short_label(v: &Variant) -> String {
    let d = Variant::default();
    if *v == d {
        return "default".into();
    }
    Axis::ALL
        .iter()
        .find(|a| a.holds_others_at_default(v))
        .map_or_else(
            || v.label(),
            |a| {
                let short = match a {
                    Axis::Oversubscription => "oversub.",
                    Axis::Correlation => "corr.",
                    Axis::Heterogeneity => "het.",
                };
                format!("{} ({short})", a.level(v))
            },
        )
}

/// Heuristic wall time per mapping event: for every variant, the mean over
/// the days of each run's mean time per event, with its 95 % CI. The
/// largest single event is not drawn: on a shared machine it measures the
/// operating system's time slices (8–12 ms on a run whose events take
/// 0.01 ms), not the heuristic; the `timing` table keeps it.
fn timing_figure(
    layout: &Layout,
    variants: &[Variant],
    key: &str,
    cells: &[CellResult],
    fig: &Figure,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let series = layout
        .heuristics
        .iter()
        .map(|h| BarSeries {
            name: h.clone(),
            bars: variants
                .iter()
                .map(|v| {
                    let means: Vec<f64> = cells
                        .iter()
                        .filter(|c| c.log == key && &c.summary.heuristic == h && c.variant == *v)
                        .map(|c| c.summary.heuristic_seconds_mean * 1e3)
                        .collect();
                    stats::mean_sd(&means).map(|(m, sd)| Bar {
                        mean: m,
                        ci95: sd.and_then(|s| stats::ci95_half_width(s, means.len() as u64)),
                    })
                })
                .collect(),
        })
        .collect();
    let days = layout
        .logs
        .iter()
        .find(|l| l.key == key)
        .map_or(0, |l| l.days.len());
    let chart = BarChart {
        title: format!(
            "{key}: heuristic time per mapping event (mean of {days} days, 95 % CI; wall clock)"
        ),
        x_label: "variant".into(),
        y_label: "mean heuristic time per mapping event (ms, log scale)".into(),
        levels: variants.iter().map(short_label).collect(),
        series,
        log_y: true,
        y_clip: None,
    };
    Ok(report::bars::grouped_bars(
        &chart,
        fig,
        &dir.join(format!("{key}-heuristic-time")),
    )?)
}

/// Hours of warm-up before the counted day.
const WARMUP_HOURS: f64 = crate::workload::days::WARMUP_SECONDS / 3600.0;

/// The cumulative value each heuristic's counted tasks earned over the
/// figure day: from the 4 h warm-up (shaded) to the time every line has
/// reached 99.5 % of its final value (at least 28 h, in steps of 4 h), with
/// the maximum value bound as a dashed line.
fn cumulative_figure(
    layout: &Layout,
    key: &str,
    cells: &[CellResult],
    fig: &Figure,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let Some(li) = layout.logs.iter().position(|l| l.key == key) else {
        return Ok(Vec::new());
    };
    let Some(day) = layout.logs[li].days.get(layout.figure_day(li)) else {
        return Ok(Vec::new());
    };
    let mine: Vec<&CellResult> = cells
        .iter()
        .filter(|c| c.log == key && c.cumulative.is_some())
        .collect();
    if mine.is_empty() {
        return Ok(Vec::new());
    }
    let variant = mine[0].variant.label();
    let bound = mine[0].summary.value_bound;
    // One line per heuristic; heuristics with identical lines share one
    // (e.g. conservative and cmq when CMQ's queues never reorder), so that
    // no line hides exactly under another.
    let mut series: Vec<LineSeries> = Vec::new();
    let mut finals: Vec<(f64, f64)> = Vec::new();
    for h in &layout.heuristics {
        let Some(c) = mine.iter().find(|c| &c.summary.heuristic == h) else {
            continue;
        };
        let points = report::lines::cumulative(c.cumulative.as_deref().unwrap_or(&[]), day.start);
        if let Some(same) = series.iter_mut().find(|s| s.points == points) {
            let legend = same.legend.get_or_insert_with(|| same.name.clone());
            legend.push_str(" = ");
            legend.push_str(h);
            continue;
        }
        let last = points.last().map_or(0.0, |p| p.1);
        // When the line reaches 99.5 % of its final value.
        let settled = points
            .iter()
            .find(|p| p.1 >= 0.995 * last)
            .map_or(0.0, |p| p.0);
        finals.push((settled, last));
        series.push(LineSeries {
            name: h.clone(),
            points,
            legend: None,
            band: Vec::new(),
        });
    }
    let settled = finals.iter().map(|f| f.0).fold(0.0, f64::max);
    let hi = (settled / 4.0).ceil().max(7.0) * 4.0;
    let later: f64 = series
        .iter()
        .zip(&finals)
        .map(|(s, &(_, last))| {
            let at_edge = s
                .points
                .iter()
                .take_while(|p| p.0 <= hi)
                .last()
                .map_or(0.0, |p| p.1);
            if last > 0.0 {
                100.0 * (last - at_edge) / last
            } else {
                0.0
            }
        })
        .fold(0.0, f64::max);
    let x_label = if later > 0.0 {
        format!(
            "time since midnight of the counted day (h) \
             (after {hi:.0} h: at most {later:.1} % more per heuristic)"
        )
    } else {
        "time since midnight of the counted day (h)".into()
    };
    let reference = Reference::at(bound, format!("maximum value bound {bound:.0}"));
    let chart = LineChart {
        title: format!(
            "{key} {} ({variant} variant): cumulative value earned by counted tasks",
            day.date
        ),
        x_label,
        y_label: "cumulative value earned (value units)".into(),
        series,
        x_range: Some((-WARMUP_HOURS, hi)),
        bands: Band::day(
            WARMUP_HOURS,
            hi,
            "after the day: counted tasks still finishing",
        ),
        references: vec![reference],
    };
    Ok(report::lines::line_chart(
        &chart,
        fig,
        &dir.join(format!("{key}-cumulative-value")),
    )?)
}

fn gantt_figure(
    key: &str,
    cells: &[CellResult],
    fig: &Figure,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let Some((cell, g)) = cells
        .iter()
        .filter(|c| c.log == key)
        .find_map(|c| c.gantt.as_ref().map(|g| (c, g)))
    else {
        return Ok(Vec::new());
    };
    if g.nodes == 0 {
        return Ok(Vec::new());
    }
    let chart = GanttChart {
        title: format!(
            "{key} {}, {}: cluster {} ({} × {}), {}–{} h",
            cell.summary.date,
            g.heuristic,
            g.cluster,
            crate::words::count(g.nodes as u64, "node", "nodes"),
            crate::words::count(g.cores_per_node as u64, "core", "cores"),
            ((g.window.0 - g.time_origin) / 3600.0).round(),
            ((g.window.1 - g.time_origin) / 3600.0).round()
        ),
        nodes: g.nodes,
        window: g.window,
        time_origin: g.time_origin,
        bars: g
            .bars
            .iter()
            .map(|b| GanttBar {
                job: b.job,
                nodes: b.nodes.iter().map(|&(a, z)| a..z).collect(),
                start: b.start,
                end: b.end,
                value_fraction: b.value_fraction,
            })
            .collect(),
    };
    Ok(report::gantt::gantt_chart(
        &chart,
        fig,
        &dir.join(format!("{key}-gantt")),
    )?)
}

/// The figure of `swftool compare`: grouped bars of the mean percentage of
/// the maximum value bound with 95 % CI, x = log, one bar per heuristic.
///
/// # Errors
/// [`ExperimentError::Report`] when it cannot be drawn or written.
pub fn compare_figure(
    layout: &Layout,
    variants: &[Variant],
    rows: &[AggRow],
    cells: &[CellResult],
    fig: &Figure,
    stem: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let variant = variants.first().copied().unwrap_or_default();
    // A log whose tasks often fit no cluster earns less for that reason
    // alone: its share is written under its name.
    let levels = layout
        .logs
        .iter()
        .map(|l| {
            let (wide, counted) = cells
                .iter()
                .filter(|c| c.log == l.key)
                .fold((0, 0), |(w, n), c| {
                    (w + c.summary.tasks_too_wide, n + c.summary.tasks_counted)
                });
            let share = if counted > 0 {
                100.0 * wide as f64 / counted as f64
            } else {
                0.0
            };
            if share >= 1.0 {
                format!("{} ({share:.1} % of tasks fit no cluster)", l.key)
            } else {
                l.key.clone()
            }
        })
        .collect();
    let chart = percent_chart(
        format!(
            "value earned across logs ({} variant; mean of {}, 95 % CI)",
            variant.label(),
            days_phrase(rows)
        ),
        "log (each system sized from its own MaxProcs)".into(),
        levels,
        &layout.heuristics,
        |i, h| bar_of(find(rows, &layout.logs[i].key, &variant, h)),
    );
    Ok(report::bars::grouped_bars(&chart, fig, stem)?)
}
