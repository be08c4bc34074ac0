//! The disruption timeline: taints, NoExecute evictions, drains, machine deletions and
//! descheduler runs, applied to the cluster step by step.
//!
//! The controllers start on the input at 0 s, as if they had just started on it (the
//! NoExecute taints, not-ready nodes, deleting machines and machine sets short of or
//! over their replicas it already has are handled then), and a
//! Scenario's steps are played in time order up to its horizon. Each step changes the
//! cluster as its controller would, and what follows is simulated from upstream's rules:
//! the taint eviction controller ([`taint_manager`]), `oc adm drain` ([`drain`]) with the
//! eviction API's budget check ([`budget`]), the machine controller ([`crate::machine`])
//! and the descheduler ([`crate::descheduler`]). Evicted pods terminate after their grace
//! period (the longest a kubelet lets them run; never on a node that is not Ready, whose
//! kubelet cannot confirm, unless 1.34's pod garbage collector force-deletes them once
//! the node is out of service ([`pod_gc`]); at once for a grace period of zero, which
//! the API server applies without the kubelet; never while a finalizer no modelled
//! controller removes keeps the object). Their controllers create replacements, from their
//! template when the input has the controller, at once (a controller of the input only
//! while it has fewer active pods than it wants; a StatefulSet
//! only once the old pod is gone, lowest ordinal first, none past its replicas and, unless
//! its policy is Parallel, once every lower ordinal runs, ready (and in 1.34 available for
//! its `minReadySeconds`); a 1.34 Job of the input once the
//! backoff of its failures has passed since the last, all it misses together, and none
//! past its backoff limit, where it deletes its other pods; a DaemonSet of the input once
//! the pod is gone and its node should run one again, pinned there in 1.34 and bound by
//! the controller in 1.11 where the node has room for it; bare pods
//! never; none for a pod the input already shows being deleted, which was replaced then), and the scheduling
//! engine places every replacement on the cluster as it is at that moment, retrying the
//! ones left Pending whenever the cluster changes. A replacement is Ready as soon as it
//! is bound, which gives its PodDisruptionBudget the disruption back.

pub mod budget;
pub mod drain;
pub mod node_lifecycle;
pub mod pod_gc;
pub mod scenario;
pub mod taint_manager;
mod view;

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::collections::{BTreeMap, BTreeSet, VecDeque};
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::cell::OnceCell;

use crate::admission::{Chain, Decision as Admitted};
use crate::cluster::{Cluster, Controller, NodeIndex, PodEntry, PodState, PodsByNode};
use crate::descheduler::Evicted;
use crate::diagnostic::Diagnostic;
use crate::duration::Duration;
use crate::input::Span;
use crate::machine;
use crate::model::{
    LifecycleHook, Machine, MachineSet, Node, NodeCondition, NodeSpec, NodeStatus, OwnerReference,
    Taint, WorkloadKind,
};
use crate::report::disruption::{
    DeschedulerRun, Disruption, Event, EventKind, Eviction, MachineStatus,
};
use crate::report::scheduling::Outcome as Placed;
use crate::report::words::Words;
use crate::schedule::{self, ScheduleOptions, Version};
use budget::Budgets;
use drain::{Decision, Flags};
use node_lifecycle::{Change, NodeLifecycle, Ready};
use scenario::{Action, HookPhase};
use taint_manager::Verdict;
use view::View;

/// A pod's grace period when it states none (`terminationGracePeriodSeconds`).
const DEFAULT_GRACE: Duration = Duration::from_seconds(30);
/// How many happenings one run may process: a guard against a scenario that never
/// settles (each drain retry and reschedule counts).
const MAX_HAPPENINGS: usize = 1_000_000;

/// Options for the timeline.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Stop at this point instead of the horizon, and report the cluster as it is then.
    pub at: Option<Duration>,
    /// Leave replacements unplaced: only the evictions and their timing are wanted.
    pub skip_rescheduling: bool,
}

/// The timeline, and the cluster as it stands at its end.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// `report.timeline`, `report.evictions`, `report.descheduler`, `report.machines`.
    pub disruption: Disruption,
    /// Nodes at the end (removed nodes left out); only with [`Options::at`].
    pub nodes: Vec<Node>,
    /// Pods at the end: terminating and deleted pods as terminated, replacements added;
    /// only with [`Options::at`].
    pub pods: Vec<PodEntry>,
    /// Problems with steps that only show while playing them (an unknown node).
    pub diagnostics: Vec<Diagnostic>,
}

/// Plays the cluster's Scenario; without one, nothing happens.
#[must_use]
pub fn run(cluster: &Cluster, schedule: &ScheduleOptions, options: &Options) -> Option<Outcome> {
    let (scenario, spans) = cluster.scenario.as_ref()?;
    let horizon = scenario::horizon(scenario).unwrap_or(scenario::DEFAULT_HORIZON);
    let until = options.at.map_or(horizon, |at| at.min(horizon));
    let mut world = World::new(cluster, schedule, until, spans);
    world.reschedule = !options.skip_rescheduling;
    world.state_wanted = options.at.is_some();
    let mut steps: Vec<Option<Action>> = alloc::vec![None; scenario.spec.steps.len()];
    for timed in scenario::actions(scenario) {
        world.agenda_push(timed.at, Happening::Step(timed.step));
        if let Some(slot) = steps.get_mut(timed.step) {
            *slot = Some(timed.action);
        }
    }
    world.find_step_nodes(&steps);
    world.start_controllers();
    world.play(&steps);
    Some(world.finish())
}

/// Something due at a point of the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Happening {
    /// A scenario step (its index).
    Step(usize),
    /// A terminating pod is gone.
    PodGone(usize),
    /// A NoExecute eviction falls due.
    TaintEviction(usize),
    /// A drain retries refused evictions, or reaches its timeout.
    DrainRetry(usize),
    /// The machine controller looks at a machine again.
    MachineReconcile(usize),
    /// The node lifecycle controller looks at the Ready conditions steps changed.
    NodeMonitor,
    /// A zone's next NoExecute taint may go.
    TaintingPass,
    /// The pod garbage collector's pass ([`pod_gc`]).
    PodGc,
    /// A Job of the input (its position in the workloads) syncs ([`World::sync_job`]).
    JobSync(usize),
    /// A StatefulSet's new pod has been ready for its set's `minReadySeconds`.
    SetPodAvailable(usize),
}

/// When a 1.34 Job replaces a pod deleted from under it (`podReplacementPolicy` in
/// `pkg/controller/job/job_controller.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobReplacement {
    /// `TerminatingOrFailed`, the default: the pod counts as failed once deleted.
    WhenDeleted,
    /// `Failed`, asked for or the default with a `podFailurePolicy`: once it is gone.
    WhenGone,
}

/// `DefaultJobPodFailureBackOff`: a Job waits this long after a pod's failure before it
/// creates the next, doubling with every failure since the last success.
const JOB_BACKOFF: Duration = Duration::from_seconds(10);
/// `MaxJobPodFailureBackOff`.
const MAX_JOB_BACKOFF: Duration = Duration::from_seconds(600);
/// A Job's `spec.backoffLimit` when it gives none.
const DEFAULT_BACKOFF_LIMIT: i32 = 6;

/// A 1.34 Job of the input on the timeline: its backoff record, one for the whole Job
/// (`backoffRecord` in `pkg/controller/job/backoff_utils.go`), and the pods it has yet to
/// replace.
#[derive(Debug, Default)]
struct JobRun {
    /// The failures it counted on the timeline (`failuresAfterLastSuccess`: no pod
    /// succeeds on it).
    failures: i32,
    /// When the last of them finished (`lastFailureTime`).
    last_failure: Duration,
    /// The pods no longer active, with their evictions, in the order they stopped: the
    /// next sync creates their replacements, as many as it misses.
    owed: VecDeque<(usize, usize)>,
    /// When its next sync is planned.
    planned: Option<Duration>,
    /// Past its backoff limit: it failed (`BackoffLimitExceeded`) and creates nothing.
    failed: bool,
}

/// `getRemainingTimeForFailuresCount`'s wait after the last of `failures` failures: 10 s,
/// doubled for every failure after the first, at most 600 s.
fn job_backoff(failures: i32) -> Duration {
    let mut backoff = JOB_BACKOFF;
    for _ in 1..failures {
        backoff = backoff.saturating_add(backoff).min(MAX_JOB_BACKOFF);
    }
    backoff
}

/// Where a pod is in its life. (Small: the timeline writes one for each of 150 000 pods
/// when it starts.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Life {
    /// Bound and running.
    Running,
    /// Deleted, and terminating.
    Terminating {
        /// When it will be gone.
        goes: Goes,
        /// Its entry in `report.evictions`.
        eviction: usize,
        /// Its controller's kind: a StatefulSet recreates it under its name once it is
        /// gone, a DaemonSet syncs its node then.
        controller: Option<Controller>,
        /// Finalizers keep its object once its kubelet stopped it
        /// ([`crate::cluster::Deletion::held_by_finalizers`]).
        held: bool,
        /// The taint eviction controller's worker for it fired and, in 1.11, its key
        /// stays in the queue until the pod is gone or a node update cancels it
        /// ([`World::worker_fired`]).
        fired: bool,
    },
    /// Gone.
    Gone,
    /// A replacement waiting for a node.
    Waiting,
    /// Not part of the timeline (pending before it started, rejected, finished).
    Elsewhere,
}

/// When a deleted pod is gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goes {
    /// Never: its node's kubelet is away and cannot confirm (until it comes back, or
    /// the pod garbage collector clears the node).
    Never,
    /// Once its kubelet stopped it, after its grace period.
    AfterGrace,
    /// At once: a grace period of zero removes the object without waiting for the
    /// kubelet (`updateForGracefulDeletionAndFinalizers` in
    /// `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`).
    AtOnce,
    /// At once: the pod garbage collector force-deleted it, its node out of service
    /// ([`pod_gc`]).
    Collected,
    /// At once: the pod garbage collector force-deleted it, its node removed
    /// ([`World::gc_orphaned`]).
    Orphaned,
    /// Never: its containers stopped, but a finalizer no modelled controller removes
    /// keeps the object, terminating
    /// ([`crate::cluster::Deletion::held_by_finalizers`]).
    Held,
}

/// A deletion the input shows under way, on the timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pending {
    /// `metadata.deletionTimestamp` on the timeline: when the grace period ends (no later
    /// than the grace period after 0 s; before 0 s for a deadline already past).
    stamp: Duration,
    /// `metadata.deletionGracePeriodSeconds`; `None` for zero or none given.
    grace: Option<Duration>,
}

impl Pending {
    /// When the pod is gone once deleted again, asking `asked` (`BeforeDelete` in
    /// `staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go`): `None`, at once, when
    /// the deletion under way has no grace period; a shorter grace period counts from
    /// when that deletion began; a longer one, or none, leaves it as it is.
    fn due(self, asked: Option<Duration>) -> Option<Duration> {
        let pending = self.grace?;
        match asked {
            Some(asked) if asked < pending => {
                let began = Duration(self.stamp.0.saturating_sub(pending.0));
                (asked.0 > 0).then(|| began.saturating_add(asked))
            }
            _ => Some(self.stamp),
        }
    }
}

/// A NoExecute eviction waiting for its time (`TimedWorker`).
#[derive(Clone, Copy, Debug)]
struct Scheduled {
    created: Duration,
    fire: Duration,
}

/// One drain: `oc adm drain`, or the machine controller's.
#[derive(Clone, Debug)]
struct DrainRun {
    node: usize,
    flags: Flags,
    /// The machine whose deletion drains, if any.
    machine: Option<usize>,
    deadline: Option<Duration>,
    /// Pods whose eviction was refused; retried every five seconds.
    blocked: Vec<usize>,
    /// When the refused evictions are tried again.
    retry_at: Option<Duration>,
    /// Evicted pods the drain waits for, in pod order (a list rather than a map: the
    /// playground's module counts its bytes).
    waiting: Vec<Awaited>,
    errors: Vec<String>,
    /// Pods deleted for longer than [`machine::SKIP_WAIT_FOR_DELETE`] are not waited
    /// for (the machine controller, on an unreachable node).
    skip_wait: bool,
    finished: bool,
}

/// An evicted pod a drain waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Awaited {
    pod: usize,
    /// When its eviction went through (`waitForDelete` polls every second from then).
    evicted: Duration,
    /// The poll that stops waiting for it, still there, in a drain that skips pods
    /// deleted long enough ago (`shouldSkipPod`).
    skipped: Option<Duration>,
    /// The poll that finds it gone, once it is: the drain waits for it until then.
    seen: Option<Duration>,
}

/// Where a machine's deletion stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Running,
    WaitingPreDrain,
    Draining,
    WaitingPreTerminate,
    Removed,
}

/// A machine as the timeline changes it.
#[derive(Clone, Debug)]
struct MachineRun {
    id: String,
    /// `status.nodeRef` is set (its node may be missing or gone).
    node_ref: bool,
    node: Option<usize>,
    exclude_draining: bool,
    /// The controller reference, the adopting machine set's for an orphan it selects.
    controller: Option<OwnerReference>,
    pre_drain: Vec<LifecycleHook>,
    pre_terminate: Vec<LifecycleHook>,
    stage: Stage,
    drained: Option<machine::Condition>,
    failures: u32,
}

impl MachineRun {
    fn new(machine: &Machine, node: Option<usize>) -> Self {
        let metadata = &machine.metadata;
        Self {
            id: alloc::format!("Machine/{}/{}", metadata.namespace, metadata.name),
            node_ref: machine.status.node_ref.is_some(),
            node,
            exclude_draining: metadata
                .annotations
                .contains_key(machine::EXCLUDE_NODE_DRAINING),
            controller: metadata.controller().cloned(),
            pre_drain: machine.spec.lifecycle_hooks.pre_drain.clone(),
            pre_terminate: machine.spec.lifecycle_hooks.pre_terminate.clone(),
            stage: Stage::Running,
            // A machine exported after its drain: `Drained=True` stays in its status.
            drained: machine
                .status
                .conditions
                .iter()
                .find(|condition| condition.type_ == "Drained" && condition.status == "True")
                .map(|condition| machine::drained(&condition.message)),
            failures: 0,
        }
    }
}

/// Whether the NoExecute taint manager runs: 1.34's taint eviction controller does;
/// OpenShift 3.11's only unless the master configuration's `controllerArguments` set
/// `enable-taint-manager` to false (`NewNodeLifecycleController` and `Run` in
/// `pkg/controller/nodelifecycle/node_lifecycle_controller.go`, 1.11).
fn taint_manager(cluster: &Cluster) -> bool {
    let master = cluster.master_config.as_ref();
    cluster.version == Version::Current
        || master.and_then(|master| master.controller_bool("enable-taint-manager")) != Some(false)
}

/// OpenShift 3.11's node lifecycle controller without taint based evictions, which need
/// the `TaintBasedEvictions` gate (alpha in 1.11, off unless the master configuration's
/// `controllerArguments` turn it on, chapter 16.11.5) and the taint manager: pods of a
/// down node are deleted after `--pod-eviction-timeout` (5 minutes unless set there),
/// and no NoExecute taint is put. `None` when the controller taints (1.34, or both on).
fn pod_eviction_timeout(cluster: &Cluster) -> Option<Duration> {
    let master = cluster.master_config.as_ref();
    let gate = master.is_some_and(|master| master.controller_gate("TaintBasedEvictions"));
    if cluster.version != Version::Legacy || (gate && taint_manager(cluster)) {
        return None;
    }
    let set = master
        .and_then(|master| master.controller_argument("pod-eviction-timeout"))
        .and_then(|text| crate::duration::parse(text).ok());
    Some(set.unwrap_or(Duration::from_seconds(300)))
}

struct World<'c> {
    cluster: &'c Cluster,
    schedule: &'c ScheduleOptions,
    /// The release's admission chain, which every replacement passes as it is created.
    admission: Chain<'c>,
    version: Version,
    until: Duration,
    spans: &'c [Span],
    nodes: Vec<NodeRun<'c>>,
    /// Copies of the live nodes for the engines that read whole nodes.
    live: LiveNodes,
    /// The cluster the rounds of placing schedule on, once the first round made it.
    view: Option<View>,
    /// Pods whose life changed since the view last followed them.
    unfollowed: Vec<usize>,
    node_index: NodeIndex<'c>,
    /// The input's pods, borrowed, then the replacements.
    pods: Vec<Shared<'c, PodEntry>>,
    life: Vec<Life>,
    /// Per pod, the node it is bound to (the cluster's, copied once a replacement comes).
    node_of: Cow<'c, [Option<usize>]>,
    /// Per node, the input's pods bound to it, in order; then, in `bound_since`, the
    /// replacements bound to it (none listed before the first bind). A pod that is gone
    /// stays listed (its life says so): taking each of a tainted node's pods out of the
    /// list as it went cost time in the square of the node's pods.
    input_on_node: Cow<'c, PodsByNode>,
    bound_since: Vec<Vec<usize>>,
    /// Per step, the node it names, found once.
    step_nodes: Vec<Option<usize>>,
    taint_queue: BTreeMap<usize, Scheduled>,
    /// The input's finished pods by node.
    finished_by_node: Cow<'c, PodsByNode>,
    /// The node lifecycle controller's zones, once a step changed a Ready condition.
    lifecycle: Option<NodeLifecycle>,
    /// Nodes whose Ready condition a step set, each with whether the last monitor pass
    /// saw it ready: each monitor pass looks at them.
    ready_watched: Vec<(usize, bool)>,
    /// OpenShift 3.11 without the `TaintBasedEvictions` gate: the controller deletes a
    /// down node's pods this long after it went down (`--pod-eviction-timeout`) instead
    /// of tainting it ([`pod_eviction_timeout`]).
    pod_eviction_timeout: Option<Duration>,
    /// The NoExecute taint manager runs ([`taint_manager`]): without it NoExecute taints
    /// evict nothing.
    taint_manager: bool,
    /// Per node whose Ready condition a step set to Unknown, the other conditions the
    /// controller marked Unknown with it, as the kubelet last posted them (`None`: never)
    /// ([`World::kubelet_posting`]).
    posted: BTreeMap<usize, Vec<(&'static str, Option<NodeCondition>)>>,
    /// Per node, when a step last set its Ready condition to something other than True
    /// (empty until one does).
    down_since: Vec<Option<Duration>>,
    /// A monitor pass is planned for this moment.
    monitor_planned: Option<Duration>,
    /// The earliest tainting pass planned (a later one planned before still runs, and
    /// finds nothing or what is due then).
    tainting_planned: Option<Duration>,
    /// The pod garbage collector's next pass, once one is called for, and its last.
    gc_planned: Option<Duration>,
    gc_last: Option<Duration>,
    /// Removed nodes whose pods the pod garbage collector has yet to delete, with the
    /// end of their quarantine once a pass has seen them ([`pod_gc`]).
    orphaned: Vec<(usize, Option<Duration>)>,
    /// What is due when, in the order it was planned.
    agenda: BTreeMap<Duration, VecDeque<Happening>>,
    budgets: Budgets<'c>,
    /// Per pod, whether the node lifecycle controller marked it not ready
    /// (`MarkPodsNotReady`) since the timeline started; empty until it first does.
    marked_not_ready: Vec<bool>,
    /// The input's machines, then those machine sets created ([`World::created`]).
    machines: Vec<MachineRun>,
    /// The machine whose node the drain controller is draining. It runs one reconcile at
    /// a time (controller-runtime's `MaxConcurrentReconciles` defaults to 1, and
    /// `drainNode` waits for the drain inside `Reconcile`: drain_controller.go).
    drain_worker: Option<usize>,
    /// Deleting machines waiting for that worker, in the order they were queued (the
    /// workqueue is first in, first out, and holds a machine once).
    drain_queue: VecDeque<usize>,
    /// The machines machine sets created during the timeline.
    created: Vec<Machine>,
    /// Per machine set of the input, its `spec.replicas` as the steps left it.
    replicas: Vec<i32>,
    drains: Vec<DrainRun>,
    /// Replacements waiting for a node, and whether the cluster changed since they last
    /// tried.
    waiting: Vec<usize>,
    changed: bool,
    /// Which eviction each replacement replaces.
    replaces: BTreeMap<usize, usize>,
    /// Replacements already reported Pending.
    reported_pending: BTreeSet<usize>,
    /// Per 1.34 Job of the input (its position in the workloads) whose pods the timeline
    /// touched, its controller's state.
    jobs: BTreeMap<usize, JobRun>,
    /// Per ReplicaSet, ReplicationController or Job of the input whose pods the timeline
    /// touched, the pods it wants and its active ones (from `Cluster::replicas`).
    pod_counts: BTreeMap<usize, crate::owners::Replicas>,
    /// Per StatefulSet (`namespace/name`), its pods deleted on the timeline and its
    /// replacements, with their ordinals: the pods that may hold its next one back (its
    /// other pods run, as bound).
    set_pods: BTreeMap<String, Vec<(u64, usize)>>,
    /// Per StatefulSet, the ordinals gone and not yet recreated, with the old pod and
    /// its eviction.
    set_missing: BTreeMap<String, BTreeMap<u64, (usize, usize)>>,
    /// Per eviction record, its pod's `metadata.deletionTimestamp` on the timeline: when
    /// its grace period ends (kept apart from [`Life`], which a 64-bit time would make
    /// three times larger: the timeline writes one for each of 150 000 pods).
    deletion_stamps: Vec<Duration>,
    /// The StatefulSets whose input pods are in `set_pods` ([`World::seed_set_pods`]).
    sets_seeded: BTreeSet<String>,
    /// The input's StatefulSet pods by set (namespace, name), each with its ordinal, in
    /// input order: made when a first set syncs, so that each set's seeding does not walk
    /// every pod (the descheduler case has hundreds of sets among 150 000 pods).
    input_set_pods: Option<SetPods<'c>>,
    /// Per DaemonSet of the input (its position in the workloads) and node, its pod there
    /// that is gone and not yet replaced, with its eviction ([`World::sync_daemon_node`]).
    daemon_lost: BTreeMap<(usize, usize), (usize, usize)>,
    /// The daemon pods the timeline created, with their DaemonSet and node.
    daemon_made: Vec<(usize, usize, usize)>,
    /// The StatefulSets' new pods that are ready but not yet for their set's
    /// `minReadySeconds`.
    not_available: BTreeSet<usize>,
    /// A StatefulSet created a pod while the replacements were being placed: they are
    /// placed again at the same moment.
    set_created: bool,
    reschedule: bool,
    state_wanted: bool,
    /// The wall-clock moment the timeline starts at ([`timeline_start`]), once needed.
    started: OnceCell<Option<Duration>>,
    disruption: Disruption,
    diagnostics: Vec<Diagnostic>,
}

impl<'c> World<'c> {
    fn new(
        cluster: &'c Cluster,
        schedule: &'c ScheduleOptions,
        until: Duration,
        spans: &'c [Span],
    ) -> Self {
        let version = cluster.version;
        let nodes: Vec<NodeRun<'c>> = cluster.nodes.iter().map(NodeRun::new).collect();
        let node_index = cluster.node_index();
        let pods: Vec<Shared<'c, PodEntry>> = cluster.pods.iter().map(Shared::Input).collect();
        let node_of = cluster.pod_nodes();
        let life = node_of
            .iter()
            .map(|node| match node {
                Some(_) => Life::Running,
                None => Life::Elsewhere,
            })
            .collect();
        let machines = cluster
            .machines
            .iter()
            .map(|machine| {
                let node = machine.status.node_ref.as_ref();
                let mut run = MachineRun::new(
                    machine,
                    node.and_then(|reference| node_index.get(&reference.name)),
                );
                // Each machine set adopts the orphans it would count when it first
                // reconciles (`adoptOrphan`, machineset/controller.go); an orphan two sets
                // select goes to the first in the input.
                if run.controller.is_none() {
                    run.controller = cluster
                        .machine_sets
                        .iter()
                        .find(|set| machine::counts_for(set, machine, None))
                        .map(machine::controller_ref);
                }
                run
            })
            .collect();
        Self {
            version,
            admission: Chain::new(
                &cluster.namespaces,
                &cluster.priority_classes,
                cluster.master_config.as_ref(),
                version,
            ),
            budgets: Budgets::new(
                &cluster.disruption_budgets,
                &cluster.pods,
                &cluster.workloads,
                version,
            ),
            marked_not_ready: Vec::new(),
            cluster,
            schedule,
            until,
            spans,
            nodes,
            live: LiveNodes::default(),
            view: None,
            unfollowed: Vec::new(),
            node_index,
            pods,
            life,
            node_of,
            input_on_node: cluster.pods_by_node(),
            bound_since: Vec::new(),
            step_nodes: Vec::new(),
            taint_queue: BTreeMap::new(),
            finished_by_node: cluster.finished_by_node(),
            lifecycle: None,
            ready_watched: Vec::new(),
            pod_eviction_timeout: pod_eviction_timeout(cluster),
            taint_manager: taint_manager(cluster),
            down_since: Vec::new(),
            posted: BTreeMap::new(),
            monitor_planned: None,
            tainting_planned: None,
            gc_planned: None,
            gc_last: None,
            orphaned: Vec::new(),
            agenda: BTreeMap::new(),
            machines,
            drain_worker: None,
            drain_queue: VecDeque::new(),
            created: Vec::new(),
            // The CRD defaults `spec.replicas` to 1 (openshift/api
            // machine/v1beta1/types_machineset.go).
            replicas: cluster
                .machine_sets
                .iter()
                .map(|set| set.spec.replicas.unwrap_or(1))
                .collect(),
            drains: Vec::new(),
            waiting: Vec::new(),
            changed: false,
            replaces: BTreeMap::new(),
            reported_pending: BTreeSet::new(),
            jobs: BTreeMap::new(),
            pod_counts: BTreeMap::new(),
            set_pods: BTreeMap::new(),
            set_missing: BTreeMap::new(),
            deletion_stamps: Vec::new(),
            sets_seeded: BTreeSet::new(),
            input_set_pods: None,
            not_available: BTreeSet::new(),
            set_created: false,
            daemon_lost: BTreeMap::new(),
            daemon_made: Vec::new(),
            reschedule: true,
            state_wanted: false,
            started: OnceCell::new(),
            disruption: Disruption {
                timeline_until: until,
                ..Disruption::default()
            },
            diagnostics: Vec::new(),
        }
    }

    /// Finds the nodes the steps name, and sizes the report's lists for the pods on the
    /// nodes they taint NoExecute, drain or re-condition, most of which go: lists grown
    /// record by record to tens of thousands copied them again and again.
    fn find_step_nodes(&mut self, steps: &[Option<Action>]) {
        self.step_nodes = steps
            .iter()
            .map(|action| {
                let name = action.as_ref().and_then(Action::node)?;
                self.node_index.get(name)
            })
            .collect();
        let mut counted = alloc::vec![false; self.nodes.len()];
        let (mut pods, mut finished) = (0_usize, 0_usize);
        for (action, node) in steps.iter().zip(&self.step_nodes) {
            let evicts = match action {
                Some(Action::Taint { taint, .. }) => taint.effect == "NoExecute",
                Some(Action::Drain { .. } | Action::NodeCondition { .. }) => true,
                _ => false,
            };
            let Some(node) = node.filter(|_| evicts) else {
                continue;
            };
            if let Some(seen) = counted.get_mut(node).filter(|seen| !**seen) {
                *seen = true;
                pods = pods.saturating_add(self.input_on_node.on(node).len());
                finished = finished.saturating_add(self.finished_by_node.on(node).len());
            }
        }
        // A finished pod is one eviction and two events too (`delete_finished`).
        let records = pods.saturating_add(finished);
        self.disruption.evictions.reserve(records);
        self.disruption
            .timeline
            .reserve(records.saturating_mul(2).saturating_add(steps.len()));
    }

    fn agenda_push(&mut self, at: Duration, happening: Happening) {
        self.agenda.entry(at).or_default().push_back(happening);
    }

    /// Processes happenings in time order (ties: the order they were planned), placing
    /// replacements after each point of time.
    fn play(&mut self, steps: &[Option<Action>]) {
        let mut processed = 0_usize;
        while let Some((&at, _)) = self.agenda.first_key_value() {
            if at > self.until || processed >= MAX_HAPPENINGS {
                break;
            }
            // What these happenings plan for the same moment joins the queue and runs too.
            while processed < MAX_HAPPENINGS {
                let Some(happening) = self.agenda.get_mut(&at).and_then(VecDeque::pop_front) else {
                    self.agenda.remove(&at);
                    break;
                };
                processed += 1;
                self.happen(at, happening, steps);
                self.next_machine_drain(at);
            }
            self.place_replacements(at);
            while core::mem::take(&mut self.set_created) {
                self.changed = true;
                self.place_replacements(at);
            }
        }
    }

    fn happen(&mut self, at: Duration, happening: Happening, steps: &[Option<Action>]) {
        match happening {
            Happening::Step(index) => {
                if let Some(Some(action)) = steps.get(index) {
                    self.step(at, index, action);
                }
            }
            Happening::PodGone(pod) => self.pod_gone(at, pod),
            Happening::JobSync(job) => self.sync_job(at, job),
            Happening::SetPodAvailable(pod) => {
                self.not_available.remove(&pod);
                if let Some((set, _)) = self.stateful_identity(pod) {
                    self.sync_stateful(&set);
                }
            }
            Happening::TaintEviction(pod) => {
                let due = self
                    .taint_queue
                    .get(&pod)
                    .is_some_and(|scheduled| scheduled.fire == at);
                if due && self.listed(pod) {
                    self.taint_queue.remove(&pod);
                    self.delete_by_taint(at, pod);
                }
            }
            Happening::DrainRetry(drain) => self.drain_retry(at, drain),
            Happening::MachineReconcile(machine) => self.reconcile_machine(at, machine),
            Happening::NodeMonitor => self.monitor_nodes(at),
            Happening::TaintingPass => {
                if self.tainting_planned == Some(at) {
                    self.tainting_planned = None;
                }
                self.tainting_pass(at);
            }
            Happening::PodGc => self.pod_gc_pass(at),
        }
    }

    // Steps.

    fn step(&mut self, at: Duration, index: usize, action: &Action) {
        match action {
            Action::Taint { node, taint } => {
                let Some(node) = self.node(node, index) else {
                    return;
                };
                self.add_taint(at, node, taint.clone(), "Taint", "tainted");
                if taint.effect == "NoExecute" && [NOT_READY, UNREACHABLE].contains(&&*taint.key) {
                    self.controller_taint_touched(at, node);
                }
                // The node update brings the controller's NoSchedule pass, which takes
                // off a taint of its keys that nothing on the node calls for.
                self.reconcile_no_schedule(at, node);
                self.plan_pod_gc(at, node);
            }
            Action::Untaint { node, key, effect } => {
                let Some(node_index) = self.node(node, index) else {
                    return;
                };
                let Some(target) = self.nodes.get_mut(node_index) else {
                    return;
                };
                let taints = target.taints_mut();
                let before = taints.len();
                let mut no_execute = false;
                taints.retain(|taint| {
                    let kept = taint.key != *key
                        || effect
                            .as_ref()
                            .is_some_and(|effect| *effect != taint.effect);
                    no_execute |= !kept && taint.effect == "NoExecute";
                    kept
                });
                let removed = before - taints.len();
                let spec = match effect {
                    Some(effect) => alloc::format!("{key}:{effect}"),
                    None => key.clone(),
                };
                let message = if removed == 0 {
                    alloc::format!("taint \"{spec}\" not found")
                } else {
                    alloc::format!("node/{node} untainted")
                };
                self.event(
                    at,
                    EventKind::TaintRemoved,
                    node_id(node),
                    "Untaint",
                    message,
                );
                if removed > 0 {
                    self.changed = true;
                }
                // The taint eviction controller looks at a node again only when its
                // NoExecute taints changed (`NodeUpdated` in `taint_eviction.go`).
                if no_execute {
                    self.taints_changed(at, node_index);
                    if [NOT_READY, UNREACHABLE].contains(&key.as_str()) {
                        self.controller_taint_touched(at, node_index);
                    }
                }
                // And puts back one of its taints that the node still calls for.
                if removed > 0 {
                    self.reconcile_no_schedule(at, node_index);
                    self.daemon_node_changed(at, node_index);
                }
            }
            Action::Cordon(node) => {
                if let Some(node) = self.node(node, index) {
                    self.cordon(at, node, true);
                }
            }
            Action::Uncordon(node) => {
                if let Some(node) = self.node(node, index) {
                    self.cordon(at, node, false);
                }
            }
            Action::Drain { node, flags } => {
                if let Some(node) = self.node(node, index) {
                    self.cordon(at, node, true);
                    self.start_drain(at, node, flags.clone(), None);
                }
            }
            Action::NodeCondition {
                node,
                condition,
                status,
            } => {
                if let Some(node) = self.node(node, index) {
                    self.set_condition(at, node, condition, status);
                }
            }
            Action::DeleteMachine { namespace, name } => {
                let Some(machine) = self.machine(namespace, name, index) else {
                    return;
                };
                self.delete_machine(at, machine, true);
            }
            Action::RemoveHook {
                namespace,
                machine,
                phase,
                name,
            } => {
                let Some(machine) = self.machine(namespace, machine, index) else {
                    return;
                };
                self.remove_hook(at, machine, *phase, name, index);
            }
            Action::Deschedule => self.deschedule(at, index),
            Action::ScaleMachineSet {
                namespace,
                name,
                replicas,
            } => self.scale_machine_set(at, namespace, name, *replicas, index),
        }
    }

    fn node(&mut self, name: &str, step: usize) -> Option<usize> {
        match self.step_nodes.get(step).copied().flatten() {
            Some(node) if self.nodes.get(node).is_some_and(|target| !target.gone) => Some(node),
            found => {
                let message = if found.is_some() {
                    alloc::format!("node `{name}` was removed before this step")
                } else {
                    alloc::format!("node `{name}` is not in the input; the step does nothing")
                };
                self.step_warning(step, "scenario/unknown-node", message);
                None
            }
        }
    }

    fn machine(&mut self, namespace: &str, name: &str, step: usize) -> Option<usize> {
        let id = alloc::format!("Machine/{namespace}/{name}");
        let found = self.machines.iter().position(|machine| machine.id == id);
        if found.is_none() {
            self.step_warning(
                step,
                "scenario/unknown-machine",
                alloc::format!(
                    "machine `{namespace}/{name}` is not in the input; the step does nothing"
                ),
            );
        }
        found
    }

    fn step_warning(&mut self, step: usize, code: &'static str, message: String) {
        let mut diagnostic =
            Diagnostic::warning(code, message).with_path(alloc::format!("spec.steps[{step}]"));
        if let Some((scenario, _)) = &self.cluster.scenario {
            diagnostic =
                diagnostic.with_object(alloc::format!("Scenario/{}", scenario.metadata.name));
        }
        if let Some(span) = self.spans.get(step) {
            diagnostic = diagnostic.with_span(*span);
        }
        self.diagnostics.push(diagnostic);
    }

    /// Adds (or updates) a taint; a NoExecute one sends the node's pods to the taint
    /// eviction controller.
    fn add_taint(
        &mut self,
        at: Duration,
        node: usize,
        taint: Taint,
        reason: &'static str,
        verb: &str,
    ) {
        if self.put_taint(at, node, taint, reason, verb) {
            self.taints_changed(at, node);
        }
    }

    /// Adds (or updates) a taint with its event; true if a NoExecute taint changed.
    fn put_taint(
        &mut self,
        at: Duration,
        node: usize,
        taint: Taint,
        reason: &'static str,
        verb: &str,
    ) -> bool {
        let Some(target) = self.nodes.get_mut(node) else {
            return false;
        };
        let name = target.name();
        let described = crate::taints::describe(&taint);
        let effect = taint.effect.clone();
        match target
            .taints
            .iter()
            .position(|existing| existing.key == taint.key && existing.effect == taint.effect)
        {
            Some(existing) if target.taints.get(existing) == Some(&taint) => return false,
            Some(existing) => {
                if let Some(slot) = target.taints_mut().get_mut(existing) {
                    *slot = taint;
                }
            }
            None => target.taints_mut().push(taint),
        }
        self.event(
            at,
            EventKind::TaintAdded,
            node_id(name),
            reason,
            alloc::format!("node/{name} {verb} with {described}"),
        );
        self.daemon_node_changed(at, node);
        effect == "NoExecute"
    }

    fn remove_taint(&mut self, at: Duration, node: usize, key: &str, effect: &str) -> bool {
        let Some(target) = self.nodes.get_mut(node) else {
            return false;
        };
        if !target
            .taints
            .iter()
            .any(|taint| taint.key == key && taint.effect == effect)
        {
            return false;
        }
        target
            .taints_mut()
            .retain(|taint| taint.key != key || taint.effect != effect);
        let name = target.name();
        self.event(
            at,
            EventKind::TaintRemoved,
            node_id(name),
            "NodeLifecycleController",
            alloc::format!("node/{name} untainted {key}:{effect}"),
        );
        self.changed = true;
        self.daemon_node_changed(at, node);
        true
    }

    fn cordon(&mut self, at: Duration, node: usize, unschedulable: bool) {
        let Some(target) = self.nodes.get_mut(node) else {
            return;
        };
        let name = target.name();
        let verb = if unschedulable {
            "cordoned"
        } else {
            "uncordoned"
        };
        if target.unschedulable == unschedulable {
            self.event(
                at,
                EventKind::NodeSchedulability,
                node_id(name),
                if unschedulable {
                    "NodeNotSchedulable"
                } else {
                    "NodeSchedulable"
                },
                alloc::format!("node/{name} already {verb}"),
            );
            return;
        }
        target.set_unschedulable(unschedulable);
        self.event(
            at,
            EventKind::NodeSchedulability,
            node_id(name),
            if unschedulable {
                "NodeNotSchedulable"
            } else {
                "NodeSchedulable"
            },
            alloc::format!("node/{name} {verb}"),
        );
        self.changed = true;
        // 1.34's node lifecycle controller mirrors `unschedulable` as a NoSchedule taint.
        self.reconcile_no_schedule(at, node);
    }

    /// A condition change, and the NoSchedule taints the node lifecycle controller sets
    /// for it at once ([`World::reconcile_no_schedule`]); a Ready change also waits for
    /// the monitor pass at this moment, which handles the NoExecute
    /// `not-ready`/`unreachable` taints ([`node_lifecycle`]).
    fn set_condition(&mut self, at: Duration, node: usize, condition: &str, status: &str) {
        if condition == "Ready" && self.lifecycle.is_none() {
            self.lifecycle = Some(NodeLifecycle::new(&self.cluster.nodes, self.version));
        }
        let Some(target) = self.nodes.get_mut(node) else {
            return;
        };
        let name = target.name();
        let previous = target.condition(condition).map(ToString::to_string);
        let conditions = target.conditions_mut();
        match conditions
            .iter_mut()
            .find(|existing| existing.type_ == condition)
        {
            Some(existing) => existing.status = status.to_string(),
            None => conditions.push(NodeCondition {
                type_: condition.to_string(),
                status: status.to_string(),
                ..NodeCondition::default()
            }),
        }
        self.event(
            at,
            EventKind::ConditionChanged,
            node_id(name),
            "NodeStatus",
            alloc::format!(
                "condition {condition}: {} -> {status}",
                previous.as_deref().unwrap_or("(none)")
            ),
        );
        self.changed = true;
        self.kubelet_posting(node, condition, status);
        if condition == "Ready" {
            let (before, now) = (Ready::of(previous.as_deref()), Ready::of(Some(status)));
            let was_ready = before == Ready::True;
            if !was_ready && now == Ready::True {
                self.kubelet_back(at, node);
            }
            self.watch_ready(node, was_ready);
            self.plan_monitor(at);
            // The timeout counts from the Ready condition's last transition (`False`)
            // or the kubelet's last heartbeat (`Unknown`), as 1.11's
            // `tryUpdateNodeStatus` notes them: the same status again moves neither.
            let since = self.down_since.get(node).copied().flatten();
            let moved = before != now || since.is_none();
            if let Some(timeout) = self.pod_eviction_timeout.filter(|_| moved) {
                let down = (now != Ready::True).then_some(at);
                self.set_down_since(node, down);
                if down.is_some() {
                    self.plan_monitor(at.saturating_add(timeout));
                }
            }
            self.plan_pod_gc(at, node);
        }
        self.reconcile_no_schedule(at, node);
    }

    /// `doNoScheduleTaintingPass` (`pkg/controller/nodelifecycle/node_lifecycle_controller.go`,
    /// 1.34): on every update of a node the controller works out the NoSchedule taints
    /// its conditions and `spec.unschedulable` call for (`nodeConditionToTaintKeyStatusMap`:
    /// Ready `False` or `Unknown`, a pressure condition or NetworkUnavailable `True`),
    /// and swaps them with the node's NoSchedule taints of those keys (their values are
    /// not compared): the missing ones are added, the others removed, whoever put or
    /// took them. 1.11 does none of it: TaintNodesByCondition was alpha, off by default.
    fn reconcile_no_schedule(&mut self, at: Duration, node: usize) {
        if self.version != Version::Current {
            return;
        }
        let Some(target) = self.nodes.get(node).filter(|target| !target.gone) else {
            return;
        };
        let (wanted, extra) =
            no_schedule_swap(&target.conditions, &target.taints, target.unschedulable);
        let extra: Vec<String> = extra.into_iter().map(String::from).collect();
        for key in extra {
            self.remove_taint(at, node, &key, "NoSchedule");
        }
        for key in wanted {
            self.put_taint(
                at,
                node,
                plain_taint(key, "NoSchedule"),
                "NodeLifecycleController",
                "tainted",
            );
        }
    }

    /// The other conditions a Ready step moves. `Unknown` is the node lifecycle
    /// controller's marking of a node whose kubelet stopped posting, which sets the
    /// pressure conditions to Unknown too, adding those the kubelet never posted
    /// (`tryUpdateNodeHealth` in `pkg/controller/nodelifecycle/node_lifecycle_controller.go`;
    /// 1.11's `tryUpdateNodeStatus` marks OutOfDisk, MemoryPressure and DiskPressure).
    /// Any other Ready status is the kubelet posting again: the conditions come back as
    /// it last posted them. A step setting one of them while the node is marked stands.
    fn kubelet_posting(&mut self, node: usize, condition: &str, status: &str) {
        if condition != "Ready" {
            if let Some(saved) = self.posted.get_mut(&node) {
                saved.retain(|(type_, _)| *type_ != condition);
            }
            return;
        }
        let version = self.version;
        let Some(target) = self.nodes.get_mut(node) else {
            return;
        };
        if status != "Unknown" {
            let saved = self.posted.get_mut(&node).map(core::mem::take);
            for (type_, posted) in saved.unwrap_or_default() {
                let conditions = target.conditions_mut();
                let found = conditions
                    .iter()
                    .position(|existing| existing.type_ == type_);
                match (found, posted) {
                    (Some(index), Some(posted)) => {
                        if let Some(slot) = conditions.get_mut(index) {
                            *slot = posted;
                        }
                    }
                    (Some(index), None) => {
                        conditions.remove(index);
                    }
                    (None, posted) => conditions.extend(posted),
                }
            }
            return;
        }
        let saved = self.posted.entry(node).or_default();
        for &type_ in marked_unknown(version) {
            let conditions = target.conditions_mut();
            let unknown = NodeCondition {
                type_: type_.to_string(),
                status: String::from("Unknown"),
                reason: String::from("NodeStatusUnknown"),
                message: String::from("Kubelet stopped posting node status."),
                last_transition_time: None,
            };
            match conditions
                .iter_mut()
                .find(|existing| existing.type_ == type_)
            {
                Some(existing) if existing.status == "Unknown" => continue,
                Some(existing) => {
                    let posted = core::mem::replace(existing, unknown);
                    saved.push((type_, Some(posted)));
                }
                None => {
                    conditions.push(NodeCondition {
                        reason: String::from("NodeStatusNeverUpdated"),
                        message: String::from("Kubelet never posted node status."),
                        ..unknown
                    });
                    saved.push((type_, None));
                }
            }
        }
    }

    /// What the controllers do when they start on the input, at 0 s before the steps of
    /// that moment. The taint eviction controller handles every node as added
    /// (`handleNodeUpdate` with no old node, `pkg/controller/tainteviction`): a pod that
    /// does not tolerate a NoExecute taint the input's node already carries is deleted at
    /// once, one that tolerates it for a while after that while, counted from now. The
    /// node lifecycle controller's first monitor pass finds the nodes whose Ready
    /// condition is not True (`monitorNodeHealth` sees every node as new): 1.34 queues
    /// them for the NoExecute taint; 1.11 without taint based evictions starts their pod
    /// eviction timeout now. In 1.34 every node, seen as added, has its NoSchedule taints
    /// brought in line with its conditions at once ([`World::reconcile_no_schedule`]). With taint based
    /// evictions the same pass takes the `not-ready` and `unreachable` NoExecute taints
    /// off a ready node (`markNodeAsReachable`), and the taint eviction controller calls
    /// off what they planned. The machine controllers take up the deletion of every
    /// machine the input shows being deleted, and each machine set creates or deletes
    /// machines until it counts its replicas.
    fn start_controllers(&mut self) {
        let start = Duration(0);
        let mut monitor = false;
        let cluster = self.cluster;
        let every_node: Vec<(usize, bool)>;
        let visits = match &cluster.start_nodes {
            Some(nodes) => nodes.as_slice(),
            None => {
                every_node = (0..self.nodes.len()).map(|node| (node, false)).collect();
                every_node.as_slice()
            }
        };
        for &(node, settled) in visits {
            let Some(target) = self.nodes.get(node) else {
                continue;
            };
            let mut tainted = false;
            let mut controllers = false;
            for taint in target
                .taints
                .iter()
                .filter(|taint| taint.effect == "NoExecute")
            {
                tainted = true;
                controllers |= [NOT_READY, UNREACHABLE].contains(&taint.key.as_str());
            }
            let down = ready_taints(target.condition("Ready")).is_some();
            if tainted {
                self.taints_changed(start, node);
            }
            // Every node comes to the NoSchedule pass as added.
            if !settled {
                self.reconcile_no_schedule(start, node);
            }
            if !down {
                if controllers {
                    self.controller_taint_touched(start, node);
                }
                continue;
            }
            if self.lifecycle.is_none() {
                self.lifecycle = Some(NodeLifecycle::new(&self.cluster.nodes, self.version));
            }
            self.watch_ready(node, false);
            monitor = true;
            if let Some(timeout) = self.pod_eviction_timeout {
                self.set_down_since(node, Some(start));
                self.plan_monitor(timeout);
            }
        }
        if monitor {
            self.plan_monitor(start);
        }
        // A machine the input shows being deleted is in the machine controller's deletion
        // path on every reconcile (`Reconcile` in pkg/controller/machine/controller.go,
        // drain_controller.go), so its deletion goes on from where the input left it. A
        // deleting machine stays only while a finalizer holds it, which kubefit takes to
        // be the machine controller's.
        for machine in 0..self.cluster.machines.len() {
            let deleting = self
                .cluster
                .machines
                .get(machine)
                .is_some_and(|machine| machine.metadata.deletion_timestamp.is_some());
            if deleting {
                self.delete_machine(start, machine, false);
            }
        }
        // Each machine set's first reconcile brings its count to its replicas.
        for set in 0..self.cluster.machine_sets.len() {
            self.sync_machine_set(start, set, false);
        }
    }

    /// Notes since when a node has been down (`None`: it is ready), for 1.11's pod
    /// eviction timeout.
    fn set_down_since(&mut self, node: usize, down: Option<Duration>) {
        if self.down_since.len() < self.nodes.len() {
            self.down_since.resize(self.nodes.len(), None);
        }
        if let Some(since) = self.down_since.get_mut(node) {
            *since = down;
        }
    }

    /// The node lifecycle controller's monitor pass over the nodes whose Ready condition
    /// a step set (`processTaintBaseEviction`), then its zone check (`handleDisruption`)
    /// and a tainting pass.
    fn monitor_nodes(&mut self, at: Duration) {
        self.monitor_planned = None;
        let mut queued = Vec::new();
        for index in 0..self.ready_watched.len() {
            let Some(&(node, was_ready)) = self.ready_watched.get(index) else {
                continue;
            };
            let ready_now = self
                .nodes
                .get(node)
                .is_some_and(|target| Ready::of(target.condition("Ready")) == Ready::True);
            if let Some(watched) = self.ready_watched.get_mut(index) {
                watched.1 = ready_now;
            }
            if was_ready != ready_now {
                self.pods_readiness(at, node, was_ready);
            }
            let Some(target) = self.nodes.get(node).filter(|target| !target.gone) else {
                continue;
            };
            let has = |key: &str| {
                target
                    .taints
                    .iter()
                    .any(|taint| taint.key == key && taint.effect == "NoExecute")
            };
            let Some((wanted, opposite)) = ready_taints(target.condition("Ready")) else {
                // `markNodeAsReachable` with taint based evictions; 1.11 without them calls
                // `cancelPodEviction`, which only takes the node out of its zone's queue
                // and leaves any NoExecute taint where it is.
                if self.pod_eviction_timeout.is_none() {
                    self.lift_ready_taints(at, node);
                }
                if let Some(lifecycle) = self.lifecycle.as_mut() {
                    lifecycle.mark_reachable(node);
                }
                continue;
            };
            if let Some(timeout) = self.pod_eviction_timeout {
                // `evictPods` once the node has been down for the timeout (1.11's
                // `monitorNodeStatus`: readyTransitionTimestamp or probeTimestamp plus
                // `podEvictionTimeout`; its pass comes within 5 s after).
                let since = self.down_since.get(node).copied().flatten();
                let due = since.is_some_and(|since| since.saturating_add(timeout) <= at);
                if let Some(lifecycle) = self.lifecycle.as_mut().filter(|_| due) {
                    if lifecycle.mark_for_tainting(node, false) {
                        queued.push(node);
                    }
                }
            } else if has(opposite) {
                // Swapped at once, in one node update (`SwapNodeControllerTaint`).
                self.swap_ready_taint(at, node, wanted, opposite);
            } else if let Some(lifecycle) = self.lifecycle.as_mut() {
                if lifecycle.mark_for_tainting(node, has(wanted)) {
                    queued.push(node);
                }
            }
        }
        let ready: Vec<Option<Ready>> = self
            .nodes
            .iter()
            .map(|target| (!target.gone).then(|| Ready::of(target.condition("Ready"))))
            .collect();
        let changes = self
            .lifecycle
            .as_mut()
            .map(|lifecycle| lifecycle.handle_disruption(at, &ready))
            .unwrap_or_default();
        for change in changes {
            self.zone_changed(at, change);
        }
        self.tainting_pass(at);
        for node in queued {
            self.taint_waits(at, node);
        }
    }

    /// A zone check's outcome (`handleDisruption`): an event; entering master disruption
    /// mode, every node's `not-ready` and `unreachable` NoExecute taints removed
    /// (`markNodeAsReachable`; 1.11 without taint based evictions only empties the
    /// queues, `cancelPodEviction`); leaving it, in 1.11 without taint based evictions,
    /// every node's pod eviction timeout counted again from now (upstream sets each node's
    /// probe and ready transition timestamps to now, in both modes, but only that mode
    /// reads them to evict).
    fn zone_changed(&mut self, at: Duration, change: Change) {
        let entering = change == Change::EnterMasterDisruption;
        let leaving = change == Change::ExitMasterDisruption;
        let timeout = self.pod_eviction_timeout;
        let (object, reason, message) = match change {
            Change::EnterMasterDisruption => (
                String::from("Zone/*"),
                "MasterDisruption",
                String::from(match timeout {
                    None => "no node of any zone is ready: the node lifecycle controller stops tainting and lifts the not-ready and unreachable NoExecute taints until a node is ready again",
                    Some(_) => "no node of any zone is ready: the node lifecycle controller stops deleting the pods of down nodes and forgets those queued until a node is ready again",
                }),
            ),
            Change::ExitMasterDisruption => (
                String::from("Zone/*"),
                "MasterDisruptionEnded",
                String::from(match timeout {
                    None => "a node is ready again: tainting resumes, each zone's next taint one interval from now",
                    Some(_) => "a node is ready again: the pod eviction timeout of every node still down starts again now",
                }),
            ),
            Change::Zone(zone, state) => (
                alloc::format!("Zone/{}", zone_display(&zone)),
                "ZoneStateChanged",
                alloc::format!("zone {} is now {}", zone_display(&zone), state.name()),
            ),
        };
        self.event(at, EventKind::NodeLifecycle, object, reason, message);
        if let Some(timeout) = timeout.filter(|_| leaving) {
            let mut restarted = false;
            for since in self.down_since.iter_mut().flatten() {
                *since = at;
                restarted = true;
            }
            if restarted {
                self.plan_monitor(at.saturating_add(timeout));
            }
        }
        if entering {
            for node in 0..self.nodes.len() {
                if timeout.is_none() {
                    self.lift_ready_taints(at, node);
                }
                // Upstream's passes look at every node: one down since before the timeline
                // is queued again once tainting resumes.
                let down = self.nodes.get(node).is_some_and(|target| {
                    !target.gone && ready_taints(target.condition("Ready")).is_some()
                });
                if down {
                    self.watch_ready(node, false);
                }
            }
        }
    }

    /// A step put or took a taint the node lifecycle controller owns: its next pass (upstream:
    /// within 5 s) takes it off a ready node (`markNodeAsReachable`) and, in 1.34, queues
    /// a node that is not ready for it again. 1.11 without taint based evictions leaves
    /// these taints alone.
    fn controller_taint_touched(&mut self, at: Duration, node: usize) {
        if self.pod_eviction_timeout.is_some() {
            return;
        }
        if self.lifecycle.is_none() {
            self.lifecycle = Some(NodeLifecycle::new(&self.cluster.nodes, self.version));
        }
        let ready = self
            .nodes
            .get(node)
            .is_some_and(|target| Ready::of(target.condition("Ready")) == Ready::True);
        self.watch_ready(node, ready);
        self.plan_monitor(at);
    }

    /// Plans a monitor pass for this moment (one however many changes call for it).
    fn plan_monitor(&mut self, at: Duration) {
        if self.monitor_planned != Some(at) {
            self.monitor_planned = Some(at);
            self.agenda_push(at, Happening::NodeMonitor);
        }
    }

    /// Adds a node to those each monitor pass looks at (`ready`: as the last pass saw it).
    fn watch_ready(&mut self, node: usize, ready: bool) {
        if !self
            .ready_watched
            .iter()
            .any(|&(watched, _)| watched == node)
        {
            self.ready_watched.push((node, ready));
        }
    }

    /// A monitor pass's view of a node's pods: the controller sets Ready to Unknown on a
    /// node that was ready (its kubelet stopped posting) and marks its pods not ready
    /// (`MarkPodsNotReady`), which the disruption budgets count at once; once the node
    /// is ready again its kubelet reports them ready. A kubelet that posts `False`
    /// itself keeps its pods' readiness. Only a `Ready` condition that is `True` is
    /// changed: a pod that lists none (kubefit reads it as ready) is left as it is.
    fn pods_readiness(&mut self, at: Duration, node: usize, was_ready: bool) {
        let Some(target) = self.nodes.get(node) else {
            return;
        };
        let status = target.condition("Ready");
        let name = target.name().to_string();
        let pods = self.pods_on(node);
        if was_ready && status == Some("Unknown") {
            // `RecordNodeStatusChange`.
            self.event(
                at,
                EventKind::ConditionChanged,
                node_id(&name),
                "NodeNotReady",
                alloc::format!("Node {name} status is now: NodeNotReady"),
            );
            if self.marked_not_ready.len() < self.pods.len() {
                self.marked_not_ready.resize(self.pods.len(), false);
            }
            for pod in pods {
                let life = self.life.get(pod);
                let running = life == Some(&Life::Running);
                let stated = self.pods.get(pod).is_some_and(|entry| {
                    entry.pod.status.conditions.ready == crate::model::Readiness::Ready
                });
                let listed = running || matches!(life, Some(Life::Terminating { .. }));
                if !listed || !stated || !self.ready(pod) {
                    continue;
                }
                if let Some(entry) = self.pods.get(pod).filter(|_| running) {
                    self.budgets.lose(&entry.pod, true);
                }
                if let Some(marked) = self.marked_not_ready.get_mut(pod) {
                    *marked = true;
                }
                // 1.34 records an event on each pod it updates; 1.11 does not.
                if self.version == Version::Current {
                    let object = Words::Shared("Pod/", Arc::from(self.key(pod)));
                    let reason = "NodeNotReady";
                    let message = "Node is not ready";
                    self.event(at, EventKind::ConditionChanged, object, reason, message);
                }
            }
        } else if !was_ready && Ready::of(status) == Ready::True {
            for pod in pods {
                let Some(marked) = self.marked_not_ready.get_mut(pod).filter(|marked| **marked)
                else {
                    continue;
                };
                *marked = false;
                if self.life.get(pod) == Some(&Life::Running) && self.ready(pod) {
                    if let Some(entry) = self.pods.get(pod) {
                        self.budgets.restore(&entry.pod);
                    }
                }
            }
        }
    }

    /// `markNodeAsReachable`: the `unreachable` and `not-ready` NoExecute taints go.
    fn lift_ready_taints(&mut self, at: Duration, node: usize) {
        let mut changed = self.remove_taint(at, node, UNREACHABLE, "NoExecute");
        changed |= self.remove_taint(at, node, NOT_READY, "NoExecute");
        if changed {
            self.taints_changed(at, node);
        }
    }

    /// `SwapNodeControllerTaint`: the NoExecute taint for the Ready condition in, the
    /// other out. These are two node updates, the addition first; 1.34's taint eviction
    /// controller queues node names and looks at the node once, as it ends, so kubefit
    /// makes them one update there. 1.11's taint manager queues each update with the
    /// node's taints as that update left them (`nodeUpdateItem` in
    /// `pkg/controller/nodelifecycle/scheduler/taint_manager.go`, until 1.13): it first
    /// sees both taints, then the new one alone.
    fn swap_ready_taint(&mut self, at: Duration, node: usize, wanted: &str, opposite: &str) {
        let taint = plain_taint(wanted, "NoExecute");
        if self.version == Version::Legacy {
            if self.put_taint(at, node, taint, "NodeLifecycleController", "tainted") {
                self.taints_changed(at, node);
            }
            if self.remove_taint(at, node, opposite, "NoExecute") {
                self.taints_changed(at, node);
            }
            return;
        }
        let mut changed = self.remove_taint(at, node, opposite, "NoExecute");
        changed |= self.put_taint(at, node, taint, "NodeLifecycleController", "tainted");
        if changed {
            self.taints_changed(at, node);
        }
    }

    /// `doNoExecuteTaintingPass`: taints the queued nodes whose zones have a token now,
    /// and plans the next pass when one still waits.
    fn tainting_pass(&mut self, at: Duration) {
        let Some((due, next)) = self.lifecycle.as_mut().map(|lifecycle| lifecycle.due(at)) else {
            return;
        };
        for node in due {
            let Some(target) = self.nodes.get(node).filter(|target| !target.gone) else {
                continue;
            };
            // Ready again: nothing to taint.
            if let Some((wanted, opposite)) = ready_taints(target.condition("Ready")) {
                match self.pod_eviction_timeout {
                    Some(_) => self.delete_node_pods(at, node),
                    None => self.swap_ready_taint(at, node, wanted, opposite),
                }
            }
        }
        if let Some(next) = next {
            if self.tainting_planned.is_none_or(|planned| next < planned) {
                self.tainting_planned = Some(next);
                self.agenda_push(next, Happening::TaintingPass);
            }
        }
    }

    /// 1.11 without `TaintBasedEvictions`: the zone's queue lets the controller delete a
    /// down node's pods (`DeletePods` in `pkg/controller/util/node/controller_utils.go`).
    /// It lists every pod whose `spec.nodeName` is the node from the API server (by key,
    /// finished pods too), records one node event when the list is not empty, and deletes
    /// each pod not yet terminating that no DaemonSet selects: a running one with its grace
    /// period (it stays terminating while the node is down, and its controller replaces it
    /// at once), a finished one at once.
    fn delete_node_pods(&mut self, at: Duration, node: usize) {
        let name = self.nodes.get(node).map(NodeRun::name).unwrap_or_default();
        let mut pods = self.pods_on(node);
        pods.extend(self.finished_on(node));
        pods.retain(|&pod| self.listed(pod));
        crate::cluster::in_list_order(&mut pods, |pod| self.key(pod));
        if !pods.is_empty() {
            let message = node_event(name, format_args!("Deleting all Pods from Node {name}."));
            self.event(
                at,
                EventKind::NodeLifecycle,
                node_id(name),
                "DeletingAllPods",
                message,
            );
        }
        let reason = "NodeControllerEviction";
        for pod in pods {
            let Some(entry) = self.pods.get(pod) else {
                continue;
            };
            // Deleted before, by the timeline or in the input (its
            // `deletionGracePeriodSeconds` is set): left to that deletion (`DeletePods`
            // in `pkg/controller/util/node/controller_utils.go`, 1.11).
            let terminating = matches!(self.life.get(pod), Some(Life::Terminating { .. }));
            let marked = entry.deletion.being_deleted
                && entry.pod.metadata.deletion_grace_period_seconds.is_some();
            if terminating || marked || self.daemon_set_selects(&entry.pod) {
                continue;
            }
            let message = alloc::format!(
                "Marking for deletion Pod {} from Node {name}",
                entry.pod.metadata.name
            );
            if self.life.get(pod) == Some(&Life::Elsewhere) {
                self.delete_finished(at, pod, "node-lifecycle", reason, |_| message.into());
            } else {
                self.delete_directly(at, pod, "node-lifecycle", reason, |_| message.into(), None);
            }
        }
    }

    /// An event for a node queued for its NoExecute taint that its zone does not taint
    /// yet.
    fn taint_waits(&mut self, at: Duration, node: usize) {
        let Some(lifecycle) = self.lifecycle.as_ref() else {
            return;
        };
        let Some(next) = lifecycle.queued(node) else {
            return;
        };
        let zone = zone_display(lifecycle.zone_name(node));
        let name = self.nodes.get(node).map(NodeRun::name).unwrap_or_default();
        let (what, acts) = match self.pod_eviction_timeout {
            Some(_) => ("the deletion of its pods", "evict"),
            None => ("its NoExecute taint", "taint"),
        };
        let message = match next {
            Some(next) => alloc::format!(
                "node/{name} waits for {what}: zone {zone} {acts}s one node at a time, the next at {}s",
                next.0 / crate::duration::SECOND
            ),
            None => alloc::format!(
                "node/{name} waits for {what}: zone {zone} is not {acts}ing (partial or full disruption)"
            ),
        };
        self.event(
            at,
            EventKind::NodeLifecycle,
            node_id(name),
            "TaintRateLimited",
            message,
        );
    }

    // The taint eviction controller.

    /// `handleNodeUpdate`: every running pod on the node is looked at again.
    fn taints_changed(&mut self, at: Duration, node: usize) {
        if !self.taint_manager {
            return;
        }
        let mut pods = self.pods_on(node);
        // Finished pods are still assigned to the node: the controller deletes them too.
        pods.extend(self.finished_on(node));
        self.prefetch(&pods);
        for pod in pods {
            if self.listed(pod) {
                self.process_pod(at, node, pod);
            }
        }
    }

    /// The pods bound to `node`, in order (gone ones included: a removed node's are all
    /// gone): the input's, then the replacements bound since.
    fn pods_on(&self, node: usize) -> Vec<usize> {
        let mut pods = self.input_on_node.on(node).to_vec();
        pods.extend_from_slice(self.bound_since.get(node).map_or(&[], Vec::as_slice));
        pods
    }

    /// Reads each entry's name (both ends: it may cross a cache line) and generated-name
    /// base ([`crate::cluster::Deletion`]), pod after pod, before the work starts. A
    /// node's pods lie scattered through memory and have long left the cache: touched
    /// back to back, their loads overlap, where a loop that deletes as it goes waits on
    /// each pod in turn. Wasm has no prefetch instruction; this is one.
    fn prefetch(&self, pods: &[usize]) {
        let first = |text: &str| text.as_bytes().first().copied().map_or(0, usize::from);
        let last = |text: &str| text.as_bytes().last().copied().map_or(0, usize::from);
        let mut touched = 0_usize;
        for entry in pods.iter().filter_map(|pod| self.pods.get(*pod)) {
            touched ^= first(&entry.key) ^ last(&entry.key);
            touched ^= entry.deletion.generated_base.as_deref().map_or(0, first);
        }
        core::hint::black_box(touched);
    }

    /// `processPodOnNode`.
    fn process_pod(&mut self, at: Duration, node: usize, pod: usize) {
        let (Some(target), Some(entry)) = (self.nodes.get(node), self.pods.get(pod)) else {
            return;
        };
        let verdict = taint_manager::verdict(&target.taints, &entry.deletion.tolerations);
        // Named only where an event here says so: most pods of a tainted node are deleted
        // at once, and `terminate` names them itself.
        let name = || String::from(&*entry.key);
        // Each step is a node update of its own, made after the ones before it even at
        // the same moment (their API calls follow each other): a plan an earlier update
        // made is older than this one.
        let planned = self.taint_queue.get(&pod).map(|existing| existing.created);
        match verdict {
            // Tolerated for ever: 1.11 leaves a planned eviction to fire, and a fired
            // worker's key in place (`processPodOnNode` in
            // `pkg/controller/nodelifecycle/scheduler/taint_manager.go` returns before
            // looking at the queue until 1.20, #93722); 1.34 calls it off.
            Verdict::Never if self.version == Version::Legacy => {}
            Verdict::NoTaints | Verdict::Never => {
                if self.taint_queue.remove(&pod).is_some() {
                    self.cancelled_event(at, &name());
                }
                self.set_fired(pod, false);
            }
            // An eviction planned before keeps its time: upstream compares `createdAt +
            // wait` with `now + wait` and keeps the older plan (`taint_eviction.go`), so
            // a later toleration, longer or shorter (even of zero seconds), changes nothing.
            // Nor does one for a pod whose worker fired: `AddWork` finds its key and skips.
            Verdict::After(_) if planned.is_some() || self.fired(pod) => {}
            // Not every taint tolerated: `cancelWorkWithEvent`, then the eviction at once
            // (as for zero seconds without an older plan).
            Verdict::Now | Verdict::After(Duration(0)) => {
                if self.taint_queue.remove(&pod).is_some() {
                    self.cancelled_event(at, &name());
                }
                self.delete_by_taint(at, pod);
            }
            Verdict::After(wait) => {
                let name = name();
                let start = planned.unwrap_or(at);
                let fire = at.saturating_add(wait);
                self.taint_queue.insert(
                    pod,
                    Scheduled {
                        created: start,
                        fire,
                    },
                );
                self.agenda_push(fire, Happening::TaintEviction(pod));
                self.event(
                    at,
                    EventKind::EvictionScheduled,
                    alloc::format!("Pod/{name}"),
                    "TaintManagerEviction",
                    alloc::format!(
                        "the pod tolerates the node's NoExecute taints for {wait}: it is deleted at {fire}"
                    ),
                );
            }
        }
    }

    /// The event of a planned taint eviction called off.
    fn cancelled_event(&mut self, at: Duration, name: &str) {
        self.event(
            at,
            EventKind::EvictionCancelled,
            alloc::format!("Pod/{name}"),
            "TaintManagerEviction",
            alloc::format!("Cancelling deletion of Pod {name}"),
        );
    }

    /// Whether the pod is still listed on its node (`getPodsAssignedToNode`): running,
    /// finished, or deleted and still terminating.
    fn listed(&self, pod: usize) -> bool {
        matches!(
            self.life.get(pod),
            Some(Life::Running | Life::Elsewhere | Life::Terminating { .. })
        )
    }

    /// Deletes `pod` for its node's NoExecute taints.
    fn delete_by_taint(&mut self, at: Duration, pod: usize) {
        match self.life.get(pod) {
            Some(Life::Elsewhere) => {
                self.delete_finished(at, pod, "taint", "TaintManagerEviction", |name| {
                    Words::Shared("Marking for deletion Pod ", Arc::clone(name))
                });
                return;
            }
            // Deleted before and still terminating: the controller deletes it again
            // (`deletePodHandler`), which changes nothing but says so again.
            Some(Life::Terminating { .. }) => {
                if let Some(entry) = self.pods.get(pod) {
                    let name = Arc::clone(&entry.key);
                    let message = Words::Shared("Marking for deletion Pod ", Arc::clone(&name));
                    let object = Words::Shared("Pod/", name);
                    let reason = "TaintManagerEviction";
                    self.event(at, EventKind::PodEvicted, object, reason, message);
                }
                self.worker_fired(pod);
                return;
            }
            _ => {}
        }
        self.delete_directly(
            at,
            pod,
            "taint",
            "TaintManagerEviction",
            |name| Words::Shared("Marking for deletion Pod ", Arc::clone(name)),
            None,
        );
        self.worker_fired(pod);
    }

    /// The worker that deleted `pod` finished. 1.11's queue keeps its key, empty, after a
    /// deletion that went through (`getWrappedWorkerFunc` in
    /// `pkg/controller/nodelifecycle/scheduler/timed_workers.go`), so later updates plan
    /// nothing more for the pod; 1.34's removes it (`pkg/controller/tainteviction`), and
    /// a later taint tolerated for a while plans a deletion again.
    fn worker_fired(&mut self, pod: usize) {
        if self.version == Version::Legacy {
            self.set_fired(pod, true);
        }
    }

    /// Whether the controller's queue keeps the key of a fired worker for `pod`.
    fn fired(&self, pod: usize) -> bool {
        matches!(
            self.life.get(pod),
            Some(Life::Terminating { fired: true, .. })
        )
    }

    /// Notes whether the controller's queue keeps the key of a fired worker for `pod`
    /// ([`World::worker_fired`]; `CancelWork` takes it out).
    fn set_fired(&mut self, pod: usize, to: bool) {
        if let Some(Life::Terminating { fired, .. }) = self.life.get_mut(pod) {
            *fired = to;
        }
    }

    // Pods.

    /// Deletes a running pod without the eviction API (the taint manager, preemption, the
    /// pod garbage collector): its budgets count one healthy pod fewer, as the disruption
    /// controller recounts them.
    fn delete_directly(
        &mut self,
        at: Duration,
        pod: usize,
        cause: &'static str,
        reason: &'static str,
        message: impl FnOnce(&Arc<str>) -> Words,
        grace: Option<Duration>,
    ) {
        // No budget, nothing read: the taint manager deletes tens of thousands of pods.
        if self.life.get(pod) == Some(&Life::Running) && !self.budgets.is_empty() {
            if let Some(entry) = self.pods.get(pod) {
                let ready = self.ready(pod);
                self.budgets.lose(&entry.pod, ready);
            }
        }
        self.terminate(at, pod, cause, reason, message, grace);
    }

    /// Whether the DaemonSet that controls `pod` (if one does) is there for kubectl's
    /// lookup: when the input lists no DaemonSet at all, kubefit takes them all as there.
    fn daemon_set_found(&self, pod: &crate::model::Pod) -> bool {
        let Some(owner) = pod
            .metadata
            .controller()
            .filter(|owner| owner.kind == "DaemonSet")
        else {
            return true;
        };
        let mut daemon_sets = self
            .cluster
            .workloads
            .iter()
            .filter(|(kind, _)| *kind == WorkloadKind::DaemonSet)
            .peekable();
        daemon_sets.peek().is_none()
            || daemon_sets.any(|(_, set)| {
                set.metadata.name == owner.name && set.metadata.namespace == pod.metadata.namespace
            })
    }

    /// Whether a DaemonSet selects `pod`, as 1.11's `DeletePods` asks the
    /// `extensions/v1beta1` DaemonSet lister (`GetPodDaemonSets`): one of the pod's
    /// namespace whose selector, neither missing nor empty, matches the pod's labels,
    /// whoever owns the pod; a pod without labels has none. An input that lists no
    /// DaemonSet at all most likely left them out of the dump: kubefit then counts a pod
    /// whose controller is a DaemonSet as selected, and no other.
    fn daemon_set_selects(&self, pod: &crate::model::Pod) -> bool {
        let mut daemon_sets = self
            .cluster
            .workloads
            .iter()
            .filter(|(kind, _)| *kind == WorkloadKind::DaemonSet)
            .peekable();
        if daemon_sets.peek().is_none() {
            return pod
                .metadata
                .controller()
                .is_some_and(|owner| owner.kind == "DaemonSet");
        }
        let labels = &pod.metadata.labels;
        !labels.is_empty()
            && daemon_sets.any(|(_, set)| {
                set.metadata.namespace == pod.metadata.namespace
                    && set.spec.selector.as_ref().is_some_and(|selector| {
                        !schedule::selection::is_empty(selector)
                            && crate::labels::selector_matches(selector, labels)
                    })
            })
    }

    /// Whether the pod's `Ready` condition is true now: as the input says
    /// ([`budget::counts_as_ready`]), unless the node lifecycle controller marked it not
    /// ready since.
    fn ready(&self, pod: usize) -> bool {
        self.pods
            .get(pod)
            .is_some_and(|entry| ready_now(&self.marked_not_ready, pod, entry))
    }

    /// The pod's `namespace/name` (empty for an index out of range).
    fn key(&self, pod: usize) -> &str {
        self.pods.get(pod).map_or("", |entry| &entry.key)
    }

    /// The input's finished pods (Succeeded or Failed) still assigned to `node`: the
    /// drain and the taint eviction controller list every pod by `spec.nodeName`, and the
    /// other engines never count them.
    fn finished_on(&self, node: usize) -> Vec<usize> {
        self.finished_by_node
            .on(node)
            .iter()
            .copied()
            .filter(|&pod| self.life.get(pod) == Some(&Life::Elsewhere))
            .collect()
    }

    /// The deletion of a finished pod (a drain's eviction, the taint eviction controller's
    /// or the node lifecycle controller's deletion): no budget is asked (`canIgnorePDB`),
    /// the API server deletes it at once (`CheckGracefulDelete`: no grace for a finished
    /// pod), and no controller replaces it. `message` words the eviction from the pod's
    /// `namespace/name`; `reason` is its event's, `None` for a deletion said nothing of
    /// as it starts.
    fn delete_finished(
        &mut self,
        at: Duration,
        pod: usize,
        cause: &'static str,
        reason: impl Into<Option<&'static str>>,
        message: impl FnOnce(&Arc<str>) -> Words,
    ) {
        let Some(entry) = self.pods.get(pod) else {
            return;
        };
        let name = Arc::clone(&entry.key);
        let node: Words = entry.pod.spec.node_name.clone().into();
        let message = message(&name);
        self.deletion_stamps.push(at);
        self.disruption.evictions.push(Eviction {
            pod: Words::shared(&name),
            node,
            at,
            cause: cause.into(),
            rescheduled_to: None,
            replacement: None,
            message: message.clone(),
        });
        let object = Words::Shared("Pod/", name);
        if let Some(reason) = reason.into() {
            self.event(at, EventKind::PodEvicted, object.clone(), reason, message);
        }
        self.event(
            at,
            EventKind::PodDeleted,
            object,
            "Killing",
            "the pod had finished: it is deleted at once",
        );
        self.forget(pod);
        self.noticed_gone(at, pod);
    }

    /// The wall-clock moment the timeline starts at ([`timeline_start`]).
    fn started(&self) -> Option<Duration> {
        *self.started.get_or_init(|| timeline_start(self.cluster))
    }

    /// The deletion the input shows under way on `pod` (`metadata.deletionTimestamp`), if
    /// any, placed on the timeline.
    fn input_deletion(&self, pod: usize) -> Option<Pending> {
        let entry = self.pods.get(pod)?;
        if !entry.deletion.being_deleted {
            return None;
        }
        let metadata = &entry.pod.metadata;
        let stamp = crate::timestamp::parse(metadata.deletion_timestamp.as_deref()?)
            .zip(self.started())
            .map(|(stamp, start)| Duration(stamp.since_epoch().0.saturating_sub(start.0)));
        // `BeforeDelete` reads a negative grace period as one second (1.11 kept it, and
        // its store deletes such a pod at once, as zero).
        let grace = metadata
            .deletion_grace_period_seconds
            .map(|seconds| grace_period(self.version, Some(Duration::from_seconds(seconds)), None))
            .filter(|grace| grace.0 > 0);
        // The input is read as the timeline starts: the deletion began by then, so its
        // deadline is at most its grace period away.
        let stamp = match (stamp, grace) {
            (Some(stamp), Some(grace)) => stamp.min(grace),
            (Some(stamp), None) => stamp,
            (None, grace) => grace.unwrap_or_default(),
        };
        Some(Pending { stamp, grace })
    }

    /// Deletes a pod: it terminates after its grace period, and its controller creates a
    /// replacement. `message` words the eviction from the pod's `namespace/name`; `reason`
    /// is its event's (`None`: nothing is said as the deletion starts); `asked` is the
    /// grace period the deleter asks for, if it asks one.
    ///
    /// A pod the input shows being deleted was replaced when that deletion began (its
    /// controller stopped counting it then: `IsPodActive` in
    /// `pkg/controller/controller_utils.go`), so nothing replaces it now but a StatefulSet
    /// once it is gone; the new deletion only shortens the one under way ([`Pending`]).
    fn terminate(
        &mut self,
        at: Duration,
        pod: usize,
        cause: impl Into<Cow<'static, str>>,
        reason: impl Into<Option<&'static str>>,
        message: impl FnOnce(&Arc<str>) -> Words,
        asked: Option<Duration>,
    ) {
        if self.life.get(pod) != Some(&Life::Running) {
            return;
        }
        let pending = self.input_deletion(pod);
        let Some(entry) = self.pods.get(pod) else {
            return;
        };
        // A copy of its own, not the entry's: the pod's memory is cold, and the evictions'
        // records and events read it again when the pod is gone.
        let name: Arc<str> = Arc::from(&*entry.key);
        let controller = entry.deletion.controller;
        let stateful = controller == Some(Controller::StatefulSet);
        // A StatefulSet recreates the pod, under the same name, once it is gone.
        let replaced_now = controller == Some(Controller::Other) && pending.is_none();
        let stamp = match pending {
            Some(pending) => pending.due(asked),
            None => {
                let grace = grace_period(self.version, asked, entry.deletion.grace_seconds);
                (grace != Duration(0)).then(|| at.saturating_add(grace))
            }
        };
        let due = stamp.map(|stamp| stamp.max(at));
        let node = self
            .node_of
            .get(pod)
            .copied()
            .flatten()
            .and_then(|node| self.nodes.get(node));
        let node_words =
            node.map_or_else(|| entry.pod.spec.node_name.clone().into(), NodeRun::words);
        let goes = if due.is_none() {
            Goes::AtOnce
        } else if node.is_some_and(|node| Ready::of(node.condition("Ready")) == Ready::True) {
            // A node that lists no Ready condition counts as ready, as everywhere in
            // the timeline ([`Ready::of`]).
            Goes::AfterGrace
        } else {
            Goes::Never
        };
        let message = message(&name);
        let eviction = self.disruption.evictions.len();
        self.deletion_stamps.push(stamp.unwrap_or(at));
        self.disruption.evictions.push(Eviction {
            pod: Words::shared(&name),
            node: node_words,
            at,
            cause: cause.into(),
            rescheduled_to: None,
            replacement: None,
            message: message.clone(),
        });
        if let Some(life) = self.life.get_mut(pod) {
            *life = Life::Terminating {
                goes,
                eviction,
                controller,
                held: entry.deletion.held_by_finalizers,
                fired: false,
            };
        }
        if goes != Goes::Never {
            self.agenda_push(due.unwrap_or(at), Happening::PodGone(pod));
        }
        if let Some(node) = self.node_of.get(pod).copied().flatten() {
            self.plan_pod_gc(at, node);
        }
        if let Some((set, ordinal)) = stateful.then(|| self.stateful_identity(pod)).flatten() {
            self.set_pods.entry(set).or_default().push((ordinal, pod));
        }
        // A deletion the taint eviction controller planned stays planned: the pod is still
        // there until it is gone (`pod_gone` calls it off then).
        if let Some(reason) = reason.into() {
            self.event(
                at,
                EventKind::PodEvicted,
                Words::Shared("Pod/", Arc::clone(&name)),
                reason,
                message,
            );
        }
        if replaced_now {
            self.controller_lost(at, pod, eviction);
        }
    }

    /// The controller of `pod`, deleted now, stops counting it (`IsPodActive` in
    /// `pkg/controller/controller_utils.go`). A ReplicaSet or ReplicationController of the
    /// input replaces it only while it has fewer active pods than it wants
    /// (`manageReplicas` in `pkg/controller/replicaset/replica_set.go`), a Job of the input
    /// likewise against its `wantActive` (1.34: after its backoff, [`World::sync_job`]);
    /// any other controller, or one missing from the input, replaces it at once.
    fn controller_lost(&mut self, at: Duration, pod: usize, eviction: usize) {
        match self.counting_controller(pod) {
            Some((job, WorkloadKind::Job)) if self.version == Version::Current => {
                // `TerminatingOrFailed`: the pod counts as finished at once; `Failed`:
                // once it is gone (`pod_gone`).
                if self.job_replacement(pod) == Some((job, JobReplacement::WhenDeleted)) {
                    self.job_pod_finished(at, pod, eviction, job);
                }
            }
            Some((index, _)) => {
                // The pod leaves the active count; a replacement that makes up for it
                // takes its place there.
                let replaced = self.pod_count(index).is_none_or(|count| {
                    let short = count.active.saturating_sub(1) < count.want;
                    if !short {
                        count.active = count.active.saturating_sub(1);
                    }
                    short
                });
                if replaced {
                    self.replace(pod, eviction, false);
                }
            }
            None => self.replace(pod, eviction, false),
        }
    }

    /// The ReplicaSet, ReplicationController or Job of the input that controls `pod`
    /// (its position in the workloads), with its kind.
    fn counting_controller(&self, pod: usize) -> Option<(usize, WorkloadKind)> {
        if self.cluster.workloads.is_empty() {
            return None;
        }
        let entry = self.pods.get(pod)?;
        let workloads = &self.cluster.workloads;
        let index = crate::owners::controller_object(workloads, &entry.pod)?;
        let (kind, _) = workloads.get(index)?;
        matches!(
            kind,
            WorkloadKind::ReplicaSet | WorkloadKind::ReplicationController | WorkloadKind::Job
        )
        .then_some((index, *kind))
    }

    /// The pods the workload at `index` wants and its active ones, as the timeline left
    /// them; `None` when the cluster counted none for it.
    fn pod_count(&mut self, index: usize) -> Option<&mut crate::owners::Replicas> {
        let start = self.cluster.replicas.get(index).copied().flatten();
        match self.pod_counts.entry(index) {
            alloc::collections::btree_map::Entry::Occupied(entry) => Some(entry.into_mut()),
            alloc::collections::btree_map::Entry::Vacant(entry) => {
                start.map(|start| entry.insert(start))
            }
        }
    }

    /// A StatefulSet's pod is gone: its set recreates it under its name when its turn
    /// comes ([`World::sync_stateful`]), unless the set of the input wants fewer replicas
    /// than its ordinal (`updateStatefulSet` in
    /// `pkg/controller/statefulset/stateful_set_control.go` makes only the ordinals below
    /// `spec.replicas`).
    fn stateful_gone(&mut self, pod: usize, eviction: usize) {
        let Some((set, ordinal)) = self.stateful_identity(pod) else {
            self.replace(pod, eviction, true);
            return;
        };
        let replicas = self
            .stateful_set(&set)
            .map(|workload| workload.spec.replicas.unwrap_or(1));
        if replicas.is_some_and(|replicas| u64::try_from(replicas).map_or(true, |r| ordinal >= r)) {
            return;
        }
        self.seed_set_pods(&set);
        self.set_missing
            .entry(set.clone())
            .or_default()
            .insert(ordinal, (pod, eviction));
        // Placed with the other replacements of this moment.
        self.sync_stateful(&set);
    }

    /// The StatefulSet (`namespace/name`) of a pod it controls, and the pod's ordinal
    /// (`getParentNameAndOrdinal`: the digits after the name's last dash).
    fn stateful_identity(&self, pod: usize) -> Option<(String, u64)> {
        let metadata = &self.pods.get(pod)?.pod.metadata;
        let owner = metadata.controller()?;
        let ordinal = metadata.name.rsplit_once('-')?.1.parse().ok()?;
        Some((
            alloc::format!("{}/{}", metadata.namespace, owner.name),
            ordinal,
        ))
    }

    /// A StatefulSet recreates its missing pods, lowest ordinal first
    /// (`updateStatefulSet` in `pkg/controller/statefulset/stateful_set_control.go`).
    /// Under the default `OrderedReady` policy it creates one and only when every pod of
    /// a lower ordinal is running, ready and available and none is terminating (a
    /// replacement is ready once bound; [`World::ordinal_blocked`]); under `Parallel`,
    /// all of them at once. Without rescheduling
    /// nothing becomes ready: all are named at once. True if it created a pod.
    fn sync_stateful(&mut self, set: &str) -> bool {
        let parallel = !self.reschedule || self.parallel_set(set);
        let mut created = false;
        loop {
            let lowest = self
                .set_missing
                .get(set)
                .and_then(BTreeMap::first_key_value);
            let Some((&ordinal, &(pod, eviction))) = lowest else {
                return created;
            };
            if !parallel && self.ordinal_blocked(set, ordinal) {
                return created;
            }
            if let Some(missing) = self.set_missing.get_mut(set) {
                missing.remove(&ordinal);
            }
            let index = self.pods.len();
            self.replace(pod, eviction, true);
            if self.pods.len() > index {
                created = true;
                if let Some(pods) = self.set_pods.get_mut(set) {
                    pods.push((ordinal, index));
                }
            }
        }
    }

    /// Whether a StatefulSet of the input with this `namespace/name` asks for the
    /// `Parallel` pod management policy.
    fn parallel_set(&self, set: &str) -> bool {
        self.stateful_set(set).is_some_and(|workload| {
            workload.spec.pod_management_policy.as_deref() == Some("Parallel")
        })
    }

    /// The StatefulSet of the input with this `namespace/name`.
    fn stateful_set(&self, set: &str) -> Option<&'c crate::model::Workload> {
        let cluster = self.cluster;
        let name = set.split_once('/')?;
        cluster.workloads.iter().find_map(|(kind, workload)| {
            (*kind == WorkloadKind::StatefulSet
                && name == (&*workload.metadata.namespace, &*workload.metadata.name))
                .then_some(workload)
        })
    }

    /// Adds the set's running pods of the input the timeline has not touched to
    /// `set_pods`, once per set: a pod the input shows not ready holds an `OrderedReady`
    /// set back too.
    fn seed_set_pods(&mut self, set: &str) {
        if !self.sets_seeded.insert(String::from(set)) {
            return;
        }
        let known: BTreeSet<usize> = (self.set_pods.get(set).into_iter().flatten())
            .map(|&(_, pod)| pod)
            .collect();
        let cluster = self.cluster;
        let by_set = self
            .input_set_pods
            .get_or_insert_with(|| input_set_pods(cluster));
        let listed = set
            .split_once('/')
            .and_then(|(namespace, name)| by_set.get(&(namespace, name)));
        let life = &self.life;
        let found: Vec<(u64, usize)> = (listed.into_iter().flatten())
            .filter(|(_, pod)| !known.contains(pod) && life.get(*pod) == Some(&Life::Running))
            .copied()
            .collect();
        self.set_pods
            .entry(String::from(set))
            .or_default()
            .extend(found);
    }

    /// Whether a pod of a lower ordinal than `ordinal` holds an `OrderedReady` set back
    /// (`isRunningAndReady`, `isRunningAndAvailable`, `isTerminating` in
    /// `pkg/controller/statefulset/stateful_set_utils.go`): terminating, waiting for a
    /// node, not ready (so marked, or so in the input), or ready for less than the set's
    /// `minReadySeconds` (a pod of the input counts as ready long since).
    fn ordinal_blocked(&self, set: &str, ordinal: u64) -> bool {
        let pods = self.set_pods.get(set);
        pods.into_iter().flatten().any(|&(lower, pod)| {
            lower < ordinal
                && match self.life.get(pod) {
                    Some(Life::Terminating { .. } | Life::Waiting) => true,
                    Some(Life::Running) => !self.ready(pod) || self.not_available.contains(&pod),
                    _ => false,
                }
        })
    }

    /// The 1.34 Job of the input that owns `pod` and when it replaces it; `None` for any
    /// other pod, and in OpenShift 3.11, whose Job controller (1.11) counts a deleted pod
    /// as a ReplicaSet does. A Job missing from the input leaves its pods replaced at once:
    /// its backoff limit and failure policy are unknown.
    fn job_replacement(&self, pod: usize) -> Option<(usize, JobReplacement)> {
        if self.version == Version::Legacy || self.cluster.workloads.is_empty() {
            return None;
        }
        let entry = self.pods.get(pod)?;
        let workloads = &self.cluster.workloads;
        let job = crate::owners::controller_object(workloads, &entry.pod)?;
        let (WorkloadKind::Job, workload) = workloads.get(job)? else {
            return None;
        };
        let when = if crate::owners::only_replaces_failed(workload) {
            JobReplacement::WhenGone
        } else {
            JobReplacement::WhenDeleted
        };
        Some((job, when))
    }

    /// A pod of the 1.34 Job at `job` is no longer active: deleted (`TerminatingOrFailed`)
    /// or gone (`Failed`). If it still carries the Job's tracking finalizer, the Job counts
    /// it failed, finished at `at` (`getNewFinishedPods`, `getValidPodsWithFilter`; the
    /// moment of its deletion or the moment its kubelet stopped it: `getFinishedTime` in
    /// `pkg/controller/job/backoff_utils.go`), in its backoff record; one without it
    /// counts for nothing and is replaced at the next sync. The Job syncs once the other
    /// happenings of this moment are done.
    fn job_pod_finished(&mut self, at: Duration, pod: usize, eviction: usize, job: usize) {
        let tracked = self.pods.get(pod).is_some_and(|entry| {
            (entry.pod.metadata.finalizers.iter()).any(|name| name == crate::owners::JOB_TRACKING)
        });
        if let Some(count) = self.pod_count(job) {
            count.active = count.active.saturating_sub(1);
        }
        let run = self.jobs.entry(job).or_default();
        if run.failed {
            return;
        }
        if tracked {
            run.failures = run.failures.saturating_add(1);
            run.last_failure = run.last_failure.max(at);
        }
        run.owed.push_back((pod, eviction));
        if run.planned != Some(at) {
            run.planned = Some(at);
            self.agenda_push(at, Happening::JobSync(job));
        }
    }

    /// The 1.34 Job at `job` syncs (`syncJob` and `manageJob` in
    /// `pkg/controller/job/job_controller.go`). Past its backoff limit it fails
    /// (`BackoffLimitExceeded`): it creates nothing and deletes its active pods. Otherwise,
    /// once its backoff has passed since its last failure (`getRemainingTime`), it creates
    /// at once all the pods it misses of `wantActive`; before, it syncs again then.
    fn sync_job(&mut self, at: Duration, job: usize) {
        let Some((_, workload)) = self.cluster.workloads.get(job) else {
            return;
        };
        let limit = workload.spec.backoff_limit.unwrap_or(DEFAULT_BACKOFF_LIMIT);
        let counted = workload.status.failed.unwrap_or(0);
        let Some(run) = self.jobs.get_mut(&job) else {
            return;
        };
        if run.planned == Some(at) {
            run.planned = None;
        }
        if run.failed {
            return;
        }
        if counted.saturating_add(run.failures) > limit {
            run.failed = true;
            run.owed.clear();
            self.fail_job(at, job);
            return;
        }
        let due = if run.failures == 0 {
            at
        } else {
            run.last_failure.saturating_add(job_backoff(run.failures))
        };
        if due > at {
            if run.planned != Some(due) {
                run.planned = Some(due);
                self.agenda_push(due, Happening::JobSync(job));
            }
            return;
        }
        let owed = core::mem::take(&mut run.owed);
        let missing = self
            .pod_count(job)
            .map_or(owed.len(), |count| count.want.saturating_sub(count.active));
        for (pod, eviction) in owed.into_iter().take(missing) {
            if let Some(count) = self.pod_count(job) {
                count.active = count.active.saturating_add(1);
            }
            self.replace(pod, eviction, false);
        }
    }

    /// The 1.34 Job at `job` failed: it deletes its running pods (`deleteActivePods`),
    /// each with its own grace period, and words each deletion as `DeletePod` in
    /// `pkg/controller/controller_utils.go` does.
    fn fail_job(&mut self, at: Duration, job: usize) {
        let pods: Vec<usize> = (0..self.pods.len())
            .filter(|&pod| self.life.get(pod) == Some(&Life::Running))
            .filter(|&pod| {
                self.counting_controller(pod)
                    .is_some_and(|(index, _)| index == job)
            })
            .collect();
        for pod in pods {
            self.delete_directly(
                at,
                pod,
                "job",
                "SuccessfulDelete",
                |name| {
                    let name = name.split_once('/').map_or(&**name, |(_, name)| name);
                    alloc::format!("Deleted pod: {name}").into()
                },
                None,
            );
        }
    }

    /// A node's kubelet posts Ready again: it finds the pods deleted while it was away
    /// (their `deletionTimestamp`), stops them with their grace period and has their
    /// objects deleted (the status manager's `canBeDeleted`), so they are gone once that
    /// has passed. (The grace period is the pod's own: one a drain asked for is not
    /// kept.)
    fn kubelet_back(&mut self, at: Duration, node: usize) {
        for pod in self.pods_on(node) {
            let Some(Life::Terminating { goes, .. }) = self.life.get_mut(pod) else {
                continue;
            };
            if *goes != Goes::Never {
                continue;
            }
            *goes = Goes::AfterGrace;
            let seconds = self
                .pods
                .get(pod)
                .and_then(|entry| entry.deletion.grace_seconds);
            let grace = grace_period(self.version, None, seconds);
            self.agenda_push(at.saturating_add(grace), Happening::PodGone(pod));
        }
    }

    /// A pod still terminating deleted again with a grace period of zero (`how`: by
    /// whom): `BeforeDelete` lets a new deletion shorten the pending one, and zero
    /// removes the object at once, its kubelet reachable or not.
    fn delete_at_once(&mut self, at: Duration, pod: usize, how: Goes) {
        let Some(Life::Terminating { goes, .. }) = self.life.get_mut(pod) else {
            return;
        };
        if !matches!(
            *goes,
            Goes::AtOnce | Goes::Collected | Goes::Orphaned | Goes::Held
        ) {
            *goes = how;
            self.agenda_push(at, Happening::PodGone(pod));
        }
    }

    /// Calls for the pod garbage collector's next pass when `node` is one it clears
    /// (1.34 only: [`pod_gc`]).
    fn plan_pod_gc(&mut self, at: Duration, node: usize) {
        // Called for every pod deleted: the cheap checks first.
        if self.version != Version::Current || self.gc_planned.is_some_and(|next| next <= at) {
            return;
        }
        let clears = self.nodes.get(node).is_some_and(|target| {
            !target.gone
                && pod_gc::clears(
                    || Ready::of(target.condition("Ready")) == Ready::True,
                    &target.taints,
                )
        });
        if clears {
            self.plan_pod_gc_pass(at);
        }
    }

    /// Calls for the pod garbage collector's first pass at or after `at`, unless one
    /// is planned by then (one planned later still runs, and finds what is due then).
    fn plan_pod_gc_pass(&mut self, at: Duration) {
        let next = pod_gc::next_pass(at, self.gc_last);
        if self.gc_planned.is_some_and(|planned| planned <= next) {
            return;
        }
        self.gc_planned = Some(next);
        self.agenda_push(next, Happening::PodGc);
    }

    /// A pass. `gcTerminating` (1.34): the terminating pods of every node not ready and
    /// out of service are deleted at once, in upstream's order (creation, then name; the
    /// replacements made on the timeline after the input's pods). Then `gcOrphaned`.
    fn pod_gc_pass(&mut self, at: Duration) {
        self.gc_planned = None;
        self.gc_last = Some(at);
        let mut pods = Vec::new();
        // 1.11 has no `gcTerminating`.
        let terminating = self.version == Version::Current;
        for (node, target) in self.nodes.iter().enumerate() {
            let ready = || Ready::of(target.condition("Ready")) == Ready::True;
            if !terminating || target.gone || !pod_gc::clears(ready, &target.taints) {
                continue;
            }
            pods.extend(
                self.pods_on(node)
                    .into_iter()
                    .filter(|&pod| matches!(self.life.get(pod), Some(Life::Terminating { .. }))),
            );
        }
        // `byEvictionAndCreationTimestamp` (a kubelet's evicted pods, first there, have
        // finished: none is terminating here). Each key is read once.
        let input = self.cluster.pods.len();
        let keys: Vec<_> = pods
            .iter()
            .map(|&pod| {
                let metadata = self.pods.get(pod).map(|entry| &entry.pod.metadata);
                let created = metadata.filter(|_| pod < input).and_then(|metadata| {
                    crate::timestamp::parse(metadata.creation_timestamp.as_deref()?)
                });
                let name = metadata.map(|metadata| metadata.name.as_str());
                (pod.checked_sub(input), created, name)
            })
            .collect();
        let mut order: Vec<usize> = (0..pods.len()).collect();
        crate::cluster::in_list_order(&mut order, |index| keys.get(index));
        let pods: Vec<usize> = order
            .into_iter()
            .filter_map(|index| pods.get(index).copied())
            .collect();
        for pod in pods {
            self.delete_at_once(at, pod, Goes::Collected);
        }
        self.gc_orphaned(at);
    }

    /// `gcOrphaned`: the pods of removed nodes. 1.34 quarantines a node the first pass
    /// finds missing and deletes its pods at the first pass after that; 1.11 deletes them
    /// at the first pass ([`pod_gc`]).
    fn gc_orphaned(&mut self, at: Duration) {
        let legacy = self.version == Version::Legacy;
        let mut due = Vec::new();
        let mut next: Option<Duration> = None;
        for (node, quarantine) in &mut self.orphaned {
            match *quarantine {
                None if legacy => due.push(*node),
                Some(end) if end <= at => due.push(*node),
                Some(end) => next = Some(next.map_or(end, |next| next.min(end))),
                None => {
                    let end = at.saturating_add(pod_gc::QUARANTINE);
                    *quarantine = Some(end);
                    next = Some(next.map_or(end, |next| next.min(end)));
                }
            }
        }
        self.orphaned.retain(|(node, _)| !due.contains(node));
        if let Some(next) = next {
            self.plan_pod_gc_pass(next);
        }
        let mut pods: Vec<usize> = due
            .into_iter()
            .flat_map(|node| self.pods_on(node))
            .collect();
        crate::cluster::in_list_order(&mut pods, |pod| self.key(pod));
        self.prefetch(&pods);
        for pod in pods {
            match self.life.get(pod) {
                Some(Life::Running) if legacy => {
                    // 1.11 deletes the pod without marking it (no DisruptionTarget).
                    self.delete_directly(
                        at,
                        pod,
                        "pod-gc",
                        "PodGC",
                        |name| Words::Shared("PodGC is force deleting Pod: ", Arc::clone(name)),
                        Some(Duration(0)),
                    );
                }
                Some(Life::Running) => self.delete_directly(
                    at,
                    pod,
                    "pod-gc",
                    "DeletionByPodGC",
                    |_| Words::Fixed("PodGC: node no longer exists"),
                    Some(Duration(0)),
                ),
                Some(Life::Terminating { .. }) => self.delete_at_once(at, pod, Goes::Orphaned),
                _ => {}
            }
        }
    }

    fn pod_gone(&mut self, at: Duration, pod: usize) {
        let Some(&Life::Terminating {
            goes: goes @ (Goes::AfterGrace | Goes::AtOnce | Goes::Collected | Goes::Orphaned),
            eviction,
            controller,
            held,
            ..
        }) = self.life.get(pod)
        else {
            return;
        };
        // Its kubelet went away before the grace period ended: nobody confirms the pod
        // stopped, and it waits for the kubelet to come back ([`World::kubelet_back`]).
        let node = self.node_of.get(pod).copied().flatten();
        let ready = |node: usize| {
            self.nodes
                .get(node)
                .is_some_and(|target| Ready::of(target.condition("Ready")) == Ready::True)
        };
        if goes == Goes::AfterGrace && node.is_some_and(|node| !ready(node)) {
            if let Some(Life::Terminating { goes, .. }) = self.life.get_mut(pod) {
                *goes = Goes::Never;
            }
            return;
        }
        if held {
            // The object stays, terminating, on its node: a StatefulSet waits for it
            // (`processReplica`), the drains and the pod garbage collector still see it.
            // Its kubelet stopped it all the same (phase Failed), which is what a Job
            // that waits for its pods' failure counts.
            if let Some(Life::Terminating { goes, .. }) = self.life.get_mut(pod) {
                *goes = Goes::Held;
            }
            if let Some((job, JobReplacement::WhenGone)) = self.job_replacement(pod) {
                self.job_pod_finished(at, pod, eviction, job);
            }
            return;
        }
        self.forget(pod);
        // Named from its eviction: the pod's own metadata has long left the cache.
        let Some(record) = self.disruption.evictions.get(eviction) else {
            return;
        };
        let object = record.pod.prefixed("Pod/");
        // A StatefulSet's pod comes back under its name; a Job that waits for its pods
        // to be gone stops counting it now.
        if controller == Some(Controller::StatefulSet) {
            self.stateful_gone(pod, eviction);
        } else if let Some((job, JobReplacement::WhenGone)) = self.job_replacement(pod) {
            self.job_pod_finished(at, pod, eviction, job);
        }
        let message = match goes {
            Goes::AtOnce => "grace period 0: the API server deleted the pod at once",
            Goes::Collected => {
                "PodGC force-deleted the pod: its node is not ready and out of service"
            }
            Goes::Orphaned => "PodGC force-deleted the pod: its node no longer exists",
            _ => "the pod's containers stopped and the pod is gone",
        };
        self.event(at, EventKind::PodDeleted, object, "Killing", message);
        self.noticed_gone(at, pod);
        self.changed = true;
        // Its DaemonSet hears of the deletion (`deletePod`) and syncs.
        let daemon = controller == Some(Controller::DaemonSet);
        let set = daemon.then(|| self.daemon_set_of(pod)).flatten();
        if let (Some(set), Some(node)) = (set, node) {
            self.daemon_lost.insert((set, node), (pod, eviction));
            self.sync_daemon_node(at, set, node);
        }
        self.drains_see_gone(at, pod);
    }

    /// The DaemonSet of the input (its position in the workloads) that controls `pod`.
    fn daemon_set_of(&self, pod: usize) -> Option<usize> {
        let entry = self.pods.get(pod)?;
        if entry.deletion.controller != Some(Controller::DaemonSet) {
            return None;
        }
        crate::owners::controller_object(&self.cluster.workloads, &entry.pod)
    }

    /// A node's taints changed: each DaemonSet of the input looks at it again (`updateNode`
    /// in `pkg/controller/daemon/daemon_controller.go` queues every DaemonSet whose
    /// `NodeShouldRunDaemonPod` changed; one that did not change has nothing to do).
    fn daemon_node_changed(&mut self, at: Duration, node: usize) {
        if self.daemon_lost.is_empty() {
            return;
        }
        let sets: Vec<usize> = (self.daemon_lost.keys())
            .filter(|(_, lost_on)| *lost_on == node)
            .map(|(set, _)| *set)
            .collect();
        for set in sets {
            self.sync_daemon_node(at, set, node);
        }
    }

    /// The DaemonSet at `set` syncs `node` (`manage` and `podsShouldBeOnNode`): where
    /// `NodeShouldRunDaemonPod` says it should run (its tolerations against the node's
    /// NoSchedule and NoExecute taints, `tolerationSeconds` aside) and no pod of the set
    /// is there (a terminating one counts until it is gone), it creates one: in 1.34
    /// pinned to the node for the scheduler, in 1.11 bound there when the node has room
    /// for it (the controller's own `GeneralPredicates`; without room it creates none).
    /// The timeline replaces the pods it saw go: a node the input shows without the
    /// set's pod got its pending one when the cluster was built.
    fn sync_daemon_node(&mut self, at: Duration, set: usize, node: usize) {
        let Some(&(old, eviction)) = self.daemon_lost.get(&(set, node)) else {
            return;
        };
        let (Some((WorkloadKind::DaemonSet, workload)), Some(target)) =
            (self.cluster.workloads.get(set), self.nodes.get(node))
        else {
            return;
        };
        if target.gone
            || !crate::owners::daemon_should_run_on(workload, &target.to_node(), self.version)
        {
            return;
        }
        let node_name = target.name();
        let life = &self.life;
        let alive = |pod: usize| {
            matches!(
                life.get(pod),
                Some(Life::Running | Life::Terminating { .. } | Life::Waiting)
            )
        };
        let on_node = self.pods_on(node);
        let exists = (on_node.iter())
            .any(|&pod| alive(pod) && self.daemon_set_of(pod) == Some(set))
            || (self.daemon_made.iter())
                .any(|&(made_for, made_on, pod)| (made_for, made_on) == (set, node) && alive(pod));
        if exists {
            return;
        }
        if self.version == Version::Legacy && !self.daemon_fits(old, set, node, &on_node) {
            return;
        }
        self.daemon_lost.remove(&(set, node));
        let made = self.pods.len();
        self.replace(old, eviction, false);
        if self.pods.len() > made {
            self.daemon_made.push((set, node, made));
            if self.version == Version::Legacy {
                // Created bound: no scheduler, and the event is the controller's
                // (`CreatePodsOnNode` in `pkg/controller/controller_utils.go`).
                let created = self.pods.get(made).map(|entry| {
                    let pod = &entry.pod.metadata;
                    alloc::format!("Created pod: {}", pod.name)
                });
                let object = alloc::format!(
                    "DaemonSet/{}/{}",
                    workload.metadata.namespace,
                    workload.metadata.name
                );
                self.event(
                    at,
                    EventKind::PodRescheduled,
                    object,
                    "SuccessfulCreate",
                    created.unwrap_or_default(),
                );
                self.waiting.retain(|&pod| pod != made);
                self.bind(at, made, node_name, false);
            }
        }
    }

    /// 1.11's DaemonSet controller checks its pod's `GeneralPredicates` itself against
    /// the node's other pods, terminating ones included (`nodeShouldRunDaemonPod` in
    /// `pkg/controller/daemon/daemon_controller.go`, release-1.11).
    fn daemon_fits(&self, old: usize, set: usize, node: usize, on_node: &[usize]) -> bool {
        let (Some(entry), Some(target)) = (self.pods.get(old), self.nodes.get(node)) else {
            return false;
        };
        let name = entry.pod.metadata.name.as_str();
        let Some(pod) =
            crate::owners::replacement(&self.cluster.workloads, &entry.pod, name, self.version)
        else {
            return false;
        };
        let others: Vec<&crate::model::Pod> = (on_node.iter())
            .filter(|&&other| {
                matches!(
                    self.life.get(other),
                    Some(Life::Running | Life::Terminating { .. })
                ) && self.daemon_set_of(other) != Some(set)
            })
            .filter_map(|&other| self.pods.get(other).map(|entry| &*entry.pod))
            .collect();
        crate::owners::fits_among(&pod, &target.to_node(), &others)
    }

    /// The taint eviction controller notices a pod is gone (`handlePodUpdate`, not found):
    /// a deletion it still planned is called off, with its event.
    fn noticed_gone(&mut self, at: Duration, pod: usize) {
        if self.taint_queue.remove(&pod).is_some() {
            let name = String::from(self.key(pod));
            self.cancelled_event(at, &name);
        }
    }

    /// Takes a pod off its node for good.
    fn forget(&mut self, pod: usize) {
        if let Some(life) = self.life.get_mut(pod) {
            *life = Life::Gone;
        }
        self.life_changed(pod);
    }

    /// Notes a change of a pod's life for the view (which takes every pod as it stands
    /// when it is made).
    fn life_changed(&mut self, pod: usize) {
        if self.view.is_some() {
            self.unfollowed.push(pod);
        }
    }

    /// The controller's new pod for the pod of `eviction`, not bound (a StatefulSet's
    /// keeps the name). Without rescheduling only its name is recorded.
    fn replace(&mut self, pod: usize, eviction: usize, stateful: bool) {
        let (Some(old), Some(record)) =
            (self.pods.get(pod), self.disruption.evictions.get(eviction))
        else {
            return;
        };
        let replacement = if stateful {
            record.pod.clone()
        } else {
            let suffix = crate::owners::suffix_of_digest(old.deletion.name_seed, eviction);
            match &old.deletion.generated_base {
                None => Words::tailed(&old.key, &["-", suffix.as_str()]),
                Some(base) => Words::tailed(base, &[suffix.as_str()]),
            }
        };
        if self.reschedule {
            let key = (!stateful).then(|| replacement.to_string());
            let own_name = key
                .as_deref()
                .and_then(|key| key.split_once('/'))
                .map(|(_, name)| name);
            // Made from its controller's template when the input has the controller
            // (`GetPodFromTemplate`); a dump without it leaves the old pod as the best copy
            // of the template there is. Either way it keeps the old pod's priority for
            // when admission refuses its class.
            let templated = if self.cluster.workloads.is_empty() {
                None
            } else {
                let name = own_name.unwrap_or(&old.pod.metadata.name);
                crate::owners::replacement(&self.cluster.workloads, &old.pod, name, self.version)
            };
            let mut entry = match templated {
                Some(mut pod) => {
                    pod.spec.priority = old.pod.spec.priority;
                    pod.spec
                        .preemption_policy
                        .clone_from(&old.pod.spec.preemption_policy);
                    PodEntry::new(pod, PodState::Pending, old.priority)
                }
                None => {
                    let mut entry = PodEntry::clone(old);
                    entry.state = PodState::Pending;
                    entry.deletion.being_deleted = false;
                    if let Some(own_name) = own_name {
                        entry.deletion.name_seed = crate::owners::seed_digest(own_name);
                    }
                    entry
                }
            };
            // 1.11's DaemonSet controller creates its pods bound ([`World::sync_daemon_node`]).
            let created_bound = self.version == Version::Legacy
                && old.deletion.controller == Some(Controller::DaemonSet);
            let facts = &mut *entry;
            let pod = Arc::make_mut(&mut facts.pod);
            if let Some(own_name) = own_name {
                pod.metadata.name = own_name.to_string();
                pod.metadata.uid = String::new();
            }
            if !created_bound {
                pod.spec.node_name = String::new();
            }
            pod.metadata.deletion_timestamp = None;
            pod.metadata.deletion_grace_period_seconds = None;
            // Its controller creates it through the API server, from its template and
            // without `spec.priority`: the release's whole creation chain admits it as it
            // stands now (Priority resolves its class, so a running pod that kept an older
            // priority does not pass it on; DefaultTolerationSeconds gives it the
            // not-ready and unreachable tolerations it lacks). A refusal (a class missing
            // from the input) leaves the old pod's priority, which it ran with.
            let kept = (pod.spec.priority, pod.spec.preemption_policy.take());
            pod.spec.priority = None;
            match self.admission.admit(pod, true) {
                Admitted::Rejected(_) => {
                    (pod.spec.priority, pod.spec.preemption_policy) = kept;
                }
                _ => facts.priority = pod.spec.priority.unwrap_or(facts.priority),
            }
            let resized = crate::resources::resized(pod);
            pod.status = crate::model::PodStatus::default();
            // Its kubelet reports it ready once it runs (the timeline takes it as ready
            // from its bind on): a `Ready` condition for the node lifecycle controller
            // to change.
            pod.status.conditions.ready = crate::model::Readiness::Ready;
            if resized {
                // The old pod's in-place resize went with its status: the replacement
                // counts its spec.
                facts.footprint = schedule::snapshot::Accounting::Current.footprint(facts);
            }
            facts.spans = None;
            if let Some(key) = key {
                facts.key = Arc::from(key);
            }
            // The taint eviction controller reads the tolerations admission gave it.
            if *entry.deletion.tolerations != *entry.pod.spec.tolerations {
                entry.deletion.tolerations = Arc::from(entry.pod.spec.tolerations.as_slice());
            }
            let index = self.pods.len();
            self.pods.push(Shared::Own(Box::new(entry)));
            self.life.push(Life::Waiting);
            self.life_changed(index);
            self.node_of.to_mut().push(None);
            self.waiting.push(index);
            self.replaces.insert(index, eviction);
            self.changed = true;
        }
        if let Some(record) = self.disruption.evictions.get_mut(eviction) {
            record.replacement = Some(replacement);
        }
    }

    /// Places the replacements waiting for a node, on the cluster as it is now.
    fn place_replacements(&mut self, at: Duration) {
        if self.waiting.is_empty() || !self.changed || !self.reschedule {
            return;
        }
        self.changed = false;
        self.live.refresh(&self.nodes);
        let mut view = self.follow_view();
        self.budgets.at(at);
        self.budgets
            .write_status(&mut view.cluster.disruption_budgets);
        // The pending ones by name, as the placements name them (inserted: collecting
        // would sort them first, and bring a sort's code to the playground).
        let mut from_view: BTreeMap<String, usize> = BTreeMap::new();
        for &pod in &self.waiting {
            if let Some(entry) = self.pods.get(pod) {
                from_view.insert(String::from(&*entry.key), pod);
            }
        }
        let options = ScheduleOptions {
            max_node_verdicts: Some(0),
            skip_sampled: true,
            ..self.schedule.clone()
        };
        view.cluster.nodes = core::mem::take(&mut self.live.nodes);
        let images = view.image_table();
        let scheduling = schedule::run_sharing_images(&view.cluster, &options, Some(images));
        self.live.nodes = core::mem::take(&mut view.cluster.nodes);
        self.view = Some(view);
        for placement in scheduling.pods {
            let Some(&pod) = from_view.get(&placement.pod) else {
                continue;
            };
            match (placement.outcome, placement.node) {
                (Placed::Scheduled, Some(node)) => self.bind(at, pod, &node, true),
                (Placed::Nominated, _) => {
                    let victims: Vec<String> = placement
                        .preemption
                        .as_ref()
                        .map(|preemption| {
                            preemption
                                .victims
                                .iter()
                                .map(|victim| victim.pod.clone())
                                .collect()
                        })
                        .unwrap_or_default();
                    let node = placement.nominated_node.unwrap_or_default();
                    // The cycle's FailedScheduling event, the fit error, comes before the
                    // victims': 1.11's `schedule` records it before `scheduleOne` calls
                    // `preempt` (`pkg/scheduler/scheduler.go`), and 1.34's
                    // `handleSchedulingFailure` records it while the asynchronous
                    // preemption (on by default since 1.33) still calls the API server
                    // for each victim (`prepareCandidateAsync` in
                    // `pkg/scheduler/framework/preemption/preemption.go`).
                    self.pending(at, pod, placement.message.unwrap_or_default());
                    self.preempt(at, &victims, pod, &node);
                }
                // No scheduler of the cluster takes the pod: 1.34's informer passes only
                // the pods `responsibleForPod` accepts (`pkg/scheduler/eventhandlers.go`),
                // 1.11's factory filters by `schedulerName` likewise, and a gated pod
                // stops at PreEnqueue, which only logs. No event; it stays Pending.
                (Placed::NotHandled | Placed::Gated, _) => {}
                _ => {
                    let message = placement.message.unwrap_or_default();
                    self.pending(at, pod, message);
                }
            }
        }
        // The bound ones leave the list at once (one pass, not one per bind).
        let life = &self.life;
        self.waiting
            .retain(|&pod| life.get(pod) == Some(&Life::Waiting));
    }

    /// The view of the cluster as it stands: the kept one after the pods whose life
    /// changed, or a new one (the first round, or nodes were removed since).
    fn follow_view(&mut self) -> View {
        let mut unfollowed = core::mem::take(&mut self.unfollowed);
        let view = match self.view.take() {
            Some(mut view) if view.fits(&self.live) => {
                // In the order noted: a new pod is noted first when it is made, so new
                // pods join in the timeline's order (following a pod twice is harmless).
                for &pod in &unfollowed {
                    view.follow(pod, &self.pods, &self.life, &self.node_of, &self.live);
                }
                view
            }
            _ => View::new(
                self.cluster,
                &self.pods,
                &self.life,
                &self.node_of,
                &self.live,
            ),
        };
        unfollowed.clear();
        self.unfollowed = unfollowed;
        view
    }

    /// Binds a replacement to its node: by the scheduler (`scheduled`, with its event) or
    /// created bound by its controller.
    fn bind(&mut self, at: Duration, pod: usize, node_name: &str, scheduled: bool) {
        let Some(node) = self.node_index.get(node_name) else {
            return;
        };
        let Some(entry) = self.pods.get_mut(pod).and_then(Shared::to_mut) else {
            return;
        };
        // `spec.nodeName` is written only into the cluster reported at the end: the view
        // shares the pod, which a write here would copy.
        entry.state = PodState::Bound;
        let name = String::from(&*entry.key);
        self.budgets.restore(&entry.pod);
        if let Some(life) = self.life.get_mut(pod) {
            *life = Life::Running;
        }
        self.life_changed(pod);
        if let Some(slot) = self.node_of.to_mut().get_mut(pod) {
            *slot = Some(node);
        }
        if self.bound_since.is_empty() {
            self.bound_since = alloc::vec![Vec::new(); self.nodes.len()];
        }
        if let Some(list) = self.bound_since.get_mut(node) {
            list.push(pod);
        }
        if let Some(record) = self
            .replaces
            .get(&pod)
            .and_then(|eviction| self.disruption.evictions.get_mut(*eviction))
        {
            if record.rescheduled_to.is_none() {
                record.rescheduled_to = Some(node_name.to_string());
            }
        }
        if scheduled {
            self.event(
                at,
                EventKind::PodRescheduled,
                alloc::format!("Pod/{name}"),
                "Scheduled",
                alloc::format!("Successfully assigned {name} to {node_name}"),
            );
        }
        // `handlePodUpdate`: the taint manager looks at the pod on its new node.
        if self.taint_manager {
            self.process_pod(at, node, pod);
        }
        // A StatefulSet's pod running and ready lets its set go on.
        let stateful = self
            .pods
            .get(pod)
            .is_some_and(|entry| entry.deletion.controller == Some(Controller::StatefulSet));
        if let Some((set, _)) = stateful.then(|| self.stateful_identity(pod)).flatten() {
            // Ready from its bind on, it is available once ready for `minReadySeconds`
            // (1.34; 1.11's StatefulSet has no such field).
            let min_ready = (self.version == Version::Current)
                .then(|| self.stateful_set(&set))
                .flatten()
                .and_then(|workload| workload.spec.min_ready_seconds)
                .filter(|seconds| *seconds > 0);
            if let Some(seconds) = min_ready {
                self.not_available.insert(pod);
                let available = at.saturating_add(Duration::from_seconds(i64::from(seconds)));
                self.agenda_push(available, Happening::SetPodAvailable(pod));
            }
            self.set_created |= self.sync_stateful(&set);
        }
    }

    fn pending(&mut self, at: Duration, pod: usize, message: String) {
        if !self.reported_pending.insert(pod) {
            return;
        }
        let Some(entry) = self.pods.get(pod) else {
            return;
        };
        let name = String::from(&*entry.key);
        self.event(
            at,
            EventKind::PodPending,
            alloc::format!("Pod/{name}"),
            "FailedScheduling",
            message,
        );
    }

    /// Deletes the victims `preemptor` chose on `node`, each with its `Preempted` event.
    fn preempt(&mut self, at: Duration, victims: &[String], preemptor: usize, node: &str) {
        let preemptor = self.key(preemptor);
        let text = match self.version {
            // 1.11's `preempt` names the preemptor by namespace and name.
            Version::Legacy => alloc::format!("by {preemptor} on node {node}"),
            // 1.34's `PreemptPod` names it by UID. A preemptor here is a replacement its
            // controller made during the timeline, whose UID the API server gave it then
            // (a StatefulSet's pod keeps its name, not its UID): kubefit cannot know it,
            // and writes the namespace and name in its place.
            Version::Current => alloc::format!("Preempted by pod {preemptor} on node {node}"),
        };
        for victim in victims {
            // `namespace/name`, compared without formatting every pod's name.
            let Some((namespace, name)) = victim.split_once('/') else {
                continue;
            };
            let found = self.pods.iter().zip(&self.life).position(|(entry, life)| {
                *life == Life::Running
                    && entry.pod.metadata.name == name
                    && entry.pod.metadata.namespace == namespace
            });
            if let Some(pod) = found {
                self.delete_directly(
                    at,
                    pod,
                    "preemption",
                    "Preempted",
                    |_| text.clone().into(),
                    None,
                );
            }
        }
    }

    // Drains.

    fn start_drain(&mut self, at: Duration, node: usize, flags: Flags, machine: Option<usize>) {
        let skip_wait = machine.is_some()
            && self
                .nodes
                .get(node)
                .is_some_and(|target| target.condition("Ready") == Some("Unknown"));
        let mut flags = flags;
        if skip_wait {
            // The machine controller on an unreachable node (`drainNode`): one second's
            // grace, and pods deleted for longer than `skipWaitForDeleteTimeoutSeconds`
            // are not waited for.
            flags.grace_period = Some(Duration::from_seconds(1));
        }
        let index = self.drains.len();
        self.drains.push(DrainRun {
            node,
            deadline: flags.timeout.map(|timeout| at.saturating_add(timeout)),
            flags,
            machine,
            blocked: Vec::new(),
            retry_at: None,
            waiting: Vec::new(),
            errors: Vec::new(),
            skip_wait,
            finished: false,
        });
        let Some(drain) = self.drains.get(index) else {
            return;
        };
        let node_name = self
            .nodes
            .get(node)
            .map(|target| target.name().to_string())
            .unwrap_or_default();
        let mut refusals: Vec<(Cow<'static, str>, String)> = Vec::new();
        let mut warnings: Vec<(Cow<'static, str>, String)> = Vec::new();
        let mut evict: Vec<usize> = Vec::new();
        // `GetPodsForDeletion` lists the node's pods from the API server: by key
        // (`namespace/name`), finished ones included.
        let mut listed = self.pods_on(node);
        listed.extend(self.finished_on(node));
        crate::cluster::in_list_order(&mut listed, |pod| self.key(pod));
        let legacy = self.kubectl_1_11(index);
        for pod in listed {
            // Gone pods stay listed on their node.
            if self.life.get(pod) == Some(&Life::Gone) {
                continue;
            }
            // `skipDeletedFilter`, first of the filters: a pod deleted long enough ago,
            // by the input or on the timeline, is passed over.
            if drain.skip_wait {
                let overdue = self
                    .deletion_stamp(pod)
                    .is_some_and(|stamp| skipped_from(stamp) <= at);
                if overdue {
                    continue;
                }
            }
            let Some(entry) = self.pods.get(pod) else {
                continue;
            };
            let found = self.daemon_set_found(&entry.pod);
            if legacy {
                // kubectl 1.11 names pods without their namespace.
                let verdict = drain::decide_1_11(&entry.pod, &drain.flags, found);
                let name = &entry.pod.metadata.name;
                for warning in verdict.warnings {
                    warnings.push((warning, name.clone()));
                }
                if let Some(fatal) = verdict.fatal {
                    refusals.push((fatal, name.clone()));
                }
                if verdict.delete {
                    evict.push(pod);
                }
                continue;
            }
            match drain::decide(&entry.pod, &drain.flags, found) {
                Decision::Evict => evict.push(pod),
                Decision::EvictWithWarning(warning) => {
                    warnings.push((warning.into(), String::from(&*entry.key)));
                    evict.push(pod);
                }
                Decision::LeaveWithWarning(warning) => {
                    warnings.push((warning.into(), String::from(&*entry.key)))
                }
                Decision::Skip => {}
                Decision::Refuse(reason) => {
                    refusals.push((reason.into(), String::from(&*entry.key)));
                }
                Decision::DaemonSetNotFound => {
                    let owner = entry
                        .pod
                        .metadata
                        .controller()
                        .map_or("", |owner| &owner.name);
                    let error = alloc::format!("daemonsets.apps \"{owner}\" not found");
                    refusals.push((error.into(), String::from(&*entry.key)));
                }
            }
        }
        if !refusals.is_empty() {
            let error = match legacy {
                true => drain::statuses_1_11(&refusals),
                false => drain::aggregate(&drain::grouped(&refusals, true)),
            };
            self.finish_drain(at, index, Err(error));
            return;
        }
        // `oc adm drain` says "Warning:" (kubectl's drain command); the machine
        // controller's drain goes through `RunNodeDrain`, which says "WARNING:"
        // (staging/src/k8s.io/kubectl/pkg/drain/default.go), as 1.11's kubectl did.
        let message = match (warnings.is_empty(), legacy, machine.is_some()) {
            (true, _, _) => {
                alloc::format!("draining node/{node_name}: {} pod(s) to evict", evict.len())
            }
            (false, true, _) => {
                alloc::format!("WARNING: {}", drain::statuses_1_11(&warnings))
            }
            (false, false, true) => {
                alloc::format!("WARNING: {}", drain::grouped(&warnings, false).join("; "))
            }
            (false, false, false) => {
                alloc::format!("Warning: {}", drain::grouped(&warnings, false).join("; "))
            }
        };
        self.event(at, EventKind::Drain, node_id(&node_name), "Drain", message);
        for pod in evict {
            self.evict_for_drain(at, index, pod);
        }
        if let Some(deadline) = self.drains.get(index).and_then(|drain| drain.deadline) {
            self.agenda_push(deadline, Happening::DrainRetry(index));
        }
        self.check_drains(at);
    }

    /// One eviction request of a drain.
    fn evict_for_drain(&mut self, at: Duration, index: usize, pod: usize) {
        let Some(drain) = self.drains.get(index) else {
            return;
        };
        let (cause, grace) = match drain.machine {
            Some(_) => ("machine-deletion", drain.flags.grace_period),
            None => ("drain", drain.flags.grace_period),
        };
        let Some(entry) = self.pods.get(pod) else {
            return;
        };
        let name = &entry.pod.metadata.name;
        let namespace = &entry.pod.metadata.namespace;
        let life = self.life.get(pod);
        let terminating = matches!(life, Some(Life::Terminating { .. }));
        let ready = self.ready(pod);
        // kubectl 1.34 says `evicting pod ns/name` as it asks; 1.11's `evictPods` says
        // nothing then, only `pod/name evicted` once it finds the pod gone
        // ([`World::drains_see_gone`]), which is what its eviction records.
        let kubectl = drain.machine.is_none();
        let legacy = self.kubectl_1_11(index);
        let reason = (!legacy).then_some("Evicted");
        let evicted = legacy.then(|| evicted_line(name));
        let words = |key: &Arc<str>| match evicted {
            Some(line) => Words::from(line),
            None => Words::Shared("evicting pod ", Arc::clone(key)),
        };
        self.budgets.at(at);
        let result = self.budgets.evict(&entry.pod, ready, terminating);
        match result {
            Ok(()) if life == Some(&Life::Elsewhere) => {
                self.delete_finished(at, pod, cause, reason, words);
                // Deleted at once: `waitForDelete`'s first poll, right away, finds it gone.
                if kubectl {
                    self.announce_evicted(at, pod);
                }
            }
            Ok(()) => {
                let stamp = drain
                    .skip_wait
                    .then(|| self.redeleted_stamp(at, pod, grace))
                    .flatten();
                let skipped = stamp.map(|stamp| first_poll(at, skipped_from(stamp)));
                // Deleted again, a terminating pod's deadline only gets shorter.
                if let (Some(shorter), Some(&Life::Terminating { eviction, .. })) =
                    (stamp, self.life.get(pod))
                {
                    if let Some(stamp) = self.deletion_stamps.get_mut(eviction) {
                        *stamp = shorter.min(*stamp);
                    }
                }
                let awaited = Awaited {
                    pod,
                    evicted: at,
                    skipped,
                    seen: None,
                };
                if let Some(skipped) = skipped.filter(|skipped| *skipped > at) {
                    self.agenda_push(skipped, Happening::DrainRetry(index));
                }
                if let Some(drain) = self.drains.get_mut(index) {
                    match drain
                        .waiting
                        .binary_search_by_key(&pod, |waiting| waiting.pod)
                    {
                        Ok(found) => {
                            if let Some(slot) = drain.waiting.get_mut(found) {
                                *slot = awaited;
                            }
                        }
                        Err(slot) => drain.waiting.insert(slot, awaited),
                    }
                }
                if terminating && grace == Some(Duration(0)) {
                    self.delete_at_once(at, pod, Goes::AtOnce);
                }
                self.terminate(at, pod, cause, reason, words, grace);
            }
            Err(error) if error == budget::VIOLATES_BUDGET => {
                let message = match self.kubectl_1_11(index) {
                    true => alloc::format!(
                        "error when evicting pod \"{name}\" (will retry after 5s): {error}"
                    ),
                    false => alloc::format!(
                        "error when evicting pods/\"{name}\" -n \"{namespace}\" (will retry after 5s): {error}"
                    ),
                };
                let id = alloc::format!("Pod/{namespace}/{name}");
                let first = self
                    .drains
                    .get(index)
                    .is_some_and(|drain| drain.blocked.is_empty());
                if let Some(drain) = self.drains.get_mut(index) {
                    if !drain.blocked.contains(&pod) {
                        drain.blocked.push(pod);
                    }
                    if first {
                        drain.retry_at = Some(at.saturating_add(drain::RETRY));
                    }
                }
                self.event(
                    at,
                    EventKind::EvictionBlocked,
                    id,
                    "EvictionBlocked",
                    message,
                );
                if first {
                    self.agenda_push(
                        at.saturating_add(drain::RETRY),
                        Happening::DrainRetry(index),
                    );
                }
            }
            Err(error) => {
                let message = match self.kubectl_1_11(index) {
                    true => alloc::format!("error when evicting pod \"{name}\": {error}"),
                    false => alloc::format!(
                        "error when evicting pods/\"{name}\" -n \"{namespace}\": {error}"
                    ),
                };
                if let Some(drain) = self.drains.get_mut(index) {
                    drain.errors.push(message);
                }
            }
        }
    }

    /// The `deletionTimestamp` of `pod` if it is being deleted: the input's, or that of
    /// its deletion on the timeline.
    fn deletion_stamp(&self, pod: usize) -> Option<Duration> {
        match self.life.get(pod)? {
            Life::Terminating { eviction, .. } => self.deletion_stamps.get(*eviction).copied(),
            _ => self.input_deletion(pod).map(|pending| pending.stamp),
        }
    }

    /// The `deletionTimestamp` of `pod` once deleted again now asking `asked` (`None`:
    /// it is gone at once). A drain that skips pods deleted long enough ago stops waiting
    /// for it at the first of `waitForDelete`'s polls (a second apart from the eviction)
    /// at which the whole seconds since exceed [`machine::SKIP_WAIT_FOR_DELETE`]
    /// (`shouldSkipPod`). A deletion under way keeps its stamp unless the grace period
    /// asked is shorter, which `BeforeDelete` counts from when that deletion began (the
    /// drain asks one second).
    fn redeleted_stamp(
        &self,
        at: Duration,
        pod: usize,
        asked: Option<Duration>,
    ) -> Option<Duration> {
        match (self.input_deletion(pod), self.life.get(pod)) {
            (Some(pending), _) => pending.due(asked),
            (None, Some(&Life::Terminating { eviction, .. })) => {
                let stamp = *self.deletion_stamps.get(eviction)?;
                let began = self.disruption.evictions.get(eviction)?.at;
                let own = self.pods.get(pod)?.deletion.grace_seconds;
                Some(stamp.min(began.saturating_add(grace_period(self.version, asked, own))))
            }
            (None, _) => {
                let own = self.pods.get(pod)?.deletion.grace_seconds;
                Some(at.saturating_add(grace_period(self.version, asked, own)))
            }
        }
    }

    /// Whether drain `index` is `oc adm drain` of OpenShift 3.11 (kubectl 1.11), whose
    /// messages name the pod without its namespace. Machine drains are OpenShift 4's.
    fn kubectl_1_11(&self, index: usize) -> bool {
        self.version == Version::Legacy
            && self
                .drains
                .get(index)
                .is_some_and(|drain| drain.machine.is_none())
    }

    /// A drain's refused evictions tried again, or its timeout.
    fn drain_retry(&mut self, at: Duration, index: usize) {
        let Some(drain) = self.drains.get(index) else {
            return;
        };
        if drain.finished {
            return;
        }
        let retrying = drain.retry_at == Some(at);
        if drain.deadline.is_some_and(|deadline| at >= deadline) {
            if self.kubectl_1_11(index) {
                // 1.11's kubectl stops at its global timeout with one error of its own
                // (`evictPods` in `pkg/kubectl/cmd/drain.go`).
                let outstanding = !drain.blocked.is_empty()
                    || drain
                        .waiting
                        .iter()
                        .any(|awaited| self.waits_for(awaited, at));
                if outstanding {
                    let timeout = drain.flags.timeout.unwrap_or_default();
                    let error = alloc::format!("Drain did not complete within {timeout}");
                    self.finish_drain(at, index, Err(error));
                }
                return;
            }
            self.drain_timeout(at, index, retrying);
            return;
        }
        if !retrying {
            // A pod the drain stops waiting for ([`World::redeleted_stamp`]).
            self.check_drains(at);
            return;
        }
        let blocked = self
            .drains
            .get_mut(index)
            .map(|drain| {
                drain.retry_at = None;
                core::mem::take(&mut drain.blocked)
            })
            .unwrap_or_default();
        for pod in blocked {
            // A refused pod that went meanwhile (deleted by another controller, or at the
            // end of a deletion already under way) is done: the eviction finds no pod
            // (NotFound ends that pod's goroutine in `evictPods`, 1.11 and 1.34).
            if self.life.get(pod) == Some(&Life::Gone) {
                continue;
            }
            self.evict_for_drain(at, index, pod);
        }
        // A refusal above planned the next retry (the list was empty again).
        self.check_drains(at);
    }

    /// Whether a drain still waits at `at` for an evicted pod to go: it is still there,
    /// or gone since `waitForDelete`'s last poll, and not skipped yet
    /// ([`World::redeleted_stamp`]).
    fn waits_for(&self, awaited: &Awaited, at: Duration) -> bool {
        let there = matches!(self.life.get(awaited.pod), Some(Life::Terminating { .. }));
        (there || awaited.seen.is_some_and(|seen| at < seen))
            && awaited.skipped.is_none_or(|skipped| at < skipped)
    }

    /// `pod` is gone: each drain waiting for it finds so at its `waitForDelete`'s next
    /// poll, a whole number of seconds after the eviction (`wait.PollImmediate` every
    /// second, the first right away: `waitForDelete` in
    /// `staging/src/k8s.io/kubectl/pkg/drain/drain.go`, and in 1.11's
    /// `pkg/kubectl/cmd/drain.go`), and finishes no earlier.
    fn drains_see_gone(&mut self, at: Duration, pod: usize) {
        let mut polls = Vec::new();
        for (index, drain) in self.drains.iter_mut().enumerate() {
            if drain.finished {
                continue;
            }
            let Ok(found) = drain
                .waiting
                .binary_search_by_key(&pod, |awaited| awaited.pod)
            else {
                continue;
            };
            if let Some(awaited) = drain.waiting.get_mut(found) {
                let poll = first_poll(awaited.evicted, at);
                awaited.seen = Some(poll);
                if poll > at {
                    polls.push((poll, index));
                }
            }
        }
        for (poll, index) in polls {
            self.agenda_push(poll, Happening::DrainRetry(index));
        }
        self.check_drains(at);
    }

    /// `oc adm drain`'s line for an evicted pod its poll found gone.
    fn announce_evicted(&mut self, at: Duration, pod: usize) {
        let Some(entry) = self.pods.get(pod) else {
            return;
        };
        let line = evicted_line(&entry.pod.metadata.name);
        let object = Words::Shared("Pod/", Arc::clone(&entry.key));
        self.event(at, EventKind::PodEvicted, object, "Evicted", line);
    }

    /// Past a drain's `--timeout` (`evictPods` in
    /// `staging/src/k8s.io/kubectl/pkg/drain/drain.go`): each pod's goroutine reports on
    /// its own. One waiting for its pod to go (`waitForDelete`, which polls every second
    /// from the eviction) reports at its first poll at or after the deadline; one whose
    /// eviction was refused sleeps 5 s between attempts and reports at its first attempt
    /// at or after it (`retrying`: now is one). The drain fails once every goroutine has
    /// reported, with the errors in the order they came.
    fn drain_timeout(&mut self, at: Duration, index: usize, retrying: bool) {
        let Some(drain) = self.drains.get(index) else {
            return;
        };
        let (Some(deadline), Some(timeout)) = (drain.deadline, drain.flags.timeout) else {
            return;
        };
        let mut errors = Vec::new();
        let mut reported = Vec::new();
        let mut next_poll: Option<Duration> = None;
        for awaited in &drain.waiting {
            let pod = awaited.pod;
            let poll = first_poll(awaited.evicted, deadline);
            // Looked at as of its poll: one skipped by then is not waited for.
            if !self.waits_for(awaited, poll.max(at)) {
                continue;
            }
            if poll > at {
                next_poll = Some(next_poll.map_or(poll, |next| next.min(poll)));
                continue;
            }
            reported.push(pod);
            if let Some(entry) = self.pods.get(pod) {
                let metadata = &entry.pod.metadata;
                errors.push(alloc::format!(
                    "error when waiting for pod \"{}\" in namespace \"{}\" to terminate: global timeout reached: {timeout}",
                    metadata.name, metadata.namespace
                ));
            }
        }
        let blocked = if retrying {
            drain.blocked.as_slice()
        } else {
            &[]
        };
        for entry in blocked.iter().filter_map(|pod| self.pods.get(*pod)) {
            let metadata = &entry.pod.metadata;
            errors.push(alloc::format!(
                "error when evicting pods/\"{}\" -n \"{}\": global timeout reached: {timeout}",
                metadata.name,
                metadata.namespace
            ));
        }
        if let Some(drain) = self.drains.get_mut(index) {
            drain.errors.extend(errors);
            drain
                .waiting
                .retain(|awaited| !reported.contains(&awaited.pod));
            if retrying {
                drain.blocked.clear();
                drain.retry_at = None;
            }
        }
        if let Some(next_poll) = next_poll {
            self.agenda_push(next_poll, Happening::DrainRetry(index));
        }
        self.check_drains(at);
    }

    /// Takes the pods the drains' polls have found gone off their lists (`oc adm drain`
    /// says so of each), and finishes the drains that have nothing left to evict or wait
    /// for.
    fn check_drains(&mut self, at: Duration) {
        for index in 0..self.drains.len() {
            let mut seen = Vec::new();
            if let Some(drain) = self.drains.get_mut(index).filter(|drain| !drain.finished) {
                drain.waiting.retain(|awaited| {
                    let gone = awaited.seen.is_some_and(|poll| poll <= at);
                    if gone {
                        seen.push(awaited.pod);
                    }
                    !gone
                });
            }
            // The machine controller's drain logs them instead.
            if self
                .drains
                .get(index)
                .is_some_and(|drain| drain.machine.is_none())
            {
                for pod in seen {
                    self.announce_evicted(at, pod);
                }
            }
            let Some(drain) = self.drains.get(index) else {
                continue;
            };
            if drain.finished || !drain.blocked.is_empty() {
                continue;
            }
            let waiting = drain
                .waiting
                .iter()
                .any(|awaited| self.waits_for(awaited, at));
            if waiting {
                continue;
            }
            let result = if drain.errors.is_empty() {
                Ok(())
            } else {
                Err(drain::aggregate(&drain.errors))
            };
            self.finish_drain(at, index, result);
        }
    }

    fn finish_drain(&mut self, at: Duration, index: usize, result: Result<(), String>) {
        let Some(drain) = self.drains.get_mut(index) else {
            return;
        };
        if drain.finished {
            return;
        }
        drain.finished = true;
        let node = drain.node;
        let machine = drain.machine;
        let node_name = self
            .nodes
            .get(node)
            .map(|target| target.name().to_string())
            .unwrap_or_default();
        match machine {
            Some(machine) => self.machine_drain_done(at, machine, Some(&node_name), result),
            None => match result {
                Ok(()) => self.event(
                    at,
                    EventKind::Drain,
                    node_id(&node_name),
                    "Drained",
                    alloc::format!("node/{node_name} drained"),
                ),
                Err(error) => self.event(
                    at,
                    EventKind::Drain,
                    node_id(&node_name),
                    "DrainFailed",
                    error,
                ),
            },
        }
    }

    // Machines.

    /// `oc delete machine` (`resync`: the machine set counting it, if any, reconciles
    /// without it) or a machine set's scale-down.
    fn delete_machine(&mut self, at: Duration, machine: usize, resync: bool) {
        let Some(run) = self.machines.get(machine) else {
            return;
        };
        if run.stage != Stage::Running {
            return;
        }
        let id = run.id.clone();
        let message = alloc::format!(
            "phase Deleting; {}; {}",
            condition_text(&machine::drainable(&run.pre_drain)),
            condition_text(&machine::terminable(&run.pre_terminate))
        );
        let owner = if resync {
            let sets = &self.cluster.machine_sets;
            sets.iter().position(|set| self.counts_for(set, machine))
        } else {
            None
        };
        self.event(at, EventKind::Machine, id, "Deleting", message);
        // Being deleted, it counts for no set (`shouldExcludeMachine`).
        self.set_stage(machine, Stage::WaitingPreDrain);
        if let Some(set) = owner {
            self.sync_machine_set(at, set, false);
        }
        self.reconcile_machine(at, machine);
    }

    fn set_stage(&mut self, machine: usize, stage: Stage) {
        if let Some(run) = self.machines.get_mut(machine) {
            run.stage = stage;
        }
    }

    /// The input's machine or the created one at `index`.
    fn machine_model(&self, index: usize) -> Option<&Machine> {
        match index.checked_sub(self.cluster.machines.len()) {
            None => self.cluster.machines.get(index),
            Some(created) => self.created.get(created),
        }
    }

    /// Whether the machine at `index` counts for `set` ([`machine::counts_for`]); one
    /// whose deletion the timeline started counts no more.
    fn counts_for(&self, set: &MachineSet, index: usize) -> bool {
        let run = self.machines.get(index);
        let model = self.machine_model(index);
        run.zip(model).is_some_and(|(run, model)| {
            run.stage == Stage::Running && machine::counts_for(set, model, run.controller.as_ref())
        })
    }

    /// The machine set makes `count` machines from its template (`createMachine`):
    /// named after it with a generated suffix, controlled by it, created at `at`, without
    /// a node (provisioning is not simulated). Their names.
    fn create_machines(&mut self, at: Duration, set: &MachineSet, count: usize) -> Vec<String> {
        let created = self
            .started()
            .map(|start| crate::timestamp::format(start.saturating_add(at)));
        (0..count)
            .map(|_| {
                let template = &set.spec.template;
                let mut machine = Machine {
                    spec: template.spec.clone(),
                    ..Machine::default()
                };
                let metadata = &mut machine.metadata;
                metadata.name = alloc::format!(
                    "{}-{}",
                    set.metadata.name,
                    crate::owners::suffix(&machine_set_id(set), self.created.len())
                );
                metadata.namespace.clone_from(&set.metadata.namespace);
                metadata.labels.clone_from(&template.metadata.labels);
                metadata
                    .annotations
                    .clone_from(&template.metadata.annotations);
                metadata.owner_references = alloc::vec![machine::controller_ref(set)];
                metadata.creation_timestamp.clone_from(&created);
                machine.status.phase = Some(String::from("Provisioning"));
                let name = metadata.name.clone();
                self.machines.push(MachineRun::new(&machine, None));
                self.created.push(machine);
                name
            })
            .collect()
    }

    /// `oc scale machineset`: the set's replicas change, and its controller reconciles.
    fn scale_machine_set(
        &mut self,
        at: Duration,
        namespace: &str,
        name: &str,
        replicas: i32,
        step: usize,
    ) {
        let cluster = self.cluster;
        let Some(set) = cluster
            .machine_sets
            .iter()
            .position(|set| set.metadata.namespace == namespace && set.metadata.name == name)
        else {
            self.step_warning(
                step,
                "scenario/unknown-machine-set",
                alloc::format!(
                    "machine set `{namespace}/{name}` is not in the input; the step does nothing"
                ),
            );
            return;
        };
        if let Some(slot) = self.replicas.get_mut(set) {
            *slot = replicas;
        }
        if !cluster
            .machine_sets
            .get(set)
            .is_some_and(machine::reconciles)
        {
            self.step_warning(
                step,
                "scenario/machine-set-not-reconciled",
                alloc::format!(
                    "machine set `{namespace}/{name}` is being deleted or has an empty selector: its controller does not reconcile it; the step does nothing"
                ),
            );
            return;
        }
        self.sync_machine_set(at, set, true);
    }

    /// The MachineSet controller's reconcile of the input's machine set `set`
    /// (`syncReplicas` in machineset/controller.go): it counts its machines
    /// ([`machine::counts_for`]) and creates the missing ones or deletes those its delete
    /// policy ranks first; when the count is right it does nothing (`scaled`: a scale step
    /// asked, and the report says so).
    fn sync_machine_set(&mut self, at: Duration, set: usize, scaled: bool) {
        let cluster = self.cluster;
        let Some(set_model) = cluster
            .machine_sets
            .get(set)
            .filter(|set| machine::reconciles(set))
        else {
            return;
        };
        let replicas = self.replicas.get(set).copied().unwrap_or(1);
        let members: Vec<(usize, &Machine)> = (0..self.machines.len())
            .filter(|&index| self.counts_for(set_model, index))
            .filter_map(|index| Some((index, self.machine_model(index)?)))
            .collect();
        let id = machine_set_id(set_model);
        let count = i32::try_from(members.len()).unwrap_or(i32::MAX);
        if let Some(missing) = replicas
            .checked_sub(count)
            .and_then(|missing| usize::try_from(missing).ok())
            .filter(|missing| *missing > 0)
        {
            let created = self.create_machines(at, set_model, missing);
            self.event(
                at,
                EventKind::Machine,
                id,
                "SuccessfulCreate",
                alloc::format!(
                    "replicas {count} -> {replicas}: the machine set creates {}; their nodes join once provisioned (not simulated)",
                    created.join(", ")
                ),
            );
            return;
        }
        let surplus = usize::try_from(count.saturating_sub(replicas)).unwrap_or(0);
        if surplus == 0 && !scaled {
            return;
        }
        let now = self.started().map(|start| start.saturating_add(at));
        let policy = &set_model.spec.delete_policy;
        let chosen = machine::to_delete(policy, &members, surplus, now);
        let names: Vec<&str> = chosen
            .iter()
            .filter_map(|index| members.iter().find(|(member, _)| member == index))
            .map(|(_, machine)| machine.metadata.name.as_str())
            .collect();
        let message = alloc::format!(
            "replicas {count} -> {replicas}: the {} delete policy picks {}",
            if policy.is_empty() { "Random" } else { policy },
            if names.is_empty() {
                String::from("none")
            } else {
                names.join(", ")
            }
        );
        self.event(at, EventKind::Machine, id, "SuccessfulDelete", message);
        for machine in chosen {
            self.delete_machine(at, machine, false);
        }
    }

    fn remove_hook(
        &mut self,
        at: Duration,
        machine: usize,
        phase: HookPhase,
        name: &str,
        step: usize,
    ) {
        let Some(run) = self.machines.get_mut(machine) else {
            return;
        };
        let hooks = match phase {
            HookPhase::PreDrain => &mut run.pre_drain,
            HookPhase::PreTerminate => &mut run.pre_terminate,
        };
        let before = hooks.len();
        hooks.retain(|hook| hook.name.as_deref() != Some(name));
        if hooks.len() == before {
            self.step_warning(
                step,
                "scenario/unknown-hook",
                alloc::format!(
                    "the machine has no {} hook `{name}`; the step does nothing",
                    phase.as_str()
                ),
            );
            return;
        }
        let id = run.id.clone();
        let condition = match phase {
            HookPhase::PreDrain => machine::drainable(&run.pre_drain),
            HookPhase::PreTerminate => machine::terminable(&run.pre_terminate),
        };
        let deleting = run.stage != Stage::Running;
        self.event(
            at,
            EventKind::HookRemoved,
            id,
            "HookRemoved",
            alloc::format!(
                "{} hook {name} removed; {}",
                phase.as_str(),
                condition_text(&condition)
            ),
        );
        if deleting {
            self.reconcile_machine(at, machine);
        }
    }

    /// The machine controller's reconcile of a deleting machine.
    fn reconcile_machine(&mut self, at: Duration, machine: usize) {
        let Some(run) = self.machines.get(machine) else {
            return;
        };
        let id = run.id.clone();
        match run.stage {
            Stage::Removed | Stage::Draining => {}
            // The drain controller passes over a machine already drained
            // (drain_controller.go); the machine controller goes on to the preTerminate
            // hooks.
            Stage::Running | Stage::WaitingPreDrain if run.drained.is_some() => {
                self.after_drain(at, machine);
            }
            Stage::Running | Stage::WaitingPreDrain => {
                if self.drain_worker.is_some() {
                    if !self.drain_queue.contains(&machine) {
                        self.drain_queue.push_back(machine);
                    }
                    return;
                }
                let node = run
                    .node
                    .filter(|node| self.nodes.get(*node).is_some_and(|target| !target.gone));
                // `Reconcile` in drain_controller.go: only the annotation or a missing
                // nodeRef skips the drain; a nodeRef whose node is gone still waits for
                // the preDrain hooks, and its drain finds nothing to do.
                if run.exclude_draining || !run.node_ref {
                    self.event(
                        at,
                        EventKind::Machine,
                        id,
                        "DrainSkipped",
                        "Node drain skipped",
                    );
                    if let Some(run) = self.machines.get_mut(machine) {
                        run.drained = Some(machine::drained("Node drain skipped"));
                    }
                    self.after_drain(at, machine);
                    return;
                }
                // drain_controller.go says so on every reconcile while a preDrain hook
                // remains: each update of the machine (a hook removed) brings one.
                if !run.pre_drain.is_empty() {
                    self.event(
                        at,
                        EventKind::Machine,
                        id,
                        "DrainBlocked",
                        "Drain blocked by pre-drain hook",
                    );
                    self.set_stage(machine, Stage::WaitingPreDrain);
                    return;
                }
                self.event(
                    at,
                    EventKind::Machine,
                    id.clone(),
                    "DrainProceeds",
                    "Node drain proceeds",
                );
                let Some(node) = node else {
                    // `drainNode` finds no node: a drain that succeeds without a "Deleted".
                    self.machine_drain_done(at, machine, None, Ok(()));
                    return;
                };
                // Only one control-plane node is drained at a time (`isDrainAllowed`): a
                // node already cordoned goes on; otherwise another cordoned control-plane
                // node holds it.
                let cordoned = self.nodes.get(node).is_some_and(|run| run.unschedulable);
                if !cordoned
                    && self.is_control_plane(node)
                    && self.other_control_plane_cordoned(node)
                {
                    // `RequeueAfterError.Error()` (pkg/controller/machine/errors.go) writes
                    // "requeue in: " and the Go duration.
                    self.event(
                        at,
                        EventKind::Machine,
                        id,
                        "DrainRequeued",
                        alloc::format!(
                            "Node drain requeued: drain not permitted: requeue in: {}",
                            machine::CONTROL_PLANE_REQUEUE
                        ),
                    );
                    self.agenda_push(
                        at.saturating_add(machine::CONTROL_PLANE_REQUEUE),
                        Happening::MachineReconcile(machine),
                    );
                    self.set_stage(machine, Stage::WaitingPreDrain);
                    return;
                }
                self.set_stage(machine, Stage::Draining);
                self.drain_worker = Some(machine);
                self.cordon(at, node, true);
                self.start_drain(at, node, Flags::machine_controller(), Some(machine));
            }
            Stage::WaitingPreTerminate => self.after_drain(at, machine),
        }
    }

    /// The drain controller's worker, once free, takes the machines queued for it in turn
    /// (a reconcile that does not drain returns at once).
    fn next_machine_drain(&mut self, at: Duration) {
        while self.drain_worker.is_none() {
            let Some(machine) = self.drain_queue.pop_front() else {
                return;
            };
            self.reconcile_machine(at, machine);
        }
    }

    /// The end of a machine's drain attempt (`node` is `None` when the nodeRef's node is
    /// gone). As drain_controller.go: `drainNode` says "Deleted" before `Reconcile` says
    /// "DrainSucceeded"; a failure sets `Drained=False` only on the controller's copy of
    /// the machine (it returns before patching the status), so only its event shows.
    fn machine_drain_done(
        &mut self,
        at: Duration,
        machine: usize,
        node: Option<&str>,
        result: Result<(), String>,
    ) {
        // The reconcile returns: the worker is free for the next machine queued.
        if self.drain_worker == Some(machine) {
            self.drain_worker = None;
        }
        let Some(run) = self.machines.get_mut(machine) else {
            return;
        };
        let id = run.id.clone();
        match result {
            Ok(()) => {
                run.drained = Some(machine::drained("Drain finished successfully"));
                if let Some(node) = node {
                    self.event(
                        at,
                        EventKind::Machine,
                        id.clone(),
                        "Deleted",
                        alloc::format!("Node \"{node}\" drained"),
                    );
                }
                self.event(
                    at,
                    EventKind::Machine,
                    id,
                    "DrainSucceeded",
                    "Node drain succeeded",
                );
                self.after_drain(at, machine);
            }
            Err(error) => {
                run.failures = run.failures.saturating_add(1);
                run.stage = Stage::WaitingPreDrain;
                let wait = machine::drain_backoff(run.failures);
                self.event(
                    at,
                    EventKind::Machine,
                    id,
                    "DrainRequeued",
                    alloc::format!("Node drain requeued: {error}"),
                );
                self.agenda_push(
                    at.saturating_add(wait),
                    Happening::MachineReconcile(machine),
                );
            }
        }
    }

    /// After `Drained=True`: preTerminate hooks hold the instance; then it and its node go.
    fn after_drain(&mut self, at: Duration, machine: usize) {
        let Some(run) = self.machines.get_mut(machine) else {
            return;
        };
        let id = run.id.clone();
        if !run.pre_terminate.is_empty() {
            if run.stage != Stage::WaitingPreTerminate {
                run.stage = Stage::WaitingPreTerminate;
                let message = condition_text(&machine::terminable(&run.pre_terminate));
                self.event(at, EventKind::Machine, id, "TerminateBlocked", message);
            }
            return;
        }
        run.stage = Stage::Removed;
        let node = run.node;
        self.event(
            at,
            EventKind::MachineRemoved,
            id,
            "Deleted",
            "the instance was deleted",
        );
        if let Some(node) = node {
            self.remove_node(at, node);
        }
    }

    /// The Node object is deleted; the pod garbage collector deletes the pods left on it
    /// later ([`World::gc_orphaned`]).
    fn remove_node(&mut self, at: Duration, node: usize) {
        let Some(target) = self.nodes.get(node) else {
            return;
        };
        // Nothing new for a node removed before (two machines named it).
        let orphans = !target.gone
            && self.pods_on(node).into_iter().any(|pod| {
                matches!(
                    self.life.get(pod),
                    Some(Life::Running | Life::Terminating { .. })
                )
            });
        let Some(target) = self.nodes.get_mut(node) else {
            return;
        };
        target.remove();
        let name = target.name();
        // The controller's next pass counts the zones without it (upstream passes run
        // every 5 s; kubefit's, when something they read changed).
        if self.lifecycle.is_some() {
            self.plan_monitor(at);
        }
        self.event(
            at,
            EventKind::MachineRemoved,
            node_id(name),
            "RemovingNode",
            node_event(name, format_args!("Removing Node {name} from Controller")),
        );
        if orphans {
            self.orphaned.push((node, None));
            self.plan_pod_gc_pass(at);
        }
        self.changed = true;
        self.check_drains(at);
    }

    fn is_control_plane(&self, node: usize) -> bool {
        self.nodes.get(node).is_some_and(|target| {
            let labels = &target.input.metadata.labels;
            labels.contains_key("node-role.kubernetes.io/master")
                || labels.contains_key("node-role.kubernetes.io/control-plane")
        })
    }

    fn other_control_plane_cordoned(&self, node: usize) -> bool {
        self.nodes.iter().enumerate().any(|(other, target)| {
            other != node && !target.gone && target.unschedulable && self.is_control_plane(other)
        })
    }

    // The descheduler.

    fn deschedule(&mut self, at: Duration, step: usize) {
        let Some(policy) = &self.cluster.descheduler_policy else {
            self.step_warning(
                step,
                "scenario/no-descheduler-policy",
                String::from("the input has no DeschedulerPolicy; the step does nothing"),
            );
            return;
        };
        self.live.refresh(&self.nodes);
        // The pods the API lists: running and terminating ones (not yet gone).
        let mut listed: Vec<&PodEntry> = Vec::new();
        let mut positions = Vec::new();
        // Where each listed pod is, as a position among the live nodes.
        let mut bound = Vec::new();
        for (index, (entry, life)) in self.pods.iter().zip(&self.life).enumerate() {
            if matches!(life, Life::Running | Life::Terminating { .. }) {
                listed.push(entry);
                positions.push(index);
                let node = self.node_of.get(index).copied().flatten();
                bound.push(node.and_then(|node| self.live.position(node)));
            }
        }
        let budgets = &mut self.budgets;
        budgets.at(at);
        let life = &self.life;
        let marked = &self.marked_not_ready;
        let version = self.version;
        let mut evict = |index: usize, again: bool| {
            let (Some(&pod), Some(entry)) = (positions.get(index), listed.get(index)) else {
                return Ok(Evicted::Terminating);
            };
            let terminating = again || matches!(life.get(pod), Some(Life::Terminating { .. }));
            budgets.evict(&entry.pod, ready_now(marked, pod, entry), terminating)?;
            // As `terminate` decides it for the eviction the step then makes.
            let grace = grace_period(version, None, entry.deletion.grace_seconds);
            Ok(if grace == Duration(0) {
                crate::descheduler::Evicted::Gone
            } else {
                Evicted::Terminating
            })
        };
        let mut outcome = crate::descheduler::run_with(
            policy,
            &self.live.nodes,
            &listed,
            &bound,
            crate::descheduler::Options::default(),
            &mut evict,
        );
        for (index, _) in &mut outcome.evicted {
            *index = positions.get(*index).copied().unwrap_or(usize::MAX);
        }
        let evicted = outcome.evicted.clone();
        self.event(
            at,
            EventKind::Descheduler,
            String::from("DeschedulerPolicy"),
            "Descheduled",
            alloc::format!("the descheduler evicted {} pod(s)", evicted.len()),
        );
        self.disruption
            .descheduler
            .push(DeschedulerRun { at, outcome });
        for (pod, strategy) in evicted {
            self.terminate(
                at,
                pod,
                alloc::format!("descheduler:{strategy}"),
                "Descheduled",
                |name| {
                    alloc::format!("pod {name} evicted by the descheduler's {strategy} strategy")
                        .into()
                },
                None,
            );
        }
    }

    // The report.

    fn event(
        &mut self,
        at: Duration,
        kind: EventKind,
        object: impl Into<Words>,
        reason: &'static str,
        message: impl Into<Words>,
    ) {
        self.disruption.timeline.push(Event {
            at,
            kind,
            object: object.into(),
            reason: Cow::Borrowed(reason),
            message: message.into(),
        });
    }

    /// What is still waiting when the timeline stops: drains and machine deletions that
    /// hang, said at the last point of the timeline.
    fn still_waiting(&mut self) {
        let until = self.until;
        let mut events = Vec::new();
        for drain in self.drains.iter().filter(|drain| !drain.finished) {
            let node = self
                .nodes
                .get(drain.node)
                .map(|target| target.name().to_string())
                .unwrap_or_default();
            let terminating = drain
                .waiting
                .iter()
                .filter(|awaited| self.waits_for(awaited, until))
                .count();
            events.push((
                EventKind::Drain,
                node_id(&node),
                alloc::format!(
                    "node/{node} is still draining: {} refused by a PodDisruptionBudget, {} still terminating",
                    drain.blocked.len(),
                    terminating
                ),
            ));
        }
        for run in &self.machines {
            let waiting = match run.stage {
                Stage::WaitingPreDrain if !run.pre_drain.is_empty() => {
                    condition_text(&machine::drainable(&run.pre_drain))
                }
                Stage::WaitingPreTerminate => {
                    condition_text(&machine::terminable(&run.pre_terminate))
                }
                _ => continue,
            };
            events.push((
                EventKind::Machine,
                run.id.clone(),
                alloc::format!("still Deleting: {waiting}"),
            ));
        }
        for (kind, object, message) in events {
            self.event(until, kind, object, "StillWaiting", message);
        }
    }

    fn finish(mut self) -> Outcome {
        self.still_waiting();
        let mut disruption = self.disruption;
        disruption.machines = self
            .machines
            .iter()
            .zip(self.cluster.machines.iter().chain(&self.created))
            .map(|(run, model)| MachineStatus {
                machine: alloc::format!("{}/{}", model.metadata.namespace, model.metadata.name),
                node: model.status.node_ref.as_ref().map(|node| node.name.clone()),
                phase: match run.stage {
                    Stage::Running => model
                        .status
                        .phase
                        .clone()
                        .unwrap_or_else(|| String::from("Running")),
                    _ => String::from("Deleting"),
                },
                removed: run.stage == Stage::Removed,
                conditions: {
                    let mut conditions = alloc::vec![machine::drainable(&run.pre_drain)];
                    conditions.extend(run.drained.clone());
                    conditions.push(machine::terminable(&run.pre_terminate));
                    conditions
                },
            })
            .collect();
        // The cluster where the timeline stopped, only when asked for (it copies every pod).
        let (nodes, pods) = if self.state_wanted {
            // Replacements learn their node's name here (the view shared their pods).
            self.view = None;
            self.live.refresh(&self.nodes);
            let nodes = self.live.nodes;
            let runs = &self.nodes;
            let pods = self
                .pods
                .into_iter()
                .zip(&self.life)
                .zip(self.node_of.iter())
                .map(|((entry, life), node)| {
                    let mut entry = entry.into_owned();
                    let bound_to = node.and_then(|node| runs.get(node)).map(NodeRun::name);
                    if let Some(name) = bound_to.filter(|_| entry.pod.spec.node_name.is_empty()) {
                        Arc::make_mut(&mut entry.pod).spec.node_name = name.into();
                    }
                    entry.state = match life {
                        Life::Running => PodState::Bound,
                        Life::Terminating { .. } | Life::Gone => PodState::Terminated,
                        Life::Waiting => PodState::Pending,
                        Life::Elsewhere => entry.state,
                    };
                    entry
                })
                .collect();
            (nodes, pods)
        } else {
            (Vec::new(), Vec::new())
        };
        Outcome {
            disruption,
            nodes,
            pods,
            diagnostics: self.diagnostics,
        }
    }
}

/// The taint the node lifecycle controller mirrors `spec.unschedulable` with.
const UNSCHEDULABLE_TAINT: &str = "node.kubernetes.io/unschedulable";
const NOT_READY: &str = crate::admission::default_toleration_seconds::NOT_READY;
const UNREACHABLE: &str = crate::admission::default_toleration_seconds::UNREACHABLE;

/// StatefulSet pods by set (namespace, name), each with its ordinal.
type SetPods<'c> = BTreeMap<(&'c str, &'c str), Vec<(u64, usize)>>;

/// The input's StatefulSet pods by set (namespace, name), with their ordinals
/// (`getParentNameAndOrdinal`: the digits after the name's last dash), in input order.
fn input_set_pods(cluster: &Cluster) -> SetPods<'_> {
    let mut by_set = SetPods::new();
    for (pod, entry) in cluster.pods.iter().enumerate() {
        if entry.deletion.controller != Some(Controller::StatefulSet) {
            continue;
        }
        let metadata = &entry.pod.metadata;
        let Some(owner) = metadata.controller() else {
            continue;
        };
        let ordinal = metadata
            .name
            .rsplit_once('-')
            .map(|(_, digits)| digits.parse());
        if let Some(Ok(ordinal)) = ordinal {
            let set = (metadata.namespace.as_str(), owner.name.as_str());
            by_set.entry(set).or_default().push((ordinal, pod));
        }
    }
    by_set
}

/// The NoExecute taint a Ready condition's status calls for, and the one it replaces
/// (`None` for a ready node).
fn ready_taints(status: Option<&str>) -> Option<(&'static str, &'static str)> {
    match Ready::of(status) {
        Ready::False => Some((NOT_READY, UNREACHABLE)),
        Ready::Unknown => Some((UNREACHABLE, NOT_READY)),
        Ready::True => None,
    }
}

/// The grace period a deletion gets (`CheckGracefulDelete` in
/// `pkg/registry/core/pod/strategy.go`): the one asked for, else the pod's own. A
/// negative one is one second since 1.22 (`BeforeDelete` in
/// `staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go`, and the pod strategy);
/// 1.11 kept it, and its store deletes at once a pod whose grace period is not above
/// zero.
fn grace_period(version: Version, asked: Option<Duration>, own: Option<i64>) -> Duration {
    let grace = asked.unwrap_or_else(|| own.map_or(DEFAULT_GRACE, Duration::from_seconds));
    match version {
        _ if grace.0 >= 0 => grace,
        Version::Current => Duration::from_seconds(1),
        Version::Legacy => Duration(0),
    }
}

/// kubectl's name printer on an evicted pod, without its namespace: `pod/name evicted`
/// (`waitForDelete` in 1.11's `pkg/kubectl/cmd/drain.go`; 1.34's drain command prints
/// it from `onPodDeletionOrEvictionFinished`, `staging/src/k8s.io/kubectl/pkg/cmd/drain`).
fn evicted_line(name: &str) -> String {
    alloc::format!("pod/{name} evicted")
}

/// The first of `waitForDelete`'s polls, a second apart from `evicted`, at or after
/// `deadline`.
fn first_poll(evicted: Duration, deadline: Duration) -> Duration {
    let wait = deadline.0.saturating_sub(evicted.0).max(0);
    let polls = wait / crate::duration::SECOND + i64::from(wait % crate::duration::SECOND != 0);
    evicted.saturating_add(Duration(polls.saturating_mul(crate::duration::SECOND)))
}

/// The first moment `shouldSkipPod` (`staging/src/k8s.io/kubectl/pkg/drain/filters.go`)
/// holds for a pod deleted with this `deletionTimestamp`: the whole seconds since exceed
/// [`machine::SKIP_WAIT_FOR_DELETE`].
fn skipped_from(stamp: Duration) -> Duration {
    stamp
        .saturating_add(machine::SKIP_WAIT_FOR_DELETE)
        .saturating_add(Duration::from_seconds(1))
}

/// A zone for people: `region/zone`, one of them, or `(none)` for nodes without either
/// label.
fn zone_display(key: &str) -> String {
    match key.split_once(":\0:") {
        _ if key.is_empty() => String::from("(none)"),
        Some(("", zone)) => String::from(zone),
        Some((region, "")) => String::from(region),
        Some((region, zone)) => alloc::format!("{region}/{zone}"),
        None => String::from(key),
    }
}

/// [`World::ready`] with the marks passed in (for closures that borrow the world in parts).
fn ready_now(marked_not_ready: &[bool], pod: usize, entry: &PodEntry) -> bool {
    !marked_not_ready.get(pod).copied().unwrap_or(false) && budget::counts_as_ready(&entry.pod)
}

/// The conditions besides Ready that the node lifecycle controller sets to Unknown when a
/// node's kubelet stops posting ([`World::kubelet_posting`]), in its order.
fn marked_unknown(version: Version) -> &'static [&'static str] {
    match version {
        Version::Current => &["MemoryPressure", "DiskPressure", "PIDPressure"],
        Version::Legacy => &["OutOfDisk", "MemoryPressure", "DiskPressure"],
    }
}

/// The NoSchedule taints of the node lifecycle controller that conditions call for:
/// each condition type and status with its taint (`nodeConditionToTaintKeyStatusMap`).
const CONDITION_TAINTS: [(&str, &str, &str); 6] = [
    ("Ready", "False", NOT_READY),
    ("Ready", "Unknown", UNREACHABLE),
    (
        "MemoryPressure",
        "True",
        "node.kubernetes.io/memory-pressure",
    ),
    ("DiskPressure", "True", "node.kubernetes.io/disk-pressure"),
    (
        "NetworkUnavailable",
        "True",
        "node.kubernetes.io/network-unavailable",
    ),
    ("PIDPressure", "True", "node.kubernetes.io/pid-pressure"),
];

/// The NoSchedule taints the node lifecycle controller's pass adds to a node with these
/// conditions, taints and `spec.unschedulable`, and the keys of those it removes
/// ([`World::reconcile_no_schedule`]).
fn no_schedule_swap<'n>(
    conditions: &[NodeCondition],
    taints: &'n [Taint],
    unschedulable: bool,
) -> (Vec<&'static str>, Vec<&'n str>) {
    let mut wanted: Vec<&'static str> = Vec::new();
    let called_for = conditions
        .iter()
        .filter_map(|condition| condition_taint(&condition.type_, &condition.status));
    for key in called_for.chain(unschedulable.then_some(UNSCHEDULABLE_TAINT)) {
        if !wanted.contains(&key) {
            wanted.push(key);
        }
    }
    let no_schedule = || taints.iter().filter(|taint| taint.effect == "NoSchedule");
    let extra = no_schedule()
        .filter(|taint| controller_no_schedule_key(&taint.key) && !wanted.contains(&&*taint.key))
        .map(|taint| taint.key.as_str())
        .collect();
    wanted.retain(|&key| !no_schedule().any(|taint| taint.key == key));
    (wanted, extra)
}

/// Whether the timeline's start has work on this input node
/// ([`World::start_controllers`]): for a node with a NoExecute taint, a Ready condition
/// that is not True, or NoSchedule taints the node lifecycle controller's pass on every
/// node changes, whether that pass leaves it as it is; `None` for the rest, which the
/// start leaves alone. Worked out when the cluster is built, so that the start reads only
/// these nodes' taints and conditions (cold memory by then), not every node's.
#[must_use]
pub(crate) fn start_work(node: &Node) -> Option<bool> {
    let (missing, extra) = no_schedule_swap(
        &node.status.conditions,
        &node.spec.taints,
        node.spec.unschedulable,
    );
    let settled = missing.is_empty() && extra.is_empty();
    let busy = !settled
        || node
            .spec
            .taints
            .iter()
            .any(|taint| taint.effect == "NoExecute")
        || ready_taints(condition_status(&node.status.conditions, "Ready")).is_some();
    busy.then_some(settled)
}

/// The status of the first condition of this type.
fn condition_status<'a>(conditions: &'a [NodeCondition], type_: &str) -> Option<&'a str> {
    conditions
        .iter()
        .find(|condition| condition.type_ == type_)
        .map(|condition| condition.status.as_str())
}

/// The NoSchedule taint a condition of this type and status calls for.
fn condition_taint(condition: &str, status: &str) -> Option<&'static str> {
    // Lengths first: a healthy node's conditions differ in length of type or status from
    // every entry, so the start pass over every node reads no condition's text (cold
    // memory; reading it cost about a fifth of the taint case's time).
    CONDITION_TAINTS
        .iter()
        .filter(|(type_, wanted, _)| type_.len() == condition.len() && wanted.len() == status.len())
        .find(|(type_, wanted, _)| *wanted == status && *type_ == condition)
        .map(|(_, _, key)| *key)
}

/// Whether the node lifecycle controller owns a NoSchedule taint of this key: one a
/// condition calls for (`taintKeyToNodeConditionMap`) or the `unschedulable` one.
fn controller_no_schedule_key(key: &str) -> bool {
    key == UNSCHEDULABLE_TAINT || CONDITION_TAINTS.iter().any(|(_, _, taint)| *taint == key)
}

fn plain_taint(key: &str, effect: &str) -> Taint {
    Taint {
        key: key.to_string(),
        value: String::new(),
        effect: effect.to_string(),
        time_added: None,
    }
}

fn node_id(name: &str) -> String {
    alloc::format!("Node/{name}")
}

/// The message of an event the node lifecycle controller records on a node through
/// `RecordNodeEvent` (`pkg/controller/util/node/controller_utils.go`, 1.11 and 1.34),
/// which wraps what happened as `Node <name> event: <what>`; its status changes
/// (`RecordNodeStatusChange`) read `Node <name> status is now: <status>` instead.
fn node_event(name: &str, what: core::fmt::Arguments<'_>) -> String {
    alloc::format!("Node {name} event: {what}")
}

/// The wall-clock moment the timeline starts at, for the delete policies that rank
/// machines by age: the input says only when its objects were created, so kubefit takes
/// the newest `creationTimestamp` of its nodes, pods, machines and machine sets (a dump is
/// taken after all of them were made). Older dumps make ages shorter than upstream's
/// `metav1.Now()` would.
fn timeline_start(cluster: &Cluster) -> Option<Duration> {
    let nodes = cluster.nodes.iter().map(|node| &node.metadata);
    let pods = cluster.pods.iter().map(|entry| &entry.pod.metadata);
    let machines = cluster.machines.iter().map(|machine| &machine.metadata);
    let sets = cluster.machine_sets.iter().map(|set| &set.metadata);
    nodes
        .chain(pods)
        .chain(machines)
        .chain(sets)
        .filter_map(|metadata| crate::timestamp::parse(metadata.creation_timestamp.as_deref()?))
        .map(crate::timestamp::Instant::since_epoch)
        .max()
}

/// `MachineSet/namespace/name`.
fn machine_set_id(set: &MachineSet) -> String {
    alloc::format!(
        "MachineSet/{}/{}",
        set.metadata.namespace,
        set.metadata.name
    )
}

fn condition_text(condition: &machine::Condition) -> String {
    if condition.status == "True" {
        alloc::format!("{}=True", condition.type_)
    } else {
        alloc::format!(
            "{}=False ({}): {}",
            condition.type_,
            condition.reason,
            condition.message
        )
    }
}

/// A node as the timeline changes it: the input's node, with the fields the timeline edits
/// (taints, `spec.unschedulable`, conditions) kept beside it. Tainting a node copies its
/// taints, not every label and image: a whole copy was most of a 500-node taint's
/// allocations.
struct NodeRun<'c> {
    input: &'c Node,
    taints: Cow<'c, [Taint]>,
    unschedulable: bool,
    conditions: Cow<'c, [NodeCondition]>,
    /// Deleted (its machine was removed).
    gone: bool,
    /// Counts the edits above ([`LiveNodes`] copies a node again when it moved).
    revision: u32,
    /// Its name for the report, made when a first pod leaves it and shared by the rest.
    words: OnceCell<Arc<str>>,
}

impl<'c> NodeRun<'c> {
    fn new(input: &'c Node) -> Self {
        Self {
            input,
            taints: Cow::Borrowed(&input.spec.taints),
            unschedulable: input.spec.unschedulable,
            conditions: Cow::Borrowed(&input.status.conditions),
            gone: false,
            revision: 0,
            words: OnceCell::new(),
        }
    }

    /// Its taints, to edit.
    fn taints_mut(&mut self) -> &mut Vec<Taint> {
        self.revision = self.revision.wrapping_add(1);
        self.taints.to_mut()
    }

    /// Its conditions, to edit.
    fn conditions_mut(&mut self) -> &mut Vec<NodeCondition> {
        self.revision = self.revision.wrapping_add(1);
        self.conditions.to_mut()
    }

    fn set_unschedulable(&mut self, unschedulable: bool) {
        self.revision = self.revision.wrapping_add(1);
        self.unschedulable = unschedulable;
    }

    /// Deletes the node.
    fn remove(&mut self) {
        self.revision = self.revision.wrapping_add(1);
        self.gone = true;
    }

    fn name(&self) -> &'c str {
        &self.input.metadata.name
    }

    /// Its name, shared, for the report.
    fn words(&self) -> Words {
        Words::shared(self.words.get_or_init(|| Arc::from(self.name())))
    }

    /// The status of a condition (as [`Node::condition`], on the edited conditions).
    fn condition(&self, type_: &str) -> Option<&str> {
        condition_status(&self.conditions, type_)
    }

    /// The node as it stands now.
    fn to_node(&self) -> Node {
        // Field by field: a whole copy would copy the input's taints and conditions (a
        // node's conditions hold some twenty strings) only to drop them for these.
        let input = self.input;
        Node {
            metadata: input.metadata.clone(),
            spec: NodeSpec {
                unschedulable: self.unschedulable,
                taints: self.taints.to_vec(),
                provider_id: input.spec.provider_id.clone(),
            },
            status: NodeStatus {
                capacity: input.status.capacity.clone(),
                allocatable: input.status.allocatable.clone(),
                conditions: self.conditions.to_vec(),
                images: input.status.images.clone(),
            },
        }
    }

    /// Brings a copy of the node up to the timeline's edits.
    fn edit(&self, node: &mut Node) {
        node.spec.taints = self.taints.to_vec();
        node.spec.unschedulable = self.unschedulable;
        node.status.conditions = self.conditions.to_vec();
    }
}

/// The nodes that are not gone, as they stand, kept for the engines that read whole
/// nodes (the descheduler, each round of placing replacements): between two of them only
/// the nodes the timeline edited are copied again. A copy of 5 000 nodes and its drop
/// took a third of the time of placing 257 replacements.
#[derive(Default)]
struct LiveNodes {
    nodes: Vec<Node>,
    /// Per node of the timeline, its position in `nodes` (`None`: gone) and the
    /// [`NodeRun::revision`] copied there.
    copied: Vec<Option<(usize, u32)>>,
    /// Counts the times the positions moved (a node was removed).
    generation: u32,
}

impl LiveNodes {
    /// Brings the copies up to `runs`: the edited nodes are copied again, and every node
    /// when one was removed since (positions move).
    fn refresh(&mut self, runs: &[NodeRun<'_>]) {
        let moved = self.copied.len() != runs.len()
            || self.nodes.len() != self.copied.iter().flatten().count()
            || runs
                .iter()
                .zip(&self.copied)
                .any(|(run, copied)| run.gone != copied.is_none());
        if moved {
            self.generation = self.generation.wrapping_add(1);
            self.nodes.clear();
            self.copied.clear();
            for run in runs {
                if run.gone {
                    self.copied.push(None);
                } else {
                    self.copied.push(Some((self.nodes.len(), run.revision)));
                    self.nodes.push(run.to_node());
                }
            }
            return;
        }
        for (run, copied) in runs.iter().zip(&mut self.copied) {
            if let Some((position, revision)) = copied {
                if *revision != run.revision {
                    if let Some(node) = self.nodes.get_mut(*position) {
                        run.edit(node);
                    }
                    *revision = run.revision;
                }
            }
        }
    }

    /// Changes whenever the positions of the nodes move.
    fn generation(&self) -> u32 {
        self.generation
    }

    /// Each timeline node's position among the live nodes.
    fn position(&self, node: usize) -> Option<usize> {
        self.copied
            .get(node)
            .copied()
            .flatten()
            .map(|(position, _)| position)
    }
}

/// An input object as the timeline sees it: borrowed until a step changes it.
enum Shared<'c, T> {
    /// As in the input.
    Input(&'c T),
    /// Changed, or made by the timeline (a replacement pod); boxed so that the list of
    /// borrowed objects stays small.
    Own(Box<T>),
}

impl<T: Clone> Shared<'_, T> {
    /// The object, copied the first time it changes (always `Some`; an `Option` so that
    /// no arm has to be unreachable).
    fn to_mut(&mut self) -> Option<&mut T> {
        if let Self::Input(input) = self {
            *self = Self::Own(Box::new(T::clone(input)));
        }
        match self {
            Self::Own(own) => Some(own),
            Self::Input(_) => None,
        }
    }

    fn into_owned(self) -> T {
        match self {
            Self::Input(input) => input.clone(),
            Self::Own(own) => *own,
        }
    }
}

impl<T> core::ops::Deref for Shared<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Self::Input(input) => input,
            Self::Own(own) => own,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{input, Limits, Source};
    use alloc::vec::Vec;

    /// Plays the Scenario of `yaml`.
    fn play(yaml: &str) -> Outcome {
        play_as(yaml, None)
    }

    /// Plays the Scenario of `yaml` under the profile `version` (`None`: the input's).
    /// OpenShift 3.11's master configuration with the `TaintBasedEvictions` gate on.
    const TAINT_BASED_EVICTIONS: &str = "---\napiVersion: v1\nkind: MasterConfig\nkubernetesMasterConfig:\n  controllerArguments:\n    feature-gates: ['TaintBasedEvictions=true']\n";

    fn play_as(yaml: &str, version: Option<Version>) -> Outcome {
        let sources = [Source::new("test", yaml)];
        let cluster = Cluster::build(input::load(&sources, &Limits::default()), &sources, version);
        assert!(
            cluster.diagnostics.iter().all(|d| !d.is_error()),
            "{:?}",
            cluster.diagnostics
        );
        run(&cluster, &ScheduleOptions::default(), &Options::default()).expect("a Scenario")
    }

    /// A pod's [`Life`] stays two words: the timeline writes one for each of the cluster's
    /// pods when it starts (a 64-bit time in it made it three times larger in wasm).
    #[test]
    fn a_life_is_two_words() {
        assert!(core::mem::size_of::<Life>() <= 2 * core::mem::size_of::<usize>());
    }

    /// The message of the outcome's first drain event.
    fn drain_message(outcome: &Outcome) -> Option<String> {
        outcome
            .disruption
            .timeline
            .iter()
            .find(|event| event.kind == EventKind::Drain)
            .map(|event| event.message.to_string())
    }

    /// Every eviction of the outcome as `(pod, seconds)`.
    fn evicted(outcome: &Outcome) -> Vec<(String, i64)> {
        outcome
            .disruption
            .evictions
            .iter()
            .map(|eviction| {
                (
                    eviction.pod.to_string(),
                    eviction.at.0 / crate::duration::SECOND,
                )
            })
            .collect()
    }

    /// Plays the Scenario of `yaml`; every eviction as `(pod, seconds)`.
    fn evictions(yaml: &str) -> Vec<(String, i64)> {
        evicted(&play(yaml))
    }

    const NODE: &str = "---\nkind: Node\napiVersion: v1\nmetadata: {name: node1}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}, conditions: [{type: Ready, status: 'True'}]}\n";

    /// A running pod on node1 with upstream's `addToleration(pod, index, seconds)`:
    /// `testTaint<index>=test<index>:NoExecute`, for ever when `seconds` is negative.
    fn pod(name: &str, toleration: Option<(u8, i64)>) -> String {
        let tolerations = match toleration {
            None => String::new(),
            Some((index, seconds)) if seconds < 0 => alloc::format!(
                "  tolerations: [{{key: testTaint{index}, value: test{index}, effect: NoExecute}}]\n"
            ),
            Some((index, seconds)) => alloc::format!(
                "  tolerations: [{{key: testTaint{index}, value: test{index}, effect: NoExecute, tolerationSeconds: {seconds}}}]\n"
            ),
        };
        alloc::format!(
            "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  nodeName: node1\n  containers: [{{name: c, image: c}}]\n{tolerations}status: {{phase: Running}}\n"
        )
    }

    /// `pod1`, running on node1, tolerating each `(key, seconds)` NoExecute taint
    /// (operator Exists; for ever without seconds).
    fn pod_tolerating(tolerations: &[(&str, Option<i64>)]) -> String {
        let listed: String = tolerations
            .iter()
            .map(|(key, seconds)| match seconds {
                None => alloc::format!("  - {{key: {key}, operator: Exists, effect: NoExecute}}\n"),
                Some(seconds) => alloc::format!(
                    "  - {{key: {key}, operator: Exists, effect: NoExecute, tolerationSeconds: {seconds}}}\n"
                ),
            })
            .collect();
        alloc::format!(
            "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: pod1, namespace: default}}\nspec:\n  nodeName: node1\n  containers: [{{name: c, image: c}}]\n  tolerations:\n{listed}status: {{phase: Running}}\n"
        )
    }

    /// A budget that keeps two of the `app: web` pods.
    const WEB_BUDGET: &str = "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: default}\nspec: {minAvailable: 2, selector: {matchLabels: {app: web}}}\n";

    /// A running `app: web` pod of the ReplicaSet `web` on `node`, with more spec lines
    /// and status lines (each ending in a newline).
    fn web_pod(name: &str, node: &str, spec: &str, status: &str) -> String {
        alloc::format!(
            "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default, labels: {{app: web}}, ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u1, controller: true}}]}}\nspec:\n  nodeName: {node}\n  containers: [{{name: c, image: c}}]\n{spec}status:\n  phase: Running\n{status}"
        )
    }

    fn scenario(steps: &str) -> String {
        alloc::format!(
            "---\napiVersion: kubefit.dev/v1alpha1\nkind: Scenario\nmetadata: {{name: t}}\nspec:\n  steps:\n{steps}"
        )
    }

    /// `TestUpdateNodeWithMultiplePods` (`pkg/controller/tainteviction/taint_eviction_test.go`).
    #[test]
    fn pods_go_after_their_own_toleration_times() {
        let pods = [
            pod("pod1", None),
            pod("pod2", Some((1, 1))),
            pod("pod3", Some((1, -1))),
        ]
        .concat();
        let one_taint = scenario("  - {at: 0s, taint: 'node1 testTaint1=test1:NoExecute'}\n");
        assert_eq!(
            evictions(&[NODE, &pods, &one_taint].concat()),
            [("default/pod1".into(), 0), ("default/pod2".into(), 1)]
        );
        // A second taint none of them tolerates: all go at once.
        let two_taints = scenario(
            "  - {at: 0s, taint: 'node1 testTaint1=test1:NoExecute'}\n  - {at: 0s, taint: 'node1 testTaint2=test2:NoExecute'}\n",
        );
        let mut gone = evictions(&[NODE, &pods, &two_taints].concat());
        gone.sort();
        assert_eq!(
            gone,
            [
                ("default/pod1".into(), 0),
                ("default/pod2".into(), 0),
                ("default/pod3".into(), 0)
            ]
        );
    }

    /// `TestUpdateNodeWithMultipleTaints`: a taint tolerated for ever and one for 60 s
    /// queue the pod; removing the second cancels it. 1.11, before #93722, lets the
    /// planned eviction fire (`processPodOnNode` returns on a toleration for ever).
    #[test]
    fn removing_the_temporarily_tolerated_taint_cancels_the_eviction() {
        let pod = &pod_tolerating(&[("testTaint1", None), ("testTaint2", Some(60))]);
        let kept = scenario(
            "  - {at: 0s, taint: 'node1 testTaint1=test1:NoExecute'}\n  - {at: 0s, taint: 'node1 testTaint2=test2:NoExecute'}\n",
        );
        assert_eq!(
            evictions(&[NODE, pod, &kept].concat()),
            [("default/pod1".into(), 60)]
        );
        let cancelled = scenario(
            "  - {at: 0s, taint: 'node1 testTaint1=test1:NoExecute'}\n  - {at: 0s, taint: 'node1 testTaint2=test2:NoExecute'}\n  - {at: 30s, untaint: 'node1 testTaint2:NoExecute-'}\n",
        );
        let yaml = [NODE, pod, &cancelled].concat();
        assert_eq!(evictions(&yaml), []);
        let outcome = play_as(&yaml, Some(Version::Legacy));
        assert_eq!(evicted(&outcome), [("default/pod1".into(), 60)]);
        let events = pod1_events(&outcome, "TaintManagerEviction");
        let marked = "Marking for deletion Pod default/pod1".to_string();
        assert_eq!(events.last(), Some(&(60, marked)), "{events:?}");
        let cancelled = outcome
            .disruption
            .timeline
            .iter()
            .any(|event| event.kind == EventKind::EvictionCancelled);
        assert!(!cancelled, "{events:?}");
    }

    /// A pod whose eviction a budget refuses, and that goes meanwhile (here at the end of
    /// an earlier drain's grace period), is done at the next retry: the eviction finds no
    /// pod (`NotFound` ends its goroutine in `evictPods`), and the drain completes.
    #[test]
    fn a_refused_pod_that_goes_meanwhile_ends_its_retries() {
        let yaml = r#"apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Policy, predicates: [{name: PodFitsResources}], priorities: [{name: LeastRequestedPriority, weight: 1}]}
- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: policy/v1beta1, kind: PodDisruptionBudget, metadata: {name: web, namespace: default}, spec: {minAvailable: 1, selector: {matchLabels: {app: web}}}}
- apiVersion: v1
  kind: Pod
  metadata: {name: web-a, namespace: default, labels: {app: web}, ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u1, controller: true}]}
  spec: {nodeName: n1, terminationGracePeriodSeconds: 22, containers: [{name: c, image: c}]}
  status: {phase: Running, conditions: [{type: Ready, status: "True"}]}
- apiVersion: v1
  kind: Pod
  metadata: {name: web-mirror, namespace: default, labels: {app: web}, annotations: {kubernetes.io/config.mirror: x}}
  spec: {nodeName: n1, containers: [{name: c, image: c}]}
  status: {phase: Running, conditions: [{type: Ready, status: "True"}]}
- {apiVersion: kubefit.dev/v1alpha1, kind: Scenario, metadata: {name: s}, spec: {steps: [{at: 0s, drain: {node: n1, timeout: 2s}}, {at: 3s, drain: {node: n1, timeout: 60s}}]}}
"#;
        let outcome = play_as(yaml, Some(Version::Legacy));
        let drain: Vec<(i64, String)> = happenings(&outcome)
            .into_iter()
            .filter(|(_, _, object)| object == "Node/n1")
            .map(|(at, reason, _)| (at, reason))
            .collect();
        assert_eq!(
            drain.last(),
            Some(&(23, "Drained".to_string())),
            "{drain:?}"
        );
    }

    /// A StatefulSet's pod comes back under its own name only once it is gone, and its
    /// replacement lands on the node that is left.
    #[test]
    fn a_stateful_pod_is_recreated_under_its_name_once_gone() {
        let node2 = NODE.replace("node1", "node2");
        let pod = "---\nkind: Pod\napiVersion: v1\nmetadata:\n  name: db-0\n  namespace: default\n  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u1, controller: true}]\nspec:\n  nodeName: node1\n  terminationGracePeriodSeconds: 10\n  containers: [{name: c, image: c}]\nstatus: {phase: Running}\n";
        let steps = scenario("  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n");
        let outcome = play(&[NODE, &node2, pod, &steps].concat());
        let eviction = &outcome.disruption.evictions[0];
        assert_eq!(eviction.pod, "default/db-0");
        assert_eq!(eviction.node, "node1");
        assert_eq!(eviction.replacement, Some(Words::Fixed("default/db-0")));
        assert_eq!(eviction.rescheduled_to.as_deref(), Some("node2"));
        let events: Vec<(i64, EventKind, String)> = outcome
            .disruption
            .timeline
            .iter()
            .map(|event| {
                (
                    event.at.0 / crate::duration::SECOND,
                    event.kind,
                    event.object.to_string(),
                )
            })
            .collect();
        assert_eq!(
            events,
            [
                (0, EventKind::TaintAdded, "Node/node1".into()),
                (0, EventKind::PodEvicted, "Pod/default/db-0".into()),
                (10, EventKind::PodDeleted, "Pod/default/db-0".into()),
                (10, EventKind::PodRescheduled, "Pod/default/db-0".into()),
            ]
        );
    }

    /// A finalizer kubefit does not take as removed keeps the deleted object: the
    /// StatefulSet never recreates the name, and a drain waits for it until its timeout.
    /// The Job's tracking finalizer and the garbage collector's do not hold it.
    #[test]
    fn a_finalizer_keeps_a_deleted_pod_terminating() {
        let node2 = NODE.replace("node1", "node2");
        let outcome = |finalizers: &str, step: &str| {
            let pod = alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata:\n  name: db-0\n  namespace: default\n  finalizers: [{finalizers}]\n  ownerReferences: [{{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u1, controller: true}}]\nspec:\n  nodeName: node1\n  terminationGracePeriodSeconds: 10\n  containers: [{{name: c, image: c}}]\nstatus: {{phase: Running}}\n"
            );
            play(&[NODE, &node2, &pod, &scenario(step)].concat())
        };
        let taint = "  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n";
        let held = outcome("example.com/protect, orphan", taint);
        assert_eq!(
            happenings(&held),
            [
                (0, "Taint".into(), "Node/node1".into()),
                (0, "TaintManagerEviction".into(), "Pod/default/db-0".into()),
            ]
        );
        assert_eq!(held.disruption.evictions[0].replacement, None);
        for finalizers in ["batch.kubernetes.io/job-tracking", "foregroundDeletion"] {
            let gone = outcome(finalizers, taint);
            assert_eq!(
                gone.disruption.evictions[0].rescheduled_to.as_deref(),
                Some("node2")
            );
        }
        let drain = "  - {at: 0s, drain: {node: node1, timeout: 60s}}\n";
        let drained = outcome("example.com/protect", drain);
        let last = happenings(&drained).into_iter().last();
        assert!(
            last.as_ref().is_some_and(|(at, reason, object)| *at == 60
                && reason != "Drained"
                && object == "Node/node1"),
            "{last:?}"
        );
    }

    /// `processPodOnNode` with a plan made before: a toleration of zero seconds keeps it
    /// (`getMinTolerationTime` gives 0, and an older plan wins); a taint not tolerated
    /// cancels it, with upstream's event, and the pod goes at once. Without a plan, zero
    /// seconds is at once.
    #[test]
    fn a_plan_made_before_meets_zero_seconds_and_an_untolerated_taint() {
        let pod = &pod_tolerating(&[("k1", Some(600)), ("k2", Some(0))]);
        let zero_later = scenario(
            "  - {at: 0s, taint: 'node1 k1=v:NoExecute'}\n  - {at: 100s, taint: 'node1 k2=v:NoExecute'}\n",
        );
        assert_eq!(
            evictions(&[NODE, pod, &zero_later].concat()),
            [("default/pod1".into(), 600)]
        );
        let zero_alone = scenario("  - {at: 100s, taint: 'node1 k2=v:NoExecute'}\n");
        assert_eq!(
            evictions(&[NODE, pod, &zero_alone].concat()),
            [("default/pod1".into(), 100)]
        );
        let untolerated_later = scenario(
            "  - {at: 0s, taint: 'node1 k1=v:NoExecute'}\n  - {at: 100s, taint: 'node1 k3=v:NoExecute'}\n",
        );
        let outcome = play(&[NODE, pod, &untolerated_later].concat());
        assert_eq!(evicted(&outcome), [("default/pod1".into(), 100)]);
        let at_100: Vec<(EventKind, String)> = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| event.at.0 / crate::duration::SECOND == 100)
            .map(|event| (event.kind, event.message.to_string()))
            .collect();
        assert_eq!(
            at_100,
            [
                (
                    EventKind::TaintAdded,
                    "node/node1 tainted with k3=v:NoExecute".into()
                ),
                (
                    EventKind::EvictionCancelled,
                    "Cancelling deletion of Pod default/pod1".into()
                ),
                (
                    EventKind::PodEvicted,
                    "Marking for deletion Pod default/pod1".into()
                ),
            ]
        );
    }

    /// A replacement that fits nowhere preempts: its cycle's FailedScheduling event, the
    /// fit error, comes first, then the victim's `Preempted` event (1.11: `by <preemptor>
    /// on node <node>`; 1.34 names the preemptor by its UID, unknown for a replacement,
    /// and kubefit by namespace and name). The preemptor lands once the victim is gone.
    #[test]
    fn a_preempting_replacement_fails_first_then_evicts_its_victims() {
        let node2 = NODE.replace("node1", "node2");
        let class = "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n";
        let cpu = "  containers: [{name: c, image: c, resources: {requests: {cpu: '3'}}}]\n";
        let web = web_pod(
            "web-a",
            "node1",
            "  priorityClassName: high\n  priority: 1000\n",
            "",
        )
        .replace("  containers: [{name: c, image: c}]\n", cpu);
        let low = alloc::format!(
            "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: low, namespace: default}}\nspec:\n  nodeName: node2\n  priority: 0\n{cpu}status: {{phase: Running}}\n"
        );
        let steps = scenario("  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n");
        let yaml = [NODE, &node2, class, &web, &low, &steps].concat();
        // Named after its ReplicaSet, not after the pod it replaces (`getPodsPrefix`).
        let replacement = "Pod/default/web-";
        for (version, failed, preempted) in [
            (
                Version::Legacy,
                "0/2 nodes are available: 2 Insufficient cpu.",
                "by default/web-",
            ),
            (
                Version::Current,
                "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s).",
                "Preempted by pod default/web-",
            ),
        ] {
            let outcome = play_as(&yaml, Some(version));
            let seen: Vec<(i64, String, String, String)> = outcome
                .disruption
                .timeline
                .iter()
                .filter(|event| {
                    ["FailedScheduling", "Preempted", "Scheduled"].contains(&&*event.reason)
                })
                .map(|event| {
                    (
                        event.at.0 / crate::duration::SECOND,
                        event.reason.to_string(),
                        event.object.to_string(),
                        event.message.to_string(),
                    )
                })
                .collect();
            let [(0, first, object, message), (0, second, victim, text), (30, third, ..)] =
                &seen[..]
            else {
                panic!("{version:?}: {seen:?}");
            };
            assert_eq!(
                (&**first, &**message),
                ("FailedScheduling", failed),
                "{version:?}"
            );
            assert!(
                object.starts_with(replacement) && object.len() == replacement.len() + 5,
                "{object}"
            );
            assert_eq!((&**second, &**victim), ("Preempted", "Pod/default/low"));
            assert!(
                text.starts_with(preempted)
                    && text.len() == preempted.len() + 5 + " on node node2".len()
                    && text.ends_with(" on node node2"),
                "{text}"
            );
            assert_eq!(third, "Scheduled");
        }
    }

    /// A replacement bound during the timeline is one of its new node's pods: a later
    /// NoExecute taint, or a drain, of that node evicts it too.
    #[test]
    fn a_replacement_goes_with_its_new_node() {
        let node2 = NODE.replace("node1", "node2");
        let pod = "---\nkind: Pod\napiVersion: v1\nmetadata:\n  name: web-1\n  namespace: default\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u1, controller: true}]\nspec:\n  nodeName: node1\n  containers: [{name: c, image: c}]\nstatus: {phase: Running}\n";
        for (later, cause) in [
            ("{at: 1m, taint: 'node2 k=v:NoExecute'}", "taint"),
            ("{at: 1m, drain: node2}", "drain"),
        ] {
            let steps = scenario(&alloc::format!(
                "  - {{at: 0s, taint: 'node1 k=v:NoExecute'}}\n  - {later}\n"
            ));
            let outcome = play(&[NODE, &node2, pod, &steps].concat());
            let [first, second] = &outcome.disruption.evictions[..] else {
                panic!("two evictions: {:?}", outcome.disruption.evictions);
            };
            assert_eq!(first.rescheduled_to.as_deref(), Some("node2"));
            assert_eq!(Some(&second.pod), first.replacement.as_ref(), "{cause}");
            assert_eq!(second.node, "node2");
            assert_eq!(second.at.0 / crate::duration::SECOND, 60);
            assert_eq!(second.cause, cause);
        }
    }

    /// A replacement is created through the API server: the creation chain's
    /// DefaultTolerationSeconds lets it stay five minutes on a node that goes not ready,
    /// where the old pod, dumped without those tolerations, would go at once.
    #[test]
    fn a_replacement_passes_the_creation_admission_chain() {
        let node2 = NODE.replace("node1", "node2");
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n  - {at: 1m, nodeCondition: {node: node2, type: Ready, status: 'False'}}\n",
        );
        let outcome = play(&[NODE, &node2, &web_pod("web-1", "node1", "", ""), &steps].concat());
        let [first, second] = &outcome.disruption.evictions[..] else {
            panic!("two evictions: {:?}", outcome.disruption.evictions);
        };
        assert_eq!(first.rescheduled_to.as_deref(), Some("node2"));
        assert_eq!(Some(&second.pod), first.replacement.as_ref());
        assert_eq!(second.at.0 / crate::duration::SECOND, 360);
    }

    /// The replacement is made from its controller's template when the input has the
    /// controller (`GetPodFromTemplate`): a ReplicaSet's template selects `disk=ssd`,
    /// which the old pod, created before, did not; a StatefulSet's template adds a
    /// priority class too. Without the controller's object the old pod stands in for it.
    #[test]
    fn a_replacement_is_made_from_its_controllers_template() {
        let node = |name: &str, labels: &str| {
            NODE.replace(
                "{name: node1}",
                &alloc::format!("{{name: {name}, labels: {{{labels}}}}}"),
            )
        };
        let nodes = [
            node("node1", ""),
            node("node2", "old: 'yes'"),
            node("node3", "disk: ssd"),
        ]
        .concat();
        let class = "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n";
        let template = "  template:\n    metadata: {labels: {app: web}}\n    spec:\n      priorityClassName: high\n      nodeSelector: {disk: ssd}\n      containers: [{name: c, image: c}]\n";
        let replica_set = alloc::format!(
            "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: web, namespace: default, uid: u1}}\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: web}}}}\n{template}"
        );
        let stateful_set = replica_set
            .replace("kind: ReplicaSet", "kind: StatefulSet")
            .replace("replicas: 1", "replicas: 1\n  serviceName: web");
        let steps = scenario("  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n");
        let pod = web_pod("web-0", "node1", "  nodeSelector: {old: 'yes'}\n", "");
        let stateful = pod.replace("kind: ReplicaSet", "kind: StatefulSet");
        for (owner, pod, landed) in [
            (&replica_set, &pod, "node3"),
            (&stateful_set, &stateful, "node3"),
            (&String::new(), &pod, "node2"),
        ] {
            let outcome = play(&[&nodes, class, owner, pod, &steps].concat());
            let [eviction] = &outcome.disruption.evictions[..] else {
                panic!("one eviction: {:?}", outcome.disruption.evictions);
            };
            assert_eq!(eviction.rescheduled_to.as_deref(), Some(landed), "{owner}");
        }
        // The StatefulSet's pod comes back with the template's class.
        let yaml = [&nodes, class, &stateful_set, &stateful, &steps].concat();
        let sources = [Source::new("test", &yaml)];
        let cluster = Cluster::build(input::load(&sources, &Limits::default()), &sources, None);
        let options = Options {
            at: Some(Duration::from_seconds(60)),
            ..Options::default()
        };
        let outcome = run(&cluster, &ScheduleOptions::default(), &options).expect("a Scenario");
        let back = outcome
            .pods
            .iter()
            .find(|entry| &*entry.key == "default/web-0" && entry.state == PodState::Bound)
            .expect("web-0 back");
        assert_eq!(back.priority, 1000);
        assert_eq!(back.pod.spec.priority_class_name, "high");
        assert_eq!(
            back.pod
                .metadata
                .labels
                .get("statefulset.kubernetes.io/pod-name")
                .map(String::as_str),
            Some("web-0")
        );
    }

    /// A 1.34 Job counts a deleted pod that carries its tracking finalizer failed: by
    /// default at once, and creates the next pod after its failure backoff (10 s); with a
    /// `podFailurePolicy` once the pod is gone, finished then (its 30 s grace period, and
    /// the backoff after it); past its backoff limit, never. A pod without the finalizer
    /// counts for nothing: replaced at once. OpenShift 3.11's Job controller replaces it
    /// at once.
    #[test]
    fn a_job_replaces_a_deleted_pod_after_its_backoff() {
        let node2 = NODE.replace("node1", "node2");
        let job = |extra: &str| {
            alloc::format!(
                "---\napiVersion: batch/v1\nkind: Job\nmetadata: {{name: jb, namespace: default, uid: j1}}\nspec:\n  manualSelector: true\n  selector: {{matchLabels: {{app: jb}}}}\n{extra}  template:\n    metadata: {{labels: {{app: jb}}}}\n    spec: {{restartPolicy: Never, containers: [{{name: c, image: c}}]}}\n"
            )
        };
        let pod = |finalizers: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: jb-abcde, namespace: default, finalizers: [{finalizers}], labels: {{app: jb}}, ownerReferences: [{{apiVersion: batch/v1, kind: Job, name: jb, uid: j1, controller: true}}]}}\nspec:\n  nodeName: node1\n  restartPolicy: Never\n  containers: [{{name: c, image: c}}]\nstatus: {{phase: Running}}\n"
            )
        };
        let tracked = pod("batch.kubernetes.io/job-tracking");
        let steps = scenario("  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n");
        let policy = "  podFailurePolicy: {rules: [{action: FailJob, onExitCodes: {operator: In, values: [42]}}]}\n";
        for (extra, pod, version, scheduled) in [
            ("", &tracked, Version::Current, Some(10)),
            ("", &pod(""), Version::Current, Some(0)),
            (policy, &tracked, Version::Current, Some(40)),
            (policy, &pod(""), Version::Current, Some(30)),
            ("  backoffLimit: 0\n", &tracked, Version::Current, None),
            ("  backoffLimit: 0\n", &pod(""), Version::Current, Some(0)),
            ("  backoffLimit: 0\n", &tracked, Version::Legacy, Some(0)),
        ] {
            let outcome = play_as(
                &[NODE, &node2, &job(extra), pod, &steps].concat(),
                Some(version),
            );
            let seen: Vec<i64> = happenings(&outcome)
                .into_iter()
                .filter(|(_, reason, _)| reason == "Scheduled")
                .map(|(at, ..)| at)
                .collect();
            assert_eq!(seen, Vec::from_iter(scheduled), "{extra} {pod} {version:?}");
            let replacement = outcome.disruption.evictions[0].replacement.as_ref();
            assert_eq!(replacement.is_some(), scheduled.is_some(), "{extra}");
        }
    }

    /// A Job of `extra` spec lines (`manualSelector`, `app: jb`) and its tracked pods
    /// `(name, node, more spec lines)`, with node1 tainted at 0 s.
    fn job_on_nodes(extra: &str, status: &str, pods: &[(&str, &str, &str)]) -> String {
        let node2 = NODE.replace("node1", "node2");
        let job = alloc::format!(
            "---\napiVersion: batch/v1\nkind: Job\nmetadata: {{name: jb, namespace: default, uid: j1}}\nspec:\n  manualSelector: true\n  selector: {{matchLabels: {{app: jb}}}}\n{extra}  template:\n    metadata: {{labels: {{app: jb}}}}\n    spec: {{restartPolicy: Never, containers: [{{name: c, image: c}}]}}\n{status}"
        );
        let pods: String = pods
            .iter()
            .map(|(name, node, spec)| {
                alloc::format!(
                    "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default, finalizers: [batch.kubernetes.io/job-tracking], labels: {{app: jb}}, ownerReferences: [{{apiVersion: batch/v1, kind: Job, name: jb, uid: j1, controller: true}}]}}\nspec:\n  nodeName: {node}\n  restartPolicy: Never\n{spec}  containers: [{{name: c, image: c}}]\nstatus: {{phase: Running}}\n"
                )
            })
            .collect();
        let steps = scenario("  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n");
        [NODE, &node2, &job, &pods, &steps].concat()
    }

    /// The seconds at which replacements were scheduled.
    fn scheduled_at(outcome: &Outcome) -> Vec<i64> {
        happenings(outcome)
            .into_iter()
            .filter(|(_, reason, _)| reason == "Scheduled")
            .map(|(at, ..)| at)
            .collect()
    }

    /// A 1.34 Job keeps one backoff record: three failures at once wait 40 s after the
    /// last and then all three pods are created together; failures at 0 s and 5 s wait
    /// 20 s after the second. Past its backoff limit the Job creates nothing and deletes
    /// its other active pods (`deleteActivePods`).
    #[test]
    fn a_job_creates_its_missing_pods_together_after_its_last_failure() {
        let three = [
            ("jb-a", "node1", ""),
            ("jb-b", "node1", ""),
            ("jb-c", "node1", ""),
        ];
        let outcome = play(&job_on_nodes("  parallelism: 3\n", "", &three));
        assert_eq!(scheduled_at(&outcome), [40, 40, 40]);

        let tolerating = "  tolerations: [{key: k, operator: Exists, effect: NoExecute, tolerationSeconds: 5}]\n";
        let staggered = [("jb-a", "node1", ""), ("jb-b", "node1", tolerating)];
        let outcome = play(&job_on_nodes("  parallelism: 2\n", "", &staggered));
        assert_eq!(scheduled_at(&outcome), [25, 25]);

        let limited = [
            ("jb-a", "node1", ""),
            ("jb-b", "node1", ""),
            ("jb-c", "node2", ""),
        ];
        let outcome = play(&job_on_nodes(
            "  parallelism: 3\n  backoffLimit: 1\n",
            "",
            &limited,
        ));
        assert_eq!(scheduled_at(&outcome), Vec::<i64>::new());
        let last = outcome
            .disruption
            .evictions
            .last()
            .expect("three deletions");
        assert_eq!(
            (
                last.pod.to_string(),
                &*last.cause,
                last.at.0,
                last.replacement.is_none()
            ),
            ("default/jb-c".into(), "job", 0, true)
        );
        assert!(happenings(&outcome).contains(&(
            0,
            "SuccessfulDelete".into(),
            "Pod/default/jb-c".into()
        )));
    }

    /// A controller replaces a pod only while it has fewer active pods than it wants: a
    /// ReplicaSet scaled to 0 none, one of 1 that loses two pods one; a Job without
    /// completions that saw a success none, one with one completion left one for two
    /// pods; a StatefulSet of one replica does not recreate `db-1`.
    #[test]
    fn controllers_replace_only_the_pods_they_want() {
        let replacements = |yaml: &str| -> usize {
            let outcome = play(yaml);
            let evictions = &outcome.disruption.evictions;
            evictions
                .iter()
                .filter(|eviction| eviction.replacement.is_some())
                .count()
        };
        let steps = scenario("  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n");
        let replica_set = |replicas: u32| {
            alloc::format!(
                "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: web, namespace: default, uid: u1}}\nspec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec: {{containers: [{{name: c, image: c}}]}}\n"
            )
        };
        let web = |name: &str| web_pod(name, "node1", "", "");
        for (replicas, pods, replaced) in [(0, 1, 0), (1, 2, 1), (2, 2, 2)] {
            let pods: String = ["web-a", "web-b"][..pods]
                .iter()
                .map(|name| web(name))
                .collect();
            let yaml = [NODE, &replica_set(replicas), &pods, &steps].concat();
            assert_eq!(replacements(&yaml), replaced, "{replicas}");
        }

        let two = [("jb-a", "node1", ""), ("jb-b", "node1", "")];
        let succeeded = "status: {succeeded: 1, active: 2}\n";
        let yaml = job_on_nodes("  parallelism: 2\n", succeeded, &two);
        assert_eq!(replacements(&yaml), 0);
        let one_left = "  parallelism: 2\n  completions: 3\n";
        let yaml = job_on_nodes(one_left, "status: {succeeded: 2}\n", &two);
        assert_eq!(replacements(&yaml), 1);

        let set = "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: default, uid: s1}\nspec:\n  replicas: 1\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: c, image: c}]}\n";
        let db = |name: &str, node: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default, labels: {{app: db}}, ownerReferences: [{{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: s1, controller: true}}]}}\nspec:\n  nodeName: {node}\n  containers: [{{name: c, image: c}}]\nstatus: {{phase: Running}}\n"
            )
        };
        let node2 = NODE.replace("node1", "node2");
        let yaml = [
            NODE,
            &node2,
            set,
            &db("db-0", "node2"),
            &db("db-1", "node1"),
            &steps,
        ]
        .concat();
        assert_eq!(replacements(&yaml), 0);
    }

    /// An `OrderedReady` StatefulSet recreates its lowest missing ordinal first, and the
    /// next only once that one runs: `db-0` takes the one free CPU whatever the order of
    /// the input, and `db-1` then waits. Listed first, `db-1` is gone first, but `db-0`,
    /// still terminating, holds it back.
    #[test]
    fn a_stateful_set_recreates_its_lowest_ordinal_first() {
        let node2 = NODE.replace("node1", "node2");
        let small = NODE.replace("cpu: '4'", "cpu: '1'");
        let set = "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: default, uid: s1}\nspec:\n  replicas: 2\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: c, image: c, resources: {requests: {cpu: '1'}}}]}\n";
        let pod = |name: &str, grace: u32| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default, labels: {{app: db}}, ownerReferences: [{{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: s1, controller: true}}]}}\nspec:\n  nodeName: node2\n  terminationGracePeriodSeconds: {grace}\n  containers: [{{name: c, image: c, resources: {{requests: {{cpu: '1'}}}}}}]\nstatus: {{phase: Running}}\n"
            )
        };
        let steps = scenario("  - {at: 0s, taint: 'node2 k=v:NoExecute'}\n");
        for grace in [30, 10] {
            let yaml = [
                &small,
                &node2,
                set,
                &pod("db-1", grace),
                &pod("db-0", 30),
                &steps,
            ]
            .concat();
            let outcome = play(&yaml);
            let placed: Vec<(String, Option<String>)> = outcome
                .disruption
                .evictions
                .iter()
                .map(|eviction| (eviction.pod.to_string(), eviction.rescheduled_to.clone()))
                .collect();
            assert_eq!(
                placed,
                [
                    ("default/db-1".into(), None),
                    ("default/db-0".into(), Some("node1".into())),
                ],
                "{grace}"
            );
            let pending = happenings(&outcome)
                .into_iter()
                .filter(|(_, reason, _)| reason == "FailedScheduling")
                .collect::<Vec<_>>();
            assert_eq!(
                pending,
                [(30, "FailedScheduling".into(), "Pod/default/db-1".into())]
            );
        }
    }

    /// An `OrderedReady` StatefulSet does not recreate `db-1` while `db-0`, untouched by
    /// the timeline, is not ready in the input; once it is ready, it does; with
    /// `minReadySeconds`, once db-0 has been ready that long.
    #[test]
    fn a_stateful_set_waits_for_a_lower_ordinal_the_input_shows_not_ready() {
        let node2 = NODE.replace("node1", "node2");
        let set = "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: default, uid: s1}\nspec:\n  replicas: 2\n  serviceName: db\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec: {containers: [{name: c, image: c}]}\n";
        let pod = |name: &str, node: &str, ready: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default, labels: {{app: db}}, ownerReferences: [{{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: s1, controller: true}}]}}\nspec:\n  nodeName: {node}\n  containers: [{{name: c, image: c}}]\nstatus: {{phase: Running, conditions: [{{type: Ready, status: '{ready}'}}]}}\n"
            )
        };
        let steps = scenario("  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n");
        for (ready, recreated) in [("False", false), ("True", true)] {
            let yaml = [
                NODE,
                &node2,
                set,
                &pod("db-0", "node2", ready),
                &pod("db-1", "node1", "True"),
                &steps,
            ]
            .concat();
            let outcome = play(&yaml);
            let replacement = outcome.disruption.evictions[0].replacement.as_ref();
            assert_eq!(replacement.is_some(), recreated, "{ready}");
        }
        // `minReadySeconds`: the new db-0, ready from its bind at 30 s, is available
        // 120 s later, and only then comes db-1.
        let slow = set.replace("  replicas: 2\n", "  replicas: 2\n  minReadySeconds: 120\n");
        let yaml = [
            NODE,
            &node2,
            &slow,
            &pod("db-0", "node1", "True"),
            &pod("db-1", "node1", "True"),
            &steps,
        ]
        .concat();
        assert_eq!(scheduled_at(&play(&yaml)), [30, 150]);
    }

    /// The rounds share the nodes' image table until a node is removed: then positions
    /// move, and ImageLocality must read the table of the nodes that are left. The second
    /// replacement goes to node4, the one node left with its image (a table kept from
    /// before would give node2's image to node3, now at node2's position).
    #[test]
    fn a_removed_node_takes_its_images_with_it() {
        let node = |name: &str, cpu: &str, image: bool| {
            let images = if image {
                "images: [{names: ['big:1'], sizeBytes: 900000000}], "
            } else {
                ""
            };
            alloc::format!(
                "---\nkind: Node\napiVersion: v1\nmetadata: {{name: {name}}}\nstatus: {{{images}allocatable: {{cpu: '{cpu}', memory: 8Gi, pods: '110'}}, conditions: [{{type: Ready, status: 'True'}}]}}\n"
            )
        };
        let nodes = [
            node("node1", "4", false),
            node("node2", "4", true),
            node("node3", "4", false),
            node("node4", "2", true),
        ]
        .concat();
        let machine = "---\napiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata:\n  name: m2\n  namespace: openshift-machine-api\n  annotations: {machine.openshift.io/exclude-node-draining: ''}\nstatus: {phase: Running, nodeRef: {kind: Node, name: node2}}\n";
        let pod = "---\nkind: Pod\napiVersion: v1\nmetadata:\n  name: web-1\n  namespace: default\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u1, controller: true}]\nspec:\n  nodeName: node1\n  containers: [{name: c, image: 'big:1'}]\nstatus: {phase: Running}\n";
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n  - {at: 1m, deleteMachine: m2}\n",
        );
        let outcome = play(&[&nodes, machine, pod, &steps].concat());
        let [first, second] = &outcome.disruption.evictions[..] else {
            panic!("two evictions: {:?}", outcome.disruption.evictions);
        };
        assert_eq!(first.rescheduled_to.as_deref(), Some("node2"));
        assert_eq!(Some(&second.pod), first.replacement.as_ref());
        assert_eq!(second.cause, "pod-gc");
        assert_eq!(second.rescheduled_to.as_deref(), Some("node4"));
    }

    /// The pods left on a removed node go at the pod garbage collector's pass after its
    /// quarantine: node1, removed at 30 s, is queued by the pass at 40 s and its pod
    /// deleted by the pass at 80 s (and replaced then). 1.11 deletes it at the pass at
    /// 40 s, without the quarantine.
    #[test]
    fn the_pod_gc_deletes_the_pods_of_a_removed_node_after_its_quarantine() {
        let machine = "---\napiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata:\n  name: m1\n  namespace: openshift-machine-api\n  annotations: {machine.openshift.io/exclude-node-draining: ''}\nstatus: {phase: Running, nodeRef: {kind: Node, name: node1}}\n";
        let node2 = NODE.replace("node1", "node2");
        let input = [
            NODE,
            &node2,
            machine,
            &web_pod("web-a", "node1", "", ""),
            &scenario("  - {at: 30s, deleteMachine: m1}\n"),
        ]
        .concat();
        for (version, at, reason, message) in [
            (
                Version::Current,
                80,
                "DeletionByPodGC",
                "PodGC: node no longer exists",
            ),
            (
                Version::Legacy,
                40,
                "PodGC",
                "PodGC is force deleting Pod: default/web-a",
            ),
        ] {
            let outcome = play_as(&input, Some(version));
            assert_eq!(evicted(&outcome), [("default/web-a".into(), at)]);
            let eviction = outcome.disruption.evictions.first();
            assert_eq!(eviction.map(|e| &*e.cause), Some("pod-gc"));
            assert_eq!(
                eviction.and_then(|e| e.rescheduled_to.as_deref()),
                Some("node2")
            );
            let seen = happenings(&outcome);
            let deleted = seen
                .iter()
                .find(|(_, _, object)| object == "Pod/default/web-a")
                .map(|(at, reason, _)| (*at, reason.as_str()));
            assert_eq!(deleted, Some((at, reason)));
            let worded = outcome
                .disruption
                .timeline
                .iter()
                .find(|event| event.reason == reason)
                .map(|event| event.message.to_string());
            assert_eq!(worded.as_deref(), Some(message));
        }
    }

    /// The machine's events, as `reason: message`.
    fn machine_events(outcome: &Outcome) -> Vec<String> {
        outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| {
                event.object.to_string().starts_with("Machine/") && event.reason != "Deleting"
            })
            .map(|event| alloc::format!("{}: {}", event.reason, event.message))
            .collect()
    }

    fn machine_on(node: &str, hooks: &str) -> String {
        alloc::format!(
            "---\napiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata: {{name: m1, namespace: openshift-machine-api}}\nspec: {{lifecycleHooks: {{{hooks}}}}}\nstatus: {{phase: Running, nodeRef: {{kind: Node, name: {node}}}}}\n"
        )
    }

    /// `Oldest` ages machines from the newest `creationTimestamp` in the input (a pod's
    /// here) plus the step's time: ws-c, created first, goes; ws-b, without a timestamp,
    /// scores 0 and stays.
    #[test]
    fn the_oldest_policy_ages_machines_from_the_input() {
        let machine = |name: &str, created: &str| {
            alloc::format!(
                "---
apiVersion: machine.openshift.io/v1beta1
kind: Machine
metadata: {{name: {name}, namespace: openshift-machine-api, labels: {{set: ws}}, {created}ownerReferences: [{{apiVersion: machine.openshift.io/v1beta1, kind: MachineSet, name: ws, uid: u, controller: true}}]}}
status: {{phase: Running}}
"
            )
        };
        let input = [
            "---
apiVersion: machine.openshift.io/v1beta1
kind: MachineSet
metadata: {name: ws, namespace: openshift-machine-api}
spec: {replicas: 3, deletePolicy: Oldest, selector: {matchLabels: {set: ws}}, template: {metadata: {labels: {set: ws}}}}
",
            &machine("ws-a", "creationTimestamp: '2026-11-01T00:00:00Z', "),
            &machine("ws-b", ""),
            &machine("ws-c", "creationTimestamp: '2026-10-01T00:00:00Z', "),
            "---
kind: Pod
apiVersion: v1
metadata: {name: p, namespace: default, creationTimestamp: '2026-11-20T00:00:00Z'}
spec: {containers: [{name: c, image: i}]}
",
            &scenario("  - {at: 1h, scaleMachineSet: {name: ws, replicas: 2}}\n"),
        ]
        .concat();
        let outcome = play(&input);
        let picked = outcome
            .disruption
            .timeline
            .iter()
            .find(|event| event.reason == "SuccessfulDelete")
            .map(|event| event.message.to_string());
        assert_eq!(
            picked.as_deref(),
            Some("replicas 3 -> 2: the Oldest delete policy picks ws-c")
        );
    }

    /// Machine set `ws` (selector `set: ws`, UID `u`) with `replicas` and `machines`, each
    /// as `(name, extra metadata)`, with a node each, then `steps`; the machine set events.
    fn machine_set_events(replicas: u32, machines: &[(&str, &str)], steps: &str) -> Vec<String> {
        let mut input = alloc::format!(
            "---\napiVersion: machine.openshift.io/v1beta1\nkind: MachineSet\nmetadata: {{name: ws, namespace: openshift-machine-api, uid: u}}\nspec: {{replicas: {replicas}, selector: {{matchLabels: {{set: ws}}}}, template: {{metadata: {{labels: {{set: ws}}}}}}}}\n",
        );
        for (name, meta) in machines {
            input.push_str(&alloc::format!(
                "---\napiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata: {{name: {name}, namespace: openshift-machine-api, {meta}}}\nstatus: {{phase: Running, nodeRef: {{kind: Node, name: {name}}}}}\n"
            ));
        }
        input.push_str(&scenario(steps));
        play(&input)
            .disruption
            .timeline
            .iter()
            .filter(|event| event.object.to_string().starts_with("MachineSet/"))
            .map(|event| alloc::format!("{}: {}", event.reason, event.message))
            .collect()
    }

    /// `shouldExcludeMachine` and `adoptOrphan` (machineset/controller.go): a set counts
    /// the machines it controls (by UID when both sides have one) or adopts, that its
    /// selector matches and that are not being deleted; the machines it created in an
    /// earlier step count too, and without a node they go first.
    #[test]
    fn machine_sets_count_the_machines_they_select() {
        let owned = "labels: {set: ws}, ownerReferences: [{apiVersion: machine.openshift.io/v1beta1, kind: MachineSet, name: ws, uid: u, controller: true}]";
        let scale = |replicas: u32| {
            alloc::format!("  - {{at: 0s, scaleMachineSet: {{name: ws, replicas: {replicas}}}}}\n")
        };
        // An orphan with the set's labels is adopted, and goes first by name (the audit's r2).
        let events = machine_set_events(
            3,
            &[
                ("ws-c", owned),
                ("ws-a", "labels: {set: ws}"),
                ("ws-b", owned),
            ],
            &scale(2),
        );
        assert_eq!(
            events,
            ["SuccessfulDelete: replicas 3 -> 2: the Random delete policy picks ws-a"]
        );
        // Not counted: a machine being deleted (ms3), one whose labels the selector does
        // not match, one controlled by another set of the same name (other UID).
        let deleting = alloc::format!("deletionTimestamp: '2024-06-01T00:00:00Z', {owned}");
        let other = "labels: {set: ws}, ownerReferences: [{apiVersion: machine.openshift.io/v1beta1, kind: MachineSet, name: ws, uid: v, controller: true}]";
        let unlabelled = "ownerReferences: [{apiVersion: machine.openshift.io/v1beta1, kind: MachineSet, name: ws, uid: u, controller: true}]";
        let events = machine_set_events(
            1,
            &[
                ("ws-a", &deleting),
                ("ws-b", owned),
                ("ws-c", other),
                ("ws-d", unlabelled),
            ],
            &scale(1),
        );
        assert_eq!(
            events,
            ["SuccessfulDelete: replicas 1 -> 1: the Random delete policy picks none"]
        );
        // Scaled 3 -> 5 then 5 -> 4: one of the new machines, without a node, goes (ms6).
        let steps = [
            scale(5),
            "  - {at: 1m, scaleMachineSet: {name: ws, replicas: 4}}\n".into(),
        ]
        .concat();
        let events = machine_set_events(
            3,
            &[("ws-a", owned), ("ws-b", owned), ("ws-c", owned)],
            &steps,
        );
        let [created, deleted] = &events[..] else {
            panic!("{events:?}");
        };
        let new = created
            .strip_prefix("SuccessfulCreate: replicas 3 -> 5: the machine set creates ")
            .and_then(|rest| rest.split_once(';'))
            .map(|(names, _)| names.split(", ").collect::<Vec<_>>())
            .unwrap_or_default();
        assert_eq!(new.len(), 2, "{created}");
        let picked = deleted.rsplit(' ').next().unwrap_or_default();
        assert!(
            deleted.starts_with("SuccessfulDelete: replicas 5 -> 4:"),
            "{deleted}"
        );
        assert!(new.contains(&picked), "{deleted}");
    }

    /// Deleting a machine makes its set reconcile only when the set is in the input and
    /// counts it (the audit's ghost: the owner is not in the input).
    #[test]
    fn only_a_counting_set_replaces_a_deleted_machine() {
        let steps = "  - {at: 0s, deleteMachine: ws-a}\n";
        let ghost = "labels: {set: ws}, ownerReferences: [{apiVersion: machine.openshift.io/v1beta1, kind: MachineSet, name: ghost, uid: g, controller: true}]";
        assert_eq!(
            machine_set_events(0, &[("ws-a", ghost)], steps),
            Vec::<String>::new()
        );
        let owned = "labels: {set: ws}, ownerReferences: [{apiVersion: machine.openshift.io/v1beta1, kind: MachineSet, name: ws, uid: u, controller: true}]";
        let events = machine_set_events(1, &[("ws-a", owned)], steps);
        assert!(
            events.len() == 1
                && events[0]
                    .starts_with("SuccessfulCreate: replicas 0 -> 1: the machine set creates ws-"),
            "{events:?}"
        );
    }

    /// `syncReplicas` (machineset/controller.go) brings the count of the machines a set
    /// counts to its replicas whenever it reconciles: when the controllers start on the
    /// input and when a machine it counts is deleted, which it counts no more. Replicas 3
    /// over two machines: one at 0 s, and one more for the deleted ws-a. Replicas 1 over
    /// two: ws-a goes at 0 s (Random, equal priorities, by name), and deleting it again
    /// creates nothing (the audit's repl1).
    #[test]
    fn machine_sets_keep_their_replicas() {
        let owned = "labels: {set: ws}, ownerReferences: [{apiVersion: machine.openshift.io/v1beta1, kind: MachineSet, name: ws, uid: u, controller: true}]";
        let machines = [("ws-a", owned), ("ws-b", owned)];
        let steps = "  - {at: 1m, deleteMachine: ws-a}\n";
        let events = machine_set_events(3, &machines, steps);
        let heads: Vec<&str> = events
            .iter()
            .filter_map(|event| event.split(": the machine set creates ").next())
            .collect();
        assert_eq!(
            heads,
            [
                "SuccessfulCreate: replicas 2 -> 3",
                "SuccessfulCreate: replicas 2 -> 3"
            ]
        );
        let steps = "  - {at: 0s, deleteMachine: ws-a}\n";
        assert_eq!(
            machine_set_events(1, &machines, steps),
            ["SuccessfulDelete: replicas 2 -> 1: the Random delete policy picks ws-a"]
        );
        // A set being deleted, or with an empty selector, is not synced.
        let input = [
            "---\napiVersion: machine.openshift.io/v1beta1\nkind: MachineSet\nmetadata: {name: ws, namespace: openshift-machine-api}\nspec: {replicas: 2, selector: {}, template: {metadata: {labels: {set: ws}}}}\n",
            &scenario("  - {at: 1m, scaleMachineSet: {name: ws, replicas: 3}}\n"),
        ]
        .concat();
        let outcome = play(&input);
        assert!(outcome.disruption.timeline.is_empty());
        let codes: Vec<&str> = outcome.diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["scenario/machine-set-not-reconciled"]);
    }

    /// `isDrainAllowed` (drain_controller.go) lets a control-plane node that is already
    /// cordoned go on, whatever other control-plane node is cordoned too; a refusal
    /// comes after "DrainProceeds", as `drainNode`'s error.
    #[test]
    fn a_cordoned_control_plane_node_drains_beside_another() {
        let master = |name: &str| {
            alloc::format!(
                "---\nkind: Node\napiVersion: v1\nmetadata: {{name: {name}, labels: {{node-role.kubernetes.io/master: ''}}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}, conditions: [{{type: Ready, status: 'True'}}]}}\n"
            )
        };
        let nodes = [master("master-1"), master("master-2")].concat();
        let machine = machine_on("master-1", "");
        let cordoned_first = scenario(
            "  - {at: 0s, cordon: master-1}\n  - {at: 0s, cordon: master-2}\n  - {at: 10s, deleteMachine: m1}\n",
        );
        let events = machine_events(&play(&[nodes.as_str(), &machine, &cordoned_first].concat()));
        assert_eq!(
            events[..3],
            [
                "DrainProceeds: Node drain proceeds",
                "Deleted: Node \"master-1\" drained",
                "DrainSucceeded: Node drain succeeded"
            ]
        );
        let other_cordoned =
            scenario("  - {at: 0s, cordon: master-2}\n  - {at: 10s, deleteMachine: m1}\n");
        let events = machine_events(&play(&[nodes.as_str(), &machine, &other_cordoned].concat()));
        assert_eq!(
            events[..2],
            [
                "DrainProceeds: Node drain proceeds",
                "DrainRequeued: Node drain requeued: drain not permitted: requeue in: 20s"
            ]
        );
    }

    /// The drain controller has one worker and drains inside its reconcile: m2, deleted
    /// with m1, waits until m1's drain returns (its pod gone at 10 s), then drains.
    #[test]
    fn machine_drains_run_one_at_a_time() {
        let second = machine_on("node2", "").replace("m1", "m2");
        let node2 = NODE.replace("node1", "node2");
        let node3 = NODE.replace("node1", "node3");
        let grace = "  terminationGracePeriodSeconds: 10\n";
        let input = [
            NODE,
            &node2,
            &node3,
            &machine_on("node1", ""),
            &second,
            &web_pod("web-a", "node1", grace, ""),
            &web_pod("web-b", "node2", grace, ""),
            &scenario("  - {at: 0s, deleteMachine: m1}\n  - {at: 0s, deleteMachine: m2}\n"),
        ]
        .concat();
        let outcome = play(&input);
        let drains: Vec<(i64, String, String)> = happenings(&outcome)
            .into_iter()
            .filter(|(_, reason, _)| reason.starts_with("Drain") && reason != "Drain")
            .collect();
        let m = |name: &str| alloc::format!("Machine/openshift-machine-api/{name}");
        assert_eq!(
            drains,
            [
                (0, "DrainProceeds".into(), m("m1")),
                (10, "DrainSucceeded".into(), m("m1")),
                (10, "DrainProceeds".into(), m("m2")),
                (20, "DrainSucceeded".into(), m("m2")),
            ]
        );
        assert_eq!(
            evicted(&outcome),
            [("default/web-a".into(), 0), ("default/web-b".into(), 10)]
        );
    }

    /// A nodeRef whose node is not there still waits for the preDrain hooks; without
    /// them the drain succeeds at once, with no "Deleted" (drain_controller.go).
    #[test]
    fn a_machine_whose_node_is_missing_still_honours_its_hooks() {
        let steps = scenario("  - {at: 0s, deleteMachine: m1}\n");
        let held = machine_on("ghost", "preDrain: [{name: Hold, owner: someone}]");
        let events = machine_events(&play(&[held.as_str(), &steps].concat()));
        assert_eq!(events[0], "DrainBlocked: Drain blocked by pre-drain hook");
        assert!(events[1].starts_with("StillWaiting: still Deleting: Drainable=False"));
        let free = machine_on("ghost", "");
        let events = machine_events(&play(&[free.as_str(), &steps].concat()));
        assert_eq!(
            events[..2],
            [
                "DrainProceeds: Node drain proceeds",
                "DrainSucceeded: Node drain succeeded"
            ]
        );
    }

    /// `drainNode` on an unreachable node: each pod is evicted with one second's grace
    /// (its deletionTimestamp a second on) and skipped at the first of `waitForDelete`'s
    /// polls whose whole seconds since then exceed `skipWaitForDeleteTimeoutSeconds` (1):
    /// three seconds after its eviction. A pod the budget refused first is retried 5 s
    /// later and skipped 3 s after that.
    #[test]
    fn an_unreachable_node_is_drained_once_its_evicted_pods_are_skipped() {
        let unreachable = NODE.replace("status: 'True'", "status: Unknown");
        let node2 = NODE.replace("node1", "node2");
        let tolerate =
            "  tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}]\n";
        let input = |pods: &[String], budget: &str| {
            let mut input = alloc::vec![unreachable.clone(), node2.clone()];
            input.push(machine_on("node1", ""));
            input.extend(pods.iter().cloned());
            input.push(budget.into());
            input.push(scenario("  - {at: 10s, deleteMachine: m1}\n"));
            input.concat()
        };
        let drained = |outcome: &Outcome| {
            happenings(outcome)
                .into_iter()
                .find(|(_, reason, _)| reason == "DrainSucceeded")
                .map(|(at, _, _)| at)
        };
        let one = [web_pod("web-a", "node1", tolerate, "")];
        assert_eq!(drained(&play(&input(&one, ""))), Some(13));
        let ready = "  conditions: [{type: Ready, status: 'True'}]\n";
        let three = [
            web_pod("web-a", "node1", tolerate, ready),
            web_pod("web-b", "node1", tolerate, ready),
            web_pod("web-c", "node2", "", ready),
        ];
        let outcome = play(&input(&three, WEB_BUDGET));
        assert_eq!(
            evicted(&outcome),
            [("default/web-a".into(), 10), ("default/web-b".into(), 15)]
        );
        assert_eq!(drained(&outcome), Some(18));
    }

    /// A machine the input shows being deleted (the etcd quorum guard holding a
    /// control-plane machine) is in the Deleting phase when the controllers start: the
    /// drain controller says DrainBlocked at 0 s, and removing the hook lets the drain
    /// and the deletion go on. Without hooks it drains and goes at once; a deleteMachine
    /// step on it changes nothing.
    #[test]
    fn a_machine_the_input_shows_deleting_goes_on_being_deleted() {
        let node = NODE.replace("node1", "master-0");
        let machine = |hooks: &str| {
            alloc::format!(
                "---\napiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata: {{name: master-0, namespace: openshift-machine-api, deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [machine.machine.openshift.io]}}\nspec: {{lifecycleHooks: {{{hooks}}}}}\nstatus: {{phase: Deleting, nodeRef: {{kind: Node, name: master-0}}}}\n"
            )
        };
        let held = machine("preDrain: [{name: EtcdQuorumOperator, owner: clusteroperator/etcd}]");
        let steps = scenario(
            "  - {at: 1m, removeHook: {machine: master-0, phase: preDrain, name: EtcdQuorumOperator}}\n",
        );
        let outcome = play(&[node.as_str(), &held, &steps].concat());
        let machine_happenings: Vec<(i64, String)> = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| event.object.to_string().starts_with("Machine/"))
            .map(|event| (event.at.0 / 1_000_000_000, event.reason.to_string()))
            .collect();
        let expected = [
            (0, "Deleting"),
            (0, "DrainBlocked"),
            (60, "HookRemoved"),
            (60, "DrainProceeds"),
            (60, "Deleted"),
            (60, "DrainSucceeded"),
            (60, "Deleted"),
        ];
        let expected: Vec<(i64, String)> = expected
            .iter()
            .map(|(at, reason)| (*at, String::from(*reason)))
            .collect();
        assert_eq!(machine_happenings, expected);
        assert!(outcome
            .disruption
            .timeline
            .iter()
            .any(|event| event.reason == "RemovingNode" && event.at.0 == 60_000_000_000));
        let free = machine("");
        let again = scenario("  - {at: 0s, deleteMachine: master-0}\n");
        let events = machine_events(&play(&[node.as_str(), &free, &again].concat()));
        assert_eq!(
            events,
            [
                "DrainProceeds: Node drain proceeds",
                "Deleted: Node \"master-0\" drained",
                "DrainSucceeded: Node drain succeeded",
                "Deleted: the instance was deleted"
            ]
        );
    }

    /// A deleting machine whose status already says `Drained=True` is not drained again
    /// (drain_controller.go passes over it): the machine controller waits for its
    /// preTerminate hook, then the instance and the Node go.
    #[test]
    fn a_machine_the_input_shows_drained_waits_for_its_pre_terminate_hooks() {
        let input = [
            NODE,
            "---\napiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata: {name: m1, namespace: openshift-machine-api, deletionTimestamp: '2026-01-01T00:00:00Z'}\nspec: {lifecycleHooks: {preTerminate: [{name: Backup, owner: backup-ctrl}]}}\nstatus: {phase: Deleting, nodeRef: {kind: Node, name: node1}, conditions: [{type: Drained, status: 'True', message: Drain finished successfully}]}\n",
            &scenario("  - {at: 1m, removeHook: {machine: m1, phase: preTerminate, name: Backup}}\n"),
        ]
        .concat();
        let outcome = play(&input);
        let events = machine_events(&outcome);
        assert_eq!(
            events,
            [
                "TerminateBlocked: Terminable=False (HookPresent): Terminate operation currently blocked by: [{Name:Backup Owner:backup-ctrl}]",
                "HookRemoved: preTerminate hook Backup removed; Terminable=True",
                "Deleted: the instance was deleted"
            ]
        );
        let drained = outcome
            .disruption
            .machines
            .first()
            .and_then(|machine| machine.conditions.get(1))
            .map(|condition| (condition.type_, condition.message.clone()));
        assert_eq!(
            drained,
            Some(("Drained", String::from("Drain finished successfully")))
        );
    }

    /// Removing one of two preDrain hooks updates the machine, and the drain controller's
    /// reconcile says DrainBlocked again (the audit's twohooks); removing the last lets
    /// the drain proceed.
    #[test]
    fn every_update_with_a_pre_drain_hook_left_is_blocked_again() {
        let held = machine_on(
            "ghost",
            "preDrain: [{name: HookOne, owner: ctrl-one}, {name: HookTwo, owner: ctrl-two}]",
        );
        let steps = scenario(
            "  - {at: 0s, deleteMachine: m1}\n  - {at: 1m, removeHook: {machine: m1, phase: preDrain, name: HookOne}}\n  - {at: 2m, removeHook: {machine: m1, phase: preDrain, name: HookTwo}}\n",
        );
        let events = machine_events(&play(&[held.as_str(), &steps].concat()));
        let reasons: Vec<&str> = events
            .iter()
            .filter_map(|event| event.split(':').next())
            .collect();
        assert_eq!(
            reasons[..5],
            [
                "DrainBlocked",
                "HookRemoved",
                "DrainBlocked",
                "HookRemoved",
                "DrainProceeds"
            ]
        );
    }

    /// A budget's allowance is its healthy pods over the desired count
    /// (`pkg/controller/disruption`): a pod the taint manager deletes stops counting, and
    /// its replacement counts when it runs, so the two leave the allowance as it was.
    /// `minAvailable: 2` over three pods allows one eviction; the drain's second pod
    /// waits for the first one's replacement.
    #[test]
    fn a_taint_deletion_and_its_replacement_leave_the_budget_as_it_was() {
        let node = |name: &str| NODE.replace("node1", name);
        let web = |name: &str, node: &str| web_pod(name, node, "", "");
        let budget = WEB_BUDGET;
        let steps = scenario(
            "  - {at: 0s, cordon: node2}\n  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n  - {at: 1m, drain: node2}\n",
        );
        let yaml = [
            node("node1"),
            node("node2"),
            node("node3"),
            web("web-a", "node1"),
            web("web-b", "node2"),
            web("web-c", "node2"),
            budget.into(),
            steps,
        ]
        .concat();
        let evicted = evictions(&yaml);
        assert_eq!(evicted.first(), Some(&("default/web-a".into(), 0)));
        let at = |pod: &str| {
            evicted
                .iter()
                .find(|(name, _)| name == pod)
                .map(|(_, at)| *at)
        };
        assert_eq!(at("default/web-b"), Some(60));
        assert!(at("default/web-c") > Some(60), "{evicted:?}");
    }

    /// `count` ready nodes `n0`, `n1`, … in one zone, then `steps`; each NoExecute taint
    /// added as `(node, seconds)`.
    fn no_execute_taints(count: usize, steps: &str) -> (Vec<(String, i64)>, Outcome) {
        let nodes: String = (0..count)
            .map(|index| {
                alloc::format!(
                    "---\nkind: Node\napiVersion: v1\nmetadata: {{name: n{index}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}, conditions: [{{type: Ready, status: 'True'}}]}}\n"
                )
            })
            .collect();
        let outcome = play(&[nodes, scenario(steps)].concat());
        let taints = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| {
                event.kind == EventKind::TaintAdded
                    && event.message.to_string().ends_with(":NoExecute")
            })
            .map(|event| {
                let object = event.object.to_string();
                (
                    object.trim_start_matches("Node/").to_string(),
                    event.at.0 / crate::duration::SECOND,
                )
            })
            .collect();
        (taints, outcome)
    }

    fn down(node: &str, at: &str) -> String {
        alloc::format!(
            "  - {{at: {at}, nodeCondition: {{node: {node}, type: Ready, status: Unknown}}}}\n"
        )
    }

    /// A zone taints one node every 10 s (`--node-eviction-rate 0.1`, burst 1).
    #[test]
    fn a_zone_taints_its_nodes_one_every_ten_seconds() {
        let (taints, outcome) = no_execute_taints(
            6,
            &[down("n1", "0s"), down("n2", "0s"), down("n3", "4s")].concat(),
        );
        assert_eq!(
            taints,
            [("n1".into(), 0), ("n2".into(), 10), ("n3".into(), 20)]
        );
        let waits = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| event.reason == "TaintRateLimited")
            .count();
        assert_eq!(waits, 2);
    }

    /// All zones without a ready node: master disruption mode lifts the taints already
    /// set and stops tainting; a node ready again resumes it one interval later.
    #[test]
    fn a_cluster_with_no_ready_node_stops_tainting() {
        let (taints, _) = no_execute_taints(1, &down("n0", "0s"));
        assert!(taints.is_empty(), "{taints:?}");
        let up = "  - {at: 2m, nodeCondition: {node: n0, type: Ready, status: 'True'}}\n";
        let (taints, outcome) =
            no_execute_taints(2, &[down("n0", "0s"), down("n1", "1m"), up.into()].concat());
        assert_eq!(taints, [("n0".into(), 0), ("n1".into(), 130)]);
        let reasons: Vec<String> = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| {
                event.kind == EventKind::NodeLifecycle || event.kind == EventKind::TaintRemoved
            })
            .filter(|event| {
                event.message.to_string().contains("NoExecute")
                    || event.kind == EventKind::NodeLifecycle
            })
            .map(|event| {
                alloc::format!("{}@{}", event.reason, event.at.0 / crate::duration::SECOND)
            })
            .collect();
        assert_eq!(
            reasons,
            [
                "MasterDisruption@60",
                "NodeLifecycleController@60",
                "MasterDisruptionEnded@120",
                "ZoneStateChanged@120",
                "TaintRateLimited@120",
            ]
        );
    }

    /// Leaving master disruption mode, 1.11 sets every node's probe and ready transition
    /// timestamps to now (`handleDisruption`): without taint based evictions, a node
    /// still down has its pods deleted a whole `--pod-eviction-timeout` after that.
    #[test]
    fn openshift_3_11_counts_the_eviction_timeout_again_after_master_disruption() {
        let node2 = NODE.replace("node1", "node2");
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n  - {at: 0s, nodeCondition: {node: node2, type: Ready, status: Unknown}}\n  - {at: 100s, nodeCondition: {node: node2, type: Ready, status: 'True'}}\n",
        );
        let yaml = [NODE, &node2, &pod("bare", None), &steps].concat();
        let outcome = play_as(&yaml, Some(Version::Legacy));
        assert_eq!(evicted(&outcome), [("default/bare".into(), 400)]);
    }

    /// A node down since before the timeline loses its taint in master disruption mode
    /// and is tainted again once a node is back and the zone's limiter has a token. (Its
    /// NoSchedule taint comes when the controller starts.)
    #[test]
    fn a_node_down_before_the_timeline_is_tainted_again_after_master_disruption() {
        let down = "---\nkind: Node\napiVersion: v1\nmetadata: {name: n1}\nspec: {taints: [{key: node.kubernetes.io/unreachable, effect: NoExecute}]}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}, conditions: [{type: Ready, status: Unknown}]}\n";
        let up = "---\nkind: Node\napiVersion: v1\nmetadata: {name: n0}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}, conditions: [{type: Ready, status: 'True'}]}\n";
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: n0, type: Ready, status: Unknown}}\n  - {at: 1m, nodeCondition: {node: n0, type: Ready, status: 'True'}}\n",
        );
        let outcome = play(&[up, down, &steps].concat());
        let n1: Vec<(String, i64)> = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| event.object == "Node/n1")
            .map(|event| {
                (
                    event.message.to_string(),
                    event.at.0 / crate::duration::SECOND,
                )
            })
            .collect();
        assert_eq!(
            n1,
            [
                (
                    "node/n1 tainted with node.kubernetes.io/unreachable:NoSchedule".into(),
                    0
                ),
                (
                    "node/n1 untainted node.kubernetes.io/unreachable:NoExecute".into(),
                    0
                ),
                (
                    "node/n1 waits for its NoExecute taint: zone (none) taints one node at a time, the next at 70s".into(),
                    60
                ),
                (
                    "node/n1 tainted with node.kubernetes.io/unreachable:NoExecute".into(),
                    70
                ),
            ]
        );
    }

    /// More than two of a small zone's nodes down, at least 55 %: tainting stops
    /// (`ReducedQPSFunc` for a zone of at most 50 nodes).
    #[test]
    fn a_small_zone_mostly_down_stops_tainting() {
        let steps = [down("n0", "0s"), down("n1", "0s"), down("n2", "0s")].concat();
        let (taints, _) = no_execute_taints(5, &steps);
        assert!(taints.is_empty(), "{taints:?}");
        // One at a time, the first two go before the zone is partially disrupted.
        let steps = [down("n0", "0s"), down("n1", "1m"), down("n2", "2m")].concat();
        let (taints, _) = no_execute_taints(5, &steps);
        assert_eq!(taints, [("n0".into(), 0), ("n1".into(), 60)]);
    }

    /// A second node, ready, so that node1 going down leaves its zone in Normal state.
    const READY_NEIGHBOUR: &str = "---\nkind: Node\napiVersion: v1\nmetadata: {name: node2}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}, conditions: [{type: Ready, status: 'True'}]}\n";

    /// Ready going False to Unknown swaps not-ready for unreachable in one node update
    /// (`swapNodeControllerTaint`): the taint eviction controller plans once.
    #[test]
    fn a_taint_swap_is_one_node_update() {
        let pod = &pod_tolerating(&[
            ("node.kubernetes.io/not-ready", None),
            ("node.kubernetes.io/unreachable", Some(300)),
        ]);
        let steps = scenario(
            "  - {at: 1m, nodeCondition: {node: node1, type: Ready, status: 'False'}}\n  - {at: 2m, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n",
        );
        let outcome = play(&[NODE, READY_NEIGHBOUR, pod, &steps].concat());
        let planned: Vec<_> = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| event.kind == EventKind::EvictionScheduled)
            .map(|event| (event.at, event.message.to_string()))
            .collect();
        assert_eq!(
            planned,
            [(
                Duration::from_seconds(120),
                "the pod tolerates the node's NoExecute taints for 5m0s: it is deleted at 7m0s"
                    .into()
            )]
        );
        assert_eq!(evicted(&outcome), [("default/pod1".into(), 420)]);
    }

    /// 1.11's taint manager sees the swap as the two node updates it is, each with the
    /// taints it left (`nodeUpdateItem`): both taints, then the new one alone. A pod
    /// deleted for `not-ready` that tolerates `unreachable` for ever is marked for
    /// deletion again in between; 1.34 looks at the node once, as it ends.
    #[test]
    fn a_taint_swap_is_two_node_updates_in_1_11() {
        let pod = &pod_tolerating(&[("node.kubernetes.io/unreachable", None)]);
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: 'False'}}\n  - {at: 1m, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n",
        );
        let yaml = [NODE, READY_NEIGHBOUR, pod, &steps].concat();
        let at_swap = |outcome: &Outcome| -> Vec<(EventKind, String)> {
            outcome
                .disruption
                .timeline
                .iter()
                .filter(|event| event.at == Duration::from_seconds(60))
                .filter(|event| event.kind != EventKind::ConditionChanged)
                .map(|event| (event.kind, event.message.to_string()))
                // 1.34's NoSchedule taints follow the condition as well.
                .filter(|(_, message)| !message.ends_with(":NoSchedule"))
                .collect()
        };
        let tainted = "node/node1 tainted with node.kubernetes.io/unreachable:NoExecute";
        let untainted = "node/node1 untainted node.kubernetes.io/not-ready:NoExecute";
        let legacy = play_as(
            &[&yaml, TAINT_BASED_EVICTIONS].concat(),
            Some(Version::Legacy),
        );
        assert_eq!(
            at_swap(&legacy),
            [
                (EventKind::TaintAdded, tainted.into()),
                (
                    EventKind::PodEvicted,
                    "Marking for deletion Pod default/pod1".into()
                ),
                (EventKind::TaintRemoved, untainted.into()),
            ]
        );
        assert_eq!(evicted(&legacy), [("default/pod1".into(), 0)]);
        let current = play_as(&yaml, Some(Version::Current));
        assert_eq!(
            at_swap(&current),
            [
                (EventKind::TaintRemoved, untainted.into()),
                (EventKind::TaintAdded, tainted.into()),
            ]
        );
    }

    /// A drain lists a node's pods by `spec.nodeName`, finished ones too: they pass every
    /// filter without `--force`, and the eviction deletes them at once (kubectl's
    /// `filters.go`, the API server's `canIgnorePDB` and `CheckGracefulDelete`).
    #[test]
    fn a_drain_evicts_the_finished_pods_on_its_node() {
        let done = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: done, namespace: default}\nspec:\n  nodeName: node1\n  restartPolicy: Never\n  containers: [{name: c, image: c}]\nstatus: {phase: Succeeded}\n";
        let steps = scenario("  - {at: 10s, drain: node1}\n");
        let outcome = play(&[NODE, done, &steps].concat());
        assert_eq!(evicted(&outcome), [("default/done".into(), 10)]);
        let drained = outcome.disruption.timeline.iter().any(|event| {
            event.kind == EventKind::Drain && event.message.to_string().ends_with("drained")
        });
        assert!(drained, "{:?}", outcome.disruption.timeline);
        let again = play(
            &[
                NODE,
                done,
                &scenario("  - {at: 10s, drain: node1}\n  - {at: 20s, drain: node1}\n"),
            ]
            .concat(),
        );
        assert_eq!(evicted(&again).len(), 1);
    }

    /// A drain evicts in the API server's list order, by `namespace/name`, whatever the
    /// input's order; with one disruption allowed, the first listed pod is the one evicted.
    #[test]
    fn a_drain_evicts_in_the_api_order() {
        let owned = |name: &str| web_pod(name, "node1", "", "");
        let budget = "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: default}\nspec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\n";
        let steps = scenario("  - {at: 0s, drain: node1}\n");
        let outcome = play(&[NODE, &owned("web-b"), &owned("web-a"), budget, &steps].concat());
        let first = evicted(&outcome);
        assert_eq!(first.first(), Some(&("default/web-a".into(), 0)));
        let blocked: Vec<String> = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| event.kind == EventKind::EvictionBlocked)
            .map(|event| event.object.to_string())
            .collect();
        assert_eq!(
            blocked.first().map(String::as_str),
            Some("Pod/default/web-b")
        );
    }

    /// `waitForDelete` polls every second from the eviction: a drain at 0.5 s of a pod
    /// whose deletion, under way, ends at 15 s (its grace period of 45 s began at -5 s;
    /// the drain asks 20 s) finds it gone, and is drained, at 15.5 s, in either profile.
    #[test]
    fn a_drain_finds_its_pods_gone_at_its_next_poll() {
        let dying = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: dying, namespace: default, creationTimestamp: '2024-01-01T00:00:00Z', deletionTimestamp: '2024-01-01T00:00:40Z', deletionGracePeriodSeconds: 45, ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: d, uid: u1, controller: true}]}\nspec:\n  nodeName: node1\n  containers: [{name: c, image: c}]\nstatus: {phase: Running}\n";
        let steps = scenario("  - {at: 0.5s, drain: {node: node1, gracePeriod: 20}}\n");
        let yaml = [NODE, dying, &steps].concat();
        let second = crate::duration::SECOND;
        for version in [Version::Current, Version::Legacy] {
            let outcome = play_as(&yaml, Some(version));
            let at = |reason: &str| {
                let mut events = outcome.disruption.timeline.iter();
                events
                    .find(|event| event.reason == reason)
                    .map(|event| event.at)
            };
            assert_eq!(
                at("Killing"),
                Some(Duration::from_seconds(15)),
                "{version:?}"
            );
            let poll = Duration(15 * second + second / 2);
            assert_eq!(at("Drained"), Some(poll), "{version:?}");
        }
    }

    /// kubectl 1.11 says nothing as it evicts; it prints `pod/name evicted` once its poll
    /// finds the pod gone (a finished pod at once). 1.34 says `evicting pod ns/name` as it
    /// asks, and `pod/name evicted` too.
    #[test]
    fn kubectl_1_11_says_a_pod_is_evicted_once_it_is_gone() {
        let web = web_pod(
            "web-a",
            "node1",
            "  terminationGracePeriodSeconds: 30\n",
            "",
        );
        let done = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: done, namespace: default}\nspec:\n  nodeName: node1\n  restartPolicy: Never\n  containers: [{name: c, image: c}]\nstatus: {phase: Succeeded}\n";
        let steps = scenario("  - {at: 10s, drain: node1}\n");
        let yaml = [NODE, &web, done, &steps].concat();
        let said = |version| {
            let outcome = play_as(&yaml, Some(version));
            let events = outcome.disruption.timeline.iter();
            events
                .filter(|event| matches!(&*event.reason, "Evicted" | "Drained"))
                .map(|event| {
                    let at = event.at.0 / crate::duration::SECOND;
                    (at, event.message.to_string())
                })
                .collect::<Vec<_>>()
        };
        let legacy = [
            (10, "pod/done evicted".into()),
            (40, "pod/web-a evicted".into()),
            (40, "node/node1 drained".into()),
        ];
        assert_eq!(said(Version::Legacy), legacy);
        let current = [
            (10, "evicting pod default/done".into()),
            (10, "pod/done evicted".into()),
            (10, "evicting pod default/web-a".into()),
            (40, "pod/web-a evicted".into()),
            (40, "node/node1 drained".into()),
        ];
        assert_eq!(said(Version::Current), current);
    }

    /// RemoveDuplicates evicts `web-b`, spending the budget; LowNodeUtilization then asks
    /// for `web-a` (refused) and for the terminating `web-b` again. The 1.11 API server
    /// asks its budget and refuses; 1.34's lets a terminating pod go (`canIgnorePDB`).
    #[test]
    fn a_terminating_pod_asks_its_budget_again_on_the_legacy_api_server() {
        let node = |name: &str| {
            alloc::format!(
                "---\nkind: Node\napiVersion: v1\nmetadata: {{name: {name}}}\nstatus: {{allocatable: {{cpu: '1', memory: 8Gi, pods: '10'}}, conditions: [{{type: Ready, status: 'True'}}]}}\n"
            )
        };
        let web = |name: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default, labels: {{app: web}}, ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u1, controller: true}}]}}\nspec:\n  nodeName: n1\n  containers: [{{name: c, image: c, resources: {{requests: {{cpu: 400m}}}}}}]\nstatus: {{phase: Running}}\n"
            )
        };
        let budget = "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: default}\nspec: {minAvailable: 1, selector: {matchLabels: {app: web}}}\n";
        let policy = "---\napiVersion: descheduler/v1alpha1\nkind: DeschedulerPolicy\nstrategies:\n  RemoveDuplicates: {enabled: true}\n  LowNodeUtilization:\n    enabled: true\n    params:\n      nodeResourceUtilizationThresholds:\n        thresholds: {cpu: 10}\n        targetThresholds: {cpu: 30, pods: 100}\n";
        let yaml = [
            &node("n1"),
            &node("n2"),
            &web("web-a"),
            &web("web-b"),
            budget,
            policy,
            &scenario("  - {at: 0s, deschedule: {}}\n"),
        ]
        .concat();
        let low_node_utilization = |version| {
            let sources = [Source::new("test", &yaml)];
            let cluster = Cluster::build(
                input::load(&sources, &Limits::default()),
                &sources,
                Some(version),
            );
            let outcome = run(&cluster, &ScheduleOptions::default(), &Options::default())
                .expect("a Scenario");
            let run = outcome
                .disruption
                .descheduler
                .first()
                .map(|run| &run.outcome);
            let strategies = run.map(|run| run.strategies.clone()).unwrap_or_default();
            strategies.get(1).map(|strategy| strategy.evicted)
        };
        assert_eq!(low_node_utilization(Version::Legacy), Some(0));
        assert_eq!(low_node_utilization(Version::Current), Some(1));
    }

    /// The events of `reason` about pod1, as `(at, message)`.
    fn pod1_events(outcome: &Outcome, reason: &str) -> Vec<(i64, String)> {
        let events = outcome.disruption.timeline.iter();
        events
            .filter(|event| event.reason == reason && event.object == "Pod/default/pod1")
            .map(|event| {
                (
                    event.at.0 / crate::duration::SECOND,
                    event.message.to_string(),
                )
            })
            .collect()
    }

    /// A terminating pod is still listed on its node: a later NoExecute taint it does not
    /// tolerate makes the controller delete it again (`processPodOnNode`, then
    /// `deletePodHandler`), one more event and no second eviction.
    #[test]
    fn a_later_taint_marks_a_terminating_pod_again() {
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 a=x:NoExecute'}\n  - {at: 10s, taint: 'node1 b=y:NoExecute'}\n",
        );
        let outcome = play(&[NODE, &pod("pod1", None), &steps].concat());
        assert_eq!(evicted(&outcome), [("default/pod1".into(), 0)]);
        let marked = "Marking for deletion Pod default/pod1".to_string();
        assert_eq!(
            pod1_events(&outcome, "TaintManagerEviction"),
            [(0, marked.clone()), (10, marked)]
        );
    }

    /// `NodeUpdated` queues a node only when its NoExecute taints changed: removing a
    /// NoSchedule taint plans nothing again for a pod already deleted.
    #[test]
    fn only_a_change_of_no_execute_taints_looks_at_the_pods_again() {
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 k2=x:NoSchedule'}\n  - {at: 0s, taint: 'node1 testTaint1=test1:NoExecute'}\n  - {at: 20s, untaint: 'node1 k2:NoSchedule-'}\n",
        );
        let outcome = play(&[NODE, &pod("pod1", Some((1, 10))), &steps].concat());
        let events = pod1_events(&outcome, "TaintManagerEviction");
        let times: Vec<i64> = events.iter().map(|(at, _)| *at).collect();
        assert_eq!(times, [0, 10], "{events:?}");
    }

    /// 1.11's `TimedWorkerQueue` keeps a fired worker's key until the pod is gone
    /// (`timed_workers.go`, `getWrappedWorkerFunc`): a later taint tolerated for a while
    /// plans nothing for the terminating pod (`AddWork` skips an existing key), where one
    /// it does not tolerate deletes it again (`a_later_taint_marks_a_terminating_pod_again`).
    /// 1.34's takes the key out once the worker finished: the later taint plans a
    /// deletion again, and it fires while the pod is still terminating.
    #[test]
    fn a_fired_worker_keeps_its_key_until_the_pod_is_gone_in_1_11_only() {
        let pod = pod_tolerating(&[("k1", Some(10)), ("k3", Some(5))]);
        let marked = "Marking for deletion Pod default/pod1".to_string();
        for version in [Version::Current, Version::Legacy] {
            let steps = scenario(
                "  - {at: 0s, taint: 'node1 k1=x:NoExecute'}\n  - {at: 20s, taint: 'node1 k3=x:NoExecute'}\n",
            );
            let outcome = play_as(&[NODE, &pod, &steps].concat(), Some(version));
            let events = pod1_events(&outcome, "TaintManagerEviction");
            let last = match version {
                Version::Legacy => 10,
                Version::Current => 25,
            };
            assert_eq!(events.last(), Some(&(last, marked.clone())), "{events:?}");
            // Once every NoExecute taint is gone the key goes too: a new taint plans again.
            let steps = scenario(
                "  - {at: 0s, taint: 'node1 k1=x:NoExecute'}\n  - {at: 15s, untaint: 'node1 k1:NoExecute-'}\n  - {at: 20s, taint: 'node1 k3=x:NoExecute'}\n",
            );
            let outcome = play_as(&[NODE, &pod, &steps].concat(), Some(version));
            let events = pod1_events(&outcome, "TaintManagerEviction");
            let times: Vec<i64> = events.iter().map(|(at, _)| *at).collect();
            assert_eq!(times, [0, 10, 20, 25], "{version:?}: {events:?}");
            // Deleted at once for an untolerated taint, then again for a second one (the
            // empty key goes without an event); the first taint going leaves one
            // tolerated for 5 s, which plans nothing for the pod still terminating in
            // 1.11 and a deletion 5 s later in 1.34.
            let steps = scenario(
                "  - {at: 0s, taint: 'node1 k2=x:NoExecute'}\n  - {at: 5s, taint: 'node1 k3=x:NoExecute'}\n  - {at: 10s, untaint: 'node1 k2:NoExecute-'}\n",
            );
            let slow = pod.replace(
                "  containers:",
                "  terminationGracePeriodSeconds: 60\n  containers:",
            );
            let outcome = play_as(&[NODE, &slow, &steps].concat(), Some(version));
            let events = pod1_events(&outcome, "TaintManagerEviction");
            let marks: Vec<i64> = events
                .iter()
                .filter(|(_, message)| *message == marked)
                .map(|(at, _)| *at)
                .collect();
            let expected: &[i64] = match version {
                Version::Legacy => &[0, 5],
                Version::Current => &[0, 5, 15],
            };
            assert_eq!(marks, expected, "{version:?}: {events:?}");
            let gone = pod1_events(&outcome, "Killing");
            let times: Vec<i64> = gone.iter().map(|(at, _)| *at).collect();
            assert_eq!(times, [60], "{version:?}: {gone:?}");
        }
    }

    /// A deletion the controller planned stays planned when something else deletes the
    /// pod: it fires on the terminating pod if that is still there (pod2, tolerating 20 s),
    /// and is called off when the pod is gone first (pod1, 60 s; `handlePodUpdate` finds
    /// it gone at 40 s, after the drain's 30 s grace period).
    #[test]
    fn a_planned_taint_deletion_outlives_another_deletion() {
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 testTaint1=test1:NoExecute'}\n  - {at: 10s, drain: {node: node1, force: true}}\n",
        );
        let outcome = play(&[NODE, &pod("pod1", Some((1, 60))), &steps].concat());
        assert_eq!(evicted(&outcome), [("default/pod1".into(), 10)]);
        let cancelled = pod1_events(&outcome, "TaintManagerEviction");
        let last = cancelled.last().cloned();
        assert_eq!(
            last,
            Some((40, "Cancelling deletion of Pod default/pod1".into()))
        );
        let soon = pod("pod1", Some((1, 20)));
        let outcome = play(&[NODE, &soon, &steps].concat());
        let marked = pod1_events(&outcome, "TaintManagerEviction");
        let last = marked.last().cloned();
        assert_eq!(
            last,
            Some((20, "Marking for deletion Pod default/pod1".into()))
        );
        assert_eq!(evicted(&outcome).len(), 1);
    }

    /// The taint eviction controller lists every pod assigned to the node, finished ones
    /// too: a finished pod that does not tolerate the taint is deleted at once.
    #[test]
    fn a_taint_deletes_the_finished_pods_on_its_node() {
        let done = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: done, namespace: default}\nspec:\n  nodeName: node1\n  restartPolicy: Never\n  containers: [{name: c, image: c}]\nstatus: {phase: Succeeded}\n";
        let steps = scenario("  - {at: 10s, taint: 'node1 k=v:NoExecute'}\n");
        let outcome = play(&[NODE, done, &steps].concat());
        assert_eq!(evicted(&outcome), [("default/done".into(), 10)]);
        let marked = outcome.disruption.timeline.iter().any(|event| {
            event.reason == "TaintManagerEviction"
                && event.message == "Marking for deletion Pod default/done"
        });
        assert!(marked, "{:?}", outcome.disruption.timeline);
    }

    /// The events of `outcome` as `(seconds, reason, object)`.
    fn happenings(outcome: &Outcome) -> Vec<(i64, String, String)> {
        let events = outcome.disruption.timeline.iter();
        events
            .map(|event| {
                let at = event.at.0 / crate::duration::SECOND;
                (at, event.reason.to_string(), event.object.to_string())
            })
            .collect()
    }

    /// `CheckGracefulDelete` and `BeforeDelete`: a negative grace period is one second in
    /// 1.34; 1.11 keeps it, and its store deletes the pod at once.
    #[test]
    fn a_negative_grace_period_is_one_second() {
        let web = web_pod(
            "web-a",
            "node1",
            "  terminationGracePeriodSeconds: -5
",
            "",
        );
        let steps = scenario(
            "  - {at: 10s, drain: node1}
",
        );
        let yaml = [NODE, &web, &steps].concat();
        let gone = |version| {
            let outcome = play_as(&yaml, Some(version));
            let found = happenings(&outcome)
                .into_iter()
                .find(|(_, reason, _)| reason == "Killing");
            found.map(|(at, _, _)| at)
        };
        assert_eq!(gone(Version::Current), Some(11));
        assert_eq!(gone(Version::Legacy), Some(10));
    }

    /// A grace period of zero removes the pod without its kubelet (`store.go`): on an
    /// unreachable node too, where the StatefulSet then makes it again elsewhere. A drain
    /// with `--grace-period=0` does the same to a pod already terminating there.
    #[test]
    fn a_grace_period_of_zero_deletes_without_the_kubelet() {
        let node2 = NODE.replace("node1", "node2");
        let db = |grace: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata:\n  name: db-0\n  namespace: default\n  ownerReferences: [{{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u1, controller: true}}]\nspec:\n  nodeName: node1\n  terminationGracePeriodSeconds: {grace}\n  containers: [{{name: c, image: c}}]\n  tolerations: [{{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 30}}]\nstatus: {{phase: Running}}\n"
            )
        };
        let down = "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n";
        let outcome = play(&[NODE, &node2, &db("0"), &scenario(down)].concat());
        let seen = happenings(&outcome);
        let gone = (30, "Killing".into(), "Pod/default/db-0".into());
        let back = (30, "Scheduled".into(), "Pod/default/db-0".into());
        assert!(seen.contains(&gone) && seen.contains(&back), "{seen:?}");
        let eviction = outcome.disruption.evictions.first();
        let landed = eviction.and_then(|eviction| eviction.rescheduled_to.as_deref());
        assert_eq!(landed, Some("node2"));
        // A grace period of 30 s: terminating for ever, until a drain asks for zero.
        let drained =
            alloc::format!("{down}  - {{at: 40s, drain: {{node: node1, gracePeriod: 0}}}}\n");
        let outcome = play(&[NODE, &node2, &db("30"), &scenario(&drained)].concat());
        let seen = happenings(&outcome);
        let gone = (40, "Killing".into(), "Pod/default/db-0".into());
        let done = (40, "Drained".into(), "Node/node1".into());
        assert!(seen.contains(&gone) && seen.contains(&done), "{seen:?}");
        let still = happenings(&play(&[NODE, &node2, &db("30"), &scenario(down)].concat()));
        assert!(!still.iter().any(|(_, reason, _)| reason == "Killing"));
        // 1.11's store the same (`updateForGracefulDeletion` keeps only a graceful
        // deletion above zero): drained with `--grace-period=0` from a node that stopped
        // posting, a pod is gone at once, and the drain done.
        let web = web_pod("web-a", "node1", "", "");
        let drained = "  - {at: 10s, drain: {node: node1, gracePeriod: 0}}\n";
        let steps = scenario(&[down, drained].concat());
        let outcome = play_as(
            &[NODE, &node2, &web, &steps].concat(),
            Some(Version::Legacy),
        );
        let seen = happenings(&outcome);
        let gone = (10, "Killing".into(), "Pod/default/web-a".into());
        let done = (10, "Drained".into(), "Node/node1".into());
        assert!(seen.contains(&gone) && seen.contains(&done), "{seen:?}");
    }

    /// `MarkPodsNotReady`: a node whose kubelet stops posting (Ready goes Unknown) has its
    /// pods marked not ready, and their budget counts them out at once: a drain elsewhere
    /// is refused until the node is ready again. 1.34 says so on each pod.
    #[test]
    fn an_unreachable_node_takes_its_pods_out_of_their_budgets() {
        let node = |name: &str| NODE.replace("node1", name);
        let tolerations = "  tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 300}, {key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300}]\n";
        let ready = "  conditions: [{type: Ready, status: 'True'}]\n";
        let web = |name: &str, node: &str| web_pod(name, node, tolerations, ready);
        let budget = WEB_BUDGET;
        let steps = |ready_again: &str| {
            scenario(&alloc::format!(
                "  - {{at: 0s, nodeCondition: {{node: n1, type: Ready, status: Unknown}}}}\n  - {{at: 10s, drain: n2}}\n{ready_again}"
            ))
        };
        let yaml = |steps: &str| {
            [
                node("n1"),
                node("n2"),
                node("n3"),
                web("web-a", "n1"),
                web("web-b", "n2"),
                web("web-c", "n3"),
                budget.into(),
                steps.into(),
            ]
            .concat()
        };
        for version in [Version::Current, Version::Legacy] {
            let web_b = |outcome: &Outcome| {
                let evictions = evicted(outcome);
                let found = evictions.iter().find(|(pod, _)| pod == "default/web-b");
                found.map(|(_, at)| *at)
            };
            let outcome = play_as(&yaml(&steps("")), Some(version));
            // Refused until the taint manager deletes web-a at 5 min and its replacement runs.
            assert_eq!(web_b(&outcome), Some(305), "{version:?}");
            let marked =
                outcome.disruption.timeline.iter().any(|event| {
                    event.reason == "NodeNotReady" && event.object == "Pod/default/web-a"
                });
            assert_eq!(marked, version == Version::Current);
            let later =
                steps("  - {at: 20s, nodeCondition: {node: n1, type: Ready, status: 'True'}}\n");
            let outcome = play_as(&yaml(&later), Some(version));
            let at = web_b(&outcome);
            assert!(at.is_some_and(|at| (20..=25).contains(&at)), "{at:?}");
        }
        // A kubelet that posts NotReady itself keeps its pods' readiness.
        let own = scenario("  - {at: 0s, nodeCondition: {node: n1, type: Ready, status: 'False'}}\n  - {at: 10s, drain: n2}\n");
        let evictions = evicted(&play(&yaml(&own)));
        assert_eq!(evictions.first(), Some(&("default/web-b".into(), 10)));
        // `MarkPodsNotReady` changes only a `Ready` condition that is there: web-a listing
        // none is left as kubefit reads it (ready, in its budget), with no event.
        let unstated = yaml(&steps("")).replacen(ready, "", 1);
        let outcome = play(&unstated);
        let marked = outcome
            .disruption
            .timeline
            .iter()
            .any(|event| event.reason == "NodeNotReady" && event.object == "Pod/default/web-a");
        assert!(!marked);
        let evictions = evicted(&outcome);
        assert_eq!(evictions.first(), Some(&("default/web-b".into(), 10)));
    }

    /// Ready going Unknown is the controller's marking: the pressure conditions go
    /// Unknown with it (added when the kubelet never posted them) and their NoSchedule
    /// taints go; when the kubelet posts again they come back as it last posted them.
    #[test]
    fn an_unreachable_node_has_its_pressure_conditions_unknown() {
        let node = "---\nkind: Node\napiVersion: v1\nmetadata: {name: node1}\nspec: {taints: [{key: node.kubernetes.io/memory-pressure, effect: NoSchedule}]}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}, conditions: [{type: Ready, status: 'True'}, {type: MemoryPressure, status: 'True'}]}\n";
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n  - {at: 60s, nodeCondition: {node: node1, type: Ready, status: 'True'}}\n",
        );
        let yaml = [node, &steps].concat();
        let outcome = play(&yaml);
        let memory = |outcome: &Outcome| {
            let events = outcome.disruption.timeline.iter();
            events
                .filter(|event| event.message.to_string().contains("memory-pressure"))
                .map(|event| {
                    (
                        event.at.0 / crate::duration::SECOND,
                        event.message.to_string(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            memory(&outcome),
            [
                (
                    0,
                    "node/node1 untainted node.kubernetes.io/memory-pressure:NoSchedule".into()
                ),
                (
                    60,
                    "node/node1 tainted with node.kubernetes.io/memory-pressure:NoSchedule".into()
                ),
            ]
        );
        let conditions = |version, at: i64| {
            let sources = [Source::new("test", &yaml)];
            let cluster = Cluster::build(
                input::load(&sources, &Limits::default()),
                &sources,
                Some(version),
            );
            let options = Options {
                at: Some(Duration::from_seconds(at)),
                ..Options::default()
            };
            let outcome = run(&cluster, &ScheduleOptions::default(), &options).expect("a Scenario");
            let node = outcome.nodes.first().cloned().unwrap_or_default();
            let listed = node.status.conditions.iter();
            listed
                .map(|condition| alloc::format!("{}={}", condition.type_, condition.status))
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            conditions(Version::Current, 30),
            "Ready=Unknown MemoryPressure=Unknown DiskPressure=Unknown PIDPressure=Unknown"
        );
        assert_eq!(
            conditions(Version::Current, 90),
            "Ready=True MemoryPressure=True"
        );
        assert_eq!(
            conditions(Version::Legacy, 30),
            "Ready=Unknown MemoryPressure=Unknown OutOfDisk=Unknown DiskPressure=Unknown"
        );
    }

    /// 1.11's pod eviction timeout counts from the Ready condition's last transition
    /// (`False`) or the kubelet's last heartbeat (`Unknown`), which `tryUpdateNodeStatus`
    /// notes: a step setting the same status again restarts neither. In 1.34 the same
    /// status again leaves the taint, and with it the planned eviction, as it was.
    #[test]
    fn the_same_ready_status_again_keeps_the_eviction_time() {
        let node2 = NODE.replace("node1", "node2");
        for (status, key) in [
            ("'False'", "node.kubernetes.io/not-ready"),
            ("Unknown", "node.kubernetes.io/unreachable"),
        ] {
            let steps = scenario(&alloc::format!(
                "  - {{at: 0s, nodeCondition: {{node: node1, type: Ready, status: {status}}}}}\n  - {{at: 100s, nodeCondition: {{node: node1, type: Ready, status: {status}}}}}\n"
            ));
            let yaml = [NODE, &node2, &pod("bare", None), &steps].concat();
            assert_eq!(
                evicted(&play_as(&yaml, Some(Version::Legacy))),
                [("default/bare".into(), 300)],
                "{status}"
            );
            let tolerating = pod_tolerating(&[(key, Some(300))]);
            let yaml = [NODE, &node2, &tolerating, &steps].concat();
            assert_eq!(
                evicted(&play_as(&yaml, Some(Version::Current))),
                [("default/pod1".into(), 300)],
                "{status}"
            );
        }
    }

    /// A removed node leaves its zone's counts at the controller's next pass: the last
    /// ready node of zone a goes with its machine, every zone is then fully disrupted,
    /// and master disruption mode lifts the unreachable taints.
    #[test]
    fn a_removed_node_leaves_the_zone_counts() {
        let node = |name: &str, zone: &str| {
            alloc::format!(
                "---\nkind: Node\napiVersion: v1\nmetadata: {{name: {name}, labels: {{topology.kubernetes.io/zone: {zone}}}}}\nstatus: {{allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}, conditions: [{{type: Ready, status: 'True'}}]}}\n"
            )
        };
        let machine = "---\napiVersion: machine.openshift.io/v1beta1\nkind: Machine\nmetadata:\n  name: m-a1\n  namespace: openshift-machine-api\n  annotations: {machine.openshift.io/exclude-node-draining: ''}\nstatus: {phase: Running, nodeRef: {kind: Node, name: a1}}\n";
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: a2, type: Ready, status: Unknown}}\n  - {at: 0s, nodeCondition: {node: b1, type: Ready, status: Unknown}}\n  - {at: 1m, deleteMachine: m-a1}\n",
        );
        let yaml = [
            node("a1", "a"),
            node("a2", "a"),
            node("b1", "b"),
            machine.into(),
            steps,
        ]
        .concat();
        let outcome = play(&yaml);
        let timeline = &outcome.disruption.timeline;
        let removed = timeline.iter().find(|event| event.reason == "RemovingNode");
        let removed_at = removed.map(|event| event.at);
        // `RecordNodeEvent`'s wording.
        assert_eq!(
            removed.map(|event| event.message.to_string()).as_deref(),
            Some("Node a1 event: Removing Node a1 from Controller")
        );
        let master = timeline
            .iter()
            .find(|event| event.reason == "MasterDisruption");
        assert!(removed_at.is_some(), "{timeline:?}");
        assert_eq!(master.map(|event| event.at), removed_at, "{timeline:?}");
    }

    /// A ready node of the input that carries the controller's `unreachable` NoExecute
    /// taint loses it at the controller's first pass (`markNodeAsReachable`, 1.34's
    /// `processTaintBaseEviction` and 1.11's with taint based evictions), and the taint
    /// eviction controller calls off the deletion it planned. 1.11 without them leaves
    /// the taint: the pod goes when its toleration runs out.
    #[test]
    fn a_ready_node_loses_the_controllers_taint_when_the_controllers_start() {
        let tainted = NODE.replace(
            "metadata: {name: node1}\n",
            "metadata: {name: node1}\nspec: {taints: [{key: node.kubernetes.io/unreachable, effect: NoExecute}]}\n",
        );
        let pod = pod_tolerating(&[("node.kubernetes.io/unreachable", Some(300))]);
        let steps = scenario("  - {at: 9m, cordon: node2}\n");
        let yaml = [&tainted, READY_NEIGHBOUR, &pod, &steps].concat();
        let at_start = |outcome: &Outcome| -> Vec<(EventKind, String)> {
            outcome
                .disruption
                .timeline
                .iter()
                .filter(|event| event.at == Duration(0))
                .map(|event| (event.kind, event.message.to_string()))
                .collect()
        };
        let legacy = [&yaml, TAINT_BASED_EVICTIONS].concat();
        for outcome in [
            play_as(&yaml, Some(Version::Current)),
            play_as(&legacy, Some(Version::Legacy)),
        ] {
            assert!(evicted(&outcome).is_empty(), "{:?}", outcome.disruption);
            let events = at_start(&outcome);
            assert_eq!(
                events.get(1..),
                Some(
                    &[
                        (
                            EventKind::TaintRemoved,
                            "node/node1 untainted node.kubernetes.io/unreachable:NoExecute".into()
                        ),
                        (
                            EventKind::EvictionCancelled,
                            "Cancelling deletion of Pod default/pod1".into()
                        ),
                    ][..]
                ),
                "{events:?}"
            );
        }
        assert_eq!(
            evicted(&play_as(&yaml, Some(Version::Legacy))),
            [("default/pod1".into(), 300)]
        );
    }

    /// The node lifecycle controller owns the not-ready and unreachable NoExecute taints:
    /// one put by hand on a ready node is taken off at its next pass (the pods it did not
    /// tolerate are gone already), and one taken off a node that is not ready comes back
    /// in 1.34, with a fresh start for the tolerations; 1.11 does not queue it again.
    #[test]
    fn the_controller_keeps_its_taints_as_the_ready_condition_says() {
        let tolerating = |name: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  nodeName: node1\n  containers: [{{name: c, image: c}}]\n  tolerations: [{{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 60}}]\nstatus: {{phase: Running}}\n"
            )
        };
        let steps =
            scenario("  - {at: 10s, taint: 'node1 node.kubernetes.io/unreachable:NoExecute'}\n");
        let outcome = play(&[NODE, &pod("bare", None), &tolerating("kept"), &steps].concat());
        assert_eq!(evicted(&outcome), [("default/bare".into(), 10)]);
        let lifted = outcome.disruption.timeline.iter().any(|event| {
            event.kind == EventKind::TaintRemoved && event.at == Duration::from_seconds(10)
        });
        assert!(lifted, "{:?}", outcome.disruption.timeline);
        let node2 = NODE.replace("node1", "node2");
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n  - {at: 30s, untaint: 'node1 node.kubernetes.io/unreachable:NoExecute'}\n",
        );
        let yaml = [NODE, &node2, &tolerating("kept"), &steps].concat();
        assert_eq!(
            evicted(&play_as(&yaml, Some(Version::Current))),
            [("default/kept".into(), 90)]
        );
        // 1.11 taints only with the `TaintBasedEvictions` gate on.
        let gated = [&yaml, TAINT_BASED_EVICTIONS].concat();
        assert!(evicted(&play_as(&gated, Some(Version::Legacy))).is_empty());
    }

    /// 1.11 without taint based evictions leaves the `not-ready` and `unreachable`
    /// NoExecute taints alone (`cancelPodEviction` where taint based evictions call
    /// `markNodeAsReachable`): one put by hand on a ready node stays, in master disruption
    /// mode too, and the taint manager evicts by it.
    /// 1.34's NoSchedule pass follows every update of a node, and the controllers' start:
    /// the taints the conditions and `spec.unschedulable` call for are put back, the
    /// others of the controller's keys taken off (a value is not compared). 1.11 does
    /// none of it.
    #[test]
    fn the_no_schedule_pass_follows_every_node_update() {
        let lifecycle = |outcome: &Outcome| -> Vec<(i64, String)> {
            let events = outcome.disruption.timeline.iter();
            events
                .filter(|event| event.reason == "NodeLifecycleController")
                .map(|event| {
                    let at = event.at.0 / crate::duration::SECOND;
                    (at, event.message.to_string())
                })
                .collect()
        };
        let tainted = NODE.replace(
            "metadata: {name: node1}\n",
            "metadata: {name: node1}\nspec: {taints: [{key: node.kubernetes.io/disk-pressure, effect: NoSchedule}, {key: node.kubernetes.io/not-ready, value: kept, effect: NoSchedule}]}\n",
        );
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: 'False'}}\n  - {at: 10s, untaint: 'node1 node.kubernetes.io/not-ready-'}\n  - {at: 20s, taint: 'node1 node.kubernetes.io/memory-pressure:NoSchedule'}\n  - {at: 30s, taint: 'node1 node.kubernetes.io/unschedulable:NoSchedule'}\n  - {at: 40s, cordon: node1}\n  - {at: 50s, untaint: 'node1 node.kubernetes.io/unschedulable:NoSchedule'}\n  - {at: 60s, taint: 'node1 node.kubernetes.io/not-ready=x:NoSchedule'}\n",
        );
        let yaml = [&tainted, READY_NEIGHBOUR, &steps].concat();
        let node = |what: &str| alloc::format!("node/node1 {what}");
        assert_eq!(
            lifecycle(&play_as(&yaml, Some(Version::Current))),
            [
                // The start: the taints of conditions the ready node does not have go;
                // then Ready goes False.
                (
                    0,
                    node("untainted node.kubernetes.io/disk-pressure:NoSchedule")
                ),
                (0, node("untainted node.kubernetes.io/not-ready:NoSchedule")),
                (
                    0,
                    node("tainted with node.kubernetes.io/not-ready:NoSchedule")
                ),
                (
                    0,
                    node("tainted with node.kubernetes.io/not-ready:NoExecute")
                ),
                (
                    10,
                    node("tainted with node.kubernetes.io/not-ready:NoSchedule")
                ),
                (
                    10,
                    node("tainted with node.kubernetes.io/not-ready:NoExecute")
                ),
                (
                    20,
                    node("untainted node.kubernetes.io/memory-pressure:NoSchedule")
                ),
                (
                    30,
                    node("untainted node.kubernetes.io/unschedulable:NoSchedule")
                ),
                (
                    40,
                    node("tainted with node.kubernetes.io/unschedulable:NoSchedule")
                ),
                (
                    50,
                    node("tainted with node.kubernetes.io/unschedulable:NoSchedule")
                ),
                // 60 s: a value of its own on the wanted taint is left alone.
            ]
        );
        assert_eq!(
            lifecycle(&play_as(&yaml, Some(Version::Legacy))),
            [] as [(i64, String); 0]
        );
    }

    /// Non-graceful node shutdown: a node not ready and out of service has its
    /// terminating pods force-deleted by 1.34's pod garbage collector at its first pass
    /// (every 20 s from 0 s) once both hold, whichever came last, and a StatefulSet then
    /// recreates its pod elsewhere. A ready node's pods are left to their kubelet, and
    /// 1.11 has no such pass.
    #[test]
    fn the_pod_gc_clears_a_node_out_of_service() {
        let gone = |outcome: &Outcome| -> Vec<(i64, String, String)> {
            let events = outcome.disruption.timeline.iter();
            events
                .filter(|event| event.kind == EventKind::PodDeleted)
                .map(|event| {
                    let at = event.at.0 / crate::duration::SECOND;
                    (at, event.object.to_string(), event.message.to_string())
                })
                .collect()
        };
        let collected = |at: i64, pod: &str| {
            (
                at,
                alloc::format!("Pod/default/{pod}"),
                "PodGC force-deleted the pod: its node is not ready and out of service".into(),
            )
        };
        let db = "---\nkind: Pod\napiVersion: v1\nmetadata:\n  name: db-0\n  namespace: default\n  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: u1, controller: true}]\nspec:\n  nodeName: node1\n  containers: [{name: c, image: c}]\nstatus: {phase: Running}\n";
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n  - {at: 10m, taint: 'node1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute'}\n",
        );
        let yaml = [
            NODE,
            READY_NEIGHBOUR,
            &web_pod("web-a", "node1", "", ""),
            db,
            &steps,
        ]
        .concat();
        let outcome = play_as(&yaml, Some(Version::Current));
        // By name: neither has a creation time.
        assert_eq!(
            gone(&outcome),
            [collected(600, "db-0"), collected(600, "web-a")]
        );
        let db_back = outcome
            .disruption
            .evictions
            .iter()
            .find(|eviction| eviction.pod == "default/db-0");
        assert_eq!(
            db_back.and_then(|eviction| eviction.rescheduled_to.as_deref()),
            Some("node2")
        );
        assert_eq!(
            gone(&play_as(&yaml, Some(Version::Legacy))),
            [] as [(i64, String, String); 0]
        );
        // The taint first, of another effect; the pod deleted later, at 305 s: the pass
        // at 320 s takes it.
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n  - {at: 30s, taint: 'node1 node.kubernetes.io/out-of-service:NoSchedule'}\n",
        );
        let late = pod_tolerating(&[("node.kubernetes.io/unreachable", Some(305))]);
        let outcome = play_as(&[NODE, READY_NEIGHBOUR, &late, &steps].concat(), None);
        assert_eq!(evicted(&outcome), [("default/pod1".into(), 305)]);
        assert_eq!(gone(&outcome), [collected(320, "pod1")]);
        // A ready node: the kubelet stops the pod after its grace period.
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute'}\n",
        );
        let outcome = play_as(&[NODE, &pod("pod1", None), &steps].concat(), None);
        assert_eq!(
            gone(&outcome),
            [(
                30,
                "Pod/default/pod1".into(),
                "the pod's containers stopped and the pod is gone".into()
            )]
        );
    }

    #[test]
    fn openshift_3_11_without_taint_based_evictions_leaves_the_controllers_taints() {
        let node2 = NODE.replace("node1", "node2");
        let pod = pod_tolerating(&[("node.kubernetes.io/not-ready", Some(60))]);
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 node.kubernetes.io/not-ready:NoExecute'}\n  - {at: 10s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n  - {at: 10s, nodeCondition: {node: node2, type: Ready, status: Unknown}}\n",
        );
        let outcome = play_as(
            &[NODE, &node2, &pod, &steps].concat(),
            Some(Version::Legacy),
        );
        assert_eq!(evicted(&outcome), [("default/pod1".into(), 60)]);
        let timeline = &outcome.disruption.timeline;
        assert!(timeline
            .iter()
            .any(|event| event.reason == "MasterDisruption"));
        assert!(
            !timeline
                .iter()
                .any(|event| event.kind == EventKind::TaintRemoved),
            "{timeline:?}"
        );
    }

    /// OpenShift 3.11 without `TaintBasedEvictions`: no NoExecute taint; once the node
    /// has been down for `--pod-eviction-timeout` (5 minutes, or the master
    /// configuration's) the controller deletes its pods but a DaemonSet's, and a node
    /// back in time keeps them.
    #[test]
    fn openshift_3_11_deletes_a_down_nodes_pods_after_the_eviction_timeout() {
        let daemon = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: agent-x, namespace: kube-system, ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: d1, controller: true}]}\nspec:\n  nodeName: node1\n  containers: [{name: c, image: c}]\nstatus: {phase: Running}\n";
        let down =
            scenario("  - {at: 10s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n");
        // A second, ready node: with every node down the controller evicts nothing.
        let node2 = NODE.replace("node1", "node2");
        let yaml = [NODE, &node2, &pod("bare", None), daemon, &down].concat();
        let outcome = play_as(&yaml, Some(Version::Legacy));
        assert_eq!(evicted(&outcome), [("default/bare".into(), 310)]);
        let said: Vec<(&str, String)> = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| event.at == Duration::from_seconds(310))
            .map(|event| (event.reason.as_ref(), event.message.to_string()))
            .collect();
        assert_eq!(
            said,
            [
                (
                    "DeletingAllPods",
                    "Node node1 event: Deleting all Pods from Node node1.".into()
                ),
                (
                    "NodeControllerEviction",
                    "Marking for deletion Pod bare from Node node1".into()
                ),
            ]
        );
        assert!(!outcome
            .disruption
            .timeline
            .iter()
            .any(|event| event.message.to_string().contains("NoExecute")));
        // Back before the timeout: nothing goes.
        let back = scenario(
            "  - {at: 10s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n  - {at: 2m, nodeCondition: {node: node1, type: Ready, status: 'True'}}\n",
        );
        let yaml = [NODE, &node2, &pod("bare", None), &back].concat();
        assert!(evicted(&play_as(&yaml, Some(Version::Legacy))).is_empty());
        // The master configuration's timeout.
        let timeout = "---\napiVersion: v1\nkind: MasterConfig\nkubernetesMasterConfig:\n  controllerArguments:\n    pod-eviction-timeout: ['1m']\n";
        let yaml = [NODE, &node2, &pod("bare", None), &down, timeout].concat();
        assert_eq!(
            evicted(&play_as(&yaml, Some(Version::Legacy))),
            [("default/bare".into(), 70)]
        );
    }

    /// 1.11's `DeletePods` lists the node's pods from the API server, by key, finished
    /// ones included: a finished pod is deleted at once, and a node that holds only
    /// finished pods has its `DeletingAllPods` event too.
    #[test]
    fn openshift_3_11_deletes_a_down_nodes_finished_pods_too() {
        let done = |name: &str, node: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  nodeName: {node}\n  restartPolicy: Never\n  containers: [{{name: c, image: c}}]\nstatus: {{phase: Succeeded}}\n"
            )
        };
        let (node2, node3) = (
            NODE.replace("node1", "node2"),
            NODE.replace("node1", "node3"),
        );
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: 'False'}}\n  - {at: 0s, nodeCondition: {node: node2, type: Ready, status: 'False'}}\n",
        );
        let yaml = [
            NODE,
            &node2,
            &node3,
            &pod("web", None),
            &done("done", "node1"),
            &done("only", "node2"),
            &steps,
        ]
        .concat();
        let outcome = play_as(&yaml, Some(Version::Legacy));
        assert_eq!(
            evicted(&outcome),
            [
                ("default/done".into(), 300),
                ("default/web".into(), 300),
                ("default/only".into(), 310)
            ]
        );
        let said: Vec<(i64, &str, String)> = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| event.at >= Duration::from_seconds(300))
            .filter(|event| event.reason != "TaintRateLimited")
            .map(|event| {
                (
                    event.at.0 / crate::duration::SECOND,
                    event.reason.as_ref(),
                    event.object.to_string(),
                )
            })
            .collect();
        assert_eq!(
            said,
            [
                (300, "DeletingAllPods", "Node/node1".into()),
                (300, "NodeControllerEviction", "Pod/default/done".into()),
                (300, "Killing", "Pod/default/done".into()),
                (300, "NodeControllerEviction", "Pod/default/web".into()),
                (310, "DeletingAllPods", "Node/node2".into()),
                (310, "NodeControllerEviction", "Pod/default/only".into()),
                (310, "Killing", "Pod/default/only".into()),
            ]
        );
    }

    /// A pod the input shows being deleted (`deletionTimestamp`): its ReplicaSet made its
    /// replacement when that deletion began, so evicting it again makes none; the new
    /// deletion only shortens the one under way (`BeforeDelete`). kubefit places the
    /// deletionTimestamp from the newest `creationTimestamp`, and at most its grace
    /// period after 0 s without one.
    #[test]
    fn a_pod_the_input_shows_deleted_is_not_replaced_again() {
        let node2 = NODE.replace("node1", "node2");
        let deleted = |extra: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: web-old, namespace: default, deletionTimestamp: '2026-01-01T00:00:30Z', {extra}ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u1, controller: true}}]}}\nspec:\n  nodeName: node1\n  containers: [{{name: c, image: c}}]\nstatus: {{phase: Running}}\n"
            )
        };
        let grace = "deletionGracePeriodSeconds: 30, ";
        let gone = |steps: &str, extra: &str| {
            let outcome = play(&[NODE, &node2, &deleted(extra), &scenario(steps)].concat());
            let records = &outcome.disruption.evictions;
            assert!(records.iter().all(|record| record.replacement.is_none()));
            let seen = happenings(&outcome);
            assert!(
                !seen.iter().any(|(_, reason, _)| reason == "Scheduled"),
                "{seen:?}"
            );
            seen.into_iter()
                .find(|(_, reason, _)| reason == "Killing")
                .map(|(at, _, _)| at)
        };
        let drain = "  - {at: 0s, drain: node1}\n";
        assert_eq!(gone(drain, grace), Some(30));
        // Placed from the newest creationTimestamp: 20 s left.
        let created = [grace, "creationTimestamp: '2026-01-01T00:00:10Z', "].concat();
        assert_eq!(gone(drain, &created), Some(20));
        // A shorter grace period counts from when the deletion began; a longer one
        // changes nothing.
        let short = "  - {at: 2s, drain: {node: node1, gracePeriod: 5}}\n";
        assert_eq!(gone(short, grace), Some(5));
        let long = "  - {at: 2s, drain: {node: node1, gracePeriod: 60}}\n";
        assert_eq!(gone(long, grace), Some(30));
        // No grace period recorded: the new deletion removes it at once.
        assert_eq!(gone(drain, ""), Some(0));
        // The taint eviction controller deletes it again, no more.
        let taint = "  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n";
        assert_eq!(gone(taint, grace), Some(30));
    }

    /// OpenShift 3.11's `DeletePods` passes over a pod already marked for deletion
    /// (`DeletionGracePeriodSeconds` set), the input's included.
    #[test]
    fn openshift_3_11_leaves_a_pod_marked_for_deletion_to_it() {
        let marked = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: marked, namespace: default, deletionTimestamp: '2026-01-01T00:00:30Z', deletionGracePeriodSeconds: 30}\nspec:\n  nodeName: node1\n  containers: [{name: c, image: c}]\nstatus: {phase: Running}\n";
        let down =
            scenario("  - {at: 10s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n");
        let node2 = NODE.replace("node1", "node2");
        let yaml = [NODE, &node2, &pod("bare", None), marked, &down].concat();
        let outcome = play_as(&yaml, Some(Version::Legacy));
        assert_eq!(evicted(&outcome), [("default/bare".into(), 310)]);
    }

    /// The machine controller on an unreachable node passes over a pod the input shows
    /// deleted more than `skipWaitForDeleteTimeoutSeconds` ago (`skipDeletedFilter`), and
    /// evicts one deleted since (its shortened deadline already past, it is skipped at
    /// once).
    #[test]
    fn an_unreachable_nodes_drain_passes_over_long_deleted_pods() {
        let unreachable = NODE.replace("status: 'True'", "status: Unknown");
        let node2 = NODE.replace("node1", "node2");
        let pod = |name: &str, stamp: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: default, creationTimestamp: '2026-01-01T00:00:00Z', deletionTimestamp: '{stamp}', deletionGracePeriodSeconds: 30, ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u1, controller: true}}]}}\nspec:\n  nodeName: node1\n  containers: [{{name: c, image: c}}]\n  tolerations: [{{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}}]\nstatus: {{phase: Running}}\n"
            )
        };
        let input = [
            unreachable.as_str(),
            &node2,
            &machine_on("node1", ""),
            &pod("old", "2025-12-31T23:59:00Z"),
            &pod("recent", "2026-01-01T00:00:20Z"),
            &scenario("  - {at: 0s, deleteMachine: m1}\n"),
        ]
        .concat();
        let seen = happenings(&play(&input));
        let by_drain: Vec<&str> = seen
            .iter()
            .filter(|(_, reason, _)| reason == "Evicted")
            .map(|(_, _, object)| object.as_str())
            .collect();
        assert_eq!(by_drain, ["Pod/default/recent"]);
        let done = seen
            .iter()
            .find(|(_, reason, _)| reason == "DrainSucceeded");
        assert_eq!(done.map(|(at, _, _)| *at), Some(0));
    }

    /// `skipDeletedFilter` passes over a pod deleted long enough ago whoever deleted it:
    /// the taint eviction controller deleted this one at 60 s (its deadline 90 s), so the
    /// machine controller's drain at 400 s has nothing to evict.
    #[test]
    fn an_unreachable_nodes_drain_passes_over_pods_the_timeline_deleted() {
        let node2 = NODE.replace("node1", "node2");
        let tolerate = "  tolerations: [{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]\n";
        let steps = scenario(
            "  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: Unknown}}\n  - {at: 400s, deleteMachine: m1}\n",
        );
        let input = [
            NODE,
            &node2,
            &machine_on("node1", ""),
            &web_pod("web-a", "node1", tolerate, ""),
            &steps,
        ]
        .concat();
        let outcome = play(&input);
        let drain = drain_message(&outcome);
        assert_eq!(
            drain.as_deref(),
            Some("draining node/node1: 0 pod(s) to evict")
        );
        assert_eq!(evicted(&outcome), [("default/web-a".into(), 60)]);
    }

    /// `enable-taint-manager: [false]` among the master configuration's
    /// `controllerArguments`: 1.11 runs no NoExecute taint manager, so a NoExecute taint
    /// evicts nothing, and the node lifecycle controller deletes a down node's pods after
    /// the eviction timeout even with `TaintBasedEvictions` on (taint based evictions
    /// need both). The flag's last value stands.
    #[test]
    fn openshift_3_11_without_the_taint_manager_evicts_by_the_timeout_alone() {
        let config = |values: &str| {
            alloc::format!(
                "---\napiVersion: v1\nkind: MasterConfig\nkubernetesMasterConfig:\n  controllerArguments:\n    enable-taint-manager: [{values}]\n    feature-gates: ['TaintBasedEvictions=true']\n"
            )
        };
        let node2 = NODE.replace("node1", "node2");
        let on_node2 = pod("down", None).replace("nodeName: node1", "nodeName: node2");
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n  - {at: 10s, nodeCondition: {node: node2, type: Ready, status: Unknown}}\n",
        );
        let yaml = |values: &str| {
            [
                NODE,
                &node2,
                &pod("bare", None),
                &on_node2,
                &steps,
                &config(values),
            ]
            .concat()
        };
        let outcome = play_as(&yaml("'false'"), Some(Version::Legacy));
        assert_eq!(evicted(&outcome), [("default/down".into(), 310)]);
        let tainted =
            outcome.disruption.timeline.iter().any(|event| {
                event.reason == "NodeLifecycleController" && event.object == "Node/node2"
            });
        assert!(!tainted, "{:?}", outcome.disruption.timeline);
        // On (the default, or a later value): the taint evicts at once, and node2 is
        // tainted instead.
        for values in ["'true'", "'false', 'true'"] {
            let outcome = play_as(&yaml(values), Some(Version::Legacy));
            let evictions = evicted(&outcome);
            assert_eq!(
                evictions.first(),
                Some(&("default/bare".into(), 0)),
                "{values}"
            );
            let tainted = outcome.disruption.timeline.iter().any(|event| {
                event.reason == "NodeLifecycleController" && event.object == "Node/node2"
            });
            assert!(tainted, "{values}: {:?}", outcome.disruption.timeline);
        }
    }

    /// A replacement no scheduler serves, or one its template gates, never reaches a
    /// scheduling cycle: no `FailedScheduling` event, and it stays Pending.
    #[test]
    fn a_replacement_no_scheduler_takes_has_no_scheduling_event() {
        let web_set = |spec: &str| {
            alloc::format!(
                "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {{name: web, namespace: default, uid: u1}}\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec:\n      containers: [{{name: c, image: c}}]\n{spec}"
            )
        };
        let steps = scenario("  - {at: 0s, taint: node1 k=v:NoExecute}\n");
        let node2 = NODE.replace("node1", "node2");
        for spec in [
            "      schedulerName: other-scheduler\n",
            "      schedulingGates: [{name: example.com/wait}]\n",
        ] {
            let yaml = [
                NODE,
                &node2,
                &web_set(spec),
                &web_pod("web-a", "node1", "", ""),
                &steps,
            ]
            .concat();
            let outcome = play(&yaml);
            assert!(
                happenings(&outcome)
                    .iter()
                    .all(|(_, reason, _)| reason != "FailedScheduling" && reason != "Scheduled"),
                "{:?}",
                outcome.disruption.timeline
            );
            let eviction = outcome.disruption.evictions.first();
            assert!(eviction.is_some_and(
                |eviction| eviction.replacement.is_some() && eviction.rescheduled_to.is_none()
            ));
        }
    }

    /// A DaemonSet of the input tolerating `tolerations` (a YAML list) and requesting
    /// `cpu`, and its running pod on node1; node2, the `extra` documents and the scenario's
    /// `steps`.
    fn daemon_set_on_node1(tolerations: &str, cpu: &str, extra: &str, steps: &str) -> String {
        let spec = alloc::format!(
            "{{containers: [{{name: c, image: c, resources: {{requests: {{cpu: '{cpu}'}}}}}}], tolerations: {tolerations}}}"
        );
        let daemon_set = alloc::format!(
            "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: agent, namespace: default, uid: d1}}\nspec:\n  selector: {{matchLabels: {{app: agent}}}}\n  template:\n    metadata: {{labels: {{app: agent}}}}\n    spec: {spec}\n"
        );
        let pod = alloc::format!(
            "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: agent-a, namespace: default, labels: {{app: agent}}, ownerReferences: [{{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: d1, controller: true}}]}}\nspec: {spec}\nstatus: {{phase: Running}}\n"
        )
        .replace("spec: {containers", "spec: {nodeName: node1, containers");
        let node2 = NODE.replace("node1", "node2");
        [NODE, &node2, &daemon_set, &pod, extra, &scenario(steps)].concat()
    }

    /// The DaemonSet controller creates a pod on a node that should run one and has none:
    /// not while the node's NoExecute taint is untolerated, at once when it goes. 1.34
    /// pins it to the node for the scheduler; 1.11 creates it bound, with its own event,
    /// and none while the node has no room for it. A dump without the DaemonSet replaces
    /// nothing.
    #[test]
    fn a_daemon_set_recreates_its_pod_once_its_node_takes_it_again() {
        let steps = "  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n  - {at: 2m, untaint: 'node1 k:NoExecute'}\n";
        let yaml = daemon_set_on_node1("[]", "1", "", steps);
        let outcome = play(&yaml);
        let replacement = outcome.disruption.evictions[0].replacement.clone();
        let name = replacement
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        assert!(
            name.starts_with("default/agent-") && name.len() == 19,
            "{name}"
        );
        assert_eq!(
            happenings(&outcome).last(),
            Some(&(120, "Scheduled".into(), alloc::format!("Pod/{name}")))
        );
        assert_eq!(
            outcome.disruption.evictions[0].rescheduled_to.as_deref(),
            Some("node1")
        );

        let legacy = play_as(&yaml, Some(Version::Legacy));
        let events = happenings(&legacy);
        assert_eq!(
            events.last(),
            Some(&(
                120,
                "SuccessfulCreate".into(),
                "DaemonSet/default/agent".into()
            ))
        );
        assert!(events.iter().all(|(_, reason, _)| reason != "Scheduled"));
        assert_eq!(
            legacy.disruption.evictions[0].rescheduled_to.as_deref(),
            Some("node1")
        );
        // And the pod it created goes and comes back too.
        let again = "  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n  - {at: 2m, untaint: 'node1 k:NoExecute'}\n  - {at: 3m, taint: 'node1 k=v:NoExecute'}\n  - {at: 5m, untaint: 'node1 k:NoExecute'}\n";
        let twice = play_as(
            &daemon_set_on_node1("[]", "1", "", again),
            Some(Version::Legacy),
        );
        let landed: Vec<Option<&str>> = (twice.disruption.evictions.iter())
            .map(|eviction| eviction.rescheduled_to.as_deref())
            .collect();
        assert_eq!(landed, [Some("node1"), Some("node1")]);
        // 1.11's controller finds no room on node1 (4 cpu, 2 taken) and creates nothing.
        let big = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: big, namespace: default}\nspec: {nodeName: node1, containers: [{name: c, image: c, resources: {requests: {cpu: '2'}}}], tolerations: [{key: k, operator: Exists}]}\nstatus: {phase: Running}\n";
        let full = play_as(
            &daemon_set_on_node1("[]", "3", big, steps),
            Some(Version::Legacy),
        );
        assert_eq!(full.disruption.evictions.len(), 1);
        assert_eq!(full.disruption.evictions[0].rescheduled_to, None);
        // Without the DaemonSet object the timeline knows neither its template nor the
        // nodes it wants.
        let without = yaml.replace(
            "kind: DaemonSet\nmetadata: {name: agent,",
            "kind: ConfigMap\nmetadata: {name: agent,",
        );
        assert_eq!(play(&without).disruption.evictions[0].replacement, None);
    }

    /// The controller ignores `tolerationSeconds`: a pod the taint eviction controller
    /// deletes once its toleration ran out comes back as soon as it is gone, and is
    /// deleted again a toleration later, until the horizon.
    #[test]
    fn a_daemon_pod_evicted_after_its_toleration_comes_back_again_and_again() {
        let tolerations =
            "[{key: k, operator: Equal, value: v, effect: NoExecute, tolerationSeconds: 60}]";
        let steps = "  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n";
        let outcome = play(&daemon_set_on_node1(tolerations, "1", "", steps));
        let at: Vec<i64> = evicted(&outcome).into_iter().map(|(_, at)| at).collect();
        // Deleted after 60 s, gone 30 s later, recreated and bound at once: every 90 s
        // until the horizon (1h).
        assert_eq!(at.first(), Some(&60));
        assert_eq!(at.get(1), Some(&150));
        assert_eq!(at.len(), 40);
    }

    /// 1.11's `DeletePods` spares a pod that a DaemonSet of its namespace selects by its
    /// labels (`GetPodDaemonSets`), whoever owns it, and deletes a DaemonSet's pod that
    /// no listed DaemonSet selects.
    #[test]
    fn openshift_3_11_spares_the_pods_a_daemon_set_selects() {
        let daemon_set = "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: default, uid: d1}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec: {nodeSelector: {role: none}, containers: [{name: c, image: c}]}\n";
        let labelled = |name: &str, namespace: &str, labels: &str, owner: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata: {{name: {name}, namespace: {namespace}, labels: {{{labels}}}{owner}}}\nspec:\n  nodeName: node1\n  containers: [{{name: c, image: c}}]\nstatus: {{phase: Running}}\n"
            )
        };
        let owned = ", ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: d1, controller: true}]";
        let node2 = NODE.replace("node1", "node2");
        let steps =
            scenario("  - {at: 0s, nodeCondition: {node: node1, type: Ready, status: 'False'}}\n");
        let yaml = [
            NODE,
            &node2,
            daemon_set,
            &labelled("lookalike", "default", "app: agent", ""),
            &labelled("relabelled", "default", "app: other", owned),
            &labelled("elsewhere", "other", "app: agent", ""),
            &steps,
        ]
        .concat();
        assert_eq!(
            evicted(&play_as(&yaml, Some(Version::Legacy))),
            [
                ("default/relabelled".into(), 300),
                ("other/elsewhere".into(), 300)
            ]
        );
    }

    /// OpenShift 3.11's `oc adm drain` (kubectl 1.11) words its refusals, warnings and
    /// retries its own way: pods without their namespace, one error for the node.
    #[test]
    fn an_openshift_3_11_drain_speaks_kubectl_1_11() {
        let daemon = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: agent-x, namespace: kube-system, ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: d1, controller: true}]}\nspec:\n  nodeName: node1\n  containers: [{name: c, image: c}]\nstatus: {phase: Running}\n";
        let bare = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: bare, namespace: default}\nspec:\n  nodeName: node1\n  volumes: [{name: scratch, emptyDir: {}}]\n  containers: [{name: c, image: c}]\nstatus: {phase: Running}\n";
        let drain = |flags: &str| {
            let steps = scenario(&alloc::format!(
                "  - {{at: 0s, drain: {{node: node1{flags}}}}}\n"
            ));
            let outcome = play_as(
                &[NODE, daemon, bare, &steps].concat(),
                Some(Version::Legacy),
            );
            let drains = outcome.disruption.timeline.iter();
            let messages: Vec<String> = drains
                .filter(|event| event.kind == EventKind::Drain)
                .map(|event| event.message.to_string())
                .collect();
            (messages, evicted(&outcome))
        };
        let (refused, none) = drain("");
        assert!(none.is_empty());
        assert_eq!(
            refused.last().map(String::as_str),
            Some("pods with local storage (use --delete-local-data to override): bare; DaemonSet-managed pods (use --ignore-daemonsets to ignore): agent-x")
        );
        let (refused, _) = drain(", ignoreDaemonSets: true");
        assert_eq!(
            refused.last().map(String::as_str),
            Some("pods with local storage (use --delete-local-data to override): bare")
        );
        let (warned, gone) =
            drain(", ignoreDaemonSets: true, deleteEmptydirData: true, force: true");
        assert_eq!(gone, [("default/bare".into(), 0)]);
        assert!(
            warned.iter().any(|message| message == "WARNING: Deleting pods with local storage: bare; Deleting pods not managed by ReplicationController, ReplicaSet, Job, DaemonSet or StatefulSet: bare; Ignoring DaemonSet-managed pods: agent-x"),
            "{warned:?}"
        );
    }

    /// kubectl 1.11's retry line names the pod alone.
    #[test]
    fn an_openshift_3_11_drain_retries_in_its_own_words() {
        let owned = |name: &str| web_pod(name, "node1", "", "");
        let budget = "---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: default}\nspec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\n";
        let steps = scenario("  - {at: 0s, drain: node1}\n");
        let yaml = [NODE, &owned("web-a"), &owned("web-b"), budget, &steps].concat();
        let outcome = play_as(&yaml, Some(Version::Legacy));
        let blocked = outcome
            .disruption
            .timeline
            .iter()
            .find(|event| event.kind == EventKind::EvictionBlocked)
            .map(|event| event.message.to_string());
        assert_eq!(
            blocked.as_deref(),
            Some("error when evicting pod \"web-b\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.")
        );
        // Its global timeout ends the drain with one error of its own.
        let steps = scenario("  - {at: 0s, drain: {node: node1, timeout: 30s}}\n");
        let yaml = [NODE, &owned("web-a"), &owned("web-b"), budget, &steps].concat();
        let outcome = play_as(&yaml, Some(Version::Legacy));
        let failed = outcome
            .disruption
            .timeline
            .iter()
            .find(|event| event.reason == "DrainFailed")
            .map(|event| {
                (
                    event.at.0 / crate::duration::SECOND,
                    event.message.to_string(),
                )
            });
        assert_eq!(
            failed,
            Some((30, "Drain did not complete within 30s".into()))
        );
    }

    /// kubectl looks a DaemonSet pod's owner up: when the input lists DaemonSets but not
    /// the pod's, the pod is an orphan that only `--force` deletes.
    #[test]
    fn a_drain_refuses_a_daemon_pod_whose_daemon_set_is_gone() {
        let daemon = "---\nkind: Pod\napiVersion: v1\nmetadata: {name: agent-x, namespace: kube-system, ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: d1, controller: true}]}\nspec:\n  nodeName: node1\n  containers: [{name: c, image: c}]\nstatus: {phase: Running}\n";
        let other = "---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: other, namespace: kube-system}\nspec:\n  selector: {matchLabels: {app: other}}\n  template:\n    metadata: {labels: {app: other}}\n    spec: {containers: [{name: c, image: c}]}\n";
        let drain = |flags: &str| {
            let steps = scenario(&alloc::format!(
                "  - {{at: 0s, drain: {{node: node1{flags}}}}}\n"
            ));
            play(&[NODE, daemon, other, &steps].concat())
        };
        let refused = drain(", ignoreDaemonSets: true");
        let failed = refused.disruption.timeline.iter().any(|event| {
            event
                .message
                .to_string()
                .contains("cannot delete daemonsets.apps \"agent\" not found: kube-system/agent-x")
        });
        assert!(failed, "{:?}", refused.disruption.timeline);
        let forced = drain(", ignoreDaemonSets: true, force: true");
        assert_eq!(evicted(&forced), [("kube-system/agent-x".into(), 0)]);
        // Without DaemonSets in the input, the pod's is taken as there.
        let steps = scenario("  - {at: 0s, drain: {node: node1, ignoreDaemonSets: true}}\n");
        assert!(evicted(&play(&[NODE, daemon, &steps].concat())).is_empty());
    }

    /// A node that lists no Ready condition counts as ready: the pods a drain evicts
    /// there terminate after their grace period, and the drain ends.
    #[test]
    fn pods_terminate_on_a_node_without_a_ready_condition() {
        let node = "---\nkind: Node\napiVersion: v1\nmetadata: {name: node1}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n";
        let steps = scenario("  - {at: 0s, drain: node1}\n");
        let outcome = play(&[node, &web_pod("web-a", "node1", "", ""), &steps].concat());
        let seen = happenings(&outcome);
        let gone = (30, "Killing".into(), "Pod/default/web-a".into());
        let done = (30, "Drained".into(), "Node/node1".into());
        assert!(seen.contains(&gone) && seen.contains(&done), "{seen:?}");
    }

    /// `evictPods` past `--timeout`: the pod being waited for reports at its first poll
    /// (a second apart from its eviction) at or after the deadline, the refused one at
    /// its first retry (5 s apart) at or after it; the drain fails once both reported,
    /// their errors in that order.
    #[test]
    fn a_drain_timeout_reports_each_pod_when_its_goroutine_does() {
        let budget = WEB_BUDGET.replace("minAvailable: 2", "minAvailable: 1");
        let failed = |pods: &str, budget: &str, timeout: &str| {
            let steps = scenario(&alloc::format!(
                "  - {{at: 0s, drain: {{node: node1, timeout: {timeout}}}}}\n"
            ));
            let outcome = play(&[NODE, pods, budget, &steps].concat());
            let events = outcome.disruption.timeline.into_iter();
            events
                .filter(|event| event.reason == "DrainFailed")
                .map(|event| {
                    (
                        event.at.0 / crate::duration::SECOND,
                        event.message.to_string(),
                    )
                })
                .collect::<Vec<_>>()
        };
        let both = [
            web_pod("web-a", "node1", "", ""),
            web_pod("web-b", "node1", "", ""),
        ]
        .concat();
        let waited = "error when waiting for pod \"web-a\" in namespace \"default\" to terminate: global timeout reached";
        let refused = "error when evicting pods/\"web-b\" -n \"default\": global timeout reached";
        assert_eq!(
            failed(&both, &budget, "12s"),
            [(15, alloc::format!("[{waited}: 12s, {refused}: 12s]"))]
        );
        assert_eq!(
            failed(&both, &budget, "10s"),
            [(10, alloc::format!("[{waited}: 10s, {refused}: 10s]"))]
        );
        let one = web_pod("web-a", "node1", "", "");
        assert_eq!(
            failed(&one, "", "12.5s"),
            [(13, alloc::format!("{waited}: 12.5s"))]
        );
    }

    /// A pod whose `Ready` condition is not `True` is no part of its budget's healthy
    /// count, and the eviction API lets it go while the budget holds its desired count
    /// (`IfHealthyBudget`): the drain evicts it at once and the ready pod waits.
    #[test]
    fn a_drain_evicts_a_pod_that_is_not_ready_while_its_budget_holds() {
        let node = |name: &str| NODE.replace("node1", name);
        let web = |name: &str, node: &str, ready: &str| {
            let conditions = alloc::format!(
                "  conditions: [{{type: PodScheduled, status: 'True'}}, {{type: Ready, status: '{ready}', reason: ContainersNotReady}}]\n"
            );
            web_pod(name, node, "", &conditions)
        };
        let budget = WEB_BUDGET;
        let yaml = [
            node("node1"),
            node("node2"),
            web("web-a", "node1", "True"),
            web("web-b", "node1", "False"),
            web("web-c", "node2", "True"),
            budget.into(),
            scenario("  - {at: 10s, drain: node1}\n"),
        ]
        .concat();
        let evicted = evictions(&yaml);
        assert_eq!(evicted.first(), Some(&("default/web-b".into(), 10)));
        let ready = evicted.iter().find(|(pod, _)| pod == "default/web-a");
        assert!(ready.is_some_and(|(_, at)| *at > 10), "{evicted:?}");
    }

    /// An eviction already planned keeps its start (`processPodOnNode`): a second,
    /// longer-tolerated taint at 30 s does not move the 60 s deadline.
    #[test]
    fn a_planned_eviction_keeps_its_time() {
        let pod = &pod_tolerating(&[("testTaint1", Some(60)), ("testTaint2", Some(600))]);
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 testTaint1=test1:NoExecute'}\n  - {at: 30s, taint: 'node1 testTaint2=test2:NoExecute'}\n",
        );
        assert_eq!(
            evictions(&[NODE, pod, &steps].concat()),
            [("default/pod1".into(), 60)]
        );
    }

    /// A drain lists the pods still on the node: those a NoExecute taint deleted and that
    /// are gone stay out, one still terminating is waited for.
    #[test]
    fn a_drain_passes_over_the_pods_already_gone() {
        let pods = [
            pod("pod1", None),
            pod("pod2", Some((1, 100))),
            pod("pod3", Some((1, -1))),
        ]
        .concat();
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 testTaint1=test1:NoExecute'}\n  - {at: 110s, drain: {node: node1, force: true}}\n",
        );
        let outcome = play(&[NODE, &pods, &steps].concat());
        let drain = drain_message(&outcome);
        // pod1 went at 30 s; pod2, deleted at 100 s, terminates until 130 s.
        assert_eq!(
            drain.as_deref(),
            Some("Warning: deleting Pods that declare no controller: default/pod2, default/pod3")
        );
        assert_eq!(
            evicted(&outcome),
            [
                ("default/pod1".into(), 0),
                ("default/pod2".into(), 100),
                ("default/pod3".into(), 110)
            ]
        );
    }

    /// The machine controller's drain prints its warnings through `RunNodeDrain`, in
    /// capitals (k8s.io/kubectl/pkg/drain/default.go), unlike `oc adm drain`.
    #[test]
    fn a_machine_drain_warns_in_capitals() {
        let steps = scenario("  - {at: 0s, deleteMachine: m1}\n");
        let input = [NODE, &pod("pod1", None), &machine_on("node1", ""), &steps].concat();
        let outcome = play(&input);
        let drain = drain_message(&outcome);
        assert_eq!(
            drain.as_deref(),
            Some("WARNING: deleting Pods that declare no controller: default/pod1")
        );
    }

    /// Rounds of placing share one view of the cluster: a pod gone since the last round
    /// frees its room, a replacement bound in it takes room in the next, and the cluster
    /// reported at a point of the timeline names the replacements' nodes.
    #[test]
    fn later_rounds_see_the_pods_gone_and_bound_since() {
        let node = |name: &str, cpu: &str| {
            alloc::format!(
                "---\nkind: Node\napiVersion: v1\nmetadata: {{name: {name}}}\nstatus: {{allocatable: {{cpu: '{cpu}', memory: 8Gi, pods: '110'}}, conditions: [{{type: Ready, status: 'True'}}]}}\n"
            )
        };
        let pod = |name: &str, node: &str, cpu: &str| {
            alloc::format!(
                "---\nkind: Pod\napiVersion: v1\nmetadata:\n  name: {name}\n  namespace: default\n  ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: {name}-rs, uid: u-{name}, controller: true}}]\nspec:\n  nodeName: {node}\n  terminationGracePeriodSeconds: 10\n  containers: [{{name: c, image: c, resources: {{requests: {{cpu: '{cpu}'}}}}}}]\nstatus: {{phase: Running}}\n"
            )
        };
        // a's replacement (3 cores) waits until node1 is untainted at 20 s (a went at
        // 10 s), b's (6 cores) until node2 is at 25 s (b went at 15 s). A view that missed
        // a's gone would find no room on node1; one that missed the bind would place a's
        // replacement again, on the emptier node2, and find no room for b's.
        let steps = scenario(
            "  - {at: 0s, taint: 'node1 k=v:NoExecute'}\n  - {at: 5s, taint: 'node2 k=v:NoExecute'}\n  - {at: 20s, untaint: 'node1 k:NoExecute-'}\n  - {at: 25s, untaint: 'node2 k:NoExecute-'}\n",
        );
        let yaml = [
            node("node1", "4"),
            node("node2", "8"),
            pod("a", "node1", "3"),
            pod("b", "node2", "6"),
            steps,
        ]
        .concat();
        let sources = [Source::new("test", &yaml)];
        let cluster = Cluster::build(input::load(&sources, &Limits::default()), &sources, None);
        let options = Options {
            at: Some(Duration::from_seconds(30)),
            skip_rescheduling: false,
        };
        let outcome = run(&cluster, &ScheduleOptions::default(), &options).expect("a Scenario");
        let placed: Vec<(String, Option<String>)> = outcome
            .disruption
            .evictions
            .iter()
            .map(|eviction| (eviction.pod.to_string(), eviction.rescheduled_to.clone()))
            .collect();
        assert_eq!(
            placed,
            [
                ("default/a".into(), Some("node1".into())),
                ("default/b".into(), Some("node2".into()))
            ]
        );
        let rescheduled: Vec<(i64, String)> = outcome
            .disruption
            .timeline
            .iter()
            .filter(|event| event.kind == EventKind::PodRescheduled)
            .map(|event| {
                (
                    event.at.0 / crate::duration::SECOND,
                    event.message.to_string(),
                )
            })
            .collect();
        assert_eq!(rescheduled.len(), 2, "{rescheduled:?}");
        assert_eq!(rescheduled[0].0, 20);
        assert_eq!(rescheduled[1].0, 25);
        // The reported cluster: the replacements bound where they were placed.
        let bound: Vec<(String, String)> = outcome
            .pods
            .iter()
            .filter(|entry| entry.state == PodState::Bound)
            .map(|entry| {
                (
                    entry.pod.metadata.name.chars().take(2).collect(),
                    entry.pod.spec.node_name.clone(),
                )
            })
            .collect();
        assert_eq!(
            bound,
            [("a-".into(), "node1".into()), ("b-".into(), "node2".into())]
        );
    }

    /// The kept copies follow the timeline's edits: an edited node is copied again, the
    /// others stay; a removed node leaves the list and the positions after it move up.
    #[test]
    fn live_nodes_follow_edits_and_removals() {
        let named = |name: &str| {
            let mut node = Node::default();
            node.metadata.name = name.into();
            node
        };
        let input = [named("a"), named("b"), named("c")];
        let mut runs: Vec<NodeRun<'_>> = input.iter().map(NodeRun::new).collect();
        let mut live = LiveNodes::default();
        live.refresh(&runs);
        assert_eq!(live.nodes.len(), 3);
        runs[1].taints_mut().push(plain_taint("key", "NoSchedule"));
        runs[2].set_unschedulable(true);
        live.refresh(&runs);
        assert_eq!(live.nodes[1].spec.taints.len(), 1);
        assert!(live.nodes[2].spec.unschedulable);
        assert!(live.nodes[0].spec.taints.is_empty());
        runs[0].remove();
        live.refresh(&runs);
        let names: Vec<&str> = live
            .nodes
            .iter()
            .map(|node| node.metadata.name.as_str())
            .collect();
        assert_eq!(names, ["b", "c"]);
        assert_eq!(
            [live.position(0), live.position(1), live.position(2)],
            [None, Some(0), Some(1)]
        );
        assert_eq!(live.nodes[0].spec.taints.len(), 1);
        assert!(live.nodes[1].spec.unschedulable);
        // Taken for a view and not given back: copied again in full.
        live.nodes.clear();
        live.refresh(&runs);
        assert_eq!(live.nodes.len(), 2);
    }
}
