//! The pod garbage collector's passes: when they run, which terminating pods on nodes
//! out of service they clear, and when they delete the pods of a removed node.
//!
//! Upstream: `pkg/controller/podgc/gc_controller.go` (`gcTerminating`, `gcOrphaned`,
//! `markFailedAndDeletePodWithCondition`), 1.34. The controller starts with the others,
//! at 0 s on the timeline, and `wait.UntilWithContext` runs its pass then and every
//! `gcCheckPeriod` (20 s) after. A pass force-deletes (phase Failed, grace period 0)
//! every pod with a `deletionTimestamp` whose node is not Ready and carries a taint with
//! the key `node.kubernetes.io/out-of-service`, whatever its value or effect. Since 1.28
//! no feature gate guards it (`NodeOutOfServiceVolumeDetach` went GA and was removed);
//! the controller records no event. 1.11 has no such pass (it came in 1.24).
//!
//! Pods bound to a node that no longer exists (`gcOrphaned`): the first pass that finds
//! the node missing queues it for `quarantineTime` (40 s, `discoverDeletedNodes`); the
//! first pass after that, the node still gone, force-deletes its pods with the
//! DisruptionTarget condition `DeletionByPodGC` ("PodGC: node no longer exists"). 1.11
//! (the same file in release-1.11) lists the nodes from the API server and force-deletes
//! the pods at the first pass, without a condition.
//!
//! Example: a node goes Unknown at 0 s, its pods are deleted and stay terminating (its
//! kubelet cannot confirm); the out-of-service taint comes at 10 m 5 s: the pass at
//! 10 m 20 s removes them, and a StatefulSet recreates its pod. A node removed at 30 s:
//! the pass at 40 s queues it, the pass at 80 s deletes its pods (1.11: at 40 s).
//!
//! Difference: upstream's `IsNodeReady` reads a node without a Ready condition as not
//! ready; kubefit reads it as ready, as everywhere in the timeline.

use crate::duration::Duration;
use crate::model::Taint;

/// `gcCheckPeriod`.
pub const PERIOD: Duration = Duration::from_seconds(20);
/// `quarantineTime`: how long 1.34 waits before it deletes the pods of a node a pass
/// found missing.
pub const QUARANTINE: Duration = Duration::from_seconds(40);
/// `v1.TaintNodeOutOfService`.
pub const OUT_OF_SERVICE: &str = "node.kubernetes.io/out-of-service";

/// Whether a pass clears the terminating pods of a node with these taints and readiness
/// (`ready`, asked only when the node is out of service).
#[must_use]
pub fn clears(ready: impl FnOnce() -> bool, taints: &[Taint]) -> bool {
    taints.iter().any(|taint| taint.key == OUT_OF_SERVICE) && !ready()
}

/// The first pass at or after `at`, passes running from 0 s every [`PERIOD`]; one that
/// already ran (`last`) gives the next.
#[must_use]
pub fn next_pass(at: Duration, last: Option<Duration>) -> Duration {
    let period = PERIOD.0;
    let passes = at.0.max(0).div_euclid(period);
    let late = at.0.max(0).rem_euclid(period) != 0;
    let next = Duration(
        passes
            .saturating_add(i64::from(late))
            .saturating_mul(period),
    );
    if last.is_some_and(|last| last >= next) {
        next.saturating_add(PERIOD)
    } else {
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(key: &str, effect: &str) -> Taint {
        Taint {
            key: key.into(),
            value: "nodeshutdown".into(),
            effect: effect.into(),
            time_added: None,
        }
    }

    #[test]
    fn passes_run_every_twenty_seconds_from_the_start() {
        let s = Duration::from_seconds;
        assert_eq!(next_pass(s(0), None), s(0));
        assert_eq!(next_pass(s(600), None), s(600));
        assert_eq!(next_pass(s(605), None), s(620));
        assert_eq!(next_pass(Duration(s(620).0 - 1), None), s(620));
        // The pass of that moment ran already: the next one.
        assert_eq!(next_pass(s(600), Some(s(600))), s(620));
        assert_eq!(next_pass(s(605), Some(s(600))), s(620));
    }

    #[test]
    fn only_a_node_not_ready_and_out_of_service_is_cleared() {
        let any_effect = [taint(OUT_OF_SERVICE, "NoSchedule")];
        assert!(clears(|| false, &any_effect));
        assert!(!clears(|| true, &any_effect));
        assert!(!clears(
            || false,
            &[taint("node.kubernetes.io/unreachable", "NoExecute")]
        ));
    }
}
