//! The YAML fast path: the block style that `kubectl get -o yaml` (go-yaml) prints, read
//! straight from the bytes, with exactly the events and spans granit-parser gives.
//!
//! Hand-written because a general YAML parser does far more per byte than this subset
//! needs: granit-parser reads a kubectl dump at about 70 MiB/s natively and at half that
//! in wasm, which made YAML input five times slower than JSON.
//!
//! Covered: block mappings and sequences (also indentless and compact ones), plain scalars
//! (also over several lines), single- and double-quoted scalars (also over several lines,
//! with every escape that yields a valid character), literal block scalars (`|`, `|-`,
//! `|+`), flow collections written on one line, comments, and `---`/`...` documents.
//! Anything else (anchors, aliases, tags, directives, complex keys, folded scalars, tabs
//! outside quoted or literal text, unusual indentation, characters YAML forbids) and any
//! text that is not valid YAML makes [`read`] give up, and the caller reads the whole
//! text again with granit-parser: a text never reads differently on the two paths. Tests
//! compare both paths event by event on every scenario, on generated dumps and on random
//! documents (`super::tests`).

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::input::tree::{Events, Stop, Style};

/// The text is outside the subset (or the reader stopped a document): read it with
/// granit-parser instead.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Unsupported;

impl From<Stop> for Unsupported {
    fn from(_: Stop) -> Self {
        Self
    }
}

type Result<T> = core::result::Result<T, Unsupported>;

/// Reads a YAML stream into `events`; fails, leaving `events` incomplete, on anything
/// outside the subset.
pub(crate) fn read<'s>(text: &'s str, events: &mut impl Events<'s>) -> Result<()> {
    let scanner = Scanner {
        text,
        bytes: text.as_bytes(),
    };
    let mut frames = Vec::new();
    let mut at = 0;
    while let Some(line) = scanner.next_content(at)? {
        let first = line.first();
        match scanner.marker(line)? {
            Some(Marker::Start) => {
                events.begin_document(first)?;
                let after = first + 3;
                let next = scanner.next_content(scanner.rest_of_line(after)?)?;
                match next {
                    Some(next) if scanner.marker(next)?.is_none() => {
                        at = scanner.document(next, events, &mut frames)?;
                    }
                    _ => {
                        // Nothing between this `---` and the next marker: a null document.
                        events.scalar(Cow::Borrowed("~"), Style::Plain, after, after, 0)?;
                        events.end_document();
                        at = next.map_or(text.len(), |next| next.start);
                    }
                }
            }
            // A document end marker. kubectl splits documents at `---` lines only, and
            // ignores what follows a `...` up to the next one (see `super::parts`): left
            // to granit-parser, which warns about it.
            Some(Marker::End) => {
                at = scanner.rest_of_line(first + 3)?;
                match scanner.next_content(at)? {
                    Some(next) if scanner.marker(next)?.is_none() => return Err(Unsupported),
                    _ => {}
                }
            }
            None => {
                if scanner.byte(first) == Some(b'%') {
                    return Err(Unsupported);
                }
                events.begin_document(first)?;
                at = scanner.document(line, events, &mut frames)?;
            }
        }
    }
    Ok(())
}

/// A line with content: where it starts and how many spaces indent it.
#[derive(Clone, Copy, Debug)]
struct Line {
    start: usize,
    indent: usize,
}

impl Line {
    /// The offset of the line's first character after the indentation.
    fn first(self) -> usize {
        self.start + self.indent
    }
}

/// `---` or `...` at the start of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Start,
    End,
}

/// An open block collection: its indentation, and for a sequence whether it is indentless
/// (a mapping value whose `-` entries sit at the mapping's own indentation).
#[derive(Clone, Copy, Debug)]
enum Frame {
    Map { indent: usize },
    Seq { indent: usize, indentless: bool },
}

/// Where a node starts, which decides what it may be.
#[derive(Clone, Copy, Debug)]
struct Place {
    /// Its column (only used where `block` is true).
    column: usize,
    /// The indentation of the collection it belongs to: lines that continue a scalar
    /// must be indented more. `None` at the top of a document (one-line scalars only).
    parent: Option<usize>,
    /// False on a mapping key's line, where a block collection cannot start.
    block: bool,
}

/// What to read next in a document.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// The node is complete; this is the next line with content (`None`: the end).
    Line(Option<Line>),
    /// The value after a key whose `:` is at `colon`, in a mapping indented by `indent`.
    Value { colon: usize, indent: usize },
    /// The entry whose `-` is at `dash`, in a sequence indented by `indent`.
    Entry { dash: usize, indent: usize },
}

/// Deeper nesting is left to granit-parser, which has its own limits (255 levels).
const MAX_NESTING: usize = 128;

/// Why a run of plain text stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlainEnd {
    /// At the line break (or the end of the text) at this offset.
    Line(usize),
    /// At a comment starting at this offset.
    Comment(usize),
    /// At a `:` that makes the text a mapping key.
    Colon(usize),
    /// At a flow indicator (`,[]{}`; flow context only).
    Flow(usize),
}

/// How a literal block scalar ends (its chomping indicator).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chomp {
    Strip,
    Clip,
    Keep,
}

/// The longest implicit key the fast path reads (YAML allows 1024 characters).
const MAX_KEY: usize = 1000;

/// Byte classes for the scanning loops.
const TEXT: u8 = 0;
const SPACE: u8 = 1;
const BREAK: u8 = 2;
const TAB: u8 = 3;
/// Control characters that YAML does not allow unescaped.
const FORBIDDEN: u8 = 4;
/// The lead byte of a character that may be one YAML forbids or treats as a line break.
const CHECK: u8 = 5;
const HASH: u8 = 6;
const COLON: u8 = 7;
const FLOW: u8 = 8;

/// The class of every byte, looked up in one step by the scanning loops.
// Indexing in a constant cannot fail at run time: it would not compile.
#[allow(clippy::indexing_slicing)]
const CLASSES: [u8; 256] = {
    let mut classes = [TEXT; 256];
    let mut byte = 0;
    while byte < 256 {
        classes[byte] = match byte as u8 {
            b' ' => SPACE,
            b'\n' | b'\r' => BREAK,
            b'\t' => TAB,
            0..=0x1f | 0x7f => FORBIDDEN,
            0xc2 | 0xe2 | 0xef => CHECK,
            b'#' => HASH,
            b':' => COLON,
            b',' | b'[' | b']' | b'{' | b'}' => FLOW,
            _ => TEXT,
        };
        byte += 1;
    }
    classes
};

#[inline]
fn class(byte: u8) -> u8 {
    CLASSES.get(usize::from(byte)).copied().unwrap_or(TEXT)
}

/// Characters that cannot start a plain scalar here (YAML's indicators), so the subset
/// leaves them to granit-parser. `-` starts one when a non-space follows (`-1`).
fn is_indicator(byte: u8) -> bool {
    matches!(
        byte,
        b'-' | b'?'
            | b':'
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'#'
            | b'&'
            | b'*'
            | b'!'
            | b'|'
            | b'>'
            | b'\''
            | b'"'
            | b'%'
            | b'@'
            | b'`'
    )
}

struct Scanner<'s> {
    text: &'s str,
    bytes: &'s [u8],
}

impl<'s> Scanner<'s> {
    fn byte(&self, at: usize) -> Option<u8> {
        self.bytes.get(at).copied()
    }

    fn slice(&self, start: usize, end: usize) -> &'s str {
        self.text.get(start..end).unwrap_or_default()
    }

    /// True when a line break, the end of the text or a space follows `at` (so that a
    /// `-`, `:` or marker before it is an indicator).
    fn separated(&self, at: usize) -> bool {
        matches!(self.byte(at), None | Some(b' ' | b'\n' | b'\r'))
    }

    /// Fails on characters YAML forbids or reads as line breaks other than `\n`, `\r\n`
    /// (C1 controls and NEL, LS, PS, a byte order mark, U+FFFE and U+FFFF).
    fn check_char(&self, at: usize) -> Result<()> {
        let next = |offset: usize| self.byte(at + offset);
        let bad = match self.byte(at) {
            Some(0xc2) => matches!(next(1), Some(0x80..=0x9f)),
            Some(0xe2) => next(1) == Some(0x80) && matches!(next(2), Some(0xa8 | 0xa9)),
            Some(0xef) => {
                (next(1) == Some(0xbb) && next(2) == Some(0xbf))
                    || (next(1) == Some(0xbf) && matches!(next(2), Some(0xbe | 0xbf)))
            }
            _ => false,
        };
        if bad {
            Err(Unsupported)
        } else {
            Ok(())
        }
    }

    /// The line break at `at`: `\n`, or `\r\n` (a lone `\r` is outside the subset). The
    /// offset of the next line, or `None` when `at` is not a line break.
    fn line_break(&self, at: usize) -> Result<Option<usize>> {
        match self.byte(at) {
            Some(b'\n') => Ok(Some(at + 1)),
            Some(b'\r') if self.byte(at + 1) == Some(b'\n') => Ok(Some(at + 2)),
            Some(b'\r') => Err(Unsupported),
            _ => Ok(None),
        }
    }

    /// The start of the line after the line break at `at` (or the end of the text).
    fn after_break(&self, at: usize) -> Result<usize> {
        Ok(self.line_break(at)?.unwrap_or(self.bytes.len()))
    }

    fn count_spaces(&self, at: usize) -> usize {
        self.bytes
            .get(at..)
            .map_or(0, |rest| rest.iter().take_while(|&&b| b == b' ').count())
    }

    /// Skips a comment from `at` (its `#`) to the line break, checking its characters.
    fn comment(&self, mut at: usize) -> Result<usize> {
        loop {
            match self.byte(at) {
                None | Some(b'\n' | b'\r') => return Ok(at),
                Some(byte) => match class(byte) {
                    FORBIDDEN => return Err(Unsupported),
                    CHECK => self.check_char(at)?,
                    _ => {}
                },
            }
            at += 1;
        }
    }

    /// After a node that ends on its line: spaces and an optional comment, then the line
    /// break. Returns the offset of the next line.
    fn rest_of_line(&self, at: usize) -> Result<usize> {
        let spaces = self.count_spaces(at);
        let mut end = at + spaces;
        if self.byte(end) == Some(b'#') && (spaces > 0 || self.separated_before(at)) {
            end = self.comment(end)?;
        }
        if end >= self.bytes.len() {
            return Ok(end);
        }
        self.line_break(end)?.ok_or(Unsupported)
    }

    /// True when `at` follows a space or starts a line (so a `#` there starts a comment).
    fn separated_before(&self, at: usize) -> bool {
        at == 0 || matches!(self.byte(at - 1), Some(b' ' | b'\n'))
    }

    /// The next line with content from the line starting at `at`, skipping blank lines and
    /// comment lines; `None` at the end of the text.
    fn next_content(&self, mut at: usize) -> Result<Option<Line>> {
        loop {
            let indent = self.count_spaces(at);
            let first = at + indent;
            match self.byte(first) {
                None => return Ok(None),
                Some(b'#') => at = self.after_break(self.comment(first)?)?,
                Some(b'\t') => return Err(Unsupported),
                Some(_) => match self.line_break(first)? {
                    Some(next) => at = next,
                    None => return Ok(Some(Line { start: at, indent })),
                },
            }
        }
    }

    /// Whether a line is a document marker; other lines that start like one are left to
    /// granit-parser.
    fn marker(&self, line: Line) -> Result<Option<Marker>> {
        if line.indent != 0 {
            return Ok(None);
        }
        let marker = match self.bytes.get(line.start..line.start + 3) {
            Some(b"---") => Marker::Start,
            Some(b"...") => Marker::End,
            _ => return Ok(None),
        };
        if self.separated(line.start + 3) {
            Ok(Some(marker))
        } else {
            Err(Unsupported)
        }
    }

    /// True when a block sequence entry (`-` then a space or line break) starts at `at`.
    fn is_entry(&self, at: usize) -> bool {
        self.byte(at) == Some(b'-') && self.separated(at + 1)
    }

    /// Reads one document whose first content line is `line`; returns the offset of the
    /// line that ends it (a marker line) or the end of the text.
    fn document<E: Events<'s>>(
        &self,
        line: Line,
        events: &mut E,
        frames: &mut Vec<Frame>,
    ) -> Result<usize> {
        frames.clear();
        let root = Place {
            column: line.indent,
            parent: None,
            block: true,
        };
        let mut next = self.node(line.first(), root, events, frames)?;
        loop {
            let next_line = match next {
                Next::Line(line) => line,
                Next::Value { colon, indent } => {
                    next = self.value(colon, indent, events, frames)?;
                    continue;
                }
                Next::Entry { dash, indent } => {
                    next = self.entry(dash, indent, events, frames)?;
                    continue;
                }
            };
            let line = match next_line {
                Some(line) if self.marker(line)?.is_none() => line,
                _ => {
                    // The end of the document: every open collection ends where the next
                    // token is, as granit-parser places it.
                    let end = next_line.map_or(self.bytes.len(), Line::first);
                    for _ in frames.drain(..) {
                        events.close(end)?;
                    }
                    events.end_document();
                    return Ok(next_line.map_or(self.bytes.len(), |line| line.start));
                }
            };
            let first = line.first();
            let Some(&frame) = frames.last() else {
                // More content after the root node.
                return Err(Unsupported);
            };
            let (indent, entry) = match frame {
                Frame::Map { indent } => (indent, false),
                Frame::Seq { indent, .. } => (indent, true),
            };
            if line.indent < indent
                || (matches!(
                    frame,
                    Frame::Seq {
                        indentless: true,
                        ..
                    }
                ) && line.indent == indent
                    && !self.is_entry(first))
            {
                events.close(first)?;
                frames.pop();
                continue;
            }
            if line.indent > indent || self.is_entry(first) != entry {
                return Err(Unsupported);
            }
            next = if entry {
                Next::Entry {
                    dash: first,
                    indent,
                }
            } else {
                self.key(first, indent, events)?
            };
        }
    }

    /// A block sequence entry at `dash` in a sequence indented by `indent`.
    fn entry<E: Events<'s>>(
        &self,
        dash: usize,
        indent: usize,
        events: &mut E,
        frames: &mut Vec<Frame>,
    ) -> Result<Next> {
        let at = self.after_dash(dash)?;
        if self.line_break(at)?.is_none() && at < self.bytes.len() {
            let place = Place {
                column: at - dash + indent,
                parent: Some(indent),
                block: true,
            };
            return self.node(at, place, events, frames);
        }
        let next = self.next_content(self.after_break(at)?)?;
        match next {
            Some(line) if line.indent > indent && self.marker(line)?.is_none() => {
                let place = Place {
                    column: line.indent,
                    parent: Some(indent),
                    block: true,
                };
                self.node(line.first(), place, events, frames)
            }
            _ => {
                // An empty entry: granit-parser places its null at the end of the line.
                events.scalar(Cow::Borrowed("~"), Style::Plain, at, at, 0)?;
                Ok(Next::Line(next))
            }
        }
    }

    /// Where an entry's content starts after its `-`: past spaces, or at the line break
    /// when only a comment follows.
    fn after_dash(&self, dash: usize) -> Result<usize> {
        let at = dash + 1 + self.count_spaces(dash + 1);
        match self.byte(at) {
            Some(b'#') => self.comment(at),
            Some(b'\t') => Err(Unsupported),
            _ => Ok(at),
        }
    }

    /// The key of a `key: value` entry of a block mapping indented by `indent`, at `at`.
    fn key<E: Events<'s>>(&self, at: usize, indent: usize, events: &mut E) -> Result<Next> {
        let Some((key, style, end)) = self.mapping_key(at)? else {
            return Err(Unsupported);
        };
        events.scalar(key, style, at, end, 0)?;
        Ok(Next::Value { colon: end, indent })
    }

    /// If a mapping key starts at `at`: its text, style and end (where its `:` is).
    fn mapping_key(&self, at: usize) -> Result<Option<(Cow<'s, str>, Style, usize)>> {
        match self.byte(at) {
            Some(quote @ (b'"' | b'\'')) => Ok(self
                .quoted_key(at, quote)?
                .map(|(key, end)| (key, Style::Quoted, end))),
            Some(byte) if !is_indicator(byte) || (byte == b'-' && !self.separated(at + 1)) => {
                match self.plain_run(at, false)? {
                    (end, PlainEnd::Colon(colon)) => {
                        Ok(Some((self.plain_key(at, end, colon)?, Style::Plain, end)))
                    }
                    _ => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// A plain key from `at` to `end`, followed by its `:` at `colon`.
    fn plain_key(&self, at: usize, end: usize, colon: usize) -> Result<Cow<'s, str>> {
        // A space before the `:`, or a key longer than YAML allows an implicit key to be.
        if end != colon || end - at > MAX_KEY {
            return Err(Unsupported);
        }
        Ok(Cow::Borrowed(self.slice(at, end)))
    }

    /// If a quoted mapping key starts at `at`: its text and end (where its `:` is).
    fn quoted_key(&self, at: usize, quote: u8) -> Result<Option<(Cow<'s, str>, usize)>> {
        // A quoted scalar over several lines is no key.
        let Ok((text, end)) = self.quoted(at, quote, None) else {
            return Ok(None);
        };
        if !self.is_key_end(end) {
            return Ok(None);
        }
        if end - at > MAX_KEY {
            return Err(Unsupported);
        }
        Ok(Some((text, end)))
    }

    /// True when the scalar that ends at `end` is a mapping key: a `:` and a separator
    /// follow it.
    fn is_key_end(&self, end: usize) -> bool {
        self.byte(end) == Some(b':') && self.separated(end + 1)
    }

    /// The value after a key whose `:` is at `colon`, in a mapping indented by `indent`.
    fn value<E: Events<'s>>(
        &self,
        colon: usize,
        indent: usize,
        events: &mut E,
        frames: &mut Vec<Frame>,
    ) -> Result<Next> {
        let at = colon + 1 + self.count_spaces(colon + 1);
        match self.byte(at) {
            Some(b'#') => {}
            Some(b'\t') => return Err(Unsupported),
            Some(_) if self.line_break(at)?.is_none() => {
                let place = Place {
                    column: 0,
                    parent: Some(indent),
                    block: false,
                };
                return self.node(at, place, events, frames);
            }
            _ => {}
        }
        let next = self.next_content(self.rest_of_line(at)?)?;
        match next {
            Some(line) if self.marker(line)?.is_none() && line.indent > indent => {
                let place = Place {
                    column: line.indent,
                    parent: Some(indent),
                    block: true,
                };
                self.node(line.first(), place, events, frames)
            }
            Some(line)
                if line.indent == indent
                    && self.is_entry(line.first())
                    && self.marker(line)?.is_none() =>
            {
                // An indentless sequence: it starts where its first entry's content does.
                let dash = line.first();
                events.open(false, self.after_dash(dash)?, 0)?;
                push(
                    frames,
                    Frame::Seq {
                        indent,
                        indentless: true,
                    },
                )?;
                Ok(Next::Entry { dash, indent })
            }
            _ => {
                // No value: granit-parser places the null at the `:`.
                events.scalar(Cow::Borrowed("~"), Style::Plain, colon, colon, 0)?;
                Ok(Next::Line(next))
            }
        }
    }

    /// A node starting at `at`. Scalars and flow collections are read whole; a block
    /// collection is opened (with its first key), its entries being read by
    /// [`Self::document`]. Returns what to read next.
    fn node<E: Events<'s>>(
        &self,
        at: usize,
        place: Place,
        events: &mut E,
        frames: &mut Vec<Frame>,
    ) -> Result<Next> {
        let Some(first) = self.byte(at) else {
            return Err(Unsupported);
        };
        if self.is_entry(at) {
            if !place.block {
                return Err(Unsupported);
            }
            events.open(false, at, 0)?;
            push(
                frames,
                Frame::Seq {
                    indent: place.column,
                    indentless: false,
                },
            )?;
            return Ok(Next::Entry {
                dash: at,
                indent: place.column,
            });
        }
        let after = match first {
            b'"' | b'\'' => {
                let (text, end) = match self.quoted(at, first, None) {
                    Ok((key, end)) if self.is_key_end(end) => {
                        if end - at > MAX_KEY {
                            return Err(Unsupported);
                        }
                        return self.block_map(at, key, Style::Quoted, end, place, events, frames);
                    }
                    Ok(one_line) => one_line,
                    // Over several lines: a value (a key would be an error).
                    Err(Unsupported) => self.quoted(at, first, place.parent)?,
                };
                events.scalar(text, Style::Quoted, at, end, 0)?;
                self.rest_of_line(end)?
            }
            b'|' => {
                let parent = place.parent.ok_or(Unsupported)?;
                let (text, start, end, after) = self.literal(at, parent)?;
                events.scalar(Cow::Owned(text), Style::Quoted, start, end, 0)?;
                after
            }
            b'[' | b'{' => {
                let end = self.flow(at, events)?;
                self.rest_of_line(end)?
            }
            byte if is_indicator(byte) && (byte != b'-' || self.separated(at + 1)) => {
                return Err(Unsupported)
            }
            _ => {
                let (end, stop) = self.plain_run(at, false)?;
                if let PlainEnd::Colon(colon) = stop {
                    let key = self.plain_key(at, end, colon)?;
                    return self.block_map(at, key, Style::Plain, end, place, events, frames);
                }
                let (text, end, after) = self.plain(at, end, stop, place.parent)?;
                events.scalar(text, Style::Plain, at, end, 0)?;
                after
            }
        };
        Ok(Next::Line(self.next_content(after)?))
    }

    /// Opens a block mapping whose first key (`key`, from `at` to `end`) was just read.
    #[allow(clippy::too_many_arguments)]
    fn block_map<E: Events<'s>>(
        &self,
        at: usize,
        key: Cow<'s, str>,
        style: Style,
        end: usize,
        place: Place,
        events: &mut E,
        frames: &mut Vec<Frame>,
    ) -> Result<Next> {
        if !place.block {
            return Err(Unsupported);
        }
        events.open(true, at, 0)?;
        push(
            frames,
            Frame::Map {
                indent: place.column,
            },
        )?;
        events.scalar(key, style, at, end, 0)?;
        Ok(Next::Value {
            colon: end,
            indent: place.column,
        })
    }

    /// Plain text on one line from `at`: where it ends (trailing spaces excluded) and why.
    fn plain_run(&self, at: usize, flow: bool) -> Result<(usize, PlainEnd)> {
        let rest = self.bytes.get(at..).unwrap_or_default();
        let mut end = at;
        let mut i = 0;
        loop {
            // Most bytes are ordinary text: skip them in one go.
            let text = rest
                .get(i..)
                .unwrap_or_default()
                .iter()
                .position(|&byte| class(byte) != TEXT);
            let Some(text) = text else {
                // Text up to the end of the input.
                let line_end = at + rest.len();
                let end = if i < rest.len() { line_end } else { end };
                return Ok((end, PlainEnd::Line(line_end)));
            };
            if text > 0 {
                i += text;
                end = at + i;
            }
            let byte = rest.get(i).copied().unwrap_or_default();
            let here = at + i;
            match class(byte) {
                SPACE => {
                    i += 1;
                    continue;
                }
                BREAK => return Ok((end, PlainEnd::Line(here))),
                HASH if i > 0 && rest.get(i - 1) == Some(&b' ') => {
                    return Ok((end, PlainEnd::Comment(here)));
                }
                HASH => {}
                COLON => match rest.get(i + 1) {
                    None | Some(b' ' | b'\n' | b'\r') => return Ok((end, PlainEnd::Colon(here))),
                    Some(b',' | b'[' | b']' | b'{' | b'}') if flow => return Err(Unsupported),
                    _ => {}
                },
                FLOW if flow => return Ok((end, PlainEnd::Flow(here))),
                FLOW => {}
                CHECK => self.check_char(here)?,
                _ => return Err(Unsupported),
            }
            i += 1;
            end = at + i;
        }
    }

    /// A plain scalar from `at`, whose first line [`Self::plain_run`] read up to `end`
    /// and `stop`, folded over the lines that continue it (indented more than `parent`):
    /// its text, its end, and the offset where reading goes on.
    fn plain(
        &self,
        at: usize,
        end: usize,
        stop: PlainEnd,
        parent: Option<usize>,
    ) -> Result<(Cow<'s, str>, usize, usize)> {
        let first_line = Cow::Borrowed(self.slice(at, end));
        let line_end = match stop {
            PlainEnd::Line(line_end) => line_end,
            PlainEnd::Comment(hash) => {
                let after = self.after_break(self.comment(hash)?)?;
                return Ok((first_line, end, after));
            }
            PlainEnd::Colon(_) | PlainEnd::Flow(_) => return Err(Unsupported),
        };
        let mut next = self.after_break(line_end)?;
        let Some(parent) = parent else {
            return Ok((first_line, end, next));
        };
        let mut text = first_line;
        let mut end = end;
        let mut blank_lines = 0;
        loop {
            let indent = self.count_spaces(next);
            let first = next + indent;
            let Some(byte) = self.byte(first) else {
                break;
            };
            if let Some(after) = self.line_break(first)? {
                blank_lines += 1;
                next = after;
                continue;
            }
            if indent <= parent || byte == b'#' {
                break;
            }
            if is_indicator(byte) || byte == b'\t' {
                return Err(Unsupported);
            }
            let (line_end_text, stop) = self.plain_run(first, false)?;
            let folded = text.to_mut();
            if blank_lines == 0 {
                folded.push(' ');
            }
            for _ in 0..blank_lines {
                folded.push('\n');
            }
            folded.push_str(self.slice(first, line_end_text));
            end = line_end_text;
            blank_lines = 0;
            match stop {
                PlainEnd::Line(line_end) => next = self.after_break(line_end)?,
                PlainEnd::Comment(hash) => {
                    next = self.after_break(self.comment(hash)?)?;
                    break;
                }
                PlainEnd::Colon(_) | PlainEnd::Flow(_) => return Err(Unsupported),
            }
        }
        Ok((text, end, next))
    }

    /// A single- or double-quoted scalar starting at `at` (its quote): its text and the
    /// offset after the closing quote. It may go on over lines indented more than `parent`
    /// (none when `parent` is `None`).
    fn quoted(&self, at: usize, quote: u8, parent: Option<usize>) -> Result<(Cow<'s, str>, usize)> {
        let double = quote == b'"';
        let start = at + 1;
        let mut i = start;
        // Most quoted scalars have no escapes and fit on their line: borrow them.
        loop {
            let Some(byte) = self.byte(i) else {
                return Err(Unsupported);
            };
            if byte == quote {
                if double || self.byte(i + 1) != Some(b'\'') {
                    return Ok((Cow::Borrowed(self.slice(start, i)), i + 1));
                }
                break;
            }
            match class(byte) {
                TEXT | SPACE | TAB | HASH | COLON | FLOW if !(double && byte == b'\\') => {}
                CHECK => self.check_char(i)?,
                FORBIDDEN => return Err(Unsupported),
                _ => break,
            }
            i += 1;
        }
        let mut text = String::from(self.slice(start, i));
        // Length of `text` without the white space that a line break would trim (none of
        // it escaped so far).
        let mut kept = text.trim_end_matches([' ', '\t']).len();
        loop {
            let Some(byte) = self.byte(i) else {
                return Err(Unsupported);
            };
            match byte {
                b'"' if double => return Ok((Cow::Owned(text), i + 1)),
                b'\'' if !double => {
                    if self.byte(i + 1) != Some(b'\'') {
                        return Ok((Cow::Owned(text), i + 1));
                    }
                    text.push('\'');
                    kept = text.len();
                    i += 2;
                }
                b'\\' if double => {
                    let Some(escape) = self.byte(i + 1) else {
                        return Err(Unsupported);
                    };
                    if let Some(next) = self.line_break(i + 1)? {
                        // An escaped line break joins the lines without a space.
                        i = self.continuation(next, parent, true)?.0;
                        kept = text.len();
                        continue;
                    }
                    let (character, length) = self.escape(i + 1, escape)?;
                    text.push(character);
                    kept = text.len();
                    i += 1 + length;
                }
                b'\n' | b'\r' => {
                    let next = self.line_break(i)?.ok_or(Unsupported)?;
                    text.truncate(kept);
                    let (after, blank_lines) = self.continuation(next, parent, false)?;
                    if blank_lines == 0 {
                        text.push(' ');
                    }
                    for _ in 0..blank_lines {
                        text.push('\n');
                    }
                    kept = text.len();
                    i = after;
                }
                b' ' | b'\t' => {
                    text.push(char::from(byte));
                    i += 1;
                }
                _ => {
                    // A run of other characters.
                    let run = i;
                    while let Some(byte) = self.byte(i) {
                        match class(byte) {
                            TEXT | HASH | COLON | FLOW
                                if byte != quote && !(double && byte == b'\\') => {}
                            CHECK => self.check_char(i)?,
                            FORBIDDEN => return Err(Unsupported),
                            _ => break,
                        }
                        i += 1;
                    }
                    if i == run {
                        return Err(Unsupported);
                    }
                    text.push_str(self.slice(run, i));
                    kept = text.len();
                }
            }
        }
    }

    /// The next line of a quoted scalar after a line break, from `at` (the start of a
    /// line): the offset of its first character past the indentation, and how many blank
    /// lines came first.
    fn continuation(
        &self,
        mut at: usize,
        parent: Option<usize>,
        escaped: bool,
    ) -> Result<(usize, usize)> {
        let parent = parent.ok_or(Unsupported)?;
        let mut blank_lines = 0;
        loop {
            let indent = self.count_spaces(at);
            let first = at + indent;
            match self.byte(first) {
                None | Some(b'\t') => return Err(Unsupported),
                Some(_) => match self.line_break(first)? {
                    Some(next) if !escaped => {
                        blank_lines += 1;
                        at = next;
                    }
                    Some(_) => return Err(Unsupported),
                    None if indent > parent => return Ok((first, blank_lines)),
                    None => return Err(Unsupported),
                },
            }
        }
    }

    /// The escape sequence whose letter is at `at` (after a backslash): the character and
    /// how many bytes it takes after the backslash.
    fn escape(&self, at: usize, letter: u8) -> Result<(char, usize)> {
        let simple = match letter {
            b'0' => '\0',
            b'a' => '\u{7}',
            b'b' => '\u{8}',
            b't' | b'\t' => '\t',
            b'n' => '\n',
            b'v' => '\u{b}',
            b'f' => '\u{c}',
            b'r' => '\r',
            b'e' => '\u{1b}',
            b' ' => ' ',
            b'"' => '"',
            b'/' => '/',
            b'\\' => '\\',
            b'N' => '\u{85}',
            b'_' => '\u{a0}',
            b'L' => '\u{2028}',
            b'P' => '\u{2029}',
            b'x' | b'u' | b'U' => {
                let digits = match letter {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let hex = self.bytes.get(at + 1..at + 1 + digits).ok_or(Unsupported)?;
                if !hex.iter().all(u8::is_ascii_hexdigit) {
                    return Err(Unsupported);
                }
                let code = u32::from_str_radix(self.slice(at + 1, at + 1 + digits), 16)
                    .map_err(|_| Unsupported)?;
                // Surrogates and values past U+10FFFF are errors, left to granit-parser.
                let character = char::from_u32(code).ok_or(Unsupported)?;
                return Ok((character, 1 + digits));
            }
            _ => return Err(Unsupported),
        };
        Ok((simple, 1))
    }

    /// A literal block scalar whose `|` is at `at`, in a collection indented by `parent`:
    /// its text, its span (from its first non-blank line's content to the first character
    /// of the line that ends it, as granit-parser gives it) and the offset of that line.
    fn literal(&self, at: usize, parent: usize) -> Result<(String, usize, usize, usize)> {
        let (chomp, header_end) = match self.byte(at + 1) {
            Some(b'-') => (Chomp::Strip, at + 2),
            Some(b'+') => (Chomp::Keep, at + 2),
            _ => (Chomp::Clip, at + 1),
        };
        if !self.separated(header_end) {
            // An indentation indicator, or anything else after the header.
            return Err(Unsupported);
        }
        let body = self.rest_of_line(header_end)?;
        // The content's indentation is that of its first non-blank line.
        let mut line = body;
        let mut widest_blank = 0;
        let indent = loop {
            let spaces = self.count_spaces(line);
            match self.line_break(line + spaces)? {
                Some(next) => {
                    widest_blank = widest_blank.max(spaces);
                    line = next;
                }
                None if self.byte(line + spaces).is_some_and(|b| b != b'\t') => break spaces,
                None => return Err(Unsupported),
            }
        };
        if indent <= parent || widest_blank > indent {
            return Err(Unsupported);
        }
        let start = line + indent;
        let mut text = String::new();
        let mut line = body;
        let mut blank_lines = 0;
        let mut content_lines = 0;
        let (end, after) = loop {
            if line >= self.bytes.len() {
                break (line, line);
            }
            let spaces = self.count_spaces(line);
            let first = line + spaces;
            if let Some(next) = self.line_break(first)? {
                if spaces > indent {
                    return Err(Unsupported);
                }
                blank_lines += 1;
                line = next;
                continue;
            }
            match self.byte(first) {
                None => return Err(Unsupported),
                Some(b'\t') if spaces < indent => return Err(Unsupported),
                Some(_) if spaces < indent => break (first, line),
                Some(_) => {}
            }
            let content = line + indent;
            let mut i = content;
            loop {
                match self.byte(i) {
                    None | Some(b'\n' | b'\r') => break,
                    Some(byte) => match class(byte) {
                        FORBIDDEN => return Err(Unsupported),
                        CHECK => self.check_char(i)?,
                        _ => {}
                    },
                }
                i += 1;
            }
            if content_lines > 0 {
                text.push('\n');
            }
            for _ in 0..blank_lines {
                text.push('\n');
            }
            text.push_str(self.slice(content, i));
            content_lines += 1;
            blank_lines = 0;
            line = self.after_break(i)?;
        };
        match chomp {
            Chomp::Strip => {}
            Chomp::Clip => text.push('\n'),
            Chomp::Keep => {
                text.push('\n');
                for _ in 0..blank_lines {
                    text.push('\n');
                }
            }
        }
        Ok((text, start, end, after))
    }

    /// A flow collection on one line from `at` (its `[` or `{`) holding scalars and flow
    /// collections; returns the offset after its closing bracket.
    fn flow<E: Events<'s>>(&self, at: usize, events: &mut E) -> Result<usize> {
        /// What comes next inside the innermost collection.
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum Expect {
            /// An entry, or the closing bracket right after the opening one.
            First,
            /// An entry, after a comma.
            Entry,
            /// A value, after a mapping key or in a sequence.
            Value,
            /// A comma or the closing bracket.
            Separator,
        }
        // `true` for a mapping.
        let mut open: Vec<bool> = Vec::new();
        let mut i = at;
        let mut expect = Expect::Value;
        loop {
            i += self.count_spaces(i);
            let Some(byte) = self.byte(i) else {
                return Err(Unsupported);
            };
            let in_map = open.last().copied();
            let closing = match in_map {
                Some(true) => b'}',
                _ => b']',
            };
            match expect {
                Expect::First | Expect::Separator if byte == closing && in_map.is_some() => {
                    i += 1;
                    events.close(i)?;
                    open.pop();
                    if open.is_empty() {
                        return Ok(i);
                    }
                    expect = Expect::Separator;
                }
                Expect::Separator if byte == b',' => {
                    i += 1;
                    expect = Expect::Entry;
                }
                Expect::Separator => return Err(Unsupported),
                Expect::First | Expect::Entry if in_map == Some(true) => {
                    // A key, `:` and a space.
                    let (text, style, end) = self.flow_scalar(i)?;
                    if self.byte(end) != Some(b':') || self.byte(end + 1) != Some(b' ') {
                        return Err(Unsupported);
                    }
                    events.scalar(text, style, i, end, 0)?;
                    i = end + 1;
                    expect = Expect::Value;
                }
                Expect::First | Expect::Entry | Expect::Value => {
                    if let b'[' | b'{' = byte {
                        let is_map = byte == b'{';
                        if open.len() >= MAX_NESTING {
                            return Err(Unsupported);
                        }
                        events.open(is_map, i, 0)?;
                        open.push(is_map);
                        i += 1;
                        expect = Expect::First;
                        continue;
                    }
                    let (text, style, end) = self.flow_scalar(i)?;
                    events.scalar(text, style, i, end, 0)?;
                    i = end;
                    if self.byte(i + self.count_spaces(i)) == Some(b':') {
                        // A single-pair mapping in a sequence, or a key of a key.
                        return Err(Unsupported);
                    }
                    expect = Expect::Separator;
                }
            }
        }
    }

    /// A scalar inside a flow collection at `at`: its text, style and end.
    fn flow_scalar(&self, at: usize) -> Result<(Cow<'s, str>, Style, usize)> {
        match self.byte(at) {
            Some(quote @ (b'"' | b'\'')) => {
                let (text, end) = self.quoted(at, quote, None)?;
                Ok((text, Style::Quoted, end))
            }
            Some(byte)
                if !is_indicator(byte)
                    || (byte == b'-'
                        && !self.separated(at + 1)
                        && !matches!(
                            self.byte(at + 1),
                            Some(b',' | b'[' | b']' | b'{' | b'}')
                        )) =>
            {
                match self.plain_run(at, true)? {
                    (end, PlainEnd::Flow(_) | PlainEnd::Colon(_)) => {
                        Ok((Cow::Borrowed(self.slice(at, end)), Style::Plain, end))
                    }
                    _ => Err(Unsupported),
                }
            }
            _ => Err(Unsupported),
        }
    }
}

/// Opens a block collection, unless the nesting is deeper than the fast path goes.
fn push(frames: &mut Vec<Frame>, frame: Frame) -> Result<()> {
    if frames.len() >= MAX_NESTING {
        return Err(Unsupported);
    }
    frames.push(frame);
    Ok(())
}
