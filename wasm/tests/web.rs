//! The raw exports in headless Chromium: the JavaScript boundary that native tests cannot
//! reach (strings, typed arrays, wrong types, cyclic objects, unpaired surrogates).
#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Object, Reflect, Uint8Array};
use kubefit_wasm::{evaluate, evaluate_text, version, EvaluateOptions, Input};
use tsify::Ts;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

const CLUSTER: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '2', memory: 4Gi, pods: '10'}}\n";

fn input(value: impl Into<JsValue>) -> Ts<Input> {
    Ts::new_unchecked(value.into())
}

fn options(json: &str) -> Option<Ts<EvaluateOptions>> {
    Some(Ts::new_unchecked(
        js_sys::JSON::parse(json).unwrap_or_default(),
    ))
}

/// Runs the raw `evaluate` and returns `ok` and the parsed report.
fn report(input: Ts<Input>, options: Option<Ts<EvaluateOptions>>) -> (bool, serde_json::Value) {
    let result = evaluate(input, options);
    assert_eq!(result.get(1).as_string().as_deref(), Some("json"));
    let payload = result.get(2).as_string().unwrap_or_default();
    (
        result.get(0).as_bool() == Some(true),
        serde_json::from_str(&payload).unwrap_or_default(),
    )
}

fn codes(report: &serde_json::Value) -> Vec<String> {
    report["diagnostics"]
        .as_array()
        .map(|all| {
            all.iter()
                .map(|d| d["code"].as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[wasm_bindgen_test]
fn strings_and_bytes_evaluate_alike() {
    let (ok, from_string) = report(input(CLUSTER), None);
    assert!(ok, "{from_string}");
    let bytes = Uint8Array::from(CLUSTER.as_bytes());
    let (ok, from_bytes) = report(input(bytes), None);
    assert!(ok);
    assert_eq!(from_string["nodes"], from_bytes["nodes"]);
    assert_eq!(from_string["nodes"][0]["name"], "n1");
}

#[wasm_bindgen_test]
fn named_sources_name_their_diagnostics() {
    let item = Object::new();
    Reflect::set(&item, &"name".into(), &"bad.yaml".into()).unwrap_or_default();
    Reflect::set(&item, &"text".into(), &"a: [1\n".into()).unwrap_or_default();
    let (ok, report) = report(input(Array::of2(&CLUSTER.into(), &item)), None);
    assert!(!ok);
    assert_eq!(report["diagnostics"][0]["source"], "bad.yaml", "{report}");
    assert!(report["diagnostics"][0]["line"].is_u64(), "{report}");
}

#[wasm_bindgen_test]
fn wrong_types_are_reported_not_thrown() {
    let cyclic = Object::new();
    Reflect::set(&cyclic, &"self".into(), &cyclic).unwrap_or_default();
    let nested = Array::new();
    nested.push(&nested);
    for value in [
        JsValue::from(42),
        JsValue::NULL,
        JsValue::UNDEFINED,
        cyclic.into(),
        nested.into(),
    ] {
        let (ok, report) = report(input(value), None);
        assert!(!ok);
        assert_eq!(codes(&report), ["argument/invalid-type"], "{report}");
    }
    let (ok, report) = report(
        input(CLUSTER),
        options(r#"{"limits": {"maxDepth": "deep"}}"#),
    );
    assert!(!ok);
    assert_eq!(
        report["diagnostics"][0]["path"], "options.limits.maxDepth",
        "{report}"
    );
}

#[wasm_bindgen_test]
fn lone_surrogates_are_reported_with_their_offset() {
    let text = js_sys::JSON::parse(r#""a: 1\nb: \ud800""#).unwrap_or_default();
    let (ok, report) = report(input(text), None);
    assert!(!ok);
    assert_eq!(codes(&report), ["input/lone-surrogate"]);
    assert_eq!(report["diagnostics"][0]["offset"], 8);
    assert_eq!(report["diagnostics"][0]["line"], 2);
}

#[wasm_bindgen_test]
fn unknown_options_warn_and_text_renders() {
    let (ok, report) = report(input(CLUSTER), options(r#"{"limit": {}}"#));
    assert!(ok);
    assert_eq!(codes(&report), ["argument/unknown-option"]);
    assert!(evaluate_text(input(CLUSTER), None).contains("n1"));
    assert_eq!(version(), env!("CARGO_PKG_VERSION"));
}
