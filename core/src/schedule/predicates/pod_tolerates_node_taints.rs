//! PodToleratesNodeTaints and PodToleratesNodeNoExecuteTaints: every NoSchedule and
//! NoExecute taint (resp. every NoExecute taint) must be tolerated.
//!
//! Follows 1.11 `PodToleratesNodeTaints` / `PodToleratesNodeNoExecuteTaints` in
//! `predicates.go`: PreferNoSchedule taints are ignored, and both fail with one generic
//! reason (later releases name the taint).

use super::check;
use crate::model::{Node, Pod};
use crate::schedule::status::Status;
use crate::taints;

/// `ErrTaintsTolerationsNotMatch`.
pub const REASON: &str = "node(s) had taints that the pod didn't tolerate";

/// The predicate; `no_execute_only` selects the NoExecute variant.
#[must_use]
pub fn predicate(pod: &Pod, node: &Node, no_execute_only: bool) -> Status {
    let fits = node.spec.taints.iter().all(|taint| {
        let considered = match taint.effect.as_str() {
            "NoExecute" => true,
            "NoSchedule" => !no_execute_only,
            _ => false,
        };
        !considered || taints::tolerated(&pod.spec.tolerations, taint)
    });
    check(fits, REASON)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Taint, Toleration};
    use crate::schedule::status::Code;

    fn taint(key: &str, value: &str, effect: &str) -> Taint {
        Taint {
            key: key.into(),
            value: value.into(),
            effect: effect.into(),
            time_added: None,
        }
    }

    // The chapter's "Using Multiple Taints" example: the third taint is not tolerated.
    #[test]
    fn the_chapter_multiple_taints_example() {
        let mut node = Node::default();
        node.spec.taints = alloc::vec![
            taint("key1", "value1", "NoSchedule"),
            taint("key1", "value1", "NoExecute"),
            taint("key2", "value2", "NoSchedule"),
        ];
        let toleration = |effect: &str| Toleration {
            key: "key1".into(),
            operator: "Equal".into(),
            value: "value1".into(),
            effect: effect.into(),
            toleration_seconds: None,
        };
        let mut pod = Pod::default();
        pod.spec.tolerations = alloc::vec![toleration("NoSchedule"), toleration("NoExecute")];
        let status = predicate(&pod, &node, false);
        assert_eq!(status.reasons, [REASON]);
        assert_eq!(status.code, Code::UnschedulableAndUnresolvable);
        // The NoExecute variant only looks at NoExecute taints, which are tolerated.
        assert!(predicate(&pod, &node, true).passed());
        node.spec.taints = alloc::vec![taint("a", "", "PreferNoSchedule")];
        assert!(predicate(&Pod::default(), &node, false).passed());
    }
}
