//! The Kubernetes objects kubefit models, with upstream's field names on the wire.
//!
//! Only the fields that upstream scheduling, eviction and autoscaling read are modelled;
//! everything else in the input is skipped while decoding.

mod descheduler;
mod machine;
mod meta;
mod node;
mod pod;
mod policy;
mod scenario;
mod scheduler;
mod selector;
mod sorted_map;
mod storage;
mod workload;

use alloc::string::String;

pub use descheduler::{
    DeschedulerPolicy, DeschedulerStrategy, NodeResourceUtilizationThresholds, StrategyParameters,
};
pub use machine::{
    LifecycleHook, LifecycleHooks, Machine, MachineCondition, MachineSet, MachineSetSpec,
    MachineSpec, MachineStatus, MachineTemplateSpec, NodeReference,
};
pub use meta::{ObjectMeta, OwnerReference};
pub use node::{ContainerImage, Node, NodeCondition, NodeSpec, NodeStatus, Taint};
pub use pod::{
    Affinity, AwsElasticBlockStoreVolumeSource, AzureDiskVolumeSource, CinderVolumeSource,
    Container, ContainerPort, ContainerStatus, ContainerStatuses, EmptyDirVolumeSource,
    GcePersistentDiskVolumeSource, IscsiVolumeSource, NodeAffinity,
    PersistentVolumeClaimVolumeSource, Pod, PodAffinity, PodAffinityTerm, PodAntiAffinity,
    PodConditions, PodSpec, PodStatus, PreferredSchedulingTerm, RbdVolumeSource, Readiness,
    ResourceRequirements, SchedulingGate, StatusResources, Toleration, TopologySpreadConstraint,
    Volume, WeightedPodAffinityTerm,
};
pub use policy::{
    Namespace, PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus,
    PriorityClass, Service, ServiceSpec,
};
pub use scenario::{
    DrainFields, DrainStep, NodeConditionStep, RemoveHookStep, ScaleMachineSetStep, Scenario,
    ScenarioSpec, Step, TaintFields, TaintStep, TextOr,
};
pub(crate) use scheduler::go_bool;
pub use scheduler::{
    AddedAffinity, AdmissionConfig, AdmissionPluginConfig, AdmissionPluginConfiguration,
    KubeSchedulerConfiguration, KubeSchedulerProfile, LabelPreferenceArgument,
    LabelsPresenceArgument, MasterConfig, PluginArgs, PluginConfig, PluginReference, PluginSet,
    Plugins, Policy, PredicateArgument, PredicatePolicy, PriorityArgument, PriorityPolicy,
    ProjectConfig, RequestedToCapacityRatioArguments, RequestedToCapacityRatioParam, ResourceSpec,
    ScoringStrategy, ServiceAffinityArgument, ServiceAntiAffinityArgument, UtilizationShapePoint,
};
pub use selector::{
    LabelSelector, LabelSelectorRequirement, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm,
};
pub use sorted_map::SortedMap;
pub use storage::{
    CsiDriver, CsiDriverSpec, CsiNode, CsiNodeDriver, CsiNodeSpec, CsiPersistentVolumeSource,
    CsiStorageCapacity, ObjectReference, PersistentVolume, PersistentVolumeClaim,
    PersistentVolumeClaimSpec, PersistentVolumeClaimStatus, PersistentVolumeSpec,
    PersistentVolumeStatus, StorageClass, TopologySelectorLabelRequirement, TopologySelectorTerm,
    VolumeNodeAffinity, VolumeNodeResources, VolumeResourceRequirements,
};
pub use workload::{PodTemplateSpec, Workload, WorkloadKind, WorkloadSpec, WorkloadStatus};

use crate::quantity::Quantity;

/// Labels, annotations and selectors: string keys to string values, sorted by key.
pub type StringMap = SortedMap<String, String>;

/// Resource names to quantities, as in `requests`, `limits`, `capacity` and `allocatable`.
pub type ResourceList = SortedMap<String, Quantity>;

/// An `IntOrString` field such as a PodDisruptionBudget's `minAvailable` (`2` or `"50%"`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum IntOrString {
    /// A number.
    Int(i64),
    /// A string, usually a percentage such as `50%`.
    Str(String),
}

impl<'de> serde::Deserialize<'de> for IntOrString {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IntOrStringVisitor;
        impl serde::de::Visitor<'_> for IntOrStringVisitor {
            type Value = IntOrString;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("an integer or a string")
            }
            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<IntOrString, E> {
                Ok(IntOrString::Int(value))
            }
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<IntOrString, E> {
                i64::try_from(value)
                    .map(IntOrString::Int)
                    .map_err(|_| E::custom("the number is too large"))
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<IntOrString, E> {
                Ok(IntOrString::Str(value.into()))
            }
        }
        deserializer.deserialize_any(IntOrStringVisitor)
    }
}

/// A field whose presence matters but whose content kubefit does not read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Present;

impl<'de> serde::Deserialize<'de> for Present {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer).map(|_| Present)
    }
}
