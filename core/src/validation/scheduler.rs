//! Scheduler configuration files: the 1.11 `Policy`, the `KubeSchedulerConfiguration` and
//! OpenShift's `MasterConfig`.
//!
//! Upstream rejects a bad Policy when the scheduler starts (it exits), so each rule is an
//! error at the offending field with upstream's text: `ValidatePolicy` in
//! `pkg/scheduler/api/validation/validation.go` (weights), `RegisterCustomFitPredicate` /
//! `RegisterCustomPriorityFunction` in `pkg/scheduler/factory/plugins.go` (arguments and
//! names), `CreateFromConfig` in `pkg/scheduler/factory/factory.go` (the symmetric
//! weight) and `NewFunctionShape` in `priorities/requested_to_capacity_ratio.go` (curves),
//! all 1.11; for the configuration file, 1.34's `ValidateKubeSchedulerConfiguration` in
//! `pkg/scheduler/apis/config/validation/validation.go` (with the args checks of
//! `validation_pluginargs.go`) and the checks `NewFramework` in
//! `pkg/scheduler/framework/runtime/framework.go` makes as it builds each profile.

use alloc::collections::BTreeSet;
use alloc::string::String;

use crate::admission;
use crate::labels::{self, BadValue};
use crate::model::{
    go_bool, KubeSchedulerConfiguration, KubeSchedulerProfile, MasterConfig, Namespace,
    NodeSelectorTerm, PluginArgs, PluginReference, PluginSet, Plugins, Policy, PredicatePolicy,
    PriorityPolicy, UtilizationShapePoint,
};
use crate::schedule::framework::DEFAULT_SCHEDULER;
use crate::schedule::legacy;

use super::names;
use super::path::{duplicate, unsupported, At, Sink};
use super::Violation;

/// 1.11 `MaxWeight`: `MaxInt / 10` (Go's 64-bit `int`).
const MAX_WEIGHT: i64 = i64::MAX / 10;

/// Every rule a Policy breaks.
pub(super) fn policy(policy: &Policy, sink: &mut Sink) {
    let priorities = At::root("priorities");
    for (index, priority) in policy.priorities.iter().flatten().enumerate() {
        if priority.weight <= 0 || priority.weight >= MAX_WEIGHT {
            sink.error(
                &priorities.index(index).field("weight"),
                "policy/invalid-weight",
                alloc::format!(
                    "Priority {} should have a positive weight applied to it or it has overflown",
                    priority.name
                ),
            );
        }
    }
    let predicates = At::root("predicates");
    let list = policy.predicates.as_deref().unwrap_or_default();
    for (index, (predicate, kind)) in list.iter().zip(legacy::policy_predicates(list)).enumerate() {
        predicate_entry(predicate, kind.is_some(), &predicates.index(index), sink);
    }
    let list = policy.priorities.as_deref().unwrap_or_default();
    for (index, (priority, kind)) in list.iter().zip(legacy::policy_priorities(list)).enumerate() {
        priority_entry(priority, kind.is_some(), &priorities.index(index), sink);
    }
    let weight = policy.hard_pod_affinity_symmetric_weight;
    // 0 keeps the default (1); any other value replaces it and must be in range.
    if weight != 0 && !(1..=100).contains(&weight) {
        sink.error(
            &At::root("hardPodAffinitySymmetricWeight"),
            "policy/invalid-hard-pod-affinity-weight",
            alloc::format!(
                "invalid hardPodAffinitySymmetricWeight: {weight}, must be in the range 1-100"
            ),
        );
    }
}

/// The rules of one predicate entry; `known` says whether its name resolves
/// ([`legacy::policy_predicates`]).
fn predicate_entry(predicate: &PredicatePolicy, known: bool, at: &At<'_>, sink: &mut Sink) {
    if let Some(argument) = &predicate.argument {
        let count = usize::from(argument.service_affinity.is_some())
            + usize::from(argument.labels_presence.is_some());
        if count != 1 {
            sink.error(
                &at.field("argument"),
                "policy/argument-count",
                alloc::format!(
                    "Exactly 1 predicate argument is required, numArgs: {count}, Predicate: {}",
                    predicate.name
                ),
            );
        }
    } else if !known {
        sink.error(
            &at.field("name"),
            "policy/unknown-predicate",
            alloc::format!(
                "Invalid configuration: Predicate type not found for {}",
                predicate.name
            ),
        );
    }
}

/// The rules of one priority entry; `known` as for [`predicate_entry`].
fn priority_entry(priority: &PriorityPolicy, known: bool, at: &At<'_>, sink: &mut Sink) {
    if let Some(argument) = &priority.argument {
        let count = usize::from(argument.service_anti_affinity.is_some())
            + usize::from(argument.label_preference.is_some())
            + usize::from(argument.requested_to_capacity_ratio_arguments.is_some());
        if count != 1 {
            sink.error(
                &at.field("argument"),
                "policy/argument-count",
                alloc::format!(
                    "Exactly 1 priority argument is required, numArgs: {count}, Priority: {}",
                    priority.name
                ),
            );
        }
        if let Some(ratio) = &argument.requested_to_capacity_ratio_arguments {
            let shape_at = at.field("argument");
            let shape_at = shape_at.field("requestedToCapacityRatioArguments");
            if let Some(message) = shape_error(&ratio.shape) {
                sink.error(
                    &shape_at.field("shape"),
                    "policy/invalid-shape",
                    alloc::format!("invalid RequestedToCapacityRatioPriority arguments: {message}"),
                );
            }
        }
    } else if !known {
        sink.error(
            &at.field("name"),
            "policy/unknown-priority",
            alloc::format!(
                "Invalid configuration: Priority type not found for {}",
                priority.name
            ),
        );
    }
}

/// `NewFunctionShape`'s checks: at least one point, utilisation strictly increasing
/// within 0–100, scores within 0–10.
fn shape_error(points: &[UtilizationShapePoint]) -> Option<String> {
    if points.is_empty() {
        return Some("at least one point must be specified".into());
    }
    for (index, pair) in points.windows(2).enumerate() {
        if let [previous, next] = pair {
            if previous.utilization >= next.utilization {
                return Some(alloc::format!(
                    "utilization values must be sorted. Utilization[{index}]=={} >= Utilization[{}]=={}",
                    previous.utilization,
                    index + 1,
                    next.utilization
                ));
            }
        }
    }
    points.iter().enumerate().find_map(|(index, point)| {
        if point.utilization < 0 {
            Some(alloc::format!(
                "utilization values must not be less than 0. Utilization[{index}]=={}",
                point.utilization
            ))
        } else if point.utilization > 100 {
            Some(alloc::format!(
                "utilization values must not be greater than 100. Utilization[{index}]=={}",
                point.utilization
            ))
        } else if point.score < 0 {
            Some(alloc::format!(
                "score values must not be less than 0. Score[{index}]=={}",
                point.score
            ))
        } else if point.score > 10 {
            Some(alloc::format!(
                "score valuses not be grater than 10. Score[{index}]=={}",
                point.score
            ))
        } else {
            None
        }
    })
}

/// Every rule a KubeSchedulerConfiguration breaks.
pub(super) fn configuration(configuration: &KubeSchedulerConfiguration, sink: &mut Sink) {
    // v1beta2 and v1beta3 were removed in 1.28 and 1.29; the decoder knows v1 alone.
    let version = configuration.api_version.as_str();
    if !version.is_empty() && version != "kubescheduler.config.k8s.io/v1" {
        sink.push(
            Violation::error(
                At::root("apiVersion").path(),
                "scheduler-config/unsupported-version",
                alloc::format!(
                    "no kind \"KubeSchedulerConfiguration\" is registered for version \"{version}\""
                ),
            )
            .with_help("Kubernetes 1.34 reads `kubescheduler.config.k8s.io/v1` only"),
        );
    }
    if configuration.parallelism.is_some_and(|value| value <= 0) {
        sink.error(
            &At::root("parallelism"),
            "scheduler-config/invalid-parallelism",
            "should be an integer value greater than zero",
        );
    }
    if let Some(percentage) = configuration.percentage_of_nodes_to_score {
        percentage_in_range(percentage, &At::root("percentageOfNodesToScore"), sink);
    }
    let profiles = At::root("profiles");
    let mut names = BTreeSet::new();
    let single = configuration.profiles.len() == 1;
    for (index, profile) in configuration.profiles.iter().enumerate() {
        let at = profiles.index(index);
        let name_at = at.field("schedulerName");
        // `SetDefaults_KubeSchedulerConfiguration` names a lone profile without a name
        // `default-scheduler`; an explicit `""`, or no name beside other profiles, stays
        // empty.
        let name = match (&profile.scheduler_name, single) {
            (Some(name), _) => name.as_str(),
            (None, true) => DEFAULT_SCHEDULER,
            (None, false) => "",
        };
        if name.is_empty() {
            sink.error(&name_at, "scheduler-config/required-name", "Required value");
        } else if !names.insert(name) {
            sink.error(
                &name_at,
                "scheduler-config/duplicate-profile",
                duplicate(name),
            );
        }
        if let Some(percentage) = profile.percentage_of_nodes_to_score {
            percentage_in_range(percentage, &at.field("percentageOfNodesToScore"), sink);
        }
        if let Some(plugins) = &profile.plugins {
            let plugins_at = at.field("plugins");
            plugin_sets(plugins, &plugins_at, sink);
            required_plugins(plugins, name, &plugins_at, sink);
        }
        let plugin_config = at.field("pluginConfig");
        let mut configured = BTreeSet::new();
        for (position, config) in profile.plugin_config.iter().enumerate() {
            let entry = plugin_config.index(position);
            // `validatePluginConfig` (validation.go).
            if !configured.insert(config.name.as_str()) {
                sink.error(
                    &entry,
                    "scheduler-config/duplicate-plugin-config",
                    duplicate(&config.name),
                );
            }
            let args_at = entry.field("args");
            let args = &config.args;
            match config.name.as_str() {
                name if REMOVED.contains(&name) => {
                    sink.error(&entry, "scheduler-config/removed-plugin", REMOVED_MESSAGE);
                }
                "PodTopologySpread" => spread_args(args, &args_at, sink),
                "DefaultPreemption" => preemption_args(args, &args_at, sink),
                // `ValidateInterPodAffinityArgs` (validation_pluginargs.go); an absent
                // weight defaults to 1.
                "InterPodAffinity"
                    if args
                        .hard_pod_affinity_weight
                        .is_some_and(|w| !(0..=100).contains(&w)) =>
                {
                    sink.error(
                        &args_at.field("hardPodAffinityWeight"),
                        "scheduler-config/invalid-hard-pod-affinity-weight",
                        "not in valid range [0, 100]",
                    );
                }
                // Checked by `NewFit` alone, so only when the profile runs the plugin.
                "NodeResourcesFit" if instantiates(profile.plugins.as_ref(), &config.name) => {
                    fit_args(args, &args_at, sink);
                }
                "NodeResourcesBalancedAllocation" => balanced_args(args, &args_at, sink),
                "VolumeBinding" => volume_binding_args(args, &args_at, sink),
                "NodeAffinity" => node_affinity_args(args, &args_at, sink),
                _ => {}
            }
        }
    }
    common_queue_sort(&configuration.profiles, &profiles, sink);
    // The defaults of `SetDefaults_KubeSchedulerConfiguration`: 1 and 10 seconds.
    let initial = configuration.pod_initial_backoff_seconds.unwrap_or(1);
    if initial <= 0 {
        sink.error(
            &At::root("podInitialBackoffSeconds"),
            "scheduler-config/invalid-backoff",
            "must be greater than 0",
        );
    }
    if configuration.pod_max_backoff_seconds.unwrap_or(10) < initial {
        sink.error(
            &At::root("podMaxBackoffSeconds"),
            "scheduler-config/invalid-backoff",
            "must be greater than or equal to PodInitialBackoffSeconds",
        );
    }
}

/// `validateCommonQueueSort` (validation.go): every profile's `queueSort` set as written
/// (its default is empty) and the args of the first profile's queue sort plugin must be
/// the first profile's. Upstream names `plugins.queueSort.Enabled` and
/// `pluginConfig.args`; the paths here name the entry at fault.
fn common_queue_sort<'p>(profiles: &'p [KubeSchedulerProfile], at: &At<'_>, sink: &mut Sink) {
    let code = "scheduler-config/invalid-queue-sort";
    let Some((first, rest)) = profiles.split_first() else {
        return;
    };
    let empty = PluginSet::default();
    let queue_sort = |profile: &'p KubeSchedulerProfile| {
        (profile.plugins.as_ref()).map_or(&empty, |plugins| &plugins.queue_sort)
    };
    let canon = queue_sort(first);
    if canon.enabled.len() > 1 {
        let path = at.index(0);
        let path = path.field("plugins");
        let path = path.field("queueSort");
        sink.error(
            &path.field("enabled"),
            code,
            "only one queue sort plugin can be enabled",
        );
    }
    let name = canon
        .enabled
        .first()
        .map_or("", |plugin| plugin.name.as_str());
    let args = (first.plugin_config.iter().rev())
        .find(|config| !name.is_empty() && config.name == name)
        .map(|config| &config.args);
    // Weights and disabled names as the merged, internal set holds them.
    let same = |a: &[PluginReference], b: &[PluginReference], weights: bool| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(a, b)| {
                a.name == b.name && (!weights || a.weight.unwrap_or(0) == b.weight.unwrap_or(0))
            })
    };
    for (index, profile) in rest.iter().enumerate() {
        let profile_at = at.index(index + 1);
        let set = queue_sort(profile);
        if !(same(&canon.enabled, &set.enabled, true)
            && same(&canon.disabled, &set.disabled, false))
        {
            let plugins = profile_at.field("plugins");
            sink.error(
                &plugins.field("queueSort"),
                code,
                "must be the same for all profiles",
            );
        }
        let configs = profile_at.field("pluginConfig");
        for (position, config) in profile.plugin_config.iter().enumerate() {
            if config.name == name && args != Some(&config.args) {
                let entry = configs.index(position);
                sink.error(
                    &entry.field("args"),
                    code,
                    "queueSort must be the same for all profiles",
                );
            }
        }
    }
}

/// A profile's plugin sets in the order `getExtensionPoints` (`runtime/framework.go`)
/// visits them, each with its key.
fn point_sets(plugins: &Plugins) -> [(&'static str, &PluginSet); 12] {
    [
        ("preFilter", &plugins.pre_filter),
        ("filter", &plugins.filter),
        ("postFilter", &plugins.post_filter),
        ("reserve", &plugins.reserve),
        ("preScore", &plugins.pre_score),
        ("score", &plugins.score),
        ("preBind", &plugins.pre_bind),
        ("bind", &plugins.bind),
        ("postBind", &plugins.post_bind),
        ("permit", &plugins.permit),
        ("preEnqueue", &plugins.pre_enqueue),
        ("queueSort", &plugins.queue_sort),
    ]
}

/// The plugins 1.34's in-tree registry holds (`plugins/registry.go`), each with the
/// extension points it implements: bit `i` is entry `i` of [`point_sets`].
const REGISTRY: [(&str, u16); 19] = [
    ("SchedulingGates", PRE_ENQUEUE),
    ("PrioritySort", QUEUE_SORT),
    ("NodeUnschedulable", FILTER),
    ("NodeName", FILTER),
    ("TaintToleration", FILTER | SCORES),
    ("NodeAffinity", FILTERS | SCORES),
    ("NodePorts", FILTERS),
    ("NodeResourcesFit", FILTERS | SCORES),
    ("VolumeRestrictions", FILTERS),
    ("NodeVolumeLimits", FILTERS),
    ("VolumeBinding", FILTERS | RESERVE | SCORES | PRE_BIND),
    ("VolumeZone", FILTERS),
    ("PodTopologySpread", FILTERS | SCORES),
    ("InterPodAffinity", FILTERS | SCORES),
    (
        "DynamicResources",
        PRE_ENQUEUE | FILTERS | POST_FILTER | RESERVE | PRE_BIND,
    ),
    ("DefaultPreemption", PRE_ENQUEUE | POST_FILTER),
    ("NodeResourcesBalancedAllocation", SCORES),
    ("ImageLocality", SCORE),
    ("DefaultBinder", BIND),
];
const FILTER: u16 = 1 << 1;
const FILTERS: u16 = 1 | FILTER;
const POST_FILTER: u16 = 1 << 2;
const RESERVE: u16 = 1 << 3;
const SCORE: u16 = 1 << 5;
const SCORES: u16 = 1 << 4 | SCORE;
const PRE_BIND: u16 = 1 << 6;
const BIND: u16 = 1 << 7;
const PRE_ENQUEUE: u16 = 1 << 10;
const QUEUE_SORT: u16 = 1 << 11;

/// Plugins v1 no longer has (`invalidPluginsByVersion` in validation.go).
const REMOVED: [&str; 4] = [
    "AzureDiskLimits",
    "CinderLimits",
    "EBSLimits",
    "GCEPDLimits",
];
const REMOVED_MESSAGE: &str = "was invalid in version \"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is version \"kubescheduler.config.k8s.io/v1\")";

/// Upstream's interface for the point `key`: `preFilter` is `PreFilterPlugin`.
fn interface(key: &str) -> String {
    let mut chars = key.chars();
    let mut name: String = chars
        .next()
        .map(|c| c.to_ascii_uppercase())
        .into_iter()
        .collect();
    name.extend(chars);
    name.push_str("Plugin");
    name
}

/// The plugin sets a profile names, as the scheduler builds its framework: removed
/// plugins (`validatePluginSetForInvalidPlugins` in validation.go, per point only), then
/// `updatePluginList` per point and `expandMultiPointPlugins` for MultiPoint
/// (`runtime/framework.go`): a name the registry lacks, a plugin at a point it does not
/// implement, and a plugin a point would run twice. Upstream stops at the first; each
/// is reported here.
fn plugin_sets(plugins: &Plugins, at: &At<'_>, sink: &mut Sink) {
    let named = |list: &[PluginReference], wanted: &str| list.iter().any(|p| p.name == wanted);
    let registered = |name: &str| REGISTRY.iter().find(|(other, _)| *other == name);
    let points = point_sets(plugins);
    let twice = |name: &str, interface: &str| {
        alloc::format!("plugin \"{name}\" already registered as \"{interface}\"")
    };
    for (bit, (key, set)) in points.iter().enumerate() {
        let point = at.field(key);
        let enabled = point.field("enabled");
        for (index, plugin) in set.enabled.iter().enumerate() {
            let name = plugin.name.as_str();
            let entry = enabled.index(index);
            let kind = interface(key);
            let (code, message) = match registered(name) {
                _ if REMOVED.contains(&name) => {
                    ("scheduler-config/removed-plugin", REMOVED_MESSAGE.into())
                }
                None => (
                    "scheduler-config/unknown-plugin",
                    alloc::format!("{kind} \"{name}\" does not exist"),
                ),
                Some((_, points)) if points & 1 << bit == 0 => (
                    "scheduler-config/wrong-extension-point",
                    alloc::format!("plugin \"{name}\" does not extend {kind} plugin"),
                ),
                _ if named(set.enabled.get(..index).unwrap_or_default(), name) => {
                    ("scheduler-config/duplicate-plugin", twice(name, &kind))
                }
                _ => continue,
            };
            sink.error(&entry, code, message);
        }
    }
    let multi_point = &plugins.multi_point.enabled;
    let enabled = at.field("multiPoint");
    let enabled = enabled.field("enabled");
    // A point that disables `*` takes nothing from MultiPoint.
    let expanded = |set: &PluginSet| !named(&set.disabled, "*");
    for (index, plugin) in multi_point.iter().enumerate() {
        let name = plugin.name.as_str();
        let message = match registered(name) {
            None => points
                .iter()
                .find(|(_, set)| expanded(set))
                .map(|(key, _)| {
                    let code = "scheduler-config/unknown-plugin";
                    (
                        code,
                        alloc::format!("{} \"{name}\" does not exist", interface(key)),
                    )
                }),
            // Named twice, the plugin is taken twice by the first point that implements
            // it and neither disables nor enables it itself.
            Some((_, implemented)) if named(multi_point.get(..index).unwrap_or_default(), name) => {
                points
                    .iter()
                    .enumerate()
                    .find(|(bit, (_, set))| {
                        implemented & 1 << bit != 0
                            && expanded(set)
                            && !named(&set.disabled, name)
                            && !named(&set.enabled, name)
                    })
                    .map(|(_, (key, _))| {
                        (
                            "scheduler-config/duplicate-plugin",
                            twice(name, &interface(key)),
                        )
                    })
            }
            Some(_) => None,
        };
        if let Some((code, message)) = message {
            sink.error(&enabled.index(index), code, message);
        }
    }
}

/// `NewFramework` (`runtime/framework.go`) wants one queue sort plugin and a bind plugin
/// once MultiPoint is expanded: a MultiPoint that disables the defaults (every 1.34
/// plugin is one) takes both away unless a set enables them again.
fn required_plugins(plugins: &Plugins, profile: &str, at: &At<'_>, sink: &mut Sink) {
    let named = |list: &[PluginReference], wanted: &str| list.iter().any(|p| p.name == wanted);
    let multi_point = &plugins.multi_point;
    let merged = REGISTRY.iter().filter(|(name, _)| {
        !(named(&multi_point.disabled, "*") || named(&multi_point.disabled, name))
            || named(&multi_point.enabled, name)
    });
    let count = |set: &PluginSet, point: u16| {
        let mut names: BTreeSet<&str> = (set.enabled.iter())
            .map(|plugin| plugin.name.as_str())
            .filter(|name| {
                (REGISTRY.iter()).any(|(other, points)| other == name && points & point != 0)
            })
            .collect();
        if !named(&set.disabled, "*") {
            names.extend(
                merged
                    .clone()
                    .filter(|(name, points)| points & point != 0 && !named(&set.disabled, name))
                    .map(|(name, _)| *name),
            );
        }
        names.len()
    };
    let queue_sort = count(&plugins.queue_sort, QUEUE_SORT);
    if queue_sort != 1 {
        sink.error(
            &at.field("queueSort"),
            "scheduler-config/invalid-queue-sort",
            alloc::format!("only one queue sort plugin required for profile with scheduler name \"{profile}\", but got {queue_sort}"),
        );
    }
    if count(&plugins.bind, BIND) == 0 {
        sink.error(
            &at.field("bind"),
            "scheduler-config/missing-bind-plugin",
            alloc::format!(
                "at least one bind plugin is needed for profile with scheduler name \"{profile}\""
            ),
        );
    }
}

/// True if the profile builds the default plugin `name` (`pluginsNeeded` in
/// `runtime/framework.go`): MultiPoint keeps it unless it disables it (or `*`), and any
/// point that enables it needs it.
fn instantiates(plugins: Option<&Plugins>, name: &str) -> bool {
    let Some(plugins) = plugins else {
        return true;
    };
    let named = |list: &[PluginReference], wanted: &str| list.iter().any(|p| p.name == wanted);
    let multi_point = &plugins.multi_point;
    !(named(&multi_point.disabled, "*") || named(&multi_point.disabled, name))
        || named(&multi_point.enabled, name)
        || point_sets(plugins)
            .iter()
            .any(|(_, set)| named(&set.enabled, name))
}

/// `ValidateNodeResourcesFitArgs` (validation_pluginargs.go), which `NewFit` runs on the
/// defaulted args: ignored resources are label names, groups also without `/`; a
/// `scoringStrategy` given at all needs a known `type` (`SetDefaults_NodeResourcesFitArgs`
/// fills in only an absent strategy), weights in (0, 100] (0 is 1), and a curve exactly
/// when the type is RequestedToCapacityRatio.
fn fit_args(args: &PluginArgs, at: &At<'_>, sink: &mut Sink) {
    let code = "scheduler-config/invalid-ignored-resource";
    let ignored = at.field("ignoredResources");
    for (index, name) in args.ignored_resources.iter().enumerate() {
        sink.errors(&ignored.index(index), code, &names::qualified_name(name));
    }
    let groups = at.field("ignoredResourceGroups");
    for (index, group) in args.ignored_resource_groups.iter().enumerate() {
        let entry = groups.index(index);
        if group.contains('/') {
            sink.error(&entry, code, "resource group name can't contain '/'");
        }
        sink.errors(&entry, code, &names::qualified_name(group));
    }
    let Some(strategy) = &args.scoring_strategy else {
        return;
    };
    let at = at.field("scoringStrategy");
    let code = "scheduler-config/invalid-scoring-strategy";
    let types = [
        "LeastAllocated",
        "MostAllocated",
        "RequestedToCapacityRatio",
    ];
    if !types.contains(&strategy.type_.as_str()) {
        sink.error(
            &at.field("type"),
            code,
            unsupported(&strategy.type_, &types),
        );
    }
    let resources = at.field("resources");
    for (index, resource) in strategy.resources.iter().enumerate() {
        if !(0..=100).contains(&resource.weight) {
            sink.error(
                &resources.index(index).field("weight"),
                "scheduler-config/invalid-resource-weight",
                alloc::format!(
                    "resource weight of {} not in valid range (0, 100]",
                    resource.name
                ),
            );
        }
    }
    let ratio_at = at.field("requestedToCapacityRatio");
    let ratio = strategy.requested_to_capacity_ratio.as_ref();
    match (ratio, strategy.type_ == "RequestedToCapacityRatio") {
        (None, true) => sink.error(
            &ratio_at,
            code,
            "must be specified when type is RequestedToCapacityRatio",
        ),
        (Some(ratio), true) => function_shape(&ratio.shape, &ratio_at.field("shape"), sink),
        (Some(_), false) => sink.error(
            &ratio_at,
            code,
            "must be nil when type is not RequestedToCapacityRatio",
        ),
        (None, false) => {}
    }
}

/// `validateFunctionShape` (validation_pluginargs.go): at least one point, utilisation
/// increasing (the first break only), utilisation within [0, 100] and scores within
/// [0, 10].
fn function_shape(points: &[UtilizationShapePoint], at: &At<'_>, sink: &mut Sink) {
    let code = "scheduler-config/invalid-shape";
    if points.is_empty() {
        sink.error(at, code, "at least one point must be specified");
        return;
    }
    let unsorted = points.windows(2).position(
        |pair| matches!(pair, [previous, next] if previous.utilization >= next.utilization),
    );
    if let Some(index) = unsorted {
        let point = at.index(index + 1);
        sink.error(
            &point.field("utilization"),
            code,
            "values must be sorted in increasing order",
        );
    }
    for (index, point) in points.iter().enumerate() {
        let entry = at.index(index);
        if !(0..=100).contains(&point.utilization) {
            sink.error(
                &entry.field("utilization"),
                code,
                "not in valid range [0, 100]",
            );
        }
        if !(0..=10).contains(&point.score) {
            sink.error(&entry.field("score"), code, "not in valid range [0, 10]");
        }
    }
}

/// `ValidateNodeResourcesBalancedAllocationArgs` (validation_pluginargs.go), on the
/// defaulted args: each resource once, each weight 1 (0 is 1).
fn balanced_args(args: &PluginArgs, at: &At<'_>, sink: &mut Sink) {
    let resources = at.field("resources");
    for (index, resource) in args.resources.iter().enumerate() {
        let entry = resources.index(index);
        let earlier = args.resources.get(..index).unwrap_or_default();
        if earlier.iter().any(|other| other.name == resource.name) {
            sink.error(
                &entry.field("name"),
                "scheduler-config/duplicate-resource",
                duplicate(&resource.name),
            );
        }
        if !matches!(resource.weight, 0 | 1) {
            sink.error(
                &entry.field("weight"),
                "scheduler-config/invalid-resource-weight",
                "must be 1",
            );
        }
    }
}

/// `ValidateVolumeBindingArgs` (validation_pluginargs.go): no negative timeout, and no
/// `shape` while the `StorageCapacityScoring` gate is off, as it is in 1.34.
fn volume_binding_args(args: &PluginArgs, at: &At<'_>, sink: &mut Sink) {
    let code = "scheduler-config/invalid-volume-binding";
    if args.bind_timeout_seconds.is_some_and(|seconds| seconds < 0) {
        sink.error(
            &at.field("bindTimeoutSeconds"),
            code,
            "invalid BindTimeoutSeconds, should not be a negative value",
        );
    }
    if args.shape.is_some() {
        sink.error(
            &at.field("shape"),
            code,
            "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring",
        );
    }
}

/// `ValidateNodeAffinityArgs` (validation_pluginargs.go): `addedAffinity` must parse as
/// the scheduler parses node affinity (`NewNodeSelector`, `NewPreferredSchedulingTerms` in
/// component-helpers' `nodeaffinity`; preferred terms of weight 0 are skipped). Upstream
/// leaves `preference` out of a preferred term's path; the paths here name the entry.
fn node_affinity_args(args: &PluginArgs, at: &At<'_>, sink: &mut Sink) {
    let Some(added) = &args.added_affinity else {
        return;
    };
    let at = at.field("addedAffinity");
    if let Some(required) = &added.required_during_scheduling_ignored_during_execution {
        let terms = at.field("requiredDuringSchedulingIgnoredDuringExecution");
        let terms = terms.field("nodeSelectorTerms");
        for (index, term) in required.node_selector_terms.iter().enumerate() {
            parsed_node_term(term, &terms.index(index), sink);
        }
    }
    let preferred = at.field("preferredDuringSchedulingIgnoredDuringExecution");
    let terms = &added.preferred_during_scheduling_ignored_during_execution;
    for (index, term) in terms
        .iter()
        .enumerate()
        .filter(|(_, term)| term.weight != 0)
    {
        let entry = preferred.index(index);
        parsed_node_term(&term.preference, &entry.field("preference"), sink);
    }
}

/// A node selector term as `nodeSelectorRequirementsAsSelector` (each expression through
/// `labels.NewRequirement`) and `nodeSelectorRequirementsAsFieldSelector` parse it.
fn parsed_node_term(term: &NodeSelectorTerm, at: &At<'_>, sink: &mut Sink) {
    let code = "scheduler-config/invalid-added-affinity";
    let expressions = at.field("matchExpressions");
    for (index, requirement) in term.match_expressions.iter().enumerate() {
        let at = expressions.index(index);
        let count = requirement.values.len();
        let shape = match requirement.operator.as_str() {
            "In" | "NotIn" => count == 0,
            "Exists" | "DoesNotExist" => count != 0,
            "Gt" | "Lt" => count != 1,
            other => {
                sink.error(&at.field("operator"), code, unsupported(other, &[]));
                continue;
            }
        };
        let key = names::qualified_name(&requirement.key);
        if !key.is_empty() {
            sink.error(&at.field("key"), code, key.join("; "));
        }
        let values = at.field("values");
        if shape {
            let message = match requirement.operator.as_str() {
                "In" | "NotIn" => "for 'in', 'notin' operators, values set can't be empty",
                "Gt" | "Lt" => "for 'Gt', 'Lt' operators, exactly one value is required",
                _ => "values set must be empty for exists and does not exist",
            };
            sink.error(&values, code, message);
        }
        for bad in labels::bad_values(requirement) {
            let (index, message) = match bad {
                BadValue::NotInteger(index, _) => (
                    index,
                    String::from("for 'Gt', 'Lt' operators, the value must be an integer"),
                ),
                BadValue::NotLabelValue(index, _, complaints) => (index, complaints.join("; ")),
            };
            sink.error(&values.index(index), code, message);
        }
    }
    let fields = at.field("matchFields");
    for (index, requirement) in term.match_fields.iter().enumerate() {
        let at = fields.index(index);
        match requirement.operator.as_str() {
            "In" | "NotIn" if requirement.values.len() != 1 => {
                sink.error(&at.field("values"), code, "must have one element");
            }
            "In" | "NotIn" => {}
            other => sink.error(
                &at.field("operator"),
                code,
                unsupported(other, &["In", "NotIn"]),
            ),
        }
    }
}

/// `ValidateDefaultPreemptionArgs` (validation_pluginargs.go): a percentage within
/// [0, 100], an absolute count not below 0, and not both zero (each defaults on its own,
/// to 10 % and 100, when absent).
fn preemption_args(args: &PluginArgs, at: &At<'_>, sink: &mut Sink) {
    let code = "scheduler-config/invalid-min-candidate-nodes";
    let percentage = args.min_candidate_nodes_percentage;
    let absolute = args.min_candidate_nodes_absolute;
    let percentage_at = at.field("minCandidateNodesPercentage");
    let absolute_at = at.field("minCandidateNodesAbsolute");
    if percentage.is_some_and(|value| !(0..=100).contains(&value)) {
        sink.error(&percentage_at, code, "not in valid range [0, 100]");
    }
    if absolute.is_some_and(|value| value < 0) {
        sink.error(&absolute_at, code, "not in valid range [0, inf)");
    }
    if percentage == Some(0) && absolute == Some(0) {
        sink.error(
            &percentage_at,
            code,
            "cannot be zero at the same time as minCandidateNodesAbsolute",
        );
        sink.error(
            &absolute_at,
            code,
            "cannot be zero at the same time as minCandidateNodesPercentage",
        );
    }
}

/// `ValidatePodTopologySpreadArgs` (validation_pluginargs.go): a known `defaultingType`
/// (empty is System), System with no constraints of its own, and constraints as a pod's
/// but without a selector.
fn spread_args(args: &PluginArgs, at: &At<'_>, sink: &mut Sink) {
    let constraints = &args.default_constraints;
    match args.defaulting_type.as_str() {
        "" | "System" if !constraints.is_empty() => sink.error(
            &at.field("defaultingType"),
            "scheduler-config/invalid-defaulting-type",
            "when .defaultConstraints are not empty",
        ),
        "" | "System" | "List" => {}
        other => sink.error(
            &at.field("defaultingType"),
            "scheduler-config/invalid-defaulting-type",
            unsupported(other, &["System", "List"]),
        ),
    }
    let list = at.field("defaultConstraints");
    for (index, constraint) in constraints.iter().enumerate() {
        let entry = list.index(index);
        if constraint.max_skew <= 0 {
            sink.error(
                &entry.field("maxSkew"),
                "scheduler-config/invalid-default-constraint",
                "not in valid range (0, inf)",
            );
        }
        let key = entry.field("topologyKey");
        if constraint.topology_key.is_empty() {
            sink.error(
                &key,
                "scheduler-config/invalid-default-constraint",
                "can not be empty",
            );
        } else {
            sink.errors(
                &key,
                "scheduler-config/invalid-default-constraint",
                &names::qualified_name(&constraint.topology_key),
            );
        }
        let action = constraint.when_unsatisfiable.as_str();
        let action_at = entry.field("whenUnsatisfiable");
        if action.is_empty() {
            sink.error(
                &action_at,
                "scheduler-config/invalid-default-constraint",
                "can not be empty",
            );
        } else if !matches!(action, "DoNotSchedule" | "ScheduleAnyway") {
            sink.error(
                &action_at,
                "scheduler-config/invalid-default-constraint",
                unsupported(action, &["DoNotSchedule", "ScheduleAnyway"]),
            );
        }
        if constraint.label_selector.is_some() {
            sink.error(
                &entry.field("labelSelector"),
                "scheduler-config/invalid-default-constraint",
                "constraint must not define a selector, as they deduced for each pod",
            );
        }
        let earlier = constraints.get(..index).unwrap_or_default();
        if earlier.iter().any(|other| {
            other.topology_key == constraint.topology_key
                && other.when_unsatisfiable == constraint.when_unsatisfiable
        }) {
            let pair = alloc::format!("{{{}, {}}}", constraint.topology_key, action);
            sink.error(
                &entry,
                "scheduler-config/invalid-default-constraint",
                duplicate(&pair),
            );
        }
    }
}

fn percentage_in_range(percentage: i32, at: &At<'_>, sink: &mut Sink) {
    if !(0..=100).contains(&percentage) {
        sink.error(
            at,
            "scheduler-config/invalid-percentage",
            "not in valid range [0-100]",
        );
    }
}

/// The node selectors a MasterConfig gives admission must parse; plugin files cannot be
/// read. Both are warnings: the API server would start, and fail on each pod instead.
/// The controllers' flags kubefit reads must take their values: OpenShift sets each value
/// of a flag in turn and refuses to start at the first it cannot set (`Apply` in
/// `pkg/cmd/util/flags/flags.go`, 3.11), so that one is an error.
pub(super) fn master_config(config: &MasterConfig, sink: &mut Sink) {
    controller_arguments(config, sink);
    let admission = At::root("admissionConfig");
    let plugins = admission.field("pluginConfig");
    for (name, plugin) in &config.admission_config.plugin_config {
        let at = plugins.key(name);
        if !plugin.location.is_empty() {
            sink.warning(
                &at.field("location"),
                "admission/unread-configuration",
                alloc::format!(
                    "kubefit cannot read the file `{}`; `{name}` runs with an empty configuration",
                    plugin.location
                ),
            );
        }
        let configuration = at.field("configuration");
        let selectors = configuration.field("podNodeSelectorPluginConfig");
        for (key, text) in plugin
            .configuration
            .pod_node_selector_plugin_config
            .iter()
            .flatten()
        {
            node_selector_text(text, &selectors.key(key), sink);
        }
    }
    let project = At::root("projectConfig");
    node_selector_text(
        &config.project_config.default_node_selector,
        &project.field("defaultNodeSelector"),
        sink,
    );
}

/// The first value of each controller flag kubefit reads that the flag refuses:
/// `enable-taint-manager` (`strconv.ParseBool`), `pod-eviction-timeout`
/// (`time.ParseDuration`) and the `TaintBasedEvictions` pair of `feature-gates`.
fn controller_arguments(config: &MasterConfig, sink: &mut Sink) {
    let arguments = At::root("kubernetesMasterConfig");
    let arguments = arguments.field("controllerArguments");
    let refused = |flag: &str, value: &str| match flag {
        "enable-taint-manager" => go_bool(value).is_none(),
        "pod-eviction-timeout" => crate::duration::parse(value).is_err(),
        _ => value
            .split(',')
            .filter_map(|pair| pair.split_once('='))
            .any(|(gate, on)| gate.trim() == "TaintBasedEvictions" && go_bool(on.trim()).is_none()),
    };
    for flag in [
        "enable-taint-manager",
        "pod-eviction-timeout",
        "feature-gates",
    ] {
        let values = config
            .kubernetes_master_config
            .controller_arguments
            .get(flag);
        let first = values
            .into_iter()
            .flatten()
            .enumerate()
            .find(|(_, value)| refused(flag, value));
        if let Some((index, value)) = first {
            sink.error(
                &arguments.key(flag).index(index),
                "master-config/invalid-controller-argument",
                alloc::format!(
                    "{flag}: Invalid value: \"{value}\": could not be set; the controller manager does not start"
                ),
            );
        }
    }
}

/// The node selector annotations of a namespace must parse.
pub(super) fn namespace_node_selectors(namespace: &Namespace, sink: &mut Sink) {
    let metadata = At::root("metadata");
    let annotations = metadata.field("annotations");
    for key in [
        admission::pod_node_selector::ANNOTATION,
        admission::pod_node_environment::ANNOTATION,
    ] {
        if let Some(text) = namespace.metadata.annotations.get(key) {
            node_selector_text(text, &annotations.key(key), sink);
        }
    }
}

fn node_selector_text(text: &str, at: &At<'_>, sink: &mut Sink) {
    if let Err(problem) = admission::selector_text::parse(text) {
        sink.warning(
            at,
            "admission/invalid-node-selector",
            alloc::format!("not a node selector: {problem}; pods it applies to are refused"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::REMOVED_MESSAGE as REMOVED;
    use crate::input::Resource;
    use crate::validation::validate;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn run(json: serde_json::Value) -> Vec<(String, &'static str, String)> {
        let policy = serde_json::from_value(json).unwrap();
        validate(&Resource::Policy(policy))
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    fn configuration(json: serde_json::Value) -> Vec<(String, &'static str, String)> {
        let configuration = serde_json::from_value(json).unwrap();
        validate(&Resource::KubeSchedulerConfiguration(configuration))
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    /// A lone profile without a name is `default-scheduler`; an explicit `""`, or a
    /// missing name beside another profile, is required.
    #[test]
    fn a_lone_profile_may_omit_its_name() {
        let required = |index: usize| {
            (
                alloc::format!("profiles[{index}].schedulerName"),
                "scheduler-config/required-name",
                String::from("Required value"),
            )
        };
        assert_eq!(configuration(serde_json::json!({"profiles": [{}]})), []);
        assert_eq!(
            configuration(serde_json::json!({"profiles": [{"schedulerName": null}]})),
            []
        );
        assert_eq!(
            configuration(serde_json::json!({"profiles": [{"schedulerName": ""}]})),
            [required(0)]
        );
        assert_eq!(
            configuration(serde_json::json!({"profiles": [{"schedulerName": "a"}, {}]})),
            [required(1)]
        );
        assert_eq!(
            configuration(serde_json::json!({"profiles": [
                {"schedulerName": "default-scheduler"}, {"schedulerName": "default-scheduler"}
            ]})),
            [(
                "profiles[1].schedulerName".into(),
                "scheduler-config/duplicate-profile",
                "Duplicate value: \"default-scheduler\"".into()
            )]
        );
    }

    /// `ValidateNodeResourcesFitArgs` as `NewFit` runs it: only for a profile that builds
    /// the plugin.
    #[test]
    fn fit_args_are_validated() {
        let found = |args: serde_json::Value, plugins: serde_json::Value| {
            configuration(
                serde_json::json!({"profiles": [{"plugins": plugins, "pluginConfig": [
                    {"name": "NodeResourcesFit", "args": args}
                ]}]}),
            )
        };
        let at = |field: &str| alloc::format!("profiles[0].pluginConfig[0].args.{field}");
        let none = serde_json::json!(null);
        assert_eq!(
            found(serde_json::json!({"scoringStrategy": null}), none.clone()),
            []
        );
        let bogus = serde_json::json!({"scoringStrategy": {"type": "Bogus"}});
        let types =
            "supported values: \"LeastAllocated\", \"MostAllocated\", \"RequestedToCapacityRatio\"";
        assert_eq!(
            found(bogus.clone(), none.clone()),
            [(
                at("scoringStrategy.type"),
                "scheduler-config/invalid-scoring-strategy",
                alloc::format!("Unsupported value: \"Bogus\": {types}")
            )]
        );
        // A strategy without a type is not defaulted.
        assert_eq!(
            found(serde_json::json!({"scoringStrategy": {}}), none.clone()),
            [(
                at("scoringStrategy.type"),
                "scheduler-config/invalid-scoring-strategy",
                alloc::format!("Unsupported value: \"\": {types}")
            )]
        );
        // Not built, not checked; built by another point, checked.
        let off = serde_json::json!({"multiPoint": {"disabled": [{"name": "NodeResourcesFit"}]}});
        assert_eq!(found(bogus.clone(), off), []);
        let filter = serde_json::json!({"multiPoint": {"disabled": [{"name": "NodeResourcesFit"}]},
            "filter": {"enabled": [{"name": "NodeResourcesFit"}]}});
        assert_eq!(found(bogus, filter).len(), 1);
        let messages = |args| {
            found(args, none.clone())
                .into_iter()
                .map(|(path, _, message)| (path, message))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            messages(serde_json::json!({
                "ignoredResources": ["a/b/c"], "ignoredResourceGroups": ["example.com/x"],
                "scoringStrategy": {"type": "RequestedToCapacityRatio",
                    "resources": [{"name": "cpu", "weight": 0}, {"name": "memory", "weight": 101}],
                    "requestedToCapacityRatio": {"shape": [
                        {"utilization": 50, "score": 11}, {"utilization": 50, "score": 0},
                        {"utilization": 101, "score": 5}]}}
            })),
            [
                (
                    at("ignoredResources[0]"),
                    crate::validation::names::qualified_name("a/b/c")[0].into()
                ),
                (
                    at("ignoredResourceGroups[0]"),
                    "resource group name can't contain '/'".into()
                ),
                (
                    at("scoringStrategy.resources[1].weight"),
                    "resource weight of memory not in valid range (0, 100]".into()
                ),
                (
                    at("scoringStrategy.requestedToCapacityRatio.shape[1].utilization"),
                    "values must be sorted in increasing order".into()
                ),
                (
                    at("scoringStrategy.requestedToCapacityRatio.shape[0].score"),
                    "not in valid range [0, 10]".into()
                ),
                (
                    at("scoringStrategy.requestedToCapacityRatio.shape[2].utilization"),
                    "not in valid range [0, 100]".into()
                ),
            ]
        );
        assert_eq!(
            messages(serde_json::json!({"scoringStrategy": {"type": "RequestedToCapacityRatio"}})),
            [(
                at("scoringStrategy.requestedToCapacityRatio"),
                "must be specified when type is RequestedToCapacityRatio".into()
            )]
        );
        assert_eq!(
            messages(
                serde_json::json!({"scoringStrategy": {"type": "MostAllocated",
                "requestedToCapacityRatio": {"shape": []}}})
            ),
            [(
                at("scoringStrategy.requestedToCapacityRatio"),
                "must be nil when type is not RequestedToCapacityRatio".into()
            )]
        );
        assert_eq!(
            messages(
                serde_json::json!({"scoringStrategy": {"type": "RequestedToCapacityRatio",
                "requestedToCapacityRatio": {"shape": []}}})
            ),
            [(
                at("scoringStrategy.requestedToCapacityRatio.shape"),
                "at least one point must be specified".into()
            )]
        );
    }

    /// `ValidateNodeResourcesBalancedAllocationArgs`: every weight 1 once defaulted, each
    /// resource once.
    #[test]
    fn balanced_allocation_args_are_validated() {
        let found = configuration(serde_json::json!({"profiles": [{"pluginConfig": [
            {"name": "NodeResourcesBalancedAllocation", "args": {"resources": [
                {"name": "cpu", "weight": 0}, {"name": "memory", "weight": 1},
                {"name": "cpu", "weight": 2}
            ]}}
        ]}]}));
        let at = "profiles[0].pluginConfig[0].args.resources[2]";
        assert_eq!(
            found,
            [
                (
                    alloc::format!("{at}.name"),
                    "scheduler-config/duplicate-resource",
                    "Duplicate value: \"cpu\"".into()
                ),
                (
                    alloc::format!("{at}.weight"),
                    "scheduler-config/invalid-resource-weight",
                    "must be 1".into()
                ),
            ]
        );
    }

    /// `updatePluginList` and `expandMultiPointPlugins`: unknown names, points a plugin
    /// does not implement, plugins taken twice; removed plugins per point and in
    /// pluginConfig, and repeated pluginConfig names.
    #[test]
    fn plugin_sets_are_validated() {
        let found = configuration(serde_json::json!({"profiles": [{
            "plugins": {
                "multiPoint": {"enabled": [
                    {"name": "Foo"}, {"name": "ImageLocality"}, {"name": "ImageLocality"},
                    {"name": "EBSLimits"}, {"name": "NodeName"}, {"name": "NodeName"}
                ]},
                "preFilter": {"disabled": [{"name": "*"}]},
                "filter": {"enabled": [
                    {"name": "NodeName"}, {"name": "ImageLocality"}, {"name": "DefaultBinder"},
                    {"name": "GCEPDLimits"}, {"name": "Bar"}, {"name": "NodeName"}
                ]},
                "score": {"enabled": [{"name": "VolumeBinding"}]},
                "reserve": {"enabled": [{"name": "VolumeBinding"}, {"name": "DynamicResources"}]}
            },
            "pluginConfig": [
                {"name": "NodeAffinity", "args": {}}, {"name": "CinderLimits", "args": {}},
                {"name": "NodeAffinity", "args": {}}
            ]
        }]}));
        let at = "profiles[0].plugins";
        let expected = [
            (
                "filter.enabled[1]",
                "scheduler-config/wrong-extension-point",
                "plugin \"ImageLocality\" does not extend FilterPlugin plugin",
            ),
            (
                "filter.enabled[2]",
                "scheduler-config/wrong-extension-point",
                "plugin \"DefaultBinder\" does not extend FilterPlugin plugin",
            ),
            (
                "filter.enabled[3]",
                "scheduler-config/removed-plugin",
                REMOVED,
            ),
            (
                "filter.enabled[4]",
                "scheduler-config/unknown-plugin",
                "FilterPlugin \"Bar\" does not exist",
            ),
            (
                "filter.enabled[5]",
                "scheduler-config/duplicate-plugin",
                "plugin \"NodeName\" already registered as \"FilterPlugin\"",
            ),
            // PreFilter takes nothing from MultiPoint, so Filter is the first point.
            (
                "multiPoint.enabled[0]",
                "scheduler-config/unknown-plugin",
                "FilterPlugin \"Foo\" does not exist",
            ),
            (
                "multiPoint.enabled[2]",
                "scheduler-config/duplicate-plugin",
                "plugin \"ImageLocality\" already registered as \"ScorePlugin\"",
            ),
            (
                "multiPoint.enabled[3]",
                "scheduler-config/unknown-plugin",
                "FilterPlugin \"EBSLimits\" does not exist",
            ),
            // NodeName's only point names it itself: no double registration.
        ];
        let mut expected: Vec<(String, &str, String)> = expected
            .into_iter()
            .map(|(path, code, message)| (alloc::format!("{at}.{path}"), code, message.into()))
            .collect();
        expected.push((
            "profiles[0].pluginConfig[1]".into(),
            "scheduler-config/removed-plugin",
            REMOVED.into(),
        ));
        expected.push((
            "profiles[0].pluginConfig[2]".into(),
            "scheduler-config/duplicate-plugin-config",
            "Duplicate value: \"NodeAffinity\"".into(),
        ));
        assert_eq!(found, expected);
    }

    /// `validateCommonQueueSort`: the queueSort set as written, and the queue sort
    /// plugin's args, must be the first profile's.
    #[test]
    fn queue_sort_is_common() {
        let code = "scheduler-config/invalid-queue-sort";
        let sort = serde_json::json!({"queueSort": {"enabled": [{"name": "PrioritySort"}]}});
        assert_eq!(
            configuration(serde_json::json!({"profiles": [
                {"schedulerName": "a", "plugins": sort.clone()},
                {"schedulerName": "b", "plugins": sort.clone(), "pluginConfig": [{"name": "NodeAffinity", "args": {}}]}
            ]})),
            []
        );
        assert_eq!(
            configuration(serde_json::json!({"profiles": [
                {"schedulerName": "a"},
                {"schedulerName": "b", "plugins": sort.clone()},
                {"schedulerName": "c", "plugins": {"queueSort": {"disabled": [{"name": "*"}],
                    "enabled": [{"name": "PrioritySort"}]}}}
            ]})),
            [
                (
                    "profiles[1].plugins.queueSort".into(),
                    code,
                    "must be the same for all profiles".into()
                ),
                (
                    "profiles[2].plugins.queueSort".into(),
                    code,
                    "must be the same for all profiles".into()
                ),
            ]
        );
        assert_eq!(
            configuration(serde_json::json!({"profiles": [
                {"schedulerName": "a", "plugins": sort.clone()},
                {"schedulerName": "b", "plugins": sort, "pluginConfig": [{"name": "PrioritySort", "args": {"resources": [{"name": "cpu"}]}}]}
            ]})),
            [(
                "profiles[1].pluginConfig[0].args".into(),
                code,
                "queueSort must be the same for all profiles".into()
            )]
        );
    }

    /// `ValidateVolumeBindingArgs` with `StorageCapacityScoring` off, and
    /// `ValidateNodeAffinityArgs` parsing `addedAffinity` as the scheduler does.
    #[test]
    fn volume_binding_and_node_affinity_args_are_validated() {
        let found = configuration(serde_json::json!({"profiles": [{"pluginConfig": [
            {"name": "VolumeBinding", "args": {"bindTimeoutSeconds": -1, "shape": []}},
            {"name": "NodeAffinity", "args": {"addedAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                    {"matchExpressions": [
                        {"key": "zone", "operator": "Bogus"},
                        {"key": "size", "operator": "Gt", "values": ["big", "2"]},
                        {"key": "zone", "operator": "Exists", "values": ["a"]}
                    ]},
                    {"matchFields": [{"key": "metadata.name", "operator": "Exists"},
                        {"key": "metadata.name", "operator": "In", "values": []}]}
                ]},
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 0, "preference": {"matchExpressions": [{"key": "a", "operator": "Nope"}]}},
                    {"weight": 1, "preference": {"matchExpressions": [{"key": "a", "operator": "In"}]}}
                ]
            }}}
        ]}]}));
        let found: Vec<(String, String)> = found
            .into_iter()
            .map(|(path, _, message)| (path, message))
            .collect();
        let binding = "profiles[0].pluginConfig[0].args";
        let required = "profiles[0].pluginConfig[1].args.addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
        let preferred = "profiles[0].pluginConfig[1].args.addedAffinity.preferredDuringSchedulingIgnoredDuringExecution";
        let expected = [
            (alloc::format!("{binding}.bindTimeoutSeconds"), "invalid BindTimeoutSeconds, should not be a negative value"),
            (alloc::format!("{binding}.shape"), "unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring"),
            (alloc::format!("{required}[0].matchExpressions[0].operator"), "Unsupported value: \"Bogus\""),
            (alloc::format!("{required}[0].matchExpressions[1].values"), "for 'Gt', 'Lt' operators, exactly one value is required"),
            (alloc::format!("{required}[0].matchExpressions[1].values[0]"), "for 'Gt', 'Lt' operators, the value must be an integer"),
            (alloc::format!("{required}[0].matchExpressions[2].values"), "values set must be empty for exists and does not exist"),
            (alloc::format!("{required}[1].matchFields[0].operator"), "Unsupported value: \"Exists\": supported values: \"In\", \"NotIn\""),
            (alloc::format!("{required}[1].matchFields[1].values"), "must have one element"),
            (alloc::format!("{preferred}[1].preference.matchExpressions[0].values"), "for 'in', 'notin' operators, values set can't be empty"),
        ];
        let expected: Vec<(String, String)> = expected
            .into_iter()
            .map(|(path, message)| (path, message.into()))
            .collect();
        assert_eq!(found, expected);
    }

    /// `ValidateKubeSchedulerConfiguration`'s top-level fields, after defaulting, and the
    /// API versions 1.34 decodes.
    #[test]
    fn top_level_fields_are_validated() {
        let v1 = "kubescheduler.config.k8s.io/v1";
        assert_eq!(configuration(serde_json::json!({"apiVersion": v1})), []);
        assert_eq!(
            configuration(serde_json::json!({
                "apiVersion": "kubescheduler.config.k8s.io/v1beta3",
                "parallelism": 0, "podInitialBackoffSeconds": 20
            })),
            [
                (
                    "apiVersion".into(),
                    "scheduler-config/unsupported-version",
                    "no kind \"KubeSchedulerConfiguration\" is registered for version \"kubescheduler.config.k8s.io/v1beta3\"".into()
                ),
                (
                    "parallelism".into(),
                    "scheduler-config/invalid-parallelism",
                    "should be an integer value greater than zero".into()
                ),
                // The default maximum, 10 seconds, is below the initial backoff.
                (
                    "podMaxBackoffSeconds".into(),
                    "scheduler-config/invalid-backoff",
                    "must be greater than or equal to PodInitialBackoffSeconds".into()
                ),
            ]
        );
        assert_eq!(
            configuration(
                serde_json::json!({"podInitialBackoffSeconds": 0, "podMaxBackoffSeconds": 0})
            ),
            [(
                "podInitialBackoffSeconds".into(),
                "scheduler-config/invalid-backoff",
                "must be greater than 0".into()
            )]
        );
    }

    /// `NewFramework` wants one queue sort and a bind plugin after MultiPoint expansion.
    #[test]
    fn a_profile_needs_queue_sort_and_bind_plugins() {
        let found = |plugins: serde_json::Value| {
            configuration(
                serde_json::json!({"profiles": [{"schedulerName": "s", "plugins": plugins}]}),
            )
            .into_iter()
            .map(|(path, _, message)| (path, message))
            .collect::<Vec<_>>()
        };
        let all = serde_json::json!({"disabled": [{"name": "*"}]});
        assert_eq!(
            found(serde_json::json!({"multiPoint": all.clone()})),
            [
                (
                    "profiles[0].plugins.queueSort".into(),
                    "only one queue sort plugin required for profile with scheduler name \"s\", but got 0".into()
                ),
                (
                    "profiles[0].plugins.bind".into(),
                    "at least one bind plugin is needed for profile with scheduler name \"s\"".into()
                ),
            ]
        );
        assert_eq!(
            found(serde_json::json!({"multiPoint": all.clone(),
                "queueSort": {"enabled": [{"name": "PrioritySort"}]},
                "bind": {"enabled": [{"name": "DefaultBinder"}]}})),
            []
        );
        assert_eq!(
            found(
                serde_json::json!({"multiPoint": {"disabled": [{"name": "*"}],
                "enabled": [{"name": "PrioritySort"}, {"name": "DefaultBinder"}]}})
            ),
            []
        );
        assert_eq!(
            found(serde_json::json!({"bind": all.clone(), "queueSort": all})).len(),
            2
        );
    }

    #[test]
    fn hard_pod_affinity_weight_is_0_to_100() {
        let found = |weight: i32| {
            let configuration = serde_json::from_value(serde_json::json!({
                "profiles": [{"schedulerName": "default-scheduler", "pluginConfig": [
                    {"name": "NodeResourcesFit", "args": {}},
                    {"name": "InterPodAffinity", "args": {"hardPodAffinityWeight": weight}}
                ]}]
            }))
            .unwrap();
            validate(&Resource::KubeSchedulerConfiguration(configuration))
                .into_iter()
                .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
                .collect::<Vec<_>>()
        };
        assert_eq!(found(0), []);
        assert_eq!(found(100), []);
        for weight in [-1, 150] {
            assert_eq!(
                found(weight),
                [(
                    "profiles[0].pluginConfig[1].args.hardPodAffinityWeight".into(),
                    "scheduler-config/invalid-hard-pod-affinity-weight",
                    "not in valid range [0, 100]".into()
                )]
            );
        }
    }

    /// `ValidateDefaultPreemptionArgs`, upstream's own table: the ranges, and both
    /// minimums zero at once.
    #[test]
    fn preemption_minimums_are_validated() {
        let found = |args: serde_json::Value| {
            let configuration = serde_json::from_value(serde_json::json!({
                "profiles": [{"schedulerName": "default-scheduler", "pluginConfig": [
                    {"name": "DefaultPreemption", "args": args}
                ]}]
            }))
            .unwrap();
            validate(&Resource::KubeSchedulerConfiguration(configuration))
                .into_iter()
                .map(|v| (v.path.to_string(), v.diagnostic.message))
                .collect::<Vec<_>>()
        };
        let path = |field: &str| alloc::format!("profiles[0].pluginConfig[0].args.{field}");
        let percentage = path("minCandidateNodesPercentage");
        let absolute = path("minCandidateNodesAbsolute");
        assert_eq!(found(serde_json::json!({})), []);
        assert_eq!(
            found(
                serde_json::json!({"minCandidateNodesPercentage": 0, "minCandidateNodesAbsolute": 100})
            ),
            []
        );
        assert_eq!(
            found(
                serde_json::json!({"minCandidateNodesPercentage": 150, "minCandidateNodesAbsolute": -1})
            ),
            [
                (
                    percentage.clone(),
                    "not in valid range [0, 100]".to_string()
                ),
                (absolute.clone(), "not in valid range [0, inf)".to_string())
            ]
        );
        assert_eq!(
            found(
                serde_json::json!({"minCandidateNodesPercentage": 0, "minCandidateNodesAbsolute": 0})
            ),
            [
                (
                    percentage,
                    "cannot be zero at the same time as minCandidateNodesAbsolute".to_string()
                ),
                (
                    absolute,
                    "cannot be zero at the same time as minCandidateNodesPercentage".to_string()
                )
            ]
        );
    }

    /// `ValidatePodTopologySpreadArgs`: System (also when empty) takes no constraints of
    /// its own, and listed constraints follow a pod's rules without a selector.
    #[test]
    fn spread_defaults_are_validated() {
        let found = |args: serde_json::Value| {
            let configuration = serde_json::from_value(serde_json::json!({
                "profiles": [{"schedulerName": "default-scheduler", "pluginConfig": [
                    {"name": "PodTopologySpread", "args": args}
                ]}]
            }))
            .unwrap();
            validate(&Resource::KubeSchedulerConfiguration(configuration))
                .into_iter()
                .map(|v| (v.path.to_string(), v.diagnostic.message))
                .collect::<Vec<_>>()
        };
        let zone = serde_json::json!({"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"});
        assert_eq!(
            found(serde_json::json!({"defaultingType": "List", "defaultConstraints": [zone]})),
            []
        );
        assert_eq!(found(serde_json::json!({"defaultingType": "List"})), []);
        let at = "profiles[0].pluginConfig[0].args";
        assert_eq!(
            found(serde_json::json!({"defaultConstraints": [zone]})),
            [(
                alloc::format!("{at}.defaultingType"),
                "when .defaultConstraints are not empty".into()
            )]
        );
        assert_eq!(
            found(serde_json::json!({"defaultingType": "Listed"})),
            [(
                alloc::format!("{at}.defaultingType"),
                "Unsupported value: \"Listed\": supported values: \"System\", \"List\"".into()
            )]
        );
        let bad = serde_json::json!({"maxSkew": 0, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
            "labelSelector": {"matchLabels": {"app": "web"}}});
        let list = alloc::format!("{at}.defaultConstraints");
        assert_eq!(
            found(serde_json::json!({"defaultingType": "List", "defaultConstraints": [zone, bad]})),
            [
                (
                    alloc::format!("{list}[1].maxSkew"),
                    "not in valid range (0, inf)".into()
                ),
                (
                    alloc::format!("{list}[1].labelSelector"),
                    "constraint must not define a selector, as they deduced for each pod".into()
                ),
                (
                    alloc::format!("{list}[1]"),
                    "Duplicate value: \"{zone, DoNotSchedule}\"".into()
                ),
            ]
        );
    }

    #[test]
    fn the_chapter_default_policy_is_valid() {
        assert_eq!(
            run(serde_json::json!({
                "predicates": [
                    {"name": "NoVolumeZoneConflict"}, {"name": "GeneralPredicates"},
                    {"name": "Region", "argument": {"serviceAffinity": {"labels": ["region"]}}}
                ],
                "priorities": [
                    {"name": "NodePreferAvoidPodsPriority", "weight": 10000},
                    {"name": "Zone", "weight": 2, "argument": {"serviceAntiAffinity": {"label": "zone"}}}
                ]
            })),
            []
        );
    }

    #[test]
    fn a_custom_name_defined_earlier_is_known() {
        let rack = serde_json::json!({"labelsPresence": {"labels": ["rack"], "presence": true}});
        let preference =
            serde_json::json!({"labelPreference": {"label": "rack", "presence": true}});
        assert_eq!(
            run(serde_json::json!({
                "predicates": [{"name": "NeedRack", "argument": rack}, {"name": "NeedRack"}],
                "priorities": [
                    {"name": "Rack", "weight": 1, "argument": preference},
                    {"name": "Rack", "weight": 5}
                ]
            })),
            []
        );
        let found = run(serde_json::json!({
            "predicates": [{"name": "NeedRack"}, {"name": "NeedRack", "argument": rack}],
            "priorities": [
                {"name": "Rack", "weight": 5},
                {"name": "Rack", "weight": 1, "argument": preference}
            ]
        }));
        let codes: Vec<(&str, &str)> = found
            .iter()
            .map(|(path, code, _)| (path.as_str(), *code))
            .collect();
        assert_eq!(
            codes,
            [
                ("predicates[0].name", "policy/unknown-predicate"),
                ("priorities[0].name", "policy/unknown-priority")
            ]
        );
    }

    #[test]
    fn upstream_messages_at_the_field() {
        let found = run(serde_json::json!({
            "predicates": [
                {"name": "Nope"},
                {"name": "Both", "argument": {"serviceAffinity": {"labels": ["a"]}, "labelsPresence": {"labels": ["b"]}}}
            ],
            "priorities": [
                {"name": "NoWeightPriority"},
                {"name": "Shape", "weight": 1, "argument": {"requestedToCapacityRatioArguments": {"shape": [{"utilization": 50, "score": 5}, {"utilization": 40, "score": 1}]}}}
            ],
            "hardPodAffinitySymmetricWeight": 101
        }));
        assert_eq!(
            found,
            [
                (
                    "priorities[0].weight".into(),
                    "policy/invalid-weight",
                    "Priority NoWeightPriority should have a positive weight applied to it or it has overflown".into()
                ),
                (
                    "predicates[0].name".into(),
                    "policy/unknown-predicate",
                    "Invalid configuration: Predicate type not found for Nope".into()
                ),
                (
                    "predicates[1].argument".into(),
                    "policy/argument-count",
                    "Exactly 1 predicate argument is required, numArgs: 2, Predicate: Both".into()
                ),
                (
                    "priorities[0].name".into(),
                    "policy/unknown-priority",
                    "Invalid configuration: Priority type not found for NoWeightPriority".into()
                ),
                (
                    "priorities[1].argument.requestedToCapacityRatioArguments.shape".into(),
                    "policy/invalid-shape",
                    "invalid RequestedToCapacityRatioPriority arguments: utilization values must be sorted. Utilization[0]==50 >= Utilization[1]==40".into()
                ),
                (
                    "hardPodAffinitySymmetricWeight".into(),
                    "policy/invalid-hard-pod-affinity-weight",
                    "invalid hardPodAffinitySymmetricWeight: 101, must be in the range 1-100".into()
                ),
            ]
        );
    }
}
