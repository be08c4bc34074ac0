//! The components rendered to HTML strings (Yew's server-side renderer), natively.

use std::rc::Rc;

use kubefit_web::app::{App, AppProps};
use kubefit_web::examples::{Example, EXAMPLES};
use kubefit_web::state::{Action, Document, Panel};
use kubefit_web::State;
use yew::ServerRenderer;

/// Renders the app on a state built on the renderer's thread (states are not `Send`).
fn render(state: impl FnOnce() -> State + Send + 'static) -> String {
    futures::executor::block_on(
        ServerRenderer::<App>::with_props(move || AppProps {
            initial: Rc::new(state()),
        })
        .hydratable(false)
        .render(),
    )
}

fn with_text(text: &str) -> State {
    State::default()
        .apply(Action::Edit(text.into()))
        .apply(Action::Evaluate)
}

#[test]
fn the_page_shows_the_version_the_example_and_its_nodes() {
    let html = render(State::default);
    assert!(
        html.contains(&format!("v{}", kubefit_core::VERSION)),
        "{html}"
    );
    assert!(
        html.contains("mixed-cluster.yaml"),
        "the document tab: {html}"
    );
    assert!(html.contains("<textarea"), "{html}");
    assert!(html.contains("<table class=\"nodes\">"), "{html}");
    assert!(
        html.contains("<span class=\"node-name\">worker-1</span><div role=\"group\""),
        "{html}"
    );
    assert!(
        html.contains(">gpu-1</span><div aria-label=\"Taints\" class=\"taints\"><code class=\"taint\">dedicated=gpu:NoSchedule</code></div><div role=\"group\" aria-label=\"What if\" class=\"what-if\">"),
        "taints under the name: {html}"
    );
    assert!(html.contains("<meter"), "usage bars: {html}");
    assert!(html.contains("2500m / 4"), "{html}");
    assert!(html.contains("No problems"), "{html}");
    assert!(html.contains("aria-selected=\"true\""), "{html}");
    // Line numbers for every line of the example.
    let lines = Example::first().text().split('\n').count();
    assert!(html.contains(&format!("\n{lines}\n")), "{html}");
}

#[test]
fn every_example_is_in_the_gallery() {
    let html = render(State::default);
    for example in EXAMPLES {
        assert!(html.contains(example.title()), "{}", example.title());
    }
}

#[test]
fn problems_are_listed_marked_in_the_gutter_and_underlined() {
    let html = render(|| with_text("kind: Node\nmetadata: {name: n1}\n---\nkind: [\n"));
    assert!(html.contains("1 error"), "{html}");
    assert!(html.contains("mixed-cluster.yaml:4:"), "the place: {html}");
    assert!(
        html.contains("class=\"marker error\""),
        "the gutter marker: {html}"
    );
    assert!(html.contains(">4</span>"), "on line 4: {html}");
    assert!(
        html.contains("<mark class=\"error\">"),
        "the underline: {html}"
    );
    assert!(html.contains("class=\"problem-button\""), "{html}");
    assert!(
        html.contains(">n1</span>"),
        "the valid document is still evaluated: {html}"
    );
}

#[test]
fn objects_with_errors_are_named_as_left_out() {
    let html = render(|| {
        with_text(
            "kind: Pod\nmetadata: {name: broken, namespace: shop}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: lots}}}]\n",
        )
    });
    assert!(html.contains("Left out of evaluation (1):"), "{html}");
    assert!(html.contains("<code>Pod/shop/broken</code>"), "{html}");
}

#[test]
fn the_pods_panel_filters_and_the_report_panel_shows_text() {
    let html = render(|| {
        State::default()
            .apply(Action::ShowPanel(Panel::Pods))
            .apply(Action::FilterNamespace(Some("ml".into())))
    });
    assert!(html.contains("<table class=\"pods\">"), "{html}");
    assert!(html.contains("trainer"), "{html}");
    assert!(!html.contains(">web-1"), "filtered out: {html}");
    assert!(html.contains("2 of 7 pods"), "{html}");
    assert!(
        html.contains("<option value=\"ml\" selected=\"selected\">"),
        "{html}"
    );

    let html = render(|| State::default().apply(Action::ShowPanel(Panel::Report)));
    assert!(html.contains("class=\"report-text\""), "{html}");
    assert!(html.contains("NODES (3)"), "{html}");
}

#[test]
fn a_large_file_is_shown_as_a_card_not_in_the_text_area() {
    let html = render(|| {
        State::default().apply(Action::Open(vec![Document::file("dump.yaml", 1, 50 << 20)]))
    });
    assert!(html.contains("dump.yaml"), "{html}");
    assert!(html.contains("50.0 MiB"), "{html}");
    assert!(!html.contains("<textarea"), "{html}");
    assert!(html.contains("Evaluating in a background worker"), "{html}");
}

#[test]
fn user_text_is_rendered_as_text_never_as_markup() {
    let attack = "<script>alert(1)</script><img src=x onerror=alert(2)><a href=\"javascript:alert(3)\">x</a>";
    let input = format!(
        "kind: Node\nmetadata: {{name: n1, labels: {{a: '{attack}'}}}}\nspec:\n  taints: [{{key: k, value: '{attack}', effect: NoSchedule}}]\n---\nkind: Pod\nmetadata: {{name: p, namespace: '{attack}'}}\nspec: {{containers: [{{name: c}}]}}\n---\nkind: '{attack}'\n"
    );
    let html =
        render(move || State::default().apply(Action::Open(vec![Document::text(attack, input)])));
    for element in ["<script", "<img", "<a "] {
        assert!(!html.contains(element), "{element} in {html}");
    }
    // `javascript:` only ever appears as text (after an escaped `<a `), never as a link.
    assert_eq!(
        html.matches("href=\"javascript").count(),
        html.matches("&lt;a href=\"javascript").count(),
        "{html}"
    );
    assert!(html.contains("&lt;script&gt;"), "{html}");
    // In the tab, the text area, the taint, the problems and the file name of a problem.
    assert!(html.matches("&lt;script&gt;").count() >= 4, "{html}");
}

#[test]
fn the_placement_panel_shows_the_pods_the_message_the_victims_and_the_matrix() {
    let html = render(|| {
        State::from_example(Example::named("priority-preemption.yaml").expect("the example"))
            .apply(Action::ShowPanel(Panel::Placement))
    });
    assert!(html.contains("id=\"panel-placement\""), "{html}");
    assert!(html.contains("<table class=\"pending\">"), "{html}");
    assert!(
        html.contains("<span class=\"pill warning\">nominated</span>"),
        "{html}"
    );
    assert!(
        html.contains(
            "<code id=\"placement-message\">0/1 nodes are available: 1 Insufficient cpu.</code>"
        ),
        "the exact message: {html}"
    );
    assert!(html.contains("aria-label=\"Copy the message\""), "{html}");
    assert!(
        html.contains("<ul class=\"notes\"><li>Preemption evicts default/batch-1 (priority 100, grace period 30 s, against its PodDisruptionBudget)</li><li>Violated PodDisruptionBudgets: default/batch</li></ul>"),
        "the victims and the violated budget: {html}"
    );
    // The matrix: a column per filter, the failing cell a button naming its reason.
    assert!(html.contains("<table class=\"matrix\">"), "{html}");
    assert!(html.contains("<span>NodeResourcesFit</span>"), "{html}");
    assert!(
        html.contains("title=\"Insufficient cpu\" aria-label=\"NodeResourcesFit fails on node1: Insufficient cpu. Show the cause in the input\""),
        "{html}"
    );
    assert_eq!(html.matches("class=\"cell pass\"").count(), 11, "{html}");
    assert!(
        html.contains("<td title=\"passes\" class=\"cell pass\">✓</td>"),
        "{html}"
    );
    assert!(
        html.contains(">node1</button><span class=\"pill warning\">nominated</span></th>"),
        "the nominated node is marked: {html}"
    );

    // Scores per priority, the total, and the winner marked.
    let html = render(|| {
        State::from_example(Example::named("scheduler-policy.yaml").expect("the example"))
            .apply(Action::ShowPanel(Panel::Placement))
    });
    assert!(html.contains("<span>ZoneSpread</span>"), "{html}");
    assert!(html.contains("<span>Total</span>"), "{html}");
    assert!(html.contains("class=\"number winner\">40</td>"), "{html}");
    let matrix = &html[html.find("<table class=\"matrix\">").expect("a matrix")..];
    let first_row = &matrix[matrix.find("<tbody>").unwrap()..];
    assert!(
        first_row.starts_with("<tbody><tr class=\"chosen\"><th scope=\"row\" class=\"name\"><button type=\"button\" title=\"Show the node in the input\" class=\"link\">node-b</button><span class=\"pill ok\">chosen</span>"),
        "the chosen node first: {first_row}"
    );
    // No pending pod: a line saying so.
    let html = render(|| {
        with_text("kind: Node\nmetadata: {name: n1}\n").apply(Action::ShowPanel(Panel::Placement))
    });
    assert!(html.contains("No pending pods."), "{html}");
}

#[test]
fn the_disruption_panel_shows_lanes_evictions_and_where_replacements_went() {
    let html = render(|| {
        State::from_example(Example::named("toleration-seconds.yaml").expect("the example"))
            .apply(Action::ShowPanel(Panel::Disruption))
    });
    assert!(html.contains("id=\"panel-disruption\""), "{html}");
    assert!(
        html.contains(
            "The Scenario in toleration-seconds.yaml, played to 2h0m0s: 11 events, 2 evictions."
        ),
        "{html}"
    );
    // The axis, and one lane per node with its marks and its events in words.
    assert!(html.contains(">1h30m0s</text>"), "{html}");
    assert!(
        html.contains("<section aria-label=\"Node/node1\" class=\"lane\"><h4><span class=\"kind\">Node</span>node1</h4>"),
        "{html}"
    );
    assert!(
        html.contains("<line x1=\"50.0%\" x2=\"50.0%\""),
        "the eviction at 1h: {html}"
    );
    assert!(
        html.contains("<time>1h0m0s</time><span title=\"TaintManagerEviction\" class=\"pill error\">pod-evicted</span>"),
        "{html}"
    );
    // The evictions table, with each pod's node before and after.
    assert!(html.contains("<table class=\"evictions\">"), "{html}");
    assert!(
        html.contains("<th scope=\"row\" class=\"name\">default/web-abcde</th><td class=\"number\">0s</td><td><code>taint</code></td><td class=\"node\">node1</td><td class=\"node\">node3<div class=\"note replacement\">as web-5p8q2</div></td>"),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"muted\">not replaced</span>"),
        "{html}"
    );

    // Machines with their conditions; refused evictions are counted.
    let html = render(|| {
        State::from_example(Example::named("etcd-quorum-guard.yaml").expect("the example"))
            .apply(Action::ShowPanel(Panel::Disruption))
    });
    assert!(
        html.contains("<strong>openshift-machine-api/master-0</strong>"),
        "{html}"
    );
    assert!(
        html.contains("<span class=\"pill ok\">Drainable=True</span>"),
        "{html}"
    );
    let drain = include_str!("../../tests/scenarios/disruption-drain-budget/input.yaml");
    let html = render(move || with_text(drain).apply(Action::ShowPanel(Panel::Disruption)));
    assert!(
        html.contains("class=\"pill warning\">eviction-blocked</span>"),
        "{html}"
    );
    assert!(
        html.contains("refused 1 time first: a PodDisruptionBudget allowed no disruption"),
        "{html}"
    );
}

#[test]
fn without_a_scenario_the_panel_offers_one_and_nodes_offer_what_ifs() {
    let html = render(|| State::default().apply(Action::ShowPanel(Panel::Disruption)));
    assert!(html.contains("The input has no Scenario"), "{html}");
    assert!(
        html.contains("  steps:\n  - {at: 0s, drain: worker-1}\n</pre>"),
        "the example names the first node: {html}"
    );
    assert!(
        html.contains(">Add this Scenario to the input</button>"),
        "{html}"
    );

    let html = render(State::default);
    assert!(
        html.contains("<button type=\"button\" title=\"{at: 0s, drain: worker-1}\" aria-label=\"drain: add {at: 0s, drain: worker-1} to the Scenario\">drain</button>"),
        "{html}"
    );
    assert!(!html.contains("delete machine"), "no machines: {html}");
    let html = render(|| {
        State::from_example(Example::named("machine-deletion-hooks.yaml").expect("the example"))
    });
    assert_eq!(
        html.matches(">delete machine</button>").count(),
        1,
        "{html}"
    );
    assert!(
        html.contains("title=\"{at: 0s, deleteMachine: openshift-machine-api/worker-a-1}\""),
        "{html}"
    );
}

#[test]
fn a_large_timeline_is_shown_a_page_of_lanes_at_a_time() {
    // 30 nodes, each with 26 bare pods, all tainted NoExecute: 30 lanes of 53 events
    // (the taint, then each pod evicted and gone), under the page's inline limit.
    let mut text = String::new();
    for node in 0..30 {
        text.push_str(&format!(
            "---\nkind: Node\napiVersion: v1\nmetadata: {{name: n{node:02}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}, conditions: [{{type: Ready, status: 'True'}}]}}\n"
        ));
        for pod in 0..26 {
            text.push_str(&format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: p{node:02}-{pod:02}, namespace: default}}\nspec: {{nodeName: n{node:02}, containers: [{{name: c, image: c}}]}}\nstatus: {{phase: Running}}\n"
            ));
        }
    }
    text.push_str("---\napiVersion: kubefit.dev/v1alpha1\nkind: Scenario\nmetadata: {name: all}\nspec:\n  steps:\n");
    for node in 0..30 {
        text.push_str(&format!(
            "  - {{at: 0s, taint: 'n{node:02} k=v:NoExecute'}}\n"
        ));
    }
    let html = render(move || with_text(&text).apply(Action::ShowPanel(Panel::Disruption)));
    assert!(html.contains("lanes 1–20 of 30"), "{html}");
    assert_eq!(html.matches("<section aria-label=\"Node/").count(), 20);
    assert!(html.contains("and 3 more events on this lane"), "{html}");
    // 780 evictions, 100 to a page.
    assert!(html.contains("1–100 of 780"), "{html}");
    assert_eq!(
        html.matches("<th scope=\"row\" class=\"name\">default/p")
            .count(),
        100
    );
}
