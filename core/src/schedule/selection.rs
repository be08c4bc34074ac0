//! Which pods a pod selects: its pod (anti-)affinity terms, and the Services and controller
//! whose selectors spreading uses by default.
//!
//! Shared by the scheduler profiles. Follows `pkg/scheduler/framework/types.go`
//! (`AffinityTerm`: the namespaces a term covers and how it matches a pod),
//! `pkg/registry/core/pod/strategy.go` (`applyMatchLabelKeysAndMismatchLabelKeys`: when a
//! pod is created the API server turns `matchLabelKeys` / `mismatchLabelKeys` into
//! `key In (value)` / `key NotIn (value)` requirements of the term's selector, using the
//! pod's own label values) and `pkg/scheduler/framework/plugins/helper/spread.go`
//! (`DefaultSelector`, `GetPodServices`). kubefit applies the API server's merge itself, so
//! hand-written manifests and objects read back from a cluster (already merged) behave the
//! same: requiring the same value twice changes nothing.

use alloc::vec::Vec;

use crate::labels;
use crate::model::{
    LabelSelector, LabelSelectorRequirement, Namespace, Pod, PodAffinityTerm, Service, StringMap,
    Workload, WorkloadKind,
};

/// No labels: those of a namespace that is not in the input, and what the incoming pod's
/// terms (namespace selectors already resolved to names) are matched with.
pub static NO_LABELS: StringMap = StringMap::new();

/// One pod (anti-)affinity term of a pod (its "owner"), ready to match other pods.
#[derive(Clone, Debug)]
pub struct AffinityTerm<'a> {
    owner: &'a Pod,
    term: &'a PodAffinityTerm,
    /// Namespaces the term's `namespaceSelector` picked, once resolved against the
    /// Namespace objects (the incoming pod's terms only).
    selected_namespaces: Vec<&'a str>,
    /// The namespace selector still to evaluate against a pod's namespace labels; `None`
    /// matches no namespace (a nil selector, or one already resolved to names).
    namespace_selector: Option<&'a LabelSelector>,
}

impl<'a> AffinityTerm<'a> {
    /// The term as upstream's `newAffinityTerm` reads it.
    #[must_use]
    pub fn new(owner: &'a Pod, term: &'a PodAffinityTerm) -> Self {
        Self {
            owner,
            term,
            selected_namespaces: Vec::new(),
            namespace_selector: term.namespace_selector.as_ref(),
        }
    }

    /// The term's `topologyKey`.
    #[must_use]
    pub fn topology_key(&self) -> &'a str {
        &self.term.topology_key
    }

    /// Turns a non-empty `namespaceSelector` into the names of the namespaces (of the
    /// input) whose labels it matches, as the InterPodAffinity plugin does for the incoming
    /// pod's terms (`mergeAffinityTermNamespacesIfNotEmpty`). An empty selector (`{}`) keeps
    /// matching every namespace.
    #[must_use]
    pub fn resolve_namespace_selector(mut self, namespaces: &'a [Namespace]) -> Self {
        if let Some(selector) = self.namespace_selector {
            if !is_empty(selector) {
                self.selected_namespaces = namespaces
                    .iter()
                    .filter(|namespace| {
                        labels::selector_matches(selector, &namespace.metadata.labels)
                    })
                    .map(|namespace| namespace.metadata.name.as_str())
                    .collect();
                self.namespace_selector = None;
            }
        }
        self
    }

    /// True if a pod in `namespace` (whose Namespace object has `namespace_labels`) is in
    /// the term's scope: listed in `namespaces` (the owner's own namespace when both
    /// `namespaces` and `namespaceSelector` are unset), or picked by the selector.
    #[must_use]
    pub fn covers_namespace(&self, namespace: &str, namespace_labels: &StringMap) -> bool {
        let listed = if self.term.namespaces.is_empty() && self.term.namespace_selector.is_none() {
            self.owner.metadata.namespace == namespace
        } else {
            self.term.namespaces.iter().any(|name| name == namespace)
        };
        listed
            || self.selected_namespaces.contains(&namespace)
            || self
                .namespace_selector
                .is_some_and(|selector| labels::selector_matches(selector, namespace_labels))
    }

    /// True if `pod_labels` satisfy the term's label selector with the owner's
    /// `matchLabelKeys` / `mismatchLabelKeys` merged in. A term without a selector matches
    /// nothing.
    #[must_use]
    pub fn selects_labels(&self, pod_labels: &StringMap) -> bool {
        let Some(selector) = self.term.label_selector.as_ref() else {
            return false;
        };
        let owner_labels = &self.owner.metadata.labels;
        labels::selector_matches(selector, pod_labels)
            && self.term.match_label_keys.iter().all(|key| {
                owner_labels
                    .get(key)
                    .is_none_or(|value| pod_labels.get(key) == Some(value))
            })
            && self.term.mismatch_label_keys.iter().all(|key| {
                owner_labels
                    .get(key)
                    .is_none_or(|value| pod_labels.get(key) != Some(value))
            })
    }

    /// `AffinityTerm.Matches`: the pod is in the term's namespaces and its labels match.
    #[must_use]
    pub fn matches(&self, pod: &Pod, namespace_labels: &StringMap) -> bool {
        self.covers_namespace(&pod.metadata.namespace, namespace_labels)
            && self.selects_labels(&pod.metadata.labels)
    }
}

/// True if a label selector has no requirement (it matches everything).
#[must_use]
pub fn is_empty(selector: &LabelSelector) -> bool {
    selector.match_labels.is_empty() && selector.match_expressions.is_empty()
}

/// The pod's required pod affinity terms.
#[must_use]
pub fn required_affinity_terms(pod: &Pod) -> Vec<AffinityTerm<'_>> {
    let terms = pod
        .spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.pod_affinity.as_ref())
        .map(|affinity| &affinity.required_during_scheduling_ignored_during_execution);
    plain_terms(pod, terms)
}

/// The pod's required pod anti-affinity terms.
#[must_use]
pub fn required_anti_affinity_terms(pod: &Pod) -> Vec<AffinityTerm<'_>> {
    let terms = pod
        .spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.pod_anti_affinity.as_ref())
        .map(|affinity| &affinity.required_during_scheduling_ignored_during_execution);
    plain_terms(pod, terms)
}

fn plain_terms<'p>(
    pod: &'p Pod,
    terms: Option<&'p Vec<crate::model::PodAffinityTerm>>,
) -> Vec<AffinityTerm<'p>> {
    terms
        .into_iter()
        .flatten()
        .map(|term| AffinityTerm::new(pod, term))
        .collect()
}

/// The pod's preferred pod affinity terms with their weights.
#[must_use]
pub fn preferred_affinity_terms(pod: &Pod) -> Vec<(i32, AffinityTerm<'_>)> {
    let terms = pod
        .spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.pod_affinity.as_ref())
        .map(|affinity| &affinity.preferred_during_scheduling_ignored_during_execution);
    weighted_terms(pod, terms)
}

/// The pod's preferred pod anti-affinity terms with their weights.
#[must_use]
pub fn preferred_anti_affinity_terms(pod: &Pod) -> Vec<(i32, AffinityTerm<'_>)> {
    let terms = pod
        .spec
        .affinity
        .as_ref()
        .and_then(|affinity| affinity.pod_anti_affinity.as_ref())
        .map(|affinity| &affinity.preferred_during_scheduling_ignored_during_execution);
    weighted_terms(pod, terms)
}

fn weighted_terms<'p>(
    pod: &'p Pod,
    terms: Option<&'p Vec<crate::model::WeightedPodAffinityTerm>>,
) -> Vec<(i32, AffinityTerm<'p>)> {
    terms
        .into_iter()
        .flatten()
        .map(|weighted| {
            (
                weighted.weight,
                AffinityTerm::new(pod, &weighted.pod_affinity_term),
            )
        })
        .collect()
}

/// True if the pod has any pod affinity or anti-affinity, required or preferred
/// (upstream's `PodsWithAffinity`).
#[must_use]
pub fn has_pod_affinity(pod: &Pod) -> bool {
    pod.spec.affinity.as_ref().is_some_and(|affinity| {
        affinity.pod_affinity.as_ref().is_some_and(|terms| {
            !terms
                .required_during_scheduling_ignored_during_execution
                .is_empty()
                || !terms
                    .preferred_during_scheduling_ignored_during_execution
                    .is_empty()
        }) || affinity.pod_anti_affinity.as_ref().is_some_and(|terms| {
            !terms
                .required_during_scheduling_ignored_during_execution
                .is_empty()
                || !terms
                    .preferred_during_scheduling_ignored_during_execution
                    .is_empty()
        })
    })
}

/// The labels of the named namespace; none when the Namespace object is not in the input
/// (upstream then assumes an empty label set).
#[must_use]
pub fn namespace_labels<'c>(namespaces: &'c [Namespace], name: &str) -> &'c StringMap {
    namespaces
        .iter()
        .find(|namespace| namespace.metadata.name == name)
        .map_or(&NO_LABELS, |namespace| &namespace.metadata.labels)
}

/// The Services of the pod's namespace whose selector matches the pod's labels; a
/// Service without a selector selects nothing.
pub fn pod_services<'c>(
    services: &'c [Service],
    pod: &'c Pod,
) -> impl Iterator<Item = &'c Service> {
    services.iter().filter(move |service| {
        service.metadata.namespace == pod.metadata.namespace
            && !service.spec.selector.is_empty()
            && labels::map_matches(&service.spec.selector, &pod.metadata.labels)
    })
}

/// The pod's managing controller among the input's workloads, found as upstream does by
/// the controller reference's API version, kind and name in the pod's namespace.
#[must_use]
pub fn controller<'c>(
    workloads: &'c [(WorkloadKind, Workload)],
    pod: &Pod,
) -> Option<(WorkloadKind, &'c Workload)> {
    let owner = pod.metadata.controller()?;
    let kind = match (owner.api_version.as_str(), owner.kind.as_str()) {
        ("v1", "ReplicationController") => WorkloadKind::ReplicationController,
        ("apps/v1", "ReplicaSet") => WorkloadKind::ReplicaSet,
        ("apps/v1", "StatefulSet") => WorkloadKind::StatefulSet,
        _ => return None,
    };
    workloads
        .iter()
        .find(|(candidate, workload)| {
            *candidate == kind
                && workload.metadata.namespace == pod.metadata.namespace
                && workload.metadata.name == owner.name
        })
        .map(|(kind, workload)| (*kind, workload))
}

/// `DefaultSelector`: the selectors of the Services that select the pod merged into one
/// label set, with the managing ReplicationController's selector merged in too, or the
/// managing ReplicaSet's or StatefulSet's requirements added. `None` when that selector
/// would be empty (no Service and no such controller): the pod then gets no default
/// spreading.
#[must_use]
pub fn default_spread_selector(
    services: &[Service],
    workloads: &[(WorkloadKind, Workload)],
    pod: &Pod,
) -> Option<LabelSelector> {
    let mut selector = LabelSelector::default();
    for service in pod_services(services, pod) {
        // Later Services win on a shared key, as `labels.Merge` does.
        for (key, value) in &service.spec.selector {
            selector.match_labels.insert(key.clone(), value.clone());
        }
    }
    match controller(workloads, pod) {
        Some((WorkloadKind::ReplicationController, workload)) => {
            // A ReplicationController without a selector is defaulted to its template's labels.
            let map = workload
                .spec
                .selector
                .as_ref()
                .map_or(&workload.spec.template.metadata.labels, |selector| {
                    &selector.match_labels
                });
            for (key, value) in map {
                selector.match_labels.insert(key.clone(), value.clone());
            }
        }
        Some((_, workload)) => {
            // A nil selector converts to "nothing" and adds no requirement.
            if let Some(owned) = workload.spec.selector.as_ref() {
                add_requirements(&mut selector, owned);
            }
        }
        None => {
            if let Some(assumed) = missing_replica_set_selector(workloads, pod) {
                add_requirements(&mut selector, &assumed);
            }
        }
    }
    (!is_empty(&selector)).then_some(selector)
}

/// Adds a selector's labels (as `In` requirements) and expressions to `selector`.
fn add_requirements(selector: &mut LabelSelector, owned: &LabelSelector) {
    for (key, value) in &owned.match_labels {
        selector.match_expressions.push(LabelSelectorRequirement {
            key: key.clone(),
            operator: "In".into(),
            values: alloc::vec![value.clone()],
        });
    }
    selector
        .match_expressions
        .extend(owned.match_expressions.iter().cloned());
}

/// The selector of the ReplicaSet that controls `pod` when the input lists its
/// Deployment but not the ReplicaSet (kubefit makes a Deployment's missing pods without
/// one): upstream always finds it, since the Deployment made it first. The Deployment
/// that names it `<deployment>-<hash>` by the pod's `pod-template-hash` gives it: its
/// selector plus that hash, as the Deployment controller writes it.
///
/// A dump of pods without their ReplicaSets or Deployments gets none: the pod's labels
/// could stand for the selector, but then every ReplicaSet's pods would form their own
/// scheduling class, and placing the benchmark's 8 469 replacements took minutes instead
/// of under a second (to do, with classes that share spreading state).
pub fn missing_replica_set_selector(
    workloads: &[(WorkloadKind, Workload)],
    pod: &Pod,
) -> Option<LabelSelector> {
    let owner = pod
        .metadata
        .controller()
        .filter(|owner| owner.api_version == "apps/v1" && owner.kind == "ReplicaSet")?;
    let hash = pod.metadata.labels.get("pod-template-hash");
    let deployment = workloads.iter().find_map(|(kind, workload)| {
        let named = hash.is_some_and(|hash| {
            owner
                .name
                .strip_suffix(hash.as_str())
                .and_then(|name| name.strip_suffix('-'))
                == Some(workload.metadata.name.as_str())
        });
        (*kind == WorkloadKind::Deployment
            && workload.metadata.namespace == pod.metadata.namespace
            && named)
            .then_some(workload)
    });
    let mut selector = deployment?.spec.selector.clone()?;
    selector
        .match_labels
        .insert("pod-template-hash".into(), hash?.clone());
    Some(selector)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ObjectMeta, OwnerReference, ServiceSpec};
    use alloc::string::String;

    fn labels(pairs: &[(&str, &str)]) -> StringMap {
        pairs
            .iter()
            .map(|(k, v)| (String::from(*k), String::from(*v)))
            .collect()
    }

    fn pod(namespace: &str, pairs: &[(&str, &str)]) -> Pod {
        let mut pod = Pod::default();
        pod.metadata.namespace = namespace.into();
        pod.metadata.labels = labels(pairs);
        pod
    }

    fn term(selector: Option<LabelSelector>) -> PodAffinityTerm {
        PodAffinityTerm {
            label_selector: selector,
            topology_key: "zone".into(),
            ..PodAffinityTerm::default()
        }
    }

    fn select(pairs: &[(&str, &str)]) -> LabelSelector {
        LabelSelector {
            match_labels: labels(pairs),
            ..LabelSelector::default()
        }
    }

    #[test]
    fn namespaces_default_to_the_owners_and_selectors_resolve_to_names() {
        let owner = pod("team-a", &[("app", "web")]);
        let plain = term(Some(select(&[("app", "web")])));
        let same = pod("team-a", &[("app", "web")]);
        let other = pod("team-b", &[("app", "web")]);
        let affinity = AffinityTerm::new(&owner, &plain);
        assert!(affinity.matches(&same, &NO_LABELS));
        assert!(!affinity.matches(&other, &NO_LABELS));

        let mut by_selector = plain.clone();
        by_selector.namespace_selector = Some(select(&[("env", "prod")]));
        let namespaces = [Namespace {
            metadata: ObjectMeta {
                name: "team-b".into(),
                labels: labels(&[("env", "prod")]),
                ..ObjectMeta::default()
            },
        }];
        // A namespace selector alone drops the owner's namespace.
        let resolved =
            AffinityTerm::new(&owner, &by_selector).resolve_namespace_selector(&namespaces);
        assert!(resolved.matches(&other, &NO_LABELS));
        assert!(!resolved.matches(&same, &NO_LABELS));
        // Unresolved (an existing pod's term): evaluated on the namespace's labels.
        let unresolved = AffinityTerm::new(&owner, &by_selector);
        assert!(unresolved.matches(&other, &labels(&[("env", "prod")])));
        assert!(!unresolved.matches(&other, &NO_LABELS));

        let mut everywhere = plain;
        everywhere.namespace_selector = Some(LabelSelector::default());
        let all = AffinityTerm::new(&owner, &everywhere).resolve_namespace_selector(&[]);
        assert!(all.matches(&other, &NO_LABELS));
    }

    #[test]
    fn nil_selectors_match_nothing_and_label_keys_use_the_owners_values() {
        let owner = pod("ns", &[("app", "web"), ("rev", "2")]);
        let nil = term(None);
        assert!(!AffinityTerm::new(&owner, &nil).matches(&owner, &NO_LABELS));
        let mut keyed = term(Some(select(&[("app", "web")])));
        keyed.match_label_keys = alloc::vec!["rev".into()];
        let keyed = AffinityTerm::new(&owner, &keyed);
        assert!(keyed.matches(&pod("ns", &[("app", "web"), ("rev", "2")]), &NO_LABELS));
        assert!(!keyed.matches(&pod("ns", &[("app", "web"), ("rev", "1")]), &NO_LABELS));
        let mut mismatched = term(Some(LabelSelector::default()));
        mismatched.mismatch_label_keys = alloc::vec!["app".into()];
        let mismatched = AffinityTerm::new(&owner, &mismatched);
        assert!(!mismatched.matches(&pod("ns", &[("app", "web")]), &NO_LABELS));
        assert!(mismatched.matches(&pod("ns", &[("app", "db")]), &NO_LABELS));
        assert!(mismatched.matches(&pod("ns", &[]), &NO_LABELS));
    }

    #[test]
    fn default_selector_merges_services_and_the_controller() {
        let mut member = pod("ns", &[("app", "web"), ("tier", "front")]);
        member.metadata.owner_references.push(OwnerReference {
            api_version: "apps/v1".into(),
            kind: "ReplicaSet".into(),
            name: "web-1".into(),
            controller: Some(true),
            ..OwnerReference::default()
        });
        let service = |name: &str, namespace: &str, pairs: &[(&str, &str)]| Service {
            metadata: ObjectMeta {
                name: name.into(),
                namespace: namespace.into(),
                ..ObjectMeta::default()
            },
            spec: ServiceSpec {
                selector: labels(pairs),
                ..ServiceSpec::default()
            },
        };
        let services = [
            service("web", "ns", &[("app", "web")]),
            service("elsewhere", "other", &[("tier", "front")]),
            service("headless", "ns", &[]),
            service("db", "ns", &[("app", "db")]),
        ];
        let mut replica_set = Workload::default();
        replica_set.metadata.name = "web-1".into();
        replica_set.metadata.namespace = "ns".into();
        replica_set.spec.selector = Some(select(&[("tier", "front")]));
        let workloads = [(WorkloadKind::ReplicaSet, replica_set)];
        let selector = default_spread_selector(&services, &workloads, &member);
        let expected = LabelSelector {
            match_labels: labels(&[("app", "web")]),
            match_expressions: alloc::vec![LabelSelectorRequirement {
                key: "tier".into(),
                operator: "In".into(),
                values: alloc::vec!["front".into()],
            }],
        };
        assert_eq!(selector, Some(expected));
        assert_eq!(
            default_spread_selector(&[], &[], &pod("ns", &[("app", "web")])),
            None
        );
    }
}
