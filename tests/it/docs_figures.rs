//! The figures of `docs/`, drawn from the model they document.
//!
//! `cargo test --release --test it docs_figures -- --ignored` writes them again into
//! `docs/figures/` (PNG only); the figures committed there come from this
//! command. Without `--ignored` the same figures are drawn into a
//! temporary directory, so the drawing itself is tested on every run.

use std::path::{Path, PathBuf};

use swftool::model::utility::{
    CLASS_COUNT, SPAN_FACTORS, TEMPLATE_NAMES, THETA_PER_MEAN_ETC, Urgency, class, theta_for,
};
use swftool::report::Figure;
use swftool::report::lines::{LineChart, LineSeries, Reference, line_chart};

/// Points of `U/P` against `t/ē` for class `id` at `urgency`, θ = 3.7 ē,
/// on a grid of `t/ē` up to `x_max`, with the drop at the span drawn as a
/// vertical segment (zero after it is left to the axis).
fn class_points(id: u8, urgency: Urgency, x_max: f64) -> Vec<(f64, f64)> {
    let e_bar = 600.0;
    let u = class(id, 1.0, urgency, e_bar, theta_for(e_bar, None)).unwrap();
    let span = u.last_positive() / e_bar;
    let mut points = Vec::new();
    let n = 2000;
    for k in 0..=n {
        let x = x_max * f64::from(k) / f64::from(n);
        if x > span {
            break;
        }
        points.push((x, u.value(x * e_bar)));
    }
    // The left limit at S, then the drop to zero.
    points.push((span, u.value(span * e_bar)));
    points.push((span, 0.0));
    points
}

/// Draws the five template figures (four spans each, extreme urgency) into
/// `dir`; returns the PNG paths.
fn draw_classes(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (t, template) in TEMPLATE_NAMES.iter().enumerate() {
        let names: Vec<String> = SPAN_FACTORS.iter().map(|f| format!("S = {f} ē")).collect();
        let mut series: Vec<LineSeries> = (0..4)
            .map(|s| {
                let id = (4 * t + s + 1) as u8;
                LineSeries {
                    name: names[s].clone(),
                    points: class_points(id, Urgency::Extreme, 25.0),
                    legend: Some(format!("class {id}, S = {} ē", SPAN_FACTORS[s])),
                    band: Vec::new(),
                }
            })
            .collect();
        let mut palette = names.clone();
        if t == 0 {
            // Machovec et al. Fig. 1 (ē = 10 min: t/ē = 1.5 and 4).
            let fig1 = "Machovec et al. Fig. 1".to_string();
            series.push(LineSeries {
                name: fig1.clone(),
                points: vec![(1.5, 5.18 / 8.0), (f64::NAN, f64::NAN), (4.0, 2.84 / 8.0)],
                legend: Some("Machovec et al. Fig. 1 (5.18 and 2.84 of 8)".into()),
                band: Vec::new(),
            });
            palette.push(fig1);
        }
        let chart = LineChart {
            title: format!(
                "Classes {}–{} ({}), extreme urgency, θ = {} ē",
                4 * t + 1,
                4 * t + 4,
                template,
                THETA_PER_MEAN_ETC
            ),
            x_label: "completion time since arrival / mean ETC ē".into(),
            y_label: "utility / priority".into(),
            series,
            x_range: Some((0.0, 25.0)),
            bands: Vec::new(),
            references: vec![Reference {
                y: 1.0,
                label: "priority".into(),
            }],
        };
        let fig = Figure {
            width: 1000,
            height: 520,
            palette,
        };
        let stem = dir.join(format!("utility-classes-{}-{}", t + 1, template));
        let paths = line_chart(&chart, &fig, &stem).unwrap();
        for p in &paths {
            if p.extension().is_some_and(|e| e == "svg") {
                std::fs::remove_file(p).unwrap();
            }
        }
        out.push(paths[0].clone());
    }
    out
}

#[test]
fn the_utility_class_figures_draw() {
    let dir = std::env::temp_dir().join(format!("swftool-docs-figures-{}", std::process::id()));
    let pngs = draw_classes(&dir);
    assert_eq!(pngs.len(), 5);
    for p in &pngs {
        assert!(
            std::fs::metadata(p).unwrap().len() > 15_000,
            "{}",
            p.display()
        );
    }
    // Every class is drawn once.
    assert_eq!(CLASS_COUNT as usize, 4 * TEMPLATE_NAMES.len());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes `docs/figures/utility-classes-*.png`.
#[test]
#[ignore = "writes docs/figures/; run with --ignored to regenerate them"]
fn write_the_docs_figures() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/figures");
    for p in draw_classes(&dir) {
        println!("{}", p.display());
    }
}
