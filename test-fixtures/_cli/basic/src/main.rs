use aws_sdk_dynamodb::types::AttributeValue;
use aws_sdk_dynamodb::Client;
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};

const TABLE: &str = "BlogApp";

async fn all_blogs(State(client): State<Client>) -> Json<usize> {
    let out = client.scan().table_name(TABLE).send().await.unwrap_or_default();
    Json(out.count() as usize)
}

async fn latest_blogs(State(client): State<Client>) -> Json<usize> {
    // dynalint: allow(scan-in-hot-path) -- stale: this is a query now
    let out = client
        .query()
        .table_name(TABLE)
        .index_name("ByFacet")
        .key_condition_expression("facet = :f")
        .expression_attribute_values(":f", AttributeValue::S("BLOG".into()))
        .scan_index_forward(false)
        .limit(3)
        .send()
        .await
        .unwrap_or_default();
    Json(out.count() as usize)
}

#[tokio::main]
async fn main() {
    let config = aws_config::load_from_env().await;
    let app = Router::new()
        .route("/blogs", get(all_blogs))
        .route("/blogs/latest", get(latest_blogs))
        .with_state(Client::new(&config));
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}
