//! Aggregation over runs, shared by the experiment tables and the mean rows
//! of a multi-day replay: per group, the number of runs n, and per metric
//! the mean, the sample standard deviation (divisor n − 1; null when n < 2)
//! and the half-width of the 95 % confidence interval of the mean,
//! t(0.975, n − 1) · sd / √n ([`super::stats`]).

use polars::prelude::*;

use super::stats;

/// Groups `work` by `keys` (first-appearance order kept) and computes, per
/// group, `n` (u64) and for each of `metrics` the columns `<m>_mean`,
/// `<m>_sd` and `<m>_ci95` (f64; sd and CI NaN when n < 2 — NaN rather than
/// null so that the columns are floats in CSV and Parquet alike), then the
/// `extra` aggregations as given.
///
/// # Errors
/// A polars error: a key or metric column missing, or a metric that is not
/// numeric.
pub fn mean_ci(
    work: DataFrame,
    keys: &[&str],
    metrics: &[&str],
    extra: Vec<Expr>,
) -> PolarsResult<DataFrame> {
    let mut aggs: Vec<Expr> = vec![len().cast(DataType::UInt64).alias("n")];
    for m in metrics {
        aggs.push(col(*m).mean().alias(format!("{m}_mean")));
        aggs.push(col(*m).std(1).alias(format!("{m}_sd")));
    }
    aggs.extend(extra);
    let key_exprs: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    let mut grouped = work.lazy().group_by_stable(key_exprs).agg(aggs).collect()?;
    // CI half-widths from n and sd; undefined ones (n < 2) are NaN.
    let n: Vec<u64> = grouped
        .column("n")?
        .u64()?
        .iter()
        .map(|x| x.unwrap_or(0))
        .collect();
    for m in metrics {
        let sd: Vec<Option<f64>> = grouped
            .column(&format!("{m}_sd"))?
            .f64()?
            .iter()
            .map(|x| x.filter(|v| v.is_finite()))
            .collect();
        let ci: Vec<Option<f64>> = sd
            .iter()
            .zip(&n)
            .map(|(s, &k)| s.and_then(|s| stats::ci95_half_width(s, k)))
            .collect();
        let nan = |v: Vec<Option<f64>>| -> Vec<f64> {
            v.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect()
        };
        grouped.with_column(Column::new(format!("{m}_sd").into(), nan(sd)))?;
        grouped.with_column(Column::new(format!("{m}_ci95").into(), nan(ci)))?;
    }
    Ok(grouped)
}

/// The grid's wall-clock `timing` table from a frame `work` holding the
/// group `keys` and, per run, `mapping_events`, `heuristic_seconds_mean`
/// (the heuristic's mean wall time per mapping event, s) and
/// `heuristic_seconds_max` (its longest event, s): per group (first
/// appearance order), the keys, `n`, `mapping_events_mean`,
/// `heuristic_seconds_mean_mean`, `_sd`, `_ci95`,
/// `heuristic_seconds_max_mean` and `heuristic_seconds_max_max` (s). The
/// one layout of every environment's `timing` table.
///
/// # Errors
/// A polars error: a key or one of the three columns missing.
pub fn timing_table(work: DataFrame, keys: &[&str]) -> PolarsResult<DataFrame> {
    let extra = vec![
        col("mapping_events").mean().alias("mapping_events_mean"),
        col("heuristic_seconds_max")
            .mean()
            .alias("heuristic_seconds_max_mean"),
        col("heuristic_seconds_max")
            .max()
            .alias("heuristic_seconds_max_max"),
    ];
    let grouped = mean_ci(work, keys, &["heuristic_seconds_mean"], extra)?;
    let mut names: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    names.extend(
        [
            "n",
            "mapping_events_mean",
            "heuristic_seconds_mean_mean",
            "heuristic_seconds_mean_sd",
            "heuristic_seconds_mean_ci95",
            "heuristic_seconds_max_mean",
            "heuristic_seconds_max_max",
        ]
        .map(String::from),
    );
    grouped.select(names)
}

/// Mean, sample standard deviation and 95 % CI half-width of one metric
/// over the runs of a group.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Stat {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1); `None` when n < 2.
    pub sd: Option<f64>,
    /// t(0.975, n − 1) · sd / √n; `None` when n < 2.
    pub ci95: Option<f64>,
}

/// `mean ± ci` with `digits` decimals (`mean` alone when there is no CI).
pub fn pm(s: &Stat, digits: usize) -> String {
    match s.ci95 {
        Some(c) => format!("{:.*} ± {:.*}", digits, s.mean, digits, c),
        None => format!("{:.*}", digits, s.mean),
    }
}

/// The [`Stat`] of metric `m` of every group of a [`mean_ci`] frame.
///
/// # Errors
/// A polars error: the metric was not aggregated.
pub fn stat_column(g: &DataFrame, m: &str) -> PolarsResult<Vec<Stat>> {
    let finite = |v: Vec<Option<f64>>| -> Vec<Option<f64>> {
        v.into_iter().map(|x| x.filter(|x| x.is_finite())).collect()
    };
    let mean = f64_column(g, &format!("{m}_mean"))?;
    let sd = finite(f64_column(g, &format!("{m}_sd"))?);
    let ci = finite(f64_column(g, &format!("{m}_ci95"))?);
    Ok(mean
        .into_iter()
        .zip(sd)
        .zip(ci)
        .map(|((mean, sd), ci95)| Stat {
            mean: mean.unwrap_or(f64::NAN),
            sd,
            ci95,
        })
        .collect())
}

/// The mean ± CI of the metrics `names` (summary column names) in every
/// row of `aggregate`, row by row: element `k` of row `r` is metric
/// `names[k]` ([`stat_column`]).
///
/// # Errors
/// A polars error: a metric's `_mean`, `_sd` or `_ci95` column missing.
pub fn stats_by_row<const N: usize>(
    aggregate: &DataFrame,
    names: [&str; N],
) -> PolarsResult<Vec<[Stat; N]>> {
    let columns = names
        .iter()
        .map(|m| stat_column(aggregate, m))
        .collect::<PolarsResult<Vec<_>>>()?;
    Ok((0..aggregate.height())
        .map(|r| std::array::from_fn(|k| columns[k][r]))
        .collect())
}

/// A float column, nulls as `None`.
///
/// # Errors
/// A polars error: no such column, or not f64.
pub fn f64_column(df: &DataFrame, name: &str) -> PolarsResult<Vec<Option<f64>>> {
    Ok(df.column(name)?.f64()?.iter().collect())
}

/// A string column, nulls as "".
///
/// # Errors
/// A polars error: no such column, or not a string.
pub fn str_column(df: &DataFrame, name: &str) -> PolarsResult<Vec<String>> {
    Ok(df
        .column(name)?
        .str()?
        .iter()
        .map(|x| x.unwrap_or("").to_string())
        .collect())
}

/// What every aggregated row of a grid has: the keys of its group (log,
/// variant, heuristic), the number of runs in it and the heuristic's wall
/// clock. `V` is the environment's variant.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Group<V> {
    /// Log key (`synthetic` for synthetic trials).
    pub log_key: String,
    /// The variant.
    pub variant: V,
    /// Heuristic name.
    pub heuristic: String,
    /// Number of runs (days or trials).
    pub n: u64,
    /// Mean heuristic seconds per mapping event (s; wall clock).
    pub heuristic_seconds_mean: Stat,
    /// Largest heuristic seconds of one mapping event over the runs (s;
    /// NaN when unknown).
    pub heuristic_seconds_max: f64,
}

/// The columns a grid's `aggregate` and `timing` tables group by, in
/// order: the log columns `logs` (its key, and any other), `variant`, the
/// variant's level columns `levels`, `heuristic`.
pub fn group_keys(
    logs: &[&'static str],
    levels: impl IntoIterator<Item = &'static str>,
) -> Vec<&'static str> {
    let mut keys = logs.to_vec();
    keys.push("variant");
    keys.extend(levels);
    keys.push("heuristic");
    keys
}

/// The [`Group`] of every row of a grid's `aggregate` table, in its order,
/// with the wall clock of `timing` (the same groups in the same order).
/// The aggregate is keyed by `log_key`, `variant` and `heuristic`;
/// `variant_of(log_key, variant)` gives the variant a key names (from the
/// group's cells).
///
/// # Errors
/// A polars error: a key or a timing column missing (a bug).
pub fn groups<V>(
    aggregate: &DataFrame,
    timing: &DataFrame,
    variant_of: impl Fn(&str, &str) -> V,
) -> PolarsResult<Vec<Group<V>>> {
    let keys = str_column(aggregate, "log_key")?;
    let variants = str_column(aggregate, "variant")?;
    let heuristics = str_column(aggregate, "heuristic")?;
    let n = n_column(aggregate)?;
    let mean = stat_column(timing, "heuristic_seconds_mean")?;
    let max = f64_column(timing, "heuristic_seconds_max_max")?;
    Ok((0..n.len())
        .map(|i| Group {
            variant: variant_of(&keys[i], &variants[i]),
            log_key: keys[i].clone(),
            heuristic: heuristics[i].clone(),
            n: n[i],
            heuristic_seconds_mean: mean[i],
            heuristic_seconds_max: max[i].unwrap_or(f64::NAN),
        })
        .collect())
}

/// [`groups`] of a grid whose cells each say, through `of`, their log key,
/// their variant's label (as the `variant` column spells it) and their
/// variant: a group's variant is that of its first cell (the default when
/// no cell matches).
///
/// # Errors
/// As [`groups`].
pub fn groups_of_cells<C, V: Default>(
    aggregate: &DataFrame,
    timing: &DataFrame,
    cells: &[C],
    of: impl Fn(&C) -> (&str, String, V),
) -> PolarsResult<Vec<Group<V>>> {
    groups(aggregate, timing, |key, label| {
        cells
            .iter()
            .map(&of)
            .find(|(k, l, _)| *k == key && l == label)
            .map(|(_, _, v)| v)
            .unwrap_or_default()
    })
}

/// The side-by-side Markdown table of `compare`: one row per name of
/// `rows` (the first column headed `first`); per log of `logs`, one
/// right-aligned column per heading of `columns` (headed `LOG HEADING`),
/// filled by `cells(log, row)` (one text per column), or dashes where it
/// gives `None`.
pub fn side_by_side(
    first: &str,
    logs: &[&str],
    rows: &[String],
    columns: &[&str],
    cells: impl Fn(&str, &str) -> Option<Vec<String>>,
) -> String {
    let mut out = format!("| {first} |");
    let mut rule = String::from("|---|");
    for l in logs {
        for c in columns {
            out.push_str(&format!(" {l} {c} |"));
            rule.push_str("---:|");
        }
    }
    out.push('\n');
    out.push_str(&rule);
    out.push('\n');
    for r in rows {
        out.push_str(&format!("| {r} |"));
        for l in logs {
            match cells(l, r) {
                Some(texts) => texts.iter().for_each(|t| out.push_str(&format!(" {t} |"))),
                None => columns.iter().for_each(|_| out.push_str(" – |")),
            }
        }
        out.push('\n');
    }
    out
}

/// The group sizes `n` of a [`mean_ci`] frame.
///
/// # Errors
/// A polars error: not a [`mean_ci`] frame.
pub fn n_column(g: &DataFrame) -> PolarsResult<Vec<u64>> {
    Ok(g.column("n")?
        .u64()?
        .iter()
        .map(|x| x.unwrap_or(0))
        .collect())
}
