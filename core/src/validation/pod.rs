//! `Pod` and the pod spec that workloads embed in their template.
//!
//! Upstream: `ValidatePodCreate`, `ValidatePodSpec`, `validateContainers`,
//! `validateInitContainers`, `validateContainerCommon`, `validateContainerPorts`,
//! `checkHostPortConflicts`, `validatePodHostNetworkDeps`, `validateRestartPolicy`,
//! `ValidatePreemptionPolicy`, `ValidateVolumes` (names only) and
//! `validateTopologySpreadConstraints` in `pkg/apis/core/validation/validation.go`.
//!
//! Only the fields kubefit models are checked. In particular a container's `image` is
//! not required: kubefit plans placement, and manifests written for it often omit it.

use crate::model::{Container, ContainerPort, Pod, PodSpec, TopologySpreadConstraint, Volume};

use super::affinity;
use super::metadata::{self, NameRule};
use super::names;
use super::path::{duplicate, unsupported, At, Sink};
use super::resources::{self, Scope};
use super::selector;
use super::toleration;
use super::Violation;

/// Every rule a Pod breaks.
pub(super) fn validate(pod: &Pod, sink: &mut Sink) {
    metadata::validate(&pod.metadata, NameRule::Subdomain, sink);
    let spec = At::root("spec");
    pod_spec(&pod.spec, true, &spec, sink);
    // Upstream cannot decode such a pod (`metav1.Time` is RFC 3339); preemption, the only
    // reader, takes it as not started.
    if let Some(time) = &pod.status.start_time {
        if crate::timestamp::parse(time).is_none() {
            sink.warning(
                &At::root("status").field("startTime"),
                "pod/invalid-start-time",
                alloc::format!("`{time}` is not an RFC 3339 time; the pod counts as not started"),
            );
        }
    }
}

/// `ValidatePodSpec` for the modelled fields. `is_pod` adds the checks upstream makes
/// only for pods, not for templates.
pub(super) fn pod_spec(spec: &PodSpec, is_pod: bool, at: &At<'_>, sink: &mut Sink) {
    volumes(&spec.volumes, &at.field("volumes"), sink);
    containers(spec, is_pod, at, sink);
    if let Some(resources) = &spec.resources {
        resources::requirements(resources, Scope::Pod, &at.field("resources"), sink);
    }
    host_network(spec, at, sink);
    restart_policy(&spec.restart_policy, &at.field("restartPolicy"), sink);
    metadata::labels(&spec.node_selector, &at.field("nodeSelector"), sink);
    if let Some(affinity) = &spec.affinity {
        affinity::affinity(affinity, &at.field("affinity"), sink);
    }
    topology_spread(
        &spec.topology_spread_constraints,
        &at.field("topologySpreadConstraints"),
        sink,
    );
    if !spec.node_name.is_empty() {
        sink.errors(
            &at.field("nodeName"),
            "pod/invalid-node-name",
            &names::dns1123_subdomain(&spec.node_name),
        );
    }
    toleration::tolerations(&spec.tolerations, &at.field("tolerations"), sink);
    if !spec.priority_class_name.is_empty() {
        sink.errors(
            &at.field("priorityClassName"),
            "pod/invalid-priority-class-name",
            &names::dns1123_subdomain(&spec.priority_class_name),
        );
    }
    if let Some(policy) = &spec.preemption_policy {
        preemption_policy(
            policy,
            &at.field("preemptionPolicy"),
            "pod/invalid-preemption-policy",
            sink,
        );
    }
    resources::overhead(&spec.overhead, &at.field("overhead"), sink);
    scheduling_gates(spec, is_pod, at, sink);
}

/// `validateSchedulingGates`: qualified, unique names; and (`ValidatePodCreate`) a pod is
/// not created on a node while gates hold it.
fn scheduling_gates(spec: &PodSpec, is_pod: bool, at: &At<'_>, sink: &mut Sink) {
    let gates = at.field("schedulingGates");
    for (index, gate) in spec.scheduling_gates.iter().enumerate() {
        let entry = gates.index(index);
        sink.errors(
            &entry,
            "pod/invalid-scheduling-gate",
            &names::qualified_name(&gate.name),
        );
        let earlier = spec.scheduling_gates.get(..index).unwrap_or_default();
        if earlier.iter().any(|other| other.name == gate.name) {
            sink.error(
                &entry,
                "pod/duplicate-scheduling-gate",
                duplicate(&gate.name),
            );
        }
    }
    if is_pod && !spec.node_name.is_empty() && !spec.scheduling_gates.is_empty() {
        sink.error(
            &at.field("nodeName"),
            "pod/gated-node-name",
            "cannot be set until all schedulingGates have been cleared",
        );
    }
}

/// `ValidatePreemptionPolicy`, shared with PriorityClass.
pub(super) fn preemption_policy(policy: &str, at: &At<'_>, code: &'static str, sink: &mut Sink) {
    match policy {
        "PreemptLowerPriority" | "Never" => {}
        "" => sink.error(at, code, "Required value"),
        other => sink.error(
            at,
            code,
            unsupported(other, &["PreemptLowerPriority", "Never"]),
        ),
    }
}

/// `validateRestartPolicy`; empty is read as the default, `Always`.
fn restart_policy(policy: &str, at: &At<'_>, sink: &mut Sink) {
    if !matches!(policy, "" | "Always" | "OnFailure" | "Never") {
        sink.error(
            at,
            "pod/invalid-restart-policy",
            unsupported(policy, &["Always", "OnFailure", "Never"]),
        );
    }
}

/// `ValidateVolumes`, for names (required, a DNS label, unique) and claim names.
fn volumes(volumes: &[Volume], at: &At<'_>, sink: &mut Sink) {
    for (index, volume) in volumes.iter().enumerate() {
        let name = at.index(index);
        let name = name.field("name");
        if volume.name.is_empty() {
            sink.error(&name, "volume/invalid-name", "Required value");
            continue;
        }
        sink.errors(
            &name,
            "volume/invalid-name",
            &names::dns1123_label(&volume.name),
        );
        let earlier = volumes.get(..index).unwrap_or_default();
        if earlier.iter().any(|other| other.name == volume.name) {
            sink.error(&name, "volume/duplicate-name", duplicate(&volume.name));
        }
        if let Some(claim) = &volume.persistent_volume_claim {
            if claim.claim_name.is_empty() {
                let volume_at = at.index(index);
                let source = volume_at.field("persistentVolumeClaim");
                sink.error(
                    &source.field("claimName"),
                    "volume/missing-claim-name",
                    "Required value",
                );
            }
        }
    }
}

/// `validateContainers` and `validateInitContainers`.
fn containers(spec: &PodSpec, is_pod: bool, at: &At<'_>, sink: &mut Sink) {
    let regular = at.field("containers");
    if spec.containers.is_empty() {
        sink.push(
            Violation::error(regular.path(), "pod/no-containers", "Required value")
                .with_help("a pod needs at least one entry in `containers`"),
        );
    }
    for (index, container) in spec.containers.iter().enumerate() {
        let entry = regular.index(index);
        container_common(container, is_pod, &entry, sink);
        let earlier = spec.containers.get(..index).unwrap_or_default();
        if earlier.iter().any(|other| other.name == container.name) {
            sink.error(
                &entry.field("name"),
                "container/duplicate-name",
                duplicate(&container.name),
            );
        }
        if container.restart_policy.is_some() {
            sink.error(
                &entry.field("restartPolicy"),
                "container/forbidden-restart-policy",
                "may not be set for non-init containers",
            );
        }
    }
    host_port_conflicts(&spec.containers, 0, &regular, sink);
    let init = at.field("initContainers");
    for (index, container) in spec.init_containers.iter().enumerate() {
        let entry = init.index(index);
        container_common(container, is_pod, &entry, sink);
        if let Some(policy) = &container.restart_policy {
            if policy != "Always" {
                sink.error(
                    &entry.field("restartPolicy"),
                    "container/invalid-restart-policy",
                    unsupported(policy, &["Always"]),
                );
            }
        }
        // Init container names must differ from every regular container and every named
        // earlier init container (upstream does not record empty init container names).
        let earlier = spec.init_containers.get(..index).unwrap_or_default();
        let clash = spec
            .containers
            .iter()
            .any(|other| other.name == container.name)
            || earlier
                .iter()
                .any(|other| !other.name.is_empty() && other.name == container.name);
        if clash {
            sink.error(
                &entry.field("name"),
                "container/duplicate-name",
                duplicate(&container.name),
            );
        }
        // Init containers run one at a time, so each is checked on its own.
        host_port_conflicts(core::slice::from_ref(container), index, &init, sink);
    }
}

/// `validateContainerCommon` for the modelled fields.
fn container_common(container: &Container, is_pod: bool, at: &At<'_>, sink: &mut Sink) {
    let name = at.field("name");
    if container.name.is_empty() {
        sink.error(&name, "container/invalid-name", "Required value");
    } else {
        sink.errors(
            &name,
            "container/invalid-name",
            &names::dns1123_label(&container.name),
        );
    }
    if is_pod && container.image.trim() != container.image {
        sink.error(
            &at.field("image"),
            "container/invalid-image",
            "must not have leading or trailing whitespace",
        );
    }
    ports(&container.ports, &at.field("ports"), sink);
    resources::requirements(
        &container.resources,
        Scope::Container,
        &at.field("resources"),
        sink,
    );
}

/// `validateContainerPorts`; an empty protocol is read as the default, `TCP`.
fn ports(ports: &[ContainerPort], at: &At<'_>, sink: &mut Sink) {
    for (index, port) in ports.iter().enumerate() {
        let entry = at.index(index);
        if !port.name.is_empty() {
            let errors = names::port_name(&port.name);
            if !errors.is_empty() {
                sink.errors(&entry.field("name"), "port/invalid-name", &errors);
            } else if ports
                .get(..index)
                .unwrap_or_default()
                .iter()
                .any(|other| other.name == port.name)
            {
                sink.error(
                    &entry.field("name"),
                    "port/duplicate-name",
                    duplicate(&port.name),
                );
            }
        }
        if port.container_port == 0 {
            sink.error(
                &entry.field("containerPort"),
                "port/invalid-number",
                "Required value",
            );
        } else if !(1..=65535).contains(&port.container_port) {
            sink.error(
                &entry.field("containerPort"),
                "port/invalid-number",
                "must be between 1 and 65535, inclusive",
            );
        }
        if port.host_port != 0 && !(1..=65535).contains(&port.host_port) {
            sink.error(
                &entry.field("hostPort"),
                "port/invalid-number",
                "must be between 1 and 65535, inclusive",
            );
        }
        if !matches!(port.protocol.as_str(), "" | "TCP" | "UDP" | "SCTP") {
            sink.error(
                &entry.field("protocol"),
                "port/invalid-protocol",
                unsupported(&port.protocol, &["SCTP", "TCP", "UDP"]),
            );
        }
    }
}

/// `checkHostPortConflicts`: a `protocol/hostIP/hostPort` triple may appear once.
/// `first` is the list index of `containers[0]`.
fn host_port_conflicts(containers: &[Container], first: usize, at: &At<'_>, sink: &mut Sink) {
    let mut seen = 0_usize;
    for (container_index, container) in containers.iter().enumerate() {
        for (port_index, port) in container.ports.iter().enumerate() {
            if port.host_port == 0 {
                continue;
            }
            let clash = containers
                .iter()
                .flat_map(|other| other.ports.iter())
                .filter(|other| other.host_port != 0)
                .take(seen)
                .any(|other| {
                    other.host_port == port.host_port
                        && other.host_ip == port.host_ip
                        && protocol(other) == protocol(port)
                });
            seen += 1;
            if clash {
                let container_at = at.index(first + container_index);
                let ports = container_at.field("ports");
                let port_at = ports.index(port_index);
                let key = alloc::format!("{}/{}/{}", protocol(port), port.host_ip, port.host_port);
                sink.error(
                    &port_at.field("hostPort"),
                    "port/host-port-conflict",
                    duplicate(&key),
                );
            }
        }
    }
}

/// A port's protocol, empty being read as the default, `TCP`.
fn protocol(port: &ContainerPort) -> &str {
    if port.protocol.is_empty() {
        "TCP"
    } else {
        &port.protocol
    }
}

/// `validatePodHostNetworkDeps`: with `hostNetwork`, a host port equals its container
/// port (an unset host port is defaulted to it).
fn host_network(spec: &PodSpec, at: &At<'_>, sink: &mut Sink) {
    if !spec.host_network {
        return;
    }
    let containers = at.field("containers");
    for (container_index, container) in spec.containers.iter().enumerate() {
        for (port_index, port) in container.ports.iter().enumerate() {
            if port.host_port != 0 && port.host_port != port.container_port {
                let container_at = containers.index(container_index);
                let ports = container_at.field("ports");
                let port_at = ports.index(port_index);
                sink.error(
                    &port_at.field("hostPort"),
                    "port/host-network-mismatch",
                    "must match `containerPort` when `hostNetwork` is true",
                );
            }
        }
    }
}

/// `validateTopologySpreadConstraints`.
fn topology_spread(constraints: &[TopologySpreadConstraint], at: &At<'_>, sink: &mut Sink) {
    for (index, constraint) in constraints.iter().enumerate() {
        let entry = at.index(index);
        if constraint.max_skew <= 0 {
            sink.error(
                &entry.field("maxSkew"),
                "topology-spread/invalid-max-skew",
                "must be greater than zero",
            );
        }
        if constraint.topology_key.is_empty() {
            sink.error(
                &entry.field("topologyKey"),
                "topology-spread/empty-topology-key",
                "can not be empty",
            );
        }
        let action = constraint.when_unsatisfiable.as_str();
        if !matches!(action, "DoNotSchedule" | "ScheduleAnyway") {
            sink.error(
                &entry.field("whenUnsatisfiable"),
                "topology-spread/invalid-when-unsatisfiable",
                unsupported(action, &["DoNotSchedule", "ScheduleAnyway"]),
            );
        }
        let later = constraints.get(index + 1..).unwrap_or_default();
        if later.iter().any(|other| {
            other.topology_key == constraint.topology_key
                && other.when_unsatisfiable == constraint.when_unsatisfiable
        }) {
            let pair = alloc::format!(
                "{{{}, {}}}",
                constraint.topology_key,
                constraint.when_unsatisfiable
            );
            sink.error(
                &entry.field("{topologyKey, whenUnsatisfiable}"),
                "topology-spread/duplicate",
                duplicate(&pair),
            );
        }
        if let Some(min_domains) = constraint.min_domains {
            let at = entry.field("minDomains");
            if min_domains <= 0 {
                sink.error(
                    &at,
                    "topology-spread/invalid-min-domains",
                    "must be greater than zero",
                );
            }
            if action != "DoNotSchedule" {
                sink.error(
                    &at,
                    "topology-spread/invalid-min-domains",
                    alloc::format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {action}"
                    ),
                );
            }
        }
        for (field, policy) in [
            ("nodeAffinityPolicy", &constraint.node_affinity_policy),
            ("nodeTaintsPolicy", &constraint.node_taints_policy),
        ] {
            if let Some(policy) = policy {
                if !matches!(policy.as_str(), "Honor" | "Ignore") {
                    sink.error(
                        &entry.field(field),
                        "topology-spread/invalid-policy",
                        unsupported(policy, &["Honor", "Ignore"]),
                    );
                }
            }
        }
        let keys = entry.field("matchLabelKeys");
        affinity::keys(
            &constraint.match_label_keys,
            constraint.label_selector.as_ref(),
            &keys,
            affinity::KeyCodes {
                without_selector: "topology-spread/label-keys-without-selector",
                invalid: "topology-spread/invalid-label-key",
            },
            sink,
        );
        if let Some(labels) = &constraint.label_selector {
            selector::label_selector(labels, &entry.field("labelSelector"), sink);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Resource;
    use crate::validation::validate as validate_resource;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn pod(json: serde_json::Value) -> Pod {
        serde_json::from_value(json).unwrap()
    }

    fn run(pod: Pod) -> Vec<(String, &'static str, String)> {
        validate_resource(&Resource::Pod(pod.into()))
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    fn spec_errors(spec: serde_json::Value) -> Vec<(String, &'static str, String)> {
        run(pod(
            serde_json::json!({"metadata": {"name": "p", "namespace": "ns"}, "spec": spec}),
        ))
    }

    #[test]
    fn a_start_time_must_be_rfc_3339() {
        let with = |time: &str| {
            run(pod(serde_json::json!({
                "metadata": {"name": "p", "namespace": "ns"},
                "spec": {"containers": [{"name": "c", "image": "x"}]},
                "status": {"startTime": time},
            })))
        };
        assert_eq!(with("2024-01-01T10:00:00.5+02:00"), []);
        assert_eq!(
            with("2024-01-01 10:00"),
            [(
                String::from("status.startTime"),
                "pod/invalid-start-time",
                String::from(
                    "`2024-01-01 10:00` is not an RFC 3339 time; the pod counts as not started"
                )
            )]
        );
    }

    #[test]
    fn a_realistic_pod_is_valid() {
        let pod = pod(serde_json::json!({
            "metadata": {
                "name": "web-7d4b9c8f6d-x2x9q",
                "generateName": "web-7d4b9c8f6d-",
                "namespace": "shop",
                "labels": {"app.kubernetes.io/name": "web", "pod-template-hash": "7d4b9c8f6d"},
                "annotations": {"kubectl.kubernetes.io/restartedAt": "2024-05-01T10:00:00Z"},
                "ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-7d4b9c8f6d", "uid": "1", "controller": true}]
            },
            "spec": {
                "nodeName": "ip-10-0-1-23.eu-west-1.compute.internal",
                "priorityClassName": "high",
                "preemptionPolicy": "PreemptLowerPriority",
                "restartPolicy": "Always",
                "schedulerName": "default-scheduler",
                "terminationGracePeriodSeconds": 30,
                "nodeSelector": {"kubernetes.io/os": "linux"},
                "initContainers": [
                    {"name": "setup", "image": "busybox", "resources": {"requests": {"cpu": "100m"}}},
                    {"name": "proxy", "image": "envoy", "restartPolicy": "Always", "ports": [{"containerPort": 9901, "name": "admin"}]}
                ],
                "containers": [{
                    "name": "web",
                    "image": "nginx:1.27",
                    "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}, {"containerPort": 8443, "hostPort": 8443}],
                    "resources": {
                        "requests": {"cpu": "250m", "memory": "64Mi", "nvidia.com/gpu": "1"},
                        "limits": {"cpu": "1", "memory": "128Mi", "nvidia.com/gpu": "1"}
                    }
                }, {
                    "name": "sidecar",
                    "image": "fluent-bit",
                    "resources": {"limits": {"memory": "32Mi"}}
                }],
                "tolerations": [
                    {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
                    {"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"}
                ],
                "affinity": {
                    "nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                        {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["eu-west-1a", "eu-west-1b"]}]}
                    ]}},
                    "podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                        {"weight": 100, "podAffinityTerm": {"labelSelector": {"matchLabels": {"app.kubernetes.io/name": "web"}}, "topologyKey": "kubernetes.io/hostname"}}
                    ]}
                },
                "topologySpreadConstraints": [{
                    "maxSkew": 1,
                    "topologyKey": "topology.kubernetes.io/zone",
                    "whenUnsatisfiable": "DoNotSchedule",
                    "minDomains": 2,
                    "labelSelector": {"matchLabels": {"app.kubernetes.io/name": "web"}},
                    "matchLabelKeys": ["pod-template-hash"],
                    "nodeTaintsPolicy": "Honor"
                }],
                "overhead": {"cpu": "250m", "memory": "120Mi"},
                "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data"}}, {"name": "tmp", "emptyDir": {}}]
            }
        }));
        assert_eq!(run(pod), []);
    }

    #[test]
    fn a_pod_needs_a_container() {
        let found = spec_errors(serde_json::json!({"containers": []}));
        assert_eq!(
            found,
            [(
                "spec.containers".into(),
                "pod/no-containers",
                "Required value".into()
            )]
        );
    }

    #[test]
    fn container_names() {
        // Upstream TestValidateContainers: "zero-length name", "name > 63 characters",
        // "name not a DNS label", "name not unique".
        let found = spec_errors(serde_json::json!({
            "containers": [{"name": ""}, {"name": "a".repeat(64)}, {"name": "a.b.c"}, {"name": "abc"}, {"name": "abc"}],
            "initContainers": [{"name": "abc"}]
        }));
        assert_eq!(
            found,
            [
                (
                    "spec.containers[0].name".into(),
                    "container/invalid-name",
                    "Required value".into()
                ),
                (
                    "spec.containers[1].name".into(),
                    "container/invalid-name",
                    names::DNS1123_LABEL_TOO_LONG.into()
                ),
                (
                    "spec.containers[2].name".into(),
                    "container/invalid-name",
                    names::DNS1123_LABEL_DOTS.into()
                ),
                (
                    "spec.containers[4].name".into(),
                    "container/duplicate-name",
                    "Duplicate value: \"abc\"".into()
                ),
                (
                    "spec.initContainers[0].name".into(),
                    "container/duplicate-name",
                    "Duplicate value: \"abc\"".into()
                ),
            ]
        );
    }

    #[test]
    fn container_restart_policies() {
        let found = spec_errors(serde_json::json!({
            "containers": [{"name": "a", "restartPolicy": "Always"}],
            "initContainers": [{"name": "b", "restartPolicy": "OnFailure"}]
        }));
        assert_eq!(
            found,
            [
                (
                    "spec.containers[0].restartPolicy".into(),
                    "container/forbidden-restart-policy",
                    "may not be set for non-init containers".into()
                ),
                (
                    "spec.initContainers[0].restartPolicy".into(),
                    "container/invalid-restart-policy",
                    "Unsupported value: \"OnFailure\": supported values: \"Always\"".into()
                ),
            ]
        );
    }

    #[test]
    fn container_ports() {
        // Upstream TestValidateContainerPorts error cases.
        let found = spec_errors(serde_json::json!({
            "containers": [{"name": "a", "ports": [
                {"name": "name-too-long-for-a-port", "containerPort": 80},
                {"containerPort": 0},
                {"containerPort": 65536},
                {"containerPort": 80, "hostPort": 65536},
                {"containerPort": 81, "protocol": "ICMP"},
                {"name": "p", "containerPort": 82},
                {"name": "p", "containerPort": 83}
            ]}]
        }));
        let rows: Vec<(String, String)> = found.into_iter().map(|f| (f.0, f.2)).collect();
        assert_eq!(
            rows,
            [
                (
                    "spec.containers[0].ports[0].name".into(),
                    "must be no more than 15 characters".into()
                ),
                (
                    "spec.containers[0].ports[1].containerPort".into(),
                    "Required value".into()
                ),
                (
                    "spec.containers[0].ports[2].containerPort".into(),
                    "must be between 1 and 65535, inclusive".into()
                ),
                (
                    "spec.containers[0].ports[3].hostPort".into(),
                    "must be between 1 and 65535, inclusive".into()
                ),
                (
                    "spec.containers[0].ports[4].protocol".into(),
                    "Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\""
                        .into()
                ),
                (
                    "spec.containers[0].ports[6].name".into(),
                    "Duplicate value: \"p\"".into()
                ),
            ]
        );
    }

    #[test]
    fn host_ports_are_unique_per_protocol_and_ip() {
        let found = spec_errors(serde_json::json!({
            "containers": [
                {"name": "a", "ports": [{"containerPort": 80, "hostPort": 8080}, {"containerPort": 81, "hostPort": 8080, "protocol": "UDP"}]},
                {"name": "b", "ports": [{"containerPort": 80, "hostPort": 8080, "protocol": "TCP"}]}
            ],
            "initContainers": [{"name": "c", "ports": [{"containerPort": 80, "hostPort": 8080}]}]
        }));
        assert_eq!(
            found,
            [(
                "spec.containers[1].ports[0].hostPort".into(),
                "port/host-port-conflict",
                "Duplicate value: \"TCP//8080\"".into()
            )]
        );
    }

    #[test]
    fn host_network_ports_match() {
        let found = spec_errors(serde_json::json!({
            "hostNetwork": true,
            "containers": [{"name": "a", "ports": [{"containerPort": 80}, {"containerPort": 81, "hostPort": 81}, {"containerPort": 82, "hostPort": 8082}]}]
        }));
        assert_eq!(
            found,
            [(
                "spec.containers[0].ports[2].hostPort".into(),
                "port/host-network-mismatch",
                "must match `containerPort` when `hostNetwork` is true".into()
            )]
        );
    }

    #[test]
    fn pod_fields() {
        let found = spec_errors(serde_json::json!({
            "containers": [{"name": "a", "image": " nginx"}],
            "restartPolicy": "Sometimes",
            "nodeName": "Node_1",
            "priorityClassName": "Gold",
            "preemptionPolicy": "Always",
            "nodeSelector": {"a/b/c": "x"},
            "volumes": [{"name": "v"}, {"name": "v"}, {"name": ""}]
        }));
        let rows: Vec<(String, &str)> = found.into_iter().map(|f| (f.0, f.1)).collect();
        assert_eq!(
            rows,
            [
                ("spec.volumes[1].name".into(), "volume/duplicate-name"),
                ("spec.volumes[2].name".into(), "volume/invalid-name"),
                ("spec.containers[0].image".into(), "container/invalid-image"),
                ("spec.restartPolicy".into(), "pod/invalid-restart-policy"),
                ("spec.nodeSelector[a/b/c]".into(), "labels/invalid-key"),
                ("spec.nodeName".into(), "pod/invalid-node-name"),
                (
                    "spec.priorityClassName".into(),
                    "pod/invalid-priority-class-name"
                ),
                (
                    "spec.preemptionPolicy".into(),
                    "pod/invalid-preemption-policy"
                ),
            ]
        );
    }

    /// Gate names are qualified names, each once; a pod is not created on a node while
    /// gates hold it (upstream's path names the list entry, not its `name`).
    #[test]
    fn scheduling_gates() {
        let found = spec_errors(serde_json::json!({
            "containers": [{"name": "a"}],
            "nodeName": "n1",
            "schedulingGates": [{"name": "example.com/wait"}, {"name": "example.com/wait"}, {"name": "-bad"}]
        }));
        let rows: Vec<(String, &str)> = found.into_iter().map(|f| (f.0, f.1)).collect();
        assert_eq!(
            rows,
            [
                (
                    "spec.schedulingGates[1]".into(),
                    "pod/duplicate-scheduling-gate"
                ),
                (
                    "spec.schedulingGates[2]".into(),
                    "pod/invalid-scheduling-gate"
                ),
                ("spec.nodeName".into(), "pod/gated-node-name"),
            ]
        );
    }

    #[test]
    fn overhead_is_checked_like_limits() {
        let found = spec_errors(
            serde_json::json!({"containers": [{"name": "a"}], "overhead": {"cpu": "-1"}}),
        );
        assert_eq!(
            found,
            [(
                "spec.overhead.cpu".into(),
                "quantity/negative",
                "must be greater than or equal to 0".into()
            )]
        );
    }

    #[test]
    fn topology_spread_constraints() {
        // Upstream TestValidateTopologySpreadConstraints error cases.
        let found = spec_errors(serde_json::json!({
            "containers": [{"name": "a"}],
            "topologySpreadConstraints": [
                {"maxSkew": 0, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "DoNotSchedule"},
                {"maxSkew": 1, "topologyKey": "", "whenUnsatisfiable": "DoNotSchedule"},
                {"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "N/A"},
                {"maxSkew": 1, "topologyKey": "k8s.io/zone", "whenUnsatisfiable": "ScheduleAnyway", "minDomains": -1},
                {"maxSkew": 1, "topologyKey": "host", "whenUnsatisfiable": "DoNotSchedule", "nodeAffinityPolicy": "Always"},
                {"maxSkew": 1, "topologyKey": "host", "whenUnsatisfiable": "DoNotSchedule", "matchLabelKeys": ["foo"]}
            ]
        }));
        let rows: Vec<(String, String)> = found.into_iter().map(|f| (f.0, f.2)).collect();
        let at =
            |i: usize, field: &str| alloc::format!("spec.topologySpreadConstraints[{i}].{field}");
        assert_eq!(
            rows,
            [
                (at(0, "maxSkew"), "must be greater than zero".into()),
                (at(1, "topologyKey"), "can not be empty".into()),
                (at(2, "whenUnsatisfiable"), "Unsupported value: \"N/A\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"".into()),
                (at(3, "minDomains"), "must be greater than zero".into()),
                (at(3, "minDomains"), "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway".into()),
                (at(4, "{topologyKey, whenUnsatisfiable}"), "Duplicate value: \"{host, DoNotSchedule}\"".into()),
                (at(4, "nodeAffinityPolicy"), "Unsupported value: \"Always\": supported values: \"Honor\", \"Ignore\"".into()),
                (at(5, "matchLabelKeys"), "must not be specified when labelSelector is not set".into()),
            ]
        );
    }

    #[test]
    fn resources_are_checked_per_container() {
        let found = spec_errors(serde_json::json!({
            "containers": [{"name": "a", "resources": {"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}}],
            "initContainers": [{"name": "b", "resources": {"requests": {"example.com/gpu": "1"}}}]
        }));
        assert_eq!(
            found,
            [
                (
                    "spec.containers[0].resources.requests.cpu".into(),
                    "resources/request-exceeds-limit",
                    "must be less than or equal to cpu limit of 1".into()
                ),
                (
                    "spec.initContainers[0].resources.limits".into(),
                    "resources/missing-limit",
                    "Limit must be set for non overcommitable resources".into()
                ),
            ]
        );
    }
}
