//! The tree-sitter side of the harness: parsing a file, the text of a node, the nodes
//! around a call, and which names an expression reads from its scope. The harness
//! edits text at byte ranges it finds here; dynalint's own scanner is not used for it.

use std::ops::Range;

use tree_sitter::{Node, Parser, Tree};

/// Parses Rust source; `None` only if tree-sitter gives up.
pub fn parse(text: &str) -> Option<Tree> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_rust::LANGUAGE.into())
        .ok()?;
    parser.parse(text, None)
}

/// The source of `n`.
pub fn text_of<'t>(n: Node<'_>, text: &'t str) -> &'t str {
    &text[n.byte_range()]
}

/// `n`'s named children.
pub fn named_children(n: Node<'_>) -> Vec<Node<'_>> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

/// Every descendant of `n` (itself included), in document order.
pub fn descendants(n: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        out.push(x);
        let mut c = x.walk();
        let kids: Vec<Node<'_>> = x.children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// The whitespace before `at` on its line, when only whitespace precedes it there.
pub fn indent_at(text: &str, at: usize) -> Option<String> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let lead = &text[line_start..at];
    lead.chars()
        .all(|c| c == ' ' || c == '\t')
        .then(|| lead.to_string())
}

/// The 1-based line of byte `at`.
pub fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// True when `n` or a descendant is a `?`, an `.await`, a `return`, `break` or
/// `continue` (in a macro's tokens too): what cannot move into another function or an
/// async block without changing what it does.
pub fn has_control_flow(n: Node<'_>, text: &str) -> bool {
    descendants(n).iter().any(|d| match d.kind() {
        "try_expression"
        | "await_expression"
        | "return_expression"
        | "break_expression"
        | "continue_expression" => true,
        "token_tree" => {
            let t = text_of(*d, text);
            t.contains('?') || t.contains("await") || t.contains("return")
        }
        _ => false,
    })
}

/// The names an expression reads from the scope around it: local variables and `self`
/// (each a byte range and its name), in document order. Paths (`AttributeValue::S`,
/// `crate::X`), fields and methods (`.id`, `.to_string()`), constants and types
/// (capitalised), functions called by name and the closure parameters it binds itself
/// are not. Names captured by `format!`'s `{name}` are included.
pub fn free_names(n: Node<'_>, text: &str) -> Vec<(Range<usize>, String)> {
    let mut bound: Vec<String> = Vec::new();
    for d in descendants(n) {
        if d.kind() == "closure_parameters" {
            for p in descendants(d) {
                if p.kind() == "identifier" {
                    bound.push(text_of(p, text).to_string());
                }
            }
        }
    }
    let mut out = Vec::new();
    for d in descendants(n) {
        match d.kind() {
            "self" => out.push((d.byte_range(), "self".to_string())),
            "identifier" => {
                let name = text_of(d, text);
                if name.starts_with(|c: char| c.is_ascii_uppercase())
                    || bound.iter().any(|b| b == name)
                {
                    continue;
                }
                let Some(parent) = d.parent() else { continue };
                let role_ok = match parent.kind() {
                    // `a::b`: a path, not a variable.
                    "scoped_identifier" | "scoped_type_identifier" | "generic_type" => false,
                    // `f(..)`: a function.
                    "call_expression" => parent.child_by_field_name("function") != Some(d),
                    "macro_invocation" => parent.child_by_field_name("macro") != Some(d),
                    "closure_parameters" | "parameter" => false,
                    // Inside a macro's tokens: `format!("{}", id)`'s `id`; `::` before it
                    // makes it a path.
                    "token_tree" => !prev_is_path_sep(d, text),
                    _ => true,
                };
                if role_ok {
                    out.push((d.byte_range(), name.to_string()));
                }
            }
            "string_literal" | "string_content"
                if d.parent().is_some_and(|p| p.kind() == "token_tree") =>
            {
                // `format!("{id}")`: an inline capture.
                for (r, name) in inline_captures(text_of(d, text)) {
                    if !bound.contains(&name) {
                        out.push(((d.start_byte() + r.start)..(d.start_byte() + r.end), name));
                    }
                }
            }
            _ => {}
        }
    }
    out.sort_by_key(|(r, _)| r.start);
    out.dedup_by_key(|(r, _)| r.start);
    out
}

fn prev_is_path_sep(n: Node<'_>, text: &str) -> bool {
    text[..n.start_byte()].trim_end().ends_with("::")
}

/// `{name}` and `{name:?}` in a format string: byte ranges (of the name) and names.
fn inline_captures(s: &str) -> Vec<(Range<usize>, String)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'{' {
            if b.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let start = i + 1;
            let mut j = start;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            if j > start
                && matches!(b.get(j), Some(b'}') | Some(b':'))
                && !b[start].is_ascii_digit()
            {
                out.push((start..j, s[start..j].to_string()));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// True when the expression reads nothing from its scope and may move anywhere: a
/// literal, a path to a constant, a call of such things.
pub fn is_closed(n: Node<'_>, text: &str) -> bool {
    free_names(n, text).is_empty() && !has_control_flow(n, text)
}
