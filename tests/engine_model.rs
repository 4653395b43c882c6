//! The engine against a reference model: random tables of items, and for each, every
//! Query, Scan and GSI Query page (every Limit, every ExclusiveStartKey) compared with
//! what a plain list of rows says DynamoDB returns, including `Count`,
//! `ScannedCount`, `LastEvaluatedKey` and `ConsumedCapacity`.
//!
//! The model states DynamoDB's documented rules directly:
//! - a page ends after `Limit` items are evaluated, or once the items read reach 1 MB;
//!   the key of the last item evaluated is then `LastEvaluatedKey`;
//! - a filter applies after the read: `ScannedCount` counts what was read, `Count`
//!   what passed;
//! - a page costs the bytes it read, summed, rounded up to 4 KB once (one unit at
//!   least), halved for an eventually consistent read; an index read is charged to
//!   the index, on the size of what the index stores;
//! - an item's size is the sum of its attribute names' and string values' lengths.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use dynalint::engine::Engine;
use proptest::prelude::*;
use serde_json::{json, Value};

const PKS: [&str; 3] = ["a", "b", "c"];
const GS: [&str; 2] = ["x", "y"];
const TS: [&str; 2] = ["red", "blue"];
const PAGE_BYTES: usize = 1024 * 1024;

/// One item: all string attributes, so its size is plain to compute.
#[derive(Debug, Clone, PartialEq)]
struct Row {
    pk: &'static str,
    sk: String,
    g: Option<&'static str>,
    t: &'static str,
    pad: usize,
}

impl Row {
    fn attrs(&self) -> Vec<(&'static str, String)> {
        let mut a = vec![
            ("pk", self.pk.to_string()),
            ("sk", self.sk.clone()),
            ("t", self.t.to_string()),
        ];
        if let Some(g) = self.g {
            a.push(("g", g.to_string()));
        }
        if self.pad > 0 {
            a.push(("pad", "p".repeat(self.pad)));
        }
        a
    }

    fn item(&self) -> Value {
        Value::Object(
            self.attrs()
                .into_iter()
                .map(|(k, v)| (k.to_string(), json!({ "S": v })))
                .collect(),
        )
    }

    /// What the KEYS_ONLY index `ByG` stores: the table's and the index's keys.
    fn keys_only(&self) -> Value {
        let mut o = serde_json::Map::new();
        for (k, v) in self.attrs() {
            if matches!(k, "pk" | "sk" | "g") {
                o.insert(k.to_string(), json!({ "S": v }));
            }
        }
        Value::Object(o)
    }

    fn size(&self) -> usize {
        self.attrs().iter().map(|(k, v)| k.len() + v.len()).sum()
    }

    fn keys_only_size(&self) -> usize {
        self.attrs()
            .iter()
            .filter(|(k, _)| matches!(*k, "pk" | "sk" | "g"))
            .map(|(k, v)| k.len() + v.len())
            .sum()
    }

    fn table_key(&self) -> Value {
        json!({"pk": {"S": self.pk}, "sk": {"S": self.sk}})
    }

    fn index_key(&self) -> Value {
        json!({"pk": {"S": self.pk}, "sk": {"S": self.sk}, "g": {"S": self.g.unwrap_or_default()}})
    }
}

fn row() -> impl Strategy<Value = Row> {
    (
        0..3usize,
        0..12u32,
        proptest::option::of(0..2usize),
        0..2usize,
        prop_oneof![3 => 0..200usize, 1 => 0..60_000usize],
    )
        .prop_map(|(pk, sk, g, t, pad)| Row {
            pk: PKS[pk],
            sk: format!("k{sk:02}"),
            g: g.map(|g| GS[g]),
            t: TS[t],
            pad,
        })
}

/// The table as stored: one row per primary key, the last write winning.
fn table(rows: &[Row]) -> Vec<Row> {
    let mut by_key: BTreeMap<(&str, String), Row> = BTreeMap::new();
    for r in rows {
        by_key.insert((r.pk, r.sk.clone()), r.clone());
    }
    by_key.into_values().collect()
}

fn engine(rows: &[Row]) -> Engine {
    let mut e = Engine::new();
    e.handle(
        "CreateTable",
        &json!({
            "TableName": "Tbl", "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
                {"AttributeName": "g", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "GlobalSecondaryIndexes": [
                {"IndexName": "ByG", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                                                   {"AttributeName": "sk", "KeyType": "RANGE"}],
                 "Projection": {"ProjectionType": "KEYS_ONLY"}}]
        }),
    )
    .unwrap();
    for r in rows {
        e.handle("PutItem", &json!({"TableName": "Tbl", "Item": r.item()}))
            .unwrap();
    }
    e
}

/// One page as the model predicts it.
#[derive(Debug, PartialEq)]
struct Page {
    items: Vec<Value>,
    count: usize,
    scanned: usize,
    last: Option<Value>,
    units: f64,
}

/// The model's pages over `rows` (in read order): `stored` is what the read sees of
/// a row and its size, `key` its LastEvaluatedKey, `keep` the filter.
fn model_pages(
    rows: &[&Row],
    limit: Option<usize>,
    consistent: bool,
    stored: &dyn Fn(&Row) -> (Value, usize),
    key: &dyn Fn(&Row) -> Value,
    keep: &dyn Fn(&Row) -> bool,
) -> Vec<Page> {
    let mut pages = Vec::new();
    let mut at = 0;
    loop {
        let (mut items, mut scanned, mut bytes, mut last) = (Vec::new(), 0, 0, None);
        while at < rows.len() {
            let r = rows[at];
            at += 1;
            let (item, size) = stored(r);
            bytes += size;
            scanned += 1;
            if keep(r) {
                items.push(item);
            }
            if limit.is_some_and(|l| scanned >= l) || bytes >= PAGE_BYTES {
                last = Some(key(r));
                break;
            }
        }
        let units = (bytes.div_ceil(4096).max(1)) as f64 / if consistent { 1.0 } else { 2.0 };
        let done = last.is_none();
        pages.push(Page {
            count: items.len(),
            items,
            scanned,
            last,
            units,
        });
        if done {
            return pages;
        }
    }
}

/// The engine's pages for `body`, following LastEvaluatedKey; `index` names where
/// the capacity is charged.
fn engine_pages(e: &mut Engine, op: &str, mut body: Value, index: Option<&str>) -> Vec<Page> {
    body["ReturnConsumedCapacity"] = json!("INDEXES");
    let mut pages = Vec::new();
    for _ in 0..1000 {
        let r = e.handle(op, &body).unwrap();
        let c = &r["ConsumedCapacity"];
        let units = match index {
            Some(i) => {
                assert_eq!(c["Table"]["CapacityUnits"], json!(0.0));
                c["GlobalSecondaryIndexes"][i]["CapacityUnits"]
                    .as_f64()
                    .unwrap()
            }
            None => c["Table"]["CapacityUnits"].as_f64().unwrap(),
        };
        assert_eq!(c["CapacityUnits"].as_f64().unwrap(), units);
        let last = r.get("LastEvaluatedKey").cloned();
        pages.push(Page {
            items: r["Items"].as_array().unwrap().clone(),
            count: r["Count"].as_u64().unwrap() as usize,
            scanned: r["ScannedCount"].as_u64().unwrap() as usize,
            last: last.clone(),
            units,
        });
        match last {
            Some(k) => body["ExclusiveStartKey"] = k,
            None => return pages,
        }
    }
    panic!("paging did not end");
}

fn whole(r: &Row) -> (Value, usize) {
    (r.item(), r.size())
}

fn keys_only(r: &Row) -> (Value, usize) {
    (r.keys_only(), r.keys_only_size())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Query on the table: every Limit, both directions, with and without a filter,
    /// and a first page from every ExclusiveStartKey.
    #[test]
    fn table_query_matches_the_model(
        rows in proptest::collection::vec(row(), 0..45),
        pk in 0..3usize, lo in 0..12u32, span in 0..12u32,
        limit in proptest::option::of(1..7usize),
        forward: bool, consistent: bool, filter: bool,
    ) {
        let mut e = engine(&rows);
        let stored = table(&rows);
        let (lo, hi) = (format!("k{lo:02}"), format!("k{:02}", lo + span));
        let mut matching: Vec<&Row> = stored
            .iter()
            .filter(|r| r.pk == PKS[pk] && r.sk >= lo && r.sk <= hi)
            .collect();
        if !forward {
            matching.reverse();
        }
        let keep = |r: &Row| !filter || r.t == "red";
        let mut body = json!({"TableName": "Tbl",
            "KeyConditionExpression": "pk = :p AND sk BETWEEN :a AND :b",
            "ExpressionAttributeValues": {":p": {"S": PKS[pk]}, ":a": {"S": lo}, ":b": {"S": hi}},
            "ScanIndexForward": forward, "ConsistentRead": consistent});
        if filter {
            body["FilterExpression"] = json!("t = :t");
            body["ExpressionAttributeValues"][":t"] = json!({"S": "red"});
        }
        if let Some(l) = limit {
            body["Limit"] = json!(l);
        }
        let expected = model_pages(&matching, limit, consistent, &whole, &Row::table_key, &keep);
        prop_assert_eq!(engine_pages(&mut e, "Query", body.clone(), None), expected);

        for (i, start) in matching.iter().enumerate() {
            let mut from = body.clone();
            from["ExclusiveStartKey"] = start.table_key();
            let rest = model_pages(&matching[i + 1..], limit, consistent, &whole, &Row::table_key, &keep);
            prop_assert_eq!(engine_pages(&mut e, "Query", from, None), rest);
        }
    }

    /// Query on a KEYS_ONLY GSI: the index's order (its sort key, then the table's
    /// key), its projection, its size and its own capacity.
    #[test]
    fn index_query_matches_the_model(
        rows in proptest::collection::vec(row(), 0..45),
        g in 0..2usize, limit in proptest::option::of(1..7usize), forward: bool,
    ) {
        let mut e = engine(&rows);
        let stored = table(&rows);
        let mut matching: Vec<&Row> = stored.iter().filter(|r| r.g == Some(GS[g])).collect();
        matching.sort_by(|a, b| (&a.sk, a.pk).cmp(&(&b.sk, b.pk)));
        if !forward {
            matching.reverse();
        }
        let mut body = json!({"TableName": "Tbl", "IndexName": "ByG",
            "KeyConditionExpression": "g = :g",
            "ExpressionAttributeValues": {":g": {"S": GS[g]}}, "ScanIndexForward": forward});
        if let Some(l) = limit {
            body["Limit"] = json!(l);
        }
        let all = |_: &Row| true;
        let expected = model_pages(&matching, limit, false, &keys_only, &Row::index_key, &all);
        prop_assert_eq!(engine_pages(&mut e, "Query", body.clone(), Some("ByG")), expected);
        for (i, start) in matching.iter().enumerate() {
            let mut from = body.clone();
            from["ExclusiveStartKey"] = start.index_key();
            let rest = model_pages(&matching[i + 1..], limit, false, &keys_only, &Row::index_key, &all);
            prop_assert_eq!(engine_pages(&mut e, "Query", from, Some("ByG")), rest);
        }
    }

    /// Scan: whatever order the engine reads in, it is one order of exactly the
    /// table's items, and every Limit and every ExclusiveStartKey pages through it as
    /// the model says.
    #[test]
    fn scan_matches_the_model(
        rows in proptest::collection::vec(row(), 0..45),
        limit in proptest::option::of(1..7usize), consistent: bool, filter: bool,
    ) {
        let mut e = engine(&rows);
        let stored = table(&rows);
        let full = engine_pages(&mut e, "Scan", json!({"TableName": "Tbl", "ConsistentRead": true, "Limit": 1_000_000}), None);
        let order: Vec<&Row> = full
            .iter()
            .flat_map(|p| p.items.iter())
            .map(|i| stored.iter().find(|r| r.item() == *i).expect("an item the table holds"))
            .collect();
        prop_assert_eq!(order.len(), stored.len());
        let keep = |r: &Row| !filter || r.t == "blue";
        let mut body = json!({"TableName": "Tbl", "ConsistentRead": consistent});
        if filter {
            body["FilterExpression"] = json!("t = :t");
            body["ExpressionAttributeValues"] = json!({":t": {"S": "blue"}});
        }
        if let Some(l) = limit {
            body["Limit"] = json!(l);
        }
        let expected = model_pages(&order, limit, consistent, &whole, &Row::table_key, &keep);
        prop_assert_eq!(engine_pages(&mut e, "Scan", body.clone(), None), expected);
        for (i, start) in order.iter().enumerate() {
            let mut from = body.clone();
            from["ExclusiveStartKey"] = start.table_key();
            let rest = model_pages(&order[i + 1..], limit, consistent, &whole, &Row::table_key, &keep);
            prop_assert_eq!(engine_pages(&mut e, "Scan", from, None), rest);
        }
    }
}
