//! Panics: turned into a JavaScript exception that carries the message.
//!
//! With `panic = "abort"` a panic would trap with a bare `RuntimeError: unreachable`. The
//! hook throws an `Error` with the panic message instead, which also leaves the instance in
//! an unknown state: the npm wrapper catches either, resets the instance (wasm-bindgen's
//! `__wbg_reset_state`) and returns an `internal/panic` diagnostic with the message.

/// Installs the hook once per instance (a reset instance has fresh memory, so it installs
/// it again).
pub fn install() {
    #[cfg(target_arch = "wasm32")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            std::panic::set_hook(Box::new(|info| {
                // `PanicHookInfo::payload_as_str` needs Rust 1.91; the MSRV is 1.85.
                let payload = info.payload();
                let message = payload
                    .downcast_ref::<&str>()
                    .copied()
                    .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
                    .unwrap_or("a panic without a message");
                let detail = match info.location() {
                    Some(at) => {
                        format!("{message} (at {}:{}:{})", at.file(), at.line(), at.column())
                    }
                    None => message.to_owned(),
                };
                wasm_bindgen::throw_str(&detail);
            }));
        });
    }
}

/// The `internal/panic` diagnostic, with what the JavaScript side caught.
#[must_use]
pub fn diagnostic(detail: &str) -> kubefit_core::Diagnostic {
    kubefit_core::Diagnostic::error("internal/panic", format!("kubefit crashed: {detail}"))
        .with_help(
            "this is a bug in kubefit: please report it with the input that caused it; \
         the next call starts from a fresh instance",
        )
}
