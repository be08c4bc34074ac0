//! Weights summed per topology pair `(label key, value)`, kept exactly as a recount
//! over the placed pods would make them while pods come and go.
//!
//! Inter-pod affinity scores (1.11 `CalculateInterPodAffinityPriority`, 1.34
//! InterPodAffinity's PreScore) add a term's weight to every node in the domain of the
//! node a matching pod is on; summing per pair instead of per node makes a pod's cost
//! independent of the domain's size, and a node's score is the sum over its own pairs.

use alloc::collections::BTreeMap;

use crate::model::Node;

/// The sums, with how many term matches made each (a pair exists while one does, as
/// upstream's map has it after a recount).
#[derive(Clone, Debug, Default)]
pub struct TopologySums<'a> {
    sums: BTreeMap<&'a str, BTreeMap<&'a str, (i64, usize)>>,
}

impl<'a> TopologySums<'a> {
    /// True if no term matched.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.sums.is_empty()
    }

    /// Adds (`joined`) or takes back `weight` at `node`'s value of `key`, if the node has
    /// the key; the key as the node spells it when it does.
    pub fn add(&mut self, node: &'a Node, key: &str, weight: i64, joined: bool) -> Option<&'a str> {
        let (key, value) = node.metadata.labels.get_key_value(key)?;
        let values = self.sums.entry(key.as_str()).or_default();
        let slot = values.entry(value.as_str()).or_insert((0, 0));
        if joined {
            slot.0 = slot.0.saturating_add(weight);
            slot.1 = slot.1.saturating_add(1);
        } else {
            slot.0 = slot.0.saturating_sub(weight);
            slot.1 = slot.1.saturating_sub(1);
        }
        if slot.1 == 0 {
            values.remove(value.as_str());
            if values.is_empty() {
                self.sums.remove(key.as_str());
            }
        }
        Some(key)
    }

    /// The sums of the node's pairs.
    #[must_use]
    pub fn of(&self, node: &Node) -> i64 {
        self.sums
            .iter()
            .filter_map(|(key, values)| {
                let value = node.metadata.labels.get(*key)?;
                values.get(value.as_str()).map(|(sum, _)| *sum)
            })
            .fold(0i64, i64::saturating_add)
    }
}
