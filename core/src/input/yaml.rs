//! The YAML path: events from `granit-parser` (pure Rust, no_std) feed the tree [`Reader`].
//!
//! A syntax error stops only its own document: reading resumes at the next `---`, so the
//! other documents of a file are still evaluated.

use alloc::string::ToString;

use granit_parser::{Event, Parser, ScalarStyle, ScanError, Span as ParserSpan};

use super::tree::{Reader, Style};
use crate::diagnostic::Diagnostic;

/// Reads a YAML stream into the reader, one document at a time.
pub(crate) fn read<'s>(text: &'s str, reader: &mut Reader<'s, '_>) {
    let mut parser = Parser::new_from_str(text);
    let mut in_document = false;
    while let Some(next) = parser.next_event() {
        let (event, span) = match next {
            Ok(pair) => pair,
            Err(error) => {
                report(reader, &error, text);
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
            Event::Scalar(text, style, anchor, _tag) => {
                let style = if style == ScalarStyle::Plain {
                    Style::Plain
                } else {
                    Style::Quoted
                };
                reader.scalar(text, style, start, end, anchor)
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

fn offset(span: &ParserSpan, start: bool) -> usize {
    let marker = if start { span.start } else { span.end };
    marker.byte_offset().unwrap_or_else(|| marker.index())
}

/// Turns a parser error into a diagnostic with kubefit's wording for the common cases.
fn report(reader: &mut Reader<'_, '_>, error: &ScanError, text: &str) {
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
    let _ = text;
    let mut diagnostic = Diagnostic::error(code, message);
    if let Some(help) = help {
        diagnostic = diagnostic.with_help(help);
    }
    let span = reader.span(at, at);
    reader.sink.diagnostic(diagnostic.with_span(span));
}
