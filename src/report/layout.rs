//! The common frame of every figure: white canvas, centred title, a plot on
//! the left and a column on the right for the legend or colour key, and a
//! Cartesian chart with explicit ticks, grid lines and axis descriptions.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::DrawFail;
use super::style::{Axis, Sizes, text, text_width};

/// One axis of a figure: a linear f64 range whose bold (labelled) and light
/// grid points are exactly those of an [`Axis`]. (plotters' own
/// `WithKeyPoints` over f64 has no default label formatter, which the mesh
/// requires even when a formatter is given.)
pub(crate) struct Spec {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
    minor: Vec<f64>,
}

impl Ranged for Spec {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.minor.clone()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}

/// The chart every figure draws on: x and y both [`Spec`].
pub(crate) type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Spec, Spec>>;

/// The plotters coordinate spec of an [`Axis`].
fn spec(axis: &Axis) -> Spec {
    Spec {
        inner: (axis.lo..axis.hi).into(),
        ticks: axis.ticks.clone(),
        minor: axis.minor.clone(),
    }
}

/// A pixel-addressed drawing area.
pub(crate) type Area<DB> = DrawingArea<DB, Shift>;

/// Fills `root` white, draws `title` centred at the top (in a smaller font
/// if it would not fit the width) and splits the rest
/// into the plot area (left) and a side column `side_width` px wide (at
/// most half the width).
pub(crate) fn frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    side_width: u32,
    sizes: &Sizes,
) -> Result<(Area<DB>, Area<DB>), DrawFail> {
    root.fill(&WHITE)?;
    // A title too long for the width is set smaller rather than cut off.
    let (width, _) = root.dim_in_pixel();
    let room = f64::from(width.saturating_sub(4 * sizes.margin).max(1));
    let natural = f64::from(text_width(root, title, &text(sizes.title)).max(1));
    let size = (sizes.title * (room / natural).min(1.0)).max(8.0);
    let body = root
        .margin(sizes.margin, 0, 0, 0)
        .titled(title, text(size))?;
    let (w, _) = body.dim_in_pixel();
    let side = side_width.min(w / 2);
    Ok(body.split_horizontally(w - side))
}

/// What the axes of a chart show.
pub(crate) struct Axes<'f> {
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// Tick label of an x value.
    pub fx: &'f dyn Fn(&f64) -> String,
    /// Tick label of a y value.
    pub fy: &'f dyn Fn(&f64) -> String,
    /// Description of the x axis (with unit).
    pub x_label: &'f str,
    /// Description of the y axis (with unit).
    pub y_label: &'f str,
    /// Whether to draw vertical grid lines.
    pub x_grid: bool,
}

/// Builds the chart on `plot`, sizing the label areas to the tick labels,
/// and draws the grid, the axes, the tick labels and the axis descriptions.
pub(crate) fn chart<'a, DB: DrawingBackend>(
    plot: &'a DrawingArea<DB, Shift>,
    axes: &Axes<'_>,
    sizes: &Sizes,
) -> Result<Chart<'a, DB>, DrawFail> {
    let tick = text(sizes.tick);
    let widest_y = axes
        .y
        .ticks
        .iter()
        .map(|v| text_width(plot, &(axes.fy)(v), &tick))
        .max()
        .unwrap_or(0);
    // Tick marks, tick labels, a gap, then the axis description at the outer
    // edge of the label area.
    let gap = sizes.margin;
    let y_area = widest_y + (sizes.desc * 1.1) as u32 + gap * 3 / 2;
    let x_area = (sizes.tick * 1.2) as u32 + (sizes.desc * 1.1) as u32 + gap;
    let mut chart = ChartBuilder::on(plot)
        .margin(sizes.margin)
        .margin_right(sizes.margin * 2)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(spec(&axes.x), spec(&axes.y))?;
    let mut mesh = chart.configure_mesh();
    if !axes.x_grid {
        mesh.disable_x_mesh();
    }
    mesh.x_label_formatter(axes.fx)
        .y_label_formatter(axes.fy)
        .x_desc(axes.x_label)
        .y_desc(axes.y_label)
        .label_style(tick)
        .axis_desc_style(text(sizes.desc))
        .bold_line_style(BLACK.mix(0.22).stroke_width(1))
        .light_line_style(BLACK.mix(0.08).stroke_width(1))
        .axis_style(BLACK.stroke_width(sizes.px(1.5)))
        .set_all_tick_mark_size(sizes.px(6.0))
        .draw()?;
    Ok(chart)
}
