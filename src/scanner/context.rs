//! Where a call sits: its enclosing function (qualified by the impl), the loop around
//! it, and the marks that make it cold (tests, benches, examples, build scripts).

use std::path::Path;

use tree_sitter::Node;

use super::ir::{ColdReason, LoopInfo};
use super::resolve::type_name;
use super::syntax::{ancestors, descendants, field, named_children, span, Src};

/// Iterator and stream adaptors whose closure runs once per element.
const ADAPTORS: &[&str] = &[
    "for_each",
    "try_for_each",
    "map",
    "then",
    "and_then",
    "filter_map",
    "flat_map",
    "for_each_concurrent",
    "try_for_each_concurrent",
    "fold",
    "try_fold",
    "filter",
];

/// Calls that run a collection of futures: each element makes its own request.
const JOINERS: &[&str] = &[
    "join_all",
    "try_join_all",
    "select_all",
    "from_iter",
    "buffer_unordered",
    "buffered",
    "collect",
];

/// The qualified name of the function around `node`: `OrderRepo::list_open`.
pub fn enclosing_function(src: Src<'_>, node: Node<'_>) -> Option<String> {
    let f = ancestors(src, node).find(|a| a.kind() == "function_item")?;
    Some(qualified_fn_name(src, f))
}

/// `Type::name` for a method, `name` for a free function.
pub fn qualified_fn_name(src: Src<'_>, f: Node<'_>) -> String {
    let name = field(f, "name").map(|n| src.of(n)).unwrap_or("?");
    let imp = ancestors(src, f)
        .take_while(|a| a.kind() != "function_item")
        .find(|a| a.kind() == "impl_item");
    match imp.and_then(|i| field(i, "type")) {
        Some(t) => format!("{}::{name}", type_name(src.of(t))),
        None => name.to_string(),
    }
}

/// The innermost loop around `node` inside its function, if any.
pub fn enclosing_loop(src: Src<'_>, node: Node<'_>) -> Option<LoopInfo> {
    let mut prev = node;
    let mut adaptor: Option<LoopInfo> = None;
    for anc in ancestors(src, node) {
        match anc.kind() {
            "function_item" => break,
            "for_expression" | "while_expression" | "loop_expression" => {
                // The iterated expression of a `for` runs once; only its body loops.
                let in_head = anc.kind() == "for_expression"
                    && field(anc, "value").is_some_and(|v| v.id() == prev.id());
                if !in_head {
                    let kind = match anc.kind() {
                        "for_expression" => "for",
                        "while_expression" => "while",
                        _ => "loop",
                    };
                    return Some(adaptor.unwrap_or(LoopInfo {
                        kind: kind.to_string(),
                        span: span(anc),
                        caller: None,
                    }));
                }
            }
            "closure_expression" => {
                if let Some(info) = adaptor_loop(src, anc) {
                    if adaptor.is_none() {
                        adaptor = Some(info);
                    }
                }
            }
            "call_expression" => {
                let callee = field(anc, "function").map(|f| src.of(f)).unwrap_or("");
                let name = callee.rsplit(['.', ':']).next().unwrap_or("");
                if JOINERS.contains(&name)
                    && adaptor.is_some()
                    && name != "collect"
                    && name != "from_iter"
                {
                    return Some(LoopInfo {
                        kind: name.to_string(),
                        span: span(anc),
                        caller: None,
                    });
                }
            }
            _ => {}
        }
        prev = anc;
    }
    adaptor
}

/// A closure passed to `.map(..)`/`.for_each(..)` that awaits (or is an async block)
/// runs a request per element.
fn adaptor_loop(src: Src<'_>, closure: Node<'_>) -> Option<LoopInfo> {
    let args = src.parent(closure).filter(|p| p.kind() == "arguments")?;
    let call = src.parent(args)?;
    let f = field(call, "function")?;
    if f.kind() != "field_expression" {
        return None;
    }
    let name = src.of(field(f, "field")?);
    if !ADAPTORS.contains(&name) {
        return None;
    }
    let body = field(closure, "body")?;
    let awaits = body.kind() == "async_block"
        || src.of(closure).trim_start().starts_with("async")
        || !descendants(body, &mut |n| {
            n.kind() == "await_expression" || n.kind() == "async_block"
        })
        .is_empty();
    awaits.then(|| LoopInfo {
        kind: name.to_string(),
        span: span(call),
        caller: None,
    })
}

/// Whether a node is inside a `#[test]` fn or a `#[cfg(test)]` module.
pub fn is_test_code(src: Src<'_>, node: Node<'_>) -> bool {
    ancestors(src, node).any(|a| match a.kind() {
        "function_item" | "mod_item" => attributes_of(src, a).iter().any(|t| is_test_attr(t)),
        _ => false,
    })
}

/// `#[test]`, `#[tokio::test]`, `#[cfg(test)]`, `#[rstest]`...
pub fn is_test_attr(attr: &str) -> bool {
    let a = attr.trim();
    a == "test"
        || a.ends_with("::test")
        || a.starts_with("tokio::test")
        || a.starts_with("test(")
        || a.starts_with("rstest")
        || a.starts_with("cfg(test")
        || a.contains("cfg(all(test")
        || a.contains("cfg(any(test")
        || a.ends_with("::test(")
        || a.contains("::test(")
}

/// The attribute texts (inside `#[..]`) written just before an item.
pub fn attributes_of<'a>(src: Src<'a>, item: Node<'_>) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut cur = item.prev_sibling();
    while let Some(n) = cur {
        match n.kind() {
            "attribute_item" => {
                if let Some(a) = named_children(n)
                    .into_iter()
                    .find(|c| c.kind() == "attribute")
                {
                    out.push(src.of(a));
                }
            }
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        cur = n.prev_sibling();
    }
    out
}

/// Cold by where the file is: `tests/`, `benches/`, `examples/`, `build.rs`.
pub fn cold_by_path(path: &Path) -> Option<ColdReason> {
    let comps: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if comps.last().map(String::as_str) == Some("build.rs") {
        return Some(ColdReason::BuildScript);
    }
    let dirs = &comps[..comps.len().saturating_sub(1)];
    if dirs.iter().any(|c| c == "tests") {
        return Some(ColdReason::Test);
    }
    if dirs.iter().any(|c| c == "benches") {
        return Some(ColdReason::Bench);
    }
    if dirs.iter().any(|c| c == "examples") {
        return Some(ColdReason::Example);
    }
    None
}
