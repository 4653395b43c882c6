//! Transaction items that no transaction of their file sends: a `Put::builder()`
//! pushed into a `Vec<TransactWriteItem>` and returned (in a tuple, through helpers),
//! a `Get::builder()` a method wraps and hands back, which the code sends elsewhere
//! (`commit_transactions(&client, items)` in another file, a client trait's
//! `read_single(item)`). The transaction that sends them reads its items from a
//! parameter and sees none; each such item is still a write (or read) of its table's
//! item, so it becomes a transaction of its own kind holding that one item, at the
//! place it is built: what the sending transaction carries is the union of them. An
//! item one of its file's requests does carry is that request's alone ([`carried`],
//! applied by the link, when the whole file's requests are in), and so is one a chain
//! hands a helper whose returned builder takes it from that parameter (the link binds
//! it at that call: `ParamParts::items`).

use std::collections::HashSet;

use tree_sitter::Node;

use crate::scanner::index::context::around;
use crate::scanner::index::fold::{fold_typed, Escape};
use crate::scanner::index::resolve::FileCx;
use crate::scanner::ir::{ColdReason, OpKind, Operation};
use crate::scanner::syntax::nodes::fold_whitespace;
use crate::source::FilePath;

/// The transaction a typed item of `kind` travels in: a `Get` in `TransactGetItems`,
/// a `Put`, `Update`, `Delete` or `ConditionCheck` in `TransactWriteItems`.
fn transaction_of(kind: OpKind) -> OpKind {
    match kind {
        OpKind::GetItem => OpKind::TransactGetItems,
        _ => OpKind::TransactWriteItems,
    }
}

/// Setters only a DynamoDB item sets: a chain with none of them is another crate's
/// `Get::builder()` (an HTTP route's, a cache's), not a transaction item.
const ITEM_SETTERS: &[&str] = &[
    "table_name",
    "key",
    "item",
    "condition_expression",
    "update_expression",
];

/// The item a typed `root` of `kind` builds (`Put::builder()`..), as a transaction of
/// that one item at the place it is built; `None` for another crate's builder.
pub fn loose_item(
    cx: &FileCx<'_>,
    path: &FilePath,
    root: Node<'_>,
    kind: OpKind,
) -> Option<(Operation, Escape)> {
    let mut item = fold_typed(cx, path, root, kind);
    let dynamodb = item
        .setters
        .iter()
        .any(|s| ITEM_SETTERS.iter().any(|m| s.is(m)));
    if !dynamodb {
        return None;
    }
    let mut op = Operation::new(transaction_of(kind), path.clone(), item.span);
    op.method_span = item.method_span;
    // The loop around an item builds the list one transaction sends, not a request
    // per element: only the function and test code are kept.
    let around = around(cx, root, false, None);
    op.context.function = around.function;
    if around.test {
        op.context.cold = Some(ColdReason::Test);
    }
    op.fingerprint_text = fold_whitespace(cx.src.span_text(item.span));
    item.context = op.context.clone();
    item.fingerprint_text = op.fingerprint_text.clone();
    op.children.push(item);
    Some((op, Escape::Item))
}

/// Where the items the file's requests carry start: an item built on its own
/// ([`Escape::Item`]) that starts at one of them is sent by that request, not alone.
pub fn carried<'a>(ops: impl Iterator<Item = (&'a Operation, &'a Escape)>) -> HashSet<usize> {
    let mut stack: Vec<&Operation> = ops
        .filter(|(_, e)| !matches!(e, Escape::Item))
        .map(|(o, _)| o)
        .collect();
    let mut starts = HashSet::new();
    while let Some(op) = stack.pop() {
        for c in &op.children {
            starts.insert(c.span.start);
            stack.push(c);
        }
    }
    starts
}
