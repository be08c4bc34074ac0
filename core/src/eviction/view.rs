//! The cluster the timeline's rounds of placing schedule on, kept from round to round.
//!
//! A round sees the live nodes and the pods that hold or want room: running and
//! terminating pods bound, replacements waiting for a node pending. Copying 150 000 pod
//! entries into a fresh cluster for every round, and dropping them after, was most of a
//! round that places a few StatefulSet pods (and every retry of a blocked drain is a
//! round). The view is built once and then follows the pods whose life changed: a pod
//! that is gone stays in it as terminated and unbound (no engine counts such a pod), so
//! positions never move and new pods join at the end, in the timeline's order, as a fresh
//! view would list them. When nodes are removed their positions move, and the view is
//! built again. The nodes' image table is kept with the view too: the timeline never
//! changes a node's images, and indexing 5 000 nodes' images took a round about 12 ms in
//! wasm.

use alloc::rc::Rc;
use alloc::vec::Vec;

use super::{Life, LiveNodes, Shared};
use crate::cluster::{Cluster, PodEntry, PodState};
use crate::schedule::plugins::image_locality::ImageTable;

/// The cluster of the rounds, and where each timeline pod is in it.
pub(super) struct View {
    /// The live nodes during a round (empty between rounds: the timeline keeps them), the
    /// pods, and the input's other objects.
    pub(super) cluster: Cluster,
    /// Per pod of the timeline, its position among the view's pods, if listed.
    positions: Vec<Option<usize>>,
    /// [`LiveNodes::generation`] when the view was built: the node positions its pods are
    /// bound by.
    generation: u32,
    /// The live nodes' images, indexed in the first round.
    images: Option<Rc<ImageTable>>,
}

impl View {
    /// A view of every pod of the timeline; `base` gives the objects other than nodes and
    /// pods.
    pub(super) fn new(
        base: &Cluster,
        pods: &[Shared<'_, PodEntry>],
        life: &[Life],
        node_of: &[Option<usize>],
        live: &LiveNodes,
    ) -> Self {
        let mut view = Self {
            cluster: Cluster {
                pods: Vec::with_capacity(pods.len()),
                bound_nodes: Vec::with_capacity(pods.len()),
                priority_classes: base.priority_classes.clone(),
                disruption_budgets: base.disruption_budgets.clone(),
                namespaces: base.namespaces.clone(),
                services: base.services.clone(),
                workloads: base.workloads.clone(),
                storage: base.storage.clone(),
                policy: base.policy.clone(),
                scheduler_configuration: base.scheduler_configuration.clone(),
                master_config: base.master_config.clone(),
                version: base.version,
                ..Cluster::default()
            },
            positions: Vec::with_capacity(pods.len()),
            generation: live.generation(),
            images: None,
        };
        for pod in 0..pods.len() {
            view.follow(pod, pods, life, node_of, live);
        }
        view
    }

    /// The image table of the view's nodes; call it while they are in the view's cluster.
    pub(super) fn image_table(&mut self) -> Rc<ImageTable> {
        let nodes = &self.cluster.nodes;
        Rc::clone(
            self.images
                .get_or_insert_with(|| Rc::new(ImageTable::new(nodes))),
        )
    }

    /// True if the view's pods are bound by the live nodes' current positions.
    pub(super) fn fits(&self, live: &LiveNodes) -> bool {
        self.generation == live.generation()
    }

    /// Brings one pod up to its life: listed bound while it holds room on a node, pending
    /// while it waits for one, terminated and unbound once it is gone. Pods not yet listed
    /// join at the end: follow new pods in the timeline's order.
    pub(super) fn follow(
        &mut self,
        pod: usize,
        pods: &[Shared<'_, PodEntry>],
        life: &[Life],
        node_of: &[Option<usize>],
        live: &LiveNodes,
    ) {
        let wanted = match life.get(pod) {
            Some(Life::Running | Life::Terminating { .. }) => {
                let node = node_of.get(pod).copied().flatten();
                Some((PodState::Bound, node.and_then(|node| live.position(node))))
            }
            Some(Life::Waiting) => Some((PodState::Pending, None)),
            Some(Life::Gone | Life::Elsewhere) | None => None,
        };
        let position = self.positions.get(pod).copied().flatten();
        match (wanted, position) {
            (Some((state, node)), Some(position)) => self.set(position, state, node),
            (Some((state, node)), None) => {
                let Some(entry) = pods.get(pod) else {
                    return;
                };
                let mut listed = PodEntry::clone(entry);
                listed.state = state;
                if self.positions.len() <= pod {
                    self.positions.resize(pod.saturating_add(1), None);
                }
                if let Some(slot) = self.positions.get_mut(pod) {
                    *slot = Some(self.cluster.pods.len());
                }
                self.cluster.pods.push(listed);
                self.cluster.bound_nodes.push(node);
            }
            (None, Some(position)) => self.set(position, PodState::Terminated, None),
            (None, None) => {}
        }
    }

    fn set(&mut self, position: usize, state: PodState, node: Option<usize>) {
        if let Some(entry) = self.cluster.pods.get_mut(position) {
            entry.state = state;
        }
        if let Some(slot) = self.cluster.bound_nodes.get_mut(position) {
            *slot = node;
        }
    }
}
