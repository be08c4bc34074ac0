//! Preemption: when nothing fits, which lower-priority pods to evict and where.
//!
//! Follows `pkg/scheduler/core/generic_scheduler.go` (1.11, `preempt`) and
//! `pkg/scheduler/framework/preemption/preemption.go` with
//! `plugins/defaultpreemption/default_preemption.go` (1.34).

use super::snapshot::Snapshot;
use super::status::Code;
use super::Profile;
use crate::report::scheduling::Placement;

/// Runs preemption for a pod that fits nowhere and records the result in `placement`.
pub fn preempt(
    _profile: &dyn Profile,
    _snapshot: &mut Snapshot<'_>,
    _pod: usize,
    _codes: &[Code],
    _placement: &mut Placement,
) {
}
