//! CheckNodeDiskPressure: no pod goes to a node under disk pressure.
//!
//! Follows 1.11 `CheckNodeDiskPressurePredicate` in `predicates.go`.

use super::check;
use crate::model::Node;
use crate::schedule::status::Status;

/// `ErrNodeUnderDiskPressure`.
pub const REASON: &str = "node(s) had disk pressure";

/// The predicate.
#[must_use]
pub fn predicate(node: &Node) -> Status {
    check(node.last_condition("DiskPressure") != Some("True"), REASON)
}
