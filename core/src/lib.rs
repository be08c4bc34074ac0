#![doc = include_str!("../README.md")]
#![no_std]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable
    )
)]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod admission;
pub mod cluster;
pub mod defaults;
pub mod descheduler;
pub mod diagnostic;
mod digest;
pub mod duration;
pub mod eviction;
mod go_sort;
pub mod input;
pub mod labels;
pub mod machine;
pub mod math;
pub mod model;
pub mod owners;
pub mod quantity;
pub mod report;
pub mod resources;
pub mod schedule;
pub mod taints;
mod timestamp;
pub mod validation;

pub use diagnostic::{Diagnostic, Severity};
pub use input::{Limits, Source};
pub use report::Report;

/// The kubefit version, as reported in every [`Report`].
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Options for [`evaluate`].
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Budgets that bound the work done on untrusted input.
    pub limits: Limits,
    /// Force a release instead of the one the input selects ([`schedule::version`]).
    pub profile: Option<schedule::Version>,
    /// Preemption, tie-break seed and how many verdicts to keep.
    pub schedule: schedule::ScheduleOptions,
    /// Where to stop the Scenario's timeline.
    pub timeline: eviction::Options,
}

/// Reads every source, builds the validated cluster model and reports on it.
///
/// Never panics: problems with the input come back as diagnostics in the report, and
/// objects with errors are left out while everything else is still evaluated.
#[must_use]
pub fn evaluate(sources: &[Source<'_>], options: &Options) -> Report {
    let loaded = input::load(sources, &options.limits);
    let cluster = cluster::Cluster::build(loaded, sources, options.profile);
    report_on(&cluster, sources, options)
}

/// Runs the engines on a built cluster and reports; `sources` locate the diagnostics the
/// timeline raises.
#[must_use]
pub fn report_on(cluster: &cluster::Cluster, sources: &[Source<'_>], options: &Options) -> Report {
    let scheduling = schedule::run(cluster, &options.schedule);
    let mut timeline = eviction::run(cluster, &options.schedule, &options.timeline);
    if let Some(outcome) = &mut timeline {
        input::locate::resolve(&mut outcome.diagnostics, sources);
    }
    report::Report::from_cluster(cluster, scheduling, timeline, options.timeline.at.is_some())
}
