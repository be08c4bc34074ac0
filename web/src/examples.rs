//! The example gallery: one file per example in `web/examples/`, built into the app.
//!
//! A file opens with a comment: its first line is the title, the following comment lines
//! the description. The file name, without its numeric ordering prefix, names the
//! document the example opens as. `build.rs` lists the files.

/// One example cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Example {
    file: &'static str,
    text: &'static str,
}

/// Every example, in file-name order; the first is the one the playground opens with.
pub const EXAMPLES: &[Example] = include!(concat!(env!("OUT_DIR"), "/examples.rs"));

impl Example {
    const fn new(file: &'static str, text: &'static str) -> Self {
        Self { file, text }
    }

    /// The example the playground opens with.
    #[must_use]
    pub fn first() -> Self {
        EXAMPLES[0]
    }

    /// The example with this [`Example::name`].
    #[must_use]
    pub fn named(name: &str) -> Option<Self> {
        EXAMPLES
            .iter()
            .copied()
            .find(|example| example.name() == name)
    }

    /// The document name: the file name without its ordering prefix (`01-`).
    #[must_use]
    pub fn name(&self) -> &'static str {
        let unprefixed = self.file.trim_start_matches(|c: char| c.is_ascii_digit());
        unprefixed.strip_prefix('-').unwrap_or(unprefixed)
    }

    /// The cluster, with its header comment.
    #[must_use]
    pub fn text(&self) -> &'static str {
        self.text
    }

    /// The first line of the header comment.
    #[must_use]
    pub fn title(&self) -> &'static str {
        self.header().next().unwrap_or(self.name())
    }

    /// The rest of the header comment, as one paragraph.
    #[must_use]
    pub fn description(&self) -> String {
        self.header().skip(1).collect::<Vec<_>>().join(" ")
    }

    fn header(&self) -> impl Iterator<Item = &'static str> {
        self.text
            .lines()
            .map_while(|line| line.strip_prefix('#'))
            .map(str::trim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubefit_core::duration::SECOND;
    use kubefit_core::{evaluate, Options, Source};

    #[test]
    fn every_example_has_a_title_a_description_and_a_unique_name() {
        assert!(EXAMPLES.len() >= 20, "{}", EXAMPLES.len());
        let mut names = std::collections::BTreeSet::new();
        for example in EXAMPLES {
            assert!(!example.title().is_empty(), "{}", example.file);
            assert!(!example.description().is_empty(), "{}", example.file);
            assert!(names.insert(example.name()), "{}", example.name());
            assert_eq!(Example::named(example.name()), Some(*example));
        }
        assert_eq!(Example::first().name(), "mixed-cluster.yaml");
        assert_eq!(Example::first().title(), "Small mixed cluster");
    }

    /// Admission refusals are the point of some examples; any other error is a mistake.
    #[test]
    fn every_example_evaluates_without_errors() {
        for example in EXAMPLES {
            let report = evaluate(
                &[Source::new(example.name(), example.text())],
                &Options::default(),
            );
            let mistakes: Vec<_> = report
                .diagnostics
                .iter()
                .filter(|diagnostic| {
                    diagnostic.is_error() && !diagnostic.code.starts_with("admission/")
                })
                .collect();
            assert!(mistakes.is_empty(), "{}: {mistakes:?}", example.name());
            assert!(!report.nodes.is_empty(), "{}", example.name());
            assert!(!report.pods.is_empty(), "{}", example.name());
        }
    }

    #[test]
    fn the_gallery_holds_the_documented_scenarios() {
        for name in [
            "mixed-cluster.yaml",
            "kubectl-list-dump.yaml",
            "taints-three.yaml",
            "node-affinity-matching.yaml",
            "node-affinity-no-match.yaml",
            "pod-affinity.yaml",
            "pod-anti-affinity.yaml",
            "pod-affinity-no-match.yaml",
            "autoscaler-core-limit.yaml",
            "node-selectors.yaml",
            "taints-noschedule.yaml",
            "priority-preemption.yaml",
            "project-node-selector.yaml",
            "scheduler-policy.yaml",
            "taints-three-timeline.yaml",
            "toleration-seconds.yaml",
            "daemonset-tolerations.yaml",
            "descheduler-policy.yaml",
            "machine-deletion-hooks.yaml",
            "etcd-quorum-guard.yaml",
        ] {
            assert!(Example::named(name).is_some(), "{name}");
        }
        let dump = Example::named("kubectl-list-dump.yaml").expect("the dump");
        assert!(dump.text().contains("\nkind: List\n"));
    }

    /// The key pod of each example from the OpenShift scheduling chapter: its outcome, its
    /// node and the start of its message.
    #[test]
    fn the_openshift_chapter_examples_place_their_key_pod() {
        let cases = [
            (
                "node-affinity-matching.yaml",
                "default/pod-s1",
                "scheduled",
                Some("node1"),
                "",
            ),
            (
                "node-affinity-no-match.yaml",
                "default/pod-s1",
                "unschedulable",
                None,
                "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
            ),
            (
                "pod-affinity.yaml",
                "default/team4a",
                "scheduled",
                Some("node1"),
                "",
            ),
            (
                "pod-anti-affinity.yaml",
                "default/pod-s2",
                "scheduled",
                Some("node2"),
                "",
            ),
            (
                "pod-affinity-no-match.yaml",
                "default/pod-s2",
                "unschedulable",
                None,
                "0/1 nodes are available: 1 node(s) didn't match pod affinity rules.",
            ),
            (
                "taints-three.yaml",
                "default/new-pod",
                "unschedulable",
                None,
                "0/1 nodes are available: 1 node(s) had untolerated taint(s).",
            ),
            (
                "node-selectors.yaml",
                "default/hello-pod",
                "scheduled",
                Some("node-apac-east"),
                "",
            ),
            (
                "node-selectors.yaml",
                "default/pod-us-west",
                "unschedulable",
                None,
                "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
            ),
            (
                "taints-noschedule.yaml",
                "default/group-app",
                "scheduled",
                Some("node1"),
                "",
            ),
            (
                "taints-noschedule.yaml",
                "default/ssd-app",
                "scheduled",
                Some("node2"),
                "",
            ),
            (
                "taints-noschedule.yaml",
                "default/plain-app",
                "unschedulable",
                None,
                "0/2 nodes are available: 2 node(s) had untolerated taint(s).",
            ),
            (
                "priority-preemption.yaml",
                "default/nginx",
                "nominated",
                Some("node1"),
                "0/1 nodes are available: 1 Insufficient cpu.",
            ),
            (
                "project-node-selector.yaml",
                "ns1/hello-pod",
                "scheduled",
                Some("node1"),
                "",
            ),
            (
                "project-node-selector.yaml",
                "ns1/production-pod",
                "rejected",
                None,
                "pods \"production-pod\" is forbidden: pod node label selector conflicts with its project node label selector",
            ),
            (
                "scheduler-policy.yaml",
                "default/web-2",
                "scheduled",
                Some("node-b"),
                "",
            ),
            (
                "scheduler-policy.yaml",
                "default/picky",
                "unschedulable",
                None,
                "0/5 nodes are available: 5 node(s) didn't match node selector.",
            ),
        ];
        for (name, pod, outcome, node, message) in cases {
            let example = Example::named(name).expect(name);
            let report = evaluate(&[Source::new(name, example.text())], &Options::default());
            let placement = report
                .scheduling
                .pods
                .iter()
                .find(|placement| placement.pod == pod)
                .unwrap_or_else(|| panic!("{name}: no placement for {pod}"));
            let json = serde_json::to_value(placement.outcome).unwrap();
            assert_eq!(json, outcome, "{name}: {pod}");
            assert_eq!(placement.node.as_deref(), node, "{name}: {pod}");
            let text = placement.message.as_deref().unwrap_or_default();
            assert!(text.starts_with(message), "{name}: {pod}: {text}");
        }
        let policy = Example::named("scheduler-policy.yaml").unwrap();
        let report = evaluate(&[Source::new("p", policy.text())], &Options::default());
        assert_eq!(report.profile, "openshift-3.11");
        let preemption = Example::named("priority-preemption.yaml").unwrap();
        let report = evaluate(&[Source::new("p", preemption.text())], &Options::default());
        let nginx = report.scheduling.pods[0].preemption.as_ref().unwrap();
        assert_eq!(nginx.victims[0].pod, "default/batch-1");
        assert_eq!(nginx.violated_disruption_budgets, ["default/batch"]);
    }

    /// The key events of each example from the OpenShift chapters on taints, the
    /// descheduler and machine deletion: who is evicted when, from where, to where.
    #[test]
    fn the_disruption_examples_play_their_key_events() {
        let report = |name: &str| {
            let example = Example::named(name).expect(name);
            let report = evaluate(&[Source::new(name, example.text())], &Options::default());
            assert!(
                report.diagnostics.is_empty(),
                "{name}: {:?}",
                report.diagnostics
            );
            report
        };
        let evictions = |name: &str| -> Vec<(String, String, i64, Option<String>)> {
            report(name)
                .disruption
                .evictions
                .iter()
                .map(|e| {
                    (
                        e.pod.to_string(),
                        e.node.to_string(),
                        e.at.0 / SECOND,
                        e.rescheduled_to.clone(),
                    )
                })
                .collect()
        };
        let evicted = |pod: &str, node: &str, at: i64, to: Option<&str>| {
            (pod.to_owned(), node.to_owned(), at, to.map(str::to_owned))
        };
        // Only the pod that tolerates nothing goes; running stays.
        assert_eq!(
            evictions("taints-three-timeline.yaml"),
            [evicted("default/plain", "node1", 0, None)]
        );
        assert_eq!(
            evictions("toleration-seconds.yaml"),
            [
                evicted("default/web-abcde", "node1", 0, Some("node3")),
                evicted("default/patient", "node1", 3600, None),
            ]
        );
        let cancelled = report("toleration-seconds.yaml");
        assert!(cancelled.disruption.timeline.iter().any(|event| {
            event.object == "Pod/default/reprieved"
                && event.at.0 == 600 * SECOND
                && event.message == "Cancelling deletion of Pod default/reprieved"
        }));
        // The DaemonSet pod is never evicted.
        assert_eq!(
            evictions("daemonset-tolerations.yaml"),
            [
                evicted("default/web-x1y2z", "node1", 360, Some("node2")),
                evicted("default/slow", "node1", 6060, None),
            ]
        );
        // The descheduler runs once, at 1m; whatever it evicts comes from node1.
        let descheduled = report("descheduler-policy.yaml");
        let runs: Vec<i64> = descheduled
            .disruption
            .descheduler
            .iter()
            .map(|run| run.at.0)
            .collect();
        assert_eq!(runs, [60 * SECOND]);
        for eviction in &descheduled.disruption.evictions {
            assert_eq!(eviction.node, "node1", "{eviction:?}");
            assert!(eviction.cause.starts_with("descheduler:"), "{eviction:?}");
        }
        // Hooks hold the drain until 5m and the instance until 20m.
        assert_eq!(
            evictions("machine-deletion-hooks.yaml"),
            [evicted(
                "default/app-abcde",
                "worker-a-1",
                300,
                Some("worker-b-1")
            )]
        );
        let hooks = report("machine-deletion-hooks.yaml");
        let removed = hooks
            .disruption
            .timeline
            .iter()
            .find(|event| event.reason == "RemovingNode");
        assert_eq!(removed.map(|event| event.at.0), Some(1200 * SECOND));
        let machine = &hooks.disruption.machines[0];
        assert!(machine.removed);
        assert!(machine
            .conditions
            .iter()
            .all(|condition| condition.status == "True"));
        // The quorum guard: nothing is evicted before the etcd operator removes its hook.
        assert_eq!(
            evictions("etcd-quorum-guard.yaml"),
            [evicted(
                "openshift-console/console-abcde",
                "master-0",
                900,
                Some("master-3")
            )]
        );
        let guard = report("etcd-quorum-guard.yaml");
        assert!(guard.disruption.timeline[0].message.to_string().contains(
            "Drainable=False (HookPresent): Drain operation currently blocked by: [{Name:EtcdQuorumOperator Owner:clusteroperator/etcd}]"
        ));
    }
}
