//! Runs every scenario fixture natively.

use kubefit_tests::{check, healthy, run, SCENARIOS};

#[test]
fn every_scenario_matches_its_expectation() {
    assert!(!SCENARIOS.is_empty(), "no scenarios found");
    let bless = std::env::var_os("KUBEFIT_BLESS").is_some();
    let mut failures = Vec::new();
    for scenario in SCENARIOS {
        if scenario.expected.is_none() && bless {
            let path = format!(
                "{}/scenarios/{}/expected.json",
                env!("CARGO_MANIFEST_DIR"),
                scenario.name
            );
            let report = expectation(scenario.name, run(scenario));
            std::fs::write(
                &path,
                serde_json::to_string_pretty(&report).unwrap_or_default() + "\n",
            )
            .unwrap_or_else(|error| panic!("cannot write {path}: {error}"));
            continue;
        }
        if let Err(differences) = check(scenario) {
            failures.push(format!(
                "{}:\n  {}",
                scenario.name,
                differences.join("\n  ")
            ));
        }
        assert!(
            healthy(),
            "the engine is unusable after scenario {}",
            scenario.name
        );
    }
    assert!(
        failures.is_empty(),
        "{} scenario(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// What a new fixture pins: the whole report, except for adversarial inputs, which are
/// about their diagnostics (code, object, place), and scheduling scenarios (`k8s-*`,
/// `openshift-*`), which pin each pending pod's decision and each node's recorded
/// reasons, so that adding a filter elsewhere does not rewrite every expectation, and
/// disruption scenarios (`disruption-*`), which pin the timeline and its evictions.
fn expectation(name: &str, mut report: serde_json::Value) -> serde_json::Value {
    if let Some(object) = report.as_object_mut() {
        object.remove("kubefitVersion");
        if name.starts_with("adversarial-") {
            let keep = ["severity", "code", "object", "path", "line", "column"];
            let mut diagnostics = object.remove("diagnostics").unwrap_or_default();
            for diagnostic in diagnostics.as_array_mut().into_iter().flatten() {
                if let Some(fields) = diagnostic.as_object_mut() {
                    fields.retain(|key, _| keep.contains(&key.as_str()));
                }
            }
            return serde_json::json!({ "diagnostics": diagnostics });
        }
        if name.starts_with("k8s-") || name.starts_with("openshift-") {
            return scheduling_expectation(object);
        }
        if name.starts_with("disruption-") {
            // The timeline and what it did; placements and tables are pinned elsewhere.
            let keep = [
                "diagnostics",
                "timeline",
                "evictions",
                "descheduler",
                "machines",
                "timelineUntil",
            ];
            object.retain(|key, _| keep.contains(&key.as_str()));
            return report;
        }
    }
    report
}

fn scheduling_expectation(
    report: &serde_json::Map<String, serde_json::Value>,
) -> serde_json::Value {
    let scheduling = report.get("scheduling").cloned().unwrap_or_default();
    let keep = [
        "pod",
        "priority",
        "outcome",
        "node",
        "message",
        "nominatedNode",
        "schedulingGates",
        "preemption",
    ];
    let pods: Vec<serde_json::Value> = scheduling["pods"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|placement| {
            let mut kept = serde_json::Map::new();
            for key in keep {
                if let Some(value) = placement.get(key) {
                    kept.insert(key.into(), value.clone());
                }
            }
            let nodes: serde_json::Map<String, serde_json::Value> = placement["nodes"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(name, verdict)| {
                    let mut node = serde_json::Map::new();
                    node.insert("reasons".into(), verdict["reasons"].clone());
                    if let Some(total) = verdict.get("total") {
                        node.insert("total".into(), total.clone());
                    }
                    (name.clone(), serde_json::Value::Object(node))
                })
                .collect();
            kept.insert("nodes".into(), serde_json::Value::Object(nodes));
            serde_json::Value::Object(kept)
        })
        .collect();
    serde_json::json!({
        "profile": report.get("profile"),
        "diagnostics": report.get("diagnostics"),
        "scheduling": { "profile": scheduling["profile"], "pods": pods },
    })
}
