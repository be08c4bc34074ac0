//! The JSON fast path: a byte-level JSON reader that feeds the tree [`Reader`].
//!
//! Hand-written because kubefit needs what `serde_json` does not offer: the byte span of
//! every value (for diagnostics), the items of a 300 MB `List` released one at a time
//! (memory), and per-object error isolation. The grammar is RFC 8259; several values in a
//! row (a JSON stream) are read as several documents. Strings without escapes are borrowed.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::tree::{Reader, Stop, Style};

/// A JSON syntax error: what was wrong and the byte offset where it was found.
#[derive(Debug)]
pub(crate) struct SyntaxError {
    pub message: String,
    pub at: usize,
}

/// Reads a JSON text into the reader, one document per top-level value.
///
/// Returns the syntax error if the text is not JSON; errors the reader itself reports
/// (depth, duplicate keys, invalid objects) are already in the sink and are not returned.
pub(crate) fn read<'s>(text: &'s str, reader: &mut Reader<'s, '_>) -> Result<(), SyntaxError> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    loop {
        parser.skip_space();
        if parser.at >= parser.bytes.len() {
            return Ok(());
        }
        if reader.begin_document(parser.at).is_err() {
            reader.end_document();
            return Ok(());
        }
        let start = parser.at;
        let result = parser.document(reader);
        if matches!(result, Err(Failure::Syntax(_))) {
            reader.abandon();
        }
        reader.end_document();
        match result {
            Ok(()) => {}
            Err(Failure::Syntax(error)) => return Err(error),
            // The reader refused the document (and reported why), but the text may still
            // be JSON: find where the document ends and go on with the next one, as a
            // JSON stream decoder reads past a value it could not use.
            Err(Failure::Stopped) => {
                parser.at = start;
                if let Err(Failure::Syntax(error)) = parser.document(&mut Skip) {
                    return Err(error);
                }
            }
        }
    }
}

/// One step of a JSON text read whole: a scalar (an object key is a quoted scalar before
/// its value), the start of an object or array, or the end of the innermost one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Event<'s> {
    Scalar(Cow<'s, str>, Style),
    Open { is_map: bool },
    Close,
}

/// The events of a text that holds exactly one JSON value (blanks around it allowed), as
/// Go's `json.Unmarshal` requires; `None` when it is not JSON.
///
/// For the small JSON texts inside annotations, which the engine decodes as Go decodes
/// them; a flat list, so no nesting depth makes a caller recurse.
pub(crate) fn events(text: &str) -> Option<Vec<Event<'_>>> {
    let mut events = Vec::new();
    whole(text, &mut events).ok()?;
    Some(events)
}

/// Parses a text that holds exactly one JSON value, blanks around it allowed.
fn whole<'s>(text: &'s str, target: &mut impl Target<'s>) -> Result<(), Failure> {
    let mut parser = Parser {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    parser.skip_space();
    parser.document(target)?;
    parser.skip_space();
    if parser.peek().is_some() {
        return parser.error("expected the end of the text after the value");
    }
    Ok(())
}

impl<'s> Target<'s> for Vec<Event<'s>> {
    fn scalar(&mut self, text: Cow<'s, str>, style: Style, _: usize, _: usize) -> Result<(), Stop> {
        self.push(Event::Scalar(text, style));
        Ok(())
    }

    fn open(&mut self, is_map: bool, _: usize) -> Result<(), Stop> {
        self.push(Event::Open { is_map });
        Ok(())
    }

    fn close(&mut self, _: usize) -> Result<(), Stop> {
        self.push(Event::Close);
        Ok(())
    }
}

/// What the parser hands each value to: the tree [`Reader`], or [`Skip`].
trait Target<'s> {
    fn scalar(
        &mut self,
        text: Cow<'s, str>,
        style: Style,
        start: usize,
        end: usize,
    ) -> Result<(), Stop>;
    fn open(&mut self, is_map: bool, start: usize) -> Result<(), Stop>;
    fn close(&mut self, end: usize) -> Result<(), Stop>;
}

impl<'s> Target<'s> for Reader<'s, '_> {
    #[inline]
    fn scalar(
        &mut self,
        text: Cow<'s, str>,
        style: Style,
        start: usize,
        end: usize,
    ) -> Result<(), Stop> {
        Reader::scalar(self, text, style, start, end, 0)
    }

    #[inline]
    fn open(&mut self, is_map: bool, start: usize) -> Result<(), Stop> {
        Reader::open(self, is_map, start, 0)
    }

    #[inline]
    fn close(&mut self, end: usize) -> Result<(), Stop> {
        Reader::close(self, end)
    }
}

/// Reads past a document the reader refused, checking only that it is JSON.
struct Skip;

impl<'s> Target<'s> for Skip {
    fn scalar(&mut self, _: Cow<'s, str>, _: Style, _: usize, _: usize) -> Result<(), Stop> {
        Ok(())
    }

    fn open(&mut self, _: bool, _: usize) -> Result<(), Stop> {
        Ok(())
    }

    fn close(&mut self, _: usize) -> Result<(), Stop> {
        Ok(())
    }
}

/// Reads a text that holds exactly one JSON value (blanks around it allowed) into the
/// reader's current document, which stays open for [`Reader::finished`]. A refusal of the
/// reader (too deep, a repeated key) is in its sink, not in the result.
pub(crate) fn read_value<'s>(
    text: &'s str,
    reader: &mut Reader<'s, '_>,
) -> Result<(), SyntaxError> {
    match whole(text, reader) {
        Err(Failure::Syntax(error)) => Err(error),
        Ok(()) | Err(Failure::Stopped) => Ok(()),
    }
}

enum Failure {
    Syntax(SyntaxError),
    Stopped,
}

impl From<Stop> for Failure {
    fn from(_: Stop) -> Self {
        Self::Stopped
    }
}

struct Parser<'s> {
    text: &'s str,
    bytes: &'s [u8],
    at: usize,
}

/// What the parser expects next inside a container.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Object,
    Array,
}

impl<'s> Parser<'s> {
    fn error<T>(&self, message: &str) -> Result<T, Failure> {
        let found = match self
            .text
            .get(self.at..)
            .and_then(|rest| rest.chars().next())
        {
            Some(c) => alloc::format!("{message}, found `{}`", c.escape_default()),
            None => alloc::format!("{message}, found the end of the input"),
        };
        Err(Failure::Syntax(SyntaxError {
            message: found,
            at: self.at,
        }))
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Reads one complete top-level value without recursion.
    fn document(&mut self, reader: &mut impl Target<'s>) -> Result<(), Failure> {
        let mut open: Vec<Open> = Vec::new();
        // True right after `[` or `{`, where the container may close at once.
        let mut first = false;
        loop {
            self.skip_space();
            let container = open.last().copied();
            let closing = match container {
                Some(Open::Object) => Some(b'}'),
                Some(Open::Array) => Some(b']'),
                None => None,
            };
            if first && closing.is_some() && self.peek() == closing {
                // An empty object or array.
                self.at += 1;
                reader.close(self.at)?;
                open.pop();
                first = false;
                if self.after_value(&mut open, reader)? {
                    return Ok(());
                }
                continue;
            }
            if container == Some(Open::Object) {
                if self.peek() != Some(b'"') {
                    return self.error("expected a string key");
                }
                let start = self.at;
                let key = self.string()?;
                reader.scalar(key, Style::Quoted, start, self.at)?;
                self.skip_space();
                if self.peek() != Some(b':') {
                    return self.error("expected `:` after an object key");
                }
                self.at += 1;
                self.skip_space();
            }
            first = false;
            let start = self.at;
            match self.peek() {
                Some(b'{') => {
                    self.at += 1;
                    reader.open(true, start)?;
                    open.push(Open::Object);
                    first = true;
                    continue;
                }
                Some(b'[') => {
                    self.at += 1;
                    reader.open(false, start)?;
                    open.push(Open::Array);
                    first = true;
                    continue;
                }
                Some(b'"') => {
                    let text = self.string()?;
                    reader.scalar(text, Style::Quoted, start, self.at)?;
                }
                Some(b't') => self.literal("true", reader)?,
                Some(b'f') => self.literal("false", reader)?,
                Some(b'n') => self.literal("null", reader)?,
                Some(b'-' | b'0'..=b'9') => {
                    self.number()?;
                    let text = self.text.get(start..self.at).unwrap_or("");
                    reader.scalar(Cow::Borrowed(text), Style::Plain, start, self.at)?;
                }
                _ => return self.error("expected a JSON value"),
            }
            if self.after_value(&mut open, reader)? {
                return Ok(());
            }
        }
    }

    /// After a value: a comma, or the end of one or more containers. True when the
    /// top-level value is complete.
    fn after_value(
        &mut self,
        open: &mut Vec<Open>,
        reader: &mut impl Target<'s>,
    ) -> Result<bool, Failure> {
        loop {
            let Some(&container) = open.last() else {
                return Ok(true);
            };
            self.skip_space();
            let close = if container == Open::Object {
                b'}'
            } else {
                b']'
            };
            match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    return Ok(false);
                }
                Some(b) if b == close => {
                    self.at += 1;
                    reader.close(self.at)?;
                    open.pop();
                }
                _ if container == Open::Object => {
                    return self.error("expected `,` or `}` in an object")
                }
                _ => return self.error("expected `,` or `]` in an array"),
            }
        }
    }

    fn literal(&mut self, word: &'static str, reader: &mut impl Target<'s>) -> Result<(), Failure> {
        let start = self.at;
        if self.bytes.get(start..start + word.len()) != Some(word.as_bytes()) {
            return self.error("expected a JSON value");
        }
        self.at += word.len();
        reader.scalar(Cow::Borrowed(word), Style::Plain, start, self.at)?;
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        self.at - start
    }

    fn number(&mut self) -> Result<(), Failure> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return self.error("expected a digit"),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if self.digits() == 0 {
                return self.error("expected a digit after `.`");
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if self.digits() == 0 {
                return self.error("expected a digit in the exponent");
            }
        }
        Ok(())
    }

    /// Reads a string starting at `"`; borrows it when it has no escapes.
    fn string(&mut self) -> Result<Cow<'s, str>, Failure> {
        self.at += 1;
        let start = self.at;
        loop {
            match self.peek() {
                Some(b'"') => {
                    let text = self.text.get(start..self.at).unwrap_or("");
                    self.at += 1;
                    return Ok(Cow::Borrowed(text));
                }
                Some(b'\\') => break,
                Some(0..=0x1f) => {
                    return self.error("control characters must be escaped in a string")
                }
                Some(_) => self.at += 1,
                None => return self.error("unterminated string"),
            }
        }
        let mut owned = String::from(self.text.get(start..self.at).unwrap_or(""));
        loop {
            let run = self.at;
            while let Some(b) = self.peek() {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.at += 1;
            }
            owned.push_str(self.text.get(run..self.at).unwrap_or(""));
            match self.peek() {
                Some(b'"') => {
                    self.at += 1;
                    return Ok(Cow::Owned(owned));
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = self.peek();
                    self.at += 1;
                    match escaped {
                        Some(b'"') => owned.push('"'),
                        Some(b'\\') => owned.push('\\'),
                        Some(b'/') => owned.push('/'),
                        Some(b'b') => owned.push('\u{8}'),
                        Some(b'f') => owned.push('\u{c}'),
                        Some(b'n') => owned.push('\n'),
                        Some(b'r') => owned.push('\r'),
                        Some(b't') => owned.push('\t'),
                        Some(b'u') => owned.push(self.unicode_escape()?),
                        _ => {
                            self.at -= 1;
                            return self.error("invalid escape in a string");
                        }
                    }
                }
                Some(0..=0x1f) => {
                    return self.error("control characters must be escaped in a string")
                }
                _ => return self.error("unterminated string"),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, Failure> {
        let digits = self.text.get(self.at..self.at + 4);
        match digits.and_then(|d| u32::from_str_radix(d, 16).ok()) {
            Some(value) if digits.is_some_and(|d| d.bytes().all(|b| b.is_ascii_hexdigit())) => {
                self.at += 4;
                Ok(value)
            }
            _ => self.error("expected four hex digits after `\\u`"),
        }
    }

    /// A `\uXXXX` escape, joining surrogate pairs; a lone surrogate becomes U+FFFD, as Go does.
    fn unicode_escape(&mut self) -> Result<char, Failure> {
        let high = self.hex4()?;
        if (0xD800..0xDC00).contains(&high) && self.bytes.get(self.at..self.at + 2) == Some(b"\\u")
        {
            let save = self.at;
            self.at += 2;
            let low = self.hex4()?;
            if (0xDC00..0xE000).contains(&low) {
                let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                return Ok(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            self.at = save;
        }
        Ok(char::from_u32(high).unwrap_or('\u{fffd}'))
    }
}
