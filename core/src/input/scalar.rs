//! What a plain scalar means, the way kubectl reads YAML (YAML 1.1 through go-yaml v2).
//!
//! kubectl turns YAML into JSON with `sigs.k8s.io/yaml`, which resolves unquoted scalars by
//! YAML 1.1 rules (go-yaml v2 `resolve.go`): `yes`, `on` and `y` are booleans, `0644` is octal,
//! `1_000` is 1000, `1e400` stays a string because it does not fit a float. The API server
//! then decodes that JSON into typed fields, so an unquoted `4` in a label is an error there.
//! JSON scalars resolve the same way: every JSON literal means the same under these rules.

/// The meaning of an unquoted scalar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Plain {
    /// `~`, `null`, or nothing at all.
    Null,
    /// `true`, `yes`, `on`, `y` and their opposites, in their YAML 1.1 spellings.
    Bool(bool),
    /// An integer in decimal, `0x` hex, `0o` or leading-zero octal, or `0b` binary.
    Int(i128),
    /// A float that fits an f64 (including `.inf` and `.nan`).
    Float(f64),
    /// Anything else: a string.
    Str,
}

/// Resolves an unquoted scalar as go-yaml v2 does.
pub(crate) fn resolve(text: &str) -> Plain {
    // Every special spelling and every number starts with one of these.
    if !matches!(
        text.as_bytes().first(),
        None | Some(
            b'~' | b'n'
                | b'N'
                | b'y'
                | b'Y'
                | b't'
                | b'T'
                | b'f'
                | b'F'
                | b'o'
                | b'O'
                | b'.'
                | b'+'
                | b'-'
                | b'0'..=b'9'
        )
    ) {
        return Plain::Str;
    }
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Plain::Null,
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            return Plain::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            return Plain::Bool(false)
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Plain::Float(f64::INFINITY)
        }
        "-.inf" | "-.Inf" | "-.INF" => return Plain::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Plain::Float(f64::NAN),
        _ => {}
    }
    let first = text.as_bytes().first().copied().unwrap_or(b' ');
    if !(first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'.')) {
        return Plain::Str;
    }
    let digits: alloc::borrow::Cow<'_, str> = if text.contains('_') {
        // go-yaml drops every `_` from a scalar that starts with a sign or a digit, but
        // hands one that starts with `.` to `strconv.ParseFloat` as written, which takes
        // a `_` only between two digits (`.5_0`, not `._5`, `.5_` or `.5e_1`).
        if first == b'.' && !underscores_between_digits(text) {
            return Plain::Str;
        }
        text.chars().filter(|&c| c != '_').collect()
    } else {
        text.into()
    };
    if let Some(value) = parse_int(&digits) {
        return Plain::Int(value);
    }
    if is_yaml_float(&digits) {
        if let Ok(value) = digits.parse::<f64>() {
            if value.is_finite() {
                return Plain::Float(value);
            }
        }
    }
    Plain::Str
}

/// Go's `strconv.ParseInt(text, 0, 64)`, widened to the unsigned range as go-yaml does.
fn parse_int(text: &str) -> Option<i128> {
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, text.get(1..)?),
        b'+' => (false, text.get(1..)?),
        _ => (false, text),
    };
    let (radix, body) = if let Some(rest) = unsigned
        .strip_prefix("0x")
        .or_else(|| unsigned.strip_prefix("0X"))
    {
        (16, rest)
    } else if let Some(rest) = unsigned
        .strip_prefix("0o")
        .or_else(|| unsigned.strip_prefix("0O"))
    {
        (8, rest)
    } else if let Some(rest) = unsigned
        .strip_prefix("0b")
        .or_else(|| unsigned.strip_prefix("0B"))
    {
        (2, rest)
    } else if unsigned.len() > 1 && unsigned.starts_with('0') {
        (8, unsigned.get(1..)?)
    } else {
        (10, unsigned)
    };
    if body.is_empty() || !body.bytes().all(|b| (b as char).is_digit(radix)) {
        return None;
    }
    let magnitude = u64::from_str_radix(body, radix).ok()?;
    let value = i128::from(magnitude);
    if negative {
        let value = value.checked_neg()?;
        (value >= i128::from(i64::MIN)).then_some(value)
    } else {
        Some(value)
    }
}

/// True when every `_` in `text` stands between two ASCII digits, the only place Go's
/// `strconv` (`underscoreOK`, for a number without a base prefix) accepts one.
fn underscores_between_digits(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().all(|(at, &byte)| {
        byte != b'_'
            || (at > 0
                && bytes.get(at - 1).is_some_and(u8::is_ascii_digit)
                && bytes.get(at + 1).is_some_and(u8::is_ascii_digit))
    })
}

/// go-yaml v2's float pattern: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn is_yaml_float(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut at = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let digits = |from: usize| {
        bytes
            .iter()
            .skip(from)
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let whole = digits(at);
    at += whole;
    if bytes.get(at) == Some(&b'.') {
        at += 1;
        let fraction = digits(at);
        if whole == 0 && fraction == 0 {
            return false;
        }
        at += fraction;
    } else if whole == 0 {
        return false;
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        at += 1;
        at += usize::from(matches!(bytes.get(at), Some(b'+' | b'-')));
        let exponent = digits(at);
        if exponent == 0 {
            return false;
        }
        at += exponent;
    }
    at == bytes.len()
}

/// The integer a float stands for once kubectl has turned the YAML into JSON: Go's encoder
/// writes an integral float64 below 1e21 without a fraction (`5.0` as `5`, `1e3` as
/// `1000`), which integer fields accept; a fraction, 1e21 and beyond (written with an
/// exponent) and non-finite values are no integer.
pub(crate) fn integral(value: f64) -> Option<i128> {
    if !(value > -1e21 && value < 1e21) {
        return None;
    }
    // Exact for an integral value in this range (below 2^70).
    #[allow(clippy::cast_possible_truncation)]
    let whole = value as i128;
    #[allow(clippy::cast_precision_loss)]
    let exact = whole as f64 == value;
    exact.then_some(whole)
}

/// What kubectl makes of a plain scalar used as a mapping key.
#[derive(Debug, PartialEq)]
pub(crate) enum Key {
    /// The text as written (a string).
    Text,
    /// Another spelling (`y` is `true`, `0x10` is `16`, `1.0` is `1`).
    Converted(alloc::string::String),
    /// No JSON key: `sigs.k8s.io/yaml` refuses the document (what the key is).
    Unsupported(&'static str),
}

/// How kubectl spells a resolved plain scalar when it becomes a JSON object key:
/// `sigs.k8s.io/yaml` (`convertToJSONableObject`) writes booleans and integers as JSON
/// would, a float with `strconv.FormatFloat(key, 'g', -1, 32)`, and refuses a null key
/// or an integer beyond int64 (go-yaml's uint64).
pub(crate) fn key_text(text: &str) -> Key {
    use alloc::string::ToString;
    match resolve(text) {
        Plain::Bool(value) => Key::Converted(value.to_string()),
        Plain::Int(value) if i64::try_from(value).is_ok() => Key::Converted(value.to_string()),
        Plain::Int(_) => Key::Unsupported("an integer beyond int64"),
        Plain::Float(value) => Key::Converted(float_key(value)),
        Plain::Null => Key::Unsupported("null"),
        Plain::Str => Key::Text,
    }
}

/// Go's `strconv.FormatFloat(value, 'g', -1, 32)`, with go-yaml's names for the
/// non-finite values: the shortest digits that read back as the same float32, laid out
/// as `%e` (at least two exponent digits) when the exponent is below -4 or at least 6
/// (shortest `'g'` uses a precision of 6 for this choice), as `%f` otherwise.
fn float_key(value: f64) -> alloc::string::String {
    use alloc::string::String;
    // Rounds to nearest, ties to even, and overflows to infinity, as Go's float32().
    #[allow(clippy::cast_possible_truncation)]
    let single = value as f32;
    if single.is_nan() {
        return ".nan".into();
    }
    if single.is_infinite() {
        return if single > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    // Rust prints the same shortest round-trip digits, as `d.ddde-x`.
    let scientific = alloc::format!("{:e}", single.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let mut out = String::new();
    if single.is_sign_negative() {
        out.push('-');
    }
    let (lead, rest) = digits.split_at(1.min(digits.len()));
    if !(-4..6).contains(&exponent) {
        out.push_str(lead);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        let sign = if exponent < 0 { '-' } else { '+' };
        out.push_str(&alloc::format!("e{sign}{:02}", exponent.unsigned_abs()));
    } else if exponent < 0 {
        out.push_str("0.");
        for _ in exponent..-1 {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        // exponent + 1 digits before the point, padded with zeros.
        let whole = usize::try_from(exponent).unwrap_or(0) + 1;
        let (before, after) = digits.split_at(whole.min(digits.len()));
        out.push_str(before);
        for _ in digits.len()..whole {
            out.push('0');
        }
        if !after.is_empty() {
            out.push('.');
            out.push_str(after);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_like_go_yaml_v2() {
        // Values measured with sigs.k8s.io/yaml 1.3.0 + gopkg.in/yaml.v2 2.4.0 (reference notes).
        assert_eq!(resolve("yes"), Plain::Bool(true));
        assert_eq!(resolve("y"), Plain::Bool(true));
        assert_eq!(resolve("NO"), Plain::Bool(false));
        assert_eq!(resolve("on"), Plain::Bool(true));
        assert_eq!(resolve("0755"), Plain::Int(493));
        assert_eq!(resolve("012345678"), Plain::Float(12_345_678.0));
        assert_eq!(resolve("08"), Plain::Float(8.0));
        assert_eq!(resolve("0o17"), Plain::Int(15));
        assert_eq!(resolve("1_000"), Plain::Int(1000));
        assert_eq!(resolve("1.10"), Plain::Float(1.1));
        assert_eq!(resolve("0x1F"), Plain::Int(31));
        assert_eq!(resolve("1e3"), Plain::Float(1000.0));
        assert_eq!(resolve("+1"), Plain::Int(1));
        assert_eq!(resolve(".5"), Plain::Float(0.5));
        assert_eq!(resolve("~"), Plain::Null);
        assert_eq!(resolve(""), Plain::Null);
        assert_eq!(
            resolve("9223372036854775808"),
            Plain::Int(9_223_372_036_854_775_808)
        );
        assert_eq!(resolve("1e400"), Plain::Str);
        assert_eq!(resolve("2001-12-14"), Plain::Str);
        assert_eq!(resolve("100m"), Plain::Str);
        assert_eq!(resolve("Yes please"), Plain::Str);
        assert_eq!(resolve("-"), Plain::Str);
        assert_eq!(resolve("."), Plain::Str);
        assert!(matches!(resolve(".inf"), Plain::Float(v) if v.is_infinite()));
    }

    #[test]
    fn integral_floats_are_the_integers_kubectl_writes() {
        assert_eq!(integral(5.0), Some(5));
        assert_eq!(integral(-0.0), Some(0));
        assert_eq!(integral(1e20), Some(100_000_000_000_000_000_000));
        // 2^63 + 1 is no float64: the value is 2^63, as Go marshals it.
        assert_eq!(
            integral(9_223_372_036_854_775_809.0),
            Some(9_223_372_036_854_775_808)
        );
        assert_eq!(integral(5.5), None);
        assert_eq!(integral(1e21), None);
        assert_eq!(integral(f64::NAN), None);
        assert_eq!(integral(f64::NEG_INFINITY), None);
    }

    #[test]
    fn keys_become_json_strings_like_kubectl() {
        let converted = |text: &str| Key::Converted(text.into());
        assert_eq!(key_text("y"), converted("true"));
        assert_eq!(key_text("4"), converted("4"));
        assert_eq!(key_text("0x10"), converted("16"));
        assert_eq!(key_text("1.0"), converted("1"));
        assert_eq!(key_text("app"), Key::Text);
        assert_eq!(key_text("~"), Key::Unsupported("null"));
        assert_eq!(key_text("null"), Key::Unsupported("null"));
        assert_eq!(key_text(""), Key::Unsupported("null"));
        assert_eq!(
            key_text("9223372036854775807"),
            converted("9223372036854775807")
        );
        assert_eq!(
            key_text("9223372036854775808"),
            Key::Unsupported("an integer beyond int64")
        );
    }

    #[test]
    fn float_keys_are_written_as_go_formats_a_float32() {
        // strconv.FormatFloat(v, 'g', -1, 32), measured with Go 1.19.
        for (text, expected) in [
            ("1.0", "1"),
            ("08", "8"),
            ("1e3", "1000"),
            (".5", "0.5"),
            ("-1.5", "-1.5"),
            ("3.14159265", "3.1415927"),
            ("123456789.5", "1.2345679e+08"),
            ("123456.0", "123456"),
            ("1234567.0", "1.234567e+06"),
            ("12345678.0", "1.2345678e+07"),
            ("999999.0", "999999"),
            ("9999999.0", "9.999999e+06"),
            ("99999999.0", "1e+08"),
            ("100000.0", "100000"),
            ("1e6", "1e+06"),
            ("1e20", "1e+20"),
            ("1e21", "1e+21"),
            ("1e-4", "0.0001"),
            ("1e-5", "1e-05"),
            ("0.1", "0.1"),
            ("9.999999e-5", "9.999999e-05"),
            ("12345.678", "12345.678"),
            ("16777217.0", "1.6777216e+07"),
            ("3.4028235e38", "3.4028235e+38"),
            ("4e38", ".inf"),
            ("-4e38", "-.inf"),
            ("1e-300", "0"),
            ("1.5e-45", "1e-45"),
            ("1e-40", "1e-40"),
            ("0.0", "0"),
            ("-0.0", "-0"),
            (".inf", ".inf"),
            ("-.Inf", "-.inf"),
            (".NaN", ".nan"),
        ] {
            assert_eq!(key_text(text), Key::Converted(expected.into()), "{text}");
        }
    }

    #[test]
    fn a_dot_float_takes_underscores_only_between_digits() {
        // go-yaml v2 resolve.go: ParseFloat on the text as written (Go 1.19 strconv).
        for text in ["._5", ".5_", ".5__0", ".5e_1", "._"] {
            assert_eq!(resolve(text), Plain::Str, "{text}");
        }
        assert_eq!(resolve(".5_5"), Plain::Float(0.55));
        assert_eq!(resolve(".5e1_0"), Plain::Float(5e9));
        // With a sign or a digit first, every underscore is dropped before parsing.
        assert_eq!(resolve("-._5"), Plain::Float(-0.5));
        assert_eq!(resolve("1__0."), Plain::Float(10.0));
        assert_eq!(resolve("_1"), Plain::Str);
        assert_eq!(resolve("1_"), Plain::Int(1));
    }
}
