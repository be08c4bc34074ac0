//! The YAML path: a fast path for the block style that kubectl prints ([`fast`]), and
//! `granit-parser` (pure Rust, no_std) for everything else. Both feed the tree [`Reader`].
//!
//! Documents are what kubectl reads as documents: the text between lines that start with
//! `---` ([`parts`]), of which go-yaml decodes the first document only. A syntax error
//! stops only its own document: reading resumes at the next `---`, so the other documents
//! of a file are still evaluated.

mod fast;

use alloc::borrow::Cow;
use alloc::string::ToString;
use alloc::vec::Vec;

use granit_parser::{Event, Parser, ScalarStyle, ScanError, Span as ParserSpan, Tag};

use super::objects::Sink;
use super::scalar::{self, Plain};
use super::tree::{Events, Reader, Stop, Style};
use super::Limits;
use crate::diagnostic::Diagnostic;

/// Reads a YAML stream (`text`, at byte `base` of source `index`) into the sink.
///
/// The fast path reads it when it can; when it meets something it does not cover, what it
/// gave the sink is taken back and granit-parser reads the whole text instead.
pub(crate) fn read(index: u32, base: usize, text: &str, limits: &Limits, sink: &mut Sink) {
    let checkpoint = sink.checkpoint();
    if fast::read(text, &mut Reader::new(index, base, limits, sink)).is_ok() {
        return;
    }
    sink.rollback(checkpoint);
    read_with_granit(text, &mut Reader::new(index, base, limits, sink));
}

/// Reads a YAML stream with granit-parser, one document at a time, in the parts kubectl
/// reads one at a time ([`parts`]).
fn read_with_granit<'s>(text: &'s str, reader: &mut impl Events<'s>) {
    let mut parts = parts(text, reader);
    for (from, until) in segments(text, &parts) {
        read_segment(text, from, until, &mut parts, reader);
    }
}

/// The ranges of `text` to give granit-parser: every part but the refused ones, split
/// where a part starts with a byte order mark, which go-yaml skips at the start of what
/// it is given but granit-parser allows only at the start of a stream.
fn segments(text: &str, parts: &[Part]) -> Vec<(usize, usize)> {
    let mut segments = Vec::new();
    let mut from = Some(0);
    for (index, part) in parts.iter().enumerate() {
        let bom = index > 0
            && text
                .get(part.body..)
                .is_some_and(|rest| rest.starts_with('\u{feff}'));
        if part.refused || bom {
            if let Some(from) = from.take() {
                segments.push((from, part.at));
            }
        }
        if bom && !part.refused {
            from = Some(part.body + '\u{feff}'.len_utf8());
        } else if !part.refused && from.is_none() {
            from = Some(part.at);
        }
    }
    if let Some(from) = from {
        segments.push((from, text.len()));
    }
    segments
}

/// One part of a text as kubectl's `YAMLReader` cuts it (apimachinery `util/yaml`
/// `decoder.go`): at every line that starts with `---`, whatever YAML makes of it.
#[derive(Debug)]
struct Part {
    /// Where its `---` line starts (0 for the first part).
    at: usize,
    /// Where the text after that line starts.
    body: usize,
    /// kubectl fails on it: it is not read.
    refused: bool,
    /// A document of it was read; go-yaml decodes only the first.
    read: bool,
}

/// Cuts `text` into the parts kubectl decodes one at a time, reporting the lines it fails
/// on: a `---` line with more than a comment after it ("invalid Yaml document separator",
/// which YAML allows: `--- {a: 1}`, or a `---text` line in a quoted scalar), and a
/// directive, which in a part of its own has no `---` after it.
///
/// kubectl then applies nothing from the file; here, as for a syntax error, only the part
/// is refused and the others are still read. Lines end at `\n` only, as Go's
/// `bufio.Reader.ReadLine` reads them: a text with only `\r` breaks is one line.
fn parts<'s>(text: &'s str, reader: &mut impl Events<'s>) -> Vec<Part> {
    let mut parts = alloc::vec![Part {
        at: 0,
        body: 0,
        refused: false,
        read: false,
    }];
    let mut content = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let next = at + line.len();
        if let Some(rest) = line.strip_prefix("---") {
            let after = rest.trim();
            let refused = !after.is_empty() && !after.starts_with('#');
            if refused {
                let column = at + 3 + (rest.len() - rest.trim_start().len());
                let shown: alloc::string::String = after.chars().take(40).collect();
                let more = if shown.len() < after.len() { "…" } else { "" };
                reader.syntax_error(
                    Diagnostic::error(
                        "yaml/invalid-separator",
                        alloc::format!(
                            "invalid document separator: `---` followed by `{shown}{more}`"
                        ),
                    )
                    .with_help(
                        "kubectl splits a file at every line that starts with `---` and allows \
                         only a comment after it (invalid Yaml document separator); start the \
                         document on the next line",
                    ),
                    column,
                );
            }
            parts.push(Part {
                at,
                body: next,
                refused,
                read: false,
            });
            content = false;
        } else if !content {
            let trimmed = line.trim();
            if line.starts_with('%') {
                reader.syntax_error(
                    Diagnostic::error(
                        "yaml/directive",
                        alloc::format!("directive `{trimmed}` has no document"),
                    )
                    .with_help(
                        "kubectl reads the text between `---` lines on its own, so a directive \
                         never has the `---` it needs (did not find expected <document start>); \
                         remove it",
                    ),
                    at,
                );
                if let Some(part) = parts.last_mut() {
                    part.refused = true;
                }
            }
            content = !trimmed.is_empty() && !trimmed.starts_with('#');
        }
        at = next;
    }
    parts
}

/// Whether to read a document that starts at `at`: only the first of its part (with a
/// warning about the others).
fn admit<'s>(parts: &mut [Part], at: usize, reader: &mut impl Events<'s>) -> bool {
    let index = parts
        .partition_point(|part| part.at <= at)
        .saturating_sub(1);
    let Some(part) = parts.get_mut(index) else {
        return true;
    };
    if core::mem::replace(&mut part.read, true) {
        reader.syntax_error(
            Diagnostic::warning(
                "yaml/ignored-document",
                "this document is ignored: no `---` line separates it from the one before",
            )
            .with_help(
                "kubectl decodes only the first document between two lines that start with \
                 `---` (a `...` does not separate them); start this one with `---`",
            ),
            at,
        );
        return false;
    }
    true
}

/// Reads `text[from..until]` with granit-parser; offsets are kept within `text`.
fn read_segment<'s>(
    text: &'s str,
    from: usize,
    until: usize,
    parts: &mut [Part],
    reader: &mut impl Events<'s>,
) {
    let Some(segment) = text.get(from..until) else {
        return;
    };
    let mut parser = Parser::new_from_str(segment);
    let mut in_document = false;
    while let Some(next) = parser.next_event() {
        let (event, span) = match next {
            Ok(pair) => pair,
            Err(error) => {
                report(reader, &error, from);
                if in_document {
                    reader.end_document();
                    in_document = false;
                }
                match parser.proceed_next_document() {
                    Ok(true) => continue,
                    _ => break,
                }
            }
        };
        let start = from + offset(&span, true);
        let end = from + offset(&span, false);
        if !in_document && !matches!(event, Event::DocumentStart(..)) {
            continue;
        }
        let step = match event {
            Event::DocumentStart(..) => {
                if !admit(parts, start, reader) {
                    continue;
                }
                in_document = true;
                reader.begin_document(start)
            }
            Event::DocumentEnd => {
                in_document = false;
                reader.end_document();
                Ok(())
            }
            Event::Scalar(text, style, anchor, tag) => {
                let style = if style == ScalarStyle::Plain {
                    Style::Plain
                } else {
                    Style::Quoted
                };
                match tag {
                    None => reader.scalar(text, style, start, end, anchor),
                    Some(tag) => tagged(reader, text, &tag, (start, end), anchor),
                }
            }
            Event::MappingStart(_, anchor, _) => reader.open(true, start, anchor),
            Event::SequenceStart(_, anchor, _) => reader.open(false, start, anchor),
            Event::MappingEnd | Event::SequenceEnd => reader.close(end),
            Event::Alias(anchor) => reader.alias(anchor, start),
            _ => Ok(()),
        };
        if step.is_err() {
            // The reader reported why; skip the rest of this document.
            reader.end_document();
            in_document = false;
            match parser.proceed_next_document() {
                Ok(true) => continue,
                _ => break,
            }
        }
    }
    if in_document {
        reader.end_document();
    }
}

/// A scalar with an explicit tag, as go-yaml v2 resolves it (`resolve.go`): `!!str`, and
/// any tag outside the types go-yaml resolves (`!foo`, `!`), keep the text as a string
/// (`!!str 4` is "4"); `!!int`, `!!float`, `!!bool` and `!!null` read the text, quoted or
/// not, as an unquoted scalar of that type (`!!int "5"` is 5), and refuse the document
/// when it is another (`!!float` also takes an integer). `!!merge <<` is a merge key.
///
/// Not modelled: go-yaml checks `!!timestamp` text and decodes `!!binary` from base64;
/// here both are kept as written.
fn tagged<'s>(
    reader: &mut impl Events<'s>,
    text: Cow<'s, str>,
    tag: &Tag,
    (start, end): (usize, usize),
    anchor: usize,
) -> Result<(), Stop> {
    let name = tag.suffix_in_namespace("tag:yaml.org,2002:");
    if name.as_deref() == Some("merge") && text == "<<" {
        // go-yaml merges at a `<<` key that is plain or tagged `!!merge` (`isMerge` in
        // decode.go), quoted or not.
        return reader.scalar(text, Style::Plain, start, end, anchor);
    }
    let Some(name @ ("int" | "float" | "bool" | "null")) = name.as_deref() else {
        return reader.scalar(text, Style::Quoted, start, end, anchor);
    };
    let found = match scalar::resolve(&text) {
        Plain::Int(value) if name == "float" && i64::try_from(value).is_ok() => "float",
        Plain::Int(_) => "int",
        Plain::Float(_) => "float",
        Plain::Bool(_) => "bool",
        Plain::Null => "null",
        Plain::Str => "str",
    };
    if found == name {
        return reader.scalar(text, Style::Plain, start, end, anchor);
    }
    reader.fail(
        Diagnostic::error(
            "yaml/tag-mismatch",
            alloc::format!("cannot decode !!{found} `{text}` as a !!{name}"),
        )
        .with_help("kubectl refuses a document whose tag does not fit the value"),
        start,
    )
}

fn offset(span: &ParserSpan, start: bool) -> usize {
    let marker = if start { span.start } else { span.end };
    marker.byte_offset().unwrap_or_else(|| marker.index())
}

/// Turns a parser error into a diagnostic with kubefit's wording for the common cases.
fn report<'s>(reader: &mut impl Events<'s>, error: &ScanError, from: usize) {
    let marker = error.marker();
    let at = from + marker.byte_offset().unwrap_or_else(|| marker.index());
    let raw = error.info().to_string();
    let (code, message, help) = if raw.contains("tab") {
        (
            "yaml/tab-indent",
            "tabs are not allowed for indentation".to_string(),
            Some("indent with spaces"),
        )
    } else if raw.contains("recursion limit") || raw.contains("nesting") {
        ("input/too-deep", "nesting is too deep".to_string(), None)
    } else if raw.contains("unknown anchor") {
        (
            "yaml/unknown-anchor",
            "alias refers to an unknown anchor".to_string(),
            None,
        )
    } else {
        ("yaml/syntax", raw, None)
    };
    let mut diagnostic = Diagnostic::error(code, message);
    if let Some(help) = help {
        diagnostic = diagnostic.with_help(help);
    }
    reader.syntax_error(diagnostic, at);
}

/// Test support: reads `text` with the fast path and with granit-parser and compares their
/// events. `Ok(true)`: the fast path read the text, exactly as granit-parser does;
/// `Ok(false)`: the fast path left it to granit-parser; `Err`: the first difference.
#[doc(hidden)]
pub fn compare_readers(text: &str) -> Result<bool, alloc::string::String> {
    let mut fast = Recorder::default();
    if fast::read(text, &mut fast).is_err() {
        return Ok(false);
    }
    let mut granit = Recorder::default();
    read_with_granit(text, &mut granit);
    if fast.0 == granit.0 {
        return Ok(true);
    }
    let at = fast
        .0
        .iter()
        .zip(&granit.0)
        .take_while(|(a, b)| a == b)
        .count();
    let around = |events: &[Recorded]| {
        events
            .get(at.saturating_sub(3)..(at + 3).min(events.len()))
            .map(|events| alloc::format!("{events:?}"))
            .unwrap_or_default()
    };
    Err(alloc::format!(
        "event {at} differs\n  fast path: {}\n  granit:    {}",
        around(&fast.0),
        around(&granit.0)
    ))
}

/// One event as [`Recorder`] keeps it.
#[derive(Debug, PartialEq)]
enum Recorded {
    Begin(usize),
    End,
    Scalar(alloc::string::String, Style, usize, usize),
    Open(bool, usize),
    Close(usize),
    Alias(usize, usize),
    Error(&'static str, alloc::string::String, usize),
}

/// Keeps every event, to compare two readers.
#[derive(Debug, Default)]
struct Recorder(alloc::vec::Vec<Recorded>);

impl<'s> Events<'s> for Recorder {
    fn begin_document(&mut self, at: usize) -> Result<(), super::tree::Stop> {
        self.0.push(Recorded::Begin(at));
        Ok(())
    }

    fn end_document(&mut self) {
        self.0.push(Recorded::End);
    }

    fn scalar(
        &mut self,
        text: alloc::borrow::Cow<'s, str>,
        style: Style,
        start: usize,
        end: usize,
        _anchor: usize,
    ) -> Result<(), super::tree::Stop> {
        self.0
            .push(Recorded::Scalar(text.into_owned(), style, start, end));
        Ok(())
    }

    fn open(
        &mut self,
        is_map: bool,
        start: usize,
        _anchor: usize,
    ) -> Result<(), super::tree::Stop> {
        self.0.push(Recorded::Open(is_map, start));
        Ok(())
    }

    fn close(&mut self, end: usize) -> Result<(), super::tree::Stop> {
        self.0.push(Recorded::Close(end));
        Ok(())
    }

    fn alias(&mut self, anchor: usize, start: usize) -> Result<(), super::tree::Stop> {
        self.0.push(Recorded::Alias(anchor, start));
        Ok(())
    }

    fn syntax_error(&mut self, diagnostic: Diagnostic, at: usize) {
        self.0
            .push(Recorded::Error(diagnostic.code, diagnostic.message, at));
    }

    fn fail(&mut self, diagnostic: Diagnostic, at: usize) -> Result<(), Stop> {
        self.syntax_error(diagnostic, at);
        Err(Stop)
    }
}

#[cfg(test)]
mod tests;
