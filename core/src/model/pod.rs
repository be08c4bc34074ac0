//! `Pod`: containers and their resources, placement constraints, priority and volumes.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::{
    LabelSelector, NodeCondition, NodeSelector, NodeSelectorTerm, ObjectMeta, Present,
    ResourceList, StringMap,
};
use crate::quantity::Quantity;

/// A `v1/Pod`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Pod {
    pub metadata: ObjectMeta,
    pub spec: PodSpec,
    pub status: PodStatus,
}

/// `spec` of a Pod (also the `template.spec` of workloads).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodSpec {
    pub node_name: String,
    pub node_selector: StringMap,
    pub affinity: Option<Affinity>,
    pub tolerations: Vec<Toleration>,
    pub containers: Vec<Container>,
    pub init_containers: Vec<Container>,
    pub overhead: ResourceList,
    /// Pod-level `resources` (the PodLevelResources feature).
    pub resources: Option<ResourceRequirements>,
    pub priority: Option<i32>,
    pub priority_class_name: String,
    pub preemption_policy: Option<String>,
    pub scheduler_name: String,
    pub termination_grace_period_seconds: Option<i64>,
    pub volumes: Vec<Volume>,
    pub host_network: bool,
    pub restart_policy: String,
    pub topology_spread_constraints: Vec<TopologySpreadConstraint>,
    /// Gates that keep the pod out of scheduling while any is left (1.26+, GA in 1.30).
    pub scheduling_gates: Vec<SchedulingGate>,
}

impl PodSpec {
    /// `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`, if set.
    #[must_use]
    pub fn required_node_affinity(&self) -> Option<&NodeSelector> {
        self.affinity
            .as_ref()?
            .node_affinity
            .as_ref()?
            .required_during_scheduling_ignored_during_execution
            .as_ref()
    }
}

/// One of `spec.schedulingGates`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SchedulingGate {
    pub name: String,
}

/// A container (regular, init or sidecar).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Container {
    pub name: String,
    pub image: String,
    pub resources: ResourceRequirements,
    pub ports: Vec<ContainerPort>,
    /// `Always` on an init container makes it a sidecar.
    pub restart_policy: Option<String>,
}

/// `requests` and `limits`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceRequirements {
    pub requests: ResourceList,
    pub limits: ResourceList,
}

/// A container port; `hostPort` makes it a scheduling constraint.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerPort {
    pub name: String,
    pub container_port: i32,
    pub host_port: i32,
    pub protocol: String,
    #[serde(rename = "hostIP")]
    pub host_ip: String,
}

/// A toleration.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Toleration {
    pub key: String,
    pub operator: String,
    pub value: String,
    pub effect: String,
    pub toleration_seconds: Option<i64>,
}

/// `spec.affinity`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Affinity {
    pub node_affinity: Option<NodeAffinity>,
    pub pod_affinity: Option<PodAffinity>,
    pub pod_anti_affinity: Option<PodAntiAffinity>,
}

/// `spec.affinity.nodeAffinity`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeAffinity {
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelector>,
    pub preferred_during_scheduling_ignored_during_execution: Vec<PreferredSchedulingTerm>,
}

/// A weighted node selector term.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PreferredSchedulingTerm {
    pub weight: i32,
    pub preference: NodeSelectorTerm,
}

/// `spec.affinity.podAffinity`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodAffinity {
    pub required_during_scheduling_ignored_during_execution: Vec<PodAffinityTerm>,
    pub preferred_during_scheduling_ignored_during_execution: Vec<WeightedPodAffinityTerm>,
}

/// `spec.affinity.podAntiAffinity`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodAntiAffinity {
    pub required_during_scheduling_ignored_during_execution: Vec<PodAffinityTerm>,
    pub preferred_during_scheduling_ignored_during_execution: Vec<WeightedPodAffinityTerm>,
}

/// A pod (anti-)affinity term.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodAffinityTerm {
    pub label_selector: Option<LabelSelector>,
    pub namespaces: Vec<String>,
    pub namespace_selector: Option<LabelSelector>,
    pub topology_key: String,
    pub match_label_keys: Vec<String>,
    pub mismatch_label_keys: Vec<String>,
}

/// A weighted pod (anti-)affinity term.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WeightedPodAffinityTerm {
    pub weight: i32,
    pub pod_affinity_term: PodAffinityTerm,
}

/// A topology spread constraint.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TopologySpreadConstraint {
    pub max_skew: i32,
    pub topology_key: String,
    pub when_unsatisfiable: String,
    pub label_selector: Option<LabelSelector>,
    pub min_domains: Option<i32>,
    pub node_affinity_policy: Option<String>,
    pub node_taints_policy: Option<String>,
    pub match_label_keys: Vec<String>,
}

/// A volume; only the sources that scheduling and eviction look at are modelled.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Volume {
    pub name: String,
    pub empty_dir: Option<EmptyDirVolumeSource>,
    pub host_path: Option<Present>,
    pub persistent_volume_claim: Option<PersistentVolumeClaimVolumeSource>,
    pub gce_persistent_disk: Option<GcePersistentDiskVolumeSource>,
    pub aws_elastic_block_store: Option<AwsElasticBlockStoreVolumeSource>,
    pub azure_disk: Option<AzureDiskVolumeSource>,
    pub rbd: Option<RbdVolumeSource>,
    pub iscsi: Option<IscsiVolumeSource>,
    pub cinder: Option<CinderVolumeSource>,
    pub ephemeral: Option<Present>,
}

/// `emptyDir`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EmptyDirVolumeSource {
    pub medium: String,
    pub size_limit: Option<Quantity>,
}

/// `persistentVolumeClaim`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeClaimVolumeSource {
    pub claim_name: String,
    pub read_only: bool,
}

/// `gcePersistentDisk`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GcePersistentDiskVolumeSource {
    pub pd_name: String,
    pub read_only: bool,
}

/// `awsElasticBlockStore`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AwsElasticBlockStoreVolumeSource {
    #[serde(rename = "volumeID")]
    pub volume_id: String,
    pub read_only: bool,
}

/// `cinder` (an OpenStack volume).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CinderVolumeSource {
    #[serde(rename = "volumeID")]
    pub volume_id: String,
}

/// `azureDisk`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AzureDiskVolumeSource {
    pub disk_name: String,
    #[serde(rename = "diskURI")]
    pub disk_uri: String,
}

/// `rbd`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RbdVolumeSource {
    pub monitors: Vec<String>,
    pub pool: String,
    pub image: String,
    pub read_only: bool,
}

/// `iscsi`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct IscsiVolumeSource {
    pub target_portal: String,
    pub iqn: String,
    pub lun: i32,
    pub read_only: bool,
}

/// `status` of a Pod.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodStatus {
    pub phase: String,
    pub nominated_node_name: String,
    pub start_time: Option<String>,
    pub qos_class: String,
    /// What kubefit keeps of `conditions`.
    #[serde(skip_serializing)]
    pub conditions: PodConditions,
    /// What kubefit keeps of `containerStatuses` and `initContainerStatuses`
    /// ([`ContainerStatuses`]); decoded apart from the rest of the pod.
    #[serde(skip)]
    pub container_statuses: ContainerStatuses,
}

impl PodStatus {
    /// The status of the container named `name` as 1.34's `PodRequests` finds it
    /// (`k8s.io/component-helpers/resource/helpers.go`, `AggregateContainerRequests`,
    /// which maps names to statuses, `initContainerStatuses` after `containerStatuses`):
    /// the last entry of that name.
    #[must_use]
    pub fn container_status(&self, name: &str) -> Option<&ContainerStatus> {
        self.container_statuses
            .as_slice()
            .iter()
            .rev()
            .find(|status| status.name == name)
    }
}

/// What kubefit keeps of a container status: what the kubelet reports of the container's
/// resources, which 1.34's scheduler counts for a pod on a node while an in-place resize
/// is under way. The status's other fields (state, image, restarts and so on) are
/// skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerStatus {
    pub name: String,
    /// `resources`: what the runtime applied (`None` when absent or null).
    pub resources: Option<StatusResources>,
    /// `allocatedResources`: the requests the kubelet admitted.
    pub allocated_resources: ResourceList,
}

/// `resources` of a container status; its `limits` are not read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StatusResources {
    pub requests: ResourceList,
}

/// A pod's `containerStatuses` then its `initContainerStatuses`, in input order, kept
/// only when they may change what the pod requests (`input/objects.rs` looks first).
/// A cluster dump lists a status for every container of every running pod, and a
/// 1.33+ kubelet reports the resources it applied in each; nearly always they are the
/// spec's, and then nothing is kept. Behind one pointer: a dump's pods are allocated
/// and freed by the hundred thousand, and 48 bytes more in each made decoding 3 %
/// slower.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
// One word in the pod where a `Vec` takes three (and a boxed slice two); the second
// allocation is made only for the few pods with statuses kept.
#[allow(clippy::box_collection)]
pub struct ContainerStatuses(Option<Box<Vec<ContainerStatus>>>);

impl ContainerStatuses {
    /// The statuses kept, in input order.
    #[must_use]
    pub fn as_slice(&self) -> &[ContainerStatus] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl From<Vec<ContainerStatus>> for ContainerStatuses {
    fn from(statuses: Vec<ContainerStatus>) -> Self {
        Self((!statuses.is_empty()).then(|| Box::new(statuses)))
    }
}

/// What kubefit keeps of a pod's `status.conditions`. A pod read back from a cluster
/// lists three or four conditions with reasons and times; kept whole for 150 000 pods
/// they cost decode time and memory, and the taint case's time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PodConditions {
    /// The `Ready` condition's status, which the disruption budgets read.
    pub ready: Readiness,
    /// A `DisruptionTarget` condition, true, for `PreemptionByScheduler`: the scheduler
    /// preempted the pod (`podTerminatingByPreemption`).
    pub preempted_by_scheduler: bool,
    /// A `PodResizePending` condition with reason `Infeasible`: the node cannot give the
    /// pod the resources of its resized spec (`IsPodResizeInfeasible`).
    pub resize_infeasible: bool,
}

/// A pod's `Ready` condition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Readiness {
    /// No `Ready` condition (a manifest rather than a pod read from a cluster).
    #[default]
    Unstated,
    /// `Ready` is `True`.
    Ready,
    /// `Ready` is `False` or `Unknown`.
    NotReady,
}

/// Reads the list as node conditions (a pod condition has the same fields), so that no
/// new deserializer code is made for the playground, and keeps the first condition of
/// each type, as `GetPodReadyCondition`, `podTerminatingByPreemption` and
/// `IsPodResizeInfeasible` find them.
impl<'de> Deserialize<'de> for PodConditions {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let conditions = Vec::<NodeCondition>::deserialize(deserializer)?;
        let first = |type_: &str| conditions.iter().find(|condition| condition.type_ == type_);
        Ok(Self {
            ready: match first("Ready") {
                None => Readiness::Unstated,
                Some(condition) if condition.status == "True" => Readiness::Ready,
                Some(_) => Readiness::NotReady,
            },
            preempted_by_scheduler: first("DisruptionTarget").is_some_and(|condition| {
                condition.status == "True" && condition.reason == "PreemptionByScheduler"
            }),
            resize_infeasible: first("PodResizePending")
                .is_some_and(|condition| condition.reason == "Infeasible"),
        })
    }
}
