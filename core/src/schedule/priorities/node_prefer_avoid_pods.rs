//! NodePreferAvoidPodsPriority: avoid nodes whose
//! `scheduler.alpha.kubernetes.io/preferAvoidPods` annotation names the pod's controller.
//!
//! Follows 1.11 `node_prefer_avoid_pods.go`: pods without a ReplicationController or
//! ReplicaSet controller score 10 everywhere; otherwise a node whose annotation lists
//! that controller (same kind and uid) scores 0, every other node 10.
//!
//! The annotation is decoded as `v1helper.GetAvoidPodsFromNodeAnnotations` decodes it, with
//! Go's `encoding/json` into a `v1.AvoidPods`: field names match whatever their case,
//! unknown fields are ignored, a repeated field decodes over what the earlier one left, and
//! any error (text that is not one JSON value, a value of the wrong type, an
//! `evictionTime` that is not RFC 3339) leaves the node at 10. For example
//! `{"preferAvoidPods":[{"podSignature":{"podController":{"Kind":"ReplicaSet","UID":"u"}}}]}`
//! sends pods of that ReplicaSet away.
//!
//! Difference: upstream reads the `podController` of every entry before the matching one
//! without checking it is set, so an entry without one crashes the 1.11 scheduler;
//! kubefit passes over such an entry.

use alloc::string::String;
use alloc::vec::Vec;

use crate::input::{json_events, JsonEvent, Style};
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
    let Some(entries) = node
        .metadata
        .annotations
        .get(ANNOTATION)
        .and_then(|text| avoid_pods(text))
    else {
        return MAX_PRIORITY;
    };
    let avoided = entries.iter().any(|entry| {
        entry
            .controller
            .as_ref()
            .is_some_and(|avoided| avoided.kind == controller.kind && avoided.uid == controller.uid)
    });
    if avoided {
        0
    } else {
        MAX_PRIORITY
    }
}

/// What kubefit keeps of a `podController` (a `metav1.OwnerReference`).
#[derive(Debug, Default)]
struct Controller {
    kind: String,
    uid: String,
}

/// What kubefit keeps of a `preferAvoidPods` entry: its `podSignature.podController`.
#[derive(Debug, Default)]
struct Entry {
    controller: Option<Controller>,
}

/// The entries of the annotation, or `None` where `json.Unmarshal` fails.
fn avoid_pods(text: &str) -> Option<Vec<Entry>> {
    let events = json_events(text)?;
    let mut decoder = Decoder {
        events: &events,
        at: 0,
    };
    let mut entries = Vec::new();
    if decoder.object()? {
        decoder.fields(|decoder, key| {
            if field(key, "preferAvoidPods") {
                decoder.entries(&mut entries)
            } else {
                decoder.skip()
            }
        })?;
    }
    Some(entries)
}

/// Whether an object key names a struct field, by Go's case folding (`encoding/json`
/// `foldFunc`: ASCII letters in either case, and the Kelvin sign and long s for `k` and `s`).
fn field(key: &str, name: &str) -> bool {
    let folded = key.chars().map(|c| match c {
        '\u{212a}' => 'k',
        '\u{17f}' => 's',
        c => c.to_ascii_lowercase(),
    });
    folded.eq(name.chars().map(|c| c.to_ascii_lowercase()))
}

/// Walks the events of the annotation with the types of `v1.AvoidPods`; every method
/// answers `None` where Go reports an error.
struct Decoder<'a, 's> {
    events: &'a [JsonEvent<'s>],
    at: usize,
}

impl<'a, 's> Decoder<'a, 's> {
    fn next(&mut self) -> Option<&'a JsonEvent<'s>> {
        let event = self.events.get(self.at)?;
        self.at = self.at.checked_add(1)?;
        Some(event)
    }

    /// Passes over one value of a field the struct does not have.
    fn skip(&mut self) -> Option<()> {
        let mut depth: usize = 0;
        loop {
            match self.next()? {
                JsonEvent::Open { .. } => depth = depth.checked_add(1)?,
                JsonEvent::Close => depth = depth.checked_sub(1)?,
                JsonEvent::Scalar(..) => {}
            }
            if depth == 0 {
                return Some(());
            }
        }
    }

    /// Reads the start of a struct value: true for an object (its fields follow), false
    /// for `null` (which leaves the struct as it was).
    fn object(&mut self) -> Option<bool> {
        match self.next()? {
            JsonEvent::Open { is_map: true } => Some(true),
            JsonEvent::Scalar(text, Style::Plain) if text == "null" => Some(false),
            _ => None,
        }
    }

    /// Hands each key of an object whose `{` was read to `field`, which reads its value.
    fn fields(&mut self, mut field: impl FnMut(&mut Self, &'a str) -> Option<()>) -> Option<()> {
        loop {
            match self.next()? {
                JsonEvent::Close => return Some(()),
                JsonEvent::Scalar(key, _) => field(self, key.as_ref())?,
                JsonEvent::Open { .. } => return None,
            }
        }
    }

    /// A string field: its text, or `None` inside for `null` (which leaves it as it was).
    fn string(&mut self) -> Option<Option<&'a str>> {
        match self.next()? {
            JsonEvent::Scalar(text, Style::Quoted) => Some(Some(text.as_ref())),
            JsonEvent::Scalar(text, Style::Plain) if text == "null" => Some(None),
            _ => None,
        }
    }

    /// A `*bool` field.
    fn boolean(&mut self) -> Option<()> {
        match self.next()? {
            JsonEvent::Scalar(text, Style::Plain)
                if matches!(text.as_ref(), "true" | "false" | "null") =>
            {
                Some(())
            }
            _ => None,
        }
    }

    /// A `metav1.Time`: `null`, or a string `time.Parse(time.RFC3339, …)` reads.
    fn time(&mut self) -> Option<()> {
        match self.next()? {
            JsonEvent::Scalar(text, Style::Plain) if text == "null" => Some(()),
            JsonEvent::Scalar(text, Style::Quoted) => crate::timestamp::parse(text).map(drop),
            _ => None,
        }
    }

    /// The `preferAvoidPods` slice. Go decodes an array into the elements the slice
    /// already holds, so a repeated key updates the earlier entries rather than replacing
    /// them; `null` empties it.
    fn entries(&mut self, entries: &mut Vec<Entry>) -> Option<()> {
        match self.next()? {
            JsonEvent::Scalar(text, Style::Plain) if text == "null" => {
                entries.clear();
                Some(())
            }
            JsonEvent::Open { is_map: false } => {
                let mut count = 0;
                while self.events.get(self.at) != Some(&JsonEvent::Close) {
                    if count == entries.len() {
                        entries.push(Entry::default());
                    }
                    self.entry(entries.get_mut(count)?)?;
                    count += 1;
                }
                self.next()?;
                entries.truncate(count);
                Some(())
            }
            _ => None,
        }
    }

    /// One `PreferAvoidPodsEntry`.
    fn entry(&mut self, entry: &mut Entry) -> Option<()> {
        if !self.object()? {
            return Some(());
        }
        self.fields(|decoder, key| {
            if field(key, "podSignature") {
                decoder.signature(entry)
            } else if field(key, "evictionTime") {
                decoder.time()
            } else if field(key, "reason") || field(key, "message") {
                decoder.string().map(drop)
            } else {
                decoder.skip()
            }
        })
    }

    /// A `PodSignature`, whose one field is the `*metav1.OwnerReference` `podController`.
    fn signature(&mut self, entry: &mut Entry) -> Option<()> {
        if !self.object()? {
            return Some(());
        }
        self.fields(|decoder, key| {
            if field(key, "podController") {
                decoder.controller(&mut entry.controller)
            } else {
                decoder.skip()
            }
        })
    }

    /// The `podController` pointer: `null` clears it, an object decodes into the
    /// reference already there or a new one.
    fn controller(&mut self, slot: &mut Option<Controller>) -> Option<()> {
        if !self.object()? {
            *slot = None;
            return Some(());
        }
        let controller = slot.get_or_insert_with(Controller::default);
        self.fields(|decoder, key| {
            if field(key, "kind") {
                if let Some(kind) = decoder.string()? {
                    controller.kind = kind.into();
                }
            } else if field(key, "uid") {
                if let Some(uid) = decoder.string()? {
                    controller.uid = uid.into();
                }
            } else if field(key, "apiVersion") || field(key, "name") {
                decoder.string()?;
            } else if field(key, "controller") || field(key, "blockOwnerDeletion") {
                decoder.boolean()?;
            } else {
                decoder.skip()?;
            }
            Some(())
        })
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

    /// The score of a ReplicaSet pod (uid `u`) on a node with this annotation.
    fn score_with(annotation: &str) -> i64 {
        let mut node = Node::default();
        node.metadata
            .annotations
            .insert(ANNOTATION.into(), annotation.into());
        let mut pod = Pod::default();
        pod.metadata.owner_references = alloc::vec![OwnerReference {
            kind: "ReplicaSet".into(),
            uid: "u".into(),
            controller: Some(true),
            ..OwnerReference::default()
        }];
        score(&pod, &node)
    }

    #[test]
    fn the_annotation_decodes_as_go_decodes_it() {
        let entry = |controller: &str, rest: &str| {
            alloc::format!(
                r#"{{"preferAvoidPods":[{{"podSignature":{{"podController":{controller}}}{rest}}}]}}"#
            )
        };
        // Field names fold case, the Kelvin sign included; unknown fields are ignored.
        assert_eq!(
            score_with(&entry(r#"{"Kind":"ReplicaSet","UID":"u"}"#, "")),
            0
        );
        assert_eq!(
            score_with(&entry(
                r#"{"\u212aind":"ReplicaSet","uid":"u","x":[{}]}"#,
                ""
            )),
            0
        );
        assert_eq!(
            score_with(
                r#"{"other":{"a":[1,null]},"PREFERAVOIDPODS":[{"podSignature":{"podController":{"kind":"ReplicaSet","uid":"u"}}}]}"#
            ),
            0
        );
        let valid = r#"{"kind":"ReplicaSet","uid":"u","controller":true,"name":null}"#;
        assert_eq!(
            score_with(&entry(valid, r#","evictionTime":null,"reason":"r""#)),
            0
        );
        assert_eq!(
            score_with(&entry(
                valid,
                r#","evictionTime":"2024-01-02T03:04:05.5+01:00""#
            )),
            0
        );
        // Any error leaves the node at 10, wherever it is.
        for bad in [
            entry(valid, r#","evictionTime":"yesterday""#),
            entry(valid, r#","evictionTime":5"#),
            entry(valid, r#","reason":1"#),
            entry(r#"{"kind":"ReplicaSet","uid":"u","name":7}"#, ""),
            entry(r#"{"kind":"ReplicaSet","uid":"u","controller":"true"}"#, ""),
            entry(valid, "") + " {}",
            entry(valid, "").replace("]}", "]"),
            alloc::format!(r#"[{}]"#, entry(valid, "")),
        ] {
            assert_eq!(score_with(&bad), 10, "{bad}");
        }
        // A repeated field decodes over the earlier value: the slice keeps its elements,
        // the pointer its fields; `null` clears the pointer.
        assert_eq!(
            score_with(
                r#"{"preferAvoidPods":[{"podSignature":{"podController":{"kind":"ReplicaSet","uid":"u"}}}],"preferAvoidPods":[{"reason":"r"}]}"#
            ),
            0
        );
        assert_eq!(
            score_with(
                r#"{"preferAvoidPods":[{"podSignature":{"podController":{"kind":"ReplicaSet"},"podController":{"uid":"u"}}}]}"#
            ),
            0
        );
        assert_eq!(
            score_with(
                r#"{"preferAvoidPods":[{"podSignature":{"podController":{"kind":"ReplicaSet","uid":"u"},"podController":null}}]}"#
            ),
            10
        );
        assert_eq!(
            score_with(
                r#"{"preferAvoidPods":[{"podSignature":{"podController":{"kind":"ReplicaSet","uid":"u"}}}],"preferAvoidPods":[]}"#
            ),
            10
        );
    }
}
