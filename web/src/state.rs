//! The playground's state and the one pure function that changes it, [`State::apply`].
//!
//! Components only render a state and dispatch [`Action`]s; everything the playground
//! decides (what to evaluate and where, which result is current, where the cursor goes,
//! what a link holds) is decided here and tested natively.
//!
//! Evaluation: small inputs are evaluated inside `apply`, which stays pure because
//! evaluation is deterministic. Large inputs, and files too large for the editor, go to a
//! Web Worker: `apply` only records which edit the worker should evaluate
//! ([`State::running`]); the app posts it and dispatches [`Action::Evaluated`] with the
//! result. Every change of the input bumps a generation, so a late result for older text
//! is recognised and dropped.

use std::rc::Rc;

use crate::examples::Example;
use crate::lines;
use crate::placement::{self, Side};
use crate::scenario::{self, Refusal, WhatIf};
use crate::share::{SharedDocument, Snapshot};
use crate::tables::{NodeColumn, PodColumn, PodFilter, Sort};
use crate::view::{Outcome, Place, Placement, Problem, View};

/// Files larger than this open read-only: a text area holding tens of megabytes makes
/// every keystroke slow.
pub const EDITABLE_LIMIT: u64 = 1 << 20;

/// Inputs larger than this, in total, are evaluated in the worker (YAML decodes at about
/// 20 MiB/s in wasm, so this keeps the page's own evaluations near 10 ms).
pub const INLINE_LIMIT: u64 = 256 << 10;

/// The name of the document the playground starts with when there is nothing else.
pub const UNTITLED: &str = "input.yaml";

/// The document a what-if creates when the Scenario cannot go into the input.
pub const SCENARIO_DOCUMENT: &str = "scenario.yaml";

/// Identifies a file the page holds for the worker (the file itself stays in the page).
pub type FileId = u32;

/// What a document holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// Text in the editor.
    Text(Rc<str>),
    /// A file too large (or not UTF-8) for the editor, evaluated in the worker.
    File {
        /// The page's handle on the file.
        id: FileId,
        /// Its size in bytes.
        size: u64,
    },
}

/// One input: a tab in the editor, and one source for evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// The name diagnostics use (a file name).
    pub name: String,
    /// Its content.
    pub content: Content,
}

impl Document {
    /// A text document.
    #[must_use]
    pub fn text(name: impl Into<String>, text: impl Into<Rc<str>>) -> Self {
        Self {
            name: name.into(),
            content: Content::Text(text.into()),
        }
    }

    /// A read-only file evaluated in the worker.
    #[must_use]
    pub fn file(name: impl Into<String>, id: FileId, size: u64) -> Self {
        Self {
            name: name.into(),
            content: Content::File { id, size },
        }
    }

    /// The text, for text documents.
    #[must_use]
    pub fn as_text(&self) -> Option<&str> {
        match &self.content {
            Content::Text(text) => Some(text),
            Content::File { .. } => None,
        }
    }

    /// The size in bytes.
    #[must_use]
    pub fn size(&self) -> u64 {
        match &self.content {
            Content::Text(text) => text.len() as u64,
            Content::File { size, .. } => *size,
        }
    }
}

/// A panel of results. Later panels (scaling, updates) are added here, to [`Panel::ALL`]
/// and to the app's panel switch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Panel {
    /// Nodes with their capacity and use.
    #[default]
    Nodes,
    /// Pods and where they stand.
    Pods,
    /// Where each pending pod goes, and why: every node's verdicts and scores.
    Placement,
    /// What the Scenario's steps do over time: the timeline, evictions and machines.
    Disruption,
    /// The report as text, as the CLI prints it.
    Report,
}

impl Panel {
    /// Every panel, in tab order.
    pub const ALL: [Panel; 5] = [
        Panel::Nodes,
        Panel::Pods,
        Panel::Placement,
        Panel::Disruption,
        Panel::Report,
    ];

    /// The id in links and element ids.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Nodes => "nodes",
            Self::Pods => "pods",
            Self::Placement => "placement",
            Self::Disruption => "disruption",
            Self::Report => "report",
        }
    }

    /// The tab label.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            Self::Nodes => "Nodes",
            Self::Pods => "Pods",
            Self::Placement => "Placement",
            Self::Disruption => "Disruption",
            Self::Report => "Report",
        }
    }

    /// The panel with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|panel| panel.id() == id)
    }
}

/// Where the editor should put the cursor; a new serial asks again for the same place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// Increases with every request.
    pub serial: u32,
    /// The document (it is made the active one).
    pub document: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// UTF-16 offset of the place in the document's text.
    pub offset: usize,
    /// UTF-16 offset of the end of the text to select (`offset`: none, only the cursor).
    pub end: usize,
}

/// A short message for the user (a link was copied, a link could not be read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Increases with every notice, so that dismissing an old one leaves a new one.
    pub serial: u32,
    /// The message.
    pub text: String,
}

/// How current the shown results are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The results belong to the input as it is.
    Current,
    /// The input changed; evaluation waits for typing to pause.
    Waiting,
    /// The worker is evaluating.
    Running,
    /// The last evaluation failed (the worker stopped).
    Failed(String),
}

/// What the user and the worker can do.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The active document's text is now this.
    Edit(String),
    /// Show this document in the editor.
    SelectDocument(usize),
    /// Close this document.
    CloseDocument(usize),
    /// Files were opened: they replace an untouched example, or join the documents (a file
    /// with the name of an open document replaces it).
    Open(Vec<Document>),
    /// Replace everything with an example.
    LoadExample(Example),
    /// Replace everything with a shared or saved state.
    Restore(Snapshot),
    /// Typing paused: evaluate what changed.
    Evaluate,
    /// The worker evaluated the input as it was at `generation`.
    Evaluated {
        /// The generation the worker was given.
        generation: u64,
        /// Its result.
        outcome: Rc<Outcome>,
        /// How long the worker took, in milliseconds.
        millis: u32,
    },
    /// The worker could not evaluate `generation`.
    EvaluationFailed {
        /// The generation the worker was given.
        generation: u64,
        /// What went wrong.
        message: String,
    },
    /// Show a panel.
    ShowPanel(Panel),
    /// Sort the nodes table by a column (again: the other way round).
    SortNodes(NodeColumn),
    /// Sort the pods table by a column (again: the other way round).
    SortPods(PodColumn),
    /// Show only the pods of a namespace, or of all.
    FilterNamespace(Option<String>),
    /// Show only pods matching a text.
    FilterPods(String),
    /// Show a page of the nodes table.
    NodesPage(usize),
    /// Show a page of the pods table.
    PodsPage(usize),
    /// Move the cursor to where a problem (an index into the view's problems) points.
    Reveal(usize),
    /// Show the placement of this pending pod (`namespace/name`).
    SelectPod(String),
    /// Show only the matrix rows of nodes whose name contains this text.
    FilterPlacementNodes(String),
    /// Show a page of the pending pods.
    PlacementsPage(usize),
    /// A page of the Disruption panel's lanes and evictions.
    DisruptionPage(usize),
    /// Select, in the editor, the input behind a verdict of the selected pod: the field a
    /// failing `reason` is about, in the node's object or the pod's (see
    /// [`placement::cause`]); without a reason, the whole node (or, without a node, the pod).
    RevealPlacement {
        /// The node of the verdict.
        node: Option<String>,
        /// One of its reasons.
        reason: Option<String>,
    },
    /// Add a what-if step to the input's Scenario (creating one if there is none), show
    /// it in the editor and the disruption panel.
    WhatIf(WhatIf),
    /// Show a message.
    Notify(String),
    /// Hide the message with this serial.
    Dismiss(u32),
}

/// What [`State::snapshot_key`] compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotKey {
    edits: u64,
    active: usize,
    panel: Panel,
    nodes_sort: Sort<NodeColumn>,
    pods_sort: Sort<PodColumn>,
    pods_filter: PodFilter,
    pod: Option<String>,
}

/// Everything the page shows. Fields are private: only [`State::apply`] changes a state,
/// so results always belong to a generation of the input.
#[derive(Clone, Debug)]
pub struct State {
    documents: Vec<Document>,
    active: usize,
    /// The documents are an example as it was loaded: opening files replaces them.
    pristine: bool,
    panel: Panel,
    nodes_sort: Sort<NodeColumn>,
    pods_sort: Sort<PodColumn>,
    pods_filter: PodFilter,
    nodes_page: usize,
    pods_page: usize,
    /// The pending pod the placement panel shows (`namespace/name`); kept while the pod
    /// exists, the first pending pod otherwise.
    pod: Option<String>,
    placement_filter: String,
    placements_page: usize,
    disruption_page: usize,
    /// Bumped by every change of the input.
    edits: u64,
    outcome: Rc<Outcome>,
    /// The generation `outcome` belongs to.
    evaluated: u64,
    /// The generation the worker is evaluating.
    running: Option<u64>,
    /// How long the worker took for `outcome`; `None` when the page evaluated it.
    millis: Option<u32>,
    failure: Option<String>,
    reveal: Option<Reveal>,
    notice: Option<Notice>,
}

impl Default for State {
    /// The first example, evaluated.
    fn default() -> Self {
        Self::from_example(Example::first())
    }
}

impl State {
    /// A state with these documents, evaluated at once if they are small.
    #[must_use]
    pub fn new(documents: Vec<Document>) -> Self {
        let mut state = Self {
            documents: Vec::new(),
            active: 0,
            pristine: false,
            panel: Panel::default(),
            nodes_sort: Sort::default(),
            pods_sort: Sort::default(),
            pods_filter: PodFilter::default(),
            nodes_page: 0,
            pods_page: 0,
            pod: None,
            placement_filter: String::new(),
            placements_page: 0,
            disruption_page: 0,
            edits: 0,
            outcome: Rc::default(),
            evaluated: 0,
            running: None,
            millis: None,
            failure: None,
            reveal: None,
            notice: None,
        };
        state.replace_documents(documents);
        state
    }

    /// An example, evaluated.
    #[must_use]
    pub fn from_example(example: Example) -> Self {
        Self::new(Vec::new()).apply(Action::LoadExample(example))
    }

    /// A shared or saved state, evaluated.
    #[must_use]
    pub fn from_snapshot(snapshot: Snapshot) -> Self {
        Self::new(Vec::new()).apply(Action::Restore(snapshot))
    }

    /// The state after `action`. Pure: the same state and action always give the same
    /// result, and `self` is left as it was.
    #[must_use]
    pub fn apply(&self, action: Action) -> Self {
        let mut next = self.clone();
        next.reduce(action);
        next
    }

    fn reduce(&mut self, action: Action) {
        match action {
            Action::Edit(text) => {
                let Some(document) = self.documents.get_mut(self.active) else {
                    return;
                };
                if document.as_text().is_some_and(|old| old != text) {
                    document.content = Content::Text(text.into());
                    self.pristine = false;
                    self.edits += 1;
                }
            }
            Action::SelectDocument(index) => {
                if index < self.documents.len() {
                    self.active = index;
                }
            }
            Action::CloseDocument(index) => {
                if index >= self.documents.len() {
                    return;
                }
                let mut documents = self.documents.clone();
                documents.remove(index);
                let active = if self.active > index || self.active == documents.len() {
                    self.active.saturating_sub(1)
                } else {
                    self.active
                };
                self.replace_documents(documents);
                self.active = active.min(self.documents.len() - 1);
            }
            Action::Open(opened) => {
                if opened.is_empty() {
                    return;
                }
                let mut documents = if self.pristine {
                    Vec::new()
                } else {
                    self.documents.clone()
                };
                let mut first = None;
                for document in opened {
                    let index = match documents.iter().position(|d| d.name == document.name) {
                        Some(index) => {
                            documents[index] = document;
                            index
                        }
                        None => {
                            documents.push(document);
                            documents.len() - 1
                        }
                    };
                    first.get_or_insert(index);
                }
                self.replace_documents(documents);
                self.active = first.unwrap_or(0);
            }
            Action::LoadExample(example) => {
                self.pod = None;
                self.replace_documents(vec![Document::text(example.name(), example.text())]);
                self.pristine = true;
                self.pods_filter = PodFilter::default();
            }
            Action::Restore(snapshot) => {
                // Before evaluating, which keeps it if the pod exists.
                self.pod = snapshot.pod;
                let documents = snapshot
                    .documents
                    .into_iter()
                    .map(|shared| Document::text(shared.name, shared.text))
                    .collect();
                self.replace_documents(documents);
                self.active = snapshot.active.min(self.documents.len() - 1);
                self.panel = Panel::from_id(&snapshot.panel).unwrap_or_default();
                self.nodes_sort = snapshot.nodes_sort;
                self.pods_sort = snapshot.pods_sort;
                self.pods_filter = snapshot.pods_filter;
            }
            Action::Evaluate => self.schedule(),
            Action::Evaluated {
                generation,
                outcome,
                millis,
            } => {
                self.finish(generation);
                if generation > self.evaluated && generation <= self.edits {
                    self.outcome = outcome;
                    self.evaluated = generation;
                    self.millis = Some(millis);
                    self.failure = None;
                    self.settle_pod();
                }
                self.schedule();
            }
            Action::EvaluationFailed {
                generation,
                message,
            } => {
                self.finish(generation);
                if generation > self.evaluated && generation <= self.edits {
                    // The old results stay, marked as failed; the next edit tries again.
                    self.evaluated = generation;
                    self.failure = Some(message);
                }
                self.schedule();
            }
            Action::ShowPanel(panel) => self.panel = panel,
            Action::SortNodes(column) => {
                self.nodes_sort = self.nodes_sort.toggled(column);
                self.nodes_page = 0;
            }
            Action::SortPods(column) => {
                self.pods_sort = self.pods_sort.toggled(column);
                self.pods_page = 0;
            }
            Action::FilterNamespace(namespace) => {
                self.pods_filter.namespace = namespace;
                self.pods_page = 0;
            }
            Action::FilterPods(text) => {
                self.pods_filter.text = text;
                self.pods_page = 0;
            }
            Action::NodesPage(page) => self.nodes_page = page,
            Action::PodsPage(page) => self.pods_page = page,
            Action::Reveal(index) => self.reveal(index),
            Action::SelectPod(pod) => {
                self.pod = Some(pod);
                self.placement_filter.clear();
            }
            Action::FilterPlacementNodes(text) => self.placement_filter = text,
            Action::PlacementsPage(page) => self.placements_page = page,
            Action::DisruptionPage(page) => self.disruption_page = page,
            Action::RevealPlacement { node, reason } => {
                self.reveal_placement(node.as_deref(), reason.as_deref());
            }
            Action::WhatIf(what_if) => self.what_if(&what_if),
            Action::Notify(text) => {
                let serial = self.notice.as_ref().map_or(1, |notice| notice.serial + 1);
                self.notice = Some(Notice { serial, text });
            }
            Action::Dismiss(serial) => {
                if self
                    .notice
                    .as_ref()
                    .is_some_and(|notice| notice.serial == serial)
                {
                    self.notice = None;
                }
            }
        }
    }

    /// New documents (never none: an empty one stands in), evaluated at once.
    fn replace_documents(&mut self, documents: Vec<Document>) {
        self.documents = if documents.is_empty() {
            vec![Document::text(UNTITLED, "")]
        } else {
            documents
        };
        self.active = 0;
        self.pristine = false;
        self.nodes_page = 0;
        self.pods_page = 0;
        self.placements_page = 0;
        self.disruption_page = 0;
        self.reveal = None;
        self.edits += 1;
        self.schedule();
    }

    /// Evaluates the current input, here if it is small, else by asking for the worker
    /// (unless it is busy: its result triggers the next run).
    fn schedule(&mut self) {
        if self.evaluated == self.edits {
            return;
        }
        if !self.needs_worker() {
            let sources: Vec<(&str, &[u8])> = self
                .documents
                .iter()
                .filter_map(|d| Some((d.name.as_str(), d.as_text()?.as_bytes())))
                .collect();
            self.outcome = Rc::new(Outcome::evaluate(&sources));
            self.evaluated = self.edits;
            self.millis = None;
            self.failure = None;
            self.settle_pod();
        } else if self.running.is_none() {
            self.running = Some(self.edits);
        }
    }

    fn finish(&mut self, generation: u64) {
        if self.running == Some(generation) {
            self.running = None;
        }
    }

    fn reveal(&mut self, index: usize) {
        let Some(problem) = self.outcome.view.problems.get(index) else {
            return;
        };
        let Some(line) = problem.line.and_then(|line| usize::try_from(line).ok()) else {
            return;
        };
        let column = problem
            .column
            .and_then(|column| usize::try_from(column).ok())
            .unwrap_or(1);
        let document = problem
            .source
            .as_ref()
            .and_then(|source| self.documents.iter().position(|d| d.name == *source))
            .unwrap_or(self.active);
        let offset = match (problem.offset, self.documents[document].as_text()) {
            (Some(offset), _) => usize::try_from(offset).unwrap_or(usize::MAX),
            (None, Some(text)) => lines::utf16_offset(text, line, column),
            (None, None) => 0,
        };
        self.set_reveal(document, line, column, offset, offset);
    }

    fn set_reveal(
        &mut self,
        document: usize,
        line: usize,
        column: usize,
        offset: usize,
        end: usize,
    ) {
        self.active = document;
        self.reveal = Some(Reveal {
            serial: self.reveal.map_or(1, |reveal| reveal.serial + 1),
            document,
            line,
            column,
            offset,
            end,
        });
    }

    /// A new result keeps the selected pod if it is still pending, else selects the first.
    fn settle_pod(&mut self) {
        let placements = &self.outcome.view.placements;
        if !placements
            .iter()
            .any(|placement| Some(&placement.pod) == self.pod.as_ref())
        {
            self.pod = placements.first().map(|placement| placement.pod.clone());
        }
    }

    fn reveal_placement(&mut self, node: Option<&str>, reason: Option<&str>) {
        let Some(placement) = self.placement() else {
            return;
        };
        let cause = reason.map(placement::cause);
        let place = match (node, cause.map(|cause| cause.side)) {
            (Some(node), None | Some(Side::Node)) => self
                .view()
                .nodes
                .iter()
                .find(|row| row.name == node)
                .and_then(|row| row.place.clone()),
            _ => placement.place.clone(),
        };
        let Some(place) = place else {
            return;
        };
        let Place(source, start, end) = place;
        let Some(document) = self.documents.iter().position(|d| d.name == source) else {
            return;
        };
        let Some(text) = self.documents[document].as_text() else {
            return;
        };
        let (start, end) = (start as usize, end as usize);
        let keys = cause.map_or(&[][..], |cause| cause.keys);
        // The field the cause is about, or the object's first line.
        let (from, to) = placement::find_key(text, start, end, keys).unwrap_or_else(|| {
            let start = start.min(text.len());
            let line_end = text[start..].find('\n').map_or(text.len(), |at| start + at);
            (start, line_end.min(end.max(start)))
        });
        self.select(document, from, to);
    }

    /// Asks the editor to select bytes `from..to` of a text document.
    fn select(&mut self, document: usize, from: usize, to: usize) {
        let Some(text) = self.documents[document].as_text() else {
            return;
        };
        let (line, column, offset) = lines::position(text, from);
        let end = offset
            + text
                .get(from..to)
                .map_or(0, |key| key.encode_utf16().count());
        self.set_reveal(document, line, column, offset, end);
    }

    /// Adds a what-if step to the document with the Scenario that is played (or the one
    /// an earlier what-if created), else to the active document; when that cannot take a
    /// YAML document, to a new one.
    fn what_if(&mut self, what_if: &WhatIf) {
        let scenario = self.view().scenario.clone();
        let target = [scenario.as_deref(), Some(SCENARIO_DOCUMENT)]
            .into_iter()
            .flatten()
            .find_map(|name| self.documents.iter().position(|d| d.name == name))
            .unwrap_or(self.active);
        let name = self.documents[target].name.clone();
        let added = match self.documents[target].as_text() {
            Some(text) => scenario::add_step(text, what_if),
            None => Err(Refusal::ReadOnly),
        };
        let (document, from, to) = match added {
            Ok((text, from, to)) => {
                self.documents[target].content = Content::Text(text.into());
                (target, from, to)
            }
            // JSON, or a file: the Scenario goes in a document of its own.
            Err(Refusal::Json | Refusal::ReadOnly) if scenario.is_none() => {
                let (text, from, to) = scenario::document(what_if);
                self.documents.push(Document::text(SCENARIO_DOCUMENT, text));
                (self.documents.len() - 1, from, to)
            }
            Err(refusal) => {
                self.reduce(Action::Notify(format!(
                    "Cannot add the step to `{name}`: {refusal}"
                )));
                return;
            }
        };
        self.pristine = false;
        self.edits += 1;
        self.schedule();
        self.panel = Panel::Disruption;
        self.select(document, from, to);
    }

    /// True if the input must be evaluated in the worker.
    #[must_use]
    pub fn needs_worker(&self) -> bool {
        self.documents
            .iter()
            .any(|document| matches!(document.content, Content::File { .. }))
            || self.documents.iter().map(Document::size).sum::<u64>() > INLINE_LIMIT
    }

    /// How long typing must pause before evaluating, in milliseconds: longer when the
    /// worker has a large input to go through.
    #[must_use]
    pub fn debounce_millis(&self) -> u32 {
        if self.needs_worker() {
            400
        } else {
            120
        }
    }

    /// The state as a link or a saved session holds it: text documents only, since files
    /// stay on the user's disk.
    #[must_use]
    pub fn snapshot(&self) -> Snapshot {
        let documents: Vec<SharedDocument> = self
            .documents
            .iter()
            .filter_map(|document| {
                Some(SharedDocument {
                    name: document.name.clone(),
                    text: document.as_text()?.to_owned(),
                })
            })
            .collect();
        let active = self.documents[..=self.active.min(self.documents.len() - 1)]
            .iter()
            .filter(|document| document.as_text().is_some())
            .count()
            .saturating_sub(1);
        Snapshot {
            documents,
            active,
            panel: self.panel.id().into(),
            nodes_sort: self.nodes_sort,
            pods_sort: self.pods_sort,
            pods_filter: self.pods_filter.clone(),
            pod: self.pod.clone(),
        }
    }

    /// The names of the documents a snapshot leaves out (files).
    #[must_use]
    pub fn unshared(&self) -> Vec<&str> {
        self.documents
            .iter()
            .filter(|document| document.as_text().is_none())
            .map(|document| document.name.as_str())
            .collect()
    }

    /// A value that changes whenever [`State::snapshot`] does, cheap to compare.
    #[must_use]
    pub fn snapshot_key(&self) -> SnapshotKey {
        SnapshotKey {
            edits: self.edits,
            active: self.active,
            panel: self.panel,
            nodes_sort: self.nodes_sort,
            pods_sort: self.pods_sort,
            pods_filter: self.pods_filter.clone(),
            pod: self.pod.clone(),
        }
    }

    /// The documents, in tab order (never empty).
    #[must_use]
    pub fn documents(&self) -> &[Document] {
        &self.documents
    }

    /// The index of the document in the editor.
    #[must_use]
    pub fn active(&self) -> usize {
        self.active
    }

    /// The document in the editor.
    #[must_use]
    pub fn active_document(&self) -> &Document {
        &self.documents[self.active]
    }

    /// The problems that point into a document.
    pub fn problems_in(&self, document: usize) -> impl Iterator<Item = &Problem> {
        let name = self.documents.get(document).map(|d| d.name.as_str());
        self.view()
            .problems
            .iter()
            .filter(move |problem| problem.source.as_deref() == name)
    }

    /// The selected panel.
    #[must_use]
    pub fn panel(&self) -> Panel {
        self.panel
    }

    /// How the nodes table is sorted.
    #[must_use]
    pub fn nodes_sort(&self) -> Sort<NodeColumn> {
        self.nodes_sort
    }

    /// How the pods table is sorted.
    #[must_use]
    pub fn pods_sort(&self) -> Sort<PodColumn> {
        self.pods_sort
    }

    /// Which pods the pods table shows.
    #[must_use]
    pub fn pods_filter(&self) -> &PodFilter {
        &self.pods_filter
    }

    /// The page of the nodes table.
    #[must_use]
    pub fn nodes_page(&self) -> usize {
        self.nodes_page
    }

    /// The page of the pods table.
    #[must_use]
    pub fn pods_page(&self) -> usize {
        self.pods_page
    }

    /// The pending pod the placement panel shows (`namespace/name`).
    #[must_use]
    pub fn selected_pod(&self) -> Option<&str> {
        self.pod.as_deref()
    }

    /// The selected pod's placement; the first pending pod's while a result for an older
    /// input is shown that lacks the selected one.
    #[must_use]
    pub fn placement(&self) -> Option<&Placement> {
        placement::selected(&self.view().placements, self.pod.as_deref())
    }

    /// The text the matrix rows' node names must contain.
    #[must_use]
    pub fn placement_filter(&self) -> &str {
        &self.placement_filter
    }

    /// The page of the pending pods.
    #[must_use]
    pub fn placements_page(&self) -> usize {
        self.placements_page
    }

    /// The page of the Disruption panel's lanes and evictions.
    #[must_use]
    pub fn disruption_page(&self) -> usize {
        self.disruption_page
    }

    /// The latest evaluation.
    #[must_use]
    pub fn outcome(&self) -> &Rc<Outcome> {
        &self.outcome
    }

    /// The latest evaluation's view.
    #[must_use]
    pub fn view(&self) -> &View {
        &self.outcome.view
    }

    /// The generation of the input: it changes with every edit.
    #[must_use]
    pub fn edits(&self) -> u64 {
        self.edits
    }

    /// The generation the worker should be evaluating, if any.
    #[must_use]
    pub fn running(&self) -> Option<u64> {
        self.running
    }

    /// How long the worker took for the current results (`None`: evaluated in the page).
    #[must_use]
    pub fn millis(&self) -> Option<u32> {
        self.millis
    }

    /// How current the results are.
    #[must_use]
    pub fn status(&self) -> Status {
        if let Some(failure) = &self.failure {
            Status::Failed(failure.clone())
        } else if self.running.is_some() {
            Status::Running
        } else if self.evaluated == self.edits {
            Status::Current
        } else {
            Status::Waiting
        }
    }

    /// Where the editor should put the cursor.
    #[must_use]
    pub fn reveal_request(&self) -> Option<Reveal> {
        self.reveal
    }

    /// The message to show.
    #[must_use]
    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::share;

    const NODE: &str = "kind: Node\nmetadata: {name: solo}\nstatus: {allocatable: {cpu: '2'}}\n";

    fn names(state: &State) -> Vec<&str> {
        state.documents().iter().map(|d| d.name.as_str()).collect()
    }

    #[test]
    fn the_first_example_is_evaluated_at_once() {
        let state = State::default();
        assert_eq!(names(&state), ["mixed-cluster.yaml"]);
        assert_eq!(state.status(), Status::Current);
        assert_eq!(state.view().summary.nodes, 3);
        assert!(
            state.view().problems.is_empty(),
            "{:?}",
            state.view().problems
        );
        assert_eq!(state.millis(), None);
        assert_eq!(state.panel(), Panel::Nodes);
    }

    #[test]
    fn an_edit_waits_for_evaluate_then_shows_new_results() {
        let typed = State::default().apply(Action::Edit(NODE.into()));
        assert_eq!(typed.active_document().as_text(), Some(NODE));
        assert_eq!(typed.status(), Status::Waiting);
        assert_eq!(
            typed.view().summary.nodes,
            3,
            "old results until typing pauses"
        );
        let evaluated = typed.apply(Action::Evaluate);
        assert_eq!(evaluated.status(), Status::Current);
        assert_eq!(evaluated.view().nodes[0].name, "solo");
        // Nothing left to do: evaluating again keeps the same result.
        let again = evaluated.apply(Action::Evaluate);
        assert!(Rc::ptr_eq(again.outcome(), evaluated.outcome()));
    }

    #[test]
    fn apply_is_pure() {
        let before = State::default();
        let after = before
            .apply(Action::Edit(NODE.into()))
            .apply(Action::Evaluate);
        assert_eq!(
            before.active_document().as_text(),
            Some(Example::first().text())
        );
        assert_eq!(before.view().summary.nodes, 3);
        let twice = before
            .apply(Action::Edit(NODE.into()))
            .apply(Action::Evaluate);
        assert_eq!(twice.view(), after.view());
        assert_eq!(twice.edits(), after.edits());
    }

    #[test]
    fn an_unchanged_edit_is_not_a_change() {
        let state = State::default();
        let same = state.apply(Action::Edit(Example::first().text().into()));
        assert_eq!(same.edits(), state.edits());
        assert_eq!(same.status(), Status::Current);
    }

    #[test]
    fn opening_files_replaces_an_untouched_example_and_joins_edited_documents() {
        let opened = State::default().apply(Action::Open(vec![
            Document::text("nodes.yaml", NODE),
            Document::text(
                "pods.yaml",
                "kind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c}]}\n",
            ),
        ]));
        assert_eq!(names(&opened), ["nodes.yaml", "pods.yaml"]);
        assert_eq!(opened.active(), 0);
        assert_eq!(
            opened.status(),
            Status::Current,
            "opening evaluates at once"
        );
        assert_eq!(opened.view().summary.nodes, 1);
        assert_eq!(
            opened.view().summary.pods,
            1,
            "both documents are one cluster"
        );

        let more = opened.apply(Action::Open(vec![Document::text("extra.yaml", "")]));
        assert_eq!(names(&more), ["nodes.yaml", "pods.yaml", "extra.yaml"]);
        assert_eq!(more.active(), 2);
        let reopened = more.apply(Action::Open(vec![Document::text("nodes.yaml", "")]));
        assert_eq!(names(&reopened), ["nodes.yaml", "pods.yaml", "extra.yaml"]);
        assert_eq!(reopened.active(), 0);
        assert_eq!(reopened.view().summary.nodes, 0);
    }

    #[test]
    fn closing_documents_keeps_a_sensible_tab_and_never_none() {
        let state = State::default()
            .apply(Action::Edit(NODE.into()))
            .apply(Action::Open(vec![
                Document::text("b.yaml", ""),
                Document::text("c.yaml", ""),
            ]))
            .apply(Action::SelectDocument(2));
        let closed = state.apply(Action::CloseDocument(0));
        assert_eq!(names(&closed), ["b.yaml", "c.yaml"]);
        assert_eq!(closed.active_document().name, "c.yaml");
        assert_eq!(closed.view().summary.nodes, 0, "re-evaluated without it");
        let last = closed.apply(Action::CloseDocument(1));
        assert_eq!(last.active_document().name, "b.yaml");
        let none = last.apply(Action::CloseDocument(0));
        assert_eq!(names(&none), [UNTITLED]);
        assert_eq!(none.active_document().as_text(), Some(""));
        assert_eq!(none.apply(Action::CloseDocument(5)).edits(), none.edits());
    }

    #[test]
    fn examples_replace_everything_and_reset_the_pod_filter() {
        let example = Example::named("taints-three.yaml").expect("the example");
        let state = State::default()
            .apply(Action::FilterNamespace(Some("shop".into())))
            .apply(Action::ShowPanel(Panel::Pods))
            .apply(Action::LoadExample(example));
        assert_eq!(names(&state), ["taints-three.yaml"]);
        assert_eq!(state.pods_filter(), &PodFilter::default());
        assert_eq!(state.panel(), Panel::Pods, "the panel stays");
        assert_eq!(state.view().nodes[0].taints.len(), 3);
    }

    #[test]
    fn large_inputs_go_to_the_worker_and_late_results_are_dropped() {
        let big = format!("{NODE}{}", "# padding\n".repeat(30_000));
        let state = State::default().apply(Action::Edit(big.clone()));
        assert!(state.needs_worker());
        assert_eq!(state.debounce_millis(), 400);
        let state = state.apply(Action::Evaluate);
        let first = state.running().expect("a worker job");
        assert_eq!(state.status(), Status::Running);
        assert_eq!(state.view().summary.nodes, 3, "old results meanwhile");

        // More typing while the worker runs: no second job until the first returns.
        let state = state
            .apply(Action::Edit(format!("{big}# more\n")))
            .apply(Action::Evaluate);
        assert_eq!(state.running(), Some(first));

        let result = |generation, text: &str| Action::Evaluated {
            generation,
            outcome: Rc::new(Outcome::evaluate(&[("input.yaml", text.as_bytes())])),
            millis: 7,
        };
        // The first result is shown (better than nothing), and the latest edit starts.
        let state = state.apply(result(first, NODE));
        assert_eq!(state.view().nodes[0].name, "solo");
        assert_eq!(state.millis(), Some(7));
        let second = state.running().expect("the next job");
        assert!(second > first);
        // A stale duplicate of the first result changes nothing.
        let state = state.apply(result(first, ""));
        assert_eq!(state.view().nodes[0].name, "solo");
        assert_eq!(state.running(), Some(second));
        let state = state.apply(result(second, NODE));
        assert_eq!(state.status(), Status::Current);
        assert_eq!(state.running(), None);
    }

    #[test]
    fn files_always_go_to_the_worker_and_failures_are_shown() {
        let state =
            State::default().apply(Action::Open(vec![Document::file("dump.yaml", 7, 50 << 20)]));
        assert!(state.needs_worker());
        let generation = state.running().expect("a job at once");
        assert_eq!(state.status(), Status::Running);
        let failed = state.apply(Action::EvaluationFailed {
            generation,
            message: "out of memory".into(),
        });
        assert_eq!(failed.status(), Status::Failed("out of memory".into()));
        assert_eq!(failed.running(), None);
        // Back to something small: evaluated in the page, and the failure is gone.
        let back = failed.apply(Action::LoadExample(Example::first()));
        assert_eq!(back.status(), Status::Current);
    }

    #[test]
    fn a_small_input_is_evaluated_in_the_page_even_while_the_worker_is_busy() {
        let state =
            State::default().apply(Action::Open(vec![Document::file("dump.yaml", 1, 1 << 30)]));
        let job = state.running().expect("a job");
        let state = state.apply(Action::CloseDocument(0));
        assert_eq!(state.status(), Status::Running, "the job is still out");
        assert_eq!(
            state.view().summary.nodes,
            0,
            "but the empty input is evaluated"
        );
        let state = state.apply(Action::Evaluated {
            generation: job,
            outcome: Rc::new(Outcome::evaluate(&[("x", NODE.as_bytes())])),
            millis: 1,
        });
        assert_eq!(state.view().summary.nodes, 0, "the late result is dropped");
        assert_eq!(state.status(), Status::Current);
    }

    #[test]
    fn reveal_points_at_the_problem_in_its_document() {
        let bad = "kind: Node\nmetadata: {name: ok}\n---\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, resources: {requests: {cpu: lots}}}]\n";
        let state = State::default()
            .apply(Action::Open(vec![
                Document::text("a.yaml", NODE),
                Document::text("b.yaml", bad),
            ]))
            .apply(Action::SelectDocument(0));
        let index = state
            .view()
            .problems
            .iter()
            .position(|problem| problem.error)
            .expect("an error");
        let problem = state.view().problems[index].clone();
        assert_eq!(problem.source.as_deref(), Some("b.yaml"));
        assert_eq!(problem.line, Some(7));
        let revealed = state.apply(Action::Reveal(index));
        assert_eq!(revealed.active(), 1, "the document with the problem");
        let reveal = revealed.reveal_request().expect("a reveal");
        assert_eq!((reveal.document, reveal.line), (1, 7));
        let offset = lines::utf16_offset(bad, 7, usize::try_from(problem.column.unwrap()).unwrap());
        assert_eq!(reveal.offset, offset);
        assert_eq!(&bad[offset..offset + 4], "lots");
        let again = revealed
            .apply(Action::Reveal(index))
            .reveal_request()
            .unwrap();
        assert_eq!(
            again.serial,
            reveal.serial + 1,
            "a second click moves the cursor again"
        );
        assert_eq!(state.problems_in(1).count(), state.view().problems.len());
        assert_eq!(state.problems_in(0).count(), 0);
        assert_eq!(state.apply(Action::Reveal(999)).reveal_request(), None);
    }

    #[test]
    fn tables_sort_filter_and_page() {
        let state = State::default()
            .apply(Action::PodsPage(3))
            .apply(Action::SortPods(PodColumn::Cpu));
        assert_eq!(
            state.pods_sort(),
            Sort {
                column: PodColumn::Cpu,
                descending: false
            }
        );
        assert_eq!(state.pods_page(), 0, "a new order starts at the first page");
        let state = state
            .apply(Action::SortPods(PodColumn::Cpu))
            .apply(Action::PodsPage(2));
        assert!(state.pods_sort().descending);
        let state = state.apply(Action::FilterPods("web".into()));
        assert_eq!(state.pods_page(), 0);
        assert_eq!(state.pods_filter().text, "web");
        let state = state
            .apply(Action::SortNodes(NodeColumn::Memory))
            .apply(Action::NodesPage(1));
        assert_eq!(state.nodes_page(), 1);
        assert_eq!(state.nodes_sort().column, NodeColumn::Memory);
    }

    #[test]
    fn a_snapshot_restores_documents_panel_and_tables() {
        let state = State::default()
            .apply(Action::Open(vec![Document::text("a.yaml", NODE)]))
            .apply(Action::Open(vec![Document::text("b.yaml", "# b\n")]))
            .apply(Action::ShowPanel(Panel::Pods))
            .apply(Action::SortNodes(NodeColumn::Cpu))
            .apply(Action::FilterNamespace(Some("shop".into())))
            .apply(Action::FilterPods("web".into()));
        let link = share::encode(&state.snapshot());
        let second = pods(&State::default())[1].to_owned();
        let placement = State::default()
            .apply(Action::ShowPanel(Panel::Placement))
            .apply(Action::SelectPod(second.clone()));
        let restored = State::from_snapshot(
            share::decode(&share::encode(&placement.snapshot())).expect("a link"),
        );
        assert_eq!(restored.panel(), Panel::Placement);
        assert_eq!(restored.selected_pod(), Some(second.as_str()));
        let restored = State::from_snapshot(share::decode(&link).expect("a link"));
        assert_eq!(names(&restored), ["a.yaml", "b.yaml"]);
        assert_eq!(restored.active(), 1);
        assert_eq!(restored.panel(), Panel::Pods);
        assert_eq!(restored.nodes_sort(), state.nodes_sort());
        assert_eq!(restored.pods_filter(), state.pods_filter());
        assert_eq!(restored.view(), state.view());
        assert_eq!(restored.snapshot(), state.snapshot());
    }

    #[test]
    fn files_stay_out_of_snapshots() {
        let state = State::default()
            .apply(Action::Edit(NODE.into()))
            .apply(Action::Open(vec![
                Document::file("dump.yaml", 1, 9 << 20),
                Document::text("c.yaml", ""),
            ]));
        assert_eq!(state.unshared(), ["dump.yaml"]);
        let snapshot = state.snapshot();
        let shared: Vec<_> = snapshot.documents.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(shared, ["mixed-cluster.yaml", "c.yaml"]);
        assert_eq!(
            snapshot.active, 0,
            "dump.yaml was active; the text before it is"
        );
        let empty = Snapshot::default();
        let restored = State::from_snapshot(empty);
        assert_eq!(names(&restored), [UNTITLED]);
        let unknown_panel = Snapshot {
            panel: "evictions".into(),
            ..Snapshot::default()
        };
        assert_eq!(State::from_snapshot(unknown_panel).panel(), Panel::Nodes);
    }

    #[test]
    fn notices_are_dismissed_by_serial() {
        let state = State::default().apply(Action::Notify("one".into()));
        let first = state.notice().expect("a notice").serial;
        let state = state.apply(Action::Notify("two".into()));
        assert_eq!(state.notice().map(|n| n.text.as_str()), Some("two"));
        let kept = state.apply(Action::Dismiss(first));
        assert_eq!(kept.notice().map(|n| n.text.as_str()), Some("two"));
        assert_eq!(kept.apply(Action::Dismiss(first + 1)).notice(), None);
    }

    #[test]
    fn panels_have_ids_for_links() {
        for panel in Panel::ALL {
            assert_eq!(Panel::from_id(panel.id()), Some(panel));
            assert!(!panel.title().is_empty());
        }
        assert_eq!(Panel::from_id("nope"), None);
        assert_eq!(Panel::from_id("placement"), Some(Panel::Placement));
    }

    fn example(name: &str) -> State {
        State::from_example(Example::named(name).expect("the example"))
    }

    fn pods(state: &State) -> Vec<&str> {
        state
            .view()
            .placements
            .iter()
            .map(|placement| placement.pod.as_str())
            .collect()
    }

    #[test]
    fn the_selected_pod_survives_re_evaluation_and_falls_back_to_the_first() {
        let state = example("taints-noschedule.yaml");
        assert_eq!(
            pods(&state),
            ["default/group-app", "default/ssd-app", "default/plain-app"]
        );
        assert_eq!(state.selected_pod(), Some("default/group-app"));
        let state = state
            .apply(Action::SelectPod("default/plain-app".into()))
            .apply(Action::FilterPlacementNodes("node2".into()));
        assert_eq!(
            state.placement().map(|p| p.outcome.as_str()),
            Some("unschedulable")
        );
        assert_eq!(state.placement_filter(), "node2");

        // An edit that keeps the pod keeps the selection.
        let text = state.active_document().as_text().unwrap().to_owned();
        let edited = state
            .apply(Action::Edit(format!("{text}# more\n")))
            .apply(Action::Evaluate);
        assert_eq!(edited.selected_pod(), Some("default/plain-app"));
        // One that removes it falls back to the first pending pod.
        let cut = text.rfind("---").unwrap();
        let removed = edited
            .apply(Action::Edit(text[..cut].to_owned()))
            .apply(Action::Evaluate);
        assert_eq!(removed.selected_pod(), Some("default/group-app"));
        // Selecting another pod clears the node filter; an unknown pod shows the first.
        let other = edited.apply(Action::SelectPod("default/ssd-app".into()));
        assert_eq!(other.placement_filter(), "");
        let unknown = edited.apply(Action::SelectPod("nowhere/none".into()));
        assert_eq!(unknown.placement().unwrap().pod, "default/group-app");
        // Another example starts from its own first pod; no pending pod, no selection.
        let loaded = edited.apply(Action::LoadExample(
            Example::named("priority-preemption.yaml").unwrap(),
        ));
        assert_eq!(loaded.selected_pod(), Some("default/nginx"));
        let none = loaded
            .apply(Action::Edit(NODE.into()))
            .apply(Action::Evaluate);
        assert_eq!(none.selected_pod(), None);
        assert!(none.placement().is_none());
    }

    #[test]
    fn a_worker_result_keeps_a_restored_pod_that_the_old_result_lacks() {
        let state = example("taints-noschedule.yaml");
        let big = format!(
            "{}{}",
            Example::named("priority-preemption.yaml").unwrap().text(),
            "# padding\n".repeat(30_000)
        );
        let snapshot = Snapshot {
            documents: vec![share::SharedDocument {
                name: "big.yaml".into(),
                text: big.clone(),
            }],
            panel: "placement".into(),
            pod: Some("default/nginx".into()),
            ..Snapshot::default()
        };
        let restored = state.apply(Action::Restore(snapshot));
        let job = restored.running().expect("a worker job");
        assert_eq!(restored.panel(), Panel::Placement);
        assert_eq!(restored.selected_pod(), Some("default/nginx"));
        let done = restored.apply(Action::Evaluated {
            generation: job,
            outcome: Rc::new(Outcome::evaluate(&[("big.yaml", big.as_bytes())])),
            millis: 3,
        });
        assert_eq!(done.placement().unwrap().pod, "default/nginx");
    }

    /// The text a reveal selects.
    fn selected_text(state: &State) -> String {
        let reveal = state.reveal_request().expect("a reveal");
        let text: Vec<u16> = state.documents()[reveal.document]
            .as_text()
            .unwrap()
            .encode_utf16()
            .collect();
        String::from_utf16(&text[reveal.offset..reveal.end]).unwrap()
    }

    #[test]
    fn a_failing_verdict_reveals_the_field_it_is_about() {
        let state =
            example("taints-noschedule.yaml").apply(Action::SelectPod("default/plain-app".into()));
        let text = state.active_document().as_text().unwrap().to_owned();
        let taint = state.apply(Action::RevealPlacement {
            node: Some("node2".into()),
            reason: Some("node(s) had untolerated taint(s)".into()),
        });
        assert_eq!(selected_text(&taint), "taints");
        let reveal = taint.reveal_request().unwrap();
        let node2 = text.find("name: node2").unwrap();
        let taints = node2 + text[node2..].find("taints:").unwrap();
        assert_eq!(reveal.offset, taints, "node2's taints, not node1's");
        assert_eq!(reveal.line, text[..taints].matches('\n').count() + 1);
        assert_eq!(reveal.column, 3);

        // Without a reason: the node's object, its first line selected.
        let node = state.apply(Action::RevealPlacement {
            node: Some("node1".into()),
            reason: None,
        });
        assert_eq!(selected_text(&node), "apiVersion: v1");
        // Without a node: the pod.
        let pod = state.apply(Action::RevealPlacement {
            node: None,
            reason: None,
        });
        let reveal = pod.reveal_request().unwrap();
        assert!(text[reveal.offset..]
            .starts_with("apiVersion: v1\nkind: Pod\nmetadata: {name: plain-app"));

        // A pod-side cause selects the pod's field, whichever node failed.
        let selectors = example("node-selectors.yaml")
            .apply(Action::SelectPod("default/pod-us-west".into()))
            .apply(Action::RevealPlacement {
                node: Some("node-us-east".into()),
                reason: Some("node(s) didn't match Pod's node affinity/selector".into()),
            });
        assert_eq!(selected_text(&selectors), "nodeSelector");
        let text = selectors.active_document().as_text().unwrap();
        let offset = selectors.reveal_request().unwrap().offset;
        assert!(text[..offset].contains("name: pod-us-west"));
        // Unknown nodes, and inputs without placements, reveal nothing.
        let unknown = state.apply(Action::RevealPlacement {
            node: Some("ghost".into()),
            reason: None,
        });
        assert_eq!(unknown.reveal_request(), None);
    }

    #[test]
    fn a_what_if_adds_a_step_plays_it_and_selects_it() {
        let state = State::default()
            .apply(Action::ShowPanel(Panel::Nodes))
            .apply(Action::WhatIf(WhatIf::Drain("worker-1".into())));
        assert_eq!(state.panel(), Panel::Disruption);
        assert_eq!(state.status(), Status::Current, "played at once");
        assert_eq!(state.view().scenario.as_deref(), Some("mixed-cluster.yaml"));
        assert!(state
            .view()
            .events
            .iter()
            .any(|e| e.message == "node/worker-1 cordoned"));
        assert_eq!(selected_text(&state), "{at: 0s, drain: worker-1}");
        let text = state.active_document().as_text().unwrap().to_owned();
        assert!(
            text.starts_with(Example::first().text()),
            "the user's text is kept"
        );

        // The next one goes into the same Scenario, whichever document is shown.
        let state = state
            .apply(Action::Open(vec![Document::text("more.yaml", "# more\n")]))
            .apply(Action::WhatIf(WhatIf::Cordon("worker-2".into())));
        assert_eq!(state.active(), 0);
        let text = state.active_document().as_text().unwrap();
        assert_eq!(text.matches("kind: Scenario").count(), 1);
        assert!(
            text.ends_with("  - {at: 0s, drain: worker-1}\n  - {at: 0s, cordon: worker-2}\n"),
            "{text}"
        );
        assert_eq!(state.documents()[1].as_text(), Some("# more\n"));
    }

    #[test]
    fn a_what_if_on_json_opens_a_scenario_document_and_a_broken_scenario_is_left_alone() {
        let json = r#"{"kind": "Node", "metadata": {"name": "n1"}}"#;
        let state = State::default()
            .apply(Action::Edit(json.into()))
            .apply(Action::Evaluate)
            .apply(Action::WhatIf(WhatIf::Taint("n1".into())));
        assert_eq!(names(&state), ["mixed-cluster.yaml", SCENARIO_DOCUMENT]);
        assert_eq!(state.active(), 1);
        assert_eq!(state.documents()[0].as_text(), Some(json));
        assert_eq!(
            selected_text(&state),
            r#"{at: 0s, taint: "n1 what-if=true:NoExecute"}"#
        );
        let state = state
            .apply(Action::SelectDocument(0))
            .apply(Action::WhatIf(WhatIf::Drain("n1".into())));
        assert_eq!(names(&state), ["mixed-cluster.yaml", SCENARIO_DOCUMENT]);
        assert!(state.documents()[1]
            .as_text()
            .unwrap()
            .ends_with("  - {at: 0s, drain: n1}\n"));

        let broken = format!("{NODE}---\nkind: Scenario\napiVersion: kubefit.dev/v1alpha1\nmetadata: {{name: s}}\nspec: {{steps: 3}}\n");
        let state = State::default()
            .apply(Action::Edit(broken.clone()))
            .apply(Action::Evaluate);
        let refused = state.apply(Action::WhatIf(WhatIf::Drain("solo".into())));
        assert_eq!(refused.active_document().as_text(), Some(broken.as_str()));
        assert_eq!(refused.edits(), state.edits());
        assert_eq!(
            refused.notice().map(|n| n.text.as_str()),
            Some("Cannot add the step to `mixed-cluster.yaml`: its Scenario has errors: fix them first")
        );
    }
}
