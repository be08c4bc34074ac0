//! The Priority admission plugin: resolves a pod's priority from its PriorityClass.
//!
//! Follows `plugin/pkg/admission/priority/admission.go`: an empty class name takes the
//! global default class (the lowest value if several claim it) or 0; the system classes
//! always exist; an unknown class or a `spec.priority` / `spec.preemptionPolicy` that
//! disagrees with the class rejects the pod with upstream's message. OpenShift 3.11
//! (Kubernetes 1.11) has no preemption policy, and allows the system classes only in
//! system namespaces.
//!
//! kubefit difference: a running pod that already carries `spec.priority` (as every pod
//! in a `kubectl get` dump does) but names a class missing from the input keeps its
//! priority, with a warning, because the real cluster admitted it when it was created. A
//! pod being created is refused, as upstream refuses it.

use alloc::string::String;

use crate::model::{Pod, PriorityClass};
use crate::schedule::Version;

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

/// Resolves and sets `spec.priority`, `spec.priorityClassName` and, in Kubernetes 1.34,
/// `spec.preemptionPolicy`. `created` says whether the pod is being created now (see
/// [`super::Chain::admit`]).
pub fn admit(
    pod: &mut Pod,
    classes: &[PriorityClass],
    version: Version,
    created: bool,
) -> Decision {
    let forbidden = |reason: String| super::forbidden(&pod.metadata.name, &reason);
    let namespace = pod.metadata.namespace.as_str();
    let spec = &mut pod.spec;
    let mut decision = Decision::Admitted;
    let (priority, preemption) = if spec.priority_class_name.is_empty() {
        match default_class(classes) {
            Some(class) => {
                spec.priority_class_name.clone_from(&class.metadata.name);
                (class.value, class.preemption_policy.clone())
            }
            None => (0, None),
        }
    } else if created
        && version == Version::Legacy
        && !permitted_in_namespace(&spec.priority_class_name, namespace)
    {
        return Decision::Rejected(forbidden(alloc::format!(
            "pods with {} priorityClass is not permitted in {namespace} namespace",
            spec.priority_class_name
        )));
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
    } else if let (Some(given), false) = (spec.priority, created) {
        decision = Decision::AdmittedWithoutClass;
        (given, spec.preemption_policy.clone())
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
    // Kubernetes 1.11 has no preemption policy: its decoder drops the pod's field.
    let preemption = match version {
        Version::Legacy => None,
        Version::Current => {
            let computed = preemption.unwrap_or_else(|| String::from(DEFAULT_PREEMPTION_POLICY));
            if let Some(given) = spec
                .preemption_policy
                .as_ref()
                .filter(|given| **given != computed)
            {
                return Decision::Rejected(forbidden(alloc::format!(
                    "the string value of PreemptionPolicy ({given}) must not be provided in pod spec; \
                     priority admission controller computed {computed} from the given PriorityClass name"
                )));
            }
            Some(computed)
        }
    };
    spec.priority = Some(priority);
    spec.preemption_policy = preemption;
    decision
}

/// OpenShift 3.11's `priorityClassPermittedInNamespace` (origin's vendored
/// `plugin/pkg/admission/priority/admission.go`, with its carry patch): the system classes
/// only in `kube-system` and `openshift-*` namespaces. Kubernetes 1.17 dropped the check.
fn permitted_in_namespace(class: &str, namespace: &str) -> bool {
    !SYSTEM_CLASSES.iter().any(|(name, _)| *name == class)
        || namespace == "kube-system"
        || namespace.starts_with("openshift-")
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
        assert_eq!(
            admit(&mut p, &classes, Version::Current, true),
            Decision::Admitted
        );
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
        assert_eq!(
            admit(&mut p, &[], Version::Current, true),
            Decision::Admitted
        );
        assert_eq!(p.spec.priority, Some(0));
        let mut p = pod("system-node-critical", None);
        assert_eq!(
            admit(&mut p, &[], Version::Current, true),
            Decision::Admitted
        );
        assert_eq!(p.spec.priority, Some(2_000_001_000));
    }

    #[test]
    fn unknown_class_and_mismatches_are_forbidden_with_upstream_messages() {
        let mut p = pod("gold", None);
        assert_eq!(
            admit(&mut p, &[], Version::Current, true),
            Decision::Rejected(
                "pods \"web\" is forbidden: no PriorityClass with name gold was found".into()
            )
        );
        let mut p = pod("gold", Some(0));
        assert_eq!(
            admit(&mut p, &[class("gold", -10, false)], Version::Current, true),
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
            admit(&mut p, &[never], Version::Current, true),
            Decision::Rejected(
                "pods \"web\" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be \
                 provided in pod spec; priority admission controller computed Never from the given PriorityClass name"
                    .into()
            )
        );
    }

    /// Running pods keep their priority when the class is missing; a pod being created is
    /// refused, as upstream refuses it whatever its `spec.priority`.
    #[test]
    fn dumped_pods_keep_their_priority_when_the_class_is_missing() {
        for version in [Version::Current, Version::Legacy] {
            let mut p = pod("openshift-user-critical", Some(1_000_000_000));
            assert_eq!(
                admit(&mut p, &[], version, false),
                Decision::AdmittedWithoutClass
            );
            assert_eq!(p.spec.priority, Some(1_000_000_000));
            let mut p = pod("gold", Some(5));
            assert_eq!(
                admit(&mut p, &[], version, true),
                Decision::Rejected(
                    "pods \"web\" is forbidden: no PriorityClass with name gold was found".into()
                )
            );
        }
    }

    /// OpenShift 3.11 allows the system classes only in `kube-system` and `openshift-*`
    /// namespaces, and only checks pods being created; Kubernetes 1.34 allows them anywhere.
    #[test]
    fn openshift_keeps_system_classes_in_system_namespaces() {
        let admitted = |namespace: &str, version, created| {
            let mut p = pod("system-cluster-critical", None);
            p.metadata.namespace = namespace.into();
            admit(&mut p, &[], version, created)
        };
        assert_eq!(
            admitted("default", Version::Legacy, true),
            Decision::Rejected(
                "pods \"web\" is forbidden: pods with system-cluster-critical priorityClass is not \
                 permitted in default namespace"
                    .into()
            )
        );
        for namespace in ["kube-system", "openshift-monitoring"] {
            assert_eq!(
                admitted(namespace, Version::Legacy, true),
                Decision::Admitted
            );
        }
        assert_eq!(
            admitted("default", Version::Legacy, false),
            Decision::Admitted
        );
        assert_eq!(
            admitted("default", Version::Current, true),
            Decision::Admitted
        );
    }

    /// Kubernetes 1.11 has no preemption policy: a pod's is dropped, never checked.
    #[test]
    fn openshift_has_no_preemption_policy() {
        let mut never = class("batch", 10, false);
        never.preemption_policy = Some("Never".into());
        let mut p = pod("batch", None);
        p.spec.preemption_policy = Some("PreemptLowerPriority".into());
        assert_eq!(
            admit(&mut p, &[never], Version::Legacy, true),
            Decision::Admitted
        );
        assert_eq!(
            (p.spec.priority, p.spec.preemption_policy),
            (Some(10), None)
        );
    }
}
