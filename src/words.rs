//! Numbers in sentences: "1 node", "2 nodes"; "355 cores", "12–15 cores";
//! a time span in the unit that suits it ("40 min", "3.5 h", "12.0 days").

use crate::units::SECONDS_PER_DAY;

/// `n` and the word, singular for 1: `count(1, "day", "days")` = "1 day".
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A range `lo–hi`, or the one value when they are equal.
pub fn range<T: PartialEq + std::fmt::Display>(lo: T, hi: T) -> String {
    if lo == hi {
        lo.to_string()
    } else {
        format!("{lo}–{hi}")
    }
}

/// A duration given in seconds, in minutes below 2 hours, in hours below 2
/// days, in days above; hours and days to one decimal, none when whole.
pub fn span(seconds: f64) -> String {
    let tenths = |v: f64| {
        let s = format!("{v:.1}");
        s.strip_suffix(".0").map_or(s.clone(), str::to_string)
    };
    if seconds < 7200.0 {
        format!("{:.0} min", seconds / 60.0)
    } else if seconds < 2.0 * SECONDS_PER_DAY {
        format!("{} h", tenths(seconds / 3600.0))
    } else {
        format!("{} days", tenths(seconds / SECONDS_PER_DAY))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_a_range_of_one_value_is_that_value() {
        assert_eq!(count(1u32, "node", "nodes"), "1 node");
        assert_eq!(count(2u32, "node", "nodes"), "2 nodes");
        assert_eq!(count(0u32, "day", "days"), "0 days");
        assert_eq!(range(355, 355), "355");
        assert_eq!(range(12, 15), "12–15");
        assert_eq!(span(3600.0), "60 min");
        assert_eq!(span(5.0 * 3600.0), "5 h");
        assert_eq!(span(86_400.0), "24 h");
        assert_eq!(span(9000.0), "2.5 h");
        assert_eq!(span(3.0 * 86_400.0), "3 days");
        assert_eq!(span(3.5 * 86_400.0), "3.5 days");
    }
}
