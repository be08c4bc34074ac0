//! Properties of placement that hold for any cluster (issue 4): more allocatable never
//! turns a fit into no fit, a matching toleration never removes a feasible node, and the
//! same input always gives the same placement. Native only (proptest is a native
//! dev-dependency; the browser layer runs the scenario fixtures).
#![cfg(not(target_arch = "wasm32"))]

use kubefit_core::report::scheduling::Outcome;
use kubefit_core::schedule::{ScheduleOptions, Version};
use kubefit_core::{evaluate, Options, Report, Source};
use proptest::prelude::*;

/// A small cluster: nodes with cpu/memory/taints, bound pods, one pending pod.
#[derive(Clone, Debug)]
struct Cluster {
    nodes: Vec<(u32, u32, bool)>,
    bound: Vec<(usize, u32, u32)>,
    pending: (u32, u32),
}

fn cluster() -> impl Strategy<Value = Cluster> {
    (
        prop::collection::vec((1u32..8000, 1u32..16, any::<bool>()), 1..6),
        prop::collection::vec((0usize..6, 0u32..4000, 0u32..8), 0..8),
        (0u32..6000, 0u32..12),
    )
        .prop_map(|(nodes, bound, pending)| Cluster {
            nodes,
            bound,
            pending,
        })
}

fn yaml(cluster: &Cluster, extra_cpu: u32, tolerate: bool) -> String {
    let mut text = String::new();
    for (index, (cpu, memory, tainted)) in cluster.nodes.iter().enumerate() {
        let cpu = if index == 0 { cpu + extra_cpu } else { *cpu };
        text += &format!(
            "---\napiVersion: v1\nkind: Node\nmetadata: {{name: n{index}, labels: {{kubernetes.io/hostname: n{index}}}}}\n"
        );
        if *tainted {
            text += "spec: {taints: [{key: team, value: blue, effect: NoSchedule}]}\n";
        }
        text +=
            &format!("status: {{allocatable: {{cpu: {cpu}m, memory: {memory}Gi, pods: '4'}}}}\n");
    }
    for (index, (node, cpu, memory)) in cluster.bound.iter().enumerate() {
        let node = node % cluster.nodes.len();
        text += &format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: b{index}, namespace: default}}\nspec: {{nodeName: n{node}, containers: [{{name: c, image: x, resources: {{requests: {{cpu: {cpu}m, memory: {memory}Gi}}}}}}]}}\n"
        );
    }
    let toleration = if tolerate {
        ", tolerations: [{key: team, operator: Equal, value: blue, effect: NoSchedule}]"
    } else {
        ""
    };
    text += &format!(
        "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: pending, namespace: default}}\nspec: {{containers: [{{name: c, image: x, resources: {{requests: {{cpu: {}m, memory: {}Gi}}}}}}]{toleration}}}\n",
        cluster.pending.0, cluster.pending.1
    );
    text
}

fn schedule(text: &str, version: Version) -> Report {
    let options = Options {
        profile: Some(version),
        schedule: ScheduleOptions {
            disable_preemption: true,
            ..ScheduleOptions::default()
        },
        ..Options::default()
    };
    evaluate(&[Source::new("cluster", text)], &options)
}

/// Nodes where the pending pod passes every filter.
fn feasible(report: &Report) -> Vec<String> {
    let placement = report
        .scheduling
        .pods
        .iter()
        .find(|placement| placement.pod == "default/pending")
        .expect("the pending pod is scheduled");
    placement
        .nodes
        .0
        .iter()
        .filter(|(_, verdict)| verdict.reasons.is_empty())
        .map(|(name, _)| name.clone())
        .collect()
}

fn versions() -> impl Strategy<Value = Version> {
    prop_oneof![Just(Version::Legacy), Just(Version::Current)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn more_allocatable_never_turns_fit_into_no_fit(
        cluster in cluster(), extra in 0u32..4000, version in versions()
    ) {
        let before = feasible(&schedule(&yaml(&cluster, 0, false), version));
        let after = feasible(&schedule(&yaml(&cluster, extra, false), version));
        for node in before {
            prop_assert!(after.contains(&node), "{node} stopped fitting with more cpu");
        }
    }

    #[test]
    fn a_matching_toleration_never_removes_a_feasible_node(
        cluster in cluster(), version in versions()
    ) {
        let without = feasible(&schedule(&yaml(&cluster, 0, false), version));
        let with = feasible(&schedule(&yaml(&cluster, 0, true), version));
        for node in without {
            prop_assert!(with.contains(&node), "{node} stopped fitting with a toleration");
        }
    }

    #[test]
    fn placement_is_deterministic(cluster in cluster(), version in versions()) {
        let text = yaml(&cluster, 0, false);
        let first = schedule(&text, version);
        let second = schedule(&text, version);
        let decisions = |report: &Report| -> Vec<(String, Option<String>, bool)> {
            report
                .scheduling
                .pods
                .iter()
                .map(|p| (p.pod.clone(), p.node.clone(), p.outcome == Outcome::Scheduled))
                .collect()
        };
        prop_assert_eq!(decisions(&first), decisions(&second));
        prop_assert_eq!(
            serde_json::to_string(&first.scheduling).unwrap_or_default(),
            serde_json::to_string(&second.scheduling).unwrap_or_default()
        );
    }
}
