//! The cluster's storage objects and the lookups volume scheduling makes on them.
//!
//! Claims are found by namespace and name, volumes, classes, CSINodes and CSIDrivers by
//! name, as upstream's listers find them. Claims that leave `storageClassName` out get
//! the default class, as the DefaultStorageClass admission plugin gives it on create;
//! under 1.11, which refuses such a claim when several classes are default, the claim is
//! refused (`admission/default-storage-class`).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{
    CsiDriver, CsiNode, CsiStorageCapacity, ObjectMeta, PersistentVolume, PersistentVolumeClaim,
    StorageClass,
};
use crate::schedule::Version;

/// The annotation that marks the default StorageClass (and its beta predecessor).
pub const DEFAULT_CLASS_ANNOTATIONS: [&str; 2] = [
    "storageclass.kubernetes.io/is-default-class",
    "storageclass.beta.kubernetes.io/is-default-class",
];

/// The beta annotation that names a claim's or a volume's class; it wins over the field.
pub const BETA_CLASS_ANNOTATION: &str = "volume.beta.kubernetes.io/storage-class";

/// PersistentVolumes, PersistentVolumeClaims, StorageClasses and the CSI objects.
#[derive(Clone, Debug, Default)]
pub struct Storage {
    /// PersistentVolumes, in input order.
    pub volumes: Vec<PersistentVolume>,
    /// PersistentVolumeClaims, in input order.
    pub claims: Vec<PersistentVolumeClaim>,
    /// StorageClasses, in input order.
    pub classes: Vec<StorageClass>,
    /// CSINodes, in input order.
    pub csi_nodes: Vec<CsiNode>,
    /// CSIDrivers, in input order.
    pub csi_drivers: Vec<CsiDriver>,
    /// CSIStorageCapacities, in input order.
    pub capacities: Vec<CsiStorageCapacity>,
    /// Claims by namespace, then name.
    claim_index: BTreeMap<String, BTreeMap<String, usize>>,
    volume_index: BTreeMap<String, usize>,
    class_index: BTreeMap<String, usize>,
    csi_node_index: BTreeMap<String, usize>,
    csi_driver_index: BTreeMap<String, usize>,
}

impl Storage {
    /// Builds the lookups and applies DefaultStorageClass admission under `version`;
    /// called once all objects are read. Returns the claims admission refuses, taken out
    /// of [`Storage::claims`], each with its position in the input's claims and the
    /// refusal.
    pub fn finish(&mut self, version: Version) -> Vec<(usize, PersistentVolumeClaim, String)> {
        let unnamed = |claim: &PersistentVolumeClaim| {
            claim.spec.storage_class_name.is_none()
                && !claim
                    .metadata
                    .annotations
                    .contains_key(BETA_CLASS_ANNOTATION)
        };
        let defaults = self
            .classes
            .iter()
            .filter(|class| is_default(class))
            .count();
        let mut refused = Vec::new();
        if version == Version::Legacy && defaults > 1 {
            // 1.11's `getDefaultClass` refuses to choose (the newest wins from 1.26 on).
            let claims = core::mem::take(&mut self.claims);
            for (position, claim) in claims.into_iter().enumerate() {
                if unnamed(&claim) {
                    let message = alloc::format!(
                        "persistentvolumeclaims \"{}\" is forbidden: Internal error occurred: \
                         {defaults} default StorageClasses were found",
                        claim.metadata.name
                    );
                    refused.push((position, claim, message));
                } else {
                    self.claims.push(claim);
                }
            }
        } else if let Some(default) =
            default_class(&self.classes).map(|class| class.metadata.name.clone())
        {
            for claim in self.claims.iter_mut().filter(|claim| unnamed(claim)) {
                claim.spec.storage_class_name = Some(default.clone());
            }
        }
        self.claim_index = BTreeMap::new();
        for (index, claim) in self.claims.iter().enumerate() {
            self.claim_index
                .entry(claim.metadata.namespace.clone())
                .or_default()
                .entry(claim.metadata.name.clone())
                .or_insert(index);
        }
        self.volume_index = names(self.volumes.iter().map(|volume| &volume.metadata));
        self.class_index = names(self.classes.iter().map(|class| &class.metadata));
        self.csi_node_index = names(self.csi_nodes.iter().map(|node| &node.metadata));
        self.csi_driver_index = names(self.csi_drivers.iter().map(|driver| &driver.metadata));
        refused
    }

    /// The claim `name` in `namespace`, with its index in [`Storage::claims`].
    #[must_use]
    pub fn claim(&self, namespace: &str, name: &str) -> Option<(usize, &PersistentVolumeClaim)> {
        let index = *self.claim_index.get(namespace)?.get(name)?;
        Some((index, self.claims.get(index)?))
    }

    /// The volume `name`, with its index in [`Storage::volumes`].
    #[must_use]
    pub fn volume(&self, name: &str) -> Option<(usize, &PersistentVolume)> {
        let index = *self.volume_index.get(name)?;
        Some((index, self.volumes.get(index)?))
    }

    /// The StorageClass `name`.
    #[must_use]
    pub fn class(&self, name: &str) -> Option<&StorageClass> {
        self.classes.get(*self.class_index.get(name)?)
    }

    /// The CSINode of a node (it has the node's name).
    #[must_use]
    pub fn csi_node(&self, node: &str) -> Option<&CsiNode> {
        self.csi_nodes.get(*self.csi_node_index.get(node)?)
    }

    /// The CSIDriver `name`.
    #[must_use]
    pub fn csi_driver(&self, name: &str) -> Option<&CsiDriver> {
        self.csi_drivers.get(*self.csi_driver_index.get(name)?)
    }
}

fn names<'m>(metas: impl Iterator<Item = &'m ObjectMeta>) -> BTreeMap<String, usize> {
    let mut index = BTreeMap::new();
    for (position, meta) in metas.enumerate() {
        index.entry(meta.name.clone()).or_insert(position);
    }
    index
}

/// The default StorageClass (`GetDefaultClass` in `pkg/volume/util/storageclass.go`): of
/// the classes annotated as default, the newest, then the first by name.
fn default_class(classes: &[StorageClass]) -> Option<&StorageClass> {
    classes
        .iter()
        .filter(|class| is_default(class))
        .min_by(|a, b| {
            b.metadata
                .creation_timestamp
                .cmp(&a.metadata.creation_timestamp)
                .then_with(|| a.metadata.name.cmp(&b.metadata.name))
        })
}

/// Whether a class is annotated as the default (`IsDefaultAnnotation`).
fn is_default(class: &StorageClass) -> bool {
    DEFAULT_CLASS_ANNOTATIONS.iter().any(|key| {
        class
            .metadata
            .annotations
            .get(*key)
            .is_some_and(|value| value == "true")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(name: &str, default: bool, created: &str) -> StorageClass {
        let mut class = StorageClass::default();
        class.metadata.name = name.into();
        class.metadata.creation_timestamp = Some(created.into());
        if default {
            class
                .metadata
                .annotations
                .insert(DEFAULT_CLASS_ANNOTATIONS[0].into(), "true".into());
        }
        class
    }

    #[test]
    fn storage_objects_are_read_located_and_counted() {
        let yaml = "kind: PersistentVolume\nmetadata: {name: pv}\nspec:\n  capacity: {storage: lots}\n  accessModes: [ReadWriteOnce]\n  local: {path: /d}\n---\nkind: StorageClass\nmetadata: {name: fast}\nprovisioner: ebs.csi.aws.com\n---\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n";
        let sources = [crate::Source::new("t", yaml)];
        let cluster = crate::cluster::Cluster::build(
            crate::input::load(&sources, &crate::Limits::default()),
            &sources,
            None,
        );
        let errors: alloc::vec::Vec<_> = cluster
            .diagnostics
            .iter()
            .map(|d| (d.object.clone(), d.path.clone(), d.line))
            .collect();
        assert_eq!(
            errors,
            [(
                Some(String::from("PersistentVolume/pv")),
                Some(String::from("spec.capacity.storage")),
                Some(4)
            )]
        );
        assert_eq!(cluster.counts.get("StorageClass"), Some(&1));
        assert_eq!(cluster.counts.get("PersistentVolumeClaim"), Some(&1));
        assert!(cluster.storage.volume("pv").is_none());
        let (_, claim) = cluster.storage.claim("default", "data").unwrap();
        assert_eq!(claim.spec.storage_class_name, None);
    }

    #[test]
    fn the_newest_default_class_is_given_to_claims_without_one() {
        let mut storage = Storage {
            classes: alloc::vec![
                class("old", true, "2024-01-01T00:00:00Z"),
                class("plain", false, "2025-01-01T00:00:00Z"),
                class("new", true, "2024-06-01T00:00:00Z"),
            ],
            ..Storage::default()
        };
        let mut without = PersistentVolumeClaim::default();
        without.metadata.namespace = "default".into();
        without.metadata.name = "a".into();
        let mut empty = without.clone();
        empty.metadata.name = "b".into();
        empty.spec.storage_class_name = Some(String::new());
        storage.claims = alloc::vec![without, empty];
        let mut legacy = storage.clone();
        assert!(storage.finish(Version::Current).is_empty());
        let class_of = |name: &str| {
            storage
                .claim("default", name)
                .and_then(|(_, claim)| claim.spec.storage_class_name.clone())
        };
        assert_eq!(class_of("a").as_deref(), Some("new"));
        assert_eq!(class_of("b").as_deref(), Some(""));
        // 1.11 refuses to choose among two defaults: the claim without a class is refused.
        let refused = legacy.finish(Version::Legacy);
        assert_eq!(refused.len(), 1);
        let (position, claim, message) = &refused[0];
        assert_eq!((*position, claim.metadata.name.as_str()), (0, "a"));
        assert_eq!(
            message,
            "persistentvolumeclaims \"a\" is forbidden: Internal error occurred: 2 default \
             StorageClasses were found"
        );
        assert!(legacy.claim("default", "a").is_none());
        assert!(legacy.claim("default", "b").is_some());
    }
}
