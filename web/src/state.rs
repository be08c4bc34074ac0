//! The playground's state and the one pure function that changes it.

use kubefit_core::{evaluate, Diagnostic, Options, Report, Source};

/// The name diagnostics give the text area's content.
pub const SOURCE_NAME: &str = "input";

/// The cluster the playground opens with: small, and showing a taint, a generated pod
/// and a bound pod.
pub const EXAMPLE: &str = r#"# Two nodes, a pod and a Deployment whose pods kubefit creates. Edit me.
apiVersion: v1
kind: Node
metadata:
  name: worker-1
  labels: {topology.kubernetes.io/zone: eu-west-1a}
status:
  allocatable: {cpu: "4", memory: 16Gi, pods: "110"}
  conditions:
  - {type: Ready, status: "True"}
---
apiVersion: v1
kind: Node
metadata:
  name: gpu-1
spec:
  taints:
  - {key: dedicated, value: gpu, effect: NoSchedule}
status:
  allocatable: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "1"}
  conditions:
  - {type: Ready, status: "True"}
---
apiVersion: v1
kind: Pod
metadata: {name: web-1, namespace: shop}
spec:
  nodeName: worker-1
  containers:
  - name: web
    image: nginx:1.27
    resources:
      requests: {cpu: 500m, memory: 1Gi}
      limits: {cpu: "1", memory: 1Gi}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - name: api
        image: example/api:2
        resources: {requests: {cpu: 250m, memory: 256Mi}}
"#;

/// What the user can do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The text area now holds this text.
    Edit(String),
    /// Put the example back.
    Reset,
    /// Empty the text area.
    Clear,
}

/// The input and kubefit's report on it. The fields are private so that the report always
/// belongs to the input: only [`State::new`] and [`State::apply`] make states.
#[derive(Clone, Debug)]
pub struct State {
    input: String,
    report: Report,
    text: String,
}

impl State {
    /// Evaluates `input`.
    #[must_use]
    pub fn new(input: impl Into<String>) -> Self {
        let input = input.into();
        let report = evaluate(&[Source::new(SOURCE_NAME, &input)], &Options::default());
        let text = report.to_text();
        Self {
            input,
            report,
            text,
        }
    }

    /// The state after `action`. Pure: the same state and action always give the same
    /// result, and `self` is left as it was.
    #[must_use]
    pub fn apply(&self, action: Action) -> Self {
        let input = match action {
            Action::Edit(input) => input,
            Action::Reset => EXAMPLE.into(),
            Action::Clear => String::new(),
        };
        if input == self.input {
            // Evaluation is deterministic, so there is nothing to redo.
            return self.clone();
        }
        Self::new(input)
    }

    /// The text being evaluated.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }

    /// kubefit's report on the input.
    #[must_use]
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The report as text tables.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Problems with the input, errors first.
    #[must_use]
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.report.diagnostics
    }
}

impl Default for State {
    /// The example cluster, evaluated.
    fn default() -> Self {
        Self::new(EXAMPLE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubefit_core::Severity;

    #[test]
    fn the_example_evaluates_cleanly() {
        let state = State::default();
        assert_eq!(state.input(), EXAMPLE);
        assert!(state.diagnostics().is_empty(), "{:?}", state.diagnostics());
        assert_eq!(state.report().nodes.len(), 2);
        // web-1, plus the two pods the Deployment would create.
        assert_eq!(state.report().pods.len(), 3);
        assert_eq!(state.report().inventory.generated_pods, 2);
        assert!(state.text().contains("worker-1"));
        assert!(state.text().contains("gpu-1"));
    }

    #[test]
    fn edit_re_evaluates_the_new_text() {
        let state =
            State::default().apply(Action::Edit("kind: Node\nmetadata: {name: solo}\n".into()));
        assert_eq!(state.input(), "kind: Node\nmetadata: {name: solo}\n");
        assert_eq!(state.report().nodes.len(), 1);
        assert!(state.text().contains("solo"));
        assert!(!state.text().contains("worker-1"));
    }

    #[test]
    fn apply_leaves_the_old_state_as_it_was() {
        let before = State::default();
        let _after = before.apply(Action::Clear);
        assert_eq!(before.input(), EXAMPLE);
        assert_eq!(before.report().nodes.len(), 2);
    }

    #[test]
    fn apply_is_deterministic() {
        let state = State::default();
        let edit = || {
            Action::Edit("kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n".into())
        };
        let (a, b) = (state.apply(edit()), state.apply(edit()));
        assert_eq!(a.text(), b.text());
        assert_eq!(a.diagnostics(), b.diagnostics());
    }

    #[test]
    fn clear_then_reset_brings_the_example_back() {
        let cleared = State::default().apply(Action::Clear);
        assert_eq!(cleared.input(), "");
        assert!(cleared.report().nodes.is_empty());
        let reset = cleared.apply(Action::Reset);
        assert_eq!(reset.input(), EXAMPLE);
        assert_eq!(reset.text(), State::default().text());
    }

    #[test]
    fn bad_input_becomes_located_diagnostics() {
        let input = "kind: Node\nmetadata: {name: n1}\n---\nkind: [\n";
        let state = State::default().apply(Action::Edit(input.into()));
        let first = state.diagnostics().first().expect("a diagnostic");
        assert_eq!(first.severity, Severity::Error);
        assert_eq!(first.source.as_deref(), Some(SOURCE_NAME));
        assert!(first.line.is_some(), "{first:?}");
        // The valid document is still evaluated.
        assert_eq!(state.report().nodes.len(), 1);
    }

    #[test]
    fn an_unchanged_edit_keeps_the_report() {
        let state = State::default();
        let same = state.apply(Action::Edit(EXAMPLE.into()));
        assert_eq!(same.text(), state.text());
    }
}
