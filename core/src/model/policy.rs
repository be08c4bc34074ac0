//! Cluster policy objects: PriorityClass, PodDisruptionBudget, Namespace and Service.

use alloc::string::String;
use serde::{Deserialize, Serialize};

use super::{IntOrString, LabelSelector, ObjectMeta, StringMap};

/// A `scheduling.k8s.io/v1` PriorityClass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PriorityClass {
    pub metadata: ObjectMeta,
    pub value: i32,
    pub global_default: bool,
    pub description: String,
    pub preemption_policy: Option<String>,
}

/// A `policy/v1` PodDisruptionBudget.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudget {
    pub metadata: ObjectMeta,
    pub spec: PodDisruptionBudgetSpec,
    /// `None` when the input has no status (the disruption controller has not run).
    pub status: Option<PodDisruptionBudgetStatus>,
}

/// `spec` of a PodDisruptionBudget.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudgetSpec {
    pub min_available: Option<IntOrString>,
    pub max_unavailable: Option<IntOrString>,
    pub selector: Option<LabelSelector>,
    pub unhealthy_pod_eviction_policy: Option<String>,
}

/// `status` of a PodDisruptionBudget, as the disruption controller last wrote it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudgetStatus {
    pub disruptions_allowed: i32,
    pub current_healthy: i32,
    pub desired_healthy: i32,
    pub expected_pods: i32,
    /// Pods the eviction API let go that the controller has not yet seen deleted, by
    /// name (to the time of the eviction).
    pub disrupted_pods: StringMap,
}

/// A `v1/Namespace` (an OpenShift project); its annotations carry node selectors.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Namespace {
    pub metadata: ObjectMeta,
}

/// A `v1/Service`; its selector drives spreading priorities.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Service {
    pub metadata: ObjectMeta,
    pub spec: ServiceSpec,
}

/// `spec` of a Service.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceSpec {
    pub selector: StringMap,
    #[serde(rename = "type")]
    pub type_: String,
}
