//! What a pod requests in total, and its QoS class.
//!
//! Follows `k8s.io/component-helpers/resource/helpers.go` (`PodRequests`) and
//! `pkg/apis/core/helper/qos/qos.go` (`GetPodQOS`) as of Kubernetes 1.34, with sidecars
//! (restartable init containers), pod overhead and pod-level resources.

use serde::Serialize;

use crate::model::{PodSpec, ResourceList};
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
    requests_with_defaults(spec, &[])
}

/// [`pod_requests`] where each container (regular, init or sidecar) that leaves out one of `defaults`
/// counts the default instead (`PodResourcesOptions.NonMissingContainerRequests`, which
/// the scheduler's scoring uses with 100m cpu and 200Mi memory).
#[must_use]
pub fn pod_requests_with_defaults(spec: &PodSpec, defaults: &[(&str, Quantity)]) -> ResourceList {
    requests_with_defaults(spec, defaults)
}

/// What the containers request together, without pod-level requests or overhead
/// (`AggregateContainerRequests`): regular containers and sidecars summed, each init step
/// (a plain init container with the sidecars started before it) counting on its own, the
/// larger per resource. A resource no container names is left out, one named at `0` kept.
#[must_use]
pub fn aggregate_container_requests(spec: &PodSpec) -> ResourceList {
    aggregate_with_defaults(spec, &[])
}

fn requests_with_defaults(spec: &PodSpec, defaults: &[(&str, Quantity)]) -> ResourceList {
    let mut total = aggregate_with_defaults(spec, defaults);
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

fn aggregate_with_defaults(spec: &PodSpec, defaults: &[(&str, Quantity)]) -> ResourceList {
    let mut total = ResourceList::new();
    for container in &spec.containers {
        add(
            &mut total,
            &with_defaults(&container.resources.requests, defaults),
        );
    }
    let mut sidecars = ResourceList::new();
    let mut init_peak = ResourceList::new();
    for container in &spec.init_containers {
        let requests = with_defaults(&container.resources.requests, defaults);
        let step = if container.restart_policy.as_deref() == Some("Always") {
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

/// A container's requests with each of `defaults` it leaves out filled in.
fn with_defaults<'r>(
    requests: &'r ResourceList,
    defaults: &[(&str, Quantity)],
) -> alloc::borrow::Cow<'r, ResourceList> {
    if defaults
        .iter()
        .all(|(name, _)| requests.contains_key(*name))
    {
        return alloc::borrow::Cow::Borrowed(requests);
    }
    let mut filled = requests.clone();
    for (name, default) in defaults {
        filled.insert_if_missing((*name).into(), *default);
    }
    alloc::borrow::Cow::Owned(filled)
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
