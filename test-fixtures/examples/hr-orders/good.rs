// HR and order entry as article 004 designs it: orders carry a write shard 0..14 in
// `GSI2PK` (15 = the 12.5 → 13 of the sizing formula, padded) with `STATE#DATE` in
// `Data`, and "all OPEN orders in a date range" queries the 15 shards.
use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use lambda_runtime::{service_fn, LambdaEvent};

const SHARDS: u64 = 15;

pub async fn place(client: &Client, order_id: &str, customer: &str, state: &str, date: &str) -> Result<(), Error> {
    let shard = fxhash::hash64(order_id) % 15;
    client
        .put_item()
        .table_name(std::env::var("HR_ORDERS_TABLE")?)
        .item("PK", AttributeValue::S(format!("OE-ORDER#{order_id}")))
        .item("SK", AttributeValue::S(format!("CUSTOMER#{customer}")))
        .item("Data", AttributeValue::S(format!("{state}#{date}")))
        .item("GSI2PK", AttributeValue::N(shard.to_string()))
        .item("OrderState", AttributeValue::S(state.into()))
        .send()
        .await?;
    Ok(())
}

async fn open_orders(client: &Client, from: &str, to: &str) -> Result<Vec<Order>, Error> {
    let mut out = Vec::new();
    for shard in 0..SHARDS {
        let mut pages = client
            .query()
            .table_name(std::env::var("HR_ORDERS_TABLE")?)
            .index_name("GSI2")
            .key_condition_expression("GSI2PK = :shard AND #d BETWEEN :from AND :to")
            .expression_attribute_names("#d", "Data")
            .expression_attribute_values(":shard", AttributeValue::N(shard.to_string()))
            .expression_attribute_values(":from", AttributeValue::S(format!("OPEN#{from}")))
            .expression_attribute_values(":to", AttributeValue::S(format!("OPEN#{to}")))
            .into_paginator()
            .items()
            .send();
        while let Some(item) = pages.next().await {
            out.push(to_order(item?));
        }
    }
    Ok(out)
}

pub async fn employee_by_name(client: &Client, name: &str) -> Result<Vec<Employee>, Error> {
    // GSI1 is overloaded: what one sort-key value holds is not bounded by the model
    // (`HR-CONFIDENTIAL` alone is every employee), so every page is read.
    let mut pages = client
        .query()
        .table_name(std::env::var("HR_ORDERS_TABLE")?)
        .index_name("GSI1")
        .key_condition_expression("SK = :name")
        .expression_attribute_values(":name", AttributeValue::S(name.into()))
        .into_paginator()
        .items()
        .send();
    let mut items = Vec::new();
    while let Some(item) = pages.next().await {
        items.push(item?);
    }
    Ok(to_employees(&items))
}

async fn handler(event: LambdaEvent<Request>) -> Result<Response, Error> {
    let client = client().await;
    let orders = open_orders(&client, &event.payload.from, &event.payload.to).await?;
    Ok(Response::from(orders))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    lambda_runtime::run(service_fn(handler)).await
}
