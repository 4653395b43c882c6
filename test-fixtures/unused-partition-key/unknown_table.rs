// A generic repository reads a table named by its caller: that read may be a GetItem by
// `TransactionID`, so the rule does not conclude anything.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub async fn by_order_id(client: &Client, order_id: &str) -> Result<Vec<Order>, Error> {
    let res = client
        .query()
        .table_name("LegacyOrders")
        .index_name("ByOrderID")
        .key_condition_expression("OrderID = :o")
        .expression_attribute_values(":o", AttributeValue::S(order_id.into()))
        .send()
        .await?;
    Ok(res.items().iter().map(to_order).collect())
}

pub async fn fetch(client: &Client, table: &str, key: HashMap<String, AttributeValue>) -> Result<Option<Item>, Error> {
    let res = client.get_item().table_name(table).set_key(Some(key)).send().await?;
    Ok(res.item().cloned())
}
