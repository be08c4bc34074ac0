#![doc = include_str!("../README.md")]

pub mod app;
pub mod browser;
pub mod disruption;
pub mod examples;
pub mod lines;
pub mod placement;
pub mod scenario;
pub mod share;
pub mod state;
pub mod tables;
pub mod view;
#[cfg(target_arch = "wasm32")]
pub mod worker;

pub use state::{Action, State};

/// Starts the playground when the module is initialised (`init()` in `www/index.html`):
/// restores the shared or saved state and mounts the app on `<body>`. In the worker
/// (`www/worker.js`), which has no window, it does nothing.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn start() {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    browser::forbid_connections();
    let mut notice = None;
    let snapshot = match browser::take_fragment() {
        Some(Ok(snapshot)) => Some(snapshot),
        Some(Err(error)) => {
            notice = Some(error.to_string());
            browser::saved()
        }
        None => browser::saved(),
    };
    let mut state = snapshot.map_or_else(State::default, State::from_snapshot);
    if let Some(notice) = notice {
        state = state.apply(Action::Notify(notice));
    }
    let props = app::AppProps {
        initial: std::rc::Rc::new(state),
    };
    if let Some(body) = document.body() {
        yew::Renderer::<app::App>::with_root_and_props(body.into(), props).render();
    }
}
