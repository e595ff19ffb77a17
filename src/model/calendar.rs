//! The one calendar of swftool: how a time on a log's clock (seconds since
//! the log's `UnixStartTime`) maps to a local date and time, and where the
//! local midnights fall. Used by `swftool info` (dates, jobs per day) and by
//! the day selection of environment A.
//!
//! The zone is the header's `TimeZoneString` looked up in the bundled IANA
//! time-zone database; UTC when the header has none or names an unknown
//! zone (a note says which). Without `UnixStartTime` there is no absolute
//! clock: times are taken as seconds since 1970-01-01 00:00 UTC, so days are
//! whole multiples of 86,400 s of the log's own clock.

use jiff::Timestamp;
use jiff::civil::Date;
use jiff::tz::TimeZone;

use crate::units::SECONDS_PER_DAY;

/// A log's clock: its origin and its time zone.
#[derive(Debug, Clone)]
pub struct LogClock {
    /// `UnixStartTime`, s since the Unix epoch, when the header gives it.
    pub origin: Option<i64>,
    /// The zone dates are read in.
    pub zone: TimeZone,
    /// Its name (`UTC` when the header's could not be used).
    pub zone_name: String,
    /// Why the zone is UTC, when the header gave none or an unknown one.
    pub note: Option<String>,
}

impl LogClock {
    /// The clock of a log whose header gives `origin` (`UnixStartTime`, s)
    /// and `zone` (`TimeZoneString`).
    pub fn new(origin: Option<i64>, zone: Option<&str>) -> LogClock {
        let utc = |note: String| LogClock {
            origin,
            zone: TimeZone::UTC,
            zone_name: "UTC".into(),
            note: Some(note),
        };
        let Some(name) = zone else {
            return utc("no TimeZoneString in the header; dates are in UTC".into());
        };
        match TimeZone::get(name) {
            Ok(zone) => LogClock {
                origin,
                zone,
                zone_name: name.to_string(),
                note: None,
            },
            Err(_) => utc(format!(
                "time zone {name:?} is not in the time-zone database; dates are in UTC"
            )),
        }
    }

    /// The instant of `t` s on the log's clock (whole seconds, rounded
    /// down); `None` without an origin or outside jiff's range.
    pub fn timestamp(&self, t: f64) -> Option<Timestamp> {
        if !t.is_finite() || t.abs() > 1e15 {
            return None;
        }
        let secs = self.origin?.checked_add(t.floor() as i64)?;
        Timestamp::from_second(secs).ok()
    }

    /// `t` as `YYYY-MM-DD HH:MM:SS ZONE`, local; `None` as for
    /// [`LogClock::timestamp`].
    pub fn format(&self, t: f64) -> Option<String> {
        let zoned = self.timestamp(t)?.to_zoned(self.zone.clone());
        jiff::fmt::strtime::format("%Y-%m-%d %H:%M:%S %Z", &zoned).ok()
    }

    /// The local day of `t` as a day number (days since 1970-01-01; with no
    /// origin, ⌊t / 86,400⌋); `None` for a time outside the calendar.
    pub fn day_number(&self, t: f64) -> Option<i64> {
        match self.origin {
            Some(_) => {
                let d = self.timestamp(t)?.to_zoned(self.zone.clone()).date();
                Some(i64::from(d.since(epoch()).ok()?.get_days()))
            }
            None if t.is_finite() && t.abs() < 1e15 => Some((t / SECONDS_PER_DAY).floor() as i64),
            None => None,
        }
    }

    /// [`LogClock::day_number`] for many times, each answered as it
    /// would be: the zone's UTC offset is looked up once for every stretch
    /// of time between two of its transitions, and the local day is then
    /// ⌊(s since the epoch + offset) / 86,400⌋. Pays when the times come
    /// mostly in order (a log's submit times).
    pub fn day_finder(&self) -> DayFinder<'_> {
        DayFinder {
            clock: self,
            from: i64::MAX,
            until: i64::MIN,
            offset: 0,
        }
    }

    /// The date of day number `d` (see [`LogClock::day_number`]), or
    /// `day N` when it is outside the calendar.
    pub fn date_of_day_number(d: i64) -> String {
        i32::try_from(d)
            .ok()
            .and_then(|d| epoch().checked_add(jiff::Span::new().days(d)).ok())
            .map(|d| d.to_string())
            .unwrap_or_else(|| format!("day {d} since 1970-01-01"))
    }

    /// The local midnight that starts day number `d` (see
    /// [`LogClock::day_number`]), s on the log's clock; `None` outside the
    /// calendar. Without an origin, `d · 86,400`. Days are 23 or 25 hours
    /// long across daylight-saving changes.
    pub fn midnight(&self, d: i64) -> Option<f64> {
        let Some(origin) = self.origin else {
            return Some(d as f64 * SECONDS_PER_DAY);
        };
        let date = epoch()
            .checked_add(jiff::Span::new().try_days(d).ok()?)
            .ok()?;
        let z = date.to_zoned(self.zone.clone()).ok()?;
        Some((z.timestamp().as_second() - origin) as f64)
    }

    /// The name of day number `d`: its local date `YYYY-MM-DD`, or, for a
    /// log without `UnixStartTime` (no calendar), `day-N` with N counted
    /// from the log's time 0 (day 0 is its first 86,400 s).
    pub fn day_label(&self, d: i64) -> String {
        match self.origin {
            Some(_) => LogClock::date_of_day_number(d),
            None => format!("day-{d}"),
        }
    }
}

/// [`LogClock::day_finder`]: the day numbers of a clock, with the UTC
/// offset of the last stretch between two transitions kept.
#[derive(Debug)]
pub struct DayFinder<'a> {
    clock: &'a LogClock,
    /// The offset holds for the seconds since the epoch in `from..until`.
    from: i64,
    until: i64,
    /// The zone's offset from UTC there, s.
    offset: i64,
}

impl DayFinder<'_> {
    /// The local day of `t` (s on the log's clock), as
    /// [`LogClock::day_number`] gives it.
    pub fn day(&mut self, t: f64) -> Option<i64> {
        let Some(ts) = self.clock.timestamp(t) else {
            return self.clock.day_number(t);
        };
        let secs = ts.as_second();
        if !(self.from..self.until).contains(&secs) {
            let zone = &self.clock.zone;
            let after = zone
                .following(ts)
                .map(|tr| tr.timestamp().as_second())
                .find(|&x| x > secs);
            self.from = secs;
            self.until = after.unwrap_or(i64::MAX);
            self.offset = i64::from(zone.to_offset(ts).seconds());
        }
        // Days since 1970-01-01 of the local date and time.
        Some((secs + self.offset).div_euclid(SECONDS_PER_DAY as i64))
    }
}

fn epoch() -> Date {
    jiff::civil::date(1970, 1, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_day_finder_gives_day_number_across_transitions() {
        // Zones with daylight saving (a half-hour one among them), a
        // half-hour offset, UTC, and no origin at all; times in order with
        // jumps back, over two years.
        for zone in [
            Some("Europe/Paris"),
            Some("America/Los_Angeles"),
            Some("Australia/Lord_Howe"),
            Some("Asia/Kolkata"),
            Some("UTC"),
            None,
        ] {
            for origin in [Some(1_293_836_400), None] {
                let c = LogClock::new(origin, zone);
                let mut finder = c.day_finder();
                let mut t = -3.0 * SECONDS_PER_DAY;
                let mut k = 0u64;
                while t < 730.0 * SECONDS_PER_DAY {
                    assert_eq!(finder.day(t), c.day_number(t), "{zone:?} {origin:?} t={t}");
                    k += 1;
                    // Mostly forward by 7 min 1.5 s, now and then 9 h back.
                    t += if k.is_multiple_of(97) {
                        -32_400.0
                    } else {
                        421.5
                    };
                }
                assert_eq!(finder.day(f64::NAN), None);
                assert_eq!(finder.day(1e16), c.day_number(1e16));
            }
        }
    }

    #[test]
    fn day_numbers_count_from_1970() {
        let c = LogClock::new(Some(0), Some("UTC"));
        assert_eq!(c.day_number(0.0), Some(0));
        assert_eq!(c.day_number(11_017.0 * SECONDS_PER_DAY + 5.0), Some(11_017));
        assert_eq!(c.day_number(-1.0), Some(-1));
        assert_eq!(LogClock::date_of_day_number(11_017), "2000-03-01");
    }

    /// Europe/Paris switched to summer time on 2012-03-25: that day is 23 h.
    #[test]
    fn midnights_follow_the_zone_across_daylight_saving() {
        // 2012-03-24 00:00 CET = 2012-03-23 23:00 UTC = 1332543600.
        let c = LogClock::new(Some(1_332_543_600), Some("Europe/Paris"));
        let d = c.day_number(0.0).unwrap();
        assert_eq!(c.day_label(d), "2012-03-24");
        assert_eq!(c.midnight(d), Some(0.0));
        assert_eq!(c.midnight(d + 1), Some(SECONDS_PER_DAY));
        assert_eq!(c.day_label(d + 2), "2012-03-26");
        assert_eq!(c.midnight(d + 2), Some(2.0 * SECONDS_PER_DAY - 3_600.0));
    }

    #[test]
    fn an_unknown_zone_falls_back_to_utc_with_a_note() {
        let c = LogClock::new(Some(0), Some("Mars/Olympus"));
        assert_eq!(c.zone_name, "UTC");
        assert!(c.note.as_deref().unwrap().contains("Mars/Olympus"));
        assert_eq!(c.format(0.0).as_deref(), Some("1970-01-01 00:00:00 UTC"));
    }

    #[test]
    fn without_an_origin_days_are_multiples_of_a_day_of_the_log_clock() {
        let c = LogClock::new(None, Some("Europe/Paris"));
        assert_eq!(c.day_number(SECONDS_PER_DAY * 3.5), Some(3));
        assert_eq!(c.timestamp(5.0), None);
        assert_eq!(c.midnight(3), Some(3.0 * SECONDS_PER_DAY));
        assert_eq!(c.day_label(3), "day-3");
    }
}
