//! What-if steps, and the text edit that adds one to the input's Scenario.

use std::fmt;

use kubefit_core::input::{self, Resource};
use kubefit_core::{Limits, Source};

use crate::placement::find_key;

/// The taint the taint what-if adds: NoExecute, so that pods not tolerating it go.
pub const TAINT: &str = "what-if=true:NoExecute";

/// A what-if on one node, as the nodes table offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhatIf {
    /// Taint the node with [`TAINT`].
    Taint(String),
    /// Cordon the node.
    Cordon(String),
    /// Drain the node as `oc adm drain NODE` does, with its defaults.
    Drain(String),
    /// Delete the node's Machine (`namespace/name`).
    DeleteMachine(String),
}

impl WhatIf {
    /// The step, at the start of the timeline: a YAML flow mapping, or JSON.
    #[must_use]
    pub fn step(&self, json: bool) -> String {
        let (key, value) = match self {
            Self::Taint(node) => ("taint", format!("{node} {TAINT}")),
            Self::Cordon(node) => ("cordon", node.clone()),
            Self::Drain(node) => ("drain", node.clone()),
            Self::DeleteMachine(machine) => ("deleteMachine", machine.clone()),
        };
        // A JSON string is also a YAML double-quoted scalar.
        let quoted = serde_json::to_string(&value).unwrap_or_default();
        if json {
            format!("{{\"at\": \"0s\", \"{key}\": {quoted}}}")
        } else if plain(&value) {
            format!("{{at: 0s, {key}: {value}}}")
        } else {
            format!("{{at: 0s, {key}: {quoted}}}")
        }
    }
}

/// True if YAML reads `value` unquoted, in a flow mapping, as this string: Kubernetes
/// names do, unless they start with a digit or are a YAML 1.1 boolean or null.
fn plain(value: &str) -> bool {
    value.starts_with(|c: char| c.is_ascii_alphabetic())
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '/' | '_'))
        && !matches!(
            value.to_ascii_lowercase().as_str(),
            "y" | "n" | "yes" | "no" | "on" | "off" | "true" | "false" | "null"
        )
}

/// A YAML Scenario document holding one step, and the byte range of the step in it.
#[must_use]
pub fn document(what_if: &WhatIf) -> (String, usize, usize) {
    let step = what_if.step(false);
    let text = format!(
        "apiVersion: kubefit.dev/v1alpha1\nkind: Scenario\nmetadata: {{name: what-if}}\nspec:\n  steps:\n  - {step}\n"
    );
    let end = text.len() - 1;
    (text, end - step.len(), end)
}

/// Why a step was not added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The text is JSON without a Scenario: a YAML document cannot follow it.
    Json,
    /// The text has a Scenario that has errors, so it is not played.
    Invalid,
    /// The Scenario's steps are written in a way the edit does not follow.
    Shape,
    /// The document is a file too large to edit here.
    ReadOnly,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Json => "a YAML Scenario cannot follow JSON",
            Self::Invalid => "its Scenario has errors: fix them first",
            Self::Shape => "kubefit cannot tell where its Scenario's next step goes",
            Self::ReadOnly => "it is too large to edit here",
        })
    }
}

/// `text` with `what_if` added as a step of its Scenario (the first one), and the byte
/// range of the step in the new text.
///
/// The edit inserts the step and changes nothing else: after the last step, in the style
/// the steps are written in (block or flow, YAML or JSON); into `steps: []`, an empty
/// `steps:` or a `spec` without steps; or, when the text has no Scenario, as a new YAML
/// document at its end. Only the first Scenario of the input is played, so the edit never
/// adds a second one next to a Scenario it cannot read or extend.
///
/// # Errors
/// A [`Refusal`] when the step cannot be added safely.
pub fn add_step(text: &str, what_if: &WhatIf) -> Result<(String, usize, usize), Refusal> {
    // As kubefit reads it: text that starts like JSON is JSON.
    let json = matches!(
        text.trim_start_matches('\u{feff}')
            .trim_start()
            .as_bytes()
            .first(),
        Some(b'{' | b'[')
    );
    let step = what_if.step(json);
    let loaded = input::load(&[Source::new("", text)], &Limits::default());
    let Some(scenario) = loaded
        .objects
        .iter()
        .find(|object| matches!(object.resource, Resource::Scenario(_)))
    else {
        let invalid = loaded.diagnostics.iter().any(|diagnostic| {
            diagnostic.is_error()
                && diagnostic
                    .object
                    .as_deref()
                    .is_some_and(|object| object.starts_with("Scenario/"))
        });
        if invalid {
            return Err(Refusal::Invalid);
        }
        if json {
            return Err(Refusal::Json);
        }
        let separator = if text.is_empty() || text.ends_with('\n') {
            "---\n"
        } else {
            "\n---\n"
        };
        let (document, from, to) = document(what_if);
        let offset = text.len() + separator.len();
        return Ok((
            format!("{text}{separator}{document}"),
            offset + from,
            offset + to,
        ));
    };
    let at = match scenario.step_spans.last() {
        Some(last) => after_last(text, last.start as usize, last.end as usize),
        None => {
            let (start, end) = (scenario.span.start as usize, scenario.span.end as usize);
            into_empty(text, start, end, json)
        }
    }
    .ok_or(Refusal::Shape)?;
    let (position, before, after) = at;
    let edited = format!(
        "{}{before}{step}{after}{}",
        &text[..position],
        &text[position..]
    );
    let step_start = position + before.len();
    Ok((edited, step_start, step_start + step.len()))
}

/// Where the step goes, and the text to put before and after it.
type Insertion = (usize, String, &'static str);

/// After the last step (`start..end`): in a flow sequence, after a comma; in a block
/// sequence, on a line of its own after the step's last line, at its indentation.
fn after_last(text: &str, start: usize, end: usize) -> Option<Insertion> {
    if text[end..].trim_start().starts_with([',', ']']) {
        return Some((end, ", ".into(), ""));
    }
    let line_start = text[..start].rfind('\n').map_or(0, |at| at + 1);
    let indent = text[line_start..start].trim_end().strip_suffix('-')?;
    if !indent.bytes().all(|byte| byte == b' ') {
        return None;
    }
    // A block mapping's span runs on over comments and blank lines, to the next token.
    let mut last = start;
    let mut offset = start;
    for line in text[start..end].split_inclusive('\n') {
        if !blank(line.trim()) {
            last = offset;
        }
        offset += line.len();
    }
    Some((
        last + line_rest(text, last).len(),
        format!("\n{indent}- "),
        "",
    ))
}

/// Into a Scenario without steps (its text is `start..end`): `steps: []` or an empty
/// `steps:` gets the step; a `spec` without `steps` gets the list.
fn into_empty(text: &str, start: usize, end: usize, json: bool) -> Option<Insertion> {
    if let Some((key, key_end)) = find_key(text, start, end, &["steps"]) {
        let value = value_start(text, key_end)?;
        let rest = line_rest(text, value);
        if rest.starts_with('[') && text[value + 1..].trim_start().starts_with(']') {
            return Some((value + 1, String::new(), ""));
        }
        if json || !blank(rest) {
            return None;
        }
        let pad = " ".repeat(column(text, key)?);
        return Some((value + rest.len(), format!("\n{pad}- "), ""));
    }
    let (key, key_end) = find_key(text, start, end, &["spec"])?;
    let value = value_start(text, key_end)?;
    let rest = line_rest(text, value);
    if rest.starts_with('{') {
        let list = if json { "\"steps\": [" } else { "steps: [" };
        let empty = text[value + 1..].trim_start().starts_with('}');
        return Some((value + 1, list.into(), if empty { "]" } else { "], " }));
    }
    if json || !blank(rest) {
        return None;
    }
    let column = column(text, key)?;
    let line_end = value + rest.len();
    // The list goes where the spec's fields are, or two spaces in.
    let fields = text[line_end..]
        .lines()
        .skip(1)
        .find(|line| !blank(line.trim_start()))
        .map(|line| line.len() - line.trim_start().len())
        .filter(|&fields| fields > column)
        .unwrap_or(column + 2);
    let pad = " ".repeat(fields);
    Some((line_end, format!("\n{pad}steps:\n{pad}- "), ""))
}

/// True for (the rest of) a line that holds no value: nothing, or a comment.
fn blank(rest: &str) -> bool {
    let rest = rest.trim_end();
    rest.is_empty() || rest.starts_with('#')
}

/// The offset of a key's value: past its closing quote, the colon and spaces.
fn value_start(text: &str, key_end: usize) -> Option<usize> {
    let colon = key_end + text[key_end..].find(':')?;
    let after = &text[colon + 1..];
    Some(text.len() - after.trim_start_matches([' ', '\t']).len())
}

/// The text from `at` to the end of its line.
fn line_rest(text: &str, at: usize) -> &str {
    let rest = &text[at..];
    &rest[..rest.find('\n').unwrap_or(rest.len())]
}

/// The column of a key that starts its line, after spaces and sequence dashes (none: the
/// key is inside a flow mapping).
fn column(text: &str, key: usize) -> Option<usize> {
    let line_start = text[..key].rfind('\n').map_or(0, |at| at + 1);
    text[line_start..key]
        .bytes()
        .all(|byte| byte == b' ' || byte == b'-')
        .then_some(key - line_start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubefit_core::{evaluate, Options};

    const NODE: &str = "kind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '2'}}\n";
    const HEAD: &str = "apiVersion: kubefit.dev/v1alpha1\nkind: Scenario\nmetadata: {name: s}\n";

    fn drain() -> WhatIf {
        WhatIf::Drain("n1".into())
    }

    /// The edited text, checked: the range is the step, the Scenario is valid and has
    /// `steps` steps.
    fn added(text: &str, what_if: &WhatIf, steps: usize) -> String {
        let (edited, start, end) = add_step(text, what_if).expect("an edit");
        let json = edited.trim_start().starts_with(['{', '[']);
        assert_eq!(&edited[start..end], what_if.step(json), "{edited}");
        let loaded = input::load(&[Source::new("t", &edited)], &Limits::default());
        let scenario = loaded
            .objects
            .iter()
            .find(|object| matches!(object.resource, Resource::Scenario(_)))
            .unwrap_or_else(|| panic!("a valid Scenario: {edited}\n{:?}", loaded.diagnostics));
        assert_eq!(scenario.step_spans.len(), steps, "{edited}");
        edited
    }

    #[test]
    fn without_a_scenario_one_is_appended_as_a_new_document() {
        let edited = added(NODE, &drain(), 1);
        assert_eq!(edited, format!("{NODE}---\n{}", document(&drain()).0));
        assert!(edited.ends_with("spec:\n  steps:\n  - {at: 0s, drain: n1}\n"));
        let report = evaluate(&[Source::new("t", &edited)], &Options::default());
        assert_eq!(report.disruption.timeline[0].message, "node/n1 cordoned");
        // Without a final newline, and in an empty text.
        let edited = added(NODE.trim_end(), &drain(), 1);
        assert!(edited.starts_with(&format!("{}\n---\napiVersion", NODE.trim_end())));
        let edited = added("", &WhatIf::Cordon("n1".into()), 1);
        assert!(edited.starts_with("---\napiVersion: kubefit.dev/v1alpha1\nkind: Scenario\n"));
    }

    #[test]
    fn a_block_sequence_gets_a_line_at_its_indentation() {
        let text = format!(
            "{HEAD}spec:\n  steps:\n  - taint: \"n1 k=v:NoSchedule\"\n  - at: 1m\n    cordon: n1 # later\n\n  # the end\n  horizon: 2h\n"
        );
        let edited = added(&text, &drain(), 3);
        assert_eq!(
            edited,
            text.replace("# later\n", "# later\n  - {at: 0s, drain: n1}\n")
        );
        // A Scenario inside a kubectl List, indented further.
        let text = "kind: List\nitems:\n- apiVersion: kubefit.dev/v1alpha1\n  kind: Scenario\n  metadata: {name: s}\n  spec:\n    steps:\n    - {at: 1m, cordon: n1} # first\n- kind: Node\n  metadata: {name: n1}\n";
        let edited = added(text, &drain(), 2);
        assert!(
            edited.contains(
                "    - {at: 1m, cordon: n1} # first\n    - {at: 0s, drain: n1}\n- kind: Node"
            ),
            "{edited}"
        );
    }

    #[test]
    fn flow_sequences_and_empty_lists_stay_flow() {
        let text = format!("{HEAD}spec: {{steps: [{{at: 1m, cordon: n1}}]}}\n");
        let edited = added(&text, &drain(), 2);
        assert!(
            edited.ends_with("spec: {steps: [{at: 1m, cordon: n1}, {at: 0s, drain: n1}]}\n"),
            "{edited}"
        );
        let text = format!("{HEAD}spec:\n  steps: [] # none yet\n");
        let edited = added(&text, &drain(), 1);
        assert!(
            edited.ends_with("  steps: [{at: 0s, drain: n1}] # none yet\n"),
            "{edited}"
        );
        let text = format!("{HEAD}spec:\n  steps: [\n    {{at: 1m, cordon: n1}}\n  ]\n");
        let edited = added(&text, &drain(), 2);
        assert!(
            edited.contains("{at: 1m, cordon: n1}, {at: 0s, drain: n1}\n  ]"),
            "{edited}"
        );
    }

    #[test]
    fn an_empty_steps_key_or_a_spec_without_steps_gets_the_list() {
        let text = format!("{HEAD}spec:\n  steps:\n  horizon: 2h\n");
        let edited = added(&text, &drain(), 1);
        added(&text.replace('\n', "\r\n"), &drain(), 1);
        assert!(
            edited.ends_with("  steps:\n  - {at: 0s, drain: n1}\n  horizon: 2h\n"),
            "{edited}"
        );
        let text = format!("{HEAD}spec:\n    horizon: 2h\n");
        let edited = added(&text, &drain(), 1);
        assert!(
            edited.ends_with("spec:\n    steps:\n    - {at: 0s, drain: n1}\n    horizon: 2h\n"),
            "{edited}"
        );
        let text = format!("{HEAD}spec:\n---\n{NODE}");
        let edited = added(&text, &drain(), 1);
        assert!(
            edited.contains("spec:\n  steps:\n  - {at: 0s, drain: n1}\n---\n"),
            "{edited}"
        );
        let text = format!("{HEAD}spec: {{horizon: 2h}}\n");
        let edited = added(&text, &drain(), 1);
        assert!(
            edited.ends_with("spec: {steps: [{at: 0s, drain: n1}], horizon: 2h}\n"),
            "{edited}"
        );
        let text = format!("{HEAD}spec: {{}}\n");
        assert!(added(&text, &drain(), 1).ends_with("spec: {steps: [{at: 0s, drain: n1}]}\n"));
    }

    #[test]
    fn json_gets_a_json_step_and_no_yaml_document() {
        let text = r#"{"kind": "List", "items": [
  {"apiVersion": "kubefit.dev/v1alpha1", "kind": "Scenario", "metadata": {"name": "s"},
   "spec": {"steps": [
     {"at": "1m", "cordon": "n1"}
   ]}}
]}
"#;
        let edited = added(text, &drain(), 2);
        assert!(
            edited.contains(r#"{"at": "1m", "cordon": "n1"}, {"at": "0s", "drain": "n1"}"#),
            "{edited}"
        );
        let empty = text.replace(r#"{"at": "1m", "cordon": "n1"}"#, "");
        added(&empty, &drain(), 1);
        let no_steps = r#"{"apiVersion": "kubefit.dev/v1alpha1", "kind": "Scenario", "metadata": {"name": "s"}, "spec": {}}"#;
        assert!(added(no_steps, &drain(), 1).contains(r#""spec": {"steps": [{"at""#));
        assert_eq!(
            add_step(r#"{"kind": "Node", "metadata": {"name": "n1"}}"#, &drain()),
            Err(Refusal::Json)
        );
    }

    #[test]
    fn only_the_first_scenario_is_extended_and_a_broken_one_is_left_alone() {
        let second = format!("{HEAD}spec:\n  steps:\n  - {{at: 5m, uncordon: n1}}\n");
        let text = format!("{HEAD}spec:\n  steps:\n  - {{at: 1m, cordon: n1}}\n---\n{second}");
        let edited = added(&text, &drain(), 2);
        assert!(
            edited.ends_with(&format!("{{at: 0s, drain: n1}}\n---\n{second}")),
            "{edited}"
        );

        let broken = format!("{HEAD}spec: {{steps: 3}}\n");
        assert_eq!(add_step(&broken, &drain()), Err(Refusal::Invalid));
        // A step written as a dash alone on its line: where the next one goes is unclear.
        let odd = format!("{HEAD}spec:\n  steps:\n  -\n    at: 1m\n    cordon: n1\n");
        assert_eq!(add_step(&odd, &drain()), Err(Refusal::Shape));
        for refusal in [
            Refusal::Json,
            Refusal::Invalid,
            Refusal::Shape,
            Refusal::ReadOnly,
        ] {
            assert!(!refusal.to_string().is_empty());
        }
    }

    #[test]
    fn steps_quote_what_yaml_would_misread() {
        assert_eq!(drain().step(false), "{at: 0s, drain: n1}");
        assert_eq!(drain().step(true), r#"{"at": "0s", "drain": "n1"}"#);
        assert_eq!(
            WhatIf::Taint("n1".into()).step(false),
            r#"{at: 0s, taint: "n1 what-if=true:NoExecute"}"#
        );
        assert_eq!(
            WhatIf::DeleteMachine("openshift-machine-api/m-1".into()).step(false),
            "{at: 0s, deleteMachine: openshift-machine-api/m-1}"
        );
        for name in ["10.0.0.1", "yes", "On", "null"] {
            assert_eq!(
                WhatIf::Cordon(name.into()).step(false),
                format!("{{at: 0s, cordon: \"{name}\"}}")
            );
        }
    }
}
