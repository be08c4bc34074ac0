//! The problem list under the editor: each diagnostic, its place and its object; a click
//! moves the cursor there. Objects with errors are named as left out of evaluation.

use std::rc::Rc;

use yew::prelude::*;

use super::Dispatch;
use crate::state::Action;
use crate::view::{Outcome, Problem};

/// At most this many problems are listed; a broken dump can have tens of thousands.
pub const LISTED: usize = 500;

/// Properties of [`Problems`].
#[derive(Properties)]
pub struct ProblemsProps {
    /// The evaluation whose problems are listed.
    pub outcome: Rc<Outcome>,
    /// Where actions go.
    pub dispatch: Dispatch,
}

impl PartialEq for ProblemsProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.outcome, &other.outcome) && self.dispatch == other.dispatch
    }
}

/// The problem list.
#[component]
pub fn Problems(props: &ProblemsProps) -> Html {
    let view = &props.outcome.view;
    let summary = &view.summary;
    let heading = match (summary.errors, summary.warnings) {
        (0, 0) => "No problems".to_string(),
        (errors, warnings) => format!(
            "{} · {}",
            plural(errors, "error"),
            plural(warnings, "warning")
        ),
    };
    let items = view
        .problems
        .iter()
        .take(LISTED)
        .enumerate()
        .map(|(index, problem)| {
            let reveal = props
                .dispatch
                .reform(move |_: MouseEvent| Action::Reveal(index));
            item(problem, reveal)
        });
    html! {
        <section class={ classes!("problems", (summary.errors > 0).then_some("has-errors")) }
            aria-labelledby="problems-title">
            <h2 id="problems-title">
                <span class={ classes!("dot", if summary.errors > 0 { "error" } else if summary.warnings > 0 { "warning" } else { "ok" }) } aria-hidden="true" />
                { heading }
            </h2>
            if !view.left_out.is_empty() {
                <p class="left-out">
                    <strong>{ format!("Left out of evaluation ({}):", view.left_out.len()) }</strong>
                    { for view.left_out.iter().take(LISTED).map(|object| html! { <code>{ object.clone() }</code> }) }
                </p>
            }
            if !view.problems.is_empty() {
                <ul>{ for items }</ul>
            }
            if view.problems.len() > LISTED {
                <p class="hint">{ format!("…and {} more (download the report for all of them)", view.problems.len() - LISTED) }</p>
            }
        </section>
    }
}

fn item(problem: &Problem, reveal: Callback<MouseEvent>) -> Html {
    let severity = if problem.error { "error" } else { "warning" };
    let place = match (&problem.source, problem.line, problem.column) {
        (Some(source), Some(line), Some(column)) => Some(format!("{source}:{line}:{column}")),
        (Some(source), Some(line), None) => Some(format!("{source}:{line}")),
        (None, Some(line), _) => Some(format!("line {line}")),
        _ => None,
    };
    let about = match (&problem.object, &problem.path) {
        (Some(object), Some(path)) => Some(format!("{object} · {path}")),
        (Some(object), None) => Some(object.clone()),
        (None, Some(path)) => Some(path.clone()),
        (None, None) => None,
    };
    let body = html! {
        <>
            <span class={ classes!("severity", severity) }>{ severity }</span>
            <span class="body">
                <span class="message">{ problem.message.clone() }</span>
                <span class="meta">
                    if let Some(place) = place {
                        <span class="place">{ place }</span>
                    }
                    <code class="rule">{ problem.code.clone() }</code>
                    if let Some(about) = about {
                        <span class="about">{ about }</span>
                    }
                </span>
                if let Some(help) = &problem.help {
                    <span class="help">{ help.clone() }</span>
                }
            </span>
        </>
    };
    html! {
        <li class={ classes!("problem", severity) }>
            if problem.line.is_some() {
                <button type="button" class="problem-button" onclick={ reveal }
                    title="Show in the editor">{ body }</button>
            } else {
                <div class="problem-button">{ body }</div>
            }
        </li>
    }
}

/// `1 error`, `2 errors`.
#[must_use]
pub fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
