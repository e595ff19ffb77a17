//! The figures of a schedule's time series ([`crate::metrics::series`]):
//! utilization and queue length over time, one line per heuristic — the
//! mean over the runs' scenarios bin by bin, with a shaded 95 % confidence
//! band when there are several.

use std::path::{Path, PathBuf};

use super::lines::{LineChart, LineSeries, line_chart};
use super::{Figure, ReportError};
use crate::metrics::series::{Bin, RunSeries, coarsen, mean_over_runs};
use crate::units::SECONDS_PER_DAY;

/// The most points a line of these figures draws: longer series are drawn
/// with their bins merged (the table keeps them all).
const MAX_POINTS: usize = 400;

/// Draws `<dir>/<prefix>series-utilization` and
/// `<dir>/<prefix>series-queue` (PNG and SVG) from `runs`, their titles
/// starting with `label` when it is not empty; returns the files written. Time runs in hours since
/// each scenario's origin, in days when the runs span more than four days;
/// a run of more than 400 bins is drawn with its bins merged by a whole
/// factor (time averages), so that its line stays readable.
///
/// # Errors
/// A figure that cannot be drawn or written.
pub fn series_figures(
    runs: &[RunSeries],
    fig: &Figure,
    dir: &Path,
    prefix: &str,
    label: &str,
) -> Result<Vec<PathBuf>, ReportError> {
    let longest = runs
        .iter()
        .map(|r| r.bins.iter().filter(|b| b.queue.is_none()).count())
        .max()
        .unwrap_or(0);
    let step = runs
        .iter()
        .find_map(|r| r.bins.first().map(|b| b.seconds))
        .unwrap_or(0.0);
    // The fewest bins merged that bring a line under MAX_POINTS, rounded
    // up to a whole hour, day or week of bins when the step divides it.
    let needed = longest.div_ceil(MAX_POINTS).max(1);
    let factor = if needed == 1 {
        1
    } else {
        [
            3600.0,
            2.0 * 3600.0,
            6.0 * 3600.0,
            12.0 * 3600.0,
            SECONDS_PER_DAY,
            2.0 * SECONDS_PER_DAY,
            7.0 * SECONDS_PER_DAY,
            14.0 * SECONDS_PER_DAY,
            28.0 * SECONDS_PER_DAY,
        ]
        .iter()
        .map(|d| d / step)
        .find(|f| f.fract() == 0.0 && *f >= needed as f64)
        .map_or(needed, |f| f as usize)
    };
    let merged: Vec<RunSeries>;
    let runs = if factor > 1 {
        merged = runs
            .iter()
            .map(|r| {
                let all: Vec<Bin> = r
                    .bins
                    .iter()
                    .filter(|b| b.queue.is_none())
                    .copied()
                    .collect();
                RunSeries {
                    scenario: r.scenario.clone(),
                    heuristic: r.heuristic.clone(),
                    bins: coarsen(&all, factor),
                }
            })
            .collect();
        &merged[..]
    } else {
        runs
    };
    let per_point = crate::words::span(step * factor as f64);
    let scenarios = {
        let mut s: Vec<&str> = runs.iter().map(|r| r.scenario.as_str()).collect();
        s.sort_unstable();
        s.dedup();
        s.len()
    };
    let span_h = runs
        .iter()
        .flat_map(|r| r.bins.last().map(|b| b.hour + b.seconds / 3600.0))
        .fold(0.0, f64::max);
    let (x_scale, x_unit) = if span_h > 96.0 {
        (1.0 / 24.0, "days")
    } else {
        (1.0, "h")
    };
    let about = if scenarios > 1 {
        format!("mean of {scenarios} scenarios, 95 % CI shaded")
    } else {
        runs.first().map_or(String::new(), |r| r.scenario.clone())
    };
    let mut files = Vec::new();
    // (file stem, title, y label, the value's ceiling, the value)
    type Chart<'a> = (&'a str, &'a str, &'a str, f64, fn(&Bin) -> f64);
    let charts: [Chart<'_>; 2] = [
        (
            "series-utilization",
            "Utilization",
            "utilization (% of the machine's units busy)",
            100.0,
            |b| 100.0 * b.utilization,
        ),
        (
            "series-queue",
            "Queue length",
            "jobs waiting (time average)",
            f64::INFINITY,
            |b| b.queue_length,
        ),
    ];
    for (stem, what, y_label, top, value) in charts {
        let series = mean_over_runs(runs, value)
            .into_iter()
            .map(|(name, points)| LineSeries {
                name,
                // Each bin's mean drawn at the bin's centre.
                points: points.iter().map(|&(h, m, _)| (h * x_scale, m)).collect(),
                legend: None,
                // The CI cut at what the value can be (0, and 100 %).
                band: if scenarios > 1 {
                    points
                        .iter()
                        .map(|&(h, m, ci)| (h * x_scale, (m - ci).max(0.0), (m + ci).min(top)))
                        .collect()
                } else {
                    Vec::new()
                },
            })
            .collect();
        let chart = LineChart {
            title: match (label.is_empty(), about.is_empty()) {
                (true, true) => format!("{what} over time"),
                (true, false) => format!("{what} over time, {about}"),
                (false, true) => format!("{label}: {what} over time"),
                (false, false) => format!("{label}: {what} over time, {about}"),
            },
            x_label: format!(
                "time since the start of the scenario ({x_unit}; each point the mean over {per_point}, at its centre)"
            ),
            x_range: Some((0.0, span_h * x_scale)).filter(|(_, hi)| *hi > 0.0),
            y_label: y_label.to_string(),
            series,
            ..LineChart::default()
        };
        files.extend(line_chart(
            &chart,
            fig,
            &dir.join(format!("{prefix}{stem}")),
        )?);
    }
    Ok(files)
}
