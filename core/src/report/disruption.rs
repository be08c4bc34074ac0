//! The disruption section of the report: the timeline of a Scenario and every eviction.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Serialize, Serializer};

use super::words::Words;
use crate::descheduler;
use crate::duration::Duration;
use crate::machine;

/// `report.timeline`, `report.evictions` and `report.descheduler` together.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Disruption {
    /// Everything that happened, in time order (empty without a Scenario).
    pub timeline: Vec<Event>,
    /// One entry per evicted pod, in eviction order.
    pub evictions: Vec<Eviction>,
    /// One entry per descheduler run (`deschedule` step).
    pub descheduler: Vec<DeschedulerRun>,
    /// Every Machine at the end: phase and the deletion conditions.
    pub machines: Vec<MachineStatus>,
    /// How far the timeline ran, in seconds: the horizon, or the `at` option when earlier
    /// (then `nodes` and `pods` show the cluster at that point).
    #[serde(serialize_with = "seconds")]
    #[cfg_attr(feature = "tsify", tsify(type = "number"))]
    pub timeline_until: Duration,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// Seconds from the start.
    #[serde(serialize_with = "seconds")]
    #[cfg_attr(feature = "tsify", tsify(type = "number"))]
    pub at: Duration,
    /// What kind of thing happened.
    pub kind: EventKind,
    /// The object it happened to: `Node/name`, `Pod/namespace/name`, `Machine/namespace/name`.
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub object: Words,
    /// The upstream event or condition reason, such as `TaintManagerEviction`.
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub reason: Cow<'static, str>,
    /// What happened, in upstream's words where upstream has some (shared where it can
    /// be: a large drain or taint makes tens of thousands of events).
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub message: Words,
}

/// The kinds of [`Event`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// A taint was added to a node.
    TaintAdded,
    /// A taint was removed from a node.
    TaintRemoved,
    /// A node was cordoned or uncordoned.
    NodeSchedulability,
    /// A node condition changed.
    ConditionChanged,
    /// A NoExecute eviction was scheduled for later.
    EvictionScheduled,
    /// A scheduled eviction was cancelled.
    EvictionCancelled,
    /// A pod was evicted (or deleted) and starts terminating.
    PodEvicted,
    /// The eviction API refused an eviction (a PodDisruptionBudget); it is retried.
    EvictionBlocked,
    /// A terminating pod is gone.
    PodDeleted,
    /// A replacement pod was bound to a node.
    PodRescheduled,
    /// A replacement pod stays Pending.
    PodPending,
    /// A drain started, failed or finished.
    Drain,
    /// A machine's deletion moved on (phase, conditions, hooks).
    Machine,
    /// A lifecycle hook was removed.
    HookRemoved,
    /// A machine's instance and node were removed.
    MachineRemoved,
    /// The descheduler ran.
    Descheduler,
    /// The node lifecycle controller's zones changed state, or it holds a node's
    /// NoExecute taint back (rate limits, disruption modes).
    NodeLifecycle,
}

/// One evicted pod.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Eviction {
    /// `namespace/name`.
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub pod: Words,
    /// The node it ran on.
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub node: Words,
    /// Seconds from the start.
    #[serde(serialize_with = "seconds")]
    #[cfg_attr(feature = "tsify", tsify(type = "number"))]
    pub at: Duration,
    /// `taint`, `node-lifecycle`, `drain`, `machine-deletion`, `pod-gc` (the pods of a
    /// removed node), `descheduler:<Strategy>`, `preemption` or `job` (a failed Job
    /// deleting its pods) (borrowed when fixed).
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub cause: Cow<'static, str>,
    /// Where its replacement was bound (`null`: no replacement, or it stays Pending).
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub rescheduled_to: Option<String>,
    /// The replacement pod, when the pod's controller creates one.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub replacement: Option<Words>,
    /// Why it was evicted, and what became of its replacement.
    #[cfg_attr(feature = "tsify", tsify(type = "string"))]
    pub message: Words,
}

/// One descheduler run.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct DeschedulerRun {
    /// Seconds from the start.
    #[serde(serialize_with = "seconds")]
    #[cfg_attr(feature = "tsify", tsify(type = "number"))]
    pub at: Duration,
    /// What each strategy decided.
    #[serde(flatten)]
    pub outcome: descheduler::Descheduling,
}

/// A machine's phase and deletion conditions.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct MachineStatus {
    /// `namespace/name`.
    pub machine: String,
    /// The node it backs (`status.nodeRef`), if any.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub node: Option<String>,
    /// `Running` (or the phase in the input) or `Deleting`.
    pub phase: String,
    /// The instance and the node are gone.
    pub removed: bool,
    /// `Drainable`, `Drained` (once the drain ran or was skipped) and `Terminable`.
    pub conditions: Vec<machine::Condition>,
}

/// A duration as a JSON number of seconds.
fn seconds<S: Serializer>(value: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    if value.0 % crate::duration::SECOND == 0 {
        serializer.serialize_i64(value.0 / crate::duration::SECOND)
    } else {
        serializer.serialize_f64(value.seconds())
    }
}
