//! TransactGetItems and TransactWriteItems: up to 100 actions, all or nothing, with
//! DynamoDB's cancellation reasons, at twice the capacity of the plain operations.

use serde_json::{json, Map, Value};

use crate::engine::capacity::{read_units, Consumed, ReturnCapacity};
use crate::engine::db::Engine;
use crate::engine::error::{CancellationReason, DynamoError, DynamoResult, ErrorKind};
use crate::engine::eval::{eval_condition, finish_projection, project};
use crate::engine::exprs::{prepare, Allowed, Prepared};
use crate::engine::keys::{request_primary_key, PrimaryKey, WriteKind};
use crate::engine::ops::items::{updated_item, validate_new_item, write_consumed};
use crate::engine::size::item_size;
use crate::engine::validate::{java_repr, Constraints, RETURN_CAPACITY, RETURN_METRICS};
use crate::engine::value::Item;
use crate::engine::wire::{item_to_json, Body};

/// Most actions in one transaction.
pub const MAX_ACTIONS: usize = 100;

/// Largest transaction request: the items it writes, together.
pub const MAX_TRANSACTION_BYTES: u64 = 4 * 1024 * 1024;

/// `TransactItems` and the other members' constraints, in DynamoDB's order.
fn actions<'a>(b: &Body<'a>, write: bool) -> DynamoResult<&'a Vec<Value>> {
    let list = b.list("TransactItems")?;
    let mut c = Constraints::new();
    c.not_null(list.is_some(), "transactItems");
    if let Some(l) = list {
        c.length(
            l.len(),
            &java_repr(b.raw("TransactItems").unwrap_or(&Value::Null)),
            "transactItems",
            1,
            Some(MAX_ACTIONS),
        );
    }
    c.enumeration(
        b.str("ReturnConsumedCapacity")?,
        "returnConsumedCapacity",
        RETURN_CAPACITY,
    );
    if write {
        c.enumeration(
            b.str("ReturnItemCollectionMetrics")?,
            "returnItemCollectionMetrics",
            RETURN_METRICS,
        );
        if let Some(t) = b.str("ClientRequestToken")? {
            c.length(t.chars().count(), t, "clientRequestToken", 1, Some(36));
        }
    }
    c.finish()?;
    Ok(list.map_or(&EMPTY, |l| l))
}

static EMPTY: Vec<Value> = Vec::new();

/// A key that does not fit the table's schema cancels the transaction with a
/// `ValidationError` reason for that action (`None` for the others), as DynamoDB does.
fn key_or_cancel(
    schema: &crate::engine::schema::TableSchema,
    key: &Item,
    at: usize,
    total: usize,
) -> DynamoResult<PrimaryKey> {
    request_primary_key(schema, key).map_err(|e| {
        let reasons: Vec<CancellationReason> = (0..total)
            .map(|i| {
                if i == at {
                    CancellationReason {
                        code: "ValidationError".into(),
                        message: Some(e.message.clone()),
                        item: None,
                    }
                } else {
                    CancellationReason {
                        code: "None".into(),
                        message: None,
                        item: None,
                    }
                }
            })
            .collect();
        cancelled(reasons)
    })
}

/// `TransactionCanceledException` with `reasons`, one per action.
fn cancelled(reasons: Vec<CancellationReason>) -> DynamoError {
    let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
    DynamoError {
        kind: ErrorKind::TransactionCanceled,
        message: format!(
            "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
            codes.join(", ")
        ),
        item: None,
        cancellation_reasons: reasons,
    }
}

fn merge(all: &mut Vec<Consumed>, c: Consumed) {
    match all.iter_mut().find(|e| e.table == c.table) {
        Some(e) => {
            e.table_units += c.table_units;
            for (k, v) in c.indexes {
                *e.indexes.entry(k).or_insert(0.0) += v;
            }
        }
        None => all.push(c),
    }
}

fn capacity_json(engine: &Engine, all: Vec<Consumed>, mode: ReturnCapacity) -> Option<Value> {
    if mode == ReturnCapacity::None {
        return None;
    }
    Some(Value::Array(
        all.into_iter()
            .filter_map(|c| {
                let schema = engine.table(&c.table).ok().map(|t| &t.schema);
                c.scaled(2.0).to_json(schema, mode)
            })
            .collect(),
    ))
}

/// `TransactGetItems`.
pub fn transact_get_items(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let list = actions(&b, false)?;
    let mode = ReturnCapacity::parse(b.str("ReturnConsumedCapacity")?)?;
    let mut gets = Vec::new();
    for a in list {
        let a = Body::new(a)?;
        let g = a.object("Get")?.ok_or_else(|| {
            DynamoError::validation("TransactGetItems actions must each contain a Get")
        })?;
        let table = g.required_str("TableName", "transactItems.member.get.tableName")?;
        let key = g.item("Key")?.unwrap_or_default();
        let p = prepare(
            &g,
            Allowed {
                projection: true,
                values: false,
                ..Allowed::NONE
            },
        )?;
        gets.push((table.to_string(), key, p));
    }
    let mut responses = Vec::new();
    let mut capacity = Vec::new();
    let mut seen: Vec<(String, PrimaryKey)> = Vec::new();
    let total = gets.len();
    for (at, (name, key, p)) in gets.iter().enumerate() {
        let table = engine.table(name)?;
        let pk = key_or_cancel(&table.schema, key, at, total)?;
        if seen.iter().any(|(t, k)| t == name && *k == pk) {
            return Err(DynamoError::validation(
                "Transaction request cannot include multiple operations on one item",
            ));
        }
        seen.push((name.clone(), pk.clone()));
        let item = table.get(&pk);
        let mut c = Consumed::new(name);
        c.table_units = read_units(item.map_or(0, item_size), true);
        merge(&mut capacity, c);
        responses.push(match item {
            Some(item) => {
                let item = match &p.projection {
                    Some(paths) => finish_projection(project(paths, item)),
                    None => item.clone(),
                };
                json!({ "Item": item_to_json(&item) })
            }
            None => json!({}),
        });
    }
    let mut out = Map::new();
    out.insert("Responses".into(), Value::Array(responses));
    if let Some(c) = capacity_json(engine, capacity, mode) {
        out.insert("ConsumedCapacity".into(), c);
    }
    Ok(Value::Object(out))
}

/// One write action of a transaction, decoded.
struct Action {
    table: String,
    kind: &'static str,
    key: Item,
    item: Option<Item>,
    exprs: Prepared,
    return_old: bool,
}

/// `TransactWriteItems`.
pub fn transact_write_items(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let list = actions(&b, true)?;
    let mode = ReturnCapacity::parse(b.str("ReturnConsumedCapacity")?)?;
    // A retry with the same ClientRequestToken (within DynamoDB's 10 minutes; here,
    // the engine's life) answers as the first call did, without writing again; the
    // same token on a different request is refused.
    let token = b.str("ClientRequestToken")?;
    if let Some(t) = token {
        if let Some((items, answer)) = engine.transaction_tokens.get(t) {
            if items == b.raw("TransactItems").unwrap_or(&Value::Null) {
                return Ok(answer.clone());
            }
            return Err(DynamoError::new(
                ErrorKind::IdempotentParameterMismatch,
                "Specified ClientRequestToken is already in use for a different request payload",
            ));
        }
    }
    let answer = transact_write(engine, &b, list, mode)?;
    if let Some(t) = token {
        engine.transaction_tokens.insert(
            t.to_string(),
            (
                b.raw("TransactItems").cloned().unwrap_or(Value::Null),
                answer.clone(),
            ),
        );
    }
    Ok(answer)
}

fn transact_write(
    engine: &mut Engine,
    b: &Body<'_>,
    list: &[Value],
    mode: ReturnCapacity,
) -> DynamoResult<Value> {
    let _ = b;
    let mut acts = Vec::new();
    let mut bytes = 0u64;
    for a in list {
        let a = Body::new(a)?;
        let found: Vec<(&'static str, Body<'_>)> = ["ConditionCheck", "Put", "Delete", "Update"]
            .into_iter()
            .filter_map(|k| a.object(k).ok().flatten().map(|o| (k, o)))
            .collect();
        let [(kind, o)] = found.as_slice() else {
            return Err(DynamoError::validation(
                "TransactItems can only contain one of Check, Put, Update or Delete",
            ));
        };
        let table = o.required_str("TableName", "transactItems.member.tableName")?;
        let item = if *kind == "Put" {
            o.item("Item")?
        } else {
            None
        };
        let key = match &item {
            Some(_) => Item::new(),
            None => o.item("Key")?.unwrap_or_default(),
        };
        let exprs = prepare(
            o,
            Allowed {
                condition: true,
                update: *kind == "Update",
                ..Allowed::NONE
            },
        )?;
        if *kind == "ConditionCheck" && exprs.condition.is_none() {
            return Err(DynamoError::validation(
                "The ConditionExpression parameter is required for ConditionCheck",
            ));
        }
        let return_old = o.str("ReturnValuesOnConditionCheckFailure")? == Some("ALL_OLD");
        bytes += item.as_ref().map_or(0, item_size);
        if bytes > MAX_TRANSACTION_BYTES {
            return Err(DynamoError::validation(
                "Transaction request cannot be larger than 4 MB",
            ));
        }
        acts.push(Action {
            table: table.to_string(),
            kind,
            key,
            item,
            exprs,
            return_old,
        });
    }
    // Resolve keys and the items each action would store, then check conditions.
    let mut plan: Vec<(String, PrimaryKey, Option<Item>)> = Vec::new();
    let mut reasons = Vec::new();
    let mut failed = false;
    let total = acts.len();
    for (at, a) in acts.iter().enumerate() {
        let table = engine.table(&a.table)?;
        let pk = match &a.item {
            Some(item) => validate_new_item(table, item, WriteKind::Put)?,
            None => key_or_cancel(&table.schema, &a.key, at, total)?,
        };
        if plan.iter().any(|(t, k, _)| *t == a.table && *k == pk) {
            return Err(DynamoError::validation(
                "Transaction request cannot include multiple operations on one item",
            ));
        }
        let old = table.get(&pk);
        let new = match a.kind {
            "Put" => a.item.clone(),
            "Update" => Some(updated_item(table, &a.exprs, &a.key, old)?),
            _ => None,
        };
        let ok = match &a.exprs.condition {
            Some(c) => eval_condition(c, &a.exprs.ph, old.unwrap_or(&Item::new()))?,
            None => true,
        };
        reasons.push(if ok {
            CancellationReason {
                code: "None".into(),
                message: None,
                item: None,
            }
        } else {
            failed = true;
            CancellationReason {
                code: "ConditionalCheckFailed".into(),
                message: Some("The conditional request failed".into()),
                item: if a.return_old { old.cloned() } else { None },
            }
        });
        let stored = match a.kind {
            "Delete" => None,
            "ConditionCheck" => old.cloned(),
            _ => new,
        };
        plan.push((a.table.clone(), pk, stored));
    }
    if failed {
        return Err(cancelled(reasons));
    }
    let mut capacity = Vec::new();
    for ((name, pk, stored), a) in plan.into_iter().zip(&acts) {
        let table = engine.table_mut(&name)?;
        let old = table.get(&pk).cloned();
        if a.kind == "ConditionCheck" {
            let mut c = Consumed::new(&name);
            c.table_units = crate::engine::capacity::write_units(old.as_ref().map_or(0, item_size));
            merge(&mut capacity, c);
            continue;
        }
        merge(
            &mut capacity,
            write_consumed(table, old.as_ref(), stored.as_ref()),
        );
        match stored {
            Some(item) => {
                table.put(pk, item);
            }
            None => {
                table.remove(&pk);
            }
        }
    }
    let mut out = Map::new();
    if let Some(c) = capacity_json(engine, capacity, mode) {
        out.insert("ConsumedCapacity".into(), c);
    }
    Ok(Value::Object(out))
}
