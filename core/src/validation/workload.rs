//! Pod owners: Deployment, ReplicaSet, StatefulSet, DaemonSet, ReplicationController, Job.
//!
//! Upstream: `ValidateDeploymentSpec`, `ValidateReplicaSetSpec`, `ValidateStatefulSetSpec`,
//! `ValidateDaemonSetSpec` (`pkg/apis/apps/validation`), `ValidateReplicationControllerSpec`
//! and `ValidatePodTemplateSpec` (`pkg/apis/core/validation`), and `ValidateJobSpec`
//! (`pkg/apis/batch/validation`).
//!
//! The template's labels are reported at `spec.template.metadata.labels[<key>]`, where
//! upstream names `spec.template.labels`. A Job without a selector is accepted: the API
//! server generates one (and the matching template labels) on create.

use crate::labels;
use crate::model::{LabelSelector, StringMap, Workload, WorkloadKind};

use super::metadata::{self, NameRule};
use super::path::{unsupported, At, Sink};
use super::pod;
use super::selector;

/// Every rule a pod owner breaks.
pub(super) fn validate(kind: WorkloadKind, workload: &Workload, sink: &mut Sink) {
    metadata::validate(&workload.metadata, NameRule::Subdomain, sink);
    let spec_at = At::root("spec");
    let spec = &workload.spec;
    if kind != WorkloadKind::DaemonSet {
        counts(workload, kind, &spec_at, sink);
    }
    let template_at = spec_at.field("template");
    let selector_ok = selector_rules(kind, workload, &spec_at, sink);
    if let (true, Some(selector)) = (selector_ok, &spec.selector) {
        selector_matches_template(
            selector,
            &spec.template.metadata.labels,
            &template_at,
            "workload/selector-mismatch",
            sink,
        );
    }
    let template_meta = template_at.field("metadata");
    metadata::labels(
        &spec.template.metadata.labels,
        &template_meta.field("labels"),
        sink,
    );
    metadata::annotations(
        &spec.template.metadata.annotations,
        &template_meta.field("annotations"),
        sink,
    );
    let template_spec = template_at.field("spec");
    pod::pod_spec(&spec.template.spec, false, &template_spec, sink);
    template_restart_policy(
        kind,
        &spec.template.spec.restart_policy,
        &template_spec.field("restartPolicy"),
        sink,
    );
}

/// `replicas`, and a Job's `parallelism` and `completions`, are not negative.
fn counts(workload: &Workload, kind: WorkloadKind, spec: &At<'_>, sink: &mut Sink) {
    let fields: [(&str, Option<i32>); 2] = if kind == WorkloadKind::Job {
        [
            ("parallelism", workload.spec.parallelism),
            ("completions", workload.spec.completions),
        ]
    } else {
        [("replicas", workload.spec.replicas), ("", None)]
    };
    for (field, value) in fields {
        if value.is_some_and(|value| value < 0) {
            sink.error(
                &spec.field(field),
                "workload/negative-count",
                "must be greater than or equal to 0",
            );
        }
    }
}

/// The selector rules of each kind; true when the selector can be matched against the
/// template (it is present, non-empty and valid).
fn selector_rules(kind: WorkloadKind, workload: &Workload, spec: &At<'_>, sink: &mut Sink) -> bool {
    let at = spec.field("selector");
    let before = sink.len();
    match (&workload.spec.selector, kind) {
        // A Job's selector is generated when absent; a ReplicationController's defaults
        // to the template labels.
        (None, WorkloadKind::Job) => return false,
        (None, WorkloadKind::ReplicationController) => {
            if workload.spec.template.metadata.labels.is_empty() {
                sink.error(&at, "workload/missing-selector", "Required value");
            }
            return false;
        }
        (None, _) => {
            sink.error(&at, "workload/missing-selector", "Required value");
            return false;
        }
        (Some(selector), WorkloadKind::ReplicationController) => {
            // A plain map; an empty one defaults to the template labels.
            if selector.match_labels.is_empty() {
                if workload.spec.template.metadata.labels.is_empty() {
                    sink.error(&at, "workload/missing-selector", "Required value");
                }
                return false;
            }
        }
        (Some(selector), _) => {
            selector::label_selector(selector, &at, sink);
            let empty = selector.match_labels.is_empty() && selector.match_expressions.is_empty();
            let message = match kind {
                WorkloadKind::StatefulSet => Some("empty selector is invalid for statefulset"),
                WorkloadKind::DaemonSet => Some("empty selector is invalid for daemonset"),
                // ReplicaSet reuses the Deployment wording upstream.
                WorkloadKind::Deployment | WorkloadKind::ReplicaSet => {
                    Some("empty selector is invalid for deployment")
                }
                WorkloadKind::Job | WorkloadKind::ReplicationController => None,
            };
            if let (true, Some(message)) = (empty, message) {
                sink.error(&at, "workload/empty-selector", message);
            }
        }
    }
    sink.len() == before
}

/// The selector must select what the template makes: the pods of a pod owner, the
/// machines of a MachineSet (`validateMachineSetSpec` in machine-api-operator's
/// `pkg/webhooks/machineset_webhook.go`). An empty selector selects everything.
pub(super) fn selector_matches_template(
    selector: &LabelSelector,
    template_labels: &StringMap,
    template: &At<'_>,
    code: &'static str,
    sink: &mut Sink,
) {
    if !labels::selector_matches(selector, template_labels) {
        sink.error(
            &template.field("metadata").field("labels"),
            code,
            "`selector` does not match template `labels`",
        );
    }
}

/// Controllers that keep pods running need `Always`; a Job needs `OnFailure` or `Never`.
/// An empty policy is read as its default, `Always`.
fn template_restart_policy(kind: WorkloadKind, policy: &str, at: &At<'_>, sink: &mut Sink) {
    let policy = if policy.is_empty() { "Always" } else { policy };
    if kind == WorkloadKind::Job {
        if !matches!(policy, "OnFailure" | "Never") {
            sink.error(
                at,
                "workload/invalid-restart-policy",
                unsupported(policy, &["OnFailure", "Never"]),
            );
        }
    } else if policy != "Always" {
        sink.error(
            at,
            "workload/invalid-restart-policy",
            unsupported(policy, &["Always"]),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::Resource;
    use crate::model::LabelSelector;
    use crate::validation::validate as validate_resource;
    use alloc::string::{String, ToString};
    use alloc::vec::Vec;

    fn workload(json: serde_json::Value, selector: Option<serde_json::Value>) -> Workload {
        let mut workload: Workload = serde_json::from_value(json).unwrap();
        workload.spec.selector =
            selector.map(|s| serde_json::from_value::<LabelSelector>(s).unwrap());
        workload
    }

    fn run(kind: WorkloadKind, workload: Workload) -> Vec<(String, &'static str, String)> {
        validate_resource(&Resource::Workload(kind, workload.into()))
            .into_iter()
            .map(|v| (v.path.to_string(), v.diagnostic.code, v.diagnostic.message))
            .collect()
    }

    fn template(labels: serde_json::Value, restart: &str) -> serde_json::Value {
        serde_json::json!({
            "metadata": {"labels": labels},
            "spec": {"restartPolicy": restart, "containers": [{"name": "app", "image": "app:1", "resources": {"requests": {"cpu": "100m"}}}]}
        })
    }

    #[test]
    fn realistic_workloads_are_valid() {
        let deployment = workload(
            serde_json::json!({
                "metadata": {"name": "api", "namespace": "shop", "labels": {"app": "api"}},
                "spec": {"replicas": 3, "template": template(serde_json::json!({"app": "api", "tier": "backend"}), "")}
            }),
            Some(
                serde_json::json!({"matchLabels": {"app": "api"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["backend"]}]}),
            ),
        );
        assert_eq!(run(WorkloadKind::Deployment, deployment.clone()), []);
        assert_eq!(run(WorkloadKind::ReplicaSet, deployment.clone()), []);
        assert_eq!(run(WorkloadKind::StatefulSet, deployment.clone()), []);
        assert_eq!(run(WorkloadKind::DaemonSet, deployment), []);
        let job = workload(
            serde_json::json!({
                "metadata": {"name": "report", "namespace": "data"},
                "spec": {"parallelism": 2, "completions": 5, "template": template(serde_json::json!({}), "Never")}
            }),
            None,
        );
        assert_eq!(run(WorkloadKind::Job, job), []);
        let controller = workload(
            serde_json::json!({
                "metadata": {"name": "legacy"},
                "spec": {"replicas": 1, "template": template(serde_json::json!({"app": "legacy"}), "Always")}
            }),
            Some(serde_json::json!({"matchLabels": {"app": "legacy"}})),
        );
        assert_eq!(run(WorkloadKind::ReplicationController, controller), []);
    }

    #[test]
    fn selector_does_not_match_template_labels() {
        let deployment = workload(
            serde_json::json!({"metadata": {"name": "api"}, "spec": {"template": template(serde_json::json!({"app": "check-out"}), "")}}),
            Some(serde_json::json!({"matchLabels": {"app": "checkout"}})),
        );
        assert_eq!(
            run(WorkloadKind::Deployment, deployment),
            [(
                "spec.template.metadata.labels".into(),
                "workload/selector-mismatch",
                "`selector` does not match template `labels`".into()
            )]
        );
    }

    #[test]
    fn selectors_are_required_and_not_empty() {
        let base = serde_json::json!({"metadata": {"name": "api"}, "spec": {"template": template(serde_json::json!({"app": "a"}), "")}});
        assert_eq!(
            run(WorkloadKind::Deployment, workload(base.clone(), None)),
            [(
                "spec.selector".into(),
                "workload/missing-selector",
                "Required value".into()
            )]
        );
        let empty = Some(serde_json::json!({}));
        assert_eq!(
            run(
                WorkloadKind::ReplicaSet,
                workload(base.clone(), empty.clone())
            )[0]
            .2,
            "empty selector is invalid for deployment"
        );
        assert_eq!(
            run(
                WorkloadKind::StatefulSet,
                workload(base.clone(), empty.clone())
            )[0]
            .2,
            "empty selector is invalid for statefulset"
        );
        assert_eq!(
            run(WorkloadKind::DaemonSet, workload(base.clone(), empty))[0].2,
            "empty selector is invalid for daemonset"
        );
        // A ReplicationController's selector defaults to its template labels.
        assert_eq!(
            run(WorkloadKind::ReplicationController, workload(base, None)),
            []
        );
    }

    #[test]
    fn counts_and_restart_policies() {
        let job = workload(
            serde_json::json!({"metadata": {"name": "j"}, "spec": {"parallelism": -1, "completions": -2, "template": template(serde_json::json!({}), "")}}),
            None,
        );
        assert_eq!(
            run(WorkloadKind::Job, job),
            [
                (
                    "spec.parallelism".into(),
                    "workload/negative-count",
                    "must be greater than or equal to 0".into()
                ),
                (
                    "spec.completions".into(),
                    "workload/negative-count",
                    "must be greater than or equal to 0".into()
                ),
                (
                    "spec.template.spec.restartPolicy".into(),
                    "workload/invalid-restart-policy",
                    "Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\""
                        .into()
                ),
            ]
        );
        let deployment = workload(
            serde_json::json!({"metadata": {"name": "d"}, "spec": {"replicas": -1, "template": template(serde_json::json!({"app": "a"}), "Never")}}),
            Some(serde_json::json!({"matchLabels": {"app": "a"}})),
        );
        assert_eq!(
            run(WorkloadKind::Deployment, deployment),
            [
                (
                    "spec.replicas".into(),
                    "workload/negative-count",
                    "must be greater than or equal to 0".into()
                ),
                (
                    "spec.template.spec.restartPolicy".into(),
                    "workload/invalid-restart-policy",
                    "Unsupported value: \"Never\": supported values: \"Always\"".into()
                ),
            ]
        );
    }

    #[test]
    fn the_template_is_validated_as_a_pod_spec() {
        let deployment = workload(
            serde_json::json!({"metadata": {"name": "d"}, "spec": {"template": {
                "metadata": {"labels": {"app": "a", "bad key": "x"}},
                "spec": {"containers": [], "tolerations": [{"operator": "Equal", "value": "x"}]}
            }}}),
            Some(serde_json::json!({"matchLabels": {"app": "a"}})),
        );
        let rows: Vec<(String, &str)> = run(WorkloadKind::Deployment, deployment)
            .into_iter()
            .map(|f| (f.0, f.1))
            .collect();
        assert_eq!(
            rows,
            [
                (
                    "spec.template.metadata.labels[bad key]".into(),
                    "labels/invalid-key"
                ),
                ("spec.template.spec.containers".into(), "pod/no-containers"),
                (
                    "spec.template.spec.tolerations[0].operator".into(),
                    "toleration/invalid-operator"
                ),
            ]
        );
    }
}
