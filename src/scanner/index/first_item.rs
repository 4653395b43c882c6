//! Whether a sent read's response is used only for its first item: `items.first()`,
//! `.into_iter().next()`, `items[0]`, or one item taken off the end (`items.pop()`,
//! `items.last()`), through `let` bindings, `match`/`if let` on `Ok(..)`/`Some(..)`,
//! error mapping, `and_then` closures and an item-by-item conversion collected
//! (`items.iter().map(Into::into).collect()` then `.first()`). Such code wants one
//! item (a lookup by a value it expects to be unique), so the pages after the first
//! hold nothing it reads. Any other use of the response (iterating, filtering,
//! returning it, reading `last_evaluated_key`) makes the answer "no", except that a
//! private function of the file that returns the response (`async fn find(&self, ..)
//! -> Result<QueryOutput>`, a helper that sends and hands the page back) wants one item
//! when every call of it in the file does: no other file can call it. Counting the
//! items only to fail on more than one (`match items.len() { 0 => .., 1 => .., n =>
//! bail!(..) }`) reads none.

use tree_sitter::Node;

use crate::scanner::index::resolve::FileCx;
use crate::scanner::syntax::nodes::{
    ancestors, call_args, descendants, descendants_after, field, kind_id, named_children, Src,
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
    /// Returned from the function around it: what its callers do decides.
    Returned,
    /// Anything else, or a shape not followed.
    Other,
}

impl Use {
    /// Every use of one value together.
    fn and(self, other: Use) -> Use {
        match (self, other) {
            (Use::Other, _) | (_, Use::Other) => Use::Other,
            // Read here and handed back: the caller may read every item.
            (Use::First, Use::Returned) | (Use::Returned, Use::First) => Use::Other,
            (Use::Returned, _) | (_, Use::Returned) => Use::Returned,
            (Use::First, _) | (_, Use::First) => Use::First,
            _ => Use::Benign,
        }
    }
}

/// True when the value of `sent` (the `.send()` call, or the `.await`/`?` above it)
/// is read for its first item and no item past it.
pub fn reads_first_item(cx: &FileCx<'_>, sent: Node<'_>) -> bool {
    let src = cx.src;
    match follow(src, sent, Held::Response, 0) {
        Use::First => true,
        Use::Returned => callers_read_first(cx, sent, 0),
        _ => false,
    }
}

/// For a response that the function around `node` returns: whether that function is
/// private to the file (no `pub`, not a trait's method, which other code may call)
/// and each of its calls in the file, at least one, reads the first item at most. A
/// caller that returns it in turn is followed the same way (a helper two levels up).
fn callers_read_first(cx: &FileCx<'_>, node: Node<'_>, depth: usize) -> bool {
    let src = cx.src;
    if depth > MAX_DEPTH {
        return false;
    }
    let Some(func) = ancestors(src, node).find(|a| a.kind() == "function_item") else {
        return false;
    };
    let private = named_children(func)
        .iter()
        .all(|c| c.kind() != "visibility_modifier");
    let in_trait = ancestors(src, func)
        .find(|a| matches!(a.kind(), "impl_item" | "trait_item" | "function_item"))
        .is_some_and(|a| a.kind() == "trait_item" || field(a, "trait").is_some());
    let Some(name) = field(func, "name").map(|n| src.of(n)) else {
        return false;
    };
    if !private || in_trait {
        return false;
    }
    // A call elsewhere in the file: the edit of any item naming it indexes this again.
    cx.whole_file_lookup_of(name);
    let Some(root) = ancestors(src, func).last() else {
        return false;
    };
    let calls = descendants(root, &mut |n| {
        n.kind() == "call_expression"
            && field(n, "function").is_some_and(|f| callee_name(src, f) == Some(name))
    });
    !calls.is_empty()
        && calls
            .iter()
            .all(|c| match follow(src, *c, Held::Response, depth + 1) {
                Use::First => true,
                Use::Returned => callers_read_first(cx, *c, depth + 1),
                _ => false,
            })
}

/// The name a call's function part calls: `f`, `Self::f`, `self.f`, `repo.f`.
fn callee_name<'a>(src: Src<'a>, f: Node<'_>) -> Option<&'a str> {
    match f.kind() {
        "identifier" => Some(src.of(f)),
        "scoped_identifier" => field(f, "name").map(|n| src.of(n)),
        "field_expression" => field(f, "field").map(|n| src.of(n)),
        _ => None,
    }
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
        // The block's value: `async move { .. .send().await }`, a closure's `{ .. }`,
        // the function's own.
        "block" if is_tail(p, node) => match src.parent(p) {
            Some(a) if a.kind() == "async_block" => follow(src, a, held, depth + 1),
            Some(c) if c.kind() == "closure_expression" => follow(src, p, held, depth + 1),
            Some(f) if f.kind() == "function_item" && held == Held::Response => Use::Returned,
            _ => Use::Other,
        },
        // `return out;` from the function itself (not from a closure inside it).
        "return_expression" if held == Held::Response => {
            let around = ancestors(src, p)
                .find(|a| matches!(a.kind(), "function_item" | "closure_expression"));
            match around {
                Some(f) if f.kind() == "function_item" => Use::Returned,
                _ => Use::Other,
            }
        }
        // `Ok(out)`: the same value, wrapped.
        "arguments"
            if held == Held::Response
                && src.parent(p).is_some_and(|c| {
                    c.kind() == "call_expression"
                        && field(c, "function").is_some_and(|f| matches!(src.of(f), "Ok" | "Some"))
                        && call_args(c).len() == 1
                }) =>
        {
            match src.parent(p) {
                Some(c) => follow(src, c, held, depth + 1),
                None => Use::Other,
            }
        }
        // `|| client.query()..send()`: what each call of the closure returns.
        "closure_expression" if field(p, "body").is_some_and(|b| b.id() == node.id()) => {
            closure_calls(src, p, held, depth)
        }
        // `tokio::spawn(async move { .. })`: its handle, awaited, is the block's value
        // (the join error aside, which the unwrapping methods take off).
        "arguments" if node.kind() == "async_block" => match src.parent(p) {
            Some(call) if call.kind() == "call_expression" && is_spawn(src, call) => {
                follow(src, call, held, depth + 1)
            }
            _ => Use::Other,
        },
        _ => Use::Other,
    }
}

/// Whether `node` is the tail expression of `block` (its value).
fn is_tail(block: Node<'_>, node: Node<'_>) -> bool {
    let mut c = block.walk();
    let last = block
        .named_children(&mut c)
        .filter(|n| n.kind() != "line_comment" && n.kind() != "block_comment")
        .last();
    last.is_some_and(|l| l.id() == node.id())
}

/// `spawn(..)`, `tokio::spawn(..)`, `task::spawn(..)`: a task whose handle yields the
/// future's value.
fn is_spawn(src: Src<'_>, call: Node<'_>) -> bool {
    field(call, "function").is_some_and(|f| {
        let path = src.of(f);
        path == "spawn" || path.ends_with("::spawn")
    })
}

/// What the calls of `closure` do with the value it returns: `let f = || ..; f().await`
/// or `(|| ..)()`. Any other use of the closure (handed on, stored) is not followed.
fn closure_calls(src: Src<'_>, closure: Node<'_>, held: Held, depth: usize) -> Use {
    let Some(p) = src.parent(closure) else {
        return Use::Other;
    };
    match p.kind() {
        "parenthesized_expression" => match src.parent(p) {
            Some(call) if is_callee(call, p) => follow(src, call, held, depth + 1),
            _ => Use::Other,
        },
        "let_declaration" if field(p, "value").is_some_and(|v| v.id() == closure.id()) => {
            let (Some(name), Some(block)) = (
                field(p, "pattern").and_then(|pat| binding_name(src, pat)),
                src.parent(p),
            ) else {
                return Use::Other;
            };
            let ident = kind_id("identifier");
            let found = descendants_after(block, p.end_byte(), &mut |n| {
                n.kind_id() == ident && src.of(n) == name
            });
            let mut all = Use::Benign;
            for u in found {
                let used = match src.parent(u) {
                    Some(call) if is_callee(call, u) => follow(src, call, held, depth + 1),
                    _ => Use::Other,
                };
                all = all.and(used);
                if all == Use::Other {
                    break;
                }
            }
            all
        }
        _ => Use::Other,
    }
}

/// Whether `call` is a call of `f` (`f(..)`).
fn is_callee(call: Node<'_>, f: Node<'_>) -> bool {
    call.kind() == "call_expression" && field(call, "function").is_some_and(|x| x.id() == f.id())
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
        // `match items.len() { 0 => .., 1 => .., n => bail!(..) }`: more than one item
        // is an error, so the count reads none; the arms' own uses of the items decide.
        (Held::Items, "len") if rejects_more_than_one(src, call) => Use::Benign,
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

/// Whether `len` (an `items.len()` call) is matched on with arms for `0` and `1` only,
/// and a last arm for any other count that is an error: `Err(..)`, `return Err(..)`,
/// `bail!`, `panic!`, `unreachable!`. The code treats two items as impossible.
fn rejects_more_than_one(src: Src<'_>, len: Node<'_>) -> bool {
    let Some(m) = src
        .parent(len)
        .filter(|m| m.kind() == "match_expression")
        .filter(|m| field(*m, "value").is_some_and(|v| v.id() == len.id()))
    else {
        return false;
    };
    let arms: Vec<Node<'_>> = field(m, "body")
        .map(named_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|a| a.kind() == "match_arm")
        .collect();
    let Some((rest, counted)) = arms.split_last() else {
        return false;
    };
    let pattern = |a: &Node<'_>| field(*a, "pattern").map(|p| src.of(p).trim().to_string());
    let counts_one = counted
        .iter()
        .all(|a| pattern(a).is_some_and(|p| p == "0" || p == "1"));
    let any_other = pattern(rest).is_some_and(|p| {
        p == "_"
            || p.chars().all(|c| c.is_alphanumeric() || c == '_')
                && !p.starts_with(char::is_numeric)
    });
    counts_one
        && !counted.is_empty()
        && any_other
        && field(*rest, "value").is_some_and(|v| is_error(src, v))
}

/// An expression that only fails: `Err(..)`, `return Err(..)`, `bail!(..)`,
/// `panic!(..)`, `unreachable!(..)`, or a block whose value is one.
fn is_error(src: Src<'_>, e: Node<'_>) -> bool {
    match e.kind() {
        "block" => {
            let mut c = e.walk();
            let last = e
                .named_children(&mut c)
                .filter(|n| !n.kind().ends_with("comment"))
                .last();
            last.is_some_and(|l| match l.kind() {
                "expression_statement" => {
                    named_children(l).first().is_some_and(|x| is_error(src, *x))
                }
                _ => is_error(src, l),
            })
        }
        "return_expression" => named_children(e).first().is_some_and(|x| is_error(src, *x)),
        // The scanner reads a macro call as a call of its name (`anyhow::bail!(..)`).
        "call_expression" => field(e, "function").is_some_and(|f| fails(src.of(f))),
        "macro_invocation" => field(e, "macro").is_some_and(|m| fails(src.of(m))),
        _ => false,
    }
}

/// `Err`, or a macro that only fails (`bail!`, `anyhow::bail!`, `panic!`, `unreachable!`).
fn fails(callee: &str) -> bool {
    let name = callee.trim().trim_end_matches('!');
    name == "Err"
        || matches!(
            name.rsplit("::").next(),
            Some("bail" | "panic" | "unreachable")
        )
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
