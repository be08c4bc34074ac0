//! NoVolumeZoneConflict: a pod's bound PersistentVolumes must be in the node's zone.
//!
//! Follows 1.11 `VolumeZoneChecker` in `predicates.go`, which reads only volumes reached
//! through claims. kubefit does not model PersistentVolumes or claims yet, so no volume
//! has a zone and every node passes; a pod without volumes passes upstream too.

use crate::model::Pod;
use crate::schedule::status::Status;

/// `ErrVolumeZoneConflict`.
pub const REASON: &str = "node(s) had no available volume zone";

/// The predicate.
#[must_use]
pub fn predicate(_pod: &Pod) -> Status {
    Status::success()
}
