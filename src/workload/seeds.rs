//! Seeds and trials, shared by every environment: the one default user
//! seed (`--seed`), the one derivation of a scenario's seed from the user
//! seed ([`scenario_seed`]: a day of a log in environments A and B, a
//! synthetic trial in B and C), and the list of synthetic trials that
//! `--trial` / `--trials` ask for (environments B and C).
//!
//! Every random draw of a scenario comes from streams of its scenario seed
//! ([`crate::model::rng::stream`]), so a scenario is the same whichever
//! other scenarios run, and in whichever order.

use crate::model::rng::derive_seed;

/// The user seed when `--seed` (or `seed` in an experiment configuration)
/// is not given: 1.
pub const DEFAULT_SEED: u64 = 1;

/// The most synthetic trials a run takes (`--trials`, and `trials` in an
/// experiment configuration): 10,000, about 200 times the papers' 48 to 64.
/// Every trial generates and replays a whole day of tens of thousands of
/// tasks (seconds each), so more would be days of work, and the list of
/// trials itself is built before any of them runs.
pub const MAX_TRIALS: u64 = 10_000;

/// Parses `--trials`: a whole number of trials from 1 to [`MAX_TRIALS`].
///
/// # Errors
/// Anything else, as a message for clap naming the flag and the range.
pub fn parse_trials(s: &str) -> Result<u64, String> {
    s.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (1..=MAX_TRIALS).contains(n))
        .ok_or_else(|| {
            format!("`{s}`: --trials takes a whole number of trials from 1 to {MAX_TRIALS}")
        })
}

/// The synthetic trials `--trials N` and `--trial K` ask for (environments
/// B and C): `--trials N` gives 0..N, `--trial K` gives K, neither gives 0.
pub fn trial_list(trials: Option<u64>, trial: Option<u64>) -> Vec<u64> {
    match (trials, trial) {
        (Some(n), _) => (0..n).collect(),
        (None, Some(k)) => vec![k],
        (None, None) => vec![0],
    }
}

/// A scenario of any environment, which says the seed its random draws
/// came from.
pub trait Seeded {
    /// The scenario seed every random draw of the scenario came from
    /// ([`scenario_seed`]); `None` for a scenario without random draws
    /// (environment D).
    fn scenario_seed(&self) -> Option<u64>;
}

/// What a scenario is drawn for: one day of a log or one synthetic trial.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScenarioKey {
    /// The day of a log that starts at this time (s on the log's clock;
    /// [`super::DayWindow::start`]): its seed depends on the day, not on
    /// which other days run.
    Day(f64),
    /// Synthetic trial number `k` (`--trial k`).
    Trial(u64),
}

/// The seed every draw of a scenario comes from, given the user seed:
/// [`derive_seed`]`(seed, label)`, the label being the day's start time's
/// bits (`f64::to_bits`) or the trial number. The one place a scenario
/// seed is derived: environments A and B see a day of a log alike, B and C
/// a trial number alike, and a grid records the seed its scenarios ran
/// with.
pub fn scenario_seed(seed: u64, key: ScenarioKey) -> u64 {
    let label = match key {
        ScenarioKey::Day(start) => start.to_bits(),
        ScenarioKey::Trial(k) => k,
    };
    derive_seed(seed, label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trials_are_bounded_and_the_refusal_names_the_flag_and_range() {
        assert_eq!(parse_trials("1"), Ok(1));
        assert_eq!(parse_trials("10000"), Ok(MAX_TRIALS));
        for bad in [
            "0",
            "10001",
            "1000000000",
            "18446744073709551615",
            "-1",
            "1e3",
            "",
        ] {
            let e = parse_trials(bad).unwrap_err();
            assert!(
                e.contains("--trials") && e.contains("1 to 10000"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn trial_lists() {
        assert_eq!(trial_list(Some(3), None), vec![0, 1, 2]);
        assert_eq!(trial_list(None, Some(7)), vec![7]);
        assert_eq!(trial_list(None, None), vec![0]);
    }

    #[test]
    fn scenario_seeds_are_the_derivations_results_were_recorded_with() {
        assert_eq!(scenario_seed(1, ScenarioKey::Trial(3)), derive_seed(1, 3));
        let start = 1_341_784_800.0_f64;
        assert_eq!(
            scenario_seed(5, ScenarioKey::Day(start)),
            derive_seed(5, start.to_bits())
        );
    }
}
