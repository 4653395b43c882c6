// A transaction whose items come from helpers that call helpers, as event stores and
// ORMs write them: each layer pushes what the layer below builds. Every item is found,
// and the search does not grow with the number of ways a helper is reached.
use aws_sdk_dynamodb::types::{AttributeValue, ConditionCheck, Put, TransactWriteItem};
use aws_sdk_dynamodb::Client;

fn put_event(stream: &str, version: u64) -> TransactWriteItem {
    TransactWriteItem::builder()
        .put(
            Put::builder()
                .table_name("events")
                .item("pk", AttributeValue::S(stream.to_string()))
                .item("sk", AttributeValue::N(version.to_string()))
                .condition_expression("attribute_not_exists(pk)")
                .build()
                .unwrap(),
        )
        .build()
}

fn check_snapshot(stream: &str) -> TransactWriteItem {
    TransactWriteItem::builder()
        .condition_check(
            ConditionCheck::builder()
                .table_name("snapshots")
                .key("pk", AttributeValue::S(stream.to_string()))
                .condition_expression("attribute_exists(pk)")
                .build()
                .unwrap(),
        )
        .build()
}

fn event_pair(stream: &str, version: u64) -> Vec<TransactWriteItem> {
    let mut items = Vec::new();
    items.push(put_event(stream, version));
    items.push(put_event(stream, version + 1));
    items
}

fn with_snapshot(stream: &str, version: u64) -> Vec<TransactWriteItem> {
    let mut items = event_pair(stream, version);
    items.push(check_snapshot(stream));
    items
}

pub async fn append(client: &Client, stream: &str, version: u64) -> Result<(), Error> {
    let items = with_snapshot(stream, version);
    client
        .transact_write_items()
        .set_transact_items(Some(items))
        .send()
        .await?;
    Ok(())
}
