//! Admission plugins that change or reject pods before they reach the scheduler.
//!
//! [`Chain`] runs them in OpenShift 3.11's order (`combinedAdmissionControlPlugins` in
//! origin's `pkg/cmd/server/origin/admission/chain_builder.go`): the mutating plugins
//! OriginPodNodeEnvironment, PodNodeSelector, Priority and DefaultTolerationSeconds, then
//! the validating ones, of which only PodNodeConstraints can still refuse a pod the
//! mutating plugins accepted.

pub mod default_toleration_seconds;
pub mod pod_node_constraints;
pub mod pod_node_environment;
pub mod pod_node_selector;
pub mod priority;
pub mod selector_text;

use alloc::collections::BTreeMap;
use alloc::string::String;

use crate::model::{MasterConfig, Namespace, Pod, PriorityClass, StringMap};

/// Names under which the master configuration may configure PodNodeSelector.
const POD_NODE_SELECTOR: [&str; 1] = ["PodNodeSelector"];
/// Names under which the master configuration may configure PodNodeConstraints.
const POD_NODE_CONSTRAINTS: [&str; 2] = [
    "PodNodeConstraints",
    "scheduling.openshift.io/PodNodeConstraints",
];
/// The name under which the master configuration turns DefaultTolerationSeconds on.
const DEFAULT_TOLERATION_SECONDS: [&str; 1] = ["DefaultTolerationSeconds"];

/// What admission decided for one pod.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Admitted (the pod is updated in place).
    Admitted,
    /// Admitted, though its PriorityClass is not in the input (see [`priority`]).
    AdmittedWithoutClass,
    /// Refused by a plugin, with the API server's message.
    Rejected(Rejection),
}

/// Which plugin refused a pod, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The diagnostic code (`admission/priority`, …).
    pub code: &'static str,
    /// The pod field the refusal is about.
    pub path: &'static str,
    /// The API server's message.
    pub message: String,
}

/// The admission plugins as the input configures them.
#[derive(Debug)]
pub struct Chain<'a> {
    namespaces: BTreeMap<&'a str, &'a Namespace>,
    classes: &'a [PriorityClass],
    default_node_selector: &'a str,
    pod_node_selector: Option<&'a StringMap>,
    node_selector_label_blacklist: Option<&'a [String]>,
    default_toleration_seconds: bool,
}

/// An empty PodNodeSelector configuration, for a plugin configured by a file kubefit cannot read.
static EMPTY: StringMap = StringMap::new();

impl<'a> Chain<'a> {
    /// The chain for these namespaces, classes and master configuration. PodNodeSelector
    /// and PodNodeConstraints are on when the master configuration configures them;
    /// without a master configuration, PodNodeSelector is on (it only acts on namespaces
    /// that carry its annotation). DefaultTolerationSeconds is on in Kubernetes by
    /// default; OpenShift 3.11 runs it only when the master configuration enables it
    /// (chapter 16.11.4.1.1: `DefaultTolerationSeconds` with `disable: false`).
    #[must_use]
    pub fn new(
        namespaces: &'a [Namespace],
        classes: &'a [PriorityClass],
        master: Option<&'a MasterConfig>,
    ) -> Self {
        let plugin = |names: &[&str]| {
            master.and_then(|master| {
                names
                    .iter()
                    .find_map(|name| master.admission_config.plugin_config.get(*name))
            })
        };
        let pod_node_selector = match master {
            None => Some(&EMPTY),
            Some(_) => plugin(&POD_NODE_SELECTOR).map(|config| {
                config
                    .configuration
                    .pod_node_selector_plugin_config
                    .as_ref()
                    .unwrap_or(&EMPTY)
            }),
        };
        let node_selector_label_blacklist = plugin(&POD_NODE_CONSTRAINTS).map(|config| {
            config
                .configuration
                .node_selector_label_blacklist
                .as_deref()
                .unwrap_or(&[])
        });
        let default_toleration_seconds = match master {
            None => true,
            Some(_) => plugin(&DEFAULT_TOLERATION_SECONDS)
                .is_some_and(|config| config.configuration.disable != Some(true)),
        };
        Self {
            default_toleration_seconds,
            namespaces: namespaces
                .iter()
                .map(|namespace| (namespace.metadata.name.as_str(), namespace))
                .collect(),
            classes,
            default_node_selector: master
                .map_or("", |master| &master.project_config.default_node_selector),
            pod_node_selector,
            node_selector_label_blacklist,
        }
    }

    /// Runs the chain on a pod. `created` says whether the pod is being created now (it is
    /// pending, or has no status yet); pods the cluster already runs only get their
    /// priority resolved, since they passed admission when they were created.
    pub fn admit(&self, pod: &mut Pod, created: bool) -> Decision {
        let reject = |code, path, message| {
            Decision::Rejected(Rejection {
                code,
                path,
                message,
            })
        };
        if created {
            let namespace = self
                .namespaces
                .get(pod.metadata.namespace.as_str())
                .copied();
            if let Err(message) =
                pod_node_environment::admit(pod, namespace, self.default_node_selector)
            {
                return reject(
                    "admission/project-node-selector",
                    "spec.nodeSelector",
                    message,
                );
            }
            if let Some(config) = self.pod_node_selector {
                if let Err(message) = pod_node_selector::admit(pod, namespace, config) {
                    return reject("admission/pod-node-selector", "spec.nodeSelector", message);
                }
            }
        }
        let decision = match priority::admit(pod, self.classes) {
            priority::Decision::Admitted => Decision::Admitted,
            priority::Decision::AdmittedWithoutClass => Decision::AdmittedWithoutClass,
            priority::Decision::Rejected(message) => {
                return reject("admission/priority", "spec.priorityClassName", message);
            }
        };
        if created && self.default_toleration_seconds {
            default_toleration_seconds::admit(pod);
        }
        if let (true, Some(blacklist)) = (created, self.node_selector_label_blacklist) {
            if let Err(message) = pod_node_constraints::validate(pod, blacklist) {
                let path = if pod.spec.node_name.is_empty() {
                    "spec.nodeSelector"
                } else {
                    "spec.nodeName"
                };
                return reject("admission/pod-node-constraints", path, message);
            }
        }
        decision
    }
}

/// The API server's refusal: `pods "<name>" is forbidden: <reason>`.
fn forbidden(pod_name: &str, reason: &str) -> String {
    alloc::format!("pods \"{pod_name}\" is forbidden: {reason}")
}
