//! Pod requests and QoS classes as the descheduler's vendored Kubernetes 1.9 computes them.
//!
//! Upstream: `k8s.io/kubernetes/pkg/api/v1/resource/helpers.go` (`PodRequestsAndLimits`,
//! `GetResourceRequest`) and `pkg/apis/core/v1/helper/qos/qos.go` (`GetPodQOS`) at 1.9,
//! as `pkg/descheduler/pod/pods.go` and `strategies/lownodeutilization.go` call them.
//!
//! 1.9 differs from the rules behind [`PodEntry::qos`] and [`PodEntry::requests`]:
//! - QoS looks at regular containers only (init containers count since Kubernetes 1.15),
//!   and there are no pod-level resources;
//! - requests are the sum of the containers or the largest init container, whichever is
//!   larger per resource: no pod overhead, no pod-level resources, and an init container
//!   with `restartPolicy: Always` is a plain init container (1.9 does not know sidecars).
//!
//! The two agree for pods without init containers, overhead or pod-level resources, so
//! those reuse the entry's values.

use alloc::sync::Arc;

use crate::cluster::PodEntry;
use crate::model::{Container, PodSpec, ResourceList};
use crate::quantity::Quantity;
use crate::resources::{self, QosClass};

/// The QoS class 1.9's `GetPodQOS` gives: regular containers only.
pub(super) fn qos(entry: &PodEntry) -> QosClass {
    let spec = &entry.pod.spec;
    if entry.footprint.plain || resources::containers_only(spec) {
        return entry.qos;
    }
    resources::qos_class(&PodSpec {
        containers: spec.containers.clone(),
        ..PodSpec::default()
    })
}

/// The requests 1.9's `PodRequestsAndLimits` gives.
pub(super) fn requests(entry: &PodEntry) -> Arc<ResourceList> {
    let spec = &entry.pod.spec;
    if resources::containers_only(spec) {
        return Arc::clone(&entry.requests);
    }
    Arc::new(resources::pod_requests(&PodSpec {
        containers: spec.containers.clone(),
        init_containers: spec
            .init_containers
            .iter()
            .map(|container| Container {
                restart_policy: None,
                ..container.clone()
            })
            .collect(),
        ..PodSpec::default()
    }))
}

/// 1.9's `GetResourceRequest`: the containers' requests summed per container (cpu in
/// millicores, anything else in whole units, each rounded up), or the largest init
/// container's, whichever is larger.
pub(super) fn resource_request(spec: &PodSpec, name: &str) -> i64 {
    let amount = |quantity: &Quantity| {
        if name == "cpu" {
            quantity.milli_value()
        } else {
            quantity.value()
        }
    };
    let mut total: i64 = 0;
    for container in &spec.containers {
        if let Some(quantity) = container.resources.requests.get(name) {
            total = total.saturating_add(amount(quantity));
        }
    }
    for container in &spec.init_containers {
        if let Some(quantity) = container.resources.requests.get(name) {
            total = total.max(amount(quantity));
        }
    }
    total
}

/// Builders that mirror upstream's `test/test_utils.go`, for the ported test tables.
#[cfg(test)]
pub(super) mod testing {
    use alloc::string::String;
    use alloc::vec::Vec;

    use crate::cluster::{PodEntry, PodState};
    use crate::model::{Container, Node, NodeCondition, OwnerReference, Pod, ResourceList, Volume};
    use crate::quantity::{Format, Quantity};

    /// `BuildTestPod`: one container requesting `cpu` millicores and `memory` bytes
    /// (negative leaves the request out), in `default`, bound to `node`.
    pub fn build_pod(name: &str, cpu: i64, memory: i64, node: &str) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.name = name.into();
        pod.metadata.namespace = "default".into();
        pod.spec.node_name = node.into();
        let mut container = Container::default();
        if cpu >= 0 {
            container
                .resources
                .requests
                .insert("cpu".into(), Quantity::from_milli(cpu, Format::DecimalSi));
        }
        if memory >= 0 {
            container.resources.requests.insert(
                "memory".into(),
                Quantity::from_value(memory, Format::DecimalSi),
            );
        }
        pod.spec.containers.push(container);
        pod
    }

    /// `BuildTestNode`: capacity and allocatable of `millicpu`, `memory` bytes and `pods`,
    /// `Ready`.
    pub fn build_node(name: &str, millicpu: i64, memory: i64, pods: i64) -> Node {
        let mut node = Node::default();
        node.metadata.name = name.into();
        let list: ResourceList = [
            ("cpu", Quantity::from_milli(millicpu, Format::DecimalSi)),
            ("memory", Quantity::from_value(memory, Format::DecimalSi)),
            ("pods", Quantity::from_value(pods, Format::DecimalSi)),
        ]
        .into_iter()
        .map(|(name, quantity)| (String::from(name), quantity))
        .collect();
        node.status.capacity = list.clone();
        node.status.allocatable = Some(list);
        node.status.conditions.push(NodeCondition {
            type_: "Ready".into(),
            status: "True".into(),
            ..NodeCondition::default()
        });
        node
    }

    fn owned(mut pod: Pod, kind: &str, name: &str) -> Pod {
        pod.metadata.owner_references = alloc::vec![OwnerReference {
            api_version: "v1".into(),
            kind: kind.into(),
            name: name.into(),
            ..OwnerReference::default()
        }];
        pod
    }

    /// `GetReplicaSetOwnerRefList`: owned by `ReplicaSet/replicaset-1`.
    pub fn replica_set_owner(pod: Pod) -> Pod {
        owned(pod, "ReplicaSet", "replicaset-1")
    }

    /// `GetDaemonSetOwnerRefList`: owned by a DaemonSet.
    pub fn daemon_set_owner(pod: Pod) -> Pod {
        owned(pod, "DaemonSet", "")
    }

    /// `GetNormalPodOwnerRefList`: owned by a `Pod`.
    pub fn normal_owner(pod: Pod) -> Pod {
        owned(pod, "Pod", "")
    }

    /// `GetMirrorPodAnnotation`.
    pub fn mirror(mut pod: Pod) -> Pod {
        for (key, value) in [
            ("kubernetes.io/config.source", "api"),
            ("kubernetes.io/config.mirror", "mirror"),
        ] {
            pod.metadata.annotations.insert(key.into(), value.into());
        }
        pod
    }

    /// `GetCriticalPodAnnotation` (the namespace is left to the caller).
    pub fn critical(mut pod: Pod) -> Pod {
        pod.metadata.annotations.insert(
            super::super::evictable::CRITICAL_ANNOTATION.into(),
            String::new(),
        );
        pod
    }

    /// A `hostPath` volume that also sets `emptyDir`, as the upstream tests write it.
    pub fn with_local_storage(mut pod: Pod) -> Pod {
        let volume = serde_json::json!({
            "name": "sample",
            "hostPath": {"path": "somePath"},
            "emptyDir": {"sizeLimit": "10"},
        });
        if let Ok(volume) = serde_json::from_value::<Volume>(volume) {
            pod.spec.volumes.push(volume);
        }
        pod
    }

    /// Bound entries, as `Cluster::build` would make them for bound pods.
    pub fn entries(pods: Vec<Pod>) -> Vec<PodEntry> {
        pods.into_iter()
            .map(|pod| {
                let priority = pod.spec.priority.unwrap_or(0);
                PodEntry::new(pod, PodState::Bound, priority)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{build_pod, entries};
    use super::*;
    use crate::quantity::Format;

    fn container(cpu: &str, memory: &str) -> Container {
        let mut container = Container::default();
        for (name, value) in [("cpu", cpu), ("memory", memory)] {
            if !value.is_empty() {
                if let Ok(quantity) = Quantity::parse(value) {
                    container.resources.requests.insert(name.into(), quantity);
                    container.resources.limits.insert(name.into(), quantity);
                }
            }
        }
        container
    }

    #[test]
    fn init_containers_do_not_change_the_class_in_1_9() {
        let mut pod = build_pod("p", -1, -1, "n1");
        pod.spec.containers = alloc::vec![Container::default()];
        pod.spec.init_containers = alloc::vec![container("1", "1Gi")];
        let [entry] = <[PodEntry; 1]>::try_from(entries(alloc::vec![pod])).unwrap();
        assert_eq!(
            entry.qos,
            QosClass::Burstable,
            "the current rule counts init containers"
        );
        assert_eq!(qos(&entry), QosClass::BestEffort);
    }

    #[test]
    fn requests_leave_out_overhead_and_treat_sidecars_as_init_containers() {
        let mut pod = build_pod("p", 500, 1000, "n1");
        pod.spec
            .overhead
            .insert("cpu".into(), Quantity::from_milli(250, Format::DecimalSi));
        let mut sidecar = container("300m", "");
        sidecar.restart_policy = Some("Always".into());
        pod.spec.init_containers = alloc::vec![sidecar, container("700m", "")];
        let [entry] = <[PodEntry; 1]>::try_from(entries(alloc::vec![pod.clone()])).unwrap();
        // Current rule: 500m + 300m sidecar, or 300m + 700m at the second init step,
        // plus 250m overhead.
        assert_eq!(
            entry.requests.get("cpu").map(Quantity::milli_value),
            Some(1250)
        );
        assert_eq!(
            requests(&entry).get("cpu").map(Quantity::milli_value),
            Some(700)
        );
        assert_eq!(resource_request(&pod.spec, "cpu"), 700);
        assert_eq!(resource_request(&pod.spec, "memory"), 1000);
    }
}
