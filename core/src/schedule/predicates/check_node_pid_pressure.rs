//! CheckNodePIDPressure: no pod goes to a node under process-ID pressure.
//!
//! Follows 1.11 `CheckNodePIDPressurePredicate` in `predicates.go`.

use super::check;
use crate::model::Node;
use crate::schedule::status::Status;

/// `ErrNodeUnderPIDPressure`.
pub const REASON: &str = "node(s) had pid pressure";

/// The predicate.
#[must_use]
pub fn predicate(node: &Node) -> Status {
    check(node.last_condition("PIDPressure") != Some("True"), REASON)
}
