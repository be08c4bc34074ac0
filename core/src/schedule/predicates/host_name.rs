//! HostName (`PodFitsHost`): a pod naming a node fits only that node.
//!
//! Follows 1.11 `PodFitsHost` in `predicates.go`.

use super::check;
use crate::model::{Node, Pod};
use crate::schedule::status::Status;

/// `ErrPodNotMatchHostName`.
pub const REASON: &str = "node(s) didn't match the requested hostname";

/// True if the pod names no node or this one.
#[must_use]
pub fn fits(pod: &Pod, node: &Node) -> bool {
    pod.spec.node_name.is_empty() || pod.spec.node_name == node.metadata.name
}

/// The predicate.
#[must_use]
pub fn predicate(pod: &Pod, node: &Node) -> Status {
    check(fits(pod, node), REASON)
}
