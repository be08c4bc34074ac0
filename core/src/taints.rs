//! Taints and tolerations: which tolerations tolerate which taints.
//!
//! Follows `k8s.io/api/core/v1/toleration.go` (`ToleratesTaint`): an empty toleration
//! effect matches every effect, an empty key matches every key (with `Exists`), an empty
//! operator means `Equal`, and any other operator tolerates nothing.

use crate::model::{Taint, Toleration};

/// True if the toleration tolerates the taint.
#[must_use]
pub fn tolerates(toleration: &Toleration, taint: &Taint) -> bool {
    if !toleration.effect.is_empty() && toleration.effect != taint.effect {
        return false;
    }
    if !toleration.key.is_empty() && toleration.key != taint.key {
        return false;
    }
    match toleration.operator.as_str() {
        "Exists" => true,
        "" | "Equal" => toleration.value == taint.value,
        _ => false,
    }
}

/// True if some toleration tolerates the taint.
#[must_use]
pub fn tolerated(tolerations: &[Toleration], taint: &Taint) -> bool {
    tolerations
        .iter()
        .any(|toleration| tolerates(toleration, taint))
}

/// `key=value:Effect`, or `key:Effect` without a value, as `kubectl describe` prints taints.
#[must_use]
pub fn describe(taint: &Taint) -> alloc::string::String {
    if taint.value.is_empty() {
        alloc::format!("{}:{}", taint.key, taint.effect)
    } else {
        alloc::format!("{}={}:{}", taint.key, taint.value, taint.effect)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taint(key: &str, value: &str, effect: &str) -> Taint {
        Taint {
            key: key.into(),
            value: value.into(),
            effect: effect.into(),
            time_added: None,
        }
    }

    fn toleration(key: &str, operator: &str, value: &str, effect: &str) -> Toleration {
        Toleration {
            key: key.into(),
            operator: operator.into(),
            value: value.into(),
            effect: effect.into(),
            toleration_seconds: None,
        }
    }

    // Cases from `TestTolerationToleratesTaint` in k8s.io/api/core/v1/toleration_test.go.
    #[test]
    fn matches_like_upstream() {
        let t = taint("foo", "bar", "NoSchedule");
        assert!(tolerates(
            &toleration("foo", "Equal", "bar", "NoSchedule"),
            &t
        ));
        assert!(tolerates(&toleration("foo", "", "bar", "NoSchedule"), &t));
        assert!(tolerates(
            &toleration("foo", "Exists", "", "NoSchedule"),
            &t
        ));
        assert!(tolerates(&toleration("foo", "Exists", "", ""), &t));
        assert!(tolerates(&toleration("", "Exists", "", ""), &t));
        assert!(!tolerates(
            &toleration("foo", "Equal", "baz", "NoSchedule"),
            &t
        ));
        assert!(!tolerates(
            &toleration("foo", "Equal", "bar", "NoExecute"),
            &t
        ));
        assert!(!tolerates(&toleration("other", "Exists", "", ""), &t));
        assert!(!tolerates(&toleration("foo", "In", "bar", ""), &t));
        assert_eq!(describe(&t), "foo=bar:NoSchedule");
        assert_eq!(describe(&taint("k", "", "NoExecute")), "k:NoExecute");
    }
}
