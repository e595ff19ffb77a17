//! Units every layer shares: the one number of seconds in a day.

/// Seconds in a day, s: 24 h of 3,600 s. The day of a log (its standard
/// days, its calendar), environment B's and C's counted window, every rate
/// "per day" and every span said in days are this long.
pub const SECONDS_PER_DAY: f64 = 86_400.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_is_24_hours() {
        assert_eq!(SECONDS_PER_DAY, 24.0 * 3600.0);
    }
}
