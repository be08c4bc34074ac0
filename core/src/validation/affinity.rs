//! `spec.affinity`: node affinity, pod affinity and pod anti-affinity.
//!
//! Upstream: `validateAffinity`, `validateNodeAffinity`, `ValidatePreferredSchedulingTerms`,
//! `validatePodAffinityTerm`, `validateWeightedPodAffinityTerms` and
//! `validateMatchLabelKeysAndMismatchLabelKeys` in `pkg/apis/core/validation/validation.go`.
//!
//! Differences from upstream, on purpose:
//! - an empty `topologyKey` gets the one upstream message `can not be empty`, without
//!   the two label-key messages upstream repeats for the empty string;
//! - a bad entry of `namespaces` is reported at `namespaces[i]` (upstream: `namespace`);
//! - `exists in both matchLabelKeys and labelSelector` is not checked: the API server
//!   checks it after merging `matchLabelKeys` into the selector, so a dump of live pods
//!   (merged) and a hand-written manifest (not merged) would need opposite answers.

use alloc::string::String;

use crate::model::{
    Affinity, LabelSelector, NodeAffinity, PodAffinityTerm, WeightedPodAffinityTerm,
};

use super::names;
use super::path::{At, Sink};
use super::selector;

/// Every rule of `validateAffinity`.
pub(super) fn affinity(affinity: &Affinity, at: &At<'_>, sink: &mut Sink) {
    if let Some(node) = &affinity.node_affinity {
        node_affinity(node, &at.field("nodeAffinity"), sink);
    }
    if let Some(pod) = &affinity.pod_affinity {
        let at = at.field("podAffinity");
        pod_terms(
            &pod.required_during_scheduling_ignored_during_execution,
            &pod.preferred_during_scheduling_ignored_during_execution,
            &at,
            sink,
        );
    }
    if let Some(anti) = &affinity.pod_anti_affinity {
        let at = at.field("podAntiAffinity");
        pod_terms(
            &anti.required_during_scheduling_ignored_during_execution,
            &anti.preferred_during_scheduling_ignored_during_execution,
            &at,
            sink,
        );
    }
}

/// `validateNodeAffinity` and `ValidatePreferredSchedulingTerms`.
fn node_affinity(affinity: &NodeAffinity, at: &At<'_>, sink: &mut Sink) {
    if let Some(required) = &affinity.required_during_scheduling_ignored_during_execution {
        selector::node_selector(
            required,
            &at.field("requiredDuringSchedulingIgnoredDuringExecution"),
            sink,
        );
    }
    let preferred = at.field("preferredDuringSchedulingIgnoredDuringExecution");
    for (index, term) in affinity
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .enumerate()
    {
        let entry = preferred.index(index);
        weight(term.weight, &entry, sink);
        selector::node_selector_term(&term.preference, true, &entry.field("preference"), sink);
    }
}

/// The required and preferred terms of a pod affinity or anti-affinity.
fn pod_terms(
    required: &[PodAffinityTerm],
    preferred: &[WeightedPodAffinityTerm],
    at: &At<'_>,
    sink: &mut Sink,
) {
    let required_at = at.field("requiredDuringSchedulingIgnoredDuringExecution");
    for (index, term) in required.iter().enumerate() {
        pod_term(term, &required_at.index(index), sink);
    }
    let preferred_at = at.field("preferredDuringSchedulingIgnoredDuringExecution");
    for (index, weighted) in preferred.iter().enumerate() {
        let entry = preferred_at.index(index);
        weight(weighted.weight, &entry, sink);
        pod_term(
            &weighted.pod_affinity_term,
            &entry.field("podAffinityTerm"),
            sink,
        );
    }
}

/// Preferred terms weigh 1 to 100.
fn weight(weight: i32, at: &At<'_>, sink: &mut Sink) {
    if !(1..=100).contains(&weight) {
        sink.error(
            &at.field("weight"),
            "affinity/invalid-weight",
            "must be in the range 1-100",
        );
    }
}

/// `validatePodAffinityTerm`.
fn pod_term(term: &PodAffinityTerm, at: &At<'_>, sink: &mut Sink) {
    if let Some(labels) = &term.label_selector {
        selector::pod_affinity_selector(labels, &at.field("labelSelector"), sink);
    }
    if let Some(namespaces) = &term.namespace_selector {
        selector::label_selector(namespaces, &at.field("namespaceSelector"), sink);
    }
    let namespaces = at.field("namespaces");
    for (index, namespace) in term.namespaces.iter().enumerate() {
        let errors = names::dns1123_label(namespace);
        if !errors.is_empty() {
            sink.errors(
                &namespaces.index(index),
                "affinity/invalid-namespace",
                &errors,
            );
        }
    }
    label_keys(term, at, sink);
    let topology = at.field("topologyKey");
    if term.topology_key.is_empty() {
        sink.error(&topology, "affinity/empty-topology-key", "can not be empty");
    } else {
        sink.errors(
            &topology,
            "affinity/invalid-topology-key",
            &names::qualified_name(&term.topology_key),
        );
    }
}

/// `validateMatchLabelKeysAndMismatchLabelKeys`, less the selector-overlap rule.
fn label_keys(term: &PodAffinityTerm, at: &At<'_>, sink: &mut Sink) {
    let codes = KeyCodes {
        without_selector: "affinity/label-keys-without-selector",
        invalid: "affinity/invalid-label-key",
    };
    keys(
        &term.match_label_keys,
        term.label_selector.as_ref(),
        &at.field("matchLabelKeys"),
        codes,
        sink,
    );
    keys(
        &term.mismatch_label_keys,
        term.label_selector.as_ref(),
        &at.field("mismatchLabelKeys"),
        codes,
        sink,
    );
    let match_at = at.field("matchLabelKeys");
    for (index, key) in term.match_label_keys.iter().enumerate() {
        if term.mismatch_label_keys.contains(key) {
            sink.error(
                &match_at.index(index),
                "affinity/label-key-conflict",
                "exists in both matchLabelKeys and mismatchLabelKeys",
            );
        }
    }
}

/// The codes [`keys`] reports with.
#[derive(Clone, Copy, Debug)]
pub(super) struct KeyCodes {
    /// Keys given without a label selector.
    pub without_selector: &'static str,
    /// A key that is not a qualified name.
    pub invalid: &'static str,
}

/// `validateLabelKeys` and `validateMatchLabelKeysInTopologySpread`: keys need a
/// selector to add to, and must be qualified names.
pub(super) fn keys(
    keys: &[String],
    selector: Option<&LabelSelector>,
    at: &At<'_>,
    codes: KeyCodes,
    sink: &mut Sink,
) {
    if keys.is_empty() {
        return;
    }
    if selector.is_none() {
        sink.error(
            at,
            codes.without_selector,
            "must not be specified when labelSelector is not set",
        );
        // Upstream still checks each key of a topology spread constraint; the message
        // above is the one that matters.
        return;
    }
    for (index, key) in keys.iter().enumerate() {
        let errors = names::qualified_name(key);
        if !errors.is_empty() {
            sink.errors(&at.index(index), codes.invalid, &errors);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Affinity cases of upstream's `TestValidatePod` (valid and invalid).

    use super::*;
    use alloc::string::ToString;
    use alloc::vec::Vec;

    fn run(json: serde_json::Value) -> Vec<(String, &'static str, String)> {
        let affinity: Affinity = serde_json::from_value(json).unwrap();
        let mut sink = Sink::default();
        let spec = At::root("spec");
        super::affinity(&affinity, &spec.field("affinity"), &mut sink);
        sink.finish()
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    #[test]
    fn valid_affinities() {
        // "serialized node affinity requirements" and "serialized pod affinity in
        // affinity requirements in annotations" of upstream's success cases.
        let found = run(serde_json::json!({
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                    {"matchExpressions": [{"key": "key2", "operator": "In", "values": ["value1", "value2"]}]},
                    {"matchFields": [{"key": "metadata.name", "operator": "NotIn", "values": ["host1"]}]}
                ]},
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 10, "preference": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}}
                ]
            },
            "podAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [{
                    "labelSelector": {"matchExpressions": [{"key": "key2", "operator": "In", "values": ["value1", "value2"]}]},
                    "topologyKey": "zone",
                    "namespaces": ["ns"],
                    "matchLabelKeys": ["pod-template-hash"]
                }],
                "preferredDuringSchedulingIgnoredDuringExecution": [{
                    "weight": 10,
                    "podAffinityTerm": {
                        "labelSelector": {"matchExpressions": [{"key": "key2", "operator": "NotIn", "values": ["value1", "value2"]}]},
                        "namespaces": ["ns"],
                        "topologyKey": "region"
                    }
                }]
            },
            "podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [{
                    "labelSelector": {"matchLabels": {"app": "web"}},
                    "topologyKey": "kubernetes.io/hostname"
                }]
            }
        }));
        assert_eq!(found, []);
    }

    #[test]
    fn preferred_weights_are_1_to_100() {
        // "invalid preferredSchedulingTerm in node affinity, weight should be in range 1-100"
        // and "invalid weight in preferredDuringSchedulingIgnoredDuringExecution in pod
        // affinity annotations, weight should be in range 1-100".
        let found = run(serde_json::json!({
            "nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 199, "preference": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}}
            ]},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 0, "podAffinityTerm": {"labelSelector": {"matchLabels": {"a": "b"}}, "topologyKey": "zone"}}
            ]}
        }));
        assert_eq!(
            found,
            [
                (
                    "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight".into(),
                    "affinity/invalid-weight",
                    "must be in the range 1-100".into()
                ),
                (
                    "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight".into(),
                    "affinity/invalid-weight",
                    "must be in the range 1-100".into()
                ),
            ]
        );
    }

    #[test]
    fn topology_keys() {
        // "invalid soft pod anti-affinity, empty topologyKey is not allowed for soft pod
        // anti-affinity" and "invalid hard pod affinity, empty topologyKey is not allowed".
        let found = run(serde_json::json!({
            "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"a": "b"}}, "topologyKey": ""}
            ]},
            "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 10, "podAffinityTerm": {"labelSelector": {"matchLabels": {"a": "b"}}, "topologyKey": "a/b/c"}}
            ]}
        }));
        assert_eq!(
            found,
            [
                (
                    "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey".into(),
                    "affinity/empty-topology-key",
                    "can not be empty".into()
                ),
                (
                    "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey".into(),
                    "affinity/invalid-topology-key",
                    names::LABEL_KEY_FORMAT.into()
                ),
            ]
        );
    }

    #[test]
    fn pod_affinity_selectors_and_namespaces() {
        // "invalid labelSelector in podAffinity / podAntiAffinity" and "invalid namespace".
        let found = run(serde_json::json!({
            "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [{
                "labelSelector": {"matchExpressions": [{"key": "key2", "operator": "NotIn", "values": ["value1", "value2"]}, {"key": "k", "operator": "Exists", "values": ["v"]}]},
                "namespaceSelector": {"matchExpressions": [{"key": "team", "operator": "In"}]},
                "namespaces": ["INVALID_NAMESPACE"],
                "topologyKey": "zone"
            }]}
        }));
        let codes: Vec<(String, &str)> = found.into_iter().map(|f| (f.0, f.1)).collect();
        let term = "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
        assert_eq!(
            codes,
            [
                (
                    alloc::format!("{term}.labelSelector.matchExpressions[1].values"),
                    "selector/forbidden-values"
                ),
                (
                    alloc::format!("{term}.namespaceSelector.matchExpressions[0].values"),
                    "selector/missing-values"
                ),
                (
                    alloc::format!("{term}.namespaces[0]"),
                    "affinity/invalid-namespace"
                ),
            ]
        );
    }

    #[test]
    fn match_label_keys() {
        // "invalid matchLabelKeys, key exists in both matchLabelKeys and mismatchLabelKeys"
        // and "invalid matchLabelKeys, labelSelector is not set".
        let found = run(serde_json::json!({
            "podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {
                    "labelSelector": {"matchExpressions": [{"key": "key", "operator": "NotIn", "values": ["value1", "value2"]}]},
                    "topologyKey": "k8s.io/zone",
                    "matchLabelKeys": ["samekey"],
                    "mismatchLabelKeys": ["samekey"]
                },
                {"topologyKey": "k8s.io/zone", "matchLabelKeys": ["a"]},
                {"labelSelector": {}, "topologyKey": "k8s.io/zone", "mismatchLabelKeys": ["/simple"]}
            ]}
        }));
        let base = "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution";
        assert_eq!(
            found,
            [
                (
                    alloc::format!("{base}[0].matchLabelKeys[0]"),
                    "affinity/label-key-conflict",
                    "exists in both matchLabelKeys and mismatchLabelKeys".into()
                ),
                (
                    alloc::format!("{base}[1].matchLabelKeys"),
                    "affinity/label-keys-without-selector",
                    "must not be specified when labelSelector is not set".into()
                ),
                (
                    alloc::format!("{base}[2].mismatchLabelKeys[0]"),
                    "affinity/invalid-label-key",
                    names::LABEL_KEY_PREFIX_EMPTY.into()
                ),
            ]
        );
    }

    #[test]
    fn required_node_affinity_needs_terms() {
        // "invalid requiredDuringSchedulingIgnoredDuringExecution node selector, nodeSelectorTerms must have at least one term"
        let found = run(serde_json::json!({
            "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}
        }));
        assert_eq!(
            found,
            [(
                "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms".into(),
                "affinity/no-terms",
                "must have at least one node selector term".into()
            )]
        );
    }
}
