//! CheckNodeMemoryPressure: a BestEffort pod does not go to a node under memory pressure.
//!
//! Follows 1.11 `CheckNodeMemoryPressurePredicate` in `predicates.go`: only BestEffort
//! pods are checked, and only a `MemoryPressure` condition of `True` fails.

use super::check;
use crate::model::Node;
use crate::schedule::status::Status;

/// `ErrNodeUnderMemoryPressure`.
pub const REASON: &str = "node(s) had memory pressure";

/// The predicate.
#[must_use]
pub fn predicate(best_effort: bool, node: &Node) -> Status {
    check(
        !best_effort || node.condition("MemoryPressure") != Some("True"),
        REASON,
    )
}
