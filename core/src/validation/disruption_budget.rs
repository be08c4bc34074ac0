//! `PodDisruptionBudget`: `minAvailable` / `maxUnavailable`, selector and eviction policy.
//!
//! Upstream: `ValidatePodDisruptionBudgetSpec` in `pkg/apis/policy/validation/validation.go`
//! with `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent` of
//! `pkg/apis/apps/validation`. The kind has no name rule of its own, so its name is a
//! path segment name, as the generic registry checks it.

use crate::model::{IntOrString, PodDisruptionBudget};

use super::metadata::{self, NameRule};
use super::names;
use super::path::{unsupported, At, Sink};
use super::selector;

/// Every rule a PodDisruptionBudget breaks.
pub(super) fn validate(pdb: &PodDisruptionBudget, sink: &mut Sink) {
    metadata::validate(&pdb.metadata, NameRule::PathSegment, sink);
    let spec = At::root("spec");
    let budget = &pdb.spec;
    if budget.min_available.is_some() && budget.max_unavailable.is_some() {
        sink.error(
            &spec,
            "pdb/both-set",
            "minAvailable and maxUnavailable cannot be both set",
        );
    }
    if let Some(value) = &budget.min_available {
        int_or_percent(value, &spec.field("minAvailable"), sink);
    }
    if let Some(value) = &budget.max_unavailable {
        int_or_percent(value, &spec.field("maxUnavailable"), sink);
    }
    if let Some(labels) = &budget.selector {
        selector::label_selector(labels, &spec.field("selector"), sink);
    }
    if let Some(policy) = &budget.unhealthy_pod_eviction_policy {
        if !matches!(policy.as_str(), "AlwaysAllow" | "IfHealthyBudget") {
            sink.error(
                &spec.field("unhealthyPodEvictionPolicy"),
                "pdb/invalid-eviction-policy",
                unsupported(policy, &["AlwaysAllow", "IfHealthyBudget"]),
            );
        }
    }
}

/// `ValidatePositiveIntOrPercent` and `IsNotMoreThan100Percent`.
fn int_or_percent(value: &IntOrString, at: &At<'_>, sink: &mut Sink) {
    match value {
        IntOrString::Int(number) => {
            if *number < 0 {
                sink.error(
                    at,
                    "pdb/invalid-value",
                    "must be greater than or equal to 0",
                );
            }
        }
        IntOrString::Str(text) => {
            if !names::is_percent(text) {
                sink.error(at, "pdb/invalid-value", names::PERCENT_FORMAT);
            } else if text
                .strip_suffix('%')
                .and_then(|digits| digits.parse::<i64>().ok())
                .is_some_and(|percent| percent > 100)
            {
                // A number too large for `strconv.Atoi` is not reported upstream either.
                sink.error(at, "pdb/invalid-value", "must not be greater than 100%");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! Upstream's `TestValidateMinAvailablePodDisruptionBudgetSpec`,
    //! `TestValidateMinAvailablePodAndMaxUnavailableDisruptionBudgetSpec` and
    //! `TestValidatePodDisruptionBudgetSpec`.

    use super::*;
    use crate::input::Resource;
    use crate::validation::validate as validate_resource;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn run(spec: serde_json::Value) -> Vec<(String, &'static str, String)> {
        let pdb: PodDisruptionBudget = serde_json::from_value(
            serde_json::json!({"metadata": {"name": "web", "namespace": "shop"}, "spec": spec}),
        )
        .unwrap();
        validate_resource(&Resource::PodDisruptionBudget(pdb.into()))
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    #[test]
    fn a_realistic_budget_is_valid() {
        assert_eq!(
            run(serde_json::json!({
                "maxUnavailable": "25%",
                "selector": {"matchLabels": {"app.kubernetes.io/name": "web"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["frontend"]}]},
                "unhealthyPodEvictionPolicy": "AlwaysAllow"
            })),
            []
        );
    }

    #[test]
    fn min_available_and_max_unavailable_values() {
        for field in ["minAvailable", "maxUnavailable"] {
            for good in [
                serde_json::json!("0%"),
                serde_json::json!("1%"),
                serde_json::json!("100%"),
                serde_json::json!(0),
                serde_json::json!(1),
                serde_json::json!(100),
            ] {
                assert_eq!(
                    run(serde_json::json!({ field: good })),
                    [],
                    "{field} {good}"
                );
            }
            for bad in [
                serde_json::json!("1.1%"),
                serde_json::json!("nope"),
                serde_json::json!("-1%"),
                serde_json::json!("101%"),
                serde_json::json!(-1),
            ] {
                let found = run(serde_json::json!({ field: bad }));
                assert_eq!(found.len(), 1, "{field} {bad}");
                assert_eq!(found[0].0, alloc::format!("spec.{field}"));
            }
        }
        assert_eq!(
            run(serde_json::json!({"minAvailable": "101%"}))[0].2,
            "must not be greater than 100%"
        );
        assert_eq!(
            run(serde_json::json!({"minAvailable": -1}))[0].2,
            "must be greater than or equal to 0"
        );
        assert_eq!(
            run(serde_json::json!({"minAvailable": "nope"}))[0].2,
            names::PERCENT_FORMAT
        );
    }

    #[test]
    fn not_both() {
        assert_eq!(
            run(serde_json::json!({"minAvailable": "0%", "maxUnavailable": "10%"})),
            [(
                "spec".into(),
                "pdb/both-set",
                "minAvailable and maxUnavailable cannot be both set".into()
            )]
        );
    }

    #[test]
    fn selector_and_policy() {
        let found = run(serde_json::json!({
            "minAvailable": 1,
            "selector": {"matchExpressions": [{"key": "app", "operator": "In"}]},
            "unhealthyPodEvictionPolicy": "Never"
        }));
        assert_eq!(
            found,
            [
                ("spec.selector.matchExpressions[0].values".into(), "selector/missing-values", "must be specified when `operator` is 'In' or 'NotIn'".into()),
                (
                    "spec.unhealthyPodEvictionPolicy".into(),
                    "pdb/invalid-eviction-policy",
                    "Unsupported value: \"Never\": supported values: \"AlwaysAllow\", \"IfHealthyBudget\"".into()
                ),
            ]
        );
    }
}
