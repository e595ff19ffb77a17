//! Environment A's variants: the three axes of Khemka et al. 2015, §5
//! (oversubscription, value/time correlation, ETC heterogeneity), each at
//! three levels, and a variant as one level of each (docs/parallel.md).

use serde::{Deserialize, Serialize};

use crate::workload::{Correlation, Heterogeneity, Oversubscription, ScenarioParams};

/// One axis of the environment A variants (docs/parallel.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Axis {
    /// System size: lower, intermediate, higher.
    Oversubscription,
    /// Value/time correlation: exact, weak, none.
    Correlation,
    /// ETC heterogeneity: low, intermediate, high.
    Heterogeneity,
}

impl Axis {
    /// Every axis, in the order of the paper's figures.
    pub const ALL: [Axis; 3] = [
        Axis::Oversubscription,
        Axis::Correlation,
        Axis::Heterogeneity,
    ];

    /// The axis name as written in configs and tables.
    pub fn name(self) -> &'static str {
        match self {
            Axis::Oversubscription => "oversubscription",
            Axis::Correlation => "correlation",
            Axis::Heterogeneity => "heterogeneity",
        }
    }

    /// Its three variants, from the default variant with this axis set to
    /// each level in turn (in the paper's order).
    pub fn variants(self) -> [Variant; 3] {
        let d = Variant::default();
        match self {
            Axis::Oversubscription => [
                Oversubscription::Lower,
                Oversubscription::Intermediate,
                Oversubscription::Higher,
            ]
            .map(|o| Variant {
                oversubscription: o,
                ..d
            }),
            Axis::Correlation => {
                [Correlation::Exact, Correlation::Weak, Correlation::None].map(|c| Variant {
                    correlation: c,
                    ..d
                })
            }
            Axis::Heterogeneity => [
                Heterogeneity::Low,
                Heterogeneity::Intermediate,
                Heterogeneity::High,
            ]
            .map(|h| Variant {
                heterogeneity: h,
                ..d
            }),
        }
    }

    /// The level of `v` on this axis, as a lowercase word.
    pub fn level(self, v: &Variant) -> String {
        match self {
            Axis::Oversubscription => v.oversubscription.to_string(),
            Axis::Correlation => v.correlation.to_string(),
            Axis::Heterogeneity => v.heterogeneity.to_string(),
        }
    }

    /// The level of `v` on this axis as a figure shows it, with its
    /// physical meaning: `lower (25 % of cores)`, `low (ETC COV 0.01)`;
    /// correlation levels as they are.
    pub fn level_label(self, v: &Variant) -> String {
        match self {
            Axis::Oversubscription => format!(
                "{} ({:.0} % of cores)",
                v.oversubscription,
                100.0 * v.oversubscription.fraction()
            ),
            Axis::Correlation => v.correlation.to_string(),
            Axis::Heterogeneity => {
                format!("{} (ETC COV {})", v.heterogeneity, v.heterogeneity.cov())
            }
        }
    }

    /// Whether `v` differs from the default variant on this axis only (or
    /// not at all).
    pub fn holds_others_at_default(self, v: &Variant) -> bool {
        let d = Variant::default();
        Axis::ALL
            .iter()
            .filter(|&&a| a != self)
            .all(|a| a.level(v) == a.level(&d))
    }
}

impl std::fmt::Display for Axis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One environment variant: the three scenario-generation levels of
/// docs/parallel.md. Missing keys take the paper's defaults (intermediate, weak,
/// intermediate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Variant {
    /// System size level.
    pub oversubscription: Oversubscription,
    /// Value/time correlation.
    pub correlation: Correlation,
    /// ETC heterogeneity.
    pub heterogeneity: Heterogeneity,
}

impl Default for Variant {
    fn default() -> Self {
        let p = ScenarioParams::default();
        Variant {
            oversubscription: p.oversubscription,
            correlation: p.correlation,
            heterogeneity: p.heterogeneity,
        }
    }
}

impl Variant {
    /// Whether this is the default variant (intermediate, weak, intermediate).
    pub fn is_default(&self) -> bool {
        *self == Variant::default()
    }

    /// A short human label: `default`, or the non-default settings, e.g.
    /// `oversubscription=higher` or `correlation=none,heterogeneity=high`.
    pub fn label(&self) -> String {
        crate::env::parallel::params::variant_label(&self.params(None))
    }

    /// A file-name-safe identifier naming all three levels, e.g.
    /// `os-intermediate.corr-weak.het-intermediate`.
    pub fn id(&self) -> String {
        format!(
            "os-{}.corr-{}.het-{}",
            self.oversubscription, self.correlation, self.heterogeneity
        )
    }

    /// Scenario parameters of this variant with system base `cores_base`.
    pub fn params(&self, cores_base: Option<f64>) -> ScenarioParams {
        ScenarioParams {
            oversubscription: self.oversubscription,
            correlation: self.correlation,
            heterogeneity: self.heterogeneity,
            cores_base,
        }
    }
}
