#![doc = include_str!("../README.md")]

pub mod input;
mod js;
mod memory;
pub mod options;
pub mod outcome;
mod panic;

use tsify::Ts;
use wasm_bindgen::prelude::*;

pub use input::{Input, NamedSource, OwnedSource, SourceInput, SourceText};
pub use options::{EvaluateOptions, Format, LimitsOptions};
pub use options::{Profile, ScheduleOptions};
pub use outcome::{Evaluation, Run, ScheduleEvaluation, TextEvaluation, View};

// The exports below are the raw layer: the npm package's hand-written entry points
// (`wasm/npm/kubefit.js`) wrap them to parse the JSON, build `{ok, report}` and recover
// from panics. They never throw for bad input.

/// Evaluates `input` and returns `[ok, format, payload]`: the report as JSON for the
/// wrapper to `JSON.parse` (a JSON string crosses the boundary faster than a tree of JS
/// objects built call by call: see BENCHMARKS.md), or as text with `format: "text"`.
#[wasm_bindgen(js_name = evaluate, unchecked_return_type = "[ok: boolean, format: Format, payload: string]")]
#[must_use]
pub fn evaluate(input: Ts<Input>, options: Option<Ts<EvaluateOptions>>) -> js_sys::Array {
    let format = js::read_format(options.as_ref());
    raw(&run(&input, options, format.into()), format)
}

/// Evaluates `input` and returns `[ok, "json", payload]` where the payload is only the
/// scheduling section and the diagnostics (`ScheduleEvaluation`). `options.format` is
/// ignored; `options.schedule` picks the profile, preemption and seed.
#[wasm_bindgen(js_name = schedule, unchecked_return_type = "[ok: boolean, format: \"json\", payload: string]")]
#[must_use]
pub fn schedule(input: Ts<Input>, options: Option<Ts<EvaluateOptions>>) -> js_sys::Array {
    raw(&run(&input, options, View::Scheduling), Format::Json)
}

/// Evaluates `input` and returns the report rendered as text tables.
#[wasm_bindgen(js_name = evaluateText)]
#[must_use]
pub fn evaluate_text(input: Ts<Input>, options: Option<Ts<EvaluateOptions>>) -> String {
    run(&input, options, Format::Text.into()).payload
}

/// The kubefit version.
#[wasm_bindgen]
#[must_use]
pub fn version() -> String {
    kubefit_core::VERSION.into()
}

/// Panics on purpose, so that tests can prove the wrapper recovers. Not part of the API.
#[doc(hidden)]
#[wasm_bindgen(js_name = __kubefitPanicForTests, skip_typescript)]
pub fn panic_for_tests() {
    panic::install();
    panic!("panic requested by a test");
}

/// The result for a call that crashed: run on the fresh instance after a reset, so the
/// report has its usual shape. Not part of the API.
#[doc(hidden)]
#[wasm_bindgen(js_name = __kubefitPanicReport, skip_typescript)]
#[must_use]
pub fn panic_report(detail: &str, text: bool) -> js_sys::Array {
    let format = if text { Format::Text } else { Format::Json };
    raw(
        &outcome::rejected(panic::diagnostic(detail), format.into()),
        format,
    )
}

fn raw(run: &Run, format: Format) -> js_sys::Array {
    let format = match format {
        Format::Json => "json",
        Format::Text => "text",
    };
    js_sys::Array::of3(
        &JsValue::from_bool(run.ok),
        &JsValue::from_str(format),
        &JsValue::from_str(&run.payload),
    )
}

fn run(input: &Ts<Input>, options: Option<Ts<EvaluateOptions>>, view: View) -> Run {
    panic::install();
    let (options, warnings) = match js::read_options(options) {
        Ok(read) => read,
        Err(diagnostic) => return outcome::rejected(*diagnostic, view),
    };
    match js::read_input(&input.js_value()) {
        Ok(read) => {
            memory::reserve_for(&read.sources);
            let mut early = read.diagnostics;
            early.extend(warnings);
            outcome::run(read.sources, early, &options, view)
        }
        Err(diagnostic) => outcome::rejected(*diagnostic, view),
    }
}

/// Decoding benchmark (`wasm/bench/decode.mjs`): only the input stage of `evaluate`, text
/// to validated objects (the W13 workload of BENCHMARKS.md). Returns how many objects and
/// diagnostics it read. Not built into the package.
#[cfg(feature = "decode-bench")]
#[doc(hidden)]
#[wasm_bindgen(js_name = __benchDecode, skip_typescript)]
#[must_use]
pub fn decode_bench(input: Ts<Input>, options: Option<Ts<EvaluateOptions>>) -> Vec<u32> {
    let Ok((options, _)) = js::read_options(options) else {
        return Vec::new();
    };
    let Ok(read) = js::read_input(&input.js_value()) else {
        return Vec::new();
    };
    memory::reserve_for(&read.sources);
    let views: Vec<_> = read.sources.iter().map(OwnedSource::source).collect();
    let loaded = kubefit_core::input::load(&views, &options.to_core().limits);
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    vec![count(loaded.objects.len()), count(loaded.diagnostics.len())]
}

/// Transfer benchmark (`wasm/bench/transfer.mjs`): the two ways a report can cross to JS,
/// timed apart from evaluation. Not built into the package.
#[cfg(feature = "transfer-bench")]
pub mod transfer_bench {
    use std::cell::RefCell;

    use kubefit_core::Report;
    use serde::Serialize as _;
    use tsify::Ts;
    use wasm_bindgen::prelude::*;

    use crate::{js, Input, OwnedSource};

    thread_local! {
        static REPORT: RefCell<Option<Report>> = const { RefCell::new(None) };
    }

    /// Evaluates `input` once and keeps the report for the two transfers.
    #[wasm_bindgen(js_name = __benchPrepare, skip_typescript)]
    pub fn prepare(input: Ts<Input>) -> usize {
        let Ok(read) = js::read_input(&input.js_value()) else {
            return 0;
        };
        let views: Vec<_> = read.sources.iter().map(OwnedSource::source).collect();
        let report = kubefit_core::evaluate(&views, &kubefit_core::Options::default());
        let pods = report.pods.len();
        REPORT.with(|cell| *cell.borrow_mut() = Some(report));
        pods
    }

    /// The kept report as a JSON string (what the package does; JS then calls `JSON.parse`).
    #[wasm_bindgen(js_name = __benchJson, skip_typescript)]
    #[must_use]
    pub fn json() -> String {
        REPORT.with(|cell| {
            cell.borrow()
                .as_ref()
                .and_then(|report| serde_json::to_string(report).ok())
                .unwrap_or_default()
        })
    }

    /// The kept report as JS objects, built by serde-wasm-bindgen.
    #[wasm_bindgen(js_name = __benchObject, skip_typescript)]
    #[must_use]
    pub fn object() -> JsValue {
        REPORT.with(|cell| {
            cell.borrow()
                .as_ref()
                .and_then(|report| {
                    report
                        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
                        .ok()
                })
                .unwrap_or(JsValue::NULL)
        })
    }
}
