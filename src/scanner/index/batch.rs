//! Batches and transactions: each request inside becomes a child [`Operation`] with its
//! own kind and table — `TransactWriteItem` with `Put`/`Update`/`Delete`/
//! `ConditionCheck`, `TransactGetItem` with `Get`, `WriteRequest` with
//! `PutRequest`/`DeleteRequest`, and `KeysAndAttributes` per table of a BatchGetItem.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::rc::Rc;

use tree_sitter::Node;

use crate::scanner::index::fold::{branches, fold_typed, typed_root};
use crate::scanner::index::items::map_entries;
use crate::scanner::index::resolve::{node_place, FileCx, NodeAt, RefKind, ShapeAt};
use crate::scanner::ir::{ItemsParam, OpKind, Operation, Resolved, ValueInfo};
use crate::scanner::sdk::Typed;
use crate::scanner::syntax::nodes::{
    ancestors, call_args, call_path, descendants, field, last_segment, method_call, peel, span,
};
use crate::scanner::syntax::scope::{lookup, Binding};
use crate::source::{FilePath, Span};

/// `transact_items(TransactWriteItem)` or `set_transact_items(Some(vec![..]))`.
pub fn transact_items(
    cx: &FileCx<'_>,
    op: &mut Operation,
    args: &[Node<'_>],
    set: bool,
    conditional: bool,
) {
    let Some(arg) = args.first() else { return };
    if set {
        if let Some(n) = chunk_size(cx, *arg, 0) {
            op.batch_size = Some(Box::new(n));
        }
    }
    let roots = collect(cx, *arg, Wanted::TransactItem, 0);
    if roots.is_empty() {
        if let Some(p) = items_param(cx, *arg, conditional) {
            op.from_params
                .get_or_insert_with(Box::default)
                .items
                .push(p);
        }
    }
    for root in roots {
        let wrapper = fold_typed(cx, &op.file, root, op.kind);
        for mut child in wrapper.children {
            mark_conditional(&mut child, conditional);
            op.children.push(child);
        }
    }
}

/// The parameter of the request's function that a transaction's items argument is
/// (`items`, `Some(items)`, `items.into_iter().collect()`, or `item` of `for item in
/// items`), when its calls build them: read at each chain that continues the builder
/// it returns.
fn items_param(cx: &FileCx<'_>, arg: Node<'_>, conditional: bool) -> Option<ItemsParam> {
    let src = cx.src;
    let mut node = list_of(cx, arg)?;
    let mut name = src.of(node);
    let mut conditional = conditional;
    if matches!(lookup(src, node, name), Some(Binding::LoopVar)) {
        // `for item in items { b = b.transact_items(item) }`: each of the list's, on
        // every path unless a branch other than that loop is around it.
        let each = ancestors(src, node).find(|a| {
            a.kind() == "for_expression"
                && field(*a, "pattern")
                    .is_some_and(|p| p.kind() == "identifier" && src.of(p) == name)
        })?;
        conditional = ancestors(src, arg)
            .take_while(|a| a.kind() != "function_item")
            .any(|a| a.id() != each.id() && branches(a.kind()));
        node = list_of(cx, field(each, "value")?)?;
        name = src.of(node);
    }
    if !matches!(lookup(src, node, name), Some(Binding::Param { .. })) {
        return None;
    }
    let kind = cx.param_ref(node, name)?;
    let RefKind::Param { index, .. } = kind else {
        return None;
    };
    Some(ItemsParam {
        param: cx.pending(name, kind),
        index,
        conditional,
    })
}

/// Whether a file's text names a transaction item type, as a search for items must
/// find it (`TransactWriteItem::builder()`, a `TransactGetItem { .. }` literal).
pub fn names_items(text: &str) -> bool {
    text.contains("TransactWriteItem") || text.contains("TransactGetItem")
}

/// The name a list argument is, through `Some(..)` and steps that keep its elements
/// (`items.into_iter().collect()`, `items.iter().cloned()`).
fn list_of<'t>(cx: &FileCx<'t>, arg: Node<'t>) -> Option<Node<'t>> {
    let src = cx.src;
    let mut node = peel(arg);
    if call_path(src, node) == Some("Some") {
        node = peel(*call_args(node).first()?);
    }
    for _ in 0..16 {
        match method_call(src, node) {
            Some((recv, m, _)) if ONE_TO_ONE.contains(&m.as_str()) => node = peel(recv),
            Some(_) => return None,
            None => break,
        }
    }
    (node.kind() == "identifier").then_some(node)
}

/// The items a call passes its helper, by argument (`tx(&c, vec![TransactWriteItem::
/// builder()..build()])`): what a helper's `transact_items(items)` holds for this
/// call ([`ItemsParam`]). Empty when no argument builds one; not searched in a file
/// that names no transaction item type ([`names_items`]), where no search finds one.
pub fn items_passed(
    cx: &FileCx<'_>,
    path: &FilePath,
    args: &[Node<'_>],
) -> Vec<(usize, Operation)> {
    let mut out = Vec::new();
    for (i, arg) in args.iter().enumerate() {
        for root in collect(cx, *arg, Wanted::TransactItem, 0) {
            let kind = match typed_root(cx, root) {
                Some(Typed::TransactGetItem) => OpKind::TransactGetItems,
                _ => OpKind::TransactWriteItems,
            };
            let wrapper = fold_typed(cx, path, root, kind);
            out.extend(wrapper.children.into_iter().map(|c| (i, c)));
        }
    }
    out
}

/// `request_items(table, writes_or_keys)` or `set_request_items(Some(map))`.
pub fn request_items(
    cx: &FileCx<'_>,
    op: &mut Operation,
    args: &[Node<'_>],
    set: bool,
    conditional: bool,
) {
    let pairs: Vec<(Node<'_>, Node<'_>)> = if !set && args.len() == 2 {
        vec![(args[0], args[1])]
    } else {
        match args.first() {
            Some(m) => map_entries(cx, *m, 0)
                .into_iter()
                .map(|(k, v, _)| (k, v))
                .collect(),
            None => Vec::new(),
        }
    };
    for (table_node, value) in pairs {
        let table = cx.name(table_node);
        let tspan = span(table_node);
        if op.kind == OpKind::BatchGetItem {
            for root in collect(cx, value, Wanted::KeysAndAttributes, 0) {
                if let Some(n) = keys_list(cx, root).and_then(|l| chunk_size(cx, l, 0)) {
                    op.batch_size = Some(Box::new(n));
                }
                let mut child = fold_typed(cx, &op.file, root, OpKind::GetItem);
                set_table(&mut child, &table, tspan);
                mark_conditional(&mut child, conditional);
                op.children.push(child);
            }
        } else {
            if let Some(n) = chunk_size(cx, value, 0) {
                op.batch_size = Some(Box::new(n));
            }
            for root in collect(cx, value, Wanted::WriteRequest, 0) {
                let wrapper = fold_typed(cx, &op.file, root, op.kind);
                for mut child in wrapper.children {
                    set_table(&mut child, &table, tspan);
                    mark_conditional(&mut child, conditional);
                    op.children.push(child);
                }
            }
        }
    }
}

/// Iterator steps that keep one element per element: a list built only through them
/// has as many entries as the chunk it starts from.
const ONE_TO_ONE: &[&str] = &[
    "iter",
    "into_iter",
    "map",
    "cloned",
    "copied",
    "collect",
    "to_vec",
    "to_owned",
    "clone",
    "into",
];

/// The `n` of the `chunks(n)`/`chunks_exact(n)` element that `list` maps one to one
/// (`chunk.iter().map(..).collect()`, `Some(chunk.to_vec())`, or a `let` holding it).
/// `None` for anything else: a `filter` or a `push` changes the count.
fn chunk_size(cx: &FileCx<'_>, list: Node<'_>, depth: usize) -> Option<ValueInfo> {
    if depth > 4 {
        return None;
    }
    let src = cx.src;
    let node = list_of(cx, list)?;
    let name = src.of(node);
    match lookup(src, node, name)? {
        Binding::Let { value: Some(v), .. } => chunk_size(cx, v, depth + 1),
        Binding::LoopVar => chunk_of_loop_var(cx, node, name),
        _ => None,
    }
}

/// `for chunk in items.chunks(n)` or `items.chunks(n).map(|chunk| ..)` (also
/// `for_each`, `then`): the `n`, when `chunk` is that loop's variable.
fn chunk_of_loop_var(cx: &FileCx<'_>, use_: Node<'_>, name: &str) -> Option<ValueInfo> {
    let src = cx.src;
    let mut prev = use_;
    for anc in ancestors(src, use_) {
        match anc.kind() {
            "for_expression" if field(anc, "body").is_some_and(|b| b.id() == prev.id()) => {
                let pat = field(anc, "pattern")?;
                if pat.kind() == "identifier" && src.of(pat) == name {
                    return chunks_arg(cx, field(anc, "value")?);
                }
                if descendants(pat, &mut |n| n.kind() == "identifier" && src.of(n) == name)
                    .is_empty()
                {
                    prev = anc;
                    continue;
                }
                // `for (i, chunk) in ..`: some other shape.
                return None;
            }
            "closure_expression" => {
                let params = field(anc, "parameters")?;
                let bound = descendants(params, &mut |n| {
                    n.kind() == "identifier" && src.of(n) == name
                });
                if bound.is_empty() {
                    prev = anc;
                    continue;
                }
                if params.named_child_count() != 1 {
                    return None;
                }
                // The closure is the argument of `<chunks>.map(..)`.
                let args = src.parent(anc).filter(|a| a.kind() == "arguments")?;
                let call = src.parent(args)?;
                let (recv, m, _) = method_call(src, call)?;
                if !matches!(m.as_str(), "map" | "for_each" | "then" | "try_for_each") {
                    return None;
                }
                return chunks_arg(cx, recv);
            }
            _ => {}
        }
        prev = anc;
    }
    None
}

/// The `n` of `x.chunks(n)`/`x.chunks_exact(n)` (through `.into_iter()`), when it is
/// an integer literal or a constant.
fn chunks_arg(cx: &FileCx<'_>, node: Node<'_>) -> Option<ValueInfo> {
    let mut node = peel(node);
    for _ in 0..4 {
        let (recv, m, call) = method_call(cx.src, node)?;
        match m.as_str() {
            "into_iter" | "iter" => node = peel(recv),
            "chunks" | "chunks_exact" => {
                let arg = *call_args(call).first()?;
                let mut n = cx.value(arg);
                if n.literal.is_none() {
                    n.literal = integer_const(cx, arg);
                }
                let integer = n
                    .literal
                    .as_deref()
                    .is_some_and(|l| l.parse::<u64>().is_ok());
                return integer.then_some(n);
            }
            _ => return None,
        }
    }
    None
}

/// The value of `const NAME: usize = 30;` (or a `static`) declared once in this file,
/// for a bare `NAME`. Integer constants are not among the strings the crate-wide
/// linker resolves, and a batch size is almost always declared beside its use.
fn integer_const(cx: &FileCx<'_>, node: Node<'_>) -> Option<String> {
    let src = cx.src;
    let node = peel(node);
    if node.kind() != "identifier" {
        return None;
    }
    let name = src.of(node);
    cx.whole_file_lookup_of(name);
    let root = ancestors(src, node).last()?;
    let defs = descendants(root, &mut |n| {
        matches!(n.kind(), "const_item" | "static_item")
            && field(n, "name").is_some_and(|x| src.of(x) == name)
    });
    let [def] = defs.as_slice() else {
        return None;
    };
    let value = peel(field(*def, "value")?);
    if value.kind() != "integer_literal" {
        return None;
    }
    let digits: String = src
        .of(value)
        .trim_end_matches(|c: char| c.is_ascii_alphabetic())
        .chars()
        .filter(|c| *c != '_')
        .collect();
    digits.parse::<u64>().is_ok().then_some(digits)
}

/// The list given to `.set_keys(..)` in the chain built on a `KeysAndAttributes`
/// builder.
fn keys_list<'t>(cx: &FileCx<'t>, root: Node<'t>) -> Option<Node<'t>> {
    let src = cx.src;
    let mut cur = root;
    for _ in 0..16 {
        let f = src.parent(cur).filter(|f| f.kind() == "field_expression")?;
        let call = src.parent(f).filter(|c| c.kind() == "call_expression")?;
        if let Some((_, m, _)) = method_call(src, call) {
            if m == "set_keys" {
                return call_args(call).first().copied();
            }
        }
        cur = call;
    }
    None
}

fn set_table(child: &mut Operation, table: &Resolved, span: Span) {
    if child.table.is_none() {
        child.table = Some(table.clone());
        child.table_span = Some(span);
    }
}

/// Marks a request's key and item attributes as set on some paths only.
pub(crate) fn mark_conditional(child: &mut Operation, conditional: bool) {
    if conditional {
        for a in child
            .item
            .iter_mut()
            .chain(child.key.iter_mut())
            .flat_map(|m| m.attributes.iter_mut())
        {
            a.conditional = true;
        }
    }
}

/// `.put(Put::builder()...build()?)` on a wrapper: the leaf becomes a child.
pub fn wrapped(cx: &FileCx<'_>, op: &mut Operation, call: Node<'_>, args: &[Node<'_>]) {
    let Some((_, name, _)) = method_call(cx.src, call) else {
        return;
    };
    if let Some(a) = args.first() {
        wrapped_value(cx, op, &name, *a);
    }
}

/// The leaf inside a wrapper, from a builder chain, a variable or a struct literal.
pub fn wrapped_value(cx: &FileCx<'_>, op: &mut Operation, name: &str, value: Node<'_>) {
    let kind = match name {
        "put" | "put_request" => OpKind::PutItem,
        "update" => OpKind::UpdateItem,
        "delete" | "delete_request" => OpKind::DeleteItem,
        "condition_check" => OpKind::ConditionCheck,
        "get" => OpKind::GetItem,
        _ => return,
    };
    for root in collect(cx, value, Wanted::Leaf, 0) {
        op.children.push(fold_typed(cx, &op.file, root, kind));
    }
}

/// Which typed builders a search collects.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Wanted {
    /// `TransactWriteItem` or `TransactGetItem`.
    TransactItem,
    KeysAndAttributes,
    WriteRequest,
    /// A request inside a wrapper (`Put`, `Get`, `PutRequest`, ...).
    Leaf,
}

impl Wanted {
    fn wants(self, t: Typed) -> bool {
        match self {
            Self::TransactItem => {
                matches!(t, Typed::TransactWriteItem | Typed::TransactGetItem)
            }
            Self::KeysAndAttributes => t == Typed::KeysAndAttributes,
            Self::WriteRequest => t == Typed::WriteRequest,
            Self::Leaf => matches!(t, Typed::Leaf(_) | Typed::BatchLeaf(_)),
        }
    }
}

/// The typed-builder roots an argument's value comes from: inside the expression, in
/// the `let` it names and the `.push(..)`es onto it, or in a same-file helper fn.
fn collect<'t>(cx: &FileCx<'t>, node: Node<'t>, want: Wanted, depth: usize) -> Vec<Node<'t>> {
    Collector {
        cx,
        want,
        memo: HashMap::new(),
        fns: None,
        shapes: HashMap::new(),
    }
    .collect(node, depth)
}

/// More requests than any one batch or transaction takes (100): enough to say a
/// request is too large, and a bound on helpers that each push several items.
const MAX_ROOTS: usize = 101;

/// One search for roots. Helpers call helpers and a binding is named many times, so
/// without the memo the search is exponential in its depth (a 2,000-line file of
/// transaction helpers took minutes); with it, each node is searched once per depth.
struct Collector<'c, 't> {
    cx: &'c FileCx<'t>,
    want: Wanted,
    memo: HashMap<(usize, usize), Vec<Node<'t>>>,
    /// The file's functions by name, found on first need.
    fns: Option<HashMap<&'t str, Vec<Node<'t>>>>,
    shapes: HashMap<usize, Rc<Shape<'t>>>,
}

/// What a search looks at under one node ([`Collector::shape`]).
struct Shape<'t> {
    /// Every typed builder, in pre-order.
    typed: Vec<(Node<'t>, Typed)>,
    /// [`Collector::bindings`].
    bindings: OnceCell<Vec<(Option<Node<'t>>, Vec<Node<'t>>)>>,
    /// [`Collector::helpers`].
    helpers: OnceCell<Vec<Node<'t>>>,
    /// The identifiers and the calls under the node, in pre-order, found by the walk
    /// that found `typed` (what `bindings` and `helpers` read); `None` for a shape an
    /// earlier search of the file found, whose walks are made when needed.
    walked: Option<(Vec<Node<'t>>, Vec<Node<'t>>)>,
}

impl<'t> Collector<'_, 't> {
    fn collect(&mut self, node: Node<'t>, depth: usize) -> Vec<Node<'t>> {
        if depth > 6 {
            return Vec::new();
        }
        if let Some(found) = self.memo.get(&(node.id(), depth)) {
            return found.clone();
        }
        // A search depends on nothing but (node, depth, want): the depth grows along
        // every recursion, so no search meets itself. The file's other searches (one
        // per setter, helpers searched again for each) left their answers in `cx`.
        if let Some(found) = self.cx.roots_found(self.want as u8, node, depth) {
            self.memo.insert((node.id(), depth), found.clone());
            return found;
        }
        let mut found = self.search(node, depth);
        found.truncate(MAX_ROOTS);
        self.memo.insert((node.id(), depth), found.clone());
        self.cx.keep_roots(self.want as u8, node, depth, &found);
        found
    }

    fn search(&mut self, node: Node<'t>, depth: usize) -> Vec<Node<'t>> {
        let shape = self.shape(node);
        let want = self.want;
        let mut found: Vec<Node<'t>> = shape
            .typed
            .iter()
            .filter(|(_, t)| want.wants(*t))
            .map(|(n, _)| *n)
            .collect();
        if !found.is_empty() {
            return found;
        }
        let bindings = shape.bindings.get_or_init(|| {
            let idents = shape.walked.as_ref().map(|(i, _)| i.as_slice());
            let b = self.bindings(node, idents);
            self.cx.add_to_shape(node.id(), |at| {
                let place = |n: &Node<'_>| node_place(*n);
                at.bindings = Some(
                    b.iter()
                        .map(|(v, pushed)| {
                            (v.as_ref().map(place), pushed.iter().map(place).collect())
                        })
                        .collect(),
                );
            });
            b
        });
        for (value, pushed) in bindings {
            if let Some(v) = value {
                found.extend(self.collect(*v, depth + 1));
            }
            for a in pushed {
                found.extend(self.collect(*a, depth + 1));
            }
        }
        if !found.is_empty() {
            return found;
        }
        let helpers = match shape.helpers.get() {
            Some(h) => h,
            None => {
                let calls = shape.walked.as_ref().map(|(_, c)| c.as_slice());
                let h = self.helpers(node, calls);
                self.cx.add_to_shape(node.id(), |at| {
                    at.helpers = Some(h.iter().map(|n| node_place(*n)).collect());
                });
                shape.helpers.get_or_init(|| h)
            }
        };
        for body in helpers {
            found.extend(self.collect(*body, depth + 1));
        }
        found
    }

    /// What a search from `node` looks at, whatever it wants and at whatever depth,
    /// found once per node for the whole file (a helper's body is searched at several
    /// depths, and again by each setter's search): the typed builders at once, the
    /// rest when a search gets that far.
    fn shape(&mut self, node: Node<'t>) -> Rc<Shape<'t>> {
        if let Some(s) = self.shapes.get(&node.id()) {
            return Rc::clone(s);
        }
        let cx = self.cx;
        let shape = match self.shared(node) {
            Some(s) => s,
            None => {
                let mut typed = Vec::new();
                let (mut idents, mut calls) = (Vec::new(), Vec::new());
                let ident = crate::scanner::syntax::nodes::kind_id("identifier");
                let call_k = crate::scanner::syntax::nodes::kind_id("call_expression");
                descendants(node, &mut |n| {
                    let k = n.kind_id();
                    if k == ident {
                        idents.push(n);
                    } else if k == call_k {
                        calls.push(n);
                    }
                    if let Some(t) = typed_root(cx, n) {
                        typed.push((n, t));
                    }
                    false
                });
                let at = typed.iter().map(|(n, t)| (node_place(*n), *t)).collect();
                cx.keep_shape(
                    node.id(),
                    ShapeAt {
                        typed: at,
                        ..ShapeAt::default()
                    },
                );
                Shape {
                    typed,
                    bindings: OnceCell::new(),
                    helpers: OnceCell::new(),
                    walked: Some((idents, calls)),
                }
            }
        };
        let shape = Rc::new(shape);
        self.shapes.insert(node.id(), Rc::clone(&shape));
        shape
    }

    /// The shape of `node` that an earlier search of the file found, its nodes found
    /// again from their places (`None` should one not be found: searched again).
    fn shared(&self, node: Node<'t>) -> Option<Shape<'t>> {
        let cx = self.cx;
        let at = cx.shape_at(node.id())?;
        let top = ancestors(cx.src, node).last().unwrap_or(node);
        let find = |p: NodeAt| cx.node_at(top, p);
        let typed = at
            .typed
            .iter()
            .map(|(p, t)| Some((find(*p)?, *t)))
            .collect::<Option<Vec<_>>>()?;
        let bindings = OnceCell::new();
        if let Some(b) = &at.bindings {
            let found: Option<Vec<_>> = b
                .iter()
                .map(|(v, pushed)| {
                    let v = match v {
                        Some(p) => Some(find(*p)?),
                        None => None,
                    };
                    let pushed = pushed.iter().map(|p| find(*p)).collect::<Option<_>>()?;
                    Some((v, pushed))
                })
                .collect();
            if let Some(found) = found {
                let _ = bindings.set(found);
            }
        }
        let helpers = OnceCell::new();
        if let Some(h) = &at.helpers {
            if let Some(found) = h.iter().map(|p| find(*p)).collect::<Option<Vec<_>>>() {
                let _ = helpers.set(found);
            }
        }
        Some(Shape {
            typed,
            bindings,
            helpers,
            walked: None,
        })
    }

    /// Each binding named under `node`, once, up to its last use there: its value, and
    /// the arguments of what is pushed onto it before that use.
    /// `idents`: the identifiers under `node` in pre-order, when known.
    fn bindings(
        &self,
        node: Node<'t>,
        idents: Option<&[Node<'t>]>,
    ) -> Vec<(Option<Node<'t>>, Vec<Node<'t>>)> {
        let cx = self.cx;
        let src = cx.src;
        let mut bindings: Vec<(Node<'t>, Option<Node<'t>>, &str, usize)> = Vec::new();
        let idents = given_or_walked(idents, node, "identifier");
        for &id in idents.iter() {
            let name = src.of(id);
            let Some(Binding::Let { decl, value, .. }) = lookup(src, id, name) else {
                continue;
            };
            match bindings.iter_mut().find(|b| b.0.id() == decl.id()) {
                Some(b) => b.3 = b.3.max(id.start_byte()),
                None => bindings.push((decl, value, name, id.start_byte())),
            }
        }
        bindings
            .into_iter()
            .map(|(decl, value, name, last_use)| {
                let mut pushed = Vec::new();
                if let Some(block) = src.parent(decl) {
                    // The calls wholly between the `let` and the last use, in pre-order
                    // (what a walk of that range finds), from the block's list.
                    let (from, to) = (decl.end_byte(), last_use);
                    let pushes = cx.pushes(block);
                    let onto = pushes.iter().filter(|p| {
                        p.call.0 >= from
                            && p.call.1 <= to
                            && src.text.get(p.receiver.0..p.receiver.1) == Some(name)
                    });
                    for p in onto {
                        // The deepest node over the call's bytes is the call: its
                        // children (callee, arguments) are each shorter.
                        let call = block
                            .descendant_for_byte_range(p.call.0, p.call.1)
                            .filter(|c| c.kind() == "call_expression");
                        pushed.extend(call.into_iter().flat_map(call_args));
                    }
                }
                (value, pushed)
            })
            .collect()
    }

    /// The bodies of the same-file functions the calls under `node` name, in order: a
    /// helper that builds the request (`items.push(put_order(&o))`).
    /// `calls`: the calls under `node` in pre-order, when known.
    fn helpers(&mut self, node: Node<'t>, calls: Option<&[Node<'t>]>) -> Vec<Node<'t>> {
        let src = self.cx.src;
        let mut out = Vec::new();
        let calls = given_or_walked(calls, node, "call_expression");
        for &call in calls.iter() {
            let name = call_path(src, call)
                .map(|p| last_segment(p).to_string())
                .or_else(|| method_call(src, call).map(|(_, n, _)| n));
            let Some(name) = name else { continue };
            self.cx.whole_file_lookup_of(&name);
            if let Some(fs) = self.functions(node).get(name.as_str()) {
                out.extend(fs.iter().filter_map(|f| field(*f, "body")));
            }
        }
        out
    }

    /// The file's functions by name: their places come from the file's [`FileCx`]
    /// (one walk per file, not one per setter), each node found from its range.
    fn functions(&mut self, node: Node<'t>) -> &HashMap<&'t str, Vec<Node<'t>>> {
        let cx = self.cx;
        let src = cx.src;
        self.fns.get_or_insert_with(|| {
            if let Some(by_name) = cx.function_nodes() {
                return by_name;
            }
            let mut by_name: HashMap<&'t str, Vec<Node<'t>>> = HashMap::new();
            if let Some(root) = ancestors(src, node).last() {
                for ranges in cx.functions(root).values() {
                    let found: Vec<Node<'t>> = ranges
                        .iter()
                        .filter_map(|(start, end)| {
                            root.descendant_for_byte_range(*start, *end)
                                .filter(|f| f.kind() == "function_item")
                                .filter(|f| (f.start_byte(), f.end_byte()) == (*start, *end))
                        })
                        .collect();
                    if let Some(name) = found.first().and_then(|f| field(*f, "name")) {
                        by_name.insert(src.of(name), found);
                    }
                }
            }
            by_name
        })
    }
}

/// The nodes of `kind` under `node`, in pre-order: `given` when the caller already has
/// them (a file's shared walk), else walked here.
fn given_or_walked<'a, 't>(
    given: Option<&'a [Node<'t>]>,
    node: Node<'t>,
    kind: &str,
) -> std::borrow::Cow<'a, [Node<'t>]> {
    match given {
        Some(g) => std::borrow::Cow::Borrowed(g),
        None => {
            let k = crate::scanner::syntax::nodes::kind_id(kind);
            std::borrow::Cow::Owned(descendants(node, &mut |n| n.kind_id() == k))
        }
    }
}
