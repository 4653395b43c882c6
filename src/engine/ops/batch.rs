//! BatchGetItem (up to 100 keys) and BatchWriteItem (up to 25 puts/deletes). The
//! engine never throttles, so `UnprocessedKeys`/`UnprocessedItems` are always empty,
//! as DynamoDB answers when it has capacity.

use serde_json::{json, Map, Value};

use crate::engine::capacity::{read_units, Consumed, ReturnCapacity};
use crate::engine::db::Engine;
use crate::engine::error::{DynamoError, DynamoResult};
use crate::engine::eval::{finish_projection, project};
use crate::engine::exprs::{prepare, Allowed};
use crate::engine::keys::{request_primary_key, WriteKind};
use crate::engine::ops::items::{validate_new_item, write_consumed};
use crate::engine::size::item_size;
use crate::engine::validate::{
    java_repr, violations_message, Constraints, RETURN_CAPACITY, RETURN_METRICS,
};
use crate::engine::value::Item;
use crate::engine::wire::{item_from_json, item_to_json, Body};

/// Most keys one BatchGetItem may ask for.
pub const MAX_BATCH_GET: usize = 100;
/// Most requests one BatchWriteItem may carry.
pub const MAX_BATCH_WRITE: usize = 25;

fn add_capacity(
    all: &mut Vec<(Consumed, Option<crate::engine::schema::TableSchema>)>,
    c: Consumed,
    schema: &crate::engine::schema::TableSchema,
) {
    if let Some((existing, _)) = all.iter_mut().find(|(e, _)| e.table == c.table) {
        existing.table_units += c.table_units;
        for (k, v) in c.indexes {
            *existing.indexes.entry(k).or_insert(0.0) += v;
        }
    } else {
        all.push((c, Some(schema.clone())));
    }
}

/// `RequestItems`, checked as DynamoDB does: present, not empty, and every key a
/// valid table name.
fn request_items<'a>(b: &Body<'a>, op: &str) -> DynamoResult<Body<'a>> {
    let Some(items) = b.object("RequestItems")? else {
        return Err(DynamoError::missing_member("requestItems"));
    };
    if items.entries().next().is_none() {
        return Err(DynamoError::validation(format!(
            "The requestItems parameter is required for {op}"
        )));
    }
    let mut c = Constraints::new();
    for (name, _) in items.entries() {
        c.name(Some(name), "requestItems", 3);
        if !c.is_empty() {
            return Err(DynamoError::validation(violations_message(&[format!(
                "Value '{}' at 'requestItems' failed to satisfy constraint: Map keys must satisfy constraint: [Member must have length less than or equal to 255, Member must have length greater than or equal to 3, Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+]",
                java_repr(b.raw("RequestItems").unwrap_or(&Value::Null))
            )])));
        }
    }
    let mut c = Constraints::new();
    c.enumeration(
        b.str("ReturnConsumedCapacity")?,
        "returnConsumedCapacity",
        RETURN_CAPACITY,
    );
    if op == "BatchWriteItem" {
        c.enumeration(
            b.str("ReturnItemCollectionMetrics")?,
            "returnItemCollectionMetrics",
            RETURN_METRICS,
        );
    }
    c.finish()?;
    Ok(items)
}

/// `BatchGetItem`.
pub fn batch_get_item(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let request_items = request_items(&b, "BatchGetItem")?;
    let mode = ReturnCapacity::parse(b.str("ReturnConsumedCapacity")?)?;
    let mut total = 0;
    let mut plans = Vec::new();
    for (table_name, spec) in request_items.entries() {
        let spec = Body::new(spec)?;
        let keys = spec.list("Keys")?.cloned().unwrap_or_default();
        if keys.is_empty() {
            return Err(DynamoError::validation(format!(
                "1 validation error detected: Value at 'RequestItems.{table_name}.member.Keys' failed to satisfy constraint: Member must have length greater than or equal to 1"
            )));
        }
        if keys.len() > MAX_BATCH_GET {
            return Err(DynamoError::validation(format!(
                "1 validation error detected: Value at 'RequestItems.{table_name}.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100"
            )));
        }
        total += keys.len();
        let keys: Vec<Item> = keys
            .iter()
            .map(item_from_json)
            .collect::<DynamoResult<_>>()?;
        let exprs = prepare(
            &spec,
            Allowed {
                projection: true,
                values: false,
                ..Allowed::NONE
            },
        )?;
        let consistent = spec.bool("ConsistentRead")?.unwrap_or(false);
        plans.push((table_name.clone(), keys, exprs, consistent));
    }
    if total > MAX_BATCH_GET {
        return Err(DynamoError::validation(
            "Too many items requested for the BatchGetItem call",
        ));
    }
    let mut responses = Map::new();
    let mut capacity = Vec::new();
    for (table_name, keys, exprs, consistent) in &plans {
        let table = engine.table(table_name)?;
        let mut pks = Vec::new();
        for k in keys {
            let pk = request_primary_key(&table.schema, k)?;
            if pks.contains(&pk) {
                return Err(DynamoError::validation(
                    "Provided list of item keys contains duplicates",
                ));
            }
            pks.push(pk);
        }
        let mut found = Vec::new();
        let mut consumed = Consumed::new(table_name);
        for pk in &pks {
            let item = table.get(pk);
            consumed.table_units += read_units(item.map_or(0, item_size), *consistent);
            if let Some(item) = item {
                let item = match &exprs.projection {
                    Some(paths) => finish_projection(project(paths, item)),
                    None => item.clone(),
                };
                found.push(item_to_json(&item));
            }
        }
        responses.insert(table_name.clone(), Value::Array(found));
        add_capacity(&mut capacity, consumed, &table.schema);
    }
    let mut out = Map::new();
    out.insert("Responses".into(), Value::Object(responses));
    out.insert("UnprocessedKeys".into(), json!({}));
    if mode != ReturnCapacity::None {
        out.insert(
            "ConsumedCapacity".into(),
            Value::Array(
                capacity
                    .iter()
                    .filter_map(|(c, s)| c.to_json(s.as_ref(), mode))
                    .collect(),
            ),
        );
    }
    Ok(Value::Object(out))
}

/// One write of a batch, decoded.
enum BatchWrite {
    Put(Item),
    Delete(Item),
}

/// `BatchWriteItem`.
pub fn batch_write_item(engine: &mut Engine, body: &Value) -> DynamoResult<Value> {
    let b = Body::new(body)?;
    let request_items = request_items(&b, "BatchWriteItem")?;
    let mode = ReturnCapacity::parse(b.str("ReturnConsumedCapacity")?)?;
    // Each table's list holds 1 to 25 requests (a constraint of the service model,
    // which echoes the whole map); all tables together hold at most 25.
    let mut c = Constraints::new();
    for (_, list) in request_items.entries() {
        let len = list.as_array().map_or(0, Vec::len);
        if !(1..=MAX_BATCH_WRITE).contains(&len) {
            c.fail(
                Some(&java_repr(b.raw("RequestItems").unwrap_or(&Value::Null))),
                "requestItems",
                "Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]",
            );
            break;
        }
    }
    c.finish()?;
    let mut writes: Vec<(String, BatchWrite)> = Vec::new();
    for (table_name, list) in request_items.entries() {
        let list = list.as_array().ok_or_else(|| {
            DynamoError::serialization(
                "Unexpected value type in payload for RequestItems: expected a list",
            )
        })?;
        for w in list {
            let w = Body::new(w)?;
            let put = w.object("PutRequest")?;
            let del = w.object("DeleteRequest")?;
            let write = match (put, del) {
                (Some(p), None) => BatchWrite::Put(p.item("Item")?.ok_or_else(|| {
                    DynamoError::missing_member("requestItems.member.putRequest.item")
                })?),
                (None, Some(d)) => BatchWrite::Delete(d.item("Key")?.ok_or_else(|| {
                    DynamoError::missing_member("requestItems.member.deleteRequest.key")
                })?),
                _ => {
                    return Err(DynamoError::validation(
                        "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes",
                    ))
                }
            };
            writes.push((table_name.clone(), write));
        }
    }
    if writes.len() > MAX_BATCH_WRITE {
        return Err(DynamoError::validation(
            "Too many items requested for the BatchWriteItem call",
        ));
    }
    // Validate everything before writing anything: a bad request writes nothing.
    let mut planned = Vec::new();
    for (table_name, w) in &writes {
        let table = engine.table(table_name)?;
        let pk = match w {
            BatchWrite::Put(item) => validate_new_item(table, item, WriteKind::Put)?,
            BatchWrite::Delete(key) => request_primary_key(&table.schema, key)?,
        };
        if planned.iter().any(|(t, p, _)| t == table_name && *p == pk) {
            return Err(DynamoError::validation(
                "Provided list of item keys contains duplicates",
            ));
        }
        planned.push((table_name.clone(), pk, w));
    }
    let mut capacity = Vec::new();
    for (table_name, pk, w) in planned {
        let table = engine.table_mut(&table_name)?;
        let old = table.get(&pk);
        let consumed = match w {
            BatchWrite::Put(item) => write_consumed(table, old, Some(item)),
            BatchWrite::Delete(_) => write_consumed(table, old, None),
        };
        match w {
            BatchWrite::Put(item) => {
                table.put(pk, item.clone());
            }
            BatchWrite::Delete(_) => {
                table.remove(&pk);
            }
        }
        add_capacity(&mut capacity, consumed, &table.schema);
    }
    let mut out = Map::new();
    out.insert("UnprocessedItems".into(), json!({}));
    if mode != ReturnCapacity::None {
        out.insert(
            "ConsumedCapacity".into(),
            Value::Array(
                capacity
                    .iter()
                    .filter_map(|(c, s)| c.to_json(s.as_ref(), mode))
                    .collect(),
            ),
        );
    }
    Ok(Value::Object(out))
}
