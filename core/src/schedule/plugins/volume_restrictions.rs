//! VolumeRestrictions: the pod's directly mounted disks must not clash with those on the
//! node, and a ReadWriteOncePod claim may serve only one pod.
//!
//! Follows `pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go`:
//! - PreFilter reads every `persistentVolumeClaim` volume's claim; a missing one rejects
//!   the pod everywhere, `UnschedulableAndUnresolvable`, with the lister's
//!   `persistentvolumeclaim "data" not found` (ephemeral volumes are not looked at). It
//!   counts the pod's ReadWriteOncePod claims that a pod already on a node uses, and skips
//!   the Filter for pods with neither such claims in use nor GCE PD, EBS, RBD or iSCSI
//!   volumes;
//! - Filter: a disk conflict ([`crate::schedule::volumes::disk_conflict`], as 1.11's
//!   NoDiskConflict) fails `node(s) had no available disk`; any ReadWriteOncePod claim in
//!   use fails every node with `node(s) unavailable due to PersistentVolumeClaim with
//!   ReadWriteOncePod access mode already in-use by another pod` (the wording of
//!   kubernetes#129145). Both are `Unschedulable`: evicting the other user helps.
//!
//! Example: two pods of a namespace mounting the same ReadWriteOncePod claim — the second
//! fails on every node while the first runs. Preemption recounts the claims with the
//! victims removed (upstream decrements its count by the victims' references by claim
//! name).

use alloc::collections::BTreeSet;
use alloc::string::String;

use crate::model::Pod;
use crate::schedule::snapshot::{NodeInfo, Snapshot};
use crate::schedule::status::Status;
use crate::schedule::volumes::{self, disk_conflict, has_conflict_target};

/// The plugin name.
pub const NAME: &str = "VolumeRestrictions";

/// `ErrReasonDiskConflict`.
pub const DISK_CONFLICT: &str = "node(s) had no available disk";

/// `ErrReasonReadWriteOncePodConflict`.
pub const READ_WRITE_ONCE_POD_CONFLICT: &str = "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod";

/// What PreFilter found for the Filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreFilterState {
    /// How many of the pod's ReadWriteOncePod claims a placed pod already uses.
    conflicting_claims: usize,
}

/// PreFilter: `Ok(None)` when the Filter is skipped.
///
/// # Errors
/// The rejection when a claim the pod mounts is missing.
pub fn pre_filter(snapshot: &Snapshot<'_>, pod: &Pod) -> Result<Option<PreFilterState>, Status> {
    let needs_check = pod.spec.volumes.iter().any(has_conflict_target);
    let storage = &snapshot.cluster.storage;
    let namespace = pod.metadata.namespace.as_str();
    let mut exclusive: BTreeSet<&str> = BTreeSet::new();
    for volume in &pod.spec.volumes {
        let Some(source) = &volume.persistent_volume_claim else {
            continue;
        };
        let name = source.claim_name.as_str();
        let Some((_, claim)) = storage.claim(namespace, name) else {
            return Err(Status::unresolvable(volumes::not_found(
                "persistentvolumeclaim",
                name,
            )));
        };
        if claim
            .spec
            .access_modes
            .iter()
            .any(|mode| mode == "ReadWriteOncePod")
        {
            exclusive.insert(name);
        }
    }
    let conflicting_claims = exclusive
        .iter()
        .filter(|name| claim_in_use(snapshot, namespace, name))
        .count();
    if !needs_check && conflicting_claims == 0 {
        return Ok(None);
    }
    Ok(Some(PreFilterState { conflicting_claims }))
}

/// True if a pod on some node mounts the claim (`IsPVCUsedByPods`).
fn claim_in_use(snapshot: &Snapshot<'_>, namespace: &str, name: &str) -> bool {
    snapshot
        .nodes
        .iter()
        .flat_map(|info| info.pods.iter())
        .filter_map(|&index| snapshot.pod(index))
        .any(|entry| {
            entry.pod.metadata.namespace == namespace
                && entry.pod.spec.volumes.iter().any(|volume| {
                    volume
                        .persistent_volume_claim
                        .as_ref()
                        .is_some_and(|source| source.claim_name == name)
                })
        })
}

impl PreFilterState {
    /// Filter.
    #[must_use]
    pub fn filter(&self, pod: &Pod, snapshot: &Snapshot<'_>, node: &NodeInfo<'_>) -> Status {
        let clash = pod
            .spec
            .volumes
            .iter()
            .filter(|volume| has_conflict_target(volume))
            .any(|volume| {
                node.pods.iter().any(|&index| {
                    snapshot
                        .pod(index)
                        .is_some_and(|existing| disk_conflict(volume, &existing.pod))
                })
            });
        if clash {
            return Status::unschedulable(DISK_CONFLICT);
        }
        if self.conflicting_claims > 0 {
            return Status::unschedulable(String::from(READ_WRITE_ONCE_POD_CONFLICT));
        }
        Status::success()
    }
}

#[cfg(test)]
mod tests {
    use crate::schedule::testing::{node, schedule};
    use crate::schedule::Version;
    use alloc::string::String;

    const CLAIM: &str = "---\nkind: PersistentVolumeClaim\nmetadata: {name: exclusive, namespace: default, annotations: {pv.kubernetes.io/bind-completed: 'yes'}}\nspec: {accessModes: [ReadWriteOncePod], resources: {requests: {storage: 1Gi}}, volumeName: pv}\n---\nkind: PersistentVolume\nmetadata: {name: pv}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOncePod], csi: {driver: d, volumeHandle: h}, claimRef: {namespace: default, name: exclusive}}\n";

    fn user(name: &str, node_name: &str, class: &str) -> String {
        alloc::format!(
            "---\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  nodeName: '{node_name}'\n  priorityClassName: '{class}'\n  containers: [{{name: c, image: x}}]\n  volumes: [{{name: v, persistentVolumeClaim: {{claimName: exclusive}}}}]\n"
        )
    }

    /// volume_restrictions_test.go `TestAccessModeConflicts`: a ReadWriteOncePod claim in
    /// use by a scheduled pod fails every node with `Unschedulable`, so preemption can
    /// evict the user.
    #[test]
    fn a_read_write_once_pod_claim_serves_one_pod() {
        let yaml = node("n1", 4000, 8 << 30, "")
            + &node("n2", 4000, 8 << 30, "")
            + CLAIM
            + &user("first", "n1", "")
            + &user("second", "", "");
        let result = schedule(&yaml, Version::Current);
        let placement = &result.pods[0];
        assert_eq!(placement.pod, "default/second");
        assert_eq!(
            placement.message.as_deref(),
            Some("0/2 nodes are available: 2 node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod. no new claims to deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.")
        );
        let preemptor = node("n1", 4000, 8 << 30, "")
            + "---\nkind: PriorityClass\napiVersion: scheduling.k8s.io/v1\nmetadata: {name: high}\nvalue: 10\n"
            + CLAIM
            + &user("first", "n1", "")
            + &user("second", "", "high");
        let result = schedule(&preemptor, Version::Current);
        assert_eq!(result.pods[0].nominated_node.as_deref(), Some("n1"));
    }

    /// A pod that mounts a missing claim is rejected by PreFilter on every node.
    #[test]
    fn a_missing_claim_rejects_the_pod_everywhere() {
        let yaml = node("n1", 4000, 8 << 30, "") + &user("lonely", "", "");
        let result = schedule(&yaml, Version::Current);
        assert_eq!(
            result.pods[0].message.as_deref(),
            Some(
                "0/1 nodes are available: persistentvolumeclaim \"exclusive\" not found. not found"
            )
        );
    }
}
