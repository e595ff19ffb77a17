//! Grouped bar charts: for every level (x category) one bar per series,
//! side by side in the series' order and coloured by [`heuristic_color`],
//! each with a 95 % confidence-interval error bar, on a linear or a
//! logarithmic y axis. A chart of one unnamed level names each bar on the
//! x axis by its series.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::element::EmptyElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::layout::{self, Axes};
use super::style::{self, Axis, Sizes, Steps, Swatch, heuristic_color, outline_of, text};
use super::{DrawFail, Drawable, Figure, ReportError};

/// One bar: a mean and the half-width of its 95 % confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bar {
    /// Height of the bar, in the unit of the chart's y axis. A non-finite
    /// mean (NaN, ±∞) is drawn as missing ("n/a"), as is a mean ≤ 0 on a
    /// logarithmic axis.
    pub mean: f64,
    /// Half-width of the 95 % confidence interval, same unit: the error bar
    /// spans `mean ± ci95`. `None`, zero or non-finite: no error bar; a
    /// negative value counts as its absolute value.
    pub ci95: Option<f64>,
}

/// The bars of one series (one heuristic) across the levels of a chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BarSeries {
    /// Series name shown in the legend; its colour is
    /// [`heuristic_color`]`(name, palette)`.
    pub name: String,
    /// One entry per level of the chart, in the same order; `None` (or a
    /// missing entry at the end) is a missing bar, drawn as "n/a". Entries
    /// beyond the number of levels are ignored.
    pub bars: Vec<Option<Bar>>,
}

/// A grouped bar chart (see [`grouped_bars`]).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BarChart {
    /// Title at the top of the figure.
    pub title: String,
    /// Description of the x axis, e.g. "oversubscription level".
    pub x_label: String,
    /// Description of the y axis with its unit, e.g. "% of maximum value
    /// bound" or "seconds per mapping event".
    pub y_label: String,
    /// The x categories, left to right, e.g. `["lower", "intermediate",
    /// "higher"]`. One empty level (`[""]`): the bars are the categories,
    /// each named on the axis by its series.
    pub levels: Vec<String>,
    /// The series; inside each level group their bars stand in this order.
    pub series: Vec<BarSeries>,
    /// Logarithmic y axis (powers of ten), for values spanning decades such
    /// as run times. Bars then rise from the lowest decade shown; a lower
    /// error bar end ≤ 0 is cut at the axis.
    pub log_y: bool,
    /// Linear axes only: the range the y axis may span at most, e.g.
    /// `(0, 100)` for a percentage that cannot leave it. The axis still
    /// covers every bar's mean; an error bar reaching beyond is cut at the
    /// axis and ends in an open arrowhead instead of a cap. `None`: the
    /// axis covers every error bar.
    pub y_clip: Option<(f64, f64)>,
}

/// Draws `chart` as grouped bars with 95 % CI error bars (black, capped;
/// white where they cross a very dark bar),
/// a legend of the series to the right of the plot and horizontal grid
/// lines; writes `<stem>.png` and `<stem>.svg` (creating the parent
/// directory) and returns their paths in that order.
///
/// The linear y axis always includes 0; the logarithmic one spans the whole
/// decades around all bar tops and error bar ends.
///
/// # Errors
/// [`ReportError::Invalid`] for a figure size out of range or an empty
/// stem, [`ReportError::CreateDir`] / [`ReportError::Draw`] naming the
/// directory or file that could not be written.
pub fn grouped_bars(
    chart: &BarChart,
    fig: &Figure,
    stem: &Path,
) -> Result<Vec<PathBuf>, ReportError> {
    super::render(chart, fig, stem)
}

/// The drawable value of series `s` at level `i`: finite mean and a
/// positive finite CI half-width, if any.
fn value(s: &BarSeries, i: usize, log_y: bool) -> Option<(f64, Option<f64>)> {
    let b = s.bars.get(i).copied().flatten()?;
    if !b.mean.is_finite() || (log_y && b.mean <= 0.0) {
        return None;
    }
    let ci = b.ci95.map(f64::abs).filter(|c| c.is_finite() && *c > 0.0);
    Some((b.mean, ci))
}

impl BarChart {
    /// The colour each series is drawn in (its bars and legend swatch), in
    /// series order: [`heuristic_color`] of its name over `fig.palette`, so
    /// it depends on the name and the figure's palette order only.
    pub fn colours(&self, fig: &Figure) -> Vec<RGBColor> {
        self.series
            .iter()
            .map(|s| heuristic_color(&s.name, &fig.palette))
            .collect()
    }

    /// Every drawable (mean, ci) of the chart.
    fn values(&self) -> impl Iterator<Item = (f64, Option<f64>)> + '_ {
        self.series
            .iter()
            .flat_map(move |s| (0..self.levels.len()).filter_map(move |i| value(s, i, self.log_y)))
    }

    /// The y axis: linear from 0, or whole decades (`ticks` are exponents).
    fn y_axis(&self) -> Axis {
        if self.log_y {
            let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
            for (m, ci) in self.values() {
                let c = ci.unwrap_or(0.0);
                let low = if m - c > 0.0 { m - c } else { m };
                lo = lo.min(low);
                hi = hi.max(m + c);
            }
            // Half a decade at least below the lowest value, so that the
            // shortest bar (bars rise from the axis floor) still shows.
            let (mut lo_dec, mut hi_dec) = if lo.is_finite() && hi.is_finite() {
                ((lo.log10() - 0.5).floor(), hi.log10().ceil())
            } else {
                (-1.0, 1.0)
            };
            lo_dec = lo_dec.clamp(-300.0, 300.0);
            hi_dec = hi_dec.clamp(-300.0, 300.0);
            if hi_dec <= lo_dec {
                hi_dec = lo_dec + 1.0;
            }
            let span = (hi_dec - lo_dec) as i64;
            let every = ((span + 9) / 10).max(1);
            let decades: Vec<f64> = (0..=span).map(|d| lo_dec + d as f64).collect();
            let ticks: Vec<f64> = decades
                .iter()
                .copied()
                .filter(|d| (*d as i64).rem_euclid(every) == 0)
                .collect();
            // Light lines at 2..9 × each decade for a few decades, at 2 and
            // 5 × for some more, else at the unlabelled decades.
            let mantissas: &[u8] = match span {
                ..=3 => &[2, 3, 4, 5, 6, 7, 8, 9],
                4..=6 => &[2, 5],
                _ => &[],
            };
            let minor: Vec<f64> = if every == 1 {
                decades[..decades.len() - 1]
                    .iter()
                    .flat_map(|d| mantissas.iter().map(move |m| d + f64::from(*m).log10()))
                    .collect()
            } else {
                decades
                    .iter()
                    .copied()
                    .filter(|d| !ticks.contains(d))
                    .collect()
            };
            Axis {
                lo: lo_dec,
                hi: hi_dec,
                ticks,
                minor,
                step: every as f64,
            }
        } else {
            let (mut lo, mut hi) = (0f64, 0f64);
            for (m, ci) in self.values() {
                let c = ci.unwrap_or(0.0);
                lo = lo.min(m - c);
                hi = hi.max(m + c);
            }
            if !(lo.is_finite() && hi.is_finite()) {
                // Means near f64::MAX overflow with their CI; fall back.
                lo = lo.max(-f64::MAX / 4.0);
                hi = hi.min(f64::MAX / 4.0);
            }
            if let Some((a, b)) = self.y_clip {
                let (mut m_lo, mut m_hi) = (0f64, 0f64);
                for (m, _) in self.values() {
                    m_lo = m_lo.min(m);
                    m_hi = m_hi.max(m);
                }
                lo = lo.max(a.min(m_lo));
                hi = hi.min(b.max(m_hi));
            }
            if hi == lo {
                hi = lo + 1.0;
            }
            let mut axis = style::linear_axis(lo, hi, 8, Steps::Any);
            if let Some((a, b)) = self.y_clip {
                // Rounding out to whole ticks must not pass the clip.
                axis.lo = axis.lo.max(a.min(lo));
                axis.hi = axis.hi.min(b.max(hi));
                axis.ticks.retain(|t| (axis.lo..=axis.hi).contains(t));
                axis.minor.retain(|t| (axis.lo..=axis.hi).contains(t));
            }
            axis
        }
    }

    /// The y coordinate of a value (log10 on a logarithmic axis).
    fn y(&self, v: f64) -> f64 {
        if self.log_y { v.log10() } else { v }
    }
}

impl Drawable for BarChart {
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        fig: &Figure,
    ) -> Result<(), DrawFail> {
        let sizes = Sizes::of(fig);
        let names: Vec<&str> = self.series.iter().map(|s| s.name.as_str()).collect();
        let side = style::legend_width(root, &names, &sizes);
        let (plot, legend) = layout::frame(root, &self.title, side, &sizes)?;

        let n = self.levels.len();
        let slot = 0.8 / self.series.len().max(1) as f64;
        // One unnamed level: the bars themselves are the categories, each
        // named under its bar by its series.
        let bars_named = n == 1 && self.levels[0].is_empty();
        let x = Axis {
            lo: 0.0,
            hi: n.max(1) as f64,
            ticks: if bars_named {
                (0..self.series.len())
                    .map(|j| 0.1 + (j as f64 + 0.5) * slot)
                    .collect()
            } else {
                (0..n).map(|i| i as f64 + 0.5).collect()
            },
            minor: Vec::new(),
            step: 1.0,
        };
        let y = self.y_axis();
        let any_clipped = self.values().any(|(m, c)| {
            c.is_some_and(|c| {
                if self.log_y {
                    m - c <= 0.0
                } else {
                    m - c < y.lo || m + c > y.hi
                }
            })
        });
        let x_label = if any_clipped {
            format!("{}   (arrowheads: 95 % CI cut at the axis)", self.x_label)
        } else {
            self.x_label.clone()
        };
        let levels = &self.levels;
        let series = &self.series;
        let fx = |v: &f64| {
            let i = if bars_named {
                ((v - 0.1) / slot - 0.5).round()
            } else {
                (v - 0.5).round()
            };
            let i = if i >= 0.0 { i as usize } else { usize::MAX };
            if bars_named {
                series.get(i).map(|s| s.name.clone()).unwrap_or_default()
            } else {
                levels.get(i).cloned().unwrap_or_default()
            }
        };
        let step = y.step;
        let fy_lin = move |v: &f64| style::format_tick(*v, step);
        let fy_log = |v: &f64| style::format_decade(v.round() as i32);
        let fy: &dyn Fn(&f64) -> String = if self.log_y { &fy_log } else { &fy_lin };
        let axes = Axes {
            x,
            y,
            fx: &fx,
            fy,
            x_label: &x_label,
            y_label: &self.y_label,
            x_grid: false,
        };
        let chart = layout::chart(&plot, &axes, &sizes)?;
        let area = chart.plotting_area();
        let base = if self.log_y { axes.y.lo } else { 0.0 };

        let gap = slot * 0.06;
        let na_style = text(sizes.tick * 0.75)
            .color(&RGBColor(0x70, 0x70, 0x70))
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        let mut whiskers = Vec::new();
        let mut drawn = 0usize;
        let colours = self.colours(fig);
        for (j, (s, &colour)) in self.series.iter().zip(&colours).enumerate() {
            for i in 0..n {
                let x0 = i as f64 + 0.1 + j as f64 * slot;
                let (l, r) = (x0 + gap, x0 + slot - gap);
                let xc = x0 + slot / 2.0;
                match value(s, i, self.log_y) {
                    Some((mean, ci)) => {
                        let top = self.y(mean);
                        area.draw(&Rectangle::new([(l, base), (r, top)], colour.filled()))?;
                        area.draw(&Rectangle::new(
                            [(l, base), (r, top)],
                            outline_of(colour).stroke_width(1),
                        ))?;
                        if let Some(c) = ci {
                            whiskers.push((xc, mean - c, mean, mean + c, style::is_dark(colour)));
                        }
                        drawn += 1;
                    }
                    None => {
                        area.draw(
                            &(EmptyElement::at((xc, base))
                                + Text::new("n/a", (0, -(sizes.px(4.0) as i32)), na_style.clone())),
                        )?;
                    }
                }
            }
        }
        // Error bars last, so that no neighbouring bar covers a cap. On a very
        // dark bar the half inside the bar (below its top) is white, the half
        // above it black, so both show.
        let cap = slot * 0.22;
        let width = sizes.px(2.0);
        let (axis_lo, axis_hi) = (axes.y.lo, axes.y.hi);
        // Arrowhead height: 3 % of the axis span.
        let head = 0.03 * (axis_hi - axis_lo);
        let mut clipped = 0usize;
        for (xc, lo, mean, hi, dark) in whiskers {
            let top = self.y(mean);
            let (lo_y, lo_cut) = if self.log_y && lo <= 0.0 {
                (base, true)
            } else if !self.log_y && lo < axis_lo {
                (axis_lo, true)
            } else {
                (self.y(lo), false)
            };
            let (hi_y, hi_cut) = if !self.log_y && hi > axis_hi {
                (axis_hi, true)
            } else {
                (self.y(hi), false)
            };
            // (path, inside the bar)
            let mut paths = vec![
                (vec![(xc, lo_y), (xc, top)], true),
                (vec![(xc, top), (xc, hi_y)], false),
            ];
            if hi_cut {
                paths.push((
                    vec![
                        (xc - cap * 0.6, hi_y - head),
                        (xc, hi_y),
                        (xc + cap * 0.6, hi_y - head),
                    ],
                    false,
                ));
                clipped += 1;
            } else {
                paths.push((vec![(xc - cap, hi_y), (xc + cap, hi_y)], false));
            }
            if lo_cut {
                paths.push((
                    vec![
                        (xc - cap * 0.6, lo_y + head),
                        (xc, lo_y),
                        (xc + cap * 0.6, lo_y + head),
                    ],
                    true,
                ));
                clipped += 1;
            } else if !lo_cut {
                paths.push((vec![(xc - cap, lo_y), (xc + cap, lo_y)], true));
            }
            for (p, inside) in paths {
                let colour = if dark && inside { WHITE } else { BLACK };
                area.draw(&PathElement::new(p, colour.stroke_width(width)))?;
            }
        }
        debug_assert_eq!(clipped > 0, any_clipped);
        if drawn == 0 {
            let (w, h) = area.dim_in_pixel();
            area.strip_coord_spec().draw_text(
                "no data",
                &text(sizes.desc).pos(Pos::new(HPos::Center, VPos::Center)),
                (w as i32 / 2, h as i32 / 2),
            )?;
        }

        let entries: Vec<(&str, RGBColor)> = names.iter().copied().zip(colours).collect();
        style::draw_legend(
            &legend,
            &entries,
            Swatch::Block,
            &sizes,
            sizes.margin as i32,
        )?;
        Ok(())
    }
}
