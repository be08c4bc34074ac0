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
        .all(|resource| pod.requested.get(&resource.name) == 0)
}

/// The node's score, 0–100.
#[must_use]
pub fn score(resources: &[ScoredResource], node: &NodeInfo<'_>, pod: &PodUsage) -> i64 {
    let mut fractions: Vec<f64> = Vec::with_capacity(resources.len());
    for resource in resources {
        let (allocatable, requested) = allocatable_and_requested(node, pod, &resource.name, true);
        if allocatable == 0 {
            continue;
        }
        #[allow(clippy::cast_precision_loss)]
        let fraction = (requested as f64 / allocatable as f64).min(1.0);
        fractions.push(fraction);
    }
    let deviation = match fractions.as_slice() {
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
