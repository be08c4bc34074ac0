//! The static page in `www/`: it loads what `./dev serve` builds, and its Content Security
//! Policy admits its one inline script and nothing from elsewhere.

use base64::Engine as _;
use sha2::{Digest, Sha256};

const INDEX: &str = include_str!("../../www/index.html");
const STYLE: &str = include_str!("../../www/style.css");

fn inline_script() -> &'static str {
    let open = "<script type=\"module\">";
    let start = INDEX.find(open).expect("an inline module script") + open.len();
    let end = start + INDEX[start..].find("</script>").expect("a closed script");
    &INDEX[start..end]
}

#[test]
fn the_inline_script_initialises_the_module_wasm_bindgen_writes() {
    // `./dev serve` runs `wasm-bindgen --target web --out-name kubefit_web` into the
    // served folder, next to index.html.
    assert_eq!(
        inline_script(),
        "import init from \"./kubefit_web.js\"; init();"
    );
    assert_eq!(INDEX.matches("<script").count(), 1);
}

#[test]
fn the_policy_pins_the_inline_script_by_hash() {
    let hash = base64::engine::general_purpose::STANDARD
        .encode(Sha256::digest(inline_script().as_bytes()));
    let policy = INDEX
        .lines()
        .find(|line| line.contains("Content-Security-Policy"))
        .expect("a Content-Security-Policy meta tag");
    assert!(
        policy.contains(&format!("'sha256-{hash}'")),
        "the policy must allow 'sha256-{hash}': {policy}"
    );
    assert!(policy.contains("default-src 'self'"), "{policy}");
    assert!(!policy.contains("unsafe-inline"), "{policy}");
}

#[test]
fn the_stylesheet_is_linked_and_local() {
    assert!(INDEX.contains("<link rel=\"stylesheet\" href=\"style.css\">"));
    assert!(
        !STYLE.contains("@import") && !STYLE.contains("url("),
        "no requests from the stylesheet"
    );
}
