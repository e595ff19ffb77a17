//! Line charts (one polyline per series, e.g. the cumulative value each
//! heuristic earned over a day) and [`cumulative`], which turns completion
//! events into the step points such a chart draws.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::element::{DashedPathElement, EmptyElement};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{self, Axes};
use super::style::{self, Sizes, Steps, Swatch, heuristic_color, text};
use super::{DrawFail, Drawable, Figure, ReportError};

/// One line of a [`LineChart`].
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineSeries {
    /// Series name shown in the legend; its colour is
    /// [`heuristic_color`]`(name, palette)`.
    pub name: String,
    /// Points `(x, y)` in the units of the chart's axes, joined by straight
    /// segments in the given order (pass [`cumulative`]'s output for a step
    /// shape). A point with a non-finite coordinate breaks the line there; an
    /// isolated point is drawn as a dot.
    pub points: Vec<(f64, f64)>,
    /// Legend text when it is not `name`, e.g. `cmq = conservative` for two
    /// series drawn as one because their points are identical.
    pub legend: Option<String>,
    /// A shaded band around the line in its colour, e.g. a 95 % confidence
    /// interval: `(x, low, high)` in axis units, in x order (empty: none;
    /// points with a non-finite member are skipped).
    pub band: Vec<(f64, f64, f64)>,
}

/// A shaded interval of the x axis with a label at its top, e.g. a
/// warm-up period.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Band {
    /// Start, x units.
    pub from: f64,
    /// End, x units.
    pub to: f64,
    /// Label written at the top of the band.
    pub label: String,
    /// A lighter shade, for a second kind of interval.
    pub light: bool,
}

impl Band {
    /// The two bands of a day's chart, x in hours from the start of the
    /// day: the warm-up before it (`warmup_h` hours, dark) and what comes
    /// after its 24 hours up to `end_h` (light, labelled `after`).
    pub fn day(warmup_h: f64, end_h: f64, after: &str) -> Vec<Band> {
        vec![
            Band {
                from: -warmup_h,
                to: 0.0,
                label: "warm-up".into(),
                light: false,
            },
            Band {
                from: 24.0,
                to: end_h.max(24.0),
                label: after.into(),
                light: true,
            },
        ]
    }
}

/// A horizontal reference line (dashed grey) with a label above its right
/// end, e.g. an upper bound.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reference {
    /// Height, y units.
    pub y: f64,
    /// Label.
    pub label: String,
}

impl Reference {
    /// A reference line at height `y` (y units) labelled `label`.
    pub fn at(y: f64, label: String) -> Reference {
        Reference { y, label }
    }
}

/// A line chart (see [`line_chart`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LineChart {
    /// Title at the top of the figure.
    pub title: String,
    /// Description of the x axis with its unit, e.g. "time since the start
    /// of the day (h)".
    pub x_label: String,
    /// Description of the y axis with its unit, e.g. "value earned".
    pub y_label: String,
    /// The lines, drawn in this order (later ones on top).
    pub series: Vec<LineSeries>,
    /// The x axis span; `None`: exactly the finite x values of all series.
    /// Lines are cut at its ends (a step line keeps its level to the edge).
    pub x_range: Option<(f64, f64)>,
    /// Shaded x intervals, drawn under everything else.
    pub bands: Vec<Band>,
    /// Horizontal reference lines; the y axis includes them.
    pub references: Vec<Reference>,
}

/// Draws `chart`: one line per series in its [`heuristic_color`], a legend to
/// the right of the plot, grid lines; writes `<stem>.png` and `<stem>.svg`
/// (creating the parent directory) and returns their paths in that order.
///
/// The x axis spans `x_range`, or exactly the finite x values of all
/// series; the y axis includes 0, every point inside the x span and every
/// reference line, and is rounded out to whole ticks.
///
/// # Errors
/// [`ReportError::Invalid`] for a figure size out of range or an empty
/// stem, [`ReportError::CreateDir`] / [`ReportError::Draw`] naming the
/// directory or file that could not be written.
pub fn line_chart(
    chart: &LineChart,
    fig: &Figure,
    stem: &Path,
) -> Result<Vec<PathBuf>, ReportError> {
    super::render(chart, fig, stem)
}

/// Cumulative value earned over time, as the corner points of a step line.
///
/// `points` are `(completion time, value)` pairs in seconds and value units,
/// in any order; pairs with a non-finite member are skipped. Times become
/// hours since `origin` (seconds). The result starts at `(0, 0)` — or at
/// `(x, 0)` for the earliest x if a completion precedes `origin` — and for
/// each distinct completion time `x`, in increasing order, holds `(x, sum
/// before)` and `(x, sum after)` (the first only when it differs from the
/// previous point), so joining the points draws a staircase. It ends at the
/// last completion; append a point to extend the line further.
///
/// Example: origin 1000 s, completions `(8200, 5)`, `(4600, 2)`,
/// `(8200, 1)` give `[(0, 0), (1, 0), (1, 2), (2, 2), (2, 8)]`.
pub fn cumulative(points: &[(f64, f64)], origin: f64) -> Vec<(f64, f64)> {
    let mut events: Vec<(f64, f64)> = points
        .iter()
        .map(|&(t, v)| ((t - origin) / 3600.0, v))
        .filter(|(x, v)| x.is_finite() && v.is_finite())
        .collect();
    events.sort_by(|a, b| a.0.total_cmp(&b.0));
    let start = events.first().map_or(0.0, |e| e.0.min(0.0));
    let mut out = vec![(start, 0.0)];
    let mut sum = 0.0;
    let mut i = 0;
    while i < events.len() {
        let x = events[i].0;
        let before = sum;
        while i < events.len() && events[i].0 == x {
            sum += events[i].1;
            i += 1;
        }
        if out.last() != Some(&(x, before)) {
            out.push((x, before));
        }
        out.push((x, sum));
    }
    out
}

/// Maximal runs of consecutive finite points of a series.
fn runs(points: &[(f64, f64)]) -> impl Iterator<Item = &[(f64, f64)]> {
    points
        .split(|(x, y)| !(x.is_finite() && y.is_finite()))
        .filter(|r| !r.is_empty())
}

/// `points` cut to `lo..=hi` in x: a segment crossing an end is
/// interpolated there (so a step line keeps its level to the edge); a
/// non-finite point stays as a break.
fn clip(points: &[(f64, f64)], lo: f64, hi: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len());
    let inside = |x: f64| (lo..=hi).contains(&x);
    let at = |a: (f64, f64), b: (f64, f64), x: f64| {
        let f = if b.0 == a.0 {
            0.0
        } else {
            (x - a.0) / (b.0 - a.0)
        };
        (x, a.1 + f * (b.1 - a.1))
    };
    for (i, &p) in points.iter().enumerate() {
        if !(p.0.is_finite() && p.1.is_finite()) {
            out.push(p);
            continue;
        }
        let prev = i
            .checked_sub(1)
            .map(|j| points[j])
            .filter(|q| q.0.is_finite() && q.1.is_finite());
        if let Some(q) = prev {
            for edge in [lo, hi] {
                let crosses = (q.0 < edge && p.0 > edge) || (q.0 > edge && p.0 < edge);
                if crosses {
                    out.push(at(q, p, edge));
                }
            }
        }
        if inside(p.0) {
            out.push(p);
        } else if out.last().is_some_and(|l: &(f64, f64)| l.0.is_finite()) {
            out.push((f64::NAN, f64::NAN));
        }
    }
    out
}

impl LineChart {
    /// The colour each series is drawn in (its line and legend swatch), in
    /// series order: [`heuristic_color`] of its `name` (not its legend text)
    /// over `fig.palette`, so it depends on the name and the figure's
    /// palette order only.
    pub fn colours(&self, fig: &Figure) -> Vec<RGBColor> {
        self.series
            .iter()
            .map(|s| heuristic_color(&s.name, &fig.palette))
            .collect()
    }

    /// The series as drawn: cut to `x_range` when there is one.
    fn shown(&self) -> Vec<Vec<(f64, f64)>> {
        self.series
            .iter()
            .map(|s| match self.x_range {
                Some((lo, hi)) => clip(&s.points, lo, hi),
                None => s.points.clone(),
            })
            .collect()
    }

    /// Finite extent of all points shown: ((x_min, x_max), (y_min, y_max)).
    fn extent(&self) -> Option<((f64, f64), (f64, f64))> {
        let shown = self.shown();
        let mut it = shown
            .iter()
            .flat_map(|s| s.iter())
            .filter(|(x, y)| x.is_finite() && y.is_finite());
        let &(x, y) = it.next()?;
        let init = ((x, x), (y, y));
        let bands = self.series.iter().flat_map(|s| s.band.iter()).filter(|b| {
            b.0.is_finite()
                && b.1.is_finite()
                && b.2.is_finite()
                && self.x_range.is_none_or(|(lo, hi)| (lo..=hi).contains(&b.0))
        });
        let lines = it.fold(init, |((x0, x1), (y0, y1)), &(x, y)| {
            ((x0.min(x), x1.max(x)), (y0.min(y), y1.max(y)))
        });
        Some(bands.fold(lines, |(xs, (y0, y1)), b| (xs, (y0.min(b.1), y1.max(b.2)))))
    }
}

/// Keeps a span computable: clamps ends so `hi - lo` stays finite.
fn tame(lo: f64, hi: f64) -> (f64, f64) {
    let m = f64::MAX / 4.0;
    (lo.clamp(-m, m), hi.clamp(-m, m))
}

impl Drawable for LineChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        fig: &Figure,
    ) -> Result<(), DrawFail> {
        let sizes = Sizes::of(fig);
        let names: Vec<&str> = self
            .series
            .iter()
            .map(|s| s.legend.as_deref().unwrap_or(&s.name))
            .collect();
        let side = style::legend_width(root, &names, &sizes);
        let (plot, legend) = layout::frame(root, &self.title, side, &sizes)?;

        let extent = self.extent();
        let ((mut x0, mut x1), (mut y0, mut y1)) = extent.unwrap_or(((0.0, 1.0), (0.0, 1.0)));
        if let Some((lo, hi)) = self.x_range.filter(|(lo, hi)| lo < hi) {
            (x0, x1) = (lo, hi);
        }
        for r in self.references.iter().filter(|r| r.y.is_finite()) {
            y0 = y0.min(r.y);
            // Room for the label above the line.
            y1 = y1.max(r.y * 1.06);
        }
        let (x0, x1) = tame(x0, x1);
        let (y0, y1) = tame(y0.min(0.0), y1.max(0.0));
        let x = style::exact_axis(x0, x1, 12, Steps::NoQuarter);
        let y = style::linear_axis(y0, y1, 8, Steps::Any);
        let (xs, ys) = (x.step, y.step);
        let fx = move |v: &f64| style::format_tick(*v, xs);
        let fy = move |v: &f64| style::format_tick(*v, ys);
        let axes = Axes {
            x,
            y,
            fx: &fx,
            fy: &fy,
            x_label: &self.x_label,
            y_label: &self.y_label,
            x_grid: true,
        };
        let chart = layout::chart(&plot, &axes, &sizes)?;
        let area = chart.plotting_area();
        let (ya, yb) = (axes.y.lo, axes.y.hi);
        let label_style = text(sizes.tick).color(&RGBColor(0x40, 0x40, 0x40));
        for b in &self.bands {
            let (l, r) = (b.from.max(x0), b.to.min(x1));
            if l.partial_cmp(&r) != Some(std::cmp::Ordering::Less) {
                continue;
            }
            let shade = if b.light {
                RGBColor(0xF2, 0xF2, 0xF2)
            } else {
                RGBColor(0xE0, 0xE0, 0xE0)
            };
            area.draw(&Rectangle::new([(l, ya), (r, yb)], shade.filled()))?;
            area.draw(
                &(EmptyElement::at((l, yb))
                    + Text::new(
                        b.label.clone(),
                        (sizes.px(4.0) as i32, sizes.px(4.0) as i32),
                        text(sizes.tick * 0.85)
                            .color(&RGBColor(0x40, 0x40, 0x40))
                            .pos(Pos::new(HPos::Left, VPos::Top)),
                    )),
            )?;
        }
        for r in self.references.iter().filter(|r| r.y.is_finite()) {
            area.draw(&DashedPathElement::new(
                vec![(x0, r.y), (x1, r.y)],
                sizes.px(8.0),
                sizes.px(5.0),
                RGBColor(0x55, 0x55, 0x55).stroke_width(sizes.px(2.0)),
            ))?;
            area.draw(
                &(EmptyElement::at((x1, r.y))
                    + Text::new(
                        r.label.clone(),
                        (-(sizes.px(6.0) as i32), -(sizes.px(4.0) as i32)),
                        label_style.pos(Pos::new(HPos::Right, VPos::Bottom)),
                    )),
            )?;
        }
        let width = sizes.px(3.0);
        let colours = self.colours(fig);
        for (&colour, s) in colours.iter().zip(&self.series) {
            let band: Vec<(f64, f64, f64)> = s
                .band
                .iter()
                .copied()
                .filter(|b| b.0.is_finite() && b.1.is_finite() && b.2.is_finite())
                .map(|(x, lo, hi)| (x.clamp(x0, x1), lo, hi))
                .collect();
            if band.len() >= 2 {
                let outline: Vec<(f64, f64)> = band
                    .iter()
                    .map(|b| (b.0, b.1))
                    .chain(band.iter().rev().map(|b| (b.0, b.2)))
                    .collect();
                area.draw(&Polygon::new(outline, colour.mix(0.22).filled()))?;
            }
        }
        for (&colour, points) in colours.iter().zip(self.shown()) {
            // A pale colour (yellow) is drawn over a dark grey casing one
            // pixel wider on each side, so that its line stands out on white.
            let casing = [(style::CASING, 1), (colour, 0)];
            let layers = if style::is_pale(colour) {
                &casing[..]
            } else {
                &casing[1..]
            };
            for &(c, grow) in layers {
                for run in runs(&points) {
                    if run.len() == 1 {
                        area.draw(&Circle::new(run[0], width + 1 + grow, c.filled()))?;
                    } else {
                        area.draw(&PathElement::new(
                            run.to_vec(),
                            c.stroke_width(width + 2 * grow),
                        ))?;
                    }
                }
            }
        }
        if extent.is_none() {
            let (w, h) = area.dim_in_pixel();
            area.strip_coord_spec().draw_text(
                "no data",
                &text(sizes.desc).pos(Pos::new(HPos::Center, VPos::Center)),
                (w as i32 / 2, h as i32 / 2),
            )?;
        }

        let entries: Vec<(&str, RGBColor)> = names.iter().copied().zip(colours).collect();
        style::draw_legend(&legend, &entries, Swatch::Line, &sizes, sizes.margin as i32)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cumulative_of_nothing_is_the_origin() {
        assert_eq!(cumulative(&[], 0.0), vec![(0.0, 0.0)]);
    }

    #[test]
    fn completion_at_the_origin_does_not_repeat_the_start() {
        assert_eq!(cumulative(&[(0.0, 3.0)], 0.0), vec![(0.0, 0.0), (0.0, 3.0)]);
    }

    #[test]
    fn completion_before_the_origin_moves_the_start() {
        assert_eq!(
            cumulative(&[(-3600.0, 1.0), (3600.0, 2.0)], 0.0),
            vec![(-1.0, 0.0), (-1.0, 1.0), (1.0, 1.0), (1.0, 3.0)]
        );
    }

    #[test]
    fn non_finite_points_break_the_line() {
        let pts = [(0.0, 1.0), (1.0, f64::NAN), (2.0, 3.0), (3.0, 4.0)];
        let r: Vec<_> = runs(&pts).collect();
        assert_eq!(r, vec![&pts[0..1], &pts[2..4]]);
    }
}
