//! The pods table: node, state, priority, QoS class and requests; filterable by namespace
//! and by text, sortable by every column.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::nodes::{pager, sort_header};
use super::Dispatch;
use crate::state::Action;
use crate::tables::{self, PodColumn, PodFilter, Sort};
use crate::view::{Outcome, PodRow};

/// Properties of [`PodsTable`].
#[derive(Properties)]
pub struct PodsProps {
    /// The evaluation shown.
    pub outcome: Rc<Outcome>,
    /// The order.
    pub sort: Sort<PodColumn>,
    /// Which pods to show.
    pub filter: PodFilter,
    /// The page.
    pub page: usize,
    /// Where actions go.
    pub dispatch: Dispatch,
}

impl PartialEq for PodsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.outcome, &other.outcome)
            && self.sort == other.sort
            && self.filter == other.filter
            && self.page == other.page
            && self.dispatch == other.dispatch
    }
}

/// The filters and the pods table.
#[component]
pub fn PodsTable(props: &PodsProps) -> Html {
    let view = &props.outcome.view;
    let order = tables::pod_order(view, props.sort, &props.filter);
    let on_namespace = props.dispatch.reform(|event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        let value = select.value();
        Action::FilterNamespace((!value.is_empty()).then_some(value))
    });
    let on_text = props.dispatch.reform(|event: InputEvent| {
        let input: HtmlInputElement = event.target_unchecked_into();
        Action::FilterPods(input.value())
    });
    let selected = props.filter.namespace.clone().unwrap_or_default();
    let header = |column: PodColumn, title: &'static str, class: &'static str| {
        sort_header(
            title,
            class,
            props.sort.aria(column),
            props
                .dispatch
                .reform(move |_: MouseEvent| Action::SortPods(column)),
        )
    };
    html! {
        <>
            <div class="filters">
                <label>
                    <span>{ "Namespace" }</span>
                    <select id="pod-namespace" onchange={ on_namespace }>
                        <option value="" selected={ selected.is_empty() }>{ "All namespaces" }</option>
                        { for view.namespaces.iter().map(|namespace| html! {
                            <option value={ namespace.clone() } selected={ *namespace == selected }>{ namespace.clone() }</option>
                        }) }
                        if !selected.is_empty() && !view.namespaces.contains(&selected) {
                            <option value={ selected.clone() } selected=true>{ selected.clone() }</option>
                        }
                    </select>
                </label>
                <label class="grow">
                    <span>{ "Filter" }</span>
                    <input id="pod-filter" type="search" placeholder="name, node, state or QoS"
                        value={ props.filter.text.clone() } oninput={ on_text } />
                </label>
                <span class="shown" aria-live="polite">{ format!("{} of {} pods", order.len(), view.pods.len()) }</span>
            </div>
            if order.is_empty() {
                <p class="empty">{ if view.pods.is_empty() { "No pods yet." } else { "No pod matches the filter." } }</p>
            } else {
                <div class="table-wrap">
                    <table class="pods">
                        <caption class="visually-hidden">{ "Pods and where they stand" }</caption>
                        <thead>
                            <tr>
                                { header(PodColumn::Pod, "Pod", "name") }
                                { header(PodColumn::Node, "Node", "node") }
                                { header(PodColumn::State, "State", "state") }
                                { header(PodColumn::Priority, "Priority", "number") }
                                { header(PodColumn::Qos, "QoS", "qos") }
                                { header(PodColumn::Cpu, "CPU", "number") }
                                { header(PodColumn::Memory, "Memory", "number") }
                            </tr>
                        </thead>
                        <tbody>
                            { for tables::page(&order, props.page).iter().map(|&index| row(&view.pods[index])) }
                        </tbody>
                    </table>
                </div>
                { pager(order.len(), props.page, props.dispatch.reform(Action::PodsPage)) }
            }
        </>
    }
}

fn row(pod: &PodRow) -> Html {
    let state_class = match pod.state.as_str() {
        "Bound" => "ok",
        "Pending" => "warning",
        "Rejected" => "error",
        _ => "muted",
    };
    let note = pod
        .generated_from
        .as_ref()
        .map(|owner| format!("would be created by {owner}"))
        .or_else(|| pod.rejection.clone());
    html! {
        <tr>
            <th scope="row" class="name">
                <span class="namespace">{ format!("{}/", pod.namespace) }</span>{ pod.name.clone() }
                if let Some(note) = note {
                    <div class="note">{ note }</div>
                }
            </th>
            <td class="node">
                { match &pod.node {
                    Some(node) => html! { { node.clone() } },
                    None => html! { <span class="muted">{ "—" }</span> },
                } }
            </td>
            <td class="state"><span class={ classes!("pill", state_class) }>{ pod.state.clone() }</span></td>
            <td class="number">{ pod.priority }</td>
            <td class="qos">{ pod.qos.clone() }</td>
            <td class="number">{ pod.cpu.clone().unwrap_or_else(|| "—".into()) }</td>
            <td class="number">{ pod.memory.clone().unwrap_or_else(|| "—".into()) }</td>
        </tr>
    }
}
