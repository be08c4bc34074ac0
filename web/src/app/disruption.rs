//! The disruption panel: the Scenario's timeline per node, the evictions and the machines.

use yew::prelude::*;

use super::nodes::{page_buttons, pager};
use super::problems::plural;
use super::Dispatch;
use crate::disruption::{self, After, Lane};
use crate::scenario::{self, WhatIf};
use crate::state::Action;
use crate::tables::{self, PAGE_SIZE};
use crate::view::{Outcome, View};

/// Lanes shown per page: a drain of a busy node or a taint on many nodes gives thousands
/// of events, which the page must not turn into thousands of rows at once.
const LANES_PER_PAGE: usize = 20;
/// Events listed per lane; the marks on its track show them all.
const ROWS_PER_LANE: usize = 50;

/// The panel; without a Scenario, one to add with a click. A function, not a component:
/// the results re-render it only when shown.
pub fn panel(outcome: &Outcome, page: usize, dispatch: &Dispatch) -> Html {
    let view = &outcome.view;
    let Some(document) = &view.scenario else {
        return intro(view, dispatch);
    };
    let lanes = disruption::lanes(view);
    // One page index for both lists: lanes 20 to a page, evictions 100 to a page.
    let lane_pages = lanes.len().div_ceil(LANES_PER_PAGE).max(1);
    let eviction_pages = tables::page_count(view.evictions.len());
    let page = page.min(lane_pages.max(eviction_pages) - 1);
    let first_lane = (page.min(lane_pages - 1) * LANES_PER_PAGE).min(lanes.len());
    let shown = &lanes[first_lane..(first_lane + LANES_PER_PAGE).min(lanes.len())];
    let pages = page_buttons(
        page.min(lane_pages - 1),
        lane_pages,
        "Lane pages",
        &format!(
            "lanes {}–{} of {}",
            first_lane + 1,
            first_lane + shown.len(),
            lanes.len()
        ),
        dispatch.reform(Action::DisruptionPage),
    );
    html! {
        <div class="disruption">
            <p class="scenario-head">
                { format!(
                    "The Scenario in {document}, played to {}: {}, {}.",
                    disruption::time(view.until),
                    plural(view.events.len(), "event"),
                    plural(view.evictions.len(), "eviction"),
                ) }
            </p>
            if lanes.is_empty() {
                <p class="empty">{ "Nothing happened: the Scenario has no steps yet. The what-if buttons of the Nodes table add some." }</p>
            } else {
                { timeline(view.until, shown) }
                { pages }
            }
            if !view.evictions.is_empty() {
                { evictions(view, page) }
                { pager(view.evictions.len(), page.min(eviction_pages - 1), dispatch.reform(Action::DisruptionPage)) }
            }
            if !view.machines.is_empty() {
                { machines(view) }
            }
        </div>
    }
}

/// What a Scenario is, and one to add.
fn intro(view: &View, dispatch: &Dispatch) -> Html {
    let node = view.nodes.first().map(|node| node.name.clone());
    let what_if = WhatIf::Drain(node.clone().unwrap_or_else(|| "node1".into()));
    let (example, _, _) = scenario::document(&what_if);
    html! {
        <div class="disruption intro">
            <p>
                { "The input has no Scenario, so nothing changes over time. A Scenario (a document of kind " }
                <code>{ "Scenario" }</code>
                { ") lists steps, each at a time from the start: taint, untaint, cordon, uncordon, drain, nodeCondition, deleteMachine, removeHook, deschedule. kubefit plays them as the cluster's controllers would: NoExecute evictions, drains held back by PodDisruptionBudgets, replacements and where they land, machines waiting on their lifecycle hooks." }
            </p>
            <pre class="snippet" tabindex="0" aria-label="An example Scenario">{ example }</pre>
            if node.is_some() {
                <button type="button" onclick={ dispatch.reform(move |_: MouseEvent| Action::WhatIf(what_if.clone())) }>
                    { "Add this Scenario to the input" }
                </button>
            }
            <p class="hint">{ "The what-if buttons of the Nodes table add steps too." }</p>
        </div>
    }
}

/// The time axis and the lanes.
fn timeline(until: i64, lanes: &[Lane<'_>]) -> Html {
    let ticks = disruption::ticks(until);
    let last = ticks.len() - 1;
    let labels = ticks.iter().enumerate().map(|(index, &tick)| {
        let anchor = match index {
            0 => "start",
            _ if index == last && tick == until => "end",
            _ => "middle",
        };
        html! {
            <text x={ disruption::percent(tick, until) } y="12" text-anchor={ anchor }>{ disruption::time(tick) }</text>
        }
    });
    let grid = ticks.iter().map(|&tick| {
        let x = disruption::percent(tick, until);
        html! { <line class="grid" x1={ x.clone() } x2={ x } y1="0" y2="20" /> }
    });
    let grid = html! { { for grid } };
    html! {
        <section class="timeline" aria-label="Timeline">
            <div class="lane axis-row" aria-hidden="true">
                <span />
                <svg class="axis" height="16">{ for labels }</svg>
            </div>
            { for lanes.iter().map(|lane| self::lane(lane, until, &grid)) }
        </section>
    }
}

/// A lane: its marks on the axis, for the eye (positions are SVG lengths, which the
/// Content-Security-Policy allows where it forbids inline styles), and its events in words.
fn lane(lane: &Lane<'_>, until: i64, grid: &Html) -> Html {
    let (kind, name) = lane
        .object
        .split_once('/')
        .unwrap_or((lane.object.as_str(), ""));
    let marks = lane.rows.iter().map(|row| {
        let x = disruption::percent(row.event.at, until);
        html! {
            <line class={ disruption::tone(row.event) } x1={ x.clone() } x2={ x } y1="3" y2="17">
                <title>{ format!("{} {}: {}", disruption::time(row.event.at), row.event.kind, row.event.message) }</title>
            </line>
        }
    });
    let hidden = lane.rows.len().saturating_sub(ROWS_PER_LANE);
    let rows = lane.rows.iter().take(ROWS_PER_LANE).map(|row| {
        let event = row.event;
        let tone = disruption::tone(event);
        html! {
            <li>
                <time>{ disruption::time(event.at) }</time>
                <span class={ classes!("pill", tone) } title={ event.reason.clone() }>{ event.kind.clone() }</span>
                <span class="text">
                    if event.object != lane.object {
                        <span class="object">{ event.object.clone() }</span>
                    }
                    { event.message.clone() }
                    if row.count > 1 {
                        <span class="repeat">{ format!(" ({} times, the last at {})", row.count, disruption::time(row.last)) }</span>
                    }
                </span>
            </li>
        }
    });
    html! {
        <section class="lane" aria-label={ lane.object.clone() }>
            <h4><span class="kind">{ kind.to_owned() }</span>{ name.to_owned() }</h4>
            <svg class="track" height="20" aria-hidden="true">{ grid.clone() }{ for marks }</svg>
            <ol class="events">{ for rows }</ol>
            if hidden > 0 {
                <p class="note">{ format!("and {} on this lane (marked on its track; the report lists them all)", plural(hidden, "more event")) }</p>
            }
        </section>
    }
}

/// The evicted pods: when and why, and each one's node before and after (where its
/// replacement went, or why it stays Pending).
fn evictions(view: &View, page: usize) -> Html {
    let displaced = disruption::displaced(view);
    let first =
        (page.min(tables::page_count(displaced.len()) - 1) * PAGE_SIZE).min(displaced.len());
    let rows = displaced.into_iter().skip(first).take(PAGE_SIZE).map(|moved| {
        let eviction = moved.eviction;
        // A replacement is in its pod's namespace: its name says enough.
        let replacement = eviction
            .replacement
            .as_deref()
            .and_then(|pod| pod.rsplit('/').next())
            .map(|name| format!("as {name}"))
            .unwrap_or_default();
        let after = match moved.after {
            After::Node(node) => html! { <>{ node.to_owned() }<div class="note replacement">{ replacement }</div></> },
            After::Pending(_, message) => html! {
                <>
                    <span class="pill warning">{ "Pending" }</span>
                    <div class="note replacement">{ replacement }</div>
                    if let Some(message) = message {
                        <div class="note">{ message.to_owned() }</div>
                    }
                </>
            },
            After::Gone => html! { <span class="muted">{ "not replaced" }</span> },
        };
        html! {
            <tr>
                <th scope="row" class="name">{ eviction.pod.clone() }</th>
                <td class="number">{ disruption::time(eviction.at) }</td>
                <td><code>{ eviction.cause.clone() }</code></td>
                <td class="node">{ eviction.node.clone() }</td>
                <td class="node">{ after }</td>
                <td class="message">
                    { eviction.message.clone() }
                    if moved.refused > 0 {
                        <div class="note">{ format!("refused {} first: a PodDisruptionBudget allowed no disruption", plural(moved.refused, "time")) }</div>
                    }
                </td>
            </tr>
        }
    });
    html! {
        <>
            <h3>{ "Evictions" }</h3>
            <div class="table-wrap">
                <table class="evictions">
                    <caption class="visually-hidden">{ "Evicted pods: when, why, their node before, and where their replacement is after" }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "Pod" }</th>
                            <th scope="col" class="number">{ "At" }</th>
                            <th scope="col">{ "Cause" }</th>
                            <th scope="col">{ "Before" }</th>
                            <th scope="col">{ "After" }</th>
                            <th scope="col">{ "Message" }</th>
                        </tr>
                    </thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
        </>
    }
}

/// Every machine with its phase and conditions.
fn machines(view: &View) -> Html {
    let items = view.machines.iter().map(|machine| {
        let node = view
            .nodes
            .iter()
            .find(|node| node.machine.as_ref() == Some(&machine.machine));
        let conditions = machine.conditions.iter().map(|condition| {
            let tone = if condition.status == "True" { "ok" } else { "warning" };
            html! {
                <li>
                    <span class={ classes!("pill", tone) }>{ format!("{}={}", condition.kind, condition.status) }</span>
                    { format!(" {}", condition.message) }
                </li>
            }
        });
        html! {
            <li>
                <strong>{ machine.machine.clone() }</strong>
                <span class="pill muted">{ machine.phase.clone() }</span>
                if machine.removed {
                    <span class="pill error">{ "instance and node removed" }</span>
                }
                if let Some(node) = node {
                    <span class="muted">{ format!(" node {}", node.name) }</span>
                }
                <ul class="conditions">{ for conditions }</ul>
            </li>
        }
    });
    html! {
        <>
            <h3>{ "Machines" }</h3>
            <ul class="machines">{ for items }</ul>
        </>
    }
}
