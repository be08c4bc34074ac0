//! ImageLocality: prefer nodes that already have the pod's images, weighted by how
//! widely each image is spread over the cluster.
//!
//! Follows `pkg/scheduler/framework/plugins/imagelocality/image_locality.go`.

use alloc::collections::BTreeMap;
use alloc::string::String;

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

/// How many nodes have each image name (`ImageStateSummary.NumNodes`).
#[must_use]
pub fn image_spread(nodes: &[Node]) -> BTreeMap<String, usize> {
    let mut spread = BTreeMap::new();
    for node in nodes {
        let mut names: alloc::vec::Vec<&String> = node
            .status
            .images
            .iter()
            .flat_map(|image| image.names.iter())
            .collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            *spread.entry(name.clone()).or_insert(0) += 1;
        }
    }
    spread
}

fn image_size(node: &Node, name: &str) -> Option<i64> {
    node.status
        .images
        .iter()
        .find(|image| image.names.iter().any(|n| n == name))
        .map(|image| image.size_bytes)
}

/// The pod's images as the score reads them, worked out once per pod: each container's
/// normalised image name with the share of nodes that have it (`scaledImageScore`'s
/// factor).
#[derive(Clone, Debug, Default)]
pub struct PodImages {
    images: alloc::vec::Vec<(String, f64)>,
}

impl PodImages {
    /// The images of `pod`'s init and regular containers.
    #[must_use]
    pub fn new(pod: &Pod, spread: &BTreeMap<String, usize>, total_nodes: usize) -> Self {
        let images = pod
            .spec
            .init_containers
            .iter()
            .chain(&pod.spec.containers)
            .map(|container| {
                let name = normalized_image_name(&container.image);
                let with_image = spread.get(&name).copied().unwrap_or(0);
                #[allow(clippy::cast_precision_loss)]
                let share = with_image as f64 / total_nodes.max(1) as f64;
                (name, share)
            })
            .collect();
        Self { images }
    }

    /// The node's score, 0–100.
    #[must_use]
    pub fn score(&self, node: &Node) -> i64 {
        let mut sum = 0i64;
        for (name, share) in &self.images {
            if let Some(size) = image_size(node, name) {
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
