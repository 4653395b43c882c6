use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use lambda_http::{run, service_fn, Body, Error, Request, RequestExt, Response};

async fn list_orders(client: &Client, event: Request) -> Result<Response<Body>, Error> {
    let table_name = std::env::var("TABLE_NAME").expect("TABLE_NAME must be set");
    let order = event
        .query_string_parameters_ref()
        .and_then(|q| q.first("order"))
        .unwrap_or_default()
        .to_string();
    // The key condition names only the sort key.
    let found = client
        .query()
        .table_name(&table_name)
        .key_condition_expression("SK = :sk")
        .expression_attribute_values(":sk", AttributeValue::S(format!("ORDER#{order}")))
        .send()
        .await?;
    // ByStatus projects only the keys: `total` is not in the index.
    let open = client
        .query()
        .table_name(&table_name)
        .index_name("ByStatus")
        .key_condition_expression("#s = :open")
        .expression_attribute_names("#s", "status")
        .expression_attribute_names("#t", "total")
        .expression_attribute_values(":open", AttributeValue::S("OPEN".into()))
        .projection_expression("PK, SK, #t")
        .send()
        .await?;
    let body = format!("{} {}", found.count(), open.count());
    Ok(Response::new(Body::from(body)))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let config = aws_config::load_from_env().await;
    let client = Client::new(&config);
    run(service_fn(|event: Request| list_orders(&client, event))).await
}
