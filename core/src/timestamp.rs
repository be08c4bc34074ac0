//! RFC 3339 timestamps (`metav1.Time`) read as instants.
//!
//! Upstream decodes a `metav1.Time` with `time.Parse(time.RFC3339, …)` and compares the
//! instants, so `10:00:00+02:00` is before `09:00:00Z` and `…:00.5Z` after `…:00Z`;
//! comparing the text gets both wrong. Hand-written because only the instant is needed,
//! for ordering, and a date-time crate would weigh more in the playground's wasm than
//! this whole module. It reads the form Go's `parseRFC3339` reads (what every API server
//! writes): `YYYY-MM-DDThh:mm:ss`, an optional `.` and fraction (nine digits kept), then
//! `Z` or `±hh:mm`. The rarer spellings Go's general parser falls back to (a one-digit
//! hour, a `,` before the fraction, a `24:00` offset) are not read.

/// An instant: seconds since the Unix epoch, then nanoseconds into that second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Instant {
    seconds: i64,
    nanos: u32,
}

impl Instant {
    /// 1970-01-01T00:00:00Z.
    pub const EPOCH: Self = Self {
        seconds: 0,
        nanos: 0,
    };

    /// The time since the epoch, so that the difference of two is Go's `Time.Sub`
    /// (saturating as it does, far beyond any timestamp an API server writes).
    #[must_use]
    pub fn since_epoch(self) -> crate::duration::Duration {
        let seconds = self.seconds.saturating_mul(crate::duration::SECOND);
        crate::duration::Duration(seconds.saturating_add(i64::from(self.nanos)))
    }
}

/// The value of ASCII digits (at most four here, so nothing below can overflow).
fn digits(bytes: &[u8]) -> Option<i64> {
    bytes.iter().try_fold(0, |value, &byte| {
        byte.is_ascii_digit()
            .then(|| value * 10 + i64::from(byte - b'0'))
    })
}

/// The instant `text` names, or `None` when it is not an RFC 3339 timestamp.
#[must_use]
pub fn parse(text: &str) -> Option<Instant> {
    let bytes = text.as_bytes();
    let number = |from: usize, to: usize| digits(bytes.get(from..to)?);
    let separators = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if separators
        .iter()
        .any(|&(at, byte)| bytes.get(at) != Some(&byte))
    {
        return None;
    }
    let (year, month, day) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = match month {
        2 => 28 + i64::from(leap),
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=12).contains(&month)
        || !(1..=month_days).contains(&day)
        || hour > 23
        || minute > 59
        || second > 59
    {
        return None;
    }
    let mut rest = bytes.get(19..)?;
    let mut nanos = 0;
    if let [b'.', fraction @ ..] = rest {
        let digits = fraction
            .iter()
            .take_while(|byte| byte.is_ascii_digit())
            .count();
        if digits == 0 {
            return None;
        }
        // Go keeps the first nine digits (`parseNanoseconds`).
        let kept = fraction.get(..digits.min(9))?;
        nanos = kept
            .iter()
            .fold(0, |value, &byte| value * 10 + u32::from(byte - b'0'))
            * 10u32.pow(9 - u32::try_from(kept.len()).ok()?);
        rest = fraction.get(digits..)?;
    }
    let offset = match rest {
        [b'Z'] => 0,
        &[sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (hours, minutes) = (digits(&[h1, h2])?, digits(&[m1, m2])?);
            if hours > 23 || minutes > 59 {
                return None;
            }
            let offset = hours * 3600 + minutes * 60;
            if sign == b'-' {
                -offset
            } else {
                offset
            }
        }
        _ => return None,
    };
    // Days since 1970-01-01 of the proleptic Gregorian date, counting from March so that
    // the leap day ends a year.
    let shifted = if month <= 2 { year - 1 } else { year };
    let era = shifted.div_euclid(400);
    let of_era = shifted - era * 400;
    let of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let of_era_days = of_era * 365 + of_era / 4 - of_era / 100 + of_year;
    let days = era * 146_097 + of_era_days - 719_468;
    Some(Instant {
        seconds: days * 86_400 + hour * 3600 + minute * 60 + second - offset,
        nanos,
    })
}

/// The RFC 3339 text of the whole second `since_epoch` falls in, as an API server writes
/// a `metav1.Time` (UTC, no fraction). A [`Duration`](crate::duration::Duration) spans
/// the years 1677 to 2262, so the year always has four digits.
#[must_use]
pub fn format(since_epoch: crate::duration::Duration) -> alloc::string::String {
    let seconds = since_epoch.0.div_euclid(crate::duration::SECOND);
    let (days, second) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // The inverse of `parse`'s day count (years counted from March).
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let of_era = days - era * 146_097;
    let of_era_years = (of_era - of_era / 1460 + of_era / 36_524 - of_era / 146_096) / 365;
    let of_year = of_era - (365 * of_era_years + of_era_years / 4 - of_era_years / 100);
    let shifted_month = (5 * of_year + 2) / 153;
    let day = of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = of_era_years + era * 400 + i64::from(month <= 2);
    alloc::format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        second / 3600,
        second / 60 % 60,
        second % 60
    )
}

#[cfg(test)]
mod tests {
    use super::{format, parse, Instant};

    fn at(seconds: i64, nanos: u32) -> Option<Instant> {
        Some(Instant { seconds, nanos })
    }

    #[test]
    fn reads_instants() {
        assert_eq!(parse("1970-01-01T00:00:00Z"), at(0, 0));
        assert_eq!(parse("2024-01-01T09:00:00Z"), at(1_704_099_600, 0));
        assert_eq!(parse("2024-01-01T10:00:00+02:00"), at(1_704_096_000, 0));
        assert_eq!(parse("2023-12-31T23:30:00-09:30"), at(1_704_099_600, 0));
        assert_eq!(
            parse("2024-02-29T00:00:00.5Z"),
            at(1_709_164_800, 500_000_000)
        );
        assert_eq!(parse("1969-12-31T23:59:59.0000000019Z"), at(-1, 1));
        assert!(parse("2024-01-01T10:00:00+02:00") < parse("2024-01-01T09:00:00Z"));
    }

    #[test]
    fn writes_whole_seconds_in_utc() {
        for text in [
            "1970-01-01T00:00:00Z",
            "2024-02-29T23:59:59Z",
            "2000-03-01T12:34:56Z",
            "1969-12-31T00:00:01Z",
            "1677-09-21T00:12:44Z",
        ] {
            let instant = parse(text).map(Instant::since_epoch);
            assert_eq!(instant.map(format).as_deref(), Some(text));
        }
        let half = parse("2024-01-01T09:00:00.5+02:00").map(Instant::since_epoch);
        assert_eq!(half.map(format).as_deref(), Some("2024-01-01T07:00:00Z"));
        let last = crate::duration::Duration(i64::MAX);
        assert_eq!(format(last), "2262-04-11T23:47:16Z");
    }

    #[test]
    fn refuses_what_go_refuses() {
        for text in [
            "",
            "2024-01-01",
            "2024-01-01 09:00:00Z",
            "2024-01-01T09:00:00",
            "2024-01-01T09:00:00z",
            "2024-01-01T09:00:00.Z",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T09:00:60Z",
            "2024-01-01T09:00:00+2:00",
            "2024-01-01T09:00:00+02:60",
            "2024-01-01T09:00:00Z ",
            "２024-01-01T09:00:00Z",
        ] {
            assert_eq!(parse(text), None, "{text}");
        }
    }
}
