//! LeastRequestedPriority: prefer nodes with more cpu and memory left.
//!
//! Follows 1.11 `least_requested.go`: per resource `((capacity - requested) * 10) /
//! capacity` on the non-zero requests (0 when the capacity is 0 or exceeded), then the
//! integer mean of cpu and memory.

use crate::schedule::legacy::MAX_PRIORITY;
use crate::schedule::plugins::node_resources_fit::{
    allocatable_and_requested, least_requested, Resource,
};
use crate::schedule::snapshot::{NodeInfo, PodUsage};

/// The node's score.
#[must_use]
pub fn score(node: &NodeInfo<'_>, pod: &PodUsage) -> i64 {
    let (cpu_capacity, cpu) = allocatable_and_requested(node, pod, &Resource::Cpu, false);
    let (memory_capacity, memory) = allocatable_and_requested(node, pod, &Resource::Memory, false);
    (least_requested(cpu, cpu_capacity, MAX_PRIORITY)
        + least_requested(memory, memory_capacity, MAX_PRIORITY))
        / 2
}

#[cfg(test)]
mod tests {
    use crate::schedule::legacy::PriorityKind;
    use crate::schedule::predicates::testing::{cluster, node, on, pod};
    use crate::schedule::priorities::testing::{cpu_and_memory, cpu_only, run};
    use alloc::vec;

    #[test]
    fn upstream_table() {
        let kind = PriorityKind::LeastRequested;
        let two = |a: (i64, i64), b: (i64, i64)| vec![node("m1", a.0, a.1), node("m2", b.0, b.1)];
        let c = cluster(two((4000, 10000), (4000, 10000)), vec![pod("p", &[])]);
        assert_eq!(run(&kind, &c, 0, 1), [10, 10]);
        let c = cluster(two((4000, 10000), (6000, 10000)), vec![cpu_and_memory("p")]);
        assert_eq!(run(&kind, &c, 0, 1), [3, 5]);
        let c = cluster(
            two((10000, 20000), (10000, 20000)),
            vec![
                on(cpu_only("a"), "m1"),
                on(cpu_only("b"), "m1"),
                on(cpu_only("c"), "m2"),
                on(cpu_and_memory("d"), "m2"),
                pod("p", &[]),
            ],
        );
        assert_eq!(run(&kind, &c, 4, 1), [7, 5]);
        let c = cluster(
            two((4000, 10000), (4000, 10000)),
            vec![
                on(cpu_only("a"), "m1"),
                on(cpu_and_memory("b"), "m2"),
                cpu_only("p"),
            ],
        );
        assert_eq!(run(&kind, &c, 2, 1), [5, 2]);
        let c = cluster(
            two((0, 0), (0, 0)),
            vec![
                on(cpu_only("a"), "m1"),
                on(cpu_and_memory("b"), "m2"),
                pod("p", &[]),
            ],
        );
        assert_eq!(run(&kind, &c, 2, 1), [0, 0]);
    }
}
