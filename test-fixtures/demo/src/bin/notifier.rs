//! A Lambda that runs on every new-comment event and counts a blog's comments.

use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use lambda_runtime::{run, service_fn, Error, LambdaEvent};
use serde_json::Value;

static TABLE: &str = "BlogApp";

async fn handler(event: LambdaEvent<Value>) -> Result<Value, Error> {
    let config = aws_config::load_from_env().await;
    let client = Client::new(&config);
    let blog_id = event.payload["blogID"].as_str().unwrap_or_default().to_string();
    let count = count_comments(&client, &blog_id).await?;
    Ok(serde_json::json!({ "comments": count }))
}

/// Anti-pattern: counts by scanning every item of the table on each event.
async fn count_comments(client: &Client, blog_id: &str) -> Result<i32, Error> {
    let out = client
        .scan()
        .table_name(TABLE)
        .filter_expression("blogID = :b AND facet = :comment")
        .expression_attribute_values(":b", AttributeValue::S(blog_id.to_string()))
        .expression_attribute_values(":comment", AttributeValue::S("COMMENT".into()))
        .select(aws_sdk_dynamodb::types::Select::Count)
        .send()
        .await?;
    Ok(out.count())
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    run(service_fn(handler)).await
}
