//! Value (utility) functions: how much a task is worth as a function of its
//! completion time (docs/parallel.md).
//!
//! Every shape is monotonically non-increasing in completion time and zero
//! after its last positive instant, which the dropping rule of environment A
//! needs ([`ValueFunction::last_positive_time`]).

/// A task's value as a function of its completion time.
///
/// All times are absolute seconds on the scenario clock (the log's clock);
/// values are in value units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueFunction {
    /// The `linear` shape of Khemka et al. 2015 ("soft and hard deadlines",
    /// §III): `start_value` up to and including the soft deadline, then a
    /// linear decay to `final_value` at the hard deadline, and zero after it.
    Linear {
        /// Value earned when the task completes by the soft deadline (value units).
        start_value: f64,
        /// Value earned when the task completes exactly at the hard deadline (value units).
        final_value: f64,
        /// Soft deadline (s, absolute).
        soft_deadline: f64,
        /// Hard deadline (s, absolute); completing after it earns nothing.
        hard_deadline: f64,
    },
    /// `step`: the full value up to a deadline, zero after (docs/parallel.md).
    Step {
        /// Value earned when the task completes by `deadline` (value units).
        value: f64,
        /// Last completion time (s, absolute) that still earns `value`.
        deadline: f64,
    },
}

impl ValueFunction {
    /// Value (value units) earned by completing at `completion` (s, absolute).
    pub fn value_at(&self, completion: f64) -> f64 {
        match *self {
            ValueFunction::Linear {
                start_value,
                final_value,
                soft_deadline,
                hard_deadline,
            } => {
                if completion <= soft_deadline {
                    start_value
                } else if completion > hard_deadline {
                    0.0
                } else {
                    let span = hard_deadline - soft_deadline;
                    if span <= 0.0 {
                        final_value
                    } else {
                        let frac = (completion - soft_deadline) / span;
                        start_value + (final_value - start_value) * frac
                    }
                }
            }
            ValueFunction::Step { value, deadline } => {
                if completion <= deadline {
                    value
                } else {
                    0.0
                }
            }
        }
    }

    /// The value earned by an immediate completion: the largest value the
    /// function can give (value units). Its sum over the counted tasks is the
    /// maximum value bound.
    pub fn start_value(&self) -> f64 {
        match *self {
            ValueFunction::Linear { start_value, .. } => start_value,
            ValueFunction::Step { value, .. } => value,
        }
    }

    /// The last completion time (s, absolute) at which the value is still
    /// positive; completing later earns nothing. Used by the dropping rule.
    pub fn last_positive_time(&self) -> f64 {
        match *self {
            ValueFunction::Linear { hard_deadline, .. } => hard_deadline,
            ValueFunction::Step { deadline, .. } => deadline,
        }
    }

    /// Whether completing at `completion` (s) earns a positive value.
    pub fn earns_at(&self, completion: f64) -> bool {
        self.value_at(completion) > 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linear() -> ValueFunction {
        ValueFunction::Linear {
            start_value: 10.0,
            final_value: 2.0,
            soft_deadline: 100.0,
            hard_deadline: 200.0,
        }
    }

    #[test]
    fn linear_is_flat_until_the_soft_deadline() {
        assert_eq!(linear().value_at(0.0), 10.0);
        assert_eq!(linear().value_at(100.0), 10.0);
    }

    #[test]
    fn linear_decays_to_the_final_value_at_the_hard_deadline() {
        assert_eq!(linear().value_at(150.0), 6.0);
        assert_eq!(linear().value_at(200.0), 2.0);
        assert_eq!(linear().value_at(200.5), 0.0);
        assert_eq!(linear().last_positive_time(), 200.0);
    }

    #[test]
    fn linear_never_increases() {
        let f = linear();
        let mut last = f64::INFINITY;
        for i in 0..400 {
            let v = f.value_at(i as f64);
            assert!(v <= last);
            last = v;
        }
    }

    #[test]
    fn step_is_full_then_zero() {
        let f = ValueFunction::Step {
            value: 3.0,
            deadline: 50.0,
        };
        assert_eq!(f.value_at(50.0), 3.0);
        assert_eq!(f.value_at(50.1), 0.0);
    }
}
