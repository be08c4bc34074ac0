//! The Priority admission plugin: resolves a pod's priority from its PriorityClass.
//!
//! Follows `plugin/pkg/admission/priority/admission.go`: an empty class name takes the
//! global default class (the lowest value if several claim it) or 0; the system classes
//! always exist; an unknown class or a `spec.priority` / `spec.preemptionPolicy` that
//! disagrees with the class rejects the pod with upstream's message.
//!
//! kubefit difference: a pod that already carries `spec.priority` (as every pod in a
//! `kubectl get` dump does) but names a class missing from the input keeps its priority,
//! with a warning, because the real cluster admitted it when it was created.

use alloc::string::String;

use crate::model::{Pod, PriorityClass};

/// `HighestUserDefinablePriority`: the largest value a non-system class may have.
pub const HIGHEST_USER_DEFINABLE_PRIORITY: i32 = 1_000_000_000;

/// `SystemCriticalPriority`, the value of `system-cluster-critical`.
pub const SYSTEM_CRITICAL_PRIORITY: i32 = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;

/// The classes the API server creates at start-up, with their values.
pub const SYSTEM_CLASSES: [(&str, i32); 2] = [
    ("system-node-critical", SYSTEM_CRITICAL_PRIORITY + 1000),
    ("system-cluster-critical", SYSTEM_CRITICAL_PRIORITY),
];

/// The preemption policy of pods whose class names none.
pub const DEFAULT_PREEMPTION_POLICY: &str = "PreemptLowerPriority";

/// What admission decided for one pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Admitted with this priority (the pod is updated in place).
    Admitted,
    /// Admitted, though the class is not in the input (kubefit's leniency, see module doc).
    AdmittedWithoutClass,
    /// Rejected with the API server's message.
    Rejected(String),
}

/// Resolves and sets `spec.priority`, `spec.priorityClassName` and `spec.preemptionPolicy`.
pub fn admit(pod: &mut Pod, classes: &[PriorityClass]) -> Decision {
    let forbidden = |reason: String| super::forbidden(&pod.metadata.name, &reason);
    let spec = &mut pod.spec;
    let (priority, preemption) = if spec.priority_class_name.is_empty() {
        match default_class(classes) {
            Some(class) => {
                spec.priority_class_name.clone_from(&class.metadata.name);
                (class.value, class.preemption_policy.clone())
            }
            None => (0, None),
        }
    } else if let Some(class) = classes
        .iter()
        .find(|class| class.metadata.name == spec.priority_class_name)
    {
        (class.value, class.preemption_policy.clone())
    } else if let Some((_, value)) = SYSTEM_CLASSES
        .iter()
        .find(|(name, _)| *name == spec.priority_class_name)
    {
        (*value, None)
    } else if spec.priority.is_some() {
        spec.preemption_policy
            .get_or_insert_with(|| String::from(DEFAULT_PREEMPTION_POLICY));
        return Decision::AdmittedWithoutClass;
    } else {
        return Decision::Rejected(forbidden(alloc::format!(
            "no PriorityClass with name {} was found",
            spec.priority_class_name
        )));
    };
    if let Some(given) = spec.priority {
        if given != priority {
            return Decision::Rejected(forbidden(alloc::format!(
                "the integer value of priority ({given}) must not be provided in pod spec; \
                 priority admission controller computed {priority} from the given PriorityClass name"
            )));
        }
    }
    let computed = preemption.unwrap_or_else(|| String::from(DEFAULT_PREEMPTION_POLICY));
    if let Some(given) = &spec.preemption_policy {
        if *given != computed {
            return Decision::Rejected(forbidden(alloc::format!(
                "the string value of PreemptionPolicy ({given}) must not be provided in pod spec; \
                 priority admission controller computed {computed} from the given PriorityClass name"
            )));
        }
    }
    spec.priority = Some(priority);
    spec.preemption_policy = Some(computed);
    Decision::Admitted
}

/// The global default class; with several, the one with the lowest value.
fn default_class(classes: &[PriorityClass]) -> Option<&PriorityClass> {
    classes
        .iter()
        .filter(|class| class.global_default)
        .min_by_key(|class| class.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn class(name: &str, value: i32, global_default: bool) -> PriorityClass {
        let mut class = PriorityClass {
            value,
            global_default,
            ..PriorityClass::default()
        };
        class.metadata.name = name.into();
        class
    }

    fn pod(class_name: &str, priority: Option<i32>) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.name = "web".into();
        pod.spec.priority_class_name = class_name.into();
        pod.spec.priority = priority;
        pod
    }

    #[test]
    fn empty_class_takes_the_lowest_global_default() {
        let classes = vec![
            class("a", 100, true),
            class("b", 50, true),
            class("c", 10, false),
        ];
        let mut p = pod("", None);
        assert_eq!(admit(&mut p, &classes), Decision::Admitted);
        assert_eq!(p.spec.priority, Some(50));
        assert_eq!(p.spec.priority_class_name, "b");
        assert_eq!(
            p.spec.preemption_policy.as_deref(),
            Some("PreemptLowerPriority")
        );
    }

    #[test]
    fn no_default_means_zero_and_system_classes_always_exist() {
        let mut p = pod("", None);
        assert_eq!(admit(&mut p, &[]), Decision::Admitted);
        assert_eq!(p.spec.priority, Some(0));
        let mut p = pod("system-node-critical", None);
        assert_eq!(admit(&mut p, &[]), Decision::Admitted);
        assert_eq!(p.spec.priority, Some(2_000_001_000));
    }

    #[test]
    fn unknown_class_and_mismatches_are_forbidden_with_upstream_messages() {
        let mut p = pod("gold", None);
        assert_eq!(
            admit(&mut p, &[]),
            Decision::Rejected(
                "pods \"web\" is forbidden: no PriorityClass with name gold was found".into()
            )
        );
        let mut p = pod("gold", Some(0));
        assert_eq!(
            admit(&mut p, &[class("gold", -10, false)]),
            Decision::Rejected(
                "pods \"web\" is forbidden: the integer value of priority (0) must not be provided in pod spec; \
                 priority admission controller computed -10 from the given PriorityClass name"
                    .into()
            )
        );
        let mut never = class("batch", 5, false);
        never.preemption_policy = Some("Never".into());
        let mut p = pod("batch", None);
        p.spec.preemption_policy = Some("PreemptLowerPriority".into());
        assert_eq!(
            admit(&mut p, &[never]),
            Decision::Rejected(
                "pods \"web\" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be \
                 provided in pod spec; priority admission controller computed Never from the given PriorityClass name"
                    .into()
            )
        );
    }

    #[test]
    fn dumped_pods_keep_their_priority_when_the_class_is_missing() {
        let mut p = pod("openshift-user-critical", Some(1_000_000_000));
        assert_eq!(admit(&mut p, &[]), Decision::AdmittedWithoutClass);
        assert_eq!(p.spec.priority, Some(1_000_000_000));
    }
}
