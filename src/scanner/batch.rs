//! Batches and transactions: each request inside becomes a child [`Operation`] with its
//! own kind and table — `TransactWriteItem` with `Put`/`Update`/`Delete`/
//! `ConditionCheck`, `TransactGetItem` with `Get`, `WriteRequest` with
//! `PutRequest`/`DeleteRequest`, and `KeysAndAttributes` per table of a BatchGetItem.

use tree_sitter::Node;

use super::fold::{fold_typed, typed_root};
use super::ir::{OpKind, Operation, Resolved};
use super::items::map_entries;
use super::resolve::FileCx;
use super::scope::{lookup, Binding};
use super::sdk::Typed;
use super::syntax::{
    ancestors, call_args, call_path, descendants, field, last_segment, method_call, peel, span,
};
use crate::source::Span;

/// `transact_items(TransactWriteItem)` or `set_transact_items(Some(vec![..]))`.
pub fn transact_items(
    cx: &FileCx<'_>,
    op: &mut Operation,
    args: &[Node<'_>],
    _set: bool,
    conditional: bool,
) {
    let Some(arg) = args.first() else { return };
    for root in collect(
        cx,
        *arg,
        &|t| matches!(t, Typed::TransactWriteItem | Typed::TransactGetItem),
        0,
    ) {
        let wrapper = fold_typed(cx, &op.file, root, op.kind);
        for mut child in wrapper.children {
            mark_conditional(&mut child, conditional);
            op.children.push(child);
        }
    }
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
        let table = cx.string(table_node);
        let tspan = span(table_node);
        if op.kind == OpKind::BatchGetItem {
            for root in collect(cx, value, &|t| t == Typed::KeysAndAttributes, 0) {
                let mut child = fold_typed(cx, &op.file, root, OpKind::GetItem);
                set_table(&mut child, &table, tspan);
                mark_conditional(&mut child, conditional);
                op.children.push(child);
            }
        } else {
            for root in collect(cx, value, &|t| t == Typed::WriteRequest, 0) {
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

fn set_table(child: &mut Operation, table: &Resolved, span: Span) {
    if child.table.is_none() {
        child.table = Some(table.clone());
        child.table_span = Some(span);
    }
}

fn mark_conditional(child: &mut Operation, conditional: bool) {
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
    for root in collect(
        cx,
        value,
        &|t| matches!(t, Typed::Leaf(_) | Typed::BatchLeaf(_)),
        0,
    ) {
        op.children.push(fold_typed(cx, &op.file, root, kind));
    }
}

/// The typed-builder roots an argument's value comes from: inside the expression, in
/// the `let` it names and the `.push(..)`es onto it, or in a same-file helper fn.
fn collect<'t>(
    cx: &FileCx<'t>,
    node: Node<'t>,
    want: &dyn Fn(Typed) -> bool,
    depth: usize,
) -> Vec<Node<'t>> {
    if depth > 6 {
        return Vec::new();
    }
    let src = cx.src;
    let mut found = descendants(node, &mut |n| typed_root(cx, n).is_some_and(want));
    if !found.is_empty() {
        return found;
    }
    for id in descendants(node, &mut |n| n.kind() == "identifier") {
        let name = src.of(id);
        if let Some(Binding::Let { decl, value, .. }) = lookup(src, id, name) {
            if let Some(v) = value {
                found.extend(collect(cx, v, want, depth + 1));
            }
            let Some(block) = src.parent(decl) else {
                continue;
            };
            let (from, to) = (decl.end_byte(), id.start_byte());
            for call in descendants(block, &mut |n| {
                n.kind() == "call_expression" && n.start_byte() >= from && n.end_byte() <= to
            }) {
                let Some((recv, m, c)) = method_call(src, call) else {
                    continue;
                };
                if src.of(peel(recv)) == name
                    && matches!(m.as_str(), "push" | "extend" | "insert" | "push_back")
                {
                    for a in call_args(c) {
                        found.extend(collect(cx, a, want, depth + 1));
                    }
                }
            }
        }
    }
    if !found.is_empty() {
        return found;
    }
    // A helper in this file that builds the request: `items.push(put_order(&o))`.
    let Some(root) = ancestors(src, node).last() else {
        return found;
    };
    for call in descendants(node, &mut |n| n.kind() == "call_expression") {
        let name = call_path(src, call)
            .map(|p| last_segment(p).to_string())
            .or_else(|| method_call(src, call).map(|(_, n, _)| n));
        let Some(name) = name else { continue };
        for f in descendants(root, &mut |n| {
            n.kind() == "function_item" && field(n, "name").is_some_and(|x| src.of(x) == name)
        }) {
            if let Some(body) = field(f, "body") {
                found.extend(collect(cx, body, want, depth + 1));
            }
        }
    }
    found
}
