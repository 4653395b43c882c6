//! What the crate's own functions return, so a value built by a helper is followed:
//! `fn orders_table() -> String { env::var("ORDERS_TABLE").unwrap() }`,
//! `fn pk(id: &str) -> String { format!("USER#{id}") }` (the parameter stays a hole),
//! `fn table(&self) -> &str { &self.table }`.
//!
//! Per file, every function whose return type can carry a string (`String`, `&str`,
//! `Cow`, `AttributeValue`, or those inside `Option`/`Result`) records each value it can
//! return: the tail of its body, expanded through `if`/`match`/blocks, and every
//! `return`. The link phase resolves a call by path (like a constant) and accepts the
//! result only when every return path gives the same value; otherwise the value stays
//! unknown with that reason. `Err(..)` returns are left out: the caller's `?`,
//! `.unwrap()` or `.expect(..)` never sees them as a value.
//!
//! Also here: `OnceLock`/`OnceCell` statics, whose value is whatever some function
//! `set`s (or a `get_or_init` closure computes), recorded per file as [`OnceSet`]s.

use tree_sitter::Node;

use crate::scanner::index::resolve::{impl_type, FileCx, RefKind};
use crate::scanner::ir::{AttrMap, Resolved, ValueInfo};
use crate::scanner::syntax::lex::{Tok, Token};
use crate::scanner::syntax::nodes::{
    ancestors, call_args, field, last_segment, method_call, named_children, Src,
};

/// How deep `if`/`match`/block tails are expanded before a path counts as unreadable.
const MAX_TAIL_DEPTH: usize = 16;
/// Function bodies longer than this (in tokens) are not kept in a sparse file: helpers
/// that name a table or build a key are short, and a long body costs parse time.
const MAX_SPARSE_BODY_TOKENS: usize = 400;
/// Type names in a return type that can carry a string value.
const STRING_TYPES: &[&str] = &["str", "String", "Cow", "AttributeValue"];

/// The values one function can return.
#[derive(Debug, Clone)]
pub struct FnReturn {
    /// Module path, inline modules, the `impl` type for methods, then the name.
    pub path: crate::scanner::syntax::names::Path,
    /// The string each return path gives, in source order.
    pub strings: Vec<Resolved>,
    /// The same return paths as attribute values (type and provenance).
    pub values: Vec<ValueInfo>,
    /// For a function returning an item or key map (`HashMap<String,
    /// AttributeValue>`): the map each return path builds.
    pub maps: Vec<AttrMap>,
}

/// A `OnceLock`/`OnceCell` static given a value: `TABLE.set(v)`, `TABLE.get_or_init(|| v)`.
#[derive(Debug, Clone)]
pub struct OnceSet {
    /// The static as written at the call, resolved like a constant path.
    pub target: RefKind,
    pub value: Resolved,
}

/// Whether a return type (as written) can carry a string: the value itself, through
/// `Result`'s `Ok`, `Option`, references and smart pointers, not a string inside a
/// collection (`Result<BTreeMap<String, u64>, String>` returns no table name or key,
/// and resolving such functions in every file the pre-filter skipped was most of the
/// scanner's time on ordinary code).
pub fn returns_string(ty: &str) -> bool {
    !ty.contains("Builder") && !ty.contains("Future") && string_valued(ty, 0)
}

/// Whether a return type is an item or key map: `HashMap<String, AttributeValue>`
/// (or a `BTreeMap`/`IndexMap`), possibly inside `Result`/`Option`.
pub fn returns_item(ty: &str) -> bool {
    let t = ty.trim();
    let t = t
        .strip_prefix("Result<")
        .or_else(|| t.strip_prefix("Option<"))
        .or_else(|| t.strip_prefix("anyhow::Result<"))
        .unwrap_or(t)
        .trim_start();
    let base = t.split('<').next().unwrap_or(t);
    let base = base.rsplit("::").next().unwrap_or(base).trim();
    matches!(base, "HashMap" | "BTreeMap" | "IndexMap") && t.contains("AttributeValue")
}

/// Wrappers whose first type argument is the value a function gives.
const WRAPPERS: &[&str] = &[
    "Result", "Option", "Box", "Arc", "Rc", "Into", "AsRef", "ToString", "Display",
];

fn string_valued(ty: &str, depth: usize) -> bool {
    let mut t = ty.trim();
    loop {
        let before = t;
        t = t.trim_start_matches('&').trim_start();
        if let Some(rest) = t.strip_prefix('\'') {
            t = rest.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
        }
        for kw in ["mut ", "dyn ", "impl ", "const "] {
            t = t.strip_prefix(kw).unwrap_or(t).trim_start();
        }
        if t == before {
            break;
        }
    }
    let (path, args) = match t.find('<') {
        Some(i) => (&t[..i], t[i + 1..].strip_suffix('>').unwrap_or(&t[i + 1..])),
        None => (t, ""),
    };
    let base = path.rsplit("::").next().unwrap_or(path).trim();
    if STRING_TYPES.contains(&base) {
        return true;
    }
    if depth > 8 || !WRAPPERS.contains(&base) {
        return false;
    }
    // The first type argument, up to a `,` outside nested `<..>`/`(..)`.
    let mut level = 0i32;
    let end = args
        .char_indices()
        .find(|(_, c)| {
            match c {
                '<' | '(' | '[' => level += 1,
                '>' | ')' | ']' => level -= 1,
                ',' if level == 0 => return true,
                _ => {}
            }
            false
        })
        .map_or(args.len(), |(i, _)| i);
    string_valued(&args[..end], depth + 1)
}

/// For the sparse text of a file without calls: whether to keep a `fn` item
/// (`toks` from `fn` to its closing brace) — a short function returning a string, or
/// one that `set`s a `OnceLock` static.
pub fn keep_in_sparse(src: &[u8], toks: &[Token]) -> bool {
    let open = toks.iter().position(|t| t.is_punct(b'{'));
    let Some(open) = open else { return false };
    let head = &toks[..open];
    let arrow = head
        .windows(2)
        .position(|w| w[0].is_punct(b'-') && w[1].is_punct(b'>'));
    // The return type as written: from after `->` to the body or a `where`.
    let returns = arrow.is_some_and(|a| {
        let from = head.get(a + 2).map(|t| t.start as usize);
        let to = head[a..]
            .iter()
            .find(|t| t.is_ident(src, "where"))
            .or(toks.get(open))
            .map(|t| t.start as usize);
        match (from, to) {
            (Some(f), Some(e)) if f <= e => src
                .get(f..e)
                .and_then(|b| std::str::from_utf8(b).ok())
                .is_some_and(|t| returns_string(t) || returns_item(t)),
            _ => false,
        }
    });
    if returns && toks.len() - open <= MAX_SPARSE_BODY_TOKENS {
        return true;
    }
    // `NAME.set(..)` / `NAME.get_or_init(..)` on a SCREAMING_CASE static.
    let sets_once = toks[open..].windows(3).any(|w| {
        w[0].kind == Tok::Ident
            && is_screaming(w[0].text(src))
            && w[1].is_punct(b'.')
            && (w[2].is_ident(src, "set") || w[2].is_ident(src, "get_or_init"))
    });
    // `env::var(..)`: a set-up function handing configuration to a constructor
    // (`DynamoDBStore::new(client, std::env::var("TABLE_NAME")?)`), whose call's
    // arguments name the table (see `args.rs`).
    let reads_env = toks[open..].windows(4).any(|w| {
        w[0].is_ident(src, "env")
            && w[1].is_punct(b':')
            && w[2].is_punct(b':')
            && (w[3].is_ident(src, "var") || w[3].is_ident(src, "var_os"))
    });
    // A table name handed on from a parameter or a local (`get_items(client,
    // table_name, ..)`): the call's arguments are what the callee's table is.
    let names_table = toks[open..].iter().any(|t| {
        t.kind == Tok::Ident
            && t.text(src)
                .to_ascii_lowercase()
                .windows(5)
                .any(|w| w == b"table")
    });
    // A literal handed to a function or constructor (`ModelManager::new("orders",
    // &config)`), not to a macro (`info!("..")`).
    let passes_literal = toks[open..]
        .windows(3)
        .any(|w| w[0].kind == Tok::Ident && w[1].is_punct(b'(') && w[2].kind == Tok::Str);
    sets_once || reads_env || names_table || passes_literal
}

fn is_screaming(b: &[u8]) -> bool {
    b.iter().any(u8::is_ascii_uppercase)
        && b.iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
}

/// Every function of the file whose return type can carry a string, with what each
/// return path gives. `prefix` is the item path of a node (module, inline modules).
pub fn fn_returns(
    cx: &FileCx<'_>,
    nodes: &[Node<'_>],
    prefix: &dyn Fn(Node<'_>) -> Vec<String>,
) -> Vec<FnReturn> {
    let src = cx.src;
    let mut out = Vec::new();
    let function_k = crate::scanner::syntax::nodes::kind_id("function_item");
    for f in nodes.iter().copied().filter(|n| n.kind_id() == function_k) {
        let (Some(name), Some(ret), Some(body)) =
            (field(f, "name"), field(f, "return_type"), field(f, "body"))
        else {
            continue;
        };
        let ret = src.of(ret);
        let (string, map) = (returns_string(ret), returns_item(ret));
        if !string && !map {
            continue;
        }
        // A fn inside a fn body is local to it: not reachable by path.
        if ancestors(src, f).any(|a| a.kind() == "function_item") {
            continue;
        }
        let mut path = prefix(f);
        if let Some(t) = impl_type(src, f) {
            path.push(t);
        }
        path.push(src.of(name).to_string());
        let mut exprs = Vec::new();
        tails(src, body, &mut exprs, 0);
        returns_in(src, body, &mut exprs);
        exprs.sort_by_key(|e| e.start_byte());
        exprs.dedup_by_key(|e| e.id());
        let exprs: Vec<Node<'_>> = exprs.into_iter().filter(|e| !is_err(src, *e)).collect();
        let (strings, values, maps) = if string {
            (
                exprs.iter().map(|e| cx.string(*e)).collect(),
                exprs.iter().map(|e| cx.value(*e)).collect(),
                Vec::new(),
            )
        } else {
            let maps = exprs
                .iter()
                .map(|e| crate::scanner::index::items::attr_map(cx, ok_value(src, *e), false))
                .collect();
            (Vec::new(), Vec::new(), maps)
        };
        out.push(FnReturn {
            path: crate::scanner::syntax::names::intern_path(&path),
            strings,
            values,
            maps,
        });
    }
    out
}

/// The values a block or expression ends with, through `if`, `match` and blocks.
/// Diverging ends (`panic!`, `return` handled elsewhere, a loop's `continue`) add
/// nothing.
pub(crate) fn tails<'t>(src: Src<'t>, node: Node<'t>, out: &mut Vec<Node<'t>>, depth: usize) {
    if depth > MAX_TAIL_DEPTH {
        out.push(node);
        return;
    }
    match node.kind() {
        "block" | "unsafe_block" => {
            let block = if node.kind() == "unsafe_block" {
                named_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "block")
            } else {
                Some(node)
            };
            let Some(block) = block else { return };
            let last = named_children(block)
                .into_iter()
                .rfind(|c| !c.kind().ends_with("comment"));
            let Some(last) = last else { return };
            match last.kind() {
                // `if c { a } else { b }` at the end is a statement node without `;`.
                "expression_statement" => {
                    if !src.of(last).trim_end().ends_with(';') {
                        if let Some(inner) = named_children(last).into_iter().next() {
                            tails(src, inner, out, depth + 1);
                        }
                    }
                }
                k if k.ends_with("_item") || k == "let_declaration" => {}
                _ => tails(src, last, out, depth + 1),
            }
        }
        "if_expression" => {
            if let Some(c) = field(node, "consequence") {
                tails(src, c, out, depth + 1);
            }
            match field(node, "alternative") {
                Some(alt) => {
                    for c in named_children(alt) {
                        tails(src, c, out, depth + 1);
                    }
                }
                // No `else`: the value is `()` on that path; not a string function.
                None => out.push(node),
            }
        }
        "match_expression" => {
            let arms = field(node, "body").map(named_children).unwrap_or_default();
            for arm in arms.into_iter().filter(|a| a.kind() == "match_arm") {
                if let Some(v) = field(arm, "value") {
                    tails(src, v, out, depth + 1);
                }
            }
        }
        // Collected by `returns_in`, wherever they are.
        "return_expression" | "continue_expression" | "break_expression" => {}
        "macro_invocation" if diverges(src, node) => {}
        "call_expression" if exits(src, node) => {}
        _ => out.push(node),
    }
}

/// `std::process::exit(1)`, `process::abort()`: the program ends, no value.
fn exits(src: Src<'_>, call: Node<'_>) -> bool {
    let callee = field(call, "function").map(|f| src.of(f)).unwrap_or("");
    matches!(
        callee.split_whitespace().collect::<String>().as_str(),
        "std::process::exit" | "process::exit" | "std::process::abort" | "process::abort"
    )
}

/// `panic!`, `unreachable!`, `todo!`, `unimplemented!`, `bail!`: no value.
fn diverges(src: Src<'_>, mac: Node<'_>) -> bool {
    let name = field(mac, "macro").map(|m| src.of(m)).unwrap_or("");
    matches!(
        last_segment(name),
        "panic" | "unreachable" | "todo" | "unimplemented" | "bail"
    )
}

/// Every `return x` in a body, outside nested closures, async blocks and items.
fn returns_in<'t>(src: Src<'t>, body: Node<'t>, out: &mut Vec<Node<'t>>) {
    for r in own_returns(src, body) {
        if let Some(v) = named_children(r).into_iter().next() {
            tails(src, v, out, 0);
        }
    }
}

/// The `return` expressions of a body itself: none inside a nested closure, async
/// block or item, whose `return` leaves that instead.
pub(super) fn own_returns<'t>(src: Src<'t>, body: Node<'t>) -> Vec<Node<'t>> {
    let mut found =
        crate::scanner::syntax::nodes::descendants(body, &mut |n| n.kind() == "return_expression");
    found.retain(|r| {
        !ancestors(src, *r)
            .take_while(|a| a.id() != body.id())
            .any(|a| {
                matches!(
                    a.kind(),
                    "closure_expression" | "async_block" | "function_item" | "impl_item"
                )
            })
    });
    found
}

/// `Ok(x)` / `Some(x)` → `x`: the value a caller's `?` or `.unwrap()` sees.
fn ok_value<'t>(src: Src<'t>, n: Node<'t>) -> Node<'t> {
    let p = crate::scanner::syntax::nodes::peel(n);
    match crate::scanner::syntax::nodes::call_path(src, p) {
        Some(path) if matches!(last_segment(path), "Ok" | "Some") => {
            call_args(p).first().copied().unwrap_or(n)
        }
        _ => n,
    }
}

/// `Err(..)`: the error path, which never reaches the caller as a value.
fn is_err(src: Src<'_>, n: Node<'_>) -> bool {
    let n = crate::scanner::syntax::nodes::peel(n);
    crate::scanner::syntax::nodes::call_path(src, n).is_some_and(|p| last_segment(p) == "Err")
        || (n.kind() == "macro_invocation" && diverges(src, n))
}

/// `TABLE.set(v)`, `TABLE.get_or_init(|| v)` and `get_or_try_init` anywhere in the
/// file, on a receiver that names a static (SCREAMING_CASE).
pub fn once_sets(cx: &FileCx<'_>, nodes: &[Node<'_>]) -> Vec<OnceSet> {
    let src = cx.src;
    let mut out = Vec::new();
    // Every method of those names contains `set` or `init`: a file without either
    // has none, and the walk would name each of its calls for nothing.
    let text = cx.own_text();
    if !text.contains("set") && !text.contains("init") {
        return out;
    }
    for n in nodes.iter().copied() {
        // The name before anything is allocated.
        if !matches!(
            crate::scanner::syntax::nodes::method_name(src, n),
            Some("set" | "get_or_init" | "get_or_try_init")
        ) {
            continue;
        }
        let Some((recv, name, call)) = method_call(src, n) else {
            continue;
        };
        let recv = crate::scanner::syntax::nodes::peel(recv);
        if !matches!(recv.kind(), "identifier" | "scoped_identifier") {
            continue;
        }
        let text = src.of(recv);
        if !is_screaming(last_segment(text).as_bytes()) {
            continue;
        }
        let Some(arg) = call_args(call).first().copied() else {
            continue;
        };
        let value = if name == "set" {
            cx.string(arg)
        } else {
            match crate::scanner::index::resolve::closure_body(arg) {
                Some(b) => cx.string(b),
                None => Resolved::unknown(format!(
                    "`{text}` is initialised by a function dynalint does not follow"
                )),
            }
        };
        out.push(OnceSet {
            target: cx.path_ref(recv),
            value,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::returns_string;

    #[test]
    fn string_return_types() {
        for t in [
            "String",
            "&str",
            "&'static str",
            "Cow<'static, str>",
            "std::borrow::Cow<str>",
            "Result<String, Error>",
            "anyhow::Result<String>",
            "Option<&'a str>",
            "AttributeValue",
            "Result<Option<String>, E>",
        ] {
            assert!(returns_string(t), "{t}");
        }
        for t in [
            "Result<BTreeMap<String, u64>, String>",
            "Vec<String>",
            "usize",
            "HashMap<String, AttributeValue>",
            "QueryFluentBuilder",
            "impl Future<Output = String>",
        ] {
            assert!(!returns_string(t), "{t}");
        }
    }
}
