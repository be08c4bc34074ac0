//! API validation of each object, by the API server's rules and with its messages.
//!
//! An object with an error is left out of evaluation; warnings leave it in. A rule of one
//! release's API server alone ([`Violation::only_in`]) counts once the input's release is
//! known, when the cluster is built.
//!
//! Each kind is checked the way `kube-apiserver` checks it on create, after defaulting
//! (`pkg/apis/core/validation/validation.go`, `pkg/apis/apps/validation`,
//! `pkg/apis/batch/validation`, `pkg/apis/policy/validation`,
//! `pkg/apis/scheduling/validation`, and `k8s.io/apimachinery`'s `util/validation`,
//! `api/validate/content` and `apis/meta/v1/validation`). Validation runs on the
//! object as written, before kubefit's own defaulting, so a field that upstream fills
//! in (an empty `restartPolicy`, an empty port `protocol`, a request missing where a
//! limit is given) is read as its default.
//!
//! # Messages
//!
//! A message is the `detail` of upstream's `field.Error` when it has one, such as
//! `must be in the range 1-100`; otherwise it is upstream's whole error body, such as
//! `Required value` or `Unsupported value: "Foo": supported values: "Equal", "Exists"`.
//! The field itself is in the diagnostic's path, not in the message. Words kubefit adds
//! put user values in backticks.
//!
//! # Paths
//!
//! Paths are upstream's, relative to the object, with three deliberate differences so
//! that a diagnostic points at the offending node of the input:
//! - map entries are named by key: `metadata.labels[app.kubernetes.io/name]` (the key
//!   itself, with [`Violation::at_key`], for a bad key) where upstream names the whole
//!   map, and `resources.requests[cpu]` where upstream names `resources.requests`;
//! - node taints are under `spec.taints` (upstream says `metadata.taints`, a slip);
//! - a toleration's bad `value` is reported at `value` (upstream says `operator`), and
//!   a pod affinity term's bad namespace at `namespaces[i]` (upstream: `namespace`).
//!
//! # Codes
//!
//! - metadata: `metadata/required`, `metadata/invalid-name`, `metadata/invalid-namespace`,
//!   `labels/invalid-key`, `labels/invalid-value`, `annotations/invalid-key`,
//!   `annotations/too-long`, `owner/invalid`, `owner/multiple-controllers`;
//! - nodes: `taint/invalid-key`, `taint/invalid-value`, `taint/missing-effect`,
//!   `taint/invalid-effect`, `taint/duplicate`;
//! - quantities and resources: `quantity/negative`, `quantity/not-integer`,
//!   `resources/invalid-name`, `resources/request-exceeds-limit`,
//!   `resources/request-not-equal-limit`, `resources/missing-limit`,
//!   `resources/hugepages-not-multiple`, `resources/hugepages-without-cpu-memory`;
//! - pods: `pod/no-containers`, `pod/invalid-restart-policy`, `pod/invalid-node-name`,
//!   `pod/invalid-priority-class-name`, `pod/invalid-preemption-policy`,
//!   `pod/invalid-scheduling-gate`, `pod/duplicate-scheduling-gate`, `pod/gated-node-name`,
//!   `pod/invalid-start-time` (warning),
//!   `container/invalid-name`, `container/duplicate-name`, `container/invalid-image`,
//!   `container/forbidden-restart-policy`, `container/invalid-restart-policy`,
//!   `port/invalid-name`, `port/duplicate-name`, `port/invalid-number`,
//!   `port/invalid-protocol`, `port/host-port-conflict`, `port/host-network-mismatch`,
//!   `volume/invalid-name`, `volume/duplicate-name`, `volume/missing-claim-name`;
//! - tolerations: `toleration/invalid-key`, `toleration/invalid-operator`,
//!   `toleration/invalid-value`, `toleration/invalid-effect`,
//!   `toleration/seconds-without-no-execute`;
//! - selectors: `selector/invalid-operator`, `selector/missing-values`,
//!   `selector/forbidden-values`, `selector/single-value`, `selector/gt-lt-not-integer`
//!   (warning), `selector/invalid-key`, `selector/invalid-value` (a warning for node
//!   requirement values the API server admits), `selector/invalid-field-key`,
//!   `selector/invalid-field-value`;
//! - affinity: `affinity/no-terms`, `affinity/empty-term` (warning),
//!   `affinity/invalid-weight`, `affinity/empty-topology-key`,
//!   `affinity/invalid-topology-key`, `affinity/invalid-namespace`,
//!   `affinity/label-keys-without-selector`, `affinity/invalid-label-key`,
//!   `affinity/label-key-conflict`;
//! - topology spread: `topology-spread/invalid-max-skew`,
//!   `topology-spread/empty-topology-key`, `topology-spread/invalid-when-unsatisfiable`,
//!   `topology-spread/duplicate`, `topology-spread/invalid-min-domains`,
//!   `topology-spread/invalid-policy`, `topology-spread/label-keys-without-selector`,
//!   `topology-spread/invalid-label-key`;
//! - priority classes: `priority-class/value-too-high`, `priority-class/reserved-name`,
//!   `priority-class/invalid-preemption-policy`;
//! - disruption budgets: `pdb/both-set`, `pdb/invalid-value`, `pdb/invalid-eviction-policy`;
//! - services: `service/invalid-type`;
//! - storage: `storage/missing-access-modes`, `storage/invalid-access-mode`,
//!   `storage/exclusive-access-mode`, `storage/invalid-class-name`,
//!   `storage/invalid-volume-mode`, `persistent-volume/missing-capacity`,
//!   `persistent-volume/invalid-capacity`, `persistent-volume/missing-source`,
//!   `persistent-volume/multiple-sources`, `persistent-volume/missing-node-constraints`,
//!   `persistent-volume/invalid-reclaim-policy`, `claim/missing-storage-request`,
//!   `claim/invalid-storage-request`, `claim/binding-incomplete` (warning),
//!   `storage-class/missing-provisioner`, `storage-class/invalid-provisioner`,
//!   `storage-class/invalid-reclaim-policy`,
//!   `storage-class/invalid-binding-mode`, `storage-class/empty-topology-term`,
//!   `storage-class/invalid-topology-key`, `storage-class/duplicate-topology-key`,
//!   `storage-class/missing-topology-values`, `csi/missing-driver-name`,
//!   `csi/negative-count`, `csi/missing-class-name`, `csi/invalid-class-name`;
//! - scheduler Policy: `policy/invalid-weight`, `policy/argument-count`,
//!   `policy/unknown-predicate`, `policy/unknown-priority`,
//!   `policy/invalid-hard-pod-affinity-weight`, `policy/invalid-shape`;
//! - scheduler configuration: `scheduler-config/invalid-percentage`,
//!   `scheduler-config/required-name`, `scheduler-config/duplicate-profile`,
//!   `scheduler-config/invalid-hard-pod-affinity-weight`,
//!   `scheduler-config/invalid-defaulting-type`,
//!   `scheduler-config/invalid-default-constraint`,
//!   `scheduler-config/invalid-min-candidate-nodes`,
//!   `scheduler-config/invalid-ignored-resource`, `scheduler-config/invalid-scoring-strategy`,
//!   `scheduler-config/invalid-resource-weight`, `scheduler-config/invalid-shape`,
//!   `scheduler-config/duplicate-resource`, `scheduler-config/removed-plugin`,
//!   `scheduler-config/unknown-plugin`, `scheduler-config/wrong-extension-point`,
//!   `scheduler-config/duplicate-plugin`, `scheduler-config/duplicate-plugin-config`,
//!   `scheduler-config/invalid-queue-sort`, `scheduler-config/invalid-volume-binding`,
//!   `scheduler-config/invalid-added-affinity`, `scheduler-config/unsupported-version`,
//!   `scheduler-config/invalid-parallelism`, `scheduler-config/invalid-backoff`,
//!   `scheduler-config/missing-bind-plugin`, `scheduler-config/unknown-field` (an error at
//!   a key upstream's strict decoding refuses, raised while the configuration is read:
//!   `input/fields.rs`);
//! - admission settings (namespace annotations, MasterConfig; warnings):
//!   `admission/invalid-node-selector`, `admission/unread-configuration`;
//! - the controllers' flags in a MasterConfig (an error: the controller manager does not
//!   start): `master-config/invalid-controller-argument`;
//! - machines: `machine/missing-hook-field`, `machine/invalid-hook-name`,
//!   `machine/invalid-hook-length`, `machine/duplicate-hook`,
//!   `machine/invalid-delete-policy`, `machine/selector-mismatch`;
//! - descheduler policy (all warnings: OpenShift 3.11's descheduler only logs and skips):
//!   `descheduler/unknown-strategy`, `descheduler/missing-thresholds`,
//!   `descheduler/unknown-threshold-resource`, `descheduler/threshold-out-of-range`,
//!   `descheduler/missing-target-thresholds`, `descheduler/missing-pods-target`,
//!   `descheduler/unused-target-resource`, `descheduler/threshold-above-target`,
//!   `descheduler/missing-node-affinity-type`, `descheduler/invalid-node-affinity-type`,
//!   `descheduler/duplicate-node-affinity-type`;
//! - scenarios: `scenario/several-actions`, `scenario/no-action`, `scenario/required`,
//!   `scenario/invalid-duration`, `scenario/negative-duration`,
//!   `scenario/invalid-condition-status`, `scenario/invalid-hook-phase`,
//!   `scenario/invalid-taint` (and the taint codes above for a step's taint),
//!   `scenario/unknown-field` (a warning at a key no field reads, raised while the
//!   Scenario is read: `input/fields.rs`);
//! - workloads: `workload/negative-count`, `workload/missing-selector`,
//!   `workload/empty-selector`, `workload/selector-mismatch`,
//!   `workload/invalid-restart-policy`.

mod affinity;
mod descheduler;
mod disruption_budget;
mod machine;
mod metadata;
pub mod names;
mod node;
mod path;
mod pod;
mod priority_class;
mod resources;
mod scenario;
mod scheduler;
mod selector;
mod service;
mod storage;
mod toleration;
mod workload;

use alloc::string::String;
use alloc::vec::Vec;

use crate::diagnostic::Diagnostic;
use crate::input::{FieldPath, Resource};
use crate::schedule::Version;

use metadata::NameRule;
use path::Sink;

/// Go's `%q` quoting, for messages that quote user values as upstream does.
pub(crate) use path::quote;
/// `IsExtendedResourceName`, which NodeResourcesFit's ignored resources and the
/// ExtendedResourceToleration admission plugin also follow.
pub(crate) use resources::is_extended;

/// A rule an object breaks, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// What is wrong (its span is filled in by the reader).
    pub diagnostic: Diagnostic,
    /// The offending field.
    pub path: FieldPath,
    /// True when the map key at `path` is at fault rather than its value.
    pub at_key: bool,
    /// The release whose API server alone has the rule, if one alone has it: the object
    /// is kept until the input's release is known, and the violation counts only there.
    pub only_in: Option<Version>,
}

impl Violation {
    /// An error at a field.
    #[must_use]
    pub fn error(path: FieldPath, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            diagnostic: Diagnostic::error(code, message),
            path,
            at_key: false,
            only_in: None,
        }
    }

    /// A warning at a field.
    #[must_use]
    pub fn warning(path: FieldPath, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            diagnostic: Diagnostic::warning(code, message),
            path,
            at_key: false,
            only_in: None,
        }
    }

    /// Points at the map key at `path` instead of its value.
    #[must_use]
    pub fn at_key(mut self) -> Self {
        self.at_key = true;
        self
    }

    /// Makes the rule one of `release` alone.
    #[must_use]
    pub fn only_in(mut self, release: Version) -> Self {
        self.only_in = Some(release);
        self
    }

    /// Adds a hint on how to fix the problem.
    #[must_use]
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.diagnostic = self.diagnostic.with_help(help);
        self
    }
}

/// Every rule the object breaks, in the order upstream checks them.
///
/// A valid object costs no allocation: paths and messages are built only for the
/// rules that fail.
#[must_use]
pub fn validate(resource: &Resource) -> Vec<Violation> {
    let mut sink = Sink::default();
    match resource {
        Resource::Node(node) => node::validate(node, &mut sink),
        Resource::Pod(pod) => pod::validate(pod, &mut sink),
        Resource::PriorityClass(class) => priority_class::validate(class, &mut sink),
        Resource::PodDisruptionBudget(pdb) => disruption_budget::validate(pdb, &mut sink),
        Resource::Namespace(namespace) => {
            metadata::validate(&namespace.metadata, NameRule::Label, &mut sink);
            scheduler::namespace_node_selectors(namespace, &mut sink);
        }
        Resource::Service(service) => service::validate(service, &mut sink),
        Resource::Workload(kind, workload) => workload::validate(*kind, workload, &mut sink),
        Resource::PersistentVolume(volume) => storage::persistent_volume(volume, &mut sink),
        Resource::PersistentVolumeClaim(claim) => {
            storage::persistent_volume_claim(claim, &mut sink);
        }
        Resource::StorageClass(class) => storage::storage_class(class, &mut sink),
        Resource::CsiNode(node) => storage::csi_node(node, &mut sink),
        Resource::CsiDriver(driver) => storage::csi_driver(driver, &mut sink),
        Resource::CsiStorageCapacity(capacity) => {
            storage::csi_storage_capacity(capacity, &mut sink);
        }
        Resource::Policy(policy) => scheduler::policy(policy, &mut sink),
        Resource::KubeSchedulerConfiguration(configuration) => {
            scheduler::configuration(configuration, &mut sink);
        }
        Resource::MasterConfig(config) => scheduler::master_config(config, &mut sink),
        Resource::Machine(machine) => machine::machine(machine, &mut sink),
        Resource::MachineSet(set) => machine::machine_set(set, &mut sink),
        Resource::DeschedulerPolicy(policy) => descheduler::validate(policy, &mut sink),
        Resource::Scenario(scenario) => scenario::validate(scenario, &mut sink),
    }
    sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Namespace, Node, ObjectMeta};

    #[test]
    fn a_missing_name_is_reported_at_metadata_name() {
        let violations = validate(&Resource::Node(Node::default().into()));
        let [violation] = violations.as_slice() else {
            panic!("expected one violation, got {violations:?}");
        };
        assert_eq!(violation.diagnostic.code, "metadata/required");
        assert_eq!(
            violation.diagnostic.message,
            "name or generateName is required"
        );
        assert_eq!(
            alloc::string::ToString::to_string(&violation.path),
            "metadata.name"
        );
    }

    #[test]
    fn every_code_is_documented() {
        let sources = [
            include_str!("validation/affinity.rs"),
            include_str!("validation/descheduler.rs"),
            include_str!("validation/disruption_budget.rs"),
            include_str!("validation/machine.rs"),
            include_str!("validation/metadata.rs"),
            include_str!("validation/node.rs"),
            include_str!("validation/pod.rs"),
            include_str!("validation/priority_class.rs"),
            include_str!("validation/resources.rs"),
            include_str!("validation/scenario.rs"),
            include_str!("validation/scheduler.rs"),
            include_str!("validation/selector.rs"),
            include_str!("validation/service.rs"),
            include_str!("validation/storage.rs"),
            include_str!("validation/toleration.rs"),
            include_str!("validation/workload.rs"),
        ];
        let docs = include_str!("validation.rs");
        let is_code = |text: &str| {
            text.split_once('/').is_some_and(|(scope, name)| {
                !scope.is_empty()
                    && !name.is_empty()
                    && scope.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
                    && name
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            })
        };
        let mut found = 0;
        for source in sources {
            let code_part = source.split("#[cfg(test)]").next().unwrap_or_default();
            // Every piece between two quotes; only code literals look like `scope/name`.
            for literal in code_part.split('"') {
                if is_code(literal) {
                    found += 1;
                    assert!(
                        docs.contains(&alloc::format!("`{literal}`")),
                        "`{literal}` is not in the module doc"
                    );
                }
            }
        }
        assert!(found > 50, "only {found} codes found");
    }

    #[test]
    fn namespace_names_are_dns_labels() {
        let namespace = Namespace {
            metadata: ObjectMeta {
                name: "team.a".into(),
                ..ObjectMeta::default()
            },
        };
        let violations = validate(&Resource::Namespace(namespace.into()));
        let messages: Vec<&str> = violations
            .iter()
            .map(|v| v.diagnostic.message.as_str())
            .collect();
        assert_eq!(messages, ["must not contain dots"]);
        let valid = Namespace {
            metadata: ObjectMeta {
                name: "team-a".into(),
                ..ObjectMeta::default()
            },
        };
        assert!(validate(&Resource::Namespace(valid.into())).is_empty());
    }
}
