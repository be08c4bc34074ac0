//! NodeAffinity: `spec.nodeSelector` and required node affinity filter nodes; preferred
//! node affinity scores them. A profile's `addedAffinity` applies to every pod on top:
//! its required terms filter first, its preferred terms' weights add to the pod's.
//!
//! Follows `pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go` and
//! `k8s.io/component-helpers/scheduling/corev1/nodeaffinity`.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::Cell;

use super::normalize;
use crate::labels;
use crate::model::{AddedAffinity, Node, NodeSelector, Pod, PreferredSchedulingTerm, StringMap};
use crate::schedule::status::Status;

/// The plugin name.
pub const NAME: &str = "NodeAffinity";

/// Upstream's filter reason (1.22 and later).
pub const REASON: &str = "node(s) didn't match Pod's node affinity/selector";

/// The filter's reason when a node does not match the profile's `addedAffinity`.
pub const REASON_ENFORCED: &str = "node(s) didn't match scheduler-enforced node affinity";

/// PreFilter's reason when every required term pins `metadata.name` and the terms
/// contradict each other.
pub const REASON_CONFLICT: &str = "pod affinity terms conflict";

/// What PreFilter decides before any node is examined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreFilter {
    /// Every node is examined.
    AllNodes,
    /// Only these nodes can match: every required term pins `metadata.name In [...]`.
    Only(BTreeSet<String>),
    /// No node can match.
    Rejected(&'static str),
}

/// PreFilter: when every required term pins node names, only those nodes are examined.
#[must_use]
pub fn pre_filter(pod: &Pod) -> PreFilter {
    let Some(selector) = pod.spec.required_node_affinity() else {
        return PreFilter::AllNodes;
    };
    if selector.node_selector_terms.is_empty() {
        return PreFilter::AllNodes;
    }
    let mut names: BTreeSet<String> = BTreeSet::new();
    for term in &selector.node_selector_terms {
        let mut term_names: Option<BTreeSet<String>> = None;
        for requirement in &term.match_fields {
            if requirement.key == "metadata.name" && requirement.operator == "In" {
                let values: BTreeSet<String> = requirement.values.iter().cloned().collect();
                term_names = Some(match term_names {
                    None => values,
                    Some(previous) => previous.intersection(&values).cloned().collect(),
                });
            }
        }
        match term_names {
            // A term without a name pin lets every node through (terms are ORed).
            None => return PreFilter::AllNodes,
            Some(term_names) => names.extend(term_names),
        }
    }
    if names.is_empty() {
        PreFilter::Rejected(REASON_CONFLICT)
    } else {
        PreFilter::Only(names)
    }
}

/// Filter: the node selector and the required terms must both match. The verdict per node
/// for one node selector and one set of required terms,
/// worked out on first ask and shared through the snapshot by every pod that has them:
/// pods of many templates pin the same pool, and labels do not change while pods are
/// placed.
#[derive(Debug)]
pub struct RequiredMatches {
    selector: StringMap,
    required: Option<NodeSelector>,
    /// Per node: unknown until asked, then whether it matches.
    verdicts: Vec<Cell<Option<bool>>>,
}

impl RequiredMatches {
    /// The verdicts for `pod`'s selector and terms on `nodes` nodes, none worked out yet.
    #[must_use]
    pub fn new(pod: &Pod, nodes: usize) -> Self {
        Self {
            selector: pod.spec.node_selector.clone(),
            required: pod.spec.required_node_affinity().cloned(),
            verdicts: alloc::vec![Cell::new(None); nodes],
        }
    }

    /// True if `pod` has this selector and these terms.
    #[must_use]
    pub fn is_for(&self, pod: &Pod) -> bool {
        self.selector == pod.spec.node_selector
            && self.required.as_ref() == pod.spec.required_node_affinity()
    }

    /// The filter on the node at `index` of the snapshot.
    #[must_use]
    pub fn filter(&self, index: usize, node: &Node) -> Status {
        let known = self.verdicts.get(index).and_then(Cell::get);
        let matches = known.unwrap_or_else(|| {
            let matches = selector_and_terms_match(&self.selector, self.required.as_ref(), node);
            if let Some(verdict) = self.verdicts.get(index) {
                verdict.set(Some(matches));
            }
            matches
        });
        if matches {
            Status::success()
        } else {
            Status::unresolvable(REASON)
        }
    }
}

/// Filter, before the pod's own selector and terms: the node must match one of the
/// profile's added required terms, if it adds any.
#[must_use]
pub fn filter_added(added: &AddedAffinity, node: &Node) -> Status {
    match &added.required_during_scheduling_ignored_during_execution {
        Some(required) if !labels::node_selector_matches(required, node) => {
            Status::unresolvable(REASON_ENFORCED)
        }
        _ => Status::success(),
    }
}

/// `spec.nodeSelector` (every pair) and required node affinity (any term).
#[must_use]
pub fn matches_required(pod: &Pod, node: &Node) -> bool {
    selector_and_terms_match(
        &pod.spec.node_selector,
        pod.spec.required_node_affinity(),
        node,
    )
}

fn selector_and_terms_match(
    selector: &StringMap,
    required: Option<&NodeSelector>,
    node: &Node,
) -> bool {
    labels::map_matches(selector, &node.metadata.labels)
        && required.is_none_or(|terms| labels::node_selector_matches(terms, node))
}

/// PreScore: the plugin skips pods without preferred terms when the profile adds none.
#[must_use]
pub fn skips_scoring(pod: &Pod, added: &AddedAffinity) -> bool {
    own_preferred_terms(pod).is_empty()
        && added
            .preferred_during_scheduling_ignored_during_execution
            .is_empty()
}

fn own_preferred_terms(pod: &Pod) -> &[PreferredSchedulingTerm] {
    pod.spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.node_affinity.as_ref())
        .map_or(&[], |node_affinity| {
            &node_affinity.preferred_during_scheduling_ignored_during_execution
        })
}

/// PreScore's error when a weighted, non-empty preferred term of the pod has values
/// `labels.NewRequirement` rejects (`NewPreferredSchedulingTerms`): every such value as a
/// field error at `[term].matchExpressions[requirement].values[value]` (a label value's
/// with its key appended), repeated messages once, several in brackets.
#[must_use]
pub fn pre_score_error(pod: &Pod) -> Option<String> {
    let mut errors: Vec<String> = Vec::new();
    let terms = own_preferred_terms(pod)
        .iter()
        .enumerate()
        .filter(|(_, term)| {
            let preference = &term.preference;
            term.weight != 0
                && !(preference.match_expressions.is_empty() && preference.match_fields.is_empty())
        });
    for (term, preferred) in terms {
        for (position, requirement) in preferred.preference.match_expressions.iter().enumerate() {
            for bad in labels::bad_values(requirement) {
                let (index, value, detail, key) = match &bad {
                    labels::BadValue::NotInteger(index, value) => (
                        *index,
                        *value,
                        String::from("for 'Gt', 'Lt' operators, the value must be an integer"),
                        None,
                    ),
                    labels::BadValue::NotLabelValue(index, value, complaints) => (
                        *index,
                        *value,
                        complaints.join("; "),
                        Some(&requirement.key),
                    ),
                };
                let mut error =
                    alloc::format!("[{term}].matchExpressions[{position}].values[{index}]");
                if let Some(key) = key {
                    error.push('[');
                    error.push_str(key);
                    error.push(']');
                }
                error.push_str(": Invalid value: ");
                crate::validation::quote(value, &mut error);
                error.push_str(": ");
                error.push_str(&detail);
                if !errors.contains(&error) {
                    errors.push(error);
                }
            }
        }
    }
    match errors.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        many => Some(alloc::format!("[{}]", many.join(", "))),
    }
}

/// Raw score: the sum of the weights of the preferred terms, the profile's added ones and
/// the pod's, that the node matches (terms with weight 0 or without requirements count
/// for nothing).
#[must_use]
pub fn preferred_weight(pod: &Pod, added: &AddedAffinity, node: &Node) -> i64 {
    added
        .preferred_during_scheduling_ignored_during_execution
        .iter()
        .chain(own_preferred_terms(pod))
        .filter(|term| term.weight != 0 && labels::node_term_matches(&term.preference, node))
        .fold(0i64, |sum, term| sum.saturating_add(i64::from(term.weight)))
}

/// Scores over the feasible nodes, normalised to `0..=max_score` by the best.
#[must_use]
pub fn scores<'n>(
    pod: &Pod,
    added: &AddedAffinity,
    nodes: impl Iterator<Item = &'n Node>,
    max_score: i64,
) -> Vec<i64> {
    let mut scores: Vec<i64> = nodes
        .map(|node| preferred_weight(pod, added, node))
        .collect();
    normalize::default_normalize(&mut scores, max_score, false);
    scores
}

#[cfg(test)]
mod tests {
    use super::{
        pre_filter, pre_score_error, PreFilter, RequiredMatches, NAME, REASON, REASON_CONFLICT,
        REASON_ENFORCED,
    };
    use crate::model::{Node, Pod};
    use crate::schedule::status::Code;
    use alloc::collections::BTreeSet;
    use alloc::string::String;

    fn pod(spec: serde_json::Value) -> Pod {
        serde_json::from_value(serde_json::json!({ "spec": spec })).unwrap()
    }

    fn required(terms: serde_json::Value) -> Pod {
        pod(serde_json::json!({"affinity": {"nodeAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": terms}
        }}}))
    }

    // `NewPreferredSchedulingTerms`: weighted, non-empty terms only; every bad value as a
    // field error, a label value's path ending in its key.
    #[test]
    fn preferred_terms_that_do_not_parse_fail_pre_score() {
        let preferring = |terms: serde_json::Value| {
            pod(serde_json::json!({"affinity": {"nodeAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": terms
            }}}))
        };
        let gt =
            |value: &str| serde_json::json!({"key": "cores", "operator": "Gt", "values": [value]});
        let ok = preferring(serde_json::json!([
            {"weight": 0, "preference": {"matchExpressions": [gt("abc")]}},
            {"weight": 1, "preference": {"matchExpressions": [gt("4")]}}
        ]));
        assert_eq!(pre_score_error(&ok), None);
        let one = preferring(serde_json::json!([
            {"weight": 1, "preference": {"matchExpressions": [gt("4")]}},
            {"weight": 1, "preference": {"matchExpressions": [gt("4"), gt("abc")]}}
        ]));
        assert_eq!(
            pre_score_error(&one).as_deref(),
            Some("[1].matchExpressions[1].values[0]: Invalid value: \"abc\": for 'Gt', 'Lt' operators, the value must be an integer")
        );
        let two = preferring(serde_json::json!([
            {"weight": 1, "preference": {"matchExpressions": [gt("abc"), gt("-4")]}}
        ]));
        let text = pre_score_error(&two).unwrap_or_default();
        assert!(
            text.starts_with("[[0].matchExpressions[0].values[0]: Invalid value: \"abc\": for 'Gt', 'Lt' operators, the value must be an integer, [0].matchExpressions[1].values[0][cores]: Invalid value: \"-4\": a valid label must be"),
            "{text}"
        );
        assert!(text.ends_with(")]"), "{text}");
    }

    fn names(list: &[&str]) -> PreFilter {
        PreFilter::Only(
            list.iter()
                .map(|name| String::from(*name))
                .collect::<BTreeSet<_>>(),
        )
    }

    fn node(name: &str, labels: serde_json::Value) -> Node {
        serde_json::from_value(serde_json::json!({"metadata": {"name": name, "labels": labels}}))
            .unwrap()
    }

    /// The PreFilter cases of upstream's `TestNodeAffinity` (node_affinity_test.go), as
    /// facts: name pins are intersected within a term and united across terms; a term
    /// without one lets every node through; contradicting pins reject the pod.
    #[test]
    fn upstream_pre_filter_cases() {
        let name_in = |values: &[&str]| serde_json::json!({"key": "metadata.name", "operator": "In", "values": values});
        assert_eq!(pre_filter(&pod(serde_json::json!({}))), PreFilter::AllNodes);
        assert_eq!(
            pre_filter(&required(
                serde_json::json!([{"matchFields": [name_in(&["node1"])]}])
            )),
            names(&["node1"])
        );
        assert_eq!(
            pre_filter(&required(serde_json::json!([
                {"matchFields": [name_in(&["node1"])]},
                {"matchFields": [name_in(&["node2"])]}
            ]))),
            names(&["node1", "node2"])
        );
        assert_eq!(
            pre_filter(&required(serde_json::json!([
                {"matchFields": [name_in(&["node1", "node2"]), name_in(&["node2", "node3"])]}
            ]))),
            names(&["node2"])
        );
        assert_eq!(
            pre_filter(&required(serde_json::json!([
                {"matchFields": [name_in(&["node1"])]},
                {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}
            ]))),
            PreFilter::AllNodes
        );
        assert_eq!(
            pre_filter(&required(serde_json::json!([
                {"matchFields": [name_in(&["node1"]), name_in(&["node2"])]}
            ]))),
            PreFilter::Rejected(REASON_CONFLICT)
        );
    }

    /// Filter cases of upstream's `TestNodeAffinity`: the node selector and the required
    /// terms must both match; terms are ORed, requirements within a term ANDed.
    #[test]
    fn upstream_filter_cases() {
        let labelled = node("node1", serde_json::json!({"foo": "bar", "zone": "us"}));
        let filter = |pod: &Pod, node: &Node| RequiredMatches::new(pod, 1).filter(0, node);
        let fits = |pod: &Pod| filter(pod, &labelled).passed();
        assert!(fits(&pod(serde_json::json!({}))));
        assert!(fits(&pod(
            serde_json::json!({"nodeSelector": {"foo": "bar"}})
        )));
        let missing = filter(
            &pod(serde_json::json!({"nodeSelector": {"foo": "baz"}})),
            &labelled,
        );
        assert_eq!(missing.code, Code::UnschedulableAndUnresolvable);
        assert_eq!(missing.reasons, [REASON]);
        let expression = |key: &str, operator: &str, values: &[&str]| serde_json::json!({"matchExpressions": [{"key": key, "operator": operator, "values": values}]});
        assert!(fits(&required(serde_json::json!([expression(
            "foo",
            "In",
            &["bar", "value2"]
        )]))));
        assert!(!fits(&required(serde_json::json!([expression(
            "foo",
            "NotIn",
            &["bar"]
        )]))));
        assert!(fits(&required(serde_json::json!([expression(
            "foo",
            "Exists",
            &[]
        )]))));
        assert!(!fits(&required(serde_json::json!([expression(
            "kernel",
            "Exists",
            &[]
        )]))));
        assert!(fits(&required(serde_json::json!([expression(
            "kernel",
            "DoesNotExist",
            &[]
        )]))));
        // Terms are ORed.
        assert!(fits(&required(serde_json::json!([
            expression("foo", "In", &["nope"]),
            expression("zone", "In", &["us"])
        ]))));
        // An empty term list matches nothing; an empty term matches nothing either.
        assert!(!fits(&required(serde_json::json!([]))));
        assert!(!fits(&required(serde_json::json!([{}]))));
        // Both the selector and the affinity must hold.
        let both = pod(serde_json::json!({
            "nodeSelector": {"foo": "bar"},
            "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [expression("zone", "In", &["eu"])]
            }}}
        }));
        assert!(!fits(&both));
        // matchFields metadata.name.
        let by_name = |name: &str| {
            required(
                serde_json::json!([{"matchFields": [{"key": "metadata.name", "operator": "In", "values": [name]}]}]),
            )
        };
        assert!(fits(&by_name("node1")));
        assert!(!fits(&by_name("node2")));
    }

    /// node_affinity.go with `addedAffinity`: the added required terms filter every pod
    /// first (UnschedulableAndUnresolvable, their own reason), and the added preferred
    /// weights are summed with the pod's before normalising, even for a pod without
    /// preferred terms of its own.
    #[test]
    fn added_affinity_filters_and_scores_every_pod() {
        use crate::schedule::testing::{schedule, scores};
        use crate::schedule::Version;
        let node = |name: &str, labels: &str| {
            alloc::format!("---\napiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {{{labels}}}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}}}\n")
        };
        let yaml = |affinity: &str| {
            String::from("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n- schedulerName: default-scheduler\n  pluginConfig:\n  - name: NodeAffinity\n    args:\n      addedAffinity:\n        requiredDuringSchedulingIgnoredDuringExecution:\n          nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [a]}]}]\n        preferredDuringSchedulingIgnoredDuringExecution:\n        - {weight: 10, preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}}\n")
                + &node("n1", "pool: b, disk: ssd")
                + &node("n2", "pool: a, zone: z2")
                + &node("n3", "pool: a, disk: ssd")
                + &alloc::format!("---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n  affinity: {affinity}\n  containers: [{{name: a, image: x}}]\n")
        };
        let result = schedule(&yaml("{}"), Version::Current);
        let placement = &result.pods[0];
        assert_eq!(
            placement.nodes.0[0].1.reasons,
            [String::from(REASON_ENFORCED)]
        );
        assert_eq!(
            scores(placement, NAME),
            [("n2".into(), 0), ("n3".into(), 100)]
        );
        assert_eq!(placement.node.as_deref(), Some("n3"));
        // The pod's own weight 30 for zone z2 outweighs the added 10 for an ssd.
        let own = "{nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 30, preference: {matchExpressions: [{key: zone, operator: In, values: [z2]}]}}]}}";
        let result = schedule(&yaml(own), Version::Current);
        assert_eq!(
            scores(&result.pods[0], NAME),
            [("n2".into(), 100), ("n3".into(), 33)]
        );
    }
}
