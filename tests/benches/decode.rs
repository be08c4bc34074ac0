//! Decode and evaluate throughput (MiB/s) at 500 nodes / 15 000 pods, the S tier of
//! performance.md §2, on kubectl-shaped JSON and YAML (`kubefit_tests::generate`).
//!
//! `cargo bench -p kubefit-tests --bench decode`. Each format has two figures:
//! - `load`: text to validated objects (`kubefit_core::input::load`), the W13 workload;
//! - `evaluate`: everything `kubefit_core::evaluate` does (load, cluster, scheduling, report).
//!
//! The 5 000 / 150 000 measurement is `--bench decode_large`.

// criterion is a native dev-dependency: for wasm32 (`./dev`'s clippy of `--all-targets`)
// this benchmark is an empty program.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
criterion::criterion_main!(native::benches);

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::time::Duration;

    use criterion::{criterion_group, BenchmarkId, Criterion, SamplingMode, Throughput};
    use kubefit_core::{evaluate, input, Limits, Options, Source};
    use kubefit_tests::generate::{cluster, Format};

    const NODES: usize = 500;
    const PODS: usize = 15_000;

    pub fn decode(c: &mut Criterion) {
        let mut group = c.benchmark_group(format!("decode-{NODES}x{PODS}"));
        // One run takes 0.1–2 s: flat sampling, ten samples, one iteration each.
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(10));
        for (name, format) in [("json", Format::Json), ("yaml", Format::Yaml)] {
            let text = cluster(NODES, PODS, format);
            let sources = [Source::new("cluster", &text)];
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_function(BenchmarkId::new("load", name), |b| {
                b.iter(|| input::load(&sources, &Limits::default()));
            });
            group.bench_function(BenchmarkId::new("evaluate", name), |b| {
                b.iter(|| evaluate(&sources, &Options::default()));
            });
        }
        group.finish();
    }

    criterion_group!(benches, decode);
}
