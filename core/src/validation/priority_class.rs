//! `PriorityClass`: value ceiling, reserved `system-` names and preemption policy.
//!
//! Upstream: `ValidatePriorityClass` in `pkg/apis/scheduling/validation/validation.go`
//! and `IsKnownSystemPriorityClass` in `pkg/apis/scheduling/v1/helpers.go`.

use crate::model::PriorityClass;

use super::metadata::{self, NameRule};
use super::path::{At, Sink};
use super::pod;

/// `HighestUserDefinablePriority`.
pub const HIGHEST_USER_DEFINABLE_PRIORITY: i32 = 1_000_000_000;

/// `SystemCriticalPriority`.
pub const SYSTEM_CRITICAL_PRIORITY: i32 = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;

/// The classes the API server creates at start-up, with their values.
pub const SYSTEM_PRIORITY_CLASSES: [(&str, i32); 2] = [
    ("system-node-critical", SYSTEM_CRITICAL_PRIORITY + 1000),
    ("system-cluster-critical", SYSTEM_CRITICAL_PRIORITY),
];

/// Every rule a PriorityClass breaks.
pub(super) fn validate(class: &PriorityClass, sink: &mut Sink) {
    metadata::validate(&class.metadata, NameRule::Subdomain, sink);
    let name = &class.metadata.name;
    if name.starts_with("system-") {
        if let Err(reason) = known_system_class(name, class.value, class.global_default) {
            let metadata = At::root("metadata");
            sink.error(
                &metadata.field("name"),
                "priority-class/reserved-name",
                alloc::format!("priority class names with 'system-' prefix are reserved for system use only. error: {reason}"),
            );
        }
    } else if class.value > HIGHEST_USER_DEFINABLE_PRIORITY {
        sink.error(
            &At::root("value"),
            "priority-class/value-too-high",
            alloc::format!("maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"),
        );
    }
    if let Some(policy) = &class.preemption_policy {
        pod::preemption_policy(
            policy,
            &At::root("preemptionPolicy"),
            "priority-class/invalid-preemption-policy",
            sink,
        );
    }
}

/// `IsKnownSystemPriorityClass`: the name, value and `globalDefault` of a system class.
fn known_system_class(
    name: &str,
    value: i32,
    global_default: bool,
) -> Result<(), alloc::string::String> {
    match SYSTEM_PRIORITY_CLASSES
        .iter()
        .find(|(known, _)| *known == name)
    {
        Some((known, wanted)) if *wanted != value => Err(alloc::format!(
            "value of {known} PriorityClass must be {wanted}"
        )),
        Some((known, _)) if global_default => Err(alloc::format!(
            "globalDefault of {known} PriorityClass must be false"
        )),
        Some(_) => Ok(()),
        None => Err(alloc::format!(
            "{name} is not a known system priority class"
        )),
    }
}

#[cfg(test)]
mod tests {
    //! Upstream's `TestValidatePriorityClass`, with messages.

    use super::*;
    use crate::input::Resource;
    use crate::model::ObjectMeta;
    use crate::validation::validate as validate_resource;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn class(name: &str, namespace: &str, value: i32, global_default: bool) -> PriorityClass {
        PriorityClass {
            metadata: ObjectMeta {
                name: name.into(),
                namespace: namespace.into(),
                ..ObjectMeta::default()
            },
            value,
            global_default,
            description: String::new(),
            preemption_policy: None,
        }
    }

    fn run(class: PriorityClass) -> Vec<(String, &'static str, String)> {
        validate_resource(&Resource::PriorityClass(class.into()))
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    #[test]
    fn success_cases() {
        assert_eq!(run(class("tier1", "", 100, false)), []);
        let mut described = class("tier1", "", 200, false);
        described.description = "Used for the highest priority pods.".into();
        described.preemption_policy = Some("Never".into());
        assert_eq!(run(described), []);
        assert_eq!(
            run(class("system-node-critical", "", 2_000_001_000, false)),
            []
        );
        assert_eq!(
            run(class("system-cluster-critical", "", 2_000_000_000, false)),
            []
        );
        assert_eq!(run(class("negative", "", i32::MIN, false)), []);
        assert_eq!(run(class("ceiling", "", 1_000_000_000, true)), []);
        // Upstream's "with namespace" error case is not one here: the API server clears
        // the namespace of a cluster-scoped object before it validates it.
        assert_eq!(run(class("tier1", "foo", 100, false)), []);
    }

    #[test]
    fn invalid_name() {
        let found = run(class("tier&1", "", 100, false));
        assert_eq!(found[0].0, "metadata.name");
        assert_eq!(found[0].1, "metadata/invalid-name");
    }

    #[test]
    fn incorrect_system_class_value() {
        assert_eq!(
            run(class("system-node-critical", "", 0, false)),
            [(
                "metadata.name".into(),
                "priority-class/reserved-name",
                "priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000".into()
            )]
        );
        assert_eq!(
            run(class("system-cluster-critical", "", 2_000_000_000, true))[0].2,
            "priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false"
        );
    }

    #[test]
    fn incorrect_system_class_name() {
        assert_eq!(
            run(class("system-something", "", 2_000_001_000, false))[0].2,
            "priority class names with 'system-' prefix are reserved for system use only. error: system-something is not a known system priority class"
        );
    }

    #[test]
    fn user_values_are_capped() {
        assert_eq!(
            run(class("my-high", "", 2_000_000_000, false)),
            [(
                "value".into(),
                "priority-class/value-too-high",
                "maximum allowed value of a user defined priority is 1000000000".into()
            )]
        );
    }

    #[test]
    fn preemption_policy() {
        let mut bad = class("tier1", "", 1, false);
        bad.preemption_policy = Some("Sometimes".into());
        assert_eq!(
            run(bad),
            [(
                "preemptionPolicy".into(),
                "priority-class/invalid-preemption-policy",
                "Unsupported value: \"Sometimes\": supported values: \"PreemptLowerPriority\", \"Never\"".into()
            )]
        );
    }
}
