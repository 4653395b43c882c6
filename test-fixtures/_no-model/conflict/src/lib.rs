//! The service makes sure its table exists at start-up, with a key schema that has
//! fallen behind the setup binary's (a stale `create_table`).
use aws_sdk_dynamodb::types::{AttributeDefinition, KeySchemaElement, KeyType, ScalarAttributeType};
use aws_sdk_dynamodb::Client;

pub const ORDERS_TABLE: &str = "orders";

pub async fn ensure_table(client: &Client) -> Result<(), aws_sdk_dynamodb::Error> {
    let exists = client.describe_table().table_name(ORDERS_TABLE).send().await.is_ok();
    if !exists {
        client
            .create_table()
            .table_name(ORDERS_TABLE)
            .key_schema(
                KeySchemaElement::builder()
                    .attribute_name("order_id")
                    .key_type(KeyType::Hash)
                    .build()?,
            )
            .attribute_definitions(
                AttributeDefinition::builder()
                    .attribute_name("order_id")
                    .attribute_type(ScalarAttributeType::S)
                    .build()?,
            )
            .send()
            .await?;
    }
    Ok(())
}
