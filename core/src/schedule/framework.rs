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
