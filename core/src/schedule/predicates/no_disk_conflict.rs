//! NoDiskConflict: the pod's directly mounted disks must not clash with those of the pods
//! on the node.
//!
//! Follows 1.11 `NoDiskConflict` / `isVolumeConflict` in `predicates.go`: the same GCE PD
//! unless both mount it read-only; the same AWS EBS volume always; the same iSCSI IQN
//! unless both are read-only; an RBD image sharing a monitor, pool and image unless both
//! are read-only. Volumes through claims are not checked.

use super::check;
use crate::model::{Pod, Volume};
use crate::schedule::snapshot::{NodeInfo, Snapshot};
use crate::schedule::status::Status;

/// `ErrDiskConflict`.
pub const REASON: &str = "node(s) had no available disk";

fn conflict(volume: &Volume, existing: &Volume) -> bool {
    if let (Some(a), Some(b)) = (&volume.gce_persistent_disk, &existing.gce_persistent_disk) {
        if a.pd_name == b.pd_name && !(a.read_only && b.read_only) {
            return true;
        }
    }
    if let (Some(a), Some(b)) = (
        &volume.aws_elastic_block_store,
        &existing.aws_elastic_block_store,
    ) {
        if a.volume_id == b.volume_id {
            return true;
        }
    }
    if let (Some(a), Some(b)) = (&volume.iscsi, &existing.iscsi) {
        if a.iqn == b.iqn && !(a.read_only && b.read_only) {
            return true;
        }
    }
    if let (Some(a), Some(b)) = (&volume.rbd, &existing.rbd) {
        let shared_monitor = a
            .monitors
            .iter()
            .any(|monitor| b.monitors.contains(monitor));
        if shared_monitor && a.pool == b.pool && a.image == b.image && !(a.read_only && b.read_only)
        {
            return true;
        }
    }
    false
}

/// The predicate.
#[must_use]
pub fn predicate(pod: &Pod, snapshot: &Snapshot<'_>, node: &NodeInfo<'_>) -> Status {
    let clash = pod.spec.volumes.iter().any(|volume| {
        node.pods.iter().any(|&index| {
            snapshot.pod(index).is_some_and(|existing| {
                existing
                    .pod
                    .spec
                    .volumes
                    .iter()
                    .any(|other| conflict(volume, other))
            })
        })
    });
    check(!clash, REASON)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gce(name: &str, read_only: bool) -> Volume {
        serde_json::from_value(serde_json::json!({
            "name": "v",
            "gcePersistentDisk": {"pdName": name, "readOnly": read_only}
        }))
        .unwrap()
    }

    #[test]
    fn gce_disks_clash_unless_both_read_only() {
        assert!(conflict(&gce("foo", false), &gce("foo", true)));
        assert!(!conflict(&gce("foo", true), &gce("foo", true)));
        assert!(!conflict(&gce("foo", false), &gce("bar", false)));
    }
}
