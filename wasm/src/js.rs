//! Reading JavaScript arguments without trusting them: wrong types become diagnostics.
//!
//! The input is inspected by hand, one level at a time, so cyclic objects, proxies with
//! throwing getters and huge arrays cannot make it recurse, throw or trap.

use js_sys::{Array, ArrayBuffer, JsString, Object, Reflect, Uint8Array};
use kubefit_core::Diagnostic;
use tsify::Ts;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::input::{find_lone_surrogate, OwnedSource};
use crate::options::{EvaluateOptions, Format, LIMIT_NAMES, OPTION_NAMES, SCHEDULE_NAMES};

#[wasm_bindgen]
extern "C" {
    /// A JavaScript string, for the methods js-sys does not bind as fallible.
    type StringExt;

    /// `String.prototype.isWellFormed` (ES2024): one native call instead of one call per
    /// code unit (`JsString::is_valid_utf16`). `catch`, for engines that lack it.
    #[wasm_bindgen(method, catch, js_name = isWellFormed)]
    fn is_well_formed(this: &StringExt) -> Result<bool, JsValue>;
}

const EXPECTED_INPUT: &str =
    "a string, a Uint8Array, or an array of strings, Uint8Arrays and `{name?, text}` objects";
const EXPECTED_ITEM: &str = "a string, a Uint8Array or a `{name?, text}` object";
const EXPECTED_TEXT: &str = "a string or a Uint8Array";
const EXPECTED_OPTIONS: &str = "an object like `{limits?: {maxInputBytes?, maxDepth?, maxAliasExpansion?, maxDocuments?}, format?: \"json\" | \"text\", schedule?: {profile?, preemption?, seed?, maxNodeVerdicts?}}`";

/// The sources read from `input`, and diagnostics about the ones that could not be used.
#[derive(Debug, Default)]
pub struct Read {
    /// Sources to evaluate, in input order.
    pub sources: Vec<OwnedSource>,
    /// Problems such as unpaired surrogates; their sources are left out.
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads the `input` argument.
///
/// # Errors
///
/// An `argument/invalid-type` diagnostic when `input` is not of a supported shape.
pub fn read_input(value: &JsValue) -> Result<Read, Box<Diagnostic>> {
    let mut read = Read::default();
    if read_text(value, "input", "input", &mut read) {
        return Ok(read);
    }
    let Some(items) = value.dyn_ref::<Array>() else {
        return Err(invalid_type("input", EXPECTED_INPUT, value));
    };
    for (index, item) in items.iter().enumerate() {
        let path = format!("input[{index}]");
        if read_text(&item, &path, &path, &mut read) {
            continue;
        }
        if !item.is_object() || item.is_function() || Array::is_array(&item) {
            return Err(invalid_type(&path, EXPECTED_ITEM, &item));
        }
        let text = property(&item, "text", &path)?;
        if text.is_undefined() {
            return Err(invalid_type(&path, EXPECTED_ITEM, &item));
        }
        let name = property(&item, "name", &path)?;
        let name = if name.is_undefined() || name.is_null() {
            path.clone()
        } else if let Some(name) = name.as_string() {
            name
        } else {
            return Err(invalid_type(&format!("{path}.name"), "a string", &name));
        };
        if !read_text(&text, &name, &format!("{path}.text"), &mut read) {
            return Err(invalid_type(&format!("{path}.text"), EXPECTED_TEXT, &text));
        }
    }
    Ok(read)
}

/// Reads a string or bytes into `read`; false when `value` is neither.
fn read_text(value: &JsValue, name: &str, path: &str, read: &mut Read) -> bool {
    if let Some(string) = value.dyn_ref::<JsString>() {
        let well_formed = string
            .unchecked_ref::<StringExt>()
            .is_well_formed()
            .unwrap_or_else(|_| string.is_valid_utf16());
        if !well_formed {
            if let Some(found) = find_lone_surrogate(string.iter()) {
                read.diagnostics.push(lone_surrogate(name, path, found));
                return true;
            }
        }
        read.sources.push(OwnedSource {
            name: name.into(),
            bytes: value.as_string().unwrap_or_default().into_bytes(),
        });
        true
    } else if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
        read.sources.push(OwnedSource {
            name: name.into(),
            bytes: bytes.to_vec(),
        });
        true
    } else {
        false
    }
}

fn lone_surrogate(name: &str, path: &str, found: crate::input::LoneSurrogate) -> Diagnostic {
    let mut diagnostic = Diagnostic::error(
        "input/lone-surrogate",
        format!(
            "`{path}` has an unpaired UTF-16 surrogate `\\u{{{:04x}}}` at offset {}",
            found.unit, found.offset
        ),
    )
    .with_help(
        "JavaScript strings given to kubefit must be well-formed UTF-16: remove the surrogate, \
         or call `toWellFormed()` on the string to replace it with U+FFFD",
    );
    diagnostic.source = Some(name.into());
    diagnostic.line = Some(found.line);
    diagnostic.column = Some(found.column);
    diagnostic.offset = Some(found.offset);
    diagnostic
}

/// The output format asked for, read on its own so that `format: "text"` is honoured even
/// when another option is invalid (the result then has the shape the caller expects).
pub fn read_format(options: Option<&Ts<EvaluateOptions>>) -> Format {
    let text = options
        .map(Ts::js_value)
        .filter(is_plain_object)
        .and_then(|options| Reflect::get(&options, &JsValue::from_str("format")).ok())
        .and_then(|format| format.as_string())
        .is_some_and(|format| format == "text");
    if text {
        Format::Text
    } else {
        Format::Json
    }
}

/// Reads the `options` argument, with warnings for the names it does not know.
///
/// # Errors
///
/// An `argument/invalid-type` diagnostic naming the first field of the wrong type.
pub fn read_options(
    value: Option<Ts<EvaluateOptions>>,
) -> Result<(EvaluateOptions, Vec<Diagnostic>), Box<Diagnostic>> {
    let Some(value) = value else {
        return Ok((EvaluateOptions::default(), Vec::new()));
    };
    let js = value.js_value();
    if !is_plain_object(&js) {
        return Err(invalid_type("options", EXPECTED_OPTIONS, &js));
    }
    let options = match value.to_rust() {
        Ok(options) => options,
        Err(error) => {
            return Err(explain_options_error(&js).unwrap_or_else(|| {
                Box::new(
                    Diagnostic::error(
                        "argument/invalid-type",
                        format!("`options` is not valid: {error}"),
                    )
                    .with_path("options")
                    .with_help(format!("pass {EXPECTED_OPTIONS}")),
                )
            }))
        }
    };
    if let Some(text) = &options.at {
        match kubefit_core::duration::parse(text) {
            Ok(at) if at.0 >= 0 => {}
            Ok(_) => {
                return Err(Box::new(
                    Diagnostic::error(
                        "argument/invalid-duration",
                        format!("`{text}` is before the start of the timeline"),
                    )
                    .with_path("options.at"),
                ))
            }
            Err(error) => {
                return Err(Box::new(
                    Diagnostic::error(
                        "argument/invalid-duration",
                        kubefit_core::duration::message(text, error),
                    )
                    .with_path("options.at")
                    .with_help("pass a Go duration such as `90s` or `1h30m`"),
                ))
            }
        }
    }
    let mut warnings = unknown_names(&js, "options", OPTION_NAMES);
    if options.limits.is_some() {
        if let Ok(limits) = Reflect::get(&js, &JsValue::from_str("limits")) {
            warnings.extend(unknown_names(&limits, "options.limits", LIMIT_NAMES));
        }
    }
    if options.schedule.is_some() {
        if let Ok(schedule) = Reflect::get(&js, &JsValue::from_str("schedule")) {
            warnings.extend(unknown_names(&schedule, "options.schedule", SCHEDULE_NAMES));
        }
    }
    Ok((options, warnings))
}

/// Finds the field that made deserialization fail, for a message that names it.
fn explain_options_error(options: &JsValue) -> Option<Box<Diagnostic>> {
    let limits = Reflect::get(options, &JsValue::from_str("limits")).ok()?;
    if !limits.is_undefined() && !limits.is_null() {
        if !is_plain_object(&limits) {
            return Some(invalid_type("options.limits", "an object", &limits));
        }
        for name in LIMIT_NAMES {
            if let Some(problem) = non_negative_integer(&limits, "options.limits", name) {
                return Some(problem);
            }
        }
    }
    let schedule = Reflect::get(options, &JsValue::from_str("schedule")).ok()?;
    if !schedule.is_undefined() && !schedule.is_null() {
        if !is_plain_object(&schedule) {
            return Some(invalid_type("options.schedule", "an object", &schedule));
        }
        let profile = Reflect::get(&schedule, &JsValue::from_str("profile")).ok()?;
        let fine = profile.is_undefined()
            || profile.is_null()
            || matches!(
                profile.as_string().as_deref(),
                Some("openshift-3.11" | "kubernetes-1.34")
            );
        if !fine {
            return Some(invalid_type(
                "options.schedule.profile",
                "`\"openshift-3.11\"` or `\"kubernetes-1.34\"`",
                &profile,
            ));
        }
        let preemption = Reflect::get(&schedule, &JsValue::from_str("preemption")).ok()?;
        if !(preemption.is_undefined() || preemption.is_null() || preemption.as_bool().is_some()) {
            return Some(invalid_type(
                "options.schedule.preemption",
                "a boolean",
                &preemption,
            ));
        }
        for name in ["seed", "maxNodeVerdicts"] {
            if let Some(problem) = non_negative_integer(&schedule, "options.schedule", name) {
                return Some(problem);
            }
        }
    }
    let format = Reflect::get(options, &JsValue::from_str("format")).ok()?;
    let fine = format.is_undefined()
        || format.is_null()
        || matches!(format.as_string().as_deref(), Some("json" | "text"));
    if !fine {
        return Some(invalid_type(
            "options.format",
            "`\"json\"` or `\"text\"`",
            &format,
        ));
    }
    None
}

/// The problem with `object[name]` unless it is absent or a safe non-negative integer.
fn non_negative_integer(object: &JsValue, path: &str, name: &str) -> Option<Box<Diagnostic>> {
    let value = Reflect::get(object, &JsValue::from_str(name)).ok()?;
    let fine = value.is_undefined()
        || value.is_null()
        || value
            .as_f64()
            .is_some_and(|n| n >= 0.0 && n.fract() == 0.0 && n <= 9_007_199_254_740_991.0);
    (!fine).then(|| invalid_type(&format!("{path}.{name}"), "a non-negative integer", &value))
}

fn unknown_names(object: &JsValue, path: &str, known: &[&str]) -> Vec<Diagnostic> {
    let Some(object) = object
        .dyn_ref::<Object>()
        .filter(|_| is_plain_object(object))
    else {
        return Vec::new();
    };
    Object::keys(object)
        .iter()
        .filter_map(|key| key.as_string())
        .filter(|key| !known.contains(&key.as_str()))
        .map(|key| {
            Diagnostic::warning(
                "argument/unknown-option",
                format!("unknown option `{path}.{key}` is ignored"),
            )
            .with_path(format!("{path}.{key}"))
            .with_help(format!("`{path}` accepts {}", list(known)))
        })
        .collect()
}

fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn is_plain_object(value: &JsValue) -> bool {
    value.is_object()
        && !value.is_function()
        && !Array::is_array(value)
        && !ArrayBuffer::is_view(value)
}

/// Reads a property, turning a throwing getter into a diagnostic.
fn property(object: &JsValue, name: &str, path: &str) -> Result<JsValue, Box<Diagnostic>> {
    Reflect::get(object, &JsValue::from_str(name)).map_err(|_| {
        Box::new(
            Diagnostic::error(
                "argument/invalid-type",
                format!("`{path}.{name}` cannot be read: its getter throws"),
            )
            .with_path(format!("{path}.{name}")),
        )
    })
}

/// The `argument/invalid-type` diagnostic: what was expected where, and what came instead.
#[must_use]
pub fn invalid_type(path: &str, expected: &str, got: &JsValue) -> Box<Diagnostic> {
    Box::new(
        Diagnostic::error(
            "argument/invalid-type",
            format!("`{path}` must be {expected}, got {}", describe(got)),
        )
        .with_path(path),
    )
}

/// Names a JavaScript value's type for a message, without calling into user code.
fn describe(value: &JsValue) -> String {
    if value.is_undefined() {
        "`undefined`".into()
    } else if value.is_null() {
        "`null`".into()
    } else if let Some(flag) = value.as_bool() {
        format!("the boolean `{flag}`")
    } else if let Some(number) = value.as_f64() {
        format!("the number `{number}`")
    } else if let Some(string) = value.as_string() {
        let mut shown: String = string.chars().take(40).collect();
        if shown.len() < string.len() {
            shown.push('…');
        }
        format!("the string `{shown}`")
    } else if value.is_bigint() {
        "a bigint".into()
    } else if value.is_symbol() {
        "a symbol".into()
    } else if value.is_function() {
        "a function".into()
    } else if Array::is_array(value) {
        "an array".into()
    } else if value.is_instance_of::<ArrayBuffer>() {
        "an ArrayBuffer (wrap it as `new Uint8Array(buffer)`)".into()
    } else if ArrayBuffer::is_view(value) {
        "a typed array other than Uint8Array, or a DataView".into()
    } else {
        "an object".into()
    }
}
