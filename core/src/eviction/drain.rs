//! `oc adm drain`: which pods a drain deletes, skips or refuses, and its messages.
//!
//! Upstream: `k8s.io/kubectl/pkg/drain/filters.go` (the filters, in order: DaemonSet,
//! mirror, local storage, unreplicated, each run while the ones before delete; the first
//! that does not delete decides) and
//! `drain.go` (`evictPods`: a refused eviction is retried every five seconds until the
//! timeout; the errors of one node are joined). Example: with the defaults, a node that
//! runs a DaemonSet pod is not drained at all:
//! `cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/ds-x`.
//!
//! kubectl looks the pod's DaemonSet up: one that is gone makes the pod an orphan, which
//! only `--force` deletes. kubefit counts a DaemonSet as gone only when the input lists
//! DaemonSets and not that one (a dump of nodes and pods alone says nothing of them).
//!
//! OpenShift 3.11's `oc adm drain` is kubectl 1.11 (`pkg/kubectl/cmd/drain.go`,
//! [`decide_1_11`]): the same filters in the same order, but its own words, pods named
//! without their namespace, every filter's warning kept, and one error for the node.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::duration::Duration;
use crate::model::Pod;

/// How long kubectl waits before retrying a refused eviction.
pub const RETRY: Duration = Duration::from_seconds(5);

/// The annotation that marks a static pod's mirror.
const MIRROR_ANNOTATION: &str = "kubernetes.io/config.mirror";

/// `oc adm drain`'s flags that change what it does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// `--ignore-daemonsets`.
    pub ignore_daemon_sets: bool,
    /// `--delete-emptydir-data`.
    pub delete_emptydir_data: bool,
    /// `--force`: delete pods without a controller.
    pub force: bool,
    /// `--timeout` (`None`: wait for ever).
    pub timeout: Option<Duration>,
    /// `--grace-period` (`None`: each pod's own).
    pub grace_period: Option<Duration>,
}

impl Flags {
    /// The machine controller's drain (`drain_controller.go`): force, ignore DaemonSets,
    /// delete emptyDir data, each pod's own grace period, 20 s timeout.
    #[must_use]
    pub const fn machine_controller() -> Self {
        Self {
            ignore_daemon_sets: true,
            delete_emptydir_data: true,
            force: true,
            timeout: Some(Duration::from_seconds(20)),
            grace_period: None,
        }
    }
}

/// What the drain does with one pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Evict it.
    Evict,
    /// Evict it, with a warning.
    EvictWithWarning(&'static str),
    /// Leave it, with a warning (DaemonSet pods under `--ignore-daemonsets`).
    LeaveWithWarning(&'static str),
    /// Leave it silently (mirror pods).
    Skip,
    /// Refuse to drain the node because of it.
    Refuse(&'static str),
    /// Refuse to drain the node: the pod's DaemonSet is not found (no `--force`).
    DaemonSetNotFound,
}

/// The filters' verdict on a pod (`daemon_set_found`: its DaemonSet, if it has one,
/// exists).
#[must_use]
pub fn decide(pod: &Pod, flags: &Flags, daemon_set_found: bool) -> Decision {
    let finished = matches!(pod.status.phase.as_str(), "Succeeded" | "Failed");
    let controller = pod.metadata.controller();
    if controller.is_some_and(|owner| owner.kind == "DaemonSet") && !finished {
        if daemon_set_found {
            return if flags.ignore_daemon_sets {
                Decision::LeaveWithWarning("ignoring DaemonSet-managed Pods")
            } else {
                Decision::Refuse("DaemonSet-managed Pods (use --ignore-daemonsets to ignore)")
            };
        }
        if !flags.force {
            return Decision::DaemonSetNotFound;
        }
        // An orphan under `--force` may be deleted, and the later filters still run on
        // it: a mirror pod is skipped, local storage still needs its flag, and the
        // not-found warning is overwritten by the last filter's status.
    }
    if pod.metadata.annotations.contains_key(MIRROR_ANNOTATION) {
        return Decision::Skip;
    }
    if !finished
        && !flags.delete_emptydir_data
        && pod
            .spec
            .volumes
            .iter()
            .any(|volume| volume.empty_dir.is_some())
    {
        return Decision::Refuse(
            "Pods with local storage (use --delete-emptydir-data to override)",
        );
    }
    // With `--delete-emptydir-data` the local-storage filter's warning is overwritten by
    // the next filter's status (upstream's own TODO in `filters.go`), so it never shows.
    if !finished && controller.is_none() {
        if !flags.force {
            return Decision::Refuse(
                "cannot delete Pods that declare no controller (use --force to override)",
            );
        }
        return Decision::EvictWithWarning("deleting Pods that declare no controller");
    }
    Decision::Evict
}

/// kubectl 1.11's verdict on a pod: whether it is deleted, the warnings of the filters it
/// passed through, and the fatal message of the one that stopped it, if any (a mirror
/// pod stops without one).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict11 {
    pub delete: bool,
    pub warnings: Vec<Cow<'static, str>>,
    pub fatal: Option<Cow<'static, str>>,
}

/// kubectl 1.11's filters (`daemonsetFilter`, `mirrorPodFilter`, `localStorageFilter`,
/// `unreplicatedFilter`), each run until one does not delete.
#[must_use]
pub fn decide_1_11(pod: &Pod, flags: &Flags, daemon_set_found: bool) -> Verdict11 {
    let finished = matches!(pod.status.phase.as_str(), "Succeeded" | "Failed");
    let controller = pod.metadata.controller();
    let mut verdict = Verdict11::default();
    if let Some(owner) = controller.filter(|owner| owner.kind == "DaemonSet" && !finished) {
        if !daemon_set_found {
            let error = alloc::format!("daemonsets.extensions \"{}\" not found", owner.name);
            if !flags.force {
                verdict.fatal = Some(error.into());
                return verdict;
            }
            verdict.warnings.push(error.into());
        } else if flags.ignore_daemon_sets {
            verdict
                .warnings
                .push("Ignoring DaemonSet-managed pods".into());
            return verdict;
        } else {
            verdict.fatal =
                Some("DaemonSet-managed pods (use --ignore-daemonsets to ignore)".into());
            return verdict;
        }
    }
    if pod.metadata.annotations.contains_key(MIRROR_ANNOTATION) {
        return verdict;
    }
    let local = pod
        .spec
        .volumes
        .iter()
        .any(|volume| volume.empty_dir.is_some());
    if local && !finished {
        if !flags.delete_emptydir_data {
            verdict.fatal =
                Some("pods with local storage (use --delete-local-data to override)".into());
            return verdict;
        }
        verdict
            .warnings
            .push("Deleting pods with local storage".into());
    }
    if controller.is_none() && !finished {
        if !flags.force {
            verdict.fatal = Some(
                "pods not managed by ReplicationController, ReplicaSet, Job, DaemonSet or StatefulSet (use --force to override)".into(),
            );
            return verdict;
        }
        verdict.warnings.push(
            "Deleting pods not managed by ReplicationController, ReplicaSet, Job, DaemonSet or StatefulSet".into(),
        );
    }
    verdict.delete = true;
    verdict
}

/// Groups messages with the pods they name, in first-seen order:
/// `message: ns/a, ns/b`; a message that does not start with `cannot delete` gets it.
#[must_use]
pub fn grouped(items: &[(Cow<'static, str>, String)], prefix: bool) -> Vec<String> {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (message, pod) in items {
        match groups.iter_mut().find(|(seen, _)| seen == message) {
            Some((_, pods)) => pods.push(pod),
            None => groups.push((message, alloc::vec![pod.as_str()])),
        }
    }
    groups
        .into_iter()
        .map(|(message, pods)| {
            let lead = if prefix && !message.to_ascii_lowercase().starts_with("cannot delete") {
                "cannot delete "
            } else {
                ""
            };
            alloc::format!("{lead}{message}: {}", pods.join(", "))
        })
        .collect()
}

/// kubectl 1.11's `podStatuses.Message`: `message: a, b; other: c` (Go's map order,
/// which varies from run to run; kubefit keeps the first-seen order).
#[must_use]
pub fn statuses_1_11(items: &[(Cow<'static, str>, String)]) -> String {
    grouped(items, false).join("; ")
}

/// Joins errors as Go's `utilerrors.NewAggregate` prints them: one alone, several in
/// brackets.
#[must_use]
pub fn aggregate(errors: &[String]) -> String {
    match errors {
        [one] => one.clone(),
        many => alloc::format!("[{}]", many.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{OwnerReference, Volume};

    fn pod(owner: Option<&str>) -> Pod {
        let mut pod = Pod::default();
        if let Some(kind) = owner {
            pod.metadata.owner_references.push(OwnerReference {
                kind: kind.into(),
                name: "owner".into(),
                controller: Some(true),
                ..OwnerReference::default()
            });
        }
        pod
    }

    /// The cases of upstream's `TestDrain` filters, one per rule.
    #[test]
    fn filters_follow_kubectl() {
        let defaults = Flags::default();
        assert_eq!(
            decide(&pod(Some("ReplicaSet")), &defaults, true),
            Decision::Evict
        );
        assert_eq!(
            decide(&pod(Some("DaemonSet")), &defaults, true),
            Decision::Refuse("DaemonSet-managed Pods (use --ignore-daemonsets to ignore)")
        );
        let ignore = Flags {
            ignore_daemon_sets: true,
            ..Flags::default()
        };
        assert_eq!(
            decide(&pod(Some("DaemonSet")), &ignore, true),
            Decision::LeaveWithWarning("ignoring DaemonSet-managed Pods")
        );
        let mut mirror = pod(None);
        mirror
            .metadata
            .annotations
            .insert(MIRROR_ANNOTATION.into(), "x".into());
        assert_eq!(decide(&mirror, &defaults, true), Decision::Skip);
        assert_eq!(
            decide(&pod(None), &defaults, true),
            Decision::Refuse(
                "cannot delete Pods that declare no controller (use --force to override)"
            )
        );
        let mut local = pod(Some("ReplicaSet"));
        local.spec.volumes.push(Volume {
            name: "scratch".into(),
            empty_dir: Some(crate::model::EmptyDirVolumeSource::default()),
            ..Volume::default()
        });
        assert_eq!(
            decide(&local, &defaults, true),
            Decision::Refuse("Pods with local storage (use --delete-emptydir-data to override)")
        );
        // Allowed, and the warning is lost to the next filter, as upstream.
        assert_eq!(
            decide(&local, &Flags::machine_controller(), true),
            Decision::Evict
        );
        let mut finished = pod(None);
        finished.status.phase = "Succeeded".into();
        assert_eq!(decide(&finished, &defaults, true), Decision::Evict);
        // `daemonSetFilter` on an orphan: an error without `--force`, else deleted.
        let orphan = pod(Some("DaemonSet"));
        assert_eq!(decide(&orphan, &ignore, false), Decision::DaemonSetNotFound);
        let force = Flags {
            force: true,
            ..Flags::default()
        };
        assert_eq!(decide(&orphan, &force, false), Decision::Evict);
        // ... and the later filters still judge it: local storage needs its own flag.
        let mut local_orphan = orphan.clone();
        local_orphan.spec.volumes.clone_from(&local.spec.volumes);
        assert_eq!(
            decide(&local_orphan, &force, false),
            Decision::Refuse("Pods with local storage (use --delete-emptydir-data to override)")
        );
        let emptydir = Flags {
            delete_emptydir_data: true,
            ..force.clone()
        };
        assert_eq!(decide(&local_orphan, &emptydir, false), Decision::Evict);
        let mut mirror_orphan = orphan;
        mirror_orphan
            .metadata
            .annotations
            .insert(MIRROR_ANNOTATION.into(), "x".into());
        assert_eq!(decide(&mirror_orphan, &force, false), Decision::Skip);
    }

    #[test]
    fn errors_read_as_kubectl_prints_them() {
        let items = [
            (
                "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)".into(),
                "default/ds-a".into(),
            ),
            (
                "cannot delete Pods that declare no controller (use --force to override)".into(),
                "default/bare".into(),
            ),
            (
                "DaemonSet-managed Pods (use --ignore-daemonsets to ignore)".into(),
                "default/ds-b".into(),
            ),
        ];
        let errors = grouped(&items, true);
        assert_eq!(
            aggregate(&errors),
            "[cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): default/ds-a, default/ds-b, cannot delete Pods that declare no controller (use --force to override): default/bare]"
        );
    }
}
