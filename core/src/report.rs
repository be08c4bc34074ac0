//! The report: what kubefit tells about the cluster, serialised as camelCase JSON.
//!
//! This is the contract every engine extends: later sections (scheduling, evictions,
//! scaling, updates) are added beside these.

pub mod disruption;
pub mod scheduling;
mod text;
pub mod words;

use alloc::borrow::Cow;
use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

use crate::cluster::{Cluster, NodeIndex, PodEntry, PodState};
use crate::diagnostic::{Diagnostic, Severity};
use crate::model::{Node, ResourceList};
use crate::quantity::Quantity;
use crate::resources::{self, QosClass};
use crate::schedule::Version;

/// Everything kubefit has to say about the input.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The kubefit version that wrote the report.
    pub kubefit_version: String,
    /// The scheduling profile: `kubernetes-1.34` or `openshift-3.11`.
    pub profile: String,
    /// Problems with the input, errors first in input order.
    pub diagnostics: Vec<Diagnostic>,
    /// What the input contained.
    pub inventory: Inventory,
    /// One row per node, in input order.
    pub nodes: Vec<NodeRow>,
    /// One row per pod: input pods in input order, then pods owners would create.
    pub pods: Vec<PodRow>,
    /// Where each pending pod goes, and why.
    pub scheduling: scheduling::Scheduling,
    /// What a Scenario's steps do over time: `timeline`, `evictions`, `descheduler`,
    /// `machines` and `timelineUntil`.
    #[serde(flatten)]
    pub disruption: disruption::Disruption,
}

/// Counts of what the input contained.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Inventory {
    /// Valid objects per modelled kind.
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, number>"))]
    pub kinds: BTreeMap<String, usize>,
    /// Objects of kinds kubefit does not model, per kind.
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, number>"))]
    pub ignored: BTreeMap<String, usize>,
    /// Pending pods kubefit built from owners' templates.
    pub generated_pods: usize,
}

/// A node's capacity and use.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct NodeRow {
    /// The node name.
    pub name: String,
    /// `status.allocatable` (capacity when absent).
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, string>"))]
    pub allocatable: ResourceList,
    /// The sum of the requests of the pods bound to the node, as the profile's scheduler
    /// counts them (see [`PodRow::requests`]).
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, string>"))]
    pub requested: ResourceList,
    /// Allocatable minus requested, per allocatable resource (negative when overcommitted).
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, string>"))]
    pub free: ResourceList,
    /// Pods bound to the node.
    pub pods: usize,
    /// The `Ready` condition is `True`.
    pub ready: bool,
    /// `spec.unschedulable` (cordoned).
    pub unschedulable: bool,
    /// Taints as `key=value:Effect`.
    pub taints: Vec<String>,
}

/// A pod and where it stands.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct PodRow {
    /// `namespace/name`.
    pub pod: String,
    /// The node it is bound to, if any.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub node: Option<String>,
    /// Bound, pending, rejected or terminated.
    pub state: PodState,
    /// The priority after admission.
    pub priority: i32,
    /// The QoS class.
    pub qos_class: QosClass,
    /// Effective requests, as the profile's scheduler counts a bound pod: under
    /// `kubernetes-1.34`, with what the kubelet reports of an in-place resize
    /// ([`resources::requests_with_status`]); from the spec alone under `openshift-3.11`.
    #[cfg_attr(feature = "tsify", tsify(type = "Record<string, string>"))]
    pub requests: ResourceList,
    /// For pods kubefit built: the owner (`Kind/namespace/name`) that would create it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub generated_from: Option<String>,
    /// For rejected pods: the admission message.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub rejection: Option<String>,
}

impl Report {
    /// Builds the report on a cluster, its placements and its timeline. With `state_at`,
    /// the node and pod tables show the cluster where the timeline stopped.
    #[must_use]
    pub fn from_cluster(
        cluster: &Cluster,
        scheduling: scheduling::Scheduling,
        timeline: Option<crate::eviction::Outcome>,
        state_at: bool,
    ) -> Self {
        let mut diagnostics = cluster.diagnostics.clone();
        let (disruption, state) = match timeline {
            Some(outcome) => {
                diagnostics.extend(outcome.diagnostics);
                let state = state_at.then_some((outcome.nodes, outcome.pods));
                (outcome.disruption, state)
            }
            None => (disruption::Disruption::default(), None),
        };
        let (nodes, pods) = match &state {
            Some((nodes, pods)) => (nodes.as_slice(), pods.as_slice()),
            None => (cluster.nodes.as_slice(), cluster.pods.as_slice()),
        };
        for (kind, count) in &cluster.ignored {
            diagnostics.push(Diagnostic::warning(
                "input/ignored-kind",
                alloc::format!(
                    "ignored {count} `{kind}` object(s): kubefit does not model this kind"
                ),
            ));
        }
        // Errors before warnings; within each, input order.
        diagnostics.sort_by_key(|diagnostic| diagnostic.severity != Severity::Error);
        let mut inventory = Inventory {
            kinds: cluster.counts.clone(),
            ignored: cluster.ignored.iter().cloned().collect(),
            generated_pods: cluster
                .pods
                .iter()
                .filter(|entry| entry.generated_from.is_some())
                .count(),
        };
        if inventory.generated_pods > 0 {
            inventory.kinds.entry("Pod".into()).or_insert(0);
        }
        Self {
            kubefit_version: crate::VERSION.into(),
            profile: scheduling.profile.clone(),
            diagnostics,
            inventory,
            nodes: node_rows(nodes, pods, cluster.version),
            pods: pods
                .iter()
                .map(|entry| PodRow {
                    pod: alloc::format!(
                        "{}/{}",
                        entry.pod.metadata.namespace,
                        entry.pod.metadata.name
                    ),
                    node: (entry.state == PodState::Bound)
                        .then(|| entry.pod.spec.node_name.clone()),
                    state: entry.state,
                    priority: entry.priority,
                    qos_class: entry.qos,
                    requests: counted_requests(entry, cluster.version).into_owned(),
                    generated_from: entry.generated_from.clone(),
                    rejection: entry.rejection.clone(),
                })
                .collect(),
            scheduling,
            disruption,
        }
    }

    /// True if any diagnostic is an error.
    #[must_use]
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The report as aligned text tables, like `kubectl get`.
    #[must_use]
    pub fn to_text(&self) -> String {
        text::render(self)
    }
}

/// What `version`'s scheduler counts for a pod: 1.34 reads an in-place resize from the
/// pod's container statuses (`CalculateResource` with `UseStatusResources`), so that a
/// node's row adds up to what its pods are refused for; 1.11 reads the spec.
fn counted_requests(entry: &PodEntry, version: Version) -> Cow<'_, ResourceList> {
    if version == Version::Current && resources::resized(&entry.pod) {
        Cow::Owned(resources::requests_with_status(&entry.pod, &[]))
    } else {
        Cow::Borrowed(&entry.requests)
    }
}

/// One row per node; bound pods are summed in one pass over the pods.
fn node_rows(nodes: &[Node], pods: &[PodEntry], version: Version) -> Vec<NodeRow> {
    let index = NodeIndex::new(nodes.iter().map(|node| node.metadata.name.as_str()));
    let mut usage: Vec<(ResourceList, usize)> = alloc::vec![Default::default(); nodes.len()];
    for entry in pods.iter().filter(|entry| entry.state == PodState::Bound) {
        let Some((requested, pods)) = index
            .get(&entry.pod.spec.node_name)
            .and_then(|node| usage.get_mut(node))
        else {
            continue;
        };
        *pods += 1;
        for (name, quantity) in counted_requests(entry, version).iter() {
            let sum = match requested.get(name) {
                Some(current) => resources::saturating_add(*current, *quantity),
                None => *quantity,
            };
            requested.insert(name.clone(), sum);
        }
    }
    nodes
        .iter()
        .zip(usage)
        .map(|(node, (requested, pods))| node_row(node, requested, pods))
        .collect()
}

fn node_row(node: &Node, requested: ResourceList, pods: usize) -> NodeRow {
    let allocatable = node.status.allocatable.clone().unwrap_or_default();
    let free = allocatable
        .iter()
        .map(|(name, available)| {
            let used = requested.get(name).copied().unwrap_or_else(Quantity::zero);
            (name.clone(), resources::saturating_sub(*available, used))
        })
        .collect();
    NodeRow {
        name: node.metadata.name.clone(),
        allocatable,
        requested,
        free,
        pods,
        ready: node.condition("Ready") == Some("True"),
        unschedulable: node.spec.unschedulable,
        taints: node
            .spec
            .taints
            .iter()
            .map(crate::taints::describe)
            .collect(),
    }
}
