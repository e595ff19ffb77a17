//! Estimated time to compute (ETC) by the coefficient-of-variation (COV)
//! method of Ali, Siegel, Maheswaran, Hensgen and Ali, "Representing task and
//! machine heterogeneities for heterogeneous computing systems", Tamkang
//! Journal of Science and Engineering 3(3), 2000, §3.
//!
//! A gamma distribution is parametrised by its mean μ and coefficient of
//! variation V: shape α = 1/V², scale θ = μ·V², so that mean = αθ = μ and
//! standard deviation = √α·θ = μV.

use rand::Rng;
use rand_distr::{Distribution, Gamma};

/// Error for invalid COV-method parameters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid gamma parameters: mean {mean} and COV {cov} must both be positive and finite")]
pub struct CovError {
    /// The requested mean.
    pub mean: f64,
    /// The requested coefficient of variation.
    pub cov: f64,
}

/// Gamma distribution with the given `mean` (any unit) and coefficient of
/// variation `cov` (dimensionless, > 0).
///
/// # Errors
/// [`CovError`] when `mean` or `cov` is not positive and finite.
pub fn gamma_mean_cov(mean: f64, cov: f64) -> Result<Gamma<f64>, CovError> {
    let bad = || CovError { mean, cov };
    if !(mean.is_finite() && mean > 0.0 && cov.is_finite() && cov > 0.0) {
        return Err(bad());
    }
    let shape = 1.0 / (cov * cov);
    let scale = mean * cov * cov;
    Gamma::new(shape, scale).map_err(|_| bad())
}

/// One draw from the gamma with `mean` and `cov` (see [`gamma_mean_cov`]).
///
/// # Errors
/// [`CovError`] for invalid parameters.
pub fn draw<R: Rng + ?Sized>(rng: &mut R, mean: f64, cov: f64) -> Result<f64, CovError> {
    Ok(gamma_mean_cov(mean, cov)?.sample(rng))
}

/// ETC row of one task on `clusters` clusters (seconds per cluster): column 0
/// is the task's logged run time, every other column a COV-method draw around
/// it with coefficient of variation `cov` (docs/parallel.md; heterogeneity low 0.01,
/// intermediate 0.3, high 1.0). Draws are floored at 1 ms so that every ETC is
/// positive.
///
/// # Errors
/// [`CovError`] when `run_time` or `cov` is not positive.
pub fn etc_row<R: Rng + ?Sized>(
    rng: &mut R,
    run_time: f64,
    clusters: usize,
    cov: f64,
) -> Result<Vec<f64>, CovError> {
    let gamma = gamma_mean_cov(run_time, cov)?;
    let mut row = Vec::with_capacity(clusters);
    row.push(run_time);
    for _ in 1..clusters {
        row.push(gamma.sample(rng).max(1e-3));
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rng::stream;

    #[test]
    fn cov_method_matches_mean_and_cov() {
        let mut rng = stream(7, 0);
        let n = 200_000;
        let xs: Vec<f64> = (0..n)
            .map(|_| draw(&mut rng, 100.0, 0.3).unwrap())
            .collect();
        let mean = xs.iter().sum::<f64>() / n as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        let cov = var.sqrt() / mean;
        assert!((mean - 100.0).abs() < 0.5, "mean {mean}");
        assert!((cov - 0.3).abs() < 0.005, "cov {cov}");
    }

    #[test]
    fn etc_row_keeps_the_logged_run_time_in_column_zero() {
        let mut rng = stream(1, 1);
        let row = etc_row(&mut rng, 3600.0, 4, 0.3).unwrap();
        assert_eq!(row.len(), 4);
        assert_eq!(row[0], 3600.0);
        assert!(row.iter().all(|&x| x > 0.0));
    }

    #[test]
    fn invalid_parameters_are_an_error() {
        assert!(gamma_mean_cov(0.0, 0.3).is_err());
        assert!(gamma_mean_cov(10.0, 0.0).is_err());
        assert!(gamma_mean_cov(f64::NAN, 0.3).is_err());
    }
}
