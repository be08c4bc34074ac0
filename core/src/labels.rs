//! Label and node selectors: which labelled objects a selector matches.
//!
//! Follows `k8s.io/apimachinery/pkg/labels/selector.go` and
//! `k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{
    LabelSelector, LabelSelectorRequirement, Node, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm, StringMap,
};
use crate::schedule::Version;
use crate::validation::names;

/// True if `labels` satisfy every `matchLabels` pair and every expression of `selector`.
/// An empty selector matches everything; a requirement with an unknown operator matches
/// nothing (upstream rejects the whole selector).
#[must_use]
pub fn selector_matches(selector: &LabelSelector, labels: &StringMap) -> bool {
    selector
        .match_labels
        .iter()
        .all(|(key, value)| labels.get(key) == Some(value))
        && selector
            .match_expressions
            .iter()
            .all(|requirement| requirement_matches(requirement, labels))
}

fn requirement_matches(requirement: &LabelSelectorRequirement, labels: &StringMap) -> bool {
    let value = labels.get(&requirement.key);
    match requirement.operator.as_str() {
        "In" => value.is_some_and(|value| requirement.values.contains(value)),
        "NotIn" => value.is_none_or(|value| !requirement.values.contains(value)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        _ => false,
    }
}

/// The error 1.11's `labels.NewRequirement` (`apimachinery/pkg/labels/selector.go`,
/// `validateLabelValue`) gives a value that is not a label value, in 1.11's words; `None`
/// for a label value.
#[must_use]
pub fn legacy_value_error(value: &str) -> Option<String> {
    let complaints = names::label_value(value);
    if complaints.is_empty() {
        return None;
    }
    // 1.11's `MaxLenError` counts characters where 1.34's says bytes.
    let complaints: Vec<&str> = complaints
        .into_iter()
        .map(|complaint| match complaint {
            names::LABEL_VALUE_TOO_LONG => "must be no more than 63 characters",
            other => other,
        })
        .collect();
    let mut text = String::from("invalid label value: ");
    crate::validation::quote(value, &mut text);
    text.push_str(": ");
    text.push_str(&complaints.join("; "));
    Some(text)
}

/// The error 1.11's `metav1.LabelSelectorAsSelector` returns for a selector its API
/// server admitted: the first expression value that is not a label value (1.11's
/// `ValidateLabelSelectorRequirement` checks operators, value counts and keys, not the
/// values). `None` when it parses, and for no selector (which selects nothing).
#[must_use]
pub fn legacy_selector_error(selector: Option<&LabelSelector>) -> Option<String> {
    selector?
        .match_expressions
        .iter()
        .flat_map(|requirement| &requirement.values)
        .find_map(|value| legacy_value_error(value))
}

/// True if the plain map selector (every pair must be present) matches `labels`.
#[must_use]
pub fn map_matches(selector: &StringMap, labels: &StringMap) -> bool {
    selector
        .iter()
        .all(|(key, value)| labels.get(key) == Some(value))
}

/// True if any term of a required node affinity matches the node. No terms match nothing.
#[must_use]
pub fn node_selector_matches(selector: &NodeSelector, node: &Node) -> bool {
    selector
        .node_selector_terms
        .iter()
        .any(|term| node_term_matches(term, node))
}

/// True if every expression and field requirement of the term holds; an empty term
/// matches nothing.
#[must_use]
pub fn node_term_matches(term: &NodeSelectorTerm, node: &Node) -> bool {
    term_matches(term, &node.metadata.labels, &node.metadata.name)
}

/// True if any term matches a node known only by its labels, as a PersistentVolume's
/// node affinity is checked: `CheckNodeAffinity` builds a node without a name. 1.11's
/// `MatchNodeSelectorTerms` compares a `metadata.name` field requirement with that empty
/// name (`In` never holds); 1.34's `nodeSelectorTerm.match` skips the field requirements
/// when the node has no fields (`extractNodeFields` in
/// `component-helpers/scheduling/corev1/nodeaffinity`), so only their parsing counts.
#[must_use]
pub fn node_selector_matches_labels(
    selector: &NodeSelector,
    labels: &StringMap,
    version: Version,
) -> bool {
    selector
        .node_selector_terms
        .iter()
        .any(|term| match version {
            Version::Legacy => term_matches(term, labels, ""),
            Version::Current => {
                !is_empty_term(term)
                    && term.match_fields.iter().all(field_parses)
                    && expressions_hold(term, labels)
            }
        })
}

/// A field requirement 1.34's `nodeSelectorRequirementsAsFieldSelector` turns into a
/// selector: `In` or `NotIn` with exactly one value.
fn field_parses(requirement: &NodeSelectorRequirement) -> bool {
    matches!(requirement.operator.as_str(), "In" | "NotIn") && requirement.values.len() == 1
}

/// A term with a requirement upstream cannot parse matches nothing, whatever its other
/// requirements say (`MatchNodeSelectorTerms` in 1.11 `v1helper`, `nodeSelectorTerm.match`
/// in 1.34 `nodeaffinity`).
fn term_matches(term: &NodeSelectorTerm, labels: &StringMap, name: &str) -> bool {
    !is_empty_term(term)
        && expressions_hold(term, labels)
        && term
            .match_fields
            .iter()
            .all(|requirement| field_matches(requirement, name))
}

/// A term without requirements, which matches nothing.
fn is_empty_term(term: &NodeSelectorTerm) -> bool {
    term.match_expressions.is_empty() && term.match_fields.is_empty()
}

/// Every label requirement of the term parses and holds.
fn expressions_hold(term: &NodeSelectorTerm, labels: &StringMap) -> bool {
    term.match_expressions.iter().all(|requirement| {
        node_requirement_parses(requirement) && node_requirement_matches(requirement, labels)
    })
}

/// A value of a node requirement that `labels.NewRequirement` rejects (the API server
/// admits both in preferred terms, and 1.11's in required terms too).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadValue<'r> {
    /// A `Gt`/`Lt` bound that is not a 64-bit integer: its index and text.
    NotInteger(usize, &'r str),
    /// A value that is not a label value: its index, text and the format's complaints.
    NotLabelValue(usize, &'r str, Vec<&'static str>),
}

/// The values `labels.NewRequirement` rejects, in the order it checks them: the integer
/// bounds of `Gt` and `Lt`, then every value as a label value.
#[must_use]
pub fn bad_values(requirement: &NodeSelectorRequirement) -> Vec<BadValue<'_>> {
    let values = requirement.values.iter().enumerate();
    let mut bad: Vec<BadValue<'_>> = Vec::new();
    if matches!(requirement.operator.as_str(), "Gt" | "Lt") {
        bad.extend(
            values
                .clone()
                .filter(|(_, value)| value.parse::<i64>().is_err())
                .map(|(index, value)| BadValue::NotInteger(index, value)),
        );
    }
    bad.extend(values.filter_map(|(index, value)| {
        let complaints = names::label_value(value);
        (!complaints.is_empty()).then_some(BadValue::NotLabelValue(index, value, complaints))
    }));
    bad
}

/// Whether `labels.NewRequirement` accepts a node requirement: a known operator with the
/// number of values it takes, a qualified-name key, and no [`bad_values`].
#[must_use]
pub fn node_requirement_parses(requirement: &NodeSelectorRequirement) -> bool {
    let count = requirement.values.len();
    let shape = match requirement.operator.as_str() {
        "In" | "NotIn" => count > 0,
        "Exists" | "DoesNotExist" => count == 0,
        "Gt" | "Lt" => count == 1,
        _ => false,
    };
    shape
        && names::qualified_name(&requirement.key).is_empty()
        && bad_values(requirement).is_empty()
}

/// A node label requirement, including `Gt` and `Lt` on integer label values, as a parsed
/// requirement matches (callers check [`node_requirement_parses`] first).
#[must_use]
pub fn node_requirement_matches(requirement: &NodeSelectorRequirement, labels: &StringMap) -> bool {
    let value = labels.get(&requirement.key);
    let compare = |wanted: fn(i64, i64) -> bool| {
        let [bound] = requirement.values.as_slice() else {
            return false;
        };
        match (
            value.and_then(|v| v.parse::<i64>().ok()),
            bound.parse::<i64>().ok(),
        ) {
            (Some(label), Some(bound)) => wanted(label, bound),
            _ => false,
        }
    };
    match requirement.operator.as_str() {
        "In" => value.is_some_and(|value| requirement.values.contains(value)),
        "NotIn" => value.is_none_or(|value| !requirement.values.contains(value)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        "Gt" => compare(|label, bound| label > bound),
        "Lt" => compare(|label, bound| label < bound),
        _ => false,
    }
}

/// A `matchFields` requirement: only `metadata.name` with `In` or `NotIn` exists upstream.
fn field_matches(requirement: &NodeSelectorRequirement, name: &str) -> bool {
    if requirement.key != "metadata.name" {
        return false;
    }
    let listed = requirement.values.iter().any(|value| value == name);
    match requirement.operator.as_str() {
        "In" => listed,
        "NotIn" => !listed,
        _ => false,
    }
}

/// `GetZoneKey`: `region:\0:zone`, or empty without either label. The beta label wins
/// over the stable one (`component-helpers/node/topology`), which 1.11 does not know.
pub fn zone_key(node: &Node, version: Version) -> String {
    let labels = &node.metadata.labels;
    let label = |stable: &str, beta: &str| -> String {
        let stable = match version {
            Version::Current => labels.get(stable),
            Version::Legacy => None,
        };
        labels.get(beta).or(stable).cloned().unwrap_or_default()
    };
    let zone = label(
        "topology.kubernetes.io/zone",
        "failure-domain.beta.kubernetes.io/zone",
    );
    let region = label(
        "topology.kubernetes.io/region",
        "failure-domain.beta.kubernetes.io/region",
    );
    if region.is_empty() && zone.is_empty() {
        return String::new();
    }
    alloc::format!("{region}:\0:{zone}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec;

    fn labels(pairs: &[(&str, &str)]) -> StringMap {
        pairs
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect()
    }

    fn requirement(key: &str, operator: &str, values: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: operator.into(),
            values: values.iter().map(|v| String::from(*v)).collect(),
        }
    }

    #[test]
    fn node_requirements_follow_upstream_operators() {
        let node_labels = labels(&[("zone", "a"), ("cores", "8")]);
        assert!(node_requirement_matches(
            &requirement("zone", "In", &["a", "b"]),
            &node_labels
        ));
        assert!(node_requirement_matches(
            &requirement("disk", "NotIn", &["ssd"]),
            &node_labels
        ));
        assert!(node_requirement_matches(
            &requirement("disk", "DoesNotExist", &[]),
            &node_labels
        ));
        assert!(node_requirement_matches(
            &requirement("cores", "Gt", &["4"]),
            &node_labels
        ));
        assert!(!node_requirement_matches(
            &requirement("cores", "Gt", &["8"]),
            &node_labels
        ));
        assert!(!node_requirement_matches(
            &requirement("cores", "Lt", &["abc"]),
            &node_labels
        ));
        assert!(!node_requirement_matches(
            &requirement("zone", "Gt", &["1"]),
            &node_labels
        ));
    }

    // `labels.NewRequirement`: integer bounds for Gt/Lt, label values for every operator.
    #[test]
    fn terms_with_a_requirement_upstream_refuses_match_nothing() {
        let node = Node {
            metadata: crate::model::ObjectMeta {
                labels: labels(&[("zone", "a"), ("cores", "8")]),
                ..crate::model::ObjectMeta::default()
            },
            ..Node::default()
        };
        let term = |requirements: Vec<NodeSelectorRequirement>| NodeSelectorTerm {
            match_expressions: requirements,
            ..NodeSelectorTerm::default()
        };
        let not_in = requirement("zone", "NotIn", &["bad value"]);
        assert!(node_requirement_matches(&not_in, &node.metadata.labels));
        assert!(!node_requirement_parses(&not_in));
        assert!(!node_term_matches(&term(vec![not_in.clone()]), &node));
        assert!(!node_term_matches(
            &term(vec![requirement("zone", "In", &["a"]), not_in]),
            &node
        ));
        let negative = requirement("cores", "Gt", &["-4"]);
        assert_eq!(
            bad_values(&negative),
            [BadValue::NotLabelValue(
                0,
                "-4",
                vec![names::LABEL_VALUE_FORMAT]
            )]
        );
        let word = requirement("cores", "Lt", &["abc"]);
        assert_eq!(bad_values(&word), [BadValue::NotInteger(0, "abc")]);
        assert!(node_requirement_parses(&requirement("cores", "Gt", &["4"])));
        assert!(!node_requirement_parses(&requirement(
            "bad key!",
            "Exists",
            &[]
        )));
    }

    #[test]
    fn empty_terms_match_nothing_and_empty_selectors_match_everything() {
        let node = Node::default();
        assert!(!node_term_matches(&NodeSelectorTerm::default(), &node));
        assert!(!node_selector_matches(&NodeSelector::default(), &node));
        assert!(selector_matches(&LabelSelector::default(), &labels(&[])));
        let selector = LabelSelector {
            match_expressions: vec![LabelSelectorRequirement {
                key: "app".into(),
                operator: "Exists".into(),
                values: vec![],
            }],
            ..LabelSelector::default()
        };
        assert!(selector_matches(&selector, &labels(&[("app", "web")])));
        assert!(!selector_matches(&selector, &labels(&[])));
    }

    /// A PersistentVolume's `metadata.name` field requirement: 1.11 compares it with the
    /// empty name of the node `CheckNodeAffinity` builds, so `In` never holds; 1.34 skips
    /// field requirements on a node without fields, so a term of them alone matches every
    /// node, and only one that does not parse (`In` with two values) fails.
    #[test]
    fn volume_field_requirements_follow_each_release() {
        let term = |fields: Vec<NodeSelectorRequirement>, expressions| NodeSelector {
            node_selector_terms: vec![NodeSelectorTerm {
                match_expressions: expressions,
                match_fields: fields,
            }],
        };
        let node = labels(&[("zone", "a")]);
        let named = term(vec![requirement("metadata.name", "In", &["n2"])], vec![]);
        assert!(!node_selector_matches_labels(
            &named,
            &node,
            Version::Legacy
        ));
        assert!(node_selector_matches_labels(
            &named,
            &node,
            Version::Current
        ));
        let two = term(
            vec![requirement("metadata.name", "In", &["n1", "n2"])],
            vec![],
        );
        assert!(!node_selector_matches_labels(&two, &node, Version::Current));
        let zoned = term(
            vec![requirement("metadata.name", "In", &["n2"])],
            vec![requirement("zone", "In", &["b"])],
        );
        assert!(!node_selector_matches_labels(
            &zoned,
            &node,
            Version::Current
        ));
        let excluded = term(vec![requirement("metadata.name", "NotIn", &["n1"])], vec![]);
        assert!(node_selector_matches_labels(
            &excluded,
            &node,
            Version::Legacy
        ));
    }

    #[test]
    fn zone_keys_join_region_and_zone() {
        let mut labelled = Node::default();
        let labels = &mut labelled.metadata.labels;
        labels.insert("topology.kubernetes.io/zone".into(), "a".into());
        assert_eq!(zone_key(&labelled, Version::Current), ":\0:a");
        assert_eq!(zone_key(&labelled, Version::Legacy), "");
        labelled.metadata.labels.insert(
            "failure-domain.beta.kubernetes.io/region".into(),
            "r".into(),
        );
        assert_eq!(zone_key(&labelled, Version::Legacy), "r:\0:");
        assert_eq!(zone_key(&labelled, Version::Current), "r:\0:a");
        // Both labels: the beta one counts.
        labelled
            .metadata
            .labels
            .insert("failure-domain.beta.kubernetes.io/zone".into(), "b".into());
        assert_eq!(zone_key(&labelled, Version::Current), "r:\0:b");
    }
}
