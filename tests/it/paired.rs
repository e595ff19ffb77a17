//! The paired comparison (`metrics::paired`) against SciPy: every case of
//! `tests/fixtures/paired_scipy.json` (written once by
//! `tests/fixtures/paired_scipy.py` with SciPy's `ttest_rel`, `wilcoxon`
//! and `t.ppf`) gives the same mean difference, CI, statistics and
//! p-values, to 1e-9 relative.

use swftool::metrics::paired::{WilcoxonMethod, compare, wilcoxon};

use crate::common::{f64s, parquet, texts};

fn fixture() -> serde_json::Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/paired_scipy.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A fixture number: null is NaN, "inf"/"-inf" infinite.
fn num(v: &serde_json::Value) -> f64 {
    match v {
        serde_json::Value::Null => f64::NAN,
        serde_json::Value::String(s) if s == "inf" => f64::INFINITY,
        serde_json::Value::String(s) if s == "-inf" => f64::NEG_INFINITY,
        v => v.as_f64().unwrap(),
    }
}

fn close(name: &str, what: &str, got: f64, want: f64) {
    let ok = if want.is_nan() {
        got.is_nan()
    } else if want.is_infinite() {
        got == want
    } else {
        (got - want).abs() <= 1e-9 * want.abs().max(1e-12)
    };
    assert!(ok, "{name}: {what} = {got}, SciPy {want}");
}

#[test]
fn every_scipy_case_agrees() {
    let f = fixture();
    let cases = f["cases"].as_array().unwrap();
    assert!(cases.len() >= 20);
    let mut methods = Vec::new();
    for c in cases {
        let name = c["name"].as_str().unwrap();
        let vals = |k: &str| -> Vec<Option<f64>> {
            c[k].as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64())
                .collect()
        };
        let p = compare(&vals("a"), &vals("b"));
        assert_eq!(p.n as usize, c["a"].as_array().unwrap().len(), "{name}");
        close(name, "mean_diff", p.mean_diff, num(&c["mean_diff"]));
        close(name, "ci95", p.diff_ci95, num(&c["ci95"]));
        close(name, "t", p.t_statistic, num(&c["t_statistic"]));
        close(name, "t p", p.t_p, num(&c["t_p"]));
        close(
            name,
            "W",
            p.wilcoxon_statistic,
            num(&c["wilcoxon_statistic"]),
        );
        close(name, "W p", p.wilcoxon_p, num(&c["wilcoxon_p"]));
        methods.push(p.wilcoxon_method.unwrap());
    }
    // The fixture reaches each of SciPy's three ways.
    for m in [
        WilcoxonMethod::Exact,
        WilcoxonMethod::Permutation,
        WilcoxonMethod::Asymptotic,
    ] {
        assert!(methods.contains(&m), "{m:?}");
    }
}

#[test]
fn a_missing_value_drops_its_pair_only() {
    let a = [Some(1.0), None, Some(3.0), Some(f64::NAN), Some(6.0)];
    let b = [Some(0.0), Some(9.0), Some(1.0), Some(1.0), None];
    let p = compare(&a, &b);
    assert_eq!(p.n, 2);
    assert_eq!((p.mean_a, p.mean_b, p.mean_diff), (2.0, 0.5, 1.5));
    assert!(wilcoxon(&[]).is_none());
}

/// The distinct values of `v`, in first-appearance order.
fn distinct(v: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for x in v {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// Environment B's smoke grid: the `paired` table holds every pair of
/// heuristics for every variant and compared metric; each row is the
/// comparison recomputed from the `runs` table by scenario, its means are
/// the `aggregate` table's, Holm never lowers a p-value, and aggregate.md
/// has the section.
#[test]
fn a_grid_pairs_every_heuristic_on_every_metric_from_its_runs() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::ok(
        dir.path(),
        &[
            "experiment",
            "--preset",
            "smoke-serial",
            "--out",
            "g",
            "-q",
            "--no-figures",
        ],
    );
    let g = dir.path().join("g");
    let (runs, agg, paired) = (
        parquet(&g, "runs"),
        parquet(&g, "aggregate"),
        parquet(&g, "paired"),
    );
    let metrics = distinct(texts(&paired, "metric"));
    assert!(metrics.contains(&"pct_of_max".to_string()), "{metrics:?}");
    let heuristics = distinct(texts(&runs, "heuristic"));
    let variants = distinct(texts(&runs, "variant"));
    let k = heuristics.len();
    assert!(k >= 2);
    assert_eq!(
        paired.height(),
        variants.len() * metrics.len() * k * (k - 1) / 2
    );
    let (rv, rh, rs) = (
        texts(&runs, "variant"),
        texts(&runs, "heuristic"),
        texts(&runs, "scenario"),
    );
    let (pv, pm) = (texts(&paired, "variant"), texts(&paired, "metric"));
    let (pa, pb) = (texts(&paired, "heuristic_a"), texts(&paired, "heuristic_b"));
    let (av, ah) = (texts(&agg, "variant"), texts(&agg, "heuristic"));
    let sig = paired
        .column("significant")
        .unwrap()
        .bool()
        .unwrap()
        .clone();
    for i in 0..paired.height() {
        let m = &pm[i];
        let values = f64s(&runs, m);
        let series = |h: &str| -> Vec<Option<f64>> {
            let mut scen: Vec<&String> = Vec::new();
            for j in 0..runs.height() {
                if rv[j] == pv[i] && !scen.contains(&&rs[j]) {
                    scen.push(&rs[j]);
                }
            }
            scen.iter()
                .map(|s| {
                    (0..runs.height())
                        .find(|&j| rv[j] == pv[i] && rh[j] == h && &&rs[j] == s)
                        .map(|j| values[j])
                })
                .collect()
        };
        let want = compare(&series(&pa[i]), &series(&pb[i]));
        let got = |c: &str| f64s(&paired, c)[i];
        let same = |a: f64, b: f64| (a.is_nan() && b.is_nan()) || a == b;
        assert!(same(got("mean_diff"), want.mean_diff), "row {i}");
        assert!(same(got("t_p"), want.t_p), "row {i}");
        assert!(same(got("wilcoxon_p"), want.wilcoxon_p), "row {i}");
        // The aggregate's mean of heuristic a on this variant.
        let row = (0..agg.height())
            .find(|&j| av[j] == pv[i] && ah[j] == pa[i])
            .unwrap();
        let agg_mean = f64s(&agg, &format!("{m}_mean"))[row];
        if !agg_mean.is_nan() && got("n") == f64s(&agg, "n")[row] {
            assert!(
                (got("mean_a") - agg_mean).abs() <= 1e-9 * agg_mean.abs().max(1.0),
                "row {i}"
            );
        }
        for (p, h) in [("t_p", "t_p_holm"), ("wilcoxon_p", "wilcoxon_p_holm")] {
            assert!(got(p).is_nan() || got(h) >= got(p), "row {i}: {h}");
        }
        assert_eq!(
            sig.get(i).unwrap(),
            got("t_p_holm") < 0.05 && got("wilcoxon_p_holm") < 0.05,
            "row {i}"
        );
    }
    let md = std::fs::read_to_string(g.join("aggregate.md")).unwrap();
    assert!(md.contains("## Paired differences"), "{md}");
}
