// Reads by the sequence number through PartiQL: `WHERE TransactionID = ?` is a key
// lookup, so the partition key is used and nothing is flagged.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

const BY_TRANSACTION: &str = "SELECT * FROM \"LegacyOrders\" WHERE \"TransactionID\" = ?";

pub async fn by_transaction(client: &Client, id: u64) -> Result<Vec<Order>, Error> {
    let res = client
        .execute_statement()
        .statement(BY_TRANSACTION)
        .parameters(AttributeValue::N(id.to_string()))
        .send()
        .await?;
    Ok(res.items().iter().map(to_order).collect())
}

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
