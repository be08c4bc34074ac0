//! VolumeZone: the zone and region labels of a pod's bound PersistentVolumes must admit
//! the node.
//!
//! Follows `pkg/scheduler/framework/plugins/volumezone/volume_zone.go`:
//! - PreFilter walks the `persistentVolumeClaim` volumes in order and rejects the pod
//!   everywhere (`UnschedulableAndUnresolvable`) when a claim is missing, an unbound claim
//!   has no class (`PersistentVolumeClaim had no pv name and storageClass name`), its class
//!   is missing, or it binds immediately (`PersistentVolume had no name`), or a bound
//!   claim's volume is missing; unbound `WaitForFirstConsumer` claims are skipped. It
//!   collects each volume's `failure-domain.beta.kubernetes.io/zone`, `…/region`,
//!   `topology.kubernetes.io/zone` and `…/region` labels, each a `__`-separated set (one
//!   that does not parse is ignored); with none, the Filter is skipped;
//! - Filter: a node with none of those four labels passes; otherwise for each collected
//!   label the node's value (for a beta key the node may carry the GA key instead) must
//!   be in the set, else `node(s) had no available volume zone`, `UnschedulableAndUnresolvable`.
//!
//! Example: a volume labelled `topology.kubernetes.io/zone: us-east-1a` admits nodes with
//! that zone, rejects those in another zone or without the zone label (when they carry a
//! region label), and admits nodes with no topology label at all.

use alloc::string::String;
use alloc::vec::Vec;

use crate::cluster::storage::Storage;
use crate::model::{Node, Pod};
use crate::schedule::status::Status;
use crate::schedule::volumes::{self, BETA_REGION, BETA_ZONE, REGION, ZONE};

/// The plugin name.
pub const NAME: &str = "VolumeZone";

/// `ErrReasonConflict`.
pub const REASON: &str = "node(s) had no available volume zone";

/// The labels read, in upstream's order.
const TOPOLOGY_LABELS: [&str; 4] = [BETA_ZONE, BETA_REGION, ZONE, REGION];

/// The topology labels of the pod's bound volumes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreFilterState<'a> {
    topologies: Vec<(&'a str, Vec<&'a str>)>,
}

/// PreFilter: `Ok(None)` when the Filter is skipped.
///
/// # Errors
/// The rejection of a pod whose claims cannot be resolved.
pub fn pre_filter<'a>(
    storage: &'a Storage,
    pod: &'a Pod,
) -> Result<Option<PreFilterState<'a>>, Status> {
    let mut topologies = Vec::new();
    for volume in &pod.spec.volumes {
        let Some(source) = &volume.persistent_volume_claim else {
            continue;
        };
        let name = source.claim_name.as_str();
        if name.is_empty() {
            return Err(Status::unresolvable("PersistentVolumeClaim had no name"));
        }
        let Some((_, claim)) = storage.claim(&pod.metadata.namespace, name) else {
            return Err(Status::unresolvable(volumes::not_found(
                "persistentvolumeclaim",
                name,
            )));
        };
        let volume_name = claim.spec.volume_name.as_str();
        if volume_name.is_empty() {
            let class_name = volumes::claim_class(claim);
            if class_name.is_empty() {
                return Err(Status::unresolvable(
                    "PersistentVolumeClaim had no pv name and storageClass name",
                ));
            }
            let Some(class) = storage.class(class_name) else {
                return Err(Status::unresolvable(volumes::not_found(
                    "storageclass.storage.k8s.io",
                    class_name,
                )));
            };
            if class.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer") {
                continue;
            }
            return Err(Status::unresolvable("PersistentVolume had no name"));
        }
        let Some((_, bound)) = storage.volume(volume_name) else {
            return Err(Status::unresolvable(volumes::not_found(
                "persistentvolume",
                volume_name,
            )));
        };
        for key in TOPOLOGY_LABELS {
            if let Some(zones) = bound
                .metadata
                .labels
                .get(key)
                .and_then(|value| volumes::label_zones(value))
            {
                topologies.push((key, zones));
            }
        }
    }
    if topologies.is_empty() {
        return Ok(None);
    }
    Ok(Some(PreFilterState { topologies }))
}

/// The GA key of a beta topology key (`translateToGALabel`).
fn ga_key(key: &str) -> &str {
    match key {
        BETA_REGION => REGION,
        BETA_ZONE => ZONE,
        other => other,
    }
}

impl PreFilterState<'_> {
    /// Filter.
    #[must_use]
    pub fn filter(&self, node: &Node) -> Status {
        let labels = &node.metadata.labels;
        if !TOPOLOGY_LABELS.iter().any(|key| labels.contains_key(*key)) {
            return Status::success();
        }
        for (key, zones) in &self.topologies {
            let value = labels
                .get(*key)
                .or_else(|| labels.get(ga_key(key)))
                .map(String::as_str);
            if !value.is_some_and(|value| zones.contains(&value)) {
                return Status::unresolvable(REASON);
            }
        }
        Status::success()
    }
}

#[cfg(test)]
mod tests {
    use crate::schedule::testing::schedule;
    use crate::schedule::Version;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn node(name: &str, labels: &str) -> String {
        alloc::format!(
            "---\nkind: Node\nmetadata: {{name: {name}, labels: {{{labels}}}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}}}\n"
        )
    }

    fn pod_on_volume(volume_labels: &str) -> String {
        alloc::format!(
            "---\nkind: PersistentVolume\nmetadata: {{name: pv, labels: {{{volume_labels}}}}}\nspec: {{capacity: {{storage: 1Gi}}, accessModes: [ReadWriteOnce], csi: {{driver: d, volumeHandle: h}}, claimRef: {{namespace: default, name: data}}}}\n---\nkind: PersistentVolumeClaim\nmetadata: {{name: data, namespace: default, annotations: {{pv.kubernetes.io/bind-completed: 'yes'}}}}\nspec: {{accessModes: [ReadWriteOnce], resources: {{requests: {{storage: 1Gi}}}}, volumeName: pv}}\n---\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n  containers: [{{name: c, image: x}}]\n  volumes: [{{name: v, persistentVolumeClaim: {{claimName: data}}}}]\n"
        )
    }

    fn zone_verdicts(yaml: &str) -> Vec<(String, Vec<String>)> {
        let result = schedule(yaml, Version::Current);
        result.pods[0]
            .nodes
            .0
            .iter()
            .map(|(name, verdict)| (name.clone(), verdict.reasons.clone()))
            .collect()
    }

    /// volume_zone_test.go `TestSingleZone`: label match, label mismatch, a node with an
    /// unrelated label only, and region labels.
    #[test]
    fn single_zone_volumes() {
        let nodes = node("match", "topology.kubernetes.io/zone: us-west1-a")
            + &node("other", "topology.kubernetes.io/zone: us-west1-b")
            + &node("unlabelled", "uselessLabel: none")
            + &node("region-only", "topology.kubernetes.io/region: us-west1");
        let yaml = nodes + &pod_on_volume("topology.kubernetes.io/zone: us-west1-a");
        let reason = || alloc::vec![String::from(super::REASON)];
        assert_eq!(
            zone_verdicts(&yaml),
            [
                ("match".into(), alloc::vec![]),
                ("other".into(), reason()),
                ("unlabelled".into(), alloc::vec![]),
                ("region-only".into(), reason()),
            ]
        );
    }

    /// `TestMultiZone` and `TestWithBinding`-style beta/GA mixing: a beta key on the
    /// volume matches the GA key on the node; `__` sets admit each zone.
    #[test]
    fn multi_zone_and_beta_volumes() {
        let nodes = node("a", "topology.kubernetes.io/zone: us-west1-a")
            + &node("b", "failure-domain.beta.kubernetes.io/zone: us-west1-b")
            + &node("c", "topology.kubernetes.io/zone: us-west1-c");
        let yaml = nodes
            + &pod_on_volume("failure-domain.beta.kubernetes.io/zone: us-west1-a__us-west1-b");
        let reason = || alloc::vec![String::from(super::REASON)];
        assert_eq!(
            zone_verdicts(&yaml),
            [
                ("a".into(), alloc::vec![]),
                ("b".into(), alloc::vec![]),
                ("c".into(), reason()),
            ]
        );
    }
}
