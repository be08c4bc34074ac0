//! Line geometry of the editor: how many lines and columns the text has, and where the
//! diagnostics' markers go.
//!
//! The editor is a plain text area over a layer that repeats, in transparent text, only
//! what precedes each marked token; the same font then puts every underline exactly under
//! its token, tabs and wide characters included, without measuring anything.

use crate::view::Problem;

/// A marked token: where a diagnostic points, to the end of the token there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// 1-based line.
    pub line: usize,
    /// The text before the token on that line.
    pub before: String,
    /// The token (a space when the diagnostic points past the end of the line).
    pub token: String,
    /// An error rather than a warning.
    pub error: bool,
    /// The messages of every diagnostic at this place, one per line.
    pub message: String,
}

/// The number of lines and the width in characters of the longest line.
#[must_use]
pub fn measure(text: &str) -> (usize, usize) {
    let mut lines = 0;
    let mut widest = 0;
    for line in text.split('\n') {
        lines += 1;
        widest = widest.max(line.chars().count());
    }
    (lines, widest)
}

/// The marks the problems in one document put on its text, by line then column; problems
/// without a line, or beyond the text, mark nothing. One mark per line: the first problem
/// on a line places it, and the line's messages are gathered on it.
#[must_use]
pub fn marks<'a>(text: &str, problems: impl IntoIterator<Item = &'a Problem>) -> Vec<Mark> {
    let mut located: Vec<(usize, usize, &Problem)> = problems
        .into_iter()
        .filter_map(|problem| {
            let line = usize::try_from(problem.line?).ok()?;
            let column = usize::try_from(problem.column.unwrap_or(1)).ok()?;
            Some((line, column, problem))
        })
        .collect();
    located.sort_by_key(|&(line, column, problem)| (line, column, !problem.error));
    let lines: Vec<&str> = text.split('\n').collect();
    let mut marks: Vec<Mark> = Vec::new();
    for (line, column, problem) in located {
        if let Some(last) = marks.last_mut().filter(|mark| mark.line == line) {
            last.error |= problem.error;
            last.message.push('\n');
            last.message.push_str(&problem.message);
            continue;
        }
        let Some(content) = line.checked_sub(1).and_then(|index| lines.get(index)) else {
            continue;
        };
        let content = content.strip_suffix('\r').unwrap_or(content);
        let before: String = content.chars().take(column.saturating_sub(1)).collect();
        let token = token_at(content, column);
        marks.push(Mark {
            line,
            before,
            token: if token.is_empty() { " ".into() } else { token },
            error: problem.error,
            message: problem.message.clone(),
        });
    }
    marks
}

/// The token that starts at a 1-based column: up to whitespace, a YAML flow indicator
/// (`,[]{}`) or a `: ` that ends a key, but at least one character.
fn token_at(line: &str, column: usize) -> String {
    let rest: Vec<char> = line.chars().skip(column.saturating_sub(1)).collect();
    let mut end = 0;
    while let Some(&c) = rest.get(end) {
        let ends_key = c == ':' && rest.get(end + 1).is_none_or(|next| next.is_whitespace());
        if end > 0 && (c.is_whitespace() || ",[]{}".contains(c) || ends_key) {
            break;
        }
        end += 1;
        if c.is_whitespace() {
            break;
        }
    }
    rest[..end].iter().collect()
}

/// A run of the gutter: plain line numbers, or one marked line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GutterRun {
    /// Line numbers, one per line, each followed by a newline.
    Plain(String),
    /// A line with a mark.
    Marked(usize, bool, String),
}

/// The gutter for `lines` lines: a few text runs rather than one element per line, so a
/// long document stays cheap to render.
#[must_use]
pub fn gutter(lines: usize, marks: &[Mark]) -> Vec<GutterRun> {
    let mut runs = Vec::with_capacity(marks.len() * 2 + 1);
    let mut next = 1;
    for mark in marks.iter().filter(|mark| mark.line <= lines) {
        if mark.line > next {
            runs.push(GutterRun::Plain(numbers(next, mark.line)));
        }
        runs.push(GutterRun::Marked(
            mark.line,
            mark.error,
            mark.message.clone(),
        ));
        next = mark.line + 1;
    }
    if next <= lines {
        runs.push(GutterRun::Plain(numbers(next, lines + 1)));
    }
    runs
}

fn numbers(from: usize, to: usize) -> String {
    let mut out = String::with_capacity((to - from) * 6);
    for line in from..to {
        out.push_str(&line.to_string());
        out.push('\n');
    }
    out
}

/// A run of the underline layer: transparent text, or a marked token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Underlay {
    /// Text that only takes up room (newlines, and what precedes a token).
    Space(String),
    /// A marked token, error or warning.
    Token(String, bool),
}

/// The underline layer: newlines up to each marked line, the text before the token, the
/// token.
#[must_use]
pub fn underlay(marks: &[Mark]) -> Vec<Underlay> {
    let mut runs = Vec::with_capacity(marks.len() * 2);
    let mut line = 1;
    for mark in marks {
        let mut space = "\n".repeat(mark.line - line);
        space.push_str(&mark.before);
        runs.push(Underlay::Space(space));
        runs.push(Underlay::Token(mark.token.clone(), mark.error));
        line = mark.line;
    }
    runs
}

/// The UTF-16 offset of a 1-based line and column, as a text area's selection counts:
/// for diagnostics that carry no offset.
#[must_use]
pub fn utf16_offset(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (index, content) in text.split('\n').enumerate() {
        if index + 1 == line {
            return offset
                + content
                    .chars()
                    .take(column.saturating_sub(1))
                    .map(char::len_utf16)
                    .sum::<usize>();
        }
        offset += content.encode_utf16().count() + 1;
    }
    text.encode_utf16().count()
}

/// The 1-based line and column (in characters) and the UTF-16 offset of a byte offset
/// (moved back to a character boundary, and to the end of the text at most).
#[must_use]
pub fn position(text: &str, byte: usize) -> (usize, usize, usize) {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    let before = &text[..byte];
    let line_start = before.rfind('\n').map_or(0, |at| at + 1);
    let line = before.matches('\n').count() + 1;
    let column = before[line_start..].chars().count() + 1;
    (line, column, utf16_offset(text, line, column))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(line: u32, column: u32, error: bool, message: &str) -> Problem {
        Problem {
            error,
            line: Some(line),
            column: Some(column),
            message: message.into(),
            ..Problem::default()
        }
    }

    #[test]
    fn measure_counts_lines_and_the_widest_in_characters() {
        assert_eq!(measure(""), (1, 0));
        assert_eq!(measure("a\nbcd\n"), (3, 3));
        assert_eq!(measure("ünï\n"), (2, 3));
    }

    #[test]
    fn a_mark_underlines_the_token_at_the_column() {
        let text = "kind: Pod\nspec:\n  replicas: many # comment\n";
        let marks = marks(text, &[problem(3, 13, true, "not a number")]);
        assert_eq!(
            marks,
            [Mark {
                line: 3,
                before: "  replicas: ".into(),
                token: "many".into(),
                error: true,
                message: "not a number".into(),
            }]
        );
        assert_eq!(
            underlay(&marks),
            [
                Underlay::Space("\n\n  replicas: ".into()),
                Underlay::Token("many".into(), true)
            ]
        );
    }

    #[test]
    fn problems_on_one_line_share_a_mark_and_errors_win() {
        let text = "a: 1\nb: [\n";
        let problems = [
            problem(2, 4, false, "second"),
            problem(2, 1, false, "first"),
            problem(2, 4, true, "third"),
            problem(9, 1, true, "beyond the text"),
        ];
        let marks = marks(text, &problems);
        assert_eq!(marks.len(), 1);
        assert_eq!(marks[0].token, "b");
        assert!(marks[0].error);
        assert_eq!(marks[0].message, "first\nthird\nsecond");
    }

    #[test]
    fn tokens_end_at_flow_indicators_and_keys() {
        assert_eq!(token_at("  cpu: lots}}", 8), "lots");
        assert_eq!(token_at("  - {name: c, cpu: x}", 5), "{name");
        assert_eq!(token_at("  replicas: [1, 2]", 3), "replicas");
        assert_eq!(token_at("  url: http://x:80", 8), "http://x:80");
        assert_eq!(token_at("key:", 1), "key");
        assert_eq!(token_at("a  b", 2), " ");
        assert_eq!(token_at("short", 9), "");
    }

    #[test]
    fn a_mark_past_the_end_of_a_line_is_a_space() {
        let marks = marks("key:\r\n", &[problem(1, 5, true, "missing value")]);
        assert_eq!(marks[0].before, "key:");
        assert_eq!(marks[0].token, " ");
    }

    #[test]
    fn the_gutter_is_a_few_runs() {
        let marks = marks(
            "a\nb\nc\nd\ne\n",
            &[problem(2, 1, true, "x"), problem(3, 1, false, "y")],
        );
        assert_eq!(
            gutter(6, &marks),
            [
                GutterRun::Plain("1\n".into()),
                GutterRun::Marked(2, true, "x".into()),
                GutterRun::Marked(3, false, "y".into()),
                GutterRun::Plain("4\n5\n6\n".into()),
            ]
        );
        assert_eq!(gutter(2, &[]), [GutterRun::Plain("1\n2\n".into())]);
    }

    #[test]
    fn positions_of_byte_offsets() {
        let text = "a: 🚀x\nb: é\n";
        assert_eq!(position(text, 0), (1, 1, 0));
        assert_eq!(position(text, 7), (1, 5, 5), "after the rocket");
        assert_eq!(position(text, 5), (1, 4, 3), "inside the rocket: its start");
        assert_eq!(position(text, 12), (2, 4, 10));
        assert_eq!(position(text, 99), (3, 1, text.encode_utf16().count()));
    }

    #[test]
    fn utf16_offsets_count_surrogate_pairs() {
        let text = "a: 🚀x\nb: é\n";
        assert_eq!(utf16_offset(text, 1, 1), 0);
        assert_eq!(
            utf16_offset(text, 1, 5),
            5,
            "the rocket is two UTF-16 units"
        );
        assert_eq!(utf16_offset(text, 2, 4), 10);
        assert_eq!(utf16_offset(text, 7, 1), text.encode_utf16().count());
    }
}
