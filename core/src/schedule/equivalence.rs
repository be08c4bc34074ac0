//! The equivalence cache: filter verdicts, node scores and weighted totals reused across
//! pending pods of one template, re-evaluated only on the nodes a change of pods reached.
//!
//! Kubernetes 1.11 carried the idea behind a feature gate that was off by default
//! (`pkg/scheduler/core/equivalence/eqivalence.go`, keyed by the pod's controller).
//! kubefit's cache changes no decision, only its cost:
//! - a pod joins the cached class only when everything the filters and scores read from
//!   it equals the class's pod ([`equivalent`]);
//! - the class keeps the cycle prepared for its first pod and follows every bind and
//!   unbind with it ([`Cycle::follow`], upstream's `AddPod`/`RemovePod`), so inter-pod
//!   affinity's counts cost what changed, not every pod again; a cycle that cannot follow
//!   (spreading, claim sharing) is prepared again;
//! - a node's entry is used only while the node's pods are the ones it was computed
//!   against ([`Snapshot::node_version`]) and no change reached it through a topology
//!   domain ([`Reach`]);
//! - only scores that split into a per-node value and a normalisation over the scored
//!   nodes are cached ([`Cycle::node_local_scores`]); totals are renormalised when the
//!   feasible set or a normalised score's bounds move;
//! - the filters and scores that read only the node and the pod's node inputs (taints,
//!   labels, images: [`Cycle::splits`]) never change while pods are placed: their
//!   findings are kept per node in a `NodeOnly` table that every class with the same
//!   node inputs reads, and a class evaluates the other filters and scores alone;
//! - a pod whose cycle reads nothing but its spec, node by node
//!   ([`Cycle::reads_only_its_spec`]), may take the entries of another template's class
//!   with the same spec (labels, owners and fields no plugin reads aside) when that class
//!   was only ever computed so: replacements of many owners share their per-node work;
//! - such a pod whose spec differs from that class's only in container images starts its
//!   own class from that class's entries, with its own node-only score values
//!   (`image_sibling`): only ImageLocality reads images.
//!
//! Everything else goes through the full evaluation.

use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::sync::Arc;
use alloc::vec::Vec;

use super::plugins::normalize;
use super::snapshot::{Accounting, Snapshot};
use super::status::Code;
use super::topology::PairCounts;
use super::{node_verdict, Cycle, NodeLocalScore, Prepared, Profile, Reach, Reduce};
use crate::cluster::PodEntry;
use crate::model::{Container, ContainerPort, PodSpec, Volume};
use crate::report::scheduling::{NodeVerdict, ScoreMap};

/// The total of a node that is not feasible (below any real total).
const NOT_FEASIBLE: i64 = i64::MIN;

/// The stamp of a node whose entries are to evaluate: a [`Snapshot::node_version`] never
/// reaches it (the clock counts changes of pods from 0).
const UNSTAMPED: u64 = u64::MAX;

/// A PreFilter's node subset, with the plugins that made it.
type Subset = Option<(Vec<bool>, Vec<&'static str>)>;

/// The cached class: the last pod placed through the cache, its cycle and what it found
/// per node.
struct Class<'p> {
    /// The pod the entries were computed for (index into the cluster's pods).
    pod: usize,
    /// Its [`request_digest`].
    digest: u64,
    /// The cycle prepared for the class's first pod, kept up to date with every change
    /// of pods on nodes up to `clock` ([`Cycle::follow`]); `None` when it must be
    /// prepared again.
    cycle: Option<Box<dyn Cycle + 'p>>,
    /// Its PreFilter node subset.
    only: Subset,
    /// Its scores.
    scores: Vec<NodeLocalScore>,
    /// [`super::volumes::Assumed::changes`] when the cycle was prepared.
    volumes: u64,
    /// Per node, the [`Snapshot::node_version`] its entries were computed at ([`UNSTAMPED`]: to
    /// evaluate).
    stamps: Vec<u64>,
    /// [`Snapshot::clock`] when every node and the cycle were last brought up to date:
    /// while it is set, every node's stamp is its version at that clock.
    clock: Option<u64>,
    /// Per node, the filters' code ([`Code::Success`] where it fits).
    codes: Vec<Code>,
    /// The class keeps each node's reasons: set when nothing fitted once (a template that
    /// fits somewhere never pays for them).
    explains: bool,
    /// Per node, the reasons upstream records where it does not fit (only while it
    /// `explains`: empty otherwise).
    reasons: Vec<Vec<String>>,
    /// How many times each reason is recorded over all nodes (the message's histogram).
    /// (A short list: nodes fail for a handful of distinct reasons.)
    reason_counts: Vec<(String, usize)>,
    /// How many nodes have [`Code::Error`].
    errors: usize,
    /// Per node, [`Class::width`] values (`node * width + slot`): the weighted sum of its
    /// `Identity` scores, then each normalised score's value before normalisation. Only
    /// what the totals need is kept: a class holds an entry for every node.
    values: Vec<i64>,
    /// Per score, its slot among a node's values (normalised scores only, from 1).
    slots: Vec<Option<usize>>,
    /// How many values a node has: 1 + the number of normalised scores.
    width: usize,
    /// Per score, the lowest and highest value among the feasible nodes (what `Normalize`
    /// and `MinMax` scale by; 0 where the score does not use it).
    bounds: Vec<(i64, i64)>,
    /// Per node, the weighted total; [`NOT_FEASIBLE`] for nodes that do not fit.
    totals: Vec<i64>,
    /// How many nodes fit.
    feasible: usize,
    /// The best total among the nodes that fit and how many have it, kept as totals
    /// change; `None` when the best lost its last node (or everything changed), until a
    /// scan finds it again.
    top: Option<(i64, usize)>,
    /// The totals need computing in full on the next update: the last one stopped at a
    /// filter error.
    stale: bool,
    /// [`EquivalenceCache::tick`] when the class was last used.
    used: u64,
    /// Every entry was computed by a cycle that read only its pod's spec
    /// ([`Cycle::reads_only_its_spec`]), so pods of other templates with that spec may
    /// share them. Cleared for good (until a restart) once the cycle reads more.
    spec_only: bool,
    /// What the node-only filters and scores found for the class's cycle, when it splits.
    node_only: Option<Rc<NodeOnly>>,
}

/// Per node, what the filters and scores that read only the node found for a cycle
/// ([`Cycle::splits`]): the same for every cycle with the same node inputs
/// ([`Cycle::same_node_inputs`]) during one placement run, since nodes do not change
/// while pods are placed.
struct NodeOnly {
    /// The pod whose cycle worked it out.
    pod: usize,
    /// Per node, the position among the profile's filters of the first node-only filter
    /// that does not pass it, and that verdict's code; [`PASSES`] where all pass.
    failures: Vec<(usize, Code)>,
    /// Per score of [`Cycle::node_local_scores`], its slot among a node's values when it
    /// reads only the node.
    slots: Vec<Option<usize>>,
    /// How many values a node has: one per node-only score.
    width: usize,
    /// Per node, the node-only scores' values (`node * width + slot`).
    values: Vec<i64>,
}

/// [`NodeOnly::failures`] of a node that every node-only filter passes.
const PASSES: (usize, Code) = (usize::MAX, Code::Success);

/// How many [`NodeOnly`] tables the cache keeps (each 16 B per node and 8 B per node and
/// node-only score): pods come in a handful of node inputs (taints, selectors, images).
const NODE_ONLY_TABLES: usize = 32;

impl NodeOnly {
    /// Works out every node for `cycle`, whose scores are `scores`.
    fn new(cycle: &dyn Cycle, snapshot: &Snapshot<'_>, pod: usize, scores: usize) -> Self {
        let node_count = snapshot.nodes.len();
        let mut width = 0;
        let slots: Vec<Option<usize>> = (0..scores)
            .map(|index| {
                cycle.node_only_score(index).then(|| {
                    width += 1;
                    width - 1
                })
            })
            .collect();
        let mut table = Self {
            pod,
            failures: Vec::with_capacity(node_count),
            values: Vec::with_capacity(node_count.saturating_mul(width)),
            slots,
            width,
        };
        for node in 0..node_count {
            table.failures.push(
                cycle
                    .first_failure_at(snapshot, node, true, usize::MAX)
                    .unwrap_or(PASSES),
            );
            for (index, slot) in table.slots.iter().enumerate() {
                if slot.is_some() {
                    table
                        .values
                        .push(cycle.node_local_value(snapshot, node, index));
                }
            }
        }
        table
    }

    /// Score `index`'s value on `node`, when it reads only the node.
    fn value(&self, node: usize, index: usize) -> Option<i64> {
        let slot = self.slots.get(index).copied().flatten()?;
        self.values
            .get(node.saturating_mul(self.width).saturating_add(slot))
            .copied()
    }
}

/// How many per-node entries the cache's classes hold together at most (about 60 MB: a
/// node's entry takes 8 B of stamp, 8 B of total, 1 B of code, 8 B for the sum of the
/// `Identity` scores and 8 B per normalised score, one or two by default): it keeps as
/// many classes as fit, between [`MIN_CLASSES`] and [`MAX_CLASSES`], and the least
/// recently used goes first. Pods of
/// many templates alternate in the queue, as the replacements of a drained node's owners
/// do, and specs repeat across templates.
const CLASS_NODE_ENTRIES: usize = 3 << 19;
const MIN_CLASSES: usize = 16;
const MAX_CLASSES: usize = 512;

/// The cache for one scheduling run: the classes, in no order.
#[derive(Default)]
pub struct EquivalenceCache<'p> {
    classes: Vec<Class<'p>>,
    /// Counts lookups: a class's [`Class::used`] is the count at its last use.
    tick: u64,
    /// The nodes with each label pair, made when a change first reaches a domain.
    labelled: Option<Labelled<'p>>,
    /// Buffers [`EquivalenceCache::refresh`] reuses from pod to pod: the nodes to evaluate
    /// again, and those whose entries changed (up to every node each).
    candidates: Vec<usize>,
    changed: Vec<usize>,
    /// The node-only tables made so far, oldest first (at most [`NODE_ONLY_TABLES`]).
    node_only: Vec<Rc<NodeOnly>>,
}

/// The cached outcome for one pod: where it fits and each node's total.
pub struct Cached<'c, 'p> {
    class: &'c Class<'p>,
}

/// What the cache answers for a pod.
pub enum Lookup<'c, 'p> {
    /// The cached outcome.
    Cached(Cached<'c, 'p>),
    /// The pod takes the full evaluation, with its PreFilter done.
    Full(Prepared<'p>),
}

impl<'p> EquivalenceCache<'p> {
    /// Brings the pod's class up to date, re-evaluating the nodes a change of pods may
    /// have moved, and answers from it: where the pod fits and each node's total, or
    /// each node's reasons when it fits nowhere. The full evaluation when the pod's scores
    /// are not node-local, when a filter errs on some node, or when nothing fits and a
    /// PreFilter's subset left nodes out.
    pub fn update(
        &mut self,
        profile: &'p dyn Profile,
        snapshot: &Snapshot<'p>,
        pod: usize,
    ) -> Lookup<'_, 'p> {
        let Some(entry) = snapshot.pod(pod) else {
            return Lookup::Full(profile.prepare(snapshot, pod));
        };
        let node_count = snapshot.nodes.len();
        let digest = request_digest(entry);
        let found = self.classes.iter().position(|class| {
            class.digest == digest
                && class.stamps.len() == node_count
                && snapshot
                    .pod(class.pod)
                    .is_some_and(|other| equivalent(other, entry))
        });
        let (mut class, fresh) = match found {
            Some(position) => (self.classes.swap_remove(position), None),
            None => {
                // A pod of another template whose cycle reads only its spec may take the
                // per-node results of a class that has only ever read its pods' specs.
                let prepared = profile.prepare(snapshot, pod);
                let shared = match &prepared {
                    Prepared::Filter { cycle, only } if cycle.reads_only_its_spec(snapshot) => {
                        self.classes.iter().position(|class| {
                            class.digest == digest
                                && class.spec_only
                                && class.stamps.len() == node_count
                                && class.only == *only
                                && snapshot
                                    .pod(class.pod)
                                    .is_some_and(|other| alike_by_spec(other, entry))
                        })
                    }
                    _ => None,
                };
                let class = match shared {
                    Some(position) => self.classes.swap_remove(position),
                    None => self.free_class(node_count),
                };
                (class, Some((prepared, shared.is_some())))
            }
        };
        class.pod = pod;
        class.digest = digest;
        self.tick = self.tick.saturating_add(1);
        class.used = self.tick;
        let mut candidates = core::mem::take(&mut self.candidates);
        let mut changed = core::mem::take(&mut self.changed);
        candidates.clear();
        changed.clear();
        let lookup = self.refresh(
            &mut class,
            profile,
            snapshot,
            pod,
            fresh,
            (&mut candidates, &mut changed),
        );
        self.candidates = candidates;
        self.changed = changed;
        self.classes.push(class);
        match (lookup, self.classes.last()) {
            (None, Some(class)) => Lookup::Cached(Cached { class }),
            (Some(prepared), _) => Lookup::Full(prepared),
            (None, None) => Lookup::Full(profile.prepare(snapshot, pod)),
        }
    }

    /// A class for a new template: a new one, or the least recently used one's buffers
    /// when the cache is full.
    fn free_class(&mut self, node_count: usize) -> Class<'p> {
        let limit = (CLASS_NODE_ENTRIES / node_count.max(1)).clamp(MIN_CLASSES, MAX_CLASSES);
        if self.classes.len() >= limit {
            let oldest = (0..self.classes.len())
                .min_by_key(|&position| self.classes.get(position).map_or(0, |class| class.used));
            if let Some(position) = oldest {
                let mut class = self.classes.swap_remove(position);
                class.forget();
                return class;
            }
        }
        Class::new(node_count)
    }

    /// Brings `class` up to date for `pod`: `None` when it answers, else the pod's
    /// PreFilter for the full evaluation. `fresh` is the pod's PreFilter when the class is
    /// not of its template, with whether the class shares per-node results with it.
    /// `buffers` are two empty lists to work in.
    fn refresh(
        &mut self,
        class: &mut Class<'p>,
        profile: &'p dyn Profile,
        snapshot: &Snapshot<'p>,
        pod: usize,
        fresh: Option<(Prepared<'p>, bool)>,
        buffers: (&mut Vec<usize>, &mut Vec<usize>),
    ) -> Option<Prepared<'p>> {
        let node_count = snapshot.nodes.len();
        let volumes = snapshot.volumes.changes();
        // The nodes to evaluate again: those whose pods changed and those the changes
        // reached; every node when the cycle is prepared afresh.
        let (candidates, changed) = buffers;
        // The class is new to its template, and every node is to evaluate.
        let mut filling = false;
        match fresh {
            // The class's results depend on each node alone: the pod's own cycle takes
            // over, and the nodes whose pods changed since are evaluated again.
            Some((Prepared::Filter { cycle, only }, true)) => {
                class.cycle = Some(cycle);
                class.only = only;
                class.volumes = volumes;
                class.changed_since(snapshot, candidates);
            }
            Some((Prepared::Filter { cycle, only }, false)) => {
                class.restart(cycle, only, volumes);
                candidates.extend(0..node_count);
                filling = true;
            }
            Some((other, _)) => {
                class.cycle = None;
                return Some(other);
            }
            None => {
                let followed = class.volumes == volumes
                    && class.cycle.is_some()
                    && self.follow(class, snapshot, candidates);
                if !followed {
                    match profile.prepare(snapshot, pod) {
                        Prepared::Filter { cycle, only } => class.restart(cycle, only, volumes),
                        other => {
                            class.cycle = None;
                            return Some(other);
                        }
                    }
                    candidates.clear();
                    candidates.extend(0..node_count);
                }
            }
        }
        let Some(cycle) = class.cycle.take() else {
            return Some(profile.prepare(snapshot, pod));
        };
        let Some(scores) = cycle.node_local_scores(snapshot) else {
            // Not node-local: the kept cycle is this pod's PreFilter.
            return Some(Prepared::Filter {
                cycle,
                only: class.only.take(),
            });
        };
        if scores != class.scores {
            class.set_scores(scores);
            candidates.clear();
            candidates.extend(0..node_count);
        }
        if class.node_only.is_none() && cycle.splits() && !profile.check_all() {
            class.node_only =
                Some(self.node_only_table(&*cycle, snapshot, pod, class.scores.len()));
        }
        // Once cleared it stays so: skip asking (spreading builds its constraints to answer).
        let spec_only = class.spec_only && cycle.reads_only_its_spec(snapshot);
        // A class whose pods differ from another's only in their images takes that
        // class's entries, with its own node-only scores: then only the nodes changed
        // since are evaluated.
        if filling && spec_only {
            if let Some((sibling, theirs)) = self.image_sibling(class, snapshot, pod) {
                class.derive(sibling, &theirs);
                candidates.clear();
                class.changed_since(snapshot, candidates);
            }
        }
        if candidates.len() < node_count {
            class.touch(candidates);
        }
        let mut renormalize = class.stale;
        for &node in candidates.iter() {
            let version = snapshot.node_version(node);
            let Some(stamp) = class.stamps.get_mut(node) else {
                continue;
            };
            if *stamp != version {
                *stamp = version;
                renormalize |= class.evaluate(profile, &*cycle, snapshot, node);
                changed.push(node);
            }
        }
        class.spec_only = spec_only;
        class.clock = Some(snapshot.clock());
        class.cycle = Some(cycle);
        if class.errors > 0 {
            class.stale = true;
            return Some(profile.prepare(snapshot, pod));
        }
        let bounds = renormalize.then(|| class.feasible_bounds());
        match bounds {
            Some(bounds) if bounds != class.bounds || class.stale => {
                class.bounds = bounds;
                class.set_all_totals();
            }
            _ => {
                for &node in changed.iter() {
                    class.set_total(node);
                }
            }
        }
        class.stale = false;
        // Only a choice among several nodes reads the best total.
        if class.feasible > 1 {
            class.find_top();
        }
        // Nothing fits: the class explains it with each node's reasons, unless a
        // PreFilter's subset left nodes out (the full evaluation words them). The first
        // time, it filters every node again to record them.
        if class.feasible == 0 && class.only.is_none() && !class.explains {
            class.explains = true;
            class.reasons.resize_with(node_count, Vec::new);
            if let Some(cycle) = class.cycle.take() {
                for node in 0..node_count {
                    class.evaluate(profile, &*cycle, snapshot, node);
                }
                class.cycle = Some(cycle);
            }
        }
        (class.feasible == 0 && class.only.is_some()).then(|| profile.prepare(snapshot, pod))
    }

    /// The node-only table for `cycle` (of `pod`, with `scores` scores): one made for a
    /// cycle with the same node inputs, or a new one.
    fn node_only_table(
        &mut self,
        cycle: &dyn Cycle,
        snapshot: &Snapshot<'p>,
        pod: usize,
        scores: usize,
    ) -> Rc<NodeOnly> {
        let found = self.node_only.iter().find(|table| {
            table.slots.len() == scores
                && snapshot
                    .pod(table.pod)
                    .is_some_and(|other| cycle.same_node_inputs(other))
        });
        if let Some(table) = found {
            return Rc::clone(table);
        }
        let table = Rc::new(NodeOnly::new(cycle, snapshot, pod, scores));
        if self.node_only.len() >= NODE_ONLY_TABLES {
            self.node_only.remove(0);
        }
        self.node_only.push(Rc::clone(&table));
        table
    }

    /// A class whose entries `class` (new, of `pod`, whose cycle reads only its spec) may
    /// take, but for its node-only scores: its pod is alike by spec to `pod` but for
    /// container images, its entries were only ever computed so, and its scores and
    /// PreFilter subset are `class`'s. Images are read by one score alone, ImageLocality,
    /// which reads only the node: every filter, and every other score, finds the same for
    /// both pods. With its node-only table.
    fn image_sibling<'a>(
        &'a self,
        class: &Class<'p>,
        snapshot: &Snapshot<'p>,
        pod: usize,
    ) -> Option<(&'a Class<'p>, Rc<NodeOnly>)> {
        class.node_only.as_ref()?;
        let entry = snapshot.pod(pod)?;
        self.classes.iter().find_map(|other| {
            let theirs = other.node_only.as_ref()?;
            let usable = other.digest == class.digest
                && other.spec_only
                && !other.explains
                && other.errors == 0
                && !other.stale
                && other.stamps.len() == class.stamps.len()
                && other.only == class.only
                && other.scores == class.scores
                && snapshot
                    .pod(other.pod)
                    .is_some_and(|other| alike_but_images(other, entry));
            usable.then(|| (other, Rc::clone(theirs)))
        })
    }

    /// Follows every change since the class's clock with its cycle and marks the nodes
    /// they reach for evaluation; false when the snapshot no longer remembers them all
    /// or the cycle cannot follow one.
    fn follow(
        &mut self,
        class: &mut Class<'p>,
        snapshot: &Snapshot<'p>,
        candidates: &mut Vec<usize>,
    ) -> bool {
        // Until the refresh ends, marked nodes are not up to date at any clock.
        let (Some(since), Some(cycle)) = (class.clock.take(), class.cycle.as_deref_mut()) else {
            return false;
        };
        let Some(changes) = snapshot.changes_since(since) else {
            return false;
        };
        for change in changes {
            let Some(reach) = cycle.follow(snapshot, change) else {
                class.cycle = None;
                return false;
            };
            candidates.push(change.node);
            let Reach {
                domains,
                everywhere,
            } = reach;
            if everywhere {
                class.stamps.fill(UNSTAMPED);
                candidates.clear();
                candidates.extend(0..class.stamps.len());
                continue;
            }
            let Some(node) = snapshot.nodes.get(change.node) else {
                continue;
            };
            for key in domains {
                let Some(value) = node.node.metadata.labels.get(&key) else {
                    continue;
                };
                let labelled = self.labelled.get_or_insert_with(|| Labelled::new(snapshot));
                for other in labelled.nodes(key.as_str(), value.as_str()) {
                    if let Some(stamp) = class.stamps.get_mut(other) {
                        *stamp = UNSTAMPED;
                        candidates.push(other);
                    }
                }
            }
        }
        true
    }
}

/// The nodes with each label pair: per pair, a chain through `links` (kept in the count
/// map that topology domains use, so the playground carries no other map's code).
struct Labelled<'p> {
    /// Per pair, 1 + the position in `links` of its last node.
    heads: PairCounts<'p>,
    /// A node, and 1 + the position of the pair's previous node (0: none).
    links: Vec<(usize, usize)>,
}

impl<'p> Labelled<'p> {
    fn new(snapshot: &Snapshot<'p>) -> Self {
        let mut labelled = Self {
            heads: PairCounts::new(),
            links: Vec::new(),
        };
        for (node, info) in snapshot.nodes.iter().enumerate() {
            for (key, value) in &info.node.metadata.labels {
                let head = labelled
                    .heads
                    .entry((key.as_str(), value.as_str()))
                    .or_insert(0);
                labelled
                    .links
                    .push((node, usize::try_from(*head).unwrap_or(0)));
                *head = i64::try_from(labelled.links.len()).unwrap_or(0);
            }
        }
        labelled
    }

    /// The nodes with `key=value`.
    fn nodes(&self, key: &str, value: &str) -> impl Iterator<Item = usize> + '_ {
        let head = self.heads.get(&(key, value)).copied().unwrap_or(0);
        let mut next = usize::try_from(head).unwrap_or(0);
        core::iter::from_fn(move || {
            let &(node, previous) = self.links.get(next.checked_sub(1)?)?;
            next = previous;
            Some(node)
        })
    }
}

impl Cached<'_, '_> {
    /// Each node's filter code ([`Code::Success`] where the pod fits).
    #[must_use]
    pub fn codes(&self) -> &[Code] {
        &self.class.codes
    }

    /// The reasons upstream records for a node where the pod does not fit.
    #[must_use]
    pub fn reasons(&self, node: usize) -> &[String] {
        self.class.reasons.get(node).map_or(&[], Vec::as_slice)
    }

    /// Every reason recorded on some node, with how many times (the message's
    /// histogram).
    pub fn reason_counts(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        self.class
            .reason_counts
            .iter()
            .map(|(reason, count)| (reason.as_str(), *count))
    }

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

    /// The best total among the nodes that fit, and how many nodes have it.
    #[must_use]
    pub fn best(&self) -> (i64, usize) {
        match self.class.top {
            Some((total, count)) if count > 0 => (total, count),
            _ => (0, 0),
        }
    }

    /// Each node's weighted total ([`i64::MIN`] where the pod does not fit).
    #[must_use]
    pub fn totals(&self) -> &[i64] {
        &self.class.totals
    }

    /// A feasible node's scores, as the report lists them, and its total. The class keeps
    /// only the sum of the `Identity` scores: each is asked of the cycle again, on the
    /// node as it was evaluated (nothing changed since the class was brought up to date).
    #[must_use]
    pub fn verdict(&self, snapshot: &Snapshot<'_>, node: usize) -> (ScoreMap, i64) {
        let class = self.class;
        let map = class
            .scores
            .iter()
            .enumerate()
            .filter(|(_, score)| score.reduce != Reduce::Skip)
            .map(|(index, score)| {
                let value = match (score.reduce, class.cycle.as_deref()) {
                    (Reduce::Identity, Some(cycle)) => {
                        cycle.node_local_value(snapshot, node, index)
                    }
                    _ => class.normalized(node, index, &class.bounds),
                };
                (score.name.clone(), value)
            })
            .collect();
        let map = ScoreMap(map);
        (map, class.totals.get(node).copied().unwrap_or(0))
    }

    /// Each node's total with the scores normalised over `nodes` alone, as the full
    /// evaluation gives it for that set (the sampled scheduler's view).
    #[must_use]
    pub fn totals_over(&self, nodes: &[usize]) -> Vec<i64> {
        let class = self.class;
        let bounds = class.bounds_over(nodes.iter().copied());
        // Normalised as over every feasible node: the totals kept are the answer.
        if bounds == class.bounds {
            nodes
                .iter()
                .map(|&node| class.totals.get(node).copied().unwrap_or(0))
                .collect()
        } else {
            nodes
                .iter()
                .map(|&node| class.total(node, &bounds))
                .collect()
        }
    }

    /// The class's cycle (to reserve what the pod takes on its node).
    #[must_use]
    pub fn cycle(&self) -> Option<&(dyn Cycle + '_)> {
        self.class.cycle.as_deref()
    }
}

impl<'p> Class<'p> {
    /// A class with room for `node_count` nodes and nothing prepared.
    fn new(node_count: usize) -> Self {
        let mut class = Self {
            pod: 0,
            digest: 0,
            cycle: None,
            only: None,
            scores: Vec::new(),
            volumes: 0,
            stamps: Vec::new(),
            clock: None,
            codes: Vec::new(),
            explains: false,
            reasons: Vec::new(),
            reason_counts: Vec::new(),
            errors: 0,
            values: Vec::new(),
            slots: Vec::new(),
            width: 1,
            bounds: Vec::new(),
            totals: Vec::new(),
            feasible: 0,
            top: None,
            stale: false,
            used: 0,
            spec_only: false,
            node_only: None,
        };
        class.stamps.resize(node_count, UNSTAMPED);
        class.forget();
        class
    }

    /// Forgets everything the class knew, keeping its buffers.
    fn forget(&mut self) {
        let node_count = self.stamps.len();
        self.cycle = None;
        self.only = None;
        self.scores.clear();
        self.values.clear();
        self.slots.clear();
        self.width = 1;
        self.bounds.clear();
        self.totals.clear();
        self.totals.resize(node_count, NOT_FEASIBLE);
        self.stamps.fill(UNSTAMPED);
        // Every node is evaluated before its code is read.
        self.codes.clear();
        self.codes
            .resize(node_count, Code::UnschedulableAndUnresolvable);
        // Reasons are only ever recorded while the class explains.
        self.reasons = Vec::new();
        self.reason_counts.clear();
        self.explains = false;
        self.clock = None;
        self.errors = 0;
        self.feasible = 0;
        self.top = None;
        self.stale = false;
        self.spec_only = false;
        self.node_only = None;
    }

    /// Reads each node's entries (stamp, code, values, total), node after node, before
    /// they are evaluated again. The nodes that changed lie anywhere in the class's
    /// arrays, long out of the cache: touched back to back, their loads overlap, where the
    /// evaluations would wait on each in turn. Wasm has no prefetch instruction; this is
    /// one.
    fn touch(&self, nodes: &[usize]) {
        let (mut stamps, mut touched) = (0_u64, 0_i64);
        for &node in nodes {
            stamps ^= self.stamps.get(node).copied().unwrap_or(0);
            touched ^= self.codes.get(node).map_or(0, |&code| code as i64);
            touched ^=
                self.slot_value(node, 0) ^ self.slot_value(node, self.width.saturating_sub(1));
            touched ^= self.totals.get(node).copied().unwrap_or(0);
        }
        core::hint::black_box((stamps, touched));
    }

    /// Puts in `candidates` the nodes whose pods changed since the class's entries.
    fn changed_since(&self, snapshot: &Snapshot<'_>, candidates: &mut Vec<usize>) {
        // Every node was up to date at the class's clock: the snapshot finds those changed
        // since (in its log of changes, else its versions), without reading the class's
        // stamps (a pod of another template comes to each class every few hundred pods).
        match self.clock {
            Some(since) => snapshot.nodes_changed_since(since, candidates),
            None => candidates.extend(
                self.stamps
                    .iter()
                    .enumerate()
                    .filter(|(node, stamp)| **stamp != snapshot.node_version(*node))
                    .map(|(node, _)| node),
            ),
        }
    }

    /// Takes the entries of `sibling` ([`EquivalenceCache::image_sibling`], whose
    /// node-only table is `theirs`), with this class's node-only score values in place of
    /// its own; the totals are computed in full next. A node whose sum of `Identity` scores
    /// cannot be worked out exactly so (a saturated sum) is left to evaluate.
    fn derive(&mut self, sibling: &Class<'_>, theirs: &NodeOnly) {
        let Some(mine) = self.node_only.clone() else {
            return;
        };
        self.stamps.clone_from(&sibling.stamps);
        self.clock = sibling.clock;
        self.codes.clone_from(&sibling.codes);
        self.values.clone_from(&sibling.values);
        self.stale = true;
        for node in 0..self.codes.len() {
            if self.codes.get(node) != Some(&Code::Success) {
                continue;
            }
            let start = node.saturating_mul(self.width);
            let mut identity = self.values.get(start).copied();
            for (index, (score, slot)) in self.scores.iter().zip(&self.slots).enumerate() {
                let (Some(value), Some(before)) =
                    (mine.value(node, index), theirs.value(node, index))
                else {
                    continue;
                };
                match (score.reduce, slot) {
                    (Reduce::Identity, _) => {
                        let weight = |value: i64| value.checked_mul(score.weight);
                        identity = identity
                            .filter(|&sum| sum != i64::MAX && sum != i64::MIN)
                            .and_then(|sum| sum.checked_sub(weight(before)?))
                            .and_then(|sum| sum.checked_add(weight(value)?));
                    }
                    (_, Some(slot)) => {
                        if let Some(kept) = self.values.get_mut(start.saturating_add(*slot)) {
                            *kept = value;
                        }
                    }
                    (_, None) => {}
                }
            }
            match (identity, self.values.get_mut(start)) {
                (Some(sum), Some(kept)) => *kept = sum,
                _ => {
                    self.clock = None;
                    if let Some(stamp) = self.stamps.get_mut(node) {
                        *stamp = UNSTAMPED;
                    }
                }
            }
        }
    }

    /// Takes a freshly prepared cycle: every node is to evaluate again.
    fn restart(&mut self, cycle: Box<dyn Cycle + 'p>, only: Subset, volumes: u64) {
        self.forget();
        self.spec_only = true;
        self.cycle = Some(cycle);
        self.only = only;
        self.volumes = volumes;
    }

    /// Takes a new list of scores: every node is to evaluate again, and the totals to
    /// compute in full.
    fn set_scores(&mut self, scores: Vec<NodeLocalScore>) {
        let node_count = self.stamps.len();
        let mut width = 1;
        self.slots = scores
            .iter()
            .map(|score| match score.reduce {
                Reduce::Normalize { .. } | Reduce::MinMax { .. } => {
                    width += 1;
                    Some(width - 1)
                }
                Reduce::Identity | Reduce::Skip => None,
            })
            .collect();
        self.width = width;
        self.values.clear();
        self.values.resize(node_count.saturating_mul(width), 0);
        self.bounds.clear();
        self.bounds.resize(scores.len(), (0, 0));
        self.scores = scores;
        self.stamps.fill(UNSTAMPED);
        self.stale = true;
    }

    /// The value at `slot` of `node`'s values (0: the weighted sum of its `Identity`
    /// scores).
    fn slot_value(&self, node: usize, slot: usize) -> i64 {
        self.values
            .get(node.saturating_mul(self.width).saturating_add(slot))
            .copied()
            .unwrap_or(0)
    }

    /// The value of normalised score `index` on `node`, before normalisation (0 for the
    /// other scores).
    fn value(&self, node: usize, index: usize) -> i64 {
        match self.slots.get(index) {
            Some(Some(slot)) => self.slot_value(node, *slot),
            _ => 0,
        }
    }

    /// The score normalised score `index` gives `node` when normalised by `bounds` (per
    /// score); 0 for the other scores.
    fn normalized(&self, node: usize, index: usize, bounds: &[(i64, i64)]) -> i64 {
        let value = self.value(node, index);
        let (lowest, highest) = bounds.get(index).copied().unwrap_or((0, 0));
        match self.scores.get(index).map(|score| score.reduce) {
            Some(Reduce::Normalize { max, reverse }) => {
                normalize::normalized(value, highest, max, reverse)
            }
            Some(Reduce::MinMax { max, from_zero }) if from_zero => {
                normalize::min_max(value, lowest.min(0), highest.max(0), max)
            }
            Some(Reduce::MinMax { max, .. }) => normalize::min_max(value, lowest, highest, max),
            Some(Reduce::Identity | Reduce::Skip) | None => 0,
        }
    }

    /// True if the node passed the filters and is in the PreFilter subset, if any.
    fn fits(&self, node: usize) -> bool {
        self.codes.get(node) == Some(&Code::Success)
            && self
                .only
                .as_ref()
                .is_none_or(|(subset, _)| subset.get(node).copied().unwrap_or(false))
    }

    /// Sets a node's total, or [`NOT_FEASIBLE`].
    fn set_total(&mut self, node: usize) {
        let fits = self.fits(node);
        let total = if fits {
            self.total(node, &self.bounds)
        } else {
            NOT_FEASIBLE
        };
        let Some(slot) = self.totals.get_mut(node) else {
            return;
        };
        let before = core::mem::replace(slot, total);
        if before != NOT_FEASIBLE {
            self.feasible = self.feasible.saturating_sub(1);
        }
        if fits {
            self.feasible = self.feasible.saturating_add(1);
        }
        let Some((mut best, mut tied)) = self.top else {
            return;
        };
        if before != NOT_FEASIBLE && before == best {
            tied = tied.saturating_sub(1);
            if tied == 0 {
                self.top = None;
                return;
            }
        }
        if total != NOT_FEASIBLE && total > best {
            (best, tied) = (total, 1);
        } else if total != NOT_FEASIBLE && total == best {
            tied = tied.saturating_add(1);
        }
        self.top = Some((best, tied));
    }

    /// Finds the best total and how many nodes have it, when it is not known.
    fn find_top(&mut self) {
        if self.top.is_some() {
            return;
        }
        let feasible = || {
            self.totals
                .iter()
                .copied()
                .filter(|&total| total != NOT_FEASIBLE)
        };
        self.top = Some(match feasible().max() {
            Some(best) => (best, feasible().filter(|&total| total == best).count()),
            None => (NOT_FEASIBLE, 0),
        });
    }

    /// Every node's total afresh (the normalisation moved).
    fn set_all_totals(&mut self) {
        self.feasible = 0;
        self.top = None;
        for node in 0..self.totals.len() {
            let total = if self.fits(node) {
                self.feasible = self.feasible.saturating_add(1);
                self.total(node, &self.bounds)
            } else {
                NOT_FEASIBLE
            };
            if let Some(slot) = self.totals.get_mut(node) {
                *slot = total;
            }
        }
    }

    /// A node's weighted total with the scores normalised by `bounds`, as
    /// `schedule::totals` adds them (1 when nothing is configured to score).
    ///
    /// The `Identity` scores are summed first, at evaluation. The total is the same: under
    /// 1.11 every score and weight is non-negative (validation keeps weights positive),
    /// and a saturating sum of non-negative terms does not depend on their order; under
    /// 1.34 weights are 32-bit and scores at most 100, so the sum never saturates.
    fn total(&self, node: usize, bounds: &[(i64, i64)]) -> i64 {
        if self.scores.is_empty() {
            return 1;
        }
        self.scores
            .iter()
            .enumerate()
            .filter(|(index, _)| matches!(self.slots.get(*index), Some(Some(_))))
            .fold(self.slot_value(node, 0), |total, (index, score)| {
                let value = self.normalized(node, index, bounds);
                total.saturating_add(crate::math::saturating_mul(value, score.weight))
            })
    }

    /// Per score, the lowest and highest value among the nodes that fit.
    fn feasible_bounds(&self) -> Vec<(i64, i64)> {
        let fitting = (0..self.codes.len()).filter(|&node| self.fits(node));
        self.bounds_over(fitting)
    }

    /// Per score, the lowest and highest value among `nodes` where its normalisation
    /// reads them (the highest for `Normalize`, both for `MinMax`; 0 among no nodes, as
    /// upstream takes it), else 0.
    fn bounds_over(&self, nodes: impl Iterator<Item = usize> + Clone) -> Vec<(i64, i64)> {
        self.scores
            .iter()
            .enumerate()
            .map(|(index, score)| {
                let values = nodes.clone().map(|node| self.value(node, index));
                match score.reduce {
                    Reduce::Normalize { .. } => (0, values.max().unwrap_or(0)),
                    Reduce::MinMax { .. } => values
                        .fold(None, |bounds: Option<(i64, i64)>, value| {
                            Some(bounds.map_or((value, value), |(low, high)| {
                                (low.min(value), high.max(value))
                            }))
                        })
                        .unwrap_or((0, 0)),
                    Reduce::Identity | Reduce::Skip => (0, 0),
                }
            })
            .collect()
    }

    /// Filters and scores one node afresh; true if that may move the normalisation (the
    /// node's fit or a normalised value changed).
    fn evaluate(
        &mut self,
        profile: &dyn Profile,
        cycle: &dyn Cycle,
        snapshot: &Snapshot<'_>,
        node: usize,
    ) -> bool {
        // With a node-only table (never while the class explains: it records reasons), the
        // first failure is the first of the other filters before the node-only one that
        // fails, if any; only the other scores are asked for.
        if let Some(table) = self.node_only.take().filter(|_| self.reasons.is_empty()) {
            let (at, failed) = table.failures.get(node).copied().unwrap_or(PASSES);
            let code = cycle
                .first_failure_at(snapshot, node, false, at)
                .map_or(failed, |(_, code)| code);
            let moved = self.record(cycle, snapshot, node, code, Vec::new(), |index| {
                table.value(node, index)
            });
            self.node_only = Some(table);
            return moved;
        }
        let mut verdict = NodeVerdict::default();
        // Past the first failure only alwaysCheckAllPredicates looks (`node_verdict`), so
        // the filters after it need not run, nor their verdicts be collected.
        let results = if profile.check_all() {
            cycle.filter(snapshot, node)
        } else {
            cycle.first_failure(snapshot, node).into_iter().collect()
        };
        let (code, _) = node_verdict(profile, results, false, &mut verdict);
        self.record(cycle, snapshot, node, code, verdict.reasons, |_| None)
    }

    /// Keeps a node's code, its reasons (while the class explains) and, where it fits,
    /// its score values (`known` gives those already found, the cycle the others); true
    /// if that may move the normalisation.
    fn record(
        &mut self,
        cycle: &dyn Cycle,
        snapshot: &Snapshot<'_>,
        node: usize,
        code: Code,
        reasons: Vec<String>,
        known: impl Fn(usize) -> Option<i64>,
    ) -> bool {
        let Some(slot) = self.codes.get_mut(node) else {
            return false;
        };
        let before = core::mem::replace(slot, code);
        if let Some(kept) = self.reasons.get_mut(node) {
            for reason in kept.iter() {
                let at = self
                    .reason_counts
                    .iter()
                    .position(|(known, _)| known == reason);
                if let Some(at) = at {
                    if let Some((_, count)) = self.reason_counts.get_mut(at) {
                        *count = count.saturating_sub(1);
                        if *count == 0 {
                            self.reason_counts.swap_remove(at);
                        }
                    }
                }
            }
            for reason in &reasons {
                match self
                    .reason_counts
                    .iter_mut()
                    .find(|(known, _)| known == reason)
                {
                    Some((_, count)) => *count = count.saturating_add(1),
                    None => self.reason_counts.push((reason.clone(), 1)),
                }
            }
            *kept = reasons;
        }
        match (before == Code::Error, code == Code::Error) {
            (false, true) => self.errors = self.errors.saturating_add(1),
            (true, false) => self.errors = self.errors.saturating_sub(1),
            _ => {}
        }
        let mut moved = (before == Code::Success) != (code == Code::Success);
        if code == Code::Success {
            let start = node.saturating_mul(self.width);
            let mut identity = 0i64;
            for ((index, score), slot) in self.scores.iter().enumerate().zip(&self.slots) {
                match (score.reduce, slot) {
                    (Reduce::Skip, _) => {}
                    (Reduce::Identity, _) => {
                        let value = known(index)
                            .unwrap_or_else(|| cycle.node_local_value(snapshot, node, index));
                        identity = identity
                            .saturating_add(crate::math::saturating_mul(value, score.weight));
                    }
                    (_, Some(slot)) => {
                        let value = known(index)
                            .unwrap_or_else(|| cycle.node_local_value(snapshot, node, index));
                        if let Some(kept) = self.values.get_mut(start.saturating_add(*slot)) {
                            moved |= *kept != value;
                            *kept = value;
                        }
                    }
                    (_, None) => {}
                }
            }
            if let Some(kept) = self.values.get_mut(start) {
                *kept = identity;
            }
        }
        moved
    }
}

/// A digest of what [`alike_by_spec`] compares first (priority, QoS class and requests):
/// pods alike by spec have the same, so the classes of other digests are passed over
/// without comparing their specs (pods of many templates alternate in the queue).
fn request_digest(entry: &PodEntry) -> u64 {
    let mut digest = crate::digest::fnv1a(crate::digest::EMPTY, &entry.priority.to_le_bytes());
    digest = crate::digest::fnv1a(digest, &[entry.qos as u8]);
    for (name, quantity) in entry.requests.iter() {
        digest = crate::digest::fnv1a(digest, name.as_bytes());
        digest = crate::digest::fnv1a(digest, &quantity.milli_value().to_le_bytes());
    }
    digest
}

/// True if two pods look the same to every filter and node-local score: the same spec
/// (but for fields no plugin reads), namespace, labels, annotations, owners, effective
/// requests, priority and QoS class. Pod names, uids and timestamps differ within a
/// template and are read by none of them.
#[must_use]
pub fn equivalent(a: &PodEntry, b: &PodEntry) -> bool {
    let (left, right) = (&a.pod.metadata, &b.pod.metadata);
    // Owners and labels first: they tell templates apart at a glance, and pods of many
    // templates with one spec meet here (the replacements of many owners).
    left.owner_references == right.owner_references
        && left.labels == right.labels
        && left.namespace == right.namespace
        && left.annotations == right.annotations
        && alike_by_spec(a, b)
}

/// True if two pods look the same to a cycle that reads nothing but the pod's spec
/// ([`Cycle::reads_only_its_spec`]): labels, annotations and owners may differ, and the
/// namespace too unless a volume names a claim (claims are looked up in it).
fn alike_by_spec(a: &PodEntry, b: &PodEntry) -> bool {
    alike(a, b, Images::Compared)
}

/// [`alike_by_spec`], whatever images the containers run.
fn alike_but_images(a: &PodEntry, b: &PodEntry) -> bool {
    alike(a, b, Images::Ignored)
}

/// Whether a comparison of specs looks at the containers' images.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Images {
    Compared,
    Ignored,
}

fn alike(a: &PodEntry, b: &PodEntry, images: Images) -> bool {
    let claims =
        |entry: &PodEntry| {
            entry.pod.spec.volumes.iter().any(|volume| {
                volume.persistent_volume_claim.is_some() || volume.ephemeral.is_some()
            })
        };
    a.priority == b.priority
        && a.qos == b.qos
        && a.requests == b.requests
        && same_spec(a, b, images)
        && (a.pod.metadata.namespace == b.pod.metadata.namespace || !(claims(a) || claims(b)))
        && same_resize(a, b)
}

/// True if the two pods count the same in 1.34's scores, which read what the kubelet
/// reports of an in-place resize ([`Accounting::scored`]) where [`same_spec`] does not
/// look. Pods not yet started report nothing.
fn same_resize(a: &PodEntry, b: &PodEntry) -> bool {
    let reports_nothing =
        |entry: &PodEntry| entry.pod.status.container_statuses.as_slice().is_empty();
    (reports_nothing(a) && reports_nothing(b))
        || Accounting::Current.scored(a) == Accounting::Current.scored(b)
}

/// The specs are equal but for what no filter or score of either profile reads: the
/// names of containers and ports, the pod's restart policy and termination grace period,
/// and the volumes without a disk (config maps, secrets, emptyDir, hostPath), which only
/// the kubelet and the descheduler look at; the disks are compared in order, with their
/// names (a conflict's message names them). Replacements of templates that differ only
/// there (a config volume, a Job's restart policy) then share one class. Scheduling gates
/// are not compared either: a gated pod never reaches the cache.
/// (Destructured so that a field added to `PodSpec` must be placed here.) Tolerations
/// are compared as the entries share them first: pods with one list share one copy.
fn same_spec(first: &PodEntry, second: &PodEntry, images: Images) -> bool {
    let (a, b) = (&first.pod.spec, &second.pod.spec);
    let PodSpec {
        node_name,
        node_selector,
        affinity,
        tolerations,
        containers,
        init_containers,
        overhead,
        resources,
        priority,
        priority_class_name,
        preemption_policy,
        scheduler_name,
        termination_grace_period_seconds: _,
        volumes,
        host_network,
        restart_policy: _,
        topology_spread_constraints,
        scheduling_gates: _,
    } = a;
    *node_name == b.node_name
        && *node_selector == b.node_selector
        && *affinity == b.affinity
        && (Arc::ptr_eq(&first.deletion.tolerations, &second.deletion.tolerations)
            || *tolerations == b.tolerations)
        && same_containers(containers, &b.containers, images)
        && same_containers(init_containers, &b.init_containers, images)
        && *overhead == b.overhead
        && *resources == b.resources
        && *priority == b.priority
        && *priority_class_name == b.priority_class_name
        && *preemption_policy == b.preemption_policy
        && *scheduler_name == b.scheduler_name
        && same_disks(volumes, &b.volumes)
        && *host_network == b.host_network
        && *topology_spread_constraints == b.topology_spread_constraints
}

fn same_containers(a: &[Container], b: &[Container], images: Images) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            let Container {
                name: _,
                image,
                resources,
                ports,
                restart_policy,
            } = x;
            (images == Images::Ignored || *image == y.image)
                && *resources == y.resources
                && *restart_policy == y.restart_policy
                && ports.len() == y.ports.len()
                && ports.iter().zip(&y.ports).all(|(p, q)| {
                    let ContainerPort {
                        name: _,
                        container_port,
                        host_port,
                        protocol,
                        host_ip,
                    } = p;
                    *container_port == q.container_port
                        && *host_port == q.host_port
                        && *protocol == q.protocol
                        && *host_ip == q.host_ip
                })
        })
}

/// The disk volumes of `a` and `b` are the same, in the same order.
fn same_disks(a: &[Volume], b: &[Volume]) -> bool {
    let mut left = a.iter().filter(|volume| is_disk(volume));
    let mut right = b.iter().filter(|volume| is_disk(volume));
    loop {
        match (left.next(), right.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if same_volume(x, y) => {}
            _ => return false,
        }
    }
}

/// A volume some filter reads: a claim, an ephemeral claim or an in-tree disk.
fn is_disk(volume: &Volume) -> bool {
    volume.persistent_volume_claim.is_some()
        || volume.gce_persistent_disk.is_some()
        || volume.aws_elastic_block_store.is_some()
        || volume.azure_disk.is_some()
        || volume.rbd.is_some()
        || volume.iscsi.is_some()
        || volume.cinder.is_some()
        || volume.ephemeral.is_some()
}

/// Two disk volumes are the same, names included.
fn same_volume(a: &Volume, b: &Volume) -> bool {
    let Volume {
        name,
        empty_dir,
        host_path,
        persistent_volume_claim,
        gce_persistent_disk,
        aws_elastic_block_store,
        azure_disk,
        rbd,
        iscsi,
        cinder,
        ephemeral,
    } = a;
    // Disk volumes' names appear in messages, and an ephemeral volume's names its claim.
    *name == b.name
        && *empty_dir == b.empty_dir
        && *host_path == b.host_path
        && *persistent_volume_claim == b.persistent_volume_claim
        && *gce_persistent_disk == b.gce_persistent_disk
        && *aws_elastic_block_store == b.aws_elastic_block_store
        && *azure_disk == b.azure_disk
        && *rbd == b.rbd
        && *iscsi == b.iscsi
        && *cinder == b.cinder
        && *ephemeral == b.ephemeral
}

#[cfg(test)]
mod tests {
    use super::{alike_but_images, alike_by_spec, request_digest};
    use crate::cluster::{PodEntry, PodState};
    use crate::model::{PersistentVolumeClaimVolumeSource, Pod, Present, Volume};
    use crate::schedule::predicates::testing::pod;

    /// What no filter or score reads leaves two pods alike: their restart policy, grace
    /// period and volumes without a disk. A claim, or its name, tells them apart.
    #[test]
    fn specs_alike_but_for_what_no_plugin_reads_share_a_class() {
        let entry = |pod: Pod| PodEntry::new(pod, PodState::Pending, 0);
        let volume = |name: &str| Volume {
            name: name.into(),
            ..Volume::default()
        };
        let claim = |name: &str| Volume {
            persistent_volume_claim: Some(PersistentVolumeClaimVolumeSource {
                claim_name: "data".into(),
                read_only: false,
            }),
            ..volume(name)
        };
        let base = pod("a", &[(Some("100m"), Some("64Mi"))]);
        let mut other = pod("b", &[(Some("100m"), Some("64Mi"))]);
        other.spec.restart_policy = "Never".into();
        other.spec.termination_grace_period_seconds = Some(5);
        other.spec.volumes = alloc::vec![
            volume("config"),
            Volume {
                host_path: Some(Present),
                ..volume("logs")
            },
        ];
        assert!(alike_by_spec(&entry(base.clone()), &entry(other.clone())));
        let mut with_claim = base.clone();
        with_claim.spec.volumes = alloc::vec![claim("data")];
        assert!(!alike_by_spec(
            &entry(base.clone()),
            &entry(with_claim.clone())
        ));
        other.spec.volumes.push(claim("data"));
        assert!(alike_by_spec(
            &entry(with_claim.clone()),
            &entry(other.clone())
        ));
        other.spec.volumes = alloc::vec![claim("state")];
        assert!(!alike_by_spec(&entry(with_claim), &entry(other)));
    }

    /// A pending pod whose status reports an in-place resize scores by it (1.34's
    /// `calculatePodResourceRequest`): it shares a class only with pods that score the
    /// same, whatever its spec.
    #[test]
    fn a_reported_resize_tells_pods_apart() {
        use crate::model::{ContainerStatus, ContainerStatuses, StatusResources};
        use crate::schedule::predicates::testing::list;
        let entry = |pod: Pod| PodEntry::new(pod, PodState::Pending, 0);
        let reporting = |cpu: &str| {
            let mut pod = pod("r", &[(Some("100m"), Some("64Mi"))]);
            pod.status.container_statuses = ContainerStatuses::from(alloc::vec![ContainerStatus {
                name: alloc::string::String::new(),
                resources: Some(StatusResources {
                    requests: list(&[("cpu", cpu)]),
                }),
                ..ContainerStatus::default()
            }]);
            pod
        };
        let base = pod("a", &[(Some("100m"), Some("64Mi"))]);
        // A status within the spec changes no score.
        assert!(alike_by_spec(
            &entry(base.clone()),
            &entry(reporting("100m"))
        ));
        assert!(!alike_by_spec(&entry(base), &entry(reporting("900m"))));
        assert!(alike_by_spec(
            &entry(reporting("900m")),
            &entry(reporting("900m"))
        ));
    }

    /// Image siblings: pods alike but for their containers' images (which only
    /// ImageLocality reads); any other difference, even in the sidecar's requests, is not.
    #[test]
    fn image_siblings_differ_in_images_alone() {
        let entry = |pod: Pod| PodEntry::new(pod, PodState::Pending, 0);
        let base = pod("a", &[(Some("100m"), Some("64Mi")), (Some("10m"), None)]);
        let mut other = pod("b", &[(Some("100m"), Some("64Mi")), (Some("10m"), None)]);
        other.spec.containers[0].image = "registry.example/app:2".into();
        other.spec.containers[1].image = "registry.example/proxy:2".into();
        assert!(!alike_by_spec(&entry(base.clone()), &entry(other.clone())));
        assert!(alike_but_images(
            &entry(base.clone()),
            &entry(other.clone())
        ));
        let bigger = pod("c", &[(Some("100m"), Some("64Mi")), (Some("20m"), None)]);
        assert!(!alike_but_images(&entry(base), &entry(bigger)));
    }

    /// Requests equal in value but spelled differently have one digest (the cache would
    /// otherwise keep two classes for one spec), and different requests differ.
    #[test]
    fn request_digests_read_values_not_spellings() {
        let digest = |containers: &[(Option<&str>, Option<&str>)]| {
            request_digest(&PodEntry::new(pod("p", containers), PodState::Pending, 0))
        };
        assert_eq!(
            digest(&[(Some("1"), Some("1Ki"))]),
            digest(&[(Some("1000m"), Some("1024"))])
        );
        assert_ne!(
            digest(&[(Some("1"), Some("1Ki"))]),
            digest(&[(Some("1"), Some("1k"))])
        );
    }
}
