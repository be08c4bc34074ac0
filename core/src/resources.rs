//! What a pod requests in total, and its QoS class.
//!
//! Follows `k8s.io/component-helpers/resource/helpers.go` (`PodRequests`) and
//! `pkg/apis/core/helper/qos/qos.go` (`GetPodQOS`) as of Kubernetes 1.34, with sidecars
//! (restartable init containers), pod overhead, pod-level resources and, for the
//! scheduler, the resources the kubelet reports of an in-place resize.

use alloc::borrow::Cow;

use serde::Serialize;

use crate::model::{Container, Pod, PodSpec, PodStatus, ResourceList};
use crate::quantity::Quantity;

/// A pod's quality-of-service class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
pub enum QosClass {
    /// Every container has equal cpu and memory requests and limits.
    Guaranteed,
    /// Something is requested or limited, but not enough for Guaranteed.
    Burstable,
    /// Nothing is requested or limited.
    BestEffort,
}

impl QosClass {
    /// The class as `kubectl` prints it.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Guaranteed => "Guaranteed",
            Self::Burstable => "Burstable",
            Self::BestEffort => "BestEffort",
        }
    }
}

/// `IsHugePageResourceName`.
pub(crate) fn is_hugepages(name: &str) -> bool {
    name.starts_with("hugepages-")
}

/// True for the resources pod-level `resources` may set (`IsSupportedPodLevelResource`):
/// cpu, memory and, since 1.33, every hugepages size.
pub(crate) fn is_pod_level(name: &str) -> bool {
    matches!(name, "cpu" | "memory") || is_hugepages(name)
}

/// True when pod-level `resources` request something they may set
/// (`IsPodLevelRequestsSet`).
#[must_use]
pub fn pod_level_requests_set(spec: &PodSpec) -> bool {
    spec.resources
        .as_ref()
        .is_some_and(|resources| resources.requests.keys().any(|name| is_pod_level(name)))
}

/// True when a pod's requests are its regular containers' sums alone: no init
/// containers, no overhead and no pod-level resources. Older rules (Kubernetes 1.9's and
/// 1.11's) differ from [`pod_requests`] only for the other pods.
#[must_use]
pub fn containers_only(spec: &PodSpec) -> bool {
    spec.init_containers.is_empty() && spec.resources.is_none() && spec.overhead.is_empty()
}

/// The pod's effective requests: containers and running sidecars together, or the largest
/// init step, whichever is larger per resource; pod-level requests replace the container
/// sum for cpu, memory and hugepages; overhead is added on top.
///
/// Sums saturate instead of overflowing (quantities are bounded by parsing, so only
/// absurd inputs with thousands of huge containers can reach the bound).
#[must_use]
pub fn pod_requests(spec: &PodSpec) -> ResourceList {
    requests_with(spec, None, &[])
}

/// [`pod_requests`] where each container (regular, init or sidecar) that leaves out one of `defaults`
/// counts the default instead (`PodResourcesOptions.NonMissingContainerRequests`, which
/// the scheduler's scoring uses with 100m cpu and 200Mi memory).
#[must_use]
pub fn pod_requests_with_defaults(spec: &PodSpec, defaults: &[(&str, Quantity)]) -> ResourceList {
    requests_with(spec, None, defaults)
}

/// True when what the kubelet reports of the pod's containers changes what 1.34's
/// scheduler counts for it, so that [`requests_with_status`] differs from
/// [`pod_requests_with_defaults`] (whatever the defaults): some regular container or
/// sidecar has a status with `resources` asking more than its spec, or naming a resource
/// its spec leaves out, or the pod's resize is infeasible. A pod without such a status
/// (any pod of a cluster without in-place resize, and a pod not yet started) counts its
/// spec alone.
#[must_use]
pub fn resized(pod: &Pod) -> bool {
    reads_status(&pod.spec).any(|container| in_place(container, &pod.status).is_some())
}

/// `PodRequests` with `UseStatusResources`, as 1.34's scheduler counts a pod on a node
/// (`pkg/scheduler/framework/types.go`, `CalculateResource`) and the incoming pod in its
/// scores (`noderesources/resource_allocation.go`, `calculatePodResourceRequest`), but
/// not in the fit filter: [`pod_requests_with_defaults`] with each regular container and
/// sidecar whose status reports `resources` counting the larger per resource of its
/// spec's requests, the reported ones and the allocated ones (the reported and allocated
/// alone while the resize is infeasible). Plain init containers count their spec.
#[must_use]
pub fn requests_with_status(pod: &Pod, defaults: &[(&str, Quantity)]) -> ResourceList {
    requests_with(&pod.spec, Some(&pod.status), defaults)
}

/// What the containers request together, without pod-level requests or overhead
/// (`AggregateContainerRequests`): regular containers and sidecars summed, each init step
/// (a plain init container with the sidecars started before it) counting on its own, the
/// larger per resource. A resource no container names is left out, one named at `0` kept.
#[must_use]
pub fn aggregate_container_requests(spec: &PodSpec) -> ResourceList {
    aggregate(spec, None, &[])
}

fn requests_with(
    spec: &PodSpec,
    status: Option<&PodStatus>,
    defaults: &[(&str, Quantity)],
) -> ResourceList {
    let mut total = aggregate(spec, status, defaults);
    // 1.34 reads pod-level requests from the spec alone, whatever the status reports.
    if let Some(pod_level) = &spec.resources {
        for (name, request) in &pod_level.requests {
            if is_pod_level(name) {
                total.insert(name.clone(), *request);
            }
        }
    }
    add(&mut total, &spec.overhead);
    total
}

/// `AggregateContainerRequests`, reading the containers' statuses too when `status` is
/// given.
fn aggregate(
    spec: &PodSpec,
    status: Option<&PodStatus>,
    defaults: &[(&str, Quantity)],
) -> ResourceList {
    let own = |container: &Container| status.and_then(|status| in_place(container, status));
    let mut total = ResourceList::new();
    for container in &spec.containers {
        let resized = own(container);
        let requests = resized.as_ref().unwrap_or(&container.resources.requests);
        add(&mut total, &with_defaults(requests, defaults));
    }
    let mut sidecars = ResourceList::new();
    let mut init_peak = ResourceList::new();
    for container in &spec.init_containers {
        let sidecar = is_sidecar(container);
        let resized = sidecar.then(|| own(container)).flatten();
        let requests = with_defaults(
            resized.as_ref().unwrap_or(&container.resources.requests),
            defaults,
        );
        let step = if sidecar {
            // A sidecar keeps running next to the regular containers.
            add(&mut total, &requests);
            add(&mut sidecars, &requests);
            sidecars.clone()
        } else {
            // A plain init container runs next to the sidecars started before it.
            let mut step = requests.into_owned();
            add(&mut step, &sidecars);
            step
        };
        max_into(&mut init_peak, &step);
    }
    max_into(&mut total, &init_peak);
    total
}

/// An init container that keeps running beside the regular containers.
fn is_sidecar(container: &Container) -> bool {
    container.restart_policy.as_deref() == Some("Always")
}

/// A container's requests as its status changes them (`determineContainerReqs`): the
/// larger per resource of the spec's, the reported (`resources.requests`) and the
/// allocated (`allocatedResources`) requests, or of the latter two alone while a
/// `PodResizePending` condition says `Infeasible` (the spec's wish will not be met).
/// `None` when the status reports no `resources`, or when, the resize being feasible, it
/// asks nothing beyond the spec, which then stands as it is.
fn in_place(container: &Container, status: &PodStatus) -> Option<ResourceList> {
    let reported = status.container_status(&container.name)?;
    let actual = reported.resources.as_ref()?;
    let spec = &container.resources.requests;
    let covers = |list: &ResourceList| {
        list.iter()
            .all(|(name, quantity)| within_spec(spec, name, quantity))
    };
    let mut requests = if status.conditions.resize_infeasible {
        actual.requests.clone()
    } else if covers(&actual.requests) && covers(&reported.allocated_resources) {
        return None;
    } else {
        let mut requests = spec.clone();
        max_into(&mut requests, &actual.requests);
        requests
    };
    max_into(&mut requests, &reported.allocated_resources);
    Some(requests)
}

/// True if a container's spec requests `name` at `quantity` or more: a status reporting
/// `quantity` leaves that request as it is.
pub(crate) fn within_spec(spec: &ResourceList, name: &str, quantity: &Quantity) -> bool {
    spec.get(name)
        .is_some_and(|own| own.cmp_value(quantity).is_ge())
}

/// The regular containers and sidecars: the containers whose statuses 1.34 reads.
pub(crate) fn reads_status(spec: &PodSpec) -> impl Iterator<Item = &Container> {
    spec.containers.iter().chain(
        spec.init_containers
            .iter()
            .filter(|container| is_sidecar(container)),
    )
}

/// A container's requests with each of `defaults` it leaves out filled in.
fn with_defaults<'r>(
    requests: &'r ResourceList,
    defaults: &[(&str, Quantity)],
) -> Cow<'r, ResourceList> {
    if defaults
        .iter()
        .all(|(name, _)| requests.contains_key(*name))
    {
        return Cow::Borrowed(requests);
    }
    let mut filled = requests.clone();
    for (name, default) in defaults {
        filled.insert_if_missing((*name).into(), *default);
    }
    Cow::Owned(filled)
}

pub(crate) fn add(total: &mut ResourceList, more: &ResourceList) {
    for (name, quantity) in more {
        let sum = match total.get(name) {
            Some(current) => saturating_add(*current, *quantity),
            None => *quantity,
        };
        total.insert(name.clone(), sum);
    }
}

/// `a + b`, saturating at the bounds of milli-units instead of overflowing.
pub(crate) fn saturating_add(a: Quantity, b: Quantity) -> Quantity {
    a.checked_add(b).unwrap_or_else(|| {
        Quantity::from_milli(a.milli_value().saturating_add(b.milli_value()), a.format())
    })
}

/// `a - b`, saturating at the bounds of milli-units instead of overflowing.
pub(crate) fn saturating_sub(a: Quantity, b: Quantity) -> Quantity {
    a.checked_sub(b).unwrap_or_else(|| {
        Quantity::from_milli(a.milli_value().saturating_sub(b.milli_value()), a.format())
    })
}

fn max_into(total: &mut ResourceList, other: &ResourceList) {
    for (name, quantity) in other {
        match total.get(name) {
            Some(current) if current.cmp_value(quantity).is_ge() => {}
            _ => {
                total.insert(name.clone(), *quantity);
            }
        }
    }
}

/// The pod's QoS class, from cpu and memory requests and limits only.
#[must_use]
pub fn qos_class(spec: &PodSpec) -> QosClass {
    let mut requests = ResourceList::new();
    let mut limits = ResourceList::new();
    let mut guaranteed = true;
    let supported = |name: &str| name == "cpu" || name == "memory";
    if let Some(pod_level) = spec
        .resources
        .as_ref()
        .filter(|r| !r.requests.is_empty() || !r.limits.is_empty())
    {
        // Pod-level resources decide the class on their own.
        for (name, quantity) in &pod_level.requests {
            if supported(name) && !quantity.is_zero() && !quantity.is_negative() {
                requests.insert(name.clone(), *quantity);
            }
        }
        for (name, quantity) in &pod_level.limits {
            if supported(name) && !quantity.is_zero() && !quantity.is_negative() {
                limits.insert(name.clone(), *quantity);
            }
        }
        guaranteed = limits.contains_key("cpu") && limits.contains_key("memory");
    } else {
        for container in spec.containers.iter().chain(&spec.init_containers) {
            let mut limited = 0;
            for (name, quantity) in &container.resources.requests {
                if supported(name) && !quantity.is_zero() && !quantity.is_negative() {
                    add(
                        &mut requests,
                        &core::iter::once((name.clone(), *quantity)).collect(),
                    );
                }
            }
            for (name, quantity) in &container.resources.limits {
                if supported(name) && !quantity.is_zero() && !quantity.is_negative() {
                    limited += 1;
                    add(
                        &mut limits,
                        &core::iter::once((name.clone(), *quantity)).collect(),
                    );
                }
            }
            if limited < 2 {
                guaranteed = false;
            }
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return QosClass::BestEffort;
    }
    if guaranteed {
        let all_equal = requests.iter().all(|(name, request)| {
            limits
                .get(name)
                .is_some_and(|limit| limit.cmp_value(request).is_eq())
        });
        if all_equal && requests.len() == limits.len() {
            return QosClass::Guaranteed;
        }
    }
    QosClass::Burstable
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{self, Resource};
    use crate::{Limits, Source};
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    /// A pod from YAML, as decoded.
    fn pod(text: &str) -> Pod {
        let loaded = input::load(&[Source::new("t", text)], &Limits::default());
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        match loaded
            .objects
            .into_iter()
            .next()
            .map(|object| object.resource)
        {
            Some(Resource::Pod(pod)) => *pod,
            other => panic!("no pod: {other:?}"),
        }
    }

    /// A pod of one container `c` requesting `spec`, whose status reports `status`
    /// (the YAML of the container status past its name) and has `conditions`.
    fn resized_pod(spec: &str, status: &str, conditions: &str) -> Pod {
        pod(&alloc::format!(
            "kind: Pod\nmetadata: {{name: p}}\nspec:\n  nodeName: n1\n  containers: [{{name: c, resources: {{requests: {spec}}}}}]\nstatus:\n  conditions: {conditions}\n  containerStatuses: [{{name: c, ready: true, state: {{running: {{}}}}, {status}}}]\n"
        ))
    }

    fn list(requests: &ResourceList) -> Vec<(String, String)> {
        requests
            .iter()
            .map(|(name, quantity)| (name.clone(), quantity.to_string()))
            .collect()
    }

    fn counted(pod: &Pod) -> Vec<(String, String)> {
        list(&requests_with_status(pod, &[]))
    }

    fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
        expected
            .iter()
            .map(|(name, quantity)| ((*name).to_string(), (*quantity).to_string()))
            .collect()
    }

    /// A container counts the larger per resource of its spec's, the reported and the
    /// allocated requests (`determineContainerReqs`), resources any of them names.
    #[test]
    fn a_resized_container_counts_the_largest_of_spec_status_and_allocation() {
        let shrinking = resized_pod(
            "{cpu: 500m, memory: 1Gi}",
            "resources: {requests: {cpu: '3', memory: 512Mi}, limits: {cpu: '4'}}, allocatedResources: {cpu: '2', ephemeral-storage: 1Gi}",
            "[]",
        );
        assert!(resized(&shrinking));
        assert_eq!(
            counted(&shrinking),
            pairs(&[
                ("cpu", "3"),
                ("ephemeral-storage", "1Gi"),
                ("memory", "1Gi")
            ])
        );
        // The spec's requests alone stand elsewhere (the fit filter's incoming pod).
        assert_eq!(
            list(&pod_requests(&shrinking.spec)),
            pairs(&[("cpu", "500m"), ("memory", "1Gi")])
        );
    }

    /// A status asking nothing beyond the spec (the kubelet reports what it applied, the
    /// usual case, or a resize up not yet applied) leaves the spec as it is.
    #[test]
    fn a_status_within_the_spec_changes_nothing() {
        for status in [
            "resources: {requests: {cpu: 500m, memory: 1Gi}}, allocatedResources: {cpu: 500m, memory: 1Gi}",
            "resources: {requests: {cpu: 100m}}, allocatedResources: {cpu: 100m}",
            "resources: {}",
        ] {
            let pod = resized_pod("{cpu: 500m, memory: 1Gi}", status, "[]");
            assert!(!resized(&pod), "{status}");
            assert_eq!(counted(&pod), list(&pod_requests(&pod.spec)), "{status}");
        }
    }

    /// Upstream reads a status only when it has `resources`: `allocatedResources` alone
    /// counts for nothing.
    #[test]
    fn a_status_without_resources_is_not_read() {
        let pod = resized_pod("{cpu: 100m}", "allocatedResources: {cpu: '2'}", "[]");
        assert!(!resized(&pod));
        assert!(pod.status.container_statuses.as_slice().is_empty());
        assert_eq!(counted(&pod), pairs(&[("cpu", "100m")]));
    }

    /// While the first `PodResizePending` condition says `Infeasible`, the spec counts no
    /// more: the reported and allocated requests alone.
    #[test]
    fn an_infeasible_resize_counts_the_status_alone() {
        let status = "resources: {requests: {cpu: 500m}}, allocatedResources: {cpu: 400m}";
        let infeasible = resized_pod(
            "{cpu: '8', memory: 1Gi}",
            status,
            "[{type: PodResizePending, status: 'True', reason: Infeasible}]",
        );
        assert!(resized(&infeasible));
        assert_eq!(counted(&infeasible), pairs(&[("cpu", "500m")]));
        // A deferred resize, or an infeasible one behind an earlier condition of the type,
        // keeps the spec in.
        for conditions in [
            "[{type: PodResizePending, status: 'True', reason: Deferred}]",
            "[{type: PodResizePending, reason: Deferred}, {type: PodResizePending, reason: Infeasible}]",
        ] {
            let pod = resized_pod("{cpu: '8', memory: 1Gi}", status, conditions);
            assert!(!resized(&pod), "{conditions}");
            assert_eq!(counted(&pod), pairs(&[("cpu", "8"), ("memory", "1Gi")]));
        }
    }

    /// Sidecars read their status (from either list) like regular containers; a plain init
    /// container keeps its spec; pod-level requests and overhead apply on top.
    #[test]
    fn sidecars_read_their_status_and_plain_init_containers_do_not() {
        let pod = pod("kind: Pod\nmetadata: {name: p}\nspec:\n  nodeName: n1\n  overhead: {cpu: 10m}\n  initContainers:\n  - {name: init, resources: {requests: {cpu: 100m}}}\n  - {name: proxy, restartPolicy: Always, resources: {requests: {cpu: 100m}}}\n  containers: [{name: c, resources: {requests: {cpu: 200m}}}]\nstatus:\n  initContainerStatuses:\n  - {name: init, resources: {requests: {cpu: '5'}}}\n  - {name: proxy, resources: {requests: {cpu: 300m}}}\n  containerStatuses:\n  - {name: c, resources: {requests: {cpu: 200m}}}\n");
        assert!(resized(&pod));
        // 200m + the sidecar's 300m, above the init step (100m + 300m), plus overhead.
        assert_eq!(counted(&pod), pairs(&[("cpu", "510m")]));
        assert_eq!(list(&pod_requests(&pod.spec)), pairs(&[("cpu", "310m")]));
        let mut pod_level = pod.clone();
        pod_level.spec.resources = Some(crate::model::ResourceRequirements {
            requests: [("cpu".to_string(), Quantity::parse("1").unwrap())]
                .into_iter()
                .collect(),
            ..Default::default()
        });
        assert_eq!(counted(&pod_level), pairs(&[("cpu", "1010m")]));
    }

    /// Statuses are found by name as upstream's map finds them: the last entry of the name,
    /// in `initContainerStatuses` before `containerStatuses`, even one without
    /// `resources`.
    #[test]
    fn the_last_status_of_a_name_counts() {
        let later = resized_pod(
            "{cpu: 100m}",
            "resources: {requests: {cpu: '2'}}}, {name: c, resources: {requests: {cpu: '3'}}",
            "[]",
        );
        assert_eq!(counted(&later), pairs(&[("cpu", "3")]));
        let hidden = resized_pod(
            "{cpu: 100m}",
            "resources: {requests: {cpu: '2'}}}, {name: c, ready: false",
            "[]",
        );
        assert!(!resized(&hidden));
        let shadowed = pod("kind: Pod\nmetadata: {name: p}\nspec:\n  nodeName: n1\n  containers: [{name: c, resources: {requests: {cpu: 100m}}}]\nstatus:\n  initContainerStatuses: [{name: c}]\n  containerStatuses: [{name: c, resources: {requests: {cpu: '2'}}}]\n");
        assert!(!resized(&shadowed));
    }

    /// The scoring defaults fill in what a container's effective requests leave out: a
    /// cpu the status reports at `0` stays 0.
    #[test]
    fn defaults_apply_after_the_status() {
        let pod = resized_pod("{memory: 1Gi}", "resources: {requests: {cpu: '0'}}", "[]");
        let defaults = [
            ("cpu", Quantity::parse("100m").unwrap()),
            ("memory", Quantity::parse("200Mi").unwrap()),
        ];
        assert_eq!(
            list(&requests_with_status(&pod, &defaults)),
            pairs(&[("cpu", "0"), ("memory", "1Gi")])
        );
        assert_eq!(
            list(&pod_requests_with_defaults(&pod.spec, &defaults)),
            pairs(&[("cpu", "100m"), ("memory", "1Gi")])
        );
    }
}
