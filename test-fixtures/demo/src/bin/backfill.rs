//! One-off: adds `facet` to old items. A paginated Scan is right here: it runs once.

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;

#[tokio::main]
async fn main() -> Result<(), aws_sdk_dynamodb::Error> {
    let config = aws_config::load_from_env().await;
    let client = Client::new(&config);
    let table = std::env::var("BLOG_TABLE").expect("BLOG_TABLE is set");
    let mut pages = client.scan().table_name(&table).into_paginator().send();
    while let Some(page) = pages.next().await {
        for item in page?.items() {
            if item.contains_key("facet") {
                continue;
            }
            client
                .update_item()
                .table_name(&table)
                .key("PK", item["PK"].clone())
                .key("SK", item["SK"].clone())
                .update_expression("SET facet = :f")
                .expression_attribute_values(":f", AttributeValue::S("BLOG".into()))
                .send()
                .await?;
        }
    }
    Ok(())
}
