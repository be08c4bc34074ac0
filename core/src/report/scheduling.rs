//! The scheduling section of the report: where each pending pod goes, and why.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// `report.scheduling`.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Scheduling {
    /// `kubernetes-1.34` or `openshift-3.11`.
    pub profile: String,
    /// The effective configuration.
    pub configuration: Configuration,
    /// One entry per pending pod, in the order the scheduling queue hands them out.
    pub pods: Vec<Placement>,
}

/// The effective scheduler configuration: one entry per scheduler profile.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Configuration {
    /// Where the configuration came from: `default`, or the object that set it.
    pub source: String,
    /// The scheduler profiles (one for `openshift-3.11`).
    pub profiles: Vec<ProfileConfiguration>,
}

/// One scheduler profile.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ProfileConfiguration {
    /// The `schedulerName` pods use to pick this profile.
    pub scheduler_name: String,
    /// Filters (predicates or filter plugins) in the order they run.
    pub filters: Vec<ConfiguredPlugin>,
    /// Scores (priorities or score plugins) with their weights.
    pub scores: Vec<ConfiguredPlugin>,
    /// 1.11: evaluate every predicate even after one fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub always_check_all_predicates: Option<bool>,
    /// 1.34: the share of nodes to find feasible before scoring (0 = adaptive).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub percentage_of_nodes_to_score: Option<i32>,
    /// Whether preemption runs when nothing fits.
    pub preemption: bool,
}

/// A filter or score with its weight and arguments.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ConfiguredPlugin {
    /// The predicate, priority or plugin name.
    pub name: String,
    /// The weight (scores only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub weight: Option<i64>,
    /// Arguments, as `key: value` text.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub args: Option<String>,
}

/// What happened to one pending pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Bound to a node.
    Scheduled,
    /// No node fits and preemption does not help.
    Unschedulable,
    /// No node fits; preemption evicts victims and nominates a node.
    Nominated,
    /// Admission refused the pod.
    Rejected,
    /// No profile serves the pod's `schedulerName`.
    NotHandled,
    /// 1.34: `spec.schedulingGates` keeps the pod out of the scheduling queue (the
    /// SchedulingGates PreEnqueue plugin): it is neither filtered nor bound, and no event
    /// is recorded.
    Gated,
    /// Being deleted (`deletionTimestamp`): the scheduler takes it from the queue and
    /// drops it without a scheduling attempt.
    Skipped,
}

/// One pending pod's placement.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Placement {
    /// `namespace/name`.
    pub pod: String,
    /// The pod's priority.
    pub priority: i32,
    /// What happened.
    pub outcome: Outcome,
    /// The chosen node.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub node: Option<String>,
    /// The `FailedScheduling` event text, admission's refusal, or for a gated pod the
    /// message of the `PodScheduled` condition the API server gives it; null when
    /// scheduled.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub message: Option<String>,
    /// The names of the gates that hold a gated pod, in the order the pod lists them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub scheduling_gates: Vec<String>,
    /// The node preemption nominated.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub nominated_node: Option<String>,
    /// What preemption did.
    #[cfg_attr(feature = "tsify", tsify(type = "Preemption | null"))]
    pub preemption: Option<Preemption>,
    /// 1.34 with node sampling: what the sampled scheduler would choose, when that differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub sampled: Option<Sampled>,
    /// Nodes that tied for the best score (the choice among them is upstream's random or
    /// round-robin tie-break); listed only while the report keeps per-node verdicts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub tied_nodes: Vec<String>,
    /// Per node, in input order: the verdicts and scores.
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, NodeVerdict>"))]
    pub nodes: NodeVerdicts,
    /// True when the report's verdict budget was spent before this pod: `nodes` then
    /// holds only the chosen node (the message still counts every node).
    #[serde(skip_serializing_if = "core::ops::Not::not")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub nodes_omitted: bool,
    /// The `FailedScheduling` message of the pod's first attempt, when a later attempt
    /// ended otherwise: pods placed (or evicted) after it changed the cluster, and the
    /// scheduler tried it again. `message` is the last attempt's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub first_attempt: Option<String>,
}

/// Node name to verdict, serialised as a JSON object in node input order.
#[derive(Clone, Debug, Default)]
pub struct NodeVerdicts(pub Vec<(String, NodeVerdict)>);

impl Serialize for NodeVerdicts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, verdict) in &self.0 {
            map.serialize_entry(name, verdict)?;
        }
        map.end()
    }
}

/// One node's verdict for one pod.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct NodeVerdict {
    /// The reasons upstream records for this node (the ones the message counts).
    pub reasons: Vec<String>,
    /// Every filter's own verdict, in the order they run.
    pub predicates: Vec<PredicateVerdict>,
    /// Scores before weights, by priority or plugin name (scored nodes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional, type = "Record<string, number>"))]
    pub scores: Option<ScoreMap>,
    /// The weighted sum (scored nodes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub total: Option<i64>,
}

/// Score name to score, serialised in configuration order.
#[derive(Clone, Debug, Default)]
pub struct ScoreMap(pub Vec<(String, i64)>);

impl Serialize for ScoreMap {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, score) in &self.0 {
            map.serialize_entry(name, score)?;
        }
        map.end()
    }
}

/// One filter's verdict on one node.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PredicateVerdict {
    /// The predicate or plugin name (borrowed for the built-in ones: a report can hold a
    /// hundred thousand of these).
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub name: Cow<'static, str>,
    /// True if the node passes.
    pub passed: bool,
    /// Why it fails.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub reasons: Vec<String>,
}

/// What the sampled (percentageOfNodesToScore) scheduler would do.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Sampled {
    /// Feasible nodes the sampled scheduler stops at.
    pub nodes_to_find: usize,
    /// Nodes it examined.
    pub examined: usize,
    /// The node it would choose (null if it finds none).
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub node: Option<String>,
}

/// What preemption does for a pod nothing fits.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Preemption {
    /// The node whose victims make room.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub node: Option<String>,
    /// Pods evicted, in upstream's order.
    pub victims: Vec<Victim>,
    /// PodDisruptionBudgets the eviction violates (`namespace/name`).
    pub violated_disruption_budgets: Vec<String>,
    /// Pods whose nomination to that node is cleared (lower priority).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub cleared_nominations: Vec<String>,
    /// Why preemption did not help, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub message: Option<String>,
}

/// A pod preemption evicts.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Victim {
    /// `namespace/name`.
    pub pod: String,
    /// Its priority.
    pub priority: i32,
    /// Its `terminationGracePeriodSeconds`.
    pub grace_period_seconds: i64,
    /// True if evicting it violates a PodDisruptionBudget.
    pub violates_disruption_budget: bool,
}
