//! Pod tolerations.
//!
//! Upstream: `ValidateTolerations` in `pkg/apis/core/validation/validation.go`. A bad
//! `value` is reported at `value`, where upstream says `operator`.

use crate::model::Toleration;

use super::names;
use super::node::TAINT_EFFECTS;
use super::path::{unsupported, At, Sink};

/// Every rule of `ValidateTolerations`, in upstream's order.
pub(super) fn tolerations(tolerations: &[Toleration], at: &At<'_>, sink: &mut Sink) {
    for (index, toleration) in tolerations.iter().enumerate() {
        let entry = at.index(index);
        if !toleration.key.is_empty() {
            sink.errors(
                &entry.field("key"),
                "toleration/invalid-key",
                &names::qualified_name(&toleration.key),
            );
        }
        if toleration.key.is_empty() && toleration.operator != "Exists" {
            sink.error(
                &entry.field("operator"),
                "toleration/invalid-operator",
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            );
        }
        if toleration.toleration_seconds.is_some() && toleration.effect != "NoExecute" {
            sink.error(
                &entry.field("effect"),
                "toleration/seconds-without-no-execute",
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            );
        }
        match toleration.operator.as_str() {
            "" | "Equal" => {
                let errors = names::label_value(&toleration.value);
                if !errors.is_empty() {
                    // Upstream joins the messages with ";" into one error.
                    sink.error(
                        &entry.field("value"),
                        "toleration/invalid-value",
                        errors.join(";"),
                    );
                }
            }
            "Exists" => {
                if !toleration.value.is_empty() {
                    sink.error(
                        &entry.field("value"),
                        "toleration/invalid-value",
                        "value must be empty when `operator` is 'Exists'",
                    );
                }
            }
            other => sink.error(
                &entry.field("operator"),
                "toleration/invalid-operator",
                unsupported(other, &["Equal", "Exists"]),
            ),
        }
        if !toleration.effect.is_empty() && !TAINT_EFFECTS.contains(&toleration.effect.as_str()) {
            sink.error(
                &entry.field("effect"),
                "toleration/invalid-effect",
                unsupported(&toleration.effect, &TAINT_EFFECTS),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    //! The toleration cases of upstream's `TestValidatePod` and `TestValidateTolerations`.

    use super::*;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn toleration(
        key: &str,
        operator: &str,
        value: &str,
        effect: &str,
        seconds: Option<i64>,
    ) -> Toleration {
        Toleration {
            key: key.into(),
            operator: operator.into(),
            value: value.into(),
            effect: effect.into(),
            toleration_seconds: seconds,
        }
    }

    fn run(list: &[Toleration]) -> Vec<(String, &'static str, String)> {
        let mut sink = Sink::default();
        let spec = At::root("spec");
        tolerations(list, &spec.field("tolerations"), &mut sink);
        sink.finish()
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    #[test]
    fn valid_tolerations() {
        let valid = [
            toleration("foo", "Exists", "", "NoSchedule", None),
            toleration("foo", "Equal", "bar", "NoSchedule", None),
            toleration("foo", "", "bar", "PreferNoSchedule", None),
            toleration("", "Exists", "", "", None),
            toleration(
                "node.kubernetes.io/not-ready",
                "Exists",
                "",
                "NoExecute",
                Some(300),
            ),
            // "negative tolerationSeconds is OK for toleration."
            toleration(
                "node.kubernetes.io/not-ready",
                "Exists",
                "",
                "NoExecute",
                Some(-2),
            ),
            toleration("", "Exists", "", "NoExecute", Some(60)),
        ];
        assert!(run(&valid).is_empty(), "{:?}", run(&valid));
    }

    #[test]
    fn invalid_toleration_key() {
        let found = run(&[toleration(
            "nospecialchars^=@",
            "Equal",
            "bar",
            "NoSchedule",
            None,
        )]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "spec.tolerations[0].key");
        assert_eq!(found[0].2, names::LABEL_KEY_NAME_FORMAT);
    }

    #[test]
    fn invalid_toleration_operator() {
        let found = run(&[toleration("foo", "In", "bar", "NoSchedule", None)]);
        assert_eq!(
            found,
            [(
                "spec.tolerations[0].operator".into(),
                "toleration/invalid-operator",
                r#"Unsupported value: "In": supported values: "Equal", "Exists""#.into()
            )]
        );
    }

    #[test]
    fn value_must_be_empty_when_operator_is_exists() {
        let found = run(&[toleration("foo", "Exists", "bar", "NoSchedule", None)]);
        assert_eq!(
            found,
            [(
                "spec.tolerations[0].value".into(),
                "toleration/invalid-value",
                "value must be empty when `operator` is 'Exists'".into()
            )]
        );
    }

    #[test]
    fn operator_must_be_exists_when_key_is_empty() {
        let found = run(&[toleration("", "Equal", "bar", "NoSchedule", None)]);
        assert_eq!(
            found,
            [(
                "spec.tolerations[0].operator".into(),
                "toleration/invalid-operator",
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"".into()
            )]
        );
    }

    #[test]
    fn effect_must_be_no_execute_when_toleration_seconds_is_set() {
        let found = run(&[toleration(
            "node.kubernetes.io/not-ready",
            "Exists",
            "",
            "NoSchedule",
            Some(20),
        )]);
        assert_eq!(
            found,
            [(
                "spec.tolerations[0].effect".into(),
                "toleration/seconds-without-no-execute",
                "effect must be 'NoExecute' when `tolerationSeconds` is set".into()
            )]
        );
    }

    #[test]
    fn invalid_effect_and_value() {
        let found = run(&[toleration(
            "foo",
            "Equal",
            "-bar",
            "NoScheduleNoAdmit",
            None,
        )]);
        assert_eq!(found[0].0, "spec.tolerations[0].value");
        assert_eq!(found[0].2, names::LABEL_VALUE_FORMAT);
        assert_eq!(
            found[1].2,
            r#"Unsupported value: "NoScheduleNoAdmit": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute""#
        );
        // The reference's adversarial row 40, all four at once.
        let found = run(&[
            toleration("", "Exists", "x", "", None),
            toleration("", "Equal", "", "", None),
            toleration("k", "", "", "NoSchedule", Some(30)),
            toleration("k", "In", "", "", None),
        ]);
        let codes: Vec<(String, &str)> = found.into_iter().map(|f| (f.0, f.1)).collect();
        assert_eq!(
            codes,
            [
                (
                    "spec.tolerations[0].value".into(),
                    "toleration/invalid-value"
                ),
                (
                    "spec.tolerations[1].operator".into(),
                    "toleration/invalid-operator"
                ),
                (
                    "spec.tolerations[2].effect".into(),
                    "toleration/seconds-without-no-execute"
                ),
                (
                    "spec.tolerations[3].operator".into(),
                    "toleration/invalid-operator"
                ),
            ]
        );
    }
}
