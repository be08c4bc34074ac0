//! The YAML fast path against granit-parser: fixed cases, then random documents.

use alloc::string::String;
use alloc::vec::Vec;

use proptest::prelude::*;

use super::compare_readers;

/// Texts the fast path must read, exactly as granit-parser does.
const READ: &[&str] = &[
    "",
    "# c\n",
    "---\n",
    "---\n---\n",
    "--- # c\n",
    "---  \n",
    "...\n",
    "a: 1",
    "a: 1\n",
    "a: 1\n# c\n\n",
    "a: 1\n---\n",
    "a: 1\n...\n",
    "a: 1\n...\n---\nb: 2\n",
    "---\n...\n---\n",
    "--- # c\na: 1\n",
    "k: v\n---\nk: w\n",
    "apiVersion: v1\nitems:\n- kind: Pod\n  metadata:\n    name: \"p1\"\n    labels: {}\n    x: []\n  spec:\n    containers:\n    - name: c\n      args:\n      - a\n      - b\n    n: null\n    e:\n    f: x\nkind: List\n",
    "# c\n\n---\na: 1 # x\n# y\n\nb:\n  - x\n  # z\n  - y\nc: |\n  line1\n\n  line2\ne: \"a\n  b\"\n---\n...\n",
    "\n# lead\n\na:\n  b:\n  c: 1\nd:\n- - x\n  - y\n- z\n\"q k\": 's v'\np: a b  # c\nh: a#b\nm: this is\n  multi line\n\n  para\nf: {a: 1, b: [x, \"y\"]}\ne:\n",
    "a:\n-\n- x\n-   \nb: 2",
    "a: |\n  x\n# c\nb: 1\n",
    "a: |-\n  x\n\n\nb: 1\n",
    "a: |\n  x\n\n",
    "- a\n- b: 1\n  c: 2\n",
    "a:   x   \n",
    "a: \"x\"  \n",
    "a:\n  - b\n  -\nc: 1",
    "x: |\n\n  a\n  b\ny: 1\n",
    "x: | # c\n  a\n",
    "x: |  \n  a\n",
    "x: |+\n  a\n\n\ny: 1\n",
    "k: # c\n  v\n",
    "k:  # c\nj: 1\n",
    "-  # c\n- a",
    "a: \"x \\\n   y\"\n",
    "a: \"x\n\n  y  \n  z\"\n",
    "a: 'x\n\n  y  \n  z'\n",
    "a: b\r\nc: |\r\n  x\r\n  y\r\nd: 1\r\n",
    "-\r\n- a\r\n",
    "a: 'it''s'\nb: \"\\t\\u00e9\\x41\\\"\\\\ \\/\"\n",
    "a: [1, 2, [3]]\nb: {c: {d: e}, 'f': \"g\"}\n",
    "- {}\n- []\n- [a]\n",
    "a: -1\nb: -x\nc: http://x:80/y\nd: x:y\ne: é😀\n",
    "  a: 1\n  b:\n    c: 2\n",
    "a:\n    b: 1\n    c:\n    - d\n    - e:\n        f: g\n      h: i\n",
    "- - - a\n    - b\n  - c\n- d\n",
    "key with spaces: value with spaces\n",
    "a: |\n  #not a comment\n   indented\n  \tb\n",
    "a: plain\n  continued # comment\nb: 1\n",
    "a: \"\"\nb: ''\nc: ~\nd: null\n",
    "a:\n  b: |\n      x\n    # c\n  d: 1\n",
    "a: |+\n  x\n\n# c\n\nb: 1\n",
    "a: |\n  x\n---\nb: |-\n  y\n...\n",
    "a:\n  b: 1\n# c\n  d: 2\n",
    "a: \"x\\\n  \\ y\"\n",
    "a: 'x\n\n\n  y'\n",
    "a: \"x \n y\"\nb: 'x\t\n y'\n",
    "- a: 1\n  b:\n  - c\n  d: 2\n- e\n",
    "a: {}\nb: []\nc: {x: {}}\nd: [[], {}]\n",
    "a:    \n",
    "-   - a\n    - b\n",
];

/// Texts the fast path leaves to granit-parser.
const DECLINED: &[&str] = &[
    "a: &x 1\nb: *x\n",
    "a: !tag 1\n",
    "a: {b: !!str 4}\n",
    "a: [!!int '5']\n",
    "- !!str 4\n",
    "!!str 4: a\n",
    "%YAML 1.2\n---\na: 1\n",
    "? a\n: b\n",
    "a: >\n  folded\n",
    "a: |2\n   x\n",
    "a:\tb\n",
    "a:\n\t- b\n",
    "a: b\n  c: d\n",
    "a: b: c\n",
    "a: [b,\n  c]\n",
    "a: 1\n b: 2\n",
    "- a\nb: 1\n",
    "a: \"\\ud800\"\n",
    "a: \"unterminated\n",
    "a\u{85}b: 1\n",
    "a: \u{feff}x\n",
    "a: x\rb: y\n",
    "a: [b: c]\n",
    "{a: b}: c\n",
    "a: x\u{0}\n",
    "a: x\n  - y\n",
    "a: b  \nc: d\t\n",
    "? x\n",
    "a: 1\n...\nb: 2\n",
    "a: 1\n...\n# c\n\nb: 2\n",
];

#[test]
fn the_fast_path_reads_the_block_subset_like_granit() {
    for text in READ {
        assert_eq!(compare_readers(text), Ok(true), "{text:?}");
    }
}

#[test]
fn the_fast_path_declines_everything_else() {
    for text in DECLINED {
        assert_eq!(compare_readers(text), Ok(false), "{text:?}");
    }
}

#[test]
fn every_scenario_reads_the_same_on_both_paths() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/scenarios");
    let mut read = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    entries.sort();
    for scenario in &entries {
        let Ok(text) = std::fs::read_to_string(scenario.join("input.yaml")) else {
            continue;
        };
        let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
        match compare_readers(body) {
            Ok(fast) => read += usize::from(fast),
            Err(difference) => panic!("{}: {difference}", scenario.display()),
        }
    }
    assert!(entries.len() >= 30, "scenarios not found in {dir}");
    // Most fixtures are in the subset; the others hold what it leaves to granit-parser.
    assert!(
        read * 2 > entries.len(),
        "{read} of {} read by the fast path",
        entries.len()
    );
}

/// A random YAML-ish document: a tree of nodes, each with how it is to be written.
#[derive(Clone, Debug)]
enum Node {
    /// A scalar and how to write it.
    Scalar(String, Written),
    /// Nothing after the key or dash: a null.
    Empty,
    /// A mapping; `flow` writes it as `{...}`.
    Map(Vec<(String, bool, Node)>, Layout),
    /// A sequence; `flow` writes it as `[...]`.
    Seq(Vec<Node>, Layout),
}

#[derive(Clone, Copy, Debug)]
enum Written {
    Plain,
    Single,
    Double,
    /// A literal block scalar with its chomping indicator (`""`, `"-"` or `"+"`).
    Literal(&'static str),
    /// Folded over lines where it has spaces (plain or double-quoted).
    Wrapped(bool),
}

/// How a collection is laid out.
#[derive(Clone, Copy, Debug)]
struct Layout {
    flow: bool,
    /// Extra indentation of a nested block collection (1..=4); 0 under a key means an
    /// indentless sequence, in a sequence entry a compact one (`- a: 1`, `- - x`).
    step: usize,
    /// A comment after the key line, a comment line before the entries, blank lines.
    comment: bool,
    blank: bool,
}

const WORDS: &[&str] = &[
    "a",
    "bc",
    "x1",
    "true",
    "y",
    "no",
    "null",
    "~",
    "0",
    "-1",
    "0755",
    "1.5",
    "1e3",
    "a:b",
    "a#b",
    "é",
    "😀",
    "http://x/y",
    "-",
    "'",
    "\"",
    "\\",
    ":",
    "#",
    "[",
    "]",
    "{",
    "}",
    ",",
    "&a",
    "*a",
    "!t",
    "|",
    ">",
    "?",
    "%",
    "@",
    "`",
    "\t",
    "\n",
    "--",
    "...",
    "100m",
    "2Gi",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(WORDS), prop::bool::ANY), 1..5).prop_map(|words| {
        let mut text = String::new();
        for (i, (word, space)) in words.into_iter().enumerate() {
            if i > 0 && space {
                text.push(' ');
            }
            text.push_str(word);
        }
        text
    })
}

fn written() -> impl Strategy<Value = Written> {
    prop_oneof![
        4 => Just(Written::Plain),
        1 => Just(Written::Single),
        2 => Just(Written::Double),
        1 => prop::sample::select(&["", "-", "+"][..]).prop_map(Written::Literal),
        1 => prop::bool::ANY.prop_map(Written::Wrapped),
    ]
}

fn layout() -> impl Strategy<Value = Layout> {
    (
        prop::bool::weighted(0.2),
        0..5usize,
        prop::bool::weighted(0.2),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(flow, step, comment, blank)| Layout {
            flow,
            step,
            comment,
            blank,
        })
}

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        8 => (text(), written()).prop_map(|(text, written)| Node::Scalar(text, written)),
        1 => Just(Node::Empty),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        prop_oneof![
            (
                prop::collection::vec((text(), prop::bool::weighted(0.2), inner.clone()), 0..5),
                layout()
            )
                .prop_map(|(entries, layout)| Node::Map(entries, layout)),
            (prop::collection::vec(inner, 0..5), layout())
                .prop_map(|(items, layout)| Node::Seq(items, layout)),
        ]
    })
}

/// True when `text` can be written as a plain scalar that the fast path reads.
fn plain_safe(text: &str, flow: bool) -> bool {
    let first = text.chars().next();
    first.is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | '/' | '_' | '(' | '~'))
        && !text.ends_with([' ', ':'])
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.contains(['\t', '\n', '\r'])
        && (!flow || !text.contains([',', '[', ']', '{', '}', ':', '#']))
        && !text.starts_with("...")
}

/// Writes scalars the way the fast path reads them, choosing a quoted form when the plain
/// one would not do.
fn scalar(text: &str, written: Written, flow: bool, continuation: usize, out: &mut String) {
    match written {
        Written::Plain | Written::Wrapped(_) if !plain_safe(text, flow) => {
            scalar(text, Written::Double, flow, continuation, out);
        }
        Written::Plain => out.push_str(text),
        Written::Wrapped(_) if flow => out.push_str(text),
        Written::Wrapped(blank) => {
            // A line break where a space is, unless the next word looks like an indicator.
            let mut first = true;
            for word in text.split(' ') {
                if !first {
                    let breaks = word.chars().next().is_some_and(|c| c.is_alphanumeric());
                    if breaks {
                        out.push('\n');
                        if blank {
                            out.push('\n');
                        }
                        out.push_str(&" ".repeat(continuation));
                    } else {
                        out.push(' ');
                    }
                }
                first = false;
                out.push_str(word);
            }
        }
        Written::Single if !text.contains(['\t', '\n']) => {
            out.push('\'');
            out.push_str(&text.replace('\'', "''"));
            out.push('\'');
        }
        // The fast path reads literal scalars whose first line has content.
        Written::Literal(_)
            if flow
                || !text
                    .split('\n')
                    .next()
                    .is_some_and(|line| line.starts_with(|c: char| !c.is_whitespace())) =>
        {
            scalar(text, Written::Double, flow, continuation, out);
        }
        Written::Literal(chomp) => {
            out.push('|');
            out.push_str(chomp);
            for line in text.split('\n') {
                out.push('\n');
                let line = line.trim_end_matches([' ', '\t']);
                if !line.is_empty() {
                    out.push_str(&" ".repeat(continuation));
                    out.push_str(line);
                }
            }
        }
        Written::Single | Written::Double => {
            out.push('"');
            for c in text.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\t' => out.push_str("\\t"),
                    'é' => out.push_str("\\u00e9"),
                    c => out.push(c),
                }
            }
            out.push('"');
        }
    }
}

fn indent(out: &mut String, columns: usize) {
    out.push_str(&" ".repeat(columns));
}

/// Writes a flow collection or scalar on the current line.
fn flow(node: &Node, out: &mut String) {
    match node {
        Node::Scalar(text, written) => scalar(text, *written, true, 0, out),
        Node::Empty => out.push_str("null"),
        Node::Map(entries, _) => {
            out.push('{');
            for (i, (key, quoted, value)) in entries.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { ", " });
                key_text(key, *quoted, true, out);
                out.push_str(": ");
                flow(value, out);
            }
            out.push('}');
        }
        Node::Seq(items, _) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { ", " });
                flow(item, out);
            }
            out.push(']');
        }
    }
}

fn key_text(key: &str, quoted: bool, in_flow: bool, out: &mut String) {
    if quoted || !plain_safe(key, in_flow) {
        scalar(key, Written::Double, true, 0, out);
    } else {
        out.push_str(key);
    }
}

/// True when a node is written on the line of its key or dash.
fn inline(node: &Node) -> bool {
    match node {
        Node::Scalar(..) | Node::Empty => true,
        Node::Map(entries, layout) => layout.flow || entries.is_empty(),
        Node::Seq(items, layout) => layout.flow || items.is_empty(),
    }
}

/// Writes the entries of a block mapping whose keys are at `column`. The first key goes
/// on the current line when `same_line` (a compact mapping in a sequence entry).
fn block_map(
    entries: &[(String, bool, Node)],
    layout: Layout,
    column: usize,
    same_line: bool,
    out: &mut String,
) {
    for (i, (key, quoted, value)) in entries.iter().enumerate() {
        if i > 0 || !same_line {
            if layout.blank && i > 0 {
                out.push('\n');
            }
            if layout.comment && i > 0 {
                indent(out, column);
                out.push_str("# between\n");
            }
            indent(out, column);
        }
        key_text(key, *quoted, false, out);
        out.push(':');
        after_key(value, column, layout, out);
    }
}

/// Writes a mapping value after `key:`, in a mapping whose keys are at `column`.
fn after_key(value: &Node, column: usize, layout: Layout, out: &mut String) {
    let step = layout.step.max(1);
    match value {
        Node::Empty => out.push('\n'),
        node if inline(node) => {
            out.push(' ');
            match node {
                Node::Scalar(text, written) => scalar(text, *written, false, column + step, out),
                node => flow(node, out),
            }
            if layout.comment {
                out.push_str("  # after");
            }
            out.push('\n');
        }
        Node::Map(entries, inner) => {
            out.push('\n');
            block_map(entries, *inner, column + step, false, out);
        }
        Node::Seq(items, inner) => {
            out.push('\n');
            // `step` 0: an indentless sequence, its dashes at the key's column.
            let dashes = if layout.step == 0 {
                column
            } else {
                column + step
            };
            block_seq(items, *inner, dashes, false, out);
        }
        Node::Scalar(..) => {}
    }
}

/// Writes the entries of a block sequence whose dashes are at `column`.
fn block_seq(items: &[Node], layout: Layout, column: usize, same_line: bool, out: &mut String) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 || !same_line {
            if layout.comment && i > 0 {
                indent(out, column + 1);
                out.push_str("# between\n");
            }
            indent(out, column);
        }
        out.push('-');
        match item {
            Node::Empty => out.push('\n'),
            node if inline(node) => {
                out.push(' ');
                match node {
                    Node::Scalar(text, written) => scalar(text, *written, false, column + 2, out),
                    node => flow(node, out),
                }
                out.push('\n');
            }
            Node::Map(entries, inner) if inner.step == 0 => {
                out.push(' ');
                block_map(entries, *inner, column + 2, true, out);
            }
            Node::Seq(entries, inner) if inner.step == 0 => {
                out.push(' ');
                block_seq(entries, *inner, column + 2, true, out);
            }
            Node::Map(entries, inner) => {
                out.push('\n');
                block_map(entries, *inner, column + inner.step, false, out);
            }
            Node::Seq(entries, inner) => {
                out.push('\n');
                block_seq(entries, *inner, column + inner.step, false, out);
            }
            Node::Scalar(..) => {}
        }
    }
}

/// Writes one document.
fn document(root: &Node, out: &mut String) {
    match root {
        Node::Map(entries, layout) if !inline(root) => block_map(entries, *layout, 0, false, out),
        Node::Seq(items, layout) if !inline(root) => block_seq(items, *layout, 0, false, out),
        Node::Scalar(text, _) => {
            scalar(text, Written::Double, false, 0, out);
            out.push('\n');
        }
        Node::Empty => {}
        node => {
            flow(node, out);
            out.push('\n');
        }
    }
}

/// A random edit: a character from those that matter to YAML, inserted, replacing one,
/// or a deletion.
fn mutate(text: &str, at: usize, edit: u8, with: char) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return String::from(with);
    }
    let at = at % chars.len();
    match edit % 3 {
        0 => chars.insert(at, with),
        1 => {
            if let Some(c) = chars.get_mut(at) {
                *c = with;
            }
        }
        _ => {
            chars.remove(at);
        }
    }
    chars.into_iter().collect()
}

proptest! {
    // 2 000 cases by default; more with PROPTEST_CASES.
    #![proptest_config(ProptestConfig {
        cases: ProptestConfig::default().cases.max(2000),
        ..ProptestConfig::default()
    })]

    /// Documents in the subset are read by the fast path, exactly as granit-parser reads
    /// them; after a random edit they are read identically or left to granit-parser.
    #[test]
    fn random_documents_read_the_same_on_both_paths(
        documents in prop::collection::vec((node(), prop::bool::ANY, prop::bool::weighted(0.2)), 1..3),
        crlf in prop::bool::weighted(0.2),
        edits in prop::collection::vec((any::<usize>(), any::<u8>(), prop::sample::select(&[
            ' ', '\n', '\t', ':', '-', '#', '"', '\'', '|', '>', '{', '}', '[', ']', ',', '&',
            '*', '!', '?', '%', 'a', '\r', '\\', '.', '\u{85}', '\u{feff}', '\u{0}',
        ][..])), 0..3),
    ) {
        let mut text = String::new();
        for (i, (root, marker, end)) in documents.iter().enumerate() {
            if i > 0 || *marker {
                text.push_str("---\n");
            }
            document(root, &mut text);
            if *end {
                text.push_str("...\n");
            }
        }
        if crlf {
            text = text.replace('\n', "\r\n");
        }
        prop_assert_eq!(compare_readers(&text), Ok(true), "{:?}", text);
        for (at, edit, with) in edits {
            text = mutate(&text, at, edit, with);
            let compared = compare_readers(&text);
            prop_assert!(compared.is_ok(), "{:?}: {:?}", text, compared);
        }
    }

    /// Short texts of YAML's special characters: the fast path reads them as granit-parser
    /// does, or leaves them to it.
    #[test]
    fn random_texts_read_the_same_on_both_paths(
        text in prop::collection::vec(prop::sample::select(&[
            "a", "b1", " ", "  ", "\n", "\n  ", "\n- ", ": ", ":", "-", "- ", "#", " #", "'", "\"",
            "|", "|-", ">", "{", "}", "[", "]", ",", "\t", "\r\n", "\\", "---", "...", "&x", "*x",
            "!", "?", "%", "~", "é", "\u{85}",
        ][..]), 0..24).prop_map(|parts| parts.concat()),
    ) {
        let compared = compare_readers(&text);
        prop_assert!(compared.is_ok(), "{:?}: {:?}", text, compared);
    }
}
