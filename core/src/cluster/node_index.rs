//! Node names to positions: the lookup behind every engine's pass from `spec.nodeName` to
//! the node.
//!
//! Each engine starts by finding the node of every bound pod, 150 000 lookups for a large
//! dump. Node names share long prefixes (`worker-a-00017`), so a search tree compares
//! a dozen of them byte by byte per lookup; this table hashes the name once (FNV-1a) and
//! compares one candidate. Hand-written because kubefit-core's only required dependency is
//! serde (no hash map in `alloc`), and a table that only ever holds a slice's names
//! needs none of a general map's machinery.
//!
//! [`Cluster::build`](super::Cluster::build) keeps its table of the nodes' slots, and
//! the timeline borrows it: hashing 5 000 names whose strings have left the cache took
//! a millisecond.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::digest;
use crate::model::Node;

/// An empty slot.
const EMPTY: u32 = u32::MAX;

/// The positions of names in a list, found by hash. The last of repeated names wins (as
/// when the list is collected into a map).
#[derive(Clone, Debug)]
pub struct NodeIndex<'a> {
    /// The names, by position.
    names: Names<'a>,
    /// Open addressing with linear probing: a position into `names` or [`EMPTY`]. Its
    /// length is a power of two, at least twice the number of names.
    slots: Cow<'a, [u32]>,
}

/// The names an index finds positions in.
#[derive(Clone, Debug)]
enum Names<'a> {
    Listed(Vec<&'a str>),
    Nodes(&'a [Node]),
}

impl<'a> Names<'a> {
    fn get(&self, position: usize) -> Option<&'a str> {
        match self {
            Self::Listed(names) => names.get(position).copied(),
            Self::Nodes(nodes) => nodes.get(position).map(|node| node.metadata.name.as_str()),
        }
    }
}

impl<'a> NodeIndex<'a> {
    /// Indexes `names` by position.
    pub fn new(names: impl IntoIterator<Item = &'a str>) -> Self {
        let names: Vec<&'a str> = names.into_iter().collect();
        let count = names.len();
        let wanted = count.saturating_mul(2).max(8);
        let capacity = wanted.checked_next_power_of_two().unwrap_or(wanted);
        let mut index = Self {
            slots: Cow::Owned(alloc::vec![EMPTY; capacity]),
            names: Names::Listed(names),
        };
        for position in 0..count {
            // Positions beyond u32 cannot be stored; no cluster comes near.
            let (Ok(stored), Some(name)) = (u32::try_from(position), index.names.get(position))
            else {
                break;
            };
            let (Ok(slot) | Err(slot)) = index.find(name);
            if let Some(entry) = index.slots.to_mut().get_mut(slot) {
                *entry = stored;
            }
        }
        index
    }

    /// The index of `nodes` by name, on the slots that [`NodeIndex::into_slots`] gave for
    /// an index of their names.
    #[must_use]
    pub fn of_nodes(nodes: &'a [Node], slots: &'a [u32]) -> Self {
        Self {
            names: Names::Nodes(nodes),
            slots: Cow::Borrowed(slots),
        }
    }

    /// The slots, to keep for [`NodeIndex::of_nodes`].
    #[must_use]
    pub fn into_slots(self) -> Vec<u32> {
        self.slots.into_owned()
    }

    /// The position of `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<usize> {
        let slot = self.find(name).ok()?;
        let position = *self.slots.get(slot)?;
        usize::try_from(position).ok()
    }

    /// The slot holding `name` (`Ok`) or the free slot where it would go (`Err`).
    fn find(&self, name: &str) -> Result<usize, usize> {
        let mask = self.slots.len().saturating_sub(1);
        let mut slot = home(digest::fnv1a(digest::EMPTY, name.as_bytes()), mask);
        // At most half the slots are full, so a free one ends every probe.
        for _ in 0..self.slots.len() {
            match self.slots.get(slot) {
                Some(&EMPTY) | None => return Err(slot),
                Some(&position) => {
                    let stored = usize::try_from(position)
                        .ok()
                        .and_then(|at| self.names.get(at));
                    if stored == Some(name) {
                        return Ok(slot);
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
        Err(slot)
    }
}

/// The slot a hash starts probing at: its low bits (a 64-bit hash does not fit wasm's
/// 32-bit `usize`, so it is masked before it is converted).
fn home(hash: u64, mask: usize) -> usize {
    let mask64 = u64::try_from(mask).unwrap_or(u64::MAX);
    usize::try_from(hash & mask64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    #[test]
    fn finds_every_name_and_nothing_else() {
        let names: Vec<String> = (0..5_000).map(|n| format!("worker-a-{n:05}")).collect();
        let index = NodeIndex::new(names.iter().map(String::as_str));
        for (position, name) in names.iter().enumerate() {
            assert_eq!(index.get(name), Some(position));
        }
        assert_eq!(index.get("worker-a-05000"), None);
        assert_eq!(index.get(""), None);
    }

    #[test]
    fn hashes_wider_than_usize_keep_their_low_bits() {
        assert_eq!(home(0xdead_beef_0000_1234, 0xffff), 0x1234);
        assert_eq!(home(u64::MAX, 7), 7);
        assert_eq!(home(5, 0), 0);
    }

    #[test]
    fn the_last_of_repeated_names_wins() {
        let index = NodeIndex::new(["a", "b", "a"]);
        assert_eq!(index.get("a"), Some(2));
        assert_eq!(index.get("b"), Some(1));
        assert_eq!(NodeIndex::new([]).get("a"), None);
    }

    #[test]
    fn kept_slots_find_the_same_nodes() {
        let nodes: Vec<Node> = ["a", "b", "c"]
            .into_iter()
            .map(|name| {
                let mut node = Node::default();
                node.metadata.name = name.into();
                node
            })
            .collect();
        let slots =
            NodeIndex::new(nodes.iter().map(|node| node.metadata.name.as_str())).into_slots();
        let index = NodeIndex::of_nodes(&nodes, &slots);
        assert_eq!(index.get("b"), Some(1));
        assert_eq!(index.get("c"), Some(2));
        assert_eq!(index.get("d"), None);
    }
}
