//! API-server defaulting, applied to every object before evaluation.
//!
//! Follows `pkg/apis/core/v1/defaults.go`, `pkg/apis/apps/v1/defaults.go`,
//! `pkg/apis/batch/v1/defaults.go` and `pkg/apis/scheduling/v1/defaults.go`.

use alloc::string::String;

use crate::input::Resource;
use crate::model::{
    Container, LabelSelector, Namespace, Node, PodSpec, ResourceList, Workload, WorkloadKind,
};
use crate::resources;

/// The scheduler that serves pods which name none.
pub const DEFAULT_SCHEDULER: &str = "default-scheduler";

/// The label every Namespace carries with its own name.
const METADATA_NAME_LABEL: &str = "kubernetes.io/metadata.name";

/// The grace period a pod gets when it states none.
pub const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS: i64 = 30;

/// `SetDefaults_Namespace` (GA in 1.22): a named namespace carries its name under this
/// label, whatever value was written. Only 1.34's namespace selectors read namespace
/// labels; 1.11 had neither them nor the label.
pub fn namespace_name_label(namespace: &mut Namespace) {
    let meta = &mut namespace.metadata;
    if !meta.name.is_empty() {
        meta.labels
            .insert(String::from(METADATA_NAME_LABEL), meta.name.clone());
    }
}

/// Fills in every field the API server would default.
pub fn apply(resource: &mut Resource) {
    match resource {
        Resource::Node(node) => node_status(node),
        Resource::Pod(pod) => {
            default_namespace(&mut pod.metadata.namespace);
            pod_spec(&mut pod.spec);
        }
        Resource::PriorityClass(class) => {
            class
                .preemption_policy
                .get_or_insert_with(|| String::from("PreemptLowerPriority"));
        }
        Resource::PodDisruptionBudget(pdb) => default_namespace(&mut pdb.metadata.namespace),
        Resource::Service(service) => {
            default_namespace(&mut service.metadata.namespace);
            if service.spec.type_.is_empty() {
                service.spec.type_ = String::from("ClusterIP");
            }
        }
        Resource::PersistentVolume(volume) => {
            // The API server leaves a new volume `Pending`; the PV controller's first sync
            // makes it `Available`, or `Bound` once it names a claim. A volume written
            // without a phase is read as that sync leaves it, since every snapshot of a
            // running cluster shows it so.
            if volume.status.phase.is_empty() {
                volume.status.phase = String::from(if volume.spec.claim_ref.is_some() {
                    "Bound"
                } else {
                    "Available"
                });
            }
            if volume.spec.persistent_volume_reclaim_policy.is_empty() {
                volume.spec.persistent_volume_reclaim_policy = String::from("Retain");
            }
            round_up_to_milli(&mut volume.spec.capacity);
        }
        Resource::PersistentVolumeClaim(claim) => {
            default_namespace(&mut claim.metadata.namespace);
            round_up_to_milli(&mut claim.spec.resources.requests);
            round_up_to_milli(&mut claim.spec.resources.limits);
        }
        Resource::StorageClass(class) => {
            // `SetDefaults_StorageClass`.
            class
                .reclaim_policy
                .get_or_insert_with(|| String::from("Delete"));
            class
                .volume_binding_mode
                .get_or_insert_with(|| String::from("Immediate"));
        }
        Resource::CsiStorageCapacity(capacity) => {
            default_namespace(&mut capacity.metadata.namespace);
        }
        Resource::CsiNode(_) | Resource::CsiDriver(_) => {}
        Resource::Namespace(namespace) => namespace_name_label(namespace),
        Resource::Policy(_)
        | Resource::KubeSchedulerConfiguration(_)
        | Resource::MasterConfig(_)
        | Resource::DeschedulerPolicy(_)
        | Resource::Scenario(_) => {}
        // Machine API objects live in `openshift-machine-api`; snippets often omit it.
        Resource::Machine(machine) => machine_namespace(&mut machine.metadata.namespace),
        Resource::MachineSet(set) => machine_namespace(&mut set.metadata.namespace),
        Resource::Workload(kind, workload) => self::workload(*kind, workload),
    }
}

fn machine_namespace(namespace: &mut String) {
    if namespace.is_empty() {
        *namespace = String::from(crate::eviction::scenario::MACHINE_NAMESPACE);
    }
}

fn default_namespace(namespace: &mut String) {
    if namespace.is_empty() {
        *namespace = String::from("default");
    }
}

/// A node without `status.allocatable` gets its capacity (`SetDefaults_NodeStatus`); both
/// are rounded up to milli-units.
fn node_status(node: &mut Node) {
    round_up_to_milli(&mut node.status.capacity);
    let allocatable = node
        .status
        .allocatable
        .get_or_insert_with(|| node.status.capacity.clone());
    round_up_to_milli(allocatable);
}

/// `SetDefaults_ResourceList`, which the API server applies to every resource list of an
/// object it defaults (1.11 as 1.34): each quantity is rounded up to a whole milli-unit,
/// so two containers asking for `500u` cpu request `1m` each, `2m` together.
fn round_up_to_milli(list: &mut ResourceList) {
    for quantity in list.values_mut() {
        *quantity = quantity.round_up_to_milli();
    }
}

/// Pod spec defaults (`SetDefaults_PodSpec`, `SetDefaults_Pod`, `SetDefaults_ContainerPort`).
pub fn pod_spec(spec: &mut PodSpec) {
    if spec.scheduler_name.is_empty() {
        spec.scheduler_name = String::from(DEFAULT_SCHEDULER);
    }
    if spec.restart_policy.is_empty() {
        spec.restart_policy = String::from("Always");
    }
    spec.termination_grace_period_seconds
        .get_or_insert(DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
    let host_network = spec.host_network;
    for container in spec
        .containers
        .iter_mut()
        .chain(spec.init_containers.iter_mut())
    {
        container_defaults(container, host_network);
    }
    pod_level_requests(spec);
    // The generated defaulters (`zz_generated.defaults.go`) round each resource list
    // after `SetDefaults_Pod`: pod-level requests above add up the containers' requests
    // as written.
    for container in spec
        .containers
        .iter_mut()
        .chain(spec.init_containers.iter_mut())
    {
        round_up_to_milli(&mut container.resources.limits);
        round_up_to_milli(&mut container.resources.requests);
    }
    round_up_to_milli(&mut spec.overhead);
    if let Some(resources) = spec.resources.as_mut() {
        round_up_to_milli(&mut resources.limits);
        round_up_to_milli(&mut resources.requests);
    }
    // `SetDefaults_RBDVolumeSource`: the RADOS pool is `rbd` unless named (the disk
    // conflict checks compare pools).
    for rbd in spec
        .volumes
        .iter_mut()
        .filter_map(|volume| volume.rbd.as_mut())
    {
        if rbd.pool.is_empty() {
            rbd.pool = String::from("rbd");
        }
    }
}

fn container_defaults(container: &mut Container, host_network: bool) {
    requests_from_limits(
        &mut container.resources.requests,
        &container.resources.limits,
    );
    for port in &mut container.ports {
        if port.protocol.is_empty() {
            port.protocol = String::from("TCP");
        }
        if host_network && port.host_port == 0 {
            port.host_port = port.container_port;
        }
    }
}

/// `defaultPodRequests` (PodLevelResources, on by default since 1.34), after the
/// containers' own defaults: only once pod-level limits are set, cpu and memory without a
/// pod-level request get what the containers request together, when one of them names
/// it; then each resource pod-level `resources` may set that is still without a request
/// gets its pod-level limit (memory no container names, hugepages). So a pod limited to
/// 2 cpus whose container asks for 500m requests 500m, not 2.
///
/// `defaultHugePagePodLimits`, which runs first upstream, is left out: the hugepages
/// limits it fills in equal what the containers request (a container's hugepages request
/// must equal its limit), so the requests come out the same.
fn pod_level_requests(spec: &mut PodSpec) {
    if spec
        .resources
        .as_ref()
        .is_none_or(|resources| resources.limits.is_empty())
    {
        return;
    }
    let containers = resources::aggregate_container_requests(spec);
    let Some(pod_level) = spec.resources.as_mut() else {
        return;
    };
    // `IsSupportedPodLevelResource` and `IsOvercommitAllowed` together: cpu and memory.
    for (name, request) in &containers {
        if matches!(name.as_str(), "cpu" | "memory") {
            pod_level.requests.insert_if_missing(name.clone(), *request);
        }
    }
    for (name, limit) in &pod_level.limits {
        if resources::is_pod_level(name) {
            pod_level.requests.insert_if_missing(name.clone(), *limit);
        }
    }
}

/// A resource with a limit but no request is requested at its limit.
fn requests_from_limits(requests: &mut ResourceList, limits: &ResourceList) {
    for (name, limit) in limits {
        requests.insert_if_missing(name.clone(), *limit);
    }
}

fn workload(kind: WorkloadKind, workload: &mut Workload) {
    default_namespace(&mut workload.metadata.namespace);
    let spec = &mut workload.spec;
    match kind {
        WorkloadKind::Job => {
            // `SetDefaults_Job`: with neither set, one pod runs once.
            if spec.completions.is_none() && spec.parallelism.is_none() {
                spec.completions = Some(1);
            }
            spec.parallelism.get_or_insert(1);
        }
        WorkloadKind::DaemonSet => {}
        _ => {
            spec.replicas.get_or_insert(1);
        }
    }
    // A selector left out selects the template's labels: always on a ReplicationController
    // (which also replaces an empty one), on the other kinds in `extensions/v1beta1` and
    // `apps/v1beta1` (`SetDefaults_ReplicationController` in `pkg/apis/core/v1/defaults.go`,
    // `SetDefaults_DaemonSet` and its siblings in `pkg/apis/extensions/v1beta1/defaults.go`);
    // `apps/v1` requires one. A Job's is generated from its uid instead (`owners`).
    let labels = &spec.template.metadata.labels;
    let unset = match kind {
        WorkloadKind::Job => false,
        WorkloadKind::ReplicationController => spec
            .selector
            .as_ref()
            .is_none_or(|selector| selector.match_labels.is_empty()),
        _ => spec.selector.is_none(),
    };
    if unset && !labels.is_empty() {
        spec.selector = Some(LabelSelector {
            match_labels: labels.clone(),
            ..LabelSelector::default()
        });
    }
    if spec.template.metadata.namespace.is_empty() {
        spec.template
            .metadata
            .namespace
            .clone_from(&workload.metadata.namespace);
    }
    pod_spec(&mut spec.template.spec);
}

#[cfg(test)]
mod tests {
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    use crate::cluster::Cluster;
    use crate::resources::QosClass;
    use crate::{input, Limits, Source};

    /// The pod of `spec` (flow-style YAML) after defaulting and admission.
    fn pod(spec: &str) -> crate::cluster::PodEntry {
        let yaml =
            alloc::format!("kind: Pod\nmetadata: {{name: p, namespace: default}}\nspec: {spec}\n");
        let sources = [Source::new("test", &yaml)];
        let loaded = input::load(&sources, &Limits::default());
        let cluster = Cluster::build(loaded, &sources, None);
        assert!(
            cluster.diagnostics.iter().all(|d| !d.is_error()),
            "{:?}",
            cluster.diagnostics
        );
        cluster.pods.into_iter().next().expect("one pod")
    }

    /// Pod-level requests as `name=quantity` texts, in name order.
    fn pod_level_requests(entry: &crate::cluster::PodEntry) -> Vec<String> {
        let resources = entry
            .pod
            .spec
            .resources
            .as_ref()
            .expect("pod-level resources");
        resources
            .requests
            .iter()
            .map(|(name, quantity)| alloc::format!("{name}={quantity}"))
            .collect()
    }

    /// cpu and memory come from what the containers request; only memory, which no
    /// container names, comes from the pod-level limit.
    #[test]
    fn pod_level_requests_come_from_the_containers_before_the_limits() {
        let entry = pod(
            "{resources: {limits: {cpu: '2', memory: 1Gi}}, containers: [{name: c, resources: {requests: {cpu: 500m}}}]}",
        );
        assert_eq!(pod_level_requests(&entry), ["cpu=500m", "memory=1Gi"]);
        assert_eq!(
            entry.requests.get("cpu").map(ToString::to_string),
            Some("500m".into())
        );
        assert_eq!(entry.qos, QosClass::Burstable);
    }

    /// Containers and sidecars add up and an init step counts on its own, the larger per
    /// resource, as `PodRequests` aggregates them; a request of 0 is a request.
    #[test]
    fn pod_level_requests_aggregate_every_kind_of_container() {
        let entry = pod(
            "{resources: {limits: {cpu: '4', memory: 4Gi}}, \
             initContainers: [{name: i, resources: {requests: {cpu: '3'}}}, \
                              {name: s, restartPolicy: Always, resources: {requests: {cpu: 100m}}}], \
             containers: [{name: a, resources: {requests: {cpu: 200m, memory: '0'}}}, \
                          {name: b, resources: {requests: {cpu: 300m}}}]}",
        );
        assert_eq!(pod_level_requests(&entry), ["cpu=3", "memory=0"]);
    }

    /// Hugepages cannot be overcommitted: their request is the pod-level limit, whatever
    /// the containers ask; without pod-level limits nothing is defaulted.
    #[test]
    fn pod_level_hugepages_take_the_limit_and_requests_alone_stay() {
        let entry = pod(
            "{resources: {limits: {cpu: '1', hugepages-2Mi: 8Mi}}, \
             containers: [{name: c, resources: {requests: {cpu: 100m, memory: 1Gi}, limits: {hugepages-2Mi: 4Mi}}}]}",
        );
        assert_eq!(
            pod_level_requests(&entry),
            ["cpu=100m", "hugepages-2Mi=8Mi", "memory=1Gi"]
        );
        let entry = pod(
            "{resources: {requests: {cpu: '1'}}, containers: [{name: c, resources: {requests: {memory: 1Gi}}}]}",
        );
        assert_eq!(pod_level_requests(&entry), ["cpu=1"]);
    }

    /// Every quantity is rounded up to a milli-unit before the scheduler adds them: two
    /// containers of `500u` cpu ask for `2m`, more than a `1m` node has, in both releases.
    /// Pod-level requests are added up before the rounding.
    #[test]
    fn quantities_round_up_to_milli_units() {
        use crate::report::scheduling::Outcome;
        use crate::schedule::{testing, Version};
        let yaml = testing::node("n1", 1, 4 << 30, "")
            + "---\nkind: Pod\nmetadata: {name: p, namespace: default}\nspec:\n  containers:\n  - {name: a, resources: {requests: {cpu: 500u}}}\n  - {name: b, resources: {requests: {cpu: 500u}}}\n";
        for version in [Version::Current, Version::Legacy] {
            let placement = &testing::schedule(&yaml, version).pods[0];
            assert_eq!(placement.outcome, Outcome::Unschedulable, "{version:?}");
            let message = placement.message.as_deref().unwrap_or_default();
            assert!(
                message.starts_with("0/1 nodes are available: 1 Insufficient cpu."),
                "{version:?}: {message}"
            );
        }
        let entry = pod(
            "{resources: {limits: {cpu: 1500u}}, containers: [{name: a, resources: {requests: {cpu: 500u}}}, {name: b, resources: {requests: {cpu: 500u}}}]}",
        );
        assert_eq!(pod_level_requests(&entry), ["cpu=1m"]);
        let limits = &entry.pod.spec.resources.as_ref().expect("resources").limits;
        assert_eq!(
            limits.get("cpu").map(ToString::to_string),
            Some("2m".into())
        );
        let containers = &entry.pod.spec.containers;
        assert_eq!(
            containers[0]
                .resources
                .requests
                .get("cpu")
                .map(ToString::to_string),
            Some("1m".into())
        );
    }
}
