//! The static files in `www/`: the page loads what `./dev serve` builds, its Content
//! Security Policy admits its one inline script and nothing from elsewhere, and the worker
//! script runs the module's job function.

use base64::Engine as _;
use sha2::{Digest, Sha256};

const INDEX: &str = include_str!("../../www/index.html");
const STYLE: &str = include_str!("../../www/style.css");
const WORKER: &str = include_str!("../../www/worker.js");
const BROWSER: &str = include_str!("../src/browser.rs");

fn inline_script() -> &'static str {
    let open = "<script type=\"module\">";
    let start = INDEX.find(open).expect("an inline module script") + open.len();
    let end = start + INDEX[start..].find("</script>").expect("a closed script");
    &INDEX[start..end]
}

fn policy() -> &'static str {
    INDEX
        .lines()
        .find(|line| line.contains("http-equiv=\"Content-Security-Policy\""))
        .expect("a Content-Security-Policy meta tag")
}

#[test]
fn the_inline_script_only_initialises_the_module() {
    // `./dev serve` runs `wasm-bindgen --target web --out-name kubefit_web` into the
    // served folder, next to index.html.
    assert_eq!(
        inline_script(),
        "import init from \"./kubefit_web.js\"; init();"
    );
    assert_eq!(INDEX.matches("<script").count(), 1);
}

#[test]
fn the_policy_pins_the_inline_script_by_hash_and_admits_nothing_else() {
    let hash = base64::engine::general_purpose::STANDARD
        .encode(Sha256::digest(inline_script().as_bytes()));
    let policy = policy();
    assert!(
        policy.contains(&format!("'sha256-{hash}'")),
        "the policy must allow 'sha256-{hash}': {policy}"
    );
    for directive in [
        "default-src 'none'",
        "worker-src 'self'",
        "style-src 'self';",
        "object-src 'none'",
        "base-uri 'none'",
    ] {
        assert!(policy.contains(directive), "{directive}: {policy}");
    }
    assert!(!policy.contains("unsafe-inline"), "{policy}");
    assert!(
        !policy.contains("http:") && !policy.contains("https:"),
        "{policy}"
    );
}

#[test]
fn connections_are_closed_once_the_module_has_loaded() {
    // The static policy lets the loader fetch the .wasm, from this origin only ...
    assert!(policy().contains("connect-src 'self'"), "{}", policy());
    // ... and the module adds a policy that forbids every connection.
    assert!(BROWSER.contains("\"connect-src 'none'\""));
}

#[test]
fn the_worker_takes_the_pages_module_and_runs_jobs() {
    assert!(WORKER.contains("import init, { evaluate_job } from \"./kubefit_web.js\""));
    assert!(WORKER.contains("init({ module_or_path: data })"));
    assert!(!WORKER.contains("fetch("));
    assert!(BROWSER.contains("const WORKER_SCRIPT: &str = \"./worker.js\""));
}

#[test]
fn the_stylesheet_is_linked_and_local() {
    assert!(INDEX.contains("<link rel=\"stylesheet\" href=\"style.css\">"));
    assert!(
        !STYLE.contains("@import") && !STYLE.contains("url("),
        "no requests from the stylesheet"
    );
}
