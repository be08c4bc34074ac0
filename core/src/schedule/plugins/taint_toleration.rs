//! TaintToleration: filter on the node's NoSchedule and NoExecute taints, score by the
//! PreferNoSchedule taints the pod does not tolerate (fewer is better).
//!
//! Follows `pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go`.

use alloc::vec::Vec;

use super::normalize;
use crate::model::{Node, Pod};
use crate::schedule::status::Status;
use crate::taints;

/// The plugin name.
pub const NAME: &str = "TaintToleration";

/// The filter reason from 1.34.2 on (kubernetes#135023): the taint is no longer named,
/// so every untolerated taint counts under one line of the message (1.34.0 and 1.34.1
/// wrote `node(s) had untolerated taint {key: value}`).
pub const REASON: &str = "node(s) had untolerated taint(s)";

/// Filter: a NoSchedule/NoExecute taint no toleration tolerates rejects the node.
#[must_use]
pub fn filter(pod: &Pod, node: &Node) -> Status {
    let untolerated = node.spec.taints.iter().any(|taint| {
        matches!(taint.effect.as_str(), "NoSchedule" | "NoExecute")
            && !taints::tolerated(&pod.spec.tolerations, taint)
    });
    if untolerated {
        Status::unresolvable(REASON)
    } else {
        Status::success()
    }
}

/// Raw score: PreferNoSchedule taints not tolerated by the pod's tolerations whose effect
/// is empty or PreferNoSchedule.
#[must_use]
pub fn count_intolerable(pod: &Pod, node: &Node) -> i64 {
    let tolerated = |taint| {
        pod.spec.tolerations.iter().any(|toleration| {
            matches!(toleration.effect.as_str(), "" | "PreferNoSchedule")
                && taints::tolerates(toleration, taint)
        })
    };
    let count = node
        .spec
        .taints
        .iter()
        .filter(|taint| taint.effect == "PreferNoSchedule" && !tolerated(taint))
        .count();
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// Scores over the feasible nodes, normalised in reverse (no intolerable taint = best).
#[must_use]
pub fn scores<'n>(pod: &Pod, nodes: impl Iterator<Item = &'n Node>, max_score: i64) -> Vec<i64> {
    let mut scores: Vec<i64> = nodes.map(|node| count_intolerable(pod, node)).collect();
    normalize::default_normalize(&mut scores, max_score, true);
    scores
}

#[cfg(test)]
mod tests {
    use super::{filter, REASON};
    use crate::model::{Node, Pod, Taint, Toleration};
    use crate::schedule::status::Code;

    fn node(taints: &[(&str, &str, &str)]) -> Node {
        let mut node = Node::default();
        node.spec.taints = taints
            .iter()
            .map(|(key, value, effect)| Taint {
                key: (*key).into(),
                value: (*value).into(),
                effect: (*effect).into(),
                ..Taint::default()
            })
            .collect();
        node
    }

    fn pod(tolerations: &[(&str, &str, &str, &str)]) -> Pod {
        let mut pod = Pod::default();
        pod.spec.tolerations = tolerations
            .iter()
            .map(|(key, operator, value, effect)| Toleration {
                key: (*key).into(),
                operator: (*operator).into(),
                value: (*value).into(),
                effect: (*effect).into(),
                ..Toleration::default()
            })
            .collect();
        pod
    }

    /// Cases after `TestTaintTolerationFilter` of `taint_toleration_test.go` and the
    /// toleration rules it relies on (`Toleration.ToleratesTaint`), written anew.
    #[test]
    fn upstream_filter_table() {
        let user1 = [("dedicated", "user1", "NoSchedule")];
        let cases = [
            // A pod without tolerations fits a node without taints.
            (pod(&[]), node(&[]), true),
            // ... but not a tainted one.
            (pod(&[]), node(&user1), false),
            // Tolerated by key, value and effect.
            (
                pod(&[("dedicated", "Equal", "user1", "NoSchedule")]),
                node(&user1),
                true,
            ),
            // The value differs.
            (
                pod(&[("dedicated", "Equal", "user2", "NoSchedule")]),
                node(&user1),
                false,
            ),
            // Equal is the default operator.
            (
                pod(&[("foo", "", "bar", "NoSchedule")]),
                node(&[("foo", "bar", "NoSchedule")]),
                true,
            ),
            // Exists ignores the value.
            (
                pod(&[("foo", "Exists", "", "NoSchedule")]),
                node(&[("foo", "bar", "NoSchedule")]),
                true,
            ),
            // Another effect does not tolerate it.
            (
                pod(&[("foo", "Equal", "bar", "PreferNoSchedule")]),
                node(&[("foo", "bar", "NoSchedule")]),
                false,
            ),
            // An empty effect tolerates every effect.
            (
                pod(&[("foo", "Equal", "bar", "")]),
                node(&[("foo", "bar", "NoSchedule")]),
                true,
            ),
            // PreferNoSchedule taints never filter.
            (pod(&[]), node(&[("foo", "bar", "PreferNoSchedule")]), true),
            // An empty key with Exists tolerates everything.
            (
                pod(&[("", "Exists", "", "")]),
                node(&[("a", "b", "NoExecute"), ("c", "d", "NoSchedule")]),
                true,
            ),
        ];
        for (index, (pod, node, fits)) in cases.iter().enumerate() {
            let status = filter(pod, node);
            assert_eq!(status.passed(), *fits, "case {index}");
            if !fits {
                assert_eq!(status.code, Code::UnschedulableAndUnresolvable);
                assert_eq!(status.reasons, [REASON]);
            }
        }
    }
}
