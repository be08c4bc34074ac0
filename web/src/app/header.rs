//! The header: the name and version, and the page's actions (examples, open, share,
//! download).

use web_sys::{HtmlDialogElement, HtmlInputElement};
use yew::prelude::*;

use std::rc::Rc;

use super::{file_list, Dispatch};
use crate::browser;
use crate::examples::EXAMPLES;
use crate::state::{Action, State};

/// Properties of [`Header`].
#[derive(Properties)]
pub struct HeaderProps {
    /// The state to render.
    pub state: Rc<State>,
    /// Where actions go.
    pub dispatch: Dispatch,
    /// Called with the files the user picked or dropped.
    pub on_files: Callback<Vec<web_sys::File>>,
}

impl PartialEq for HeaderProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.state, &other.state)
            && self.dispatch == other.dispatch
            && self.on_files == other.on_files
    }
}

/// The header bar.
#[component]
pub fn Header(props: &HeaderProps) -> Html {
    let gallery = use_node_ref();
    let picker = use_node_ref();
    let state = &props.state;
    let dispatch = &props.dispatch;

    let open_gallery = {
        let gallery = gallery.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(dialog) = gallery.cast::<HtmlDialogElement>() {
                let _ = dialog.show_modal();
            }
        })
    };
    let close_gallery = {
        let gallery = gallery.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(dialog) = gallery.cast::<HtmlDialogElement>() {
                dialog.close();
            }
        })
    };
    let open_picker = {
        let picker = picker.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(input) = picker.cast::<HtmlInputElement>() {
                input.click();
            }
        })
    };
    let picked = {
        let on_files = props.on_files.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Some(list) = input.files() {
                on_files.emit(file_list(&list));
            }
            // Picking the same file again must fire `change` again.
            input.set_value("");
        })
    };
    let share = {
        let state = Rc::clone(state);
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            let link = browser::link(&state.snapshot());
            let unshared = state.unshared().join(", ");
            let copied = if unshared.is_empty() {
                "Link copied: it holds the whole playground".into()
            } else {
                format!("Link copied, without the files too large to share: {unshared}")
            };
            super::copy(link, copied, dispatch.clone());
        })
    };
    let download = |name: &'static str, mime: &'static str, json: bool| {
        let outcome = Rc::clone(state.outcome());
        Callback::from(move |_: MouseEvent| {
            let content = if json { &outcome.json } else { &outcome.text };
            browser::download(name, mime, content);
        })
    };

    html! {
        <header class="topbar">
            <div class="brand">
                <span class="logo" aria-hidden="true">{ "⎈" }</span>
                <span class="name">{ "kubefit" }</span>
                <span class="badge" title="kubefit version">{ format!("v{}", kubefit_core::VERSION) }</span>
                <span class="tagline">{ "What would your cluster do? Paste it and see." }</span>
            </div>
            <nav class="actions" aria-label="Playground actions">
                <button type="button" onclick={ open_gallery }>{ "Examples" }</button>
                <button type="button" onclick={ open_picker }>{ "Open files…" }</button>
                <input ref={ picker } id="open-files" class="visually-hidden" type="file" multiple=true
                    accept=".yaml,.yml,.json,.txt,application/json,application/yaml,text/yaml"
                    tabindex="-1" aria-hidden="true" onchange={ picked } />
                <button type="button" onclick={ share }>{ "Copy link" }</button>
                <span class="group" role="group" aria-label="Download the report">
                    <button type="button" onclick={ download("kubefit-report.json", "application/json", true) }>
                        { "Report JSON" }
                    </button>
                    <button type="button" onclick={ download("kubefit-report.txt", "text/plain", false) }>
                        { "Report text" }
                    </button>
                </span>
            </nav>
            <dialog ref={ gallery } class="gallery" aria-labelledby="gallery-title">
                <div class="gallery-head">
                    <h2 id="gallery-title">{ "Examples" }</h2>
                    <button type="button" class="ghost" aria-label="Close" onclick={ close_gallery.clone() }>{ "×" }</button>
                </div>
                <p class="hint">{ "Each one replaces what is in the editor." }</p>
                <ul>
                    { for EXAMPLES.iter().map(|example| {
                        let example = *example;
                        let pick = {
                            let dispatch = dispatch.clone();
                            let close = close_gallery.clone();
                            Callback::from(move |event: MouseEvent| {
                                dispatch.emit(Action::LoadExample(example));
                                close.emit(event);
                            })
                        };
                        html! {
                            <li>
                                <button type="button" class="card" onclick={ pick }>
                                    <strong>{ example.title() }</strong>
                                    <span>{ example.description() }</span>
                                    <code>{ example.name() }</code>
                                </button>
                            </li>
                        }
                    }) }
                </ul>
            </dialog>
        </header>
    }
}
