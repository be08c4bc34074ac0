//! NodeResourcesBalancedAllocation: prefer nodes whose resources would be used evenly.
//!
//! Follows `pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go`: the
//! fraction of each resource in use after placing the pod (actual requests, capped at
//! 1, resources the node lacks skipped), and `(1 - standard deviation) * 100` truncated.

use alloc::vec::Vec;

use super::node_resources_fit::{allocatable_and_requested, ScoredResource};
use crate::schedule::snapshot::{NodeInfo, PodUsage};

/// The plugin name.
pub const NAME: &str = "NodeResourcesBalancedAllocation";

/// PreScore: the plugin skips pods that request none of its resources (best-effort
/// pods, kubernetes#129138).
#[must_use]
pub fn skips(resources: &[ScoredResource], pod: &PodUsage) -> bool {
    resources
        .iter()
        .all(|resource| pod.requested.get(resource.resource.name()) == 0)
}

/// How many resources' fractions are kept without allocating.
const INLINE: usize = 8;

/// The node's score, 0–100.
#[must_use]
pub fn score(resources: &[ScoredResource], node: &NodeInfo<'_>, pod: &PodUsage) -> i64 {
    // Profiles score a handful of resources: their fractions stay on the stack (this runs
    // for every pod on every node), and only a longer list spills into a vector.
    let mut inline = [0.0_f64; INLINE];
    let mut spilled: Vec<f64> = Vec::new();
    let mut count = 0_usize;
    for resource in resources {
        let (allocatable, requested) =
            allocatable_and_requested(node, pod, &resource.resource, true);
        if allocatable == 0 {
            continue;
        }
        #[allow(clippy::cast_precision_loss)]
        let fraction = (requested as f64 / allocatable as f64).min(1.0);
        match inline.get_mut(count) {
            Some(slot) => *slot = fraction,
            None => {
                if spilled.is_empty() {
                    spilled.extend_from_slice(&inline);
                }
                spilled.push(fraction);
            }
        }
        count += 1;
    }
    let fractions = if spilled.is_empty() {
        inline.get(..count).unwrap_or_default()
    } else {
        spilled.as_slice()
    };
    let deviation = match fractions {
        [a, b] => crate::math::abs((a - b) / 2.0),
        many if many.len() > 2 => {
            #[allow(clippy::cast_precision_loss)]
            let count = many.len() as f64;
            let mean = many.iter().sum::<f64>() / count;
            let variance = many.iter().map(|f| (f - mean) * (f - mean)).sum::<f64>() / count;
            crate::math::sqrt(variance)
        }
        _ => 0.0,
    };
    #[allow(clippy::cast_possible_truncation)]
    let score = ((1.0 - deviation) * 100.0) as i64;
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Node;
    use crate::schedule::plugins::node_resources_fit::Resource;
    use crate::schedule::resources::Resources;

    fn scored(names: &[&str]) -> Vec<ScoredResource> {
        names
            .iter()
            .map(|name| ScoredResource {
                resource: Resource::named(name),
                weight: 1,
            })
            .collect()
    }

    /// `balanced_allocation_test.go`'s two-resource formula, |cpu − memory| / 2, here with
    /// 3/4 of the cpu and 1/2 of the memory in use: (1 − 0.125) × 100.
    #[test]
    fn two_resources_score_by_half_their_difference() {
        let node = Node::default();
        let info = NodeInfo {
            node: &node,
            allocatable: Resources {
                milli_cpu: 4000,
                memory: 8,
                ..Resources::default()
            },
            allowed_pods: 110,
            requested: Resources {
                milli_cpu: 2000,
                memory: 2,
                ..Resources::default()
            },
            non_zero_milli_cpu: 0,
            non_zero_memory: 0,
            pods: Vec::new(),
            used_ports: Vec::new(),
        };
        let pod = PodUsage {
            requested: Resources {
                milli_cpu: 1000,
                memory: 2,
                ..Resources::default()
            },
            non_zero_milli_cpu: 0,
            non_zero_memory: 0,
        };
        assert_eq!(score(&scored(&["cpu", "memory"]), &info, &pod), 87);
        // More resources than fit on the stack: the same fractions, spilled, five of each;
        // the population deviation of two alternating values is still half their
        // difference.
        let many: Vec<&str> = ["cpu", "memory"].repeat(5);
        assert_eq!(score(&scored(&many), &info, &pod), 87);
        // A resource the node lacks is skipped.
        assert_eq!(score(&scored(&["cpu", "memory", "gpu"]), &info, &pod), 87);
    }
}
