//! The scheduler's view of the cluster while pods are placed: per-node totals that every
//! filter and score reads, updated as each placement binds a pod.
//!
//! Follows `pkg/scheduler/framework/types.go` (`NodeInfo`): allocatable, the requests of
//! the pods on the node, their "non-zero" requests for scoring, and the host ports in use.

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::vec::Vec;

use super::plugins::image_locality::ImageTable;
use super::plugins::node_affinity::RequiredMatches;
use super::resources::{Resources, PODS};
use crate::cluster::{Cluster, PodEntry, PodFacts, PodState};
use crate::model::{ContainerPort, Node, Pod, ResourceList};
use crate::quantity::{Format, Quantity};
use crate::resources;

/// How many changes a cycle follows one by one ([`Snapshot::changes_since`]); past
/// that, preparing it again costs less.
const RECENT: usize = 64;
/// How many node selectors' verdicts the snapshot keeps: pods of one pool share a few, and
/// pods that each pin their own node gain nothing from a longer list to search.
const REQUIRED_MATCHES: usize = 16;

/// One change of the pods on a node: `pod` joined `node`, or left it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// The node (index into [`Snapshot::nodes`]).
    pub node: usize,
    /// The pod (index into the cluster's pods).
    pub pod: usize,
    /// True if the pod joined the node, false if it left.
    pub joined: bool,
}

/// How a profile counts what pods request: the rules changed between Kubernetes 1.11 and
/// the framework scheduler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accounting {
    /// Kubernetes 1.11: a node's usage sums the regular containers of its pods only
    /// (`pkg/scheduler/cache/node_info.go`, `calculateResource`); the incoming pod adds
    /// its init containers (`predicates.go`, `GetResourceRequest`).
    Legacy,
    /// Kubernetes 1.34: both sides use `PodRequests` (sidecars, overhead, pod-level); a
    /// pod on a node counts what its kubelet reports of an in-place resize as well.
    Current,
}

/// Scoring's stand-ins for requests a container leaves out (`pkg/scheduler/util`,
/// `DefaultMilliCPURequest` and `DefaultMemoryRequest`).
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// 200 MiB.
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// What one pod adds to a node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodUsage {
    /// What the pod requests, as the node's `Requested` counts it.
    pub requested: Resources,
    /// Millicores with the scoring default for containers that request no cpu.
    pub non_zero_milli_cpu: i64,
    /// Bytes with the scoring default for containers that request no memory.
    pub non_zero_memory: i64,
}

/// What a pod on a node brings to it, worked out on the pod's first bind and kept: binding
/// it again (a later round, a trial eviction) reads nothing of the pod.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    /// What it counts for.
    pub usage: PodUsage,
    /// The host ports it holds ([`pod_host_ports`]).
    pub host_ports: Vec<HostPort>,
    /// It has pod affinity or anti-affinity terms.
    pub pod_affinity: bool,
    /// Its requests are its regular containers' sums ([`resources::containers_only`]) in
    /// whole millicores of cpu and whole bytes of memory, and no in-place resize changes
    /// them ([`resources::resized`]): every release's rules (1.9's descheduler, 1.11,
    /// 1.34) count it as `usage` says, and sums of those numbers are exact.
    pub plain: bool,
}

impl Accounting {
    /// What a pod already on a node counts for. 1.34 reads the pod's container statuses
    /// here (`types.go`, `CalculateResource`, with `UseStatusResources`): a container
    /// resized in place counts what its kubelet reports as well
    /// ([`resources::requests_with_status`]). For a pod with pod-level requests, 1.34's
    /// node counts the non-zero defaults only for cpu or memory that neither the pod
    /// level nor any container requests (`getNonMissingContainerRequests`), where the
    /// incoming pod's scoring fills them in per container all the same
    /// ([`Accounting::scored`]).
    #[must_use]
    pub fn usage(self, entry: &PodFacts) -> PodUsage {
        let spec = &entry.pod.spec;
        match self {
            Self::Legacy => {
                let mut total = Resources::default();
                for container in &spec.containers {
                    total.add(&Resources::from_list(&container.resources.requests));
                }
                self.with_non_zero(entry, total)
            }
            Self::Current => {
                let (mut usage, requests) = match Self::resized(&entry.pod) {
                    Some((usage, requests)) => (usage, Cow::Owned(requests)),
                    None => (self.request(entry), Cow::Borrowed(&*entry.requests)),
                };
                if resources::pod_level_requests_set(spec) {
                    if let Some(cpu) = requests.get("cpu") {
                        usage.non_zero_milli_cpu = cpu.milli_value();
                    }
                    if let Some(memory) = requests.get("memory") {
                        usage.non_zero_memory = memory.value();
                    }
                }
                usage
            }
        }
    }

    /// What the incoming pod counts for in the scores, where it differs from
    /// [`Accounting::request`]: 1.34 reads the pod's container statuses there
    /// (`resource_allocation.go`, `calculatePodResourceRequest`, with
    /// `UseStatusResources`), where the fit filter does not (`fit.go`,
    /// `computePodResourceRequest`). `None` for nearly every pod: one not yet started
    /// has no status to read.
    #[must_use]
    pub fn scored(self, entry: &PodFacts) -> Option<PodUsage> {
        match self {
            Self::Legacy => None,
            Self::Current => Self::resized(&entry.pod).map(|(usage, _)| usage),
        }
    }

    /// A pod's usage and requests with what its kubelet reports of an in-place resize, if
    /// that changes them.
    fn resized(pod: &Pod) -> Option<(PodUsage, ResourceList)> {
        if !resources::resized(pod) {
            return None;
        }
        let requests = resources::requests_with_status(pod, &[]);
        let non_zero = resources::requests_with_status(pod, &scoring_defaults());
        let usage = PodUsage {
            requested: Resources::from_list(&requests),
            non_zero_milli_cpu: non_zero.get("cpu").map_or(0, Quantity::milli_value),
            non_zero_memory: non_zero.get("memory").map_or(0, Quantity::value),
        };
        Some((usage, requests))
    }

    /// What a pod brings to the node it is bound to.
    #[must_use]
    pub fn footprint(self, entry: &PodFacts) -> Footprint {
        let whole = |name: &str, per_unit: i128| {
            entry
                .requests
                .get(name)
                .is_none_or(|quantity| quantity.as_nanos() % per_unit == 0)
        };
        Footprint {
            usage: self.usage(entry),
            host_ports: pod_host_ports(&entry.pod, self).collect(),
            pod_affinity: super::selection::has_pod_affinity(&entry.pod),
            plain: resources::containers_only(&entry.pod.spec)
                && whole("cpu", 1_000_000)
                && whole("memory", 1_000_000_000)
                && !resources::resized(&entry.pod),
        }
    }

    /// What the incoming pod asks the fit checks for.
    #[must_use]
    pub fn request(self, entry: &PodFacts) -> PodUsage {
        match self {
            Self::Legacy => {
                let spec = &entry.pod.spec;
                let mut requested = Resources::default();
                for container in &spec.containers {
                    requested.add(&Resources::from_list(&container.resources.requests));
                }
                // Each init container raises each resource on its own to its request.
                for init in &spec.init_containers {
                    let step = Resources::from_list(&init.resources.requests);
                    requested.milli_cpu = requested.milli_cpu.max(step.milli_cpu);
                    requested.memory = requested.memory.max(step.memory);
                    requested.ephemeral_storage =
                        requested.ephemeral_storage.max(step.ephemeral_storage);
                    for (name, amount) in step.scalars {
                        if *amount_of(&requested, &name) < amount {
                            set_scalar(&mut requested, name, amount);
                        }
                    }
                }
                self.with_non_zero(entry, requested)
            }
            Self::Current => self.with_non_zero(entry, Resources::from_list(&entry.requests)),
        }
    }

    /// `requested` with the pod's non-zero cpu and memory requests.
    fn with_non_zero(self, entry: &PodFacts, requested: Resources) -> PodUsage {
        let (non_zero_milli_cpu, non_zero_memory) = self.non_zero(&entry.pod, &entry.requests);
        PodUsage {
            requested,
            non_zero_milli_cpu,
            non_zero_memory,
        }
    }

    /// The "non-zero" cpu and memory requests scoring uses: each regular container that
    /// leaves cpu or memory out counts the default instead (an explicit `0` stays 0).
    /// 1.11 sums the regular containers only (`priorities/util/non_zero.go`); 1.34 runs
    /// the whole `PodRequests` with the defaults filled in. `requests` is the pod's
    /// `PodRequests` ([`PodEntry::requests`]).
    fn non_zero(self, pod: &Pod, requests: &ResourceList) -> (i64, i64) {
        match self {
            Self::Legacy => {
                pod.spec
                    .containers
                    .iter()
                    .fold((0i64, 0i64), |(cpu, memory), container| {
                        let requests = &container.resources.requests;
                        (
                            cpu.saturating_add(
                                requests
                                    .get("cpu")
                                    .map_or(DEFAULT_MILLI_CPU_REQUEST, Quantity::milli_value),
                            ),
                            memory.saturating_add(
                                requests
                                    .get("memory")
                                    .map_or(DEFAULT_MEMORY_REQUEST, Quantity::value),
                            ),
                        )
                    })
            }
            // A pod of one regular container only (the most common case): its requests
            // are the pod's, already summed and at hand, where the container's own list
            // lies elsewhere in memory.
            Self::Current
                if pod.spec.containers.len() == 1
                    && pod.spec.init_containers.is_empty()
                    && pod.spec.resources.is_none()
                    && pod.spec.overhead.is_empty() =>
            {
                (
                    requests
                        .get("cpu")
                        .map_or(DEFAULT_MILLI_CPU_REQUEST, Quantity::milli_value),
                    requests
                        .get("memory")
                        .map_or(DEFAULT_MEMORY_REQUEST, Quantity::value),
                )
            }
            // A pod of regular containers only: the same sums, without building its whole
            // request list.
            Self::Current
                if pod.spec.init_containers.is_empty()
                    && pod.spec.resources.is_none()
                    && pod.spec.overhead.is_empty() =>
            {
                let sum = |name: &str, default: Quantity| {
                    pod.spec
                        .containers
                        .iter()
                        .map(|container| {
                            container
                                .resources
                                .requests
                                .get(name)
                                .copied()
                                .unwrap_or(default)
                        })
                        .reduce(resources::saturating_add)
                };
                (
                    sum(
                        "cpu",
                        Quantity::from_milli(DEFAULT_MILLI_CPU_REQUEST, Format::DecimalSi),
                    )
                    .map_or(0, |total| total.milli_value()),
                    sum(
                        "memory",
                        Quantity::from_value(DEFAULT_MEMORY_REQUEST, Format::BinarySi),
                    )
                    .map_or(0, |total| total.value()),
                )
            }
            Self::Current => {
                let requests =
                    resources::pod_requests_with_defaults(&pod.spec, &scoring_defaults());
                (
                    requests.get("cpu").map_or(0, Quantity::milli_value),
                    requests.get("memory").map_or(0, Quantity::value),
                )
            }
        }
    }
}

/// [`DEFAULT_MILLI_CPU_REQUEST`] and [`DEFAULT_MEMORY_REQUEST`] as the
/// `NonMissingContainerRequests` of 1.34's scoring.
fn scoring_defaults() -> [(&'static str, Quantity); 2] {
    [
        (
            "cpu",
            Quantity::from_milli(DEFAULT_MILLI_CPU_REQUEST, Format::DecimalSi),
        ),
        (
            "memory",
            Quantity::from_value(DEFAULT_MEMORY_REQUEST, Format::BinarySi),
        ),
    ]
}

fn amount_of<'r>(resources: &'r Resources, name: &str) -> &'r i64 {
    resources
        .scalars
        .iter()
        .find(|(scalar, _)| scalar == name)
        .map_or(&0, |(_, amount)| amount)
}

fn set_scalar(resources: &mut Resources, name: alloc::string::String, amount: i64) {
    match resources
        .scalars
        .binary_search_by(|(scalar, _)| scalar.as_str().cmp(&name))
    {
        Ok(index) => {
            if let Some(slot) = resources.scalars.get_mut(index) {
                slot.1 = amount;
            }
        }
        Err(index) => resources.scalars.insert(index, (name, amount)),
    }
}

/// A host port a pod uses: `(hostIP, protocol, hostPort)` with upstream's defaults
/// (`0.0.0.0`, `TCP`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostPort {
    /// The host IP, `0.0.0.0` when unset.
    pub ip: alloc::string::String,
    /// `TCP`, `UDP` or `SCTP`.
    pub protocol: alloc::string::String,
    /// The port (> 0).
    pub port: i32,
}

impl HostPort {
    /// The host ports of a container port list, skipping entries without a host port.
    pub fn of(ports: &[ContainerPort]) -> impl Iterator<Item = Self> + '_ {
        ports
            .iter()
            .filter(|port| port.host_port > 0)
            .map(|port| Self {
                ip: if port.host_ip.is_empty() {
                    "0.0.0.0".into()
                } else {
                    port.host_ip.clone()
                },
                protocol: if port.protocol.is_empty() {
                    "TCP".into()
                } else {
                    port.protocol.clone()
                },
                port: port.host_port,
            })
    }

    /// True if this wanted port collides with one in use: the same protocol and port on
    /// the same IP, or on either side the wildcard `0.0.0.0`.
    #[must_use]
    pub fn conflicts_with(&self, used: &Self) -> bool {
        self.protocol == used.protocol
            && self.port == used.port
            && (self.ip == used.ip || self.ip == "0.0.0.0" || used.ip == "0.0.0.0")
    }
}

/// The host ports a pod asks for: its regular containers' and, since 1.34
/// (kubernetes#132040), its sidecars' (restartable init containers).
pub fn pod_host_ports(pod: &Pod, accounting: Accounting) -> impl Iterator<Item = HostPort> + '_ {
    let sidecars = pod.spec.init_containers.iter().filter(move |container| {
        accounting == Accounting::Current && container.restart_policy.as_deref() == Some("Always")
    });
    pod.spec
        .containers
        .iter()
        .chain(sidecars)
        .flat_map(|container| HostPort::of(&container.ports))
}

/// What `entry` (pod index `pod`) brings to a node under `accounting`: its entry's
/// footprint, or for a pod 1.11 may count otherwise (not [`Footprint::plain`]), one worked
/// out once and kept in `own` (trial evictions bind and unbind the same pods many times).
fn footprint<'a>(
    own: &'a mut BTreeMap<usize, Footprint>,
    accounting: Accounting,
    pod: usize,
    entry: &'a PodEntry,
) -> &'a Footprint {
    if accounting == Accounting::Current || entry.footprint.plain {
        return &entry.footprint;
    }
    own.entry(pod)
        .or_insert_with(|| accounting.footprint(entry))
}

/// One node and what is on it.
#[derive(Clone, Debug)]
pub struct NodeInfo<'c> {
    /// The node object.
    pub node: &'c Node,
    /// `status.allocatable` (capacity when absent), without `pods`.
    pub allocatable: Resources,
    /// `allocatable.pods`.
    pub allowed_pods: i64,
    /// The sum of what the pods on the node request.
    pub requested: Resources,
    /// The sum of the pods' non-zero cpu requests (scoring).
    pub non_zero_milli_cpu: i64,
    /// The sum of the pods' non-zero memory requests (scoring).
    pub non_zero_memory: i64,
    /// The pods on the node, as indexes into [`Cluster::pods`].
    pub pods: Vec<usize>,
    /// Host ports in use.
    pub used_ports: Vec<HostPort>,
}

impl<'c> NodeInfo<'c> {
    fn new(node: &'c Node) -> Self {
        let allocatable_list = node
            .status
            .allocatable
            .as_ref()
            .unwrap_or(&node.status.capacity);
        Self {
            node,
            allocatable: Resources::from_list(allocatable_list),
            allowed_pods: allocatable_list.get(PODS).map_or(0, |q| q.value()),
            requested: Resources::default(),
            non_zero_milli_cpu: 0,
            non_zero_memory: 0,
            pods: Vec::new(),
            used_ports: Vec::new(),
        }
    }

    /// The node's name.
    #[must_use]
    pub fn name(&self) -> &'c str {
        &self.node.metadata.name
    }

    fn add(&mut self, index: usize, footprint: &Footprint) {
        let usage = &footprint.usage;
        self.requested.add(&usage.requested);
        self.non_zero_milli_cpu = self
            .non_zero_milli_cpu
            .saturating_add(usage.non_zero_milli_cpu);
        self.non_zero_memory = self.non_zero_memory.saturating_add(usage.non_zero_memory);
        self.pods.push(index);
        self.used_ports.extend_from_slice(&footprint.host_ports);
    }

    fn remove(&mut self, index: usize, footprint: &Footprint) {
        let usage = &footprint.usage;
        self.requested.subtract(&usage.requested);
        self.non_zero_milli_cpu = self
            .non_zero_milli_cpu
            .saturating_sub(usage.non_zero_milli_cpu);
        self.non_zero_memory = self.non_zero_memory.saturating_sub(usage.non_zero_memory);
        // The node's last pod takes the place of the one that leaves (`RemovePod` in
        // `framework/types.go`, 1.11 `schedulercache/node_info.go`): the order of a
        // node's pods is the order preemption lists its potential victims in.
        if let Some(position) = self.pods.iter().position(|&other| other == index) {
            self.pods.swap_remove(position);
        }
        for port in &footprint.host_ports {
            if let Some(position) = self.used_ports.iter().position(|used| used == port) {
                self.used_ports.remove(position);
            }
        }
    }
}

/// Every node with the pods on it, as placement proceeds.
#[derive(Clone, Debug)]
pub struct Snapshot<'c> {
    /// The cluster being scheduled.
    pub cluster: &'c Cluster,
    /// How pods are counted.
    pub accounting: Accounting,
    /// Nodes in input order.
    pub nodes: Vec<NodeInfo<'c>>,
    /// For each pod of the cluster, the node it is on now.
    pub assigned: Vec<Option<usize>>,
    /// Pending pods that carry `status.nominatedNodeName` (usually none).
    pub nominated: Vec<usize>,
    /// [`Snapshot::nominations_cleared`].
    nominations_cleared: usize,
    /// While a preemption dry run has them off their node: the pods it took off that the
    /// state kubefit prepares again misses, with that node. Upstream's dry run takes each
    /// potential victim off through the PreFilter state's (1.11: the metadata's)
    /// `RemovePod`. In 1.34 these are the terminating pods, which PodTopologySpread takes
    /// off though its PreFilter never counted them (`updateWithPod` in
    /// `podtopologyspread/filtering.go`); in 1.11 every victim, whose removal leaves
    /// MatchInterPodAffinity's first-of-group rule closed (`RemovePod` in
    /// `predicates/metadata.go`).
    pub dry_run_removed: Vec<(usize, usize)>,
    /// While a preemption dry run has them off their node: every potential victim not
    /// reprieved yet. 1.34's VolumeRestrictions counts from the cycle's snapshot and
    /// subtracts what its `RemovePod` takes, rather than counting the node again.
    pub dry_run_victims: Vec<usize>,
    /// While the first pass of a filter with nominated pods has them on a node: those pods.
    /// 1.34's VolumeRestrictions adds them through its `AddPod` to what it counted without
    /// them.
    pub nominated_added: Vec<usize>,
    /// The nodes' images as ImageLocality reads them, built on first use: images do not
    /// change while pods are placed.
    image_table: core::cell::OnceCell<Rc<ImageTable>>,
    /// NodeAffinity's verdicts for the node selectors and required terms of the pods
    /// prepared last (at most [`REQUIRED_MATCHES`]).
    required_matches: core::cell::RefCell<Vec<Rc<RequiredMatches>>>,
    /// What a pod brings to a node when this accounting may count it otherwise than its
    /// entry's [`PodEntry::footprint`] (1.11, pods that are not [`Footprint::plain`]), by
    /// pod index: worked out on its first bind.
    own_footprints: BTreeMap<usize, Footprint>,
    /// Volumes and claims the scheduler assumed bound as it placed pods.
    pub volumes: super::volumes::Assumed,
    /// For each node, the value of `clock` when its pods last changed (0: never).
    versions: Vec<u64>,
    /// Counts the changes of pods on nodes.
    clock: u64,
    /// The latest changes, oldest first: change `c` at `c - 1 - logged_after`. Only what
    /// a reader may use is kept (see [`Snapshot::changed`]); preemption's dry runs take
    /// pods off and back on every candidate node.
    log: Vec<Change>,
    /// [`Snapshot::clock`] before the first change in the log.
    logged_after: u64,
    /// How many placed pods have pod affinity or anti-affinity terms.
    placed_with_pod_affinity: usize,
    /// Per node, its place in descending byte order of node names.
    name_ranks: Vec<usize>,
    /// The nodes in descending byte order of their names.
    name_order: Vec<usize>,
    /// [`Snapshot::tree_order`], made on first use.
    tree_order: core::cell::OnceCell<Vec<usize>>,
}

impl<'c> Snapshot<'c> {
    /// The cluster as it is before placement: bound pods on their nodes.
    #[must_use]
    pub fn new(cluster: &'c Cluster, accounting: Accounting) -> Self {
        let (name_order, name_ranks) = name_order(&cluster.nodes);
        let mut snapshot = Self {
            cluster,
            accounting,
            nodes: cluster.nodes.iter().map(NodeInfo::new).collect(),
            assigned: alloc::vec![None; cluster.pods.len()],
            nominated: cluster
                .pods
                .iter()
                .enumerate()
                .filter(|(_, entry)| {
                    entry.state == PodState::Pending
                        && !entry.pod.status.nominated_node_name.is_empty()
                })
                .map(|(pod, _)| pod)
                .collect(),
            nominations_cleared: 0,
            dry_run_removed: Vec::new(),
            dry_run_victims: Vec::new(),
            nominated_added: Vec::new(),
            own_footprints: BTreeMap::new(),
            volumes: super::volumes::Assumed::default(),
            image_table: core::cell::OnceCell::new(),
            required_matches: core::cell::RefCell::new(Vec::new()),
            versions: alloc::vec![0; cluster.nodes.len()],
            clock: 0,
            log: Vec::new(),
            logged_after: 0,
            placed_with_pod_affinity: 0,
            name_ranks,
            name_order,
            tree_order: core::cell::OnceCell::new(),
        };
        for (pod, node) in cluster.pod_nodes().iter().enumerate() {
            if let Some(node) = *node {
                snapshot.bind(pod, node);
            }
        }
        // The binds of the pods bound from the start are no changes to report.
        snapshot.log.clear();
        snapshot.logged_after = snapshot.clock;
        snapshot
    }

    /// The nodes in descending byte order of their names (1.11's tie order).
    #[must_use]
    pub fn name_order(&self) -> &[usize] {
        &self.name_order
    }

    /// The nodes in the order the 1.34 scheduler's snapshot lists them, which its sampled
    /// scan walks (`nodeTree.list` in `pkg/scheduler/backend/cache/node_tree.go`): one node
    /// of each zone in turn, the zones (`GetZoneKey`) in the order their first node
    /// arrived. A scheduler starting on the cluster receives the nodes as the API lists
    /// them, by name.
    #[must_use]
    pub fn tree_order(&self) -> &[usize] {
        self.tree_order.get_or_init(|| {
            let mut zones: Vec<(alloc::string::String, Vec<usize>)> = Vec::new();
            for &node in self.name_order.iter().rev() {
                let Some(info) = self.cluster.nodes.get(node) else {
                    continue;
                };
                let key = crate::labels::zone_key(info, super::Version::Current);
                match zones.iter_mut().find(|(zone, _)| *zone == key) {
                    Some((_, nodes)) => nodes.push(node),
                    None => zones.push((key, alloc::vec![node])),
                }
            }
            let rounds = zones.iter().map(|(_, nodes)| nodes.len()).max();
            (0..rounds.unwrap_or(0))
                .flat_map(|round| zones.iter().filter_map(move |(_, nodes)| nodes.get(round)))
                .copied()
                .collect()
        })
    }

    /// The nodes' images, shared by every pod's cycle.
    #[must_use]
    pub fn image_table(&self) -> Rc<ImageTable> {
        Rc::clone(
            self.image_table
                .get_or_init(|| Rc::new(ImageTable::new(&self.cluster.nodes))),
        )
    }

    /// Takes the nodes' image table from a caller that keeps one for these nodes.
    pub(crate) fn share_image_table(&mut self, table: Rc<ImageTable>) {
        self.image_table = core::cell::OnceCell::from(table);
    }

    /// NodeAffinity's filter verdicts for `pod`'s node selector and required terms, shared
    /// with the pods that have the same; `None` when it has neither (every node passes).
    #[must_use]
    pub fn required_matches(&self, pod: &Pod) -> Option<Rc<RequiredMatches>> {
        if pod.spec.node_selector.is_empty() && pod.spec.required_node_affinity().is_none() {
            return None;
        }
        let made = || Rc::new(RequiredMatches::new(pod, self.nodes.len()));
        let Ok(mut kept) = self.required_matches.try_borrow_mut() else {
            return Some(made());
        };
        if let Some(found) = kept.iter().find(|matches| matches.is_for(pod)) {
            return Some(Rc::clone(found));
        }
        let matches = made();
        if kept.len() >= REQUIRED_MATCHES {
            kept.remove(0);
        }
        kept.push(Rc::clone(&matches));
        Some(matches)
    }

    /// The pod entry at an index of [`Cluster::pods`].
    #[must_use]
    pub fn pod(&self, index: usize) -> Option<&'c PodEntry> {
        self.cluster.pods.get(index)
    }

    /// The node a pending pod is nominated to (`status.nominatedNodeName`), while the
    /// nomination stands: preemption clears some ([`Snapshot::clear_nomination`]).
    pub fn nomination(&self, pod: usize) -> Option<&'c str> {
        if !self.nominated.contains(&pod) {
            return None;
        }
        self.pod(pod)
            .map(|entry| entry.pod.status.nominated_node_name.as_str())
    }

    /// Clears a pod's nomination, as the scheduler's `ClearNominatedNodeName` does.
    pub fn clear_nomination(&mut self, pod: usize) {
        let before = self.nominated.len();
        self.nominated.retain(|&other| other != pod);
        if self.nominated.len() < before {
            self.nominations_cleared = self.nominations_cleared.saturating_add(1);
        }
    }

    /// How many nominations preemption has cleared: each frees the room its pod held.
    #[must_use]
    pub fn nominations_cleared(&self) -> usize {
        self.nominations_cleared
    }

    /// Puts a pod on a node.
    pub fn bind(&mut self, pod: usize, node: usize) {
        let Some(entry) = self.cluster.pods.get(pod) else {
            return;
        };
        self.unbind(pod);
        let footprint = footprint(&mut self.own_footprints, self.accounting, pod, entry);
        if let (Some(info), Some(assigned)) = (self.nodes.get_mut(node), self.assigned.get_mut(pod))
        {
            info.add(pod, footprint);
            *assigned = Some(node);
            let pod_affinity = footprint.pod_affinity;
            self.changed(node, pod, pod_affinity, true);
        }
    }

    /// The pods on a node in their order (see [`Snapshot::restore_order`]).
    #[must_use]
    pub fn pod_order(&self, node: usize) -> Vec<usize> {
        self.nodes
            .get(node)
            .map(|info| info.pods.clone())
            .unwrap_or_default()
    }

    /// Puts a node's pods back in the order [`Snapshot::pod_order`] gave before a dry run
    /// took some off and put them back: upstream dry-runs on a copy of the node.
    pub fn restore_order(&mut self, node: usize, order: Vec<usize>) {
        if let Some(info) = self.nodes.get_mut(node) {
            if info.pods.len() == order.len() {
                info.pods = order;
            }
        }
    }

    /// Takes a pod off its node (preemption victims, evictions).
    pub fn unbind(&mut self, pod: usize) {
        let node = self.assigned.get_mut(pod).and_then(Option::take);
        if let (Some(node), Some(entry)) = (node, self.cluster.pods.get(pod)) {
            let footprint = footprint(&mut self.own_footprints, self.accounting, pod, entry);
            if let Some(info) = self.nodes.get_mut(node) {
                info.remove(pod, footprint);
                let pod_affinity = footprint.pod_affinity;
                self.changed(node, pod, pod_affinity, false);
            }
        }
    }

    /// Records that pod `index` (with pod affinity terms or not) joined or left `node`.
    fn changed(&mut self, node: usize, index: usize, pod_affinity: bool, joined: bool) {
        self.clock = self.clock.wrapping_add(1);
        if let Some(version) = self.versions.get_mut(node) {
            *version = self.clock;
        }
        self.log.push(Change {
            node,
            pod: index,
            joined,
        });
        // Readers use at most the latest `kept` changes (`changes_since` follows up to
        // RECENT, `nodes_changed_since` reads up to a quarter of the nodes): the older
        // ones go once the log holds twice that.
        let kept = (self.versions.len() / 4).max(RECENT);
        if self.log.len() > kept.saturating_mul(2) {
            let old = self.log.len().saturating_sub(kept);
            self.log.copy_within(old.., 0);
            self.log.truncate(kept);
            self.logged_after = self
                .logged_after
                .saturating_add(u64::try_from(old).unwrap_or(u64::MAX));
        }
        if pod_affinity {
            self.placed_with_pod_affinity = if joined {
                self.placed_with_pod_affinity.saturating_add(1)
            } else {
                self.placed_with_pod_affinity.saturating_sub(1)
            };
        }
    }

    /// How many times pods on nodes changed so far.
    #[must_use]
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// The changes since [`Snapshot::clock`] read `since`, oldest first, or `None` when
    /// that is more changes than a cycle follows one by one (or more than the log
    /// keeps): then compare every [`Snapshot::node_version`].
    #[must_use]
    pub fn changes_since(&self, since: u64) -> Option<impl Iterator<Item = Change> + '_> {
        let count = self.clock.checked_sub(since)?;
        let log = self.log_since(since).filter(|_| count <= RECENT as u64)?;
        Some(log.iter().copied())
    }

    /// The changes after [`Snapshot::clock`] read `since`; `None` when the log no longer
    /// reaches back that far.
    fn log_since(&self, since: u64) -> Option<&[Change]> {
        let first = usize::try_from(since.checked_sub(self.logged_after)?).ok()?;
        self.log.get(first..)
    }

    /// A number that changes whenever the pods on `node` change: what a node's filter
    /// verdicts and scores were computed against.
    #[must_use]
    pub fn node_version(&self, node: usize) -> u64 {
        self.versions.get(node).copied().unwrap_or(u64::MAX)
    }

    /// Sets `nodes` to the nodes whose pods changed after [`Snapshot::clock`] read
    /// `since`, each once: from the log when it is short against the nodes (a class comes
    /// back every few hundred changes), in the order of their last changes, else from
    /// every node's version, in node order.
    pub fn nodes_changed_since(&self, since: u64, nodes: &mut Vec<usize>) {
        nodes.clear();
        match self.log_since(since) {
            Some(log) if log.len() <= self.versions.len() / 4 => {
                // A node's version is the clock of its last change.
                let last = log
                    .iter()
                    .zip(since.saturating_add(1)..)
                    .filter(|(change, at)| self.node_version(change.node) == *at);
                nodes.extend(last.map(|(change, _)| change.node));
            }
            _ => nodes.extend(
                self.versions
                    .iter()
                    .enumerate()
                    .filter(|(_, version)| **version > since)
                    .map(|(node, _)| node),
            ),
        }
    }

    /// The node's place in descending byte order of node names (1.11's tie order).
    #[must_use]
    pub fn name_rank(&self, node: usize) -> usize {
        self.name_ranks.get(node).copied().unwrap_or(usize::MAX)
    }

    /// True if any placed pod has pod affinity or anti-affinity terms (then inter-pod
    /// affinity scores depend on where those pods are).
    #[must_use]
    pub fn has_placed_pod_affinity(&self) -> bool {
        self.placed_with_pod_affinity > 0
    }

    /// The pods on a node, with their entries.
    pub fn pods_on(&self, node: usize) -> impl Iterator<Item = (usize, &'c PodEntry)> + '_ {
        self.nodes
            .get(node)
            .into_iter()
            .flat_map(|info| info.pods.iter())
            .filter_map(|&pod| self.cluster.pods.get(pod).map(|entry| (pod, entry)))
    }
}

/// The nodes in descending byte order of node names, and each node's place in it.
fn name_order(nodes: &[Node]) -> (Vec<usize>, Vec<usize>) {
    let mut order: Vec<usize> = (0..nodes.len()).collect();
    order.sort_by(|&a, &b| {
        let name = |index: usize| nodes.get(index).map(|node| node.metadata.name.as_bytes());
        name(b).cmp(&name(a))
    });
    let mut ranks = alloc::vec![0; nodes.len()];
    for (rank, &node) in order.iter().enumerate() {
        if let Some(slot) = ranks.get_mut(node) {
            *slot = rank;
        }
    }
    (order, ranks)
}

#[cfg(test)]
mod tests {
    use super::{Accounting, Snapshot, REQUIRED_MATCHES};
    use crate::model::Pod;
    use crate::schedule::predicates::testing::{cluster, node, pod};
    use alloc::rc::Rc;
    use alloc::string::String;

    fn pinned(pool: &str) -> Pod {
        let mut pinned = pod("p", &[]);
        pinned
            .spec
            .node_selector
            .insert(String::from("node-pool"), String::from(pool));
        pinned
    }

    /// A snapshot counts each pod by its entry's footprint, which is the 1.34 count; the
    /// 1.11 snapshot counts a pod with an init container by its regular containers alone
    /// (`calculateResource` in 1.11's `node_info.go`), and takes it off again the same way.
    #[test]
    fn pods_count_by_their_entrys_footprint_or_the_1_11_rule() {
        use crate::schedule::predicates::testing::on;
        let mut with_init = on(pod("d", &[(Some("100m"), None)]), "n2");
        with_init.spec.init_containers = pod("init", &[(Some("2"), None)]).spec.containers;
        let pods = alloc::vec![
            on(pod("a", &[(Some("500m"), Some("1000"))]), "n1"),
            on(pod("b", &[(None, None)]), "n1"),
            on(pod("c", &[(Some("250m"), None)]), "n2"),
            with_init,
        ];
        let cluster = cluster(
            alloc::vec![node("n1", 4000, 1 << 30), node("n2", 4000, 1 << 30)],
            pods,
        );
        for entry in &cluster.pods {
            assert_eq!(entry.footprint, Accounting::Current.footprint(entry));
        }
        let plain: alloc::vec::Vec<bool> = cluster.pods.iter().map(|e| e.footprint.plain).collect();
        assert_eq!(
            plain,
            [true, true, true, false],
            "an init container is not plain"
        );
        let cpu = |snapshot: &Snapshot<'_>, node: usize| {
            let info = &snapshot.nodes[node];
            (info.requested.milli_cpu, info.non_zero_milli_cpu)
        };
        let current = Snapshot::new(&cluster, Accounting::Current);
        assert_eq!(
            cpu(&current, 0),
            (500, 500 + super::DEFAULT_MILLI_CPU_REQUEST)
        );
        assert_eq!(cpu(&current, 1), (250 + 2000, 250 + 2000));
        let mut legacy = Snapshot::new(&cluster, Accounting::Legacy);
        assert_eq!(
            cpu(&legacy, 0),
            (500, 500 + super::DEFAULT_MILLI_CPU_REQUEST)
        );
        assert_eq!(cpu(&legacy, 1), (250 + 100, 250 + 100));
        legacy.unbind(3);
        assert_eq!(cpu(&legacy, 1), (250, 250));
        legacy.bind(3, 1);
        assert_eq!(cpu(&legacy, 1), (250 + 100, 250 + 100));
    }

    /// The nodes changed since a clock reading are the same whether they come from the log
    /// of changes (few changes, in the order of their last changes) or from every node's
    /// version (many), each once; the binds of the pods bound from the start are not
    /// changes to report.
    /// A pod leaving a node leaves the node's last pod in its place, as upstream's
    /// `RemovePod`; a dry run's order comes back whole.
    #[test]
    fn a_leaving_pod_makes_room_for_the_last_one() {
        let nodes = alloc::vec![node("n1", 4000, 1 << 30)];
        let pods = (0..4)
            .map(|index| pod(&alloc::format!("p{index}"), &[]))
            .collect();
        let cluster = cluster(nodes, pods);
        let mut snapshot = Snapshot::new(&cluster, Accounting::Current);
        for pod in 0..4 {
            snapshot.bind(pod, 0);
        }
        snapshot.unbind(1);
        assert_eq!(snapshot.pod_order(0), [0, 3, 2]);
        let order = snapshot.pod_order(0);
        snapshot.unbind(0);
        snapshot.bind(0, 0);
        assert_eq!(snapshot.pod_order(0), [2, 3, 0]);
        snapshot.restore_order(0, order);
        assert_eq!(snapshot.pod_order(0), [0, 3, 2]);
    }

    #[test]
    fn nodes_changed_since_a_reading_come_once() {
        use crate::schedule::predicates::testing::on;
        let nodes = (0..20)
            .map(|index| node(&alloc::format!("n{index:02}"), 4000, 1 << 30))
            .collect();
        let mut pods = alloc::vec![on(pod("bound", &[]), "n03")];
        pods.extend((0..12).map(|index| pod(&alloc::format!("p{index}"), &[])));
        let cluster = cluster(nodes, pods);
        let mut snapshot = Snapshot::new(&cluster, Accounting::Current);
        let start = snapshot.clock();
        let mut found = alloc::vec::Vec::new();
        snapshot.nodes_changed_since(start, &mut found);
        assert!(found.is_empty());
        // The nodes found, in node order, against those whose version is newer.
        let agree = |snapshot: &Snapshot<'_>, since: u64| {
            let mut found = alloc::vec::Vec::new();
            snapshot.nodes_changed_since(since, &mut found);
            found.sort_unstable();
            let newer: alloc::vec::Vec<usize> = (0..20)
                .filter(|&node| snapshot.node_version(node) > since)
                .collect();
            assert_eq!(found, newer, "since {since}");
        };
        for (pod, node) in [
            (1, 7),
            (2, 3),
            (3, 7),
            (4, 0),
            (5, 19),
            (6, 3),
            (7, 11),
            (8, 2),
        ] {
            snapshot.bind(pod, node);
        }
        snapshot.unbind(2);
        snapshot.unbind(0);
        for since in start..=snapshot.clock() {
            agree(&snapshot, since);
        }
        snapshot.nodes_changed_since(snapshot.clock() - 4, &mut found);
        assert_eq!(
            found,
            [11, 2, 3],
            "pods 7 and 8 bound, pods 2 and 0 off n03"
        );
        assert_eq!(
            snapshot
                .changes_since(snapshot.clock() - 2)
                .map(Iterator::count),
            Some(2)
        );
        // Preemption's dry runs make many changes: the log keeps the latest, and older
        // readings are answered from the versions.
        let before = snapshot.clock();
        for round in 0..500 {
            snapshot.unbind(1);
            snapshot.bind(1, round % 20);
        }
        assert!(
            snapshot.log.len() <= 2 * 64,
            "{} changes kept",
            snapshot.log.len()
        );
        assert!(snapshot.changes_since(before).is_none());
        assert_eq!(
            snapshot
                .changes_since(snapshot.clock() - 64)
                .map(Iterator::count),
            Some(64)
        );
        for since in [before, snapshot.clock() - 64, snapshot.clock() - 3] {
            agree(&snapshot, since);
        }
    }

    /// Pods with the same node selector share NodeAffinity's verdicts; a pod without one
    /// needs none, and the snapshot keeps the latest selectors only.
    #[test]
    fn pods_with_one_selector_share_its_verdicts() {
        let cluster = cluster(alloc::vec![node("n1", 1000, 1000)], alloc::vec![]);
        let snapshot = Snapshot::new(&cluster, Accounting::Legacy);
        assert!(snapshot.required_matches(&pod("free", &[])).is_none());
        let infra = snapshot.required_matches(&pinned("infra")).unwrap();
        let again = snapshot.required_matches(&pinned("infra")).unwrap();
        assert!(Rc::ptr_eq(&infra, &again));
        let other = snapshot.required_matches(&pinned("gpu")).unwrap();
        assert!(!Rc::ptr_eq(&infra, &other));
        for pool in 0..REQUIRED_MATCHES {
            let _ = snapshot.required_matches(&pinned(&alloc::format!("pool-{pool}")));
        }
        let renewed = snapshot.required_matches(&pinned("infra")).unwrap();
        assert!(!Rc::ptr_eq(&infra, &renewed));
    }

    /// A pod resized in place counts on its node what its kubelet reports in 1.34 (and in
    /// the scores when it is the incoming pod), its spec in 1.11 and in the fit filter;
    /// it is not plain, so that 1.11 and the descheduler count it themselves.
    #[test]
    fn a_pod_resized_in_place_counts_its_status_in_1_34() {
        use crate::model::{ContainerStatus, ContainerStatuses, StatusResources};
        use crate::schedule::predicates::testing::{list, on};
        let mut resized = on(pod("r", &[(Some("100m"), None)]), "n1");
        resized.status.container_statuses = ContainerStatuses::from(alloc::vec![ContainerStatus {
            // The testing containers are unnamed.
            name: String::new(),
            resources: Some(StatusResources {
                requests: list(&[("cpu", "900m")]),
            }),
            allocated_resources: list(&[("cpu", "900m")]),
        }]);
        let cluster = cluster(alloc::vec![node("n1", 1000, 1 << 30)], alloc::vec![resized]);
        let entry = &cluster.pods[0];
        assert!(!entry.footprint.plain);
        assert_eq!(entry.footprint, Accounting::Current.footprint(entry));
        let usage = &entry.footprint.usage;
        assert_eq!(
            (usage.requested.milli_cpu, usage.non_zero_milli_cpu),
            (900, 900)
        );
        assert_eq!(usage.non_zero_memory, super::DEFAULT_MEMORY_REQUEST);
        assert_eq!(Accounting::Current.request(entry).requested.milli_cpu, 100);
        assert_eq!(
            Accounting::Current.scored(entry),
            Some(entry.footprint.usage.clone())
        );
        assert_eq!(Accounting::Legacy.scored(entry), None);
        let current = Snapshot::new(&cluster, Accounting::Current);
        assert_eq!(current.nodes[0].requested.milli_cpu, 900);
        let legacy = Snapshot::new(&cluster, Accounting::Legacy);
        assert_eq!(legacy.nodes[0].requested.milli_cpu, 100);
    }

    /// The shortcut for pods of regular containers only sums what the full
    /// `PodRequests` with defaults does, fractional millicores included (summed before
    /// rounding, as upstream adds quantities).
    #[test]
    fn non_zero_requests_of_plain_pods_match_the_full_computation() {
        use crate::resources;
        let defaults = super::scoring_defaults();
        let pods = [
            pod("none", &[]),
            pod("defaults", &[(None, None), (None, None)]),
            pod("zeros", &[(Some("0"), Some("0"))]),
            pod(
                "fractions",
                &[(Some("100500u"), Some("1Gi")), (Some("0.1005"), None)],
            ),
            pod("one", &[(Some("250m"), None)]),
            pod("one-memory", &[(None, Some("1Gi"))]),
            pod("one-fraction", &[(Some("100500u"), Some("1.5"))]),
        ];
        for pod in &pods {
            let full = resources::pod_requests_with_defaults(&pod.spec, &defaults);
            let expected = (
                full.get("cpu").map_or(0, |cpu| cpu.milli_value()),
                full.get("memory").map_or(0, |memory| memory.value()),
            );
            assert_eq!(
                Accounting::Current.non_zero(pod, &resources::pod_requests(&pod.spec)),
                expected,
                "{}",
                pod.metadata.name
            );
        }
        // 100.5m twice is 201m; rounding each container up first would give 202m.
        let fractions = &pods[3];
        assert_eq!(
            Accounting::Current.non_zero(fractions, &resources::pod_requests(&fractions.spec)),
            (201, 1_073_741_824 + 209_715_200)
        );
    }

    /// Zones take turns, in the order of their first node by name; within a zone, nodes
    /// go by name.
    #[test]
    fn the_tree_order_takes_one_node_of_each_zone_in_turn() {
        let zoned = |name: &str, zone: Option<&str>| {
            let mut zoned = node(name, 1000, 1 << 30);
            if let Some(zone) = zone {
                let labels = &mut zoned.metadata.labels;
                labels.insert("topology.kubernetes.io/zone".into(), zone.into());
            }
            zoned
        };
        let nodes = alloc::vec![
            zoned("b-2", Some("y")),
            zoned("a-1", Some("x")),
            zoned("c", None),
            zoned("a-2", Some("x")),
            zoned("b-1", Some("y")),
            zoned("a-3", Some("x")),
        ];
        let cluster = cluster(nodes, alloc::vec![]);
        let snapshot = Snapshot::new(&cluster, Accounting::Current);
        let names: alloc::vec::Vec<&str> = (snapshot.tree_order().iter())
            .map(|&node| cluster.nodes[node].metadata.name.as_str())
            .collect();
        assert_eq!(names, ["a-1", "b-1", "c", "a-2", "b-2", "a-3"]);
    }
}
