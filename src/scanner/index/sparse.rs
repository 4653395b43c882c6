//! The sparse text of a file the pre-filter ruled out: only the items the link phase
//! needs (consts and statics, `lazy_static!`, structs, `use`s, constructors inside
//! `impl` blocks, short functions returning a string and ones setting a `OnceLock`
//! (see `returns.rs`), with the `mod`/`impl` headers around them) keep their bytes; the rest
//! becomes spaces. Offsets stay those of the file, and parsing mostly-blank text costs
//! a fraction of parsing the whole file.

use crate::scanner::index::returns::keep_in_sparse;
use crate::scanner::syntax::lex::{shadow_text, Tok, Token};

/// Byte ranges `(start, end)` of a text.
pub type Spans = Vec<(usize, usize)>;

/// The sparse text and the byte ranges it keeps (sorted, disjoint: what needs
/// parsing), or None when the file has no such item.
pub fn item_text(src: &[u8], toks: &[Token]) -> Option<(Vec<u8>, Spans)> {
    let shadow = shadow_text(src, toks);
    let mut keep: Vec<(usize, usize)> = Vec::new();
    // Frames: true when the brace opened an item container (mod/impl/file level).
    let mut stack: Vec<Container> = Vec::new();
    let mut item_start: Option<usize> = None;
    let mut i = 0usize;
    let at_item_level = |stack: &[Container]| stack.iter().all(|c| !matches!(c, Container::Body));
    while i < toks.len() {
        let t = toks[i];
        let level = at_item_level(&stack);
        match t.kind {
            Tok::Punct(b'#') if level && item_start.is_none() => {
                item_start = Some(t.start as usize)
            }
            Tok::Ident if level => {
                let w = t.text(src);
                let start = item_start.unwrap_or(t.start as usize);
                match w {
                    b"const" | b"static" | b"use" | b"lazy_static" => {
                        // Up to the `;` at this nesting (or the macro's closing brace).
                        if let Some(end) = end_of_statement(toks, i, w == b"lazy_static") {
                            keep.push((start, end));
                            i = skip_to(toks, i, end);
                            item_start = None;
                            continue;
                        }
                    }
                    b"struct" | b"enum" => {
                        if let Some(end) = end_of_braced(toks, i) {
                            keep.push((start, end));
                            i = skip_to(toks, i, end);
                            item_start = None;
                            continue;
                        }
                    }
                    b"impl" | b"mod" | b"trait" => {
                        // Keep the header; its body is walked at item level.
                        let mut j = i;
                        while j < toks.len() && !toks[j].is_punct(b'{') && !toks[j].is_punct(b';') {
                            j += 1;
                        }
                        if let Some(open) = toks.get(j).filter(|o| o.is_punct(b'{')) {
                            keep.push((start, open.end as usize));
                            stack.push(Container::Items);
                            item_start = None;
                            i = j + 1;
                            continue;
                        }
                    }
                    b"fn" => {
                        // A constructor (`Self { .. }` in an impl) is kept whole.
                        let in_impl = !stack.is_empty();
                        if let Some(end) = end_of_braced(toks, i) {
                            let body = &toks[i..skip_to(toks, i, end)];
                            let builds_self = body
                                .windows(2)
                                .any(|w| w[0].is_ident(src, "Self") && w[1].is_punct(b'{'));
                            if (in_impl && builds_self) || keep_in_sparse(src, body) {
                                keep.push((start, end));
                            }
                            i = skip_to(toks, i, end);
                            item_start = None;
                            continue;
                        }
                    }
                    _ => {}
                }
            }
            Tok::Punct(b'{') => stack.push(Container::Body),
            Tok::Punct(b'}') => {
                if let Some(Container::Items) = stack.pop() {
                    keep.push((t.start as usize, t.end as usize));
                }
                item_start = None;
            }
            Tok::Punct(b';') => item_start = None,
            _ => {}
        }
        i += 1;
    }
    if keep.is_empty() {
        return None;
    }
    let mut out = vec![b' '; shadow.len()];
    for &(s, e) in &keep {
        if let (Some(dst), Some(from)) = (out.get_mut(s..e), shadow.get(s..e)) {
            dst.copy_from_slice(from);
        }
    }
    // Newlines keep tree-sitter's rows meaningful for error messages.
    for (o, b) in out.iter_mut().zip(src) {
        if *b == b'\n' {
            *o = b'\n';
        }
    }
    Some((out, disjoint(keep, shadow.len())))
}

/// `spans` sorted, clamped to `len`, and joined where they overlap.
fn disjoint(mut spans: Spans, len: usize) -> Spans {
    spans.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (s, e) in spans {
        let (s, e) = (s.min(len), e.min(len));
        if s >= e {
            continue;
        }
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

#[derive(Clone, Copy)]
enum Container {
    Items,
    Body,
}

/// The index after the token that ends at `end`.
fn skip_to(toks: &[Token], from: usize, end: usize) -> usize {
    let mut j = from;
    while j < toks.len() && (toks[j].end as usize) <= end {
        j += 1;
    }
    j
}

/// The end byte of a `;`-terminated item (braces nest), or of a macro's braces.
fn end_of_statement(toks: &[Token], from: usize, braces_end: bool) -> Option<usize> {
    let mut depth = 0i32;
    for t in &toks[from..] {
        match t.kind {
            Tok::Punct(b'{') | Tok::Punct(b'(') | Tok::Punct(b'[') => depth += 1,
            Tok::Punct(b'}') | Tok::Punct(b')') | Tok::Punct(b']') => {
                depth -= 1;
                if braces_end && depth == 0 {
                    return Some(t.end as usize);
                }
                if depth < 0 {
                    return None;
                }
            }
            Tok::Punct(b';') if depth == 0 => return Some(t.end as usize),
            _ => {}
        }
    }
    None
}

/// The end byte of an item with a braced body (or a `;` before any brace).
fn end_of_braced(toks: &[Token], from: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut opened = false;
    for t in &toks[from..] {
        match t.kind {
            Tok::Punct(b'{') => {
                depth += 1;
                opened = true;
            }
            Tok::Punct(b'}') => {
                depth -= 1;
                if opened && depth == 0 {
                    return Some(t.end as usize);
                }
            }
            Tok::Punct(b';') if !opened && depth == 0 => return Some(t.end as usize),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::syntax::lex::tokenize;
    use crate::scanner::syntax::parse::{parse, parse_reusing_within, ranges};

    /// Parsing only the kept ranges gives the tree the whole sparse text gives, at the
    /// same offsets and rows.
    #[test]
    fn the_kept_ranges_parse_as_the_sparse_text() {
        let src = "use a::b;\n\nfn long() {\n    let x = 1;\n    x + 2\n}\n\
            #[derive(Serialize)]\npub struct S { a: u8 }\n\
            impl S {\n    fn new() -> Self { Self { a: 1 } }\n    fn other(&self) { g() }\n}\n\
            mod m {\n    const T: &str = \"t\";\n}\n";
        let toks = tokenize(src.as_bytes());
        let (text, kept) = item_text(src.as_bytes(), &toks).expect("items");
        assert!(kept.windows(2).all(|w| w[0].1 <= w[1].0), "{kept:?}");
        let whole = parse(&text).expect("parses");
        let within = ranges(&text, &kept);
        let part = parse_reusing_within(&text, &within, None).expect("parses");
        assert_eq!(whole.root_node().to_sexp(), part.root_node().to_sexp());
        let spans = |t: &tree_sitter::Tree| {
            let mut out = Vec::new();
            let mut cursor = t.walk();
            loop {
                let n = cursor.node();
                out.push((n.kind(), n.start_byte(), n.end_byte(), n.start_position()));
                if cursor.goto_first_child() || cursor.goto_next_sibling() {
                    continue;
                }
                while cursor.goto_parent() && !cursor.goto_next_sibling() {}
                if cursor.node() == t.root_node() {
                    break;
                }
            }
            out
        };
        let (a, b) = (spans(&whole), spans(&part));
        // The root may cover the blanks around the items; every node below it is the same.
        assert_eq!(a[1..], b[1..]);
    }
}
