// The same table, but a batch job reads orders back by their sequence number: the
// partition key is used, nothing is flagged.
use aws_sdk_dynamodb::types::{AttributeValue, KeysAndAttributes};
use aws_sdk_dynamodb::Client;
use std::collections::HashMap;

const LEGACY_ORDERS_TABLE: &str = "LegacyOrders";

pub async fn by_order_id(client: &Client, order_id: &str) -> Result<Vec<Order>, Error> {
    let res = client
        .query()
        .table_name(LEGACY_ORDERS_TABLE)
        .index_name("ByOrderID")
        .key_condition_expression("OrderID = :o")
        .expression_attribute_values(":o", AttributeValue::S(order_id.into()))
        .send()
        .await?;
    Ok(res.items().iter().map(to_order).collect())
}

pub async fn replay(client: &Client, ids: &[u64]) -> Result<Vec<Order>, Error> {
    let mut out = Vec::new();
    for chunk in ids.chunks(100) {
        let keys: Vec<HashMap<String, AttributeValue>> = chunk
            .iter()
            .map(|id| HashMap::from([("TransactionID".to_string(), AttributeValue::N(id.to_string()))]))
            .collect();
        let res = client
            .batch_get_item()
            .request_items(
                LEGACY_ORDERS_TABLE,
                KeysAndAttributes::builder().set_keys(Some(keys)).build()?,
            )
            .send()
            .await?;
        out.extend(res.responses().into_iter().flat_map(|r| r.values()).flatten().map(to_order));
    }
    Ok(out)
}
