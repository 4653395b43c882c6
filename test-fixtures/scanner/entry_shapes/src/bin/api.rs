// axum with closure handlers.
use axum::{extract::State, routing::get, Json, Router};
use shop::repo::Repo;

#[tokio::main]
async fn main() {
    let repo = Repo::from_env().await;
    let app = Router::new()
        .route(
            "/recent",
            get(|State(repo): State<Repo>| async move { Json(repo.recent().await.unwrap()) }),
        )
        .with_state(repo);
    let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
    axum::serve(listener, app).await.unwrap();
}
