//! The API server's string formats: DNS names, label keys and values, port names.
//!
//! Each check returns upstream's error strings for the value, in upstream's order, and
//! an empty list (which does not allocate) for a valid value. The formats are
//! upstream's anchored regular expressions, matched here by hand on bytes, as Go's
//! `len` counts bytes.
//!
//! Upstream has two generations of these helpers with different length messages:
//! `k8s.io/apimachinery/pkg/util/validation` (DNS labels and subdomains, used for object
//! names) says `must be no more than 63 characters`, while `pkg/api/validate/content`
//! (label keys and values, including a label key's DNS prefix) says `... 63 bytes`.
//! Both are reproduced where upstream uses them.

use alloc::vec::Vec;

/// `dns1123LabelFmt`.
macro_rules! dns1123_label_fmt {
    () => {
        "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
    };
}

/// `dns1123SubdomainFmt`.
macro_rules! dns1123_subdomain_fmt {
    () => {
        concat!(dns1123_label_fmt!(), "(\\.", dns1123_label_fmt!(), ")*")
    };
}

/// `labelKeyFmt` (the name part of a qualified name).
macro_rules! label_key_fmt {
    () => {
        "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
    };
}

/// `labelKeyErrMsg` with its examples, as `RegexError` formats them.
macro_rules! label_key_regex_error {
    () => {
        concat!(
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '",
            label_key_fmt!(),
            "')"
        )
    };
}

/// `RegexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, "example.com")`.
macro_rules! dns1123_subdomain_regex_error {
    () => {
        concat!(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '",
            dns1123_subdomain_fmt!(),
            "')"
        )
    };
}

/// A DNS-1123 label is longer than 63 bytes (`util/validation` wording).
pub const DNS1123_LABEL_TOO_LONG: &str = "must be no more than 63 characters";
/// A DNS-1123 label does not match its format.
pub const DNS1123_LABEL_FORMAT: &str = concat!(
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '",
    dns1123_label_fmt!(),
    "')"
);
/// A DNS-1123 label that would be a valid subdomain but for its dots.
pub const DNS1123_LABEL_DOTS: &str = "must not contain dots";
/// A DNS-1123 subdomain is longer than 253 bytes (`util/validation` wording).
pub const DNS1123_SUBDOMAIN_TOO_LONG: &str = "must be no more than 253 characters";
/// A DNS-1123 subdomain does not match its format.
pub const DNS1123_SUBDOMAIN_FORMAT: &str = dns1123_subdomain_regex_error!();
/// A DNS-1035 label is longer than 63 bytes.
pub const DNS1035_LABEL_TOO_LONG: &str = "must be no more than 63 characters";
/// A DNS-1035 label does not match its format.
pub const DNS1035_LABEL_FORMAT: &str = concat!(
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '",
    "[a-z]([-a-z0-9]*[a-z0-9])?",
    "')"
);
/// A label key with more than one `/`.
pub const LABEL_KEY_FORMAT: &str = concat!(
    "a valid label key ",
    label_key_regex_error!(),
    " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
);
/// A label key with an empty prefix (`/name`).
pub const LABEL_KEY_PREFIX_EMPTY: &str = "prefix part must be non-empty";
/// A label key prefix longer than 253 bytes.
pub const LABEL_KEY_PREFIX_TOO_LONG: &str = "prefix part must be no more than 253 bytes";
/// A label key prefix that is not a DNS subdomain.
pub const LABEL_KEY_PREFIX_FORMAT: &str = concat!("prefix part ", dns1123_subdomain_regex_error!());
/// A label key with an empty name part.
pub const LABEL_KEY_NAME_EMPTY: &str = "name part must be non-empty";
/// A label key whose name part is longer than 63 bytes.
pub const LABEL_KEY_NAME_TOO_LONG: &str = "name part must be no more than 63 bytes";
/// A label key whose name part does not match its format.
pub const LABEL_KEY_NAME_FORMAT: &str = concat!("name part ", label_key_regex_error!());
/// A label value longer than 63 bytes.
pub const LABEL_VALUE_TOO_LONG: &str = "must be no more than 63 bytes";
/// A label value that does not match its format.
pub const LABEL_VALUE_FORMAT: &str = concat!(
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(",
    label_key_fmt!(),
    ")?')"
);
/// A percentage that is not digits followed by `%`.
pub const PERCENT_FORMAT: &str = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/// `IsDNS1123Label`: namespace names, container names, volume names.
#[must_use]
pub fn dns1123_label(value: &str) -> Vec<&'static str> {
    dns1123_label_bytes(value.as_bytes())
}

/// [`dns1123_label`] on bytes, for names built on the stack.
pub(super) fn dns1123_label_bytes(value: &[u8]) -> Vec<&'static str> {
    let mut errors = Vec::new();
    if value.len() > 63 {
        errors.push(DNS1123_LABEL_TOO_LONG);
    }
    if !is_dns_label_format(value) {
        if is_subdomain_format(value) {
            // A valid subdomain that is not a label must contain dots (upstream's reasoning).
            errors.push(DNS1123_LABEL_DOTS);
        } else {
            errors.push(DNS1123_LABEL_FORMAT);
        }
    }
    errors
}

/// `IsDNS1123Subdomain`: the names of pods, nodes, priority classes and most kinds.
#[must_use]
pub fn dns1123_subdomain(value: &str) -> Vec<&'static str> {
    dns1123_subdomain_bytes(value.as_bytes())
}

/// [`dns1123_subdomain`] on bytes, for names built on the stack.
pub(super) fn dns1123_subdomain_bytes(value: &[u8]) -> Vec<&'static str> {
    let mut errors = Vec::new();
    if value.len() > 253 {
        errors.push(DNS1123_SUBDOMAIN_TOO_LONG);
    }
    if !is_subdomain_format(value) {
        errors.push(DNS1123_SUBDOMAIN_FORMAT);
    }
    errors
}

/// `IsDNS1035Label`: service names.
#[must_use]
pub fn dns1035_label(value: &str) -> Vec<&'static str> {
    dns1035_label_bytes(value.as_bytes())
}

/// [`dns1035_label`] on bytes, for names built on the stack.
pub(super) fn dns1035_label_bytes(bytes: &[u8]) -> Vec<&'static str> {
    let mut errors = Vec::new();
    if bytes.len() > 63 {
        errors.push(DNS1035_LABEL_TOO_LONG);
    }
    let starts_with_letter = bytes.first().is_some_and(u8::is_ascii_lowercase);
    if !(starts_with_letter && is_dns_label_format(bytes)) {
        errors.push(DNS1035_LABEL_FORMAT);
    }
    errors
}

/// `IsQualifiedName` / `IsLabelKey`: label keys, taint and toleration keys, topology keys.
#[must_use]
pub fn qualified_name(value: &str) -> Vec<&'static str> {
    label_key(value, false)
}

/// Annotation keys: a qualified name, except that case does not matter
/// (`ValidateAnnotations` lower-cases the key before checking it).
#[must_use]
pub fn annotation_key(value: &str) -> Vec<&'static str> {
    label_key(value, true)
}

fn label_key(value: &str, ignore_case: bool) -> Vec<&'static str> {
    let mut errors = Vec::new();
    let mut parts = value.split('/');
    let (prefix, name) = match (parts.next(), parts.next(), parts.next()) {
        (Some(name), None, _) => (None, name),
        (Some(prefix), Some(name), None) => (Some(prefix), name),
        _ => {
            errors.push(LABEL_KEY_FORMAT);
            return errors;
        }
    };
    if let Some(prefix) = prefix {
        if prefix.is_empty() {
            errors.push(LABEL_KEY_PREFIX_EMPTY);
        } else {
            if prefix.len() > 253 {
                errors.push(LABEL_KEY_PREFIX_TOO_LONG);
            }
            let format_ok = if ignore_case {
                is_subdomain_format_ignoring_case(prefix.as_bytes())
            } else {
                is_subdomain_format(prefix.as_bytes())
            };
            if !format_ok {
                errors.push(LABEL_KEY_PREFIX_FORMAT);
            }
        }
    }
    if name.is_empty() {
        errors.push(LABEL_KEY_NAME_EMPTY);
    } else if name.len() > 63 {
        errors.push(LABEL_KEY_NAME_TOO_LONG);
    }
    if !is_label_name_format(name.as_bytes()) {
        errors.push(LABEL_KEY_NAME_FORMAT);
    }
    errors
}

/// `IsValidLabelValue`: label values, taint values, selector values. May be empty.
#[must_use]
pub fn label_value(value: &str) -> Vec<&'static str> {
    let mut errors = Vec::new();
    if value.len() > 63 {
        errors.push(LABEL_VALUE_TOO_LONG);
    }
    if !value.is_empty() && !is_label_name_format(value.as_bytes()) {
        errors.push(LABEL_VALUE_FORMAT);
    }
    errors
}

/// `IsValidPortName`: at most 15 bytes of `[-a-z0-9]`, with a letter, no `--`, and no
/// hyphen at either end.
#[must_use]
pub fn port_name(value: &str) -> Vec<&'static str> {
    let mut errors = Vec::new();
    let bytes = value.as_bytes();
    if bytes.len() > 15 {
        errors.push("must be no more than 15 characters");
    }
    if bytes.is_empty()
        || !bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
    {
        errors.push("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
    }
    if !bytes.iter().any(u8::is_ascii_lowercase) {
        errors.push("must contain at least one letter (a-z)");
    }
    if value.contains("--") {
        errors.push("must not contain consecutive hyphens");
    }
    if bytes.first() == Some(&b'-') || bytes.last() == Some(&b'-') {
        errors.push("must not begin or end with a hyphen");
    }
    errors
}

/// `IsValidPercent`: `[0-9]+%`.
#[must_use]
pub fn is_percent(value: &str) -> bool {
    value
        .strip_suffix('%')
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// `IsPathSegmentName`, the name rule of kinds without one of their own: not `.` or
/// `..`, and no `/` or `%`.
#[must_use]
pub fn path_segment_name(value: &str) -> Vec<&'static str> {
    match value {
        "." => alloc::vec!["may not be '.'"],
        ".." => alloc::vec!["may not be '..'"],
        _ => {
            let mut errors = Vec::new();
            if value.contains('/') {
                errors.push("may not contain '/'");
            }
            if value.contains('%') {
                errors.push("may not contain '%'");
            }
            errors
        }
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
fn is_dns_label_format(bytes: &[u8]) -> bool {
    let alphanumeric = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            alphanumeric(first)
                && alphanumeric(last)
                && bytes.iter().all(|b| alphanumeric(b) || *b == b'-')
        }
        _ => false,
    }
}

/// `dns1123SubdomainFmt`: dot-separated DNS labels (each label's length is not limited).
fn is_subdomain_format(bytes: &[u8]) -> bool {
    bytes.split(|b| *b == b'.').all(is_dns_label_format)
}

fn is_subdomain_format_ignoring_case(bytes: &[u8]) -> bool {
    bytes.split(|b| *b == b'.').all(|label| {
        let alphanumeric = |b: &u8| b.is_ascii_alphanumeric();
        match (label.first(), label.last()) {
            (Some(first), Some(last)) => {
                alphanumeric(first)
                    && alphanumeric(last)
                    && label.iter().all(|b| alphanumeric(b) || *b == b'-')
            }
            _ => false,
        }
    })
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
fn is_label_name_format(bytes: &[u8]) -> bool {
    match (bytes.first(), bytes.last()) {
        (Some(first), Some(last)) => {
            first.is_ascii_alphanumeric()
                && last.is_ascii_alphanumeric()
                && bytes
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    //! Cases ported from upstream's `api/validate/content/dns_test.go`, `kube_test.go`
    //! and `util/validation/validation_test.go`, plus the exact messages.

    use super::*;
    use alloc::string::String;

    fn repeat(c: &str, n: usize) -> String {
        c.repeat(n)
    }

    #[test]
    fn dns1123_labels() {
        let good = [
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
        ];
        for value in good
            .iter()
            .copied()
            .map(String::from)
            .chain([repeat("a", 63)])
        {
            assert!(dns1123_label(&value).is_empty(), "{value:?}");
        }
        let bad = [
            "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_",
            "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ",
            " a", "a b", "1 ", " 1", "1 2",
        ];
        for value in bad
            .iter()
            .copied()
            .map(String::from)
            .chain([repeat("a", 64)])
        {
            assert!(!dns1123_label(&value).is_empty(), "{value:?}");
        }
        assert_eq!(dns1123_label("a.b"), [DNS1123_LABEL_DOTS]);
        assert_eq!(dns1123_label("a_b"), [DNS1123_LABEL_FORMAT]);
        assert_eq!(dns1123_label(&repeat("a", 64)), [DNS1123_LABEL_TOO_LONG]);
        assert_eq!(
            DNS1123_LABEL_FORMAT,
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        );
    }

    #[test]
    fn dns1123_subdomains() {
        let good = [
            "a",
            "ab",
            "abc",
            "a1",
            "a-1",
            "a--1--2--b",
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "a.a",
            "ab.a",
            "abc.a",
            "a1.a",
            "a-1.a",
            "a--1--2--b.a",
            "a.1",
            "ab.1",
            "abc.1",
            "a1.1",
            "a-1.1",
            "a--1--2--b.1",
            "0.a",
            "01.a",
            "012.a",
            "1a.a",
            "1-a.a",
            "0.1",
            "01.1",
            "012.1",
            "1a.1",
            "1-a.1",
            "1--a--b--2.1",
            "a.b.c.d.e",
            "aa.bb.cc.dd.ee",
            "1.2.3.4.5",
            "11.22.33.44.55",
        ];
        for value in good
            .iter()
            .copied()
            .map(String::from)
            .chain([repeat("a", 253)])
        {
            assert!(dns1123_subdomain(&value).is_empty(), "{value:?}");
        }
        let bad = [
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a..b",
            "1.",
            ".1",
            "1..2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
            "A.a",
            "aB.a",
            "ab.A",
            "A1.a",
            "a1.A",
            "A.1",
            "aB.1",
            "A1.1",
            "1A.1",
            "0.A",
            "01.A",
            "012.A",
            "1A.a",
            "1a.A",
            "A.B.C.D.E",
            "AA.BB.CC.DD.EE",
            "a.B.c.d.e",
            "aa.bB.cc.dd.ee",
            "a@b",
            "a,b",
            "a_b",
            "a;b",
            "a:b",
            "a%b",
            "a?b",
            "a$b",
        ];
        for value in bad
            .iter()
            .copied()
            .map(String::from)
            .chain([repeat("a", 254)])
        {
            assert!(!dns1123_subdomain(&value).is_empty(), "{value:?}");
        }
        assert_eq!(
            dns1123_subdomain(".workload"),
            ["a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"]
        );
        assert_eq!(
            dns1123_subdomain(&repeat("w", 254)),
            [DNS1123_SUBDOMAIN_TOO_LONG]
        );
    }

    #[test]
    fn dns1035_labels() {
        for value in ["a", "ab", "abc", "a1", "a-1", "a--1--2--b"]
            .iter()
            .copied()
            .map(String::from)
            .chain([repeat("a", 63)])
        {
            assert!(dns1035_label(&value).is_empty(), "{value:?}");
        }
        let bad = [
            "0",
            "01",
            "012",
            "1a",
            "1-a",
            "1--a--b--2",
            "",
            "A",
            "ABC",
            "aBc",
            "A1",
            "A-1",
            "1-A",
            "-",
            "a-",
            "-a",
            "1-",
            "-1",
            "_",
            "a_",
            "_a",
            "a_b",
            "1_",
            "_1",
            "1_2",
            ".",
            "a.",
            ".a",
            "a.b",
            "1.",
            ".1",
            "1.2",
            " ",
            "a ",
            " a",
            "a b",
            "1 ",
            " 1",
            "1 2",
        ];
        for value in bad
            .iter()
            .copied()
            .map(String::from)
            .chain([repeat("a", 64)])
        {
            assert!(!dns1035_label(&value).is_empty(), "{value:?}");
        }
    }

    #[test]
    fn qualified_names() {
        let good = [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "1234",
            "simple/simple",
            "now-with-dashes/simple",
            "now-with-dashes/now-with-dashes",
            "now.with.dots/simple",
            "now-with.dashes-and.dots/simple",
            "1-num.2-num/3-num",
            "1234/5678",
            "1.2.3.4/5678",
            "Uppercase_Is_OK_123",
            "example.com/Uppercase_Is_OK_123",
            "requests.storage-foo",
        ];
        let long = [repeat("a", 63), repeat("a", 253) + "/" + &repeat("b", 63)];
        for value in good.iter().copied().map(String::from).chain(long) {
            assert!(qualified_name(&value).is_empty(), "{value:?}");
        }
        let bad = [
            "nospecialchars%^=@",
            "cantendwithadash-",
            "-cantstartwithadash-",
            "only/one/slash",
            "Example.com/abc",
            "example_com/abc",
            "example.com/",
            "/simple",
        ];
        let long = [repeat("a", 64), repeat("a", 254) + "/abc"];
        for value in bad.iter().copied().map(String::from).chain(long) {
            assert!(!qualified_name(&value).is_empty(), "{value:?}");
        }
    }

    #[test]
    fn qualified_name_messages() {
        assert_eq!(qualified_name("only/one/slash"), [LABEL_KEY_FORMAT]);
        assert_eq!(
            LABEL_KEY_FORMAT,
            "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        );
        assert_eq!(qualified_name("/simple"), [LABEL_KEY_PREFIX_EMPTY]);
        assert_eq!(
            qualified_name("example.com/"),
            [LABEL_KEY_NAME_EMPTY, LABEL_KEY_NAME_FORMAT]
        );
        assert_eq!(qualified_name(&repeat("a", 64)), [LABEL_KEY_NAME_TOO_LONG]);
        assert_eq!(
            qualified_name(&(repeat("a", 254) + "/abc")),
            [LABEL_KEY_PREFIX_TOO_LONG]
        );
        assert_eq!(
            qualified_name(&(repeat("a", 250) + "/x")),
            Vec::<&str>::new()
        );
        assert_eq!(qualified_name("Example.com/abc"), [LABEL_KEY_PREFIX_FORMAT]);
        assert_eq!(
            qualified_name("nospecialchars^=@"),
            ["name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"]
        );
        assert_eq!(
            qualified_name(""),
            [LABEL_KEY_NAME_EMPTY, LABEL_KEY_NAME_FORMAT]
        );
        // Annotation keys ignore case, as upstream lower-cases them first.
        assert!(annotation_key("Example.COM/Abc").is_empty());
        assert_eq!(annotation_key("a/b/c"), [LABEL_KEY_FORMAT]);
    }

    #[test]
    fn label_values() {
        let good = [
            "simple",
            "now-with-dashes",
            "1-starts-with-num",
            "end-with-num-1",
            "1234",
            "",
        ];
        for value in good
            .iter()
            .copied()
            .map(String::from)
            .chain([repeat("a", 63)])
        {
            assert!(label_value(&value).is_empty(), "{value:?}");
        }
        let bad = [
            "nospecialchars%^=@",
            "Tama-nui-te-rā.is.Māori.sun",
            "\\backslashes\\are\\bad",
            "-starts-with-dash",
            "ends-with-dash-",
            ".starts.with.dot",
            "ends.with.dot.",
        ];
        for value in bad
            .iter()
            .copied()
            .map(String::from)
            .chain([repeat("a", 64)])
        {
            assert!(!label_value(&value).is_empty(), "{value:?}");
        }
        assert_eq!(label_value(&repeat("a", 64)), [LABEL_VALUE_TOO_LONG]);
        assert_eq!(
            label_value("-x"),
            ["a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"]
        );
    }

    #[test]
    fn port_names() {
        for value in [
            "telnet",
            "re-mail-ck",
            "pop3",
            "a",
            "a-1",
            "1-a",
            "a-1-b-2-c",
            "1-a-2-b-3",
        ] {
            assert!(port_name(value).is_empty(), "{value:?}");
        }
        let long = repeat("a", 16);
        for value in [
            "longerthan15characters",
            "",
            &long,
            "12345",
            "1-2-3-4",
            "-begin",
            "end-",
            "two--hyphens",
            "whois++",
        ] {
            assert!(!port_name(value).is_empty(), "{value:?}");
        }
    }

    #[test]
    fn percents() {
        for value in ["0%", "00000%", "1%", "01%", "99%", "100%", "101%"] {
            assert!(is_percent(value), "{value:?}");
        }
        for value in [
            "", "0", "100", "0.0%", "99.9%", "hundred", " 1%", "1% ", "-0%", "-1%", "+1%",
        ] {
            assert!(!is_percent(value), "{value:?}");
        }
    }

    #[test]
    fn path_segment_names() {
        assert_eq!(path_segment_name("."), ["may not be '.'"]);
        assert_eq!(path_segment_name(".."), ["may not be '..'"]);
        assert_eq!(
            path_segment_name("a/b%c"),
            ["may not contain '/'", "may not contain '%'"]
        );
        assert!(path_segment_name("My_PDB").is_empty());
    }
}
