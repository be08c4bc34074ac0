//! Inputs too large for fixture files: a 50 MB paste, and the input budget.

use kubefit_core::{evaluate, Limits, Options, Source};
use kubefit_tests::healthy;

/// About 50 MB of pods as one multi-document YAML stream.
fn fifty_megabytes() -> (String, usize) {
    let mut text = String::with_capacity(52 << 20);
    let mut pods = 0;
    while text.len() < 50 << 20 {
        text.push_str(&format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web-{pods}\n  namespace: shop\n  labels: {{app: web, tier: front}}\n\
             spec:\n  containers:\n  - name: web\n    image: registry.example.com/web:1.0\n    resources:\n      requests: {{cpu: 100m, memory: 128Mi}}\n      limits: {{cpu: 200m, memory: 256Mi}}\n"
        ));
        pods += 1;
    }
    (text, pods)
}

#[test]
fn a_fifty_megabyte_paste_loads_completely() {
    let (text, pods) = fifty_megabytes();
    let report = evaluate(&[Source::new("paste", &text)], &Options::default());
    assert!(
        report.diagnostics.is_empty(),
        "{:?}",
        report.diagnostics.first()
    );
    assert_eq!(report.pods.len(), pods);
    assert!(healthy());
}

#[test]
fn inputs_over_the_byte_budget_get_a_diagnostic_and_nothing_else() {
    let (text, _) = fifty_megabytes();
    let options = Options {
        limits: Limits {
            max_input_bytes: 32 << 20,
            ..Limits::default()
        },
        ..Options::default()
    };
    let report = evaluate(&[Source::new("paste", &text)], &options);
    assert_eq!(report.diagnostics.len(), 1);
    let diagnostic = &report.diagnostics[0];
    assert_eq!(diagnostic.code, "input/too-large");
    assert_eq!((diagnostic.line, diagnostic.column), (Some(1), Some(1)));
    assert!(report.pods.is_empty());
    assert!(healthy());
}
