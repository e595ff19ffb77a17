//! What every figure is drawn with: its size and palette order
//! ([`Figure`]) and why it could not be written ([`ReportError`]), in a file
//! of their own so that the style (`style.rs`) and the charts import them
//! without importing the renderer that calls them (`report/mod.rs`).

use std::path::PathBuf;

use plotters::prelude::DrawingAreaErrorKind;

/// Pixel size of a figure (both the PNG and the SVG canvas) and its palette
/// order, which gives each series its colour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figure {
    /// Width in pixels (at least [`Figure::MIN_WIDTH`]).
    pub width: u32,
    /// Height in pixels (at least [`Figure::MIN_HEIGHT`]).
    pub height: u32,
    /// The palette order: the name at index `i` is drawn in `PALETTE[i]`
    /// ([`super::heuristic_color`]). The caller passes its environment's whole
    /// heuristic registry in registry order (not the heuristics a figure
    /// happens to draw), so a heuristic has the same colour in every figure
    /// of its environment; names not listed take spare colours.
    pub palette: Vec<String>,
}

impl Figure {
    /// The default size with `names` as the palette order: pass the
    /// environment's registry, in registry order.
    pub fn with_palette<S: ToString>(names: &[S]) -> Figure {
        Figure {
            palette: names.iter().map(ToString::to_string).collect(),
            ..Figure::default()
        }
    }

    /// Smallest accepted width in pixels.
    pub const MIN_WIDTH: u32 = 400;
    /// Smallest accepted height in pixels.
    pub const MIN_HEIGHT: u32 = 250;
    /// Largest accepted width or height in pixels.
    pub const MAX_SIDE: u32 = 16_384;
}

impl Default for Figure {
    /// 1200 × 700 pixels, the size the font sizes are designed for (they
    /// scale with other sizes).
    fn default() -> Self {
        Self {
            width: 1200,
            height: 700,
            palette: Vec::new(),
        }
    }
}

/// Why a figure could not be written.
#[derive(thiserror::Error, Debug)]
pub enum ReportError {
    /// The directory that should hold the figure could not be created.
    #[error("cannot create directory {} for figures", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Drawing or writing one output file failed (I/O errors included).
    #[error("cannot write figure {}: {message}", path.display())]
    Draw {
        /// The PNG or SVG file.
        path: PathBuf,
        /// What plotters reported.
        message: String,
    },
    /// The figure description cannot be drawn (e.g. an empty time window).
    #[error("cannot draw figure {}: {reason}", stem.display())]
    Invalid {
        /// The output stem (path without extension).
        stem: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// plotters rejected the embedded font (should not happen).
    #[error("the embedded DejaVu Sans font could not be registered with plotters")]
    Font,
}

/// A drawing failure inside one backend, before it is tied to a file.
#[derive(Debug)]
pub(crate) struct DrawFail(pub(crate) String);

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for DrawFail {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        DrawFail(e.to_string())
    }
}
