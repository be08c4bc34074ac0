//! Turning byte spans into what people and editors use: line, column and UTF-16 offset.
//!
//! Done once at the end, in one pass per source over the sorted positions, so that
//! thousands of diagnostics in a 300 MB input cost one scan, not thousands.

use alloc::vec::Vec;

use super::{Source, Span};
use crate::diagnostic::Diagnostic;

/// A resolved position: 1-based line and column (in characters), 0-based UTF-16 offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Position {
    line: u32,
    column: u32,
    utf16: u32,
}

/// Fills in `source`, `line`, `column` and `offset` of every diagnostic that has a span.
pub fn resolve(diagnostics: &mut [Diagnostic], sources: &[Source<'_>]) {
    for (index, source) in sources.iter().enumerate() {
        let mut wanted: Vec<(u32, usize)> = diagnostics
            .iter()
            .enumerate()
            .filter_map(|(at, diagnostic)| {
                let span = diagnostic.span?;
                (span.source as usize == index).then_some((span.start, at))
            })
            .collect();
        if wanted.is_empty() {
            continue;
        }
        wanted.sort_unstable();
        let offsets: Vec<u32> = wanted.iter().map(|(offset, _)| *offset).collect();
        let positions = positions(source.bytes, &offsets);
        for ((_, at), position) in wanted.iter().zip(positions) {
            if let Some(diagnostic) = diagnostics.get_mut(*at) {
                diagnostic.source = Some(source.name.into());
                diagnostic.line = Some(position.line);
                diagnostic.column = Some(position.column);
                diagnostic.offset = Some(position.utf16);
            }
        }
    }
}

/// The 1-based line and column of a span's start.
#[must_use]
pub fn line_column(sources: &[Source<'_>], span: Span) -> (u32, u32) {
    let bytes = sources
        .get(span.source as usize)
        .map_or(&[][..], |source| source.bytes);
    positions(bytes, &[span.start])
        .first()
        .map_or((1, 1), |position| (position.line, position.column))
}

/// Positions of sorted byte offsets (each at a character boundary), in one scan.
fn positions(bytes: &[u8], sorted_offsets: &[u32]) -> Vec<Position> {
    let mut result = Vec::with_capacity(sorted_offsets.len());
    let mut current = Position {
        line: 1,
        column: 1,
        utf16: 0,
    };
    let mut at: usize = 0;
    for &target in sorted_offsets {
        let target = (target as usize).min(bytes.len());
        while at < target {
            let byte = bytes.get(at).copied().unwrap_or(0);
            at += 1;
            match byte {
                b'\n' => {
                    current.line = current.line.saturating_add(1);
                    current.column = 1;
                    current.utf16 = current.utf16.saturating_add(1);
                }
                // Continuation bytes belong to the character already counted.
                0x80..=0xBF => {}
                _ => {
                    current.column = current.column.saturating_add(1);
                    // Characters of four bytes are two UTF-16 units.
                    let units = if byte >= 0xF0 { 2 } else { 1 };
                    current.utf16 = current.utf16.saturating_add(units);
                }
            }
        }
        result.push(current);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_characters_and_utf16_units() {
        let text = "a: 1\r\nb: \u{1F600}x\nc: é";
        let offsets = [0, 6, 13, 14, 18];
        let got = positions(text.as_bytes(), &offsets);
        assert_eq!(
            got[0],
            Position {
                line: 1,
                column: 1,
                utf16: 0
            }
        );
        assert_eq!(
            got[1],
            Position {
                line: 2,
                column: 1,
                utf16: 6
            }
        );
        // After the emoji (4 bytes, one character, two UTF-16 units).
        assert_eq!(
            got[2],
            Position {
                line: 2,
                column: 5,
                utf16: 11
            }
        );
        assert_eq!(
            got[3],
            Position {
                line: 2,
                column: 6,
                utf16: 12
            }
        );
        assert_eq!(
            got[4],
            Position {
                line: 3,
                column: 4,
                utf16: 16
            }
        );
    }
}
