//! MaxEBSVolumeCount, MaxGCEPDVolumeCount, MaxAzureDiskVolumeCount: the node may not
//! attach more than 39 EBS, 16 GCE PD or 16 Azure disks.
//!
//! Follows 1.11 `MaxPDVolumeCountChecker` in `predicates.go`: unique volume IDs of the
//! pod and of the pods on the node; a pod with no such volume fits even on a node over
//! the limit. A claim whose volume cannot be resolved counts as a volume of its own
//! (`<namespace>/<claim>`): kubefit models no PersistentVolumes yet, so every claim
//! counts that way, for each of the three limits, as upstream does for unresolved claims.
//! `KUBE_MAX_PD_VOLS` and the alpha `AttachVolumeLimit` overrides are not modelled.

use alloc::collections::BTreeSet;
use alloc::string::String;

use super::check;
use crate::model::Pod;
use crate::schedule::snapshot::{NodeInfo, Snapshot};
use crate::schedule::status::Status;

/// `ErrMaxVolumeCountExceeded`.
pub const REASON: &str = "node(s) exceed max volume count";

/// Which volumes a checker counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// AWS EBS, limit 39 (`DefaultMaxEBSVolumes`).
    Ebs,
    /// GCE PD, limit 16.
    GcePd,
    /// Azure Disk, limit 16.
    AzureDisk,
}

impl Filter {
    const fn limit(self) -> usize {
        match self {
            Self::Ebs => 39,
            Self::GcePd | Self::AzureDisk => 16,
        }
    }

    fn collect(self, pod: &Pod, into: &mut BTreeSet<String>) {
        for volume in &pod.spec.volumes {
            let id = match self {
                Self::Ebs => volume
                    .aws_elastic_block_store
                    .as_ref()
                    .map(|source| source.volume_id.clone()),
                Self::GcePd => volume
                    .gce_persistent_disk
                    .as_ref()
                    .map(|source| source.pd_name.clone()),
                Self::AzureDisk => volume
                    .azure_disk
                    .as_ref()
                    .map(|source| source.disk_name.clone()),
            };
            let id = id.or_else(|| {
                volume.persistent_volume_claim.as_ref().map(|claim| {
                    alloc::format!("claim-{}/{}", pod.metadata.namespace, claim.claim_name)
                })
            });
            if let Some(id) = id {
                into.insert(id);
            }
        }
    }
}

/// The predicate.
#[must_use]
pub fn predicate(
    filter: Filter,
    pod: &Pod,
    snapshot: &Snapshot<'_>,
    node: &NodeInfo<'_>,
) -> Status {
    let mut wanted = BTreeSet::new();
    filter.collect(pod, &mut wanted);
    if wanted.is_empty() {
        return Status::success();
    }
    let mut existing = BTreeSet::new();
    for &index in &node.pods {
        if let Some(entry) = snapshot.pod(index) {
            filter.collect(&entry.pod, &mut existing);
        }
    }
    let new = wanted.difference(&existing).count();
    check(existing.len() + new <= filter.limit(), REASON)
}
