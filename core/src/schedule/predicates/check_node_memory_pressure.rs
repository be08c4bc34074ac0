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
        !best_effort || node.last_condition("MemoryPressure") != Some("True"),
        REASON,
    )
}

#[cfg(test)]
mod tests {
    use crate::schedule::testing::{node, schedule};
    use crate::schedule::Version;

    /// 1.11's `GetPodQOS` reads regular containers only: a pod whose init container alone
    /// asks for memory is BestEffort and stays off a node under memory pressure.
    #[test]
    fn init_containers_do_not_lift_a_pod_out_of_best_effort() {
        let yaml = alloc::string::String::from(
            "apiVersion: v1\nkind: Policy\npredicates: [{name: CheckNodeMemoryPressure}]\npriorities: []\n",
        ) + &node(
            "n1",
            4000,
            8 << 30,
            "status:\n  conditions: [{type: MemoryPressure, status: 'True'}]",
        )
        .replace("\nstatus:\n  allocatable", "\n  allocatable")
            + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  initContainers: [{name: i, image: x, resources: {requests: {memory: 64Mi}}}]\n  containers: [{name: c, image: x}]\n";
        let result = schedule(&yaml, Version::Legacy);
        assert_eq!(
            result.pods[0].message.as_deref(),
            Some("0/1 nodes are available: 1 node(s) had memory pressure.")
        );
    }
}
