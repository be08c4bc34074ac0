//! Storage objects: PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode,
//! CSIDriver and CSIStorageCapacity, with the fields volume scheduling reads.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use super::{
    AwsElasticBlockStoreVolumeSource, AzureDiskVolumeSource, CinderVolumeSource,
    GcePersistentDiskVolumeSource, LabelSelector, NodeSelector, ObjectMeta, Present, ResourceList,
};
use crate::quantity::Quantity;

/// A `v1/PersistentVolume`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolume {
    pub metadata: ObjectMeta,
    pub spec: PersistentVolumeSpec,
    pub status: PersistentVolumeStatus,
}

/// `spec` of a PersistentVolume; of the volume sources only those that scheduling
/// counts or compares are read, the others are only noticed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeSpec {
    pub capacity: ResourceList,
    pub access_modes: Vec<String>,
    pub storage_class_name: String,
    pub claim_ref: Option<ObjectReference>,
    pub node_affinity: Option<VolumeNodeAffinity>,
    pub volume_mode: Option<String>,
    pub volume_attributes_class_name: Option<String>,
    pub persistent_volume_reclaim_policy: String,
    pub aws_elastic_block_store: Option<AwsElasticBlockStoreVolumeSource>,
    pub gce_persistent_disk: Option<GcePersistentDiskVolumeSource>,
    pub azure_disk: Option<AzureDiskVolumeSource>,
    pub csi: Option<CsiPersistentVolumeSource>,
    pub host_path: Option<Present>,
    pub local: Option<Present>,
    pub nfs: Option<Present>,
    pub iscsi: Option<Present>,
    pub rbd: Option<Present>,
    pub cinder: Option<CinderVolumeSource>,
    pub fc: Option<Present>,
    pub cephfs: Option<Present>,
    pub glusterfs: Option<Present>,
    pub azure_file: Option<Present>,
    pub vsphere_volume: Option<Present>,
    pub portworx_volume: Option<Present>,
    pub flex_volume: Option<Present>,
}

impl PersistentVolumeSpec {
    /// How many volume sources the spec names (upstream requires exactly one).
    #[must_use]
    pub fn source_count(&self) -> usize {
        [
            self.aws_elastic_block_store.is_some(),
            self.gce_persistent_disk.is_some(),
            self.azure_disk.is_some(),
            self.csi.is_some(),
            self.host_path.is_some(),
            self.local.is_some(),
            self.nfs.is_some(),
            self.iscsi.is_some(),
            self.rbd.is_some(),
            self.cinder.is_some(),
            self.fc.is_some(),
            self.cephfs.is_some(),
            self.glusterfs.is_some(),
            self.azure_file.is_some(),
            self.vsphere_volume.is_some(),
            self.portworx_volume.is_some(),
            self.flex_volume.is_some(),
        ]
        .iter()
        .filter(|named| **named)
        .count()
    }
}

/// A reference to another object (a PersistentVolume's `claimRef`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectReference {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
}

/// `spec.nodeAffinity` of a PersistentVolume.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct VolumeNodeAffinity {
    pub required: Option<NodeSelector>,
}

/// `spec.csi` of a PersistentVolume.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CsiPersistentVolumeSource {
    pub driver: String,
    pub volume_handle: String,
    pub read_only: bool,
}

/// `status` of a PersistentVolume.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeStatus {
    pub phase: String,
}

/// A `v1/PersistentVolumeClaim`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeClaim {
    pub metadata: ObjectMeta,
    pub spec: PersistentVolumeClaimSpec,
    pub status: PersistentVolumeClaimStatus,
}

/// `spec` of a PersistentVolumeClaim.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeClaimSpec {
    pub access_modes: Vec<String>,
    pub selector: Option<LabelSelector>,
    pub resources: VolumeResourceRequirements,
    pub volume_name: String,
    /// `None` when absent: only then does the DefaultStorageClass admission fill it in.
    pub storage_class_name: Option<String>,
    pub volume_mode: Option<String>,
    pub volume_attributes_class_name: Option<String>,
}

/// `spec.resources` of a PersistentVolumeClaim.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct VolumeResourceRequirements {
    pub requests: ResourceList,
    pub limits: ResourceList,
}

/// `status` of a PersistentVolumeClaim.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeClaimStatus {
    pub phase: String,
}

/// A `storage.k8s.io/v1` StorageClass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StorageClass {
    pub metadata: ObjectMeta,
    pub provisioner: String,
    pub reclaim_policy: Option<String>,
    pub volume_binding_mode: Option<String>,
    pub allowed_topologies: Vec<TopologySelectorTerm>,
}

/// One `allowedTopologies` term: every requirement must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TopologySelectorTerm {
    pub match_label_expressions: Vec<TopologySelectorLabelRequirement>,
}

/// A topology requirement: the label `key` has one of `values`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TopologySelectorLabelRequirement {
    pub key: String,
    pub values: Vec<String>,
}

/// A `storage.k8s.io/v1` CSINode: the CSI drivers on a node and their volume limits.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CsiNode {
    pub metadata: ObjectMeta,
    pub spec: CsiNodeSpec,
}

/// `spec` of a CSINode.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CsiNodeSpec {
    pub drivers: Vec<CsiNodeDriver>,
}

/// A driver of a CSINode.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CsiNodeDriver {
    pub name: String,
    #[serde(rename = "nodeID")]
    pub node_id: String,
    pub allocatable: Option<VolumeNodeResources>,
    pub topology_keys: Vec<String>,
}

/// `allocatable` of a CSINode driver: how many of its volumes the node can attach.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct VolumeNodeResources {
    pub count: Option<i32>,
}

/// A `storage.k8s.io/v1` CSIDriver; `storageCapacity` opts it into capacity checks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CsiDriver {
    pub metadata: ObjectMeta,
    pub spec: CsiDriverSpec,
}

/// `spec` of a CSIDriver.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CsiDriverSpec {
    pub storage_capacity: Option<bool>,
}

/// A `storage.k8s.io/v1` CSIStorageCapacity: free space of a class on some nodes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CsiStorageCapacity {
    pub metadata: ObjectMeta,
    pub node_topology: Option<LabelSelector>,
    pub storage_class_name: String,
    pub capacity: Option<Quantity>,
    pub maximum_volume_size: Option<Quantity>,
}
