//! InterPodAffinityPriority: prefer nodes near pods the pod likes and away from pods it
//! dislikes, and honour placed pods' affinity toward it.
//!
//! Follows 1.11 `interpod_affinity.go` (`CalculateInterPodAffinityPriority`): for every
//! placed pod `E` (only those with pod affinity or anti-affinity when the incoming pod has
//! none), add to every feasible node sharing the term's topology with `E`'s node:
//! the weight of each preferred affinity term of the pod matching `E` (minus for
//! anti-affinity), `hardPodAffinitySymmetricWeight` for each required affinity term of
//! `E` matching the pod, and the weights of `E`'s preferred (anti-)affinity terms matching
//! the pod. Normalised with the minimum and maximum **starting at 0**:
//! `int(10 * (count - min) / (max - min))`, all 0 when `max == min`.

use alloc::vec::Vec;

use super::{truncate, MAX_PRIORITY_F64};
use crate::model::{Node, Pod, PodAffinityTerm, WeightedPodAffinityTerm};
use crate::schedule::predicates::{same_topology, term_matches};
use crate::schedule::snapshot::{NodeInfo, Snapshot};

fn has_pod_affinity(pod: &Pod) -> (bool, bool) {
    pod.spec
        .affinity
        .as_ref()
        .map_or((false, false), |affinity| {
            (
                affinity.pod_affinity.is_some(),
                affinity.pod_anti_affinity.is_some(),
            )
        })
}

/// Adds `weight` to every feasible node sharing `term`'s topology with `fixed`, when
/// `target` matches the term defined by `defining`.
#[allow(clippy::too_many_arguments)]
fn process(
    counts: &mut [f64],
    nodes: &[&NodeInfo<'_>],
    term: &PodAffinityTerm,
    defining: &Pod,
    target: &Pod,
    fixed: &Node,
    weight: f64,
) {
    if !term_matches(term, defining, target) {
        return;
    }
    for (count, info) in counts.iter_mut().zip(nodes) {
        if same_topology(info.node, fixed, &term.topology_key) {
            *count += weight;
        }
    }
}

fn process_weighted(
    counts: &mut [f64],
    nodes: &[&NodeInfo<'_>],
    terms: &[WeightedPodAffinityTerm],
    defining: &Pod,
    target: &Pod,
    fixed: &Node,
    sign: f64,
) {
    for term in terms {
        process(
            counts,
            nodes,
            &term.pod_affinity_term,
            defining,
            target,
            fixed,
            f64::from(term.weight) * sign,
        );
    }
}

/// Normalised scores over the feasible nodes.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn scores(
    pod: &Pod,
    snapshot: &Snapshot<'_>,
    nodes: &[&NodeInfo<'_>],
    hard_weight: i64,
) -> Vec<i64> {
    let mut counts = alloc::vec![0.0f64; nodes.len()];
    let (has_affinity, has_anti) = has_pod_affinity(pod);
    let affinity = pod.spec.affinity.as_ref();
    for info in &snapshot.nodes {
        for &index in &info.pods {
            let Some(entry) = snapshot.pod(index) else {
                continue;
            };
            let existing = &entry.pod;
            let (existing_affinity, existing_anti) = has_pod_affinity(existing);
            if !has_affinity && !has_anti && !existing_affinity && !existing_anti {
                continue;
            }
            let fixed = info.node;
            if let Some(terms) = affinity.and_then(|a| a.pod_affinity.as_ref()) {
                let preferred = &terms.preferred_during_scheduling_ignored_during_execution;
                process_weighted(&mut counts, nodes, preferred, pod, existing, fixed, 1.0);
            }
            if let Some(terms) = affinity.and_then(|a| a.pod_anti_affinity.as_ref()) {
                let preferred = &terms.preferred_during_scheduling_ignored_during_execution;
                process_weighted(&mut counts, nodes, preferred, pod, existing, fixed, -1.0);
            }
            let existing_spec = existing.spec.affinity.as_ref();
            if let Some(terms) = existing_spec.and_then(|a| a.pod_affinity.as_ref()) {
                if hard_weight > 0 {
                    for term in &terms.required_during_scheduling_ignored_during_execution {
                        process(
                            &mut counts,
                            nodes,
                            term,
                            existing,
                            pod,
                            fixed,
                            hard_weight as f64,
                        );
                    }
                }
                let preferred = &terms.preferred_during_scheduling_ignored_during_execution;
                process_weighted(&mut counts, nodes, preferred, existing, pod, fixed, 1.0);
            }
            if let Some(terms) = existing_spec.and_then(|a| a.pod_anti_affinity.as_ref()) {
                let preferred = &terms.preferred_during_scheduling_ignored_during_execution;
                process_weighted(&mut counts, nodes, preferred, existing, pod, fixed, -1.0);
            }
        }
    }
    // 1.11 starts both bounds at 0 (later releases use the true minimum and maximum).
    let max = counts.iter().copied().fold(0.0f64, f64::max);
    let min = counts.iter().copied().fold(0.0f64, f64::min);
    counts
        .iter()
        .map(|&count| {
            if max - min > 0.0 {
                truncate(MAX_PRIORITY_F64 * ((count - min) / (max - min)))
            } else {
                0
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::model::{
        Affinity, LabelSelector, LabelSelectorRequirement, Node, PodAffinity, PodAffinityTerm,
    };
    use crate::schedule::legacy::PriorityKind;
    use crate::schedule::predicates::testing;
    use crate::schedule::priorities::testing::run;
    use alloc::vec;

    fn node(name: &str, key: &str, value: &str) -> Node {
        let mut node = testing::node(name, 1000, 1000);
        node.metadata.labels.insert(key.into(), value.into());
        node
    }

    // 1.11 `TestHardPodAffinitySymmetricWeight`.
    #[test]
    fn hard_affinity_symmetric_weight() {
        let required = PodAffinityTerm {
            label_selector: Some(LabelSelector {
                match_expressions: vec![LabelSelectorRequirement {
                    key: "service".into(),
                    operator: "In".into(),
                    values: vec!["S1".into()],
                }],
                ..LabelSelector::default()
            }),
            topology_key: "region".into(),
            ..PodAffinityTerm::default()
        };
        let with_affinity = |name: &str, on: &str| {
            let mut pod = testing::on(testing::pod(name, &[]), on);
            pod.spec.affinity = Some(Affinity {
                pod_affinity: Some(PodAffinity {
                    required_during_scheduling_ignored_during_execution: vec![required.clone()],
                    ..PodAffinity::default()
                }),
                ..Affinity::default()
            });
            pod
        };
        let mut incoming = testing::pod("incoming", &[]);
        incoming
            .metadata
            .labels
            .insert("service".into(), "S1".into());
        let cluster = testing::cluster(
            vec![
                node("m1", "region", "China"),
                node("m2", "region", "India"),
                node("m3", "az", "az1"),
            ],
            vec![with_affinity("a", "m1"), with_affinity("b", "m2"), incoming],
        );
        assert_eq!(
            run(&PriorityKind::InterPodAffinity, &cluster, 2, 1),
            [10, 10, 0]
        );
        assert_eq!(
            run(&PriorityKind::InterPodAffinity, &cluster, 2, 0),
            [0, 0, 0]
        );
    }
}
