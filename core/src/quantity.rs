//! Kubernetes resource quantities (`100m`, `1.5Gi`, `2e3`) held as exact integers.
//!
//! This module is hand-written because no maintained `no_std` crate implements the
//! Kubernetes `resource.Quantity` grammar, its suffixes and its rounding. It also has to
//! differ on purpose: upstream's `Value()` and `MilliValue()` overflow silently (`1e400`
//! reads as 0, `9Ei` as -1000m), while kubefit rejects every quantity whose milli-value
//! does not fit in an `i64`. Values are stored as an `i128` count of nano-units, which is
//! exact because upstream itself rounds every non-zero value up to nano precision.
//!
//! Where kubefit deliberately differs from upstream:
//! - Quantities whose milli-value does not fit in an `i64` are rejected (upstream accepts
//!   decimal values of any size and caps binary ones at 2^63-1).
//! - Exponents outside -2147483647..=2147483647 are rejected; upstream truncates them to
//!   32 bits, so `1e4294967296` reads as 1 there.
//! - [`Display`](core::fmt::Display) always prints the canonical form, while upstream's
//!   `String()` may echo the input text it parsed (`+1`, `1.`, `01`, `1.001`, `1E3`).
//! - Equality and ordering compare values only, like upstream's `Cmp`, so `1Ki == 1024`.
//! - Rounding to whole units or millis is away from zero for every negative value; older
//!   upstream releases rounded negative values held as big decimals towards zero instead.

#![deny(clippy::arithmetic_side_effects)]

use alloc::string::{String, ToString};
use core::cmp::Ordering;
use core::fmt;

/// Nano-units in one unit.
const NANOS_PER_UNIT: i128 = 1_000_000_000;
/// Nano-units in one milli-unit.
const NANOS_PER_MILLI: i128 = 1_000_000;
/// The largest magnitude kubefit accepts, in nano-units: `i64::MAX` milli-units.
const MAX_NANOS: i128 = 9_223_372_036_854_775_807_000_000;
/// The largest milli-value magnitude, as printed in error messages.
const MAX_MILLI: i64 = i64::MAX;
/// The largest accepted exponent magnitude (upstream stores exponents in an `i32`).
const MAX_EXPONENT: i64 = 2_147_483_647;
/// Upstream's description of the grammar, quoted in syntax errors.
const GRAMMAR: &str = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
/// Longest piece of user text repeated in an error message, in bytes.
const SNIPPET_LIMIT: usize = 64;

/// How a quantity is written out, remembered from the suffix it was parsed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Powers of ten with SI suffixes: `n`, `u`, `m`, none, `k`, `M`, `G`, `T`, `P`, `E`.
    DecimalSi,
    /// Powers of 1024 with binary suffixes: `Ki`, `Mi`, `Gi`, `Ti`, `Pi`, `Ei`.
    BinarySi,
    /// Powers of ten written as an exponent: `1e3`, `5e-3`.
    DecimalExponent,
}

/// An exact resource quantity: a count of nano-units plus the format to print it in.
///
/// Every value satisfies the kubefit rule that its milli-value fits in an `i64`.
/// Equality and ordering compare values only, so `1Ki` equals `1024`.
#[derive(Clone, Copy, Debug)]
pub struct Quantity {
    /// The value in nano-units (10^-9), at most [`MAX_NANOS`] in magnitude.
    nanos: i128,
    /// How to print the value.
    format: Format,
}

/// Why a text is not a quantity kubefit accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuantityError {
    /// The text does not have the shape of a number followed by a suffix.
    Syntax {
        /// The offending text, shortened if very long.
        text: String,
    },
    /// The number has no digits, and upstream cannot read it either (`.e-10`, `Pi`).
    NoDigits {
        /// The offending text, shortened if very long.
        text: String,
    },
    /// The suffix is neither an SI suffix, a binary suffix nor a decimal exponent.
    Suffix {
        /// The offending text, shortened if very long.
        text: String,
        /// The unknown suffix, shortened if very long.
        suffix: String,
    },
    /// The decimal exponent does not fit in 32 bits.
    ExponentRange {
        /// The offending text, shortened if very long.
        text: String,
    },
    /// The milli-value does not fit in an `i64`.
    Overflow {
        /// The offending text, shortened if very long.
        text: String,
        /// Whether the value is below the smallest accepted one rather than above the largest.
        negative: bool,
    },
}

impl QuantityError {
    /// The stable diagnostic code for this error, such as `quantity/overflow`.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::Syntax { .. } | Self::NoDigits { .. } => "quantity/syntax",
            Self::Suffix { .. } => "quantity/suffix",
            Self::ExponentRange { .. } => "quantity/exponent-range",
            Self::Overflow { .. } => "quantity/overflow",
        }
    }
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { text } if text.is_empty() => write!(
                f,
                "quantity is empty: write a number with an optional suffix, such as `100m` or `1Gi`"
            ),
            Self::Syntax { text } => {
                write!(
                    f,
                    "quantity `{text}` is not a number with an optional suffix: quantities must match the regular expression '{GRAMMAR}'"
                )?;
                if text.trim() != text {
                    f.write_str(" (surrounding whitespace is not allowed)")?;
                }
                Ok(())
            }
            Self::NoDigits { text } => write!(f, "quantity `{text}` has no digits"),
            Self::Suffix { text, suffix } => {
                write!(f, "quantity `{text}` has an unknown suffix `{suffix}`: ")?;
                f.write_str(suffix_hint(suffix))
            }
            Self::ExponentRange { text } => write!(
                f,
                "quantity `{text}` has an exponent outside the range -{MAX_EXPONENT} to {MAX_EXPONENT}"
            ),
            Self::Overflow { text, negative: false } => write!(
                f,
                "quantity `{text}` is too large: it must be at most {MAX_MILLI}m"
            ),
            Self::Overflow { text, negative: true } => write!(
                f,
                "quantity `{text}` is too small: it must be at least -{MAX_MILLI}m"
            ),
        }
    }
}

impl core::error::Error for QuantityError {}

/// Advice for an unknown suffix, with a guess for the usual mistakes.
fn suffix_hint(suffix: &str) -> &'static str {
    match suffix {
        "K" => "did you mean `k` (1000) or `Ki` (1024)?",
        "ki" => "did you mean `Ki`?",
        "mi" => "did you mean `Mi` (mebi) or `m` (milli)?",
        "gi" => "did you mean `Gi`?",
        "ti" => "did you mean `Ti`?",
        "pi" => "did you mean `Pi`?",
        "ei" => "did you mean `Ei`?",
        _ if suffix.starts_with(['e', 'E']) => {
            "an exponent is `e` or `E` followed by an integer, such as `1e3` or `5E-3`"
        }
        _ => {
            "use one of n, u, m, k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei or an exponent such as e3"
        }
    }
}

/// Copies user text for an error message, cut at a character boundary if very long.
fn snippet(text: &str) -> String {
    if text.len() <= SNIPPET_LIMIT {
        return text.to_string();
    }
    let mut end = SNIPPET_LIMIT;
    while !text.is_char_boundary(end) {
        end = end.saturating_sub(1);
    }
    let mut short = text.get(..end).unwrap_or_default().to_string();
    short.push('…');
    short
}

/// The pieces of a quantity's text, as upstream's scanner splits it.
#[derive(Debug, PartialEq, Eq)]
struct Parts<'a> {
    /// Whether the text starts with `-`.
    negative: bool,
    /// The digits before the decimal point (possibly with leading zeros, possibly none).
    int: &'a [u8],
    /// The digits after the decimal point (possibly none).
    frac: &'a [u8],
    /// Everything after the number.
    suffix: &'a str,
}

/// Splits text into sign, digits and suffix, or `None` if it has the wrong shape.
///
/// The suffix is only checked for shape here: letters from `eEinumkKMGTP`, then an
/// optional sign, then digits, then the end of the text.
fn split(text: &str) -> Option<Parts<'_>> {
    let bytes = text.as_bytes();
    let mut pos = 0usize;
    let mut negative = false;
    match bytes.first() {
        Some(b'-') => {
            negative = true;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    let skip = |pos: usize, accept: &dyn Fn(u8) -> bool| -> usize {
        let run = bytes
            .get(pos..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&b| accept(b))
            .count();
        pos.saturating_add(run)
    };
    let int_end = skip(pos, &|b| b.is_ascii_digit());
    let int = bytes.get(pos..int_end)?;
    pos = int_end;
    let mut frac: &[u8] = &[];
    if bytes.get(pos) == Some(&b'.') {
        let start = pos.saturating_add(1);
        let end = skip(start, &|b| b.is_ascii_digit());
        frac = bytes.get(start..end)?;
        pos = end;
    }
    let suffix_start = pos;
    pos = skip(pos, &|b| b"eEinumkKMGTP".contains(&b));
    if matches!(bytes.get(pos), Some(b'+' | b'-')) {
        pos = pos.saturating_add(1);
    }
    pos = skip(pos, &|b| b.is_ascii_digit());
    if pos != bytes.len() {
        return None;
    }
    Some(Parts {
        negative,
        int,
        frac,
        suffix: text.get(suffix_start..)?,
    })
}

/// What a suffix means.
enum Unit {
    /// Times 10^exponent, in the given decimal format.
    Decimal(i32, Format),
    /// Times 2^shift.
    Binary(u32),
}

/// Why a suffix was not understood.
enum SuffixProblem {
    /// Not a known suffix at all.
    Unknown,
    /// A well-formed exponent that does not fit in 32 bits.
    Range,
}

/// Decimal SI suffixes, for 10^-9 up to 10^18 in steps of 10^3.
const DECIMAL_SUFFIXES: [&str; 10] = ["n", "u", "m", "", "k", "M", "G", "T", "P", "E"];
/// Binary SI suffixes, for 2^0 up to 2^60 in steps of 2^10.
const BINARY_SUFFIXES: [&str; 7] = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"];

/// Interprets a suffix the way upstream does, including the undocumented `n` and `u`.
fn interpret(suffix: &str) -> Result<Unit, SuffixProblem> {
    let step = |table: &[&str]| {
        table
            .iter()
            .position(|&s| s == suffix)
            .and_then(|i| u32::try_from(i).ok())
    };
    if let Some(step) = step(&DECIMAL_SUFFIXES) {
        let exponent = i32::try_from(step.saturating_mul(3))
            .unwrap_or(0)
            .saturating_sub(9);
        Ok(Unit::Decimal(exponent, Format::DecimalSi))
    } else if let Some(step) = step(&BINARY_SUFFIXES).filter(|&i| i > 0) {
        Ok(Unit::Binary(step.saturating_mul(10)))
    } else if let Some(rest) = suffix.strip_prefix(['e', 'E']) {
        parse_exponent(rest).map(|e| Unit::Decimal(e, Format::DecimalExponent))
    } else {
        Err(SuffixProblem::Unknown)
    }
}

/// Reads an optionally signed decimal exponent without ever building a large number.
fn parse_exponent(text: &str) -> Result<i32, SuffixProblem> {
    let (negative, digits) = match text.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] | rest => (false, rest),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(SuffixProblem::Unknown);
    }
    let mut magnitude: i64 = 0;
    for &d in digits {
        magnitude = magnitude
            .saturating_mul(10)
            .saturating_add(i64::from(d.saturating_sub(b'0')));
        if magnitude > MAX_EXPONENT {
            return Err(SuffixProblem::Range);
        }
    }
    let signed = if negative {
        magnitude.saturating_neg()
    } else {
        magnitude
    };
    i32::try_from(signed).map_err(|_| SuffixProblem::Range)
}

/// The value of an ASCII digit.
fn digit(b: u8) -> i128 {
    i128::from(b.saturating_sub(b'0'))
}

/// Reads digits into an integer, or `None` if it does not fit in an `i128`.
fn digits_value<'a>(digits: impl IntoIterator<Item = &'a u8>) -> Option<i128> {
    digits
        .into_iter()
        .try_fold(0i128, |acc, &b| acc.checked_mul(10)?.checked_add(digit(b)))
}

/// Computes `ceil(int.frac * 10^exponent)` in nano-units, or `None` if it is far too large.
///
/// Work is linear in the number of digits whatever the exponent.
fn decimal_nanos(int: &[u8], frac: &[u8], exponent: i32) -> Option<i128> {
    let frac_len = i128::try_from(frac.len()).unwrap_or(i128::MAX);
    // The value is digits * 10^shift nano-units.
    let shift = i128::from(exponent)
        .saturating_add(9)
        .saturating_sub(frac_len);
    let digits = int.iter().chain(frac);
    if shift >= 0 {
        let whole = digits_value(digits)?;
        if whole == 0 {
            return Some(0);
        }
        let scale = 10i128.checked_pow(u32::try_from(shift).ok()?)?;
        return whole.checked_mul(scale);
    }
    // Digits after the first `keep` fall below a nano-unit: they only decide the round-up.
    let total = int.len().saturating_add(frac.len());
    let dropped = usize::try_from(shift.saturating_neg()).unwrap_or(usize::MAX);
    let keep = total.saturating_sub(dropped);
    let kept = digits_value(digits.clone().take(keep))?;
    let round_up = digits.skip(keep).any(|&b| b != b'0');
    kept.checked_add(i128::from(round_up))
}

/// Computes `ceil(int.frac * 2^shift)` in nano-units, or `None` if it is far too large.
fn binary_nanos(int: &[u8], frac: &[u8], shift: u32) -> Option<i128> {
    let unit = 1i128.checked_shl(shift)?.checked_mul(NANOS_PER_UNIT)?;
    let whole = digits_value(int)?.checked_mul(unit)?;
    // Evaluate frac * unit from the last digit back, keeping the integer part and noting
    // whether anything was cut off: each step divides by ten.
    let mut part: i128 = 0;
    let mut inexact = false;
    for &b in frac.iter().rev() {
        let x = digit(b).checked_mul(unit)?.checked_add(part)?;
        part = x.checked_div(10)?;
        inexact |= x.checked_rem(10)? != 0;
    }
    whole.checked_add(part)?.checked_add(i128::from(inexact))
}

/// Divides, rounding any remainder away from zero.
fn div_away_from_zero(n: i128, d: i128) -> i128 {
    let quotient = n.checked_div(d).unwrap_or(0);
    match n.checked_rem(d).unwrap_or(0).cmp(&0) {
        Ordering::Greater => quotient.saturating_add(1),
        Ordering::Less => quotient.saturating_sub(1),
        Ordering::Equal => quotient,
    }
}

/// Converts to `i64`, saturating (never reached for values that keep the kubefit rule).
fn saturate(v: i128) -> i64 {
    i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
}

/// Whether a nano count keeps the kubefit rule.
fn in_range(nanos: i128) -> bool {
    (-MAX_NANOS..=MAX_NANOS).contains(&nanos)
}

impl Quantity {
    /// Parses text exactly as upstream's `ParseQuantity` does, without trimming it.
    ///
    /// Accepts the undocumented `n` and `u` suffixes and the digit-less forms upstream
    /// reads as zero (`.`, `+`, `-`, `.e3`; see [`suspicious`]). Non-zero values are
    /// rounded up to a whole nano-unit, away from zero, so `1e-400` is `1n`.
    ///
    /// # Errors
    ///
    /// Returns a [`QuantityError`] if the text is not a quantity, or if its milli-value
    /// does not fit in an `i64` (stricter than upstream, on purpose).
    pub fn parse(text: &str) -> Result<Quantity, QuantityError> {
        let parts =
            split(text)
                .filter(|_| !text.is_empty())
                .ok_or_else(|| QuantityError::Syntax {
                    text: snippet(text),
                })?;
        let unit = interpret(parts.suffix).map_err(|problem| match problem {
            SuffixProblem::Unknown => QuantityError::Suffix {
                text: snippet(text),
                suffix: snippet(parts.suffix),
            },
            SuffixProblem::Range => QuantityError::ExponentRange {
                text: snippet(text),
            },
        })?;
        if parts.int.is_empty() && parts.frac.is_empty() {
            // Upstream reads a digit-less number as zero unless it takes its slow,
            // big-decimal path, whose decimal parser then refuses the empty number.
            let slow = match unit {
                Unit::Decimal(exponent, _) => exponent < -9,
                Unit::Binary(shift) => shift >= 50,
            };
            if slow {
                return Err(QuantityError::NoDigits {
                    text: snippet(text),
                });
            }
        }
        let (magnitude, format) = match unit {
            Unit::Decimal(exponent, format) => {
                (decimal_nanos(parts.int, parts.frac, exponent), format)
            }
            Unit::Binary(shift) => (binary_nanos(parts.int, parts.frac, shift), Format::BinarySi),
        };
        let overflow = || QuantityError::Overflow {
            text: snippet(text),
            negative: parts.negative,
        };
        let magnitude = magnitude.filter(|&m| m <= MAX_NANOS).ok_or_else(overflow)?;
        // Upstream switches a binary value strictly between 0 and 1 to decimal format.
        let format = if format == Format::BinarySi && magnitude > 0 && magnitude < NANOS_PER_UNIT {
            Format::DecimalSi
        } else {
            format
        };
        let nanos = if parts.negative {
            magnitude.saturating_neg()
        } else {
            magnitude
        };
        Ok(Quantity { nanos, format })
    }

    /// Parses a field value as upstream's `UnmarshalJSON` does: surrounding whitespace is
    /// trimmed first, so `" 1"` is accepted here although [`Quantity::parse`] refuses it.
    ///
    /// # Errors
    ///
    /// As [`Quantity::parse`].
    pub fn parse_field(text: &str) -> Result<Quantity, QuantityError> {
        Quantity::parse(text.trim())
    }

    /// A quantity of `milli` thousandths, like upstream's `NewMilliQuantity`.
    ///
    /// `i64::MIN` is raised to `-i64::MAX` so that the value can always be negated.
    #[must_use]
    pub fn from_milli(milli: i64, format: Format) -> Quantity {
        let milli = milli.max(-MAX_MILLI);
        Quantity {
            nanos: i128::from(milli).saturating_mul(NANOS_PER_MILLI),
            format,
        }
    }

    /// A quantity of `value` whole units, like upstream's `NewQuantity`.
    ///
    /// Values beyond ±9223372036854775.807 have no exact milli-value, so they saturate there.
    #[must_use]
    pub fn from_value(value: i64, format: Format) -> Quantity {
        let nanos = i128::from(value).saturating_mul(NANOS_PER_UNIT);
        Quantity {
            nanos: nanos.clamp(-MAX_NANOS, MAX_NANOS),
            format,
        }
    }

    /// Zero, in decimal SI format (how upstream parses `0`).
    #[must_use]
    pub fn zero() -> Quantity {
        Quantity {
            nanos: 0,
            format: Format::DecimalSi,
        }
    }

    /// The exact value in nano-units (10^-9).
    #[must_use]
    pub fn as_nanos(&self) -> i128 {
        self.nanos
    }

    /// The value in thousandths, rounded away from zero, like upstream's `MilliValue`.
    ///
    /// Never overflows: every quantity keeps its milli-value within `i64`.
    #[must_use]
    pub fn milli_value(&self) -> i64 {
        saturate(div_away_from_zero(self.nanos, NANOS_PER_MILLI))
    }

    /// The quantity rounded away from zero to a whole number of milli-units, as upstream's
    /// `RoundUp(-3)` does when the API server defaults a resource list (`500u` becomes
    /// `1m`). Never leaves the kubefit range: its bound is a whole number of milli-units.
    #[must_use]
    pub fn round_up_to_milli(self) -> Quantity {
        Quantity {
            nanos: div_away_from_zero(self.nanos, NANOS_PER_MILLI)
                .saturating_mul(NANOS_PER_MILLI)
                .clamp(-MAX_NANOS, MAX_NANOS),
            format: self.format,
        }
    }

    /// The value in whole units, rounded away from zero, like upstream's `Value`.
    #[must_use]
    pub fn value(&self) -> i64 {
        saturate(div_away_from_zero(self.nanos, NANOS_PER_UNIT))
    }

    /// Whether the value is zero.
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }

    /// Whether the value is below zero.
    #[must_use]
    pub fn is_negative(&self) -> bool {
        self.nanos < 0
    }

    /// Whether the milli-value is a whole number of units, as upstream validation checks it.
    ///
    /// This looks at the milli-value, so `1.0000001` (1001m after rounding) is not an integer.
    #[must_use]
    pub fn is_integer(&self) -> bool {
        self.milli_value().checked_rem(1000) == Some(0)
    }

    /// The format the quantity is printed in.
    #[must_use]
    pub fn format(&self) -> Format {
        self.format
    }

    /// The sum, or `None` if it breaks the kubefit rule.
    ///
    /// Keeps the format of `self`, unless `self` is zero, in which case it takes the
    /// format of `other`, as upstream's `Add` does.
    #[must_use]
    pub fn checked_add(self, other: Quantity) -> Option<Quantity> {
        let nanos = self
            .nanos
            .checked_add(other.nanos)
            .filter(|&n| in_range(n))?;
        Some(Quantity {
            nanos,
            format: self.combined_format(other),
        })
    }

    /// The difference, or `None` if it breaks the kubefit rule.
    ///
    /// Formats are kept as in [`Quantity::checked_add`], as upstream's `Sub` does.
    #[must_use]
    pub fn checked_sub(self, other: Quantity) -> Option<Quantity> {
        let nanos = self
            .nanos
            .checked_sub(other.nanos)
            .filter(|&n| in_range(n))?;
        Some(Quantity {
            nanos,
            format: self.combined_format(other),
        })
    }

    /// The format upstream's `Add` and `Sub` give their result.
    fn combined_format(self, other: Quantity) -> Format {
        if self.nanos == 0 {
            other.format
        } else {
            self.format
        }
    }

    /// Compares values, ignoring formats, like upstream's `Cmp`.
    #[must_use]
    pub fn cmp_value(&self, other: &Quantity) -> Ordering {
        self.nanos.cmp(&other.nanos)
    }

    /// The canonical mantissa and suffix, as upstream's `CanonicalizeBytes` chooses them.
    fn canonical(&self) -> (i128, Suffix) {
        let mut format = self.format;
        if format == Format::BinarySi {
            let small = self.nanos.unsigned_abs() < 1_024_000_000_000;
            if small || self.nanos.checked_rem(NANOS_PER_UNIT) != Some(0) {
                format = Format::DecimalSi;
            }
        }
        if format == Format::BinarySi {
            // Whole units; take out every factor of 1024 (never more than five fit).
            let mut mantissa = self.nanos.checked_div(NANOS_PER_UNIT).unwrap_or(0);
            let mut power = 0usize;
            while mantissa != 0 && mantissa.checked_rem(1024) == Some(0) && power < 6 {
                mantissa = mantissa.checked_div(1024).unwrap_or(0);
                power = power.saturating_add(1);
            }
            let suffix = BINARY_SUFFIXES.get(power).copied().unwrap_or("");
            return (mantissa, Suffix::Text(suffix));
        }
        // The largest multiple of three that keeps the mantissa whole, from nano upwards.
        let mut mantissa = self.nanos;
        let mut exponent: i32 = -9;
        while mantissa != 0 && mantissa.checked_rem(1000) == Some(0) {
            mantissa = mantissa.checked_div(1000).unwrap_or(0);
            exponent = exponent.saturating_add(3);
        }
        let index = usize::try_from(exponent.saturating_add(9) / 3).unwrap_or(usize::MAX);
        match DECIMAL_SUFFIXES.get(index) {
            Some(suffix) if format == Format::DecimalSi => (mantissa, Suffix::Text(suffix)),
            // Exponent form, which is also upstream's fallback beyond `E`.
            _ => (mantissa, Suffix::Exponent(exponent)),
        }
    }
}

/// The suffix of a canonical quantity.
enum Suffix {
    /// A fixed suffix, possibly empty.
    Text(&'static str),
    /// `e` and an exponent, omitted when the exponent is zero.
    Exponent(i32),
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Quantity) -> bool {
        self.nanos == other.nanos
    }
}

impl Eq for Quantity {}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Quantity) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    fn cmp(&self, other: &Quantity) -> Ordering {
        self.cmp_value(other)
    }
}

impl fmt::Display for Quantity {
    /// Prints the canonical form: the largest suffix that keeps the mantissa whole.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.nanos == 0 {
            return f.pad("0");
        }
        let (mantissa, suffix) = self.canonical();
        let text = match suffix {
            Suffix::Text(s) => alloc::format!("{mantissa}{s}"),
            Suffix::Exponent(0) => alloc::format!("{mantissa}"),
            Suffix::Exponent(e) => alloc::format!("{mantissa}e{e}"),
        };
        f.pad(&text)
    }
}

impl serde::Serialize for Quantity {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Whether upstream reads this field text as zero although its number has no digits.
///
/// True for `.`, `+`, `-`, `.e3`, `k`, `+Mi` and the like: Kubernetes accepts them as 0,
/// which is almost never what was meant. Surrounding whitespace is ignored, as in
/// [`Quantity::parse_field`]. Texts that do not parse at all give `false`.
#[must_use]
pub fn suspicious(text: &str) -> bool {
    let text = text.trim();
    split(text).is_some_and(|p| p.int.is_empty() && p.frac.is_empty())
        && Quantity::parse(text).is_ok()
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::cast_possible_truncation
)]
mod tests {
    use super::*;
    use alloc::{format, vec::Vec};

    const D: Format = Format::DecimalSi;
    const B: Format = Format::BinarySi;
    const X: Format = Format::DecimalExponent;

    /// `mantissa * 10^exponent` in nano-units (exponent >= -9), or `None` beyond the range.
    fn nanos(mantissa: i128, exponent: u32) -> Option<i128> {
        let n = mantissa.checked_mul(10i128.checked_pow(exponent)?)?;
        in_range(n).then_some(n)
    }

    fn q(mantissa: i128, exponent: i32, format: Format) -> Quantity {
        let nanos = nanos(mantissa, exponent.saturating_add(9).unsigned_abs()).unwrap();
        Quantity { nanos, format }
    }

    fn p(text: &str) -> Quantity {
        Quantity::parse(text).unwrap_or_else(|e| panic!("{}: {e}", snippet(text)))
    }

    fn show(text: &str) -> String {
        p(text).to_string()
    }

    fn code(text: &str) -> &'static str {
        Quantity::parse(text).unwrap_err().code()
    }

    /// Upstream `TestQuantityParse`: input, value as mantissa and exponent, format.
    #[rustfmt::skip]
    const PARSE: &[(&str, i128, i32, Format)] = &[
        ("0", 0, 0, D), ("0n", 0, 0, D), ("0u", 0, 0, D), ("0m", 0, 0, D), ("0Ki", 0, 0, B),
        ("0k", 0, 0, D), ("0Mi", 0, 0, B), ("0M", 0, 0, D), ("0Gi", 0, 0, B), ("0G", 0, 0, D),
        ("0Ti", 0, 0, B), ("0T", 0, 0, D), ("1", 1, 0, D), ("1Ki", 1024, 0, B),
        ("8Ki", 8 << 10, 0, B), ("7Mi", 7 << 20, 0, B), ("6Gi", 6 << 30, 0, B),
        ("5Ti", 5 << 40, 0, B), ("4Pi", 4 << 50, 0, B), ("3Ei", 3 << 60, 0, B),
        ("10Ti", 10 << 40, 0, B), ("100Ti", 100 << 40, 0, B), ("5n", 5, -9, D), ("4u", 4, -6, D),
        ("3m", 3, -3, D), ("9", 9, 0, D), ("8k", 8, 3, D), ("50k", 5, 4, D), ("7M", 7, 6, D),
        ("6G", 6, 9, D), ("5T", 5, 12, D), ("40T", 4, 13, D), ("300T", 3, 14, D),
        ("2P", 2, 15, D), ("1E", 1, 18, D), ("1E-3", 1, -3, X), ("1e3", 1, 3, X),
        ("1E6", 1, 6, X), ("1e9", 1, 9, X), ("1E12", 1, 12, X), ("1e15", 1, 15, X),
        ("1E18", 1, 18, X), ("1e14", 1, 14, X), ("1e13", 1, 13, X), ("100.035k", 100_035, 0, D),
        ("0.001", 1, -3, D), ("0.0005k", 5, -1, D), ("0.005", 5, -3, D), ("0.05", 5, -2, D),
        ("0.5", 5, -1, D), ("0.00050k", 5, -1, D), ("0.00500", 5, -3, D), ("0.05000", 5, -2, D),
        ("0.50000", 5, -1, D), ("0.5e0", 5, -1, X), ("0.5e-1", 5, -2, X), ("0.5e-2", 5, -3, X),
        ("10.035M", 10035, 3, D), ("1.2e3", 12, 2, X), ("1.3E+6", 13, 5, X), ("1.40e9", 14, 8, X),
        ("1.53E12", 153, 10, X), ("1.6e15", 16, 14, X), ("1.7E18", 17, 17, X),
        ("9.01", 901, -2, D), ("8.1k", 81, 2, D), ("7.123456M", 7_123_456, 0, D),
        ("6.987654321G", 6_987_654_321, 0, D), ("5.444T", 5444, 9, D), ("40.1T", 401, 11, D),
        ("300.2T", 3002, 11, D), ("2.5P", 25, 14, D), ("1.01E", 101, 16, D),
        ("3.001n", 4, -9, D), ("1.1E-9", 2, -9, X), ("0.0000000001", 1, -9, D),
        ("0.0000000005", 1, -9, D), ("0.00000000050", 1, -9, D), ("0.5e-9", 1, -9, X),
        ("0.9n", 1, -9, D), ("0.00000012345", 124, -9, D), ("0.00000012354", 124, -9, D),
        ("9Ei", i64::MAX as i128, 0, B), ("9223372036854775807Ki", i64::MAX as i128, 0, B),
        ("12E", 12, 18, D), ("100.035Ki", 10_243_584, -2, B), ("0.5Mi", 524_288, 0, B),
        ("0.05Gi", 536_870_912, -1, B), ("0.025Ti", 274_877_906_944, -1, B),
        ("0.000000000001Ki", 2, -9, D), (".001", 1, -3, D), (".0001k", 100, -3, D),
        ("1.", 1, 0, D), ("1.G", 1, 9, D),
    ];

    /// `RoundUp(-3)`: up to a whole milli-unit, away from zero; whole millis stay.
    #[test]
    fn rounds_up_to_milli_units() {
        let round = |text: &str| {
            Quantity::parse(text)
                .unwrap()
                .round_up_to_milli()
                .to_string()
        };
        assert_eq!(round("500u"), "1m");
        assert_eq!(round("1001u"), "2m");
        assert_eq!(round("1n"), "1m");
        assert_eq!(round("-1n"), "-1m");
        assert_eq!(round("1.5"), "1500m");
        assert_eq!(round("1Gi"), "1Gi");
        assert_eq!(round("0"), "0");
        let largest = format!("{MAX_MILLI}m");
        assert_eq!(round(&largest), largest);
    }

    #[test]
    fn parse_table_with_every_sign() {
        let mut overflowing = 0;
        for &(text, mantissa, exponent, format) in PARSE {
            for (prefix, sign) in [("", 1), ("-", -1), ("+", 1)] {
                let input = format!("{prefix}{text}");
                let got = Quantity::parse(&input);
                if let Some(n) = nanos(mantissa, exponent.saturating_add(9).unsigned_abs()) {
                    let got = got.unwrap_or_else(|e| panic!("{input}: {e}"));
                    assert_eq!((got.nanos, got.format), (sign * n, format), "{input}");
                } else {
                    overflowing += 1;
                    let want = QuantityError::Overflow {
                        text: input,
                        negative: sign < 0,
                    };
                    assert_eq!(got.unwrap_err(), want);
                }
            }
        }
        // 3Ei, 1E, 1E18, 1.7E18, 1.01E, 9Ei, 9223372036854775807Ki and 12E, in three signs.
        assert_eq!(overflowing, 8 * 3);
    }

    #[test]
    fn upstream_invalid_list_and_scanner() {
        #[rustfmt::skip]
        let invalid = ["1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 "];
        for text in invalid {
            assert!(Quantity::parse(text).is_err(), "{text}");
        }
        assert_eq!(
            (code("0.1mi"), code("1.1.M")),
            ("quantity/suffix", "quantity/syntax")
        );
        // Upstream `TestParseQuantityString`; kubefit keeps leading zeros and no placeholder 0.
        #[rustfmt::skip]
        let table = [
            ("0.025Ti", false, "0", "025", "Ti"), ("1.025Ti", false, "1", "025", "Ti"),
            ("-1.025Ti", true, "1", "025", "Ti"), (".", false, "", "", ""),
            ("-.", true, "", "", ""), ("1E-3", false, "1", "", "E-3"),
        ];
        for (text, negative, int, frac, suffix) in table {
            let want = Parts {
                negative,
                int: int.as_bytes(),
                frac: frac.as_bytes(),
                suffix,
            };
            assert_eq!(split(text), Some(want), "{text}");
        }
    }

    /// Upstream `TestQuantityString`: value, canonical text, alternate spelling.
    #[rustfmt::skip]
    const STRING: &[(i128, i32, Format, &str, &str)] = &[
        (1 << 30, 0, B, "1Gi", "1024Mi"), (300 << 20, 0, B, "300Mi", "307200Ki"),
        (6 * 1024, 0, B, "6Ki", ""), (1001 << 30, 0, B, "1001Gi", "1025024Mi"),
        (1 << 40, 0, B, "1Ti", "1024Gi"), (5, 0, B, "5", "5000m"), (500, -3, B, "500m", "0.5"),
        (1, 9, D, "1G", "1000M"), (1000, 6, D, "1G", "0.001T"), (1_000_000, 3, D, "1G", ""),
        (1_000_000_000, 0, D, "1G", ""), (1, -3, D, "1m", "1000u"), (80, -3, D, "80m", ""),
        (1080, -3, D, "1080m", "1.08"), (108, -2, D, "1080m", "1080000000n"),
        (10800, -4, D, "1080m", ""), (300, 6, D, "300M", ""), (1, 12, D, "1T", ""),
        (1_234_567, 6, D, "1234567M", ""), (1_234_567, -3, B, "1234567m", ""), (3, 3, D, "3k", ""),
        (1025, 0, B, "1025", ""), (0, 0, D, "0", ""), (0, 0, B, "0", ""),
        (1, 9, X, "1e9", ".001e12"), (1, -3, X, "1e-3", "0.001e0"), (1, -9, X, "1e-9", "1000e-12"),
        (80, -3, X, "80e-3", ""), (300, 6, X, "300e6", ""), (1, 12, X, "1e12", ""),
        (1, 3, X, "1e3", ""), (3, 3, X, "3e3", ""), (3, 3, D, "3k", ""), (0, 0, X, "0", "00"),
        (1, -9, D, "1n", ""), (80, -9, D, "80n", ""), (1080, -9, D, "1080n", ""),
        (108, -8, D, "1080n", ""), (1080, -9, D, "1080n", ""), (1, -6, D, "1u", ""),
        (80, -6, D, "80u", ""), (1080, -6, D, "1080u", ""),
    ];

    #[test]
    fn canonical_string_table() {
        for &(mantissa, exponent, format, expect, alternate) in STRING {
            let value = q(mantissa, exponent, format);
            assert_eq!(value.to_string(), expect);
            assert_eq!(show(expect), expect, "re-parsed {expect}");
            if !alternate.is_empty() {
                assert_eq!(show(alternate), expect, "alternate {alternate}");
            }
            if !value.is_zero() {
                let negated = Quantity {
                    nanos: -value.nanos,
                    format,
                };
                assert_eq!(negated.to_string(), format!("-{expect}"));
            }
        }
        // Upstream's 1E, 1e21, 5e21 and 1e24 rows are beyond the kubefit range.
        for text in ["1E", "1000E", "5000E", "1000000E"] {
            assert_eq!(code(text), "quantity/overflow");
        }
        // Upstream `TestQuantityParseEmit`, also negated.
        #[rustfmt::skip]
        let emit = [
            ("1Ki", "1Ki"), ("1Mi", "1Mi"), ("1Gi", "1Gi"), ("1024Mi", "1Gi"), ("1000M", "1G"),
            (".001Ki", "1024m"), (".000001Ki", "1024u"), (".000000001Ki", "1024n"),
            (".000000000001Ki", "2n"),
        ];
        for (text, expect) in emit {
            assert_eq!(show(text), expect);
            assert_eq!(show(&format!("-{text}")), format!("-{expect}"));
        }
    }

    #[test]
    fn constructors_like_upstream() {
        // `TestMilliNewSet` (the invalid-format row has no counterpart).
        #[rustfmt::skip]
        let milli = [(1, D, "1m", true), (1000, D, "1", true), (1_234_000, D, "1234", true),
            (1024, B, "1024m", false), (1024 * 1024, B, "1048576m", false)];
        for (milli, format, expect, exact) in milli {
            assert_eq!(Quantity::from_milli(milli, format).to_string(), expect);
            assert!(!exact || p(expect).milli_value() == milli);
        }
        // `TestNewSet`.
        #[rustfmt::skip]
        let units = [(1, D, "1"), (1000, D, "1k"), (1_234_000, D, "1234k"), (1024, B, "1Ki"),
            (1024 * 1024, B, "1Mi")];
        for (units, format, expect) in units {
            assert_eq!(Quantity::from_value(units, format).to_string(), expect);
            assert_eq!(p(expect).value(), units);
        }
        // `TestNewScaledSet`, with scales as exponents.
        #[rustfmt::skip]
        let scaled = [(1, -9, "1n"), (1000, -9, "1u"), (1, -6, "1u"), (1000, -6, "1m"),
            (1, -3, "1m"), (1000, -3, "1"), (1, 0, "1"), (0, -9, "0"), (0, -6, "0"), (0, -3, "0"),
            (0, 0, "0")];
        for (mantissa, exponent, expect) in scaled {
            assert_eq!(q(mantissa, exponent, D).to_string(), expect);
            assert_eq!(p(expect), q(mantissa, exponent, D));
        }
        // `TestScaledValue`, for the scales kubefit exposes: exponent, milli-value, value.
        for (exponent, milli, units) in [(-9, 1, 1), (-6, 1, 1), (-3, 1, 1), (0, 1000, 1)] {
            let value = q(1, exponent, D);
            assert_eq!((value.milli_value(), value.value()), (milli, units));
        }
        assert_eq!(Quantity::zero().to_string(), "0");
        assert_eq!(Quantity::from_value(i64::MAX, D).milli_value(), i64::MAX);
        assert_eq!(Quantity::from_milli(i64::MIN, D).milli_value(), -i64::MAX);
    }

    #[test]
    fn compare_add_sub_like_upstream() {
        use Ordering::{Equal, Greater, Less};
        // `TestQuantityCmp`; its `10000T` is beyond the kubefit range, so `9000T` stands in.
        for (a, b, want) in [
            ("0", "0", Equal),
            ("100m", "50m", Greater),
            ("50m", "100m", Less),
            ("9000T", "100Gi", Greater),
        ] {
            assert_eq!((p(a).cmp_value(&p(b)), p(a).cmp(&p(b))), (want, want));
        }
        assert_eq!(p("1Ki"), p("1024"));
        let (zero, fifty) = (Quantity::zero(), q(50, 0, D));
        let (ten, one) = (|f| q(10, 0, f), |f| q(1, 0, f));
        // `TestAdd` and `TestSub`: operands, sum, difference, result format.
        #[rustfmt::skip]
        let table = [(ten(D), ten(D), 20, 0, D), (ten(D), one(B), 11, 9, D), (ten(B), one(D), 11, 9, B),
            (zero, fifty, 50, -50, D), (fifty, zero, 50, 50, D), (zero, zero, 0, 0, D)];
        for (a, b, sum, difference, format) in table {
            let (s, d) = (a.checked_add(b).unwrap(), a.checked_sub(b).unwrap());
            assert_eq!(
                (s.value(), s.format(), d.value(), d.format()),
                (sum, format, difference, format)
            );
        }
        // `TestQuantityAddZeroPreservesSuffix` and `TestQuantitySubZeroPreservesSuffix`.
        for text in ["100m", "1Gi"] {
            let value = p(text);
            assert_eq!(value.checked_add(zero).unwrap().to_string(), text);
            assert_eq!(zero.checked_add(value).unwrap().to_string(), text);
            assert_eq!(value.checked_sub(zero).unwrap().to_string(), text);
            assert_eq!(
                zero.checked_sub(value).unwrap().to_string(),
                format!("-{text}")
            );
        }
        let max = p("9223372036854775807m");
        assert_eq!(
            (max.checked_add(p("1m")), max.checked_add(p("1n"))),
            (None, None)
        );
        let min = zero.checked_sub(max).unwrap();
        assert_eq!(
            (min.milli_value(), min.checked_sub(p("1n"))),
            (-i64::MAX, None)
        );
    }

    #[test]
    fn parse_field_trims_like_unmarshal_json() {
        // Upstream `TestJSONWhitespace`, without the JSON quotes.
        #[rustfmt::skip]
        let table = [(" 1", "1"), ("1 ", "1"), ("1", "1"), (" 1", "1"), ("1 ", "1"), ("10", "10"), ("-1", "-1"), (" -1", "-1")];
        for (text, expect) in table {
            assert_eq!(Quantity::parse_field(text).unwrap().to_string(), expect);
        }
        assert!(Quantity::parse(" 1").is_err());
        assert_eq!(Quantity::parse_field("\t2Gi\n").unwrap().to_string(), "2Gi");
    }

    /// Upstream `TestParseQuantity`: accepted there, all beyond the kubefit range.
    #[test]
    fn upstream_large_values_overflow() {
        #[rustfmt::skip]
        let table = [
            "999999999999999999", "999999999999999999.0", "999999999999999999.1",
            "9999999999999999999", "1E", "1000000000000000000", "9999999999999999999.0", "1.0E",
            "1000000000000000000.0", "9999999999999999999000m", "9999999999999999999.1",
            "1.0000000000000000001E", "1000000000000000000.1", "1.000000000000000001E",
            "1000000000000000001", "10E", "10000000000000000000", "10.0E", "10000000000000000000.0",
            "10000000000000000000000m", "10.0000000000000000001E", "10000000000000000000.1",
            "10.000000000000000001E", "10000000000000000001", "9223372036854775806",
            "9223372036854775806.0", "9223372036854775806000m", "9223372036854775806.1",
            "9223372036854775807", "9223372036854775807.0", "9223372036854775807000m",
            "9223372036854775807.1", "9223372036854775808", "9223372036854775808.0",
            "9223372036854775808000m", "9223372036854775808.1",
        ];
        let inputs: Vec<String> = table
            .iter()
            .flat_map(|t| [String::from(*t), format!("-{t}")])
            .collect();
        for text in &inputs {
            let want = QuantityError::Overflow {
                text: text.clone(),
                negative: text.starts_with('-'),
            };
            assert_eq!(Quantity::parse(text).unwrap_err(), want);
        }
        assert_eq!(inputs.len(), 72);
    }

    /// Measured upstream behaviour, from kubefit's input-reliability notes (section 2.6).
    #[test]
    fn measured_upstream_behaviour() {
        #[rustfmt::skip]
        let overflowing = ["1e400", "1e19", "10E", "1E", "9Ei", "8Ei", "9223372036854775807", "9223372036854775808", "123456789012345678901234567890"];
        for text in overflowing {
            assert_eq!(code(text), "quantity/overflow", "{text}");
        }
        // Upstream echoes `+1` and `1.` back from String(); kubefit prints the canonical form.
        #[rustfmt::skip]
        let table = [
            ("0.0000000001m", "1n", 1, 1), ("5e-10", "1e-9", 1, 1), ("1e-400", "1e-9", 1, 1),
            ("0.1m", "100u", 1, 1), ("1.5Gi", "1536Mi", 1_610_612_736, 1_610_612_736_000),
            ("0.5Ki", "512", 512, 512_000), (".5", "500m", 1, 500), ("+1", "1", 1, 1000),
            ("1.", "1", 1, 1000), ("-1", "-1", -1, -1000), ("-100m", "-100m", -1, -100),
            (".", "0", 0, 0), ("-", "0", 0, 0), ("+", "0", 0, 0), ("0.", "0", 0, 0), (".e3", "0", 0, 0),
        ];
        for (text, canonical, units, milli) in table {
            let value = p(text);
            assert_eq!(
                (
                    value.to_string().as_str(),
                    value.value(),
                    value.milli_value()
                ),
                (canonical, units, milli),
                "{text}"
            );
        }
        for text in ["1K", "1e", "1e+", "1e-", "1ee3", "1m1", "1Ki1"] {
            assert_eq!(code(text), "quantity/suffix", "{text}");
        }
        for text in ["1KiB", " 1", "", "1µ", "1.5.5", "1e1.5", "1E3Ki"] {
            assert_eq!(code(text), "quantity/syntax", "{text}");
        }
    }

    #[test]
    fn digitless_numbers() {
        #[rustfmt::skip]
        let digitless = [".", "+", "-", "-.", ".e3", "e3", "k", "+Mi", "Ti", " . ", "n", "e-9"];
        for text in digitless {
            assert!(
                suspicious(text) && Quantity::parse_field(text).unwrap().is_zero(),
                "{text}"
            );
        }
        for text in ["0", "0.", ".0", "1", "0e3", "", "x", ".e-10", "Pi"] {
            assert!(!suspicious(text), "{text}");
        }
        // Upstream's big-decimal path refuses these instead of reading 0.
        for text in [".e-10", "e-10", "+E-12", "Pi", ".Ei"] {
            let want = QuantityError::NoDigits {
                text: String::from(text),
            };
            assert_eq!(Quantity::parse(text).unwrap_err(), want);
        }
        assert!(p("0Pi").is_zero() && p("0e-10").is_zero());
        assert_eq!(p(".e3").format(), X);
    }

    #[test]
    fn exponents_are_bounded_and_fast() {
        let start = std::time::Instant::now();
        #[rustfmt::skip]
        let out_of_range = ["1e2147483648", "1e-2147483648", "1e4294967296", "1e-2147483649", "1e99999999999999999999"];
        for text in out_of_range {
            assert_eq!(code(text), "quantity/exponent-range", "{text}");
        }
        assert_eq!(code("1e2147483647"), "quantity/overflow");
        assert_eq!(
            (p("1e-2147483647").nanos, p("-1e-2147483647").nanos),
            (1, -1)
        );
        assert!(
            p("0e2147483647").is_zero()
                && p("0.000e+00000000000000000000000002147483647").is_zero()
        );
        assert_eq!(p("1e0000000000000000000000000003").value(), 1000);
        let zeros = "0".repeat(100_000);
        assert_eq!(p(&format!("{zeros}1")).value(), 1);
        assert_eq!(p(&format!("0.{zeros}1")).nanos, 1);
        assert_eq!(p(&format!("1.{zeros}1Ki")).nanos, 1024 * NANOS_PER_UNIT + 1);
        assert_eq!(p(&format!("1.{zeros}Pi")).value(), 1 << 50);
        assert_eq!(code(&format!("1{zeros}")), "quantity/overflow");
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn limits_rounding_and_canonical_forms() {
        assert_eq!(p("9223372036854775807m").milli_value(), i64::MAX);
        assert_eq!(p("-9223372036854775807m").milli_value(), -i64::MAX);
        assert_eq!(p("9223372036854775.807").value(), 9_223_372_036_854_776);
        assert_eq!(
            (p("8191Ti").value(), p("8Pi").value()),
            (8191 << 40, 8 << 50)
        );
        #[rustfmt::skip]
        let too_large = ["9223372036854775808m", "9223372036854775.8071", "9Pi", "1Ei"];
        for text in too_large {
            assert_eq!(code(text), "quantity/overflow", "{text}");
        }
        let below = Quantity::parse("-9223372036854775808m");
        assert!(matches!(
            below,
            Err(QuantityError::Overflow { negative: true, .. })
        ));
        assert_eq!((p("-0.5m").milli_value(), p("-1.5").value()), (-1, -2));
        assert!(p("2").is_integer() && p("2000m").is_integer() && !p("2001m").is_integer());
        assert!(!p("1.0000001").is_integer());
        assert!(p("-1").is_negative() && !p("-0").is_negative() && p("-0").is_zero());
        #[rustfmt::skip]
        let table = [
            ("1.1Ki", "1126400m"), ("-0.0000000001", "-1n"), ("1e3", "1e3"), ("10e3", "10e3"),
            ("100e3", "100e3"), ("1000e3", "1e6"), ("12345e-2", "123450e-3"), ("1.5Ki", "1536"),
            ("1023Ki", "1023Ki"), ("1025Ki", "1025Ki"), ("-2048", "-2048"), ("0.5Gi", "512Mi"),
            ("4Pi", "4Pi"), ("1.0000001", "1000000100n"), ("1E-3", "1e-3"), ("01", "1"),
        ];
        for (text, canonical) in table {
            assert_eq!(show(text), canonical, "{text}");
        }
        assert_eq!(format!("[{:>6}]", p("1Gi")), "[   1Gi]");
    }

    #[test]
    fn error_messages() {
        let msg = |text: &str| Quantity::parse(text).unwrap_err().to_string();
        assert_eq!(
            msg("1e400"),
            "quantity `1e400` is too large: it must be at most 9223372036854775807m"
        );
        assert_eq!(
            msg("-1e400"),
            "quantity `-1e400` is too small: it must be at least -9223372036854775807m"
        );
        assert_eq!(
            msg("1K"),
            "quantity `1K` has an unknown suffix `K`: did you mean `k` (1000) or `Ki` (1024)?"
        );
        assert!(msg("1KiB").contains("'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
        assert!(msg("1 ").ends_with("(surrounding whitespace is not allowed)"));
        assert!(msg("").starts_with("quantity is empty"));
        assert!(msg("1e").contains("exponent") && msg("1e4294967296").contains("exponent outside"));
        assert_eq!(msg(".e-10"), "quantity `.e-10` has no digits");
        let shown = msg(&format!("{}x", "é".repeat(100)));
        assert!(shown.contains('…') && shown.len() < 300, "{shown}");
        for text in ["1e400", "1K", "1KiB", "1e4294967296", ".e-10", ""] {
            let m = msg(text);
            assert!(m.starts_with("quantity") && !m.ends_with('.'), "{m}");
        }
    }

    #[test]
    fn serializes_as_canonical_string() {
        assert_eq!(serde_json::to_string(&p("1.5Gi")).unwrap(), "\"1536Mi\"");
        assert_eq!(serde_json::to_string(&p(".5")).unwrap(), "\"500m\"");
        assert_eq!(serde_json::to_string(&Quantity::zero()).unwrap(), "\"0\"");
    }

    /// A small deterministic generator for the property check.
    fn lcg(state: &mut u64) -> u64 {
        *state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        *state >> 11
    }

    #[test]
    fn property_round_trips() {
        let mut state = 7u64;
        for i in 0..20_000u32 {
            let r = lcg(&mut state);
            let magnitude = match i % 4 {
                0 => i128::from(r % 10_000),
                1 => i128::from(r % 100_000) * NANOS_PER_UNIT,
                2 => (i128::from(r % 1024) << (10 * (r % 5))) * NANOS_PER_UNIT,
                _ => i128::from(r) * i128::from(lcg(&mut state)) % (MAX_NANOS + 1),
            };
            let nanos = if r % 3 == 1 { -magnitude } else { magnitude };
            let format = [D, B, X][(r % 3) as usize];
            let text = Quantity { nanos, format }.to_string();
            let back = p(&text);
            assert_eq!(back.nanos, nanos, "{text}");
            // A binary value printed in decimal form reads back as decimal, so only the
            // second round is sure to be stable (as upstream).
            let again = back.to_string();
            assert!(format == B || again == text, "{text}");
            assert_eq!(show(&again), again);
            // The milli-value rounds away from zero.
            let milli = i128::from(back.milli_value()) * NANOS_PER_MILLI;
            assert!(
                (milli - nanos).abs() < NANOS_PER_MILLI && milli.abs() >= nanos.abs(),
                "{text}"
            );
            // Plain decimal spellings give the same value.
            let (whole, frac) = (nanos.abs() / NANOS_PER_UNIT, nanos.abs() % NANOS_PER_UNIT);
            let sign = if nanos < 0 { "-" } else { "" };
            assert_eq!(p(&format!("{sign}{whole}.{frac:09}")).nanos, nanos);
            assert_eq!(p(&format!("{sign}{whole}{frac:09}e-9")).nanos, nanos);
        }
    }
}
