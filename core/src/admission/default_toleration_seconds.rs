//! DefaultTolerationSeconds: pods that do not tolerate `not-ready` and `unreachable`
//! `NoExecute` taints get to stay five minutes on such a node.
//!
//! Upstream: `plugin/pkg/admission/defaulttolerationseconds/admission.go`. A pod already
//! tolerates a taint when one of its tolerations has that key or no key, and the
//! `NoExecute` effect or no effect; for each taint it does not tolerate, the plugin
//! appends `{key, operator: Exists, effect: NoExecute, tolerationSeconds: 300}`
//! (`not-ready` first). Example: a pod with no tolerations gets both; a pod with
//! `{operator: Exists}` gets neither.

use alloc::string::String;

use crate::model::{Pod, Toleration};

/// The taint the node lifecycle controller puts on a node whose `Ready` is `False`.
pub const NOT_READY: &str = "node.kubernetes.io/not-ready";
/// The taint the node lifecycle controller puts on a node whose `Ready` is `Unknown`.
pub const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
/// `--default-not-ready-toleration-seconds` and `--default-unreachable-toleration-seconds`.
pub const DEFAULT_SECONDS: i64 = 300;

/// Adds the default tolerations the pod lacks.
pub fn admit(pod: &mut Pod) {
    for key in [NOT_READY, UNREACHABLE] {
        let tolerated = pod.spec.tolerations.iter().any(|toleration| {
            (toleration.key == key || toleration.key.is_empty())
                && (toleration.effect == "NoExecute" || toleration.effect.is_empty())
        });
        if !tolerated {
            pod.spec.tolerations.push(Toleration {
                key: String::from(key),
                operator: String::from("Exists"),
                value: String::new(),
                effect: String::from("NoExecute"),
                toleration_seconds: Some(DEFAULT_SECONDS),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn toleration(key: &str, operator: &str, effect: &str, seconds: Option<i64>) -> Toleration {
        Toleration {
            key: key.into(),
            operator: operator.into(),
            value: String::new(),
            effect: effect.into(),
            toleration_seconds: seconds,
        }
    }

    fn admitted(tolerations: Vec<Toleration>) -> Vec<Toleration> {
        let mut pod = Pod::default();
        pod.spec.tolerations = tolerations;
        admit(&mut pod);
        pod.spec.tolerations
    }

    fn not_ready() -> Toleration {
        toleration(NOT_READY, "Exists", "NoExecute", Some(300))
    }

    fn unreachable() -> Toleration {
        toleration(UNREACHABLE, "Exists", "NoExecute", Some(300))
    }

    /// The cases of upstream's `TestForgivenessAdmission`.
    #[test]
    fn adds_what_the_pod_lacks() {
        assert_eq!(admitted(Vec::new()), [not_ready(), unreachable()]);
        let own = toleration("foo", "Equal", "NoSchedule", None);
        assert_eq!(
            admitted(alloc::vec![own.clone()]),
            [own, not_ready(), unreachable()]
        );
        let custom = toleration(NOT_READY, "Exists", "NoExecute", Some(700));
        assert_eq!(
            admitted(alloc::vec![custom.clone()]),
            [custom, unreachable()]
        );
        let custom = toleration(UNREACHABLE, "Exists", "NoExecute", Some(700));
        assert_eq!(admitted(alloc::vec![custom.clone()]), [custom, not_ready()]);
        let both = alloc::vec![
            toleration(NOT_READY, "Exists", "NoExecute", Some(700)),
            toleration(UNREACHABLE, "Exists", "NoExecute", Some(700)),
        ];
        assert_eq!(admitted(both.clone()), both);
        // A NoSchedule toleration of the key does not cover the NoExecute taint.
        let no_schedule = toleration(UNREACHABLE, "Exists", "NoSchedule", Some(700));
        assert_eq!(
            admitted(alloc::vec![no_schedule.clone()]),
            [no_schedule, not_ready(), unreachable()]
        );
        // An empty key and an empty effect tolerate everything.
        let all = toleration("", "Exists", "", None);
        assert_eq!(admitted(alloc::vec![all.clone()]), [all]);
        let all_no_execute = toleration("", "Exists", "NoExecute", Some(700));
        assert_eq!(
            admitted(alloc::vec![all_no_execute.clone()]),
            [all_no_execute]
        );
    }
}
