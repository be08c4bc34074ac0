//! Go durations (`90s`, `1h30m`, `1.5h`), as `time.ParseDuration` reads them.
//!
//! Hand-written because the grammar is Go's own (units `ns`, `us`, `µs`, `ms`, `s`, `m`,
//! `h`; a bare `0`; fractions per unit; overflow is an error) and the crates that parse
//! durations read other grammars or need std. Values are nanoseconds, as in Go.

use core::fmt;

/// A duration in nanoseconds, as Go's `time.Duration`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(pub i64);

/// Nanoseconds per second.
pub const SECOND: i64 = 1_000_000_000;

impl Duration {
    /// Whole seconds.
    #[must_use]
    pub const fn from_seconds(seconds: i64) -> Self {
        Self(seconds.saturating_mul(SECOND))
    }

    /// The duration in seconds, as a JSON number (whole when it is whole).
    #[must_use]
    pub fn seconds(self) -> f64 {
        #[allow(clippy::cast_precision_loss)]
        let whole = (self.0 / SECOND) as f64;
        #[allow(clippy::cast_precision_loss)]
        let fraction = (self.0 % SECOND) as f64 / 1e9;
        whole + fraction
    }

    /// Adds, saturating at the largest duration.
    #[must_use]
    pub const fn saturating_add(self, other: Self) -> Self {
        Self(self.0.saturating_add(other.0))
    }
}

impl fmt::Display for Duration {
    /// Go's `Duration.String` for the values a timeline shows: `1h5m0s`, `300ms`, `0s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0.unsigned_abs();
        if self.0 < 0 {
            f.write_str("-")?;
        }
        if rest == 0 {
            return f.write_str("0s");
        }
        let second = SECOND.unsigned_abs();
        if rest < second {
            let (unit, size) = if rest < 1_000 {
                ("ns", 1)
            } else if rest < 1_000_000 {
                ("µs", 1_000)
            } else {
                ("ms", 1_000_000)
            };
            return write_decimal(f, rest, size, unit);
        }
        let hours = rest / (3600 * second);
        rest %= 3600 * second;
        let minutes = rest / (60 * second);
        rest %= 60 * second;
        if hours > 0 {
            write!(f, "{hours}h{minutes}m")?;
        } else if minutes > 0 {
            write!(f, "{minutes}m")?;
        }
        write_decimal(f, rest, second, "s")
    }
}

/// `value / size` with the fraction's trailing zeros dropped, then the unit.
fn write_decimal(f: &mut fmt::Formatter<'_>, value: u64, size: u64, unit: &str) -> fmt::Result {
    write!(f, "{}", value / size)?;
    let mut fraction = value % size;
    if fraction > 0 {
        let mut digits = 0;
        let mut scale = size;
        while scale > 1 {
            scale /= 10;
            digits += 1;
        }
        while fraction % 10 == 0 {
            fraction /= 10;
            digits -= 1;
        }
        write!(f, ".{fraction:0digits$}")?;
    }
    f.write_str(unit)
}

/// Why a text is not a Go duration (upstream's wording, after `time: `).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// `invalid duration "x"`.
    Invalid,
    /// `missing unit in duration "10"`.
    MissingUnit,
    /// `unknown unit "d" in duration "1d"`.
    UnknownUnit,
    /// `invalid duration "9999999h"` (out of range).
    Overflow,
}

/// Parses a Go duration.
///
/// # Errors
/// When the text is not one: an empty text, a number without a unit (other than `0`), an
/// unknown unit, or a value beyond about 292 years.
pub fn parse(text: &str) -> Result<Duration, Error> {
    let (negative, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..).unwrap_or_default()),
        Some(b'+') => (false, text.get(1..).unwrap_or_default()),
        _ => (false, text),
    };
    if rest == "0" {
        return Ok(Duration(0));
    }
    if rest.is_empty() {
        return Err(Error::Invalid);
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        let whole_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (whole, after) = rest.split_at(whole_len);
        let (fraction, after) = match after.strip_prefix('.') {
            Some(after) => {
                let len = after.bytes().take_while(u8::is_ascii_digit).count();
                after.split_at(len)
            }
            None => ("", after),
        };
        if whole.is_empty() && fraction.is_empty() {
            return Err(Error::Invalid);
        }
        let unit_len = after
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(after.len(), |(index, _)| index);
        let (unit, after) = after.split_at(unit_len);
        if unit.is_empty() {
            return Err(Error::MissingUnit);
        }
        let size: u64 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return Err(Error::UnknownUnit),
        };
        let mut value: u64 = 0;
        for digit in whole.bytes() {
            value = value
                .checked_mul(10)
                .and_then(|value| value.checked_add(u64::from(digit - b'0')))
                .ok_or(Error::Overflow)?;
        }
        value = value.checked_mul(size).ok_or(Error::Overflow)?;
        // The fraction as Go reads it (`leadingFraction`): digits while they fit in 63 bits,
        // then one float multiplication, truncated.
        let mut digits: u64 = 0;
        let mut scale: f64 = 1.0;
        for digit in fraction.bytes() {
            match digits
                .checked_mul(10)
                .and_then(|shifted| shifted.checked_add(u64::from(digit - b'0')))
                .filter(|next| *next <= 1 << 63)
            {
                Some(next) => {
                    digits = next;
                    scale *= 10.0;
                }
                None => break,
            }
        }
        if digits > 0 {
            #[allow(
                clippy::cast_precision_loss,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss
            )]
            let part = (digits as f64 * (size as f64 / scale)) as u64;
            value = value.checked_add(part).ok_or(Error::Overflow)?;
        }
        total = total.checked_add(value).ok_or(Error::Overflow)?;
        rest = after;
    }
    let limit = if negative {
        i64::MIN.unsigned_abs()
    } else {
        i64::MAX.unsigned_abs()
    };
    if total > limit {
        return Err(Error::Overflow);
    }
    #[allow(clippy::cast_possible_wrap)]
    let signed = if negative {
        0_i64.wrapping_sub_unsigned(total)
    } else {
        total as i64
    };
    Ok(Duration(signed))
}

/// Upstream's message for a text that is not a duration.
#[must_use]
pub fn message(text: &str, error: Error) -> alloc::string::String {
    let mut quoted = alloc::string::String::new();
    crate::validation::quote(text, &mut quoted);
    match error {
        Error::Invalid | Error::Overflow => alloc::format!("time: invalid duration {quoted}"),
        Error::MissingUnit => alloc::format!("time: missing unit in duration {quoted}"),
        Error::UnknownUnit => {
            let unit: alloc::string::String = text
                .trim_start_matches(|c: char| {
                    c.is_ascii_digit() || c == '.' || c == '-' || c == '+'
                })
                .chars()
                .take_while(|c| *c != '.' && !c.is_ascii_digit())
                .collect();
            let mut unit_quoted = alloc::string::String::new();
            crate::validation::quote(&unit, &mut unit_quoted);
            alloc::format!("time: unknown unit {unit_quoted} in duration {quoted}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    /// Cases from Go's `time/time_test.go` (`parseDurationTests`, `parseDurationErrorTests`).
    #[test]
    fn reads_what_go_reads() {
        let ok: &[(&str, i64)] = &[
            ("0", 0),
            ("5s", 5 * SECOND),
            ("30s", 30 * SECOND),
            ("1478s", 1478 * SECOND),
            ("-5s", -5 * SECOND),
            ("+5s", 5 * SECOND),
            ("-0", 0),
            ("+0", 0),
            ("5.0s", 5 * SECOND),
            ("5.6s", 5 * SECOND + 600_000_000),
            ("5.s", 5 * SECOND),
            (".5s", 500_000_000),
            ("1.0s", SECOND),
            ("1.00s", SECOND),
            ("1.004s", SECOND + 4_000_000),
            ("100.00100s", 100 * SECOND + 1_000_000),
            ("10ns", 10),
            ("11us", 11_000),
            ("12µs", 12_000),
            ("12μs", 12_000),
            ("13ms", 13_000_000),
            ("14s", 14 * SECOND),
            ("15m", 15 * 60 * SECOND),
            ("16h", 16 * 3600 * SECOND),
            ("3h30m", (3 * 3600 + 30 * 60) * SECOND),
            ("10.5s4m", 4 * 60 * SECOND + 10 * SECOND + 500_000_000),
            ("-2m3.4s", -(2 * 60 * SECOND + 3 * SECOND + 400_000_000)),
            ("1h2m3s4ms5us6ns", 3_723_004_005_006),
            ("39h9m14.425s", 140_954_425_000_000),
            ("52763797000ns", 52_763_797_000),
            ("0.3333333333333333333h", 20 * 60 * SECOND),
            ("9007199254740993ns", 9_007_199_254_740_993),
            ("9223372036854775807ns", i64::MAX),
            ("-9223372036854775808ns", i64::MIN),
            ("0.100000000000000000000h", 6 * 60 * SECOND),
        ];
        for (text, want) in ok {
            assert_eq!(parse(text), Ok(Duration(*want)), "{text}");
        }
        let bad = [
            "",
            "3",
            "-",
            "s",
            ".",
            "-.",
            ".s",
            "+.s",
            "1d",
            "\u{0085}\u{0085}",
            "9223372036854775808ns",
            "-9223372036854775809ns",
            "9223372036854775.808us",
        ];
        for text in bad {
            assert!(parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn messages_are_go_s() {
        assert_eq!(
            message("3", Error::MissingUnit),
            r#"time: missing unit in duration "3""#
        );
        assert_eq!(
            message("1d", Error::UnknownUnit),
            r#"time: unknown unit "d" in duration "1d""#
        );
        assert_eq!(
            message("x", Error::Invalid),
            r#"time: invalid duration "x""#
        );
    }

    #[test]
    fn prints_as_go_does() {
        for (value, text) in [
            (0, "0s"),
            (1, "1ns"),
            (1_100, "1.1µs"),
            (2_200_000, "2.2ms"),
            (3 * SECOND + 300_000_000, "3.3s"),
            (4 * 60 * SECOND + 5 * SECOND, "4m5s"),
            (3600 * SECOND, "1h0m0s"),
            (
                5 * 3600 * SECOND + 6 * 60 * SECOND + 7 * SECOND + 1_000_000,
                "5h6m7.001s",
            ),
            (-SECOND, "-1s"),
        ] {
            assert_eq!(Duration(value).to_string(), text);
        }
    }
}
