//! Diagnostics: the one shape in which kubefit reports problems with its input.

use alloc::string::String;
use serde::Serialize;

use crate::input::Span;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The object it names is left out of evaluation (or nothing could be read).
    Error,
    /// Evaluation goes on, but the input probably does not say what was meant.
    Warning,
}

/// A problem with the input, located as precisely as kubefit can.
///
/// Messages are lowercase, without a final period, and put user values in backticks.
/// `line`, `column` and `offset` are filled in by [`crate::input::locate`] from `span`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// A stable, scoped, kebab-case code such as `quantity/overflow`.
    pub code: &'static str,
    /// What is wrong, in upstream's words where upstream has words for it.
    pub message: String,
    /// How to fix it, when that is not obvious from the message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The object concerned, as `Kind/namespace/name` (or `Kind/name` for cluster-scoped kinds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
    /// The field path inside the object, such as `spec.tolerations[1].key`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The name of the source text the diagnostic points into.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// 1-based line in the source text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// 1-based column (in characters) in the source text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// Offset from the start of the source text in UTF-16 code units, for editors.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
    /// Where in which source the problem is; resolved into `line`/`column`/`offset`.
    #[serde(skip)]
    pub span: Option<Span>,
}

impl Diagnostic {
    /// An error with a code and message and no location yet.
    #[must_use]
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message.into())
    }

    /// A warning with a code and message and no location yet.
    #[must_use]
    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message.into())
    }

    fn new(severity: Severity, code: &'static str, message: String) -> Self {
        Self {
            severity,
            code,
            message,
            help: None,
            object: None,
            path: None,
            source: None,
            line: None,
            column: None,
            offset: None,
            span: None,
        }
    }

    /// Adds a hint on how to fix the problem.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Names the object the diagnostic is about.
    #[must_use]
    pub fn with_object(mut self, object: impl Into<String>) -> Self {
        self.object = Some(object.into());
        self
    }

    /// Names the field path inside the object.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Points the diagnostic at a place in a source text.
    #[must_use]
    pub fn with_span(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    /// True for errors.
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}
