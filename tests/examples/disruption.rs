//! Times the disruption timeline on the benchmark cluster of the disruption issue (5 000
//! nodes, 150 000 pods, `kubefit_tests::generate`), excluding input decode:
//! `cargo run --release -p kubefit-tests --example disruption [CASE...]`.
//!
//! Cases (name them to run only those; all cases without one):
//! - `noexecute-10pct`: a NoExecute taint on every tenth node at 0s; the evictions and
//!   their timing (the taint eviction controller), replacements left unplaced;
//! - `noexecute-10pct-rescheduled`: the same, with every replacement placed;
//! - `descheduler`: the chapter's policy with all four strategies, one run, with the
//!   evicted pods' replacements placed.
//!
//! The same program runs in wasm (`wasm32-wasip1`, see `wasm/bench/disruption.mjs`), so
//! the figures for wasm also exclude decode. Each case is timed `KUBEFIT_BENCH_ROUNDS`
//! times (default 3); the best and the median of the warm rounds are printed with the first.

use std::time::Instant;

use kubefit_core::cluster::Cluster;
use kubefit_core::eviction::{run, Options};
use kubefit_core::model::{
    DeschedulerPolicy, DeschedulerStrategy, NodeResourceUtilizationThresholds, Present, Scenario,
    Step, StrategyParameters, TaintFields, TextOr,
};
use kubefit_core::schedule::ScheduleOptions;
use kubefit_core::{input, Limits, Source};
use kubefit_tests::generate::{cluster, Format};

const NODES: usize = 5_000;
const PODS: usize = 150_000;

fn main() {
    let names: Vec<String> = std::env::args().skip(1).collect();
    let wanted = |name: &str| names.is_empty() || names.iter().any(|wanted| wanted == name);
    let started = Instant::now();
    let text = cluster(NODES, PODS, Format::Yaml);
    let sources = [Source::new("bench", &text)];
    let base = Cluster::build(input::load(&sources, &Limits::default()), &sources, None);
    println!(
        "cluster: {} nodes, {} pods, built in {:.1} s (not timed below)",
        base.nodes.len(),
        base.pods.len(),
        started.elapsed().as_secs_f64()
    );
    let schedule = ScheduleOptions::default();
    let cases: [(&str, Cluster, bool); 3] = [
        ("noexecute-10pct", with_taints(&base), true),
        ("noexecute-10pct-rescheduled", with_taints(&base), false),
        ("descheduler", with_descheduler(&base), false),
    ];
    for (name, cluster, skip_rescheduling) in cases {
        if !wanted(name) {
            continue;
        }
        let options = Options {
            at: None,
            skip_rescheduling,
        };
        let mut times = Vec::new();
        let mut summary = String::new();
        let rounds: usize = std::env::var("KUBEFIT_BENCH_ROUNDS")
            .ok()
            .and_then(|rounds| rounds.parse().ok())
            .unwrap_or(3);
        for _ in 0..rounds.max(1) {
            let started = Instant::now();
            let outcome = run(&cluster, &schedule, &options);
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            let disruption = outcome
                .map(|outcome| outcome.disruption)
                .unwrap_or_default();
            let placed = disruption
                .evictions
                .iter()
                .filter(|eviction| eviction.rescheduled_to.is_some())
                .count();
            summary = format!(
                "{} events, {} evictions, {} replacements placed",
                disruption.timeline.len(),
                disruption.evictions.len(),
                placed
            );
        }
        let mut warm: Vec<f64> = times.iter().skip(1).copied().collect();
        warm.sort_by(f64::total_cmp);
        let best = warm.first().copied().unwrap_or(f64::NAN);
        let median = warm.get(warm.len() / 2).copied().unwrap_or(f64::NAN);
        println!(
            "{name}: first {:.1} ms, best {best:.1} ms, median {median:.1} ms ({summary})",
            times[0]
        );
    }
}

/// The cluster with a Scenario that taints every tenth node NoExecute at the start.
fn with_taints(base: &Cluster) -> Cluster {
    let steps = base
        .nodes
        .iter()
        .step_by(10)
        .map(|node| Step {
            at: Some("0s".into()),
            taint: Some(TextOr::Fields(TaintFields {
                node: node.metadata.name.clone(),
                key: "bench.kubefit.dev/maintenance".into(),
                value: String::new(),
                effect: "NoExecute".into(),
            })),
            ..Step::default()
        })
        .collect();
    scenario(base, steps)
}

/// The cluster with the chapter's DeschedulerPolicy, every strategy on, run at the start.
fn with_descheduler(base: &Cluster) -> Cluster {
    let mut cluster = scenario(
        base,
        vec![Step {
            at: Some("0s".into()),
            deschedule: Some(Present),
            ..Step::default()
        }],
    );
    let strategy = |params: StrategyParameters| DeschedulerStrategy {
        enabled: true,
        weight: 0,
        params,
    };
    let thresholds = |value: f64| {
        ["cpu", "memory", "pods"]
            .into_iter()
            .map(|name| (name.to_string(), value))
            .collect()
    };
    let mut policy = DeschedulerPolicy::default();
    policy.strategies.insert(
        "RemoveDuplicates".into(),
        strategy(StrategyParameters::default()),
    );
    policy.strategies.insert(
        "LowNodeUtilization".into(),
        strategy(StrategyParameters {
            node_resource_utilization_thresholds: NodeResourceUtilizationThresholds {
                thresholds: thresholds(20.0),
                target_thresholds: Some(thresholds(50.0)),
                number_of_nodes: 3,
            },
            ..StrategyParameters::default()
        }),
    );
    policy.strategies.insert(
        "RemovePodsViolatingInterPodAntiAffinity".into(),
        strategy(StrategyParameters::default()),
    );
    policy.strategies.insert(
        "RemovePodsViolatingNodeAffinity".into(),
        strategy(StrategyParameters {
            node_affinity_type: vec!["requiredDuringSchedulingIgnoredDuringExecution".into()],
            ..StrategyParameters::default()
        }),
    );
    cluster.descheduler_policy = Some(policy);
    cluster
}

fn scenario(base: &Cluster, steps: Vec<Step>) -> Cluster {
    let mut cluster = base.clone();
    let mut scenario = Scenario::default();
    scenario.metadata.name = "bench".into();
    scenario.spec.horizon = Some("1h".into());
    scenario.spec.steps = steps;
    cluster.scenario = Some((scenario, Vec::new()));
    cluster
}
