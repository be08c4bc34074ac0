//! NodePorts: the host ports a pod asks for must be free on the node.
//!
//! Follows `pkg/scheduler/framework/plugins/nodeports/node_ports.go` and
//! `pkg/scheduler/framework/types.go` (`HostPortInfo`): a wanted `0.0.0.0` port collides
//! with the same protocol and port on any IP, and a used `0.0.0.0` with any wanted IP.

use crate::model::Pod;
use crate::schedule::snapshot::{pod_host_ports, Accounting, NodeInfo};
use crate::schedule::status::Status;

/// The plugin name.
pub const NAME: &str = "NodePorts";

/// Upstream's reason.
pub const REASON: &str = "node(s) didn't have free ports for the requested pod ports";

/// Filter.
#[must_use]
pub fn filter(pod: &Pod, node: &NodeInfo<'_>) -> Status {
    let conflict = pod_host_ports(pod, Accounting::Current).any(|wanted| {
        node.used_ports
            .iter()
            .any(|used| wanted.conflicts_with(used))
    });
    if conflict {
        Status::unschedulable(REASON)
    } else {
        Status::success()
    }
}
