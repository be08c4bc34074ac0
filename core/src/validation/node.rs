//! `Node`: name, taints, capacity and allocatable.
//!
//! Upstream: `ValidateNode`, `validateNodeTaints`, `validateTaintEffect` and
//! `ValidateNodeResources` in `pkg/apis/core/validation/validation.go`. Taints are
//! reported under `spec.taints` (upstream writes `metadata.taints`).

use crate::model::{Node, Taint};

use super::metadata::{self, NameRule};
use super::names;
use super::path::{unsupported, At, Sink};
use super::resources;

/// The taint effects, in upstream's order (`NoScheduleNoAdmit` is commented out upstream).
pub(super) const TAINT_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// Every rule a Node breaks.
pub(super) fn validate(node: &Node, sink: &mut Sink) {
    metadata::validate(&node.metadata, NameRule::Subdomain, sink);
    let spec = At::root("spec");
    taints(&node.spec.taints, &spec.field("taints"), sink);
    let status = At::root("status");
    resources::quantities(&node.status.capacity, &status.field("capacity"), sink);
    if let Some(allocatable) = &node.status.allocatable {
        resources::quantities(allocatable, &status.field("allocatable"), sink);
    }
}

/// `validateNodeTaints`.
fn taints(taints: &[Taint], at: &At<'_>, sink: &mut Sink) {
    for (index, taint) in taints.iter().enumerate() {
        let entry = at.index(index);
        sink.errors(
            &entry.field("key"),
            "taint/invalid-key",
            &names::qualified_name(&taint.key),
        );
        let value_errors = names::label_value(&taint.value);
        if !value_errors.is_empty() {
            // Upstream joins the messages with ";" into one error.
            sink.error(
                &entry.field("value"),
                "taint/invalid-value",
                value_errors.join(";"),
            );
        }
        if taint.effect.is_empty() {
            sink.error(
                &entry.field("effect"),
                "taint/missing-effect",
                "Required value",
            );
        } else if !TAINT_EFFECTS.contains(&taint.effect.as_str()) {
            sink.error(
                &entry.field("effect"),
                "taint/invalid-effect",
                unsupported(&taint.effect, &TAINT_EFFECTS),
            );
        }
        let earlier = taints.get(..index).unwrap_or_default();
        if earlier
            .iter()
            .any(|other| other.key == taint.key && other.effect == taint.effect)
        {
            sink.error(
                &entry,
                "taint/duplicate",
                "taints must be unique by key and effect pair",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Resource;
    use crate::validation::validate as validate_resource;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn node(json: serde_json::Value) -> Node {
        serde_json::from_value(json).unwrap()
    }

    fn run(node: Node) -> Vec<(String, &'static str, String)> {
        validate_resource(&Resource::Node(node.into()))
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    #[test]
    fn a_realistic_node_is_valid() {
        let node = node(serde_json::json!({
            "metadata": {
                "name": "ip-10-0-1-23.eu-west-1.compute.internal",
                "labels": {
                    "kubernetes.io/hostname": "ip-10-0-1-23",
                    "node-role.kubernetes.io/worker": "",
                    "topology.kubernetes.io/zone": "eu-west-1a",
                    "node.kubernetes.io/instance-type": "m5.xlarge"
                },
                "annotations": {"volumes.kubernetes.io/controller-managed-attach-detach": "true"}
            },
            "spec": {
                "providerID": "aws:///eu-west-1a/i-0123456789abcdef0",
                "taints": [
                    {"key": "node-role.kubernetes.io/infra", "effect": "NoSchedule"},
                    {"key": "node-role.kubernetes.io/infra", "effect": "NoExecute"},
                    {"key": "dedicated", "value": "gpu", "effect": "PreferNoSchedule"}
                ]
            },
            "status": {
                "capacity": {"cpu": "4", "memory": "16106172Ki", "pods": "110", "ephemeral-storage": "104845292Ki", "nvidia.com/gpu": "1", "hugepages-2Mi": "0"},
                "allocatable": {"cpu": "3920m", "memory": "15389372Ki", "pods": "110", "ephemeral-storage": "95551679979", "nvidia.com/gpu": "1", "hugepages-2Mi": "0"}
            }
        }));
        assert_eq!(run(node), []);
    }

    #[test]
    fn taint_rules() {
        // Upstream TestValidateNode: "invalid-taint-key", "invalid-taint-value",
        // "missing-taint-effect", "duplicate-taints-with-same-key-effect".
        let found = run(node(serde_json::json!({
            "metadata": {"name": "n"},
            "spec": {"taints": [
                {"key": "NoUppercaseOrSpecialCharsLike=Equals", "value": "bar", "effect": "NoSchedule"},
                {"key": "dedicated", "value": "special-user-3$", "effect": "NoSchedule"},
                {"key": "dedicated", "value": "special-user-1"},
                {"key": "dedicated", "value": "special-user-2", "effect": "NoSchedule"},
                {"key": "k", "effect": "NoScheduleNoAdmit"}
            ]}
        })));
        assert_eq!(
            found,
            [
                ("spec.taints[0].key".into(), "taint/invalid-key", names::LABEL_KEY_NAME_FORMAT.into()),
                ("spec.taints[1].value".into(), "taint/invalid-value", names::LABEL_VALUE_FORMAT.into()),
                ("spec.taints[2].effect".into(), "taint/missing-effect", "Required value".into()),
                ("spec.taints[3]".into(), "taint/duplicate", "taints must be unique by key and effect pair".into()),
                (
                    "spec.taints[4].effect".into(),
                    "taint/invalid-effect",
                    r#"Unsupported value: "NoScheduleNoAdmit": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute""#.into()
                ),
            ]
        );
    }

    #[test]
    fn taint_keys_are_required_and_qualified() {
        let long_prefix = "a".repeat(250) + "/x";
        let found = run(node(serde_json::json!({
            "metadata": {"name": "n"},
            "spec": {"taints": [{"key": "", "effect": "NoSchedule"}, {"key": long_prefix, "effect": "NoSchedule"}]}
        })));
        let messages: Vec<(String, String)> = found.into_iter().map(|f| (f.0, f.2)).collect();
        assert_eq!(
            messages,
            [
                (
                    "spec.taints[0].key".into(),
                    names::LABEL_KEY_NAME_EMPTY.into()
                ),
                (
                    "spec.taints[0].key".into(),
                    names::LABEL_KEY_NAME_FORMAT.into()
                ),
            ]
        );
        let found = run(node(serde_json::json!({
            "metadata": {"name": "n"},
            "spec": {"taints": [{"key": "a".repeat(254) + "/x", "effect": "NoSchedule"}]}
        })));
        assert_eq!(found[0].2, "prefix part must be no more than 253 bytes");
    }

    #[test]
    fn capacity_and_allocatable_quantities() {
        let found = run(node(serde_json::json!({
            "metadata": {"name": "n"},
            "status": {
                "capacity": {"cpu": "-1", "example.com/gpu": "0.5"},
                "allocatable": {"pods": "1.5"}
            }
        })));
        assert_eq!(
            found,
            [
                (
                    "status.capacity.cpu".into(),
                    "quantity/negative",
                    "must be greater than or equal to 0".into()
                ),
                (
                    "status.capacity[example.com/gpu]".into(),
                    "quantity/not-integer",
                    "must be an integer".into()
                ),
                (
                    "status.allocatable.pods".into(),
                    "quantity/not-integer",
                    "must be an integer".into()
                ),
            ]
        );
    }

    #[test]
    fn node_names_are_subdomains() {
        let found = run(node(serde_json::json!({"metadata": {"name": "Worker_1"}})));
        assert_eq!(
            found,
            [(
                "metadata.name".into(),
                "metadata/invalid-name",
                names::DNS1123_SUBDOMAIN_FORMAT.into()
            )]
        );
    }
}
