//! MatchInterPodAffinity: required pod affinity and anti-affinity, both the incoming pod's
//! and (by symmetry) the anti-affinity of the pods already placed.
//!
//! Follows 1.11 `PodAffinityChecker.InterPodAffinityMatches` in `predicates.go` with the
//! precomputed metadata of `metadata.go`. Quirks kept:
//! - existing pods' anti-affinity: each term of an existing pod that matches the incoming
//!   pod is recorded with a pointer to the loop variable, so every recorded term reads the
//!   **last** required anti-affinity term of that pod (its topology key) — a term matching
//!   in `zone` then blocks only the last term's topology;
//! - the incoming pod's affinity (and anti-affinity) terms are matched together: an
//!   existing pod counts only if it matches **all** terms (namespaces and selector), and a
//!   node qualifies (resp. is blocked) if such a pod's node shares **every** term's
//!   topology value with it;
//! - self-affinity: when no placed pod matches all affinity terms and the pod matches them
//!   itself, the affinity check passes on every node (the first pod of a group);
//! - every failure reports two reasons: the generic one, then the specific one, and the
//!   existing pods' anti-affinity is checked first.

use alloc::vec::Vec;

use super::{same_topology, term_matches, verdict};
use crate::model::{Node, Pod, PodAffinityTerm};
use crate::schedule::snapshot::Snapshot;
use crate::schedule::status::Status;

/// `ErrPodAffinityNotMatch`.
pub const REASON: &str = "node(s) didn't match pod affinity/anti-affinity";
/// `ErrPodAffinityRulesNotMatch`.
pub const AFFINITY_RULES: &str = "node(s) didn't match pod affinity rules";
/// `ErrPodAntiAffinityRulesNotMatch`.
pub const ANTI_AFFINITY_RULES: &str = "node(s) didn't match pod anti-affinity rules";
/// `ErrExistingPodsAntiAffinityRulesNotMatch`.
pub const EXISTING_ANTI_AFFINITY: &str = "node(s) didn't satisfy existing pods anti-affinity rules";

/// The incoming pod's required affinity terms.
#[must_use]
pub fn affinity_terms(pod: &Pod) -> &[PodAffinityTerm] {
    pod.spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.pod_affinity.as_ref())
        .map_or(&[], |affinity| {
            affinity
                .required_during_scheduling_ignored_during_execution
                .as_slice()
        })
}

/// The required anti-affinity terms of a pod.
#[must_use]
pub fn anti_affinity_terms(pod: &Pod) -> &[PodAffinityTerm] {
    pod.spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.pod_anti_affinity.as_ref())
        .map_or(&[], |anti| {
            anti.required_during_scheduling_ignored_during_execution
                .as_slice()
        })
}

/// True if `target` matches every term (namespaces and selector); no terms match nothing
/// (`podMatchesAffinityTermProperties`).
#[must_use]
pub fn matches_all(terms: &[PodAffinityTerm], defining: &Pod, target: &Pod) -> bool {
    !terms.is_empty()
        && terms
            .iter()
            .all(|term| term_matches(term, defining, target))
}

/// What the predicate precomputes for one incoming pod.
#[derive(Debug, Default)]
pub struct Metadata<'a> {
    /// Existing pods' anti-affinity terms that match the incoming pod: the node of the
    /// existing pod and the topology key the check reads (the last term's, see above).
    pub existing_anti_affinity: Vec<(usize, &'a str)>,
    /// Nodes with a placed pod matching all of the incoming pod's affinity terms.
    pub affinity_nodes: Vec<usize>,
    /// Nodes with a placed pod matching all of its anti-affinity terms.
    pub anti_affinity_nodes: Vec<usize>,
}

impl<'a> Metadata<'a> {
    /// Scans the placed pods once.
    #[must_use]
    pub fn new(snapshot: &Snapshot<'a>, pod: &Pod) -> Self {
        let mut metadata = Self::default();
        let affinity = affinity_terms(pod);
        let anti = anti_affinity_terms(pod);
        // Without terms on either side nothing can match: skip the walk over every pod.
        if affinity.is_empty() && anti.is_empty() && !snapshot.has_placed_pod_affinity() {
            return metadata;
        }
        for (node, info) in snapshot.nodes.iter().enumerate() {
            let mut affinity_here = false;
            let mut anti_here = false;
            for &index in &info.pods {
                let Some(entry) = snapshot.pod(index) else {
                    continue;
                };
                let existing = &entry.pod;
                let existing_terms = anti_affinity_terms(existing);
                if let Some(last) = existing_terms.last() {
                    for term in existing_terms {
                        if term_matches(term, existing, pod) {
                            metadata
                                .existing_anti_affinity
                                .push((node, last.topology_key.as_str()));
                        }
                    }
                }
                affinity_here |= matches_all(affinity, pod, existing);
                anti_here |= matches_all(anti, pod, existing);
            }
            if affinity_here {
                metadata.affinity_nodes.push(node);
            }
            if anti_here {
                metadata.anti_affinity_nodes.push(node);
            }
        }
        metadata
    }
}

/// True if some listed node shares every term's topology value with `node`.
fn shares_all_topologies(
    nodes: &[usize],
    terms: &[PodAffinityTerm],
    snapshot: &Snapshot<'_>,
    node: &Node,
) -> bool {
    nodes.iter().any(|&other| {
        snapshot.nodes.get(other).is_some_and(|info| {
            terms
                .iter()
                .all(|term| same_topology(node, info.node, &term.topology_key))
        })
    })
}

fn failure(specific: &str) -> Status {
    verdict(alloc::vec![REASON.into(), specific.into()])
}

/// The predicate.
#[must_use]
pub fn predicate(
    pod: &Pod,
    metadata: &Metadata<'_>,
    snapshot: &Snapshot<'_>,
    node: &Node,
) -> Status {
    let blocked = metadata.existing_anti_affinity.iter().any(|&(other, key)| {
        snapshot
            .nodes
            .get(other)
            .is_some_and(|info| same_topology(node, info.node, key))
    });
    if blocked {
        return failure(EXISTING_ANTI_AFFINITY);
    }
    let affinity = affinity_terms(pod);
    if !affinity.is_empty() {
        let near_match = shares_all_topologies(&metadata.affinity_nodes, affinity, snapshot, node);
        let first_of_group = metadata.affinity_nodes.is_empty() && matches_all(affinity, pod, pod);
        if !near_match && !first_of_group {
            return failure(AFFINITY_RULES);
        }
    }
    let anti = anti_affinity_terms(pod);
    if !anti.is_empty()
        && shares_all_topologies(&metadata.anti_affinity_nodes, anti, snapshot, node)
    {
        return failure(ANTI_AFFINITY_RULES);
    }
    Status::success()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Affinity, LabelSelector, PodAffinity, PodAntiAffinity};
    use crate::schedule::predicates::testing;
    use crate::schedule::snapshot::{Accounting, Snapshot};
    use alloc::string::String;
    use alloc::vec;

    fn term(key: &str, value: &str, topology: &str) -> PodAffinityTerm {
        PodAffinityTerm {
            label_selector: Some(LabelSelector {
                match_labels: [(String::from(key), String::from(value))]
                    .into_iter()
                    .collect(),
                ..LabelSelector::default()
            }),
            topology_key: topology.into(),
            ..PodAffinityTerm::default()
        }
    }

    fn labelled(name: &str, labels: &[(&str, &str)]) -> Pod {
        let mut pod = testing::pod(name, &[]);
        pod.metadata.labels = labels
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect();
        pod
    }

    fn zone_node(name: &str, zone: &str) -> crate::model::Node {
        let mut node = testing::node(name, 1000, 1000);
        node.metadata.labels.insert("zone".into(), zone.into());
        node.metadata
            .labels
            .insert("kubernetes.io/hostname".into(), name.into());
        node
    }

    fn verdicts(cluster: &crate::cluster::Cluster, incoming: usize) -> Vec<Status> {
        let snapshot = Snapshot::new(cluster, Accounting::Legacy);
        let pod = &cluster.pods[incoming].pod;
        let metadata = Metadata::new(&snapshot, pod);
        snapshot
            .nodes
            .iter()
            .map(|info| predicate(pod, &metadata, &snapshot, info.node))
            .collect()
    }

    // `TestInterPodAffinityWithMultipleNodes`: the first pod of a collection fits anywhere.
    #[test]
    fn first_pod_with_self_affinity_fits_every_node() {
        let mut pod = labelled("first", &[("foo", "bar")]);
        pod.spec.affinity = Some(Affinity {
            pod_affinity: Some(PodAffinity {
                required_during_scheduling_ignored_during_execution: vec![term(
                    "foo", "bar", "zone",
                )],
                ..PodAffinity::default()
            }),
            ..Affinity::default()
        });
        let cluster = testing::cluster(
            vec![zone_node("nodeA", "az1"), zone_node("nodeB", "az2")],
            vec![pod],
        );
        assert!(verdicts(&cluster, 0).iter().all(Status::passed));
        // Without its own label it fits nowhere, with the pair of reasons.
        let mut unlabelled = cluster.clone();
        unlabelled.pods[0].pod.metadata.labels.clear();
        for status in verdicts(&unlabelled, 0) {
            assert_eq!(status.reasons, [REASON, AFFINITY_RULES]);
        }
    }

    // The 1.11 aliasing bug: a matching zone term followed by a non-matching hostname term
    // blocks only the existing pod's own node.
    #[test]
    fn existing_anti_affinity_reads_the_last_terms_topology_key() {
        let mut existing = testing::on(labelled("existing", &[]), "a1");
        existing.spec.affinity = Some(Affinity {
            pod_anti_affinity: Some(PodAntiAffinity {
                required_during_scheduling_ignored_during_execution: vec![
                    term("app", "web", "zone"),
                    term("app", "db", "kubernetes.io/hostname"),
                ],
                ..PodAntiAffinity::default()
            }),
            ..Affinity::default()
        });
        let cluster = testing::cluster(
            vec![
                zone_node("a1", "az1"),
                zone_node("a2", "az1"),
                zone_node("b1", "az2"),
            ],
            vec![existing, labelled("incoming", &[("app", "web")])],
        );
        let passed: Vec<bool> = verdicts(&cluster, 1).iter().map(Status::passed).collect();
        assert_eq!(passed, [false, true, true]);
        assert_eq!(
            verdicts(&cluster, 1)[0].reasons,
            [REASON, EXISTING_ANTI_AFFINITY]
        );
    }

    // Incoming anti-affinity terms are ANDed: a pod matching only one term does not block.
    #[test]
    fn incoming_terms_must_all_match_one_pod() {
        let existing = testing::on(labelled("existing", &[("app", "web")]), "a1");
        let mut incoming = labelled("incoming", &[]);
        incoming.spec.affinity = Some(Affinity {
            pod_anti_affinity: Some(PodAntiAffinity {
                required_during_scheduling_ignored_during_execution: vec![
                    term("app", "web", "kubernetes.io/hostname"),
                    term("tier", "db", "kubernetes.io/hostname"),
                ],
                ..PodAntiAffinity::default()
            }),
            ..Affinity::default()
        });
        let cluster = testing::cluster(
            vec![zone_node("a1", "az1")],
            vec![existing, incoming.clone()],
        );
        assert!(verdicts(&cluster, 1)[0].passed());
        incoming
            .spec
            .affinity
            .as_mut()
            .unwrap()
            .pod_anti_affinity
            .as_mut()
            .unwrap()
            .required_during_scheduling_ignored_during_execution
            .truncate(1);
        let cluster = testing::cluster(
            vec![zone_node("a1", "az1")],
            vec![cluster.pods[0].pod.clone(), incoming],
        );
        assert_eq!(
            verdicts(&cluster, 1)[0].reasons,
            [REASON, ANTI_AFFINITY_RULES]
        );
    }
}
