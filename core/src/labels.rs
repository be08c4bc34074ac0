//! Label and node selectors: which labelled objects a selector matches.
//!
//! Follows `k8s.io/apimachinery/pkg/labels/selector.go` and
//! `k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go`.

use crate::model::{
    LabelSelector, LabelSelectorRequirement, Node, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm, StringMap,
};

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
/// node affinity is checked (`CheckNodeAffinity` builds a node without a name, so a
/// `metadata.name` field requirement sees an empty name).
#[must_use]
pub fn node_selector_matches_labels(selector: &NodeSelector, labels: &StringMap) -> bool {
    selector
        .node_selector_terms
        .iter()
        .any(|term| term_matches(term, labels, ""))
}

fn term_matches(term: &NodeSelectorTerm, labels: &StringMap, name: &str) -> bool {
    if term.match_expressions.is_empty() && term.match_fields.is_empty() {
        return false;
    }
    term.match_expressions
        .iter()
        .all(|requirement| node_requirement_matches(requirement, labels))
        && term
            .match_fields
            .iter()
            .all(|requirement| field_matches(requirement, name))
}

/// A node label requirement, including `Gt` and `Lt` on integer label values.
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
}
