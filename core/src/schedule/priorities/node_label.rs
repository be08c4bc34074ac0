//! NodeLabel (Policy `labelPreference{label, presence}`): 10 for nodes with the label
//! (`presence: true`) or without it (`presence: false`), else 0.
//!
//! Follows 1.11 `node_label.go`.

use crate::model::Node;
use crate::schedule::legacy::MAX_PRIORITY;

/// The node's score.
#[must_use]
pub fn score(label: &str, presence: bool, node: &Node) -> i64 {
    if node.metadata.labels.contains_key(label) == presence {
        MAX_PRIORITY
    } else {
        0
    }
}
