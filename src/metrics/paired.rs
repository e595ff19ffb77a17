//! Paired comparison of heuristics that ran on the same scenarios (days,
//! trials, logs): per pair of heuristics and metric, the mean difference
//! with its 95 % confidence interval, the paired t-test, the Wilcoxon
//! signed-rank test, and both p-values adjusted for the comparisons of one
//! family by Holm's step-down method.
//!
//! - Paired t-test: Student (1908); the one-sample t-test of the
//!   differences against 0, two-sided, from the `statrs` crate
//!   (`ttest_onesample`), as `scipy.stats.ttest_rel`.
//! - Wilcoxon signed-rank test: Wilcoxon, "Individual comparisons by ranking
//!   methods", *Biometrics Bulletin* 1(6), 1945. Zero differences are
//!   dropped before ranking (Wilcoxon's rule), tied |differences| share the
//!   mean of their ranks, the statistic is min(R+, R−), two-sided, no
//!   continuity correction. The p-value follows SciPy's default
//!   (`scipy.stats.wilcoxon`, method "auto", SciPy 1.17): the exact null
//!   distribution of R+ when there are at most 50 pairs, no ties and no
//!   zero differences; with ties or zeros and at most 13 pairs, all 2ⁿ sign
//!   flips of the differences (an exact permutation test); otherwise the
//!   normal approximation, its variance corrected for ties. The figures are
//!   checked against SciPy in `tests/fixtures/paired_scipy.json`.
//! - Holm, "A simple sequentially rejective multiple test procedure",
//!   *Scandinavian Journal of Statistics* 6(2), 1979: the i-th smallest of m
//!   p-values becomes max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎). A family
//!   is every pair of heuristics of one group (log and variant) and one
//!   metric.

use std::collections::HashMap;

use polars::prelude::*;
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::stats_tests::ttest_onesample::ttest_onesample;
use statrs::stats_tests::{Alternative, NaNPolicy};

use super::aggregate::{f64_column, str_column};
use super::columns::{Agg, SummaryColumn};
use super::stats;

/// The significance level of the marks in Markdown (after Holm).
pub const ALPHA: f64 = 0.05;

/// How the Wilcoxon p-value was computed (SciPy's "auto" rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WilcoxonMethod {
    /// The exact null distribution of R+ (≤ 50 pairs, no ties, no zeros).
    Exact,
    /// Every sign flip of the differences (≤ 13 pairs with ties or zeros).
    Permutation,
    /// The normal approximation with the tie correction.
    Asymptotic,
}

impl WilcoxonMethod {
    /// The name in the `paired` table: `exact`, `permutation`,
    /// `asymptotic`.
    pub fn name(self) -> &'static str {
        match self {
            WilcoxonMethod::Exact => "exact",
            WilcoxonMethod::Permutation => "permutation",
            WilcoxonMethod::Asymptotic => "asymptotic",
        }
    }
}

/// The Wilcoxon signed-rank test of the differences `d`: the statistic
/// min(R+, R−) and the two-sided p-value (NaN when every difference is 0
/// and there are more than 13), and how the p-value was computed. `None`
/// for no differences.
pub fn wilcoxon(d: &[f64]) -> Option<(f64, f64, WilcoxonMethod)> {
    if d.is_empty() {
        return None;
    }
    let nonzero: Vec<f64> = d.iter().copied().filter(|&x| x != 0.0).collect();
    let zeros = d.len() - nonzero.len();
    let (ranks, tie_sizes) = average_ranks(&nonzero);
    let r_plus: f64 = nonzero
        .iter()
        .zip(&ranks)
        .filter(|(x, _)| **x > 0.0)
        .map(|(_, r)| r)
        .fold(0.0, |acc, r| acc + r);
    let count = nonzero.len() as f64;
    let r_minus = count * (count + 1.0) / 2.0 - r_plus;
    let statistic = r_plus.min(r_minus);
    let ties = tie_sizes.iter().any(|&t| t > 1);
    let method = if d.len() > 50 {
        WilcoxonMethod::Asymptotic
    } else if !ties && zeros == 0 {
        WilcoxonMethod::Exact
    } else if d.len() <= 13 {
        WilcoxonMethod::Permutation
    } else {
        WilcoxonMethod::Asymptotic
    };
    let p = match method {
        WilcoxonMethod::Exact => exact_p(nonzero.len(), r_plus),
        WilcoxonMethod::Permutation => permutation_p(&ranks, r_plus),
        WilcoxonMethod::Asymptotic => {
            let mean = count * (count + 1.0) / 4.0;
            let tie_term: f64 = tie_sizes
                .iter()
                .map(|&t| {
                    let t = t as f64;
                    t * t * t - t
                })
                .sum();
            let var = (count * (count + 1.0) * (2.0 * count + 1.0) - tie_term / 2.0) / 24.0;
            let z = (r_plus - mean) / var.sqrt();
            if z.is_finite() {
                let normal = Normal::standard();
                2.0 * normal.sf(z.abs())
            } else {
                f64::NAN
            }
        }
    };
    Some((statistic, p, method))
}

/// Average ranks (1-based) of |x| and the size of every group of ties.
fn average_ranks(x: &[f64]) -> (Vec<f64>, Vec<usize>) {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&i, &j| x[i].abs().total_cmp(&x[j].abs()));
    let mut ranks = vec![0.0; x.len()];
    let mut sizes = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let mut j = i + 1;
        while j < order.len() && x[order[j]].abs() == x[order[i]].abs() {
            j += 1;
        }
        // Positions i..j (0-based) share the mean of ranks i+1..=j.
        let r = (i + 1 + j) as f64 / 2.0;
        for &k in &order[i..j] {
            ranks[k] = r;
        }
        sizes.push(j - i);
        i = j;
    }
    (ranks, sizes)
}

/// Two-sided exact p-value of R+ = `r_plus` for `n` untied, non-zero
/// differences: 2 · min(P(R+ ≥ ⌊r⌋), P(R+ ≤ ⌈r⌉)), at most 1. The null
/// distribution counts the subsets of {1, …, n} by their sum.
fn exact_p(n: usize, r_plus: f64) -> f64 {
    let top = n * (n + 1) / 2;
    let mut counts = vec![0u128; top + 1];
    counts[0] = 1;
    for k in 1..=n {
        for s in (k..=top).rev() {
            counts[s] += counts[s - k];
        }
    }
    let total = 2f64.powi(n as i32);
    let cdf = |k: usize| counts[..=k.min(top)].iter().sum::<u128>() as f64 / total;
    let sf = |k: usize| counts[k.min(top + 1)..].iter().sum::<u128>() as f64 / total;
    let hi = r_plus.floor() as usize;
    let lo = r_plus.ceil() as usize;
    (2.0 * sf(hi).min(cdf(lo))).min(1.0)
}

/// Two-sided p-value of R+ over every sign flip of the differences (the
/// `ranks` of the non-zero ones; a zero flips to zero and adds nothing, so
/// it leaves the shares unchanged):
/// 2 · min(share with R+ ≤ observed, share with R+ ≥ observed), at most 1,
/// as SciPy's exhaustive `permutation_test`.
fn permutation_p(ranks: &[f64], observed: f64) -> f64 {
    let m = ranks.len();
    let (mut le, mut ge) = (0u64, 0u64);
    let gamma = (observed * f64::EPSILON * 100.0).abs();
    for mask in 0u64..(1u64 << m) {
        let s: f64 = (0..m)
            .filter(|&k| mask >> k & 1 == 1)
            .map(|k| ranks[k])
            .sum();
        if s <= observed + gamma {
            le += 1;
        }
        if s >= observed - gamma {
            ge += 1;
        }
    }
    let total = (1u64 << m) as f64;
    (2.0 * (le as f64 / total).min(ge as f64 / total)).min(1.0)
}

/// Holm's step-down adjustment of the p-values `p` (one family), in their
/// order; a NaN stays NaN and is not counted in the family.
pub fn holm(p: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..p.len()).filter(|&i| !p[i].is_nan()).collect();
    idx.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let m = idx.len();
    let mut out = vec![f64::NAN; p.len()];
    let mut running: f64 = 0.0;
    for (rank, &i) in idx.iter().enumerate() {
        let adjusted = ((m - rank) as f64 * p[i]).min(1.0);
        running = running.max(adjusted);
        out[i] = running;
    }
    out
}

/// One paired comparison of heuristics a and b on one metric.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paired {
    /// Scenarios where both have a value.
    pub n: u64,
    /// Mean of a over those scenarios.
    pub mean_a: f64,
    /// Mean of b over those scenarios.
    pub mean_b: f64,
    /// Mean of a − b.
    pub mean_diff: f64,
    /// Sample standard deviation of a − b (n − 1; NaN for n < 2).
    pub diff_sd: f64,
    /// Half-width of the 95 % CI of the mean difference,
    /// t(0.975, n − 1) · sd / √n (NaN for n < 2).
    pub diff_ci95: f64,
    /// The paired t statistic (±∞ when every difference is the same
    /// non-zero value; NaN when all are 0 or n < 2).
    pub t_statistic: f64,
    /// Its two-sided p-value (NaN when the statistic is).
    pub t_p: f64,
    /// The Wilcoxon statistic min(R+, R−) (NaN for n = 0).
    pub wilcoxon_statistic: f64,
    /// Its two-sided p-value.
    pub wilcoxon_p: f64,
    /// How the Wilcoxon p-value was computed.
    pub wilcoxon_method: Option<WilcoxonMethod>,
}

/// Compares `a` and `b`, paired by position; a pair where either is
/// missing or not finite is left out.
pub fn compare(a: &[Option<f64>], b: &[Option<f64>]) -> Paired {
    let pairs: Vec<(f64, f64)> = a
        .iter()
        .zip(b)
        .filter_map(|(x, y)| match (x, y) {
            (Some(x), Some(y)) if x.is_finite() && y.is_finite() => Some((*x, *y)),
            _ => None,
        })
        .collect();
    let n = pairs.len();
    let d: Vec<f64> = pairs.iter().map(|(x, y)| x - y).collect();
    let mean = |v: &mut dyn Iterator<Item = f64>| {
        if n == 0 {
            f64::NAN
        } else {
            v.sum::<f64>() / n as f64
        }
    };
    let mean_a = mean(&mut pairs.iter().map(|p| p.0));
    let mean_b = mean(&mut pairs.iter().map(|p| p.1));
    let (mean_diff, sd) = match stats::mean_sd(&d) {
        Some((m, sd)) => (m, sd.unwrap_or(f64::NAN)),
        None => (f64::NAN, f64::NAN),
    };
    let ci = stats::ci95_half_width(sd, n as u64).unwrap_or(f64::NAN);
    let (t_statistic, t_p) = if n < 2 {
        (f64::NAN, f64::NAN)
    } else if sd == 0.0 {
        // statrs divides by the zero sd too; say it as SciPy does.
        if mean_diff == 0.0 {
            (f64::NAN, f64::NAN)
        } else {
            (mean_diff.signum() * f64::INFINITY, 0.0)
        }
    } else {
        ttest_onesample(d.clone(), 0.0, Alternative::TwoSided, NaNPolicy::Error)
            .unwrap_or((f64::NAN, f64::NAN))
    };
    let (w, wp, method) = match wilcoxon(&d) {
        Some((w, p, m)) => (w, p, Some(m)),
        None => (f64::NAN, f64::NAN, None),
    };
    Paired {
        n: n as u64,
        mean_a,
        mean_b,
        mean_diff,
        diff_sd: sd,
        diff_ci95: ci,
        t_statistic,
        t_p,
        wilcoxon_statistic: w,
        wilcoxon_p: wp,
        wilcoxon_method: method,
    }
}

/// The columns of a `paired` table after its group keys, in order
/// (docs/outputs.md).
pub const PAIRED_COLUMNS: [&str; 17] = [
    "metric",
    "heuristic_a",
    "heuristic_b",
    "n",
    "mean_a",
    "mean_b",
    "mean_diff",
    "diff_sd",
    "diff_ci95",
    "t_statistic",
    "t_p",
    "t_p_holm",
    "wilcoxon_statistic",
    "wilcoxon_p",
    "wilcoxon_p_holm",
    "wilcoxon_method",
    "significant",
];

/// The values of `name` in `df` as text, one per row (numbers as Rust
/// prints them, nulls as "").
fn text_of(df: &DataFrame, name: &str) -> PolarsResult<Vec<String>> {
    let c = df.column(name)?.cast(&DataType::String)?;
    Ok(c.str()?
        .iter()
        .map(|x| x.unwrap_or("").to_string())
        .collect())
}

/// The `paired` table of a grid's `runs` table: for each group (the
/// values of `groups`, first-appearance order), each metric of `metrics`
/// (in order) and each pair of heuristics (column `heuristic`, in
/// first-appearance order within the group; a before b), the [`Paired`]
/// comparison of a and b over the scenarios (the values of `scenario`) both
/// ran, with the t and Wilcoxon p-values adjusted by Holm over the pairs
/// of the group and metric, and `significant` = both adjusted p-values
/// below [`ALPHA`]. Columns: the group keys, then [`PAIRED_COLUMNS`]
/// (`n` u64, `heuristic_*`, `metric`, `wilcoxon_method` text — empty when
/// n = 0 —, `significant` bool, the rest f64, NaN when undefined). Empty
/// (the columns, no rows) when no group has two heuristics.
///
/// # Errors
/// A polars error: a key or metric column missing or not numeric, or two
/// runs of one heuristic on one scenario of a group.
pub fn paired_table(
    runs: &DataFrame,
    groups: &[&str],
    scenario: &[&str],
    metrics: &[&str],
) -> PolarsResult<DataFrame> {
    let rows = runs.height();
    let key_text = |names: &[&str]| -> PolarsResult<Vec<String>> {
        let cols = names
            .iter()
            .map(|n| text_of(runs, n))
            .collect::<PolarsResult<Vec<_>>>()?;
        Ok((0..rows)
            .map(|i| {
                cols.iter()
                    .map(|c| c[i].as_str())
                    .collect::<Vec<_>>()
                    .join("\u{1f}")
            })
            .collect())
    };
    let group_key = key_text(groups)?;
    let scenario_key = key_text(scenario)?;
    let group_values = groups
        .iter()
        .map(|n| text_of(runs, n))
        .collect::<PolarsResult<Vec<_>>>()?;
    let heuristic = str_column(runs, "heuristic")?;
    let values = metrics
        .iter()
        .map(|m| {
            let c = runs.column(m)?.cast(&DataType::Float64)?;
            Ok(c.f64()?.iter().collect::<Vec<Option<f64>>>())
        })
        .collect::<PolarsResult<Vec<_>>>()?;

    // Groups in first-appearance order, each with its heuristics and
    // scenarios in first-appearance order and the row of each run.
    struct Group {
        first_row: usize,
        heuristics: Vec<String>,
        scenarios: Vec<String>,
        row: HashMap<(usize, usize), usize>,
    }
    let mut order: Vec<String> = Vec::new();
    let mut by_key: HashMap<String, Group> = HashMap::new();
    for i in 0..rows {
        let g = by_key.entry(group_key[i].clone()).or_insert_with(|| {
            order.push(group_key[i].clone());
            Group {
                first_row: i,
                heuristics: Vec::new(),
                scenarios: Vec::new(),
                row: HashMap::new(),
            }
        });
        let h = position_or_push(&mut g.heuristics, &heuristic[i]);
        let s = position_or_push(&mut g.scenarios, &scenario_key[i]);
        if g.row.insert((h, s), i).is_some() {
            return Err(polars_err!(
                ComputeError: "two runs of heuristic {} on one scenario ({}) of a group",
                heuristic[i],
                scenario_key[i].replace('\u{1f}', ", ")
            ));
        }
    }

    let mut out_groups: Vec<Vec<String>> = vec![Vec::new(); groups.len()];
    let mut metric_col = Vec::new();
    let mut ha = Vec::new();
    let mut hb = Vec::new();
    let mut results: Vec<Paired> = Vec::new();
    let mut t_holm = Vec::new();
    let mut w_holm = Vec::new();
    for key in &order {
        let g = &by_key[key];
        for (m, metric) in metrics.iter().enumerate() {
            let series = |h: usize| -> Vec<Option<f64>> {
                (0..g.scenarios.len())
                    .map(|s| g.row.get(&(h, s)).and_then(|&i| values[m][i]))
                    .collect()
            };
            let mut family = Vec::new();
            for a in 0..g.heuristics.len() {
                for b in a + 1..g.heuristics.len() {
                    family.push(compare(&series(a), &series(b)));
                    for (k, v) in out_groups.iter_mut().enumerate() {
                        v.push(group_values[k][g.first_row].clone());
                    }
                    metric_col.push(metric.to_string());
                    ha.push(g.heuristics[a].clone());
                    hb.push(g.heuristics[b].clone());
                }
            }
            t_holm.extend(holm(&family.iter().map(|p| p.t_p).collect::<Vec<_>>()));
            w_holm.extend(holm(
                &family.iter().map(|p| p.wilcoxon_p).collect::<Vec<_>>(),
            ));
            results.extend(family);
        }
    }
    let f = |get: fn(&Paired) -> f64| results.iter().map(get).collect::<Vec<f64>>();
    let significant: Vec<bool> = t_holm
        .iter()
        .zip(&w_holm)
        .map(|(t, w)| *t < ALPHA && *w < ALPHA)
        .collect();
    let mut cols: Vec<Column> = groups
        .iter()
        .zip(out_groups)
        .map(|(n, v)| Column::new((*n).into(), v))
        .collect();
    cols.extend([
        Column::new("metric".into(), metric_col),
        Column::new("heuristic_a".into(), ha),
        Column::new("heuristic_b".into(), hb),
        Column::new(
            "n".into(),
            results.iter().map(|p| p.n).collect::<Vec<u64>>(),
        ),
        Column::new("mean_a".into(), f(|p| p.mean_a)),
        Column::new("mean_b".into(), f(|p| p.mean_b)),
        Column::new("mean_diff".into(), f(|p| p.mean_diff)),
        Column::new("diff_sd".into(), f(|p| p.diff_sd)),
        Column::new("diff_ci95".into(), f(|p| p.diff_ci95)),
        Column::new("t_statistic".into(), f(|p| p.t_statistic)),
        Column::new("t_p".into(), f(|p| p.t_p)),
        Column::new("t_p_holm".into(), t_holm),
        Column::new("wilcoxon_statistic".into(), f(|p| p.wilcoxon_statistic)),
        Column::new("wilcoxon_p".into(), f(|p| p.wilcoxon_p)),
        Column::new("wilcoxon_p_holm".into(), w_holm),
        Column::new(
            "wilcoxon_method".into(),
            results
                .iter()
                .map(|p| p.wilcoxon_method.map_or("", |m| m.name()))
                .collect::<Vec<_>>(),
        ),
        Column::new("significant".into(), significant),
    ]);
    DataFrame::new_infer_height(cols)
}

fn position_or_push(v: &mut Vec<String>, x: &str) -> usize {
    match v.iter().position(|y| y == x) {
        Some(i) => i,
        None => {
            v.push(x.to_string());
            v.len() - 1
        }
    }
}

/// The metrics a grid compares pairwise: the columns of `columns`
/// aggregated as mean ± CI that are not wall clock, in declaration order.
pub fn compared<S>(columns: &[SummaryColumn<S>]) -> Vec<&str> {
    columns
        .iter()
        .filter(|c| c.agg == Agg::MeanCi && !c.wall_clock)
        .map(|c| c.name.as_str())
        .collect()
}

/// A p-value for Markdown: 3 significant decimals, `< 0.001` below, `–`
/// when undefined, and `*` when it is below [`ALPHA`].
fn p_text(p: f64) -> String {
    if p.is_nan() {
        "–".into()
    } else if p < 0.001 {
        "< 0.001 *".into()
    } else {
        format!("{p:.3}{}", if p < ALPHA { " *" } else { "" })
    }
}

/// The "Paired differences" section of a grid's Markdown from its
/// `paired` table: per group (`groups`, as the table holds them) one
/// table whose rows are the metrics of `shown` — (name, heading, decimals,
/// print scale) — and pairs: `n`, the mean difference a − b ± the
/// half-width of its 95 % CI, and the paired t and Wilcoxon p-values after
/// Holm's adjustment, `*` when below 0.05. Empty when the table has no
/// rows.
///
/// # Errors
/// A polars error: not a [`paired_table`] frame.
pub fn markdown(
    paired: &DataFrame,
    groups: &[&str],
    shown: &[(&str, String, usize, f64)],
) -> PolarsResult<String> {
    if paired.height() == 0 || shown.is_empty() {
        return Ok(String::new());
    }
    let group_values = groups
        .iter()
        .map(|g| str_column(paired, g))
        .collect::<PolarsResult<Vec<_>>>()?;
    let metric = str_column(paired, "metric")?;
    let (a, b) = (
        str_column(paired, "heuristic_a")?,
        str_column(paired, "heuristic_b")?,
    );
    let n: Vec<u64> = paired
        .column("n")?
        .u64()?
        .iter()
        .map(|x| x.unwrap_or(0))
        .collect();
    let num = |c: &str| -> PolarsResult<Vec<f64>> {
        Ok(f64_column(paired, c)?
            .into_iter()
            .map(|x| x.unwrap_or(f64::NAN))
            .collect())
    };
    let (diff, ci, tp, wp) = (
        num("mean_diff")?,
        num("diff_ci95")?,
        num("t_p_holm")?,
        num("wilcoxon_p_holm")?,
    );
    let mut md = String::from(
        "\n## Paired differences\n\nHeuristics compared on the scenarios both ran: mean of a − b ± half-width of its 95 % CI; two-sided p-values of the paired t-test and the Wilcoxon signed-rank test, each adjusted by Holm's method over the pairs of one metric; `*` marks p < 0.05 after adjustment. Every metric and the unadjusted p-values are in the `paired` table.\n",
    );
    let mut start = 0;
    while start < metric.len() {
        let same = |i: usize| group_values.iter().all(|v| v[i] == v[start]);
        let mut end = start;
        while end < metric.len() && same(end) {
            end += 1;
        }
        // "curie, variant default": a log by its key alone.
        let title: Vec<String> = groups
            .iter()
            .zip(&group_values)
            .map(|(g, v)| match *g {
                "log_key" => v[start].clone(),
                _ => format!("{g} {}", v[start]),
            })
            .collect();
        if !title.is_empty() {
            md.push_str(&format!("\n### {}\n", title.join(", ")));
        }
        md.push_str("\n| metric | a − b | n | mean difference | t-test p | Wilcoxon p |\n|---|---|---|---|---|---|\n");
        for (name, heading, digits, scale) in shown {
            for i in (start..end).filter(|&i| metric[i] == *name) {
                let d = diff[i] * scale;
                let c = ci[i] * scale;
                let diff_text = if d.is_nan() {
                    "–".to_string()
                } else if c.is_nan() {
                    format!("{d:.*}", digits)
                } else {
                    format!("{d:.*} ± {c:.*}", digits, digits)
                };
                md.push_str(&format!(
                    "| {heading} | {} − {} | {} | {diff_text} | {} | {} |\n",
                    a[i],
                    b[i],
                    n[i],
                    p_text(tp[i]),
                    p_text(wp[i]),
                ));
            }
        }
        start = end;
    }
    Ok(md)
}

/// The rows [`markdown`] shows for an environment: every column of
/// `columns` both printed and compared, with its heading, decimals and
/// print scale.
pub fn shown<S>(columns: &[SummaryColumn<S>]) -> Vec<(&str, String, usize, f64)> {
    columns
        .iter()
        .filter(|c| c.printed && c.agg == Agg::MeanCi && !c.wall_clock)
        .map(|c| (c.name.as_str(), c.heading(), c.digits, c.print_scale))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holm_worked_by_hand() {
        // Sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 →
        // kept at 0.06 (never below an earlier one).
        let adj = holm(&[0.01, 0.04, 0.03, 0.005]);
        let want = [0.03, 0.06, 0.06, 0.02];
        for (x, y) in adj.iter().zip(want) {
            assert!((x - y).abs() < 1e-15, "{adj:?}");
        }
        // NaN stays out of the family: m = 2.
        let adj = holm(&[0.2, f64::NAN, 0.6]);
        assert!((adj[0] - 0.4).abs() < 1e-15 && adj[1].is_nan() && adj[2] == 0.6);
        // Capped at 1.
        assert_eq!(holm(&[0.7, 0.9]), vec![1.0, 1.0]);
    }

    #[test]
    fn wilcoxon_exact_distribution_worked_by_hand() {
        // n = 3: subsets of {1,2,3} by sum: 0:1, 1:1, 2:1, 3:2, 4:1, 5:1,
        // 6:1 (of 8). d = (1, 2, 3) → R+ = 6: p = 2 · P(R+ ≥ 6) = 2/8.
        let (w, p, m) = wilcoxon(&[1.0, 2.0, 3.0]).unwrap();
        assert_eq!((w, p, m), (0.0, 0.25, WilcoxonMethod::Exact));
        // d = (−1, 2, 3) → R+ = 5, R− = 1: p = 2 · P(R+ ≥ 5) = 2 · 2/8.
        let (w, p, _) = wilcoxon(&[-1.0, 2.0, 3.0]).unwrap();
        assert_eq!((w, p), (1.0, 0.5));
    }

    #[test]
    fn ranks_average_ties_by_magnitude() {
        let (r, sizes) = average_ranks(&[-2.0, 1.0, 2.0, 5.0]);
        assert_eq!(r, vec![2.5, 1.0, 2.5, 4.0]);
        assert_eq!(sizes, vec![1, 2, 1]);
    }

    #[test]
    fn the_table_pairs_runs_by_scenario_not_by_row_order() {
        let runs = df!(
            "variant" => ["v", "v", "v", "v", "v", "v"],
            "scenario" => ["d1", "d2", "d3", "d3", "d1", "d2"],
            "heuristic" => ["x", "x", "x", "y", "y", "y"],
            "score" => [10.0, 20.0, 30.0, 29.0, 8.0, 17.0],
        )
        .unwrap();
        let t = paired_table(&runs, &["variant"], &["scenario"], &["score"]).unwrap();
        assert_eq!(t.height(), 1);
        // x − y per scenario: d1 2, d2 3, d3 1 → mean 2.
        assert_eq!(f64_column(&t, "mean_diff").unwrap(), vec![Some(2.0)]);
        assert_eq!(str_column(&t, "heuristic_a").unwrap(), vec!["x"]);
        let twice = df!(
            "variant" => ["v", "v"],
            "scenario" => ["d1", "d1"],
            "heuristic" => ["x", "x"],
            "score" => [1.0, 2.0],
        )
        .unwrap();
        let e = paired_table(&twice, &["variant"], &["scenario"], &["score"]).unwrap_err();
        assert!(e.to_string().contains("two runs of heuristic x"), "{e}");
    }
}
