//! The editor: document tabs, and a text area with line numbers and diagnostic markers.
//!
//! The text area grows to fit its text (its `rows` and `cols`), and one scroll container
//! moves it together with the gutter and the underline layer, so nothing has to be kept
//! in step by script.

use web_sys::{FocusOptions, HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::PartProps;
use crate::lines::{self, GutterRun, Underlay};
use crate::state::{Action, Content, Document};

/// The document tabs and the editor for the active one.
#[component]
pub fn Editor(props: &PartProps) -> Html {
    let state = &props.state;
    let dispatch = &props.dispatch;
    let area = use_node_ref();
    let scroller = use_node_ref();

    // Move the cursor where a clicked diagnostic or verdict points (selecting the field a
    // verdict is about), and bring that line into view.
    {
        let area = area.clone();
        let scroller = scroller.clone();
        use_effect_with(state.reveal_request(), move |reveal| {
            if let (Some(reveal), Some(area), Some(scroller)) = (
                reveal,
                area.cast::<HtmlTextAreaElement>(),
                scroller.cast::<HtmlElement>(),
            ) {
                let options = FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = area.focus_with_options(&options);
                let offset = u32::try_from(reveal.offset).unwrap_or(u32::MAX);
                let end = u32::try_from(reveal.end).unwrap_or(u32::MAX);
                let _ = area.set_selection_range(offset, end);
                let rows = area.rows().max(1);
                let line_height =
                    area.scroll_height() / i32::try_from(rows).unwrap_or(i32::MAX).max(1);
                let line = i32::try_from(reveal.line).unwrap_or(i32::MAX);
                scroller.set_scroll_top((line - 1) * line_height - scroller.client_height() / 3);
                if reveal.column < 60 {
                    scroller.set_scroll_left(0);
                }
            }
        });
    }

    let active = state.active();
    let tabs = state.documents().iter().enumerate().map(|(index, document)| {
        let selected = index == active;
        let select = dispatch.reform(move |_: MouseEvent| Action::SelectDocument(index));
        let close = dispatch.reform(move |_: MouseEvent| Action::CloseDocument(index));
        let errors = state.problems_in(index).filter(|problem| problem.error).count();
        html! {
            <div class={ classes!("tab", selected.then_some("selected")) } role="presentation">
                <button type="button" role="tab" id={ format!("doc-tab-{index}") }
                    aria-selected={ selected.to_string() } aria-controls="editor"
                    onclick={ select }>
                    { document.name.clone() }
                    if errors > 0 {
                        <span class="count error" aria-label={ format!("{errors} errors") }>{ errors }</span>
                    }
                </button>
                <button type="button" class="close" aria-label={ format!("Close {}", document.name) }
                    title="Close" onclick={ close }>{ "×" }</button>
            </div>
        }
    });

    let document = state.active_document();
    let body = match &document.content {
        Content::Text(text) => {
            let problems: Vec<_> = state.problems_in(active).collect();
            text_editor(text, &problems, &area, &scroller, dispatch, &document.name)
        }
        Content::File { size, .. } => file_card(document, *size, state.problems_in(active).count()),
    };
    html! {
        <div class="editor">
            <div class="tabs" role="tablist" aria-label="Documents">{ for tabs }</div>
            <div id="editor" class="editor-body" role="tabpanel"
                aria-labelledby={ format!("doc-tab-{active}") }>
                { body }
            </div>
        </div>
    }
}

fn text_editor(
    text: &str,
    problems: &[&crate::view::Problem],
    area: &NodeRef,
    scroller: &NodeRef,
    dispatch: &super::Dispatch,
    name: &str,
) -> Html {
    let (line_count, widest) = lines::measure(text);
    let marks = lines::marks(text, problems.iter().copied());
    let gutter = lines::gutter(line_count, &marks)
        .into_iter()
        .map(|run| match run {
            GutterRun::Plain(numbers) => html! { { numbers } },
            GutterRun::Marked(line, error, message) => html! {
                <>
                    <span class={ classes!("marker", if error { "error" } else { "warning" }) }
                        title={ message }>{ line }</span>
                    { "\n" }
                </>
            },
        });
    let underlay = lines::underlay(&marks).into_iter().map(|run| match run {
        Underlay::Space(space) => html! { { space } },
        Underlay::Token(token, error) => html! {
            <mark class={ if error { "error" } else { "warning" } }>{ token }</mark>
        },
    });
    let oninput = dispatch.reform(|event: InputEvent| {
        let area: HtmlTextAreaElement = event.target_unchecked_into();
        Action::Edit(area.value())
    });
    html! {
        <div class="code" ref={ scroller.clone() }>
            <pre class="gutter" aria-hidden="true">{ for gutter }</pre>
            <div class="surface">
                <pre class="underlay" aria-hidden="true">{ for underlay }</pre>
                <textarea ref={ area.clone() } id="source" class="source"
                    aria-label={ format!("Contents of {name} (YAML or JSON)") }
                    spellcheck="false" autocomplete="off" autocapitalize="off" wrap="off"
                    rows={ line_count.to_string() } cols={ (widest + 2).to_string() }
                    placeholder="Paste `kubectl get nodes,pods -A -o yaml` here, or drop files"
                    value={ text.to_owned() } { oninput } />
            </div>
        </div>
    }
}

fn file_card(document: &Document, size: u64, problems: usize) -> Html {
    // Tenths of a MiB in integers: float formatting would add its tables to the download.
    let tenths = (size * 10 + (1 << 19)) >> 20;
    html! {
        <div class="file-card">
            <h3>{ document.name.clone() }</h3>
            <p class="size">{ format!("{}.{} MiB", tenths / 10, tenths % 10) }</p>
            <p>
                { "Too large to edit here, so it is read-only: kubefit evaluates all of it in a background worker, and the page stays responsive." }
            </p>
            <p>
                { match problems {
                    0 => "No problems in this file.".to_string(),
                    1 => "1 problem in this file: see the list below.".to_string(),
                    n => format!("{n} problems in this file: see the list below."),
                } }
            </p>
        </div>
    }
}
