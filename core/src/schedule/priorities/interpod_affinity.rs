//! InterPodAffinityPriority: prefer nodes near pods the pod likes and away from pods it
//! dislikes, and honour placed pods' affinity toward it.
//!
//! Follows 1.11 `interpod_affinity.go` (`CalculateInterPodAffinityPriority`): for every
//! placed pod `E` (only those with pod affinity or anti-affinity when the incoming pod has
//! none), add to every feasible node sharing the term's topology with `E`'s node:
//! the weight of each preferred affinity term of the pod matching `E` (minus for
//! anti-affinity), `hardPodAffinitySymmetricWeight` for each required affinity term of
//! `E` matching the pod, and the weights of `E`'s preferred (anti-)affinity terms matching
//! the pod. Normalised with the minimum and maximum **starting at 0**:
//! `int(10 * (count - min) / (max - min))`, all 0 when `max == min`. The weights are
//! summed per topology pair ([`TopologySums`]) rather than per node, which gives the same
//! counts (integers, exact in upstream's floats) and lets the sums follow binds.
//!
//! A term whose selector 1.11 cannot parse (a value the API server does not check, see
//! [`crate::labels::legacy_selector_error`]) makes `processTerm` record an error, and the
//! priority fails ([`State::error`]): the pod's own preferred terms as soon as one pod is
//! placed, a placed pod's terms the priority reads whenever that pod is there.

use alloc::string::String;
use alloc::vec::Vec;

use crate::cluster::Cluster;
use crate::model::{Node, Pod, PodAffinityTerm, WeightedPodAffinityTerm};
use crate::schedule::plugins::normalize;
use crate::schedule::predicates::match_inter_pod_affinity::affinity_terms;
use crate::schedule::predicates::{term_error, term_matches};
use crate::schedule::snapshot::{NodeInfo, Snapshot};
use crate::schedule::topology::TopologySums;
use crate::schedule::Reach;

use crate::schedule::legacy::MAX_PRIORITY;

fn has_pod_affinity(pod: &Pod) -> (bool, bool) {
    pod.spec
        .affinity
        .as_ref()
        .map_or((false, false), |affinity| {
            (
                affinity.pod_affinity.is_some(),
                affinity.pod_anti_affinity.is_some(),
            )
        })
}

/// The preferred terms of a pod's affinity (`anti`: of its anti-affinity).
fn preferred(pod: &Pod, anti: bool) -> &[WeightedPodAffinityTerm] {
    let affinity = pod.spec.affinity.as_ref();
    let terms = if anti {
        affinity
            .and_then(|a| a.pod_anti_affinity.as_ref())
            .map(|terms| &terms.preferred_during_scheduling_ignored_during_execution)
    } else {
        affinity
            .and_then(|a| a.pod_affinity.as_ref())
            .map(|terms| &terms.preferred_during_scheduling_ignored_during_execution)
    };
    terms.map_or(&[], Vec::as_slice)
}

/// The weights of every matching term, summed per topology pair of the matching pod's
/// node, for one incoming pod; follows pods joining and leaving nodes.
#[derive(Clone, Debug)]
pub struct State<'a> {
    pod: &'a Pod,
    hard_weight: i64,
    sums: TopologySums<'a>,
    /// How many placed pods there are, each of which reads the pod's preferred terms.
    placed: usize,
    /// The first error among the pod's preferred terms (affinity, then anti-affinity).
    own_error: Option<String>,
    /// Placed pods with a term the priority reads that fails, by `namespace/name`, with
    /// the first error, in the order they are processed.
    unparsable: Vec<(String, String)>,
}

impl<'a> State<'a> {
    /// Sums the terms over the snapshot's placed pods; `cluster` is the snapshot's.
    #[must_use]
    pub fn new(
        snapshot: &Snapshot<'_>,
        cluster: &'a Cluster,
        pod: &'a Pod,
        hard_weight: i64,
    ) -> Self {
        let own_error = [false, true]
            .into_iter()
            .flat_map(|anti| preferred(pod, anti))
            .find_map(|term| term_error(&term.pod_affinity_term));
        let mut state = Self {
            pod,
            hard_weight,
            sums: TopologySums::default(),
            placed: 0,
            own_error,
            unparsable: Vec::new(),
        };
        for (info, node) in snapshot.nodes.iter().zip(&cluster.nodes) {
            for &index in &info.pods {
                if let Some(entry) = cluster.pods.get(index) {
                    state.process(&entry.pod, node, true, &mut |_| {});
                }
            }
        }
        state
    }

    /// Adds (`joined`) or takes back what `existing` on `fixed` contributes: the incoming
    /// pod's preferred terms that match it, and its terms that match the incoming pod.
    fn process(
        &mut self,
        existing: &Pod,
        fixed: &'a Node,
        joined: bool,
        touched: &mut dyn FnMut(&'a str),
    ) {
        let pod = self.pod;
        self.follow_unparsable(existing, joined);
        let (has_affinity, has_anti) = has_pod_affinity(pod);
        let (existing_affinity, existing_anti) = has_pod_affinity(existing);
        if !has_affinity && !has_anti && !existing_affinity && !existing_anti {
            return;
        }
        let sums = &mut self.sums;
        let mut add = |term: &PodAffinityTerm, defining: &Pod, target: &Pod, weight: i64| {
            if term_matches(term, defining, target) {
                if let Some(key) = sums.add(fixed, &term.topology_key, weight, joined) {
                    touched(key);
                }
            }
        };
        // The pod's preferred terms matching the existing pod, then the existing pod's
        // matching the pod; anti-affinity terms count against.
        for (defining, target) in [(pod, existing), (existing, pod)] {
            for (anti, sign) in [(false, 1), (true, -1)] {
                for term in preferred(defining, anti) {
                    let weight = sign * i64::from(term.weight);
                    add(&term.pod_affinity_term, defining, target, weight);
                }
            }
        }
        if self.hard_weight > 0 {
            for term in affinity_terms(existing) {
                add(term, existing, pod, self.hard_weight);
            }
        }
    }

    /// Counts `existing` among the placed pods, and among those with a term that fails
    /// (required affinity terms count only with a hard weight, as `processPod` reads them).
    fn follow_unparsable(&mut self, existing: &Pod, joined: bool) {
        self.placed = if joined {
            self.placed.saturating_add(1)
        } else {
            self.placed.saturating_sub(1)
        };
        let required = affinity_terms(existing)
            .iter()
            .filter(|_| self.hard_weight > 0);
        let weighted = [false, true]
            .into_iter()
            .flat_map(|anti| preferred(existing, anti))
            .map(|term| &term.pod_affinity_term);
        let Some(error) = required.chain(weighted).find_map(term_error) else {
            return;
        };
        let name = alloc::format!("{}/{}", existing.metadata.namespace, existing.metadata.name);
        if joined {
            self.unparsable.push((name, error));
        } else if let Some(at) = self.unparsable.iter().position(|(known, _)| *known == name) {
            self.unparsable.remove(at);
        }
    }

    /// The error `CalculateInterPodAffinityPriority` returns, if a term it reads fails to
    /// parse: the first it meets, processing the placed pods in order.
    #[must_use]
    pub fn error(&self) -> Option<&str> {
        self.own_error
            .as_deref()
            .filter(|_| self.placed > 0)
            .or_else(|| self.unparsable.first().map(|(_, error)| error.as_str()))
    }

    /// Another pod joins (`joined`) or leaves `node`: the domains around it whose sums
    /// moved.
    pub fn follow(&mut self, existing: &Pod, node: &'a Node, joined: bool) -> Reach {
        let mut keys = Vec::new();
        self.process(existing, node, joined, &mut |key| keys.push(key));
        Reach::of(keys, false)
    }

    /// A node's count before normalising.
    #[must_use]
    pub fn raw(&self, node: &Node) -> i64 {
        self.sums.of(node)
    }

    /// Normalised scores over the feasible nodes.
    #[must_use]
    pub fn scores(&self, nodes: &[&NodeInfo<'_>]) -> Vec<i64> {
        let raw: Vec<i64> = nodes.iter().map(|info| self.raw(info.node)).collect();
        // 1.11 starts both bounds at 0 (later releases use the true minimum and maximum).
        let highest = raw.iter().copied().fold(0, i64::max);
        let lowest = raw.iter().copied().fold(0, i64::min);
        raw.iter()
            .map(|&count| normalize::min_max(count, lowest, highest, MAX_PRIORITY))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{
        Affinity, LabelSelector, LabelSelectorRequirement, Node, PodAffinity, PodAffinityTerm,
    };
    use crate::schedule::legacy::PriorityKind;
    use crate::schedule::predicates::testing;
    use crate::schedule::priorities::testing::run;
    use alloc::vec;

    fn node(name: &str, key: &str, value: &str) -> Node {
        let mut node = testing::node(name, 1000, 1000);
        node.metadata.labels.insert(key.into(), value.into());
        node
    }

    // A term whose selector 1.11 cannot parse fails the priority: the incoming pod's as
    // soon as a pod is placed, a placed pod's whenever the priority reads it.
    #[test]
    fn unparsable_selectors_fail_the_priority() {
        use crate::model::{PodAntiAffinity, WeightedPodAffinityTerm};
        use crate::schedule::snapshot::{Accounting, Snapshot};
        let term = |value: &str| PodAffinityTerm {
            label_selector: Some(LabelSelector {
                match_expressions: vec![LabelSelectorRequirement {
                    key: "app".into(),
                    operator: "In".into(),
                    values: vec![value.into()],
                }],
                ..LabelSelector::default()
            }),
            topology_key: "zone".into(),
            ..PodAffinityTerm::default()
        };
        let preferring = |name: &str, value: &str| {
            let mut pod = testing::pod(name, &[]);
            pod.spec.affinity = Some(Affinity {
                pod_anti_affinity: Some(PodAntiAffinity {
                    preferred_during_scheduling_ignored_during_execution: vec![
                        WeightedPodAffinityTerm {
                            weight: 5,
                            pod_affinity_term: term(value),
                        },
                    ],
                    ..PodAntiAffinity::default()
                }),
                ..Affinity::default()
            });
            pod
        };
        let requiring = |name: &str, value: &str| {
            let mut pod = testing::pod(name, &[]);
            pod.spec.affinity = Some(Affinity {
                pod_affinity: Some(PodAffinity {
                    required_during_scheduling_ignored_during_execution: vec![term(value)],
                    ..PodAffinity::default()
                }),
                ..Affinity::default()
            });
            pod
        };
        let error = |placed: alloc::vec::Vec<crate::model::Pod>, incoming, hard_weight| {
            let mut pods = placed;
            pods.push(incoming);
            let cluster = testing::cluster(vec![node("m1", "zone", "z1")], pods);
            let snapshot = Snapshot::new(&cluster, Accounting::Legacy);
            let last = cluster.pods.len() - 1;
            let state =
                super::State::new(&snapshot, &cluster, &cluster.pods[last].pod, hard_weight);
            state.error().map(alloc::string::String::from)
        };
        let invalid = |value: &str| {
            let mut text = alloc::string::String::from("invalid label value: ");
            crate::validation::quote(value, &mut text);
            text + ": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
        };
        let plain = || testing::on(testing::pod("plain", &[]), "m1");
        assert_eq!(error(vec![], preferring("incoming", "a b"), 1), None);
        assert_eq!(
            error(vec![plain()], preferring("incoming", "a b"), 1),
            Some(invalid("a b"))
        );
        // The incoming pod's terms come first for each placed pod.
        assert_eq!(
            error(
                vec![testing::on(preferring("placed", "x/y"), "m1")],
                preferring("incoming", "a b"),
                1
            ),
            Some(invalid("a b"))
        );
        assert_eq!(
            error(
                vec![testing::on(preferring("placed", "x/y"), "m1")],
                testing::pod("incoming", &[]),
                1
            ),
            Some(invalid("x/y"))
        );
        // A placed pod's required affinity terms count only with a hard weight.
        let required = || testing::on(requiring("placed", "x/y"), "m1");
        assert_eq!(
            error(vec![required()], testing::pod("incoming", &[]), 1),
            Some(invalid("x/y"))
        );
        assert_eq!(
            error(vec![required()], testing::pod("incoming", &[]), 0),
            None
        );
    }

    // 1.11 `TestHardPodAffinitySymmetricWeight`.
    #[test]
    fn hard_affinity_symmetric_weight() {
        let required = PodAffinityTerm {
            label_selector: Some(LabelSelector {
                match_expressions: vec![LabelSelectorRequirement {
                    key: "service".into(),
                    operator: "In".into(),
                    values: vec!["S1".into()],
                }],
                ..LabelSelector::default()
            }),
            topology_key: "region".into(),
            ..PodAffinityTerm::default()
        };
        let with_affinity = |name: &str, on: &str| {
            let mut pod = testing::on(testing::pod(name, &[]), on);
            pod.spec.affinity = Some(Affinity {
                pod_affinity: Some(PodAffinity {
                    required_during_scheduling_ignored_during_execution: vec![required.clone()],
                    ..PodAffinity::default()
                }),
                ..Affinity::default()
            });
            pod
        };
        let mut incoming = testing::pod("incoming", &[]);
        incoming
            .metadata
            .labels
            .insert("service".into(), "S1".into());
        let cluster = testing::cluster(
            vec![
                node("m1", "region", "China"),
                node("m2", "region", "India"),
                node("m3", "az", "az1"),
            ],
            vec![with_affinity("a", "m1"), with_affinity("b", "m2"), incoming],
        );
        assert_eq!(
            run(&PriorityKind::InterPodAffinity, &cluster, 2, 1),
            [10, 10, 0]
        );
        assert_eq!(
            run(&PriorityKind::InterPodAffinity, &cluster, 2, 0),
            [0, 0, 0]
        );
    }
}
