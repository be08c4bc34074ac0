//! Admission plugins that change or reject pods before they reach the scheduler.
//!
//! [`Chain`] runs them in OpenShift 3.11's order (`combinedAdmissionControlPlugins` in
//! origin's `pkg/cmd/server/origin/admission/chain_builder.go`): the mutating plugins
//! OriginPodNodeEnvironment, PodNodeSelector, Priority, ExtendedResourceToleration,
//! DefaultTolerationSeconds and PodTolerationRestriction (whose 1.11 mutation ends with its
//! own validation), then the validating ones, of which only PodNodeConstraints can still
//! refuse a pod the mutating plugins accepted. Which of them run depends on the release
//! (see [`Chain::new`]).

pub mod default_toleration_seconds;
pub mod extended_resource_toleration;
pub mod pod_node_constraints;
pub mod pod_node_environment;
pub mod pod_node_selector;
pub mod pod_toleration_restriction;
pub mod priority;
pub mod selector_text;

use alloc::collections::BTreeMap;
use alloc::string::String;

use crate::model::{MasterConfig, Namespace, ObjectMeta, Pod, PriorityClass, StringMap};
use crate::schedule::Version;

/// Names under which the master configuration may configure OriginPodNodeEnvironment.
const POD_NODE_ENVIRONMENT: [&str; 2] = [
    "OriginPodNodeEnvironment",
    "scheduling.openshift.io/OriginPodNodeEnvironment",
];
/// Names under which the master configuration may configure PodNodeSelector.
const POD_NODE_SELECTOR: [&str; 1] = ["PodNodeSelector"];
/// Names under which the master configuration may configure PodNodeConstraints.
const POD_NODE_CONSTRAINTS: [&str; 2] = [
    "PodNodeConstraints",
    "scheduling.openshift.io/PodNodeConstraints",
];
/// The name under which the master configuration turns DefaultTolerationSeconds on.
const DEFAULT_TOLERATION_SECONDS: [&str; 1] = ["DefaultTolerationSeconds"];
/// Names under which the master configuration may configure ExtendedResourceToleration.
const EXTENDED_RESOURCE_TOLERATION: [&str; 1] = ["ExtendedResourceToleration"];
/// The name under which the master configuration may configure PodTolerationRestriction.
const POD_TOLERATION_RESTRICTION: [&str; 1] = ["PodTolerationRestriction"];

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

/// The admission plugins as the release and the input configure them.
#[derive(Debug)]
pub struct Chain<'a> {
    namespaces: BTreeMap<&'a str, &'a Namespace>,
    classes: &'a [PriorityClass],
    /// OriginPodNodeEnvironment, when on: the default project node selector.
    project_node_selector: Option<&'a str>,
    pod_node_selector: Option<&'a StringMap>,
    node_selector_label_blacklist: Option<&'a [String]>,
    default_toleration_seconds: bool,
    extended_resource_toleration: bool,
    toleration_restriction: Option<pod_toleration_restriction::Config<'a>>,
    version: Version,
}

/// An empty PodNodeSelector configuration, for a plugin configured by a file kubefit cannot read.
static EMPTY: StringMap = StringMap::new();

impl<'a> Chain<'a> {
    /// The chain of `version` for these namespaces, classes and master configuration.
    ///
    /// Kubernetes 1.34 runs Priority and DefaultTolerationSeconds; PodNodeSelector and
    /// PodTolerationRestriction are off by default there, and the OpenShift plugins do not
    /// exist. OpenShift 3.11 decides as origin's `pkg/cmd/server/origin/admission/register.go`
    /// does, the master configuration's plugin entries read as its
    /// `IsAdmissionPluginActivated` reads them (no master configuration counts as one
    /// without entries): OriginPodNodeEnvironment, PodNodeSelector and
    /// PodTolerationRestriction are default-on, off only under a `DefaultAdmissionConfig`
    /// with `disable: true`; DefaultTolerationSeconds, ExtendedResourceToleration and
    /// PodNodeConstraints are default-off, on when configured and not disabled, and
    /// PodNodeConstraints also stays off under a `DefaultAdmissionConfig` with
    /// `disable: false`, since that hands it no configuration and it then turns itself
    /// off (`podnodeconstraints/admission.go`).
    #[must_use]
    pub fn new(
        namespaces: &'a [Namespace],
        classes: &'a [PriorityClass],
        master: Option<&'a MasterConfig>,
        version: Version,
    ) -> Self {
        let openshift = version == Version::Legacy;
        let entry = |names: &[&str]| {
            master.and_then(|master| {
                names
                    .iter()
                    .find_map(|name| master.admission_config.plugin_config.get(*name))
            })
        };
        let default_on = |names: &[&str]| {
            openshift
                && entry(names).is_none_or(|config| config.configuration.disable != Some(true))
        };
        // A default-off plugin runs when configured and not disabled.
        let default_off = |names: &[&str]| {
            entry(names).is_some_and(|config| config.configuration.disable != Some(true))
        };
        let pod_node_selector = default_on(&POD_NODE_SELECTOR).then(|| {
            entry(&POD_NODE_SELECTOR)
                .and_then(|config| {
                    config
                        .configuration
                        .pod_node_selector_plugin_config
                        .as_ref()
                })
                .unwrap_or(&EMPTY)
        });
        // A `DefaultAdmissionConfig` leaves the lists empty, as does the plugin's own
        // configuration without them.
        let toleration_restriction = default_on(&POD_TOLERATION_RESTRICTION).then(|| {
            let configuration =
                entry(&POD_TOLERATION_RESTRICTION).map(|config| &config.configuration);
            pod_toleration_restriction::Config {
                default: configuration
                    .and_then(|configuration| configuration.default.as_deref())
                    .unwrap_or_default(),
                whitelist: configuration
                    .and_then(|configuration| configuration.whitelist.as_deref())
                    .unwrap_or_default(),
            }
        });
        let node_selector_label_blacklist = entry(&POD_NODE_CONSTRAINTS)
            .filter(|config| openshift && config.configuration.disable.is_none())
            .map(|config| {
                config
                    .configuration
                    .node_selector_label_blacklist
                    .as_deref()
                    .unwrap_or(&[])
            });
        Self {
            namespaces: namespaces
                .iter()
                .map(|namespace| (namespace.metadata.name.as_str(), namespace))
                .collect(),
            classes,
            project_node_selector: default_on(&POD_NODE_ENVIRONMENT).then(|| {
                master.map_or("", |master| {
                    master.project_config.default_node_selector.as_str()
                })
            }),
            pod_node_selector,
            node_selector_label_blacklist,
            default_toleration_seconds: !openshift || default_off(&DEFAULT_TOLERATION_SECONDS),
            extended_resource_toleration: openshift && default_off(&EXTENDED_RESOURCE_TOLERATION),
            toleration_restriction,
            version,
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
        let namespace = self
            .namespaces
            .get(pod.metadata.namespace.as_str())
            .copied();
        if created {
            if let Some(default) = self.project_node_selector {
                if let Err(message) = pod_node_environment::admit(pod, namespace, default) {
                    return reject(
                        "admission/project-node-selector",
                        "spec.nodeSelector",
                        message,
                    );
                }
            }
            if let Some(config) = self.pod_node_selector {
                if let Err(message) = pod_node_selector::admit(pod, namespace, config) {
                    return reject("admission/pod-node-selector", "spec.nodeSelector", message);
                }
            }
        }
        let decision = match priority::admit(pod, self.classes, self.version, created) {
            priority::Decision::Admitted => Decision::Admitted,
            priority::Decision::AdmittedWithoutClass => Decision::AdmittedWithoutClass,
            priority::Decision::Rejected(message) => {
                return reject("admission/priority", "spec.priorityClassName", message);
            }
        };
        if created && self.extended_resource_toleration {
            extended_resource_toleration::admit(pod);
        }
        if created && self.default_toleration_seconds {
            default_toleration_seconds::admit(pod);
        }
        if let (true, Some(config)) = (created, self.toleration_restriction) {
            if let Err(message) = pod_toleration_restriction::admit(pod, namespace, config) {
                return reject(
                    "admission/pod-toleration-restriction",
                    "spec.tolerations",
                    message,
                );
            }
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

/// The API server's refusal, `pods "<name>" is forbidden: <reason>`, or without a name
/// `pods is forbidden: <reason>` (`NewForbidden` in apimachinery's `pkg/api/errors`).
fn forbidden(pod_name: &str, reason: &str) -> String {
    if pod_name.is_empty() {
        alloc::format!("pods is forbidden: {reason}")
    } else {
        alloc::format!("pods \"{pod_name}\" is forbidden: {reason}")
    }
}

/// The pod's name as the mutating plugins see it: empty when the API server generates it
/// from `generateName`, which it does after them (`rest.BeforeCreate`, in the registry's
/// `Create`). The pods controllers create, and pods dumped with a `generateName`, are so
/// named.
fn name_before_generation(metadata: &ObjectMeta) -> &str {
    if metadata.generate_name.is_empty() {
        &metadata.name
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AdmissionPluginConfig;
    use alloc::vec::Vec;
    use selector_text::map;

    /// A namespace whose `annotation` selects `region=east`.
    fn namespace(name: &str, annotation: &str) -> Namespace {
        let mut namespace = Namespace::default();
        namespace.metadata.name = name.into();
        namespace.metadata.annotations = map(&[(annotation, "region=east")]);
        namespace
    }

    /// A master configuration with these plugin entries (`Some(disable)`: a
    /// `DefaultAdmissionConfig`).
    fn master(entries: &[(&str, Option<bool>)]) -> MasterConfig {
        let mut master = MasterConfig::default();
        for (name, disable) in entries {
            let mut config = AdmissionPluginConfig::default();
            config.configuration.disable = *disable;
            master
                .admission_config
                .plugin_config
                .insert((*name).into(), config);
        }
        master
    }

    /// Admits a new pod selecting `region=west` in `namespace`: the refusal, or the
    /// admitted pod's node selector and toleration keys.
    fn admit(
        pod_namespace: &str,
        master: Option<&MasterConfig>,
        version: Version,
    ) -> Result<(StringMap, Vec<String>), String> {
        let namespaces = [
            namespace("openshift", pod_node_environment::ANNOTATION),
            namespace("kube", pod_node_selector::ANNOTATION),
        ];
        let chain = Chain::new(&namespaces, &[], master, version);
        let mut pod = Pod::default();
        pod.metadata.name = "p".into();
        pod.metadata.namespace = pod_namespace.into();
        pod.spec.node_selector = map(&[("region", "west")]);
        match chain.admit(&mut pod, true) {
            Decision::Rejected(rejection) => Err(rejection.message),
            _ => Ok((
                pod.spec.node_selector,
                pod.spec.tolerations.into_iter().map(|t| t.key).collect(),
            )),
        }
    }

    const TOLERATIONS: [&str; 2] = [
        default_toleration_seconds::NOT_READY,
        default_toleration_seconds::UNREACHABLE,
    ];

    /// Kubernetes 1.34 has no OriginPodNodeEnvironment, leaves PodNodeSelector off and
    /// runs DefaultTolerationSeconds, whatever a master configuration says.
    #[test]
    fn kubernetes_runs_only_its_default_plugins() {
        let openshift_only = master(&[("PodNodeConstraints", None)]);
        for master in [None, Some(&openshift_only)] {
            for namespace in ["openshift", "kube"] {
                assert_eq!(
                    admit(namespace, master, Version::Current),
                    Ok((
                        map(&[("region", "west")]),
                        TOLERATIONS.map(String::from).into()
                    ))
                );
            }
        }
    }

    /// OpenShift 3.11 runs its default-on plugins with or without a master configuration
    /// that configures others, and DefaultTolerationSeconds only when enabled.
    #[test]
    fn openshift_runs_its_default_on_plugins() {
        let conflict = |owner: &str| {
            Err(alloc::format!(
                "pods \"p\" is forbidden: pod node label selector conflicts with its {owner} node label selector"
            ))
        };
        let constraints = master(&[("PodNodeConstraints", None)]);
        for master in [None, Some(&constraints)] {
            assert_eq!(
                admit("openshift", master, Version::Legacy),
                conflict("project")
            );
            assert_eq!(
                admit("kube", master, Version::Legacy),
                conflict("namespace")
            );
            assert_eq!(
                admit("other", master, Version::Legacy),
                Ok((map(&[("region", "west")]), Vec::new()))
            );
        }
        let enabled = master(&[("DefaultTolerationSeconds", Some(false))]);
        assert_eq!(
            admit("other", Some(&enabled), Version::Legacy),
            Ok((
                map(&[("region", "west")]),
                TOLERATIONS.map(String::from).into()
            ))
        );
    }

    /// `DefaultAdmissionConfig` with `disable: true` turns a plugin off; with `false`,
    /// PodNodeConstraints gets no configuration and stays off.
    #[test]
    fn default_admission_config_disables() {
        let off = master(&[
            (
                "scheduling.openshift.io/OriginPodNodeEnvironment",
                Some(true),
            ),
            ("PodNodeSelector", Some(true)),
            ("DefaultTolerationSeconds", Some(true)),
        ]);
        for namespace in ["openshift", "kube"] {
            assert_eq!(
                admit(namespace, Some(&off), Version::Legacy),
                Ok((map(&[("region", "west")]), Vec::new()))
            );
        }
        let mut pod = Pod::default();
        pod.spec.node_name = "n1".into();
        for (disable, refused) in [(None, true), (Some(false), false), (Some(true), false)] {
            let master = master(&[("PodNodeConstraints", disable)]);
            let chain = Chain::new(&[], &[], Some(&master), Version::Legacy);
            let decision = chain.admit(&mut pod.clone(), true);
            assert_eq!(
                matches!(decision, Decision::Rejected(_)),
                refused,
                "{disable:?}"
            );
        }
    }

    /// The keys of the tolerations a new pod in `team` ends with, or the refusal: a
    /// Burstable pod, asking for 100m of cpu and for `example.com/gpu`.
    fn toleration_keys(
        namespaces: &[Namespace],
        master: Option<&MasterConfig>,
        version: Version,
    ) -> Result<Vec<String>, String> {
        let chain = Chain::new(namespaces, &[], master, version);
        let mut pod: Pod = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "p", "namespace": "team"},
            "spec": {"containers": [{"name": "c", "resources": {
                "requests": {"cpu": "100m", "example.com/gpu": "1"}
            }}]}
        }))
        .unwrap();
        match chain.admit(&mut pod, true) {
            Decision::Rejected(rejection) => Err(rejection.message),
            _ => Ok(pod.spec.tolerations.into_iter().map(|t| t.key).collect()),
        }
    }

    /// OpenShift 3.11 runs PodTolerationRestriction unless a `DefaultAdmissionConfig`
    /// disables it, after ExtendedResourceToleration and DefaultTolerationSeconds, with the
    /// lists of its configuration; Kubernetes 1.34 does not run it.
    #[test]
    fn openshift_restricts_tolerations_by_default() {
        let pressure = pod_toleration_restriction::MEMORY_PRESSURE;
        let both = |keys: &[&str]| Ok(keys.iter().map(|key| String::from(*key)).collect());
        assert_eq!(
            toleration_keys(&[], None, Version::Legacy),
            both(&[pressure])
        );
        let off = master(&[("PodTolerationRestriction", Some(true))]);
        assert_eq!(toleration_keys(&[], Some(&off), Version::Legacy), both(&[]));
        assert_eq!(
            toleration_keys(&[], None, Version::Current),
            both(&TOLERATIONS)
        );
        // The release's order: ExtendedResourceToleration, DefaultTolerationSeconds, then
        // the memory-pressure merge, which puts its toleration first.
        let all = master(&[
            ("PodTolerationRestriction", Some(false)),
            ("ExtendedResourceToleration", Some(false)),
            ("DefaultTolerationSeconds", Some(false)),
        ]);
        let [not_ready, unreachable] = TOLERATIONS;
        assert_eq!(
            toleration_keys(&[], Some(&all), Version::Legacy),
            both(&[pressure, "example.com/gpu", not_ready, unreachable])
        );
        // The plugin's own configuration: a cluster default the namespace's annotation
        // replaces, and a cluster whitelist.
        let mut configured = MasterConfig::default();
        let mut config = AdmissionPluginConfig::default();
        let dedicated = crate::model::Toleration {
            key: "dedicated".into(),
            operator: "Exists".into(),
            ..crate::model::Toleration::default()
        };
        config.configuration.default = Some(alloc::vec![dedicated.clone()]);
        config.configuration.whitelist = Some(alloc::vec![dedicated]);
        configured
            .admission_config
            .plugin_config
            .insert("PodTolerationRestriction".into(), config);
        assert_eq!(
            toleration_keys(&[], Some(&configured), Version::Legacy),
            Err("pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist".into())
        );
        let mut team = Namespace::default();
        team.metadata.name = "team".into();
        team.metadata.annotations = map(&[
            (pod_toleration_restriction::DEFAULTS, ""),
            (pod_toleration_restriction::WHITELIST, ""),
        ]);
        assert_eq!(
            toleration_keys(&[team], Some(&configured), Version::Legacy),
            both(&[pressure])
        );
    }

    /// A pod a controller creates has only a `generateName` while the mutating plugins
    /// run: Priority names it by that, the node selector plugins by its empty name.
    #[test]
    fn generated_pods_are_refused_by_their_name_before_generation() {
        let namespaces = [
            namespace("openshift", pod_node_environment::ANNOTATION),
            namespace("kube", pod_node_selector::ANNOTATION),
        ];
        let chain = Chain::new(&namespaces, &[], None, Version::Legacy);
        let refusal = |namespace: &str, class: &str| {
            let mut pod = Pod::default();
            pod.metadata.name = "web-7q49m".into();
            pod.metadata.generate_name = "web-".into();
            pod.metadata.namespace = namespace.into();
            pod.spec.priority_class_name = class.into();
            pod.spec.node_selector = map(&[("region", "west")]);
            match chain.admit(&mut pod, true) {
                Decision::Rejected(rejection) => rejection.message,
                decision => alloc::format!("{decision:?}"),
            }
        };
        assert_eq!(
            refusal("other", "gold"),
            "pods \"web-\" is forbidden: no PriorityClass with name gold was found"
        );
        assert_eq!(
            refusal("kube", ""),
            "pods is forbidden: pod node label selector conflicts with its namespace node label selector"
        );
        assert_eq!(
            refusal("openshift", ""),
            "pods is forbidden: pod node label selector conflicts with its project node label selector"
        );
    }
}
