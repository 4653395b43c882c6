use aws_sdk_dynamodb::types::*;
use svc::ORDERS_TABLE;

#[tokio::main]
async fn main() -> Result<(), aws_sdk_dynamodb::Error> {
    let config = aws_config::load_from_env().await;
    let client = aws_sdk_dynamodb::Client::new(&config);
    client
        .create_table()
        .table_name(ORDERS_TABLE)
        .key_schema(KeySchemaElement::builder().attribute_name("customer_id").key_type(KeyType::Hash).build()?)
        .key_schema(KeySchemaElement::builder().attribute_name("order_id").key_type(KeyType::Range).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("customer_id").attribute_type(ScalarAttributeType::S).build()?)
        .attribute_definitions(AttributeDefinition::builder().attribute_name("order_id").attribute_type(ScalarAttributeType::S).build()?)
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await?;
    Ok(())
}
