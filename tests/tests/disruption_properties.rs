//! Properties of the disruption timeline that hold for any cluster and any steps (issue 5):
//! it never panics, its events come in time order, a pod is evicted once at most, and the
//! node lifecycle controller taints at most one node per zone every 10 s. Native only
//! (proptest is a native dev-dependency).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use kubefit_core::schedule::{ScheduleOptions, Version};
use kubefit_core::{evaluate, Options, Report, Source};
use proptest::prelude::*;

/// A node: its zone (0–2) and Ready status.
type NodeShape = (u8, &'static str);

/// A step: when (in 5 s units, so that steps often meet), what (0–5), on which node.
type StepShape = (u16, u8, usize);

fn nodes() -> impl Strategy<Value = Vec<NodeShape>> {
    prop::collection::vec(
        (
            0u8..3,
            prop::sample::select(vec!["True", "False", "Unknown"]),
        ),
        1..7,
    )
}

fn steps() -> impl Strategy<Value = Vec<StepShape>> {
    prop::collection::vec((0u16..24, 0u8..6, 0usize..7), 0..10)
}

/// Nodes in up to three zones, a pod on each node (some tolerating the NoExecute taints
/// for a while), a budget over half of them, and the steps.
fn yaml(nodes: &[NodeShape], steps: &[StepShape]) -> String {
    let mut text = String::new();
    for (index, (zone, ready)) in nodes.iter().enumerate() {
        text += &format!(
            "---\napiVersion: v1\nkind: Node\nmetadata: {{name: n{index}, labels: {{topology.kubernetes.io/zone: z{zone}}}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '10'}}, conditions: [{{type: Ready, status: '{ready}'}}]}}\n"
        );
        let tolerations = match index % 3 {
            0 => "",
            1 => ", tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]",
            _ => ", tolerations: [{operator: Exists}]",
        };
        text += &format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{index}, namespace: default, labels: {{app: web, half: '{}'}}, ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u1, controller: true}}]}}\nspec: {{nodeName: n{index}, containers: [{{name: c, image: x, resources: {{requests: {{cpu: 100m}}}}}}]{tolerations}}}\nstatus: {{phase: Running}}\n",
            index % 2
        );
    }
    text += "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: half, namespace: default}\nspec: {minAvailable: 1, selector: {matchLabels: {half: '0'}}}\n";
    text += "---\napiVersion: kubefit.dev/v1alpha1\nkind: Scenario\nmetadata: {name: random}\nspec:\n  horizon: 20m\n";
    text += if steps.is_empty() {
        "  steps: []\n"
    } else {
        "  steps:\n"
    };
    for (at, kind, node) in steps {
        let node = node % nodes.len();
        let step = match kind {
            0 => format!("nodeCondition: {{node: n{node}, type: Ready, status: Unknown}}"),
            1 => format!("nodeCondition: {{node: n{node}, type: Ready, status: 'False'}}"),
            2 => format!("nodeCondition: {{node: n{node}, type: Ready, status: 'True'}}"),
            3 => format!("taint: 'n{node} k=v:NoExecute'"),
            4 => format!("untaint: {{node: n{node}, key: k}}"),
            _ => format!("drain: {{node: n{node}, ignoreDaemonSets: true, timeout: 2m}}"),
        };
        text += &format!("  - {{at: {}s, {step}}}\n", at * 5);
    }
    text
}

fn play(text: &str, version: Version) -> Report {
    let options = Options {
        profile: Some(version),
        schedule: ScheduleOptions {
            ..ScheduleOptions::default()
        },
        ..Options::default()
    };
    evaluate(&[Source::new("cluster", text)], &options)
}

fn versions() -> impl Strategy<Value = Version> {
    prop_oneof![Just(Version::Legacy), Just(Version::Current)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn the_timeline_is_ordered_and_evicts_each_pod_once(
        nodes in nodes(), steps in steps(), version in versions()
    ) {
        let report = play(&yaml(&nodes, &steps), version);
        let errors: Vec<_> = report.diagnostics.iter().filter(|d| d.is_error()).collect();
        prop_assert!(errors.is_empty(), "{errors:?}");
        let timeline = &report.disruption.timeline;
        prop_assert!(timeline.windows(2).all(|pair| pair[0].at <= pair[1].at));
        let mut evicted: Vec<String> =
            report.disruption.evictions.iter().map(|eviction| eviction.pod.to_string()).collect();
        let count = evicted.len();
        evicted.sort();
        evicted.dedup();
        prop_assert_eq!(evicted.len(), count, "a pod evicted twice");
    }

    #[test]
    fn a_zone_taints_one_node_per_ten_seconds(nodes in nodes(), steps in steps()) {
        let report = play(&yaml(&nodes, &steps), Version::Current);
        // Each node's zone, from the input.
        let zone_of = |object: &str| -> Option<u8> {
            let index: usize = object.strip_prefix("Node/n")?.parse().ok()?;
            nodes.get(index).map(|(zone, _)| *zone)
        };
        // A node tainted not-ready or unreachable takes its zone's token, unless the taint
        // replaces the other one at the same moment (a swap).
        let mut removed: BTreeMap<String, i64> = BTreeMap::new();
        let mut last: BTreeMap<u8, i64> = BTreeMap::new();
        for event in &report.disruption.timeline {
            let message = event.message.to_string();
            let object = event.object.to_string();
            let lifecycle = message.contains("node.kubernetes.io/not-ready:NoExecute")
                || message.contains("node.kubernetes.io/unreachable:NoExecute");
            if !lifecycle || event.reason != "NodeLifecycleController" {
                continue;
            }
            if !message.contains(" tainted with ") {
                removed.insert(object, event.at.0);
                continue;
            }
            if removed.get(&object) == Some(&event.at.0) {
                continue;
            }
            let Some(zone) = zone_of(&object) else { continue };
            let at = event.at.0;
            if let Some(previous) = last.insert(zone, at) {
                prop_assert!(
                    at - previous >= 10_000_000_000,
                    "zone z{zone} tainted {object} {}s after its previous taint",
                    (at - previous) / 1_000_000_000
                );
            }
        }
    }
}
