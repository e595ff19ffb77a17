//! Gantt charts of one cluster: which task held which rows (nodes or
//! cores) when, over a time window, in one of two colourings:
//!
//! - [`GanttChart`] ([`gantt_chart`]): each task coloured by the fraction
//!   of its starting value it earned (viridis, with a colour key); rows are
//!   nodes (environment A);
//! - [`CategoryGantt`] ([`category_gantt_chart`]): each piece coloured by a
//!   category the caller names and colours (a legend of swatches), with
//!   marks at the edges of pieces — a filled triangle pointing into the bar
//!   at the start of a piece (e.g. it resumes a preempted task) and a short
//!   thick tick at the end of a piece (e.g. it was preempted); the y axis
//!   is described by the caller (environment B: cores).
//!
//! Both share the frame, the time axis, the clipping to the window, the
//! outlines and the job numbers written inside bars large enough.

use std::ops::Range;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{self, Area, Axes};
use super::style::{self, Axis, Sizes, Steps, UNKNOWN_FILL, outline_of, text, viridis};
use super::{DrawFail, Drawable, Figure, ReportError};

/// Description of the x axis of every [`GanttChart`].
pub const GANTT_X_LABEL: &str = "time since midnight of the day, local (h)";
/// Description of the y axis of every [`GanttChart`].
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

/// A Gantt chart of one cluster coloured by value earned (see
/// [`gantt_chart`]).
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
    chart
        .frame()
        .check()
        .map_err(|reason| ReportError::Invalid {
            stem: stem.to_path_buf(),
            reason,
        })?;
    super::render(chart, fig, stem)
}

impl GanttChart {
    /// Why the chart cannot be drawn, if it cannot.
    #[cfg(test)]
    fn check(&self) -> Result<(), String> {
        self.frame().check()
    }

    /// What this chart shares with a [`CategoryGantt`].
    fn frame(&self) -> Frame<'_> {
        Frame {
            title: &self.title,
            rows: self.nodes,
            window: self.window,
            origin: self.time_origin,
            x_label: GANTT_X_LABEL,
            y_label: GANTT_Y_LABEL,
        }
    }
}

/// One piece of a [`CategoryGantt`]: one task on some rows over one
/// stretch of time.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CategoryBar {
    /// Job number; written inside the bar when it is large enough.
    pub job: i64,
    /// Row index ranges (half-open, `0..rows` of the chart) the piece held,
    /// e.g. `core..core + 1`; parts beyond the chart are cut off.
    pub rows: Vec<Range<u32>>,
    /// Start time (s, same clock as the window).
    pub start: f64,
    /// End time (s); a piece with `end <= start` or a non-finite time is
    /// not drawn.
    pub end: f64,
    /// Index into [`CategoryGantt::categories`]: the piece's fill. An index
    /// out of range is an error ([`ReportError::Invalid`]), not a grey bar:
    /// it is the caller's mistake, and a legend cannot name it.
    pub category: usize,
    /// Draw the start mark (a filled triangle pointing into the bar, its
    /// flat side on the start) — only when `start` is strictly inside the
    /// window, so that a piece cut by the window is never marked.
    pub start_mark: bool,
    /// Draw the end mark (a short thick tick along the end) — only when
    /// `end` is strictly inside the window.
    pub end_mark: bool,
}

/// A Gantt chart of one cluster coloured by category, with marks at the
/// edges of pieces (see [`category_gantt_chart`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CategoryGantt {
    /// Title at the top of the figure.
    pub title: String,
    /// Description of the x axis, with its unit (hours since
    /// `time_origin`), e.g. `"time since the start of the window (h)"`.
    pub x_label: String,
    /// Description of the y axis (what one row is), e.g. `"core"`.
    pub y_label: String,
    /// Number of rows (y axis `0..rows`, row 0 at the bottom); must be
    /// positive.
    pub rows: u32,
    /// Time window shown, `(from, to)` in seconds; must be finite with
    /// `from < to`. Pieces are clipped to it.
    pub window: (f64, f64),
    /// Time (s) shown as 0 h on the x axis.
    pub time_origin: f64,
    /// Legend text and fill colour of each category, in legend order. A
    /// `\n` in a text breaks it into lines.
    pub categories: Vec<(String, RGBColor)>,
    /// Legend text of the start mark (triangle), e.g. `"resumes a preempted
    /// task"`; empty leaves it out of the legend (marks are still drawn).
    pub start_mark_key: String,
    /// Legend text of the end mark (tick), e.g. `"preempted"`; empty leaves
    /// it out of the legend.
    pub end_mark_key: String,
    /// The pieces; later ones are drawn on top, marks over every piece.
    pub bars: Vec<CategoryBar>,
}

/// Draws `chart`: rows (y, `y_label`) against hours since `time_origin`
/// (x, `x_label`) over the window, one filled rectangle per piece and row
/// range, clipped to the window, in its category's colour (its start and
/// end edges, not its top and bottom, in a darker shade where the bar is
/// at least 5 px wide, so that thin rows are not striped), the start and
/// end marks over every bar, and a legend to the right (the categories,
/// then the marks drawn on a grey sample bar); writes `<stem>.png` and
/// `<stem>.svg` (creating the parent directory) and returns their paths in
/// that order.
///
/// # Errors
/// [`ReportError::Invalid`] for zero rows, a window that is empty, reversed
/// or not finite, a non-finite origin, a piece whose category is out of
/// range, a figure size out of range or an empty stem (nothing is written
/// then); [`ReportError::CreateDir`] / [`ReportError::Draw`] naming the
/// directory or file that could not be written.
pub fn category_gantt_chart(
    chart: &CategoryGantt,
    fig: &Figure,
    stem: &Path,
) -> Result<Vec<PathBuf>, ReportError> {
    chart.check().map_err(|reason| ReportError::Invalid {
        stem: stem.to_path_buf(),
        reason,
    })?;
    super::render(chart, fig, stem)
}

impl CategoryGantt {
    /// Why the chart cannot be drawn, if it cannot.
    fn check(&self) -> Result<(), String> {
        self.frame().check()?;
        let n = self.categories.len();
        match self.bars.iter().find(|b| b.category >= n) {
            Some(b) => Err(format!(
                "the piece of job {} has category {} but there are {n} categories",
                b.job, b.category
            )),
            None => Ok(()),
        }
    }

    /// What this chart shares with a [`GanttChart`].
    fn frame(&self) -> Frame<'_> {
        Frame {
            title: &self.title,
            rows: self.rows,
            window: self.window,
            origin: self.time_origin,
            x_label: &self.x_label,
            y_label: &self.y_label,
        }
    }
}

/// The frame both kinds of chart share: title, rows, window, axes.
struct Frame<'a> {
    title: &'a str,
    rows: u32,
    window: (f64, f64),
    origin: f64,
    x_label: &'a str,
    y_label: &'a str,
}

impl Frame<'_> {
    /// Why the chart cannot be drawn, if it cannot.
    fn check(&self) -> Result<(), String> {
        let (from, to) = self.window;
        if self.rows == 0 {
            return Err(format!(
                "the cluster has no rows (0 on the {} axis)",
                self.y_label
            ));
        }
        if !(from.is_finite() && to.is_finite() && self.origin.is_finite()) {
            return Err(format!(
                "window ({from}, {to}) s and origin {} s must be finite",
                self.origin
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
        (t - self.origin) / 3600.0
    }

    /// The part `(left, right)` in hours of `start..end` (s) inside the
    /// window, if the times are finite, ordered and overlap it.
    fn visible(&self, start: f64, end: f64) -> Option<(f64, f64)> {
        if !(start.is_finite() && end.is_finite() && start < end) {
            return None;
        }
        let (h0, h1) = self.hours();
        let (l, r) = (self.h(start).max(h0), self.h(end).min(h1));
        (l < r).then_some((l, r))
    }

    /// Whether time `t` (s) is strictly inside the window.
    fn inside(&self, t: f64) -> bool {
        self.window.0 < t && t < self.window.1
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

/// Colour of the edge marks.
const MARK: RGBColor = BLACK;

/// Fill of the sample bar the legend draws a mark on.
const MARK_SAMPLE_FILL: RGBColor = RGBColor(0xD0, 0xD0, 0xD0);

/// One bar resolved to its fill: what the shared drawing needs.
struct Piece<'a> {
    job: i64,
    rows: &'a [Range<u32>],
    start: f64,
    end: f64,
    fill: RGBColor,
    outline: Outline,
    start_mark: bool,
    end_mark: bool,
}

/// Which edges of a bar are drawn in a darker shade of its fill.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outline {
    /// All four, where the bar is at least [`MIN_OUTLINED_PX`] tall and
    /// wide (value colouring: a task over a block of nodes).
    Box,
    /// The start and end only, where the bar is at least
    /// [`MIN_OUTLINED_PX`] wide (category colouring: one row per core, so
    /// that consecutive pieces on a core stay apart without striping
    /// every row).
    Ends,
}

/// An edge mark in backend pixels: the piece's pixel box
/// `(left, top, right, bottom)`.
enum Mark {
    Start(i32, i32, i32, i32),
    End(i32, i32, i32, i32),
}

/// Draws the frame of `frame` with a side column `side` px wide, then the
/// pieces (fills, outlines), the marks over them and the job numbers that
/// fit; returns the side column for the key.
fn draw_gantt<'p, DB: DrawingBackend>(
    root: &Area<DB>,
    fig: &Figure,
    frame: &Frame<'_>,
    side: u32,
    pieces: impl Iterator<Item = Piece<'p>>,
) -> Result<Area<DB>, DrawFail> {
    let sizes = Sizes::of(fig);
    let (plot, key) = layout::frame(root, frame.title, side, &sizes)?;

    let (h0, h1) = frame.hours();
    let x = hour_axis(h0, h1);
    let y = style::exact_axis(0.0, f64::from(frame.rows), 8, Steps::Integer);
    let (xs, ys) = (x.step, y.step);
    let fx = move |v: &f64| style::format_tick(*v, xs);
    let fy = move |v: &f64| style::format_tick(*v, ys);
    let axes = Axes {
        x,
        y,
        fx: &fx,
        fy: &fy,
        x_label: frame.x_label,
        y_label: frame.y_label,
        x_grid: true,
    };
    let chart = layout::chart(&plot, &axes, &sizes)?;
    let area = chart.plotting_area();

    let label_style = text(sizes.tick * 0.7).pos(Pos::new(HPos::Center, VPos::Center));
    let mut labels = Vec::new();
    let mut marks = Vec::new();
    for b in pieces {
        let Some((l, r)) = frame.visible(b.start, b.end) else {
            continue;
        };
        for rows in b.rows {
            let (lo, hi) = (rows.start, rows.end.min(frame.rows));
            if lo >= hi {
                continue;
            }
            let (bot, top) = (f64::from(lo), f64::from(hi));
            area.draw(&Rectangle::new([(l, bot), (r, top)], b.fill.filled()))?;
            let (px0, py0) = chart.backend_coord(&(l, top));
            let (px1, py1) = chart.backend_coord(&(r, bot));
            // Outlines only where the bar is tall and wide enough to
            // keep its fill: on a cluster of many nodes per pixel row
            // they would merge into a wash of their own colour.
            let wide = px1 - px0 >= MIN_OUTLINED_PX;
            match b.outline {
                Outline::Box if wide && py1 - py0 >= MIN_OUTLINED_PX => {
                    area.draw(&Rectangle::new(
                        [(l, bot), (r, top)],
                        outline_of(b.fill).stroke_width(1),
                    ))?;
                }
                Outline::Ends if wide => {
                    // In pixels, so that both edges fall inside the bar.
                    let line = outline_of(b.fill).stroke_width(1);
                    for x in [px0, px1 - 1] {
                        root.draw(&PathElement::new(vec![(x, py0), (x, py1 - 1)], line))?;
                    }
                }
                _ => {}
            }
            if b.start_mark && frame.inside(b.start) {
                marks.push(Mark::Start(px0, py0, px1, py1));
            }
            if b.end_mark && frame.inside(b.end) {
                marks.push(Mark::End(px0, py0, px1, py1));
            }
            // The job number, where it fits.
            let label = b.job.to_string();
            let need = style::text_width(&plot, &label, &label_style) as i32 + 6;
            if px1 - px0 >= need && py1 - py0 >= (sizes.tick * 0.7 + 4.0) as i32 {
                let dark = b.fill.0 as u32 + b.fill.1 as u32 + b.fill.2 as u32 <= 3 * 140;
                let colour = if dark { WHITE } else { BLACK };
                labels.push((label, ((l + r) / 2.0, (bot + top) / 2.0), colour));
            }
        }
    }
    // Marks over every bar, so that the next piece on a row cannot hide
    // the end of the previous one.
    for m in marks {
        draw_mark(root, &m, &sizes)?;
    }
    // Job numbers last, so that no bar covers one.
    for (label, at, colour) in labels {
        area.draw(&Text::new(label, at, label_style.clone().color(&colour)))?;
    }
    Ok(key)
}

/// Draws an edge mark on `root` (backend pixels), centred on the piece's
/// rows and at most half the bar wide. The tick spans the rows' height and
/// the triangle as much up to 16 px (scaled); both are at least 7 px tall
/// (scaled), so that they stay visible on rows 2–3 px tall.
fn draw_mark<DB: DrawingBackend>(
    root: &Area<DB>,
    mark: &Mark,
    sizes: &Sizes,
) -> Result<(), DrawFail> {
    let (&Mark::Start(x0, y0, x1, y1) | &Mark::End(x0, y0, x1, y1)) = mark;
    let (least, most) = (sizes.px(7.0) as i32, sizes.px(16.0) as i32);
    let height = match mark {
        Mark::Start(..) => (y1 - y0).clamp(least, most),
        Mark::End(..) => (y1 - y0).max(least),
    };
    let mid2 = y0 + y1; // twice the middle, to keep half pixels
    let (top, bottom) = ((mid2 - height) / 2, (mid2 + height + 1) / 2);
    let room = ((x1 - x0) / 2).max(1);
    match mark {
        Mark::Start(..) => {
            let w = (height * 4 / 5).min(room).max(1);
            root.draw(&Polygon::new(
                vec![(x0, top), (x0 + w, (top + bottom) / 2), (x0, bottom)],
                MARK.filled(),
            ))?;
        }
        Mark::End(..) => {
            let w = (sizes.px(3.0) as i32).min(room);
            root.draw(&Rectangle::new(
                [(x1 - w, top), (x1, bottom)],
                MARK.filled(),
            ))?;
        }
    }
    Ok(())
}

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
        let frame = self.frame();
        let any_unknown = self
            .bars
            .iter()
            .any(|b| b.value_fraction.is_nan() && frame.visible(b.start, b.end).is_some());
        let pieces = self.bars.iter().map(|b| Piece {
            job: b.job,
            rows: &b.nodes,
            start: b.start,
            end: b.end,
            fill: viridis(b.value_fraction),
            outline: Outline::Box,
            start_mark: false,
            end_mark: false,
        });
        let key = draw_gantt(root, fig, &frame, side, pieces)?;

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
        // Below the gradient: idle (nothing drawn: the background), then
        // bars whose value is unknown, if any.
        let mut uy = y0 + grad_h + line_h;
        key.draw(&Rectangle::new(
            [(gx, uy), (gx + bar_w as i32, uy + line_h)],
            WHITE.filled(),
        ))?;
        key.draw(&Rectangle::new(
            [(gx, uy), (gx + bar_w as i32, uy + line_h)],
            BLACK.stroke_width(1),
        ))?;
        key.draw_text(
            "idle",
            &tick_style,
            (gx + bar_w as i32 + 10, uy + line_h / 2),
        )?;
        if any_unknown {
            uy += line_h + line_h / 2;
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

/// How a legend entry of a [`CategoryGantt`] shows what it names.
#[derive(Clone, Copy)]
enum Sample {
    /// A filled square of the category's colour.
    Fill(RGBColor),
    /// A grey sample bar with the mark drawn as on the chart.
    Mark(bool),
}

impl Drawable for CategoryGantt {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        fig: &Figure,
    ) -> Result<(), DrawFail> {
        let sizes = Sizes::of(fig);
        let mut entries: Vec<(&str, Sample)> = self
            .categories
            .iter()
            .map(|(name, c)| (name.as_str(), Sample::Fill(*c)))
            .collect();
        if !self.start_mark_key.is_empty() {
            entries.push((&self.start_mark_key, Sample::Mark(true)));
        }
        if !self.end_mark_key.is_empty() {
            entries.push((&self.end_mark_key, Sample::Mark(false)));
        }
        let style = text(sizes.legend);
        let widest = entries
            .iter()
            .flat_map(|(name, _)| name.lines())
            .map(|l| style::text_width(root, l, &style))
            .max()
            .unwrap_or(0);
        let sample_w = (sizes.legend * 2.2).round() as u32;
        let side = widest + sample_w + 5 * sizes.margin;

        let pieces = self.bars.iter().map(|b| Piece {
            job: b.job,
            rows: &b.rows,
            start: b.start,
            end: b.end,
            // `check` refused an index out of range; grey keeps drawing
            // total all the same.
            fill: self
                .categories
                .get(b.category)
                .map_or(UNKNOWN_FILL, |(_, c)| *c),
            outline: Outline::Ends,
            start_mark: b.start_mark,
            end_mark: b.end_mark,
        });
        let key = draw_gantt(root, fig, &self.frame(), side, pieces)?;
        draw_category_key(root, &key, &entries, sample_w as i32, &sizes)
    }
}

/// Draws the legend of a [`CategoryGantt`] in a frame at the top of `key`:
/// one entry per category or mark, its text (one line per `\n`) to the
/// right of its sample.
fn draw_category_key<DB: DrawingBackend>(
    root: &Area<DB>,
    key: &Area<DB>,
    entries: &[(&str, Sample)],
    sample_w: i32,
    sizes: &Sizes,
) -> Result<(), DrawFail> {
    if entries.is_empty() {
        return Ok(());
    }
    let style = text(sizes.legend).pos(Pos::new(HPos::Left, VPos::Center));
    let line = (sizes.legend * 1.25).round() as i32;
    let gap = (sizes.legend * 0.5).round() as i32;
    let pad = (sizes.margin / 2) as i32;
    let (w, _) = key.dim_in_pixel();
    let right = w.saturating_sub(sizes.margin) as i32;
    let top = sizes.margin as i32;
    let sw = (sizes.legend * 1.1).round() as i32;
    let mut y = top + pad;
    for (name, sample) in entries {
        let lines = name.lines().count().max(1) as i32;
        let mid = y + line / 2;
        let x = pad;
        match *sample {
            Sample::Fill(c) => {
                let r = [(x, mid - sw / 2), (x + sw, mid + sw / 2)];
                key.draw(&Rectangle::new(r, c.filled()))?;
                key.draw(&Rectangle::new(r, outline_of(c).stroke_width(1)))?;
            }
            Sample::Mark(start) => {
                // A sample bar as tall as a thin row, the mark on its edge,
                // in root pixels like the chart's marks.
                let (ox, oy) = key.get_base_pixel();
                let (x0, x1) = (ox + x, ox + x + sample_w);
                let h = sizes.px(10.0) as i32;
                let (y0, y1) = (oy + mid - h / 2, oy + mid - h / 2 + h);
                root.draw(&Rectangle::new(
                    [(x0, y0), (x1, y1)],
                    MARK_SAMPLE_FILL.filled(),
                ))?;
                let m = if start {
                    Mark::Start(x0, y0, x1, y1)
                } else {
                    Mark::End(x0, y0, x1, y1)
                };
                draw_mark(root, &m, sizes)?;
            }
        }
        let tx = x + sample_w.max(sw) + 2 * pad;
        for (i, l) in name.lines().enumerate() {
            key.draw_text(l, &style, (tx, mid + line * i as i32))?;
        }
        y += line * lines + gap;
    }
    key.draw(&Rectangle::new(
        [(0, top), (right, y - gap + pad)],
        ShapeStyle {
            color: RGBColor(0x80, 0x80, 0x80).to_rgba(),
            filled: false,
            stroke_width: 1,
        },
    ))?;
    Ok(())
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

    /// Four cores over one hour: a critical piece that completes, a
    /// non-critical one preempted at 0.5 h and resumed on another core,
    /// and a piece cut by the window on both sides.
    fn sample_categories() -> CategoryGantt {
        let piece = |job, core: u32, start, end, category, start_mark, end_mark| CategoryBar {
            job,
            rows: std::iter::once(core..core + 1).collect(),
            start,
            end,
            category,
            start_mark,
            end_mark,
        };
        CategoryGantt {
            title: "four cores".into(),
            x_label: "time since the start of the window (h)".into(),
            y_label: "core".into(),
            rows: 4,
            window: (3600.0, 7200.0),
            time_origin: 0.0,
            categories: vec![
                ("critical".into(), RGBColor(0xD5, 0x5E, 0x00)),
                (
                    "non-critical,\nends unfinished".into(),
                    RGBColor(0x8C, 0xBF, 0xDC),
                ),
            ],
            start_mark_key: "resumes".into(),
            end_mark_key: "preempted".into(),
            bars: vec![
                piece(1, 0, 3600.0, 5000.0, 0, false, false),
                piece(2, 1, 4000.0, 5400.0, 1, false, true),
                piece(2, 2, 5460.0, 7000.0, 0, true, false),
                // Marks on edges outside the window are not drawn.
                piece(3, 3, 3000.0, 9000.0, 1, true, true),
            ],
        }
    }

    #[test]
    fn category_chart_writes_png_and_svg_with_its_legend_and_y_label() {
        let dir = tempfile::tempdir().unwrap();
        let stem = dir.path().join("sub/categories");
        let chart = sample_categories();
        let paths = category_gantt_chart(&chart, &Figure::default(), &stem).unwrap();
        assert_eq!(
            paths,
            vec![stem.with_extension("png"), stem.with_extension("svg")]
        );
        assert!(std::fs::metadata(&paths[0]).unwrap().len() > 1000);
        let svg = std::fs::read_to_string(&paths[1]).unwrap();
        for s in [
            "four cores",
            "core",
            "time since the start of the window (h)",
            "critical",
            "ends unfinished",
            "resumes",
            "preempted",
        ] {
            assert!(svg.contains(s), "{s} missing from the SVG");
        }
        assert!(!svg.contains("value earned"), "no viridis key");
        assert!(svg.contains("<polygon"), "the resume triangle is drawn");
    }

    #[test]
    fn an_unknown_category_is_refused_without_writing() {
        let dir = tempfile::tempdir().unwrap();
        let mut chart = sample_categories();
        chart.bars[1].category = 2;
        let stem = dir.path().join("bad");
        let err = category_gantt_chart(&chart, &Figure::default(), &stem).unwrap_err();
        assert!(matches!(err, ReportError::Invalid { .. }), "{err}");
        assert!(err.to_string().contains("category 2"), "{err}");
        assert!(!dir.path().join("bad.png").exists());
        chart.categories.clear();
        chart.bars.clear();
        // No categories and no pieces is an empty chart, not an error.
        category_gantt_chart(&chart, &Figure::default(), &stem).unwrap();
    }

    #[test]
    fn category_chart_rejects_zero_rows_and_bad_windows() {
        let mut chart = sample_categories();
        chart.rows = 0;
        assert!(chart.check().unwrap_err().contains("core"));
        chart.rows = 3;
        chart.window = (7200.0, 3600.0);
        assert!(chart.check().is_err());
        chart.window = (0.0, 3600.0);
        chart.time_origin = f64::NAN;
        assert!(chart.check().is_err());
    }
}
