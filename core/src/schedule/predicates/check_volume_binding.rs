//! CheckVolumeBinding: bound claims' volumes must allow the node, and unbound claims that
//! wait for their first consumer must find a volume there.
//!
//! Follows 1.11 `VolumeBindingChecker` in `pkg/scheduler/algorithm/predicates/predicates.go`
//! and `FindPodVolumes` in `pkg/controller/volume/persistentvolume/scheduler_binder.go`
//! (`VolumeScheduling` is beta and on in 1.11), through [`crate::schedule::volumes`]:
//! - an unbound claim whose class binds immediately is an error on every node the
//!   predicate reaches, `pod has unbound PersistentVolumeClaims` (1.12 added
//!   "immediate"); so is a bound claim whose volume is missing;
//! - a bound volume whose node affinity excludes the node fails
//!   `node(s) had volume node affinity conflict`;
//! - each `WaitForFirstConsumer` claim, smallest request first, needs its own volume:
//!   pre-bound to it, or unclaimed, of its class, matching its selector, access modes and
//!   request (the smallest such), with node affinity admitting the node; otherwise
//!   `node(s) didn't find available persistent volumes to bind`. 1.11 cannot provision
//!   for such claims (DynamicProvisioningScheduling is alpha and off).
//!
//! Both reasons can be reported together. When the pod is placed, its chosen volumes are
//! taken (upstream's PV assume cache), so later pods do not get them. Upstream 1.11 then
//! binds the volumes and places the pod on its next attempt; kubefit places it at once.
//!
//! Example: a claim of a `WaitForFirstConsumer` class with one local volume whose node
//! affinity names `node-1` fits only `node-1`.

use alloc::string::String;

use super::verdict;
use crate::model::Node;
use crate::schedule::snapshot::Snapshot;
use crate::schedule::status::Status;
use crate::schedule::volumes::{self, PodClaims};

/// `ErrVolumeNodeConflict` (1.34 rewords it, see [`crate::schedule::volumes`]).
pub const NODE_AFFINITY_CONFLICT: &str = "node(s) had volume node affinity conflict";
/// `ErrVolumeBindConflict`.
pub const BINDING_NO_MATCH: &str = volumes::BINDING_NO_MATCH;
/// The error for claims that should have been bound already.
pub const UNBOUND_IMMEDIATE: &str = "pod has unbound PersistentVolumeClaims";

/// The predicate, on the pod's claims sorted once per pod.
#[must_use]
pub fn predicate(
    claims: &Result<PodClaims<'_>, String>,
    snapshot: &Snapshot<'_>,
    node: &Node,
) -> Status {
    let claims = match claims {
        Ok(claims) => claims,
        Err(error) => return Status::error(error.clone()),
    };
    if claims.unbound_immediate {
        return Status::error(UNBOUND_IMMEDIATE);
    }
    match claims.find(&snapshot.cluster.storage, &snapshot.volumes, node) {
        Err(error) => Status::error(error),
        Ok(found) => {
            let mut reasons = alloc::vec::Vec::new();
            if !found.bound_satisfied {
                reasons.push(String::from(NODE_AFFINITY_CONFLICT));
            }
            if !found.unbound_satisfied {
                reasons.push(String::from(BINDING_NO_MATCH));
            }
            verdict(reasons)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::schedule::testing::schedule;
    use crate::schedule::Version;
    use alloc::string::String;

    const POLICY: &str = "---\nkind: Policy\napiVersion: v1\npredicates: [{name: CheckVolumeBinding}, {name: NoVolumeZoneConflict}]\npriorities: []\n";

    fn node(name: &str) -> String {
        alloc::format!(
            "---\nkind: Node\nmetadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}}}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}}}\n"
        )
    }

    const POD: &str = "---\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers: [{name: c, image: x}]\n  volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]\n";

    /// predicates_test.go `TestVolumeBindingPredicate` / scheduler_test.go
    /// `TestSchedulerWithVolumeBinding`: a bound volume pinned to one node conflicts with
    /// the others; in 1.11 a claim is bound as soon as it names its volume.
    #[test]
    fn bound_volumes_pin_the_pod_to_their_nodes() {
        let yaml = String::from(POLICY)
            + &node("node-1")
            + &node("node-2")
            + "---\nkind: PersistentVolume\nmetadata: {name: pv}\nspec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], local: {path: /d}, claimRef: {namespace: default, name: data}, nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [node-1]}]}]}}}\n"
            + "---\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, volumeName: pv}\n"
            + POD;
        let result = schedule(&yaml, Version::Legacy);
        let placement = &result.pods[0];
        assert_eq!(placement.node.as_deref(), Some("node-1"));
        assert_eq!(
            placement.nodes.0[1].1.reasons,
            [String::from(super::NODE_AFFINITY_CONFLICT)]
        );
    }

    /// `pod has unbound PersistentVolumeClaims` is an error on each node that reaches the
    /// predicate, aggregated with its count; the event has no `0/N` histogram.
    #[test]
    fn unbound_immediate_claims_are_errors() {
        let yaml = String::from(POLICY)
            + &node("node-1")
            + &node("node-2")
            + "---\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: default}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"
            + POD;
        let result = schedule(&yaml, Version::Legacy);
        assert_eq!(
            result.pods[0].message.as_deref(),
            Some("pod has unbound PersistentVolumeClaims (repeated 2 times)")
        );
    }

    /// The binder lists volumes by the bare `storageClassName` fields (the assume cache's
    /// index), then compares the classes the beta annotation overrides. A claim of class
    /// `wait` by annotation only looks among volumes with no `storageClassName`; a volume
    /// pre-bound to it under another `storageClassName` is not listed at all.
    #[test]
    fn volumes_are_listed_by_their_bare_class_field() {
        let volume = |name: &str, class: &str, bound: &str| {
            alloc::format!(
                "---\nkind: PersistentVolume\nmetadata: {{name: {name}, annotations: {{volume.beta.kubernetes.io/storage-class: wait}}}}\nspec: {{capacity: {{storage: 1Gi}}, accessModes: [ReadWriteOnce], storageClassName: '{class}', local: {{path: /d}}{bound}}}\nstatus: {{phase: Available}}\n"
            )
        };
        let yaml = |volumes: &str| {
            String::from(POLICY)
                + &node("node-1")
                + "---\nkind: StorageClass\napiVersion: storage.k8s.io/v1\nmetadata: {name: wait}\nprovisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: WaitForFirstConsumer\n"
                + volumes
                + "---\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: default, annotations: {volume.beta.kubernetes.io/storage-class: wait}}\nspec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n"
                + POD
        };
        let placed = |volumes: &str| {
            schedule(&yaml(volumes), Version::Legacy).pods[0]
                .node
                .clone()
        };
        let prebound = ", claimRef: {namespace: default, name: data}";
        assert_eq!(placed(&volume("pv", "wait", "")), None);
        assert_eq!(placed(&volume("pv", "other", prebound)), None);
        assert_eq!(placed(&volume("pv", "", "")).as_deref(), Some("node-1"));
        // 1.34 compares the classes the annotation gives on both sides.
        let result = schedule(&yaml(&volume("pv", "other", prebound)), Version::Current);
        assert_eq!(result.pods[0].node.as_deref(), Some("node-1"));
    }
}
