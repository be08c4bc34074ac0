//! The validated cluster model that the engines evaluate.
//!
//! Built from the objects the input layer read: duplicates are rejected, API-server
//! defaulting and Priority admission are applied, and pod owners contribute the pods
//! they are missing.

mod deletion;
mod node_index;
mod pods_by_node;
pub mod storage;

use deletion::Sharing;
pub use deletion::{Controller, Deletion, OwnerKey};
pub use node_index::NodeIndex;
pub use pods_by_node::PodsByNode;

use alloc::borrow::Cow;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::admission::{Chain, Decision};
use crate::defaults;
use crate::diagnostic::Diagnostic;
use crate::input::{self, Loaded, Object, Resource, Source, Span};
use crate::model::{
    DeschedulerPolicy, KubeSchedulerConfiguration, Machine, MachineSet, MasterConfig, Namespace,
    Node, Pod, PodDisruptionBudget, Policy, PriorityClass, ResourceList, Scenario, Service,
    Workload, WorkloadKind,
};
use crate::owners;
use crate::resources::{self, QosClass};
use crate::schedule::snapshot::{Accounting, Footprint};
use crate::schedule::{self, Version};

/// The annotation that turns a bound pod into a pending what-if ("would it fit there").
pub const PENDING_ANNOTATION: &str = "kubefit.io/pending";

/// Where a pod stands before any engine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "lowercase")]
pub enum PodState {
    /// Assigned to a node (`spec.nodeName`).
    Bound,
    /// Waiting for the scheduler.
    Pending,
    /// Refused by admission; it never reaches the scheduler.
    Rejected,
    /// Succeeded or Failed: it holds no resources and is ignored by placement.
    Terminated,
}

/// A pod with what kubefit derived for it: its state, what deleting it reads, and a
/// handle on the rest ([`PodFacts`]).
///
/// The timeline places replacements on views of the cluster that list each of its
/// 150 000 pods again, in a state of their own; copying an entry copies the handle, and
/// the facts are shared until a copy changes them ([`Arc::make_mut`] on `&mut` access).
/// Reads go through to the facts (`entry.pod`, `entry.key`, ...). The deletion facts
/// stay in the entry: the taint eviction controller reads them for tens of thousands of
/// pods scattered over the list, at one place each rather than two.
#[derive(Clone, Debug, PartialEq)]
pub struct PodEntry {
    facts: Arc<PodFacts>,
    /// Bound, pending, rejected or terminated.
    pub state: PodState,
    /// What deleting the pod reads of it.
    pub deletion: Deletion,
}

/// What kubefit knows of a pod whatever its state: the pod and what is derived from it.
#[derive(Clone, Debug, PartialEq)]
pub struct PodFacts {
    /// The pod, defaulted and admitted; shared with the pods the timeline derives from it
    /// until they change it.
    pub pod: Arc<Pod>,
    /// `namespace/name`, worded once: the report's entries that name the pod share it.
    pub key: Arc<str>,
    /// `spec.priority` after admission (0 for rejected pods).
    pub priority: i32,
    /// The QoS class.
    pub qos: QosClass,
    /// Effective requests (`PodRequests`), shared with the readings that keep them
    /// (the descheduler's).
    pub requests: Arc<ResourceList>,
    /// What the pod brings to a node as the 1.34 scheduler counts it, worked out here
    /// while the pod is at hand: a scheduler snapshot of 150 000 bound pods otherwise
    /// reads each one's scattered containers, ports and request list again. (1.11 may
    /// count differently pods that are not [`Footprint::plain`]; the snapshot works those
    /// out itself.)
    pub footprint: Footprint,
    /// Why admission rejected the pod.
    pub rejection: Option<String>,
    /// The owner that would create this pod, for pods kubefit generated.
    pub generated_from: Option<String>,
    /// Where the pod is in the input (`None` for generated pods).
    pub spans: Option<PodSpans>,
}

impl core::ops::Deref for PodEntry {
    type Target = PodFacts;

    fn deref(&self) -> &PodFacts {
        &self.facts
    }
}

impl core::ops::DerefMut for PodEntry {
    /// The facts of this entry alone: copied first if other entries share them.
    fn deref_mut(&mut self) -> &mut PodFacts {
        Arc::make_mut(&mut self.facts)
    }
}

impl PodEntry {
    /// The entry for a pod as it stands, with what is derived from it (with its own
    /// toleration list: [`Cluster::build`] shares them).
    #[must_use]
    pub fn new(pod: Pod, state: PodState, priority: i32) -> Self {
        Self::derived(pod, state, priority, &mut Sharing::default())
    }

    fn derived(pod: Pod, state: PodState, priority: i32, sharing: &mut Sharing) -> Self {
        let deletion = sharing.deletion(&pod);
        Self::of(PodFacts::derived(pod, priority, sharing), state, deletion)
    }

    fn of(facts: PodFacts, state: PodState, deletion: Deletion) -> Self {
        Self {
            facts: Arc::new(facts),
            state,
            deletion,
        }
    }
}

impl PodFacts {
    fn derived(pod: Pod, priority: i32, sharing: &mut Sharing) -> Self {
        let mut facts = Self {
            key: sharing.key(&pod),
            priority,
            qos: resources::qos_class(&pod.spec),
            requests: Arc::new(resources::pod_requests(&pod.spec)),
            footprint: Footprint::default(),
            rejection: None,
            generated_from: None,
            spans: None,
            pod: Arc::new(pod),
        };
        facts.footprint = Accounting::Current.footprint(&facts);
        facts
    }
}

/// Where a pod and the fields later stages report on are in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PodSpans {
    /// The whole object.
    pub object: Span,
    /// `spec.priorityClassName` (the object when absent).
    pub priority_class: Span,
    /// `spec.nodeName` (the object when absent).
    pub node_name: Span,
    /// `spec.nodeSelector` (the object when absent).
    pub node_selector: Span,
}

impl PodSpans {
    /// The span of one of the fields kept here, by path; the object for any other path.
    #[must_use]
    pub fn of(&self, path: &str) -> Span {
        match path {
            "spec.priorityClassName" => self.priority_class,
            "spec.nodeName" => self.node_name,
            "spec.nodeSelector" => self.node_selector,
            _ => self.object,
        }
    }
}

/// Everything kubefit knows about the cluster.
#[derive(Clone, Debug, Default)]
pub struct Cluster {
    /// Nodes, in input order.
    pub nodes: Vec<Node>,
    /// Pods: input pods in input order, then generated pods. Code that binds, adds or
    /// removes pods or nodes after [`Cluster::build`] calls [`Cluster::locate_pods`].
    pub pods: Vec<PodEntry>,
    /// Priority classes.
    pub priority_classes: Vec<PriorityClass>,
    /// Pod disruption budgets.
    pub disruption_budgets: Vec<PodDisruptionBudget>,
    /// Namespaces.
    pub namespaces: Vec<Namespace>,
    /// Services.
    pub services: Vec<Service>,
    /// Pod owners.
    pub workloads: Vec<(WorkloadKind, Workload)>,
    /// PersistentVolumes, claims, StorageClasses and CSI objects.
    pub storage: storage::Storage,
    /// The scheduler Policy (the first one in the input).
    pub policy: Option<Policy>,
    /// The scheduler configuration file (the first one in the input).
    pub scheduler_configuration: Option<KubeSchedulerConfiguration>,
    /// OpenShift's master configuration (the first one in the input).
    pub master_config: Option<MasterConfig>,
    /// The release whose admission and scheduling kubefit reproduces.
    pub version: Version,
    /// OpenShift Machine API machines.
    pub machines: Vec<Machine>,
    /// OpenShift Machine API machine sets.
    pub machine_sets: Vec<MachineSet>,
    /// The descheduler's policy (the first one in the input).
    pub descheduler_policy: Option<DeschedulerPolicy>,
    /// The what-if steps (the first Scenario in the input), with where each step is.
    pub scenario: Option<(Scenario, Vec<Span>)>,
    /// Every diagnostic, located.
    pub diagnostics: Vec<Diagnostic>,
    /// Objects read per kind (valid ones only).
    pub counts: BTreeMap<String, usize>,
    /// Kinds that are not modelled, with counts.
    pub ignored: Vec<(String, usize)>,
    /// For each pod, where [`Cluster::pod_nodes`] finds its node: made once by
    /// [`Cluster::build`] (every engine asks, and 150 000 name lookups cost more than the
    /// engines' own work on a small change).
    pub(crate) bound_nodes: Vec<Option<usize>>,
    /// The slots of [`Cluster::node_index`], made with `bound_nodes`, and for how many
    /// nodes.
    pub(crate) node_slots: (usize, Vec<u32>),
    /// The pods of each node, made with `bound_nodes`.
    pub(crate) pods_by_node: PodsByNode,
    /// The finished pods still assigned to each node, made with `bound_nodes`.
    pub(crate) finished_by_node: PodsByNode,
    /// The nodes the timeline's start has work on, in order, each with whether the node
    /// lifecycle controller's NoSchedule pass leaves it as it is
    /// (`eviction::start_work`); `None` for a cluster put together otherwise, whose every
    /// node is looked at.
    pub(crate) start_nodes: Option<Vec<(usize, bool)>>,
    /// Per workload, the pods it wants and has once the missing ones are made
    /// (`owners::Replicas`; `None` for the kinds that keep no count): where the
    /// timeline's ReplicaSets, ReplicationControllers and Jobs start from.
    pub(crate) replicas: Vec<Option<owners::Replicas>>,
}

impl Cluster {
    /// Builds the cluster from what the input layer read, under the release `profile`
    /// forces or else the input selects ([`schedule::version`]).
    #[must_use]
    pub fn build(loaded: Loaded, sources: &[Source<'_>], profile: Option<Version>) -> Self {
        let Loaded {
            objects,
            mut diagnostics,
            ignored,
        } = loaded;
        let objects = reject_duplicates(objects, sources, &mut diagnostics);
        let mut cluster = Self {
            ignored,
            version: schedule::version(objects.iter().map(|object| &object.resource), profile),
            ..Self::default()
        };
        let mut pods = Vec::new();
        let mut claim_spans = Vec::new();
        for mut object in objects {
            // The rules of one release alone count under that release.
            let mut refused = false;
            for (release, diagnostic) in core::mem::take(&mut object.release_rules) {
                if release == cluster.version {
                    refused |= diagnostic.is_error();
                    diagnostics.push(diagnostic);
                }
            }
            if refused {
                continue;
            }
            let spans = PodSpans {
                object: object.span,
                priority_class: object.span_of("spec.priorityClassName"),
                node_name: object.span_of("spec.nodeName"),
                node_selector: object.span_of("spec.nodeSelector"),
            };
            let step_spans = object.step_spans;
            let mut resource = object.resource;
            crate::defaults::apply(&mut resource);
            *cluster
                .counts
                .entry(resource.kind().to_string())
                .or_insert(0) += 1;
            match resource {
                Resource::Node(node) => cluster.nodes.push(*node),
                Resource::Pod(pod) => pods.push((*pod, Some(spans))),
                Resource::PriorityClass(class) => cluster.priority_classes.push(*class),
                Resource::PodDisruptionBudget(pdb) => cluster.disruption_budgets.push(*pdb),
                Resource::Namespace(namespace) => cluster.namespaces.push(*namespace),
                Resource::Service(service) => cluster.services.push(*service),
                Resource::Workload(kind, workload) => cluster.workloads.push((kind, *workload)),
                Resource::PersistentVolume(volume) => cluster.storage.volumes.push(*volume),
                Resource::PersistentVolumeClaim(claim) => {
                    claim_spans.push(spans.object);
                    cluster.storage.claims.push(*claim);
                }
                Resource::StorageClass(class) => cluster.storage.classes.push(*class),
                Resource::CsiNode(node) => cluster.storage.csi_nodes.push(*node),
                Resource::CsiDriver(driver) => cluster.storage.csi_drivers.push(*driver),
                Resource::CsiStorageCapacity(capacity) => {
                    cluster.storage.capacities.push(*capacity);
                }
                Resource::Policy(policy) => {
                    keep_first(
                        &mut cluster.policy,
                        *policy,
                        "Policy",
                        &spans,
                        &mut diagnostics,
                    );
                }
                Resource::KubeSchedulerConfiguration(configuration) => keep_first(
                    &mut cluster.scheduler_configuration,
                    *configuration,
                    "KubeSchedulerConfiguration",
                    &spans,
                    &mut diagnostics,
                ),
                Resource::MasterConfig(config) => keep_first(
                    &mut cluster.master_config,
                    *config,
                    "MasterConfig",
                    &spans,
                    &mut diagnostics,
                ),
                Resource::Machine(machine) => cluster.machines.push(*machine),
                Resource::MachineSet(set) => cluster.machine_sets.push(*set),
                Resource::DeschedulerPolicy(policy) => keep_first(
                    &mut cluster.descheduler_policy,
                    *policy,
                    "DeschedulerPolicy",
                    &spans,
                    &mut diagnostics,
                ),
                Resource::Scenario(scenario) => keep_first(
                    &mut cluster.scenario,
                    (*scenario, step_spans),
                    "Scenario",
                    &spans,
                    &mut diagnostics,
                ),
            }
        }
        for (position, claim, message) in cluster.storage.finish(cluster.version) {
            let mut diagnostic = Diagnostic::error("admission/default-storage-class", message)
                .with_object(alloc::format!(
                    "PersistentVolumeClaim/{}/{}",
                    claim.metadata.namespace,
                    claim.metadata.name
                ));
            if let Some(&span) = claim_spans.get(position) {
                diagnostic = diagnostic.with_span(span);
            }
            diagnostics.push(diagnostic);
        }
        let input_pods: Vec<&Pod> = pods.iter().map(|(pod, _)| pod).collect();
        let (created, replicas) = owners::counted_missing_pods(
            &cluster.workloads,
            &input_pods,
            &cluster.nodes,
            cluster.version,
        );
        cluster.replicas = replicas;
        pods.extend(created.into_iter().map(|pod| (pod, None)));
        if cluster.version == Version::Current {
            let used = pods.iter().map(|(pod, _)| pod.metadata.namespace.as_str());
            let implicit = implicit_namespaces(&cluster.namespaces, used);
            cluster.namespaces.extend(implicit);
        }
        let chain = Chain::new(
            &cluster.namespaces,
            &cluster.priority_classes,
            cluster.master_config.as_ref(),
            cluster.version,
        );
        let mut sharing = Sharing::default();
        let admitted: Vec<(PodFacts, PodState, Deletion)> = pods
            .into_iter()
            .map(|(pod, span)| {
                let version = cluster.version;
                admit(&chain, version, &mut sharing, pod, span, &mut diagnostics)
            })
            .collect();
        // Shared in a pass of their own, so that one pod's facts lie next to the next
        // pod's: the engines that read every pod (the descheduler's listing, a scheduler
        // snapshot) then stream through them.
        cluster.pods = admitted
            .into_iter()
            .map(|(facts, state, deletion)| PodEntry::of(facts, state, deletion))
            .collect();
        cluster.locate_pods();
        cluster.start_nodes = Some(
            (cluster.nodes.iter().enumerate())
                .filter_map(|(index, node)| {
                    crate::eviction::start_work(node).map(|settled| (index, settled))
                })
                .collect(),
        );
        for entry in cluster
            .orphans()
            .into_iter()
            .filter_map(|index| cluster.pods.get(index))
        {
            let mut diagnostic = Diagnostic::warning(
                "pod/unknown-node",
                alloc::format!(
                    "pod is bound to node `{}`, which is not in the input",
                    entry.pod.spec.node_name
                ),
            )
            .with_object(pod_id(&entry.pod))
            .with_path("spec.nodeName");
            if let Some(spans) = entry.spans {
                diagnostic = diagnostic.with_span(spans.node_name);
            }
            diagnostics.push(diagnostic);
        }
        input::locate::resolve(&mut diagnostics, sources);
        cluster.diagnostics = diagnostics;
        cluster
    }

    /// For each pod, the position in [`Cluster::nodes`] of the node it is bound to:
    /// `None` for a pod that is not bound, or is bound to a node the input lacks. (Kept
    /// since the last [`Cluster::locate_pods`]; looked up afresh for a cluster made
    /// otherwise.)
    #[must_use]
    pub fn pod_nodes(&self) -> Cow<'_, [Option<usize>]> {
        if self.bound_nodes.len() == self.pods.len() {
            Cow::Borrowed(&self.bound_nodes)
        } else {
            Cow::Owned(locate(
                &node_index(&self.nodes),
                &self.pods,
                PodState::Bound,
            ))
        }
    }

    /// Pods bound to a node the input lacks, in input order: 1.11's scheduler cache keeps
    /// them, on a node entry without a node object.
    #[must_use]
    pub fn orphans(&self) -> Vec<usize> {
        self.pods
            .iter()
            .zip(self.pod_nodes().iter())
            .enumerate()
            .filter(|(_, (entry, node))| entry.state == PodState::Bound && node.is_none())
            .map(|(index, _)| index)
            .collect()
    }

    /// The nodes' positions by name (kept since the last [`Cluster::locate_pods`]; made
    /// afresh for a cluster made otherwise).
    #[must_use]
    pub fn node_index(&self) -> NodeIndex<'_> {
        let (count, slots) = &self.node_slots;
        if *count == self.nodes.len() && !slots.is_empty() {
            NodeIndex::of_nodes(&self.nodes, slots)
        } else {
            node_index(&self.nodes)
        }
    }

    /// The pods bound to each node (kept since the last [`Cluster::locate_pods`]; made
    /// afresh for a cluster made otherwise).
    #[must_use]
    pub fn pods_by_node(&self) -> Cow<'_, PodsByNode> {
        if self.bound_nodes.len() == self.pods.len()
            && self.pods_by_node.nodes() == self.nodes.len()
        {
            Cow::Borrowed(&self.pods_by_node)
        } else {
            Cow::Owned(PodsByNode::new(&self.pod_nodes(), self.nodes.len()))
        }
    }

    /// The finished (Succeeded or Failed) pods whose `spec.nodeName` names each node:
    /// a drain and the taint eviction controller list them with the rest (kept since the
    /// last [`Cluster::locate_pods`]; made afresh for a cluster made otherwise).
    #[must_use]
    pub fn finished_by_node(&self) -> Cow<'_, PodsByNode> {
        if self.bound_nodes.len() == self.pods.len()
            && self.finished_by_node.nodes() == self.nodes.len()
        {
            Cow::Borrowed(&self.finished_by_node)
        } else {
            let finished = locate(&node_index(&self.nodes), &self.pods, PodState::Terminated);
            Cow::Owned(PodsByNode::new(&finished, self.nodes.len()))
        }
    }

    /// Looks up each bound pod's node by name, once for every engine that asks.
    pub fn locate_pods(&mut self) {
        let index = node_index(&self.nodes);
        self.bound_nodes = locate(&index, &self.pods, PodState::Bound);
        let finished = locate(&index, &self.pods, PodState::Terminated);
        self.node_slots = (self.nodes.len(), index.into_slots());
        self.pods_by_node = PodsByNode::new(&self.bound_nodes, self.nodes.len());
        self.finished_by_node = PodsByNode::new(&finished, self.nodes.len());
    }
}

/// Puts a node's pods (indexes) in the order the API server lists them: by key,
/// `namespace/name`, byte by byte, as etcd returns them. `key` gives each pod's key, or
/// anything that orders as the key does.
///
/// An insertion sort by hand: the lists are one node's pods (tens, a few hundred at most),
/// often in order already (one pass then), and the standard library's sort would add 4 KB
/// of brotli to the playground.
pub fn in_list_order<K: Ord>(pods: &mut [usize], key: impl Fn(usize) -> K) {
    for end in 1..pods.len() {
        let mut at = end;
        while let (Some(&before), Some(&here)) = (pods.get(at.wrapping_sub(1)), pods.get(at)) {
            if key(before) <= key(here) {
                break;
            }
            pods.swap(at - 1, at);
            at -= 1;
        }
    }
}

/// The namespaces `used` by pods that `declared` does not list, as the API server has them:
/// a pod's namespace exists (NamespaceLifecycle admission refuses pods in missing ones)
/// and carries its name label, which 1.34's `namespaceSelector`s read. A dump of pods
/// often leaves the Namespace objects out.
fn implicit_namespaces<'p>(
    declared: &[Namespace],
    used: impl Iterator<Item = &'p str>,
) -> Vec<Namespace> {
    let known: BTreeSet<&str> = declared
        .iter()
        .map(|namespace| namespace.metadata.name.as_str())
        .collect();
    let missing: BTreeSet<&str> = used
        .filter(|name| !name.is_empty() && !known.contains(name))
        .collect();
    missing
        .into_iter()
        .map(|name| {
            let mut namespace = Namespace::default();
            namespace.metadata.name = name.into();
            defaults::namespace_name_label(&mut namespace);
            namespace
        })
        .collect()
}

fn node_index(nodes: &[Node]) -> NodeIndex<'_> {
    NodeIndex::new(nodes.iter().map(|node| node.metadata.name.as_str()))
}

/// Per pod in `state`, the position of the node its `spec.nodeName` names.
fn locate(index: &NodeIndex<'_>, pods: &[PodEntry], state: PodState) -> Vec<Option<usize>> {
    pods.iter()
        .map(|entry| {
            if entry.state == state {
                index.get(&entry.pod.spec.node_name)
            } else {
                None
            }
        })
        .collect()
}

fn admit(
    chain: &Chain<'_>,
    version: Version,
    sharing: &mut Sharing,
    mut pod: Pod,
    spans: Option<PodSpans>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (PodFacts, PodState, Deletion) {
    let generated_from = pod
        .metadata
        .annotations
        .get(owners::GENERATED_FROM)
        .cloned()
        .filter(|_| spans.is_none());
    let terminal = matches!(pod.status.phase.as_str(), "Succeeded" | "Failed");
    let what_if = pod
        .metadata
        .annotations
        .get(PENDING_ANNOTATION)
        .is_some_and(|value| value == "true");
    let pending = !terminal && (pod.spec.node_name.is_empty() || what_if);
    // Pods being created now: pending ones, and manifests that were never created.
    let created = pending || pod.status.phase.is_empty();
    // The DaemonSet controller creates its pods with its tolerations.
    if created
        && pod
            .metadata
            .controller()
            .is_some_and(|owner| owner.kind == "DaemonSet")
    {
        pod.spec.tolerations =
            owners::with_daemon_tolerations(&pod.spec.tolerations, pod.spec.host_network, version);
    }
    let decision = chain.admit(&mut pod, created);
    let mut rejection = None;
    match decision {
        Decision::Admitted => {}
        Decision::AdmittedWithoutClass => {
            let mut diagnostic = Diagnostic::warning(
                "priority/unknown-class",
                alloc::format!(
                    "PriorityClass `{}` is not in the input; the pod keeps its `spec.priority` of {}",
                    pod.spec.priority_class_name,
                    pod.spec.priority.unwrap_or(0)
                ),
            )
            .with_object(pod_id(&pod))
            .with_path("spec.priorityClassName");
            if let Some(spans) = spans {
                diagnostic = diagnostic.with_span(spans.priority_class);
            }
            diagnostics.push(diagnostic);
        }
        Decision::Rejected(refusal) => {
            let mut diagnostic = Diagnostic::error(refusal.code, refusal.message.clone())
                .with_object(pod_id(&pod))
                .with_path(refusal.path);
            if let Some(spans) = spans {
                diagnostic = diagnostic.with_span(spans.of(refusal.path));
            }
            diagnostics.push(diagnostic);
            rejection = Some(refusal.message);
        }
    }
    let state = if rejection.is_some() {
        PodState::Rejected
    } else if terminal {
        PodState::Terminated
    } else if pending {
        PodState::Pending
    } else {
        PodState::Bound
    };
    let priority = if rejection.is_some() {
        0
    } else {
        pod.spec.priority.unwrap_or(0)
    };
    let deletion = sharing.deletion(&pod);
    let facts = PodFacts {
        rejection,
        generated_from,
        spans,
        ..PodFacts::derived(pod, priority, sharing)
    };
    (facts, state, deletion)
}

/// Keeps the first configuration file of a kind; a later one is reported and left out.
fn keep_first<T>(
    slot: &mut Option<T>,
    value: T,
    kind: &str,
    spans: &PodSpans,
    diagnostics: &mut Vec<Diagnostic>,
) {
    if slot.is_some() {
        diagnostics.push(
            Diagnostic::warning(
                "input/duplicate-configuration",
                alloc::format!(
                    "only the first `{kind}` in the input is used; this one is left out"
                ),
            )
            .with_object(kind.to_string())
            .with_span(spans.object),
        );
    } else {
        *slot = Some(value);
    }
}

/// `namespace/name` of a pod.
#[must_use]
pub fn pod_id(pod: &Pod) -> String {
    alloc::format!("Pod/{}/{}", pod.metadata.namespace, pod.metadata.name)
}

/// Keeps the first of objects with the same kind, namespace and name; reports the others.
fn reject_duplicates(
    objects: Vec<Object>,
    sources: &[Source<'_>],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Object> {
    let mut seen: BTreeMap<String, Span> = BTreeMap::new();
    let mut kept = Vec::with_capacity(objects.len());
    for object in objects {
        let id = object.resource.id();
        if object.resource.meta().name.is_empty() {
            kept.push(object);
            continue;
        }
        match seen.get(&id) {
            Some(first) => {
                let (line, _) = input::locate::line_column(sources, *first);
                let source = sources
                    .get(first.source as usize)
                    .map_or("input", |source| source.name);
                diagnostics.push(
                    Diagnostic::error(
                        "input/duplicate-object",
                        alloc::format!("`{id}` is defined twice; the first definition is at line {line} of `{source}`"),
                    )
                    .with_help("kubefit keeps the first definition and leaves this one out")
                    .with_object(id)
                    .with_span(object.span),
                );
            }
            None => {
                seen.insert(id, object.span);
                kept.push(object);
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::{in_list_order, Cluster, PodEntry, PodState};
    use crate::model::Pod;
    use crate::{input, Limits, Source};

    #[test]
    fn a_copied_entry_shares_its_facts_until_it_changes_them() {
        let mut pod = Pod::default();
        pod.metadata.name = "web".into();
        let original = PodEntry::new(pod, PodState::Bound, 0);
        let mut copy = original.clone();
        copy.state = PodState::Pending;
        assert!(alloc::sync::Arc::ptr_eq(&original.facts, &copy.facts));
        copy.key = "default/web-2".into();
        assert!(!alloc::sync::Arc::ptr_eq(&original.facts, &copy.facts));
        assert_eq!((&*original.key, original.state), ("/web", PodState::Bound));
        assert_eq!(&*copy.key, "default/web-2");
    }

    /// Keys compare byte by byte: `team-a/` comes before `team/` ('-' < '/').
    #[test]
    fn pods_go_in_the_api_list_order() {
        let keys = ["team/b", "team-a/x", "team/a", "kube-system/z", "team/a-1"];
        let mut pods: Vec<usize> = (0..keys.len()).collect();
        let key = |pod: usize| keys.get(pod).copied().unwrap_or_default();
        in_list_order(&mut pods, key);
        let ordered: Vec<&str> = pods.iter().map(|&pod| key(pod)).collect();
        assert_eq!(
            ordered,
            ["kube-system/z", "team-a/x", "team/a", "team/a-1", "team/b"]
        );
    }

    const NODES_AND_PODS: &str = "\
apiVersion: v1
kind: Node
metadata: {name: a}
---
apiVersion: v1
kind: Node
metadata: {name: b}
---
apiVersion: v1
kind: Pod
metadata: {name: on-b, namespace: default}
spec: {nodeName: b, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: elsewhere, namespace: default}
spec: {nodeName: gone, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pending, namespace: default}
spec: {containers: [{name: c, image: i}]}
";

    /// Pods are located once at build; a cluster put together otherwise, or whose pods
    /// moved, is located again.
    #[test]
    fn pods_are_located_on_their_nodes() {
        let sources = [Source::new("test", NODES_AND_PODS)];
        let mut cluster = Cluster::build(input::load(&sources, &Limits::default()), &sources, None);
        assert_eq!(*cluster.pod_nodes(), [Some(1), None, None]);
        let assembled = Cluster {
            nodes: cluster.nodes.clone(),
            pods: cluster.pods.clone(),
            ..Cluster::default()
        };
        assert_eq!(*assembled.pod_nodes(), [Some(1), None, None]);
        assert_eq!(cluster.pods_by_node().on(1), [0]);
        assert_eq!(assembled.pods_by_node().on(1), [0]);
        assert!(assembled.pods_by_node().on(0).is_empty());
        alloc::sync::Arc::make_mut(&mut cluster.pods[0].pod)
            .spec
            .node_name = "a".into();
        cluster.locate_pods();
        assert_eq!(*cluster.pod_nodes(), [Some(0), None, None]);
        assert_eq!(cluster.pods_by_node().on(0), [0]);
        assert!(cluster.pods_by_node().on(1).is_empty());
    }
}
