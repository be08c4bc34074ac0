//! ImageLocalityPriority: prefer nodes that already have the pod's container images.
//!
//! Follows 1.11 `image_locality.go`: the sizes of the node images matching the regular
//! containers' images (`:latest` added to untagged names) are summed; below 23 MiB scores
//! 0, from 1000 MiB 10, in between `10 * (sum - 23Mi) / (1000Mi - 23Mi) + 1`. 1.11 has no
//! spread scaling and ignores init containers (both changed in later releases). Sizes are
//! each node's own: 1.11's `NodeInfo.updateImageSizes` (`pkg/scheduler/cache/node_info.go`)
//! maps every name of the node's images to the size of the last image listing it; the
//! cache-wide image states whose first size every node shares came in 1.12.

use crate::model::{Node, Pod};
use crate::schedule::legacy::MAX_PRIORITY;
use crate::schedule::plugins::image_locality::normalized_image_name;

const MIB: i64 = 1024 * 1024;
/// `minImgSize`.
const MIN_IMAGE_SIZE: i64 = 23 * MIB;
/// `maxImgSize`.
const MAX_IMAGE_SIZE: i64 = 1000 * MIB;

/// The node's score.
#[must_use]
pub fn score(pod: &Pod, node: &Node) -> i64 {
    let sum = pod
        .spec
        .containers
        .iter()
        .filter_map(|container| {
            let name = normalized_image_name(&container.image);
            node.status
                .images
                .iter()
                .rev()
                .find(|image| image.names.contains(&name))
                .map(|image| image.size_bytes)
        })
        .fold(0i64, i64::saturating_add);
    if sum < MIN_IMAGE_SIZE {
        0
    } else if sum >= MAX_IMAGE_SIZE {
        MAX_PRIORITY
    } else {
        MAX_PRIORITY * (sum - MIN_IMAGE_SIZE) / (MAX_IMAGE_SIZE - MIN_IMAGE_SIZE) + 1
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::{Container, ContainerImage};

    fn node(images: &[(&str, i64)]) -> Node {
        let mut node = Node::default();
        node.status.images = images
            .iter()
            .map(|(name, mib)| ContainerImage {
                names: alloc::vec![(*name).into()],
                size_bytes: mib * MIB,
            })
            .collect();
        node
    }

    /// A pod with one container per image (the framework plugin's tests use it too).
    pub(crate) fn pod(images: &[&str]) -> Pod {
        let mut pod = Pod::default();
        pod.spec.containers = images
            .iter()
            .map(|image| Container {
                image: (*image).into(),
                ..Container::default()
            })
            .collect();
        pod
    }

    // 1.11 `TestImageLocalityPriority`.
    #[test]
    fn upstream_table() {
        let node1 = node(&[
            ("gcr.io/40:latest", 40),
            ("gcr.io/140:latest", 140),
            ("gcr.io/2000:latest", 2000),
        ]);
        let node2 = node(&[("gcr.io/250:latest", 250), ("gcr.io/10:latest", 10)]);
        let both = |images: &[&str]| (score(&pod(images), &node1), score(&pod(images), &node2));
        assert_eq!(both(&["gcr.io/40", "gcr.io/250"]), (1, 3));
        assert_eq!(both(&["gcr.io/40", "gcr.io/140"]), (2, 0));
        assert_eq!(both(&["gcr.io/2000", "gcr.io/10"]), (10, 0));
    }

    /// A name two images of the node list takes the later one's size (a map filled in
    /// order), and another node's size for it does not matter.
    #[test]
    fn the_last_image_listing_a_name_gives_its_size() {
        let first = node(&[("app:1", 500), ("app:1", 100)]);
        let second = node(&[("app:1", 900)]);
        let pod = pod(&["app:1"]);
        assert_eq!((score(&pod, &first), score(&pod, &second)), (1, 9));
    }
}
