// The orders service: its handler calls its dependencies' functions by name.
use aws_sdk_dynamodb::Client;
use axum::{routing::get, Router};

async fn list_orders(c: &Client) -> Vec<Order> {
    shared::audit(c).await;
    let recent = store::recent_orders(c).send().await;
    store::fetch_all(c).await
}

#[tokio::main]
async fn main() {
    let app = Router::new().route("/orders", get(list_orders));
    axum::serve(listener, app).await.unwrap();
}
