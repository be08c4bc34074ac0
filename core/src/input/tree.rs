//! A compact tree of one YAML or JSON document, built from parser events, with byte spans.
//!
//! The [`Reader`] receives events from the JSON or YAML reader and builds the tree. The
//! elements of a top-level `items` sequence (a `List`) are handed to the sink one at a time
//! and then released, so a 300 MB `kubectl get -o yaml` dump never exists as one tree.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::objects::Sink;
use super::{Limits, Span};
use crate::diagnostic::Diagnostic;

/// Index of a node in a [`Tree`].
pub(crate) type NodeId = u32;

/// How a scalar was written: only unquoted scalars are open to YAML 1.1 resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// Unquoted (a JSON number, `true`, `false` or `null`, or a YAML plain scalar).
    Plain,
    /// Quoted or a block scalar: always a string.
    Quoted,
}

/// The content of a node.
#[derive(Clone, Debug)]
pub(crate) enum Value<'s> {
    Scalar(Cow<'s, str>, Style),
    /// Keys and values alternate in `kids[start..start + 2 * len]`.
    Map {
        start: u32,
        len: u32,
    },
    Seq {
        start: u32,
        len: u32,
    },
}

/// One node with its place in the source.
#[derive(Clone, Debug)]
pub(crate) struct Node<'s> {
    pub value: Value<'s>,
    pub start: u32,
    pub end: u32,
    /// How many nodes this node stands for once aliases are expanded (saturating).
    pub weight: u64,
}

/// The nodes of one document (or of one `List` item while it is being read).
#[derive(Debug, Default)]
pub(crate) struct Tree<'s> {
    nodes: Vec<Node<'s>>,
    kids: Vec<NodeId>,
    /// Index of the source, to build spans.
    pub source: u32,
}

impl<'s> Tree<'s> {
    pub fn node(&self, id: NodeId) -> Option<&Node<'s>> {
        self.nodes.get(id as usize)
    }

    pub fn span(&self, id: NodeId) -> Span {
        let (start, end) = self.node(id).map_or((0, 0), |node| (node.start, node.end));
        Span {
            source: self.source,
            start,
            end,
        }
    }

    /// The entries of a mapping as (key, value) pairs; empty for other nodes.
    pub fn entries(&self, id: NodeId) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        self.map_children(id)
            .chunks_exact(2)
            .filter_map(|pair| Some((*pair.first()?, *pair.get(1)?)))
    }

    /// The children of a mapping, keys and values alternating; empty for other nodes.
    pub fn map_children(&self, id: NodeId) -> &[NodeId] {
        match self.node(id).map(|node| &node.value) {
            Some(Value::Map { start, len }) => {
                let start = *start as usize;
                self.kids
                    .get(start..start + 2 * (*len as usize))
                    .unwrap_or(&[])
            }
            _ => &[],
        }
    }

    /// The elements of a sequence; empty for other nodes.
    pub fn elements(&self, id: NodeId) -> &[NodeId] {
        match self.node(id).map(|node| &node.value) {
            Some(Value::Seq { start, len }) => {
                let start = *start as usize;
                self.kids.get(start..start + *len as usize).unwrap_or(&[])
            }
            _ => &[],
        }
    }

    /// The text of a scalar node.
    pub fn text(&self, id: NodeId) -> Option<&str> {
        match self.node(id).map(|node| &node.value) {
            Some(Value::Scalar(text, _)) => Some(text),
            _ => None,
        }
    }

    /// True for a YAML merge key: an unquoted `<<` (see `decode`'s merged entries).
    pub fn is_merge_key(&self, id: NodeId) -> bool {
        matches!(self.node(id).map(|node| &node.value), Some(Value::Scalar(text, Style::Plain)) if text == "<<")
    }

    /// The value of a mapping's entry with the given key.
    pub fn get(&self, map: NodeId, key: &str) -> Option<NodeId> {
        self.entries(map)
            .find(|(k, _)| self.text(*k) == Some(key))
            .map(|(_, v)| v)
    }

    /// The key node of a mapping's entry with the given key.
    pub fn get_key(&self, map: NodeId, key: &str) -> Option<NodeId> {
        self.entries(map)
            .find(|(k, _)| self.text(*k) == Some(key))
            .map(|(k, _)| k)
    }

    /// The text of a scalar at a path of keys, such as `["metadata", "name"]`.
    pub fn str_at(&self, mut id: NodeId, keys: &[&str]) -> Option<&str> {
        for key in keys {
            id = self.get(id, key)?;
        }
        self.text(id)
    }

    fn push(&mut self, node: Node<'s>) -> NodeId {
        let id = u32::try_from(self.nodes.len()).unwrap_or(u32::MAX);
        self.nodes.push(node);
        id
    }

    fn truncate(&mut self, mark: (usize, usize)) {
        self.nodes.truncate(mark.0);
        self.kids.truncate(mark.1);
    }

    fn mark(&self) -> (usize, usize) {
        (self.nodes.len(), self.kids.len())
    }

    fn clear(&mut self) {
        self.nodes.clear();
        self.kids.clear();
    }
}

/// A container that is still open.
#[derive(Debug)]
struct Frame {
    is_map: bool,
    start: u32,
    /// Where this container's children start on the scratch stack.
    first_child: usize,
    anchor: usize,
    /// Set on the `items` sequence of a top-level mapping: its elements are streamed.
    items: Option<Items>,
}

/// The state of a streamed `items` sequence.
#[derive(Debug)]
struct Items {
    /// The `kind` of the list, when it came before `items` (as in API server JSON).
    list_kind: Option<String>,
    next_index: usize,
    /// Tree size before the current element started.
    mark: (usize, usize),
}

/// Why a document stopped early.
#[derive(Debug)]
pub(crate) struct Stop;

/// What a YAML reader produces, in document order: the events of granit-parser, with byte
/// offsets into the text it was given. [`Reader`] builds trees from them; tests record them
/// to compare the YAML fast path with granit-parser.
#[cfg(feature = "yaml")]
pub(crate) trait Events<'s> {
    /// A document starts at `at`.
    fn begin_document(&mut self, at: usize) -> Result<(), Stop>;
    /// The current document ends.
    fn end_document(&mut self);
    /// A scalar (`anchor` 0: none).
    fn scalar(
        &mut self,
        text: Cow<'s, str>,
        style: Style,
        start: usize,
        end: usize,
        anchor: usize,
    ) -> Result<(), Stop>;
    /// A mapping (`is_map`) or sequence starts.
    fn open(&mut self, is_map: bool, start: usize, anchor: usize) -> Result<(), Stop>;
    /// The innermost open mapping or sequence ends.
    fn close(&mut self, end: usize) -> Result<(), Stop>;
    /// An alias of an anchored node.
    fn alias(&mut self, anchor: usize, start: usize) -> Result<(), Stop>;
    /// The text is not YAML at `at`; the reader goes on with the next document.
    fn syntax_error(&mut self, diagnostic: Diagnostic, at: usize);
    /// The document cannot be read as kubectl reads it (at `at`): it is refused.
    fn fail(&mut self, diagnostic: Diagnostic, at: usize) -> Result<(), Stop>;
}

#[cfg(feature = "yaml")]
impl<'s> Events<'s> for Reader<'s, '_> {
    fn begin_document(&mut self, at: usize) -> Result<(), Stop> {
        Reader::begin_document(self, at)
    }

    fn end_document(&mut self) {
        Reader::end_document(self);
    }

    fn scalar(
        &mut self,
        text: Cow<'s, str>,
        style: Style,
        start: usize,
        end: usize,
        anchor: usize,
    ) -> Result<(), Stop> {
        Reader::scalar(self, text, style, start, end, anchor)
    }

    fn open(&mut self, is_map: bool, start: usize, anchor: usize) -> Result<(), Stop> {
        Reader::open(self, is_map, start, anchor)
    }

    fn close(&mut self, end: usize) -> Result<(), Stop> {
        Reader::close(self, end)
    }

    fn alias(&mut self, anchor: usize, start: usize) -> Result<(), Stop> {
        Reader::alias(self, anchor, start)
    }

    fn syntax_error(&mut self, diagnostic: Diagnostic, at: usize) {
        let span = self.span(at, at);
        self.sink.diagnostic(diagnostic.with_span(span));
    }

    fn fail(&mut self, diagnostic: Diagnostic, at: usize) -> Result<(), Stop> {
        Reader::fail(self, diagnostic, at)
    }
}

/// Builds trees from parser events and passes complete objects to the sink.
pub(crate) struct Reader<'s, 'k> {
    tree: Tree<'s>,
    stack: Vec<Frame>,
    scratch: Vec<NodeId>,
    anchors: Vec<(usize, NodeId)>,
    /// Offset of the text given to the parser within the source (after a byte order mark).
    base: u32,
    limits: &'k Limits,
    pub sink: &'k mut Sink,
    documents: usize,
    /// Set once an error stopped the current document.
    failed: bool,
}

impl<'s, 'k> Reader<'s, 'k> {
    pub fn new(source: u32, base: usize, limits: &'k Limits, sink: &'k mut Sink) -> Self {
        Self {
            tree: Tree {
                source,
                ..Tree::default()
            },
            stack: Vec::new(),
            scratch: Vec::new(),
            anchors: Vec::new(),
            base: u32::try_from(base).unwrap_or(u32::MAX),
            limits,
            sink,
            documents: 0,
            failed: false,
        }
    }

    /// A span in the source from offsets in the parsed text.
    pub fn span(&self, start: usize, end: usize) -> Span {
        let offset = |at: usize| {
            u32::try_from(at)
                .unwrap_or(u32::MAX)
                .saturating_add(self.base)
        };
        Span {
            source: self.tree.source,
            start: offset(start),
            end: offset(end),
        }
    }

    fn offset(&self, at: usize) -> u32 {
        u32::try_from(at)
            .unwrap_or(u32::MAX)
            .saturating_add(self.base)
    }

    /// Starts a new document.
    pub fn begin_document(&mut self, at: usize) -> Result<(), Stop> {
        self.tree.clear();
        self.stack.clear();
        self.scratch.clear();
        self.anchors.clear();
        self.failed = false;
        self.documents += 1;
        if self.documents > self.limits.max_documents {
            return self.fail(
                Diagnostic::error(
                    "input/too-many-documents",
                    alloc::format!(
                        "more than {} documents in one input",
                        self.limits.max_documents
                    ),
                ),
                at,
            );
        }
        Ok(())
    }

    /// Ends the current document and hands its root to the sink.
    pub fn end_document(&mut self) {
        if !self.failed && self.stack.is_empty() {
            if let Some(&root) = self.scratch.first() {
                self.sink.document(&self.tree, root);
            }
        }
        self.sink.end_document(self.failed);
        self.tree.clear();
        self.scratch.clear();
        self.stack.clear();
    }

    /// The tree and root of a document read without [`Reader::end_document`], once it is
    /// complete and nothing refused it: for a caller that decodes the value itself.
    pub fn finished(&self) -> Option<(&Tree<'s>, NodeId)> {
        if self.failed || !self.stack.is_empty() {
            return None;
        }
        self.scratch.first().map(|root| (&self.tree, *root))
    }

    /// Reports an error at a text offset and stops the current document.
    pub fn fail(&mut self, diagnostic: Diagnostic, at: usize) -> Result<(), Stop> {
        let span = self.span(at, at);
        self.fail_at(diagnostic, span)
    }

    fn fail_at(&mut self, diagnostic: Diagnostic, span: Span) -> Result<(), Stop> {
        self.failed = true;
        self.sink.diagnostic(diagnostic.with_span(span));
        Err(Stop)
    }

    /// Gives up the current document without a diagnostic (the caller reports the cause).
    pub fn abandon(&mut self) {
        self.failed = true;
    }

    fn begin_child(&mut self) {
        let mark = self.tree.mark();
        if let Some(items) = self.stack.last_mut().and_then(|frame| frame.items.as_mut()) {
            items.mark = mark;
        }
    }

    pub fn scalar(
        &mut self,
        text: Cow<'s, str>,
        style: Style,
        start: usize,
        end: usize,
        anchor: usize,
    ) -> Result<(), Stop> {
        self.begin_child();
        let node = Node {
            value: Value::Scalar(text, style),
            start: self.offset(start),
            end: self.offset(end),
            weight: 1,
        };
        let id = self.tree.push(node);
        self.define_anchor(anchor, id);
        self.add_child(id)
    }

    pub fn open(&mut self, is_map: bool, start: usize, anchor: usize) -> Result<(), Stop> {
        if self.stack.len() >= self.limits.max_depth {
            return self.fail(
                Diagnostic::error(
                    "input/too-deep",
                    alloc::format!("nesting is deeper than {} levels", self.limits.max_depth),
                ),
                start,
            );
        }
        self.begin_child();
        let items = self.items_frame(is_map);
        self.stack.push(Frame {
            is_map,
            start: self.offset(start),
            first_child: self.scratch.len(),
            anchor,
            items,
        });
        Ok(())
    }

    /// Decides whether a sequence being opened is the `items` of a top-level mapping.
    fn items_frame(&self, is_map: bool) -> Option<Items> {
        if is_map || self.stack.len() != 1 {
            return None;
        }
        let root = self.stack.first()?;
        if !root.is_map {
            return None;
        }
        let entries = self.scratch.get(root.first_child..)?;
        let key = *entries.last()?;
        if entries.len() % 2 != 1 || self.tree.text(key) != Some("items") {
            return None;
        }
        let list_kind = entries
            .chunks_exact(2)
            .find(|pair| pair.first().and_then(|k| self.tree.text(*k)) == Some("kind"))
            .and_then(|pair| pair.get(1))
            .and_then(|value| self.tree.text(*value))
            .map(String::from);
        Some(Items {
            list_kind,
            next_index: 0,
            mark: self.tree.mark(),
        })
    }

    pub fn close(&mut self, end: usize) -> Result<(), Stop> {
        let Some(frame) = self.stack.pop() else {
            return Ok(());
        };
        let first = frame.first_child.min(self.scratch.len());
        let children = self.scratch.get(first..).unwrap_or(&[]);
        // The `items` elements kept in the tree because an anchor may be aliased later
        // (from the first anchor on, elements are not streamed) go to the sink now.
        if let Some(items) = &frame.items {
            for (offset, child) in children.iter().enumerate() {
                let index = items.next_index.saturating_add(offset);
                self.sink
                    .item(&self.tree, *child, index, items.list_kind.as_deref());
            }
        }
        let mut weight: u64 = 1;
        for child in children {
            weight = weight.saturating_add(self.tree.node(*child).map_or(1, |node| node.weight));
        }
        let start = u32::try_from(self.tree.kids.len()).unwrap_or(u32::MAX);
        let count = u32::try_from(children.len()).unwrap_or(u32::MAX);
        if frame.is_map {
            if let Some(key) = self.duplicate_key(children) {
                return self.duplicate_key_error(key);
            }
        }
        self.tree.kids.extend_from_slice(children);
        self.scratch.truncate(first);
        let value = if frame.is_map {
            Value::Map {
                start,
                len: count / 2,
            }
        } else {
            Value::Seq { start, len: count }
        };
        let id = self.tree.push(Node {
            value,
            start: frame.start,
            end: self.offset(end),
            weight,
        });
        if !self.anchors.is_empty() {
            let own = u64::try_from(self.tree.nodes.len()).unwrap_or(u64::MAX);
            if weight > own.saturating_add(self.limits.max_alias_expansion) {
                let span = self.tree.span(id);
                return self.fail_at(
                    Diagnostic::error(
                        "input/alias-budget",
                        alloc::format!(
                            "aliases expand this document to more than {} extra nodes",
                            self.limits.max_alias_expansion
                        ),
                    )
                    .with_help("kubectl rejects such documents too (\"excessive aliasing\")"),
                    span,
                );
            }
        }
        self.define_anchor(frame.anchor, id);
        self.add_child(id)
    }

    /// A YAML alias: the anchored node is shared, not copied.
    #[cfg(feature = "yaml")]
    pub fn alias(&mut self, anchor: usize, start: usize) -> Result<(), Stop> {
        self.begin_child();
        match self.anchors.iter().rev().find(|(a, _)| *a == anchor) {
            Some(&(_, id)) => self.add_child(id),
            None => self.fail(
                Diagnostic::error("yaml/unknown-anchor", "alias refers to an unknown anchor"),
                start,
            ),
        }
    }

    fn define_anchor(&mut self, anchor: usize, id: NodeId) {
        if anchor != 0 {
            self.anchors.push((anchor, id));
        }
    }

    fn add_child(&mut self, id: NodeId) -> Result<(), Stop> {
        let streaming = self.anchors.is_empty();
        if let Some(items) = self.stack.last_mut().and_then(|frame| frame.items.as_mut()) {
            if streaming {
                let index = items.next_index;
                items.next_index += 1;
                self.sink
                    .item(&self.tree, id, index, items.list_kind.as_deref());
                self.tree.truncate(items.mark);
                return Ok(());
            }
        }
        self.scratch.push(id);
        Ok(())
    }

    /// The second of two equal keys among a mapping's entries (keys and values alternate).
    /// Merge keys may repeat, as go-yaml v2 merges each where it stands.
    fn duplicate_key(&self, entries: &[NodeId]) -> Option<NodeId> {
        let text = |id: &NodeId| self.tree.text(*id);
        let merge = |id: &NodeId| self.tree.is_merge_key(*id);
        // Up to 16 keys, a quadratic scan; then a sort (which may name another duplicate).
        if entries.len() <= 32 {
            for (i, later) in entries.iter().enumerate().step_by(2) {
                let Some(key) = text(later) else {
                    continue;
                };
                let earlier = entries.get(..i).unwrap_or_default();
                if earlier
                    .iter()
                    .step_by(2)
                    .any(|id| text(id) == Some(key) && !merge(id))
                    && !merge(later)
                {
                    return Some(*later);
                }
            }
            return None;
        }
        let mut sorted: Vec<(&str, NodeId)> = entries
            .iter()
            .step_by(2)
            .filter_map(|k| Some((text(k)?, *k)))
            .filter(|(key, id)| *key != "<<" || !merge(id))
            .collect();
        sorted.sort_unstable();
        sorted
            .windows(2)
            .find(|pair| pair.first().map(|p| p.0) == pair.get(1).map(|p| p.0))
            .and_then(|pair| pair.get(1).map(|p| p.1))
    }

    /// Rejects a mapping that has the same key twice, as kubectl does (strict decoding).
    fn duplicate_key_error(&mut self, key: NodeId) -> Result<(), Stop> {
        let name = self.tree.text(key).unwrap_or_default();
        let diagnostic = Diagnostic::error(
            "input/duplicate-key",
            alloc::format!("mapping key `{name}` already defined"),
        )
        .with_help("kubectl rejects duplicate keys; keep one of them");
        let span = self.tree.span(key);
        self.fail_at(diagnostic, span)
    }
}
