//! The `openshift-3.11` profile: Kubernetes 1.11 predicates and priorities, configured by a
//! scheduler `Policy` (or the DefaultProvider when the input has none).
//!
//! Follows `pkg/scheduler/factory/factory.go` (`CreateFromConfig`), `factory/plugins.go`
//! (registration, custom predicates and priorities), `algorithmprovider/defaults/defaults.go`
//! (the DefaultProvider and the mandatory `CheckNodeCondition`) and
//! `core/generic_scheduler.go` (`podFitsOnNode`: predicates run in the fixed
//! `predicatesOrdering` of `algorithm/predicates/predicates.go`, not in Policy order).
//!
//! # Custom names
//!
//! A Policy may configure `serviceAffinity` / `labelsPresence` predicates and
//! `serviceAntiAffinity` / `labelPreference` / `requestedToCapacityRatioArguments`
//! priorities under names of its own choosing (`Region`, `RackSpread`, …). Upstream 1.11
//! registers such a predicate under its custom name, but `podFitsOnNode` only runs names
//! listed in `predicatesOrdering`, so a custom-named predicate is built and never run (the
//! same holds for the `PodFitsPorts` alias). OpenShift 3.11's documentation says they take
//! effect, and issue 4 asks kubefit to follow it: a custom-named predicate runs at the
//! position of its type in the ordering (`CheckNodeLabelPresence` resp.
//! `CheckServiceAffinity`; `PodFitsPorts` at `PodFitsHostPorts`), in Policy order among
//! predicates of the same type, and is reported under its user-defined name. Priorities
//! already run under any name upstream (every configured priority runs).

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::predicates::{self as predicate, Pod as PodContext};
use super::priorities;
use super::snapshot::{Change, Snapshot};
use super::status::Status;
use super::volumes;
use super::{Cycle, NodeLocalScore, Prepared, Profile, Reach, Reduce, Version};
use crate::model::{LabelsPresenceArgument, Policy, PredicatePolicy, PriorityPolicy};
use crate::report::scheduling::{ConfiguredPlugin, ProfileConfiguration};

/// `MaxPriority`: the highest score a 1.11 priority gives.
pub const MAX_PRIORITY: i64 = 10;

/// The scheduler name pods get by default.
pub const DEFAULT_SCHEDULER: &str = "default-scheduler";

/// `DefaultHardPodAffinitySymmetricWeight`.
pub const DEFAULT_HARD_POD_AFFINITY_WEIGHT: i64 = 1;

/// A 1.11 predicate, with its argument for the configurable ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PredicateKind {
    CheckNodeCondition,
    GeneralPredicates,
    HostName,
    PodFitsHostPorts,
    MatchNodeSelector,
    PodFitsResources,
    NoDiskConflict,
    PodToleratesNodeTaints,
    PodToleratesNodeNoExecuteTaints,
    CheckNodeLabelPresence(LabelsPresenceArgument),
    CheckServiceAffinity(Vec<String>),
    MaxEbsVolumeCount,
    MaxGcePdVolumeCount,
    MaxAzureDiskVolumeCount,
    MaxCinderVolumeCount,
    CheckVolumeBinding,
    NoVolumeZoneConflict,
    CheckNodeMemoryPressure,
    CheckNodePidPressure,
    CheckNodeDiskPressure,
    MatchInterPodAffinity,
}

impl PredicateKind {
    /// The predicate registered under a name (without argument), as 1.11 registers them.
    /// `PodToleratesNodeNoExecuteTaints` is accepted because the OpenShift chapter lists it.
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        REGISTERED_PREDICATES
            .iter()
            .find(|(registered, _)| *registered == name)
            .map(|(_, kind)| kind.clone())
    }

    /// The position in `predicatesOrdering` (`CheckNodeUnschedulable` is in the list but
    /// not registered in 1.11, so it never runs).
    const fn rank(&self) -> u8 {
        match self {
            Self::CheckNodeCondition => 0,
            Self::GeneralPredicates => 2,
            Self::HostName => 3,
            Self::PodFitsHostPorts => 4,
            Self::MatchNodeSelector => 5,
            Self::PodFitsResources => 6,
            Self::NoDiskConflict => 7,
            Self::PodToleratesNodeTaints => 8,
            Self::PodToleratesNodeNoExecuteTaints => 9,
            Self::CheckNodeLabelPresence(_) => 10,
            Self::CheckServiceAffinity(_) => 11,
            Self::MaxEbsVolumeCount => 12,
            Self::MaxGcePdVolumeCount => 13,
            Self::MaxAzureDiskVolumeCount => 14,
            Self::MaxCinderVolumeCount => 15,
            Self::CheckVolumeBinding => 16,
            Self::NoVolumeZoneConflict => 17,
            Self::CheckNodeMemoryPressure => 18,
            Self::CheckNodePidPressure => 19,
            Self::CheckNodeDiskPressure => 20,
            Self::MatchInterPodAffinity => 21,
        }
    }
}

/// A 1.11 priority, with its argument for the configurable ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PriorityKind {
    SelectorSpread,
    ServiceSpreading,
    InterPodAffinity,
    LeastRequested,
    MostRequested,
    BalancedResourceAllocation,
    NodePreferAvoidPods,
    NodeAffinity,
    TaintToleration,
    Equal,
    ImageLocality,
    /// `RequestedToCapacityRatioPriority`: `(utilisation, score)` points.
    RequestedToCapacityRatio(Vec<(i64, i64)>),
    /// `serviceAntiAffinity{label}`.
    ServiceAntiAffinity(String),
    /// `labelPreference{label, presence}`.
    NodeLabel(String, bool),
}

impl PriorityKind {
    /// The priority registered under a name (without argument) in 1.11.
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        Some(match name {
            "SelectorSpreadPriority" => Self::SelectorSpread,
            "ServiceSpreadingPriority" => Self::ServiceSpreading,
            "InterPodAffinityPriority" => Self::InterPodAffinity,
            "LeastRequestedPriority" => Self::LeastRequested,
            "MostRequestedPriority" => Self::MostRequested,
            "BalancedResourceAllocation" => Self::BalancedResourceAllocation,
            "NodePreferAvoidPodsPriority" => Self::NodePreferAvoidPods,
            "NodeAffinityPriority" => Self::NodeAffinity,
            "TaintTolerationPriority" => Self::TaintToleration,
            "EqualPriority" => Self::Equal,
            "ImageLocalityPriority" => Self::ImageLocality,
            "RequestedToCapacityRatioPriority" => Self::RequestedToCapacityRatio(
                priorities::requested_to_capacity_ratio::default_shape(),
            ),
            _ => return None,
        })
    }
}

/// A configured predicate: the name it is reported under, and what it checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfiguredPredicate {
    /// The name in the Policy (or the registered name).
    pub name: Cow<'static, str>,
    /// The check.
    pub kind: PredicateKind,
}

/// A configured priority.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfiguredPriority {
    /// The name in the Policy (or the registered name).
    pub name: String,
    /// The Policy weight.
    pub weight: i64,
    /// The score.
    pub kind: PriorityKind,
}

/// The `openshift-3.11` profile.
#[derive(Clone, Debug)]
pub struct LegacyProfile {
    /// Predicates in the order they run (`predicatesOrdering`).
    pub predicates: Vec<ConfiguredPredicate>,
    /// Priorities in Policy order.
    pub priorities: Vec<ConfiguredPriority>,
    /// `alwaysCheckAllPredicates`.
    pub always_check_all: bool,
    /// `hardPodAffinitySymmetricWeight`.
    pub hard_pod_affinity_weight: i64,
    /// Preemption runs when nothing fits.
    pub preemption: bool,
}

/// The predicates 1.11 registers by name (`PodFitsPorts` is the old alias of
/// `PodFitsHostPorts`).
const REGISTERED_PREDICATES: [(&str, PredicateKind); 20] = [
    ("CheckNodeCondition", PredicateKind::CheckNodeCondition),
    ("GeneralPredicates", PredicateKind::GeneralPredicates),
    ("HostName", PredicateKind::HostName),
    ("PodFitsHostPorts", PredicateKind::PodFitsHostPorts),
    ("PodFitsPorts", PredicateKind::PodFitsHostPorts),
    ("MatchNodeSelector", PredicateKind::MatchNodeSelector),
    ("PodFitsResources", PredicateKind::PodFitsResources),
    ("NoDiskConflict", PredicateKind::NoDiskConflict),
    (
        "PodToleratesNodeTaints",
        PredicateKind::PodToleratesNodeTaints,
    ),
    (
        "PodToleratesNodeNoExecuteTaints",
        PredicateKind::PodToleratesNodeNoExecuteTaints,
    ),
    ("MaxEBSVolumeCount", PredicateKind::MaxEbsVolumeCount),
    ("MaxGCEPDVolumeCount", PredicateKind::MaxGcePdVolumeCount),
    (
        "MaxAzureDiskVolumeCount",
        PredicateKind::MaxAzureDiskVolumeCount,
    ),
    // An OpenShift 3.11 carry: registered, not in the DefaultProvider.
    ("MaxCinderVolumeCount", PredicateKind::MaxCinderVolumeCount),
    ("CheckVolumeBinding", PredicateKind::CheckVolumeBinding),
    ("NoVolumeZoneConflict", PredicateKind::NoVolumeZoneConflict),
    (
        "CheckNodeMemoryPressure",
        PredicateKind::CheckNodeMemoryPressure,
    ),
    ("CheckNodePIDPressure", PredicateKind::CheckNodePidPressure),
    (
        "CheckNodeDiskPressure",
        PredicateKind::CheckNodeDiskPressure,
    ),
    (
        "MatchInterPodAffinity",
        PredicateKind::MatchInterPodAffinity,
    ),
];

/// A predicate name: registered names borrow their static text, a Policy's own names
/// are owned.
fn static_name(name: &str) -> Cow<'static, str> {
    match REGISTERED_PREDICATES
        .iter()
        .find(|(registered, _)| *registered == name)
    {
        Some((registered, _)) => Cow::Borrowed(registered),
        None => Cow::Owned(String::from(name)),
    }
}

/// The Policy OpenShift 3.11 applies when no scheduler policy file is given: the
/// default `/etc/origin/master/scheduler.json` of the scheduling chapter, which adds the
/// `Region` service affinity and the `Zone` service anti-affinity (weight 2) to the
/// DefaultProvider's general predicates and priorities.
#[must_use]
pub fn openshift_default_policy() -> Policy {
    use crate::model::{
        PredicateArgument, PredicatePolicy, PriorityArgument, PriorityPolicy,
        ServiceAffinityArgument, ServiceAntiAffinityArgument,
    };
    let predicate = |name: &str| PredicatePolicy {
        name: name.into(),
        argument: None,
    };
    let priority = |name: &str, weight: i64| PriorityPolicy {
        name: name.into(),
        weight,
        argument: None,
    };
    let mut predicates: Vec<PredicatePolicy> = [
        "NoVolumeZoneConflict",
        "MaxEBSVolumeCount",
        "MaxGCEPDVolumeCount",
        "MaxAzureDiskVolumeCount",
        "MatchInterPodAffinity",
        "NoDiskConflict",
        "GeneralPredicates",
        "PodToleratesNodeTaints",
    ]
    .iter()
    .map(|name| predicate(name))
    .collect();
    predicates.push(PredicatePolicy {
        name: "Region".into(),
        argument: Some(PredicateArgument {
            service_affinity: Some(ServiceAffinityArgument {
                labels: alloc::vec!["region".into()],
            }),
            ..PredicateArgument::default()
        }),
    });
    let mut priorities: Vec<PriorityPolicy> = [
        ("SelectorSpreadPriority", 1),
        ("InterPodAffinityPriority", 1),
        ("LeastRequestedPriority", 1),
        ("BalancedResourceAllocation", 1),
        ("NodePreferAvoidPodsPriority", 10_000),
        ("NodeAffinityPriority", 1),
        ("TaintTolerationPriority", 1),
    ]
    .iter()
    .map(|(name, weight)| priority(name, *weight))
    .collect();
    priorities.push(PriorityPolicy {
        name: "Zone".into(),
        weight: 2,
        argument: Some(PriorityArgument {
            service_anti_affinity: Some(ServiceAntiAffinityArgument {
                label: "zone".into(),
            }),
            ..PriorityArgument::default()
        }),
    });
    Policy {
        predicates: Some(predicates),
        priorities: Some(priorities),
        ..Policy::default()
    }
}

impl LegacyProfile {
    /// The DefaultProvider of 1.11 (`algorithmprovider/defaults/defaults.go`).
    #[must_use]
    pub fn default_provider(preemption: bool) -> Self {
        let predicates = [
            "NoVolumeZoneConflict",
            "MaxEBSVolumeCount",
            "MaxGCEPDVolumeCount",
            "MaxAzureDiskVolumeCount",
            "MatchInterPodAffinity",
            "NoDiskConflict",
            "GeneralPredicates",
            "CheckNodeMemoryPressure",
            "CheckNodeDiskPressure",
            "CheckNodePIDPressure",
            "CheckNodeCondition",
            "PodToleratesNodeTaints",
            "CheckVolumeBinding",
        ];
        let priorities = [
            ("SelectorSpreadPriority", 1),
            ("InterPodAffinityPriority", 1),
            ("LeastRequestedPriority", 1),
            ("BalancedResourceAllocation", 1),
            ("NodePreferAvoidPodsPriority", 10_000),
            ("NodeAffinityPriority", 1),
            ("TaintTolerationPriority", 1),
        ];
        Self::assemble(
            predicates
                .iter()
                .filter_map(|name| {
                    PredicateKind::named(name).map(|kind| ConfiguredPredicate {
                        name: static_name(name),
                        kind,
                    })
                })
                .collect(),
            priorities
                .iter()
                .filter_map(|(name, weight)| {
                    PriorityKind::named(name).map(|kind| ConfiguredPriority {
                        name: (*name).into(),
                        weight: *weight,
                        kind,
                    })
                })
                .collect(),
            false,
            DEFAULT_HARD_POD_AFFINITY_WEIGHT,
            preemption,
        )
    }

    /// The profile a Policy configures (`CreateFromConfig`). Entries validation rejected
    /// never reach here; anything unknown is skipped.
    #[must_use]
    pub fn from_policy(policy: &Policy, preemption: bool) -> Self {
        let defaults = Self::default_provider(preemption);
        let predicates = match &policy.predicates {
            None => defaults.predicates,
            Some(list) => list
                .iter()
                .zip(policy_predicates(list))
                .filter_map(|(entry, kind)| {
                    Some(ConfiguredPredicate {
                        name: static_name(&entry.name),
                        kind: kind?,
                    })
                })
                .collect(),
        };
        let priorities = match &policy.priorities {
            None => defaults.priorities,
            Some(list) => list
                .iter()
                .zip(policy_priorities(list))
                .filter_map(|(entry, kind)| {
                    Some(ConfiguredPriority {
                        name: entry.name.clone(),
                        weight: entry.weight,
                        kind: kind?,
                    })
                })
                .collect(),
        };
        // A non-zero Policy value replaces the default (`CreateFromConfig`).
        let hard_weight = match policy.hard_pod_affinity_symmetric_weight {
            0 => DEFAULT_HARD_POD_AFFINITY_WEIGHT,
            weight => i64::from(weight),
        };
        Self::assemble(
            predicates,
            priorities,
            policy.always_check_all_predicates,
            hard_weight,
            preemption,
        )
    }

    /// Adds the mandatory `CheckNodeCondition` and sorts the predicates into
    /// `predicatesOrdering` (stable: same-type predicates keep Policy order).
    fn assemble(
        mut predicates: Vec<ConfiguredPredicate>,
        priorities: Vec<ConfiguredPriority>,
        always_check_all: bool,
        hard_pod_affinity_weight: i64,
        preemption: bool,
    ) -> Self {
        // `RegisterMandatoryFitPredicate`: added to every configuration.
        if !predicates
            .iter()
            .any(|configured| configured.name == "CheckNodeCondition")
        {
            predicates.push(ConfiguredPredicate {
                name: static_name("CheckNodeCondition"),
                kind: PredicateKind::CheckNodeCondition,
            });
        }
        // `CreateFromConfig` collects the names in a set, and registering a name again
        // overwrites the factory before: a name listed twice runs once, as its last entry
        // says (argument, weight).
        let mut unique = last_per_name(predicates, |configured| &configured.name);
        unique.sort_by_key(|configured| configured.kind.rank());
        let unique_priorities = last_per_name(priorities, |configured| &configured.name);
        Self {
            predicates: unique,
            priorities: unique_priorities,
            always_check_all,
            hard_pod_affinity_weight,
            preemption,
        }
    }
}

/// The predicate each entry of a Policy's list configures, `None` where upstream finds
/// none (see [`registrations`]).
#[must_use]
pub(crate) fn policy_predicates(list: &[PredicatePolicy]) -> Vec<Option<PredicateKind>> {
    registrations(
        list,
        |entry| &entry.name,
        |entry| {
            let argument = entry.argument.as_ref()?;
            Some(
                match (&argument.service_affinity, &argument.labels_presence) {
                    (Some(affinity), None) => {
                        Some(PredicateKind::CheckServiceAffinity(affinity.labels.clone()))
                    }
                    (None, Some(presence)) => {
                        Some(PredicateKind::CheckNodeLabelPresence(presence.clone()))
                    }
                    _ => None,
                },
            )
        },
        PredicateKind::named,
    )
}

/// The priority each entry of a Policy's list configures, `None` where upstream finds
/// none (see [`registrations`]).
#[must_use]
pub(crate) fn policy_priorities(list: &[PriorityPolicy]) -> Vec<Option<PriorityKind>> {
    registrations(
        list,
        |entry| &entry.name,
        |entry| {
            let argument = entry.argument.as_ref()?;
            Some(
                match (
                    &argument.service_anti_affinity,
                    &argument.label_preference,
                    &argument.requested_to_capacity_ratio_arguments,
                ) {
                    (Some(anti), None, None) => {
                        Some(PriorityKind::ServiceAntiAffinity(anti.label.clone()))
                    }
                    (None, Some(preference), None) => Some(PriorityKind::NodeLabel(
                        preference.label.clone(),
                        preference.presence,
                    )),
                    (None, None, Some(ratio)) => Some(PriorityKind::RequestedToCapacityRatio(
                        ratio
                            .shape
                            .iter()
                            .map(|point| (i64::from(point.utilization), i64::from(point.score)))
                            .collect(),
                    )),
                    _ => None,
                },
            )
        },
        PriorityKind::named,
    )
}

/// Resolves a Policy list in order, as `RegisterCustomFitPredicate` and
/// `RegisterCustomPriorityFunction` (1.11 `factory/plugins.go`) do: an entry with an
/// argument registers its name for what the argument builds (`custom` answers `Some`,
/// inside it `None` when the argument does not name exactly one thing); an entry without
/// one reuses what its name is registered for at that point, which is what an earlier
/// entry of the list registered under that name, or else the built-in (`named`). So
/// `{name: Rack, argument: …}` then `{name: Rack, weight: 5}` is the same priority again.
fn registrations<E, K: Clone>(
    list: &[E],
    name: impl Fn(&E) -> &str,
    custom: impl Fn(&E) -> Option<Option<K>>,
    named: impl Fn(&str) -> Option<K>,
) -> Vec<Option<K>> {
    let mut registered: Vec<(&str, K)> = Vec::new();
    list.iter()
        .map(|entry| match custom(entry) {
            Some(kind) => {
                if let Some(kind) = &kind {
                    registered.push((name(entry), kind.clone()));
                }
                kind
            }
            None => registered
                .iter()
                .rev()
                .find(|(registered, _)| *registered == name(entry))
                .map(|(_, kind)| kind.clone())
                .or_else(|| named(name(entry))),
        })
        .collect()
}

/// One entry per name, where the name first appears, as the name's last entry says.
fn last_per_name<T>(entries: Vec<T>, name: impl Fn(&T) -> &str) -> Vec<T> {
    let mut unique: Vec<T> = Vec::with_capacity(entries.len());
    for entry in entries {
        match unique.iter_mut().find(|seen| name(seen) == name(&entry)) {
            Some(seen) => *seen = entry,
            None => unique.push(entry),
        }
    }
    unique
}

impl Profile for LegacyProfile {
    fn version(&self) -> Version {
        Version::Legacy
    }

    fn configuration(&self) -> ProfileConfiguration {
        ProfileConfiguration {
            scheduler_name: DEFAULT_SCHEDULER.into(),
            filters: self
                .predicates
                .iter()
                .map(|configured| ConfiguredPlugin {
                    name: configured.name.clone().into_owned(),
                    weight: None,
                    args: predicate_args(&configured.kind),
                })
                .collect(),
            scores: self
                .priorities
                .iter()
                .map(|configured| ConfiguredPlugin {
                    name: configured.name.clone(),
                    weight: Some(configured.weight),
                    args: priority_args(&configured.kind, self.hard_pod_affinity_weight),
                })
                .collect(),
            always_check_all_predicates: Some(self.always_check_all),
            percentage_of_nodes_to_score: None,
            preemption: self.preemption,
        }
    }

    fn serves(&self, scheduler_name: &str) -> bool {
        scheduler_name == DEFAULT_SCHEDULER
    }

    fn check_all(&self) -> bool {
        self.always_check_all
    }

    fn preemption(&self) -> bool {
        self.preemption
    }

    fn prepare<'a>(&'a self, snapshot: &Snapshot<'a>, pod: usize) -> Prepared<'a> {
        self.prepare_with_nominated(snapshot, pod, &[])
    }

    /// 1.11 `predicateMetadata.AddPod` (`algorithm/predicates/metadata.go`) records a
    /// nominated pod's anti-affinity terms at the node, but counts it for the incoming
    /// pod's own terms only when it has a node name, which a nominated pod lacks; and it
    /// appends it to the pods CheckServiceAffinity reads, still without a node name. With
    /// pods on nodes the input lacks there is no metadata to add to: the nominated pods
    /// then count for the node's resources alone.
    fn prepare_with_nominated<'a>(
        &'a self,
        snapshot: &Snapshot<'a>,
        pod: usize,
        nominated: &[usize],
    ) -> Prepared<'a> {
        let Some(entry) = snapshot.pod(pod) else {
            return Prepared::Error(String::from("unknown pod"));
        };
        if let Err(error) = passes_basic_checks(snapshot, &entry.pod) {
            return Prepared::Error(error);
        }
        let needs_affinity = self
            .predicates
            .iter()
            .any(|configured| configured.kind == PredicateKind::MatchInterPodAffinity);
        let needs_service_pods = self
            .predicates
            .iter()
            .any(|configured| matches!(configured.kind, PredicateKind::CheckServiceAffinity(_)));
        let context = PodContext::new(
            snapshot,
            entry,
            needs_affinity,
            needs_service_pods,
            nominated,
        );
        Prepared::Filter {
            cycle: Box::new(LegacyCycle {
                profile: self,
                context,
            }),
            only: None,
        }
    }
}

/// `podPassesBasicChecks` (`core/generic_scheduler.go`): every claim the pod mounts must
/// exist and not be terminating; otherwise the scheduler stops with that error.
fn passes_basic_checks(snapshot: &Snapshot<'_>, pod: &crate::model::Pod) -> Result<(), String> {
    for volume in &pod.spec.volumes {
        let Some(source) = &volume.persistent_volume_claim else {
            continue;
        };
        let name = source.claim_name.as_str();
        let Some((_, claim)) = snapshot
            .cluster
            .storage
            .claim(&pod.metadata.namespace, name)
        else {
            return Err(volumes::not_found("persistentvolumeclaim", name));
        };
        if claim.metadata.deletion_timestamp.is_some() {
            return Err(alloc::format!(
                "persistentvolumeclaim {} is being deleted",
                volumes::quoted(&claim.metadata.name)
            ));
        }
    }
    Ok(())
}

fn predicate_args(kind: &PredicateKind) -> Option<String> {
    match kind {
        PredicateKind::CheckNodeLabelPresence(argument) => Some(alloc::format!(
            "labelsPresence: labels [{}], presence {}",
            argument.labels.join(", "),
            argument.presence
        )),
        PredicateKind::CheckServiceAffinity(labels) => Some(alloc::format!(
            "serviceAffinity: labels [{}]",
            labels.join(", ")
        )),
        _ => None,
    }
}

fn priority_args(kind: &PriorityKind, hard_weight: i64) -> Option<String> {
    match kind {
        PriorityKind::ServiceAntiAffinity(label) => {
            Some(alloc::format!("serviceAntiAffinity: label {label}"))
        }
        PriorityKind::NodeLabel(label, presence) => Some(alloc::format!(
            "labelPreference: label {label}, presence {presence}"
        )),
        PriorityKind::RequestedToCapacityRatio(shape) => Some(alloc::format!(
            "shape: {}",
            shape
                .iter()
                .map(|(utilization, score)| alloc::format!("({utilization}, {score})"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        PriorityKind::InterPodAffinity => Some(alloc::format!(
            "hardPodAffinitySymmetricWeight: {hard_weight}"
        )),
        _ => None,
    }
}

/// One pod's pass through the 1.11 predicates and priorities.
struct LegacyCycle<'a> {
    profile: &'a LegacyProfile,
    context: PodContext<'a>,
}

impl Cycle for LegacyCycle<'_> {
    fn independent_of_other_pods(&self) -> bool {
        // Computed with every pod in place, the affinity counts only shrink as pods are
        // taken off; empty, they stay empty. Service pods count only for pods a service
        // selects (CheckServiceAffinity).
        self.context.affinity.is_empty()
            && (self.context.services.is_empty() || self.context.service_pods.is_empty())
    }

    fn follow(&mut self, _snapshot: &Snapshot<'_>, change: Change) -> Option<Reach> {
        // Services make CheckServiceAffinity and ServiceAntiAffinity read the pods they
        // select, which the cycle does not follow.
        if !self.context.services.is_empty() {
            return None;
        }
        let predicate = self
            .profile
            .predicates
            .iter()
            .any(|configured| configured.kind == PredicateKind::MatchInterPodAffinity);
        self.context.follow(change, predicate)
    }

    fn filter(&self, snapshot: &Snapshot<'_>, node: usize) -> Vec<(Cow<'static, str>, Status)> {
        let Some(info) = snapshot.nodes.get(node) else {
            return Vec::new();
        };
        // Every predicate runs so the report shows each verdict; the driver keeps the
        // first failure's reasons (upstream's short-circuit) unless alwaysCheckAllPredicates.
        self.profile
            .predicates
            .iter()
            .map(|configured| {
                let status = predicate::evaluate(&configured.kind, &self.context, snapshot, info);
                (configured.name.clone(), status)
            })
            .collect()
    }

    fn reserve(&self, snapshot: &mut Snapshot<'_>, node: usize) {
        // `AssumePodVolumes`, which only has bindings when CheckVolumeBinding ran.
        let binds = self
            .profile
            .predicates
            .iter()
            .any(|configured| configured.kind == PredicateKind::CheckVolumeBinding);
        let Ok(claims) = &self.context.volume_claims else {
            return;
        };
        let Some(info) = snapshot.nodes.get(node) else {
            return;
        };
        if !binds || claims.unbound_immediate {
            return;
        }
        let storage = &snapshot.cluster.storage;
        if let Ok(found) = claims.find(storage, &snapshot.volumes, info.node) {
            let name = info.name();
            snapshot.volumes.assume(storage, name, &found);
        }
    }

    fn score_error(&self, snapshot: &Snapshot<'_>, feasible: usize) -> Option<String> {
        // `PrioritizeNodes` (`core/generic_scheduler.go`) aggregates the errors:
        // NodeAffinityPriority's on each node alike (no other map priority fails first
        // there), and InterPodAffinityPriority's once, from the goroutine of a whole-list
        // `Function`; kubefit puts that one last.
        let configured = |kind: &PriorityKind| {
            self.profile
                .priorities
                .iter()
                .any(|configured| configured.kind == *kind)
        };
        let mut errors = Vec::new();
        if configured(&PriorityKind::NodeAffinity) {
            if let Some(error) = priorities::node_affinity::error(self.context.pod()) {
                errors.extend(core::iter::repeat_n(error, feasible));
            }
        }
        if configured(&PriorityKind::InterPodAffinity) {
            let state = self
                .context
                .affinity_scores(snapshot, self.profile.hard_pod_affinity_weight);
            errors.extend(state.error().map(String::from));
        }
        (!errors.is_empty()).then(|| crate::eviction::drain::aggregate(&errors))
    }

    fn node_local_scores(&self, snapshot: &Snapshot<'_>) -> Option<Vec<NodeLocalScore>> {
        // A failing priority takes the full evaluation, which reports the error.
        if self.score_error(snapshot, 2).is_some() {
            return None;
        }
        let pod = self.context.pod();
        let normalize = |reverse| Reduce::Normalize {
            max: MAX_PRIORITY,
            reverse,
        };
        self.profile
            .priorities
            .iter()
            .map(|configured| {
                let reduce = match &configured.kind {
                    PriorityKind::NodeAffinity => normalize(false),
                    PriorityKind::TaintToleration => normalize(true),
                    // Without selectors every node counts 0 pods, and a node's score is
                    // the same whichever nodes are scored with it.
                    PriorityKind::SelectorSpread | PriorityKind::ServiceSpreading => {
                        priorities::selector_spreading::selectors(snapshot.cluster, pod)
                            .is_empty()
                            .then_some(Reduce::Identity)?
                    }
                    PriorityKind::InterPodAffinity => Reduce::MinMax {
                        max: MAX_PRIORITY,
                        from_zero: true,
                    },
                    // Without a service every node counts 0 pods, as for SelectorSpread.
                    PriorityKind::ServiceAntiAffinity(_) => self
                        .context
                        .services
                        .is_empty()
                        .then_some(Reduce::Identity)?,
                    _ => Reduce::Identity,
                };
                Some(NodeLocalScore {
                    name: configured.name.clone(),
                    weight: configured.weight,
                    reduce,
                })
            })
            .collect()
    }

    fn node_local_value(&self, snapshot: &Snapshot<'_>, node: usize, index: usize) -> i64 {
        let (Some(info), Some(configured)) =
            (snapshot.nodes.get(node), self.profile.priorities.get(index))
        else {
            return 0;
        };
        let pod = self.context.pod();
        match &configured.kind {
            PriorityKind::NodeAffinity => priorities::node_affinity::raw(pod, info.node),
            PriorityKind::TaintToleration => {
                super::plugins::taint_toleration::count_intolerable(pod, info.node)
            }
            PriorityKind::InterPodAffinity => self
                .context
                .affinity_scores(snapshot, self.profile.hard_pod_affinity_weight)
                .raw(info.node),
            kind => priorities::evaluate(
                kind,
                &self.context,
                snapshot,
                &[node],
                self.profile.hard_pod_affinity_weight,
            )
            .first()
            .copied()
            .unwrap_or(0),
        }
    }

    fn score(&self, snapshot: &Snapshot<'_>, feasible: &[usize]) -> Vec<(String, i64, Vec<i64>)> {
        self.profile
            .priorities
            .iter()
            .map(|configured| {
                let scores = priorities::evaluate(
                    &configured.kind,
                    &self.context,
                    snapshot,
                    feasible,
                    self.profile.hard_pod_affinity_weight,
                );
                (configured.name.clone(), configured.weight, scores)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(profile: &LegacyProfile) -> Vec<&str> {
        profile.predicates.iter().map(|p| p.name.as_ref()).collect()
    }

    /// `CreateFromConfig` keys predicates and priorities by name: a repeated name runs
    /// once, with its last entry's argument or weight.
    #[test]
    fn a_repeated_name_runs_once_as_its_last_entry_says() {
        let policy: Policy = serde_json::from_value(serde_json::json!({
            "predicates": [
                {"name": "Labels", "argument": {"labelsPresence": {"labels": ["retiring"], "presence": false}}},
                {"name": "Labels", "argument": {"labelsPresence": {"labels": ["ssd"], "presence": true}}}
            ],
            "priorities": [
                {"name": "LeastRequestedPriority", "weight": 1},
                {"name": "MostRequestedPriority", "weight": 1},
                {"name": "LeastRequestedPriority", "weight": 3}
            ]
        }))
        .unwrap_or_default();
        let profile = LegacyProfile::from_policy(&policy, true);
        let labels = profile.predicates.iter().find(|p| p.name == "Labels");
        assert!(
            matches!(labels.map(|p| &p.kind), Some(PredicateKind::CheckNodeLabelPresence(argument)) if argument.presence),
            "{labels:?}"
        );
        let weights: Vec<(&str, i64)> = profile
            .priorities
            .iter()
            .map(|p| (p.name.as_str(), p.weight))
            .collect();
        assert_eq!(
            weights,
            [("LeastRequestedPriority", 3), ("MostRequestedPriority", 1)]
        );
    }

    /// `RegisterCustomFitPredicate` / `RegisterCustomPriorityFunction` reuse what a name
    /// is registered for, including a custom registration earlier in the same Policy.
    #[test]
    fn an_entry_without_argument_reuses_an_earlier_custom_name() {
        let policy: Policy = serde_json::from_value(serde_json::json!({
            "predicates": [
                {"name": "NeedRack", "argument": {"labelsPresence": {"labels": ["rack"], "presence": true}}},
                {"name": "NeedRack"},
                {"name": "MatchNodeSelector", "argument": {"labelsPresence": {"labels": ["ssd"], "presence": true}}},
                {"name": "MatchNodeSelector"}
            ],
            "priorities": [
                {"name": "Rack", "weight": 1, "argument": {"labelPreference": {"label": "rack", "presence": true}}},
                {"name": "Rack", "weight": 5}
            ]
        }))
        .unwrap_or_default();
        let profile = LegacyProfile::from_policy(&policy, true);
        let ssd = LabelsPresenceArgument {
            labels: alloc::vec!["ssd".into()],
            presence: true,
        };
        let kinds: Vec<(&str, &PredicateKind)> = profile
            .predicates
            .iter()
            .map(|p| (p.name.as_ref(), &p.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                ("CheckNodeCondition", &PredicateKind::CheckNodeCondition),
                (
                    "NeedRack",
                    &PredicateKind::CheckNodeLabelPresence(LabelsPresenceArgument {
                        labels: alloc::vec!["rack".into()],
                        presence: true,
                    })
                ),
                (
                    "MatchNodeSelector",
                    &PredicateKind::CheckNodeLabelPresence(ssd)
                ),
            ]
        );
        assert_eq!(
            profile.priorities,
            [ConfiguredPriority {
                name: "Rack".into(),
                weight: 5,
                kind: PriorityKind::NodeLabel("rack".into(), true)
            }]
        );
        // Only an earlier entry counts: a name used before it is defined is unknown.
        let list: Vec<PriorityPolicy> = serde_json::from_value(serde_json::json!([
            {"name": "Rack", "weight": 5},
            {"name": "Rack", "weight": 1, "argument": {"labelPreference": {"label": "rack", "presence": true}}}
        ]))
        .unwrap_or_default();
        assert_eq!(
            policy_priorities(&list),
            [None, Some(PriorityKind::NodeLabel("rack".into(), true))]
        );
    }

    #[test]
    fn default_provider_runs_in_predicates_ordering() {
        let profile = LegacyProfile::default_provider(true);
        assert_eq!(
            names(&profile),
            [
                "CheckNodeCondition",
                "GeneralPredicates",
                "NoDiskConflict",
                "PodToleratesNodeTaints",
                "MaxEBSVolumeCount",
                "MaxGCEPDVolumeCount",
                "MaxAzureDiskVolumeCount",
                "CheckVolumeBinding",
                "NoVolumeZoneConflict",
                "CheckNodeMemoryPressure",
                "CheckNodePIDPressure",
                "CheckNodeDiskPressure",
                "MatchInterPodAffinity",
            ]
        );
        assert_eq!(profile.priorities.len(), 7);
        assert_eq!(profile.hard_pod_affinity_weight, 1);
    }

    #[test]
    fn an_empty_list_keeps_only_the_mandatory_predicate_and_custom_names_take_their_slot() {
        let policy = Policy {
            predicates: Some(Vec::new()),
            priorities: Some(Vec::new()),
            ..Policy::default()
        };
        let profile = LegacyProfile::from_policy(&policy, true);
        assert_eq!(names(&profile), ["CheckNodeCondition"]);
        assert!(profile.priorities.is_empty());

        let policy: Policy = serde_json::from_value(serde_json::json!({
            "predicates": [
                {"name": "MatchInterPodAffinity"},
                {"name": "RegionAffinity", "argument": {"serviceAffinity": {"labels": ["region"]}}},
                {"name": "RequireRegion", "argument": {"labelsPresence": {"labels": ["region"], "presence": true}}},
                {"name": "PodFitsPorts"},
                {"name": "MatchNodeSelector"}
            ],
            "priorities": [
                {"name": "ZoneSpread", "weight": 2, "argument": {"serviceAntiAffinity": {"label": "zone"}}}
            ],
            "hardPodAffinitySymmetricWeight": 5
        }))
        .unwrap();
        let profile = LegacyProfile::from_policy(&policy, true);
        assert_eq!(
            names(&profile),
            [
                "CheckNodeCondition",
                "PodFitsPorts",
                "MatchNodeSelector",
                "RequireRegion",
                "RegionAffinity",
                "MatchInterPodAffinity"
            ]
        );
        assert_eq!(
            profile.priorities,
            [ConfiguredPriority {
                name: "ZoneSpread".into(),
                weight: 2,
                kind: PriorityKind::ServiceAntiAffinity("zone".into())
            }]
        );
        assert_eq!(profile.hard_pod_affinity_weight, 5);
    }
}
