// axum method routers chain one handler per HTTP method: `get(list).post(create)`.
// A `.get(key)` on a map is not a route, so `key` below is not an entry point.
use aws_sdk_dynamodb::types::AttributeValue;
use axum::{routing::get, Router};
use std::collections::HashMap;

fn app() -> Router<AppState> {
    Router::new().route("/items", get(list).post(create).delete(clear))
}

fn lookup(cache: &HashMap<String, String>) -> Option<&String> {
    cache.get("x").or(cache.get(key))
}

async fn list(State(s): State<AppState>) {
    let _ = s.db.scan().table_name("Items").send().await;
}

async fn create(State(s): State<AppState>, Json(id): Json<String>) {
    let _ = s.db.put_item().table_name("Items").item("PK", AttributeValue::S(id)).send().await;
}

async fn clear(State(s): State<AppState>) {
    let _ = s.db.delete_item().table_name("Items").key("PK", AttributeValue::S("all".into())).send().await;
}

async fn key(s: &AppState) {
    let _ = s.db.get_item().table_name("Items").key("PK", AttributeValue::S("k".into())).send().await;
}
