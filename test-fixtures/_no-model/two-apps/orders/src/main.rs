use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use lambda_http::{run, service_fn, Body, Error, Request, RequestExt, Response};

async fn get_order(client: &Client, event: Request) -> Result<Response<Body>, Error> {
    let table_name = std::env::var("TABLE_NAME").expect("TABLE_NAME must be set");
    let id = event.path_parameters_ref().and_then(|p| p.first("id")).unwrap_or_default();
    let order = client
        .get_item()
        .table_name(&table_name)
        .key("PK", AttributeValue::S(format!("CUSTOMER#{id}")))
        .key("SK", AttributeValue::S(format!("ORDER#{id}")))
        .send()
        .await?;
    Ok(Response::new(Body::from(format!("{:?}", order.item()))))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let config = aws_config::load_from_env().await;
    let client = Client::new(&config);
    run(service_fn(|event: Request| get_order(&client, event))).await
}
