//! The figures of an environment B grid (PNG and SVG, drawn by
//! [`crate::report`]) under `<out>/figures/`, one set per log (`synthetic`
//! for synthetic trials), file names starting with the log key:
//!
//! - `<log>-percent-of-max-<axis>`: for each workload axis of the grid,
//!   grouped bars of the mean % of the maximum system utility with 95 % CI
//!   error bars; x = the axis level (the other axes at the base), one bar
//!   per heuristic (Machovec et al. 2017, Figs. 3–6);
//! - `<log>-percent-completed-critical_etc`: the % of tasks completed by
//!   critical mean ETC (Fig. 7), when that axis is in the grid;
//! - `<log>-percent-of-max-variants`: every variant, when the grid has no
//!   axis but several variants;
//! - `<log>-heuristic-time`: mean (95 % CI over runs) heuristic time per
//!   mapping event, ms, logarithmic y, one bar per heuristic, default
//!   variant;
//! - `<log>-cumulative-utility`: utility earned in the window over the
//!   figure scenario, one line per heuristic, against the maximum system
//!   utility;
//! - `<log>-gantt`: one cluster over the busiest hour of the figure
//!   scenario for `maxupt-preempt-greedy` (or the first heuristic): pieces
//!   by core (6 px per core, the figure taller for a large cluster),
//!   critical and non-critical in two hues, a piece that ends without
//!   completing in a light tint, a tick where a piece is preempted and a
//!   triangle where a piece resumes a preempted task.
//!
//! A heuristic has the same colour in every figure.

use std::path::{Path, PathBuf};

use super::aggregate::{SerialAggRow, find};
use super::cell::{SerialCell, SerialGantt};
use super::variant::{SerialAxis, SerialVariant};
use crate::env::serial::WARMUP_SECONDS;
use crate::experiment::ExperimentError;
use crate::experiment::grid::Layout;
use crate::metrics::aggregate::Stat;
use crate::report::bars::{Bar, BarChart, BarSeries};
use crate::report::gantt::{CategoryBar, CategoryGantt};
use crate::report::lines::{Band, LineChart, LineSeries, Reference};
use crate::report::{self, Figure, RGBColor};

fn bar(s: Stat) -> Bar {
    Bar {
        mean: s.mean,
        ci95: s.ci95,
    }
}

fn runs_phrase(rows: &[SerialAggRow], log: &str) -> String {
    let n = rows
        .iter()
        .filter(|r| r.group.log_key == log)
        .map(|r| r.group.n)
        .max()
        .unwrap_or(0);
    let what = if log == crate::experiment::grid::SYNTHETIC_KEY {
        "trial"
    } else {
        "day"
    };
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A chart of a percentage (axis clipped to 0–100): one group per level,
/// one bar per heuristic.
fn percent_chart(
    title: String,
    x_label: String,
    y_label: &str,
    levels: Vec<String>,
    heuristics: &[String],
    value: impl Fn(usize, &str) -> Option<Bar>,
) -> BarChart {
    BarChart {
        title,
        x_label,
        y_label: y_label.into(),
        series: heuristics
            .iter()
            .map(|h| BarSeries {
                name: h.clone(),
                bars: (0..levels.len()).map(|i| value(i, h)).collect(),
            })
            .collect(),
        levels,
        log_y: false,
        y_clip: Some((0.0, 100.0)),
    }
}

const PCT_MAX: &str = "utility earned (% of maximum system utility)";

/// Draws every figure of an environment B grid into `dir` and returns the
/// files written (PNG then SVG of each), in a fixed order.
///
/// # Errors
/// [`ExperimentError::Report`] when a figure cannot be drawn or written.
pub fn experiment_figures(
    layout: &Layout,
    view: &super::cell::SerialView,
    rows: &[SerialAggRow],
    cells: &[SerialCell],
    dir: &Path,
    fig: &Figure,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let mut out = Vec::new();
    let base = SerialVariant::of_args(&view.section.serial);
    for log in &layout.logs {
        let key = log.key.as_str();
        let runs = runs_phrase(rows, key);
        for &axis in &view.section.serial_axes {
            let levels = axis.levels(&view.variants, &base);
            if levels.len() < 2 {
                continue;
            }
            let labels: Vec<String> = levels.iter().map(|v| axis.level(v)).collect();
            let chart = percent_chart(
                format!(
                    "{key}: utility earned by {} (mean of {runs}, 95 % CI)",
                    axis.title()
                ),
                axis.title().to_string(),
                PCT_MAX,
                labels.clone(),
                &layout.heuristics,
                |i, h| find(rows, key, &levels[i], h).map(|r| bar(r.pct_max_utility)),
            );
            out.extend(report::bars::grouped_bars(
                &chart,
                fig,
                &dir.join(format!("{key}-percent-of-max-{}", axis.name())),
            )?);
            if axis == SerialAxis::CriticalEtc {
                let chart = percent_chart(
                    format!(
                        "{key}: tasks completed by {} (mean of {runs}, 95 % CI)",
                        axis.title()
                    ),
                    axis.title().to_string(),
                    "counted tasks completed (%)",
                    labels,
                    &layout.heuristics,
                    |i, h| find(rows, key, &levels[i], h).map(|r| bar(r.pct_completed)),
                );
                out.extend(report::bars::grouped_bars(
                    &chart,
                    fig,
                    &dir.join(format!("{key}-percent-completed-{}", axis.name())),
                )?);
            }
        }
        if view.section.serial_axes.is_empty() && view.variants.len() > 1 {
            let chart = percent_chart(
                format!("{key}: utility earned per variant (mean of {runs}, 95 % CI)"),
                "variant".into(),
                PCT_MAX,
                view.variants.iter().map(SerialVariant::label).collect(),
                &layout.heuristics,
                |i, h| find(rows, key, &view.variants[i], h).map(|r| bar(r.pct_max_utility)),
            );
            out.extend(report::bars::grouped_bars(
                &chart,
                fig,
                &dir.join(format!("{key}-percent-of-max-variants")),
            )?);
        }
        out.extend(time_figure(layout, view, rows, key, &runs, fig, dir)?);
        out.extend(cumulative_figure(layout, cells, key, fig, dir)?);
        if let Some((cell, g)) = cells
            .iter()
            .filter(|c| c.log == key)
            .find_map(|c| c.gantt.as_ref().map(|g| (c, g)))
        {
            out.extend(gantt_figure(key, cell, g, fig, dir)?);
        }
    }
    Ok(out)
}

fn time_figure(
    layout: &Layout,
    view: &super::cell::SerialView,
    rows: &[SerialAggRow],
    key: &str,
    runs: &str,
    fig: &Figure,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let variant = view
        .variants
        .get(layout.figure_variant())
        .copied()
        .unwrap_or_default();
    let chart = BarChart {
        title: format!(
            "{key}: heuristic time per mapping event ({} variant, mean of {runs}, 95 % CI)",
            variant.label()
        ),
        // One unnamed group: each bar is named on the axis by its heuristic.
        x_label: "heuristic".into(),
        y_label: "heuristic wall time per mapping event (ms, log scale)".into(),
        levels: vec![String::new()],
        series: layout
            .heuristics
            .iter()
            .map(|h| BarSeries {
                name: h.clone(),
                bars: vec![find(rows, key, &variant, h).map(|r| Bar {
                    mean: r.group.heuristic_seconds_mean.mean * 1e3,
                    ci95: r.group.heuristic_seconds_mean.ci95.map(|c| c * 1e3),
                })],
            })
            .collect(),
        log_y: true,
        y_clip: None,
    };
    Ok(report::bars::grouped_bars(
        &chart,
        fig,
        &dir.join(format!("{key}-heuristic-time")),
    )?)
}

fn cumulative_figure(
    layout: &Layout,
    cells: &[SerialCell],
    key: &str,
    fig: &Figure,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let mine: Vec<&SerialCell> = cells
        .iter()
        .filter(|c| c.log == key && c.cumulative.is_some())
        .collect();
    let Some(first) = mine.first() else {
        return Ok(Vec::new());
    };
    let origin = WARMUP_SECONDS;
    let mut series: Vec<LineSeries> = Vec::new();
    let mut end: f64 = 24.0;
    for h in &layout.heuristics {
        let Some(c) = mine.iter().find(|c| &c.summary.heuristic == h) else {
            continue;
        };
        let points = report::lines::cumulative(c.cumulative.as_deref().unwrap_or(&[]), origin);
        end = end.max(points.last().map_or(0.0, |p| p.0));
        if let Some(same) = series.iter_mut().find(|s| s.points == points) {
            let legend = same.legend.get_or_insert_with(|| same.name.clone());
            legend.push_str(" = ");
            legend.push_str(h);
            continue;
        }
        series.push(LineSeries {
            name: h.clone(),
            points,
            legend: None,
            band: Vec::new(),
        });
    }
    let bound = first.summary.max_utility;
    let hi = (end / 2.0).ceil() * 2.0;
    let reference = Reference::at(bound, format!("maximum system utility {bound:.0}"));
    let chart = LineChart {
        title: format!(
            "{key} {} ({} variant): utility earned in the 24 h window",
            first.summary.scenario,
            first.variant.label()
        ),
        x_label: "time since the start of the window (h)".into(),
        y_label: "cumulative utility earned (utility units)".into(),
        series,
        x_range: Some((-WARMUP_SECONDS / 3600.0, hi)),
        bands: Band::day(WARMUP_SECONDS / 3600.0, hi, "after the window"),
        references: vec![reference],
    };
    Ok(report::lines::line_chart(
        &chart,
        fig,
        &dir.join(format!("{key}-cumulative-utility")),
    )?)
}

/// Fills of the Gantt pieces: critical (priority 8) in Okabe & Ito
/// vermillion, non-critical (priority 1) in their blue; a piece that ends
/// without completing its task (preempted, or still running at the end of
/// the hour or of the run) in a light tint of the same hue.
const GANTT_FILLS: [(&str, RGBColor); 4] = [
    (
        "critical (priority 8),\ncompletes",
        RGBColor(0xD5, 0x5E, 0x00),
    ),
    ("critical,\nends unfinished", RGBColor(0xEC, 0xB6, 0x8C)),
    (
        "non-critical (priority 1),\ncompletes",
        RGBColor(0x00, 0x72, 0xB2),
    ),
    ("non-critical,\nends unfinished", RGBColor(0x8C, 0xBF, 0xDC)),
];

/// Rows of at least this many pixels, so that the marks of neighbouring
/// cores stay apart: the figure is made taller for a large cluster.
const GANTT_ROW_PX: u32 = 6;

/// Pixels of the Gantt figure that are not rows (title, x axis, margins).
const GANTT_FRAME_PX: u32 = 170;

/// The Gantt chart: one piece per core and stretch, coloured by
/// [`GANTT_FILLS`]; a tick at the end of a piece preempted inside the hour
/// (a piece that does not complete and ends before the hour ends: the run
/// never ends inside the counted window, so it was preempted), a triangle
/// at the start of a piece that resumes a preempted task. The figure is
/// [`GANTT_ROW_PX`] px per core tall (at least `fig`'s height).
fn gantt_figure(
    key: &str,
    cell: &SerialCell,
    g: &SerialGantt,
    fig: &Figure,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    if g.cores == 0 {
        return Ok(Vec::new());
    }
    let hours = |t: f64| (t - WARMUP_SECONDS) / 3600.0;
    // The Gantt heuristic may not be in the grid: say which one is shown.
    let fallback = if g.heuristic == super::cell::GANTT_HEURISTIC {
        String::new()
    } else {
        format!(" ({} not in the grid)", super::cell::GANTT_HEURISTIC)
    };
    let preempted = g.preemptions > 0;
    let chart = CategoryGantt {
        title: format!(
            "{key} {}, {}{fallback}: cluster {} ({} cores), hours {:.0}–{:.0} of the 24 h window, {}",
            cell.summary.scenario,
            g.heuristic,
            g.cluster,
            g.cores,
            hours(g.window.0),
            hours(g.window.1),
            crate::words::count(g.preemptions as u64, "preemption", "preemptions"),
        ),
        x_label: "time since the start of the 24 h window (h)".into(),
        y_label: "core".into(),
        rows: g.cores,
        window: g.window,
        time_origin: WARMUP_SECONDS,
        categories: GANTT_FILLS
            .iter()
            .map(|(name, c)| ((*name).to_string(), *c))
            .collect(),
        // The marks' keys only where there are marks.
        start_mark_key: if preempted {
            "start of a piece that\nresumes a preempted task".into()
        } else {
            String::new()
        },
        end_mark_key: if preempted {
            "end of a piece\nthat was preempted".into()
        } else {
            String::new()
        },
        bars: g
            .pieces
            .iter()
            .map(|p| CategoryBar {
                job: p.job,
                rows: std::iter::once(p.core..p.core + 1).collect(),
                start: p.start,
                end: p.end,
                // Indices into GANTT_FILLS.
                category: match (p.critical, p.completes) {
                    (true, true) => 0,
                    (true, false) => 1,
                    (false, true) => 2,
                    (false, false) => 3,
                },
                start_mark: p.resumes,
                end_mark: !p.completes,
            })
            .collect(),
    };
    let tall = Figure {
        height: fig
            .height
            .max(
                g.cores
                    .saturating_mul(GANTT_ROW_PX)
                    .saturating_add(GANTT_FRAME_PX),
            )
            .min(Figure::MAX_SIDE),
        ..fig.clone()
    };
    Ok(report::gantt::category_gantt_chart(
        &chart,
        &tall,
        &dir.join(format!("{key}-gantt")),
    )?)
}

/// The figure of `swftool compare --env serial`: grouped bars of the mean %
/// of the maximum system utility with 95 % CI, x = log, one bar per
/// heuristic.
///
/// # Errors
/// [`ExperimentError::Report`] when it cannot be drawn or written.
pub fn compare_figure(
    layout: &Layout,
    view: &super::cell::SerialView,
    rows: &[SerialAggRow],
    fig: &Figure,
    stem: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let variant = view.variants.first().copied().unwrap_or_default();
    let chart = percent_chart(
        format!(
            "utility earned across logs ({} variant; 95 % CI)",
            variant.label()
        ),
        "log (one day at a time, each job one serial task)".into(),
        PCT_MAX,
        layout.logs.iter().map(|l| l.key.clone()).collect(),
        &layout.heuristics,
        |i, h| find(rows, &layout.logs[i].key, &variant, h).map(|r| bar(r.pct_max_utility)),
    );
    Ok(report::bars::grouped_bars(&chart, fig, stem)?)
}
