//! The `kubernetes-1.34` profile: the scheduling framework's default plugins, their order
//! and weights, and one pod's cycle through them.
//!
//! Follows `pkg/scheduler/apis/config/v1/default_plugins.go` (the default profile) and
//! `pkg/scheduler/framework/runtime/framework.go` (filters run in order and the first
//! failure decides the node; scores are normalised per plugin, then weighted).

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::plugins::{
    image_locality, inter_pod_affinity, node_affinity, node_name, node_ports,
    node_resources_balanced_allocation, node_resources_fit, node_unschedulable, node_volume_limits,
    pod_topology_spread, taint_toleration, volume_binding, volume_restrictions, volume_zone,
};
use super::snapshot::{pod_host_ports, Change, HostPort, NodeInfo, PodUsage, Snapshot};
use super::status::{Code, Status};
use super::{Cycle, NodeLocalScore, Prepared, Profile, Reach, Reduce, Version};
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
    /// `VolumeRestrictions`.
    VolumeRestrictions,
    /// `NodeVolumeLimits`.
    NodeVolumeLimits,
    /// `VolumeBinding`.
    VolumeBinding,
    /// `VolumeZone`.
    VolumeZone,
    /// `PodTopologySpread`.
    PodTopologySpread,
    /// `InterPodAffinity`.
    InterPodAffinity,
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
            Self::VolumeRestrictions => volume_restrictions::NAME,
            Self::NodeVolumeLimits => node_volume_limits::NAME,
            Self::VolumeBinding => volume_binding::NAME,
            Self::VolumeZone => volume_zone::NAME,
            Self::PodTopologySpread => pod_topology_spread::NAME,
            Self::InterPodAffinity => inter_pod_affinity::NAME,
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
    /// `VolumeBinding`: scores only with the alpha `StorageCapacityScoring` gate, off in
    /// 1.34, so it always skips.
    VolumeBinding,
    /// `PodTopologySpread`.
    PodTopologySpread,
    /// `InterPodAffinity`.
    InterPodAffinity,
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
            Self::VolumeBinding => volume_binding::NAME,
            Self::PodTopologySpread => pod_topology_spread::NAME,
            Self::InterPodAffinity => inter_pod_affinity::NAME,
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
    /// The plugins whose PreFilter runs: an extension point of its own, so a filter may
    /// run without its PreFilter and a PreFilter without its filter.
    pub pre_filters: Vec<FilterPlugin>,
    /// Scores with weights.
    pub scores: Vec<(ScorePlugin, i64)>,
    /// The plugins whose PreScore runs.
    pub pre_scores: Vec<ScorePlugin>,
    /// NodeResourcesFit's `ignoredResources` and `ignoredResourceGroups`.
    pub fit_ignored: node_resources_fit::Ignored,
    /// NodeResourcesFit's scoring strategy.
    pub fit_strategy: node_resources_fit::Strategy,
    /// NodeResourcesFit's scored resources.
    pub fit_resources: Vec<node_resources_fit::ScoredResource>,
    /// NodeResourcesBalancedAllocation's resources.
    pub balanced_resources: Vec<node_resources_fit::ScoredResource>,
    /// PodTopologySpread's constraints for pods without their own.
    pub spread_defaulting: pod_topology_spread::Defaulting,
    /// NodeAffinity's `addedAffinity`.
    pub added_affinity: crate::model::AddedAffinity,
    /// InterPodAffinity's `hardPodAffinityWeight`.
    pub hard_pod_affinity_weight: i32,
    /// InterPodAffinity's `ignorePreferredTermsOfExistingPods`.
    pub ignore_preferred_terms_of_existing_pods: bool,
    /// Which pods carry pod affinity, built once per cluster.
    pub affinity_index: inter_pod_affinity::IndexCache,
    /// `percentageOfNodesToScore` (None = adaptive).
    pub percentage_of_nodes_to_score: Option<i32>,
    /// DefaultPreemption is enabled.
    pub preemption: bool,
    /// DynamicResources is enabled (it is by default in 1.34: DRA is GA). kubefit models
    /// no resource claims, so the plugin only contributes its PostFilter text.
    pub dynamic_resources: bool,
    /// SchedulingGates is enabled (PreEnqueue): pods with scheduling gates wait outside
    /// the queue.
    pub scheduling_gates: bool,
}

/// The filter plugins of the 1.34 default profile, in the order they run (every filter
/// kubefit implements, so also the ones a configuration may enable).
pub const DEFAULT_FILTERS: [FilterPlugin; 12] = [
    FilterPlugin::NodeUnschedulable,
    FilterPlugin::NodeName,
    FilterPlugin::TaintToleration,
    FilterPlugin::NodeAffinity,
    FilterPlugin::NodePorts,
    FilterPlugin::NodeResourcesFit,
    FilterPlugin::VolumeRestrictions,
    FilterPlugin::NodeVolumeLimits,
    FilterPlugin::VolumeBinding,
    FilterPlugin::VolumeZone,
    FilterPlugin::PodTopologySpread,
    FilterPlugin::InterPodAffinity,
];

/// The filter plugins with a PreFilter, in the default profile's order (`plugins/registry.go`
/// and each plugin's file: DynamicResources, whose claims kubefit does not model, aside).
pub const DEFAULT_PRE_FILTERS: [FilterPlugin; 9] = [
    FilterPlugin::NodeAffinity,
    FilterPlugin::NodePorts,
    FilterPlugin::NodeResourcesFit,
    FilterPlugin::VolumeRestrictions,
    FilterPlugin::NodeVolumeLimits,
    FilterPlugin::VolumeBinding,
    FilterPlugin::VolumeZone,
    FilterPlugin::PodTopologySpread,
    FilterPlugin::InterPodAffinity,
];

/// The score plugins with a PreScore, in the default profile's order (ImageLocality has
/// none).
pub const DEFAULT_PRE_SCORES: [ScorePlugin; 7] = [
    ScorePlugin::TaintToleration,
    ScorePlugin::NodeAffinity,
    ScorePlugin::NodeResourcesFit,
    ScorePlugin::VolumeBinding,
    ScorePlugin::PodTopologySpread,
    ScorePlugin::InterPodAffinity,
    ScorePlugin::NodeResourcesBalancedAllocation,
];

/// The score plugins of the 1.34 default profile with their weights, in order.
pub const DEFAULT_SCORES: [(ScorePlugin, i64); 8] = [
    (ScorePlugin::TaintToleration, 3),
    (ScorePlugin::NodeAffinity, 2),
    (ScorePlugin::NodeResourcesFit, 1),
    (ScorePlugin::VolumeBinding, 1),
    (ScorePlugin::PodTopologySpread, 2),
    (ScorePlugin::InterPodAffinity, 2),
    (ScorePlugin::NodeResourcesBalancedAllocation, 1),
    (ScorePlugin::ImageLocality, 1),
];

impl FrameworkProfile {
    /// The default profile of Kubernetes 1.34.
    #[must_use]
    pub fn default_profile(preemption: bool) -> Self {
        Self {
            scheduler_name: DEFAULT_SCHEDULER.into(),
            filters: DEFAULT_FILTERS.to_vec(),
            pre_filters: DEFAULT_PRE_FILTERS.to_vec(),
            scores: DEFAULT_SCORES.to_vec(),
            pre_scores: DEFAULT_PRE_SCORES.to_vec(),
            fit_ignored: node_resources_fit::Ignored::default(),
            fit_strategy: node_resources_fit::Strategy::LeastAllocated,
            fit_resources: node_resources_fit::default_resources(),
            balanced_resources: node_resources_fit::default_resources(),
            spread_defaulting: pod_topology_spread::Defaulting::System,
            added_affinity: crate::model::AddedAffinity::default(),
            hard_pod_affinity_weight: inter_pod_affinity::DEFAULT_HARD_POD_AFFINITY_WEIGHT,
            ignore_preferred_terms_of_existing_pods: false,
            affinity_index: inter_pod_affinity::IndexCache::default(),
            percentage_of_nodes_to_score: None,
            preemption,
            dynamic_resources: true,
            scheduling_gates: true,
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
                        ScorePlugin::InterPodAffinity => Some(alloc::format!(
                            "hardPodAffinityWeight: {}{}",
                            self.hard_pod_affinity_weight,
                            if self.ignore_preferred_terms_of_existing_pods {
                                ", ignorePreferredTermsOfExistingPods: true"
                            } else {
                                ""
                            }
                        )),
                        ScorePlugin::PodTopologySpread => {
                            Some(String::from(match self.spread_defaulting {
                                pod_topology_spread::Defaulting::System => "defaultingType: System",
                                pod_topology_spread::Defaulting::List(_) => "defaultingType: List",
                            }))
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

    fn post_filter_prefix(&self) -> Option<&'static str> {
        self.dynamic_resources
            .then_some("no new claims to deallocate")
    }

    fn holds_gated_pods(&self) -> bool {
        self.scheduling_gates
    }

    fn prepare<'a>(&'a self, snapshot: &Snapshot<'a>, pod: usize) -> Prepared<'a> {
        let Some(entry) = snapshot.pod(pod) else {
            return Prepared::Error(String::from("unknown pod"));
        };
        let mut only = None;
        // The PreFilter narrows the nodes even when the filter is disabled.
        if self.pre_filters.contains(&FilterPlugin::NodeAffinity) {
            match node_affinity::pre_filter(&entry.pod) {
                node_affinity::PreFilter::AllNodes => {}
                node_affinity::PreFilter::Rejected(message) => {
                    return Prepared::Rejected(Status::unresolvable(message));
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
        let volumes = match VolumeStates::pre_filter(self, snapshot, &entry.pod) {
            Ok(volumes) => volumes,
            Err((_, status)) if status.code != Code::Error => return Prepared::Rejected(status),
            Err((plugin, status)) => {
                // `RunPreFilterPlugins` turns any other failure into an error.
                let error = status.reasons.join(", ");
                return Prepared::Error(alloc::format!(
                    "running PreFilter plugin {plugin:?}: {error}"
                ));
            }
        };
        let images = if self
            .scores
            .iter()
            .any(|(score, _)| *score == ScorePlugin::ImageLocality)
        {
            image_locality::PodImages::new(&entry.pod, snapshot.image_table(), snapshot.nodes.len())
        } else {
            image_locality::PodImages::default()
        };
        let uses = |filter: FilterPlugin, score: ScorePlugin| {
            self.filters.contains(&filter) || self.scores.iter().any(|(used, _)| *used == score)
        };
        let affinity_index = if uses(
            FilterPlugin::InterPodAffinity,
            ScorePlugin::InterPodAffinity,
        ) {
            self.affinity_index.get(snapshot.cluster)
        } else {
            alloc::borrow::Cow::Owned(inter_pod_affinity::AffinityIndex::default())
        };
        // Both states serve only their filters, which fail without them.
        let both = |filter: FilterPlugin| {
            self.filters.contains(&filter) && self.pre_filters.contains(&filter)
        };
        let spread = both(FilterPlugin::PodTopologySpread)
            .then(|| {
                pod_topology_spread::PreFilterState::new(
                    snapshot,
                    &self.spread_defaulting,
                    &entry.pod,
                )
            })
            .filter(|state| !state.skips());
        // Kept even when it skips the pod (it then passes every node): the equivalence
        // cache follows binds with it, and a later pod may make it count.
        let affinity = both(FilterPlugin::InterPodAffinity).then(|| {
            inter_pod_affinity::PreFilterState::new(snapshot, &affinity_index, &entry.pod)
        });
        let mut cycle = FrameworkCycle {
            profile: self,
            cluster: snapshot.cluster,
            entry,
            request: snapshot.accounting.request(entry),
            scored: snapshot.accounting.scored(entry),
            host_ports: pod_host_ports(&entry.pod, snapshot.accounting).collect(),
            images,
            required_matches: self
                .filters
                .contains(&FilterPlugin::NodeAffinity)
                .then(|| snapshot.required_matches(&entry.pod))
                .flatten(),
            spread,
            affinity,
            affinity_scores: core::cell::OnceCell::new(),
            affinity_index,
            volumes,
            stateless: self
                .filters
                .iter()
                .copied()
                .filter(|filter| {
                    !self.pre_filters.contains(filter) && missing_state(*filter).is_some()
                })
                .collect(),
            may_reject: Vec::new(),
        };
        cycle.may_reject = self
            .filters
            .iter()
            .copied()
            .enumerate()
            .filter(|&(_, filter)| cycle.may_reject(filter))
            .collect();
        Prepared::Filter {
            cycle: Box::new(cycle),
            only,
        }
    }
}

/// The volume plugins' PreFilter states (`None`: the plugin skips the pod).
struct VolumeStates<'a> {
    restrictions: Option<volume_restrictions::PreFilterState>,
    limits: bool,
    binding: Option<volume_binding::PreFilterState<'a>>,
    /// VolumeZone's state; `Err` is the status its filter gives every node when it worked
    /// the state out without its PreFilter and the pod's claims do not resolve.
    zone: Result<Option<volume_zone::PreFilterState<'a>>, Status>,
}

impl<'a> VolumeStates<'a> {
    /// Runs the enabled volume PreFilters in profile order; the first rejection wins, with
    /// the plugin that made it. A PreFilter runs whether or not its filter does
    /// (`runtime/framework.go` builds each extension point on its own).
    fn pre_filter(
        profile: &FrameworkProfile,
        snapshot: &Snapshot<'a>,
        pod: &'a crate::model::Pod,
    ) -> Result<Self, (&'static str, Status)> {
        let enabled = |plugin: FilterPlugin| profile.pre_filters.contains(&plugin);
        let filters = |plugin: FilterPlugin| profile.filters.contains(&plugin);
        let storage = &snapshot.cluster.storage;
        let restrictions = if enabled(FilterPlugin::VolumeRestrictions) {
            volume_restrictions::pre_filter(snapshot, pod)
                .map_err(|status| (volume_restrictions::NAME, status))?
        } else {
            None
        };
        // Without its PreFilter (which only skips) the filter looks at every pod.
        let limits = filters(FilterPlugin::NodeVolumeLimits)
            && (!enabled(FilterPlugin::NodeVolumeLimits) || node_volume_limits::pre_filter(pod));
        let binding = if enabled(FilterPlugin::VolumeBinding) {
            volume_binding::pre_filter(storage, pod)
                .map_err(|status| (volume_binding::NAME, status))?
        } else {
            None
        };
        let zone = if enabled(FilterPlugin::VolumeZone) {
            Ok(volume_zone::pre_filter(storage, pod)
                .map_err(|status| (volume_zone::NAME, status))?)
        } else if filters(FilterPlugin::VolumeZone) {
            // The filter works the claims out itself (`VolumeZone.Filter`), with the
            // status the PreFilter would have given.
            volume_zone::pre_filter(storage, pod)
        } else {
            Ok(None)
        };
        Ok(Self {
            restrictions,
            limits,
            binding,
            zone,
        })
    }
}

/// One pod's pass through the framework.
struct FrameworkCycle<'a> {
    profile: &'a FrameworkProfile,
    /// The snapshot's cluster.
    cluster: &'a crate::cluster::Cluster,
    entry: &'a PodEntry,
    /// What the pod asks the fit filter for.
    request: PodUsage,
    /// What it counts for in the scores, where that differs
    /// ([`super::snapshot::Accounting::scored`]).
    scored: Option<PodUsage>,
    /// The host ports the pod asks for (NodePorts).
    host_ports: Vec<HostPort>,
    /// ImageLocality's view of the pod's images.
    images: image_locality::PodImages,
    /// NodeAffinity's filter verdicts for the pod's selector and terms (`None`: it has
    /// neither, or the filter is not enabled).
    required_matches: Option<Rc<node_affinity::RequiredMatches>>,
    /// PodTopologySpread's PreFilter state (`None`: Skip).
    spread: Option<pod_topology_spread::PreFilterState<'a>>,
    /// InterPodAffinity's PreFilter state (`None`: the filter or its PreFilter is not
    /// enabled).
    affinity: Option<inter_pod_affinity::PreFilterState<'a>>,
    /// InterPodAffinity's PreScore state, made when first needed.
    affinity_scores: core::cell::OnceCell<inter_pod_affinity::PreScoreState<'a>>,
    affinity_index: alloc::borrow::Cow<'a, inter_pod_affinity::AffinityIndex>,
    /// The volume plugins' PreFilter states.
    volumes: VolumeStates<'a>,
    /// The profile's filters that read a PreFilter state the profile does not make: they
    /// fail with an error ([`missing_state`]).
    stateless: Vec<FilterPlugin>,
    /// The profile's filters that may reject a node for this pod, in order, each with its
    /// position among the profile's filters: the others pass every node (no state, no
    /// host port, no `nodeName`), so the first failure is looked for among these alone.
    may_reject: Vec<(usize, FilterPlugin)>,
}

impl<'a> FrameworkCycle<'a> {
    /// What the pod counts for in NodeResourcesFit's and BalancedAllocation's scores.
    fn scored(&self) -> &PodUsage {
        self.scored.as_ref().unwrap_or(&self.request)
    }

    /// InterPodAffinity's PreScore state, counted over the snapshot's pods the first time.
    fn affinity_scores(&self, snapshot: &Snapshot<'_>) -> &inter_pod_affinity::PreScoreState<'a> {
        self.affinity_scores.get_or_init(|| {
            inter_pod_affinity::PreScoreState::new(
                snapshot,
                self.cluster,
                &self.affinity_index,
                &self.entry.pod,
                self.profile.hard_pod_affinity_weight,
            )
        })
    }

    /// True when `plugin`'s PreScore runs: without it nothing skips the plugin's scoring.
    fn pre_scores(&self, plugin: ScorePlugin) -> bool {
        self.profile.pre_scores.contains(&plugin)
    }

    /// True if InterPodAffinity's scoring surely skips the pod.
    fn skips_affinity_scoring(&self, snapshot: &Snapshot<'_>) -> bool {
        inter_pod_affinity::skips_scoring(
            snapshot,
            &self.entry.pod,
            self.profile.ignore_preferred_terms_of_existing_pods,
        )
    }

    /// False when `filter` passes every node for this pod, whatever they hold: what
    /// [`FrameworkCycle::run_filter`] answers without looking at the node. (The states
    /// are made once per cycle: following binds changes what they hold, not whether
    /// they exist.)
    fn may_reject(&self, filter: FilterPlugin) -> bool {
        if self.stateless.contains(&filter) {
            return true;
        }
        match filter {
            FilterPlugin::NodeName => !self.entry.pod.spec.node_name.is_empty(),
            FilterPlugin::NodeAffinity => {
                self.required_matches.is_some()
                    || self
                        .profile
                        .added_affinity
                        .required_during_scheduling_ignored_during_execution
                        .is_some()
            }
            FilterPlugin::NodePorts => !self.host_ports.is_empty(),
            FilterPlugin::VolumeRestrictions => self.volumes.restrictions.is_some(),
            FilterPlugin::NodeVolumeLimits => self.volumes.limits,
            FilterPlugin::VolumeBinding => self.volumes.binding.is_some(),
            FilterPlugin::VolumeZone => !matches!(self.volumes.zone, Ok(None)),
            FilterPlugin::PodTopologySpread => self.spread.is_some(),
            FilterPlugin::InterPodAffinity => self.affinity.is_some(),
            FilterPlugin::NodeUnschedulable
            | FilterPlugin::TaintToleration
            | FilterPlugin::NodeResourcesFit => true,
        }
    }

    /// One filter's verdict on one node.
    fn run_filter(
        &self,
        filter: FilterPlugin,
        snapshot: &Snapshot<'_>,
        node: usize,
        info: &NodeInfo<'_>,
    ) -> Status {
        let pod = &self.entry.pod;
        if self.stateless.contains(&filter) {
            if let Some(error) = missing_state(filter) {
                return Status::error(error);
            }
        }
        match filter {
            FilterPlugin::NodeUnschedulable => node_unschedulable::filter(pod, info.node),
            FilterPlugin::NodeName => node_name::filter(pod, info.node),
            FilterPlugin::TaintToleration => taint_toleration::filter(pod, info.node),
            FilterPlugin::NodeAffinity => {
                let added = node_affinity::filter_added(&self.profile.added_affinity, info.node);
                match &self.required_matches {
                    Some(matches) if added.passed() => matches.filter(node, info.node),
                    _ => added,
                }
            }
            FilterPlugin::NodePorts => node_ports::filter(&self.host_ports, info),
            FilterPlugin::NodeResourcesFit => {
                node_resources_fit::filter(&self.request.requested, info, &self.profile.fit_ignored)
            }
            FilterPlugin::VolumeRestrictions => self
                .volumes
                .restrictions
                .as_ref()
                .map_or_else(Status::success, |state| state.filter(pod, snapshot, info)),
            FilterPlugin::NodeVolumeLimits if self.volumes.limits => {
                node_volume_limits::filter(pod, snapshot, info)
            }
            FilterPlugin::NodeVolumeLimits => Status::success(),
            FilterPlugin::VolumeBinding => self
                .volumes
                .binding
                .as_ref()
                .map_or_else(Status::success, |state| state.filter(snapshot, info.node)),
            FilterPlugin::VolumeZone => match &self.volumes.zone {
                Ok(Some(state)) => state.filter(info.node),
                Ok(None) => Status::success(),
                Err(status) => status.clone(),
            },
            FilterPlugin::PodTopologySpread => self
                .spread
                .as_ref()
                .map_or_else(Status::success, |state| state.filter(info.node)),
            FilterPlugin::InterPodAffinity => self
                .affinity
                .as_ref()
                .map_or_else(Status::success, |state| state.filter(info.node)),
        }
    }

    /// The score of a plugin that scores each node on its own, without normalising.
    fn node_value(&self, plugin: ScorePlugin, node: usize, info: &NodeInfo<'_>) -> i64 {
        match plugin {
            ScorePlugin::NodeResourcesFit => node_resources_fit::score(
                &self.profile.fit_strategy,
                &self.profile.fit_resources,
                info,
                self.scored(),
            ),
            ScorePlugin::NodeResourcesBalancedAllocation => {
                node_resources_balanced_allocation::score(
                    &self.profile.balanced_resources,
                    info,
                    self.scored(),
                )
            }
            ScorePlugin::ImageLocality => self.images.score(node),
            _ => 0,
        }
    }
}

impl Cycle for FrameworkCycle<'_> {
    fn skips_filter(&self, filter: &str) -> bool {
        filter == "InterPodAffinity"
            && self
                .affinity
                .as_ref()
                .is_some_and(inter_pod_affinity::PreFilterState::skips)
    }

    fn independent_of_other_pods(&self) -> bool {
        self.spread.is_none()
            && self
                .affinity
                .as_ref()
                .is_none_or(inter_pod_affinity::PreFilterState::skips)
            && self.volumes.restrictions.is_none()
            && self.volumes.binding.is_none()
    }

    fn reads_only_its_spec(&self, snapshot: &Snapshot<'_>) -> bool {
        let pod = &self.entry.pod;
        self.independent_of_other_pods()
            && pod_topology_spread::skips_scoring(snapshot, &self.profile.spread_defaulting, pod)
            && (self.skips_affinity_scoring(snapshot) || self.affinity_scores(snapshot).skips())
    }

    fn follow(&mut self, _snapshot: &Snapshot<'_>, change: Change) -> Option<Reach> {
        if self.spread.is_some()
            || self.volumes.restrictions.is_some()
            || self.volumes.binding.is_some()
        {
            return None;
        }
        let existing = &self.cluster.pods.get(change.pod)?.pod;
        let node = self.cluster.nodes.get(change.node)?;
        let mut reach = Reach::default();
        if let Some(state) = &mut self.affinity {
            reach.extend(state.follow(existing, node, change.joined));
        }
        if let Some(state) = self.affinity_scores.get_mut() {
            reach.extend(state.follow(existing, node, change.joined));
        }
        Some(reach)
    }

    fn filter(&self, snapshot: &Snapshot<'_>, node: usize) -> Vec<(Cow<'static, str>, Status)> {
        let Some(info) = snapshot.nodes.get(node) else {
            return Vec::new();
        };
        self.profile
            .filters
            .iter()
            .map(|filter| {
                (
                    Cow::Borrowed(filter.name()),
                    self.run_filter(*filter, snapshot, node, info),
                )
            })
            .collect()
    }

    fn first_failure(
        &self,
        snapshot: &Snapshot<'_>,
        node: usize,
    ) -> Option<(Cow<'static, str>, Status)> {
        let info = snapshot.nodes.get(node)?;
        self.may_reject.iter().find_map(|&(_, filter)| {
            let status = self.run_filter(filter, snapshot, node, info);
            (!status.passed()).then(|| (Cow::Borrowed(filter.name()), status))
        })
    }

    fn splits(&self) -> bool {
        true
    }

    fn same_node_inputs(&self, other: &PodEntry) -> bool {
        let (a, b) = (&self.entry.pod.spec, &other.pod.spec);
        a.scheduler_name == b.scheduler_name
            && a.node_name == b.node_name
            && a.node_selector == b.node_selector
            && a.affinity == b.affinity
            && a.tolerations == b.tolerations
            && images(a).eq(images(b))
    }

    fn first_failure_at(
        &self,
        snapshot: &Snapshot<'_>,
        node: usize,
        node_only: bool,
        before: usize,
    ) -> Option<(usize, Code)> {
        let info = snapshot.nodes.get(node)?;
        self.may_reject
            .iter()
            .take_while(|&&(position, _)| position < before)
            .filter(|&&(_, filter)| reads_only_the_node(filter) == node_only)
            .find_map(|&(position, filter)| {
                let status = self.run_filter(filter, snapshot, node, info);
                (!status.passed()).then_some((position, status.code))
            })
    }

    fn node_only_score(&self, index: usize) -> bool {
        matches!(
            self.profile.scores.get(index),
            Some((
                ScorePlugin::TaintToleration
                    | ScorePlugin::NodeAffinity
                    | ScorePlugin::ImageLocality,
                _
            ))
        )
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
                    ScorePlugin::NodeResourcesBalancedAllocation
                        if self.pre_scores(*plugin)
                            && node_resources_balanced_allocation::skips(
                                &self.profile.balanced_resources,
                                self.scored(),
                            ) =>
                    {
                        Vec::new()
                    }
                    ScorePlugin::NodeAffinity
                        if self.pre_scores(*plugin)
                            && node_affinity::skips_scoring(pod, &self.profile.added_affinity) =>
                    {
                        Vec::new()
                    }
                    ScorePlugin::VolumeBinding => Vec::new(),
                    ScorePlugin::InterPodAffinity if self.skips_affinity_scoring(snapshot) => {
                        Vec::new()
                    }
                    ScorePlugin::TaintToleration => taint_toleration::scores(
                        pod,
                        infos.iter().map(|info| info.node),
                        MAX_NODE_SCORE,
                    ),
                    ScorePlugin::NodeAffinity => node_affinity::scores(
                        pod,
                        &self.profile.added_affinity,
                        infos.iter().map(|info| info.node),
                        MAX_NODE_SCORE,
                    ),
                    ScorePlugin::NodeResourcesFit
                    | ScorePlugin::NodeResourcesBalancedAllocation
                    | ScorePlugin::ImageLocality => feasible
                        .iter()
                        .filter_map(|&node| {
                            let info = snapshot.nodes.get(node)?;
                            Some(self.node_value(*plugin, node, info))
                        })
                        .collect(),
                    ScorePlugin::PodTopologySpread => pod_topology_spread::scores(
                        snapshot,
                        &self.profile.spread_defaulting,
                        pod,
                        &infos,
                    ),
                    ScorePlugin::InterPodAffinity => self
                        .affinity_scores(snapshot)
                        .scores(&infos.iter().map(|info| info.node).collect::<Vec<_>>()),
                };
                (String::from(plugin.name()), *weight, scores)
            })
            .collect()
    }

    fn score_error(&self, _snapshot: &Snapshot<'_>, _feasible: usize) -> Option<String> {
        // NodeAffinity's is the only PreScore that fails (`RunPreScorePlugins`).
        let pre_score = node_affinity::pre_score_error(&self.entry.pod)
            .filter(|_| self.pre_scores(ScorePlugin::NodeAffinity));
        if let Some(error) = pre_score {
            return Some(alloc::format!(
                "running PreScore plugin {:?}: {error}",
                node_affinity::NAME
            ));
        }
        // Then the first score, in order, that reads a PreScore state never written
        // (`RunScorePlugins` stops at a node's first failing plugin).
        self.profile.scores.iter().find_map(|&(plugin, _)| {
            let error = missing_pre_score(plugin).filter(|_| !self.pre_scores(plugin))?;
            Some(alloc::format!(
                "running Score plugins: plugin {:?} failed with: {error}",
                plugin.name()
            ))
        })
    }

    fn node_local_scores(&self, snapshot: &Snapshot<'_>) -> Option<Vec<NodeLocalScore>> {
        // A failing PreScore takes the full evaluation, which reports the error.
        if self.score_error(snapshot, 2).is_some() {
            return None;
        }
        let pod = &self.entry.pod;
        let normalize = |reverse| Reduce::Normalize {
            max: MAX_NODE_SCORE,
            reverse,
        };
        self.profile
            .scores
            .iter()
            .map(|&(plugin, weight)| {
                let reduce = match plugin {
                    ScorePlugin::TaintToleration => normalize(true),
                    ScorePlugin::NodeAffinity
                        if !self.pre_scores(plugin)
                            || !node_affinity::skips_scoring(pod, &self.profile.added_affinity) =>
                    {
                        normalize(false)
                    }
                    ScorePlugin::NodeResourcesBalancedAllocation
                        if self.pre_scores(plugin)
                            && node_resources_balanced_allocation::skips(
                                &self.profile.balanced_resources,
                                self.scored(),
                            ) =>
                    {
                        Reduce::Skip
                    }
                    ScorePlugin::NodeResourcesFit
                    | ScorePlugin::NodeResourcesBalancedAllocation
                    | ScorePlugin::ImageLocality => Reduce::Identity,
                    ScorePlugin::PodTopologySpread
                        if !pod_topology_spread::skips_scoring(
                            snapshot,
                            &self.profile.spread_defaulting,
                            pod,
                        ) =>
                    {
                        return None;
                    }
                    ScorePlugin::InterPodAffinity
                        if !self.skips_affinity_scoring(snapshot)
                            && !self.affinity_scores(snapshot).skips() =>
                    {
                        Reduce::MinMax {
                            max: MAX_NODE_SCORE,
                            from_zero: false,
                        }
                    }
                    ScorePlugin::NodeAffinity
                    | ScorePlugin::VolumeBinding
                    | ScorePlugin::PodTopologySpread
                    | ScorePlugin::InterPodAffinity => Reduce::Skip,
                };
                Some(NodeLocalScore {
                    name: plugin.name().into(),
                    weight,
                    reduce,
                })
            })
            .collect()
    }

    fn node_local_value(&self, snapshot: &Snapshot<'_>, node: usize, index: usize) -> i64 {
        let (Some(info), Some(&(plugin, _))) =
            (snapshot.nodes.get(node), self.profile.scores.get(index))
        else {
            return 0;
        };
        let pod = &self.entry.pod;
        match plugin {
            ScorePlugin::TaintToleration => taint_toleration::count_intolerable(pod, info.node),
            ScorePlugin::NodeAffinity => {
                node_affinity::preferred_weight(pod, &self.profile.added_affinity, info.node)
            }
            ScorePlugin::InterPodAffinity => self.affinity_scores(snapshot).raw(info.node),
            _ => self.node_value(plugin, node, info),
        }
    }

    fn reserve(&self, snapshot: &mut Snapshot<'_>, node: usize) {
        if let Some(binding) = &self.volumes.binding {
            binding.reserve(snapshot, node);
        }
    }
}

/// The error a filter gives when its PreFilter did not run, for the filters that read the
/// PreFilter's state (`getPreFilterState` in each plugin's file: the key `PreFilter<name>`,
/// and `CycleState.Read`'s `not found`; VolumeBinding returns the read's error bare,
/// VolumeRestrictions its own text). NodeAffinity, NodeVolumeLimits and VolumeZone work
/// the state out again instead. (VolumeRestrictions looks for disk conflicts before it
/// reads its state; kubefit reports the error on those nodes too.)
const fn missing_state(filter: FilterPlugin) -> Option<&'static str> {
    Some(match filter {
        FilterPlugin::NodePorts => "reading \"PreFilterNodePorts\" from cycleState: not found",
        FilterPlugin::NodeResourcesFit => {
            "error reading \"PreFilterNodeResourcesFit\" from cycleState: not found"
        }
        FilterPlugin::VolumeRestrictions => {
            "cannot read \"PreFilterVolumeRestrictions\" from cycleState"
        }
        FilterPlugin::VolumeBinding => "not found",
        FilterPlugin::PodTopologySpread => {
            "reading \"PreFilterPodTopologySpread\" from cycleState: not found"
        }
        FilterPlugin::InterPodAffinity => {
            "error reading \"PreFilterInterPodAffinity\" from cycleState: not found"
        }
        FilterPlugin::NodeUnschedulable
        | FilterPlugin::NodeName
        | FilterPlugin::TaintToleration
        | FilterPlugin::NodeAffinity
        | FilterPlugin::NodeVolumeLimits
        | FilterPlugin::VolumeZone => return None,
    })
}

/// The error a score gives when its PreScore did not run, for the scores that read the
/// PreScore's state (`getPreScoreState` in each plugin's file, the key `PreScore<name>`).
/// NodeAffinity, NodeResourcesFit and NodeResourcesBalancedAllocation work the state out
/// again instead, and VolumeBinding scores nothing while `StorageCapacityScoring` is off.
const fn missing_pre_score(score: ScorePlugin) -> Option<&'static str> {
    Some(match score {
        ScorePlugin::TaintToleration => {
            "failed to read \"PreScoreTaintToleration\" from cycleState: not found"
        }
        ScorePlugin::PodTopologySpread => {
            "error reading \"PreScorePodTopologySpread\" from cycleState: not found"
        }
        ScorePlugin::InterPodAffinity => {
            "failed to read \"PreScoreInterPodAffinity\" from cycleState: not found"
        }
        ScorePlugin::NodeAffinity
        | ScorePlugin::NodeResourcesFit
        | ScorePlugin::VolumeBinding
        | ScorePlugin::NodeResourcesBalancedAllocation
        | ScorePlugin::ImageLocality => return None,
    })
}

/// The images of a pod's init and regular containers, in order (what ImageLocality reads).
fn images(spec: &crate::model::PodSpec) -> impl Iterator<Item = &String> {
    spec.init_containers
        .iter()
        .chain(&spec.containers)
        .map(|container| &container.image)
}

/// True for the filters whose verdict reads nothing but the node and the pod's node
/// inputs ([`Cycle::same_node_inputs`]): its unschedulable flag, name, taints and labels.
const fn reads_only_the_node(filter: FilterPlugin) -> bool {
    matches!(
        filter,
        FilterPlugin::NodeUnschedulable
            | FilterPlugin::NodeName
            | FilterPlugin::TaintToleration
            | FilterPlugin::NodeAffinity
    )
}

#[cfg(test)]
mod tests {
    use crate::schedule::testing::{node, schedule, scores};
    use crate::schedule::Version;
    use alloc::string::String;

    /// The FailedScheduling message of the first pending pod under 1.34.
    fn message(yaml: &str) -> Option<String> {
        schedule(yaml, Version::Current).pods[0].message.clone()
    }

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
        assert_eq!(
            message(&yaml).as_deref(),
            Some("0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.")
        );
    }

    /// Without DefaultPreemption the other PostFilter plugin still speaks
    /// (`RunPostFilterPlugins`): DynamicResources' text ends the message.
    #[test]
    fn without_preemption_the_claims_text_stays() {
        let yaml = String::from(
            "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  plugins:\n    postFilter:\n      disabled: [{name: DefaultPreemption}]\n\
             ---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '1', memory: 8Gi, pods: '110'}}\n",
        ) + &pending(
            "p",
            "  containers: [{name: a, image: x, resources: {requests: {cpu: '2'}}}]",
        );
        assert_eq!(
            message(&yaml).as_deref(),
            Some("0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate")
        );
    }

    /// `PodEligibleToPreemptOthers`: a pod nominated to a node where its victim is still
    /// terminating waits. 1.34 asks for the scheduler's `DisruptionTarget` condition on
    /// the victim; 1.11 takes any terminating lower-priority pod.
    #[test]
    fn a_terminating_victim_on_the_nominated_node_holds_preemption_back() {
        let victim = |condition: &str| {
            alloc::format!(
                "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: victim, namespace: default, deletionTimestamp: '2026-11-29T10:00:00Z'}}\nspec:\n  nodeName: n1\n  containers: [{{name: a, image: x, resources: {{requests: {{cpu: 1500m}}}}}}]\nstatus:\n  phase: Running\n  conditions: [{condition}]\n"
            )
        };
        let yaml = |condition: &str| {
            String::from(
                "---\napiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '2', memory: 8Gi, pods: '110'}}\n",
            ) + &victim(condition)
                + "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  priorityClassName: high\n  containers: [{name: a, image: x, resources: {requests: {cpu: '1'}}}]\nstatus: {nominatedNodeName: n1}\n"
        };
        let preempted = "{type: DisruptionTarget, status: 'True', reason: PreemptionByScheduler}";
        assert_eq!(
            message(&yaml(preempted)).as_deref(),
            Some("0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to a terminating pod on the nominated node.")
        );
        // Deleted for another reason: 1.34 preempts again, 1.11 still waits.
        let other = "{type: Ready, status: 'True'}";
        let result = schedule(&yaml(other), Version::Current);
        assert_eq!(result.pods[0].nominated_node.as_deref(), Some("n1"));
        let result = schedule(&yaml(other), Version::Legacy);
        assert_eq!(result.pods[0].nominated_node, None);
    }

    /// A configuration with `plugins` (flow style) for the default scheduler.
    fn configured(plugins: &str) -> String {
        alloc::format!(
            "---\napiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  plugins: {plugins}\n"
        )
    }

    /// PreFilter is a point of its own (`runtime/framework.go`): with NodeAffinity's
    /// filter disabled its PreFilter still narrows the nodes to the names the pod pins.
    #[test]
    fn a_disabled_filter_keeps_its_pre_filter() {
        let yaml = configured("{filter: {disabled: [{name: NodeAffinity}]}}")
            + &node("n1", 4000, 8_000_000_000, "")
            + &node("n2", 2000, 4_000_000_000, "")
            + &pending(
                "p",
                "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [n2]}]}]\n  containers: [{name: a, image: x}]",
            );
        let result = schedule(&yaml, Version::Current);
        assert_eq!(result.pods[0].node.as_deref(), Some("n2"));
        // The volume PreFilters reject too: a claim that does not exist.
        let yaml = configured("{filter: {disabled: [{name: VolumeRestrictions}, {name: VolumeBinding}, {name: VolumeZone}, {name: NodeVolumeLimits}]}}")
            + &node("n1", 4000, 8_000_000_000, "")
            + &pending(
                "p",
                "  volumes: [{name: d, persistentVolumeClaim: {claimName: missing}}]\n  containers: [{name: a, image: x}]",
            );
        assert_eq!(
            message(&yaml).as_deref(),
            Some("0/1 nodes are available: persistentvolumeclaim \"missing\" not found. not found")
        );
    }

    /// A filter whose PreFilter is disabled fails reading the missing state, and the
    /// attempt fails with the first such error (`RunFilterPlugins`); NodePorts runs
    /// first when every PreFilter is disabled, even for a pod without host ports.
    #[test]
    fn a_filter_without_its_pre_filter_errors() {
        let nodes = node("n1", 4000, 8_000_000_000, "") + &node("n2", 4000, 8_000_000_000, "");
        let pod = pending(
            "p",
            "  containers: [{name: a, image: x, resources: {requests: {cpu: 100m}}}]",
        );
        let yaml =
            configured("{preFilter: {disabled: [{name: NodeResourcesFit}]}}") + &nodes + &pod;
        let result = schedule(&yaml, Version::Current);
        assert_eq!(result.pods[0].node, None);
        assert_eq!(
            result.pods[0].message.as_deref(),
            Some("running \"NodeResourcesFit\" filter plugin: error reading \"PreFilterNodeResourcesFit\" from cycleState: not found")
        );
        let yaml = configured("{preFilter: {disabled: [{name: '*'}]}}") + &nodes + &pod;
        assert_eq!(
            message(&yaml).as_deref(),
            Some("running \"NodePorts\" filter plugin: reading \"PreFilterNodePorts\" from cycleState: not found")
        );
        // NodeAffinity, NodeVolumeLimits and VolumeZone work their state out again.
        let yaml = configured("{preFilter: {disabled: [{name: NodeAffinity}, {name: NodeVolumeLimits}, {name: VolumeZone}]}}") + &nodes + &pod;
        assert!(schedule(&yaml, Version::Current).pods[0].node.is_some());
    }

    /// A score whose PreScore is disabled fails reading the missing state when two or
    /// more nodes are scored (`RunScorePlugins`); NodeResourcesFit works it out again.
    #[test]
    fn a_score_without_its_pre_score_errors() {
        let nodes = node("n1", 4000, 8_000_000_000, "") + &node("n2", 2000, 8_000_000_000, "");
        let pod = pending(
            "p",
            "  containers: [{name: a, image: x, resources: {requests: {cpu: 100m}}}]",
        );
        let yaml = configured("{preScore: {disabled: [{name: '*'}]}}") + &nodes + &pod;
        assert_eq!(
            message(&yaml).as_deref(),
            Some("running Score plugins: plugin \"TaintToleration\" failed with: failed to read \"PreScoreTaintToleration\" from cycleState: not found")
        );
        let yaml = configured("{preScore: {disabled: [{name: NodeResourcesFit}, {name: NodeAffinity}, {name: NodeResourcesBalancedAllocation}]}}") + &nodes + &pod;
        assert_eq!(
            schedule(&yaml, Version::Current).pods[0].node.as_deref(),
            Some("n1")
        );
        // A single feasible node is taken without scoring.
        let yaml = configured("{preScore: {disabled: [{name: '*'}]}}")
            + &node("n1", 4000, 8_000_000_000, "")
            + &pod;
        assert_eq!(
            schedule(&yaml, Version::Current).pods[0].node.as_deref(),
            Some("n1")
        );
    }

    /// `fitsRequest` marks no "Too many pods" unresolvable, even on a node that allows
    /// none: preemption still looks at the node (and finds no victim there).
    #[test]
    fn too_many_pods_leaves_the_node_to_preemption() {
        let yaml = String::from(
            "---\napiVersion: v1\nkind: Node\nmetadata: {name: none}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '0'}}\n",
        ) + &pending(
            "p",
            "  containers: [{name: a, image: x, resources: {requests: {cpu: 100m}}}]",
        );
        assert_eq!(
            message(&yaml).as_deref(),
            Some("0/1 nodes are available: 1 Too many pods. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.")
        );
    }
}
