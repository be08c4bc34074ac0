//! SelectorSpreadPriority, ServiceSpreadingPriority and ServiceAntiAffinity (Policy
//! `serviceAntiAffinity{label}`): spread a group's pods over nodes, zones or label values.
//!
//! Follows 1.11 `selector_spreading.go` and `metadata.go` (`getSelectors`):
//! - the group is every service, ReplicationController, ReplicaSet and StatefulSet whose
//!   selector matches the pod, for ServiceSpreading too (it reads the same priority
//!   metadata, see [`selectors`]); a node's count is its pods in the same namespace, not
//!   terminating, matching any of them;
//! - reduce over the feasible nodes (float, truncated): `10 * (max - count) / max` (10
//!   when no node has a match, so a pod without a group scores 10 everywhere), blended
//!   `1/3 node + 2/3 zone` for nodes with a zone when any feasible node has one (zone key
//!   = region and zone labels);
//! - ServiceAntiAffinity counts pods of the pod's **first** service; nodes without the
//!   label score 0, the others `10 * (total - count(value)) / total` (10 when total is 0).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::{truncate, MAX_PRIORITY_F64};
use crate::cluster::{Cluster, PodState};
use crate::labels;
use crate::model::{LabelSelector, Node, Pod as PodObject, StringMap, WorkloadKind};
use crate::schedule::predicates::{pod_services, Pod};
use crate::schedule::selection;
use crate::schedule::snapshot::{NodeInfo, Snapshot};

/// The zone label (`failure-domain.beta.kubernetes.io/zone`).
pub const ZONE_LABEL: &str = "failure-domain.beta.kubernetes.io/zone";
/// The region label.
pub const REGION_LABEL: &str = "failure-domain.beta.kubernetes.io/region";

/// `zoneWeighting`.
const ZONE_WEIGHTING: f64 = 2.0 / 3.0;

/// A selector of the pod's group.
#[derive(Clone, Debug)]
pub enum Selector<'c> {
    /// A service's or ReplicationController's map selector.
    Map(&'c StringMap),
    /// A ReplicaSet's or StatefulSet's label selector.
    Label(&'c LabelSelector),
    /// The selector of the pod's ReplicaSet that the input does not list
    /// ([`selection::missing_replica_set_selector`]).
    Assumed(LabelSelector),
}

impl Selector<'_> {
    fn matches(&self, labels_of: &StringMap) -> bool {
        match self {
            Self::Map(selector) => labels::map_matches(selector, labels_of),
            Self::Label(selector) => labels::selector_matches(selector, labels_of),
            Self::Assumed(selector) => labels::selector_matches(selector, labels_of),
        }
    }
}

/// The selectors of the pod's group (1.11 `getSelectors`): its Services', and the
/// selectors of the RCs, ReplicaSets and StatefulSets that match its labels (a controller
/// with an empty selector selects nothing). client-go's `GetPodControllers`,
/// `GetPodReplicaSets` and `GetPodStatefulSets` refuse a pod without labels, so such a pod
/// gets Services only.
///
/// `ServiceSpreadingPriority` is registered with empty controller listers, but 1.11's
/// `CalculateSpreadPriorityMap` takes the selectors from the priority metadata, which the
/// scheduler always computes with every lister (`metadata.go`): it spreads by these same
/// selectors.
#[must_use]
pub fn selectors<'c>(cluster: &'c Cluster, pod: &PodObject) -> Vec<Selector<'c>> {
    let mut found: Vec<Selector<'c>> = pod_services(&cluster.services, pod)
        .into_iter()
        .map(|service| Selector::Map(&service.spec.selector))
        .collect();
    if !pod.metadata.labels.is_empty() {
        for (kind, workload) in &cluster.workloads {
            if workload.metadata.namespace != pod.metadata.namespace {
                continue;
            }
            let Some(selector) = workload.spec.selector.as_ref() else {
                continue;
            };
            let empty = selector.match_labels.is_empty() && selector.match_expressions.is_empty();
            let counted = matches!(
                kind,
                WorkloadKind::ReplicationController
                    | WorkloadKind::ReplicaSet
                    | WorkloadKind::StatefulSet
            );
            if counted && !empty && labels::selector_matches(selector, &pod.metadata.labels) {
                found.push(Selector::Label(selector));
            }
        }
        // Upstream's lister always holds a Deployment pod's ReplicaSet.
        if selection::controller(&cluster.workloads, pod).is_none() {
            if let Some(assumed) = selection::missing_replica_set_selector(&cluster.workloads, pod)
            {
                found.push(Selector::Assumed(assumed));
            }
        }
    }
    found
}

/// Pods on the node in the pod's namespace, not terminating, matching any selector.
fn count(
    selectors: &[Selector<'_>],
    pod: &PodObject,
    snapshot: &Snapshot<'_>,
    node: &NodeInfo<'_>,
) -> i64 {
    if selectors.is_empty() {
        return 0;
    }
    let matching = node
        .pods
        .iter()
        .filter_map(|&index| snapshot.pod(index))
        .filter(|entry| {
            entry.pod.metadata.namespace == pod.metadata.namespace
                && entry.pod.metadata.deletion_timestamp.is_none()
                && entry.state != PodState::Terminated
                && selectors
                    .iter()
                    .any(|selector| selector.matches(&entry.pod.metadata.labels))
        })
        .count();
    i64::try_from(matching).unwrap_or(i64::MAX)
}

/// `utilnode.GetZoneKey`: `region + ":\x00:" + zone`, or none without both labels.
fn zone_key(node: &Node) -> Option<String> {
    let region = node
        .metadata
        .labels
        .get(REGION_LABEL)
        .map_or("", String::as_str);
    let zone = node
        .metadata
        .labels
        .get(ZONE_LABEL)
        .map_or("", String::as_str);
    if region.is_empty() && zone.is_empty() {
        None
    } else {
        Some(alloc::format!("{region}:\u{0}:{zone}"))
    }
}

#[allow(clippy::cast_precision_loss)]
fn share(max: i64, count: i64) -> f64 {
    if max > 0 {
        MAX_PRIORITY_F64 * ((max - count) as f64 / max as f64)
    } else {
        MAX_PRIORITY_F64
    }
}

/// SelectorSpread / ServiceSpreading scores over the feasible nodes.
#[must_use]
pub fn spread(
    selectors: &[Selector<'_>],
    pod: &PodObject,
    snapshot: &Snapshot<'_>,
    nodes: &[&NodeInfo<'_>],
) -> Vec<i64> {
    let counts: Vec<i64> = nodes
        .iter()
        .map(|info| count(selectors, pod, snapshot, info))
        .collect();
    let zones: Vec<Option<String>> = nodes.iter().map(|info| zone_key(info.node)).collect();
    let mut by_zone: BTreeMap<&str, i64> = BTreeMap::new();
    for (zone, count) in zones.iter().zip(&counts) {
        if let Some(zone) = zone {
            *by_zone.entry(zone.as_str()).or_insert(0) += count;
        }
    }
    let max_node = counts.iter().copied().max().unwrap_or(0);
    let max_zone = by_zone.values().copied().max().unwrap_or(0);
    counts
        .iter()
        .zip(&zones)
        .map(|(&count, zone)| {
            let mut score = share(max_node, count);
            if let Some(zone) = zone.as_deref().filter(|_| !by_zone.is_empty()) {
                let zone_score = share(max_zone, by_zone.get(zone).copied().unwrap_or(0));
                score = score * (1.0 - ZONE_WEIGHTING) + ZONE_WEIGHTING * zone_score;
            }
            truncate(score)
        })
        .collect()
}

/// ServiceAntiAffinity scores over the feasible nodes.
#[must_use]
pub fn service_anti_affinity(
    label: &str,
    pod: &Pod<'_>,
    snapshot: &Snapshot<'_>,
    nodes: &[&NodeInfo<'_>],
) -> Vec<i64> {
    let object = pod.pod();
    let first: Vec<Selector<'_>> = pod
        .services
        .first()
        .map(|service| Selector::Map(&service.spec.selector))
        .into_iter()
        .collect();
    let counts: Vec<i64> = nodes
        .iter()
        .map(|info| count(&first, object, snapshot, info))
        .collect();
    let total: i64 = counts.iter().sum();
    let mut by_value: BTreeMap<&str, i64> = BTreeMap::new();
    for (info, count) in nodes.iter().zip(&counts) {
        if let Some(value) = info.node.metadata.labels.get(label) {
            *by_value.entry(value.as_str()).or_insert(0) += count;
        }
    }
    nodes
        .iter()
        .map(|info| match info.node.metadata.labels.get(label) {
            None => 0,
            Some(value) => truncate(share(
                total,
                by_value.get(value.as_str()).copied().unwrap_or(0),
            )),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::model::{Node, Pod, Service};
    use crate::schedule::legacy::PriorityKind;
    use crate::schedule::predicates::testing;
    use crate::schedule::priorities::testing::run;
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    fn zone_node(name: &str, zone: &str) -> Node {
        let mut node = testing::node(name, 1000, 1000);
        node.metadata
            .labels
            .insert(super::ZONE_LABEL.into(), zone.into());
        node
    }

    fn labelled(name: &str, label: &str, node: Option<&str>) -> Pod {
        let mut pod = testing::pod(name, &[]);
        pod.metadata.labels.insert(label.into(), "value".into());
        if let Some(node) = node {
            pod.spec.node_name = node.into();
        }
        pod
    }

    fn zone_cluster(existing: &[(&str, &str)]) -> crate::cluster::Cluster {
        let nodes = vec![
            zone_node("machine1.zone1", "zone1"),
            zone_node("machine1.zone2", "zone2"),
            zone_node("machine2.zone2", "zone2"),
            zone_node("machine1.zone3", "zone3"),
            zone_node("machine2.zone3", "zone3"),
            zone_node("machine3.zone3", "zone3"),
        ];
        let mut pods: Vec<Pod> = existing
            .iter()
            .enumerate()
            .map(|(index, (node, label))| labelled(&alloc::format!("e{index}"), label, Some(node)))
            .collect();
        pods.push(labelled("incoming", "label1", None));
        let mut cluster = testing::cluster(nodes, pods);
        let mut service = Service::default();
        service.metadata.name = "s".into();
        service.metadata.namespace = "default".into();
        service
            .spec
            .selector
            .insert(String::from("label1"), String::from("value"));
        cluster.services.push(service);
        cluster
    }

    // 1.11 `TestZoneSelectorSpreadPriority`.
    #[test]
    fn upstream_zone_table() {
        let kind = PriorityKind::SelectorSpread;
        let cluster = zone_cluster(&[]);
        assert_eq!(
            run(&kind, &cluster, cluster.pods.len() - 1, 1),
            [10, 10, 10, 10, 10, 10]
        );
        let cluster = zone_cluster(&[("machine1.zone1", "label2"), ("machine1.zone2", "label1")]);
        assert_eq!(
            run(&kind, &cluster, cluster.pods.len() - 1, 1),
            [10, 0, 3, 10, 10, 10]
        );
        let cluster = zone_cluster(&[
            ("machine1.zone1", "label2"),
            ("machine1.zone2", "label1"),
            ("machine2.zone2", "label1"),
            ("machine1.zone3", "label2"),
            ("machine2.zone3", "label1"),
        ]);
        assert_eq!(
            run(&kind, &cluster, cluster.pods.len() - 1, 1),
            [10, 0, 0, 6, 3, 6]
        );
    }

    /// A ReplicaSet missing from the input, of a Deployment it lists, still groups its
    /// pods (1.11's lister holds it): without a Service, the sibling on the first zone's
    /// node makes it score 0.
    #[test]
    fn a_replica_set_missing_from_the_input_still_groups_its_pods() {
        let mut cluster = zone_cluster(&[("machine1.zone1", "label1")]);
        cluster.services.clear();
        let mut deployment = crate::model::Workload::default();
        deployment.metadata.name = "web".into();
        deployment.metadata.namespace = "default".into();
        let mut selector = crate::model::LabelSelector::default();
        selector
            .match_labels
            .insert("label1".into(), "value".into());
        deployment.spec.selector = Some(selector);
        cluster
            .workloads
            .push((crate::model::WorkloadKind::Deployment, deployment));
        for pod in &mut cluster.pods {
            let pod = alloc::sync::Arc::make_mut(&mut pod.pod);
            pod.metadata
                .labels
                .insert("pod-template-hash".into(), "h".into());
            pod.metadata
                .owner_references
                .push(crate::model::OwnerReference {
                    api_version: "apps/v1".into(),
                    kind: "ReplicaSet".into(),
                    name: "web-h".into(),
                    uid: "r1".into(),
                    controller: Some(true),
                });
        }
        let kind = PriorityKind::SelectorSpread;
        assert_eq!(
            run(&kind, &cluster, cluster.pods.len() - 1, 1),
            [0, 10, 10, 10, 10, 10]
        );
    }

    #[test]
    fn service_anti_affinity_spreads_over_label_values() {
        let mut cluster =
            zone_cluster(&[("machine1.zone2", "label1"), ("machine1.zone3", "label1")]);
        // One node without the label scores 0.
        cluster.nodes[0].metadata.labels.clear();
        let kind = PriorityKind::ServiceAntiAffinity(super::ZONE_LABEL.into());
        // total 2; zone2 holds 1, zone3 holds 1 → 5 each.
        assert_eq!(
            run(&kind, &cluster, cluster.pods.len() - 1, 1),
            [0, 5, 5, 5, 5, 5]
        );
    }
}
