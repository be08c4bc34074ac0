//! LowNodeUtilization: evicts pods from overutilized nodes while underutilized nodes have
//! room for them.
//!
//! Upstream: `pkg/descheduler/strategies/lownodeutilization.go` of `openshift/descheduler`
//! `v3.11.0` (`kubernetes-incubator/descheduler` `v0.5.0`).
//!
//! - Parameters (`nodeResourceUtilizationThresholds`): `thresholds` must be non-empty and
//!   name only `cpu`, `memory` and `pods`; `targetThresholds` must be present and name
//!   `pods`. Otherwise the strategy does nothing (upstream only logs it). Values are not
//!   range-checked and `targetThresholds` may name other resources, which are ignored.
//! - Usage of each ready node, in percent of allocatable (capacity when allocatable is
//!   empty): summed cpu and memory requests of every pod on the node (1.9's
//!   `PodRequestsAndLimits`; BestEffort pods add nothing) and the number of pods, all pods
//!   counted, evictable or not.
//! - A node is underutilized when it is not cordoned and no resource named in
//!   `thresholds` is above its threshold; otherwise overutilized when some resource named
//!   in `targetThresholds` is above its target; otherwise appropriately utilized.
//! - Nothing happens when no node is underutilized, fewer than `numberOfNodes` are, every
//!   node is, or none is overutilized.
//! - The room on the underutilized nodes is the sum of `(target - usage)% × allocatable`
//!   for pods, and for cpu and memory when they have a target.
//! - Overutilized nodes are taken from the highest summed cpu + memory + pods percentage
//!   down; on each, the evictable BestEffort pods, then Burstable, then Guaranteed (1.9
//!   QoS classes) are evicted in list order; each eviction takes the pod's requests off
//!   the node's usage and the room. A class is entered only while the node is above a
//!   target and some room (pods, cpu or memory) is left; the walk stops once the node is
//!   no longer above any target or no room of any kind is left.
//!
//! Example: thresholds `cpu: 20, pods: 20`, targets `cpu: 50, pods: 50`; node A at 10% cpu
//! and 5% pods is underutilized, node B at 80% cpu is overutilized, and B's BestEffort
//! pods go first.
//!
//! Differences:
//! - pods are ordered by QoS class only: ordering by priority came later upstream
//!   (`kubernetes-sigs/descheduler` pull 105, August 2018, which the `v0.8.0` research
//!   notes describe);
//! - upstream lists nodes from a Go map, so its node order (and the order of overutilized
//!   nodes with equal sums, sorted by an unstable sort) is random; kubefit keeps input
//!   order and sorts stably, NaN sums last;
//! - the OpenShift 3.11 documentation says `numberOfNodes` activates the strategy "when
//!   the number of underutilized nodes is above the configured value": the code runs it
//!   when the number is at least that value;
//! - it calls a node underutilized when "below all these thresholds": usage equal to a
//!   threshold counts too, and resources without a threshold are not looked at; a node is
//!   overutilized as soon as one resource is above its target, not only when all are.

use alloc::string::String;
use alloc::vec::Vec;

use super::{
    node, pods, Context, NodeClass, NodeUtilization, Room, StrategyRun, Usage, Utilization, Verdict,
};
use crate::cluster::PodEntry;
use crate::model::{DeschedulerStrategy, Node, ResourceList};
use crate::quantity::{Format, Quantity};
use crate::report::words::Words;
use crate::resources::{saturating_add, saturating_sub, QosClass};

/// The strategy name in the policy.
pub(super) const NAME: &str = "LowNodeUtilization";

/// The resources the strategy knows.
const RESOURCES: [&str; 3] = ["cpu", "memory", "pods"];

/// A threshold map (`ResourceThresholds`).
type Thresholds = alloc::collections::BTreeMap<String, f64>;

/// `validateThresholds`: why the thresholds are not usable, in upstream's words.
pub(super) fn thresholds_problem(thresholds: &Thresholds) -> Option<&'static str> {
    if thresholds.is_empty() {
        return Some("no resource threshold is configured");
    }
    if thresholds
        .keys()
        .any(|name| !RESOURCES.contains(&name.as_str()))
    {
        return Some("only cpu, memory, or pods thresholds can be specified");
    }
    None
}

/// `validateTargetThresholds`: why the targets are not usable, in upstream's words.
pub(super) fn targets_problem(targets: Option<&Thresholds>) -> Option<&'static str> {
    match targets {
        None => Some("no target resource threshold is configured"),
        Some(targets) if !targets.contains_key("pods") => {
            Some("no target resource threshold for pods is configured")
        }
        Some(_) => None,
    }
}

/// One ready node as the strategy sees it.
struct NodeUsage<'a> {
    position: usize,
    node: &'a Node,
    usage: Usage,
    /// Evictable pods by 1.9 QoS class: BestEffort, Burstable, Guaranteed.
    classes: [Vec<usize>; 3],
}

/// Runs the strategy.
pub(super) fn run(
    context: &mut Context<'_>,
    strategy: &DeschedulerStrategy,
    report: &mut StrategyRun,
) {
    let parameters = &strategy.params.node_resource_utilization_thresholds;
    let thresholds = &parameters.thresholds;
    let targets = parameters.target_thresholds.as_ref();
    if let Some(problem) = thresholds_problem(thresholds).or_else(|| targets_problem(targets)) {
        report.skip(problem);
        return;
    }
    let Some(targets) = targets else {
        return;
    };

    let requested = context
        .requested
        .take()
        .unwrap_or_else(|| Requested::gather(context));
    let usages: Vec<NodeUsage<'_>> = (0..context.nodes.len())
        .filter_map(|position| node_usage(context, &requested, position))
        .collect();
    let mut low = Vec::new();
    let mut high = Vec::new();
    let mut utilization = Utilization::default();
    for (at, usage) in usages.iter().enumerate() {
        let class = if !usage.node.spec.unschedulable && is_low(&usage.usage, thresholds) {
            low.push(at);
            NodeClass::Underutilized
        } else if is_above_target(&usage.usage, targets) {
            high.push(at);
            NodeClass::Overutilized
        } else {
            NodeClass::AppropriatelyUtilized
        };
        utilization.nodes.push(NodeUtilization {
            node: usage.node.metadata.name.clone(),
            class,
            usage: usage.usage,
            unschedulable: usage.node.spec.unschedulable,
            usage_after: None,
        });
    }

    let wanted = parameters.number_of_nodes;
    let stop = if low.is_empty() {
        Some(String::from(
            "No node is underutilized, nothing to do here, you might tune your thersholds further",
        ))
    } else if i64::try_from(low.len()).unwrap_or(i64::MAX) < wanted {
        Some(alloc::format!(
            "number of nodes underutilized ({}) is less than NumberOfNodes ({wanted}), nothing to do here",
            low.len()
        ))
    } else if low.len() == context.nodes.len() {
        Some(String::from(
            "all nodes are underutilized, nothing to do here",
        ))
    } else if high.is_empty() {
        Some(String::from(
            "all nodes are under target utilization, nothing to do here",
        ))
    } else {
        None
    };
    if let Some(stop) = stop {
        report.skip(stop);
        report.utilization = Some(utilization);
        return;
    }

    let mut room = Room::default();
    for &at in &low {
        let Some(usage) = usages.get(at) else {
            continue;
        };
        let capacity = node::capacity(usage.node);
        let pods_target = targets.get("pods").copied().unwrap_or(0.0);
        room.pods += (pods_target - usage.usage.pods) * pods_capacity(capacity) / 100.0;
        if let Some(&cpu_target) = targets.get("cpu") {
            room.cpu += (cpu_target - usage.usage.cpu) * cpu_capacity(capacity) / 100.0;
        }
        if let Some(&memory_target) = targets.get("memory") {
            room.memory += (memory_target - usage.usage.memory) * memory_capacity(capacity) / 100.0;
        }
    }
    utilization.room = Some(room);

    // `SortNodesByUsage`: highest summed percentage first.
    high.sort_by(|&a, &b| {
        let sum = |at: usize| {
            usages
                .get(at)
                .map_or(f64::NAN, |u| u.usage.cpu + u.usage.memory + u.usage.pods)
        };
        let (a, b) = (sum(a), sum(b));
        a.is_nan().cmp(&b.is_nan()).then_with(|| b.total_cmp(&a))
    });
    for &at in &high {
        let Some(usage) = usages.get(at) else {
            continue;
        };
        let after = evict_from_node(context, usage, targets, &mut room, report);
        if let Some(row) = utilization.nodes.get_mut(at) {
            row.usage_after = Some(after);
        }
    }
    report.utilization = Some(utilization);
}

/// What the strategy reads of the pods on the ready nodes: each pod's QoS class and each
/// node's summed requests. Gathered in the pass that lists the pods ([`Context::new`]),
/// while each pod is at hand, rather than in a walk of its own over every pod again.
pub(super) struct Requested {
    /// Per pod index, its 1.9 QoS class (`None` for pods not on a ready node).
    qos: Vec<Option<QosClass>>,
    /// Per ready node, the summed cpu and memory requests of its pods.
    per_node: Vec<(Quantity, Quantity)>,
}

impl Requested {
    /// Room for `pods` pods on `nodes` ready nodes, nothing counted yet.
    pub(super) fn new(pods: usize, nodes: usize) -> Self {
        Self {
            qos: alloc::vec![None; pods],
            per_node: alloc::vec![(Quantity::zero(), Quantity::zero()); nodes],
        }
    }

    /// Counts the pod at `index` on the ready node at `position` (pods in list order).
    pub(super) fn add(&mut self, index: usize, entry: &PodEntry, position: usize) {
        let class = pods::qos(entry);
        if let Some(slot) = self.qos.get_mut(index) {
            *slot = Some(class);
        }
        self.count(class, entry, position, saturating_add);
    }

    /// Takes back what [`Requested::add`] counted for a pod gone from the node.
    pub(super) fn remove(&mut self, index: usize, entry: &PodEntry, position: usize) {
        if let Some(class) = self.qos.get_mut(index).and_then(Option::take) {
            self.count(class, entry, position, saturating_sub);
        }
    }

    /// Adds (or, with `saturating_sub`, takes) a pod's cpu and memory requests to its
    /// node's sums.
    fn count(
        &mut self,
        class: QosClass,
        entry: &PodEntry,
        position: usize,
        apply: fn(Quantity, Quantity) -> Quantity,
    ) {
        // Upstream skips BestEffort pods before adding requests.
        if class == QosClass::BestEffort {
            return;
        }
        let Some((cpu, memory)) = self.per_node.get_mut(position) else {
            return;
        };
        // The same sums from the numbers the pod's entry keeps, without its request list.
        if entry.footprint.plain {
            let requested = &entry.footprint.usage.requested;
            *cpu = apply(
                *cpu,
                Quantity::from_milli(requested.milli_cpu, Format::DecimalSi),
            );
            *memory = apply(
                *memory,
                Quantity::from_value(requested.memory, Format::BinarySi),
            );
            return;
        }
        let requests = pods::requests(entry);
        if let Some(request) = requests.get("cpu") {
            *cpu = apply(*cpu, *request);
        }
        if let Some(request) = requests.get("memory") {
            *memory = apply(*memory, *request);
        }
    }

    /// Every pod on the ready nodes counted (for a context made without them).
    fn gather(context: &Context<'_>) -> Self {
        let mut requested = Self::new(context.pods.len(), context.nodes.len());
        for position in 0..context.nodes.len() {
            for &index in context.pods_on(position) {
                if let Some(entry) = context.pods.get(index) {
                    requested.add(index, entry, position);
                }
            }
        }
        requested
    }
}

/// `NodeUtilization` for one ready node.
fn node_usage<'a>(
    context: &Context<'a>,
    requested: &Requested,
    position: usize,
) -> Option<NodeUsage<'a>> {
    let node = *context.nodes.get(position)?;
    let on_node = context.pods_on(position);
    let mut classes: [Vec<usize>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for &index in on_node {
        if !context.is_evictable(index) {
            continue;
        }
        let slot = match requested.qos.get(index).copied().flatten() {
            Some(QosClass::BestEffort) => 0,
            Some(QosClass::Burstable) => 1,
            Some(QosClass::Guaranteed) => 2,
            None => continue,
        };
        if let Some(list) = classes.get_mut(slot) {
            list.push(index);
        }
    }
    let (cpu, memory) = requested
        .per_node
        .get(position)
        .copied()
        .unwrap_or((Quantity::zero(), Quantity::zero()));
    let capacity = node::capacity(node);
    #[allow(clippy::cast_precision_loss)]
    let usage = Usage {
        cpu: cpu.milli_value() as f64 * 100.0 / cpu_capacity(capacity),
        memory: memory.value() as f64 / memory_capacity(capacity) * 100.0,
        pods: on_node.len() as f64 * 100.0 / pods_capacity(capacity),
    };
    Some(NodeUsage {
        position,
        node,
        usage,
        classes,
    })
}

#[allow(clippy::cast_precision_loss)]
fn cpu_capacity(capacity: &ResourceList) -> f64 {
    capacity.get("cpu").map_or(0, Quantity::milli_value) as f64
}

#[allow(clippy::cast_precision_loss)]
fn memory_capacity(capacity: &ResourceList) -> f64 {
    capacity.get("memory").map_or(0, Quantity::value) as f64
}

#[allow(clippy::cast_precision_loss)]
fn pods_capacity(capacity: &ResourceList) -> f64 {
    capacity.get("pods").map_or(0, Quantity::value) as f64
}

fn usage_of(usage: &Usage, name: &str) -> f64 {
    match name {
        "cpu" => usage.cpu,
        "memory" => usage.memory,
        _ => usage.pods,
    }
}

/// `IsNodeWithLowUtilization`: no resource named in `thresholds` is above it.
fn is_low(usage: &Usage, thresholds: &Thresholds) -> bool {
    !RESOURCES.iter().any(|name| {
        thresholds
            .get(*name)
            .is_some_and(|&threshold| usage_of(usage, name) > threshold)
    })
}

/// `IsNodeAboveTargetUtilization`: some resource named in `targets` is above it.
fn is_above_target(usage: &Usage, targets: &Thresholds) -> bool {
    RESOURCES.iter().any(|name| {
        targets
            .get(*name)
            .is_some_and(|&target| usage_of(usage, name) > target)
    })
}

/// `evictPods` for each QoS class of one overutilized node; returns the node's usage at
/// the end.
fn evict_from_node(
    context: &mut Context<'_>,
    node: &NodeUsage<'_>,
    targets: &Thresholds,
    room: &mut Room,
    report: &mut StrategyRun,
) -> Usage {
    let capacity = node::capacity(node.node);
    let (cpu_capacity, memory_capacity, pods_capacity) = (
        cpu_capacity(capacity),
        memory_capacity(capacity),
        pods_capacity(capacity),
    );
    let one_pod = 100.0 / pods_capacity;
    let position = node.position;
    let mut usage = node.usage;
    for class in &node.classes {
        if !is_above_target(&usage, targets) {
            keep_all(
                context,
                class,
                position,
                "node is no longer above target utilization",
                report,
            );
            continue;
        }
        if !has_room(room) {
            keep_all(
                context,
                class,
                position,
                "underutilized nodes have no room left",
                report,
            );
            continue;
        }
        let mut stopped: Option<&'static str> = None;
        for &index in class {
            if let Some(why) = stopped {
                report
                    .pods
                    .push(context.decision(index, position, Verdict::Kept, why));
                continue;
            }
            if context.limit_reached(position) {
                report.pods.push(context.limited(index, position));
                continue;
            }
            let (cpu, memory) = context.pod(index).map_or((0, 0), |pod| {
                (
                    pods::resource_request(&pod.spec, "cpu"),
                    pods::resource_request(&pod.spec, "memory"),
                )
            });
            let attempt = context.evict(index, position, NAME);
            report.pods.push(context.attempt_decision(
                index,
                position,
                &attempt,
                Words::Fixed("node above target utilization"),
            ));
            if !attempt.succeeded() {
                continue;
            }
            report.evicted = report.evicted.saturating_add(1);
            #[allow(clippy::cast_precision_loss)]
            let (cpu, memory) = (cpu as f64, memory as f64);
            usage.pods -= one_pod;
            room.pods -= 1.0;
            room.cpu -= cpu;
            usage.cpu -= cpu * 100.0 / cpu_capacity;
            room.memory -= memory;
            usage.memory -= memory / memory_capacity * 100.0;
            if !is_above_target(&usage, targets) {
                stopped = Some("node is no longer above target utilization");
            } else if room.pods <= 0.0 && room.cpu <= 0.0 && room.memory <= 0.0 {
                stopped = Some("underutilized nodes have no room left");
            }
        }
    }
    usage
}

/// Some room of any kind is left (`totalPods > 0 || totalCpu > 0 || totalMem > 0`).
fn has_room(room: &Room) -> bool {
    room.pods > 0.0 || room.cpu > 0.0 || room.memory > 0.0
}

fn keep_all(
    context: &mut Context<'_>,
    pods: &[usize],
    position: usize,
    why: &'static str,
    report: &mut StrategyRun,
) {
    for &index in pods {
        report
            .pods
            .push(context.decision(index, position, Verdict::Kept, why));
    }
}

#[cfg(test)]
mod tests {
    use alloc::collections::BTreeMap;
    use alloc::string::{String, ToString};
    use alloc::vec;
    use alloc::vec::Vec;

    use super::*;
    use crate::descheduler::pods::testing::{
        build_node, build_pod, critical, daemon_set_owner, mirror, normal_owner, replica_set_owner,
        with_local_storage,
    };
    use crate::descheduler::testing::strategy;
    use crate::descheduler::StrategyStatus;
    use crate::model::{Pod, StrategyParameters};

    fn map(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
        pairs.iter().map(|(k, v)| (String::from(*k), *v)).collect()
    }

    fn policy(
        thresholds: &[(&str, f64)],
        targets: Option<&[(&str, f64)]>,
        nodes: i64,
    ) -> DeschedulerStrategy {
        let mut strategy = DeschedulerStrategy {
            enabled: true,
            ..DeschedulerStrategy::default()
        };
        let params: &mut StrategyParameters = &mut strategy.params;
        params.node_resource_utilization_thresholds.thresholds = map(thresholds);
        params
            .node_resource_utilization_thresholds
            .target_thresholds = targets.map(map);
        params.node_resource_utilization_thresholds.number_of_nodes = nodes;
        strategy
    }

    /// The pods of `TestLowNodeUtilization` (`strategies/lownodeutilization_test.go`):
    /// n1 (9 pods max) holds five ReplicaSet pods and three protected ones, n2 one pod,
    /// n3 is cordoned and empty.
    fn upstream_cluster() -> (Vec<Node>, Vec<Pod>) {
        let n1 = build_node("n1", 4000, 3000, 9);
        let n2 = build_node("n2", 4000, 3000, 10);
        let mut n3 = build_node("n3", 4000, 3000, 10);
        n3.spec.unschedulable = true;
        let mut pods: Vec<Pod> = (1..=5)
            .map(|i| replica_set_owner(build_pod(&alloc::format!("p{i}"), 400, 0, "n1")))
            .collect();
        pods.push(daemon_set_owner(build_pod("p6", 400, 0, "n1")));
        pods.push(mirror(with_local_storage(normal_owner(build_pod(
            "p7", 400, 0, "n1",
        )))));
        let mut p8 = critical(build_pod("p8", 400, 0, "n1"));
        p8.metadata.namespace = "kube-system".into();
        pods.push(p8);
        pods.push(replica_set_owner(build_pod("p9", 400, 0, "n2")));
        (vec![n1, n2, n3], pods)
    }

    /// `TestLowNodeUtilization`: with 3 as the node limit, 3 pods are evicted (the
    /// version without a limit expects 4); the cordoned n3 is not underutilized.
    #[test]
    fn low_node_utilization() {
        let thresholds = [("cpu", 30.0), ("pods", 30.0)];
        let targets = [("cpu", 50.0), ("pods", 50.0)];
        let (nodes, pods) = upstream_cluster();
        let config = policy(&thresholds, Some(&targets), 0);
        let (report, evicted) = strategy(NAME, Some(&config), nodes.clone(), pods.clone(), 3);
        assert_eq!(evicted, [0, 1, 2]);
        let classes: Vec<NodeClass> = report
            .utilization
            .as_ref()
            .map(|u| u.nodes.iter().map(|n| n.class).collect())
            .unwrap_or_default();
        assert_eq!(
            classes,
            [
                NodeClass::Overutilized,
                NodeClass::Underutilized,
                NodeClass::AppropriatelyUtilized
            ]
        );
        let (report, evicted) = strategy(NAME, Some(&config), nodes, pods, 0);
        assert_eq!(evicted, [0, 1, 2, 3]);
        assert_eq!(report.evicted, 4);
        let last = report.pods.last().map(|d| (d.pod.to_string(), d.verdict));
        assert_eq!(last, Some((String::from("default/p5"), Verdict::Kept)));
    }

    /// `TestValidateThresholds`.
    #[test]
    fn validate_thresholds() {
        assert!(thresholds_problem(&map(&[])).is_some(), "no threshold");
        assert!(thresholds_problem(&map(&[("cpu", 40.0), ("storage", 25.5)])).is_some());
        assert!(thresholds_problem(&map(&[("cpu", 40.0), ("coolResource", 42.0)])).is_some());
        assert!(
            thresholds_problem(&map(&[("cpu", 20.0), ("memory", 30.0), ("pods", 40.0)])).is_none()
        );
    }

    /// `controllers-semantics.md` §8.2 `ds08-lnu-validate`: without `pods` in the targets
    /// `v3.11.0` silently does nothing.
    #[test]
    fn targets_without_pods_skip_the_strategy() {
        let (nodes, pods) = upstream_cluster();
        let config = policy(&[("cpu", 20.0)], Some(&[("cpu", 50.0)]), 0);
        let (report, evicted) = strategy(NAME, Some(&config), nodes, pods, 0);
        assert!(evicted.is_empty());
        assert_eq!(report.status, StrategyStatus::Skipped);
        assert_eq!(
            report.note.as_deref(),
            Some("no target resource threshold for pods is configured")
        );
        assert!(targets_problem(None).is_some());
    }

    /// `controllers-semantics.md` §8.2 `ds08-lnu-1`, minus what `v0.8.0` added: A is
    /// underutilized, B overutilized, C between; B's BestEffort pod goes first, then its
    /// Burstable pods, until its cpu is at the target.
    #[test]
    fn reference_case() {
        let gib = 1i64 << 30;
        let thresholds = [("cpu", 20.0), ("memory", 20.0), ("pods", 20.0)];
        let targets = [("cpu", 50.0), ("memory", 50.0), ("pods", 50.0)];
        let nodes = vec![
            build_node("A", 4000, 8 * gib, 110),
            build_node("B", 4000, 8 * gib, 110),
            build_node("C", 4000, 8 * gib, 10),
        ];
        let mut pods = vec![];
        for i in 0..5 {
            pods.push(replica_set_owner(build_pod(
                &alloc::format!("a{i}"),
                80,
                gib / 6,
                "A",
            )));
        }
        let mut p1 = replica_set_owner(build_pod("p1", -1, -1, "B"));
        p1.spec.containers[0].resources = Default::default();
        pods.push(p1);
        pods.push(replica_set_owner(build_pod("p2", 1000, gib, "B")));
        pods.push(replica_set_owner(build_pod("p3", 1000, gib, "B")));
        let mut p4 = replica_set_owner(build_pod("p4", 1200, gib, "B"));
        p4.spec.containers[0].resources.limits = p4.spec.containers[0].resources.requests.clone();
        pods.push(p4);
        for i in 0..3 {
            pods.push(replica_set_owner(build_pod(
                &alloc::format!("c{i}"),
                400,
                gib * 8 / 10,
                "C",
            )));
        }
        let config = policy(&thresholds, Some(&targets), 0);
        let (report, evicted) = strategy(NAME, Some(&config), nodes, pods, 0);
        let classes: Vec<NodeClass> = report
            .utilization
            .as_ref()
            .map(|u| u.nodes.iter().map(|n| n.class).collect())
            .unwrap_or_default();
        assert_eq!(
            classes,
            [
                NodeClass::Underutilized,
                NodeClass::Overutilized,
                NodeClass::AppropriatelyUtilized
            ]
        );
        // p1 (BestEffort), p2 and p3 (Burstable): cpu 80% → 55% → 30%.
        assert_eq!(evicted, [5, 6, 7]);
        let after = report
            .utilization
            .as_ref()
            .and_then(|u| u.nodes.get(1))
            .and_then(|n| n.usage_after);
        assert!(after.is_some_and(|u| (u.cpu - 30.0).abs() < 1e-9));
    }

    /// Usage sums the requests as quantities before rounding (`PodRequestsAndLimits`, then
    /// `MilliValue`): four pods of 250 microcores use 1 millicore, not 4. Pods in whole
    /// millicores are summed from their entry's numbers; these are not.
    #[test]
    fn usage_sums_requests_before_rounding() {
        let nodes = vec![
            build_node("A", 4000, 1 << 30, 110),
            build_node("B", 4000, 1 << 30, 110),
        ];
        let pods = (0..4)
            .map(|i| {
                let mut pod = replica_set_owner(build_pod(&alloc::format!("p{i}"), -1, 100, "A"));
                pod.spec.containers[0]
                    .resources
                    .requests
                    .insert("cpu".into(), Quantity::parse("250u").unwrap());
                pod
            })
            .chain([replica_set_owner(build_pod("q", 40, 100, "B"))])
            .collect();
        let config = policy(
            &[("cpu", 20.0), ("pods", 20.0)],
            Some(&[("cpu", 50.0), ("pods", 50.0)]),
            0,
        );
        let (report, _) = strategy(NAME, Some(&config), nodes, pods, 0);
        let cpu: Vec<f64> = report
            .utilization
            .as_ref()
            .map(|u| u.nodes.iter().map(|n| n.usage.cpu).collect())
            .unwrap_or_default();
        assert_eq!(cpu, [1.0 * 100.0 / 4000.0, 40.0 * 100.0 / 4000.0]);
    }

    #[test]
    fn number_of_nodes_needs_that_many_underutilized_nodes() {
        let (nodes, pods) = upstream_cluster();
        let config = policy(
            &[("cpu", 30.0), ("pods", 30.0)],
            Some(&[("cpu", 50.0), ("pods", 50.0)]),
            2,
        );
        let (report, evicted) = strategy(NAME, Some(&config), nodes.clone(), pods.clone(), 0);
        assert!(evicted.is_empty());
        assert_eq!(
            report.note.as_deref(),
            Some("number of nodes underutilized (1) is less than NumberOfNodes (2), nothing to do here")
        );
        let config = policy(
            &[("cpu", 30.0), ("pods", 30.0)],
            Some(&[("cpu", 50.0), ("pods", 50.0)]),
            1,
        );
        let (_, evicted) = strategy(NAME, Some(&config), nodes, pods, 0);
        assert_eq!(
            evicted.len(),
            4,
            "one underutilized node is enough for numberOfNodes 1"
        );
    }

    #[test]
    fn the_busiest_node_goes_first_and_the_room_is_shared() {
        let nodes = vec![
            build_node("low", 1000, 1000, 2),
            build_node("h1", 4000, 1000, 10),
            build_node("h2", 4000, 1000, 10),
        ];
        let mut pods: Vec<Pod> = (0..2)
            .map(|i| replica_set_owner(build_pod(&alloc::format!("a{i}"), 1200, 0, "h1")))
            .collect();
        pods.extend(
            (0..4).map(|i| replica_set_owner(build_pod(&alloc::format!("b{i}"), 900, 0, "h2"))),
        );
        let config = policy(
            &[("cpu", 10.0), ("pods", 10.0)],
            Some(&[("cpu", 50.0), ("pods", 50.0)]),
            0,
        );
        let (report, evicted) = strategy(NAME, Some(&config), nodes, pods, 0);
        // Room: 1 pod and 500m. h2 (90% cpu) goes before h1 (60%); one eviction uses up
        // the room, so h1 keeps its pods.
        assert_eq!(evicted, [2]);
        let room = report.utilization.as_ref().and_then(|u| u.room);
        assert_eq!(
            room,
            Some(Room {
                pods: 1.0,
                cpu: 500.0,
                memory: 0.0
            })
        );
        let h1: Vec<Verdict> = report
            .pods
            .iter()
            .filter(|d| d.node == "h1")
            .map(|d| d.verdict)
            .collect();
        assert_eq!(h1, [Verdict::Kept, Verdict::Kept]);
    }

    #[test]
    fn a_refusal_leaves_the_pod_and_goes_on() {
        let (nodes, pods) = upstream_cluster();
        let config = policy(
            &[("cpu", 30.0), ("pods", 30.0)],
            Some(&[("cpu", 50.0), ("pods", 50.0)]),
            0,
        );
        let (report, evicted) = crate::descheduler::testing::strategy_refusing(
            NAME,
            Some(&config),
            nodes,
            pods,
            0,
            &[1],
        );
        assert_eq!(evicted, [0, 2, 3, 4]);
        assert!(report.pods.iter().any(|d| d.verdict == Verdict::Refused));
    }
}
