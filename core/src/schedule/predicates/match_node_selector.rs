//! MatchNodeSelector (`PodMatchNodeSelector`): `spec.nodeSelector` and the required node
//! affinity must both match.
//!
//! Follows 1.11 `podMatchesNodeSelectorAndAffinityTerms` in `predicates.go`: every
//! nodeSelector pair must be on the node; a present `required…` node selector needs one
//! matching term (no terms, or only empty terms, match nothing). The term rules (Gt/Lt on
//! int64 labels, `matchFields` on `metadata.name`, a term with a requirement
//! `labels.NewRequirement` refuses matching nothing, as `MatchNodeSelectorTerms` skips
//! it) are those of [`crate::labels`].

use super::check;
use crate::model::{Node, Pod};
use crate::schedule::plugins::node_affinity;
use crate::schedule::status::Status;

/// `ErrNodeSelectorNotMatch`.
pub const REASON: &str = "node(s) didn't match node selector";

/// The predicate.
#[must_use]
pub fn predicate(pod: &Pod, node: &Node) -> Status {
    check(node_affinity::matches_required(pod, node), REASON)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        Affinity, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm,
    };
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    fn node(labels: &[(&str, &str)]) -> Node {
        let mut node = Node::default();
        node.metadata.labels = labels
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect();
        node
    }

    fn required(terms: Option<Vec<NodeSelectorTerm>>) -> Pod {
        let mut pod = Pod::default();
        pod.spec.affinity = Some(Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: terms.map(
                    |node_selector_terms| NodeSelector {
                        node_selector_terms,
                    },
                ),
                ..NodeAffinity::default()
            }),
            ..Affinity::default()
        });
        pod
    }

    fn term(key: &str, operator: &str, values: &[&str]) -> NodeSelectorTerm {
        NodeSelectorTerm {
            match_expressions: vec![NodeSelectorRequirement {
                key: key.into(),
                operator: operator.into(),
                values: values.iter().map(|v| String::from(*v)).collect(),
            }],
            ..NodeSelectorTerm::default()
        }
    }

    // Cases of 1.11 `TestPodFitsSelector`, plus Gt/Lt edge cases and terms upstream cannot
    // parse.
    #[test]
    fn upstream_table() {
        let mut selector_pod = Pod::default();
        selector_pod.spec.node_selector = [("foo", "bar"), ("baz", "blah")]
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect();
        let foo_bar = node(&[("foo", "bar")]);
        let cases = [
            (selector_pod, foo_bar.clone(), false),
            (
                required(Some(vec![term("foo", "In", &["bar", "value2"])])),
                foo_bar.clone(),
                true,
            ),
            (
                required(Some(vec![term("kernel-version", "Gt", &["0204"])])),
                node(&[("kernel-version", "0206")]),
                true,
            ),
            (
                required(Some(vec![term("kernel-version", "Gt", &["0204"])])),
                node(&[("kernel-version", "0204")]),
                false,
            ),
            (
                required(Some(vec![term("mem-type", "NotIn", &["DDR", "DDR2"])])),
                node(&[("mem-type", "DDR3")]),
                true,
            ),
            (required(Some(vec![])), foo_bar.clone(), false),
            (
                required(Some(vec![NodeSelectorTerm::default()])),
                foo_bar.clone(),
                false,
            ),
            (required(None), foo_bar.clone(), true),
            (
                required(Some(vec![term("x", "Gt", &["1.5"])])),
                node(&[("x", "2")]),
                false,
            ),
            // `-1` is no label value: `labels.NewRequirement` refuses the requirement, so
            // the term matches nothing.
            (
                required(Some(vec![term("x", "Lt", &["-1"])])),
                node(&[("x", "-2")]),
                false,
            ),
            (
                required(Some(vec![term("zone", "NotIn", &["bad value"])])),
                node(&[("zone", "a")]),
                false,
            ),
            // Terms are ORed: another term still matches.
            (
                required(Some(vec![
                    term("zone", "NotIn", &["bad value"]),
                    term("zone", "In", &["a"]),
                ])),
                node(&[("zone", "a")]),
                true,
            ),
            (
                required(Some(vec![term("x", "Gt", &["1"])])),
                node(&[("x", "abc")]),
                false,
            ),
        ];
        for (index, (pod, node, fits)) in cases.into_iter().enumerate() {
            let status = predicate(&pod, &node);
            assert_eq!(status.passed(), fits, "case {index}");
            if !fits {
                assert_eq!(status.reasons, [REASON]);
            }
        }
    }
}
