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
