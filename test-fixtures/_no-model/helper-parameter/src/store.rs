use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

/// The open orders, from the `ByStatus` index.
pub async fn open_orders(client: &Client, table: &str) -> Result<i32, aws_sdk_dynamodb::Error> {
    let open = client
        .query()
        .table_name(table)
        .index_name("ByStatus")
        .key_condition_expression("#s = :open")
        .expression_attribute_names("#s", "status")
        .expression_attribute_values(":open", AttributeValue::S("OPEN".into()))
        .send()
        .await?;
    Ok(open.count())
}

/// One order by its key (not called yet).
pub async fn get(client: &Client, table: &str, id: &str) -> Result<bool, aws_sdk_dynamodb::Error> {
    let found = client
        .get_item()
        .table_name(table)
        .key("id", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Ok(found.item().is_some())
}
