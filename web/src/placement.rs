//! The placement panel's decisions: the order of the matrix rows, and which part of the
//! input a failing verdict is about.
//!
//! The matrix shows at most [`MATRIX_ROWS`] nodes, so that a 5 000-node cluster renders
//! within a frame; a filter on the node name reaches the others.

use crate::tables;
use crate::view::{Placement, Verdict};

/// At most this many nodes are rendered in the matrix.
pub const MATRIX_ROWS: usize = 200;

/// The object a reason is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The node that fails.
    Node,
    /// The pending pod.
    Pod,
}

/// Where the input causes a failing verdict: the object, and the keys to look for in it,
/// the most specific first (none: the object itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cause {
    /// The node or the pod.
    pub side: Side,
    /// Field names to look for in the object's text.
    pub keys: &'static [&'static str],
}

/// Words of upstream reasons and their causes, the first match wins. The wording is the
/// same for a 1.11 predicate and the 1.34 plugin that replaced it, so `GeneralPredicates`
/// needs no special case. (A table rather than a chain of `if`s: data is cheaper to
/// download than code.)
const CAUSES: &[(&str, Side, &[&str])] = &[
    ("taint", Side::Node, &["taints"]),
    ("unschedulable", Side::Node, &["unschedulable"]),
    ("Insufficient", Side::Node, &["allocatable", "capacity"]),
    ("Too many pods", Side::Node, &["allocatable", "capacity"]),
    (
        "node selector",
        Side::Pod,
        &["nodeSelector", "nodeAffinity", "affinity"],
    ),
    (
        "node affinity",
        Side::Pod,
        &["nodeSelector", "nodeAffinity", "affinity"],
    ),
    // Another pod's anti-affinity matches this pod's labels.
    ("existing pods anti-affinity", Side::Pod, &["labels"]),
    (
        "pod anti-affinity",
        Side::Pod,
        &["podAntiAffinity", "affinity"],
    ),
    (
        "pod affinity",
        Side::Pod,
        &["podAffinity", "podAntiAffinity", "affinity"],
    ),
    ("topology spread", Side::Pod, &["topologySpreadConstraints"]),
    ("free ports", Side::Pod, &["hostPort", "ports"]),
    ("hostname", Side::Pod, &["nodeName"]),
    ("node name", Side::Pod, &["nodeName"]),
    ("requested labels", Side::Node, &["labels"]),
    ("service affinity", Side::Node, &["labels"]),
    ("pressure", Side::Node, &["conditions"]),
    ("not ready", Side::Node, &["conditions"]),
    ("conditions", Side::Node, &["conditions"]),
    ("network", Side::Node, &["conditions"]),
    ("out of disk", Side::Node, &["conditions"]),
    ("volume", Side::Pod, &["volumes"]),
    ("disk", Side::Pod, &["volumes"]),
    ("PersistentVolumeClaim", Side::Pod, &["volumes"]),
    // A PreFilter narrowed the nodes: the pod's own constraints did it.
    ("satisfy plugin", Side::Pod, &[]),
];

/// The cause of an upstream reason, from its wording: the node itself when unknown.
#[must_use]
pub fn cause(reason: &str) -> Cause {
    CAUSES
        .iter()
        .find(|(words, _, _)| reason.contains(words))
        .map_or(
            Cause {
                side: Side::Node,
                keys: &[],
            },
            |&(_, side, keys)| Cause { side, keys },
        )
}

/// The placement of `pod`, or of the first pending pod when `pod` is not pending.
#[must_use]
pub fn selected<'a>(placements: &'a [Placement], pod: Option<&str>) -> Option<&'a Placement> {
    placements
        .iter()
        .find(|placement| Some(placement.pod.as_str()) == pod)
        .or_else(|| placements.first())
}

/// The matrix rows the name filter admits, in display order: the chosen (or nominated)
/// node first, then feasible nodes by total score (highest first), then the others; the
/// name breaks ties. Not capped: the caller renders the first [`MATRIX_ROWS`].
#[must_use]
pub fn rows(placement: &Placement, filter: &str) -> Vec<usize> {
    let needle = filter.trim().to_ascii_lowercase();
    let chosen = placement.nominated.as_deref().or(placement.node.as_deref());
    let verdicts = &placement.verdicts;
    let key = |index: usize| {
        let verdict: &Verdict = &verdicts[index];
        (
            Some(verdict.node.as_str()) != chosen,
            !verdict.failures.is_empty(),
            std::cmp::Reverse(verdict.total),
            &verdict.node,
        )
    };
    let mut rows = tables::order(verdicts.len(), false, &|a, b| key(a).cmp(&key(b)));
    if !needle.is_empty() {
        rows.retain(|&index| verdicts[index].node.to_ascii_lowercase().contains(&needle));
    }
    rows
}

/// The byte range of the first of `keys` written as a mapping key (`key:`, `"key":`) in
/// `text[start..end]`: the field of an object a cause points at.
#[must_use]
pub fn find_key(text: &str, start: usize, end: usize, keys: &[&str]) -> Option<(usize, usize)> {
    let end = end.min(text.len());
    let scope = text.get(start..end)?;
    keys.iter().find_map(|key| {
        scope.match_indices(key).find_map(|(at, _)| {
            // Keys are ASCII: a letter, digit, `_` or `-` before it makes it part of another.
            let before = scope.as_bytes()[..at].last();
            let after = scope[at + key.len()..].trim_start_matches(['"', '\'', ' ', '\t']);
            let is_key = before
                .is_none_or(|&c| !c.is_ascii_alphanumeric() && c != b'_' && c != b'-')
                && after.starts_with(':');
            is_key.then_some((start + at, start + at + key.len()))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(node: &str, feasible: bool, total: Option<i64>) -> Verdict {
        Verdict {
            node: node.into(),
            failures: if feasible {
                Vec::new()
            } else {
                vec!["Insufficient cpu".into()]
            },
            total,
            ..Verdict::default()
        }
    }

    #[test]
    fn rows_put_the_chosen_node_first_then_scores_then_names() {
        let placement = Placement {
            node: Some("m".into()),
            verdicts: vec![
                verdict("z-fails", false, None),
                verdict("b", true, Some(10)),
                verdict("a", true, Some(10)),
                verdict("m", true, Some(5)),
                verdict("c", true, Some(30)),
                verdict("a-fails", false, None),
            ],
            ..Placement::default()
        };
        let names = |filter: &str| -> Vec<&str> {
            rows(&placement, filter)
                .into_iter()
                .map(|index| placement.verdicts[index].node.as_str())
                .collect()
        };
        assert_eq!(names(""), ["m", "c", "a", "b", "a-fails", "z-fails"]);
        assert_eq!(names(" FAILS "), ["a-fails", "z-fails"]);
        assert!(names("nothing").is_empty());
        let nominated = Placement {
            nominated: Some("z-fails".into()),
            ..placement.clone()
        };
        assert_eq!(nominated.verdicts[rows(&nominated, "")[0]].node, "z-fails");
    }

    #[test]
    fn causes_follow_the_upstream_wording() {
        assert_eq!(cause("node(s) had untolerated taint(s)").side, Side::Node);
        assert_eq!(
            cause("node(s) had taints that the pod didn't tolerate").keys,
            ["taints"]
        );
        assert_eq!(cause("Insufficient cpu").keys[0], "allocatable");
        let selector = cause("node(s) didn't match Pod's node affinity/selector");
        assert_eq!(selector.side, Side::Pod);
        assert_eq!(selector.keys[0], "nodeSelector");
        assert_eq!(
            cause("node(s) didn't match node selector").keys[0],
            "nodeSelector"
        );
        assert_eq!(
            cause("node(s) didn't match pod anti-affinity rules").keys[0],
            "podAntiAffinity"
        );
        assert_eq!(
            cause("node(s) didn't satisfy existing pods anti-affinity rules").keys,
            ["labels"]
        );
        assert_eq!(
            cause("node(s) didn't match pod affinity rules").keys[0],
            "podAffinity"
        );
        assert_eq!(cause("node(s) were unschedulable").keys, ["unschedulable"]);
        assert_eq!(cause("node(s) had memory pressure").keys, ["conditions"]);
        assert_eq!(
            cause("node(s) didn't have the requested labels").side,
            Side::Node
        );
        assert_eq!(cause("something new").keys, [] as [&str; 0]);
    }

    #[test]
    fn keys_are_found_as_keys_only_inside_the_object() {
        let text = "kind: Pod\nspec:\n  affinity:\n    nodeAffinity:\n      nodeSelectorTerms: []\n  nodeSelector: {a: b}\n---\nnodeSelector: {}\n";
        let end = text.find("---").unwrap();
        let at = |keys: &[&str]| find_key(text, 0, end, keys).map(|(s, e)| &text[s..e]);
        assert_eq!(at(&["nodeSelector", "affinity"]), Some("nodeSelector"));
        let (start, _) = find_key(text, 0, end, &["nodeSelector"]).unwrap();
        assert_eq!(start, text.find("  nodeSelector:").unwrap() + 2);
        assert_eq!(
            find_key(text, 0, end, &["affinity"]),
            Some((
                text.find("affinity").unwrap(),
                text.find("affinity").unwrap() + 8
            )),
            "not the end of nodeAffinity"
        );
        assert_eq!(find_key(text, 0, end, &["taints"]), None);
        assert_eq!(
            find_key(text, end, text.len(), &["nodeSelector"]).map(|(s, _)| s),
            Some(end + 4)
        );
        let json = r#"{"spec": {"taints" : []}}"#;
        assert_eq!(find_key(json, 0, json.len(), &["taints"]), Some((11, 17)));
        assert_eq!(find_key(json, 5, 999, &["taints"]), Some((11, 17)));
        assert_eq!(
            find_key("é", 1, 2, &["x"]),
            None,
            "not a character boundary"
        );
    }
}
