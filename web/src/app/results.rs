//! The results: a summary, the panel tabs, and the selected panel.

use std::rc::Rc;

use yew::prelude::*;

use super::problems::plural;
use super::{NodesTable, PartProps, PodsTable};
use crate::state::{Action, Panel, State, Status};

/// The summary, the tabs and the selected panel.
#[component]
pub fn Results(props: &PartProps) -> Html {
    let state = &props.state;
    let dispatch = &props.dispatch;
    let panel = state.panel();
    let tabs = Panel::ALL.iter().map(|&each| {
        let selected = each == panel;
        let count = match each {
            Panel::Nodes => Some(state.view().summary.nodes),
            Panel::Pods => Some(state.view().summary.pods),
            Panel::Placement => Some(state.view().placements.len()),
            Panel::Disruption => state
                .view()
                .scenario
                .as_ref()
                .map(|_| state.view().evictions.len()),
            Panel::Report => None,
        };
        html! {
            <button type="button" role="tab" id={ format!("tab-{}", each.id()) }
                aria-selected={ selected.to_string() } aria-controls={ format!("panel-{}", each.id()) }
                tabindex={ if selected { "0" } else { "-1" } }
                class={ classes!("panel-tab", selected.then_some("selected")) }
                onclick={ dispatch.reform(move |_: MouseEvent| Action::ShowPanel(each)) }>
                { each.title() }
                if let Some(count) = count {
                    <span class="count">{ count }</span>
                }
            </button>
        }
    });
    // Arrow keys move between tabs, as in every tab list.
    let onkeydown = {
        let dispatch = dispatch.clone();
        Callback::from(move |event: KeyboardEvent| {
            let count = Panel::ALL.len();
            let step = match event.key().as_str() {
                "ArrowRight" => 1,
                "ArrowLeft" => count - 1,
                _ => return,
            };
            event.prevent_default();
            let at = Panel::ALL
                .iter()
                .position(|&each| each == panel)
                .unwrap_or(0);
            let next = Panel::ALL[(at + step) % count];
            dispatch.emit(Action::ShowPanel(next));
            focus(&format!("tab-{}", next.id()));
        })
    };
    let content = match panel {
        Panel::Nodes => html! {
            <NodesTable outcome={ Rc::clone(state.outcome()) } sort={ state.nodes_sort() }
                page={ state.nodes_page() } dispatch={ dispatch.clone() } />
        },
        Panel::Pods => html! {
            <PodsTable outcome={ Rc::clone(state.outcome()) } sort={ state.pods_sort() }
                filter={ state.pods_filter().clone() } page={ state.pods_page() }
                dispatch={ dispatch.clone() } />
        },
        Panel::Placement => html! {
            { super::placement::panel(state.outcome(), state.selected_pod(), state.placement_filter(), state.placements_page(), dispatch) }
        },
        Panel::Disruption => {
            super::disruption::panel(state.outcome(), state.disruption_page(), dispatch)
        }
        Panel::Report => html! {
            <pre class="report-text" tabindex="0" aria-label="The report as text">{ state.outcome().text.clone() }</pre>
        },
    };
    html! {
        <div class={ classes!("results", stale(state).then_some("stale")) }>
            { summary(state) }
            <div class="panel-tabs" role="tablist" aria-label="Results" { onkeydown }>{ for tabs }</div>
            <div class="panel" role="tabpanel" id={ format!("panel-{}", panel.id()) }
                aria-labelledby={ format!("tab-{}", panel.id()) }>
                { content }
            </div>
        </div>
    }
}

/// True while the results shown are for an older input.
fn stale(state: &State) -> bool {
    matches!(state.status(), Status::Running | Status::Waiting)
}

fn summary(state: &State) -> Html {
    let summary = &state.view().summary;
    let mut pods = vec![
        format!("{} bound", summary.bound),
        format!("{} pending", summary.pending),
    ];
    if summary.rejected > 0 {
        pods.push(format!("{} rejected", summary.rejected));
    }
    if summary.terminated > 0 {
        pods.push(format!("{} terminated", summary.terminated));
    }
    let left_out = state.view().left_out.len();
    html! {
        <dl class="summary">
            <div>
                <dt>{ "Nodes" }</dt>
                <dd><strong>{ summary.nodes }</strong>{ format!(" · {} ready", summary.ready_nodes) }</dd>
            </div>
            <div>
                <dt>{ "Pods" }</dt>
                <dd><strong>{ summary.pods }</strong>{ format!(" · {}", pods.join(", ")) }</dd>
            </div>
            if summary.generated > 0 {
                <div>
                    <dt>{ "From owners" }</dt>
                    <dd title="Pending pods kubefit built from Deployments, StatefulSets, Jobs and other owners">
                        <strong>{ summary.generated }</strong>{ " to create" }
                    </dd>
                </div>
            }
            if left_out > 0 {
                <div class="left-out">
                    <dt>{ "Left out" }</dt>
                    <dd><strong>{ left_out }</strong>{ format!(" {} with errors", if left_out == 1 { "object" } else { "objects" }) }</dd>
                </div>
            }
            <div class="profile">
                <dt>{ "Profile" }</dt>
                <dd>{ state.view().profile.clone() }</dd>
            </div>
            if summary.errors + summary.warnings > 0 {
                <div class="visually-hidden">
                    <dt>{ "Problems" }</dt>
                    <dd>{ format!("{}, {}", plural(summary.errors, "error"), plural(summary.warnings, "warning")) }</dd>
                </div>
            }
        </dl>
    }
}

fn focus(id: &str) {
    use wasm_bindgen::JsCast as _;
    if let Some(element) = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.get_element_by_id(id))
        .and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = element.focus();
    }
}
