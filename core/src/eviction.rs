//! The disruption timeline: taints, NoExecute evictions, drains, machine deletions and
//! descheduler runs, applied to the cluster step by step.

pub mod scenario;
