//! TaintTolerationPriority: prefer nodes with fewer PreferNoSchedule taints the pod does
//! not tolerate.
//!
//! Follows 1.11 `taint_toleration.go`: only tolerations with an empty or PreferNoSchedule
//! effect count; normalised in reverse over the feasible nodes (`NormalizeReduce(10,
//! true)`: no intolerable taint anywhere gives every node 10). The rule is the framework
//! plugin's, at 1.11's scale.

use alloc::vec::Vec;

use crate::model::Pod;
use crate::schedule::legacy::MAX_PRIORITY;
use crate::schedule::plugins::taint_toleration;
use crate::schedule::snapshot::NodeInfo;

/// Normalised scores over the feasible nodes.
#[must_use]
pub fn scores(pod: &Pod, nodes: &[&NodeInfo<'_>]) -> Vec<i64> {
    taint_toleration::scores(pod, nodes.iter().map(|info| info.node), MAX_PRIORITY)
}

#[cfg(test)]
mod tests {
    use crate::model::{Node, Pod, Taint, Toleration};
    use crate::schedule::legacy::PriorityKind;
    use crate::schedule::predicates::testing;
    use crate::schedule::priorities::testing::run;
    use alloc::vec;
    use alloc::vec::Vec;

    fn taint(key: &str, value: &str, effect: &str) -> Taint {
        Taint {
            key: key.into(),
            value: value.into(),
            effect: effect.into(),
            time_added: None,
        }
    }

    fn toleration(key: &str, value: &str, effect: &str) -> Toleration {
        Toleration {
            key: key.into(),
            operator: "Equal".into(),
            value: value.into(),
            effect: effect.into(),
            toleration_seconds: None,
        }
    }

    fn scores(tolerations: Vec<Toleration>, taints: Vec<Vec<Taint>>) -> Vec<i64> {
        let nodes = taints
            .into_iter()
            .enumerate()
            .map(|(index, taints)| {
                let mut node: Node = testing::node(&alloc::format!("n{index}"), 1000, 1000);
                node.spec.taints = taints;
                node
            })
            .collect();
        let mut pod: Pod = testing::pod("p", &[]);
        pod.spec.tolerations = tolerations;
        run(
            &PriorityKind::TaintToleration,
            &testing::cluster(nodes, vec![pod]),
            0,
            1,
        )
    }

    // 1.11 `TestTaintAndToleration`.
    #[test]
    fn upstream_table() {
        let prefer = "PreferNoSchedule";
        assert_eq!(
            scores(
                vec![toleration("foo", "bar", prefer)],
                vec![
                    vec![taint("foo", "bar", prefer)],
                    vec![taint("foo", "blah", prefer)]
                ]
            ),
            [10, 0]
        );
        let arm = || taint("cpu-type", "arm64", prefer);
        let ssd = || taint("disk-type", "ssd", prefer);
        assert_eq!(
            scores(
                vec![
                    toleration("cpu-type", "arm64", prefer),
                    toleration("disk-type", "ssd", prefer)
                ],
                vec![vec![], vec![arm()], vec![arm(), ssd()]]
            ),
            [10, 10, 10]
        );
        assert_eq!(
            scores(
                vec![toleration("foo", "bar", prefer)],
                vec![vec![], vec![arm()], vec![arm(), ssd()]]
            ),
            [10, 5, 0]
        );
        assert_eq!(
            scores(
                vec![
                    toleration("cpu-type", "arm64", "NoSchedule"),
                    toleration("disk-type", "ssd", "NoSchedule")
                ],
                vec![
                    vec![],
                    vec![taint("cpu-type", "arm64", "NoSchedule")],
                    vec![arm(), ssd()]
                ]
            ),
            [10, 10, 0]
        );
        assert_eq!(scores(vec![], vec![vec![], vec![arm()]]), [10, 0]);
    }
}
