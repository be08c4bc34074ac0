//! Pending pods that pod owners would create when their pods are not in the input.
//!
//! A ReplicaSet, ReplicationController, Deployment, StatefulSet or Job whose pods are
//! fewer than it wants, and a DaemonSet missing a pod on an eligible node, contribute the
//! missing pods as pending pods built from their template, named the way the controller
//! names them (with a deterministic suffix where the controller uses a random one).

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::digest;
use crate::labels;
use crate::model::{
    Affinity, LabelSelector, Node, NodeAffinity, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm, OwnerReference, Pod, ResourceList, Toleration, Workload, WorkloadKind,
};
use crate::quantity::Quantity;
use crate::resources;
use crate::schedule::snapshot::{pod_host_ports, Accounting};
use crate::schedule::Version;
use crate::taints;

/// The annotation kubefit puts on pods it creates for an owner: the owner's `Kind/ns/name`.
pub const GENERATED_FROM: &str = "kubefit.io/generated-from";

/// The pods the owners would create, in owner order, as the controllers of `version` make
/// them.
#[must_use]
pub fn missing_pods(
    workloads: &[(WorkloadKind, Workload)],
    pods: &[&Pod],
    nodes: &[Node],
    version: Version,
) -> Vec<Pod> {
    counted_missing_pods(workloads, pods, nodes, version).0
}

/// How many pods a ReplicaSet, ReplicationController or Job of the input wants active, and
/// how many active ones (`IsPodActive` in `pkg/controller/controller_utils.go`: not
/// finished, not being deleted) it has once the pods [`missing_pods`] makes are there:
/// what its controller on the timeline starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Replicas {
    /// `spec.replicas`; a Job's `wantActive` (`manageJob` in
    /// `pkg/controller/job/job_controller.go`), 0 once a Job without completions saw a
    /// success (it then keeps what runs and creates nothing).
    pub(crate) want: usize,
    /// Its active pods.
    pub(crate) active: usize,
}

/// [`missing_pods`], with the [`Replicas`] of each workload that keeps a count of pods
/// (`None` for the others), in workload order.
pub(crate) fn counted_missing_pods(
    workloads: &[(WorkloadKind, Workload)],
    pods: &[&Pod],
    nodes: &[Node],
    version: Version,
) -> (Vec<Pod>, Vec<Option<Replicas>>) {
    let mut created = Vec::new();
    if workloads.is_empty() {
        return (created, Vec::new());
    }
    let index = Index::new(pods);
    let pods = &index;
    let mut counts = Vec::with_capacity(workloads.len());
    for (kind, workload) in workloads {
        let count = match kind {
            WorkloadKind::Deployment => {
                deployment(workload, workloads, pods, &mut created);
                None
            }
            WorkloadKind::ReplicaSet | WorkloadKind::ReplicationController => {
                let have = claimed(pods, *kind, workload, workload.spec.selector.as_ref())
                    .filter(|pod| is_active(pod))
                    .count();
                let want = usize::try_from(workload.spec.replicas.unwrap_or(1)).unwrap_or(0);
                for index in have..want {
                    let name = alloc::format!(
                        "{}-{}",
                        workload.metadata.name,
                        suffix(&workload.metadata.name, index)
                    );
                    created.push(pod_for(*kind, workload, name, owner_ref(*kind, workload)));
                }
                Some(Replicas {
                    want,
                    active: have.max(want),
                })
            }
            // The controller claims by its selector too, but whether it creates an
            // ordinal's pod depends on the name alone: a pod holding that name, claimed or
            // not, makes the creation fail (`AlreadyExists`).
            WorkloadKind::StatefulSet => {
                for ordinal in 0..usize::try_from(workload.spec.replicas.unwrap_or(1)).unwrap_or(0)
                {
                    let name = alloc::format!("{}-{ordinal}", workload.metadata.name);
                    let exists = pods
                        .in_namespace(&workload.metadata.namespace)
                        .any(|pod| pod.metadata.name == name);
                    if !exists {
                        created.push(stateful_pod(workload, name, ordinal, version));
                    }
                }
                None
            }
            WorkloadKind::Job => Some(job(workload, pods, version, &mut created)),
            WorkloadKind::DaemonSet => {
                daemon_set(workload, pods, nodes, version, &mut created);
                None
            }
        };
        counts.push(count);
    }
    (created, counts)
}

/// A StatefulSet's pod with the labels `updateIdentity` gives it
/// (`pkg/controller/statefulset/stateful_set_utils.go`): its name, and in 1.34 its ordinal.
/// The `controller-revision-hash` label is left out: it hashes the object's serialized
/// template, which cannot be reproduced offline.
fn stateful_pod(set: &Workload, name: String, ordinal: usize, version: Version) -> Pod {
    let mut pod = pod_for(
        WorkloadKind::StatefulSet,
        set,
        name.clone(),
        owner_ref(WorkloadKind::StatefulSet, set),
    );
    let labels = &mut pod.metadata.labels;
    labels.insert("statefulset.kubernetes.io/pod-name".into(), name);
    if version == Version::Current {
        labels.insert("apps.kubernetes.io/pod-index".into(), ordinal.to_string());
    }
    pod
}

fn deployment(
    deployment: &Workload,
    workloads: &[(WorkloadKind, Workload)],
    pods: &Index<'_>,
    created: &mut Vec<Pod>,
) {
    let has_replica_set = workloads.iter().any(|(kind, workload)| {
        *kind == WorkloadKind::ReplicaSet
            && is_owned_by(&workload.metadata, WorkloadKind::Deployment, deployment)
    });
    if has_replica_set {
        return;
    }
    // Its pods are those of its ReplicaSets, which the input leaves out (each named
    // `<deployment>-<hash>`), and the orphans its new ReplicaSet adopts: that one selects
    // `pod-template-hash` too (`getNewReplicaSet` in `pkg/controller/deployment/sync.go`),
    // so only orphans that carry the template's hash.
    let prefix = alloc::format!("{}-", deployment.metadata.name);
    let selector = deployment.spec.selector.clone().unwrap_or_default();
    let hash = deployment
        .spec
        .template
        .metadata
        .labels
        .get("pod-template-hash")
        .cloned()
        .or_else(|| only_replica_set_hash(deployment, pods, &prefix))
        .unwrap_or_else(|| {
            suffix(&deployment.metadata.name, u64::MAX)
                .as_str()
                .repeat(2)
        });
    let have = pods
        .in_namespace(&deployment.metadata.namespace)
        .filter(|pod| is_active(pod))
        .filter(|pod| labels::selector_matches(&selector, &pod.metadata.labels))
        .filter(|pod| match pod.metadata.controller() {
            Some(owner) => owner.kind == "ReplicaSet" && owner.name.starts_with(&prefix),
            None => pod.metadata.labels.get("pod-template-hash") == Some(&hash),
        })
        .count();
    let replica_set = alloc::format!("{}-{hash}", deployment.metadata.name);
    for index in have..usize::try_from(deployment.spec.replicas.unwrap_or(1)).unwrap_or(0) {
        let name = alloc::format!("{replica_set}-{}", suffix(&replica_set, index));
        let owner = OwnerReference {
            api_version: "apps/v1".into(),
            kind: "ReplicaSet".into(),
            name: replica_set.clone(),
            uid: String::new(),
            controller: Some(true),
        };
        let mut pod = pod_for(WorkloadKind::Deployment, deployment, name, owner);
        pod.metadata
            .labels
            .insert("pod-template-hash".into(), hash.clone());
        created.push(pod);
    }
}

/// The hash of the one ReplicaSet the Deployment's pods name as their controller
/// (`<deployment>-<hash>`, with that `pod-template-hash` label), when they name exactly one:
/// the input leaves that ReplicaSet out, and its new pods carry its hash as upstream's
/// would. During a rollout (several hashes) which one is current is unknown.
fn only_replica_set_hash(deployment: &Workload, pods: &Index<'_>, prefix: &str) -> Option<String> {
    let mut found: Option<&String> = None;
    for pod in pods.in_namespace(&deployment.metadata.namespace) {
        let Some(owner) = pod.metadata.controller() else {
            continue;
        };
        let Some(hash) = pod.metadata.labels.get("pod-template-hash") else {
            continue;
        };
        if owner.kind != "ReplicaSet" || owner.name.strip_prefix(prefix) != Some(hash.as_str()) {
            continue;
        }
        match found {
            Some(seen) if seen != hash => return None,
            _ => found = Some(hash),
        }
    }
    found.cloned()
}

fn job(job: &Workload, pods: &Index<'_>, version: Version, created: &mut Vec<Pod>) -> Replicas {
    let manual = job.spec.manual_selector == Some(true);
    let uid = &job.metadata.uid;
    let legacy = version == Version::Legacy;
    // The user's selector with `manualSelector`; otherwise the one the API server made of
    // the uid when it created the Job (`generateSelector` in
    // `pkg/registry/batch/job/strategy.go`), which a dump shows in `spec.selector` (under
    // the older key if an older release created it). A Job without a uid is yet to be
    // created: the uid it will get is on no pod, so it claims only the pods that name it
    // as their controller.
    let generated;
    let selector = if manual {
        job.spec.selector.as_ref()
    } else if uid.is_empty() {
        None
    } else {
        let key = if legacy {
            "controller-uid"
        } else {
            "batch.kubernetes.io/controller-uid"
        };
        generated = LabelSelector {
            match_labels: [(key.into(), uid.clone())].into_iter().collect(),
            ..LabelSelector::default()
        };
        job.spec.selector.as_ref().or(Some(&generated))
    };
    let claimed: Vec<&Pod> = claimed(pods, WorkloadKind::Job, job, selector).collect();
    // A 1.34 Job that replaces only failed pods leaves room for its terminating ones too
    // (`manageJob` takes them from what it creates).
    let terminating_count = !legacy && only_replaces_failed(job);
    let active = claimed
        .iter()
        .filter(|pod| is_active(pod) || (terminating_count && !is_terminal(pod)))
        .count();
    let succeeded_pods = claimed
        .iter()
        .filter(|pod| pod.status.phase == "Succeeded")
        .count();
    let succeeded = usize::try_from(job.status.succeeded.unwrap_or(0))
        .unwrap_or(0)
        .max(succeeded_pods);
    let parallelism = usize::try_from(job.spec.parallelism.unwrap_or(1)).unwrap_or(0);
    let want = match job.spec.completions {
        Some(completions) => parallelism.min(
            usize::try_from(completions)
                .unwrap_or(0)
                .saturating_sub(succeeded),
        ),
        None if succeeded > 0 => 0,
        None => parallelism,
    };
    for index in active..want {
        let name = alloc::format!(
            "{}-{}",
            job.metadata.name,
            suffix(&job.metadata.name, index)
        );
        let mut pod = pod_for(
            WorkloadKind::Job,
            job,
            name,
            owner_ref(WorkloadKind::Job, job),
        );
        add_job_labels(&mut pod, job, version);
        created.push(pod);
    }
    Replicas {
        want,
        active: active.max(want),
    }
}

/// `onlyReplaceFailedPods` (`pkg/controller/job/job_controller.go`): a 1.34 Job replaces
/// a deleted pod only once it failed, not while it terminates, with
/// `podReplacementPolicy: Failed` or a `podFailurePolicy`.
pub(crate) fn only_replaces_failed(job: &Workload) -> bool {
    job.spec.pod_replacement_policy.as_deref() == Some("Failed")
        || job.spec.pod_failure_policy.is_some()
}

/// The labels `generateSelector` (`pkg/registry/batch/job/strategy.go`) adds to a Job's
/// template where it has none of that key, unless the Job selects by hand (1.11 writes
/// the first of each pair only); `controller-uid` only when the uid is known. In 1.34 the
/// controller also puts its tracking finalizer on the pod
/// (`appendJobCompletionFinalizerIfNotFound` in `pkg/controller/job/job_controller.go`).
fn add_job_labels(pod: &mut Pod, job: &Workload, version: Version) {
    if version == Version::Current
        && !pod
            .metadata
            .finalizers
            .iter()
            .any(|name| name == JOB_TRACKING)
    {
        pod.metadata.finalizers.push(JOB_TRACKING.into());
    }
    if job.spec.manual_selector == Some(true) {
        return;
    }
    let labels = &mut pod.metadata.labels;
    let pairs = [
        (
            "job-name",
            "batch.kubernetes.io/job-name",
            &job.metadata.name,
        ),
        (
            "controller-uid",
            "batch.kubernetes.io/controller-uid",
            &job.metadata.uid,
        ),
    ];
    for (old, new, value) in pairs.into_iter().filter(|(.., value)| !value.is_empty()) {
        let keys = if version == Version::Legacy {
            &[old][..]
        } else {
            &[old, new][..]
        };
        for key in keys {
            labels.insert_if_missing((*key).to_string(), value.clone());
        }
    }
}

/// Tolerations the DaemonSet controller adds to every daemon pod
/// (`pkg/controller/daemon/util/daemonset_util.go`, `AddOrUpdateDaemonPodTolerations`).
/// 1.11's `CreatePodTemplate` adds the first four only: the `unschedulable` one came with
/// scheduling daemon pods by the default scheduler (1.12), `pid-pressure` and
/// `network-unavailable` later.
#[must_use]
pub fn daemon_tolerations(host_network: bool, version: Version) -> Vec<Toleration> {
    let toleration = |key: &str, effect: &str| Toleration {
        key: key.into(),
        operator: "Exists".into(),
        value: String::new(),
        effect: effect.into(),
        toleration_seconds: None,
    };
    let mut tolerations = alloc::vec![
        toleration("node.kubernetes.io/not-ready", "NoExecute"),
        toleration("node.kubernetes.io/unreachable", "NoExecute"),
        toleration("node.kubernetes.io/disk-pressure", "NoSchedule"),
        toleration("node.kubernetes.io/memory-pressure", "NoSchedule"),
        toleration("node.kubernetes.io/pid-pressure", "NoSchedule"),
        toleration("node.kubernetes.io/unschedulable", "NoSchedule"),
    ];
    if version == Version::Legacy {
        tolerations.truncate(4);
    } else if host_network {
        tolerations.push(toleration(
            "node.kubernetes.io/network-unavailable",
            "NoSchedule",
        ));
    }
    tolerations
}

/// A daemon pod's tolerations: its own, with each of [`daemon_tolerations`] added or
/// put in place of its own that match it.
#[must_use]
pub fn with_daemon_tolerations(
    own: &[Toleration],
    host_network: bool,
    version: Version,
) -> Vec<Toleration> {
    let mut tolerations = own.to_vec();
    for extra in daemon_tolerations(host_network, version) {
        add_or_update(&mut tolerations, &extra);
    }
    tolerations
}

/// `AddOrUpdateTolerationInPodSpec` (pkg/apis/core/v1/helper/helpers.go): every
/// toleration with `extra`'s key, operator, value and effect becomes `extra` (so a
/// daemon's own `tolerationSeconds` on `unreachable` gives way to tolerating it for
/// ever); nothing changes if one already equals it; without a match it is appended.
pub(crate) fn add_or_update(tolerations: &mut Vec<Toleration>, extra: &Toleration) {
    if tolerations.contains(extra) {
        return;
    }
    let matches = |toleration: &Toleration| {
        toleration.key == extra.key
            && toleration.operator == extra.operator
            && toleration.value == extra.value
            && toleration.effect == extra.effect
    };
    let mut updated = false;
    for toleration in tolerations
        .iter_mut()
        .filter(|toleration| matches(toleration))
    {
        toleration.clone_from(extra);
        updated = true;
    }
    if !updated {
        tolerations.push(extra.clone());
    }
}

fn daemon_set(
    daemon_set: &Workload,
    pods: &Index<'_>,
    nodes: &[Node],
    version: Version,
    created: &mut Vec<Pod>,
) {
    let tolerations = daemon_set_tolerations(daemon_set, version);
    let selector = daemon_set.spec.selector.as_ref();
    let covered: BTreeSet<&str> = claimed(pods, WorkloadKind::DaemonSet, daemon_set, selector)
        .filter(|pod| !is_terminal(pod))
        .filter_map(target_node)
        .collect();
    for node in nodes {
        let name = &node.metadata.name;
        if covered.contains(name.as_str()) || !daemon_should_run(daemon_set, &tolerations, node) {
            continue;
        }
        let pod_name = alloc::format!("{}-{}", daemon_set.metadata.name, suffix(name, 0));
        let mut pod = daemon_pod(daemon_set, &tolerations, name, pod_name, version);
        mark_generated(&mut pod, WorkloadKind::DaemonSet, daemon_set);
        if version == Version::Legacy && !fits_beside(&pod, node, pods, created, daemon_set) {
            continue;
        }
        created.push(pod);
    }
}

/// The daemon pod the DaemonSet controller creates for `node` (`CreatePodTemplate` in
/// `pkg/controller/daemon/util/daemonset_util.go`): its template with the controller's
/// tolerations and the template generation label (the `apps/v1` object keeps the
/// generation in an annotation, which the API server sets to 1 on a DaemonSet it creates;
/// the `controller-revision-hash` label is left out: it hashes the object's serialized
/// template, which cannot be reproduced offline). 1.34 pins it to the node for the
/// scheduler (`ReplaceDaemonSetPodNodeNameNodeAffinity`); 1.11, whose
/// `ScheduleDaemonSetPods` gate is off, creates it bound there.
fn daemon_pod(
    daemon_set: &Workload,
    tolerations: &[Toleration],
    node: &str,
    name: String,
    version: Version,
) -> Pod {
    let generation = match daemon_set
        .metadata
        .annotations
        .get("deprecated.daemonset.template.generation")
    {
        Some(value) => value.parse::<i64>().ok(),
        None => Some(1),
    };
    let owner = owner_ref(WorkloadKind::DaemonSet, daemon_set);
    let mut pod = from_template(WorkloadKind::DaemonSet, daemon_set, name, owner);
    if let Some(generation) = generation {
        pod.metadata
            .labels
            .insert("pod-template-generation".into(), generation.to_string());
    }
    pod.spec.tolerations = tolerations.to_vec();
    if version == Version::Current {
        pin_to_node(&mut pod, node);
    } else {
        pod.spec.node_name = node.to_string();
    }
    pod
}

/// The tolerations of `daemon_set`'s pods: its template's with the controller's own.
fn daemon_set_tolerations(daemon_set: &Workload, version: Version) -> Vec<Toleration> {
    let template = &daemon_set.spec.template.spec;
    with_daemon_tolerations(&template.tolerations, template.host_network, version)
}

/// `NodeShouldRunDaemonPod`'s `shouldRun` for `daemon_set` on `node` (1.11: up to its
/// `GeneralPredicates`, which [`fits_beside`] checks where the pods are known).
pub(crate) fn daemon_should_run_on(daemon_set: &Workload, node: &Node, version: Version) -> bool {
    daemon_should_run(
        daemon_set,
        &daemon_set_tolerations(daemon_set, version),
        node,
    )
}

/// 1.11's `nodeShouldRunDaemonPod` past the node's selector and taints: its
/// `GeneralPredicates` against the node's other pods (those of this DaemonSet aside, and
/// the daemon pods made before it). Insufficient resources leave the node without the pod
/// (a `FailedPlacement` event), and a host port in use as well (taken as intended).
fn fits_beside(pod: &Pod, node: &Node, pods: &Index<'_>, made: &[Pod], owner: &Workload) -> bool {
    let name = node.metadata.name.as_str();
    let others: Vec<&Pod> = pods
        .by_namespace
        .values()
        .flatten()
        .copied()
        .chain(made)
        .filter(|other| other.spec.node_name == name && !is_terminal(other))
        .filter(|other| {
            other.metadata.controller().is_none_or(|controller| {
                controller.kind != "DaemonSet" || controller.name != owner.metadata.name
            })
        })
        .collect();
    fits_among(pod, node, &others)
}

/// 1.11's daemon `GeneralPredicates` for `pod` on `node` beside `others`, the node's
/// pods that count: room for one more pod, the resources it requests, its host ports.
pub(crate) fn fits_among(pod: &Pod, node: &Node, others: &[&Pod]) -> bool {
    let empty = ResourceList::new();
    let allocatable = node.status.allocatable.as_ref().unwrap_or(&empty);
    let room_for_pods = allocatable
        .get("pods")
        .is_some_and(|pods| i64::try_from(others.len()).unwrap_or(i64::MAX) < pods.value());
    let mut used = ResourceList::new();
    for other in others {
        resources::add(&mut used, &resources::pod_requests(&other.spec));
    }
    let resources_fit = resources::pod_requests(&pod.spec)
        .iter()
        .filter(|(_, quantity)| !quantity.is_zero())
        .all(|(resource, quantity)| {
            let in_use = used.get(resource).copied().unwrap_or_else(Quantity::zero);
            let free = allocatable
                .get(resource)
                .copied()
                .unwrap_or_else(Quantity::zero);
            in_use
                .checked_add(*quantity)
                .is_some_and(|wanted| wanted.cmp_value(&free).is_le())
        });
    let ports_free = pod_host_ports(pod, Accounting::Legacy).all(|wanted| {
        others.iter().all(|other| {
            pod_host_ports(other, Accounting::Legacy).all(|used| !wanted.conflicts_with(&used))
        })
    });
    room_for_pods && resources_fit && ports_free
}

/// `nodeShouldRunDaemonPod`: the node is the one the template names, if it names one,
/// satisfies the template's node selector and required node affinity, and every
/// NoSchedule/NoExecute taint is tolerated.
fn daemon_should_run(daemon_set: &Workload, tolerations: &[Toleration], node: &Node) -> bool {
    let template = &daemon_set.spec.template.spec;
    if !template.node_name.is_empty() && template.node_name != node.metadata.name {
        return false;
    }
    if !labels::map_matches(&template.node_selector, &node.metadata.labels) {
        return false;
    }
    let required = template.required_node_affinity();
    if required.is_some_and(|selector| !labels::node_selector_matches(selector, node)) {
        return false;
    }
    node.spec
        .taints
        .iter()
        .filter(|taint| taint.effect == "NoSchedule" || taint.effect == "NoExecute")
        .all(|taint| taints::tolerated(tolerations, taint))
}

/// The node a daemon pod is for (`GetTargetNodeName` in
/// `pkg/controller/daemon/util/daemonset_util.go`): its `nodeName`, else the node its
/// affinity pins it to.
pub(crate) fn target_node(pod: &Pod) -> Option<&str> {
    if pod.spec.node_name.is_empty() {
        pinned_node(pod)
    } else {
        Some(pod.spec.node_name.as_str())
    }
}

/// The node a daemon pod is pinned to through `matchFields` on `metadata.name`.
fn pinned_node(pod: &Pod) -> Option<&str> {
    let required = pod.spec.required_node_affinity()?;
    required.node_selector_terms.iter().find_map(|term| {
        term.match_fields
            .iter()
            .find(|field| field.key == "metadata.name" && field.operator == "In")
            .and_then(|field| field.values.first())
            .map(String::as_str)
    })
}

/// Pins a daemon pod to one node as the controller does (`ReplaceDaemonSetPodNodeNameNodeAffinity`).
fn pin_to_node(pod: &mut Pod, node: &str) {
    let term = NodeSelectorTerm {
        match_expressions: Vec::new(),
        match_fields: alloc::vec![NodeSelectorRequirement {
            key: "metadata.name".into(),
            operator: "In".into(),
            values: alloc::vec![node.to_string()],
        }],
    };
    let affinity = pod.spec.affinity.get_or_insert_with(Affinity::default);
    let node_affinity = affinity
        .node_affinity
        .get_or_insert_with(NodeAffinity::default);
    node_affinity.required_during_scheduling_ignored_during_execution = Some(NodeSelector {
        node_selector_terms: alloc::vec![term],
    });
}

/// Input pods by namespace and by controller, and the orphans (no controller, not being
/// deleted) by namespace, so each owner finds its pods at once.
struct Index<'p> {
    by_namespace: BTreeMap<&'p str, Vec<&'p Pod>>,
    by_controller: BTreeMap<(&'p str, &'p str, &'p str), Vec<&'p Pod>>,
    orphans: BTreeMap<&'p str, Vec<&'p Pod>>,
}

impl<'p> Index<'p> {
    fn new(pods: &[&'p Pod]) -> Self {
        let mut index = Self {
            by_namespace: BTreeMap::new(),
            by_controller: BTreeMap::new(),
            orphans: BTreeMap::new(),
        };
        for &pod in pods {
            let namespace = pod.metadata.namespace.as_str();
            index.by_namespace.entry(namespace).or_default().push(pod);
            if let Some(owner) = pod.metadata.controller() {
                let key = (namespace, owner.kind.as_str(), owner.name.as_str());
                index.by_controller.entry(key).or_default().push(pod);
            } else if pod.metadata.deletion_timestamp.is_none() {
                index.orphans.entry(namespace).or_default().push(pod);
            }
        }
        index
    }

    fn in_namespace(&self, namespace: &str) -> impl Iterator<Item = &'p Pod> + '_ {
        self.by_namespace
            .get(namespace)
            .into_iter()
            .flatten()
            .copied()
    }
}

/// The pods `owner` claims, as `PodControllerRefManager.ClaimPods` does
/// (`pkg/controller/controller_ref_manager.go`): those it controls that `selector` still
/// matches (it releases the others), and the orphans of its namespace that `selector`
/// matches (it adopts them). Without a selector, the pods it controls. (Two owners whose
/// selectors overlap both count an orphan here; upstream the first to adopt it wins.)
fn claimed<'a>(
    pods: &'a Index<'a>,
    kind: WorkloadKind,
    owner: &'a Workload,
    selector: Option<&'a LabelSelector>,
) -> impl Iterator<Item = &'a Pod> + 'a {
    let key = (
        owner.metadata.namespace.as_str(),
        kind.as_str(),
        owner.metadata.name.as_str(),
    );
    let matches = move |pod: &&Pod| {
        selector.is_none_or(|selector| labels::selector_matches(selector, &pod.metadata.labels))
    };
    let orphans = selector
        .and_then(|_| pods.orphans.get(owner.metadata.namespace.as_str()))
        .into_iter()
        .flatten()
        .copied();
    pods.by_controller
        .get(&key)
        .into_iter()
        .flatten()
        .copied()
        .filter(move |pod| is_owned_by(&pod.metadata, kind, owner))
        .chain(orphans)
        .filter(matches)
}

fn is_owned_by(meta: &crate::model::ObjectMeta, kind: WorkloadKind, owner: &Workload) -> bool {
    meta.namespace == owner.metadata.namespace
        && meta.controller().is_some_and(|reference| {
            reference.kind == kind.as_str()
                && reference.name == owner.metadata.name
                && (reference.uid.is_empty()
                    || owner.metadata.uid.is_empty()
                    || reference.uid == owner.metadata.uid)
        })
}

fn is_terminal(pod: &Pod) -> bool {
    matches!(pod.status.phase.as_str(), "Succeeded" | "Failed")
}

/// `IsPodActive` (`pkg/controller/controller_utils.go`): the pod neither finished nor is
/// being deleted, so its controller counts it.
fn is_active(pod: &Pod) -> bool {
    !is_terminal(pod) && pod.metadata.deletion_timestamp.is_none()
}

fn owner_ref(kind: WorkloadKind, workload: &Workload) -> OwnerReference {
    let api_version = match kind {
        WorkloadKind::ReplicationController => "v1",
        WorkloadKind::Job => "batch/v1",
        _ => "apps/v1",
    };
    OwnerReference {
        api_version: api_version.into(),
        kind: kind.as_str().into(),
        name: workload.metadata.name.clone(),
        uid: workload.metadata.uid.clone(),
        controller: Some(true),
    }
}

/// The pod `kind`'s controller creates for `workload`. A StatefulSet names its pods; the
/// other controllers send only `generateName: <owner>-` (`getPodsPrefix` in
/// `pkg/controller/controller_utils.go`) and the API server adds the suffix, which `name`
/// stands in for.
fn pod_for(kind: WorkloadKind, workload: &Workload, name: String, owner: OwnerReference) -> Pod {
    let mut pod = from_template(kind, workload, name, owner);
    mark_generated(&mut pod, kind, workload);
    pod
}

/// Notes on a pod kubefit made for the input that `workload` would create it.
fn mark_generated(pod: &mut Pod, kind: WorkloadKind, workload: &Workload) {
    pod.metadata.annotations.insert(
        GENERATED_FROM.into(),
        alloc::format!(
            "{}/{}/{}",
            kind.as_str(),
            workload.metadata.namespace,
            workload.metadata.name
        ),
    );
}

/// The pod `GetPodFromTemplate` (`pkg/controller/controller_utils.go`) makes of
/// `workload`'s template: the template's labels, annotations and whole spec, `nodeName`
/// included (a template that names a node makes pods created bound to it), and `owner`
/// as the controller.
fn from_template(
    kind: WorkloadKind,
    workload: &Workload,
    name: String,
    owner: OwnerReference,
) -> Pod {
    let template = &workload.spec.template;
    let mut pod = Pod::default();
    pod.metadata.name = name;
    if kind != WorkloadKind::StatefulSet {
        pod.metadata.generate_name = alloc::format!("{}-", owner.name);
    }
    pod.metadata
        .namespace
        .clone_from(&workload.metadata.namespace);
    pod.metadata.labels.clone_from(&template.metadata.labels);
    pod.metadata
        .annotations
        .clone_from(&template.metadata.annotations);
    pod.metadata
        .finalizers
        .clone_from(&template.metadata.finalizers);
    pod.metadata.owner_references = alloc::vec![owner];
    pod.spec = template.spec.clone();
    pod
}

/// The pod a controller whose object is in `workloads` creates in place of `old`, named
/// `name` (a StatefulSet's: the old pod's own name), as it makes one from its template
/// (a DaemonSet's: for the node `old` was for); `None` when `old`'s controller is not a
/// ReplicaSet, ReplicationController, StatefulSet, Job or DaemonSet of `workloads`. A StatefulSet's template is `spec.template`, its
/// update revision's (what the default RollingUpdate strategy creates). An Indexed Job's
/// pod keeps its completion index.
pub(crate) fn replacement(
    workloads: &[(WorkloadKind, Workload)],
    old: &Pod,
    name: &str,
    version: Version,
) -> Option<Pod> {
    let (kind, workload) = workloads.get(controller_object(workloads, old)?)?;
    let owner = owner_ref(*kind, workload);
    match kind {
        WorkloadKind::ReplicaSet | WorkloadKind::ReplicationController => {
            Some(from_template(*kind, workload, name.into(), owner))
        }
        WorkloadKind::StatefulSet => {
            // `getOrdinal`: the digits after the name's last dash.
            let ordinal = name.rsplit_once('-')?.1.parse().ok()?;
            let mut pod = stateful_pod(workload, name.into(), ordinal, version);
            pod.metadata.annotations.remove(GENERATED_FROM);
            Some(pod)
        }
        WorkloadKind::Job => {
            let mut pod = from_template(*kind, workload, name.into(), owner);
            add_job_labels(&mut pod, workload, version);
            let index = old.metadata.annotations.get(COMPLETION_INDEX);
            if let Some(index) = index {
                let index = index.clone();
                if old.metadata.labels.get(COMPLETION_INDEX).is_some() {
                    pod.metadata
                        .labels
                        .insert(COMPLETION_INDEX.into(), index.clone());
                }
                pod.metadata
                    .annotations
                    .insert(COMPLETION_INDEX.into(), index);
            }
            Some(pod)
        }
        WorkloadKind::DaemonSet => {
            let tolerations = daemon_set_tolerations(workload, version);
            let node = target_node(old)?;
            Some(daemon_pod(
                workload,
                &tolerations,
                node,
                name.into(),
                version,
            ))
        }
        WorkloadKind::Deployment => None,
    }
}

/// Where in `workloads` the object of `pod`'s controller is, if the input has it.
pub(crate) fn controller_object(
    workloads: &[(WorkloadKind, Workload)],
    pod: &Pod,
) -> Option<usize> {
    let controller = pod.metadata.controller()?;
    workloads.iter().position(|(kind, workload)| {
        kind.as_str() == controller.kind && is_owned_by(&pod.metadata, *kind, workload)
    })
}

/// The finalizer a 1.34 Job keeps on its pods until it counted them finished
/// (`batch.JobTrackingFinalizer`).
pub(crate) const JOB_TRACKING: &str = "batch.kubernetes.io/job-tracking";

/// The annotation (and in 1.34 label) that gives an Indexed Job's pod its completion
/// index.
pub(crate) const COMPLETION_INDEX: &str = "batch.kubernetes.io/job-completion-index";

/// The alphabet of generated-name suffixes (`rand.String`).
const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// A five-character suffix in the alphabet Kubernetes uses for generated names
/// (`k8s.io/apimachinery/pkg/util/rand`), derived from the seed and index instead of
/// drawn at random so that results are reproducible.
pub(crate) fn suffix(seed: &str, index: impl TryInto<u64>) -> Suffix {
    suffix_of_digest(seed_digest(seed), index)
}

/// The digest [`suffix`] makes of its seed, for callers that keep it (a pod's entry keeps
/// its name's, so that naming its replacement does not read the name again).
pub(crate) fn seed_digest(seed: &str) -> u64 {
    digest::fnv1a(digest::EMPTY, seed.as_bytes())
}

/// [`suffix`] from the seed's digest.
pub(crate) fn suffix_of_digest(seed: u64, index: impl TryInto<u64>) -> Suffix {
    /// The suffix is the hash's five lowest digits in base 27: one 64-bit division
    /// leaves them all, and 32-bit arithmetic splits them.
    const FIVE_DIGITS: u64 = 27 * 27 * 27 * 27 * 27;
    let index = index.try_into().unwrap_or(u64::MAX).to_le_bytes();
    let hash = digest::fnv1a(seed, &index);
    let mut digits = u32::try_from(hash % FIVE_DIGITS).unwrap_or(0);
    let mut out = [b'x'; 5];
    for slot in &mut out {
        let position = usize::try_from(digits % 27).unwrap_or(0);
        *slot = *ALPHABET.get(position).unwrap_or(&b'x');
        digits /= 27;
    }
    Suffix(out)
}

/// A generated-name suffix, kept on the stack (the timeline names thousands of
/// replacements).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Suffix([u8; 5]);

impl Suffix {
    pub(crate) fn as_str(&self) -> &str {
        // Always ASCII: the bytes come from the alphabet above.
        core::str::from_utf8(&self.0).unwrap_or("xxxxx")
    }
}

impl core::fmt::Display for Suffix {
    fn fmt(&self, formatter: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        formatter.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;
    use crate::{input, Limits, Source};

    /// What `read` makes of each pod generated from `yaml` under `version`.
    fn generated_with<T>(yaml: &str, version: Version, read: impl Fn(&Pod) -> T) -> Vec<T> {
        let sources = [Source::new("test", yaml)];
        let loaded = input::load(&sources, &Limits::default());
        let cluster = Cluster::build(loaded, &sources, Some(version));
        cluster
            .pods
            .iter()
            .filter(|entry| entry.generated_from.is_some())
            .map(|entry| read(&entry.pod))
            .collect()
    }

    /// The labels of the pods generated from `yaml` under `version`, by pod name.
    fn generated_labels(yaml: &str, version: Version) -> Vec<(String, Vec<(String, String)>)> {
        generated_with(yaml, version, |pod| {
            let labels = pod.metadata.labels.iter();
            let labels = labels.map(|(key, value)| (key.clone(), value.clone()));
            (pod.metadata.name.clone(), labels.collect())
        })
    }

    fn pairs(labels: &[(&str, &str)]) -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = labels
            .iter()
            .map(|(key, value)| ((*key).to_string(), (*value).to_string()))
            .collect();
        pairs.sort();
        pairs
    }

    const JOBS: &str = "\
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: default, uid: u-1}
spec:
  template:
    metadata: {labels: {job-name: mine}}
    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: fresh, namespace: default}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: manual, namespace: default, uid: u-2}
spec:
  manualSelector: true
  selector: {matchLabels: {app: manual}}
  template:
    metadata: {labels: {app: manual}}
    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
";

    /// `generateSelector`: 1.11 adds `job-name` and `controller-uid`, 1.34 their
    /// `batch.kubernetes.io/` twins too; a label the template has stays; no uid, no
    /// `controller-uid`; a manual selector, no label.
    #[test]
    fn job_pods_carry_the_labels_the_api_server_adds() {
        let legacy = generated_labels(JOBS, Version::Legacy);
        let current = generated_labels(JOBS, Version::Current);
        let labels = |of: &[(String, Vec<(String, String)>)], job: &str| {
            of.iter()
                .find(|(name, _)| name.starts_with(&alloc::format!("{job}-")))
                .map(|(_, labels)| labels.clone())
                .unwrap_or_default()
        };
        assert_eq!(
            labels(&legacy, "train"),
            pairs(&[("controller-uid", "u-1"), ("job-name", "mine")])
        );
        assert_eq!(
            labels(&current, "train"),
            pairs(&[
                ("batch.kubernetes.io/controller-uid", "u-1"),
                ("batch.kubernetes.io/job-name", "train"),
                ("controller-uid", "u-1"),
                ("job-name", "mine"),
            ])
        );
        assert_eq!(
            labels(&current, "fresh"),
            pairs(&[
                ("batch.kubernetes.io/job-name", "fresh"),
                ("job-name", "fresh")
            ])
        );
        assert_eq!(labels(&legacy, "manual"), pairs(&[("app", "manual")]));
    }

    /// `updateIdentity` names the pod in a label, and in 1.34 its ordinal; `CreatePodTemplate`
    /// labels a daemon pod with the template generation (1 for a DaemonSet created now).
    #[test]
    fn stateful_and_daemon_pods_carry_their_controllers_labels() {
        let yaml = "\
apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent, namespace: default}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: old
  namespace: default
  annotations: {deprecated.daemonset.template.generation: \"4\"}
spec:
  selector: {matchLabels: {app: old}}
  template:
    metadata: {labels: {app: old}}
    spec: {containers: [{name: c, image: i}]}
";
        let legacy = generated_labels(yaml, Version::Legacy);
        let current = generated_labels(yaml, Version::Current);
        assert_eq!(
            legacy[0],
            (
                "db-0".into(),
                pairs(&[
                    ("app", "db"),
                    ("statefulset.kubernetes.io/pod-name", "db-0")
                ])
            )
        );
        assert_eq!(
            current[0].1,
            pairs(&[
                ("app", "db"),
                ("apps.kubernetes.io/pod-index", "0"),
                ("statefulset.kubernetes.io/pod-name", "db-0"),
            ])
        );
        assert_eq!(
            current[1].1,
            pairs(&[("app", "agent"), ("pod-template-generation", "1")])
        );
        assert_eq!(
            current[2].1,
            pairs(&[("app", "old"), ("pod-template-generation", "4")])
        );
    }

    /// `AddOrUpdateTolerationInPodSpec`: a daemon's own `unreachable` toleration with
    /// seconds is put in place by the for-ever one; an unrelated one stays first.
    /// 1.11's `CreatePodTemplate` adds the not-ready, unreachable, disk- and
    /// memory-pressure tolerations only.
    #[test]
    fn openshift_3_11_daemon_pods_tolerate_less() {
        let keys = |version| -> Vec<String> {
            daemon_tolerations(true, version)
                .into_iter()
                .map(|toleration| toleration.key)
                .collect()
        };
        assert_eq!(
            keys(Version::Legacy),
            [
                "node.kubernetes.io/not-ready",
                "node.kubernetes.io/unreachable",
                "node.kubernetes.io/disk-pressure",
                "node.kubernetes.io/memory-pressure"
            ]
        );
        assert_eq!(keys(Version::Current).len(), 7);
    }

    #[test]
    fn daemon_tolerations_replace_the_ones_they_match() {
        let own = |key: &str, seconds: Option<i64>| Toleration {
            key: key.into(),
            operator: "Exists".into(),
            value: String::new(),
            effect: "NoExecute".into(),
            toleration_seconds: seconds,
        };
        let tolerations = with_daemon_tolerations(
            &[
                own("example.com/k", Some(5)),
                own("node.kubernetes.io/unreachable", Some(60)),
            ],
            false,
            Version::Current,
        );
        assert_eq!(tolerations.len(), 7);
        assert_eq!(tolerations[0], own("example.com/k", Some(5)));
        assert_eq!(tolerations[1], own("node.kubernetes.io/unreachable", None));
        assert_eq!(tolerations[2], own("node.kubernetes.io/not-ready", None));
        assert!(tolerations
            .iter()
            .all(|toleration| toleration.toleration_seconds != Some(60)));
    }

    /// The names of the pods generated from `yaml` under `version`, with their
    /// finalizers.
    fn generated(yaml: &str, version: Version) -> Vec<(String, Vec<String>)> {
        generated_with(yaml, version, |pod| {
            (pod.metadata.name.clone(), pod.metadata.finalizers.clone())
        })
    }

    /// `IsPodActive`: a pod being deleted no longer counts, so a ReplicaSet of two with
    /// one running and one terminating pod creates one; a Job that replaces only failed
    /// pods still leaves room for its terminating one. A 1.34 Job's new pod carries the
    /// tracking finalizer, a 1.11 one's does not.
    #[test]
    fn owners_do_not_count_their_terminating_pods() {
        let pod = |name: &str, kind: &str, deleting: bool| {
            let deletion = if deleting {
                ", deletionTimestamp: '2026-01-01T00:00:30Z'"
            } else {
                ""
            };
            alloc::format!(
                "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default{deletion}, labels: {{app: a}}, ownerReferences: [{{apiVersion: v1, kind: {kind}, name: a, uid: u, controller: true}}]}}\nspec: {{nodeName: n1, containers: [{{name: c, image: i}}]}}\nstatus: {{phase: Running}}\n"
            )
        };
        let owner = |kind: &str, spec: &str| {
            let restart = if kind == "Job" { "Never" } else { "Always" };
            alloc::format!(
                "---\napiVersion: apps/v1\nkind: {kind}\nmetadata: {{name: a, namespace: default, uid: u}}\nspec:\n{spec}  selector: {{matchLabels: {{app: a}}}}\n  template:\n    metadata: {{labels: {{app: a}}}}\n    spec: {{restartPolicy: {restart}, containers: [{{name: c, image: i}}]}}\n"
            )
        };
        let node = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n";
        let replica_set = [
            node,
            &owner("ReplicaSet", "  replicas: 2\n"),
            &pod("a-1", "ReplicaSet", false),
            &pod("a-2", "ReplicaSet", true),
        ]
        .concat();
        let names: Vec<String> = generated(&replica_set, Version::Current)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(names, [alloc::format!("a-{}", suffix("a", 1_u64))]);

        let job = |policy: &str| {
            [
                node,
                &owner("Job", &alloc::format!("  manualSelector: true\n{policy}")),
                &pod("a-2", "Job", true),
            ]
            .concat()
            .replace("apps/v1\nkind: Job", "batch/v1\nkind: Job")
        };
        let tracking = alloc::vec![String::from(JOB_TRACKING)];
        let replaced = generated(&job(""), Version::Current);
        assert_eq!(replaced.len(), 1);
        assert_eq!(replaced[0].1, tracking);
        assert_eq!(
            generated(&job(""), Version::Legacy)[0].1,
            Vec::<String>::new()
        );
        let only_failed = job("  podReplacementPolicy: Failed\n");
        assert_eq!(generated(&only_failed, Version::Current), []);
    }

    /// The suffix is the hash's five lowest base-27 digits, lowest first: what dividing
    /// the 64-bit hash by 27 five times gives (the form the replacements in the scenario
    /// fixtures were named with).
    #[test]
    fn suffix_digits_are_the_hash_in_base_27() {
        for (seed, index) in [("web-7d9f8c6b5-x5k2q", 0_u64), ("", 1), ("a", u64::MAX)]
            .into_iter()
            .chain((0..500).map(|index| ("db-0", index * 7919)))
        {
            let mut hash = digest::fnv1a(seed_digest(seed), &index.to_le_bytes());
            let mut expected = alloc::string::String::new();
            for _ in 0..5 {
                let digit = usize::try_from(hash % 27).unwrap_or(0);
                expected.push(char::from(ALPHABET[digit]));
                hash /= 27;
            }
            assert_eq!(suffix(seed, index).as_str(), expected, "{seed} {index}");
        }
    }
}
