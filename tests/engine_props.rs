//! Property tests of the engine's invariants, through its wire entry point:
//! - a Query equals a Scan filtered to the same key range;
//! - every index equals the projection of the table's items that carry its keys,
//!   after any sequence of puts, updates and deletes;
//! - paging with any Limit returns the same items, in order, as one unlimited read.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use dynalint::engine::Engine;
use proptest::prelude::*;
use serde_json::{json, Value};

const PKS: [&str; 3] = ["a", "b", "c"];
const GS: [&str; 2] = ["x", "y"];

#[derive(Debug, Clone)]
enum Write {
    Put {
        pk: usize,
        sk: i64,
        g: Option<usize>,
        v: Option<i64>,
    },
    Delete {
        pk: usize,
        sk: i64,
    },
    SetG {
        pk: usize,
        sk: i64,
        g: usize,
    },
    RemoveG {
        pk: usize,
        sk: i64,
    },
}

fn write() -> impl Strategy<Value = Write> {
    prop_oneof![
        4 => (0..3usize, -5..15i64, proptest::option::of(0..2usize), proptest::option::of(-3..3i64))
            .prop_map(|(pk, sk, g, v)| Write::Put { pk, sk, g, v }),
        1 => (0..3usize, -5..15i64).prop_map(|(pk, sk)| Write::Delete { pk, sk }),
        1 => (0..3usize, -5..15i64, 0..2usize).prop_map(|(pk, sk, g)| Write::SetG { pk, sk, g }),
        1 => (0..3usize, -5..15i64).prop_map(|(pk, sk)| Write::RemoveG { pk, sk }),
    ]
}

fn engine() -> Engine {
    let mut e = Engine::new();
    e.handle(
        "CreateTable",
        &json!({
            "TableName": "Tbl",
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": [
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "N"},
                {"AttributeName": "g", "AttributeType": "S"}],
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                          {"AttributeName": "sk", "KeyType": "RANGE"}],
            "GlobalSecondaryIndexes": [
                {"IndexName": "GKeys", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                                                     {"AttributeName": "sk", "KeyType": "RANGE"}],
                 "Projection": {"ProjectionType": "KEYS_ONLY"}},
                {"IndexName": "GAll", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                 "Projection": {"ProjectionType": "ALL"}},
                {"IndexName": "GInc", "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
                 "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["v"]}}]
        }),
    )
    .unwrap();
    e
}

fn key(pk: usize, sk: i64) -> Value {
    json!({"pk": {"S": PKS[pk]}, "sk": {"N": sk.to_string()}})
}

fn apply(e: &mut Engine, w: &Write) {
    let r = match w {
        Write::Put { pk, sk, g, v } => {
            let mut item = key(*pk, *sk);
            if let Some(g) = g {
                item["g"] = json!({"S": GS[*g]});
            }
            if let Some(v) = v {
                item["v"] = json!({"N": v.to_string()});
            }
            item["other"] = json!({"S": "payload"});
            e.handle("PutItem", &json!({"TableName": "Tbl", "Item": item}))
        }
        Write::Delete { pk, sk } => e.handle(
            "DeleteItem",
            &json!({"TableName": "Tbl", "Key": key(*pk, *sk)}),
        ),
        Write::SetG { pk, sk, g } => e.handle(
            "UpdateItem",
            &json!({"TableName": "Tbl", "Key": key(*pk, *sk), "UpdateExpression": "SET g = :g",
                    "ExpressionAttributeValues": {":g": {"S": GS[*g]}}}),
        ),
        Write::RemoveG { pk, sk } => e.handle(
            "UpdateItem",
            &json!({"TableName": "Tbl", "Key": key(*pk, *sk), "UpdateExpression": "REMOVE g"}),
        ),
    };
    r.unwrap();
}

/// Every page of a read, following LastEvaluatedKey.
fn read_all(e: &mut Engine, op: &str, mut body: Value) -> Vec<Value> {
    let mut items = Vec::new();
    for _ in 0..10_000 {
        let r = e.handle(op, &body).unwrap();
        items.extend(r["Items"].as_array().unwrap().iter().cloned());
        match r.get("LastEvaluatedKey") {
            Some(k) => body["ExclusiveStartKey"] = k.clone(),
            None => return items,
        }
    }
    panic!("pagination did not end");
}

fn as_set(items: &[Value]) -> BTreeSet<String> {
    items.iter().map(|i| i.to_string()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn indexes_equal_projected_items(writes in proptest::collection::vec(write(), 0..40)) {
        let mut e = engine();
        for w in &writes {
            apply(&mut e, w);
        }
        let table = read_all(&mut e, "Scan", json!({"TableName": "Tbl"}));
        for (index, keep) in [("GKeys", &["pk", "sk", "g"][..]), ("GAll", &[][..]), ("GInc", &["pk", "sk", "g", "v"][..])] {
            let expected: Vec<Value> = table
                .iter()
                .filter(|i| i.get("g").is_some())
                .map(|i| {
                    if keep.is_empty() {
                        i.clone()
                    } else {
                        let o = i.as_object().unwrap();
                        Value::Object(o.iter().filter(|(k, _)| keep.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect())
                    }
                })
                .collect();
            let actual = read_all(&mut e, "Scan", json!({"TableName": "Tbl", "IndexName": index}));
            prop_assert_eq!(actual.len(), expected.len());
            prop_assert_eq!(as_set(&actual), as_set(&expected));
        }
    }

    #[test]
    fn query_equals_filtered_scan(
        writes in proptest::collection::vec(write(), 0..40),
        pk in 0..3usize, lo in -6..16i64, span in 0..10i64, forward: bool,
    ) {
        let mut e = engine();
        for w in &writes {
            apply(&mut e, w);
        }
        let hi = lo + span;
        let values = json!({":p": {"S": PKS[pk]}, ":a": {"N": lo.to_string()}, ":b": {"N": hi.to_string()}});
        let query = read_all(&mut e, "Query", json!({"TableName": "Tbl",
            "KeyConditionExpression": "pk = :p AND sk BETWEEN :a AND :b",
            "ExpressionAttributeValues": values, "ScanIndexForward": forward}));
        let mut scan = read_all(&mut e, "Scan", json!({"TableName": "Tbl",
            "FilterExpression": "pk = :p AND sk BETWEEN :a AND :b",
            "ExpressionAttributeValues": values}));
        let sk = |i: &Value| i["sk"]["N"].as_str().unwrap().parse::<i64>().unwrap();
        scan.sort_by_key(sk);
        if !forward {
            scan.reverse();
        }
        prop_assert_eq!(query, scan);
    }

    #[test]
    fn paging_returns_the_same_items(
        writes in proptest::collection::vec(write(), 0..40),
        limit in 1..8i64, pk in 0..3usize, forward: bool,
    ) {
        let mut e = engine();
        for w in &writes {
            apply(&mut e, w);
        }
        let q = json!({"TableName": "Tbl", "KeyConditionExpression": "pk = :p",
                       "ExpressionAttributeValues": {":p": {"S": PKS[pk]}}, "ScanIndexForward": forward});
        let whole = read_all(&mut e, "Query", q.clone());
        let mut paged_q = q;
        paged_q["Limit"] = json!(limit);
        prop_assert_eq!(read_all(&mut e, "Query", paged_q), whole);

        let whole_scan = read_all(&mut e, "Scan", json!({"TableName": "Tbl"}));
        let paged_scan = read_all(&mut e, "Scan", json!({"TableName": "Tbl", "Limit": limit}));
        prop_assert_eq!(paged_scan, whole_scan);

        let gsi = json!({"TableName": "Tbl", "IndexName": "GKeys", "KeyConditionExpression": "g = :g",
                         "ExpressionAttributeValues": {":g": {"S": "x"}}, "ScanIndexForward": forward});
        let whole_gsi = read_all(&mut e, "Query", gsi.clone());
        let mut paged_gsi = gsi;
        paged_gsi["Limit"] = json!(limit);
        prop_assert_eq!(read_all(&mut e, "Query", paged_gsi), whole_gsi);
    }
}
