//! NodeName: a pod that names a node (`spec.nodeName`) fits only that node.
//!
//! Follows `pkg/scheduler/framework/plugins/nodename/node_name.go`.

use crate::model::{Node, Pod};
use crate::schedule::status::Status;

/// The plugin name.
pub const NAME: &str = "NodeName";

/// Upstream's reason (1.21 and later).
pub const REASON: &str = "node(s) didn't match the requested node name";

/// Filter.
#[must_use]
pub fn filter(pod: &Pod, node: &Node) -> Status {
    if pod.spec.node_name.is_empty() || pod.spec.node_name == node.metadata.name {
        Status::success()
    } else {
        Status::unresolvable(REASON)
    }
}

#[cfg(test)]
mod tests {
    use super::{filter, REASON};
    use crate::model::{Node, Pod};
    use crate::schedule::status::Code;

    /// `TestNodeName` of `node_name_test.go` (the cases as facts).
    #[test]
    fn upstream_table() {
        let mut node = Node::default();
        node.metadata.name = "foo".into();
        let named = |name: &str| {
            let mut pod = Pod::default();
            pod.spec.node_name = name.into();
            pod
        };
        assert!(filter(&named(""), &node).passed(), "no host specified");
        assert!(filter(&named("foo"), &node).passed(), "host matches");
        let status = filter(&named("bar"), &node);
        assert_eq!(status.code, Code::UnschedulableAndUnresolvable);
        assert_eq!(status.reasons, [REASON]);
    }
}
