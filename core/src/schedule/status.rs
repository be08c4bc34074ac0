//! A filter's verdict on one node: success, or why the pod cannot go there.
//!
//! Follows `pkg/scheduler/framework/interface.go` (`Code`, `Status`); Kubernetes 1.11
//! predicates know fit, no fit and an error, which map to `Success`, `Unschedulable`
//! (or `UnschedulableAndUnresolvable`, see `predicates::verdict`) and `Error`.

use alloc::string::String;
use alloc::vec::Vec;

/// How a filter rejects a node; preemption only tries nodes whose rejection it could
/// resolve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// The node fits.
    Success,
    /// The node does not fit, but removing pods from it might help.
    Unschedulable,
    /// The node does not fit, and removing pods would not help.
    UnschedulableAndUnresolvable,
    /// The filter failed: upstream abandons the scheduling attempt with this error
    /// instead of reporting the node (a 1.11 predicate error, a 1.34 `Error` status).
    Error,
}

/// One filter's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// Fit, or how it fails.
    pub code: Code,
    /// Upstream's reason strings, in upstream order.
    pub reasons: Vec<String>,
}

impl Status {
    /// The node fits.
    #[must_use]
    pub const fn success() -> Self {
        Self {
            code: Code::Success,
            reasons: Vec::new(),
        }
    }

    /// The node fails for reasons preemption might resolve.
    #[must_use]
    pub fn unschedulable(reason: impl Into<String>) -> Self {
        Self {
            code: Code::Unschedulable,
            reasons: alloc::vec![reason.into()],
        }
    }

    /// The node fails for reasons preemption cannot resolve.
    #[must_use]
    pub fn unresolvable(reason: impl Into<String>) -> Self {
        Self {
            code: Code::UnschedulableAndUnresolvable,
            reasons: alloc::vec![reason.into()],
        }
    }

    /// The filter failed with an error (the only reason is its message).
    #[must_use]
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            code: Code::Error,
            reasons: alloc::vec![message.into()],
        }
    }

    /// True if the node fits.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.code == Code::Success
    }
}
