//! NodeUnschedulable: a cordoned node takes only pods that tolerate the
//! `node.kubernetes.io/unschedulable:NoSchedule` taint.
//!
//! Follows `pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go`.

use crate::model::{Node, Pod, Taint};
use crate::schedule::status::Status;
use crate::taints;

/// The plugin name.
pub const NAME: &str = "NodeUnschedulable";

/// Upstream's reason.
pub const REASON: &str = "node(s) were unschedulable";

/// The taint a cordoned node is treated as carrying.
pub const UNSCHEDULABLE_TAINT: &str = "node.kubernetes.io/unschedulable";

/// Filter.
#[must_use]
pub fn filter(pod: &Pod, node: &Node) -> Status {
    if !node.spec.unschedulable {
        return Status::success();
    }
    let taint = Taint {
        key: UNSCHEDULABLE_TAINT.into(),
        effect: "NoSchedule".into(),
        ..Taint::default()
    };
    if taints::tolerated(&pod.spec.tolerations, &taint) {
        Status::success()
    } else {
        Status::unresolvable(REASON)
    }
}

#[cfg(test)]
mod tests {
    use super::{filter, REASON};
    use crate::model::{Node, Pod, Toleration};
    use crate::schedule::status::Code;

    /// `TestNodeUnschedulable` of `node_unschedulable_test.go` (the cases as facts).
    #[test]
    fn upstream_table() {
        let mut cordoned = Node::default();
        cordoned.spec.unschedulable = true;
        let status = filter(&Pod::default(), &cordoned);
        assert_eq!(status.code, Code::UnschedulableAndUnresolvable);
        assert_eq!(status.reasons, [REASON]);
        assert!(filter(&Pod::default(), &Node::default()).passed());
        let mut tolerant = Pod::default();
        tolerant.spec.tolerations.push(Toleration {
            key: super::UNSCHEDULABLE_TAINT.into(),
            operator: "Exists".into(),
            effect: "NoSchedule".into(),
            ..Toleration::default()
        });
        assert!(filter(&tolerant, &cordoned).passed());
    }
}
