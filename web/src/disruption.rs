//! The disruption panel's decisions: timeline lanes and axis, and each evicted pod's fate.

use kubefit_core::duration::{Duration, SECOND};

use crate::tables;
use crate::view::{Event, Eviction, View};

/// A time as Go writes a duration (`1h0m0s`).
#[must_use]
pub fn time(nanos: i64) -> String {
    Duration(nanos).to_string()
}

/// Round tick intervals of the time axis, in seconds.
const INTERVALS: [i64; 14] = [
    1, 5, 10, 30, 60, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400,
];

/// The axis ticks from 0 to `until`: at most seven, at a round interval.
#[must_use]
pub fn ticks(until: i64) -> Vec<i64> {
    let interval = INTERVALS
        .iter()
        .map(|seconds| seconds * SECOND)
        .find(|interval| until / interval <= 6)
        .unwrap_or(until / 6)
        .max(1);
    (0..=until / interval).map(|tick| tick * interval).collect()
}

/// Where `at` is on an axis that ends at `until`, as an SVG length (`12.5%`).
#[must_use]
pub fn percent(at: i64, until: i64) -> String {
    // A position on a screen needs no more than f64's 53 bits.
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
    let per_mille = if until > 0 {
        (at as f64 / until as f64 * 1000.0).clamp(0.0, 1000.0) as i64
    } else {
        0
    };
    format!("{}.{}%", per_mille / 10, per_mille % 10)
}

/// The pill class of an event: what it means for the workloads.
#[must_use]
pub fn tone(event: &Event) -> &'static str {
    match event.kind.as_str() {
        "pod-evicted" | "pod-deleted" | "machine-removed" => "error",
        "drain" if event.reason == "DrainFailed" => "error",
        "eviction-blocked" | "eviction-scheduled" | "pod-pending" | "node-lifecycle" => "warning",
        "pod-rescheduled" | "eviction-cancelled" | "hook-removed" | "taint-removed" => "ok",
        _ => "muted",
    }
}

/// One lane of the timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane<'a> {
    /// `Node/name` for a node's lane, else the object itself (`MachineSet/ns/name`, …).
    pub object: String,
    /// Its rows, in time order.
    pub rows: Vec<Row<'a>>,
}

/// One row of a lane: an event, or a pod's refused evictions in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    /// The (first) event.
    pub event: &'a Event,
    /// How many events the row stands for.
    pub count: usize,
    /// When the last of them happened.
    pub last: i64,
}

/// The timeline's lanes: nodes in input order, then the other objects as they first
/// appear.
///
/// Events go to the lane of the node they happened on: a pod's events to the node it ran
/// on (an evicted pod's node, a bound pod's node, a replacement's new node), a machine's
/// to the node it backs; anything else has a lane of its own. A drain retries a refused
/// eviction every five seconds, so a pod's refusals in a row are one row with a count.
#[must_use]
pub fn lanes(view: &View) -> Vec<Lane<'_>> {
    let pods = &view.pods;
    let key = |index: usize| (pods[index].namespace.as_str(), pods[index].name.as_str());
    let by_name = tables::order(pods.len(), false, &|a, b| key(a).cmp(&key(b)));
    let mut lanes: Vec<Lane<'_>> = Vec::new();
    // Each pod's row of refusals (object, lane, row), while nothing else happened to it.
    let mut refusals: Vec<(&str, usize, usize)> = Vec::new();
    for event in &view.events {
        let object = node_of(view, &by_name, &event.object)
            .map_or_else(|| event.object.clone(), |node| format!("Node/{node}"));
        let lane = match lanes.iter().position(|lane| lane.object == object) {
            Some(lane) => lane,
            None => {
                lanes.push(Lane {
                    object,
                    rows: Vec::new(),
                });
                lanes.len() - 1
            }
        };
        let open = refusals.iter().position(|open| open.0 == event.object);
        if event.kind == "eviction-blocked" {
            if let Some(open) = open {
                let (_, lane, row) = refusals[open];
                let row = &mut lanes[lane].rows[row];
                row.count += 1;
                row.last = event.at;
                continue;
            }
            refusals.push((&event.object, lane, lanes[lane].rows.len()));
        } else if let Some(open) = open {
            refusals.swap_remove(open);
        }
        lanes[lane].rows.push(Row {
            event,
            count: 1,
            last: event.at,
        });
    }
    // Nodes first, in input order; the other lanes keep the order they appeared in.
    let ranks: Vec<usize> = lanes
        .iter()
        .map(|lane| {
            lane.object
                .strip_prefix("Node/")
                .and_then(|name| view.nodes.iter().position(|node| node.name == name))
                .unwrap_or(usize::MAX)
        })
        .collect();
    let mut slots: Vec<Option<Lane<'_>>> = lanes.into_iter().map(Some).collect();
    tables::order(slots.len(), false, &|a, b| ranks[a].cmp(&ranks[b]))
        .into_iter()
        .filter_map(|index| slots[index].take())
        .collect()
}

/// The node an event's object is on: a node itself; a pod's node (an evicted pod's, a
/// bound pod's, a replacement's); a machine's node. `by_name` orders the pod rows by
/// namespace and name.
fn node_of<'a>(view: &'a View, by_name: &[usize], object: &'a str) -> Option<&'a str> {
    let (kind, name) = object.split_once('/')?;
    let evictions = &view.evictions;
    match kind {
        "Node" => Some(name),
        "Pod" => evictions
            .iter()
            .find(|eviction| eviction.pod == name)
            .map(|eviction| eviction.node.as_str())
            .or_else(|| {
                let pods = &view.pods;
                let wanted = name.split_once('/')?;
                let at = by_name
                    .binary_search_by(|&index| {
                        (pods[index].namespace.as_str(), pods[index].name.as_str()).cmp(&wanted)
                    })
                    .ok()?;
                pods[by_name[at]].node.as_deref()
            })
            .or_else(|| {
                evictions
                    .iter()
                    .find(|eviction| eviction.replacement.as_deref() == Some(name))
                    .and_then(|eviction| eviction.rescheduled_to.as_deref())
            }),
        "Machine" => view
            .nodes
            .iter()
            .find(|node| node.machine.as_deref() == Some(name))
            .map(|node| node.name.as_str()),
        _ => None,
    }
}

/// What became of an evicted pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After<'a> {
    /// Its replacement runs on this node.
    Node(&'a str),
    /// Its replacement stays Pending, with the scheduler's message when there is one.
    Pending(&'a str, Option<&'a str>),
    /// Nothing replaces it (a bare pod, a DaemonSet pod).
    Gone,
}

/// An evicted pod, where it ran and where its replacement is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Displaced<'a> {
    /// The eviction.
    pub eviction: &'a Eviction,
    /// Where its replacement is.
    pub after: After<'a>,
    /// How often the eviction API refused to evict it first.
    pub refused: usize,
}

/// Every evicted pod, in eviction order.
#[must_use]
pub fn displaced(view: &View) -> Vec<Displaced<'_>> {
    let events = |pod: &str, kind: &'static str| {
        let object = format!("Pod/{pod}");
        view.events
            .iter()
            .filter(move |event| event.object == object && event.kind == kind)
    };
    view.evictions
        .iter()
        .map(|eviction| Displaced {
            eviction,
            after: match (&eviction.rescheduled_to, &eviction.replacement) {
                (Some(node), _) => After::Node(node),
                (None, Some(pod)) => After::Pending(
                    pod,
                    events(pod, "pod-pending")
                        .next_back()
                        .map(|event| event.message.as_str()),
                ),
                (None, None) => After::Gone,
            },
            refused: events(&eviction.pod, "eviction-blocked").count(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::Outcome;

    fn view(text: &str) -> View {
        Outcome::evaluate(&[("input.yaml", text.as_bytes())]).view
    }

    fn fixture(name: &str) -> View {
        let path = format!(
            "{}/../tests/scenarios/disruption-{name}/input.yaml",
            env!("CARGO_MANIFEST_DIR")
        );
        view(&std::fs::read_to_string(path).expect("the fixture"))
    }

    fn lane_names(view: &View) -> Vec<String> {
        lanes(view).into_iter().map(|lane| lane.object).collect()
    }

    #[test]
    fn times_are_go_durations_on_a_round_axis() {
        assert_eq!(time(0), "0s");
        assert_eq!(time(300 * SECOND), "5m0s");
        assert_eq!(time(3600 * SECOND), "1h0m0s");
        let labels =
            |until: i64| -> Vec<String> { ticks(until * SECOND).into_iter().map(time).collect() };
        assert_eq!(
            labels(3600),
            ["0s", "10m0s", "20m0s", "30m0s", "40m0s", "50m0s", "1h0m0s"]
        );
        assert_eq!(labels(7200), ["0s", "30m0s", "1h0m0s", "1h30m0s", "2h0m0s"]);
        assert_eq!(labels(100), ["0s", "30s", "1m0s", "1m30s"]);
        assert_eq!(labels(0), ["0s"]);
        assert_eq!(
            ticks(30 * 86_400 * SECOND).len(),
            7,
            "beyond a day: a seventh each"
        );
        assert_eq!(percent(0, 3600), "0.0%");
        assert_eq!(percent(450, 3600), "12.5%");
        assert_eq!(percent(3600, 3600), "100.0%");
        assert_eq!(percent(5, 0), "0.0%");
        assert_eq!(
            percent(i64::MAX, i64::MAX / 2),
            "100.0%",
            "clamped, no overflow"
        );
    }

    #[test]
    fn events_go_to_the_node_they_happened_on() {
        // Pods stay on their node's lane; the replacement is on the node it went to.
        let view = fixture("toleration-seconds");
        assert_eq!(
            lane_names(&view),
            ["Node/node1", "Node/node2", "Node/node3"]
        );
        let lanes = lanes(&view);
        let node1: Vec<&str> = lanes[0]
            .rows
            .iter()
            .map(|row| row.event.kind.as_str())
            .collect();
        assert_eq!(
            node1,
            [
                "taint-added",
                "pod-evicted",
                "eviction-scheduled",
                "pod-deleted",
                "pod-evicted",
                "pod-deleted"
            ]
        );
        assert_eq!(lanes[2].rows[0].event.object, "Pod/default/web-5p8q2");
        assert!(lanes
            .iter()
            .all(|lane| lane.rows.iter().all(|row| row.count == 1)));

        // A machine's events are its node's; the machine set has a lane of its own.
        let view = fixture("machine-hooks");
        assert_eq!(
            lane_names(&view),
            [
                "Node/worker-a-1",
                "Node/worker-b-1",
                "MachineSet/openshift-machine-api/worker-a"
            ]
        );
        // Without a nodeRef, the machine keeps its own lane.
        let text = std::fs::read_to_string(format!(
            "{}/../tests/scenarios/disruption-machine-hooks/input.yaml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
        .replace("    nodeRef: {kind: Node, name: worker-a-1}\n", "");
        let view = super::tests::view(&text);
        let lanes = super::lanes(&view);
        let names: Vec<&str> = lanes.iter().map(|lane| lane.object.as_str()).collect();
        assert_eq!(
            names,
            [
                "Machine/openshift-machine-api/worker-a-1",
                "MachineSet/openshift-machine-api/worker-a"
            ]
        );
        assert!(super::tests::view("kind: Node\nmetadata: {name: n}\n")
            .events
            .is_empty());
    }

    #[test]
    fn refused_evictions_in_a_row_are_one_row_with_a_count() {
        let view = fixture("drain-budget");
        let lanes = lanes(&view);
        let blocked: Vec<&Row<'_>> = lanes
            .iter()
            .flat_map(|lane| &lane.rows)
            .filter(|row| row.event.kind == "eviction-blocked")
            .collect();
        assert_eq!(blocked.len(), 1);
        assert_eq!(blocked[0].event.object, "Pod/default/web-bbbbb");
        assert_eq!(tone(blocked[0].event), "warning");

        // Three refusals of one pod, then its eviction, then a refusal again.
        let event = |at: i64, kind: &str| Event {
            at,
            kind: kind.into(),
            object: "Pod/ns/p".into(),
            ..Event::default()
        };
        let view = View {
            events: vec![
                event(60, "eviction-blocked"),
                event(65, "eviction-blocked"),
                Event {
                    object: "Pod/ns/other".into(),
                    ..event(66, "pod-evicted")
                },
                event(70, "eviction-blocked"),
                event(75, "pod-evicted"),
                event(80, "eviction-blocked"),
            ],
            ..View::default()
        };
        let rows: Vec<(i64, usize, i64)> = super::lanes(&view)
            .iter()
            .flat_map(|lane| &lane.rows)
            .map(|row| (row.event.at, row.count, row.last))
            .collect();
        assert_eq!(rows, [(60, 3, 70), (75, 1, 75), (80, 1, 80), (66, 1, 66)]);
    }

    #[test]
    fn displaced_pods_land_on_a_node_stay_pending_or_are_gone() {
        let view = fixture("drain-budget");
        let moved = displaced(&view);
        let summary: Vec<(&str, &str, After<'_>, usize)> = moved
            .iter()
            .map(|d| {
                (
                    d.eviction.pod.as_str(),
                    d.eviction.node.as_str(),
                    d.after,
                    d.refused,
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("default/web-aaaaa", "node1", After::Node("node2"), 0),
                ("default/web-bbbbb", "node1", After::Node("node2"), 1),
            ]
        );
        assert_eq!(
            displaced(&fixture("toleration-seconds"))[1].after,
            After::Gone
        );

        // Nowhere to go: the replacement stays Pending with the scheduler's message.
        let text = "kind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}, conditions: [{type: Ready, status: 'True'}]}\n---\nkind: Pod\nmetadata:\n  name: web-1\n  namespace: default\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: u, controller: true}]\nspec: {nodeName: n1, containers: [{name: c, image: c}]}\n---\napiVersion: kubefit.dev/v1alpha1\nkind: Scenario\nmetadata: {name: s}\nspec:\n  steps:\n  - {at: 0s, drain: n1}\n";
        let view = super::tests::view(text);
        let [gone] = displaced(&view)[..] else {
            panic!("one eviction: {:?}", view.evictions);
        };
        let After::Pending(replacement, Some(message)) = gone.after else {
            panic!("{:?}", gone.after);
        };
        assert!(replacement.starts_with("default/web-"), "{replacement}");
        assert!(message.starts_with("0/1 nodes are available"), "{message}");
    }
}
