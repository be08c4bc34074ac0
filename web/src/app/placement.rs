//! The placement panel: every pending pod with its outcome, and for the selected one the
//! upstream message, what preemption did, and a node × filter matrix with the scores.
//!
//! Failing cells are buttons: they name their reason (title, and a tooltip on focus) and
//! select, in the editor, the field of the input the reason is about. Passing cells are
//! plain text, so that a 200-node matrix has few tab stops.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::nodes::pager;
use super::Dispatch;
use crate::placement::{self, MATRIX_ROWS};
use crate::state::Action;
use crate::tables;
use crate::view::{Outcome, Placement, Verdict, FAIL, PASS};

/// The pending pods and the selected pod's placement. A function, not a component: the
/// results re-render it only when it is the panel shown.
pub fn panel(
    outcome: &Outcome,
    pod: Option<&str>,
    filter: &str,
    page: usize,
    dispatch: &Dispatch,
) -> Html {
    let placements = &outcome.view.placements;
    let Some(selected) = placement::selected(placements, pod) else {
        return html! {
            <p class="empty">{ "No pending pods. Pods without a node (and pods their owners would create) are placed here." }</p>
        };
    };
    let all: Vec<usize> = (0..placements.len()).collect();
    let rows = tables::page(&all, page).iter().map(|&index| {
        let placement = &placements[index];
        let current = std::ptr::eq(placement, selected);
        let pod = placement.pod.clone();
        let (namespace, name) = split(&placement.pod);
        let node = placement.nominated.as_ref().or(placement.node.as_ref());
        let message = placement.message.as_deref().unwrap_or_default();
        html! {
            <tr class={ classes!(current.then_some("selected")) }>
                <th scope="row" class="name">
                    <button type="button" class="link" aria-pressed={ current.to_string() }
                        onclick={ dispatch.reform(move |_: MouseEvent| Action::SelectPod(pod.clone())) }>
                        <span class="namespace">{ namespace }</span>{ name }
                    </button>
                </th>
                <td class="number">{ placement.priority }</td>
                <td>{ outcome_pill(&placement.outcome) }</td>
                <td class="node">{ node.cloned().unwrap_or_else(|| "—".into()) }</td>
                <td class="message" title={ message.to_owned() }>{ message.to_owned() }</td>
            </tr>
        }
    });
    html! {
        <>
            <div class="table-wrap pending">
                <table class="pending">
                    <caption class="visually-hidden">{ "Pending pods, in scheduling order" }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "Pod" }</th>
                            <th scope="col" class="number">{ "Priority" }</th>
                            <th scope="col">{ "Outcome" }</th>
                            <th scope="col">{ "Node" }</th>
                            <th scope="col">{ "Message" }</th>
                        </tr>
                    </thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            { pager(placements.len(), page, dispatch.reform(Action::PlacementsPage)) }
            { detail(selected, filter, dispatch) }
        </>
    }
}

/// `namespace/` and `name`.
fn split(pod: &str) -> (String, String) {
    match pod.split_once('/') {
        Some((namespace, name)) => (format!("{namespace}/"), name.to_owned()),
        None => (String::new(), pod.to_owned()),
    }
}

fn outcome_pill(outcome: &str) -> Html {
    let class = match outcome {
        "scheduled" => "ok",
        "nominated" => "warning",
        "unschedulable" | "rejected" => "error",
        _ => "muted",
    };
    html! { <span class={ classes!("pill", class) }>{ outcome.to_owned() }</span> }
}

/// The selected pod: its head, its message, preemption, notes and the matrix.
fn detail(placement: &Placement, filter: &str, dispatch: &Dispatch) -> Html {
    let (namespace, name) = split(&placement.pod);
    html! {
        <section class="placement" aria-labelledby="placement-title">
            <div class="placement-head">
                <h3 id="placement-title"><span class="namespace">{ namespace }</span>{ name }</h3>
                { outcome_pill(&placement.outcome) }
                if placement.place.is_some() {
                    <button type="button" class="link" onclick={ dispatch.reform(|_: MouseEvent| Action::RevealPlacement { node: None, reason: None }) }>
                        { "Show in the input" }
                    </button>
                }
            </div>
            if let Some(message) = &placement.message {
                { message_block(message, dispatch) }
            }
            if !placement.notes.is_empty() {
                <ul class="notes">{ for placement.notes.iter().map(|line| html! { <li>{ line.clone() }</li> }) }</ul>
            }
            if !placement.verdicts.is_empty() {
                { matrix(placement, filter, dispatch) }
            }
        </section>
    }
}

fn message_block(message: &str, dispatch: &Dispatch) -> Html {
    let copy = {
        let message = message.to_owned();
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            super::copy(message.clone(), "Message copied".into(), dispatch.clone());
        })
    };
    html! {
        <div class="message-block">
            <code id="placement-message">{ message.to_owned() }</code>
            <button type="button" class="copy" onclick={ copy }
                aria-label="Copy the message">{ "Copy" }</button>
        </div>
    }
}

fn matrix(placement: &Placement, filter: &str, dispatch: &Dispatch) -> Html {
    let order = placement::rows(placement, filter);
    let shown = order.len();
    let scored = placement
        .verdicts
        .iter()
        .any(|verdict| verdict.total.is_some());
    let on_filter = dispatch.reform(|event: InputEvent| {
        let input: HtmlInputElement = event.target_unchecked_into();
        Action::FilterPlacementNodes(input.value())
    });
    // Score columns (the total last) start with a rule.
    let mut columns: Vec<(&str, &str)> = placement
        .filters
        .iter()
        .map(|name| (name.as_str(), "vertical"))
        .collect();
    let first_score = columns.len();
    columns.extend(
        placement
            .scores
            .iter()
            .map(|name| (name.as_str(), "vertical")),
    );
    if scored {
        columns.push(("Total", "vertical"));
    }
    if let Some(column) = columns.get_mut(first_score) {
        column.1 = "vertical first";
    }
    html! {
        <>
            <div class="filters">
                <label class="grow">
                    <span>{ "Nodes" }</span>
                    <input id="placement-filter" type="search" placeholder="node name contains"
                        value={ filter.to_owned() } oninput={ on_filter } />
                </label>
                <span class="shown" aria-live="polite">{ format!("{shown} of {} nodes", placement.verdicts.len()) }</span>
            </div>
            if shown > MATRIX_ROWS {
                <p class="hint">{ format!("The first {MATRIX_ROWS} of {shown} nodes: filter by name to see the others.") }</p>
            }
            <div class="table-wrap matrix-wrap">
                <table class="matrix">
                    <caption class="visually-hidden">{ "Each filter's verdict and each score, per node" }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "Node" }</th>
                            { for columns.into_iter().map(|(title, class)| html! {
                                <th scope="col" { class }><span>{ title.to_owned() }</span></th>
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for order.iter().take(MATRIX_ROWS).map(|&index| {
                            row(placement, &placement.verdicts[index], scored, dispatch)
                        }) }
                    </tbody>
                </table>
            </div>
        </>
    }
}

fn row(placement: &Placement, verdict: &Verdict, scored: bool, dispatch: &Dispatch) -> Html {
    let node = verdict.node.as_str();
    let reveal = |reason: Option<String>| {
        let node = node.to_owned();
        dispatch.reform(move |_: MouseEvent| Action::RevealPlacement {
            node: Some(node.clone()),
            reason: reason.clone(),
        })
    };
    let mark = if placement.nominated.as_deref() == Some(node) {
        Some(("nominated", "pill warning"))
    } else if placement.node.as_deref() == Some(node) {
        Some(("chosen", "pill ok"))
    } else {
        None
    };
    let winner = mark.is_some();
    // A node a PreFilter excluded ran no filter: its reason goes under its name.
    let excluded = !verdict.failures.is_empty() && !verdict.cells.contains([PASS, FAIL]);
    let mut failures = verdict.failures.iter();
    let cells = placement.filters.iter().zip(verdict.cells.chars()).map(|(filter, cell)| {
        if cell == FAIL {
            let reasons = failures.next().cloned().unwrap_or_default();
            let label = format!("{filter} fails on {node}: {reasons}. Show the cause in the input");
            // The first reason decides where the cause is.
            let first = reasons.split("; ").next().map(str::to_owned);
            return html! {
                <td class="cell fail">
                    <button type="button" title={ reasons } aria-label={ label } onclick={ reveal(first) }>{ "✗" }</button>
                </td>
            };
        }
        let (class, title, glyph) = if cell == PASS {
            ("cell pass", "passes", "✓")
        } else {
            ("cell skip", "not run", "·")
        };
        html! { <td { class } { title }>{ glyph }</td> }
    });
    let numbers = (0..placement.scores.len())
        .map(|index| verdict.scores.get(index).copied().flatten())
        .chain(scored.then_some(verdict.total));
    let numbers = numbers.enumerate().map(|(index, number)| {
        let class = classes!(
            "number",
            (index == 0).then_some("first"),
            number.is_none().then_some("muted"),
            (winner && index == placement.scores.len()).then_some("winner")
        );
        html! { <td { class }>{ number.map_or_else(|| "–".to_owned(), |number| number.to_string()) }</td> }
    });
    html! {
        <tr class={ classes!(winner.then_some("chosen")) }>
            <th scope="row" class="name">
                <button type="button" class="link" title="Show the node in the input" onclick={ reveal(None) }>{ node.to_owned() }</button>
                if let Some((text, class)) = mark {
                    <span { class }>{ text }</span>
                }
                if excluded {
                    <div class="note">{ verdict.failures.join("; ") }</div>
                }
            </th>
            { for cells }
            { for numbers }
        </tr>
    }
}
