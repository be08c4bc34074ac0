//! One measurement at 5 000 nodes / 150 000 pods (the M tier, W13 in performance.md §6.1):
//! decode and evaluate throughput, and peak memory, for kubectl-shaped JSON and YAML.
//!
//! `cargo bench -p kubefit-tests --bench decode_large`; `KUBEFIT_BENCH_NODES` and
//! `KUBEFIT_BENCH_PODS` change the size. Without `--bench` (as under `cargo test
//! --benches`) it runs once at 50 / 1 500 as a smoke test.
//!
//! Criterion would run each step dozens of times (minutes per figure on 400–900 MB), so
//! this prints one timing per step, each step in a fresh process. Memory is the peak RSS
//! (`VmHWM` in `/proc/self/status`), reset before the step through
//! `/proc/self/clear_refs`, minus the RSS before the step (which holds the input text):
//! what the step needs beyond the input. The total is that plus 1x the input.

use std::time::{Duration, Instant};

use kubefit_core::{evaluate, input, Limits, Options, Source};
use kubefit_tests::generate::{cluster, Format};

const MIB: f64 = 1024.0 * 1024.0;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|arg| arg == "--step") {
        let (Some(format), Some(step)) = (args.get(at + 1), args.get(at + 2)) else {
            panic!("--step FORMAT STEP");
        };
        step_in_this_process(format, step);
        return;
    }
    let bench = args.iter().any(|arg| arg == "--bench");
    let size = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|value| value.parse().ok())
            .unwrap_or(default)
    };
    let (nodes, pods) = if bench {
        (
            size("KUBEFIT_BENCH_NODES", 5_000),
            size("KUBEFIT_BENCH_PODS", 150_000),
        )
    } else {
        (50, 1_500)
    };
    println!("decode_large: {nodes} nodes, {pods} pods (each step in a fresh process)");
    // A fresh process per step: freed memory stays in the allocator, so a step run after
    // another would reuse it and look smaller than it is.
    for format in ["json", "yaml"] {
        for step in ["load", "evaluate"] {
            let status = std::process::Command::new(
                std::env::current_exe().expect("the benchmark's own path"),
            )
            .args(["--step", format, step])
            .env("KUBEFIT_BENCH_NODES", nodes.to_string())
            .env("KUBEFIT_BENCH_PODS", pods.to_string())
            .status()
            .expect("the benchmark can run itself");
            assert!(status.success(), "{format} {step} failed: {status}");
        }
    }
}

fn step_in_this_process(format: &str, step: &str) {
    let size = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|value| value.parse().ok())
            .unwrap_or(0)
    };
    let (nodes, pods) = (size("KUBEFIT_BENCH_NODES"), size("KUBEFIT_BENCH_PODS"));
    let started = Instant::now();
    let text = cluster(
        nodes,
        pods,
        if format == "json" {
            Format::Json
        } else {
            Format::Yaml
        },
    );
    let generated = started.elapsed();
    let bytes = text.len();
    if step == "load" {
        println!(
            "\n{format}: {:.1} MiB ({bytes} bytes), generated in {}",
            bytes as f64 / MIB,
            seconds(generated)
        );
    }
    // kubectl's JSON for 150 000 pods is larger than the default budget (512 MiB).
    let mut limits = Limits::default();
    if bytes > limits.max_input_bytes {
        if step == "load" {
            println!(
                "  note: larger than the default max_input_bytes ({} MiB): measured with the limit raised",
                limits.max_input_bytes >> 20
            );
        }
        limits.max_input_bytes = usize::MAX;
    }
    let sources = [Source::new("cluster", &text)];
    if step == "load" {
        let (loaded, took, peak) = measure(|| input::load(&sources, &limits));
        assert!(
            loaded.diagnostics.is_empty(),
            "{:?}",
            loaded.diagnostics.first()
        );
        assert_eq!(loaded.objects.len(), nodes + pods);
        line("load (text -> validated objects)", bytes, pods, took, peak);
    } else {
        let (report, took, peak) = measure(|| {
            evaluate(
                &sources,
                &Options {
                    limits,
                    ..Options::default()
                },
            )
        });
        assert!(
            report.diagnostics.is_empty(),
            "{:?}",
            report.diagnostics.first()
        );
        assert_eq!((report.nodes.len(), report.pods.len()), (nodes, pods));
        line(
            "evaluate (load + cluster + scheduling + report)",
            bytes,
            pods,
            took,
            peak,
        );
        let (json, took, _) = measure(|| serde_json::to_string(&report).unwrap_or_default());
        println!(
            "  report as JSON (what the npm package returns): {:.1} MiB in {}",
            json.len() as f64 / MIB,
            seconds(took)
        );
    }
}

/// Runs `step` once: its result, its time, and the peak RSS it added (when Linux tells).
fn measure<T>(step: impl FnOnce() -> T) -> (T, Duration, Option<u64>) {
    let reset = std::fs::write("/proc/self/clear_refs", "5").is_ok();
    let before = status_kib("VmRSS");
    let started = Instant::now();
    let result = std::hint::black_box(step());
    let took = started.elapsed();
    let peak = match (reset, before, status_kib("VmHWM")) {
        (true, Some(before), Some(peak)) => Some(peak.saturating_sub(before) * 1024),
        _ => None,
    };
    (result, took, peak)
}

fn line(step: &str, bytes: usize, pods: usize, took: Duration, peak: Option<u64>) {
    let secs = took.as_secs_f64();
    let memory = peak.map_or_else(
        || "peak RSS unavailable".into(),
        |peak| {
            format!(
                "peak +{:.0} MiB = {:.2}x input beyond the input ({:.2}x with it)",
                peak as f64 / MIB,
                peak as f64 / bytes as f64,
                1.0 + peak as f64 / bytes as f64
            )
        },
    );
    println!(
        "  {step}: {} = {:.1} MiB/s, {:.0} pods/s; {memory}",
        seconds(took),
        bytes as f64 / MIB / secs,
        pods as f64 / secs
    );
}

fn seconds(took: Duration) -> String {
    format!("{:.3} s", took.as_secs_f64())
}

/// A `kB` field of `/proc/self/status`.
fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status
        .lines()
        .find(|line| line.starts_with(field) && line[field.len()..].starts_with(':'))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
