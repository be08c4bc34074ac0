//! The scheduling benchmark clusters of the scheduling issue, as YAML text.
//!
//! Four shapes, each in kubefit's input format with flow-style objects (the input stage is
//! measured elsewhere; these measure placement):
//! - [`Case::Default`]: 5 000 nodes, 1 000 bound and 10 000 pending pods with plain requests;
//! - [`Case::HostnameAntiAffinity`]: 1 000 nodes and 1 000 pending pods that each require no
//!   other pod of their app on the same host;
//! - [`Case::ZoneAffinity`]: 5 000 nodes in 10 zones and 5 000 pending pods that require a
//!   pod of their backend in the same zone;
//! - [`Case::Preemption`]: 5 000 nodes, each full with one low-priority pod, and 5 000
//!   high-priority pending pods that must preempt.

use std::fmt::Write as _;

/// A benchmark cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// 5 000 nodes / 1 000 bound / 10 000 pending default pods.
    Default,
    /// 1 000 nodes, 1 000 pending pods with required hostname anti-affinity.
    HostnameAntiAffinity,
    /// 5 000 nodes, 5 000 pending pods with required zone pod affinity.
    ZoneAffinity,
    /// 5 000 preemptors on 5 000 full nodes.
    Preemption,
}

impl Case {
    /// Every case, in the order.
    pub const ALL: [Case; 4] = [
        Case::Default,
        Case::HostnameAntiAffinity,
        Case::ZoneAffinity,
        Case::Preemption,
    ];

    /// A short name for benchmark ids.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Case::Default => "default-5000n-1000b-10000p",
            Case::HostnameAntiAffinity => "hostname-anti-affinity-1000n-1000p",
            Case::ZoneAffinity => "zone-affinity-5000n-5000p",
            Case::Preemption => "preemption-5000n-5000p",
        }
    }

    /// How many pods are pending.
    #[must_use]
    pub fn pending(self) -> usize {
        match self {
            Case::Default => 10_000,
            Case::HostnameAntiAffinity => 1_000,
            Case::ZoneAffinity | Case::Preemption => 5_000,
        }
    }
}

fn node(out: &mut String, index: usize, cpu: &str, memory: &str) {
    let _ = writeln!(
        out,
        "---\napiVersion: v1\nkind: Node\nmetadata: {{name: node-{index:05}, labels: {{kubernetes.io/hostname: node-{index:05}, topology.kubernetes.io/zone: zone-{zone}}}}}\nstatus: {{allocatable: {{cpu: '{cpu}', memory: {memory}, pods: '110'}}, conditions: [{{type: Ready, status: 'True'}}]}}",
        zone = index % 10
    );
}

fn pod(
    out: &mut String,
    name: &str,
    labels: &str,
    node: Option<usize>,
    cpu: &str,
    memory: &str,
    extra: &str,
) {
    let _ = write!(
        out,
        "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: bench, labels: {{{labels}}}, creationTimestamp: '2026-01-01T00:00:00Z'}}\nspec:\n"
    );
    if let Some(node) = node {
        let _ = writeln!(out, "  nodeName: node-{node:05}");
    }
    let _ = writeln!(
        out,
        "  containers: [{{name: c, image: registry.example/app:1, resources: {{requests: {{cpu: {cpu}, memory: {memory}}}}}}}]"
    );
    out.push_str(extra);
    if node.is_some() {
        out.push_str("status: {phase: Running}\n");
    }
}

/// The cluster of a case.
#[must_use]
pub fn cluster(case: Case) -> String {
    let mut out = String::with_capacity(8 << 20);
    match case {
        Case::Default => {
            for index in 0..5_000 {
                node(&mut out, index, "16", "64Gi");
            }
            for index in 0..1_000 {
                pod(
                    &mut out,
                    &format!("bound-{index:05}"),
                    "app: bound",
                    Some(index * 5),
                    "500m",
                    "1Gi",
                    "",
                );
            }
            for index in 0..10_000 {
                pod(
                    &mut out,
                    &format!("web-{index:05}"),
                    "app: web",
                    None,
                    "100m",
                    "256Mi",
                    "",
                );
            }
        }
        Case::HostnameAntiAffinity => {
            for index in 0..1_000 {
                node(&mut out, index, "16", "64Gi");
            }
            let rule = "  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: spread}}, topologyKey: kubernetes.io/hostname}]}}\n";
            for index in 0..1_000 {
                pod(
                    &mut out,
                    &format!("spread-{index:05}"),
                    "app: spread",
                    None,
                    "100m",
                    "256Mi",
                    rule,
                );
            }
        }
        Case::ZoneAffinity => {
            for index in 0..5_000 {
                node(&mut out, index, "16", "64Gi");
            }
            // One backend pod in each of zones 0-4: frontends may go to half the zones.
            for zone in 0..5 {
                pod(
                    &mut out,
                    &format!("backend-{zone}"),
                    "app: backend",
                    Some(zone),
                    "100m",
                    "256Mi",
                    "",
                );
            }
            let rule = "  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: backend}}, topologyKey: topology.kubernetes.io/zone}]}}\n";
            for index in 0..5_000 {
                pod(
                    &mut out,
                    &format!("frontend-{index:05}"),
                    "app: frontend",
                    None,
                    "100m",
                    "256Mi",
                    rule,
                );
            }
        }
        Case::Preemption => {
            out.push_str("---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 10\n");
            out.push_str("---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n");
            for index in 0..5_000 {
                node(&mut out, index, "4", "16Gi");
                pod(
                    &mut out,
                    &format!("filler-{index:05}"),
                    "app: filler",
                    Some(index),
                    "4",
                    "8Gi",
                    "  priorityClassName: low\n  priority: 10\n",
                );
            }
            for index in 0..5_000 {
                pod(
                    &mut out,
                    &format!("urgent-{index:05}"),
                    "app: urgent",
                    None,
                    "2",
                    "4Gi",
                    "  priorityClassName: high\n",
                );
            }
        }
    }
    out
}
