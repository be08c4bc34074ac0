//! NodeAffinityPriority: prefer nodes matching the pod's preferred node affinity terms.
//!
//! Follows 1.11 `node_affinity.go`: the sum of the weights of the terms whose
//! `matchExpressions` match (an empty list matches nothing; `matchFields` are ignored),
//! normalised to 0–10 by the best node (`NormalizeReduce(10, false)`). A weighted term
//! with a requirement `labels.NewRequirement` rejects fails the priority on every node,
//! and so the pod's scheduling attempt ([`error`]).

use alloc::string::String;
use alloc::vec::Vec;

use crate::labels::{self, BadValue};
use crate::model::{Node, Pod, PreferredSchedulingTerm};
use crate::schedule::legacy::MAX_PRIORITY;
use crate::schedule::plugins::normalize;
use crate::schedule::snapshot::NodeInfo;

/// The pod's preferred terms.
fn preferred(pod: &Pod) -> &[PreferredSchedulingTerm] {
    pod.spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.node_affinity.as_ref())
        .map_or(&[], |affinity| {
            &affinity.preferred_during_scheduling_ignored_during_execution
        })
}

/// The error the priority returns on each node when a weighted term has a value
/// `labels.NewRequirement` rejects: the first such value's, in 1.11's words
/// (`apimachinery/pkg/labels/selector.go`).
#[must_use]
pub fn error(pod: &Pod) -> Option<String> {
    let bad = preferred(pod)
        .iter()
        .filter(|term| term.weight != 0)
        .flat_map(|term| &term.preference.match_expressions)
        .find_map(|requirement| labels::bad_values(requirement).into_iter().next())?;
    match bad {
        BadValue::NotInteger(..) => {
            Some("for 'Gt', 'Lt' operators, the value must be an integer".into())
        }
        BadValue::NotLabelValue(_, value, _) => labels::legacy_value_error(value),
    }
}

/// The raw score: matching preferred weights.
#[must_use]
pub fn raw(pod: &Pod, node: &Node) -> i64 {
    preferred(pod)
        .iter()
        .filter(|term| {
            let expressions = &term.preference.match_expressions;
            term.weight != 0
                && !expressions.is_empty()
                && expressions.iter().all(|requirement| {
                    labels::node_requirement_matches(requirement, &node.metadata.labels)
                })
        })
        .map(|term| i64::from(term.weight))
        .sum()
}

/// Normalised scores over the feasible nodes.
#[must_use]
pub fn scores(pod: &Pod, nodes: &[&NodeInfo<'_>]) -> Vec<i64> {
    let mut scores: Vec<i64> = nodes.iter().map(|info| raw(pod, info.node)).collect();
    normalize::default_normalize(&mut scores, MAX_PRIORITY, false);
    scores
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{
        Affinity, NodeAffinity, NodeSelectorRequirement, NodeSelectorTerm, PreferredSchedulingTerm,
    };
    use crate::schedule::legacy::PriorityKind;
    use crate::schedule::predicates::testing;
    use alloc::string::String;
    use alloc::vec;

    fn requirement(key: &str, value: &str) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: "In".into(),
            values: vec![value.into()],
        }
    }

    fn labelled(name: &str, labels: &[(&str, &str)]) -> Node {
        let mut node = testing::node(name, 1000, 1000);
        node.metadata.labels = labels
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect();
        node
    }

    // The first bad value of the first weighted term with one, in 1.11's words.
    #[test]
    fn terms_that_do_not_parse_fail_the_priority() {
        let term = |weight: i32, key: &str, operator: &str, value: &str| PreferredSchedulingTerm {
            weight,
            preference: NodeSelectorTerm {
                match_expressions: vec![NodeSelectorRequirement {
                    key: key.into(),
                    operator: operator.into(),
                    values: vec![value.into()],
                }],
                ..NodeSelectorTerm::default()
            },
        };
        let pod = |terms: Vec<PreferredSchedulingTerm>| {
            let mut pod = Pod::default();
            pod.spec.affinity = Some(Affinity {
                node_affinity: Some(NodeAffinity {
                    preferred_during_scheduling_ignored_during_execution: terms,
                    ..NodeAffinity::default()
                }),
                ..Affinity::default()
            });
            pod
        };
        assert_eq!(error(&pod(vec![term(0, "cores", "Gt", "abc")])), None);
        assert_eq!(
            error(&pod(vec![
                term(1, "zone", "In", "a"),
                term(1, "cores", "Gt", "abc"),
                term(1, "zone", "NotIn", "bad value"),
            ]))
            .as_deref(),
            Some("for 'Gt', 'Lt' operators, the value must be an integer")
        );
        let long = "x".repeat(64);
        assert_eq!(
            error(&pod(vec![term(1, "zone", "NotIn", &long)])),
            Some(alloc::format!(
                "invalid label value: \"{long}\": must be no more than 63 characters"
            ))
        );
    }

    // 1.11 `TestNodeAffinityPriority`.
    #[test]
    fn upstream_table() {
        let terms = [
            PreferredSchedulingTerm {
                weight: 2,
                preference: NodeSelectorTerm {
                    match_expressions: vec![requirement("foo", "bar")],
                    ..NodeSelectorTerm::default()
                },
            },
            PreferredSchedulingTerm {
                weight: 4,
                preference: NodeSelectorTerm {
                    match_expressions: vec![requirement("key", "value")],
                    ..NodeSelectorTerm::default()
                },
            },
            PreferredSchedulingTerm {
                weight: 5,
                preference: NodeSelectorTerm {
                    match_expressions: vec![
                        requirement("foo", "bar"),
                        requirement("key", "value"),
                        requirement("az", "az1"),
                    ],
                    ..NodeSelectorTerm::default()
                },
            },
        ];
        let pod_with = |count: usize| {
            let mut pod = Pod::default();
            pod.spec.affinity = Some(Affinity {
                node_affinity: Some(NodeAffinity {
                    preferred_during_scheduling_ignored_during_execution: terms[..count].to_vec(),
                    ..NodeAffinity::default()
                }),
                ..Affinity::default()
            });
            pod
        };
        let run = |pod: &Pod, nodes: &[Node]| {
            let mut pod = pod.clone();
            pod.metadata.name = "p".into();
            let cluster = testing::cluster(nodes.to_vec(), vec![pod]);
            crate::schedule::priorities::testing::run(&PriorityKind::NodeAffinity, &cluster, 0, 1)
        };
        let nodes = [
            labelled("m1", &[("foo", "bar")]),
            labelled("m2", &[("key", "value")]),
            labelled("m3", &[("az", "az1")]),
        ];
        assert_eq!(run(&Pod::default(), &nodes), [0, 0, 0]);
        let other = [
            labelled("m1", &[("abc", "az11"), ("def", "az22")]),
            labelled("m2", &[("key", "value")]),
            labelled("m3", &[("az", "az1")]),
        ];
        assert_eq!(run(&pod_with(1), &other), [0, 0, 0]);
        assert_eq!(run(&pod_with(1), &nodes), [10, 0, 0]);
        let mixed = [
            labelled("m1", &[("foo", "bar")]),
            labelled("m5", &[("foo", "bar"), ("key", "value"), ("az", "az1")]),
            labelled("m2", &[("key", "value")]),
        ];
        assert_eq!(run(&pod_with(3), &mixed), [1, 10, 3]);
    }
}
