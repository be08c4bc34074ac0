//! The `kubernetes-1.34` profile: the scheduling framework's default plugins, their order
//! and weights, and one pod's cycle through them.
//!
//! Follows `pkg/scheduler/apis/config/v1/default_plugins.go` (the default profile) and
//! `pkg/scheduler/framework/runtime/framework.go` (filters run in order and the first
//! failure decides the node; scores are normalised per plugin, then weighted).

use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::plugins::{
    image_locality, node_affinity, node_name, node_ports, node_resources_balanced_allocation,
    node_resources_fit, node_unschedulable, taint_toleration,
};
use super::snapshot::{PodUsage, Snapshot};
use super::status::Status;
use super::{Cycle, Prepared, Profile, Version};
use crate::cluster::PodEntry;
use crate::report::scheduling::{ConfiguredPlugin, ProfileConfiguration};

/// The highest score a plugin gives (`MaxNodeScore`).
pub const MAX_NODE_SCORE: i64 = 100;

/// The scheduler name pods get by default.
pub const DEFAULT_SCHEDULER: &str = "default-scheduler";

/// A filter plugin of the framework.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterPlugin {
    /// `NodeUnschedulable`.
    NodeUnschedulable,
    /// `NodeName`.
    NodeName,
    /// `TaintToleration`.
    TaintToleration,
    /// `NodeAffinity`.
    NodeAffinity,
    /// `NodePorts`.
    NodePorts,
    /// `NodeResourcesFit`.
    NodeResourcesFit,
}

impl FilterPlugin {
    /// The upstream plugin name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::NodeUnschedulable => node_unschedulable::NAME,
            Self::NodeName => node_name::NAME,
            Self::TaintToleration => taint_toleration::NAME,
            Self::NodeAffinity => node_affinity::NAME,
            Self::NodePorts => node_ports::NAME,
            Self::NodeResourcesFit => node_resources_fit::NAME,
        }
    }
}

/// A score plugin of the framework.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScorePlugin {
    /// `TaintToleration`.
    TaintToleration,
    /// `NodeAffinity`.
    NodeAffinity,
    /// `NodeResourcesFit`.
    NodeResourcesFit,
    /// `NodeResourcesBalancedAllocation`.
    NodeResourcesBalancedAllocation,
    /// `ImageLocality`.
    ImageLocality,
}

impl ScorePlugin {
    /// The upstream plugin name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::TaintToleration => taint_toleration::NAME,
            Self::NodeAffinity => node_affinity::NAME,
            Self::NodeResourcesFit => node_resources_fit::NAME,
            Self::NodeResourcesBalancedAllocation => node_resources_balanced_allocation::NAME,
            Self::ImageLocality => image_locality::NAME,
        }
    }
}

/// One framework profile.
#[derive(Clone, Debug)]
pub struct FrameworkProfile {
    /// `schedulerName`.
    pub scheduler_name: String,
    /// Filters in the order they run.
    pub filters: Vec<FilterPlugin>,
    /// Scores with weights.
    pub scores: Vec<(ScorePlugin, i64)>,
    /// NodeResourcesFit's scoring strategy.
    pub fit_strategy: node_resources_fit::Strategy,
    /// NodeResourcesFit's scored resources.
    pub fit_resources: Vec<node_resources_fit::ScoredResource>,
    /// NodeResourcesBalancedAllocation's resources.
    pub balanced_resources: Vec<node_resources_fit::ScoredResource>,
    /// `percentageOfNodesToScore` (None = adaptive).
    pub percentage_of_nodes_to_score: Option<i32>,
    /// DefaultPreemption is enabled.
    pub preemption: bool,
}

impl FrameworkProfile {
    /// The default profile of Kubernetes 1.34.
    #[must_use]
    pub fn default_profile(preemption: bool) -> Self {
        Self {
            scheduler_name: DEFAULT_SCHEDULER.into(),
            filters: alloc::vec![
                FilterPlugin::NodeUnschedulable,
                FilterPlugin::NodeName,
                FilterPlugin::TaintToleration,
                FilterPlugin::NodeAffinity,
                FilterPlugin::NodePorts,
                FilterPlugin::NodeResourcesFit,
            ],
            scores: alloc::vec![
                (ScorePlugin::TaintToleration, 3),
                (ScorePlugin::NodeAffinity, 2),
                (ScorePlugin::NodeResourcesFit, 1),
                (ScorePlugin::NodeResourcesBalancedAllocation, 1),
                (ScorePlugin::ImageLocality, 1),
            ],
            fit_strategy: node_resources_fit::Strategy::LeastAllocated,
            fit_resources: node_resources_fit::default_resources(),
            balanced_resources: node_resources_fit::default_resources(),
            percentage_of_nodes_to_score: None,
            preemption,
        }
    }
}

impl Profile for FrameworkProfile {
    fn version(&self) -> Version {
        Version::Current
    }

    fn configuration(&self) -> ProfileConfiguration {
        ProfileConfiguration {
            scheduler_name: self.scheduler_name.clone(),
            filters: self
                .filters
                .iter()
                .map(|filter| ConfiguredPlugin {
                    name: filter.name().into(),
                    ..ConfiguredPlugin::default()
                })
                .collect(),
            scores: self
                .scores
                .iter()
                .map(|(score, weight)| ConfiguredPlugin {
                    name: score.name().into(),
                    weight: Some(*weight),
                    args: match score {
                        ScorePlugin::NodeResourcesFit => {
                            Some(alloc::format!("scoringStrategy: {:?}", self.fit_strategy))
                        }
                        _ => None,
                    },
                })
                .collect(),
            always_check_all_predicates: None,
            percentage_of_nodes_to_score: Some(self.percentage_of_nodes_to_score.unwrap_or(0)),
            preemption: self.preemption,
        }
    }

    fn serves(&self, scheduler_name: &str) -> bool {
        scheduler_name == self.scheduler_name
    }

    fn preemption(&self) -> bool {
        self.preemption
    }

    fn percentage_of_nodes_to_score(&self) -> Option<i32> {
        self.percentage_of_nodes_to_score
    }

    fn prepare<'a>(&'a self, snapshot: &Snapshot<'a>, pod: usize) -> Prepared<'a> {
        let Some(entry) = snapshot.pod(pod) else {
            return Prepared::Rejected(String::from("unknown pod"));
        };
        let mut only = None;
        if self.filters.contains(&FilterPlugin::NodeAffinity) {
            match node_affinity::pre_filter(&entry.pod) {
                node_affinity::PreFilter::AllNodes => {}
                node_affinity::PreFilter::Rejected(message) => {
                    return Prepared::Rejected(message.into());
                }
                node_affinity::PreFilter::Only(names) => {
                    let allowed = snapshot
                        .nodes
                        .iter()
                        .map(|info| names.contains(info.name()))
                        .collect();
                    only = Some((allowed, alloc::vec![node_affinity::NAME]));
                }
            }
        }
        let image_spread = if self
            .scores
            .iter()
            .any(|(score, _)| *score == ScorePlugin::ImageLocality)
        {
            image_locality::image_spread(&snapshot.cluster.nodes)
        } else {
            BTreeMap::new()
        };
        Prepared::Filter {
            cycle: Box::new(FrameworkCycle {
                profile: self,
                entry,
                request: snapshot.accounting.request(entry),
                image_spread,
            }),
            only,
        }
    }
}

/// One pod's pass through the framework.
struct FrameworkCycle<'a> {
    profile: &'a FrameworkProfile,
    entry: &'a PodEntry,
    request: PodUsage,
    image_spread: BTreeMap<String, usize>,
}

impl Cycle for FrameworkCycle<'_> {
    fn filter(&self, snapshot: &Snapshot<'_>, node: usize) -> Vec<(&'static str, Status)> {
        let Some(info) = snapshot.nodes.get(node) else {
            return Vec::new();
        };
        let pod = &self.entry.pod;
        self.profile
            .filters
            .iter()
            .map(|filter| {
                let status = match filter {
                    FilterPlugin::NodeUnschedulable => node_unschedulable::filter(pod, info.node),
                    FilterPlugin::NodeName => node_name::filter(pod, info.node),
                    FilterPlugin::TaintToleration => taint_toleration::filter(pod, info.node),
                    FilterPlugin::NodeAffinity => node_affinity::filter(pod, info.node),
                    FilterPlugin::NodePorts => node_ports::filter(pod, info),
                    FilterPlugin::NodeResourcesFit => {
                        node_resources_fit::filter(&self.request.requested, info)
                    }
                };
                (filter.name(), status)
            })
            .collect()
    }

    fn score(&self, snapshot: &Snapshot<'_>, feasible: &[usize]) -> Vec<(String, i64, Vec<i64>)> {
        let pod = &self.entry.pod;
        let infos: Vec<_> = feasible
            .iter()
            .filter_map(|&node| snapshot.nodes.get(node))
            .collect();
        self.profile
            .scores
            .iter()
            .map(|(plugin, weight)| {
                let scores = match plugin {
                    ScorePlugin::TaintToleration => taint_toleration::scores(
                        pod,
                        infos.iter().map(|info| info.node),
                        MAX_NODE_SCORE,
                    ),
                    ScorePlugin::NodeAffinity => node_affinity::scores(
                        pod,
                        infos.iter().map(|info| info.node),
                        MAX_NODE_SCORE,
                    ),
                    ScorePlugin::NodeResourcesFit => infos
                        .iter()
                        .map(|info| {
                            node_resources_fit::score(
                                &self.profile.fit_strategy,
                                &self.profile.fit_resources,
                                info,
                                &self.request,
                            )
                        })
                        .collect(),
                    ScorePlugin::NodeResourcesBalancedAllocation => infos
                        .iter()
                        .map(|info| {
                            node_resources_balanced_allocation::score(
                                &self.profile.balanced_resources,
                                info,
                                &self.request,
                            )
                        })
                        .collect(),
                    ScorePlugin::ImageLocality => infos
                        .iter()
                        .map(|info| {
                            image_locality::score(
                                pod,
                                info.node,
                                &self.image_spread,
                                snapshot.nodes.len(),
                            )
                        })
                        .collect(),
                };
                (String::from(plugin.name()), *weight, scores)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::schedule::testing::{node, schedule, scores};
    use crate::schedule::Version;
    use alloc::string::String;

    fn pending(name: &str, spec: &str) -> String {
        alloc::format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec:\n{spec}\n"
        )
    }

    const CPU_AND_MEMORY: &str = "  containers:\n  - {name: a, image: x, resources: {requests: {cpu: 1000m, memory: \"2000\"}}}\n  - {name: b, image: x, resources: {requests: {cpu: 2000m, memory: \"3000\"}}}";

    /// least_allocated_test.go / balanced_allocation_test.go, "nothing scheduled,
    /// resources requested, differently sized nodes" on the 0–100 scale.
    #[test]
    fn resource_scores_follow_the_upstream_tables() {
        let yaml = node("node1", 4000, 10000, "")
            + &node("node2", 6000, 10000, "")
            + &pending("p", CPU_AND_MEMORY);
        let result = schedule(&yaml, Version::Current);
        let placement = &result.pods[0];
        assert_eq!(
            scores(placement, "NodeResourcesFit"),
            [("node1".into(), 37), ("node2".into(), 50)]
        );
        assert_eq!(
            scores(placement, "NodeResourcesBalancedAllocation"),
            [("node1".into(), 87), ("node2".into(), 100)]
        );
        assert_eq!(placement.node.as_deref(), Some("node2"));
    }

    /// taint_toleration_test.go: the node with fewer intolerable PreferNoSchedule taints
    /// scores higher; NoSchedule taints are ignored by the score.
    #[test]
    fn taint_toleration_scores_count_prefer_no_schedule_taints() {
        let taints = |list: &str| alloc::format!("spec:\n  taints: [{list}]");
        let yaml = node("a", 4000, 10000, "")
            + &node("b", 4000, 10000, &taints("{key: cpu-type, value: arm64, effect: PreferNoSchedule}"))
            + &node(
                "c",
                4000,
                10000,
                &taints("{key: cpu-type, value: arm64, effect: PreferNoSchedule}, {key: disk-type, value: ssd, effect: PreferNoSchedule}"),
            )
            + &pending(
                "p",
                "  tolerations: [{key: foo, operator: Equal, value: bar, effect: PreferNoSchedule}]\n  containers: [{name: a, image: x}]",
            );
        let result = schedule(&yaml, Version::Current);
        assert_eq!(
            scores(&result.pods[0], "TaintToleration"),
            [("a".into(), 100), ("b".into(), 50), ("c".into(), 0)]
        );
    }

    /// node_affinity_test.go: weights 2, 4 and 5 (the last needs three labels).
    #[test]
    fn node_affinity_scores_normalise_preferred_weights() {
        let labels = |pairs: &str| alloc::format!("metadata: {{labels: {{{pairs}}}}}");
        let _ = labels;
        let yaml = String::from(
            "---\napiVersion: v1\nkind: Node\nmetadata: {name: m1, labels: {foo: bar}}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n\
             ---\napiVersion: v1\nkind: Node\nmetadata: {name: m5, labels: {foo: bar, key: value, az: az1}}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n\
             ---\napiVersion: v1\nkind: Node\nmetadata: {name: m2, labels: {key: value}}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n",
        ) + &pending(
            "p",
            "  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n      - {weight: 2, preference: {matchExpressions: [{key: foo, operator: In, values: [bar]}]}}\n      - {weight: 4, preference: {matchExpressions: [{key: key, operator: In, values: [value]}]}}\n      - {weight: 5, preference: {matchExpressions: [{key: foo, operator: In, values: [bar]}, {key: key, operator: In, values: [value]}, {key: az, operator: In, values: [az1]}]}}\n  containers: [{name: a, image: x}]",
        );
        let result = schedule(&yaml, Version::Current);
        assert_eq!(
            scores(&result.pods[0], "NodeAffinity"),
            [("m1".into(), 18), ("m5".into(), 100), ("m2".into(), 36)]
        );
    }

    /// fit_test.go: pods, cpu and memory reasons together; equal fits; zero requests
    /// still need a pod slot.
    #[test]
    fn fit_reasons_come_in_upstream_order() {
        let yaml = String::from(
            "---\napiVersion: v1\nkind: Node\nmetadata: {name: full}\nstatus: {allocatable: {cpu: 10m, memory: '20', pods: '1'}}\n\
             ---\napiVersion: v1\nkind: Pod\nmetadata: {name: existing, namespace: default}\nspec:\n  nodeName: full\n  containers: [{name: a, image: x, resources: {requests: {cpu: 10m, memory: '20'}}}]\n",
        ) + &pending(
            "p",
            "  containers: [{name: a, image: x, resources: {requests: {cpu: 1m, memory: '1'}}}]",
        );
        let result = schedule(&yaml, Version::Current);
        let placement = &result.pods[0];
        assert_eq!(
            placement.message.as_deref(),
            Some("0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod..")
        );
    }
}
