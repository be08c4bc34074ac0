//! Choosing among the best-scored nodes, and the 1.34 node sampling.
//!
//! 1.11 (`pkg/scheduler/core/generic_scheduler.go`, `selectHost`): nodes sorted by total
//! score descending, then node name descending in byte order; among the `k` nodes tied at
//! the top, index `counter mod k`, where the counter starts at 0 and advances once per
//! scored pod. 1.34 (`pkg/scheduler/schedule_one.go`, `selectHost`) picks uniformly at
//! random among the tied nodes (reservoir sampling); kubefit draws that choice from a
//! seeded SplitMix64 generator over the tied nodes in input order, so a seed reproduces
//! a run and every tie is reported.

use alloc::vec::Vec;

use super::Version;

/// What [`HostSelector::select`] chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// The chosen position.
    pub position: usize,
    /// The best total.
    pub best: i64,
    /// How many positions have it.
    pub tied: usize,
}

/// How the tie-break of 1.11 finds the node names' order for the positions it compares.
#[derive(Clone, Copy)]
pub enum Ranking<'r> {
    /// A position's place in descending byte order of node names
    /// ([`super::snapshot::Snapshot::name_rank`]).
    Of(&'r dyn Fn(usize) -> usize),
    /// The positions themselves in that order (positions are nodes:
    /// [`super::snapshot::Snapshot::name_order`]).
    Ordered(&'r [usize]),
}

/// Picks the host among scored nodes, keeping upstream's tie-break state across pods.
#[derive(Clone, Debug)]
pub struct HostSelector {
    version: Version,
    /// 1.11 `lastNodeIndex`.
    counter: u64,
    /// 1.34: the random generator's state.
    state: u64,
}

impl HostSelector {
    /// A selector at the start of a run.
    #[must_use]
    pub fn new(version: Version, seed: u64) -> Self {
        Self {
            version,
            counter: 0,
            state: seed,
        }
    }

    /// Picks a position among those with the best total; `ranking` gives the order of
    /// node names that 1.11 orders ties by.
    pub fn select(&mut self, totals: &[i64], ranking: Ranking<'_>) -> Selection {
        // The best total, then how many have it: two passes simple enough to vectorise.
        let best = totals.iter().copied().max().unwrap_or(0);
        let tied = totals.iter().filter(|&&total| total == best).count();
        self.select_best(totals, best, tied, ranking)
    }

    /// [`HostSelector::select`] when the best total and how many positions have it are
    /// known.
    pub fn select_best(
        &mut self,
        totals: &[i64],
        best: i64,
        tied: usize,
        ranking: Ranking<'_>,
    ) -> Selection {
        let at_top =
            || (0..totals.len()).filter(move |&position| totals.get(position) == Some(&best));
        let k = tied as u64;
        let position = match self.version {
            Version::Legacy => {
                let pick = self.counter % k.max(1);
                self.counter = self.counter.wrapping_add(1);
                // The pick-th in descending byte order of names, without sorting them all.
                let pick = usize::try_from(pick).unwrap_or(0);
                match ranking {
                    Ranking::Of(rank) => by_rank(at_top(), rank).get(pick).copied(),
                    Ranking::Ordered(order) => order
                        .iter()
                        .copied()
                        .filter(|&position| totals.get(position) == Some(&best))
                        .nth(pick),
                }
            }
            Version::Current => {
                let pick = if k > 1 { self.next() % k } else { 0 };
                at_top().nth(usize::try_from(pick).unwrap_or(0))
            }
        };
        Selection {
            position: position.unwrap_or(0),
            best,
            tied,
        }
    }

    /// The positions tied at `best`, in the order the tie-break considers them.
    #[must_use]
    pub fn tied(&self, totals: &[i64], best: i64, rank: &dyn Fn(usize) -> usize) -> Vec<usize> {
        let tied = (0..totals.len()).filter(|&position| totals.get(position) == Some(&best));
        match self.version {
            Version::Legacy => by_rank(tied, rank),
            Version::Current => tied.collect(),
        }
    }

    /// SplitMix64.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// Positions in ascending `rank` (ranks are distinct: a permutation of the nodes), placed
/// by rank rather than sorted.
fn by_rank(positions: impl Iterator<Item = usize>, rank: &dyn Fn(usize) -> usize) -> Vec<usize> {
    let mut slots: Vec<Option<usize>> = Vec::new();
    for position in positions {
        let at = rank(position);
        if at == usize::MAX {
            continue; // not a node
        }
        if slots.len() <= at {
            slots.resize(at.saturating_add(1), None);
        }
        if let Some(slot) = slots.get_mut(at) {
            *slot = Some(position);
        }
    }
    slots.into_iter().flatten().collect()
}

/// 1.34 `minFeasibleNodesToFind`.
const MIN_FEASIBLE_NODES_TO_FIND: usize = 100;
/// 1.34 `minFeasibleNodesPercentageToFind`.
const MIN_FEASIBLE_NODES_PERCENTAGE: usize = 5;

/// How many feasible nodes the 1.34 scheduler looks for before it stops filtering
/// (`numFeasibleNodesToFind`): every node below 100 nodes; else the configured
/// percentage, or adaptively `50 - nodes/125` (at least 5 %), and never fewer than 100.
#[must_use]
pub fn feasible_nodes_to_find(percentage: Option<i32>, nodes: usize) -> usize {
    if nodes < MIN_FEASIBLE_NODES_TO_FIND {
        return nodes;
    }
    let percentage = match percentage.filter(|&p| p > 0) {
        Some(p) => usize::try_from(p).unwrap_or(100),
        None => (50usize.saturating_sub(nodes / 125)).max(MIN_FEASIBLE_NODES_PERCENTAGE),
    };
    if percentage >= 100 {
        return nodes;
    }
    (nodes.saturating_mul(percentage) / 100).max(MIN_FEASIBLE_NODES_TO_FIND)
}

/// The rotating start of the 1.34 sampled scan (`nextStartNodeIndex`).
#[derive(Clone, Debug, Default)]
pub struct Sampling {
    next_start: usize,
}

impl Sampling {
    /// The feasible nodes the sampled scheduler finds, walking the nodes in `order` (the
    /// scheduler's snapshot order, [`super::snapshot::Snapshot::tree_order`]), and how
    /// many nodes it examined, or `None` when it examines every node; advances the start
    /// for the next pod.
    pub fn sample(
        &mut self,
        percentage: Option<i32>,
        order: &[usize],
        feasible: &dyn Fn(usize) -> bool,
    ) -> Option<(Vec<usize>, usize)> {
        let nodes = order.len();
        let wanted = feasible_nodes_to_find(percentage, nodes);
        if nodes == 0 || wanted >= nodes {
            return None;
        }
        let start = self.next_start % nodes;
        let mut found = Vec::new();
        let mut examined = 0;
        for offset in 0..nodes {
            let Some(&node) = order.get((start + offset) % nodes) else {
                continue;
            };
            examined += 1;
            if feasible(node) {
                found.push(node);
                if found.len() == wanted {
                    break;
                }
            }
        }
        self.next_start = (start + examined) % nodes;
        Some((found, examined))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feasible_nodes_to_find_follows_upstream() {
        // Derived from `numFeasibleNodesToFind` with the default percentage.
        assert_eq!(feasible_nodes_to_find(None, 50), 50);
        assert_eq!(feasible_nodes_to_find(None, 100), 100);
        assert_eq!(feasible_nodes_to_find(None, 1000), 420);
        assert_eq!(feasible_nodes_to_find(None, 5000), 500);
        assert_eq!(feasible_nodes_to_find(None, 6000), 300);
        assert_eq!(feasible_nodes_to_find(Some(100), 6000), 6000);
        assert_eq!(feasible_nodes_to_find(Some(1), 6000), 100);
    }

    #[test]
    fn legacy_ties_go_round_robin_from_the_largest_name() {
        let mut selector = HostSelector::new(Version::Legacy, 0);
        // Ranks of "node-10", "node-9", "node-1" in descending byte order.
        let ranks = [1, 0, 2];
        let names = |position: usize| ranks[position];
        let totals = [5, 5, 3];
        // Descending byte order: node-9 > node-10.
        assert_eq!(selector.select(&totals, Ranking::Of(&names)).position, 1);
        assert_eq!(selector.select(&totals, Ranking::Of(&names)).position, 0);
        assert_eq!(selector.select(&totals, Ranking::Of(&names)).position, 1);
        assert_eq!(selector.tied(&totals, 5, &names), [1, 0]);
        // The same picks from the positions in name order.
        let mut selector = HostSelector::new(Version::Legacy, 0);
        let order = [1, 0, 2];
        assert_eq!(
            selector.select(&totals, Ranking::Ordered(&order)).position,
            1
        );
        assert_eq!(
            selector.select(&totals, Ranking::Ordered(&order)).position,
            0
        );
    }

    #[test]
    fn current_ties_are_reproducible_by_seed() {
        let names = |position: usize| position;
        let totals = [7, 7, 7, 7];
        let picks = |seed| {
            let mut selector = HostSelector::new(Version::Current, seed);
            (0..8)
                .map(|_| selector.select(&totals, Ranking::Of(&names)).position)
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(42), picks(42));
        assert!(picks(1).iter().all(|&pick| pick < 4));
    }
}
