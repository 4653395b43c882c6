//! A large file parsed and indexed in pieces, in parallel: one tree-sitter parse of a
//! 6 MB file of generated calls is single-threaded and takes seconds, and its tree,
//! parent links and passes held a large part of `check`'s memory at once.
//!
//! [`split`] cuts the file between top-level items (found from the tokens, by bracket
//! depth); each piece is parsed alone, over the same text with tree-sitter's included
//! ranges, so its nodes keep the file's offsets, and indexed as a file of its own
//! (`index.rs`). The pieces' indexes are joined in file order. Every pass of the
//! index reads an item and what is inside it, never another top-level item, but for
//! a few lookups that search the whole file (a batch's same-file helper, an integer
//! constant by name); a piece that makes one (`FileCx::whole_file_lookup`), has a
//! syntax error (recovery could have read across a cut), or is otherwise not what
//! the whole parse would give, sends the file back to one whole parse.

use crate::scanner::syntax::lex::{Tok, Token};

/// When a file is cut, and into what.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    /// Files from this size on are indexed in pieces.
    pub min_file: usize,
    /// The size a piece aims at.
    pub piece: usize,
}

/// Files of 1 MB or more are cut (below that one parse is quick, and an ordinary
/// file's index stays what it always was: cutting files of a few KB, as this once did,
/// cost the 1x real tree a tenth of its index time) into pieces of about 4 KB, or a
/// [`MAX_PIECES`]th of the file. Small pieces keep a piece's tree, parent links and
/// passes in the processor's caches: the 40,000-call file took a fifth more CPU time
/// in pieces of 46 KB, its parse and the frees of its trees most of all, and about
/// the same in pieces of 2 KB (a piece's fixed costs: a tree, a context, its lists).
pub const SIZES: Sizes = Sizes {
    min_file: 1 << 20,
    piece: 4 << 10,
};

/// At most this many pieces, whatever the file's size (bounds the numbers pieces
/// give their references, see [`REF_STRIDE`]: they fit in 31 bits).
const MAX_PIECES: usize = 2048;

/// A piece's pending references are numbered from its position times this, so that
/// pieces indexed apart never give two references one number (`FileIndex::ref_pieces`
/// maps the numbers back). A piece with more references than this is indexed whole.
pub const REF_STRIDE: usize = 1 << 20;

/// Keywords that start a top-level item (or its visibility, attributes aside).
const ITEM_STARTS: &[&[u8]] = &[
    b"pub",
    b"fn",
    b"async",
    b"impl",
    b"struct",
    b"enum",
    b"union",
    b"mod",
    b"use",
    b"const",
    b"static",
    b"trait",
    b"type",
    b"extern",
    b"unsafe",
    b"macro_rules",
];

/// The byte ranges, covering the file, of pieces that end where a top-level item does
/// (a `}` or `;` at bracket depth 0 followed by an item's first token); `None` for a
/// file under `sizes.min_file`, or one whose brackets do not balance, or with a
/// `let` outside any item (a name lookup outside a function reads every top-level
/// statement before it), or without a place to cut.
pub fn split(src: &[u8], tokens: &[Token], sizes: Sizes) -> Option<Vec<(usize, usize)>> {
    if src.len() < sizes.min_file {
        return None;
    }
    let target = sizes.piece.max(src.len().div_ceil(MAX_PIECES)).max(1);
    cut(src, tokens, target)
}

/// The byte ranges of a file's top-level items, one piece each (an item's attributes
/// and the comments before it with it), for the LSP's re-index of an edited file
/// (`reindex.rs`): unlike [`split`]'s pieces, grouped by size from the start of the
/// file, where each cut is depends only on the tokens around it, so an edit moves no
/// cut but its own item's. `None` as for [`split`], or with more than [`MAX_PIECES`]
/// items.
pub fn items(src: &[u8], tokens: &[Token]) -> Option<Vec<(usize, usize)>> {
    cut(src, tokens, 1).filter(|pieces| pieces.len() <= MAX_PIECES)
}

/// Pieces of at least `target` bytes (the last one at least half that), cut as
/// [`split`] says.
fn cut(src: &[u8], tokens: &[Token], target: usize) -> Option<Vec<(usize, usize)>> {
    let mut depth = 0usize;
    let mut cuts: Vec<usize> = Vec::new();
    let mut last = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            Tok::Punct(b'(' | b'[' | b'{') => depth += 1,
            Tok::Punct(b')' | b']' | b'}') => depth = depth.checked_sub(1)?,
            Tok::Ident if depth == 0 && t.text(src) == b"let" => return None,
            _ => {}
        }
        let end = t.end as usize;
        if depth == 0
            && (t.is_punct(b'}') || t.is_punct(b';'))
            && end - last >= target
            && src.len() - end >= target / 2
            && tokens.get(i + 1).is_some_and(|n| starts_item(src, n))
        {
            cuts.push(end);
            last = end;
        }
    }
    if depth != 0 || cuts.is_empty() {
        return None;
    }
    let mut pieces = Vec::with_capacity(cuts.len() + 1);
    let mut start = 0;
    for cut in cuts {
        pieces.push((start, cut));
        start = cut;
    }
    pieces.push((start, src.len()));
    Some(pieces)
}

/// Whether a token can start a top-level item: an outer attribute's `#` or an item
/// keyword.
fn starts_item(src: &[u8], t: &Token) -> bool {
    t.is_punct(b'#') || (t.kind == Tok::Ident && ITEM_STARTS.contains(&t.text(src)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::syntax::lex::tokenize;

    const SMALL: Sizes = Sizes {
        min_file: 4096,
        piece: 1024,
    };

    fn big(item: &str) -> String {
        item.repeat(SMALL.min_file / item.len() + 1)
    }

    #[test]
    fn pieces_cover_the_file_and_end_after_items() {
        let text = big("#[inline]\npub fn f(c: &C) { c.query().send(); }\nstruct S;\n");
        let pieces = split(text.as_bytes(), &tokenize(text.as_bytes()), SMALL).expect("splits");
        assert!(pieces.len() >= 4, "{}", pieces.len());
        assert_eq!(pieces.first().map(|p| p.0), Some(0));
        assert_eq!(pieces.last().map(|p| p.1), Some(text.len()));
        for w in pieces.windows(2) {
            assert_eq!(w[0].1, w[1].0);
            let before = text[..w[0].1].trim_end();
            assert!(before.ends_with('}') || before.ends_with(';'), "{before}");
            let after = text[w[1].0..].trim_start();
            assert!(after.starts_with("#[inline]") || after.starts_with("struct"));
        }
    }

    /// An edit inside one item moves no other cut: each item is its own piece.
    #[test]
    fn items_are_cut_one_by_one() {
        let text = "use a::b;\n#[derive(X)]\nstruct S { a: u8 }\n// c\nfn f() { g(); }\nimpl S { fn h(&self) {} }\n";
        let cut = |t: &str| items(t.as_bytes(), &tokenize(t.as_bytes())).expect("cuts");
        let pieces = cut(text);
        let texts: Vec<&str> = pieces.iter().map(|(s, e)| &text[*s..*e]).collect();
        assert_eq!(
            texts,
            [
                "use a::b;",
                "\n#[derive(X)]\nstruct S { a: u8 }",
                "\n// c\nfn f() { g(); }",
                "\nimpl S { fn h(&self) {} }\n"
            ]
        );
        let grown = text.replace("g();", "g(); g2();");
        let after = cut(&grown);
        assert_eq!(after.len(), pieces.len());
        assert_eq!(after[..2], pieces[..2]);
        assert_eq!(&grown[after[3].0..after[3].1], texts[3]);
    }

    #[test]
    fn what_cannot_be_cut_safely_is_not() {
        let small = "fn f() {}\n".repeat(100);
        assert!(split(small.as_bytes(), &tokenize(small.as_bytes()), SMALL).is_none());
        let unbalanced = format!("{}}}", big("fn f() {}\n"));
        assert!(split(
            unbalanced.as_bytes(),
            &tokenize(unbalanced.as_bytes()),
            SMALL
        )
        .is_none());
        let open = format!("fn f() {{\n{}", big("fn g() {}\n"));
        assert!(split(open.as_bytes(), &tokenize(open.as_bytes()), SMALL).is_none());
        let top_let = format!("let x = 1;\n{}", big("fn g() {}\n"));
        assert!(split(top_let.as_bytes(), &tokenize(top_let.as_bytes()), SMALL).is_none());
        // One item, nowhere to cut.
        let one = format!("fn f() {{\n{}}}\n", big("    g();\n"));
        assert!(split(one.as_bytes(), &tokenize(one.as_bytes()), SMALL).is_none());
    }
}
