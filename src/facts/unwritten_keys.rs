//! Index key attributes that no write of the code can set, for a table whose model
//! names no entities: every put's item is fully known and leaves the attribute out
//! (`invite_code` of a GSI, where the struct serialises `inviteCode`), and no update
//! sets it. DynamoDB copies into an index only the items that carry its key
//! attributes, so that index stays empty: its puts are written without it
//! (`missing-sparse-attribute`), its queries find nothing (`unserved-access-pattern`),
//! and a read of it has no second page (`unpaginated-query`).
//!
//! Any write that may reach the table counts: one of unknown table too, and one the
//! code sends only on some instance (`possible_table`). One that may set anything (an
//! item or update dynalint cannot read, a PartiQL statement, a batch of unknown
//! requests) leaves the table unjudged, and so does code in another language that
//! names DynamoDB. A put on the table and a read of the index must be in view: the
//! code expects items there, and the table's code is the code checked.

use crate::expr;
use crate::expr::ast::{Path, PathElement};
use crate::facts::{BoundOperation, ProjectFacts};
use crate::model::{Index, Table};
use crate::scanner::{OpKind, Operation};

/// The key attributes of `index` (not the table's own keys) that no write of the
/// checked code can set, with the puts on the table that show it (each leaves them
/// out); `None` when nothing can be said: an attribute may be set, or the table has
/// no put in view.
pub fn unwritten_keys<'a>(
    facts: &ProjectFacts<'a>,
    table: &Table,
    index: &'a Index,
) -> Option<(Vec<&'a str>, Vec<&'a Operation>)> {
    if !table.entities.is_empty() || !facts.other_languages.is_empty() {
        return None;
    }
    let keys: Vec<&str> = index
        .key_attributes()
        .into_iter()
        .filter(|k| *k != table.partition_key && table.sort_key.as_deref() != Some(*k))
        .collect();
    // An index the code never reads is `unused-index`'s: here the code expects items
    // in it.
    let read = facts.operations.iter().any(|b| {
        matches!(b.op.kind, OpKind::Query | OpKind::Scan)
            && b.table.is_some_and(|t| std::ptr::eq(t, table))
            && b.index.is_some_and(|i| std::ptr::eq(i, index))
    });
    if keys.is_empty() || !read {
        return None;
    }
    let mut puts: Vec<&Operation> = Vec::new();
    for b in facts.operations.iter().filter(|b| may_reach(b, table)) {
        let op = b.op;
        match op.kind {
            OpKind::PutItem => {
                let item = op.item.as_ref().filter(|i| {
                    i.complete && i.attributes.iter().all(|a| a.name.value().is_some())
                })?;
                if keys.iter().any(|k| item.get(k).is_some()) {
                    return None;
                }
                if b.table.is_some_and(|t| std::ptr::eq(t, table)) {
                    puts.push(op);
                }
            }
            OpKind::UpdateItem => {
                let text = op.update.as_ref().and_then(|u| u.text.value());
                let update = expr::parse_update(text?).ok()?;
                let paths = update
                    .set_actions()
                    .map(|a| &a.path)
                    .chain(update.add_actions().map(|a| &a.path));
                for path in paths {
                    if keys.contains(&top_attribute(op, path)?) {
                        return None;
                    }
                }
            }
            // The requests of a batch or transaction are bound on their own.
            _ if !op.children.is_empty() => {}
            OpKind::BatchWriteItem | OpKind::TransactWriteItems | OpKind::ExecuteStatement => {
                return None
            }
            _ => {}
        }
    }
    (!puts.is_empty()).then_some((keys, puts))
}

/// Whether a request may be on `table`: bound to it, or of a table not known.
fn may_reach(b: &BoundOperation<'_>, table: &Table) -> bool {
    match b.table {
        Some(t) => std::ptr::eq(t, table),
        None => b.op.table.as_ref().is_none_or(|t| t.value().is_none()),
    }
}

/// The top-level attribute an update path writes (`a` of `a.b[0]`, `#n` through the
/// request's names); `None` when it is not known.
fn top_attribute<'o>(op: &'o Operation, path: &'o Path) -> Option<&'o str> {
    match path.elements.first()? {
        PathElement::Attr(a) => Some(a),
        PathElement::Name(n) => op.names.get(n)?.name.value(),
        PathElement::Index(_) => None,
    }
}
