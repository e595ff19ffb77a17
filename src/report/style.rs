//! The shared look of every figure: the heuristic palette and its rule, the
//! embedded font, font sizes scaled to the figure, the legend column, "nice" axis ticks and
//! the sequential colour scale of the Gantt charts.

use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{FontDesc, FontFamily, FontStyle, RGBColor, TextStyle};

use super::figure::{DrawFail, Figure, ReportError};

/// The family name the embedded font is registered under (plotters'
/// `FontFamily::SansSerif` resolves to it).
const FONT_FAMILY: &str = "sans-serif";

/// DejaVu Sans 2.37 (Bitstream Vera licence, see `fonts/LICENSE-DejaVu.txt`).
static FONT_BYTES: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");

/// Whether registering the embedded font succeeded; registered at most once.
static FONT_REGISTERED: OnceLock<bool> = OnceLock::new();

/// Registers the embedded DejaVu Sans with plotters (once per process) so
/// that no system font is needed.
///
/// # Errors
/// [`ReportError::Font`] if plotters rejects the embedded font file.
pub(crate) fn ensure_font() -> Result<(), ReportError> {
    let ok = *FONT_REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT_FAMILY, FontStyle::Normal, FONT_BYTES).is_ok()
    });
    if ok { Ok(()) } else { Err(ReportError::Font) }
}

/// The qualitative palette of the series of a figure: twelve colours, as
/// many as the largest heuristic registry (environment C's twelve), given
/// out by position in the figure's palette order ([`heuristic_color`]).
///
/// The first seven are Okabe & Ito's (2008) colour-blind-safe colours
/// without their yellow (faint as a line on white), so the four
/// environments' first seven heuristics (environment D has six) take them;
/// then Paul Tol's wine, indigo and olive (environment B's last three), a
/// mid grey and, last, Okabe & Ito's yellow (only environment C's twelfth).
/// None is near white. Past the seventh, colour-blind viewers may confuse a
/// colour with one of the first seven (olive with orange or vermillion,
/// grey with bluish green under deuteranopia); the first seven stay apart.
pub const PALETTE: [RGBColor; 12] = [
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0x88, 0x22, 0x55), // wine (Tol)
    RGBColor(0x33, 0x22, 0x88), // indigo (Tol)
    RGBColor(0x99, 0x99, 0x33), // olive (Tol)
    RGBColor(0x99, 0x99, 0x99), // grey
    RGBColor(0xF0, 0xE4, 0x42), // yellow
];

/// Colour of the series named `name` in a figure whose palette order is
/// `palette` ([`super::Figure::palette`]: the caller passes its
/// environment's heuristic registry, in registry order).
///
/// The one rule: a name at index `i` of `palette` (compared ignoring ASCII
/// case) is drawn in `PALETTE[i]` (`i` modulo 12 past the twelfth). A
/// heuristic's colour is thus a function of its position in its
/// environment's registry alone: the same in every figure of that
/// environment, whichever heuristics a figure draws and in whatever order,
/// and no two heuristics of one registry share a colour (every registry
/// has at most [`PALETTE`]`.len()` entries). No name is singled out
/// (environment A's `maxvpr-ph` is black only as A's seventh heuristic).
///
/// Any other name (a user's label, a series that is not a heuristic) is
/// hashed (FNV-1a of its lower-case bytes, stable across runs and
/// platforms) into the colours the palette order leaves spare,
/// `PALETTE[palette.len()..]`, or into the whole palette when none is
/// spare: it never takes a listed name's colour while one is spare, and two
/// such names may share a colour.
pub fn heuristic_color(name: &str, palette: &[String]) -> RGBColor {
    if let Some(i) = palette.iter().position(|h| h.eq_ignore_ascii_case(name)) {
        return PALETTE[i % PALETTE.len()];
    }
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.to_ascii_lowercase().bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let spare = match PALETTE.get(palette.len()..) {
        Some(rest) if !rest.is_empty() => rest,
        _ => &PALETTE[..],
    };
    spare[(hash % spare.len() as u64) as usize]
}

/// Relative luminance-like brightness in 0..1 (for choosing outline shades).
fn brightness(c: RGBColor) -> f64 {
    (0.299 * f64::from(c.0) + 0.587 * f64::from(c.1) + 0.114 * f64::from(c.2)) / 255.0
}

/// Whether black lines drawn over `c` would be hard to see.
pub(crate) fn is_dark(c: RGBColor) -> bool {
    brightness(c) < 0.2
}

/// Whether a line drawn in `c` on white would be faint (Okabe & Ito's
/// yellow): such lines are drawn over a [`CASING`].
pub(crate) fn is_pale(c: RGBColor) -> bool {
    brightness(c) > 0.75
}

/// The dark grey drawn under a pale line, a little wider, so that it
/// shows on white (a neutral shade, not a darker yellow that would look
/// like the palette's olive).
pub(crate) const CASING: RGBColor = RGBColor(0x50, 0x50, 0x50);

/// A darker shade of `c` (or a mid grey for black) to outline filled shapes.
pub(crate) fn outline_of(c: RGBColor) -> RGBColor {
    if is_dark(c) {
        RGBColor(0x60, 0x60, 0x60)
    } else {
        let f = |v: u8| (f64::from(v) * 0.55) as u8;
        RGBColor(f(c.0), f(c.1), f(c.2))
    }
}

/// Viridis (matplotlib) sampled at nine equally spaced points.
const VIRIDIS: [(u8, u8, u8); 9] = [
    (0x44, 0x01, 0x54),
    (0x47, 0x2D, 0x7B),
    (0x3B, 0x52, 0x8B),
    (0x2C, 0x72, 0x8E),
    (0x21, 0x91, 0x8C),
    (0x28, 0xAE, 0x80),
    (0x5E, 0xC9, 0x62),
    (0xAD, 0xDC, 0x30),
    (0xFD, 0xE7, 0x25),
];

/// Fill of a Gantt bar whose value fraction is not a number.
pub(crate) const UNKNOWN_FILL: RGBColor = RGBColor(0xC8, 0xC8, 0xC8);

/// Viridis colour of `t` in 0..1 (clamped; NaN gives [`UNKNOWN_FILL`]).
pub(crate) fn viridis(t: f64) -> RGBColor {
    if t.is_nan() {
        return UNKNOWN_FILL;
    }
    let t = t.clamp(0.0, 1.0) * (VIRIDIS.len() - 1) as f64;
    let i = (t.floor() as usize).min(VIRIDIS.len() - 2);
    let f = t - i as f64;
    let (a, b) = (VIRIDIS[i], VIRIDIS[i + 1]);
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Pixel sizes of text and lines, scaled from the 1200 × 700 design size.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sizes {
    /// Scale relative to 1200 × 700.
    pub scale: f64,
    /// Title font size (px).
    pub title: f64,
    /// Axis description font size (px).
    pub desc: f64,
    /// Tick label font size (px).
    pub tick: f64,
    /// Legend font size (px).
    pub legend: f64,
    /// Outer margin (px).
    pub margin: u32,
}

impl Sizes {
    /// Sizes for a figure of `fig.width` × `fig.height` pixels.
    pub fn of(fig: &Figure) -> Self {
        let scale = (f64::from(fig.width) / 1200.0)
            .min(f64::from(fig.height) / 700.0)
            .clamp(0.5, 4.0);
        Self {
            scale,
            title: 30.0 * scale,
            desc: 23.0 * scale,
            tick: 19.0 * scale,
            legend: 20.0 * scale,
            margin: (14.0 * scale).round() as u32,
        }
    }

    /// Line width scaled (px, at least 1).
    pub fn px(&self, base: f64) -> u32 {
        ((base * self.scale).round() as u32).max(1)
    }
}

/// A black text style of `size` px in the embedded font.
pub(crate) fn text(size: f64) -> TextStyle<'static> {
    TextStyle::from(FontDesc::new(
        FontFamily::SansSerif,
        size,
        FontStyle::Normal,
    ))
    .color(&BLACK)
}

/// Estimated pixel width of `s` in `style` (0 if it cannot be measured).
pub(crate) fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    style: &TextStyle,
) -> u32 {
    area.estimate_text_size(s, style).map_or(0, |(w, _)| w)
}

/// How a legend entry shows its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Swatch {
    /// A filled square (bar charts).
    Block,
    /// A short thick line (line charts).
    Line,
}

/// Width in pixels of a legend column holding `names`.
pub(crate) fn legend_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    names: &[&str],
    sizes: &Sizes,
) -> u32 {
    let style = text(sizes.legend);
    let widest = names
        .iter()
        .map(|n| text_width(area, n, &style))
        .max()
        .unwrap_or(0);
    let swatch = (sizes.legend * 1.6) as u32;
    widest + swatch + 3 * sizes.margin
}

/// Draws a framed legend at the top of `area` (a column to the right of the
/// plot), one row per `(name, colour)`.
pub(crate) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(&str, RGBColor)],
    swatch: Swatch,
    sizes: &Sizes,
    top: i32,
) -> Result<(), DrawFail> {
    if entries.is_empty() {
        return Ok(());
    }
    let (w, _) = area.dim_in_pixel();
    let style = text(sizes.legend).pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Left,
        plotters::style::text_anchor::VPos::Center,
    ));
    let row = (sizes.legend * 1.5).round() as i32;
    let pad = (sizes.margin / 2) as i32;
    let left = 0;
    let right = w.saturating_sub(sizes.margin) as i32;
    let bottom = top + 2 * pad + row * entries.len() as i32;
    area.draw(&Rectangle::new(
        [(left, top), (right, bottom)],
        ShapeStyle {
            color: RGBColor(0x80, 0x80, 0x80).to_rgba(),
            filled: false,
            stroke_width: 1,
        },
    ))?;
    let sw = (sizes.legend * 1.1).round() as i32;
    for (i, (name, colour)) in entries.iter().enumerate() {
        let y = top + pad + row * i as i32 + row / 2;
        let x = left + pad;
        match swatch {
            Swatch::Block => {
                area.draw(&Rectangle::new(
                    [(x, y - sw / 2), (x + sw, y + sw / 2)],
                    colour.filled(),
                ))?;
                area.draw(&Rectangle::new(
                    [(x, y - sw / 2), (x + sw, y + sw / 2)],
                    outline_of(*colour).stroke_width(1),
                ))?;
            }
            Swatch::Line => {
                let width = sizes.px(3.5);
                if is_pale(*colour) {
                    area.draw(&PathElement::new(
                        vec![(x - 1, y), (x + sw + 1, y)],
                        CASING.stroke_width(width + 2),
                    ))?;
                }
                area.draw(&PathElement::new(
                    vec![(x, y), (x + sw, y)],
                    colour.stroke_width(width),
                ))?;
            }
        }
        area.draw_text(name, &style, (x + sw + pad, y))?;
    }
    Ok(())
}

/// Ticks of one linear axis.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Axis {
    /// Lower end of the axis (a multiple of `step`).
    pub lo: f64,
    /// Upper end of the axis (a multiple of `step`).
    pub hi: f64,
    /// Labelled ticks.
    pub ticks: Vec<f64>,
    /// Unlabelled light grid lines (half steps).
    pub minor: Vec<f64>,
    /// Distance between ticks.
    pub step: f64,
}

/// Which tick steps an axis may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Steps {
    /// 1, 2, 2.5 or 5 × a power of ten.
    Any,
    /// 1, 2 or 5 × a power of ten (e.g. hours: no 2.5 h ticks).
    NoQuarter,
    /// 1, 2 or 5 × a power of ten, at least 1 (node numbers).
    Integer,
}

/// A "nice" step giving about `target` intervals over `span` (> 0): the
/// allowed step nearest to `span / target` on a logarithmic scale.
fn nice_step(span: f64, target: usize, steps: Steps) -> f64 {
    let raw = span / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let quarter: &[f64] = if steps == Steps::Any { &[2.5] } else { &[] };
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .chain(quarter)
        .map(|m| m * mag)
        .min_by(|a, b| (a / raw).ln().abs().total_cmp(&(b / raw).ln().abs()))
        .unwrap_or(mag)
}

/// A linear axis covering `lo..hi` (finite) with about `target` labelled
/// intervals, its ends rounded out to whole steps. An empty span is widened.
pub(crate) fn linear_axis(lo: f64, hi: f64, target: usize, steps: Steps) -> Axis {
    let (mut lo, mut hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    if hi - lo <= f64::EPSILON * lo.abs().max(hi.abs()).max(1e-300) {
        let pad = if lo == 0.0 { 1.0 } else { lo.abs() * 0.1 };
        lo -= pad;
        hi += pad;
    }
    let integer = steps == Steps::Integer;
    let mut step = nice_step(hi - lo, target, steps);
    if !(step.is_finite() && step > 0.0) || (hi - lo) / step > 1000.0 {
        step = hi - lo; // degenerate (subnormal) spans
    }
    if !(step.is_finite() && step > 0.0) {
        step = 1.0;
    }
    if integer {
        step = step.max(1.0).round();
    }
    let first = (lo / step).floor();
    let last = (hi / step).ceil();
    let n = ((last - first) as usize).clamp(1, 200);
    let ticks: Vec<f64> = (0..=n)
        .map(|i| {
            let v = (first + i as f64) * step;
            if v.abs() < step * 1e-9 { 0.0 } else { v }
        })
        .collect();
    let minor = if integer && step < 2.0 {
        Vec::new()
    } else {
        (0..n).map(|i| (first + i as f64 + 0.5) * step).collect()
    };
    Axis {
        lo: ticks[0],
        hi: ticks[n],
        ticks,
        minor,
        step,
    }
}

/// Like [`linear_axis`] but over exactly `lo..hi` (when `lo < hi`): ticks
/// outside are dropped instead of the ends being rounded out.
pub(crate) fn exact_axis(lo: f64, hi: f64, target: usize, steps: Steps) -> Axis {
    let mut a = linear_axis(lo, hi, target, steps);
    if lo < hi {
        let eps = a.step * 1e-9;
        let inside = |v: &f64| *v >= lo - eps && *v <= hi + eps;
        a.ticks.retain(inside);
        a.minor.retain(inside);
        a.lo = lo;
        a.hi = hi;
    }
    a
}

/// Formats a tick value of an axis with step `step`: as few decimals as the
/// step needs, scientific notation for very large or small magnitudes.
pub(crate) fn format_tick(v: f64, step: f64) -> String {
    let v = if v.abs() < step.abs() * 1e-9 { 0.0 } else { v };
    if v != 0.0 && (v.abs() >= 1e7 || step < 1e-4) {
        return format!("{v:.2e}");
    }
    let mut decimals = 0usize;
    let mut s = step.abs();
    while decimals < 6 && (s - s.round()).abs() > 1e-9 * s.max(1.0) {
        s *= 10.0;
        decimals += 1;
    }
    format!("{v:.decimals$}")
}

/// Formats a power of ten `10^k` for a logarithmic axis: plainly between
/// 0.01 and 1000, else as 10 with a superscript exponent.
pub(crate) fn format_decade(k: i32) -> String {
    if (-2..=3).contains(&k) {
        let v = 10f64.powi(k);
        format_tick(v, v)
    } else {
        const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
        let mut s = String::from("10");
        if k < 0 {
            s.push('⁻');
        }
        for d in k.unsigned_abs().to_string().bytes() {
            s.push(SUP[usize::from(d - b'0')]);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_axis_rounds_out_to_nice_steps() {
        let a = linear_axis(0.0, 87.0, 8, Steps::Any);
        assert_eq!(a.lo, 0.0);
        assert_eq!(a.hi, 90.0);
        assert_eq!(a.step, 10.0);
        assert_eq!(a.ticks.len(), 10);
    }

    #[test]
    fn linear_axis_widens_an_empty_span() {
        let a = linear_axis(5.0, 5.0, 8, Steps::Any);
        assert!(a.lo < 5.0 && a.hi > 5.0);
        let z = linear_axis(0.0, 0.0, 8, Steps::Any);
        assert!(z.lo <= -1.0 && z.hi >= 1.0);
    }

    #[test]
    fn integer_axis_never_steps_below_one() {
        let a = linear_axis(0.0, 3.0, 8, Steps::Integer);
        assert_eq!(a.step, 1.0);
        assert!(a.minor.is_empty());
        assert_eq!(linear_axis(0.0, 24.0, 10, Steps::Integer).step, 2.0);
    }

    #[test]
    fn subnormal_spans_still_give_finite_ticks() {
        let a = linear_axis(1e-320, 1e-320, 8, Steps::Any);
        assert!(a.ticks.iter().all(|t| t.is_finite()) && a.lo < a.hi);
        let b = linear_axis(-f64::MAX / 4.0, f64::MAX / 4.0, 8, Steps::Any);
        assert!(b.ticks.iter().all(|t| t.is_finite()) && b.lo < b.hi);
    }

    #[test]
    fn hours_are_not_ticked_in_quarters() {
        assert_eq!(linear_axis(0.0, 24.0, 10, Steps::Any).step, 2.5);
        assert_eq!(linear_axis(0.0, 24.0, 10, Steps::NoQuarter).step, 2.0);
    }

    #[test]
    fn ticks_use_the_decimals_the_step_needs() {
        assert_eq!(format_tick(2.5, 2.5), "2.5");
        assert_eq!(format_tick(20.0, 10.0), "20");
        assert_eq!(format_tick(0.30000000000000004, 0.1), "0.3");
        assert_eq!(format_tick(-1e-17, 0.1), "0.0");
    }

    #[test]
    fn decades_are_plain_near_one_and_superscript_elsewhere() {
        assert_eq!(format_decade(-2), "0.01");
        assert_eq!(format_decade(0), "1");
        assert_eq!(format_decade(3), "1000");
        assert_eq!(format_decade(-5), "10⁻⁵");
        assert_eq!(format_decade(12), "10¹²");
    }

    #[test]
    fn viridis_runs_from_purple_to_yellow() {
        assert_eq!(viridis(0.0), RGBColor(0x44, 0x01, 0x54));
        assert_eq!(viridis(1.0), RGBColor(0xFD, 0xE7, 0x25));
        assert_eq!(viridis(7.0), viridis(1.0));
        assert_eq!(viridis(f64::NAN), UNKNOWN_FILL);
    }
}
