//! RemovePodsViolatingNodeAffinity: evicts pods whose required node affinity their node no
//! longer matches, when another node matches it.
//!
//! Upstream: `pkg/descheduler/strategies/node_affinity.go` of `openshift/descheduler`
//! `v3.11.0` (`kubernetes-incubator/descheduler` `v0.5.0`). For each entry of
//! `nodeAffinityType`, in order: `requiredDuringSchedulingIgnoredDuringExecution` walks
//! every ready node's evictable pods in list order and evicts a pod that has a required
//! node affinity, does not match its node (`nodeSelector` and the affinity, 1.9 rules),
//! and matches some node by `PodFitsAnyNode` (the first matching node in list order
//! decides, and a cordoned one means no; taints and resources are not looked at). Any
//! other entry is logged as invalid and ends the strategy. An empty list does nothing.
//!
//! Example: a pod requiring `zone In [a]` on a node relabelled `zone: b`, with an
//! uncordoned `zone: a` node ready: the pod is evicted.
//!
//! Differences:
//! - upstream ignores the eviction's result: a refused eviction still counts against the
//!   node's eviction limit;
//! - an entry listed twice runs twice, and the second pass evicts again the pods the
//!   first evicted (they are still on their node, terminating).

use super::node::{self as nodes, AnyNode};
use super::{Context, StrategyRun, Verdict};
use crate::model::DeschedulerStrategy;
use crate::report::words::Words;

/// The strategy name in the policy.
pub(super) const NAME: &str = "RemovePodsViolatingNodeAffinity";

/// The one `nodeAffinityType` `v3.11.0` knows.
pub(super) const REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";

/// Runs the strategy.
pub(super) fn run(
    context: &mut Context<'_>,
    strategy: &DeschedulerStrategy,
    report: &mut StrategyRun,
) {
    let types = &strategy.params.node_affinity_type;
    if types.is_empty() {
        report.skip("no `nodeAffinityType` is given, nothing to do");
        return;
    }
    for affinity_type in types {
        if affinity_type != REQUIRED {
            report.note = Some(alloc::format!("invalid nodeAffinityType: {affinity_type}"));
            return;
        }
        for position in 0..context.nodes.len() {
            required(context, position, report);
        }
    }
}

/// One node's pass for `requiredDuringSchedulingIgnoredDuringExecution`.
fn required(context: &mut Context<'_>, position: usize, report: &mut StrategyRun) {
    let Some(&node) = context.nodes.get(position) else {
        return;
    };
    let list = context.evictable_on(position);
    for (at, &index) in list.iter().enumerate() {
        if context.limit_reached(position) {
            for &rest in list.get(at..).unwrap_or_default() {
                if context.has_required_node_affinity(rest) {
                    report.pods.push(context.limited(rest, position));
                }
            }
            return;
        }
        if !context.has_required_node_affinity(index) {
            continue;
        }
        let Some(pod) = context.pod(index) else {
            continue;
        };
        if nodes::pod_matches_node(pod, node) {
            report.pods.push(context.decision(
                index,
                position,
                Verdict::Kept,
                "matches its node's labels",
            ));
            continue;
        }
        match nodes::fits_any_node(pod, &context.nodes) {
            AnyNode::None => report.pods.push(context.decision(
                index,
                position,
                Verdict::Kept,
                "does not match its node, but no ready node matches it",
            )),
            AnyNode::Unschedulable(first) => {
                let why = context.node_words(first).framed(&(
                    "does not match its node; the first node it matches, `",
                    "`, is unschedulable",
                ));
                report
                    .pods
                    .push(context.decision(index, position, Verdict::Kept, why));
            }
            AnyNode::Fits(target) => {
                let why = context
                    .node_words(target)
                    .framed(&("does not match its node; it can be scheduled on `", "`"));
                let attempt = context.evict(index, position, NAME);
                if attempt.succeeded() {
                    report.evicted = report.evicted.saturating_add(1);
                } else {
                    // Upstream counts the attempt whatever its result.
                    context.count_eviction(position);
                }
                let mut decision = context.attempt_decision(index, position, &attempt, why);
                if decision.verdict == Verdict::Refused {
                    decision.reason = Words::Own(alloc::format!(
                        "{} (counted against the node limit anyway)",
                        decision.reason
                    ));
                }
                report.pods.push(decision);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    use super::*;
    use crate::descheduler::pods::testing::{build_node, build_pod, normal_owner};
    use crate::descheduler::testing::{strategy, strategy_refusing};
    use crate::descheduler::StrategyStatus;
    use crate::model::{
        Affinity, Node, NodeAffinity, NodeSelector, NodeSelectorRequirement, NodeSelectorTerm, Pod,
    };

    const KEY: &str = "kubernetes.io/desiredNode";

    fn config(enabled: bool, types: &[&str]) -> DeschedulerStrategy {
        let mut strategy = DeschedulerStrategy {
            enabled,
            ..DeschedulerStrategy::default()
        };
        strategy.params.node_affinity_type = types.iter().map(|t| String::from(*t)).collect();
        strategy
    }

    fn labelled(name: &str, unschedulable: bool) -> Node {
        let mut node = build_node(name, 2000, 3000, 10);
        node.metadata.labels.insert(KEY.into(), "yes".into());
        node.spec.unschedulable = unschedulable;
        node
    }

    /// `addPodsToNode`: one pod requiring `desiredNode In [yes]`, and two plain pods.
    fn pods_on(node: &str) -> Vec<Pod> {
        let mut with_affinity = normal_owner(build_pod("podWithNodeAffinity", 100, 0, node));
        with_affinity.spec.affinity = Some(Affinity {
            node_affinity: Some(NodeAffinity {
                required_during_scheduling_ignored_during_execution: Some(NodeSelector {
                    node_selector_terms: vec![NodeSelectorTerm {
                        match_expressions: vec![NodeSelectorRequirement {
                            key: KEY.into(),
                            operator: "In".into(),
                            values: vec!["yes".into()],
                        }],
                        ..NodeSelectorTerm::default()
                    }],
                }),
                ..NodeAffinity::default()
            }),
            ..Affinity::default()
        });
        vec![
            with_affinity,
            normal_owner(build_pod("pod1", 100, 0, node)),
            normal_owner(build_pod("pod2", 100, 0, node)),
        ]
    }

    /// `TestRemovePodsViolatingNodeAffinity` (`strategies/node_affinity_test.go`), the
    /// cases of `v0.5.0` (the `preferred…` ones came later).
    #[test]
    fn remove_pods_violating_node_affinity() {
        let required = config(true, &[REQUIRED]);
        let without = || build_node("nodeWithoutLabels", 2000, 3000, 10);
        // Description, nodes, the pods' node, the strategy, node limit, evictions.
        type Case<'a> = (
            &'a str,
            Vec<Node>,
            &'a str,
            DeschedulerStrategy,
            usize,
            usize,
        );
        let cases: Vec<Case<'_>> = vec![
            (
                "strategy disabled",
                vec![without(), labelled("nodeWithLabels", false)],
                "nodeWithoutLabels",
                config(false, &[REQUIRED]),
                0,
                0,
            ),
            (
                "invalid strategy type",
                vec![without(), labelled("nodeWithLabels", false)],
                "nodeWithoutLabels",
                config(true, &["requiredDuringSchedulingRequiredDuringExecution"]),
                0,
                0,
            ),
            (
                "pod is correctly scheduled on node",
                vec![labelled("nodeWithLabels", false)],
                "nodeWithLabels",
                required.clone(),
                0,
                0,
            ),
            (
                "another schedulable node available",
                vec![without(), labelled("nodeWithLabels", false)],
                "nodeWithoutLabels",
                required.clone(),
                0,
                1,
            ),
            (
                "another schedulable node available, node limit 1",
                vec![without(), labelled("nodeWithLabels", false)],
                "nodeWithoutLabels",
                required.clone(),
                1,
                1,
            ),
            (
                "no node where the pod fits",
                vec![without(), labelled("unschedulableNodeWithLabels", true)],
                "nodeWithoutLabels",
                required,
                0,
                0,
            ),
        ];
        for (description, nodes, node, config, max, expected) in cases {
            let (_, evicted) = strategy(NAME, Some(&config), nodes, pods_on(node), max);
            assert_eq!(evicted.len(), expected, "{description}");
        }
    }

    #[test]
    fn a_refused_eviction_still_counts_against_the_node_limit() {
        let nodes = vec![
            build_node("nodeWithoutLabels", 2000, 3000, 10),
            labelled("nodeWithLabels", false),
        ];
        let mut pods = pods_on("nodeWithoutLabels");
        let mut second = pods[0].clone();
        second.metadata.name = "second".into();
        pods.push(second);
        let (report, evicted) =
            strategy_refusing(NAME, Some(&config(true, &[REQUIRED])), nodes, pods, 1, &[0]);
        assert!(evicted.is_empty());
        let verdicts: Vec<Verdict> = report.pods.iter().map(|d| d.verdict).collect();
        assert_eq!(verdicts, [Verdict::Refused, Verdict::Limited]);
    }

    #[test]
    fn an_empty_type_list_does_nothing() {
        let nodes = vec![
            build_node("nodeWithoutLabels", 2000, 3000, 10),
            labelled("nodeWithLabels", false),
        ];
        let (report, evicted) = strategy(
            NAME,
            Some(&config(true, &[])),
            nodes,
            pods_on("nodeWithoutLabels"),
            0,
        );
        assert!(evicted.is_empty());
        assert_eq!(report.status, StrategyStatus::Skipped);
    }
}
