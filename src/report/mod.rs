//! Figures of experiment results, drawn with plotters as PNG and SVG.
//!
//! Three kinds of figure, each written as `<stem>.png` and `<stem>.svg`:
//! [`grouped_bars`](bars::grouped_bars) (a mean per heuristic and level with
//! 95 % confidence interval error bars, linear or logarithmic y),
//! [`line_chart`](lines::line_chart) (e.g. the value earned over a day, built
//! with [`cumulative`](lines::cumulative)) and two Gantt charts (which task
//! ran on which nodes or cores when): [`gantt_chart`](gantt::gantt_chart),
//! coloured by the fraction of its value each task earned, and
//! [`category_gantt_chart`](gantt::category_gantt_chart), coloured by
//! categories the caller names, with marks at the start and end of pieces
//! (e.g. resumption, preemption).
//!
//! Every figure has a white background, a title, axis labels (with the units
//! the caller writes into them) and a legend or colour key in a column to the
//! right of the plot, so it never hides data. A series' colour follows one
//! rule ([`heuristic_color`]): its name's position in the figure's palette
//! order ([`Figure::palette`], the environment's heuristic registry the
//! caller passes) picks a colour of the twelve of [`PALETTE`], so a
//! heuristic has the same colour in every figure of its environment. Text
//! uses DejaVu Sans, embedded in the binary and registered with plotters on
//! first use, so neither building nor running needs a system font; the SVG
//! files keep text as `<text>` elements naming the `sans-serif` family.

pub mod bars;
mod figure;
pub mod gantt;
mod layout;
pub mod lines;
pub mod series;
mod style;

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

pub(crate) use figure::DrawFail;
pub use figure::{Figure, ReportError};
/// The colour type of the figures' public items (plotters' own), so that a
/// caller need not name plotters.
pub use plotters::style::RGBColor;
pub use style::{PALETTE, heuristic_color};

/// Something that can draw itself on any plotters backend.
pub(crate) trait Drawable {
    /// Draws the whole figure on `root` (the full canvas, not yet filled).
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        fig: &Figure,
    ) -> Result<(), DrawFail>;
}

/// `stem` with `.ext` appended (not replacing a dot already in the name).
fn with_ext(stem: &Path, ext: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Checks the figure size, registers the font, creates the parent directory
/// of `stem` and writes `<stem>.png` then `<stem>.svg`.
fn render<C: Drawable>(chart: &C, fig: &Figure, stem: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let side_ok = |v: u32, min: u32| (min..=Figure::MAX_SIDE).contains(&v);
    if !side_ok(fig.width, Figure::MIN_WIDTH) || !side_ok(fig.height, Figure::MIN_HEIGHT) {
        return Err(ReportError::Invalid {
            stem: stem.to_path_buf(),
            reason: format!(
                "figure size {}x{} px is outside {}x{} ..= {m}x{m}",
                fig.width,
                fig.height,
                Figure::MIN_WIDTH,
                Figure::MIN_HEIGHT,
                m = Figure::MAX_SIDE
            ),
        });
    }
    if stem.as_os_str().is_empty() {
        return Err(ReportError::Invalid {
            stem: stem.to_path_buf(),
            reason: "empty output path".into(),
        });
    }
    style::ensure_font()?;
    if let Some(dir) = stem.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| ReportError::CreateDir {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let size = (fig.width, fig.height);
    let png = with_ext(stem, "png");
    finish(&png, |tmp| {
        let root = BitMapBackend::new(tmp, size).into_drawing_area();
        chart.draw(&root, fig)?;
        root.present()?;
        Ok(())
    })?;
    let svg = with_ext(stem, "svg");
    finish(&svg, |tmp| {
        let root = SVGBackend::new(tmp, size).into_drawing_area();
        chart.draw(&root, fig)?;
        root.present()?;
        Ok(())
    })?;
    Ok(vec![png, svg])
}

/// Runs one backend's drawing into a temporary file renamed to `path` once
/// complete ([`crate::atomic`]); on failure removes the partial file and
/// names `path` in the error.
fn finish(
    path: &Path,
    draw: impl FnOnce(&Path) -> Result<(), DrawFail>,
) -> Result<(), ReportError> {
    let failed = |message: String| ReportError::Draw {
        path: path.to_path_buf(),
        message,
    };
    let tmp = crate::atomic::partial_path(path);
    let drawn = draw(&tmp)
        .map_err(|DrawFail(message)| failed(message))
        .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| failed(e.to_string())));
    if drawn.is_err() {
        // The backend, dropped by now, may have written a partial file.
        let _ = std::fs::remove_file(&tmp);
    }
    drawn
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_is_appended_not_substituted() {
        assert_eq!(
            with_ext(Path::new("out/fig.v1"), "png"),
            PathBuf::from("out/fig.v1.png")
        );
    }
}
