//! What the playground shows of a report: rows ready to render, and the evaluation that
//! produces them.
//!
//! A [`View`] is built from the typed [`Report`] wherever the evaluation ran, and crosses
//! from the worker to the page as JSON, so it is the one type here that is both
//! serialisable and deserialisable (the report itself is only serialisable).

use std::collections::{BTreeMap, BTreeSet};

use kubefit_core::cluster::{Cluster, PodState};
use kubefit_core::input::{self, Resource};
use kubefit_core::model::ResourceList;
use kubefit_core::report::scheduling;
use kubefit_core::{Diagnostic, Options, Report, Severity, Source};
use serde::{Deserialize, Serialize};

use crate::tables;

/// Serialises a struct as the array of its fields, in order, and reads it back.
macro_rules! as_tuple {
    ($name:ident { $($field:ident),* }) => {
        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                ($(&self.$field,)*).serialize(serializer)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let ($($field,)*) = Deserialize::deserialize(deserializer)?;
                Ok(Self { $($field),* })
            }
        }
    };
}

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
    ///
    /// The steps of [`kubefit_core::evaluate`], one by one, so that the places of nodes
    /// and pods in the input are kept for the placement panel (the report has none); a
    /// test checks that the report is the same.
    #[must_use]
    pub fn evaluate(sources: &[(&str, &[u8])]) -> Self {
        let sources: Vec<Source<'_>> = sources
            .iter()
            .map(|(name, bytes)| Source::new(name, *bytes))
            .collect();
        let options = Options::default();
        let loaded = input::load(&sources, &options.limits);
        let place = |span: input::Span| {
            sources
                .get(span.source as usize)
                .map(|source| Place(source.name.into(), span.start, span.end))
        };
        let node_spans: Vec<(String, input::Span)> = loaded
            .objects
            .iter()
            .filter_map(|object| match &object.resource {
                Resource::Node(node) => Some((node.metadata.name.clone(), object.span)),
                _ => None,
            })
            .collect();
        let scenario = loaded
            .objects
            .iter()
            .find(|object| matches!(object.resource, Resource::Scenario(_)))
            .and_then(|object| sources.get(object.span.source as usize))
            .map(|source| source.name.to_owned());
        let cluster = Cluster::build(loaded, &sources, options.profile);
        let report = kubefit_core::report_on(&cluster, &sources, &options);
        let mut view = View::from_report(&report);
        view.scenario = scenario;
        let rows: BTreeMap<&str, usize> = report
            .nodes
            .iter()
            .enumerate()
            .map(|(index, node)| (node.name.as_str(), index))
            .collect();
        for machine in &cluster.machines {
            let meta = &machine.metadata;
            if let Some(&row) = machine
                .status
                .node_ref
                .as_ref()
                .and_then(|node| rows.get(node.name.as_str()))
            {
                view.nodes[row]
                    .machine
                    .get_or_insert_with(|| format!("{}/{}", meta.namespace, meta.name));
            }
        }
        // Node rows are the valid nodes in input order (the first of duplicates is kept).
        let mut spans = node_spans.iter();
        for row in &mut view.nodes {
            row.place = spans
                .find(|(name, _)| *name == row.name)
                .and_then(|(_, span)| place(*span));
        }
        // Pod rows are the cluster's pods, in its order; placements are in queue order.
        let placements = &view.placements;
        let by_pod = tables::order(placements.len(), false, &|a, b| {
            placements[a].pod.cmp(&placements[b].pod)
        });
        let mut pod_places = Vec::new();
        for (row, entry) in report.pods.iter().zip(&cluster.pods) {
            let found = by_pod.binary_search_by(|&index| placements[index].pod.cmp(&row.pod));
            if let (Ok(at), Some(spans)) = (found, entry.spans) {
                pod_places.push((by_pod[at], place(spans.object)));
            }
        }
        for (index, place) in pod_places {
            view.placements[index].place = place;
        }
        Self {
            view,
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
    /// The scheduler's decision for every pending pod, in queue order.
    pub placements: Vec<Placement>,
    /// The document holding the Scenario that is played (the first one), if any.
    pub scenario: Option<String>,
    /// How far the timeline ran, in nanoseconds.
    pub until: i64,
    /// What happened, in time order (the report's `timeline`).
    pub events: Vec<Event>,
    /// Every evicted pod, in eviction order.
    pub evictions: Vec<Eviction>,
    /// Every Machine at the end of the timeline.
    pub machines: Vec<Machine>,
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
    /// The Machine whose `status.nodeRef` names the node (`namespace/name`).
    pub machine: Option<String>,
    /// Where the node is in the input.
    pub place: Option<Place>,
}

/// Where an object is in the input: its document, and the range of bytes it takes there.
///
/// The placement types below are tuples and flat lists rather than nested structs where
/// that reads as well: each struct costs the page a JSON decoder of its own (the worker
/// sends the view as JSON), and the playground's download has a budget.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place(
    /// The document's name.
    pub String,
    /// Byte offset of the object's first byte.
    pub u32,
    /// Byte offset just past its last byte.
    pub u32,
);

/// What the scheduler did with one pending pod (the report's `scheduling.pods[]`), with
/// the verdicts as a matrix: one row per node, one column per filter and per score.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placement {
    /// `namespace/name`.
    pub pod: String,
    /// The pod's priority.
    pub priority: i32,
    /// `scheduled`, `unschedulable`, `nominated`, `rejected`, `not-handled`, `gated` or
    /// `skipped`.
    pub outcome: String,
    /// The node chosen.
    pub node: Option<String>,
    /// The upstream message (`FailedScheduling` event, admission's refusal, or a gated
    /// pod's `PodScheduled` condition).
    pub message: Option<String>,
    /// The node preemption nominated (its victims make room there).
    pub nominated: Option<String>,
    /// What else the panel says, one line each: the gates that hold a gated pod,
    /// preemption (its victims, with priority and grace period, and the
    /// PodDisruptionBudgets it violates, or why it did not help), ties for the best
    /// score, node sampling, verdicts left out of the report.
    pub notes: Vec<String>,
    /// The filters that ran on some node, in the order they run: the matrix's columns.
    pub filters: Vec<String>,
    /// The scores given to some node, in configuration order.
    pub scores: Vec<String>,
    /// One row per node, in input order.
    pub verdicts: Vec<Verdict>,
    /// Where the pod is in the input (none for pods kubefit generated).
    pub place: Option<Place>,
}

/// One node's verdict for a pending pod.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The node name.
    pub node: String,
    /// One character per filter column: [`PASS`], [`FAIL`] or [`SKIP`] (did not run).
    pub cells: String,
    /// The reasons of each failing filter, joined by `; `, in column order; for a node no
    /// filter ran on (a PreFilter left it out), the reasons upstream records for it. Empty
    /// for feasible nodes.
    pub failures: Vec<String>,
    /// Per score column: the score before weights (empty unless the node was scored).
    pub scores: Vec<Option<i64>>,
    /// The weighted sum (scored nodes only).
    pub total: Option<i64>,
}

/// A filter the node passes, in [`Verdict::cells`].
pub const PASS: char = '+';
/// A filter the node fails.
pub const FAIL: char = '-';
/// A filter that did not run on the node.
pub const SKIP: char = '.';

// Placements and verdicts cross from the worker as JSON arrays rather than objects: a
// derived decoder matches field names and reads both forms, which for these two structs
// cost the download about 2 KB of brotli. So do the disruption panel's rows.
as_tuple!(Placement {
    pod,
    priority,
    outcome,
    node,
    message,
    nominated,
    notes,
    filters,
    scores,
    verdicts,
    place
});
as_tuple!(Verdict {
    node,
    cells,
    failures,
    scores,
    total
});

impl Placement {
    fn from_report(placement: &scheduling::Placement) -> Self {
        let mut filters: Vec<String> = Vec::new();
        let mut scores: Vec<String> = Vec::new();
        for (_, verdict) in &placement.nodes.0 {
            for predicate in &verdict.predicates {
                if !filters.iter().any(|filter| *filter == predicate.name) {
                    filters.push(predicate.name.to_string());
                }
            }
            for (name, _) in verdict.scores.iter().flat_map(|map| &map.0) {
                if !scores.contains(name) {
                    scores.push(name.clone());
                }
            }
        }
        let verdicts = placement
            .nodes
            .0
            .iter()
            .map(|(node, verdict)| {
                let mut cells = String::with_capacity(filters.len());
                let mut failures = Vec::new();
                for filter in &filters {
                    match verdict.predicates.iter().find(|p| p.name == *filter) {
                        None => cells.push(SKIP),
                        Some(predicate) if predicate.passed => cells.push(PASS),
                        Some(predicate) => {
                            cells.push(FAIL);
                            failures.push(predicate.reasons.join("; "));
                        }
                    }
                }
                if failures.is_empty() && !verdict.reasons.is_empty() {
                    failures.clone_from(&verdict.reasons);
                }
                Verdict {
                    node: node.clone(),
                    cells,
                    failures,
                    scores: verdict.scores.as_ref().map_or_else(Vec::new, |map| {
                        scores
                            .iter()
                            .map(|score| map.0.iter().find(|(name, _)| name == score).map(|s| s.1))
                            .collect()
                    }),
                    total: verdict.total,
                }
            })
            .collect();
        Self {
            pod: placement.pod.clone(),
            priority: placement.priority,
            outcome: outcome_name(placement.outcome).into(),
            node: placement.node.clone(),
            message: placement.message.clone(),
            nominated: placement.nominated_node.clone(),
            notes: notes(placement),
            filters,
            scores,
            verdicts,
            place: None,
        }
    }
}

/// The lines of [`Placement::notes`].
fn notes(placement: &scheduling::Placement) -> Vec<String> {
    let mut notes = Vec::new();
    if !placement.scheduling_gates.is_empty() {
        notes.push(format!(
            "Waiting for scheduling gates: {}.",
            placement.scheduling_gates.join(", ")
        ));
    }
    if let Some(preemption) = &placement.preemption {
        if let Some(message) = &preemption.message {
            notes.push(format!("Preemption: {message}."));
        }
        for victim in &preemption.victims {
            notes.push(format!(
                "Preemption evicts {} (priority {}, grace period {} s{})",
                victim.pod,
                victim.priority,
                victim.grace_period_seconds,
                if victim.violates_disruption_budget {
                    ", against its PodDisruptionBudget"
                } else {
                    ""
                }
            ));
        }
        let lists = [
            (
                "Violated PodDisruptionBudgets",
                &preemption.violated_disruption_budgets,
            ),
            ("Nominations cleared", &preemption.cleared_nominations),
        ];
        for (title, list) in lists {
            if !list.is_empty() {
                notes.push(format!("{title}: {}", list.join(", ")));
            }
        }
    }
    if !placement.tied_nodes.is_empty() {
        notes.push(format!(
            "Tied for the best score: {}; upstream picks one at random (round-robin in 3.11).",
            placement.tied_nodes.join(", ")
        ));
    }
    if let Some(sampled) = &placement.sampled {
        notes.push(format!(
            "With percentageOfNodesToScore, upstream stops at {} feasible nodes ({} examined) and chooses {}.",
            sampled.nodes_to_find,
            sampled.examined,
            sampled.node.as_deref().unwrap_or("no node")
        ));
    }
    if placement.nodes_omitted {
        notes.push(
            "Only the chosen node's verdict is shown: the report's budget of verdicts was spent."
                .into(),
        );
    }
    notes
}

/// The report's (kebab-case) name of an outcome.
fn outcome_name(outcome: scheduling::Outcome) -> &'static str {
    match outcome {
        scheduling::Outcome::Scheduled => "scheduled",
        scheduling::Outcome::Unschedulable => "unschedulable",
        scheduling::Outcome::Nominated => "nominated",
        scheduling::Outcome::Rejected => "rejected",
        scheduling::Outcome::NotHandled => "not-handled",
        scheduling::Outcome::Gated => "gated",
        scheduling::Outcome::Skipped => "skipped",
    }
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

/// One thing that happened in the timeline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Event {
    /// Nanoseconds from the start.
    pub at: i64,
    /// The report's kind, such as `pod-evicted`.
    pub kind: String,
    /// `Node/name`, `Pod/namespace/name`, `Machine/namespace/name`, …
    pub object: String,
    /// The upstream reason, such as `TaintManagerEviction`.
    pub reason: String,
    /// What happened.
    pub message: String,
}

/// One evicted pod.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Eviction {
    /// `namespace/name`.
    pub pod: String,
    /// The node it ran on.
    pub node: String,
    /// Nanoseconds from the start.
    pub at: i64,
    /// `taint`, `node-lifecycle`, `drain`, `machine-deletion`, `pod-gc`,
    /// `descheduler:<Strategy>`, `preemption` or `job`.
    pub cause: String,
    /// The pod its controller creates in its place.
    pub replacement: Option<String>,
    /// The node the replacement was bound to.
    pub rescheduled_to: Option<String>,
    /// Why it was evicted.
    pub message: String,
}

/// A Machine at the end of the timeline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Machine {
    /// `namespace/name`.
    pub machine: String,
    /// `Running` (or the phase in the input) or `Deleting`.
    pub phase: String,
    /// The instance and the node are gone.
    pub removed: bool,
    /// `Drainable`, `Drained` and `Terminable`.
    pub conditions: Vec<Condition>,
}

/// A machine condition.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Condition {
    /// `Drainable`, `Drained` or `Terminable`.
    pub kind: String,
    /// `True` or `False`.
    pub status: String,
    /// Why it is `False`: the reason, then the message.
    pub message: String,
}

as_tuple!(Event {
    at,
    kind,
    object,
    reason,
    message
});
as_tuple!(Eviction {
    pod,
    node,
    at,
    cause,
    replacement,
    rescheduled_to,
    message
});
as_tuple!(Machine {
    machine,
    phase,
    removed,
    conditions
});
as_tuple!(Condition {
    kind,
    status,
    message
});

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
                    machine: None,
                    place: None,
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
        let disruption = &report.disruption;
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
            placements: report
                .scheduling
                .pods
                .iter()
                .map(Placement::from_report)
                .collect(),
            scenario: None,
            until: disruption.timeline_until.0,
            events: disruption
                .timeline
                .iter()
                .map(|event| Event {
                    at: event.at.0,
                    kind: kebab(event.kind),
                    object: event.object.to_string(),
                    reason: event.reason.to_string(),
                    message: event.message.to_string(),
                })
                .collect(),
            evictions: disruption
                .evictions
                .iter()
                .map(|eviction| Eviction {
                    pod: eviction.pod.to_string(),
                    node: eviction.node.to_string(),
                    at: eviction.at.0,
                    cause: eviction.cause.to_string(),
                    replacement: eviction.replacement.as_ref().map(ToString::to_string),
                    rescheduled_to: eviction.rescheduled_to.clone(),
                    message: eviction.message.to_string(),
                })
                .collect(),
            machines: disruption
                .machines
                .iter()
                .map(|machine| Machine {
                    machine: machine.machine.clone(),
                    phase: machine.phase.clone(),
                    removed: machine.removed,
                    conditions: machine
                        .conditions
                        .iter()
                        .map(|condition| Condition {
                            kind: condition.type_.into(),
                            status: condition.status.into(),
                            message: [condition.reason, &condition.message]
                                .into_iter()
                                .filter(|part| !part.is_empty())
                                .collect::<Vec<_>>()
                                .join(": "),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

/// An enum's name as the report writes it (`pod-evicted`).
fn kebab(value: impl Serialize) -> String {
    let json = serde_json::to_string(&value).unwrap_or_default();
    json.trim_matches('"').to_owned()
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
        for name in [
            "mixed-cluster.yaml",
            "priority-preemption.yaml",
            "scheduler-policy.yaml",
            "machine-deletion-hooks.yaml",
        ] {
            let view = outcome(Example::named(name).unwrap().text()).view;
            assert!(
                !view.placements.is_empty() || !view.events.is_empty(),
                "{name}"
            );
            let json = serde_json::to_string(&view).expect("serialisable");
            let back: View = serde_json::from_str(&json).expect("deserialisable");
            assert_eq!(back, view, "{name}");
        }
    }

    #[test]
    fn the_report_is_the_one_kubefit_core_evaluate_writes() {
        for example in crate::examples::EXAMPLES {
            let sources = [kubefit_core::Source::new(example.name(), example.text())];
            let report = kubefit_core::evaluate(&sources, &Options::default());
            let ours = Outcome::evaluate(&[(example.name(), example.text().as_bytes())]);
            assert_eq!(
                ours.json,
                serde_json::to_string(&report).unwrap(),
                "{}",
                example.name()
            );
        }
    }

    /// A gated pod's panel names its gates; it has no matrix (no node was examined).
    #[test]
    fn a_gated_placement_names_its_gates() {
        let text = "kind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '1', pods: '9'}}\n---\nkind: Pod\nmetadata: {name: g, namespace: default}\nspec: {schedulingGates: [{name: example.com/wait}], containers: [{name: c}]}\n";
        let view = Outcome::evaluate(&[("g.yaml", text.as_bytes())]).view;
        let [gated] = view.placements.as_slice() else {
            panic!("one pending pod: {:?}", view.placements);
        };
        assert_eq!(gated.outcome, "gated");
        assert_eq!(
            gated.message.as_deref(),
            Some("Scheduling is blocked due to non-empty scheduling gates")
        );
        assert_eq!(
            gated.notes,
            ["Waiting for scheduling gates: example.com/wait."]
        );
        assert!(gated.verdicts.is_empty());
    }

    #[test]
    fn placements_become_a_matrix_with_places_in_the_input() {
        let text = Example::named("priority-preemption.yaml").unwrap().text();
        let view = Outcome::evaluate(&[("p.yaml", text.as_bytes())]).view;
        let [nginx] = view.placements.as_slice() else {
            panic!("one pending pod: {:?}", view.placements);
        };
        assert_eq!(nginx.pod, "default/nginx");
        assert_eq!(nginx.priority, 1_000_000);
        assert_eq!(nginx.outcome, "nominated");
        assert_eq!(nginx.nominated.as_deref(), Some("node1"));
        assert_eq!(
            nginx.message.as_deref(),
            Some("0/1 nodes are available: 1 Insufficient cpu.")
        );
        assert_eq!(
            nginx.notes,
            [
                "Preemption evicts default/batch-1 (priority 100, grace period 30 s, against its PodDisruptionBudget)",
                "Violated PodDisruptionBudgets: default/batch",
            ]
        );
        assert_eq!(nginx.filters.len(), 12, "{:?}", nginx.filters);
        let fit = nginx
            .filters
            .iter()
            .position(|f| f == "NodeResourcesFit")
            .unwrap();
        let node1 = &nginx.verdicts[0];
        assert_eq!(node1.node, "node1");
        assert_eq!(node1.cells.chars().nth(fit), Some(FAIL));
        assert_eq!(node1.cells.matches(PASS).count(), 11);
        assert_eq!(node1.failures, ["Insufficient cpu"]);
        // Places are byte ranges of the objects in their document.
        let Place(source, start, end) = nginx.place.clone().expect("the pod's place");
        assert_eq!(source, "p.yaml");
        let pod_text = &text[start as usize..end as usize];
        assert!(
            pod_text.starts_with("apiVersion: v1\nkind: Pod\nmetadata:\n  name: nginx"),
            "{pod_text}"
        );
        assert!(
            pod_text
                .trim_end()
                .ends_with("priorityClassName: high-priority"),
            "{pod_text}"
        );
        let node = view.nodes[0].place.as_ref().expect("the node's place");
        assert!(text[node.1 as usize..]
            .starts_with("apiVersion: v1\nkind: Node\nmetadata:\n  name: node1"));

        // The 3.11 Policy: predicates in its order, scores per priority and their total.
        let policy = outcome(Example::named("scheduler-policy.yaml").unwrap().text()).view;
        let web = &policy.placements[0];
        assert_eq!(
            web.scores,
            ["ZoneSpread", "ZonePreferred", "ServiceSpreadingPriority"]
        );
        let node_b = web.verdicts.iter().find(|v| v.node == "node-b").unwrap();
        assert_eq!(node_b.scores, [Some(10), Some(10), Some(10)]);
        assert_eq!(node_b.total, Some(40));
        let node_e = web.verdicts.iter().find(|v| v.node == "node-e").unwrap();
        assert!(node_e.scores.is_empty() && node_e.total.is_none());
        assert_eq!(web.filters[0], "CheckNodeCondition");
    }

    #[test]
    fn a_node_without_allocatable_has_no_share() {
        let view = outcome("kind: Node\nmetadata: {name: bare}\n").view;
        assert_eq!(view.nodes[0].cpu, Usage::default());
        assert_eq!(view.nodes[0].cpu.percent(), None);
    }

    #[test]
    fn the_timeline_evictions_and_machines_come_with_each_node_s_machine() {
        let text = Example::named("machine-deletion-hooks.yaml")
            .unwrap()
            .text();
        let view = Outcome::evaluate(&[("hooks.yaml", text.as_bytes())]).view;
        assert_eq!(view.scenario.as_deref(), Some("hooks.yaml"));
        assert_eq!(view.until, 3600 * kubefit_core::duration::SECOND);
        let machines: Vec<Option<&str>> = view.nodes.iter().map(|n| n.machine.as_deref()).collect();
        assert_eq!(machines, [Some("openshift-machine-api/worker-a-1"), None]);
        let first = &view.events[0];
        assert_eq!(
            (first.at, first.kind.as_str(), first.reason.as_str()),
            (0, "machine", "Deleting")
        );
        assert_eq!(first.object, "Machine/openshift-machine-api/worker-a-1");
        let [eviction] = view.evictions.as_slice() else {
            panic!("one eviction: {:?}", view.evictions);
        };
        assert_eq!(eviction.cause, "machine-deletion");
        assert_eq!(eviction.replacement.as_deref(), Some("default/app-ppbkg"));
        assert_eq!(eviction.rescheduled_to.as_deref(), Some("worker-b-1"));
        let conditions: Vec<(&str, &str, &str)> = view.machines[0]
            .conditions
            .iter()
            .map(|c| (c.kind.as_str(), c.status.as_str(), c.message.as_str()))
            .collect();
        assert_eq!(
            conditions,
            [
                ("Drainable", "True", ""),
                ("Drained", "True", "Drain finished successfully"),
                ("Terminable", "True", ""),
            ]
        );
        // Without a Scenario there is no timeline.
        let plain = outcome(Example::first().text()).view;
        assert_eq!((plain.scenario, plain.events.len()), (None, 0));
    }
}
