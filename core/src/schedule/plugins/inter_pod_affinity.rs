//! InterPodAffinity: required pod affinity and anti-affinity (the incoming pod's, and the
//! existing pods' anti-affinity towards it) filter nodes; preferred terms, and existing pods'
//! required affinity towards the incoming pod, score them.
//!
//! Follows `pkg/scheduler/framework/plugins/interpodaffinity/filtering.go` and
//! `scoring.go` (1.34). PreFilter and PreScore count, per topology pair `(key, value)`,
//! the existing pods that matter once per pod — O(pods + nodes) — so Filter and Score
//! only look pairs up. [`PreFilterState::follow`] and [`PreScoreState::follow`] are
//! upstream's `AddPod`/`RemovePod` extension: the equivalence cache keeps a template's
//! states and follows each bind and unbind instead of recounting every pod.

use alloc::vec::Vec;

use super::normalize;
use crate::cluster::Cluster;
use crate::model::{Node, Pod, StringMap};
use crate::schedule::framework::MAX_NODE_SCORE;
use crate::schedule::selection::{self, AffinityTerm, NO_LABELS};
use crate::schedule::snapshot::Snapshot;
use crate::schedule::status::Status;
use crate::schedule::topology::{self, PairCounts, TopologySums};
use crate::schedule::Reach;

/// The plugin name.
pub const NAME: &str = "InterPodAffinity";

/// The node lacks a required affinity term's topology key, or no pod matching the terms
/// is in its domain (UnschedulableAndUnresolvable).
pub const REASON_AFFINITY: &str = "node(s) didn't match pod affinity rules";

/// A pod matching a required anti-affinity term is in the node's domain (Unschedulable).
pub const REASON_ANTI_AFFINITY: &str = "node(s) didn't match pod anti-affinity rules";

/// An existing pod's required anti-affinity rejects the incoming pod in the node's domain
/// (Unschedulable).
pub const REASON_EXISTING_ANTI_AFFINITY: &str =
    "node(s) didn't satisfy existing pods anti-affinity rules";

/// `hardPodAffinityWeight`'s default (`InterPodAffinityArgs`).
pub const DEFAULT_HARD_POD_AFFINITY_WEIGHT: i32 = 1;

/// Which pods of the cluster carry pod affinity at all: the only ones whose own terms can
/// matter to another pod. The list is fixed for a cluster (placement only moves pods), so
/// a profile builds it once and every pod's cycle walks these pods instead of all.
#[derive(Clone, Debug, Default)]
pub struct AffinityIndex {
    /// Pods with any pod affinity or anti-affinity (upstream's `PodsWithAffinity`).
    with_affinity: Vec<usize>,
    /// Pods with required anti-affinity (`PodsWithRequiredAntiAffinity`).
    with_required_anti_affinity: Vec<usize>,
}

impl AffinityIndex {
    /// Indexes the cluster's pods. Whether a pod has pod affinity is read from its entry
    /// ([`crate::schedule::snapshot::Footprint::pod_affinity`]): a pass over 150 000 pods
    /// then reads their entries in order, not each pod's spec where it lies in memory.
    #[must_use]
    pub fn new(cluster: &Cluster) -> Self {
        let mut index = Self::default();
        for (position, entry) in cluster.pods.iter().enumerate() {
            if entry.footprint.pod_affinity {
                index.with_affinity.push(position);
                if !selection::required_anti_affinity_terms(&entry.pod).is_empty() {
                    index.with_required_anti_affinity.push(position);
                }
            }
        }
        index
    }
}

/// The pods of `list` that are on a node of the snapshot now, with that node, borrowed
/// from `cluster` (the snapshot's).
fn assigned<'s, 'c: 's>(
    snapshot: &'s Snapshot<'_>,
    cluster: &'c Cluster,
    list: &'s [usize],
) -> impl Iterator<Item = (&'c Pod, &'c Node)> + 's {
    list.iter().filter_map(move |&pod| {
        let node = (*snapshot.assigned.get(pod)?)?;
        Some((&*cluster.pods.get(pod)?.pod, cluster.nodes.get(node)?))
    })
}

/// Every pod on a node of the snapshot, with that node, borrowed from `cluster` (the
/// snapshot's).
fn every_pod<'s, 'c: 's>(
    snapshot: &'s Snapshot<'_>,
    cluster: &'c Cluster,
) -> impl Iterator<Item = (&'c Pod, &'c Node)> + 's {
    snapshot
        .nodes
        .iter()
        .zip(&cluster.nodes)
        .flat_map(move |(info, node)| {
            info.pods
                .iter()
                .filter_map(move |&pod| Some((&*cluster.pods.get(pod)?.pod, node)))
        })
}

/// Adds `delta` at the node's value of `key`, if the node has the key; tells `touched`
/// the key it counted under.
fn count<'a>(
    counts: &mut PairCounts<'a>,
    node: &'a Node,
    key: &str,
    delta: i64,
    touched: &mut dyn FnMut(&'a str),
) {
    if let Some(key) = topology::count(counts, node, key, delta) {
        touched(key);
    }
}

/// True if the pod matches every term (and there is at least one). The incoming pod's
/// terms have their namespace selectors resolved, so no namespace labels are needed.
fn matches_all(terms: &[AffinityTerm<'_>], pod: &Pod) -> bool {
    !terms.is_empty() && terms.iter().all(|term| term.matches(pod, &NO_LABELS))
}

/// What PreFilter computes for one pod.
#[derive(Clone, Debug)]
pub struct PreFilterState<'a> {
    pod: &'a Pod,
    /// Labels of the incoming pod's namespace (existing pods' namespace selectors).
    namespace_labels: &'a StringMap,
    affinity_terms: Vec<AffinityTerm<'a>>,
    anti_affinity_terms: Vec<AffinityTerm<'a>>,
    /// Existing pods whose required anti-affinity terms match the incoming pod.
    existing_anti_affinity: PairCounts<'a>,
    /// Existing pods matching all the incoming pod's required affinity terms.
    affinity: PairCounts<'a>,
    /// Existing pods matching the incoming pod's required anti-affinity terms.
    anti_affinity: PairCounts<'a>,
}

impl<'a> PreFilterState<'a> {
    /// PreFilter: counts the existing pods per topology pair.
    #[must_use]
    pub fn new(snapshot: &Snapshot<'a>, index: &AffinityIndex, pod: &'a Pod) -> Self {
        let namespaces = &snapshot.cluster.namespaces;
        let resolve = |terms: Vec<AffinityTerm<'a>>| -> Vec<AffinityTerm<'a>> {
            terms
                .into_iter()
                .map(|term| term.resolve_namespace_selector(namespaces))
                .collect()
        };
        let mut state = Self {
            pod,
            namespace_labels: selection::namespace_labels(namespaces, &pod.metadata.namespace),
            affinity_terms: resolve(selection::required_affinity_terms(pod)),
            anti_affinity_terms: resolve(selection::required_anti_affinity_terms(pod)),
            existing_anti_affinity: PairCounts::new(),
            affinity: PairCounts::new(),
            anti_affinity: PairCounts::new(),
        };
        let cluster = snapshot.cluster;
        for (existing, node) in assigned(snapshot, cluster, &index.with_required_anti_affinity) {
            state.count_existing_anti_affinity(existing, node, 1, &mut |_| {});
        }
        if !state.affinity_terms.is_empty() || !state.anti_affinity_terms.is_empty() {
            for (existing, node) in every_pod(snapshot, cluster) {
                state.count_incoming_terms(existing, node, 1, &mut |_| {});
            }
        }
        state
    }

    /// True if Filter has nothing to check (upstream's PreFilter `Skip`).
    #[must_use]
    pub fn skips(&self) -> bool {
        self.existing_anti_affinity.is_empty()
            && self.affinity_terms.is_empty()
            && self.anti_affinity_terms.is_empty()
    }

    fn count_existing_anti_affinity(
        &mut self,
        existing: &'a Pod,
        node: &'a Node,
        delta: i64,
        touched: &mut dyn FnMut(&'a str),
    ) {
        for term in selection::required_anti_affinity_terms(existing) {
            if term.matches(self.pod, self.namespace_labels) {
                count(
                    &mut self.existing_anti_affinity,
                    node,
                    term.topology_key(),
                    delta,
                    touched,
                );
            }
        }
    }

    fn count_incoming_terms(
        &mut self,
        existing: &'a Pod,
        node: &'a Node,
        delta: i64,
        touched: &mut dyn FnMut(&'a str),
    ) {
        if matches_all(&self.affinity_terms, existing) {
            for term in &self.affinity_terms {
                count(
                    &mut self.affinity,
                    node,
                    term.topology_key(),
                    delta,
                    touched,
                );
            }
        }
        for term in &self.anti_affinity_terms {
            if term.matches(existing, &NO_LABELS) {
                count(
                    &mut self.anti_affinity,
                    node,
                    term.topology_key(),
                    delta,
                    touched,
                );
            }
        }
    }

    /// `AddPod` (`joined`) / `RemovePod`: another pod joins or leaves `node`. The reach
    /// names the domains around `node` whose counts moved, and every node when the
    /// "first pod of a group" rule may have turned (no pod matched the affinity terms,
    /// or one now does not).
    pub fn follow(&mut self, existing: &'a Pod, node: &'a Node, joined: bool) -> Reach {
        let delta = if joined { 1 } else { -1 };
        let had_none = self.affinity.is_empty();
        let mut keys = Vec::new();
        self.count_existing_anti_affinity(existing, node, delta, &mut |key| keys.push(key));
        self.count_incoming_terms(existing, node, delta, &mut |key| keys.push(key));
        Reach::of(keys, had_none != self.affinity.is_empty())
    }

    /// Filter: the incoming pod's affinity, then its anti-affinity, then the existing
    /// pods' anti-affinity.
    #[must_use]
    pub fn filter(&self, node: &Node) -> Status {
        if !self.satisfies_affinity(node) {
            return Status::unresolvable(REASON_AFFINITY);
        }
        if !self.satisfies_anti_affinity(node) {
            return Status::unschedulable(REASON_ANTI_AFFINITY);
        }
        if !self.satisfies_existing_anti_affinity(node) {
            return Status::unschedulable(REASON_EXISTING_ANTI_AFFINITY);
        }
        Status::success()
    }

    fn satisfies_affinity(&self, node: &Node) -> bool {
        let labels = &node.metadata.labels;
        let mut pods_exist = true;
        for term in &self.affinity_terms {
            let key = term.topology_key();
            // Every term's topology key must be on the node.
            let Some(value) = labels.get(key) else {
                return false;
            };
            if self
                .affinity
                .get(&(key, value.as_str()))
                .copied()
                .unwrap_or(0)
                <= 0
            {
                pods_exist = false;
            }
        }
        // The first pod of a group with affinity to itself: no pod anywhere matches the
        // terms, but the pod matches them itself.
        pods_exist || (self.affinity.is_empty() && matches_all(&self.affinity_terms, self.pod))
    }

    fn satisfies_anti_affinity(&self, node: &Node) -> bool {
        self.anti_affinity.is_empty()
            || !self.anti_affinity_terms.iter().any(|term| {
                let key = term.topology_key();
                node.metadata.labels.get(key).is_some_and(|value| {
                    self.anti_affinity
                        .get(&(key, value.as_str()))
                        .copied()
                        .unwrap_or(0)
                        > 0
                })
            })
    }

    fn satisfies_existing_anti_affinity(&self, node: &Node) -> bool {
        self.existing_anti_affinity.is_empty()
            || !node.metadata.labels.iter().any(|(key, value)| {
                self.existing_anti_affinity
                    .get(&(key.as_str(), value.as_str()))
                    .copied()
                    .unwrap_or(0)
                    > 0
            })
    }
}

/// True if scoring surely skips the pod: it has no preferred terms of its own, and no
/// placed pod has affinity terms (so no term can match anything) or the profile sets
/// `ignorePreferredTermsOfExistingPods` (`scoring.go` PreScore then returns Skip; a pod
/// with preferred terms of its own still counts the existing pods' terms).
#[must_use]
pub fn skips_scoring(snapshot: &Snapshot<'_>, pod: &Pod, ignore_existing: bool) -> bool {
    (ignore_existing || !snapshot.has_placed_pod_affinity())
        && selection::preferred_affinity_terms(pod).is_empty()
        && selection::preferred_anti_affinity_terms(pod).is_empty()
}

/// What PreScore computes for one pod: the weight of every term that matches, summed per
/// topology pair of the matching pod's node.
#[derive(Clone, Debug)]
pub struct PreScoreState<'a> {
    pod: &'a Pod,
    /// Labels of the incoming pod's namespace (existing pods' namespace selectors).
    namespace_labels: &'a StringMap,
    preferred: Vec<(i64, AffinityTerm<'a>)>,
    preferred_anti: Vec<(i64, AffinityTerm<'a>)>,
    hard_pod_affinity_weight: i64,
    topology_scores: TopologySums<'a>,
}

impl<'a> PreScoreState<'a> {
    /// PreScore: sums the terms of the pod and of the placed pods that match; `cluster`
    /// is the snapshot's.
    #[must_use]
    pub fn new(
        snapshot: &Snapshot<'_>,
        cluster: &'a Cluster,
        index: &AffinityIndex,
        pod: &'a Pod,
        hard_pod_affinity_weight: i32,
    ) -> Self {
        let namespaces = &cluster.namespaces;
        let resolve = |terms: Vec<(i32, AffinityTerm<'a>)>| -> Vec<(i64, AffinityTerm<'a>)> {
            terms
                .into_iter()
                .map(|(weight, term)| {
                    (
                        i64::from(weight),
                        term.resolve_namespace_selector(namespaces),
                    )
                })
                .collect()
        };
        let mut state = Self {
            pod,
            namespace_labels: selection::namespace_labels(namespaces, &pod.metadata.namespace),
            preferred: resolve(selection::preferred_affinity_terms(pod)),
            preferred_anti: resolve(selection::preferred_anti_affinity_terms(pod)),
            hard_pod_affinity_weight: i64::from(hard_pod_affinity_weight),
            topology_scores: TopologySums::default(),
        };
        // Without preferred terms of its own, only pods with affinity can score the pod.
        if state.preferred.is_empty() && state.preferred_anti.is_empty() {
            for (existing, node) in assigned(snapshot, cluster, &index.with_affinity) {
                state.process(existing, node, true, &mut |_| {});
            }
        } else {
            for (existing, node) in every_pod(snapshot, cluster) {
                state.process(existing, node, true, &mut |_| {});
            }
        }
        state
    }

    /// True if the plugin skips the pod (no term matched anything).
    #[must_use]
    pub fn skips(&self) -> bool {
        self.topology_scores.is_empty()
    }

    /// Adds (`joined`) or takes back what `existing` on `node` contributes.
    fn process(
        &mut self,
        existing: &'a Pod,
        node: &'a Node,
        joined: bool,
        touched: &mut dyn FnMut(&'a str),
    ) {
        if node.metadata.labels.is_empty() {
            return;
        }
        let sums = &mut self.topology_scores;
        let mut add = |term: &AffinityTerm<'_>, weight: i64, target: &Pod, labels: &StringMap| {
            if term.matches(target, labels) {
                if let Some(key) = sums.add(node, term.topology_key(), weight, joined) {
                    touched(key);
                }
            }
        };
        for (weight, term) in &self.preferred {
            add(term, *weight, existing, &NO_LABELS);
        }
        for (weight, term) in &self.preferred_anti {
            add(term, -*weight, existing, &NO_LABELS);
        }
        if self.hard_pod_affinity_weight > 0 {
            for term in selection::required_affinity_terms(existing) {
                add(
                    &term,
                    self.hard_pod_affinity_weight,
                    self.pod,
                    self.namespace_labels,
                );
            }
        }
        for (weight, term) in selection::preferred_affinity_terms(existing) {
            add(&term, i64::from(weight), self.pod, self.namespace_labels);
        }
        for (weight, term) in selection::preferred_anti_affinity_terms(existing) {
            add(&term, -i64::from(weight), self.pod, self.namespace_labels);
        }
    }

    /// Another pod joins (`joined`) or leaves `node`: the domains around `node` whose
    /// sums moved.
    pub fn follow(&mut self, existing: &'a Pod, node: &'a Node, joined: bool) -> Reach {
        let mut keys = Vec::new();
        self.process(existing, node, joined, &mut |key| keys.push(key));
        Reach::of(keys, false)
    }

    /// Score: the sums of the node's topology pairs.
    #[must_use]
    pub fn raw(&self, node: &Node) -> i64 {
        self.topology_scores.of(node)
    }

    /// Score and NormalizeScore over the feasible nodes; an empty list when the plugin
    /// skips the pod.
    #[must_use]
    pub fn scores(&self, feasible: &[&Node]) -> Vec<i64> {
        if self.skips() {
            return Vec::new();
        }
        let raw: Vec<i64> = feasible.iter().map(|node| self.raw(node)).collect();
        normalize(&raw)
    }
}

/// NormalizeScore: scales by the true lowest and highest raw scores
/// ([`normalize::min_max`]).
#[must_use]
pub fn normalize(raw: &[i64]) -> Vec<i64> {
    let lowest = raw.iter().copied().min().unwrap_or(0);
    let highest = raw.iter().copied().max().unwrap_or(0);
    raw.iter()
        .map(|&score| normalize::min_max(score, lowest, highest, MAX_NODE_SCORE))
        .collect()
}

/// A profile's [`AffinityIndex`], built once for the cluster it schedules.
#[derive(Clone, Debug, Default)]
pub struct IndexCache(core::cell::OnceCell<(usize, AffinityIndex)>);

impl IndexCache {
    /// The index of `cluster`: the cached one when it was built for this cluster, a fresh
    /// one otherwise.
    #[must_use]
    pub fn get(&self, cluster: &Cluster) -> alloc::borrow::Cow<'_, AffinityIndex> {
        // The address identifies the cluster for the lifetime of the borrow that placement
        // holds; it is compared, never dereferenced.
        let identity = core::ptr::from_ref(cluster) as usize;
        let (cached_for, index) = self
            .0
            .get_or_init(|| (identity, AffinityIndex::new(cluster)));
        if *cached_for == identity {
            alloc::borrow::Cow::Borrowed(index)
        } else {
            alloc::borrow::Cow::Owned(AffinityIndex::new(cluster))
        }
    }
}

#[cfg(test)]
mod tests {
    //! Cases after `filtering_test.go` and `scoring_test.go` of the upstream plugin
    //! (inputs and expected verdicts as facts; the cases are written anew here).

    use super::*;
    use crate::schedule::snapshot::Accounting;
    use crate::schedule::status::Code;
    use crate::schedule::testing::{schedule, scores as plugin_scores};
    use crate::schedule::Version;
    use crate::{input, Limits, Source};
    use alloc::string::String;

    fn cluster(yaml: &str) -> Cluster {
        let sources = [Source::new("test", yaml)];
        Cluster::build(input::load(&sources, &Limits::default()), &sources, None)
    }

    fn node(name: &str, labels: &str) -> String {
        alloc::format!(
            "---\napiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}{labels}}}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}}}\n"
        )
    }

    /// A pod; `node` empty leaves it pending, `affinity` is the YAML of `spec.affinity`.
    fn pod(name: &str, namespace: &str, labels: &str, node: &str, affinity: &str) -> String {
        alloc::format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: {namespace}, labels: {{{labels}}}}}\nspec:\n  nodeName: '{node}'\n  affinity: {affinity}\n  containers: [{{name: c, image: x}}]\n"
        )
    }

    /// Four nodes: a and b in zone z1, c in zone z2, d without a zone.
    fn nodes() -> String {
        node("a", ", zone: z1, region: r1")
            + &node("b", ", zone: z1, region: r1")
            + &node("c", ", zone: z2, region: r1")
            + &node("d", "")
    }

    /// Each node's (code, reasons) for the last pod of the input.
    fn verdicts(yaml: &str) -> Vec<(Code, Vec<String>)> {
        let cluster = cluster(yaml);
        assert!(
            cluster.diagnostics.iter().all(|d| !d.is_error()),
            "{:?}",
            cluster.diagnostics
        );
        let snapshot = Snapshot::new(&cluster, Accounting::Current);
        let incoming = &cluster.pods.last().map(|entry| &entry.pod).unwrap();
        let index = AffinityIndex::new(&cluster);
        let state = PreFilterState::new(&snapshot, &index, incoming);
        snapshot
            .nodes
            .iter()
            .map(|info| {
                let status = state.filter(info.node);
                (status.code, status.reasons)
            })
            .collect()
    }

    fn pass() -> (Code, Vec<String>) {
        (Code::Success, Vec::new())
    }

    fn fail(code: Code, reason: &str) -> (Code, Vec<String>) {
        (code, alloc::vec![reason.into()])
    }

    const AFFINITY_TO_DB: &str = "{podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchExpressions: [{key: app, operator: In, values: [db]}]}, topologyKey: zone}]}}";
    const ANTI_AFFINITY_TO_DB: &str = "{podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: db}}, topologyKey: zone}]}}";

    #[test]
    fn required_affinity_needs_a_matching_pod_in_the_domain() {
        let yaml = nodes()
            + &pod("db", "default", "app: db", "a", "{}")
            + &pod("web", "default", "app: web", "", AFFINITY_TO_DB);
        let unresolvable = fail(Code::UnschedulableAndUnresolvable, REASON_AFFINITY);
        // d has no zone label: every term's key must be on the node.
        assert_eq!(
            verdicts(&yaml),
            [pass(), pass(), unresolvable.clone(), unresolvable]
        );
    }

    #[test]
    fn affinity_counts_only_the_terms_namespaces() {
        // The db pod is in another namespace than the incoming pod and its terms.
        let yaml = nodes()
            + &pod("db", "other", "app: db", "a", "{}")
            + &pod("web", "default", "app: web", "", AFFINITY_TO_DB);
        let unresolvable = fail(Code::UnschedulableAndUnresolvable, REASON_AFFINITY);
        assert_eq!(verdicts(&yaml), alloc::vec![unresolvable; 4]);
        // Listing the namespace, or selecting it by its labels, brings the pod in.
        let listed = "{podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: db}}, namespaces: [other], topologyKey: zone}]}}";
        let yaml_listed = nodes()
            + &pod("db", "other", "app: db", "a", "{}")
            + &pod("web", "default", "app: web", "", listed);
        assert_eq!(verdicts(&yaml_listed)[..2], [pass(), pass()]);
        let selected = "{podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: db}}, namespaceSelector: {matchLabels: {team: data}}, topologyKey: zone}]}}";
        let namespace =
            "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: other, labels: {team: data}}\n";
        let yaml_selected = nodes()
            + namespace
            + &pod("db", "other", "app: db", "a", "{}")
            + &pod("web", "default", "app: web", "", selected);
        assert_eq!(
            verdicts(&yaml_selected)[..3],
            [
                pass(),
                pass(),
                fail(Code::UnschedulableAndUnresolvable, REASON_AFFINITY)
            ]
        );
        // Every named Namespace carries its name as `kubernetes.io/metadata.name`, the
        // written value notwithstanding (`SetDefaults_Namespace`).
        let by_name = selected.replace("team: data", "kubernetes.io/metadata.name: other");
        let yaml_by_name = yaml_selected
            .replace(selected, &by_name)
            .replace("{team: data}", "{kubernetes.io/metadata.name: wrong}");
        assert_eq!(verdicts(&yaml_by_name)[..3], verdicts(&yaml_selected)[..3]);
    }

    #[test]
    fn the_first_pod_of_a_self_affine_group_goes_anywhere_with_the_keys() {
        let own = "{podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: web}}, topologyKey: zone}]}}";
        let yaml = nodes() + &pod("web", "default", "app: web", "", own);
        let unresolvable = fail(Code::UnschedulableAndUnresolvable, REASON_AFFINITY);
        assert_eq!(
            verdicts(&yaml),
            [pass(), pass(), pass(), unresolvable.clone()]
        );
        // Once one matching pod exists, only its domain is allowed.
        let yaml = nodes()
            + &pod("web-0", "default", "app: web", "c", "{}")
            + &pod("web", "default", "app: web", "", own);
        assert_eq!(
            verdicts(&yaml),
            [
                unresolvable.clone(),
                unresolvable.clone(),
                pass(),
                unresolvable
            ]
        );
    }

    #[test]
    fn required_anti_affinity_is_resolvable() {
        let yaml = nodes()
            + &pod("db", "default", "app: db", "a", "{}")
            + &pod("web", "default", "app: web", "", ANTI_AFFINITY_TO_DB);
        let conflict = fail(Code::Unschedulable, REASON_ANTI_AFFINITY);
        // d has no zone: nothing shares its domain.
        assert_eq!(
            verdicts(&yaml),
            [conflict.clone(), conflict, pass(), pass()]
        );
    }

    #[test]
    fn existing_pods_anti_affinity_is_symmetric() {
        let guard = "{podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: web}}, topologyKey: zone}]}}";
        let yaml = nodes()
            + &pod("guard", "default", "app: guard", "c", guard)
            + &pod("web", "default", "app: web", "", "{}");
        assert_eq!(
            verdicts(&yaml),
            [
                pass(),
                pass(),
                fail(Code::Unschedulable, REASON_EXISTING_ANTI_AFFINITY),
                pass()
            ]
        );
        // Affinity is checked first, then the pod's anti-affinity, then the existing pods'.
        let yaml = nodes()
            + &pod("guard", "default", "app: guard", "c", guard)
            + &pod("db", "default", "app: db", "c", "{}")
            + &pod("web", "default", "app: web", "", ANTI_AFFINITY_TO_DB);
        assert_eq!(
            verdicts(&yaml)[2],
            fail(Code::Unschedulable, REASON_ANTI_AFFINITY)
        );
    }

    #[test]
    fn match_and_mismatch_label_keys_use_the_pods_own_values() {
        // Anti-affinity to other revisions of the same app only.
        let term = "{podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [rev], topologyKey: kubernetes.io/hostname}]}}";
        let yaml = nodes()
            + &pod("old", "default", "app: web, rev: '1'", "a", "{}")
            + &pod("new", "default", "app: web, rev: '2'", "b", "{}")
            + &pod("web", "default", "app: web, rev: '2'", "", term);
        let conflict = fail(Code::Unschedulable, REASON_ANTI_AFFINITY);
        assert_eq!(verdicts(&yaml), [pass(), conflict, pass(), pass()]);
        let term = "{podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: web}}, mismatchLabelKeys: [rev], topologyKey: kubernetes.io/hostname}]}}";
        let yaml = nodes()
            + &pod("old", "default", "app: web, rev: '1'", "a", "{}")
            + &pod("new", "default", "app: web, rev: '2'", "b", "{}")
            + &pod("web", "default", "app: web, rev: '2'", "", term);
        let conflict = fail(Code::Unschedulable, REASON_ANTI_AFFINITY);
        assert_eq!(verdicts(&yaml), [conflict, pass(), pass(), pass()]);
    }

    #[test]
    fn add_and_remove_pod_update_the_counts() {
        let yaml = nodes()
            + &pod("db", "default", "app: db", "a", "{}")
            + &pod("web", "default", "app: web", "", ANTI_AFFINITY_TO_DB);
        let cluster = cluster(&yaml);
        let snapshot = Snapshot::new(&cluster, Accounting::Current);
        let index = AffinityIndex::new(&cluster);
        let db = &cluster.pods[0].pod;
        let web = &cluster.pods[1].pod;
        let mut state = PreFilterState::new(&snapshot, &index, web);
        let node_a = snapshot.nodes[0].node;
        let node_c = snapshot.nodes[2].node;
        assert!(!state.filter(node_a).passed());
        state.follow(db, node_a, false);
        assert!(state.filter(node_a).passed());
        state.follow(db, node_c, true);
        assert!(!state.filter(node_c).passed());
    }

    /// Three nodes for the scoring cases: n1 in region china, n2 in region india, n3
    /// without a region.
    fn scoring_nodes() -> String {
        node("n1", ", region: china") + &node("n2", ", region: india") + &node("n3", ", az: az1")
    }

    fn score_of(yaml: &str) -> Vec<(String, i64)> {
        let result = schedule(yaml, Version::Current);
        plugin_scores(&result.pods[0], NAME)
    }

    #[test]
    fn preferred_affinity_scores_the_domain_of_matching_pods() {
        let preferred = "{podAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 5, podAffinityTerm: {labelSelector: {matchLabels: {security: s1}}, topologyKey: region}}]}}";
        let yaml = scoring_nodes()
            + &pod("p1", "default", "security: s1", "n1", "{}")
            + &pod("p2", "default", "security: s2", "n2", "{}")
            + &pod("p3", "default", "security: s1", "n3", "{}")
            + &pod("incoming", "default", "app: web", "", preferred);
        assert_eq!(
            score_of(&yaml),
            [("n1".into(), 100), ("n2".into(), 0), ("n3".into(), 0)]
        );
        // The same term as anti-affinity: the matching domain scores lowest.
        let yaml = yaml.replace("{podAffinity:", "{podAntiAffinity:");
        assert_eq!(
            score_of(&yaml),
            [("n1".into(), 0), ("n2".into(), 100), ("n3".into(), 100)]
        );
    }

    #[test]
    fn existing_pods_required_affinity_scores_with_the_hard_weight() {
        let required = "{podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: web}}, topologyKey: region}]}}";
        let yaml = scoring_nodes()
            + &pod("p1", "default", "app: cache", "n1", required)
            + &pod("incoming", "default", "app: web", "", "{}");
        assert_eq!(
            score_of(&yaml),
            [("n1".into(), 100), ("n2".into(), 0), ("n3".into(), 0)]
        );
        let cluster = cluster(&yaml);
        let snapshot = Snapshot::new(&cluster, Accounting::Current);
        let nodes: Vec<&Node> = snapshot.nodes.iter().map(|info| info.node).collect();
        let index = AffinityIndex::new(&cluster);
        let incoming = &cluster.pods[1].pod;
        // hardPodAffinityWeight 0: nothing scores, the plugin skips.
        let state = PreScoreState::new(&snapshot, &cluster, &index, incoming, 0);
        assert!(state.scores(&nodes).is_empty());
    }

    /// `ignorePreferredTermsOfExistingPods`: a pod without preferred terms of its own is
    /// not scored at all (PreScore returns Skip); one with them still counts the existing
    /// pods' terms.
    #[test]
    fn ignoring_existing_preferred_terms_skips_pods_without_their_own() {
        let config = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: InterPodAffinity\n    args: {ignorePreferredTermsOfExistingPods: true}\n";
        let prefers = |app: &str| {
            alloc::format!("{{podAffinity: {{preferredDuringSchedulingIgnoredDuringExecution: [{{weight: 100, podAffinityTerm: {{labelSelector: {{matchLabels: {{app: {app}}}}}, topologyKey: region}}}}]}}}}")
        };
        let cluster =
            scoring_nodes() + &pod("cache", "default", "app: cache", "n1", &prefers("web"));
        let plain = pod("incoming", "default", "app: web", "", "{}");
        let counted = [("n1".into(), 100), ("n2".into(), 0), ("n3".into(), 0)];
        assert_eq!(score_of(&(cluster.clone() + &plain)), counted);
        assert_eq!(score_of(&(String::from(config) + &cluster + &plain)), []);
        let own_terms = pod("incoming", "default", "app: web", "", &prefers("none"));
        assert_eq!(
            score_of(&(String::from(config) + &cluster + &own_terms)),
            counted
        );
    }

    #[test]
    fn normalisation_uses_the_true_minimum() {
        assert_eq!(normalize(&[-5, 0, 5]), [0, 50, 100]);
        assert_eq!(normalize(&[3, 3]), [0, 0]);
        assert_eq!(normalize(&[1, 2, 4]), [0, 33, 100]);
    }
}
