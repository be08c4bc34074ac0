//! EqualPriority: every node scores 1.
//!
//! Follows 1.11 `EqualPriorityMap` in `core/generic_scheduler.go` (also what every node
//! gets when no priority is configured, which the driver applies).

/// The score of every node.
pub const SCORE: i64 = 1;
