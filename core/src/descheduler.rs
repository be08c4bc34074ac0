//! The descheduler as OpenShift 3.11 ships it (`openshift/descheduler` `v3.11.0`).

pub(crate) mod evictable;
mod low_node_utilization;
mod node;
mod node_affinity;
mod pod_anti_affinity;
mod pods;
mod remove_duplicates;

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;
use serde::Serialize;

use crate::cluster::{NodeIndex, OwnerKey, PodEntry, PodState};
use crate::model::{DeschedulerPolicy, Node, Pod};
use crate::report::words::Words;

/// The strategies `v3.11.0` knows, in the fixed order it runs them
/// (`pkg/descheduler/descheduler.go`); any other name in a policy is never read.
pub const STRATEGIES: [&str; 4] = [
    remove_duplicates::NAME,
    low_node_utilization::NAME,
    pod_anti_affinity::NAME,
    node_affinity::NAME,
];

/// The descheduler's command-line flags that change decisions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--max-pods-to-evict-per-node`: successful evictions allowed per node over the whole
    /// run, all strategies together; 0 (the default, and what OpenShift 3.11's job passes)
    /// means no limit.
    pub max_pods_to_evict_per_node: usize,
}

/// What one descheduler run did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Descheduling {
    /// Evicted pods (indexes into the pods given), in eviction order, with the strategy.
    #[serde(skip)]
    pub evicted: Vec<(usize, String)>,
    /// The ready nodes the strategies ran on, in input order.
    pub ready_nodes: Vec<String>,
    /// Nodes left out because their `Ready` condition is not `True`.
    pub not_ready_nodes: Vec<String>,
    /// Why no strategy ran at all, when the run stopped first.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub stopped: Option<String>,
    /// Pods on the ready nodes that no strategy may evict, with every rule that protects
    /// them (`IsEvictable`).
    pub protected: Vec<Protected>,
    /// One entry per strategy, in run order, disabled ones included.
    pub strategies: Vec<StrategyRun>,
    /// Every pod evicted, in order (a pod evicted again by a later strategy is listed once).
    pub evictions: Vec<Descheduled>,
    /// Strategy names in the policy that `v3.11.0` does not know, so never runs.
    pub unknown_strategies: Vec<String>,
}

/// A pod no strategy may evict.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Protected {
    /// `namespace/name`.
    pub pod: String,
    /// The node it runs on.
    pub node: String,
    /// Every rule that protects it, in the order upstream checks them.
    pub reasons: Vec<String>,
}

/// One strategy's part of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct StrategyRun {
    /// The strategy name, as in the policy.
    pub name: String,
    /// Ran, disabled, or skipped before looking at any pod.
    pub status: StrategyStatus,
    /// Why it was skipped or stopped early, in upstream's words.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub note: Option<String>,
    /// Successful eviction requests (re-evictions of terminating pods included).
    pub evicted: usize,
    /// LowNodeUtilization only: how each node was classed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub utilization: Option<Utilization>,
    /// What the strategy decided for each pod it looked at.
    pub pods: Vec<PodDecision>,
}

/// Whether a strategy ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum StrategyStatus {
    /// It looked at the pods.
    Ran,
    /// Absent from the policy or `enabled: false`.
    Disabled,
    /// Enabled, but it stopped before looking at any pod (see the note).
    Skipped,
}

/// LowNodeUtilization's view of the nodes (`classifyNodes`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Utilization {
    /// Every ready node, in input order.
    pub nodes: Vec<NodeUtilization>,
    /// What the underutilized nodes can take before reaching the targets, when eviction
    /// started: pods, cpu in millicores and memory in bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub room: Option<Room>,
}

/// One node's usage and class.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct NodeUtilization {
    /// The node name.
    pub node: String,
    /// Underutilized, overutilized or appropriately utilized.
    pub class: NodeClass,
    /// Requested share of allocatable, in percent, before any eviction. Infinite or NaN
    /// (JSON `null`) when allocatable is zero, as upstream's float division gives.
    pub usage: Usage,
    /// Cordoned: never counted as underutilized.
    pub unschedulable: bool,
    /// For overutilized nodes the strategy evicted from: the usage it ended with.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub usage_after: Option<Usage>,
}

/// How a node is classed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum NodeClass {
    /// Schedulable and at or below every threshold: pods may move here.
    Underutilized,
    /// Above some target threshold: pods are evicted from here.
    Overutilized,
    /// Neither: left alone.
    AppropriatelyUtilized,
}

/// Usage in percent of allocatable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Summed cpu requests.
    pub cpu: f64,
    /// Summed memory requests.
    pub memory: f64,
    /// Pods on the node.
    pub pods: f64,
}

/// Room left on the underutilized nodes (`totalPods`, `totalCpu`, `totalMem`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Room {
    /// Pods.
    pub pods: f64,
    /// Millicores (0 when `cpu` has no target).
    pub cpu: f64,
    /// Bytes (0 when `memory` has no target).
    pub memory: f64,
}

/// What a strategy decided for one pod. A run decides on every pod of the cluster, so
/// the names are shared among its decisions ([`Words`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PodDecision {
    /// `namespace/name`.
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub pod: Words,
    /// The node it runs on.
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub node: Words,
    /// Evicted, kept, refused by the eviction API, or stopped by the node limit.
    pub verdict: Verdict,
    /// Why, in a few words.
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub reason: Words,
}

/// The kind of a [`PodDecision`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub enum Verdict {
    /// The eviction API accepted the eviction.
    Evicted,
    /// The strategy chose not to evict it.
    Kept,
    /// The strategy asked, and the eviction API refused (a disruption budget, say).
    Refused,
    /// `--max-pods-to-evict-per-node` was reached on its node.
    Limited,
}

/// One eviction.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Descheduled {
    /// `namespace/name`.
    pub pod: String,
    /// The node it ran on.
    pub node: String,
    /// The strategy that evicted it.
    pub strategy: String,
}

/// The eviction API as the strategies call it, with a pod's index and whether this run
/// evicted it before (it is terminating; the request is made again, as upstream's
/// strategies do); `Err` says why the API refused.
pub type Evict<'a> = dyn FnMut(usize, bool) -> Result<Evicted, String> + 'a;

/// What an eviction the API granted did to the pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evicted {
    /// It terminates over its grace period, and the strategies' later lists still
    /// return it.
    Terminating,
    /// Its grace period is zero: the API server deleted it at once
    /// (`updateForGracefulDeletionAndFinalizers` in the generic registry's `store.go`), and
    /// the later lists, which ask the API server again, no longer return it.
    Gone,
}

/// Runs every enabled strategy once, in upstream's order.
///
/// `pods` are the cluster's pods (only bound, running ones are considered); `evict` asks
/// the eviction API to evict the pod at an index and says why it refused.
pub fn run(
    policy: &DeschedulerPolicy,
    nodes: &[Node],
    pods: &[&PodEntry],
    evict: &mut Evict<'_>,
) -> Descheduling {
    let bound = bound_positions(nodes, pods);
    run_with(policy, nodes, pods, &bound, Options::default(), evict)
}

/// Per pod, the position in `nodes` of the node its `spec.nodeName` names (what
/// [`run_with`] takes from a caller that already knows where its pods are).
#[must_use]
pub fn bound_positions(nodes: &[Node], pods: &[&PodEntry]) -> Vec<Option<usize>> {
    let positions = NodeIndex::new(nodes.iter().map(|node| node.metadata.name.as_str()));
    pods.iter()
        .map(|entry| positions.get(&entry.pod.spec.node_name))
        .collect()
}

/// A key's first 16 bytes as a big-endian number, zero-padded: ordered as the keys are
/// when they differ there (a key has no NUL byte).
fn prefix(key: &str) -> u128 {
    // Byte by byte for a short key: a copy of its length would call `memmove` in wasm.
    match key.as_bytes().first_chunk::<16>() {
        Some(first) => u128::from_be_bytes(*first),
        None => key
            .bytes()
            .chain(core::iter::repeat(0))
            .take(16)
            .fold(0, |number, byte| (number << 8) | u128::from(byte)),
    }
}

/// [`run`] with the descheduler's flags.
///
/// As `descheduler.go` does: the ready nodes (a node whose `Ready` condition is missing
/// counts as ready; cordoned nodes are kept) are listed once; with fewer than two nothing
/// runs; then the four strategies run in their fixed order over those nodes, sharing one
/// per-node count of evictions. Pods a strategy evicts stay on their node for the later
/// strategies (they are terminating, and upstream's pod lists still return them): they
/// count towards usage and may be matched, and evicting one again asks `evict` again
/// (the 1.11 API server asks a terminating pod's disruption budget too). A pod whose
/// grace period is zero is gone at once ([`Evicted::Gone`]) and leaves the lists. Pods are
/// listed per node in the API's order, by `namespace/name`. Only LowNodeUtilization orders pods by QoS class; the OpenShift 3.11 documentation's "best
/// effort pods are evicted before Burstable and Guaranteed pods" holds for it alone.
///
/// `bound` gives each pod's node as a position in `nodes` ([`bound_positions`]).
pub fn run_with(
    policy: &DeschedulerPolicy,
    nodes: &[Node],
    pods: &[&PodEntry],
    bound: &[Option<usize>],
    options: Options,
    evict: &mut Evict<'_>,
) -> Descheduling {
    let mut outcome = Descheduling {
        unknown_strategies: policy
            .strategies
            .keys()
            .filter(|name| !STRATEGIES.contains(&name.as_str()))
            .cloned()
            .collect(),
        ..Descheduling::default()
    };
    let mut ready = Vec::new();
    // Per node of `nodes`, its position among the ready ones.
    let mut ready_position = Vec::with_capacity(nodes.len());
    for node in nodes {
        let is_ready = node::is_ready(node);
        ready_position.push(is_ready.then_some(ready.len()));
        if is_ready {
            outcome.ready_nodes.push(node.metadata.name.clone());
            ready.push(node);
        } else {
            outcome.not_ready_nodes.push(node.metadata.name.clone());
        }
    }
    if ready.len() <= 1 {
        let why = "The cluster size is 0 or 1 meaning eviction causes service disruption or degradation. So aborting..";
        outcome.stopped = Some(why.into());
        for name in STRATEGIES {
            let mut report = StrategyRun::new(name);
            if is_enabled(policy, name) {
                report.status = StrategyStatus::Skipped;
                report.note = Some("not run: fewer than two ready nodes".into());
            }
            outcome.strategies.push(report);
        }
        return outcome;
    }
    let on_ready_node = bound
        .iter()
        .map(|node| node.and_then(|node| ready_position.get(node).copied().flatten()));
    let requested = is_enabled(policy, low_node_utilization::NAME);
    let mut context = Context::new(ready, pods, on_ready_node, options, requested, evict);
    outcome.protected = context.protected();
    for name in STRATEGIES {
        let mut report = StrategyRun::new(name);
        if let Some(strategy) = policy.strategies.get(name).filter(|s| s.enabled) {
            report.status = StrategyStatus::Ran;
            match name {
                remove_duplicates::NAME => remove_duplicates::run(&mut context, &mut report),
                low_node_utilization::NAME => {
                    low_node_utilization::run(&mut context, strategy, &mut report);
                }
                pod_anti_affinity::NAME => pod_anti_affinity::run(&mut context, &mut report),
                _ => node_affinity::run(&mut context, strategy, &mut report),
            }
        }
        outcome.strategies.push(report);
    }
    outcome.evicted = context.evicted;
    outcome.evictions = context.evictions;
    outcome
}

fn is_enabled(policy: &DeschedulerPolicy, name: &str) -> bool {
    policy.strategies.get(name).is_some_and(|s| s.enabled)
}

impl StrategyRun {
    fn new(name: &str) -> Self {
        Self {
            name: name.into(),
            status: StrategyStatus::Disabled,
            note: None,
            evicted: 0,
            utilization: None,
            pods: Vec::new(),
        }
    }

    /// Marks the strategy as skipped with upstream's reason.
    fn skip(&mut self, why: impl Into<String>) {
        self.status = StrategyStatus::Skipped;
        self.note = Some(why.into());
    }
}

/// How an eviction request went.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Attempt {
    /// The eviction API evicted the pod.
    Evicted,
    /// An earlier strategy evicted it, and the request succeeded again on the terminating
    /// pod.
    Again(&'static str),
    /// An earlier request deleted it at once (grace period 0): the eviction API, which
    /// reads the pod first (1.11 `EvictionREST.Create`), answers NotFound, and `EvictPod`
    /// (descheduler 3.11 `evictions.go`) takes that for a success.
    NotFound(&'static str),
    /// The eviction API refused, with its message.
    Refused(String),
}

impl Attempt {
    fn succeeded(&self) -> bool {
        !matches!(self, Self::Refused(_))
    }
}

/// What the strategies read of a listed pod, gathered as the pods are listed: their walks
/// node by node would otherwise go to each pod's entry again, and a node's pods lie all
/// over memory.
#[derive(Clone, Copy, Default)]
struct Listed<'a> {
    /// `IsEvictable` holds ([`crate::cluster::Deletion::descheduler_may_evict`]).
    evictable: bool,
    /// It has pod affinity or anti-affinity terms
    /// ([`crate::schedule::snapshot::Footprint::pod_affinity`]).
    pod_affinity: bool,
    /// It has a required node affinity
    /// ([`crate::cluster::Deletion::required_node_affinity`]).
    node_affinity: bool,
    /// Its owners' keys ([`crate::cluster::Deletion::owner_keys`]).
    owner_keys: &'a [OwnerKey],
}

/// The state the strategies share: the ready nodes, the pods on each, the per-node count
/// of evictions (`nodePodCount`) and the evictions so far.
struct Context<'a> {
    pods: &'a [&'a PodEntry],
    nodes: Vec<&'a Node>,
    /// Bound, non-terminal pods per ready node (by position in `nodes`), by `namespace/name`.
    on_node: Vec<Vec<usize>>,
    /// Per pod index, what the strategies read of it (default for pods not listed).
    listed: Vec<Listed<'a>>,
    /// Successful evictions per node (by position in `nodes`).
    count: Vec<usize>,
    max_per_node: usize,
    /// The strategy that first evicted each pod, and what that eviction did to it.
    evicted_by: BTreeMap<usize, (&'static str, Evicted)>,
    evicted: Vec<(usize, String)>,
    evictions: Vec<Descheduled>,
    evict: &'a mut Evict<'a>,
    /// Per ready node, its name once a decision named it.
    node_names: Vec<Option<Arc<str>>>,
    /// Per listed pod on a ready node, its `namespace/name` until a decision takes it: the
    /// reference is counted while the listing reads the key's first bytes next to the
    /// count, where each decision's own count would wait on memory long left behind.
    pod_names: Vec<Option<Arc<str>>>,
    /// LowNodeUtilization's reading of the pods, when it runs: gathered as they are listed.
    requested: Option<low_node_utilization::Requested>,
}

impl<'a> Context<'a> {
    /// `on_ready_node` gives each pod's node as a position in `nodes`, the ready ones;
    /// `requested`: LowNodeUtilization will run, so its reading of each pod is taken too.
    fn new(
        nodes: Vec<&'a Node>,
        pods: &'a [&'a PodEntry],
        on_ready_node: impl Iterator<Item = Option<usize>>,
        options: Options,
        requested: bool,
        evict: &'a mut Evict<'a>,
    ) -> Self {
        let mut on_node: Vec<Vec<usize>> = alloc::vec![Vec::new(); nodes.len()];
        // Each listed pod's key, with its first 16 bytes as a number (most comparisons end
        // there), read while its facts are at hand: sorting through the entries cost a
        // tenth of a 5 000-node run in wasm.
        let mut keys: Vec<(u128, &'a str)> = alloc::vec![(0, ""); pods.len()];
        let mut pod_names = alloc::vec![None; pods.len()];
        let mut listed = alloc::vec![Listed::default(); pods.len()];
        let mut requested =
            requested.then(|| low_node_utilization::Requested::new(pods.len(), nodes.len()));
        for ((index, entry), position) in pods.iter().enumerate().zip(on_ready_node) {
            // `ListPodsOnANode`: `spec.nodeName` is the node, phase neither Succeeded nor
            // Failed (kubefit's `Terminated`); pending and rejected pods are not bound.
            let Some(position) = position.filter(|_| entry.state == PodState::Bound) else {
                continue;
            };
            if let Some(list) = on_node.get_mut(position) {
                list.push(index);
            }
            if let Some(key) = keys.get_mut(index) {
                *key = (prefix(&entry.key), &entry.key);
            }
            if let Some(name) = pod_names.get_mut(index) {
                *name = Some(Arc::clone(&entry.key));
            }
            if let Some(slot) = listed.get_mut(index) {
                *slot = Listed {
                    evictable: entry.deletion.descheduler_may_evict,
                    pod_affinity: entry.footprint.pod_affinity,
                    node_affinity: entry.deletion.required_node_affinity,
                    owner_keys: &entry.deletion.owner_keys,
                };
            }
            if let Some(requested) = requested.as_mut() {
                requested.add(index, entry, position);
            }
        }
        // `ListPodsOnANode` asks the API server.
        let key = |index: usize| keys.get(index).copied().unwrap_or_default();
        for list in &mut on_node {
            crate::cluster::in_list_order(list, key);
        }
        Self {
            pods,
            count: alloc::vec![0; nodes.len()],
            node_names: alloc::vec![None; nodes.len()],
            pod_names,
            nodes,
            on_node,
            listed,
            max_per_node: options.max_pods_to_evict_per_node,
            evicted_by: BTreeMap::new(),
            evicted: Vec::new(),
            evictions: Vec::new(),
            evict,
            requested,
        }
    }

    /// Every non-evictable pod on the ready nodes, with its reasons.
    fn protected(&self) -> Vec<Protected> {
        let mut protected = Vec::new();
        for (position, list) in self.on_node.iter().enumerate() {
            for &index in list.iter().filter(|&&index| !self.is_evictable(index)) {
                let Some(entry) = self.pods.get(index) else {
                    continue;
                };
                let reasons = evictable::protections(&entry.pod);
                if !reasons.is_empty() {
                    protected.push(Protected {
                        pod: pod_name(&entry.pod),
                        node: self.node_name(position).into(),
                        reasons: reasons.iter().map(|r| String::from(r.as_str())).collect(),
                    });
                }
            }
        }
        protected
    }

    fn pod(&self, index: usize) -> Option<&'a Pod> {
        self.pods.get(index).map(|entry| &*entry.pod)
    }

    fn node_name(&self, position: usize) -> &'a str {
        self.nodes
            .get(position)
            .map_or("", |node| node.metadata.name.as_str())
    }

    /// All pods on a node (`ListPodsOnANode`).
    fn pods_on(&self, position: usize) -> &[usize] {
        self.on_node.get(position).map_or(&[], Vec::as_slice)
    }

    /// The evictable pods on a node (`ListEvictablePodsOnNode`).
    fn evictable_on(&self, position: usize) -> Vec<usize> {
        self.pods_on(position)
            .iter()
            .copied()
            .filter(|&index| self.is_evictable(index))
            .collect()
    }

    fn is_evictable(&self, index: usize) -> bool {
        self.listed
            .get(index)
            .is_some_and(|listed| listed.evictable)
    }

    /// The keys of a listed pod's owners.
    fn owner_keys(&self, index: usize) -> &'a [OwnerKey] {
        self.listed
            .get(index)
            .map_or(&[], |listed| listed.owner_keys)
    }

    /// False if a listed pod has no pod affinity or anti-affinity terms (then its terms
    /// need not be read).
    fn may_have_pod_affinity(&self, index: usize) -> bool {
        self.listed
            .get(index)
            .is_some_and(|listed| listed.pod_affinity)
    }

    /// True if a listed pod has a required node affinity.
    fn has_required_node_affinity(&self, index: usize) -> bool {
        self.listed
            .get(index)
            .is_some_and(|listed| listed.node_affinity)
    }

    /// `maxPodsToEvict > 0 && nodePodCount[node]+1 > maxPodsToEvict`.
    fn limit_reached(&self, position: usize) -> bool {
        self.max_per_node > 0 && self.evictions_on(position) >= self.max_per_node
    }

    fn evictions_on(&self, position: usize) -> usize {
        self.count.get(position).copied().unwrap_or(0)
    }

    /// Adds one to the node's count of evictions.
    fn count_eviction(&mut self, position: usize) {
        if let Some(count) = self.count.get_mut(position) {
            *count = count.saturating_add(1);
        }
    }

    /// Asks the eviction API to evict a pod; a success adds one to the node's count.
    fn evict(&mut self, index: usize, position: usize, strategy: &'static str) -> Attempt {
        let earlier = self.evicted_by.get(&index).copied();
        if let Some((earlier, Evicted::Gone)) = earlier {
            self.count_eviction(position);
            return Attempt::NotFound(earlier);
        }
        match (self.evict)(index, earlier.is_some()) {
            Ok(evicted) => {
                self.count_eviction(position);
                if evicted == Evicted::Gone {
                    self.unlist(index, position);
                }
                if let Some((earlier, _)) = earlier {
                    return Attempt::Again(earlier);
                }
                self.evicted_by.insert(index, (strategy, evicted));
                self.evicted.push((index, strategy.into()));
                let pod = self.pod(index).map(pod_name).unwrap_or_default();
                self.evictions.push(Descheduled {
                    pod,
                    node: self.node_name(position).into(),
                    strategy: strategy.into(),
                });
                Attempt::Evicted
            }
            Err(message) => Attempt::Refused(message),
        }
    }

    /// Takes a pod the API server deleted off its node's list, and out of the node's
    /// summed requests while LowNodeUtilization has yet to read them.
    fn unlist(&mut self, index: usize, position: usize) {
        if let Some(list) = self.on_node.get_mut(position) {
            list.retain(|&listed| listed != index);
        }
        if let (Some(requested), Some(entry)) = (self.requested.as_mut(), self.pods.get(index)) {
            requested.remove(index, entry, position);
        }
    }

    /// A decision on a pod of a node.
    fn decision(
        &mut self,
        index: usize,
        position: usize,
        verdict: Verdict,
        reason: impl Into<Words>,
    ) -> PodDecision {
        PodDecision {
            pod: self.pod_words(index),
            node: self.node_words(position),
            verdict,
            reason: reason.into(),
        }
    }

    /// A pod's `namespace/name`, shared by all the decisions that name it.
    fn pod_words(&mut self, index: usize) -> Words {
        if let Some(name) = self.pod_names.get_mut(index).and_then(Option::take) {
            return Words::Shared("", name);
        }
        self.pods
            .get(index)
            .map_or_else(Words::default, |entry| Words::shared(&entry.key))
    }

    /// A ready node's name, worded once for the whole run.
    fn node_words(&mut self, position: usize) -> Words {
        let Some(&node) = self.nodes.get(position) else {
            return Words::default();
        };
        match self.node_names.get_mut(position) {
            Some(slot) => {
                Words::shared(slot.get_or_insert_with(|| Arc::from(node.metadata.name.as_str())))
            }
            None => Words::default(),
        }
    }

    /// The decision for an eviction attempt: `evicted` says why the strategy evicted.
    fn attempt_decision(
        &mut self,
        index: usize,
        position: usize,
        attempt: &Attempt,
        evicted: Words,
    ) -> PodDecision {
        match attempt {
            Attempt::Evicted => self.decision(index, position, Verdict::Evicted, evicted),
            Attempt::Again(earlier) => self.decision(
                index,
                position,
                Verdict::Evicted,
                alloc::format!("{evicted}; already evicted by {earlier}, the request succeeds again on the terminating pod"),
            ),
            Attempt::NotFound(earlier) => self.decision(
                index,
                position,
                Verdict::Evicted,
                alloc::format!("{evicted}; already evicted and deleted by {earlier}, the API answers NotFound, which counts as a success"),
            ),
            Attempt::Refused(message) => self.decision(
                index,
                position,
                Verdict::Refused,
                alloc::format!("eviction refused: {message}"),
            ),
        }
    }

    /// The decision for a pod left because the node limit was reached.
    fn limited(&mut self, index: usize, position: usize) -> PodDecision {
        self.decision(
            index,
            position,
            Verdict::Limited,
            alloc::format!(
                "node limit reached: {} eviction(s) on the node",
                self.evictions_on(position)
            ),
        )
    }
}

/// `namespace/name` of a pod, as the report names pods.
fn pod_name(pod: &Pod) -> String {
    alloc::format!("{}/{}", pod.metadata.namespace, pod.metadata.name)
}

/// Runs one strategy directly, as upstream's unit tests call the strategy functions
/// (no check of the number of ready nodes).
#[cfg(test)]
pub(crate) mod testing {
    use alloc::vec::Vec;

    use super::{
        low_node_utilization, node_affinity, pod_anti_affinity, remove_duplicates, Context,
        Evicted, Options, StrategyRun, StrategyStatus,
    };
    use crate::model::{DeschedulerStrategy, Node, Pod};

    /// The strategy's report and the indexes of the pods it evicted.
    pub fn strategy(
        name: &str,
        config: Option<&DeschedulerStrategy>,
        nodes: Vec<Node>,
        pods: Vec<Pod>,
        max_per_node: usize,
    ) -> (StrategyRun, Vec<usize>) {
        strategy_refusing(name, config, nodes, pods, max_per_node, &[])
    }

    /// [`strategy`] with an eviction API that refuses the pods at `refused`.
    pub fn strategy_refusing(
        name: &str,
        config: Option<&DeschedulerStrategy>,
        nodes: Vec<Node>,
        pods: Vec<Pod>,
        max_per_node: usize,
        refused: &[usize],
    ) -> (StrategyRun, Vec<usize>) {
        let owned = super::pods::testing::entries(pods);
        let entries: Vec<&crate::cluster::PodEntry> = owned.iter().collect();
        let default = DeschedulerStrategy {
            enabled: true,
            ..DeschedulerStrategy::default()
        };
        let config = config.unwrap_or(&default);
        let mut report = StrategyRun::new(name);
        if !config.enabled {
            return (report, Vec::new());
        }
        report.status = StrategyStatus::Ran;
        let mut evict = |index: usize, _again: bool| {
            if refused.contains(&index) {
                Err(alloc::string::String::from(
                    "Cannot evict pod as it would violate the pod's disruption budget.",
                ))
            } else {
                Ok(Evicted::Terminating)
            }
        };
        let ready: Vec<Node> = nodes.into_iter().filter(super::node::is_ready).collect();
        let bound = super::bound_positions(&ready, &entries);
        let options = Options {
            max_pods_to_evict_per_node: max_per_node,
        };
        let mut context = Context::new(
            ready.iter().collect(),
            &entries,
            bound.into_iter(),
            options,
            false,
            &mut evict,
        );
        match name {
            remove_duplicates::NAME => remove_duplicates::run(&mut context, &mut report),
            low_node_utilization::NAME => {
                low_node_utilization::run(&mut context, config, &mut report);
            }
            pod_anti_affinity::NAME => pod_anti_affinity::run(&mut context, &mut report),
            node_affinity::NAME => node_affinity::run(&mut context, config, &mut report),
            _ => {}
        }
        let evicted = context.evicted.iter().map(|(index, _)| *index).collect();
        (report, evicted)
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec;
    use alloc::vec::Vec;

    use super::pods::testing::{build_node, build_pod, entries, replica_set_owner};
    use super::*;
    use crate::model::{DeschedulerStrategy, NodeCondition};

    fn policy(names: &[&str]) -> DeschedulerPolicy {
        let mut policy = DeschedulerPolicy::default();
        for name in names {
            policy.strategies.insert(
                String::from(*name),
                DeschedulerStrategy {
                    enabled: true,
                    ..DeschedulerStrategy::default()
                },
            );
        }
        policy
    }

    /// RemoveDuplicates alone, every eviction allowed.
    fn duplicates_removed(nodes: &[Node], owned: &[crate::cluster::PodEntry]) -> Descheduling {
        let pods: Vec<&crate::cluster::PodEntry> = owned.iter().collect();
        run(
            &policy(&[remove_duplicates::NAME]),
            nodes,
            &pods,
            &mut |_, _| Ok(Evicted::Terminating),
        )
    }

    #[test]
    fn one_ready_node_stops_the_run() {
        let mut down = build_node("n2", 1000, 1000, 10);
        down.status.conditions = vec![NodeCondition {
            type_: "Ready".into(),
            status: "Unknown".into(),
            ..NodeCondition::default()
        }];
        let nodes = vec![build_node("n1", 1000, 1000, 10), down];
        let owned = entries(vec![
            replica_set_owner(build_pod("a", 100, 0, "n1")),
            replica_set_owner(build_pod("b", 100, 0, "n1")),
        ]);
        let pods: Vec<&crate::cluster::PodEntry> = owned.iter().collect();
        let mut called = false;
        let outcome = run(
            &policy(&[remove_duplicates::NAME]),
            &nodes,
            &pods,
            &mut |_, _| {
                called = true;
                Ok(Evicted::Terminating)
            },
        );
        assert!(!called);
        assert!(outcome.stopped.is_some());
        assert_eq!(outcome.not_ready_nodes, ["n2"]);
        let statuses: Vec<StrategyStatus> = outcome.strategies.iter().map(|s| s.status).collect();
        assert_eq!(
            statuses,
            [
                StrategyStatus::Skipped,
                StrategyStatus::Disabled,
                StrategyStatus::Disabled,
                StrategyStatus::Disabled
            ]
        );
    }

    #[test]
    fn strategies_run_in_upstream_order_and_share_the_node_count() {
        let nodes = vec![
            build_node("n1", 4000, 4000, 10),
            build_node("n2", 4000, 4000, 10),
        ];
        let mut bare = build_pod("bare", 100, 0, "n1");
        bare.metadata.namespace = "kube-system".into();
        let owned = entries(vec![
            replica_set_owner(build_pod("a", 100, 0, "n1")),
            replica_set_owner(build_pod("b", 100, 0, "n1")),
            replica_set_owner(build_pod("c", 100, 0, "n1")),
            bare,
        ]);
        let pods: Vec<&crate::cluster::PodEntry> = owned.iter().collect();
        let mut policy = policy(&[pod_anti_affinity::NAME, remove_duplicates::NAME, "Bogus"]);
        policy.strategies.insert(
            String::from(low_node_utilization::NAME),
            DeschedulerStrategy::default(),
        );
        let options = Options {
            max_pods_to_evict_per_node: 1,
        };
        let bound = bound_positions(&nodes, &pods);
        let outcome = run_with(&policy, &nodes, &pods, &bound, options, &mut |_, _| {
            Ok(Evicted::Terminating)
        });
        let names: Vec<&str> = outcome.strategies.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, STRATEGIES);
        assert_eq!(
            outcome.evicted,
            [(1, String::from(remove_duplicates::NAME))]
        );
        assert_eq!(outcome.unknown_strategies, ["Bogus"]);
        assert_eq!(outcome.protected.len(), 1);
        assert_eq!(
            outcome.evictions,
            [Descheduled {
                pod: "default/b".into(),
                node: "n1".into(),
                strategy: remove_duplicates::NAME.into(),
            }]
        );
        let duplicates = outcome
            .strategies
            .first()
            .map(|s| s.pods.clone())
            .unwrap_or_default();
        let verdicts: Vec<Verdict> = duplicates.iter().map(|d| d.verdict).collect();
        assert_eq!(
            verdicts,
            [Verdict::Kept, Verdict::Evicted, Verdict::Limited]
        );
    }

    #[test]
    fn pods_are_walked_in_the_api_order_whatever_the_input_order() {
        // The API lists by `namespace/name` bytes: "team-a/x" before "team/x"
        // ('-' < '/'), and "team/a" before "team/b"; the first of each owner's pods stays.
        let nodes = vec![
            build_node("n1", 4000, 4000, 10),
            build_node("n2", 4000, 4000, 10),
        ];
        let in_namespace = |name: &str, namespace: &str| {
            let mut pod = replica_set_owner(build_pod(name, 100, 0, "n1"));
            pod.metadata.namespace = namespace.into();
            pod
        };
        let owned = entries(vec![
            in_namespace("b", "team"),
            in_namespace("x", "team"),
            in_namespace("a", "team"),
            in_namespace("x", "team-a"),
        ]);
        let outcome = duplicates_removed(&nodes, &owned);
        let evicted: Vec<&str> = outcome.evictions.iter().map(|e| e.pod.as_str()).collect();
        assert_eq!(evicted, ["team/a", "team/b", "team/x"]);
    }

    #[test]
    fn evicted_pods_stay_visible_and_evicting_them_again_succeeds() {
        // RemoveDuplicates evicts `b`; LowNodeUtilization still counts it on n1 and, being
        // BestEffort-free Burstable, picks `a` then `b` again, asking the API again.
        let nodes = vec![
            build_node("n1", 1000, 1000, 4),
            build_node("n2", 1000, 1000, 4),
        ];
        let owned = entries(vec![
            replica_set_owner(build_pod("a", 400, 0, "n1")),
            replica_set_owner(build_pod("b", 400, 0, "n1")),
        ]);
        let pods: Vec<&crate::cluster::PodEntry> = owned.iter().collect();
        let mut policy = policy(&[remove_duplicates::NAME, low_node_utilization::NAME]);
        if let Some(lnu) = policy.strategies.get_mut(low_node_utilization::NAME) {
            let thresholds = &mut lnu.params.node_resource_utilization_thresholds;
            thresholds.thresholds = [(String::from("cpu"), 10.0)].into_iter().collect();
            thresholds.target_thresholds = Some(
                [(String::from("cpu"), 30.0), (String::from("pods"), 100.0)]
                    .into_iter()
                    .collect(),
            );
        }
        let mut asked = Vec::new();
        let outcome = run(&policy, &nodes, &pods, &mut |index, again| {
            asked.push((index, again));
            Ok(Evicted::Terminating)
        });
        assert_eq!(asked, [(1, false), (0, false), (1, true)]);
        let lnu = outcome.strategies.get(1).map(|s| s.evicted);
        assert_eq!(lnu, Some(2));
        assert_eq!(outcome.evictions.len(), 2);
        let again = outcome
            .strategies
            .get(1)
            .and_then(|s| s.pods.iter().find(|d| d.pod == "default/b"))
            .map(|d| d.reason.to_string().contains("already evicted"));
        assert_eq!(again, Some(true));
    }

    #[test]
    fn a_pod_deleted_at_once_is_not_found_the_second_time_which_succeeds() {
        // `x` has two owners, so RemoveDuplicates meets it in both groups; its first
        // eviction deleted it (grace period 0): the second request is not sent to the
        // budgets, the API answers NotFound and the descheduler counts a success.
        let nodes = vec![
            build_node("n1", 4000, 4000, 10),
            build_node("n2", 4000, 4000, 10),
        ];
        let owned_by = |name: &str, owners: &[&str]| {
            let mut pod = build_pod(name, 100, 0, "n1");
            pod.metadata.owner_references = owners
                .iter()
                .map(|owner| crate::model::OwnerReference {
                    api_version: "apps/v1".into(),
                    kind: "ReplicaSet".into(),
                    name: (*owner).into(),
                    ..crate::model::OwnerReference::default()
                })
                .collect();
            pod
        };
        let owned = entries(vec![
            owned_by("a1", &["a"]),
            owned_by("b1", &["b"]),
            owned_by("x", &["a", "b"]),
        ]);
        let pods: Vec<&crate::cluster::PodEntry> = owned.iter().collect();
        let mut asked = Vec::new();
        let outcome = run(
            &policy(&[remove_duplicates::NAME]),
            &nodes,
            &pods,
            &mut |index, again| {
                asked.push((index, again));
                Ok(Evicted::Gone)
            },
        );
        assert_eq!(asked, [(2, false)]);
        let strategy = outcome.strategies.first();
        assert_eq!(strategy.map(|s| s.evicted), Some(2));
        let decisions: Vec<(String, Verdict)> = strategy
            .map(|s| {
                s.pods
                    .iter()
                    .map(|d| (d.pod.to_string(), d.verdict))
                    .collect()
            })
            .unwrap_or_default();
        assert_eq!(
            decisions,
            [
                ("default/a1".into(), Verdict::Kept),
                ("default/x".into(), Verdict::Evicted),
                ("default/b1".into(), Verdict::Kept),
                ("default/x".into(), Verdict::Evicted),
            ]
        );
        assert_eq!(outcome.evictions.len(), 1);
    }

    #[test]
    fn outcome_serialises_in_camel_case() {
        let nodes = vec![
            build_node("n1", 1000, 1000, 4),
            build_node("n2", 1000, 1000, 4),
        ];
        let owned = entries(vec![
            replica_set_owner(build_pod("a", 400, 0, "n1")),
            replica_set_owner(build_pod("b", 400, 0, "n1")),
        ]);
        let outcome = duplicates_removed(&nodes, &owned);
        let json = serde_json::to_value(&outcome).unwrap_or_default();
        assert!(json.get("evicted").is_none());
        assert_eq!(json["readyNodes"], serde_json::json!(["n1", "n2"]));
        assert_eq!(json["evictions"][0]["strategy"], "RemoveDuplicates");
        assert_eq!(json["strategies"][1]["status"], "disabled");
        assert_eq!(json["strategies"][0]["pods"][1]["verdict"], "evicted");
    }
}
