//! NoDiskConflict: the pod's directly mounted disks must not clash with those of the pods
//! on the node.
//!
//! Follows 1.11 `NoDiskConflict` / `isVolumeConflict` in
//! `pkg/scheduler/algorithm/predicates/predicates.go`: the same GCE PD unless both mount
//! it read-only; the same AWS EBS volume always; the same iSCSI IQN unless both are
//! read-only; an RBD image sharing a monitor, pool and image unless both are read-only
//! ([`crate::schedule::volumes::disk_conflict`], shared with 1.34's VolumeRestrictions).
//! Volumes through claims are not checked.
//!
//! Example: a pod mounting EBS `vol-1` fails `node(s) had no available disk` on a node
//! whose pods already mount `vol-1`, read-only or not.

use super::check;
use crate::model::Pod;
use crate::schedule::snapshot::{NodeInfo, Snapshot};
use crate::schedule::status::Status;
use crate::schedule::volumes::disk_conflict;

/// `ErrDiskConflict`.
pub const REASON: &str = "node(s) had no available disk";

/// The predicate.
#[must_use]
pub fn predicate(pod: &Pod, snapshot: &Snapshot<'_>, node: &NodeInfo<'_>) -> Status {
    let clash = pod.spec.volumes.iter().any(|volume| {
        node.pods.iter().any(|&index| {
            snapshot
                .pod(index)
                .is_some_and(|existing| disk_conflict(volume, &existing.pod))
        })
    });
    check(!clash, REASON)
}

#[cfg(test)]
mod tests {
    use crate::model::{Pod, Volume};
    use crate::schedule::volumes::disk_conflict;

    fn pod(volumes: serde_json::Value) -> Pod {
        serde_json::from_value(serde_json::json!({"spec": {"volumes": volumes}})).unwrap()
    }

    fn volume(json: serde_json::Value) -> Volume {
        serde_json::from_value(json).unwrap()
    }

    /// predicates_test.go `TestGCEDiskConflicts`, `TestAWSDiskConflicts`,
    /// `TestRBDDiskConflicts` and `TestISCSIDiskConflicts`: the same disk conflicts, a
    /// different one does not; GCE PD, iSCSI and RBD allow shared read-only mounts.
    #[test]
    fn upstream_disk_conflict_tables() {
        let gce = |name: &str, read_only: bool| serde_json::json!({"name": "v", "gcePersistentDisk": {"pdName": name, "readOnly": read_only}});
        let existing = pod(serde_json::json!([gce("foo", false)]));
        assert!(disk_conflict(&volume(gce("foo", false)), &existing));
        assert!(!disk_conflict(&volume(gce("bar", false)), &existing));
        let read_only = pod(serde_json::json!([gce("foo", true)]));
        assert!(!disk_conflict(&volume(gce("foo", true)), &read_only));
        assert!(disk_conflict(&volume(gce("foo", false)), &read_only));

        let ebs = |id: &str, read_only: bool| serde_json::json!({"name": "v", "awsElasticBlockStore": {"volumeID": id, "readOnly": read_only}});
        let existing = pod(serde_json::json!([ebs("foo", true)]));
        assert!(disk_conflict(&volume(ebs("foo", true)), &existing));
        assert!(!disk_conflict(&volume(ebs("bar", false)), &existing));

        let rbd = |monitors: &[&str], image: &str, read_only: bool| serde_json::json!({"name": "v", "rbd": {"monitors": monitors, "pool": "foo", "image": image, "readOnly": read_only}});
        let existing = pod(serde_json::json!([rbd(&["a", "b"], "bar", false)]));
        assert!(disk_conflict(
            &volume(rbd(&["b", "c"], "bar", false)),
            &existing
        ));
        assert!(!disk_conflict(
            &volume(rbd(&["c", "d"], "bar", false)),
            &existing
        ));
        assert!(!disk_conflict(
            &volume(rbd(&["a"], "other", false)),
            &existing
        ));
        let read_only = pod(serde_json::json!([rbd(&["a"], "bar", true)]));
        assert!(!disk_conflict(
            &volume(rbd(&["a"], "bar", true)),
            &read_only
        ));

        let iscsi = |iqn: &str, read_only: bool| serde_json::json!({"name": "v", "iscsi": {"targetPortal": "127.0.0.1:3260", "iqn": iqn, "lun": 0, "readOnly": read_only}});
        let existing = pod(serde_json::json!([iscsi(
            "iqn.2016-12.server:storage.target01",
            false
        )]));
        assert!(disk_conflict(
            &volume(iscsi("iqn.2016-12.server:storage.target01", false)),
            &existing
        ));
        assert!(!disk_conflict(
            &volume(iscsi("iqn.2017-12.server:storage.target01", false)),
            &existing
        ));
        let read_only = pod(serde_json::json!([iscsi(
            "iqn.2016-12.server:storage.target01",
            true
        )]));
        assert!(!disk_conflict(
            &volume(iscsi("iqn.2016-12.server:storage.target01", true)),
            &read_only
        ));
    }

    /// `SetDefaults_RBDVolumeSource` names the pool `rbd`: an image in the default pool
    /// and the same image in `pool: rbd` are one disk.
    #[test]
    fn an_rbd_image_without_a_pool_is_in_the_rbd_pool() {
        use crate::schedule::testing::{node, schedule};
        use crate::schedule::Version;
        let policy = "---\nkind: Policy\napiVersion: v1\npredicates: [{name: NoDiskConflict}]\npriorities: []\n";
        let pod = |name: &str, node: &str, pool: &str| {
            alloc::format!(
                "---\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  nodeName: '{node}'\n  containers: [{{name: c, image: x}}]\n  volumes: [{{name: v, rbd: {{monitors: [m1], image: img{pool}}}}}]\n"
            )
        };
        let yaml = alloc::string::String::from(policy)
            + &node("n1", 4000, 8 << 30, "")
            + &pod("old", "n1", "")
            + &pod("new", "", ", pool: rbd");
        let result = schedule(&yaml, Version::Legacy);
        assert_eq!(
            result.pods[0].message.as_deref(),
            Some("0/1 nodes are available: 1 node(s) had no available disk.")
        );
    }
}
