//! NodeVolumeLimits: the node's CSI drivers may not attach more volumes than their
//! limits.
//!
//! Follows `pkg/scheduler/framework/plugins/nodevolumelimits/csi.go`:
//! - PreFilter skips pods with no claim, no generic ephemeral volume and no in-tree
//!   volume that CSI migration covers (AWS EBS, GCE PD, Azure Disk, Cinder);
//! - Filter counts unique `<driver>/<volume handle>` pairs per driver: the pod's new ones
//!   (those not already attached by the node's pods) plus the attached ones must not
//!   exceed the driver's limit, else `node(s) exceed max volume count` (`Unschedulable`).
//!   A claim bound to a CSI volume counts as that volume. One bound to an in-tree EBS, GCE
//!   PD, Azure Disk or Cinder volume, and such an inline volume, count as the migrated
//!   driver's volume (`ebs.csi.aws.com`, `pd.csi.storage.gke.io`, `disk.csi.azure.com`,
//!   `cinder.csi.openstack.org`: `isCSIMigrationOn` in `utils.go`) when the node has a
//!   CSINode. An unbound claim, or one bound to a missing volume, counts as a
//!   volume of its own of its class's provisioner (or the migrated driver of an in-tree
//!   provisioner). A new pod's missing claim rejects the node
//!   (`UnschedulableAndUnresolvable`); an existing pod's is not counted;
//! - limits: the node's allocatable `attachable-volumes-csi-<driver>`, overridden by the
//!   CSINode's `drivers[].allocatable.count`; a node without limits fits.
//!
//! Example: a CSINode allowing 2 volumes of `ebs.csi.aws.com`, with two pods on the node
//! each using one EBS-backed claim; a third pod with a new claim fails there.
//!
//! Difference from upstream: allocatable keys of drivers whose name makes the key 63
//! characters or longer are hashed upstream (SHA-1); kubefit does not read those keys,
//! only the CSINode counts for such drivers.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cluster::storage::Storage;
use crate::model::{CsiNode, PersistentVolume, Pod, Volume};
use crate::schedule::snapshot::{NodeInfo, Snapshot};
use crate::schedule::status::Status;
use crate::schedule::volumes::{self, BETA_ZONE, ZONE};
use crate::schedule::Version;

/// The plugin name.
pub const NAME: &str = "NodeVolumeLimits";

/// `ErrReasonMaxVolumeCountExceeded`.
pub const REASON: &str = "node(s) exceed max volume count";

/// The prefix of a node's allocatable CSI volume limits (`CSIAttachLimitPrefix`).
const ATTACH_LIMIT_PREFIX: &str = "attachable-volumes-csi-";

/// Starts the handle of a claim without a volume, so it never equals a real handle
/// (upstream uses a random prefix).
const UNRESOLVED_PREFIX: &str = "\u{0}unresolved-claim";

/// In-tree plugins migrated to CSI: plugin (provisioner) name and CSI driver.
const MIGRATED: [(&str, &str); 4] = [
    ("kubernetes.io/aws-ebs", "ebs.csi.aws.com"),
    ("kubernetes.io/gce-pd", "pd.csi.storage.gke.io"),
    ("kubernetes.io/azure-disk", "disk.csi.azure.com"),
    ("kubernetes.io/cinder", "cinder.csi.openstack.org"),
];

/// PreFilter: true when the Filter runs.
#[must_use]
pub fn pre_filter(pod: &Pod) -> bool {
    pod.spec.volumes.iter().any(|volume| {
        volume.persistent_volume_claim.is_some()
            || volume.ephemeral.is_some()
            || volume.aws_elastic_block_store.is_some()
            || volume.gce_persistent_disk.is_some()
            || volume.azure_disk.is_some()
            || volume.cinder.is_some()
    })
}

/// Filter.
#[must_use]
pub fn filter(pod: &Pod, snapshot: &Snapshot<'_>, node: &NodeInfo<'_>) -> Status {
    if pod.spec.volumes.is_empty() {
        return Status::success();
    }
    let storage = &snapshot.cluster.storage;
    let csi_node = storage.csi_node(node.name());
    let mut new = BTreeMap::new();
    match attachable(storage, csi_node, pod, true, &mut new) {
        Ok(()) => {}
        Err(Failure::Missing(message)) => return Status::unresolvable(message),
        Err(Failure::Error(message)) => return Status::error(message),
    }
    if new.is_empty() {
        return Status::success();
    }
    let limits = limits(node, csi_node);
    if limits.is_empty() {
        return Status::success();
    }
    let mut attached = BTreeMap::new();
    for &index in &node.pods {
        let Some(entry) = snapshot.pod(index) else {
            continue;
        };
        if let Err(Failure::Missing(message) | Failure::Error(message)) =
            attachable(storage, csi_node, &entry.pod, false, &mut attached)
        {
            return Status::error(message);
        }
    }
    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (name, driver) in &attached {
        new.remove(name);
        counts.entry(driver.as_str()).or_default().0 += 1;
    }
    for driver in new.values() {
        counts.entry(driver.as_str()).or_default().1 += 1;
    }
    let exceeded = counts.iter().any(|(driver, (current, added))| {
        let total = i64::try_from(current.saturating_add(*added)).unwrap_or(i64::MAX);
        *added > 0 && limits.get(*driver).is_some_and(|&limit| total > limit)
    });
    if exceeded {
        Status::unschedulable(REASON)
    } else {
        Status::success()
    }
}

/// Why a pod's volumes could not be read.
enum Failure {
    /// A new pod's claim is missing (`UnschedulableAndUnresolvable`).
    Missing(String),
    /// Anything else (an `Error` status).
    Error(String),
}

/// `filterAttachableVolumes`: adds `<driver>/<handle> -> driver` for each volume of the
/// pod a CSI driver attaches.
fn attachable(
    storage: &Storage,
    csi_node: Option<&CsiNode>,
    pod: &Pod,
    new_pod: bool,
    into: &mut BTreeMap<String, String>,
) -> Result<(), Failure> {
    let namespace = pod.metadata.namespace.as_str();
    for volume in &pod.spec.volumes {
        let Some((name, ephemeral)) = volumes::claim_name(Version::Current, pod, volume) else {
            if let Some((driver, handle)) = inline(volume, csi_node).map_err(Failure::Error)? {
                into.insert(alloc::format!("{driver}/{handle}"), String::from(driver));
            }
            continue;
        };
        if name.is_empty() {
            return Err(Failure::Error(String::from(
                "PersistentVolumeClaim had no name",
            )));
        }
        let Some((_, claim)) = storage.claim(namespace, &name) else {
            if new_pod {
                return Err(Failure::Missing(alloc::format!(
                    "looking up PVC {namespace}/{name}: {}",
                    volumes::not_found("persistentvolumeclaim", &name)
                )));
            }
            continue;
        };
        if ephemeral {
            volumes::owned_by_pod(claim, pod).map_err(Failure::Error)?;
        }
        let bound = Some(claim.spec.volume_name.as_str())
            .filter(|name| !name.is_empty())
            .and_then(|name| storage.volume(name));
        let found = match bound {
            Some((_, volume)) => persistent(volume, csi_node),
            None => {
                // `getCSIDriverInfoFromSC`.
                let provisioner = storage
                    .class(volumes::claim_class(claim))
                    .map(|class| class.provisioner.as_str());
                let driver = match provisioner {
                    None => None,
                    Some(provisioner) => match migrated_driver(provisioner) {
                        Some(driver) => csi_node.map(|_| driver),
                        None => Some(provisioner),
                    },
                };
                driver.map(|driver| {
                    (
                        String::from(driver),
                        alloc::format!("{UNRESOLVED_PREFIX}-{namespace}/{name}"),
                    )
                })
            }
        };
        if let Some((driver, handle)) = found.filter(|(d, h)| !d.is_empty() && !h.is_empty()) {
            into.insert(alloc::format!("{driver}/{handle}"), driver);
        }
    }
    Ok(())
}

/// The CSI driver an in-tree plugin (or provisioner) migrated to.
fn migrated_driver(plugin: &str) -> Option<&'static str> {
    MIGRATED
        .iter()
        .find(|(name, _)| *name == plugin)
        .map(|(_, driver)| *driver)
}

/// The driver and handle of a PersistentVolume: its CSI source, or the translation of a
/// migrated in-tree source when the node has a CSINode (`isCSIMigrationOn` is true for
/// these plugins whenever the CSINode exists).
fn persistent(volume: &PersistentVolume, csi_node: Option<&CsiNode>) -> Option<(String, String)> {
    let spec = &volume.spec;
    if let Some(csi) = &spec.csi {
        return Some((csi.driver.clone(), csi.volume_handle.clone()));
    }
    csi_node?;
    if let Some(ebs) = &spec.aws_elastic_block_store {
        let handle = ebs_volume_id(&ebs.volume_id).ok()?;
        return Some((String::from("ebs.csi.aws.com"), handle));
    }
    if let Some(gce) = &spec.gce_persistent_disk {
        let labels = &volume.metadata.labels;
        let zones = labels
            .get(BETA_ZONE)
            .filter(|zones| !zones.is_empty())
            .or_else(|| labels.get(ZONE))
            .map_or("", String::as_str);
        let parts: Vec<&str> = zones.split("__").collect();
        let handle = match parts.as_slice() {
            [zone] if !zone.is_empty() => {
                alloc::format!("projects/UNSPECIFIED/zones/{zone}/disks/{}", gce.pd_name)
            }
            [first, _, ..] => {
                let region = region_of(first)?;
                if parts.iter().any(|zone| region_of(zone) != Some(region)) {
                    return None;
                }
                alloc::format!(
                    "projects/UNSPECIFIED/regions/{region}/disks/{}",
                    gce.pd_name
                )
            }
            _ => alloc::format!(
                "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/{}",
                gce.pd_name
            ),
        };
        return Some((String::from("pd.csi.storage.gke.io"), handle));
    }
    if let Some(azure) = &spec.azure_disk {
        return Some((String::from("disk.csi.azure.com"), azure.disk_uri.clone()));
    }
    spec.cinder.as_ref().map(|cinder| {
        (
            String::from("cinder.csi.openstack.org"),
            cinder.volume_id.clone(),
        )
    })
}

/// The region of a GCE zone: everything before its last `-`.
fn region_of(zone: &str) -> Option<&str> {
    zone.rfind('-').and_then(|at| zone.get(..at))
}

/// The driver and handle of a migrated inline volume (`checkAttachableInlineVolume`).
fn inline(
    volume: &Volume,
    csi_node: Option<&CsiNode>,
) -> Result<Option<(&'static str, String)>, String> {
    if csi_node.is_none() {
        return Ok(None);
    }
    if let Some(ebs) = &volume.aws_elastic_block_store {
        let handle = ebs_volume_id(&ebs.volume_id).map_err(|error| {
            alloc::format!(
                "converting volume({}) from inline to csi: failed to translate Kubernetes ID to EBS Volume ID {error}",
                volume.name
            )
        })?;
        return Ok(Some(("ebs.csi.aws.com", handle)));
    }
    if let Some(gce) = &volume.gce_persistent_disk {
        return Ok(Some((
            "pd.csi.storage.gke.io",
            alloc::format!(
                "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/{}",
                gce.pd_name
            ),
        )));
    }
    if let Some(azure) = &volume.azure_disk {
        return Ok(Some(("disk.csi.azure.com", azure.disk_uri.clone())));
    }
    Ok(volume
        .cinder
        .as_ref()
        .map(|cinder| ("cinder.csi.openstack.org", cinder.volume_id.clone())))
}

/// `KubernetesVolumeIDToEBSVolumeID`: `aws://<zone>/vol-…` becomes `vol-…`; a bare ID
/// is kept.
fn ebs_volume_id(id: &str) -> Result<String, String> {
    let Some(rest) = id.strip_prefix("aws://") else {
        return Ok(String::from(id));
    };
    let path = rest.find('/').and_then(|at| rest.get(at..)).unwrap_or("");
    let trimmed = path.trim_matches('/');
    if trimmed.starts_with("vol-") && !trimmed.contains('/') {
        Ok(String::from(trimmed))
    } else {
        Err(alloc::format!("Invalid format for AWS volume ({id})"))
    }
}

/// The node's CSI volume limits per driver: allocatable `attachable-volumes-csi-<driver>`
/// overridden by the CSINode's counts (`getVolumeLimits`).
fn limits<'n>(node: &'n NodeInfo<'_>, csi_node: Option<&'n CsiNode>) -> BTreeMap<&'n str, i64> {
    let mut limits = BTreeMap::new();
    if let Some(allocatable) = node.node.status.allocatable.as_ref() {
        for (name, value) in allocatable {
            if let Some(driver) = name.strip_prefix(ATTACH_LIMIT_PREFIX) {
                limits.insert(driver, value.value());
            }
        }
    }
    for driver in csi_node.iter().flat_map(|csi| csi.spec.drivers.iter()) {
        if let Some(count) = driver.allocatable.as_ref().and_then(|a| a.count) {
            limits.insert(driver.name.as_str(), i64::from(count));
        }
    }
    limits
}

#[cfg(test)]
mod tests {
    use super::ebs_volume_id;
    use crate::schedule::testing::{claims, node, pod_with_volumes, schedule};
    use crate::schedule::Version;
    use alloc::string::String;

    #[test]
    fn ebs_ids_lose_their_url_form() {
        assert_eq!(ebs_volume_id("vol-1").as_deref(), Ok("vol-1"));
        assert_eq!(
            ebs_volume_id("aws://us-east-1a/vol-1").as_deref(),
            Ok("vol-1")
        );
        assert!(ebs_volume_id("aws://us-east-1a/other").is_err());
    }

    fn claim(name: &str, handle: &str) -> String {
        alloc::format!(
            "---\nkind: PersistentVolume\nmetadata: {{name: pv-{name}}}\nspec: {{capacity: {{storage: 1Gi}}, accessModes: [ReadWriteOnce], csi: {{driver: ebs.csi.aws.com, volumeHandle: {handle}}}, claimRef: {{namespace: default, name: {name}}}}}\n---\nkind: PersistentVolumeClaim\nmetadata: {{name: {name}, namespace: default, annotations: {{pv.kubernetes.io/bind-completed: 'yes'}}}}\nspec: {{accessModes: [ReadWriteOnce], resources: {{requests: {{storage: 1Gi}}}}, volumeName: pv-{name}}}\n"
        )
    }

    fn user(name: &str, node_name: &str, names: &[&str]) -> String {
        pod_with_volumes(name, node_name, &claims(names))
    }

    const CSI_NODE: &str = "---\napiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n1}\nspec: {drivers: [{name: ebs.csi.aws.com, nodeID: n1, allocatable: {count: 2}}]}\n";

    /// csi_test.go `TestCSILimits`: volumes of one driver against its CSINode count; a
    /// volume already attached on the node is not counted twice.
    #[test]
    fn csi_volumes_count_against_the_csi_node_limit() {
        let base = node("n1", 4000, 8 << 30, "")
            + CSI_NODE
            + &claim("a", "h-a")
            + &claim("b", "h-b")
            + &claim("c", "h-c")
            + &user("old", "n1", &["a", "b"]);
        let over = base.clone() + &user("new", "", &["c"]);
        let result = schedule(&over, Version::Current);
        assert_eq!(
            result.pods[0].nodes.0[0].1.reasons,
            [String::from(super::REASON)]
        );
        let shared = base + &user("new", "", &["a"]);
        let result = schedule(&shared, Version::Current);
        assert_eq!(result.pods[0].node.as_deref(), Some("n1"));
    }

    /// Cinder is migrated too (`isCSIMigrationOn` is true for `kubernetes.io/cinder`
    /// whenever the node has a CSINode): an inline Cinder volume counts against
    /// `cinder.csi.openstack.org`, by its volume ID.
    #[test]
    fn cinder_volumes_count_as_the_cinder_csi_driver() {
        let cinder = |name: &str, node_name: &str, id: &str| {
            alloc::format!(
                "---\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  nodeName: '{node_name}'\n  containers: [{{name: c, image: x}}]\n  volumes: [{{name: v, cinder: {{volumeID: {id}}}}}]\n"
            )
        };
        let base = node("n1", 4000, 8 << 30, "")
            + "---\napiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n1}\nspec: {drivers: [{name: cinder.csi.openstack.org, nodeID: n1, allocatable: {count: 1}}]}\n"
            + &cinder("old", "n1", "vol-a");
        let result = schedule(
            &(base.clone() + &cinder("new", "", "vol-b")),
            Version::Current,
        );
        assert_eq!(
            result.pods[0].nodes.0[0].1.reasons,
            [String::from(super::REASON)]
        );
        let result = schedule(&(base + &cinder("new", "", "vol-a")), Version::Current);
        assert_eq!(result.pods[0].node.as_deref(), Some("n1"));
    }

    fn inline_ebs(name: &str, node_name: &str, id: &str) -> String {
        alloc::format!(
            "---\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  nodeName: '{node_name}'\n  containers: [{{name: c, image: x}}]\n  volumes: [{{name: v, awsElasticBlockStore: {{volumeID: {id}}}}}]\n"
        )
    }

    /// csi_test.go `TestCSILimits` "should count in-tree volumes if migration is enabled":
    /// inline EBS volumes count against `ebs.csi.aws.com` once the node has a CSINode;
    /// `aws://zone/vol-1` and `vol-1` are the same volume. Without a CSINode they are left
    /// to the in-tree limits.
    #[test]
    fn migrated_in_tree_volumes_count_as_their_csi_driver() {
        let csi_node = "---\napiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n1}\nspec: {drivers: [{name: ebs.csi.aws.com, nodeID: n1, allocatable: {count: 1}}]}\n";
        let base =
            node("n1", 4000, 8 << 30, "") + &inline_ebs("old", "n1", "aws://us-east-1a/vol-1");
        let reasons = |yaml: &str| {
            schedule(yaml, Version::Current).pods[0].nodes.0[0]
                .1
                .reasons
                .clone()
        };
        assert_eq!(
            reasons(&(base.clone() + csi_node + &inline_ebs("new", "", "vol-2"))),
            [String::from(super::REASON)]
        );
        assert!(reasons(&(base.clone() + csi_node + &inline_ebs("same", "", "vol-1"))).is_empty());
        assert!(reasons(&(base + &inline_ebs("new", "", "vol-2"))).is_empty());
    }
}
