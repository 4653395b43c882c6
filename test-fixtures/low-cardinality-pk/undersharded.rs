// Four shards where 13 are needed: the write is flagged with the shortfall.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

pub async fn create(client: &Client, status: OrderStatus, order_no: u64) -> Result<(), Error> {
    client
        .put_item()
        //~^ low-cardinality-pk
        .table_name("Orders")
        .item("orderId", AttributeValue::S(order_no.to_string()))
        .item("status", AttributeValue::S(format!("{}#{}", status.to_string(), order_no % 4)))
        .send()
        .await?;
    Ok(())
}

// Must not be flagged: reads by the table's unique key.
pub async fn get(client: &Client, order_id: &str) -> Result<Option<Order>, Error> {
    let out = client
        .get_item()
        .table_name("Orders")
        .key("orderId", AttributeValue::S(order_id.to_string()))
        .send()
        .await?;
    Ok(out.item.map(to_order))
}
