//! What deleting a pod reads of it, worked out once per pod when the cluster is built.
//!
//! A NoExecute taint on a few hundred nodes deletes tens of thousands of pods at once
//! (`eviction`). Their pods lie scattered through memory and have long left the cache:
//! reading each one's tolerations, owners and names cost more than deciding. A
//! [`Deletion`] sits in the pod's entry; the toleration lists it points to are shared by
//! every pod with the same list (a cluster has a handful), so they stay in the cache.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use crate::digest;
use crate::model::{OwnerReference, Pod, Toleration};
use crate::owners::{self, COMPLETION_INDEX};

/// What the taint eviction controller and a pod's controller read when the pod goes, and
/// what the descheduler reads to decide whether and why it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deletion {
    /// `spec.tolerations` after admission, shared by the pods with the same list.
    pub tolerations: Arc<[Toleration]>,
    /// The kind of the managing controller.
    pub controller: Option<Controller>,
    /// `spec.terminationGracePeriodSeconds`.
    pub grace_seconds: Option<i64>,
    /// The input shows the pod being deleted (`metadata.deletionTimestamp`): its
    /// controller no longer counts it, and a new deletion only shortens the one under way.
    pub being_deleted: bool,
    /// `namespace/generateName` of the pod's replacements, shared by the pods of one
    /// owner: `<controller>-` for a ReplicaSet's, ReplicationController's, Job's or
    /// DaemonSet's pod,
    /// the pod's own generateName otherwise; `None` when the controller names them
    /// otherwise (a StatefulSet, a pod without generateName and without such an owner).
    pub generated_base: Option<Arc<str>>,
    /// The digest of the pod's name that seeds its replacements' generated suffixes.
    pub name_seed: u64,
    /// The OpenShift 3.11 descheduler may evict the pod (`IsEvictable`: not a mirror pod,
    /// no local storage, an owner that is not a DaemonSet, not critical). Its listing
    /// pass reads this for 150 000 pods whose annotations, volumes and owners lie
    /// elsewhere in memory.
    pub descheduler_may_evict: bool,
    /// Finalizers keep the pod's object after its grace period: any but the Job
    /// controller's tracking finalizer and the garbage collector's `orphan` and
    /// `foregroundDeletion`. Read when a deleted pod goes, without going to its metadata.
    pub held_by_finalizers: bool,
    /// The pod has a required node affinity: what the descheduler's
    /// RemovePodsViolatingNodeAffinity looks for, read for 150 000 pods without going to
    /// their specs.
    pub required_node_affinity: bool,
    /// The keys of the pod's owners, in the order of its owner references, shared by the
    /// pods with the same owners: what the descheduler's RemoveDuplicates groups by, read
    /// for 150 000 pods without going to their metadata.
    pub owner_keys: Arc<[OwnerKey]>,
}

/// An owner's key `Kind/name` (no namespace, as the OpenShift 3.11 descheduler words it),
/// with the key's FNV-1a digest to tell most different keys apart without reading them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerKey {
    /// The digest of `key`.
    pub digest: u64,
    /// `Kind/name`.
    pub key: Arc<str>,
}

impl OwnerKey {
    /// True if both are the same key (one shared string, or equal ones).
    #[must_use]
    pub fn same(&self, other: &Self) -> bool {
        self.digest == other.digest && (Arc::ptr_eq(&self.key, &other.key) || self.key == other.key)
    }
}

/// The managing controller, as far as deleting its pod goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controller {
    /// Its pods stay on their node; a drain leaves them.
    DaemonSet,
    /// Recreates a pod under its name once it is gone.
    StatefulSet,
    /// Any other: creates a replacement at once.
    Other,
}

impl Controller {
    fn of(pod: &Pod) -> Option<Self> {
        pod.metadata
            .controller()
            .map(|owner| match owner.kind.as_str() {
                "DaemonSet" => Self::DaemonSet,
                "StatefulSet" => Self::StatefulSet,
                _ => Self::Other,
            })
    }
}

/// Makes each pod's key and [`Deletion`], sharing toleration lists, generated-name bases
/// and owner key lists between pods, and allocating nothing it throws away: the scattered leftovers
/// of 150 000 pods would scatter later allocations after them.
#[derive(Default)]
pub struct Sharing {
    tolerations: Distinct<[Toleration]>,
    /// `namespace/generateName`s.
    bases: Distinct<str>,
    /// Owner key lists.
    owners: Distinct<[OwnerKey]>,
    scratch: String,
    /// The generateName being worked out.
    generate_name: String,
}

impl Sharing {
    /// The pod's `namespace/name`.
    pub fn key(&mut self, pod: &Pod) -> Arc<str> {
        Arc::from(joined(&mut self.scratch, &pod.metadata.name_parts()))
    }

    /// The pod's [`Deletion`].
    pub fn deletion(&mut self, pod: &Pod) -> Deletion {
        let metadata = &pod.metadata;
        replacement_generate_name(pod, &mut self.generate_name);
        let generated_base = (!self.generate_name.is_empty()).then(|| {
            let base = joined(
                &mut self.scratch,
                &[&metadata.namespace, "/", &self.generate_name],
            );
            self.bases.share(
                |shared| shared == base,
                || digest::fnv1a(digest::EMPTY, base.as_bytes()),
                || Arc::from(base),
            )
        });
        let list = pod.spec.tolerations.as_slice();
        let tolerations = self.tolerations.share(
            |shared| shared == list,
            || {
                list.iter().fold(digest::EMPTY, |sum, toleration| {
                    let seconds = toleration.toleration_seconds.unwrap_or(i64::MIN);
                    [&toleration.key, &toleration.value, &toleration.effect]
                        .into_iter()
                        .fold(digest::fnv1a(sum, &seconds.to_le_bytes()), |sum, text| {
                            digest::fnv1a(digest::fnv1a(sum, text.as_bytes()), &[0])
                        })
                })
            },
            || Arc::from(list),
        );
        let owner_keys = self.owner_keys(pod);
        Deletion {
            tolerations,
            controller: Controller::of(pod),
            grace_seconds: pod.spec.termination_grace_period_seconds,
            being_deleted: metadata.deletion_timestamp.is_some(),
            generated_base,
            name_seed: owners::seed_digest(&metadata.name),
            descheduler_may_evict: crate::descheduler::evictable::is_evictable(pod),
            required_node_affinity: pod.spec.required_node_affinity().is_some(),
            held_by_finalizers: held_by_finalizers(&metadata.finalizers),
            owner_keys,
        }
    }

    /// The pod's [`OwnerKey`]s: the list of the last pod with the same owners, or a new
    /// one (the keys are compared part by part, so nothing is built to look one up).
    fn owner_keys(&mut self, pod: &Pod) -> Arc<[OwnerKey]> {
        let owners = pod.metadata.owner_references.as_slice();
        let is = |shared: &[OwnerKey]| {
            shared.len() == owners.len()
                && shared.iter().zip(owners).all(|(shared, owner)| {
                    let parts = key_parts(owner);
                    shared.key.len() == parts.iter().map(|part| part.len()).sum::<usize>()
                        && parts
                            .iter()
                            .copied()
                            .flatten()
                            .eq(shared.key.as_bytes().iter())
                })
        };
        let digest = |owner: &OwnerReference| {
            key_parts(owner)
                .into_iter()
                .fold(digest::EMPTY, digest::fnv1a)
        };
        let scratch = &mut self.scratch;
        self.owners.share(
            is,
            || {
                owners.iter().fold(digest::EMPTY, |sum, owner| {
                    digest::fnv1a(sum, &digest(owner).to_le_bytes())
                })
            },
            || {
                owners
                    .iter()
                    .map(|owner| OwnerKey {
                        digest: digest(owner),
                        key: Arc::from(joined(scratch, &[&owner.kind, "/", &owner.name])),
                    })
                    .collect()
            },
        )
    }
}

/// `names.MaxGeneratedNameLength`: the API server keeps this much of a generateName
/// before its five random characters (`SimpleNameGenerator` in apiserver's
/// `pkg/storage/names/generate.go`).
const MAX_GENERATED_NAME_LENGTH: usize = 58;

/// Writes into `out` the generateName under which the pod's controller creates the pods
/// that replace it, as the API server keeps it; empty when there is none. A ReplicaSet,
/// ReplicationController, Job or DaemonSet names its pods `<controller>-`, or `<controller>` if that
/// is not a valid name prefix (`getPodsPrefix` in `pkg/controller/controller_utils.go`),
/// whatever the pod's own name; an Indexed Job's pod, `<job>-<index>-` with the job's
/// name cut so that it fits (`podGenerateNameWithIndex` in
/// `pkg/controller/job/indexed_job_utils.go`). Other pods are recreated under their own
/// generateName (a StatefulSet's under their name, which the caller keeps).
fn replacement_generate_name(pod: &Pod, out: &mut String) {
    out.clear();
    let metadata = &pod.metadata;
    let controller = metadata.controller().filter(|owner| {
        matches!(
            owner.kind.as_str(),
            "ReplicaSet" | "ReplicationController" | "Job" | "DaemonSet"
        )
    });
    let Some(owner) = controller else {
        out.push_str(&metadata.generate_name);
        truncate(out, MAX_GENERATED_NAME_LENGTH);
        return;
    };
    // `getCompletionIndex`: a non-negative integer, anything else is no index.
    let index = metadata
        .annotations
        .get(COMPLETION_INDEX)
        .filter(|_| owner.kind == "Job")
        .and_then(|text| text.parse::<i64>().ok())
        .filter(|index| *index >= 0);
    out.push_str(&owner.name);
    match index {
        Some(index) => {
            let tail = alloc::format!("-{index}-");
            if out.len().saturating_add(tail.len()) > MAX_GENERATED_NAME_LENGTH {
                truncate(out, MAX_GENERATED_NAME_LENGTH.saturating_sub(tail.len()));
            }
            out.push_str(&tail);
        }
        None => {
            // `ValidatePodName(prefix, true)` reads a trailing dash as a letter.
            out.push('a');
            let valid = crate::validation::names::dns1123_subdomain(out).is_empty();
            out.pop();
            if valid {
                out.push('-');
            }
        }
    }
    truncate(out, MAX_GENERATED_NAME_LENGTH);
}

/// Cuts `text` to at most `bytes` bytes (on a character boundary: valid names are ASCII).
fn truncate(text: &mut String, bytes: usize) {
    if text.len() > bytes {
        let mut end = bytes;
        while !text.is_char_boundary(end) {
            end = end.saturating_sub(1);
        }
        text.truncate(end);
    }
}

/// The bytes of an owner's key `Kind/name`, part by part (FNV-1a runs byte after byte,
/// so the parts carry it on in turn).
fn key_parts(owner: &OwnerReference) -> [&[u8]; 3] {
    [owner.kind.as_bytes(), b"/", owner.name.as_bytes()]
}

/// `pieces` in one string, worded in `scratch`.
fn joined<'s>(scratch: &'s mut String, pieces: &[&str]) -> &'s str {
    scratch.clear();
    for piece in pieces {
        scratch.push_str(piece);
    }
    scratch
}

/// One shared copy of each distinct value, found by a digest; the last one shared is
/// tried first (a dump lists a ReplicaSet's pods one after another).
struct Distinct<T: ?Sized> {
    by_digest: BTreeMap<u64, Vec<Arc<T>>>,
    last: Option<Arc<T>>,
}

impl<T: ?Sized> Default for Distinct<T> {
    fn default() -> Self {
        Self {
            by_digest: BTreeMap::new(),
            last: None,
        }
    }
}

impl<T: ?Sized> Distinct<T> {
    /// The shared copy that `is` picks, or a new one from `make`.
    fn share(
        &mut self,
        is: impl Fn(&T) -> bool,
        digest: impl FnOnce() -> u64,
        make: impl FnOnce() -> Arc<T>,
    ) -> Arc<T> {
        if let Some(last) = self.last.as_ref().filter(|last| is(last)) {
            return Arc::clone(last);
        }
        let same = self.by_digest.entry(digest()).or_default();
        let shared = match same.iter().find(|shared| is(shared)) {
            Some(shared) => Arc::clone(shared),
            None => {
                let made = make();
                same.push(Arc::clone(&made));
                made
            }
        };
        self.last = Some(Arc::clone(&shared));
        shared
    }
}

/// True if `finalizers` keep a deleted pod's object after its grace period: the API
/// server removes it only once they are all gone (`updateForGracefulDeletionAndFinalizers`
/// and `shouldDeleteDuringUpdate` in
/// `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`), whatever the
/// grace period. Taken as removed at once: the Job controller's tracking finalizer (it
/// removes it once it counted the pod, `trackJobStatusAndRemoveFinalizers` in
/// `pkg/controller/job/job_controller.go`) and the garbage collector's `orphan` and
/// `foregroundDeletion` (about a pod's dependents, which pods do not have). Any other
/// belongs to a controller kubefit does not model, and keeps the pod.
fn held_by_finalizers(finalizers: &[String]) -> bool {
    finalizers.iter().any(|finalizer| {
        !matches!(
            finalizer.as_str(),
            crate::owners::JOB_TRACKING | "orphan" | "foregroundDeletion"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::OwnerReference;

    fn replica(name: &str) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.namespace = "shop".into();
        pod.metadata.name = name.into();
        pod.metadata.generate_name = "web-7d9f-".into();
        pod.metadata.owner_references.push(OwnerReference {
            kind: "ReplicaSet".into(),
            name: "web-7d9f".into(),
            controller: Some(true),
            ..OwnerReference::default()
        });
        pod.spec.termination_grace_period_seconds = Some(10);
        pod.spec.tolerations.push(Toleration {
            key: "node.kubernetes.io/not-ready".into(),
            operator: "Exists".into(),
            effect: "NoExecute".into(),
            toleration_seconds: Some(300),
            ..Toleration::default()
        });
        pod
    }

    #[test]
    fn siblings_share_their_lists_and_base() {
        let mut sharing = Sharing::default();
        let first = replica("web-7d9f-abcde");
        assert_eq!(&*sharing.key(&first), "shop/web-7d9f-abcde");
        let a = sharing.deletion(&first);
        assert_eq!(a.generated_base.as_deref(), Some("shop/web-7d9f-"));
        assert_eq!(a.controller, Some(Controller::Other));
        assert_eq!(a.grace_seconds, Some(10));
        assert_eq!(*a.tolerations, *first.spec.tolerations);
        let b = sharing.deletion(&replica("web-7d9f-fghij"));
        assert!(Arc::ptr_eq(&a.tolerations, &b.tolerations));
        assert!(Arc::ptr_eq(
            a.generated_base.as_ref().unwrap(),
            b.generated_base.as_ref().unwrap()
        ));
        let mut tolerant = replica("web-7d9f-klmno");
        tolerant.spec.tolerations[0].toleration_seconds = Some(60);
        let c = sharing.deletion(&tolerant);
        assert!(!Arc::ptr_eq(&a.tolerations, &c.tolerations));
        assert_eq!(c.tolerations[0].toleration_seconds, Some(60));
        // Back to the first list, which is no longer the last one shared.
        let d = sharing.deletion(&replica("web-7d9f-uvwxy"));
        assert!(Arc::ptr_eq(&a.tolerations, &d.tolerations));
    }

    #[test]
    fn owner_keys_are_shared_and_compared_as_joined_strings() {
        let mut sharing = Sharing::default();
        let a = sharing.deletion(&replica("web-7d9f-abcde"));
        assert_eq!(a.owner_keys.len(), 1);
        assert_eq!(&*a.owner_keys[0].key, "ReplicaSet/web-7d9f");
        let b = sharing.deletion(&replica("web-7d9f-fghij"));
        assert!(Arc::ptr_eq(&a.owner_keys, &b.owner_keys));
        // Two owners, in reference order; then the first list again, found by digest.
        let mut two = replica("both");
        two.metadata.owner_references.push(OwnerReference {
            kind: "Job".into(),
            name: "nightly".into(),
            ..OwnerReference::default()
        });
        let c = sharing.deletion(&two);
        let keys: Vec<&str> = c.owner_keys.iter().map(|owner| &*owner.key).collect();
        assert_eq!(keys, ["ReplicaSet/web-7d9f", "Job/nightly"]);
        assert!(c.owner_keys[0].same(&a.owner_keys[0]));
        assert!(!c.owner_keys[1].same(&a.owner_keys[0]));
        let d = sharing.deletion(&replica("web-7d9f-klmno"));
        assert!(Arc::ptr_eq(&a.owner_keys, &d.owner_keys));
        // Upstream's map key is the joined string: `A/b` + `c` and `A` + `b/c` are one
        // owner, one key.
        let mut slash = Pod::default();
        slash.metadata.owner_references.push(OwnerReference {
            kind: "A/b".into(),
            name: "c".into(),
            ..OwnerReference::default()
        });
        let e = sharing.deletion(&slash);
        slash.metadata.owner_references[0].kind = "A".into();
        slash.metadata.owner_references[0].name = "b/c".into();
        let f = sharing.deletion(&slash);
        assert!(Arc::ptr_eq(&e.owner_keys, &f.owner_keys));
        assert_eq!(&*f.owner_keys[0].key, "A/b/c");
        assert!(Sharing::default()
            .deletion(&Pod::default())
            .owner_keys
            .is_empty());
    }

    /// `getPodsPrefix`: the controller's name and a dash, whatever the pod's own name or
    /// generateName; an Indexed Job's pods add their index; the API server keeps 58
    /// bytes of it.
    #[test]
    fn replacements_are_named_after_their_controller() {
        let base = |pod: &Pod| Sharing::default().deletion(pod).generated_base;
        let mut pod = replica("hand-made");
        pod.metadata.generate_name = String::new();
        assert_eq!(base(&pod).as_deref(), Some("shop/web-7d9f-"));
        pod.metadata.generate_name = "other-".into();
        assert_eq!(base(&pod).as_deref(), Some("shop/web-7d9f-"));
        pod.metadata.owner_references[0].kind = "Job".into();
        pod.metadata.owner_references[0].name = "nightly".into();
        assert_eq!(base(&pod).as_deref(), Some("shop/nightly-"));
        pod.metadata
            .annotations
            .insert(COMPLETION_INDEX.into(), "+3".into());
        assert_eq!(base(&pod).as_deref(), Some("shop/nightly-3-"));
        let long = "j".repeat(60);
        pod.metadata.owner_references[0].name.clone_from(&long);
        let expected = alloc::format!("shop/{}-3-", &long[..55]);
        assert_eq!(base(&pod).as_deref(), Some(expected.as_str()));
        pod.metadata
            .annotations
            .insert(COMPLETION_INDEX.into(), "-1".into());
        let expected = alloc::format!("shop/{}", &long[..58]);
        assert_eq!(base(&pod).as_deref(), Some(expected.as_str()));
        // A name of 253 bytes is no prefix with a dash: the name alone, cut to 58.
        pod.metadata.owner_references[0].name = "r".repeat(253);
        pod.metadata.owner_references[0].kind = "ReplicationController".into();
        let expected = alloc::format!("shop/{}", "r".repeat(58));
        assert_eq!(base(&pod).as_deref(), Some(expected.as_str()));
        // A StatefulSet's pod keeps its own generateName (its name is what counts).
        pod.metadata.owner_references[0].kind = "StatefulSet".into();
        assert_eq!(base(&pod).as_deref(), Some("shop/other-"));
    }

    #[test]
    fn a_bare_pod_has_no_base_and_no_controller() {
        let mut pod = Pod::default();
        pod.metadata.name = "solo".into();
        let deletion = Sharing::default().deletion(&pod);
        assert_eq!(deletion.generated_base, None);
        assert_eq!(deletion.controller, None);
        assert!(deletion.tolerations.is_empty());
    }

    #[test]
    fn controllers_are_told_apart_by_kind() {
        let mut pod = replica("web-0");
        for (kind, controller) in [
            ("DaemonSet", Controller::DaemonSet),
            ("StatefulSet", Controller::StatefulSet),
            ("Job", Controller::Other),
        ] {
            pod.metadata.owner_references[0].kind = kind.into();
            assert_eq!(Controller::of(&pod), Some(controller));
        }
        pod.metadata.owner_references[0].controller = None;
        assert_eq!(Controller::of(&pod), None);
    }
}
