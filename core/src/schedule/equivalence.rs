//! The equivalence cache: filter verdicts and per-node score values reused across pending
//! pods of one template, re-evaluated only on the nodes whose pods changed since.
//!
//! Kubernetes 1.11 carried the idea behind a feature gate that was off by default
//! (`pkg/scheduler/core/equivalence/eqivalence.go`, keyed by the pod's controller).
//! kubefit's cache changes no decision, only its cost: a pod joins the cached class only
//! when everything the filters and scores read from it equals the class's pod
//! ([`equivalent`]), only while its cycle depends on nothing but the pod and each node
//! ([`Cycle::independent_of_other_pods`], [`Cycle::node_local_scores`]), and a node's
//! entry is used only while the node's pods are the ones it was computed against
//! ([`Snapshot::node_version`]). Everything else goes through the full evaluation.

use alloc::string::String;
use alloc::vec::Vec;

use super::plugins::normalize;
use super::snapshot::Snapshot;
use super::status::Code;
use super::{Cycle, NodeLocalScore, Reduce};
use crate::cluster::PodEntry;

/// One node's filter outcome for the class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fit {
    /// Every filter passed.
    Feasible,
    /// A filter failed.
    Infeasible,
    /// A filter erred (the full evaluation reports it).
    Error,
}

/// The cached class: the last pod placed through the cache and what it found per node.
struct Class {
    /// The pod the entries were computed for (index into the cluster's pods).
    pod: usize,
    /// Its scores.
    scores: Vec<NodeLocalScore>,
    /// [`super::volumes::Assumed::changes`] when the class was made.
    volumes: u64,
    /// Per node, the [`Snapshot::node_version`] its entries were computed at (`None`:
    /// not computed).
    stamps: Vec<Option<u64>>,
    /// Per node, the filter outcome.
    fits: Vec<Fit>,
    /// Per node, one value per score (`node * scores.len() + score`).
    values: Vec<i64>,
}

/// The cache for one scheduling run.
#[derive(Default)]
pub struct EquivalenceCache {
    class: Option<Class>,
}

impl EquivalenceCache {
    /// The nodes where `pod` fits, in node order, from the cache where it holds and
    /// evaluated afresh where not; `allowed` is a PreFilter's node subset. `None`
    /// when the pod cannot use the cache, when a filter errs on some node or when no node
    /// fits: the full evaluation then explains the outcome.
    pub fn feasible(
        &mut self,
        cycle: &dyn Cycle,
        snapshot: &Snapshot<'_>,
        pod: usize,
        allowed: Option<&[bool]>,
    ) -> Option<Vec<usize>> {
        if !cycle.independent_of_other_pods() {
            return None;
        }
        let scores = cycle.node_local_scores(snapshot)?;
        let entry = snapshot.pod(pod)?;
        let node_count = snapshot.nodes.len();
        let volumes = snapshot.volumes.changes();
        let reusable = self.class.as_ref().is_some_and(|class| {
            class.volumes == volumes
                && class.scores == scores
                && class.stamps.len() == node_count
                && snapshot
                    .pod(class.pod)
                    .is_some_and(|other| equivalent(other, entry))
        });
        let class = match &mut self.class {
            Some(class) if reusable => {
                class.pod = pod;
                class
            }
            slot => slot.insert(Class {
                pod,
                values: alloc::vec![0; node_count.saturating_mul(scores.len())],
                scores,
                volumes,
                stamps: alloc::vec![None; node_count],
                fits: alloc::vec![Fit::Infeasible; node_count],
            }),
        };
        let width = class.scores.len();
        let mut feasible = Vec::new();
        for node in 0..node_count {
            let version = snapshot.node_version(node);
            if class.stamps.get(node).copied().flatten() != Some(version) {
                class.evaluate(cycle, snapshot, node, width);
                if let Some(stamp) = class.stamps.get_mut(node) {
                    *stamp = Some(version);
                }
            }
            match class.fits.get(node) {
                Some(Fit::Error) => return None,
                Some(Fit::Feasible)
                    if allowed.is_none_or(|subset| subset.get(node).copied().unwrap_or(false)) =>
                {
                    feasible.push(node);
                }
                _ => {}
            }
        }
        (!feasible.is_empty()).then_some(feasible)
    }

    /// Each score over `nodes` as [`Cycle::score`] gives it, from the values cached by the
    /// last [`EquivalenceCache::feasible`] (which covered every node in `nodes`).
    #[must_use]
    pub fn score(&self, nodes: &[usize]) -> Vec<(String, i64, Vec<i64>)> {
        let Some(class) = &self.class else {
            return Vec::new();
        };
        let width = class.scores.len();
        class
            .scores
            .iter()
            .enumerate()
            .map(|(index, score)| {
                let mut values: Vec<i64> = match score.reduce {
                    Reduce::Skip => Vec::new(),
                    Reduce::Identity | Reduce::Normalize { .. } => nodes
                        .iter()
                        .map(|&node| {
                            class
                                .values
                                .get(node.saturating_mul(width).saturating_add(index))
                                .copied()
                                .unwrap_or(0)
                        })
                        .collect(),
                };
                if let Reduce::Normalize { max, reverse } = score.reduce {
                    normalize::default_normalize(&mut values, max, reverse);
                }
                (score.name.clone(), score.weight, values)
            })
            .collect()
    }
}

impl Class {
    /// Filters and scores one node afresh.
    fn evaluate(&mut self, cycle: &dyn Cycle, snapshot: &Snapshot<'_>, node: usize, width: usize) {
        let results = cycle.filter(snapshot, node);
        let fit = if results.iter().any(|(_, status)| status.code == Code::Error) {
            Fit::Error
        } else if results.iter().all(|(_, status)| status.passed()) {
            Fit::Feasible
        } else {
            Fit::Infeasible
        };
        if let Some(slot) = self.fits.get_mut(node) {
            *slot = fit;
        }
        if fit != Fit::Feasible {
            return;
        }
        let start = node.saturating_mul(width);
        for (index, score) in self.scores.iter().enumerate() {
            let value = match score.reduce {
                Reduce::Skip => 0,
                Reduce::Identity | Reduce::Normalize { .. } => {
                    cycle.node_local_value(snapshot, node, index)
                }
            };
            if let Some(slot) = self.values.get_mut(start.saturating_add(index)) {
                *slot = value;
            }
        }
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
