//! NodeAffinityPriority: prefer nodes matching the pod's preferred node affinity terms.
//!
//! Follows 1.11 `node_affinity.go`: the sum of the weights of the terms whose
//! `matchExpressions` match (an empty list matches nothing; `matchFields` are ignored),
//! normalised to 0–10 by the best node (`NormalizeReduce(10, false)`).

use alloc::vec::Vec;

use crate::labels;
use crate::model::{Node, Pod};
use crate::schedule::legacy::MAX_PRIORITY;
use crate::schedule::plugins::normalize;
use crate::schedule::snapshot::NodeInfo;

/// The raw score: matching preferred weights.
#[must_use]
pub fn raw(pod: &Pod, node: &Node) -> i64 {
    let Some(affinity) = pod
        .spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.node_affinity.as_ref())
    else {
        return 0;
    };
    affinity
        .preferred_during_scheduling_ignored_during_execution
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
