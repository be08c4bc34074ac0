//! RFC 3339 timestamps (`2026-11-01T00:00:00Z`), as `metav1.Time` reads them.
//!
//! Only what the machine set's `Oldest` and `Newest` delete policies need: the instant,
//! as a [`Duration`] since the Unix epoch, so that `now - creationTimestamp` is Go's
//! `Time.Sub`. Hand-written: the date crates need std or read other grammars.

use crate::duration::{Duration, SECOND};

/// The instant a timestamp names, since 1970-01-01T00:00:00Z; `None` when the text is
/// not RFC 3339 (`time.RFC3339` layout: fractional seconds optional, `Z` or `±hh:mm`).
#[must_use]
pub fn parse(text: &str) -> Option<Duration> {
    let bytes = text.as_bytes();
    let number = |from: usize, to: usize| -> Option<i64> {
        let digits = bytes.get(from..to)?;
        digits.iter().try_fold(0i64, |value, digit| {
            digit
                .is_ascii_digit()
                .then(|| value * 10 + i64::from(digit - b'0'))
        })
    };
    let separators = [(4, b'-'), (7, b'-'), (13, b':'), (16, b':')];
    let date_time_ok = separators
        .iter()
        .all(|&(at, byte)| bytes.get(at) == Some(&byte))
        && matches!(bytes.get(10), Some(b'T' | b't'));
    if !date_time_ok {
        return None;
    }
    let (year, month, day) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let days_in_month = *month_days.get(usize::try_from(month).ok()?.checked_sub(1)?)?;
    if day < 1 || day > days_in_month || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    // Fractional seconds, then the zone.
    let mut at = 19;
    let mut nanos = 0i64;
    if bytes.get(at) == Some(&b'.') {
        let start = at + 1;
        at = start;
        while bytes.get(at).is_some_and(u8::is_ascii_digit) {
            at += 1;
        }
        if at == start {
            return None;
        }
        let kept = at.min(start + 9);
        nanos = number(start, kept)? * 10i64.pow(u32::try_from(start + 9 - kept).ok()?);
    }
    let offset = match bytes.get(at..)? {
        b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), _, _, b':', _, _] => {
            let hours = number(at + 1, at + 3)?;
            let minutes = number(at + 4, at + 6)?;
            if hours > 23 || minutes > 59 {
                return None;
            }
            let seconds = hours * 3600 + minutes * 60;
            if *sign == b'-' {
                -seconds
            } else {
                seconds
            }
        }
        _ => return None,
    };
    let seconds = days_since_epoch(year, month, day)
        .checked_mul(86_400)?
        .checked_add(hour * 3600 + minute * 60 + second - offset)?;
    Some(Duration(seconds.checked_mul(SECOND)?.checked_add(nanos)?))
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar: count from
/// 0000-03-01 in 400-year eras, so that the leap day ends each counted year.
fn days_since_epoch(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rfc3339() {
        let seconds = |text: &str| parse(text).map(|at| at.0 / SECOND);
        assert_eq!(seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(seconds("2026-11-01T00:00:00Z"), Some(1_793_491_200));
        assert_eq!(seconds("2024-02-29T12:00:00+02:00"), Some(1_709_200_800));
        assert_eq!(seconds("1969-12-31T23:59:59Z"), Some(-1));
        assert_eq!(
            parse("2026-11-01T00:00:00.25Z"),
            parse("2026-11-01T00:00:00Z").map(|at| Duration(at.0 + SECOND / 4))
        );
        for bad in [
            "2026-02-29T00:00:00Z",
            "2026-11-01 00:00:00Z",
            "2026-11-01T00:00:00",
            "2026-13-01T00:00:00Z",
            "2026-11-01T24:00:00Z",
            "2026-11-01T00:00:00.Z",
            "2026-11-01T00:00:00+0100",
            "",
        ] {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }
}
