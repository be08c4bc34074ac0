//! The components rendered to HTML strings (Yew's server-side renderer), natively.

use std::rc::Rc;

use kubefit_core::Diagnostic;
use kubefit_web::app::{App, AppProps, Diagnostics, DiagnosticsProps};
use kubefit_web::EXAMPLE;
use yew::ServerRenderer;

fn app(input: Option<&str>) -> String {
    let props = AppProps {
        input: input.map(Into::into),
    };
    futures::executor::block_on(
        ServerRenderer::<App>::with_props(move || props)
            .hydratable(false)
            .render(),
    )
}

#[test]
fn the_page_shows_the_version_the_example_and_its_report() {
    let html = app(None);
    assert!(
        html.contains(&format!("v{}", kubefit_core::VERSION)),
        "{html}"
    );
    assert!(html.contains("<textarea id=\"cluster\""), "{html}");
    assert!(html.contains("worker-1"), "{html}");
    assert!(
        html.contains("Diagnostics: 0 error(s), 0 warning(s)"),
        "{html}"
    );
    assert!(html.contains("<pre class=\"report\">"), "{html}");
    assert!(!html.contains("<ul>"), "no diagnostics, no list: {html}");
    assert!(EXAMPLE.contains("worker-1"));
}

#[test]
fn diagnostics_are_listed_with_their_place() {
    let html = app(Some("kind: Node\nmetadata: {name: n1}\n---\nkind: [\n"));
    assert!(
        html.contains("Diagnostics: 1 error(s), 0 warning(s)"),
        "{html}"
    );
    assert!(html.contains("<li class=\"diagnostic error\">"), "{html}");
    assert!(html.contains("<span class=\"place\">4:"), "{html}");
}

#[test]
fn user_text_is_rendered_as_text_never_as_markup() {
    let attack = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    // In the text area, in the report and in diagnostics.
    let input = format!(
        "kind: Node\nmetadata: {{name: n1, labels: {{a: '{attack}'}}}}\n---\nkind: '{attack}'\n"
    );
    let html = app(Some(&input));
    assert!(!html.contains("<script>"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(html.contains("&lt;script&gt;"), "{html}");

    let mut diagnostic = Diagnostic::error("test/code", attack)
        .with_help(attack)
        .with_object(attack);
    diagnostic.line = Some(1);
    // Props are built on the renderer's thread: only the (Send) diagnostic crosses over.
    let html = futures::executor::block_on(
        ServerRenderer::<Diagnostics>::with_props(move || DiagnosticsProps {
            diagnostics: Rc::new(vec![diagnostic]),
        })
        .hydratable(false)
        .render(),
    );
    assert!(
        !html.contains("<script>") && !html.contains("<img"),
        "{html}"
    );
    assert_eq!(html.matches("&lt;script&gt;").count(), 3, "{html}");
}
