//! Scenario fixtures shared by every kubefit test layer (native, Node and browser runners).
//!
//! A scenario is a folder under `tests/scenarios/` with an input (`input.yaml`,
//! `input.json`, or raw bytes in `input.bin`) and `expected.json`: the parts of the report
//! that must match. Matching is by subset: every key in the expectation must be present
//! in the report with an equal value (objects recursively; arrays element by element and
//! of the same length), so fixtures state what they are about and stay valid as later
//! engines add sections. `KUBEFIT_BLESS=1 cargo test -p kubefit-tests` writes the full
//! report into fixtures that have no `expected.json` yet.

pub mod generate;
pub mod placement;

use kubefit_core::{evaluate, Options, Source};
use serde_json::Value;

/// One fixture.
#[derive(Clone, Copy, Debug)]
pub struct Scenario {
    /// The folder name.
    pub name: &'static str,
    /// The input file name (used as the source name in diagnostics).
    pub file: &'static str,
    /// The input bytes.
    pub input: &'static [u8],
    /// The expected report (subset), if written yet.
    pub expected: Option<&'static str>,
}

include!(concat!(env!("OUT_DIR"), "/scenarios.rs"));

/// Evaluates a scenario's input and returns the report as JSON.
#[must_use]
pub fn run(scenario: &Scenario) -> Value {
    let report = evaluate(
        &[Source::new(scenario.file, scenario.input)],
        &Options::default(),
    );
    serde_json::to_value(&report).unwrap_or(Value::Null)
}

/// Checks a scenario; on mismatch, returns every difference as `path: expected X, got Y`.
///
/// # Errors
/// The list of differences, or a note that the fixture has no expectation.
pub fn check(scenario: &Scenario) -> Result<(), Vec<String>> {
    let actual = run(scenario);
    let expected: Value = match scenario.expected.map(serde_json::from_str) {
        Some(Ok(expected)) => expected,
        Some(Err(error)) => return Err(vec![format!("expected.json is not JSON: {error}")]),
        None => return Err(vec!["no expected.json".into()]),
    };
    let mut differences = Vec::new();
    subset("$", &expected, &actual, &mut differences);
    if differences.is_empty() {
        Ok(())
    } else {
        Err(differences)
    }
}

/// Records where `actual` does not contain `expected`.
pub fn subset(path: &str, expected: &Value, actual: &Value, differences: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(want), Value::Object(got)) => {
            for (key, value) in want {
                match got.get(key) {
                    Some(found) => subset(&format!("{path}.{key}"), value, found, differences),
                    None => differences.push(format!("{path}.{key}: missing, expected {value}")),
                }
            }
        }
        (Value::Array(want), Value::Array(got)) => {
            if want.len() != got.len() {
                differences.push(format!(
                    "{path}: expected {} elements, got {}: {actual}",
                    want.len(),
                    got.len()
                ));
                return;
            }
            for (index, (value, found)) in want.iter().zip(got).enumerate() {
                subset(&format!("{path}[{index}]"), value, found, differences);
            }
        }
        _ if expected == actual => {}
        _ => differences.push(format!("{path}: expected {expected}, got {actual}")),
    }
}

/// A small valid cluster, evaluated after each adversarial input to prove the engine (or
/// the wasm instance) is still usable.
pub const HEALTHY_CLUSTER: &str = "\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: '2', memory: 4Gi, pods: '10'}}
---
apiVersion: v1
kind: Pod
metadata: {name: p1}
spec:
  nodeName: n1
  containers: [{name: c, resources: {requests: {cpu: 100m}}}]
";

/// True if evaluating [`HEALTHY_CLUSTER`] gives the expected clean report.
#[must_use]
pub fn healthy() -> bool {
    let report = evaluate(
        &[Source::new("healthy.yaml", HEALTHY_CLUSTER)],
        &Options::default(),
    );
    report.diagnostics.is_empty()
        && report.nodes.len() == 1
        && report.pods.len() == 1
        && report
            .nodes
            .first()
            .and_then(|node| node.requested.get("cpu"))
            .map(ToString::to_string)
            == Some("100m".into())
}
