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
/// about their diagnostics (code, object, place).
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
    }
    report
}
