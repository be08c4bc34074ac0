//! Ready nodes, and whether a pod's node selector and required node affinity match a node.
//!
//! Upstream: `pkg/descheduler/node/node.go` (`IsReady`, `IsNodeUschedulable`,
//! `PodFitsCurrentNode`, `PodFitsAnyNode`) and `pkg/utils/predicates.go`
//! (`PodMatchNodeSelector`, the scheduler's 1.9 predicate copied in) of
//! `openshift/descheduler` `v3.11.0`.
//!
//! Matching follows Kubernetes 1.9, the types the descheduler was built with:
//! - `nodeSelector` must match, then the required node affinity, if set: the terms are
//!   ORed, a term with no `matchExpressions` matches nothing, and an expression
//!   `labels.NewRequirement` rejects (unknown operator, wrong number of values, a `Gt`/`Lt`
//!   value that is not an integer, a value that is not a label value) makes the whole
//!   affinity match nothing, even when a later term would match;
//! - `matchFields` does not exist in 1.9's types, so it is dropped when the pod is read:
//!   a term with only `matchFields` matches nothing, and one with both is judged by its
//!   `matchExpressions` alone.
//!
//! Example: a pod requiring `disk In [ssd]` on a node labelled `disk: hdd` does not fit
//! the node; it fits any node labelled `disk: ssd`.

use crate::labels;
use crate::model::{Node, NodeSelector, Pod, ResourceList};

/// `IsReady`: no `Ready` condition whose status is other than `True` (a node without a
/// `Ready` condition counts as ready; cordoned nodes are ready).
pub(super) fn is_ready(node: &Node) -> bool {
    node.status
        .conditions
        .iter()
        .all(|condition| condition.type_ != "Ready" || condition.status == "True")
}

/// `status.allocatable`, or `status.capacity` when allocatable is empty.
pub(super) fn capacity(node: &Node) -> &ResourceList {
    match &node.status.allocatable {
        Some(allocatable) if !allocatable.is_empty() => allocatable,
        _ => &node.status.capacity,
    }
}

/// `PodMatchNodeSelector` (and `PodFitsCurrentNode`): `nodeSelector` and the required
/// node affinity both match the node.
pub(super) fn pod_matches_node(pod: &Pod, node: &Node) -> bool {
    if !labels::map_matches(&pod.spec.node_selector, &node.metadata.labels) {
        return false;
    }
    match pod.spec.required_node_affinity() {
        Some(selector) => selector_matches(selector, node),
        None => true,
    }
}

/// `nodeMatchesNodeSelectorTerms` as 1.9 has it.
fn selector_matches(selector: &NodeSelector, node: &Node) -> bool {
    for term in &selector.node_selector_terms {
        if !term
            .match_expressions
            .iter()
            .all(labels::node_requirement_parses)
        {
            return false;
        }
        if !term.match_expressions.is_empty()
            && term.match_expressions.iter().all(|requirement| {
                labels::node_requirement_matches(requirement, &node.metadata.labels)
            })
        {
            return true;
        }
    }
    false
}

/// Where `PodFitsAnyNode` stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AnyNode {
    /// The first matching node, schedulable.
    Fits(usize),
    /// The first matching node is cordoned: upstream answers no without looking further.
    Unschedulable(usize),
    /// No node matches.
    None,
}

/// `PodFitsAnyNode`: the first node (in list order, the pod's own node included) whose
/// labels the pod matches decides; if it is cordoned the answer is no, even when a later
/// node would do. Taints and free resources are not looked at.
pub(super) fn fits_any_node(pod: &Pod, nodes: &[&Node]) -> AnyNode {
    for (position, node) in nodes.iter().enumerate() {
        if pod_matches_node(pod, node) {
            return if node.spec.unschedulable {
                AnyNode::Unschedulable(position)
            } else {
                AnyNode::Fits(position)
            };
        }
    }
    AnyNode::None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descheduler::pods::testing::build_node;
    use crate::model::{
        Affinity, NodeAffinity, NodeCondition, NodeSelectorRequirement, NodeSelectorTerm,
    };
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    const KEY: &str = "kubernetes.io/desiredNode";

    fn requiring(key: &str, operator: &str, values: &[&str]) -> Pod {
        let mut pod = Pod::default();
        pod.spec.affinity = Some(Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                    node_selector_terms: vec![NodeSelectorTerm {
                        match_expressions: vec![NodeSelectorRequirement {
                            key: key.into(),
                            operator: operator.into(),
                            values: values.iter().map(|v| (*v).into()).collect(),
                        }],
                        ..NodeSelectorTerm::default()
                    }],
                }),
                ..NodeAffinity::default()
            }),
            ..Affinity::default()
        });
        pod
    }

    fn labelled(value: &str, unschedulable: bool) -> Node {
        let mut node = Node::default();
        node.metadata.labels.insert(KEY.into(), value.into());
        node.spec.unschedulable = unschedulable;
        node
    }

    /// `TestReadyNodes` (`pkg/descheduler/node/node_test.go`).
    #[test]
    fn ready_nodes() {
        let condition = |type_: &str, status: &str| NodeCondition {
            type_: type_.into(),
            status: status.into(),
            ..NodeCondition::default()
        };
        let node1 = build_node("node2", 1000, 2000, 9);
        let mut node2 = build_node("node3", 1000, 2000, 9);
        node2.status.conditions = vec![condition("MemoryPressure", "True")];
        let mut node3 = build_node("node4", 1000, 2000, 9);
        node3.status.conditions = vec![condition("NetworkUnavailable", "True")];
        let mut node4 = build_node("node5", 1000, 2000, 9);
        node4.spec.unschedulable = true;
        let mut node5 = build_node("node6", 1000, 2000, 9);
        node5.status.conditions = vec![condition("Ready", "False")];
        assert!(is_ready(&node1));
        assert!(is_ready(&node2));
        assert!(is_ready(&node3));
        assert!(is_ready(&node4));
        assert!(!is_ready(&node5));
    }

    /// `TestPodFitsCurrentNode`.
    #[test]
    fn pod_fits_current_node() {
        let pod = requiring(KEY, "In", &["yes"]);
        assert!(pod_matches_node(&pod, &labelled("yes", false)));
        assert!(!pod_matches_node(&pod, &labelled("no", false)));
    }

    /// `TestPodFitsAnyNode`.
    #[test]
    fn pod_fits_any_node() {
        let pod = requiring(KEY, "In", &["yes"]);
        let fit = [labelled("yes", false), labelled("no", false)];
        let fit: Vec<&Node> = fit.iter().collect();
        assert_eq!(fits_any_node(&pod, &fit), AnyNode::Fits(0));
        let unfit = [labelled("unfit1", false), labelled("unfit2", false)];
        let unfit: Vec<&Node> = unfit.iter().collect();
        assert_eq!(fits_any_node(&pod, &unfit), AnyNode::None);
        let cordoned = [labelled("yes", true), labelled("no", false)];
        let cordoned: Vec<&Node> = cordoned.iter().collect();
        assert_eq!(fits_any_node(&pod, &cordoned), AnyNode::Unschedulable(0));
    }

    #[test]
    fn a_cordoned_first_match_hides_a_later_one() {
        let pod = requiring(KEY, "In", &["yes"]);
        let nodes = [labelled("yes", true), labelled("yes", false)];
        let nodes: Vec<&Node> = nodes.iter().collect();
        assert_eq!(fits_any_node(&pod, &nodes), AnyNode::Unschedulable(0));
    }

    #[test]
    fn invalid_expressions_and_match_fields_follow_1_9() {
        let node = labelled("yes", false);
        assert!(!pod_matches_node(&requiring(KEY, "In", &[]), &node));
        assert!(!pod_matches_node(&requiring(KEY, "Gt", &["x"]), &node));
        assert!(!pod_matches_node(&requiring(KEY, "Near", &["yes"]), &node));
        // An invalid first term hides a matching second one.
        let mut pod = requiring(KEY, "Exists", &["oops"]);
        let good = requiring(KEY, "In", &["yes"]);
        if let (Some(terms), Some(good_terms)) =
            (selector_terms(&mut pod), selector_terms_of(&good))
        {
            terms.extend(good_terms);
        }
        assert!(!pod_matches_node(&pod, &node));
        // A term with only `matchFields` is empty to 1.9.
        let mut fields_only = Pod::default();
        fields_only.spec.affinity = Some(Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                    node_selector_terms: vec![NodeSelectorTerm {
                        match_fields: vec![NodeSelectorRequirement {
                            key: "metadata.name".into(),
                            operator: "In".into(),
                            values: vec![String::new()],
                        }],
                        ..NodeSelectorTerm::default()
                    }],
                }),
                ..NodeAffinity::default()
            }),
            ..Affinity::default()
        });
        assert!(!pod_matches_node(&fields_only, &node));
    }

    fn selector_terms(pod: &mut Pod) -> Option<&mut Vec<NodeSelectorTerm>> {
        pod.spec
            .affinity
            .as_mut()?
            .node_affinity
            .as_mut()?
            .required_during_scheduling_ignored_during_execution
            .as_mut()
            .map(|selector| &mut selector.node_selector_terms)
    }

    fn selector_terms_of(pod: &Pod) -> Option<Vec<NodeSelectorTerm>> {
        pod.spec
            .affinity
            .as_ref()?
            .node_affinity
            .as_ref()?
            .required_during_scheduling_ignored_during_execution
            .as_ref()
            .map(|selector| selector.node_selector_terms.clone())
    }
}
