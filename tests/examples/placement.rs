//! Times placement on the benchmark clusters of `kubefit_tests::placement`, natively:
//! `cargo run --release -p kubefit-tests --example placement [CASE...] [openshift-3.11]`,
//! where a CASE is a prefix of a case name (all cases without one). Prints load and
//! schedule times and the outcomes. `--dump CASE` writes that case's YAML instead.

use std::time::Instant;

use kubefit_core::schedule::{run, ScheduleOptions, Version};
use kubefit_core::{cluster::Cluster, input, Limits, Source};
use kubefit_tests::placement::{cluster, Case};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let version = if args.iter().any(|arg| arg == "openshift-3.11") {
        Version::Legacy
    } else {
        Version::Current
    };
    let dump = args.iter().any(|arg| arg == "--dump");
    let prefixes: Vec<&String> = args
        .iter()
        .filter(|arg| !arg.starts_with("--") && *arg != "openshift-3.11")
        .collect();
    for case in Case::ALL {
        if !prefixes.is_empty()
            && !prefixes
                .iter()
                .any(|prefix| case.name().starts_with(prefix.as_str()))
        {
            continue;
        }
        let text = cluster(case);
        if dump {
            print!("{text}");
            return;
        }
        let sources = [Source::new("bench", &text)];
        let started = Instant::now();
        let built = Cluster::build(input::load(&sources, &Limits::default()), &sources);
        let loaded = started.elapsed();
        let started = Instant::now();
        let scheduling = run(
            &built,
            &ScheduleOptions {
                version: Some(version),
                ..ScheduleOptions::default()
            },
        );
        let placed = started.elapsed();
        let mut outcomes = std::collections::BTreeMap::new();
        for placement in &scheduling.pods {
            *outcomes
                .entry(format!("{:?}", placement.outcome))
                .or_insert(0) += 1;
        }
        println!(
            "{:<40} {:?}: load {:>7.1} ms, schedule {:>8.1} ms, {outcomes:?}",
            case.name(),
            version,
            loaded.as_secs_f64() * 1e3,
            placed.as_secs_f64() * 1e3
        );
    }
}
