//! Runs every scenario fixture through `kubefit_core::evaluate` inside headless Chromium.
//!
//! `./dev test` runs it with wasm-bindgen-test-runner and ChromeDriver. The same fixtures
//! run natively (`scenarios.rs`) and through the npm package (`tests/node/`).
#![cfg(target_arch = "wasm32")]

use kubefit_tests::{check, SCENARIOS};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn every_scenario_matches_its_expectation_in_the_browser() {
    assert!(!SCENARIOS.is_empty(), "no scenarios found");
    let mut failures = Vec::new();
    for scenario in SCENARIOS
        .iter()
        .filter(|scenario| scenario.expected.is_some())
    {
        if let Err(differences) = check(scenario) {
            failures.push(format!(
                "{}:\n  {}",
                scenario.name,
                differences.join("\n  ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} scenario(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[wasm_bindgen_test]
fn runs_in_a_browser_window() {
    // Proves the runner really is a browser and not Node.
    let window = js_sys::Reflect::get(&js_sys::global(), &"window".into()).unwrap_or_default();
    assert!(window.is_object(), "no `window`: not running in a browser");
}
