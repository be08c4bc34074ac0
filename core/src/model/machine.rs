//! OpenShift Machine API objects: `Machine` and `MachineSet` (`machine.openshift.io/v1beta1`).
//!
//! Follows `machine/v1beta1/types_machine.go` and `types_machineset.go` of `openshift/api`.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::{LabelSelector, ObjectMeta};

/// A `machine.openshift.io/v1beta1` Machine: one cloud instance and the node it backs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Machine {
    pub metadata: ObjectMeta,
    pub spec: MachineSpec,
    pub status: MachineStatus,
}

/// `spec` of a Machine.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSpec {
    pub lifecycle_hooks: LifecycleHooks,
    #[serde(rename = "providerID")]
    pub provider_id: Option<String>,
}

/// Hooks that pause a machine's deletion before the drain and before the instance goes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LifecycleHooks {
    pub pre_drain: Vec<LifecycleHook>,
    pub pre_terminate: Vec<LifecycleHook>,
}

/// One lifecycle hook: its name and the controller that will remove it. Both are required
/// by the CRD, so a missing one (`None`) is told from an empty one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LifecycleHook {
    pub name: Option<String>,
    pub owner: Option<String>,
}

/// `status` of a Machine.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineStatus {
    pub node_ref: Option<NodeReference>,
    pub phase: Option<String>,
    /// Set, even empty, when the machine hit a terminal error.
    pub error_reason: Option<String>,
    /// Set, even empty, with the terminal error's words.
    pub error_message: Option<String>,
    /// The conditions the controllers set (kubefit reads `Drained`).
    pub conditions: Vec<MachineCondition>,
}

/// An entry of a Machine's `status.conditions`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub message: String,
}

/// `status.nodeRef`: the node the machine backs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeReference {
    pub kind: String,
    pub name: String,
}

/// A `machine.openshift.io/v1beta1` MachineSet: keeps `replicas` machines from a template.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSet {
    pub metadata: ObjectMeta,
    pub spec: MachineSetSpec,
}

/// `spec` of a MachineSet.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineSetSpec {
    pub replicas: Option<i32>,
    pub delete_policy: String,
    pub selector: LabelSelector,
    pub template: MachineTemplateSpec,
}

/// `spec.template` of a MachineSet: what each machine it creates starts with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MachineTemplateSpec {
    pub metadata: ObjectMeta,
    pub spec: MachineSpec,
}
