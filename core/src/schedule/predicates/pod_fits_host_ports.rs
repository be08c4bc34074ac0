//! PodFitsHostPorts: the host ports of the pod's regular containers must be free.
//!
//! Follows 1.11 `PodFitsHostPorts` in `predicates.go` and `HostPortInfo` in
//! `pkg/scheduler/util/utils.go`; the conflict rule (`0.0.0.0` collides with every IP) is
//! the one [`HostPort::conflicts_with`] implements.

use super::check;
use crate::model::Pod;
use crate::schedule::snapshot::{pod_host_ports, Accounting, HostPort, NodeInfo};
use crate::schedule::status::Status;

/// `ErrPodNotFitsHostPorts`.
pub const REASON: &str = "node(s) didn't have free ports for the requested pod ports";

/// True if no wanted host port is in use on the node.
#[must_use]
pub fn fits(pod: &Pod, node: &NodeInfo<'_>) -> bool {
    !pod_host_ports(pod, Accounting::Legacy).any(|wanted: HostPort| {
        node.used_ports
            .iter()
            .any(|used| wanted.conflicts_with(used))
    })
}

/// The predicate.
#[must_use]
pub fn predicate(pod: &Pod, node: &NodeInfo<'_>) -> Status {
    check(fits(pod, node), REASON)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Container, ContainerPort};
    use crate::schedule::predicates::testing;
    use crate::schedule::snapshot::{Accounting, Snapshot};

    /// `newPod(host, "PROTO/IP/PORT")` of the upstream test.
    fn with_port(name: &str, spec: &str) -> Pod {
        let mut parts = spec.split('/');
        let protocol = parts.next().unwrap();
        let ip = parts.next().unwrap();
        let port: i32 = parts.next().unwrap().parse().unwrap();
        let mut pod = testing::pod(name, &[]);
        pod.spec.containers = alloc::vec![Container {
            ports: alloc::vec![ContainerPort {
                host_port: port,
                protocol: protocol.into(),
                host_ip: ip.into(),
                ..ContainerPort::default()
            }],
            ..Container::default()
        }];
        pod
    }

    // Cases of 1.11 `TestPodFitsHostPorts`.
    #[test]
    fn upstream_table() {
        let cases = [
            ("UDP/127.0.0.1/8080", "UDP/127.0.0.1/8080", false),
            ("TCP/127.0.0.1/8080", "TCP/127.0.0.2/8080", true),
            ("UDP/127.0.0.1/8080", "TCP/127.0.0.1/8080", true),
            ("TCP/0.0.0.0/8001", "TCP/127.0.0.1/8001", false),
            ("TCP/127.0.0.1/8001", "TCP/0.0.0.0/8001", false),
            ("UDP/127.0.0.1/8001", "TCP/0.0.0.0/8001", true),
        ];
        for (wanted, used, expected) in cases {
            let cluster = testing::cluster(
                alloc::vec![testing::node("m1", 1000, 1000)],
                alloc::vec![
                    testing::on(with_port("existing", used), "m1"),
                    with_port("incoming", wanted),
                ],
            );
            let snapshot = Snapshot::new(&cluster, Accounting::Legacy);
            let incoming = &cluster.pods[1].pod;
            assert_eq!(
                predicate(incoming, &snapshot.nodes[0]).passed(),
                expected,
                "{wanted} vs {used}"
            );
        }
    }
}
