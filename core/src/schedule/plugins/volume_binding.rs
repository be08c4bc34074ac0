//! VolumeBinding: bound claims' volumes must allow the node, and unbound claims that wait
//! for their first consumer must find or be able to provision a volume there.
//!
//! Follows `pkg/scheduler/framework/plugins/volumebinding/volume_binding.go` and
//! `binder.go`, through [`crate::schedule::volumes`]:
//! - PreFilter skips pods without claims (generic ephemeral volumes read the claim
//!   `<pod>-<volume>`). It rejects the pod everywhere, `UnschedulableAndUnresolvable`,
//!   when a claim is missing (`persistentvolumeclaim "data" not found`, or for an
//!   ephemeral volume `waiting for ephemeral volume controller to create the
//!   persistentvolumeclaim "web-0-scratch"`), is `Lost`, is being deleted, is an
//!   ephemeral claim the pod does not own, or should already be bound: its class binds
//!   immediately, or it names a volume but lacks `pv.kubernetes.io/bind-completed`
//!   (`pod has unbound immediate PersistentVolumeClaims`);
//! - Filter, `UnschedulableAndUnresolvable` with every reason that applies, in this order:
//!   a bound volume's node affinity excludes the node (`node(s) didn't match
//!   PersistentVolume's node affinity`, the wording of kubernetes#129887), a delayed claim
//!   finds no volume and cannot be provisioned (`node(s) didn't find available persistent
//!   volumes to bind`), a CSIStorageCapacity is too small (`node(s) did not have enough
//!   free storage`), a bound claim's volume is missing (`node(s) unavailable due to one or
//!   more pvc(s) bound to non-existent pv(s)`);
//! - Reserve: the chosen volumes are taken and the claims to provision get the node, so
//!   later pods see them (upstream's assume caches);
//! - Score: only with the `StorageCapacityScoring` gate, alpha and off in 1.34, so the
//!   plugin never scores.
//!
//! Example: a claim of a `WaitForFirstConsumer` class with `provisioner:
//! kubernetes.io/no-provisioner` and one local volume whose node affinity names `node-1`
//! fits only `node-1`; once the pod is placed, a second such pod finds no volume.

use alloc::string::String;

use crate::cluster::storage::Storage;
use crate::model::{Node, Pod};
use crate::schedule::snapshot::Snapshot;
use crate::schedule::status::{Code, Status};
use crate::schedule::volumes::{self, quoted, PodClaims};
use crate::schedule::Version;

/// The plugin name.
pub const NAME: &str = "VolumeBinding";

/// The PreFilter rejection for claims that should have been bound already.
pub const UNBOUND_IMMEDIATE: &str = "pod has unbound immediate PersistentVolumeClaims";

/// The pod's claims, sorted by PreFilter for the Filter.
#[derive(Clone, Debug)]
pub struct PreFilterState<'a> {
    claims: PodClaims<'a>,
}

/// PreFilter: `Ok(None)` when the pod has no claim (Skip).
///
/// # Errors
/// The rejection (or, with code `Error`, the failure) of the pod.
pub fn pre_filter<'a>(
    storage: &'a Storage,
    pod: &'a Pod,
) -> Result<Option<PreFilterState<'a>>, Status> {
    // `podHasPVCs`.
    let mut has_claims = false;
    for volume in &pod.spec.volumes {
        let Some((name, ephemeral)) = volumes::claim_name(Version::Current, pod, volume) else {
            continue;
        };
        has_claims = true;
        let Some((_, claim)) = storage.claim(&pod.metadata.namespace, &name) else {
            return Err(Status::unresolvable(if ephemeral {
                alloc::format!(
                    "waiting for ephemeral volume controller to create the persistentvolumeclaim {}",
                    quoted(&name)
                )
            } else {
                volumes::not_found("persistentvolumeclaim", &name)
            }));
        };
        if claim.status.phase == "Lost" {
            return Err(Status::unresolvable(alloc::format!(
                "persistentvolumeclaim {} bound to non-existent persistentvolume {}",
                quoted(&claim.metadata.name),
                quoted(&claim.spec.volume_name)
            )));
        }
        if claim.metadata.deletion_timestamp.is_some() {
            return Err(Status::unresolvable(alloc::format!(
                "persistentvolumeclaim {} is being deleted",
                quoted(&claim.metadata.name)
            )));
        }
        if ephemeral {
            volumes::owned_by_pod(claim, pod).map_err(Status::unresolvable)?;
        }
    }
    if !has_claims {
        return Ok(None);
    }
    let claims = PodClaims::new(Version::Current, storage, pod).map_err(Status::error)?;
    if claims.unbound_immediate {
        return Err(Status::unresolvable(UNBOUND_IMMEDIATE));
    }
    Ok(Some(PreFilterState { claims }))
}

impl PreFilterState<'_> {
    /// Filter.
    #[must_use]
    pub fn filter(&self, snapshot: &Snapshot<'_>, node: &Node) -> Status {
        match self
            .claims
            .find(&snapshot.cluster.storage, &snapshot.volumes, node)
        {
            Err(error) => Status::error(error),
            Ok(found) => {
                let reasons = found.reasons();
                if reasons.is_empty() {
                    Status::success()
                } else {
                    Status {
                        code: Code::UnschedulableAndUnresolvable,
                        reasons,
                    }
                }
            }
        }
    }

    /// Reserve: assumes the volumes and provisions chosen for the node.
    pub fn reserve(&self, snapshot: &mut Snapshot<'_>, node: usize) {
        let Some(info) = snapshot.nodes.get(node) else {
            return;
        };
        let storage = &snapshot.cluster.storage;
        if let Ok(found) = self.claims.find(storage, &snapshot.volumes, info.node) {
            let name: String = info.name().into();
            snapshot.volumes.assume(storage, &name, &found);
        }
    }
}

#[cfg(test)]
mod tests;
