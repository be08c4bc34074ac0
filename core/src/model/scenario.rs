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
}

/// A taint to add or remove: fields, or `oc adm taint` text such as
/// `node1 key1=value1:NoExecute` (`node1 key1:NoExecute-` to remove).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum TaintStep {
    /// `{node, key, value, effect}`.
    Fields(TaintFields),
    /// `oc adm taint` syntax.
    Text(String),
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

impl<'de> Deserialize<'de> for TaintStep {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TaintStepVisitor;
        impl<'de> serde::de::Visitor<'de> for TaintStepVisitor {
            type Value = TaintStep;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(
                    "a map with `node`, `key`, `value` and `effect`, or `oc adm taint` text",
                )
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<TaintStep, E> {
                Ok(TaintStep::Text(value.into()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<TaintStep, A::Error> {
                TaintFields::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(TaintStep::Fields)
            }
        }
        deserializer.deserialize_any(TaintStepVisitor)
    }
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

/// A drain: a node name (`oc adm drain NODE` with its defaults), or the node and flags.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum DrainStep {
    /// `oc adm drain NODE`.
    Node(String),
    /// `oc adm drain NODE` with flags.
    Fields(DrainFields),
}

/// A drain step written as fields: the node and `oc adm drain`'s flags.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DrainFields {
    pub node: String,
    /// `--ignore-daemonsets`.
    pub ignore_daemon_sets: bool,
    /// `--delete-emptydir-data`.
    pub delete_emptydir_data: bool,
    /// `--force`.
    pub force: bool,
    /// `--timeout`, a Go duration (`0s`: for ever).
    pub timeout: Option<String>,
    /// `--grace-period` in seconds (negative: each pod's own).
    pub grace_period: Option<i64>,
}

impl<'de> Deserialize<'de> for DrainStep {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct DrainStepVisitor;
        impl<'de> serde::de::Visitor<'de> for DrainStepVisitor {
            type Value = DrainStep;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a node name, or a map with `node` and drain flags")
            }
            fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<DrainStep, E> {
                Ok(DrainStep::Node(value.into()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<DrainStep, A::Error> {
                DrainFields::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(DrainStep::Fields)
            }
        }
        deserializer.deserialize_any(DrainStepVisitor)
    }
}
