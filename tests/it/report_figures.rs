//! The figure module writes readable PNG and SVG files of the requested size
//! for each kind of figure, and its helpers (heuristic colours, cumulative
//! value) behave as documented.
//!
//! `cargo test --release --test it report_figures -- --ignored` also writes sample figures
//! to `$TMPDIR/swftool-report-samples/` for looking at.

use std::ops::Range;
use std::path::{Path, PathBuf};

use swftool::cmd::env_infos;
use swftool::env::parallel::HEURISTICS;
use swftool::report::bars::{Bar, BarChart, BarSeries, grouped_bars};
use swftool::report::gantt::{GANTT_X_LABEL, GANTT_Y_LABEL, GanttBar, GanttChart, gantt_chart};
use swftool::report::lines::{Band, LineChart, LineSeries, Reference, cumulative, line_chart};
use swftool::report::{Figure, PALETTE, ReportError, heuristic_color};

/// Width and height from a PNG's IHDR chunk (bytes 16..24, big-endian).
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(
        &bytes[..8],
        b"\x89PNG\r\n\x1a\n",
        "{} is not a PNG",
        path.display()
    );
    assert_eq!(&bytes[12..16], b"IHDR");
    let w = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    (w, h)
}

/// Checks both outputs of one figure: paths, PNG size and non-trivial
/// content, SVG text.
fn check_outputs(paths: &[PathBuf], stem: &Path, fig: &Figure, texts: &[&str]) {
    let png = stem.with_file_name(format!(
        "{}.png",
        stem.file_name().unwrap().to_str().unwrap()
    ));
    let svg = png.with_extension("svg");
    assert_eq!(paths, [png.clone(), svg.clone()]);
    assert_eq!(png_size(&png), (fig.width, fig.height));
    // A flat white 1200x700 PNG compresses to a few KB; a drawn figure with
    // anti-aliased text does not.
    let png_len = std::fs::metadata(&png).unwrap().len();
    assert!(png_len > 15_000, "PNG suspiciously small: {png_len} bytes");
    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.starts_with("<svg"), "not an SVG");
    assert!(svg_text.contains(&format!("width=\"{}\"", fig.width)));
    for t in texts {
        assert!(
            svg_text.contains(&format!(">\n{t}\n<")) || svg_text.contains(&format!(">{t}<")),
            "SVG lacks the text element {t:?}"
        );
    }
}

/// The node ranges of a task on one contiguous block `start..end`.
fn one(start: u32, end: u32) -> Vec<Range<u32>> {
    vec![Range { start, end }]
}

fn heuristic_names() -> Vec<&'static str> {
    HEURISTICS.iter().map(|h| h.name).collect()
}

/// A deterministic pseudo-random stream in 0..1 for sample data.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn sample_bars(log_y: bool) -> BarChart {
    let mut rng = Lcg(7);
    let levels = vec!["lower".to_string(), "intermediate".into(), "higher".into()];
    let series = heuristic_names()
        .iter()
        .enumerate()
        .map(|(j, name)| BarSeries {
            name: (*name).to_string(),
            bars: (0..levels.len())
                .map(|i| {
                    if j == 2 && i == 1 {
                        return None; // a missing bar
                    }
                    let mean = if log_y {
                        10f64.powf(-4.0 + 3.0 * rng.next() + 0.3 * j as f64)
                    } else {
                        95.0 - 15.0 * i as f64 - 4.0 * j as f64 + 6.0 * rng.next()
                    };
                    Some(Bar {
                        mean,
                        ci95: Some(mean * (0.03 + 0.1 * rng.next())),
                    })
                })
                .collect(),
        })
        .collect();
    BarChart {
        title: if log_y {
            "Scheduling time of each heuristic".into()
        } else {
            "Value earned by each heuristic".into()
        },
        x_label: "oversubscription level".into(),
        y_label: if log_y {
            "seconds per mapping event".into()
        } else {
            "% of maximum value bound".into()
        },
        levels,
        series,
        log_y,
        y_clip: None,
    }
}

fn sample_lines() -> LineChart {
    let mut rng = Lcg(11);
    let origin = 1_000_000.0;
    let series = heuristic_names()
        .iter()
        .enumerate()
        .map(|(j, name)| {
            let events: Vec<(f64, f64)> = (0..150)
                .map(|_| {
                    (
                        origin + 86_400.0 * rng.next(),
                        (10.0 + j as f64) * rng.next(),
                    )
                })
                .collect();
            let mut points = cumulative(&events, origin);
            let last = points.last().copied().unwrap();
            points.push((24.0, last.1));
            LineSeries {
                name: (*name).to_string(),
                points,
                legend: None,
                band: Vec::new(),
            }
        })
        .collect();
    LineChart {
        title: "Cumulative value earned over the day".into(),
        x_label: "time since the start of the day (h)".into(),
        y_label: "value earned (value units)".into(),
        series,
        x_range: Some((-4.0, 28.0)),
        bands: vec![Band {
            from: -4.0,
            to: 0.0,
            label: "warm-up".into(),
            light: false,
        }],
        references: vec![Reference {
            y: 1500.0,
            label: "bound".into(),
        }],
    }
}

fn sample_gantt(nodes: u32, tasks: usize) -> GanttChart {
    let mut rng = Lcg(5);
    let day = 86_400.0;
    let origin = 2_000_000.0;
    // Contiguous node blocks, each running tasks one after another, like a
    // real schedule (no two tasks on one node at once).
    let mut bars = Vec::new();
    let mut first = 0;
    while first < nodes && bars.len() < tasks {
        let r = rng.next();
        let width = (1 + (r * r * r * f64::from(nodes) / 3.0) as u32).min(nodes - first);
        let mut t = origin - 3.0 * 3600.0 * rng.next();
        while t < origin + day && bars.len() < tasks {
            let len = 900.0 + 6.0 * 3600.0 * rng.next() * rng.next();
            let k = bars.len();
            bars.push(GanttBar {
                job: 1000 + k as i64,
                nodes: one(first, first + width),
                start: t,
                end: t + len,
                value_fraction: if k == 3 { f64::NAN } else { rng.next() },
            });
            t += len + 1800.0 * rng.next();
        }
        first += width;
    }
    GanttChart {
        title: format!(
            "CEA-Curie 2012-02-01, maxvpr-ph: cluster 0 ({nodes} nodes × 16 cores/node), hours 0–24 of the day"
        ),
        nodes,
        window: (origin, origin + day),
        time_origin: origin,
        bars,
    }
}

#[test]
fn grouped_bars_write_png_and_svg_with_title_and_labels() {
    let dir = tempfile::tempdir().unwrap();
    let fig = Figure::with_palette(&heuristic_names());
    for log_y in [false, true] {
        let chart = sample_bars(log_y);
        let stem = dir.path().join(if log_y { "timing" } else { "value" });
        let paths = grouped_bars(&chart, &fig, &stem).unwrap();
        check_outputs(
            &paths,
            &stem,
            &fig,
            &[&chart.title, &chart.x_label, &chart.y_label, "maxvpr-ph"],
        );
    }
}

#[test]
fn line_chart_writes_png_and_svg_with_title_and_labels() {
    let dir = tempfile::tempdir().unwrap();
    let fig = Figure {
        width: 900,
        height: 600,
        ..Figure::default()
    };
    let chart = sample_lines();
    let stem = dir.path().join("nested/dir/cumulative");
    let paths = line_chart(&chart, &fig, &stem).unwrap();
    check_outputs(
        &paths,
        &stem,
        &fig,
        &[&chart.title, &chart.x_label, &chart.y_label, "easy"],
    );
}

#[test]
fn gantt_chart_writes_png_and_svg_with_title_and_labels() {
    let dir = tempfile::tempdir().unwrap();
    let fig = Figure::with_palette(&heuristic_names());
    let chart = sample_gantt(64, 200);
    let stem = dir.path().join("gantt");
    let paths = gantt_chart(&chart, &fig, &stem).unwrap();
    check_outputs(
        &paths,
        &stem,
        &fig,
        &[&chart.title, GANTT_X_LABEL, GANTT_Y_LABEL],
    );
}

#[test]
fn gantt_chart_rejects_an_empty_window_without_writing() {
    let dir = tempfile::tempdir().unwrap();
    let mut chart = sample_gantt(8, 3);
    chart.window = (5.0, 5.0);
    let stem = dir.path().join("empty");
    let err = gantt_chart(&chart, &Figure::default(), &stem).unwrap_err();
    assert!(matches!(err, ReportError::Invalid { .. }), "{err}");
    assert!(err.to_string().contains("empty"), "{err}");
    assert!(!dir.path().join("empty.png").exists());
}

#[test]
fn degenerate_inputs_draw_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let fig = Figure::with_palette(&heuristic_names());
    let nan = Some(Bar {
        mean: f64::NAN,
        ci95: Some(f64::NAN),
    });
    let odd_bars = BarChart {
        title: "odd <&> bars".into(),
        levels: vec!["a".into(), "b".into()],
        series: vec![
            BarSeries {
                name: "unknown-heuristic".into(),
                bars: vec![
                    nan,
                    Some(Bar {
                        mean: -3.0,
                        ci95: Some(-1.0),
                    }),
                ],
            },
            BarSeries {
                name: "easy".into(),
                bars: vec![
                    Some(Bar {
                        mean: f64::INFINITY,
                        ci95: None,
                    }),
                    Some(Bar {
                        mean: 1e308,
                        ci95: Some(1e308),
                    }),
                ],
            },
        ],
        ..BarChart::default()
    };
    let mut log_bars = odd_bars.clone();
    log_bars.log_y = true;
    for (i, c) in [BarChart::default(), odd_bars, log_bars].iter().enumerate() {
        grouped_bars(c, &fig, &dir.path().join(format!("bars{i}"))).unwrap();
    }
    let lines = [
        LineChart::default(),
        LineChart {
            series: vec![
                LineSeries {
                    name: "one point".into(),
                    points: vec![(1.0, 1.0)],
                    ..LineSeries::default()
                },
                LineSeries {
                    name: "flat".into(),
                    points: vec![(1.0, 1.0), (f64::NAN, 2.0), (1.0, 1.0)],
                    ..LineSeries::default()
                },
                LineSeries {
                    name: "empty".into(),
                    points: vec![],
                    ..LineSeries::default()
                },
            ],
            ..LineChart::default()
        },
        LineChart {
            series: vec![LineSeries {
                name: "huge".into(),
                points: vec![(-f64::MAX, 0.0), (f64::MAX, f64::MAX), (0.0, -1e300)],
                ..LineSeries::default()
            }],
            ..LineChart::default()
        },
    ];
    for (i, c) in lines.iter().enumerate() {
        line_chart(c, &fig, &dir.path().join(format!("lines{i}"))).unwrap();
    }
    let gantt = GanttChart {
        nodes: 1,
        window: (0.0, 1.0),
        bars: vec![
            GanttBar {
                job: 1,
                nodes: vec![0..5, Range { start: 3, end: 2 }], // beyond the cluster; reversed
                start: -10.0,
                end: 10.0,
                value_fraction: 2.0,
            },
            GanttBar {
                job: 2,
                nodes: one(0, 1),
                start: f64::NAN,
                end: 1.0,
                value_fraction: 0.5,
            },
            GanttBar {
                job: 3,
                nodes: one(0, 1),
                start: 5.0,
                end: 6.0,
                value_fraction: -1.0,
            },
        ],
        ..GanttChart::default()
    };
    gantt_chart(&gantt, &fig, &dir.path().join("gantt")).unwrap();
    let tiny = Figure {
        width: 10,
        height: 10,
        ..Figure::default()
    };
    assert!(matches!(
        line_chart(&LineChart::default(), &tiny, &dir.path().join("tiny")),
        Err(ReportError::Invalid { .. })
    ));
}

#[test]
fn unwritable_outputs_are_errors_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let err = line_chart(&sample_lines(), &Figure::default(), &file.join("fig")).unwrap_err();
    assert!(matches!(err, ReportError::CreateDir { .. }), "{err}");
    assert!(err.to_string().contains("a-file"), "{err}");
    // `<stem>.png` is a directory: the PNG cannot be written.
    std::fs::create_dir(dir.path().join("taken.png")).unwrap();
    let err = grouped_bars(
        &sample_bars(false),
        &Figure::default(),
        &dir.path().join("taken"),
    )
    .unwrap_err();
    assert!(matches!(err, ReportError::Draw { .. }), "{err}");
    assert!(err.to_string().contains("taken.png"), "{err}");
}

/// A bar chart and a line chart with one (empty) series per name, in order.
fn charts_of(names: &[&str]) -> (BarChart, LineChart) {
    let bars = BarChart {
        series: names
            .iter()
            .map(|n| BarSeries {
                name: n.to_string(),
                bars: Vec::new(),
            })
            .collect(),
        ..BarChart::default()
    };
    let lines = LineChart {
        series: names
            .iter()
            .map(|n| LineSeries {
                name: n.to_string(),
                points: Vec::new(),
                legend: Some(format!("{n} (legend text)")),
                band: Vec::new(),
            })
            .collect(),
        ..LineChart::default()
    };
    (bars, lines)
}

/// The palette rule over every environment's registry: each registered
/// heuristic is drawn in a colour of the palette, no two heuristics of one
/// registry share one, and a heuristic's colour in a chart does not depend
/// on which other heuristics the chart draws nor in what order; a name in
/// no registry gets a colour too, the same every time.
#[test]
fn every_registered_heuristic_has_its_own_stable_colour() {
    let mut rng = Lcg(21);
    for info in env_infos() {
        let kind = info.name;
        let registry: Vec<&str> = info.heuristics.iter().map(|(n, _)| *n).collect();
        assert!(
            registry.len() <= PALETTE.len(),
            "{kind}: {} heuristics, {} colours",
            registry.len(),
            PALETTE.len()
        );
        let fig = Figure::with_palette(&registry);
        let (bars, lines) = charts_of(&registry);
        let colours = bars.colours(&fig);
        assert_eq!(lines.colours(&fig), colours, "{kind}");
        for (i, (name, c)) in registry.iter().zip(&colours).enumerate() {
            assert!(PALETTE.contains(c), "{kind}: {name} is off the palette");
            assert_eq!(heuristic_color(name, &fig.palette), *c);
            assert_eq!(heuristic_color(&name.to_uppercase(), &fig.palette), *c);
            for (other, d) in registry.iter().zip(&colours).skip(i + 1) {
                assert_ne!(c, d, "{kind}: {name} and {other} share a colour");
            }
        }
        let colour_of = |name: &str| colours[registry.iter().position(|n| *n == name).unwrap()];
        // Every heuristic alone, the registry reversed, and random subsets in
        // random orders.
        let mut drawn: Vec<Vec<&str>> = registry.iter().map(|n| vec![*n]).collect();
        drawn.push(registry.iter().rev().copied().collect());
        for _ in 0..40 {
            let mut order = registry.clone();
            for i in (1..order.len()).rev() {
                order.swap(i, (rng.next() * (i + 1) as f64) as usize);
            }
            order.truncate(1 + (rng.next() * registry.len() as f64) as usize);
            drawn.push(order);
        }
        for subset in drawn {
            let (b, l) = charts_of(&subset);
            let want: Vec<_> = subset.iter().map(|n| colour_of(n)).collect();
            assert_eq!(b.colours(&fig), want, "{kind}: bars of {subset:?}");
            assert_eq!(l.colours(&fig), want, "{kind}: lines of {subset:?}");
        }
        // A name in no registry: a palette colour, the same every time, and
        // one no heuristic of the registry has while any is spare.
        for label in ["my-heuristic", "queued, filter λ = 1.5", ""] {
            let c = heuristic_color(label, &fig.palette);
            assert!(PALETTE.contains(&c));
            assert_eq!(
                c,
                heuristic_color(
                    label,
                    &registry.iter().map(|n| n.to_string()).collect::<Vec<_>>()
                )
            );
            let (b, _) = charts_of(&[label, registry[0]]);
            assert_eq!(b.colours(&fig), [c, colours[0]]);
            if registry.len() < PALETTE.len() {
                assert!(
                    !colours.contains(&c),
                    "{kind}: {label:?} takes a heuristic's colour"
                );
            }
        }
    }
    // Without a palette order every name is hashed into the whole palette.
    let c = heuristic_color("maxvpr-ph", &[]);
    assert!(PALETTE.contains(&c));
    assert_eq!(c, heuristic_color("MAXVPR-PH", &[]));
}

/// A percentage chart with `y_clip` keeps its axis inside 0..100 and says
/// that the error bars reaching beyond are cut.
#[test]
fn clipped_bars_keep_the_axis_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let chart = BarChart {
        title: "few days".into(),
        x_label: "level".into(),
        y_label: "% of bound".into(),
        levels: vec!["a".into(), "b".into()],
        series: vec![BarSeries {
            name: "easy".into(),
            bars: vec![
                Some(Bar {
                    mean: 60.0,
                    ci95: Some(180.0),
                }),
                Some(Bar {
                    mean: 80.0,
                    ci95: Some(5.0),
                }),
            ],
        }],
        log_y: false,
        y_clip: Some((0.0, 100.0)),
    };
    let fig = Figure::default();
    let paths = grouped_bars(&chart, &fig, &dir.path().join("clip")).unwrap();
    let svg = std::fs::read_to_string(&paths[1]).unwrap();
    assert!(svg.contains("arrowheads: 95 % CI cut at the axis"));
    let has_tick =
        |svg: &str, t: &str| svg.contains(&format!(">\n{t}\n<")) || svg.contains(&format!(">{t}<"));
    assert!(has_tick(&svg, "100"), "the axis reaches 100");
    assert!(!has_tick(&svg, "-100") && !has_tick(&svg, "150"));
    // Without the clip the axis follows the interval.
    let free = BarChart {
        y_clip: None,
        ..chart
    };
    let paths = grouped_bars(&free, &fig, &dir.path().join("free")).unwrap();
    let svg = std::fs::read_to_string(&paths[1]).unwrap();
    assert!(!svg.contains("arrowheads"));
    assert!(has_tick(&svg, "-100") && has_tick(&svg, "200"));
}

#[test]
fn cumulative_sorts_sums_and_steps_in_hours() {
    let origin = 1000.0;
    let got = cumulative(
        &[
            (1000.0 + 7200.0, 5.0),
            (1000.0 + 3600.0, 2.0),
            (1000.0 + 7200.0, 1.0),
            (f64::NAN, 3.0),
        ],
        origin,
    );
    assert_eq!(
        got,
        vec![(0.0, 0.0), (1.0, 0.0), (1.0, 2.0), (2.0, 2.0), (2.0, 8.0)]
    );
}

/// Writes every kind of figure to `$TMPDIR/swftool-report-samples/` for a
/// human to look at.
#[test]
#[ignore = "writes sample figures for inspection"]
fn write_sample_figures_for_inspection() {
    let dir = std::env::temp_dir().join("swftool-report-samples");
    let fig = Figure::with_palette(&heuristic_names());
    grouped_bars(&sample_bars(false), &fig, &dir.join("bars-value")).unwrap();
    grouped_bars(&sample_bars(true), &fig, &dir.join("bars-timing")).unwrap();
    line_chart(&sample_lines(), &fig, &dir.join("lines-cumulative")).unwrap();
    gantt_chart(&sample_gantt(64, 200), &fig, &dir.join("gantt-64")).unwrap();
    gantt_chart(&sample_gantt(1024, 1500), &fig, &dir.join("gantt-1024")).unwrap();
    let small = Figure {
        width: 800,
        height: 450,
        ..Figure::default()
    };
    grouped_bars(&sample_bars(false), &small, &dir.join("bars-value-small")).unwrap();
    // Every environment's whole registry in its palette (palette-<env>-*).
    let mut rng = Lcg(3);
    for info in env_infos() {
        let kind = info.name;
        let registry: Vec<&str> = info.heuristics.iter().map(|(n, _)| *n).collect();
        let fig = Figure::with_palette(&registry);
        let (mut bars, mut lines) = charts_of(&registry);
        bars.title = format!("Every heuristic of environment {kind}");
        bars.levels = vec!["a".into(), "b".into()];
        for (j, s) in bars.series.iter_mut().enumerate() {
            s.bars = (0..2)
                .map(|_| {
                    Some(Bar {
                        mean: 40.0 + 4.0 * j as f64 + 10.0 * rng.next(),
                        ci95: Some(5.0),
                    })
                })
                .collect();
        }
        grouped_bars(&bars, &fig, &dir.join(format!("palette-{kind}-bars"))).unwrap();
        lines.title = bars.title.clone();
        for (j, s) in lines.series.iter_mut().enumerate() {
            s.legend = None;
            let events: Vec<(f64, f64)> = (0..60)
                .map(|_| (86_400.0 * rng.next(), (10.0 + 2.0 * j as f64) * rng.next()))
                .collect();
            s.points = cumulative(&events, 0.0);
        }
        line_chart(&lines, &fig, &dir.join(format!("palette-{kind}-lines"))).unwrap();
    }
    eprintln!("figures in {}", dir.display());
}
