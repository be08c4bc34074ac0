//! MostRequestedPriority: prefer nodes with more cpu and memory in use.
//!
//! Follows 1.11 `most_requested.go`: per resource `(requested * 10) / capacity` on the
//! non-zero requests (0 when the capacity is 0 or exceeded), then the integer mean.

use crate::schedule::legacy::MAX_PRIORITY;
use crate::schedule::plugins::node_resources_fit::{
    allocatable_and_requested, most_requested, Resource,
};
use crate::schedule::snapshot::{NodeInfo, PodUsage};

/// The node's score.
#[must_use]
pub fn score(node: &NodeInfo<'_>, pod: &PodUsage) -> i64 {
    let (cpu_capacity, cpu) = allocatable_and_requested(node, pod, &Resource::Cpu, false);
    let (memory_capacity, memory) = allocatable_and_requested(node, pod, &Resource::Memory, false);
    (most_requested(cpu, cpu_capacity, MAX_PRIORITY)
        + most_requested(memory, memory_capacity, MAX_PRIORITY))
        / 2
}

#[cfg(test)]
mod tests {
    use crate::schedule::legacy::PriorityKind;
    use crate::schedule::predicates::testing::{cluster, node, on, pod};
    use crate::schedule::priorities::testing::{cpu_and_memory, cpu_only, run};
    use alloc::vec;

    // 1.11 `TestMostRequested`.
    #[test]
    fn upstream_table() {
        let kind = PriorityKind::MostRequested;
        let c = cluster(
            vec![node("m1", 4000, 10000), node("m2", 4000, 10000)],
            vec![pod("p", &[])],
        );
        assert_eq!(run(&kind, &c, 0, 1), [0, 0]);
        let c = cluster(
            vec![node("m1", 4000, 10000), node("m2", 6000, 10000)],
            vec![cpu_and_memory("p")],
        );
        assert_eq!(run(&kind, &c, 0, 1), [6, 5]);
        let c = cluster(
            vec![node("m1", 10000, 20000), node("m2", 10000, 20000)],
            vec![
                on(cpu_only("a"), "m1"),
                on(cpu_only("b"), "m1"),
                on(cpu_only("c"), "m2"),
                on(cpu_and_memory("d"), "m2"),
                pod("p", &[]),
            ],
        );
        assert_eq!(run(&kind, &c, 4, 1), [3, 4]);
    }
}
