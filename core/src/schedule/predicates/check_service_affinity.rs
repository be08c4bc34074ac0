//! CheckServiceAffinity (Policy `serviceAffinity{labels}`): pods of a service land on
//! nodes sharing the listed label values with the service's first placed pod.
//!
//! Follows 1.11 `ServiceAffinity.checkServiceAffinity` and its metadata producer in
//! `predicates.go`: the labels the pod's nodeSelector fixes are taken as they are; the
//! missing ones, when the pod belongs to a service and some pod in its namespace matches
//! the pod's *own* labels (not the service selector), are copied from the node of the
//! first such pod (labels that node lacks stay unset). The node fits if it carries every
//! collected pair; an empty set matches every node. "First" is upstream's pod lister
//! order, which kubefit reads as input order.
//!
//! The lister also lists pods bound to a node the input lacks (orphans), which kubefit
//! takes after the placed pods (upstream's order is Go map order); in the first pass on
//! a node with nominated pods, 1.11 `predicateMetadata.AddPod` appends the matching ones
//! without a node name, unless orphans leave the metadata missing. When such a pod comes
//! first, looking its node up fails (`node "" not found` for a nominated pod), an error
//! that ends the pod's scheduling attempt.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::{check, Pod};
use crate::cluster::{PodEntry, PodState};
use crate::labels;
use crate::model::{Node, Pod as PodObject};
use crate::schedule::snapshot::Snapshot;
use crate::schedule::status::Status;
use crate::schedule::volumes;

/// `ErrServiceAffinityViolated`.
pub const REASON: &str = "node(s) didn't match service affinity";

/// Placed pods in the pod's namespace whose labels match the pod's own labels (all of
/// them when the pod has none), in input order, then the orphans that match, then
/// (without orphans) the `nominated` pods that match.
#[must_use]
pub fn matching_pods(snapshot: &Snapshot<'_>, pod: &PodObject, nominated: &[usize]) -> Vec<usize> {
    let matches = |entry: &PodEntry| {
        entry.pod.metadata.namespace == pod.metadata.namespace
            && labels::map_matches(&pod.metadata.labels, &entry.pod.metadata.labels)
    };
    let mut pods: Vec<usize> = snapshot
        .cluster
        .pods
        .iter()
        .enumerate()
        .filter(|(index, entry)| {
            snapshot.assigned.get(*index).is_some_and(Option::is_some)
                && !nominated.contains(index)
                && entry.state != PodState::Terminated
                && matches(entry)
        })
        .map(|(index, _)| index)
        .collect();
    let orphans = snapshot.cluster.orphans();
    let added = if orphans.is_empty() {
        nominated
    } else {
        &orphans
    };
    pods.extend(
        added
            .iter()
            .copied()
            .filter(|&index| snapshot.pod(index).is_some_and(matches)),
    );
    pods
}

/// The predicate.
#[must_use]
pub fn predicate(
    affinity_labels: &[String],
    pod: &Pod<'_>,
    snapshot: &Snapshot<'_>,
    node: &Node,
) -> Status {
    let selector = &pod.pod().spec.node_selector;
    let mut wanted: BTreeMap<&str, &str> = affinity_labels
        .iter()
        .filter_map(|label| {
            selector
                .get(label)
                .map(|value| (label.as_str(), value.as_str()))
        })
        .collect();
    if affinity_labels.len() > wanted.len() && !pod.services.is_empty() {
        let first = pod.service_pods.first().copied();
        let placed_on = first.and_then(|first| snapshot.assigned.get(first).copied().flatten());
        // The node name upstream looks up: none yet for a nominated pod, a missing node's
        // for an orphan.
        let missing = match first {
            Some(first) if pod.nominated.contains(&first) => Some(""),
            Some(first) if placed_on.is_none() => snapshot
                .pod(first)
                .map(|entry| entry.pod.spec.node_name.as_str()),
            _ => None,
        };
        if let Some(name) = missing {
            return Status::error(volumes::not_found("node", name));
        }
        let first_node = placed_on.and_then(|index| snapshot.nodes.get(index));
        if let Some(first_node) = first_node {
            for label in affinity_labels {
                if let Some(value) = first_node.node.metadata.labels.get(label) {
                    wanted.entry(label.as_str()).or_insert(value.as_str());
                }
            }
        }
    }
    let fits = wanted
        .iter()
        .all(|(key, value)| node.metadata.labels.get(*key).map(String::as_str) == Some(*value));
    check(fits, REASON)
}
