//! The worker's side of evaluation: `www/worker.js` initialises this module with the page's
//! compiled module, then calls [`evaluate_job`] for every job the page posts.

use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};

use crate::view::Outcome;

/// Evaluates a job, `[generation, [name, text or File], ...]`, and answers
/// `[generation, view JSON, report JSON, report text, milliseconds]`, or
/// `[generation, null, message]` when a file cannot be read.
#[wasm_bindgen]
#[must_use]
pub fn evaluate_job(job: &JsValue) -> JsValue {
    let job: &Array = job.unchecked_ref();
    let generation = job.get(0);
    let started = js_sys::Date::now();
    let mut sources: Vec<(String, Vec<u8>)> = Vec::with_capacity(job.length() as usize);
    for entry in job.iter().skip(1) {
        let entry: Array = entry.unchecked_into();
        let name = entry.get(0).as_string().unwrap_or_default();
        let content = entry.get(1);
        let bytes = if let Some(text) = content.as_string() {
            text.into_bytes()
        } else {
            match read(&content) {
                Ok(bytes) => bytes,
                Err(error) => {
                    let message = format!(
                        "cannot read `{name}`: {}",
                        error
                            .as_string()
                            .unwrap_or_else(|| "the browser refused".into())
                    );
                    return Array::of3(&generation, &JsValue::NULL, &message.into()).into();
                }
            }
        };
        sources.push((name, bytes));
    }
    let borrowed: Vec<(&str, &[u8])> = sources
        .iter()
        .map(|(name, bytes)| (name.as_str(), bytes.as_slice()))
        .collect();
    let outcome = Outcome::evaluate(&borrowed);
    drop(sources);
    let view = serde_json::to_string(&outcome.view).unwrap_or_default();
    let answer = Array::of5(
        &generation,
        &view.into(),
        &outcome.json.into(),
        &outcome.text.into(),
        &(js_sys::Date::now() - started).into(),
    );
    answer.into()
}

/// A `File` read synchronously, which workers may do.
fn read(file: &JsValue) -> Result<Vec<u8>, JsValue> {
    let blob: &web_sys::Blob = file.dyn_ref().ok_or("not a file")?;
    let buffer = web_sys::FileReaderSync::new()?.read_as_array_buffer(blob)?;
    Ok(Uint8Array::new(&buffer).to_vec())
}
