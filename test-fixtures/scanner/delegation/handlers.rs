// Layers that delegate under one name: the handler calls the service's `list_all`,
// which calls the repository's `list_all`. The hot chain shows the layer in between.
use axum::{routing::get, Router};

fn app() -> Router<AppState> {
    Router::new().route("/documents", get(list))
}

async fn list(State(s): State<AppState>) -> Json<Vec<Document>> {
    Json(DocumentService::new(s.repo).list_all().await)
}
