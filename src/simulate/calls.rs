//! One call of a read plan as the requests an application would send — GetItem, or
//! Query/Scan pages chained by `ExclusiveStartKey` — run through the engine's wire
//! API, with the read units from its `ConsumedCapacity`.

use serde_json::{json, Map, Value};

use crate::engine::wire::value_to_json;
use crate::engine::{AttributeValue, DynamoError, Engine, KeyValue};

use super::replay::{CallCost, ConcreteSort};
use crate::facts::plan::{Access, ReadPlan, SortCondition};

/// A call never pages more than this; far above any 1 MB-paged partition we
/// generate, it only guards against a request that never finishes.
const MAX_PAGES: u64 = 1_000_000;

/// The requests of one call on partition `hash` (or a whole Scan), run on `engine`.
pub(crate) fn run_request(
    engine: &mut Engine,
    table: &str,
    plan: &ReadPlan,
    consistent: bool,
    hash: &KeyValue,
    sort: Option<&ConcreteSort>,
    filters: &[(String, AttributeValue)],
) -> Result<CallCost, DynamoError> {
    let mut names = Map::new();
    let mut values = Map::new();
    let mut body = Map::new();
    body.insert("TableName".into(), json!(table));
    body.insert("ReturnConsumedCapacity".into(), json!("TOTAL"));
    if let Some(i) = &plan.index {
        body.insert("IndexName".into(), json!(i));
    }
    if consistent {
        body.insert("ConsistentRead".into(), json!(true));
    }
    if plan.access == Access::GetItem {
        let mut key = Map::new();
        if let Some((pk, _)) = &plan.partition {
            key.insert(pk.clone(), value_to_json(&hash.to_value()));
        }
        if let (Some((sk, _)), Some(ConcreteSort::Eq(v))) = (&plan.sort, sort) {
            key.insert(sk.clone(), value_to_json(&v.to_value()));
        }
        body.insert("Key".into(), Value::Object(key));
        let out = engine.handle("GetItem", &Value::Object(body))?;
        let found = f64::from(u8::from(out.get("Item").is_some()));
        return Ok(CallCost {
            pages: 1.0,
            items_read: found,
            items_returned: found,
            bytes_read: 0.0,
            rcu: capacity(&out),
        });
    }
    if plan.access == Access::Query {
        let Some((pk, _)) = &plan.partition else {
            return Err(DynamoError::validation("a Query needs the partition key"));
        };
        names.insert("#p".into(), json!(pk));
        values.insert(":p".into(), value_to_json(&hash.to_value()));
        let mut kc = "#p = :p".to_string();
        match (&plan.sort, sort) {
            (Some((sk, _)), Some(ConcreteSort::Eq(v))) => {
                names.insert("#s".into(), json!(sk));
                values.insert(":s".into(), value_to_json(&v.to_value()));
                kc.push_str(" AND #s = :s");
            }
            (Some((sk, SortCondition::BeginsWith { .. })), Some(ConcreteSort::BeginsWith(p))) => {
                names.insert("#s".into(), json!(sk));
                values.insert(":s".into(), json!({ "S": p }));
                kc.push_str(" AND begins_with(#s, :s)");
            }
            _ => {}
        }
        body.insert("KeyConditionExpression".into(), json!(kc));
        body.insert("ScanIndexForward".into(), json!(plan.forward));
    }
    if !filters.is_empty() {
        let mut parts = Vec::new();
        for (i, (attr, v)) in filters.iter().enumerate() {
            names.insert(format!("#f{i}"), json!(attr));
            values.insert(format!(":f{i}"), value_to_json(v));
            parts.push(format!("#f{i} = :f{i}"));
        }
        body.insert("FilterExpression".into(), json!(parts.join(" AND ")));
    }
    // Without a filter, `Limit` is the number of results wanted; with one, the
    // caller pages until enough items pass it — unless the code sends one request,
    // where `Limit` caps the items read whatever the filter keeps.
    if let (Some(l), true) = (plan.limit, filters.is_empty() || plan.one_request) {
        body.insert("Limit".into(), json!(l.max(1)));
    }
    body.insert("Select".into(), json!("COUNT"));
    if !names.is_empty() {
        body.insert("ExpressionAttributeNames".into(), Value::Object(names));
        body.insert("ExpressionAttributeValues".into(), Value::Object(values));
    }
    let op = if plan.access == Access::Scan {
        "Scan"
    } else {
        "Query"
    };
    let mut cost = CallCost::default();
    let mut request = Value::Object(body);
    loop {
        let out = engine.handle(op, &request)?;
        cost.pages += 1.0;
        cost.rcu += capacity(&out);
        cost.items_read += out
            .get("ScannedCount")
            .and_then(Value::as_f64)
            .unwrap_or(0.0);
        cost.items_returned += out.get("Count").and_then(Value::as_f64).unwrap_or(0.0);
        let enough = plan.limit.is_some_and(|l| cost.items_returned >= l as f64);
        // One request with a `Limit` stops there. (Without one, an unpaginated read
        // is costed whole: its 1 MB cut-off is `unpaginated-query`'s finding.)
        let stop = enough || (plan.one_request && plan.limit.is_some());
        match out.get("LastEvaluatedKey") {
            Some(last) if !stop && cost.pages < MAX_PAGES as f64 => {
                if let Value::Object(b) = &mut request {
                    b.insert("ExclusiveStartKey".into(), last.clone());
                }
            }
            _ => break,
        }
    }
    if let Some(l) = plan.limit {
        cost.items_returned = cost.items_returned.min(l as f64);
    }
    Ok(cost)
}

fn capacity(out: &Value) -> f64 {
    out.pointer("/ConsumedCapacity/CapacityUnits")
        .and_then(Value::as_f64)
        .unwrap_or(0.0)
}
