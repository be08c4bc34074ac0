//! CheckNodeLabelPresence (Policy `labelsPresence{labels, presence}`): the node must carry
//! every listed label (`presence: true`) or none of them (`presence: false`); values are
//! ignored.
//!
//! Follows 1.11 `NodeLabelChecker.CheckNodeLabelPresence` in `predicates.go`.

use super::check;
use crate::model::{LabelsPresenceArgument, Node};
use crate::schedule::status::Status;

/// `ErrNodeLabelPresenceViolated`.
pub const REASON: &str = "node(s) didn't have the requested labels";

/// The predicate.
#[must_use]
pub fn predicate(argument: &LabelsPresenceArgument, node: &Node) -> Status {
    let fits = argument
        .labels
        .iter()
        .all(|label| node.metadata.labels.contains_key(label) == argument.presence);
    check(fits, REASON)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presence_and_absence() {
        let mut node = Node::default();
        node.metadata.labels.insert("region".into(), "r1".into());
        let argument = |presence| LabelsPresenceArgument {
            labels: alloc::vec!["region".into(), "rack".into()],
            presence,
        };
        // The chapter's RackPreferred needs both labels.
        assert!(!predicate(&argument(true), &node).passed());
        node.metadata.labels.insert("rack".into(), "s1".into());
        assert!(predicate(&argument(true), &node).passed());
        assert_eq!(predicate(&argument(false), &node).reasons, [REASON]);
        assert!(predicate(&argument(false), &Node::default()).passed());
    }
}
