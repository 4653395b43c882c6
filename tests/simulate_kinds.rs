//! Every kind of call `simulate` meets has a cost: reads measured on the generated
//! data, writes, batches, transactions and PartiQL statements by the model's figures
//! (`facts::call_cost`), each priced per call at the bundled us-east-1 on-demand prices
//! ($0.125 per million read request units, $0.625 per million write request units),
//! and checked here by hand: units × price.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::dynalint;
use serde_json::Value;

/// Orders of 1,500 B: one 4 KB read unit (half of one eventually consistent), two
/// 1 KB write units.
const MODEL: &str = r#"
[[table]]
name = "Orders"
partition-key = "PK"
sort-key = "SK"
item-count = 20_000
avg-item-size = 1_500

[table.attributes]
PK = "S"
SK = "S"

[[table.entity]]
name = "Order"
count = 20_000
keys = { PK = "ORDER#{id}", SK = "ORDER" }
"#;

const MAIN: &str = r#"
use aws_sdk_dynamodb::types::*;
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

async fn calls(client: &Client, id: &str, items: &[HashMap<String, AttributeValue>]) -> Result<(), Box<dyn std::error::Error>> {
    client.get_item().table_name("Orders")
        .key("PK", AttributeValue::S(format!("ORDER#{id}")))
        .key("SK", AttributeValue::S("ORDER".into()))
        .send().await?;
    client.query().table_name("Orders")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S(format!("ORDER#{id}")))
        .send().await?;
    client.scan().table_name("Orders").limit(100).send().await?;
    client.put_item().table_name("Orders")
        .item("PK", AttributeValue::S(format!("ORDER#{id}")))
        .item("SK", AttributeValue::S("ORDER".into()))
        .send().await?;
    client.update_item().table_name("Orders")
        .key("PK", AttributeValue::S(format!("ORDER#{id}")))
        .key("SK", AttributeValue::S("ORDER".into()))
        .update_expression("SET Shipped = :t")
        .expression_attribute_values(":t", AttributeValue::Bool(true))
        .send().await?;
    client.delete_item().table_name("Orders")
        .key("PK", AttributeValue::S(format!("ORDER#{id}")))
        .key("SK", AttributeValue::S("ORDER".into()))
        .send().await?;
    client.batch_get_item()
        .request_items("Orders", KeysAndAttributes::builder()
            .keys(HashMap::from([("PK".to_string(), AttributeValue::S("ORDER#1".into())), ("SK".to_string(), AttributeValue::S("ORDER".into()))]))
            .keys(HashMap::from([("PK".to_string(), AttributeValue::S("ORDER#2".into())), ("SK".to_string(), AttributeValue::S("ORDER".into()))]))
            .build()?)
        .send().await?;
    for chunk in items.chunks(25) {
        let writes: Vec<WriteRequest> = chunk.iter().map(|i| WriteRequest::builder()
            .put_request(PutRequest::builder().set_item(Some(i.clone())).build().unwrap())
            .build()).collect();
        client.batch_write_item().request_items("Orders", writes).send().await?;
    }
    client.transact_get_items()
        .transact_items(TransactGetItem::builder().get(Get::builder().table_name("Orders")
            .key("PK", AttributeValue::S(format!("ORDER#{id}")))
            .key("SK", AttributeValue::S("ORDER".into())).build()?).build())
        .send().await?;
    client.transact_write_items()
        .transact_items(TransactWriteItem::builder().put(Put::builder().table_name("Orders")
            .item("PK", AttributeValue::S(format!("ORDER#{id}")))
            .item("SK", AttributeValue::S("LINE#1".into())).build()?).build())
        .transact_items(TransactWriteItem::builder().condition_check(ConditionCheck::builder().table_name("Orders")
            .key("PK", AttributeValue::S(format!("ORDER#{id}")))
            .key("SK", AttributeValue::S("ORDER".into()))
            .condition_expression("attribute_exists(PK)").build()?).build())
        .send().await?;
    client.execute_statement()
        .statement("SELECT * FROM Orders WHERE PK = ? AND SK = ?")
        .send().await?;
    Ok(())
}
"#;

fn simulate() -> Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("dynalint.toml"), MODEL).unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"orders\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/main.rs"), MAIN).unwrap();
    let (out, err, code) = dynalint(
        dir.path(),
        &[
            "simulate", "--scale", "0.1", "--seed", "3", "--format", "json",
        ],
    );
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Dollars a call of `read` and `write` units costs on-demand.
fn per_call(read: f64, write: f64) -> f64 {
    (read * 0.125 + write * 0.625) / 1e6
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1e-12)
}

#[test]
fn every_kind_of_call_has_a_cost_per_call() {
    let v = simulate();
    let ops = v["operations"].as_array().unwrap();
    let kinds: Vec<&str> = ops.iter().map(|o| o["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "GetItem",
            "Query",
            "Scan",
            "PutItem",
            "UpdateItem",
            "DeleteItem",
            "BatchGetItem",
            "BatchWriteItem",
            "TransactGetItems",
            "TransactWriteItems",
            "ExecuteStatement",
        ]
    );
    // (read units, write units) of one call, by hand.
    let by_hand = |kind: &str, o: &Value| -> (f64, f64) {
        match kind {
            // Eventually consistent: half a 4 KB unit for one 1,500 B item (an order's
            // partition holds the one item: the Query reads it alone).
            "GetItem" | "Query" | "ExecuteStatement" => (0.5, 0.0),
            // The first 100 items, their bytes on the generated data in 4 KB units,
            // halved.
            "Scan" => {
                let full = &o["cost"]["full"];
                assert_eq!(full["items_read"], 100.0);
                let bytes = full["bytes_read"].as_f64().unwrap();
                ((bytes / 4096.0).ceil() / 2.0, 0.0)
            }
            // 1,500 B rounds up to two 1 KB units.
            "PutItem" | "UpdateItem" | "DeleteItem" => (0.0, 2.0),
            // Two keys, half a unit each.
            "BatchGetItem" => (1.0, 0.0),
            // Chunks of 25 puts of 2 units.
            "BatchWriteItem" => (0.0, 50.0),
            // A transactional read: one unit, twice.
            "TransactGetItems" => (2.0, 0.0),
            // The put (2) and the condition check (2), twice.
            "TransactWriteItems" => (0.0, 8.0),
            k => panic!("no figure for {k}"),
        }
    };
    for (o, kind) in ops.iter().zip(&kinds) {
        assert_eq!(o["table"], "Orders", "{o:#}");
        assert!(
            o["served_by"].as_str().unwrap().contains("`Orders`"),
            "{o:#}"
        );
        // The reads are replayed on the data; the rest are priced by the model.
        let measured = matches!(*kind, "GetItem" | "Query" | "Scan");
        assert_eq!(o["cost"].is_object(), measured, "{o:#}");
        let (read, write) = by_hand(kind, o);
        assert!(read + write > 0.0, "{kind}: {o:#}");
        let got = o["spend"]["per_call_on_demand"]
            .as_f64()
            .unwrap_or_else(|| panic!("{kind} has no cost: {o:#}"));
        assert!(
            close(got, per_call(read, write)),
            "{kind}: {got} for {read} RRU + {write} WRU: {o:#}"
        );
    }
}
