//! Which pods the descheduler may evict (`IsEvictable`).
//!
//! Upstream: `pkg/descheduler/pod/pods.go` of `openshift/descheduler` `v3.11.0`
//! (`kubernetes-incubator/descheduler` `v0.5.0`). A pod is protected when any of these
//! holds, checked in this order:
//! - it is a mirror pod (annotation `kubernetes.io/config.mirror` present);
//! - it has local storage: any `hostPath` or `emptyDir` volume, memory-backed included;
//! - it has no owner reference at all;
//! - one of its owner references is a `DaemonSet`;
//! - it is critical: annotation `scheduler.alpha.kubernetes.io/critical-pod` with the
//!   empty value, in `kube-system` or (OpenShift's change) any `openshift-*` namespace.
//!
//! Example: a `default/web-1` pod owned by `ReplicaSet/web` with a `configMap` volume is
//! evictable; the same pod with an `emptyDir` volume is not.
//!
//! Differences from the OpenShift 3.11 documentation, which the code wins over:
//! - "not associated with a Replica Set, Replication Controller, Deployment or Job" is
//!   really "has no owner reference": pods owned by a StatefulSet, or by any other kind,
//!   are evictable;
//! - the critical annotation counts only with the empty value and only in `kube-system`
//!   or an `openshift-*` namespace (the documentation's own job example sets it to
//!   `"true"`, which does not count); pod priority plays no part;
//! - disruption budgets are not checked here: the eviction API enforces them on each
//!   request, and a refusal only leaves that pod.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::Pod;

/// The mirror pod annotation (`kubernetes.io/config.mirror`).
const MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";

/// The critical pod annotation (`scheduler.alpha.kubernetes.io/critical-pod`).
pub(super) const CRITICAL_ANNOTATION: &str = "scheduler.alpha.kubernetes.io/critical-pod";

/// A rule that keeps a pod from being evicted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Protection {
    /// A mirror pod of a static pod.
    Mirror,
    /// A `hostPath` or `emptyDir` volume.
    LocalStorage,
    /// No owner reference.
    NoOwner,
    /// Owned by a DaemonSet.
    DaemonSet,
    /// The critical pod annotation.
    Critical,
}

impl Protection {
    /// The reason as the report gives it.
    pub(super) const fn as_str(self) -> &'static str {
        match self {
            Self::Mirror => "mirror pod",
            Self::LocalStorage => "pod with local storage (a `hostPath` or `emptyDir` volume)",
            Self::NoOwner => "pod without owner references (it would not be recreated)",
            Self::DaemonSet => "daemonset pod",
            Self::Critical => "critical pod (`scheduler.alpha.kubernetes.io/critical-pod`)",
        }
    }
}

/// Every rule that protects the pod, in upstream's order; empty when it is evictable.
pub(super) fn protections(pod: &Pod) -> Vec<Protection> {
    let mut found = Vec::new();
    if pod.metadata.annotations.contains_key(MIRROR_ANNOTATION) {
        found.push(Protection::Mirror);
    }
    if pod
        .spec
        .volumes
        .iter()
        .any(|volume| volume.host_path.is_some() || volume.empty_dir.is_some())
    {
        found.push(Protection::LocalStorage);
    }
    if pod.metadata.owner_references.is_empty() {
        found.push(Protection::NoOwner);
    }
    if pod
        .metadata
        .owner_references
        .iter()
        .any(|owner| owner.kind == "DaemonSet")
    {
        found.push(Protection::DaemonSet);
    }
    if is_critical(pod) {
        found.push(Protection::Critical);
    }
    found
}

/// True when no rule protects the pod (`IsEvictable`). The cluster works it out for each
/// pod's entry ([`crate::cluster::Deletion::descheduler_may_evict`]).
pub(crate) fn is_evictable(pod: &Pod) -> bool {
    protections(pod).is_empty()
}

/// `IsCritical` as OpenShift's fork has it: the annotation with the empty value, in
/// `kube-system` or an `openshift-*` namespace. Upstream calls 1.9's kubelet rule, which
/// allows `kube-system` only; OpenShift's `pods.go` carries its own copy that also allows
/// `openshift-*` (as `openshift/origin` pull 19104 did for the kubelet in 3.10).
///
/// The annotation is looked at first: the mirror check has just read the annotations,
/// while the namespace's text would be one more read from memory for nearly every pod.
pub(super) fn is_critical(pod: &Pod) -> bool {
    let namespace = || pod.metadata.namespace.as_str();
    pod.metadata
        .annotations
        .get(CRITICAL_ANNOTATION)
        .is_some_and(String::is_empty)
        && (namespace() == "kube-system" || namespace().starts_with("openshift-"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::PodState;
    use crate::descheduler::pods::testing::{
        build_pod, critical, daemon_set_owner, mirror, normal_owner, replica_set_owner,
        with_local_storage,
    };

    /// `TestPodTypes` (`pkg/descheduler/pod/pods_test.go`): each kind of protected pod,
    /// and a normal ReplicaSet pod.
    #[test]
    fn pod_types() {
        let normal = replica_set_owner(build_pod("p1", 400, 0, "node1"));
        let daemon = daemon_set_owner(build_pod("p2", 400, 0, "node1"));
        let local = with_local_storage(normal_owner(build_pod("p3", 400, 0, "node1")));
        let mirrored = mirror(build_pod("p4", 400, 0, "node1"));
        let mut crit = critical(build_pod("p5", 400, 0, "node1"));
        crit.metadata.namespace = "kube-system".into();
        assert_eq!(protections(&mirrored).first(), Some(&Protection::Mirror));
        assert!(is_critical(&crit));
        assert_eq!(protections(&local), [Protection::LocalStorage]);
        assert_eq!(protections(&daemon), [Protection::DaemonSet]);
        assert!(protections(&normal).is_empty());
        // Each pod's entry carries the verdict the listing pass reads.
        let may_evict = |pod: &Pod| {
            let entry = crate::cluster::PodEntry::new(pod.clone(), PodState::Bound, 0);
            entry.deletion.descheduler_may_evict
        };
        assert!(may_evict(&normal));
        for protected in [&daemon, &local, &mirrored, &crit] {
            assert!(!may_evict(protected), "{}", protected.metadata.name);
        }
    }

    /// The cases of `controllers-semantics.md` §8.2 `ds08-evictable`, which hold for
    /// `v3.11.0` too.
    #[test]
    fn reference_cases() {
        let bare = build_pod("bare", 100, 0, "n1");
        assert_eq!(protections(&bare), [Protection::NoOwner]);
        let daemon = daemon_set_owner(build_pod("ds", 100, 0, "n1"));
        assert_eq!(protections(&daemon), [Protection::DaemonSet]);
        let mut memory_dir = replica_set_owner(build_pod("mem", 100, 0, "n1"));
        let volume = serde_json::json!({"name": "scratch", "emptyDir": {"medium": "Memory"}});
        if let Ok(volume) = serde_json::from_value(volume) {
            memory_dir.spec.volumes.push(volume);
        }
        assert_eq!(protections(&memory_dir), [Protection::LocalStorage]);
        let mut system = critical(replica_set_owner(build_pod("dns", 100, 0, "n1")));
        system.metadata.namespace = "kube-system".into();
        assert_eq!(protections(&system), [Protection::Critical]);
        // Priority is not consulted.
        let mut high = replica_set_owner(build_pod("high", 100, 0, "n1"));
        high.spec.priority_class_name = "system-cluster-critical".into();
        high.spec.priority = Some(2_000_000_000);
        assert!(protections(&high).is_empty());
    }

    #[test]
    fn critical_needs_the_empty_value_and_a_system_namespace() {
        let mut pod = critical(replica_set_owner(build_pod("p", 100, 0, "n1")));
        assert!(!is_critical(&pod), "`default` is not a system namespace");
        pod.metadata.namespace = "openshift-monitoring".into();
        assert!(is_critical(&pod), "OpenShift allows `openshift-*`");
        pod.metadata.namespace = "openshift".into();
        assert!(!is_critical(&pod), "`openshift` itself has no dash");
        pod.metadata.namespace = "kube-system".into();
        pod.metadata
            .annotations
            .insert(CRITICAL_ANNOTATION.into(), "true".into());
        assert!(
            !is_critical(&pod),
            "the documentation's `\"true\"` does not count"
        );
    }

    #[test]
    fn any_owner_kind_but_daemon_set_is_enough() {
        let mut pod = build_pod("p", 100, 0, "n1");
        pod.metadata
            .owner_references
            .push(crate::model::OwnerReference {
                kind: "StatefulSet".into(),
                name: "db".into(),
                ..crate::model::OwnerReference::default()
            });
        assert!(protections(&pod).is_empty());
    }
}
