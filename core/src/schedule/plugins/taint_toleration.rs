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
    let tolerations: Vec<_> = pod
        .spec
        .tolerations
        .iter()
        .filter(|toleration| matches!(toleration.effect.as_str(), "" | "PreferNoSchedule"))
        .cloned()
        .collect();
    let count = node
        .spec
        .taints
        .iter()
        .filter(|taint| {
            taint.effect == "PreferNoSchedule" && !taints::tolerated(&tolerations, taint)
        })
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
