//! PodNodeSelector: a namespace's node selector is merged into its pods, and a pod may only
//! select the labels its namespace's whitelist allows.
//!
//! Follows `plugin/pkg/admission/podnodeselector/admission.go` (Kubernetes 1.11). The
//! namespace selector is the annotation `scheduler.alpha.kubernetes.io/node-selector`, or,
//! without it, `clusterDefaultNodeSelector` from the plugin configuration. A pod whose
//! selector gives one of those keys another value is forbidden; otherwise the selectors are
//! merged (the pod's values win) and the merged selector must lie within the whitelist the
//! configuration keeps under the namespace's name (an empty whitelist allows everything).
//!
//! Example: namespace `ns1` annotated `env=test,infra=fedora`, whitelist
//! `region=west,env=test,infra=fedora,os=fedora`: a pod selecting `env=test,os=fedora` is
//! admitted with `env=test,infra=fedora,os=fedora`; one selecting `env=production` is not.
//!
//! kubefit difference: a namespace missing from the input counts as one without
//! annotations (upstream would refuse the pod because the namespace does not exist).

use alloc::string::String;

use super::selector_text::{self, conflicts, merge};
use crate::model::{Namespace, Pod, StringMap};

/// The namespace annotation the plugin reads.
pub const ANNOTATION: &str = "scheduler.alpha.kubernetes.io/node-selector";

/// The configuration key of the cluster-wide default selector.
pub const CLUSTER_DEFAULT: &str = "clusterDefaultNodeSelector";

/// Merges the namespace selector into the pod, or says why the pod is forbidden.
///
/// # Errors
/// The upstream message when the selectors conflict or leave the whitelist; a parse
/// problem when the annotation or configuration is not a selector.
pub fn admit(
    pod: &mut Pod,
    namespace: Option<&Namespace>,
    config: &StringMap,
) -> Result<(), String> {
    let annotation = namespace.and_then(|namespace| namespace.metadata.annotations.get(ANNOTATION));
    let namespace_selector = match annotation {
        Some(text) => selector_text::parse(text)
            .map_err(|problem| alloc::format!("namespace annotation `{ANNOTATION}`: {problem}"))?,
        None => selector_text::parse(config.get(CLUSTER_DEFAULT).map_or("", String::as_str))
            .map_err(|problem| alloc::format!("`{CLUSTER_DEFAULT}`: {problem}"))?,
    };
    if conflicts(&namespace_selector, &pod.spec.node_selector) {
        return Err(super::forbidden(
            super::name_before_generation(&pod.metadata),
            "pod node label selector conflicts with its namespace node label selector",
        ));
    }
    let merged = merge(&namespace_selector, &pod.spec.node_selector);
    let whitelist = selector_text::parse(
        config
            .get(&pod.metadata.namespace)
            .map_or("", String::as_str),
    )
    .map_err(|problem| {
        alloc::format!("the whitelist of `{}`: {problem}", pod.metadata.namespace)
    })?;
    // `labels.AreLabelsInWhiteList`: every merged label must be in the whitelist with
    // the same value, unless the whitelist is empty.
    let allowed = whitelist.is_empty()
        || merged
            .iter()
            .all(|(key, value)| whitelist.get(key) == Some(value));
    if !allowed {
        return Err(super::forbidden(
            super::name_before_generation(&pod.metadata),
            "pod node label selector labels conflict with its namespace whitelist",
        ));
    }
    pod.spec.node_selector = merged;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::admission::selector_text::map;

    fn namespace(annotation: Option<&str>) -> Namespace {
        let mut namespace = Namespace::default();
        namespace.metadata.name = "ns1".into();
        if let Some(text) = annotation {
            namespace
                .metadata
                .annotations
                .insert(ANNOTATION.into(), text.into());
        }
        namespace
    }

    fn pod(selector: &[(&str, &str)]) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.name = "hello-pod".into();
        pod.metadata.namespace = "ns1".into();
        pod.spec.node_selector = map(selector);
        pod
    }

    /// The chapter's example (16.5.4).
    #[test]
    fn the_chapter_merges_and_rejects() {
        let config = map(&[
            (CLUSTER_DEFAULT, "k3=v3"),
            ("ns1", "region=west,env=test,infra=fedora,os=fedora"),
        ]);
        let ns = namespace(Some("env=test,infra=fedora"));
        let mut admitted = pod(&[("env", "test"), ("os", "fedora")]);
        assert_eq!(admit(&mut admitted, Some(&ns), &config), Ok(()));
        assert_eq!(
            admitted.spec.node_selector,
            map(&[("env", "test"), ("infra", "fedora"), ("os", "fedora")])
        );
        let mut production = pod(&[("env", "production"), ("infra", "fedora"), ("os", "fedora")]);
        assert_eq!(
            admit(&mut production, Some(&ns), &config),
            Err("pods \"hello-pod\" is forbidden: pod node label selector conflicts with its namespace node label selector".into())
        );
    }

    /// What upstream's `TestPodAdmission` covers: default, empty annotation, agreement, whitelist.
    #[test]
    fn upstream_admission_table() {
        let config = map(&[(CLUSTER_DEFAULT, "env=development"), ("ns1", "")]);
        // No annotation: the cluster default applies.
        let mut p = pod(&[]);
        assert_eq!(admit(&mut p, Some(&namespace(None)), &config), Ok(()));
        assert_eq!(p.spec.node_selector, map(&[("env", "development")]));
        // An empty annotation selects nothing, and overrides the default.
        let mut p = pod(&[]);
        assert_eq!(admit(&mut p, Some(&namespace(Some(""))), &config), Ok(()));
        assert!(p.spec.node_selector.is_empty());
        // Pod and namespace agree or are disjoint.
        let mut p = pod(&[("infra", "false")]);
        assert_eq!(
            admit(&mut p, Some(&namespace(Some("infra=false"))), &config),
            Ok(())
        );
        let mut p = pod(&[("env", "test")]);
        assert_eq!(
            admit(&mut p, Some(&namespace(Some("infra=false"))), &config),
            Ok(())
        );
        assert_eq!(
            p.spec.node_selector,
            map(&[("env", "test"), ("infra", "false")])
        );
        // A whitelist the merged selector leaves.
        let config = map(&[("ns1", "infra=false")]);
        let mut p = pod(&[("env", "test")]);
        assert_eq!(
            admit(&mut p, Some(&namespace(Some("infra=false"))), &config),
            Err("pods \"hello-pod\" is forbidden: pod node label selector labels conflict with its namespace whitelist".into())
        );
    }

    #[test]
    fn a_broken_annotation_is_reported() {
        let mut p = pod(&[]);
        let result = admit(&mut p, Some(&namespace(Some("env"))), &StringMap::new());
        assert!(result.is_err_and(|problem| problem.starts_with("namespace annotation")));
    }
}
