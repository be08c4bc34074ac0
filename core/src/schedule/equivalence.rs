//! The equivalence cache: filter verdicts, node scores and weighted totals reused across
//! pending pods of one template, re-evaluated only on the nodes whose pods changed since.
//!
//! Kubernetes 1.11 carried the idea behind a feature gate that was off by default
//! (`pkg/scheduler/core/equivalence/eqivalence.go`, keyed by the pod's controller).
//! kubefit's cache changes no decision, only its cost: a pod joins the cached class only
//! when everything the filters and scores read from it equals the class's pod
//! ([`equivalent`]), only while its cycle depends on nothing but the pod and each node
//! ([`Cycle::independent_of_other_pods`], [`Cycle::node_local_scores`]), and a node's
//! entry is used only while the node's pods are the ones it was computed against
//! ([`Snapshot::node_version`]). Totals are renormalised when the feasible set or a
//! normalised score's highest value moves. Everything else goes through the full
//! evaluation.

use alloc::vec::Vec;

use super::plugins::normalize;
use super::snapshot::Snapshot;
use super::status::Code;
use super::{Cycle, NodeLocalScore, Reduce};
use crate::cluster::PodEntry;
use crate::report::scheduling::ScoreMap;

/// One node's filter outcome for the class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fit {
    /// Not evaluated yet.
    Unknown,
    /// Every filter passed.
    Feasible,
    /// A filter failed.
    Infeasible,
    /// A filter erred (the full evaluation reports it).
    Error,
}

/// The total of a node that is not feasible (below any real total).
const NOT_FEASIBLE: i64 = i64::MIN;

/// The cached class: the last pod placed through the cache and what it found per node.
struct Class {
    /// The pod the entries were computed for (index into the cluster's pods).
    pod: usize,
    /// Its scores.
    scores: Vec<NodeLocalScore>,
    /// [`super::volumes::Assumed::changes`] when the class was made.
    volumes: u64,
    /// Per node, the [`Snapshot::node_version`] its entries were computed at.
    stamps: Vec<Option<u64>>,
    /// [`Snapshot::clock`] when every node was last brought up to date.
    clock: Option<u64>,
    /// Per node, the filter outcome.
    fits: Vec<Fit>,
    /// How many nodes have [`Fit::Error`].
    errors: usize,
    /// Per node, one value per score (`node * scores.len() + score`).
    values: Vec<i64>,
    /// Per normalised score, the highest value among the feasible nodes (what `Normalize`
    /// scales by; 0 for the other scores).
    highest: Vec<i64>,
    /// Per node, the weighted total; [`NOT_FEASIBLE`] for nodes that do not fit.
    totals: Vec<i64>,
    /// How many nodes fit.
    feasible: usize,
    /// The totals need computing in full on the next update: they were computed with a
    /// PreFilter's node subset, or the last update stopped at a filter error.
    stale: bool,
}

/// How many classes the cache keeps (the least recently used goes first): pods of a few
/// templates often alternate in the queue, as replacements of several owners do.
const CLASSES: usize = 16;

/// The cache for one scheduling run: the classes, most recently used first.
#[derive(Default)]
pub struct EquivalenceCache {
    classes: Vec<Class>,
}

/// The cached outcome for one pod: where it fits and each node's total.
pub struct Cached<'c> {
    class: &'c Class,
}

impl EquivalenceCache {
    /// Brings the cache up to date for `pod`, re-evaluating the nodes whose pods changed;
    /// `allowed` is a PreFilter's node subset. `None` when the pod cannot use the cache,
    /// when a filter errs on some node or when no node fits: the full evaluation then
    /// explains the outcome.
    pub fn update(
        &mut self,
        cycle: &dyn Cycle,
        snapshot: &Snapshot<'_>,
        pod: usize,
        allowed: Option<&[bool]>,
    ) -> Option<Cached<'_>> {
        if !cycle.independent_of_other_pods() {
            return None;
        }
        let scores = cycle.node_local_scores(snapshot)?;
        let entry = snapshot.pod(pod)?;
        let node_count = snapshot.nodes.len();
        let volumes = snapshot.volumes.changes();
        let found = self.classes.iter().position(|class| {
            class.volumes == volumes
                && class.scores == scores
                && class.stamps.len() == node_count
                && snapshot
                    .pod(class.pod)
                    .is_some_and(|other| equivalent(other, entry))
        });
        let class = match found {
            Some(position) => self.classes.remove(position),
            // The least recently used class's buffers are reused when the cache is full.
            None if self.classes.len() >= CLASSES => {
                let mut class = self.classes.pop()?;
                class.reset(pod, scores, volumes, node_count);
                class
            }
            None => Class::new(pod, scores, volumes, node_count),
        };
        self.classes.insert(0, class);
        let class = self.classes.first_mut()?;
        class.pod = pod;
        let mut changed = Vec::new();
        let mut renormalize = allowed.is_some() || class.stale;
        // The nodes that may have changed: those the snapshot remembers changing since the
        // class was last brought up to date, or else every node.
        let candidates: Vec<usize> =
            match class.clock.and_then(|since| snapshot.changed_since(since)) {
                Some(recent) => recent.collect(),
                // Nothing fitted last time and many nodes changed since (preemption's
                // trial evictions touch every candidate node): the full evaluation, which
                // explains and preempts, costs no more than bringing the class up to date.
                None if class.clock.is_some() && class.feasible == 0 => return None,
                None => (0..node_count).collect(),
            };
        for node in candidates {
            let version = snapshot.node_version(node);
            let Some(stamp) = class.stamps.get_mut(node) else {
                continue;
            };
            if *stamp != Some(version) {
                *stamp = Some(version);
                renormalize |= class.evaluate(cycle, snapshot, node);
                changed.push(node);
            }
        }
        class.clock = Some(snapshot.clock());
        if class.errors > 0 {
            class.stale = true;
            return None;
        }
        let highest = renormalize.then(|| class.highest_values(allowed));
        match highest {
            Some(highest) if highest != class.highest || allowed.is_some() || class.stale => {
                class.highest = highest;
                class.totals.fill(NOT_FEASIBLE);
                class.feasible = 0;
                for node in 0..node_count {
                    class.set_total(node, allowed);
                }
            }
            _ => {
                for node in changed {
                    class.set_total(node, allowed);
                }
            }
        }
        class.stale = allowed.is_some();
        (class.feasible > 0).then_some(Cached { class })
    }
}

impl Cached<'_> {
    /// True if the pod fits on `node`.
    #[must_use]
    pub fn fits(&self, node: usize) -> bool {
        self.class
            .totals
            .get(node)
            .is_some_and(|&total| total != NOT_FEASIBLE)
    }

    /// How many nodes fit.
    #[must_use]
    pub fn feasible(&self) -> usize {
        self.class.feasible
    }

    /// Each node's weighted total ([`i64::MIN`] where the pod does not fit).
    #[must_use]
    pub fn totals(&self) -> &[i64] {
        &self.class.totals
    }

    /// A feasible node's scores, as the report lists them, and its total.
    #[must_use]
    pub fn verdict(&self, node: usize) -> (ScoreMap, i64) {
        let class = self.class;
        let map = class
            .scores
            .iter()
            .enumerate()
            .filter(|(_, score)| score.reduce != Reduce::Skip)
            .map(|(index, score)| (score.name.clone(), class.score(node, index, &class.highest)))
            .collect();
        let map = ScoreMap(map);
        (map, class.totals.get(node).copied().unwrap_or(0))
    }

    /// Each node's total with the scores normalised over `nodes` alone, as the full
    /// evaluation gives it for that set (the sampled scheduler's view).
    #[must_use]
    pub fn totals_over(&self, nodes: &[usize]) -> Vec<i64> {
        let class = self.class;
        let highest = class.highest_over(nodes.iter().copied());
        // Normalised as over every feasible node: the totals kept are the answer.
        nodes
            .iter()
            .map(|&node| {
                if highest == class.highest {
                    class.totals.get(node).copied().unwrap_or(0)
                } else {
                    class.total(node, &highest)
                }
            })
            .collect()
    }
}

impl Class {
    fn new(pod: usize, scores: Vec<NodeLocalScore>, volumes: u64, node_count: usize) -> Self {
        let mut class = Self {
            pod,
            scores: Vec::new(),
            volumes,
            stamps: Vec::new(),
            clock: None,
            fits: Vec::new(),
            errors: 0,
            values: Vec::new(),
            highest: Vec::new(),
            totals: Vec::new(),
            feasible: 0,
            stale: false,
        };
        class.reset(pod, scores, volumes, node_count);
        class
    }

    /// Makes the class a fresh one for `pod`, keeping its buffers.
    fn reset(&mut self, pod: usize, scores: Vec<NodeLocalScore>, volumes: u64, node_count: usize) {
        let refill = |buffer: &mut Vec<_>, len: usize, value| {
            buffer.clear();
            buffer.resize(len, value);
        };
        refill(&mut self.values, node_count.saturating_mul(scores.len()), 0);
        refill(&mut self.highest, scores.len(), 0);
        refill(&mut self.totals, node_count, NOT_FEASIBLE);
        self.stamps.clear();
        self.stamps.resize(node_count, None);
        self.fits.clear();
        self.fits.resize(node_count, Fit::Unknown);
        self.pod = pod;
        self.scores = scores;
        self.volumes = volumes;
        self.clock = None;
        self.errors = 0;
        self.feasible = 0;
        self.stale = false;
    }

    /// The value of score `index` on `node`.
    fn value(&self, node: usize, index: usize) -> i64 {
        self.values
            .get(node.saturating_mul(self.scores.len()).saturating_add(index))
            .copied()
            .unwrap_or(0)
    }

    /// The score `index` gives `node` when normalised by `highest` (per score).
    fn score(&self, node: usize, index: usize, highest: &[i64]) -> i64 {
        let value = self.value(node, index);
        match self.scores.get(index).map(|score| score.reduce) {
            Some(Reduce::Normalize { max, reverse }) => {
                let highest = highest.get(index).copied().unwrap_or(0);
                normalize::normalized(value, highest, max, reverse)
            }
            Some(Reduce::Identity) => value,
            Some(Reduce::Skip) | None => 0,
        }
    }

    /// True if the node passed the filters and is in the PreFilter subset, if any.
    fn fits(&self, node: usize, allowed: Option<&[bool]>) -> bool {
        self.fits.get(node) == Some(&Fit::Feasible)
            && allowed.is_none_or(|subset| subset.get(node).copied().unwrap_or(false))
    }

    /// Sets a node's total, or [`NOT_FEASIBLE`].
    fn set_total(&mut self, node: usize, allowed: Option<&[bool]>) {
        let fits = self.fits(node, allowed);
        let total = if fits {
            self.total(node, &self.highest)
        } else {
            NOT_FEASIBLE
        };
        if let Some(slot) = self.totals.get_mut(node) {
            let was_feasible = *slot != NOT_FEASIBLE;
            *slot = total;
            match (was_feasible, fits) {
                (false, true) => self.feasible = self.feasible.saturating_add(1),
                (true, false) => self.feasible = self.feasible.saturating_sub(1),
                _ => {}
            }
        }
    }

    /// A node's weighted total with the scores normalised by `highest`, as
    /// `schedule::totals` adds them (1 when nothing is configured to score).
    fn total(&self, node: usize, highest: &[i64]) -> i64 {
        if self.scores.is_empty() {
            return 1;
        }
        self.scores
            .iter()
            .enumerate()
            .fold(0i64, |total, (index, score)| {
                let value = self.score(node, index, highest);
                total.saturating_add(value.saturating_mul(score.weight))
            })
    }

    /// Per score, the highest value among the nodes that fit.
    fn highest_values(&self, allowed: Option<&[bool]>) -> Vec<i64> {
        let fitting = (0..self.fits.len()).filter(|&node| self.fits(node, allowed));
        self.highest_over(fitting)
    }

    /// Per normalised score, the highest value among `nodes` (0 among none, as
    /// `default_normalize` takes it); 0 for the other scores, which do not use it.
    fn highest_over(&self, nodes: impl Iterator<Item = usize> + Clone) -> Vec<i64> {
        self.scores
            .iter()
            .enumerate()
            .map(|(index, score)| match score.reduce {
                Reduce::Normalize { .. } => nodes
                    .clone()
                    .map(|node| self.value(node, index))
                    .max()
                    .unwrap_or(0),
                Reduce::Identity | Reduce::Skip => 0,
            })
            .collect()
    }

    /// Filters and scores one node afresh; true if that may move the normalisation (the
    /// node's fit or a normalised value changed).
    fn evaluate(&mut self, cycle: &dyn Cycle, snapshot: &Snapshot<'_>, node: usize) -> bool {
        let results = cycle.filter(snapshot, node);
        let fit = if results.iter().any(|(_, status)| status.code == Code::Error) {
            Fit::Error
        } else if results.iter().all(|(_, status)| status.passed()) {
            Fit::Feasible
        } else {
            Fit::Infeasible
        };
        let Some(slot) = self.fits.get_mut(node) else {
            return false;
        };
        let before = core::mem::replace(slot, fit);
        match (before == Fit::Error, fit == Fit::Error) {
            (false, true) => self.errors = self.errors.saturating_add(1),
            (true, false) => self.errors = self.errors.saturating_sub(1),
            _ => {}
        }
        let mut moved = before != fit;
        if fit == Fit::Feasible {
            let start = node.saturating_mul(self.scores.len());
            for (index, score) in self.scores.iter().enumerate() {
                let value = match score.reduce {
                    Reduce::Skip => 0,
                    Reduce::Identity | Reduce::Normalize { .. } => {
                        cycle.node_local_value(snapshot, node, index)
                    }
                };
                if let Some(slot) = self.values.get_mut(start.saturating_add(index)) {
                    let normalized = matches!(score.reduce, Reduce::Normalize { .. });
                    moved |= normalized && *slot != value;
                    *slot = value;
                }
            }
        }
        moved
    }
}

/// True if two pods look the same to every filter and node-local score: the same spec,
/// namespace, labels, annotations, owners, effective requests, priority and QoS class.
/// Names, uids and timestamps differ within a template and are read by none of them.
#[must_use]
pub fn equivalent(a: &PodEntry, b: &PodEntry) -> bool {
    let (left, right) = (&a.pod.metadata, &b.pod.metadata);
    a.priority == b.priority
        && a.qos == b.qos
        && left.namespace == right.namespace
        && left.labels == right.labels
        && left.annotations == right.annotations
        && left.owner_references == right.owner_references
        && a.requests == b.requests
        && a.pod.spec == b.pod.spec
}
