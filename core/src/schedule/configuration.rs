//! The 1.34 profiles a `KubeSchedulerConfiguration` defines: one per `schedulerName`,
//! each the default plugin set with plugins disabled and enabled per extension point,
//! score weights, plugin arguments and `percentageOfNodesToScore`.
//!
//! Follows `pkg/scheduler/apis/config/v1/default_plugins.go` (`mergePlugins`: a disabled
//! `*` drops every default plugin of that extension point; enabled plugins not in the
//! defaults are appended in order; an enabled default plugin takes the given weight) and
//! `v1/defaults.go` (a score weight of 0 means 1).

use alloc::string::String;
use alloc::vec::Vec;

use super::framework::{FrameworkProfile, DEFAULT_FILTERS, DEFAULT_SCORES};
use super::plugins::node_resources_fit::{Ignored, Resource, ScoredResource, Strategy};
use crate::model::{KubeSchedulerConfiguration, PluginSet, ResourceSpec};

fn disables(sets: &[&PluginSet], name: &str) -> bool {
    sets.iter()
        .flat_map(|set| set.disabled.iter())
        .any(|plugin| plugin.name == name || plugin.name == "*")
}

fn enabled<'s>(sets: &[&'s PluginSet]) -> Vec<(&'s str, Option<i32>)> {
    sets.iter()
        .flat_map(|set| set.enabled.iter())
        .map(|plugin| (plugin.name.as_str(), plugin.weight))
        .collect()
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
            if !given.scheduler_name.is_empty() {
                profile.scheduler_name = given.scheduler_name.clone();
            }
            profile.percentage_of_nodes_to_score = given
                .percentage_of_nodes_to_score
                .or(configuration.percentage_of_nodes_to_score);
            if let Some(plugins) = &given.plugins {
                let filter_sets = [&plugins.multi_point, &plugins.filter];
                let score_sets = [&plugins.multi_point, &plugins.score];
                profile
                    .filters
                    .retain(|filter| !disables(&filter_sets, filter.name()));
                for (name, _) in enabled(&filter_sets) {
                    if let Some(filter) = DEFAULT_FILTERS.iter().find(|f| f.name() == name) {
                        if !profile.filters.contains(filter) {
                            profile.filters.push(*filter);
                        }
                    }
                }
                profile
                    .scores
                    .retain(|(score, _)| !disables(&score_sets, score.name()));
                for (name, weight) in enabled(&score_sets) {
                    let Some((score, _)) = DEFAULT_SCORES.iter().find(|(s, _)| s.name() == name)
                    else {
                        continue;
                    };
                    let weight = weight.filter(|&w| w != 0).map_or(1, i64::from);
                    match profile.scores.iter_mut().find(|(s, _)| s == score) {
                        Some(entry) => entry.1 = weight,
                        None => profile.scores.push((*score, weight)),
                    }
                }
                let post_filter_sets = [&plugins.multi_point, &plugins.post_filter];
                if disables(&post_filter_sets, "DefaultPreemption") {
                    profile.preemption = false;
                }
                if disables(&post_filter_sets, "DynamicResources") {
                    profile.dynamic_resources = false;
                }
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
