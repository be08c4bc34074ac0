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
//!   itself, the affinity check passes on every node (the first pod of a group). Upstream
//!   asks whether its map of nodes to matching pods is empty, and a preemption dry run
//!   takes victims off through `RemovePod`, which empties a node's list but keeps the
//!   node in the map: once a victim that matched is off, the group has begun, and the
//!   pod that would be first fails as if pods matched elsewhere;
//! - every failure reports two reasons: the generic one, then the specific one, and the
//!   existing pods' anti-affinity is checked first;
//! - pods nominated to the node of a first pass count only by their own anti-affinity
//!   terms: `predicateMetadata.AddPod` adds to the incoming pod's matching pods only pods
//!   with a node name, which a nominated pod lacks;
//! - pods bound to a node the input lacks (orphans) sit in the scheduler cache on a node
//!   entry without a node, on which `getMatchingAntiAffinityTerms` fails: the metadata is
//!   then missing for every pod, and the predicate takes its slow path, one walk over
//!   every cached pod. Nominated pods count not at all there; an anti-affinity match
//!   fails the node before an unmatched affinity does; an orphan matching the incoming
//!   pod's anti-affinity terms fails every node, and one matching its affinity terms
//!   before a pod near the node did fails the attempt with an error (its node is not
//!   found). Upstream walks the pods in Go map order; kubefit takes the placed pods
//!   first, then the orphans in input order;
//! - selectors the 1.11 API server admits but `LabelSelectorAsSelector` rejects (a value
//!   that is not a label value, see [`crate::labels::legacy_selector_error`]) leave the
//!   metadata missing too. A placed pod with such a required anti-affinity term makes the
//!   slow path's `getMatchingAntiAffinityTerms` fail on every node, an error that ends the
//!   attempt of every pod; an incoming pod with such an affinity term fails with an error
//!   where any pod is listed (else the term is unmet), and with such an anti-affinity term
//!   its anti-affinity is unmet where any pod is listed (`podMatchesPodAffinityTerms`
//!   fails on the first one, and the walk takes a failure for a match).
//!
//! Upstream keeps lists of nodes and compares every listed node with each candidate;
//! kubefit keeps the same facts as counts per topology value (per node for several terms
//! taken together), so a node's check is a lookup and the counts can follow pods joining
//! and leaving nodes ([`Metadata::follow`]) as the equivalence cache needs.

use alloc::string::String;
use alloc::vec::Vec;

use super::{same_topology, term_error, term_matches, verdict};
use crate::model::{Node, Pod, PodAffinityTerm};
use crate::schedule::snapshot::Snapshot;
use crate::schedule::status::Status;
use crate::schedule::topology::{self, PairCounts};
use crate::schedule::volumes;
use crate::schedule::Reach;

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

/// Placed pods matching a list of terms, counted so that a node's check is a lookup: with
/// one term at their node's value of its topology key; with several (rare), per node,
/// compared key by key.
#[derive(Debug, Default)]
struct Matching<'a> {
    pairs: PairCounts<'a>,
    nodes: Vec<(&'a Node, usize)>,
}

impl<'a> Matching<'a> {
    fn is_empty(&self) -> bool {
        self.pairs.is_empty() && self.nodes.is_empty()
    }

    /// Adds (`joined`) or takes back one pod on `node`.
    fn count(&mut self, node: &'a Node, terms: &[PodAffinityTerm], joined: bool) {
        if let [term] = terms {
            let delta = if joined { 1 } else { -1 };
            topology::count(&mut self.pairs, node, &term.topology_key, delta);
            return;
        }
        let position = self
            .nodes
            .iter()
            .position(|(known, _)| core::ptr::eq(*known, node));
        match (position, joined) {
            (Some(position), true) => {
                if let Some((_, count)) = self.nodes.get_mut(position) {
                    *count = count.saturating_add(1);
                }
            }
            (None, true) => self.nodes.push((node, 1)),
            (Some(position), false) => {
                if let Some((_, count)) = self.nodes.get_mut(position) {
                    *count = count.saturating_sub(1);
                    if *count == 0 {
                        self.nodes.swap_remove(position);
                    }
                }
            }
            (None, false) => {}
        }
    }

    /// True if some counted pod's node shares every term's topology value with `node`.
    fn holds(&self, node: &Node, terms: &[PodAffinityTerm]) -> bool {
        if let [term] = terms {
            return node
                .metadata
                .labels
                .get_key_value(&term.topology_key)
                .is_some_and(|(key, value)| {
                    self.pairs.contains_key(&(key.as_str(), value.as_str()))
                });
        }
        self.nodes.iter().any(|(other, _)| {
            terms
                .iter()
                .all(|term| same_topology(node, other, &term.topology_key))
        })
    }
}

/// The orphans, as the slow path meets them: none of them ever joins or leaves a node.
#[derive(Debug, Default)]
struct Orphans<'a> {
    /// Whether there are any: upstream's metadata is missing then.
    present: bool,
    /// The first matching all of the incoming pod's affinity terms: its place among the
    /// orphans and its node's name.
    affinity: Option<(usize, &'a str)>,
    /// The place of the first matching all its anti-affinity terms.
    anti_affinity: Option<usize>,
}

/// The selectors 1.11 cannot parse, which leave its metadata missing.
#[derive(Debug, Default)]
struct Unparsable {
    /// Placed pods with a required anti-affinity term whose selector fails, by
    /// `namespace/name`, with the first such term's error, in the order the walk meets them.
    existing: Vec<(String, String)>,
    /// The first such error among the incoming pod's affinity terms.
    affinity: Option<String>,
    /// Whether one of its anti-affinity terms has such a selector.
    anti_affinity: bool,
    /// How many placed pods the pod lister lists (the nominated ones are not there).
    listed: usize,
}

impl Unparsable {
    /// True when the metadata would be missing, for the incoming pod's own terms or for
    /// a placed pod's.
    fn any(&self) -> bool {
        !self.existing.is_empty() || self.affinity.is_some() || self.anti_affinity
    }
}

/// The first error among a pod's required anti-affinity terms.
fn anti_affinity_error(pod: &Pod) -> Option<String> {
    anti_affinity_terms(pod).iter().find_map(term_error)
}

/// `namespace/name`, as the slow path's messages name pods (`podName`).
fn pod_name(pod: &Pod) -> String {
    alloc::format!("{}/{}", pod.metadata.namespace, pod.metadata.name)
}

/// What the predicate precomputes for one incoming pod, as counts that follow pods
/// joining and leaving nodes.
#[derive(Debug, Default)]
pub struct Metadata<'a> {
    /// Existing pods' anti-affinity terms that match the incoming pod, counted at their
    /// node's value of the topology key the check reads (the last term's, see above).
    existing_anti_affinity: PairCounts<'a>,
    /// Placed pods matching all of the incoming pod's affinity terms.
    affinity: Matching<'a>,
    /// How many placed pods match all of its affinity terms, wherever they are (the
    /// first-of-group rule reads whether any does).
    affinity_pods: usize,
    /// Placed pods matching all of its anti-affinity terms.
    anti_affinity: Matching<'a>,
    /// Pods bound to nodes the input lacks.
    orphans: Orphans<'a>,
    /// Selectors that fail to parse.
    unparsable: Unparsable,
}

impl<'a> Metadata<'a> {
    /// Scans the placed pods once; of the `nominated` ones, only their anti-affinity
    /// terms count, and nothing of them when there are orphans.
    #[must_use]
    pub fn new(snapshot: &Snapshot<'a>, pod: &Pod, nominated: &[usize]) -> Self {
        let mut metadata = Self::default();
        // Without terms on either side nothing can match: skip the walk over every pod.
        if affinity_terms(pod).is_empty()
            && anti_affinity_terms(pod).is_empty()
            && !snapshot.has_placed_pod_affinity()
        {
            return metadata;
        }
        let cluster = snapshot.cluster;
        let orphans = cluster.orphans();
        metadata.orphans.present = !orphans.is_empty();
        metadata.unparsable.affinity = affinity_terms(pod).iter().find_map(term_error);
        metadata.unparsable.anti_affinity = anti_affinity_terms(pod)
            .iter()
            .any(|term| term_error(term).is_some());
        let mut placed_nominated = Vec::new();
        for (info, node) in snapshot.nodes.iter().zip(&cluster.nodes) {
            for &index in &info.pods {
                let Some(entry) = cluster.pods.get(index) else {
                    continue;
                };
                if nominated.contains(&index) {
                    placed_nominated.push((&entry.pod, node));
                } else {
                    metadata.follow(&entry.pod, node, pod, true);
                }
            }
        }
        // `AddPod` adds the nominated pods' terms only to metadata that exists.
        if !metadata.orphans.present && !metadata.unparsable.any() {
            for (existing, node) in placed_nominated {
                metadata.follow_existing(existing, node, pod, true);
            }
        }
        let found = &mut metadata.orphans;
        for (place, entry) in orphans
            .iter()
            .filter_map(|&index| cluster.pods.get(index))
            .enumerate()
        {
            if found.affinity.is_none() && matches_all(affinity_terms(pod), pod, &entry.pod) {
                found.affinity = Some((place, entry.pod.spec.node_name.as_str()));
            }
            if found.anti_affinity.is_none()
                && matches_all(anti_affinity_terms(pod), pod, &entry.pod)
            {
                found.anti_affinity = Some(place);
            }
        }
        metadata
    }

    /// True if no placed pod was counted: the predicate then passes every node but for
    /// the incoming pod's own affinity terms and the orphans, which taking placed pods off
    /// nodes does not change.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.existing_anti_affinity.is_empty()
            && self.affinity_pods == 0
            && self.anti_affinity.is_empty()
            && !self.unparsable.any()
    }

    /// Counts (`joined`) or takes back `existing` on `node` for the incoming `pod`; the
    /// reach names the keys whose domains around `node` moved, and every node when the
    /// first-of-group rule may have turned.
    pub fn follow(&mut self, existing: &Pod, node: &'a Node, pod: &Pod, joined: bool) -> Reach {
        let mut reach = self.follow_existing(existing, node, pod, joined);
        reach.extend(self.follow_unparsable(existing, joined));
        let affinity = affinity_terms(pod);
        if matches_all(affinity, pod, existing) {
            let had_none = self.affinity_pods == 0;
            self.affinity_pods = if joined {
                self.affinity_pods.saturating_add(1)
            } else {
                self.affinity_pods.saturating_sub(1)
            };
            self.affinity.count(node, affinity, joined);
            reach.extend(keys(affinity, had_none != (self.affinity_pods == 0)));
        }
        let anti = anti_affinity_terms(pod);
        if matches_all(anti, pod, existing) {
            self.anti_affinity.count(node, anti, joined);
            reach.extend(keys(anti, false));
        }
        reach
    }

    /// The part of [`Metadata::follow`] that counts the listed pods and those whose
    /// anti-affinity selectors fail; every node when the verdicts may turn.
    fn follow_unparsable(&mut self, existing: &Pod, joined: bool) -> Reach {
        let unparsable = &mut self.unparsable;
        let was_listed = unparsable.listed > 0;
        unparsable.listed = if joined {
            unparsable.listed.saturating_add(1)
        } else {
            unparsable.listed.saturating_sub(1)
        };
        let own = unparsable.affinity.is_some() || unparsable.anti_affinity;
        let mut everywhere = own && was_listed != (unparsable.listed > 0);
        if let Some(error) = anti_affinity_error(existing) {
            let name = pod_name(existing);
            if joined {
                unparsable.existing.push((name, error));
            } else if let Some(at) = unparsable
                .existing
                .iter()
                .position(|(known, _)| *known == name)
            {
                unparsable.existing.remove(at);
            }
            everywhere = true;
        }
        Reach::of([], everywhere)
    }

    /// The part of [`Metadata::follow`] that reads `existing`'s own anti-affinity terms.
    fn follow_existing(
        &mut self,
        existing: &Pod,
        node: &'a Node,
        pod: &Pod,
        joined: bool,
    ) -> Reach {
        let mut reach = Reach::default();
        let existing_terms = anti_affinity_terms(existing);
        if let Some(last) = existing_terms.last() {
            for term in existing_terms {
                if !term_matches(term, existing, pod) {
                    continue;
                }
                let delta = if joined { 1 } else { -1 };
                let counted = &mut self.existing_anti_affinity;
                if let Some(key) = topology::count(counted, node, &last.topology_key, delta) {
                    reach.extend(Reach::of([key], false));
                }
            }
        }
        reach
    }
}

/// A reach over the terms' topology keys.
fn keys(terms: &[PodAffinityTerm], everywhere: bool) -> Reach {
    Reach::of(
        terms.iter().map(|term| term.topology_key.as_str()),
        everywhere,
    )
}

fn failure(specific: &str) -> Status {
    verdict(alloc::vec![REASON.into(), specific.into()])
}

/// The slow path's error for a pod matching the affinity terms on a node the input lacks.
fn missing_node(pod: &Pod, node: &Node, missing: &str) -> Status {
    Status::error(alloc::format!(
        "Cannot schedule pod {} onto node {}, because of PodAffinity, err: {}",
        pod_name(pod),
        node.metadata.name,
        volumes::not_found("node", missing)
    ))
}

/// The predicate; `taken_off` are the pods a preemption dry run has taken off their
/// node (none outside one).
#[must_use]
pub fn predicate<'p>(
    pod: &Pod,
    metadata: &Metadata<'_>,
    node: &Node,
    mut taken_off: impl Iterator<Item = &'p Pod>,
) -> Status {
    let unparsable = &metadata.unparsable;
    if let Some((_, error)) = unparsable.existing.first() {
        return Status::error(alloc::format!(
            "Failed to get all terms that pod {} matches, err: {error}",
            pod_name(pod)
        ));
    }
    // An existing pod's term blocks the nodes sharing its node's value of the key.
    let blocked = !metadata.existing_anti_affinity.is_empty()
        && node.metadata.labels.iter().any(|(key, value)| {
            metadata
                .existing_anti_affinity
                .contains_key(&(key.as_str(), value.as_str()))
        });
    if blocked {
        return failure(EXISTING_ANTI_AFFINITY);
    }
    let affinity = affinity_terms(pod);
    let anti = anti_affinity_terms(pod);
    // The slow path's walk stops at its first pod, the placed ones first.
    let listed = unparsable.listed > 0 || metadata.orphans.present;
    match &unparsable.affinity {
        Some(error) if listed => {
            return Status::error(alloc::format!(
                "Cannot schedule pod {} onto node {}, because of PodAffinity, err: {error}",
                pod_name(pod),
                node.metadata.name
            ))
        }
        Some(_) => return failure(AFFINITY_RULES),
        None if unparsable.anti_affinity && listed => {
            // The first pod is an orphan only when no pod is placed; matching the
            // affinity terms, it fails the walk first.
            return match metadata.orphans.affinity {
                Some((0, missing)) if unparsable.listed == 0 => missing_node(pod, node, missing),
                _ => failure(ANTI_AFFINITY_RULES),
            };
        }
        None => {}
    }
    let near_match = !affinity.is_empty() && metadata.affinity.holds(node, affinity);
    let near_anti_match = !anti.is_empty() && metadata.anti_affinity.holds(node, anti);
    if metadata.orphans.present {
        // The slow path's walk: the placed pods, then the orphans.
        if near_anti_match {
            return failure(ANTI_AFFINITY_RULES);
        }
        let orphans = &metadata.orphans;
        match (
            orphans.affinity.filter(|_| !near_match),
            orphans.anti_affinity,
        ) {
            (Some((place, missing)), anti) if anti.is_none_or(|anti| place <= anti) => {
                return missing_node(pod, node, missing);
            }
            (_, Some(_)) => return failure(ANTI_AFFINITY_RULES),
            _ => {}
        }
    }
    if !affinity.is_empty() {
        let first_of_group = metadata.affinity_pods == 0
            && matches_all(affinity, pod, pod)
            && !taken_off.any(|victim| matches_all(affinity, pod, victim));
        if !near_match && !first_of_group {
            return failure(AFFINITY_RULES);
        }
    }
    if near_anti_match {
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
        let metadata = Metadata::new(&snapshot, pod, &[]);
        snapshot
            .nodes
            .iter()
            .map(|info| predicate(pod, &metadata, info.node, core::iter::empty()))
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
        alloc::sync::Arc::make_mut(&mut unlabelled.pods[0].pod)
            .metadata
            .labels
            .clear();
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

    // Following binds and unbinds gives the verdicts a fresh scan gives.
    #[test]
    fn following_pods_matches_a_fresh_scan() {
        let mut incoming = labelled("incoming", &[("app", "web")]);
        incoming.spec.affinity = Some(Affinity {
            pod_affinity: Some(PodAffinity {
                required_during_scheduling_ignored_during_execution: vec![term(
                    "app", "db", "zone",
                )],
                ..PodAffinity::default()
            }),
            pod_anti_affinity: Some(PodAntiAffinity {
                required_during_scheduling_ignored_during_execution: vec![term(
                    "app",
                    "web",
                    "kubernetes.io/hostname",
                )],
                ..PodAntiAffinity::default()
            }),
            ..Affinity::default()
        });
        let db = labelled("db", &[("app", "db")]);
        let web = labelled("web", &[("app", "web")]);
        let nodes = vec![
            zone_node("a1", "az1"),
            zone_node("a2", "az1"),
            zone_node("b1", "az2"),
        ];
        let cluster = testing::cluster(nodes, vec![db, web, incoming]);
        let mut snapshot = Snapshot::new(&cluster, Accounting::Legacy);
        let pod = &cluster.pods[2].pod;
        let passed = |metadata: &Metadata<'_>, snapshot: &Snapshot<'_>| -> Vec<bool> {
            snapshot
                .nodes
                .iter()
                .map(|info| predicate(pod, metadata, info.node, core::iter::empty()).passed())
                .collect()
        };
        let mut followed = Metadata::new(&snapshot, pod, &[]);
        // No db pod anywhere and the pod is not one: no node qualifies.
        assert_eq!(passed(&followed, &snapshot), [false, false, false]);
        for (bind, node) in [(0, 0), (1, 1), (0, 2)] {
            let clock = snapshot.clock();
            snapshot.bind(bind, node);
            for change in snapshot.changes_since(clock).unwrap().collect::<Vec<_>>() {
                let other = &cluster.pods[change.pod].pod;
                followed.follow(other, &cluster.nodes[change.node], pod, change.joined);
            }
            let fresh = Metadata::new(&snapshot, pod, &[]);
            assert_eq!(passed(&followed, &snapshot), passed(&fresh, &snapshot));
        }
        // The db pod moved to b1 (az2); the web pod holds a2 by anti-affinity.
        assert_eq!(passed(&followed, &snapshot), [false, false, true]);
    }

    // A pod bound to a node the input lacks sends the predicate down 1.11's slow path.
    #[test]
    fn orphans_take_the_slow_path() {
        let with = |affinity: Option<&str>, anti: Option<&str>| {
            let mut pod = labelled("incoming", &[]);
            let required = |app: &str| vec![term("app", app, "kubernetes.io/hostname")];
            pod.spec.affinity = Some(Affinity {
                pod_affinity: affinity.map(|app| PodAffinity {
                    required_during_scheduling_ignored_during_execution: required(app),
                    ..PodAffinity::default()
                }),
                pod_anti_affinity: anti.map(|app| PodAntiAffinity {
                    required_during_scheduling_ignored_during_execution: required(app),
                    ..PodAntiAffinity::default()
                }),
                ..Affinity::default()
            });
            pod
        };
        let orphan = testing::on(labelled("orphan", &[("app", "web")]), "gone");
        let db = testing::on(labelled("db", &[("app", "db")]), "a1");
        let run = |incoming: Pod, placed: Vec<Pod>| {
            let mut pods = placed;
            pods.push(incoming);
            let cluster = testing::cluster(vec![zone_node("a1", "az1")], pods);
            let last = cluster.pods.len() - 1;
            verdicts(&cluster, last).remove(0)
        };
        // Its anti-affinity match fails every node.
        let status = run(with(None, Some("web")), vec![orphan.clone()]);
        assert_eq!(status.reasons, [REASON, ANTI_AFFINITY_RULES]);
        // Its affinity match is an error, unless a pod near the node matched first.
        let status = run(with(Some("web"), None), vec![orphan.clone()]);
        assert_eq!(status.code, crate::schedule::status::Code::Error);
        assert_eq!(
            status.reasons,
            ["Cannot schedule pod default/incoming onto node a1, because of PodAffinity, err: node \"gone\" not found"]
        );
        let web = testing::on(labelled("web", &[("app", "web")]), "a1");
        assert!(run(with(Some("web"), None), vec![orphan.clone(), web]).passed());
        // Unmet affinity and met anti-affinity: the slow path reports the anti-affinity.
        let both = with(Some("cache"), Some("db"));
        assert_eq!(
            run(both.clone(), vec![db.clone()]).reasons,
            [REASON, AFFINITY_RULES]
        );
        assert_eq!(
            run(both, vec![db, orphan]).reasons,
            [REASON, ANTI_AFFINITY_RULES]
        );
    }

    /// A required term whose selector has `a/b` among its values (1.11 admits it).
    fn unparsable(topology: &str) -> PodAffinityTerm {
        PodAffinityTerm {
            label_selector: Some(LabelSelector {
                match_expressions: vec![crate::model::LabelSelectorRequirement {
                    key: "app".into(),
                    operator: "In".into(),
                    values: vec!["web".into(), "a/b".into()],
                }],
                ..LabelSelector::default()
            }),
            topology_key: topology.into(),
            ..PodAffinityTerm::default()
        }
    }

    // Selectors 1.11 cannot parse leave the metadata missing; the slow path fails on them.
    #[test]
    fn unparsable_selectors_take_the_slow_path_and_fail() {
        let with = |name: &str, affinity: bool, anti: bool| {
            let mut pod = labelled(name, &[("app", "web")]);
            let required = || vec![unparsable("kubernetes.io/hostname")];
            pod.spec.affinity = Some(Affinity {
                pod_affinity: affinity.then(|| PodAffinity {
                    required_during_scheduling_ignored_during_execution: required(),
                    ..PodAffinity::default()
                }),
                pod_anti_affinity: anti.then(|| PodAntiAffinity {
                    required_during_scheduling_ignored_during_execution: required(),
                    ..PodAntiAffinity::default()
                }),
                ..Affinity::default()
            });
            pod
        };
        let run = |placed: Vec<Pod>, incoming: Pod| {
            let mut pods = placed;
            pods.push(incoming);
            let cluster = testing::cluster(vec![zone_node("a1", "az1")], pods);
            let last = cluster.pods.len() - 1;
            verdicts(&cluster, last).remove(0)
        };
        let invalid = "invalid label value: \"a/b\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
        let other = testing::on(labelled("other", &[("app", "db")]), "a1");
        // A placed pod's anti-affinity term: an error whatever the incoming pod.
        let status = run(
            vec![testing::on(with("placed", false, true), "a1")],
            labelled("incoming", &[]),
        );
        assert_eq!(status.code, crate::schedule::status::Code::Error);
        assert_eq!(
            status.reasons,
            [alloc::format!(
                "Failed to get all terms that pod default/incoming matches, err: {invalid}"
            )]
        );
        // The incoming pod's anti-affinity term: unmet once any pod is listed.
        assert!(run(Vec::new(), with("incoming", false, true)).passed());
        assert_eq!(
            run(vec![other.clone()], with("incoming", false, true)).reasons,
            [REASON, ANTI_AFFINITY_RULES]
        );
        // Its affinity term: unmet alone, an error once any pod is listed.
        assert_eq!(
            run(Vec::new(), with("incoming", true, false)).reasons,
            [REASON, AFFINITY_RULES]
        );
        let status = run(vec![other], with("incoming", true, true));
        assert_eq!(status.code, crate::schedule::status::Code::Error);
        assert_eq!(
            status.reasons,
            [alloc::format!(
                "Cannot schedule pod default/incoming onto node a1, because of PodAffinity, err: {invalid}"
            )]
        );
    }

    // A placed pod with an unparsable term that binds later turns every node to an error.
    #[test]
    fn following_an_unparsable_pod_matches_a_fresh_scan() {
        let mut broken = labelled("broken", &[]);
        broken.spec.affinity = Some(Affinity {
            pod_anti_affinity: Some(PodAntiAffinity {
                required_during_scheduling_ignored_during_execution: vec![unparsable("zone")],
                ..PodAntiAffinity::default()
            }),
            ..Affinity::default()
        });
        let cluster = testing::cluster(
            vec![zone_node("a1", "az1"), zone_node("b1", "az2")],
            vec![broken, labelled("incoming", &[])],
        );
        let mut snapshot = Snapshot::new(&cluster, Accounting::Legacy);
        let pod = &cluster.pods[1].pod;
        let codes = |metadata: &Metadata<'_>, snapshot: &Snapshot<'_>| -> Vec<_> {
            snapshot
                .nodes
                .iter()
                .map(|info| predicate(pod, metadata, info.node, core::iter::empty()).code)
                .collect()
        };
        let mut followed = Metadata::new(&snapshot, pod, &[]);
        assert!(codes(&followed, &snapshot)
            .iter()
            .all(|code| *code == crate::schedule::status::Code::Success));
        for (bind, unbind) in [(true, false), (false, true)] {
            let clock = snapshot.clock();
            if bind {
                snapshot.bind(0, 1);
            }
            if unbind {
                snapshot.unbind(0);
            }
            let mut reach = Reach::default();
            for change in snapshot.changes_since(clock).unwrap().collect::<Vec<_>>() {
                let other = &cluster.pods[change.pod].pod;
                reach.extend(followed.follow(
                    other,
                    &cluster.nodes[change.node],
                    pod,
                    change.joined,
                ));
            }
            assert!(reach.everywhere);
            let fresh = Metadata::new(&snapshot, pod, &[]);
            assert_eq!(codes(&followed, &snapshot), codes(&fresh, &snapshot));
        }
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
            vec![Pod::clone(&cluster.pods[0].pod), incoming],
        );
        assert_eq!(
            verdicts(&cluster, 1)[0].reasons,
            [REASON, ANTI_AFFINITY_RULES]
        );
    }
}
