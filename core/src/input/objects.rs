//! Objects read from the input, and the sink that decodes and validates each one.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::decode::{self, decode};
use super::path::FieldPath;
use super::scalar::{self, Plain};
use super::tree::{NodeId, Style, Tree, Value};
use super::{Loaded, Span};
use crate::diagnostic::Diagnostic;
use crate::model::{
    ContainerStatus, CsiDriver, CsiNode, CsiStorageCapacity, DeschedulerPolicy,
    KubeSchedulerConfiguration, LabelSelector, Machine, MachineSet, MasterConfig, Namespace, Node,
    ObjectMeta, PersistentVolume, PersistentVolumeClaim, Pod, PodDisruptionBudget, Policy,
    PriorityClass, Scenario, Service, StorageClass, StringMap, Workload, WorkloadKind,
};
use crate::schedule::Version;
use crate::{resources, validation};

/// A decoded object of a kind kubefit models.
///
/// Each object is boxed: kinds differ in size from 100 to over 500 bytes, and the list of a
/// large dump grows by doubling, so unboxed every pod would carry a workload's size and the
/// list would briefly hold one and a half times itself (BENCHMARKS.md, decode memory).
#[derive(Clone, Debug, PartialEq)]
pub enum Resource {
    Node(Box<Node>),
    Pod(Box<Pod>),
    PriorityClass(Box<PriorityClass>),
    PodDisruptionBudget(Box<PodDisruptionBudget>),
    Namespace(Box<Namespace>),
    Service(Box<Service>),
    Workload(WorkloadKind, Box<Workload>),
    PersistentVolume(Box<PersistentVolume>),
    PersistentVolumeClaim(Box<PersistentVolumeClaim>),
    StorageClass(Box<StorageClass>),
    CsiNode(Box<CsiNode>),
    CsiDriver(Box<CsiDriver>),
    CsiStorageCapacity(Box<CsiStorageCapacity>),
    /// A 1.11 scheduler Policy file (selects the `openshift-3.11` profile).
    Policy(Box<Policy>),
    /// A scheduler configuration file (selects the `kubernetes-1.34` profile).
    KubeSchedulerConfiguration(Box<KubeSchedulerConfiguration>),
    /// OpenShift 3.11 master configuration (admission plugin settings).
    MasterConfig(Box<MasterConfig>),
    /// An OpenShift Machine API machine.
    Machine(Box<Machine>),
    /// An OpenShift Machine API machine set.
    MachineSet(Box<MachineSet>),
    /// The descheduler's policy file.
    DeschedulerPolicy(Box<DeschedulerPolicy>),
    /// kubefit's what-if steps.
    Scenario(Box<Scenario>),
}

impl Resource {
    /// The API kind, such as `Pod`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Node(_) => "Node",
            Self::Pod(_) => "Pod",
            Self::PriorityClass(_) => "PriorityClass",
            Self::PodDisruptionBudget(_) => "PodDisruptionBudget",
            Self::Namespace(_) => "Namespace",
            Self::Service(_) => "Service",
            Self::Workload(kind, _) => kind.as_str(),
            Self::PersistentVolume(_) => "PersistentVolume",
            Self::PersistentVolumeClaim(_) => "PersistentVolumeClaim",
            Self::StorageClass(_) => "StorageClass",
            Self::CsiNode(_) => "CSINode",
            Self::CsiDriver(_) => "CSIDriver",
            Self::CsiStorageCapacity(_) => "CSIStorageCapacity",
            Self::Policy(_) => "Policy",
            Self::KubeSchedulerConfiguration(_) => "KubeSchedulerConfiguration",
            Self::MasterConfig(_) => "MasterConfig",
            Self::Machine(_) => "Machine",
            Self::MachineSet(_) => "MachineSet",
            Self::DeschedulerPolicy(_) => "DeschedulerPolicy",
            Self::Scenario(_) => "Scenario",
        }
    }

    /// The object's metadata.
    #[must_use]
    pub fn meta(&self) -> &ObjectMeta {
        match self {
            Self::Node(node) => &node.metadata,
            Self::Pod(pod) => &pod.metadata,
            Self::PriorityClass(class) => &class.metadata,
            Self::PodDisruptionBudget(pdb) => &pdb.metadata,
            Self::Namespace(namespace) => &namespace.metadata,
            Self::Service(service) => &service.metadata,
            Self::Workload(_, workload) => &workload.metadata,
            Self::PersistentVolume(volume) => &volume.metadata,
            Self::PersistentVolumeClaim(claim) => &claim.metadata,
            Self::StorageClass(class) => &class.metadata,
            Self::CsiNode(node) => &node.metadata,
            Self::CsiDriver(driver) => &driver.metadata,
            Self::CsiStorageCapacity(capacity) => &capacity.metadata,
            Self::Policy(policy) => &policy.metadata,
            Self::KubeSchedulerConfiguration(configuration) => &configuration.metadata,
            Self::MasterConfig(config) => &config.metadata,
            Self::Machine(machine) => &machine.metadata,
            Self::MachineSet(set) => &set.metadata,
            Self::DeschedulerPolicy(policy) => &policy.metadata,
            Self::Scenario(scenario) => &scenario.metadata,
        }
    }

    /// True for kinds that live in a namespace.
    #[must_use]
    pub fn namespaced(&self) -> bool {
        is_namespaced(self.kind())
    }

    /// `Kind/namespace/name`, or `Kind/name` for cluster-scoped kinds.
    #[must_use]
    pub fn id(&self) -> String {
        let meta = self.meta();
        object_id(self.kind(), &meta.namespace, &meta.name)
    }
}

fn is_namespaced(kind: &str) -> bool {
    !matches!(
        kind,
        "Node"
            | "PriorityClass"
            | "Namespace"
            | "PersistentVolume"
            | "StorageClass"
            | "CSINode"
            | "CSIDriver"
            | "Policy"
            | "KubeSchedulerConfiguration"
            | "MasterConfig"
            | "DeschedulerPolicy"
            | "Scenario"
    )
}

/// `Kind/namespace/name` with the namespace defaulted to `default`.
pub(crate) fn object_id(kind: &str, namespace: &str, name: &str) -> String {
    if is_namespaced(kind) {
        let namespace = if namespace.is_empty() {
            "default"
        } else {
            namespace
        };
        alloc::format!("{kind}/{namespace}/{name}")
    } else {
        alloc::format!("{kind}/{name}")
    }
}

/// A valid object and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Object {
    /// The object.
    pub resource: Resource,
    /// Where the object is in the input.
    pub span: Span,
    /// Where some fields that later stages report on are: `spec.priorityClassName` and
    /// `spec.nodeName`, when present.
    pub field_spans: Vec<(&'static str, Span)>,
    /// Where each step of a Scenario is (empty for other kinds).
    pub step_spans: Vec<Span>,
    /// The problems only one release's API server finds ([`validation::Violation::only_in`]),
    /// with that release; an error among them leaves the object out under its release. An
    /// object every release refuses reports only the problems every release finds.
    pub release_rules: Vec<(Version, Diagnostic)>,
}

impl Object {
    /// The span of a field listed in [`Object::field_spans`], or of the whole object.
    #[must_use]
    pub fn span_of(&self, path: &str) -> Span {
        self.field_spans
            .iter()
            .find(|(field, _)| *field == path)
            .map_or(self.span, |(_, span)| *span)
    }
}

/// Fields whose spans are kept for diagnostics raised after decoding.
const TRACKED_FIELDS: [(&str, [&str; 2]); 2] = [
    ("spec.priorityClassName", ["spec", "priorityClassName"]),
    ("spec.nodeName", ["spec", "nodeName"]),
];

/// Collects objects and diagnostics as the readers produce them.
#[derive(Debug, Default)]
pub(crate) struct Sink {
    objects: Vec<Object>,
    diagnostics: Vec<Diagnostic>,
    ignored: Vec<(String, usize)>,
    /// Items of the current document's `items` sequence, kept until the document shows it
    /// is a list.
    pending: Vec<Object>,
    pending_diagnostics: Vec<Diagnostic>,
    pending_ignored: Vec<String>,
    /// The kinds of the objects decoded from the current document's items.
    list_root: Option<bool>,
}

/// What a [`Sink`] held at some point, to go back to it ([`Sink::rollback`]): the YAML
/// fast path's fallback.
#[cfg(feature = "yaml")]
#[derive(Debug)]
pub(crate) struct Checkpoint {
    objects: usize,
    diagnostics: usize,
    ignored: Vec<(String, usize)>,
}

#[cfg(feature = "yaml")]
impl Sink {
    /// Marks what the sink holds now.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            objects: self.objects.len(),
            diagnostics: self.diagnostics.len(),
            ignored: self.ignored.clone(),
        }
    }

    /// Forgets everything received since `checkpoint`, so that another reader can read the
    /// same text again.
    pub fn rollback(&mut self, checkpoint: Checkpoint) {
        self.objects.truncate(checkpoint.objects);
        self.diagnostics.truncate(checkpoint.diagnostics);
        self.ignored = checkpoint.ignored;
        self.pending.clear();
        self.pending_diagnostics.clear();
        self.pending_ignored.clear();
        self.list_root = None;
    }
}

impl Sink {
    pub fn diagnostic(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// An element of a top-level `items` sequence.
    pub fn item(&mut self, tree: &Tree<'_>, id: NodeId, index: usize, list_kind: Option<&str>) {
        let item_kind = list_kind
            .and_then(|kind| kind.strip_suffix("List"))
            .filter(|kind| !kind.is_empty());
        let mut read = Read::default();
        read_object(tree, id, item_kind, Some(index), &mut read);
        self.pending.extend(read.object);
        self.pending_diagnostics.extend(read.diagnostics);
        self.pending_ignored.extend(read.ignored);
    }

    /// The root of a complete document.
    pub fn document(&mut self, tree: &Tree<'_>, root: NodeId) {
        // An empty document (comments only, or nothing between two `---`) holds no object.
        if let Some(Value::Scalar(text, Style::Plain)) = tree.node(root).map(|node| &node.value) {
            if super::scalar::resolve(text) == super::scalar::Plain::Null {
                return;
            }
        }
        let kind = tree.str_at(root, &["kind"]).unwrap_or_default();
        let is_list = kind.ends_with("List") && tree.get(root, "items").is_some();
        self.list_root = Some(is_list);
        if is_list {
            return;
        }
        let mut read = Read::default();
        read_object(tree, root, None, None, &mut read);
        self.objects.extend(read.object);
        self.diagnostics.extend(read.diagnostics);
        if let Some(kind) = read.ignored {
            self.count_ignored(kind);
        }
    }

    /// Ends a document: its list items count only if it was a list and nothing failed.
    pub fn end_document(&mut self, failed: bool) {
        let keep = !failed && self.list_root == Some(true);
        let pending = core::mem::take(&mut self.pending);
        let pending_diagnostics = core::mem::take(&mut self.pending_diagnostics);
        let pending_ignored = core::mem::take(&mut self.pending_ignored);
        if keep {
            if self.objects.is_empty() {
                // The usual case (one list per source): the items become the objects as
                // they are, instead of being copied while both lists are held.
                self.objects = pending;
            } else {
                self.objects.extend(pending);
            }
            self.diagnostics.extend(pending_diagnostics);
            for kind in pending_ignored {
                self.count_ignored(kind);
            }
        }
        self.list_root = None;
    }

    fn count_ignored(&mut self, kind: String) {
        match self.ignored.iter_mut().find(|(seen, _)| *seen == kind) {
            Some((_, count)) => *count += 1,
            None => self.ignored.push((kind, 1)),
        }
    }

    pub fn finish(mut self) -> Loaded {
        // A list of 150 000 objects grew by doubling: give back the unused room (in place).
        self.objects.shrink_to_fit();
        Loaded {
            objects: self.objects,
            diagnostics: self.diagnostics,
            ignored: self.ignored,
        }
    }
}

/// What reading one object produced.
#[derive(Default)]
struct Read {
    object: Option<Object>,
    diagnostics: Vec<Diagnostic>,
    ignored: Option<String>,
}

/// Decodes and validates one object node.
fn read_object(
    tree: &Tree<'_>,
    id: NodeId,
    implied_kind: Option<&str>,
    item: Option<usize>,
    read: &mut Read,
) {
    let span = tree.span(id);
    let place = match item {
        Some(index) => alloc::format!("items[{index}]"),
        None => "the document".to_string(),
    };
    if !matches!(
        tree.node(id).map(|node| &node.value),
        Some(Value::Map { .. })
    ) {
        let found = match tree.node(id).map(|node| &node.value) {
            Some(Value::Seq { .. }) => "a list",
            _ => "a scalar",
        };
        read.diagnostics.push(
            Diagnostic::error(
                "input/not-an-object",
                alloc::format!("{place} is {found}, expected a Kubernetes object"),
            )
            .with_span(span),
        );
        return;
    }
    let kind = match tree.str_at(id, &["kind"]).or(implied_kind) {
        Some(kind) if !kind.is_empty() => kind,
        _ => {
            let mut diagnostic =
                Diagnostic::error("input/required", "`kind` is required").with_span(span);
            if item.is_some() {
                diagnostic = diagnostic.with_path(alloc::format!("{place}.kind"));
            } else {
                diagnostic = diagnostic.with_path("kind");
            }
            read.diagnostics.push(diagnostic);
            return;
        }
    };
    // An object of a group that does not serve the kind (a CRD of the same name, such as
    // Cluster API's `cluster.x-k8s.io` Machine) is another kind kubefit does not read,
    // named as upstream names a group and kind (`Machine.cluster.x-k8s.io`). Without an
    // apiVersion, as hand-written input often is, the kind is taken as kubefit reads it.
    if let Some(group) = tree
        .str_at(id, &["apiVersion"])
        .filter(|version| !version.is_empty())
        .map(|version| version.rsplit_once('/').map_or("", |(group, _)| group))
    {
        if !serves(group, kind) {
            read.ignored = Some(if group.is_empty() {
                kind.to_string()
            } else {
                alloc::format!("{kind}.{group}")
            });
            return;
        }
    }
    let name = tree.str_at(id, &["metadata", "name"]).unwrap_or_default();
    let namespace = tree
        .str_at(id, &["metadata", "namespace"])
        .unwrap_or_default();
    let object = object_id(kind, namespace, name);
    let decoded = match kind {
        "Node" => decode(tree, id).map(Resource::Node),
        "Pod" => pod(tree, id),
        "PriorityClass" => decode(tree, id).map(Resource::PriorityClass),
        "PodDisruptionBudget" => decode(tree, id).map(Resource::PodDisruptionBudget),
        "Namespace" => decode(tree, id).map(Resource::Namespace),
        "Service" => decode(tree, id).map(Resource::Service),
        "PersistentVolume" => decode(tree, id).map(Resource::PersistentVolume),
        "PersistentVolumeClaim" => decode(tree, id).map(Resource::PersistentVolumeClaim),
        "StorageClass" => decode(tree, id).map(Resource::StorageClass),
        "CSINode" => decode(tree, id).map(Resource::CsiNode),
        "CSIDriver" => decode(tree, id).map(Resource::CsiDriver),
        "CSIStorageCapacity" => decode(tree, id).map(Resource::CsiStorageCapacity),
        "ReplicaSet" => workload(tree, id, WorkloadKind::ReplicaSet),
        "ReplicationController" => workload(tree, id, WorkloadKind::ReplicationController),
        "Deployment" => workload(tree, id, WorkloadKind::Deployment),
        "StatefulSet" => workload(tree, id, WorkloadKind::StatefulSet),
        "DaemonSet" => workload(tree, id, WorkloadKind::DaemonSet),
        "Job" => workload(tree, id, WorkloadKind::Job),
        "Policy" => decode(tree, id).map(Resource::Policy),
        "KubeSchedulerConfiguration" => decode(tree, id).map(Resource::KubeSchedulerConfiguration),
        "MasterConfig" => decode(tree, id).map(Resource::MasterConfig),
        "Machine" => decode(tree, id).map(Resource::Machine),
        "MachineSet" => decode(tree, id).map(Resource::MachineSet),
        "DeschedulerPolicy" => decode(tree, id).map(Resource::DeschedulerPolicy),
        "Scenario" => decode(tree, id).map(Resource::Scenario),
        kind if kind.ends_with("List") && item.is_some() => {
            read.diagnostics.push(
                Diagnostic::error(
                    "input/nested-list",
                    alloc::format!("a `{kind}` inside a list is not supported"),
                )
                .with_object(object)
                .with_span(span),
            );
            return;
        }
        other => {
            read.ignored = Some(other.to_string());
            return;
        }
    };
    let resource = match decoded {
        Ok(resource) => resource,
        Err(error) => {
            let path = error.path();
            let mut diagnostic = Diagnostic::error(error.code, error.message.clone())
                .with_object(object)
                .with_span(error.node.map_or(span, |node| tree.span(node)));
            if !path.is_root() {
                diagnostic = diagnostic.with_path(path.to_string());
            }
            if let Some(help) = error.help {
                diagnostic = diagnostic.with_help(help);
            }
            read.diagnostics.push(diagnostic);
            return;
        }
    };
    let unknown = match resource {
        Resource::Scenario(_) => super::fields::scenario(tree, id),
        Resource::KubeSchedulerConfiguration(_) => super::fields::scheduler_configuration(tree, id),
        _ => Vec::new(),
    };
    // A strictly decoded configuration with an unknown key is refused as a whole.
    let mut valid = !unknown.iter().any(Diagnostic::is_error);
    read.diagnostics.extend(
        unknown
            .into_iter()
            .map(|unknown| unknown.with_object(object.clone())),
    );
    let violations = validation::validate(&resource);
    let mut release_rules = Vec::new();
    for violation in violations {
        valid &= !violation.diagnostic.is_error() || violation.only_in.is_some();
        let node = find(tree, id, &violation.path, violation.at_key);
        let mut diagnostic = violation
            .diagnostic
            .with_object(object.clone())
            .with_span(tree.span(node));
        if !violation.path.is_root() {
            diagnostic = diagnostic.with_path(violation.path.to_string());
        }
        match violation.only_in {
            Some(release) => release_rules.push((release, diagnostic)),
            None => read.diagnostics.push(diagnostic),
        }
    }
    if valid {
        let field_spans = TRACKED_FIELDS
            .iter()
            .filter_map(|(name, keys)| {
                let spec = tree.get(id, keys.first()?)?;
                Some((*name, tree.span(tree.get(spec, keys.get(1)?)?)))
            })
            .collect();
        let step_spans = match resource {
            Resource::Scenario(_) => tree
                .get(id, "spec")
                .and_then(|spec| tree.get(spec, "steps"))
                .map(|steps| {
                    tree.elements(steps)
                        .iter()
                        .map(|step| tree.span(*step))
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        read.object = Some(Object {
            resource,
            span,
            field_spans,
            step_spans,
            release_rules,
        });
    }
}

/// False when the API group `group` (`""` for the core group) does not serve `kind`, one of
/// the kinds kubefit reads. The workload kinds include the groups of 3.11-era dumps
/// (`extensions/v1beta1`, `apps/v1beta1`); `kind: Policy` is the scheduler's (core `v1`),
/// not the audit policy of `audit.k8s.io`; OpenShift 3.11's MasterConfig is core `v1`.
fn serves(group: &str, kind: &str) -> bool {
    let groups: &[&str] = match kind {
        "Node"
        | "Pod"
        | "Namespace"
        | "Service"
        | "PersistentVolume"
        | "PersistentVolumeClaim"
        | "ReplicationController"
        | "Policy"
        | "MasterConfig" => &[""],
        "PriorityClass" => &["scheduling.k8s.io"],
        "PodDisruptionBudget" => &["policy"],
        "StorageClass" | "CSINode" | "CSIDriver" | "CSIStorageCapacity" => &["storage.k8s.io"],
        "ReplicaSet" | "Deployment" | "DaemonSet" => &["apps", "extensions"],
        "StatefulSet" => &["apps"],
        "Job" => &["batch"],
        "KubeSchedulerConfiguration" => &["kubescheduler.config.k8s.io"],
        "Machine" | "MachineSet" => &["machine.openshift.io"],
        "DeschedulerPolicy" => &["descheduler"],
        "Scenario" => &["kubefit.dev"],
        _ => return true,
    };
    groups.contains(&group)
}

/// Decodes a pod, with its container statuses when they may change what it requests.
fn pod(tree: &Tree<'_>, id: NodeId) -> Result<Resource, decode::Error> {
    let mut pod: Pod = decode(tree, id)?;
    if may_resize(tree, id, &pod) {
        let PodStatuses { status } = decode(tree, id)?;
        let mut statuses = status.container_statuses;
        statuses.extend(status.init_container_statuses);
        pod.status.container_statuses = statuses.into();
    }
    Ok(Resource::Pod(Box::new(pod)))
}

/// A pod's container statuses, decoded apart from the rest of the pod ([`may_resize`]).
#[derive(Default, serde::Deserialize)]
#[serde(default)]
struct PodStatuses {
    status: Statuses,
}

/// `status` of [`PodStatuses`].
#[derive(Default, serde::Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct Statuses {
    container_statuses: Vec<ContainerStatus>,
    init_container_statuses: Vec<ContainerStatus>,
}

/// True if the pod's container statuses may change what it requests
/// ([`resources::requests_with_status`]), looking at the tree alone: some status with
/// `resources` names a regular container or sidecar and reports more than its spec
/// requests, or a resource its spec leaves out, or the pod's resize is infeasible; or a
/// merge key or a value of an unexpected shape leaves it unclear. A 1.33+ kubelet
/// reports the resources it applied in every container's status, nearly always the
/// spec's: decoding them all made such a dump a tenth slower to read, looking first
/// costs about 1 %.
fn may_resize(tree: &Tree<'_>, id: NodeId, pod: &Pod) -> bool {
    /// The value of a mapping's entry, `Err` when a merge key (`<<`) may hide it.
    fn field(tree: &Tree<'_>, map: NodeId, key: &str) -> Result<Option<NodeId>, ()> {
        let mut found = None;
        for (name, value) in tree.entries(map) {
            match tree.node(name).map(|node| &node.value) {
                Some(Value::Scalar(text, Style::Plain)) if text == "<<" => return Err(()),
                Some(Value::Scalar(text, _)) if text == key => found = Some(value),
                _ => {}
            }
        }
        Ok(found)
    }
    // A null value reads as if absent.
    let present = |node: &NodeId| match tree.node(*node).map(|node| &node.value) {
        Some(Value::Scalar(text, Style::Plain)) => scalar::resolve(text) != Plain::Null,
        _ => true,
    };
    let Ok(status) = field(tree, id, "status") else {
        return true;
    };
    let Some(status) = status.filter(present) else {
        return false;
    };
    let (Ok(containers), Ok(init_containers)) = (
        field(tree, status, "containerStatuses"),
        field(tree, status, "initContainerStatuses"),
    ) else {
        return true;
    };
    let lists = [containers, init_containers].into_iter().flatten();
    for &element in lists.flat_map(|list| tree.elements(list)) {
        let Ok(resources) = field(tree, element, "resources") else {
            return true;
        };
        // Upstream reads a status only when it has `resources`.
        let Some(resources) = resources.filter(present) else {
            continue;
        };
        let (Ok(name), Ok(requests), Ok(allocated)) = (
            field(tree, element, "name"),
            field(tree, resources, "requests"),
            field(tree, element, "allocatedResources"),
        ) else {
            return true;
        };
        let name = name.and_then(|name| tree.text(name)).unwrap_or_default();
        let Some(container) = resources::reads_status(&pod.spec).find(|c| c.name == name) else {
            continue;
        };
        if pod.status.conditions.resize_infeasible {
            return true;
        }
        for list in [requests, allocated].into_iter().flatten().filter(present) {
            if !matches!(
                tree.node(list).map(|node| &node.value),
                Some(Value::Map { .. })
            ) {
                return true;
            }
            let within = |(resource, quantity): (NodeId, NodeId)| {
                tree.text(resource)
                    .zip(decode(tree, quantity).ok())
                    .is_some_and(|(resource, quantity)| {
                        resources::within_spec(&container.resources.requests, resource, &quantity)
                    })
            };
            if !tree.entries(list).all(within) {
                return true;
            }
        }
    }
    false
}

/// Decodes a pod owner; the selector is a label selector except on a ReplicationController.
fn workload(tree: &Tree<'_>, id: NodeId, kind: WorkloadKind) -> Result<Resource, decode::Error> {
    let mut workload: Workload = decode(tree, id)?;
    if let Some(selector) = tree
        .get(id, "spec")
        .and_then(|spec| tree.get(spec, "selector"))
    {
        let decoded = if kind == WorkloadKind::ReplicationController {
            decode::<StringMap>(tree, selector).map(|labels| LabelSelector {
                match_labels: labels,
                ..LabelSelector::default()
            })
        } else {
            decode::<LabelSelector>(tree, selector)
        };
        workload.spec.selector =
            Some(decoded.map_err(|error| error.prefixed(&["spec", "selector"]))?);
    }
    Ok(Resource::Workload(kind, Box::new(workload)))
}

/// The deepest node along `path` (its key node when `at_key`).
fn find(tree: &Tree<'_>, mut id: NodeId, path: &FieldPath, at_key: bool) -> NodeId {
    use super::path::Segment;
    let last = path.0.len().saturating_sub(1);
    for (position, segment) in path.0.iter().enumerate() {
        let next = match segment {
            Segment::Field(key) | Segment::Key(key) if at_key && position == last => {
                tree.get_key(id, key)
            }
            Segment::Field(key) | Segment::Key(key) => tree.get(id, key),
            Segment::Index(index) => tree.elements(id).get(*index).copied(),
        };
        match next {
            Some(next) => id = next,
            None => break,
        }
    }
    id
}
