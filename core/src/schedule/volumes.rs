//! Volume scheduling shared by the 1.11 predicates and the 1.34 plugins: the claims a pod
//! uses, zone labels, a volume's node affinity, disk conflicts, the volume binder and
//! the volumes the scheduler assumed bound as it placed pods.
//!
//! The binder follows `pkg/controller/volume/persistentvolume/scheduler_binder.go` and
//! `index.go` (1.11) and `pkg/scheduler/framework/plugins/volumebinding/binder.go` with
//! `component-helpers/storage/volume/pv_helpers.go` (1.34). What changed between them:
//! - a claim is bound when it names a volume (1.11), and only once the PV controller also
//!   marked it `pv.kubernetes.io/bind-completed` (1.34); a claim that names a volume but
//!   is not fully bound counts as an unbound immediate claim in 1.34;
//! - 1.34 reads generic ephemeral volumes as the claim `<pod>-<volume>`;
//! - a bound claim whose volume is missing is an error in 1.11 and the reason
//!   `node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)` in 1.34;
//! - the binder looks only among the volumes of the claim's class: by the classes the
//!   beta annotation overrides in 1.34, by the bare `storageClassName` fields in 1.11;
//! - `findMatchingVolume` in 1.34 also needs an `Available` phase, an equal volume mode
//!   (an unset one is `Filesystem`) and an equal VolumeAttributesClass; 1.11 has the
//!   BlockVolume gate off, so it compares no volume mode;
//! - 1.11 cannot provision for delayed claims (DynamicProvisioningScheduling is alpha and
//!   off): an unmatched claim fails the node. 1.34 provisions when the class has a
//!   provisioner and its `allowedTopologies` admit the node, and checks
//!   CSIStorageCapacity for drivers that opt in.
//!
//! Upstream lists candidate volumes from an informer index, in map order; kubefit takes
//! them in input order, so among equally small volumes the first in the input wins. In-tree
//! volumes are not translated to CSI before their node affinity is checked (1.34 does so
//! only on nodes whose CSINode lists the plugin as migrated).

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::Version;
use crate::cluster::storage::{Storage, BETA_CLASS_ANNOTATION};
use crate::labels;
use crate::model::{
    Node, ObjectReference, PersistentVolume, PersistentVolumeClaim, Pod, StringMap,
    TopologySelectorTerm, Volume,
};
use crate::quantity::Quantity;
use crate::validation::quote;

/// `failure-domain.beta.kubernetes.io/zone`.
pub const BETA_ZONE: &str = "failure-domain.beta.kubernetes.io/zone";
/// `failure-domain.beta.kubernetes.io/region`.
pub const BETA_REGION: &str = "failure-domain.beta.kubernetes.io/region";
/// `topology.kubernetes.io/zone`.
pub const ZONE: &str = "topology.kubernetes.io/zone";
/// `topology.kubernetes.io/region`.
pub const REGION: &str = "topology.kubernetes.io/region";

/// The annotation the PV controller sets on a claim once binding is complete.
pub const BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
/// The annotation the scheduler sets on a claim to provision it for a node.
pub const SELECTED_NODE: &str = "volume.kubernetes.io/selected-node";
/// The provisioner of classes that cannot provision.
pub const NO_PROVISIONER: &str = "kubernetes.io/no-provisioner";

/// 1.34's reason for a bound volume whose node affinity excludes the node
/// (`ErrReasonNodeConflict`, reworded by kubernetes#129887).
pub const NODE_AFFINITY_CONFLICT: &str = "node(s) didn't match PersistentVolume's node affinity";
/// `ErrReasonBindConflict` (1.11 `ErrVolumeBindConflict`).
pub const BINDING_NO_MATCH: &str = "node(s) didn't find available persistent volumes to bind";
/// `ErrReasonNotEnoughSpace`.
pub const NOT_ENOUGH_SPACE: &str = "node(s) did not have enough free storage";
/// `ErrReasonPVNotExist`.
pub const VOLUME_NOT_EXIST: &str =
    "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

/// A claim's class: the beta annotation, else `storageClassName` (`GetPersistentVolumeClaimClass`).
#[must_use]
pub fn claim_class(claim: &PersistentVolumeClaim) -> &str {
    claim
        .metadata
        .annotations
        .get(BETA_CLASS_ANNOTATION)
        .map(String::as_str)
        .or(claim.spec.storage_class_name.as_deref())
        .unwrap_or("")
}

/// A volume's class: the beta annotation, else `storageClassName`.
#[must_use]
pub fn volume_class(volume: &PersistentVolume) -> &str {
    volume
        .metadata
        .annotations
        .get(BETA_CLASS_ANNOTATION)
        .map_or(volume.spec.storage_class_name.as_str(), String::as_str)
}

/// A lister's NotFound error text: `persistentvolumeclaim "data" not found`.
#[must_use]
pub fn not_found(resource: &str, name: &str) -> String {
    let mut text = String::from(resource);
    text.push(' ');
    quote(name, &mut text);
    text.push_str(" not found");
    text
}

/// Go's `%q` of a value, for upstream's messages.
#[must_use]
pub fn quoted(value: &str) -> String {
    let mut text = String::new();
    quote(value, &mut text);
    text
}

/// The claim a pod volume reads: a `persistentVolumeClaim` source, or (1.34) the claim
/// `<pod>-<volume>` a generic ephemeral volume gets (`ephemeral.VolumeClaimName`). The flag
/// is true for ephemeral volumes.
#[must_use]
pub fn claim_name<'p>(
    version: Version,
    pod: &'p Pod,
    volume: &'p Volume,
) -> Option<(Cow<'p, str>, bool)> {
    if let Some(source) = &volume.persistent_volume_claim {
        return Some((Cow::Borrowed(source.claim_name.as_str()), false));
    }
    if version == Version::Current && volume.ephemeral.is_some() {
        return Some((
            Cow::Owned(alloc::format!("{}-{}", pod.metadata.name, volume.name)),
            true,
        ));
    }
    None
}

/// `ephemeral.VolumeIsForPod`: the claim of an ephemeral volume must be controlled by
/// the pod.
///
/// # Errors
/// Upstream's message when another object owns the claim.
pub fn owned_by_pod(claim: &PersistentVolumeClaim, pod: &Pod) -> Result<(), String> {
    let owned = claim.metadata.namespace == pod.metadata.namespace
        && claim
            .metadata
            .controller()
            .is_some_and(|owner| owner.uid == pod.metadata.uid);
    if owned {
        Ok(())
    } else {
        Err(alloc::format!(
            "PVC {}/{} was not created for pod {}/{} (pod is not owner)",
            claim.metadata.namespace,
            claim.metadata.name,
            pod.metadata.namespace,
            pod.metadata.name
        ))
    }
}

/// `LabelZonesToSet`: a zone label value split on `__`, each part trimmed; `None` when a
/// part is empty (upstream then ignores the label).
#[must_use]
pub fn label_zones(value: &str) -> Option<Vec<&str>> {
    let mut zones = Vec::new();
    for part in value.split("__") {
        let zone = part.trim();
        if zone.is_empty() {
            return None;
        }
        if !zones.contains(&zone) {
            zones.push(zone);
        }
    }
    Some(zones)
}

/// `CheckNodeAffinity`: a volume without required node affinity fits every node;
/// otherwise one of its terms must match the node's labels (as `version` reads a term's
/// field requirements: [`labels::node_selector_matches_labels`]).
#[must_use]
pub fn node_affinity_allows(version: Version, volume: &PersistentVolume, node: &Node) -> bool {
    volume
        .spec
        .node_affinity
        .as_ref()
        .and_then(|affinity| affinity.required.as_ref())
        .is_none_or(|required| {
            labels::node_selector_matches_labels(required, &node.metadata.labels, version)
        })
}

/// `MatchTopologySelectorTerms`: no terms admit every node; otherwise a non-empty term
/// whose every `key In values` holds.
#[must_use]
pub fn topology_matches(terms: &[TopologySelectorTerm], node_labels: &StringMap) -> bool {
    terms.is_empty()
        || terms.iter().any(|term| {
            !term.match_label_expressions.is_empty()
                && term.match_label_expressions.iter().all(|requirement| {
                    node_labels
                        .get(&requirement.key)
                        .is_some_and(|value| requirement.values.contains(value))
                })
        })
}

/// `isVolumeConflict`: the incoming pod's directly mounted disk clashes with one of an
/// existing pod's: the same GCE PD unless both are read-only, the same EBS volume always,
/// the same iSCSI IQN unless both are read-only, an RBD image sharing a monitor, pool and
/// image unless both are read-only.
#[must_use]
pub fn disk_conflict(volume: &Volume, existing: &Pod) -> bool {
    existing.spec.volumes.iter().any(|other| {
        if let (Some(a), Some(b)) = (&volume.gce_persistent_disk, &other.gce_persistent_disk) {
            if a.pd_name == b.pd_name && !(a.read_only && b.read_only) {
                return true;
            }
        }
        if let (Some(a), Some(b)) = (
            &volume.aws_elastic_block_store,
            &other.aws_elastic_block_store,
        ) {
            if a.volume_id == b.volume_id {
                return true;
            }
        }
        if let (Some(a), Some(b)) = (&volume.iscsi, &other.iscsi) {
            if a.iqn == b.iqn && !(a.read_only && b.read_only) {
                return true;
            }
        }
        if let (Some(a), Some(b)) = (&volume.rbd, &other.rbd) {
            let shared_monitor = a
                .monitors
                .iter()
                .any(|monitor| b.monitors.contains(monitor));
            if shared_monitor
                && a.pool == b.pool
                && a.image == b.image
                && !(a.read_only && b.read_only)
            {
                return true;
            }
        }
        false
    })
}

/// True for a volume `disk_conflict` looks at (`needsRestrictionsCheck`).
#[must_use]
pub fn has_conflict_target(volume: &Volume) -> bool {
    volume.gce_persistent_disk.is_some()
        || volume.aws_elastic_block_store.is_some()
        || volume.rbd.is_some()
        || volume.iscsi.is_some()
}

/// What the scheduler assumed while it placed pods: volumes it chose for claims (their
/// `claimRef` in the PV assume cache) and claims it chose a node to provision on (their
/// `volume.kubernetes.io/selected-node` in the PVC assume cache).
#[derive(Clone, Debug, Default)]
pub struct Assumed {
    claim_refs: BTreeMap<usize, ObjectReference>,
    selected_nodes: BTreeMap<usize, String>,
    /// How many times volumes were assumed.
    changes: u64,
}

impl Assumed {
    /// A number that changes whenever volumes are assumed.
    #[must_use]
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// The claim a volume is (assumed) bound to.
    #[must_use]
    pub fn claim_ref<'s>(
        &'s self,
        index: usize,
        volume: &'s PersistentVolume,
    ) -> Option<&'s ObjectReference> {
        self.claim_refs
            .get(&index)
            .or(volume.spec.claim_ref.as_ref())
    }

    /// The node a claim is (assumed) to be provisioned on.
    #[must_use]
    pub fn selected_node<'s>(
        &'s self,
        index: usize,
        claim: &'s PersistentVolumeClaim,
    ) -> Option<&'s str> {
        self.selected_nodes
            .get(&index)
            .or_else(|| claim.metadata.annotations.get(SELECTED_NODE))
            .map(String::as_str)
    }

    /// `AssumePodVolumes`: records the bindings and provisions chosen for the node.
    pub fn assume(&mut self, storage: &Storage, node: &str, decision: &NodeVolumes) {
        self.changes = self.changes.wrapping_add(1);
        for &(volume, claim) in &decision.bindings {
            if let Some(claim) = storage.claims.get(claim) {
                self.claim_refs.insert(
                    volume,
                    ObjectReference {
                        kind: String::from("PersistentVolumeClaim"),
                        namespace: claim.metadata.namespace.clone(),
                        name: claim.metadata.name.clone(),
                        uid: claim.metadata.uid.clone(),
                    },
                );
            }
        }
        for &claim in &decision.provisions {
            self.selected_nodes.insert(claim, String::from(node));
        }
    }
}

/// `IsVolumeBoundToClaim`: the reference names the claim (and its uid, when it has one).
fn refers_to(reference: &ObjectReference, claim: &PersistentVolumeClaim) -> bool {
    reference.name == claim.metadata.name
        && reference.namespace == claim.metadata.namespace
        && (reference.uid.is_empty() || reference.uid == claim.metadata.uid)
}

/// The `storage` request of a claim (zero when absent).
fn requested(claim: &PersistentVolumeClaim) -> Quantity {
    claim
        .spec
        .resources
        .requests
        .get("storage")
        .copied()
        .unwrap_or_else(Quantity::zero)
}

/// A volume's `storage` capacity (zero when absent).
fn capacity(volume: &PersistentVolume) -> Quantity {
    volume
        .spec
        .capacity
        .get("storage")
        .copied()
        .unwrap_or_else(Quantity::zero)
}

/// True if the claim waits for its first consumer: its class exists and has
/// `WaitForFirstConsumer` (`IsDelayBindingMode`; a missing class means immediate).
#[must_use]
pub fn delays_binding(storage: &Storage, claim: &PersistentVolumeClaim) -> bool {
    let class = claim_class(claim);
    !class.is_empty()
        && storage.class(class).is_some_and(|class| {
            class.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer")
        })
}

/// The pod's claims as the volume binder sorts them (`getPodVolumes` /
/// `GetPodVolumeClaims`).
#[derive(Clone, Debug)]
pub struct PodClaims<'c> {
    version: Version,
    /// Bound claims, in volume order, with their index in [`Storage::claims`].
    bound: Vec<(usize, &'c PersistentVolumeClaim)>,
    /// Unbound claims waiting for their first consumer, in volume order.
    delayed: Vec<(usize, &'c PersistentVolumeClaim)>,
    /// True if a claim should have been bound already (immediate binding, or 1.34's
    /// claims that name a volume the PV controller has not finished binding).
    pub unbound_immediate: bool,
}

impl<'c> PodClaims<'c> {
    /// Sorts the pod's claims.
    ///
    /// # Errors
    /// A claim that is missing or (1.34) an ephemeral claim the pod does not own.
    pub fn new(version: Version, storage: &'c Storage, pod: &'c Pod) -> Result<Self, String> {
        let mut claims = Self {
            version,
            bound: Vec::new(),
            delayed: Vec::new(),
            unbound_immediate: false,
        };
        for volume in &pod.spec.volumes {
            let Some((name, ephemeral)) = claim_name(version, pod, volume) else {
                continue;
            };
            let Some((index, claim)) = storage.claim(&pod.metadata.namespace, &name) else {
                let key = alloc::format!("{}/{}", pod.metadata.namespace, name);
                let detail =
                    alloc::format!("could not find v1.PersistentVolumeClaim {}", quoted(&key));
                return Err(match version {
                    Version::Legacy => {
                        alloc::format!("error getting PVC {}: {detail}", quoted(&name))
                    }
                    Version::Current => {
                        alloc::format!("error getting PVC {}: {detail}", quoted(&key))
                    }
                });
            };
            if ephemeral {
                owned_by_pod(claim, pod)?;
            }
            let named = !claim.spec.volume_name.is_empty();
            let bound = match version {
                Version::Legacy => named,
                Version::Current => {
                    named && claim.metadata.annotations.contains_key(BIND_COMPLETED)
                }
            };
            if bound {
                claims.bound.push((index, claim));
            } else if delays_binding(storage, claim) && !named {
                claims.delayed.push((index, claim));
            } else {
                claims.unbound_immediate = true;
            }
        }
        Ok(claims)
    }

    /// True if the pod uses no claim at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bound.is_empty() && self.delayed.is_empty() && !self.unbound_immediate
    }

    /// `FindPodVolumes` on one node (the claims must not be unbound immediate ones).
    ///
    /// # Errors
    /// 1.11: a bound claim's volume is missing; 1.34: a class the binder cannot read.
    pub fn find(
        &self,
        storage: &Storage,
        assumed: &Assumed,
        node: &Node,
    ) -> Result<NodeVolumes, String> {
        let mut result = NodeVolumes {
            bound_satisfied: true,
            unbound_satisfied: true,
            enough_storage: true,
            volumes_found: true,
            bindings: Vec::new(),
            provisions: Vec::new(),
        };
        for (_, claim) in &self.bound {
            let name = claim.spec.volume_name.as_str();
            match storage.volume(name) {
                None => match self.version {
                    Version::Legacy => {
                        return Err(alloc::format!(
                            "could not find v1.PersistentVolume {}",
                            quoted(name)
                        ))
                    }
                    Version::Current => {
                        result.volumes_found = false;
                        break;
                    }
                },
                Some((_, volume)) if !node_affinity_allows(self.version, volume, node) => {
                    result.bound_satisfied = false;
                    break;
                }
                Some(_) => {}
            }
        }
        if self.delayed.is_empty() {
            return Ok(result);
        }
        let mut to_provision = Vec::new();
        let mut to_match = Vec::new();
        for &(index, claim) in &self.delayed {
            let selected = match self.version {
                Version::Legacy => None,
                Version::Current => assumed.selected_node(index, claim),
            };
            match selected {
                Some(selected) if selected != node.metadata.name => {
                    result.unbound_satisfied = false;
                    return Ok(result);
                }
                Some(_) => to_provision.push((index, claim)),
                None => to_match.push((index, claim)),
            }
        }
        // Only the claims left to match are sorted (`byPVCSize` in `findMatchingVolumes`,
        // 1.34 `binder.go`): smallest request first, equal requests in their order. Those
        // a node was selected for go to provisioning first, in volume order, and
        // `checkVolumeProvisions` stops at the first that fails.
        to_match.sort_by(|(_, a), (_, b)| requested(a).cmp_value(&requested(b)));
        let mut excluded: Vec<usize> = Vec::new();
        for (index, claim) in to_match {
            match find_matching_volume(self.version, storage, assumed, claim, node, &excluded) {
                Some(volume) => {
                    excluded.push(volume);
                    result.bindings.push((volume, index));
                }
                None => {
                    result.unbound_satisfied = false;
                    to_provision.push((index, claim));
                }
            }
        }
        if self.version == Version::Current && !to_provision.is_empty() {
            check_provisions(storage, node, &to_provision, &mut result)?;
        }
        Ok(result)
    }
}

/// What the binder found for one node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeVolumes {
    /// Every bound volume's node affinity admits the node.
    pub bound_satisfied: bool,
    /// Every delayed claim found a volume or can be provisioned here.
    pub unbound_satisfied: bool,
    /// Provisioning has the storage capacity it needs (1.34).
    pub enough_storage: bool,
    /// Every bound claim's volume exists (1.34).
    pub volumes_found: bool,
    /// Volumes chosen for delayed claims: (volume, claim) indexes.
    pub bindings: Vec<(usize, usize)>,
    /// Delayed claims to provision on the node (1.34).
    pub provisions: Vec<usize>,
}

impl NodeVolumes {
    /// 1.34's reasons, in upstream's order.
    #[must_use]
    pub fn reasons(&self) -> Vec<String> {
        let mut reasons = Vec::new();
        for (failed, reason) in [
            (!self.bound_satisfied, NODE_AFFINITY_CONFLICT),
            (!self.unbound_satisfied, BINDING_NO_MATCH),
            (!self.enough_storage, NOT_ENOUGH_SPACE),
            (!self.volumes_found, VOLUME_NOT_EXIST),
        ] {
            if failed {
                reasons.push(String::from(reason));
            }
        }
        reasons
    }
}

/// `checkVolumeProvisions` (1.34): every claim left without a volume can be provisioned
/// on the node. Replaces `unbound_satisfied`, as upstream assigns it.
fn check_provisions(
    storage: &Storage,
    node: &Node,
    claims: &[(usize, &PersistentVolumeClaim)],
    result: &mut NodeVolumes,
) -> Result<(), String> {
    let mut provisions = Vec::new();
    for &(index, claim) in claims {
        let key = alloc::format!("{}/{}", claim.metadata.namespace, claim.metadata.name);
        let class_name = claim_class(claim);
        if class_name.is_empty() {
            return Err(alloc::format!("no class for claim {}", quoted(&key)));
        }
        let Some(class) = storage.class(class_name) else {
            return Err(alloc::format!(
                "failed to find storage class {}",
                quoted(class_name)
            ));
        };
        if class.provisioner.is_empty() || class.provisioner == NO_PROVISIONER {
            result.unbound_satisfied = false;
            return Ok(());
        }
        if !topology_matches(&class.allowed_topologies, &node.metadata.labels) {
            result.unbound_satisfied = false;
            return Ok(());
        }
        if !has_enough_capacity(storage, &class.provisioner, claim, class_name, node) {
            result.unbound_satisfied = true;
            result.enough_storage = false;
            return Ok(());
        }
        provisions.push(index);
    }
    result.unbound_satisfied = true;
    result.provisions = provisions;
    Ok(())
}

/// `hasEnoughCapacity`: only drivers whose CSIDriver sets `storageCapacity` are checked;
/// a CSIStorageCapacity of the class that the node can reach must hold the request.
fn has_enough_capacity(
    storage: &Storage,
    provisioner: &str,
    claim: &PersistentVolumeClaim,
    class: &str,
    node: &Node,
) -> bool {
    let Some(size) = claim.spec.resources.requests.get("storage") else {
        return true;
    };
    let opted_in = storage
        .csi_driver(provisioner)
        .is_some_and(|driver| driver.spec.storage_capacity == Some(true));
    if !opted_in {
        return true;
    }
    storage.capacities.iter().any(|capacity| {
        let limit = capacity
            .maximum_volume_size
            .as_ref()
            .or(capacity.capacity.as_ref());
        capacity.storage_class_name == class
            // Both sides in whole bytes, rounded up (`capacitySufficient` compares
            // `Value()`s): 500m of room holds a 700m claim.
            && limit.is_some_and(|limit| limit.value() >= size.value())
            && capacity
                .node_topology
                .as_ref()
                .is_some_and(|topology| labels::selector_matches(topology, &node.metadata.labels))
    })
}

/// `findMatchingVolume`: a volume pre-bound to the claim if its node affinity admits the
/// node, else the smallest available volume of the claim's class that satisfies the
/// request, selector, access modes and node affinity. `excluded` are volumes already
/// chosen for the pod's other claims.
#[must_use]
pub fn find_matching_volume(
    version: Version,
    storage: &Storage,
    assumed: &Assumed,
    claim: &PersistentVolumeClaim,
    node: &Node,
    excluded: &[usize],
) -> Option<usize> {
    let request = requested(claim);
    let class = claim_class(claim);
    let mut smallest: Option<(usize, Quantity)> = None;
    // The binder lists the volumes its assume cache indexes under the claim's class
    // (`ListPVs`): 1.34 on both sides by the class the beta annotation overrides; 1.11 by
    // the bare `storageClassName` fields (`findMatchingVolumes` in scheduler_binder.go,
    // `pvStorageClassIndexFunc` in scheduler_assume_cache.go), an unset claim field being
    // "". So a 1.11 claim whose class comes from the annotation only looks among volumes
    // without a `storageClassName`, and never sees a volume pre-bound to it in another.
    let listed = match version {
        Version::Current => class,
        Version::Legacy => claim.spec.storage_class_name.as_deref().unwrap_or(""),
    };
    for (index, volume) in storage.volumes.iter().enumerate() {
        let indexed = match version {
            Version::Current => volume_class(volume),
            Version::Legacy => volume.spec.storage_class_name.as_str(),
        };
        if indexed != listed || excluded.contains(&index) {
            continue;
        }
        let reference = assumed.claim_ref(index, volume);
        let bound_to_claim = reference.is_some_and(|reference| refers_to(reference, claim));
        let size = capacity(volume);
        if version == Version::Current {
            if reference.is_some() && !bound_to_claim {
                continue;
            }
            if size.cmp_value(&request).is_lt()
                || volume_mode(volume.spec.volume_mode.as_deref())
                    != volume_mode(claim.spec.volume_mode.as_deref())
                || attributes_class(volume.spec.volume_attributes_class_name.as_deref())
                    != attributes_class(claim.spec.volume_attributes_class_name.as_deref())
            {
                continue;
            }
        }
        if volume.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let affinity_allows = node_affinity_allows(version, volume, node);
        if bound_to_claim {
            // Pre-bound: the answer whatever else is available (1.11 first skips it when
            // too small; 1.34 already did).
            if size.cmp_value(&request).is_lt() {
                continue;
            }
            return affinity_allows.then_some(index);
        }
        if reference.is_some()
            || (version == Version::Current && volume.status.phase != "Available")
        {
            continue;
        }
        let selected = claim
            .spec
            .selector
            .as_ref()
            .is_none_or(|selector| labels::selector_matches(selector, &volume.metadata.labels));
        let modes = claim
            .spec
            .access_modes
            .iter()
            .all(|mode| volume.spec.access_modes.contains(mode));
        if !selected
            || volume_class(volume) != class
            || !affinity_allows
            || !modes
            || size.cmp_value(&request).is_lt()
        {
            continue;
        }
        if smallest
            .as_ref()
            .is_none_or(|(_, best)| best.cmp_value(&size).is_gt())
        {
            smallest = Some((index, size));
        }
    }
    smallest.map(|(index, _)| index)
}

/// An unset volume mode is `Filesystem` (`CheckVolumeModeMismatches`).
fn volume_mode(mode: Option<&str>) -> &str {
    mode.unwrap_or("Filesystem")
}

/// An unset VolumeAttributesClass is the empty name.
fn attributes_class(name: Option<&str>) -> &str {
    name.unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zone_sets_split_on_double_underscores() {
        assert_eq!(label_zones("us-east-1a"), Some(alloc::vec!["us-east-1a"]));
        assert_eq!(
            label_zones("us-east-1a__ us-east-1b"),
            Some(alloc::vec!["us-east-1a", "us-east-1b"])
        );
        assert_eq!(label_zones(""), None);
        assert_eq!(label_zones("a____b"), None);
    }

    #[test]
    fn lister_errors_read_like_go() {
        assert_eq!(
            not_found("persistentvolumeclaim", "data"),
            "persistentvolumeclaim \"data\" not found"
        );
    }
}
