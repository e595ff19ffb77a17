//! Gantt charts of one cluster: which task held which nodes when, over a
//! time window, each task coloured by the fraction of its starting value it
//! earned (viridis, with a colour key).

use std::ops::Range;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{self, Axes};
use super::style::{self, Axis, Sizes, Steps, UNKNOWN_FILL, outline_of, text, viridis};
use super::{DrawFail, Drawable, Figure, ReportError};

/// Description of the x axis of every Gantt chart.
pub const GANTT_X_LABEL: &str = "time (h)";
/// Description of the y axis of every Gantt chart.
pub const GANTT_Y_LABEL: &str = "node";

/// One task in a [`GanttChart`].
#[derive(Debug, Clone, PartialEq)]
pub struct GanttBar {
    /// Job number; written inside the bar when it is large enough.
    pub job: i64,
    /// Node index ranges (half-open, `0..nodes` of the chart) the task held;
    /// parts beyond the cluster are cut off.
    pub nodes: Vec<Range<u32>>,
    /// Start time (s, same clock as the window).
    pub start: f64,
    /// End time (s); a bar with `end <= start` or a non-finite time is not
    /// drawn.
    pub end: f64,
    /// Value earned / starting value, 0..1 (clamped), the bar's colour on the
    /// viridis scale; NaN is drawn grey and listed as "unknown" in the key.
    pub value_fraction: f64,
}

/// A Gantt chart of one cluster (see [`gantt_chart`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GanttChart {
    /// Title at the top of the figure.
    pub title: String,
    /// Number of nodes of the cluster (y axis `0..nodes`, node 0 at the
    /// bottom); must be positive.
    pub nodes: u32,
    /// Time window shown, `(from, to)` in seconds; must be finite with
    /// `from < to`. Bars are clipped to it.
    pub window: (f64, f64),
    /// Time (s) shown as 0 h on the x axis, e.g. the start of the day.
    pub time_origin: f64,
    /// The tasks; later ones are drawn on top.
    pub bars: Vec<GanttBar>,
}

/// Draws `chart`: nodes (y, [`GANTT_Y_LABEL`]) against hours since
/// `time_origin` (x, [`GANTT_X_LABEL`]) over the window, one filled
/// rectangle per task and node range, clipped to the window, coloured by
/// `value_fraction` on the viridis scale and outlined in a darker shade,
/// with a colour key to the right; writes `<stem>.png` and `<stem>.svg`
/// (creating the parent directory) and returns their paths in that order.
///
/// # Errors
/// [`ReportError::Invalid`] for zero nodes, a window that is empty,
/// reversed or not finite, a non-finite origin, a figure size out of range
/// or an empty stem; [`ReportError::CreateDir`] / [`ReportError::Draw`]
/// naming the directory or file that could not be written.
pub fn gantt_chart(
    chart: &GanttChart,
    fig: &Figure,
    stem: &Path,
) -> Result<Vec<PathBuf>, ReportError> {
    chart.check().map_err(|reason| ReportError::Invalid {
        stem: stem.to_path_buf(),
        reason,
    })?;
    super::render(chart, fig, stem)
}

impl GanttChart {
    /// Why the chart cannot be drawn, if it cannot.
    fn check(&self) -> Result<(), String> {
        let (from, to) = self.window;
        if self.nodes == 0 {
            return Err("the cluster has no nodes".into());
        }
        if !(from.is_finite() && to.is_finite() && self.time_origin.is_finite()) {
            return Err(format!(
                "window ({from}, {to}) s and origin {} s must be finite",
                self.time_origin
            ));
        }
        let (h0, h1) = self.hours();
        if !(from < to && h0 < h1 && (h1 - h0).is_finite()) {
            return Err(format!("empty or reversed time window ({from}, {to}) s"));
        }
        Ok(())
    }

    /// The window in hours since the origin.
    fn hours(&self) -> (f64, f64) {
        (self.h(self.window.0), self.h(self.window.1))
    }

    /// Hours since the origin of time `t` (s).
    fn h(&self, t: f64) -> f64 {
        (t - self.time_origin) / 3600.0
    }
}

/// A time axis over exactly `lo..hi` hours: steps of 1, 2, 3, 4, 6, 8, 12 or
/// 24 h when they fit, else the usual 1-2-2.5-5 steps.
fn hour_axis(lo: f64, hi: f64) -> Axis {
    let raw = (hi - lo) / 10.0;
    let step = [1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 24.0]
        .into_iter()
        .find(|s| *s >= raw)
        .filter(|_| raw >= 0.75);
    let Some(step) = step else {
        return style::exact_axis(lo, hi, 10, Steps::NoQuarter);
    };
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    let ticks: Vec<f64> = (first..=last).map(|k| k as f64 * step).collect();
    let minor = if step >= 2.0 && step as i64 % 2 == 0 {
        (first - 1..=last)
            .map(|k| (k as f64 + 0.5) * step)
            .filter(|v| (lo..=hi).contains(v))
            .collect()
    } else {
        Vec::new()
    };
    Axis {
        lo,
        hi,
        ticks,
        minor,
        step,
    }
}

/// Key title lines and tick fractions of the colour key.
const KEY_TITLE: [&str; 2] = ["value earned", "(% of starting value)"];
const KEY_TICKS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// Smallest height and width (px) of a bar that gets an outline.
const MIN_OUTLINED_PX: i32 = 5;

impl Drawable for GanttChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        fig: &Figure,
    ) -> Result<(), DrawFail> {
        let sizes = Sizes::of(fig);
        let key_text = text(sizes.tick);
        let title_w = KEY_TITLE
            .iter()
            .map(|s| style::text_width(root, s, &key_text))
            .max()
            .unwrap_or(0);
        let bar_w = (sizes.legend * 1.5) as u32;
        let side = title_w.max(bar_w + style::text_width(root, "100 %", &key_text) + sizes.margin)
            + 2 * sizes.margin;
        let (plot, key) = layout::frame(root, &self.title, side, &sizes)?;

        let (h0, h1) = self.hours();
        let x = hour_axis(h0, h1);
        let y = style::exact_axis(0.0, f64::from(self.nodes), 8, Steps::Integer);
        let (xs, ys) = (x.step, y.step);
        let fx = move |v: &f64| style::format_tick(*v, xs);
        let fy = move |v: &f64| style::format_tick(*v, ys);
        let axes = Axes {
            x,
            y,
            fx: &fx,
            fy: &fy,
            x_label: GANTT_X_LABEL,
            y_label: GANTT_Y_LABEL,
            x_grid: true,
        };
        let chart = layout::chart(&plot, &axes, &sizes)?;
        let area = chart.plotting_area();

        let label_style = text(sizes.tick * 0.7).pos(Pos::new(HPos::Center, VPos::Center));
        let mut any_unknown = false;
        let mut labels = Vec::new();
        for b in &self.bars {
            if !(b.start.is_finite() && b.end.is_finite() && b.start < b.end) {
                continue;
            }
            let (l, r) = (self.h(b.start).max(h0), self.h(b.end).min(h1));
            if l >= r {
                continue;
            }
            let fill = viridis(b.value_fraction);
            any_unknown |= b.value_fraction.is_nan();
            for nodes in &b.nodes {
                let (lo, hi) = (nodes.start, nodes.end.min(self.nodes));
                if lo >= hi {
                    continue;
                }
                let (bot, top) = (f64::from(lo), f64::from(hi));
                area.draw(&Rectangle::new([(l, bot), (r, top)], fill.filled()))?;
                let (px0, py0) = chart.backend_coord(&(l, top));
                let (px1, py1) = chart.backend_coord(&(r, bot));
                // Outlines only where the bar is tall and wide enough to
                // keep its fill: on a cluster of many nodes per pixel row
                // they would merge into a wash of their own colour.
                if py1 - py0 >= MIN_OUTLINED_PX && px1 - px0 >= MIN_OUTLINED_PX {
                    area.draw(&Rectangle::new(
                        [(l, bot), (r, top)],
                        outline_of(fill).stroke_width(1),
                    ))?;
                }
                // The job number, where it fits.
                let label = b.job.to_string();
                let need = style::text_width(&plot, &label, &label_style) as i32 + 6;
                if px1 - px0 >= need && py1 - py0 >= (sizes.tick * 0.7 + 4.0) as i32 {
                    let dark = fill.0 as u32 + fill.1 as u32 + fill.2 as u32 <= 3 * 140;
                    let colour = if dark { WHITE } else { BLACK };
                    labels.push((label, ((l + r) / 2.0, (bot + top) / 2.0), colour));
                }
            }
        }
        // Job numbers last, so that no bar covers one.
        for (label, at, colour) in labels {
            area.draw(&Text::new(label, at, label_style.clone().color(&colour)))?;
        }

        // Colour key: title, a vertical gradient from 0 % (bottom) to 100 %.
        let m = sizes.margin as i32;
        let line_h = (sizes.tick * 1.3) as i32;
        let mut y0 = m;
        for line in KEY_TITLE {
            key.draw_text(
                line,
                &key_text.pos(Pos::new(HPos::Left, VPos::Top)),
                (0, y0),
            )?;
            y0 += line_h;
        }
        y0 += m;
        let (_, key_h) = key.dim_in_pixel();
        let grad_h = ((300.0 * sizes.scale) as i32)
            .min(key_h as i32 - y0 - 4 * line_h)
            .max(40);
        let gx = m / 2;
        let steps = 100;
        for k in 0..steps {
            let t0 = y0 + grad_h * k / steps;
            let t1 = y0 + grad_h * (k + 1) / steps;
            let frac = 1.0 - (f64::from(k) + 0.5) / f64::from(steps);
            key.draw(&Rectangle::new(
                [(gx, t0), (gx + bar_w as i32, t1)],
                viridis(frac).filled(),
            ))?;
        }
        key.draw(&Rectangle::new(
            [(gx, y0), (gx + bar_w as i32, y0 + grad_h)],
            BLACK.stroke_width(1),
        ))?;
        let tick_style = key_text.pos(Pos::new(HPos::Left, VPos::Center));
        for f in KEY_TICKS {
            let ty = y0 + ((1.0 - f) * f64::from(grad_h)).round() as i32;
            let right = gx + bar_w as i32;
            key.draw(&PathElement::new(
                vec![(right, ty), (right + 6, ty)],
                BLACK.stroke_width(1),
            ))?;
            key.draw_text(
                &format!("{:.0} %", f * 100.0),
                &tick_style,
                (right + 10, ty),
            )?;
        }
        if any_unknown {
            let uy = y0 + grad_h + line_h;
            key.draw(&Rectangle::new(
                [(gx, uy), (gx + bar_w as i32, uy + line_h)],
                UNKNOWN_FILL.filled(),
            ))?;
            key.draw_text(
                "unknown",
                &tick_style,
                (gx + bar_w as i32 + 10, uy + line_h / 2),
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_ticked_every_three_hours() {
        let a = hour_axis(0.0, 24.0);
        assert_eq!(a.step, 3.0);
        assert_eq!(a.ticks.first(), Some(&0.0));
        assert_eq!(a.ticks.last(), Some(&24.0));
    }

    #[test]
    fn short_windows_fall_back_to_decimal_steps() {
        let a = hour_axis(1.0, 2.0);
        assert!(a.step < 1.0);
        assert!(a.ticks.iter().all(|t| (1.0..=2.0).contains(t)));
    }

    #[test]
    fn empty_and_reversed_windows_are_rejected() {
        let mut g = GanttChart {
            nodes: 4,
            window: (10.0, 10.0),
            ..GanttChart::default()
        };
        assert!(g.check().is_err());
        g.window = (10.0, 5.0);
        assert!(g.check().is_err());
        g.window = (0.0, f64::INFINITY);
        assert!(g.check().is_err());
        g.window = (0.0, 3600.0);
        assert!(g.check().is_ok());
        g.nodes = 0;
        assert!(g.check().is_err());
    }
}
