//! NodeAffinity: `spec.nodeSelector` and required node affinity filter nodes; preferred
//! node affinity scores them.
//!
//! Follows `pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go` and
//! `k8s.io/component-helpers/scheduling/corev1/nodeaffinity`.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::normalize;
use crate::labels;
use crate::model::{Node, NodeSelector, Pod};
use crate::schedule::status::Status;

/// The plugin name.
pub const NAME: &str = "NodeAffinity";

/// Upstream's filter reason (1.22 and later).
pub const REASON: &str = "node(s) didn't match Pod's node affinity/selector";

/// PreFilter's reason when every required term pins `metadata.name` and the terms
/// contradict each other.
pub const REASON_CONFLICT: &str = "pod affinity terms conflict";

fn required(pod: &Pod) -> Option<&NodeSelector> {
    pod.spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required_during_scheduling_ignored_during_execution
        .as_ref()
}

/// What PreFilter decides before any node is examined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreFilter {
    /// Every node is examined.
    AllNodes,
    /// Only these nodes can match: every required term pins `metadata.name In [...]`.
    Only(BTreeSet<String>),
    /// No node can match.
    Rejected(&'static str),
}

/// PreFilter: when every required term pins node names, only those nodes are examined.
#[must_use]
pub fn pre_filter(pod: &Pod) -> PreFilter {
    let Some(selector) = required(pod) else {
        return PreFilter::AllNodes;
    };
    if selector.node_selector_terms.is_empty() {
        return PreFilter::AllNodes;
    }
    let mut names: BTreeSet<String> = BTreeSet::new();
    for term in &selector.node_selector_terms {
        let mut term_names: Option<BTreeSet<String>> = None;
        for requirement in &term.match_fields {
            if requirement.key == "metadata.name" && requirement.operator == "In" {
                let values: BTreeSet<String> = requirement.values.iter().cloned().collect();
                term_names = Some(match term_names {
                    None => values,
                    Some(previous) => previous.intersection(&values).cloned().collect(),
                });
            }
        }
        match term_names {
            // A term without a name pin lets every node through (terms are ORed).
            None => return PreFilter::AllNodes,
            Some(term_names) => names.extend(term_names),
        }
    }
    if names.is_empty() {
        PreFilter::Rejected(REASON_CONFLICT)
    } else {
        PreFilter::Only(names)
    }
}

/// Filter: the node selector and the required terms must both match.
#[must_use]
pub fn filter(pod: &Pod, node: &Node) -> Status {
    if matches_required(pod, node) {
        Status::success()
    } else {
        Status::unresolvable(REASON)
    }
}

/// `spec.nodeSelector` (every pair) and required node affinity (any term).
#[must_use]
pub fn matches_required(pod: &Pod, node: &Node) -> bool {
    labels::map_matches(&pod.spec.node_selector, &node.metadata.labels)
        && required(pod).is_none_or(|selector| labels::node_selector_matches(selector, node))
}

/// PreScore: the plugin skips pods without preferred terms.
#[must_use]
pub fn has_preferred_terms(pod: &Pod) -> bool {
    pod.spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.node_affinity.as_ref())
        .is_some_and(|node_affinity| {
            !node_affinity
                .preferred_during_scheduling_ignored_during_execution
                .is_empty()
        })
}

/// Raw score: the sum of the weights of the preferred terms the node matches (terms with
/// weight 0 or without requirements count for nothing).
#[must_use]
pub fn preferred_weight(pod: &Pod, node: &Node) -> i64 {
    let Some(node_affinity) = pod
        .spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.node_affinity.as_ref())
    else {
        return 0;
    };
    node_affinity
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .filter(|term| term.weight != 0 && labels::node_term_matches(&term.preference, node))
        .map(|term| i64::from(term.weight))
        .sum()
}

/// Scores over the feasible nodes, normalised to `0..=max_score` by the best.
#[must_use]
pub fn scores<'n>(pod: &Pod, nodes: impl Iterator<Item = &'n Node>, max_score: i64) -> Vec<i64> {
    let mut scores: Vec<i64> = nodes.map(|node| preferred_weight(pod, node)).collect();
    normalize::default_normalize(&mut scores, max_score, false);
    scores
}
