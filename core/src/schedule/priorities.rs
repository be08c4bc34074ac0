//! The Kubernetes 1.11 priorities, one file each, named after upstream
//! (`pkg/scheduler/algorithm/priorities/`). Every priority scores only the nodes that
//! passed the predicates, 0–[`MAX_PRIORITY`].

pub mod balanced_resource_allocation;
pub mod equal;
pub mod image_locality;
pub mod interpod_affinity;
pub mod least_requested;
pub mod most_requested;
pub mod node_affinity;
pub mod node_label;
pub mod node_prefer_avoid_pods;
pub mod requested_to_capacity_ratio;
pub mod selector_spreading;
pub mod taint_toleration;

use alloc::vec::Vec;

use super::legacy::{PriorityKind, MAX_PRIORITY};
use super::predicates::Pod;
use super::snapshot::{NodeInfo, Snapshot};

/// Scores of one priority over the feasible nodes (in `feasible` order).
#[must_use]
pub fn evaluate(
    kind: &PriorityKind,
    pod: &Pod<'_>,
    snapshot: &Snapshot<'_>,
    feasible: &[usize],
    hard_pod_affinity_weight: i64,
) -> Vec<i64> {
    let infos: Vec<&NodeInfo<'_>> = feasible
        .iter()
        .filter_map(|&node| snapshot.nodes.get(node))
        .collect();
    let per_node =
        |score: &dyn Fn(&NodeInfo<'_>) -> i64| infos.iter().map(|info| score(info)).collect();
    let object = pod.pod();
    match kind {
        PriorityKind::SelectorSpread | PriorityKind::ServiceSpreading => {
            let selectors = selector_spreading::selectors(snapshot.cluster, object);
            selector_spreading::spread(&selectors, object, snapshot, &infos)
        }
        PriorityKind::ServiceAntiAffinity(label) => {
            selector_spreading::service_anti_affinity(label, pod, snapshot, &infos)
        }
        PriorityKind::InterPodAffinity => pod
            .affinity_scores(snapshot, hard_pod_affinity_weight)
            .scores(&infos),
        PriorityKind::LeastRequested => {
            per_node(&|info| least_requested::score(info, &pod.request))
        }
        PriorityKind::MostRequested => per_node(&|info| most_requested::score(info, &pod.request)),
        PriorityKind::BalancedResourceAllocation => {
            per_node(&|info| balanced_resource_allocation::score(info, &pod.request))
        }
        PriorityKind::RequestedToCapacityRatio(shape) => {
            per_node(&|info| requested_to_capacity_ratio::score(shape, info, &pod.request))
        }
        PriorityKind::NodePreferAvoidPods => {
            per_node(&|info| node_prefer_avoid_pods::score(object, info.node))
        }
        PriorityKind::NodeAffinity => node_affinity::scores(object, &infos),
        PriorityKind::TaintToleration => taint_toleration::scores(object, &infos),
        PriorityKind::Equal => per_node(&|_| equal::SCORE),
        PriorityKind::ImageLocality => per_node(&|info| image_locality::score(object, info.node)),
        PriorityKind::NodeLabel(label, presence) => {
            per_node(&|info| node_label::score(label, *presence, info.node))
        }
    }
}

/// `MaxPriority` as a float, for the priorities that compute in floating point.
#[allow(clippy::cast_precision_loss)]
const MAX_PRIORITY_F64: f64 = MAX_PRIORITY as f64;

/// Go's `int(f)`: truncation toward zero.
#[allow(clippy::cast_possible_truncation)]
fn truncate(value: f64) -> i64 {
    value as i64
}

#[cfg(test)]
pub(crate) mod testing {
    //! Runs one priority over every node of a test cluster (all feasible).

    use alloc::vec::Vec;

    use crate::cluster::Cluster;
    use crate::schedule::legacy::PriorityKind;
    use crate::schedule::predicates::Pod;
    use crate::schedule::snapshot::{Accounting, Snapshot};

    /// Scores of `kind` for the pod at `incoming`, every node feasible.
    pub fn run(
        kind: &PriorityKind,
        cluster: &Cluster,
        incoming: usize,
        hard_weight: i64,
    ) -> Vec<i64> {
        let snapshot = Snapshot::new(cluster, Accounting::Legacy);
        let pod = Pod::new(&snapshot, &cluster.pods[incoming], false, false, &[]);
        let feasible: Vec<usize> = (0..cluster.nodes.len()).collect();
        super::evaluate(kind, &pod, &snapshot, &feasible, hard_weight)
    }

    /// The `cpuOnly` pod of 1.11's resource priority tests: two containers asking for
    /// 1000m and 2000m of CPU.
    pub fn cpu_only(name: &str) -> crate::model::Pod {
        crate::schedule::predicates::testing::pod(
            name,
            &[(Some("1000m"), Some("0")), (Some("2000m"), Some("0"))],
        )
    }

    /// The `cpuAndMemory` pod of the same tests: 1000m/2000 and 2000m/3000.
    pub fn cpu_and_memory(name: &str) -> crate::model::Pod {
        crate::schedule::predicates::testing::pod(
            name,
            &[(Some("1000m"), Some("2000")), (Some("2000m"), Some("3000"))],
        )
    }
}
