//! Prints the report of a scenario, or of files: `cargo run -p kubefit-tests --example report -- NAME|FILE...`.

use kubefit_core::{evaluate, Options, Source};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut inputs = Vec::new();
    for arg in &args {
        match kubefit_tests::SCENARIOS
            .iter()
            .find(|scenario| scenario.name == arg)
        {
            Some(scenario) => inputs.push((scenario.file.to_string(), scenario.input.to_vec())),
            None => inputs.push((arg.clone(), std::fs::read(arg).unwrap_or_default())),
        }
    }
    let sources: Vec<Source<'_>> = inputs
        .iter()
        .map(|(name, bytes)| Source::new(name, bytes))
        .collect();
    let report = evaluate(&sources, &Options::default());
    println!(
        "{}",
        serde_json::to_string_pretty(&report).unwrap_or_default()
    );
    eprintln!("{}", report.to_text());
}
