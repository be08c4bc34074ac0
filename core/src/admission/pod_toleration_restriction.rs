//! PodTolerationRestriction: new pods get their namespace's default tolerations, pods that
//! are not BestEffort tolerate memory pressure, and a namespace may whitelist the
//! tolerations its pods carry.
//!
//! Follows `plugin/pkg/admission/podtolerationrestriction/admission.go` and
//! `pkg/util/tolerations/tolerations.go` of Kubernetes 1.11; OpenShift 3.11 runs it by
//! default, Kubernetes 1.34 only when enabled (which kubefit does not model). On creation
//! the defaults are the namespace annotation `scheduler.alpha.kubernetes.io/defaultTolerations`
//! (a JSON list of tolerations; an empty text is an empty list) when the namespace has it,
//! else the plugin configuration's `default`. A pod with tolerations of its own is refused
//! when a default and one of its tolerations share key and effect but differ otherwise
//! (`IsConflict`); otherwise the defaults are merged into its tolerations. A pod that is not
//! BestEffort (1.11's `GetPodQOS`, which reads cpu and memory of the regular containers)
//! then has `{key: node.kubernetes.io/memory-pressure, operator: Exists, effect: NoSchedule}`
//! merged in. Last, the tolerations must pass the whitelist: the annotation
//! `scheduler.alpha.kubernetes.io/tolerationsWhitelist` when the namespace has it, else the
//! configuration's `whitelist`; an empty whitelist passes everything.
//!
//! 1.11 compares lists by key and effect, keeping in each list the last toleration of a
//! key and effect (`ConvertTolerationToAMap`). `MergeTolerations(first, second)` keeps all
//! of `second` and adds, from `first`, those kept tolerations whose key and effect `second`
//! lacks; the memory-pressure merge puts that toleration first and so keeps one toleration
//! per key and effect of the pod's. A toleration passes the whitelist when the whitelist's
//! kept toleration of its key and effect equals it in every field (`VerifyAgainstWhitelist`).
//!
//! Example: in a namespace annotated
//! `[{"key":"dedicated","operator":"Equal","value":"team","effect":"NoSchedule"}]`, a pod
//! without tolerations tolerates `dedicated=team:NoSchedule`; a Burstable pod tolerating
//! `dedicated=a:NoSchedule` and `dedicated=b:NoSchedule` keeps only the second.
//!
//! kubefit differences: upstream adds the tolerations of `first` in Go's map order, which
//! changes from one run to the next; kubefit adds them in their order in `first`. A
//! namespace missing from the input counts as one without annotations (upstream refuses
//! the pod). An annotation is read with the input's rules (exact field names, a repeated
//! key refused) rather than Go's `encoding/json`, and an annotation that cannot be read
//! refuses the pod, as upstream does, in kubefit's words rather than Go's.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{Namespace, Pod, PodSpec, Toleration};
use crate::resources::{self, QosClass};

/// The namespace annotation with the default tolerations of its new pods.
pub const DEFAULTS: &str = "scheduler.alpha.kubernetes.io/defaultTolerations";

/// The namespace annotation with the tolerations its pods may have.
pub const WHITELIST: &str = "scheduler.alpha.kubernetes.io/tolerationsWhitelist";

/// The taint of a node under memory pressure, which pods other than BestEffort tolerate.
pub const MEMORY_PRESSURE: &str = "node.kubernetes.io/memory-pressure";

/// The plugin configuration's cluster-wide lists (empty when not configured).
#[derive(Clone, Copy, Debug, Default)]
pub struct Config<'a> {
    /// `default`: the tolerations of new pods whose namespace has no annotation for them.
    pub default: &'a [Toleration],
    /// `whitelist`: what pods may tolerate whose namespace has no annotation for it.
    pub whitelist: &'a [Toleration],
}

/// Merges the default and memory-pressure tolerations into a pod being created, or says
/// why it is refused; the pod is unchanged when it is refused.
///
/// # Errors
/// Upstream's message when the pod's tolerations conflict with the defaults or leave the
/// whitelist; what is wrong with an annotation that is not a list of tolerations.
pub fn admit(
    pod: &mut Pod,
    namespace: Option<&Namespace>,
    config: Config<'_>,
) -> Result<(), String> {
    let annotated = annotation(namespace, DEFAULTS)?;
    let defaults = annotated.as_deref().unwrap_or(config.default);
    let own = &pod.spec.tolerations;
    let mut tolerations = if defaults.is_empty() {
        own.clone()
    } else if own.is_empty() {
        defaults.to_vec()
    } else if conflict(defaults, own) {
        return Err("namespace tolerations and pod tolerations conflict".into());
    } else {
        merge(defaults, own)
    };
    if !best_effort(&pod.spec) {
        let memory_pressure = Toleration {
            key: MEMORY_PRESSURE.into(),
            operator: "Exists".into(),
            effect: "NoSchedule".into(),
            ..Toleration::default()
        };
        tolerations = merge(&tolerations, core::slice::from_ref(&memory_pressure));
    }
    if !tolerations.is_empty() {
        let annotated = annotation(namespace, WHITELIST)?;
        let whitelist = annotated.as_deref().unwrap_or(config.whitelist);
        if !allowed(&tolerations, whitelist) {
            return Err("pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist".into());
        }
    }
    pod.spec.tolerations = tolerations;
    Ok(())
}

/// The tolerations of a namespace annotation, if the namespace has it (`extractNSTolerations`:
/// an empty text is an empty list, and so is JSON `null`).
fn annotation(namespace: Option<&Namespace>, key: &str) -> Result<Option<Vec<Toleration>>, String> {
    let Some(text) = namespace.and_then(|namespace| namespace.metadata.annotations.get(key)) else {
        return Ok(None);
    };
    if text.is_empty() {
        return Ok(Some(Vec::new()));
    }
    crate::input::decode_json::<Option<Vec<Toleration>>>(text)
        .map(Option::unwrap_or_default)
        .map(Some)
        .map_err(|problem| alloc::format!("namespace annotation `{key}`: {problem}"))
}

/// The toleration that stands for `like`'s key and effect in `list`: the last one with
/// them, as a map keyed by them keeps it (`ConvertTolerationToAMap`).
fn kept<'t>(list: &'t [Toleration], like: &Toleration) -> Option<&'t Toleration> {
    list.iter()
        .rev()
        .find(|toleration| toleration.key == like.key && toleration.effect == like.effect)
}

/// `IsConflict`: a kept toleration of `first` and one of `second` share key and effect
/// and differ in another field.
fn conflict(first: &[Toleration], second: &[Toleration]) -> bool {
    first.iter().any(|toleration| {
        let ours = kept(first, toleration);
        kept(second, toleration).is_some_and(|theirs| Some(theirs) != ours)
    })
}

/// `MergeTolerations`: all of `second`, then the kept tolerations of `first` whose key and
/// effect `second` lacks, in their order in `first`.
fn merge(first: &[Toleration], second: &[Toleration]) -> Vec<Toleration> {
    let mut merged = second.to_vec();
    for toleration in first {
        let is_kept = kept(first, toleration).is_some_and(|last| core::ptr::eq(last, toleration));
        if is_kept && kept(second, toleration).is_none() {
            merged.push(toleration.clone());
        }
    }
    merged
}

/// `VerifyAgainstWhitelist`: every kept toleration equals the whitelist's kept toleration of
/// its key and effect, unless the whitelist is empty.
fn allowed(tolerations: &[Toleration], whitelist: &[Toleration]) -> bool {
    whitelist.is_empty()
        || tolerations
            .iter()
            .all(|toleration| kept(whitelist, toleration) == kept(tolerations, toleration))
}

/// BestEffort as 1.11's `GetPodQOS` classes a pod: from its regular containers alone.
fn best_effort(spec: &PodSpec) -> bool {
    let class = if resources::containers_only(spec) {
        resources::qos_class(spec)
    } else {
        resources::qos_class(&PodSpec {
            containers: spec.containers.clone(),
            ..PodSpec::default()
        })
    };
    class == QosClass::BestEffort
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admission::selector_text::map;
    use crate::quantity::Quantity;

    fn toleration(key: &str, value: &str, effect: &str) -> Toleration {
        Toleration {
            key: key.into(),
            operator: if value.is_empty() { "Exists" } else { "Equal" }.into(),
            value: value.into(),
            effect: effect.into(),
            toleration_seconds: None,
        }
    }

    fn memory_pressure() -> Toleration {
        toleration(MEMORY_PRESSURE, "", "NoSchedule")
    }

    fn namespace(annotations: &[(&str, &str)]) -> Namespace {
        let mut namespace = Namespace::default();
        namespace.metadata.name = "team".into();
        namespace.metadata.annotations = map(annotations);
        namespace
    }

    /// A pod in `team` with these tolerations, Burstable (100m of cpu) or BestEffort.
    fn pod(tolerations: &[Toleration], burstable: bool) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.name = "p".into();
        pod.metadata.namespace = "team".into();
        pod.spec.tolerations = tolerations.to_vec();
        let mut container = crate::model::Container::default();
        if burstable {
            let cpu = Quantity::parse("100m").unwrap();
            container.resources.requests.insert("cpu".into(), cpu);
        }
        pod.spec.containers.push(container);
        pod
    }

    /// The admitted pod's tolerations, or the refusal.
    fn admitted(
        mut pod: Pod,
        namespace: Option<&Namespace>,
        config: Config<'_>,
    ) -> Result<Vec<Toleration>, String> {
        admit(&mut pod, namespace, config).map(|()| pod.spec.tolerations)
    }

    const CONFLICT: &str = "namespace tolerations and pod tolerations conflict";
    const OUTSIDE: &str = "pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist";

    /// `MergeTolerations` keeps `second` whole and adds, in order, the last toleration of
    /// each key and effect of `first` that `second` does not have.
    #[test]
    fn merge_goes_by_key_and_effect() {
        let first = [
            toleration("k", "a", "NoSchedule"),
            toleration("x", "", "NoExecute"),
            toleration("k", "b", "NoSchedule"),
            toleration("k", "c", "NoExecute"),
        ];
        let second = [toleration("x", "y", "NoExecute")];
        assert_eq!(
            merge(&first, &second),
            [
                toleration("x", "y", "NoExecute"),
                toleration("k", "b", "NoSchedule"),
                toleration("k", "c", "NoExecute"),
            ]
        );
    }

    /// The memory-pressure merge comes first and leaves a pod that is not BestEffort one
    /// toleration per key and effect, the last; a BestEffort pod keeps its own as they are.
    #[test]
    fn pods_that_are_not_best_effort_tolerate_memory_pressure() {
        let own = [
            toleration("dedicated", "a", "NoSchedule"),
            toleration("dedicated", "b", "NoSchedule"),
        ];
        assert_eq!(
            admitted(pod(&own, true), None, Config::default()),
            Ok(alloc::vec![
                memory_pressure(),
                toleration("dedicated", "b", "NoSchedule")
            ])
        );
        assert_eq!(
            admitted(pod(&own, false), None, Config::default()),
            Ok(own.to_vec())
        );
        // A toleration of the memory-pressure taint's key and effect gives way; one for
        // every effect stays.
        let own = [
            toleration(MEMORY_PRESSURE, "a", "NoSchedule"),
            toleration(MEMORY_PRESSURE, "", ""),
        ];
        assert_eq!(
            admitted(pod(&own, true), None, Config::default()),
            Ok(alloc::vec![
                memory_pressure(),
                toleration(MEMORY_PRESSURE, "", "")
            ])
        );
        // 1.11 classes pods by their regular containers: an init container's request
        // leaves a pod BestEffort.
        let mut init = pod(&[], false);
        init.spec.init_containers = pod(&[], true).spec.containers;
        assert_eq!(admitted(init, None, Config::default()), Ok(Vec::new()));
    }

    /// The namespace's defaults, or the configuration's when the namespace has no
    /// annotation: given to a pod without tolerations as they are, merged after the
    /// pod's own, and a refusal when they disagree with the pod's on a key and effect.
    #[test]
    fn namespace_defaults_merge_or_conflict() {
        let team = toleration("dedicated", "team", "NoSchedule");
        let text = r#"[{"key":"dedicated","operator":"Equal","value":"team","effect":"NoSchedule"},
            {"key":"dedicated","operator":"Equal","value":"team","effect":"NoSchedule"}]"#;
        let ns = namespace(&[(DEFAULTS, text)]);
        assert_eq!(
            admitted(pod(&[], false), Some(&ns), Config::default()),
            Ok(alloc::vec![team.clone(), team.clone()])
        );
        let own = toleration("gpu", "", "NoSchedule");
        assert_eq!(
            admitted(
                pod(core::slice::from_ref(&own), false),
                Some(&ns),
                Config::default()
            ),
            Ok(alloc::vec![own, team.clone()])
        );
        // Only the last toleration of a key and effect counts on either side.
        let own = [toleration("dedicated", "x", "NoSchedule"), team.clone()];
        assert_eq!(
            admitted(pod(&own, false), Some(&ns), Config::default()),
            Ok(own.to_vec())
        );
        let own = [toleration("dedicated", "x", "NoSchedule")];
        assert_eq!(
            admitted(pod(&own, true), Some(&ns), Config::default()),
            Err(CONFLICT.into())
        );
        // Another effect is another key.
        let own = [toleration("dedicated", "x", "NoExecute")];
        assert!(admitted(pod(&own, false), Some(&ns), Config::default()).is_ok());
        // The cluster default applies without the annotation; an empty annotation, or
        // JSON null, overrides it.
        let config = Config {
            default: core::slice::from_ref(&team),
            whitelist: &[],
        };
        for (namespace, expected) in [
            (None, alloc::vec![team.clone()]),
            (Some(namespace(&[])), alloc::vec![team.clone()]),
            (Some(namespace(&[(DEFAULTS, "")])), Vec::new()),
            (Some(namespace(&[(DEFAULTS, " null ")])), Vec::new()),
            (Some(namespace(&[(DEFAULTS, "[]")])), Vec::new()),
        ] {
            assert_eq!(
                admitted(pod(&[], false), namespace.as_ref(), config),
                Ok(expected)
            );
        }
    }

    /// The whitelist holds the final tolerations, memory pressure included, field by
    /// field; the namespace's annotation, even empty, replaces the configuration's.
    #[test]
    fn whitelist_checks_the_final_tolerations() {
        let team = toleration("dedicated", "team", "NoSchedule");
        let config = Config {
            default: &[],
            whitelist: core::slice::from_ref(&team),
        };
        assert!(admitted(pod(core::slice::from_ref(&team), false), None, config).is_ok());
        let mut longer = team.clone();
        longer.toleration_seconds = Some(5);
        assert_eq!(
            admitted(pod(&[longer], false), None, config),
            Err(OUTSIDE.into())
        );
        assert_eq!(
            admitted(pod(core::slice::from_ref(&team), true), None, config),
            Err(OUTSIDE.into())
        );
        // An earlier toleration of a key and effect is not what the whitelist sees.
        let own = [toleration("dedicated", "x", "NoSchedule"), team.clone()];
        assert!(admitted(pod(&own, false), None, config).is_ok());
        let text = r#"[{"key":"node.kubernetes.io/memory-pressure","operator":"Exists","effect":"NoSchedule"}]"#;
        let ns = namespace(&[(WHITELIST, text)]);
        assert_eq!(
            admitted(pod(&[], true), Some(&ns), config),
            Ok(alloc::vec![memory_pressure()])
        );
        let open = namespace(&[(WHITELIST, "")]);
        assert!(admitted(pod(core::slice::from_ref(&team), true), Some(&open), config).is_ok());
        // A pod left without tolerations is not checked: a broken whitelist is not read.
        let broken = namespace(&[(WHITELIST, "[")]);
        assert_eq!(
            admitted(pod(&[], false), Some(&broken), config),
            Ok(Vec::new())
        );
    }

    /// An annotation that is not a list of tolerations refuses the pod, which stays as it was.
    #[test]
    fn a_broken_annotation_refuses_the_pod() {
        let own = [toleration("gpu", "", "NoSchedule")];
        for (text, problem) in [
            (
                r#"[{"key": 5}]"#,
                "`[0].key`: expected a string, found the number `5`",
            ),
            ("[{", "expected a string key, found the end of the input"),
            (
                "[] x",
                "expected the end of the text after the value, found `x`",
            ),
            (
                r#"[{"key":"a","key":"b"}]"#,
                "mapping key `key` already defined",
            ),
        ] {
            let ns = namespace(&[(DEFAULTS, text)]);
            let mut refused = pod(&own, true);
            let result = admit(&mut refused, Some(&ns), Config::default());
            let expected = alloc::format!("namespace annotation `{DEFAULTS}`: {problem}");
            assert_eq!(result, Err(expected), "{text}");
            assert_eq!(refused.spec.tolerations, own);
        }
    }
}
