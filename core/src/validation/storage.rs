//! Storage objects: PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode,
//! CSIDriver and CSIStorageCapacity, for the fields kubefit models.
//!
//! Upstream: `ValidatePersistentVolumeSpec`, `ValidatePersistentVolumeClaimSpec` and
//! `validateVolumeNodeAffinity` in `pkg/apis/core/validation/validation.go`, and
//! `ValidateStorageClass`, `ValidateCSINode`, `ValidateCSIStorageCapacity` in
//! `pkg/apis/storage/validation/validation.go`. Volume sources kubefit does not model are
//! only counted, for the "exactly one source" rule; their own fields are not checked.

use alloc::collections::BTreeSet;
use alloc::string::String;

use crate::model::{
    CsiDriver, CsiNode, CsiStorageCapacity, PersistentVolume, PersistentVolumeClaim, StorageClass,
};
use crate::quantity::Quantity;

use super::metadata::{self, NameRule};
use super::names;
use super::path::{duplicate, unsupported, At, Sink};
use super::resources;
use super::selector;

/// Access modes upstream knows, sorted as its `NotSupported` message lists them.
const ACCESS_MODES: [&str; 4] = [
    "ReadOnlyMany",
    "ReadWriteMany",
    "ReadWriteOnce",
    "ReadWriteOncePod",
];

/// Every rule a PersistentVolume breaks.
pub(super) fn persistent_volume(volume: &PersistentVolume, sink: &mut Sink) {
    metadata::validate(&volume.metadata, NameRule::Subdomain, sink);
    let spec = &volume.spec;
    let at = At::root("spec");
    access_modes(&spec.access_modes, &at, sink);
    let capacity = at.field("capacity");
    if spec.capacity.is_empty() {
        sink.error(
            &capacity,
            "persistent-volume/missing-capacity",
            "Required value",
        );
    }
    for (name, value) in &spec.capacity {
        let entry = capacity.key(name);
        if name != "storage" {
            sink.error_at_key(
                &entry,
                "persistent-volume/invalid-capacity",
                unsupported(name, &["storage"]),
            );
        }
        resources::quantity(name, value, &entry, sink);
    }
    if !spec.capacity.is_empty() && !spec.capacity.contains_key("storage") {
        sink.error(
            &capacity,
            "persistent-volume/invalid-capacity",
            "`storage` is required",
        );
    }
    class_name(&spec.storage_class_name, &at, sink);
    match spec.source_count() {
        0 => sink.error(
            &at,
            "persistent-volume/missing-source",
            "must specify a volume type",
        ),
        1 => {}
        _ => sink.error(
            &at,
            "persistent-volume/multiple-sources",
            "may not specify more than 1 volume type",
        ),
    }
    if let Some(affinity) = &spec.node_affinity {
        let affinity_at = at.field("nodeAffinity");
        let required = affinity_at.field("required");
        match &affinity.required {
            None => sink.error(
                &required,
                "persistent-volume/missing-node-constraints",
                "must specify required node constraints",
            ),
            Some(selector) => selector::node_selector(selector, &required, sink),
        }
    }
    volume_mode(spec.volume_mode.as_deref(), &at, sink);
    let policy = spec.persistent_volume_reclaim_policy.as_str();
    if !matches!(policy, "" | "Retain" | "Delete" | "Recycle") {
        sink.error(
            &at.field("persistentVolumeReclaimPolicy"),
            "persistent-volume/invalid-reclaim-policy",
            unsupported(policy, &["Delete", "Recycle", "Retain"]),
        );
    }
}

/// Every rule a PersistentVolumeClaim breaks.
pub(super) fn persistent_volume_claim(claim: &PersistentVolumeClaim, sink: &mut Sink) {
    metadata::validate(&claim.metadata, NameRule::Subdomain, sink);
    let spec = &claim.spec;
    let at = At::root("spec");
    access_modes(&spec.access_modes, &at, sink);
    if let Some(selector) = &spec.selector {
        selector::label_selector(selector, &at.field("selector"), sink);
    }
    let resources_at = at.field("resources");
    let requests = resources_at.field("requests");
    let storage = requests.key("storage");
    match spec.resources.requests.get("storage") {
        None => sink.error(&storage, "claim/missing-storage-request", "Required value"),
        Some(value) if value.cmp_value(&Quantity::zero()).is_le() => sink.error(
            &storage,
            "claim/invalid-storage-request",
            "must be greater than zero",
        ),
        Some(_) => {}
    }
    if let Some(name) = spec.storage_class_name.as_deref() {
        class_name(name, &at, sink);
    }
    volume_mode(spec.volume_mode.as_deref(), &at, sink);
    // Not an API rule: the PV controller marks a claim fully bound with this annotation,
    // and kube-scheduler 1.34 treats a claim without it as not yet bound.
    if !spec.volume_name.is_empty()
        && !claim
            .metadata
            .annotations
            .contains_key("pv.kubernetes.io/bind-completed")
    {
        sink.push(
            super::Violation::warning(
                at.field("volumeName").path(),
                "claim/binding-incomplete",
                alloc::format!(
                    "the claim names volume `{}` but has no `pv.kubernetes.io/bind-completed` annotation, so kube-scheduler 1.34 reads it as not yet bound",
                    spec.volume_name
                ),
            )
            .with_help("a claim the PV controller has bound carries `pv.kubernetes.io/bind-completed: \"yes\"`; add it if this claim is bound"),
        );
    }
}

/// Every rule a StorageClass breaks.
pub(super) fn storage_class(class: &StorageClass, sink: &mut Sink) {
    metadata::validate(&class.metadata, NameRule::Subdomain, sink);
    let provisioner = At::root("provisioner");
    if class.provisioner.is_empty() {
        sink.error(
            &provisioner,
            "storage-class/missing-provisioner",
            "Required value",
        );
    } else {
        sink.errors(
            &provisioner,
            "storage-class/invalid-provisioner",
            &names::qualified_name(&class.provisioner),
        );
    }
    if let Some(policy) = class.reclaim_policy.as_deref() {
        if !matches!(policy, "Retain" | "Delete") {
            sink.error(
                &At::root("reclaimPolicy"),
                "storage-class/invalid-reclaim-policy",
                unsupported(policy, &["Delete", "Retain"]),
            );
        }
    }
    if let Some(mode) = class.volume_binding_mode.as_deref() {
        if !matches!(mode, "Immediate" | "WaitForFirstConsumer") {
            sink.error(
                &At::root("volumeBindingMode"),
                "storage-class/invalid-binding-mode",
                unsupported(mode, &["Immediate", "WaitForFirstConsumer"]),
            );
        }
    }
    let topologies = At::root("allowedTopologies");
    for (index, term) in class.allowed_topologies.iter().enumerate() {
        let term_at = topologies.index(index);
        let expressions = term_at.field("matchLabelExpressions");
        if term.match_label_expressions.is_empty() {
            sink.error(
                &expressions,
                "storage-class/empty-topology-term",
                "must have at least one label selector",
            );
        }
        let mut keys = BTreeSet::new();
        for (position, requirement) in term.match_label_expressions.iter().enumerate() {
            let requirement_at = expressions.index(position);
            let key = requirement_at.field("key");
            sink.errors(
                &key,
                "storage-class/invalid-topology-key",
                &names::qualified_name(&requirement.key),
            );
            if !keys.insert(requirement.key.as_str()) {
                sink.error(
                    &key,
                    "storage-class/duplicate-topology-key",
                    duplicate(&requirement.key),
                );
            }
            if requirement.values.is_empty() {
                sink.error(
                    &requirement_at.field("values"),
                    "storage-class/missing-topology-values",
                    "must specify as least one value for label",
                );
            }
        }
    }
}

/// Every rule a CSINode breaks.
pub(super) fn csi_node(node: &CsiNode, sink: &mut Sink) {
    metadata::validate(&node.metadata, NameRule::Subdomain, sink);
    let spec = At::root("spec");
    let drivers = spec.field("drivers");
    for (index, driver) in node.spec.drivers.iter().enumerate() {
        let at = drivers.index(index);
        if driver.name.is_empty() {
            sink.error(
                &at.field("name"),
                "csi/missing-driver-name",
                "Required value",
            );
        }
        if let Some(count) = driver.allocatable.as_ref().and_then(|a| a.count) {
            if count < 0 {
                let allocatable = at.field("allocatable");
                sink.error(
                    &allocatable.field("count"),
                    "csi/negative-count",
                    "must be greater than or equal to 0",
                );
            }
        }
    }
}

/// Every rule a CSIDriver breaks.
pub(super) fn csi_driver(driver: &CsiDriver, sink: &mut Sink) {
    metadata::validate(&driver.metadata, NameRule::Subdomain, sink);
}

/// Every rule a CSIStorageCapacity breaks.
pub(super) fn csi_storage_capacity(capacity: &CsiStorageCapacity, sink: &mut Sink) {
    metadata::validate(&capacity.metadata, NameRule::Subdomain, sink);
    let class = At::root("storageClassName");
    if capacity.storage_class_name.is_empty() {
        sink.error(&class, "csi/missing-class-name", "Required value");
    } else {
        sink.errors(
            &class,
            "csi/invalid-class-name",
            &names::dns1123_subdomain(&capacity.storage_class_name),
        );
    }
    if let Some(topology) = &capacity.node_topology {
        selector::label_selector(topology, &At::root("nodeTopology"), sink);
    }
    for (field, value) in [
        ("capacity", &capacity.capacity),
        ("maximumVolumeSize", &capacity.maximum_volume_size),
    ] {
        if let Some(value) = value {
            resources::quantity("storage", value, &At::root(field), sink);
        }
    }
}

/// `accessModes`: at least one, each known, and `ReadWriteOncePod` alone.
fn access_modes(modes: &[String], spec: &At<'_>, sink: &mut Sink) {
    let at = spec.field("accessModes");
    if modes.is_empty() {
        sink.error(&at, "storage/missing-access-modes", "Required value");
        return;
    }
    for (index, mode) in modes.iter().enumerate() {
        if !ACCESS_MODES.contains(&mode.as_str()) {
            sink.error(
                &at.index(index),
                "storage/invalid-access-mode",
                unsupported(mode, &ACCESS_MODES),
            );
        }
    }
    if modes.len() > 1 && modes.iter().any(|mode| mode == "ReadWriteOncePod") {
        sink.error(
            &at,
            "storage/exclusive-access-mode",
            "may not use ReadWriteOncePod with other access modes",
        );
    }
}

/// `storageClassName`, when set, is a DNS subdomain (`ValidateClassName`).
fn class_name(name: &str, spec: &At<'_>, sink: &mut Sink) {
    if name.is_empty() {
        return;
    }
    sink.errors(
        &spec.field("storageClassName"),
        "storage/invalid-class-name",
        &names::dns1123_subdomain(name),
    );
}

/// `volumeMode`: `Block` or `Filesystem`.
fn volume_mode(mode: Option<&str>, spec: &At<'_>, sink: &mut Sink) {
    if let Some(mode) = mode {
        if !matches!(mode, "Block" | "Filesystem") {
            sink.error(
                &spec.field("volumeMode"),
                "storage/invalid-volume-mode",
                unsupported(mode, &["Block", "Filesystem"]),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::input::Resource;
    use crate::validation::validate;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn codes(resource: Resource) -> Vec<(String, &'static str)> {
        validate(&resource)
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code))
            .collect()
    }

    #[test]
    fn a_realistic_volume_claim_and_class_are_valid() {
        let volume = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "pv-1", "labels": {"topology.kubernetes.io/zone": "a"}},
            "spec": {
                "capacity": {"storage": "10Gi"},
                "accessModes": ["ReadWriteOnce"],
                "storageClassName": "local",
                "local": {"path": "/mnt/disks/1"},
                "nodeAffinity": {"required": {"nodeSelectorTerms": [
                    {"matchExpressions": [{"key": "kubernetes.io/hostname", "operator": "In", "values": ["n1"]}]}
                ]}}
            }
        }))
        .unwrap();
        assert_eq!(codes(Resource::PersistentVolume(volume)), []);
        let claim = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "data", "namespace": "shop"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}, "storageClassName": "local"}
        }))
        .unwrap();
        assert_eq!(codes(Resource::PersistentVolumeClaim(claim)), []);
        let class = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "local"},
            "provisioner": "kubernetes.io/no-provisioner",
            "volumeBindingMode": "WaitForFirstConsumer",
            "allowedTopologies": [{"matchLabelExpressions": [{"key": "topology.kubernetes.io/zone", "values": ["a"]}]}]
        }))
        .unwrap();
        assert_eq!(codes(Resource::StorageClass(class)), []);
    }

    #[test]
    fn broken_objects_are_reported_field_by_field() {
        let volume = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "pv"},
            "spec": {"capacity": {"cpu": "1"}, "accessModes": ["ReadWriteOncePod", "Sometimes"], "hostPath": {}, "nfs": {}, "volumeMode": "Raw"}
        }))
        .unwrap();
        assert_eq!(
            codes(Resource::PersistentVolume(volume)),
            [
                ("spec.accessModes[1]".into(), "storage/invalid-access-mode"),
                ("spec.accessModes".into(), "storage/exclusive-access-mode"),
                (
                    "spec.capacity.cpu".into(),
                    "persistent-volume/invalid-capacity"
                ),
                ("spec.capacity".into(), "persistent-volume/invalid-capacity"),
                ("spec".into(), "persistent-volume/multiple-sources"),
                ("spec.volumeMode".into(), "storage/invalid-volume-mode"),
            ]
        );
        let claim = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "c"},
            "spec": {"resources": {"requests": {"storage": "0"}}}
        }))
        .unwrap();
        assert_eq!(
            codes(Resource::PersistentVolumeClaim(claim)),
            [
                ("spec.accessModes".into(), "storage/missing-access-modes"),
                (
                    "spec.resources.requests.storage".into(),
                    "claim/invalid-storage-request"
                ),
            ]
        );
        let class = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "c"},
            "volumeBindingMode": "Later",
            "allowedTopologies": [{"matchLabelExpressions": []}]
        }))
        .unwrap();
        assert_eq!(
            codes(Resource::StorageClass(class)),
            [
                ("provisioner".into(), "storage-class/missing-provisioner"),
                (
                    "volumeBindingMode".into(),
                    "storage-class/invalid-binding-mode"
                ),
                (
                    "allowedTopologies[0].matchLabelExpressions".into(),
                    "storage-class/empty-topology-term"
                ),
            ]
        );
    }
}
