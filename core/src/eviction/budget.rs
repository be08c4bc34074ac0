//! PodDisruptionBudgets as the eviction API applies them, and the disruption
//! controller's `disruptionsAllowed` for budgets written without a status.
//!
//! Upstream: `pkg/registry/core/pod/storage/eviction.go` (which budgets cover a pod, the
//! one-budget rule, `checkAndDecrement`) and `pkg/controller/disruption/disruption.go`
//! (`getExpectedPodCount`, `countHealthyPods`). Example: a budget `minAvailable: 2` over
//! three running pods allows one eviction; the second is refused with
//! `Cannot evict pod as it would violate the pod's disruption budget.`

use alloc::string::String;
use alloc::vec::Vec;

use crate::cluster::{PodEntry, PodState};
use crate::duration::Duration;
use crate::labels;
use crate::model::{
    IntOrString, OwnerReference, Pod, PodDisruptionBudget, Readiness, Workload, WorkloadKind,
};
use crate::schedule::Version;

/// The eviction API's refusal when a budget allows no disruption (HTTP 429).
pub const VIOLATES_BUDGET: &str =
    "Cannot evict pod as it would violate the pod's disruption budget.";
/// The eviction API's refusal when two budgets cover a pod (HTTP 500).
pub const SEVERAL_BUDGETS: &str =
    "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.";

/// Whether a budget covers a pod for the scheduler's preemption
/// (`filterPodsWithPDBViolation`, 1.11 and 1.34 alike): same namespace, a pod with
/// labels, and a non-empty selector that matches (an empty selector matches nothing).
#[must_use]
pub fn covers(budget: &PodDisruptionBudget, pod: &Pod) -> bool {
    !pod.metadata.labels.is_empty()
        && budget.spec.selector.as_ref().is_some_and(|selector| {
            !(selector.match_labels.is_empty() && selector.match_expressions.is_empty())
        })
        && selects(budget, pod, Version::Current)
}

/// Whether the disruption controller counts a pod under a budget (`getPodsForPdb`): same
/// namespace and a selector that matches. In policy/v1 (1.34) an empty selector selects
/// every pod of the namespace; 1.11's controller takes an empty selector as selecting
/// nothing. A missing selector selects nothing. A pod without labels counts when the
/// selector matches it (`NotIn`, `DoesNotExist`): only the eviction handler leaves such a
/// pod out (`guards`).
#[must_use]
pub fn selects(budget: &PodDisruptionBudget, pod: &Pod, version: Version) -> bool {
    let Some(selector) = &budget.spec.selector else {
        return false;
    };
    let legacy_empty = version == Version::Legacy
        && selector.match_labels.is_empty()
        && selector.match_expressions.is_empty();
    budget.metadata.namespace == pod.metadata.namespace
        && !legacy_empty
        && labels::selector_matches(selector, &pod.metadata.labels)
}

/// Whether the eviction API asks a budget before it lets a pod go
/// (`getPodDisruptionBudgets` in `pkg/registry/core/pod/storage/eviction.go`): one that
/// [`selects`] the pod; the 1.11 handler looks at no budget for a pod without labels.
fn guards(budget: &PodDisruptionBudget, pod: &Pod, version: Version) -> bool {
    !(version == Version::Legacy && pod.metadata.labels.is_empty()) && selects(budget, pod, version)
}

/// `status.disruptionsAllowed` as given, or as the disruption controller would compute it
/// from the pods when the input has no status: healthy (bound, ready) covered pods minus
/// the desired healthy count, never below zero.
#[must_use]
pub fn disruptions_allowed(
    budget: &PodDisruptionBudget,
    pods: &[PodEntry],
    workloads: &[(WorkloadKind, Workload)],
    version: Version,
) -> i32 {
    i32::try_from(margin(budget, pods, workloads, version).0.max(0)).unwrap_or(i32::MAX)
}

/// Whether the disruption controller counts a pod healthy (`countHealthyPods` asks
/// `IsPodReady`): its `Ready` condition is `True`. A pod that lists no `Ready` condition
/// (a manifest rather than a pod read back from a cluster) counts as ready.
#[must_use]
pub fn counts_as_ready(pod: &Pod) -> bool {
    pod.status.conditions.ready != Readiness::NotReady
}

/// Whether the disruption controller counts a bound pod healthy (`countHealthyPods`): not
/// being deleted, and `ready`. Upstream reads the `Ready` condition alone, whatever the
/// phase; a pod that states none (kubefit's reading of a manifest) counts only while its
/// phase says it runs.
fn healthy(pod: &Pod, ready: bool) -> bool {
    ready
        && pod.metadata.deletion_timestamp.is_none()
        && (pod.status.conditions.ready == Readiness::Ready
            || !matches!(
                pod.status.phase.as_str(),
                "Pending" | "Succeeded" | "Failed"
            ))
}

/// A budget the controller never lets go of a pod: its margin stays below zero however
/// many pods start (`expectedCount <= 0`, or a failed sync: `failSafe`).
const NEVER: (i64, i64) = (i64::MIN / 2, i64::MAX);

/// Healthy (bound, running, ready, not being deleted) covered pods minus the desired
/// healthy count (`countHealthyPods`, `getExpectedPodCount`), which may be negative (the
/// status floors it at zero), and the desired count. From a status the input gives: its
/// allowance, or `currentHealthy - desiredHealthy` when that is below zero.
fn margin(
    budget: &PodDisruptionBudget,
    pods: &[PodEntry],
    workloads: &[(WorkloadKind, Workload)],
    version: Version,
) -> (i64, i64) {
    if let Some(status) = &budget.status {
        let short = i64::from(status.current_healthy) - i64::from(status.desired_healthy);
        let margin = match status.disruptions_allowed {
            0 => short.min(0),
            allowed => i64::from(allowed),
        };
        return (margin, i64::from(status.desired_healthy));
    }
    // Every pod the selector matches, finished ones too (`getPodsForPdb` lists them all):
    // a finished Job pod fails the sync as a running one does.
    let covered: Vec<&Pod> = pods
        .iter()
        .filter(|entry| entry.state != PodState::Rejected)
        .filter(|entry| selects(budget, &entry.pod, version))
        .map(|entry| &*entry.pod)
        .collect();
    let healthy = pods
        .iter()
        .filter(|entry| matches!(entry.state, PodState::Bound | PodState::Terminated))
        .filter(|entry| healthy(&entry.pod, counts_as_ready(&entry.pod)))
        .filter(|entry| selects(budget, &entry.pod, version))
        .count();
    let healthy = i64::try_from(healthy).unwrap_or(i64::MAX);
    let min = budget.spec.min_available.as_ref();
    let max = budget.spec.max_unavailable.as_ref();
    // An integer `minAvailable` expects the pods; the rest, the controllers' replicas.
    let expected = match (min, max) {
        (None, None) => None,
        (Some(IntOrString::Int(_)), None) => i64::try_from(covered.len()).ok(),
        _ => expected_scale(&covered, workloads, version),
    };
    let Some(expected) = expected else {
        return NEVER;
    };
    let desired = match (min, max) {
        (_, Some(max)) => expected.saturating_sub(scaled_up(max, expected)).max(0),
        (Some(min), None) => scaled_up(min, expected),
        (None, None) => return NEVER,
    };
    if expected <= 0 {
        return NEVER;
    }
    (healthy.saturating_sub(desired), desired)
}

/// `getExpectedScale`: the desired replicas of the covered pods' controllers, each
/// counted once (a ReplicaSet's Deployment stands for it), keyed by the controller and
/// not by its name alone (upstream keys them by UID: a Deployment and a StatefulSet both
/// named `redis` are two). `None` where the controller fails its sync (`failSafe`): a pod
/// without a controller (1.11; 1.34 leaves it out), one whose controller is a built-in
/// kind without a scale (DaemonSet, Job, the Node of a mirror pod; 1.11 knows only
/// ReplicationController, ReplicaSet, Deployment and StatefulSet), or one whose
/// controller is not found (`found no controllers for pod`).
///
/// A controller counts as not found only when the input lists objects of its kind and
/// not it (or lists it with another UID than the owner reference's): a dump of nodes and
/// pods alone says nothing of controllers, so a controller of a kind the input does not
/// list counts its covered pods, as does a custom resource's (its scale is unknown here).
fn expected_scale(
    covered: &[&Pod],
    workloads: &[(WorkloadKind, Workload)],
    version: Version,
) -> Option<i64> {
    let lists = |kind: WorkloadKind| workloads.iter().any(|(listed, _)| *listed == kind);
    // The object an owner reference names, if the input lists it with the same UID
    // (`Some(None)`: the input lists that kind, and not this one).
    let find = |kind: WorkloadKind, namespace: &str, owner: &OwnerReference| {
        let found = workloads.iter().find_map(|(listed, workload)| {
            (*listed == kind
                && workload.metadata.namespace == namespace
                && workload.metadata.name == owner.name
                && (owner.uid.is_empty()
                    || workload.metadata.uid.is_empty()
                    || workload.metadata.uid == owner.uid))
                .then_some(workload)
        });
        (found.is_some() || lists(kind)).then_some(found)
    };
    let mut counted: Vec<(&str, &str)> = Vec::new();
    let mut expected = 0_i64;
    for pod in covered {
        let Some(owner) = pod.metadata.controller() else {
            match version {
                Version::Current => continue,
                Version::Legacy => return None,
            }
        };
        let namespace = pod.metadata.namespace.as_str();
        let kind = match owner.kind.as_str() {
            "ReplicationController" => WorkloadKind::ReplicationController,
            "ReplicaSet" => WorkloadKind::ReplicaSet,
            "StatefulSet" => WorkloadKind::StatefulSet,
            // 1.34 reads any other controller's scale subresource (`getScaleController`).
            "Deployment" if version == Version::Current => WorkloadKind::Deployment,
            _ if version == Version::Legacy || built_in(owner) => return None,
            // A custom resource, which may have a scale subresource: its pods.
            _ => {
                let key = (owner.kind.as_str(), owner.name.as_str());
                add_once(&mut counted, &mut expected, key, || pods_of(covered, owner));
                continue;
            }
        };
        let Some(listed) = find(kind, namespace, owner) else {
            let key = (owner.kind.as_str(), owner.name.as_str());
            add_once(&mut counted, &mut expected, key, || pods_of(covered, owner));
            continue;
        };
        let set = listed?;
        // A ReplicaSet that a Deployment controls is scaled by it (`getPodDeployment`).
        // 1.11 then skips the ReplicaSet itself (`getPodReplicaSet`), so a Deployment
        // it does not find fails the sync; 1.34 reads the ReplicaSet's own scale.
        let parent = set
            .metadata
            .controller()
            .filter(|parent| kind == WorkloadKind::ReplicaSet && parent.kind == "Deployment");
        let workload = match parent.map(|parent| find(WorkloadKind::Deployment, namespace, parent))
        {
            Some(Some(Some(deployment))) => (WorkloadKind::Deployment, deployment),
            Some(Some(None)) if version == Version::Legacy => return None,
            _ => (kind, set),
        };
        let key = (workload.0.as_str(), workload.1.metadata.name.as_str());
        let replicas = i64::from(workload.1.spec.replicas.unwrap_or(1));
        add_once(&mut counted, &mut expected, key, || replicas);
    }
    Some(expected)
}

/// Whether an owner is of a built-in API group (`v1`, `apps/v1`, `batch/v1`: no dot in
/// the group, which a custom resource's group always has). Of the built-in kinds that
/// control pods, only the ones [`expected_scale`] looks up have a scale subresource:
/// another (a mirror pod's `v1/Node`) fails the sync (`does not implement the scale
/// subresource`).
fn built_in(owner: &OwnerReference) -> bool {
    let group = owner
        .api_version
        .rsplit_once('/')
        .map_or("", |(group, _)| group);
    !group.contains('.')
}

/// Adds a controller's scale once.
fn add_once<'a>(
    counted: &mut Vec<(&'a str, &'a str)>,
    expected: &mut i64,
    key: (&'a str, &'a str),
    scale: impl FnOnce() -> i64,
) {
    if !counted.contains(&key) {
        counted.push(key);
        *expected = expected.saturating_add(scale());
    }
}

/// How many covered pods `owner` controls, finished ones left out (kubefit's stand-in for
/// the scale of a controller the input does not list).
fn pods_of(covered: &[&Pod], owner: &OwnerReference) -> i64 {
    let owned = covered.iter().filter(|pod| {
        !matches!(pod.status.phase.as_str(), "Succeeded" | "Failed")
            && pod
                .metadata
                .controller()
                .is_some_and(|other| other.kind == owner.kind && other.name == owner.name)
    });
    i64::try_from(owned.count()).unwrap_or(i64::MAX)
}

/// An int, or a percentage of `total` rounded up (`GetScaledValueFromIntOrPercent`).
fn scaled_up(value: &IntOrString, total: i64) -> i64 {
    match value {
        IntOrString::Int(number) => *number,
        IntOrString::Str(text) => {
            let percent: i64 = text
                .strip_suffix('%')
                .and_then(|digits| digits.parse().ok())
                .unwrap_or(0);
            let product = percent.saturating_mul(total);
            product / 100 + i64::from(product % 100 != 0)
        }
    }
}

/// The budgets' margins as pods come and go: healthy covered pods minus the desired count
/// (`disruptionsAllowed` is the margin floored at zero). The eviction API takes one from
/// it per eviction of a healthy pod (`checkAndDecrement`); a covered pod deleted without
/// it (by the taint manager, preemption, the pod garbage collector) stops being healthy,
/// which the disruption controller counts the same way; a covered pod that starts running
/// adds one.
#[derive(Clone, Debug)]
pub struct Budgets<'c> {
    budgets: &'c [PodDisruptionBudget],
    /// Per budget, the margin and the desired healthy count.
    margins: Vec<(i64, i64)>,
    /// Per budget, the allowance 1.34's handler took for pods the controller did not
    /// count healthy (`checkAndDecrement` decrements whatever the pod's health), which
    /// the controller's next sync gives back: it lasts for the instant of the eviction.
    spent: Vec<i64>,
    /// The instant of the evictions `spent` counts.
    now: Option<Duration>,
    /// The API server's: 1.34's `canIgnorePDB` deletes a pod that is not running or is
    /// already terminating without asking its budget, and lets a running pod that is not
    /// ready go while the budget holds; the 1.11 handler asks for every pod.
    version: Version,
}

impl<'c> Budgets<'c> {
    /// The margins at the start, for the API server of `version`.
    #[must_use]
    pub fn new(
        budgets: &'c [PodDisruptionBudget],
        pods: &[PodEntry],
        workloads: &[(WorkloadKind, Workload)],
        version: Version,
    ) -> Self {
        Self {
            margins: budgets
                .iter()
                .map(|budget| margin(budget, pods, workloads, version))
                .collect(),
            spent: alloc::vec![0; budgets.len()],
            now: None,
            budgets,
            version,
        }
    }

    /// Time has come to `at`: past the instant of the last evictions, the disruption
    /// controller has synced and counted the pods again, giving back what evictions of
    /// pods it did not count took.
    pub fn at(&mut self, at: Duration) {
        if self.now != Some(at) {
            self.now = Some(at);
            self.spent.iter_mut().for_each(|spent| *spent = 0);
        }
    }

    /// Writes the status the API server holds now into `budgets` (the timeline's copies of
    /// the input's, in its order), which the scheduler's preemption reads
    /// (`filterPodsWithPDBViolation` takes `status.disruptionsAllowed` as it finds it):
    /// evictions in flight have spent their allowance, and pods gone or terminating are no
    /// longer healthy. `disruptedPods` stays as the input gives it.
    pub fn write_status(&self, budgets: &mut [PodDisruptionBudget]) {
        for (budget, (allowed, desired)) in budgets.iter_mut().zip(self.allowances()) {
            let status = budget.status.get_or_insert_with(Default::default);
            status.disruptions_allowed = allowed;
            status.desired_healthy = desired;
            status.current_healthy = desired.saturating_add(allowed);
        }
    }

    /// Each budget's `status.disruptionsAllowed` as it stands, with the desired healthy
    /// count, in the input's order.
    fn allowances(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        self.margins
            .iter()
            .zip(&self.spent)
            .map(|(&(margin, desired), &spent)| {
                let allowed = margin.saturating_sub(spent).max(0);
                let clamp = |value: i64| i32::try_from(value).unwrap_or(i32::MAX);
                (clamp(allowed), clamp(desired.max(0)))
            })
    }

    /// Asks the eviction API to evict a pod (`ready`: its `Ready` condition as it stands
    /// now, [`counts_as_ready`] unless the node lifecycle controller marked it not ready
    /// since; `terminating`: it was deleted before); on success the covering budget's
    /// allowance goes down by one.
    ///
    /// The 1.11 handler decrements for every pod it lets go, but the disruption controller
    /// recounts at once, and a pod that was not healthy (not running, not ready, or
    /// terminating) was not counted: only a healthy pod's eviction lasts. 1.34's handler
    /// lets a running pod that is not ready go without the allowance while the budget
    /// holds its desired count, or always under `unhealthyPodEvictionPolicy: AlwaysAllow`;
    /// otherwise it takes the allowance for it too, until the controller syncs (see
    /// [`Budgets::at`]).
    ///
    /// # Errors
    /// The API server's refusal: two budgets cover the pod, or the one that does allows
    /// no disruption now.
    pub fn evict(&mut self, pod: &Pod, ready: bool, terminating: bool) -> Result<(), String> {
        // A pod the input shows deleted is terminating from the start.
        let terminating = terminating || pod.metadata.deletion_timestamp.is_some();
        let not_running = matches!(
            pod.status.phase.as_str(),
            "Pending" | "Succeeded" | "Failed"
        );
        let current = self.version == Version::Current;
        if current && (not_running || terminating) {
            return Ok(());
        }
        let mut covering = self
            .budgets
            .iter()
            .enumerate()
            .filter(|(_, budget)| guards(budget, pod, self.version))
            .map(|(index, _)| index);
        let (Some(index), None) = (covering.next(), covering.next()) else {
            if self.budgets.iter().any(|b| guards(b, pod, self.version)) {
                return Err(String::from(SEVERAL_BUDGETS));
            }
            // No budget asked; one that counts the pod (1.11: a pod without labels)
            // loses it when the controller recounts.
            if !terminating {
                self.lose(pod, ready);
            }
            return Ok(());
        };
        if current && !ready {
            let always = self.budgets.get(index).is_some_and(|budget| {
                budget.spec.unhealthy_pod_eviction_policy.as_deref() == Some("AlwaysAllow")
            });
            let (margin, desired) = self.margins.get(index).copied().unwrap_or_default();
            if always || (margin >= 0 && desired > 0) {
                return Ok(());
            }
        }
        let spent = self.spent.get_mut(index);
        match (self.margins.get_mut(index).map(|(margin, _)| margin), spent) {
            (Some(margin), Some(spent)) if margin.saturating_sub(*spent) > 0 => {
                // A healthy pod leaves the margin for good; another's decrement (1.34)
                // lasts until the controller counts again (1.11's is taken as undone at
                // once).
                if healthy(pod, ready) && !terminating {
                    *margin -= 1;
                } else if current {
                    *spent += 1;
                }
                Ok(())
            }
            _ => Err(String::from(VIOLATES_BUDGET)),
        }
    }

    /// A pod covered by a budget became healthy (a replacement is running).
    pub fn restore(&mut self, pod: &Pod) {
        self.count(pod, 1);
    }

    /// A running pod covered by a budget stopped counting healthy: deleted without the
    /// eviction API, or marked not ready (one that was not `ready` was not counted).
    pub fn lose(&mut self, pod: &Pod, ready: bool) {
        if healthy(pod, ready) {
            self.count(pod, -1);
        }
    }

    /// Whether the input has no budget at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.budgets.is_empty()
    }

    fn count(&mut self, pod: &Pod, change: i64) {
        for (budget, (margin, _)) in self.budgets.iter().zip(self.margins.iter_mut()) {
            if selects(budget, pod, self.version) {
                *margin = margin.saturating_add(change);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{LabelSelector, PodDisruptionBudgetStatus};

    fn budget(name: &str, min: Option<IntOrString>, allowed: Option<i32>) -> PodDisruptionBudget {
        let mut budget = PodDisruptionBudget::default();
        budget.metadata.name = name.into();
        budget.metadata.namespace = "default".into();
        budget.spec.min_available = min;
        let mut selector = LabelSelector::default();
        selector.match_labels.insert("app".into(), "web".into());
        budget.spec.selector = Some(selector);
        budget.status = allowed.map(|allowed| PodDisruptionBudgetStatus {
            disruptions_allowed: allowed,
            ..PodDisruptionBudgetStatus::default()
        });
        budget
    }

    fn web(name: &str) -> PodEntry {
        let mut pod = Pod::default();
        pod.metadata.name = name.into();
        pod.metadata.namespace = "default".into();
        pod.metadata.labels.insert("app".into(), "web".into());
        pod.spec.node_name = "n1".into();
        PodEntry::new(pod, PodState::Bound, 0)
    }

    /// Asks for a pod as the input shows it (its own readiness, not terminating).
    fn ask(state: &mut Budgets<'_>, entry: &PodEntry) -> Result<(), String> {
        state.evict(&entry.pod, counts_as_ready(&entry.pod), false)
    }

    #[test]
    fn an_allowance_is_spent_one_eviction_at_a_time() {
        let budgets = [budget("web", Some(IntOrString::Int(2)), None)];
        let pods = [web("a"), web("b"), web("c")];
        assert_eq!(
            disruptions_allowed(&budgets[0], &pods, &[], Version::Current),
            1
        );
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Current);
        assert_eq!(ask(&mut state, &pods[0]), Ok(()));
        assert_eq!(ask(&mut state, &pods[1]), Err(VIOLATES_BUDGET.into()));
        state.restore(&pods[0].pod);
        assert_eq!(ask(&mut state, &pods[1]), Ok(()));
    }

    /// The margin is not floored as the status is: with one pod short of `minAvailable`,
    /// a pod that starts running brings the allowance to zero, not one.
    #[test]
    fn a_pod_short_of_the_minimum_is_made_up_before_any_eviction() {
        let budgets = [budget("web", Some(IntOrString::Int(3)), None)];
        let pods = [web("a"), web("b"), web("c")];
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Current);
        state.lose(&pods[0].pod, true);
        state.restore(&web("a2").pod);
        assert_eq!(ask(&mut state, &pods[1]), Err(VIOLATES_BUDGET.into()));
        state.restore(&web("a3").pod);
        assert_eq!(ask(&mut state, &pods[1]), Ok(()));
    }

    fn not_ready(name: &str) -> PodEntry {
        let mut entry = web(name);
        alloc::sync::Arc::make_mut(&mut entry.pod)
            .status
            .conditions
            .ready = Readiness::NotReady;
        entry
    }

    /// `eviction.go` (1.34) with `unhealthyPodEvictionPolicy` unset (`IfHealthyBudget`): a
    /// pod that is not ready counts for nothing, and goes without the allowance while the
    /// budget holds its desired count; below it, it needs the allowance like any pod.
    /// `AlwaysAllow` lets it go whatever the count. The 1.11 handler has neither rule.
    #[test]
    fn a_pod_that_is_not_ready_goes_while_the_budget_is_healthy() {
        let budgets = [budget("web", Some(IntOrString::Int(2)), None)];
        let pods = [web("a"), web("b"), not_ready("c")];
        assert_eq!(
            disruptions_allowed(&budgets[0], &pods, &[], Version::Current),
            0
        );
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Current);
        assert_eq!(ask(&mut state, &pods[2]), Ok(()));
        assert_eq!(ask(&mut state, &pods[0]), Err(VIOLATES_BUDGET.into()));
        let mut legacy = Budgets::new(&budgets, &pods, &[], Version::Legacy);
        assert_eq!(ask(&mut legacy, &pods[2]), Err(VIOLATES_BUDGET.into()));
        let short = [web("a"), not_ready("b"), not_ready("c")];
        let mut state = Budgets::new(&budgets, &short, &[], Version::Current);
        assert_eq!(ask(&mut state, &short[1]), Err(VIOLATES_BUDGET.into()));
        let mut always = budget("web", Some(IntOrString::Int(2)), None);
        always.spec.unhealthy_pod_eviction_policy = Some("AlwaysAllow".into());
        let always = [always];
        let mut state = Budgets::new(&always, &short, &[], Version::Current);
        assert_eq!(ask(&mut state, &short[1]), Ok(()));
        assert_eq!(ask(&mut state, &short[0]), Err(VIOLATES_BUDGET.into()));
    }

    /// `checkAndDecrement` (1.34) takes the allowance for a running pod that is not ready
    /// when the budget does not let it go freely (`desiredHealthy` 0): a ready sibling
    /// evicted at the same instant is refused, and goes once the controller has counted
    /// again. 1.11's decrement is taken as undone at once.
    #[test]
    fn a_pod_that_is_not_ready_takes_the_allowance_until_the_controller_syncs() {
        let budgets = [budget("web", Some(IntOrString::Int(0)), None)];
        let pods = [not_ready("a"), web("b")];
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Current);
        state.at(Duration(0));
        assert_eq!(ask(&mut state, &pods[0]), Ok(()));
        assert_eq!(state.allowances().next(), Some((0, 0)));
        assert_eq!(ask(&mut state, &pods[1]), Err(VIOLATES_BUDGET.into()));
        state.at(Duration::from_seconds(5));
        assert_eq!(state.allowances().next(), Some((1, 0)));
        assert_eq!(ask(&mut state, &pods[1]), Ok(()));
        let mut legacy = Budgets::new(&budgets, &pods, &[], Version::Legacy);
        assert_eq!(ask(&mut legacy, &pods[0]), Ok(()));
        assert_eq!(ask(&mut legacy, &pods[1]), Ok(()));
    }

    /// What the timeline's preemption reads: the allowance left after the evictions so
    /// far, a written status included (its `disruptedPods` kept).
    #[test]
    fn the_status_written_for_preemption_is_the_allowance_left() {
        let mut given = budget("given", None, Some(2));
        if let Some(status) = given.status.as_mut() {
            status
                .disrupted_pods
                .insert("old".into(), "2026-11-29T10:00:00Z".into());
        }
        let budgets = [budget("web", Some(IntOrString::Int(1)), None), given];
        let pods = [web("a"), web("b")];
        let mut state = Budgets::new(&budgets[..1], &pods, &[], Version::Current);
        let mut written = budgets.clone();
        state.write_status(&mut written);
        let allowed = |written: &[PodDisruptionBudget], index: usize| {
            written
                .get(index)
                .and_then(|b| b.status.as_ref())
                .map(|s| s.disruptions_allowed)
        };
        assert_eq!(allowed(&written, 0), Some(1));
        assert_eq!(ask(&mut state, &pods[0]), Ok(()));
        state.write_status(&mut written);
        assert_eq!(allowed(&written, 0), Some(0));
        let mut state = Budgets::new(&budgets[1..], &pods, &[], Version::Current);
        assert_eq!(ask(&mut state, &pods[0]), Ok(()));
        let mut written = budgets[1..].to_vec();
        state.write_status(&mut written);
        assert_eq!(allowed(&written, 0), Some(1));
        assert!(written
            .first()
            .and_then(|b| b.status.as_ref())
            .is_some_and(|s| s.disrupted_pods.contains_key("old")));
    }

    /// A status the input gives: `currentHealthy` below `desiredHealthy` is a deficit a
    /// pod that is not ready cannot go under, and a running pod must make up first.
    #[test]
    fn a_status_below_its_desired_count_keeps_its_deficit() {
        let mut short = budget("web", Some(IntOrString::Int(2)), Some(0));
        if let Some(status) = short.status.as_mut() {
            status.current_healthy = 1;
            status.desired_healthy = 2;
        }
        let budgets = [short];
        let pods = [web("a"), not_ready("b")];
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Current);
        assert_eq!(ask(&mut state, &pods[1]), Err(VIOLATES_BUDGET.into()));
        state.restore(&pods[0].pod);
        assert_eq!(ask(&mut state, &pods[1]), Ok(()));
        assert_eq!(ask(&mut state, &pods[0]), Err(VIOLATES_BUDGET.into()));
    }

    #[test]
    fn a_pod_that_is_not_running_ignores_its_budget() {
        let budgets = [budget("web", None, Some(0))];
        let mut pending = web("starting");
        alloc::sync::Arc::make_mut(&mut pending.pod).status.phase = "Pending".into();
        let mut state = Budgets::new(
            &budgets,
            core::slice::from_ref(&pending),
            &[],
            Version::Current,
        );
        assert_eq!(state.evict(&pending.pod, true, false), Ok(()));
        assert_eq!(
            state.evict(&web("running").pod, true, false),
            Err(VIOLATES_BUDGET.into())
        );
    }

    /// The 1.11 handler asks the budget for every pod; letting a pending or terminating
    /// one go does not spend the allowance, which the disruption controller recounts.
    #[test]
    fn the_legacy_handler_asks_for_pods_that_are_not_running() {
        let budgets = [budget("web", Some(IntOrString::Int(1)), None)];
        let mut pending = web("starting");
        alloc::sync::Arc::make_mut(&mut pending.pod).status.phase = "Pending".into();
        let pods = [web("a"), web("b")];
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Legacy);
        assert_eq!(ask(&mut state, &pods[0]), Ok(()));
        assert_eq!(
            state.evict(&pods[0].pod, counts_as_ready(&pods[0].pod), true),
            Err(VIOLATES_BUDGET.into())
        );
        assert_eq!(
            state.evict(&pending.pod, true, false),
            Err(VIOLATES_BUDGET.into())
        );
        let mut current = Budgets::new(&budgets, &pods, &[], Version::Current);
        assert_eq!(ask(&mut current, &pods[0]), Ok(()));
        assert_eq!(
            current.evict(&pods[0].pod, counts_as_ready(&pods[0].pod), true),
            Ok(())
        );
        let mut roomy = Budgets::new(
            &budgets,
            &[web("a"), web("b"), web("c")],
            &[],
            Version::Legacy,
        );
        assert_eq!(ask(&mut roomy, &pods[0]), Ok(()));
        assert_eq!(
            roomy.evict(&pods[0].pod, counts_as_ready(&pods[0].pod), true),
            Ok(())
        );
        assert_eq!(ask(&mut roomy, &pods[1]), Ok(()));
        assert_eq!(ask(&mut roomy, &pods[1]), Err(VIOLATES_BUDGET.into()));
    }

    /// policy/v1 (1.34): an empty selector selects the namespace's every pod; 1.11's
    /// v1beta1 handlers select nothing with it, and no budget for a pod without labels.
    /// The scheduler's preemption matches nothing with it in both.
    #[test]
    fn an_empty_selector_selects_all_in_1_34_only() {
        let mut everything = budget("all", None, None);
        everything.spec.max_unavailable = Some(IntOrString::Int(0));
        everything.spec.selector = Some(LabelSelector::default());
        let mut bare = web("bare");
        alloc::sync::Arc::make_mut(&mut bare.pod)
            .metadata
            .labels
            .clear();
        let budgets = [everything];
        let pods = [web("a"), bare];
        for pod in &pods {
            assert!(selects(&budgets[0], &pod.pod, Version::Current));
            assert!(!selects(&budgets[0], &pod.pod, Version::Legacy));
            assert!(!covers(&budgets[0], &pod.pod));
        }
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Current);
        assert_eq!(ask(&mut state, &pods[0]), Err(VIOLATES_BUDGET.into()));
        let mut legacy = Budgets::new(&budgets, &pods, &[], Version::Legacy);
        assert_eq!(ask(&mut legacy, &pods[0]), Ok(()));
    }

    /// Neither `minAvailable` nor `maxUnavailable`: no disruption, ever; a pod bound but
    /// still Pending is not healthy.
    #[test]
    fn a_budget_without_either_count_allows_nothing() {
        let mut neither = budget("web", None, None);
        neither.spec.min_available = None;
        let budgets = [neither];
        let pods = [web("a"), web("b")];
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Current);
        state.restore(&pods[0].pod);
        assert_eq!(ask(&mut state, &pods[0]), Err(VIOLATES_BUDGET.into()));
        let one = [budget("web", Some(IntOrString::Int(1)), None)];
        let mut pending = web("p");
        alloc::sync::Arc::make_mut(&mut pending.pod).status.phase = "Pending".into();
        let pods = [web("a"), pending];
        assert_eq!(
            disruptions_allowed(&one[0], &pods, &[], Version::Current),
            0
        );
    }

    /// A pod the input shows deleted (`deletionTimestamp`) is no part of the healthy
    /// count (`countHealthyPods`), and 1.34 deletes it again without asking its budget.
    #[test]
    fn a_pod_being_deleted_is_not_healthy() {
        let budgets = [budget("web", Some(IntOrString::Int(1)), None)];
        let mut deleted = web("d");
        alloc::sync::Arc::make_mut(&mut deleted.pod)
            .metadata
            .deletion_timestamp = Some("2026-11-29T10:00:00Z".into());
        let pods = [web("a"), deleted];
        assert_eq!(
            disruptions_allowed(&budgets[0], &pods, &[], Version::Current),
            0
        );
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Current);
        assert_eq!(
            state.evict(&pods[0].pod, true, false),
            Err(VIOLATES_BUDGET.into())
        );
        assert_eq!(state.evict(&pods[1].pod, true, false), Ok(()));
    }

    /// `getPodsForPdb` lists every pod the selector matches, finished ones too: a finished
    /// Job pod fails the sync (a Job has no scale), so nothing may go
    /// (`failSafe`); a finished pod that states `Ready` is healthy (`countHealthyPods`
    /// reads the condition alone).
    #[test]
    fn finished_pods_are_covered_too() {
        let mut budgets = [budget("web", None, None)];
        budgets[0].spec.max_unavailable = Some(IntOrString::Int(1));
        let finished = |mut entry: PodEntry, ready: Readiness| {
            let pod = alloc::sync::Arc::make_mut(&mut entry.pod);
            pod.status.phase = "Succeeded".into();
            pod.status.conditions.ready = ready;
            PodEntry::new((*entry.pod).clone(), PodState::Terminated, 0)
        };
        let sets = [workload(WorkloadKind::ReplicaSet, "rs", 2, None)];
        let running = [
            owned("a", "ReplicaSet", "rs"),
            owned("b", "ReplicaSet", "rs"),
        ];
        assert_eq!(
            disruptions_allowed(&budgets[0], &running, &sets, Version::Current),
            1
        );
        let job = finished(owned("migrate", "Job", "migrate"), Readiness::NotReady);
        let with_job = [running[0].clone(), running[1].clone(), job];
        assert_eq!(
            disruptions_allowed(&budgets[0], &with_job, &sets, Version::Current),
            0
        );
        let mut min = [budget("web", Some(IntOrString::Int(2)), None)];
        min[0].spec.max_unavailable = None;
        let done = finished(web("done"), Readiness::Ready);
        let with_ready = [running[0].clone(), done];
        assert_eq!(
            disruptions_allowed(&min[0], &with_ready, &[], Version::Current),
            0
        );
        let with_three = [
            running[0].clone(),
            running[1].clone(),
            with_ready[1].clone(),
        ];
        assert_eq!(
            disruptions_allowed(&min[0], &with_three, &[], Version::Current),
            1
        );
    }

    fn owned(name: &str, kind: &str, owner: &str) -> PodEntry {
        let mut entry = web(name);
        let pod = alloc::sync::Arc::make_mut(&mut entry.pod);
        pod.metadata.owner_references.push(OwnerReference {
            kind: kind.into(),
            name: owner.into(),
            controller: Some(true),
            ..OwnerReference::default()
        });
        entry
    }

    fn workload(
        kind: WorkloadKind,
        name: &str,
        replicas: i32,
        owner: Option<&str>,
    ) -> (WorkloadKind, Workload) {
        let mut workload = Workload::default();
        workload.metadata.name = name.into();
        workload.metadata.namespace = "default".into();
        workload.spec.replicas = Some(replicas);
        if let Some(owner) = owner {
            workload.metadata.owner_references.push(OwnerReference {
                kind: "Deployment".into(),
                name: owner.into(),
                controller: Some(true),
                ..OwnerReference::default()
            });
        }
        (kind, workload)
    }

    /// `getExpectedScale`: `maxUnavailable` and percentages count the controllers'
    /// replicas, not the pods. A Deployment of 3 with 4 pods mid-rollout allows 2; pods
    /// without a controller count for nothing (1.34) or fail the sync (1.11); a Job's
    /// pods fail it (no scale); a controller the input does not list counts its pods.
    #[test]
    fn the_expected_count_is_the_controllers_scale() {
        let mut budget_max = budget("web", None, None);
        budget_max.spec.min_available = None;
        budget_max.spec.max_unavailable = Some(IntOrString::Int(1));
        let budgets = [budget_max];
        let rollout = [
            owned("a", "ReplicaSet", "web-1"),
            owned("b", "ReplicaSet", "web-1"),
            owned("c", "ReplicaSet", "web-2"),
            owned("d", "ReplicaSet", "web-2"),
        ];
        let workloads = [
            workload(WorkloadKind::Deployment, "web", 3, None),
            workload(WorkloadKind::ReplicaSet, "web-1", 1, Some("web")),
            workload(WorkloadKind::ReplicaSet, "web-2", 2, Some("web")),
        ];
        let allowed = |pods: &[PodEntry], workloads: &[(WorkloadKind, Workload)], version| {
            disruptions_allowed(&budgets[0], pods, workloads, version)
        };
        assert_eq!(allowed(&rollout, &workloads, Version::Current), 2);
        // Not listed: each ReplicaSet counts its pods (4 expected, 3 desired).
        assert_eq!(allowed(&rollout, &[], Version::Current), 1);
        let bare = [web("a"), web("b"), web("c")];
        assert_eq!(allowed(&bare, &[], Version::Current), 0);
        assert_eq!(allowed(&bare, &[], Version::Legacy), 0);
        let jobs = [owned("a", "Job", "batch"), owned("b", "Job", "batch")];
        assert_eq!(allowed(&jobs, &[], Version::Current), 0);
        // An integer minAvailable counts the pods, controllers or not.
        let one = [budget("web", Some(IntOrString::Int(1)), None)];
        assert_eq!(disruptions_allowed(&one[0], &bare, &[], Version::Legacy), 2);
    }

    fn max_one() -> PodDisruptionBudget {
        let mut max = budget("web", None, None);
        max.spec.max_unavailable = Some(IntOrString::Int(1));
        max
    }

    /// An owner reference with its `apiVersion` and `uid`.
    fn owned_by(name: &str, api_version: &str, kind: &str, owner: &str, uid: &str) -> PodEntry {
        let mut entry = owned(name, kind, owner);
        let pod = alloc::sync::Arc::make_mut(&mut entry.pod);
        if let Some(reference) = pod.metadata.owner_references.first_mut() {
            reference.api_version = api_version.into();
            reference.uid = uid.into();
        }
        entry
    }

    /// `getExpectedScale` keys the controllers by UID: a Deployment and a StatefulSet
    /// that share the name `redis` are two controllers, 2 + 3 expected, one to spare.
    #[test]
    fn controllers_of_two_kinds_with_one_name_are_both_counted() {
        let budgets = [max_one()];
        let mut workloads = alloc::vec![
            workload(WorkloadKind::Deployment, "redis", 2, None),
            workload(WorkloadKind::ReplicaSet, "redis-5d8f", 2, Some("redis")),
            workload(WorkloadKind::StatefulSet, "redis", 3, None),
        ];
        let mut pods = alloc::vec![
            owned("redis-5d8f-a", "ReplicaSet", "redis-5d8f"),
            owned("redis-5d8f-b", "ReplicaSet", "redis-5d8f"),
        ];
        for name in ["redis-0", "redis-1", "redis-2"] {
            pods.push(owned(name, "StatefulSet", "redis"));
        }
        assert_eq!(
            disruptions_allowed(&budgets[0], &pods, &workloads, Version::Current),
            1
        );
        workloads.truncate(2);
        assert_eq!(
            disruptions_allowed(&budgets[0], &pods, &workloads, Version::Legacy),
            1
        );
    }

    /// 1.34's `getScaleController`: a mirror pod's `v1/Node` owner has no scale
    /// subresource, so the sync fails and nothing may go; a custom resource's pods count.
    #[test]
    fn a_built_in_owner_without_a_scale_fails_the_sync() {
        let budgets = [max_one()];
        let sets = [workload(WorkloadKind::ReplicaSet, "rs", 2, None)];
        let mut pods = alloc::vec![
            owned("a", "ReplicaSet", "rs"),
            owned("b", "ReplicaSet", "rs")
        ];
        let allowed =
            |pods: &[PodEntry]| disruptions_allowed(&budgets[0], pods, &sets, Version::Current);
        pods.push(owned_by(
            "rollout-x",
            "argoproj.io/v1alpha1",
            "Rollout",
            "x",
            "r-1",
        ));
        pods.push(owned_by(
            "rollout-y",
            "argoproj.io/v1alpha1",
            "Rollout",
            "x",
            "r-1",
        ));
        // 2 + 2 expected, 3 desired, 4 healthy.
        assert_eq!(allowed(&pods), 1);
        pods.push(owned_by("static-n1", "v1", "Node", "n1", "n-1"));
        assert_eq!(allowed(&pods), 0);
    }

    /// `getExpectedScale` finds no controller for a pod (the finders check the name and
    /// the UID; 1.11's skips a ReplicaSet a Deployment controls): `failSafe`. kubefit takes
    /// a controller as missing only when the input lists objects of its kind.
    #[test]
    fn a_controller_the_input_does_not_have_fails_the_sync() {
        let budgets = [max_one()];
        let pods = [
            owned_by("a", "apps/v1", "ReplicaSet", "web", "rs-1"),
            owned_by("b", "apps/v1", "ReplicaSet", "web", "rs-1"),
        ];
        let allowed = |workloads: &[(WorkloadKind, Workload)], version| {
            disruptions_allowed(&budgets[0], &pods, workloads, version)
        };
        let with_uid = |mut listed: (WorkloadKind, Workload), uid: &str| {
            listed.1.metadata.uid = uid.into();
            listed
        };
        let web = with_uid(workload(WorkloadKind::ReplicaSet, "web", 2, None), "rs-1");
        for version in [Version::Current, Version::Legacy] {
            // Nothing listed: the pods stand for the scale.
            assert_eq!(allowed(&[], version), 1);
            assert_eq!(allowed(core::slice::from_ref(&web), version), 1);
            let other = workload(WorkloadKind::ReplicaSet, "other", 2, None);
            assert_eq!(allowed(&[other], version), 0);
            let stale = with_uid(workload(WorkloadKind::ReplicaSet, "web", 2, None), "rs-0");
            assert_eq!(allowed(&[stale], version), 0);
        }
        // The ReplicaSet's Deployment is not in an input that lists Deployments: 1.11
        // finds nothing, 1.34 reads the ReplicaSet's own scale.
        let owned = with_uid(
            workload(WorkloadKind::ReplicaSet, "web", 2, Some("gone")),
            "rs-1",
        );
        let unrelated = workload(WorkloadKind::Deployment, "api", 3, None);
        let listed = [owned.clone(), unrelated];
        assert_eq!(allowed(&listed, Version::Current), 1);
        assert_eq!(allowed(&listed, Version::Legacy), 0);
        assert_eq!(allowed(&[owned], Version::Legacy), 1);
    }

    /// 1.11: the disruption controller counts every pod the selector matches, one without
    /// labels too (`DoesNotExist` matches it); the eviction handler asks no budget for it.
    #[test]
    fn the_legacy_controller_counts_pods_without_labels() {
        let mut guard = budget("guard", Some(IntOrString::Int(1)), None);
        guard.spec.selector = Some(LabelSelector {
            match_expressions: alloc::vec![crate::model::LabelSelectorRequirement {
                key: "critical".into(),
                operator: "DoesNotExist".into(),
                values: Vec::new(),
            }],
            ..LabelSelector::default()
        });
        let mut bare = web("bare");
        alloc::sync::Arc::make_mut(&mut bare.pod)
            .metadata
            .labels
            .clear();
        let budgets = [guard];
        let pods = [web("a"), bare];
        assert_eq!(
            disruptions_allowed(&budgets[0], &pods, &[], Version::Legacy),
            1
        );
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Legacy);
        assert_eq!(ask(&mut state, &pods[0]), Ok(()));
        assert_eq!(ask(&mut state, &pods[1]), Ok(()));
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Legacy);
        assert_eq!(ask(&mut state, &pods[1]), Ok(()));
        assert_eq!(ask(&mut state, &pods[0]), Err(VIOLATES_BUDGET.into()));
    }

    #[test]
    fn a_written_status_wins_and_two_budgets_refuse() {
        let budgets = [
            budget("one", None, Some(5)),
            budget("two", Some(IntOrString::Str("50%".into())), None),
        ];
        let pods = [web("a")];
        assert_eq!(
            disruptions_allowed(&budgets[0], &pods, &[], Version::Current),
            5
        );
        // 50% of one pod rounds up to one: nothing to spare.
        assert_eq!(
            disruptions_allowed(&budgets[1], &pods, &[], Version::Current),
            0
        );
        let mut state = Budgets::new(&budgets, &pods, &[], Version::Current);
        assert_eq!(ask(&mut state, &pods[0]), Err(SEVERAL_BUDGETS.into()));
    }
}
