//! The adaptive energy filter (Khemka et al., §III.C, Eqs. 1–3): at every
//! mapping event, a fair share e_bud of the energy left; a (task, machine,
//! P-state) choice whose EEC exceeds it is removed from the heuristic's
//! consideration.
//!
//! With E the day's budget (J), e_cons + e_unmov the energy consumed in the
//! counted day so far plus the energy the running and pending tasks will
//! still consume in it (J), τ_rem the compute time left in the day summed
//! over the machines (s), τ̄ and ē the mean ETC (s) and EEC (J) over every
//! valid (task type, machine type, P-state), and T the day's compute time
//! (machines × 24 h, s):
//!
//! - e_rem = E − (e_cons + e_unmov);
//! - n = min(τ_rem / τ̄, e_rem / ē)  (Eq. 1);
//! - λ = (E / T) / ((e_cons + e_unmov) / (T − τ_rem))  (Eq. 3), or 1 while
//!   nothing is consumed or committed yet, or the given λ of a fixed filter;
//! - e_bud = λ · e_rem / n  (Eq. 2); nothing passes when e_rem ≤ 0 or
//!   n ≤ 0.

use super::Filter;

/// What the filter reads from the system at a mapping event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FilterInputs {
    /// The day's budget E, J.
    pub budget: f64,
    /// e_cons + e_unmov: energy consumed in the counted day plus the energy
    /// the unmovable (running and pending) tasks will consume in it, J.
    pub committed: f64,
    /// τ_rem: Σ over machines of (end of the day − the machine's
    /// availability time, counted from the start of the day), s.
    pub time_left: f64,
    /// τ̄, the mean ETC over the valid entries, s.
    pub mean_etc: f64,
    /// ē, the mean EEC over the valid entries, J.
    pub mean_eec: f64,
    /// T, machines × 24 h, s.
    pub total_time: f64,
}

/// The filter's figures at one mapping event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FairShare {
    /// e_rem, J.
    pub energy_left: f64,
    /// n, tasks.
    pub n: f64,
    /// λ.
    pub lambda: f64,
    /// e_bud, J: a choice passes when its EEC ≤ e_bud (−∞ when nothing
    /// passes).
    pub e_bud: f64,
}

/// The fair share of `filter` for `inputs` (`None` for [`Filter::None`]).
pub fn fair_share(filter: Filter, inputs: &FilterInputs) -> Option<FairShare> {
    let lambda = match filter {
        Filter::None => return None,
        Filter::Fixed(l) => l,
        Filter::Adaptive => {
            let used_time = inputs.total_time - inputs.time_left;
            if inputs.committed > 0.0 && used_time > 0.0 {
                (inputs.budget / inputs.total_time) / (inputs.committed / used_time)
            } else {
                1.0
            }
        }
    };
    let energy_left = inputs.budget - inputs.committed;
    let n = (inputs.time_left / inputs.mean_etc).min(energy_left / inputs.mean_eec);
    let e_bud = if energy_left <= 0.0 || n <= 0.0 {
        f64::NEG_INFINITY
    } else {
        lambda * energy_left / n
    };
    Some(FairShare {
        energy_left,
        n,
        lambda,
        e_bud,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(committed: f64, time_left: f64) -> FilterInputs {
        FilterInputs {
            budget: 1000.0,
            committed,
            time_left,
            mean_etc: 10.0,
            mean_eec: 20.0,
            total_time: 200.0,
        }
    }

    #[test]
    fn adaptive_lambda_follows_the_rate_of_consumption() {
        // Nothing committed: λ = 1; n = min(200/10, 1000/20) = 20; e_bud = 50.
        let f = fair_share(Filter::Adaptive, &inputs(0.0, 200.0)).unwrap();
        assert_eq!((f.lambda, f.n, f.e_bud), (1.0, 20.0, 50.0));
        // 400 J over 40 s of the 200: rate 10 J/s against a target of 5:
        // λ = 0.5; e_rem = 600; n = min(16, 30) = 16; e_bud = 0.5·600/16.
        let f = fair_share(Filter::Adaptive, &inputs(400.0, 160.0)).unwrap();
        assert_eq!((f.energy_left, f.n, f.lambda), (600.0, 16.0, 0.5));
        assert_eq!(f.e_bud, 18.75);
        // A fixed λ ignores the rate.
        let f = fair_share(Filter::Fixed(2.0), &inputs(400.0, 160.0)).unwrap();
        assert_eq!(f.e_bud, 75.0);
        assert!(fair_share(Filter::None, &inputs(0.0, 200.0)).is_none());
    }

    #[test]
    fn nothing_passes_once_the_budget_or_the_day_is_spent() {
        let f = fair_share(Filter::Adaptive, &inputs(1000.0, 100.0)).unwrap();
        assert_eq!(f.e_bud, f64::NEG_INFINITY);
        let f = fair_share(Filter::Adaptive, &inputs(10.0, 0.0)).unwrap();
        assert_eq!(f.e_bud, f64::NEG_INFINITY);
    }
}
