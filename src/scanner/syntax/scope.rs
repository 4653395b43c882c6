//! Local name lookup: what a `let`, a parameter or a loop variable binds a name to, as
//! seen from one point of a function body.

use tree_sitter::Node;

use crate::scanner::syntax::nodes::{ancestors, field, named_children, Src};
// Kinds by id from a table: `Node::kind` costs a `strlen` and a UTF-8 check per call,
// and these climbs and walks ask it of millions of nodes in a large file.
use crate::scanner::syntax::parse::kind as node_kind;

/// What a local name is bound to at a point.
#[derive(Debug, Clone, Copy)]
pub enum Binding<'t> {
    /// `let name = value;` (the last one before the use, so shadowing works).
    Let {
        decl: Node<'t>,
        value: Option<Node<'t>>,
        ty: Option<Node<'t>>,
    },
    /// A parameter of the enclosing function.
    Param { ty: Option<Node<'t>> },
    /// The variable of a `for` loop, a closure parameter, or a pattern binding.
    LoopVar,
    /// Bound by a pattern the scanner does not destructure (`let (a, b) = ..`).
    Pattern,
}

/// Finds the binding of `name` visible at `at`, inside the enclosing function.
pub fn lookup<'t>(src: Src<'t>, at: Node<'t>, name: &str) -> Option<Binding<'t>> {
    let pos = at.start_byte();
    let mut prev = at;
    for anc in ancestors(src, at) {
        match node_kind(anc) {
            "block" | "source_file" => {
                // A block's statements before the use, read as text first: a cursor's
                // step from one statement to the next climbs through the grammar's
                // hidden repeat nodes, and the 40,000-call file's functions are ten
                // long statements none of which binds a name.
                let before = anc.start_byte()..prev.start_byte();
                if node_kind(anc) == "block" && !may_bind(src.text, src.lets, before, name) {
                    prev = anc;
                    continue;
                }
                let mut found = None;
                // Lazily: only the statements before the use are read, not the whole
                // block (nor, for the file's root, every item of the file).
                let mut cursor = anc.walk();
                for stmt in anc.named_children(&mut cursor) {
                    if stmt.start_byte() >= pos || stmt.id() == prev.id() {
                        break;
                    }
                    if node_kind(stmt) == "let_declaration" {
                        if let Some(b) = let_binds(src, stmt, name) {
                            found = Some(b);
                        }
                    }
                }
                if found.is_some() {
                    return found;
                }
            }
            "for_expression" => {
                let in_body = field(anc, "body").is_some_and(|b| b.id() == prev.id());
                if in_body && field(anc, "pattern").is_some_and(|p| pattern_has(src, p, name)) {
                    return Some(Binding::LoopVar);
                }
            }
            "closure_expression"
                if field(anc, "parameters").is_some_and(|p| pattern_has(src, p, name)) =>
            {
                return Some(Binding::LoopVar);
            }
            "if_expression" | "while_expression" | "match_arm" => {
                // `if let Some(x) = ..`, `while let`, match arm patterns.
                let pats: Vec<Node<'t>> = match node_kind(anc) {
                    "match_arm" => field(anc, "pattern").into_iter().collect(),
                    _ => field(anc, "condition")
                        .map(let_patterns)
                        .unwrap_or_default(),
                };
                let in_cond = field(anc, "condition").is_some_and(|c| c.id() == prev.id());
                if !in_cond && pats.iter().any(|p| pattern_has(src, *p, name)) {
                    // `if let Some(t) = env::var("T").ok()`: `t` is the value inside;
                    // so is it in `match env::var("T") { Ok(t) => t, .. }`.
                    let unwrapped = pats.iter().find_map(|p| {
                        if node_kind(anc) == "match_arm" {
                            let inner = named_children(*p).into_iter().find(|c| {
                                field(*p, "condition").is_none_or(|g| g.id() != c.id())
                            })?;
                            let scrutinee = src
                                .parent(anc)
                                .and_then(|b| src.parent(b))
                                .filter(|m| node_kind(*m) == "match_expression")?;
                            return unwraps(src, inner, name).then_some(scrutinee);
                        }
                        let cond = src
                            .parent(*p)
                            .filter(|c| node_kind(*c) == "let_condition")?;
                        unwraps(src, *p, name).then_some(cond)
                    });
                    return Some(match unwrapped {
                        Some(cond) => Binding::Let {
                            decl: cond,
                            value: field(cond, "value"),
                            ty: None,
                        },
                        None => Binding::Pattern,
                    });
                }
            }
            "function_item" => {
                for p in field(anc, "parameters")
                    .map(named_children)
                    .unwrap_or_default()
                {
                    if node_kind(p) == "parameter"
                        && field(p, "pattern").is_some_and(|pt| pattern_has(src, pt, name))
                    {
                        return Some(Binding::Param {
                            ty: field(p, "type"),
                        });
                    }
                }
                return None;
            }
            _ => {}
        }
        prev = anc;
    }
    None
}

/// Where `let` is written in a file's text, in order (within words too: `delete`).
pub fn let_offsets(text: &str) -> Vec<usize> {
    memchr::memmem::find_iter(text.as_bytes(), b"let").collect()
}

/// Whether some `let` in `text[range]` can bind `name`: the word `name` in the text
/// between a `let` and the `=` or `;` that ends its pattern. Never wrong the other way:
/// a pattern the scan cannot be sure it read whole (a literal, a comment, a `..=` range
/// in it) counts as binding it. `lets` is [`let_offsets`] of `text`: a function of
/// 40,000 statements asks this once per name it uses, and searching the text before
/// each use again made the file's lookups quadratic.
fn may_bind(text: &str, lets: &[usize], range: std::ops::Range<usize>, name: &str) -> bool {
    let Some(bytes) = text.as_bytes().get(..range.end) else {
        return true;
    };
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let first = lets.partition_point(|&at| at < range.start);
    for &at in lets[first..].iter().take_while(|&&at| at + 3 <= range.end) {
        let before = at
            .checked_sub(1)
            .filter(|&i| i >= range.start)
            .and_then(|i| bytes.get(i));
        let after = bytes.get(at + 3);
        if before.is_some_and(|b| word(*b)) || after.is_some_and(|b| word(*b)) {
            continue;
        }
        let rest = &bytes[at + 3..];
        let mut end = rest.len();
        for (i, b) in rest.iter().enumerate() {
            match b {
                b'"' | b'\'' | b'/' | b'.' => return true,
                b';' => {
                    end = i;
                    break;
                }
                b'=' => {
                    let prev = i.checked_sub(1).and_then(|j| rest.get(j));
                    let next = rest.get(i + 1);
                    // `==`, `=>`, `<=`, `>=`, `!=`: not the `=` of a `let`.
                    if !matches!(prev, Some(b'=' | b'<' | b'>' | b'!'))
                        && !matches!(next, Some(b'=' | b'>'))
                    {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let pattern = &rest[..end];
        let spelled = pattern
            .windows(name.len().max(1))
            .enumerate()
            .any(|(i, w)| {
                w == name.as_bytes()
                    && !i
                        .checked_sub(1)
                        .and_then(|j| pattern.get(j))
                        .is_some_and(|b| word(*b))
                    && !pattern.get(i + name.len()).is_some_and(|b| word(*b))
            });
        if spelled || name.is_empty() {
            return true;
        }
    }
    false
}

/// The patterns of `let` conditions in an `if`/`while` condition.
fn let_patterns(cond: Node<'_>) -> Vec<Node<'_>> {
    match node_kind(cond) {
        "let_condition" => field(cond, "pattern").into_iter().collect(),
        "let_chain" => named_children(cond)
            .into_iter()
            .filter(|c| node_kind(*c) == "let_condition")
            .filter_map(|c| field(c, "pattern"))
            .collect(),
        _ => Vec::new(),
    }
}

fn let_binds<'t>(src: Src<'t>, stmt: Node<'t>, name: &str) -> Option<Binding<'t>> {
    let pat = field(stmt, "pattern")?;
    let simple = match node_kind(pat) {
        "identifier" => src.of(pat) == name,
        "mut_pattern" | "ref_pattern" => named_children(pat)
            .into_iter()
            .any(|c| node_kind(c) == "identifier" && src.of(c) == name),
        _ => false,
    };
    if simple {
        return Some(Binding::Let {
            decl: stmt,
            value: field(stmt, "value"),
            ty: field(stmt, "type"),
        });
    }
    // `let Ok(table) = env::var("TABLE") else { .. };`: the value inside.
    if unwraps(src, pat, name) {
        return Some(Binding::Let {
            decl: stmt,
            value: field(stmt, "value"),
            ty: None,
        });
    }
    pattern_has(src, pat, name).then_some(Binding::Pattern)
}

/// `Some(name)` or `Ok(name)`: a pattern that takes the value out of an `Option` or a
/// `Result` whole, so `name` is that value.
fn unwraps(src: Src<'_>, pat: Node<'_>, name: &str) -> bool {
    if node_kind(pat) != "tuple_struct_pattern" {
        return false;
    }
    let ty = field(pat, "type").map(|t| src.of(t));
    let inner: Vec<Node<'_>> = named_children(pat)
        .into_iter()
        .filter(|c| Some(c.id()) != field(pat, "type").map(|t| t.id()))
        .collect();
    matches!(ty, Some("Some" | "Ok"))
        && inner.len() == 1
        && match inner[0].kind() {
            "identifier" => src.of(inner[0]) == name,
            "mut_pattern" | "ref_pattern" => named_children(inner[0])
                .into_iter()
                .any(|c| node_kind(c) == "identifier" && src.of(c) == name),
            _ => false,
        }
}

/// Whether a pattern binds `name` anywhere inside it.
fn pattern_has(src: Src<'_>, pat: Node<'_>, name: &str) -> bool {
    if node_kind(pat) == "identifier" {
        return src.of(pat) == name;
    }
    if node_kind(pat) == "closure_parameters" || pat.child_count() > 0 {
        let mut stack = vec![(pat, 0usize)];
        while let Some((n, d)) = stack.pop() {
            if node_kind(n) == "identifier" && src.of(n) == name {
                // Not the type of a typed closure parameter, nor a path segment.
                let is_type = src.parent(n).is_some_and(|p| {
                    field(p, "type").is_some_and(|t| t.id() == n.id())
                        || node_kind(p) == "scoped_identifier"
                });
                if !is_type {
                    return true;
                }
            }
            if d < 32 {
                for c in named_children(n) {
                    if !matches!(node_kind(c), "type_identifier" | "scoped_type_identifier") {
                        stack.push((c, d + 1));
                    }
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn may_bind_reads_the_patterns_of_lets() {
        let cases = [
            ("let x = 1;", "x", true),
            ("let _ = f(x);", "x", false),
            (
                "let _ = c.get_item().key(\"pk\", S(id.into())).send();",
                "id",
                false,
            ),
            ("let (a, b) = t;", "b", true),
            ("let mut xs: Vec<u8> = v;", "xs", true),
            ("let xs2 = 1; let y = xs;", "xs", false),
            ("let Some(t) = o else { return };", "t", true),
            ("if x == 1 { let y = x >= 2; }", "x", false),
            ("letx = 1; x", "x", false),
            ("let x;", "x", true),
            // Not sure the pattern was read whole: counts.
            ("let y @ 1..=5 = n;", "x", true),
            ("let s = \"let x = 1\";", "x", true),
            ("let /* = */ x = 1;", "x", true),
        ];
        for (text, name, want) in cases {
            let lets = let_offsets(text);
            assert_eq!(may_bind(text, &lets, 0..text.len(), name), want, "{text}");
            // The same text inside a file, read by its range.
            let file = format!("fn f() {{}}\n{text}\nlet tail = 1;");
            let range = 10..10 + text.len();
            let lets = let_offsets(&file);
            assert_eq!(
                may_bind(&file, &lets, range, name),
                want,
                "in a file: {text}"
            );
        }
    }
}
