//! The node lifecycle controller's NoExecute tainting of nodes that are not ready: one
//! rate-limited queue per zone, and the zone disruption modes that slow or stop it.
//!
//! Upstream: `pkg/controller/nodelifecycle/node_lifecycle_controller.go`
//! (`processTaintBaseEviction`, `markNodeForTainting`, `doNoExecuteTaintingPass`,
//! `handleDisruption`, `ComputeZoneState`, `setLimiterInZone`, `ReducedQPSFunc`) and
//! `scheduler/rate_limited_queue.go` (`RateLimitedTimedQueue`, `SwapLimiter`), with
//! kube-controller-manager's defaults (`--node-eviction-rate 0.1`,
//! `--secondary-node-eviction-rate 0.01`, `--large-cluster-size-threshold 50`,
//! `--unhealthy-zone-threshold 0.55`):
//!
//! - A zone is the nodes with the same region and zone labels (1.34: the deprecated
//!   `failure-domain.beta.kubernetes.io/*` ones first, else `topology.kubernetes.io/*`;
//!   1.11: the beta labels only). Nodes without them make one zone.
//! - A zone's state comes from its nodes' Ready conditions: FullDisruption when none is
//!   ready, PartialDisruption when more than two are not and they are at least 55 % of
//!   it, else Normal. Nodes excluded from disruption checks are not counted (1.34: the
//!   label `node.kubernetes.io/exclude-disruption`; 1.11: a name ending in `master`, or in
//!   `master-` and three more characters). kubefit counts a node without a Ready
//!   condition as ready, as its other engines do.
//! - Each zone taints at most one node per 10 s (0.1 per second, burst 1); in
//!   PartialDisruption one per 100 s in a zone of more than 50 nodes and none in a
//!   smaller one. A node keeps its place in the queue until it is tainted or ready.
//! - When every zone is fully disrupted ("master disruption mode") tainting stops and
//!   every node loses its `not-ready`/`unreachable` NoExecute taint (1.11 without taint
//!   based evictions keeps it: the queue there deletes pods, and only empties). Once a
//!   node is ready again the zones' limiters restart empty, so the next taint waits a
//!   full interval (and 1.11's pod eviction timeouts count from then).
//!
//! Timing: upstream's monitor pass runs every 5 s and its tainting pass every 100 ms;
//! kubefit runs one pass when steps change Ready conditions, at that moment, and taints a
//! queued node exactly when its zone's next token comes.

use alloc::string::String;
use alloc::vec::Vec;

use crate::duration::Duration;
use crate::labels::zone_key;
use crate::model::Node;
use crate::schedule::Version;

/// `--node-eviction-rate` 0.1 per second: one taint every 10 s.
const NORMAL_INTERVAL: Duration = Duration::from_seconds(10);
/// `--secondary-node-eviction-rate` 0.01 per second: one taint every 100 s.
const SECONDARY_INTERVAL: Duration = Duration::from_seconds(100);
/// `--large-cluster-size-threshold`: a partially disrupted zone of at most this many
/// nodes stops tainting.
const LARGE_CLUSTER_THRESHOLD: usize = 50;
/// `--unhealthy-zone-threshold`, as a fraction: 55 %.
const UNHEALTHY_ZONE_PERCENT: usize = 55;
/// The label that keeps a node out of the zone counts (1.34).
const EXCLUDE_DISRUPTION: &str = "node.kubernetes.io/exclude-disruption";

/// A node's Ready condition as the controller reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ready {
    /// `True`, or no Ready condition (kubefit's reading).
    True,
    /// `False`: the `not-ready` taint.
    False,
    /// `Unknown`: the `unreachable` taint.
    Unknown,
}

impl Ready {
    /// The reading of a Ready condition's status (`None`: the node has none).
    #[must_use]
    pub fn of(status: Option<&str>) -> Self {
        match status {
            Some("False") => Self::False,
            Some("Unknown") => Self::Unknown,
            _ => Self::True,
        }
    }
}

/// A zone's state (`ZoneState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneState {
    /// Seen for the first time.
    Initial,
    /// Taints go at the normal rate.
    Normal,
    /// Many nodes are not ready: taints go slower, or not at all.
    PartialDisruption,
    /// No node is ready.
    FullDisruption,
}

impl ZoneState {
    /// Upstream's name for it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Initial => "Initial",
            Self::Normal => "Normal",
            Self::PartialDisruption => "PartialDisruption",
            Self::FullDisruption => "FullDisruption",
        }
    }
}

/// What a disruption check changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Every zone is fully disrupted: tainting stops, and with taint based evictions the
    /// caller removes every node's `not-ready` and `unreachable` NoExecute taints.
    EnterMasterDisruption,
    /// A node is ready again after master disruption mode.
    ExitMasterDisruption,
    /// A zone's state changed (its key, `region:\0:zone` or empty).
    Zone(String, ZoneState),
}

/// A token bucket of burst 1 (`NewTokenBucketRateLimiter(qps, 1)`), or none at all
/// (`NewFakeNeverRateLimiter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Limiter {
    Never,
    Every {
        interval: Duration,
        /// When the bucket holds its token again.
        next: Duration,
    },
}

impl Limiter {
    /// A full bucket.
    const fn every(interval: Duration) -> Self {
        Self::Every {
            interval,
            next: Duration(i64::MIN),
        }
    }

    fn interval(self) -> Option<Duration> {
        match self {
            Self::Never => None,
            Self::Every { interval, .. } => Some(interval),
        }
    }

    /// `TryAccept`: takes the token if the bucket holds it.
    fn try_accept(&mut self, at: Duration) -> bool {
        match self {
            Self::Never => false,
            Self::Every { interval, next } => {
                if at < *next {
                    return false;
                }
                *next = at.saturating_add(*interval);
                true
            }
        }
    }

    /// `SwapLimiter`: a new bucket for a new rate, drained when the old one was empty.
    fn swap(&mut self, at: Duration, interval: Option<Duration>) {
        if self.interval() == interval {
            return;
        }
        let mut new = interval.map_or(Self::Never, Self::every);
        if interval.is_some() && !self.try_accept(at) {
            new.try_accept(at);
        }
        *self = new;
    }
}

/// One zone: its state, its limiter and its queue of nodes to taint.
#[derive(Clone, Debug)]
struct Zone {
    key: String,
    /// `None` once it has no node left (upstream forgets the state, keeps the queue).
    state: Option<ZoneState>,
    limiter: Limiter,
    /// Nodes waiting for their taint, in the order they came.
    queue: Vec<usize>,
}

/// The controller's zones.
#[derive(Clone, Debug)]
pub struct NodeLifecycle {
    zones: Vec<Zone>,
    /// Per node (the input's order), its zone.
    zone_of: Vec<usize>,
    /// Per node, whether the zone counts leave it out.
    excluded: Vec<bool>,
    /// Per node, whether it was queued or tainted since it was last ready
    /// (`UniqueQueue`'s set): a node is queued once.
    seen: Vec<bool>,
    /// 1.34's `markNodeForTainting` takes a node out of the set when it lacks its taint,
    /// so a node whose taint was removed is queued again; 1.11's only adds, and a node
    /// stays in the set (untainted) until it is ready.
    requeues_untainted: bool,
}

impl NodeLifecycle {
    /// The zones of `nodes` as the controller has them before the timeline starts: each
    /// zone's state from the input's conditions, its limiter set for it, no queue.
    #[must_use]
    pub fn new(nodes: &[Node], version: Version) -> Self {
        let mut zones: Vec<Zone> = Vec::new();
        let mut zone_of = Vec::with_capacity(nodes.len());
        for node in nodes {
            let key = zone_key(node, version);
            let index = match zones.iter().position(|zone| zone.key == key) {
                Some(index) => index,
                None => {
                    zones.push(Zone {
                        key,
                        state: None,
                        limiter: Limiter::every(NORMAL_INTERVAL),
                        queue: Vec::new(),
                    });
                    zones.len() - 1
                }
            };
            zone_of.push(index);
        }
        let excluded = nodes
            .iter()
            .map(|node| excluded_from_disruption_checks(node, version))
            .collect();
        let mut lifecycle = Self {
            zones,
            zone_of,
            excluded,
            seen: alloc::vec![false; nodes.len()],
            requeues_untainted: version == Version::Current,
        };
        let readiness: Vec<Option<Ready>> = nodes
            .iter()
            .map(|node| Some(Ready::of(node.condition("Ready"))))
            .collect();
        let states = lifecycle.zone_states(&readiness);
        let all_full = is_all_full(&states);
        for (zone, (state, size)) in lifecycle.zones.iter_mut().zip(states) {
            zone.state = state;
            if all_full {
                zone.limiter = Limiter::Never;
            } else if let Some(state) = state {
                zone.limiter.swap(Duration(i64::MIN), interval(state, size));
            }
        }
        lifecycle
    }

    /// The zone key of a node (`GetZoneKey`: `region:\0:zone`, or empty).
    #[must_use]
    pub fn zone_name(&self, node: usize) -> &str {
        self.zone_of
            .get(node)
            .and_then(|&zone| self.zones.get(zone))
            .map_or("", |zone| zone.key.as_str())
    }

    /// `markNodeForTainting`: queues a node that is not ready, unless it is queued or
    /// already has the taint for its condition; true if it joined the queue.
    ///
    /// Upstream takes a waiting node out and queues it again at each monitor pass, so
    /// the order of waiting nodes follows its workers; kubefit keeps them in the order
    /// they came.
    pub fn mark_for_tainting(&mut self, node: usize, tainted: bool) -> bool {
        let Some(zone) = self
            .zone_of
            .get(node)
            .and_then(|&zone| self.zones.get_mut(zone))
        else {
            return false;
        };
        let Some(seen) = self.seen.get_mut(node) else {
            return false;
        };
        // 1.34: `Remove` then `Add`, so a node that lost its taint comes again.
        let again = self.requeues_untainted && !tainted && !zone.queue.contains(&node);
        if *seen && !again {
            return false;
        }
        *seen = true;
        zone.queue.push(node);
        true
    }

    /// When a queued node's zone gives its next token: `None` if the node is not in the
    /// queue, `Some(None)` if the zone is not tainting.
    #[must_use]
    pub fn queued(&self, node: usize) -> Option<Option<Duration>> {
        let zone = self.zones.get(*self.zone_of.get(node)?)?;
        if !zone.queue.contains(&node) {
            return None;
        }
        Some(match zone.limiter {
            Limiter::Never => None,
            Limiter::Every { next, .. } => Some(next),
        })
    }

    /// `markNodeAsReachable`'s queue side (`UniqueQueue.Remove`): the node leaves its
    /// zone's queue and may come again.
    pub fn mark_reachable(&mut self, node: usize) {
        if let Some(seen) = self.seen.get_mut(node) {
            *seen = false;
        }
        if let Some(zone) = self
            .zone_of
            .get(node)
            .and_then(|&zone| self.zones.get_mut(zone))
        {
            zone.queue.retain(|&queued| queued != node);
        }
    }

    /// `handleDisruption`: the zones' new states from `ready` (per node, `None` for a
    /// node that is gone), and what changed. On [`Change::EnterMasterDisruption`] every
    /// queue is emptied here; the caller removes the taints.
    pub fn handle_disruption(&mut self, at: Duration, ready: &[Option<Ready>]) -> Vec<Change> {
        let states = self.zone_states(ready);
        let all_are_full = is_all_full(&states);
        let mut all_were_full = true;
        for (zone, (state, _)) in self.zones.iter_mut().zip(&states) {
            match state {
                None => zone.state = None,
                Some(_) if zone.state.is_none() => zone.state = Some(ZoneState::Initial),
                Some(_) => {}
            }
            if zone
                .state
                .is_some_and(|old| old != ZoneState::FullDisruption)
            {
                all_were_full = false;
            }
        }
        let mut changes = Vec::new();
        if all_are_full && all_were_full {
            return changes;
        }
        if all_are_full {
            self.seen.fill(false);
            for zone in self.zones.iter_mut() {
                zone.queue.clear();
                if zone.state.is_some() {
                    zone.limiter.swap(at, None);
                    zone.state = Some(ZoneState::FullDisruption);
                }
            }
            changes.push(Change::EnterMasterDisruption);
            return changes;
        }
        if all_were_full {
            changes.push(Change::ExitMasterDisruption);
        }
        for (zone, (state, size)) in self.zones.iter_mut().zip(states) {
            let (Some(old), Some(new)) = (zone.state, state) else {
                continue;
            };
            if old == new && !all_were_full {
                continue;
            }
            zone.limiter.swap(at, interval(new, size));
            zone.state = Some(new);
            if old != new {
                changes.push(Change::Zone(zone.key.clone(), new));
            }
        }
        changes
    }

    /// `doNoExecuteTaintingPass`: the queued nodes whose zones have a token at `at`, in
    /// zone order (each takes its token; the caller taints them, or passes over those
    /// ready again or gone), and when the next token comes for a zone still waiting.
    pub fn due(&mut self, at: Duration) -> (Vec<usize>, Option<Duration>) {
        let mut due = Vec::new();
        let mut next: Option<Duration> = None;
        for zone in &mut self.zones {
            while !zone.queue.is_empty() {
                if !zone.limiter.try_accept(at) {
                    if let Limiter::Every { next: ready, .. } = zone.limiter {
                        next = Some(next.map_or(ready, |earlier| earlier.min(ready)));
                    }
                    break;
                }
                due.push(zone.queue.remove(0));
            }
        }
        (due, next)
    }

    /// Per zone, `ComputeZoneState` over its counted nodes and how many it has (`None`:
    /// no node left).
    fn zone_states(&self, ready: &[Option<Ready>]) -> Vec<(Option<ZoneState>, usize)> {
        let mut counts = alloc::vec![(0_usize, 0_usize); self.zones.len()];
        for ((&zone, &excluded), ready) in self.zone_of.iter().zip(&self.excluded).zip(ready) {
            let (Some(ready), false) = (ready, excluded) else {
                continue;
            };
            if let Some((ready_nodes, not_ready_nodes)) = counts.get_mut(zone) {
                match ready {
                    Ready::True => *ready_nodes += 1,
                    Ready::False | Ready::Unknown => *not_ready_nodes += 1,
                }
            }
        }
        counts
            .into_iter()
            .map(|(ready_nodes, not_ready_nodes)| {
                let size = ready_nodes + not_ready_nodes;
                let state = match (ready_nodes, not_ready_nodes) {
                    (0, 0) => None,
                    (0, _) => Some(ZoneState::FullDisruption),
                    // notReady/(size) >= 0.55, in integers.
                    (_, not_ready)
                        if not_ready > 2
                            && not_ready.saturating_mul(100)
                                >= size.saturating_mul(UNHEALTHY_ZONE_PERCENT) =>
                    {
                        Some(ZoneState::PartialDisruption)
                    }
                    _ => Some(ZoneState::Normal),
                };
                (state, size)
            })
            .collect()
    }
}

/// Whether every zone that has nodes is fully disrupted (true when none has: upstream's
/// loop then finds nothing to contradict it).
fn is_all_full(states: &[(Option<ZoneState>, usize)]) -> bool {
    states
        .iter()
        .all(|(state, _)| state.is_none_or(|state| state == ZoneState::FullDisruption))
}

/// `setLimiterInZone`: the interval between taints in a zone of `size` nodes (`None`:
/// no tainting).
fn interval(state: ZoneState, size: usize) -> Option<Duration> {
    match state {
        ZoneState::PartialDisruption if size > LARGE_CLUSTER_THRESHOLD => Some(SECONDARY_INTERVAL),
        ZoneState::PartialDisruption => None,
        _ => Some(NORMAL_INTERVAL),
    }
}

/// `isNodeExcludedFromDisruptionChecks` (1.34) or `system.IsMasterNode` (1.11).
fn excluded_from_disruption_checks(node: &Node, version: Version) -> bool {
    match version {
        Version::Current => node.metadata.labels.contains_key(EXCLUDE_DISRUPTION),
        Version::Legacy => {
            let name = node.metadata.name.as_bytes();
            name.ends_with(b"master")
                || (name.len() >= 10
                    && name
                        .get(..name.len() - 3)
                        .is_some_and(|head| head.ends_with(b"master-")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(name: &str, zone: Option<&str>, ready: &str) -> Node {
        let mut node = Node::default();
        node.metadata.name = name.into();
        if let Some(zone) = zone {
            node.metadata
                .labels
                .insert("topology.kubernetes.io/zone".into(), zone.into());
        }
        node.status.conditions.push(crate::model::NodeCondition {
            type_: "Ready".into(),
            status: ready.into(),
            ..crate::model::NodeCondition::default()
        });
        node
    }

    fn readiness(statuses: &[&str]) -> Vec<Option<Ready>> {
        statuses
            .iter()
            .map(|status| Some(Ready::of(Some(status))))
            .collect()
    }

    /// `ComputeZoneState`'s three outcomes: none ready; more than two not ready and at
    /// least 55 %; otherwise normal.
    #[test]
    fn zone_states_follow_the_counts() {
        let nodes: Vec<Node> = (0..5)
            .map(|i| node(&alloc::format!("n{i}"), None, "True"))
            .collect();
        let lifecycle = NodeLifecycle::new(&nodes, Version::Current);
        let state = |statuses: &[&str]| lifecycle.zone_states(&readiness(statuses))[0].0;
        assert_eq!(
            state(&["False", "False", "True", "True", "True"]),
            Some(ZoneState::Normal)
        );
        // 3 of 5 is 60 %.
        assert_eq!(
            state(&["False", "Unknown", "False", "True", "True"]),
            Some(ZoneState::PartialDisruption)
        );
        assert_eq!(
            state(&["False", "False", "False", "False", "False"]),
            Some(ZoneState::FullDisruption)
        );
        // Two of two is not partial: more than two must be down.
        let pair = NodeLifecycle::new(&nodes[..2], Version::Current);
        assert_eq!(
            pair.zone_states(&readiness(&["False", "True"]))[0].0,
            Some(ZoneState::Normal)
        );
    }

    #[test]
    fn a_zone_taints_one_node_every_ten_seconds() {
        let nodes: Vec<Node> = (0..4)
            .map(|i| node(&alloc::format!("n{i}"), None, "True"))
            .collect();
        let mut lifecycle = NodeLifecycle::new(&nodes, Version::Current);
        lifecycle.mark_for_tainting(0, false);
        lifecycle.mark_for_tainting(1, false);
        let at = Duration::from_seconds(60);
        let changes =
            lifecycle.handle_disruption(at, &readiness(&["False", "False", "True", "True"]));
        assert!(changes.is_empty());
        assert_eq!(
            lifecycle.due(at),
            (alloc::vec![0], Some(Duration::from_seconds(70)))
        );
        assert_eq!(
            lifecycle.due(Duration::from_seconds(69)).0,
            Vec::<usize>::new()
        );
        assert_eq!(
            lifecycle.due(Duration::from_seconds(70)),
            (alloc::vec![1], None)
        );
        // A tainted node is queued once.
        lifecycle.mark_for_tainting(0, true);
        assert_eq!(
            lifecycle.due(Duration::from_seconds(90)),
            (Vec::new(), None)
        );
        // One whose taint was removed comes again in 1.34, never in 1.11 (until ready).
        assert!(lifecycle.mark_for_tainting(0, false));
        let mut legacy = NodeLifecycle::new(&nodes, Version::Legacy);
        assert!(legacy.mark_for_tainting(0, false));
        legacy.handle_disruption(at, &readiness(&["False", "True", "True", "True"]));
        assert_eq!(legacy.due(at).0, alloc::vec![0]);
        assert!(!legacy.mark_for_tainting(0, false));
        legacy.mark_reachable(0);
        assert!(legacy.mark_for_tainting(0, false));
    }

    #[test]
    fn all_zones_down_stops_tainting_until_a_node_is_ready() {
        let nodes = [node("a", Some("z1"), "True"), node("b", Some("z2"), "True")];
        let mut lifecycle = NodeLifecycle::new(&nodes, Version::Current);
        lifecycle.mark_for_tainting(0, false);
        lifecycle.mark_for_tainting(1, false);
        let down = readiness(&["Unknown", "Unknown"]);
        let changes = lifecycle.handle_disruption(Duration::from_seconds(0), &down);
        assert_eq!(changes, [Change::EnterMasterDisruption]);
        assert_eq!(lifecycle.due(Duration::from_seconds(0)), (Vec::new(), None));
        // Still down: nothing changes, queued again or not.
        lifecycle.mark_for_tainting(1, false);
        assert!(lifecycle
            .handle_disruption(Duration::from_seconds(5), &down)
            .is_empty());
        assert_eq!(lifecycle.due(Duration::from_seconds(5)), (Vec::new(), None));
        // `a` is back: z1 is normal again, z2 fully disrupted at the normal rate; both
        // limiters restart empty.
        lifecycle.mark_reachable(0);
        let changes = lifecycle
            .handle_disruption(Duration::from_seconds(30), &readiness(&["True", "Unknown"]));
        assert_eq!(
            changes,
            [
                Change::ExitMasterDisruption,
                Change::Zone(":\0:z1".into(), ZoneState::Normal)
            ]
        );
        assert_eq!(
            lifecycle.due(Duration::from_seconds(30)),
            (Vec::new(), Some(Duration::from_seconds(40)))
        );
        assert_eq!(
            lifecycle.due(Duration::from_seconds(40)),
            (alloc::vec![1], None)
        );
    }

    #[test]
    fn a_small_partially_disrupted_zone_stops_a_large_one_slows() {
        assert_eq!(interval(ZoneState::PartialDisruption, 50), None);
        assert_eq!(
            interval(ZoneState::PartialDisruption, 51),
            Some(SECONDARY_INTERVAL)
        );
        assert_eq!(
            interval(ZoneState::FullDisruption, 3),
            Some(NORMAL_INTERVAL)
        );
    }

    #[test]
    fn masters_and_labelled_nodes_are_left_out_of_the_counts() {
        let legacy = |name: &str| {
            excluded_from_disruption_checks(&node(name, None, "True"), Version::Legacy)
        };
        assert!(legacy("master"));
        assert!(legacy("kube-master"));
        assert!(legacy("kube-master-abc"));
        assert!(!legacy("master-1"));
        assert!(!legacy("masters"));
        let mut labelled = node("n1", None, "True");
        assert!(!excluded_from_disruption_checks(
            &labelled,
            Version::Current
        ));
        labelled
            .metadata
            .labels
            .insert(EXCLUDE_DISRUPTION.into(), String::new());
        assert!(excluded_from_disruption_checks(&labelled, Version::Current));
        assert!(!excluded_from_disruption_checks(&labelled, Version::Legacy));
    }
}
