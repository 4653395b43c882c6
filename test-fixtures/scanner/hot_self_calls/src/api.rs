// The routes: one lists entities through the fetcher, one lists a source's links.
use axum::{extract::Path, routing::get, Json, Router};

pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/entities", get(list_entities))
        .route("/links/{source}", get(list_links))
        .with_state(state)
}

async fn list_entities(state: AppState) -> Json<Vec<serde_json::Value>> {
    let rows = state.fetcher.list_as_json().await.unwrap_or_default();
    Json(rows.iter().map(value_to_json).collect())
}

async fn list_links(state: AppState, Path(source): Path<String>) -> Json<Vec<Link>> {
    Json(state.links.find_by_source(&source).await.unwrap_or_default())
}

// `items` and `entries` below are bindings of the enum's fields, not functions passed
// to be called.
fn value_to_json(v: &Value) -> serde_json::Value {
    match &v.kind {
        Some(Kind::ListValue(items)) => {
            serde_json::Value::Array(items.values.iter().map(value_to_json).collect())
        }
        Some(Kind::Audit(first, entries)) => serde_json::json!([first, entries.len()]),
        _ => serde_json::Value::Null,
    }
}
