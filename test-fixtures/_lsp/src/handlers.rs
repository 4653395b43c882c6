//! Request handlers.

use axum::Json;

use crate::repo;

pub async fn list_posts() -> Json<Vec<String>> {
    let client = repo::client().await;
    Json(repo::all_posts(&client).await)
}
