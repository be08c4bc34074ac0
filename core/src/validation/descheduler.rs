//! `DeschedulerPolicy` (`descheduler/v1alpha1`): strategy names and parameters.
//!
//! The descheduler of OpenShift 3.11 (`openshift/descheduler` `v3.11.0`) checks almost
//! nothing: it reads four strategy names, and a LowNodeUtilization or
//! RemovePodsViolatingNodeAffinity it cannot use is only logged and skipped. So every
//! finding here is a warning that says what the run will do instead. Parameters are
//! checked only for enabled strategies, the only ones the descheduler reads.

use crate::descheduler::STRATEGIES;
use crate::model::{DeschedulerPolicy, DeschedulerStrategy};

use super::path::{At, Sink};
use super::Violation;

/// The resources LowNodeUtilization measures.
const RESOURCES: [&str; 3] = ["cpu", "memory", "pods"];

/// The one `nodeAffinityType` the descheduler knows.
const REQUIRED: &str = "requiredDuringSchedulingIgnoredDuringExecution";

/// Every rule a DeschedulerPolicy breaks.
pub(super) fn validate(policy: &DeschedulerPolicy, sink: &mut Sink) {
    let strategies = At::root("strategies");
    for (name, strategy) in &policy.strategies {
        let at = strategies.key(name);
        if !STRATEGIES.contains(&name.as_str()) {
            sink.push(
                Violation::warning(
                    at.path(),
                    "descheduler/unknown-strategy",
                    alloc::format!(
                        "unknown strategy `{name}`: the descheduler of OpenShift 3.11 never runs it"
                    ),
                )
                .at_key()
                .with_help(
                    "it runs `RemoveDuplicates`, `LowNodeUtilization`, \
                     `RemovePodsViolatingInterPodAntiAffinity` and \
                     `RemovePodsViolatingNodeAffinity` (names are case-sensitive)",
                ),
            );
            continue;
        }
        if !strategy.enabled {
            continue;
        }
        match name.as_str() {
            "LowNodeUtilization" => low_node_utilization(strategy, &at, sink),
            "RemovePodsViolatingNodeAffinity" => node_affinity(strategy, &at, sink),
            _ => {}
        }
    }
}

fn low_node_utilization(strategy: &DeschedulerStrategy, at: &At<'_>, sink: &mut Sink) {
    let parameters = &strategy.params.node_resource_utilization_thresholds;
    let params = at.field("params");
    let at = params.field("nodeResourceUtilizationThresholds");
    let thresholds_at = at.field("thresholds");
    if parameters.thresholds.is_empty() {
        sink.push(
            Violation::warning(
                thresholds_at.path(),
                "descheduler/missing-thresholds",
                "no `thresholds` are set, so the descheduler skips LowNodeUtilization",
            )
            .with_help("set a percentage for `cpu`, `memory` or `pods`"),
        );
    }
    for (resource, value) in &parameters.thresholds {
        let entry = thresholds_at.key(resource);
        if !RESOURCES.contains(&resource.as_str()) {
            sink.push(
                Violation::warning(
                    entry.path(),
                    "descheduler/unknown-threshold-resource",
                    alloc::format!(
                        "`{resource}` cannot have a threshold, so the descheduler skips LowNodeUtilization"
                    ),
                )
                .at_key()
                .with_help("only `cpu`, `memory` and `pods` can have thresholds"),
            );
        }
        percentage(*value, &entry, sink);
    }
    let targets_at = at.field("targetThresholds");
    let Some(targets) = &parameters.target_thresholds else {
        sink.push(
            Violation::warning(
                at.path(),
                "descheduler/missing-target-thresholds",
                "no `targetThresholds` are set, so the descheduler skips LowNodeUtilization",
            )
            .with_help("set `targetThresholds`, with a `pods` entry"),
        );
        return;
    };
    if !targets.contains_key("pods") {
        sink.push(
            Violation::warning(
                targets_at.path(),
                "descheduler/missing-pods-target",
                "`targetThresholds` has no `pods` entry, so the descheduler of OpenShift 3.11 silently skips LowNodeUtilization",
            )
            .with_help("add a `pods` target; 100 keeps the pod count from making a node overutilized"),
        );
    }
    for (resource, value) in targets {
        let entry = targets_at.key(resource);
        if !RESOURCES.contains(&resource.as_str()) {
            sink.push(
                Violation::warning(
                    entry.path(),
                    "descheduler/unused-target-resource",
                    alloc::format!("`{resource}` is not measured, so this target is ignored"),
                )
                .at_key()
                .with_help("only `cpu`, `memory` and `pods` are measured"),
            );
            continue;
        }
        percentage(*value, &entry, sink);
        if let Some(threshold) = parameters.thresholds.get(resource) {
            if threshold > value {
                sink.warning(
                    &entry,
                    "descheduler/threshold-above-target",
                    alloc::format!(
                        "the `{resource}` target `{value}` is below its threshold `{threshold}`, so a node between them may count as underutilized rather than overutilized"
                    ),
                );
            }
        }
    }
}

/// A threshold or target outside 0–100: accepted and used as is.
fn percentage(value: f64, at: &At<'_>, sink: &mut Sink) {
    if !(0.0..=100.0).contains(&value) {
        sink.warning(
            at,
            "descheduler/threshold-out-of-range",
            alloc::format!(
                "`{value}` is not a percentage from 0 to 100; the descheduler of OpenShift 3.11 uses it as is"
            ),
        );
    }
}

fn node_affinity(strategy: &DeschedulerStrategy, at: &At<'_>, sink: &mut Sink) {
    let params = at.field("params");
    let types_at = params.field("nodeAffinityType");
    let types = &strategy.params.node_affinity_type;
    if types.is_empty() {
        sink.push(
            Violation::warning(
                types_at.path(),
                "descheduler/missing-node-affinity-type",
                "no `nodeAffinityType` is given, so RemovePodsViolatingNodeAffinity does nothing",
            )
            .with_help(alloc::format!("list `{REQUIRED}`")),
        );
    }
    for (index, affinity_type) in types.iter().enumerate() {
        let entry = types_at.index(index);
        if affinity_type != REQUIRED {
            sink.push(
                Violation::warning(
                    entry.path(),
                    "descheduler/invalid-node-affinity-type",
                    alloc::format!(
                        "invalid nodeAffinityType `{affinity_type}`: the descheduler stops RemovePodsViolatingNodeAffinity here"
                    ),
                )
                .with_help(alloc::format!("the only supported type is `{REQUIRED}`")),
            );
            // The run stops at the first invalid entry; later ones are never read.
            return;
        }
        if types
            .get(..index)
            .unwrap_or_default()
            .contains(affinity_type)
        {
            sink.warning(
                &entry,
                "descheduler/duplicate-node-affinity-type",
                alloc::format!(
                    "`{affinity_type}` is listed twice, so the descheduler runs RemovePodsViolatingNodeAffinity twice"
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use crate::input::{self, Resource};
    use crate::validation::validate as validate_resource;
    use crate::{Limits, Source};

    /// `(code, path)` of each finding for a policy written in YAML.
    fn findings(yaml: &str) -> Vec<(String, String)> {
        let sources = [Source::new("policy.yaml", yaml)];
        let loaded = input::load(&sources, &Limits::default());
        let policy = loaded
            .objects
            .into_iter()
            .find_map(|object| match object.resource {
                Resource::DeschedulerPolicy(policy) => Some(policy),
                _ => None,
            });
        let Some(policy) = policy else {
            panic!("no policy read: {:?}", loaded.diagnostics);
        };
        validate_resource(&Resource::DeschedulerPolicy(policy))
            .into_iter()
            .map(|violation| {
                assert_eq!(violation.diagnostic.severity, crate::Severity::Warning);
                (
                    violation.diagnostic.code.to_string(),
                    violation.path.to_string(),
                )
            })
            .collect()
    }

    const HEADER: &str = "apiVersion: descheduler/v1alpha1\nkind: DeschedulerPolicy\n";

    #[test]
    fn the_documented_policy_is_clean() {
        let yaml = alloc::format!(
            "{HEADER}strategies:
  RemoveDuplicates:
    enabled: false
  LowNodeUtilization:
    enabled: true
    params:
      nodeResourceUtilizationThresholds:
        thresholds: {{cpu: 20, memory: 20, pods: 20}}
        targetThresholds: {{cpu: 50, memory: 50, pods: 50}}
        numberOfNodes: 3
  RemovePodsViolatingInterPodAntiAffinity:
    enabled: true
  RemovePodsViolatingNodeAffinity:
    enabled: true
    params:
      nodeAffinityType: [requiredDuringSchedulingIgnoredDuringExecution]
"
        );
        assert_eq!(findings(&yaml), []);
    }

    #[test]
    fn what_v3_11_0_skips_is_reported() {
        let yaml = alloc::format!(
            "{HEADER}strategies:
  RemovePodsHavingTooManyRestarts: {{enabled: true}}
  LowNodeUtilization:
    enabled: true
    params:
      nodeResourceUtilizationThresholds:
        thresholds: {{cpu: 60, storage: 10}}
        targetThresholds: {{cpu: 50, memory: 150, gpu: 5}}
  RemovePodsViolatingNodeAffinity:
    enabled: true
    params:
      nodeAffinityType: [preferredDuringSchedulingIgnoredDuringExecution, other]
"
        );
        let found = findings(&yaml);
        let codes: Vec<&str> = found.iter().map(|(code, _)| code.as_str()).collect();
        assert_eq!(
            codes,
            [
                "descheduler/unknown-threshold-resource",
                "descheduler/missing-pods-target",
                "descheduler/threshold-above-target",
                "descheduler/unused-target-resource",
                "descheduler/threshold-out-of-range",
                "descheduler/unknown-strategy",
                "descheduler/invalid-node-affinity-type",
            ]
        );
        let paths: Vec<&str> = found.iter().map(|(_, path)| path.as_str()).collect();
        assert_eq!(
            paths[0],
            "strategies.LowNodeUtilization.params.nodeResourceUtilizationThresholds.thresholds.storage"
        );
        assert_eq!(
            paths[6],
            "strategies.RemovePodsViolatingNodeAffinity.params.nodeAffinityType[0]"
        );
    }

    #[test]
    fn missing_maps_and_types_are_reported_for_enabled_strategies_only() {
        let yaml = alloc::format!(
            "{HEADER}strategies:
  LowNodeUtilization: {{enabled: true}}
  RemovePodsViolatingNodeAffinity: {{enabled: false}}
"
        );
        let codes: Vec<String> = findings(&yaml).into_iter().map(|(code, _)| code).collect();
        assert_eq!(
            codes,
            [
                "descheduler/missing-thresholds",
                "descheduler/missing-target-thresholds"
            ]
        );
        let yaml = alloc::format!(
            "{HEADER}strategies:
  RemovePodsViolatingNodeAffinity:
    enabled: true
    params: {{nodeAffinityType: []}}
"
        );
        let codes: Vec<String> = findings(&yaml).into_iter().map(|(code, _)| code).collect();
        assert_eq!(codes, ["descheduler/missing-node-affinity-type"]);
        let yaml = alloc::format!(
            "{HEADER}strategies:
  RemovePodsViolatingNodeAffinity:
    enabled: true
    params:
      nodeAffinityType:
      - requiredDuringSchedulingIgnoredDuringExecution
      - requiredDuringSchedulingIgnoredDuringExecution
"
        );
        let found = findings(&yaml);
        assert_eq!(
            found,
            [(
                String::from("descheduler/duplicate-node-affinity-type"),
                String::from(
                    "strategies.RemovePodsViolatingNodeAffinity.params.nodeAffinityType[1]"
                )
            )]
        );
    }
}
