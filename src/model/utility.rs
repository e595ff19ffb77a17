//! Utility functions of environments B and C: a priority, an urgency and a
//! class (the shape), after Khemka, Friese, Briceño, Siegel et al.,
//! "Utility functions and resource management in an oversubscribed
//! heterogeneous computing environment", IEEE Trans. Computers 64(8), 2015,
//! §3, as used by Machovec et al. (IPDPSW 2017, §II.C and §IV.C) and by
//! Khemka et al.'s energy-constrained study (docs/utility.md).
//!
//! A function is a list of one to four intervals after the task's arrival.
//! Interval k has a length d_k, a start level α_k and an urgency modifier
//! m_k; with t the time since arrival and t_k the start of interval k,
//!
//! ```text
//! U(t) = P · β_k · exp(−ρ · m_k · (t − t_k) / θ)   for t_k ≤ t < t_k + d_k
//! U(t) = 0                                          for t > S = Σ d_k
//! ```
//!
//! with β₁ = 1 and β_k = min(α_k, the level at the end of interval k − 1),
//! so U never increases; a completion exactly at S earns the left limit.
//! The twenty classes ([`class`]) are swftool's construction after the TC
//! 2015 model: that paper's own table of classes is not public.

use serde::{Deserialize, Serialize};

/// θ of a flat step, which does not decay (s); also what `--theta 10`
/// gives every task (the fixed form of swftool's releases before the
/// calibration).
pub const DEFAULT_THETA_S: f64 = 600.0;

/// The urgency time constant θ per unit of a task's mean ETC ē, by
/// default: θ = 3.7 ē. Calibrated on the one numeric utility function of
/// the papers, Machovec et al. (IPDPSW 2017) Fig. 1: a critical task
/// (priority 8, extreme urgency ρ = 1) of the plain-exponential class with
/// span 6 ē, at ē = 10 min, "decays to zero over approximately 60
/// minutes" and earns 5.18 at 15 min and 2.84 at 40 min; θ = 37 min is the
/// least-squares fit of those two values (8·e^(−15/37) = 5.34,
/// 8·e^(−40/37) = 2.73). A decay that scales with ē keeps a class's shape
/// the same for short and long tasks, as the class spans already do
/// (docs/utility.md).
pub const THETA_PER_MEAN_ETC: f64 = 3.7;

/// θ (s) of a task of mean ETC `mean_etc` (s): `fixed` (s, `--theta`) if
/// given, else [`THETA_PER_MEAN_ETC`] × `mean_etc`.
pub fn theta_for(mean_etc: f64, fixed: Option<f64>) -> f64 {
    fixed.unwrap_or(THETA_PER_MEAN_ETC * mean_etc)
}

/// How θ is set, for the lines a run prints: "θ = 3.7 ē" or "θ 10 min".
pub fn theta_label(fixed: Option<f64>) -> String {
    match fixed {
        Some(s) => format!("θ {} min (fixed)", s / 60.0),
        None => format!("θ = {THETA_PER_MEAN_ETC} ē"),
    }
}

/// The number of utility classes ([`class`]).
pub const CLASS_COUNT: u8 = 20;

/// The most intervals a utility function has.
pub const MAX_INTERVALS: usize = 4;

/// How fast a utility function decays: the urgency ρ, a rate per θ.
/// The levels are swftool's (the papers give only 0.3 for the decaying
/// class of Machovec et al., §IV.C).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Urgency {
    /// ρ = 1.0 per θ.
    Extreme,
    /// ρ = 0.6 per θ.
    High,
    /// ρ = 0.3 per θ.
    Medium,
    /// ρ = 0.1 per θ.
    Low,
}

impl Urgency {
    /// Every level, most urgent first.
    pub const ALL: [Urgency; 4] = [
        Urgency::Extreme,
        Urgency::High,
        Urgency::Medium,
        Urgency::Low,
    ];

    /// The rate ρ (per θ).
    pub fn rate(self) -> f64 {
        match self {
            Urgency::Extreme => 1.0,
            Urgency::High => 0.6,
            Urgency::Medium => 0.3,
            Urgency::Low => 0.1,
        }
    }

    /// The name used in tables and flags.
    pub fn name(self) -> &'static str {
        match self {
            Urgency::Extreme => "extreme",
            Urgency::High => "high",
            Urgency::Medium => "medium",
            Urgency::Low => "low",
        }
    }
}

impl std::str::FromStr for Urgency {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Urgency::ALL
            .into_iter()
            .find(|u| u.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown urgency `{s}`; valid: extreme, high, medium, low"))
    }
}

/// The family a utility function is drawn from (Machovec et al., §IV.C).
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum Shape {
    /// Full priority up to a width (ē critical, 10·ē otherwise), then zero.
    Step,
    /// Flat for the task's mean ETC ē, then 200 minutes of decay at ρ = 0.3.
    Decaying,
    /// One of the twenty utility classes, drawn per burst (docs/utility.md).
    #[default]
    Classes,
}

impl Shape {
    /// Every shape, in the order of the paper's Fig. 3.
    pub const ALL: [Shape; 3] = [Shape::Step, Shape::Decaying, Shape::Classes];

    /// The name used in tables and flags.
    pub fn name(self) -> &'static str {
        match self {
            Shape::Step => "step",
            Shape::Decaying => "decaying",
            Shape::Classes => "classes",
        }
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Shape {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Shape::ALL
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown utility shape `{s}`; valid: step, decaying, classes"))
    }
}

/// One interval of a utility function, as a class table gives it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// Length d_k (s, > 0).
    pub length: f64,
    /// Start level α_k in (0, 1]; `None` continues at the previous
    /// interval's end level ("cont"). The first interval starts at 1.
    pub alpha: Option<f64>,
    /// Urgency modifier m_k ≥ 0 (0: flat).
    pub modifier: f64,
}

/// A utility function that cannot be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UtilityError {
    /// Not one to four intervals.
    #[error("a utility function has 1 to 4 intervals, not {0}")]
    Intervals(usize),
    /// A parameter out of its range.
    #[error("utility function: {what} is {value}; {range}")]
    Parameter {
        /// Which parameter.
        what: &'static str,
        /// Its value.
        value: f64,
        /// The range it must lie in.
        range: &'static str,
    },
    /// A class id outside 1..=20.
    #[error("utility class {0} does not exist; classes are 1 to 20")]
    Class(u8),
}

/// One interval with its start, level and rate worked out.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Piece {
    /// Start, s after arrival.
    start: f64,
    /// Utility at the start (value units): P · β_k.
    level: f64,
    /// Decay rate ρ · m_k / θ (per s).
    rate: f64,
}

/// A utility function: the utility earned (value units) by completing a
/// task `t` seconds after its arrival. Non-increasing in `t`, zero after
/// its span. Cheap to copy; [`UtilityFunction::value`] costs at most one
/// `exp`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UtilityFunction {
    priority: f64,
    span: f64,
    len: u8,
    pieces: [Piece; MAX_INTERVALS],
    /// Utility at the end of the span (the left limit at S).
    end_level: f64,
}

fn check(
    what: &'static str,
    value: f64,
    ok: bool,
    range: &'static str,
) -> Result<(), UtilityError> {
    if ok && value.is_finite() {
        Ok(())
    } else {
        Err(UtilityError::Parameter { what, value, range })
    }
}

impl UtilityFunction {
    /// A utility function of priority `priority` (value units, the utility
    /// of an immediate completion), urgency `rho` (a rate per `theta`
    /// seconds) and the given intervals.
    ///
    /// # Errors
    /// [`UtilityError`] for 0 or more than 4 intervals, a non-positive
    /// priority, length or θ, a negative urgency or modifier, or a start
    /// level outside (0, 1].
    pub fn new(
        priority: f64,
        rho: f64,
        theta: f64,
        intervals: &[Interval],
    ) -> Result<UtilityFunction, UtilityError> {
        if intervals.is_empty() || intervals.len() > MAX_INTERVALS {
            return Err(UtilityError::Intervals(intervals.len()));
        }
        check("the priority", priority, priority > 0.0, "it must be > 0")?;
        check("the urgency", rho, rho >= 0.0, "it must be ≥ 0")?;
        check("θ", theta, theta > 0.0, "it must be > 0 s")?;
        let mut pieces = [Piece::default(); MAX_INTERVALS];
        let mut start = 0.0;
        let mut previous_end = 1.0_f64;
        for (k, iv) in intervals.iter().enumerate() {
            check(
                "an interval's length",
                iv.length,
                iv.length > 0.0,
                "it must be > 0 s",
            )?;
            check(
                "an urgency modifier",
                iv.modifier,
                iv.modifier >= 0.0,
                "it must be ≥ 0",
            )?;
            let alpha = match (k, iv.alpha) {
                (0, _) | (_, None) => previous_end,
                (_, Some(a)) => {
                    check(
                        "a start level",
                        a,
                        a > 0.0 && a <= 1.0,
                        "it must be in (0, 1]",
                    )?;
                    a
                }
            };
            let beta = alpha.min(previous_end);
            let rate = rho * iv.modifier / theta;
            pieces[k] = Piece {
                start,
                level: priority * beta,
                rate,
            };
            previous_end = beta * (-rate * iv.length).exp();
            start += iv.length;
        }
        Ok(UtilityFunction {
            priority,
            span: start,
            len: intervals.len() as u8,
            pieces,
            end_level: priority * previous_end,
        })
    }

    /// Utility (value units) of a completion `t` seconds after arrival.
    pub fn value(&self, t: f64) -> f64 {
        if t > self.span {
            return 0.0;
        }
        if t >= self.span {
            return self.end_level;
        }
        let pieces = &self.pieces[..self.len as usize];
        let mut k = 0;
        while k + 1 < pieces.len() && t >= pieces[k + 1].start {
            k += 1;
        }
        let p = pieces[k];
        if p.rate == 0.0 {
            p.level
        } else {
            p.level * (-p.rate * (t - p.start).max(0.0)).exp()
        }
    }

    /// Whether [`value`](Self::value)`(t) > 0`, without its exponential
    /// where the answer is certain: a positive level (at least 1e-30) times
    /// e^x with x > −600 is above zero (its least, about 1e-291, is far
    /// from underflowing). Otherwise the value itself is computed.
    pub fn is_positive(&self, t: f64) -> bool {
        if t >= self.span {
            return self.value(t) > 0.0;
        }
        let pieces = &self.pieces[..self.len as usize];
        let mut k = 0;
        while k + 1 < pieces.len() && t >= pieces[k + 1].start {
            k += 1;
        }
        let p = pieces[k];
        let x = -p.rate * (t - p.start).max(0.0);
        if p.rate != 0.0 && p.level >= 1e-30 && x > -600.0 {
            return true;
        }
        self.value(t) > 0.0
    }

    /// The latest completion, s after arrival, whose utility is still at
    /// least `v` (value units), worked out from the pieces (a logarithm
    /// per piece at most): exact in real arithmetic, so within the
    /// rounding of [`value`](Self::value) of the true one, on either side
    /// of it. A caller that needs a completion whose evaluated utility is
    /// at least `v` asks for a little more than `v` and evaluates the
    /// answer. −∞ when even an immediate completion earns less than `v`.
    pub fn last_at_least(&self, v: f64) -> f64 {
        let pieces = &self.pieces[..self.len as usize];
        for (k, p) in pieces.iter().enumerate() {
            let end = pieces.get(k + 1).map_or(self.span, |q| q.start);
            if p.level < v {
                // The function falls below `v` where this piece starts.
                return if k == 0 {
                    f64::NEG_INFINITY
                } else {
                    p.start.next_down()
                };
            }
            if p.rate > 0.0 {
                let t = p.start + (p.level / v).ln() / p.rate;
                if t < end {
                    return t;
                }
            }
        }
        // At least `v` up to the span, zero after it.
        if v > 0.0 { self.span } else { f64::INFINITY }
    }

    /// The priority P: the utility of an immediate completion and the most
    /// the function gives (value units).
    pub fn priority(&self) -> f64 {
        self.priority
    }

    /// The span S (s after arrival): the last completion time that still
    /// earns a positive utility. Used by the dropping rule.
    pub fn last_positive(&self) -> f64 {
        self.span
    }

    /// The interval boundaries t_k and the span S (s after arrival), in
    /// order: where the function may jump.
    pub fn boundaries(&self) -> Vec<f64> {
        let mut b: Vec<f64> = self.pieces[..self.len as usize]
            .iter()
            .map(|p| p.start)
            .collect();
        b.push(self.span);
        b
    }
}

/// A flat step: `priority` up to `width` seconds after arrival, zero after
/// (Machovec et al., §IV.C).
///
/// # Errors
/// [`UtilityError`] for a non-positive priority or width.
pub fn step(priority: f64, width: f64) -> Result<UtilityFunction, UtilityError> {
    UtilityFunction::new(
        priority,
        0.0,
        DEFAULT_THETA_S,
        &[Interval {
            length: width,
            alpha: Some(1.0),
            modifier: 0.0,
        }],
    )
}

/// The decaying class of Machovec et al. (§IV.C, Fig. 2): flat for the
/// task's mean ETC `mean_etc` (s), then one interval of 200 minutes of
/// decay at ρ = 0.3 per `theta`.
///
/// # Errors
/// [`UtilityError`] for a non-positive priority, mean ETC or θ.
pub fn decaying(priority: f64, mean_etc: f64, theta: f64) -> Result<UtilityFunction, UtilityError> {
    UtilityFunction::new(
        priority,
        Urgency::Medium.rate(),
        theta,
        &[
            Interval {
                length: mean_etc,
                alpha: Some(1.0),
                modifier: 0.0,
            },
            Interval {
                length: 200.0 * 60.0,
                alpha: None,
                modifier: 1.0,
            },
        ],
    )
}

/// The templates of the twenty classes: (fraction of S, α, m) per
/// interval; α `None` is "cont". swftool's construction after Khemka et
/// al. (TC 2015, Fig. 1).
const TEMPLATES: [&[(f64, Option<f64>, f64)]; 5] = [
    // T1 exp: plain exponential, cut at S.
    &[(1.0, Some(1.0), 1.0)],
    // T2 grace-exp: flat, then decay.
    &[(0.25, Some(1.0), 0.0), (0.75, Some(1.0), 1.0)],
    // T3 fast-slow: steep start, long tail.
    &[(0.3, Some(1.0), 2.0), (0.7, None, 0.5)],
    // T4 stairs: four levels, mild decay.
    &[
        (0.25, Some(1.0), 0.25),
        (0.25, Some(0.75), 0.25),
        (0.25, Some(0.5), 0.25),
        (0.25, Some(0.25), 0.25),
    ],
    // T5 cliff: decay, drop to 30 %, decay.
    &[(0.5, Some(1.0), 0.5), (0.5, Some(0.3), 1.0)],
];

/// The names of the five templates, for tables and docs.
pub const TEMPLATE_NAMES: [&str; 5] = ["exp", "grace-exp", "fast-slow", "stairs", "cliff"];

/// The span multipliers of the classes: S ∈ {3, 6, 12, 24} × ē.
pub const SPAN_FACTORS: [f64; 4] = [3.0, 6.0, 12.0, 24.0];

/// Utility class `id` (1..=20) for a task of priority `priority`, urgency
/// `urgency` and mean ETC `mean_etc` (s): template ⌈id/4⌉ (exp, grace-exp,
/// fast-slow, stairs, cliff) with span S = {3, 6, 12, 24}·ē by (id − 1)
/// mod 4. swftool's construction after Khemka et al. (TC 2015): its own
/// table of classes is not public (docs/utility.md).
///
/// # Errors
/// [`UtilityError::Class`] for an id outside 1..=20; [`UtilityError`] for
/// a non-positive priority, mean ETC or θ.
pub fn class(
    id: u8,
    priority: f64,
    urgency: Urgency,
    mean_etc: f64,
    theta: f64,
) -> Result<UtilityFunction, UtilityError> {
    if id == 0 || id > CLASS_COUNT {
        return Err(UtilityError::Class(id));
    }
    let template = TEMPLATES[usize::from((id - 1) / 4)];
    let span = SPAN_FACTORS[usize::from((id - 1) % 4)] * mean_etc;
    let mut intervals = [Interval {
        length: 0.0,
        alpha: None,
        modifier: 0.0,
    }; MAX_INTERVALS];
    for (k, &(fraction, alpha, modifier)) in template.iter().enumerate() {
        intervals[k] = Interval {
            length: fraction * span,
            alpha,
            modifier,
        };
    }
    UtilityFunction::new(
        priority,
        urgency.rate(),
        theta,
        &intervals[..template.len()],
    )
}

/// What a utility function was drawn as: enough to build it again
/// (`swftool synth` writes it beside the SWF log).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct UtilitySpec {
    /// The family.
    pub shape: Shape,
    /// The class id (1..=20) for [`Shape::Classes`], 0 otherwise.
    pub class: u8,
    /// Priority P (value units).
    pub priority: f64,
    /// Urgency level (the decaying class always decays at
    /// [`Urgency::Medium`], ρ = 0.3; a step does not decay).
    pub urgency: Urgency,
    /// The step's width, or ē for the other shapes (s).
    pub scale: f64,
    /// θ (s).
    pub theta: f64,
}

impl UtilitySpec {
    /// The function this spec describes.
    ///
    /// # Errors
    /// [`UtilityError`] for a parameter out of range.
    pub fn build(&self) -> Result<UtilityFunction, UtilityError> {
        match self.shape {
            Shape::Step => step(self.priority, self.scale),
            Shape::Decaying => decaying(self.priority, self.scale, self.theta),
            Shape::Classes => class(
                self.class,
                self.priority,
                self.urgency,
                self.scale,
                self.theta,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_classes(priority: f64) -> Vec<UtilityFunction> {
        let mut out = Vec::new();
        for id in 1..=CLASS_COUNT {
            for u in Urgency::ALL {
                out.push(class(id, priority, u, 600.0, DEFAULT_THETA_S).unwrap());
            }
        }
        out
    }

    /// `last_at_least(v)` is where the function crosses `v`: just before
    /// it the utility is at least `v`, just after it below (both within a
    /// relative 1e-9), and asking for a margin more gives a completion
    /// whose evaluated utility is at least `v` (what the dropping rule's
    /// certificates rely on), for every class, urgency and level.
    #[test]
    fn last_at_least_is_where_the_function_crosses_the_level() {
        let mut crossings = 0;
        for priority in [1.0, 8.0] {
            for f in all_classes(priority) {
                for k in 1..=200 {
                    let v = priority * f64::from(k) / 200.0 * 1.01;
                    let t = f.last_at_least(v);
                    if t == f64::NEG_INFINITY {
                        assert!(f.value(0.0) < v, "{f:?} at {v}");
                        continue;
                    }
                    let d = 1e-6 * (1.0 + t.abs());
                    if t > d {
                        assert!(f.value(t - d) >= v * (1.0 - 1e-9), "{f:?} {v}: {t}");
                    }
                    assert!(f.value(t + d) <= v * (1.0 + 1e-9), "{f:?} {v}: {t}");
                    let sure = f.last_at_least(v * (1.0 + 1e-9));
                    if sure > f64::NEG_INFINITY {
                        assert!(f.value(sure) >= v, "{f:?} {v}: {sure}");
                    }
                    crossings += usize::from(t < f.last_positive());
                }
            }
        }
        // Most levels are crossed inside the span, not at its end.
        assert!(crossings > 10_000, "{crossings}");
    }

    #[test]
    fn every_class_starts_at_its_priority_never_increases_and_ends_at_its_span() {
        for f in all_classes(8.0) {
            assert_eq!(f.value(0.0), 8.0);
            let s = f.last_positive();
            let n = 20_000;
            let mut last = f64::INFINITY;
            for i in 0..=n {
                let v = f.value(s * i as f64 / n as f64);
                assert!(v <= last, "{f:?} increases at step {i}");
                assert!(v > 0.0);
                last = v;
            }
            for b in f.boundaries() {
                let before = f.value(b - 1e-9 * s);
                let at = f.value(b);
                assert!(at <= before, "{f:?} jumps up at {b}");
            }
            assert_eq!(f.value(s), last);
            assert_eq!(f.value(s + 1e-9), 0.0);
            assert_eq!(f.value(s * 2.0), 0.0);
        }
    }

    #[test]
    fn is_positive_is_value_above_zero() {
        // Ordinary classes, tiny priorities, and decay so fast that the
        // exponential underflows within the span.
        for (priority, theta) in [
            (8.0, DEFAULT_THETA_S),
            (1e-40, DEFAULT_THETA_S),
            (1.0, 1e-3),
        ] {
            for id in 1..=CLASS_COUNT {
                for u in Urgency::ALL {
                    let Ok(f) = class(id, priority, u, 600.0, theta) else {
                        continue;
                    };
                    let s = f.last_positive();
                    let n = 5_000;
                    let times = (0..=n).map(|i| s * 1.1 * i as f64 / n as f64).chain([
                        -1.0,
                        s,
                        s + 1e-9,
                        f64::NAN,
                        f64::INFINITY,
                    ]);
                    for t in times {
                        assert_eq!(f.is_positive(t), f.value(t) > 0.0, "{f:?} at {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn values_scale_exactly_with_the_priority() {
        for (a, b) in all_classes(1.0).iter().zip(all_classes(8.0)) {
            for i in 0..=100 {
                let t = a.last_positive() * i as f64 / 100.0;
                assert_eq!(b.value(t), 8.0 * a.value(t));
            }
        }
    }

    #[test]
    fn spans_and_templates_follow_the_class_id() {
        let f = class(1, 1.0, Urgency::High, 100.0, 600.0).unwrap();
        assert_eq!(f.last_positive(), 300.0);
        let f = class(8, 1.0, Urgency::High, 100.0, 600.0).unwrap();
        assert_eq!(f.last_positive(), 2400.0);
        assert_eq!(f.boundaries(), vec![0.0, 600.0, 2400.0]);
        assert_eq!(
            class(0, 1.0, Urgency::Low, 1.0, 1.0),
            Err(UtilityError::Class(0))
        );
        assert_eq!(
            class(21, 1.0, Urgency::Low, 1.0, 1.0),
            Err(UtilityError::Class(21))
        );
    }

    #[test]
    fn the_stairs_drop_to_their_levels() {
        // T4 (class 13), S = 3·400 = 1200 s, four intervals of 300 s,
        // ρ = 0.6 per 600 s, m = 0.25: decay rate 0.00025 /s.
        let f = class(13, 4.0, Urgency::High, 400.0, 600.0).unwrap();
        let r: f64 = 0.6 * 0.25 / 600.0;
        assert_eq!(f.value(150.0), 4.0 * (-r * 150.0).exp());
        let end1 = (-r * 300.0_f64).exp();
        assert_eq!(f.value(300.0), 4.0 * 0.75_f64.min(end1));
        assert_eq!(f.value(900.0), 4.0 * 0.25);
        assert_eq!(f.value(1200.0), 4.0 * 0.25 * (-r * 300.0).exp());
    }

    /// The calibration of θ = 3.7 ē on Machovec et al. Fig. 1 (priority 8,
    /// to zero in about 60 min, 5.18 at 15 min, 2.84 at 40 min): class 2
    /// (plain exponential, span 6 ē) at extreme urgency and ē = 10 min.
    #[test]
    fn the_scaled_theta_meets_machovec_fig_1_at_its_calibration_points() {
        let e_bar = 600.0;
        let theta = theta_for(e_bar, None);
        assert_eq!(theta, 2220.0);
        let u = class(2, 8.0, Urgency::Extreme, e_bar, theta).unwrap();
        let at = |min: f64| u.value(min * 60.0);
        // 8·e^(−15/37) and 8·e^(−40/37), by hand.
        assert!((at(15.0) - 5.333_7).abs() < 1e-3, "{}", at(15.0));
        assert!((at(40.0) - 2.713_8).abs() < 1e-3, "{}", at(40.0));
        // Within 5 % of the figure's two values; nothing after 60 min.
        assert!((at(15.0) / 5.18 - 1.0).abs() < 0.05);
        assert!((at(40.0) / 2.84 - 1.0).abs() < 0.05);
        assert_eq!(u.last_positive(), 3600.0);
        assert_eq!(at(60.01), 0.0);
        // A fixed θ (`--theta`) is taken as given: 10 min.
        assert_eq!(theta_for(e_bar, Some(600.0)), 600.0);
    }

    /// With θ ∝ ē a class's value at a given fraction of ē is the same for
    /// short and long tasks (the Fig. 6 setting: ē 10 vs 50 min).
    #[test]
    fn a_scaled_class_has_the_same_shape_for_every_mean_etc() {
        for id in 1..=CLASS_COUNT {
            for urgency in Urgency::ALL {
                let f =
                    |e_bar: f64| class(id, 8.0, urgency, e_bar, theta_for(e_bar, None)).unwrap();
                let (short, long) = (f(600.0), f(3000.0));
                for k in 0..=100 {
                    let x = f64::from(k) * 0.3;
                    let (a, b) = (short.value(x * 600.0), long.value(x * 3000.0));
                    assert!(
                        (a - b).abs() < 1e-9,
                        "class {id} {urgency:?} at {x} ē: {a} vs {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn decaying_by_hand() {
        // ē = 50 min: flat 3000 s, then 12000 s at 0.3 per 600 s.
        let f = decaying(1.0, 3000.0, 600.0).unwrap();
        assert_eq!(f.value(3000.0), 1.0);
        assert!((f.value(3600.0) - (-0.3_f64).exp()).abs() < 1e-15);
        assert!((f.value(15_000.0) - (-6.0_f64).exp()).abs() < 1e-15);
        assert_eq!(f.value(15_000.5), 0.0);
        assert_eq!(f.last_positive(), 15_000.0);
    }

    #[test]
    fn step_by_hand() {
        let f = step(8.0, 600.0).unwrap();
        assert_eq!(f.value(0.0), 8.0);
        assert_eq!(f.value(600.0), 8.0);
        assert_eq!(f.value(600.001), 0.0);
    }

    #[test]
    fn a_continued_level_never_rises_above_the_end_of_the_previous_interval() {
        // T5 cliff, S = 24 · 600 s: the first half decays to e^-6, below
        // 0.3, so the second half starts at that level, not at 0.3.
        let f = class(20, 1.0, Urgency::Extreme, 600.0, 600.0).unwrap();
        let half = f.last_positive() / 2.0;
        assert!(f.value(half) <= f.value(half - 1.0));
        assert!(f.value(half) < 0.3);
    }

    #[test]
    fn bad_parameters_are_errors() {
        assert!(step(0.0, 10.0).is_err());
        assert!(step(1.0, -1.0).is_err());
        assert!(decaying(1.0, 10.0, 0.0).is_err());
        assert_eq!(
            UtilityFunction::new(1.0, 0.1, 600.0, &[]),
            Err(UtilityError::Intervals(0))
        );
    }
}
