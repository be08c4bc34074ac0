//! The scheduling engine: places every pending pod as kube-scheduler would, and records
//! every filter's verdict and every score on every node.
//!
//! Two profiles share one driver: `openshift-3.11` (Kubernetes 1.11 predicates and
//! priorities, configured by a `Policy`) and `kubernetes-1.34` (the scheduling framework's
//! plugins, configured by a `KubeSchedulerConfiguration`). The driver follows
//! `pkg/scheduler/core/generic_scheduler.go` (1.11) and `pkg/scheduler/schedule_one.go`
//! (1.34): filter every node, score the feasible ones when more than one fits, pick the
//! best, bind; when nothing fits, report the `FailedScheduling` text and try preemption.

pub mod configuration;
pub mod equivalence;
pub mod framework;
pub mod legacy;
pub mod message;
pub mod plugins;
pub mod predicates;
pub mod preemption;
pub mod priorities;
pub mod queue;
pub mod resources;
pub mod select;
pub mod selection;
pub mod snapshot;
pub mod status;
pub mod topology;
pub mod volumes;

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::cluster::{Cluster, PodEntry, PodState};
use crate::input::Resource;
use crate::report::scheduling::{
    Configuration, NodeVerdict, NodeVerdicts, Outcome, Placement, PredicateVerdict,
    ProfileConfiguration, Sampled, Scheduling, ScoreMap,
};
use plugins::image_locality::ImageTable;
use snapshot::{Accounting, Snapshot};
use status::{Code, Status};

/// Which upstream release a profile reproduces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Version {
    /// Kubernetes 1.11, as OpenShift 3.11 ships it (scores 0–10).
    Legacy,
    /// Kubernetes 1.34 (scores 0–100).
    #[default]
    Current,
}

impl Version {
    /// The profile name in the report.
    #[must_use]
    pub const fn profile_name(self) -> &'static str {
        match self {
            Self::Legacy => "openshift-3.11",
            Self::Current => "kubernetes-1.34",
        }
    }

    /// How pods are counted on nodes.
    #[must_use]
    pub const fn accounting(self) -> Accounting {
        match self {
            Self::Legacy => Accounting::Legacy,
            Self::Current => Accounting::Current,
        }
    }
}

/// The release the input's objects select unless `forced`: a Policy document selects
/// openshift-3.11; so does OpenShift 3.11's MasterConfig, unless a
/// KubeSchedulerConfiguration says otherwise. [`Cluster::build`] decides it once, before
/// it takes the objects in, since validation and admission differ between the releases
/// too.
#[must_use]
pub fn version<'r>(
    resources: impl IntoIterator<Item = &'r Resource>,
    forced: Option<Version>,
) -> Version {
    let (mut policy, mut master_config, mut scheduler_configuration) = (false, false, false);
    for resource in resources {
        match resource {
            Resource::Policy(_) => policy = true,
            Resource::MasterConfig(_) => master_config = true,
            Resource::KubeSchedulerConfiguration(_) => scheduler_configuration = true,
            _ => {}
        }
    }
    let openshift = policy || (master_config && !scheduler_configuration);
    forced.unwrap_or(if openshift {
        Version::Legacy
    } else {
        Version::Current
    })
}

/// Options for the scheduling engine.
#[derive(Clone, Debug, Default)]
pub struct ScheduleOptions {
    /// Turn preemption off for every profile.
    pub disable_preemption: bool,
    /// Seed for the 1.34 random tie-break between equally scored nodes.
    pub seed: u64,
    /// How many per-node verdicts the report keeps in all (`None`:
    /// [`DEFAULT_MAX_NODE_VERDICTS`]). Pods scheduled after the budget is spent keep only
    /// their chosen node's verdict; their messages still count every node.
    pub max_node_verdicts: Option<usize>,
    /// Leave out the comparison with the sampling scheduler ([`Placement::sampled`]): for
    /// callers that read only where each pod goes (the timeline's replacements).
    pub skip_sampled: bool,
}

/// The default budget of per-node verdicts in a report. A verdict of the 1.34 default
/// profile (twelve filters) is about 600 bytes of JSON, so this keeps the scheduling
/// section near 60 MB, well below what a JavaScript string can hold (512 MiB in V8): at a
/// million verdicts the package could not return the report at all.
pub const DEFAULT_MAX_NODE_VERDICTS: usize = 100_000;

/// What a profile does for one pod before any node is examined (PreFilter).
pub enum Prepared<'a> {
    /// The pod goes through filtering; `only` restricts the nodes examined (a PreFilter
    /// node subset), with the plugins that restricted it.
    Filter {
        /// The per-pod filters and scores.
        cycle: Box<dyn Cycle + 'a>,
        /// Nodes outside the subset a PreFilter returned, and the plugins that returned it.
        only: Option<(Vec<bool>, Vec<&'static str>)>,
    },
    /// A PreFilter rejected the pod on every node, with this status. One that is
    /// `UnschedulableAndUnresolvable` stops the PreFilters after it, so DynamicResources
    /// never saw the pod.
    Rejected(Status),
    /// The scheduler gives up on the pod with this error before looking at any node (1.11
    /// `podPassesBasicChecks`); the error is the event text and nothing is preempted.
    Error(String),
}

/// One pod's scheduling cycle in one profile.
pub trait Cycle {
    /// Every filter's verdict on one node, in the order the filters run.
    fn filter(
        &self,
        snapshot: &Snapshot<'_>,
        node: usize,
    ) -> Vec<(alloc::borrow::Cow<'static, str>, Status)>;

    /// The first filter that does not pass the node, and its verdict: all upstream looks
    /// at when it stops at the first failure (without alwaysCheckAllPredicates). Filters
    /// after it are not run.
    fn first_failure(
        &self,
        snapshot: &Snapshot<'_>,
        node: usize,
    ) -> Option<(alloc::borrow::Cow<'static, str>, Status)> {
        self.filter(snapshot, node)
            .into_iter()
            .find(|(_, status)| !status.passed())
    }

    /// True if the named filter skipped the pod at PreFilter (upstream's `Skip`): then it
    /// passes every node even with the pods nominated there added, since their `AddPod`
    /// never reaches a skipped plugin (1.34 `RunFilterPluginsWithNominatedPods`).
    fn skips_filter(&self, _filter: &str) -> bool {
        false
    }

    /// True when the cycle answers [`Cycle::first_failure_at`] and
    /// [`Cycle::node_only_score`]: its filters and scores split into those that read only
    /// the node and the pod's node inputs, which never change while pods are placed, and
    /// the others. The equivalence cache then works the first out once per node for every
    /// cycle with the same node inputs.
    fn splits(&self) -> bool {
        false
    }

    /// True when `other`'s cycle in this profile would find the same on every node with
    /// the filters and scores that read only the node: same scheduler, `nodeName`, node
    /// selector, affinity, tolerations and images.
    fn same_node_inputs(&self, _other: &PodEntry) -> bool {
        false
    }

    /// Among the filters that read only the node (`node_only`) or the others, the first
    /// whose position among the profile's filters is below `before` and that does not pass
    /// `node`: that position and the verdict's code.
    fn first_failure_at(
        &self,
        _snapshot: &Snapshot<'_>,
        _node: usize,
        _node_only: bool,
        _before: usize,
    ) -> Option<(usize, Code)> {
        None
    }

    /// True when the score at `index` of [`Cycle::node_local_scores`] reads only the node
    /// and the pod's node inputs.
    fn node_only_score(&self, _index: usize) -> bool {
        false
    }

    /// Each score's normalised scores over the feasible nodes, with its name and weight;
    /// an empty list when the plugin skips this pod.
    fn score(&self, snapshot: &Snapshot<'_>, feasible: &[usize]) -> Vec<(String, i64, Vec<i64>)>;

    /// The error scoring `feasible` nodes (two or more) fails with whatever the nodes, which
    /// ends the pod's attempt without preemption: 1.34's PreScore plugins', 1.11's
    /// priorities' on each node. `None` when scoring goes through.
    fn score_error(&self, _snapshot: &Snapshot<'_>, _feasible: usize) -> Option<String> {
        None
    }

    /// Reserves what the pod takes on its node beyond the node's own totals (volume
    /// binding's assumed volumes); called once the pod is placed there.
    fn reserve(&self, _snapshot: &mut Snapshot<'_>, _node: usize) {}

    /// True when nothing the cycle prepared depends on the other pods (no spreading,
    /// inter-pod affinity or claim-sharing state), so that it stays valid while pods are
    /// taken off nodes and put back: preemption's dry runs then reuse it instead of
    /// preparing a cycle per check.
    fn independent_of_other_pods(&self) -> bool {
        false
    }

    /// True when what the cycle decides on a node depends on nothing of the pod but its
    /// spec, and on nothing but that node: no plugin reads its labels or owners (no
    /// spreading, no inter-pod affinity either way, no claims). The equivalence cache then
    /// lets pods of different templates with the same spec share per-node results.
    fn reads_only_its_spec(&self, _snapshot: &Snapshot<'_>) -> bool {
        false
    }

    /// Every score in profile order as a value per node and the rule that turns the
    /// values of the scored nodes into scores, when each score depends on the pod and the
    /// node alone; `None` when one needs the other pods (spreading, inter-pod affinity).
    fn node_local_scores(&self, _snapshot: &Snapshot<'_>) -> Option<Vec<NodeLocalScore>> {
        None
    }

    /// The value of the score at `index` of [`Cycle::node_local_scores`] on `node`.
    fn node_local_value(&self, _snapshot: &Snapshot<'_>, _node: usize, _index: usize) -> i64 {
        0
    }

    /// Brings what the cycle prepared up to date with one change of the pods on a node,
    /// as upstream's `AddPod`/`RemovePod` PreFilter extensions do, and says which nodes'
    /// verdicts and node-local scores it may have moved; `None` when the cycle cannot
    /// follow the change and must be prepared again.
    fn follow(&mut self, _snapshot: &Snapshot<'_>, _change: snapshot::Change) -> Option<Reach> {
        None
    }
}

/// The nodes whose verdicts or scores a change of the pods on one node may move, beyond
/// that node itself (whose pods changed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// Topology keys whose domain around the changed node moved: every node with the
    /// changed node's value of one of these labels.
    pub domains: Vec<String>,
    /// Every node: a count the filters compare across domains moved.
    pub everywhere: bool,
}

impl Reach {
    /// The domains of these keys (each once), and every node if `everywhere`.
    #[must_use]
    pub fn of<'k>(keys: impl IntoIterator<Item = &'k str>, everywhere: bool) -> Self {
        let mut reach = Self {
            domains: Vec::new(),
            everywhere,
        };
        for key in keys {
            if !reach.domains.iter().any(|known| known == key) {
                reach.domains.push(key.into());
            }
        }
        reach
    }

    /// Adds another reach to this one.
    pub fn extend(&mut self, other: Self) {
        for key in other.domains {
            if !self.domains.contains(&key) {
                self.domains.push(key);
            }
        }
        self.everywhere |= other.everywhere;
    }
}

/// How the values of a node-local score over the scored nodes become its scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// The plugin skips the pod (PreScore `Skip`): no scores.
    Skip,
    /// A node's value is its score.
    Identity,
    /// Scaled to `0..=max` by the highest value among the scored nodes, reversed or not
    /// (`DefaultNormalizeScore`; 1.11 `NormalizeReduce`).
    Normalize {
        /// The highest score.
        max: i64,
        /// `max - s` instead of `s`.
        reverse: bool,
    },
    /// Scaled to `0..=max` between the lowest and the highest value among the scored
    /// nodes (InterPodAffinity's `NormalizeScore`).
    MinMax {
        /// The highest score.
        max: i64,
        /// The bounds start at 0 (1.11), not at the first value (1.34).
        from_zero: bool,
    },
}

/// A score whose value on a node depends on the pod and that node alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeLocalScore {
    /// The plugin or priority name.
    pub name: String,
    /// Its weight.
    pub weight: i64,
    /// How its values become scores.
    pub reduce: Reduce,
}

/// A scheduler profile.
pub trait Profile {
    /// The release it reproduces.
    fn version(&self) -> Version;

    /// Its configuration, for the report.
    fn configuration(&self) -> ProfileConfiguration;

    /// True if pods with this `schedulerName` are its.
    fn serves(&self, scheduler_name: &str) -> bool;

    /// 1.11 `alwaysCheckAllPredicates`: record every failing predicate's reasons instead of
    /// the first one's.
    fn check_all(&self) -> bool {
        false
    }

    /// True if preemption runs when nothing fits.
    fn preemption(&self) -> bool;

    /// The share of nodes the 1.34 scheduler looks at (`percentageOfNodesToScore`).
    fn percentage_of_nodes_to_score(&self) -> Option<i32> {
        None
    }

    /// 1.34: the text of the PostFilter plugins that run before DefaultPreemption and
    /// fail for pods without resource claims (DynamicResources: `no new claims to
    /// deallocate`).
    fn post_filter_prefix(&self) -> Option<&'static str> {
        None
    }

    /// 1.34: true if the SchedulingGates PreEnqueue plugin keeps pods with
    /// `spec.schedulingGates` out of the queue. 1.11 has no such field (its API server
    /// drops it), so it schedules them as any other pod.
    fn holds_gated_pods(&self) -> bool {
        false
    }

    /// Starts a pod's cycle (PreFilter).
    fn prepare<'a>(&'a self, snapshot: &Snapshot<'a>, pod: usize) -> Prepared<'a>;

    /// Starts a pod's cycle for the first pass on a node with pods nominated there:
    /// `nominated` are bound to that node in `snapshot`, standing for the pods upstream
    /// adds to a copy of the node and the cycle's state. 1.34's `AddPod` extensions count
    /// them as any placed pod, which is what preparing again amounts to.
    fn prepare_with_nominated<'a>(
        &'a self,
        snapshot: &Snapshot<'a>,
        pod: usize,
        _nominated: &[usize],
    ) -> Prepared<'a> {
        self.prepare(snapshot, pod)
    }
}

/// Places every pending pod of the cluster and reports each decision.
#[must_use]
pub fn run(cluster: &Cluster, options: &ScheduleOptions) -> Scheduling {
    run_sharing_images(cluster, options, None)
}

/// [`run`], with the nodes' image table when the caller keeps one for exactly these nodes
/// (the disruption timeline's rounds, whose nodes' images never change).
pub(crate) fn run_sharing_images(
    cluster: &Cluster,
    options: &ScheduleOptions,
    images: Option<Rc<ImageTable>>,
) -> Scheduling {
    let version = cluster.version;
    let preemption = !options.disable_preemption;
    let (profiles, source): (Vec<Box<dyn Profile>>, String) = match version {
        Version::Current => match &cluster.scheduler_configuration {
            Some(configuration) => (
                configuration::framework_profiles(configuration, preemption)
                    .into_iter()
                    .map(|profile| Box::new(profile) as Box<dyn Profile>)
                    .collect(),
                configuration::source(configuration),
            ),
            None => (
                alloc::vec![
                    Box::new(framework::FrameworkProfile::default_profile(preemption))
                        as Box<dyn Profile>
                ],
                String::from("default"),
            ),
        },
        Version::Legacy => match &cluster.policy {
            Some(policy) => (
                alloc::vec![
                    Box::new(legacy::LegacyProfile::from_policy(policy, preemption))
                        as Box<dyn Profile>
                ],
                String::from("Policy"),
            ),
            None => (
                alloc::vec![Box::new(legacy::LegacyProfile::from_policy(
                    &legacy::openshift_default_policy(),
                    preemption
                )) as Box<dyn Profile>],
                String::from("default (/etc/origin/master/scheduler.json of OpenShift 3.11)"),
            ),
        },
    };
    schedule_all(cluster, &profiles, version, source, options, images)
}

/// The driver: queue order, one cycle per pod, binding as it goes.
fn schedule_all(
    cluster: &Cluster,
    profiles: &[Box<dyn Profile>],
    version: Version,
    source: String,
    options: &ScheduleOptions,
    images: Option<Rc<ImageTable>>,
) -> Scheduling {
    let mut snapshot = Snapshot::new(cluster, version.accounting());
    if let Some(images) = images {
        snapshot.share_image_table(images);
    }
    // Only the pods a scheduler's queue holds are in its nominator: a pod for another
    // scheduler never reaches the queue (`responsibleForPod` in the informer's filter), and
    // 1.34 parks a gated pod before nominating it (`moveToActiveQ` in
    // `scheduling_queue.go`), so their nominations hold no room.
    snapshot.nominated.retain(|&pod| {
        cluster.pods.get(pod).is_some_and(|entry| {
            profiles
                .iter()
                .find(|profile| profile.serves(&entry.pod.spec.scheduler_name))
                .is_some_and(|profile| {
                    entry.pod.spec.scheduling_gates.is_empty() || !profile.holds_gated_pods()
                })
        })
    });
    let mut driver = Driver {
        selector: select::HostSelector::new(version, options.seed),
        sampling: (!options.skip_sampled).then(select::Sampling::default),
        equivalence: equivalence::EquivalenceCache::default(),
        preemption: preemption::DryRuns::default(),
    };
    let mut verdict_budget = options
        .max_node_verdicts
        .unwrap_or(DEFAULT_MAX_NODE_VERDICTS);
    // Per placement: the pod, and how many pods were bound and evicted and how many
    // nominations cleared before its attempt.
    let mut placements = Vec::new();
    let mut attempts: Vec<(usize, usize, usize, usize)> = Vec::new();
    let (mut bound, mut evicted) = (0, 0);
    // Counts the pods a placement bound and the preemptions that evicted pods.
    let count = |placement: &Placement, bound: &mut usize, evicted: &mut usize| {
        *bound += usize::from(placement.node.is_some());
        let victims = placement.preemption.as_ref().map_or(0, |p| p.victims.len());
        *evicted += usize::from(victims > 0 && placement.outcome == Outcome::Nominated);
    };
    for pod in queue::order(cluster) {
        let tried = attempt(
            cluster,
            profiles,
            &mut snapshot,
            &mut driver,
            &mut verdict_budget,
            pod,
        );
        if let Some(placement) = tried {
            attempts.push((pod, bound, evicted, snapshot.nominations_cleared()));
            count(&placement, &mut bound, &mut evicted);
            placements.push(placement);
        }
    }
    // A pod nothing fitted waits in the unschedulable queue until a change may help it:
    // an evicted pod's room (any rejection), or a bound pod that its required pod
    // affinity or (1.34) hard spreading may count (1.11 `AssignedPodAdded` moves pods
    // whose affinity terms match the pod; 1.34's queueing hints of InterPodAffinity and
    // PodTopologySpread). kubefit tries such pods again once the queue is through, in
    // queue order, while a try places one. When hints help no more, upstream still tries
    // every pod left waiting: 1.34 moves pods unschedulable for five minutes back
    // (`flushUnschedulablePodsLeftover` in `scheduling_queue.go`), 1.11 moves them all
    // back on every node update (`updateNodeInCache` in `factory.go`; kubelets post their
    // status every 10 s). So each pod's last attempt sees the cluster as it ends: kubefit
    // then tries once more every pod whose cluster changed since its last attempt (which
    // also lets in a pod another pod's nomination kept out, once that pod is placed),
    // and goes back to the hints if that places one. Each attempt's account replaces the
    // one before, as each attempt's FailedScheduling event does.
    let mut flushing = false;
    loop {
        let mut placed = false;
        for (position, attempt_at) in attempts.iter_mut().enumerate() {
            let (pod, bound_before, evicted_before, cleared_before) = *attempt_at;
            let Some(last) = placements.get_mut(position) else {
                continue;
            };
            let cleared = snapshot.nominations_cleared();
            // A cleared nomination frees room as an eviction does.
            let changed =
                evicted > evicted_before || bound > bound_before || cleared > cleared_before;
            let hinted = evicted > evicted_before
                || (bound > bound_before
                    && cluster
                        .pods
                        .get(pod)
                        .is_some_and(|entry| waits_for_binds(&entry.pod, version)));
            let retry = if flushing { changed } else { hinted };
            if last.outcome != Outcome::Unschedulable || !retry {
                continue;
            }
            *attempt_at = (pod, bound, evicted, cleared);
            // The new attempt's node verdicts stand for the last one's.
            if !last.nodes_omitted {
                verdict_budget = verdict_budget.saturating_add(last.nodes.0.len());
            }
            let first = last.first_attempt.clone().or_else(|| last.message.clone());
            let tried = attempt(
                cluster,
                profiles,
                &mut snapshot,
                &mut driver,
                &mut verdict_budget,
                pod,
            );
            let Some(mut retried) = tried else {
                continue;
            };
            if retried.outcome != Outcome::Unschedulable {
                count(&retried, &mut bound, &mut evicted);
                placed = true;
            }
            retried.first_attempt = first.filter(|first| retried.message.as_ref() != Some(first));
            *last = retried;
        }
        if placed {
            flushing = false;
        } else if flushing {
            break;
        } else {
            flushing = true;
        }
    }
    Scheduling {
        profile: version.profile_name().into(),
        configuration: Configuration {
            source,
            profiles: profiles
                .iter()
                .map(|profile| profile.configuration())
                .collect(),
        },
        pods: placements,
    }
}

/// One scheduling attempt of the pod at `pod` in the cluster's pods: its placement, or
/// `None` for an index the cluster lacks. Spends the verdict budget on the nodes it
/// records.
fn attempt<'p>(
    cluster: &Cluster,
    profiles: &'p [Box<dyn Profile>],
    snapshot: &mut Snapshot<'p>,
    driver: &mut Driver<'p>,
    verdict_budget: &mut usize,
    pod: usize,
) -> Option<Placement> {
    let entry = cluster.pods.get(pod)?;
    let id = alloc::format!(
        "{}/{}",
        entry.pod.metadata.namespace,
        entry.pod.metadata.name
    );
    let mut placement = Placement {
        pod: id,
        priority: entry.priority,
        outcome: Outcome::Rejected,
        node: None,
        message: None,
        scheduling_gates: Vec::new(),
        nominated_node: None,
        preemption: None,
        sampled: None,
        tied_nodes: Vec::new(),
        nodes: NodeVerdicts::default(),
        nodes_omitted: false,
        first_attempt: None,
    };
    if entry.state == PodState::Rejected {
        placement.message = entry.rejection.clone();
        return Some(placement);
    }
    let Some(profile) = profiles
        .iter()
        .find(|profile| profile.serves(&entry.pod.spec.scheduler_name))
    else {
        placement.outcome = Outcome::NotHandled;
        placement.message = Some(alloc::format!(
            "no scheduler profile serves schedulerName `{}`; the pod stays Pending",
            entry.pod.spec.scheduler_name
        ));
        return Some(placement);
    };
    let gates = &entry.pod.spec.scheduling_gates;
    if !gates.is_empty() && profile.holds_gated_pods() {
        // The condition the API server sets on a pod created with gates
        // (`pkg/registry/core/pod/strategy.go`); the PreEnqueue rejection itself is only
        // logged.
        placement.outcome = Outcome::Gated;
        placement.message = Some("Scheduling is blocked due to non-empty scheduling gates".into());
        placement.scheduling_gates = gates.iter().map(|gate| gate.name.clone()).collect();
        return Some(placement);
    }
    if entry.pod.metadata.deletion_timestamp.is_some() {
        // The scheduler takes a pod being deleted from the queue and only records this
        // event (1.34 `skipPodSchedule` in `schedule_one.go`, 1.11 `scheduleOne` in
        // `scheduler.go`).
        placement.outcome = Outcome::Skipped;
        placement.message = Some(alloc::format!(
            "skip schedule deleting pod: {}",
            placement.pod
        ));
        return Some(placement);
    }
    // Every node's verdict while the budget lasts; after it, only the chosen (or
    // nominated) node's, and the per-node work skips building the rest.
    let record = snapshot.nodes.len() <= *verdict_budget;
    schedule_one(
        profile.as_ref(),
        snapshot,
        pod,
        record,
        driver,
        &mut placement,
    );
    let nominated_by_preemption =
        placement.outcome == Outcome::Nominated && placement.node.is_none();
    if let Some(node) = placement
        .nominated_node
        .as_deref()
        .filter(|_| nominated_by_preemption)
    {
        if preemption::comes_back(profile.as_ref(), snapshot, pod, node) {
            let mut next = placement.clone();
            schedule_one(profile.as_ref(), snapshot, pod, false, driver, &mut next);
            placement.node = next.node;
        }
    }
    // What a cycle leaves in `message` is the FailedScheduling event's text.
    if profile.version() == Version::Current {
        placement.message = placement.message.take().map(message::event_note);
    }
    if record {
        *verdict_budget -= placement.nodes.0.len();
    } else {
        placement.nodes_omitted = true;
    }
    Some(placement)
}

/// Whether binding other pods may let a pod in that fitted nowhere: it has required pod
/// affinity terms, or (1.34) spreading constraints that filter.
fn waits_for_binds(pod: &crate::model::Pod, version: Version) -> bool {
    let affinity = pod.spec.affinity.as_ref();
    let required_affinity = affinity
        .and_then(|affinity| affinity.pod_affinity.as_ref())
        .is_some_and(|terms| {
            !terms
                .required_during_scheduling_ignored_during_execution
                .is_empty()
        });
    let hard_spread = version == Version::Current
        && pod
            .spec
            .topology_spread_constraints
            .iter()
            .any(|constraint| constraint.when_unsatisfiable == "DoNotSchedule");
    required_affinity || hard_spread
}

/// What placement carries from one pod to the next: the tie-break state, the sampling
/// rotation (`None` when the comparison is left out), the equivalence cache and the last
/// preemptor's dry runs.
struct Driver<'p> {
    selector: select::HostSelector,
    sampling: Option<select::Sampling>,
    equivalence: equivalence::EquivalenceCache<'p>,
    preemption: preemption::DryRuns,
}

/// One pod: filter every node, score, select, bind (or explain and preempt).
fn schedule_one<'p>(
    profile: &'p dyn Profile,
    snapshot: &mut Snapshot<'p>,
    pod: usize,
    record: bool,
    driver: &mut Driver<'p>,
    placement: &mut Placement,
) {
    let version = profile.version();
    let node_count = snapshot.nodes.len();
    let nominated = nominated_pods(snapshot, pod);
    // A pod nominated to a node of its own goes through the full evaluation (1.34 tries
    // that node first).
    let own_nomination = snapshot.nomination(pod);
    // Without verdicts to record and with no nominated pods to account for, the
    // equivalence cache answers when it can: where the pod goes, or why it fits nowhere
    // (then preemption runs as after the full evaluation). When it cannot, it hands over
    // the pod's PreFilter.
    let prepared = if !record && nominated.is_empty() && own_nomination.is_none() && node_count > 0
    {
        match driver.equivalence.update(profile, snapshot, pod) {
            equivalence::Lookup::Cached(cached) if cached.feasible() == 0 => {
                let nominated = unschedulable(
                    profile,
                    snapshot,
                    pod,
                    cached.codes(),
                    &mut cached.reason_counts(),
                    &mut driver.preemption,
                    true,
                    placement,
                );
                let verdict = |node: usize| {
                    let name = snapshot.nodes.get(node)?.name();
                    let verdict = NodeVerdict {
                        reasons: cached.reasons(node).to_vec(),
                        ..NodeVerdict::default()
                    };
                    Some((String::from(name), verdict))
                };
                placement.nodes = NodeVerdicts(nominated.and_then(verdict).into_iter().collect());
                return;
            }
            equivalence::Lookup::Cached(cached) => {
                place_cached(
                    profile,
                    snapshot,
                    pod,
                    &cached,
                    &mut driver.selector,
                    driver.sampling.as_mut(),
                    placement,
                );
                return;
            }
            equivalence::Lookup::Full(prepared) => prepared,
        }
    } else {
        profile.prepare(snapshot, pod)
    };
    // 1.11 checks the pod's claims before it lists nodes; 1.34 lists nodes first.
    let failed_basic_checks = version == Version::Legacy && matches!(prepared, Prepared::Error(_));
    if node_count == 0 && !failed_basic_checks {
        placement.outcome = Outcome::Unschedulable;
        placement.message = Some("no nodes available to schedule pods".into());
        return;
    }
    let (cycle, only) = match prepared {
        Prepared::Error(error) => {
            placement.outcome = Outcome::Unschedulable;
            placement.message = Some(error);
            return;
        }
        Prepared::Rejected(status) => {
            reject_everywhere(
                profile,
                snapshot,
                pod,
                &status,
                placement,
                &mut driver.preemption,
            );
            return;
        }
        Prepared::Filter { cycle, only } => (cycle, only),
    };
    // Filter every node, recording every filter's verdict; the node's reasons are the
    // ones upstream records: the first failing filter's (or every failing one's with
    // alwaysCheckAllPredicates). Without `record`, only the reasons are kept (the
    // message counts them).
    let mut feasible = Vec::new();
    let mut verdicts: Vec<NodeVerdict> = Vec::with_capacity(node_count);
    let mut codes: Vec<Code> = Vec::with_capacity(node_count);
    // Filter errors in node order: `(filter, message)`.
    let mut errors: Vec<(String, String)> = Vec::new();
    for node in 0..node_count {
        let excluded = only.as_ref().and_then(|(allowed, plugins)| {
            (!allowed.get(node).copied().unwrap_or(false)).then_some(plugins)
        });
        let mut verdict = NodeVerdict::default();
        let code = if let Some(plugins) = excluded {
            verdict.reasons.push(alloc::format!(
                "node(s) didn't satisfy plugin(s) [{}]",
                plugins.join(" ")
            ));
            Code::UnschedulableAndUnresolvable
        } else {
            let results = match nominated.get(&node) {
                Some(others) => {
                    filter_with_nominated(profile, &*cycle, snapshot, pod, node, others)
                }
                None => cycle.filter(snapshot, node),
            };
            let (code, error) = node_verdict(profile, results, record, &mut verdict);
            errors.extend(error);
            code
        };
        if code == Code::Success {
            feasible.push(node);
        }
        codes.push(code);
        verdicts.push(verdict);
    }
    if !errors.is_empty() {
        placement.outcome = Outcome::Unschedulable;
        placement.message = Some(error_message(version, &errors));
        placement.nodes = keep_verdicts(snapshot, verdicts, record, None);
        return;
    }
    // 1.34 tries a pod's own nominated node first and takes it if it fits, without
    // scoring (`evaluateNominatedNode` in `schedule_one.go`); 1.11 has no such shortcut.
    let nominated_first = own_nomination
        .filter(|_| version == Version::Current)
        .and_then(|name| {
            feasible.iter().copied().find(|&node| {
                snapshot
                    .nodes
                    .get(node)
                    .is_some_and(|info| info.name() == name)
            })
        });
    let chosen = match nominated_first {
        Some(node) => Some(node),
        None => {
            // A single feasible node is taken without scoring (`choose`).
            let scored = feasible.len() > 1;
            if let Some(error) = scored
                .then(|| cycle.score_error(snapshot, feasible.len()))
                .flatten()
            {
                placement.outcome = Outcome::Unschedulable;
                placement.message = Some(error);
                placement.nodes = keep_verdicts(snapshot, verdicts, record, None);
                return;
            }
            let choice = choose(
                &mut driver.selector,
                snapshot,
                &feasible,
                &|nodes| cycle.score(snapshot, nodes),
                record,
                &mut |node, scores, total| {
                    if let Some(verdict) = verdicts.get_mut(node) {
                        verdict.scores = Some(scores);
                        verdict.total = Some(total);
                    }
                },
            );
            placement.sampled = sampled(
                profile,
                driver.sampling.as_mut(),
                snapshot,
                &|node| codes.get(node) == Some(&Code::Success),
                &|nodes| totals(&cycle.score(snapshot, nodes), nodes.len()),
                choice.node,
                &|node| choice.tied_at_top(&feasible, node),
            );
            // The report names the tied nodes only while it keeps verdicts: with coarse
            // 1.11 scores thousands of identical nodes tie for every pod.
            if record && choice.tied > 1 {
                let node = |position: usize| feasible.get(position).copied().unwrap_or(usize::MAX);
                let rank = |position: usize| snapshot.name_rank(node(position));
                placement.tied_nodes = driver
                    .selector
                    .tied(&choice.totals, choice.best, &rank)
                    .into_iter()
                    .filter_map(|position| snapshot.nodes.get(node(position)))
                    .map(|info| String::from(info.name()))
                    .collect();
            }
            choice.node
        }
    };
    if let Some(node) = chosen {
        placement.outcome = Outcome::Scheduled;
        placement.node = snapshot.nodes.get(node).map(|info| info.name().into());
        placement.nodes = keep_verdicts(snapshot, verdicts, record, Some(node));
        snapshot.bind(pod, node);
        cycle.reserve(snapshot, node);
        return;
    }
    let mut reasons = verdicts
        .iter()
        .flat_map(|verdict| verdict.reasons.iter().map(|reason| (reason.as_str(), 1)));
    let nominated = unschedulable(
        profile,
        snapshot,
        pod,
        &codes,
        &mut reasons,
        &mut driver.preemption,
        !record,
        placement,
    );
    placement.nodes = keep_verdicts(snapshot, verdicts, record, nominated);
}

/// Reduces a node's filter results to what upstream records: the first failing filter's
/// reasons (every failing one's with alwaysCheckAllPredicates), or the first error's
/// text, into `verdict` (with every filter's own verdict when `record`); gives the node's
/// code and the error as `(filter, text)`.
fn node_verdict(
    profile: &dyn Profile,
    results: Vec<(Cow<'static, str>, Status)>,
    record: bool,
    verdict: &mut NodeVerdict,
) -> (Code, Option<(String, String)>) {
    let mut code = Code::Success;
    let mut error = None;
    if record {
        verdict.predicates.reserve_exact(results.len());
    }
    for (filter, status) in results {
        // An error ends the node's evaluation, even after failures with
        // alwaysCheckAllPredicates, and then the pod's scheduling attempt.
        if status.code == Code::Error
            && code != Code::Error
            && (code == Code::Success || profile.check_all())
        {
            let text = status.reasons.first().cloned().unwrap_or_default();
            verdict.reasons = alloc::vec![text.clone()];
            error = Some((String::from(filter.as_ref()), text));
            code = Code::Error;
        } else if !status.passed()
            && code != Code::Error
            && (code == Code::Success || profile.check_all())
        {
            // Preemption skips a node if any recorded reason is one it cannot resolve
            // (1.11 `nodesWherePreemptionMightHelp`).
            if code != Code::UnschedulableAndUnresolvable {
                code = status.code;
            }
            if !record {
                verdict.reasons.extend(status.reasons);
                continue;
            }
            verdict.reasons.extend(status.reasons.iter().cloned());
        }
        if record {
            verdict.predicates.push(PredicateVerdict {
                name: filter,
                passed: status.passed(),
                reasons: status.reasons,
            });
        }
    }
    (code, error)
}

/// A pod no node fits: the FailedScheduling message from every node's reasons (each with
/// how many times it counts), then preemption; gives the node the pod was nominated to,
/// if any.
#[allow(clippy::too_many_arguments)]
fn unschedulable(
    profile: &dyn Profile,
    snapshot: &mut Snapshot<'_>,
    pod: usize,
    codes: &[Code],
    reasons: &mut dyn Iterator<Item = (&str, usize)>,
    dry_runs: &mut preemption::DryRuns,
    reuse_dry_runs: bool,
    placement: &mut Placement,
) -> Option<usize> {
    let node_count = snapshot.nodes.len();
    placement.outcome = Outcome::Unschedulable;
    let all = reasons;
    let fit_error = match profile.version() {
        Version::Legacy => message::legacy(node_count, all),
        Version::Current => message::framework(node_count, None, all, None),
    };
    placement.message = Some(fit_error);
    if profile.preemption() {
        preemption::preempt(
            profile,
            snapshot,
            pod,
            codes,
            placement,
            dry_runs,
            reuse_dry_runs,
        );
    } else {
        preemption::without_preemption(profile, placement);
    }
    placement
        .nominated_node
        .as_deref()
        .and_then(|name| snapshot.nodes.iter().position(|info| info.name() == name))
}

/// Places a pod by the equivalence cache's answer, as the full evaluation would have.
fn place_cached(
    profile: &dyn Profile,
    snapshot: &mut Snapshot<'_>,
    pod: usize,
    cached: &equivalence::Cached<'_, '_>,
    selector: &mut select::HostSelector,
    sampling: Option<&mut select::Sampling>,
    placement: &mut Placement,
) {
    let node_count = snapshot.nodes.len();
    // As `choose`: a single feasible node is taken without scoring.
    let (node, verdict, tied_at_top) = if cached.feasible() == 1 {
        let node = (0..node_count).find(|&node| cached.fits(node));
        (node.unwrap_or(0), NodeVerdict::default(), None)
    } else {
        let ranking = select::Ranking::Ordered(snapshot.name_order());
        let (best, tied) = cached.best();
        let selection = selector.select_best(cached.totals(), best, tied, ranking);
        let (scores, total) = cached.verdict(snapshot, selection.position);
        let verdict = NodeVerdict {
            scores: Some(scores),
            total: Some(total),
            ..NodeVerdict::default()
        };
        let tied = (selection.tied > 1).then_some(selection.best);
        (selection.position, verdict, tied)
    };
    placement.sampled = sampled(
        profile,
        sampling,
        snapshot,
        &|node| cached.fits(node),
        &|nodes| cached.totals_over(nodes),
        Some(node),
        &|other| tied_at_top.is_some() && cached.totals().get(other) == tied_at_top.as_ref(),
    );
    let name: String = snapshot
        .nodes
        .get(node)
        .map_or("", |info| info.name())
        .into();
    placement.outcome = Outcome::Scheduled;
    placement.node = Some(name.clone());
    placement.nodes = NodeVerdicts(alloc::vec![(name, verdict)]);
    snapshot.bind(pod, node);
    if let Some(cycle) = cached.cycle() {
        cycle.reserve(snapshot, node);
    }
}

/// Each score over some nodes, as [`Cycle::score`] gives it.
type Scorer<'s> = dyn Fn(&[usize]) -> Vec<(String, i64, Vec<i64>)> + 's;

/// The node [`choose`] picked, with the totals it compared.
struct Choice {
    node: Option<usize>,
    /// Each feasible node's total, in feasible order (empty when nothing was scored).
    totals: Vec<i64>,
    /// The best total.
    best: i64,
    /// How many feasible nodes have it.
    tied: usize,
}

impl Choice {
    /// True if `node` is one of several nodes tied at the best total.
    fn tied_at_top(&self, feasible: &[usize], node: usize) -> bool {
        self.tied > 1
            && feasible
                .binary_search(&node)
                .ok()
                .and_then(|position| self.totals.get(position))
                == Some(&self.best)
    }
}

/// Picks the node among the feasible ones: the only one without scoring, else the best
/// total with the profile's tie-break. Gives `scored` the chosen node's scores (every
/// scored node's with `record`).
fn choose(
    selector: &mut select::HostSelector,
    snapshot: &Snapshot<'_>,
    feasible: &[usize],
    scorer: &Scorer<'_>,
    record: bool,
    scored: &mut dyn FnMut(usize, ScoreMap, i64),
) -> Choice {
    let [first, _, ..] = feasible else {
        return Choice {
            node: feasible.first().copied(),
            totals: Vec::new(),
            best: 0,
            tied: 0,
        };
    };
    let scores = scorer(feasible);
    let totals = totals(&scores, feasible.len());
    let rank = |position: usize| {
        feasible
            .get(position)
            .map_or(usize::MAX, |&node| snapshot.name_rank(node))
    };
    let selection = selector.select(&totals, select::Ranking::Of(&rank));
    for (position, &node) in feasible.iter().enumerate() {
        if record || position == selection.position {
            // A plugin that skipped (PreScore `Skip`) gives no scores and is not listed.
            let map = scores
                .iter()
                .filter(|(_, _, values)| !values.is_empty())
                .map(|(name, _, values)| (name.clone(), values.get(position).copied().unwrap_or(0)))
                .collect();
            scored(
                node,
                ScoreMap(map),
                totals.get(position).copied().unwrap_or(0),
            );
        }
    }
    Choice {
        node: Some(feasible.get(selection.position).copied().unwrap_or(*first)),
        totals,
        best: selection.best,
        tied: selection.tied,
    }
}

/// Each scored node's weighted total. Nothing configured to score: every node gets 1
/// (EqualPriority in 1.11, `prioritizeNodes` in the framework); a plugin that skipped adds
/// nothing.
fn totals(scores: &[(String, i64, Vec<i64>)], count: usize) -> Vec<i64> {
    if scores.is_empty() {
        return alloc::vec![1; count];
    }
    let mut totals = alloc::vec![0i64; count];
    for (_, weight, values) in scores {
        for (total, value) in totals.iter_mut().zip(values) {
            *total = total.saturating_add(crate::math::saturating_mul(*value, *weight));
        }
    }
    totals
}

/// 1.34 only: what the sampling scheduler would choose, when it would choose otherwise
/// than the exact all-nodes evaluation (`findNodesThatPassFilters` stops after
/// `numFeasibleNodesToFind`; among the sampled nodes the first best total wins here).
fn sampled(
    profile: &dyn Profile,
    sampling: Option<&mut select::Sampling>,
    snapshot: &Snapshot<'_>,
    fits: &dyn Fn(usize) -> bool,
    totals_of: &dyn Fn(&[usize]) -> Vec<i64>,
    chosen: Option<usize>,
    tied_at_top: &dyn Fn(usize) -> bool,
) -> Option<Sampled> {
    if profile.version() != Version::Current {
        return None;
    }
    let sampling = sampling?;
    let node_count = snapshot.nodes.len();
    let (found, examined) = sampling.sample(
        profile.percentage_of_nodes_to_score(),
        snapshot.tree_order(),
        fits,
    )?;
    let sampled_choice = match found.as_slice() {
        [] => None,
        [one] => Some(*one),
        _ => {
            let totals = totals_of(&found);
            let best = totals.iter().copied().max().unwrap_or(0);
            totals
                .iter()
                .position(|&total| total == best)
                .and_then(|position| found.get(position).copied())
        }
    };
    let differs = match (sampled_choice, chosen) {
        (Some(sampled), Some(exact)) => sampled != exact && !tied_at_top(sampled),
        (sampled, exact) => sampled.is_some() != exact.is_some(),
    };
    differs.then(|| Sampled {
        nodes_to_find: select::feasible_nodes_to_find(
            profile.percentage_of_nodes_to_score(),
            node_count,
        ),
        examined,
        node: sampled_choice
            .and_then(|node| snapshot.nodes.get(node))
            .map(|info| info.name().into()),
    })
}

/// Names the verdicts the report keeps: all of them when recording, else only `node`'s
/// (whose predicate list was not built: it holds the reasons and scores).
fn keep_verdicts(
    snapshot: &Snapshot<'_>,
    verdicts: Vec<NodeVerdict>,
    record: bool,
    node: Option<usize>,
) -> NodeVerdicts {
    let name = |index: usize| {
        snapshot
            .nodes
            .get(index)
            .map_or_else(String::new, |info| info.name().into())
    };
    NodeVerdicts(
        verdicts
            .into_iter()
            .enumerate()
            .filter(|(index, _)| record || Some(*index) == node)
            .map(|(index, verdict)| (name(index), verdict))
            .collect(),
    )
}

/// Pending pods nominated to a node (`status.nominatedNodeName`) that the scheduler must
/// assume are there when it places `pod`: those of at least its priority, other than
/// itself, not placed yet. Keyed by node.
///
/// Follows `addNominatedPods` in 1.11 `generic_scheduler.go` and 1.34 `framework/runtime`.
fn nominated_pods(snapshot: &Snapshot<'_>, pod: usize) -> BTreeMap<usize, Vec<usize>> {
    let mut nominated: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let priority = snapshot.pod(pod).map_or(0, |entry| entry.priority);
    let waiting = snapshot.nominated.iter().filter_map(|&other| {
        let entry = snapshot.pod(other)?;
        let unplaced = snapshot.assigned.get(other).is_some_and(Option::is_none);
        (other != pod && entry.priority >= priority && unplaced).then_some((other, entry))
    });
    for (other, entry) in waiting {
        let name = entry.pod.status.nominated_node_name.as_str();
        if let Some(node) = snapshot.nodes.iter().position(|info| info.name() == name) {
            nominated.entry(node).or_default().push(other);
        }
    }
    nominated
}

/// Filters a node that has pods nominated to it in upstream's two passes: first as if the
/// nominated pods ran there (the cycle is prepared again with them bound, as
/// [`Profile::prepare_with_nominated`] says), then, if that passes, without them, so
/// that neither their resources nor their absence (anti-affinity) let the pod in wrongly.
/// The verdict is the failing pass's, or the second's.
///
/// Follows `podFitsOnNode` in 1.11 `generic_scheduler.go` and
/// `RunFilterPluginsWithNominatedPods` in 1.34 `framework/runtime/framework.go`.
fn filter_with_nominated(
    profile: &dyn Profile,
    cycle: &dyn Cycle,
    snapshot: &mut Snapshot<'_>,
    pod: usize,
    node: usize,
    others: &[usize],
) -> Vec<(Cow<'static, str>, Status)> {
    for &other in others {
        snapshot.bind(other, node);
    }
    snapshot.nominated_added = others.to_vec();
    let with_nominated = match profile.prepare_with_nominated(snapshot, pod, others) {
        Prepared::Filter { cycle: with, .. } => Some(
            with.filter(snapshot, node)
                .into_iter()
                .map(|(filter, status)| match cycle.skips_filter(&filter) {
                    true => (filter, Status::success()),
                    false => (filter, status),
                })
                .collect::<Vec<_>>(),
        ),
        Prepared::Rejected(_) | Prepared::Error(_) => None,
    };
    snapshot.nominated_added.clear();
    for &other in others {
        snapshot.unbind(other);
    }
    match with_nominated {
        Some(results) if results.iter().any(|(_, status)| !status.passed()) => results,
        _ => cycle.filter(snapshot, node),
    }
}

/// The event text when filters failed with errors: 1.11 aggregates every node's error as
/// `msg (repeated N times)`, joined `[a, b]` when they differ
/// (`CreateAggregateFromMessageCountMap`; upstream's order is map order, kubefit's the
/// order the errors first appear); 1.34 stops at the first, wrapped
/// `running "<plugin>" filter plugin: <error>`.
fn error_message(version: Version, errors: &[(String, String)]) -> String {
    match version {
        Version::Current => errors
            .first()
            .map(|(filter, error)| alloc::format!("running {filter:?} filter plugin: {error}"))
            .unwrap_or_default(),
        Version::Legacy => {
            let mut counted: Vec<(&str, usize)> = Vec::new();
            for (_, error) in errors {
                match counted.iter_mut().find(|(seen, _)| seen == error) {
                    Some((_, count)) => *count += 1,
                    None => counted.push((error, 1)),
                }
            }
            let entries: Vec<String> = counted
                .iter()
                .map(|(error, count)| match count {
                    1 => String::from(*error),
                    _ => alloc::format!("{error} (repeated {count} times)"),
                })
                .collect();
            match entries.as_slice() {
                [one] => one.clone(),
                _ => alloc::format!("[{}]", entries.join(", ")),
            }
        }
    }
}

/// A 1.34 PreFilter rejected the pod on every node: `0/N nodes are available: <message>.`,
/// then the PostFilter plugins. DynamicResources reads the state its PreFilter writes; when
/// an unresolvable rejection stopped the PreFilters before it, that read fails with
/// `not found`, an error that ends the PostFilter chain (so nothing is preempted).
/// Otherwise preemption runs with every node rejected by that status.
fn reject_everywhere(
    profile: &dyn Profile,
    snapshot: &mut Snapshot<'_>,
    pod: usize,
    status: &Status,
    placement: &mut Placement,
    dry_runs: &mut preemption::DryRuns,
) {
    let node_count = snapshot.nodes.len();
    let text = status.reasons.join(", ");
    placement.outcome = Outcome::Unschedulable;
    placement.message = Some(message::framework(
        node_count,
        Some(&text),
        [] as [&str; 0],
        None,
    ));
    placement.nodes = NodeVerdicts(
        snapshot
            .nodes
            .iter()
            .map(|info| {
                let verdict = NodeVerdict {
                    reasons: status.reasons.clone(),
                    ..NodeVerdict::default()
                };
                (String::from(info.name()), verdict)
            })
            .collect(),
    );
    if profile.post_filter_prefix().is_some() && status.code == Code::UnschedulableAndUnresolvable {
        if let Some(message) = placement.message.as_mut() {
            message.push_str(" not found");
        }
        return;
    }
    if profile.preemption() {
        let codes = alloc::vec![status.code; node_count];
        preemption::preempt(profile, snapshot, pod, &codes, placement, dry_runs, false);
    } else {
        preemption::without_preemption(profile, placement);
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Runs the engine on YAML text, for the unit tests of plugins and predicates.

    use super::{run, ScheduleOptions, Version};
    use crate::report::scheduling::{Placement, Scheduling};
    use crate::{input, Limits, Source};

    /// Schedules the pending pods of `yaml` under a profile.
    pub fn schedule(yaml: &str, version: Version) -> Scheduling {
        let sources = [Source::new("test", yaml)];
        let loaded = input::load(&sources, &Limits::default());
        let cluster = crate::cluster::Cluster::build(loaded, &sources, Some(version));
        assert!(
            cluster.diagnostics.iter().all(|d| !d.is_error()),
            "{:?}",
            cluster.diagnostics
        );
        run(&cluster, &ScheduleOptions::default())
    }

    /// One score of every scored node of a placement, in node order.
    pub fn scores(
        placement: &Placement,
        name: &str,
    ) -> alloc::vec::Vec<(alloc::string::String, i64)> {
        placement
            .nodes
            .0
            .iter()
            .filter_map(|(node, verdict)| {
                let scores = verdict.scores.as_ref()?;
                let score = scores.0.iter().find(|(score, _)| score == name)?.1;
                Some((node.clone(), score))
            })
            .collect()
    }

    /// A node with allocatable cpu (millicores), memory (bytes) and 110 pods.
    /// A pod in `default` with one container, bound to `node` unless it is empty, whose
    /// volumes are `sources` (flow-style volume sources such as
    /// `persistentVolumeClaim: {claimName: data}`), named `v0`, `v1`, ….
    pub fn pod_with_volumes<S: AsRef<str>>(
        name: &str,
        node: &str,
        sources: &[S],
    ) -> alloc::string::String {
        let node_name = if node.is_empty() {
            alloc::string::String::new()
        } else {
            alloc::format!("  nodeName: '{node}'\n")
        };
        let volumes: alloc::string::String = sources
            .iter()
            .enumerate()
            .map(|(i, source)| alloc::format!("  - {{name: v{i}, {}}}\n", source.as_ref()))
            .collect();
        alloc::format!(
            "---\nkind: Pod\nmetadata: {{name: {name}, namespace: default, uid: {name}-uid}}\nspec:\n{node_name}  containers: [{{name: c, image: x}}]\n  volumes:\n{volumes}"
        )
    }

    /// The volume sources of claims, for [`pod_with_volumes`].
    pub fn claims(names: &[&str]) -> alloc::vec::Vec<alloc::string::String> {
        names
            .iter()
            .map(|name| alloc::format!("persistentVolumeClaim: {{claimName: {name}}}"))
            .collect()
    }

    pub fn node(name: &str, milli_cpu: i64, memory: i64, extra: &str) -> alloc::string::String {
        alloc::format!(
            "---\napiVersion: v1\nkind: Node\nmetadata: {{name: {name}, labels: {{kubernetes.io/hostname: {name}}}}}\n{extra}\nstatus:\n  allocatable: {{cpu: {milli_cpu}m, memory: \"{memory}\", pods: \"110\"}}\n"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{node, schedule};
    use super::Version;
    use alloc::string::String;

    /// Each placement's pod and node.
    fn placed(
        report: &crate::report::scheduling::Scheduling,
    ) -> alloc::vec::Vec<(&str, Option<&str>)> {
        report
            .pods
            .iter()
            .map(|placement| (placement.pod.as_str(), placement.node.as_deref()))
            .collect()
    }

    /// n1 is larger, so without nominations `first` would go there; `waiting` (same
    /// priority, queued later) is nominated to n1 and keeps its room.
    fn nominated_cluster(waiting_priority: i32) -> String {
        let mut yaml = node("n1", 2000, 4 << 30, "");
        yaml += &node("n2", 1500, 4 << 30, "");
        yaml += &alloc::format!(
            "---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {{name: waiting}}
value: {waiting_priority}
---
apiVersion: v1
kind: Pod
metadata: {{name: first, namespace: default, creationTimestamp: \"2026-01-01T00:00:00Z\"}}
spec:
  containers: [{{name: c, image: i, resources: {{requests: {{cpu: 1000m}}}}}}]
---
apiVersion: v1
kind: Pod
metadata: {{name: waiting, namespace: default, creationTimestamp: \"2026-01-01T00:00:01Z\"}}
spec:
  priorityClassName: waiting
  containers: [{{name: c, image: i, resources: {{requests: {{cpu: 1500m}}}}}}]
status:
  phase: Pending
  nominatedNodeName: n1
"
        );
        yaml
    }

    #[test]
    fn nominated_pods_of_equal_priority_hold_their_room() {
        for version in [Version::Legacy, Version::Current] {
            let report = schedule(&nominated_cluster(0), version);
            let nodes: alloc::vec::Vec<_> = placed(&report);
            assert_eq!(
                nodes,
                [
                    ("default/first", Some("n2")),
                    ("default/waiting", Some("n1"))
                ],
                "{version:?}"
            );
        }
    }

    #[test]
    fn nominated_pods_of_lower_priority_do_not() {
        for version in [Version::Legacy, Version::Current] {
            let report = schedule(&nominated_cluster(-1), version);
            let first = report.pods.first().and_then(|p| p.node.as_deref());
            assert_eq!(first, Some("n1"), "{version:?}");
        }
    }

    /// 1.34 takes a pod's own nominated node when it fits, without scoring; 1.11 scores.
    #[test]
    fn only_1_34_prefers_the_pods_own_nominated_node() {
        let mut yaml = node("big", 8000, 16 << 30, "");
        yaml += &node("small", 1000, 2 << 30, "");
        yaml += "---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers: [{name: c, image: i, resources: {requests: {cpu: 500m}}}]
status:
  phase: Pending
  nominatedNodeName: small
";
        let chosen = |version| {
            schedule(&yaml, version)
                .pods
                .first()
                .and_then(|placement| placement.node.clone())
        };
        assert_eq!(chosen(Version::Current).as_deref(), Some("small"));
        assert_eq!(chosen(Version::Legacy).as_deref(), Some("big"));
    }

    /// 1.34 adds the pods nominated to a node through the PreFilter extensions of the
    /// plugins that did not skip the pod: a nominated pod's anti-affinity does not count
    /// against a pod InterPodAffinity skipped (no terms, no placed pod's anti-affinity
    /// matches it). 1.11 has no skipping: `web` avoids the nominated node there.
    #[test]
    fn a_skipped_plugin_ignores_the_nominated_pods() {
        let mut yaml = node("n1", 8000, 16 << 30, "");
        yaml += &node("n2", 4000, 8 << 30, "");
        yaml += "---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: '1', memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: guard, namespace: default, labels: {app: guard}, creationTimestamp: '2024-01-01T00:01:00Z'}
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: web}}
        topologyKey: kubernetes.io/hostname
  containers: [{name: c, image: x}]
status: {nominatedNodeName: n1}
";
        let nodes = |version| {
            schedule(&yaml, version)
                .pods
                .iter()
                .map(|placement| placement.node.clone().unwrap_or_default())
                .collect::<alloc::vec::Vec<_>>()
        };
        assert_eq!(nodes(Version::Current), ["n1", "n2"]);
        assert_eq!(nodes(Version::Legacy), ["n2", "n1"]);
        // A pod on a node the input lacks leaves 1.11 without predicate metadata, through
        // which alone the nominated pod's anti-affinity counts.
        yaml += "---
apiVersion: v1
kind: Pod
metadata: {name: orphan, namespace: default}
spec:
  nodeName: gone
  containers: [{name: c, image: x}]
";
        let placed = schedule(&yaml, Version::Legacy);
        assert_eq!(placed.pods.len(), 2);
        assert_eq!(
            placed
                .pods
                .iter()
                .map(|placement| placement.node.as_deref())
                .collect::<alloc::vec::Vec<_>>(),
            [Some("n1"), Some("n2")]
        );
    }

    /// 1.11's `AddPod` counts a nominated pod for the incoming pod's own affinity terms
    /// only when it has a node name, which it never has: `first` takes n1 beside `waiting`
    /// there. 1.34's `AddPod` counts it as placed on the node.
    #[test]
    fn only_1_34_counts_a_nominated_pod_for_the_pods_own_anti_affinity() {
        let mut yaml = node("n1", 2000, 4 << 30, "");
        yaml += &node("n2", 2000, 4 << 30, "spec: {unschedulable: true}");
        yaml += "---
apiVersion: v1
kind: Pod
metadata: {name: first, namespace: default, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: w}}
        topologyKey: kubernetes.io/hostname
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Pod
metadata: {name: waiting, namespace: default, labels: {app: w}, creationTimestamp: '2024-01-01T00:01:00Z'}
spec:
  containers: [{name: c, image: x}]
status: {nominatedNodeName: n1}
";
        let first = |version| {
            let report = schedule(&yaml, version);
            report
                .pods
                .first()
                .and_then(|placement| placement.node.clone())
        };
        assert_eq!(first(Version::Legacy).as_deref(), Some("n1"));
        assert_eq!(first(Version::Current), None);
    }

    /// A pod bound to a node the input lacks stays in 1.11's scheduler cache: first among
    /// the pods CheckServiceAffinity reads, its node is not found; and the predicate
    /// metadata, missing for every pod, adds no nominated pod.
    #[test]
    fn a_pod_on_a_missing_node_ends_the_1_11_attempt() {
        let mut yaml =
            node("n1", 2000, 4 << 30, "").replace("hostname: n1}", "hostname: n1, region: r1}");
        yaml += "---
apiVersion: v1
kind: Service
metadata: {name: s, namespace: default}
spec: {selector: {app: w}, ports: [{port: 80}]}
---
apiVersion: v1
kind: Pod
metadata: {name: orphan, namespace: default, labels: {app: w}}
spec:
  nodeName: gone
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Pod
metadata: {name: first, namespace: default, labels: {app: w}}
spec:
  containers: [{name: c, image: x}]
";
        let report = schedule(&yaml, Version::Legacy);
        let first = report.pods.first();
        assert_eq!(
            first.and_then(|placement| placement.message.as_deref()),
            Some("node \"gone\" not found")
        );
    }

    /// 1.11's `AddPod` appends a nominated pod its service selects to the pods
    /// CheckServiceAffinity reads; when it comes first (no placed pod matches), looking up
    /// its empty node name fails and the attempt ends with that error.
    #[test]
    fn a_nominated_first_service_pod_ends_the_1_11_attempt() {
        let mut yaml =
            node("n1", 2000, 4 << 30, "").replace("hostname: n1}", "hostname: n1, region: r1}");
        yaml +=
            &node("n2", 2000, 4 << 30, "").replace("hostname: n2}", "hostname: n2, region: r2}");
        yaml += "---
apiVersion: v1
kind: Service
metadata: {name: s, namespace: default}
spec: {selector: {app: w}, ports: [{port: 80}]}
---
apiVersion: v1
kind: Pod
metadata: {name: first, namespace: default, labels: {app: w}, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Pod
metadata: {name: waiting, namespace: default, labels: {app: w}, creationTimestamp: '2024-01-01T00:01:00Z'}
spec:
  containers: [{name: c, image: x}]
status: {nominatedNodeName: n1}
";
        // The default Policy's `Region` service affinity reads the `region` label. Once
        // `waiting` is placed, `first` is tried again and goes to its region.
        let report = schedule(&yaml, Version::Legacy);
        let first = report.pods.first();
        assert_eq!(
            first.map(|placement| placement.pod.as_str()),
            Some("default/first")
        );
        assert_eq!(
            first.and_then(|placement| placement.first_attempt.as_deref()),
            Some("node \"\" not found")
        );
        let waiting = report
            .pods
            .get(1)
            .and_then(|placement| placement.node.as_deref());
        assert!(waiting.is_some());
        assert_eq!(
            first.and_then(|placement| placement.node.as_deref()),
            waiting
        );
    }

    /// A pod whose required pod affinity nothing matched is tried again once the queue
    /// has bound a pod it may count (1.11 `AssignedPodAdded`, 1.34's queueing hints):
    /// `web`, first in the queue, joins `db` on its node.
    #[test]
    fn a_pod_waiting_for_its_affinity_is_tried_again_after_the_queue() {
        let mut yaml = node("n1", 4000, 8 << 30, "");
        yaml += &node("n2", 4000, 8 << 30, "");
        yaml += "---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default, labels: {app: web}}
spec:
  priorityClassName: high
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: db}}
        topologyKey: kubernetes.io/hostname
  containers: [{name: c, image: x}]
---
apiVersion: v1
kind: Pod
metadata: {name: db, namespace: default, labels: {app: db}}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: 100m}}}]
";
        for version in [Version::Current, Version::Legacy] {
            let report = schedule(&yaml, version);
            let nodes: alloc::vec::Vec<_> = placed(&report);
            let db = report.pods[1].node.clone();
            assert_eq!(
                nodes,
                [
                    ("default/web", db.as_deref()),
                    ("default/db", db.as_deref())
                ],
                "{version:?}"
            );
            let web = &report.pods[0];
            assert_eq!(web.message, None);
            assert!(
                web.first_attempt
                    .as_deref()
                    .is_some_and(|message| message.starts_with(
                        "0/2 nodes are available: 2 node(s) didn't match pod affinity rules"
                    )),
                "{version:?}: {:?}",
                web.first_attempt
            );
        }
    }

    /// A pod tried again and still unschedulable reports its last attempt, against the
    /// cluster as placement leaves it (each attempt records its own FailedScheduling):
    /// `app` first misses its `db`, then, once `db` takes the node, misses the room.
    #[test]
    fn a_pod_tried_again_reports_its_last_attempt() {
        let mut yaml = node("n1", 1000, 8 << 30, "");
        yaml += "---
apiVersion: v1
kind: Pod
metadata: {name: app, namespace: default, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: db}}, topologyKey: kubernetes.io/hostname}
  containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: db, namespace: default, labels: {app: db}, creationTimestamp: '2024-01-01T00:01:00Z'}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]
";
        for version in [Version::Current, Version::Legacy] {
            let report = schedule(&yaml, version);
            assert_eq!(
                placed(&report),
                [("default/app", None), ("default/db", Some("n1"))],
                "{version:?}"
            );
            let app = &report.pods[0];
            let message = app.message.as_deref().unwrap_or_default();
            assert!(
                message.starts_with("0/1 nodes are available: 1 Insufficient cpu."),
                "{version:?}: {message}"
            );
            assert!(
                app.first_attempt
                    .as_deref()
                    .is_some_and(|first| first.contains("didn't match pod affinity rules")),
                "{version:?}: {:?}",
                app.first_attempt
            );
        }
    }

    /// Room another pod's nomination held comes free when that pod goes elsewhere, and the
    /// pod it kept out is tried again: `big` leaves 1 CPU on n1, `nominated` (2 CPU)
    /// holds room there until it lands on the tainted n2, then `small` fits n1.
    #[test]
    fn room_a_nomination_held_lets_a_pod_in_once_it_is_placed() {
        let mut yaml = node("n1", 4000, 8 << 30, "");
        yaml += &node(
            "n2",
            4000,
            8 << 30,
            "spec: {taints: [{key: dedicated, value: x, effect: NoSchedule}]}",
        );
        yaml += "---
apiVersion: v1
kind: Pod
metadata: {name: big, namespace: default}
spec:
  nodeName: n1
  containers: [{name: c, image: x, resources: {requests: {cpu: '3'}}}]
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: small, namespace: default, creationTimestamp: '2024-01-01T00:01:00Z'}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: nominated, namespace: default, creationTimestamp: '2024-01-01T00:02:00Z'}
spec:
  tolerations: [{key: dedicated, operator: Equal, value: x, effect: NoSchedule}]
  containers: [{name: c, image: x, resources: {requests: {cpu: '2'}}}]
status: {phase: Pending, nominatedNodeName: n1}
";
        for version in [Version::Current, Version::Legacy] {
            let report = schedule(&yaml, version);
            assert_eq!(
                placed(&report),
                [
                    ("default/small", Some("n1")),
                    ("default/nominated", Some("n2"))
                ],
                "{version:?}"
            );
        }
    }

    /// Only the scheduler's own queue nominates: a pod for another scheduler, or (1.34) a
    /// gated pod, holds no room on the node it names.
    #[test]
    fn nominations_the_queue_never_holds_keep_no_room() {
        let base = node("n1", 1000, 8 << 30, "")
            + "---
apiVersion: v1
kind: Pod
metadata: {name: first, namespace: default, creationTimestamp: '2024-01-01T00:00:00Z'}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: 600m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: other, namespace: default, creationTimestamp: '2024-01-01T00:01:00Z'}
spec:
  containers: [{name: c, image: x, resources: {requests: {cpu: 600m}}}]
status: {phase: Pending, nominatedNodeName: n1}
";
        // `other` with one more spec field before its containers.
        let other_with = |field: &str| {
            let containers =
                "  containers: [{name: c, image: x, resources: {requests: {cpu: 600m}}}]\nstatus";
            let changed = base.replace(containers, &[field, "\n", containers].concat());
            assert_ne!(changed, base);
            changed
        };
        let elsewhere = other_with("  schedulerName: other-scheduler");
        let gated = other_with("  schedulingGates: [{name: example.com/wait}]");
        for (yaml, version) in [
            (&elsewhere, Version::Current),
            (&elsewhere, Version::Legacy),
            (&gated, Version::Current),
        ] {
            let report = schedule(yaml, version);
            assert_eq!(
                report
                    .pods
                    .first()
                    .map(|placement| (placement.pod.as_str(), placement.node.as_deref())),
                Some(("default/first", Some("n1"))),
                "{version:?}"
            );
        }
        // The queue's own nominated pod of equal priority keeps its room.
        let report = schedule(&base, Version::Current);
        assert_eq!(
            report
                .pods
                .first()
                .map(|placement| placement.node.as_deref()),
            Some(None)
        );
    }

    /// Room a preemption frees lets in a pod that found none before (the deletion moves
    /// it back to the queue): `first` may not preempt, `second` evicts `low`, and
    /// `first` then fits beside it.
    #[test]
    fn room_a_preemption_frees_lets_an_earlier_pod_in() {
        let mut yaml = node("n1", 4000, 8 << 30, "");
        yaml += "---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: top}
value: 2000
preemptionPolicy: Never
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Pod
metadata: {name: low, namespace: default}
spec:
  nodeName: n1
  containers: [{name: c, image: x, resources: {requests: {cpu: '3'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: first, namespace: default}
spec:
  priorityClassName: top
  containers: [{name: c, image: x, resources: {requests: {cpu: '2'}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: second, namespace: default}
spec:
  priorityClassName: high
  containers: [{name: c, image: x, resources: {requests: {cpu: 1500m}}}]
";
        let report = schedule(&yaml, Version::Current);
        let outcome: alloc::vec::Vec<_> = placed(&report);
        assert_eq!(
            outcome,
            [
                ("default/first", Some("n1")),
                ("default/second", Some("n1"))
            ]
        );
        assert!(report.pods[0].first_attempt.is_some());
    }

    /// On 200 nodes 1.34 stops at 100 feasible ones (`numFeasibleNodesToFind`), so it
    /// never sees the roomiest node, the last; `skip_sampled` leaves that comparison out.
    #[test]
    fn the_sampled_comparison_is_reported_unless_skipped() {
        let mut yaml: String = (0..199)
            .map(|index| node(&alloc::format!("n{index:03}"), 1000, 4 << 30, ""))
            .collect();
        yaml += &node("n199", 8000, 16 << 30, "");
        let compared = half_cpu_placement(yaml.clone(), false);
        assert_eq!(compared.node.as_deref(), Some("n199"));
        let sampled = compared
            .sampled
            .expect("the sampled scheduler chooses otherwise");
        assert_eq!((sampled.nodes_to_find, sampled.examined), (100, 100));
        assert_ne!(sampled.node.as_deref(), Some("n199"));
        let skipped = half_cpu_placement(yaml, true);
        assert_eq!(skipped.node.as_deref(), Some("n199"));
        assert!(skipped.sampled.is_none());
    }

    /// The sampled scan walks the nodes one zone after the other (`nodeTree.list`): of 150
    /// nodes in zone a and 50 in zone b, the first 100 it examines are 50 of each, so it
    /// sees the roomiest node, the last of zone b, and chooses as the exact evaluation.
    #[test]
    fn the_sampled_scan_takes_the_zones_in_turn() {
        let zoned = |index: usize, milli_cpu: i64| {
            let zone = if index < 150 { "a" } else { "b" };
            alloc::format!(
                "---\nkind: Node\nmetadata: {{name: n{index:03}, labels: {{topology.kubernetes.io/zone: {zone}}}}}\nstatus:\n  allocatable: {{cpu: {milli_cpu}m, memory: 4Gi, pods: \"110\"}}\n"
            )
        };
        let mut yaml: String = (0..199).map(|index| zoned(index, 1000)).collect();
        yaml += &zoned(199, 8000);
        let placement = half_cpu_placement(yaml, false);
        assert_eq!(placement.node.as_deref(), Some("n199"));
        assert!(placement.sampled.is_none());
    }

    /// The placement of a pod asking for half a CPU on the nodes of `yaml`, under 1.34.
    fn half_cpu_placement(
        mut yaml: String,
        skip_sampled: bool,
    ) -> crate::report::scheduling::Placement {
        yaml += "---
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers: [{name: c, image: i, resources: {requests: {cpu: 500m}}}]
";
        let sources = [crate::Source::new("test", &yaml)];
        let loaded = crate::input::load(&sources, &crate::Limits::default());
        let cluster = crate::cluster::Cluster::build(loaded, &sources, Some(Version::Current));
        let options = super::ScheduleOptions {
            skip_sampled,
            ..super::ScheduleOptions::default()
        };
        super::run(&cluster, &options).pods.remove(0)
    }

    /// 1.34 keeps a gated pod out of the queue: it takes no node and no room, and the
    /// pod queued after it is placed as if it were not there. 1.11 knows no gates.
    #[test]
    fn gated_pods_wait_in_1_34_only() {
        let pod = |name: &str, gates: &str| {
            alloc::format!(
                "---\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  schedulingGates: [{gates}]\n  containers: [{{name: c, image: x, resources: {{requests: {{cpu: 800m}}}}}}]\n"
            )
        };
        let yaml = node("n1", 1000, 4 << 30, "")
            + &pod("gated", "{name: example.com/quota}, {name: b}")
            + &pod("free", "");
        let report = schedule(&yaml, Version::Current);
        let gated = &report.pods[0];
        assert_eq!(gated.outcome, crate::report::scheduling::Outcome::Gated);
        assert_eq!(
            gated.message.as_deref(),
            Some("Scheduling is blocked due to non-empty scheduling gates")
        );
        assert_eq!(gated.scheduling_gates, ["example.com/quota", "b"]);
        assert!(gated.nodes.0.is_empty());
        assert_eq!(placed(&report)[1], ("default/free", Some("n1")));
        let legacy = schedule(&yaml, Version::Legacy);
        assert_eq!(
            placed(&legacy),
            [("default/gated", Some("n1")), ("default/free", None)]
        );
    }

    /// A pending pod being deleted is skipped with an event, in both releases, and leaves
    /// its room to the next pod.
    #[test]
    fn pods_being_deleted_are_skipped() {
        let yaml = node("n1", 1000, 4 << 30, "")
            + "---\nkind: Pod\nmetadata: {name: leaving, namespace: default, deletionTimestamp: '2024-01-01T00:00:00Z'}\nspec:\n  containers: [{name: c, image: x, resources: {requests: {cpu: 800m}}}]\n"
            + "---\nkind: Pod\nmetadata: {name: next, namespace: default}\nspec:\n  containers: [{name: c, image: x, resources: {requests: {cpu: 800m}}}]\n";
        for version in [Version::Current, Version::Legacy] {
            let report = schedule(&yaml, version);
            let leaving = &report.pods[0];
            assert_eq!(leaving.outcome, crate::report::scheduling::Outcome::Skipped);
            assert_eq!(
                leaving.message.as_deref(),
                Some("skip schedule deleting pod: default/leaving")
            );
            assert_eq!(placed(&report)[1], ("default/next", Some("n1")));
        }
    }

    /// 1.34's FailedScheduling event keeps 1024 bytes of a longer text; 1.11's keeps it
    /// whole.
    #[test]
    fn long_failure_messages_are_cut_in_1_34() {
        let requests: alloc::vec::Vec<String> = (0..40)
            .map(|i| alloc::format!("example.com/resource-{i:02}: '1'"))
            .collect();
        let yaml = node("n1", 4000, 4 << 30, "")
            + &alloc::format!(
                "---\nkind: Pod\nmetadata: {{name: p, namespace: default}}\nspec:\n  containers: [{{name: c, resources: {{limits: {{{}}}}}}}]\n",
                requests.join(", ")
            );
        let message = |version| {
            schedule(&yaml, version).pods[0]
                .message
                .clone()
                .unwrap_or_default()
        };
        let cut = message(Version::Current);
        assert_eq!(cut.len(), 1024);
        assert!(
            cut.starts_with("0/1 nodes are available: 1 Insufficient example.com/resource-00, ")
        );
        assert!(cut.ends_with(" ..."), "{cut}");
        let whole = message(Version::Legacy);
        assert!(whole.len() > 1024);
        assert!(
            whole.ends_with("1 Insufficient example.com/resource-39."),
            "{whole}"
        );
    }
}
