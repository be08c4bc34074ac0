#![doc = include_str!("../README.md")]

pub mod app;
pub mod state;

pub use state::{Action, State, EXAMPLE};

/// Mounts the playground on the page's `<body>`; wasm-bindgen runs it when the module is
/// initialised (`init()` in `www/index.html`).
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    yew::Renderer::<app::App>::new().render();
}
