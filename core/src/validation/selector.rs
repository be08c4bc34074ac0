//! Label selectors (`matchLabels`, `matchExpressions`) and node selectors (required
//! node affinity terms and their `matchFields`).
//!
//! Upstream: `ValidateLabelSelector` in `k8s.io/apimachinery/pkg/apis/meta/v1/validation`
//! and `ValidateNodeSelector`, `ValidateNodeSelectorRequirement`,
//! `ValidateNodeFieldSelectorRequirement` in `pkg/apis/core/validation/validation.go`.
//!
//! Label values in required node selector terms are checked by the 1.34 API server only
//! (`AllowInvalidLabelValueInRequiredNodeAffinity` is false on create); 1.11's
//! `ValidateNodeSelectorRequirement` checks operators, value counts and the key alone.
//! The same holds for the expressions of a pod affinity term's label selector: 1.11's
//! `ValidateLabelSelectorRequirement` (before `LabelSelectorValidationOptions`) does not
//! check their values either.
//!
//! One addition: warnings for node requirement values the API server admits but
//! `labels.NewRequirement` rejects when the scheduler builds the selector (a `Gt`/`Lt`
//! bound that is not an integer, a value that is not a label value where it is not
//! checked): a required term with one matches no node, a preferred one fails the pod's
//! scoring.

use crate::labels::{self, BadValue};
use crate::model::{
    LabelSelector, LabelSelectorRequirement, NodeSelector, NodeSelectorRequirement,
    NodeSelectorTerm,
};
use crate::schedule::Version;

use super::metadata;
use super::names;
use super::path::{At, Sink};
use super::Violation;

/// `ValidateLabelSelector` with label values checked (`AllowInvalidLabelValueInSelector`
/// is false on create).
pub(super) fn label_selector(selector: &LabelSelector, at: &At<'_>, sink: &mut Sink) {
    checked_selector(selector, false, at, sink);
}

/// [`label_selector`] for a pod affinity term, whose expression values 1.11 admits
/// unchecked (a warning there: the scheduler fails on them).
pub(super) fn pod_affinity_selector(selector: &LabelSelector, at: &At<'_>, sink: &mut Sink) {
    checked_selector(selector, true, at, sink);
}

/// `ValidateLabelSelector`; `legacy_admits` says 1.11 leaves the expression values alone.
fn checked_selector(selector: &LabelSelector, legacy_admits: bool, at: &At<'_>, sink: &mut Sink) {
    metadata::labels(&selector.match_labels, &at.field("matchLabels"), sink);
    let expressions = at.field("matchExpressions");
    for (index, requirement) in selector.match_expressions.iter().enumerate() {
        label_requirement(requirement, legacy_admits, &expressions.index(index), sink);
    }
}

/// The value rules of the set operators shared by label and node selectors: `In` and
/// `NotIn` need values, `Exists` and `DoesNotExist` take none. False for other operators.
fn set_operator_values(
    operator: &str,
    values: &[alloc::string::String],
    at: &At<'_>,
    sink: &mut Sink,
) -> bool {
    match operator {
        "In" | "NotIn" if values.is_empty() => sink.error(
            &at.field("values"),
            "selector/missing-values",
            "must be specified when `operator` is 'In' or 'NotIn'",
        ),
        "Exists" | "DoesNotExist" if !values.is_empty() => sink.error(
            &at.field("values"),
            "selector/forbidden-values",
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ),
        "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
        _ => return false,
    }
    true
}

/// `ValidateLabelSelectorRequirement`.
fn label_requirement(
    requirement: &LabelSelectorRequirement,
    legacy_admits: bool,
    at: &At<'_>,
    sink: &mut Sink,
) {
    if !set_operator_values(&requirement.operator, &requirement.values, at, sink) {
        sink.error(
            &at.field("operator"),
            "selector/invalid-operator",
            "not a valid selector operator",
        );
    }
    sink.errors(
        &at.field("key"),
        "selector/invalid-key",
        &names::qualified_name(&requirement.key),
    );
    values(&requirement.values, legacy_admits, at, sink);
}

/// Each value must be a label value (in 1.34; also in 1.11 unless `legacy_admits`).
fn values(values: &[alloc::string::String], legacy_admits: bool, at: &At<'_>, sink: &mut Sink) {
    let list = at.field("values");
    for (index, value) in values.iter().enumerate() {
        let errors = names::label_value(value);
        if errors.is_empty() {
            continue;
        }
        let at = list.index(index);
        if !legacy_admits {
            sink.errors(&at, "selector/invalid-value", &errors);
            continue;
        }
        for complaint in &errors {
            let error = Violation::error(at.path(), "selector/invalid-value", *complaint);
            sink.push(error.only_in(Version::Current));
        }
        let warning = Violation::warning(
            at.path(),
            "selector/invalid-value",
            alloc::format!(
                "{}; the API server admits `{value}` here, but the scheduler cannot parse the selector, so scheduling with this term fails",
                errors.join("; ")
            ),
        );
        sink.push(warning.only_in(Version::Legacy));
    }
}

/// `ValidateNodeSelector`: a required node affinity needs at least one term.
pub(super) fn node_selector(selector: &NodeSelector, at: &At<'_>, sink: &mut Sink) {
    let terms = at.field("nodeSelectorTerms");
    if selector.node_selector_terms.is_empty() {
        sink.error(
            &terms,
            "affinity/no-terms",
            "must have at least one node selector term",
        );
        return;
    }
    for (index, term) in selector.node_selector_terms.iter().enumerate() {
        node_selector_term(term, false, &terms.index(index), sink);
    }
}

/// `ValidateNodeSelectorTerm`. Preferred terms allow values that are not label values,
/// as upstream does ("they can succeed when the cluster has only one node").
pub(super) fn node_selector_term(
    term: &NodeSelectorTerm,
    preferred: bool,
    at: &At<'_>,
    sink: &mut Sink,
) {
    if term.match_expressions.is_empty() && term.match_fields.is_empty() {
        // Upstream accepts this; the scheduler's `nodeaffinity` matches nothing with it.
        sink.warning(
            at,
            "affinity/empty-term",
            "this term has neither `matchExpressions` nor `matchFields`, so it matches no node",
        );
    }
    let expressions = at.field("matchExpressions");
    for (index, requirement) in term.match_expressions.iter().enumerate() {
        node_requirement(requirement, preferred, &expressions.index(index), sink);
    }
    let fields = at.field("matchFields");
    for (index, requirement) in term.match_fields.iter().enumerate() {
        node_field_requirement(requirement, &fields.index(index), sink);
    }
}

/// `ValidateNodeSelectorRequirement`, with the values the scheduler cannot parse.
fn node_requirement(
    requirement: &NodeSelectorRequirement,
    preferred: bool,
    at: &At<'_>,
    sink: &mut Sink,
) {
    match requirement.operator.as_str() {
        operator if set_operator_values(operator, &requirement.values, at, sink) => {}
        "Gt" | "Lt" => {
            if requirement.values.len() != 1 {
                sink.error(
                    &at.field("values"),
                    "selector/single-value",
                    "must be specified single value when `operator` is 'Lt' or 'Gt'",
                );
            }
        }
        _ => sink.error(
            &at.field("operator"),
            "selector/invalid-operator",
            "not a valid selector operator",
        ),
    }
    sink.errors(
        &at.field("key"),
        "selector/invalid-key",
        &names::qualified_name(&requirement.key),
    );
    unparsable_values(requirement, preferred, at, sink);
}

/// The values `labels.NewRequirement` rejects: in a required term, a value that is not a
/// label value is an error of 1.34 and a warning of 1.11, which admits it; everything
/// else the API server admits, with a warning.
fn unparsable_values(
    requirement: &NodeSelectorRequirement,
    preferred: bool,
    at: &At<'_>,
    sink: &mut Sink,
) {
    let list = at.field("values");
    let outcome = if preferred {
        "a preferred term with it fails the pod's scoring"
    } else {
        "this term matches no node"
    };
    for bad in labels::bad_values(requirement) {
        match bad {
            BadValue::NotInteger(index, value) => sink.push(
                Violation::warning(
                    list.index(index).path(),
                    "selector/gt-lt-not-integer",
                    alloc::format!(
                        "for 'Gt', 'Lt' operators, the value must be an integer; the API server admits `{value}`, but the scheduler cannot parse the requirement, so {outcome}"
                    ),
                )
                .with_help("write a whole number such as `4`; the node label must be a whole number too"),
            ),
            BadValue::NotLabelValue(index, value, complaints) => {
                let at = list.index(index);
                let mut warning = Violation::warning(
                    at.path(),
                    "selector/invalid-value",
                    alloc::format!(
                        "{}; the API server admits `{value}` here, but the scheduler cannot parse the requirement, so {outcome}",
                        complaints.join("; ")
                    ),
                );
                if !preferred {
                    for complaint in complaints {
                        let error = Violation::error(at.path(), "selector/invalid-value", complaint);
                        sink.push(error.only_in(Version::Current));
                    }
                    warning = warning.only_in(Version::Legacy);
                }
                sink.push(warning);
            }
        }
    }
}

/// `ValidateNodeFieldSelectorRequirement`: only `metadata.name`, with `In` or `NotIn` and
/// exactly one node name.
fn node_field_requirement(requirement: &NodeSelectorRequirement, at: &At<'_>, sink: &mut Sink) {
    match requirement.operator.as_str() {
        "In" | "NotIn" => {
            if requirement.values.len() != 1 {
                sink.error(
                    &at.field("values"),
                    "selector/single-value",
                    "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                );
            }
        }
        _ => sink.error(
            &at.field("operator"),
            "selector/invalid-operator",
            "not a valid selector operator",
        ),
    }
    if requirement.key == "metadata.name" {
        let list = at.field("values");
        for (index, value) in requirement.values.iter().enumerate() {
            let errors = names::dns1123_subdomain(value);
            if !errors.is_empty() {
                sink.errors(&list.index(index), "selector/invalid-field-value", &errors);
            }
        }
    } else {
        sink.error(
            &at.field("key"),
            "selector/invalid-field-key",
            "not a valid field selector key",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn requirement(key: &str, operator: &str, values: &[&str]) -> NodeSelectorRequirement {
        NodeSelectorRequirement {
            key: key.into(),
            operator: operator.into(),
            values: values.iter().map(|v| String::from(*v)).collect(),
        }
    }

    fn run_term(term: &NodeSelectorTerm, preferred: bool) -> Vec<(String, &'static str, String)> {
        let mut sink = Sink::default();
        node_selector_term(term, preferred, &At::root("term"), &mut sink);
        sink.finish()
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    fn expressions(requirements: Vec<NodeSelectorRequirement>) -> NodeSelectorTerm {
        NodeSelectorTerm {
            match_expressions: requirements,
            ..NodeSelectorTerm::default()
        }
    }

    #[test]
    fn node_requirement_operators() {
        // Upstream TestValidatePod: "invalid node selector requirement in node affinity,
        // more values for exists operator" and friends.
        let cases: [(NodeSelectorRequirement, &str, &str); 5] = [
            (
                requirement("key1", "Exists", &["value1"]),
                "term.matchExpressions[0].values",
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
            (
                requirement("key1", "In", &[]),
                "term.matchExpressions[0].values",
                "must be specified when `operator` is 'In' or 'NotIn'",
            ),
            (
                requirement("key1", "Gt", &["1", "2"]),
                "term.matchExpressions[0].values",
                "must be specified single value when `operator` is 'Lt' or 'Gt'",
            ),
            (
                requirement("key1", "", &["value1"]),
                "term.matchExpressions[0].operator",
                "not a valid selector operator",
            ),
            (
                requirement("key1", "Gte", &["1"]),
                "term.matchExpressions[0].operator",
                "not a valid selector operator",
            ),
        ];
        for (requirement, path, message) in cases {
            let found = run_term(&expressions(alloc::vec![requirement]), false);
            assert_eq!(found.len(), 1, "{found:?}");
            assert_eq!(found[0].0, path);
            assert_eq!(found[0].2, message);
        }
        let valid = expressions(alloc::vec![
            requirement("key1", "In", &["a", "b"]),
            requirement("key2", "DoesNotExist", &[]),
            requirement("cores", "Gt", &["4"]),
            requirement("cores", "Lt", &["-4"]),
        ]);
        // `-4` is not a label value: only 1.34 refuses it in a required term; 1.11 admits
        // it there, and both admit it in a preferred term, with a warning.
        let at = "term.matchExpressions[3].values[0]";
        assert_eq!(
            releases(&valid, false),
            [
                (at.into(), true, Some(Version::Current)),
                (at.into(), false, Some(Version::Legacy)),
            ]
        );
        assert_eq!(releases(&valid, true), [(at.into(), false, None)]);
    }

    /// Each violation's path, whether it is an error, and the one release it counts in.
    fn releases(term: &NodeSelectorTerm, preferred: bool) -> Vec<(String, bool, Option<Version>)> {
        let mut sink = Sink::default();
        node_selector_term(term, preferred, &At::root("term"), &mut sink);
        sink.finish()
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.is_error(), v.only_in))
            .collect()
    }

    // Both releases admit a bound that is not an integer; the scheduler cannot parse it.
    #[test]
    fn gt_lt_values_that_are_not_integers_warn() {
        let term = expressions(alloc::vec![requirement("cores", "Gt", &["abc"])]);
        for preferred in [false, true] {
            let found = run_term(&term, preferred);
            assert_eq!(found.len(), 1, "{found:?}");
            assert_eq!(found[0].0, "term.matchExpressions[0].values[0]");
            assert_eq!(found[0].1, "selector/gt-lt-not-integer");
            assert!(found[0].2.starts_with(
                "for 'Gt', 'Lt' operators, the value must be an integer; the API server admits `abc`"
            ));
            assert_eq!(
                releases(&term, preferred),
                [("term.matchExpressions[0].values[0]".into(), false, None)]
            );
        }
    }

    #[test]
    fn node_requirement_keys_are_qualified_names() {
        let found = run_term(
            &expressions(alloc::vec![requirement("invalid key ___@#", "Exists", &[])]),
            false,
        );
        assert_eq!(found[0].0, "term.matchExpressions[0].key");
        assert_eq!(found[0].1, "selector/invalid-key");
    }

    #[test]
    fn match_fields_only_know_metadata_name() {
        // Upstream TestValidateNodeFieldSelectorRequirement-style cases.
        let term = |requirement| NodeSelectorTerm {
            match_fields: alloc::vec![requirement],
            ..NodeSelectorTerm::default()
        };
        assert!(run_term(
            &term(requirement("metadata.name", "In", &["host-1"])),
            false
        )
        .is_empty());
        let found = run_term(&term(requirement("metadata.labels", "In", &["x"])), false);
        assert_eq!(
            found,
            [(
                "term.matchFields[0].key".into(),
                "selector/invalid-field-key",
                "not a valid field selector key".into()
            )]
        );
        let found = run_term(
            &term(requirement("metadata.name", "In", &["a", "b"])),
            false,
        );
        assert_eq!(
            found[0].2,
            "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"
        );
        let found = run_term(&term(requirement("metadata.name", "Exists", &["a"])), false);
        assert_eq!(found[0].0, "term.matchFields[0].operator");
        let found = run_term(
            &term(requirement("metadata.name", "In", &["Host_1"])),
            false,
        );
        assert_eq!(found[0].0, "term.matchFields[0].values[0]");
        assert_eq!(found[0].2, names::DNS1123_SUBDOMAIN_FORMAT);
    }

    #[test]
    fn required_node_selectors_need_a_term_and_empty_terms_warn() {
        let mut sink = Sink::default();
        node_selector(&NodeSelector::default(), &At::root("required"), &mut sink);
        let found = sink.finish();
        assert_eq!(
            found[0].diagnostic.message,
            "must have at least one node selector term"
        );
        assert_eq!(found[0].path.to_string(), "required.nodeSelectorTerms");
        let found = run_term(&NodeSelectorTerm::default(), false);
        assert_eq!(found[0].1, "affinity/empty-term");
    }

    #[test]
    fn label_selectors() {
        let selector = LabelSelector {
            match_labels: [(String::from("app"), String::from("web"))]
                .into_iter()
                .collect(),
            match_expressions: alloc::vec![
                LabelSelectorRequirement {
                    key: "tier".into(),
                    operator: "In".into(),
                    values: alloc::vec![]
                },
                LabelSelectorRequirement {
                    key: "x".into(),
                    operator: "Exists".into(),
                    values: alloc::vec!["y".into()]
                },
                LabelSelectorRequirement {
                    key: "z".into(),
                    operator: "Gt".into(),
                    values: alloc::vec!["1".into()]
                },
                LabelSelectorRequirement {
                    key: "v".into(),
                    operator: "NotIn".into(),
                    values: alloc::vec!["a b".into()]
                },
            ],
        };
        let mut sink = Sink::default();
        label_selector(&selector, &At::root("selector"), &mut sink);
        let found: Vec<(String, &str)> = sink
            .finish()
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code))
            .collect();
        assert_eq!(
            found,
            [
                (
                    "selector.matchExpressions[0].values".into(),
                    "selector/missing-values"
                ),
                (
                    "selector.matchExpressions[1].values".into(),
                    "selector/forbidden-values"
                ),
                (
                    "selector.matchExpressions[2].operator".into(),
                    "selector/invalid-operator"
                ),
                (
                    "selector.matchExpressions[3].values[0]".into(),
                    "selector/invalid-value"
                ),
            ]
        );
    }

    /// 1.11 admits a pod affinity term's expression values unchecked: an error of 1.34
    /// only, and a warning of 1.11; other selectors keep the error in both.
    #[test]
    fn pod_affinity_values_are_checked_by_1_34_only() {
        let selector = LabelSelector {
            match_expressions: alloc::vec![LabelSelectorRequirement {
                key: "app".into(),
                operator: "In".into(),
                values: alloc::vec!["web".into(), "web/v1".into()],
            }],
            ..LabelSelector::default()
        };
        let releases = |affinity: bool| {
            let mut sink = Sink::default();
            let at = At::root("selector");
            if affinity {
                pod_affinity_selector(&selector, &at, &mut sink);
            } else {
                label_selector(&selector, &at, &mut sink);
            }
            sink.finish()
                .into_iter()
                .map(|v| (v.path.to_string(), v.diagnostic.is_error(), v.only_in))
                .collect::<Vec<_>>()
        };
        let at = String::from("selector.matchExpressions[0].values[1]");
        assert_eq!(
            releases(true),
            [
                (at.clone(), true, Some(Version::Current)),
                (at.clone(), false, Some(Version::Legacy))
            ]
        );
        assert_eq!(releases(false), [(at, true, None)]);
    }
}
