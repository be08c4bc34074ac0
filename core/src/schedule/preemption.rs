//! Preemption: when nothing fits, which lower-priority pods to evict, and where.
//!
//! Follows `pkg/scheduler/core/generic_scheduler.go` (1.11, `preempt`,
//! `selectVictimsOnNode`, `pickOneNodeForPreemption`) and
//! `pkg/scheduler/framework/preemption/preemption.go` with
//! `plugins/defaultpreemption/default_preemption.go` (1.34):
//! 1. only nodes whose rejection removing pods could resolve are candidates;
//! 2. on each, every pod of lower priority is removed; if the pod still does not fit, the
//!    node is out; otherwise victims are reprieved one by one, those whose eviction would
//!    violate a PodDisruptionBudget first, most important first, keeping each reprieve
//!    that still lets the pod fit;
//! 3. the node is chosen by: fewest budget violations, lowest highest-victim priority,
//!    lowest sum of victim priorities, fewest victims, (1.34) latest earliest start time,
//!    then the first candidate in node order (upstream: map order).
//!
//! The victims are evicted in the simulation, and the preemptor is placed as its next
//! scheduling attempt would place it.
//!
//! A node's dry run depends only on the pod and that node's pods when the pod's cycle does
//! not depend on other pods, so the dry runs of the last preemptor are kept ([`DryRuns`])
//! and run again only on nodes whose pods changed: a queue of preemptors of one template
//! costs what each changes, not nodes times preemptors.

use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use super::snapshot::Snapshot;
use super::status::Code;
use super::{message, Cycle, Prepared, Profile, Version};
use crate::cluster::PodEntry;
use crate::eviction::budget;
use crate::go_sort::{self, Toolchain};
use crate::report::scheduling::{Outcome, Placement, Preemption, Victim};
use crate::timestamp::{self, Instant};

/// 1.34's reason for nodes preemption cannot help.
pub const NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";
/// 1.34's reason for nodes without lower-priority pods.
pub const NO_VICTIMS: &str = "No preemption victims found for incoming pod";
/// 1.34's message for pods with `preemptionPolicy: Never`.
pub const POLICY_NEVER: &str = "not eligible due to preemptionPolicy=Never.";
/// 1.34's reason when a lower-priority pod it preempted is still terminating on the pod's
/// nominated node.
pub const TERMINATING_VICTIM: &str = "not eligible due to a terminating pod on the nominated node.";

/// Victims chosen on one node.
#[derive(Clone, Debug)]
struct Candidate {
    node: usize,
    /// Pod indexes, in upstream's order.
    victims: Vec<usize>,
    /// Which victims violate a budget.
    violating: Vec<bool>,
    /// `pickOneNodeForPreemption`'s ordered criteria, each higher for a better node:
    /// fewest violations, lowest highest-victim priority, lowest sum of priorities,
    /// fewest victims (the sequence of choices is the lexicographic maximum).
    rank: [i64; 4],
    /// 1.34's last criterion: the earliest start among the highest-priority victims
    /// (`GetEarliestPodStartTime`; the latest wins).
    earliest: Option<Started>,
}

/// A node's dry run: its victims, or why it is no candidate.
type DryRun = Result<Candidate, Vec<String>>;

/// The dry runs of the last preemptor, kept per node for the next pod of its template: a
/// node's dry run depends on the pod and that node's pods alone when the pod's cycle does
/// not depend on other pods (budgets' allowances are read from the input, or from the
/// status the timeline writes for its round, as upstream reads the budgets' status), so
/// it is run again only on nodes whose pods changed.
#[derive(Default)]
pub struct DryRuns {
    /// The pod they were run for.
    pod: Option<usize>,
    /// Per node, the node's [`Snapshot::node_version`] after the dry run, and its outcome.
    runs: Vec<Option<(u64, DryRun)>>,
}

impl DryRuns {
    /// Keeps the runs if they were made for a pod equivalent to `pod`, else forgets them.
    fn prepare_for(&mut self, snapshot: &Snapshot<'_>, pod: usize) {
        let same = self
            .pod
            .and_then(|known| snapshot.pod(known))
            .zip(snapshot.pod(pod))
            .is_some_and(|(known, entry)| super::equivalence::equivalent(known, entry));
        if !same || self.runs.len() != snapshot.nodes.len() {
            self.runs.clear();
            self.runs.resize(snapshot.nodes.len(), None);
        }
        self.pod = Some(pod);
    }

    /// The node's run, if the node's pods are the ones it was made with.
    fn current(
        &self,
        snapshot: &Snapshot<'_>,
        node: usize,
    ) -> Option<&Result<Candidate, Vec<String>>> {
        let (version, run) = self.runs.get(node)?.as_ref()?;
        (*version == snapshot.node_version(node)).then_some(run)
    }
}

/// Runs preemption for a pod that fits nowhere; records it in `placement` and, when it
/// succeeds, evicts the victims and places the pod. `dry_runs` are reused only with
/// `reuse` (placement does not while the report records every node's verdict, so the
/// differential test of the equivalence cache checks the reuse too).
pub fn preempt(
    profile: &dyn Profile,
    snapshot: &mut Snapshot<'_>,
    pod: usize,
    codes: &[Code],
    placement: &mut Placement,
    dry_runs: &mut DryRuns,
    reuse: bool,
) {
    let version = profile.version();
    let Some(entry) = snapshot.pod(pod) else {
        return;
    };
    let node_count = snapshot.nodes.len();
    if version == Version::Current && entry.pod.spec.preemption_policy.as_deref() == Some("Never") {
        append_post_filter(
            profile,
            placement,
            &alloc::format!("preemption: {POLICY_NEVER}"),
        );
        return;
    }
    if terminating_victim(version, snapshot, pod, codes) {
        if version == Version::Current {
            append_post_filter(
                profile,
                placement,
                &alloc::format!("preemption: {TERMINATING_VICTIM}"),
            );
        }
        return;
    }
    // One cycle for every dry run when it does not depend on the pods being removed;
    // then the dry runs of the last pod of the same template are reused where nothing
    // changed.
    let shared = match profile.prepare(snapshot, pod) {
        Prepared::Filter { cycle, .. } if cycle.independent_of_other_pods() => Some(cycle),
        _ => None,
    };
    // Pods nominated to a node, of at least the pod's priority, take their room in its
    // dry run too (1.34 `SelectVictimsOnNode` filters with `RunFilterPluginsWithNominatedPods`,
    // 1.11 `selectVictimsOnNode` with `podFitsOnNode` and the queue).
    let nominated = super::nominated_pods(snapshot, pod);
    if shared.is_some() && reuse && nominated.is_empty() {
        dry_runs.prepare_for(snapshot, pod);
    } else {
        dry_runs.pod = None;
        dry_runs.runs.clear();
        dry_runs.runs.resize(node_count, None);
    }
    for (node, code) in codes.iter().enumerate() {
        if *code != Code::Unschedulable || dry_runs.current(snapshot, node).is_some() {
            continue;
        }
        let others = nominated.get(&node).map_or(&[][..], Vec::as_slice);
        let run = select_victims(profile, shared.as_deref(), snapshot, pod, others, node);
        let version = snapshot.node_version(node);
        if let Some(slot) = dry_runs.runs.get_mut(node) {
            *slot = Some((version, run));
        }
    }
    // The outcome of each node that was a candidate for a dry run.
    let run_of = |node: usize| {
        (codes.get(node) == Some(&Code::Unschedulable))
            .then(|| dry_runs.current(snapshot, node))
            .flatten()
    };
    let candidates: Vec<&Candidate> = (0..node_count)
        .filter_map(|node| run_of(node)?.as_ref().ok())
        .collect();
    let Some(chosen) = pick_node(version, &candidates) else {
        if version == Version::Current {
            // Reasons per node for the nested message; nodes not dry-run are "not
            // helpful".
            let not_helpful = [String::from(NOT_HELPFUL)];
            let reasons = (0..node_count).flat_map(|node| match run_of(node) {
                Some(Err(reasons)) => reasons.as_slice(),
                _ => &not_helpful[..],
            });
            let nested = message::framework(node_count, None, reasons.map(String::as_str), None);
            append_post_filter(profile, placement, &alloc::format!("preemption: {nested}"));
        }
        placement.preemption = Some(Preemption {
            message: Some(String::from(
                "no node where evicting lower-priority pods makes the pod fit",
            )),
            ..Preemption::default()
        });
        // The pod's own nomination goes (1.34 `Preempt` returns an empty nominated node;
        // 1.11 `Preempt` asks to clear it only when no node was worth a dry run).
        if version == Version::Current || !codes.contains(&Code::Unschedulable) {
            snapshot.clear_nomination(pod);
        }
        return;
    };
    let Some(candidate) = candidates.get(chosen).map(|&candidate| candidate.clone()) else {
        return;
    };
    let node_name: String = snapshot
        .nodes
        .get(candidate.node)
        .map(|info| info.name().into())
        .unwrap_or_default();
    let mut report = Preemption {
        node: Some(node_name.clone()),
        ..Preemption::default()
    };
    for (position, &victim) in candidate.victims.iter().enumerate() {
        let Some(victim_entry) = snapshot.pod(victim) else {
            continue;
        };
        let violates = candidate.violating.get(position).copied().unwrap_or(false);
        report.victims.push(Victim {
            pod: alloc::format!(
                "{}/{}",
                victim_entry.pod.metadata.namespace,
                victim_entry.pod.metadata.name
            ),
            priority: victim_entry.priority,
            grace_period_seconds: victim_entry
                .pod
                .spec
                .termination_grace_period_seconds
                .unwrap_or(30),
            violates_disruption_budget: violates,
        });
        if violates {
            for budget in matching_budgets(snapshot, victim_entry) {
                if !report.violated_disruption_budgets.contains(&budget) {
                    report.violated_disruption_budgets.push(budget);
                }
            }
        }
    }
    // A victim is deleted: it leaves the queue too, and a nomination it carried in
    // from the input holds no more room.
    for &victim in &candidate.victims {
        snapshot.unbind(victim);
        snapshot.clear_nomination(victim);
    }
    // Pods of lower priority nominated to that node lose their nomination and are
    // scheduled afresh (`getLowerPriorityNominatedPods`, then `clearNominatedNodeName`
    // in 1.34's `prepareCandidate` and 1.11's `preempt`).
    let lower: Vec<usize> = snapshot
        .nominated
        .iter()
        .copied()
        .filter(|&other| {
            snapshot.nomination(other) == Some(node_name.as_str())
                && snapshot.assigned.get(other).is_some_and(Option::is_none)
                && snapshot
                    .pod(other)
                    .is_some_and(|waiting| waiting.priority < entry.priority)
        })
        .collect();
    for other in lower {
        if let Some(waiting) = snapshot.pod(other) {
            report.cleared_nominations.push(alloc::format!(
                "{}/{}",
                waiting.pod.metadata.namespace,
                waiting.pod.metadata.name
            ));
        }
        snapshot.clear_nomination(other);
    }
    placement.outcome = Outcome::Nominated;
    placement.nominated_node = Some(node_name);
    placement.preemption = Some(report);
    // The next attempt: 1.34 tries the nominated node first and takes it if it fits,
    // which it does now that nothing else changed. 1.11 runs a full cycle, which may
    // score another node higher ([`comes_back`]).
    if !full_next_cycle(version, snapshot, pod) {
        if let Some(cycle) = fitting_cycle(profile, snapshot, pod, candidate.node) {
            placement.node = placement.nominated_node.clone();
            snapshot.bind(pod, candidate.node);
            cycle.reserve(snapshot, candidate.node);
        }
    }
}

/// Whether a 1.11 preemptor comes back for its next attempt at once: its victims are
/// gone and it fits its nominated node. That attempt is a full cycle (1.11 has no
/// nominated-node shortcut: `evaluateNominatedNode` came in 1.19), so with a domain freed
/// other nodes may fit too and score higher.
pub fn comes_back(profile: &dyn Profile, snapshot: &Snapshot<'_>, pod: usize, node: &str) -> bool {
    let node = snapshot.nodes.iter().position(|info| info.name() == node);
    full_next_cycle(profile.version(), snapshot, pod)
        && node.is_some_and(|node| fitting_cycle(profile, snapshot, pod, node).is_some())
}

/// Whether the preemptor's next attempt runs as a full cycle ([`comes_back`]): under
/// 1.11, unless pods nominated elsewhere of its priority or more take room in that cycle.
/// Then a node it fits alone may not fit in the cycle, whose failure would preempt again
/// where upstream waits for its victims to go; kubefit places it on its nominated node, as
/// 1.34 does.
fn full_next_cycle(version: Version, snapshot: &Snapshot<'_>, pod: usize) -> bool {
    version == Version::Legacy && super::nominated_pods(snapshot, pod).is_empty()
}

/// The pod's cycle, if the pod passes every filter on `node`.
fn fitting_cycle<'p>(
    profile: &'p dyn Profile,
    snapshot: &Snapshot<'p>,
    pod: usize,
    node: usize,
) -> Option<alloc::boxed::Box<dyn Cycle + 'p>> {
    match profile.prepare(snapshot, pod) {
        Prepared::Filter { cycle, .. } => {
            let fits = (cycle.filter(snapshot, node).iter()).all(|(_, status)| status.passed());
            fits.then_some(cycle)
        }
        _ => None,
    }
}

/// `PodEligibleToPreemptOthers`: a pod nominated to a node where a lower-priority pod is
/// terminating waits for it rather than preempt again. 1.11 counts any terminating pod;
/// 1.34 only one the scheduler preempted (`podTerminatingByPreemption`: a true
/// `DisruptionTarget` condition for `PreemptionByScheduler`), and not when the nominated
/// node now fails for good.
fn terminating_victim(
    version: Version,
    snapshot: &Snapshot<'_>,
    pod: usize,
    codes: &[Code],
) -> bool {
    let (Some(entry), Some(nominated)) = (snapshot.pod(pod), snapshot.nomination(pod)) else {
        return false;
    };
    let Some(node) = snapshot
        .nodes
        .iter()
        .position(|info| info.name() == nominated)
    else {
        return false;
    };
    if version == Version::Current && codes.get(node) == Some(&Code::UnschedulableAndUnresolvable) {
        return false;
    }
    snapshot.pods_on(node).any(|(_, other)| {
        other.priority < entry.priority
            && other.pod.metadata.deletion_timestamp.is_some()
            && (version == Version::Legacy || other.pod.status.conditions.preempted_by_scheduler)
    })
}

/// The PostFilter text when DefaultPreemption is off: the other PostFilter plugins still
/// run (`RunPostFilterPlugins`), so DynamicResources' text stands alone.
pub fn without_preemption(profile: &dyn Profile, placement: &mut Placement) {
    if let (Some(message), Some(text)) = (placement.message.as_mut(), profile.post_filter_prefix())
    {
        message.push(' ');
        message.push_str(text);
    }
}

/// Appends the PostFilter text to the 1.34 message: ` <texts of every PostFilter plugin,
/// joined by ", ">` (`RunPostFilterPlugins`); DynamicResources runs before
/// DefaultPreemption and, for a pod without claims, says `no new claims to deallocate`.
fn append_post_filter(profile: &dyn Profile, placement: &mut Placement, text: &str) {
    if let Some(message) = placement.message.as_mut() {
        message.push(' ');
        if let Some(before) = profile.post_filter_prefix() {
            message.push_str(before);
            message.push_str(", ");
        }
        message.push_str(text);
    }
}

/// Whether the pod passes every filter on the node as the snapshot stands now, with the
/// `nominated` pods there ([`super::filter_with_nominated`]); the failing filter's reasons
/// otherwise.
///
/// `shared` is a cycle prepared once for the whole preemption when nothing in it depends
/// on other pods; otherwise each check prepares one as the snapshot now stands.
fn fits(
    profile: &dyn Profile,
    shared: Option<&dyn Cycle>,
    snapshot: &mut Snapshot<'_>,
    pod: usize,
    node: usize,
    nominated: &[usize],
) -> Result<(), Vec<String>> {
    let prepared;
    let cycle = match shared {
        Some(cycle) => cycle,
        None => match profile.prepare(snapshot, pod) {
            Prepared::Filter { cycle, .. } => {
                prepared = cycle;
                &*prepared
            }
            Prepared::Rejected(status) => return Err(status.reasons),
            Prepared::Error(error) => return Err(alloc::vec![error]),
        },
    };
    let results = match nominated {
        [] => cycle.filter(snapshot, node),
        others => super::filter_with_nominated(profile, cycle, snapshot, pod, node, others),
    };
    match results.into_iter().find(|(_, status)| !status.passed()) {
        None => Ok(()),
        Some((_, status)) => Err(status.reasons),
    }
}

/// `selectVictimsOnNode`: the victims on one node, or why the node is no candidate.
fn select_victims(
    profile: &dyn Profile,
    shared: Option<&dyn Cycle>,
    snapshot: &mut Snapshot<'_>,
    pod: usize,
    nominated: &[usize],
    node: usize,
) -> Result<Candidate, Vec<String>> {
    let version = profile.version();
    let Some(entry) = snapshot.pod(pod) else {
        return Err(Vec::new());
    };
    let mut potential: Vec<usize> = snapshot
        .pods_on(node)
        .filter(|(_, other)| other.priority < entry.priority)
        .map(|(index, _)| index)
        .collect();
    if potential.is_empty() && version == Version::Current {
        return Err(alloc::vec![String::from(NO_VICTIMS)]);
    }
    let order = snapshot.pod_order(node);
    for &victim in &potential {
        snapshot.unbind(victim);
    }
    snapshot.dry_run_removed = potential
        .iter()
        .filter(|&&victim| {
            version == Version::Legacy
                || snapshot
                    .pod(victim)
                    .is_some_and(|other| other.pod.metadata.deletion_timestamp.is_some())
        })
        .map(|&victim| (victim, node))
        .collect();
    snapshot.dry_run_victims.clone_from(&potential);
    let restore = |snapshot: &mut Snapshot<'_>, pods: &[usize]| {
        for &victim in pods {
            snapshot.bind(victim, node);
        }
        snapshot.dry_run_removed.clear();
        snapshot.dry_run_victims.clear();
    };
    if let Err(reasons) = fits(profile, shared, snapshot, pod, node, nominated) {
        restore(snapshot, &potential);
        snapshot.restore_order(node, order);
        return Err(reasons);
    }
    sort_by_importance(version, snapshot, &mut potential);
    let violating = violating_budgets(version, snapshot, &potential);
    type Flagged = Vec<(usize, bool)>;
    let (violators, others): (Flagged, Flagged) = potential
        .iter()
        .copied()
        .zip(violating)
        .partition(|(_, violates)| *violates);
    let mut victims = Vec::new();
    let mut flags = Vec::new();
    let mut violations = 0;
    for (victim, violates) in violators.iter().chain(&others) {
        snapshot.bind(*victim, node);
        // Back through `AddPod`, which counts it again.
        let removed = snapshot
            .dry_run_removed
            .iter()
            .position(|&(other, _)| other == *victim)
            .map(|at| snapshot.dry_run_removed.remove(at));
        snapshot.dry_run_victims.retain(|other| other != victim);
        if fits(profile, shared, snapshot, pod, node, nominated).is_err() {
            snapshot.unbind(*victim);
            snapshot.dry_run_removed.extend(removed);
            snapshot.dry_run_victims.push(*victim);
            victims.push(*victim);
            flags.push(*violates);
            if *violates {
                violations += 1;
            }
        }
    }
    if version == Version::Current && !violators.is_empty() && !others.is_empty() {
        sort_by_importance(version, snapshot, &mut victims);
        flags = victims
            .iter()
            .map(|victim| violators.iter().any(|(pod, _)| pod == victim))
            .collect();
    }
    // Leave the node as it was: the dry run changes nothing.
    restore(snapshot, &victims);
    snapshot.restore_order(node, order);
    let rank = rank(snapshot, &victims, violations);
    let earliest = earliest_start(snapshot, &victims);
    Ok(Candidate {
        node,
        victims,
        violating: flags,
        rank,
        earliest,
    })
}

/// `GetEarliestPodStartTime`: the earliest start among the victims of the highest
/// priority; a victim without one started "now", so a node whose top victims all lack
/// one wins over any with a recorded start.
fn earliest_start(snapshot: &Snapshot<'_>, victims: &[usize]) -> Option<Started> {
    let priority = |pod: usize| snapshot.pod(pod).map(|entry| entry.priority);
    let top = priority(*victims.first()?);
    victims
        .iter()
        .filter(|&&victim| priority(victim) == top)
        .filter_map(|&victim| snapshot.pod(victim))
        .map(start_time)
        .min()
}

/// A candidate's [`Candidate::rank`].
fn rank(snapshot: &Snapshot<'_>, victims: &[usize], violations: usize) -> [i64; 4] {
    let priority = |pod: usize| {
        snapshot
            .pod(pod)
            .map_or(0, |entry| i64::from(entry.priority))
    };
    [
        -i64::try_from(violations).unwrap_or(i64::MAX),
        -victims.first().map_or(i64::MIN + 1, |&v| priority(v)),
        // Shifted so every term is positive (upstream adds `MaxInt32 + 1`).
        -victims
            .iter()
            .map(|&v| priority(v) + (i64::from(i32::MAX) + 1))
            .sum::<i64>(),
        -i64::try_from(victims.len()).unwrap_or(i64::MAX),
    ]
}

/// Orders pods most important first, as upstream's sort leaves them: `sort.Slice` as
/// built with Go 1.10 for 1.11 and Go 1.24 for 1.34 ([`go_sort`]), whose orders among
/// equals differ from each other and from a stable sort. 1.11 compares priorities alone
/// (`HigherPriorityPod`). 1.34's `MoreImportantPod` then asks which started first, and a
/// pod without `status.startTime` started "now", read afresh at each comparison
/// (`GetPodStartTime`): of two such pods of one priority, whichever is asked about first
/// is the more important. For 12 pods or fewer, 1.34's insertion sort turns a run of such
/// pods into its reverse; 1.11's shell pass moves equals past each other from 7 on.
fn sort_by_importance(version: Version, snapshot: &Snapshot<'_>, pods: &mut [usize]) {
    let priority = |pod: usize| snapshot.pod(pod).map_or(0, |entry| entry.priority);
    // Each pod's priority and start, read once rather than at each comparison.
    let mut keyed: Vec<(usize, i32, Started)> = pods
        .iter()
        .map(|&pod| {
            let started = snapshot.pod(pod).map_or(Started::NOW, start_time);
            (pod, priority(pod), started)
        })
        .collect();
    if version == Version::Legacy {
        go_sort::sort_slice(&mut keyed, Toolchain::Go110, |first, second| {
            first.1 > second.1
        });
    } else {
        // `MoreImportantPod(first, second)`.
        go_sort::sort_slice(
            &mut keyed,
            Toolchain::Go124,
            |(_, first_priority, first), (_, second_priority, second)| match first_priority
                .cmp(second_priority)
            {
                // Both started "now": `first`'s reading is the earlier.
                Ordering::Equal if *first == Started::NOW && *second == Started::NOW => true,
                Ordering::Equal => first < second,
                order => order == Ordering::Greater,
            },
        );
    }
    for (slot, (pod, _, _)) in pods.iter_mut().zip(keyed) {
        *slot = pod;
    }
}

/// When a pod started, ordered as upstream compares `GetPodStartTime`: a recorded
/// `status.startTime` as an instant, and a pod without one started "now", after them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Started(bool, Instant);

impl Started {
    const NOW: Self = Self(true, Instant::EPOCH);
}

/// A pod's [`Started`]. A start time that is not RFC 3339 (the API server would refuse
/// the pod; validation warns) counts as none.
fn start_time(entry: &PodEntry) -> Started {
    (entry.pod.status.start_time.as_deref())
        .and_then(timestamp::parse)
        .map_or(Started::NOW, |instant| Started(false, instant))
}

/// Budgets that cover the victim (`crate::eviction::budget::covers`).
fn matching_budgets(snapshot: &Snapshot<'_>, victim: &PodEntry) -> Vec<String> {
    snapshot
        .cluster
        .disruption_budgets
        .iter()
        .filter(|budget| budget::covers(budget, &victim.pod))
        .map(|budget| alloc::format!("{}/{}", budget.metadata.namespace, budget.metadata.name))
        .collect()
}

/// For each potential victim, whether evicting it violates a budget: 1.11 when a
/// matching budget allows no disruption; 1.34 when a matching budget's remaining
/// allowance, decremented victim by victim, goes negative.
fn violating_budgets(version: Version, snapshot: &Snapshot<'_>, victims: &[usize]) -> Vec<bool> {
    let budgets = &snapshot.cluster.disruption_budgets;
    let mut allowed: Vec<i64> = budgets
        .iter()
        .map(|budget| {
            i64::from(budget::disruptions_allowed(
                budget,
                &snapshot.cluster.pods,
                &snapshot.cluster.workloads,
                version,
            ))
        })
        .collect();
    victims
        .iter()
        .map(|&victim| {
            let Some(entry) = snapshot.pod(victim) else {
                return false;
            };
            let matching = matching_budgets(snapshot, entry);
            let mut violated = false;
            for (index, budget) in budgets.iter().enumerate() {
                let id = alloc::format!("{}/{}", budget.metadata.namespace, budget.metadata.name);
                // A pod the eviction API already let go under the budget is not counted
                // again (1.34 `filterPodsWithPDBViolation` skips `status.disruptedPods`).
                let disrupted = version == Version::Current
                    && budget.status.as_ref().is_some_and(|status| {
                        status
                            .disrupted_pods
                            .contains_key(entry.pod.metadata.name.as_str())
                    });
                if !matching.contains(&id) || disrupted {
                    continue;
                }
                if let Some(left) = allowed.get_mut(index) {
                    match version {
                        Version::Legacy => violated |= *left <= 0,
                        Version::Current => {
                            *left -= 1;
                            violated |= *left < 0;
                        }
                    }
                }
            }
            violated
        })
        .collect()
}

/// `pickOneNodeForPreemption`: the position in `candidates` of the chosen node.
fn pick_node(version: Version, candidates: &[&Candidate]) -> Option<usize> {
    if candidates.is_empty() {
        return None;
    }
    if version == Version::Legacy {
        if let Some(position) = candidates.iter().position(|c| c.victims.is_empty()) {
            return Some(position);
        }
    }
    let best = candidates.iter().map(|candidate| candidate.rank).max()?;
    let remaining: Vec<usize> = (0..candidates.len())
        .filter(|&position| candidates.get(position).map(|c| c.rank) == Some(best))
        .collect();
    if remaining.len() == 1 {
        return remaining.first().copied();
    }
    if version == Version::Current {
        // The latest "earliest start among the highest-priority victims" wins.
        let earliest = |position: usize| candidates.get(position).and_then(|c| c.earliest);
        let best = remaining.iter().map(|&p| earliest(p)).max().flatten();
        if let Some(&position) = remaining.iter().find(|&&p| earliest(p) == best) {
            return Some(position);
        }
    }
    remaining.first().copied()
}

#[cfg(test)]
mod tests {
    use crate::schedule::testing::{node, schedule};
    use crate::schedule::Version;
    use alloc::string::String;
    use alloc::vec::Vec;

    /// Priority classes `low` (100) and `high` (1000), and a `high` preemptor asking for
    /// one CPU.
    const PREEMPTOR: &str = "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 100\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: preemptor, namespace: default}\nspec:\n  priorityClassName: high\n  containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]\n";

    /// A `low` pod on `node` asking for one CPU, with `status` (flow style).
    fn low(name: &str, node: &str, status: &str) -> String {
        alloc::format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  nodeName: {node}\n  priorityClassName: low\n  containers: [{{name: c, image: x, resources: {{requests: {{cpu: '1'}}}}}}]\nstatus: {status}\n"
        )
    }

    /// The preemptor's node and victims.
    fn preemption(yaml: &str, version: Version) -> (Option<String>, Vec<String>) {
        let result = schedule(yaml, version);
        let placement = result
            .pods
            .iter()
            .find(|placement| placement.pod == "default/preemptor")
            .cloned()
            .unwrap_or_else(|| panic!("no preemptor in {:?}", result.pods));
        let victims = placement
            .preemption
            .map(|preemption| preemption.victims.into_iter().map(|v| v.pod).collect())
            .unwrap_or_default();
        (placement.nominated_node, victims)
    }

    /// `MoreImportantPod` reads "now" for each pod without a start time, so of two such
    /// pods the one asked about first is the more important; `sort.Slice`'s insertion
    /// sort then lists them in reverse, and the last-listed pod is reprieved first.
    /// 1.11 compares priorities only and keeps the list order.
    #[test]
    fn victims_without_a_start_time_are_reprieved_last_listed_first() {
        let yaml = node("n1", 2000, 8 << 30, "")
            + &low("a", "n1", "{phase: Running}")
            + &low("b", "n1", "{phase: Running}")
            + PREEMPTOR;
        assert_eq!(
            preemption(&yaml, Version::Current),
            (Some("n1".into()), alloc::vec!["default/a".into()])
        );
        assert_eq!(
            preemption(&yaml, Version::Legacy),
            (Some("n1".into()), alloc::vec!["default/b".into()])
        );
        // With start times, the later-started pod goes under both.
        let yaml = node("n1", 2000, 8 << 30, "")
            + &low(
                "a",
                "n1",
                "{phase: Running, startTime: '2026-01-01T00:00:01Z'}",
            )
            + &low(
                "b",
                "n1",
                "{phase: Running, startTime: '2026-01-01T00:00:00Z'}",
            )
            + PREEMPTOR;
        assert_eq!(
            preemption(&yaml, Version::Current).1,
            alloc::vec![String::from("default/a")]
        );
    }

    /// Victims are ranked by Go's `sort.Slice` as upstream's binaries were built
    /// (`go_sort`). 1.11 (Go 1.10): of eight pods, the seventh of a higher priority, the
    /// shell pass moves the first behind the other equals, so with two to evict it goes
    /// with the last; a stable sort would have evicted the sixth. 1.34 (Go 1.24): twenty
    /// pods without start times, where `MoreImportantPod` always answers yes, leave
    /// pdqsort's order, whose last is the eleventh (an insertion sort's last is the first).
    #[test]
    fn victims_are_ranked_by_go_s_sort() {
        let pods = |count: usize, node_name: &str| {
            (0..count)
                .map(|at| {
                    let class = if count == 8 && at == 6 { "mid" } else { "low" };
                    alloc::format!(
                        "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{at}, namespace: default}}\nspec:\n  nodeName: {node_name}\n  priorityClassName: {class}\n  containers: [{{name: c, image: x, resources: {{requests: {{cpu: '1'}}}}}}]\nstatus: {{phase: Running}}\n"
                    )
                })
                .collect::<String>()
        };
        let mid = "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: mid}\nvalue: 500\n";
        let two_cpus = PREEMPTOR.replace("cpu: '1'", "cpu: '2'");
        let yaml = node("n1", 8000, 64 << 30, "") + &pods(8, "n1") + mid + &two_cpus;
        let mut victims = preemption(&yaml, Version::Legacy).1;
        victims.sort();
        assert_eq!(victims, ["default/p0", "default/p7"]);
        let yaml = node("n1", 20_000, 64 << 30, "") + &pods(20, "n1") + PREEMPTOR;
        assert_eq!(preemption(&yaml, Version::Current).1, ["default/p10"]);
    }

    /// Start times compare as instants (`metav1.Time`), not as text: `a`, started at
    /// 08:00Z written with an offset, is older than `b` at 09:00Z, so `b` is the victim;
    /// likewise when `b` started half a second after `a`.
    #[test]
    fn start_times_compare_as_instants() {
        let victims = |a: &str, b: &str| {
            let yaml = node("n1", 2000, 8 << 30, "")
                + &low(
                    "a",
                    "n1",
                    &alloc::format!("{{phase: Running, startTime: '{a}'}}"),
                )
                + &low(
                    "b",
                    "n1",
                    &alloc::format!("{{phase: Running, startTime: '{b}'}}"),
                )
                + PREEMPTOR;
            preemption(&yaml, Version::Current).1
        };
        let b = alloc::vec![String::from("default/b")];
        assert_eq!(
            victims("2024-01-01T10:00:00+02:00", "2024-01-01T09:00:00Z"),
            b
        );
        assert_eq!(victims("2024-01-01T09:00:00Z", "2024-01-01T09:00:00.5Z"), b);
    }

    /// `pickOneNodeForPreemption`'s last criterion: a victim without a start time started
    /// "now" (`GetPodStartTime`), later than any recorded start, so its node wins.
    #[test]
    fn a_node_whose_victim_has_not_started_wins_the_start_time_criterion() {
        let yaml = node("n1", 1000, 8 << 30, "")
            + &node("n2", 1000, 8 << 30, "")
            + &low(
                "started",
                "n1",
                "{phase: Running, startTime: '2026-01-01T00:00:00Z'}",
            )
            + &low("pending", "n2", "{phase: Running}")
            + PREEMPTOR;
        assert_eq!(
            preemption(&yaml, Version::Current),
            (Some("n2".into()), alloc::vec!["default/pending".into()])
        );
    }

    /// A pod asking for `cpu`, of priority class `class`, pending (no node) unless `node`
    /// is given, with extra spec and status lines.
    fn pod(name: &str, class: &str, cpu: &str, spec: &str, status: &str) -> String {
        alloc::format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: default}}\nspec:\n  priorityClassName: {class}\n  containers: [{{name: c, image: x, resources: {{requests: {{cpu: {cpu}}}}}}}]\n{spec}status: {status}\n"
        )
    }

    /// A pod nominated to the node of at least the preemptor's priority holds its room in
    /// the dry run too: removing the lower-priority pod does not make room for both.
    #[test]
    fn the_dry_run_counts_pods_nominated_to_the_node() {
        let yaml = node("n1", 2000, 8 << 30, "")
            + PREEMPTOR.replace("cpu: '1'", "cpu: 1500m").as_str()
            + &low("low", "n1", "{phase: Running}").replace("cpu: '1'", "cpu: 600m")
            + &pod(
                "waiting",
                "high",
                "'1'",
                "",
                "{phase: Pending, nominatedNodeName: n1}",
            );
        let result = schedule(&yaml, Version::Current);
        let preemptor = &result.pods[0];
        assert_eq!(preemptor.pod, "default/preemptor");
        assert_eq!(preemptor.nominated_node, None);
        assert_eq!(
            preemptor.message.as_deref(),
            Some("0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Insufficient cpu.")
        );
        for version in [Version::Current, Version::Legacy] {
            assert_eq!(
                preemption(&yaml, version),
                (None, Vec::new()),
                "{version:?}"
            );
        }
    }

    /// A nominated pod that preemption cannot help loses its nomination, and the room it
    /// held goes to the next pod.
    #[test]
    fn a_failed_preemptor_loses_its_nomination() {
        let yaml = node(
            "n1",
            2000,
            8 << 30,
            "spec: {taints: [{key: dedicated, value: infra, effect: NoSchedule}]}",
        ) + PREEMPTOR
            + "---\napiVersion: v1\nkind: Pod\nmetadata: {name: held, namespace: default}\nspec:\n  priorityClassName: high\n  containers: [{name: c, image: x, resources: {requests: {cpu: '1'}}}]\nstatus: {nominatedNodeName: n1}\n"
            + &pod(
                "tolerant",
                "low",
                "1500m",
                "  tolerations: [{key: dedicated, operator: Exists}]\n",
                "{phase: Pending}",
            );
        for version in [Version::Current, Version::Legacy] {
            let result = schedule(&yaml, version);
            let tolerant = result.pods.iter().find(|p| p.pod == "default/tolerant");
            assert_eq!(
                tolerant.and_then(|p| p.node.as_deref()),
                Some("n1"),
                "{version:?}"
            );
        }
    }

    /// Pods of lower priority nominated to the chosen node lose their nomination and are
    /// scored like any other pod.
    #[test]
    fn lower_priority_nominations_on_the_chosen_node_are_cleared() {
        let yaml = node("n1", 4000, 8 << 30, "")
            + &node("n2", 2000, 8 << 30, "")
            + "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: mid}\nvalue: 200\n"
            + &PREEMPTOR.replace("cpu: '1'", "cpu: '3'")
            + &low("low", "n1", "{phase: Running}").replace("cpu: '1'", "cpu: '3'")
            + &pod("waiting", "mid", "'1'", "", "{phase: Pending, nominatedNodeName: n1}");
        let result = schedule(&yaml, Version::Current);
        let preemptor = &result.pods[0];
        assert_eq!(preemptor.node.as_deref(), Some("n1"));
        let cleared = preemptor
            .preemption
            .as_ref()
            .map(|p| p.cleared_nominations.clone());
        assert_eq!(cleared, Some(alloc::vec![String::from("default/waiting")]));
        let waiting = result.pods.iter().find(|p| p.pod == "default/waiting");
        assert_eq!(waiting.and_then(|p| p.node.as_deref()), Some("n2"));
    }

    /// A budget's `status.disruptedPods` were already let go by the eviction API: 1.34
    /// counts no violation for them; 1.11 has no such list.
    #[test]
    fn pods_a_budget_already_let_go_violate_nothing() {
        let budget = |disrupted: &str| {
            alloc::format!(
                "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: web, namespace: default}}\nspec: {{minAvailable: 1, selector: {{matchLabels: {{app: web}}}}}}\nstatus: {{disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1{disrupted}}}\n"
            )
        };
        let cluster = |disrupted: &str| {
            node("n1", 1000, 8 << 30, "")
                + &node("n2", 1000, 8 << 30, "")
                + "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: mid}\nvalue: 200\n"
                + PREEMPTOR
                + &low("web", "n1", "{phase: Running}").replace("namespace: default", "namespace: default, labels: {app: web}")
                + &pod("other", "mid", "'1'", "  nodeName: n2\n", "{phase: Running}")
                + &budget(disrupted)
        };
        let other = (Some("n2".into()), alloc::vec!["default/other".into()]);
        let web = (Some("n1".into()), alloc::vec!["default/web".into()]);
        assert_eq!(preemption(&cluster(""), Version::Current), other);
        let disrupted = cluster(", disruptedPods: {web: '2026-01-01T00:00:00Z'}");
        assert_eq!(preemption(&disrupted, Version::Current), web);
        assert_eq!(preemption(&disrupted, Version::Legacy), other);
    }
}
