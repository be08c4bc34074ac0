//! NodePreferAvoidPodsPriority: avoid nodes whose
//! `scheduler.alpha.kubernetes.io/preferAvoidPods` annotation names the pod's controller.
//!
//! Follows 1.11 `node_prefer_avoid_pods.go`: pods without a ReplicationController or
//! ReplicaSet controller score 10 everywhere; otherwise a node whose annotation lists
//! that controller (same kind and uid) scores 0, every other node 10.
//!
//! kubefit has no JSON parser in the engine, so the annotation is read structurally: each
//! `"podController":{…}` object (it holds no nested object) is matched on its `kind` and
//! `uid` fields after removing whitespace. Upstream scores 10 when the annotation is not
//! valid JSON; kubefit may still find the controller in such text.

use alloc::string::String;

use crate::model::{Node, Pod};
use crate::schedule::legacy::MAX_PRIORITY;

/// The node annotation.
pub const ANNOTATION: &str = "scheduler.alpha.kubernetes.io/preferAvoidPods";

/// The node's score.
#[must_use]
pub fn score(pod: &Pod, node: &Node) -> i64 {
    let Some(controller) = pod.metadata.controller() else {
        return MAX_PRIORITY;
    };
    if !matches!(
        controller.kind.as_str(),
        "ReplicationController" | "ReplicaSet"
    ) {
        return MAX_PRIORITY;
    }
    let Some(annotation) = node.metadata.annotations.get(ANNOTATION) else {
        return MAX_PRIORITY;
    };
    let compact: String = annotation.chars().filter(|c| !c.is_whitespace()).collect();
    let kind = alloc::format!("\"kind\":\"{}\"", controller.kind);
    let uid = alloc::format!("\"uid\":\"{}\"", controller.uid);
    let avoided = compact
        .split("\"podController\":{")
        .skip(1)
        .filter_map(|rest| rest.split('}').next())
        .any(|object| object.contains(&kind) && object.contains(&uid));
    if avoided {
        0
    } else {
        MAX_PRIORITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::OwnerReference;

    #[test]
    fn the_named_controller_is_avoided() {
        let mut node = Node::default();
        node.metadata.annotations.insert(
            ANNOTATION.into(),
            r#"{"preferAvoidPods": [{"podSignature": {"podController": {"apiVersion": "v1", "kind": "ReplicationController", "name": "foo", "uid": "abcdef123456", "controller": true}}, "reason": "some reason", "message": "some message"}]}"#.into(),
        );
        let mut pod = Pod::default();
        assert_eq!(score(&pod, &node), 10);
        pod.metadata.owner_references = alloc::vec![OwnerReference {
            kind: "ReplicationController".into(),
            uid: "abcdef123456".into(),
            controller: Some(true),
            ..OwnerReference::default()
        }];
        assert_eq!(score(&pod, &node), 0);
        pod.metadata.owner_references[0].uid = "other".into();
        assert_eq!(score(&pod, &node), 10);
        pod.metadata.owner_references[0].kind = "StatefulSet".into();
        assert_eq!(score(&pod, &Node::default()), 10);
    }
}
