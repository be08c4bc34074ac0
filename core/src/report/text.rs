//! The text rendering of a report: aligned tables, like `kubectl get`.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

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
    out
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
        };
        let _ = write!(
            out,
            "\n{} (priority {}): {outcome}",
            placement.pod, placement.priority
        );
        if let Some(node) = &placement.node {
            let _ = write!(out, " on {node}");
        }
        if let Some(node) = &placement.nominated_node {
            let _ = write!(out, ", nominated {node}");
        }
        out.push('\n');
        if let Some(message) = &placement.message {
            let _ = writeln!(out, "  {message}");
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
        let Some((_, first)) = placement.nodes.0.first() else {
            continue;
        };
        let mut header = alloc::vec![String::from("NODE")];
        header.extend(
            first
                .predicates
                .iter()
                .map(|predicate| predicate.name.clone()),
        );
        header.push(String::from("TOTAL"));
        let mut rows = alloc::vec![header];
        for (name, verdict) in &placement.nodes.0 {
            let mut row = alloc::vec![name.clone()];
            if verdict.predicates.is_empty() {
                row.extend(first.predicates.iter().map(|_| String::from("-")));
            }
            row.extend(verdict.predicates.iter().map(|predicate| {
                if predicate.passed {
                    String::from("ok")
                } else {
                    predicate.reasons.join("; ")
                }
            }));
            row.push(
                verdict
                    .total
                    .map_or_else(|| String::from("-"), |total| alloc::format!("{total}")),
            );
            rows.push(row);
        }
        let mut table_text = String::new();
        table(&mut table_text, &rows);
        for line in table_text.lines() {
            let _ = writeln!(out, "  {line}");
        }
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
