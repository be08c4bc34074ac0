//! The nodes table: name and taints, status, and CPU, memory and pods with utilisation
//! bars; sortable by every column. Under each node's name, what-if buttons add a step to
//! the Scenario.

use std::rc::Rc;

use yew::prelude::*;

use super::Dispatch;
use crate::scenario::WhatIf;
use crate::state::Action;
use crate::tables::{self, NodeColumn, Sort};
use crate::view::{NodeRow, Outcome, Usage};

/// Properties of [`NodesTable`].
#[derive(Properties)]
pub struct NodesProps {
    /// The evaluation shown.
    pub outcome: Rc<Outcome>,
    /// The order.
    pub sort: Sort<NodeColumn>,
    /// The page.
    pub page: usize,
    /// Where actions go.
    pub dispatch: Dispatch,
}

impl PartialEq for NodesProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.outcome, &other.outcome)
            && self.sort == other.sort
            && self.page == other.page
            && self.dispatch == other.dispatch
    }
}

/// The nodes table.
#[component]
pub fn NodesTable(props: &NodesProps) -> Html {
    let view = &props.outcome.view;
    if view.nodes.is_empty() {
        return html! {
            <p class="empty">{ "No nodes yet. Add objects of kind Node (or a kubectl List holding them)." }</p>
        };
    }
    let order = tables::node_order(view, props.sort);
    let header = |column: NodeColumn, title: &'static str, class: &'static str| {
        sort_header(
            title,
            class,
            props.sort.aria(column),
            props
                .dispatch
                .reform(move |_: MouseEvent| Action::SortNodes(column)),
        )
    };
    html! {
        <>
            <div class="table-wrap">
                <table class="nodes">
                    <caption class="visually-hidden">{ "Nodes: capacity and use" }</caption>
                    <thead>
                        <tr>
                            { header(NodeColumn::Name, "Node", "name") }
                            { header(NodeColumn::Status, "Status", "status") }
                            { header(NodeColumn::Cpu, "CPU", "usage") }
                            { header(NodeColumn::Memory, "Memory", "usage") }
                            { header(NodeColumn::Pods, "Pods", "usage") }
                        </tr>
                    </thead>
                    <tbody>
                        { for tables::page(&order, props.page).iter().map(|&index| row(&view.nodes[index], &props.dispatch)) }
                    </tbody>
                </table>
            </div>
            { pager(order.len(), props.page, props.dispatch.reform(Action::NodesPage)) }
        </>
    }
}

fn row(node: &NodeRow, dispatch: &Dispatch) -> Html {
    let (status, class) = match (node.ready, node.unschedulable) {
        (true, false) => ("Ready", "ok"),
        (true, true) => ("Ready, cordoned", "warning"),
        (false, false) => ("Not ready", "error"),
        (false, true) => ("Not ready, cordoned", "error"),
    };
    html! {
        <tr>
            <th scope="row" class="name">
                <span class="node-name">{ node.name.clone() }</span>
                if !node.taints.is_empty() {
                    <div class="taints" aria-label="Taints">
                        { for node.taints.iter().map(|taint| html! { <code class="taint">{ taint.clone() }</code> }) }
                    </div>
                }
                <div class="what-if" role="group" aria-label="What if">
                    { what_if("taint", WhatIf::Taint(node.name.clone()), dispatch) }
                    { what_if("cordon", WhatIf::Cordon(node.name.clone()), dispatch) }
                    { what_if("drain", WhatIf::Drain(node.name.clone()), dispatch) }
                    if let Some(machine) = &node.machine {
                        { what_if("delete machine", WhatIf::DeleteMachine(machine.clone()), dispatch) }
                    }
                </div>
            </th>
            <td class="status"><span class={ classes!("pill", class) }>{ status }</span></td>
            <td class="usage">{ usage(&node.cpu, "CPU") }</td>
            <td class="usage">{ usage(&node.memory, "memory") }</td>
            <td class="usage">{ usage(&node.pods, "pods") }</td>
        </tr>
    }
}

/// A button that adds a what-if step to the Scenario.
fn what_if(label: &'static str, what_if: WhatIf, dispatch: &Dispatch) -> Html {
    let step = what_if.step(false);
    let name = format!("{label}: add {step} to the Scenario");
    html! {
        <button type="button" title={ step } aria-label={ name }
            onclick={ dispatch.reform(move |_: MouseEvent| Action::WhatIf(what_if.clone())) }>
            { label }
        </button>
    }
}

/// A bar (a `<meter>`, so its value is announced) with requested / allocatable and free.
fn usage(usage: &Usage, resource: &str) -> Html {
    let Some(allocatable) = &usage.allocatable else {
        return html! { <span class="muted">{ "—" }</span> };
    };
    let requested = usage.requested.clone().unwrap_or_else(|| "0".into());
    let percent = usage.percent().unwrap_or(0);
    let over = usage.share.is_some_and(|share| share > 1.0);
    let free = usage.free.clone().unwrap_or_else(|| allocatable.clone());
    html! {
        <div class={ classes!("bar", over.then_some("over")) }>
            <div class="bar-text">
                <span>{ format!("{requested} / {allocatable}") }</span>
                <span class="percent">{ format!("{percent}%") }</span>
            </div>
            <meter min="0" max="1" low="0.7" high="0.9" optimum="0"
                value={ fraction(usage.per_mille().unwrap_or(0).min(1000)) }
                aria-label={ format!("{resource}: {percent}% requested") } />
            <div class="bar-free">{ format!("{free} free") }</div>
        </div>
    }
}

/// Thousandths as a decimal fraction (`630` is `0.630`), without float formatting, which
/// would add its tables to the download.
fn fraction(per_mille: u64) -> String {
    format!("{}.{:03}", per_mille / 1000, per_mille % 1000)
}

/// A sortable column header: a button inside the `th`, with `aria-sort` on the `th`.
pub fn sort_header(
    title: &'static str,
    class: &'static str,
    aria: &'static str,
    onclick: Callback<MouseEvent>,
) -> Html {
    let arrow = match aria {
        "ascending" => "↑",
        "descending" => "↓",
        _ => "↕",
    };
    html! {
        <th scope="col" class={ class } aria-sort={ aria }>
            <button type="button" class="sort" { onclick }>
                { title }<span class="arrow" aria-hidden="true">{ arrow }</span>
            </button>
        </th>
    }
}

/// Page buttons, when there is more than one page.
pub fn pager(rows: usize, page: usize, go: Callback<usize>) -> Html {
    let pages = tables::page_count(rows);
    let page = page.min(pages - 1);
    let first = page * tables::PAGE_SIZE + 1;
    let last = ((page + 1) * tables::PAGE_SIZE).min(rows);
    page_buttons(
        page,
        pages,
        "Pages",
        &format!("{first}–{last} of {rows}"),
        go,
    )
}

/// Previous and next buttons around `position`, when there is more than one page.
pub fn page_buttons(
    page: usize,
    pages: usize,
    label: &str,
    position: &str,
    go: Callback<usize>,
) -> Html {
    if pages <= 1 {
        return html! {};
    }
    html! {
        <nav class="pager" aria-label={ label.to_owned() }>
            <button type="button" disabled={ page == 0 }
                onclick={ go.reform(move |_: MouseEvent| page.saturating_sub(1)) }>{ "‹ Previous" }</button>
            <span>{ position.to_owned() }</span>
            <button type="button" disabled={ page + 1 >= pages }
                onclick={ go.reform(move |_: MouseEvent| page + 1) }>{ "Next ›" }</button>
        </nav>
    }
}
