//! The 1.34 profiles a `KubeSchedulerConfiguration` defines: one per `schedulerName`,
//! each the default plugin set with plugins disabled and enabled per extension point,
//! score weights, plugin arguments and `percentageOfNodesToScore`.
//!
//! Follows `pkg/scheduler/apis/config/v1/default_plugins.go` (every default is a
//! MultiPoint plugin; `mergePluginSet`), `pkg/scheduler/framework/runtime/framework.go`
//! (`expandMultiPointPlugins` orders each extension point, `getScoreWeights` weighs the
//! scores) and `v1/defaults.go` (a resource weight of 0 means 1).

use alloc::string::String;
use alloc::vec::Vec;

use super::framework::{
    FilterPlugin, FrameworkProfile, ScorePlugin, DEFAULT_FILTERS, DEFAULT_PRE_FILTERS,
    DEFAULT_PRE_SCORES, DEFAULT_SCORES,
};
use super::plugins::node_resources_fit::{Ignored, Resource, ScoredResource, Strategy};
use super::plugins::pod_topology_spread::Defaulting;
use crate::model::{KubeSchedulerConfiguration, PluginReference, PluginSet, ResourceSpec};

/// The plugins of one extension point in the order they run, with their score weights.
/// `defaults` are kubefit's plugins of the point with their default weights, in the
/// order the default MultiPoint set lists them.
///
/// First the MultiPoint set as `mergePluginSet` (`v1/default_plugins.go`) builds it: the
/// defaults it does not disable (none after a disabled `*`), a re-enabled default taking
/// the new entry in its place, then every other enabled plugin. Then the point as
/// `expandMultiPointPlugins` (`runtime/framework.go`) fills it: a point that disables `*`
/// runs only its own `enabled` list; otherwise the MultiPoint plugins the point disables
/// drop out, the ones it also enables ("overrides") come first in the point's order, then
/// the other MultiPoint plugins, then the rest of the point's list. Weights follow
/// `getScoreWeights`: the point's entry wins over the MultiPoint one, and 0 or unset is 1.
fn expand<'s, T: Copy + PartialEq>(
    defaults: &[(T, Option<i64>)],
    name: impl Fn(T) -> &'static str,
    multi_point: &'s PluginSet,
    point: &'s PluginSet,
) -> Vec<(T, i64)> {
    let find = |plugins: &[PluginReference], wanted: &str| {
        plugins.iter().any(|plugin| plugin.name == wanted)
    };
    let entry = |plugin: &'s PluginReference| (plugin.name.as_str(), plugin.weight.map(i64::from));
    let kept =
        |wanted: &str| !find(&multi_point.disabled, "*") && !find(&multi_point.disabled, wanted);
    let ordered: Vec<(&str, Option<i64>)> = if find(&point.disabled, "*") {
        point.enabled.iter().map(entry).collect()
    } else {
        let mut merged: Vec<_> = defaults
            .iter()
            .map(|&(plugin, weight)| (name(plugin), weight))
            .filter(|(default, _)| kept(default))
            .map(|(default, weight)| {
                (multi_point
                    .enabled
                    .iter()
                    .rev()
                    .find(|plugin| plugin.name == default))
                .map_or((default, weight), entry)
            })
            .chain(
                (multi_point.enabled.iter())
                    .filter(|plugin| {
                        !(kept(&plugin.name)
                            && defaults
                                .iter()
                                .any(|&(default, _)| name(default) == plugin.name))
                    })
                    .map(entry),
            )
            .filter(|(merged, _)| !find(&point.disabled, merged))
            .collect();
        let (mut ordered, rest): (Vec<_>, Vec<_>) = (point.enabled.iter().map(entry))
            .partition(|(own, _)| merged.iter().any(|(other, _)| other == own));
        merged.retain(|(merged, _)| !find(&point.enabled, merged));
        ordered.extend(merged);
        ordered.extend(rest);
        ordered
    };
    let mut plugins: Vec<(T, i64)> = Vec::new();
    for (wanted, weight) in ordered {
        // Validation refuses unknown names and plugins named twice; upstream plugins
        // kubefit does not run at this point drop out.
        let plugin = defaults
            .iter()
            .map(|&(plugin, _)| plugin)
            .find(|&p| name(p) == wanted);
        if let Some(plugin) = plugin.filter(|p| plugins.iter().all(|(other, _)| other != p)) {
            plugins.push((plugin, weight.filter(|&w| w != 0).unwrap_or(1)));
        }
    }
    plugins
}

fn scored_resources(specs: &[ResourceSpec]) -> Vec<ScoredResource> {
    specs
        .iter()
        .map(|spec| ScoredResource {
            resource: Resource::named(&spec.name),
            weight: if spec.weight == 0 { 1 } else { spec.weight },
        })
        .collect()
}

/// The profiles of a configuration (the default profile when it lists none).
#[must_use]
pub fn framework_profiles(
    configuration: &KubeSchedulerConfiguration,
    preemption: bool,
) -> Vec<FrameworkProfile> {
    if configuration.profiles.is_empty() {
        let mut profile = FrameworkProfile::default_profile(preemption);
        profile.percentage_of_nodes_to_score = configuration.percentage_of_nodes_to_score;
        return alloc::vec![profile];
    }
    configuration
        .profiles
        .iter()
        .map(|given| {
            let mut profile = FrameworkProfile::default_profile(preemption);
            // An absent name is the default profile's (validation refuses it beside
            // other profiles).
            if let Some(name) = &given.scheduler_name {
                profile.scheduler_name.clone_from(name);
            }
            profile.percentage_of_nodes_to_score = given
                .percentage_of_nodes_to_score
                .or(configuration.percentage_of_nodes_to_score);
            if let Some(plugins) = &given.plugins {
                let multi_point = &plugins.multi_point;
                let filters = DEFAULT_FILTERS.map(|filter| (filter, None));
                profile.filters =
                    expand(&filters, FilterPlugin::name, multi_point, &plugins.filter)
                        .into_iter()
                        .map(|(filter, _)| filter)
                        .collect();
                // PreFilter and PreScore are points of their own: disabling a filter or a
                // score leaves its Pre half running, and the other way round.
                let pre_filters = DEFAULT_PRE_FILTERS.map(|filter| (filter, None));
                profile.pre_filters = expand(
                    &pre_filters,
                    FilterPlugin::name,
                    multi_point,
                    &plugins.pre_filter,
                )
                .into_iter()
                .map(|(filter, _)| filter)
                .collect();
                let scores = DEFAULT_SCORES.map(|(score, weight)| (score, Some(weight)));
                profile.scores = expand(&scores, ScorePlugin::name, multi_point, &plugins.score);
                let pre_scores = DEFAULT_PRE_SCORES.map(|score| (score, None));
                profile.pre_scores = expand(
                    &pre_scores,
                    ScorePlugin::name,
                    multi_point,
                    &plugins.pre_score,
                )
                .into_iter()
                .map(|(score, _)| score)
                .collect();
                // DynamicResources comes before DefaultPreemption (`applyFeatureGates`).
                let post_filters = [("DynamicResources", None), ("DefaultPreemption", None)];
                let post_filters = expand(
                    &post_filters,
                    |name| name,
                    multi_point,
                    &plugins.post_filter,
                );
                let has = |name: &str| post_filters.iter().any(|(other, _)| *other == name);
                profile.preemption = preemption && has("DefaultPreemption");
                profile.dynamic_resources = has("DynamicResources");
                let gates = [("SchedulingGates", None)];
                profile.scheduling_gates =
                    !expand(&gates, |name| name, multi_point, &plugins.pre_enqueue).is_empty();
            }
            for config in &given.plugin_config {
                let args = &config.args;
                match config.name.as_str() {
                    "NodeResourcesFit" => {
                        profile.fit_ignored = Ignored {
                            resources: args.ignored_resources.clone(),
                            groups: args.ignored_resource_groups.clone(),
                        };
                        if let Some(strategy) = &args.scoring_strategy {
                            profile.fit_strategy = match strategy.type_.as_str() {
                                "MostAllocated" => Strategy::MostAllocated,
                                "RequestedToCapacityRatio" => Strategy::RequestedToCapacityRatio(
                                    strategy
                                        .requested_to_capacity_ratio
                                        .iter()
                                        .flat_map(|ratio| ratio.shape.iter())
                                        .map(|point| {
                                            (i64::from(point.utilization), i64::from(point.score))
                                        })
                                        .collect(),
                                ),
                                // LeastAllocated (validation refuses any other type).
                                _ => Strategy::LeastAllocated,
                            };
                            if !strategy.resources.is_empty() {
                                profile.fit_resources = scored_resources(&strategy.resources);
                            }
                        }
                    }
                    "NodeResourcesBalancedAllocation" if !args.resources.is_empty() => {
                        profile.balanced_resources = scored_resources(&args.resources);
                    }
                    // `defaultingType` defaults to System (v1 `SetDefaults_PodTopologySpreadArgs`);
                    // List with no constraints turns default spreading off.
                    "PodTopologySpread" => {
                        profile.spread_defaulting = if args.defaulting_type == "List" {
                            Defaulting::List(args.default_constraints.clone())
                        } else {
                            Defaulting::System
                        };
                    }
                    "NodeAffinity" => {
                        profile.added_affinity = args.added_affinity.clone().unwrap_or_default();
                    }
                    "InterPodAffinity" => {
                        if let Some(weight) = args.hard_pod_affinity_weight {
                            profile.hard_pod_affinity_weight = weight;
                        }
                        profile.ignore_preferred_terms_of_existing_pods =
                            args.ignore_preferred_terms_of_existing_pods;
                    }
                    _ => {}
                }
            }
            profile
        })
        .collect()
}

/// The names of the configured profiles, for the report's configuration source.
#[must_use]
pub fn source(configuration: &KubeSchedulerConfiguration) -> String {
    let name = &configuration.metadata.name;
    if name.is_empty() {
        String::from("KubeSchedulerConfiguration")
    } else {
        alloc::format!("KubeSchedulerConfiguration/{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FilterPlugin as F;
    use ScorePlugin as S;

    fn profile(plugins: serde_json::Value) -> FrameworkProfile {
        let configuration = serde_json::from_value(serde_json::json!({
            "profiles": [{"schedulerName": "custom", "plugins": plugins}]
        }))
        .unwrap();
        framework_profiles(&configuration, true).remove(0)
    }

    /// A default plugin the filter point enables again runs first (#99582); the others
    /// keep their default order.
    #[test]
    fn an_enabled_default_moves_to_the_front_of_its_point() {
        let profile = profile(serde_json::json!({
            "filter": {"enabled": [{"name": "NodeResourcesFit"}, {"name": "NodeName"}]},
            "score": {"enabled": [{"name": "ImageLocality", "weight": 4}]},
        }));
        assert_eq!(
            profile.filters[..4],
            [
                F::NodeResourcesFit,
                F::NodeName,
                F::NodeUnschedulable,
                F::TaintToleration
            ]
        );
        assert_eq!(profile.filters.len(), DEFAULT_FILTERS.len());
        assert_eq!(
            profile.scores[..2],
            [(S::ImageLocality, 4), (S::TaintToleration, 3)]
        );
    }

    /// The point's own disabled list wins over a MultiPoint entry; a point that disables
    /// `*` keeps only its own list, MultiPoint additions included.
    #[test]
    fn a_point_disables_multi_point_plugins() {
        let profile = profile(serde_json::json!({
            "multiPoint": {"enabled": [{"name": "TaintToleration"}, {"name": "NodeAffinity", "weight": 7}]},
            "filter": {"disabled": [{"name": "TaintToleration"}]},
            "score": {"disabled": [{"name": "*"}], "enabled": [{"name": "NodeAffinity"}]},
        }));
        assert!(!profile.filters.contains(&F::TaintToleration));
        assert_eq!(profile.scores, [(S::NodeAffinity, 1)]);
    }

    /// MultiPoint's `*` drops every default, but a point may still enable one (and must
    /// enable a queue sort and a bind plugin).
    #[test]
    fn a_point_enables_what_multi_point_dropped() {
        let profile = profile(serde_json::json!({
            "multiPoint": {"disabled": [{"name": "*"}]},
            "queueSort": {"enabled": [{"name": "PrioritySort"}]},
            "bind": {"enabled": [{"name": "DefaultBinder"}]},
            "filter": {"enabled": [{"name": "NodePorts"}]},
            "postFilter": {"enabled": [{"name": "DefaultPreemption"}]},
        }));
        assert_eq!(profile.filters, [F::NodePorts]);
        assert!(profile.scores.is_empty());
        assert!(profile.preemption && !profile.dynamic_resources);
        assert!(!profile.scheduling_gates);
    }

    /// PreFilter and PreScore expand on their own: a filter or score disabled keeps its
    /// Pre half, and the other way round.
    #[test]
    fn pre_filter_and_pre_score_are_points_of_their_own() {
        let profile = profile(serde_json::json!({
            "filter": {"disabled": [{"name": "NodeAffinity"}]},
            "preFilter": {"disabled": [{"name": "NodePorts"}]},
            "preScore": {"disabled": [{"name": "*"}], "enabled": [{"name": "InterPodAffinity"}]},
        }));
        assert!(!profile.filters.contains(&F::NodeAffinity));
        assert!(profile.pre_filters.contains(&F::NodeAffinity));
        assert!(profile.filters.contains(&F::NodePorts));
        assert!(!profile.pre_filters.contains(&F::NodePorts));
        assert_eq!(profile.pre_scores, [S::InterPodAffinity]);
        assert_eq!(profile.scores.len(), DEFAULT_SCORES.len());
    }

    /// A lone profile without a name is the default scheduler's, with its own plugins.
    #[test]
    fn an_unnamed_profile_is_the_default_scheduler() {
        let configuration = serde_json::from_value(serde_json::json!({
            "profiles": [{"plugins": {"score": {"enabled": [{"name": "ImageLocality", "weight": 7}]}}}]
        }))
        .unwrap();
        let profile = framework_profiles(&configuration, true).remove(0);
        assert_eq!(profile.scheduler_name, "default-scheduler");
        assert_eq!(profile.scores.first(), Some(&(S::ImageLocality, 7)));
    }

    /// SchedulingGates is a default PreEnqueue plugin: a profile may disable it there (or
    /// in MultiPoint), and then gated pods are scheduled.
    #[test]
    fn scheduling_gates_can_be_disabled() {
        assert!(profile(serde_json::json!({})).scheduling_gates);
        let disabled = profile(serde_json::json!({
            "preEnqueue": {"disabled": [{"name": "SchedulingGates"}]},
        }));
        assert!(!disabled.scheduling_gates);
    }
}
