// dynalint.toml:
// HR and order entry (article 004) the naive way: "all OPEN orders in a date range"
// scans the whole table from a request handler and filters on the state, and the
// sharded `GSI2` is queried by the state itself, a value its numeric shard key never
// takes.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use lambda_runtime::{service_fn, LambdaEvent};

async fn open_orders(client: &Client, from: &str, to: &str) -> Result<Vec<Order>, Error> {
    let out = client
        .scan()
        //~^ scan-in-hot-path, unpaginated-query
        .table_name(std::env::var("HR_ORDERS_TABLE")?)
        .filter_expression("OrderState = :open AND #d BETWEEN :from AND :to")
        //~^ filter-instead-of-index
        .expression_attribute_names("#d", "Data")
        .expression_attribute_values(":open", AttributeValue::S("OPEN".into()))
        .expression_attribute_values(":from", AttributeValue::S(from.into()))
        .expression_attribute_values(":to", AttributeValue::S(to.into()))
        .send()
        .await?;
    Ok(to_orders(out.items()))
}

async fn open_orders_by_state(client: &Client) -> Result<Vec<Order>, Error> {
    let out = client
        .query()
        //~^ rejected-request, unpaginated-query
        .table_name(std::env::var("HR_ORDERS_TABLE")?)
        .index_name("GSI2")
        .key_condition_expression("GSI2PK = :state")
        .expression_attribute_values(":state", AttributeValue::S("OPEN".into()))
        //~^ unserved-access-pattern
        .send()
        .await?;
    Ok(to_orders(out.items()))
}

async fn handler(event: LambdaEvent<Request>) -> Result<Response, Error> {
    let client = client().await;
    let mut orders = open_orders(&client, &event.payload.from, &event.payload.to).await?;
    orders.extend(open_orders_by_state(&client).await?);
    Ok(Response::from(orders))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    lambda_runtime::run(service_fn(handler)).await
}
