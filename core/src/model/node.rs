//! `Node`: capacity, allocatable, conditions, taints and images.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::{ObjectMeta, ResourceList};

/// A `v1/Node`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Node {
    pub metadata: ObjectMeta,
    pub spec: NodeSpec,
    pub status: NodeStatus,
}

/// `spec` of a Node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSpec {
    pub unschedulable: bool,
    pub taints: Vec<Taint>,
    #[serde(rename = "providerID")]
    pub provider_id: String,
}

/// A node taint.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Taint {
    pub key: String,
    pub value: String,
    pub effect: String,
    pub time_added: Option<String>,
}

/// `status` of a Node. `allocatable` stays `None` when absent so defaulting can tell.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeStatus {
    pub capacity: ResourceList,
    pub allocatable: Option<ResourceList>,
    pub conditions: Vec<NodeCondition>,
    pub images: Vec<ContainerImage>,
}

/// A node condition such as `Ready` or `MemoryPressure`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeCondition {
    #[serde(rename = "type")]
    pub type_: String,
    pub status: String,
    pub reason: String,
    pub message: String,
    pub last_transition_time: Option<String>,
}

/// An image present on a node, with all its names.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerImage {
    pub names: Vec<String>,
    pub size_bytes: i64,
}

impl Node {
    /// The status of a condition type (`True`, `False`, `Unknown`), if reported.
    #[must_use]
    pub fn condition(&self, type_: &str) -> Option<&str> {
        self.status
            .conditions
            .iter()
            .find(|condition| condition.type_ == type_)
            .map(|condition| condition.status.as_str())
    }

    /// The status of the last condition of a type: the 1.11 scheduler cache keeps the
    /// pressure conditions so, each entry of the type overwriting the one before
    /// (`NodeInfo.SetNode`, `pkg/scheduler/cache/node_info.go`), where the controllers
    /// read the first ([`Node::condition`]).
    #[must_use]
    pub fn last_condition(&self, type_: &str) -> Option<&str> {
        self.status
            .conditions
            .iter()
            .rev()
            .find(|condition| condition.type_ == type_)
            .map(|condition| condition.status.as_str())
    }
}
