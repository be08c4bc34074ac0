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

/// How kubectl spells a resolved plain scalar when it becomes a JSON object key.
pub(crate) fn key_text(text: &str) -> Option<alloc::string::String> {
    use alloc::string::ToString;
    match resolve(text) {
        Plain::Bool(value) => Some(value.to_string()),
        Plain::Int(value) => Some(value.to_string()),
        Plain::Null => Some("null".into()),
        Plain::Float(_) | Plain::Str => None,
    }
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
        assert_eq!(key_text("y").as_deref(), Some("true"));
        assert_eq!(key_text("4").as_deref(), Some("4"));
        assert_eq!(key_text("app"), None);
    }
}
