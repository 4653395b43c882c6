//! One cached tree-sitter parser per thread (rayon workers parse without locks), and
//! the reuse of a file's last parse (its text and tree) when it is parsed again after
//! an edit; what the LSP keeps of that parse is `incremental::LastParse`.

use std::cell::RefCell;

use tree_sitter::{InputEdit, Parser, Point, Range, Tree};

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses Rust source bytes; `None` only if tree-sitter itself gives up.
pub fn parse(text: &[u8]) -> Option<Tree> {
    parse_with(text, &[], None)
}

/// Parses only `within` of `text` (see [`parse_with`]): a piece of a large file
/// (`pieces.rs`), whose nodes keep the file's offsets and positions.
pub fn parse_within(text: &[u8], within: &[Range]) -> Option<Tree> {
    parse_with(text, within, None)
}

/// Parses only `within` (sorted, disjoint byte ranges of `text`; all of it when
/// empty): a sparse text's items, whose blank bytes between would cost the lexer
/// one step each. Nodes keep the text's own offsets.
fn parse_with(text: &[u8], within: &[Range], old: Option<&Tree>) -> Option<Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        if slot.is_none() {
            let mut p = Parser::new();
            p.set_language(&tree_sitter_rust::LANGUAGE.into()).ok()?;
            *slot = Some(p);
        }
        let parser = slot.as_mut()?;
        // A previous parse that stopped half-way must not leak into this one.
        parser.reset();
        // Ranges tree-sitter refuses (never made here: they come sorted and apart)
        // leave the whole text to parse, as does an empty list.
        if parser.set_included_ranges(within).is_err() {
            parser.set_included_ranges(&[]).ok()?;
        }
        parser.parse(text, old)
    })
}

/// [`parse`], reusing `last` (the text parsed last time, and its tree): its tree is told which bytes changed (one range, between
/// the common prefix and suffix) and parsed again. Only a parse without syntax errors
/// is reused or kept, so what error recovery makes of broken code is always what a
/// first parse makes of it.
/// With `within` not empty, only those byte ranges of `text` are parsed (see
/// [`ranges`]).
pub fn parse_reusing_within(
    text: &[u8],
    within: &[Range],
    last: Option<(&[u8], &Tree)>,
) -> Option<Tree> {
    let Some((last_text, last_tree)) = last.filter(|(_, tree)| !tree.root_node().has_error())
    else {
        return parse_with(text, within, None);
    };
    let mut old = last_tree.clone();
    old.edit(&edit_between(last_text, text));
    match parse_with(text, within, Some(&old)) {
        Some(tree) if !tree.root_node().has_error() => Some(tree),
        _ => parse_with(text, within, None),
    }
}

/// Tree-sitter's ranges for the sorted, disjoint byte ranges `spans` of `text`, with
/// their rows and columns.
pub fn ranges(text: &[u8], spans: &[(usize, usize)]) -> Vec<Range> {
    let mut out = Vec::with_capacity(spans.len());
    // Rows counted once over the text, from one range to the next.
    let (mut at, mut row, mut line_start) = (0usize, 0usize, 0usize);
    let mut point_at = |offset: usize| {
        let offset = offset.min(text.len());
        if offset > at {
            for nl in memchr::memchr_iter(b'\n', &text[at..offset]) {
                row += 1;
                line_start = at + nl + 1;
            }
            at = offset;
        }
        Point {
            row,
            column: offset - line_start,
        }
    };
    for &(start, end) in spans {
        let start_point = point_at(start);
        let end_point = point_at(end);
        out.push(Range {
            start_byte: start,
            end_byte: end,
            start_point,
            end_point,
        });
    }
    out
}

/// The bytes that differ between `old` and `new`, what lies between their common
/// prefix and their common suffix: `(start, old_end, new_end)`, `old[start..old_end]`
/// replaced by `new[start..new_end]`.
pub(in crate::scanner) fn changed_bytes(old: &[u8], new: &[u8]) -> (usize, usize, usize) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    (prefix, old.len() - suffix, new.len() - suffix)
}

/// The one edit that turns `old` into `new` ([`changed_bytes`]), as tree-sitter takes it.
fn edit_between(old: &[u8], new: &[u8]) -> InputEdit {
    let (prefix, old_end, new_end) = changed_bytes(old, new);
    InputEdit {
        start_byte: prefix,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position: point(old, prefix),
        old_end_position: point(old, old_end),
        new_end_position: point(new, new_end),
    }
}

/// The row and byte column of offset `at`.
fn point(text: &[u8], at: usize) -> Point {
    let before = &text[..at.min(text.len())];
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    Point {
        row: before.iter().filter(|b| **b == b'\n').count(),
        column: before.len() - line_start,
    }
}

/// `node.kind()`, read from a table by the node's kind id: the same name, without the
/// C string's length and UTF-8 checks `Node::kind` makes on every call (a pass over
/// every node of a file asks once per node).
pub fn kind(node: tree_sitter::Node<'_>) -> &'static str {
    use std::sync::OnceLock;
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let language: tree_sitter::Language = tree_sitter_rust::LANGUAGE.into();
        (0..language.node_kind_count())
            .map(|id| {
                u16::try_from(id)
                    .ok()
                    .and_then(|id| language.node_kind_for_id(id))
                    .unwrap_or("")
            })
            .collect()
    });
    match names.get(usize::from(node.kind_id())) {
        Some(name) if !name.is_empty() => name,
        // `ERROR` (an id past the table) and anything the table lacks.
        _ => node.kind(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Valid Rust the grammar must read without an error node (each was a syntax
    /// error under tree-sitter-rust 0.24.0, met in the real-world corpus or in Rust
    /// 2024): a variable named `raw` borrowed (`&raw` was read as the start of a raw
    /// borrow), and an `unsafe extern` block.
    #[test]
    fn the_grammar_reads_valid_rust_the_old_one_did_not() {
        for code in [
            "fn f(d: D) -> R {\n    let raw = String::deserialize(d)?;\n    let n = normalize(&raw);\n    Ok(n.len() == raw.len())\n}\n",
            "unsafe extern \"C\" {\n    fn abs(i: i32) -> i32;\n}\n",
        ] {
            let tree = parse(code.as_bytes()).unwrap();
            assert!(!tree.root_node().has_error(), "{code}\n{}", tree.root_node().to_sexp());
        }
    }

    /// A reused parse gives the tree a first parse gives, for an edit anywhere:
    /// inside a token, between items, at either end.
    #[test]
    fn a_reused_parse_is_a_first_parse() {
        let base =
            "fn f(c: &Client) {\n    let values = c.query().send();\n}\n\n// note\nfn g() {}\n";
        let first = parse(base.as_bytes()).unwrap();
        let last = (base.as_bytes(), &first);
        for edited in [
            base.replace("let values", "let xvalues"),
            base.replace("// note", "// no te"),
            format!("{base}fn h() {{ g() }}\n"),
            format!("use a::b;\n{base}"),
            base.replace("fn g() {}\n", ""),
        ] {
            let reused = parse_reusing_within(edited.as_bytes(), &[], Some(last)).unwrap();
            let fresh = parse(edited.as_bytes()).unwrap();
            assert_eq!(
                reused.root_node().to_sexp(),
                fresh.root_node().to_sexp(),
                "{edited}"
            );
        }
    }

    #[test]
    fn the_edit_is_the_range_between_common_prefix_and_suffix() {
        let e = edit_between(b"ab\ncd\nef", b"ab\ncXd\nef");
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (4, 4, 5));
        assert_eq!(e.start_position, Point { row: 1, column: 1 });
        let e = edit_between(b"aaa", b"aa");
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (2, 3, 2));
    }

    #[test]
    fn kind_is_the_nodes_own_kind() {
        let text = b"use a::b; const X: &str = \"t\"; struct S { a: u8 }\n\
            impl S { fn new(t: &str) -> Self { let v = vec![1]; c.query().table_name(t); Self { a: 1 } } }\n\
            fn broken( { r#\"x\"#; 'a: loop {} }";
        let tree = parse(text).expect("parses");
        let mut cursor = tree.walk();
        let mut seen = 0;
        loop {
            let n = cursor.node();
            assert_eq!(kind(n), n.kind(), "{n:?}");
            seen += 1;
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                continue;
            }
            while cursor.goto_parent() && !cursor.goto_next_sibling() {}
            if cursor.node() == tree.root_node() {
                break;
            }
        }
        assert!(seen > 50, "{seen}");
    }
}
