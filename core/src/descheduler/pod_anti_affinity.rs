//! RemovePodsViolatingInterPodAntiAffinity: evicts pods whose required anti-affinity
//! matches another pod on their node.
//!
//! Upstream: `pkg/descheduler/strategies/pod_antiaffinity.go` of `openshift/descheduler`
//! `v3.11.0` (`kubernetes-incubator/descheduler` `v0.5.0`). Node by node, the evictable
//! pods are walked in list order; a pod is evicted when one of its
//! `requiredDuringSchedulingIgnoredDuringExecution` anti-affinity terms selects another
//! pod of that list: a pod with a different name, in one of the term's `namespaces`
//! (the pod's own when none are given), whose labels the term's selector matches. An
//! evicted pod leaves the list, so the pods it repelled may stay. The strategy has no
//! parameters.
//!
//! Example: `a` (labels `app: db`) and `b` (anti-affinity to `app In [db]`) on one node:
//! `b` is evicted.
//!
//! Differences from the scheduler's rule:
//! - only evictable pods are compared (a DaemonSet pod never causes an eviction), and
//!   only pods on the same node: `topologyKey` is ignored;
//! - pods are told apart by name alone, so a same-named pod in another namespace never
//!   matches; `namespaceSelector` does not exist in the 1.9 types;
//! - a term without `labelSelector` selects nothing, and an invalid selector makes the
//!   pod's check stop with no match, even if a later term would match;
//! - the OpenShift 3.11 documentation's example evicts the pod the others repel ("podA
//!   will be evicted so that podB and podC can run"): the code evicts the pods that
//!   carry the anti-affinity, podB first, and keeps podA.

use alloc::string::String;

use super::{Context, StrategyRun, Verdict};
use crate::labels;
use crate::model::LabelSelector;
use crate::schedule::predicates::match_inter_pod_affinity::anti_affinity_terms;

/// The strategy name in the policy.
pub(super) const NAME: &str = "RemovePodsViolatingInterPodAntiAffinity";

/// What `checkPodsWithAntiAffinityExist` found for a pod.
enum Check {
    /// The pod has no required anti-affinity term.
    NoTerms,
    /// A term's selector is invalid: upstream stops and reports no match.
    InvalidSelector,
    /// The first pod a term matched.
    Violated(usize),
    /// No term matched another pod.
    Satisfied,
}

/// Runs the strategy over every ready node.
pub(super) fn run(context: &mut Context<'_>, report: &mut StrategyRun) {
    for position in 0..context.nodes.len() {
        let mut list = context.evictable_on(position);
        let mut at = 0;
        while let Some(&index) = list.get(at) {
            if context.limit_reached(position) {
                for &rest in list.get(at..).unwrap_or_default() {
                    if has_terms(context, rest) {
                        report.pods.push(context.limited(rest, position));
                    }
                }
                break;
            }
            match check(context, index, &list) {
                Check::NoTerms => {}
                Check::InvalidSelector => report.pods.push(context.decision(
                    index,
                    position,
                    Verdict::Kept,
                    "an anti-affinity label selector is invalid, so nothing matches",
                )),
                Check::Satisfied => report.pods.push(context.decision(
                    index,
                    position,
                    Verdict::Kept,
                    "no other evictable pod on the node matches its anti-affinity",
                )),
                Check::Violated(other) => {
                    let why = context
                        .pod_words(other)
                        .framed(&("its required anti-affinity matches `", "` on the node"));
                    let attempt = context.evict(index, position, NAME);
                    report
                        .pods
                        .push(context.attempt_decision(index, position, &attempt, why));
                    if attempt.succeeded() {
                        report.evicted = report.evicted.saturating_add(1);
                        list.remove(at);
                        continue;
                    }
                }
            }
            at += 1;
        }
    }
}

fn has_terms(context: &Context<'_>, index: usize) -> bool {
    context.may_have_pod_affinity(index)
        && context
            .pod(index)
            .is_some_and(|pod| !anti_affinity_terms(pod).is_empty())
}

/// `checkPodsWithAntiAffinityExist` over the node's remaining evictable pods.
fn check(context: &Context<'_>, index: usize, list: &[usize]) -> Check {
    if !context.may_have_pod_affinity(index) {
        return Check::NoTerms;
    }
    let Some(pod) = context.pod(index) else {
        return Check::NoTerms;
    };
    let terms = anti_affinity_terms(pod);
    if terms.is_empty() {
        return Check::NoTerms;
    }
    for term in terms {
        let Some(selector) = &term.label_selector else {
            // `LabelSelectorAsSelector(nil)` selects nothing.
            continue;
        };
        if !is_valid(selector) {
            return Check::InvalidSelector;
        }
        let own = [pod.metadata.namespace.clone()];
        let namespaces: &[String] = if term.namespaces.is_empty() {
            &own
        } else {
            &term.namespaces
        };
        for &other in list {
            let Some(existing) = context.pod(other) else {
                continue;
            };
            if existing.metadata.name != pod.metadata.name
                && namespaces.contains(&existing.metadata.namespace)
                && labels::selector_matches(selector, &existing.metadata.labels)
            {
                return Check::Violated(other);
            }
        }
    }
    Check::Satisfied
}

/// Whether `LabelSelectorAsSelector` accepts the selector's expressions: their operators
/// and value counts, and values that are label values (which 1.11 admits unchecked).
fn is_valid(selector: &LabelSelector) -> bool {
    selector
        .match_expressions
        .iter()
        .all(|requirement| match requirement.operator.as_str() {
            "In" | "NotIn" => !requirement.values.is_empty(),
            "Exists" | "DoesNotExist" => requirement.values.is_empty(),
            _ => false,
        })
        && labels::legacy_selector_error(Some(selector)).is_none()
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    use crate::descheduler::pods::testing::{
        build_node, build_pod, daemon_set_owner, normal_owner,
    };
    use crate::descheduler::testing::strategy;
    use crate::descheduler::Verdict;
    use crate::model::{
        Affinity, LabelSelector, LabelSelectorRequirement, Pod, PodAffinityTerm, PodAntiAffinity,
    };

    /// `setPodAntiAffinity`: required anti-affinity to `foo In [bar]`, topology `region`.
    fn anti_affinity(mut pod: Pod) -> Pod {
        pod.spec.affinity = Some(Affinity {
            pod_anti_affinity: Some(PodAntiAffinity {
                required_during_scheduling_ignored_during_execution: vec![PodAffinityTerm {
                    label_selector: Some(LabelSelector {
                        match_expressions: vec![LabelSelectorRequirement {
                            key: "foo".into(),
                            operator: "In".into(),
                            values: vec!["bar".into()],
                        }],
                        ..LabelSelector::default()
                    }),
                    topology_key: "region".into(),
                    ..PodAffinityTerm::default()
                }],
                ..PodAntiAffinity::default()
            }),
            ..Affinity::default()
        });
        pod
    }

    fn labelled(mut pod: Pod) -> Pod {
        pod.metadata.labels.insert("foo".into(), "bar".into());
        pod
    }

    /// `TestPodAntiAffinity` (`strategies/pod_antiaffinity_test.go`): p1, p3 and p4 repel
    /// p2; all three are evicted, or one with a node limit of 1.
    #[test]
    fn pod_anti_affinity() {
        let node = build_node("n1", 2000, 3000, 10);
        let pods: Vec<Pod> = vec![
            anti_affinity(normal_owner(build_pod("p1", 100, 0, "n1"))),
            labelled(normal_owner(build_pod("p2", 100, 0, "n1"))),
            anti_affinity(normal_owner(build_pod("p3", 100, 0, "n1"))),
            anti_affinity(normal_owner(build_pod("p4", 100, 0, "n1"))),
        ];
        let (report, evicted) = strategy(super::NAME, None, vec![node.clone()], pods.clone(), 0);
        assert_eq!(evicted, [0, 2, 3]);
        assert_eq!(report.evicted, 3);
        let (report, evicted) = strategy(super::NAME, None, vec![node], pods, 1);
        assert_eq!(evicted, [0]);
        let limited = report
            .pods
            .iter()
            .filter(|d| d.verdict == Verdict::Limited)
            .count();
        assert_eq!(limited, 2);
    }

    /// The earlier upstream case: p1 and p3 repel each other through p3's label; once p1
    /// is evicted p3 has nothing left to match.
    #[test]
    fn an_evicted_pod_no_longer_counts() {
        let node = build_node("n1", 2000, 3000, 10);
        let pods = vec![
            anti_affinity(normal_owner(build_pod("p1", 100, 0, "n1"))),
            normal_owner(build_pod("p2", 100, 0, "n1")),
            anti_affinity(labelled(normal_owner(build_pod("p3", 100, 0, "n1")))),
        ];
        let (report, evicted) = strategy(super::NAME, None, vec![node], pods, 0);
        assert_eq!(evicted, [0]);
        let p3 = report
            .pods
            .iter()
            .find(|d| d.pod == "default/p3")
            .map(|d| d.verdict);
        assert_eq!(p3, Some(Verdict::Kept));
    }

    /// A value that is not a label value fails the selector as it is built: the pod is
    /// kept though its other value matches.
    #[test]
    fn a_value_that_is_not_a_label_value_stops_the_check() {
        let node = build_node("n1", 2000, 3000, 10);
        let mut repelling = anti_affinity(normal_owner(build_pod("p1", 100, 0, "n1")));
        if let Some(term) = repelling
            .spec
            .affinity
            .as_mut()
            .and_then(|affinity| affinity.pod_anti_affinity.as_mut())
            .and_then(|anti| {
                anti.required_during_scheduling_ignored_during_execution
                    .first_mut()
            })
            .and_then(|term| term.label_selector.as_mut())
            .and_then(|selector| selector.match_expressions.first_mut())
        {
            term.values.push("bar/v1".into());
        }
        let pods = vec![
            repelling,
            labelled(normal_owner(build_pod("p2", 100, 0, "n1"))),
        ];
        let (report, evicted) = strategy(super::NAME, None, vec![node], pods, 0);
        assert!(evicted.is_empty());
        let p1 = report.pods.iter().find(|d| d.pod == "default/p1");
        assert_eq!(p1.map(|d| d.verdict), Some(Verdict::Kept));
    }

    #[test]
    fn only_evictable_pods_of_the_same_name_space_count() {
        let node = build_node("n1", 2000, 3000, 10);
        let mut other_namespace = labelled(normal_owner(build_pod("p2", 100, 0, "n1")));
        other_namespace.metadata.namespace = "other".into();
        let pods = vec![
            anti_affinity(normal_owner(build_pod("p1", 100, 0, "n1"))),
            labelled(daemon_set_owner(build_pod("ds", 100, 0, "n1"))),
            other_namespace,
        ];
        let (_, evicted) = strategy(super::NAME, None, vec![node], pods, 0);
        assert!(evicted.is_empty());
    }
}
