//! What every grid's report is made of, written once: the tables, the
//! Markdown and the figures of a report ([`write_report`]) or a comparison
//! of logs ([`write_compare`]), and for the environments whose cells are
//! runs summarised by declared columns (A, B, C) the "Every metric"
//! section and a figure per metric ([`write_runs_report`], [`Metrics`],
//! [`metric_figures`]). Each environment's [`Grid::report`](super::grid::Grid::report) and
//! [`Grid::compare`](super::grid::Grid::compare) end here.

use std::path::{Path, PathBuf};

use super::ExperimentError;
use super::grid::GridReport;
use crate::contract::Environment;

/// Writes what a grid's report is made of into `out`: its tables (each as
/// CSV and Parquet, in order), its Markdown summary as `markdown_file`, and
/// with `figures` what `draw` draws into `out/figures`; the report of it.
/// Every environment's [`Grid::report`](super::grid::Grid::report) ends here.
///
/// # Errors
/// A table, the Markdown or a figure that cannot be written.
pub fn write_report(
    out: &Path,
    tables: Vec<(&'static str, &mut polars::prelude::DataFrame)>,
    markdown_file: &str,
    markdown: String,
    figures: bool,
    draw: impl FnOnce(&Path) -> Result<Vec<PathBuf>, ExperimentError>,
) -> Result<GridReport, ExperimentError> {
    let mut names = Vec::with_capacity(tables.len());
    for (name, df) in tables {
        crate::metrics::tables::write_both(df, out, name)?;
        names.push(name);
    }
    let md_path = out.join(markdown_file);
    crate::atomic::write_with(&md_path, |tmp| std::fs::write(tmp, &markdown))
        .map_err(ExperimentError::io(&md_path))?;
    let mut files = vec![md_path];
    if figures {
        files.extend(draw(&out.join("figures"))?);
    }
    Ok(GridReport {
        preface: String::new(),
        markdown,
        tables: names,
        files,
    })
}

/// Writes `compare`'s side-by-side Markdown as `compare.md` and, from
/// `draw`, its figure into `out/figures`; the report of it, with `preface`
/// printed before the table.
///
/// # Errors
/// The Markdown or the figure cannot be written.
pub fn write_compare(
    out: &Path,
    preface: String,
    markdown: String,
    draw: impl FnOnce(&Path) -> Result<Vec<PathBuf>, ExperimentError>,
) -> Result<GridReport, ExperimentError> {
    let md = out.join("compare.md");
    crate::atomic::write_with(&md, |tmp| std::fs::write(tmp, &markdown))
        .map_err(ExperimentError::io(&md))?;
    let mut files = vec![md];
    files.extend(draw(&out.join("figures"))?);
    Ok(GridReport {
        preface,
        markdown,
        tables: Vec::new(),
        files,
    })
}

/// The figure of every column of `columns` marked
/// [`SummaryColumn::figure`](crate::metrics::columns::SummaryColumn::figure),
/// per log of the grid's `aggregate` table: x = variant (the `variant`
/// column's labels, in table order), one bar per heuristic with its mean and
/// 95 % CI, y = the column's label and unit; each written as
/// `<dir>/<log key>-metric-<name>.{png,svg}` (`log` the key of a table
/// without a `log_key` column). A metric declared with `.figure()` gets its
/// figure in every grid without more code.
///
/// # Errors
/// A column missing from `aggregate`, or a figure that cannot be drawn.
pub fn metric_figures<S>(
    aggregate: &polars::prelude::DataFrame,
    log: &str,
    columns: &[crate::metrics::columns::SummaryColumn<S>],
    fig: &crate::report::Figure,
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    use crate::metrics::aggregate::{n_column, stat_column, str_column};
    use crate::report::bars::{Bar, BarChart, BarSeries};
    let logs = match aggregate.column("log_key") {
        Ok(_) => str_column(aggregate, "log_key")?,
        Err(_) => vec![log.to_string(); aggregate.height()],
    };
    let variants = str_column(aggregate, "variant")?;
    let heuristics = str_column(aggregate, "heuristic")?;
    let n = n_column(aggregate)?;
    let distinct = |v: &[String], rows: &[usize]| {
        let mut out: Vec<String> = Vec::new();
        for &i in rows {
            if !out.contains(&v[i]) {
                out.push(v[i].clone());
            }
        }
        out
    };
    let all: Vec<usize> = (0..logs.len()).collect();
    let mut files = Vec::new();
    for c in columns.iter().filter(|c| c.figure) {
        let stats = stat_column(aggregate, &c.name)?;
        for log in distinct(&logs, &all) {
            let rows: Vec<usize> = all.iter().copied().filter(|&i| logs[i] == log).collect();
            let levels = distinct(&variants, &rows);
            let scenarios = rows.iter().map(|&i| n[i]).max().unwrap_or(0);
            let series = distinct(&heuristics, &rows)
                .into_iter()
                .map(|h| BarSeries {
                    bars: levels
                        .iter()
                        .map(|v| {
                            rows.iter()
                                .find(|&&i| &variants[i] == v && heuristics[i] == h)
                                .map(|&i| Bar {
                                    mean: stats[i].mean * c.print_scale,
                                    ci95: stats[i].ci95.map(|x| x * c.print_scale),
                                })
                        })
                        .collect(),
                    name: h,
                })
                .collect();
            let chart = BarChart {
                title: format!(
                    "{log}: {} (mean of {scenarios} scenarios, 95 % CI)",
                    c.label
                ),
                x_label: "variant".into(),
                y_label: c.heading(),
                levels,
                series,
                log_y: false,
                // A share stays in 0..100 %, a count or an amount above 0:
                // an error bar beyond is cut at the axis.
                y_clip: if c.unit == "%" {
                    Some((0.0, 100.0))
                } else if rows.iter().all(|&i| stats[i].mean >= 0.0) {
                    Some((0.0, f64::MAX))
                } else {
                    None
                },
            };
            files.extend(crate::report::bars::grouped_bars(
                &chart,
                fig,
                &dir.join(format!("{log}-metric-{}", c.name)),
            )?);
        }
    }
    Ok(files)
}

/// What a grid of run summaries adds to its report from the summary
/// columns alone: the "Every metric" section of its Markdown (grouped by
/// `keys`) and the figure of each column marked `.figure()`.
pub struct Metrics<'a, S> {
    /// The environment's summary columns.
    pub columns: Vec<crate::metrics::columns::SummaryColumn<S>>,
    /// The keys the Markdown groups by (columns of the `aggregate` table).
    pub keys: &'a [&'a str],
    /// The columns of the `runs` table that name a scenario within a
    /// group (A: `date`; B, C: `scenario`): runs of two heuristics with the
    /// same values are paired in the `paired` table.
    pub scenario: &'a [&'a str],
    /// The log key of a table without a `log_key` column.
    pub log: &'a str,
    /// The palette of the figures.
    pub fig: crate::report::Figure,
}

impl<'a, S> Metrics<'a, S> {
    /// The metrics of environment `E`: its summary columns, grouped by
    /// `keys`, runs paired by `scenario`, `log` the log key of a table
    /// without one, and the palette of its heuristics.
    pub fn of<E: Environment<Summary = S>>(
        keys: &'a [&'a str],
        scenario: &'a [&'a str],
        log: &'a str,
    ) -> Self {
        Metrics {
            columns: E::summary_columns(),
            keys,
            scenario,
            log,
            fig: crate::report::Figure::with_palette(&E::REGISTRY.names()),
        }
    }
}

/// The report of a grid of run summaries (environments A, B, C): its
/// tables `t` and the `paired` table of its `runs`
/// ([`crate::metrics::paired::paired_table`]: every pair of heuristics of
/// a group — the keys but `heuristic` — on every compared column, paired by
/// scenario), its Markdown `markdown` followed by the "Every metric" and
/// "Paired differences" sections, and with `figures` the environment's own
/// (`draw`, given the aggregated rows) then every metric figure
/// ([`metric_figures`]), written by [`write_report`] as `aggregate.md`.
///
/// # Errors
/// A table, the Markdown or a figure that cannot be built or written.
pub fn write_runs_report<R, S>(
    out: &Path,
    t: &mut crate::metrics::columns::GridTables<R>,
    mut markdown: String,
    metrics: &Metrics<'_, S>,
    figures: bool,
    draw: impl FnOnce(&[R], &Path) -> Result<Vec<PathBuf>, ExperimentError>,
) -> Result<GridReport, ExperimentError> {
    let aggregate = t.get("aggregate").cloned();
    if let Some(g) = &aggregate {
        markdown.push_str(&crate::metrics::columns::every_metric(
            g,
            metrics.keys,
            &metrics.columns,
        )?);
    }
    if let Some(runs) = t.get("runs") {
        use crate::metrics::paired;
        let groups: Vec<&str> = metrics
            .keys
            .iter()
            .copied()
            .filter(|k| *k != "heuristic")
            .collect();
        let table = paired::paired_table(
            runs,
            &groups,
            metrics.scenario,
            &paired::compared(&metrics.columns),
        )?;
        markdown.push_str(&paired::markdown(
            &table,
            &groups,
            &paired::shown(&metrics.columns),
        )?);
        t.tables.push(("paired", table));
    }
    let (rows, tables) = t.split();
    write_report(out, tables, "aggregate.md", markdown, figures, |dir| {
        let mut files = draw(rows, dir)?;
        if let Some(g) = &aggregate {
            files.extend(metric_figures(
                g,
                metrics.log,
                &metrics.columns,
                &metrics.fig,
                dir,
            )?);
        }
        Ok(files)
    })
}
