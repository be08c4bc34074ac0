//! RequestedToCapacityRatioPriority: score cpu and memory utilisation through a
//! piecewise-linear curve (Policy `requestedToCapacityRatioArguments`).
//!
//! Follows 1.11 `requested_to_capacity_ratio.go`: utilisation `100 - (capacity -
//! requested) * 100 / capacity` on the non-zero requests (100 when the capacity is 0 or
//! exceeded), the curve evaluated on the raw 0–10 scores with integer interpolation,
//! then the integer mean of cpu and memory. (The framework's `broken_line` works on the
//! ×10 scale, so its truncation differs; this one keeps 1.11's.)

use alloc::vec::Vec;

use crate::schedule::plugins::node_resources_fit::{allocatable_and_requested, Resource};
use crate::schedule::snapshot::{NodeInfo, PodUsage};

/// The default shape: `(0, 10), (100, 0)` (a least-requested variant).
#[must_use]
pub fn default_shape() -> Vec<(i64, i64)> {
    alloc::vec![(0, 10), (100, 0)]
}

/// The curve at utilisation `p`: flat before the first and after the last point.
#[must_use]
pub fn broken_line(shape: &[(i64, i64)], p: i64) -> i64 {
    let mut previous: Option<(i64, i64)> = None;
    for &(utilization, score) in shape {
        if p <= utilization {
            return match previous {
                None => score,
                Some((u0, s0)) => {
                    let span = utilization - u0;
                    if span == 0 {
                        score
                    } else {
                        s0 + (score - s0) * (p - u0) / span
                    }
                }
            };
        }
        previous = Some((utilization, score));
    }
    previous.map_or(0, |(_, score)| score)
}

fn resource_score(shape: &[(i64, i64)], requested: i64, capacity: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return broken_line(shape, 100);
    }
    broken_line(
        shape,
        100 - capacity.saturating_sub(requested).saturating_mul(100) / capacity,
    )
}

/// The node's score.
#[must_use]
pub fn score(shape: &[(i64, i64)], node: &NodeInfo<'_>, pod: &PodUsage) -> i64 {
    let (cpu_capacity, cpu) = allocatable_and_requested(node, pod, &Resource::Cpu, false);
    let (memory_capacity, memory) = allocatable_and_requested(node, pod, &Resource::Memory, false);
    (resource_score(shape, cpu, cpu_capacity) + resource_score(shape, memory, memory_capacity)) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_interpolates_on_the_raw_scale() {
        let shape = [(10, 1), (30, 5), (70, 2)];
        assert_eq!(broken_line(&shape, 0), 1);
        assert_eq!(broken_line(&shape, 20), 3);
        assert_eq!(broken_line(&shape, 50), 4); // 5 + (-3 * 20) / 40 = 5 - 1
        assert_eq!(broken_line(&shape, 100), 2);
        assert_eq!(broken_line(&default_shape(), 25), 8); // 10 - 250/100 → 10 - 2
    }

    /// The Policy's key is `shape`: n1 is 1/8 used and n2 1/4 under the pod, which this
    /// curve scores 1 and 2 (weighted 2 and 4).
    #[test]
    fn the_policy_names_the_curve_shape() {
        use crate::schedule::testing::{node, schedule, scores};
        use crate::schedule::Version;
        let yaml = alloc::string::String::from(
            "apiVersion: v1\nkind: Policy\npriorities:\n- name: RequestedToCapacityRatioPriority\n  weight: 2\n  argument: {requestedToCapacityRatioArguments: {shape: [{utilization: 0, score: 0}, {utilization: 50, score: 7}]}}\n",
        ) + &node("n1", 4000, 8 << 30, "")
            + &node("n2", 2000, 8 << 30, "")
            + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]}\n";
        let result = schedule(&yaml, Version::Legacy);
        let placement = &result.pods[0];
        assert_eq!(
            scores(placement, "RequestedToCapacityRatioPriority"),
            [("n1".into(), 1), ("n2".into(), 2)]
        );
        assert_eq!(placement.node.as_deref(), Some("n2"));
    }
}
