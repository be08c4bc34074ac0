//! kubefit's own `Scenario` (`kubefit.dev/v1alpha1`): timed what-if steps on the cluster.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::{ObjectMeta, Present};

/// A `kubefit.dev/v1alpha1` Scenario: steps applied to the cluster over time.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Scenario {
    pub metadata: ObjectMeta,
    pub spec: ScenarioSpec,
}

/// `spec` of a Scenario.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScenarioSpec {
    /// How far to simulate, as a Go duration (`1h` when absent).
    pub horizon: Option<String>,
    pub steps: Vec<Step>,
}

/// One step: when (`at`, a Go duration from the start) and exactly one action.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Step {
    pub at: Option<String>,
    pub taint: Option<TaintStep>,
    pub untaint: Option<TaintStep>,
    pub cordon: Option<String>,
    pub uncordon: Option<String>,
    pub drain: Option<DrainStep>,
    pub node_condition: Option<NodeConditionStep>,
    pub delete_machine: Option<String>,
    pub remove_hook: Option<RemoveHookStep>,
    pub deschedule: Option<Present>,
    pub scale_machine_set: Option<ScaleMachineSetStep>,
}

/// Sets a MachineSet's `spec.replicas`, as `oc scale machineset` does.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScaleMachineSetStep {
    /// `name` or `namespace/name` (namespace `openshift-machine-api` by default).
    pub name: String,
    pub replicas: Option<i32>,
}

/// A taint to add or remove: fields, or `oc adm taint` text such as
/// `node1 key1=value1:NoExecute` (`node1 key1:NoExecute-` to remove).
pub type TaintStep = TextOr<TaintFields>;

/// A drain: a node name (`oc adm drain NODE` with its defaults), or the node and flags.
pub type DrainStep = TextOr<DrainFields>;

/// A step written either as text or as a map of fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum TextOr<T> {
    /// The map form.
    Fields(T),
    /// The text form.
    Text(String),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for TextOr<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextOrVisitor<T>(core::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for TextOrVisitor<T> {
            type Value = TextOr<T>;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("text or a map of fields")
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<TextOr<T>, E> {
                Ok(TextOr::Text(value.into()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<TextOr<T>, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(TextOr::Fields)
            }
        }
        deserializer.deserialize_any(TextOrVisitor(core::marker::PhantomData))
    }
}

/// A taint step written as fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TaintFields {
    pub node: String,
    pub key: String,
    pub value: String,
    pub effect: String,
}

/// Sets a node condition, as the kubelet (or its silence) would.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeConditionStep {
    pub node: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
}

/// Removes a lifecycle hook from a machine, as its owning controller would.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RemoveHookStep {
    pub machine: String,
    /// `preDrain` or `preTerminate`.
    pub phase: String,
    pub name: String,
}

/// A drain step written as fields: the node and `oc adm drain`'s flags.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DrainFields {
    pub node: String,
    /// `--ignore-daemonsets`.
    pub ignore_daemon_sets: bool,
    /// `--delete-emptydir-data` (`deleteEmptyDirData`, as the flag is often spelt, and
    /// `deleteLocalData`, its older name, also read).
    #[serde(alias = "deleteEmptyDirData", alias = "deleteLocalData")]
    pub delete_emptydir_data: bool,
    /// `--force`.
    pub force: bool,
    /// `--timeout`, a Go duration (`0s`: for ever).
    pub timeout: Option<String>,
    /// `--grace-period` in seconds (negative: each pod's own).
    pub grace_period: Option<i64>,
}
