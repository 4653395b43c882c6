// Another package: its `handler` takes other arguments in other places.
use aws_sdk_dynamodb::Client;
use lambda_http::{run, service_fn, Error, Request};

async fn handler(client: &Client, request: Request, table: &str) -> Result<impl IntoResponse, Error> {
    let id = request.path_parameters().first("id").unwrap_or_default().to_string();
    client.delete_item().table_name(table).key("id", AttributeValue::S(id)).send().await?;
    Ok(ok())
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let client = new_client().await;
    let audit = "Audit".to_string();
    run(service_fn(|event: Request| async { handler(&client, event, &audit).await })).await
}
