//! BalancedResourceAllocation: prefer nodes whose cpu and memory would be used evenly.
//!
//! Follows 1.11 `balanced_resource_allocation.go`: the fractions of cpu and memory in use
//! after placing the pod (non-zero requests; a zero capacity counts as fully used); 0 if
//! either is **≥ 1**, else `int((1 - |cpu - memory|) * 10)` truncated from a float64.

use super::{truncate, MAX_PRIORITY_F64};
use crate::schedule::plugins::node_resources_fit::{allocatable_and_requested, Resource};
use crate::schedule::snapshot::{NodeInfo, PodUsage};

#[allow(clippy::cast_precision_loss)]
fn fraction(requested: i64, capacity: i64) -> f64 {
    if capacity == 0 {
        1.0
    } else {
        requested as f64 / capacity as f64
    }
}

/// The node's score.
#[must_use]
pub fn score(node: &NodeInfo<'_>, pod: &PodUsage) -> i64 {
    let (cpu_capacity, cpu) = allocatable_and_requested(node, pod, &Resource::Cpu, false);
    let (memory_capacity, memory) = allocatable_and_requested(node, pod, &Resource::Memory, false);
    let cpu = fraction(cpu, cpu_capacity);
    let memory = fraction(memory, memory_capacity);
    if cpu >= 1.0 || memory >= 1.0 {
        return 0;
    }
    truncate((1.0 - crate::math::abs(cpu - memory)) * MAX_PRIORITY_F64)
}

#[cfg(test)]
mod tests {
    use crate::schedule::legacy::PriorityKind;
    use crate::schedule::predicates::testing::{cluster, node, on, pod};
    use crate::schedule::priorities::testing::{cpu_and_memory, cpu_only, run};
    use alloc::vec;

    // 1.11 `TestBalancedResourceAllocation`.
    #[test]
    fn upstream_table() {
        let kind = PriorityKind::BalancedResourceAllocation;
        let c = cluster(
            vec![node("m1", 4000, 10000), node("m2", 4000, 10000)],
            vec![pod("p", &[])],
        );
        assert_eq!(run(&kind, &c, 0, 1), [10, 10]);
        let c = cluster(
            vec![node("m1", 4000, 10000), node("m2", 6000, 10000)],
            vec![cpu_and_memory("p")],
        );
        assert_eq!(run(&kind, &c, 0, 1), [7, 10]);
        let big = || vec![node("m1", 10000, 20000), node("m2", 10000, 20000)];
        let c = cluster(
            big(),
            vec![
                on(cpu_only("a"), "m1"),
                on(cpu_only("b"), "m1"),
                on(cpu_only("c"), "m2"),
                on(cpu_and_memory("d"), "m2"),
                pod("p", &[]),
            ],
        );
        assert_eq!(run(&kind, &c, 4, 1), [4, 6]);
        let c = cluster(
            big(),
            vec![
                on(cpu_only("a"), "m1"),
                on(cpu_and_memory("b"), "m2"),
                cpu_and_memory("p"),
            ],
        );
        assert_eq!(run(&kind, &c, 2, 1), [6, 9]);
        let c = cluster(
            vec![node("m1", 10000, 20000), node("m2", 10000, 50000)],
            vec![
                on(cpu_only("a"), "m1"),
                on(cpu_and_memory("b"), "m2"),
                cpu_and_memory("p"),
            ],
        );
        assert_eq!(run(&kind, &c, 2, 1), [6, 6]);
    }
}
