//! `Service`: name, selector and type.
//!
//! Upstream: `ValidateService` in `pkg/apis/core/validation/validation.go`, for the
//! fields kubefit models (ports are not modelled, so a missing `ports` is not reported).

use crate::model::Service;

use super::metadata::{self, NameRule};
use super::path::{unsupported, At, Sink};

/// Every rule a Service breaks.
pub(super) fn validate(service: &Service, sink: &mut Sink) {
    metadata::validate(&service.metadata, NameRule::Dns1035, sink);
    let spec = At::root("spec");
    let kind = service.spec.type_.as_str();
    // An empty type is defaulted to `ClusterIP`.
    if !matches!(
        kind,
        "" | "ClusterIP" | "NodePort" | "LoadBalancer" | "ExternalName"
    ) {
        sink.error(
            &spec.field("type"),
            "service/invalid-type",
            unsupported(
                kind,
                &["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"],
            ),
        );
    }
    metadata::labels(&service.spec.selector, &spec.field("selector"), sink);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Resource;
    use crate::validation::validate as validate_resource;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn run(json: serde_json::Value) -> Vec<(String, &'static str, String)> {
        let service: Service = serde_json::from_value(json).unwrap();
        validate_resource(&Resource::Service(service.into()))
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    #[test]
    fn a_realistic_service_is_valid() {
        assert_eq!(
            run(serde_json::json!({
                "metadata": {"name": "web", "namespace": "shop", "labels": {"app": "web"}},
                "spec": {"type": "ClusterIP", "selector": {"app.kubernetes.io/name": "web"}}
            })),
            []
        );
    }

    #[test]
    fn names_types_and_selectors() {
        let found = run(serde_json::json!({
            "metadata": {"name": "1web"},
            "spec": {"type": "Internal", "selector": {"app": "-web"}}
        }));
        let rows: Vec<(String, &str)> = found.into_iter().map(|f| (f.0, f.1)).collect();
        assert_eq!(
            rows,
            [
                ("metadata.name".into(), "metadata/invalid-name"),
                ("spec.type".into(), "service/invalid-type"),
                ("spec.selector.app".into(), "labels/invalid-value"),
            ]
        );
    }
}
