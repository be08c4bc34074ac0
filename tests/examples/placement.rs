//! Times placement on the benchmark clusters of `kubefit_tests::placement`, natively:
//! `cargo run --release -p kubefit-tests --example placement [CASE...] [openshift-3.11]`,
//! where a CASE is a prefix of a case name (all cases without one). Prints load and
//! schedule times (first and best of `KUBEFIT_BENCH_ROUNDS`, default 1) and the outcomes.
//! `KUBEFIT_BENCH_VERDICTS=N` sets the report's per-node verdict budget (0: decisions
//! only). `--dump CASE` writes that case's YAML instead. `wasm/bench/placement.mjs` runs
//! the same program in wasm.

use std::time::Instant;

use kubefit_core::schedule::{run, ScheduleOptions, Version};
use kubefit_core::{cluster::Cluster, input, Limits, Source};
use kubefit_tests::placement::{cluster, Case};

/// A number from the environment.
fn env(name: &str) -> Option<usize> {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
}

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
        let built = Cluster::build(
            input::load(&sources, &Limits::default()),
            &sources,
            Some(version),
        );
        let loaded = started.elapsed();
        let options = ScheduleOptions {
            max_node_verdicts: env("KUBEFIT_BENCH_VERDICTS"),
            ..ScheduleOptions::default()
        };
        let mut times = Vec::new();
        let mut scheduling = None;
        for _ in 0..env("KUBEFIT_BENCH_ROUNDS").unwrap_or(1).max(1) {
            // One report at a time: a 5 000-node report with verdicts is large in wasm32.
            drop(scheduling.take());
            let started = Instant::now();
            scheduling = Some(run(&built, &options));
            times.push(started.elapsed());
        }
        let Some(scheduling) = scheduling else {
            continue;
        };
        let first = times.first().copied().unwrap_or_default();
        let best = times.iter().skip(1).min().copied().unwrap_or(first);
        let mut outcomes = std::collections::BTreeMap::new();
        for placement in &scheduling.pods {
            *outcomes
                .entry(format!("{:?}", placement.outcome))
                .or_insert(0) += 1;
        }
        println!(
            "{:<40} {:?}: load {:>7.1} ms, schedule first {:>8.1} ms, best {:>8.1} ms, {outcomes:?}",
            case.name(),
            version,
            loaded.as_secs_f64() * 1e3,
            first.as_secs_f64() * 1e3,
            best.as_secs_f64() * 1e3
        );
    }
}
