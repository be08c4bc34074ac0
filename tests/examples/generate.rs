//! Writes a generated cluster dump (see `kubefit_tests::generate`) to stdout:
//! `cargo run --release -p kubefit-tests --example generate -- NODES PODS yaml|json > FILE`.

use std::io::Write as _;

use kubefit_tests::generate::{cluster, Format};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |at: usize, default: usize| {
        args.get(at)
            .map_or(Ok(default), |text| text.replace('_', "").parse())
    };
    let (Ok(nodes), Ok(pods)) = (number(0, 5_000), number(1, 150_000)) else {
        eprintln!("usage: generate NODES PODS yaml|json");
        std::process::exit(2);
    };
    let format = match args.get(2).map(String::as_str) {
        None | Some("yaml") => Format::Yaml,
        Some("json") => Format::Json,
        Some(other) => {
            eprintln!("unknown format `{other}`: yaml or json");
            std::process::exit(2);
        }
    };
    let text = cluster(nodes, pods, format);
    if let Err(error) = std::io::stdout().lock().write_all(text.as_bytes()) {
        eprintln!("cannot write: {error}");
        std::process::exit(1);
    }
}
