use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::AttributeValue;
use axum::{routing::get, Router, extract::State};

pub const ORDERS_TABLE: &str = "orders";

pub async fn serve(client: Client) {
    let app = Router::new().route("/orders", get(list_orders)).with_state(client);
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}

async fn list_orders(State(client): State<Client>) -> String {
    let out = client
        .query()
        .table_name(ORDERS_TABLE)
        .key_condition_expression("order_id = :id")
        .expression_attribute_values(":id", AttributeValue::S("1".into()))
        .send()
        .await
        .unwrap();
    let all = client.scan().table_name(ORDERS_TABLE).send().await.unwrap();
    format!("{:?} {:?}", out, all)
}
