//! Field paths built lazily on the stack, and the sink that collects violations.
//!
//! Validating 150 000 valid pods must not allocate, so a location is a chain of
//! borrowed steps ([`At`]) that becomes a [`FieldPath`] only when a rule fails.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write as _;

use super::Violation;
use crate::input::{FieldPath, Segment};

/// One step of an [`At`] chain.
#[derive(Clone, Copy, Debug)]
enum Step<'a> {
    Field(&'a str),
    Key(&'a str),
    Index(usize),
}

/// A location inside an object: a step and the location it extends.
#[derive(Clone, Copy, Debug)]
pub(super) struct At<'a> {
    parent: Option<&'a At<'a>>,
    step: Step<'a>,
}

impl<'a> At<'a> {
    /// A top-level field of the object, such as `spec`.
    pub const fn root(name: &'a str) -> Self {
        Self {
            parent: None,
            step: Step::Field(name),
        }
    }

    /// A field of this location.
    pub fn field<'b>(&'b self, name: &'b str) -> At<'b> {
        At {
            parent: Some(self),
            step: Step::Field(name),
        }
    }

    /// A map entry of this location.
    pub fn key<'b>(&'b self, key: &'b str) -> At<'b> {
        At {
            parent: Some(self),
            step: Step::Key(key),
        }
    }

    /// A list element of this location.
    pub fn index<'b>(&'b self, index: usize) -> At<'b> {
        At {
            parent: Some(self),
            step: Step::Index(index),
        }
    }

    /// The owned path, built when a rule fails.
    pub fn path(&self) -> FieldPath {
        let mut steps = Vec::new();
        let mut at = Some(self);
        while let Some(current) = at {
            steps.push(current.step);
            at = current.parent;
        }
        FieldPath(
            steps
                .iter()
                .rev()
                .map(|step| match *step {
                    Step::Field(name) => Segment::Field(name.into()),
                    Step::Key(key) => Segment::key(key),
                    Step::Index(index) => Segment::Index(index),
                })
                .collect(),
        )
    }
}

/// Collects the violations of one object.
#[derive(Debug, Default)]
pub(super) struct Sink {
    violations: Vec<Violation>,
}

impl Sink {
    /// An error at a field.
    pub fn error(&mut self, at: &At<'_>, code: &'static str, message: impl Into<String>) {
        self.violations
            .push(Violation::error(at.path(), code, message));
    }

    /// An error at the key of a map entry.
    pub fn error_at_key(&mut self, at: &At<'_>, code: &'static str, message: impl Into<String>) {
        self.violations
            .push(Violation::error(at.path(), code, message).at_key());
    }

    /// A warning at a field.
    pub fn warning(&mut self, at: &At<'_>, code: &'static str, message: impl Into<String>) {
        self.violations
            .push(Violation::warning(at.path(), code, message));
    }

    /// A prepared violation.
    pub fn push(&mut self, violation: Violation) {
        self.violations.push(violation);
    }

    /// One error per message of a string check such as [`super::names::dns1123_label`].
    pub fn errors(&mut self, at: &At<'_>, code: &'static str, messages: &[&'static str]) {
        for message in messages {
            self.error(at, code, *message);
        }
    }

    /// Like [`Sink::errors`], at the key of a map entry.
    pub fn errors_at_key(&mut self, at: &At<'_>, code: &'static str, messages: &[&'static str]) {
        for message in messages {
            self.error_at_key(at, code, *message);
        }
    }

    /// How many violations have been collected so far.
    pub fn len(&self) -> usize {
        self.violations.len()
    }

    /// The collected violations.
    pub fn finish(self) -> Vec<Violation> {
        self.violations
    }
}

/// Upstream's `field.NotSupported` body: `Unsupported value: "x": supported values: "a", "b"`.
pub(super) fn unsupported(value: &str, supported: &[&str]) -> String {
    let mut message = String::from("Unsupported value: ");
    quote(value, &mut message);
    if !supported.is_empty() {
        message.push_str(": supported values: ");
        for (position, option) in supported.iter().enumerate() {
            if position > 0 {
                message.push_str(", ");
            }
            quote(option, &mut message);
        }
    }
    message
}

/// Upstream's `field.Duplicate` body for a string: `Duplicate value: "x"`.
pub(super) fn duplicate(value: &str) -> String {
    let mut message = String::from("Duplicate value: ");
    quote(value, &mut message);
    message
}

/// Appends `text` quoted as Go's `strconv.Quote` (`%q`) writes it.
pub(crate) fn quote(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if u32::from(c) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", u32::from(c));
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn paths_are_built_only_on_demand_and_read_like_upstream() {
        let spec = At::root("spec");
        let tolerations = spec.field("tolerations");
        let first = tolerations.index(0);
        assert_eq!(
            first.field("key").path().to_string(),
            "spec.tolerations[0].key"
        );
        let labels = At::root("metadata");
        let labels = labels.field("labels");
        assert_eq!(
            labels.key("app.kubernetes.io/name").path().to_string(),
            "metadata.labels[app.kubernetes.io/name]"
        );
    }

    #[test]
    fn quoting_follows_go() {
        assert_eq!(
            unsupported("In", &["Equal", "Exists"]),
            r#"Unsupported value: "In": supported values: "Equal", "Exists""#
        );
        assert_eq!(duplicate("a\"b\n"), r#"Duplicate value: "a\"b\n""#);
        assert_eq!(unsupported("", &[]), r#"Unsupported value: """#);
    }
}
