//! NoVolumeZoneConflict: the zone and region labels of a pod's bound PersistentVolumes
//! must admit the node.
//!
//! Follows 1.11 `VolumeZoneChecker` in `pkg/scheduler/algorithm/predicates/predicates.go`:
//! - a pod without volumes, and a node with neither
//!   `failure-domain.beta.kubernetes.io/zone` nor `…/region`, pass;
//! - for each claim volume (in order) the claim and its volume must exist: a missing
//!   one, and an unbound claim whose class does not wait for its first consumer, are
//!   errors that abort the pod's scheduling, not reasons (`PersistentVolumeClaim is not
//!   bound: "data"`); unbound claims of a `WaitForFirstConsumer` class are skipped;
//! - each beta zone or region label of the volume is a `__`-separated set of values
//!   (one that does not parse is ignored) that must contain the node's value of that
//!   label (empty when the node lacks it).
//!
//! Example: a pod whose claim is bound to a volume labelled `…/zone: us-east-1a__us-east-1b`
//! fits nodes in either zone and fails `node(s) had no available volume zone` on a node in
//! `us-east-1c`. The `topology.kubernetes.io` labels are not read: 1.11 predates them.

use alloc::string::String;

use crate::cluster::Cluster;
use crate::model::{Node, Pod};
use crate::schedule::status::Status;
use crate::schedule::volumes::{self, quoted, BETA_REGION, BETA_ZONE};

use super::verdict;

/// `ErrVolumeZoneConflict`.
pub const REASON: &str = "node(s) had no available volume zone";

/// The predicate.
#[must_use]
pub fn predicate(pod: &Pod, cluster: &Cluster, node: &Node) -> Status {
    if pod.spec.volumes.is_empty() {
        return Status::success();
    }
    let node_labels = &node.metadata.labels;
    if !node_labels.contains_key(BETA_ZONE) && !node_labels.contains_key(BETA_REGION) {
        return Status::success();
    }
    let storage = &cluster.storage;
    let namespace = pod.metadata.namespace.as_str();
    for volume in &pod.spec.volumes {
        let Some(source) = &volume.persistent_volume_claim else {
            continue;
        };
        let name = source.claim_name.as_str();
        if name.is_empty() {
            return Status::error("PersistentVolumeClaim had no name");
        }
        let Some((_, claim)) = storage.claim(namespace, name) else {
            return Status::error(volumes::not_found("persistentvolumeclaim", name));
        };
        let volume_name = claim.spec.volume_name.as_str();
        if volume_name.is_empty() {
            if volumes::delays_binding(storage, claim) {
                continue;
            }
            return Status::error(alloc::format!(
                "PersistentVolumeClaim is not bound: {}",
                quoted(name)
            ));
        }
        let Some((_, bound)) = storage.volume(volume_name) else {
            return Status::error(volumes::not_found("persistentvolume", volume_name));
        };
        for key in [BETA_ZONE, BETA_REGION] {
            let Some(value) = bound.metadata.labels.get(key) else {
                continue;
            };
            let Some(zones) = volumes::label_zones(value) else {
                continue;
            };
            let node_value = node_labels.get(key).map_or("", String::as_str);
            if !zones.contains(&node_value) {
                return verdict(alloc::vec![String::from(REASON)]);
            }
        }
    }
    Status::success()
}

#[cfg(test)]
mod tests {
    use crate::schedule::status::Code;
    use crate::schedule::testing::schedule;
    use crate::schedule::Version;

    const NODES: &str = "\
---
kind: Node
metadata: {name: a, labels: {failure-domain.beta.kubernetes.io/zone: us-east-1a, failure-domain.beta.kubernetes.io/region: us-east-1}}
status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
---
kind: Node
metadata: {name: b, labels: {failure-domain.beta.kubernetes.io/zone: us-east-1b, failure-domain.beta.kubernetes.io/region: us-east-1}}
status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
---
kind: Node
metadata: {name: c}
status: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}
";

    fn claim_and_volume(zone_labels: &str) -> alloc::string::String {
        alloc::format!(
            "---\nkind: PersistentVolume\nmetadata: {{name: pv, labels: {{{zone_labels}}}}}\nspec: {{capacity: {{storage: 1Gi}}, accessModes: [ReadWriteOnce], gcePersistentDisk: {{pdName: d}}, claimRef: {{namespace: default, name: data}}}}\n---\nkind: PersistentVolumeClaim\nmetadata: {{name: data, namespace: default}}\nspec: {{accessModes: [ReadWriteOnce], resources: {{requests: {{storage: 1Gi}}}}, volumeName: pv}}\n---\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n  containers: [{{name: c, image: x}}]\n  volumes: [{{name: v, persistentVolumeClaim: {{claimName: data}}}}]\n"
        )
    }

    fn verdicts(yaml: &str) -> alloc::vec::Vec<(alloc::string::String, bool)> {
        let result = schedule(yaml, Version::Legacy);
        result.pods[0]
            .nodes
            .0
            .iter()
            .map(|(node, verdict)| {
                let zone = verdict
                    .predicates
                    .iter()
                    .find(|p| p.name == "NoVolumeZoneConflict")
                    .is_some_and(|p| p.passed);
                (node.clone(), zone)
            })
            .collect()
    }

    /// predicates_test.go `TestVolumeZonePredicate`: label match, label mismatch, and a
    /// node without zone labels.
    #[test]
    fn volume_zones_must_hold_the_node_zone() {
        let yaml = alloc::format!(
            "{NODES}{}",
            claim_and_volume("failure-domain.beta.kubernetes.io/zone: us-east-1a")
        );
        assert_eq!(
            verdicts(&yaml),
            [("a".into(), true), ("b".into(), false), ("c".into(), true)]
        );
    }

    /// `TestVolumeZonePredicateMultiZone`: a `__` set admits each of its zones.
    #[test]
    fn multi_zone_labels_admit_each_zone() {
        let yaml = alloc::format!(
            "{NODES}{}",
            claim_and_volume("failure-domain.beta.kubernetes.io/zone: us-east-1a__us-east-1b")
        );
        assert_eq!(
            verdicts(&yaml),
            [("a".into(), true), ("b".into(), true), ("c".into(), true)]
        );
        let region = alloc::format!(
            "{NODES}{}",
            claim_and_volume("failure-domain.beta.kubernetes.io/region: us-west-1")
        );
        assert_eq!(
            verdicts(&region),
            [("a".into(), false), ("b".into(), false), ("c".into(), true)]
        );
    }

    /// `TestVolumeZonePredicateWithVolumeBinding`: an unbound claim of an immediate class
    /// is an error on zoned nodes; a WaitForFirstConsumer one is skipped.
    #[test]
    fn unbound_claims_are_errors_unless_they_wait_for_a_consumer() {
        let claim = |class: &str| {
            alloc::format!(
                "{NODES}---\nkind: StorageClass\nmetadata: {{name: the-class}}\nprovisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: {class}\n---\nkind: PersistentVolumeClaim\nmetadata: {{name: data, namespace: default}}\nspec: {{accessModes: [ReadWriteOnce], resources: {{requests: {{storage: 1Gi}}}}, storageClassName: the-class}}\n"
            )
        };
        let pod = "---\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers: [{name: c, image: x}]\n  volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]\n";
        let status = |class: &str| {
            let yaml = claim(class) + pod;
            let sources = [crate::Source::new("t", &yaml)];
            let cluster = crate::cluster::Cluster::build(
                crate::input::load(&sources, &crate::Limits::default()),
                &sources,
                None,
            );
            let entry = cluster
                .pods
                .iter()
                .find(|e| e.pod.metadata.name == "p")
                .unwrap();
            let node = &cluster.nodes[0];
            super::predicate(&entry.pod, &cluster, node)
        };
        let immediate = status("Immediate");
        assert_eq!(immediate.code, Code::Error);
        assert_eq!(
            immediate.reasons,
            ["PersistentVolumeClaim is not bound: \"data\""]
        );
        assert!(status("WaitForFirstConsumer").passed());
    }
}
