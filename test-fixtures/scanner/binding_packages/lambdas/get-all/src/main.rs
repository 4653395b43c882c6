// One Lambda package of several in the repository, each with its own `handler`.
use aws_sdk_dynamodb::Client;
use lambda_http::{run, service_fn, Error, Request};

async fn handler(table_name: &str, client: &Client, request: Request) -> Result<impl IntoResponse, Error> {
    let items = get_items(client, table_name, 10).await?;
    Ok(json(items))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let client = new_client().await;
    let table_name = &std::env::var("TABLE_NAME").expect("TABLE_NAME must be set");
    run(service_fn(move |event: Request| async move {
        handler(table_name, &client, event).await
    }))
    .await
}

async fn get_items(client: &Client, table_name: &str, limit: i32) -> Result<Vec<Item>, Error> {
    let out = client.scan().table_name(table_name).limit(limit).send().await?;
    Ok(out.items().to_vec())
}
