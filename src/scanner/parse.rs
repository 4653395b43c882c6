//! One cached tree-sitter parser per thread (rayon workers parse without locks).

use std::cell::RefCell;

use tree_sitter::{Parser, Tree};

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses Rust source bytes; `None` only if tree-sitter itself gives up.
pub fn parse(text: &[u8]) -> Option<Tree> {
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
        parser.parse(text, None)
    })
}
