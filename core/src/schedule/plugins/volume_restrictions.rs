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
//! The count is upstream's arithmetic, not a recount: PreFilter counts each claim once
//! (`IsPVCUsedByPods`, by namespace and name), and `AddPod`/`RemovePod` add or subtract one
//! for every volume of the added or removed pod that names one of the claims, whatever its
//! namespace and whoever else uses the claim. So a preemption dry run that takes off a pod
//! of another namespace mounting a claim of the same name, or one of two users, frees the
//! claim; a nominated pod of another namespace mounting such a name takes it (kubefit
//! counts from the snapshot without the pods the dry run or the nominated pass moved, see
//! [`Snapshot::dry_run_victims`] and [`Snapshot::nominated_added`], then applies them). A
//! skipped PreFilter skips `AddPod` too (`RunPreFilterExtensionAddPod` in
//! `framework/runtime/framework.go`): nominated pods never make the Filter run.
//!
//! Example: two pods of a namespace mounting the same ReadWriteOncePod claim — the second
//! fails on every node while the first runs.

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
    /// The names of the pod's ReadWriteOncePod claims.
    claims: BTreeSet<String>,
    /// How many references to them placed pods hold: one per claim in use at PreFilter,
    /// then moved by `AddPod`/`RemovePod` (it may go below zero, as upstream's does).
    conflicting_claims: i64,
}

/// PreFilter: `Ok(None)` when the Filter is skipped.
///
/// # Errors
/// The rejection when a claim the pod mounts is missing.
pub fn pre_filter(snapshot: &Snapshot<'_>, pod: &Pod) -> Result<Option<PreFilterState>, Status> {
    let needs_check = pod.spec.volumes.iter().any(has_conflict_target);
    let storage = &snapshot.cluster.storage;
    let namespace = pod.metadata.namespace.as_str();
    let mut claims = BTreeSet::new();
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
            claims.insert(String::from(name));
        }
    }
    // The pods of the snapshot the cycle started from.
    let placed = || {
        snapshot
            .nodes
            .iter()
            .flat_map(|info| info.pods.iter())
            .filter(|&&index| !snapshot.nominated_added.contains(&index))
            .chain(&snapshot.dry_run_victims)
            .filter_map(|&index| snapshot.pod(index))
            .map(|entry| &entry.pod)
    };
    let in_use = claims
        .iter()
        .filter(|name| {
            placed().any(|other| other.metadata.namespace == namespace && mounts(other, name))
        })
        .count();
    if !needs_check && in_use == 0 {
        return Ok(None);
    }
    let mut state = PreFilterState {
        claims,
        conflicting_claims: i64::try_from(in_use).unwrap_or(i64::MAX),
    };
    for &added in &snapshot.nominated_added {
        if let Some(entry) = snapshot.pod(added) {
            state.conflicting_claims =
                (state.conflicting_claims).saturating_add(state.references(&entry.pod));
        }
    }
    for &removed in &snapshot.dry_run_victims {
        if let Some(entry) = snapshot.pod(removed) {
            state.conflicting_claims =
                (state.conflicting_claims).saturating_sub(state.references(&entry.pod));
        }
    }
    Ok(Some(state))
}

/// True if the pod mounts the claim of that name.
fn mounts(pod: &Pod, claim: &str) -> bool {
    pod.spec.volumes.iter().any(|volume| {
        volume
            .persistent_volume_claim
            .as_ref()
            .is_some_and(|source| source.claim_name == claim)
    })
}

impl PreFilterState {
    /// What `AddPod`/`RemovePod` move the count by for `other`: its volumes that name one
    /// of the claims, in any namespace (`conflictingPVCRefCountForPod`).
    fn references(&self, other: &Pod) -> i64 {
        let count = other
            .spec
            .volumes
            .iter()
            .filter_map(|volume| volume.persistent_volume_claim.as_ref())
            .filter(|source| self.claims.contains(&source.claim_name))
            .count();
        i64::try_from(count).unwrap_or(i64::MAX)
    }

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
    use super::READ_WRITE_ONCE_POD_CONFLICT;
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

    /// A claim `data` in namespace `namespace` with the access mode `mode`, bound to a
    /// volume of its own.
    fn claim(namespace: &str, mode: &str) -> String {
        alloc::format!(
            "---\nkind: PersistentVolumeClaim\nmetadata: {{name: data, namespace: {namespace}, annotations: {{pv.kubernetes.io/bind-completed: 'yes'}}}}\nspec: {{accessModes: [{mode}], storageClassName: '', resources: {{requests: {{storage: 1Gi}}}}, volumeName: pv-{namespace}}}\n---\nkind: PersistentVolume\nmetadata: {{name: pv-{namespace}}}\nspec: {{capacity: {{storage: 1Gi}}, accessModes: [{mode}], csi: {{driver: d, volumeHandle: {namespace}}}, claimRef: {{namespace: {namespace}, name: data}}}}\nstatus: {{phase: Bound}}\n"
        )
    }

    /// A pod `namespace/name` with the `spec` fields given (each followed by `, `),
    /// mounting the claim `data` and the `extra` volumes.
    fn mounting(namespace: &str, name: &str, spec: &str, extra: &str, status: &str) -> String {
        alloc::format!(
            "---\nkind: Pod\nmetadata: {{name: {name}, namespace: {namespace}, uid: {name}, creationTimestamp: '2024-01-01T00:00:{}Z'}}\nspec: {{{spec}containers: [{{name: c, image: x}}], volumes: [{{name: v, persistentVolumeClaim: {{claimName: data}}}}{extra}]}}\nstatus: {{{status}}}\n",
            if name == "nom" { "05" } else { "00" }
        )
    }

    /// The first pending pod's nominated node and first preemption victim.
    fn nomination(yaml: &str) -> (Option<String>, Option<String>) {
        let result = schedule(yaml, Version::Current);
        let placement = &result.pods[0];
        let victim = (placement.preemption.as_ref()).and_then(|p| p.victims.first());
        (
            placement.nominated_node.clone(),
            victim.map(|victim| victim.pod.clone()),
        )
    }

    const CLASSES: &str = "---\nkind: PriorityClass\napiVersion: scheduling.k8s.io/v1\nmetadata: {name: mid}\nvalue: 10\n---\nkind: PriorityClass\napiVersion: scheduling.k8s.io/v1\nmetadata: {name: high}\nvalue: 100\n---\nkind: PriorityClass\napiVersion: scheduling.k8s.io/v1\nmetadata: {name: top}\nvalue: 1000\n";

    /// `RemovePod` subtracts a removed pod's volumes that name the claim in any namespace:
    /// on n2, taking off `b/other`, whose claim `b/data` only shares the name, frees
    /// `a/data`, so n2 is a candidate with a lower victim than n1's.
    #[test]
    fn a_dry_run_frees_a_claim_by_name_in_any_namespace() {
        let yaml = node("n1", 4000, 8 << 30, "")
            + &node("n2", 4000, 8 << 30, "")
            + CLASSES
            + &claim("a", "ReadWriteOncePod")
            + &claim("b", "ReadWriteOnce")
            + &mounting(
                "a",
                "holder",
                "nodeName: n1, priorityClassName: mid, ",
                "",
                "",
            )
            + &mounting("b", "other", "nodeName: n2, ", "", "")
            + &mounting("a", "p", "priorityClassName: high, ", "", "");
        assert_eq!(
            nomination(&yaml),
            (Some("n2".into()), Some("b/other".into()))
        );
    }

    /// Upstream counts a claim in use once, however many pods use it, and `RemovePod`
    /// subtracts every reference: taking off one of two users frees the claim on n1,
    /// though `a/keeper` (of higher priority, on n2) still mounts it.
    #[test]
    fn a_dry_run_frees_a_claim_another_pod_still_uses() {
        let yaml = node("n1", 4000, 8 << 30, "")
            + &node("n2", 4000, 8 << 30, "")
            + CLASSES
            + &claim("a", "ReadWriteOncePod")
            + &mounting(
                "a",
                "holder",
                "nodeName: n1, priorityClassName: mid, ",
                "",
                "",
            )
            + &mounting(
                "a",
                "keeper",
                "nodeName: n2, priorityClassName: top, ",
                "",
                "",
            )
            + &mounting("a", "p", "priorityClassName: high, ", "", "");
        assert_eq!(
            nomination(&yaml),
            (Some("n1".into()), Some("a/holder".into()))
        );
    }

    /// A pod whose claim nobody uses skips the plugin, and a skipped plugin's `AddPod`
    /// never runs: `nom`, nominated to n1 with the same claim, does not keep `p` out;
    /// `nom` then finds the claim taken.
    #[test]
    fn a_skipped_pre_filter_ignores_nominated_users() {
        let yaml = node("n1", 4000, 8 << 30, "")
            + &claim("a", "ReadWriteOncePod")
            + &mounting("a", "p", "", "", "")
            + &mounting("a", "nom", "", "", "nominatedNodeName: n1");
        let result = schedule(&yaml, Version::Current);
        assert_eq!(result.pods[0].pod, "a/p");
        assert_eq!(result.pods[0].node.as_deref(), Some("n1"));
        assert_eq!(result.pods[1].pod, "a/nom");
        assert_eq!(result.pods[1].node, None);
        assert!(result.pods[1]
            .message
            .as_deref()
            .is_some_and(|message| message.contains(READ_WRITE_ONCE_POD_CONFLICT)));
    }

    /// With an EBS volume the plugin runs, and `AddPod` counts the nominated pod's claim
    /// by name: `b/nom`'s claim `b/data` keeps `a/p` off n1 on its first attempt.
    #[test]
    fn a_nominated_pod_takes_a_claim_by_name_in_any_namespace() {
        let yaml = node("n1", 4000, 8 << 30, "")
            + &claim("a", "ReadWriteOncePod")
            + &claim("b", "ReadWriteOnce")
            + &mounting(
                "a",
                "p",
                "",
                ", {name: d, awsElasticBlockStore: {volumeID: vol-1}}",
                "",
            )
            + &mounting("b", "nom", "", "", "nominatedNodeName: n1");
        let result = schedule(&yaml, Version::Current);
        assert_eq!(result.pods[0].pod, "a/p");
        assert_eq!(
            result.pods[0].first_attempt.as_deref(),
            Some("0/1 nodes are available: 1 node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by another pod. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.")
        );
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
