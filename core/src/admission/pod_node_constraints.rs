//! PodNodeConstraints: users without the `pods/binding` permission may not set `nodeName`
//! nor select blacklisted node labels.
//!
//! Follows origin's `pkg/scheduler/admission/podnodeconstraints/admission.go` (OpenShift
//! 3.11). The plugin is on only when the master configuration configures it. It validates
//! the pod as the earlier plugins left it, so labels merged in from the project count.
//! kubefit does not know who creates a pod: it assumes a project user without
//! `pods/binding`, the role the chapter describes, and exempts what upstream's controllers
//! and nodes create (DaemonSet pods and mirror pods).
//!
//! Example: with `nodeSelectorLabelBlacklist: [region]`, a pod selecting `region=us-east`
//! is forbidden with "node selection by label(s) \[region\] is prohibited by policy for your
//! role".
//!
//! Upstream lists the blacklisted labels in map order, which varies; kubefit sorts them.

use alloc::string::String;
use alloc::vec::Vec;

use crate::model::Pod;

/// The annotation that marks a mirror pod (`kubernetes.io/config.mirror`).
const MIRROR_POD_ANNOTATION: &str = "kubernetes.io/config.mirror";

/// Checks the pod, or says why it is forbidden.
///
/// # Errors
/// The upstream message when the pod sets `nodeName` or a blacklisted label.
pub fn validate(pod: &Pod, blacklist: &[String]) -> Result<(), String> {
    let exempt = pod.metadata.annotations.contains_key(MIRROR_POD_ANNOTATION)
        || pod
            .metadata
            .controller()
            .is_some_and(|owner| owner.kind == "DaemonSet");
    if exempt {
        return Ok(());
    }
    let labels: Vec<&str> = pod
        .spec
        .node_selector
        .keys()
        .filter(|key| blacklist.contains(key))
        .map(String::as_str)
        .collect();
    let by_name = !pod.spec.node_name.is_empty();
    let what = match (by_name, labels.is_empty()) {
        (false, true) => return Ok(()),
        (true, true) => String::from("nodeName"),
        (false, false) => alloc::format!("label(s) [{}]", labels.join(" ")),
        (true, false) => alloc::format!("nodeName and label(s) [{}]", labels.join(" ")),
    };
    // A validating plugin runs after the API server generated the name (the registry's
    // `Create` calls `rest.BeforeCreate` first), so unlike the mutating plugins it sees it.
    Err(super::forbidden(
        &pod.metadata.name,
        &alloc::format!("node selection by {what} is prohibited by policy for your role"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    fn pod(node_name: &str, selector: &[&str]) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.name = "p".into();
        pod.spec.node_name = node_name.into();
        pod.spec.node_selector = selector
            .iter()
            .map(|key| ((*key).to_string(), "x".to_string()))
            .collect();
        pod
    }

    /// The three forbidden messages of upstream's `validatePodSpec`, and the cases that pass.
    #[test]
    fn upstream_table() {
        let blacklist = vec!["bogus".to_string(), "kubernetes.io/hostname".to_string()];
        assert_eq!(validate(&pod("", &[]), &blacklist), Ok(()));
        assert_eq!(validate(&pod("", &["foo"]), &blacklist), Ok(()));
        assert_eq!(
            validate(&pod("worker", &[]), &blacklist),
            Err("pods \"p\" is forbidden: node selection by nodeName is prohibited by policy for your role".into())
        );
        assert_eq!(
            validate(&pod("", &["bogus"]), &blacklist),
            Err("pods \"p\" is forbidden: node selection by label(s) [bogus] is prohibited by policy for your role".into())
        );
        assert_eq!(
            validate(&pod("worker", &["kubernetes.io/hostname", "bogus"]), &blacklist),
            Err("pods \"p\" is forbidden: node selection by nodeName and label(s) [bogus kubernetes.io/hostname] is prohibited by policy for your role".into())
        );
    }

    #[test]
    fn mirror_and_daemon_set_pods_are_exempt() {
        let mut mirror = pod("worker", &[]);
        mirror
            .metadata
            .annotations
            .insert(MIRROR_POD_ANNOTATION.into(), "x".into());
        assert_eq!(validate(&mirror, &[]), Ok(()));
        let mut daemon = pod("worker", &[]);
        daemon
            .metadata
            .owner_references
            .push(crate::model::OwnerReference {
                kind: "DaemonSet".into(),
                name: "agent".into(),
                controller: Some(true),
                ..Default::default()
            });
        assert_eq!(validate(&daemon, &[]), Ok(()));
    }
}
