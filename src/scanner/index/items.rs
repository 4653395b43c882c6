//! Item and key contents: `HashMap::from([..])`, `.insert(k, v)` on a map later passed
//! in, `hashmap!`-style macros, and `serde_dynamo::to_item(x)` with `x`'s struct and its
//! serde attributes (applied in the link phase, where every struct of the crate is known).

use tree_sitter::Node;

use crate::attr::AttributeType;
use crate::scanner::index::context::attributes_of;
use crate::scanner::index::resolve::{type_name, FileCx};
use crate::scanner::ir::{AttrArg, AttrMap, Provenance, Resolved, ValueInfo};
use crate::scanner::syntax::lex::MAP_MACROS;
use crate::scanner::syntax::nodes::{
    call_args, call_path, descendants_between, field, last_segment, method_call, named_children,
    peel, span, type_segment, Src,
};
use crate::scanner::syntax::scope::{lookup, Binding};
use crate::source::Span;

/// A struct of the crate that may be serialised into an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructDef {
    pub name: String,
    /// `#[serde(rename_all = "..")]` on the struct.
    pub rename_all: Option<String>,
    /// `#[serde(into = "..")]`, `transparent`, `tag = ".."`, `remote = ".."`: serde
    /// writes something other than the fields as declared.
    pub custom: bool,
    /// `#[derive(Default)]`: values may be built without a struct literal.
    pub default: bool,
    pub fields: Vec<FieldDef>,
}

/// One field with what serde does to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldDef {
    pub name: String,
    pub ty: String,
    pub rename: Option<String>,
    pub skip_if: bool,
    pub skip: bool,
    pub flatten: bool,
    /// `#[serde(with = "..")]` / `serialize_with`: the written type is the function's.
    pub custom: bool,
    pub span: Span,
}

/// `(key, value, conditional)` entries of a map expression, and whether they are all.
pub fn entries<'t>(
    cx: &FileCx<'t>,
    node: Node<'t>,
    depth: usize,
) -> (Vec<(Node<'t>, Node<'t>, bool)>, bool) {
    let mut serde = None;
    let (out, complete) = entries_in(cx, node, depth, Some(&mut serde));
    (out, complete && serde.is_none())
}

/// A map local extended by one serialised struct (`item.extend(to_item(query)?)`):
/// how many entries come before the `extend`, and the struct's map.
type SerdeExtend = Option<(usize, AttrMap)>;

/// [`entries`], with the one serialised struct a map local is extended by (on every
/// path) given apart in `serde` rather than making the map incomplete.
fn entries_in<'t>(
    cx: &FileCx<'t>,
    node: Node<'t>,
    depth: usize,
    mut serde: Option<&mut SerdeExtend>,
) -> (Vec<(Node<'t>, Node<'t>, bool)>, bool) {
    let src = cx.src;
    if depth > 8 {
        return (Vec::new(), false);
    }
    let node = peel(node);
    if let Some(path) = call_path(src, node) {
        let last = last_segment(path);
        let args = call_args(node);
        match last {
            "Some" | "from" | "from_iter" if args.len() == 1 => {
                return entries(cx, args[0], depth + 1);
            }
            "new" | "with_capacity" | "default" => return (Vec::new(), true),
            _ => return (Vec::new(), false),
        }
    }
    if let Some((recv, name, _)) = method_call(src, node) {
        if matches!(
            name.as_str(),
            "collect" | "into_iter" | "clone" | "into" | "to_owned" | "iter" | "cloned"
        ) {
            // A copy keeps what the map is extended by (`let owned = item.to_owned()`,
            // as a spawned task takes what it reads).
            return entries_in(cx, recv, depth + 1, serde);
        }
        return (Vec::new(), false);
    }
    match node.kind() {
        "array_expression" => {
            let elems: Vec<Node<'t>> = named_children(node)
                .into_iter()
                .filter(|c| !c.kind().ends_with("comment") && c.kind() != "attribute_item")
                .collect();
            let before = src.text.get(..node.start_byte()).unwrap_or("").trim_end();
            let is_map_macro = before.ends_with('!')
                && MAP_MACROS
                    .iter()
                    .any(|m| before.trim_end_matches('!').ends_with(m));
            if is_map_macro {
                let pairs = elems
                    .chunks(2)
                    .filter(|c| c.len() == 2)
                    .map(|c| (c[0], c[1], false))
                    .collect();
                return (pairs, elems.len().is_multiple_of(2));
            }
            let mut out = Vec::new();
            let mut complete = true;
            for e in elems {
                let e = peel(e);
                let parts: Vec<Node<'t>> = named_children(e)
                    .into_iter()
                    .filter(|c| !c.kind().ends_with("comment"))
                    .collect();
                if e.kind() == "tuple_expression" && parts.len() == 2 {
                    out.push((parts[0], parts[1], false));
                } else {
                    complete = false;
                }
            }
            (out, complete)
        }
        "identifier" => {
            let name = src.of(node);
            match lookup(src, node, name) {
                Some(Binding::Let { decl, value, .. }) => {
                    let (mut out, mut complete) = match value {
                        Some(v) => entries_in(cx, v, depth + 1, serde.as_deref_mut()),
                        None => (Vec::new(), true),
                    };
                    let Some(block) = src.parent(decl) else {
                        return (out, false);
                    };
                    let (from, to) = (decl.end_byte(), node.start_byte());
                    for call in
                        descendants_between(block, from, to, &mut |n| n.kind() == "call_expression")
                    {
                        let Some((recv, m, c)) = method_call(src, call) else {
                            continue;
                        };
                        if src.of(peel(recv)) != name {
                            continue;
                        }
                        let args = call_args(c);
                        match (m.as_str(), args.as_slice()) {
                            ("insert", [k, v]) => {
                                out.push((*k, *v, in_branch_between(src, call, block)))
                            }
                            ("extend", [m]) => {
                                let (more, c2) = entries(cx, *m, depth + 1);
                                if more.is_empty() && !c2 && !in_branch_between(src, call, block) {
                                    if let Some(slot) = serde.as_deref_mut().filter(|s| s.is_none())
                                    {
                                        if let Some(map) = serialised(cx, *m) {
                                            *slot = Some((out.len(), map));
                                            continue;
                                        }
                                    }
                                }
                                out.extend(more);
                                complete &= c2;
                            }
                            // Reads leave the map as it is; any other method (`push`
                            // on what is a list, `entry(..).or_insert(..)`, `remove`)
                            // changes it in a way not followed here.
                            (
                                "get" | "get_key_value" | "contains_key" | "len" | "is_empty"
                                | "iter" | "keys" | "values" | "clone" | "to_owned",
                                _,
                            ) => {}
                            _ => complete = false,
                        }
                    }
                    // Lent mutably (`add_keys(&mut item)`) or assigned again: entries
                    // the scanner does not see may be added.
                    let changed_elsewhere = !descendants_between(block, from, to, &mut |n| {
                        let lent = n.kind() == "reference_expression"
                            && src.of(n).starts_with("&mut")
                            && field(n, "value").is_some_and(|v| src.of(peel(v)) == name);
                        let assigned = matches!(
                            n.kind(),
                            "assignment_expression" | "compound_assignment_expr"
                        ) && field(n, "left")
                            .is_some_and(|l| src.of(peel(l)) == name);
                        lent || assigned
                    })
                    .is_empty();
                    (out, complete && !changed_elsewhere)
                }
                _ => (Vec::new(), false),
            }
        }
        _ => (Vec::new(), false),
    }
}

fn in_branch_between(src: Src<'_>, node: Node<'_>, block: Node<'_>) -> bool {
    for a in crate::scanner::syntax::nodes::ancestors(src, node) {
        if a.id() == block.id() {
            return false;
        }
        if matches!(
            a.kind(),
            "if_expression" | "match_arm" | "else_clause" | "for_expression" | "while_expression"
        ) {
            return true;
        }
    }
    false
}

/// The entries only (for names and values maps).
pub fn map_entries<'t>(
    cx: &FileCx<'t>,
    node: Node<'t>,
    depth: usize,
) -> Vec<(Node<'t>, Node<'t>, bool)> {
    entries(cx, node, depth).0
}

/// An item or key map from an expression: entries, or a serialised struct.
pub fn attr_map(cx: &FileCx<'_>, node: Node<'_>, conditional: bool) -> AttrMap {
    let src = cx.src;
    let p = peel(node);
    // `Some(item)`: the map it holds (an argument handed to a helper's
    // `.set_item(item)`, whose parameter is the `Option`).
    if call_path(src, p).is_some_and(|c| c == "Some") {
        if let [inner] = call_args(p).as_slice() {
            return attr_map(cx, *inner, conditional);
        }
    }
    if let Some(m) = serde_item(cx, p) {
        return m;
    }
    // `to_item(x)?` behind a `let`, or a copy of one (`let owned = item.to_owned();`,
    // as a task or closure takes what it reads).
    let mut at = p;
    for _ in 0..4 {
        let next = match method_call(src, at) {
            Some((recv, m, call))
                if matches!(m.as_str(), "clone" | "to_owned") && call_args(call).is_empty() =>
            {
                peel(recv)
            }
            _ if at.kind() == "identifier" => match lookup(src, at, src.of(at)) {
                Some(Binding::Let { value: Some(v), .. }) => peel(v),
                _ => break,
            },
            _ => break,
        };
        if let Some(m) = serde_item(cx, next) {
            return m;
        }
        at = next;
    }
    // A map a helper is given (`set_item(Some(item))` with `item` its parameter): the
    // link puts in what each call that binds it passes.
    if let Some(reason) = param_map(cx, node, 0) {
        return AttrMap {
            attributes: Vec::new(),
            complete: false,
            from_type: Some(reason),
            serde_at: None,
        };
    }
    let mut serde = None;
    let (es, complete) = entries_in(cx, node, 0, Some(&mut serde));
    // The rest of the map known, and a struct it is extended by: the link phase puts
    // the struct's attributes in at their place (`serde_at`).
    let (complete, from_type, serde_at) = match serde {
        Some((at, m)) if complete => (false, m.from_type, Some(at)),
        Some(_) => (false, None, None),
        None => (complete, None, None),
    };
    if es.is_empty() && !complete && serde_at.is_none() {
        // A map a function of the crate builds: the link phase puts in what it returns
        // (the reference rides in `from_type` until then).
        if let Some(Resolved::Unknown { reason }) = map_call(cx, node, 0).and_then(|c| cx.fn_ref(c))
        {
            return AttrMap {
                attributes: Vec::new(),
                complete: false,
                from_type: Some(reason),
                serde_at: None,
            };
        }
    }
    AttrMap {
        attributes: es
            .into_iter()
            .map(|(k, v, c)| AttrArg {
                name: cx.string(k),
                value: cx.value(v),
                span: span(k).cover(span(v)),
                conditional: conditional || c,
            })
            .collect(),
        complete,
        from_type,
        serde_at,
    }
}

/// The serialised struct a map expression is: `to_item(x)?`, or a call of a function
/// of this file that only serialises one of its parameters (`fn model_attributes<T:
/// Serialize>(value: &T) -> Result<Item> { to_item(value).context(..) }`), the
/// argument's type being the caller's.
fn serialised(cx: &FileCx<'_>, node: Node<'_>) -> Option<AttrMap> {
    let src = cx.src;
    let p = peel(node);
    if let Some(m) = serde_item(cx, p) {
        return Some(m);
    }
    let p = match method_call(src, p) {
        Some((recv, m, _)) if matches!(m.as_str(), "unwrap" | "expect" | "map_err" | "context") => {
            peel(recv)
        }
        _ => p,
    };
    let path = call_path(src, p)?;
    if path.contains("::") || path == "to_item" {
        return None;
    }
    let root = crate::scanner::syntax::nodes::ancestors(src, p).last()?;
    let [(start, end)] = cx.functions(root).get(path)?.as_slice() else {
        return None;
    };
    let f = std::iter::successors(root.descendant_for_byte_range(*start, *end), |n| n.parent())
        .find(|n| n.kind() == "function_item" && n.start_byte() == *start)?;
    let params: Vec<Node<'_>> = named_children(field(f, "parameters")?)
        .into_iter()
        .filter(|c| c.kind() == "parameter")
        .collect();
    let mut ends = Vec::new();
    crate::scanner::index::returns::tails(src, field(f, "body")?, &mut ends, 0);
    let [tail] = ends.as_slice() else {
        return None;
    };
    let tail = match call_path(src, peel(*tail)) {
        Some("Ok") => peel(*call_args(peel(*tail)).first()?),
        _ => peel(*tail),
    };
    let inner = serde_item(cx, tail)?;
    // The serialised value must be a parameter: its type is what the caller passes.
    let (_, to_item_call) = serde_call(src, tail)?;
    let arg = copied(src, peel(*call_args(to_item_call).first()?));
    if arg.kind() != "identifier" {
        return None;
    }
    let i = params.iter().position(|q| {
        field(*q, "pattern")
            .is_some_and(|pat| src.of(pat).trim_start_matches("mut ") == src.of(arg))
    })?;
    let passed = copied(src, peel(*call_args(p).get(i)?));
    Some(AttrMap {
        from_type: Some(value_type(cx, passed).unwrap_or_else(|| format!("?{}", src.of(passed)))),
        ..inner
    })
}

/// The pending reference to the parameter a map is (`p` or `Some(p)`): see
/// [`FileCx::value_param_ref`].
fn param_map(cx: &FileCx<'_>, node: Node<'_>, depth: usize) -> Option<String> {
    let src = cx.src;
    let p = peel(node);
    if depth < 2 && call_path(src, p).is_some_and(|c| c == "Some") {
        return match call_args(p).as_slice() {
            [inner] => param_map(cx, *inner, depth + 1),
            _ => None,
        };
    }
    if p.kind() != "identifier" {
        return None;
    }
    let name = src.of(p);
    if !matches!(lookup(src, p, name), Some(Binding::Param { .. })) {
        return None;
    }
    match cx.pending(name, cx.value_param_ref(p, name)?) {
        Resolved::Unknown { reason } => Some(reason),
        _ => None,
    }
}

/// The keys of a `KeysAndAttributes` given as a list (`.set_keys(Some(keys))`), as the
/// one key map its child request stands for: the attributes every element of the list
/// has, each with its value when all elements agree on it. The elements are followed
/// through `vec![..]` and `let mut keys = Vec::new(); keys.push(key);`; a list built any
/// other way (or elements that do not all have the same attributes) is an incomplete
/// map, so nothing is concluded from it.
pub fn key_list_map(cx: &FileCx<'_>, node: Node<'_>, conditional: bool) -> AttrMap {
    let unknown = AttrMap {
        attributes: Vec::new(),
        complete: false,
        from_type: None,
        serde_at: None,
    };
    let Some(elements) = list_elements(cx, node, 0) else {
        return unknown;
    };
    let maps: Vec<AttrMap> = elements
        .into_iter()
        .map(|e| attr_map(cx, e, conditional))
        .collect();
    let Some((first, rest)) = maps.split_first() else {
        return unknown;
    };
    let names = |m: &AttrMap| {
        let mut n: Vec<Option<String>> = m
            .attributes
            .iter()
            .map(|a| a.name.value().map(str::to_string))
            .collect();
        n.sort();
        n
    };
    let same_names = rest.iter().all(|m| names(m) == names(first));
    if !same_names || maps.iter().any(|m| !m.complete || m.from_type.is_some()) {
        return unknown;
    }
    let mut out = first.clone();
    for a in &mut out.attributes {
        let others = rest
            .iter()
            .filter_map(|m| m.attributes.iter().find(|b| b.name == a.name));
        for b in others {
            if b.value.literal != a.value.literal {
                a.value.literal = None;
                a.value.text = None;
            }
            if b.value.ty != a.value.ty {
                a.value.ty = None;
            }
        }
    }
    out
}

/// The elements of a list expression: a `vec![..]` or array literal, through `Some(..)`,
/// or a `let` binding of one (or of `Vec::new()`) with the `push`es made to it before
/// `node`. `None` when the list may hold anything else.
fn list_elements<'t>(cx: &FileCx<'t>, node: Node<'t>, depth: usize) -> Option<Vec<Node<'t>>> {
    let src = cx.src;
    if depth > 4 {
        return None;
    }
    let node = peel(node);
    if let Some(path) = call_path(src, node) {
        let args = call_args(node);
        return match (last_segment(path), args.as_slice()) {
            ("Some", [a]) => list_elements(cx, *a, depth + 1),
            ("new" | "with_capacity", _) => Some(Vec::new()),
            _ => None,
        };
    }
    match node.kind() {
        "array_expression" if field(node, "length").is_none() => Some(
            named_children(node)
                .into_iter()
                .filter(|c| !c.kind().ends_with("comment") && c.kind() != "attribute_item")
                .collect(),
        ),
        "identifier" => {
            let name = src.of(node);
            let Some(Binding::Let {
                decl,
                value: Some(v),
                ..
            }) = lookup(src, node, name)
            else {
                return None;
            };
            let mut out = list_elements(cx, v, depth + 1)?;
            let block = src.parent(decl)?;
            let (from, to) = (decl.end_byte(), node.start_byte());
            for call in descendants_between(block, from, to, &mut |n| n.kind() == "call_expression")
            {
                let Some((recv, m, c)) = method_call(src, call) else {
                    continue;
                };
                if src.of(peel(recv)) != name {
                    continue;
                }
                match (m.as_str(), call_args(c).as_slice()) {
                    // Pushed on one path only: the list may not hold it.
                    ("push", [e]) if !in_branch_between(src, call, block) => out.push(*e),
                    ("len" | "is_empty" | "iter" | "clone" | "get" | "first" | "last", _) => {}
                    _ => return None,
                }
            }
            // Lent mutably or assigned again: elements the scanner does not see.
            let changed_elsewhere = !descendants_between(block, from, to, &mut |n| {
                let lent = n.kind() == "reference_expression"
                    && src.of(n).starts_with("&mut")
                    && field(n, "value").is_some_and(|v| src.of(peel(v)) == name);
                let assigned = matches!(
                    n.kind(),
                    "assignment_expression" | "compound_assignment_expr"
                ) && field(n, "left").is_some_and(|l| src.of(peel(l)) == name);
                lent || assigned
            })
            .is_empty();
            (!changed_elsewhere).then_some(out)
        }
        _ => None,
    }
}

/// The call a map argument comes from, through `Some(..)`, a `let`, `.clone()` and
/// `?`/`.unwrap()`: `key_of(id)` in `.set_key(Some(key_of(id)))`. Map constructors
/// (`HashMap::new`, `from`, `collect`) are not such calls.
fn map_call<'t>(cx: &FileCx<'t>, node: Node<'t>, depth: usize) -> Option<Node<'t>> {
    let src = cx.src;
    let node = peel(node);
    if depth > 4 {
        return None;
    }
    if node.kind() == "identifier" {
        return match lookup(src, node, src.of(node)) {
            Some(Binding::Let { value: Some(v), .. }) => map_call(cx, v, depth + 1),
            _ => None,
        };
    }
    if let Some(path) = call_path(src, node) {
        let args = call_args(node);
        return match last_segment(path) {
            "Some" | "Ok" if args.len() == 1 => map_call(cx, args[0], depth + 1),
            "from" | "from_iter" | "new" | "with_capacity" | "default" => None,
            // serde_dynamo's `to_item` is followed by type (`serde_item`); the crate's
            // own `Self::to_item(rule)` builds a map like any other function.
            "to_item" if !own_to_item(cx, node, path) => None,
            _ => Some(node),
        };
    }
    let (recv, name, _) = method_call(src, node)?;
    match name.as_str() {
        "clone" | "into" | "unwrap" | "expect" | "to_owned" => map_call(cx, recv, depth + 1),
        "collect" | "into_iter" | "iter" | "cloned" | "build" => None,
        _ => Some(node),
    }
}

/// `serde_dynamo::to_item(x)`: an empty, incomplete map naming `x`'s type; the link
/// phase fills the attributes from the struct definition.
fn serde_item(cx: &FileCx<'_>, node: Node<'_>) -> Option<AttrMap> {
    let src = cx.src;
    let (path, node) = serde_call(src, node)?;
    if own_to_item(cx, node, path) {
        return None;
    }
    let arg = peel(*call_args(node).first()?);
    // `to_item(invitation.clone())`: a copy serialises as the value does.
    let arg = copied(src, arg);
    let ty = value_type(cx, arg);
    Some(AttrMap {
        attributes: Vec::new(),
        complete: false,
        from_type: ty.or_else(|| Some(format!("?{}", src.of(arg)))),
        serde_at: None,
    })
}

/// The path and call of a `to_item(..)` call, through `?`, `.unwrap()`, `.map_err(..)`.
fn serde_call<'t>(src: Src<'t>, node: Node<'t>) -> Option<(&'t str, Node<'t>)> {
    let node = peel(node);
    let node = match method_call(src, node) {
        Some((recv, m, _))
            if matches!(
                m.as_str(),
                "unwrap" | "expect" | "map_err" | "context" | "into"
            ) =>
        {
            peel(recv)
        }
        _ => node,
    };
    let path = call_path(src, node)?;
    (last_segment(path) == "to_item").then_some((path, node))
}

/// `Self::to_item(user)`, `UserRepo::to_item(..)`, or a `to_item` this file defines:
/// the crate's own conversion (often one that leaves `None` out), not serde_dynamo's:
/// what it writes is the function's map, not known from the type.
fn own_to_item(cx: &FileCx<'_>, node: Node<'_>, path: &str) -> bool {
    let own_type = path
        .split("::")
        .any(|seg| seg == "Self" || seg.starts_with(|c: char| c.is_ascii_uppercase()));
    own_type
        || path == "to_item"
            && crate::scanner::syntax::nodes::ancestors(cx.src, node)
                .last()
                .is_some_and(|root| cx.functions(root).contains_key("to_item"))
}

/// The value a copy is made of: `x` in `x.clone()`, `x.to_owned()`, `&x`.
fn copied<'t>(src: Src<'t>, mut node: Node<'t>) -> Node<'t> {
    for _ in 0..4 {
        match method_call(src, node) {
            Some((recv, m, call))
                if matches!(m.as_str(), "clone" | "to_owned") && call_args(call).is_empty() =>
            {
                node = peel(recv)
            }
            _ => break,
        }
    }
    node
}

/// The Rust type of an expression when the code states it.
fn value_type(cx: &FileCx<'_>, arg: Node<'_>) -> Option<String> {
    let src = cx.src;
    match arg.kind() {
        "struct_expression" => field(arg, "name").map(|n| type_name(src.of(n))),
        "identifier" => match lookup(src, arg, src.of(arg)) {
            Some(Binding::Param { ty: Some(t), .. }) | Some(Binding::Let { ty: Some(t), .. }) => {
                Some(type_name(src.of(t)))
            }
            Some(Binding::Let { value: Some(v), .. }) => {
                let v = peel(v);
                match v.kind() {
                    "struct_expression" => field(v, "name").map(|n| type_name(src.of(n))),
                    "call_expression" => call_path(src, v)
                        .and_then(type_segment)
                        .filter(|t| t.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
                        .map(str::to_string),
                    _ => None,
                }
            }
            _ => None,
        },
        "call_expression" => call_path(src, arg)
            .and_then(type_segment)
            .filter(|t| t.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
            .map(str::to_string),
        _ => None,
    }
}

/// Structs with a serde `Serialize` derive, with their serde attributes.
pub fn struct_defs(src: Src<'_>, nodes: &[Node<'_>]) -> Vec<StructDef> {
    let mut out = Vec::new();
    let struct_k = crate::scanner::syntax::nodes::kind_id("struct_item");
    for s in nodes.iter().copied().filter(|n| n.kind_id() == struct_k) {
        let attrs = attributes_of(src, s);
        if !attrs.iter().any(|a| a.contains("Serialize")) {
            continue;
        }
        let Some(name) = field(s, "name").map(|n| src.of(n).to_string()) else {
            continue;
        };
        let rename_all = attrs.iter().find_map(|a| serde_arg(a, "rename_all"));
        let mut fields = Vec::new();
        if let Some(body) = field(s, "body") {
            for f in named_children(body) {
                if f.kind() != "field_declaration" {
                    continue;
                }
                let fattrs = attributes_of(src, f);
                let Some(fname) = field(f, "name").map(|n| src.of(n).to_string()) else {
                    continue;
                };
                let serde: Vec<&str> = fattrs
                    .iter()
                    .filter(|a| a.starts_with("serde"))
                    .copied()
                    .collect();
                fields.push(FieldDef {
                    name: fname,
                    ty: field(f, "type")
                        .map(|t| src.of(t).to_string())
                        .unwrap_or_default(),
                    rename: serde.iter().find_map(|a| serde_arg(a, "rename")),
                    skip_if: serde.iter().any(|a| a.contains("skip_serializing_if")),
                    skip: serde.iter().any(|a| {
                        a.contains("skip_serializing)")
                            || a.contains("skip_serializing,")
                            || a.contains("skip)")
                            || a.contains("skip,")
                            || a.trim_end().ends_with("skip")
                    }),
                    flatten: serde.iter().any(|a| a.contains("flatten")),
                    custom: serde
                        .iter()
                        .any(|a| serde_arg(a, "with").is_some() || a.contains("serialize_with")),
                    span: span(f),
                });
            }
        }
        let custom = attrs.iter().any(|a| {
            ["into", "tag", "remote", "content"]
                .iter()
                .any(|k| serde_arg(a, k).is_some())
                || (a.trim_start().starts_with("serde") && a.contains("transparent"))
        });
        let default = attrs
            .iter()
            .any(|a| a.trim_start().starts_with("derive") && a.contains("Default"));
        out.push(StructDef {
            name,
            rename_all,
            custom,
            default,
            fields,
        });
    }
    out
}

/// `serde(rename = "x")` → `x` (also `rename(serialize = "x")`).
fn serde_arg(attr: &str, key: &str) -> Option<String> {
    if !attr.trim_start().starts_with("serde") {
        return None;
    }
    let mut rest = attr;
    while let Some(i) = rest.find(key) {
        let after = &rest[i + key.len()..];
        let boundary_ok = i == 0
            || !rest.as_bytes()[i - 1].is_ascii_alphanumeric() && rest.as_bytes()[i - 1] != b'_';
        let after_t = after.trim_start();
        if boundary_ok && (after_t.starts_with('=') || after_t.starts_with("(serialize")) {
            let q1 = after.find('"')?;
            let q2 = after[q1 + 1..].find('"')?;
            return Some(after[q1 + 1..q1 + 1 + q2].to_string());
        }
        rest = after;
    }
    None
}

/// What every construction in the crate gives one field (see `field_values.rs`):
/// `None` when one of them is not known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Given {
    /// `None`.
    Absent,
    /// A string, literal or constant.
    Str(String),
    /// An enum's variant: one of few values.
    Variant,
}

/// The values every construction gives a field of a struct, when all are known.
pub type FieldGiven<'a> = &'a dyn Fn(&StructDef, &str) -> Option<Vec<Given>>;

/// The attributes serde writes for a struct, following `flatten` into other structs.
/// `given` says what the crate's struct literals put in a field: an attribute that
/// every construction sets to a constant has that value, and an `Option` that every
/// construction leaves `None` under `skip_serializing_if` is never written.
pub fn serialise(
    defs: &dyn Fn(&str) -> Option<StructDef>,
    given: FieldGiven<'_>,
    ty: &str,
    depth: usize,
) -> Option<Vec<AttrArg>> {
    if depth > 8 {
        return None;
    }
    let def = defs(ty)?;
    if def.custom {
        return None;
    }
    let mut out = Vec::new();
    for f in &def.fields {
        if f.skip {
            continue;
        }
        if f.flatten {
            let inner = inner_type(&f.ty);
            out.extend(serialise(defs, given, &type_name(inner), depth + 1)?);
            continue;
        }
        let name = f
            .rename
            .clone()
            .unwrap_or_else(|| rename(&f.name, def.rename_all.as_deref()));
        let is_option = f.ty.trim_start().starts_with("Option<") || f.ty.contains("::Option<");
        let inner_ty = if is_option {
            inner_type(&f.ty)
        } else {
            f.ty.as_str()
        };
        let mut value = ValueInfo::unknown(f.span);
        value.ty = if f.custom {
            None
        } else {
            rust_to_attr(inner_ty)
        };
        value.provenance = Provenance::Unknown;
        // Without `skip_serializing_if`, `None` is written as NULL.
        value.nullable = is_option && !f.skip_if;
        // A field serde writes by another function holds that function's value.
        if let Some(values) = given(&def, &f.name).filter(|_| !f.custom) {
            let absent = values.contains(&Given::Absent);
            if absent && !is_option {
                // `None` in a field that is not an `Option`: not what it seems.
            } else {
                let present: Vec<&Given> = values.iter().filter(|v| **v != Given::Absent).collect();
                if present.is_empty() && f.skip_if {
                    // Every construction leaves it out: never written.
                    continue;
                }
                if is_option && !absent {
                    value.nullable = false;
                }
                let mut strs: Vec<&str> = present
                    .iter()
                    .filter_map(|v| match v {
                        Given::Str(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect();
                strs.sort_unstable();
                strs.dedup();
                match (strs.as_slice(), present.len()) {
                    (_, 0) => {}
                    ([one], n) if present.iter().all(|v| matches!(v, Given::Str(_))) && n > 0 => {
                        value.literal = Some(one.to_string());
                        value.text = Some(Resolved::literal(one.to_string()));
                        value.provenance = Provenance::Constant;
                    }
                    _ => value.provenance = Provenance::EnumLike,
                }
            }
        }
        out.push(AttrArg {
            name: Resolved::literal(name),
            value,
            span: f.span,
            conditional: is_option && f.skip_if,
        });
    }
    Some(out)
}

fn inner_type(t: &str) -> &str {
    match (t.find('<'), t.rfind('>')) {
        (Some(a), Some(b)) if b > a => t[a + 1..b].trim(),
        _ => t,
    }
}

/// What DynamoDB type serde_dynamo writes for a Rust type, when it is clear.
fn rust_to_attr(t: &str) -> Option<AttributeType> {
    let t = t.trim().trim_start_matches('&');
    let base = last_segment(t.split('<').next().unwrap_or(t));
    Some(match base {
        "String" | "str" | "Uuid" | "DateTime" | "NaiveDate" | "NaiveDateTime" | "char"
        | "Ulid" => AttributeType::S,
        // `Decimal` is not here: rust_decimal writes a string or a number depending on
        // its features.
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "isize" | "f32" | "f64" => AttributeType::N,
        "bool" => AttributeType::Bool,
        "HashMap" | "BTreeMap" => AttributeType::M,
        // Bytes are a list of numbers to serde, a binary only through `serde_bytes`.
        "Vec" if t.contains("u8>") => return None,
        "Vec" => AttributeType::L,
        _ => return None,
    })
}

/// serde's `rename_all` cases.
pub fn rename(name: &str, rule: Option<&str>) -> String {
    let words: Vec<String> = name
        .split('_')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let cap = |w: &String| {
        let mut c = w.chars();
        c.next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    };
    match rule {
        Some("camelCase") => words
            .iter()
            .enumerate()
            .map(|(i, w)| if i == 0 { w.clone() } else { cap(w) })
            .collect(),
        Some("PascalCase") => words.iter().map(cap).collect(),
        Some("snake_case") => words.join("_"),
        Some("SCREAMING_SNAKE_CASE") => words.join("_").to_uppercase(),
        Some("kebab-case") => words.join("-"),
        Some("SCREAMING-KEBAB-CASE") => words.join("-").to_uppercase(),
        Some("lowercase") => name.to_lowercase(),
        Some("UPPERCASE") => name.to_uppercase(),
        _ => name.to_string(),
    }
}
