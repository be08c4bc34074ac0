//! The text rendering of a report: aligned tables, like `kubectl get`.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write;

use super::words::Words;
use super::Report;
use crate::diagnostic::Severity;

/// Renders the report as text.
pub(super) fn render(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "kubefit {} · profile {}",
        report.kubefit_version, report.profile
    );
    if !report.diagnostics.is_empty() {
        let _ = writeln!(out, "\nDIAGNOSTICS");
        for diagnostic in &report.diagnostics {
            let severity = match diagnostic.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let mut place = String::new();
            if let (Some(source), Some(line), Some(column)) =
                (&diagnostic.source, diagnostic.line, diagnostic.column)
            {
                let _ = write!(place, "{source}:{line}:{column}: ");
            }
            let _ = write!(
                out,
                "{place}{severity}[{}]: {}",
                diagnostic.code, diagnostic.message
            );
            if let Some(object) = &diagnostic.object {
                let _ = write!(out, " ({object}");
                if let Some(path) = &diagnostic.path {
                    let _ = write!(out, " {path}");
                }
                out.push(')');
            }
            out.push('\n');
            if let Some(help) = &diagnostic.help {
                let _ = writeln!(out, "  help: {help}");
            }
        }
    }
    let quantity = |list: &crate::model::ResourceList, name: &str| {
        list.get(name)
            .map_or_else(|| String::from("-"), alloc::string::ToString::to_string)
    };
    let mut nodes = vec_of(&[
        "NAME",
        "READY",
        "SCHEDULABLE",
        "CPU",
        "CPU REQ",
        "CPU FREE",
        "MEMORY",
        "MEMORY REQ",
        "MEMORY FREE",
        "PODS",
        "TAINTS",
    ]);
    for node in &report.nodes {
        let pods = node.allocatable.get("pods").map_or_else(
            || alloc::format!("{}", node.pods),
            |max| alloc::format!("{}/{max}", node.pods),
        );
        nodes.push(alloc::vec![
            node.name.clone(),
            String::from(if node.ready { "True" } else { "False" }),
            String::from(if node.unschedulable { "False" } else { "True" }),
            quantity(&node.allocatable, "cpu"),
            quantity(&node.requested, "cpu"),
            quantity(&node.free, "cpu"),
            quantity(&node.allocatable, "memory"),
            quantity(&node.requested, "memory"),
            quantity(&node.free, "memory"),
            pods,
            if node.taints.is_empty() {
                String::from("<none>")
            } else {
                node.taints.join(",")
            },
        ]);
    }
    let _ = writeln!(out, "\nNODES ({})", report.nodes.len());
    table(&mut out, &nodes);
    let mut pods = vec_of(&["POD", "NODE", "STATE", "PRIORITY", "QOS", "CPU", "MEMORY"]);
    for pod in &report.pods {
        pods.push(alloc::vec![
            pod.pod.clone(),
            pod.node.clone().unwrap_or_else(|| String::from("<none>")),
            String::from(match pod.state {
                crate::cluster::PodState::Bound => "Bound",
                crate::cluster::PodState::Pending => "Pending",
                crate::cluster::PodState::Rejected => "Rejected",
                crate::cluster::PodState::Terminated => "Terminated",
            }),
            alloc::format!("{}", pod.priority),
            String::from(pod.qos_class.as_str()),
            quantity(&pod.requests, "cpu"),
            quantity(&pod.requests, "memory"),
        ]);
    }
    let _ = writeln!(out, "\nPODS ({})", report.pods.len());
    table(&mut out, &pods);
    scheduling(&mut out, &report.scheduling);
    timeline(&mut out, &report.disruption);
    out
}

/// The Scenario's timeline like `kubectl get events`, then the evictions and machines.
fn timeline(out: &mut String, disruption: &super::disruption::Disruption) {
    if disruption.timeline.is_empty() {
        return;
    }
    let mut events = vec_of(&["AT", "REASON", "OBJECT", "MESSAGE"]);
    for event in &disruption.timeline {
        events.push(alloc::vec![
            alloc::format!("{}", event.at),
            event.reason.clone().into_owned(),
            event.object.to_string(),
            event.message.to_string(),
        ]);
    }
    let _ = writeln!(
        out,
        "\nTIMELINE (until {}, {} events)",
        disruption.timeline_until,
        disruption.timeline.len()
    );
    table(out, &events);
    if !disruption.evictions.is_empty() {
        let mut evictions = vec_of(&["AT", "POD", "NODE", "CAUSE", "REPLACEMENT", "LANDS ON"]);
        for eviction in &disruption.evictions {
            evictions.push(alloc::vec![
                alloc::format!("{}", eviction.at),
                eviction.pod.to_string(),
                eviction.node.to_string(),
                String::from(eviction.cause.as_ref()),
                eviction
                    .replacement
                    .as_ref()
                    .map_or_else(|| String::from("<none>"), Words::to_string),
                match (&eviction.replacement, &eviction.rescheduled_to) {
                    (None, _) => String::from("-"),
                    (Some(_), None) => String::from("<pending>"),
                    (Some(_), Some(node)) => node.clone(),
                },
            ]);
        }
        let _ = writeln!(out, "\nEVICTIONS ({})", disruption.evictions.len());
        table(out, &evictions);
    }
    if !disruption.machines.is_empty() {
        let mut machines = vec_of(&["MACHINE", "PHASE", "REMOVED", "CONDITIONS"]);
        for machine in &disruption.machines {
            let conditions: Vec<String> = machine
                .conditions
                .iter()
                .map(|condition| alloc::format!("{}={}", condition.type_, condition.status))
                .collect();
            machines.push(alloc::vec![
                machine.machine.clone(),
                machine.phase.clone(),
                String::from(if machine.removed { "yes" } else { "no" }),
                conditions.join(","),
            ]);
        }
        let _ = writeln!(out, "\nMACHINES ({})", disruption.machines.len());
        table(out, &machines);
    }
}

/// Per pending pod: the outcome, the upstream message, and a node × filter table with
/// each scored node's total.
fn scheduling(out: &mut String, scheduling: &super::scheduling::Scheduling) {
    use super::scheduling::Outcome;
    if scheduling.pods.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nSCHEDULING ({}, {} pending)",
        scheduling.profile,
        scheduling.pods.len()
    );
    for placement in &scheduling.pods {
        let outcome = match placement.outcome {
            Outcome::Scheduled => "scheduled",
            Outcome::Unschedulable => "unschedulable",
            Outcome::Nominated => "nominated",
            Outcome::Rejected => "rejected",
            Outcome::NotHandled => "not handled",
            Outcome::Gated => "gated",
            Outcome::Skipped => "skipped",
        };
        let _ = write!(
            out,
            "\n{} (priority {}): {outcome}",
            placement.pod, placement.priority
        );
        match (&placement.nominated_node, &placement.node) {
            (Some(nominated), _) => {
                let _ = write!(
                    out,
                    " to {nominated}, where preemption makes room; placed there on its next attempt"
                );
            }
            (None, Some(node)) => {
                let _ = write!(out, " on {node}");
            }
            (None, None) => {}
        }
        out.push('\n');
        if let Some(message) = &placement.message {
            let _ = writeln!(out, "  {message}");
        }
        if !placement.scheduling_gates.is_empty() {
            let _ = writeln!(out, "  gates: {}", placement.scheduling_gates.join(", "));
        }
        if let Some(first) = &placement.first_attempt {
            let _ = writeln!(out, "  first attempt: {first}");
        }
        if let Some(preemption) = &placement.preemption {
            for victim in &preemption.victims {
                let _ = writeln!(
                    out,
                    "  victim {} (priority {}, grace {}s{})",
                    victim.pod,
                    victim.priority,
                    victim.grace_period_seconds,
                    if victim.violates_disruption_budget {
                        ", violates a PodDisruptionBudget"
                    } else {
                        ""
                    }
                );
            }
        }
        if placement.nodes_omitted {
            let _ = writeln!(
                out,
                "  (other nodes' verdicts left out: the report's budget of per-node verdicts is spent)"
            );
        }
        placement_table(out, placement);
    }
}

/// The node × filter table of one placement: `ok` or `fail` per filter (`-` where it did
/// not run), the scores before weights and their weighted total on scored nodes, and the
/// reasons the message counts. The chosen (or nominated) node is marked `*`.
fn placement_table(out: &mut String, placement: &crate::report::scheduling::Placement) {
    let nodes = &placement.nodes.0;
    let Some(filters) = nodes
        .iter()
        .map(|(_, verdict)| &verdict.predicates)
        .max_by_key(|predicates| predicates.len())
    else {
        return;
    };
    let scores: Vec<&str> = nodes
        .iter()
        .find_map(|(_, verdict)| verdict.scores.as_ref())
        .map(|map| map.0.iter().map(|(name, _)| name.as_str()).collect())
        .unwrap_or_default();
    let mut header = alloc::vec![String::from("NODE")];
    header.extend(
        filters
            .iter()
            .map(|predicate| String::from(predicate.name.as_ref())),
    );
    header.extend(scores.iter().map(|name| alloc::format!("{name} (score)")));
    header.extend([String::from("TOTAL"), String::from("REASONS")]);
    let chosen = placement
        .nominated_node
        .as_deref()
        .or(placement.node.as_deref());
    let mut rows = alloc::vec![header];
    for (name, verdict) in nodes {
        let mut row = alloc::vec![if chosen == Some(name.as_str()) {
            alloc::format!("{name} *")
        } else {
            name.clone()
        }];
        row.extend(filters.iter().map(|filter| {
            match verdict
                .predicates
                .iter()
                .find(|predicate| predicate.name == filter.name)
            {
                Some(predicate) if predicate.passed => String::from("ok"),
                Some(_) => String::from("fail"),
                None => String::from("-"),
            }
        }));
        row.extend(scores.iter().map(|score| {
            verdict
                .scores
                .as_ref()
                .and_then(|map| map.0.iter().find(|(name, _)| name == score))
                .map_or_else(|| String::from("-"), |(_, value)| alloc::format!("{value}"))
        }));
        row.push(
            verdict
                .total
                .map_or_else(|| String::from("-"), |total| alloc::format!("{total}")),
        );
        row.push(if verdict.reasons.is_empty() {
            String::from("-")
        } else {
            verdict.reasons.join("; ")
        });
        rows.push(row);
    }
    let mut table_text = String::new();
    table(&mut table_text, &rows);
    for line in table_text.lines() {
        let _ = writeln!(out, "  {line}");
    }
}

fn vec_of(headers: &[&str]) -> Vec<Vec<String>> {
    alloc::vec![headers.iter().map(|header| String::from(*header)).collect()]
}

/// Writes rows as columns separated by three spaces, each as wide as its widest cell.
fn table(out: &mut String, rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows {
        for (column, cell) in row.iter().enumerate() {
            let width = cell.chars().count();
            match widths.get_mut(column) {
                Some(current) => *current = (*current).max(width),
                None => widths.push(width),
            }
        }
    }
    for row in rows {
        let mut line = String::new();
        for (column, cell) in row.iter().enumerate() {
            if column + 1 == row.len() {
                line.push_str(cell);
            } else {
                let width = widths.get(column).copied().unwrap_or(0);
                let _ = write!(line, "{cell:<width$}   ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use crate::{evaluate, Options, Source};

    /// The chapter's preemption shape: node1 is full with a low-priority pod, so the
    /// high-priority pod preempts it.
    const PREEMPTION: &str = "
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: node1}
status: {allocatable: {cpu: '2', memory: 4Gi, pods: '10'}}
---
apiVersion: v1
kind: Pod
metadata: {name: batch, namespace: default}
spec:
  nodeName: node1
  containers: [{name: c, image: i, resources: {requests: {cpu: '2'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: urgent, namespace: default}
spec:
  priorityClassName: high
  containers: [{name: c, image: i, resources: {requests: {cpu: '1'}}}]
";

    #[test]
    fn a_placement_shows_its_outcome_message_victims_and_node_by_filter_table() {
        let text = evaluate(&[Source::new("p.yaml", PREEMPTION)], &Options::default()).to_text();
        let section = text.split("SCHEDULING").nth(1).unwrap_or_default();
        let lines: alloc::vec::Vec<&str> = section.lines().map(str::trim_end).collect();
        assert_eq!(
            lines.get(2).copied(),
            Some("default/urgent (priority 1000): nominated to node1, where preemption makes room; placed there on its next attempt")
        );
        assert!(
            lines.get(3).is_some_and(
                |line| line.starts_with("  0/1 nodes are available: 1 Insufficient cpu.")
            )
        );
        assert_eq!(
            lines.get(4).copied(),
            Some("  victim default/batch (priority 0, grace 30s)")
        );
        let header: alloc::vec::Vec<&str> =
            lines.get(5).unwrap_or(&"").split_whitespace().collect();
        assert_eq!(header.first().copied(), Some("NODE"));
        assert_eq!(header.get(6).copied(), Some("NodeResourcesFit"));
        assert_eq!(header.last().copied(), Some("REASONS"));
        let row: alloc::vec::Vec<&str> = lines.get(6).unwrap_or(&"").split_whitespace().collect();
        assert_eq!(row.get(..2), Some(&["node1", "*"][..]));
        assert_eq!(row.get(7).copied(), Some("fail"));
        assert_eq!(
            row.get(row.len().saturating_sub(2)..),
            Some(&["Insufficient", "cpu"][..])
        );
    }
}
