//! The order in which the scheduling queue hands out pending pods.
//!
//! 1.34 `PrioritySort` (and 1.14+ `activeQComp`): higher priority first, then the earlier
//! queue timestamp. kubefit uses `metadata.creationTimestamp` as the queue timestamp and
//! input order after that; pods without a timestamp (generated from owners) come after
//! those with one at the same priority. 1.11 orders by priority only and leaves ties to
//! its heap; kubefit applies the same deterministic tie-break there.

use alloc::vec::Vec;

use crate::cluster::{Cluster, PodState};

/// Indexes into [`Cluster::pods`] of the pods the scheduler sees (pending pods, and
/// rejected ones so the report can say why), in queue order.
#[must_use]
pub fn order(cluster: &Cluster) -> Vec<usize> {
    // Each pod's sort key, read once: comparing entries would read every pod's metadata
    // again at each of a sort's comparisons (thousands of pending pods, anywhere in memory).
    let mut queue: Vec<(i32, Option<&str>, usize)> = cluster
        .pods
        .iter()
        .enumerate()
        .filter(|(_, entry)| matches!(entry.state, PodState::Pending | PodState::Rejected))
        .map(|(index, entry)| {
            let timestamp = entry.pod.metadata.creation_timestamp.as_deref();
            (entry.priority, timestamp, index)
        })
        .collect();
    queue.sort_by(|(a_priority, a_time, a), (b_priority, b_time, b)| {
        b_priority
            .cmp(a_priority)
            .then_with(|| match (a_time, b_time) {
                (Some(a_time), Some(b_time)) => a_time.cmp(b_time),
                (Some(_), None) => core::cmp::Ordering::Less,
                (None, Some(_)) => core::cmp::Ordering::Greater,
                (None, None) => core::cmp::Ordering::Equal,
            })
            .then(a.cmp(b))
    });
    queue.into_iter().map(|(_, _, index)| index).collect()
}
