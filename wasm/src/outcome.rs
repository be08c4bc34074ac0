//! What `evaluate` returns, and the pure Rust run behind it (tested natively).

use kubefit_core::{Diagnostic, Report, Severity};
use serde::Serialize;
use tsify::Tsify;

use crate::input::OwnedSource;
use crate::options::{EvaluateOptions, Format};

/// The result of `evaluate`: `ok` is true when the report has no error diagnostics.
///
/// `evaluate` never throws for bad input: unreadable text, wrong JavaScript types and
/// even an internal crash come back as `ok: false` with a diagnostic in the report.
#[derive(Serialize, Tsify)]
#[serde(untagged)]
pub enum Evaluation {
    /// No error diagnostics (there may be warnings).
    Valid {
        /// Always `true`.
        #[tsify(type = "true")]
        ok: bool,
        /// The report.
        report: Report,
    },
    /// At least one error diagnostic.
    Invalid {
        /// Always `false`.
        #[tsify(type = "false")]
        ok: bool,
        /// The report, with what could be evaluated despite the errors.
        report: Report,
    },
}

/// The result of `evaluate` with `format: "text"`.
#[derive(Serialize, Tsify)]
pub struct TextEvaluation {
    /// True when the report has no error diagnostics.
    pub ok: bool,
    /// The report rendered as `kubectl`-like tables.
    pub text: String,
}

/// A finished run: whether the input is valid, and the report as JSON or text.
/// The result of `schedule`: the scheduling section of the report, with the diagnostics
/// (a pod left out by an input error is not scheduled: the diagnostics say why).
#[derive(Serialize, Tsify)]
pub struct ScheduleEvaluation<'a> {
    /// No error diagnostics (there may be warnings).
    pub ok: bool,
    /// Where each pending pod goes, and why.
    pub scheduling: &'a kubefit_core::report::scheduling::Scheduling,
    /// Problems found in the input, errors first.
    pub diagnostics: &'a [Diagnostic],
}

/// What a run returns: the report in a format, or its scheduling section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The whole report, as JSON or text.
    Report(Format),
    /// `{ok, scheduling, diagnostics}` as JSON.
    Scheduling,
}

impl From<Format> for View {
    fn from(format: Format) -> Self {
        Self::Report(format)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// No error diagnostics.
    pub ok: bool,
    /// The report as JSON (format `json`) or text (format `text`).
    pub payload: String,
}

/// Evaluates the sources, adding the diagnostics found while reading them from JavaScript.
///
/// The sources are released before the report is serialised: for a large input, the
/// text is the largest thing in memory, and the report no longer needs it.
#[must_use]
pub fn run(
    sources: Vec<OwnedSource>,
    early: Vec<Diagnostic>,
    options: &EvaluateOptions,
    view: View,
) -> Run {
    let views: Vec<kubefit_core::Source<'_>> = sources.iter().map(OwnedSource::source).collect();
    let mut report = kubefit_core::evaluate(&views, &options.to_core());
    drop(views);
    drop(sources);
    if !early.is_empty() {
        let mut diagnostics = early;
        diagnostics.append(&mut report.diagnostics);
        // Core's order: errors first, each group in input order (the sort is stable).
        diagnostics.sort_by_key(|diagnostic| diagnostic.severity != Severity::Error);
        report.diagnostics = diagnostics;
    }
    finish(&report, view)
}

/// The report for an argument that could not be read at all: only its diagnostic.
#[must_use]
pub fn rejected(diagnostic: Diagnostic, view: View) -> Run {
    let mut report = kubefit_core::evaluate(&[], &kubefit_core::Options::default());
    report.diagnostics = vec![diagnostic];
    finish(&report, view)
}

fn finish(report: &Report, view: View) -> Run {
    let ok = !report.has_errors();
    let json = match view {
        View::Report(Format::Json) => serde_json::to_string(report),
        View::Scheduling => serde_json::to_string(&ScheduleEvaluation {
            ok,
            scheduling: &report.scheduling,
            diagnostics: &report.diagnostics,
        }),
        View::Report(Format::Text) => Ok(report.to_text()),
    };
    let payload = json.unwrap_or_else(|error| {
            // Not expected: every map key in the report is a string. Still a report, not a throw.
            format!(
                r#"{{"kubefitVersion":"{}","diagnostics":[{{"severity":"error","code":"internal/serialize","message":"{}"}}]}}"#,
                kubefit_core::VERSION,
                error.to_string().replace(['"', '\\'], "'")
            )
    });
    Run { ok, payload }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(name: &str, text: &str) -> OwnedSource {
        OwnedSource {
            name: name.into(),
            bytes: text.as_bytes().to_vec(),
        }
    }

    const NODE: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '2', memory: 4Gi, pods: '10'}}\n";

    #[test]
    fn valid_input_is_ok_and_serialises_the_report() {
        let run = run(
            vec![source("a.yaml", NODE)],
            vec![],
            &EvaluateOptions::default(),
            Format::Json.into(),
        );
        assert!(run.ok, "{}", run.payload);
        let report: serde_json::Value = serde_json::from_str(&run.payload).unwrap();
        assert_eq!(report["nodes"][0]["name"], "n1");
        assert_eq!(report["diagnostics"], serde_json::json!([]));
    }

    #[test]
    fn bad_yaml_is_not_ok_and_located() {
        let run = run(
            vec![source("bad.yaml", "a: [1, 2\nb: {")],
            vec![],
            &EvaluateOptions::default(),
            Format::Json.into(),
        );
        assert!(!run.ok);
        let report: serde_json::Value = serde_json::from_str(&run.payload).unwrap();
        let diagnostic = &report["diagnostics"][0];
        assert_eq!(diagnostic["severity"], "error");
        assert_eq!(diagnostic["source"], "bad.yaml");
        assert!(diagnostic["line"].as_u64().is_some(), "{diagnostic}");
        assert!(diagnostic["column"].as_u64().is_some(), "{diagnostic}");
    }

    #[test]
    fn early_diagnostics_keep_errors_first() {
        let warning = Diagnostic::warning("argument/unknown-option", "unknown option `x`");
        let error = Diagnostic::error("input/lone-surrogate", "lone surrogate");
        let run = run(
            vec![source("a.yaml", NODE)],
            vec![warning, error],
            &EvaluateOptions::default(),
            Format::Json.into(),
        );
        assert!(!run.ok);
        let report: serde_json::Value = serde_json::from_str(&run.payload).unwrap();
        assert_eq!(report["diagnostics"][0]["code"], "input/lone-surrogate");
        assert_eq!(report["diagnostics"][1]["code"], "argument/unknown-option");
    }

    #[test]
    fn rejected_arguments_give_a_report_with_one_diagnostic() {
        let run = rejected(
            Diagnostic::error("argument/invalid-type", "expected a string, got `null`"),
            Format::Json.into(),
        );
        assert!(!run.ok);
        let report: serde_json::Value = serde_json::from_str(&run.payload).unwrap();
        assert_eq!(report["diagnostics"].as_array().map(Vec::len), Some(1));
        assert_eq!(report["diagnostics"][0]["code"], "argument/invalid-type");
    }

    #[test]
    fn text_format_renders_tables() {
        let run = run(
            vec![source("a.yaml", NODE)],
            vec![],
            &EvaluateOptions::default(),
            Format::Text.into(),
        );
        assert!(run.ok);
        assert!(run.payload.contains("n1"), "{}", run.payload);
        assert!(!run.payload.trim_start().starts_with('{'));
    }

    #[test]
    fn the_scheduling_view_keeps_only_scheduling_and_diagnostics() {
        let pending = format!(
            "{NODE}---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: d}}\nspec:\n  containers: [{{name: c, image: i}}]\n"
        );
        let run = run(
            vec![source("a.yaml", &pending)],
            vec![],
            &EvaluateOptions::default(),
            View::Scheduling,
        );
        assert!(run.ok, "{}", run.payload);
        let value: serde_json::Value = serde_json::from_str(&run.payload).unwrap();
        let keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(keys, ["diagnostics", "ok", "scheduling"]);
        assert_eq!(value["scheduling"]["pods"][0]["node"], "n1");
        let rejected = rejected(
            Diagnostic::error("argument/invalid-type", "bad"),
            View::Scheduling,
        );
        assert!(!rejected.ok);
        let value: serde_json::Value = serde_json::from_str(&rejected.payload).unwrap();
        assert_eq!(value["ok"], false);
        assert_eq!(value["diagnostics"][0]["code"], "argument/invalid-type");
    }
}
