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
/// placed): each name's number and spread, and per node the sizes by name number, so a
/// node's score looks its images up instead of comparing names.
#[derive(Clone, Debug, Default)]
pub struct ImageTable {
    /// Each image name's number.
    names: BTreeMap<String, u32>,
    /// Per name number, how many nodes have it (`ImageStateSummary.NumNodes`).
    spread: Vec<usize>,
    /// Every node's `(name number, size)` pairs, node after node, each node's sorted by
    /// number. A name two images of a node list keeps the first image's size
    /// (`addNodeImageStates` keeps a node's first entry per name). One list, not one per
    /// node: scoring walks the nodes in order, and their lists then follow each other in
    /// memory.
    sizes: Vec<(u32, i64)>,
    /// Per node, where its pairs start in `sizes`; then where the last node's end.
    starts: Vec<usize>,
}

impl ImageTable {
    /// Indexes the images of `nodes`.
    #[must_use]
    pub fn new(nodes: &[Node]) -> Self {
        let mut table = Self {
            names: BTreeMap::new(),
            spread: Vec::new(),
            sizes: Vec::new(),
            starts: Vec::with_capacity(nodes.len().saturating_add(1)),
        };
        let mut sizes: Vec<(u32, i64)> = Vec::new();
        for node in nodes {
            sizes.clear();
            for image in &node.status.images {
                for name in &image.names {
                    let next = u32::try_from(table.spread.len()).unwrap_or(u32::MAX);
                    let number = match table.names.get(name.as_str()) {
                        Some(&number) => number,
                        None => {
                            table.names.insert(name.clone(), next);
                            table.spread.push(0);
                            next
                        }
                    };
                    sizes.push((number, image.size_bytes));
                }
            }
            // Stable: among repeats of a name the first image stays first.
            sizes.sort_by_key(|&(number, _)| number);
            sizes.dedup_by_key(|&mut (number, _)| number);
            for &(number, _) in &sizes {
                if let Some(spread) = usize::try_from(number)
                    .ok()
                    .and_then(|number| table.spread.get_mut(number))
                {
                    *spread += 1;
                }
            }
            table.starts.push(table.sizes.len());
            table.sizes.extend_from_slice(&sizes);
        }
        table.starts.push(table.sizes.len());
        table
    }

    fn size(&self, node: usize, number: u32) -> Option<i64> {
        let (&start, &end) = (
            self.starts.get(node)?,
            self.starts.get(node.checked_add(1)?)?,
        );
        let sizes = self.sizes.get(start..end)?;
        let at = sizes
            .binary_search_by_key(&number, |&(known, _)| known)
            .ok()?;
        sizes.get(at).map(|&(_, size)| size)
    }
}

/// The pod's images as the score reads them, worked out once per pod: each container's
/// normalised image name (its number in the table, if any node has it) with the share of
/// nodes that have it (`scaledImageScore`'s factor).
#[derive(Clone, Debug, Default)]
pub struct PodImages {
    table: Rc<ImageTable>,
    images: Vec<(Option<u32>, f64)>,
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
                let with_image = number
                    .and_then(|number| usize::try_from(number).ok())
                    .and_then(|number| table.spread.get(number))
                    .copied()
                    .unwrap_or(0);
                #[allow(clippy::cast_precision_loss)]
                let share = with_image as f64 / total_nodes.max(1) as f64;
                (number, share)
            })
            .collect();
        Self { table, images }
    }

    /// The node's score, 0–100.
    #[must_use]
    pub fn score(&self, node: usize) -> i64 {
        let mut sum = 0i64;
        for &(number, share) in &self.images {
            if let Some(size) = number.and_then(|number| self.table.size(node, number)) {
                #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
                let scaled = (size as f64 * share) as i64;
                sum = sum.saturating_add(scaled);
            }
        }
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
    /// name, and the first of them gives the size.
    #[test]
    fn the_first_image_listing_a_name_gives_its_size() {
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
        // Half the nodes have the image: 1000 MiB scaled by 1/2 on node 0, 250 on node 1.
        let scores: Vec<i64> = (0..nodes.len()).map(|node| images.score(node)).collect();
        let expected = |sum: i64| 100 * (sum - 23 * MIB) / (1000 * MIB - 23 * MIB);
        assert_eq!(scores, [expected(500 * MIB), expected(250 * MIB), 0, 0]);
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
