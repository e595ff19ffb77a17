//! Aggregation over runs, shared by the experiment tables and the mean rows
//! of a multi-day replay: per group, the number of runs n, and per metric
//! the mean, the sample standard deviation (divisor n − 1; null when n < 2)
//! and the half-width of the 95 % confidence interval of the mean,
//! t(0.975, n − 1) · sd / √n ([`super::stats`]).

use polars::prelude::*;

use super::stats;

/// Groups `work` by `keys` (first-appearance order kept) and computes, per
/// group, `n` (u64) and for each of `metrics` the columns `<m>_mean`,
/// `<m>_sd` and `<m>_ci95` (f64; sd and CI null when n < 2), then the
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
    // CI half-widths from n and sd; NaN standard deviations become null.
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
        grouped.with_column(Column::new(format!("{m}_sd").into(), sd))?;
        grouped.with_column(Column::new(format!("{m}_ci95").into(), ci))?;
    }
    Ok(grouped)
}
