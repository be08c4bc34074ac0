//! NodePorts: the host ports a pod asks for must be free on the node.
//!
//! Follows `pkg/scheduler/framework/plugins/nodeports/node_ports.go` and
//! `pkg/scheduler/framework/types.go` (`HostPortInfo`): a wanted `0.0.0.0` port collides
//! with the same protocol and port on any IP, and a used `0.0.0.0` with any wanted IP.

use crate::schedule::snapshot::{HostPort, NodeInfo};
use crate::schedule::status::Status;

/// The plugin name.
pub const NAME: &str = "NodePorts";

/// Upstream's reason.
pub const REASON: &str = "node(s) didn't have free ports for the requested pod ports";

/// Filter, given the host ports the pod asks for (`pod_host_ports`, listed once per pod:
/// without any, upstream's PreFilter skips the plugin).
#[must_use]
pub fn filter(wanted: &[HostPort], node: &NodeInfo<'_>) -> Status {
    let conflict = wanted.iter().any(|wanted| {
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

#[cfg(test)]
mod tests {
    use super::REASON;
    use crate::schedule::testing::{node, schedule};
    use crate::schedule::Version;
    use alloc::string::String;

    /// `protocol/ip:port` triples as a container's port list.
    fn ports(list: &[&str]) -> String {
        let items: alloc::vec::Vec<String> = list
            .iter()
            .map(|entry| {
                let (protocol, address) = entry.split_once('/').unwrap_or(("TCP", entry));
                let (ip, port) = address.rsplit_once(':').unwrap_or(("", address));
                alloc::format!(
                    "{{containerPort: {port}, hostPort: {port}, hostIP: '{ip}', protocol: {protocol}}}"
                )
            })
            .collect();
        alloc::format!("[{}]", items.join(", "))
    }

    /// The NodePorts verdict on node1 for a pod asking for `wanted` while a pod there uses
    /// `used`: `None` when it fits, the reasons otherwise.
    fn verdict(wanted: &[&str], used: &[&str]) -> Option<alloc::vec::Vec<String>> {
        let mut yaml = node("node1", 4000, 8 << 30, "");
        if !used.is_empty() {
            yaml += &alloc::format!(
                "---\nkind: Pod\nmetadata: {{name: existing, namespace: default}}\nspec:\n  nodeName: node1\n  containers: [{{name: c, image: x, ports: {}}}]\n",
                ports(used)
            );
        }
        yaml += &alloc::format!(
            "---\nkind: Pod\nmetadata: {{name: incoming, namespace: default}}\nspec:\n  containers: [{{name: c, image: x, ports: {}}}]\n",
            ports(wanted)
        );
        let report = schedule(&yaml, Version::Current);
        let placement = report.pods.last()?;
        let (_, verdict) = placement.nodes.0.first()?;
        let predicate = verdict.predicates.iter().find(|p| p.name == super::NAME)?;
        (!predicate.passed).then(|| predicate.reasons.clone())
    }

    /// `TestNodePorts` of `node_ports_test.go` (the cases as facts, written anew).
    #[test]
    fn upstream_table() {
        let fail = Some(alloc::vec![String::from(REASON)]);
        let cases: [(&[&str], &[&str], bool); 13] = [
            (&[], &[], true),
            (&["UDP/127.0.0.1:8080"], &["UDP/127.0.0.1:9090"], true),
            (&["UDP/127.0.0.1:8080"], &["UDP/127.0.0.1:8080"], false),
            (&["TCP/127.0.0.1:8080"], &["TCP/127.0.0.1:8080"], false),
            (&["TCP/127.0.0.1:8080"], &["TCP/127.0.0.2:8080"], true),
            (&["UDP/127.0.0.1:8080"], &["TCP/127.0.0.1:8080"], true),
            (
                &["UDP/127.0.0.1:8000", "UDP/127.0.0.1:8080"],
                &["UDP/127.0.0.1:8080"],
                false,
            ),
            (
                &["TCP/127.0.0.1:8001", "UDP/127.0.0.1:8080"],
                &["TCP/127.0.0.1:8001", "UDP/127.0.0.1:8081"],
                false,
            ),
            (&["TCP/0.0.0.0:8001"], &["TCP/127.0.0.1:8001"], false),
            (
                &["TCP/10.0.10.10:8001", "TCP/0.0.0.0:8001"],
                &["TCP/127.0.0.1:8001"],
                false,
            ),
            (&["TCP/127.0.0.1:8001"], &["TCP/0.0.0.0:8001"], false),
            (&["UDP/127.0.0.1:8001"], &["TCP/0.0.0.0:8001"], true),
            (
                &["UDP/127.0.0.1:8001"],
                &["TCP/0.0.0.0:8001", "UDP/0.0.0.0:8001"],
                false,
            ),
        ];
        for (wanted, used, fits) in cases {
            let expected = if fits { None } else { fail.clone() };
            assert_eq!(
                verdict(wanted, used),
                expected,
                "{wanted:?} against {used:?}"
            );
        }
    }
}
