//! `get-item-in-loop`: prose in `rules/get-item-in-loop.md`.

use std::collections::HashSet;

use super::{Rule, RuleContext, RuleMeta};
use crate::diagnostic::Cost;
use crate::facts::call_cost::call_cost;
use crate::facts::key_access::{addressed, Via};
use crate::facts::spend::{call_rate, call_units, finding_cost, mode_of, CallRate, Priced};
use crate::facts::{BoundOperation, ProjectFacts};
use crate::figures;
use crate::model::Model;
use crate::pricing::{Prices, UnitsPerSecond};
use crate::scanner::{OpKind, Operation};

crate::declare_rule! {
    pub GetItemInLoop,
    id: "get-item-in-loop",
    category: Perf,
    summary: "one `GetItem` round trip per element where `BatchGetItem` fetches 100 keys at once",
}

/// Keys one `BatchGetItem` request takes.
const BATCH_GET_MAX_KEYS: u64 = 100;

impl Rule for GetItemInLoop {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_project(&self, cx: &mut RuleContext<'_>, facts: &ProjectFacts<'_>) {
        // The keys of a `BatchGetItem` are its children: batched already, not judged.
        let children: HashSet<*const Operation> = facts
            .operations
            .iter()
            .flat_map(|b| b.op.children.iter().map(|c| c as *const Operation))
            .collect();
        for bound in facts.operations {
            if !children.contains(&(bound.op as *const Operation)) {
                check(cx, bound);
            }
        }
    }
}

fn check(cx: &mut RuleContext<'_>, bound: &BoundOperation<'_>) {
    let op = bound.op;
    let Some(lp) = &op.context.in_loop else {
        return;
    };
    // A bare `loop` is as often a retry or a pagination loop as a walk over a
    // collection; there is no collection to batch, so it is not judged.
    if lp.kind == "loop" {
        return;
    }
    // A loop over a few elements the code spells out (`for t in ["a", "b"]`) costs a
    // fixed, small number of round trips: nothing grows with the data.
    if lp.elements.is_some_and(|n| n <= FEW_ELEMENTS) {
        return;
    }
    let what = match op.kind {
        OpKind::GetItem => "`get_item`",
        OpKind::Query if is_single_item_query(bound) => "`query` for one item",
        OpKind::BatchGetItem if one_key_per_call(op) => "`batch_get_item` of one key",
        OpKind::TransactGetItems if one_key_per_call(op) => "`transact_get_items` of one item",
        _ => return,
    };
    let table = match (bound.table, op.children.as_slice()) {
        (Some(t), _) => format!(" on `{}`", t.name),
        // A batch or transaction names its table on its one request.
        (None, [child]) => format!(" on {}", child.table_label()),
        // An item handed in by the caller: its table is the caller's.
        (None, []) if op.table.is_none() => String::new(),
        (None, _) => format!(" on {}", op.table_label()),
    };
    let per_batch = BATCH_GET_MAX_KEYS;
    let line = cost_line(cx.model, bound);
    cx.report(
        op.file.clone(),
        op.method_span,
        format!(
            "{what}{table} runs once per element: n elements cost n sequential \
             round trips"
        ),
    )
    .label(
        lp.file(op).clone(),
        lp.keyword_span(),
        format!("{} repeats the request per element", lp.this_loop(op)),
    )
    .note(format!(
        "1,000 keys: 1,000 requests one after another, or {} `batch_get_item` requests \
         of up to {per_batch} keys (16 MB per response)",
        1000 / per_batch
    ))
    .cost(line)
    .help(format!(
        "collect the keys and call `batch_get_item` in chunks of {per_batch} \
         (`keys.chunks({per_batch})`), retrying `unprocessed_keys`"
    ));
}

/// What the element's read costs a month at one element a second (or its access
/// pattern's rate), and as a key of a `batch_get_item`: the same units for a
/// `get_item` or a `query` of one item (a batch saves round trips, not capacity), half
/// for a transaction's read (transactions cost twice).
fn cost_line(model: &Model, bound: &BoundOperation<'_>) -> Cost {
    let prices = Prices::for_model(model);
    let op = bound.op;
    let call = call_cost(model, bound);
    let table = bound.table.or_else(|| {
        op.children
            .first()
            .and_then(|c| crate::facts::bind(model, c).table)
    });
    let mut rate = call_rate(model, op);
    if rate.from.is_none() {
        rate = CallRate::unit("elements");
    }
    let mode = mode_of(table);
    let written = Priced::calls(
        &prices,
        table,
        call_units(table, &call),
        &call.missing,
        rate.per_second,
    );
    let batched_units = call.units().map(|u| UnitsPerSecond {
        read: if call.transactional {
            u.read / 2.0
        } else {
            u.read
        },
        ..u
    });
    let fixed = Priced::calls(
        &prices,
        table,
        batched_units,
        &call.missing,
        rate.per_second,
    );
    let head = call.read_units.map_or_else(
        || "each element's read".to_string(),
        |u| format!("each element reads {} RCU", figures::units(u)),
    );
    let batched = match fixed.dollars(mode) {
        Some(_) => fixed.text(mode),
        None => "the same units".to_string(),
    };
    let text = format!(
        "{head}: {} {}; as keys of `batch_get_item`: {batched} (a batch saves round trips, not capacity)",
        written.text(mode),
        rate.describe(),
    );
    finding_cost(text, &rate, mode, &written, Some(&fixed), None)
}

/// Loops over at most this many elements the code spells out are not judged.
const FEW_ELEMENTS: u64 = 3;

/// A batch or transaction read that carries exactly one key on every call: one
/// `request_items` whose `KeysAndAttributes` gets one `.keys(..)`, or one
/// `.transact_items(..)`. A list (`set_keys`, `set_transact_items`), or a setter
/// called on some paths only, may hold many.
fn one_key_per_call(op: &Operation) -> bool {
    let single = |setters: &[crate::scanner::SetterCall], method: &str| {
        let calls: Vec<_> = setters.iter().filter(|s| s.is(method)).collect();
        matches!(calls.as_slice(), [c] if c.method == method && !c.conditional)
    };
    if op.batch_size.is_some() {
        return false;
    }
    match (op.kind, op.children.as_slice()) {
        (OpKind::BatchGetItem, [child]) => {
            single(&op.setters, "request_items") && single(&child.setters, "keys")
        }
        // One `transact_items(item)` call adds one item, whatever it is: a `Get` the
        // caller built and handed in (`read_single(item)`) is one still.
        (OpKind::TransactGetItems, [] | [_]) => single(&op.setters, "transact_items"),
        _ => false,
    }
}

/// A query that can return at most one item: on the table (not an index) with the
/// whole primary key given by equality.
fn is_single_item_query(bound: &BoundOperation<'_>) -> bool {
    let (Some(table), None) = (bound.table, &bound.op.index) else {
        return false;
    };
    let Some(sk) = &table.sort_key else {
        // A hash-only table: the partition key names one item.
        return addressed(bound.op)
            .iter()
            .any(|a| a.via == Via::KeyEquals && a.attribute == table.partition_key);
    };
    let eq = |name: &str| {
        addressed(bound.op)
            .iter()
            .any(|a| a.via == Via::KeyEquals && a.attribute == name)
    };
    eq(&table.partition_key) && eq(sk)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::*;
    use crate::scanner::{LoopInfo, OpKind, Provenance};
    use crate::source::Span;

    const MODEL: &str = r#"
[[table]]
name = "Orders"
partition-key = "PK"
sort-key = "SK"
[table.attributes]
PK = "S"
SK = "S"
GSI1PK = "S"
[[table.index]]
name = "GSI1"
partition-key = "GSI1PK"
"#;

    fn query(index: Option<&str>, cond: &str) -> crate::scanner::Operation {
        let mut q = op(OpKind::Query, "Orders");
        q.index = index.map(crate::scanner::Resolved::literal);
        q.key_condition = Some(Box::new(expr(cond)));
        q.values.insert(":p".into(), val(Provenance::Param, 1));
        q.values.insert(":s".into(), val(Provenance::Param, 2));
        in_for_loop(&mut q);
        q
    }

    #[test]
    fn per_element_gets_and_single_item_queries() {
        let m = model(MODEL);
        let mut get = op(OpKind::GetItem, "Orders");
        in_for_loop(&mut get);
        let d = run_ops(&m, "get-item-in-loop", &[get.clone()]);
        assert_eq!(d.len(), 1);
        assert!(d[0]
            .message
            .contains("`get_item` on `Orders` runs once per element"));
        assert!(d[0].help.as_deref().unwrap_or("").contains("chunks of 100"));

        let full_key = query(None, "PK = :p AND SK = :s");
        assert_eq!(run_ops(&m, "get-item-in-loop", &[full_key]).len(), 1);
    }

    #[test]
    fn not_flagged() {
        let m = model(MODEL);
        let get = op(OpKind::GetItem, "Orders");
        let mut retry = get.clone();
        retry.context.in_loop = Some(LoopInfo {
            kind: "loop".into(),
            span: Span::new(0, 4),
            caller: None,
            elements: None,
        });
        let mut batch = op(OpKind::BatchGetItem, "Orders");
        in_for_loop(&mut batch);
        let range = query(None, "PK = :p AND begins_with(SK, :s)");
        let on_index = query(Some("GSI1"), "GSI1PK = :p");
        let d = run_ops(
            &m,
            "get-item-in-loop",
            &[get, retry, batch, range, on_index],
        );
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn the_keys_of_a_batch_in_a_loop_are_not_gets() {
        let m = model(MODEL);
        let mut child = op(OpKind::GetItem, "Orders");
        in_for_loop(&mut child);
        let mut batch = op(OpKind::BatchGetItem, "Orders");
        in_for_loop(&mut batch);
        batch.children.push(child);
        assert!(run_ops(&m, "get-item-in-loop", &[batch]).is_empty());
    }
}
