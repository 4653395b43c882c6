// A Lambda whose handler is a closure keeping the client between invocations.
use aws_sdk_dynamodb::Client;
use lambda_runtime::{run, service_fn, Error, LambdaEvent};
use serde_json::Value;

#[tokio::main]
async fn main() -> Result<(), Error> {
    let config = aws_config::load_from_env().await;
    let client = Client::new(&config);
    run(service_fn(|event: LambdaEvent<Value>| async {
        handle(&client, event).await
    }))
    .await
}

async fn handle(client: &Client, event: LambdaEvent<Value>) -> Result<Value, Error> {
    let category = event.payload["category"].as_str().unwrap_or_default();
    let out = client
        .scan()
        //~^ scan-in-hot-path
        .table_name("Catalog")
        .filter_expression("category = :c")
        .expression_attribute_values(":c", AttributeValue::S(category.into()))
        .send()
        .await?;
    Ok(serde_json::json!({ "count": out.count() }))
}
