//! What `evaluate` reads: the input types as JavaScript sees them, and their Rust form.

use serde::Serialize;
use tsify::Tsify;

/// The input of `evaluate`: one text, or several.
///
/// A text is a string or the bytes of a UTF-8 file (a `Uint8Array`, such as a Node
/// `Buffer`). Bytes are read as they are; a string with an unpaired UTF-16 surrogate is
/// reported as `input/lone-surrogate` instead of being silently repaired.
///
/// Only declared for TypeScript: `crate::js` reads the JavaScript value by hand, because
/// serde would recurse into cyclic objects and could not report surrogates.
#[derive(Serialize, Tsify)]
#[serde(untagged)]
pub enum Input {
    /// One text, named `input` in diagnostics.
    Text(SourceText),
    /// Several texts, read in order as if concatenated with `---`.
    Many(Vec<SourceInput>),
}

/// One text: a string, or UTF-8 bytes.
#[derive(Serialize, Tsify)]
#[serde(untagged)]
pub enum SourceText {
    /// A string.
    String(String),
    /// UTF-8 bytes.
    Bytes(#[tsify(type = "Uint8Array")] Vec<u8>),
}

/// One item of an input array.
#[derive(Serialize, Tsify)]
#[serde(untagged)]
pub enum SourceInput {
    /// A text, named `input[i]` in diagnostics.
    Text(SourceText),
    /// A text with a name for diagnostics, such as its file name.
    Named(NamedSource),
}

/// A text with a name.
#[derive(Serialize, Tsify)]
pub struct NamedSource {
    /// Shown in diagnostics (`source`); `input[i]` when left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tsify(optional)]
    pub name: Option<String>,
    /// The text.
    pub text: SourceText,
}

/// One source read from JavaScript, owned so that [`kubefit_core::Source`] can borrow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedSource {
    /// The name for diagnostics.
    pub name: String,
    /// The UTF-8 text (or bytes that core reports as not UTF-8).
    pub bytes: Vec<u8>,
}

impl OwnedSource {
    /// The core view of this source.
    #[must_use]
    pub fn source(&self) -> kubefit_core::Source<'_> {
        kubefit_core::Source::new(&self.name, &self.bytes)
    }
}

/// Where an unpaired surrogate sits in a UTF-16 string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoneSurrogate {
    /// The surrogate code unit.
    pub unit: u16,
    /// Offset in UTF-16 code units.
    pub offset: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters (code points).
    pub column: u32,
}

/// Finds the first unpaired surrogate in a string's UTF-16 code units, if any.
pub fn find_lone_surrogate(units: impl IntoIterator<Item = u16>) -> Option<LoneSurrogate> {
    let (mut offset, mut line, mut column) = (0u32, 1u32, 1u32);
    for decoded in char::decode_utf16(units) {
        match decoded {
            Ok(ch) => {
                offset = offset.saturating_add(u32::try_from(ch.len_utf16()).unwrap_or(2));
                if ch == '\n' {
                    line = line.saturating_add(1);
                    column = 1;
                } else {
                    column = column.saturating_add(1);
                }
            }
            Err(error) => {
                return Some(LoneSurrogate {
                    unit: error.unpaired_surrogate(),
                    offset,
                    line,
                    column,
                })
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn well_formed_strings_have_none() {
        assert_eq!(find_lone_surrogate(units("a: 1\nb: 😀\n")), None);
        assert_eq!(find_lone_surrogate([]), None);
    }

    #[test]
    fn finds_a_lone_high_surrogate_with_its_place() {
        let mut text = units("a: 😀\nb: ");
        text.push(0xD800);
        text.extend(units("x"));
        let found = find_lone_surrogate(text).unwrap();
        assert_eq!(found.unit, 0xD800);
        // "a: " 3 + emoji 2 + "\n" 1 + "b: " 3.
        assert_eq!(found.offset, 9);
        assert_eq!((found.line, found.column), (2, 4));
    }

    #[test]
    fn finds_a_lone_low_surrogate() {
        let found = find_lone_surrogate([0x61, 0xDC00]).unwrap();
        assert_eq!(
            (found.unit, found.offset, found.line, found.column),
            (0xDC00, 1, 1, 2)
        );
    }
}
