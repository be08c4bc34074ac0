//! MaxEBSVolumeCount, MaxGCEPDVolumeCount, MaxAzureDiskVolumeCount, MaxCinderVolumeCount:
//! the node may not attach more than 39 EBS (25 on `m5`/`c5` instances), 16 GCE PD, 16
//! Azure or 256 Cinder disks.
//!
//! Follows 1.11 `MaxPDVolumeCountChecker` in `pkg/scheduler/algorithm/predicates/predicates.go`
//! as OpenShift 3.11 vendors it (with the m5/c5 EBS limit, `getMaxEBSVolume`, and the
//! Cinder checker):
//! the unique volume IDs (EBS `volumeID`, PD `pdName`, Azure `diskName`) of the pod's
//! direct volumes and of the volumes its claims are bound to, against those of the pods
//! on the node; fail when `existing + new > limit`. A pod with no such volume fits even on
//! a node over the limit. A claim that cannot be resolved (missing, unbound, or bound to
//! a missing volume) counts as a volume of its own, `<prefix>-<namespace>/<claim>`, for
//! each of the three limits, as upstream does; a claim bound to a volume of another type
//! counts for none.
//!
//! Example: with 16 GCE PDs attached by the pods on a node, a pod mounting a 17th PD
//! fails `node(s) exceed max volume count`; one mounting a PD already attached there fits.
//!
//! Not modelled: `KUBE_MAX_PD_VOLS` and the alpha `AttachVolumeLimit` (off in 1.11), which
//! would read the limit from the node's `attachable-volumes-*` allocatable.

use alloc::collections::BTreeSet;
use alloc::string::String;

use super::check;
use crate::cluster::storage::Storage;
use crate::model::{Node, PersistentVolume, Pod, Volume};
use crate::schedule::snapshot::{NodeInfo, Snapshot};
use crate::schedule::status::Status;

/// `ErrMaxVolumeCountExceeded`.
pub const REASON: &str = "node(s) exceed max volume count";

/// Starts the ID of a claim that cannot be resolved, so it never equals a real volume ID
/// (upstream uses a random prefix).
const UNRESOLVED_PREFIX: &str = "\u{0}unresolved-claim";

/// Which volumes a checker counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    /// AWS EBS, limit 39 (`DefaultMaxEBSVolumes`).
    Ebs,
    /// GCE PD, limit 16.
    GcePd,
    /// Azure Disk, limit 16.
    AzureDisk,
    /// OpenStack Cinder, limit 256 (`DefaultMaxCinderVolumes`).
    Cinder,
}

impl Filter {
    /// The node's limit: an EBS node whose `beta.kubernetes.io/instance-type` starts
    /// with `m5` or `c5` takes 25 (`DefaultMaxEBSM5VolumeLimit`).
    fn limit(self, node: &Node) -> usize {
        match self {
            Self::Ebs => {
                let instance = node.metadata.labels.get("beta.kubernetes.io/instance-type");
                let nitro =
                    instance.is_some_and(|kind| kind.starts_with("m5") || kind.starts_with("c5"));
                if nitro {
                    25
                } else {
                    39
                }
            }
            Self::GcePd | Self::AzureDisk => 16,
            Self::Cinder => 256,
        }
    }

    /// `FilterVolume`: the ID of a direct volume of this type.
    fn direct(self, volume: &Volume) -> Option<&str> {
        match self {
            Self::Ebs => volume
                .aws_elastic_block_store
                .as_ref()
                .map(|source| source.volume_id.as_str()),
            Self::GcePd => volume
                .gce_persistent_disk
                .as_ref()
                .map(|source| source.pd_name.as_str()),
            Self::AzureDisk => volume
                .azure_disk
                .as_ref()
                .map(|source| source.disk_name.as_str()),
            Self::Cinder => volume
                .cinder
                .as_ref()
                .map(|source| source.volume_id.as_str()),
        }
    }

    /// `FilterPersistentVolume`: the ID of a PersistentVolume of this type.
    fn persistent(self, volume: &PersistentVolume) -> Option<&str> {
        let spec = &volume.spec;
        match self {
            Self::Ebs => spec
                .aws_elastic_block_store
                .as_ref()
                .map(|source| source.volume_id.as_str()),
            Self::GcePd => spec
                .gce_persistent_disk
                .as_ref()
                .map(|source| source.pd_name.as_str()),
            Self::AzureDisk => spec
                .azure_disk
                .as_ref()
                .map(|source| source.disk_name.as_str()),
            Self::Cinder => spec.cinder.as_ref().map(|source| source.volume_id.as_str()),
        }
    }

    /// `filterVolumes`: adds the IDs of a pod's volumes of this type.
    fn collect(self, storage: &Storage, pod: &Pod, into: &mut BTreeSet<String>) {
        let namespace = pod.metadata.namespace.as_str();
        for volume in &pod.spec.volumes {
            if let Some(id) = self.direct(volume) {
                into.insert(String::from(id));
                continue;
            }
            let Some(source) = &volume.persistent_volume_claim else {
                continue;
            };
            let name = source.claim_name.as_str();
            let resolved = storage
                .claim(namespace, name)
                .filter(|(_, claim)| !claim.spec.volume_name.is_empty())
                .and_then(|(_, claim)| storage.volume(&claim.spec.volume_name));
            match resolved {
                Some((_, bound)) => {
                    if let Some(id) = self.persistent(bound) {
                        into.insert(String::from(id));
                    }
                }
                None => {
                    into.insert(alloc::format!("{UNRESOLVED_PREFIX}-{namespace}/{name}"));
                }
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
    if pod.spec.volumes.is_empty() {
        return Status::success();
    }
    let storage = &snapshot.cluster.storage;
    let mut wanted = BTreeSet::new();
    filter.collect(storage, pod, &mut wanted);
    if wanted.is_empty() {
        return Status::success();
    }
    let mut existing = BTreeSet::new();
    for &index in &node.pods {
        if let Some(entry) = snapshot.pod(index) {
            filter.collect(storage, &entry.pod, &mut existing);
        }
    }
    let new = wanted.difference(&existing).count();
    check(existing.len() + new <= filter.limit(node.node), REASON)
}

#[cfg(test)]
mod tests {
    use crate::schedule::testing::{claims, pod_with_volumes, schedule};
    use crate::schedule::Version;
    use alloc::string::String;

    fn ebs_pod(name: &str, node: &str, ids: &[&str]) -> String {
        let sources: alloc::vec::Vec<String> = ids
            .iter()
            .map(|id| alloc::format!("awsElasticBlockStore: {{volumeID: {id}}}"))
            .collect();
        pod_with_volumes(name, node, &sources)
    }

    fn claim_pod(name: &str, names: &[&str]) -> String {
        pod_with_volumes(name, "", &claims(names))
    }

    const NODE: &str = "---\nkind: Node\nmetadata: {name: node-a}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n";

    fn ebs_passes(yaml: &str) -> bool {
        let result = schedule(yaml, Version::Legacy);
        let placement = result.pods.last().unwrap();
        placement.nodes.0[0]
            .1
            .predicates
            .iter()
            .find(|p| p.name == "MaxEBSVolumeCount")
            .unwrap()
            .passed
    }

    /// predicates_test.go `TestEBSVolumeCountConflicts` with the 39-volume default: the
    /// existing volumes plus the pod's new ones must stay within the limit, and volumes
    /// already on the node are not counted twice.
    #[test]
    fn ebs_volumes_are_counted_once_against_the_limit() {
        let existing: alloc::vec::Vec<String> =
            (0..38).map(|i| alloc::format!("vol-{i}")).collect();
        let existing: alloc::vec::Vec<&str> = existing.iter().map(String::as_str).collect();
        let base = String::from(NODE) + &ebs_pod("old", "node-a", &existing);
        assert!(ebs_passes(
            &(base.clone() + &ebs_pod("p", "", &["vol-new"]))
        ));
        assert!(!ebs_passes(
            &(base.clone() + &ebs_pod("p", "", &["vol-new", "vol-other"]))
        ));
        assert!(ebs_passes(
            &(base.clone() + &ebs_pod("p", "", &["vol-0", "vol-new"]))
        ));
    }

    /// `TestEBSVolumeCountConflicts` "unbound/missing claims count as volumes": a claim
    /// that resolves to no volume counts; one bound to a GCE PD counts for no EBS limit.
    #[test]
    fn claims_resolve_to_their_volumes() {
        let existing: alloc::vec::Vec<String> =
            (0..38).map(|i| alloc::format!("vol-{i}")).collect();
        let existing: alloc::vec::Vec<&str> = existing.iter().map(String::as_str).collect();
        let base = String::from(NODE)
            + &ebs_pod("old", "node-a", &existing)
            + "---\nkind: PersistentVolume\nmetadata: {name: gce}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], gcePersistentDisk: {pdName: pd}}\n"
            + "---\nkind: PersistentVolume\nmetadata: {name: ebs}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], awsElasticBlockStore: {volumeID: vol-0}}\n"
            + "---\nkind: PersistentVolumeClaim\nmetadata: {name: on-gce, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, volumeName: gce}\n"
            + "---\nkind: PersistentVolumeClaim\nmetadata: {name: on-ebs, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, volumeName: ebs}\n"
            + "---\nkind: PersistentVolumeClaim\nmetadata: {name: unbound, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"
            + "---\nkind: PersistentVolumeClaim\nmetadata: {name: lost, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, volumeName: gone}\n";
        // 38 + the GCE claim (not EBS) + vol-0 (already attached) = 38.
        assert!(ebs_passes(
            &(base.clone() + &claim_pod("p", &["on-gce", "on-ebs"]))
        ));
        // 38 + an unbound claim + a claim bound to a missing volume = 40 > 39.
        assert!(!ebs_passes(
            &(base.clone() + &claim_pod("p", &["unbound", "lost"]))
        ));
    }

    /// OpenShift 3.11's `getMaxEBSVolume`: 25 on an `m5`/`c5` instance type.
    #[test]
    fn m5_and_c5_instances_take_25_ebs_volumes() {
        let existing: alloc::vec::Vec<String> =
            (0..25).map(|i| alloc::format!("vol-{i}")).collect();
        let existing: alloc::vec::Vec<&str> = existing.iter().map(String::as_str).collect();
        let node = |kind: &str| {
            NODE.replace(
                "{name: node-a}",
                &alloc::format!(
                    "{{name: node-a, labels: {{beta.kubernetes.io/instance-type: {kind}}}}}"
                ),
            )
        };
        let yaml = |kind: &str| {
            node(kind) + &ebs_pod("old", "node-a", &existing) + &ebs_pod("p", "", &["vol-new"])
        };
        assert!(!ebs_passes(&yaml("m5.large")));
        assert!(!ebs_passes(&yaml("c5d.xlarge")));
        assert!(ebs_passes(&yaml("t3.large")));
    }

    /// OpenShift 3.11 registers `MaxCinderVolumeCount` (256 volumes by `volumeID`).
    #[test]
    fn cinder_volumes_count_against_their_own_limit() {
        let policy = "---\nkind: Policy\napiVersion: v1\npredicates: [{name: MaxCinderVolumeCount}]\npriorities: []\n";
        let cinder = |count: usize| -> alloc::vec::Vec<String> {
            (0..count)
                .map(|i| alloc::format!("cinder: {{volumeID: c-{i}}}"))
                .collect()
        };
        let yaml = |new: usize| {
            String::from(policy)
                + NODE
                + &pod_with_volumes("old", "node-a", &cinder(250))
                + &pod_with_volumes("p", "", &cinder(250 + new)[250..])
        };
        let message = |new: usize| {
            schedule(&yaml(new), Version::Legacy).pods[0]
                .message
                .clone()
        };
        assert_eq!(message(6), None);
        assert_eq!(
            message(7).as_deref(),
            Some("0/1 nodes are available: 1 node(s) exceed max volume count.")
        );
    }
}
