//! PutItem, GetItem, DeleteItem and UpdateItem: single-item reads and writes with
//! conditions, ReturnValues and ConsumedCapacity.

use serde_json::{json, Map, Value};

use crate::engine::capacity::{
    index_write_units, read_units, write_units, Consumed, ReturnCapacity,
};
use crate::engine::db::Engine;
use crate::engine::error::{DynamoError, DynamoResult};
use crate::engine::eval::{apply_update, eval_condition, finish_projection, project, Step};
use crate::engine::exprs::{check_forms, prepare, Allowed, Prepared};
use crate::engine::keys::{
    check_index_keys, item_primary_key, request_primary_key, PrimaryKey, WriteKind,
};
use crate::engine::size::{item_size, MAX_ITEM_SIZE};
use crate::engine::table::Table;
use crate::engine::validate::{
    java_repr, table_name, Constraints, CONDITIONAL_OPERATORS, RETURN_CAPACITY, RETURN_METRICS,
    RETURN_ON_FAILURE, RETURN_VALUES,
};
use crate::engine::value::{Item, KeyValue};
use crate::engine::wire::{item_to_json, Body};

/// `ReturnValues` of a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReturnValues {
    None,
    AllOld,
    UpdatedOld,
    AllNew,
    UpdatedNew,
}

/// Reads `ReturnValues` (its enum was checked with the other constraints), allowing
/// only what the operation supports.
pub fn return_values(b: &Body<'_>, update: bool) -> DynamoResult<ReturnValues> {
    let v = match b.str("ReturnValues")? {
        Some("ALL_OLD") => ReturnValues::AllOld,
        Some("UPDATED_OLD") => ReturnValues::UpdatedOld,
        Some("ALL_NEW") => ReturnValues::AllNew,
        Some("UPDATED_NEW") => ReturnValues::UpdatedNew,
        _ => ReturnValues::None,
    };
    if !update && !matches!(v, ReturnValues::None | ReturnValues::AllOld) {
        return Err(DynamoError::validation(
            "ReturnValues can only be ALL_OLD or NONE",
        ));
    }
    Ok(v)
}

/// Whether a failed condition should carry the item (`ReturnValuesOnConditionCheckFailure`).
fn return_on_failure(b: &Body<'_>) -> DynamoResult<bool> {
    Ok(b.str("ReturnValuesOnConditionCheckFailure")? == Some("ALL_OLD"))
}

/// The member constraints of a single-item write (PutItem, DeleteItem, UpdateItem),
/// in DynamoDB's order; `what` is the item member (`item` or `key`).
fn write_constraints(b: &Body<'_>, what: (&str, &str)) -> DynamoResult<()> {
    let mut c = Constraints::new();
    c.enumeration(
        b.str("ReturnConsumedCapacity")?,
        "returnConsumedCapacity",
        RETURN_CAPACITY,
    );
    c.not_null(b.has(what.0), what.1);
    c.enumeration(
        b.str("ConditionalOperator")?,
        "conditionalOperator",
        CONDITIONAL_OPERATORS,
    );
    c.enumeration(b.str("ReturnValues")?, "returnValues", RETURN_VALUES);
    c.enumeration(
        b.str("ReturnItemCollectionMetrics")?,
        "returnItemCollectionMetrics",
        RETURN_METRICS,
    );
    c.enumeration(
        b.str("ReturnValuesOnConditionCheckFailure")?,
        "returnValuesOnConditionCheckFailure",
        RETURN_ON_FAILURE,
    );
    c.finish()
}

/// `ItemCollectionMetrics` of a write to partition `hash`, when asked for (`SIZE`)
/// and the table has a local secondary index (only those have item collections).
pub fn collection_metrics(
    b: &Body<'_>,
    table: &Table,
    hash: &KeyValue,
) -> DynamoResult<Option<Value>> {
    if b.str("ReturnItemCollectionMetrics")? != Some("SIZE")
        || !table
            .schema
            .indexes
            .iter()
            .any(|i| i.kind == crate::engine::schema::IndexKind::Local)
    {
        return Ok(None);
    }
    let gb = table.collection_bytes(hash) as f64 / (1024.0 * 1024.0 * 1024.0);
    let low = gb.floor();
    let mut key = Item::new();
    key.insert(table.schema.keys.hash.name.clone(), hash.to_value());
    Ok(Some(json!({
        "ItemCollectionKey": item_to_json(&key),
        "SizeEstimateRangeGB": [low, low + 1.0],
    })))
}

/// Checks a request's `ConditionExpression` against the current item.
pub fn check_condition(p: &Prepared, old: Option<&Item>, with_item: bool) -> DynamoResult<()> {
    let Some(c) = &p.condition else {
        return Ok(());
    };
    let empty = Item::new();
    if eval_condition(c, &p.ph, old.unwrap_or(&empty))? {
        Ok(())
    } else {
        Err(DynamoError::condition_failed(if with_item {
            old.cloned()
        } else {
            None
        }))
    }
}

/// Validates an item to be stored: size, primary key, index keys.
pub fn validate_new_item(table: &Table, item: &Item, kind: WriteKind) -> DynamoResult<PrimaryKey> {
    if item_size(item) > MAX_ITEM_SIZE {
        return Err(DynamoError::validation(
            "Item size has exceeded the maximum allowed size",
        ));
    }
    let pk = item_primary_key(&table.schema, item)?;
    check_index_keys(&table.schema, item, kind)?;
    Ok(pk)
}

/// Capacity of a write, computed only when the request asks for it (projecting every
/// index entry twice is most of a put's cost otherwise).
fn write_consumed_if(
    mode: ReturnCapacity,
    table: &Table,
    old: Option<&Item>,
    new: Option<&Item>,
) -> Consumed {
    if mode == ReturnCapacity::None {
        Consumed::default()
    } else {
        write_consumed(table, old, new)
    }
}

/// Capacity of a write that turned `old` into `new` on `table`.
pub fn write_consumed(table: &Table, old: Option<&Item>, new: Option<&Item>) -> Consumed {
    let mut c = Consumed::new(&table.schema.name);
    let size = old.map_or(0, item_size).max(new.map_or(0, item_size));
    c.table_units = write_units(size);
    c.indexes = index_write_units(&table.schema, old, new);
    c
}

fn finish(out: &mut Map<String, Value>, table: &Table, consumed: &Consumed, mode: ReturnCapacity) {
    if let Some(c) = consumed.to_json(Some(&table.schema), mode) {
        out.insert("ConsumedCapacity".into(), c);
    }
}

fn put_attributes(out: &mut Map<String, Value>, item: Option<Item>) {
    if let Some(item) = item.filter(|i| !i.is_empty()) {
        out.insert("Attributes".into(), item_to_json(&item));
    }
}

/// `PutItem`.
pub fn put_item(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = table_name(&b)?;
    write_constraints(&b, ("Item", "item"))?;
    let allowed = Allowed {
        condition: true,
        ..Allowed::NONE
    };
    check_forms(&b, allowed)?;
    let item = b.item("Item")?.unwrap_or_default();
    let rv = return_values(&b, false)?;
    if item_size(&item) > MAX_ITEM_SIZE {
        return Err(DynamoError::validation(
            "Item size has exceeded the maximum allowed size",
        ));
    }
    let mode = ReturnCapacity::parse(b.str("ReturnConsumedCapacity")?)?;
    let on_fail = return_on_failure(&b)?;
    let p = prepare(&b, allowed)?;
    let table = engine.table_mut(name)?;
    let pk = validate_new_item(table, &item, WriteKind::Put)?;
    let old = table.get(&pk);
    check_condition(&p, old, on_fail)?;
    let consumed = write_consumed_if(mode, table, old, Some(&item));
    let hash = pk.hash.clone();
    let old = table.put(pk, item);
    let mut out = Map::new();
    if rv == ReturnValues::AllOld {
        put_attributes(&mut out, old);
    }
    finish(&mut out, table, &consumed, mode);
    if let Some(m) = collection_metrics(&b, table, &hash)? {
        out.insert("ItemCollectionMetrics".into(), m);
    }
    Ok(Value::Object(out))
}

/// `GetItem`.
pub fn get_item(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = table_name(&b)?;
    let mut c = Constraints::new();
    if let Some(list) = b.list("AttributesToGet")? {
        c.length(
            list.len(),
            &java_repr(&Value::Array(list.clone())),
            "attributesToGet",
            1,
            Some(255),
        );
    }
    c.enumeration(
        b.str("ReturnConsumedCapacity")?,
        "returnConsumedCapacity",
        RETURN_CAPACITY,
    );
    c.not_null(b.has("Key"), "key");
    c.finish()?;
    let allowed = Allowed {
        projection: true,
        values: false,
        ..Allowed::NONE
    };
    check_forms(&b, allowed)?;
    let key = b.item("Key")?.unwrap_or_default();
    let consistent = b.bool("ConsistentRead")?.unwrap_or(false);
    let mode = ReturnCapacity::parse(b.str("ReturnConsumedCapacity")?)?;
    let p = prepare(&b, allowed)?;
    let table = engine.table(name)?;
    let pk = request_primary_key(&table.schema, &key)?;
    let found = table.get(&pk);
    let mut consumed = Consumed::new(name);
    consumed.table_units = read_units(found.map_or(0, item_size), consistent);
    let mut out = Map::new();
    if let Some(item) = found {
        let item = match &p.projection {
            Some(paths) => finish_projection(project(paths, item)),
            None => item.clone(),
        };
        out.insert("Item".into(), item_to_json(&item));
    }
    finish(&mut out, table, &consumed, mode);
    Ok(Value::Object(out))
}

/// `DeleteItem`.
pub fn delete_item(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = table_name(&b)?;
    write_constraints(&b, ("Key", "key"))?;
    let allowed = Allowed {
        condition: true,
        ..Allowed::NONE
    };
    check_forms(&b, allowed)?;
    let key = b.item("Key")?.unwrap_or_default();
    let rv = return_values(&b, false)?;
    let mode = ReturnCapacity::parse(b.str("ReturnConsumedCapacity")?)?;
    let on_fail = return_on_failure(&b)?;
    let p = prepare(&b, allowed)?;
    let table = engine.table_mut(name)?;
    let pk = request_primary_key(&table.schema, &key)?;
    let old = table.get(&pk);
    check_condition(&p, old, on_fail)?;
    let consumed = write_consumed_if(mode, table, old, None);
    let old = table.remove(&pk);
    let mut out = Map::new();
    if rv == ReturnValues::AllOld {
        put_attributes(&mut out, old);
    }
    finish(&mut out, table, &consumed, mode);
    if let Some(m) = collection_metrics(&b, table, &pk.hash)? {
        out.insert("ItemCollectionMetrics".into(), m);
    }
    Ok(Value::Object(out))
}

/// Computes the item an UpdateItem would store, checking key attributes are not
/// touched and the result is storable.
pub fn updated_item(
    table: &Table,
    p: &Prepared,
    key: &Item,
    old: Option<&Item>,
) -> DynamoResult<Item> {
    let base = old.cloned().unwrap_or_else(|| key.clone());
    let Some(u) = &p.update else {
        return Ok(base);
    };
    for path in u.target_paths() {
        if let Some(Step::Key(first)) = p.ph.resolve(path).first() {
            if table.schema.keys.contains(first) {
                return Err(DynamoError::validation(format!(
                    "One or more parameter values were invalid: Cannot update attribute {first}. This attribute is part of the key"
                )));
            }
        }
    }
    let new = apply_update(u, &p.ph, &base)?;
    validate_new_item(table, &new, WriteKind::Update)?;
    Ok(new)
}

/// `UpdateItem`.
pub fn update_item(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let name = table_name(&b)?;
    write_constraints(&b, ("Key", "key"))?;
    let allowed = Allowed {
        condition: true,
        update: true,
        ..Allowed::NONE
    };
    check_forms(&b, allowed)?;
    let key = b.item("Key")?.unwrap_or_default();
    let rv = return_values(&b, true)?;
    let mode = ReturnCapacity::parse(b.str("ReturnConsumedCapacity")?)?;
    let on_fail = return_on_failure(&b)?;
    let p = prepare(&b, allowed)?;
    let table = engine.table_mut(name)?;
    let pk = request_primary_key(&table.schema, &key)?;
    let old = table.get(&pk).cloned();
    // DynamoDB rejects an invalid update before it evaluates the condition.
    let new = updated_item(table, &p, &key, old.as_ref())?;
    check_condition(&p, old.as_ref(), on_fail)?;
    let consumed = write_consumed_if(mode, table, old.as_ref(), Some(&new));
    table.put(pk.clone(), new.clone());
    let mut out = Map::new();
    let touched: Vec<Vec<Step>> = p
        .update
        .as_ref()
        .map(|u| {
            u.target_paths()
                .into_iter()
                .map(|x| p.ph.resolve(x))
                .collect()
        })
        .unwrap_or_default();
    let attrs = match rv {
        ReturnValues::None => None,
        ReturnValues::AllOld => old,
        ReturnValues::AllNew => Some(new),
        ReturnValues::UpdatedOld => old.map(|o| finish_projection(project(&touched, &o))),
        ReturnValues::UpdatedNew => Some(finish_projection(project(&touched, &new))),
    };
    put_attributes(&mut out, attrs);
    finish(&mut out, table, &consumed, mode);
    if let Some(m) = collection_metrics(&b, table, &pk.hash)? {
        out.insert("ItemCollectionMetrics".into(), m);
    }
    Ok(Value::Object(out))
}

/// An empty JSON object (a write's answer when nothing is asked back).
pub fn empty() -> Value {
    json!({})
}
