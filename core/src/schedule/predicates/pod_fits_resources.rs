//! PodFitsResources: the pod's request must fit in what the node has left.
//!
//! Follows 1.11 `PodFitsResources` in `predicates.go`. Quirks kept:
//! - the pod count is checked first and always (`Insufficient pods`, not the later
//!   `Too many pods`);
//! - a pod requesting nothing at all returns right after the pod count (zero-request fast
//!   path), so it fits an overcommitted node;
//! - otherwise every resource is compared with `allocatable < request + requested`
//!   without a `request > 0` guard: a pod asking 0 cpu but some memory still gets
//!   `Insufficient cpu` on a node whose cpu is overcommitted;
//! - the node's usage counts regular containers only and the pod's request takes the
//!   per-resource maximum with its init containers ([`crate::schedule::snapshot::Accounting::Legacy`]).

use alloc::string::String;
use alloc::vec::Vec;

use crate::schedule::resources::Resources;
use crate::schedule::snapshot::NodeInfo;

/// The pod-count reason.
pub const INSUFFICIENT_PODS: &str = "Insufficient pods";

/// The reasons the request does not fit, in upstream order (pods, cpu, memory,
/// ephemeral-storage, then scalar resources by name).
#[must_use]
pub fn insufficient(request: &Resources, node: &NodeInfo<'_>) -> Vec<String> {
    let mut reasons = Vec::new();
    let pods = i64::try_from(node.pods.len()).unwrap_or(i64::MAX);
    if pods.saturating_add(1) > node.allowed_pods {
        reasons.push(INSUFFICIENT_PODS.into());
    }
    if request.is_empty() {
        return reasons;
    }
    let short =
        |allocatable: i64, wanted: i64, used: i64| allocatable < wanted.saturating_add(used);
    if short(
        node.allocatable.milli_cpu,
        request.milli_cpu,
        node.requested.milli_cpu,
    ) {
        reasons.push("Insufficient cpu".into());
    }
    if short(
        node.allocatable.memory,
        request.memory,
        node.requested.memory,
    ) {
        reasons.push("Insufficient memory".into());
    }
    if short(
        node.allocatable.ephemeral_storage,
        request.ephemeral_storage,
        node.requested.ephemeral_storage,
    ) {
        reasons.push("Insufficient ephemeral-storage".into());
    }
    for (name, amount) in &request.scalars {
        if short(
            node.allocatable.get(name),
            *amount,
            node.requested.get(name),
        ) {
            reasons.push(alloc::format!("Insufficient {name}"));
        }
    }
    reasons
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Container, Node, Pod};
    use crate::schedule::predicates::testing::{self, list};
    use crate::schedule::snapshot::{Accounting, Snapshot};

    /// The node of `TestPodFitsResources`: cpu 10m, memory 20, pods 32,
    /// example.com/aaa 5, ephemeral-storage 20, hugepages 5.
    fn node(pods: &str) -> Node {
        let mut node = Node::default();
        node.metadata.name = "m1".into();
        let allocatable = list(&[
            ("cpu", "10m"),
            ("memory", "20"),
            ("pods", pods),
            ("example.com/aaa", "5"),
            ("ephemeral-storage", "20"),
            ("hugepages-2Mi", "5"),
        ]);
        node.status.allocatable = Some(allocatable.clone());
        node.status.capacity = allocatable;
        node
    }

    fn container(cpu: &str, memory: &str) -> Container {
        let mut container = Container::default();
        container.resources.requests = list(&[("cpu", cpu), ("memory", memory)]);
        container
    }

    fn pod(containers: &[(&str, &str)], init: &[(&str, &str)]) -> Pod {
        let mut pod = testing::pod("incoming", &[]);
        pod.spec.containers = containers.iter().map(|(c, m)| container(c, m)).collect();
        pod.spec.init_containers = init.iter().map(|(c, m)| container(c, m)).collect();
        pod
    }

    fn reasons(incoming: Pod, used: (&str, &str), pods: &str) -> Vec<String> {
        let existing = testing::on(pod(&[used], &[]), "m1");
        let mut existing = existing;
        existing.metadata.name = "existing".into();
        let cluster = testing::cluster(alloc::vec![node(pods)], alloc::vec![existing, incoming]);
        let snapshot = Snapshot::new(&cluster, Accounting::Legacy);
        let request = Accounting::Legacy.request(&cluster.pods[1]).requested;
        insufficient(&request, &snapshot.nodes[0])
    }

    // Cases of 1.11 `TestPodFitsResources`.
    #[test]
    fn upstream_table() {
        assert!(reasons(pod(&[], &[]), ("10m", "20"), "32").is_empty());
        assert_eq!(
            reasons(pod(&[("1m", "1")], &[]), ("10m", "20"), "32"),
            ["Insufficient cpu", "Insufficient memory"]
        );
        assert_eq!(
            reasons(pod(&[("1m", "1")], &[("3m", "1")]), ("8m", "19"), "32"),
            ["Insufficient cpu"]
        );
        assert!(reasons(
            pod(&[("1m", "1")], &[("1m", "1"), ("1m", "1")]),
            ("9m", "19"),
            "32"
        )
        .is_empty());
        assert!(reasons(pod(&[("5m", "1")], &[]), ("5m", "19"), "32").is_empty());
        // notEnoughPods: a pod requesting nothing on a full node.
        assert_eq!(
            reasons(pod(&[], &[]), ("0", "0"), "1"),
            ["Insufficient pods"]
        );
        // No `request > 0` guard: 0 cpu still fails on a cpu-overcommitted node.
        assert_eq!(
            reasons(pod(&[("0", "1")], &[]), ("11m", "1"), "32"),
            ["Insufficient cpu"]
        );
    }

    #[test]
    fn node_usage_counts_regular_containers_only() {
        let mut existing = testing::on(pod(&[("5m", "1")], &[("10m", "1")]), "m1");
        existing.metadata.name = "existing".into();
        let cluster = testing::cluster(
            alloc::vec![node("32")],
            alloc::vec![existing, pod(&[("5m", "1")], &[])],
        );
        let snapshot = Snapshot::new(&cluster, Accounting::Legacy);
        let request = Accounting::Legacy.request(&cluster.pods[1]).requested;
        assert!(insufficient(&request, &snapshot.nodes[0]).is_empty());
    }
}
