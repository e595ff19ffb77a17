//! The variants of environment B's grids: the four workload axes of
//! Machovec et al. (§V, Figs. 3–6) — utility shape, mean burst size,
//! preemption-flag probability and the critical tasks' mean ETC — each
//! expanded to the paper's levels with the other three at their defaults.

use serde::{Deserialize, Serialize};

use crate::env::serial::params::SerialArgs;
use crate::model::utility::Shape;

/// One axis of environment B's grids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SerialAxis {
    /// Utility shape: step, decaying, classes (Fig. 3).
    Shape,
    /// Mean burst size: 1, 16, 32, 64, 128 (Fig. 4).
    BurstSize,
    /// Preemption-flag probability: 0, 20, …, 100 % (Fig. 5).
    FlagProbability,
    /// Critical tasks' mean ETC: 10, 30, 50 min (Figs. 6 and 7).
    CriticalEtc,
}

impl SerialAxis {
    /// Every axis, in the order of the paper's figures.
    pub const ALL: [SerialAxis; 4] = [
        SerialAxis::Shape,
        SerialAxis::BurstSize,
        SerialAxis::FlagProbability,
        SerialAxis::CriticalEtc,
    ];

    /// The name in configs and tables.
    pub fn name(self) -> &'static str {
        match self {
            SerialAxis::Shape => "shape",
            SerialAxis::BurstSize => "burst_size",
            SerialAxis::FlagProbability => "flag_probability",
            SerialAxis::CriticalEtc => "critical_etc",
        }
    }

    /// A title for figures, with its unit.
    pub fn title(self) -> &'static str {
        match self {
            SerialAxis::Shape => "utility functions",
            SerialAxis::BurstSize => "mean burst size (tasks)",
            SerialAxis::FlagProbability => "tasks that may preempt / be preempted (%)",
            SerialAxis::CriticalEtc => "mean ETC of critical tasks (min)",
        }
    }

    /// The axis's variants, from `base` with this axis set to each of the
    /// paper's levels.
    pub fn variants(self, base: SerialVariant) -> Vec<SerialVariant> {
        match self {
            SerialAxis::Shape => Shape::ALL
                .iter()
                .map(|&shape| SerialVariant { shape, ..base })
                .collect(),
            SerialAxis::BurstSize => [1, 16, 32, 64, 128]
                .iter()
                .map(|&burst_size| SerialVariant { burst_size, ..base })
                .collect(),
            SerialAxis::FlagProbability => [0, 20, 40, 60, 80, 100]
                .iter()
                .map(|&flag_percent| SerialVariant {
                    flag_percent,
                    ..base
                })
                .collect(),
            SerialAxis::CriticalEtc => [10, 30, 50]
                .iter()
                .map(|&critical_etc_min| SerialVariant {
                    critical_etc_min,
                    ..base
                })
                .collect(),
        }
    }

    /// The level of `v` on this axis, as a label.
    pub fn level(self, v: &SerialVariant) -> String {
        match self {
            SerialAxis::Shape => v.shape.name().to_string(),
            SerialAxis::BurstSize => v.burst_size.to_string(),
            SerialAxis::FlagProbability => v.flag_percent.to_string(),
            SerialAxis::CriticalEtc => v.critical_etc_min.to_string(),
        }
    }

    /// The levels of this axis among `variants` (those equal to `base` but
    /// on this axis), in the axis's natural order (the paper's).
    pub fn levels(self, variants: &[SerialVariant], base: &SerialVariant) -> Vec<SerialVariant> {
        let mut out: Vec<SerialVariant> = variants
            .iter()
            .filter(|v| self.holds_others(v, base))
            .copied()
            .collect();
        out.sort_by_key(|v| match self {
            SerialAxis::Shape => v.shape as u32,
            SerialAxis::BurstSize => v.burst_size,
            SerialAxis::FlagProbability => v.flag_percent,
            SerialAxis::CriticalEtc => v.critical_etc_min,
        });
        out
    }

    /// Whether `v` differs from `base` on this axis at most.
    pub fn holds_others(self, v: &SerialVariant, base: &SerialVariant) -> bool {
        let mut x = *v;
        match self {
            SerialAxis::Shape => x.shape = base.shape,
            SerialAxis::BurstSize => x.burst_size = base.burst_size,
            SerialAxis::FlagProbability => x.flag_percent = base.flag_percent,
            SerialAxis::CriticalEtc => x.critical_etc_min = base.critical_etc_min,
        }
        x == *base
    }
}

/// One workload variant of environment B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SerialVariant {
    /// Utility shape.
    pub shape: Shape,
    /// Mean burst size B̄ (tasks).
    pub burst_size: u32,
    /// Preemption-flag probability, % (whole percent).
    pub flag_percent: u32,
    /// Critical tasks' mean ETC, minutes (whole minutes).
    pub critical_etc_min: u32,
}

impl Default for SerialVariant {
    fn default() -> Self {
        SerialVariant {
            shape: Shape::Classes,
            burst_size: 64,
            flag_percent: 100,
            critical_etc_min: 10,
        }
    }
}

impl SerialVariant {
    /// The columns of its four levels in the grid's tables, in the order
    /// of the fields.
    pub const COLUMNS: [&'static str; 4] =
        ["shape", "burst_size", "flag_percent", "critical_etc_min"];

    /// A file-name-safe identifier naming all four levels, e.g.
    /// `classes.b64.p100.c10`.
    pub fn id(&self) -> String {
        format!(
            "{}.b{}.p{}.c{}",
            self.shape.name(),
            self.burst_size,
            self.flag_percent,
            self.critical_etc_min
        )
    }

    /// A short human label: `default`, or the settings that differ from the
    /// defaults.
    pub fn label(&self) -> String {
        let d = SerialVariant::default();
        let (burst, flags, etc) = (self.burst_size, self.flag_percent, self.critical_etc_min);
        let changed = [
            (self.shape != d.shape).then(|| format!("shape={}", self.shape.name())),
            (burst != d.burst_size).then(|| format!("burst={burst}")),
            (flags != d.flag_percent).then(|| format!("flags={flags}%")),
            (etc != d.critical_etc_min).then(|| format!("critical ETC={etc} min")),
        ];
        crate::experiment::grid::variant_label(changed, ", ")
    }

    /// The variant `[serial]` flags describe (their generation flags as the
    /// base; the defaults otherwise).
    pub fn of_args(a: &SerialArgs) -> SerialVariant {
        let d = SerialVariant::default();
        SerialVariant {
            shape: a.shape.unwrap_or(d.shape),
            burst_size: a.burst_size.unwrap_or(d.burst_size),
            flag_percent: a
                .flag_probability
                .map_or(d.flag_percent, |p| (p * 100.0).round() as u32),
            critical_etc_min: a
                .critical_etc
                .map_or(d.critical_etc_min, |m| m.round() as u32),
        }
    }

    /// `args` with this variant's levels set.
    pub fn apply(&self, args: &SerialArgs) -> SerialArgs {
        SerialArgs {
            shape: Some(self.shape),
            burst_size: Some(self.burst_size),
            flag_probability: Some(f64::from(self.flag_percent) / 100.0),
            critical_etc: Some(f64::from(self.critical_etc_min)),
            ..args.clone()
        }
    }
}

/// The distinct variants of `axes` around `base`, in axis order, first
/// occurrence kept; `base` alone when there is no axis.
pub fn variant_list(axes: &[SerialAxis], base: SerialVariant) -> Vec<SerialVariant> {
    let mut out: Vec<SerialVariant> = Vec::new();
    for v in axes.iter().flat_map(|a| a.variants(base)) {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        out.push(base);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_axes_give_the_papers_fourteen_variants() {
        let v = variant_list(&SerialAxis::ALL, SerialVariant::default());
        assert_eq!(v.len(), 14);
        assert_eq!(v[2], SerialVariant::default());
    }

    #[test]
    fn an_axis_lists_its_levels_in_the_papers_order() {
        let v = variant_list(&SerialAxis::ALL, SerialVariant::default());
        let b: Vec<u32> = SerialAxis::BurstSize
            .levels(&v, &SerialVariant::default())
            .iter()
            .map(|x| x.burst_size)
            .collect();
        assert_eq!(b, [1, 16, 32, 64, 128]);
        let p: Vec<u32> = SerialAxis::FlagProbability
            .levels(&v, &SerialVariant::default())
            .iter()
            .map(|x| x.flag_percent)
            .collect();
        assert_eq!(p, [0, 20, 40, 60, 80, 100]);
    }
}
