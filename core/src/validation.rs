//! API validation of each object, by the API server's rules and with its messages.
//!
//! An object with an error is left out of evaluation; warnings leave it in.

use alloc::vec::Vec;

use crate::diagnostic::Diagnostic;
use crate::input::{FieldPath, Resource};

/// A rule an object breaks, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// What is wrong (its span is filled in by the reader).
    pub diagnostic: Diagnostic,
    /// The offending field.
    pub path: FieldPath,
    /// True when the map key at `path` is at fault rather than its value.
    pub at_key: bool,
}

impl Violation {
    /// An error at a field.
    #[must_use]
    pub fn error(path: FieldPath, code: &'static str, message: impl Into<alloc::string::String>) -> Self {
        Self {
            diagnostic: Diagnostic::error(code, message),
            path,
            at_key: false,
        }
    }

    /// A warning at a field.
    #[must_use]
    pub fn warning(path: FieldPath, code: &'static str, message: impl Into<alloc::string::String>) -> Self {
        Self {
            diagnostic: Diagnostic::warning(code, message),
            path,
            at_key: false,
        }
    }

    /// Points at the map key at `path` instead of its value.
    #[must_use]
    pub fn at_key(mut self) -> Self {
        self.at_key = true;
        self
    }
}

/// Every rule the object breaks.
#[must_use]
pub fn validate(resource: &Resource) -> Vec<Violation> {
    let mut violations = Vec::new();
    let meta = resource.meta();
    if meta.name.is_empty() && meta.generate_name.is_empty() {
        violations.push(Violation::error(
            FieldPath::fields(&["metadata", "name"]),
            "metadata/required",
            "name or generateName is required",
        ));
    }
    violations
}
