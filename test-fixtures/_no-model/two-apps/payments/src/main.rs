use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use lambda_http::{run, service_fn, Body, Error, Request, RequestExt, Response};

async fn get_payment(client: &Client, event: Request) -> Result<Response<Body>, Error> {
    let table_name = std::env::var("TABLE_NAME").expect("TABLE_NAME must be set");
    let id = event.path_parameters_ref().and_then(|p| p.first("id")).unwrap_or_default();
    let payment = client
        .get_item()
        .table_name(&table_name)
        .key("payment_id", AttributeValue::S(id.to_string()))
        .send()
        .await?;
    Ok(Response::new(Body::from(format!("{:?}", payment.item()))))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let config = aws_config::load_from_env().await;
    let client = Client::new(&config);
    run(service_fn(|event: Request| get_payment(&client, event))).await
}
