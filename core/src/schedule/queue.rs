//! The order in which the scheduling queue hands out pending pods.
//!
//! 1.34 `PrioritySort` (and 1.14+ `activeQComp`): higher priority first, then the earlier
//! queue timestamp. kubefit uses `metadata.creationTimestamp` (as an instant: offsets and
//! fractions compare as times, not text) as the queue timestamp and
//! input order after that; pods without a timestamp (generated from owners) come after
//! those with one at the same priority. 1.11 orders by priority only and leaves ties to
//! its heap; kubefit applies the same deterministic tie-break there.

use alloc::vec::Vec;

use crate::cluster::{Cluster, PodState};
use crate::timestamp::{self, Instant};

/// Indexes into [`Cluster::pods`] of the pods the scheduler sees (pending pods, and
/// rejected ones so the report can say why), in queue order.
#[must_use]
pub fn order(cluster: &Cluster) -> Vec<usize> {
    // Each pod's sort key, read once: comparing entries would read every pod's metadata
    // again at each of a sort's comparisons (thousands of pending pods, anywhere in memory).
    let mut queue: Vec<(i32, Option<Instant>, usize)> = cluster
        .pods
        .iter()
        .enumerate()
        .filter(|(_, entry)| matches!(entry.state, PodState::Pending | PodState::Rejected))
        .map(|(index, entry)| {
            let created = entry.pod.metadata.creation_timestamp.as_deref();
            (entry.priority, created.and_then(timestamp::parse), index)
        })
        .collect();
    // Higher priority first, then the earlier instant (a pod without one last), then the
    // input's order.
    queue.sort_by(|(a_priority, a_time, a), (b_priority, b_time, b)| {
        let created = |time: &Option<Instant>| (time.is_none(), *time);
        b_priority
            .cmp(a_priority)
            .then_with(|| created(a_time).cmp(&created(b_time)))
            .then(a.cmp(b))
    });
    queue.into_iter().map(|(_, _, index)| index).collect()
}

#[cfg(test)]
mod tests {
    use crate::schedule::testing::{node, schedule};
    use crate::schedule::Version;

    /// `creationTimestamp`s compare as instants: 10:00+02:00 is before 09:00Z.
    #[test]
    fn creation_times_compare_as_instants() {
        let pod = |name: &str, created: &str| {
            alloc::format!(
                "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default, creationTimestamp: '{created}'}}\nspec: {{containers: [{{name: c, image: x}}]}}\n"
            )
        };
        let yaml = node("n1", 4000, 8 << 30, "")
            + &pod("utc", "2024-01-01T09:00:00Z")
            + &pod("offset", "2024-01-01T10:00:00+02:00")
            + &pod("later", "2024-01-01T09:00:00.5Z");
        let order: alloc::vec::Vec<_> = schedule(&yaml, Version::Current)
            .pods
            .into_iter()
            .map(|placement| placement.pod)
            .collect();
        assert_eq!(order, ["default/offset", "default/utc", "default/later"]);
    }
}
