//! The components: they render a [`State`] and dispatch [`Action`]s, nothing more.
//!
//! Every user-supplied string (the input, the report text, diagnostic messages) goes into
//! the page as a text node through `html!`'s `{ … }`, never as markup.

use std::rc::Rc;

use kubefit_core::{Diagnostic, Severity};
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::state::{Action, State};

/// The thin adapter that lets `use_reducer` drive [`State::apply`].
impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

/// Properties of [`App`].
#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// The text to open with; the example when absent.
    #[prop_or_default]
    pub input: Option<String>,
}

/// The playground page.
#[component]
pub fn App(props: &AppProps) -> Html {
    let state = {
        let input = props.input.clone();
        use_reducer(move || input.map(State::new).unwrap_or_default())
    };
    let oninput = {
        let state = state.dispatcher();
        Callback::from(move |event: InputEvent| {
            let area: HtmlTextAreaElement = event.target_unchecked_into();
            state.dispatch(Action::Edit(area.value()));
        })
    };
    let reset = {
        let state = state.dispatcher();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Reset))
    };
    let clear = {
        let state = state.dispatcher();
        Callback::from(move |_: MouseEvent| state.dispatch(Action::Clear))
    };
    html! {
        <>
            <header>
                <h1>{ "kubefit" }</h1>
                <span class="version">{ format!("v{}", kubefit_core::VERSION) }</span>
                <span class="tagline">{ "offline evaluation of Kubernetes cluster decisions" }</span>
            </header>
            <main>
                <section class="input">
                    <label for="cluster">{ "Cluster (YAML or JSON, as kubectl get -o yaml|json prints it)" }</label>
                    <textarea id="cluster" spellcheck="false" autocomplete="off"
                        value={ state.input().to_owned() } { oninput } />
                    <div class="buttons">
                        <button type="button" onclick={ reset }>{ "Example" }</button>
                        <button type="button" onclick={ clear }>{ "Clear" }</button>
                    </div>
                </section>
                <section class="output">
                    <Diagnostics diagnostics={ Rc::new(state.diagnostics().to_vec()) } />
                    <h2>{ "Report" }</h2>
                    <pre class="report">{ state.text() }</pre>
                </section>
            </main>
        </>
    }
}

/// Properties of [`Diagnostics`].
#[derive(Properties, PartialEq)]
pub struct DiagnosticsProps {
    /// The diagnostics, errors first.
    pub diagnostics: Rc<Vec<Diagnostic>>,
}

/// The list of diagnostics, or a line saying there are none.
#[component]
pub fn Diagnostics(props: &DiagnosticsProps) -> Html {
    let errors = props
        .diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.is_error())
        .count();
    let warnings = props.diagnostics.len() - errors;
    html! {
        <div class="diagnostics">
            <h2>{ format!("Diagnostics: {errors} error(s), {warnings} warning(s)") }</h2>
            if !props.diagnostics.is_empty() {
                <ul>
                    { for props.diagnostics.iter().map(diagnostic) }
                </ul>
            }
        </div>
    }
}

fn diagnostic(diagnostic: &Diagnostic) -> Html {
    let severity = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let place = match (diagnostic.line, diagnostic.column) {
        (Some(line), Some(column)) => Some(format!("{line}:{column}")),
        (Some(line), None) => Some(line.to_string()),
        _ => None,
    };
    let about = match (&diagnostic.object, &diagnostic.path) {
        (Some(object), Some(path)) => Some(format!("{object} {path}")),
        (Some(object), None) => Some(object.clone()),
        (None, Some(path)) => Some(path.clone()),
        (None, None) => None,
    };
    html! {
        <li class={ classes!("diagnostic", severity) }>
            <span class="severity">{ severity }</span>
            if let Some(place) = place {
                <span class="place">{ place }</span>
            }
            <code class="code">{ diagnostic.code }</code>
            <span class="message">{ diagnostic.message.clone() }</span>
            if let Some(about) = about {
                <span class="about">{ about }</span>
            }
            if let Some(help) = &diagnostic.help {
                <span class="help">{ help.clone() }</span>
            }
        </li>
    }
}
