//! CheckNodeCondition (mandatory): the node must be Ready, not out of disk, with its
//! network available, and not cordoned.
//!
//! Follows 1.11 `CheckNodeConditionPredicate` in `predicates.go`: conditions are read in
//! the node's order, a missing condition is no failure, and every applicable reason is
//! returned (`spec.unschedulable` last; 1.11 has no toleration for it).

use alloc::vec::Vec;

use super::verdict;
use crate::model::Node;
use crate::schedule::status::Status;

/// `ErrNodeNotReady`.
pub const NOT_READY: &str = "node(s) were not ready";
/// `ErrNodeOutOfDisk`.
pub const OUT_OF_DISK: &str = "node(s) were out of disk space";
/// `ErrNodeNetworkUnavailable`.
pub const NETWORK_UNAVAILABLE: &str = "node(s) had unavailable network";
/// `ErrNodeUnschedulable`.
pub const UNSCHEDULABLE: &str = "node(s) were unschedulable";
/// `ErrNodeUnknownCondition` (a node the cache does not know; never produced here).
pub const UNKNOWN_CONDITION: &str = "node(s) had unknown conditions";

/// The predicate.
#[must_use]
pub fn predicate(node: &Node) -> Status {
    let mut reasons = Vec::new();
    for condition in &node.status.conditions {
        let status = condition.status.as_str();
        match condition.type_.as_str() {
            "Ready" if status != "True" => reasons.push(NOT_READY.into()),
            "OutOfDisk" if status != "False" => reasons.push(OUT_OF_DISK.into()),
            "NetworkUnavailable" if status != "False" => reasons.push(NETWORK_UNAVAILABLE.into()),
            _ => {}
        }
    }
    if node.spec.unschedulable {
        reasons.push(UNSCHEDULABLE.into());
    }
    verdict(reasons)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::NodeCondition;
    use crate::schedule::status::Code;

    fn condition(type_: &str, status: &str) -> NodeCondition {
        NodeCondition {
            type_: type_.into(),
            status: status.into(),
            ..NodeCondition::default()
        }
    }

    #[test]
    fn every_bad_condition_is_a_reason_and_missing_ones_are_fine() {
        let mut node = Node::default();
        assert!(predicate(&node).passed());
        node.status.conditions = alloc::vec![
            condition("OutOfDisk", "Unknown"),
            condition("Ready", "False"),
            condition("NetworkUnavailable", "False"),
        ];
        node.spec.unschedulable = true;
        let status = predicate(&node);
        assert_eq!(status.reasons, [OUT_OF_DISK, NOT_READY, UNSCHEDULABLE]);
        assert_eq!(status.code, Code::UnschedulableAndUnresolvable);
        node.status.conditions = alloc::vec![condition("OutOfDisk", "True")];
        node.spec.unschedulable = false;
        // Out of disk alone is a reason 1.11 preemption may resolve.
        assert_eq!(predicate(&node).code, Code::Unschedulable);
    }
}
