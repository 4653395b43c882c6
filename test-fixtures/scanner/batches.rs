// Batches, transactions and rusoto struct literals.
use aws_sdk_dynamodb::types::{
    AttributeValue, ConditionCheck, Delete, Get, KeysAndAttributes, Put, PutRequest,
    TransactGetItem, TransactWriteItem, Update, WriteRequest, DeleteRequest,
};
use aws_sdk_dynamodb::Client;
use rusoto_dynamodb::{DynamoDb, DynamoDbClient, PutItemInput, QueryInput, ScanInput};

async fn transfer(client: &Client, from: &str, to: &str) -> Result<(), Error> {
    client
        .transact_write_items()
        .transact_items(
            TransactWriteItem::builder()
                .update(
                    Update::builder()
                        .table_name("Accounts")
                        .key("PK", AttributeValue::S(from.into()))
                        .update_expression("SET balance = balance - :a")
                        .condition_expression("balance >= :a")
                        .expression_attribute_values(":a", AttributeValue::N("10".into()))
                        .build()?,
                )
                .build(),
        )
        .transact_items(
            TransactWriteItem::builder()
                .condition_check(
                    ConditionCheck::builder()
                        .table_name("Accounts")
                        .key("PK", AttributeValue::S(to.into()))
                        .condition_expression("attribute_exists(PK)")
                        .build()?,
                )
                .build(),
        )
        .send()
        .await?;
    Ok(())
}

async fn vec_transaction(client: &Client, id: &str) -> Result<(), Error> {
    let put = Put::builder()
        .table_name("Orders")
        .item("PK", AttributeValue::S(id.into()))
        .build()?;
    client
        .transact_write_items()
        .set_transact_items(Some(vec![
            TransactWriteItem::builder().put(put).build(),
            TransactWriteItem::builder()
                .delete(Delete::builder().table_name("Carts").key("PK", AttributeValue::S(id.into())).build()?)
                .build(),
        ]))
        .send()
        .await?;
    Ok(())
}

async fn batch_write(client: &Client, ids: Vec<String>) -> Result<(), Error> {
    let mut writes = Vec::new();
    for id in &ids {
        writes.push(
            WriteRequest::builder()
                .put_request(PutRequest::builder().item("PK", AttributeValue::S(id.clone())).build()?)
                .build(),
        );
    }
    client.batch_write_item().request_items("Events", writes).send().await?;
    client
        .batch_write_item()
        .request_items(
            "Events",
            vec![WriteRequest::builder()
                .delete_request(DeleteRequest::builder().key("PK", AttributeValue::S("x".into())).build()?)
                .build()],
        )
        .send()
        .await?;
    Ok(())
}

async fn batch_get(client: &Client) -> Result<(), Error> {
    let keys = KeysAndAttributes::builder()
        .keys(HashMap::from([("PK".to_string(), AttributeValue::S("a".into()))]))
        .projection_expression("PK, title")
        .build()?;
    client.batch_get_item().request_items("Books", keys).send().await?;
    client
        .transact_get_items()
        .transact_items(
            TransactGetItem::builder()
                .get(Get::builder().table_name("Books").key("PK", AttributeValue::S("b".into())).build()?)
                .build(),
        )
        .send()
        .await?;
    Ok(())
}

async fn legacy(client: &DynamoDbClient) {
    let input = QueryInput {
        table_name: "Legacy".to_string(),
        index_name: Some("ByOwner".to_string()),
        key_condition_expression: Some("owner = :o".to_string()),
        expression_attribute_values: Some(HashMap::from([(":o".to_string(), AttributeValue { s: Some("me".into()), ..Default::default() })])),
        limit: Some(5),
        ..Default::default()
    };
    let _ = client.query(input).await;
    let _ = client
        .put_item(PutItemInput {
            table_name: "Legacy".into(),
            condition_expression: Some("attribute_not_exists(PK)".into()),
            ..Default::default()
        })
        .await;
}

// The caller's optional limit, as rusoto takes it: absent on some runs.
async fn legacy_page(client: &DynamoDbClient, limit: Option<i64>) {
    let _ = client
        .scan(ScanInput {
            table_name: "Legacy".to_string(),
            limit,
            ..Default::default()
        })
        .await;
}
