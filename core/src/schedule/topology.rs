//! Counts and weights per topology pair `(label key, value)`, kept exactly as a recount
//! over the placed pods would make them while pods come and go.
//!
//! Inter-pod affinity (1.11 `MatchInterPodAffinity` and `CalculateInterPodAffinityPriority`,
//! 1.34 InterPodAffinity's PreFilter and PreScore) adds a matching pod, or a term's
//! weight, to every node in the domain of the node the pod is on; counting per pair
//! instead of per node makes a pod's cost independent of the domain's size, and a node's
//! figure is the sum over its own pairs. Every count here is one map type, so the
//! playground carries one copy of its code.

use alloc::collections::BTreeMap;

use crate::model::Node;

/// Counts per topology pair; a pair is absent rather than 0.
pub type PairCounts<'a> = BTreeMap<(&'a str, &'a str), i64>;

/// Adds `delta` at the node's value of `key`, if the node has the key (removing the pair
/// when it falls to 0); the key as the node spells it when it does.
pub fn count<'a>(
    counts: &mut PairCounts<'a>,
    node: &'a Node,
    key: &str,
    delta: i64,
) -> Option<&'a str> {
    let (key, value) = node.metadata.labels.get_key_value(key)?;
    let pair = (key.as_str(), value.as_str());
    let slot = counts.entry(pair).or_insert(0);
    *slot = slot.saturating_add(delta);
    if *slot == 0 {
        counts.remove(&pair);
    }
    Some(key)
}

/// The sum of the counts at the node's pairs.
#[must_use]
pub fn sum_at(counts: &PairCounts<'_>, node: &Node) -> i64 {
    if counts.is_empty() {
        return 0;
    }
    node.metadata
        .labels
        .iter()
        .filter_map(|(key, value)| counts.get(&(key.as_str(), value.as_str())))
        .fold(0i64, |sum, &count| sum.saturating_add(count))
}

/// Weights summed per pair, with how many term matches made each sum (a pair exists
/// while one does, as upstream's map has it after a recount).
#[derive(Clone, Debug, Default)]
pub struct TopologySums<'a> {
    sums: PairCounts<'a>,
    matches: PairCounts<'a>,
}

impl<'a> TopologySums<'a> {
    /// True if no term matched.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.matches.is_empty()
    }

    /// Adds (`joined`) or takes back `weight` at `node`'s value of `key`, if the node has
    /// the key; the key as the node spells it when it does.
    pub fn add(&mut self, node: &'a Node, key: &str, weight: i64, joined: bool) -> Option<&'a str> {
        let sign = if joined { 1 } else { -1 };
        let key = count(&mut self.matches, node, key, sign)?;
        count(&mut self.sums, node, key, weight.saturating_mul(sign));
        Some(key)
    }

    /// The sums of the node's pairs.
    #[must_use]
    pub fn of(&self, node: &Node) -> i64 {
        sum_at(&self.sums, node)
    }
}
