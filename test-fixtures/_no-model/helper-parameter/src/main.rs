use aws_sdk_dynamodb::Client;
use lambda_http::{run, service_fn, Body, Error, Request, Response};

mod store;

async fn list_open(client: &Client, _event: Request) -> Result<Response<Body>, Error> {
    let table_name = std::env::var("TABLE_NAME")?;
    let open = store::open_orders(client, &table_name).await?;
    Ok(Response::new(Body::from(open.to_string())))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let config = aws_config::load_from_env().await;
    let client = Client::new(&config);
    run(service_fn(|event: Request| list_open(&client, event))).await
}
