//! Resource names and quantities: requests, limits, overhead, capacity, allocatable.
//!
//! Upstream: `validateResourceRequirements`, `validateContainerResourceName`,
//! `validateResourceName`, `ValidateResourceQuantityValue` and
//! `validateResourceQuantityHugePageValue` in `pkg/apis/core/validation/validation.go`,
//! with the name sets of `pkg/apis/core/helper/helpers.go`.
//!
//! Request-versus-limit errors are reported at `requests[<name>]` rather than at
//! `requests`, so that they point at the offending quantity.

use crate::model::{ResourceList, ResourceRequirements};
use crate::quantity::Quantity;
use crate::resources::is_hugepages;

use super::names;
use super::path::{At, Sink};

/// `ValidateResourceQuantityValue`: never negative, and whole for integer resources.
pub(super) fn quantity(name: &str, value: &Quantity, at: &At<'_>, sink: &mut Sink) {
    if value.is_negative() {
        sink.error(
            at,
            "quantity/negative",
            "must be greater than or equal to 0",
        );
    }
    if is_integer_resource(name) && !value.is_integer() {
        sink.error(at, "quantity/not-integer", "must be an integer");
    }
}

/// Quantities of a resource list whose names are not checked (node capacity and
/// allocatable, as in `ValidateNodeResources`).
pub(super) fn quantities(list: &ResourceList, at: &At<'_>, sink: &mut Sink) {
    for (name, value) in list {
        quantity(name, value, &at.key(name), sink);
    }
}

/// Which resource names a [`ResourceRequirements`] may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Scope {
    /// A container's `resources` and a pod's `overhead` (`validateContainerResourceName`).
    Container,
    /// Pod-level `spec.resources` (`validateResourceName`).
    Pod,
}

/// `validateResourceRequirements`: names, quantities, requests against limits, and
/// hugepages.
///
/// A limit without a request is fine: the request defaults to the limit.
pub(super) fn requirements(
    requirements: &ResourceRequirements,
    scope: Scope,
    at: &At<'_>,
    sink: &mut Sink,
) {
    let limits_at = at.field("limits");
    let requests_at = at.field("requests");
    for (name, limit) in &requirements.limits {
        entry(name, limit, scope, &limits_at.key(name), sink);
    }
    for (name, request) in &requirements.requests {
        let entry_at = requests_at.key(name);
        entry(name, request, scope, &entry_at, sink);
        match requirements.limits.get(name) {
            Some(limit) => {
                let order = request.cmp_value(limit);
                if order.is_ne() && !is_overcommit_allowed(name) {
                    sink.error(
                        &entry_at,
                        "resources/request-not-equal-limit",
                        alloc::format!("must be equal to {name} limit of {limit}"),
                    );
                } else if order.is_gt() {
                    sink.error(
                        &entry_at,
                        "resources/request-exceeds-limit",
                        alloc::format!("must be less than or equal to {name} limit of {limit}"),
                    );
                }
            }
            None if !is_overcommit_allowed(name) => sink.error(
                &limits_at,
                "resources/missing-limit",
                "Limit must be set for non overcommitable resources",
            ),
            None => {}
        }
    }
    let names = requirements
        .limits
        .keys()
        .chain(requirements.requests.keys());
    hugepages_need_cpu_or_memory(names, at, sink);
}

/// `validateOverhead`: upstream checks the overhead as the limits of a container, and
/// reports at `overhead.limits[<name>]`; kubefit reports at `overhead[<name>]`.
pub(super) fn overhead(overhead: &ResourceList, at: &At<'_>, sink: &mut Sink) {
    for (name, value) in overhead {
        entry(name, value, Scope::Container, &at.key(name), sink);
    }
    hugepages_need_cpu_or_memory(overhead.keys(), at, sink);
}

/// The checks every entry of a resource list gets: its name, its quantity, and the page
/// size for hugepages.
fn entry(name: &str, value: &Quantity, scope: Scope, at: &At<'_>, sink: &mut Sink) {
    resource_name(name, scope, at, sink);
    quantity(name, value, at, sink);
    if is_hugepages(name) {
        hugepage_value(name, value, at, sink);
    }
}

/// Hugepages may only be requested together with cpu or memory.
fn hugepages_need_cpu_or_memory<'a>(
    names: impl Iterator<Item = &'a alloc::string::String> + Clone,
    at: &At<'_>,
    sink: &mut Sink,
) {
    let hugepages = names.clone().any(|name| is_hugepages(name));
    if hugepages
        && !names
            .into_iter()
            .any(|name| matches!(name.as_str(), "cpu" | "memory"))
    {
        sink.error(
            at,
            "resources/hugepages-without-cpu-memory",
            "HugePages require cpu or memory",
        );
    }
}

/// `validateContainerResourceName` or `validateResourceName`.
fn resource_name(name: &str, scope: Scope, at: &At<'_>, sink: &mut Sink) {
    let qualified = names::qualified_name(name);
    if !qualified.is_empty() {
        sink.errors_at_key(at, "resources/invalid-name", &qualified);
    } else if !name.contains('/') && !is_standard_resource(name) {
        sink.error_at_key(
            at,
            "resources/invalid-name",
            "must be a standard resource type or fully qualified",
        );
    }
    if scope == Scope::Pod {
        return;
    }
    if !name.contains('/') {
        if !is_standard_container_resource(name) {
            sink.error_at_key(
                at,
                "resources/invalid-name",
                "must be a standard resource for containers",
            );
        }
    } else if !is_native(name) && !is_extended(name) {
        sink.error_at_key(
            at,
            "resources/invalid-name",
            "doesn't follow extended resource name standard",
        );
    }
}

/// `validateResourceQuantityHugePageValue`: a whole number of pages.
fn hugepage_value(name: &str, value: &Quantity, at: &At<'_>, sink: &mut Sink) {
    let divisible = name
        .strip_prefix("hugepages-")
        .and_then(|size| Quantity::parse(size).ok())
        .filter(|size| !size.is_negative() && !size.is_zero() && size.is_integer())
        .is_some_and(|size| value.value().checked_rem(size.value()) == Some(0));
    if !divisible {
        sink.error(
            at,
            "resources/hugepages-not-multiple",
            alloc::format!("{value} is not positive integer multiple of {name}"),
        );
    }
}

/// `IsNativeResource`: unprefixed, or in a `kubernetes.io/` namespace (upstream tests
/// `strings.Contains`, so `foo.kubernetes.io/x` is native too).
fn is_native(name: &str) -> bool {
    !name.contains('/') || name.contains("kubernetes.io/")
}

/// `IsOvercommitAllowed`: native and not hugepages.
fn is_overcommit_allowed(name: &str) -> bool {
    is_native(name) && !is_hugepages(name)
}

/// `IsExtendedResourceName`: not native, not `requests.`-prefixed, and still a qualified
/// name once `requests.` is put in front (as quota would name it).
pub(crate) fn is_extended(name: &str) -> bool {
    if is_native(name) || name.starts_with("requests.") {
        return false;
    }
    // `requests.<prefix>/<name>` is a qualified name iff the prefix is a non-empty DNS
    // subdomain of at most 244 bytes and the name part is valid.
    let Some((prefix, rest)) = name.split_once('/') else {
        return false;
    };
    !prefix.is_empty()
        && prefix.len() <= 253 - "requests.".len()
        && names::dns1123_subdomain(prefix).is_empty()
        && names::qualified_name(rest).is_empty()
}

/// `IsIntegerResourceName`: object counts and extended resources.
pub(super) fn is_integer_resource(name: &str) -> bool {
    matches!(
        name,
        "pods"
            | "resourcequotas"
            | "services"
            | "replicationcontrollers"
            | "secrets"
            | "configmaps"
            | "persistentvolumeclaims"
            | "services.nodeports"
            | "services.loadbalancers"
    ) || is_extended(name)
}

/// `IsStandardContainerResourceName`.
fn is_standard_container_resource(name: &str) -> bool {
    matches!(name, "cpu" | "memory" | "ephemeral-storage") || is_hugepages(name)
}

/// `IsStandardResourceName`.
fn is_standard_resource(name: &str) -> bool {
    matches!(
        name,
        "cpu"
            | "memory"
            | "ephemeral-storage"
            | "requests.cpu"
            | "requests.memory"
            | "requests.ephemeral-storage"
            | "limits.cpu"
            | "limits.memory"
            | "limits.ephemeral-storage"
            | "pods"
            | "resourcequotas"
            | "services"
            | "replicationcontrollers"
            | "secrets"
            | "configmaps"
            | "persistentvolumeclaims"
            | "storage"
            | "requests.storage"
            | "services.nodeports"
            | "services.loadbalancers"
    ) || is_hugepages(name)
        || name.starts_with("requests.hugepages-")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn list(pairs: &[(&str, &str)]) -> ResourceList {
        pairs
            .iter()
            .map(|(name, value)| (String::from(*name), Quantity::parse(value).unwrap()))
            .collect()
    }

    fn run(
        requests: &[(&str, &str)],
        limits: &[(&str, &str)],
    ) -> Vec<(String, &'static str, String, bool)> {
        let given = ResourceRequirements {
            requests: list(requests),
            limits: list(limits),
        };
        let mut sink = Sink::default();
        requirements(&given, Scope::Container, &At::root("resources"), &mut sink);
        sink.finish()
            .into_iter()
            .map(|v| {
                (
                    v.path.to_string(),
                    v.diagnostic.code,
                    v.diagnostic.message,
                    v.at_key,
                )
            })
            .collect()
    }

    #[test]
    fn realistic_requirements_are_valid() {
        assert!(run(
            &[("cpu", "250m"), ("memory", "64Mi")],
            &[("cpu", "500m"), ("memory", "128Mi")]
        )
        .is_empty());
        assert!(run(&[("nvidia.com/gpu", "1")], &[("nvidia.com/gpu", "1")]).is_empty());
        assert!(run(&[], &[("example.com/foo", "2")]).is_empty());
        assert!(run(
            &[("hugepages-2Mi", "4Mi"), ("memory", "1Gi")],
            &[("hugepages-2Mi", "4Mi")]
        )
        .is_empty());
        assert!(run(&[("ephemeral-storage", "1Gi")], &[]).is_empty());
    }

    #[test]
    fn requests_may_not_exceed_limits() {
        assert_eq!(
            run(&[("cpu", "2")], &[("cpu", "500m")]),
            [(
                "resources.requests.cpu".into(),
                "resources/request-exceeds-limit",
                "must be less than or equal to cpu limit of 500m".into(),
                false
            )]
        );
        assert_eq!(
            run(&[("memory", "2Gi")], &[("memory", "1Gi")])[0].2,
            "must be less than or equal to memory limit of 1Gi"
        );
    }

    #[test]
    fn extended_resources_are_whole_and_not_overcommitted() {
        assert_eq!(
            run(&[("example.com/gpu", "1")], &[("example.com/gpu", "2")])[0].2,
            "must be equal to example.com/gpu limit of 2"
        );
        assert_eq!(
            run(&[("example.com/gpu", "1")], &[]),
            [(
                "resources.limits".into(),
                "resources/missing-limit",
                "Limit must be set for non overcommitable resources".into(),
                false
            )]
        );
        let found = run(&[], &[("example.com/gpu", "500m")]);
        assert_eq!(found[0].1, "quantity/not-integer");
        assert_eq!(found[0].2, "must be an integer");
    }

    #[test]
    fn quantities_are_not_negative() {
        let found = run(&[("cpu", "-1")], &[]);
        assert_eq!(
            found,
            [(
                "resources.requests.cpu".into(),
                "quantity/negative",
                "must be greater than or equal to 0".into(),
                false
            )]
        );
    }

    #[test]
    fn container_resource_names() {
        let found = run(&[("cpus", "1")], &[]);
        let messages: Vec<&str> = found.iter().map(|f| f.2.as_str()).collect();
        assert_eq!(
            messages,
            [
                "must be a standard resource type or fully qualified",
                "must be a standard resource for containers"
            ]
        );
        assert!(found
            .iter()
            .all(|f| f.3 && f.0 == "resources.requests.cpus"));
        assert_eq!(
            run(&[("pods", "1")], &[])[0].2,
            "must be a standard resource for containers"
        );
        assert_eq!(
            run(&[], &[("requests.example.com/x", "1")])[0].2,
            "doesn't follow extended resource name standard"
        );
        assert!(run(&[("kubernetes.io/foo", "1")], &[]).is_empty());
    }

    #[test]
    fn hugepages() {
        let found = run(
            &[("hugepages-2Mi", "3Mi"), ("memory", "1Gi")],
            &[("hugepages-2Mi", "3Mi")],
        );
        assert_eq!(found.len(), 2);
        assert_eq!(
            found[0].2,
            "3Mi is not positive integer multiple of hugepages-2Mi"
        );
        let found = run(&[("hugepages-2Mi", "4Mi")], &[("hugepages-2Mi", "4Mi")]);
        assert_eq!(
            found,
            [(
                "resources".into(),
                "resources/hugepages-without-cpu-memory",
                "HugePages require cpu or memory".into(),
                false
            )]
        );
    }

    #[test]
    fn extended_and_integer_names() {
        assert!(is_extended("example.com/gpu"));
        assert!(is_extended("nvidia.com/gpu"));
        assert!(!is_extended("kubernetes.io/foo"));
        assert!(!is_extended("cpu"));
        assert!(!is_extended("requests.example.com/x"));
        assert!(is_integer_resource("pods"));
        assert!(!is_integer_resource("cpu"));
    }

    #[test]
    fn node_quantities() {
        let mut sink = Sink::default();
        quantities(
            &list(&[("cpu", "-1"), ("pods", "1.5"), ("example.com/gpu", "0.5")]),
            &At::root("capacity"),
            &mut sink,
        );
        let found: Vec<(String, &str)> = sink
            .finish()
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code))
            .collect();
        assert_eq!(
            found,
            [
                ("capacity.cpu".into(), "quantity/negative"),
                ("capacity[example.com/gpu]".into(), "quantity/not-integer"),
                ("capacity.pods".into(), "quantity/not-integer"),
            ]
        );
    }
}
