//! OpenShift Machine API deletion: lifecycle hooks, the `Drainable`, `Drained` and
//! `Terminable` conditions, and the Deleting phase's order.
//!
//! Upstream: `openshift/machine-api-operator` `pkg/controller/machine/controller.go`
//! (`setLifecycleHookConditions`, the Deleting phase), `drain_controller.go` (drain
//! skipped, blocked, proceeds, requeued with backoff) and
//! `pkg/util/lifecyclehooks`. The order (chapter 6.2.2): preDrain hooks hold the drain
//! (`Drainable=False`), the node is drained (`Drained`), preTerminate hooks hold the
//! instance (`Terminable=False`), then the instance and the Node go.

use alloc::string::String;
use alloc::vec::Vec;

use crate::duration::Duration;
use crate::go_sort::{self, Toolchain};
use crate::model::{LifecycleHook, Machine, MachineSet, OwnerReference};

/// The annotation that makes the machine controller skip the drain.
pub const EXCLUDE_NODE_DRAINING: &str = "machine.openshift.io/exclude-node-draining";
/// The etcd operator's quorum guard: a preDrain hook with this name and owner.
pub const ETCD_QUORUM_HOOK: (&str, &str) = ("EtcdQuorumOperator", "clusteroperator/etcd");
/// The first wait after a failed drain; it doubles up to [`DRAIN_BACKOFF_MAX`].
pub const DRAIN_BACKOFF_BASE: Duration = Duration::from_seconds(5);
/// The longest wait between two drain attempts.
pub const DRAIN_BACKOFF_MAX: Duration = Duration::from_seconds(1000);
/// `skipWaitForDeleteTimeoutSeconds` (`pkg/controller/machine/controller.go`): on an
/// unreachable node, the drain stops waiting for a pod once the whole seconds since its
/// `deletionTimestamp` exceed this (one second since the drain also asks a grace period
/// of one second; releases before that waited five minutes).
pub const SKIP_WAIT_FOR_DELETE: Duration = Duration::from_seconds(1);
/// How long the controller waits before trying again when another control-plane node is
/// being drained.
pub const CONTROL_PLANE_REQUEUE: Duration = Duration::from_seconds(20);

/// The annotation that marks a machine to go first when its machine set scales down.
pub const DELETE_MACHINE: &str = "machine.openshift.io/delete-machine";
/// The same mark under its older name.
pub const DELETE_MACHINE_LEGACY: &str = "machine.openshift.io/cluster-api-delete-machine";

/// Whether `machine`, controlled by `controller`, counts for `set`: its controller is the
/// set, it is not being deleted and the set's selector matches its labels
/// (`shouldExcludeMachine` in `pkg/controller/machineset/controller.go`). An orphan
/// (`controller` `None`) that passes the other two counts too: the set adopts it
/// (`adoptOrphan`).
#[must_use]
pub fn counts_for(
    set: &MachineSet,
    machine: &Machine,
    controller: Option<&OwnerReference>,
) -> bool {
    // `metav1.IsControlledBy` compares UIDs; inputs without them are matched by name.
    let controlled = controller.is_none_or(|owner| {
        if set.metadata.uid.is_empty() || owner.uid.is_empty() {
            owner.kind == "MachineSet" && owner.name == set.metadata.name
        } else {
            owner.uid == set.metadata.uid
        }
    });
    // `hasMatchingLabels` (machineset/machine.go): an empty selector matches no machine.
    let selects = !empty_selector(set)
        && crate::labels::selector_matches(&set.spec.selector, &machine.metadata.labels);
    controlled
        && selects
        && machine.metadata.deletion_timestamp.is_none()
        && machine.metadata.namespace == set.metadata.namespace
}

/// Whether the MachineSet controller syncs `set`'s replicas: `Reconcile` passes over a set
/// being deleted, and `validateMachineset` (pkg/controller/machineset/controller.go)
/// refuses an empty selector before counting anything.
#[must_use]
pub fn reconciles(set: &MachineSet) -> bool {
    set.metadata.deletion_timestamp.is_none() && !empty_selector(set)
}

fn empty_selector(set: &MachineSet) -> bool {
    let selector = &set.spec.selector;
    selector.match_labels.is_empty() && selector.match_expressions.is_empty()
}

/// The controller reference a machine set puts on the machines it creates or adopts
/// (`metav1.NewControllerRef`).
#[must_use]
pub fn controller_ref(set: &MachineSet) -> OwnerReference {
    OwnerReference {
        api_version: String::from("machine.openshift.io/v1beta1"),
        kind: String::from("MachineSet"),
        name: set.metadata.name.clone(),
        uid: set.metadata.uid.clone(),
        controller: Some(true),
    }
}

/// Which `surplus` of a machine set's `members` (each with its index) it deletes when it
/// scales down at `now` (`pkg/controller/machineset/delete_policy.go`); the indexes of
/// those chosen, in order. Upstream reads the clock after every listed machine was
/// created, so the reads here fall `READ_GAP` and twice that after `now`: an
/// unmarked machine created at `now` is already older than zero, and under `Newest`
/// ranks below 100, after a marked or failed one.
///
/// Each policy gives every machine a priority from 0 to 100 (`priority`) and the
/// highest go. machineset/controller.go sorts the names (`sort.Strings`) before
/// `getMachinesToDeletePrioritized`, which returns them as they are when all go, and
/// otherwise ranks them with `sort.Sort` built with Go 1.19 (OpenShift 4.12's toolchain;
/// `go_sort.rs`). Its `Less(i, j)` reads `priority(j) < priority(i)` and works each
/// priority out afresh: `Oldest` ages a machine from `metav1.Now()` at that call, so of
/// two machines created in the same second the one read second is older by the time
/// between the two reads (taken here as `READ_GAP`) and ranks first. Like equal
/// priorities, this leaves machines in an order only Go's sort gives: for 12 or fewer
/// an insertion sort, which keeps name order among equal priorities and reverses it
/// among same-second `Oldest` machines.
#[must_use]
pub fn to_delete(
    policy: &str,
    members: &[(usize, &Machine)],
    surplus: usize,
    now: Option<Duration>,
) -> Vec<usize> {
    let first = now.map(|now| now.saturating_add(READ_GAP));
    let later = first.map(|first| first.saturating_add(READ_GAP));
    // (priority at the first read, at the second read, name, index)
    let mut ranked: Vec<(f64, f64, &str, usize)> = members
        .iter()
        .map(|&(index, machine)| {
            let name = machine.metadata.name.as_str();
            let (first, second) = (
                priority(policy, machine, first),
                priority(policy, machine, later),
            );
            (first, second, name, index)
        })
        .collect();
    ranked.sort_by(|a, b| a.2.cmp(b.2));
    if surplus < ranked.len() {
        go_sort::sort_slice(&mut ranked, Toolchain::Go119, |i, j| j.0 < i.1);
    }
    ranked
        .into_iter()
        .take(surplus)
        .map(|(_, _, _, index)| index)
        .collect()
}

/// The time between the two `metav1.Now()` reads of one comparison in
/// [`to_delete`]: a guess (tens to hundreds of nanoseconds on a server). It only decides
/// from which age two machines created in the same second may tie instead: the float64
/// priority stops moving within the gap from about 64 days on with 100 ns (41 days with
/// 10 ns, 87 with 1 µs).
const READ_GAP: Duration = Duration(100);

/// Upstream's `deletePriority` of a machine under a delete policy (`Random` unless
/// `Oldest` or `Newest`). `Random`: 100 while deleting, 50 with the delete-machine
/// annotation (not its legacy name) or a terminal error (`status.errorReason` or
/// `errorMessage` set, even empty), 40 without a node, else 20. `Oldest`: 100 while
/// deleting, with either annotation or a terminal error; else `100·(1 − e^(−age/10
/// days))`, 0 without a `creationTimestamp` or with one after `now`. `Newest`: 100 while
/// deleting, with the annotation or an error; else 100 minus `Oldest`'s (so a machine
/// with only the legacy annotation gets 0). The float64 arithmetic is upstream's: ages
/// past about 374 days round to 100 and tie with the marked machines, and from about 250
/// days on machines created seconds apart tie too.
fn priority(policy: &str, machine: &Machine, now: Option<Duration>) -> f64 {
    let annotated = |key: &str| {
        machine
            .metadata
            .annotations
            .get(key)
            .is_some_and(|value| !value.is_empty())
    };
    let deleting = machine.metadata.deletion_timestamp.is_some();
    let failed = machine.status.error_reason.is_some() || machine.status.error_message.is_some();
    let oldest = || {
        if deleting || annotated(DELETE_MACHINE) || annotated(DELETE_MACHINE_LEGACY) || failed {
            return 100.0;
        }
        let created = machine
            .metadata
            .creation_timestamp
            .as_deref()
            .and_then(crate::timestamp::parse)
            .map(crate::timestamp::Instant::since_epoch);
        match created.zip(now) {
            Some((created, now)) if now >= created => {
                let age = Duration(now.0.saturating_sub(created.0)).seconds();
                100.0 * (1.0 - crate::math::exp(-age / 864_000.0))
            }
            _ => 0.0,
        }
    };
    match policy {
        "Oldest" => oldest(),
        "Newest" if deleting || annotated(DELETE_MACHINE) || failed => 100.0,
        "Newest" => 100.0 - oldest(),
        _ if deleting => 100.0,
        _ if annotated(DELETE_MACHINE) || failed => 50.0,
        _ if machine.status.node_ref.is_none() => 40.0,
        _ => 20.0,
    }
}

/// A machine condition, as the controller sets it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "tsify", derive(tsify::Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// `Drainable`, `Drained` or `Terminable`.
    #[serde(rename = "type")]
    pub type_: &'static str,
    /// `True` or `False`.
    pub status: &'static str,
    /// `HookPresent` when `False`.
    #[serde(skip_serializing_if = "str::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub reason: &'static str,
    /// `Warning` when `False`.
    #[serde(skip_serializing_if = "str::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub severity: &'static str,
    /// Why, when there is something to say.
    #[serde(skip_serializing_if = "String::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub message: String,
}

/// Go's `%+v` of a hook list: `[{Name:a Owner:b} {Name:c Owner:d}]`.
#[must_use]
pub fn describe_hooks(hooks: &[LifecycleHook]) -> String {
    let items: Vec<String> = hooks
        .iter()
        .map(|hook| {
            let (name, owner) = (hook.name.as_deref(), hook.owner.as_deref());
            let (name, owner) = (name.unwrap_or_default(), owner.unwrap_or_default());
            alloc::format!("{{Name:{name} Owner:{owner}}}")
        })
        .collect();
    alloc::format!("[{}]", items.join(" "))
}

/// `Drainable`: false while preDrain hooks remain.
#[must_use]
pub fn drainable(pre_drain: &[LifecycleHook]) -> Condition {
    hook_condition(
        "Drainable",
        pre_drain,
        "Drain operation currently blocked by: ",
    )
}

/// `Terminable`: false while preTerminate hooks remain.
#[must_use]
pub fn terminable(pre_terminate: &[LifecycleHook]) -> Condition {
    hook_condition(
        "Terminable",
        pre_terminate,
        "Terminate operation currently blocked by: ",
    )
}

fn hook_condition(type_: &'static str, hooks: &[LifecycleHook], lead: &str) -> Condition {
    if hooks.is_empty() {
        Condition {
            type_,
            status: "True",
            reason: "",
            severity: "",
            message: String::new(),
        }
    } else {
        Condition {
            type_,
            status: "False",
            reason: "HookPresent",
            severity: "Warning",
            message: alloc::format!("{lead}{}", describe_hooks(hooks)),
        }
    }
}

/// `Drained=True` with its message (`Drain finished successfully`, `Node drain skipped`).
#[must_use]
pub fn drained(message: &str) -> Condition {
    Condition {
        type_: "Drained",
        status: "True",
        reason: "",
        severity: "",
        message: String::from(message),
    }
}

/// The wait before drain attempt `failures + 1`: 5 s, doubling, at most 1000 s.
#[must_use]
pub fn drain_backoff(failures: u32) -> Duration {
    let factor = 1_i64
        .checked_shl(failures.saturating_sub(1))
        .unwrap_or(i64::MAX);
    let wait = Duration(DRAIN_BACKOFF_BASE.0.saturating_mul(factor));
    wait.min(DRAIN_BACKOFF_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hook(name: &str, owner: &str) -> LifecycleHook {
        LifecycleHook {
            name: Some(name.into()),
            owner: Some(owner.into()),
        }
    }

    /// `TestSetLifecycleHookConditions` and the notes' cases mao-hook-1 and mao-hook-2.
    #[test]
    fn hook_conditions_name_the_hooks() {
        let etcd = [hook(ETCD_QUORUM_HOOK.0, ETCD_QUORUM_HOOK.1)];
        let condition = drainable(&etcd);
        assert_eq!(
            (condition.status, condition.reason),
            ("False", "HookPresent")
        );
        assert_eq!(condition.severity, "Warning");
        assert_eq!(
            condition.message,
            "Drain operation currently blocked by: [{Name:EtcdQuorumOperator Owner:clusteroperator/etcd}]"
        );
        assert_eq!(drainable(&[]).status, "True");
        let two = [hook("backup", "admin"), hook("detach", "storage")];
        assert_eq!(
            terminable(&two).message,
            "Terminate operation currently blocked by: [{Name:backup Owner:admin} {Name:detach Owner:storage}]"
        );
    }

    fn machine(name: &str, created: &str, annotated: bool, node: bool) -> crate::model::Machine {
        let mut machine = crate::model::Machine::default();
        machine.metadata.name = name.into();
        machine.metadata.creation_timestamp = Some(created.into());
        if annotated {
            machine
                .metadata
                .annotations
                .insert(DELETE_MACHINE.into(), "true".into());
        }
        if node {
            machine.status.node_ref = Some(crate::model::NodeReference {
                kind: "Node".into(),
                name: name.into(),
            });
        }
        machine
    }

    /// [`to_delete`] among all of `machines`.
    fn pick(
        policy: &str,
        machines: &[Machine],
        surplus: usize,
        now: Option<Duration>,
    ) -> Vec<usize> {
        let members: Vec<_> = machines.iter().enumerate().collect();
        to_delete(policy, &members, surplus, now)
    }

    fn now() -> Option<Duration> {
        crate::timestamp::parse("2026-04-01T00:00:00Z").map(crate::timestamp::Instant::since_epoch)
    }

    /// `oldestDeletePriority`: no `creationTimestamp` is 0, so `Oldest` keeps such a
    /// machine and `Newest` deletes it first (the audit's r4); past about 374 days the
    /// age rounds to 100 and ties with the delete-machine mark, which the name breaks.
    #[test]
    fn scale_down_ages_from_now() {
        let mut unknown = machine("ws-b", "", false, true);
        unknown.metadata.creation_timestamp = None;
        let machines = [
            machine("ws-c", "2026-03-10T00:00:00Z", false, true),
            machine("ws-a", "2026-03-01T00:00:00Z", false, true),
            unknown,
        ];
        assert_eq!(pick("Oldest", &machines, 1, now()), [1]);
        assert_eq!(pick("Newest", &machines, 1, now()), [2]);
        let machines = [
            machine("old-b", "2025-01-01T00:00:00Z", true, true),
            machine("old-a", "2025-03-01T00:00:00Z", false, true),
            machine("old-c", "2025-03-01T00:00:01Z", false, true),
        ];
        assert_eq!(pick("Oldest", &machines, 1, now()), [1]);
        // Ten days is 63.2: 100·(1 − 1/e).
        let ten_days = machine("m", "2026-03-22T00:00:00Z", false, true);
        let score = priority("Oldest", &ten_days, now());
        assert_eq!(alloc::format!("{score:.4}"), "63.2121");
    }

    /// `Oldest` reads the clock at each priority, so of machines created in the same
    /// second the one read second ranks higher: `Less` always answers yes, and the
    /// insertion sort reverses their name order. `Newest` ties them and keeps it; when all
    /// go, the names' order is returned unsorted.
    #[test]
    fn same_second_machines_follow_the_clock_under_oldest() {
        let machines = [
            machine("ws-b", "2026-03-20T00:00:00Z", false, true),
            machine("ws-a", "2026-03-20T00:00:00Z", false, true),
            machine("ws-c", "2026-03-20T00:00:00Z", false, true),
        ];
        assert_eq!(pick("Oldest", &machines, 2, now()), [2, 0]);
        assert_eq!(pick("Newest", &machines, 2, now()), [1, 0]);
        assert_eq!(pick("Oldest", &machines, 3, now()), [1, 0, 2]);
    }

    /// A machine created at the very moment of the scale-down is read a little older than
    /// that under `Newest`, so it ranks below 100 and a failed machine goes first (the
    /// audit's min_newest).
    #[test]
    fn newest_reads_the_clock_after_the_newest_machine() {
        let mut failed = machine("ws-b", "2026-01-01T00:00:00Z", false, false);
        failed.status.error_message = Some("boom".into());
        let machines = [
            machine("ws-a", "2026-04-01T00:00:00Z", false, false),
            failed,
        ];
        assert_eq!(pick("Newest", &machines, 1, now()), [1]);
    }

    /// The priorities of upstream's `TestMachineToDelete*` tables.
    #[test]
    fn scale_down_picks_marked_then_nodeless_then_by_policy() {
        let machines = [
            machine("a", "2026-01-01T00:00:00Z", false, true),
            machine("b", "2026-03-01T00:00:00Z", false, false),
            machine("c", "2026-02-01T00:00:00Z", true, true),
            machine("d", "2025-12-01T00:00:00Z", false, true),
        ];
        assert_eq!(pick("", &machines, 2, None), [2, 1]);
        assert_eq!(pick("Random", &machines, 3, None), [2, 1, 0]);
        assert_eq!(pick("Oldest", &machines, 2, now()), [2, 3]);
        assert_eq!(pick("Newest", &machines, 2, now()), [2, 1]);
        assert_eq!(pick("", &machines, 0, None), Vec::<usize>::new());
    }

    /// A terminal error, even an empty one, ranks with the delete-machine mark: above a
    /// missing node under `Random`, first under `Oldest` and `Newest`.
    #[test]
    fn scale_down_prefers_failed_machines() {
        let mut failed = machine("ws-b", "2026-01-01T00:00:00Z", false, true);
        failed.status.error_message = Some("boom".into());
        let mut no_reason = machine("ws-c", "2026-01-01T00:00:00Z", false, true);
        no_reason.status.error_reason = Some(String::new());
        let machines = [
            machine("ws-a", "2026-01-01T00:00:00Z", false, true),
            failed,
            no_reason,
            machine("ws-d", "2025-01-01T00:00:00Z", false, false),
        ];
        assert_eq!(pick("Random", &machines, 3, None), [1, 2, 3]);
        assert_eq!(pick("Oldest", &machines, 3, now()), [1, 2, 3]);
        assert_eq!(pick("Newest", &machines, 2, now()), [1, 2]);
    }

    /// The legacy annotation counts only in `oldestDeletePriority`: `Random` ignores it,
    /// and `Newest`, which subtracts `Oldest`'s 100, gives it 0.
    #[test]
    fn the_legacy_mark_counts_only_for_oldest() {
        let mut legacy = machine("a", "2026-03-31T00:00:00Z", false, true);
        legacy
            .metadata
            .annotations
            .insert(DELETE_MACHINE_LEGACY.into(), "yes".into());
        assert_eq!(priority("Random", &legacy, now()), 20.0);
        assert_eq!(priority("Oldest", &legacy, now()), 100.0);
        assert_eq!(priority("Newest", &legacy, now()), 0.0);
    }

    /// Equal priorities go in name order, whatever the input order (the audit's r1).
    #[test]
    fn scale_down_breaks_ties_by_name() {
        let machines = [
            machine("ws-c", "2026-01-01T00:00:00Z", false, true),
            machine("ws-a", "2026-01-01T00:00:00Z", false, true),
            machine("ws-b", "2026-01-01T00:00:00Z", false, true),
        ];
        for policy in ["Random", "Oldest", "Newest"] {
            assert_eq!(pick(policy, &machines, 2, now()), [1, 2], "{policy}");
        }
    }

    #[test]
    fn drains_back_off_exponentially() {
        let waits: Vec<i64> = (1..=10)
            .map(|n| drain_backoff(n).0 / 1_000_000_000)
            .collect();
        assert_eq!(waits, [5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000]);
    }
}
