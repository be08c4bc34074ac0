//! ImageLocality: prefer nodes that already have the pod's images, weighted by how
//! widely each image is spread over the cluster.
//!
//! Follows `pkg/scheduler/framework/plugins/imagelocality/image_locality.go`.

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{Node, Pod};

/// The plugin name.
pub const NAME: &str = "ImageLocality";

const MIB: i64 = 1024 * 1024;
/// Below this sum an image does not count (`minThreshold`).
const MIN_THRESHOLD: i64 = 23 * MIB;
/// The cap per container (`maxContainerThreshold`).
const MAX_CONTAINER_THRESHOLD: i64 = 1000 * MIB;

/// `name:latest` when the image names no tag (`normalizedImageName`).
#[must_use]
pub fn normalized_image_name(name: &str) -> String {
    let colon = name.rfind(':');
    let slash = name.rfind('/');
    let tagged = match (colon, slash) {
        (Some(colon), Some(slash)) => colon > slash,
        (Some(_), None) => true,
        (None, _) => false,
    };
    if tagged {
        name.into()
    } else {
        alloc::format!("{name}:latest")
    }
}

/// Every node's images, indexed once per snapshot (images do not change while pods are
/// placed): each name's number, size and spread, and per node the numbers of its names,
/// so a node's score looks its images up instead of comparing names.
///
/// The scheduler cache keeps one entry per image name (`addNodeImageStates` in
/// `pkg/scheduler/backend/cache/cache.go`): the first node the cache learns of that lists
/// the name (kubefit: the first in input order; on it, the first image listing the name)
/// sets its size, later nodes only join its nodes. So a name has one size on every node.
#[derive(Clone, Debug, Default)]
pub struct ImageTable {
    /// Each image name's number.
    names: BTreeMap<String, u32>,
    /// Per name number, its size and how many nodes have it (`ImageStateSummary`).
    states: Vec<(i64, usize)>,
    /// Every node's name numbers, node after node, each node's sorted. One list, not one
    /// per node: scoring walks the nodes in order, and their lists then follow each other
    /// in memory.
    numbers: Vec<u32>,
    /// Per node, where its numbers start in `numbers`; then where the last node's end.
    starts: Vec<usize>,
}

impl ImageTable {
    /// Indexes the images of `nodes`.
    #[must_use]
    pub fn new(nodes: &[Node]) -> Self {
        let mut table = Self {
            names: BTreeMap::new(),
            states: Vec::new(),
            numbers: Vec::new(),
            starts: Vec::with_capacity(nodes.len().saturating_add(1)),
        };
        let mut numbers: Vec<u32> = Vec::new();
        for node in nodes {
            numbers.clear();
            for image in &node.status.images {
                for name in &image.names {
                    let next = u32::try_from(table.states.len()).unwrap_or(u32::MAX);
                    let number = match table.names.get(name.as_str()) {
                        Some(&number) => number,
                        None => {
                            table.names.insert(name.clone(), next);
                            table.states.push((image.size_bytes, 0));
                            next
                        }
                    };
                    numbers.push(number);
                }
            }
            numbers.sort_unstable();
            numbers.dedup();
            for &number in &numbers {
                if let Some((_, spread)) = usize::try_from(number)
                    .ok()
                    .and_then(|number| table.states.get_mut(number))
                {
                    *spread += 1;
                }
            }
            table.starts.push(table.numbers.len());
            table.numbers.extend_from_slice(&numbers);
        }
        table.starts.push(table.numbers.len());
        table
    }

    fn has(&self, node: usize, number: u32) -> bool {
        let (Some(&start), Some(&end)) = (
            self.starts.get(node),
            node.checked_add(1).and_then(|next| self.starts.get(next)),
        ) else {
            return false;
        };
        self.numbers
            .get(start..end)
            .is_some_and(|numbers| numbers.binary_search(&number).is_ok())
    }
}

/// The pod's images as the score reads them, worked out once per pod: each container's
/// normalised image name (its number in the table, if any node has it) with what it adds
/// on a node that has it, the image's size scaled by the share of nodes that have it
/// (`scaledImageScore`): the same on every node.
#[derive(Clone, Debug, Default)]
pub struct PodImages {
    table: Rc<ImageTable>,
    images: Vec<(Option<u32>, i64)>,
}

impl PodImages {
    /// The images of `pod`'s init and regular containers.
    #[must_use]
    pub fn new(pod: &Pod, table: Rc<ImageTable>, total_nodes: usize) -> Self {
        let images = pod
            .spec
            .init_containers
            .iter()
            .chain(&pod.spec.containers)
            .map(|container| {
                let name = normalized_image_name(&container.image);
                let number = table.names.get(name.as_str()).copied();
                let (size, with_image) = number
                    .and_then(|number| usize::try_from(number).ok())
                    .and_then(|number| table.states.get(number))
                    .copied()
                    .unwrap_or((0, 0));
                #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
                let scaled = (size as f64 * (with_image as f64 / total_nodes.max(1) as f64)) as i64;
                (number, scaled)
            })
            .collect();
        Self { table, images }
    }

    /// The node's score, 0–100.
    #[must_use]
    pub fn score(&self, node: usize) -> i64 {
        let sum = self
            .images
            .iter()
            .filter(|&&(number, _)| number.is_some_and(|number| self.table.has(node, number)))
            .fold(0i64, |sum, &(_, scaled)| sum.saturating_add(scaled));
        let containers = i64::try_from(self.images.len()).unwrap_or(i64::MAX);
        let max_threshold = MAX_CONTAINER_THRESHOLD.saturating_mul(containers);
        let clamped = sum.max(MIN_THRESHOLD).min(max_threshold.max(MIN_THRESHOLD));
        let span = max_threshold - MIN_THRESHOLD;
        if span <= 0 {
            return 0;
        }
        100 * (clamped - MIN_THRESHOLD) / span
    }
}

#[cfg(test)]
mod tests {
    use super::{ImageTable, PodImages, MIB};
    use crate::model::{ContainerImage, Node};
    use crate::schedule::priorities::image_locality::tests::pod;
    use alloc::rc::Rc;
    use alloc::string::String;
    use alloc::vec::Vec;

    fn node(images: &[(&[&str], i64)]) -> Node {
        let mut node = Node::default();
        node.status.images = images
            .iter()
            .map(|(names, size)| ContainerImage {
                names: names.iter().map(|name| String::from(*name)).collect(),
                size_bytes: *size,
            })
            .collect();
        node
    }

    /// A node counts once towards an image's spread however many of its images list the
    /// name, and the first node listing it, with its first image, gives its size on
    /// every node (one cache entry per name).
    #[test]
    fn the_first_node_listing_a_name_gives_its_size() {
        let nodes = [
            node(&[
                (&["big:1", "big@sha256:aa"], 1000 * MIB),
                (&["big:1"], 30 * MIB),
            ]),
            node(&[(&["big:1"], 500 * MIB)]),
            node(&[]),
            node(&[]),
        ];
        let table = Rc::new(ImageTable::new(&nodes));
        let images = PodImages::new(&pod(&["big:1"]), table, nodes.len());
        // Half the nodes have the image: 1000 MiB scaled by 1/2 on both.
        let scores: Vec<i64> = (0..nodes.len()).map(|node| images.score(node)).collect();
        let expected = 100 * (500 * MIB - 23 * MIB) / (1000 * MIB - 23 * MIB);
        assert_eq!(scores, [expected, expected, 0, 0]);
    }

    /// An image without a tag is looked up as `:latest`.
    #[test]
    fn untagged_images_are_looked_up_as_latest() {
        let nodes = [node(&[(&["registry:5000/app:latest"], 2000 * MIB)])];
        let table = Rc::new(ImageTable::new(&nodes));
        let images = PodImages::new(&pod(&["registry:5000/app"]), table, 1);
        assert_eq!(images.score(0), 100);
    }
}
