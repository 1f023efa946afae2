//! Calendar dates in UTC, as the bank writes them (`YYYY-MM-DD`): the key of the puzzle
//! of the day and the bound of `prune`. Days are counted from 1970-01-01 with the
//! proleptic Gregorian calendar (Howard Hinnant's civil-date algorithms).

use std::fmt;
use std::str::FromStr;

/// A calendar date (UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    year: i32,
    month: u8,
    day: u8,
}

impl Date {
    /// Today in UTC.
    pub fn today() -> Date {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Date::from_days((secs / 86_400) as i64)
    }

    /// The date `days` after 1970-01-01.
    fn from_days(days: i64) -> Date {
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u8;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
        let year = (yoe + era * 400 + i64::from(month <= 2)) as i32;
        Date { year, month, day }
    }

    /// Days from 1970-01-01 to this date.
    fn to_days(self) -> i64 {
        let (y, m, d) = (
            i64::from(self.year) - i64::from(self.month <= 2),
            i64::from(self.month),
            i64::from(self.day),
        );
        let era = y.div_euclid(400);
        let yoe = y.rem_euclid(400);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// Seconds from 1970-01-01T00:00Z to this date's midnight (UTC).
    pub fn epoch_seconds(self) -> i64 {
        self.to_days() * 86_400
    }

    fn days_in_month(year: i32, month: u8) -> u8 {
        match month {
            2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            _ => 31,
        }
    }
}

impl FromStr for Date {
    type Err = String;

    /// `YYYY-MM-DD`, a real date of the years 1000–9999.
    fn from_str(text: &str) -> Result<Date, String> {
        let bad = || format!("'{text}' is not a date: write it as YYYY-MM-DD, e.g. 2026-12-01");
        let b = text.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return Err(bad());
        }
        let number = |r: std::ops::Range<usize>| -> Result<u32, String> {
            let part = &text[r];
            if part.bytes().all(|c| c.is_ascii_digit()) {
                part.parse().map_err(|_| bad())
            } else {
                Err(bad())
            }
        };
        let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
        if year < 1000 || !(1..=12).contains(&month) {
            return Err(bad());
        }
        let (year, month) = (year as i32, month as u8);
        if day == 0 || day > u32::from(Date::days_in_month(year, month)) {
            return Err(format!(
                "'{text}': {year}-{month:02} has no day {day}: give a real date"
            ));
        }
        Ok(Date {
            year,
            month,
            day: day as u8,
        })
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

/// The current UTC time as RFC 3339 with microseconds, e.g. `2026-12-01T00:12:03.123456Z`.
pub fn now_rfc3339() -> String {
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = since.as_secs();
    let day = Date::from_days((secs / 86_400) as i64);
    let s = secs % 86_400;
    format!(
        "{day}T{:02}:{:02}:{:02}.{:06}Z",
        s / 3600,
        s % 3600 / 60,
        s % 60,
        since.subsec_micros()
    )
}

/// Seconds since 1970-01-01T00:00Z of an RFC 3339 UTC time as the banks write it
/// (`2026-12-01T00:12:03.123456Z`, SQLite's and PostgreSQL's forms alike); `None` when the
/// text is not one.
pub fn epoch_seconds(text: &str) -> Option<f64> {
    let date: Date = text.get(..10)?.parse().ok()?;
    let time = text.get(11..)?.trim_end_matches('Z');
    let time = time.split('+').next()?;
    let mut parts = time.splitn(3, ':');
    let h: f64 = parts.next()?.parse().ok()?;
    let m: f64 = parts.next()?.parse().ok()?;
    let s: f64 = parts.next()?.parse().ok()?;
    Some(date.epoch_seconds() as f64 + h * 3600.0 + m * 60.0 + s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_read_back() {
        assert_eq!(epoch_seconds("1970-01-02T00:00:01Z"), Some(86_401.0));
        let t = epoch_seconds("2026-12-01T06:30:32.669Z").unwrap();
        assert!((t - 1_796_106_632.669).abs() < 1e-6, "{t}");
        for days in [0, 11_016, 20_788, -1000] {
            assert_eq!(Date::from_days(days).to_days(), days);
        }
        assert_eq!(epoch_seconds("yesterday"), None);
    }

    #[test]
    fn days_map_to_dates() {
        assert_eq!(Date::from_days(0).to_string(), "1970-01-01");
        assert_eq!(Date::from_days(11_016).to_string(), "2000-02-29");
        assert_eq!(Date::from_days(20_788).to_string(), "2026-12-01");
    }

    #[test]
    fn parses_real_dates_only() {
        assert_eq!(
            "2024-02-29".parse::<Date>().unwrap().to_string(),
            "2024-02-29"
        );
        for bad in [
            "2023-02-29",
            "2026-13-01",
            "2026-1-01",
            "26-12-01",
            "2026-12-00",
            "2026/12/01",
            "+026-12-01",
            "2026-04-31",
        ] {
            assert!(bad.parse::<Date>().is_err(), "{bad}");
        }
    }
}
