//! NodeResourcesFit: the pod's requests must fit in what the node has left; nodes are
//! scored by how much would be left (LeastAllocated, the default), how much would be used
//! (MostAllocated) or a utilisation curve (RequestedToCapacityRatio).
//!
//! Follows `pkg/scheduler/framework/plugins/noderesources/fit.go`,
//! `resource_allocation.go`, `least_allocated.go`, `most_allocated.go` and
//! `requested_to_capacity_ratio.go`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::schedule::resources::Resources;
use crate::schedule::snapshot::{NodeInfo, PodUsage};
use crate::schedule::status::{Code, Status};

/// The plugin name.
pub const NAME: &str = "NodeResourcesFit";

/// The pod-count reason.
pub const TOO_MANY_PODS: &str = "Too many pods";

/// `ignoredResources` and `ignoredResourceGroups`: extended resources the filter leaves
/// to someone else (an extender, a device plugin that overcommits).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ignored {
    /// Whole resource names (`example.com/foo`).
    pub resources: Vec<String>,
    /// Name prefixes before the `/` (`example.com`).
    pub groups: Vec<String>,
}

impl Ignored {
    /// True when the filter skips `name`. `fitsRequest` asks only about extended
    /// resources (`IsExtendedResourceName`): cpu, hugepages or a `kubernetes.io/` resource
    /// is checked whatever the lists say.
    fn skips(&self, name: &str) -> bool {
        let listed = |list: &[String], wanted: &str| list.iter().any(|entry| entry == wanted);
        (listed(&self.resources, name)
            || name
                .split('/')
                .next()
                .is_some_and(|group| listed(&self.groups, group)))
            && crate::validation::is_extended(name)
    }
}

/// Filter (`fitsRequest`): one reason per resource that does not fit, in upstream's order
/// (pods, cpu, memory, ephemeral-storage, then other resources by name), leaving out
/// the `ignored` extended resources. Resources the pod does not request are not
/// checked, so an overcommitted node still takes a pod that asks for nothing of the
/// overcommitted resource. Since 1.34 (kubernetes#131345) the rejection is
/// unresolvable when some checked request exceeds the node's allocatable on its own,
/// so preemption skips the node; "Too many pods" never is (`fitsRequest` sets no
/// `Unresolvable` for it, even on a node that allows none).
#[must_use]
pub fn filter(request: &Resources, node: &NodeInfo<'_>, ignored: &Ignored) -> Status {
    let mut reasons = Vec::new();
    let mut unresolvable = false;
    let pods = i64::try_from(node.pods.len()).unwrap_or(i64::MAX);
    if pods.saturating_add(1) > node.allowed_pods {
        reasons.push(String::from(TOO_MANY_PODS));
    }
    if !request.is_empty() {
        let named = [
            ("cpu", request.milli_cpu),
            ("memory", request.memory),
            ("ephemeral-storage", request.ephemeral_storage),
        ];
        let scalars = request
            .scalars
            .iter()
            .filter(|(name, _)| !ignored.skips(name))
            .map(|(name, amount)| (name.as_str(), *amount));
        for (name, amount) in named.into_iter().chain(scalars) {
            let allocatable = node.allocatable.get(name);
            if amount > 0 && amount > allocatable.saturating_sub(node.requested.get(name)) {
                reasons.push(alloc::format!("Insufficient {name}"));
                unresolvable |= amount > allocatable;
            }
        }
    }
    if reasons.is_empty() {
        return Status::success();
    }
    Status {
        code: if unresolvable {
            Code::UnschedulableAndUnresolvable
        } else {
            Code::Unschedulable
        },
        reasons,
    }
}

/// How NodeResourcesFit scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Prefer nodes with the most left.
    LeastAllocated,
    /// Prefer nodes with the least left.
    MostAllocated,
    /// Score by a piecewise-linear curve of utilisation (points: utilisation 0–100,
    /// score 0–10).
    RequestedToCapacityRatio(Vec<(i64, i64)>),
}

/// A resource the scores look up on every node: the three a node keeps as fields,
/// resolved from the name once rather than compared on every node, or another by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resource {
    /// `cpu`.
    Cpu,
    /// `memory`.
    Memory,
    /// `ephemeral-storage`.
    EphemeralStorage,
    /// Any other (extended resources, hugepages).
    Scalar(String),
}

impl Resource {
    /// The resource of a name.
    #[must_use]
    pub fn named(name: &str) -> Self {
        match name {
            "cpu" => Self::Cpu,
            "memory" => Self::Memory,
            "ephemeral-storage" => Self::EphemeralStorage,
            other => Self::Scalar(other.into()),
        }
    }

    /// Its name.
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            Self::Cpu => "cpu",
            Self::Memory => "memory",
            Self::EphemeralStorage => "ephemeral-storage",
            Self::Scalar(name) => name,
        }
    }
}

/// A scored resource and its weight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredResource {
    /// The resource.
    pub resource: Resource,
    /// Its weight.
    pub weight: i64,
}

/// The default scored resources: cpu and memory, weight 1 each.
#[must_use]
pub fn default_resources() -> Vec<ScoredResource> {
    alloc::vec![
        ScoredResource {
            resource: Resource::Cpu,
            weight: 1
        },
        ScoredResource {
            resource: Resource::Memory,
            weight: 1
        },
    ]
}

/// `(allocatable, requested after placing the pod)` for one resource, as
/// `calculateResourceAllocatableRequest` computes them: cpu and memory use the non-zero
/// requests unless `use_requested`; a scalar resource the pod does not request is
/// skipped (`(0, 0)`).
#[must_use]
pub fn allocatable_and_requested(
    node: &NodeInfo<'_>,
    pod: &PodUsage,
    resource: &Resource,
    use_requested: bool,
) -> (i64, i64) {
    match resource {
        Resource::Cpu => {
            let (node_cpu, pod_cpu) = if use_requested {
                (node.requested.milli_cpu, pod.requested.milli_cpu)
            } else {
                (node.non_zero_milli_cpu, pod.non_zero_milli_cpu)
            };
            (node.allocatable.milli_cpu, node_cpu.saturating_add(pod_cpu))
        }
        Resource::Memory => {
            let (node_memory, pod_memory) = if use_requested {
                (node.requested.memory, pod.requested.memory)
            } else {
                (node.non_zero_memory, pod.non_zero_memory)
            };
            (
                node.allocatable.memory,
                node_memory.saturating_add(pod_memory),
            )
        }
        Resource::EphemeralStorage => (
            node.allocatable.ephemeral_storage,
            node.requested
                .ephemeral_storage
                .saturating_add(pod.requested.ephemeral_storage),
        ),
        Resource::Scalar(name) => {
            let wanted = pod.requested.get(name);
            let present = node
                .allocatable
                .scalars
                .iter()
                .any(|(scalar, _)| scalar == name);
            if wanted == 0 || !present {
                (0, 0)
            } else {
                (
                    node.allocatable.get(name),
                    node.requested.get(name).saturating_add(wanted),
                )
            }
        }
    }
}

/// The node's score (0–100) under a strategy: the weighted mean of the per-resource
/// scores, skipping resources the node has none of.
#[must_use]
pub fn score(
    strategy: &Strategy,
    resources: &[ScoredResource],
    node: &NodeInfo<'_>,
    pod: &PodUsage,
) -> i64 {
    let mut total = 0i64;
    let mut weights = 0i64;
    for resource in resources {
        let (allocatable, requested) =
            allocatable_and_requested(node, pod, &resource.resource, false);
        if allocatable == 0 {
            continue;
        }
        let resource_score = match strategy {
            Strategy::LeastAllocated => least_requested(requested, allocatable, 100),
            Strategy::MostAllocated => most_requested_clamped(requested, allocatable, 100),
            Strategy::RequestedToCapacityRatio(shape) => {
                let utilisation = if requested > allocatable {
                    100
                } else {
                    requested.saturating_mul(100) / allocatable
                };
                let score = broken_line(shape, utilisation);
                // Only resources that score contribute, weight included.
                if score <= 0 {
                    continue;
                }
                score
            }
        };
        total = total.saturating_add(crate::math::saturating_mul(resource_score, resource.weight));
        weights = weights.saturating_add(resource.weight);
    }
    if weights == 0 {
        0
    } else if matches!(strategy, Strategy::RequestedToCapacityRatio(_)) {
        // `math.Round` of the float quotient: halves away from zero.
        (total.saturating_mul(2).saturating_add(weights)) / weights.saturating_mul(2)
    } else {
        total / weights
    }
}

/// `((capacity - requested) * max) / capacity`, 0 when the capacity is 0 or exceeded.
#[must_use]
pub fn least_requested(requested: i64, capacity: i64, max: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    crate::math::saturating_mul(capacity.saturating_sub(requested), max) / capacity
}

/// 1.11: `(requested * max) / capacity`, 0 when the capacity is 0 or exceeded.
#[must_use]
pub fn most_requested(requested: i64, capacity: i64, max: i64) -> i64 {
    if capacity == 0 || requested > capacity {
        return 0;
    }
    requested.saturating_mul(max) / capacity
}

/// 1.34: the same, but a request above the capacity (possible with the non-zero
/// defaults) counts as the capacity.
#[must_use]
pub fn most_requested_clamped(requested: i64, capacity: i64, max: i64) -> i64 {
    if capacity == 0 {
        return 0;
    }
    requested.min(capacity).saturating_mul(max) / capacity
}

/// A piecewise-linear function through `shape` points `(utilisation, score 0–10)`,
/// scaled to 0–100, flat before the first and after the last point.
#[must_use]
pub fn broken_line(shape: &[(i64, i64)], utilisation: i64) -> i64 {
    let scaled = |score: i64| score.saturating_mul(10);
    let (Some(first), Some(last)) = (shape.first(), shape.last()) else {
        return 0;
    };
    if utilisation <= first.0 {
        return scaled(first.1);
    }
    for pair in shape.windows(2) {
        if let [(u0, s0), (u1, s1)] = pair {
            if utilisation <= *u1 {
                let (s0, s1) = (scaled(*s0), scaled(*s1));
                let span = u1 - u0;
                if span == 0 {
                    return s1;
                }
                return s0 + (s1 - s0) * (utilisation - u0) / span;
            }
        }
    }
    scaled(last.1)
}

#[cfg(test)]
mod tests {
    use super::NAME;
    use crate::schedule::testing::{schedule, scores};
    use crate::schedule::Version;
    use alloc::string::String;

    /// A profile ignoring `example.com/foo` and the `example.org` and `foo.kubernetes.io`
    /// groups, a node with 1 cpu of which 800m is taken, and a pod asking for `requests`.
    fn message(requests: &str) -> Option<String> {
        let yaml = alloc::format!(
            "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeResourcesFit\n    args: {{ignoredResources: [example.com/foo], ignoredResourceGroups: [example.org, foo.kubernetes.io]}}\n\
             ---\napiVersion: v1\nkind: Node\nmetadata: {{name: n1}}\nstatus: {{allocatable: {{cpu: '1', memory: 8Gi, pods: '110'}}}}\n\
             ---\napiVersion: v1\nkind: Pod\nmetadata: {{name: busy, namespace: default}}\nspec:\n  nodeName: n1\n  containers: [{{name: a, image: x, resources: {{requests: {{cpu: 800m}}}}}}]\n\
             ---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n  containers: [{{name: a, image: x, resources: {{requests: {{{requests}}}, limits: {{{requests}}}}}}}]\n"
        );
        schedule(&yaml, Version::Current).pods[0].message.clone()
    }

    /// fit.go `fitsRequest`: ignored extended resources are neither reported nor make
    /// the node unresolvable, so preemption still looks at it; a `kubernetes.io/` resource
    /// is not extended and is checked whatever its group.
    #[test]
    fn ignored_extended_resources_are_not_checked() {
        assert_eq!(
            message("cpu: 500m, example.com/foo: '1', example.org/bar: '2'").as_deref(),
            Some("0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.")
        );
        assert_eq!(
            message("cpu: 100m, example.com/foo: '1', foo.kubernetes.io/bar: '1'").as_deref(),
            Some("0/1 nodes are available: 1 Insufficient foo.kubernetes.io/bar. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.")
        );
        assert_eq!(message("cpu: 100m, example.org/bar: '2'"), None);
    }

    /// types.go `calculateResource`: a bound pod with pod-level requests counts the
    /// 200Mi memory default only if no container and not the pod level asks for memory,
    /// so `b` counts 100Mi as `b2` does and the nodes tie (the incoming pod fills the
    /// defaults per container all the same).
    #[test]
    fn bound_pods_with_pod_level_requests_count_defaults_only_when_missing() {
        let node = |name: &str| {
            alloc::format!("---\napiVersion: v1\nkind: Node\nmetadata: {{name: {name}}}\nstatus: {{allocatable: {{cpu: '4', memory: 4Gi, pods: '110'}}}}\n")
        };
        let yaml = node("n1")
            + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: b, namespace: default}\nspec:\n  nodeName: n1\n  resources: {requests: {cpu: '1'}}\n  containers:\n  - {name: c1, image: x, resources: {requests: {memory: 100Mi}}}\n  - {name: c2, image: x}\n"
            + &node("n2")
            + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: b2, namespace: default}\nspec:\n  nodeName: n2\n  containers: [{name: c1, image: x, resources: {requests: {cpu: '1', memory: 100Mi}}}]\n\
               ---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers: [{name: a, image: x, resources: {requests: {cpu: '1', memory: 1Gi}}}]\n";
        let result = schedule(&yaml, Version::Current);
        assert_eq!(
            scores(&result.pods[0], NAME),
            [("n1".into(), 61), ("n2".into(), 61)]
        );
    }

    /// helpers.go `IsSupportedPodLevelResource`: pod-level hugepages requests replace the
    /// containers' (none here), as cpu and memory do.
    #[test]
    fn pod_level_hugepages_are_requested() {
        let yaml = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, hugepages-2Mi: 50Mi, pods: '110'}}\n\
             ---\napiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  resources:\n    requests: {cpu: '1', memory: 1Gi, hugepages-2Mi: 100Mi}\n    limits: {cpu: '1', memory: 1Gi, hugepages-2Mi: 100Mi}\n  containers: [{name: a, image: x}]\n";
        assert_eq!(
            schedule(yaml, Version::Current).pods[0].message.as_deref(),
            Some("0/1 nodes are available: 1 Insufficient hugepages-2Mi. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.")
        );
    }
}
