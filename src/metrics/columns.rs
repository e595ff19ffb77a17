//! A run summary's columns, declared once.
//!
//! An environment lists the columns of its run summary as [`SummaryColumn`]s —
//! name, label and unit, digits, how the column aggregates over the
//! scenarios of a grid ([`Agg`]), whether it is wall clock — and that one
//! list builds every table that shows the summary: the `summary` table of a
//! replay and the `runs` table of a grid ([`frame`]), the grid's
//! `aggregate` table ([`aggregate`]: per group, `n` and each aggregated
//! column's mean, sample standard deviation and 95 % confidence interval,
//! side by side, in declaration order), and the columns documented in
//! docs/outputs.md. Adding a metric to an environment is one entry in its
//! list.
//!
//! Shared ratios are computed here once: [`pct_of_max`] is the "% of the
//! maximum" of every environment (A: value earned over the maximum value;
//! B and C: utility earned over the maximum utility, also per priority).

use polars::prelude::*;

use super::aggregate::{Stat, f64_column, mean_ci, n_column, pm, stat_column, str_column};

/// How a column is aggregated over the scenarios (days or trials) of a
/// grid group in the `aggregate` table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agg {
    /// Not aggregated (keys, identifiers, and counts nobody averages).
    None,
    /// Mean, sample standard deviation (n − 1) and the half-width of the
    /// 95 % Student-t confidence interval of the mean
    /// ([`crate::metrics::aggregate::mean_ci`]): `<name>_mean`,
    /// `<name>_sd`, `<name>_ci95`.
    MeanCi,
    /// The largest value over the scenarios (a worst case, e.g. the
    /// longest mapping event): `<name>_max`.
    Max,
}

/// One value of one column in one run. The variant fixes the column's
/// type in CSV and Parquet.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// Text (UTF-8).
    Text(String),
    /// Unsigned 64-bit integer.
    U64(u64),
    /// Unsigned 32-bit integer.
    U32(u32),
    /// 64-bit float.
    F64(f64),
    /// 64-bit float or null ("does not apply").
    MaybeF64(Option<f64>),
    /// Unsigned 64-bit integer or null ("unlimited", "does not apply").
    MaybeU64(Option<u64>),
    /// Boolean.
    Bool(bool),
}

/// The value of a column for one run of summary type `S`.
pub type Getter<S> = Box<dyn Fn(&S) -> Value + Send + Sync>;

/// One column of a run summary of type `S`.
pub struct SummaryColumn<S> {
    /// Column name in every table (docs/outputs.md).
    pub name: String,
    /// Label in printed tables and figures.
    pub label: String,
    /// Unit ("%", "s", "value units", "tasks", "J", "" for none).
    pub unit: &'static str,
    /// Decimals when printed.
    pub digits: usize,
    /// Factor applied to values when printed (1e-9 prints joules as GJ
    /// with unit "GJ"); tables keep the unscaled values.
    pub print_scale: f64,
    /// How the column aggregates over scenarios.
    pub agg: Agg,
    /// Whether the column is wall clock (differs between two runs of one
    /// seed); wall-clock columns are left out of the deterministic tables.
    pub wall_clock: bool,
    /// Whether printed tables show the column (its mean ± CI in the mean
    /// rows of a replay of several scenarios).
    pub printed: bool,
    /// Whether a grid draws the column's own figure (mean ± 95 % CI per
    /// variant and heuristic, `figures/<log>-metric-<name>`).
    pub figure: bool,
    /// The column's value for one run.
    pub get: Getter<S>,
}

/// Column `name` of one value per row of `rows`, `f` of the row: a table
/// built column by column over its rows (the `jobs` tables).
pub fn column_of<R, T>(name: &str, rows: &[R], f: impl Fn(&R) -> T) -> Column
where
    Series: NamedFrom<Vec<T>, [T]>,
{
    column(name, rows.iter().map(f).collect())
}

impl<S> SummaryColumn<S> {
    /// A deterministic column that does not aggregate: `name`, labelled
    /// with its name, no unit, no decimals.
    pub fn new(name: impl Into<String>, get: impl Fn(&S) -> Value + Send + Sync + 'static) -> Self {
        let name = name.into();
        SummaryColumn {
            label: name.clone(),
            name,
            unit: "",
            digits: 0,
            print_scale: 1.0,
            agg: Agg::None,
            wall_clock: false,
            printed: false,
            figure: false,
            get: Box::new(get),
        }
    }

    /// The same column printed multiplied by `factor` (its unit given
    /// with [`SummaryColumn::shown`] is then the scaled unit).
    #[must_use]
    pub fn print_scaled(mut self, factor: f64) -> Self {
        self.print_scale = factor;
        self
    }

    /// The same column marked wall clock: measured time, different on
    /// every run; left out of the deterministic tables, shown in printed
    /// mean rows.
    #[must_use]
    pub fn wall_clock(mut self) -> Self {
        self.wall_clock = true;
        self
    }

    /// The same column aggregated over scenarios by its largest value.
    #[must_use]
    pub fn max_over_scenarios(mut self) -> Self {
        self.agg = Agg::Max;
        self
    }

    /// The same column drawn in its own figure by a grid (it must be
    /// aggregated mean ± CI: [`SummaryColumn::mean_ci`]).
    #[must_use]
    pub fn figure(mut self) -> Self {
        self.figure = true;
        self
    }

    /// The same column aggregated over scenarios as mean ± 95 % CI.
    #[must_use]
    pub fn mean_ci(mut self) -> Self {
        self.agg = Agg::MeanCi;
        self
    }

    /// The same column shown in printed tables, with its label, unit and
    /// decimals.
    #[must_use]
    pub fn shown(mut self, label: impl Into<String>, unit: &'static str, digits: usize) -> Self {
        self.label = label.into();
        self.unit = unit;
        self.digits = digits;
        self.printed = true;
        self
    }
}

/// The two wall-clock columns of a heuristic's time per mapping event, in
/// seconds: `heuristic_seconds_mean` (aggregated as mean ± 95 % CI, printed
/// as "mean `<unit>`/event" scaled by `scale` with `digits` decimals) and
/// `heuristic_seconds_max` (aggregated by its largest value, printed as
/// "max ms/event", 3 decimals).
pub fn heuristic_time_columns<S: 'static>(
    mean: fn(&S) -> f64,
    max: fn(&S) -> f64,
    unit: &str,
    scale: f64,
    digits: usize,
) -> [SummaryColumn<S>; 2] {
    [
        SummaryColumn::new("heuristic_seconds_mean", move |r: &S| Value::F64(mean(r)))
            .wall_clock()
            .mean_ci()
            .shown(format!("mean {unit}/event"), "", digits)
            .print_scaled(scale),
        SummaryColumn::new("heuristic_seconds_max", move |r: &S| Value::F64(max(r)))
            .wall_clock()
            .max_over_scenarios()
            .shown("max ms/event", "", 3)
            .print_scaled(1e3),
    ]
}

/// A named column of `v` (one value per row), the building block of every
/// table an environment writes beside its declared summary columns.
pub fn column<T>(name: &str, v: Vec<T>) -> Column
where
    Series: NamedFrom<Vec<T>, [T]>,
{
    Column::new(name.into(), v)
}

impl<S> SummaryColumn<S> {
    /// The column's heading in printed tables: its label, with its unit in
    /// brackets unless the label says it.
    pub fn heading(&self) -> String {
        if self.unit.is_empty() || self.label.contains(self.unit) {
            self.label.clone()
        } else {
            format!("{} ({})", self.label, self.unit)
        }
    }

    /// One value of the column as printed: numbers with the column's
    /// decimals and print scale (whole numbers as they are unless scaled),
    /// `-` for a missing one.
    pub fn printed_text(&self, v: &Value) -> String {
        let k = self.print_scale;
        let real = |x: f64| format!("{:.*}", self.digits, x * k);
        let whole = |x: u64| {
            if k == 1.0 {
                x.to_string()
            } else {
                real(x as f64)
            }
        };
        match v {
            Value::Text(s) => s.clone(),
            Value::U64(x) => whole(*x),
            Value::U32(x) => whole(u64::from(*x)),
            Value::F64(x) => real(*x),
            Value::MaybeF64(x) => x.map_or_else(|| "-".to_string(), real),
            Value::MaybeU64(x) => x.map_or_else(|| "-".to_string(), whole),
            Value::Bool(b) => if *b { "yes" } else { "no" }.to_string(),
        }
    }
}

/// `lines` (header first) as text columns: the first `left` columns
/// aligned left, the others right, two spaces apart, trailing blanks cut.
fn aligned(lines: &[Vec<String>], left: usize) -> String {
    let width = |k: usize| {
        lines
            .iter()
            .map(|l| l[k].chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..lines.first().map_or(0, Vec::len)).map(width).collect();
    let mut out = String::new();
    for line in lines {
        let cells: Vec<String> = line
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(k, (text, &w))| {
                let pad = w.saturating_sub(text.chars().count());
                if k < left {
                    format!("{text}{}", " ".repeat(pad))
                } else {
                    format!("{}{text}", " ".repeat(pad))
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The table printed after a replay: one line per run of `rows`, the key
/// columns `keys` (aligned left), then every column of `columns` marked
/// [`SummaryColumn::printed`], in declaration order, with its heading,
/// decimals and print scale (wall-clock columns included: they are the
/// run's own measurements).
pub fn run_table<S>(columns: &[SummaryColumn<S>], rows: &[&S], keys: &[&str]) -> String {
    let key_columns: Vec<&SummaryColumn<S>> = keys
        .iter()
        .filter_map(|k| columns.iter().find(|c| c.name == *k))
        .collect();
    let shown: Vec<&SummaryColumn<S>> = columns
        .iter()
        .filter(|c| c.printed && !keys.contains(&c.name.as_str()))
        .collect();
    let mut lines: Vec<Vec<String>> = vec![
        key_columns
            .iter()
            .map(|c| c.name.clone())
            .chain(shown.iter().map(|c| c.heading()))
            .collect(),
    ];
    for r in rows {
        lines.push(
            key_columns
                .iter()
                .chain(&shown)
                .map(|c| c.printed_text(&(c.get)(r)))
                .collect(),
        );
    }
    aligned(&lines, key_columns.len())
}

/// The grid's `aggregate` table as Markdown: per group (the key columns
/// `keys`), `n` and every column of `columns` aggregated as mean ± CI
/// (wall-clock ones left out), as mean ± half-width of the 95 % CI with
/// the column's decimals and print scale, in declaration order. Every
/// environment's `aggregate.md` ends with it, so a metric declared once
/// appears there.
///
/// # Errors
/// A polars error: a key or an aggregated column missing from
/// `aggregate`.
pub fn markdown<S>(
    aggregate: &DataFrame,
    keys: &[&str],
    columns: &[SummaryColumn<S>],
) -> PolarsResult<String> {
    let metrics: Vec<&SummaryColumn<S>> = columns
        .iter()
        .filter(|c| c.agg == Agg::MeanCi && !c.wall_clock)
        .collect();
    let key_values = keys
        .iter()
        .map(|k| str_column(aggregate, k))
        .collect::<PolarsResult<Vec<_>>>()?;
    let n = n_column(aggregate)?;
    let stats = metrics
        .iter()
        .map(|c| stat_column(aggregate, &c.name))
        .collect::<PolarsResult<Vec<_>>>()?;
    let mut out = String::from("|");
    for k in keys {
        out.push_str(&format!(" {k} |"));
    }
    out.push_str(" n |");
    for c in &metrics {
        out.push_str(&format!(" {} |", c.heading()));
    }
    out.push_str("\n|");
    out.push_str(&"---|".repeat(keys.len()));
    out.push_str(&"---:|".repeat(metrics.len() + 1));
    out.push('\n');
    for i in 0..n.len() {
        out.push('|');
        for v in &key_values {
            out.push_str(&format!(" {} |", v[i]));
        }
        out.push_str(&format!(" {} |", n[i]));
        for (c, s) in metrics.iter().zip(&stats) {
            let k = c.print_scale;
            let scaled = Stat {
                mean: s[i].mean * k,
                sd: s[i].sd.map(|x| x * k),
                ci95: s[i].ci95.map(|x| x * k),
            };
            out.push_str(&format!(" {} |", pm(&scaled, c.digits)));
        }
        out.push('\n');
    }
    Ok(out)
}

/// The section every environment's `aggregate.md` ends with: a heading,
/// one line on what the cells hold, and [`markdown`] of `aggregate`
/// grouped by `keys`.
///
/// # Errors
/// As [`markdown`].
pub fn every_metric<S>(
    aggregate: &DataFrame,
    keys: &[&str],
    columns: &[SummaryColumn<S>],
) -> PolarsResult<String> {
    Ok(format!(
        "\n## Every metric\n\nMean ± half-width of the 95 % confidence interval (Student t) over the scenarios, for every column of the `aggregate` table (docs/outputs.md defines each).\n\n{}",
        markdown(aggregate, keys, columns)?
    ))
}

/// The % of the maximum: 100 · `earned` / `max` (%), or `None` when the
/// maximum is not positive (nothing could be earned, so the ratio does not
/// apply). The one definition of every environment's `pct_of_max`.
pub fn pct_of_max(earned: f64, max: f64) -> Option<f64> {
    (max > 0.0).then(|| 100.0 * earned / max)
}

fn series<S>(c: &SummaryColumn<S>, rows: &[&S]) -> PolarsResult<polars::prelude::Column> {
    let values: Vec<Value> = rows.iter().map(|r| (c.get)(r)).collect();
    let name: PlSmallStr = c.name.as_str().into();
    let kind = values.first().map(std::mem::discriminant);
    if values
        .iter()
        .any(|v| Some(std::mem::discriminant(v)) != kind)
    {
        polars_bail!(ComputeError: "column `{}` mixes value types", c.name);
    }
    // Every value has the first one's variant (checked above): one typed
    // vector per variant.
    macro_rules! typed {
        ($variant:ident, $ty:ty) => {
            polars::prelude::Column::new(
                name,
                values
                    .into_iter()
                    .filter_map(|v| match v {
                        Value::$variant(x) => Some(x),
                        _ => None,
                    })
                    .collect::<Vec<$ty>>(),
            )
        };
    }
    Ok(match values.first() {
        None | Some(Value::F64(_)) => typed!(F64, f64),
        Some(Value::Text(_)) => typed!(Text, String),
        Some(Value::U64(_)) => typed!(U64, u64),
        Some(Value::U32(_)) => typed!(U32, u32),
        Some(Value::MaybeF64(_)) => typed!(MaybeF64, Option<f64>),
        Some(Value::MaybeU64(_)) => typed!(MaybeU64, Option<u64>),
        Some(Value::Bool(_)) => typed!(Bool, bool),
    })
}

/// The deterministic columns of `columns` (wall-clock ones left out), one
/// row per summary of `rows`, in declaration order: the `summary` table of
/// a replay, and with the grid's keys before it, the `runs` table.
///
/// # Errors
/// A polars error: a column whose rows give values of different types (a
/// bug in the declaration).
pub fn frame<S>(columns: &[SummaryColumn<S>], rows: &[&S]) -> PolarsResult<DataFrame> {
    frame_of(columns.iter().filter(|c| !c.wall_clock), rows)
}

fn frame_of<'a, S: 'a>(
    columns: impl Iterator<Item = &'a SummaryColumn<S>>,
    rows: &[&S],
) -> PolarsResult<DataFrame> {
    let cols = columns
        .map(|c| series(c, rows))
        .collect::<PolarsResult<Vec<_>>>()?;
    DataFrame::new_infer_height(cols)
}

/// The names of the columns of `columns` aggregated as mean ± CI, in
/// declaration order.
pub fn aggregated<S>(columns: &[SummaryColumn<S>]) -> Vec<&str> {
    columns
        .iter()
        .filter(|c| c.agg == Agg::MeanCi && !c.wall_clock)
        .map(|c| c.name.as_str())
        .collect()
}

/// The grid's `aggregate` table from its `runs` table: grouped by `keys`
/// (first-appearance order kept), `n` (u64), then for every column of
/// `columns` that aggregates as [`Agg::MeanCi`], in declaration order,
/// `<name>_mean`, `<name>_sd`, `<name>_ci95` (f64; sd and CI NaN when
/// n < 2). Integer columns are averaged as floats.
///
/// # Errors
/// A polars error: a key or an aggregated column missing from `runs`.
pub fn aggregate<S>(
    runs: &DataFrame,
    keys: &[&str],
    columns: &[SummaryColumn<S>],
) -> PolarsResult<DataFrame> {
    let metrics = aggregated(columns);
    let mut work = runs.select(keys.iter().copied().chain(metrics.iter().copied()))?;
    for m in &metrics {
        let as_f64 = work.column(m)?.cast(&DataType::Float64)?;
        work.with_column(as_f64)?;
    }
    let grouped = mean_ci(work, keys, &metrics, vec![])?;
    let mut names: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    names.push("n".into());
    for m in &metrics {
        for s in ["mean", "sd", "ci95"] {
            names.push(format!("{m}_{s}"));
        }
    }
    grouped.select(names)
}

/// The mean rows printed after a replay of several scenarios: per value
/// of the key columns `keys` (first-appearance order), `n` and, for every
/// column both [`SummaryColumn::printed`] and aggregated, in declaration
/// order, with the column's decimals and print scale: its mean ± the
/// half-width of the 95 % Student-t confidence interval ([`Agg::MeanCi`])
/// or its largest value ([`Agg::Max`]). Wall-clock columns are included.
///
/// # Errors
/// A polars error: a key is not a text column of `columns`.
pub fn mean_rows<S>(
    columns: &[SummaryColumn<S>],
    rows: &[&S],
    keys: &[&str],
) -> PolarsResult<String> {
    let shown: Vec<&SummaryColumn<S>> = columns
        .iter()
        .filter(|c| c.printed && c.agg != Agg::None)
        .collect();
    let key_columns = columns.iter().filter(|c| keys.contains(&c.name.as_str()));
    let mut work = frame_of(key_columns.chain(shown.iter().copied()), rows)?;
    for c in &shown {
        let as_f64 = work.column(&c.name)?.cast(&DataType::Float64)?;
        work.with_column(as_f64)?;
    }
    let means: Vec<&str> = shown
        .iter()
        .filter(|c| c.agg == Agg::MeanCi)
        .map(|c| c.name.as_str())
        .collect();
    let maxima: Vec<Expr> = shown
        .iter()
        .filter(|c| c.agg == Agg::Max)
        .map(|c| col(c.name.as_str()).max().alias(format!("{}_max", c.name)))
        .collect();
    let g = mean_ci(work, keys, &means, maxima)?;
    let key_values = keys
        .iter()
        .map(|k| str_column(&g, k))
        .collect::<PolarsResult<Vec<_>>>()?;
    let n = n_column(&g)?;
    // Each shown column's printed cells, one per group.
    let texts = shown
        .iter()
        .map(|c| {
            let k = c.print_scale;
            Ok(match c.agg {
                Agg::Max => f64_column(&g, &format!("{}_max", c.name))?
                    .into_iter()
                    .map(|x| format!("{:.*}", c.digits, x.unwrap_or(f64::NAN) * k))
                    .collect::<Vec<_>>(),
                _ => stat_column(&g, &c.name)?
                    .into_iter()
                    .map(|s| {
                        let scaled = Stat {
                            mean: s.mean * k,
                            sd: s.sd.map(|x| x * k),
                            ci95: s.ci95.map(|x| x * k),
                        };
                        pm(&scaled, c.digits)
                    })
                    .collect(),
            })
        })
        .collect::<PolarsResult<Vec<Vec<String>>>>()?;
    // Text of every cell, header first: the keys, n, the shown columns.
    let mut lines: Vec<Vec<String>> = vec![
        keys.iter()
            .map(|k| k.to_string())
            .chain(["n".to_string()])
            .chain(shown.iter().map(|c| c.heading()))
            .collect(),
    ];
    for i in 0..n.len() {
        lines.push(
            key_values
                .iter()
                .map(|v| v[i].clone())
                .chain([n[i].to_string()])
                .chain(texts.iter().map(|t| t[i].clone()))
                .collect(),
        );
    }
    let mut out = aligned(&lines, keys.len());
    out.push_str(
        "(means over scenarios ± half-width of the 95 % confidence interval, Student t; max: the largest over them)\n",
    );
    Ok(out)
}

/// A grid's tables, named, in the order they are written, and the
/// aggregated rows its Markdown and figures read (one per (log, variant,
/// heuristic) or (variant, heuristic), as the environment groups).
pub struct GridTables<R> {
    /// (table name, table), in writing order.
    pub tables: Vec<(&'static str, DataFrame)>,
    /// The aggregated rows.
    pub rows: Vec<R>,
}

impl<R> GridTables<R> {
    /// The table named `name`.
    pub fn get(&self, name: &str) -> Option<&DataFrame> {
        self.tables.iter().find(|(n, _)| *n == name).map(|(_, t)| t)
    }

    /// The rows, and the tables to write.
    pub fn split(&mut self) -> (&[R], Vec<(&'static str, &mut DataFrame)>) {
        (
            &self.rows,
            self.tables.iter_mut().map(|(n, t)| (*n, t)).collect(),
        )
    }
}

impl<R> GridTables<R> {
    /// The tables of a grid whose cells each hold one run summary: `runs`
    /// and `runs_timing` as given, the deterministic `aggregate` of `runs`
    /// (every column of `columns` aggregated mean ± CI, grouped by `keys`;
    /// [`aggregate`]), the wall-clock `timing` of
    /// `work` ([`super::aggregate::timing_table`]), and the rows `rows` reads from those two.
    ///
    /// # Errors
    /// A polars error: a key or a column missing (a bug).
    pub fn of_runs<S>(
        runs: DataFrame,
        runs_timing: DataFrame,
        work: DataFrame,
        keys: &[&str],
        columns: &[SummaryColumn<S>],
        rows: impl FnOnce(&DataFrame, &DataFrame) -> PolarsResult<Vec<R>>,
    ) -> PolarsResult<GridTables<R>> {
        let aggregate = aggregate(&runs, keys, columns)?;
        let timing = super::aggregate::timing_table(work, keys)?;
        let rows = rows(&aggregate, &timing)?;
        Ok(GridTables {
            tables: vec![
                ("runs", runs),
                ("runs_timing", runs_timing),
                ("aggregate", aggregate),
                ("timing", timing),
            ],
            rows,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Run {
        key: &'static str,
        earned: f64,
        max: f64,
        done: u64,
    }

    fn columns() -> Vec<SummaryColumn<Run>> {
        vec![
            SummaryColumn::new("key", |r: &Run| Value::Text(r.key.to_string())),
            SummaryColumn::new("tasks_completed", |r: &Run| Value::U64(r.done)).mean_ci(),
            SummaryColumn::new("pct_of_max", |r: &Run| {
                Value::MaybeF64(pct_of_max(r.earned, r.max))
            })
            .mean_ci()
            .shown("% of max", "%", 1),
        ]
    }

    #[test]
    fn pct_of_max_is_null_when_nothing_could_be_earned() {
        assert_eq!(pct_of_max(3.0, 4.0), Some(75.0));
        assert_eq!(pct_of_max(0.0, 0.0), None);
    }

    #[test]
    fn one_declaration_gives_the_runs_and_the_aggregate() {
        let rows = [
            Run {
                key: "a",
                earned: 1.0,
                max: 2.0,
                done: 3,
            },
            Run {
                key: "a",
                earned: 3.0,
                max: 4.0,
                done: 5,
            },
            Run {
                key: "b",
                earned: 0.0,
                max: 0.0,
                done: 1,
            },
        ];
        let refs: Vec<&Run> = rows.iter().collect();
        let runs = frame(&columns(), &refs).unwrap();
        let names = |df: &DataFrame| -> Vec<String> {
            df.get_column_names()
                .iter()
                .map(|n| n.to_string())
                .collect()
        };
        assert_eq!(names(&runs), ["key", "tasks_completed", "pct_of_max"]);
        assert_eq!(
            runs.column("tasks_completed").unwrap().dtype(),
            &DataType::UInt64
        );
        assert_eq!(runs.column("pct_of_max").unwrap().null_count(), 1);
        let agg = aggregate(&runs, &["key"], &columns()).unwrap();
        assert_eq!(
            names(&agg),
            [
                "key",
                "n",
                "tasks_completed_mean",
                "tasks_completed_sd",
                "tasks_completed_ci95",
                "pct_of_max_mean",
                "pct_of_max_sd",
                "pct_of_max_ci95"
            ]
        );
        let mean = agg.column("pct_of_max_mean").unwrap().f64().unwrap().get(0);
        assert_eq!(mean, Some(62.5));
        let done = agg
            .column("tasks_completed_mean")
            .unwrap()
            .f64()
            .unwrap()
            .get(0);
        assert_eq!(done, Some(4.0));
    }

    /// Two runs of key `a`: 1 of 2 earned and 3 done, then `earned` of
    /// `max` and 5 done.
    fn two_runs(earned: f64, max: f64) -> [Run; 2] {
        [
            Run {
                key: "a",
                earned: 1.0,
                max: 2.0,
                done: 3,
            },
            Run {
                key: "a",
                earned,
                max,
                done: 5,
            },
        ]
    }

    #[test]
    fn wall_clock_columns_stay_out_of_the_tables_and_reach_the_mean_rows() {
        let rows = two_runs(3.0, 4.0);
        let refs: Vec<&Run> = rows.iter().collect();
        let mut cols = columns();
        cols.push(
            SummaryColumn::new("seconds_max", |r: &Run| Value::F64(r.done as f64 / 1e3))
                .wall_clock()
                .max_over_scenarios()
                .shown("max ms", "", 1)
                .print_scaled(1e3),
        );
        let runs = frame(&cols, &refs).unwrap();
        assert!(runs.column("seconds_max").is_err());
        let printed = mean_rows(&cols, &refs, &["key"]).unwrap();
        let lines: Vec<&str> = printed.lines().collect();
        // A label that holds its unit is not followed by it again.
        assert!(
            lines[0].starts_with("key") && lines[0].contains("  % of max  "),
            "{printed}"
        );
        assert!(lines[0].ends_with("max ms"), "{printed}");
        // % of max: mean 62.5, sd 17.68, CI t(0.975, 1) · sd / √2 = 158.84.
        assert!(lines[1].contains("62.5 ± 158.8"), "{printed}");
        assert!(lines[1].ends_with("5.0"), "{printed}");
    }

    /// A metric is one entry in the list: declared, it reaches the
    /// `summary`/`runs` frame, the `aggregate` table, the printed run table,
    /// the mean rows and the Markdown, with nothing else changed.
    #[test]
    fn a_metric_declared_once_reaches_every_table() {
        let rows = two_runs(2.0, 2.0);
        let refs: Vec<&Run> = rows.iter().collect();
        let mut cols = columns();
        cols.push(
            SummaryColumn::new("shortfall", |r: &Run| Value::F64(r.max - r.earned))
                .mean_ci()
                .shown("shortfall", "value units", 2),
        );
        let runs = frame(&cols, &refs).unwrap();
        assert!(runs.column("shortfall").is_ok());
        let agg = aggregate(&runs, &["key"], &cols).unwrap();
        for s in ["shortfall_mean", "shortfall_sd", "shortfall_ci95"] {
            assert!(agg.column(s).is_ok(), "{s}");
        }
        assert_eq!(f64_column(&agg, "shortfall_mean").unwrap(), vec![Some(0.5)]);
        let printed = run_table(&cols, &refs, &["key"]);
        assert!(printed.contains("shortfall (value units)"), "{printed}");
        assert!(
            printed.contains("1.00") && printed.contains("0.00"),
            "{printed}"
        );
        let means = mean_rows(&cols, &refs, &["key"]).unwrap();
        assert!(means.contains("shortfall (value units)"), "{means}");
        assert!(means.contains("0.50 ± "), "{means}");
        let md = markdown(&agg, &["key"], &cols).unwrap();
        assert!(md.contains("| shortfall (value units) |"), "{md}");
        assert!(md.contains("| 0.50 ± "), "{md}");
    }
}
