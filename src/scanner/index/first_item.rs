//! Whether a sent read's response is used only for its first item: `items.first()`,
//! `.into_iter().next()`, `items[0]`, or one item taken off the end (`items.pop()`,
//! `items.last()`), through `let` bindings, `match`/`if let` on `Ok(..)`/`Some(..)`,
//! error mapping, `and_then` closures and an item-by-item conversion collected
//! (`items.iter().map(Into::into).collect()` then `.first()`). Such code wants one
//! item (a lookup by a value it expects to be unique), so the pages after the first
//! hold nothing it reads. Any other use of the response (iterating, filtering,
//! returning it, reading `last_evaluated_key`) makes the answer "no".

use tree_sitter::Node;

use crate::scanner::syntax::nodes::{
    ancestors, call_args, descendants_after, field, kind_id, named_children, Src,
};

/// How deep bindings, closures and wrappers are followed.
const MAX_DEPTH: usize = 24;

/// The value held at a point of the code.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held {
    /// The response (`QueryOutput`, or a `Result`/`Option` of it).
    Response,
    /// Its items (`Option<Vec<_>>`, `&[_]`, `Vec<_>`).
    Items,
    /// An iterator over its items.
    Iter,
}

/// What one use of a value does with it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    /// Reads one item of the page (the first, or the last taken off it) and no other.
    First,
    /// Reads no item: an `is_empty()` check.
    Benign,
    /// Anything else, or a shape not followed.
    Other,
}

impl Use {
    /// Every use of one value together.
    fn and(self, other: Use) -> Use {
        match (self, other) {
            (Use::Other, _) | (_, Use::Other) => Use::Other,
            (Use::First, _) | (_, Use::First) => Use::First,
            _ => Use::Benign,
        }
    }
}

/// True when the value of `sent` (the `.send()` call, or the `.await`/`?` above it)
/// is read for its first item and no item past it.
pub fn reads_first_item(src: Src<'_>, sent: Node<'_>) -> bool {
    follow(src, sent, Held::Response, 0) == Use::First
}

/// What the code does with `node`, whose value is `held`.
fn follow(src: Src<'_>, node: Node<'_>, held: Held, depth: usize) -> Use {
    if depth > MAX_DEPTH {
        return Use::Other;
    }
    let Some(p) = src.parent(node) else {
        return Use::Other;
    };
    match p.kind() {
        "await_expression"
        | "try_expression"
        | "parenthesized_expression"
        | "reference_expression" => follow(src, p, held, depth + 1),
        "field_expression" if field(p, "value").is_some_and(|v| v.id() == node.id()) => {
            let name = field(p, "field").map(|f| src.of(f)).unwrap_or("");
            let call = src.parent(p).filter(|c| {
                c.kind() == "call_expression"
                    && field(*c, "function").is_some_and(|f| f.id() == p.id())
            });
            match call {
                Some(call) => method(src, call, name, held, depth),
                // `out.items`: the field of the response.
                None if held == Held::Response && name == "items" => {
                    follow(src, p, Held::Items, depth + 1)
                }
                None => Use::Other,
            }
        }
        "index_expression"
            if held == Held::Items
                && named_children(p)
                    .first()
                    .is_some_and(|v| v.id() == node.id())
                && named_children(p).get(1).is_some_and(|i| src.of(*i) == "0") =>
        {
            Use::First
        }
        "let_declaration" if field(p, "value").is_some_and(|v| v.id() == node.id()) => {
            match (field(p, "pattern"), src.parent(p)) {
                (Some(pat), Some(block)) => match binding_name(src, pat) {
                    Some(name) => uses(src, block, p.end_byte(), name, held, depth),
                    None => Use::Other,
                },
                _ => Use::Other,
            }
        }
        // `if let Some(items) = out.items { .. }`
        "let_condition" if field(p, "value").is_some_and(|v| v.id() == node.id()) => {
            let Some(name) = field(p, "pattern").and_then(|pat| unwrapped_name(src, pat)) else {
                return Use::Other;
            };
            let body = ancestors(src, p)
                .find(|a| a.kind() == "if_expression")
                .and_then(|i| field(i, "consequence"));
            match body {
                Some(b) => uses(src, b, b.start_byte(), name, held, depth),
                None => Use::Other,
            }
        }
        // `match out { Ok(out) => .., Err(e) => .. }`
        "match_expression" if field(p, "value").is_some_and(|v| v.id() == node.id()) => {
            let arms = field(p, "body").map(named_children).unwrap_or_default();
            let mut all = Use::Benign;
            for arm in arms.iter().filter(|a| a.kind() == "match_arm") {
                let Some(pat) = field(*arm, "pattern") else {
                    return Use::Other;
                };
                let Some(value) = field(*arm, "value") else {
                    return Use::Other;
                };
                let pat = named_children(pat).into_iter().next().unwrap_or(pat);
                if binds_nothing(src, pat) {
                    continue;
                }
                match unwrapped_name(src, pat) {
                    Some(name) => {
                        all = all.and(uses(src, value, value.start_byte(), name, held, depth))
                    }
                    None => return Use::Other,
                }
            }
            all
        }
        _ => Use::Other,
    }
}

/// `recv.name(..)` where `recv` holds `held`.
fn method(src: Src<'_>, call: Node<'_>, name: &str, held: Held, depth: usize) -> Use {
    match (held, name) {
        // Error mapping and unwrapping keep the value.
        (
            _,
            "map_err" | "context" | "with_context" | "expect" | "unwrap" | "ok" | "ok_or"
            | "ok_or_else" | "unwrap_or_default" | "as_ref" | "as_deref" | "as_slice",
        ) => follow(src, call, held, depth + 1),
        (Held::Response, "items") => follow(src, call, Held::Items, depth + 1),
        // One item off either end: the code wants one, and any item of the first page
        // is as good as one on a later page.
        (Held::Items, "first" | "last" | "pop") => Use::First,
        (Held::Items, "get") => match call_args(call).as_slice() {
            [i] if src.of(*i) == "0" => Use::First,
            _ => Use::Other,
        },
        (Held::Items, "is_empty") => Use::Benign,
        (Held::Items, "iter" | "into_iter") => follow(src, call, Held::Iter, depth + 1),
        (Held::Iter, "next") => Use::First,
        // Converting each item keeps one item per item, in order: `.first()` of the
        // collected `Vec` is still the page's first. (A `filter` could skip to a later
        // page's match, so it is not followed.)
        (Held::Iter, "map" | "cloned" | "copied") if maps_each_item(src, call) => {
            follow(src, call, Held::Iter, depth + 1)
        }
        (Held::Iter, "collect") => follow(src, call, Held::Items, depth + 1),
        // `.and_then(|items| items.into_iter().next())`: the closure's parameter holds
        // the same value, unwrapped.
        (_, "and_then" | "map") => {
            let Some(closure) = call_args(call)
                .into_iter()
                .next()
                .filter(|c| c.kind() == "closure_expression")
            else {
                return Use::Other;
            };
            let params = field(closure, "parameters")
                .map(named_children)
                .unwrap_or_default();
            let [param] = params.as_slice() else {
                return Use::Other;
            };
            let (Some(name), Some(body)) = (binding_name(src, *param), field(closure, "body"))
            else {
                return Use::Other;
            };
            match uses(src, body, body.start_byte(), name, held, depth) {
                // The closure's value is the first item (or a value read from it).
                Use::First => Use::First,
                _ => Use::Other,
            }
        }
        _ => Use::Other,
    }
}

/// `.map(f)` with a path (`Into::into`, `to_json`) or a closure of one parameter;
/// `.cloned()` / `.copied()` with no argument.
fn maps_each_item(src: Src<'_>, call: Node<'_>) -> bool {
    match call_args(call).as_slice() {
        [] => true,
        [f] if matches!(f.kind(), "identifier" | "scoped_identifier") => true,
        [f] if f.kind() == "closure_expression" => {
            let params = field(*f, "parameters")
                .map(named_children)
                .unwrap_or_default();
            matches!(params.as_slice(), [p] if binding_name(src, *p).is_some())
        }
        _ => false,
    }
}

/// Every use of variable `name` in `scope` from byte `after`, together.
fn uses(src: Src<'_>, scope: Node<'_>, after: usize, name: &str, held: Held, depth: usize) -> Use {
    let ident = kind_id("identifier");
    let found = descendants_after(scope, after, &mut |n| {
        n.kind_id() == ident && src.of(n) == name
    });
    let mut all = Use::Benign;
    for u in found {
        all = all.and(follow(src, u, held, depth + 1));
        if all == Use::Other {
            break;
        }
    }
    all
}

/// `x`, `mut x`: the name a simple pattern binds.
fn binding_name<'a>(src: Src<'a>, pat: Node<'_>) -> Option<&'a str> {
    let pat = if pat.kind() == "parameter" {
        field(pat, "pattern")?
    } else {
        pat
    };
    let text = src.of(pat).trim();
    let name = text.strip_prefix("mut ").unwrap_or(text).trim();
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(name)
}

/// `Some(x)` / `Ok(x)`: the name bound inside.
fn unwrapped_name<'a>(src: Src<'a>, pat: Node<'_>) -> Option<&'a str> {
    if pat.kind() != "tuple_struct_pattern" {
        return None;
    }
    let ty = field(pat, "type").map(|t| src.of(t))?;
    if !matches!(ty, "Some" | "Ok") {
        return None;
    }
    let inner: Vec<Node<'_>> = named_children(pat)
        .into_iter()
        .filter(|c| field(pat, "type").is_none_or(|t| t.id() != c.id()))
        .collect();
    match inner.as_slice() {
        [one] => binding_name(src, *one),
        _ => None,
    }
}

/// `Err(e)`, `None`, `_`: an arm that does not hold the value.
fn binds_nothing(src: Src<'_>, pat: Node<'_>) -> bool {
    match pat.kind() {
        "tuple_struct_pattern" => field(pat, "type").is_some_and(|t| src.of(t) == "Err"),
        "identifier" => src.of(pat) == "None",
        _ => src.of(pat).trim() == "_",
    }
}
