use aws_sdk_dynamodb::Client;
use lambda_runtime::{service_fn, Error, LambdaEvent};
use serde_json::Value;

const TABLE: &str = "Catalog";

async fn handle(event: LambdaEvent<Value>) -> Result<Value, Error> {
    let client = Client::new(&aws_config::load_from_env().await);
    let n = total(&client).await?;
    Ok(serde_json::json!({ "total": n, "id": event.payload["id"] }))
}

async fn total(client: &Client) -> Result<i32, Error> {
    let out = client
        .scan()
        //~^ scan-in-hot-path
        .table_name(TABLE)
        .select(aws_sdk_dynamodb::types::Select::Count)
        .send()
        .await?;
    Ok(out.count())
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    lambda_runtime::run(service_fn(handle)).await
}
