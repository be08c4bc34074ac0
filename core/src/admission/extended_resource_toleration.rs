//! ExtendedResourceToleration: a pod that asks for an extended resource tolerates the
//! `NoSchedule` taint of that resource's name, which operators put on the nodes that have it.
//!
//! Upstream: `plugin/pkg/admission/extendedresourcetoleration/admission.go`, off by default
//! in both releases (OpenShift 3.11 turns it on through the master configuration). For
//! each extended resource the containers or init containers request (`IsExtendedResourceName`;
//! requests are defaulted from limits by then), in name order, the pod gets
//! `{key: <resource>, operator: Exists, effect: NoSchedule}`, added or put in place of a
//! toleration with the same key, operator, value and effect. Example: a pod with a limit of
//! `nvidia.com/gpu: 1` tolerates `nvidia.com/gpu=present:NoSchedule`.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use crate::model::{Pod, Toleration};
use crate::validation::is_extended;

/// Adds the tolerations for the pod's extended resources.
pub fn admit(pod: &mut Pod) {
    let resources: BTreeSet<&str> = pod
        .spec
        .containers
        .iter()
        .chain(&pod.spec.init_containers)
        .flat_map(|container| container.resources.requests.keys())
        .map(String::as_str)
        .filter(|name| is_extended(name))
        .collect();
    let wanted: Vec<Toleration> = resources
        .into_iter()
        .map(|resource| Toleration {
            key: String::from(resource),
            operator: String::from("Exists"),
            value: String::new(),
            effect: String::from("NoSchedule"),
            toleration_seconds: None,
        })
        .collect();
    for toleration in &wanted {
        crate::owners::add_or_update(&mut pod.spec.tolerations, toleration);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// `admission_test.go`: one toleration per extended resource, in name order, init
    /// containers included; native resources and `kubernetes.io/` ones get none.
    #[test]
    fn each_extended_resource_is_tolerated_once() {
        let mut pod: Pod = serde_json::from_value(serde_json::json!({"spec": {
            "initContainers": [{"name": "i", "resources": {"requests": {"example.com/b": "1"}}}],
            "containers": [
                {"name": "a", "resources": {"requests": {"cpu": "1", "example.com/c": "1", "example.com/b": "1"}}},
                {"name": "b", "resources": {"requests": {"kubernetes.io/x": "1"}}}
            ],
            "tolerations": [{"key": "example.com/c", "operator": "Exists", "effect": "NoSchedule"}]
        }}))
        .unwrap_or_default();
        admit(&mut pod);
        let keys: Vec<&str> = pod
            .spec
            .tolerations
            .iter()
            .map(|t| t.key.as_str())
            .collect();
        assert_eq!(keys, ["example.com/c", "example.com/b"]);
    }
}
