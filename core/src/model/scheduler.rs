//! Scheduler and admission configuration: the Kubernetes 1.11 scheduler `Policy`, the
//! `KubeSchedulerConfiguration` and OpenShift 3.11's `MasterConfig`.
//!
//! Field names follow `pkg/scheduler/api/v1/types.go` (1.11 Policy),
//! `k8s.io/kube-scheduler/config/v1/types.go` (KubeSchedulerConfiguration) and
//! `github.com/openshift/api/config/v1` / origin's `master-config.yaml` (MasterConfig).
//! These objects are configuration files, not API objects: they need no `metadata.name`.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::{
    NodeSelector, ObjectMeta, PreferredSchedulingTerm, StringMap, Toleration,
    TopologySpreadConstraint,
};

/// A 1.11 scheduler `Policy` (`kind: Policy`, `apiVersion: v1`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Policy {
    pub metadata: ObjectMeta,
    /// `None` (absent or `null`) selects the default predicates; `[]` only the mandatory one.
    pub predicates: Option<Vec<PredicatePolicy>>,
    /// `None` selects the default priorities; `[]` none (every node then scores 1).
    pub priorities: Option<Vec<PriorityPolicy>>,
    pub always_check_all_predicates: bool,
    /// 0 keeps the scheduler's default of 1.
    pub hard_pod_affinity_symmetric_weight: i32,
}

/// One predicate of a Policy.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PredicatePolicy {
    pub name: String,
    pub argument: Option<PredicateArgument>,
}

/// The argument of a configurable predicate: exactly one field must be set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PredicateArgument {
    pub service_affinity: Option<ServiceAffinityArgument>,
    pub labels_presence: Option<LabelsPresenceArgument>,
}

/// `serviceAffinity`: pods of a service share these node label values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceAffinityArgument {
    pub labels: Vec<String>,
}

/// `labelsPresence`: nodes must (or must not) carry these labels.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LabelsPresenceArgument {
    pub labels: Vec<String>,
    pub presence: bool,
}

/// One priority of a Policy.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PriorityPolicy {
    pub name: String,
    pub weight: i64,
    pub argument: Option<PriorityArgument>,
}

/// The argument of a configurable priority: exactly one field must be set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PriorityArgument {
    pub service_anti_affinity: Option<ServiceAntiAffinityArgument>,
    pub label_preference: Option<LabelPreferenceArgument>,
    pub requested_to_capacity_ratio_arguments: Option<RequestedToCapacityRatioArguments>,
}

/// `serviceAntiAffinity`: spread a service's pods over the values of a node label.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceAntiAffinityArgument {
    pub label: String,
}

/// `labelPreference`: prefer nodes with (or without) a label.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LabelPreferenceArgument {
    pub label: String,
    pub presence: bool,
}

/// `requestedToCapacityRatioArguments`: the utilisation → score curve. The Policy's key
/// is `shape` (the Go field `UtilizationShape` carries `json:"shape"`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RequestedToCapacityRatioArguments {
    pub shape: Vec<UtilizationShapePoint>,
}

/// A point of a utilisation curve: utilisation 0–100 → score (0–10 in 1.11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct UtilizationShapePoint {
    pub utilization: i32,
    pub score: i32,
}

/// A `kubescheduler.config.k8s.io/v1` KubeSchedulerConfiguration.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct KubeSchedulerConfiguration {
    /// 1.34 reads `kubescheduler.config.k8s.io/v1` alone; empty when not written.
    pub api_version: String,
    pub metadata: ObjectMeta,
    pub profiles: Vec<KubeSchedulerProfile>,
    pub percentage_of_nodes_to_score: Option<i32>,
    /// Defaults to 16; validated only, as kubefit evaluates filters in order.
    pub parallelism: Option<i32>,
    /// Defaults to 1; validated only.
    pub pod_initial_backoff_seconds: Option<i64>,
    /// Defaults to 10; validated only.
    pub pod_max_backoff_seconds: Option<i64>,
}

/// One scheduler profile.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct KubeSchedulerProfile {
    /// `None` (absent or `null`) is `default-scheduler` when the configuration has one
    /// profile (`SetDefaults_KubeSchedulerConfiguration`); `""` is always invalid.
    pub scheduler_name: Option<String>,
    pub percentage_of_nodes_to_score: Option<i32>,
    pub plugins: Option<Plugins>,
    pub plugin_config: Vec<PluginConfig>,
}

/// The plugins enabled and disabled at each extension point.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Plugins {
    pub pre_enqueue: PluginSet,
    pub queue_sort: PluginSet,
    pub pre_filter: PluginSet,
    pub filter: PluginSet,
    pub post_filter: PluginSet,
    pub pre_score: PluginSet,
    pub score: PluginSet,
    pub reserve: PluginSet,
    pub permit: PluginSet,
    pub pre_bind: PluginSet,
    pub bind: PluginSet,
    pub post_bind: PluginSet,
    pub multi_point: PluginSet,
}

/// `enabled` and `disabled` plugins of one extension point (`*` disables every default).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PluginSet {
    pub enabled: Vec<PluginReference>,
    pub disabled: Vec<PluginReference>,
}

/// A plugin named in a plugin set, with its score weight.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PluginReference {
    pub name: String,
    pub weight: Option<i32>,
}

/// `pluginConfig` entry: a plugin's arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PluginConfig {
    pub name: String,
    pub args: PluginArgs,
}

/// The union of the argument fields of the in-tree plugins kubefit models
/// (`NodeResourcesFitArgs`, `NodeResourcesBalancedAllocationArgs`, `PodTopologySpreadArgs`,
/// `InterPodAffinityArgs`, `NodeAffinityArgs`, `DefaultPreemptionArgs`, and the
/// `VolumeBindingArgs` validation reads); each plugin reads its own fields. A union keeps
/// decoding typed (and located) without a free-form value type.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PluginArgs {
    pub scoring_strategy: Option<ScoringStrategy>,
    pub ignored_resources: Vec<String>,
    pub ignored_resource_groups: Vec<String>,
    pub resources: Vec<ResourceSpec>,
    /// `PodTopologySpreadArgs.defaultConstraints`: full constraints, though validation
    /// refuses a `labelSelector` (each pod's owners give it).
    pub default_constraints: Vec<TopologySpreadConstraint>,
    pub defaulting_type: String,
    pub hard_pod_affinity_weight: Option<i32>,
    pub ignore_preferred_terms_of_existing_pods: bool,
    pub added_affinity: Option<AddedAffinity>,
    pub min_candidate_nodes_percentage: Option<i32>,
    pub min_candidate_nodes_absolute: Option<i32>,
    /// `VolumeBindingArgs.bindTimeoutSeconds` (default 600).
    pub bind_timeout_seconds: Option<i64>,
    /// `VolumeBindingArgs.shape`, refused while `StorageCapacityScoring` is off.
    pub shape: Option<Vec<UtilizationShapePoint>>,
}

/// NodeResourcesFit's `scoringStrategy`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ScoringStrategy {
    #[serde(rename = "type")]
    pub type_: String,
    pub resources: Vec<ResourceSpec>,
    pub requested_to_capacity_ratio: Option<RequestedToCapacityRatioParam>,
}

/// A scored resource and its weight.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceSpec {
    pub name: String,
    pub weight: i64,
}

/// `requestedToCapacityRatio.shape` (scores 0–10).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RequestedToCapacityRatioParam {
    pub shape: Vec<UtilizationShapePoint>,
}

/// NodeAffinityArgs' `addedAffinity`: node affinity the profile adds to every pod.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AddedAffinity {
    pub required_during_scheduling_ignored_during_execution: Option<NodeSelector>,
    pub preferred_during_scheduling_ignored_during_execution: Vec<PreferredSchedulingTerm>,
}

/// OpenShift 3.11 `master-config.yaml` (`kind: MasterConfig`): the parts that decide
/// admission before scheduling, and the controllers' arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MasterConfig {
    pub metadata: ObjectMeta,
    pub admission_config: AdmissionConfig,
    pub project_config: ProjectConfig,
    pub kubernetes_master_config: KubernetesMasterConfig,
}

/// `kubernetesMasterConfig`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct KubernetesMasterConfig {
    /// kube-controller-manager's flags, each to its values (`feature-gates`,
    /// `pod-eviction-timeout`, …).
    pub controller_arguments: BTreeMap<String, Vec<String>>,
}

impl MasterConfig {
    /// The controllers' `--feature-gates` turn `gate` on (`Gate=true` among the values'
    /// comma-separated pairs).
    #[must_use]
    pub fn controller_gate(&self, gate: &str) -> bool {
        let arguments = &self.kubernetes_master_config.controller_arguments;
        arguments
            .get("feature-gates")
            .into_iter()
            .flatten()
            .flat_map(|value| value.split(','))
            .filter_map(|pair| pair.split_once('='))
            .fold(false, |on, (name, value)| match name.trim() == gate {
                true => go_bool(value.trim()) == Some(true),
                false => on,
            })
    }

    /// The controllers' flag `flag` as set: OpenShift sets each of its values in turn
    /// (`Apply` in `pkg/cmd/util/flags/flags.go`), so the last one stands.
    #[must_use]
    pub fn controller_argument(&self, flag: &str) -> Option<&str> {
        let arguments = &self.kubernetes_master_config.controller_arguments;
        arguments.get(flag)?.last().map(String::as_str)
    }

    /// The controllers' boolean flag `flag`, if set to a value Go reads as one.
    #[must_use]
    pub fn controller_bool(&self, flag: &str) -> Option<bool> {
        self.controller_argument(flag).and_then(go_bool)
    }
}

/// Go's `strconv.ParseBool`, which boolean flags and feature gates read their values with.
pub(crate) fn go_bool(text: &str) -> Option<bool> {
    match text {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// `admissionConfig`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionConfig {
    /// Admission plugin name (`PodNodeSelector`, `PodNodeConstraints`, …) to its settings.
    pub plugin_config: BTreeMap<String, AdmissionPluginConfig>,
}

/// One admission plugin's settings: inline `configuration`, or a file at `location`
/// (which kubefit cannot read).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionPluginConfig {
    pub location: String,
    pub configuration: AdmissionPluginConfiguration,
}

/// The union of the plugin configurations kubefit models.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AdmissionPluginConfiguration {
    /// PodNodeSelector: `clusterDefaultNodeSelector` and, per namespace, the whitelist.
    pub pod_node_selector_plugin_config: Option<StringMap>,
    /// PodNodeConstraints: node selector labels only `pods/binding` holders may set.
    pub node_selector_label_blacklist: Option<Vec<String>>,
    /// PodTolerationRestriction: the tolerations new pods get where their namespace has
    /// no default tolerations of its own.
    pub default: Option<Vec<Toleration>>,
    /// PodTolerationRestriction: the tolerations pods may have where their namespace has
    /// no whitelist of its own.
    pub whitelist: Option<Vec<Toleration>>,
    /// `DefaultAdmissionConfig`: turns a default-off plugin on (`false`) or a plugin off.
    pub disable: Option<bool>,
}

/// `projectConfig`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ProjectConfig {
    /// The node selector of projects without `openshift.io/node-selector`.
    pub default_node_selector: String,
}
