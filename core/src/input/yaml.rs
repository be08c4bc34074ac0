//! The YAML path: a fast path for the block style that kubectl prints ([`fast`]), and
//! `granit-parser` (pure Rust, no_std) for everything else. Both feed the tree [`Reader`].
//!
//! A syntax error stops only its own document: reading resumes at the next `---`, so the
//! other documents of a file are still evaluated.

mod fast;

use alloc::borrow::Cow;
use alloc::string::ToString;

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

/// Reads a YAML stream with granit-parser, one document at a time.
fn read_with_granit<'s>(text: &'s str, reader: &mut impl Events<'s>) {
    let mut parser = Parser::new_from_str(text);
    let mut in_document = false;
    while let Some(next) = parser.next_event() {
        let (event, span) = match next {
            Ok(pair) => pair,
            Err(error) => {
                report(reader, &error);
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
        let start = offset(&span, true);
        let end = offset(&span, false);
        if !in_document
            && !matches!(
                event,
                Event::DocumentStart(..) | Event::StreamStart | Event::StreamEnd
            )
        {
            continue;
        }
        let step = match event {
            Event::DocumentStart(..) => {
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
fn report<'s>(reader: &mut impl Events<'s>, error: &ScanError) {
    let marker = error.marker();
    let at = marker.byte_offset().unwrap_or_else(|| marker.index());
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
