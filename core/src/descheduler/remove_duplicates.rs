//! RemoveDuplicates: on each node, keeps one pod per owner and evicts the others.
//!
//! Upstream: `pkg/descheduler/strategies/duplicates.go` of `openshift/descheduler`
//! `v3.11.0` (`kubernetes-incubator/descheduler` `v0.5.0`). Node by node, the evictable
//! pods are grouped by owner reference, keyed `Kind/name` (a pod with two owners is in
//! two groups); in every group of two or more, the first pod in list order stays and
//! each later one is evicted, until the node's eviction limit is reached. The strategy
//! has no parameters.
//!
//! Example: on one node, `a` and `b` owned by `ReplicaSet/rs1` and `c` by
//! `ReplicaSet/rs2`: `b` is evicted.
//!
//! Differences:
//! - the key has no namespace (upstream added it later): pods of two same-named owners in
//!   different namespaces count as duplicates of each other;
//! - upstream walks the groups in Go's random map order, which only matters once the
//!   node limit cuts the walk short; kubefit walks them in the order their first pod is
//!   listed;
//! - the OpenShift 3.11 documentation names "Replica Set, Replication Controller,
//!   Deployment Configuration, or Job": any owner kind counts (a DaemonSet's pods are
//!   never evictable, so never grouped).

use alloc::vec::Vec;

use super::{Context, StrategyRun, Verdict};
use crate::cluster::OwnerKey;
use crate::report::words::Words;

/// The strategy name in the policy.
pub(super) const NAME: &str = "RemoveDuplicates";

/// Runs the strategy over every ready node.
pub(super) fn run(context: &mut Context<'_>, report: &mut StrategyRun) {
    for position in 0..context.nodes.len() {
        for group in groups(context, &context.evictable_on(position)) {
            let (first, rest) = (group.first, group.rest);
            let owner = Words::shared(&group.owner.key);
            if rest.is_empty() {
                let why = owner.framed(&("not a duplicate: the only pod of `", "` on the node"));
                report
                    .pods
                    .push(context.decision(first, position, Verdict::Kept, why));
                continue;
            }
            let why = owner.framed(&("first pod of `", "` on the node"));
            report
                .pods
                .push(context.decision(first, position, Verdict::Kept, why));
            let first_name = context.pod_words(first);
            for index in rest {
                if context.limit_reached(position) {
                    report.pods.push(context.limited(index, position));
                    continue;
                }
                let attempt = context.evict(index, position, NAME);
                if attempt.succeeded() {
                    report.evicted = report.evicted.saturating_add(1);
                }
                let why = Words::Own(alloc::format!(
                    "duplicate of `{first_name}` (owner `{owner}`)"
                ));
                report
                    .pods
                    .push(context.attempt_decision(index, position, &attempt, why));
            }
        }
    }
}

/// One owner's pods on a node, in list order: the first, then the others (none for most
/// owners, which then cost no list).
struct Group<'a> {
    /// The owner's key.
    owner: &'a OwnerKey,
    /// Its digest, kept here: comparing with every group of the node reads no key.
    digest: u64,
    first: usize,
    rest: Vec<usize>,
}

/// `FindDuplicatePods`: the pods of each owner key, keys in order of first appearance.
/// The key is the joined string `Kind/name`, as upstream's map key: two references that
/// join to the same string are one owner. The keys were worked out with the pods'
/// entries ([`crate::cluster::Deletion::owner_keys`]) and gathered as the pods were
/// listed: a node's pods lie all over memory, their owner references further still.
fn groups<'a>(context: &Context<'a>, pods: &[usize]) -> Vec<Group<'a>> {
    let mut groups: Vec<Group<'a>> = Vec::new();
    for &index in pods {
        for owner in context.owner_keys(index) {
            let same =
                |group: &&mut Group<'a>| group.digest == owner.digest && group.owner.same(owner);
            match groups.iter_mut().find(same) {
                Some(group) => group.rest.push(index),
                None => groups.push(Group {
                    owner,
                    digest: owner.digest,
                    first: index,
                    rest: Vec::new(),
                }),
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;
    use alloc::vec;

    use crate::descheduler::pods::testing::{
        build_node, build_pod, critical, daemon_set_owner, mirror, normal_owner, replica_set_owner,
        with_local_storage,
    };
    use crate::descheduler::testing::strategy;
    use crate::descheduler::Verdict;

    /// `TestFindDuplicatePods` (`strategies/duplicates_test.go`): three pods of one
    /// ReplicaSet and four pods no strategy may evict; two are evicted.
    #[test]
    fn find_duplicate_pods() {
        let node = build_node("n1", 2000, 3000, 10);
        let mut p7 = critical(build_pod("p7", 100, 0, "n1"));
        p7.metadata.namespace = "kube-system".into();
        let pods = vec![
            replica_set_owner(build_pod("p1", 100, 0, "n1")),
            replica_set_owner(build_pod("p2", 100, 0, "n1")),
            replica_set_owner(build_pod("p3", 100, 0, "n1")),
            daemon_set_owner(build_pod("p4", 100, 0, "n1")),
            with_local_storage(normal_owner(build_pod("p5", 100, 0, "n1"))),
            mirror(build_pod("p6", 100, 0, "n1")),
            p7,
        ];
        let (report, evicted) = strategy(super::NAME, None, vec![node], pods, 0);
        assert_eq!(evicted, [1, 2]);
        assert_eq!(report.evicted, 2);
        assert_eq!(report.pods.len(), 3);
        assert_eq!(report.pods[0].verdict, Verdict::Kept);
    }

    /// The later upstream table's namespaced case (`dev` and `test` pods of a same-named
    /// ReplicaSet): upstream evicts 4 since it keys by namespace; `v3.11.0` keys by
    /// `Kind/name` alone, so all six are one group and 5 are evicted, in the API's order
    /// (`test/p10` before `test/p8`).
    #[test]
    fn owners_are_not_told_apart_by_namespace() {
        let node = build_node("n1", 2000, 3000, 10);
        let mut pods = vec![];
        for (name, namespace) in [
            ("p1", "dev"),
            ("p2", "dev"),
            ("p3", "dev"),
            ("p8", "test"),
            ("p9", "test"),
            ("p10", "test"),
        ] {
            let mut pod = replica_set_owner(build_pod(name, 100, 0, "n1"));
            pod.metadata.namespace = namespace.into();
            pods.push(pod);
        }
        let (_, evicted) = strategy(super::NAME, None, vec![node], pods, 0);
        assert_eq!(evicted, [1, 2, 5, 3, 4]);
    }

    /// Upstream keys a group by the joined string `Kind/name` (`duplicates.go`), so two
    /// owner references that join to the same string are one owner; groups are per node.
    #[test]
    fn owners_are_keyed_by_the_joined_string() {
        let owned = |name: &str, node: &str, kind: &str, owner: &str| {
            let mut pod = replica_set_owner(build_pod(name, 100, 0, node));
            if let Some(reference) = pod.metadata.owner_references.first_mut() {
                reference.kind = kind.into();
                reference.name = owner.into();
            }
            pod
        };
        let nodes = vec![
            build_node("n1", 2000, 3000, 10),
            build_node("n2", 2000, 3000, 10),
        ];
        let pods = vec![
            owned("a", "n1", "ReplicaSet/web", "x"),
            owned("b", "n1", "ReplicaSet", "web/x"),
            owned("c", "n2", "ReplicaSet", "web/x"),
            owned("d", "n2", "ReplicaSet", "web"),
        ];
        let (report, evicted) = strategy(super::NAME, None, nodes, pods, 0);
        assert_eq!(evicted, [1]);
        let reasons: vec::Vec<_> = report.pods.iter().map(|d| d.reason.to_string()).collect();
        assert_eq!(
            reasons,
            [
                "first pod of `ReplicaSet/web/x` on the node",
                "duplicate of `default/a` (owner `ReplicaSet/web/x`)",
                "not a duplicate: the only pod of `ReplicaSet/web/x` on the node",
                "not a duplicate: the only pod of `ReplicaSet/web` on the node",
            ]
        );
    }

    /// `controllers-semantics.md` §8.2 `ds-dup-1`.
    #[test]
    fn reference_case() {
        let node = build_node("n1", 2000, 3000, 10);
        let owned = |name: &str, owner: &str| {
            let mut pod = replica_set_owner(build_pod(name, 100, 0, "n1"));
            if let Some(reference) = pod.metadata.owner_references.first_mut() {
                reference.name = owner.into();
            }
            pod
        };
        let pods = vec![owned("a", "rs1"), owned("b", "rs1"), owned("c", "rs2")];
        let (report, evicted) = strategy(super::NAME, None, vec![node], pods, 0);
        assert_eq!(evicted, [1]);
        let decisions: vec::Vec<_> = report
            .pods
            .iter()
            .map(|d| {
                (
                    d.pod.to_string(),
                    d.node.to_string(),
                    d.verdict,
                    d.reason.to_string(),
                )
            })
            .collect();
        let decision = |pod: &str, verdict, reason: &str| {
            (
                pod.to_string(),
                "n1".to_string(),
                verdict,
                reason.to_string(),
            )
        };
        assert_eq!(
            decisions,
            [
                decision(
                    "default/a",
                    Verdict::Kept,
                    "first pod of `ReplicaSet/rs1` on the node"
                ),
                decision(
                    "default/b",
                    Verdict::Evicted,
                    "duplicate of `default/a` (owner `ReplicaSet/rs1`)"
                ),
                decision(
                    "default/c",
                    Verdict::Kept,
                    "not a duplicate: the only pod of `ReplicaSet/rs2` on the node"
                ),
            ]
        );
    }

    #[test]
    fn the_node_limit_stops_evictions() {
        let node = build_node("n1", 2000, 3000, 10);
        let pods = (1..=4)
            .map(|i| replica_set_owner(build_pod(&alloc::format!("p{i}"), 100, 0, "n1")))
            .collect();
        let (report, evicted) = strategy(super::NAME, None, vec![node], pods, 2);
        assert_eq!(evicted, [1, 2]);
        assert_eq!(report.pods[3].verdict, Verdict::Limited);
    }
}
