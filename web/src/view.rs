//! What the playground shows of a report: rows ready to render, and the evaluation that
//! produces them.
//!
//! A [`View`] is built from the typed [`Report`] wherever the evaluation ran, and crosses
//! from the worker to the page as JSON, so it is the one type here that is both
//! serialisable and deserialisable (the report itself is only serialisable).

use std::collections::BTreeSet;

use kubefit_core::cluster::PodState;
use kubefit_core::model::ResourceList;
use kubefit_core::{evaluate, Diagnostic, Options, Report, Severity, Source};
use serde::{Deserialize, Serialize};

/// An evaluation: the view, and the report in the two forms the page offers to download.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// What the panels show.
    pub view: View,
    /// The report as JSON, compact as the CLI writes it.
    pub json: String,
    /// The report as text tables.
    pub text: String,
}

impl Outcome {
    /// Evaluates the sources, named as in diagnostics, with the default options.
    #[must_use]
    pub fn evaluate(sources: &[(&str, &[u8])]) -> Self {
        let sources: Vec<Source<'_>> = sources
            .iter()
            .map(|(name, bytes)| Source::new(name, *bytes))
            .collect();
        let report = evaluate(&sources, &Options::default());
        Self {
            view: View::from_report(&report),
            // Serialising the report cannot fail: it is plain data with string keys.
            json: serde_json::to_string(&report).unwrap_or_default(),
            text: report.to_text(),
        }
    }
}

/// The report as the panels show it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The kubefit version that evaluated.
    pub version: String,
    /// The scheduling profile.
    pub profile: String,
    /// Counts for the summary line.
    pub summary: Summary,
    /// Problems with the input, errors first.
    pub problems: Vec<Problem>,
    /// Objects left out of evaluation because they have errors, in input order.
    pub left_out: Vec<String>,
    /// Node rows, in input order.
    pub nodes: Vec<NodeRow>,
    /// Pod rows, in input order.
    pub pods: Vec<PodRow>,
    /// Every namespace that has a pod, sorted.
    pub namespaces: Vec<String>,
}

/// Counts of what was evaluated.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// Nodes.
    pub nodes: usize,
    /// Nodes whose `Ready` condition is `True`.
    pub ready_nodes: usize,
    /// Pods, generated ones included.
    pub pods: usize,
    /// Pods bound to a node.
    pub bound: usize,
    /// Pods waiting for the scheduler.
    pub pending: usize,
    /// Pods refused by admission.
    pub rejected: usize,
    /// Pods that have finished.
    pub terminated: usize,
    /// Pending pods kubefit built from owners' templates.
    pub generated: usize,
    /// Error diagnostics.
    pub errors: usize,
    /// Warning diagnostics.
    pub warnings: usize,
}

/// A diagnostic, as the problem list and the editor show it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// An error (the object is left out) rather than a warning.
    pub error: bool,
    /// The stable code, such as `quantity/overflow`.
    pub code: String,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// The object concerned (`Kind/namespace/name`).
    pub object: Option<String>,
    /// The field path inside the object.
    pub path: Option<String>,
    /// The document it points into.
    pub source: Option<String>,
    /// 1-based line.
    pub line: Option<u32>,
    /// 1-based column, in characters.
    pub column: Option<u32>,
    /// Offset in UTF-16 code units, as the text area counts.
    pub offset: Option<u32>,
}

impl From<&Diagnostic> for Problem {
    fn from(diagnostic: &Diagnostic) -> Self {
        Self {
            error: diagnostic.severity == Severity::Error,
            code: diagnostic.code.into(),
            message: diagnostic.message.clone(),
            help: diagnostic.help.clone(),
            object: diagnostic.object.clone(),
            path: diagnostic.path.clone(),
            source: diagnostic.source.clone(),
            line: diagnostic.line,
            column: diagnostic.column,
            offset: diagnostic.offset,
        }
    }
}

/// How much of one resource a node has and uses.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    /// Allocatable, as the input wrote it (canonical quantity).
    pub allocatable: Option<String>,
    /// Requested by the bound pods.
    pub requested: Option<String>,
    /// Allocatable minus requested (negative when overcommitted).
    pub free: Option<String>,
    /// Requested divided by allocatable; above 1 when overcommitted. None without an
    /// allocatable amount.
    pub share: Option<f64>,
}

impl Usage {
    fn of(
        resource: &str,
        allocatable: &ResourceList,
        requested: &ResourceList,
        free: &ResourceList,
    ) -> Self {
        let text = |list: &ResourceList| list.get(resource).map(ToString::to_string);
        let share = allocatable.get(resource).and_then(|total| {
            let used = requested.get(resource).map_or(0, |used| used.milli_value());
            ratio(used, total.milli_value())
        });
        Self {
            allocatable: text(allocatable),
            requested: text(requested),
            free: text(free),
            share,
        }
    }

    /// Bound pods against the `pods` allocatable, which counts pods, not milli-units.
    fn of_pods(bound: usize, allocatable: &ResourceList) -> Self {
        let bound_count = i64::try_from(bound).unwrap_or(i64::MAX);
        let total = allocatable.get("pods");
        Self {
            allocatable: total.map(ToString::to_string),
            requested: Some(bound.to_string()),
            free: total.map(|total| total.value().saturating_sub(bound_count).to_string()),
            share: total.and_then(|total| ratio(bound_count, total.value())),
        }
    }

    /// The share as a whole percentage, for labels.
    #[must_use]
    pub fn percent(&self) -> Option<u64> {
        self.per_mille().map(|per_mille| (per_mille + 5) / 10)
    }

    /// The share in thousandths (a bar needs no finer grain).
    #[must_use]
    pub fn per_mille(&self) -> Option<u64> {
        // Shares are non-negative ratios of i64 values; rounding is what people read.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        self.share
            .map(|share| (share * 1000.0).round().max(0.0) as u64)
    }
}

#[allow(clippy::cast_precision_loss)] // a ratio for a bar needs no more than f64's 53 bits
fn ratio(used: i64, total: i64) -> Option<f64> {
    (total > 0).then(|| used as f64 / total as f64)
}

/// A node row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NodeRow {
    /// The node name.
    pub name: String,
    /// The `Ready` condition is `True`.
    pub ready: bool,
    /// Cordoned (`spec.unschedulable`).
    pub unschedulable: bool,
    /// Taints as `key=value:Effect`.
    pub taints: Vec<String>,
    /// CPU.
    pub cpu: Usage,
    /// Memory.
    pub memory: Usage,
    /// Pods bound, against the `pods` allocatable.
    pub pods: Usage,
    /// The number of bound pods.
    pub pod_count: usize,
}

/// A pod row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PodRow {
    /// The namespace.
    pub namespace: String,
    /// The pod name.
    pub name: String,
    /// The node it is bound to.
    pub node: Option<String>,
    /// `Bound`, `Pending`, `Rejected` or `Terminated`.
    pub state: String,
    /// The priority after admission.
    pub priority: i32,
    /// The QoS class.
    pub qos: String,
    /// The CPU request.
    pub cpu: Option<String>,
    /// The memory request.
    pub memory: Option<String>,
    /// The CPU request in millicores, for sorting.
    pub cpu_milli: i64,
    /// The memory request in thousandths of a byte, for sorting.
    pub memory_milli: i64,
    /// For pods kubefit built: the owner that would create it.
    pub generated_from: Option<String>,
    /// For rejected pods: why.
    pub rejection: Option<String>,
}

impl View {
    /// The view of a report.
    #[must_use]
    pub fn from_report(report: &Report) -> Self {
        let problems: Vec<Problem> = report.diagnostics.iter().map(Problem::from).collect();
        let mut seen = BTreeSet::new();
        let left_out = problems
            .iter()
            .filter(|problem| problem.error)
            .filter_map(|problem| problem.object.clone())
            .filter(|object| seen.insert(object.clone()))
            .collect();
        let nodes: Vec<NodeRow> = report
            .nodes
            .iter()
            .map(|node| {
                let usage =
                    |resource| Usage::of(resource, &node.allocatable, &node.requested, &node.free);
                NodeRow {
                    name: node.name.clone(),
                    ready: node.ready,
                    unschedulable: node.unschedulable,
                    taints: node.taints.clone(),
                    cpu: usage("cpu"),
                    memory: usage("memory"),
                    pods: Usage::of_pods(node.pods, &node.allocatable),
                    pod_count: node.pods,
                }
            })
            .collect();
        let pods: Vec<PodRow> = report
            .pods
            .iter()
            .map(|pod| {
                let (namespace, name) = pod.pod.split_once('/').unwrap_or(("", &pod.pod));
                let request = |resource: &str| pod.requests.get(resource);
                PodRow {
                    namespace: namespace.into(),
                    name: name.into(),
                    node: pod.node.clone(),
                    state: state_name(pod.state).into(),
                    priority: pod.priority,
                    qos: pod.qos_class.as_str().into(),
                    cpu: request("cpu").map(ToString::to_string),
                    memory: request("memory").map(ToString::to_string),
                    cpu_milli: request("cpu").map_or(0, |q| q.milli_value()),
                    memory_milli: request("memory").map_or(0, |q| q.milli_value()),
                    generated_from: pod.generated_from.clone(),
                    rejection: pod.rejection.clone(),
                }
            })
            .collect();
        let namespaces = pods
            .iter()
            .map(|pod| pod.namespace.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let count = |state: PodState| report.pods.iter().filter(|pod| pod.state == state).count();
        let errors = problems.iter().filter(|problem| problem.error).count();
        Self {
            version: report.kubefit_version.clone(),
            profile: report.profile.clone(),
            summary: Summary {
                nodes: nodes.len(),
                ready_nodes: nodes.iter().filter(|node| node.ready).count(),
                pods: pods.len(),
                bound: count(PodState::Bound),
                pending: count(PodState::Pending),
                rejected: count(PodState::Rejected),
                terminated: count(PodState::Terminated),
                generated: report.inventory.generated_pods,
                errors,
                warnings: problems.len() - errors,
            },
            problems,
            left_out,
            nodes,
            pods,
            namespaces,
        }
    }
}

fn state_name(state: PodState) -> &'static str {
    match state {
        PodState::Bound => "Bound",
        PodState::Pending => "Pending",
        PodState::Rejected => "Rejected",
        PodState::Terminated => "Terminated",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::examples::Example;

    fn outcome(text: &str) -> Outcome {
        Outcome::evaluate(&[("input.yaml", text.as_bytes())])
    }

    #[test]
    fn the_first_example_becomes_rows_with_usage() {
        let outcome = outcome(Example::first().text());
        let view = &outcome.view;
        assert_eq!(view.version, kubefit_core::VERSION);
        assert_eq!(view.summary.nodes, 3);
        let worker = &view.nodes[0];
        assert_eq!(worker.name, "worker-1");
        assert_eq!(worker.cpu.allocatable.as_deref(), Some("4"));
        assert_eq!(worker.cpu.requested.as_deref(), Some("2500m"));
        assert_eq!(worker.cpu.free.as_deref(), Some("1500m"));
        assert_eq!(worker.cpu.percent(), Some(63));
        assert_eq!(worker.pods.requested.as_deref(), Some("3"));
        assert_eq!(worker.pods.percent(), Some(3));
        assert_eq!(worker.pod_count, 3);
        let cordoned = &view.nodes[1];
        assert!(cordoned.unschedulable);
        assert_eq!(cordoned.cpu.percent(), Some(0));
        assert_eq!(view.nodes[2].taints, ["dedicated=gpu:NoSchedule"]);
        assert_eq!(view.namespaces, ["ml", "shop"]);
        assert_eq!(view.summary.generated, 2);
        assert_eq!(view.summary.pending, 3);
        let web = &view.pods[0];
        assert_eq!(
            (web.namespace.as_str(), web.name.as_str()),
            ("shop", "web-1")
        );
        assert_eq!(web.node.as_deref(), Some("worker-1"));
        assert_eq!(web.qos, "Guaranteed");
        assert_eq!(web.cpu_milli, 1000);
        assert!(outcome.json.contains("\"kubefitVersion\""));
        assert!(outcome.text.contains("NODES (3)"));
    }

    #[test]
    fn objects_with_errors_are_left_out_once_each() {
        let view = outcome(
            "kind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: lots, memory: heaps}}}]\n",
        )
        .view;
        assert_eq!(view.summary.errors, 1, "{:?}", view.problems);
        assert_eq!(view.left_out, ["Pod/default/p"]);
        assert!(view.pods.is_empty());
        let first = &view.problems[0];
        assert!(first.error);
        assert_eq!(first.source.as_deref(), Some("input.yaml"));
        assert_eq!(first.line, Some(4));
    }

    #[test]
    fn the_view_survives_its_json_round_trip() {
        let view = outcome(Example::first().text()).view;
        let json = serde_json::to_string(&view).expect("serialisable");
        let back: View = serde_json::from_str(&json).expect("deserialisable");
        assert_eq!(back, view);
    }

    #[test]
    fn a_node_without_allocatable_has_no_share() {
        let view = outcome("kind: Node\nmetadata: {name: bare}\n").view;
        assert_eq!(view.nodes[0].cpu, Usage::default());
        assert_eq!(view.nodes[0].cpu.percent(), None);
    }
}
