//! The descheduler's `DeschedulerPolicy` (`descheduler/v1alpha1`), as OpenShift 3.11 ships it.
//!
//! Follows `pkg/api/v1alpha1/types.go` of `openshift/descheduler` tag `v3.11.0`.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::ObjectMeta;

/// A `descheduler/v1alpha1` DeschedulerPolicy: strategies by name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DeschedulerPolicy {
    pub metadata: ObjectMeta,
    /// Strategies by name (`RemoveDuplicates`, `LowNodeUtilization`, ...).
    pub strategies: BTreeMap<String, DeschedulerStrategy>,
}

/// One strategy's switch, weight and parameters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DeschedulerStrategy {
    pub enabled: bool,
    /// Parsed but not used by the shipped descheduler.
    pub weight: i64,
    pub params: StrategyParameters,
}

/// A strategy's parameters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StrategyParameters {
    pub node_resource_utilization_thresholds: NodeResourceUtilizationThresholds,
    pub node_affinity_type: Vec<String>,
}

/// LowNodeUtilization's thresholds, in percent per resource (`cpu`, `memory`, `pods`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeResourceUtilizationThresholds {
    pub thresholds: BTreeMap<String, f64>,
    /// `None` when absent: upstream tells an absent map from an empty one.
    pub target_thresholds: Option<BTreeMap<String, f64>>,
    pub number_of_nodes: i64,
}
