//! Pod owners: ReplicaSet, ReplicationController, Deployment, StatefulSet, DaemonSet, Job.

use alloc::string::String;
use serde::{Deserialize, Serialize};

use super::{LabelSelector, ObjectMeta, PodSpec};

/// Which controller a [`Workload`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum WorkloadKind {
    ReplicaSet,
    ReplicationController,
    Deployment,
    StatefulSet,
    DaemonSet,
    Job,
}

impl WorkloadKind {
    /// The API kind.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ReplicaSet => "ReplicaSet",
            Self::ReplicationController => "ReplicationController",
            Self::Deployment => "Deployment",
            Self::StatefulSet => "StatefulSet",
            Self::DaemonSet => "DaemonSet",
            Self::Job => "Job",
        }
    }
}

/// A pod owner. The kinds share the fields kubefit reads, so one shape serves them all.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Workload {
    pub metadata: ObjectMeta,
    pub spec: WorkloadSpec,
    pub status: WorkloadStatus,
}

/// The `spec` fields of pod owners that matter for placement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadSpec {
    /// Desired pods (ReplicaSet, ReplicationController, Deployment, StatefulSet).
    pub replicas: Option<i32>,
    /// Label selector; a ReplicationController writes a plain map, read through `selector_map`.
    #[serde(skip)]
    pub selector: Option<LabelSelector>,
    pub template: PodTemplateSpec,
    /// Job: pods running at once.
    pub parallelism: Option<i32>,
    /// Job: successful pods wanted.
    pub completions: Option<i32>,
    /// Job: `spec.selector` is the user's rather than the one the API server generates.
    pub manual_selector: Option<bool>,
    /// Job: failed pods it tolerates before it fails (6 when absent).
    pub backoff_limit: Option<i32>,
    /// Job: `spec.podFailurePolicy`; only whether there is one is read (it makes the
    /// replacement policy `Failed`).
    pub pod_failure_policy: Option<PodFailurePolicy>,
    /// Job: `TerminatingOrFailed` or `Failed` (the default depends on
    /// `podFailurePolicy`).
    pub pod_replacement_policy: Option<String>,
    /// StatefulSet: `OrderedReady` (the default) or `Parallel`.
    pub pod_management_policy: Option<String>,
    /// StatefulSet: how long a pod is ready before it counts available (none when
    /// absent).
    pub min_ready_seconds: Option<i32>,
}

/// A Job's `spec.podFailurePolicy`, whose rules kubefit does not read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PodFailurePolicy {}

/// The observed `status` of a pod owner.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadStatus {
    pub succeeded: Option<i32>,
    /// Job: the failed pods it counted.
    pub failed: Option<i32>,
}

/// `spec.template`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodTemplateSpec {
    pub metadata: ObjectMeta,
    pub spec: PodSpec,
}
