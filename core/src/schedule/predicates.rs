//! The Kubernetes 1.11 predicates, one file each, named after upstream
//! (`pkg/scheduler/algorithm/predicates/`), and what they share: the incoming pod's
//! precomputed metadata (`metadata.go`) and the status code each reason carries.

pub mod check_node_condition;
pub mod check_node_disk_pressure;
pub mod check_node_label_presence;
pub mod check_node_memory_pressure;
pub mod check_node_pid_pressure;
pub mod check_service_affinity;
pub mod check_volume_binding;
pub mod general_predicates;
pub mod host_name;
pub mod match_inter_pod_affinity;
pub mod match_node_selector;
pub mod max_volume_count;
pub mod no_disk_conflict;
pub mod no_volume_zone_conflict;
pub mod pod_fits_host_ports;
pub mod pod_fits_resources;
pub mod pod_tolerates_node_taints;

use alloc::string::String;
use alloc::vec::Vec;

use super::legacy::PredicateKind;
use super::snapshot::{NodeInfo, PodUsage, Snapshot};
use super::status::{Code, Status};
use super::volumes::PodClaims;
use super::Version;
use crate::cluster::PodEntry;
use crate::labels;
use crate::model::{Node, Pod as PodObject, PodAffinityTerm, Service};

/// The reasons 1.11 preemption treats as unresolvable (`nodesWherePreemptionMightHelp`
/// in `core/generic_scheduler.go`): a node failing with any of them is no candidate.
const UNRESOLVABLE: [&str; 11] = [
    match_node_selector::REASON,
    host_name::REASON,
    pod_tolerates_node_taints::REASON,
    check_node_label_presence::REASON,
    check_node_condition::NOT_READY,
    check_node_condition::NETWORK_UNAVAILABLE,
    check_node_condition::UNSCHEDULABLE,
    check_node_condition::UNKNOWN_CONDITION,
    no_volume_zone_conflict::REASON,
    check_volume_binding::NODE_AFFINITY_CONFLICT,
    check_volume_binding::BINDING_NO_MATCH,
];

/// A predicate's verdict from its reasons: success without reasons; otherwise
/// `UnschedulableAndUnresolvable` if any reason is one preemption skips, else
/// `Unschedulable`.
#[must_use]
pub fn verdict(reasons: Vec<String>) -> Status {
    if reasons.is_empty() {
        return Status::success();
    }
    let code = if reasons
        .iter()
        .any(|reason| UNRESOLVABLE.contains(&reason.as_str()))
    {
        Code::UnschedulableAndUnresolvable
    } else {
        Code::Unschedulable
    };
    Status { code, reasons }
}

/// A one-reason failure, or success.
#[must_use]
pub fn check(fits: bool, reason: &str) -> Status {
    if fits {
        Status::success()
    } else {
        verdict(alloc::vec![reason.into()])
    }
}

/// The incoming pod and what the predicates precompute for it (`predicateMetadata`).
#[derive(Debug)]
pub struct Pod<'a> {
    /// The pod.
    pub entry: &'a PodEntry,
    /// Its request as the fit checks count it (1.11 `GetResourceRequest`).
    pub request: PodUsage,
    /// Services in its namespace whose selector matches it, in input order.
    pub services: Vec<&'a Service>,
    /// Bound pods in its namespace matching its own labels (`CheckServiceAffinity`),
    /// orphans and `nominated` ones last.
    pub service_pods: Vec<usize>,
    /// Pods nominated to the node of a first pass, bound there in the snapshot but
    /// without a node name upstream ([`super::Profile::prepare_with_nominated`]).
    pub nominated: Vec<usize>,
    /// Inter-pod affinity metadata (`MatchInterPodAffinity`).
    pub affinity: match_inter_pod_affinity::Metadata<'a>,
    /// InterPodAffinityPriority's sums, made when first needed.
    affinity_scores: core::cell::OnceCell<super::priorities::interpod_affinity::State<'a>>,
    /// The snapshot's cluster.
    cluster: &'a crate::cluster::Cluster,
    /// The pod's claims as the volume binder sorts them (`CheckVolumeBinding`), or the
    /// error sorting them met.
    pub volume_claims: Result<PodClaims<'a>, String>,
}

impl<'a> Pod<'a> {
    /// Precomputes what the configured predicates need; `nominated` are the pods the
    /// first pass on a node adds there.
    #[must_use]
    pub fn new(
        snapshot: &Snapshot<'a>,
        entry: &'a PodEntry,
        needs_affinity: bool,
        needs_service_pods: bool,
        nominated: &[usize],
    ) -> Self {
        let volume_claims = PodClaims::new(Version::Legacy, &snapshot.cluster.storage, &entry.pod);
        let cluster = snapshot.cluster;
        let pod = &entry.pod;
        let services = pod_services(&cluster.services, pod);
        // Only read when a service selects the pod (`checkServiceAffinity`).
        let service_pods = if needs_service_pods && !services.is_empty() {
            check_service_affinity::matching_pods(snapshot, pod, nominated)
        } else {
            Vec::new()
        };
        let affinity = if needs_affinity {
            match_inter_pod_affinity::Metadata::new(snapshot, pod, nominated)
        } else {
            match_inter_pod_affinity::Metadata::default()
        };
        Self {
            entry,
            request: snapshot.accounting.request(entry),
            services,
            service_pods,
            nominated: nominated.to_vec(),
            affinity,
            affinity_scores: core::cell::OnceCell::new(),
            cluster,
            volume_claims,
        }
    }

    /// InterPodAffinityPriority's sums over the snapshot's placed pods, counted the first
    /// time.
    pub fn affinity_scores(
        &self,
        snapshot: &Snapshot<'_>,
        hard_weight: i64,
    ) -> &super::priorities::interpod_affinity::State<'a> {
        self.affinity_scores.get_or_init(|| {
            super::priorities::interpod_affinity::State::new(
                snapshot,
                self.cluster,
                &self.entry.pod,
                hard_weight,
            )
        })
    }

    /// Follows another pod joining (`joined`) or leaving a node, for the inter-pod
    /// affinity state (the predicate's metadata when `predicate`, and the priority's sums
    /// once made); `None` when the pod or node is unknown.
    pub fn follow(
        &mut self,
        change: super::snapshot::Change,
        predicate: bool,
    ) -> Option<super::Reach> {
        let existing = &self.cluster.pods.get(change.pod)?.pod;
        let node = self.cluster.nodes.get(change.node)?;
        let pod = &self.entry.pod;
        let mut reach = super::Reach::default();
        if predicate {
            reach.extend(self.affinity.follow(existing, node, pod, change.joined));
        }
        if let Some(state) = self.affinity_scores.get_mut() {
            reach.extend(state.follow(existing, node, change.joined));
        }
        Some(reach)
    }

    /// The pod object.
    #[must_use]
    pub fn pod(&self) -> &'a PodObject {
        &self.entry.pod
    }

    /// True for BestEffort pods as 1.11's `GetPodQOS` classes them: no regular container
    /// asks for or limits cpu or memory (init containers count only from 1.15 on).
    #[must_use]
    pub fn best_effort(&self) -> bool {
        self.entry.pod.spec.containers.iter().all(|container| {
            let resources = &container.resources;
            [&resources.requests, &resources.limits].iter().all(|list| {
                ["cpu", "memory"].iter().all(|name| {
                    list.get(*name)
                        .is_none_or(|quantity| quantity.is_zero() || quantity.is_negative())
                })
            })
        })
    }
}

/// `GetPodServices`: services in the pod's namespace whose (non-empty) selector matches
/// its labels; a service without a selector selects nothing.
#[must_use]
pub fn pod_services<'s>(services: &'s [Service], pod: &PodObject) -> Vec<&'s Service> {
    services
        .iter()
        .filter(|service| {
            service.metadata.namespace == pod.metadata.namespace
                && !service.spec.selector.is_empty()
                && labels::map_matches(&service.spec.selector, &pod.metadata.labels)
        })
        .collect()
}

/// `NodesHaveSameTopologyKey`: both nodes carry the (non-empty) key with equal values.
#[must_use]
pub fn same_topology(a: &Node, b: &Node, key: &str) -> bool {
    if key.is_empty() {
        return false;
    }
    match (a.metadata.labels.get(key), b.metadata.labels.get(key)) {
        (Some(left), Some(right)) => left == right,
        _ => false,
    }
}

/// `PodMatchesTermsNamespaceAndSelector`: `target` is in the term's namespaces (the
/// defining pod's namespace when the term lists none) and matches its selector (a missing
/// selector matches nothing).
#[must_use]
pub fn term_matches(term: &PodAffinityTerm, defining: &PodObject, target: &PodObject) -> bool {
    let in_namespace = if term.namespaces.is_empty() {
        defining.metadata.namespace == target.metadata.namespace
    } else {
        term.namespaces.contains(&target.metadata.namespace)
    };
    in_namespace
        && term
            .label_selector
            .as_ref()
            .is_some_and(|selector| labels::selector_matches(selector, &target.metadata.labels))
}

/// The error 1.11 meets turning a term's selector into a `labels.Selector`
/// ([`labels::legacy_selector_error`]); `None` when it parses.
#[must_use]
pub fn term_error(term: &PodAffinityTerm) -> Option<String> {
    labels::legacy_selector_error(term.label_selector.as_ref())
}

/// Runs one predicate for the pod on a node.
#[must_use]
pub fn evaluate(
    kind: &PredicateKind,
    pod: &Pod<'_>,
    snapshot: &Snapshot<'_>,
    info: &NodeInfo<'_>,
) -> Status {
    let object = pod.pod();
    match kind {
        PredicateKind::CheckNodeCondition => check_node_condition::predicate(info.node),
        PredicateKind::GeneralPredicates => general_predicates::predicate(pod, info),
        PredicateKind::HostName => host_name::predicate(object, info.node),
        PredicateKind::PodFitsHostPorts => pod_fits_host_ports::predicate(object, info),
        PredicateKind::MatchNodeSelector => match_node_selector::predicate(object, info.node),
        PredicateKind::PodFitsResources => verdict(pod_fits_resources::insufficient(
            &pod.request.requested,
            info,
        )),
        PredicateKind::NoDiskConflict => no_disk_conflict::predicate(object, snapshot, info),
        PredicateKind::PodToleratesNodeTaints => {
            pod_tolerates_node_taints::predicate(object, info.node, false)
        }
        PredicateKind::PodToleratesNodeNoExecuteTaints => {
            pod_tolerates_node_taints::predicate(object, info.node, true)
        }
        PredicateKind::CheckNodeLabelPresence(argument) => {
            check_node_label_presence::predicate(argument, info.node)
        }
        PredicateKind::CheckServiceAffinity(labels) => {
            check_service_affinity::predicate(labels, pod, snapshot, info.node)
        }
        PredicateKind::MaxEbsVolumeCount => {
            max_volume_count::predicate(max_volume_count::Filter::Ebs, object, snapshot, info)
        }
        PredicateKind::MaxGcePdVolumeCount => {
            max_volume_count::predicate(max_volume_count::Filter::GcePd, object, snapshot, info)
        }
        PredicateKind::MaxAzureDiskVolumeCount => {
            max_volume_count::predicate(max_volume_count::Filter::AzureDisk, object, snapshot, info)
        }
        PredicateKind::MaxCinderVolumeCount => {
            max_volume_count::predicate(max_volume_count::Filter::Cinder, object, snapshot, info)
        }
        PredicateKind::CheckVolumeBinding => {
            check_volume_binding::predicate(&pod.volume_claims, snapshot, info.node)
        }
        PredicateKind::NoVolumeZoneConflict => {
            no_volume_zone_conflict::predicate(object, snapshot.cluster, info.node)
        }
        PredicateKind::CheckNodeMemoryPressure => {
            check_node_memory_pressure::predicate(pod.best_effort(), info.node)
        }
        PredicateKind::CheckNodePidPressure => check_node_pid_pressure::predicate(info.node),
        PredicateKind::CheckNodeDiskPressure => check_node_disk_pressure::predicate(info.node),
        PredicateKind::MatchInterPodAffinity => {
            let taken_off = (snapshot.dry_run_removed.iter())
                .filter_map(|&(victim, _)| snapshot.pod(victim))
                .map(|victim| &*victim.pod);
            match_inter_pod_affinity::predicate(object, &pod.affinity, info.node, taken_off)
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Builders shared by the predicate and priority tests.

    use alloc::string::String;
    use alloc::vec::Vec;

    use crate::cluster::{Cluster, PodEntry, PodState};
    use crate::model::{Container, Node, Pod, ResourceList};
    use crate::quantity::Quantity;

    /// A resource list from `(name, quantity)` pairs.
    pub fn list(pairs: &[(&str, &str)]) -> ResourceList {
        pairs
            .iter()
            .map(|(name, value)| (String::from(*name), Quantity::parse(value).unwrap()))
            .collect()
    }

    /// A node with allocatable cpu (millicores) and memory (bytes), 110 pods.
    pub fn node(name: &str, milli_cpu: i64, memory: i64) -> Node {
        let mut node = Node::default();
        node.metadata.name = name.into();
        let allocatable = list(&[
            ("cpu", &alloc::format!("{milli_cpu}m")),
            ("memory", &alloc::format!("{memory}")),
            ("pods", "110"),
        ]);
        node.status.capacity = allocatable.clone();
        node.status.allocatable = Some(allocatable);
        node
    }

    /// A pod whose containers request `(cpu, memory)` each (`None` leaves it out).
    pub fn pod(name: &str, containers: &[(Option<&str>, Option<&str>)]) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.name = name.into();
        pod.metadata.namespace = "default".into();
        pod.spec.scheduler_name = "default-scheduler".into();
        pod.spec.containers = containers
            .iter()
            .map(|(cpu, memory)| {
                let mut container = Container::default();
                let mut pairs = Vec::new();
                if let Some(cpu) = cpu {
                    pairs.push(("cpu", *cpu));
                }
                if let Some(memory) = memory {
                    pairs.push(("memory", *memory));
                }
                container.resources.requests = list(&pairs);
                container
            })
            .collect();
        pod
    }

    /// A cluster of nodes and pods; pods with a `nodeName` are bound.
    pub fn cluster(nodes: Vec<Node>, pods: Vec<Pod>) -> Cluster {
        let pods = pods
            .into_iter()
            .map(|pod| {
                let state = if pod.spec.node_name.is_empty() {
                    PodState::Pending
                } else {
                    PodState::Bound
                };
                PodEntry::new(pod, state, 0)
            })
            .collect();
        Cluster {
            nodes,
            pods,
            ..Cluster::default()
        }
    }

    /// Places a pod on a node.
    pub fn on(mut pod: Pod, node: &str) -> Pod {
        pod.spec.node_name = node.into();
        pod
    }
}
