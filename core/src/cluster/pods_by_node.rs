//! The pods of each node (bound ones, or finished ones), in input order, as one list cut
//! into per-node runs.

use alloc::vec::Vec;

/// For each node (a position in [`super::Cluster::nodes`]), the positions in
/// [`super::Cluster::pods`] of the pods bound to it, in input order. One array with a start
/// per node, not a list per node: the disruption timeline reads the pods of the nodes its
/// steps touch, and building 5 000 lists of 150 000 pods at every run was a large part of
/// a NoExecute taint's cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PodsByNode {
    /// Where each node's run begins in `pods`, and one more entry: the end of the last.
    starts: Vec<usize>,
    pods: Vec<usize>,
}

impl PodsByNode {
    /// Sorts the pods by node (by counting; a pod keeps its place among its node's);
    /// `bound` gives each pod's node, `nodes` how many there are. A node position out of
    /// range is left out.
    #[must_use]
    pub fn new(bound: &[Option<usize>], nodes: usize) -> Self {
        let on = |node: &Option<usize>| node.filter(|&node| node < nodes);
        // Each node's count, then where each node ends; filled from the last pod back, each
        // node's end steps down to its start.
        let mut starts = alloc::vec![0_usize; nodes + 1];
        for node in bound.iter().filter_map(on) {
            if let Some(count) = starts.get_mut(node) {
                *count += 1;
            }
        }
        let mut total = 0;
        for start in &mut starts {
            total += *start;
            *start = total;
        }
        let mut pods = alloc::vec![0_usize; total];
        for (pod, node) in bound.iter().enumerate().rev() {
            let Some(cursor) = on(node).and_then(|node| starts.get_mut(node)) else {
                continue;
            };
            *cursor = cursor.saturating_sub(1);
            if let Some(slot) = pods.get_mut(*cursor) {
                *slot = pod;
            }
        }
        Self { starts, pods }
    }

    /// How many nodes it was made for.
    #[must_use]
    pub fn nodes(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The pods bound to `node`, in input order (none for a node out of range).
    #[must_use]
    pub fn on(&self, node: usize) -> &[usize] {
        match (
            self.starts.get(node),
            self.starts.get(node.saturating_add(1)),
        ) {
            (Some(&start), Some(&end)) => self.pods.get(start..end).unwrap_or(&[]),
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_node_lists_its_pods_in_input_order() {
        let bound = [Some(2), None, Some(0), Some(2), Some(7), Some(0)];
        let by_node = PodsByNode::new(&bound, 3);
        assert_eq!(by_node.nodes(), 3);
        assert_eq!(by_node.on(0), [2, 5]);
        assert!(by_node.on(1).is_empty());
        assert_eq!(by_node.on(2), [0, 3]);
        // A node out of range: left out, and asked for, empty.
        assert!(by_node.on(7).is_empty());
        assert!(by_node.on(usize::MAX).is_empty());
    }

    #[test]
    fn no_nodes_no_pods() {
        let by_node = PodsByNode::new(&[None, Some(0)], 0);
        assert_eq!(by_node.nodes(), 0);
        assert!(by_node.on(0).is_empty());
        assert_eq!(PodsByNode::default().nodes(), 0);
    }
}
