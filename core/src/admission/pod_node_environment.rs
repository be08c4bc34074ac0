//! OriginPodNodeEnvironment: an OpenShift project's node selector is merged into its pods.
//!
//! Follows origin's `pkg/scheduler/admission/nodeenv/admission.go` (OpenShift 3.11). The
//! project selector is the namespace annotation `openshift.io/node-selector`, or without
//! it the master's `projectConfig.defaultNodeSelector`; an empty annotation means no
//! selector. Namespaces carrying PodNodeSelector's annotation are left to that plugin. A
//! pod whose selector gives a project key another value is forbidden; otherwise the two
//! are merged, the pod's values winning.
//!
//! Example: project annotated `openshift.io/node-selector: region=east`: a pod selecting
//! `type=ssd` is admitted with `region=east,type=ssd`; one selecting `region=west` is not.
//!
//! The plugin is on by default in OpenShift 3.11 and absent from Kubernetes (see
//! [`super::Chain::new`]); a namespace missing from the input counts as one without
//! annotations.

use alloc::string::String;

use super::selector_text::{self, conflicts, merge};
use crate::model::{Namespace, Pod};

/// The project annotation the plugin reads.
pub const ANNOTATION: &str = "openshift.io/node-selector";

/// Merges the project selector into the pod, or says why the pod is forbidden.
///
/// # Errors
/// The upstream message on a conflict; a parse problem when the selector is not one.
pub fn admit(
    pod: &mut Pod,
    namespace: Option<&Namespace>,
    default_node_selector: &str,
) -> Result<(), String> {
    let annotations = namespace.map(|namespace| &namespace.metadata.annotations);
    if annotations
        .is_some_and(|annotations| annotations.contains_key(super::pod_node_selector::ANNOTATION))
    {
        return Ok(());
    }
    let text = annotations
        .and_then(|annotations| annotations.get(ANNOTATION))
        .map_or(default_node_selector, String::as_str);
    let project_selector = selector_text::parse(text)
        .map_err(|problem| alloc::format!("project node selector `{text}`: {problem}"))?;
    if conflicts(&project_selector, &pod.spec.node_selector) {
        return Err(super::forbidden(
            super::name_before_generation(&pod.metadata),
            "pod node label selector conflicts with its project node label selector",
        ));
    }
    pod.spec.node_selector = merge(&project_selector, &pod.spec.node_selector);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admission::selector_text::map;

    fn project(annotations: &[(&str, &str)]) -> Namespace {
        let mut namespace = Namespace::default();
        namespace.metadata.name = "testProject".into();
        namespace.metadata.annotations = map(annotations);
        namespace
    }

    fn pod(selector: &[(&str, &str)]) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.name = "testPod".into();
        pod.spec.node_selector = map(selector);
        pod
    }

    /// origin's `TestPodAdmission` table (nodeenv): default selector, project annotation
    /// (`None`: absent), pod selector, selector after admission, admitted.
    #[test]
    fn upstream_admission_table() {
        type Case<'a> = (
            &'a str,
            Option<&'a str>,
            &'a [(&'a str, &'a str)],
            &'a [(&'a str, &'a str)],
            bool,
        );
        let cases: [Case<'_>; 8] = [
            ("", None, &[], &[], true),
            ("infra = false", None, &[], &[("infra", "false")], true),
            ("", Some("infra = false"), &[], &[("infra", "false")], true),
            ("infra = false", Some(""), &[], &[], true),
            (
                "infra = false",
                Some("infra=true"),
                &[],
                &[("infra", "true")],
                true,
            ),
            (
                "infra = false",
                Some("infra=true"),
                &[("env", "test")],
                &[("infra", "true"), ("env", "test")],
                true,
            ),
            (
                "env = test",
                Some("infra=true"),
                &[("infra", "false")],
                &[("infra", "false")],
                false,
            ),
            (
                "env=dev",
                Some("infra=false, env = test"),
                &[("env", "dev"), ("color", "blue")],
                &[("env", "dev"), ("color", "blue")],
                false,
            ),
        ];
        for (default, annotation, selector, merged, admitted) in cases {
            let ns = project(annotation.map(|text| (ANNOTATION, text)).as_slice());
            let mut p = pod(selector);
            let result = admit(&mut p, Some(&ns), default);
            if admitted {
                assert_eq!(result, Ok(()), "{default} {annotation:?} {selector:?}");
            } else {
                assert_eq!(
                    result,
                    Err("pods \"testPod\" is forbidden: pod node label selector conflicts with its project node label selector".into())
                );
            }
            assert_eq!(p.spec.node_selector, map(merged));
        }
    }

    #[test]
    fn the_default_applies_without_the_annotation_only() {
        let mut p = pod(&[]);
        assert_eq!(admit(&mut p, Some(&project(&[])), "region=east"), Ok(()));
        assert_eq!(p.spec.node_selector, map(&[("region", "east")]));
        let mut p = pod(&[]);
        assert_eq!(admit(&mut p, None, "region=east"), Ok(()));
        assert_eq!(p.spec.node_selector, map(&[("region", "east")]));
    }

    #[test]
    fn namespaces_with_the_kubernetes_annotation_are_left_alone() {
        let ns = project(&[
            (super::super::pod_node_selector::ANNOTATION, "a=b"),
            (ANNOTATION, "c=d"),
        ]);
        let mut p = pod(&[("c", "x")]);
        assert_eq!(admit(&mut p, Some(&ns), "e=f"), Ok(()));
        assert_eq!(p.spec.node_selector, map(&[("c", "x")]));
    }
}
